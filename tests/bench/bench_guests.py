#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark (not a test): N guests on one air across processes, with the
virtual access point, in one invocation.

Every guest is its own QEMU process with a bcm4331 on a wifi-medium joined
to the others by UDP multicast on 127.0.0.1; one more process (-M none)
holds only a medium and the virtual access point (SSID BENCH, open,
bridged to user networking).  Each guest associates, gets an address by
DHCP from slirp and pings the host 20 times.  For each N (with airtime
off, then on) it prints: guests associated, leases, pings lost, the mean
time from boot to associated and to the lease, the mean ping RTT, and
their ratios to the N = 1 run of the same invocation.  Under TCG on a
small machine N guests share the host's cores: the ratios say how the air
and the AP scale, the absolute numbers say little.

    tests/bench/bench_guests.py [--max N] [--counts 1,4,8] [--skip-airtime]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import air_netdev, qemu_binary, Guest, log_dir  # noqa: E402

STA = r"""
t0=$(cut -d' ' -f1 /proc/uptime)
wait-for '[ -e /sys/class/net/wlan0 ]' 120
ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: BENCH"' 300
iw dev wlan0 connect BENCH
wait-for 'iw dev wlan0 link | grep -q Connected' 120 &&
    echo "associated after $(cut -d' ' -f1 /proc/uptime) s"
udhcpc -i wlan0 -n -q -t 20 -T 3 2>&1 | grep -q obtained &&
    echo "lease after $(cut -d' ' -f1 /proc/uptime) s"
ping -c 20 -i 0.2 10.0.2.2 | grep -E 'transmitted|round-trip'
iw dev wlan0 disconnect
"""


def mem_max():
    """guests of 256 MiB the machine's free memory holds (a quarter kept)"""
    with open("/proc/meminfo") as f:
        avail = int(re.search(r"MemAvailable:\s+(\d+)", f.read()).group(1))
    return max(1, min(16, int(avail * 0.75 / (320 * 1024))))


def run(n, airtime):
    mcast = air_netdev()
    med = "wifi-medium,id=air0,netdev=l0" + (",airtime=on" if airtime else "")
    d = os.path.join(log_dir(), "bench-guests")
    os.makedirs(d, exist_ok=True)
    aplog = open(os.path.join(d, "ap-%d-%d.log" % (n, airtime)), "w")
    ap = subprocess.Popen([qemu_binary(), "-M", "none", "-nodefaults",
                           "-display", "none", "-object", med,
                           "-netdev", mcast, "-netdev", "user,id=n0",
                           "-device", "wifi-ap,medium=air0,ssid=BENCH,"
                           "channel=6,netdev=n0"],
                          stdout=aplog, stderr=subprocess.STDOUT)
    guests = [Guest("bench-%d-%d-%d" % (n, airtime, i), STA, mem=256,
                    timeout=900,
                    qemu_args=["-object", med, "-netdev", mcast, "-device",
                               "bcm4331,addr=04.0,medium=air0,"
                               "mac=02:00:00:00:01:%02x,x=%d" % (i, i)])
              for i in range(n)]
    t = time.monotonic()
    try:
        for g in guests:
            g.start()
        res = [g.wait() for g in guests]
    finally:
        ap.terminate()
        ap.wait()
        aplog.close()
    wall = time.monotonic() - t
    out = {"n": n, "airtime": airtime, "wall": wall, "assoc": [],
           "lease": [], "lost": 0, "rtt": [], "ok": 0}
    for r in res:
        a = re.search(r"associated after ([\d.]+) s", r.output)
        le = re.search(r"lease after ([\d.]+) s", r.output)
        p = re.search(r"(\d+) packets transmitted, (\d+) packets received",
                      r.output)
        rtt = re.search(r"round-trip min/avg/max = [\d.]+/([\d.]+)/",
                        r.output)
        if a:
            out["assoc"].append(float(a.group(1)))
        if le:
            out["lease"].append(float(le.group(1)))
        out["lost"] += (int(p.group(1)) - int(p.group(2))) if p else 20
        if rtt:
            out["rtt"].append(float(rtt.group(1)))
        out["ok"] += bool(r.ok and a and le and p and
                          p.group(1) == p.group(2))
    return out


def mean(xs):
    return statistics.mean(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=0,
                    help="most guests (default: what memory holds, <= 16)")
    ap.add_argument("--counts", help="guest counts, e.g. 1,4,8 (default: "
                    "1, then doubling up to --max)")
    ap.add_argument("--skip-airtime", action="store_true")
    args = ap.parse_args()
    top = args.max or mem_max()
    if args.counts:
        counts = [int(x) for x in args.counts.split(",")]
    else:
        counts, k = [], 1
        while k < top:
            counts.append(k)
            k *= 2
        counts.append(top)
    if counts[0] != 1:
        counts.insert(0, 1)     # the baseline
    rows = []
    for airtime in ([False] if args.skip_airtime else [False, True]):
        base = None
        for n in counts:
            r = run(n, airtime)
            base = base or r
            r["r_assoc"] = mean(r["assoc"]) / mean(base["assoc"])
            r["r_lease"] = mean(r["lease"]) / mean(base["lease"])
            r["r_rtt"] = mean(r["rtt"]) / mean(base["rtt"])
            rows.append(r)
            print("airtime %-3s N=%-2d  %2d/%d guests associated, got a lease "
                  "and pinged without loss (%d pings lost); assoc %.1f s "
                  "(x%.2f), lease %.1f s (x%.2f), ping RTT %.2f ms (x%.2f); "
                  "%.0f s wall" % ("on" if airtime else "off", n, r["ok"], n,
                                   r["lost"], mean(r["assoc"]),
                                   r["r_assoc"], mean(r["lease"]),
                                   r["r_lease"], mean(r["rtt"]), r["r_rtt"],
                                   r["wall"]), flush=True)
    bad = [r for r in rows if r["ok"] != r["n"]]
    print("%d runs, %d with a guest that did not get through" % (len(rows),
                                                                 len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
