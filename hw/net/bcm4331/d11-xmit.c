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
 * the RX engine.  This file is the card's client of the Wi-Fi medium.
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
#include "hw/net/wifi/crypto.h"
#include "bcm4331.h"
#include "trace.h"

/* the 802.11 header up to the sequence control field the firmware reads */
#define D11_TX_MIN_HDR          IEEE80211_HDR_LEN

/* ------------------------------------------------------------------ */
/* TX status FIFO                                                      */

static void d11_txstat_push(Bcm4331State *s, uint32_t w0, uint32_t w1)
{
    D11State *m = &s->mac;
    unsigned i;

    if (m->txstat_count >= D11_TXSTAT_FIFO) {
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: TX status FIFO full\n");
        return;
    }
    i = (m->txstat_head + m->txstat_count) % D11_TXSTAT_FIFO;
    m->txstat[i][0] = w0;
    m->txstat[i][1] = w1;
    m->txstat_count++;
    m->irq_reason |= D11_IRQ_TX_OK;
    trace_bcm4331_txstat(FIELD_EX32(w0, D11_XMITSTAT_0, COOKIE),
                         FIELD_EX32(w0, D11_XMITSTAT_0, ACKED),
                         FIELD_EX32(w0, D11_XMITSTAT_0, FRAME_COUNT));
    d11_update_irq(s);
}

/*
 * The TX status of frame @cookie: @attempts transmissions (0: never sent,
 * the firmware dropped it), @acked, the frame's sequence number @seq.
 */
static void d11_txstat_report(Bcm4331State *s, uint16_t cookie,
                              unsigned attempts, bool acked, uint16_t seq)
{
    uint32_t w0 = 0, w1 = 0;

    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, VALID, 1);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, ACKED, acked);
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, FRAME_COUNT, MIN(attempts, 15));
    w0 = FIELD_DP32(w0, D11_XMITSTAT_0, COOKIE, cookie);
    w1 = FIELD_DP32(w1, D11_XMITSTAT_1, SEQ, seq);
    d11_txstat_push(s, w0, w1);
}

uint32_t d11_txstat_pop(Bcm4331State *s)
{
    D11State *m = &s->mac;
    uint32_t w0;

    if (!m->txstat_count) {
        m->txstat_latch = 0;
        return 0;
    }
    w0 = m->txstat[m->txstat_head][0];
    m->txstat_latch = m->txstat[m->txstat_head][1];
    m->txstat_head = (m->txstat_head + 1) % D11_TXSTAT_FIFO;
    m->txstat_count--;
    return w0;
}

uint32_t d11_txstat_word1(Bcm4331State *s)
{
    return s->mac.txstat_latch;
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

/* ---- airtime on: the TX FIFO between the DMA engines and the air ---- */

static bool d11_tx_fifo_room(Bcm4331State *s)
{
    return s->tx_fifo_count < D11_TX_FIFO &&
           wifi_medium_txq_len(&s->air) < WIFI_TX_QUEUE_MAX;
}

/* may an engine fetch another frame?  Not while the TX FIFO is full */
bool d11_xmit_may_fetch(Bcm4331State *s)
{
    return !(wifi_medium_paced(&s->air) && bcm_radio_on(s)) ||
           d11_tx_fifo_room(s);
}

static void d11_tx_fifo_push(Bcm4331State *s, unsigned n, uint16_t cookie,
                             uint16_t seq, bool want_ack)
{
    D11TxPending *p = &s->tx_fifo[(s->tx_fifo_head + s->tx_fifo_count) %
                                  D11_TX_FIFO];

    *p = (D11TxPending) {
        .cookie = cookie, .seq = seq, .engine = n, .want_ack = want_ack,
    };
    s->tx_fifo_count++;
}

/* engine @n was disabled or its ring moved: its frames report nothing */
void d11_xmit_engine_reset(Bcm4331State *s, unsigned n)
{
    for (uint32_t i = 0; i < s->tx_fifo_count; i++) {
        D11TxPending *p = &s->tx_fifo[(s->tx_fifo_head + i) % D11_TX_FIFO];

        if (p->engine == n) {
            p->dead = true;
        }
    }
}

/*
 * one frame: @buf = 118-byte TX header + MPDU.  On an air that takes real
 * time the frame is queued there and its TX status comes from
 * d11_air_tx_done() when the exchange ends; the engine moves on at once.
 */
void d11_xmit_tx(Bcm4331State *s, unsigned n, uint8_t *buf, size_t len)
{
    uint32_t mac_ctl;
    uint16_t phy_ctl, cookie;
    uint8_t *f = buf + D11_TXH_LEN;
    size_t flen;
    bool want_ack, group;
    unsigned limit;
    WifiTxResult r;
    WifiFrameMeta m;

    /*
     * The firmware reads the TX header and the frame's sequence field at
     * fixed offsets, whatever the guest posted: bytes it did not post read
     * as zero, never as what the bounce buffer held before (an earlier
     * frame, or host heap).
     */
    if (len < D11_TXH_LEN + D11_TX_MIN_HDR) {
        memset(buf + len, 0, D11_TXH_LEN + D11_TX_MIN_HDR - len);
    }
    mac_ctl = ldl_le_p(buf + D11_TXH_MAC_CTL);
    phy_ctl = lduw_le_p(buf + D11_TXH_PHY_CTL);
    cookie = lduw_le_p(buf + D11_TXH_COOKIE);
    want_ack = mac_ctl & D11_TXH_MAC_ACK;
    m = (WifiFrameMeta) {
        .ofdm = phy_ctl & D11_TXH_PHY_ENC_OFDM,
        .short_preamble = phy_ctl & D11_TXH_PHY_SHORTPRMBL,
        .txpower_dbm = s->txpower,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };

    if (len < D11_TXH_LEN + IEEE80211_ACK_LEN) {
        /* not a frame: the firmware drops it, reporting it not sent */
        BCM_GUEST_ERR(bcm4331_dma_ub_frame, "TX frame of %zu bytes too short",
                      len);
        d11_txstat_report(s, cookie, 0, false, 0);
        return;
    }
    flen = len - D11_TXH_LEN;
    group = ieee80211_is_group(ieee80211_addr1(f));
    bcm_fw_tx_fixup(s, n, cookie, f);
    if (mac_ctl & D11_TXH_MAC_KEYALG_MASK) {
        /* hardware key: encrypt the body, append ICV/MIC (d11-crypto.c) */
        flen = d11_tx_encrypt(s, mac_ctl, f, flen,
                              D11_TX_MAX_BYTES + D11_TX_CRYPTO_ROOM -
                              D11_TXH_LEN);
        if (!flen) {
            d11_txstat_report(s, cookie, 0, false, 0);
            return;
        }
    }
    m.rate_500k = m.ofdm ? ofdm_code_rate[buf[D11_TXH_PLCP] & 0xf]
                         : buf[D11_TXH_PLCP] / 5;
    if (!m.rate_500k || (!m.ofdm && !ieee80211_rate_is_cck(m.rate_500k))) {
        /* unknown code: the PHY sends 1 Mb/s */
        m.rate_500k = IEEE80211_RATE_1M;
        m.ofdm = false;
    }
    m.freq_mhz = s->phy.freq_mhz;
    limit = s->mac.scratch[(mac_ctl & D11_TXH_MAC_LONGFRAME) ?
                           D11_SHM_SC_LRLIMIT : D11_SHM_SC_SRLIMIT];
    limit = want_ack && !group ? MIN(MAX(limit, 1), 15) : 1;

    trace_bcm4331_tx(cookie, flen, m.rate_500k, want_ack);
    if (!bcm_radio_on(s)) {
        /* the radio is off: every attempt goes unanswered */
        d11_txstat_report(s, cookie, limit, false, ieee80211_seq(f));
        return;
    }
    switch (wifi_medium_transmit(&s->air, f, flen, &m, limit, true, &r)) {
    case WIFI_TX_QUEUED:
        /* its status comes from d11_air_tx_done() */
        d11_tx_fifo_push(s, n, cookie, ieee80211_seq(f), want_ack);
        break;
    case WIFI_TX_DONE:
        d11_txstat_report(s, cookie, r.attempts, want_ack && r.acked,
                          ieee80211_seq(f));
        break;
    default:
        d11_txstat_report(s, cookie, 0, false, 0);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* RX                                                                  */

static uint32_t d11_air_freq(WifiMediumClient *c)
{
    Bcm4331State *s = c->opaque;

    return bcm_radio_on(s) ? s->phy.freq_mhz : 0;
}

static void d11_own_mac(Bcm4331State *s, uint8_t *mac, unsigned first)
{
    for (int i = 0; i < 3; i++) {
        mac[2 * i] = s->mac.rcm[first + i];
        mac[2 * i + 1] = s->mac.rcm[first + i] >> 8;
    }
}

static bool d11_rx_ready(Bcm4331State *s)
{
    return d11_mac_running(s) && bcm_radio_on(s) && d11_dma_rx_enabled(s);
}

static bool d11_air_acks(WifiMediumClient *c, const uint8_t *addr1)
{
    Bcm4331State *s = c->opaque;
    uint8_t own[6];

    d11_own_mac(s, own, 0);
    return d11_rx_ready(s) && !memcmp(addr1, own, 6);
}

/* the firmware's receive filter (what b43_adjust_opmode() selects) */
static bool d11_rx_filter(Bcm4331State *s, const uint8_t *f, size_t len)
{
    bool ctrl;
    uint8_t own[IEEE80211_ADDR_LEN];

    if (len < IEEE80211_ACK_LEN) {
        return false;
    }
    ctrl = ieee80211_is_ctrl(f);
    if (ctrl && !FIELD_EX32(s->mac.macctl, D11_MACCTL, KEEP_CTL)) {
        return false;           /* control frames: consumed by the MAC */
    }
    d11_own_mac(s, own, 0);
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
    return FIELD_EX32(s->mac.macctl, D11_MACCTL, PROMISC) ||
           (FIELD_EX32(s->mac.macctl, D11_MACCTL, KEEP_CTL) &&
            FIELD_EX32(s->mac.macctl, D11_MACCTL, BEACPROMISC));
}

static void d11_rx_frame(Bcm4331State *s, const uint8_t *f, size_t len,
                         const WifiFrameMeta *meta)
{
    uint32_t fo = d11_dma_rx_offset(s), octets;
    g_autofree uint8_t *buf = NULL;
    size_t total, flen = len + 4;           /* frame + FCS */
    uint64_t tsf;
    uint32_t fcs, macstat;
    D11RxSlot slot;

    if (!d11_rx_ready(s) || meta->freq_mhz != s->phy.freq_mhz) {
        return;
    }
    /*
     * A frame with a bad FCS: its addresses cannot be trusted, the
     * firmware passes it (flagged) only when asked to (KEEP_BAD).
     */
    if (meta->fcs_bad ? !FIELD_EX32(s->mac.macctl, D11_MACCTL, KEEP_BAD)
                      : !d11_rx_filter(s, f, len)) {
        return;
    }
    fo = MAX(fo, D11_RXH_LEN);
    total = fo + D11_PLCP_LEN + flen;
    if (!d11_dma_rx_reserve(s, total, len, &slot)) {
        return;
    }
    buf = g_malloc0(total);
    /* a protected frame for which the key table has a key: decrypt */
    memcpy(buf + fo + D11_PLCP_LEN, f, len);
    macstat = meta->fcs_bad ? D11_RX_MAC_FCSERR :
              d11_rx_decrypt(s, buf + fo + D11_PLCP_LEN, len);
    /* RX header, format 598 */
    stw_le_p(buf + D11_RXH_FRAME_LEN, D11_PLCP_LEN + flen);
    stw_le_p(buf + D11_RXH_PHY_STATUS0, meta->ofdm ? D11_RX_PHYST0_OFDM :
             meta->short_preamble ? D11_RX_PHYST0_SHORTPRMBL : 0);
    memset(buf + D11_RXH_HT_POWER0, (uint8_t)meta->signal_dbm,
           D11_RXH_HT_POWERS);
    stl_le_p(buf + D11_RXH_MAC_STATUS, macstat);
    tsf = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / SCALE_US +
          s->mac.tsf_offset;
    stw_le_p(buf + D11_RXH_MAC_TIME, (tsf - meta->airtime_us - 1) & 0xffff);
    stw_le_p(buf + D11_RXH_CHANNEL,
             (bcm_phy_channel(s) << D11_RXH_CHANNEL_SHIFT) |
             D11_RXH_PHYTYPE_HT);
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

    if (!d11_dma_rx_commit(s, &slot, buf, total)) {
        return;
    }
    trace_bcm4331_rx(len, meta->signal_dbm, slot.cd);
    d11_update_irq(s);
}

static void d11_air_receive(WifiMediumClient *c, const uint8_t *f, size_t len,
                            const WifiFrameMeta *meta)
{
    Bcm4331State *s = c->opaque;

    d11_dma_hold(s);
    d11_rx_frame(s, f, len, meta);
    d11_dma_release(s);
}

/* airtime on: the exchange of the oldest frame in the TX FIFO is over */
static void d11_air_tx_done(WifiMediumClient *c, bool acked,
                            unsigned attempts)
{
    Bcm4331State *s = c->opaque;
    D11TxPending *p;

    if (!s->tx_fifo_count) {
        return;                 /* a frame queued before a reset */
    }
    p = &s->tx_fifo[s->tx_fifo_head];
    s->tx_fifo_head = (s->tx_fifo_head + 1) % D11_TX_FIFO;
    s->tx_fifo_count--;
    if (!p->dead) {
        d11_txstat_report(s, p->cookie, attempts, p->want_ack && acked,
                          p->seq);
    }
    d11_dma_fetch_now(s);       /* room in the FIFO again */
}

/* a monitor asked for frames with a bad FCS (mac80211 FIF_FCSFAIL) */
static bool d11_air_wants_bad_fcs(WifiMediumClient *c)
{
    Bcm4331State *s = c->opaque;

    return d11_rx_ready(s) && FIELD_EX32(s->mac.macctl, D11_MACCTL, KEEP_BAD);
}

static const WifiMediumClientOps d11_air_ops = {
    .freq = d11_air_freq,
    .acks = d11_air_acks,
    .receive = d11_air_receive,
    .wants_bad_fcs = d11_air_wants_bad_fcs,
    .tx_done = d11_air_tx_done,
};

void d11_xmit_init(Bcm4331State *s)
{
    DeviceState *dev = DEVICE(s);

    s->air.ops = &d11_air_ops;
    s->air.opaque = s;
    s->air.name = dev->id ? dev->id : "bcm4331";
    memcpy(s->air.pos, s->pos, sizeof(s->pos));
    wifi_medium_attach(s->medium, &s->air, dev);
}

void d11_xmit_exit(Bcm4331State *s)
{
    wifi_medium_detach(&s->air);
}

void d11_xmit_reset(Bcm4331State *s)
{
    D11State *m = &s->mac;

    m->txstat_head = 0;
    m->txstat_count = 0;
    m->txstat_latch = 0;
    /* the frames in the TX FIFO are dropped, unreported */
    s->tx_fifo_head = 0;
    s->tx_fifo_count = 0;
    wifi_medium_flush(&s->air);
}

/*
 * Migration: the frames in the TX FIFO were queued on the source's air,
 * which does not move.  For the driver they were sent and not
 * acknowledged (lost in the move): it gets their TX status here, in order,
 * so that its rings stay in step.
 */
int d11_xmit_post_load(Bcm4331State *s)
{
    if (s->tx_fifo_head >= D11_TX_FIFO || s->tx_fifo_count > D11_TX_FIFO) {
        return -EINVAL;
    }
    while (s->tx_fifo_count) {
        D11TxPending *p = &s->tx_fifo[s->tx_fifo_head];

        if (!p->dead) {
            d11_txstat_report(s, p->cookie, 1, false, p->seq);
        }
        s->tx_fifo_head = (s->tx_fifo_head + 1) % D11_TX_FIFO;
        s->tx_fifo_count--;
    }
    s->tx_fifo_head = 0;
    return 0;
}

static const VMStateDescription vmstate_d11_tx_pending = {
    .name = "bcm4331/tx-pending",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(cookie, D11TxPending),
        VMSTATE_UINT16(seq, D11TxPending),
        VMSTATE_UINT8(engine, D11TxPending),
        VMSTATE_BOOL(want_ack, D11TxPending),
        VMSTATE_BOOL(dead, D11TxPending),
        VMSTATE_END_OF_LIST()
    },
};

static bool d11_tx_fifo_needed(void *opaque)
{
    Bcm4331State *s = opaque;

    return s->tx_fifo_count != 0;
}

const VMStateDescription vmstate_d11_tx_fifo = {
    .name = "bcm4331/tx-fifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = d11_tx_fifo_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(tx_fifo_head, Bcm4331State),
        VMSTATE_UINT32(tx_fifo_count, Bcm4331State),
        VMSTATE_STRUCT_ARRAY(tx_fifo, Bcm4331State, D11_TX_FIFO, 1,
                             vmstate_d11_tx_pending, D11TxPending),
        VMSTATE_END_OF_LIST()
    },
};
