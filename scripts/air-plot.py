#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Pictures of the simulated air, from its pcap (-object wifi-medium,pcap=).

    scripts/air-plot.py AIR.pcap [-o PREFIX] [--from S] [--to S]

writes PREFIX.png and PREFIX.svg (default: the pcap's name without .pcap),
one figure a user asking "why is my station slow" can read:

  - the channel's timeline: one lane per transmitter, a bar per frame as
    long as it occupied the air, coloured by kind (beacon, management,
    data, ACK and other control), retransmissions hatched, frames with a
    bad FCS (corrupted or collided) in red;
  - the airtime share of each transmitter (and the idle rest);
  - the signal and the bitrate of each transmitter's frames over time;

and prints the same per transmitter as a table: frames, retransmissions,
bad FCS, airtime, share, mean signal, rates used.

A frame's airtime is computed from its length, rate and preamble as IEEE
Std 802.11-2020 gives it (the medium does the same: net/wifi/airtime.c,
clauses 15-18). An ACK or CTS names no transmitter: it is put in the lane
of the receiver of the last unicast frame (the RTS, for a CTS) its
receiver sent; a CTS to a station that sent no RTS is a CTS-to-self.
Any radiotap pcap works (rate, channel, flags, signal are read when
present), not only this project's.
"""

import argparse
import collections
import math
import os
import struct
import sys

# radiotap field sizes and alignments, in present-bit order (radiotap.org)
RT_FIELDS = [(8, 8), (1, 1), (1, 1), (4, 2), (2, 2), (1, 1), (1, 1),
             (2, 2), (2, 2), (2, 2), (1, 1), (1, 1), (1, 1), (1, 1)]
RT_TSFT, RT_FLAGS, RT_RATE, RT_CHANNEL, RT_SIGNAL = 0, 1, 2, 3, 5
F_SHORTPRE, F_FCS, F_BADFCS = 0x02, 0x10, 0x40


class Frame:
    __slots__ = ("t", "len", "rate", "ofdm", "short", "signal", "bad",
                 "fc0", "fc1", "ra", "ta", "airtime", "kind", "retry")


def radiotap(buf):
    """(fields {bit: value}, header length) of a radiotap header"""
    if len(buf) < 8:
        return None, 0
    _, _, hlen = struct.unpack_from("<BBH", buf)
    if hlen > len(buf):
        return None, 0
    words = []
    off = 4
    while True:
        if off + 4 > hlen:
            return None, 0
        w, = struct.unpack_from("<I", buf, off)
        words.append(w)
        off += 4
        if not w & 0x80000000:
            break
    present = words[0]
    fields = {}
    for bit, (size, align) in enumerate(RT_FIELDS):
        if not present & (1 << bit):
            continue
        off = (off + align - 1) // align * align
        if off + size > hlen:
            break
        fields[bit] = buf[off:off + size]
        off += size
    return fields, hlen


def airtime_us(nbytes, rate_500k, ofdm, short):
    """IEEE 802.11-2020 clauses 15-18: PLCP preamble/header and payload"""
    if rate_500k <= 0:
        return 0.0
    if ofdm:
        bits_per_sym = rate_500k * 2          # 4 us symbols: Mb/s * 4
        syms = math.ceil((16 + 8 * nbytes + 6) / bits_per_sym)
        return 20 + 4 * syms + 6              # + signal extension (2.4 GHz)
    pre = 96 if short else 192
    return pre + math.ceil(8 * nbytes * 2 / rate_500k)


def kind_of(fc0):
    t, st = (fc0 >> 2) & 3, (fc0 >> 4) & 0xf
    if t == 0:
        return "beacon" if st == 8 else "management"
    if t == 1:
        return "ACK" if st == 13 else "control"
    if t == 2:
        return "data"
    return "other"


def mac(b):
    return ":".join("%02x" % x for x in b)


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        sys.exit("air-plot: %s: not a pcap file" % path)
    magic, = struct.unpack_from("<I", data)
    if magic == 0xa1b2c3d4:
        end, scale = "<", 1e-6
    elif magic == 0xd4c3b2a1:
        end, scale = ">", 1e-6
    elif magic == 0xa1b23c4d:
        end, scale = "<", 1e-9
    else:
        sys.exit("air-plot: %s: not a pcap file" % path)
    linktype, = struct.unpack_from(end + "I", data, 20)
    if linktype != 127:
        sys.exit("air-plot: %s: link type %d, not radiotap (127)" %
                 (path, linktype))
    frames, off = [], 24
    last_unicast = {}           # transmitter -> its last unicast frame
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack_from(end + "IIII", data, off)
        off += 16
        pkt = data[off:off + incl]
        off += incl
        fields, hlen = radiotap(pkt)
        if fields is None or len(pkt) < hlen + 10:
            continue
        fr = Frame()
        fr.t = sec + frac * scale
        flags = fields.get(RT_FLAGS, b"\0")[0]
        body = pkt[hlen:]
        fr.len = len(body) + (0 if flags & F_FCS else 4)
        fr.rate = fields.get(RT_RATE, b"\x02")[0]
        chan = fields.get(RT_CHANNEL)
        fr.ofdm = bool(chan and struct.unpack_from("<H", chan, 2)[0] & 0x40)
        fr.short = bool(flags & F_SHORTPRE)
        sig = fields.get(RT_SIGNAL)
        fr.signal = struct.unpack("b", sig)[0] if sig else None
        fr.bad = bool(flags & F_BADFCS)
        fr.fc0, fr.fc1 = body[0], body[1]
        fr.ra = mac(body[4:10])
        fr.kind = kind_of(fr.fc0)
        fr.retry = bool(fr.fc1 & 0x08)
        # a frame without a transmitter address (ACK, CTS) answers a frame
        # its receiver sent: its sender is that frame's receiver.  Not
        # always the frame just before it: on an air shared by processes
        # (airtime off) a remote ACK can come back after the station's next
        # frame, a broadcast that nobody acknowledges
        cts = fr.kind == "control" and (fr.fc0 >> 4) & 0xf == 12
        has_ta = len(body) >= 16 and fr.kind != "ACK" and not cts
        if has_ta:
            fr.ta = mac(body[10:16])
            if not int(fr.ra[:2], 16) & 1 and not fr.bad:
                last_unicast[fr.ta] = fr
        else:
            asked = last_unicast.get(fr.ra)
            if cts and (asked is None or (asked.fc0 >> 4) & 0xf != 11 or
                        kind_of(asked.fc0) != "control"):
                fr.ta = fr.ra               # CTS-to-self
            else:
                fr.ta = asked.ra if asked is not None else "?"
        fr.airtime = airtime_us(fr.len, fr.rate, fr.ofdm, fr.short)
        frames.append(fr)
    return frames


def stats(frames, t0, t1):
    per = collections.OrderedDict()
    for fr in frames:
        s = per.setdefault(fr.ta, {"frames": 0, "retries": 0, "bad": 0,
                                   "airtime": 0.0, "sig": [],
                                   "rates": collections.Counter()})
        s["frames"] += 1
        s["retries"] += fr.retry
        s["bad"] += fr.bad
        s["airtime"] += fr.airtime
        if fr.signal is not None:
            s["sig"].append(fr.signal)
        if fr.kind == "data":
            s["rates"][fr.rate / 2] += 1
    span = max(t1 - t0, 1e-9)
    for s in per.values():
        s["share"] = s["airtime"] / 1e6 / span
    return per


COLOURS = {"beacon": "#4c72b0", "management": "#8172b2", "data": "#55a868",
           "ACK": "#c0c0c0", "control": "#937860", "other": "#000000"}


def plot(frames, per, t0, t1, prefix, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    lanes = list(per)
    fig = plt.figure(figsize=(14, 10))
    gs = fig.add_gridspec(3, 2, height_ratios=[2.2, 1.4, 1.4],
                          width_ratios=[3, 1.2])
    ax_t = fig.add_subplot(gs[0, :])
    for y, ta in enumerate(lanes):
        for kind in COLOURS:
            bars = [(fr.t - t0, fr.airtime / 1e6) for fr in frames
                    if fr.ta == ta and fr.kind == kind and not fr.bad]
            if bars:
                ax_t.broken_barh(bars, (y - 0.35, 0.7), color=COLOURS[kind])
        re_bars = [(fr.t - t0, fr.airtime / 1e6) for fr in frames
                   if fr.ta == ta and fr.retry and not fr.bad]
        if re_bars:
            ax_t.broken_barh(re_bars, (y - 0.35, 0.7), facecolor="none",
                             edgecolor="black", hatch="////", linewidth=0)
        bad = [(fr.t - t0, fr.airtime / 1e6) for fr in frames
               if fr.ta == ta and fr.bad]
        if bad:
            ax_t.broken_barh(bad, (y - 0.45, 0.9), color="#d62728")
    ax_t.set_yticks(range(len(lanes)))
    ax_t.set_yticklabels(lanes, fontfamily="monospace")
    ax_t.set_xlim(0, t1 - t0)
    ax_t.set_xlabel("time (s) from %.3f" % t0)
    ax_t.set_title("%s: the channel, frame by frame (bar = airtime)" % title)
    legend = [Patch(color=c, label=k) for k, c in COLOURS.items()
              if any(fr.kind == k for fr in frames)]
    legend += [Patch(facecolor="white", edgecolor="black", hatch="////",
                     label="retransmission"),
               Patch(color="#d62728", label="bad FCS (corrupted, collided)")]
    ax_t.legend(handles=legend, loc="upper right", fontsize="small",
                ncol=4)

    ax_s = fig.add_subplot(gs[1, 1])
    shares = [per[ta]["share"] * 100 for ta in lanes]
    idle = max(0.0, 100 - sum(shares))
    ax_s.barh(lanes + ["(idle)"], shares + [idle],
              color=["#55a868"] * len(lanes) + ["#dddddd"])
    for y, v in enumerate(shares + [idle]):
        ax_s.annotate("%.1f%%" % v, (v, y), xytext=(3, 0),
                      textcoords="offset points", va="center",
                      fontsize="small")
    ax_s.set_xlim(0, 115)
    ax_s.set_xlabel("airtime share (% of the time shown)")
    ax_s.set_yticks(range(len(lanes) + 1))
    ax_s.set_yticklabels(lanes + ["(idle)"], fontfamily="monospace",
                         fontsize="small")
    ax_s.set_title("airtime share")

    ax_g = fig.add_subplot(gs[1, 0])
    ax_r = fig.add_subplot(gs[2, 0], sharex=ax_g)
    for ta in lanes:
        pts = [(fr.t - t0, fr.signal) for fr in frames
               if fr.ta == ta and fr.signal is not None]
        if pts:
            ax_g.plot(*zip(*pts), ".", markersize=3, label=ta)
        rts = [(fr.t - t0, fr.rate / 2) for fr in frames
               if fr.ta == ta and fr.kind == "data"]
        if rts:
            ax_r.plot(*zip(*rts), ".", markersize=3, label=ta)
    ax_g.set_ylabel("signal (dBm)")
    ax_g.set_title("signal of each transmitter's frames")
    ax_r.set_ylabel("data rate (Mb/s)")
    ax_r.set_xlabel("time (s)")
    ax_r.set_title("bitrate of each transmitter's data frames")
    if ax_r.lines:
        ax_r.legend(fontsize="x-small", loc="best")

    ax_x = fig.add_subplot(gs[2, 1])
    ax_x.axis("off")
    rows = [[ta[-8:], str(per[ta]["frames"]), str(per[ta]["retries"]),
             str(per[ta]["bad"])] for ta in lanes]
    if rows:
        tab = ax_x.table(cellText=rows, colLabels=["radio", "frames",
                                                   "retries", "bad FCS"],
                         loc="center")
        tab.set_fontsize(8)
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=100)
    fig.savefig(prefix + ".svg")
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.
                                 RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("pcap")
    ap.add_argument("-o", "--output", help="PREFIX of PREFIX.png/.svg")
    ap.add_argument("--from", dest="t_from", type=float,
                    help="start, seconds from the first frame")
    ap.add_argument("--to", dest="t_to", type=float,
                    help="end, seconds from the first frame")
    ap.add_argument("--title", help="the figure's title")
    args = ap.parse_args()
    frames = read_pcap(args.pcap)
    if not frames:
        sys.exit("air-plot: %s: no frames" % args.pcap)
    first = frames[0].t
    t0 = first + (args.t_from or 0)
    t1 = first + args.t_to if args.t_to is not None else \
        max(fr.t + fr.airtime / 1e6 for fr in frames)
    frames = [fr for fr in frames if t0 <= fr.t <= t1]
    per = stats(frames, t0, t1)
    prefix = args.output or os.path.splitext(args.pcap)[0]
    print("%-17s %7s %7s %7s %11s %6s %7s  %s" % (
        "transmitter", "frames", "retries", "badFCS", "airtime_ms",
        "share", "signal", "data rates (Mb/s: frames)"))
    for ta, s in per.items():
        sig = "%.1f" % (sum(s["sig"]) / len(s["sig"])) if s["sig"] else "-"
        rates = " ".join("%g:%d" % (r, n) for r, n in
                         sorted(s["rates"].items()))
        print("%-17s %7d %7d %7d %11.2f %5.1f%% %7s  %s" % (
            ta, s["frames"], s["retries"], s["bad"], s["airtime"] / 1000,
            s["share"] * 100, sig, rates))
    busy = sum(s["airtime"] for s in per.values()) / 1e6
    print("%d frames in %.3f s; the channel busy %.1f%% of the time" % (
        len(frames), t1 - t0, 100 * busy / max(t1 - t0, 1e-9)))
    plot(frames, per, t0, t1, prefix,
         args.title or os.path.basename(args.pcap))
    print("air-plot: wrote %s.png and %s.svg" % (prefix, prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
