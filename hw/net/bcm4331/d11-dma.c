/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core's 64-bit DMA engines and the data path
 * of the firmware emulation: TX frames from the rings onto the simulated
 * air with their TX status, frames from the air into the RX ring.
 *
 * Descriptor and header formats: Linux drivers/net/wireless/broadcom/b43/
 * dma.c, dma.h, xmit.c, xmit.h (see contract-b43-mac.md sections 4-6).
 * Every descriptor, address and length comes from the guest and is checked;
 * walks are bounded per bottom-half run.  The BCM4331 erratum that copies
 * bit 12 of the RX ring address into RXSTATUS's current-descriptor field is
 * reproduced (property rx-cd-erratum, on by default): see docs.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "hw/pci/pci_device.h"
#include "system/dma.h"
#include "migration/vmstate.h"
#include <zlib.h>
#include "hw/net/wifi/crypto.h"
#include "bcm4331.h"
#include "trace.h"

#define DMA_GUEST_ERR(trace, fmt, ...)                                  \
    do {                                                                \
        (trace_##trace)(__VA_ARGS__);                                   \
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: " #trace ": " fmt "\n", \
                      ## __VA_ARGS__);                                  \
    } while (0)

/* frames one engine may send per bottom-half run (then reschedule) */
#define D11_TX_BUDGET           32
/* descriptors one frame may span: b43 uses 2 (header, frame) */
#define D11_TX_MAX_DESC         8
#define D11_TX_MAX_BYTES        (D11_TXH_LEN + WIFI_MAX_FRAME)
/* what encryption appends: the CCMP MIC (WEP/TKIP: the 4-byte ICV) */
#define D11_TX_CRYPTO_ROOM      WIFI_CCMP_MIC_LEN
/* the 802.11 header up to the sequence control field the firmware reads */
#define D11_TX_MIN_HDR          24

static uint32_t *dma_reg(Bcm4331State *s, unsigned n, uint32_t rel)
{
    return &s->mac.regs[(D11_DMA_BASE + 0x40 * n + rel) >> 2];
}

/*
 * A 64-bit DMA address as b43 programs it on a bcma PCIe host: the high
 * word carries the backplane->PCIe translation bit 31, the two top address
 * bits travel in the 2-bit ADDREXT field.
 */
static uint64_t dma_addr(uint32_t lo, uint32_t hi, uint32_t ext)
{
    return ((uint64_t)((hi & 0x3fffffff) | ((ext & 3) << 30)) << 32) | lo;
}

/*
 * 32-bit engines (property dma64=off): the translation (0x40000000) is in
 * bits 31:30 of the 32-bit address, which ADDREXT replaces.
 */
static uint64_t dma_addr32(uint32_t a, uint32_t ext)
{
    return (a & 0x3fffffff) | ((uint64_t)(ext & 3) << 30);
}

static uint64_t dma_ring_base(Bcm4331State *s, unsigned n, bool rx)
{
    uint32_t off = rx ? D11_DMA64_RXCTL : D11_DMA64_TXCTL;
    uint32_t ext = *dma_reg(s, n, off) >> D11_DMA64_CTL_ADDREXT_SHIFT;

    if (!s->dma64) {
        return dma_addr32(*dma_reg(s, n, off + 8), ext);
    }
    return dma_addr(*dma_reg(s, n, off + 8), *dma_reg(s, n, off + 12), ext);
}

/* descriptor size and ring span of the engine format */
static uint32_t dma_desc_size(Bcm4331State *s)
{
    return s->dma64 ? D11_DESC_SIZE : D11_DESC32_SIZE;
}

static uint32_t dma_ring_mask(Bcm4331State *s)
{
    return (s->dma64 ? D11_DMA_RING_BYTES : D11_DMA32_RING_BYTES) - 1;
}

/* the sticky error state: engine stopped, error code, interrupt */
static void dma_fail(Bcm4331State *s, unsigned n, bool rx, uint32_t reason,
                     uint32_t code, uint32_t cd)
{
    *dma_reg(s, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) =
        (code << 28) | (cd & D11_DMA64_CD_MASK);
    s->mac.dma_reason[n] |= reason;
    trace_bcm4331_dma_error(n, rx ? "RX" : "TX", reason, code, cd);
    d11_update_irq(s);
}

static bool dma_stopped(Bcm4331State *s, unsigned n, bool rx)
{
    return *dma_reg(s, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) >> 28;
}

/*
 * A DMA access can reach MMIO that unplugs the card: an RX buffer on a
 * root port's Slot Control register (ECAM) powers the slot off, and QEMU
 * unrealizes the card inside pci_dma_write() (config space freed, medium
 * detached) and would finalize it there.  Every path that does DMA holds a
 * reference for its duration and stops as soon as the card is gone
 * (d11_gone() after each access).  The reference is dropped from a bottom
 * half of its own once the card is gone, so that the caller of the path
 * (the medium's delivery bottom half, the MMIO dispatch, a timer) still
 * finds the device's memory, its reentrancy guard included, when it
 * returns.
 */
static void d11_dma_hold(Bcm4331State *s)
{
    object_ref(OBJECT(s));
}

static void d11_unref_bh(void *opaque)
{
    object_unref(opaque);
}

static void d11_dma_release(Bcm4331State *s)
{
    if (DEVICE(s)->realized) {
        object_unref(OBJECT(s));
        return;
    }
    aio_bh_schedule_oneshot(qemu_get_aio_context(), d11_unref_bh, OBJECT(s));
}

static bool d11_gone(Bcm4331State *s)
{
    if (DEVICE(s)->realized) {
        return false;
    }
    trace_bcm4331_dma_unplugged();
    return true;
}

/* a descriptor in the 64-bit layout (32-bit ones are converted) */
typedef struct {
    uint32_t ctl0, ctl1, lo, hi;
    uint64_t addr;
} D11Desc;

/* fetch descriptor at byte offset @cd of the ring: copied, then checked */
static bool dma_desc(Bcm4331State *s, unsigned n, bool rx, uint32_t cd,
                     D11Desc *d)
{
    PCIDevice *pd = PCI_DEVICE(s);
    uint64_t a = dma_ring_base(s, n, rx) + cd;
    uint32_t w[4];

    if (pci_dma_read(pd, a, w, dma_desc_size(s)) != MEMTX_OK) {
        if (d11_gone(s)) {
            return false;
        }
        DMA_GUEST_ERR(bcm4331_dma_ub_desc, "engine %u %s descriptor at "
                      "0x%" PRIx64 " unreadable", n, rx ? "RX" : "TX", a);
        dma_fail(s, n, rx, D11_DMAIRQ_DESC_ERR, D11_DMA_ERR_DESCREAD, cd);
        return false;
    }
    if (s->dma64) {
        d->ctl0 = le32_to_cpu(w[0]);
        d->ctl1 = le32_to_cpu(w[1]);
        d->lo = le32_to_cpu(w[2]);
        d->hi = le32_to_cpu(w[3]);
        d->addr = dma_addr(d->lo, d->hi,
                           d->ctl1 >> D11_DESC_CTL1_ADDREXT_SHIFT);
    } else {
        /* control: flags 31:28, ADDREXT 17:16, byte count 12:0; address */
        uint32_t ctl = le32_to_cpu(w[0]);

        d->ctl0 = ctl & 0xf0000000;
        d->ctl1 = ctl & (D11_DESC_CTL1_LEN | 0x30000);
        d->lo = le32_to_cpu(w[1]);
        d->hi = 0;
        d->addr = dma_addr32(d->lo, ctl >> D11_DESC_CTL1_ADDREXT_SHIFT);
    }
    if (d11_gone(s)) {
        return false;
    }
    trace_bcm4331_dma_desc(n, rx ? "RX" : "TX", cd, d->ctl0, d->ctl1,
                           d->addr);
    return true;
}

static uint32_t dma_next(Bcm4331State *s, const D11Desc *d, uint32_t cd)
{
    /* DTABLEEND wraps; the CD field wraps at 8 KiB (4 KiB for 32-bit) */
    if (d->ctl0 & D11_DESC_CTL0_DTABLEEND) {
        return 0;
    }
    return (cd + dma_desc_size(s)) & dma_ring_mask(s);
}

bool d11_radio_on(Bcm4331State *s)
{
    return !s->mac.rfkill && (s->phy.phy[HTPHY_RF_CTL_CMD] &
                              HTPHY_RF_CTL_CHIP0_PU) && s->phy.freq_mhz;
}

static bool d11_mac_running(Bcm4331State *s)
{
    return s->fw.psm_running && FIELD_EX32(s->mac.macctl, D11_MACCTL, ENABLED);
}

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
    trace_bcm4331_txstat(w0 >> 16, w0 & 2 ? 1 : 0, (w0 >> 12) & 0xf);
    d11_update_irq(s);
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

static bool cck_rate_ok(uint16_t rate)
{
    return rate == 2 || rate == 4 || rate == 11 || rate == 22;
}

/* ---- airtime on: the TX FIFO between the DMA engines and the air ---- */

static bool d11_tx_fifo_room(Bcm4331State *s)
{
    return s->tx_fifo_count < D11_TX_FIFO &&
           wifi_medium_txq_len(&s->air) < WIFI_TX_QUEUE_MAX;
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
static void d11_tx_fifo_forget(Bcm4331State *s, unsigned n)
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
static void d11_tx_frame(Bcm4331State *s, unsigned n, uint8_t *buf,
                         size_t len)
{
    uint32_t mac_ctl;
    uint16_t phy_ctl, cookie;
    uint8_t *f = buf + D11_TXH_LEN;
    size_t flen;
    bool want_ack;
    unsigned limit, tries = 0;
    bool acked = false;
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

    if (len < D11_TXH_LEN + 10) {
        /* not a frame: the firmware drops it, reporting it not sent */
        DMA_GUEST_ERR(bcm4331_dma_ub_frame, "TX frame of %zu bytes too short",
                      len);
        d11_txstat_push(s, ((uint32_t)cookie << 16) | 1, 0);
        return;
    }
    flen = len - D11_TXH_LEN;
    bcm_fw_tx_fixup(s, n, cookie, f);
    if (mac_ctl & D11_TXH_MAC_KEYALG_MASK) {
        /* hardware key: encrypt the body, append ICV/MIC (section 7.4) */
        flen = d11_tx_encrypt(s, mac_ctl, f, flen,
                              D11_TX_MAX_BYTES + D11_TX_CRYPTO_ROOM -
                              D11_TXH_LEN);
        if (!flen) {
            d11_txstat_push(s, ((uint32_t)cookie << 16) | 1, 0);
            return;
        }
    }
    m.rate_500k = m.ofdm ? ofdm_code_rate[buf[D11_TXH_PLCP] & 0xf]
                         : buf[D11_TXH_PLCP] / 5;
    if (!m.rate_500k || (!m.ofdm && !cck_rate_ok(m.rate_500k))) {
        m.rate_500k = 2;        /* unknown code: the PHY sends 1 Mb/s */
        m.ofdm = false;
    }
    m.freq_mhz = s->phy.freq_mhz;
    m.airtime_us = wifi_airtime_us(flen + 4, m.rate_500k, m.ofdm,
                                   m.short_preamble);
    limit = s->mac.scratch[(mac_ctl & D11_TXH_MAC_LONGFRAME) ? 7 : 6];
    limit = MIN(MAX(limit, 1), 15);

    trace_bcm4331_tx(cookie, flen, m.rate_500k, want_ack);
    if (d11_radio_on(s) && wifi_medium_paced(&s->air)) {
        /* the engine made sure there is room (d11_tx_fifo_room) */
        if (wifi_medium_queue(&s->air, f, flen, &m,
                              want_ack && !wifi_is_group(f + 4) ? limit : 1,
                              true)) {
            d11_tx_fifo_push(s, n, cookie, lduw_le_p(f + 22) >> 4,
                             want_ack);
        } else {
            d11_txstat_push(s, ((uint32_t)cookie << 16) | 1, 0);
        }
        return;
    }
    do {
        if (tries) {
            f[1] |= 0x08;       /* retry bit on retransmissions */
        }
        tries++;
        if (d11_radio_on(s)) {
            acked = wifi_medium_send(&s->air, f, flen, &m);
        }
    } while (want_ack && !acked && !wifi_is_group(f + 4) && tries < limit);

    d11_txstat_push(s, ((uint32_t)cookie << 16) | (tries << 12) |
                    ((want_ack && acked) ? 2 : 0) | 1,
                    lduw_le_p(f + 22) >> 4);
}

/* process engine @n's ring from CD to TXINDEX, at most @budget frames */
static bool d11_tx_engine(Bcm4331State *s, unsigned n, unsigned budget)
{
    PCIDevice *pd = PCI_DEVICE(s);
    uint32_t ctl = *dma_reg(s, n, D11_DMA64_TXCTL);
    uint32_t end = *dma_reg(s, n, D11_DMA64_TXINDEX) & dma_ring_mask(s);
    g_autofree uint8_t *buf = NULL;

    if (!(ctl & D11_DMA64_CTL_ENABLE) || (ctl & D11_DMA64_CTL_SUSPEND) ||
        dma_stopped(s, n, false) || !bcm_fw_engine_may_send(s, n)) {
        if (s->mac.tx_cd[n] == end) {
            return false;       /* nothing posted anyway */
        }
        trace_bcm4331_tx_wait(n, !(ctl & D11_DMA64_CTL_ENABLE) ? "disabled" :
                              (ctl & D11_DMA64_CTL_SUSPEND) ? "suspended" :
                              dma_stopped(s, n, false) ? "error" :
                              "multicast after DTIM");
        return false;
    }
    while (s->mac.tx_cd[n] != end) {
        uint32_t cd = s->mac.tx_cd[n];
        size_t len = 0;
        D11Desc d;
        bool eof = false;

        if (!budget--) {
            return true;        /* more to do: reschedule */
        }
        if (wifi_medium_paced(&s->air) && d11_radio_on(s) &&
            !d11_tx_fifo_room(s)) {
            trace_bcm4331_tx_wait(n, "TX FIFO full");
            return false;       /* d11_air_tx_done() kicks the engines */
        }
        if (!buf) {
            buf = g_malloc(D11_TX_MAX_BYTES + D11_TX_CRYPTO_ROOM);
        }
        /* gather SOF..EOF; each descriptor is bounded and checked */
        for (int i = 0; i < D11_TX_MAX_DESC && !eof; i++) {
            uint32_t cnt;
            uint64_t a;
            MemTxResult r;

            if (i && cd == end) {
                return false;   /* frame not complete yet: wait */
            }
            /*
             * A ring whose posted end is never reached (self-linked,
             * DTABLEEND missing, TXINDEX off the ring) would loop for
             * ever: more than one lap of the 8 KiB ring is an error.
             */
            if (++s->mac.tx_walk[n] > (dma_ring_mask(s) + 1) /
                                      dma_desc_size(s)) {
                DMA_GUEST_ERR(bcm4331_dma_ub_lap, "engine %u TX: TXINDEX "
                              "0x%x not reached within one ring lap", n, end);
                dma_fail(s, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT,
                         cd);
                return false;
            }
            if (!dma_desc(s, n, false, cd, &d)) {
                return false;
            }
            cnt = d.ctl1 & D11_DESC_CTL1_LEN;
            a = d.addr;
            if ((i == 0) != !!(d.ctl0 & D11_DESC_CTL0_SOF) || cnt == 0 ||
                len + cnt > D11_TX_MAX_BYTES) {
                DMA_GUEST_ERR(bcm4331_dma_ub_chain, "engine %u TX descriptor "
                              "0x%x: ctl0 0x%x, %u bytes (frame %zu bytes)",
                              n, cd, d.ctl0, cnt, len);
                dma_fail(s, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT,
                         cd);
                return false;
            }
            r = pci_dma_read(pd, a, buf + len, cnt);
            if (d11_gone(s)) {
                return false;
            }
            if (r != MEMTX_OK) {
                DMA_GUEST_ERR(bcm4331_dma_ub_data, "engine %u TX buffer "
                              "0x%" PRIx64 " (%u bytes) unreadable", n, a,
                              cnt);
                dma_fail(s, n, false, D11_DMAIRQ_DATA_ERR,
                         D11_DMA_ERR_TRANSFER, cd);
                return false;
            }
            len += cnt;
            eof = d.ctl0 & D11_DESC_CTL0_EOF;
            cd = dma_next(s, &d, cd);
        }
        if (!eof) {
            DMA_GUEST_ERR(bcm4331_dma_ub_noeof, "engine %u TX frame at 0x%x "
                          "without EOF within %d descriptors", n,
                          s->mac.tx_cd[n], D11_TX_MAX_DESC);
            dma_fail(s, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT,
                     s->mac.tx_cd[n]);
            return false;
        }
        d11_tx_frame(s, n, buf, len);
        s->mac.tx_cd[n] = cd;
    }
    bcm_fw_engine_idle(s, n);
    return false;
}

static void d11_tx_bh(void *opaque)
{
    Bcm4331State *s = opaque;
    bool more = false;

    /* frames go out only while the MAC is enabled and the firmware runs */
    if (!d11_mac_running(s)) {
        return;
    }
    d11_dma_hold(s);
    for (unsigned n = 0; n < D11_DMA_ENGINES && !d11_gone(s); n++) {
        more |= d11_tx_engine(s, n, D11_TX_BUDGET);
    }
    if (more && !d11_gone(s)) {
        qemu_bh_schedule(s->tx_bh);
    }
    d11_dma_release(s);
}

void d11_dma_kick(Bcm4331State *s)
{
    if (s->tx_bh) {
        qemu_bh_schedule(s->tx_bh);
    }
}

/*
 * Run the engines now, from a timer (the end of an exchange on the air):
 * with the device's reentrancy guard engaged, as in its MMIO handlers and
 * guarded bottom half, so that a descriptor pointing into BAR0 ends in a
 * DMA error instead of re-entering the device.
 */
static void d11_tx_fetch_now(Bcm4331State *s)
{
    MemReentrancyGuard *g = &DEVICE(s)->mem_reentrancy_guard;

    if (g->engaged_in_io) {
        d11_dma_kick(s);
        return;
    }
    g->engaged_in_io = true;
    d11_tx_bh(s);
    g->engaged_in_io = false;
}

/* ------------------------------------------------------------------ */
/* registers                                                           */

void d11_dma_reg_write(Bcm4331State *s, uint32_t off, uint32_t old,
                       uint32_t val)
{
    unsigned n = (off - D11_DMA_BASE) / 0x40;
    uint32_t rel = (off - D11_DMA_BASE) & 0x3f;

    switch (rel) {
    case D11_DMA64_TXCTL:
    case D11_DMA64_RXCTL: {
        bool rx = rel == D11_DMA64_RXCTL;

        if ((val ^ old) & D11_DMA64_CTL_ENABLE) {
            /* enabling restarts at the ring's first descriptor */
            if (rx) {
                s->mac.rx_cd[n] = 0;
            } else {
                s->mac.tx_cd[n] = 0;
            }
            /* disabling resets the engine, its posted end included */
            if (!(val & D11_DMA64_CTL_ENABLE)) {
                *dma_reg(s, n, rx ? D11_DMA64_RXINDEX : D11_DMA64_TXINDEX) = 0;
            }
            /* enable/disable clears the error state */
            *dma_reg(s, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) = 0;
            s->mac.tx_walk[n] = 0;
            if (!rx) {
                d11_tx_fifo_forget(s, n);
            }
        }
        if (!rx) {
            d11_dma_kick(s);
        }
        break;
    }
    case D11_DMA64_TXRINGLO:
        s->mac.tx_cd[n] = 0;
        s->mac.tx_walk[n] = 0;
        d11_tx_fifo_forget(s, n);
        break;
    case D11_DMA64_RXRINGLO:
        s->mac.rx_cd[n] = 0;
        break;
    case D11_DMA64_TXINDEX:
        trace_bcm4331_tx_index(n, val, s->mac.tx_cd[n]);
        s->mac.tx_walk[n] = 0;
        /*
         * The engine starts fetching as soon as TXINDEX moves, as the
         * hardware's does: not in a bottom half that a busy host may run
         * only after the driver has posted a whole ring.  b43 fills all
         * 256 slots, which puts TXINDEX back on the engine's CD: an engine
         * that far behind would see an empty ring and never report the
         * frames (the "TX stall").
         */
        d11_tx_bh(s);
        break;
    default:
        break;
    }
}

uint32_t d11_dma_status(Bcm4331State *s, uint32_t off)
{
    unsigned n = (off - D11_DMA_BASE) / 0x40;
    uint32_t rel = (off - D11_DMA_BASE) & 0x3f;
    bool rx = rel == D11_DMA64_RXSTATUS;
    uint32_t ctl = *dma_reg(s, n, rx ? D11_DMA64_RXCTL : D11_DMA64_TXCTL);
    uint32_t state, cd;

    if (!(ctl & D11_DMA64_CTL_ENABLE)) {
        state = D11_DMA64_STAT_DISABLED;
    } else if (dma_stopped(s, n, rx)) {
        state = D11_DMA64_STAT_STOPPED;
    } else if (ctl & D11_DMA64_CTL_SUSPEND) {
        state = D11_DMA64_STAT_SUSP;
    } else {
        state = D11_DMA64_STAT_IDLEWAIT;
    }
    if (!s->dma64) {
        /* 32-bit: state in bits 15:12, descriptor pointer in 11:0 */
        cd = rx ? s->mac.rx_cd[n] : s->mac.tx_cd[n];
        return (state >> 16) | (cd & D11_DMA32_CD_MASK);
    }
    if (rx) {
        cd = s->mac.rx_cd[n];
        if (s->rx_cd_erratum) {
            /*
             * BCM4331 erratum: the current-descriptor field is computed
             * from the ring address, so its bit 12 leaks in (b43
             * dma.c alloc_ringmemory(): "some hardware (like BCM4331)
             * copies that bit into B43_DMA64_RXSTATUS").
             */
            cd = (*dma_reg(s, n, D11_DMA64_RXRINGLO) + cd);
        }
    } else {
        cd = s->mac.tx_cd[n];
    }
    return state | (cd & D11_DMA64_CD_MASK);
}

/* ------------------------------------------------------------------ */
/* RX                                                                  */

static uint32_t d11_air_freq(WifiMediumClient *c)
{
    Bcm4331State *s = c->opaque;

    return d11_radio_on(s) ? s->phy.freq_mhz : 0;
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
    return d11_mac_running(s) && d11_radio_on(s) &&
           (*dma_reg(s, 0, D11_DMA64_RXCTL) & D11_DMA64_CTL_ENABLE) &&
           !dma_stopped(s, 0, true);
}

static bool d11_air_acks(WifiMediumClient *c, const uint8_t *addr1)
{
    Bcm4331State *s = c->opaque;
    uint8_t own[6];

    d11_own_mac(s, own, 0);
    return d11_rx_ready(s) && !memcmp(addr1, own, 6);
}

/* the firmware's receive filter (contract-b43-mac.md 6.6) */
static bool d11_rx_filter(Bcm4331State *s, const uint8_t *f, size_t len)
{
    unsigned type;
    uint8_t own[6];

    if (len < 10) {
        return false;
    }
    type = (f[0] >> 2) & 3;
    if (type == 1 && !FIELD_EX32(s->mac.macctl, D11_MACCTL, KEEP_CTL)) {
        return false;           /* control frames: consumed by the MAC */
    }
    d11_own_mac(s, own, 0);
    /* ACK and CTS to us answer our own frames: the firmware eats them */
    if (type == 1 && ((f[0] >> 4) == 0xd || (f[0] >> 4) == 0xc) &&
        !memcmp(f + 4, own, 6)) {
        return false;
    }
    if (wifi_is_group(f + 4) || !memcmp(f + 4, own, 6)) {
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
    PCIDevice *pd = PCI_DEVICE(s);
    uint32_t rxctl = *dma_reg(s, 0, D11_DMA64_RXCTL);
    uint32_t fo = (rxctl >> D11_DMA64_RXCTL_FO_SHIFT) & 0x7f;
    uint32_t cd = s->mac.rx_cd[0], next, octets;
    uint32_t stop = *dma_reg(s, 0, D11_DMA64_RXINDEX) & dma_ring_mask(s);
    g_autofree uint8_t *buf = NULL;
    size_t total, flen = len + 4;           /* frame + FCS */
    uint64_t tsf;
    uint32_t fcs, macstat;
    uint64_t a;
    MemTxResult r;
    D11Desc d;

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
    if (!dma_desc(s, 0, true, cd, &d)) {
        return;
    }
    next = dma_next(s, &d, cd);
    if (next == stop) {
        /* no free descriptor: the frame is lost, RX descriptor underflow */
        s->mac.rx_dropped++;
        s->mac.dma_reason[0] |= D11_DMAIRQ_RX_UFLOW;
        trace_bcm4331_rx_drop("ring full", len);
        d11_update_irq(s);
        return;
    }
    if (total > (d.ctl1 & D11_DESC_CTL1_LEN)) {
        s->mac.rx_dropped++;
        trace_bcm4331_rx_drop("buffer too small", len);
        return;
    }
    buf = g_malloc0(total);
    /* a protected frame for which the key table has a key: decrypt */
    memcpy(buf + fo + D11_PLCP_LEN, f, len);
    macstat = meta->fcs_bad ? D11_RX_MAC_FCSERR :
              d11_rx_decrypt(s, buf + fo + D11_PLCP_LEN, len);
    /* RX header, format 598 */
    stw_le_p(buf + 0x00, D11_PLCP_LEN + flen);
    stw_le_p(buf + 0x04, meta->ofdm ? D11_RX_PHYST0_OFDM :
             meta->short_preamble ? D11_RX_PHYST0_SHORTPRMBL : 0);
    buf[0x09] = buf[0x0a] = buf[0x0b] = meta->signal_dbm;
    stl_le_p(buf + 0x10, macstat);
    tsf = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / SCALE_US +
          s->mac.tsf_offset;
    stw_le_p(buf + 0x14, (tsf - meta->airtime_us - 1) & 0xffff);
    stw_le_p(buf + 0x16, (bcm_phy_channel(s) << 3) | 7);
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

    a = d.addr;
    r = pci_dma_write(pd, a, buf, total);
    if (d11_gone(s)) {
        return;                 /* the write unplugged the card */
    }
    if (r != MEMTX_OK) {
        DMA_GUEST_ERR(bcm4331_dma_ub_data, "engine %u RX buffer 0x%" PRIx64
                      " (%zu bytes) not writable", 0, a, total);
        dma_fail(s, 0, true, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER, cd);
        return;
    }
    s->mac.rx_cd[0] = next;
    s->mac.dma_reason[0] |= D11_DMAIRQ_RX_DONE;
    trace_bcm4331_rx(len, meta->signal_dbm, cd);
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
        d11_txstat_push(s, ((uint32_t)p->cookie << 16) |
                        (MIN(attempts, 15) << 12) |
                        ((p->want_ack && acked) ? 2 : 0) | 1, p->seq);
    }
    d11_tx_fetch_now(s);        /* room in the FIFO again */
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

void d11_dma_init(Bcm4331State *s)
{
    DeviceState *dev = DEVICE(s);

    s->tx_bh = qemu_bh_new_guarded(d11_tx_bh, s, &dev->mem_reentrancy_guard);
    s->air.ops = &d11_air_ops;
    s->air.opaque = s;
    s->air.name = dev->id ? dev->id : "bcm4331";
    memcpy(s->air.pos, s->pos, sizeof(s->pos));
    wifi_medium_attach(s->medium, &s->air, dev);
}

void d11_dma_exit(Bcm4331State *s)
{
    wifi_medium_detach(&s->air);
    qemu_bh_delete(s->tx_bh);
    s->tx_bh = NULL;
}

void d11_dma_reset(Bcm4331State *s)
{
    D11State *m = &s->mac;

    memset(m->tx_cd, 0, sizeof(m->tx_cd));
    memset(m->rx_cd, 0, sizeof(m->rx_cd));
    memset(m->tx_walk, 0, sizeof(m->tx_walk));
    m->txstat_head = 0;
    m->txstat_count = 0;
    m->txstat_latch = 0;
    if (s->tx_bh) {
        qemu_bh_cancel(s->tx_bh);
    }
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
int d11_dma_post_load(Bcm4331State *s)
{
    if (s->tx_fifo_head >= D11_TX_FIFO || s->tx_fifo_count > D11_TX_FIFO) {
        return -EINVAL;
    }
    while (s->tx_fifo_count) {
        D11TxPending *p = &s->tx_fifo[s->tx_fifo_head];

        if (!p->dead) {
            d11_txstat_push(s, ((uint32_t)p->cookie << 16) | (1 << 12) | 1,
                            p->seq);
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
