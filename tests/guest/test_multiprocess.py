#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: the air across QEMU processes, and its pcap.

Process 1 (no guest, -M none) has the virtual access point on its
wifi-medium, bridged to user networking, and writes the air to a pcap.
Process 2 runs a guest with a bcm4331 on its own wifi-medium.  The two media
are joined through a UDP multicast netdev on 127.0.0.1 (no root, no
daemon).  The guest scans, associates across the processes, gets 10.0.2.15
from process 1's slirp and pings 10.0.2.2; tshark reads the pcap without a
malformed frame and finds beacons, authentication, association, data and
the ACKs of both sides (the guest's card acknowledges in process 2, the
access point in process 1).
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     log_dir, qemu_binary, SH_WLAN0,
                     fresh_pcap, check_pcap)

SCENARIO = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID:'
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20 && echo "connected"
udhcpc -i wlan0 -n -q -t 10
ip -4 addr show wlan0
pings -c 10 -i 0.2 10.0.2.2
"""

check = Checks()


def main():
    mcast = air_netdev()
    pcap = fresh_pcap("multiprocess.pcap")
    ap_log = open(os.path.join(log_dir(), "multiprocess-ap.log"), "wb")
    ap = subprocess.Popen([qemu_binary(), "-M", "none", "-display", "none",
                           "-object", "wifi-medium,id=air0,netdev=l0,pcap=" +
                           pcap, "-netdev", mcast, "-netdev", "user,id=n0",
                           "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                           "netdev=n0"], stdout=ap_log, stderr=ap_log)
    try:
        g = Guest("multiprocess", SCENARIO, timeout=300,
                  qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                             "-netdev", mcast,
                             "-device", "bcm4331,addr=04.0,medium=air0"])
        r = g.run()
    finally:
        ap.terminate()
        ap.wait()
        ap_log.close()
    out, dm = r.output, r.dmesg
    print(out)
    check(r.ok, "scenario ran to the end", r)
    check(re.search(r"freq: 2437\s+signal: -?\d+\.\d+ dBm\s+SSID: QEMU", out)
          is not None, "scan finds QEMU in the other process", r)
    check("connected" in out and "wlan0: associated" in dm,
          "associated across processes", r)
    check("inet 10.0.2.15/24" in out, "DHCP from the other process", r)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in out, "ping 10.0.2.2 without loss", r)
    check(not driver_noise(dm), "no b43/bcma error or warning", r)
    check(not kernel_splat(dm), "no kernel WARN", r)
    check_pcap(check, pcap, r, (("beacon", "0x0008"),
                                ("authentication", "0x000b"),
                                ("association request", "0x0000"),
                                ("data", "0x0020"), ("ACK", "0x001d")))
    return check.finish([r])


if __name__ == "__main__":
    sys.exit(main())
