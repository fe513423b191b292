#!/usr/bin/python3
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
import collections
import glob
import html
import os
import re
import signal
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = [os.path.join(TOP, "hw/net/bcm43xx", h)
           for h in ("bcma-regs.h", "d11-regs.h")]
TRACE_EVENTS = ["bcm4331_*", "wifi_*", "pci_cfg_*", "serial_write"]
MARK = "@@ "

# ---------------------------------------------------------------------------
# register definitions, parsed from the device's headers


class Field:
    def __init__(self, name, shift, length):
        self.name, self.shift, self.length = name, shift, length
        self.mask = ((1 << length) - 1) << shift
        self.values = {}                # value -> name (enumerations)


class RegDefs:
    """REG32/REG16/FIELD and #define constants of the device's headers.

    FIELD(REG, F, shift, len) gives REG a field; "#define REG_F_NAME n"
    names the value n of that field; a register whose comment says
    "fields as OTHER" has OTHER's layout."""

    REG = re.compile(r"^\s*REG(?:32|16)\((\w+),\s*(0x[0-9a-fA-F]+|\d+)\)"
                     r"(.*)$")
    FIELD = re.compile(r"^\s*FIELD\((\w+),\s*(\w+),\s*(\d+),\s*(\d+)\)")
    DEFINE = re.compile(r"^\s*#define\s+(\w+)(\([^)]*\))?\s+"
                        r"\(?(0x[0-9a-fA-F]+|\d+)u?\)?\b(.*)$")
    ALIAS = re.compile(r"fields as (\w+)")

    def __init__(self, paths):
        self.offset = {}                # register -> offset
        self.fields = collections.OrderedDict()     # register -> [Field]
        self.alias = {}                 # register -> register with fields
        self.consts = collections.OrderedDict()     # name -> value
        for p in paths:
            self._parse(p)
        for reg, fl in self.fields.items():
            for f in fl:
                pre = "%s_%s_" % (reg, f.name)
                for name, v in self.consts.items():
                    if name.startswith(pre):
                        f.values.setdefault(v, name[len(pre):])

    def _parse(self, path):
        with open(path) as f:
            for line in f:
                m = self.REG.match(line)
                if m:
                    self.offset[m.group(1)] = int(m.group(2), 0)
                    a = self.ALIAS.search(m.group(3))
                    if a:
                        self.alias[m.group(1)] = a.group(1)
                    continue
                m = self.FIELD.match(line)
                if m:
                    self.fields.setdefault(m.group(1), []).append(
                        Field(m.group(2), int(m.group(3)), int(m.group(4))))
                    continue
                m = self.DEFINE.match(line)
                if m:
                    if not m.group(2):
                        self.consts[m.group(1)] = int(m.group(3), 0)
                    a = self.ALIAS.search(m.group(4))
                    if a:
                        self.alias[m.group(1)] = a.group(1)

    def layout(self, *names):
        for n in names:
            n = self.alias.get(n, n)
            if n in self.fields:
                return self.fields[n]
        return None

    def decode(self, names, val, old=None):
        """'A B=3 +0x40' for @val with the layout of the first of @names
        that has fields; with @old, what changed ('set A, B 1->3')."""
        fl = self.layout(*names)
        if fl is None:
            return ""
        if val == 0xffffffff:
            return "all bits"
        parts, rest = [], val
        for f in fl:
            rest &= ~f.mask
            v = (val & f.mask) >> f.shift
            if f.length == 1:
                if v:
                    parts.append(f.name)
            elif v or f.values.get(0):
                # lengths and counts in decimal, the rest in hex
                dec = f.name == "LEN" or f.name.endswith("COUNT") or v <= 9
                parts.append("%s=%s" % (f.name, f.values.get(
                    v, v if dec else hex(v))))
        if rest:
            parts.append("+0x%x" % rest)
        out = " ".join(parts) if parts else "(none set)"
        if old is not None and old != val:
            ch = []
            for f in fl:
                a = (old & f.mask) >> f.shift
                b = (val & f.mask) >> f.shift
                if a != b:
                    ch.append(("set %s" if b else "cleared %s") % f.name
                              if f.length == 1 else
                              "%s %s->%s" % (f.name, f.values.get(a, a),
                                             f.values.get(b, b)))
            if len(ch) > 4:
                ch = ch[:4] + ["%d more" % (len(ch) - 4)]
            if ch:
                out += "   [" + ", ".join(ch) + "]"
        return out

    def field(self, reg, name):
        """the Field @name of @reg (or of the register @reg has the layout
        of)"""
        return next(f for f in self.layout(reg) if f.name == name)

    def extract(self, reg, name, val):
        f = self.field(reg, name)
        return (val & f.mask) >> f.shift

    def const(self, name, default=None):
        return self.consts.get(name, default)

    def group(self, prefix):
        """{value: suffix} of the constants named prefix*"""
        return {v: n[len(prefix):] for n, v in self.consts.items()
                if n.startswith(prefix)}


def pci_regs():
    """Names of the PCI type-0 configuration header (QEMU's copy of Linux's
    pci_regs.h) and the bits of COMMAND and STATUS: ({off: name},
    {name: {bit: bitname}})."""
    cands = glob.glob(os.path.join(TOP, "build/src/qemu-*/include/"
                                   "standard-headers/linux/pci_regs.h"))
    names, bits = {}, {"PCI_COMMAND": {}, "PCI_STATUS": {}}
    if not cands:
        return names, bits
    d = re.compile(r"^#define\s+(PCI_\w+)\s+(0x[0-9a-fA-F]+|\d+)\b")
    with open(sorted(cands)[-1]) as f:
        for line in f:
            if "Header type 1" in line:
                break
            m = d.match(line)
            if not m:
                continue
            n, v = m.group(1), int(m.group(2), 0)
            for reg in bits:
                if n.startswith(reg + "_") and v and not v & (v - 1):
                    bits[reg][v] = n[len(reg) + 1:]
                    break
            else:
                if v < 0x40 and v not in names and not n.endswith("_MASK") \
                        and "_SPACE" not in n and "_TYPE_" not in n:
                    names[v] = n[4:]
    return names, bits


# ---------------------------------------------------------------------------
# phases: what the driver does, and which kernel function does it

PHASES = collections.OrderedDict([
    ("pci", ("PCI probe",
             "the PCI core reads the configuration header, bcma's PCI driver "
             "enables the function and points BAR0's window at a core",
             [("pci_setup_device", "drivers/pci/probe.c"),
              ("bcma_host_pci_probe", "drivers/bcma/host_pci.c")])),
    ("enum", ("bcma enumeration",
              "ChipCommon's ID register, then the EROM: the table of the "
              "backplane's cores, their ports and address regions",
              [("bcma_detect_chip", "drivers/bcma/scan.c"),
               ("bcma_bus_scan", "drivers/bcma/scan.c"),
               ("bcma_get_next_core", "drivers/bcma/scan.c")])),
    ("sprom", ("SPROM",
               "the card's configuration EEPROM through ChipCommon: MAC "
               "address, board flags, power tables",
               [("bcma_sprom_get", "drivers/bcma/sprom.c")])),
    ("cc", ("ChipCommon and PMU",
            "clocks, PLL and chip control through the power management unit",
            [("bcma_core_chipcommon_init", "drivers/bcma/driver_chipcommon.c"),
             ("bcma_pmu_init", "drivers/bcma/driver_chipcommon_pmu.c")])),
    ("pcie", ("PCIe core",
              "the host bridge core: SerDes workarounds over MDIO, the "
              "interrupt routing of config register 0x94",
              [("bcma_core_pci_init", "drivers/bcma/driver_pci.c"),
               ("bcma_host_pci_irq_ctl", "drivers/bcma/host_pci.c")])),
    ("reset", ("core reset",
               "the core's agent (wrapper): clock on, reset released, PHY "
               "clock and reset bits of IOCTL",
               [("bcma_core_enable", "drivers/bcma/core.c"),
                ("b43_bcma_wireless_core_reset",
                 "drivers/net/wireless/broadcom/b43/main.c")])),
    ("fwup", ("firmware upload",
              "the PSM is held at instruction 0 and the microcode is "
              "written word by word into its memory",
              [("b43_upload_microcode",
                "drivers/net/wireless/broadcom/b43/main.c")])),
    ("psm", ("PSM start",
             "the PSM runs; the firmware signals MAC_SUSPENDED and b43 "
             "reads its revision from shared memory",
             [("b43_upload_microcode",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("mac", ("MAC core init",
             "initial values, GPIOs, rate tables, MAC address filter, "
             "suspend/enable around changes",
             [("b43_chip_init", "drivers/net/wireless/broadcom/b43/main.c"),
              ("b43_wireless_core_init",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("phy", ("PHY and radio init",
             "the HT-PHY's registers and tables and the BCM2059 radio "
             "through the PHY and radio windows",
             [("b43_phy_init",
               "drivers/net/wireless/broadcom/b43/phy_common.c"),
              ("b43_phy_ht_op_init",
               "drivers/net/wireless/broadcom/b43/phy_ht.c")])),
    ("chan", ("channel switch",
              "radio PLL and PHY band registers for a new channel",
              [("b43_switch_channel",
                "drivers/net/wireless/broadcom/b43/phy_common.c"),
               ("b43_phy_ht_op_switch_channel",
                "drivers/net/wireless/broadcom/b43/phy_ht.c")])),
    ("dma", ("DMA rings",
             "descriptor rings: ring address, control, index of the last "
             "descriptor the card may use",
             [("b43_dma_init", "drivers/net/wireless/broadcom/b43/dma.c"),
              ("b43_setup_dmaring",
               "drivers/net/wireless/broadcom/b43/dma.c")])),
    ("scan", ("scan",
              "mac80211's software scan: a channel switch and probe "
              "requests per channel, beacons and probe responses received",
              [("ieee80211_scan_work", "net/mac80211/scan.c"),
               ("b43_op_config", "drivers/net/wireless/broadcom/b43/main.c")])),
    ("assoc", ("authentication and association",
               "management frames with the AP, the BSSID in the MAC, "
               "then the 4-way handshake's EAPOL frames",
               [("ieee80211_mgd_auth", "net/mac80211/mlme.c"),
                ("ieee80211_mgd_assoc", "net/mac80211/mlme.c"),
                ("b43_op_bss_info_changed",
                 "drivers/net/wireless/broadcom/b43/main.c")])),
    ("key", ("key install",
             "the key table in shared memory: key bytes, and per slot its "
             "algorithm",
             [("b43_op_set_key", "drivers/net/wireless/broadcom/b43/main.c"),
              ("do_key_write", "drivers/net/wireless/broadcom/b43/main.c")])),
    ("data", ("data frames",
              "TX: descriptors, TXINDEX, TX status; RX: the engine fills "
              "buffers, b43 reads RXSTATUS and returns them with RXINDEX",
              [("b43_dma_tx", "drivers/net/wireless/broadcom/b43/dma.c"),
               ("b43_dma_rx", "drivers/net/wireless/broadcom/b43/dma.c"),
               ("b43_handle_txstatus",
                "drivers/net/wireless/broadcom/b43/xmit.c")])),
    ("irq", ("interrupts",
             "the line rises; b43 reads and acknowledges GEN_IRQ_REASON and "
             "the DMA engines' reasons",
             [("b43_interrupt_handler",
               "drivers/net/wireless/broadcom/b43/main.c"),
              ("b43_do_interrupt_thread",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("air", ("on the air",
             "frames on the simulated medium and what the access point did",
             [])),
])

# a step's marker name -> phases that take another name in it.  Once the
# PHY is initialised, PHY and radio accesses are channel switches; a scan
# is channel switches, probe requests and what comes back; wpa_supplicant
# scans before it authenticates ("connect" until the first auth frame).
SCAN = {p: "scan" for p in ("chan", "data", "air", "phy", "mac", "irq", "cc",
                            "reset")}
STAGE_PHASE = {
    "scan": SCAN,
    "connect": SCAN,
    "connect/auth": {"data": "assoc", "air": "assoc", "phy": "chan"},
    "dhcp": {"phy": "chan"},
    "ping": {"phy": "chan"},
}


# ---------------------------------------------------------------------------
# the trace

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
# the access point's events: a block cut at --lines still shows them.  The
# AP hears a frame on QEMU's main loop (a virtual-clock timer) while the
# vCPU thread runs the driver's interrupt handler for the same frame's TX
# status; which of the two the trace shows first is up to the host's
# scheduler (on a loaded host the handler's 20-odd accesses come first)
LANDMARKS = {"wifi_ap_auth", "wifi_ap_assoc", "wifi_ap_wpa", "wifi_ap_deauth",
             "wifi_ap_disassoc"}
# model events shown as they are, and the phase they belong to
EVENT_PHASE = {
    "bcm4331_bcma_window": "pci", "bcm4331_bcma_core_reset": "reset",
    "bcm4331_bcma_core_ioctl": None, "bcm4331_bcma_pll_update": "cc",
    "bcm4331_bcma_mdio": "pcie", "bcm4331_bcma_sprom": "sprom",
    "bcm4331_d11_core_reset": "reset",
    "bcm4331_fw_ucode_upload_start": "fwup", "bcm4331_fw_boot": "psm",
    "bcm4331_fw_no_ucode": "psm", "bcm4331_fw_stop": "mac",
    "bcm4331_fw_suspend": "mac", "bcm4331_fw_enable": "mac",
    "bcm4331_fw_beacon": "data", "bcm4331_phy_tune": "chan",
    "bcm4331_phy_radio_power": "phy", "bcm4331_d11_rcm": "mac",
    "bcm4331_d11_gpio": "mac", "bcm4331_d11_tsf_write": "mac",
    "bcm4331_d11_dma_ctl": "dma", "bcm4331_d11_rfkill": "mac",
    "bcm4331_dma_desc": "data", "bcm4331_tx": "data",
    "bcm4331_txstat": "data", "bcm4331_tx_index": "data",
    "bcm4331_tx_wait": "data", "bcm4331_rx": "data",
    "bcm4331_rx_drop": "data", "bcm4331_key_tx": "data",
    "bcm4331_key_rx": "data", "bcm4331_dma_error": "data",
    "bcm4331_dma_unplugged": "data",
}
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


class Explainer:
    def __init__(self, regs=None):
        self.regs = regs or RegDefs(HEADERS)
        self.pci_names, self.pci_bits = pci_regs()
        r = self.regs
        self.shm_routing = {r.const("D11_SHM_" + n): n for n in
                            ("UCODE", "SHARED", "SCRATCH", "HW", "RCMTA")
                            if r.const("D11_SHM_" + n) is not None}
        self.shm_shared = r.group("D11_SHM_SH_")
        self.shm_scratch = r.group("D11_SHM_SC_")
        self.keyalg = r.group("D11_KEYALG_")
        self.phy_names = {v: n[len("HTPHY_"):] for n, v in r.offset.items()
                          if n.startswith("HTPHY_")}
        self.radio_names = {v: n for v, n in r.group("R2059_").items()
                            if n.endswith(("STATUS", "DONE"))}
        self.erom_types = r.group("BCMA_EROM_ADDR_TYPE_")
        self.pci_vendor = r.group("BCMA_PCI_")
        self.last = {}                  # register -> last value written
        self.erom_role = {}             # EROM address -> "CIA" / "CIB"
        self.stages = []
        self.events = 0
        self.shmctl = 0                 # SHM_CONTROL as last written
        self.last_shm = None            # the last SHM access

    # -- parsing -----------------------------------------------------------

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

    def _access(self, ev, args):
        r = self.regs
        m = RE.get(ev, None)
        m = m.match(args) if m else None
        if ev in ("bcm4331_bcma_read", "bcm4331_bcma_write") and m:
            core, name, addr, val = m.group(1), m.group(2), \
                int(m.group(3), 16), int(m.group(4), 16)
            return [Access("bcma", "R" if ev.endswith("read") else "W",
                           core, name, addr, val)]
        if ev in ("bcm4331_d11_read", "bcm4331_d11_write") and m:
            name, off, val = m.group(1), int(m.group(2), 16), \
                int(m.group(3), 16)
            a = Access("d11", "R" if ev.endswith("read") else "W",
                       "D11", name, off, val)
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
        if ev in ("bcm4331_d11_shm_read", "bcm4331_d11_shm_write") and m:
            routing, word, val = int(m.group(1)), int(m.group(2), 16), \
                int(m.group(3), 16)
            block = "SHM " + self.shm_routing.get(routing, str(routing))
            if routing in (r.const("D11_SHM_SHARED"),
                           r.const("D11_SHM_UCODE")):
                byte = word * 4
                if ev.endswith("write") and m.group(4) == "ffff0000":
                    byte += 2
                    val >>= 16
            else:
                byte = word
            a = Access("shm", "R" if ev.endswith("read") else "W", block,
                       self._shm_name(block, byte), byte, val)
            a.key = ("shm", a.rw, block, None, None)
            self.last_shm = a
            return [a]
        if ev in ("bcm4331_phy_read", "bcm4331_phy_write") and m:
            reg, val = int(m.group(1), 16), int(m.group(2), 16)
            return [Access("phy", "R" if ev.endswith("read") else "W",
                           "PHY", self.phy_names.get(reg, ""), reg, val)]
        if ev in ("bcm4331_radio_read", "bcm4331_radio_write") and m:
            core, reg, val = int(m.group(1)), int(m.group(2), 16), \
                int(m.group(3), 16)
            return [Access("radio", "R" if ev.endswith("read") else "W",
                           "radio core %d" % core,
                           self.radio_names.get(reg, ""), reg, val)]
        if ev in ("pci_cfg_read", "pci_cfg_write") and m:
            if not m.group(1).startswith("bcm4331"):
                return []
            off, val = int(m.group(2), 16), int(m.group(3), 16)
            w = ev.endswith("write")
            if w and off >= 0x40:
                return []   # bcm4331_pci_cfg_write names it (below)
            name = self.pci_names.get(off) or self.pci_vendor.get(off) or \
                ("capability" if off >= 0x40 else "")
            return [Access("cfg", "W" if w else "R", "PCI config", name,
                           off, val)]
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

    # -- phases ------------------------------------------------------------

    def classify(self):
        mode = None                     # fwup / psm, from the model's events
        for st in self.stages:
            remap = STAGE_PHASE.get(st.name, {})
            for k, a in enumerate(st.accesses):
                p = self._phase(a, mode)
                if st.name == "connect" and a.name == "wifi_ap_rx" and \
                        "subtype 11 " in a.text and \
                        remap is not STAGE_PHASE["connect/auth"]:
                    # the AP heard an authentication frame: the card sent
                    # it since b43's last TXINDEX write; that, the frame's
                    # way out and its TX status belong to the association
                    remap = STAGE_PHASE["connect/auth"]
                    for j in range(k - 1, -1, -1):
                        b = st.accesses[j]
                        if b.name == "bcm4331_phy_tune":
                            break
                        if b.kind == "d11" and b.name == "DMA_TXINDEX":
                            for c in st.accesses[j:k]:
                                c.phase = "assoc"
                            break
                if a.kind == "event" and a.name == \
                        "bcm4331_fw_ucode_upload_start":
                    mode = "fwup"
                elif a.kind == "event" and a.name in ("bcm4331_fw_boot",
                                                      "bcm4331_fw_no_ucode"):
                    mode = "psm"
                elif mode == "psm" and p not in ("psm", "irq", None) and \
                        not a.hidden:
                    mode = None
                if p == "fwup" and mode == "psm":
                    p = "psm"
                a.phase = remap.get(p, p)
            # an access without a phase of its own (window moves, generic
            # events) joins the phase of the next one that has one
            nxt = "mac"
            for a in reversed(st.accesses):
                if a.phase is None:
                    a.phase = nxt
                else:
                    nxt = a.phase
            self._smooth(st)
            # the interrupt line and the air go on beside the driver's
            # work: their lines stay where they happen, in the phase block
            # around them, unless the step gives them a phase
            cur = None
            for a in st.accesses:
                if a.kind == "event" and a.phase in ("air", "irq") and \
                        a.block in ("air", "irq") and cur is not None:
                    a.phase = cur
                elif not a.hidden:
                    cur = a.phase

    # phases a driver step touches in passing: a short run of one of them
    # between two runs of the same other phase belongs to that phase (the
    # PHY code suspends the MAC, the firmware upload waits for an interrupt)
    MINOR = {"mac", "cc", "reset", "irq", "air", "pci"}
    SHORT = 12

    def _smooth(self, st):
        vis = [a for a in st.accesses if not a.hidden]
        runs = []
        for a in vis:
            if runs and runs[-1][0] == a.phase:
                runs[-1][1].append(a)
            else:
                runs.append((a.phase, [a]))
        # a stretch of minor runs, short in all, between two runs of one
        # major phase
        k = 0
        while k < len(runs):
            if runs[k][0] in self.MINOR or k == 0:
                k += 1
                continue
            j = k + 1
            n = 0
            while j < len(runs) and runs[j][0] in self.MINOR:
                n += len(runs[j][1])
                j += 1
            if j < len(runs) and j > k + 1 and runs[j][0] == runs[k][0] \
                    and n <= self.SHORT:
                for ph, accs in runs[k + 1:j]:
                    for a in accs:
                        a.phase = runs[k][0]
            k = j if j > k + 1 else k + 1

    def _phase(self, a, mode):
        n = a.name or ""
        if a.kind == "cfg":
            if a.addr in (0x80, 0xac) or n.startswith("BAR0_WIN"):
                return None
            if a.addr == 0x94 or n == "IRQMASK":
                return "pcie"
            return "pci"
        if a.kind == "bcma":
            if a.block == "EROM" or n in ("CC_ID", "CC_CAP", "CC_EROM",
                                          "CC_CAP_EXT"):
                return "enum"
            if n in ("CC_SPROM", "CC_SROM_CONTROL", "CC_CHIPSTAT",
                     "PCIE_SPROM_SHADOW"):
                return "sprom"
            if n.startswith("AI_"):
                return "reset"
            if a.block == "PCIe":
                return "pcie"
            return "cc"
        if a.kind == "d11":
            if n in ("GEN_IRQ_REASON", "DMA_REASON") or \
                    (n == "GEN_IRQ_MASK" and mode is None):
                return "irq"
            if n.startswith("DMA_"):
                if n.endswith(("RINGLO", "RINGHI", "CTL", "IRQ_MASK")):
                    return "dma"
                return "data"
            if n.startswith("XMITSTAT"):
                return "data"
            if mode in ("fwup", "psm") and n in ("MACCTL", "GEN_IRQ_MASK"):
                return mode
            return "mac"
        if a.kind == "shm":
            if a.block == "SHM ucode":
                return "fwup"
            if n.startswith("key ") or n.startswith("KEYIDXBLOCK"):
                return "key"
            if mode == "psm" and a.rw == "R":
                return "psm"
            return "mac"
        if a.kind in ("phy", "radio"):
            return "phy"
        if a.kind == "event":
            if a.block == "irq":
                return "irq"
            if a.block == "air":
                if a.name in ("wifi_ap_auth", "wifi_ap_assoc", "wifi_ap_wpa",
                              "wifi_ap_deauth", "wifi_ap_disassoc"):
                    return "assoc"
                return "air"
            return EVENT_PHASE.get(a.name)
        return None

    # -- rendering ---------------------------------------------------------

    def describe(self, a):
        """(what, decoded) of an access line"""
        r = self.regs
        arrow = "->" if a.rw == "R" else "<-"
        if a.kind == "event":
            short = a.name.replace("bcm4331_", "").replace("wifi_", "")
            dec = ""
            m = re.search(r"ctl0 0x([0-9a-f]+) ctl1 0x([0-9a-f]+)", a.text) \
                if a.name == "bcm4331_dma_desc" else None
            if m:
                c0, c1 = int(m.group(1), 16), int(m.group(2), 16)
                dec = "ctl0: %s; ctl1: %s" % (
                    r.decode(["D11_DESC_CTL0"], c0),
                    r.decode(["D11_DESC_CTL1"], c1))
            return "%-14s %s" % ("* " + short, a.text), dec
        if a.kind == "cfg":
            what = "PCI config %-18s [0x%02x] %s 0x%x" % (
                a.name, a.addr, arrow, a.val)
            dec = ""
            if a.name in ("COMMAND", "STATUS"):
                bits = self.pci_bits.get("PCI_" + a.name, {})
                dec = " ".join(bits[b] for b in sorted(bits) if a.val & b)
            elif a.name == "VENDOR_ID":
                dec = "vendor 0x%04x device 0x%04x" % (a.val & 0xffff,
                                                       a.val >> 16) \
                    if a.val > 0xffff else ""
            return what, dec
        if a.kind == "bcma":
            what = "%-10s %-20s [0x%08x] %s 0x%x" % (a.block, a.name, a.addr,
                                                     arrow, a.val)
            if a.block == "EROM":
                return what, self.erom(a.addr, a.val)
            names = ["CLKCTLST"] if a.name == "D11_CLKCTLST" else [a.name]
            return what, r.decode(names, a.val, a.old)
        if a.kind == "d11":
            what = "D11 %-18s [0x%03x] %s 0x%x" % (a.name, a.addr, arrow,
                                                   a.val)
            names = ["D11_" + a.name, a.name]
            if a.name.startswith("DMA_") and a.addr >= 0x200:
                base = r.const("D11_DMA_BASE", 0x200)
                eng = (a.addr - base) // 0x40
                reg = a.name[4:]
                names = ["D11_DMA64_" + reg]
                what = "D11 DMA%d %-14s [0x%03x] %s 0x%x" % (eng, reg, a.addr,
                                                             arrow, a.val)
            elif a.name in ("DMA_REASON", "DMA_IRQ_MASK"):
                eng = (a.addr - 0x20) // 8
                names = ["D11_" + a.name]
                what = "D11 DMA%d %-14s [0x%03x] %s 0x%x" % (
                    eng, a.name[4:], a.addr, arrow, a.val)
            dec = r.decode(names, a.val, a.old)
            if a.name.endswith("STATUS") and a.name.startswith("DMA_"):
                cd = r.extract("D11_DMA64_TXSTATUS", "CURRDSCR", a.val)
                dec += "  (descriptor %d)" % (cd // r.const("D11_DESC_SIZE",
                                                           16))
            return what, dec
        if a.kind == "shm":
            if a.block == "SHM ucode":
                return "SHM ucode %-16s %s 0x%x" % ("(next word)", arrow,
                                                    a.val), ""
            loc = "0x%04x" % a.addr if a.addr is not None else ""
            return "%-10s %-22s %-7s %s 0x%x" % (a.block, a.name, loc, arrow,
                                                 a.val), \
                self._shm_decode(a)
        if a.kind == "phy":
            return "PHY   %-16s [0x%03x] %s 0x%04x" % (a.name, a.addr, arrow,
                                                       a.val), ""
        if a.kind == "radio":
            # core R2059_CORES addresses all cores at once (broadcast)
            core = a.block.split()[-1]
            if core == str(r.const("R2059_CORES", 3)):
                core = "all"
            return "radio %-16s core %s reg 0x%03x %s 0x%04x" % (
                a.name, core, a.addr, arrow, a.val), ""
        return a.name, ""

    def regs_delta(self, a, z):
        """what changed between two reads of one register: 'set X'"""
        names = {"d11": ["D11_" + a.name], "bcma": [a.name]}.get(a.kind)
        if not names:
            return ""
        d = self.regs.decode(names, z.val, a.val)
        return d[d.index("[") + 1:-1] if "[" in d else d

    def _shm_decode(self, a):
        if a.name.startswith("KEYIDXBLOCK"):
            alg = a.val & 0xf
            return "slot %d, algorithm %s" % (a.val >> 4,
                                              self.keyalg.get(alg, alg))
        if a.phase == "psm" and a.rw == "R":
            # what b43_upload_microcode() prints: "Loading firmware
            # version 784.2 (2012-08-15 21:35:19)"
            if a.name == "UCODEREV":
                return "firmware revision %d" % a.val
            if a.name == "UCODEPATCH":
                return "patch level %d" % a.val
            if a.name == "UCODEDATE":
                return "date 20%02d-%02d-%02d" % (
                    (a.val >> 12) & 0xf, (a.val >> 8) & 0xf, a.val & 0xff)
            if a.name == "UCODETIME":
                return "time %02d:%02d:%02d" % (
                    (a.val >> 11) & 0x1f, (a.val >> 5) & 0x3f,
                    a.val & 0x1f)
        return ""

    def erom(self, addr, v):
        """decode one EROM entry with the device's BCMA_EROM_* fields;
        component identifiers come in pairs, A then B (_remember())"""
        r = self.regs
        if v == r.const("BCMA_EROM_END"):
            return "END of the table"
        if not v & 1:
            return "(not valid)"
        t = r.extract("BCMA_EROM", "TAG", v)
        body = v & ~0xf
        if t == r.const("BCMA_EROM_TAG_CI"):
            if self.erom_role.get(addr) == "CIB":
                return "component B: " + r.decode(["BCMA_EROM_CIB"], body)
            return "component A: " + r.decode(["BCMA_EROM_CIA"], body)
        if t == r.const("BCMA_EROM_TAG_MP"):
            return "master port " + r.decode(["BCMA_EROM_MP"], body)
        # bit 2 of the tag is AG32 (a 64-bit address follows): scan.c's
        # SCAN_ER_TAGX leaves it out when it looks for an address entry
        if t & 3 == r.const("BCMA_EROM_TAG_ADDR"):
            ty = r.extract("BCMA_EROM_ADDR", "TYPE", v)
            return "address region: %s at 0x%08x, port %d" % (
                self.erom_types.get(ty, ty),
                v & r.field("BCMA_EROM_ADDR", "BASE").mask,
                r.extract("BCMA_EROM_ADDR", "PORT", v))
        return ""


# ---------------------------------------------------------------------------
# the transcript: blocks of one phase, polling and runs collapsed


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
        j = i + 1
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
            if j - i >= 3:
                out.append(("table", accs[i:j]))
                i = j
                continue
            j = i + 1
        else:
            while j < n and accs[j].key == a.key:
                j += 1
        if j - i >= 3 or (j - i >= 2 and a.rw == "R" and a.kind != "shm"):
            out.append(("run", accs[i:j]))
            i = j
            continue
        # a pattern of 2..4 accesses repeated at least 3 times
        done = False
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
                out.append(("pattern", accs[i:i + reps * k], k))
                i += reps * k
                done = True
                break
        if not done:
            out.append(("one", a))
            i += 1
    return out


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
        ex = self.ex
        if g[0] == "one":
            what, dec = ex.describe(g[1])
            return (what, dec)
        accs = g[1]
        if g[0] == "table":
            a = accs[0]
            return ("%s %s: %s %d times at 0x%08x..0x%08x" % (
                a.block, a.name, "read" if a.rw == "R" else "wrote",
                len(accs), a.addr, accs[-1].addr), "")
        if g[0] == "run":
            a, z = accs[0], accs[-1]
            descs = [ex.describe(x) for x in accs]
            what, dec = descs[0]
            n = len(accs)
            if a.kind == "shm" and a.addr is not None:
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
            if a.kind == "shm":
                return ("%s: wrote %d words (%d bytes)" % (a.block, n, 4 * n),
                        "")
            if a.rw == "R":
                if a.val == z.val:
                    return ("%s   (read %d times, same value)" % (what, n),
                            dec)
                if n >= 3 and all(x.val == a.val for x in accs[:-1]):
                    # waiting for a change: a poll
                    return ("polled %s %d times until it read 0x%x" % (
                        self._reg(a), n, z.val),
                        ex.regs_delta(a, z) or descs[-1][1])
                vals = ", ".join("0x%x" % x.val for x in accs[:2]) + \
                    (", ... 0x%x" % z.val if n > 2 else "")
                return ("read %s %d times: %s" % (self._reg(a), n, vals),
                        "")
            if a.kind == "event":
                return ("%s   (x%d)" % (what, n), "")
            vals = [x.val for x in accs]
            if len(set(vals)) == 1:
                return ("%s   (written %d times)" % (what, n), dec)
            return ("wrote %s %d times: 0x%x, 0x%x, ... 0x%x" % (
                self._reg(a), n, vals[0], vals[1], vals[-1]),
                descs[-1][1])
        k = g[2]
        reps = len(accs) // k
        parts = [ex.describe(x)[0] for x in accs[:k]]
        return ("%d times: %s" % (reps, "  |  ".join(
            re.sub(r"\s+", " ", p) for p in parts)), "")

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


# ---------------------------------------------------------------------------
# a live run


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


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)      # | head
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


if __name__ == "__main__":
    sys.exit(main())
