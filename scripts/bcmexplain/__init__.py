# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/explain.py: what the driver said to the BCM4331 model.

    headers.py  the register definitions, parsed from the device's headers
    trace.py    a trace read into steps and their accesses
    phases.py   the phases of the driver's work, and each access's phase
    decode.py   an access line in words, its value in its fields
    render.py   the transcript, as text and as HTML
    cli.py      the command line and the live run
"""

from .decode import Decoder
from .headers import HEADERS, RegDefs, pci_regs
from .phases import classify
from .trace import Reader


class Explainer(Reader):
    """A trace read (parse()), its accesses given their phases (classify())
    and described (describe(), regs_delta()); the register definitions
    @regs are the device's headers' unless given."""

    def __init__(self, regs=None):
        regs = regs or RegDefs(HEADERS)
        pci_names, pci_bits = pci_regs()
        super().__init__(regs, pci_names)
        dec = Decoder(regs, pci_bits, self.erom_role)
        self.describe, self.regs_delta = dec.describe, dec.regs_delta

    def classify(self):
        classify(self.stages)
