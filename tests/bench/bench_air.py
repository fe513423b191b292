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
With --runs N the runs alternate (bcm4331, e1000[, airtime]) N times and
each direction's median and spread (min-max, quartiles) of Mbit/s and of
the ratio of each bcm4331 run to the e1000 run beside it are printed.
For each direction the receiving QEMU (A forward, B reverse) is watched
while iperf3 runs: the CPU use of its threads (vCPU, main loop) and the
datagrams its UDP socket dropped (a full receive buffer); with --perf,
perf records it and the device model's share of its CPU samples is
printed (functions defined in hw/net/bcm43xx, hw/net/wifi and net/wifi:
the object files of the QEMU build).  --compare QEMU runs bcm4331 with
another binary too, alternating with the others (a change against its
baseline, in one invocation); --nice -10 makes other load on a shared
host matter less.

    tests/bench/bench_air.py [--seconds 10] [--runs N] [--perf]
                             [--compare QEMU] [--nice N] [--skip-airtime]
"""

import argparse
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest"))
from harness import air_netdev, log_dir, qemu_binary, run_guests, \
    Guest  # noqa: E402

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
echo "forward done"
sleep 1
echo "reverse"
timeout 200 iperf3 -c 192.168.79.1 -t SECS -f m -R | grep -E 'receiver'
echo "reverse done"
"""

# ---- the receiving QEMU's CPU: perf samples and thread times --------------

OUR_OBJS = re.compile(r"^(hw_net_bcm43xx|hw_net_wifi|net_wifi)_.*\.c\.o$")
OUR_PREFIXES = ("d11_", "bcm_", "bcma_", "bcm43", "wifi_", "fw_")


def our_symbols(qemu):
    """Names of the functions defined in our files (the build's objects
    beside the QEMU binary @qemu); None: match by prefix instead."""
    d = os.path.join(os.path.dirname(os.path.realpath(qemu)),
                     "libcommon.a.p")
    if not os.path.isdir(d):
        return None
    names = set()
    for f in os.listdir(d):
        if OUR_OBJS.match(f):
            out = subprocess.run(["nm", "--defined-only",
                                  os.path.join(d, f)],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in "Tt":
                    names.add(parts[2])
    return names or None


def thread_times(pid):
    """{thread name: CPU seconds} of process @pid's threads"""
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return times
    for t in tasks:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, t)) as f:
                st = f.read()
        except OSError:
            continue
        name = st[st.index("(") + 1:st.rindex(")")]
        fields = st[st.rindex(")") + 2:].split()
        times[name] = times.get(name, 0) + \
            (int(fields[11]) + int(fields[12])) / tick
    return times


def udp_drops(pid):
    """datagrams the kernel dropped at process @pid's UDP sockets (a full
    receive buffer: /proc/net/udp's drops column)"""
    inodes = set()
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    except OSError:
        return 0
    drops = 0
    with open("/proc/net/udp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                drops += int(fields[-1])
    return drops


class Recorder:
    """perf record (optional) and thread CPU times of one process while
    one iperf3 test runs."""

    def __init__(self, pid, path, perf):
        self.pid = pid
        self.path = path
        self.t0 = time.monotonic()
        self.cpu0 = thread_times(pid)
        self.drops0 = udp_drops(pid)
        self.proc = None
        if perf:
            self.proc = subprocess.Popen(
                ["perf", "record", "-q", "-F", "999", "-p", str(pid),
                 "-o", path], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)

    def stop(self):
        wall = time.monotonic() - self.t0
        cpu1 = thread_times(self.pid)
        self.drops = udp_drops(self.pid) - self.drops0
        self.cpu = {k: (v - self.cpu0.get(k, 0)) / wall
                    for k, v in cpu1.items()}
        if self.proc:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait()


def perf_share(path, symbols):
    """Percent of @path's samples in our functions, and the top three"""
    out = subprocess.run(["perf", "report", "-i", path, "--no-children",
                          "--sort", "sym", "--stdio", "-q",
                          "--percent-limit", "0"],
                         capture_output=True, text=True).stdout
    total, ours = 0.0, []
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[.\]\s+(\S+)", line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(2)
        total += pct
        if (sym in symbols) if symbols else sym.startswith(OUR_PREFIXES):
            ours.append((pct, sym))
    if not total:
        return None
    ours.sort(reverse=True)
    return sum(p for p, _ in ours), ours[:3]


# ---- one run ----------------------------------------------------------------


NICE = []


def run(name, a_setup, b_setup, medium, secs, perf=False, tag=""):
    """One pair of guests: [forward, reverse] Mbit/s, and per direction the
    receiving QEMU's thread CPU (and perf file)."""
    mcast = air_netdev()

    def args(mac):
        # named threads (CPU 0/TCG, the main loop): their CPU time apart
        named = ["-name", "bench-%s,debug-threads=on" % mac[-2:]]
        if medium is None:
            return named + ["-netdev", mcast, "-device",
                            "e1000,netdev=l0,addr=04.0,mac=" + mac]
        return named + ["-object", "wifi-medium,id=air0,netdev=l0" + medium,
                        "-netdev", mcast, "-device",
                        "bcm4331,addr=04.0,medium=air0,mac=" + mac]

    rec = {}
    guests = {}
    pdir = os.path.join(log_dir(), "bench-air")
    os.makedirs(pdir, exist_ok=True)

    def start(direction, receiver):
        def action(qmp):
            pid = guests[receiver].proc.pid
            rec[direction] = Recorder(
                pid, os.path.join(pdir, "%s%s-%s.perf" % (name, tag,
                                                          direction)), perf)
        return action

    def stop(direction):
        def action(qmp):
            if direction in rec:
                rec[direction].stop()
        return action

    a = Guest("bench-%s-a" % name, a_setup + SERVE, timeout=600,
              qemu_args=args("02:00:00:00:00:2a"), prefix=NICE)
    b = Guest("bench-%s-b" % name, b_setup + MEASURE.replace(
        "SECS", str(secs)), timeout=600, qemu_args=args("02:00:00:00:00:2b"),
        actions={"forward": start("forward", "a"),
                 "forward done": stop("forward"),
                 "reverse": start("reverse", "b"),
                 "reverse done": stop("reverse")}, prefix=NICE)
    guests.update(a=a, b=b)
    ra, rb = run_guests([a, b])
    rates = re.findall(r"([\d.]+) Mbits/sec.*receiver", rb.output)
    if not ra.ok or not rb.ok or len(rates) != 2:
        ra.report()
        rb.report()
        print(rb.output)
        sys.exit("bench: the %s run failed" % name)
    return [float(x) for x in rates], rec


# ---- statistics -------------------------------------------------------------


def spread(xs):
    """median [min-max] (IQR q1-q3)"""
    med = statistics.median(xs)
    if len(xs) < 2:
        return "%7.2f" % med
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return "%7.2f [%.2f-%.2f] (IQR %.2f-%.2f)" % (med, min(xs), max(xs),
                                                  q[0], q[2])


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_text(cpu):
    """the busiest threads' CPU use over the test, e.g. 'CPU 0/TCG 0.98'"""
    top = sorted(cpu.items(), key=lambda kv: -kv[1])[:3]
    return ", ".join("%s %.2f" % kv for kv in top)


def describe(d, rec, erec, perf, symbols, shares):
    """one line on the receiving QEMU of direction @d"""
    r = rec.get(d)
    if r is None:
        return None
    text = "    %s, receiving QEMU: CPU %s, %d UDP drops" % (
        d, cpu_text(r.cpu), r.drops)
    if d in erec:
        text += "; e1000 %s, %d UDP drops" % (cpu_text(erec[d].cpu),
                                              erec[d].drops)
    if perf:
        s = perf_share(r.path, symbols)
        if s:
            shares[d].append(s[0])
            text += "; device model %.1f %% of samples (%s)" % (
                s[0], ", ".join("%s %.1f" % (n, p) for p, n in s[1]))
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--runs", type=int, default=1,
                    help="alternate the bcm4331 and e1000 (and airtime) "
                    "runs N times; print median and spread")
    ap.add_argument("--perf", action="store_true",
                    help="perf record the receiving QEMU: the device "
                    "model's share of its CPU")
    ap.add_argument("--compare", action="append", default=[],
                    metavar="QEMU",
                    help="another QEMU binary: its bcm4331 runs alternate "
                    "with the others (e1000 runs with BCM_QEMU's)")
    ap.add_argument("--nice", type=int, metavar="N",
                    help="run the QEMUs at nice N (e.g. -10: other load on "
                    "the host matters less; negative values need root)")
    ap.add_argument("--skip-airtime", action="store_true")
    args = ap.parse_args()
    if args.nice is not None:
        NICE.extend(["nice", "-n", str(args.nice)])
    base = qemu_binary()
    cards = [("bcm4331", base)] + [
        ("bcm4331@%d" % (k + 1), q) for k, q in enumerate(args.compare)]
    symbols = {q: our_symbols(q) for _, q in cards} if args.perf else {}
    wifi = {c: [] for c, _ in cards}
    shares = {c: {"forward": [], "reverse": []} for c, _ in cards}
    wired, air = [], []
    print("load before: %s%s" % (load(), ", QEMUs at nice %d" % args.nice
                                 if args.nice is not None else ""),
          flush=True)
    for k, (c, q) in enumerate(cards):
        print("%s: %s" % (c, q))
    for i in range(args.runs):
        tag = "-%d" % i
        recs = {}
        for c, q in cards:
            os.environ["BCM_QEMU"] = q
            w, recs[c] = run(c.replace("@", "-"), WIFI_A, WIFI_B, "",
                             args.seconds, args.perf, tag)
            wifi[c].append(w)
        os.environ["BCM_QEMU"] = base
        e, erec = run("e1000", WIRED_A, WIRED_B, None, args.seconds,
                      args.perf, tag)
        wired.append(e)
        line = "run %d/%d (load %s): e1000 %.1f %.1f" % (
            i + 1, args.runs, load(), e[0], e[1])
        for c, _ in cards:
            w = wifi[c][-1]
            line += ", %s %.1f %.1f (ratio %.2f %.2f)" % (
                c, w[0], w[1], w[0] / e[0], w[1] / e[1])
        if not args.skip_airtime:
            air.append(run("airtime", WIFI_A, WIFI_B, ",airtime=on",
                           args.seconds, False, tag)[0])
            line += ", airtime %.1f %.1f" % tuple(air[-1])
        print(line, flush=True)
        for c, q in cards:
            for d in ("forward", "reverse"):
                text = describe(d, recs[c], erec if c == "bcm4331" else {},
                                args.perf, symbols.get(q) or
                                symbols.get(base), shares[c])
                if text:
                    print("  %s%s" % (c, text), flush=True)
    theory = tcp_goodput_mbps()

    print()
    print("guest <-> guest TCP across two processes, UDP multicast netdev, "
          "%d s iperf3, TCG, %d run(s), load after %s" %
          (args.seconds, args.runs, load()))
    print("median [min-max] (IQR)")
    for d, di in (("forward B->A", 0), ("reverse A->B", 1)):
        key = d.split()[0]
        print("%s:" % d)
        print("  %-32s %s" % ("e1000 Mbit/s",
                              spread([x[di] for x in wired])))
        for c, _ in cards:
            print("  %-32s %s" % (c + " Mbit/s",
                                  spread([x[di] for x in wifi[c]])))
            print("  %-32s %s" % ("ratio %s/e1000" % c,
                                  spread([w[di] / e[di] for w, e in
                                          zip(wifi[c], wired)])))
            if shares[c][key]:
                print("  %-32s %s" % ("device model %% (%s)" % c,
                                      spread(shares[c][key])))
        if air:
            print("  %-32s %s" % ("airtime on Mbit/s",
                                  spread([x[di] for x in air])))
            print("  %-32s %s" % ("ratio airtime/theory (%.1f)" % theory,
                                  spread([x[di] / theory for x in air])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
