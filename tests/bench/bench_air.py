#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark (not a test): guest <-> guest TCP throughput across two QEMU
processes on a UDP multicast netdev (127.0.0.1), in one invocation:

1. bcm4331 on a wifi-medium (airtime off): guest A runs hostapd, guest B
   is its station;
2. the same two guests with an e1000 each on the same kind of multicast
   netdev: printed as the ratio bcm4331 / e1000;
3. bcm4331 again with airtime=on on both media: printed as the ratio to
   the theoretical 802.11g TCP goodput at 54 Mbit/s, computed here from
   the same airtime model as net/wifi/airtime.c.

iperf3 from B to A (forward) and from A to B (-R, reverse).  Under TCG
the absolute numbers depend on the machine; the ratios are what to compare.

    tests/bench/bench_air.py [--seconds 10] [--skip-airtime]
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import air_netdev, run_guests, Guest  # noqa: E402

# ---- the airtime model (net/wifi/airtime.c), in microseconds ----------

SIFS, SLOT, CWMIN = 10, 9, 15               # ERP-OFDM, short slot


def airtime_us(nbytes, mbps):
    """OFDM at 2.4 GHz: preamble + SIGNAL, 4 us symbols, extension."""
    bits_per_sym = int(mbps * 4)
    return 20 + 4 * math.ceil((16 + 8 * nbytes + 6) / bits_per_sym) + 6


def ack_rate(mbps):
    return 24 if mbps >= 24 else 12 if mbps >= 12 else 6


def exchange_us(nbytes, mbps):
    """Mean first-attempt exchange: DIFS, CWmin/2 slots, frame, SIFS, ACK."""
    return (SIFS + 2 * SLOT) + CWMIN / 2 * SLOT + airtime_us(nbytes, mbps) + \
        SIFS + airtime_us(14, ack_rate(mbps))


def tcp_goodput_mbps(mbps=54, mtu=1500, acks_per_segment=0.5):
    """TCP payload rate of one bulk flow on an otherwise idle channel:
    MSS 1448 (timestamps) in 1500-byte packets, 802.11 header 24 + LLC/SNAP
    8 + FCS 4; a 52-byte TCP ACK every second segment (delayed ACKs)."""
    mss = mtu - 52
    data = exchange_us(24 + 8 + mtu + 4, mbps)
    ack = exchange_us(24 + 8 + 52 + 4, mbps)
    return mss * 8 / (data + acks_per_segment * ack)


# ---- the guests ------------------------------------------------------------

WIFI_A = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
printf 'interface=wlan0\ndriver=nl80211\nssid=BENCH\nhw_mode=g\nchannel=6\n' \
    > /tmp/hostapd.conf
hostapd -B /tmp/hostapd.conf >/dev/null
ip addr add 192.168.79.1/24 dev wlan0
"""
WIFI_B = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: BENCH"' 90
iw dev wlan0 connect BENCH
wait-for 'iw dev wlan0 link | grep -q Connected' 30
ip addr add 192.168.79.2/24 dev wlan0
"""
WIRED_A = r"""
wait-for '[ -e /sys/class/net/eth0 ]' 60
ip link set eth0 up
ip addr add 192.168.79.1/24 dev eth0
"""
WIRED_B = r"""
wait-for '[ -e /sys/class/net/eth0 ]' 60
ip link set eth0 up
ip addr add 192.168.79.2/24 dev eth0
"""
# A serves exactly two tests (forward, reverse), then ends
SERVE = r"""
timeout 400 iperf3 -s -1 >/dev/null
timeout 400 iperf3 -s -1 >/dev/null
echo "served"
"""
MEASURE = r"""
wait-for 'ping -c 1 -W 1 192.168.79.1 >/dev/null' 120
sleep 1
echo "forward"
timeout 200 iperf3 -c 192.168.79.1 -t SECS -f m | grep -E 'receiver'
sleep 1
echo "reverse"
timeout 200 iperf3 -c 192.168.79.1 -t SECS -f m -R | grep -E 'receiver'
"""


def run(name, a_setup, b_setup, dev_args, medium, secs):
    mcast = air_netdev()

    def args(mac):
        if medium is None:
            return ["-netdev", mcast, "-device",
                    "e1000,netdev=l0,addr=04.0,mac=" + mac]
        return ["-object", "wifi-medium,id=air0,netdev=l0" + medium,
                "-netdev", mcast, "-device",
                "bcm4331,addr=04.0,medium=air0,mac=" + mac]

    a = Guest("bench-%s-a" % name, a_setup + SERVE, timeout=600,
              qemu_args=args("02:00:00:00:00:2a"))
    b = Guest("bench-%s-b" % name, b_setup + MEASURE.replace(
        "SECS", str(secs)), timeout=600, qemu_args=args("02:00:00:00:00:2b"))
    ra, rb = run_guests([a, b])
    rates = re.findall(r"([\d.]+) Mbits/sec.*receiver", rb.output)
    if not ra.ok or not rb.ok or len(rates) != 2:
        ra.report()
        rb.report()
        print(rb.output)
        sys.exit("bench: the %s run failed" % name)
    return [float(x) for x in rates]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--skip-airtime", action="store_true")
    args = ap.parse_args()
    wifi = run("bcm4331", WIFI_A, WIFI_B, None, "", args.seconds)
    wired = run("e1000", WIRED_A, WIRED_B, None, None, args.seconds)
    air = None if args.skip_airtime else \
        run("airtime", WIFI_A, WIFI_B, None, ",airtime=on", args.seconds)
    theory = tcp_goodput_mbps()

    print("guest <-> guest TCP across two processes, UDP multicast netdev, "
          "%d s iperf3, TCG" % args.seconds)
    print("%-34s %12s %12s" % ("", "B->A Mbit/s", "A->B Mbit/s"))
    print("%-34s %12.1f %12.1f" % ("bcm4331, airtime off", *wifi))
    print("%-34s %12.1f %12.1f" % ("e1000", *wired))
    print("ratio bcm4331/e1000: forward %.2f, reverse %.2f" %
          (wifi[0] / wired[0], wifi[1] / wired[1]))
    if air:
        print("%-34s %12.1f %12.1f" % ("bcm4331, airtime on", *air))
        print("%-34s %12.1f %12.1f" % ("802.11g TCP goodput, 54 Mbit/s",
                                       theory, theory))
        print("ratio airtime/theory: forward %.2f, reverse %.2f" %
              (air[0] / theory, air[1] / theory))
    return 0


if __name__ == "__main__":
    sys.exit(main())
