# SPDX-License-Identifier: GPL-2.0-or-later
"""One access line in words: the register and its value decoded into the
fields of the device's headers."""

import re


class Decoder:
    """(what, decoded) of the lines of a trace read with @regs; @erom_role:
    the EROM entries' places in their component identifier pairs
    (Reader.erom_role, filled as the trace is read)"""

    def __init__(self, regs, pci_bits, erom_role):
        self.regs, self.pci_bits, self.erom_role = regs, pci_bits, erom_role
        self.keyalg = regs.group("D11_KEYALG_")
        self.erom_types = regs.group("BCMA_EROM_ADDR_TYPE_")

    KINDS = ("event", "cfg", "bcma", "d11", "shm", "phy", "radio")

    def describe(self, a):
        """(what, decoded) of an access line"""
        if a.kind in self.KINDS:
            arrow = "->" if a.rw == "R" else "<-"
            return getattr(self, "_" + a.kind)(a, arrow)
        return a.name, ""

    def _event(self, a, arrow):
        r = self.regs
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

    def _cfg(self, a, arrow):
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

    def _bcma(self, a, arrow):
        what = "%-10s %-20s [0x%08x] %s 0x%x" % (a.block, a.name, a.addr,
                                                 arrow, a.val)
        if a.block == "EROM":
            return what, self.erom(a.addr, a.val)
        names = ["CLKCTLST"] if a.name == "D11_CLKCTLST" else [a.name]
        return what, self.regs.decode(names, a.val, a.old)

    def _d11(self, a, arrow):
        r = self.regs
        what = "D11 %-18s [0x%03x] %s 0x%x" % (a.name, a.addr, arrow, a.val)
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
            dec += "  (descriptor %d)" % (cd // r.const("D11_DESC_SIZE", 16))
        return what, dec

    def _shm(self, a, arrow):
        if a.block == "SHM ucode":
            return "SHM ucode %-16s %s 0x%x" % ("(next word)", arrow,
                                                a.val), ""
        loc = "0x%04x" % a.addr if a.addr is not None else ""
        return "%-10s %-22s %-7s %s 0x%x" % (a.block, a.name, loc, arrow,
                                             a.val), \
            self._shm_decode(a)

    def _phy(self, a, arrow):
        return "PHY   %-16s [0x%03x] %s 0x%04x" % (a.name, a.addr, arrow,
                                                   a.val), ""

    def _radio(self, a, arrow):
        # core R2059_CORES addresses all cores at once (broadcast)
        core = a.block.split()[-1]
        if core == str(self.regs.const("R2059_CORES", 3)):
            core = "all"
        return "radio %-16s core %s reg 0x%03x %s 0x%04x" % (
            a.name, core, a.addr, arrow, a.val), ""

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
