#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: the real bcma driver enumerates the card as real hardware.

Booted with the 6.12 (bookworm-backports) and the 6.1 (bookworm) kernel at
once.  Checks the dmesg lines bcma prints on a real card, the absence of every
bcma error/warning/timeout line, the 802.11 core in sysfs, that b43's probe
is reached, and the time bcma's probe takes (an unbind/bind of the PCI
function, from bind to "Bus registered"), which it prints.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Guest, driver_noise, run_guests  # noqa: E402

SCENARIO = r"""
d=/sys/bus/bcma/devices/bcma0:1
echo "core $(cat $d/manuf) $(cat $d/id) $(cat $d/rev) $(cat $d/class)"
grep MODALIAS $d/uevent
# re-probe: unbind/bind the PCI function and time bcma's probe
echo 0000:00:04.0 > /sys/bus/pci/drivers/bcma-pci-bridge/unbind
echo "bcm4331-test: bind start" > /dev/kmsg
echo 0000:00:04.0 > /sys/bus/pci/drivers/bcma-pci-bridge/bind
echo "bcm4331-test: bind done" > /dev/kmsg
ls /sys/bus/bcma/devices/
"""

# bcma's error/warning/timeout messages (drivers/bcma/*.c): none may appear
BAD = [
    "No SPROM available", "Invalid SPROM read", "Unsupported SPROM revision",
    "Using fallback SPROM failed", "Failed to get SPROM",
    "Timeout waiting for register", "HT force timeout", "PLL enable timeout",
    "Power control not implemented", "Couldn't find expected PMU core",
    "Bridge found", "PCI card detected", "probe with driver bcma-pci-bridge "
    "failed",
]

check = Checks()


def ts(line):
    m = re.match(r"\[\s*(\d+\.\d+)\]", line)
    return float(m.group(1)) if m else None


def check_guest(res):
    check(res.ok, "scenario ran to the end", res)
    dm = res.dmesg
    pfx = r"bcma-pci-bridge 0000:00:04\.0: bus(\d+): "
    for want in [
        r"Found chip with id 0x4331, rev 0x02 and package 0x09",
        r"Core 0 found: ChipCommon \(manuf 0x4BF, id 0x800, rev 0x25, "
        r"class 0x0\)",
        r"Core 1 found: IEEE 802\.11 \(manuf 0x4BF, id 0x812, rev 0x1D, "
        r"class 0x0\)",
        r"Core 2 found: PCIe \(manuf 0x4BF, id 0x820, rev 0x13, class 0x0\)",
        r"Bus registered",
    ]:
        n = len(re.findall(pfx + want, dm))
        # once at boot, once at the re-bind
        check(n == 2, "dmesg '%s' x2 (got %d)" % (want.replace("\\", ""), n),
              res)
    check(re.search(r"b43-phy\d+: Broadcom 4331 WLAN found \(core revision "
                    r"29\)", dm) is not None, "b43 probe reached", res)
    for bad in BAD:
        check(bad not in dm, "no '%s'" % bad, res)
    # lines of bcma itself (b43's lines name its bcma0:1 device too)
    noisy = driver_noise(dm, r"bcma-pci-bridge|\bbcma:")
    check(not noisy, "no bcma error/warning/timeout line %s" % noisy, res)
    check("core 0x4BF 0x812 0x1D 0x0" in res.output.replace("0x04BF",
                                                           "0x4BF"),
          "sysfs bcma0:1 = manuf 0x4BF id 0x812 rev 0x1D class 0x0", res)
    check(re.search(r"MODALIAS=bcma:m04BFid0812rev1Dcl00", res.output)
          is not None, "bcma0:1 modalias", res)

    # probe time: from bind to "Bus registered" of the second probe
    lines = dm.splitlines()
    start = [ts(ln) for ln in lines if "bcm4331-test: bind start" in ln]
    reg = [ts(ln) for ln in lines if re.search(pfx + "Bus registered", ln)]
    boot_found = [ts(ln) for ln in lines if re.search(pfx + "Found chip", ln)]
    if start and len(reg) == 2 and boot_found:
        print("%s: bcma probe at boot: 'Found chip' -> 'Bus registered' "
              "%.1f ms" % (res.name, (reg[0] - boot_found[0]) * 1000))
        print("%s: bcma re-probe: bind -> 'Bus registered' %.1f ms" %
              (res.name, (reg[1] - start[0]) * 1000))
        # a driver poll running into its timeout costs >= 15 ms (HT),
        # 100 ms (PLL) or 3 s (RESET_ST); under TCG the probe itself
        # takes a few ms
        check(reg[1] - start[0] < 0.5, "re-probe without a poll timeout", res)
    else:
        check(False, "probe timing lines found", res)


def main():
    guests = [Guest("bcma-%s" % k, SCENARIO, kernel=k, machine="q35",
                    qemu_args=["-device", "bcm4331,addr=04.0"])
              for k in ("6.12", "6.1")]
    results = run_guests(guests)
    for r in results:
        print(r.output)
        check_guest(r)
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
