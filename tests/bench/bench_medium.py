#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark (not a test): the medium alone, with N synthetic radios.

One QEMU process (-M none: no guest, the main loop on one host core)
holds a wifi-medium (airtime off: the air is as fast as the host) and N
wifi-traffic radios in a ring, each sending 1500-byte frames at 54 Mb/s
to the next one, which acknowledges them.  Each radio offers a frame every
microsecond of virtual time (interval-us=1; its default, back to back, is
one mean exchange on the air apart, ~340 us, which would make this a
measure of the virtual clock rather than of the host).  Every frame is delivered to the
N - 1 other radios: its signal, SNR and frame error rate are computed for
each, and each gets a copy.  For each N the script prints the frames the
air carried per second of host time, the receptions per second, the cost
per frame and per reception, and the ratios of these costs to the first N
of the same invocation.  The air is meant to carry at least 100 000
frames/s with 32 radios, and the cost of a frame to grow at most linearly
with N (a frame reaches N - 1 receivers).

    tests/bench/bench_medium.py [--counts 2,8,32] [--seconds 3]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import qemu_binary, log_dir  # noqa: E402


class Qmp:
    def __init__(self, path):
        for _ in range(200):
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                time.sleep(0.05)
        self.f = self.s.makefile("rw")
        self.f.readline()
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r:
                return r["return"]
            if "error" in r:
                raise RuntimeError(r["error"])


def run(n, seconds):
    sock = os.path.join(log_dir(), "bench-medium.qmp")
    if os.path.exists(sock):
        os.unlink(sock)
    cmd = [qemu_binary(), "-M", "none", "-display", "none", "-nodefaults",
           "-object", "wifi-medium,id=air0",
           "-qmp", "unix:%s,server=on,wait=off" % sock]
    for i in range(n):
        cmd += ["-device", "wifi-traffic,id=r%d,medium=air0,"
                "addr=02:00:00:00:%02x:%02x,dest=02:00:00:00:%02x:%02x,"
                "x=%d,rate=108,len=1500,interval-us=1" %
                (i, i >> 8, i & 0xff, ((i + 1) % n) >> 8, (i + 1) % n,
                 i % 20)]
    p = subprocess.Popen(cmd)
    try:
        q = Qmp(sock)
        for i in range(n):
            q.cmd("qom-set", path="/machine/peripheral/r%d" % i,
                  property="running", value=True)
        time.sleep(0.5)
        f0 = q.cmd("query-wifi-air")[0]
        t0 = time.monotonic()
        time.sleep(seconds)
        f1 = q.cmd("query-wifi-air")[0]
        t1 = time.monotonic()
        acked = sum(q.cmd("qom-get", path="/machine/peripheral/r%d" % i,
                          property="acked") for i in range(n))
    finally:
        p.terminate()
        p.wait()
    frames = (f1["frames"] - f0["frames"]) / (t1 - t0)
    rx = sum(r["rx-frames"] for r in f1["radios"]) - \
        sum(r["rx-frames"] for r in f0["radios"])
    drops = sum(r["drops"] for r in f1["radios"]) - \
        sum(r["drops"] for r in f0["radios"])
    return frames, rx / (t1 - t0), acked, drops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", default="2,8,32")
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    counts = [int(x) for x in a.counts.split(",")]
    base = None
    rows = []
    print("%6s %12s %14s %12s %12s %10s %10s" %
          ("radios", "frames/s", "receptions/s", "us/frame", "ns/recept.",
           "x frame", "x recept."))
    for n in counts:
        fps, rps, acked, drops = run(n, a.seconds)
        rows.append((n, fps))
        per_frame = 1e6 / fps
        per_rx = 1e9 / rps
        if base is None:
            base = (per_frame, per_rx, n)
        print("%6d %12.0f %14.0f %12.2f %12.1f %10.2f %10.2f" %
              (n, fps, rps, per_frame, per_rx, per_frame / base[0],
               per_rx / base[1]))
        print("%6s (radios x%.1f: a frame reaches x%.1f receivers; %d "
              "frames acknowledged, %d receptions dropped)" %
              ("", n / base[2], (n - 1) / max(base[2] - 1, 1), acked, drops))
    n, fps = rows[-1]
    print("with %d radios the air carried %.0f frames/s (goal: 100000 or "
          "more)" % (n, fps))
    print("the cost of a frame grew x%.2f for x%.1f radios (goal: at most "
          "linear)" % ((rows[0][1] / fps), n / rows[0][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
