# SPDX-License-Identifier: GPL-2.0-or-later
"""The transcript: a step's accesses in blocks of one phase, polls and runs
collapsed, as text or as a foldable HTML page."""

import collections
import html
import re

from .phases import LANDMARKS, PHASES


class Block:
    def __init__(self, phase):
        self.phase = phase
        self.items = []                 # rendered lines
        self.note = ""                  # e.g. the channel a scan went to
        self.marks = set()              # indexes of LANDMARKS in items


def run_groups(accs):
    """Groups of accesses shown as one line: runs of the same register
    (polls, block writes) and repeated short patterns."""
    out, i, n = [], 0, len(accs)
    while i < n:
        a = accs[i]
        what, j = _run_end(accs, i)
        if j - i >= 3 or (j - i >= 2 and a.rw == "R" and a.kind != "shm"):
            out.append((what, accs[i:j]))
            i = j
            continue
        p = _pattern(accs, i)
        if p:
            k, reps = p
            out.append(("pattern", accs[i:i + reps * k], k))
            i += reps * k
        else:
            out.append(("one", a))
            i += 1
    return out


def _run_end(accs, i):
    """("run" or "table", the end of the accesses like accs[@i] from it)"""
    a, j, n = accs[i], i + 1, len(accs)
    if a.kind == "shm":
        # consecutive SHM accesses of one routing (shm key); a few
        # named words (a key, the firmware's revision) stay lines
        while j < n and accs[j].key == a.key:
            j += 1
        if j - i <= 12 and any(x.name for x in accs[i:j]):
            j = i + 1
    elif a.kind == "bcma" and a.block != "EROM" and i + 1 < n and \
            accs[i + 1].key[:4] == a.key[:4] and \
            accs[i + 1].addr > a.addr:
        # a table read word by word (the SPROM)
        while j < n and accs[j].key[:4] == a.key[:4] and \
                accs[j].addr > accs[j - 1].addr:
            j += 1
        return ("table", j) if j - i >= 3 else ("run", i + 1)
    else:
        while j < n and accs[j].key == a.key:
            j += 1
    return "run", j


def _pattern(accs, i):
    """(k, reps): a pattern of k = 2..4 accesses from accs[@i] repeated
    reps >= 3 times, or None"""
    n = len(accs)
    for k in (2, 3, 4):
        if i + 3 * k > n:
            break
        keys = [x.key + (x.addr,) for x in accs[i:i + k]]
        reps = 1
        while i + (reps + 1) * k <= n and \
                [x.key + (x.addr,) for x in
                 accs[i + reps * k:i + (reps + 1) * k]] == keys:
            reps += 1
        if reps >= 3:
            return k, reps
    return None


class Transcript:
    def __init__(self, ex, stages, only_stages=None, only_phases=None,
                 full=False, lines=40):
        self.ex, self.stages = ex, stages
        self.only_stages = only_stages
        self.only_phases = only_phases
        self.full, self.lines = full, lines

    def blocks(self, st):
        vis = [a for a in st.accesses if not a.hidden]
        blocks = []
        split = False
        chan = None
        for a in vis:
            if not blocks or blocks[-1].phase != a.phase or split:
                blocks.append(Block(a.phase))
                blocks[-1].accs = []
                blocks[-1].chan = chan
                split = False
            blocks[-1].accs.append(a)
            # a scan is a block per channel: what the card did on one
            # channel (probe requests out, responses in), then the switch
            # to the next, up to b43's enabling the MAC again after it
            if a.phase == "scan" and a.name == "bcm4331_phy_tune":
                m = re.search(r"\((channel \d+)\)", a.text)
                new = m.group(1) if m else a.text
                b = blocks[-1]
                b.note = ("on %s, then " % b.chan if b.chan else "") + \
                    "the switch to %s" % new
                chan = new
            elif a.phase == "scan" and a.name == "bcm4331_fw_enable" and \
                    blocks[-1].note:
                split = True
        for b in blocks:
            for g in run_groups(b.accs):
                if g[0] == "one" and g[1].kind == "event" and \
                        g[1].name in LANDMARKS:
                    b.marks.add(len(b.items))
                b.items.append(self.render(g))
            del b.accs
        return blocks

    def render(self, g):
        """(what, decoded) of a group of run_groups()"""
        if g[0] == "one":
            return self.ex.describe(g[1])
        accs = g[1]
        if g[0] == "table":
            a = accs[0]
            return ("%s %s: %s %d times at 0x%08x..0x%08x" % (
                a.block, a.name, "read" if a.rw == "R" else "wrote",
                len(accs), a.addr, accs[-1].addr), "")
        if g[0] == "run":
            return self._run(accs)
        k = g[2]
        reps = len(accs) // k
        parts = [self.ex.describe(x)[0] for x in accs[:k]]
        return ("%d times: %s" % (reps, "  |  ".join(
            re.sub(r"\s+", " ", p) for p in parts)), "")

    def _run(self, accs):
        """a run of accesses to one register (or one SHM routing)"""
        a = accs[0]
        descs = [self.ex.describe(x) for x in accs]
        what, dec = descs[0]
        n = len(accs)
        if a.kind == "shm" and a.addr is not None:
            return self._shm_run(accs)
        if a.kind == "shm":
            return ("%s: wrote %d words (%d bytes)" % (a.block, n, 4 * n),
                    "")
        if a.rw == "R":
            return self._reads(accs, descs)
        if a.kind == "event":
            return ("%s   (x%d)" % (what, n), "")
        vals = [x.val for x in accs]
        if len(set(vals)) == 1:
            return ("%s   (written %d times)" % (what, n), dec)
        return ("wrote %s %d times: 0x%x, 0x%x, ... 0x%x" % (
            self._reg(a), n, vals[0], vals[1], vals[-1]),
            descs[-1][1])

    @staticmethod
    def _shm_run(accs):
        """SHM words one after the other: their range, names and values"""
        a, n = accs[0], len(accs)
        lo = min(x.addr for x in accs)
        hi = max(x.addr for x in accs)
        vals = {x.val for x in accs}
        rng = "0x%04x..0x%04x" % (lo, hi)
        v = ("all 0x%x" % a.val) if len(vals) == 1 else \
            "%d distinct values" % len(vals)
        names = sorted({x.name for x in accs if x.name},
                       key=lambda s: (len(s), s))
        nm = (" (" + ", ".join(names[:4]) +
              (", ..." if len(names) > 4 else "") + ")") \
            if names else ""
        verb = "read" if a.rw == "R" else "wrote"
        return ("%s: %s %d words at %s%s, %s" % (a.block, verb, n,
                                                  rng, nm, v), "")

    def _reads(self, accs, descs):
        """reads of one register: of one value, a poll, or what they read"""
        a, z, n = accs[0], accs[-1], len(accs)
        what, dec = descs[0]
        if a.val == z.val:
            return ("%s   (read %d times, same value)" % (what, n), dec)
        if n >= 3 and all(x.val == a.val for x in accs[:-1]):
            # waiting for a change: a poll
            return ("polled %s %d times until it read 0x%x" % (
                self._reg(a), n, z.val),
                self.ex.regs_delta(a, z) or descs[-1][1])
        vals = ", ".join("0x%x" % x.val for x in accs[:2]) + \
            (", ... 0x%x" % z.val if n > 2 else "")
        return ("read %s %d times: %s" % (self._reg(a), n, vals), "")

    def _reg(self, a):
        if a.kind == "d11":
            return "D11 " + a.name
        if a.kind == "bcma":
            return "%s %s" % (a.block, a.name)
        if a.kind == "phy":
            return "PHY 0x%03x" % a.addr
        if a.kind == "radio":
            return "radio %s reg 0x%03x" % (a.block, a.addr)
        if a.kind == "cfg":
            return "PCI config 0x%02x" % a.addr
        return a.name

    def selected(self):
        for st in self.stages:
            if self.only_stages and st.name not in self.only_stages:
                continue
            if not st.accesses and st.n == 0:
                continue
            blocks = self.blocks(st)
            if self.only_phases:
                merged = []
                for b in blocks:
                    if b.phase not in self.only_phases:
                        continue
                    if merged and merged[-1].phase == b.phase:
                        merged[-1].items.append(("...", ""))
                        n = len(merged[-1].items)
                        merged[-1].marks |= {n + k for k in b.marks}
                        merged[-1].items += b.items
                    else:
                        merged.append(b)
                blocks = merged
            yield st, blocks

    @staticmethod
    def cite(phase):
        title, why, funcs = PHASES[phase]
        refs = ", ".join("%s() in %s" % f for f in funcs)
        return title, why, refs

    def text(self, out):
        ex = self.ex
        w = out.write
        w("bcm4331 register transcript: %d trace events, %d steps\n" % (
            ex.events, len(self.stages)))
        w("(register names and fields: hw/net/bcm43xx/*.h; "
          "'*' lines: the model's own events)\n")
        for st, blocks in self.selected():
            w("\n" + "=" * 78 + "\n")
            w("Step %d: %s\n" % (st.n, st.title))
            n_irq = st.counts.get("bcm4331_d11_irq", 0)
            summary = collections.Counter(b.phase for b in blocks)
            w("  %d accesses in %d phase blocks (%s)%s\n" % (
                sum(len(b.items) for b in blocks), len(blocks),
                ", ".join("%s x%d" % (PHASES[p][0], c)
                          for p, c in summary.items()),
                ", interrupt line changes: %d" % n_irq if n_irq else ""))
            for b in blocks:
                title, why, refs = self.cite(b.phase)
                if b.note:
                    title += " (%s)" % b.note
                w("\n  -- %s: %s\n" % (title, why))
                if refs:
                    w("     (%s)\n" % refs)
                shown = range(len(b.items)) if self.full else \
                    sorted(set(range(min(self.lines, len(b.items)))) |
                           b.marks)
                last = -1
                for k in shown:
                    if k > last + 1:
                        w("     ... %d lines\n" % (k - last - 1))
                    what, dec = b.items[k]
                    w("     %s%s\n" % (what, ("   " + dec) if dec else ""))
                    last = k
                if last + 1 < len(b.items):
                    w("     ... %d more lines in this block (--full shows "
                      "them)\n" % (len(b.items) - last - 1))

    def html(self, out, title):
        ex = self.ex
        e = html.escape
        w = out.write
        w("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>%s</title>\n<style>\n%s</style></head><body>\n" % (
              e(title), CSS))
        w("<h1>%s</h1>\n<p class=\"intro\">%d trace events in %d steps. "
          "Each step is what the guest did (its marker line); inside, the "
          "phases of the driver's work, each with the kernel function that "
          "does it. Click a phase to open it. Register names and fields "
          "come from the device's headers; lines marked <code>*</code> are "
          "the model's own events.</p>\n" % (e(title), ex.events,
                                             len(self.stages)))
        w("<nav><button id=\"open-all\" type=\"button\">open all</button> "
          "<button id=\"close-all\" type=\"button\">close all</button></nav>"
          "\n")
        for st, blocks in self.selected():
            w("<details class=\"step\" id=\"step-%d\" open><summary>"
              "<span class=\"n\">Step %d</span> %s <span class=\"count\">"
              "%d phase blocks</span></summary>\n" % (
                  st.n, st.n, e(st.title), len(blocks)))
            for k, b in enumerate(blocks):
                title, why, refs = self.cite(b.phase)
                if b.note:
                    title += " (%s)" % b.note
                w("<details class=\"phase\" data-phase=\"%s\" "
                  "id=\"step-%d-%d\"><summary><b>%s</b> <span class=\"why\">"
                  "%s</span> <span class=\"count\">%d lines</span></summary>"
                  "\n" % (b.phase, st.n, k, e(title), e(why), len(b.items)))
                if refs:
                    w("<p class=\"cite\">%s</p>\n" % e(refs))
                w("<table>\n")
                for what, dec in b.items:
                    w("<tr><td class=\"acc\">%s</td><td class=\"dec\">%s"
                      "</td></tr>\n" % (e(what), e(dec)))
                w("</table></details>\n")
            w("</details>\n")
        w("<script>\n%s</script>\n</body></html>\n" % JS)


CSS = """body { font-family: sans-serif; margin: 1em 2em; max-width: 110em; }
h1 { font-size: 1.4em; }
details.step { border-left: 4px solid #468; margin: 0.8em 0; padding-left: 0.6em; }
details.step > summary { font-size: 1.15em; font-weight: bold; cursor: pointer; }
details.phase { margin: 0.3em 0 0.3em 1.2em; }
details.phase > summary { cursor: pointer; }
.why { color: #555; font-size: 0.9em; }
.count { color: #888; font-size: 0.8em; }
.cite { font-family: monospace; color: #264; margin: 0.2em 0 0.2em 1.2em; }
table { border-collapse: collapse; margin-left: 1.2em; }
td { font-family: monospace; font-size: 0.85em; padding: 0 0.8em 0 0;
     white-space: pre; vertical-align: top; }
td.dec { color: #036; }
"""

JS = """document.getElementById('open-all').onclick = function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
};
document.getElementById('close-all').onclick = function () {
  document.querySelectorAll('details.phase').forEach(function (d) { d.open = false; });
};
"""
