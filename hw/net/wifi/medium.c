/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A simulated 802.11 radio medium: -object wifi-medium,id=air0
 *
 * Modelled on QEMU's CAN bus (net/can/can_core.c), but delivery is
 * asynchronous: the sender's MMIO path never calls into a peer.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/guest-random.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hw/qdev-core.h"
#include "medium-int.h"
#include "hw/net/wifi/air-proto.h"
#include <zlib.h>
#include "trace.h"

/*
 * Received signal: free-space path loss at 2.4 GHz, 40 dB at 1 m plus
 * 20 dB per decade (Friis), distances below 1 m count as 1 m.
 */
static int8_t wifi_signal(const int32_t *tx, const int32_t *rx,
                          int8_t txpower)
{
    double dx = (double)tx[0] - rx[0];
    double dy = (double)tx[1] - rx[1];
    double dz = (double)tx[2] - rx[2];
    double d = MAX(sqrt(dx * dx + dy * dy + dz * dz), 1.0);
    double s = txpower - 40.0 - 20.0 * log10(d);

    return MAX(s, -100.0);
}

/* ---- pcap: link type 127, radiotap + frame + FCS ---------------------- */

static void wifi_pcap_open(WifiMedium *m, Error **errp)
{
    static const uint8_t hdr[24] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,     /* magic, version 2.4 */
        0, 0, 0, 0, 0, 0, 0, 0,                 /* tz, sigfigs */
        0xff, 0xff, 0, 0, 127, 0, 0, 0,         /* snaplen, radiotap */
    };

    m->pcap_file = fopen(m->pcap, "wb");
    if (!m->pcap_file) {
        error_setg_errno(errp, errno, "wifi-medium: cannot open pcap=%s",
                         m->pcap);
        return;
    }
    if (fwrite(hdr, sizeof(hdr), 1, m->pcap_file) != 1) {
        error_setg_errno(errp, errno, "wifi-medium: cannot write pcap=%s",
                         m->pcap);
    }
}

static void wifi_pcap_write(WifiMedium *m, int64_t ns, const uint8_t *frame,
                            size_t len, const WifiFrameMeta *meta,
                            int8_t signal)
{
    uint8_t rec[16], rt[15];
    uint8_t fcs[4];
    size_t caplen = sizeof(rt) + len + sizeof(fcs);
    uint32_t crc = crc32(0, frame, len);

    if (!m->pcap_file) {
        return;
    }
    stl_le_p(rec, ns / NANOSECONDS_PER_SECOND);
    stl_le_p(rec + 4, (ns % NANOSECONDS_PER_SECOND) / 1000);
    stl_le_p(rec + 8, caplen);
    stl_le_p(rec + 12, caplen);
    /* radiotap: flags (FCS at end, bad FCS), rate, channel, signal */
    rt[0] = 0;
    rt[1] = 0;
    stw_le_p(rt + 2, sizeof(rt));
    stl_le_p(rt + 4, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5));
    rt[8] = 0x10 | (meta->fcs_bad ? 0x40 : 0);
    rt[9] = meta->rate_500k;
    stw_le_p(rt + 10, meta->freq_mhz);
    stw_le_p(rt + 12, (meta->freq_mhz < 3000 ? 0x0080 : 0x0100) |
             (meta->ofdm ? 0x0040 : 0x0020));
    rt[14] = signal;
    /* a corrupted frame carries the complement of its FCS */
    stl_le_p(fcs, meta->fcs_bad ? ~crc : crc);
    if (fwrite(rec, sizeof(rec), 1, m->pcap_file) != 1 ||
        fwrite(rt, sizeof(rt), 1, m->pcap_file) != 1 ||
        fwrite(frame, len, 1, m->pcap_file) != 1 ||
        fwrite(fcs, sizeof(fcs), 1, m->pcap_file) != 1) {
        warn_report_once("wifi-medium: writing pcap=%s failed", m->pcap);
    }
    fflush(m->pcap_file);
}

/* ---- stations in other processes --------------------------------------- */

static void wifi_remote_learn(WifiMedium *m, const uint8_t *addr,
                              uint32_t freq)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    WifiRemoteStation *slot = &m->remote[0];

    if (ieee80211_is_group(addr)) {
        return;
    }
    for (int i = 0; i < WIFI_REMOTE_STATIONS; i++) {
        WifiRemoteStation *r = &m->remote[i];

        if (!memcmp(r->addr, addr, 6)) {
            slot = r;
            break;
        }
        if (!r->freq_mhz || r->last_ns < slot->last_ns) {
            slot = r;           /* a free slot, or the least recently heard */
        }
    }
    memcpy(slot->addr, addr, 6);
    slot->freq_mhz = freq;
    slot->last_ns = now;
}

static bool wifi_remote_acks(WifiMedium *m, const uint8_t *addr,
                             uint32_t freq)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    for (int i = 0; i < WIFI_REMOTE_STATIONS; i++) {
        WifiRemoteStation *r = &m->remote[i];

        if (r->freq_mhz && !memcmp(r->addr, addr, 6) && r->freq_mhz == freq &&
            now - r->last_ns < WIFI_REMOTE_TTL_NS) {
            return true;
        }
    }
    return false;
}

static void wifi_medium_deliver(void *opaque)
{
    WifiMediumClient *c = opaque;
    WifiQueuedFrame *f;
    /* bounded: the queue itself is bounded and refills only via BHs */
    unsigned budget = WIFI_RX_QUEUE_MAX;

    while (budget-- && (f = QSIMPLEQ_FIRST(&c->rxq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->rxq, next);
        c->rxq_len--;
        c->ops->receive(c, f->data, f->len, &f->meta);
        g_free(f);
        if (!c->bh) {
            /*
             * The radio was detached meanwhile (its device unplugged by
             * its own DMA): it keeps its memory until this bottom half
             * returns, but nothing may be delivered to it any more.
             */
            return;
        }
    }
    if (!QSIMPLEQ_EMPTY(&c->rxq)) {
        qemu_bh_schedule(c->bh);
    }
}

/* a frame a receiver acknowledges: unicast data or management */
static bool wifi_wants_ack(const uint8_t *frame)
{
    return !ieee80211_is_group(ieee80211_addr1(frame)) &&
           !ieee80211_is_ctrl(frame);
}

static bool wifi_frame_has_ta(const uint8_t *frame, size_t len)
{
    return len >= IEEE80211_TA_END && !ieee80211_is_ctrl(frame);
}

/*
 * Deliver to the local radios on the channel (except @from); returns the
 * radio that acknowledges it, if any.  A frame with a bad FCS reaches only
 * radios that ask for such frames, and nobody acknowledges it.
 */
static WifiMediumClient *wifi_medium_local(WifiMedium *m,
                                           WifiMediumClient *from,
                                           const int32_t *pos,
                                           const uint8_t *frame, size_t len,
                                           const WifiFrameMeta *meta)
{
    WifiMediumClient *c, *acker = NULL;

    QTAILQ_FOREACH(c, &m->clients, next) {
        WifiQueuedFrame *f;

        if (c == from || c->ops->freq(c) != meta->freq_mhz) {
            continue;
        }
        if (meta->fcs_bad &&
            (!c->ops->wants_bad_fcs || !c->ops->wants_bad_fcs(c))) {
            continue;
        }
        /* a radio that cannot take the frame does not acknowledge it */
        if (c->rxq_len >= WIFI_RX_QUEUE_MAX) {
            m->rx_overflows++;
            trace_wifi_medium_rx_overflow(c->name);
            continue;
        }
        if (!meta->fcs_bad && !acker && wifi_wants_ack(frame) &&
            c->ops->acks(c, ieee80211_addr1(frame))) {
            acker = c;
        }
        f = g_malloc(sizeof(*f) + len);
        f->meta = *meta;
        f->meta.signal_dbm = wifi_signal(pos, c->pos, meta->txpower_dbm);
        f->len = len;
        memcpy(f->data, frame, len);
        QSIMPLEQ_INSERT_TAIL(&c->rxq, f, next);
        c->rxq_len++;
        qemu_bh_schedule(c->bh);
    }
    return acker;
}

/*
 * Put a transmission on the netdev: the media of other processes.  It gets
 * a new air sequence number, an ACK the one of the frame it answers
 * (@ack_seq).  Returns the number (0: no netdev).
 */
static uint16_t wifi_link_send(WifiMedium *m, const int32_t *pos,
                               const uint8_t *frame, size_t len,
                               const WifiFrameMeta *meta, uint16_t ack_seq)
{
    WifiAirFrame af = {
        .sender = m->sender_id,
        .freq_mhz = meta->freq_mhz,
        .txpower_dbm = meta->txpower_dbm,
        .rate_500k = meta->rate_500k,
        .ofdm = meta->ofdm,
        .short_preamble = meta->short_preamble,
        .fcs_bad = meta->fcs_bad,
        .airtime_us = meta->airtime_us,
        .tx_time_ns = meta->tx_time_ns,
        .frame = frame,
        .len = len,
    };
    uint8_t buf[WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + WIFI_MAX_FRAME];
    size_t n;

    if (!m->nic) {
        return 0;
    }
    if (ack_seq) {
        af.seq = ack_seq;
    } else {
        af.seq = ++m->air_seq ? m->air_seq : ++m->air_seq;
    }
    memcpy(af.pos, pos, sizeof(af.pos));
    n = wifi_air_encode(buf, sizeof(buf), m->link_mac, &af);
    qemu_send_packet(qemu_get_queue(m->nic), buf, n);
    return af.seq;
}

/*
 * ---- frames to stations in other processes: kept until acknowledged ----
 *
 * Whether a station in another process acknowledged a frame is known only
 * later, from its ACK crossing the netdev, but the sender wants to know at
 * once: the medium answers from what it learnt (wifi_remote_acks), keeps
 * the frame, and sends it again (retry bit set) if that ACK does not come
 * back within WIFI_ARQ_TIMEOUT_NS, up to WIFI_ARQ_TRIES times.  A frame
 * the netdev lost (a receiver's full socket buffer drops datagrams
 * silently) is so delayed instead of lost for good; a duplicate (the ACK
 * was lost) is dropped by the receiving station as any 802.11 retry.
 */
/* a data frame's header up to its sequence control */

struct WifiArqFrame {
    QTAILQ_ENTRY(WifiArqFrame) next;
    uint16_t seq;
    unsigned tries;
    int64_t sent_ns;
    int32_t pos[3];
    WifiFrameMeta meta;
    size_t len;
    uint8_t data[];
};

static void wifi_arq_arm(WifiMedium *m)
{
    WifiArqFrame *a = QTAILQ_FIRST(&m->arq);

    if (a) {
        timer_mod(m->arq_timer, a->sent_ns + WIFI_ARQ_TIMEOUT_NS);
    } else {
        timer_del(m->arq_timer);
    }
}

static void wifi_arq_free(WifiMedium *m, WifiArqFrame *a)
{
    QTAILQ_REMOVE(&m->arq, a, next);
    m->arq_len--;
    g_free(a);
}

static void wifi_arq_add(WifiMedium *m, uint16_t seq, const int32_t *pos,
                         const uint8_t *frame, size_t len,
                         const WifiFrameMeta *meta)
{
    WifiArqFrame *a;

    /*
     * Data frames only: a station drops a late duplicate of a data frame
     * (TCP drops its segment), but one of an authentication or an
     * association request, 20 ms and many frames later, starts over what
     * the AP already did.
     */
    if (!seq || len < IEEE80211_HDR_LEN || !ieee80211_is_data(frame)) {
        return;                 /* wifi_arq_acked() compares addr2 */
    }
    if (m->arq_len >= WIFI_ARQ_MAX) {
        wifi_arq_free(m, QTAILQ_FIRST(&m->arq));   /* the oldest gives up */
    }
    a = g_malloc(sizeof(*a) + len);
    a->seq = seq;
    a->tries = 1;
    a->sent_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    memcpy(a->pos, pos, sizeof(a->pos));
    a->meta = *meta;
    a->len = len;
    memcpy(a->data, frame, len);
    QTAILQ_INSERT_TAIL(&m->arq, a, next);
    m->arq_len++;
    if (m->arq_len == 1) {
        wifi_arq_arm(m);
    }
}

/* an ACK from another process to @ra for air sequence @seq */
static void wifi_arq_acked(WifiMedium *m, const uint8_t *ra, uint16_t seq)
{
    WifiArqFrame *a;

    QTAILQ_FOREACH(a, &m->arq, next) {
        if (a->seq == seq && a->len >= IEEE80211_TA_END &&
            !memcmp(ieee80211_addr2(a->data), ra, IEEE80211_ADDR_LEN)) {
            bool first = a == QTAILQ_FIRST(&m->arq);

            wifi_arq_free(m, a);
            if (first) {
                wifi_arq_arm(m);
            }
            return;
        }
    }
}

static void wifi_arq_timer(void *opaque)
{
    WifiMedium *m = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    WifiArqFrame *a;
    /* bounded: every entry is looked at once per run */
    unsigned budget = m->arq_len;

    while (budget-- && (a = QTAILQ_FIRST(&m->arq)) &&
           now - a->sent_ns >= WIFI_ARQ_TIMEOUT_NS) {
        QTAILQ_REMOVE(&m->arq, a, next);
        if (a->tries >= WIFI_ARQ_TRIES) {
            m->arq_len--;
            trace_wifi_medium_arq(a->seq, a->tries, "given up");
            g_free(a);
            continue;
        }
        a->tries++;
        a->data[1] |= 0x08;             /* retry bit */
        a->meta.tx_time_ns = now;
        m->arq_resent++;
        trace_wifi_medium_arq(a->seq, a->tries, "sent again");
        wifi_pcap_write(m, now, a->data, a->len, &a->meta,
                        a->meta.txpower_dbm - 40);
        a->seq = wifi_link_send(m, a->pos, a->data, a->len, &a->meta, 0);
        a->sent_ns = now;
        QTAILQ_INSERT_TAIL(&m->arq, a, next);
    }
    wifi_arq_arm(m);
}

/* deterministic pseudo-random numbers (splitmix64) from property seed */
static uint64_t wifi_random(WifiMedium *m)
{
    uint64_t z = (m->prng += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* does this transmission suffer a bit error (property fcs-error-rate)? */
static bool wifi_fcs_error(WifiMedium *m)
{
    if (!m->fcs_error_rate || wifi_random(m) % 1000 >= m->fcs_error_rate) {
        return false;
    }
    m->fcs_errors++;
    return true;
}

static WifiChannel *wifi_channel(WifiMedium *m, uint32_t freq, int64_t now)
{
    WifiChannel *slot = NULL;

    for (int i = 0; i < WIFI_CHANNELS; i++) {
        WifiChannel *ch = &m->chan[i];

        if (ch->freq_mhz == freq) {
            return ch;
        }
        if (!slot && (!ch->freq_mhz || ch->busy_until_ns <= now)) {
            slot = ch;          /* free, or idle: reusable */
        }
    }
    if (slot) {
        slot->freq_mhz = freq;
        slot->busy_until_ns = 0;
    }
    return slot;                /* NULL: all busy, this one is untracked */
}

/*
 * @acker (a local radio) acknowledges @frame: the ACK (SIFS later, at the
 * control response rate) goes to the pcap, the local radios (monitors
 * keep control frames, the others drop them) and the other processes.
 */
static void wifi_medium_ack(WifiMedium *m, WifiMediumClient *acker,
                            const uint8_t *frame, size_t len,
                            const WifiFrameMeta *dm, int64_t now,
                            uint16_t ack_seq)
{
    uint8_t ack[WIFI_ACK_LEN] = { IEEE80211_FC0_ACK, 0x00 };
    WifiFrameMeta meta = {
        .freq_mhz = dm->freq_mhz,
        .txpower_dbm = dm->txpower_dbm,
        .rate_500k = wifi_ack_rate(dm->rate_500k, dm->ofdm),
        .ofdm = dm->ofdm,
        .short_preamble = dm->short_preamble,
        .tx_time_ns = now + WIFI_SIFS_US * SCALE_US,
    };

    if (!wifi_frame_has_ta(frame, len)) {
        return;
    }
    /* RA = the data's TA */
    memcpy(ack + IEEE80211_ADDR1_OFF, ieee80211_addr2(frame),
           IEEE80211_ADDR_LEN);
    meta.airtime_us = wifi_airtime_us(WIFI_ACK_BYTES, meta.rate_500k,
                                      meta.ofdm, meta.short_preamble);
    m->acks++;
    trace_wifi_medium_ack(acker->name, meta.freq_mhz, meta.rate_500k);
    if (m->airtime) {
        WifiChannel *ch = wifi_channel(m, meta.freq_mhz, now);

        if (ch) {
            ch->busy_until_ns = MAX(ch->busy_until_ns, meta.tx_time_ns +
                                    meta.airtime_us * SCALE_US);
        }
    }
    wifi_pcap_write(m, meta.tx_time_ns, ack, sizeof(ack), &meta,
                    meta.txpower_dbm - 40);
    wifi_medium_local(m, acker, acker->pos, ack, sizeof(ack), &meta);
    /* the ACK of a frame from another process names it: see wifi_arq */
    wifi_link_send(m, acker->pos, ack, sizeof(ack), &meta, ack_seq);
}

bool wifi_medium_paced(WifiMediumClient *c)
{
    return c->medium && c->medium->airtime;
}

unsigned wifi_medium_txq_len(WifiMediumClient *c)
{
    return c->txq_len;
}

/* one transmission, airtime off: true if a radio acknowledged it */
static bool wifi_medium_send(WifiMediumClient *from, const uint8_t *frame,
                             size_t len, const WifiFrameMeta *meta)
{
    WifiMedium *m = from->medium;
    WifiMediumClient *acker;
    WifiFrameMeta fm = *meta;
    uint16_t seq;
    bool acked;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;           /* alone on its own air */
    }
    m->frames++;
    fm.fcs_bad = wifi_fcs_error(m);
    trace_wifi_medium_tx(from->name, meta->freq_mhz, len, meta->rate_500k);
    wifi_pcap_write(m, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), frame, len,
                    &fm, meta->txpower_dbm - 40);
    acker = wifi_medium_local(m, from, from->pos, frame, len, &fm);
    seq = wifi_link_send(m, from->pos, frame, len, &fm, 0);
    acked = acker;
    if (acker) {
        wifi_medium_ack(m, acker, frame, len, &fm,
                        qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), 0);
    } else if (m->nic && !fm.fcs_bad && wifi_wants_ack(frame)) {
        acked = wifi_remote_acks(m, ieee80211_addr1(frame), meta->freq_mhz);
        if (acked) {
            wifi_arq_add(m, seq, from->pos, frame, len, &fm);
        }
    }
    return acked;
}

/* ---- airtime: contention, transmissions, collisions --------------------- */

typedef enum {
    WIFI_JOB_CONTEND,           /* waiting for DIFS + backoff */
    WIFI_JOB_FRAME,             /* on the air */
} WifiJobPhase;

struct WifiTxJob {
    QSIMPLEQ_ENTRY(WifiTxJob) next;     /* in the sender's queue */
    QTAILQ_ENTRY(WifiTxJob) air;        /* in the medium's on_air list */
    WifiMedium *m;
    WifiMediumClient *from;             /* NULL: from another process */
    QEMUTimer *timer;
    WifiJobPhase phase;
    int64_t due_ns;                     /* when the timer is due */
    WifiFrameMeta meta;
    int32_t pos[3];
    unsigned retry_limit, attempts;
    uint32_t backoff;                   /* slots */
    bool notify, on_air, collided, acked;
    uint16_t air_seq;                   /* on the netdev (wifi_arq) */
    int64_t start_ns;
    size_t len;
    uint8_t data[];
};

static void wifi_job_timer(void *opaque);

/*
 * The next step of @j at @when.  The air's timeline follows the due
 * times, not when the host gets to run the timer: a late timer delays the
 * radios' view of the air, not the air itself.
 */
static void wifi_job_arm(WifiTxJob *j, WifiJobPhase phase, int64_t when)
{
    j->phase = phase;
    j->due_ns = when;
    timer_mod(j->timer, when);
}

static WifiTxJob *wifi_job_new(WifiMedium *m, WifiMediumClient *from,
                               const uint8_t *frame, size_t len,
                               const WifiFrameMeta *meta)
{
    WifiTxJob *j = g_malloc0(sizeof(*j) + len);

    j->m = m;
    j->from = from;
    j->meta = *meta;
    j->len = len;
    memcpy(j->data, frame, len);
    j->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_job_timer, j);
    return j;
}

static void wifi_job_free(WifiTxJob *j)
{
    if (j->on_air) {
        QTAILQ_REMOVE(&j->m->on_air, j, air);
    }
    timer_free(j->timer);
    g_free(j);
}

static bool wifi_job_expects_ack(WifiTxJob *j)
{
    return j->from && wifi_wants_ack(j->data);
}

/* draw the backoff for the next attempt: uniform in [0, CW] */
static void wifi_job_backoff(WifiTxJob *j)
{
    uint32_t cw = wifi_cw(j->meta.ofdm, j->attempts);

    j->backoff = wifi_random(j->m) % (cw + 1);
}

/* wait until the channel is idle, then DIFS and the backoff */
static void wifi_job_contend(WifiTxJob *j, int64_t now)
{
    WifiChannel *ch = wifi_channel(j->m, j->meta.freq_mhz, now);
    int64_t idle = ch ? MAX(now, ch->busy_until_ns) : now;

    wifi_job_arm(j, WIFI_JOB_CONTEND, idle + SCALE_US *
                 (wifi_difs_us(j->meta.ofdm) +
                  (int64_t)j->backoff * wifi_slot_us(j->meta.ofdm)));
}

/*
 * @j starts at @start: a transmission that started less than a slot before
 * or after it could not be heard (carrier sense takes a slot): they
 * collide.  Each process judges only its own radios' frames: a local frame
 * in a collision is lost (nobody acknowledges it: its sender retries).  A
 * frame from another process is taken as its sender's process saw it, as
 * that process judges it against ours: a collision seen on one side only
 * costs a retransmission, never a silent loss.
 */
static bool wifi_collide(WifiMedium *m, WifiTxJob *j, int64_t start)
{
    int64_t slot = SCALE_US * wifi_slot_us(j->meta.ofdm);
    WifiTxJob *o;
    bool hit = false;

    QTAILQ_FOREACH(o, &m->on_air, air) {
        int64_t d = start - o->start_ns;

        if (o->meta.freq_mhz != j->meta.freq_mhz || d >= slot ||
            d <= -slot || (!o->from && !j->from)) {
            continue;
        }
        hit = true;
        if (o->from) {
            o->collided = true;
        }
    }
    if (hit) {
        if (j->from) {
            j->collided = true;
        }
        m->collisions++;
        trace_wifi_medium_collision(j->from ? j->from->name : "remote",
                                    j->meta.freq_mhz);
    }
    return hit;
}

/* @j is on the air from @start (now, or a remote frame's mapped start) */
static void wifi_job_on_air(WifiTxJob *j, int64_t start, bool ack_wait)
{
    WifiMedium *m = j->m;
    WifiChannel *ch = wifi_channel(m, j->meta.freq_mhz, start);
    int64_t end = start + SCALE_US * j->meta.airtime_us;

    j->start_ns = start;
    j->meta.tx_time_ns = start;
    j->on_air = true;
    QTAILQ_INSERT_TAIL(&m->on_air, j, air);
    if (ch) {
        if (ack_wait) {
            end += SCALE_US * wifi_ack_us(j->meta.rate_500k, j->meta.ofdm,
                                          j->meta.short_preamble);
        }
        ch->busy_until_ns = MAX(ch->busy_until_ns, end);
    }
    wifi_job_arm(j, WIFI_JOB_FRAME, start + SCALE_US * j->meta.airtime_us);
}

/* a local radio's frame leaves: channel idle long enough, or a collision */
static void wifi_job_start(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiChannel *ch = wifi_channel(m, j->meta.freq_mhz, now);
    bool busy = ch && ch->busy_until_ns > now;

    j->collided = false;
    if (busy && !wifi_collide(m, j, now)) {
        wifi_job_contend(j, now);   /* heard another one: defer */
        return;
    }
    j->attempts++;
    if (j->attempts > 1) {
        j->data[1] |= 0x08;         /* retry bit on retransmissions */
    }
    m->frames++;
    j->meta.fcs_bad = wifi_fcs_error(m);
    trace_wifi_medium_airtime_tx(j->from->name, j->meta.freq_mhz, j->len,
                                 j->meta.rate_500k, j->attempts,
                                 j->meta.airtime_us);
    wifi_job_on_air(j, now, wifi_job_expects_ack(j));
    j->air_seq = wifi_link_send(m, j->pos, j->data, j->len, &j->meta, 0);
}

static void wifi_job_exchange_end(WifiTxJob *j, int64_t now);

/* the last bit is on the air: receivers get it (or not) */
static void wifi_job_frame_end(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiMediumClient *acker;
    WifiFrameMeta meta = j->meta;

    QTAILQ_REMOVE(&m->on_air, j, air);
    j->on_air = false;
    meta.fcs_bad |= j->collided;
    wifi_pcap_write(m, j->start_ns, j->data, j->len, &meta,
                    meta.txpower_dbm - 40);
    acker = wifi_medium_local(m, j->from, j->pos, j->data, j->len, &meta);
    if (acker) {
        wifi_medium_ack(m, acker, j->data, j->len, &meta, now,
                        j->from ? 0 : j->air_seq);
    }
    if (!j->from) {
        m->remote_on_air--;
        wifi_job_free(j);           /* from another process: done */
        return;
    }
    j->acked = acker;
    if (!acker && m->nic && !meta.fcs_bad && wifi_wants_ack(j->data)) {
        /*
         * Not kept for wifi_arq: with airtime on, trials resent most
         * frames (an ACK did not name the attempt kept) and the link
         * slowed down (its stalls were the card's TX engine falling a
         * ring behind, fixed since); to be understood before it is used.
         */
        j->acked = wifi_remote_acks(m, j->data + 4, meta.freq_mhz);
    }
    wifi_job_exchange_end(j, now);
}

/*
 * The outcome is known: retry, or report and let the next frame contend.
 * The channel stays busy for SIFS + ACK (or the ACK timeout) after the
 * frame: the next attempt waits for that, the sender hears of it now.
 */
static void wifi_job_exchange_end(WifiTxJob *j, int64_t now)
{
    WifiMediumClient *c = j->from;
    WifiTxJob *head;
    bool notify = j->notify, acked = j->acked;
    unsigned attempts = j->attempts;

    if (wifi_job_expects_ack(j) && !j->acked &&
        j->attempts < j->retry_limit) {
        wifi_job_backoff(j);
        wifi_job_contend(j, now);
        return;
    }
    trace_wifi_medium_tx_done(c->name, acked, attempts);
    QSIMPLEQ_REMOVE_HEAD(&c->txq, next);
    c->txq_len--;
    wifi_job_free(j);
    head = QSIMPLEQ_FIRST(&c->txq);
    if (head) {
        wifi_job_contend(head, now);
    }
    /* last: the callback may queue the radio's next frame */
    if (notify && c->ops->tx_done) {
        c->ops->tx_done(c, acked, attempts);
    }
}

static void wifi_job_timer(void *opaque)
{
    WifiTxJob *j = opaque;

    switch (j->phase) {
    case WIFI_JOB_CONTEND:
        wifi_job_start(j, j->due_ns);
        break;
    case WIFI_JOB_FRAME:
        wifi_job_frame_end(j, j->due_ns);
        break;
    }
}

/* airtime on: queue @frame for the channel with its retries */
static bool wifi_medium_queue(WifiMediumClient *from, const uint8_t *frame,
                              size_t len, const WifiFrameMeta *meta,
                              unsigned retry_limit, bool notify)
{
    WifiMedium *m = from->medium;
    WifiTxJob *j;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;
    }
    if (from->txq_len >= WIFI_TX_QUEUE_MAX) {
        trace_wifi_medium_txq_full(from->name);
        return false;
    }
    j = wifi_job_new(m, from, frame, len, meta);
    memcpy(j->pos, from->pos, sizeof(j->pos));
    j->retry_limit = MAX(retry_limit, 1);
    j->notify = notify;
    wifi_job_backoff(j);
    QSIMPLEQ_INSERT_TAIL(&from->txq, j, next);
    if (from->txq_len++ == 0) {
        wifi_job_contend(j, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
    return true;
}

WifiTxStatus wifi_medium_transmit(WifiMediumClient *c, uint8_t *frame,
                                  size_t len, WifiFrameMeta *meta,
                                  unsigned retry_limit, bool notify,
                                  WifiTxResult *result)
{
    WifiTxResult r = { 0 };
    unsigned limit = MAX(retry_limit, 1);

    meta->airtime_us = wifi_airtime_us(len + IEEE80211_FCS_LEN,
                                       meta->rate_500k, meta->ofdm,
                                       meta->short_preamble);
    if (len < IEEE80211_ACK_LEN ||
        ieee80211_is_group(ieee80211_addr1(frame))) {
        limit = 1;              /* nobody acknowledges a group frame */
    }
    if (wifi_medium_paced(c)) {
        return wifi_medium_queue(c, frame, len, meta, limit, notify) ?
               WIFI_TX_QUEUED : WIFI_TX_REFUSED;
    }
    do {
        if (r.attempts) {
            frame[1] |= IEEE80211_FC1_RETRY;
        }
        r.attempts++;
        r.acked = wifi_medium_send(c, frame, len, meta);
    } while (!r.acked && r.attempts < limit);
    if (result) {
        *result = r;
    }
    return WIFI_TX_DONE;
}

/*
 * When did a frame from another process start, on our clock?  Virtual
 * clocks of processes differ by a constant while both run; a frame
 * arrives some latency after it started.  The smallest (arrival - start)
 * seen from a sender over the last one to two seconds estimates the
 * offset (NTP's minimum-delay filter); the frame started that much less
 * the extra latency ago.  Returns how long ago, in ns.
 */
static uint64_t wifi_peer_lag(WifiMedium *m, uint64_t sender, int64_t tx_ns,
                              int64_t now)
{
    /* wraps instead of overflowing: the peer's clock is not trusted */
    int64_t obs = (int64_t)((uint64_t)now - (uint64_t)tx_ns);
    WifiPeerClock *p = NULL, *lru = &m->peers[0];
    int64_t est;

    for (int i = 0; i < WIFI_PEERS; i++) {
        if (m->peers[i].used && m->peers[i].sender == sender) {
            p = &m->peers[i];
            break;
        }
        if (!m->peers[i].used ||
            (lru->used && m->peers[i].window_ns < lru->window_ns)) {
            lru = &m->peers[i];
        }
    }
    if (!p) {
        p = lru;
        p->used = true;
        p->sender = sender;
        p->min[0] = p->min[1] = obs;
        p->window_ns = now;
    }
    if (now - p->window_ns > NANOSECONDS_PER_SECOND) {
        p->min[1] = p->min[0];      /* a new window: forget older minima */
        p->min[0] = obs;
        p->window_ns = now;
    }
    p->min[0] = MIN(p->min[0], obs);
    est = MIN(p->min[0], p->min[1]);
    return (uint64_t)obs - (uint64_t)est;
}

/* a frame from another process, airtime on: on the air since it started */
static void wifi_remote_on_air(WifiMedium *m, const WifiAirFrame *af,
                               const WifiFrameMeta *meta)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t lag = wifi_peer_lag(m, af->sender, af->tx_time_ns, now);
    WifiTxJob *j;

    if (m->remote_on_air >= WIFI_REMOTE_ON_AIR_MAX) {
        trace_wifi_medium_rx_overflow("remote");
        return;
    }
    j = wifi_job_new(m, NULL, af->frame, af->len, meta);
    memcpy(j->pos, af->pos, sizeof(j->pos));
    j->air_seq = af->seq;
    /* the peer's airtime is not trusted: ours, from length and rate */
    j->meta.airtime_us = wifi_airtime_us(af->len + 4, meta->rate_500k,
                                         meta->ofdm, meta->short_preamble);
    m->remote_on_air++;
    if (lag >= SCALE_US * j->meta.airtime_us) {
        /* over before we heard of it: it no longer holds the channel */
        wifi_job_on_air(j, now - SCALE_US * j->meta.airtime_us, false);
        return;
    }
    wifi_collide(m, j, now - lag);
    wifi_job_on_air(j, now - lag, false);
}

/* ---- the link to other processes ---------------------------------------- */

static bool wifi_link_can_receive(NetClientState *nc)
{
    return true;
}

static ssize_t wifi_link_receive(NetClientState *nc, const uint8_t *buf,
                                 size_t size)
{
    WifiMedium *m = qemu_get_nic_opaque(nc);
    WifiAirStatus st;
    WifiAirFrame af;
    WifiFrameMeta meta;

    st = wifi_air_decode(buf, size, &af);
    if (st == WIFI_AIR_NOT_OURS) {
        return size;            /* other traffic on the netdev: ignore */
    }
    if (st != WIFI_AIR_OK) {
        m->remote_rejected++;
        trace_wifi_medium_peer_rejected(wifi_air_strerror(st), size);
        return size;
    }
    if (af.sender == m->sender_id) {
        return size;            /* our own, looped back by multicast */
    }
    m->remote_frames++;
    meta = (WifiFrameMeta) {
        .freq_mhz = af.freq_mhz,
        .txpower_dbm = af.txpower_dbm,
        .rate_500k = af.rate_500k,
        .ofdm = af.ofdm,
        .short_preamble = af.short_preamble,
        .fcs_bad = af.fcs_bad,
        .airtime_us = af.airtime_us,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    /* the transmitter (addr2) lives over there: it will ack its frames */
    if (wifi_frame_has_ta(af.frame, af.len) && !af.fcs_bad) {
        wifi_remote_learn(m, ieee80211_addr2(af.frame), af.freq_mhz);
    }
    trace_wifi_medium_rx_remote(af.freq_mhz, af.len);
    /* an ACK for one of our frames to a station over there */
    if (af.seq && af.len >= WIFI_ACK_LEN && af.frame[0] == IEEE80211_FC0_ACK) {
        wifi_arq_acked(m, ieee80211_addr1(af.frame), af.seq);
    }
    if (m->airtime) {
        wifi_remote_on_air(m, &af, &meta);
    } else {
        WifiMediumClient *acker;

        wifi_pcap_write(m, meta.tx_time_ns, af.frame, af.len, &meta,
                        af.txpower_dbm - 40);
        acker = wifi_medium_local(m, NULL, af.pos, af.frame, af.len, &meta);
        if (acker) {
            wifi_medium_ack(m, acker, af.frame, af.len, &meta,
                            meta.tx_time_ns, af.seq);
        }
    }
    return size;
}

static NetClientInfo wifi_link_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = wifi_link_can_receive,
    .receive = wifi_link_receive,
};

void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner)
{
    c->medium = m;
    QSIMPLEQ_INIT(&c->rxq);
    c->rxq_len = 0;
    QSIMPLEQ_INIT(&c->txq);
    c->txq_len = 0;
    c->bh = qemu_bh_new_guarded(wifi_medium_deliver, c,
                                &owner->mem_reentrancy_guard);
    if (m) {
        QTAILQ_INSERT_TAIL(&m->clients, c, next);
    }
}

void wifi_medium_flush(WifiMediumClient *c)
{
    WifiQueuedFrame *f;
    WifiTxJob *j;

    while ((f = QSIMPLEQ_FIRST(&c->rxq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->rxq, next);
        g_free(f);
    }
    c->rxq_len = 0;
    /* frames waiting for the channel or on the air: gone, unreported */
    while ((j = QSIMPLEQ_FIRST(&c->txq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->txq, next);
        wifi_job_free(j);
    }
    c->txq_len = 0;
}

void wifi_medium_detach(WifiMediumClient *c)
{
    if (c->medium) {
        QTAILQ_REMOVE(&c->medium->clients, c, next);
        c->medium = NULL;
    }
    wifi_medium_flush(c);
    if (c->bh) {
        qemu_bh_delete(c->bh);
        c->bh = NULL;
    }
}

static void wifi_medium_init(Object *obj)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    QTAILQ_INIT(&m->clients);
    QTAILQ_INIT(&m->on_air);
    QTAILQ_INIT(&m->arq);
    m->arq_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_arq_timer, m);
    qemu_guest_getrandom_nofail(&m->sender_id, sizeof(m->sender_id));
    qemu_guest_getrandom_nofail(m->link_mac, sizeof(m->link_mac));
    m->link_mac[0] = (m->link_mac[0] & ~1) | 2;     /* local, unicast */
}

static void wifi_medium_get_counter(Object *obj, Visitor *v,
                                    const char *name, void *opaque,
                                    Error **errp)
{
    uint64_t n = *(uint64_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_uint64(v, name, &n, errp);
}

static bool wifi_medium_get_airtime(Object *obj, Error **errp)
{
    return WIFI_MEDIUM(obj)->airtime;
}

static void wifi_medium_set_airtime(Object *obj, bool v, Error **errp)
{
    WIFI_MEDIUM(obj)->airtime = v;
}

static void wifi_medium_get_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &WIFI_MEDIUM(obj)->seed, errp);
}

static void wifi_medium_set_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);
    uint64_t n;

    if (visit_type_uint64(v, name, &n, errp)) {
        m->seed = n;
        m->prng = n;
    }
}

static void wifi_medium_get_fcs_rate(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    visit_type_uint32(v, name, &WIFI_MEDIUM(obj)->fcs_error_rate, errp);
}

static void wifi_medium_set_fcs_rate(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    uint32_t n;

    if (!visit_type_uint32(v, name, &n, errp)) {
        return;
    }
    if (n > 1000) {
        error_setg(errp, "wifi-medium: fcs-error-rate is per mille "
                   "(0..1000), not %" PRIu32, n);
        return;
    }
    WIFI_MEDIUM(obj)->fcs_error_rate = n;
}

static void wifi_medium_complete(UserCreatable *uc, Error **errp)
{
    ERRP_GUARD();
    WifiMedium *m = WIFI_MEDIUM(uc);

    if (m->pcap) {
        wifi_pcap_open(m, errp);
        if (*errp) {
            return;
        }
    }
    if (m->netdev) {
        NetClientState *peer = qemu_find_netdev(m->netdev);

        if (!peer) {
            error_setg(errp, "wifi-medium: netdev '%s' not found",
                       m->netdev);
            return;
        }
        if (peer->peer) {
            error_setg(errp, "wifi-medium: netdev '%s' is already in use",
                       m->netdev);
            return;
        }
        m->conf.peers.ncs[0] = peer;
        m->conf.peers.queues = 1;
        memcpy(m->conf.macaddr.a, m->link_mac, 6);
        m->nic = qemu_new_nic(&wifi_link_info, &m->conf, TYPE_WIFI_MEDIUM,
                              object_get_canonical_path_component(OBJECT(m)),
                              &m->guard, m);
    }
}

static char *wifi_medium_get_netdev(Object *obj, Error **errp)
{
    return g_strdup(WIFI_MEDIUM(obj)->netdev);
}

static void wifi_medium_set_netdev(Object *obj, const char *v, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    g_free(m->netdev);
    m->netdev = g_strdup(v);
}

static char *wifi_medium_get_pcap(Object *obj, Error **errp)
{
    return g_strdup(WIFI_MEDIUM(obj)->pcap);
}

static void wifi_medium_set_pcap(Object *obj, const char *v, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    g_free(m->pcap);
    m->pcap = g_strdup(v);
}

/* radios hold pointers to their medium: it lives as long as QEMU */
static bool wifi_medium_can_be_deleted(UserCreatable *uc)
{
    return false;
}

/* read-only statistics, qom-get /objects/<id> <name> */
typedef struct {
    const char *name;
    size_t offset;
    const char *desc;
} WifiMediumCounter;

static const WifiMediumCounter wifi_medium_counters[] = {
    { "rx-rejected", offsetof(WifiMedium, remote_rejected),
      "read-only: frames from other processes rejected as malformed or "
      "of another protocol version" },
    { "collisions", offsetof(WifiMedium, collisions),
      "read-only: collisions seen on this medium (airtime on)" },
    { "fcs-errors", offsetof(WifiMedium, fcs_errors),
      "read-only: transmissions corrupted by fcs-error-rate" },
    { "rx-overflows", offsetof(WifiMedium, rx_overflows),
      "read-only: deliveries dropped because a local radio's receive "
      "queue was full (the radio does not acknowledge them)" },
    { "acks", offsetof(WifiMedium, acks),
      "read-only: ACK frames the local radios sent" },
    { "remote-resent", offsetof(WifiMedium, arq_resent),
      "read-only: frames to stations in other processes sent again "
      "because their ACK did not come back" },
};

static void wifi_medium_class_init(ObjectClass *klass, void *data)
{
    UserCreatableClass *uc = USER_CREATABLE_CLASS(klass);

    uc->can_be_deleted = wifi_medium_can_be_deleted;
    uc->complete = wifi_medium_complete;
    object_class_property_add_str(klass, "netdev", wifi_medium_get_netdev,
                                  wifi_medium_set_netdev);
    object_class_property_set_description(klass, "netdev",
        "network backend joining this medium to the media of other QEMU "
        "processes (e.g. -netdev socket,mcast=...)");
    object_class_property_add_str(klass, "pcap", wifi_medium_get_pcap,
                                  wifi_medium_set_pcap);
    object_class_property_set_description(klass, "pcap",
        "file receiving every frame on the medium (pcap, radiotap)");
    object_class_property_add_bool(klass, "airtime", wifi_medium_get_airtime,
                                   wifi_medium_set_airtime);
    object_class_property_set_description(klass, "airtime",
        "on: frames take real 802.11b/g time (preamble, DIFS, backoff, "
        "SIFS + ACK), a channel carries one at a time, transmissions "
        "starting in the same slot collide (default off: as fast as "
        "possible)");
    object_class_property_add(klass, "fcs-error-rate", "uint32",
                              wifi_medium_get_fcs_rate,
                              wifi_medium_set_fcs_rate, NULL, NULL);
    object_class_property_set_description(klass, "fcs-error-rate",
        "per mille of transmissions corrupted on the air (bad FCS: only "
        "monitors asking for such frames get them; default 0)");
    object_class_property_add(klass, "seed", "uint64",
                              wifi_medium_get_seed, wifi_medium_set_seed,
                              NULL, NULL);
    object_class_property_set_description(klass, "seed",
        "seed of the medium's deterministic pseudo-random numbers "
        "(backoff slots, bit errors; default 0)");
    for (int i = 0; i < ARRAY_SIZE(wifi_medium_counters); i++) {
        const WifiMediumCounter *c = &wifi_medium_counters[i];

        object_class_property_add(klass, c->name, "uint64",
                                  wifi_medium_get_counter, NULL, NULL,
                                  (void *)c->offset);
        object_class_property_set_description(klass, c->name, c->desc);
    }
}

static const TypeInfo wifi_medium_info = {
    .name = TYPE_WIFI_MEDIUM,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(WifiMedium),
    .instance_init = wifi_medium_init,
    .class_init = wifi_medium_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_USER_CREATABLE },
        { }
    },
};

static void wifi_medium_register_types(void)
{
    type_register_static(&wifi_medium_info);
}

type_init(wifi_medium_register_types);
