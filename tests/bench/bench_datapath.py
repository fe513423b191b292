#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark (not a test): guest -> host through bcm4331 + wifi-ap + slirp
against the same guest through e1000 + slirp, in one run.

TCP throughput (iperf3 to a server on the host, reached as 10.0.2.2) and
ping latency, each measured on both paths one after the other, printed with
the ratio bcm4331 / e1000.  Under TCG the absolute numbers depend on the
machine; the ratio is what to compare between versions.

    tests/bench/bench_datapath.py [--seconds 10]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import Guest, host_iperf3  # noqa: E402

WIFI = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
ip link set wlan0 up
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20
udhcpc -i wlan0 -n -q -t 10 >/dev/null
"""
WIRED = r"""
wait-for '[ -e /sys/class/net/eth0 ]' 60
ip link set eth0 up
udhcpc -i eth0 -n -q -t 10 >/dev/null
"""
MEASURE = r"""
ping -c 20 -i 0.2 10.0.2.2 | tail -n 1
iperf3 -c 10.0.2.2 -p PORT -t SECS -f m | grep -E 'sender|receiver'
"""


def run(name, setup, qemu_args, port, secs):
    g = Guest("bench-" + name, setup + MEASURE.replace("PORT", str(port))
              .replace("SECS", str(secs)), timeout=300, qemu_args=qemu_args)
    r = g.run()
    if not r.ok:
        r.report()
        sys.exit("bench: %s run failed" % name)
    ping = re.search(r"round-trip min/avg/max = [\d.]+/([\d.]+)/", r.output)
    tput = re.search(r"([\d.]+) Mbits/sec\s+\S*\s*sender", r.output) or \
        re.search(r"([\d.]+) Mbits/sec.*sender", r.output)
    if not ping or not tput:
        print(r.output)
        sys.exit("bench: no figures from the %s run" % name)
    return float(tput.group(1)), float(ping.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--port", type=int, default=5201)
    args = ap.parse_args()
    with host_iperf3(args.port):
        wifi = run("bcm4331", WIFI,
                   ["-object", "wifi-medium,id=air0", "-netdev", "user,id=n0",
                    "-device", "wifi-ap,medium=air0,ssid=QEMU,netdev=n0",
                    "-device", "bcm4331,addr=04.0,medium=air0"],
                   args.port, args.seconds)
        wired = run("e1000", WIRED,
                    ["-netdev", "user,id=n0", "-device",
                     "e1000,netdev=n0,addr=04.0"], args.port, args.seconds)
    print("guest -> host over slirp, %d s iperf3, 20 pings, TCG" %
          args.seconds)
    print("%-28s %12s %14s" % ("", "TCP Mbit/s", "ping avg ms"))
    print("%-28s %12.1f %14.3f" % ("bcm4331 + wifi-ap + slirp", *wifi))
    print("%-28s %12.1f %14.3f" % ("e1000 + slirp", *wired))
    print("ratio bcm4331/e1000: throughput %.2f, latency %.2f" %
          (wifi[0] / wired[0], wifi[1] / wired[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
