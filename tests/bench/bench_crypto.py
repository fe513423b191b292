#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark (not a test): WPA2 (CCMP) with the encryption in the card
against the same run with b43.nohwcrypt=1 (mac80211 encrypts in the guest),
and against the open network, in one invocation.

The guest joins the virtual AP (passphrase=) with wpa_supplicant and sends
TCP to an iperf3 server on the host (10.0.2.2) for --seconds, then receives
(-R).  Printed: Mbit/s of each run and the ratios card/software and
card/open.  Under TCG the absolute numbers depend on the machine.

    tests/bench/bench_crypto.py [--seconds 10]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import Guest, host_iperf3  # noqa: E402

PASS = "qemu-wpa2-secret"
OPEN = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
ip link set wlan0 up
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20
"""
WPA = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
ip link set wlan0 up
printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n}\n' > /tmp/w.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/w.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60
""" % PASS
MEASURE = r"""
udhcpc -i wlan0 -n -q -t 10 >/dev/null
iperf3 -c 10.0.2.2 -p PORT -t SECS -f m | grep -E 'sender'
iperf3 -c 10.0.2.2 -p PORT -t SECS -f m -R | grep -E 'receiver'
"""


def run(name, setup, append, ap_extra, port, secs):
    g = Guest("bench-crypto-" + name, setup + MEASURE.replace(
              "PORT", str(port)).replace("SECS", str(secs)), timeout=400,
              append=append,
              qemu_args=["-object", "wifi-medium,id=air0",
                         "-netdev", "user,id=n0",
                         "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                         "netdev=n0" + ap_extra,
                         "-device", "bcm4331,addr=04.0,medium=air0"])
    r = g.run()
    up = re.search(r"([\d.]+) Mbits/sec.*sender", r.output)
    down = re.search(r"([\d.]+) Mbits/sec.*receiver", r.output)
    if not r.ok or not up or not down:
        r.report()
        sys.exit("bench: no figures from the %s run" % name)
    return float(up.group(1)), float(down.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--port", type=int, default=5202)
    args = ap.parse_args()
    with host_iperf3(args.port):
        card = run("card", WPA, "", ",passphrase=" + PASS, args.port,
                   args.seconds)
        soft = run("nohwcrypt", WPA, "b43.nohwcrypt=1",
                   ",passphrase=" + PASS, args.port, args.seconds)
        opn = run("open", OPEN, "", "", args.port, args.seconds)
    print("guest <-> host through wifi-ap + slirp, %d s iperf3 each way, "
          "TCG" % args.seconds)
    print("%-34s %10s %10s" % ("", "up Mbit/s", "down"))
    print("%-34s %10.1f %10.1f" % ("WPA2, CCMP in the card", *card))
    print("%-34s %10.1f %10.1f" % ("WPA2, b43.nohwcrypt=1 (mac80211)",
                                   *soft))
    print("%-34s %10.1f %10.1f" % ("open network", *opn))
    print("ratio card/nohwcrypt: up %.2f, down %.2f" %
          (card[0] / soft[0], card[1] / soft[1]))
    print("ratio card/open:      up %.2f, down %.2f" %
          (card[0] / opn[0], card[1] / opn[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
