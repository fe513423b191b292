/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the data path of the firmware emulation.  TX: the
 * frame the DMA engines gathered (TX header + MPDU) goes onto the air at
 * the rate of its PLCP header, with the retries its header asks for, and
 * its TX status goes to the TX status FIFO (XMITSTAT); with airtime on the
 * frames wait in the PHY's TX FIFO until their exchange ends.  RX: the
 * firmware's receive filter, decryption with the key table, the RX header,
 * the PLCP header and the FCS in front of and behind the frame, handed to
 * the RX engine.  The hub (d11-core.c) is the card's client of the Wi-Fi
 * medium and calls these functions; they work on the MAC they are given.
 *
 * Formats: Linux drivers/net/wireless/broadcom/b43/xmit.c, xmit.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "migration/vmstate.h"
#include <zlib.h>
#include "net/wifi/crypto.h"
#include "d11-xmit.h"
#include "d11-dma.h"        /* D11_TX_MAX_BYTES, D11_TX_CRYPTO_ROOM */
#include "d11-crypto.h"
#include "trace.h"

/* the 802.11 header up to the sequence control field the firmware reads */
#define D11_TX_MIN_HDR          IEEE80211_HDR_LEN

/* ------------------------------------------------------------------ */
/* TX status                                                           */

/*
 * The TX status of frame @cookie: @attempts transmissions (0: never sent,
 * the firmware dropped it), @acked, the frame's sequence number @seq.
 */
static void d11_txstat_report_rts(D11State *m, uint16_t cookie,
                                  unsigned attempts, unsigned rts,
                                  bool acked, uint16_t seq)
{
    uint32_t w0 = 0, w1 = 0;

    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, VALID, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, ACKED, acked);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, RTS_COUNT, MIN(rts, 15));
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, FRAME_COUNT, MIN(attempts, 15));
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, COOKIE, cookie);
    w1 = FIELD_DP32(w1, D11_XMITSTAT_1, SEQ, seq);
    d11_txstat_push(m, w0, w1);
}

static void d11_txstat_report(D11State *m, uint16_t cookie,
                              unsigned attempts, bool acked, uint16_t seq)
{
    d11_txstat_report_rts(m, cookie, attempts, 0, acked, seq);
}

/*
 * The status of an A-MPDU (brcmsmac ampdu.c brcms_c_ampdu_dotxstatus()):
 * with a block ack, two entries: the first (ACK, INTERMEDIATE, AMPDU) with
 * the first MPDU's frame id, bitmap bits 3:0 in 15:12 and the starting
 * sequence number; the second (AMPDU) with bitmap bits 7:4 in 4:1, bits
 * 31:8 in its bits 31:8 and bits 63:32 in its second word.  Without one:
 * a single entry, nothing acknowledged.
 */
static void d11_txstat_ampdu(D11State *m, const D11Ampdu *a)
{
    uint32_t w0 = 0, w1 = 0;

    trace_bcm4331_txstat_ampdu(a->cookie, a->start_seq, a->bitmap);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, VALID, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, FOR_AMPDU, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, COOKIE, a->cookie);
    if (!a->bitmap) {
        w0 = FIELD_DP32(w0, D11_XMITSTAT_0, FRAME_COUNT,
                        MIN(a->attempts, 15));
        d11_txstat_push(m, w0, FIELD_DP32(w1, D11_XMITSTAT_1, SEQ,
                                          a->start_seq << 4));
        return;
    }
    if (!d11_txstat_room(m, 2)) {
        BCM_GUEST_ERR(bcm4331_txstat_ub_ampdu_full, "TX status FIFO full "
                      "(block ack)");
        return;
    }
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, ACKED, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, INTERMEDIATE, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, FRAME_COUNT, a->bitmap & 0xf);
    w1 = FIELD_DP32(w1, D11_XMITSTAT_1, SEQ, a->start_seq << 4);
    d11_txstat_push(m, w0, w1);
    w0 = R_D11_XMITSTAT_0_VALID_MASK | R_D11_XMITSTAT_0_FOR_AMPDU_MASK |
         ((a->bitmap >> 4) & 0xf) << 1 | (uint32_t)(a->bitmap & ~0xffull);
    d11_txstat_push(m, w0, a->bitmap >> 32);
}

/*
 * The status of a frame engine @n sent (@seq its sequence number), @pos
 * its place in an A-MPDU: an aggregate reports once its last MPDU is done.
 */
static void d11_txstat_frame(D11Xmit *x, D11State *m, unsigned n,
                             unsigned pos,
                             uint16_t cookie, unsigned attempts, unsigned rts,
                             bool acked, uint16_t seq)
{
    D11Ampdu *a = &x->ampdu[n];
    unsigned i;

    if (pos == D11_AMPDU_NONE) {
        d11_txstat_report_rts(m, cookie, attempts, rts, acked, seq);
        return;
    }
    if (!a->open || pos == D11_AMPDU_FIRST) {
        /* an aggregate starts (a lone MPDU is a LAST one) */
        *a = (D11Ampdu) {
            .open = true, .cookie = cookie, .start_seq = seq & 0xfff,
        };
    }
    i = (seq - a->start_seq) & 0xfff;
    if (acked && i < 64) {
        a->bitmap |= 1ull << i;
    }
    a->attempts = MAX(a->attempts, MIN(attempts, 15));
    if (pos == D11_AMPDU_LAST) {
        d11_txstat_ampdu(m, a);
        a->open = false;
    }
}

/* ------------------------------------------------------------------ */
/* TX                                                                  */

/* PLCP rate codes (b43 xmit.c) <-> rate in 500 kb/s units */
static const uint8_t ofdm_code_rate[16] = {
    [0xb] = 12, [0xf] = 18, [0xa] = 24, [0xe] = 36,
    [0x9] = 48, [0xd] = 72, [0x8] = 96, [0xc] = 108,
};

static uint8_t ofdm_rate_code(uint16_t rate)
{
    for (int i = 0; i < 16; i++) {
        if (ofdm_code_rate[i] == rate) {
            return i;
        }
    }
    return 0;
}

/*
 * The rate of the PLCP header at @plcp (OFDM or CCK): 500 kb/s units, 0
 * for a code the PHY does not know
 */
static uint16_t d11_plcp_rate(const uint8_t *plcp, bool ofdm)
{
    uint16_t rate = ofdm ? ofdm_code_rate[plcp[0] & 0xf] : plcp[0] / 5;

    return ofdm || ieee80211_rate_is_cck(rate) ? rate : 0;
}

/*
 * An HT frame (MCS in its PLCP): the air carries it at the OFDM rate of
 * the same modulation and coding (MCS 0-7, and the second stream's 8-15;
 * 5/6 as 3/4), so its airtime and error rate are those of that rate.
 */
static uint16_t d11_ht_rate(const uint8_t *plcp)
{
    static const uint8_t legacy[8] = { 12, 24, 36, 48, 72, 96, 108, 108 };

    return legacy[plcp[0] & 7];
}

/* the rate of the PLCP at @plcp, frame type @ft (D11_TXH_PHY_ENC_*) */
static uint16_t d11_rate(const uint8_t *plcp, unsigned ft, bool *ofdm)
{
    *ofdm = ft != D11_TXH_PHY_ENC_CCK;
    return ft == D11_TXH_PHY_ENC_HT ? d11_ht_rate(plcp)
                                    : d11_plcp_rate(plcp, *ofdm);
}

/* ---- airtime on: the TX FIFO between the DMA engines and the air ---- */

/*
 * The air's queue for this radio holds the TX FIFO's frames and beacons;
 * beacons leave room for a full FIFO, so a frame the engines fetched is
 * never refused and the FIFO's full line follows the FIFO alone (every
 * frame in it ends with tx_done).
 */
QEMU_BUILD_BUG_ON(D11_TX_FIFO >= WIFI_TX_QUEUE_MAX);

static bool d11_tx_fifo_room(D11Xmit *x)
{
    return x->tx_fifo_count < D11_TX_FIFO;
}

/* the FIFO is full: the engines fetch nothing until an exchange ends */
bool d11_xmit_tx_fifo_full(D11Xmit *x)
{
    return !d11_tx_fifo_room(x);
}

/* a frame went into the TX FIFO */
static void d11_tx_fifo_push(D11Xmit *x, unsigned n, uint16_t cookie,
                             uint16_t seq, bool want_ack, unsigned ampdu)
{
    D11TxPending *p = &x->tx_fifo[(x->tx_fifo_head + x->tx_fifo_count) %
                                  D11_TX_FIFO];

    *p = (D11TxPending) {
        .cookie = cookie, .seq = seq, .engine = n, .want_ack = want_ack,
        .ampdu = ampdu,
    };
    x->tx_fifo_count++;
}

/* engine @n was disabled or its ring moved: its frames report nothing */
void d11_xmit_engine_reset(D11Xmit *x, unsigned n)
{
    x->ampdu[n].open = false;
    for (uint32_t i = 0; i < x->tx_fifo_count; i++) {
        D11TxPending *p = &x->tx_fifo[(x->tx_fifo_head + i) % D11_TX_FIFO];

        if (p->engine == n) {
            p->dead = true;
        }
    }
}

/*
 * The TX header of the frame at @buf (@len bytes) into @t.  The firmware
 * reads the TX header and the frame's sequence field at fixed offsets,
 * whatever the guest posted: bytes it did not post read as zero, never as
 * what the bounce buffer held before (an earlier frame, or host heap).
 */
static uint32_t d11_txh_read(unsigned n, uint8_t *buf, size_t len,
                             D11TxFrame *t)
{
    uint32_t mac_ctl;
    uint16_t phy_ctl;

    if (len < D11_TXH_LEN + D11_TX_MIN_HDR) {
        memset(buf + len, 0, D11_TXH_LEN + D11_TX_MIN_HDR - len);
    }
    mac_ctl = ldl_le_p(buf + D11_TXH_MAC_CTL);
    phy_ctl = lduw_le_p(buf + D11_TXH_PHY_CTL);
    *t = (D11TxFrame) {
        .engine = n,
        .cookie = lduw_le_p(buf + D11_TXH_COOKIE),
        .want_ack = mac_ctl & D11_TXH_MAC_ACK,
        .ampdu = (mac_ctl & D11_TXH_MAC_AMPDU_MASK) >>
                 D11_TXH_MAC_AMPDU_SHIFT,
        .mpdu = buf + D11_TXH_LEN,
        .meta = {
            .short_preamble = phy_ctl & D11_TXH_PHY_SHORTPRMBL,
            .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
        },
    };
    if (n >= D11_DMA_MCAST_ENGINE) {
        t->ampdu = D11_AMPDU_NONE;  /* aggregates are per TID: FIFOs 0-3 */
    }
    return mac_ctl;
}

/* the main rate of the PLCP header, and the fallback rate */
static void d11_tx_rates(D11State *m, const uint8_t *buf, uint32_t mac_ctl,
                         WifiFrameMeta *meta)
{
    unsigned ft = lduw_le_p(buf + D11_TXH_PHY_CTL) & D11_TXH_PHY_ENC_MASK;
    uint8_t fb_ft = buf[D11_TXH_EXTRA_FT] & D11_TXH_EFT_FB_MASK;

    meta->rate_500k = d11_rate(buf + D11_TXH_PLCP, ft, &meta->ofdm);
    if (!meta->rate_500k) {
        /* unknown code: the PHY sends 1 Mb/s */
        meta->rate_500k = IEEE80211_RATE_1M;
        meta->ofdm = false;
    }
    /*
     * The fallback rate (b43_calc_fallback_rate(): a step down) once the
     * firmware's fallback limit of attempts at the main rate is used up
     * (B43_SHM_SH_SFFBLIM/LFFBLIM, which b43 sets to 3 and 2)
     */
    if (fb_ft != D11_TXH_PHY_ENC_VHT) {
        meta->fallback_rate_500k = d11_rate(buf + D11_TXH_PLCP_FB, fb_ft,
                                            &meta->fallback_ofdm);
        meta->fallback_after = MIN(d11_shm_read16(m,
                                       (mac_ctl & D11_TXH_MAC_LONGFRAME) ?
                                       D11_SHM_SH_LFFBLIM :
                                       D11_SHM_SH_SFFBLIM),
                                   UINT8_MAX);
        if (!meta->fallback_rate_500k || !meta->fallback_after) {
            meta->fallback_after = 0;       /* no (known) fallback */
        }
    }
}

/*
 * RTS or CTS-to-self before the frame (airtime on): the frame b43 wrote
 * into the header, at the header's RTS rate
 */
static void d11_tx_protection(D11State *m, const uint8_t *buf,
                              uint32_t mac_ctl, WifiFrameMeta *meta)
{
    uint8_t rts_ft = buf[D11_TXH_EXTRA_FT] & D11_TXH_EFT_RTS_MASK;

    if (!(mac_ctl & (D11_TXH_MAC_SENDRTS | D11_TXH_MAC_SENDCTS))) {
        return;
    }
    meta->prot = (mac_ctl & D11_TXH_MAC_SENDRTS) ? WIFI_PROT_RTS
                                                  : WIFI_PROT_CTS;
    meta->prot_ofdm = rts_ft == D11_TXH_EFT_RTS_OFDM;
    meta->prot_rate_500k = d11_plcp_rate(buf + D11_TXH_PHY_RATE_RTS,
                                         meta->prot_ofdm);
    if (!meta->prot_rate_500k ||
        (rts_ft != D11_TXH_EFT_RTS_CCK && rts_ft != D11_TXH_EFT_RTS_OFDM)) {
        meta->prot_rate_500k = IEEE80211_RATE_1M;
        meta->prot_ofdm = false;
    }
    memcpy(meta->prot_frame, buf + D11_TXH_RTS_FRAME, WIFI_RTS_LEN);
    meta->prot_limit = MIN(MAX(d11_scratch(m, D11_SHM_SC_SRLIMIT), 1), 15);
}

/* how often the frame goes out at most: the firmware's retry limits */
static unsigned d11_tx_limit(D11State *m, const D11TxFrame *t,
                             uint32_t mac_ctl)
{
    unsigned limit = d11_scratch(m, (mac_ctl & D11_TXH_MAC_LONGFRAME) ?
                                    D11_SHM_SC_LRLIMIT : D11_SHM_SC_SRLIMIT);
    bool group = ieee80211_is_group(ieee80211_addr1(t->mpdu));

    if (t->ampdu != D11_AMPDU_NONE) {
        /* an aggregate goes once; the driver resends what was missed */
        return 1;
    }
    return t->want_ack && !group ? MIN(MAX(limit, 1), 15) : 1;
}

/*
 * One frame engine @n fetched: @buf = 118-byte TX header + MPDU, @len
 * bytes, read into @t for the air (the hub adds the radio's frequency and
 * power).  False when the firmware drops it: its TX status is written.
 */
bool d11_xmit_tx_prepare(D11Xmit *x, D11State *m, unsigned n, uint8_t *buf,
                         size_t len, D11TxFrame *t)
{
    uint32_t mac_ctl = d11_txh_read(n, buf, len, t);

    if (len < D11_TXH_LEN + IEEE80211_ACK_LEN) {
        /* not a frame: the firmware drops it, reporting it not sent */
        BCM_GUEST_ERR(bcm4331_dma_ub_frame, "TX frame of %zu bytes too short",
                      len);
        d11_txstat_report(m, t->cookie, 0, false, 0);
        return false;
    }
    t->len = len - D11_TXH_LEN;
    t->seq = ieee80211_seq(t->mpdu);
    /* "Ucode will clear MOREDATA on the last frame for us" (b43 dma.c) */
    if (n == D11_DMA_MCAST_ENGINE &&
        t->cookie == d11_shm_read16(m, D11_SHM_SH_MCASTCOOKIE)) {
        t->mpdu[1] &= ~IEEE80211_FC1_MOREDATA;
    }
    if (mac_ctl & D11_TXH_MAC_KEYALG_MASK) {
        /* hardware key: encrypt the body, append ICV/MIC (d11-crypto.c) */
        t->len = d11_tx_encrypt(m, mac_ctl, t->mpdu, t->len,
                                D11_TX_MAX_BYTES + D11_TX_CRYPTO_ROOM -
                                D11_TXH_LEN);
        if (!t->len) {
            d11_txstat_frame(x, m, n, t->ampdu, t->cookie, 0, 0, false,
                             t->seq);
            return false;
        }
    }
    d11_tx_rates(m, buf, mac_ctl, &t->meta);
    d11_tx_protection(m, buf, mac_ctl, &t->meta);
    t->limit = d11_tx_limit(m, t, mac_ctl);
    trace_bcm4331_tx(t->cookie, t->len, t->meta.rate_500k, t->want_ack);
    return true;
}

/* the radio is off: every attempt goes unanswered */
void d11_xmit_tx_unsent(D11Xmit *x, D11State *m, const D11TxFrame *t)
{
    d11_txstat_frame(x, m, t->engine, t->ampdu, t->cookie, t->limit, 0,
                     false, t->seq);
}

/*
 * The air took the frame (@st, as wifi_medium_transmit() said): its TX
 * status now (airtime off, result @r), or once its exchange ends
 * (d11_xmit_tx_done())
 */
void d11_xmit_tx_sent(D11Xmit *x, D11State *m, const D11TxFrame *t,
                      WifiTxStatus st, const WifiTxResult *r)
{
    switch (st) {
    case WIFI_TX_QUEUED:
        d11_tx_fifo_push(x, t->engine, t->cookie, t->seq, t->want_ack,
                         t->ampdu);
        break;
    case WIFI_TX_DONE:
        d11_txstat_frame(x, m, t->engine, t->ampdu, t->cookie, r->attempts,
                         0, t->want_ack && r->acked, t->seq);
        break;
    default:
        d11_txstat_frame(x, m, t->engine, t->ampdu, t->cookie, 0, 0, false,
                         t->seq);
        break;
    }
}

/*
 * airtime on: the exchange of the oldest frame in the TX FIFO is over;
 * false if the FIFO was empty (a frame queued before a reset)
 */
bool d11_xmit_tx_done(D11Xmit *x, D11State *m, const WifiTxResult *r)
{
    D11TxPending *p;

    if (!x->tx_fifo_count) {
        return false;
    }
    p = &x->tx_fifo[x->tx_fifo_head];
    x->tx_fifo_head = (x->tx_fifo_head + 1) % D11_TX_FIFO;
    x->tx_fifo_count--;
    if (!p->dead) {
        d11_txstat_frame(x, m, p->engine, p->ampdu, p->cookie, r->attempts,
                         r->rts_attempts, p->want_ack && r->acked, p->seq);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* RX                                                                  */

/* the firmware's receive filter (what b43_adjust_opmode() selects) */
static bool d11_rx_filter(uint32_t macctl, const uint8_t *own,
                          const uint8_t *f, size_t len)
{
    bool ctrl;

    if (len < IEEE80211_ACK_LEN) {
        return false;
    }
    ctrl = ieee80211_is_ctrl(f);
    if (ctrl && !FIELD_EX32(macctl, D11_MACCTL, KEEP_CTL)) {
        return false;           /* control frames: consumed by the MAC */
    }
    /* ACK and CTS to us answer our own frames: the firmware eats them */
    if (ctrl && (ieee80211_subtype(f) == IEEE80211_STYPE_ACK ||
                 ieee80211_subtype(f) == IEEE80211_STYPE_CTS) &&
        !memcmp(ieee80211_addr1(f), own, IEEE80211_ADDR_LEN)) {
        return false;
    }
    if (ieee80211_is_group(ieee80211_addr1(f)) ||
        !memcmp(ieee80211_addr1(f), own, IEEE80211_ADDR_LEN)) {
        return true;
    }
    /*
     * Everything else only for a monitor: b43 cannot set PROMISC on this
     * core, but asks for control frames and all beacons (mac80211's
     * FIF_CONTROL and FIF_BCN_PRBRESP_PROMISC with a monitor interface).
     */
    return FIELD_EX32(macctl, D11_MACCTL, PROMISC) ||
           (FIELD_EX32(macctl, D11_MACCTL, KEEP_CTL) &&
            FIELD_EX32(macctl, D11_MACCTL, BEACPROMISC));
}

/*
 * Does the firmware keep the frame?  One with a bad FCS: its addresses
 * cannot be trusted, the firmware passes it (flagged) only when asked to
 * (KEEP_BAD).
 */
bool d11_xmit_rx_accept(uint32_t macctl, const uint8_t *own,
                        const uint8_t *f, size_t len,
                        const WifiFrameMeta *meta)
{
    return meta->fcs_bad ? FIELD_EX32(macctl, D11_MACCTL, KEEP_BAD)
                         : d11_rx_filter(macctl, own, f, len);
}

/*
 * The buffer the RX engine writes (zeroed, @fo + PLCP + frame + FCS
 * bytes): the RX header at 0, the PLCP header at @fo, then the frame,
 * decrypted with the key table when it can be, and its FCS
 */
void d11_xmit_rx_build(D11State *m, const BcmPhyRx *phy, uint8_t *buf,
                       uint32_t fo, const uint8_t *f, size_t len,
                       const WifiFrameMeta *meta)
{
    size_t flen = len + 4;                  /* frame + FCS */
    uint32_t fcs, macstat, octets;
    uint64_t tsf;

    /* a protected frame for which the key table has a key: decrypt */
    memcpy(buf + fo + D11_PLCP_LEN, f, len);
    macstat = meta->fcs_bad ? D11_RX_MAC_FCSERR :
              d11_rx_decrypt(m, buf + fo + D11_PLCP_LEN, len);
    /* RX header, format 598 */
    stw_le_p(buf + D11_RXH_FRAME_LEN, D11_PLCP_LEN + flen);
    stw_le_p(buf + D11_RXH_PHY_STATUS0, meta->ofdm ? D11_RX_PHYST0_OFDM :
             meta->short_preamble ? D11_RX_PHYST0_SHORTPRMBL : 0);
    /* the signal each radio core measured: where the PHY reports it */
    memset(buf + phy->power_at, (uint8_t)meta->signal_dbm, D11_RXH_POWERS);
    stl_le_p(buf + D11_RXH_MAC_STATUS, macstat | D11_RX_MAC_PHYST_VALID);
    tsf = d11_tsf_now(m);
    stw_le_p(buf + D11_RXH_MAC_TIME, (tsf - meta->airtime_us - 1) & 0xffff);
    stw_le_p(buf + D11_RXH_CHANNEL,
             (phy->channel << D11_RXH_CHANNEL_SHIFT) | phy->phy_type);
    /* PLCP header as the PHY received it */
    octets = flen;
    if (meta->ofdm) {
        stl_le_p(buf + fo, ofdm_rate_code(meta->rate_500k) | (octets << 5));
    } else {
        buf[fo] = meta->rate_500k * 5;
        buf[fo + 1] = 0x04;
        stw_le_p(buf + fo + 2, DIV_ROUND_UP(octets * 16, meta->rate_500k));
    }
    fcs = crc32(0, f, len);             /* the FCS of the frame on air */
    if (meta->fcs_bad) {
        fcs = ~fcs;             /* what the air did to it */
    }
    stl_le_p(buf + fo + D11_PLCP_LEN + len, fcs);
}

/* ------------------------------------------------------------------ */
/* reset, migration                                                    */

void d11_xmit_reset(D11Xmit *x)
{
    /* the frames in the TX FIFO are dropped, unreported */
    x->tx_fifo_head = 0;
    x->tx_fifo_count = 0;
    memset(x->ampdu, 0, sizeof(x->ampdu));
}

/*
 * Migration: the frames in the TX FIFO were queued on the source's air,
 * which does not move.  For the driver they were sent and not
 * acknowledged (lost in the move): it gets their TX status here, in order,
 * so that its rings stay in step.  Called once every block is loaded, and
 * once the hub flushed what the medium still held of this card.
 */
void d11_xmit_post_load(D11Xmit *x, D11State *m)
{
    while (x->tx_fifo_count) {
        D11TxPending *p = &x->tx_fifo[x->tx_fifo_head];

        if (!p->dead) {
            d11_txstat_frame(x, m, p->engine, p->ampdu, p->cookie, 1, 0,
                             false, p->seq);
        }
        x->tx_fifo_head = (x->tx_fifo_head + 1) % D11_TX_FIFO;
        x->tx_fifo_count--;
    }
    x->tx_fifo_head = 0;
}

static const VMStateDescription vmstate_d11_tx_pending = {
    .name = "bcm4331/tx-pending",
    .version_id = 2,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(cookie, D11TxPending),
        VMSTATE_UINT16(seq, D11TxPending),
        VMSTATE_UINT8(engine, D11TxPending),
        VMSTATE_UINT8_V(ampdu, D11TxPending, 2),
        VMSTATE_BOOL(want_ack, D11TxPending),
        VMSTATE_BOOL(dead, D11TxPending),
        VMSTATE_END_OF_LIST()
    },
};

static int d11_xmit_vm_post_load(void *opaque, int version_id)
{
    D11Xmit *x = opaque;

    /* indexes into fixed arrays: reject nonsense */
    if (x->tx_fifo_head >= D11_TX_FIFO || x->tx_fifo_count > D11_TX_FIFO) {
        return -EINVAL;
    }
    for (unsigned i = 0; i < D11_TX_FIFO; i++) {
        if (x->tx_fifo[i].engine >= D11_DMA_ENGINES ||
            x->tx_fifo[i].ampdu > D11_AMPDU_LAST) {
            return -EINVAL;
        }
    }
    return 0;
}

static const VMStateDescription vmstate_d11_ampdu = {
    .name = "bcm4331/ampdu",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(open, D11Ampdu),
        VMSTATE_UINT16(cookie, D11Ampdu),
        VMSTATE_UINT16(start_seq, D11Ampdu),
        VMSTATE_UINT8(attempts, D11Ampdu),
        VMSTATE_UINT64(bitmap, D11Ampdu),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_d11_xmit = {
    .name = "bcm4331-d11-xmit",
    .version_id = 2,
    .minimum_version_id = 1,
    .post_load = d11_xmit_vm_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(tx_fifo_head, D11Xmit),
        VMSTATE_UINT32(tx_fifo_count, D11Xmit),
        VMSTATE_STRUCT_ARRAY(tx_fifo, D11Xmit, D11_TX_FIFO, 1,
                             vmstate_d11_tx_pending, D11TxPending),
        VMSTATE_STRUCT_ARRAY(ampdu, D11Xmit, D11_DMA_ENGINES, 2,
                             vmstate_d11_ampdu, D11Ampdu),
        VMSTATE_END_OF_LIST()
    },
};
