#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/air-plot.py (TAP): its airtime is the medium's
(the vectors of tests/unit/test-airtime.c, which tests
net/wifi/airtime.c), and its radiotap reader takes a header with an
extended presence bitmap and a TSFT field (a foreign pcap)."""

import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytap import Tap, load_script  # noqa: E402

ap = load_script("air-plot.py", "air_plot")
check = Tap()


# (bytes, rate in 500 kb/s, ofdm, short preamble) -> us, test-airtime.c
for args, us in (((1500, 108, True, False), 250),
                 ((1500, 12, True, False), 20 + 4 * 501 + 6),
                 ((14, 48, True, False), 34),
                 ((1500, 108, True, True), 250),
                 ((1500, 22, False, False), 1283),
                 ((1500, 22, False, True), 1187),
                 ((14, 2, False, False), 304),
                 ((1, 11, False, False), 192 + 2),
                 ((1536, 108, True, False), 254)):
    check(ap.airtime_us(*args) == us, "airtime%s = %d us" % (args, us))


def pcap_with(rt):
    """a pcap of one data frame from 02:..:01 to 02:..:02 behind @rt"""
    frame = bytes([0x08, 0x08, 0, 0]) + bytes.fromhex("020000000002") + \
        bytes.fromhex("020000000001") * 2 + b"\0\0" + b"x" * 20
    pkt = rt + frame
    return struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 127) + \
        struct.pack("<IIII", 5, 250000, len(pkt), len(pkt)) + pkt


# presence: TSFT, flags, rate, channel, signal + an extended bitmap word
rt = struct.pack("<BBHII", 0, 0, 0, (1 << 0) | (1 << 1) | (1 << 2) |
                 (1 << 3) | (1 << 5) | (1 << 31), 0)
rt += struct.pack("<Q", 123456)                 # TSFT, 8-aligned at 12 -> 16
rt = rt[:12] + b"\0" * 4 + rt[12:]
rt += bytes([0x02, 108]) + struct.pack("<HH", 2437, 0x00c0) + \
    struct.pack("b", -55)
rt = rt[:2] + struct.pack("<H", len(rt)) + rt[4:]
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "x.pcap")
    with open(p, "wb") as f:
        f.write(pcap_with(rt))
    frames = ap.read_pcap(p)
check(len(frames) == 1, "one frame read")
if frames:
    fr = frames[0]
    check(fr.ta == "02:00:00:00:00:01" and fr.ra == "02:00:00:00:00:02",
          "addresses")
    check(fr.rate == 108 and fr.ofdm and fr.signal == -55,
          "rate, OFDM, signal past TSFT and the extended bitmap")
    check(fr.kind == "data" and fr.retry and not fr.bad,
          "a retransmitted data frame")
    check(abs(fr.t - 5.25) < 1e-9, "its time")
    check(fr.len == 44 + 4, "its length with the FCS the pcap lacks")



def pcap_of(frames):
    """a pcap of 802.11 @frames behind a radiotap header with only flags"""
    out = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 127)
    hdr = struct.pack("<BBHIB", 0, 0, 9, 1 << 1, 0)
    for k, f in enumerate(frames):
        out += struct.pack("<IIII", 1, 1000 * k, len(hdr) + len(f),
                           len(hdr) + len(f)) + hdr + f
    return out


def addr(n):
    return bytes.fromhex("0200000000%02x" % n)


def data(ra, ta):
    return bytes([0x08, 0, 0, 0]) + ra + ta + ta + b"\0\0" + b"x" * 8


def ctl(subtype, ra, ta=None):
    return bytes([0x04 | subtype << 4, 0, 0, 0]) + ra + (ta or b"")


BCAST = b"\xff" * 6
# a data frame 1a -> 1b, then 1a's broadcast, then the ACK of the data
# frame (late, as a remote ACK on an air shared by processes can be);
# an RTS 1a -> 1c and its CTS; a CTS-to-self of 1b (1b sent no RTS)
seq = [data(addr(0x1b), addr(0x1a)), data(BCAST, addr(0x1a)),
       ctl(13, addr(0x1a)),
       ctl(11, addr(0x1c), addr(0x1a)), ctl(12, addr(0x1a)),
       data(addr(0x1a), addr(0x1b)), ctl(12, addr(0x1b))]
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "y.pcap")
    with open(p, "wb") as f:
        f.write(pcap_of(seq))
    frames = ap.read_pcap(p)
tas = [fr.ta for fr in frames]
check(len(frames) == 7, "seven frames read")
if len(frames) == 7:
    check(tas[2] == "02:00:00:00:00:1b",
          "a late ACK is the data frame's receiver's, not the broadcast's "
          "(%s)" % tas[2])
    check(tas[4] == "02:00:00:00:00:1c", "a CTS is the RTS's receiver's")
    check(tas[6] == "02:00:00:00:00:1b", "a CTS-to-self is its receiver's")

check.finish()
