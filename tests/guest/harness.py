#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot test guests under TCG and run scenario scripts in them.

Library use (tests/guest/test_*.py):

    from harness import Guest, run_guests
    g = Guest("probe", scenario="lspci -nn", qemu_args=["-device", "bcm4331"])
    res = g.run()                   # or run_guests([g1, g2]) to boot together
    res.ok, res.rc, res.output, res.dmesg, res.log

Command line (what a user runs by hand):

    tests/guest/harness.py [--kernel 6.12|6.1] [--machine q35|pc]
                           [--scenario FILE | --interactive] [-- QEMU ARGS]

The guest (scripts/build-guest.py) runs the scenario from fw_cfg
(opt/bcm4331/scenario) and prints markers around its output, its dmesg and
its exit status; see tests/guest/init.
"""

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
START = "==== bcm4331 scenario start ===="
DMESG = "==== bcm4331 dmesg ===="
EXIT_RE = re.compile(r"==== bcm4331 scenario exit (\d+) ====")


def qemu_binary():
    return os.environ.get("BCM_QEMU",
                          os.path.join(TOP, "build", "qemu-system-x86_64"))


def guest_dir(kernel):
    """The directory of the guest (vmlinuz, initrd.img) of @kernel: one of
    scripts/build-guest.py's names ("6.12", "6.1"), or a directory of its
    own (an absolute path: the kernel gate's guests)"""
    if os.path.isabs(kernel):
        return kernel
    return os.environ.get("BCM_GUEST_DIR",
                          os.path.join(TOP, "build", "guest", kernel))


def log_dir():
    d = os.environ.get("BCM_LOG_DIR", os.path.join(TOP, "build", "test-logs"))
    os.makedirs(d, exist_ok=True)
    return d


class Result:
    def __init__(self, name, log, text, timed_out, qemu_rc):
        self.name = name
        self.log = log
        self.text = text
        self.timed_out = timed_out
        self.qemu_rc = qemu_rc
        m = EXIT_RE.search(text)
        self.rc = int(m.group(1)) if m else None
        s = text.find(START)
        d = text.find(DMESG)
        self.output = text[s + len(START):d] if s >= 0 and d > s else \
            text[s + len(START):] if s >= 0 else ""
        self.dmesg = text[d + len(DMESG):m.start()] if d >= 0 and m else \
            text[d + len(DMESG):] if d >= 0 else text
        self.ok = not timed_out and self.rc == 0

    def report(self, out=sys.stderr):
        state = "timed out" if self.timed_out else \
            "no exit marker (qemu rc %s)" % self.qemu_rc if self.rc is None \
            else "scenario exit %d" % self.rc
        print("guest %s: %s, log %s" % (self.name, state, self.log), file=out)
        if not self.ok:
            print("---- guest %s dmesg / console ----" % self.name, file=out)
            print("\n".join(self.dmesg.strip().splitlines()[-150:]),
                  file=out)
            print("---- end of guest %s ----" % self.name, file=out)


class Qmp:
    """A minimal QMP client over a unix socket."""

    def __init__(self, path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.f = self.sock.makefile("rw")
        self.events = []                    # QMP events seen so far
        self._recv()                        # greeting
        self.cmd("qmp_capabilities")

    def _recv(self):
        while True:
            msg = json.loads(self.f.readline())
            if "event" not in msg:
                return msg
            self.events.append(msg)

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        r = self._recv()
        if "error" in r:
            raise RuntimeError("QMP %s: %s" % (name, r["error"]))
        return r.get("return")

    def close(self):
        self.sock.close()


class Guest:
    """A guest; ``actions`` maps a console marker line to a callable
    taking the guest's Qmp: when the scenario prints ``marker`` the host
    runs it (the scenario then waits for its effect).  An action that
    returns True stays armed for the marker's next appearance (a scenario
    that runs again after a reset).  ``reboot``: a reset reboots the guest
    (without it QEMU runs with -no-reboot: a reset ends the run)."""

    def __init__(self, name, scenario, qemu_args=(), kernel=None,
                 machine="q35", mem=512, timeout=180, append="",
                 actions=None, reboot=False, initrd=None, hostname=None,
                 prefix=()):
        self.actions = dict(actions or {})
        # run QEMU under this command (e.g. ip netns exec NS)
        self.prefix = list(prefix)
        self.name = name
        self.scenario = scenario
        self.qemu_args = list(qemu_args)
        self.kernel = kernel or os.environ.get("BCM_GUEST_KERNEL", "6.12")
        self.machine = machine
        self.mem = mem
        self.timeout = timeout
        self.append = append
        self.reboot = reboot
        # another initramfs (e.g. with a rebuilt driver: scripts/bug-lab.sh)
        self.initrd = initrd
        # the guest's host name (default @name): runs that must be the
        # same, byte for byte, share one
        self.hostname = hostname or name
        self.proc = None

    def command(self, scenario_file=None, interactive=False):
        gd = guest_dir(self.kernel)
        for f in ("vmlinuz", "initrd.img"):
            if not os.path.exists(os.path.join(gd, f)):
                raise RuntimeError("%s/%s missing: run scripts/build-guest.py "
                                   "--kernel %s" % (gd, f, self.kernel))
        cmd = [qemu_binary(), "-M", self.machine, "-accel", "tcg",
               "-m", str(self.mem), "-smp", "1", "-nodefaults",
               "-display", "none"] + ([] if self.reboot else ["-no-reboot"]) + [
               "-serial", "mon:stdio" if interactive else "stdio",
               "-kernel", os.path.join(gd, "vmlinuz"),
               "-initrd", self.initrd or os.path.join(gd, "initrd.img"),
               # no_timer_check: under TCG on a loaded host the kernel's
               # check of the IO-APIC timer can miss its ticks and panic
               # ("IO-APIC + timer doesn't work", seen in guest-ibss)
               "-append", "console=ttyS0 loglevel=4 panic=-1 no_timer_check "
               "net.ifnames=0 hostname=%s %s" % (self.hostname,
                                                 self.append)]
        if scenario_file:
            cmd += ["-fw_cfg", "name=opt/bcm4331/scenario,file=%s" %
                    scenario_file]
        if self.actions:
            cmd += ["-qmp", "unix:%s,server=on,wait=off" % self.qmp_path]
        cmd += self.qemu_args
        # BCM_TRACE=pattern[,pattern...]: extra trace events for debugging
        # (into <name>.trace unless the test already chose a -D file)
        for pat in filter(None, os.environ.get("BCM_TRACE", "").split(",")):
            cmd += ["-trace", pat]
        if os.environ.get("BCM_TRACE") and "-D" not in cmd:
            cmd += ["-D", os.path.join(log_dir(), "%s.trace" % self.name)]
        return cmd

    def start(self):
        d = log_dir()
        self.log = os.path.join(d, "%s.console.log" % self.name)
        self.sfile = os.path.join(d, "%s.scenario.sh" % self.name)
        with open(self.sfile, "w") as f:
            f.write(self.scenario)
        self.qmp_path = os.path.join(d, "%s.qmp" % self.name)
        if os.path.exists(self.qmp_path):
            os.unlink(self.qmp_path)
        self.logf = open(self.log, "wb")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(self.prefix + self.command(self.sfile),
                                     stdin=subprocess.DEVNULL,
                                     stdout=self.logf,
                                     stderr=subprocess.STDOUT)
        self.action_errors = []
        if self.actions:
            self.watcher = threading.Thread(target=self._watch, daemon=True)
            self.watcher.start()

    def _watch(self):
        """Run the host-side actions when their markers appear."""
        qmp = Qmp(self.qmp_path)
        done = set()
        pos = 0
        buf = ""
        try:
            while self.proc.poll() is None and len(done) < len(self.actions):
                with open(self.log, "rb") as f:
                    f.seek(pos)
                    data = f.read()
                pos += len(data)
                buf += data.decode("utf-8", "replace")
                lines = buf.split("\n")
                buf = lines.pop()
                for line in lines:
                    key = line.strip()
                    if key in self.actions and key not in done:
                        done.add(key)
                        try:
                            if self.actions[key](qmp) is True:
                                done.discard(key)       # armed again
                        except Exception as e:      # reported by the test
                            self.action_errors.append("%s: %s" % (key, e))
                time.sleep(0.05)
        finally:
            qmp.close()

    def wait(self):
        left = self.timeout - (time.monotonic() - self.started)
        timed_out = False
        try:
            self.proc.wait(timeout=max(left, 0.1))
        except subprocess.TimeoutExpired:
            timed_out = True
            self.proc.kill()
            self.proc.wait()
        self.logf.close()
        if self.actions:
            self.watcher.join(5)
        with open(self.log, "rb") as f:
            text = f.read().decode("utf-8", "replace").replace("\r", "")
        return Result(self.name, self.log, text, timed_out,
                      self.proc.returncode)

    def run(self):
        self.start()
        return self.wait()


class Checks:
    """Named checks of guest results; a failed check fails its guest."""

    def __init__(self):
        self.failed = []

    def __call__(self, cond, what, res):
        print("%s %s: %s" % ("ok" if cond else "FAIL", res.name, what))
        if not cond:
            self.failed.append((res, what))
        return cond

    def finish(self, results):
        """Report every guest (dmesg of the failed ones); exit status."""
        for r in results:
            if any(f[0] is r for f in self.failed):
                r.ok = False
            r.report(sys.stdout)
        print("%d failed checks" % len(self.failed))
        return 1 if self.failed else 0


# the only driver warning real BCM4331 hardware prints too
EXPECTED_WARNINGS = ("5 GHz band is unsupported on this PHY",)


def air_netdev(netdev_id="l0"):
    """The -netdev that joins the air of several QEMU processes: UDP
    multicast on the loopback interface, on a random group port (one air
    per test run; other tests running beside it pick another)."""
    port = random.randint(20000, 60000)
    return "socket,id=%s,mcast=230.0.0.1:%d,localaddr=127.0.0.1" % (
        netdev_id, port)


# ---- shell the scenarios share (they run in the guest's busybox sh) ----

# the card's interface is there (bcma and b43 probed)
SH_WLAN0 = "wait-for '[ -e /sys/class/net/wlan0 ]' 60\n"


def sh_leave(how="iw dev wlan0 disconnect"):
    """a station leaves (@how): the deauthentication gets out before the
    guest powers off (b43 drops what is still queued when the interface
    goes down)."""
    return how + "\nwait-for '! iw dev wlan0 link | grep -q Connected' 10; sleep 1\n"


def sh_hostapd(ssid, conf=""):
    """hostapd on wlan0: access point @ssid on channel 6, 802.11g; @conf
    more lines of its configuration (each ending in \\n)."""
    return ("printf 'interface=wlan0\\ndriver=nl80211\\nssid=%s\\n"
            "hw_mode=g\\nchannel=6\\n%s' \\\n    > /tmp/hostapd.conf\n"
            "hostapd -B /tmp/hostapd.conf >/dev/null && "
            "echo \"hostapd started\"\n" % (ssid, conf))


def sh_stations_left(timeout):
    """(access point) wait until no station is associated: absent twice,
    2 s apart (one empty answer is not a departure)."""
    return ("wait-for '! iw dev wlan0 station dump | grep -q Station && "
            "sleep 2 &&\n"
            "          ! iw dev wlan0 station dump | grep -q Station' %d\n"
            % timeout)


def sh_monitor(flags=""):
    """wlan0 as a monitor on channel 6 (@flags: iw's monitor flags, e.g.
    "control fcsfail otherbss"), tcpdump of it into /tmp/cap.txt."""
    return ("iw dev wlan0 set type monitor\n" +
            ("iw dev wlan0 set monitor %s\n" % flags if flags else "") +
            "ip link set wlan0 up\n"
            "iw dev wlan0 set channel 6 && echo \"monitor on channel 6\"\n"
            "tcpdump -i wlan0 -n -e -l > /tmp/cap.txt 2>/dev/null &\n")


def driver_noise(dmesg, pattern=r"b43|bcma"):
    """Lines of the drivers matching @pattern that report an error, a
    warning, a timeout or a failure (but the expected warning)."""
    return [ln for ln in dmesg.splitlines()
            if re.search(pattern, ln) and
            re.search(r"error|warn|timeout|fail|not respond|broken", ln,
                      re.I) and
            not any(a in ln for a in EXPECTED_WARNINGS)]


def kernel_splat(dmesg):
    return re.search(r"WARNING:|Call Trace|BUG:|Oops", dmesg) is not None


def wait_tcp_listen(port, timeout=30, proc=None):
    """Wait until a socket listens on TCP @port of 127.0.0.1 (a server we
    started: it may not listen yet on a loaded machine).  Reads
    /proc/net/tcp instead of connecting, so the server sees no client."""
    want = ":%04X" % port
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open("/proc/net/tcp") as f:
            for line in f.readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                if local.endswith(want) and state == "0A":     # LISTEN
                    return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError("server on port %d exited" % port)
        time.sleep(0.05)
    raise RuntimeError("nothing listens on port %d after %d s" %
                       (port, timeout))


def fresh_pcap(name):
    """The path of the pcap file @name in the log directory, emptied (the
    medium appends to what is there)."""
    path = os.path.join(log_dir(), name)
    if os.path.exists(path):
        os.unlink(path)
    return path


def free_ports(n):
    """@n distinct TCP ports of 127.0.0.1 that nothing listens on (the
    kernel's choice), for servers of a test that may run beside another
    (held open together, so that they differ)"""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@contextlib.contextmanager
def host_iperf3(port, log=None):
    """An iperf3 server on 127.0.0.1:@port of the host (the benchmarks'
    guests reach it through slirp), listening when the block starts and
    stopped when it ends.  With @log, the server's reports (one line per
    second of each test, then its summary) go to that file as they come."""
    if not shutil.which("iperf3"):
        sys.exit("bench: iperf3 missing on the host (scripts/deps.sh)")
    out = open(log, "w") if log else subprocess.DEVNULL
    cmd = ["iperf3", "-s", "-p", str(port), "-B", "127.0.0.1"]
    if log:
        cmd += ["-f", "k", "--forceflush"]
    srv = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_tcp_listen(port, proc=srv)
        # another process's server on the port (a test beside this one):
        # ours cannot bind it and exits at once; its clients would meet
        # "the server is busy running a test"
        time.sleep(0.3)
        if srv.poll() is not None:
            raise RuntimeError("iperf3 server on port %d: the port is "
                               "taken (exit %s)" % (port, srv.returncode))
        yield srv
    finally:
        srv.terminate()
        srv.wait()
        if log:
            out.close()


def iperf3_udp_received(text):
    """Datagrams an iperf3 server reports received in @text (a part of its
    log): its summary line (lost/total ... receiver) where the test ended
    properly, else the sum of its per-second lines (a client killed or cut
    off before the end exchange still had its datagrams counted).  None
    when @text has no UDP report."""
    rep = re.compile(r"(\d+)/(\d+) \([^)]*\)")
    total = None
    for ln in text.splitlines():
        m = rep.search(ln)
        if not m:
            continue
        got = int(m.group(2)) - int(m.group(1))
        if "receiver" in ln:
            return got
        total = (total or 0) + got
    return total


def check_pcap(check, pcap, res, kinds, bad_fcs=False):
    """tshark reads the air's @pcap without a malformed frame, and finds
    frames of each of @kinds ((name, wlan.fc.type_subtype) pairs) and,
    with @bad_fcs, frames flagged with a bad FCS.  Nothing without tshark
    or the file."""
    if not shutil.which("tshark") or not os.path.exists(pcap):
        check(False, "tshark and the pcap are there", res)
        return
    t = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e",
                        "wlan.fc.type_subtype", "-e", "_ws.malformed",
                        "-e", "radiotap.flags.badfcs"],
                       capture_output=True, text=True)
    rows = [ln.split("\t") for ln in t.stdout.splitlines() if ln]
    types = {row[0] for row in rows}
    check(t.returncode == 0 and rows, "tshark reads the pcap (%d frames)" %
          len(rows), res)
    check(not any(len(row) > 1 and row[1] for row in rows),
          "no malformed frame in the pcap", res)
    for name, st in kinds:
        check(st in types, "pcap has %s frames" % name, res)
    if bad_fcs:
        check(any(len(row) > 2 and row[2] in ("1", "True") for row in rows),
              "pcap has frames flagged bad FCS", res)


def run_guests(guests):
    """Boot several guests at once; return their results in order."""
    for g in guests:
        g.start()
    return [g.wait() for g in guests]


def follow(g):
    """The guest's console on stdout while it runs; each scenario section
    ("### ...") with the seconds since QEMU started."""
    pos = 0
    buf = b""
    while True:
        done = g.proc.poll() is not None or \
            time.monotonic() - g.started > g.timeout
        with open(g.log, "rb") as f:
            f.seek(pos)
            data = f.read()
        pos += len(data)
        buf += data
        lines = buf.split(b"\n")
        buf = lines.pop()
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if line.startswith("### "):
                line = "%s  [%.0f s]" % (line, time.monotonic() - g.started)
            print(line, flush=True)
        if done:
            if buf:
                print(buf.decode("utf-8", "replace"), flush=True)
            return
        time.sleep(0.2)


def main():
    ap = argparse.ArgumentParser(
        description="Boot the bcm4331-qemu test guest under TCG")
    ap.add_argument("--kernel", default="6.12")
    ap.add_argument("--machine", default="q35")
    ap.add_argument("--name", default="guest")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--scenario", help="shell script to run in the guest")
    ap.add_argument("--interactive", action="store_true",
                    help="a shell on the serial console instead")
    ap.add_argument("qemu_args", nargs="*", help="extra QEMU arguments")
    args = ap.parse_args()
    g = Guest(args.name, "", args.qemu_args, kernel=args.kernel,
              machine=args.machine, timeout=args.timeout)
    if args.interactive:
        os.execv(qemu_binary(), g.command(interactive=True))
    if not args.scenario:
        ap.error("--scenario or --interactive")
    with open(args.scenario) as f:
        g.scenario = f.read()
    g.start()
    follow(g)
    res = g.wait()
    res.report()
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
