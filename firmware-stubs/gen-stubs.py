#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate bcm4331-qemu's firmware stub files in b43's file format.

    firmware-stubs/gen-stubs.py [--out DIR] [--personality 784.2|666.2]

Writes DIR/b43/{ucode29_mimo,ht0initvals29,ht0bsinitvals29}.fw (default DIR:
build/firmware-stubs).  See firmware-stubs/README.md for what is in them.

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
# upload (hw/net/bcm4331/fw.c).  Big-endian 32-bit words.
MAGIC = b"QEMUHLE1"
FWCAPA = 0          # firmware capabilities word (SHM 0x0042); proprietary


def date_word(y, m, d):
    # b43 prints (date >> 12) & 0xF, (date >> 8) & 0xF, date & 0xFF
    assert 0 <= y <= 15 and 1 <= m <= 12 and 1 <= d <= 31
    return (y << 12) | (m << 8) | d


def time_word(h, mi, sec):
    # b43 prints (time >> 11) & 0x1F, (time >> 5) & 0x3F, time & 0x1F
    assert 0 <= h < 24 and 0 <= mi < 60 and 0 <= sec < 32
    return (h << 11) | (mi << 5) | sec


def ucode(p):
    payload = MAGIC
    payload += struct.pack(">HH", p["rev"], p["patch"])
    payload += struct.pack(">HH", date_word(*p["date"]), time_word(*p["time"]))
    payload += struct.pack(">I", FWCAPA)
    # a readable note for whoever hexdumps the file; padded to 32 bits
    note = (b"bcm4331-qemu firmware stub: the device emulates the microcode; "
            b"this file carries only its identity.")
    note += b"\0" * (-len(note) % 4)
    payload += note
    return struct.pack(">BBxxI", ord("u"), 1, len(payload)) + payload


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
    for name, data in files.items():
        path = os.path.join(d, name)
        if os.path.exists(path) and open(path, "rb").read() == data:
            continue
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        print("gen-stubs: %s (%d bytes)" % (path, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
