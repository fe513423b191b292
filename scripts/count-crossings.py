#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Count the file crossings of one frame, call by call (docs/architecture.md).

Runs the qtest /bcm43xx/bcm4331/air/ap-bridge (a card associated with a wifi-ap
whose netdev is the test: one data frame from the card to the network, one
from the network to the card, airtime off, no pcap) with its QEMU under gdb.
gdb stops at the entry of every function of our C files (hw/net/bcm43xx/,
hw/net/wifi/, net/wifi/; static inline functions of headers are QEMU-style
helpers and not counted) and notes the file of its caller.  A crossing is a
call from one of our .c files into another of our .c files.  A call from
QEMU's code into ours (an MMIO access, a timer, the net layer) starts an
episode.  A tail call leaves no frame behind: a function entered with the
return address of another function entered before it in the episode is
taken to be called by that one (the interrupt chain MAC -> qemu_set_irq ->
PCI glue is such a chain).

The frame's two paths are made of episodes:
  TX  the write of engine 1's TXINDEX that sends the data frame, the
      deferred work that follows (the AP's reception and its bridge to the
      netdev) and the driver's reads of XMITSTAT_0/1;
  RX  the AP's netdev handing it the Ethernet frame, the deferred work that
      delivers the 802.11 frame to the card (its RX DMA and interrupt).
Other register accesses of the test (interrupt polls) are not the frame's.

  scripts/count-crossings.py [--build build/qemu] [--qemu BINARY] [-v]
"""

import argparse
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = ("hw/net/bcm43xx/", "hw/net/wifi/", "net/wifi/")
TXINDEX1 = 0x200 + 0x40 * 1 + 0x04      # D11_DMA_ENGINE(1) + DMA64_TXINDEX
XMITSTAT = (0x170, 0x174)               # D11_XMITSTAT_0, _1

GDB_SCRIPT = r'''
import gdb, os, re
OURS = %r
LOG = %r
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("handle SIGUSR1 SIGUSR2 SIGPIPE SIGCHLD nostop noprint pass")

def ours(path):
    for d in OURS:
        i = path.find("/" + d)
        if i >= 0 and path.endswith(".c"):
            return path[i + 1:]
    return None

out = open(LOG, "w")
last = [None]

def where(frame):
    try:
        sal = frame.find_sal()
        if sal.symtab is None:
            return None
        return ours(sal.symtab.fullname())
    except gdb.error:
        return None

class Entry(gdb.Breakpoint):
    def __init__(self, spec, fn, path):
        super().__init__(spec, internal=True)
        self.fn, self.path = fn, path

    def stop(self):
        f = gdb.newest_frame()
        # (the function at this address: one line can hold several, the
        # accessors a macro defines)
        fn = f.name() or self.fn
        caller = f.older()
        # a line can also have two locations in one function (the
        # compiler's layout): a second hit of the same call, not a call
        me = (fn, caller.pc() if caller is not None else 0)
        if last[0] is not None and last[0][0] == me and last[0][1] != f.pc():
            return False
        last[0] = (me, f.pc())
        cfile = where(caller) if caller is not None else None
        cfn = caller.name() if caller is not None else None
        arg = ""
        if cfile is None:
            for name in ("addr", "off"):
                try:
                    arg = "%%s=0x%%x" %% (name, int(f.read_var(name)))
                    break
                except (ValueError, gdb.error):
                    pass
        out.write("%%s\t%%s\t%%s\t%%s\t%%s\t%%x\n" %% (
            fn, self.path, cfn or "?", cfile or "-", arg, me[1]))
        return False

text = gdb.execute("info functions -n .", to_string=True)
cur = None
specs = []
for line in text.splitlines():
    if line.startswith("File "):
        cur = ours(line[5:].rstrip(":"))
        continue
    if cur is None:
        continue
    m = re.match(r"\s*(\d+):\s*(.*?)\b(\w+)\(", line)
    if m:
        specs.append((cur, m.group(3), int(m.group(1))))
# one breakpoint a line; a line that starts several functions (the
# accessors a macro defines) gets one a function
per_line = {}
for path, fn, lineno in specs:
    per_line.setdefault((path, lineno), []).append(fn)
for (path, lineno), fns in per_line.items():
    base = os.path.basename(path)
    if len(fns) == 1:
        Entry("%%s:%%d" %% (base, lineno), fns[0], path)
    else:
        for fn in fns:
            Entry("%%s:%%s" %% (base, fn), fn, path)
gdb.execute("run")
out.close()
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build", "qemu"),
                    help="the QEMU build with the qtest (default build/qemu)")
    ap.add_argument("--qemu", help="another QEMU binary to count in (an "
                    "older tree's: the qtest speaks only to the device)")
    ap.add_argument("-v", action="store_true", help="list every crossing")
    ap.add_argument("--episodes", action="store_true",
                    help="list every episode of the test instead")
    args = ap.parse_args()
    qemu = args.qemu or os.path.join(args.build, "qemu-system-x86_64")
    test = os.path.join(args.build, "tests", "qtest", "bcm4331-ap-test")
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "calls.tsv")
        gs = os.path.join(d, "trace.py")
        with open(gs, "w") as f:
            f.write(GDB_SCRIPT % (OURS, log))
        wrap = os.path.join(d, "qemu-system-x86_64")  # libqtest: the arch
        with open(wrap, "w") as f:
            f.write('#!/bin/sh\nexec gdb -q -batch -nx -x %s --args %s "$@" '
                    '>%s/gdb.out 2>&1\n' % (gs, qemu, d))
        os.chmod(wrap, 0o755)
        env = dict(os.environ, QTEST_QEMU_BINARY=wrap)
        p = subprocess.run([test, "--tap", "-k", "-p",
                            "/x86_64/bcm43xx/bcm4331/air/ap-bridge"],
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=3600)
        if "ok 1 " not in p.stdout or not os.path.exists(log):
            sys.stdout.write(p.stdout)
            with open(os.path.join(d, "gdb.out")) as f:
                sys.stdout.write(f.read()[-3000:])
            sys.exit("count-crossings: the qtest did not pass under gdb")
        rows = [line.rstrip("\n").split("\t") for line in open(log)]
    if args.episodes:
        for i, e in enumerate(episodes(rows)):
            print("%d %s (%s) %s: %d calls, %d crossings"
                  % (i, e["entry"], e["file"], e["arg"], len(e["calls"]),
                     len(crossings(e))))
        return
    report(rows, args.v)


def episodes(rows):
    """the calls grouped by their entry from QEMU's code"""
    eps = []
    by_ret = {}
    for fn, path, cfn, cfile, arg, cpc in rows:
        # a tail call leaves no frame: a function entered with the return
        # address of another one entered before it in the episode was
        # called by that one (d11_air_receive() ends in a call of
        # d11_core_release(); an interrupt runs MAC -> qemu_set_irq -> PCI
        # glue)
        prev = by_ret.get(cpc)
        if prev and prev[1] != fn:
            cfile, cfn = prev
        if cfile == "-":
            eps.append({"entry": fn, "file": path, "arg": arg, "calls": []})
            by_ret = {}
        elif eps:
            eps[-1]["calls"].append((cfile, cfn, path, fn))
        by_ret[cpc] = (path, fn)
    return eps


def crossings(ep):
    return [c for c in ep["calls"] if c[0] != c[2]]


def argval(ep):
    a = ep["arg"]
    return int(a.split("=")[1], 16) if "=" in a else None


def mmio(ep):
    return argval(ep) is not None and ep["entry"].endswith(("_read",
                                                             "_write"))


def report(rows, verbose):
    eps = episodes(rows)
    tx0 = max(i for i, e in enumerate(eps)
              if e["entry"].endswith("_write") and argval(e) == TXINDEX1)
    net = min(i for i, e in enumerate(eps)
              if i > tx0 and e["file"].startswith("hw/net/wifi/ap")
              and not mmio(e) and "receive" in e["entry"]
              and e["entry"] != "wifi_ap_client_receive")
    tx = [e for e in eps[tx0:net]
          if not mmio(e) or e is eps[tx0] or
          (e["entry"].endswith("_read") and argval(e) in XMITSTAT)]
    rx = [e for e in eps[net:] if not mmio(e)]
    for name, path in (("TX", tx), ("RX", rx)):
        files = set()
        n = 0
        print("%s: %d episodes" % (name, len(path)))
        for e in path:
            cr = crossings(e)
            n += len(cr)
            files.add(e["file"])
            files.update(c[0] for c in e["calls"])
            files.update(c[2] for c in e["calls"])
            print("  from QEMU: %s (%s) %s: %d crossings"
                  % (e["entry"], e["file"], e["arg"], len(cr)))
            if verbose:
                for cf, cfn, f, fn in cr:
                    print("      %s %s() -> %s %s()" % (cf, cfn, f, fn))
        print("%s: %d file crossings, %d files visited" % (name, n,
                                                            len(files)))


if __name__ == "__main__":
    main()
