#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
Turn a QTEST_LOG=1 trace of one of our qtests into generic-fuzz inputs.

    scripts/qtest-to-fuzz.py --fuzzer build/qemu-fuzz/qemu-fuzz-x86_64 \
        --config bcm4331-ap --log hostile.log --name hostile-to-ap --out DIR
    scripts/qtest-to-fuzz.py ... --run-qtest build/qemu-fuzz/tests/qtest/\
bcm4331-ap-test:/bcm43xx/bcm4331/air/hostile-to-ap     # makes the log itself

What the qtest did becomes generic-fuzz commands (tests/qtest/fuzz/
generic_fuzz.c: opcode byte, then the operand struct as the fuzzer memcpy()s
it - x86-64 layout with its padding -, commands separated by "FUZZ"):

 - MMIO reads/writes inside a card's BAR0 -> OP_READ / OP_WRITE with region
   index and offset (generic-fuzz maps the BAR itself, elsewhere than the
   qtest did; the region index is the BAR's rank among the matched regions
   in the flat view, learnt from the fuzzer's own BAR mapping);
 - PCI config writes (outl 0xcf8 + out 0xcfc) to a card -> OP_PCI_WRITE
   (BARs and COMMAND left out: generic-fuzz maps and enables the card);
 - clock_step -> OP_CLOCK_STEP (the fuzzer steps to the next timer);
 - what the qtest wrote into guest RAM (rings, descriptors, headers, frames)
   cannot be written by generic-fuzz: guest RAM is filled only when the
   device DMA-reads it, with the current OP_ADD_DMA_PATTERN patterns in
   turn.  So every DMA read the device makes gets a pattern holding exactly
   the bytes the qtest had at that address then.  Which reads the device
   makes is found by running the fuzzer itself (FUZZ_SERIALIZE_QTEST=1
   QTEST_LOG=1 logs each fill as "[DMA] ... write ADDR LEN DATA"): each
   command gets the patterns found so far plus a probe pattern; the read
   that takes the probe is the next one to learn.  One fuzzer run per DMA
   read (all seeds of a run in parallel).

Seeds are cut at --max-len (libFuzzer's -max_len truncates longer inputs);
with --split the rest of the trace becomes further seeds, each starting with
the trace's setup (the commands before the first DMA read: card up, rings).
"""

import argparse
import base64
import glob
import os
import re
import struct
import subprocess
import sys
import tempfile

SEP = b"FUZZ"
OP_IN, OP_OUT, OP_READ, OP_WRITE, OP_PCI_READ, OP_PCI_WRITE, \
    OP_DISABLE_PCI, OP_ADD_DMA_PATTERN, OP_CLEAR_DMA_PATTERNS, \
    OP_CLOCK_STEP = range(10)
SIZES = {"b": 0, "w": 1, "l": 2, "q": 3}
BAR0_SIZE = 0x4000
BCM_VENDOR = 0x14e4
PROBE = b"\x00"
SUBST = []                  # --subst: (old bytes, new bytes) in patterns
MARKER = bytes([OP_PCI_READ]) + struct.pack("<BBB", 0, 0, 0xff)

R_LINE = re.compile(r"^\[R \+[0-9.]+\] (\S+)(.*)$")
S_LINE = re.compile(r"^\[S \+[0-9.]+\] (.*)$")
S_PREFIX = re.compile(r"^(?:\[S \+[0-9.]+\] )+")


def log(msg):
    print("qtest-to-fuzz: " + msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# generic-fuzz encoding (struct layouts of generic_fuzz.c on x86-64)

class Op:
    """one generic-fuzz command; 'lines' = qtest commands it logs"""

    def __init__(self, kind, raw, lines, t, desc):
        self.kind, self.raw, self.lines, self.t, self.desc = \
            kind, raw, lines, t, desc

    def key(self):
        return self.raw


# --------------------------------------------------------------------------
# where generic-fuzz's MMIO ops land: its region index counts the ranges of
# the FlatView (address order) whose MemoryRegion belongs to a matched
# device, and an op's offset is taken modulo its range's size.  A card's
# BAR0 is four 4 KiB windows onto the backplane (BAR0_WIN, BAR0_WIN2, the
# PCIe core, ChipCommon), and a window onto a core is cut in three by the
# core's clock control register (bcma-<core>-clkctlst at 0x1E0, a 4-byte
# region above the core's): so the range of an access depends on where
# the windows point when it is made.

CORE_BASES = (0x18000000, 0x18001000, 0x18002000)   # both chips
A_CLKCTLST = 0x1e0
WIN_REGS = {0x80: 0, 0xac: 1}                       # BAR0_WIN, BAR0_WIN2
WIN_RESET = (0x18000000, 0x18100000)
WIN_FIXED = (0x18002000, 0x18000000)                # bar0-pcie, bar0-cc


def window_ranges(page, bar_off):
    """[(mr key, offset in mr, size, offset in BAR)] of one 4 KiB window"""
    if page in CORE_BASES:
        return [(("core", page), 0, A_CLKCTLST, bar_off),
                (("clk", page), 0, 4, bar_off + A_CLKCTLST),
                (("core", page), A_CLKCTLST + 4, 0x1000 - A_CLKCTLST - 4,
                 bar_off + A_CLKCTLST + 4)]
    if page in (0x18100000, 0x18101000, 0x18102000, 0x18103000):
        return [(("page", page), 0, 0x1000, bar_off)]   # agents, EROM
    return [(("unmapped",), page, 0x1000, bar_off)]


class Layout:
    """the fuzz config's cards, in BAR order, and their windows"""

    def __init__(self, ncards):
        self.cfg = [bytearray(0x100) for _ in range(ncards)]
        for c in self.cfg:
            c[0x80:0x84] = WIN_RESET[0].to_bytes(4, "little")
            c[0xac:0xb0] = WIN_RESET[1].to_bytes(4, "little")

    def config_write(self, rank, off, size, val):
        n = {"b": 1, "w": 2, "l": 4}[size]
        self.cfg[rank][off:off + n] = val.to_bytes(n, "little")

    def ranges(self, rank):
        c = self.cfg[rank]
        pages = [int.from_bytes(c[0x80:0x84], "little") & ~0xfff,
                 int.from_bytes(c[0xac:0xb0], "little") & ~0xfff] + \
            list(WIN_FIXED)
        out = []
        for i, page in enumerate(pages):
            for r in window_ranges(page, i * 0x1000):
                last = out[-1] if out else None
                if last and last[0] == r[0] and last[1] + last[2] == r[1]:
                    out[-1] = (last[0], last[1], last[2] + r[2], last[3])
                else:
                    out.append(r)
        return out

    def region(self, rank, off):
        """BAR0 offset of the card of this rank -> (region index, offset)"""
        base = sum(len(self.ranges(r)) for r in range(rank))
        for i, (_, _, size, at) in enumerate(self.ranges(rank)):
            if at <= off < at + size:
                return base + i, off - at
        raise ValueError("offset %#x outside BAR0" % off)


def op_write(region, off, size, val):
    # struct { uint8_t size, base; [2]; uint32_t offset; uint64_t value; }
    return bytes([OP_WRITE]) + struct.pack("<BBxxIQ", SIZES[size], region,
                                           off, val)


def op_read(region, off, size):
    # struct { uint8_t size, base; [2]; uint32_t offset; }
    return bytes([OP_READ]) + struct.pack("<BBxxI", SIZES[size], region, off)


def op_pci_write(dev, off, size, val):
    # struct { uint8_t size, base, offset; [1]; uint32_t value; }
    return bytes([OP_PCI_WRITE]) + struct.pack("<BBBxI", SIZES[size], dev,
                                               off, val)


def op_pattern(data):
    # struct { uint8_t index, stride; } then the pattern bytes
    return bytes([OP_ADD_DMA_PATTERN, 0, 0]) + data


def encode(cmds):
    return SEP.join(cmds)


# --------------------------------------------------------------------------
# the qtest trace

class Ram:
    """what the qtest wrote to guest memory, in order (a timeline)"""

    def __init__(self):
        self.writes = []            # (t, addr, bytes)

    def write(self, t, addr, data):
        if data:
            self.writes.append((t, addr, bytes(data)))

    def read(self, t, addr, n):
        buf = bytearray(n)
        for wt, wa, wd in self.writes:
            if wt >= t:
                break
            lo, hi = max(addr, wa), min(addr + n, wa + len(wd))
            if lo < hi:
                buf[lo - addr:hi - addr] = wd[lo - wa:hi - wa]
        return bytes(buf)


def hexbytes(s):
    s = s[2:] if s.startswith("0x") else s
    return bytes.fromhex(s) if len(s) % 2 == 0 else bytes.fromhex("0" + s)


def sessions(path):
    """split a QTEST_LOG stderr into QEMU sessions (OPENED..CLOSED)"""
    cur, out = None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.endswith("] OPENED"):
                cur = []
                out.append(cur)
            elif line.endswith("] CLOSED"):
                cur = None
            elif cur is not None and (line.startswith("[R ") or
                                      line.startswith("[S ")):
                cur.append(line)
    return out


def parse_session(lines):
    """-> (list of (t, cmd, args, reply)), Ram"""
    cmds, ram = [], Ram()
    pending = None
    for line in lines:
        m = R_LINE.match(line)
        if m:
            if pending:
                cmds.append(pending + [None])
            pending = [len(cmds), m.group(1), m.group(2).split()]
            continue
        m = S_LINE.match(line)
        if m and pending:
            cmds.append(pending + [m.group(1)])
            pending = None
    if pending:
        cmds.append(pending + [None])
    return cmds, ram


def find_cards(cmds):
    """devfns (bus << 8 | devfn) whose vendor ID the qtest read as 0x14e4"""
    cfg_addr, cards = 0, set()
    for t, cmd, args, reply in cmds:
        if cmd == "outl" and int(args[0], 16) == 0xcf8:
            cfg_addr = int(args[1], 16)
        elif cmd in ("inw", "inl") and int(args[0], 16) == 0xcfc and \
                cfg_addr & 0x800000ff == 0x80000000 and reply and \
                len(reply.split()) > 1 and reply.startswith("OK"):
            if int(reply.split()[1], 16) & 0xffff == BCM_VENDOR:
                cards.add((cfg_addr >> 8) & 0xffff)
    return sorted(cards)


def convert(cmds, ram, fuzz_devs, reads, log_unknown=False):
    """qtest commands -> [Op]; RAM writes go into @ram's timeline.

    fuzz_devs: devfn -> (pci index, region index) of the fuzz config; the
    qtest's cards map onto the config's in devfn order (the first card of
    the qtest is the config's first card, and so on)."""
    ops = []
    cfg_addr = 0
    bars = {}                       # devfn -> [lo, hi]
    cards = find_cards(cmds)
    mapped = dict(zip(cards, [fuzz_devs[d] for d in sorted(fuzz_devs)]))
    for d in cards[len(fuzz_devs):]:
        log("  the qtest's card at devfn %x has no counterpart in the "
            "config: its commands are left out" % d)
    layout = Layout(len(fuzz_devs))
    fuzz_devs = mapped
    dropped = {}
    last_read = None

    def mmio_write(devfn, off, size, val):
        return op_write(*layout.region(fuzz_devs[devfn][1], off), size, val)

    def mmio_read(devfn, off, size):
        return op_read(*layout.region(fuzz_devs[devfn][1], off), size)

    def drop(why):
        dropped[why] = dropped.get(why, 0) + 1

    def bar_of(addr):
        for devfn in cards:
            lo, hi = bars.get(devfn, [0, 0])
            if lo in (0, 0xffffffff):
                continue
            base = (hi << 32) | (lo & ~0xf)
            if base <= addr < base + BAR0_SIZE:
                return devfn, addr - base
        return None, None

    for t, cmd, args, reply in cmds:
        if cmd in ("outb", "outw", "outl"):
            port, val = int(args[0], 16), int(args[1], 16)
            if port == 0xcf8 and cmd == "outl":
                cfg_addr = val
                continue
            if 0xcfc <= port <= 0xcff and cfg_addr & 0x80000000:
                devfn = (cfg_addr >> 8) & 0xffff    # bus << 8 | devfn
                off = (cfg_addr & 0xfc) | (port - 0xcfc) \
                    if port != 0xcfc else cfg_addr & 0xff
                sz = cmd[-1]
                if 0x10 <= off < 0x28:
                    b = bars.setdefault(devfn, [0, 0])
                    if sz == "l" and off == 0x10:
                        b[0] = val
                    elif sz == "l" and off == 0x14:
                        b[1] = val
                    continue            # generic-fuzz maps the BARs
                if devfn not in cards or devfn not in fuzz_devs:
                    drop("config write to another device")
                    continue
                if off in (0x04, 0x30):
                    continue            # COMMAND: generic-fuzz enables it
                if off & ~3 in WIN_REGS or (off + {"b": 1, "w": 2, "l": 4}[sz]
                                            - 1) & ~3 in WIN_REGS:
                    layout.config_write(fuzz_devs[devfn][1], off, sz, val)
                ops.append(Op("pci", op_pci_write(fuzz_devs[devfn][0], off,
                                                  sz, val), 2, t,
                              "cfg %02x %s" % (off, hex(val))))
                last_read = None
                continue
            drop("port write")
            continue
        if cmd in ("inb", "inw", "inl"):
            continue                    # config reads: no side effects
        if cmd[:-1] in ("write", "read") and cmd[-1] in SIZES:
            addr = int(args[0], 16)
            devfn, off = bar_of(addr)
            if cmd.startswith("write"):
                val = int(args[1], 16)
                if devfn is None:
                    n = {"b": 1, "w": 2, "l": 4, "q": 8}[cmd[-1]]
                    ram.write(t, addr, val.to_bytes(n, "little"))
                    continue
                if devfn not in fuzz_devs:
                    drop("MMIO to a card the config lacks")
                    continue
                ops.append(Op("mmio", mmio_write(devfn, off, cmd[-1], val), 1, t,
                              "%s %03x %s" % (cmd, off, hex(val))))
                last_read = None
            else:
                if devfn is None:
                    continue            # the qtest reading RAM
                if devfn not in fuzz_devs:
                    drop("MMIO to a card the config lacks")
                    continue
                if reads == "none":
                    continue
                raw = mmio_read(devfn, off, cmd[-1])
                if reads == "dedup" and raw == last_read:
                    continue
                last_read = raw
                ops.append(Op("mmio", raw, 1, t, "%s %03x" % (cmd, off)))
            continue
        if cmd in ("write", "b64write", "read", "b64read"):
            # qtest_memwrite/memread: guest RAM, or (libqos' qpci_io_*
            # use them) MMIO
            addr, n = int(args[0], 16), int(args[1], 16)
            devfn, off = bar_of(addr)
            if cmd.endswith("write"):
                data = hexbytes(args[2]) if cmd == "write" else \
                    base64.b64decode(args[2])
                data = data[:n].ljust(n, b"\0")
                if devfn is None:
                    ram.write(t, addr, data)
                    continue
            elif devfn is None:
                continue                # the qtest reading RAM
            if devfn not in fuzz_devs:
                drop("MMIO to a card the config lacks")
                continue
            # the accesses the memory core makes of it (BAR0: 1-4 bytes)
            k = 0
            while k < n:
                step = 4 if (off + k) % 4 == 0 and n - k >= 4 else \
                    2 if (off + k) % 2 == 0 and n - k >= 2 else 1
                sz = {1: "b", 2: "w", 4: "l"}[step]
                if cmd.endswith("write"):
                    val = int.from_bytes(data[k:k + step], "little")
                    ops.append(Op("mmio", mmio_write(devfn, off + k, sz,
                                                     val), 1, t,
                                  "write%s %03x %s" % (sz, off + k,
                                                       hex(val))))
                    last_read = None
                elif reads != "none":
                    raw = mmio_read(devfn, off + k, sz)
                    if not (reads == "dedup" and raw == last_read):
                        ops.append(Op("mmio", raw, 1, t,
                                      "read%s %03x" % (sz, off + k)))
                    last_read = raw
                k += step
            continue
        if cmd == "memset":
            ram.write(t, int(args[0], 16),
                      bytes([int(args[2], 16)]) * int(args[1], 16))
            continue
        if cmd == "clock_step":
            ops.append(Op("clock", bytes([OP_CLOCK_STEP]), 1, t,
                          "clock_step %s" % (args[0] if args else "")))
            last_read = None
            continue
        if cmd in ("endianness", "irq_intercept_in",
                   "irq_intercept_out", "clock_set"):
            continue
        drop("qtest command " + cmd)
    if log_unknown:
        for k, v in sorted(dropped.items()):
            log("  dropped %d x %s" % (v, k))
    return ops


def compress(ops, max_repeat):
    """keep at most @max_repeat consecutive repeats of a block of 1-4 ops
    (polling loops: a read, or a clock step and a read, again and again)"""
    if max_repeat <= 0:
        return ops
    for blen in (1, 2, 3, 4):
        res, i = [], 0
        while i < len(ops):
            blk = [o.key() for o in ops[i:i + blen]]
            if len(blk) == blen:
                j, n = i + blen, 1
                while [o.key() for o in ops[j:j + blen]] == blk:
                    j += blen
                    n += 1
                if n > 1:
                    res.extend(ops[i:i + blen * min(n, max_repeat)])
                    i = j
                    continue
            res.append(ops[i])
            i += 1
        ops = res
    return ops


# --------------------------------------------------------------------------
# running the fuzzer

def fuzz_env(target):
    env = dict(os.environ)
    env.update({"QTEST_LOG": "1", "FUZZ_SERIALIZE_QTEST": "1",
                "ASAN_OPTIONS": "detect_leaks=0:halt_on_error=1",
                "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"})
    return env


def run_fuzzer(fuzzer, target, files):
    """run each file once; -> {file: [stderr lines of its run]}"""
    p = subprocess.run([fuzzer, "--fuzz-target=" + target, "-timeout=60",
                        "-rss_limit_mb=4096"] + files,
                       env=fuzz_env(target), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, errors="replace")
    per, cur = {}, None
    for line in p.stderr.splitlines():
        line = S_PREFIX.sub("", line)
        if line.startswith("Running: "):
            cur = line[len("Running: "):].strip()
            per[cur] = []
        elif line.startswith("Executed ") and cur:
            cur = None
        elif cur is not None:
            per[cur].append(line)
    missing = [f for f in files if f not in per]
    if missing:
        sys.stderr.write("\n".join(p.stderr.splitlines()[-40:]) + "\n")
        raise SystemExit("qtest-to-fuzz: fuzzer did not run %s (exit %d)" %
                         (missing[0], p.returncode))
    return per


def fuzz_events(lines):
    """the fuzzer's QTEST_LOG -> ("cmd", name, args) / ("dma", addr, len).

    In-process, replies are not logged ("[S +t] " and the next command
    share a line), and once the in-process qtest "chardev" is closed GLib
    warns about the log's timer between a "[DMA] " tag and its command."""
    dma = False
    for line in lines:
        line = S_PREFIX.sub("", line)
        if line.startswith("[DMA] "):
            line = line[len("[DMA] "):]
            if line.startswith("[DOUBLE-FETCH] "):
                line = line[len("[DOUBLE-FETCH] "):]
            dma = True
        m = R_LINE.match(line)
        if not m:
            continue
        cmd, args = m.group(1), m.group(2).split()
        if dma:
            dma = False
            if cmd == "write":
                yield ("dma", int(args[0], 16), int(args[1], 16))
            continue
        yield ("cmd", cmd, args)


def calibrate(fuzzer, target, tmp):
    """the fuzzer's own BAR mapping: devfn -> (pci index, region index),
    and how many qtest commands generic-fuzz logs before the input"""
    f = os.path.join(tmp, "calibrate")
    with open(f, "wb") as fp:
        fp.write(bytes([OP_CLEAR_DMA_PATTERNS]))
    lines = run_fuzzer(fuzzer, target, [f])[f]
    order, bars, cfg, prefix = [], {}, 0, 0
    for kind, cmd, args in fuzz_events(lines):
        if kind != "cmd":
            continue
        prefix += 1
        if cmd == "outl" and int(args[0], 16) == 0xcf8:
            cfg = int(args[1], 16)
            devfn = (cfg >> 8) & 0xffff
            if devfn not in order:
                order.append(devfn)
        elif cmd == "outl" and int(args[0], 16) == 0xcfc:
            devfn, off, val = (cfg >> 8) & 0xffff, cfg & 0xff, \
                int(args[1], 16)
            if off in (0x10, 0x14) and val != 0xffffffff:
                b = bars.setdefault(devfn, [0, 0])
                b[off == 0x14] = val
    bases = sorted(((hi << 32) | (lo & ~0xf), d)
                   for d, (lo, hi) in bars.items())
    devs = {d: (order.index(d), rank) for rank, (_, d) in enumerate(bases)}
    return devs, prefix


class Job:
    def __init__(self, name, ops, ram, prefix_lines, max_len):
        self.name, self.ops, self.ram = name, ops, ram
        self.fills = [[] for _ in ops]      # per op: [(addr, len)]
        self.done = False
        self.prefix_lines = prefix_lines
        self.cut = len(ops)                 # ops kept (size budget)
        size = 0
        for i, op in enumerate(ops):        # without DMA patterns even
            size += len(op.raw) + len(SEP)
            if size > max_len + len(SEP):
                self.cut = i
                break
        self.runs = 0
        self.partial = False                # last op: not all DMA reads
        self.bad = []                       # fills that cannot be encoded

    def pattern(self, i, addr, n):
        data = self.ram.read(self.ops[i].t, addr, n)
        for old, new in SUBST:
            data = data.replace(old, new)
        return data

    def build(self, probe, upto=None):
        # a discovery input starts with a marker: a config read of byte 0xff
        # (no side effect), where the fuzzer's log of the input begins
        cmds = [MARKER] if probe else []
        upto = self.cut if upto is None else upto
        for i, op in enumerate(self.ops[:upto]):
            pats = [self.pattern(i, a, n) for a, n in self.fills[i]]
            if probe:
                pats.append(PROBE)
            if pats:
                cmds.append(bytes([OP_CLEAR_DMA_PATTERNS]))
                cmds.extend(op_pattern(p) for p in pats)
            cmds.append(op.raw)
        return encode(cmds)

    def size_upto(self, i):
        return len(self.build(False, i + 1))

    def update(self, lines, max_len):
        """learn from one run; -> True when the job is complete"""
        per_op = [[] for _ in self.ops]
        # the k-th qtest command generic-fuzz logs after the marker (its
        # outl 0xcf8 and inb 0xcfc) belongs to op owner[k]
        owner = [-1, -1]
        for j, op in enumerate(self.ops[:self.cut]):
            owner.extend([j] * op.lines)
        seen, cur = None, -1
        for kind, a, b in fuzz_events(lines):
            if kind == "cmd" and a == "outl" and int(b[0], 16) == 0xcf8 and \
                    int(b[1], 16) & 0xff == 0xff:
                if seen is not None:
                    break               # the input again: ignore
                seen = 0
            if seen is None:
                continue
            if kind == "dma":
                if cur >= 0:
                    per_op[cur].append((a, b))
                continue
            cur = owner[seen] if seen < len(owner) else -1
            seen += 1
        if seen is None:
            raise SystemExit("qtest-to-fuzz: %s: the fuzzer's log lacks the "
                             "input's marker" % self.name)
        for i in range(self.cut):
            known, obs = self.fills[i], per_op[i]
            for j, (a, n) in enumerate(known):
                if j >= len(obs) or obs[j] != (a, n):
                    log("%s: op %d: DMA reads differ from the last run "
                        "(nondeterministic?): keeping the new ones" %
                        (self.name, i))
                    self.fills[i] = obs[:j + 1] if j < len(obs) else obs
                    return False
            if len(obs) > len(known):
                self.fills[i].append(obs[len(known)])
                if self.size_upto(i) > max_len:
                    # the seed ends with this command and the DMA reads
                    # that fit: the rest of them get the patterns again
                    self.fills[i].pop()
                    self.cut = i + 1 if self.fills[i] else i
                    self.partial = bool(self.fills[i])
                    return True
                return False
            if self.size_upto(i) > max_len:
                self.cut = i
                return True
        return True


def discover(fuzzer, target, jobs, tmp, max_len, max_runs):
    runs = 0
    while True:
        todo = [j for j in jobs if not j.done]
        if not todo or runs >= max_runs:
            break
        files = []
        for k, j in enumerate(todo):
            f = os.path.join(tmp, "probe-%d" % k)
            with open(f, "wb") as fp:
                fp.write(j.build(True))
            files.append(f)
        per = run_fuzzer(fuzzer, target, files)
        runs += 1
        for f, j in zip(files, todo):
            j.runs += 1
            j.done = j.update(per[f], max_len)
        nfill = sum(len(x) for j in todo for x in j.fills)
        log("run %d: %d seed(s) in discovery, %d DMA read(s) known" %
            (runs, len(todo), nfill))
    for j in jobs:
        if not j.done:
            log("%s: stopped after %d runs with DMA reads still unknown" %
                (j.name, max_runs))


def check_encodable(job):
    data = job.build(False)
    cmds = data.split(SEP)
    ok = True
    for i, op in enumerate(job.ops[:job.cut]):
        if SEP in op.raw:
            ok = False
        for a, n in job.fills[i]:
            if SEP in job.pattern(i, a, n):
                log("%s: op %d: DMA pattern at 0x%x contains the separator: "
                    "the seed loses that read" % (job.name, i, a))
                ok = False
    return ok, len(cmds)


# --------------------------------------------------------------------------
# checking a seed: the device's trace events, qtest against seed

EVENTS = ["bcm4331_fw_boot", "bcm4331_phy_tune", "bcm4331_tx",
          "bcm4331_txstat", "bcm4331_rx", "bcm4331_rx_drop",
          "bcm4331_dma_error", "bcm4331_dma_ub_*", "bcm4331_key_*"]
EV_LINE = re.compile(r"^(?:\d+@[0-9.]+:)?(bcm4331_\w+) (.*)$")


def config_args(name):
    """the .args and .objects of a generic-fuzz config in
    bcm4331_fuzz_configs.h (the objects decide which PCI devices the fuzzer
    maps: the replay must match the same ones)"""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = open(os.path.join(top, "tests/qtest/fuzz/bcm4331_fuzz_configs.h"))
    for m in re.finditer(r'\.name\s*=\s*"([^"]+)",\s*\.args\s*=\s*'
                         r'((?:"[^"]*"\s*)+),\s*\.objects\s*=\s*"([^"]*)"',
                         src.read()):
        if m.group(1) == name:
            return ("".join(re.findall(r'"([^"]*)"', m.group(2))),
                    m.group(3))
    return None, None


def events(text):
    return [m.group(1) + " " + m.group(2) for m in
            (EV_LINE.match(line) for line in text.splitlines()) if m]


def verify(a, seeds, tmp):
    """replay each seed with the device's trace events on, compare with the
    events of the qtest: how much of what the qtest made the card do the
    seed makes it do"""
    args, objects = config_args(a.config)
    if not args or not a.run_qtest:
        log("verify: needs --run-qtest and a config of "
            "bcm4331_fuzz_configs.h")
        return
    evf = os.path.join(tmp, "events")
    with open(evf, "w") as f:
        f.write("\n".join(EVENTS) + "\n")
    binary, _, path = a.run_qtest.partition(":")
    env = dict(os.environ)
    env["QTEST_TRACE"] = "events=" + evf
    env.pop("QTEST_LOG", None)
    if a.qemu:
        env["QTEST_QEMU_BINARY"] = a.qemu
    r = subprocess.run([binary, "-p", path], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, errors="replace")
    want = events(r.stdout)
    env = fuzz_env("generic-fuzz")
    env.pop("QTEST_LOG")
    env.pop("FUZZ_SERIALIZE_QTEST")
    env.update({"QEMU_FUZZ_ARGS": args + " -trace events=" + evf,
                "QEMU_FUZZ_OBJECTS": objects,
                "QEMU_AVOID_DOUBLE_FETCH": "1"})
    for seed in seeds:
        r = subprocess.run([a.fuzzer, "--fuzz-target=generic-fuzz", seed],
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, errors="replace")
        got = events(r.stdout)
        same = 0
        while same < min(len(got), len(want)) and got[same] == want[same]:
            same += 1
        rest = [e for e in got[same:]]
        more = sum(1 for e in want[same:] if e in rest and not
                   rest.remove(e))
        log("verify %s: %d of the qtest's %d device events in order, %d "
            "more out of order; the seed's replay has %d" %
            (os.path.basename(seed), same, len(want), more, len(got)))
        if same < len(got) and same < len(want):
            log("  first difference: qtest '%s', seed '%s'" %
                (want[same], got[same]))


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuzzer", required=True, help="qemu-fuzz-x86_64")
    ap.add_argument("--config", required=True,
                    help="generic-fuzz config, e.g. bcm4331-ap")
    ap.add_argument("--log", help="QTEST_LOG=1 stderr of the qtest")
    ap.add_argument("--run-qtest", metavar="BINARY:PATH",
                    help="run this qtest case (QTEST_QEMU_BINARY from the "
                    "environment or --qemu) and use its log")
    ap.add_argument("--qemu", help="QTEST_QEMU_BINARY for --run-qtest")
    ap.add_argument("--session", type=int, default=0,
                    help="which QEMU of the log (default the first)")
    ap.add_argument("--name", required=True, help="seed file name prefix")
    ap.add_argument("--out", required=True, help="directory for the seeds")
    ap.add_argument("--max-len", type=int, default=8192)
    ap.add_argument("--split", action="store_true",
                    help="the trace beyond --max-len into more seeds, each "
                    "after the setup")
    ap.add_argument("--max-seeds", type=int, default=6)
    ap.add_argument("--reads", choices=("all", "dedup", "none"),
                    default="dedup", help="MMIO reads of the qtest: all, "
                    "consecutive duplicates dropped (default), none")
    ap.add_argument("--max-repeat", type=int, default=2,
                    help="repeated blocks of commands (polling) kept at most "
                    "this often (0: all)")
    ap.add_argument("--max-runs", type=int, default=400)
    ap.add_argument("--subst", action="append", default=[],
                    metavar="HEX=HEX", help="replace these bytes in what the "
                    "device reads (e.g. the BSSID of the qtest's AP by the "
                    "config's: 02aa00000003=02aa00000001)")
    ap.add_argument("--verify", action="store_true",
                    help="compare the card's trace events of each seed's "
                    "replay with the qtest's (with --run-qtest)")
    a = ap.parse_args()
    for sub in a.subst:
        old, _, new = sub.partition("=")
        if len(old) != len(new) or not old:
            ap.error("--subst OLD=NEW: hex strings of the same length")
        SUBST.append((bytes.fromhex(old), bytes.fromhex(new)))

    tmp = tempfile.mkdtemp(prefix="qtest-to-fuzz-")
    logfile = a.log
    if a.run_qtest:
        binary, _, path = a.run_qtest.partition(":")
        env = dict(os.environ)
        env["QTEST_LOG"] = "1"
        qemu = a.qemu or env.get("QTEST_QEMU_BINARY")
        if not qemu:
            ap.error("--run-qtest needs --qemu or QTEST_QEMU_BINARY")
        env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
        logfile = logfile or os.path.join(tmp, "qtest.log")
        open(logfile, "w").close()
        # QEMU writes the qtest log to its stderr through a buffered FILE;
        # libqtest logs QMP to the test's stderr: give QEMU a stderr of its
        # own so that the two never interleave mid-line
        # (libqtest takes the target from the binary's name)
        # QEMU opens the log as -qtest-log /dev/fd/2, a new open of the
        # file that truncates it: each QEMU of the test gets a file of its
        # own (numbered in start order), joined after the test
        os.makedirs(os.path.join(tmp, "bin"), exist_ok=True)
        wrapper = os.path.join(tmp, "bin", os.path.basename(qemu))
        with open(wrapper, "w") as w:
            w.write('#!/bin/sh\n'
                    'n=$(cat "%s.n" 2>/dev/null || echo 0)\n'
                    'echo $((n + 1)) >"%s.n"\n'
                    'exec "%s" "$@" 2>"%s.$(printf %%04d "$n")"\n' %
                    (logfile, logfile, os.path.abspath(qemu), logfile))
        os.chmod(wrapper, 0o755)
        env["QTEST_QEMU_BINARY"] = wrapper
        cmd = [binary] + (["-p", path] if path else [])
        r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        if r.returncode:
            log("warning: %s exited with %d" % (a.run_qtest, r.returncode))
        with open(logfile, "w") as out:
            for part in sorted(glob.glob(glob.escape(logfile) + ".[0-9]*")):
                with open(part, errors="replace") as f:
                    out.write(f.read())
                os.unlink(part)
        if os.path.exists(logfile + ".n"):
            os.unlink(logfile + ".n")
    if not logfile:
        ap.error("--log or --run-qtest")

    ss = sessions(logfile)
    if a.session >= len(ss):
        raise SystemExit("qtest-to-fuzz: %s has %d QEMU session(s)" %
                         (logfile, len(ss)))
    target = "generic-fuzz-" + a.config
    devs, prefix = calibrate(a.fuzzer, target, tmp)
    log("%s: cards at devfn %s (pci index, region) = %s; %d setup commands" %
        (target, ", ".join("%x" % d for d in devs), list(devs.values()),
         prefix))
    cmds, ram = parse_session(ss[a.session])
    ops = convert(cmds, ram, devs, a.reads, log_unknown=True)
    n0 = len(ops)
    ops = compress(ops, a.max_repeat)
    log("%s: %d qtest commands -> %d fuzz commands (%d after compressing "
        "repeats), %d RAM writes" % (a.name, len(cmds), n0, len(ops),
                                     len(ram.writes)))

    os.makedirs(a.out, exist_ok=True)
    start, setup, seeds, written = 0, None, 0, []
    while start < len(ops) and seeds < a.max_seeds:
        part = ops[start:] if setup is None else setup + ops[start:]
        job = Job("%s-%d" % (a.name, seeds), part, ram, prefix, a.max_len)
        discover(a.fuzzer, target, [job], tmp, a.max_len, a.max_runs)
        ok, ncmd = check_encodable(job)
        data = job.build(False)
        if setup is None:
            first = next((i for i, f in enumerate(job.fills) if f), job.cut)
            setup = ops[:first]
        out = os.path.join(a.out, job.name)
        nf = sum(len(f) for f in job.fills[:job.cut])
        if start and not any(job.fills[len(setup):job.cut]):
            log("%s: no DMA beyond the setup, not written" % job.name)
        else:
            with open(out, "wb") as fp:
                fp.write(data)
            written.append(out)
        log("%s: %d bytes, %d commands, %d DMA patterns, %d fuzzer runs%s%s" %
            (out, len(data), job.cut, nf, job.runs,
             " (the last command's DMA reads cut)" if job.partial else "",
             "" if ok else " (with unencodable parts)"))
        seeds += 1
        used = job.cut - (0 if start == 0 else len(setup))
        if not a.split:
            break
        start += max(used, 1)       # (a command too big even alone: skip)
    if a.verify:
        verify(a, written, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
