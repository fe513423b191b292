#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/explain.py on hand-made traces (TAP output).

What a guest run cannot force: a register polled until a bit changes, a
marker line split by the divisor latch, a header whose field moves (the
transcript must follow the device's definitions, not a copy of them)."""

import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytap import Tap, load_script  # noqa: E402

explain = load_script("explain.py", "explain")
check = Tap()


def serial(text, lcr=0x03):
    """serial_write trace lines that print @text"""
    out = ["serial_write write addr 0x03 val 0x%02x" % lcr]
    out += ["serial_write write addr 0x00 val 0x%02x" % ord(c) for c in text]
    return out


def transcript(trace, regs=None, full=True, **kw):
    ex = explain.Explainer(regs)
    stages = ex.parse(trace)
    ex.classify()
    tr = explain.Transcript(ex, stages, full=full, **kw)

    class Out:
        text = ""

        def write(self, s):
            Out.text += s
    tr.text(Out())
    return ex, stages, Out.text


def test_markers():
    lines = ["bcm4331_d11_read MACCTL [0x120] -> 0x0"]
    # the divisor latch (LCR bit 7) is not text: 0x40 '@' there is ignored
    lines += serial("boot text\n")
    lines += ["serial_write write addr 0x03 val 0x83",
              "serial_write write addr 0x00 val 0x40",
              "serial_write write addr 0x03 val 0x03"]
    lines += serial("@@ probe: modprobe bcma\n")
    lines += ["bcm4331_bcma_read ChipCommon CC_ID [0x18000000] -> 0x13924331 "
              "(4 bytes)"]
    lines += serial("@@ up: ip link set wlan0 up\n")
    lines += ["bcm4331_d11_write MACCTL [0x120] <- 0x2"]
    ex, stages, text = transcript(lines)
    check([s.name for s in stages] == ["boot", "probe", "up"],
          "markers cut the trace into steps: %s" % [s.name for s in stages])
    check(len(stages[1].accesses) == 1 and
          stages[1].accesses[0].name == "CC_ID",
          "the access after a marker is in that marker's step")
    check("Step 1: probe: modprobe bcma" in text, "the step's title printed")


def test_decode_and_poll():
    lines = serial("@@ up: x\n")
    lines += ["bcm4331_bcma_read ChipCommon CC_ID [0x18000000] -> 0x13924331 "
              "(4 bytes)"]
    lines += ["bcm4331_d11_read GEN_IRQ_REASON [0x128] -> 0x0"] * 13
    lines += ["bcm4331_d11_read GEN_IRQ_REASON [0x128] -> 0x1"]
    lines += ["bcm4331_d11_write MACCTL [0x120] <- 0x4",
              "bcm4331_d11_write MACCTL [0x120] <- 0x2"]
    ex, stages, text = transcript(lines)
    check("ID=0x4331 REV=2 PKG=9 NRCORES=3 TYPE=AI" in text,
          "CC_ID decoded into its fields and the type's value name")
    check(re.search(r"polled D11 GEN_IRQ_REASON 14 times until it read 0x1"
                    r"\s+set MAC_SUSPENDED", text),
          "14 reads collapsed into a poll, with the bit that ended it")
    check("[set PSM_RUN, cleared PSM_JMP0]" in text,
          "a write shows what it changed")


def test_erom():
    words = [0x4bf80001, 0x25080201, 0x18000005, 0x18100085, 0x4bf81201,
             0x1d004211, 0x103, 0x1800500d, 0xf]
    lines = ["bcm4331_bcma_read EROM EROM [0x%08x] -> 0x%x (4 bytes)" %
             (0x18103000 + 4 * i, w) for i, w in enumerate(words)]
    ex, stages, text = transcript(lines)
    for want in ("component A: ID=CHIPCOMMON MANUF=BCM",
                 "component B: NSP=1 NSW=1 REV=0x25",
                 "address region: SLAVE at 0x18000000",
                 "address region: SWRAP at 0x18100000",
                 "component A: ID=80211 MANUF=BCM",
                 "master port NUM=1", "END of the table",
                 # AG32: a 64-bit address entry (its high word follows)
                 "address region: SLAVE at 0x18005000"):
        check(want in text, "EROM entry decoded: %s" % want)


def test_landmarks_survive_the_cut():
    # the card's authentication frame out, then the driver's interrupt
    # handler before the AP hears the frame (a loaded host: the AP runs on
    # the main loop, the handler on the vCPU thread); --lines 5 must still
    # show the AP's event, after the lines it skipped
    lines = serial("@@ connect: wpa_supplicant\n")
    lines += ["bcm4331_d11_write DMA_TXINDEX [0x244] <- 0x20",
              "wifi_medium_tx wifi0: 2437 MHz, 30 bytes at 2 x 500 kb/s"]
    # (distinct accesses: runs and patterns would collapse into one line)
    lines += ["bcm4331_d11_read GEN_IRQ_REASON [0x128] -> 0x20000000"]
    lines += ["bcm4331_d11_read DMA_REASON [0x%03x] -> 0x0" % (0x20 + 8 * i)
              for i in range(5)]
    lines += ["bcm4331_d11_write GEN_IRQ_REASON [0x128] <- 0x20000000"]
    lines += ["bcm4331_d11_write DMA_REASON [0x%03x] <- 0x0" % (0x20 + 8 * i)
              for i in range(5)]
    lines += ["wifi_ap_rx QEMU: frame type 0 subtype 11 from "
              "52:54:00:12:34:56",
              "wifi_ap_auth QEMU: auth from 52:54:00:12:34:56 alg 0 seq 1 "
              "-> status 0"]
    lines += ["bcm4331_d11_read GPIO_CONTROL [0x49c] -> 0x3",
              "bcm4331_d11_write GPIO_CONTROL [0x49c] <- 0x2",
              "bcm4331_d11_write DMA_TXINDEX [0x244] <- 0x40"]
    ex, stages, text = transcript(lines, full=False, lines=5,
                                  only_phases={"assoc"})
    body = text.split("-- authentication and association")[-1]
    check(re.search(r"\.\.\. \d+ lines\n\s+\* ap_auth\s+QEMU: auth from", body),
          "past --lines, the AP's event is shown after the lines skipped")
    check(re.search(r"\.\.\. \d+ more lines in this block", body),
          "what follows the last event shown is counted")
    check(body.count("\n     ") < 12,
          "the cut still cuts: %d lines" % body.count("\n     "))


def test_headers_are_the_source():
    """every FIELD of the headers is known; move one and the decode moves"""
    regs = explain.RegDefs(explain.HEADERS)
    n = 0
    for h in explain.HEADERS:
        n += len(re.findall(r"^\s*FIELD\(", open(h).read(), re.M))
    check(sum(len(v) for v in regs.fields.values()) == n,
          "all %d FIELD definitions of the headers parsed" % n)
    with tempfile.TemporaryDirectory() as d:
        hs = []
        for h in explain.HEADERS:
            shutil.copy(h, d)
            hs.append(os.path.join(d, os.path.basename(h)))
        t = open(hs[1]).read().replace(
            "FIELD(D11_MACCTL, PSM_RUN, 1, 1)",
            "FIELD(D11_MACCTL, PSM_RUN, 5, 1)")
        open(hs[1], "w").write(t)
        moved = explain.RegDefs(hs)
    check(regs.decode(["D11_MACCTL"], 0x2) == "PSM_RUN" and
          moved.decode(["D11_MACCTL"], 0x2) == "+0x2" and
          moved.decode(["D11_MACCTL"], 0x20) == "PSM_RUN",
          "the decode follows the header's FIELD")


def test_citations_well_formed():
    for key, (title, why, funcs) in explain.PHASES.items():
        for fn, path in funcs:
            check(re.match(r"^[a-z0-9_]+$", fn) and
                  re.match(r"^(drivers|net)/[\w/]+\.c$", path),
                  "phase %s cites %s() in %s" % (key, fn, path))


for t in (test_markers, test_decode_and_poll, test_erom,
          test_landmarks_survive_the_cut,
          test_headers_are_the_source, test_citations_well_formed):
    t()
check.finish()
