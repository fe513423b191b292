#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The bug lab: historical b43 DMA bugs, reproduced with the real driver.

    scripts/bug-lab.sh [--list] [--repeat N] [ENTRY...]

Each catalogue entry boots the test guest (scripts/build-guest.py, kernel
6.12) on the card, with the driver the bug hit (b43 rebuilt from Debian's
source of the guest's own kernel with the fix reverted: a patch file in
scripts/bug-lab/) or with the unmodified driver, and prints per case what
is expected and what was observed, in driver terms.  docs/bug-lab.md tells
the stories.

Entries:
  rx-ring-bit12   Linux 14a8083e6765 (2011): a 4 KiB RX ring on an address
                  with bit 12 set; the BCM4331 copies the bit into RXSTATUS
                  (rx-cd-erratum), b43 reads slot n + 256 and its RX loop
                  never ends.  The card sits behind QEMU's Intel IOMMU, so
                  that the ring's DMA address comes from the kernel's IOVA
                  allocator, which hands addresses out top-down in a fixed
                  order: the same address on every run.
  rings-above-4g  the driver's rings and buffers above 4 GiB with 64-bit
                  engines (traffic intact), and with 32-bit engines
                  (dma64=off) the driver's 32-bit DMA mask keeps every
                  address the engines see below 4 GiB (bounce buffers).
"""

import argparse
import fcntl
import functools
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Guest, SH_WLAN0, TOP, guest_dir, log_dir,  # noqa: E402
                     qemu_binary)

LAB = os.path.join(TOP, "build", "bug-lab")
PATCHES = os.path.join(TOP, "scripts", "bug-lab")
B43_DIR = "drivers/net/wireless/broadcom/b43"
# the guest kernel (scripts/build-guest.py --kernel): 6.12 unless
# --kernel or BCM_GUEST_KERNEL says otherwise
KERNEL = os.environ.get("BCM_GUEST_KERNEL", "6.12")

# b43's constants (drivers/net/wireless/broadcom/b43/dma.h, Linux 6.12)
RXRING_SLOTS = 256                  # B43_RXRING_SLOTS
DESC64 = 16                         # sizeof(struct b43_dmadesc64)
RXSTATDPTR = 0x1FFF                 # B43_DMA64_RXSTATDPTR


@functools.lru_cache(maxsize=None)
def build_guest():
    """scripts/build-guest.py as a module (its apt download, package
    extraction, initramfs packer)"""
    spec = importlib.util.spec_from_file_location(
        "build_guest", os.path.join(TOP, "scripts", "build-guest.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def log(msg):
    print("bug-lab: " + msg, flush=True)


# ---------------------------------------------------------------------------
# the pre-fix driver, built from Debian's source of the guest's kernel

def guest_kernel():
    """(package version, kernel release) of the guest (build-guest.py)."""
    with open(os.path.join(guest_dir(KERNEL), "kernel.version")) as f:
        _, ver, kver = f.read().split()
    return ver, kver


def kernel_tree(ver, kver):
    """Debian's headers and kbuild of @kver (extracted, not installed) and
    the pristine b43 source of the same version; returns (headers dir,
    source dir)."""
    bg = build_guest()
    debs = os.path.join(LAB, "debs")
    root = os.path.join(LAB, kver, "root")
    hdr = os.path.join(root, "usr/src/linux-headers-%s" % kver)
    src = os.path.join(LAB, kver, "src")
    if not os.path.exists(os.path.join(hdr, ".ok")):
        # the flavour's headers and what they need of the same source
        # version: the common headers and kbuild (their names differ
        # between kernel series: linux-kbuild-6.12.118+deb12, -6.1)
        hpkg = "linux-headers-%s" % kver
        deps = re.findall(r"Depends: (linux-(?:headers|kbuild)-\S+)",
                          bg.run(["apt-cache", "depends", hpkg]))
        files = bg.download(["%s=%s" % (p, ver) for p in [hpkg] + deps],
                            debs)
        shutil.rmtree(root, ignore_errors=True)
        bg.extract(files, root)
        # the flavour's Makefile includes the common tree by absolute path
        mk = os.path.join(hdr, "Makefile")
        text = open(mk).read().replace(
            "include /usr/src/", "include %s/usr/src/" % root)
        open(mk, "w").write(text)
        open(os.path.join(hdr, ".ok"), "w").close()
    kernel_source(ver, kver, [B43_DIR, "Makefile"], src)
    return hdr, src


def kernel_source(ver, kver, paths, dest):
    """Extract @paths (files or directories) of Debian's linux-source
    package of the guest's kernel version into @dest, once."""
    os.makedirs(LAB, exist_ok=True)
    # the bug lab and the transcript's test may want it at the same time
    with open(os.path.join(LAB, ".source.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _kernel_source(ver, kver, paths, dest)


def _kernel_source(ver, kver, paths, dest):
    series = ".".join(kver.split(".")[:2])
    stamp = os.path.join(dest, ".ok")
    if os.path.exists(stamp) and open(stamp).read() == repr(paths):
        return dest
    bg = build_guest()
    deb, = bg.download(["linux-source-%s=%s" % (series, ver)],
                       os.path.join(LAB, "debs"))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    log("extracting %s from linux-source-%s %s" % (", ".join(paths), series,
                                                    ver))
    with tempfile.TemporaryDirectory(dir=LAB) as tmp:
        tarball = "./usr/src/linux-source-%s.tar.xz" % series
        p1 = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                              stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", tmp, tarball],
                       stdin=p1.stdout, check=True)
        if p1.wait():
            sys.exit("bug-lab: dpkg-deb failed on %s" % deb)
        subprocess.run(["tar", "-xJf", os.path.join(tmp, tarball),
                        "-C", dest, "--strip-components=1"] +
                       ["linux-source-%s/%s" % (series, p) for p in paths],
                       check=True)
    with open(stamp, "w") as f:
        f.write(repr(paths))
    return dest


def driver_initrd(patch):
    """The guest's initramfs with b43 rebuilt with @patch (a file in
    scripts/bug-lab/) applied: (initrd path, unstripped b43.ko path).  The
    module is built out of tree against the guest kernel's own headers, so
    its vermagic is the guest kernel's.  One builder at a time (tests run
    in parallel)."""
    os.makedirs(LAB, exist_ok=True)
    with open(os.path.join(LAB, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _driver_initrd(patch)


def _driver_initrd(patch):
    ver, kver = guest_kernel()
    stock = os.path.join(guest_dir(KERNEL), "initrd.img")
    pfile = os.path.join(PATCHES, patch)
    name = re.sub(r"\.patch$", "", patch)
    out = os.path.join(LAB, kver, name)
    h = hashlib.sha256()
    for f in (pfile, stock):
        h.update(open(f, "rb").read())
    h.update(ver.encode())
    digest = h.hexdigest()
    initrd = os.path.join(out, "initrd.img")
    ko = os.path.join(out, "b43", "b43.ko")
    stamp = os.path.join(out, "inputs.sha256")
    if os.path.exists(stamp) and open(stamp).read().strip() == digest:
        return initrd, ko
    hdr, src = kernel_tree(ver, kver)
    log("building b43 for %s with %s" % (kver, patch))
    shutil.rmtree(out, ignore_errors=True)
    tree = os.path.join(out, "tree")
    shutil.copytree(src, tree)
    subprocess.run(["patch", "-s", "-p1", "-d", tree, "-i", pfile],
                   check=True)
    mdir = os.path.join(tree, B43_DIR)
    subprocess.run(["make", "-s", "-C", hdr, "M=" + mdir, "modules",
                    "-j%d" % os.cpu_count()], check=True,
                   stdout=subprocess.DEVNULL)
    os.makedirs(os.path.dirname(ko))
    shutil.copy2(os.path.join(mdir, "b43.ko"), ko)
    magic = build_guest().run(["/sbin/modinfo", "-F", "vermagic",
                               ko]).strip()
    if magic.split()[0] != kver:
        sys.exit("bug-lab: b43.ko has vermagic %r, the guest runs %s" %
                 (magic, kver))
    # the initramfs: the stock one and, appended, an archive with the
    # rebuilt module at the stock module's path (the later entry wins)
    ov = os.path.join(out, "overlay")
    dst = os.path.join(ov, "lib/modules", kver, "kernel", B43_DIR, "b43.ko")
    os.makedirs(os.path.dirname(dst))
    subprocess.run(["strip", "--strip-debug", "-o", dst, ko], check=True)
    with open(initrd + ".tmp", "wb") as o:
        o.write(open(stock, "rb").read())
        build_guest().pack(ov, o)
    os.replace(initrd + ".tmp", initrd)
    # the tree stays: gdb shows its source lines (docs/bug-lab.md)
    with open(stamp, "w") as f:
        f.write(digest + "\n")
    log("%s: b43.ko vermagic %s" % (out, magic))
    return initrd, ko


# ---------------------------------------------------------------------------
# reading a run

def ring_trace(path):
    """The DMA engine registers b43 wrote and read, from a trace of
    bcm4331_d11_read/write: a list of (op, register, value)."""
    out = []
    rx = re.compile(r"bcm4331_d11_(read|write) (DMA_\w+) \[0x([0-9a-f]+)\] "
                    r"(?:->|<-) 0x([0-9a-f]+)")
    with open(path, errors="replace") as f:
        for line in f:
            m = rx.search(line)
            if m:
                out.append((m.group(1), m.group(2), int(m.group(3), 16),
                            int(m.group(4), 16)))
    return out


def dma_address(lo, hi):
    """The bus address b43 programmed (bcma's PCIe translation, bit 31 of
    the high word, removed)."""
    return ((hi & 0x3FFFFFFF) << 32) | lo


def rx_observed(trace):
    """What the driver saw on RX engine 0: its ring address (the last one
    programmed before the first frame), the first RXSTATUS with a frame in
    it, and the slot b43 derives from it."""
    lo = hi = None
    ring = None
    status = None
    ring32 = False
    for op, reg, off, val in trace:
        if reg == "DMA_RXRINGLO" and off in (0x228, 0x214):
            lo = val
            ring32 = off == 0x214
        elif reg == "DMA_RXRINGHI" and off == 0x22C:
            hi = val
        elif reg == "DMA_RXSTATUS" and op == "read" and lo is not None \
                and status is None:
            ring = lo & 0x3FFFFFFF if ring32 else dma_address(lo, hi or 0)
            if val & RXSTATDPTR:
                status = val
    r = {"ring": ring, "status": status, "slot": None}
    if status is not None and not ring32:
        r["slot"] = (status & RXSTATDPTR) // DESC64
    return r


def buffers_observed(path):
    """Every bus address the engines used (descriptor buffers), from the
    bcm4331_dma_desc trace events."""
    addrs = []
    rx = re.compile(r"bcm4331_dma_desc .* addr 0x([0-9a-f]+)")
    with open(path, errors="replace") as f:
        for line in f:
            m = rx.search(line)
            if m:
                addrs.append(int(m.group(1), 16))
    return addrs


def works(res):
    """scan, association, DHCP and ping all done (the lab scenario)."""
    o = res.output
    return ("### associated" in o and "lease of 10.0.2.15 obtained" in o and
            re.search(r" 0% packet loss", o) is not None)


def lockup(res):
    """the guest reported a soft lockup with b43_dma_rx on the stack"""
    t = res.text
    i = t.find("soft lockup")
    return i >= 0 and "b43_dma_rx" in t[i:i + 8000]


SCENARIO = SH_WLAN0 + """\
echo "### b43 .text at $(cat /sys/module/b43/sections/.text)"
ip link set wlan0 up && echo "### wlan0 up"
iw dev wlan0 scan | grep -q 'SSID: QEMU' && echo "### scan found QEMU"
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20 && echo "### associated"
udhcpc -i wlan0 -n -q -t 5
ping -c 3 10.0.2.2
"""


# -icount: the guest's clock counts instructions (2^shift ns each), so that
# a run does not depend on the host's speed or load
# (recordings too: the failing run's stuck udelay() loop executes PAUSE,
# each of which ends a TCG slice the log records and the replay steps
# through; its replay is slow whatever the shift, as the watchdog's 2 s
# must hold the longest legitimate stretch without a reschedule, which
# costs a fixed number of instructions)
ICOUNT_SHIFT = 2
# a soft lockup (reported after 2 x watchdog_thresh s: 2 s, not 20) panics,
# printing its stack (loglevel 7), and the panic ends the run (-no-reboot);
# a short lockup keeps a recording of it small
LOCKUP_APPEND = "watchdog_thresh=1 softlockup_panic=1 loglevel=7"


def icount_args(rr=None):
    """QEMU arguments of a repeatable run: with @rr = (record|replay, file)
    under record/replay; else -icount sleep=off with the device models'
    randomness (the AP's ANonce and GTK) fixed by -seed.  A fixed RTC in
    both."""
    rtc = ["-rtc", "base=2026-01-01T00:00:00,clock=vm"]
    if rr:
        return ["-icount", "shift=%d,rr=%s,rrfile=%s" % (
            (ICOUNT_SHIFT,) + tuple(rr))] + rtc
    return ["-icount", "shift=%d,sleep=off" % ICOUNT_SHIFT, "-seed", "1"] + rtc


def lab_guest(name, card="", initrd=None, iommu=True, mem=512, append="",
              rr=None, gdb=False,
              trace_events=("bcm4331_d11_read", "bcm4331_d11_write")):
    """A guest on the card with the virtual AP (open, SSID QEMU) bridged to
    user networking.  With @iommu the card is behind QEMU's Intel IOMMU
    (its IOVA allocator places the rings in the order of the driver's
    calls: docs/bug-lab.md).  @rr = (record|replay, file)."""
    tr = os.path.join(log_dir(), "%s.trace" % name)
    if os.path.exists(tr):
        os.unlink(tr)
    qa = ["-device", "intel-iommu"] if iommu else []
    qa += icount_args(rr)
    if gdb:
        qa += ["-s", "-S"]
    qa += ["-object", "wifi-medium,id=air0",
           "-netdev", "user,id=n0"]
    if rr:
        # the host's packets go into the log
        qa += ["-object", "filter-replay,id=rep0,netdev=n0"]
    qa += ["-device", "wifi-ap,medium=air0,ssid=QEMU,netdev=n0",
           "-device", "bcm4331,addr=04.0,medium=air0" + card, "-D", tr]
    for e in trace_events:
        qa += ["-trace", e]
    app = LOCKUP_APPEND + " " + append
    if iommu:
        app += " intel_iommu=on"
    if rr:
        app += " nokaslr"       # the kernel's addresses as gdb reads them
    g = Guest(name, SCENARIO, qa, kernel=KERNEL, initrd=initrd, mem=mem,
              append=app, timeout=7200 if gdb else 600, hostname="lab")
    g.trace = tr
    return g


def run_all(guests):
    """Boot the guests two at a time (the machine's two cores)."""
    res = []
    for i in range(0, len(guests), 2):
        batch = guests[i:i + 2]
        for g in batch:
            g.start()
        res += [g.wait() for g in batch]
    return res


class Case:
    """@works: the case is one where the driver works (else it shows the
    failure)."""

    def __init__(self, name, expected, guest, judge, works=True):
        self.name, self.expected, self.guest, self.judge, self.works = \
            name, expected, guest, judge, works


def hexa(a):
    return "?" if a is None else "0x%x" % a


def bit12(a):
    return None if a is None else (a >> 12) & 1


def rx_ring_bit12(repeat=1):
    """Cases of the RX-ring erratum; each judge returns (observed, ok)."""
    pre, _ = driver_initrd("b43-revert-14a8083e6765.patch")

    def judge_fail(res, g):
        o = rx_observed(ring_trace(g.trace))
        st = o["status"]
        obs = ("RX ring at %s (bit 12 = %s, ring memory 4096 bytes: "
               "B43_DMA64_RINGMEMSIZE reverted); RXSTATUS read 0x%s -> "
               "CD 0x%x / %d = slot %s of a %d-slot ring%s; %s" % (
                   hexa(o["ring"]), bit12(o["ring"]),
                   "%08x" % st if st is not None else "?",
                   (st or 0) & RXSTATDPTR, DESC64, o["slot"], RXRING_SLOTS,
                   " (256 too high: b43_dma_rx's slot wraps at 255 and "
                   "never meets it)"
                   if (o["slot"] or 0) >= RXRING_SLOTS else "",
                   "soft lockup in b43_dma_rx" if lockup(res) else
                   "no lockup"))
        ok = (bit12(o["ring"]) == 1 and (o["slot"] or 0) >= RXRING_SLOTS and
              lockup(res))
        return obs, ok, o

    def judge_work(res, g):
        o = rx_observed(ring_trace(g.trace))
        obs = ("RX ring at %s (bit 12 = %s); first RXSTATUS 0x%s -> slot %s;"
               " %s" % (hexa(o["ring"]), bit12(o["ring"]),
                        "%08x" % o["status"] if o["status"] is not None
                        else "?", o["slot"],
                        "scan, association, DHCP, ping: all done"
                        if works(res) else "traffic FAILED"))
        ok = works(res) and not lockup(res) and \
            o["slot"] is not None and o["slot"] < RXRING_SLOTS
        return obs, ok, o

    cases = []
    for i in range(repeat):
        sfx = "-%d" % (i + 1) if repeat > 1 else ""
        cases.append(Case(
            "pre-fix b43 (4 KiB rings), rx-cd-erratum=on" + sfx,
            "ring on bit 12, slot 256 too high, RX loop never ends",
            lab_guest("lab-bit12-prefix-on" + sfx, ",rx-cd-erratum=on", pre),
            judge_fail, works=False))
    cases += [
        Case("pre-fix b43 (4 KiB rings), rx-cd-erratum=off",
             "ring on bit 12, right slot, traffic works",
             lab_guest("lab-bit12-prefix-off", ",rx-cd-erratum=off", pre),
             judge_work),
        Case("b43 of the kernel (8 KiB rings), rx-cd-erratum=on",
             "ring 8 KiB aligned (bit 12 = 0), traffic works",
             lab_guest("lab-bit12-fixed-on", ",rx-cd-erratum=on"),
             judge_work),
        Case("b43 of the kernel (8 KiB rings), rx-cd-erratum=off",
             "traffic works",
             lab_guest("lab-bit12-fixed-off", ",rx-cd-erratum=off"),
             judge_work),
    ]
    return cases


FOUR_GIB = 1 << 32


def rings_above_4g(repeat=1):
    """64-bit engines get the driver's rings and buffers above 4 GiB (most
    of the guest's memory is there, low memory reserved); 32-bit engines
    (dma64=off) never see such an address."""
    # q35 with 5 GiB: 2 GiB below 4 GiB, 3 GiB above; reserve 64 MiB ..
    # 1.75 GiB of the low part (the kernel at 16 MiB and the initrd near
    # 2 GiB stay usable, and the swiotlb bounce buffers fit)
    mem = 5 * 1024
    app = "memmap=1728M$64M"

    def judge64(res, g):
        o = rx_observed(ring_trace(g.trace))
        bufs = buffers_observed(g.trace)
        high = [a for a in bufs if a >= FOUR_GIB]
        obs = ("RX ring at %s; %d of %d buffer addresses above 4 GiB; %s" % (
            hexa(o["ring"]), len(high), len(bufs),
            "scan, association, DHCP, ping: all done" if works(res)
            else "traffic FAILED"))
        ok = works(res) and (o["ring"] or 0) >= FOUR_GIB and bufs and \
            len(high) == len(bufs)
        return obs, ok, o

    def judge32(res, g):
        o = rx_observed(ring_trace(g.trace))
        bufs = buffers_observed(g.trace)
        high = [a for a in bufs if a >= FOUR_GIB]
        obs = ("32-bit engines: RX ring at %s; %d buffer addresses, %d above"
               " 4 GiB; %s" % (hexa(o["ring"]), len(bufs), len(high),
                               "scan, association, DHCP, ping: all done"
                               if works(res) else "traffic FAILED"))
        ok = works(res) and o["ring"] is not None and \
            o["ring"] < FOUR_GIB and bufs and not high
        return obs, ok, o

    ev = ("bcm4331_d11_read", "bcm4331_d11_write", "bcm4331_dma_desc")
    return [
        Case("b43, 64-bit engines, guest memory above 4 GiB",
             "rings and buffers above 4 GiB, traffic works",
             lab_guest("lab-4g-dma64", "", None, iommu=False, mem=mem,
                       append=app, trace_events=ev), judge64),
        Case("b43, 32-bit engines (dma64=off), same guest",
             "every engine address below 4 GiB, traffic works",
             lab_guest("lab-4g-dma32", ",dma64=off", None, iommu=False,
                       mem=mem, append=app, trace_events=ev), judge32),
    ]


ENTRIES = {
    "rx-ring-bit12": (rx_ring_bit12,
                      "b43 before Linux 14a8083e6765: a 4 KiB RX ring on "
                      "bit 12 and the BCM4331's RXSTATUS erratum"),
    "rings-above-4g": (rings_above_4g,
                       "the driver's rings above 4 GiB; 32-bit engines "
                       "kept below it"),
}


def run_entry(name, repeat=1):
    """Run one entry; prints expected vs observed; returns (cases, the
    list of (case, observed, ok, details))."""
    fn, title = ENTRIES[name]
    print("== %s: %s" % (name, title), flush=True)
    cases = fn(repeat)
    results = run_all([c.guest for c in cases])
    out = []
    for c, res in zip(cases, results):
        obs, ok, det = c.judge(res, c.guest)
        out.append((c, obs, ok, det, res))
        print("  %s %s\n     expected: %s\n     observed: %s\n"
              "     console:  %s\n     trace:    %s" % (
                  "PASS" if ok else "FAIL", c.name, c.expected, obs,
                  res.log, c.guest.trace), flush=True)
    return out


def record_replay(args):
    """Record, or replay, the failing run of rx-ring-bit12 (pre-fix b43,
    rx-cd-erratum=on); with --gdb the replay waits for gdb."""
    pre, ko = driver_initrd("b43-revert-14a8083e6765.patch")
    rrfile = os.path.join(LAB, "rx-ring-bit12.rr")
    mode = "record" if args.record else "replay"
    # a recording replays only with the QEMU and the guest it was made with
    h = hashlib.sha256()
    for f in (qemu_binary(), pre, os.path.join(guest_dir(KERNEL),
                                               "vmlinuz")):
        h.update(open(os.path.realpath(f), "rb").read())
    inputs = h.hexdigest()
    if mode == "replay":
        if not os.path.exists(rrfile):
            sys.exit("bug-lab: no recording (%s): run --record first" %
                     rrfile)
        made = open(rrfile + ".inputs").read().strip() \
            if os.path.exists(rrfile + ".inputs") else None
        if made != inputs:
            sys.exit("bug-lab: %s was recorded with another QEMU binary or "
                     "guest (rebuilt since): run --record again" % rrfile)
    g = lab_guest("lab-bit12-" + mode, ",rx-cd-erratum=on", pre,
                  rr=(mode, rrfile), gdb=args.gdb)
    if args.gdb:
        rec_log = os.path.join(log_dir(), "lab-bit12-record.console.log")
        text = open(rec_log, errors="replace").read() \
            if os.path.exists(rec_log) else ""
        m = re.search(r"### b43 \.text at (0x[0-9a-f]+)", text)
        base = m.group(1) if m else "ADDRESS (see the recorded console)"
        print("bug-lab: the replay waits for gdb on :1234; in another "
              "terminal:\n\n"
              "  gdb -q -ex 'target remote :1234' \\\n"
              "      -ex 'add-symbol-file %s -s .text %s' \\\n"
              "      -ex 'break op64_get_current_rxslot' -ex continue\n"
              "  (gdb) finish       # the slot b43 derives from RXSTATUS\n\n"
              "(give gdb the kernel's vmlinux from "
              "linux-image-%s-dbg first for its symbols too; "
              "docs/bug-lab.md)" % (ko, base, guest_kernel()[1]),
              flush=True)
    res = g.run()
    o = rx_observed(ring_trace(g.trace))
    print("bug-lab: %s: RX ring %s, RXSTATUS 0x%08x -> slot %s of %d, %s; "
          "console %s, trace %s" % (
              mode, hexa(o["ring"]), o["status"] or 0, o["slot"],
              RXRING_SLOTS, "soft lockup in b43_dma_rx" if lockup(res)
              else "no lockup", res.log, g.trace))
    if mode == "record":
        with open(rrfile + ".inputs", "w") as f:
            f.write(inputs + "\n")
        print("bug-lab: recorded %s (%d bytes)" % (
            rrfile, os.path.getsize(rrfile)))
    return 0 if lockup(res) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("entries", nargs="*", help="entries (default: all)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--kernel", default=KERNEL,
                    help="the guest kernel: 6.12 or 6.1 (%(default)s)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run the failing case N times (determinism)")
    ap.add_argument("--build", action="store_true",
                    help="only build the pre-fix driver")
    ap.add_argument("--record", action="store_true",
                    help="record the failing run of rx-ring-bit12 "
                    "(build/bug-lab/rx-ring-bit12.rr)")
    ap.add_argument("--replay", action="store_true",
                    help="replay the recorded run")
    ap.add_argument("--gdb", action="store_true",
                    help="with --replay: wait for gdb on :1234")
    args = ap.parse_args()
    globals()["KERNEL"] = args.kernel
    if args.record or args.replay:
        return record_replay(args)
    if args.list:
        for n, (_, t) in ENTRIES.items():
            print("%-16s %s" % (n, t))
        return 0
    if args.build:
        initrd, ko = driver_initrd("b43-revert-14a8083e6765.patch")
        print("initrd %s\nb43.ko (with debug info) %s" % (initrd, ko))
        return 0
    names = args.entries or list(ENTRIES)
    for n in names:
        if n not in ENTRIES:
            sys.exit("bug-lab: no entry %r (--list)" % n)
    failed = 0
    total = 0
    for n in names:
        for c, obs, ok, det, res in run_entry(n, args.repeat):
            total += 1
            failed += not ok
    print("bug-lab: %d of %d cases as expected" % (total - failed, total))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
