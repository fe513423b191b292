# SPDX-License-Identifier: GPL-2.0-or-later
"""The device's register definitions, parsed from its headers
(hw/net/bcm43xx/*.h: REG32/FIELD, not copied), and the names of the PCI
configuration header (QEMU's pci_regs.h)."""

import collections
import glob
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
HEADERS = [os.path.join(TOP, "hw/net/bcm43xx", h)
           for h in ("bcma-regs.h", "d11-regs.h")]


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
            ch = self._changes(fl, old, val)
            if ch:
                out += "   [" + ", ".join(ch) + "]"
        return out

    @staticmethod
    def _changes(fl, old, val):
        """what changed from @old to @val in the fields @fl: 'set A',
        'B 1->3', the first four and a count of the others"""
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
        return ch

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
