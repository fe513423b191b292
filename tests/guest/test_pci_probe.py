#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: the real kernel sees a BCM4331 PCIe function and bcma binds it.

One q35 guest with one card, one pc guest with two cards, booted together.
Asserted from the guest's lspci, sysfs and dmesg: 14e4:4331 rev 02, class
0280, subsystem 106b:00d6, BAR0 64-bit non-prefetchable 16 KiB, INTx pin A,
capabilities PM/MSI/Express, and the bcma-pci-bridge driver probing it.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Guest, run_guests  # noqa: E402

SCENARIO = r"""
echo "== lspci"
lspci -nn -vv -k -d 14e4:4331
echo "== sysfs"
for d in /sys/bus/pci/devices/*; do
    [ "$(cat $d/vendor)" = 0x14e4 ] || continue
    echo "dev ${d##*/} $(cat $d/vendor) $(cat $d/device) $(cat $d/revision)" \
         "$(cat $d/class) $(cat $d/subsystem_vendor) $(cat $d/subsystem_device)" \
         "irq=$(cat $d/irq)"
    head -n1 $d/resource
done
echo "== end"
"""

check = Checks()


def check_card(res, slot):
    out = res.output
    # lspci block of this function
    m = re.search(r"^%s (.*?)(?=^\S|\Z)" % re.escape(slot), out, re.S | re.M)
    check(m is not None, "lspci lists %s" % slot, res)
    if not m:
        return
    block = slot + " " + m.group(1)
    check(re.search(r"Network controller \[0280\]: .*\[14e4:4331\] \(rev 02\)",
                    block) is not None,
          "%s is [14e4:4331] rev 02 class 0280" % slot, res)
    check(re.search(r"Subsystem: .*\[106b:00d6\]", block) is not None,
          "%s subsystem 106b:00d6" % slot, res)
    check(re.search(r"Region 0: Memory at [0-9a-f]+ \(64-bit, "
                    r"non-prefetchable\) \[size=16K\]", block) is not None,
          "%s BAR0 64-bit non-prefetchable 16K" % slot, res)
    check(re.search(r"Region [1-5]:", block) is None,
          "%s has no other BAR" % slot, res)
    check("Interrupt: pin A" in block, "%s INTx pin A" % slot, res)
    caps = re.findall(r"Capabilities: \[([0-9a-f]+)\] ([^\n]*)", block)
    names = [(off, txt.split(" ")[0]) for off, txt in caps]
    check(names[:3] == [("40", "Power"), ("58", "MSI:"), ("d0", "Express")],
          "%s capabilities PM@40 MSI@58 Express@d0 (%s)" % (slot, names), res)
    check(re.search(r"MSI: Enable-", block) is not None,
          "%s MSI disabled" % slot, res)
    check(re.search(r"Kernel modules: .*bcma", block) is not None,
          "%s bcma module matches" % slot, res)
    # the driver probed this function and kept it
    check(re.search(r"bcma-pci-bridge 0000:%s: bus\d+: Found chip" %
                    re.escape(slot), res.dmesg) is not None,
          "bcma-pci-bridge probed %s" % slot, res)
    check("Kernel driver in use: bcma-pci-bridge" in block,
          "%s bound to bcma-pci-bridge" % slot, res)


def main():
    q35 = Guest("pci-probe-q35", SCENARIO, machine="q35",
                qemu_args=["-device", "bcm4331,addr=04.0"])
    pc = Guest("pci-probe-pc-2cards", SCENARIO, machine="pc",
               qemu_args=["-device", "bcm4331,addr=04.0",
                          "-device", "bcm4331,addr=05.0,"
                          "mac=02:00:00:00:00:02"])
    results = run_guests([q35, pc])
    for r in results:
        check(r.ok, "scenario ran to the end", r)
        print(r.output)
    check_card(results[0], "00:04.0")
    check_card(results[1], "00:04.0")
    check_card(results[1], "00:05.0")
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
