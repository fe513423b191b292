#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel gate: your kernel's b43, brcmsmac and bcma on our cards, in KTAP.

    scripts/kernel-gate.py --kernel BZIMAGE --modules DIR   [options]
    scripts/kernel-gate.py --tree LINUX_TREE                [options]
    scripts/kernel-gate.py --deb linux-image-....deb [--deb ...] [options]
    scripts/kernel-gate.py --debian 6.12|6.1                [options]

The kernel under test: a bzImage and its modules (DIR: lib/modules/VERSION,
or the INSTALL_MOD_PATH of `make modules_install`); a built kernel tree
(its bzImage; its modules installed into the gate's directory); Debian
kernel packages (the image package, and the modules package where newer
Debian kernels split them); or one of the Debian kernels the project's
guests use.  The gate builds an initramfs from that kernel's modules and
our user space (scripts/build-guest.py), boots guests with the cards
(three QEMU processes: A, a bcm4331 under b43; B, a bcm43224 under
brcmsmac and a second bcm4331; E, a bcm4331 with the RX descriptor erratum
behind an IOMMU), and runs the matrix of cases (--list).  Every case also
reads the kernel log of its stretch of the run: a WARN, BUG, oops,
KASAN/UBSAN/lockdep report, lockup, hung task, or a b43/brcmsmac/bcma/
mac80211 error a real card would not print fails it.

Options:
  --case PATTERN  run only the cases matching PATTERN (shell wildcards;
                  repeat it); --quick: probe, WPA2, the DMA erratum
  --list          print the cases and exit
  --out DIR       artifacts (default build/gate/<kernel release>/): the
                  guests' consoles, pcaps of the air, traces, ktap.txt,
                  kcidb.json
  --kcidb-origin  KCIDB origin (default bcm4331qemu)
  --kcidb-schema FILE   validate kcidb.json against KCIDB's JSON schema
                  (kcidb-io's `kcidb-schema` prints it)
  --artifact-url URL    where DIR will be published (KCIDB log_url and
                  output_files); default file:// paths

Standard output is KTAP (the kernel's own format; tools/testing/kunit/
kunit.py parse reads it), progress goes to standard error.  Exit status,
as `git bisect run` reads it: 0 every selected case passed (or skipped),
1 a case failed, 125 the kernel could not be tested (it did not boot, the
inputs are incomplete).
"""

import argparse
import contextlib
import datetime
import fnmatch
import glob
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "guest"))
import gate_sh  # noqa: E402
from harness import (EXPECTED_WARNINGS, Guest, air_netdev,  # noqa: E402
                     free_ports, host_iperf3, qemu_binary)

CANNOT_TEST = 125
# tests/guest/init's line when fw_cfg gave it no scenario
NO_SCENARIO = ("bcm4331-qemu guest: no scenario given; starting a shell "
               "(poweroff -f to quit)")

# (case, guest, what it shows); guest A: bcm4331/b43, B: bcm43224/brcmsmac
# (+ a bcm4331 for b43's mesh peer), P: a part in A and one in B,
# E: the erratum guest
CASES = [
    ("bcma.enum-bcm4331", "A", "bcma enumerates the BCM4331 as a real card "
     "prints it"),
    ("bcma.enum-bcm43224", "B", "bcma enumerates the BCM43224 as a real "
     "card prints it"),
    ("b43.probe", "A", "b43 probes, wlan interface up and down"),
    ("b43.scan", "A", "scan finds the virtual APs"),
    ("b43.open", "A", "open association, DHCP, ping, iperf3 both ways"),
    ("b43.wpa2-hwcrypto", "A", "WPA2 with the card's crypto: DHCP, ping, "
     "iperf3 both ways"),
    ("b43.wpa2-swcrypto", "A", "WPA2 with nohwcrypt=1 (mac80211's "
     "crypto): DHCP, ping, iperf3 both ways"),
    ("b43.monitor", "A", "monitor mode captures the AP's beacons"),
    ("b43.rfkill", "A", "soft and hardware rfkill switches"),
    ("b43.reload", "A", "10 rmmod/modprobe/up/down cycles"),
    ("b43.ap", "P", "hostapd (WPA2) on b43, a brcmsmac station: ping, "
     "iperf3"),
    ("b43.ibss", "P", "IBSS with a brcmsmac peer: ping"),
    ("b43.mesh", "P", "802.11s mesh with a second b43 card: peering, "
     "ping"),
    ("b43.dma-erratum", "E", "rx-cd-erratum=on, RX ring placed by the "
     "IOMMU as in the bug lab: traffic works"),
    ("brcmsmac.probe", "B", "brcmsmac probes, wlan interface up and down"),
    ("brcmsmac.scan", "B", "scan finds the virtual APs"),
    ("brcmsmac.open", "B", "open association, DHCP, ping, iperf3 both "
     "ways"),
    ("brcmsmac.wpa2", "B", "WPA2 (mac80211's crypto: brcmsmac has no "
     "set_key): DHCP, ping, iperf3 both ways"),
    ("brcmsmac.monitor", "B", "monitor mode captures the AP's beacons"),
    ("brcmsmac.rfkill", "B", "soft and hardware rfkill switches"),
    ("brcmsmac.reload", "B", "10 rmmod/modprobe/up/down cycles"),
    ("brcmsmac.ap", "P", "hostapd (WPA2) on brcmsmac, a b43 station: "
     "ping, iperf3"),
    ("brcmsmac.ibss", "P", "IBSS with a b43 peer: ping"),
    ("brcmsmac.mesh", "P", "802.11s mesh (where the driver offers it)"),
]
QUICK = ["bcma.enum-bcm4331", "bcma.enum-bcm43224", "b43.probe",
         "b43.wpa2-hwcrypto", "brcmsmac.probe", "brcmsmac.wpa2",
         "b43.dma-erratum"]
# a pair case judged with another's exchange (its own side's log)
SAME_EXCHANGE = {"brcmsmac.ibss": "b43.ibss"}

# the modules a case needs from the kernel under test (the drivers must be
# modules: the reload cases unload them, guest B blacklists b43)
NEEDS = {"bcma": ("bcma",), "b43": ("bcma", "b43", "mac80211", "cfg80211"),
         "brcmsmac": ("bcma", "brcmsmac", "mac80211", "cfg80211")}


def case_needs(case, where):
    """the modules @case needs: its driver's, both drivers' for a pair"""
    if where == "P":
        return tuple(sorted(set(NEEDS["b43"] + NEEDS["brcmsmac"])))
    if case == "bcma.enum-bcm43224":
        return NEEDS["brcmsmac"]     # bcma loads with brcmsmac in guest B
    return NEEDS[case.split(".")[0]]


def kernel_modules(gdir):
    """the names of the modules the guest of @gdir carries"""
    try:
        with open(os.path.join(gdir, "modules.txt")) as f:
            return {re.sub(r"\.ko(\.\w+)?$", "", os.path.basename(ln.strip()))
                    .replace("-", "_") for ln in f if ln.strip()}
    except OSError:
        return set()


PASS = "gate-wpa2-secret"
# the virtual APs of each guest: (ssid, channel, bssid); A's and B's
# differ (they share one air)
APS = {
    "A": [("gate-a-open", 1, "02:42:00:00:0a:01"),
          ("gate-a-wpa", 11, "02:42:00:00:0a:02")],
    "B": [("gate-b-open", 1, "02:42:00:00:0b:01"),
          ("gate-b-wpa", 11, "02:42:00:00:0b:02")],
    "E": [("gate-e-open", 6, "02:42:00:00:0e:01")],
}

# the kernel log: what no case may show
SPLAT = re.compile(
    r"WARNING:|BUG:|Oops|Call Trace|KASAN|UBSAN|kernel BUG|"
    r"general protection fault|possible circular locking|"
    r"possible recursive locking|inconsistent lock state|"
    r"suspicious RCU usage|soft lockup|hard LOCKUP|blocked for more than|"
    r"refcount_t:|list_add corruption|list_del corruption|Kernel panic|"
    r"sleeping function called from invalid context|stack-protector|"
    r"DEBUG_LOCKS_WARN_ON|INFO: task .* blocked")
DRIVERS = re.compile(r"b43|brcms|bcma|ieee80211|mac80211|cfg80211|"
                     r"\bphy\d+\b|\bwlan\d+\b")
NOISE = re.compile(r"error|warn|timeout|timed out|fail|not respond|broken|"
                   r"unsupported|invalid|bad ", re.I)
# what a real card prints too (docs/kernel-gate.md)
REAL_LINES = EXPECTED_WARNINGS + (
    # b43 on the HT-PHY: the BCM4331 is dual band, b43's HT-PHY code
    # drives 2.4 GHz only
    "5 GHz band is unsupported on this PHY",
    # the gate's own markers
    "gate: begin", "gate: end",
    # a module built out of tree (a driver under test on a distribution
    # kernel) is unsigned: the kernel says so, the card has no part in it
    "module verification failed: signature and/or required key missing",
    "loading out-of-tree module taints kernel",
    # CONFIG_B43_DEBUG: b43 prints each DMA ring's statistics when it
    # tears the ring down ("Failed frames 0/11" is a count, not an error)
    "debug: DMA-32 ", "debug: DMA-64 ",
)

BCMA_4331 = [
    r"Found chip with id 0x4331, rev 0x02 and package 0x09",
    r"Core 0 found: ChipCommon \(manuf 0x4BF, id 0x800, rev 0x25, class "
    r"0x0\)",
    r"Core 1 found: IEEE 802\.11 \(manuf 0x4BF, id 0x812, rev 0x1D, class "
    r"0x0\)",
    r"Core 2 found: PCIe \(manuf 0x4BF, id 0x820, rev 0x13, class 0x0\)",
]
BCMA_43224 = [
    r"Found chip with id (43224|0xA8D8), rev 0x01 and package 0x08",
    r"Core 0 found: ChipCommon \(manuf 0x4BF, id 0x800, rev 0x22, class "
    r"0x0\)",
    r"Core 1 found: IEEE 802\.11 \(manuf 0x4BF, id 0x812, rev 0x17, class "
    r"0x0\)",
    r"Core 2 found: PCIe \(manuf 0x4BF, id 0x820, rev 0x0F, class 0x0\)",
]
BCMA_BAD = [
    "No SPROM available", "Invalid SPROM read", "Unsupported SPROM revision",
    "Using fallback SPROM failed", "Failed to get SPROM",
    "Timeout waiting for register", "HT force timeout", "PLL enable timeout",
    "Power control not implemented", "Couldn't find expected PMU core",
]


def log(msg):
    print("kernel-gate: " + msg, file=sys.stderr, flush=True)


def build_guest_mod():
    spec = importlib.util.spec_from_file_location(
        "build_guest", os.path.join(TOP, "scripts", "build-guest.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------------------
# the kernel under test -> a guest directory (vmlinuz, initrd.img)

class Kernel:
    """The kernel under test: guest directory, release, and what KCIDB
    wants to know of where it came from."""

    def __init__(self, gdir, release, label, tree=None, config=None):
        self.gdir, self.release, self.label = gdir, release, label
        self.tree, self.config = tree, config


def sha_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def custom_guest(vmlinuz, moddir, label, tree=None, config=None):
    bg = build_guest_mod()
    moddir = bg.modules_dir(moddir)
    release = bg.module_release(moddir)
    # one directory per kernel image and modules tree: two gates on the
    # same bzImage with different modules (a rebuilt driver) do not share
    key = hashlib.sha256((sha_file(vmlinuz) + os.path.realpath(moddir))
                         .encode()).hexdigest()[:12]
    out = os.path.join(TOP, "build", "gate", "guests", "%s-%s" % (release,
                                                                  key))
    # build-guest prints its progress on standard output: keep ours KTAP
    with contextlib.redirect_stdout(sys.stderr):
        bg.build_custom(os.path.abspath(vmlinuz), moddir, out, label)
    return Kernel(out, release, label, tree, config)


def kernel_from_args(args):
    if args.debian:
        r = subprocess.run([sys.executable, os.path.join(
            TOP, "scripts", "build-guest.py"), "--kernel", args.debian],
            stdout=sys.stderr)
        if r.returncode:
            raise CannotTest("the Debian %s guest did not build" %
                             args.debian)
        gdir = os.path.join(TOP, "build", "guest", args.debian)
        label, ver, release = open(os.path.join(
            gdir, "kernel.version")).read().split()
        return Kernel(gdir, release, "%s %s" % (label, ver))
    if args.kernel:
        if not args.modules:
            raise CannotTest("--kernel needs --modules (lib/modules/VERSION "
                             "or an INSTALL_MOD_PATH)")
        return custom_guest(args.kernel, args.modules,
                            os.path.abspath(args.kernel))
    if args.tree:
        tree = os.path.abspath(args.tree)
        img = os.path.join(tree, "arch/x86/boot/bzImage")
        if not os.path.exists(img):
            raise CannotTest("%s: no arch/x86/boot/bzImage (build the "
                             "tree first)" % tree)
        dest = os.path.join(TOP, "build", "gate", "modroot-" +
                            hashlib.sha256(tree.encode()).hexdigest()[:12])
        shutil.rmtree(dest, ignore_errors=True)
        log("make modules_install INSTALL_MOD_PATH=%s" % dest)
        r = subprocess.run(["make", "-s", "-C", tree, "modules_install",
                            "INSTALL_MOD_PATH=" + dest,
                            "INSTALL_MOD_STRIP=1"], stdout=sys.stderr)
        if r.returncode:
            raise CannotTest("make modules_install failed in %s" % tree)
        cfg = os.path.join(tree, ".config")
        return custom_guest(img, dest, tree, tree=tree,
                            config=cfg if os.path.exists(cfg) else None)
    if args.deb:
        debs = [os.path.abspath(d) for d in args.deb]
        h = hashlib.sha256()
        for d in debs:
            h.update(sha_file(d).encode())
        root = os.path.join(TOP, "build", "gate", "deb-" +
                            h.hexdigest()[:12])
        if not os.path.isdir(os.path.join(root, "boot")):
            shutil.rmtree(root, ignore_errors=True)
            for d in debs:
                subprocess.run(["dpkg-deb", "-x", d, root], check=True)
        bg = build_guest_mod()
        img, moddir, release = bg.kernel_files(root)
        if not img or not moddir:
            raise CannotTest("the packages hold no boot/vmlinuz-* with its "
                             "lib/modules/* (give the image package and, "
                             "where split, the modules package)")
        cfg = os.path.join(root, "boot", "config-" + release)
        return custom_guest(img, moddir, " ".join(
            os.path.basename(d) for d in debs),
            config=cfg if os.path.exists(cfg) else None)
    raise CannotTest("no kernel given (--kernel/--modules, --tree, --deb "
                     "or --debian)")


class CannotTest(Exception):
    pass


# ---------------------------------------------------------------------------
# the guests

def single_sh(drv, g):
    (open_ssid, ch, _), (wpa_ssid, _, _) = APS[g][0], APS[g][1]
    sh = gate_sh.SINGLE + (gate_sh.B43_ONLY if drv == "b43" else
                           gate_sh.BRCMSMAC_ONLY)
    return (sh.replace("DRV", drv).replace("OPEN", open_ssid)
            .replace("WPA", wpa_ssid).replace("PASS", PASS)
            .replace("CH_AWAY", str(6 if ch != 6 else 11))
            .replace("CH", str(ch)))


def func(case):
    return case.replace(".", "_").replace("-", "_")


def scenario(g, cases, port):
    """the shell of guest @g running @cases (in CASES order)"""
    sh = "PORT=%d\n" % port + gate_sh.LIB
    mine = [c for c, where, _ in CASES if c in cases and where == g]
    pair = [c for c, where, _ in CASES if c in cases and where == "P"]
    if g == "A":
        sh += single_sh("b43", "A") + gate_sh.PAIR
        sh += "wf 'iface_of b43 >/dev/null' 60; IF=$(iface_of b43)\n"
    elif g == "B":
        sh += single_sh("brcmsmac", "B") + gate_sh.PAIR + gate_sh.B43_SECOND
        # as on a real machine with both drivers: b43 blacklisted, so
        # that brcmsmac binds the BCM43224 (b43 lists its core revision)
        sh += ('echo "blacklist b43" > /etc/modprobe.conf\n'
               'modprobe brcmsmac\n'
               "wf 'iface_of brcmsmac >/dev/null' 60; "
               "IF=$(iface_of brcmsmac)\n")
    else:
        sh += gate_sh.ERRATUM.replace("OPEN", APS["E"][0][0])
        sh += "wf 'iface_of b43 >/dev/null' 60\n"
    for c in pair:
        parts = gate_sh.PAIR_PARTS.get(SAME_EXCHANGE.get(c, c))
        part = parts[0 if g == "A" else 1] if parts else None
        if c in SAME_EXCHANGE:
            # the other driver's case runs the exchange: this side's
            # marker only, for its own stretch of the log
            part = None
        if part:
            sh += "%s() {\n    %s\n}\n" % (func(c), part)
    for c in mine:
        if not c.startswith("bcma."):
            sh += "run_case %s\n" % c
    if g in ("A", "B"):
        for c in pair:
            if c in SAME_EXCHANGE:
                continue
            parts = gate_sh.PAIR_PARTS[c]
            if parts[0 if g == "A" else 1]:
                sh += "run_case %s\n" % c
    return sh


def medium_args(g, mcast, pcap):
    air = "wifi-medium,id=air0,pcap=%s" % pcap
    qa = []
    if mcast:
        qa += ["-netdev", mcast]
        air += ",netdev=l0"
    qa += ["-object", air]
    for i, (ssid, ch, bssid) in enumerate(APS[g]):
        qa += ["-netdev", "user,id=n%d" % i,
               "-device", "wifi-ap,medium=air0,ssid=%s,netdev=n%d,channel=%d,"
               "bssid=%s%s" % (ssid, i, ch, bssid,
                               ",passphrase=" + PASS if "wpa" in ssid
                               else "")]
    return qa


class Run:
    """One guest of the gate and what the host records beside it."""

    def __init__(self, g, kernel, cases, out, mcast, port):
        self.g = g
        self.trace = os.path.join(out, "gate-%s.trace" % g.lower())
        self.pcap = os.path.join(out, "gate-%s.pcap" % g.lower())
        for f in (self.trace, self.pcap):
            if os.path.exists(f):
                os.unlink(f)
        self.trace_at = {}
        qa = medium_args(g, mcast if g in ("A", "B") else None, self.pcap)
        # a soft lockup panics (the run ends, the case says so) instead of
        # holding the guest until its timeout
        append = "softlockup_panic=1"
        if g == "A":
            qa += ["-device", "bcm4331,id=wifi0,addr=04.0,medium=air0,"
                   "mac=02:43:31:00:0a:01"]
        elif g == "B":
            qa += ["-device", "bcm43224,id=wifi0,addr=04.0,medium=air0,"
                   "mac=02:43:22:24:0b:01",
                   "-device", "bcm4331,id=wifi1,addr=05.0,medium=air0,"
                   "mac=02:43:31:00:0b:02"]
            append += " bcm4331.coldplug=0"
        else:
            # the bug lab's placement: QEMU's IOMMU, whose IOVA allocator
            # hands the driver's rings out top-down in a fixed order
            # under -icount (the guest's clock counts instructions) as in
            # the bug lab: the IOMMU's 10 ms flush-queue timer cannot fire
            # inside the ring setup on a loaded host, which would hand the
            # RX ring a recycled IOVA off bit 12 (docs/bug-lab.md)
            qa = ["-device", "intel-iommu",
                  "-icount", "shift=2,sleep=off"] + qa + [
                "-device", "bcm4331,id=wifi0,addr=04.0,medium=air0,"
                "rx-cd-erratum=on,mac=02:43:31:00:0e:01"]
            append += " intel_iommu=on"
        qa += ["-trace", "bcm4331_key_*", "-trace", "bcm4331_phy_tune",
               "-D", self.trace]
        if g == "E":
            # the ring address and RXSTATUS the driver saw (bug lab)
            qa += ["-trace", "bcm4331_d11_read", "-trace",
                   "bcm4331_d11_write"]
        actions = {"@@host rfkill-on": self.rfkill(True),
                   "@@host rfkill-off": self.rfkill(False),
                   # the scenario did not reach the guest (a kernel without
                   # CONFIG_FW_CFG_SYSFS): stop now, not at the timeout
                   NO_SCENARIO: lambda qmp: qmp.cmd("quit")}
        for c in cases:
            actions["@@gate begin %s" % c] = self.mark(c)
        self.guest = Guest("gate-%s" % g.lower(), scenario(g, cases, port),
                           qa, kernel=kernel.gdir, timeout=1500 if g != "E"
                           else 600, append=append, actions=actions,
                           mem=768)

    def rfkill(self, on):
        def act(qmp):
            qmp.cmd("qom-set", path="/machine/peripheral/wifi0",
                    property="rfkill", value=on)
            return True
        return act

    def mark(self, case):
        def act(qmp):
            self.trace_at[case] = os.path.getsize(self.trace) \
                if os.path.exists(self.trace) else 0
        return act

    def trace_of(self, case):
        """the trace from @case's start to the next case's"""
        if case not in self.trace_at or not os.path.exists(self.trace):
            return ""
        start = self.trace_at[case]
        later = [v for v in self.trace_at.values() if v > start]
        with open(self.trace, "rb") as f:
            f.seek(start)
            data = f.read((min(later) - start) if later else -1)
        return data.decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# judging

class Outcome:
    def __init__(self, name):
        self.name = name
        self.status = None        # PASS, FAIL, SKIP, ERROR
        self.diag = []
        self.duration = None

    def fail(self, why):
        self.status = "FAIL"
        self.diag.append(why)


def console_cases(res):
    """case -> (rc or None, its console lines) from a guest's output"""
    out = {}
    cur = None
    for ln in res.text.splitlines():
        m = re.match(r"@@gate begin (\S+)$", ln.strip())
        if m:
            cur = m.group(1)
            out[cur] = [None, []]
            continue
        m = re.match(r"@@gate end (\S+) (\d+)$", ln.strip())
        if m and m.group(1) in out:
            out[m.group(1)][0] = int(m.group(2))
            cur = None
            continue
        if cur:
            out[cur][1].append(ln)
    return out


def log_slices(res):
    """case -> its stretch of the kernel log: from the end of the case
    before it (the boot, for the first) to its own end; the rest after the
    last case goes to the last.  From the dmesg the guest printed at the
    end, or (the guest died on the way) from the console."""
    text = res.dmesg if "gate: begin" in res.dmesg else res.text
    marks = "gate: " if "gate: begin" in res.dmesg else "@@gate "
    slices = {}
    cur_lines = []
    last = None
    for ln in text.splitlines():
        cur_lines.append(ln)
        m = re.search(re.escape(marks) + r"end (\S+)", ln)
        if m:
            slices[m.group(1)] = cur_lines
            last = m.group(1)
            cur_lines = []
    if last and cur_lines:
        slices[last] += cur_lines
    elif cur_lines:
        # a case that never ended (the guest stopped in it) gets the rest
        m = re.findall(re.escape(marks) + r"begin (\S+)", "\n".join(
            cur_lines))
        if m:
            slices[m[-1]] = cur_lines
    return slices


# a stack frame or the faulting instruction of a report
FRAME = re.compile(r"^(\[\s*[\d.]+\]\s*)?\s*(RIP: ([0-9a-f]{4}:)?|\? )?"
                   r"[\w.]+\+0x[0-9a-f]+/0x[0-9a-f]+")


def kernel_log_problems(lines):
    """the lines of @lines no real card would cause: reports (with the
    top of their stack, where the driver's functions are) and driver
    errors"""
    bad = []
    frames = 0
    for ln in lines:
        if frames and FRAME.search(ln.strip()):
            bad.append("    " + ln.strip())
            frames -= 1
            continue
        if any(r in ln for r in REAL_LINES):
            continue
        if SPLAT.search(ln):
            bad.append(ln.strip())
            frames = 8
        elif DRIVERS.search(ln) and NOISE.search(ln):
            bad.append(ln.strip())
    return bad


def judge(case, res, cons, slices, outcome):
    if res is None:
        outcome.status = "ERROR"
        outcome.diag.append("its guest did not run")
        return
    if case not in cons:
        outcome.status = "ERROR"
        outcome.diag.append("not reached: guest %s stopped before it (%s)" %
                            (res.name, "timed out" if res.timed_out else
                             "QEMU exit %s" % res.qemu_rc))
        return
    rc, lines = cons[case]
    outcome.diag += [ln.strip()[2:] for ln in lines
                     if ln.strip().startswith("# ")]
    skip = [ln.strip()[len("@@skip "):] for ln in lines
            if ln.strip().startswith("@@skip ")]
    if rc is None:
        text = "\n".join(slices.get(case, [])) + res.text[-4000:]
        outcome.fail("the guest stopped during this case (%s)" %
                     ("timed out" if res.timed_out else
                      "kernel panic" if "Kernel panic" in text else
                      "QEMU exit %s" % res.qemu_rc))
    elif rc == 77 and skip:
        outcome.status = "SKIP"
        outcome.diag = skip
    elif rc != 0:
        outcome.fail("the case's script failed (exit %d)" % rc)
    bad = kernel_log_problems(slices.get(case, []))
    if bad:
        outcome.fail("kernel log: %d line(s) a real card would not cause:"
                     % len(bad))
        outcome.diag += ["  " + b for b in bad[:24]]
    if outcome.status is None:
        outcome.status = "PASS"


def judge_extra(case, res, run, outcome):
    """what the host checks beside the guest's own verdict"""
    text = res.text if res else ""
    if case == "b43.probe" and not re.search(
            r"b43-phy\d+: Broadcom 4331 WLAN found \(core revision 29\)",
            text):
        outcome.fail("b43 did not print 'Broadcom 4331 WLAN found (core "
                     "revision 29)'")
    if case in ("b43.wpa2-hwcrypto", "b43.wpa2-swcrypto") and \
            outcome.status == "PASS":
        tr = run.trace_of(case)
        keys = len(re.findall(r"TX key slot|RX key slot [0-9]", tr))
        if case.endswith("hwcrypto") and keys == 0:
            outcome.fail("b43 never used the card's key table (hardware "
                         "crypto): every frame went through mac80211's")
        if case.endswith("swcrypto") and keys:
            outcome.fail("with nohwcrypt=1 the card still en/decrypted %d "
                         "frames" % keys)
        outcome.diag.append("frames through the card's key table: %d" %
                            keys)
    if case == "b43.dma-erratum" and outcome.status == "PASS":
        ring = rx_ring(run.trace)
        outcome.diag.append("RX ring at %s (bit 12 = %s): the RX loop "
                            "ended, traffic flowed" %
                            ("?" if ring is None else "0x%x" % ring,
                             "?" if ring is None else (ring >> 12) & 1))


def rx_ring(trace):
    """the RX engine 0 ring address the driver wrote last (bug lab)"""
    spec = importlib.util.spec_from_file_location(
        "buglab", os.path.join(TOP, "tests", "guest", "buglab.py"))
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
        return mod.rx_observed(mod.ring_trace(trace))["ring"]
    except Exception:
        return None


def bcma_enum(case, res, outcome):
    if res is None or not res.text:
        outcome.status = "ERROR"
        outcome.diag.append("its guest did not run")
        return
    dm = res.dmesg if res.dmesg else res.text
    want = BCMA_4331 if case.endswith("4331") else BCMA_43224
    for w in want:
        if not re.search(r"bcma-pci-bridge 0000:00:0[45]\.0: bus\d+: " + w,
                         dm):
            outcome.fail("bcma did not print '%s'" % w.replace("\\", ""))
    for b in BCMA_BAD:
        if b in dm:
            outcome.fail("bcma printed '%s'" % b)
    if outcome.status is None:
        outcome.status = "PASS"


# ---------------------------------------------------------------------------
# output

def ktap(outcomes):
    """KTAP v1: a suite per driver, a test per case"""
    lines = ["KTAP version 1"]
    suites = []
    for o in outcomes:
        s = o.name.split(".")[0]
        if s not in suites:
            suites.append(s)
    lines.append("1..%d" % len(suites))
    for i, s in enumerate(suites, 1):
        mine = [o for o in outcomes if o.name.split(".")[0] == s]
        lines += ["    KTAP version 1", "    # Subtest: %s" % s,
                  "    1..%d" % len(mine)]
        for j, o in enumerate(mine, 1):
            sub = o.name.split(".", 1)[1]
            for d in o.diag:
                lines.append("    # %s: %s" % (o.name, d))
            if o.status == "SKIP":
                lines.append("    ok %d %s # SKIP %s" % (
                    j, sub, "; ".join(o.diag) or "skipped"))
            else:
                lines.append("    %s %d %s" % (
                    "ok" if o.status == "PASS" else "not ok", j, sub))
        ok = all(o.status in ("PASS", "SKIP") for o in mine)
        lines.append("%s %d %s" % ("ok" if ok else "not ok", i, s))
    return "\n".join(lines) + "\n"


def file_url(path, base):
    """@path (in the artifacts directory) as a URL: under @base where the
    artifacts are published, else file://"""
    if base:
        return base.rstrip("/") + "/" + os.path.basename(path)
    return "file://" + os.path.abspath(path)


def kcidb(kernel, outcomes, origin, started, out, base=None, logs=None):
    """KCIDB I/O data, schema v5.3 (kcidb-io's LATEST): the checkout (git
    metadata of a kernel tree), the build (the kernel under test) and a
    test per case, path "bcm43xx.<case>", its guest's console as log_url
    and the air's pcap as an output file"""
    ident = hashlib.sha256(("%s %s %s" % (kernel.label, kernel.release,
                                          started)).encode()).hexdigest()[:16]
    checkout = {"id": "%s:%s" % (origin, ident), "origin": origin,
                "start_time": started, "valid": True,
                "comment": "kernel %s (%s)" % (kernel.release, kernel.label)}
    if kernel.tree:
        checkout.update(git_info(kernel.tree))
    build = {"id": "%s:%s-build" % (origin, ident),
             "checkout_id": checkout["id"], "origin": origin,
             "start_time": started, "architecture": "x86_64",
             "status": "PASS", "comment": "kernel release %s" %
             kernel.release}
    if kernel.config:
        build["config_name"] = os.path.basename(kernel.config)
    tests = []
    for o in outcomes:
        t = {"id": "%s:%s-%s" % (origin, ident, o.name),
             "build_id": build["id"], "origin": origin,
             "path": "bcm43xx." + o.name, "status": o.status,
             "start_time": started,
             "environment": {"comment": "QEMU (TCG) with bcm4331-qemu's "
                                        "cards on a simulated air"}}
        g = (logs or {}).get(o.name)
        if g:
            t["log_url"] = file_url(os.path.join(out, "gate-%s.console.log" %
                                                 g.lower()), base)
            t["output_files"] = [
                {"name": "gate-%s.pcap" % g.lower(),
                 "url": file_url(os.path.join(out, "gate-%s.pcap" %
                                              g.lower()), base)}]
        if o.diag:
            t["comment"] = "; ".join(o.diag)[:1000]
        tests.append(t)
    return {"version": {"major": 5, "minor": 3}, "checkouts": [checkout],
            "builds": [build], "tests": tests}


def validate_kcidb(data, schema_file):
    """@data against a KCIDB JSON schema (kcidb-io's `kcidb-schema`
    output); the errors, or [] """
    import jsonschema
    with open(schema_file) as f:
        schema = json.load(f)
    v = jsonschema.validators.validator_for(schema)(
        schema, format_checker=jsonschema.FormatChecker())
    return ["%s: %s" % ("/".join(str(p) for p in e.path), e.message)
            for e in v.iter_errors(data)]


def git_info(tree):
    def git(*a):
        r = subprocess.run(["git", "-C", tree] + list(a),
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    head = git("rev-parse", "HEAD")
    if not head:
        return {}
    info = {"git_commit_hash": head}
    url = git("config", "--get", "remote.origin.url")
    if url:
        info["git_repository_url"] = url
    br = git("rev-parse", "--abbrev-ref", "HEAD")
    if br and br != "HEAD":
        info["git_repository_branch"] = br
    return info


# ---------------------------------------------------------------------------

def select(args):
    names = [c for c, _, _ in CASES]
    pats = list(args.case or [])
    if args.quick:
        pats += QUICK
    if not pats:
        return names
    sel = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in pats)]
    if not sel:
        raise SystemExit("kernel-gate: no case matches %s (--list)" %
                         " ".join(pats))
    return sel


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    ap.add_argument("--kernel", help="bzImage of the kernel under test")
    ap.add_argument("--modules", help="its lib/modules/VERSION (or the "
                    "INSTALL_MOD_PATH of make modules_install)")
    ap.add_argument("--tree", help="a built kernel tree")
    ap.add_argument("--deb", action="append", help="a Debian kernel "
                    "package (repeat: image and modules packages)")
    ap.add_argument("--debian", choices=("6.12", "6.1"),
                    help="a Debian kernel of the project's guests")
    ap.add_argument("--case", action="append", metavar="PATTERN",
                    help="run the cases matching this glob (suite.case, "
                    "e.g. 'b43.*'; repeat to add)")
    ap.add_argument("--quick", action="store_true",
                    help="the smoke set: enumeration, probe, WPA2 "
                    "association of both drivers, the DMA erratum (about "
                    "a minute and a half)")
    ap.add_argument("--list", action="store_true",
                    help="list the cases and what each proves, and exit")
    ap.add_argument("--out", help="artifacts directory (KTAP, KCIDB, "
                    "consoles, traces, pcaps); default under build/")
    ap.add_argument("--kcidb-origin", default="bcm4331qemu",
                    help="KCIDB origin of the ids (default bcm4331qemu)")
    ap.add_argument("--kcidb-schema", help="validate kcidb.json against "
                    "this JSON schema (kcidb-io's `kcidb-schema` output)")
    ap.add_argument("--artifact-url", help="where the artifacts directory "
                    "is published (KCIDB URLs; default file://)")
    args = ap.parse_args()

    if args.list:
        for c, g, what in CASES:
            print("%-22s %s%s" % (c, what, "  (--quick)" if c in QUICK
                                  else ""))
        return 0
    cases = select(args)
    if os.environ.get("BCM_SKIP_DEPS") != "1":
        subprocess.run([os.path.join(TOP, "scripts", "deps.sh"), "gate"],
                       stdout=sys.stderr, check=True)
    if not os.path.exists(qemu_binary()):
        log("no QEMU at %s: run scripts/build-qemu.sh" % qemu_binary())
        return CANNOT_TEST
    try:
        kernel = kernel_from_args(args)
    except CannotTest as e:
        log("cannot test: %s" % e)
        return CANNOT_TEST
    out = os.path.abspath(args.out or os.path.join(
        TOP, "build", "gate", kernel.release))
    os.makedirs(out, exist_ok=True)
    os.environ["BCM_LOG_DIR"] = out
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")
    t0 = time.monotonic()

    # what the kernel cannot run: its cases are skipped, saying why
    have = kernel_modules(kernel.gdir)
    missing = {}
    for c, g, _ in CASES:
        lack = [m for m in case_needs(c, g) if m not in have]
        if c in cases and lack:
            missing[c] = "the kernel has no %s module (CONFIG_%s=m)" % (
                lack[0], lack[0].upper())
    if missing:
        log("%d cases skipped: %s" % (len(missing), "; ".join(
            sorted(set(missing.values())))))
    # a case judged from another's exchange needs that one to run
    torun = [c for c, _, _ in CASES if c not in missing and
             (c in cases or any(SAME_EXCHANGE.get(x) == c for x in cases
                                if x not in missing))]
    if not torun:
        log("cannot test: none of the selected cases can run on this kernel")
        return CANNOT_TEST
    need = set()
    for c, g, _ in CASES:
        if c in torun:
            need |= {"A", "B"} if g == "P" else {g}
    mcast = air_netdev() if {"A", "B"} <= need else None
    # the host's iperf3 servers: ports free now (gates run side by side)
    ports = dict(zip("ABE", free_ports(3)))
    runs = {}
    with contextlib.ExitStack() as stack:
        for g in sorted(need):
            stack.enter_context(host_iperf3(ports[g]))
            runs[g] = Run(g, kernel, [c for c, w, _ in CASES if c in torun
                                      and (w == g or (w == "P" and
                                                      g in "AB"))],
                          out, mcast, ports[g])
        log("kernel %s (%s): %d cases, guests %s, artifacts in %s" % (
            kernel.release, kernel.label, len(cases),
            " ".join(sorted(need)), out))
        for r in runs.values():
            r.guest.start()
        results = {}
        for g, r in runs.items():
            results[g] = r.guest.wait()
            log("guest %s done after %.0f s (%s)" % (
                g, time.monotonic() - t0, "timed out" if
                results[g].timed_out else "exit %s" % results[g].rc))
    booted = [g for g, res in results.items() if "@@gate begin" in res.text
              or "==== bcm4331 scenario start" in res.text]

    outcomes = []
    for c, g, _ in CASES:
        if c not in cases:
            continue
        o = Outcome(c)
        if c in missing:
            o.status = "SKIP"
            o.diag = [missing[c]]
            outcomes.append(o)
            continue
        if c.startswith("bcma."):
            bcma_enum(c, results.get(g), o)
            outcomes.append(o)
            continue
        sides = ["A", "B"] if g == "P" else [g]
        ran = SAME_EXCHANGE.get(c, c)
        for side in sides:
            res = results.get(side)
            if g == "P" and not gate_sh.PAIR_PARTS[ran][
                    0 if side == "A" else 1]:
                continue
            # a pair case reads the kernel log of its own driver's side
            # (both, for b43's mesh of two b43 cards)
            own = g != "P" or c == "b43.mesh" or \
                side == ("A" if c.startswith("b43.") else "B")
            judge(ran, res, console_cases(res) if res else {},
                  log_slices(res) if res and own else {}, o)
            if g != "P":
                judge_extra(c, res, runs.get(side), o)
        if o.status is None:
            o.status = "PASS"
        outcomes.append(o)

    text = ktap(outcomes)
    sys.stdout.write(text)
    with open(os.path.join(out, "ktap.txt"), "w") as f:
        f.write(text)
    logs = {c: ("A" if c.startswith("b43.") else "B") if g == "P" else g
            for c, g, _ in CASES}
    data = kcidb(kernel, outcomes, args.kcidb_origin, started, out,
                 args.artifact_url, logs)
    with open(os.path.join(out, "kcidb.json"), "w") as f:
        json.dump(data, f, indent=1)
    if args.kcidb_schema:
        errs = validate_kcidb(data, args.kcidb_schema)
        for e in errs:
            log("KCIDB: %s" % e)
        if errs:
            log("kcidb.json does not validate against %s" %
                args.kcidb_schema)
            return CANNOT_TEST
        log("kcidb.json validates against %s" % args.kcidb_schema)
    n = {s: sum(o.status == s for o in outcomes)
         for s in ("PASS", "FAIL", "SKIP", "ERROR")}
    log("%d passed, %d failed, %d skipped, %d not run (error) in %.0f s; "
        "KTAP %s/ktap.txt, KCIDB %s/kcidb.json" % (
            n["PASS"], n["FAIL"], n["SKIP"], n["ERROR"],
            time.monotonic() - t0, out, out))
    if any(NO_SCENARIO in res.text for res in results.values()):
        log("cannot test: the guest got no scenario from QEMU's fw_cfg (the "
            "kernel needs CONFIG_FW_CFG_SYSFS)")
        return CANNOT_TEST
    if not booted:
        log("cannot test: no guest reached its scenario (the kernel did not "
            "boot?): consoles in %s" % out)
        return CANNOT_TEST
    return 1 if n["FAIL"] or n["ERROR"] else 0


if __name__ == "__main__":
    sys.exit(main())
