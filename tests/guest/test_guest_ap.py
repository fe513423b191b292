#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: a guest's hostapd on its bcm4331 as access point, a station
in another QEMU process, a third in monitor mode, one air over UDP
multicast on 127.0.0.1.

Guest A runs hostapd (open network, channel 6) on b43; guest B scans,
associates and both ping each other without loss, then iperf3 both ways;
guest C's tcpdump on a monitor interface sees the beacons and the
station's frames.  No b43/bcma error or warning anywhere.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     run_guests, SH_WLAN0, sh_hostapd, sh_leave, sh_monitor,
                     sh_stations_left)

AP = r"""
""" + SH_WLAN0 + sh_hostapd("GUEST", "") + r"""ip addr add 192.168.77.1/24 dev wlan0
iperf3 -s -D
wait-for 'iw dev wlan0 station dump | grep -q Station' 150 && echo "station joined"
# the station adds its address after it associated: until it answers
wait-for 'ping -c 1 -W 1 192.168.77.2 >/dev/null' 60
pings -c 10 -i 0.2 192.168.77.2
# stay up until the station has measured and left
# (absent twice, 2 s apart: one empty answer is not a departure)
""" + sh_stations_left(180) + r"""echo "station left"
"""

STA = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: GUEST"' 60
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID: GUEST'
iw dev wlan0 connect GUEST
wait-for 'iw dev wlan0 link | grep -q Connected' 20 && echo "connected"
ip addr add 192.168.77.2/24 dev wlan0
wait-for 'ping -c 1 -W 1 192.168.77.1 >/dev/null' 60
pings -c 10 -i 0.2 192.168.77.1
timeout 60 iperf3 -c 192.168.77.1 -t 3 -f m | grep -E 'sender|receiver'
# the server closes its listening socket after a test and opens it again
# once it has read our last message: a second test started at once can
# find it closed (refused, or reset when it was still queued)
sleep 2
timeout 60 iperf3 -c 192.168.77.1 -t 3 -f m -R | grep -E 'sender|receiver'
""" + sh_leave()

MON = r"""
""" + SH_WLAN0 + sh_monitor() + r"""# until the station's unicast to the AP (addressed to neither us) shows up
wait-for "grep 'DA:02:00:00:00:00:0a' /tmp/cap.txt |
          grep -q 'SA:02:00:00:00:00:0b'" 240
sleep 1
kill %1
echo "beacons $(grep -c 'Beacon (GUEST)' /tmp/cap.txt)"
echo "sta unicast $(grep 'DA:02:00:00:00:00:0a' /tmp/cap.txt |
                    grep -c 'SA:02:00:00:00:00:0b')"
grep -m 3 'DA:02:00:00:00:00:0a' /tmp/cap.txt
true
"""

check = Checks()


def main():
    mcast = air_netdev()
    guests = [Guest(name, script, timeout=400,
                    qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                               "-netdev", mcast, "-device",
                               "bcm4331,addr=04.0,medium=air0,mac=" + mac])
              for name, script, mac in (("guest-ap", AP, "02:00:00:00:00:0a"),
                                        ("guest-sta", STA,
                                         "02:00:00:00:00:0b"),
                                        ("guest-monitor", MON,
                                         "02:00:00:00:00:0c"))]
    ap, sta, mon = run_guests(guests)
    print(ap.output)
    print(sta.output)
    for r in (ap, sta):
        check(r.ok, "scenario ran to the end", r)
        check(not driver_noise(r.dmesg), "no b43/bcma error or warning %s" %
              driver_noise(r.dmesg)[:3], r)
        check(not kernel_splat(r.dmesg), "no kernel WARN", r)
    check("hostapd started" in ap.output, "hostapd runs on b43", ap)
    check("station joined" in ap.output, "the station joined", ap)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in ap.output, "AP pings the station without loss", ap)
    check(re.search(r"BSS 02:00:00:00:00:0a.*\s+freq: 2437", sta.output)
          is not None, "station finds the guest AP on channel 6", sta)
    check("connected" in sta.output, "station associated", sta)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in sta.output, "station pings the AP without loss", sta)
    rates = re.findall(r"([\d.]+) Mbits/sec.*receiver", sta.output)
    check(len(rates) == 2 and all(float(x) > 0 for x in rates),
          "iperf3 both ways (%s Mbit/s)" % rates, sta)
    print(mon.output)
    check(mon.ok, "scenario ran to the end", mon)
    check("monitor on channel 6" in mon.output, "monitor interface", mon)
    m = re.search(r"beacons (\d+)", mon.output)
    check(m is not None and int(m.group(1)) > 0,
          "monitor sees the AP's beacons", mon)
    m = re.search(r"sta unicast (\d+)", mon.output)
    check(m is not None and int(m.group(1)) > 0,
          "monitor sees the station's unicast frames to the AP", mon)
    return check.finish([ap, sta, mon])


if __name__ == "__main__":
    sys.exit(main())
