#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: system_reset in the middle of traffic, and the real driver
probes the card again, cleanly.

One guest, a bcm4331 on a wifi-medium with a wifi-ap bridged to user
networking (airtime on: frames are on the air's timers when the reset
comes).  On every boot the scenario associates, gets an address, and
starts a ping flood of 1400-byte frames and a download; then the host
resets the machine (QMP system_reset) with those frames in flight.
RESETS times; after the last boot the host flips the card's rfkill
switch instead and the scenario ends.  Every boot must find the card
(bcma's chip line, b43's firmware line), associate and reach the host,
and no boot may show a b43/bcma error or warning, or a kernel WARN.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Guest, driver_noise, kernel_splat, START,  # noqa
                     SH_WLAN0)

RESETS = 3

SCENARIO = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 30 && echo "connected"
udhcpc -i wlan0 -n -q -t 10 >/dev/null 2>&1
ping -c 3 -i 0.2 10.0.2.2 | grep -q ' 0% packet loss' && echo "host reached"
# traffic in flight when the reset comes
ping -q -s 1400 -i 0.01 10.0.2.2 >/dev/null 2>&1 &
sleep 1
# this boot's driver lines (the console shows only warnings and worse)
dmesg | grep -E 'bcma|b43|WARNING:|Call Trace' | sed 's/^/boot-dmesg: /'
rf=$(ls -d /sys/class/ieee80211/phy*/rfkill* | head -n1)
export rf
echo "BCM-HOST: reset"
wait-for '[ "$(cat $rf/hard)" = 1 ]' 60 && echo "no more resets"
"""

check = Checks()


def main():
    resets = []

    def reset(qmp):
        if len(resets) < RESETS:
            resets.append(1)
            qmp.cmd("system_reset")
            return True                 # again on the next boot
        qmp.cmd("qom-set", path="/machine/peripheral/wifi0",
                property="rfkill", value=True)
        return False

    g = Guest("reset", SCENARIO, timeout=900, reboot=True,
              actions={"BCM-HOST: reset": reset},
              qemu_args=["-object", "wifi-medium,id=air0,airtime=on",
                         "-netdev", "user,id=n0",
                         "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                         "netdev=n0,channel=6",
                         "-device", "bcm4331,id=wifi0,addr=04.0,"
                         "medium=air0"])
    r = g.run()
    text = r.text
    boots = text.count(START)
    print("boots %d, resets %d" % (boots, len(resets)))
    check(not g.action_errors, "host actions %s" % g.action_errors, r)
    check(r.ok, "the last boot's scenario ran to the end", r)
    check(len(resets) == RESETS and boots == RESETS + 1,
          "%d resets, %d boots" % (len(resets), boots), r)
    for what, pat in (("bcma found the chip", r"boot-dmesg: .*Found chip "
                       r"with id 0x4331, rev 0x02 and package 0x09"),
                      ("b43 loaded its firmware",
                       r"boot-dmesg: .*Loading firmware version 784\.2"),
                      ("associated", r"^connected$"),
                      ("reached the host", r"^host reached$")):
        n = len(re.findall(pat, text, re.M))
        check(n >= RESETS + 1, "every boot: %s (%d times)" % (what, n), r)
    check("no more resets" in r.output, "the last boot saw rfkill", r)
    # the console has every boot's warnings (loglevel 4), dmesg the last's
    bad = driver_noise(text + r.dmesg)
    check(not bad, "no b43/bcma error or warning %s" % bad[:5], r)
    check(not kernel_splat(text), "no kernel WARN in any boot", r)
    return check.finish([r])


if __name__ == "__main__":
    sys.exit(main())
