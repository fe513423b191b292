/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium between QEMU processes: frames to and from the
 * netdev (air-proto.h), the stations heard there, and the retransmission
 * of unicast frames whose ACK from the other process did not come back.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qemu/main-loop.h"
#include "hw/qdev-core.h"
#include <zlib.h>
#include "medium-link.h"
#include "pcap.h"
#include "trace.h"

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

bool wifi_remote_acks(WifiMedium *m, const uint8_t *addr,
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

/*
 * Put a transmission on the netdev: the media of other processes.  It gets
 * a new air sequence number, an ACK the one of the frame it answers
 * (@ack_seq).  Returns the number (0: no netdev).
 */
uint16_t wifi_link_put(WifiMedium *m, const WifiSite *site,
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
    uint8_t buf[WIFI_AIR_WHOLE_MAX];
    size_t n;

    if (!m->nic) {
        return 0;
    }
    if (ack_seq) {
        af.seq = ack_seq;
    } else {
        af.seq = ++m->air_seq ? m->air_seq : ++m->air_seq;
    }
    for (int i = 0; i < 3; i++) {
        /* positions are within WIFI_POS_MAX_M: millimetres fit 32 bits */
        af.pos_mm[i] = lround(site->pos[i] * 1000.0);
    }
    memcpy(af.radio, site->addr, sizeof(af.radio));
    /*
     * In one piece where the netdev carries it, else in fragments that fit
     * an Ethernet frame (air-proto.h).  Every packet costs each process on
     * the air a wakeup and a read, and room in its socket's receive buffer
     * (a full one drops packets, which the resends below repair only after
     * WIFI_ARQ_TIMEOUT_NS): a full-size data frame in two pieces made a TCP
     * segment four packets instead of three (its ACK, half a TCP ACK and
     * its ACK).
     */
    af.whole = m->link_whole;
    for (unsigned i = 0; i < wifi_air_pieces(&af); i++) {
        n = wifi_air_encode(buf, sizeof(buf), m->link_mac, &af, i);
        qemu_send_packet(qemu_get_queue(m->nic), buf, n);
    }
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
 * silently) is so delayed instead of lost for good.  The ACK of any copy
 * ends it (a late ACK answers an earlier copy); a copy that arrives after
 * one was delivered is acknowledged and dropped by the receiving medium
 * (wifi_rx_dup): the station would not drop it, its last sequence number
 * having moved on meanwhile.
 */
struct WifiArqFrame {
    QTAILQ_ENTRY(WifiArqFrame) next;
    uint16_t seqs[WIFI_ARQ_TRIES];      /* every copy's: any ACK ends it */
    unsigned tries;
    int64_t sent_ns;
    WifiSite site;
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

/* did the ACK of air sequence @seq from @ra come before the frame ended? */
static bool wifi_arq_early(WifiMedium *m, const uint8_t *ta, uint16_t seq)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    for (int i = 0; i < WIFI_EARLY_ACKS; i++) {
        WifiEarlyAck *e = &m->early_acks[i];

        if (e->seq == seq && now - e->at_ns < WIFI_ARQ_TIMEOUT_NS &&
            !memcmp(e->ra, ta, sizeof(e->ra))) {
            e->seq = 0;
            return true;
        }
    }
    return false;
}

void wifi_arq_add(WifiMedium *m, uint16_t seq, const WifiSite *site,
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
    if (wifi_arq_early(m, ieee80211_addr2(frame), seq)) {
        return;                 /* acknowledged already */
    }
    if (m->arq_len >= WIFI_ARQ_MAX) {
        wifi_arq_free(m, QTAILQ_FIRST(&m->arq));   /* the oldest gives up */
    }
    a = g_malloc0(sizeof(*a) + len);
    a->seqs[0] = seq;
    a->tries = 1;
    a->sent_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    a->site = *site;
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
    WifiEarlyAck *e;

    QTAILQ_FOREACH(a, &m->arq, next) {
        bool ours = false;

        for (unsigned i = 0; i < a->tries; i++) {
            ours |= a->seqs[i] == seq;
        }
        if (ours && a->len >= IEEE80211_TA_END &&
            !memcmp(ieee80211_addr2(a->data), ra, IEEE80211_ADDR_LEN)) {
            bool first = a == QTAILQ_FIRST(&m->arq);

            wifi_arq_free(m, a);
            if (first) {
                wifi_arq_arm(m);
            }
            return;
        }
    }
    /*
     * Not kept (yet): with airtime on the frame is on the netdev from its
     * start, and the other process, which delivers it at once, may answer
     * before the frame ends here and is kept.  Remember the ACK a while.
     */
    e = &m->early_acks[m->early_next];
    m->early_next = (m->early_next + 1) % WIFI_EARLY_ACKS;
    e->seq = seq;
    memcpy(e->ra, ra, sizeof(e->ra));
    e->at_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}


void wifi_arq_timer(void *opaque)
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
            trace_wifi_medium_arq(a->seqs[a->tries - 1], a->tries,
                                  "given up");
            g_free(a);
            continue;
        }
        a->tries++;
        a->data[1] |= 0x08;             /* retry bit */
        a->meta.tx_time_ns = now;
        m->arq_resent++;
        trace_wifi_medium_arq(a->seqs[a->tries - 2], a->tries, "sent again");
        wifi_pcap_write(m, now, a->data, a->len, &a->meta,
                        a->meta.txpower_dbm - 40);
        a->seqs[a->tries - 1] = wifi_link_send(m, &a->site, a->data, a->len,
                                               &a->meta, 0);
        a->sent_ns = now;
        QTAILQ_INSERT_TAIL(&m->arq, a, next);
    }
    wifi_arq_arm(m);
}

/* ---- fragments of long frames from other processes ---------------------- */

/*
 * Put fragment @af into its frame's slot.  Returns true (and points @af at
 * the whole frame in the slot) once the frame is complete.  A slot holds
 * the first fragment's header: a later one that disagrees with it is
 * rejected; a slot not completed within a second is reused.
 */
static bool wifi_reasm(WifiMedium *m, WifiAirFrame *af, int64_t now)
{
    WifiReasm *r = NULL;

    for (int i = 0; i < WIFI_REASM_SLOTS; i++) {
        WifiReasm *t = &m->reasm[i];

        if (t->have && t->hdr.sender == af->sender &&
            t->hdr.seq == af->seq && t->hdr.len == af->len) {
            r = t;
            break;
        }
    }
    if (!r) {
        /* a free slot, a stale one, or else the oldest */
        for (int i = 0; i < WIFI_REASM_SLOTS; i++) {
            WifiReasm *t = &m->reasm[i];

            if (!t->have || now - t->first_ns > NANOSECONDS_PER_SECOND) {
                r = t;
                break;
            }
            if (!r || t->first_ns < r->first_ns) {
                r = t;
            }
        }
        r->have = 0;
        r->hdr = *af;
        r->hdr.frame = NULL;
        r->first_ns = now;
    } else if (r->hdr.freq_mhz != af->freq_mhz ||
               r->hdr.rate_500k != af->rate_500k ||
               r->hdr.txpower_dbm != af->txpower_dbm ||
               r->hdr.ofdm != af->ofdm ||
               r->hdr.short_preamble != af->short_preamble ||
               r->hdr.fcs_bad != af->fcs_bad ||
               memcmp(r->hdr.pos_mm, af->pos_mm, sizeof(af->pos_mm)) ||
               memcmp(r->hdr.radio, af->radio, sizeof(af->radio)) ||
               (r->have & (1u << af->frag))) {
        r->have = 0;                /* inconsistent: drop what we have */
        m->remote_rejected++;
        trace_wifi_medium_peer_rejected("inconsistent fragment", af->len);
        return false;
    }
    memcpy(r->data + af->frag * WIFI_AIR_FRAG_DATA, af->frame, af->frag_len);
    r->have |= 1u << af->frag;
    if (r->have != (1u << af->frags) - 1) {
        return false;
    }
    r->have = 0;                    /* complete: the slot is free again */
    *af = r->hdr;
    af->frame = r->data;
    return true;
}

/* ---- duplicates of frames from other processes ------------------------- */

static bool wifi_rx_dup_candidate(const uint8_t *f, size_t len)
{
    return len >= IEEE80211_HDR_LEN && ieee80211_is_data(f) &&
           !ieee80211_is_group(ieee80211_addr1(f));
}

/* the frame's CRC-32 with the Retry bit clear (a resend sets it) */
static uint32_t wifi_rx_dup_crc(const uint8_t *f, size_t len)
{
    uint8_t fc1 = f[1] & ~IEEE80211_FC1_RETRY;

    return crc32(crc32(crc32(0, f, 1), &fc1, 1), f + 2, len - 2);
}

/*
 * Is this frame from another process (@sender) a resend of one delivered
 * here already?  Then the local radio it was for acknowledges it again
 * (the sender's wifi_arq ends: wifi_medium_reack) and it goes no further.
 */
static bool wifi_rx_dup(WifiMedium *m, uint64_t sender, const uint8_t *frame,
                        size_t len, const WifiFrameMeta *meta)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint16_t sc;
    uint32_t crc;
    int i;

    if (meta->fcs_bad || !wifi_rx_dup_candidate(frame, len) ||
        !(frame[1] & IEEE80211_FC1_RETRY)) {
        return false;
    }
    sc = lduw_le_p(frame + IEEE80211_SEQ_OFF);
    crc = wifi_rx_dup_crc(frame, len);
    for (i = 0; i < WIFI_RX_DUPS; i++) {
        WifiRxDup *d = &m->rx_dups[i];

        if (d->used && now - d->at_ns < WIFI_RX_DUP_NS &&
            d->sender == sender && d->seq_ctrl == sc && d->crc == crc &&
            !memcmp(d->ta, ieee80211_addr2(frame), 6)) {
            break;
        }
    }
    if (i == WIFI_RX_DUPS) {
        return false;
    }
    m->remote_dups++;
    trace_wifi_medium_rx_dup(sc >> 4, len);
    return true;
}

/* a frame from another process was delivered to a local radio */
void wifi_rx_delivered(WifiMedium *m, uint64_t sender, const uint8_t *frame,
                       size_t len)
{
    WifiRxDup *d;

    if (!wifi_rx_dup_candidate(frame, len)) {
        return;
    }
    d = &m->rx_dups[m->rx_dups_next];
    m->rx_dups_next = (m->rx_dups_next + 1) % WIFI_RX_DUPS;
    d->used = true;
    d->sender = sender;
    memcpy(d->ta, ieee80211_addr2(frame), 6);
    d->seq_ctrl = lduw_le_p(frame + IEEE80211_SEQ_OFF);
    d->crc = wifi_rx_dup_crc(frame, len);
    d->at_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* ---- the link to other processes ---------------------------------------- */

/*
 * A packet from the netdev: what it is.  A frame for the air comes back in
 * *@af (its bytes point into @buf or a reassembly slot), *@meta and *@site;
 * a resend of a frame delivered here already in *@af and *@meta.
 */
WifiLinkRx wifi_link_take(WifiMedium *m, const uint8_t *buf, size_t size,
                          WifiAirFrame *af, WifiFrameMeta *meta,
                          WifiSite *site)
{
    WifiAirStatus st;

    if (!size) {
        /* an empty packet (a stream peer can send one) */
        m->remote_rejected++;
        trace_wifi_medium_peer_rejected("empty", 0);
        return WIFI_LINK_EMPTY;
    }
    st = wifi_air_decode(buf, size, af);
    if (st == WIFI_AIR_NOT_OURS) {
        return WIFI_LINK_NOTHING;   /* other traffic on the netdev: ignore */
    }
    if (st != WIFI_AIR_OK) {
        m->remote_rejected++;
        trace_wifi_medium_peer_rejected(wifi_air_strerror(st), size);
        return WIFI_LINK_NOTHING;
    }
    if (af->sender == m->sender_id) {
        return WIFI_LINK_NOTHING;   /* our own, looped back by multicast */
    }
    if (af->frags > 1 &&
        !wifi_reasm(m, af, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL))) {
        return WIFI_LINK_NOTHING;   /* more to come */
    }
    m->remote_frames++;
    *meta = (WifiFrameMeta) {
        .freq_mhz = af->freq_mhz,
        .txpower_dbm = af->txpower_dbm,
        .rate_500k = af->rate_500k,
        .ofdm = af->ofdm,
        .short_preamble = af->short_preamble,
        .fcs_bad = af->fcs_bad,
        .airtime_us = af->airtime_us,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    /* the transmitter (addr2) lives over there: it will ack its frames */
    if (ieee80211_has_ta(af->frame, af->len) && !af->fcs_bad) {
        wifi_remote_learn(m, ieee80211_addr2(af->frame), af->freq_mhz);
    }
    trace_wifi_medium_rx_remote(af->freq_mhz, af->len);
    /* an ACK for one of our frames to a station over there */
    if (af->seq && af->len >= WIFI_ACK_LEN &&
        af->frame[0] == IEEE80211_FC0_ACK) {
        wifi_arq_acked(m, ieee80211_addr1(af->frame), af->seq);
    }
    if (wifi_rx_dup(m, af->sender, af->frame, af->len, meta)) {
        return WIFI_LINK_RESEND;
    }
    for (int i = 0; i < 3; i++) {
        site->pos[i] = af->pos_mm[i] / 1000.0;
    }
    memcpy(site->addr, af->radio, sizeof(site->addr));
    return WIFI_LINK_FRAME;
}

/*
 * join the medium to -netdev @m->netdev (wifi-medium property netdev), its
 * packets going to @info's receive
 */
void wifi_link_open(WifiMedium *m, NetClientInfo *info, Error **errp)
{
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
    /*
     * UDP and stream sockets carry a whole frame in one packet; anything
     * else (VDE, a tap, a bridge, a hub of several) gets Ethernet-sized
     * fragments
     */
    m->link_whole = peer->info->type == NET_CLIENT_DRIVER_SOCKET ||
                    peer->info->type == NET_CLIENT_DRIVER_STREAM ||
                    peer->info->type == NET_CLIENT_DRIVER_DGRAM;
    m->conf.peers.ncs[0] = peer;
    m->conf.peers.queues = 1;
    memcpy(m->conf.macaddr.a, m->link_mac, 6);
    m->nic = qemu_new_nic(info, &m->conf, TYPE_WIFI_MEDIUM,
                          object_get_canonical_path_component(OBJECT(m)),
                          &m->guard, m);
}

/*
 * The medium goes (wifi_medium_finalize, also after a failed complete):
 * the netdev is free again, nothing of the medium is left for a peer's
 * packet to reach, and the frames kept for resending go.
 */
void wifi_link_close(WifiMedium *m)
{
    if (m->nic) {
        qemu_del_nic(m->nic);
        m->nic = NULL;
    }
    while (!QTAILQ_EMPTY(&m->arq)) {
        wifi_arq_free(m, QTAILQ_FIRST(&m->arq));
    }
    timer_del(m->arq_timer);
}
