#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate bcm4331-qemu's firmware stub files in b43's file format.

    firmware-stubs/gen-stubs.py [--out DIR] [--personality 784.2|666.2]

Writes DIR/b43/{ucode29_mimo,ht0initvals29,ht0bsinitvals29}.fw for b43 and
DIR/brcm/bcm43xx{,_hdr}-0.fw for brcmsmac (default DIR: build/firmware-stubs).
See firmware-stubs/README.md for what is in them.

b43's format (drivers/net/wireless/broadcom/b43/b43.h struct b43_fw_header,
main.c b43_do_request_fw):
    byte 0 type ('u' microcode, 'i' initvals), byte 1 version (1),
    bytes 2-3 padding, bytes 4-7 big-endian size: for 'u' the payload size
    in bytes, for 'i' the number of records; then the payload.
"""

import argparse
import os
import struct
import sys

# brcmsmac's format (drivers/net/wireless/broadcom/brcm80211/brcmsmac/
# mac80211_if.c struct firmware_hdr, brcms_check_firmwares(); ucode_loader.c):
# bcm43xx_hdr-0.fw is an array of little-endian {offset, len, idx} records,
# each naming a piece of bcm43xx-0.fw; the driver looks every idx of the
# enum in ucode_loader.c up and fails without one.  Microcode is uploaded
# as little-endian 32-bit words; initial values are little-endian
# {u16 addr, u16 size (2 or 4), u32 value} records ended by addr 0xffff.
BRCM_IDX = dict(
    NAMETAG_START=0,
    LCN0BSINITVALS24=1, LCN0INITVALS24=2, LCN1BSINITVALS24=3,
    LCN1INITVALS24=4, LCN2BSINITVALS24=5, LCN2INITVALS24=6,
    N0ABSINITVALS16=7, N0BSINITVALS16=8, N0INITVALS16=9,
    UCODE16_MIMO=10, UCODE16_MIMOSZ=11, UCODE24_LCN=12, UCODE24_LCNSZ=13,
    BOMMAJOR=14, BOMMINOR=15,
)
BRCM_MIN_FW_SIZE = 40000        # ucode_loader.h MIN_FW_SIZE
BRCM_MAX_FW_SIZE = 150000       # MAX_FW_SIZE
# the release linux-firmware (and Debian's firmware-brcm80211) carries
BRCM_BOM = (610, 812)

# Personalities: the firmware releases the device can claim to be.  b43
# prints "Loading firmware version REV.PATCH (20YY-MM-DD hh:mm:ss)" from
# the date/time words, decoded as in b43_upload_microcode().
PERSONALITIES = {
    # broadcom-wl-6.30.163.46, the firmware real BCM4331 logs show
    "784.2": dict(rev=784, patch=2, date=(12, 8, 15), time=(21, 35, 19)),
    # broadcom-wl-5.100.138
    "666.2": dict(rev=666, patch=2, date=(11, 2, 23), time=(1, 15, 7)),
}

# Microcode payload: what the device's firmware emulation reads from the
# upload (hw/net/bcm43xx/fw.c).  Big-endian 32-bit words.
FWCAPA = 0          # firmware capabilities word (SHM 0x0042); proprietary


def date_word(y, m, d):
    # b43 prints (date >> 12) & 0xF, (date >> 8) & 0xF, date & 0xFF
    assert 0 <= y <= 15 and 1 <= m <= 12 and 1 <= d <= 31
    return (y << 12) | (m << 8) | d


def time_word(h, mi, sec):
    # b43 prints (time >> 11) & 0x1F, (time >> 5) & 0x3F, time & 0x1F
    assert 0 <= h < 24 and 0 <= mi < 60 and 0 <= sec < 32
    return (h << 11) | (mi << 5) | sec


def stub_words(rev, patch, date, time, what=None):
    """The identity the device's firmware emulation reads from an upload
    (hw/net/bcm43xx/fw.c): 32-bit words "QEMU", "HLE1", rev << 16 | patch,
    date << 16 | time, FWCAPA, then a note."""
    words = [0x51454d55, 0x484c4531, (rev << 16) | patch,
             (date << 16) | time, FWCAPA]
    if what:
        note = (b"bcm4331-qemu firmware stub for %s: the device emulates "
                b"the microcode; this file carries only its identity." % what)
    else:
        note = (b"bcm4331-qemu firmware stub: the device emulates the "
                b"microcode; this file carries only its identity.")
    note += b"\0" * (-len(note) % 4)
    return words, note


def ucode(p):
    words, note = stub_words(p["rev"], p["patch"],
                             date_word(*p["date"]), time_word(*p["time"]))
    # b43 uploads big-endian words
    payload = struct.pack(">%dI" % len(words), *words) + note
    return struct.pack(">BBxxI", ord("u"), 1, len(payload)) + payload


def brcm_initvals(records):
    body = b""
    for addr, size, val in records:
        assert size in (2, 4) and 0 <= addr < 0x1000
        body += struct.pack("<HHI", addr, size, val)
    return body + struct.pack("<HHI", 0xffff, 0, 0)


def brcm_files():
    """bcm43xx-0.fw and bcm43xx_hdr-0.fw: microcode stubs for the N-PHY
    (core rev 17/23) and LCN-PHY (core rev 24) images, empty initial
    values, the BOM release; the name tag (idx 0, which the driver never
    looks up) holds a readable note and pads the file to MIN_FW_SIZE."""
    rev, patch = BRCM_BOM
    pieces = []
    for tag, what in (("UCODE16_MIMO", b"brcmsmac N-PHY (core rev 17/23)"),
                      ("UCODE24_LCN", b"brcmsmac LCN-PHY (core rev 24)")):
        words, note = stub_words(rev, patch, 0, 0, what)
        # brcmsmac uploads little-endian words: the device sees the same
        # word values as from b43's big-endian file
        image = struct.pack("<%dI" % len(words), *words) + note
        pieces.append((tag, image))
        pieces.append((tag + "SZ", struct.pack("<I", len(image))))
    for tag in ("LCN0BSINITVALS24", "LCN0INITVALS24", "LCN1BSINITVALS24",
                "LCN1INITVALS24", "LCN2BSINITVALS24", "LCN2INITVALS24",
                "N0ABSINITVALS16", "N0BSINITVALS16", "N0INITVALS16"):
        pieces.append((tag, brcm_initvals([])))
    pieces.append(("BOMMAJOR", struct.pack("<I", rev)))
    pieces.append(("BOMMINOR", struct.pack("<I", patch)))
    body = b""
    hdr = []
    for tag, data in pieces:
        hdr.append((len(body), len(data), BRCM_IDX[tag]))
        body += data + b"\0" * (-len(data) % 4)
    tagline = (b"bcm4331-qemu: firmware stub files for brcmsmac, generated "
               b"by firmware-stubs/gen-stubs.py; no Broadcom code. ")
    pad = max(BRCM_MIN_FW_SIZE - len(body), len(tagline))
    hdr.append((len(body), pad, BRCM_IDX["NAMETAG_START"]))
    body += (tagline * (pad // len(tagline) + 1))[:pad]
    assert BRCM_MIN_FW_SIZE <= len(body) <= BRCM_MAX_FW_SIZE
    return body, b"".join(struct.pack("<III", *h) for h in hdr)


def initvals(records):
    """records: (mmio offset, value, 32-bit?) written by b43 at chip init"""
    body = b""
    for off, val, wide in records:
        assert 0 <= off < 0x1000
        if wide:
            body += struct.pack(">HI", off | 0x8000, val)
        else:
            body += struct.pack(">HH", off, val)
    return struct.pack(">BBxxI", ord("i"), 1, len(records)) + body


# The emulated firmware needs no register defaults from initvals: every
# register the driver and the emulation rely on has its power-on value in
# the device model.  Both files are valid and empty.
INITVALS = []
BSINITVALS = []


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(top, "build",
                                                  "firmware-stubs"))
    ap.add_argument("--personality", default="784.2",
                    choices=sorted(PERSONALITIES))
    args = ap.parse_args()
    d = os.path.join(args.out, "b43")
    os.makedirs(d, exist_ok=True)
    files = {
        "ucode29_mimo.fw": ucode(PERSONALITIES[args.personality]),
        "ht0initvals29.fw": initvals(INITVALS),
        "ht0bsinitvals29.fw": initvals(BSINITVALS),
    }
    body, hdr = brcm_files()
    files = {os.path.join("b43", k): v for k, v in files.items()}
    files["brcm/bcm43xx-0.fw"] = body
    files["brcm/bcm43xx_hdr-0.fw"] = hdr
    os.makedirs(os.path.join(args.out, "brcm"), exist_ok=True)
    for name, data in files.items():
        path = os.path.join(args.out, name)
        if os.path.exists(path) and open(path, "rb").read() == data:
            continue
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        print("gen-stubs: %s (%d bytes)" % (path, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
