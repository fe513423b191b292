#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: four guests in four QEMU processes on one air that takes
real 802.11g time, joined by UDP multicast on 127.0.0.1 (no root, no
daemon).

Guest A runs hostapd (open network, channel 6) on its bcm4331; guests B
and C associate, and A, B and C ping each other (B <-> C through the
AP).  Guest D's monitor interface asks for control frames and frames with
a bad FCS.  Every medium has airtime=on; A's medium corrupts 3% of its
transmissions (fcs-error-rate=30) and writes the air to a pcap.

Checks: everybody pings everybody without loss; the monitor sees beacons,
data, ACKs and frames flagged bad-fcs by radiotap; tshark reads the pcap
without a malformed frame and finds beacons, data and ACKs; no b43/bcma
error or warning, no kernel WARN.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     run_guests, SH_WLAN0, sh_hostapd, sh_leave,
                     sh_monitor, sh_stations_left,
                     fresh_pcap, check_pcap)

MAC = {"a": "02:00:00:00:00:1a", "b": "02:00:00:00:00:1b",
       "c": "02:00:00:00:00:1c", "d": "02:00:00:00:00:1d"}

AP = r"""
""" + SH_WLAN0 + sh_hostapd("FOUR", "") + r"""ip addr add 192.168.78.1/24 dev wlan0
wait-for '[ $(iw dev wlan0 station dump | grep -c Station) = 2 ]' 240 &&
    echo "stations joined"
ping -c 10 -i 0.2 192.168.78.2 | grep transmitted | sed 's/^/to B: /'
ping -c 10 -i 0.2 192.168.78.3 | grep transmitted | sed 's/^/to C: /'
# stay up until both stations have pinged each other (through us) and
# left (absent twice); a departure the AP does not notice (a lost
# deauthentication) costs at most 90 s
""" + sh_stations_left(90) + r"""echo "stations left"
"""

STA = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: FOUR"' 90
iw dev wlan0 connect FOUR
wait-for 'iw dev wlan0 link | grep -q Connected' 30 && echo "connected"
ip addr add 192.168.78.{me}/24 dev wlan0
ping -c 10 -i 0.2 192.168.78.1 | grep transmitted | sed 's/^/to A: /'
# the other station may still be on its way: wait until it answers
wait-for 'ping -c 1 -W 1 192.168.78.{peer} >/dev/null' 180
ping -c 10 -i 0.2 192.168.78.{peer} | grep transmitted | sed 's/^/to peer: /'
# the other station pings us too: stay until it is done
sleep 8
""" + sh_leave()

MON = r"""
""" + SH_WLAN0 + sh_monitor("control fcsfail otherbss") + r"""# until unicast data between the two stations has shown up, then a bit
wait-for "grep -q 'DA:02:00:00:00:00:1c.*SA:02:00:00:00:00:1b' /tmp/cap.txt" 300
sleep 2
kill %1
echo "beacons $(grep -c 'Beacon (FOUR)' /tmp/cap.txt)"
echo "acks $(grep -c 'Acknowledgment' /tmp/cap.txt)"
echo "bad-fcs $(grep -c 'bad-fcs' /tmp/cap.txt)"
echo "data $(grep -c 'DA:02:00:00:00:00:1c.*SA:02:00:00:00:00:1b' /tmp/cap.txt)"
grep -m 2 'Acknowledgment' /tmp/cap.txt
grep -m 2 'bad-fcs' /tmp/cap.txt
true
"""

check = Checks()


def main():
    mcast = air_netdev()
    pcap = fresh_pcap("four-vms.pcap")

    def guest(name, script, mac, medium_opts=""):
        return Guest(name, script, timeout=600,
                     qemu_args=["-object", "wifi-medium,id=air0,netdev=l0,"
                                "airtime=on" + medium_opts,
                                "-netdev", mcast, "-device",
                                "bcm4331,addr=04.0,medium=air0,mac=" + mac])

    guests = [guest("four-ap", AP, MAC["a"],
                    ",fcs-error-rate=30,pcap=" + pcap),
              guest("four-sta-b", STA.replace("{me}", "2")
                    .replace("{peer}", "3"), MAC["b"]),
              guest("four-sta-c", STA.replace("{me}", "3")
                    .replace("{peer}", "2"), MAC["c"]),
              guest("four-monitor", MON, MAC["d"])]
    ap, b, c, mon = run_guests(guests)
    for r in (ap, b, c, mon):
        print(r.output)
        check(r.ok, "scenario ran to the end", r)
        check(not driver_noise(r.dmesg), "no b43/bcma error or warning %s" %
              driver_noise(r.dmesg)[:3], r)
        check(not kernel_splat(r.dmesg), "no kernel WARN", r)
    lossless = "10 packets transmitted, 10 packets received, 0% packet loss"
    check("hostapd started" in ap.output, "hostapd runs on b43", ap)
    check("stations joined" in ap.output, "both stations joined", ap)
    check("to B: " + lossless in ap.output, "A pings B without loss", ap)
    check("to C: " + lossless in ap.output, "A pings C without loss", ap)
    for r in (b, c):
        check("connected" in r.output, "associated", r)
        check("to A: " + lossless in r.output, "pings A without loss", r)
        check("to peer: " + lossless in r.output,
              "pings the other station without loss", r)
    check("monitor on channel 6" in mon.output, "monitor interface", mon)
    for what in ("beacons", "acks", "bad-fcs", "data"):
        m = re.search(r"^%s (\d+)" % what, mon.output, re.M)
        check(m is not None and int(m.group(1)) > 0,
              "monitor sees %s (%s)" % (what, m and m.group(1)), mon)
    check_pcap(check, pcap, ap, (("beacon", "0x0008"), ("data", "0x0020"),
                                 ("ACK", "0x001d")), bad_fcs=True)
    return check.finish([ap, b, c, mon])


if __name__ == "__main__":
    sys.exit(main())
