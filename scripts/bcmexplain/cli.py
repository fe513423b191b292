# SPDX-License-Identifier: GPL-2.0-or-later
"""Explain a run of the BCM4331 model: what the driver said to the card.

Reads the trace of a run (QEMU's -trace 'bcm4331_*' and friends) and prints
a transcript a student can follow: the accesses grouped into the steps the
guest took (its marker lines, seen in the same trace through the serial
port's trace event) and, inside a step, into phases (PCI probe, bcma
enumeration, SPROM, core reset, firmware upload, PSM start, PHY and radio
init, channel switch, scan, association, key install, data frames,
interrupts), each register named with its block, each value decoded into
its fields, repeated accesses collapsed, and for each phase the kernel
function that does it, with its source file.

The register and field names come from the device's own definitions
(hw/net/bcm43xx/*.h: REG32/FIELD, parsed here, not copied) and, for
the PCI configuration header, from QEMU's pci_regs.h.

    scripts/explain.py --run [--kernel 6.12] [--card PROPS] [--pcap FILE]
                       [--html FILE] [--keep DIR]
    scripts/explain.py TRACE [--html FILE]

    --stage NAME[,NAME]  only these steps (probe, up, scan, connect, dhcp,
                         ping, boot); --phase KEY[,KEY] only these phases
                         (--list-phases); --full: every line of a phase
                         (default: the first --lines of each)

A trace to read needs at least -trace 'bcm4331_*'; with -trace serial_write
the guest's marker lines ("@@ <step>: <command>") cut it into steps, with
-trace 'pci_cfg_*' the PCI configuration accesses appear, with -trace
'wifi_*' the air's and the access point's events.
"""

import argparse
import os
import signal
import subprocess
import sys

from . import Explainer
from .headers import TOP
from .phases import PHASES
from .render import Transcript
from .trace import TRACE_EVENTS


def prepare(kernel):
    """What a run needs, as scripts/run.sh makes it: QEMU with the device
    (built when missing), the firmware stubs and the guest image (both
    rebuilt only when an input changed)"""
    sys.path.insert(0, os.path.join(TOP, "tests", "guest"))
    from harness import qemu_binary
    out = sys.stderr
    if not os.path.exists(qemu_binary()):
        subprocess.run([os.path.join(TOP, "scripts", "deps.sh")], check=True,
                       stdout=out)
        subprocess.run([os.path.join(TOP, "scripts", "build-qemu.sh")],
                       check=True, stdout=out,
                       env=dict(os.environ, BCM_SKIP_DEPS="1"))
    for cmd in (["firmware-stubs/gen-stubs.py"],
                ["scripts/build-guest.py", "--kernel", kernel]):
        subprocess.run(["/usr/bin/python3", os.path.join(TOP, cmd[0])] +
                       cmd[1:], check=True, stdout=out)


def run_guest(args):
    """Boot a guest that runs tests/guest/scenarios/explain.sh with the
    card on an air with a WPA2 access point; returns (trace path, result)"""
    prepare(args.kernel)
    from harness import Guest, log_dir
    d = args.keep or log_dir()
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "explain.trace")
    if os.path.exists(trace):
        os.unlink(trace)
    card = "bcm4331,addr=04.0,id=wifi0,medium=air0"
    if args.card:
        card += "," + args.card
    air = "wifi-medium,id=air0"
    if args.pcap:
        air += ",pcap=%s" % os.path.abspath(args.pcap)
    qa = ["-object", air, "-netdev", "user,id=n0",
          "-device", "wifi-ap,medium=air0,ssid=QEMU,channel=6,"
          "passphrase=qemu-course,netdev=n0", "-device", card]
    for ev in TRACE_EVENTS:
        qa += ["-trace", ev]
    qa += ["-D", trace]
    with open(os.path.join(TOP, "tests/guest/scenarios/explain.sh")) as f:
        scen = f.read()
    old = os.environ.get("BCM_LOG_DIR")
    os.environ["BCM_LOG_DIR"] = d
    try:
        g = Guest("explain", scen, qa, kernel=args.kernel,
                  append="bcm4331.coldplug=0", timeout=args.timeout)
        res = g.run()
    finally:
        if old is None:
            os.environ.pop("BCM_LOG_DIR", None)
        else:
            os.environ["BCM_LOG_DIR"] = old
    return trace, res


def parser():
    ap = argparse.ArgumentParser(
        description="Explain what the driver said to the BCM4331 model.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("trace", nargs="?", help="a trace file to explain")
    ap.add_argument("--run", action="store_true",
                    help="boot a guest (probe to DHCP) and explain its run")
    ap.add_argument("--kernel", default="6.12", help="guest kernel (--run)")
    ap.add_argument("--card", default="",
                    help="extra -device bcm4331 properties, e.g. "
                    "rx-cd-erratum=off (--run)")
    ap.add_argument("--pcap", help="write the air to this pcap (--run)")
    ap.add_argument("--keep", help="directory for the run's trace and "
                    "console log (--run; default build/test-logs)")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--stage", help="only these steps (comma-separated)")
    ap.add_argument("--phase", help="only these phases (comma-separated "
                    "keys, see --list-phases)")
    ap.add_argument("--list-phases", action="store_true")
    ap.add_argument("--full", action="store_true",
                    help="every line of each phase block")
    ap.add_argument("--lines", type=int, default=40,
                    help="lines shown per phase block without --full "
                    "(and past them the access point's events)")
    ap.add_argument("--html", help="also write the transcript as HTML here "
                    "(always complete, phases foldable)")
    ap.add_argument("--output", "-o", help="the text transcript to this "
                    "file instead of stdout")
    return ap


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)      # | head
    ap = parser()
    args = ap.parse_args()
    if args.list_phases:
        for k, (title, why, funcs) in PHASES.items():
            print("%-6s %-32s %s" % (k, title,
                                     ", ".join("%s() %s" % f for f in funcs)))
        return 0
    if args.run == bool(args.trace):
        ap.error("give a trace file or --run")
    only_phases = set(args.phase.split(",")) if args.phase else None
    if only_phases and not only_phases <= set(PHASES):
        ap.error("unknown phase(s) %s; --list-phases" %
                 ", ".join(sorted(only_phases - set(PHASES))))
    if args.run:
        trace, res = run_guest(args)
        if not res.ok:
            res.report()
            print("explain: the guest run failed; its trace: %s" % trace,
                  file=sys.stderr)
            return 1
        print("explain: guest run done (console %s, trace %s)" % (
            res.log, trace), file=sys.stderr)
    else:
        trace = args.trace
    return explain(trace, args, only_phases)


def explain(trace, args, only_phases):
    """print the transcript of @trace as @args ask"""
    ex = Explainer()
    with open(trace, errors="replace") as f:
        stages = ex.parse(f)
    ex.classify()
    if not any(st.accesses for st in stages):
        print("explain: no bcm4331 events in %s: record a trace with "
              "-trace 'bcm4331_*' (QEMU's log trace backend, -D FILE)" %
              trace, file=sys.stderr)
        return 1
    tr = Transcript(ex, stages,
                    set(args.stage.split(",")) if args.stage else None,
                    only_phases, args.full, args.lines)
    if args.html:
        full = Transcript(ex, stages, tr.only_stages, only_phases, True)
        with open(args.html, "w") as f:
            full.html(f, "BCM4331: what the driver said to the card")
    if args.output:
        with open(args.output, "w") as f:
            tr.text(f)
    else:
        tr.text(sys.stdout)
    return 0
