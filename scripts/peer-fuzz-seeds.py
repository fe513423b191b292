#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
Seed inputs of the fuzz targets bcm4331-peer and bcm4331-peer-wpa2
(tests/qtest/fuzz/bcm4331_fuzz.c): what a station in another process sends
to the virtual AP (02:aa:00:00:00:01, SSID QEMU, channel 6) and to the card
(02:00:00:00:00:01), the card's own frames to the AP, clock steps, and a few
broken air headers.

    scripts/peer-fuzz-seeds.py OUTDIR

Record format: u8 kind, u8 flags, u16 length (LE), data (see the target).
"""

import os
import struct
import sys

PEER = bytes([2, 7, 7, 7, 7, 7])
CARD = bytes([2, 0, 0, 0, 0, 1])
BSSID = bytes([2, 0xaa, 0, 0, 0, 1])
BCAST = b"\xff" * 6
RSN = bytes([48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4,
             1, 0, 0x00, 0x0f, 0xac, 2, 0, 0])
RATES = bytes([1, 8, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24])


def rec(kind, flags=0, data=b"", length=None):
    return struct.pack("<BBH", kind, flags,
                       len(data) if length is None else length) + data


def peer(f, flags=0x01 | 0x70):         # OFDM 54 Mb/s
    return rec(0, flags, f)


def card(f, flags=0x01 | 0x02 | 0x70):  # ACK, OFDM 54 Mb/s
    return rec(5, flags, f)


def clock(us):
    return rec(2, 0, b"", us)


def hdr(fc, a1, a2, a3, seq=0, flags=0):
    return struct.pack("<BBH", fc, flags, 0) + a1 + a2 + a3 + \
        struct.pack("<H", seq << 4)


def auth(sta, seq=1):
    return hdr(0xb0, BSSID, sta, BSSID, seq) + struct.pack("<HHH", 0, 1, 0)


def assoc(sta, rsn=False, seq=2):
    body = struct.pack("<HH", 0x0411, 10) + bytes([0, 4]) + b"QEMU" + RATES
    return hdr(0x00, BSSID, sta, BSSID, seq) + body + (RSN if rsn else b"")


def probe(sta):
    return hdr(0x40, BCAST, sta, BCAST) + bytes([0, 4]) + b"QEMU" + RATES


def data_to_ap(sta, payload, ethertype=0x0800, protected=False):
    return hdr(0x08, BSSID, sta, BCAST, 5, 0x01 | (0x40 if protected else 0)) \
        + b"\xaa\xaa\x03\x00\x00\x00" + struct.pack(">H", ethertype) + payload


def dhcp_discover(mac):
    bootp = struct.pack(">BBBBIHH4s4s4s4s16s64s128s", 1, 1, 6, 0, 0x1234, 0,
                        0x8000, b"\0" * 4, b"\0" * 4, b"\0" * 4, b"\0" * 4,
                        mac + b"\0" * 10, b"", b"")
    opts = b"\x63\x82\x53\x63\x35\x01\x01\xff"
    udp_len = 8 + len(bootp) + len(opts)
    udp = struct.pack(">HHHH", 68, 67, udp_len, 0) + bootp + opts
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 0, 0, 64, 17, 0,
                     b"\0" * 4, b"\xff" * 4)
    return ip + udp


def arp_request(mac):
    return struct.pack(">HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, mac,
                       bytes([10, 0, 2, 15]), b"\0" * 6, bytes([10, 0, 2, 2]))


def eapol_msg2(sta, n):
    key = bytearray(95 + 22)
    key[0] = 2                                  # RSN descriptor
    struct.pack_into(">HH", key, 1, 0x010a, 16)
    key[13:45] = bytes((i * 37 + n) & 0xff for i in range(32))
    struct.pack_into(">H", key, 93, 22)
    key[95:] = RSN
    body = bytes([1, 3]) + struct.pack(">H", len(key)) + bytes(key)
    return data_to_ap(sta, body, 0x888e)


def mode(m):
    """the card's mode: 0 station, 1 AP, 2 monitor, 3 ad hoc"""
    return rec(6, m)


def key(slot, alg, k, flags=0x01):
    """a hardware key (alg: 1 WEP-40, 2 TKIP, 3 AES-CCMP, 5 WEP-104)"""
    return rec(7, flags, bytes([slot, alg]) + k)


TK = bytes(range(0x10, 0x20))


def eapol(msg4=False, mic_after=True, rsn=True, card=False, prot=False,
          qos=False, mask=b""):
    """kind 8: message 2 (or 4) of the 4-way handshake, made by the target
    with the ANonce it saw; @mask is XORed onto the EAPOL frame"""
    flags = ((0x01 if msg4 else 0) | (0x02 if mic_after else 0) |
             (0x04 if rsn else 0) | (0x08 if card else 0) |
             (0x10 if prot else 0) | (0x20 if qos else 0))
    return rec(8, flags, mask)


def wdata(body, da=BCAST, qos=False, replay=False, badkey=False, card=False,
          plain=False):
    """kind 9: a data frame protected with the station's PTK"""
    flags = ((0x01 if qos else 0) | (0x02 if replay else 0) |
             (0x04 if badkey else 0) | (0x08 if card else 0) |
             (0x10 if plain else 0))
    return rec(9, flags, da + body)


def llc(ethertype, payload):
    return b"\xaa\xaa\x03\x00\x00\x00" + struct.pack(">H", ethertype) + payload


def clocks(ms):
    """@ms milliseconds in steps of 50 ms (one record is at most 65 ms)"""
    return b"".join(clock(50000) for _ in range(ms // 50))


def mask_at(offset, data):
    """a mask that XORs @data at @offset of the EAPOL frame"""
    return bytes(offset) + data


def ccmp(f, pn, keyid=0, tk=TK):
    """f (a data frame, protected bit set) encrypted with CCMP (IEEE
    802.11-2016 12.5.3); the header stays in the clear.  Without Python's
    cryptography module the frame is sent with a wrong MIC"""
    hlen = 24
    h, body = bytearray(f[:hlen]), f[hlen:]
    hdr = bytes([pn & 0xff, (pn >> 8) & 0xff, 0, 0x20 | keyid << 6]) + \
        bytes((pn >> s) & 0xff for s in (16, 24, 32, 40))
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESCCM
    except ImportError:
        return bytes(h) + hdr + body + b"\0" * 8
    aad = bytes([h[0] & 0x8f, (h[1] & 0xc7) | 0x40]) + bytes(h[4:22]) + \
        bytes([h[22] & 0x0f, 0])
    nonce = bytes([0]) + bytes(h[10:16]) + \
        bytes((pn >> s) & 0xff for s in (40, 32, 24, 16, 8, 0))
    return bytes(h) + hdr + AESCCM(tk, tag_length=8).encrypt(nonce, body, aad)


def air_raw(version=1, hlen=48, flen=None, frame=b"", freq=2437, rate=108):
    flen = len(frame) if flen is None else flen
    h = struct.pack(">BBHQIbBHIq3iHH", version, 1, hlen, 0x77, freq, 10, 0,
                    rate, 100, 0, 0, 0, 0, flen, 0)
    return b"\xff" * 6 + PEER[:6] + b"\x88\xb5" + h + frame


def seeds():
    s = {}
    # a peer station joins the open AP and talks through it (DHCP, ARP)
    s["peer-join"] = (peer(probe(PEER)) + clock(2000) + peer(auth(PEER)) +
                      clock(2000) + peer(assoc(PEER)) + clock(2000) +
                      peer(data_to_ap(PEER, dhcp_discover(PEER))) +
                      clock(5000) +
                      peer(data_to_ap(PEER, arp_request(PEER), 0x0806)) +
                      clock(20000))
    # the card joins, a peer sends it frames (unicast, broadcast, bad FCS)
    s["card-join"] = (card(probe(CARD), 0x70 | 0x02) + clock(3000) +
                      card(auth(CARD)) + clock(3000) + card(assoc(CARD)) +
                      clock(3000) +
                      card(data_to_ap(CARD, dhcp_discover(CARD))) +
                      clock(10000) +
                      peer(hdr(0x08, CARD, PEER, PEER, 9, 0x02) + b"x" * 40) +
                      peer(hdr(0x08, BCAST, PEER, PEER, 10, 0x02) + b"y" * 60,
                           0x00) +
                      peer(hdr(0x08, CARD, PEER, PEER, 11) + b"z" * 30,
                           0x05 | 0x70) +
                      clock(50000))
    # a station over there (heard on the netdev): the card's unicast to it
    # counts as acknowledged and is kept; its ACK never comes: resent with
    # the retry bit every 40 ms, then given up
    s["card-arq"] = (peer(hdr(0x08, BCAST, PEER, PEER, 1) + b"h" * 30) +
                     card(hdr(0x08, PEER, CARD, PEER, 2) + b"u" * 60) +
                     card(hdr(0x08, PEER, CARD, PEER, 3) + b"v" * 10) +
                     b"".join(clock(50000) for _ in range(6)))
    # WPA2: associate with the RSN element, then hostile EAPOL-Key frames
    s["peer-eapol"] = (peer(auth(PEER)) + clock(2000) +
                       peer(assoc(PEER, rsn=True)) + clock(5000) +
                       b"".join(peer(eapol_msg2(PEER, n)) + clock(1000)
                                for n in range(3)) +
                       peer(data_to_ap(PEER, b"\0" * 40, protected=True)) +
                       clock(60000))
    # WPA2, the whole 4-way handshake: the target answers message 1 with a
    # message 2 over the AP's ANonce, message 3 with a message 4; then
    # protected data (group, replayed, wrong key, unprotected, QoS)
    join_rsn = (peer(auth(PEER)) + clock(3000) + peer(assoc(PEER, rsn=True)) +
                clock(8000))
    done = join_rsn + eapol() + clock(8000) + eapol(msg4=True) + clock(3000)
    arp = llc(0x0806, arp_request(PEER))
    s["wpa-handshake"] = (done + wdata(arp) + wdata(arp, replay=True) +
                          wdata(arp, badkey=True) + wdata(arp, plain=True) +
                          wdata(arp, qos=True) + wdata(b"\xaa\xaa") +
                          wdata(llc(0x888e, b"\x02\x03\x00\x00"),
                                da=BSSID) +
                          clock(20000))
    # the card joins too (its frames through the TX ring): the peer's
    # unicast to it goes out under the card's PTK
    s["wpa-two-stations"] = (done + card(auth(CARD)) + clock(3000) +
                             card(assoc(CARD, rsn=True)) + clock(8000) +
                             eapol(card=True) + clock(8000) +
                             eapol(msg4=True, card=True) + clock(3000) +
                             wdata(llc(0x0800, b"\x45" + bytes(39)), da=CARD) +
                             wdata(arp, card=True) + clock(20000))
    # message 2 with a bad MIC (the mask hits it): message 1 again every
    # second, then the handshake times out (deauthentication)
    s["wpa-bad-mic"] = (join_rsn +
                        eapol(mic_after=False, mask=mask_at(81, b"\x01")) +
                        clocks(1200) + eapol(mic_after=False,
                                             mask=mask_at(5, b"\x01")) +
                        clocks(4200))
    # valid MICs over mutated frames: key data length past the body, a
    # longer body, the replay counter, key info (ACK set, no MIC), then a
    # good message 2 answered by message 3 and a message 4 with a bad MIC,
    # one protected, and the handshake again (a second message 2)
    s["wpa-mutants"] = (join_rsn +
                        eapol(mask=mask_at(4 + 93, b"\x01")) +
                        eapol(mask=mask_at(2, b"\x01")) +
                        eapol(mask=mask_at(4 + 12, b"\x01")) +
                        eapol(mask=mask_at(4 + 1, b"\x00\x80")) +
                        eapol(mask=mask_at(4 + 1, b"\x01\x00")) +
                        eapol(mask=mask_at(0, b"\x01\x02")) +
                        eapol(rsn=False, mask=bytes(120) + b"\xdd\x01") +
                        eapol() + clock(8000) +
                        eapol(msg4=True, mic_after=False,
                              mask=mask_at(90, b"\x10")) +
                        eapol(msg4=True, prot=True) + clock(3000) +
                        eapol(msg4=True, qos=True) + clock(3000) +
                        eapol(prot=True) + clock(3000) +
                        wdata(llc(0x0800, b"\x45" + bytes(19)), qos=True) +
                        clocks(1500))
    s["card-eapol"] = (card(auth(CARD)) + clock(2000) +
                       card(assoc(CARD, rsn=True)) + clock(5000) +
                       card(eapol_msg2(CARD, 1)) + clock(30000))
    # malformed: short frames, IEs past the end, broken air headers
    s["broken"] = (peer(auth(PEER)[:26]) +
                   peer(hdr(0x40, BCAST, PEER, BCAST) + bytes([0, 200])) +
                   peer(b"\xd4\x00\x00\x00" + CARD) +          # ACK
                   rec(1, 0, air_raw(version=2, frame=probe(PEER))) +
                   rec(1, 0, air_raw(hlen=40, frame=probe(PEER))) +
                   rec(1, 0, air_raw(flen=3000, frame=probe(PEER))) +
                   rec(1, 0, air_raw(freq=5180, frame=probe(PEER))) +
                   rec(1, 0, air_raw(rate=7, frame=probe(PEER))) +
                   rec(1, 0, air_raw(frame=probe(PEER))[:30]) +
                   clock(1000))
    # the card in promiscuous mode and with a key: register writes
    s["card-regs"] = (rec(3, 0, struct.pack("<HI", 0x120, 0x81020503)) +
                      peer(hdr(0x08, PEER, PEER, PEER, 3) + b"p" * 20) +
                      rec(4, 0, struct.pack("<H", 0x230)) +
                      rec(3, 0, struct.pack("<HI", 0x160, 0x00010175)) +
                      rec(3, 0, struct.pack("<HI", 0x164, 0x00310031)) +
                      card(data_to_ap(CARD, b"k" * 32), 0x70 | 0x07 | 0x04) +
                      clock(60000) + clock(60000))
    # the card as an access point: a peer station probes, joins, sends data
    # (the firmware answers ACKs, beacons from its template; mac80211 would
    # answer the management frames)
    s["card-ap"] = (mode(1) + peer(probe(PEER).replace(BCAST, CARD, 1)) +
                    peer(hdr(0xb0, CARD, PEER, CARD, 1) +
                         struct.pack("<HHH", 0, 1, 0)) +
                    card(hdr(0xb0, PEER, CARD, CARD, 1) +
                         struct.pack("<HHH", 0, 2, 0)) +
                    peer(hdr(0x00, CARD, PEER, CARD, 2) +
                         struct.pack("<HH", 0x0411, 10) + bytes([0, 4]) +
                         b"QEMU" + RATES) +
                    peer(hdr(0x08, CARD, PEER, BCAST, 3, 0x01) + b"d" * 40) +
                    peer(hdr(0xa4, CARD, PEER, b"", 0)[:16]) +  # PS-Poll
                    clock(60000) + clock(60000))
    # monitor: frames for others, control frames, bad FCS, bad PLCP rate
    s["card-monitor"] = (mode(2) +
                         peer(hdr(0x08, PEER, BSSID, BSSID, 4, 0x02) +
                              b"m" * 50) +
                         peer(hdr(0xb4, BSSID, PEER, b"", 0)[:16]) +  # RTS
                         peer(hdr(0xc4, PEER, b"", b"", 0)[:10]) +    # CTS
                         peer(b"\xd4\x00\x00\x00" + PEER) +           # ACK
                         peer(hdr(0x80, BCAST, BSSID, BSSID, 5) +
                              bytes(12) + bytes([0, 4]) + b"QEMU", 0x04) +
                         peer(hdr(0x88, PEER, BSSID, BSSID, 6) + b"\0\0" +
                              b"q" * 64, 0x01 | 0x60) +
                         mode(3) +
                         peer(hdr(0x08, CARD, PEER, BSSID, 7) + b"i" * 30) +
                         clock(20000))
    # keys: pairwise CCMP for the peer (slot 4, its RCMTA entry), the group
    # key and static WEP; encrypted frames to the card, a replayed one, one
    # with a wrong key index, the card's own encrypted TX
    uni = hdr(0x08, CARD, PEER, BSSID, 8, 0x42) + b"\xaa\xaa\x03\0\0\0\x08\0" + \
        b"u" * 48
    grp = hdr(0x08, BCAST, PEER, BSSID, 9, 0x42) + \
        b"\xaa\xaa\x03\0\0\0\x08\0" + b"g" * 48
    s["card-keys"] = (key(4, 3, TK) + key(1, 3, TK, 0) +
                      key(0, 1, bytes(range(5)), 0x02) +
                      key(5, 2, bytes(range(0x30, 0x40))) +
                      peer(ccmp(uni, 1)) + peer(ccmp(uni, 2)) +
                      peer(ccmp(uni, 2)) +                     # replayed
                      peer(ccmp(grp, 1, keyid=1)) +
                      peer(ccmp(uni, 3, keyid=2)) +
                      peer(ccmp(uni, 4)[:40]) +                # cut short
                      card(data_to_ap(CARD, b"e" * 32, protected=True),
                           0x70 | 0x07) +
                      clock(20000))
    return s


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
