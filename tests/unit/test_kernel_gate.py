#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/kernel-gate.py's host side (TAP output), no guest:

the scenarios of the three guests are valid shell for busybox (sh -n) and
run each selected case once, pair cases on both sides in the same order;
the kernel log is sliced per case and a report in a case's stretch fails
that case (with its stack), not its neighbours, while the lines a real
card prints too pass; a case the guest never ended fails (or is an error
when never reached); KTAP nesting and counts; KCIDB v5.3's rules; the
KernelCI fragment (contrib/kernelci/) carries configs/kernel/gate.config's
options exactly.

    test_kernel_gate.py [--regen]   (--regen: rewrite the KernelCI
                                     fragment from gate.config)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytap import TOP, Tap, load_script  # noqa: E402

gate = load_script("kernel-gate.py", "kernel_gate")
tap = Tap()
CASES = [c for c, _, _ in gate.CASES]


class Res:
    """a guest result as harness.Result has it"""

    def __init__(self, text, dmesg="", timed_out=False):
        self.name, self.text, self.dmesg = "gate-x", text, dmesg
        self.timed_out, self.qemu_rc = timed_out, 0


def scenarios():
    sh = shutil.which("busybox")
    for g in ("A", "B", "E"):
        text = gate.scenario(g, CASES, 5261)
        with tempfile.NamedTemporaryFile("w", suffix=".sh") as f:
            f.write(text)
            f.flush()
            cmd = [sh, "sh", "-n", f.name] if sh else ["sh", "-n", f.name]
            r = subprocess.run(cmd, capture_output=True, text=True)
        tap(r.returncode == 0, "guest %s's scenario parses (%s)" %
            (g, r.stderr.strip()[:200]))
        runs = re.findall(r"^run_case (\S+)$", text, re.M)
        tap(len(runs) == len(set(runs)), "guest %s runs each case once" % g)
        funcs = set(re.findall(r"^(\w+)\(\) \{", text, re.M))
        tap(all(gate.func(c) in funcs for c in runs),
            "guest %s defines a function for each case it runs" % g)
        if g == "A":
            a_pairs = [c for c in runs if dict(
                (x, w) for x, w, _ in gate.CASES)[c] == "P"]
        if g == "B":
            b_pairs = [c for c in runs if dict(
                (x, w) for x, w, _ in gate.CASES)[c] == "P"]
    both = [c for c in b_pairs if c in a_pairs]
    tap(both == [c for c in a_pairs if c in b_pairs] and
        "b43.ap" in both and "brcmsmac.ap" in both,
        "A and B run their shared pair cases in the same order %s" % both)
    only = gate.scenario("A", ["b43.open"], 5261)
    tap(re.findall(r"^run_case (\S+)$", only, re.M) == ["b43.open"],
        "a case selected alone runs alone")


def slicing():
    dm = "\n".join([
        "[ 1.0] bcma-pci-bridge 0000:00:04.0: bus0: Found chip",
        "[ 2.0] gate: begin b43.probe",
        "[ 2.1] b43-phy0: Broadcom 4331 WLAN found (core revision 29)",
        "[ 2.2] b43-phy0 warning: 5 GHz band is unsupported on this PHY",
        "[ 2.3] gate: end b43.probe rc=0",
        "[ 3.0] gate: begin b43.scan",
        "[ 3.1] WARNING: CPU: 0 PID: 1 at net/mac80211/rx.c:100 x+0x1/0x2",
        "[ 3.2] Call Trace:",
        "[ 3.3]  <TASK>",
        "[ 3.4]  b43_dma_rx+0xab/0x320 [b43]",
        "[ 3.5] gate: end b43.scan rc=0",
        "[ 4.0] gate: begin b43.open",
        "[ 4.1] wlan0: authenticate with 02:42:00:00:0a:01",
        "[ 4.2] gate: end b43.open rc=0",
    ])
    res = Res("@@gate begin b43.probe\n@@gate end b43.probe 0\n"
              "@@gate begin b43.scan\n# the scan did not find both\n"
              "@@gate end b43.scan 1\n@@gate begin b43.open\n"
              "@@gate end b43.open 0\n@@gate begin b43.monitor\n", dm)
    cons = gate.console_cases(res)
    sl = gate.log_slices(res)
    out = {}
    for c in ("b43.probe", "b43.scan", "b43.open", "b43.monitor",
              "b43.reload"):
        o = gate.Outcome(c)
        gate.judge(c, res, cons, sl, o)
        out[c] = o
    tap(out["b43.probe"].status == "PASS", "the boot and the expected "
        "HT-PHY warning belong to the first case, which passes")
    tap(out["b43.scan"].status == "FAIL" and
        any("b43_dma_rx+0xab" in d for d in out["b43.scan"].diag) and
        any("the scan did not find both" in d for d in out["b43.scan"].diag),
        "a WARNING in a case's stretch fails it, with its stack and the "
        "scenario's own diagnosis: %s" % out["b43.scan"].diag[:4])
    tap(out["b43.open"].status == "PASS",
        "the case after a failed one is judged on its own stretch")
    tap(out["b43.monitor"].status == "FAIL" and
        "stopped during" in out["b43.monitor"].diag[0],
        "a case the guest never ended fails")
    tap(out["b43.reload"].status == "ERROR",
        "a case never reached is an error (not a pass)")
    for line, bad in (
            ("brcmsmac bcma0:1: brcms_ops_config: change power-save mode: "
             "false (implement)", False),
            ("brcmsmac: module verification failed: signature and/or "
             "required key missing - tainting kernel", False),
            ("b43-phy0 ERROR: PHY transmission error", True),
            ("BUG: KASAN: slab-out-of-bounds in b43_rx+0x10/0x20", True),
            ("UBSAN: array-index-out-of-bounds in brcmsmac/main.c:10", True),
            ("INFO: task kworker/0:1:12 blocked for more than 120 seconds.",
             True),
            ("wlan0: association with 02:42:00:00:0b:02 timed out", True),
            ("wlan0: associated", False)):
        got = bool(gate.kernel_log_problems(["[ 5.0] " + line]))
        tap(got == bad, "kernel log line %s: %r" % (
            "fails" if bad else "passes", line[:60]))


def ktap_and_kcidb():
    outs = []
    for c, st in (("bcma.enum-bcm4331", "PASS"), ("b43.probe", "PASS"),
                  ("b43.open", "FAIL"), ("brcmsmac.mesh", "SKIP")):
        o = gate.Outcome(c)
        o.status = st
        o.diag = ["why"] if st != "PASS" else []
        outs.append(o)
    k = gate.ktap(outs)
    tap(k.startswith("KTAP version 1\n1..3\n") and
        "    # Subtest: b43\n    1..2\n" in k and
        "    not ok 2 open" in k and "not ok 2 b43" in k and
        "    ok 1 mesh # SKIP why" in k and "ok 3 brcmsmac" in k,
        "KTAP: a suite per driver, nested cases, SKIP, failed suite")
    kern = gate.Kernel("/x", "6.12.0-test", "bzImage")
    d = gate.kcidb(kern, outs, "bcm4331qemu", "2026-12-07T00:00:00+00:00",
                   "/tmp/out", None, {"b43.open": "A"})
    ok = d["version"] == {"major": 5, "minor": 3}
    ok &= [t["path"] for t in d["tests"]] == [
        "bcm43xx.bcma.enum-bcm4331", "bcm43xx.b43.probe", "bcm43xx.b43.open",
        "bcm43xx.brcmsmac.mesh"]
    ok &= [t["status"] for t in d["tests"]] == ["PASS", "PASS", "FAIL",
                                                "SKIP"]
    ids = [d["checkouts"][0]["id"], d["builds"][0]["id"]] + \
        [t["id"] for t in d["tests"]]
    ok &= all(re.match(r"^[a-z0-9_]+:[^\0]*$", i) for i in ids)
    ok &= len(set(ids)) == len(ids)
    ok &= d["builds"][0]["checkout_id"] == d["checkouts"][0]["id"]
    ok &= d["tests"][2]["log_url"] == "file:///tmp/out/gate-a.console.log"
    ok &= "valid" not in d["builds"][0] and d["builds"][0]["status"] == "PASS"
    tap(ok, "KCIDB v5.3: version, paths, statuses, origin-prefixed unique "
        "ids, links, log URL")


def fragment(regen):
    want = [ln.strip() for ln in open(os.path.join(
        TOP, "configs", "kernel", "gate.config"))
        if re.match(r"^CONFIG_\w+=", ln)]
    path = os.path.join(TOP, "contrib", "kernelci", "pipeline-bcm43xx.yaml")
    text = open(path).read()
    m = re.search(r"(  bcm43xx-gate:\n    path: [^\n]*\n    configs:\n)"
                  r"((?:      - '[^']*'\n)+)", text)
    have = re.findall(r"- '([^']*)'", m.group(2)) if m else []
    if regen and m:
        text = text.replace(m.group(2), "".join(
            "      - '%s'\n" % w for w in want))
        open(path, "w").write(text)
        have = want
    tap(have == want, "contrib/kernelci's fragment is gate.config's %d "
        "options (test_kernel_gate.py --regen rewrites it)" % len(want))


scenarios()
slicing()
ktap_and_kcidb()
fragment("--regen" in sys.argv)
tap.finish()
