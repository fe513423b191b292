# SPDX-License-Identifier: GPL-2.0-or-later
"""The trace of a run read into steps (the guest's marker lines) and
accesses (register accesses and the model's events)."""

import collections
import re

# the trace events a run records (cli.run_guest) for the reader; the
# guest's marker lines start with MARK
TRACE_EVENTS = ["bcm4331_*", "wifi_*", "pci_cfg_*", "serial_write"]
MARK = "@@ "
LINE = re.compile(r"^(?:\d+@[\d.]+:)?(\w+) (.*)$")
RE = {
    "bcm4331_bcma_read": re.compile(
        r"(.+) (\S+) \[0x([0-9a-f]+)\] -> 0x([0-9a-f]+) \((\d) bytes\)"),
    "bcm4331_bcma_write": re.compile(
        r"(.+) (\S+) \[0x([0-9a-f]+)\] <- 0x([0-9a-f]+) \((\d) bytes\)"),
    "bcm4331_d11_read": re.compile(r"(\S+) \[0x([0-9a-f]+)\] -> 0x([0-9a-f]+)"),
    "bcm4331_d11_write": re.compile(r"(\S+) \[0x([0-9a-f]+)\] <- 0x([0-9a-f]+)"),
    "bcm4331_d11_shm_read": re.compile(
        r"SHM routing (\d+) word 0x([0-9a-f]+) -> 0x([0-9a-f]+)"),
    "bcm4331_d11_shm_write": re.compile(
        r"SHM routing (\d+) word 0x([0-9a-f]+) <- 0x([0-9a-f]+) "
        r"\(lanes 0x([0-9a-f]+)\)"),
    "bcm4331_phy_read": re.compile(r"PHY 0x([0-9a-f]+) -> 0x([0-9a-f]+)"),
    "bcm4331_phy_write": re.compile(r"PHY 0x([0-9a-f]+) <- 0x([0-9a-f]+)"),
    "bcm4331_radio_read": re.compile(
        r"radio core (\d+) reg 0x([0-9a-f]+) -> 0x([0-9a-f]+)"),
    "bcm4331_radio_write": re.compile(
        r"radio core (\d+) reg 0x([0-9a-f]+) <- 0x([0-9a-f]+)"),
    "pci_cfg_read": re.compile(
        r"(\S+) [0-9a-f:.]+ @0x([0-9a-f]+) -> 0x([0-9a-f]+)"),
    "pci_cfg_write": re.compile(
        r"(\S+) [0-9a-f:.]+ @0x([0-9a-f]+) <- 0x([0-9a-f]+)"),
    "serial_write": re.compile(r"write addr 0x([0-9a-f]+) val 0x([0-9a-f]+)"),
}
# d11 registers whose accesses the model traces again by meaning (the PHY,
# radio and SHM windows): the transcript shows the meaning
WINDOW_REGS = {"PHY_CONTROL", "PHY_DATA", "RADIO24_CONTROL", "RADIO24_DATA"}
# events too frequent to show one by one; the transcript counts them
QUIET = {"bcm4331_d11_irq", "bcm4331_pci_cfg_write", "wifi_ap_beacon"}


class Access:
    """One line of the transcript: a register access or a model event."""

    __slots__ = ("kind", "rw", "block", "name", "addr", "val", "text",
                 "phase", "key", "hidden", "old")

    def __init__(self, kind, rw, block, name, addr, val, text=""):
        self.kind, self.rw = kind, rw
        self.block, self.name, self.addr, self.val = block, name, addr, val
        self.text = text
        self.phase = None
        self.hidden = False
        self.old = None                 # a write: the register's last value
        self.key = (kind, rw, block, name, addr)


class Stage:
    def __init__(self, n, title):
        self.n, self.title = n, title
        self.name = title.split(":")[0].strip() if ":" in title else title
        self.accesses = []
        self.counts = collections.Counter()


class Reader:
    """A trace read: its steps (Stage) and their accesses (Access)"""

    def __init__(self, regs, pci_names):
        self.regs, self.pci_names = regs, pci_names
        r = self.regs
        self.shm_routing = {r.const("D11_SHM_" + n): n for n in
                            ("UCODE", "SHARED", "SCRATCH", "HW", "RCMTA")
                            if r.const("D11_SHM_" + n) is not None}
        self.shm_shared = r.group("D11_SHM_SH_")
        self.shm_scratch = r.group("D11_SHM_SC_")
        self.phy_names = {v: n[len("HTPHY_"):] for n, v in r.offset.items()
                          if n.startswith("HTPHY_")}
        self.radio_names = {v: n for v, n in r.group("R2059_").items()
                            if n.endswith(("STATUS", "DONE"))}
        self.pci_vendor = r.group("BCMA_PCI_")
        self.last = {}                  # register -> last value written
        self.erom_role = {}             # EROM address -> "CIA" / "CIB"
        self.stages = []
        self.events = 0
        self.shmctl = 0                 # SHM_CONTROL as last written
        self.last_shm = None            # the last SHM access

    def parse(self, lines):
        stage = Stage(0, "boot: the firmware and the kernel start (before "
                      "the first marker)")
        self.stages = [stage]
        serial = {"lcr": 0, "line": ""}
        prev = None
        for i, raw in enumerate(lines):
            m = LINE.match(raw.rstrip("\n"))
            if not m:
                continue
            ev, args = m.groups()
            if ev == "serial_write":
                t = self._serial(args, serial)
                if t is not None:
                    stage = Stage(len(self.stages), t)
                    self.stages.append(stage)
                continue
            if not (ev.startswith("bcm4331_") or ev.startswith("wifi_") or
                    ev.startswith("pci_cfg_")):
                continue
            self.events += 1
            beacon = prev == "wifi_ap_beacon" and ev == "wifi_medium_tx"
            prev = ev
            if beacon:                  # the AP's beacon on the air
                continue
            for a in self._access(ev, args):
                self._remember(a)
                stage.accesses.append(a)
            if ev in QUIET:
                stage.counts[ev] += 1
        return self.stages

    def _remember(self, a):
        """what a line needs of the accesses before it: a write's previous
        value (not for the write-1-to-clear reasons: a write acknowledges),
        an EROM entry's place in its component identifier pair"""
        if a.kind in ("bcma", "d11") and a.rw == "W" and \
                not a.name.endswith("REASON"):
            reg = (a.kind, a.block, a.name, a.addr)
            a.old = self.last.get(reg)
            self.last[reg] = a.val
        r = self.regs
        if a.block == "EROM" and a.addr not in self.erom_role and \
                a.val & 1 and r.extract("BCMA_EROM", "TAG", a.val) == \
                r.const("BCMA_EROM_TAG_CI"):
            self.erom_role[a.addr] = "CIB" if \
                self.erom_role.get(a.addr - 4) == "CIA" else "CIA"

    def _serial(self, args, st):
        m = RE["serial_write"].match(args)
        if not m:
            return None
        addr, val = int(m.group(1), 16), int(m.group(2), 16)
        if addr == 3:
            st["lcr"] = val
            return None
        if addr != 0 or st["lcr"] & 0x80:
            return None                 # divisor latch, not a character
        c = chr(val)
        if c == "\n":
            line, st["line"] = st["line"].rstrip("\r"), ""
            if line.startswith(MARK):
                return line[len(MARK):].strip()
            return None
        st["line"] += c
        return None

    # the source of an event with a pattern in RE (its name without _read
    # or _write) -> the method that makes its access of the pattern's match
    SOURCES = {"bcm4331_bcma": "_bcma", "bcm4331_d11": "_d11",
               "bcm4331_d11_shm": "_shm", "bcm4331_phy": "_phy",
               "bcm4331_radio": "_radio", "pci_cfg": "_cfg"}

    def _access(self, ev, args):
        m = RE.get(ev, None)
        m = m.match(args) if m else None
        src = self.SOURCES.get(ev.rsplit("_", 1)[0])
        if src and m:
            return getattr(self, src)("R" if ev.endswith("read") else "W", m)
        if ev == "bcm4331_pci_cfg_write":
            m2 = re.match(r"(\S+) cfg\[0x([0-9a-f]+)\] <- 0x([0-9a-f]+)", args)
            if m2:
                return [Access("cfg", "W", "PCI config", m2.group(1),
                               int(m2.group(2), 16), int(m2.group(3), 16))]
            return []
        if ev == "bcm4331_d11_irq" or ev == "bcm4331_bcma_irq":
            a = Access("event", "", "irq", ev, None, None, args)
            a.hidden = ev == "bcm4331_d11_irq"
            return [a]
        if ev in QUIET:
            return []
        return [Access("event", "", ev.split("_", 2)[1] if
                       ev.startswith("bcm4331_") else "air", ev, None, None,
                       args)]

    def _bcma(self, rw, m):
        core, name, addr, val = m.group(1), m.group(2), \
            int(m.group(3), 16), int(m.group(4), 16)
        return [Access("bcma", rw, core, name, addr, val)]

    def _d11(self, rw, m):
        r = self.regs
        name, off, val = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
        a = Access("d11", rw, "D11", name, off, val)
        if name in WINDOW_REGS:
            a.hidden = True
        if name == "SHM_CONTROL" and a.rw == "W":
            self.shmctl = val
            a.hidden = True
        if name in ("SHM_DATA", "SHM_DATA_UNALIGNED"):
            a.hidden = True
            routing = r.extract("D11_SHM_CONTROL", "ROUTING", self.shmctl)
            if routing == r.const("D11_SHM_UCODE", 0) and a.rw == "W":
                # the model counts microcode words, it does not trace
                # each: this write is the only trace of one
                a.hidden = False
                a.kind, a.block, a.name = "shm", "SHM ucode", "microcode"
                a.addr = None
                a.key = ("shm", "W", "SHM ucode", "microcode", None)
        p = self.last_shm
        if name == "SHM_DATA_UNALIGNED" and p and p.rw == "R":
            # the read was of the upper half
            p.addr += 2
            p.val >>= 16
            p.name = self._shm_name(p.block, p.addr)
        return [a]

    def _shm(self, rw, m):
        r = self.regs
        routing, word, val = int(m.group(1)), int(m.group(2), 16), \
            int(m.group(3), 16)
        block = "SHM " + self.shm_routing.get(routing, str(routing))
        if routing in (r.const("D11_SHM_SHARED"), r.const("D11_SHM_UCODE")):
            byte = word * 4
            if rw == "W" and m.group(4) == "ffff0000":
                byte += 2
                val >>= 16
        else:
            byte = word
        a = Access("shm", rw, block, self._shm_name(block, byte), byte, val)
        a.key = ("shm", a.rw, block, None, None)
        self.last_shm = a
        return [a]

    def _phy(self, rw, m):
        reg, val = int(m.group(1), 16), int(m.group(2), 16)
        return [Access("phy", rw, "PHY", self.phy_names.get(reg, ""), reg,
                       val)]

    def _radio(self, rw, m):
        core, reg, val = int(m.group(1)), int(m.group(2), 16), \
            int(m.group(3), 16)
        return [Access("radio", rw, "radio core %d" % core,
                       self.radio_names.get(reg, ""), reg, val)]

    def _cfg(self, rw, m):
        if not m.group(1).startswith("bcm4331"):
            return []
        off, val = int(m.group(2), 16), int(m.group(3), 16)
        if rw == "W" and off >= 0x40:
            return []   # bcm4331_pci_cfg_write names it (_access())
        name = self.pci_names.get(off) or self.pci_vendor.get(off) or \
            ("capability" if off >= 0x40 else "")
        return [Access("cfg", rw, "PCI config", name, off, val)]

    def _shm_name(self, block, byte):
        r = self.regs
        if block == "SHM SHARED":
            if byte in self.shm_shared:
                return self.shm_shared[byte]
            ktp = r.const("D11_KTP_DEFAULT", 0x400) * 2
            ks = r.const("D11_KEY_SIZE", 16)
            nk = r.const("D11_NR_KEYS", 54)
            if ktp <= byte < ktp + nk * ks:
                return "key %d byte %d" % ((byte - ktp) // ks,
                                            (byte - ktp) % ks)
            kib = r.const("D11_SHM_SH_KEYIDXBLOCK", 0x5d4)
            if kib <= byte < kib + 2 * nk:
                return "KEYIDXBLOCK slot %d" % ((byte - kib) // 2)
            return ""
        if block == "SHM RCMTA":
            # per pairwise key slot its peer's address: bytes 0-3, 4-5
            return "peer of key slot %d, MAC bytes %s" % (
                byte // 2 + r.const("D11_NR_GROUP_KEYS", 4),
                "0-3" if byte % 2 == 0 else "4-5")
        if block == "SHM SCRATCH":
            return self.shm_scratch.get(byte, "")
        return ""
