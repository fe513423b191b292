#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: two guests in IBSS (ad-hoc) ping each other, each in its own
QEMU process, one air over UDP multicast on 127.0.0.1."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     run_guests, SH_WLAN0)

SCENARIO = r"""
""" + SH_WLAN0 + r"""iw dev wlan0 set type ibss
ip link set wlan0 up
iw dev wlan0 ibss join ADHOC 2437 && echo "joined"
ip addr add 192.168.88.ME/24 dev wlan0
wait-for 'ping -c 1 -W 1 192.168.88.PEER >/dev/null' 90 && echo "peer reachable"
pings -c 10 -i 0.2 192.168.88.PEER
sleep 5
true
"""

check = Checks()


def main():
    mcast = air_netdev()
    guests = [Guest("ibss-%d" % me, SCENARIO.replace("ME", str(me))
                    .replace("PEER", str(3 - me)), timeout=300,
                    qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                               "-netdev", mcast, "-device",
                               "bcm4331,addr=04.0,medium=air0,"
                               "mac=02:00:00:00:01:%02x" % me])
              for me in (1, 2)]
    results = run_guests(guests)
    for r in results:
        print(r.output)
        check(r.ok, "scenario ran to the end", r)
        check("joined" in r.output, "joined the IBSS", r)
        check("10 packets transmitted, 10 packets received, 0% packet loss"
              in r.output, "pings the peer without loss", r)
        check(not driver_noise(r.dmesg), "no b43/bcma error or warning", r)
        check(not kernel_splat(r.dmesg), "no kernel WARN", r)
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
