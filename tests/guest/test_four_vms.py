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
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     run_guests, SH_WLAN0, sh_hostapd, sh_leave, TOP,
                     sh_monitor, sh_stations_left,
                     fresh_pcap, check_pcap)

MAC = {"a": "02:00:00:00:00:1a", "b": "02:00:00:00:00:1b",
       "c": "02:00:00:00:00:1c", "d": "02:00:00:00:00:1d"}

AP = r"""
""" + SH_WLAN0 + sh_hostapd("FOUR", "") + r"""ip addr add 192.168.78.1/24 dev wlan0
wait-for '[ $(iw dev wlan0 station dump | grep -c Station) = 2 ]' 240 &&
    echo "stations joined"
pings -c 10 -i 0.2 192.168.78.2 | grep transmitted | sed 's/^/to B: /'
pings -c 10 -i 0.2 192.168.78.3 | grep transmitted | sed 's/^/to C: /'
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
pings -c 10 -i 0.2 192.168.78.1 | grep transmitted | sed 's/^/to A: /'
# the other station may still be on its way: wait until it answers
wait-for 'ping -c 1 -W 1 192.168.78.{peer} >/dev/null' 180
pings -c 10 -i 0.2 192.168.78.{peer} | grep transmitted | sed 's/^/to peer: /'
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
    check_air_plot(pcap, ap)
    return check.finish([ap, b, c, mon])


def tshark_count(pcap, flt):
    out = subprocess.run(["tshark", "-r", pcap, "-Y", flt], text=True,
                         stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout
    return len(out.splitlines())


def check_air_plot(pcap, res):
    """scripts/air-plot.py on the four guests' air: its pictures, and its
    table against tshark's reading of the same pcap"""
    prefix = os.path.splitext(pcap)[0] + "-plot"
    for ext in (".png", ".svg"):
        if os.path.exists(prefix + ext):
            os.unlink(prefix + ext)
    p = subprocess.run(["/usr/bin/python3", os.path.join(TOP, "scripts",
                                                         "air-plot.py"),
                        pcap, "-o", prefix], text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(p.stdout)
    if not check(p.returncode == 0, "air-plot.py draws the pcap", res):
        return
    with open(prefix + ".png", "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "air-plot: a PNG", res)
    svg = open(prefix + ".svg").read()
    check(svg.lstrip().startswith("<?xml") and "</svg>" in svg,
          "air-plot: an SVG", res)
    # (blanks, not \s: a row whose rates are empty must not take the next
    # row as its rates)
    rows = {m.group(1): [int(x) for x in m.group(2, 3, 4)] + [m.group(5)]
            for m in re.finditer(r"^([0-9a-f:]{17}|\?) +(\d+) +(\d+) +"
                                 r"(\d+) +[\d.]+ +[\d.]+% +\S+ *(.*)$",
                                 p.stdout, re.M)}
    for who in (MAC["a"], MAC["b"], MAC["c"]):
        check(who in rows and who in svg,
              "air-plot: transmitter %s in the table and the picture" % who,
              res)
    # an ACK or CTS is put in its sender's lane, never in a group
    # address's (the frame before a late remote ACK can be a broadcast)
    group = [who for who in rows if who != "?" and int(who[:2], 16) & 1]
    check(not group, "air-plot: no group address as a transmitter %s" %
          group, res)
    total = tshark_count(pcap, "frame")
    check(sum(r[0] for r in rows.values()) == total,
          "air-plot counts the %d frames tshark reads" % total, res)
    retries = tshark_count(pcap, "wlan.fc.retry == 1")
    check(sum(r[1] for r in rows.values()) == retries,
          "air-plot counts the %d retransmissions tshark finds" % retries,
          res)
    bad = tshark_count(pcap, "radiotap.flags.badfcs == 1")
    check(sum(r[2] for r in rows.values()) == bad and bad > 0,
          "air-plot counts the %d bad-FCS frames tshark finds" % bad, res)
    for who in (MAC["a"], MAC["b"], MAC["c"]):
        n = tshark_count(pcap, "wlan.fc.type == 2 && wlan.ta == %s" % who)
        got = sum(int(x.split(":")[1]) for x in rows.get(who, [""] * 4)[3]
                  .split()) if who in rows else -1
        check(got == n, "air-plot: %s sent %d data frames (tshark %d)" %
              (who, got, n), res)


if __name__ == "__main__":
    sys.exit(main())
