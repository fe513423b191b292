#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: an 802.11s mesh of three guests in a line.

Three guests, each its own QEMU process with a bcm4331, on one air over
UDP multicast: A - B - C.  The ends cannot hear each other: each process's
medium switches the link between A's and C's cards off (wifi-link-set over
QMP, by MAC address: the address travels with every frame across
processes).  Each guest makes wlan0 a mesh point (`iw dev wlan0 set type
mp`, `iw dev wlan0 mesh join bcmmesh`: open mesh, mac80211's own peering
and HWMP path selection).  Checks: A and C each peer with B only; A pings
C end to end, B forwarding (A's mesh path to C has B as next hop); b43
prints no error or warning.  (WPA3-SAE mesh needs wpa_supplicant's mesh
mode driving the peering; this test runs the open mesh.)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise,  # noqa
                     kernel_splat, run_guests, SH_WLAN0)

MACS = {"a": "02:00:00:00:5e:0a", "b": "02:00:00:00:5e:0b",
        "c": "02:00:00:00:5e:0c"}
IPS = {"a": "10.10.0.1", "b": "10.10.0.2", "c": "10.10.0.3"}

SCENARIO = r"""
""" + SH_WLAN0 + r"""echo "BCM-HOST: links"
sleep 1
iw dev wlan0 set type mp
ip link set wlan0 up
iw dev wlan0 mesh join bcmmesh freq 2437
ip addr add IP/24 dev wlan0
wait-for 'iw dev wlan0 station dump | grep -q ESTAB' 60
echo "== peered"
WORK
echo "== stations"
iw dev wlan0 station dump | grep -E '^Station|mesh plink'
echo "== mpath"
iw dev wlan0 mpath dump
echo "== end"
"""

# A: wait for C to be up, then ping it across B; C and B stay up a while
WORK = {
    "a": "wait-for 'ping -c 1 -W 1 10.10.0.3 > /dev/null' 90\n"
         "pings -c 10 -i 0.3 10.10.0.3\n",
    "b": "sleep 40\n",
    "c": "sleep 40\n",
}

check = Checks()


def main():
    mcast = air_netdev()

    def links(qmp):
        # the ends do not hear each other, in every process
        qmp.cmd("wifi-link-set", a=MACS["a"], b=MACS["c"], enabled=False)

    guests = []
    for n in "abc":
        scenario = SCENARIO.replace("IP", IPS[n]).replace("WORK", WORK[n])
        guests.append(Guest(
            "mesh-" + n, scenario, timeout=300,
            actions={"BCM-HOST: links": links},
            qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                       "-netdev", mcast,
                       "-device", "bcm4331,id=wlan0,addr=04.0,medium=air0,"
                       "mac=" + MACS[n]]))
    res = run_guests(guests)
    for r in res:
        print(r.output)
    a, b, c = res
    for r, g in zip(res, guests):
        check(r.ok, "scenario ran to the end", r)
        check(not g.action_errors, "host actions %s" % g.action_errors, r)
        check("== peered" in r.output, "a mesh peer link established", r)
        check(not driver_noise(r.dmesg), "no b43/bcma error or warning %s" %
              driver_noise(r.dmesg)[:3], r)
        check(not kernel_splat(r.dmesg), "no kernel WARN", r)

    def peers(r):
        m = re.search(r"== stations\n(.*?)== mpath", r.output, re.S)
        return re.findall(r"Station ([0-9a-f:]{17})", m.group(1) if m else "")

    check(peers(a) == [MACS["b"]], "A peers with B only %s" % peers(a), a)
    check(peers(c) == [MACS["b"]], "C peers with B only %s" % peers(c), c)
    check(sorted(peers(b)) == sorted([MACS["a"], MACS["c"]]),
          "B peers with A and C %s" % peers(b), b)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in a.output, "A pings C end to end without loss", a)
    m = re.search(r"%s\s+%s" % (MACS["c"], MACS["b"]), a.output)
    check(m is not None, "A's mesh path to C goes through B", a)
    return check.finish(res)


if __name__ == "__main__":
    sys.exit(main())
