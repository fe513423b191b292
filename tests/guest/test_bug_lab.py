#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The bug lab's catalogue as guest tests (tests/guest/buglab.py,
docs/bug-lab.md).

    test_bug_lab.py rx-ring-bit12    pre-fix b43 with rx-cd-erratum on (soft
                                     lockup in b43_dma_rx, slot 257) and off
                                     (works), b43 of the kernel with both
    test_bug_lab.py rings-above-4g   rings and buffers above 4 GiB with
                                     64-bit engines, none with dma64=off
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, driver_noise, kernel_splat  # noqa: E402
import buglab  # noqa: E402


def main():
    entry = sys.argv[1] if len(sys.argv) > 1 else "rx-ring-bit12"
    if entry not in buglab.ENTRIES:
        sys.exit("usage: test_bug_lab.py %s" % "|".join(buglab.ENTRIES))
    check = Checks()
    results = []
    for case, obs, ok, det, res in buglab.run_entry(entry):
        results.append(res)
        check(ok, "%s: %s" % (case.name, obs), res)
        if case.works:
            # a working case works as on real hardware: no driver noise
            # (but the kernel's notice that the rebuilt module is unsigned)
            bad = [ln for ln in driver_noise(res.dmesg)
                   if "module verification failed: signature" not in ln]
            check(res.ok, "%s: scenario ran to the end" % case.name, res)
            check(not bad, "%s: no b43/bcma error or warning %s" %
                  (case.name, bad[:3]), res)
            check(not kernel_splat(res.dmesg), "%s: no kernel WARN" %
                  case.name, res)
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
