/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core (d11, core rev 29) as a hub over its
 * blocks.
 *
 * The hub holds the core's register table: one row a register, its name
 * for the traces, how it reads and how it writes (igb_macreg_readops[] and
 * igb_macreg_writeops[] in QEMU's hw/net/igb_core.c); a register without
 * a handler stores and reads back (initvals may write anywhere).  It fans
 * a reset out to the blocks, derives what several blocks decide together
 * (the MAC runs: MACCTL and the PSM; AP mode; the TX FIFO is full; the
 * radio receives) when it is needed rather than mirroring it, runs the TX
 * engines' work, which pulls the frames the driver posted from the DMA
 * engines one by one (e1000e_start_xmit() in hw/net/e1000e_core.c), and
 * is the card's client of the Wi-Fi medium (the d11_air_* callbacks).
 *
 * Register semantics: Linux drivers/net/wireless/broadcom/b43/ (b43.h,
 * main.c) as b43 drives a rev-29 core; bit meanings confirmed by brcmsmac's
 * d11.h where b43 is silent.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "system/replay.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/guest-random.h"
#include "d11-core.h"
#include "trace.h"

/* frames one engine may send per run of the TX work (then reschedule) */
#define D11_TX_BUDGET           32

static uint32_t merge(uint32_t old, uint32_t val, uint32_t mask)
{
    return (old & ~mask) | (val & mask);
}

/* ------------------------------------------------------------------ */
/* what several blocks decide together                                 */

/* the MAC is enabled (@macctl) and the firmware runs: frames may go out */
static bool d11_core_mac_running(D11Core *c, uint32_t macctl)
{
    return FIELD_EX32(macctl, D11_MACCTL, ENABLED) && bcm_fw_running(&c->fw);
}

/* a DMA engine's interrupt reason (the engines' intr_raise hook) */
static void d11_core_dma_intr(void *opaque, unsigned engine, uint32_t reason)
{
    D11Core *c = opaque;

    d11_raise_dma_irq(&c->mac, engine, reason);
}

/*
 * A path that does DMA holds the card: a DMA access can unplug it
 * (d11-dma.c).  The reference is dropped from a bottom half of its own once
 * the card is gone, so that the caller of the path (the medium's delivery,
 * the MMIO dispatch, a timer) still finds the device's memory, its
 * reentrancy guard included, when it returns.
 */
static void d11_core_hold(D11Core *c)
{
    object_ref(OBJECT(c->pci));
}

static void d11_core_unref_bh(void *opaque)
{
    object_unref(opaque);
}

static void d11_core_release(D11Core *c)
{
    if (DEVICE(c->pci)->realized) {
        object_unref(OBJECT(c->pci));
        return;
    }
    /* through the replay queue: a replayed run drops it at the same point */
    replay_bh_schedule_oneshot_event(qemu_get_aio_context(),
                                     d11_core_unref_bh, OBJECT(c->pci));
}

/* the card was unplugged by its own DMA */
static bool d11_core_gone(D11Core *c)
{
    return !DEVICE(c->pci)->realized;
}

/* ------------------------------------------------------------------ */
/* TX: the hub pulls the frames from the engines                       */

static void d11_core_kick(D11Core *c)
{
    if (c->tx_work) {
        wifi_deferred_schedule(c->tx_work);
    }
}

/*
 * One frame engine @n fetched (@buf: TX header + MPDU, @len bytes): the
 * data path reads its header, the air takes it, the data path writes its
 * TX status now or when its exchange ends
 */
static void d11_core_xmit(D11Core *c, unsigned n, uint8_t *buf, size_t len)
{
    D11TxFrame t;
    WifiTxResult r;
    WifiTxStatus st;

    if (!d11_xmit_tx_prepare(&c->xmit, &c->mac, n, buf, len, &t)) {
        return;
    }
    t.meta.txpower_dbm = c->txpower;
    t.meta.freq_mhz = c->air.freq_mhz;      /* as the air knows it */
    if (!t.meta.freq_mhz) {
        d11_xmit_tx_unsent(&c->xmit, &c->mac, &t);
        return;
    }
    st = wifi_medium_transmit(&c->air, t.mpdu, t.len, &t.meta, t.limit, true,
                              &r);
    d11_xmit_tx_sent(&c->xmit, &c->mac, &t, st, &r);
}

/*
 * send what engine @n's ring holds (it may send), at most @budget frames;
 * true: more to do
 */
static bool d11_core_tx_engine(D11Core *c, unsigned n, unsigned budget)
{
    g_autofree uint8_t *buf = NULL;
    size_t len;
    uint32_t next;

    while (d11_dma_tx_posted(&c->dma, n)) {
        if (!budget--) {
            return true;        /* more to do: reschedule */
        }
        if (d11_xmit_tx_fifo_full(&c->xmit)) {
            trace_bcm4331_tx_wait(n, "TX FIFO full");
            return false;       /* the end of an exchange fetches again */
        }
        if (!buf) {
            buf = g_malloc(D11_TX_MAX_BYTES + D11_TX_CRYPTO_ROOM);
        }
        if (!d11_dma_tx_fetch(&c->dma, n, buf, &len, &next)) {
            return false;
        }
        d11_core_xmit(c, n, buf, len);
        d11_dma_tx_advance(&c->dma, n, next);
    }
    if (n == D11_DMA_MCAST_ENGINE) {
        d11_dma_mcast_hold(&c->dma);    /* drained: until the next DTIM */
    }
    return false;
}

/*
 * The TX engines' work: from MMIO (a TXINDEX write), from its deferred
 * run, or from the medium's timer when an exchange ends
 */
static void d11_core_tx_work(void *opaque)
{
    D11Core *c = opaque;
    bool more = false;
    uint32_t due;
    uint32_t macctl = d11_macctl(&c->mac);

    /* frames go out only while the MAC is enabled and the firmware runs */
    if (!d11_core_mac_running(c, macctl)) {
        return;
    }
    d11_core_hold(c);
    /* AP mode: engine 4's group frames wait for a DTIM beacon */
    due = d11_dma_tx_due(&c->dma, FIELD_EX32(macctl, D11_MACCTL, AP));
    for (unsigned n = 0; n < D11_DMA_ENGINES && !d11_core_gone(c); n++) {
        if (due & BIT(n)) {
            more |= d11_core_tx_engine(c, n, D11_TX_BUDGET);
        }
    }
    if (more && !d11_core_gone(c)) {
        wifi_deferred_schedule(c->tx_work);
    }
    d11_core_release(c);
}

/* a beacon from the firmware's template: no ACK, no retry, no status */
static void d11_core_beacon(D11Core *c, uint8_t *frame, size_t len, bool ofdm)
{
    WifiFrameMeta meta = {
        .freq_mhz = c->air.freq_mhz,
        .txpower_dbm = c->txpower,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
        .ofdm = ofdm,
        .rate_500k = ofdm ? IEEE80211_RATE_6M : IEEE80211_RATE_1M,
    };

    if (!meta.freq_mhz) {
        return;
    }
    if (wifi_medium_txq_len(&c->air) >= WIFI_TX_QUEUE_MAX - D11_TX_FIFO) {
        /* the air is that far behind: this TBTT's beacon is skipped */
        trace_bcm4331_fw_beacon_skipped(wifi_medium_txq_len(&c->air));
        return;
    }
    wifi_medium_transmit(&c->air, frame, len, &meta, 1, false, NULL);
}

/* the firmware's TBTT timer */
static void d11_core_tbtt(void *opaque)
{
    D11Core *c = opaque;
    BcmFwBeacon b;

    if (!bcm_fw_tbtt(&c->fw, &c->mac,
                     d11_dma_tx_posted(&c->dma, D11_DMA_MCAST_ENGINE), &b)) {
        return;
    }
    if (b.len) {
        d11_core_beacon(c, b.tpl + BCM_FW_BEACON_PLCP, b.len, b.ofdm);
        if (b.dtim) {
            d11_dma_mcast_release(&c->dma);     /* the group frames follow */
            d11_core_kick(c);
        }
    }
    bcm_fw_tbtt_update(&c->fw, &c->mac);
}

/* ------------------------------------------------------------------ */
/* the card's client of the medium                                     */

/*
 * A frame from the air: the firmware's filter, a buffer the RX engine
 * reserves, the frame built around it, the RX engine's commit
 */
static void d11_rx_frame(D11Core *c, const uint8_t *f, size_t len,
                         const WifiFrameMeta *meta)
{
    g_autofree uint8_t *buf = NULL;
    D11RxSlot slot;
    BcmPhyRx phy;

    /*
     * what the radio told the air (d11_core_air_update()) is what it is:
     * a frame queued before it changed finds it off or elsewhere
     */
    if (!(c->air.wants & WIFI_WANT_RX) || meta->freq_mhz != c->air.freq_mhz) {
        return;
    }
    if (!d11_xmit_rx_accept(d11_macctl(&c->mac), c->air.addr, f, len, meta)) {
        return;
    }
    /* RX header (at least D11_RXH_LEN), PLCP, frame, FCS */
    if (!d11_dma_rx_reserve(&c->dma, D11_RXH_LEN, D11_PLCP_LEN + len + 4,
                            len, &slot)) {
        if (!d11_dma_rx_enabled(&c->dma)) {
            d11_core_air_update(c);     /* the RX engine stopped */
        }
        return;
    }
    buf = g_malloc0(slot.total);
    bcm_phy_rx_info(&c->phy, &phy);
    d11_xmit_rx_build(&c->mac, &phy, buf, slot.fo, f, len, meta);
    /* the hostile card: a field of the RX header (not the frame) */
    bcm_hostile_words(&c->hostile, BCM_HOSTILE_RXHDR, buf, D11_RXH_LEN);
    if (!d11_dma_rx_commit(&c->dma, &slot, buf, slot.total)) {
        if (!d11_core_gone(c)) {
            d11_core_air_update(c);     /* a DMA error stopped the engine */
        }
        return;
    }
    trace_bcm4331_rx(len, meta->signal_dbm, slot.cd);
}

static void d11_air_receive(WifiMediumClient *cl, const uint8_t *f,
                            size_t len, const WifiFrameMeta *meta)
{
    D11Core *c = cl->opaque;

    d11_core_hold(c);
    d11_rx_frame(c, f, len, meta);
    d11_core_release(c);
}

/* airtime on: the exchange of the oldest frame in the TX FIFO is over */
static void d11_air_tx_done(WifiMediumClient *cl, const WifiTxResult *r)
{
    D11Core *c = cl->opaque;

    if (!d11_xmit_tx_done(&c->xmit, &c->mac, r)) {
        return;                 /* a frame queued before a reset */
    }
    /*
     * Room in the FIFO again: the hardware fetches the next frame at once,
     * in this timer, with the device's reentrancy guard engaged as in its
     * MMIO handlers, so that a descriptor pointing into BAR0 ends in a DMA
     * error instead of re-entering the device
     */
    wifi_deferred_run_now(c->tx_work);
}

static const WifiMediumClientOps d11_air_ops = {
    .receive = d11_air_receive,
    .tx_done = d11_air_tx_done,
};

/*
 * Tell the air what the radio is now: the channel it is tuned to (0: off),
 * the address its filter acknowledges (RCM), whether it takes frames (the
 * MAC and the PSM run, RX DMA on), control frames (KEEP_CTL: a monitor)
 * and frames with a bad FCS (KEEP_BAD: mac80211's FIF_FCSFAIL).  Called
 * after everything that may change one of them: a register write to the
 * core, a core or device reset, rfkill, migration.
 */
void d11_core_air_update(D11Core *c)
{
    uint8_t own[IEEE80211_ADDR_LEN];
    uint32_t macctl = d11_macctl(&c->mac);
    uint32_t freq = bcm_phy_radio_freq(&c->phy);
    unsigned wants = 0;

    /* it receives: the MAC runs, the radio is on, the RX engine too */
    if (d11_core_mac_running(c, macctl) && freq &&
        d11_dma_rx_enabled(&c->dma)) {
        wants = WIFI_WANT_RX;
        if (FIELD_EX32(macctl, D11_MACCTL, KEEP_CTL)) {
            wants |= WIFI_WANT_CTRL;
        }
        if (FIELD_EX32(macctl, D11_MACCTL, KEEP_BAD)) {
            wants |= WIFI_WANT_BAD_FCS;
        }
    }
    d11_own_addr(&c->mac, own);
    wifi_medium_set_freq(&c->air, freq);
    wifi_medium_set_addr(&c->air, own);
    wifi_medium_set_wants(&c->air, wants);
}

/* ------------------------------------------------------------------ */
/* the registers' handlers                                             */

typedef uint32_t D11RegRead(D11Core *c, uint32_t off, uint32_t mask);
typedef void D11RegWrite(D11Core *c, uint32_t off, uint32_t val,
                         uint32_t mask);

static uint32_t d11_r_macctl(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_macctl(&c->mac);
}

static void d11_w_macctl(D11Core *c, uint32_t off, uint32_t val,
                         uint32_t mask)
{
    D11State *m = &c->mac;
    uint32_t old = m->macctl;
    unsigned ev;

    m->macctl = merge(old, val, mask);
    ev = bcm_fw_macctl_changed(&c->fw, m, old, m->macctl);
    if (ev & BCM_FW_PSM_RESET) {
        d11_dma_mcast_hold(&c->dma);    /* until the next DTIM */
    }
    if (ev & BCM_FW_MAC_ENABLED) {
        d11_core_kick(c);               /* frames posted while suspended */
    }
    bcm_fw_tbtt_update(&c->fw, m);
    d11_update_irq(m);
}

static uint32_t d11_r_maccmd(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_maccmd(&c->mac);
}

static void d11_w_maccmd(D11Core *c, uint32_t off, uint32_t val,
                         uint32_t mask)
{
    c->mac.maccmd = merge(c->mac.maccmd, val, mask);
}

static uint32_t d11_r_irq_reason(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_irq_reason(&c->mac);     /* not read-to-clear */
}

static void d11_w_irq_reason(D11Core *c, uint32_t off, uint32_t val,
                             uint32_t mask)
{
    c->mac.irq_reason &= ~(val & mask);     /* write 1 to clear */
    d11_update_irq(&c->mac);
}

static uint32_t d11_r_irq_mask(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.irq_mask;
}

static void d11_w_irq_mask(D11Core *c, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    c->mac.irq_mask = merge(c->mac.irq_mask, val, mask);
    d11_update_irq(&c->mac);
}

static uint32_t d11_r_dma_irq(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_dma_irq_read(&c->mac, off);
}

static void d11_w_dma_irq(D11Core *c, uint32_t off, uint32_t val,
                          uint32_t mask)
{
    d11_dma_irq_write(&c->mac, off, val, mask);
}

static uint32_t d11_r_ram_control(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.ram_control;
}

static void d11_w_ram_control(D11Core *c, uint32_t off, uint32_t val,
                              uint32_t mask)
{
    c->mac.ram_control = merge(c->mac.ram_control, val, mask);
}

static uint32_t d11_r_ram_data(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_template_data_read(&c->mac);
}

static void d11_w_ram_data(D11Core *c, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    d11_template_data_write(&c->mac, val, mask);
}

/* PS_STATUS: no PMQ entries (DISCPMQ); MAC_HW_CAP: none */
static uint32_t d11_r_zero(D11Core *c, uint32_t off, uint32_t mask)
{
    return 0;
}

static void d11_w_ro(D11Core *c, uint32_t off, uint32_t val, uint32_t mask)
{
    BCM_GUEST_ERR(bcm4331_d11_ub_ro, "write 0x%x to read-only register "
                  "0x%x", val, off);
}

static uint32_t d11_r_hwenabled(D11Core *c, uint32_t off, uint32_t mask)
{
    return bcm_phy_rfkill(&c->phy) ? D11_RADIO_HWDISABLED : 0;
}

static uint32_t d11_r_shm_control(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.shm_control;
}

static void d11_w_shm_control(D11Core *c, uint32_t off, uint32_t val,
                              uint32_t mask)
{
    c->mac.shm_control = merge(c->mac.shm_control, val, mask);
}

/* 0x166 (SHM_DATA_UNALIGNED) is the high half of the word at 0x164 */
static uint32_t d11_r_shm_data(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_shm_data_read(&c->mac, mask);
}

static void d11_w_shm_data(D11Core *c, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    uint32_t word;

    if (d11_shm_data_write(&c->mac, val, mask, &word)) {
        bcm_fw_ucode_write(&c->fw, word, val, mask);    /* the microcode */
    }
}

/* XMITSTAT_0 pops the oldest TX status (0, not valid, when empty) */
static uint32_t d11_r_xmitstat0(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_txstat_pop(&c->mac);
}

static uint32_t d11_r_xmitstat1(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.txstat_latch;         /* of the entry XMITSTAT_0 popped */
}

static uint32_t d11_r_tsf_low(D11Core *c, uint32_t off, uint32_t mask)
{
    uint64_t tsf = d11_tsf_now(&c->mac);

    /* reading the low word latches the high word (atomic read) */
    c->mac.tsf_high_latch = tsf >> 32;
    return tsf;
}

static void d11_w_tsf_low(D11Core *c, uint32_t off, uint32_t val,
                          uint32_t mask)
{
    c->mac.tsf_low_pending = merge(c->mac.tsf_low_pending, val, mask);
}

static uint32_t d11_r_tsf_high(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.tsf_high_latch;
}

static void d11_w_tsf_high(D11Core *c, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    D11State *m = &c->mac;

    /* writing the high word commits both (atomic write) */
    d11_tsf_set(m, ((uint64_t)merge(d11_tsf_now(m) >> 32, val, mask) << 32) |
                   m->tsf_low_pending);
    bcm_fw_tbtt_update(&c->fw, m);
}

/* CFP_REP, CFP_START: the beacon interval and the first TBTT */
static void d11_w_tbtt(D11Core *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    c->mac.regs[off >> 2] = merge(c->mac.regs[off >> 2], val, mask);
    bcm_fw_tbtt_update(&c->fw, &c->mac);
}

/* the PHY's ports: RADIO24_CONTROL/DATA, PHY_CONTROL/DATA */
static uint32_t d11_r_radio24(D11Core *c, uint32_t off, uint32_t mask)
{
    return bcm_phy_port_read(&c->phy, BCM_PHY_PORT_RADIO, mask);
}

static void d11_w_radio24(D11Core *c, uint32_t off, uint32_t val,
                          uint32_t mask)
{
    bcm_phy_port_write(&c->phy, BCM_PHY_PORT_RADIO, val, mask);
}

static uint32_t d11_r_phy_port(D11Core *c, uint32_t off, uint32_t mask)
{
    return bcm_phy_port_read(&c->phy, BCM_PHY_PORT_PHY, mask);
}

static void d11_w_phy_port(D11Core *c, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    bcm_phy_port_write(&c->phy, BCM_PHY_PORT_PHY, val, mask);
}

/* the older radio port: 0x3F6 address, 0x3F8/0x3FA data (high, low) */
static uint32_t d11_r_radio_control(D11Core *c, uint32_t off, uint32_t mask)
{
    return (c->mac.regs[off >> 2] & 0xffff) |
           ((uint32_t)bcm_phy_radio_addr(&c->phy) << 16);
}

static void d11_w_radio_control(D11Core *c, uint32_t off, uint32_t val,
                                uint32_t mask)
{
    c->mac.regs[off >> 2] = merge(c->mac.regs[off >> 2], val, mask & 0xffff);
    if (mask & 0xffff0000) {
        bcm_phy_radio_set_addr(&c->phy, merge(bcm_phy_radio_addr(&c->phy),
                                              val >> 16, mask >> 16));
    }
}

static uint32_t d11_r_radio_data(D11Core *c, uint32_t off, uint32_t mask)
{
    uint32_t v = 0;

    /* the high half first (0x3F8), then the low half (0x3FA) */
    if (mask & 0xffff) {
        v = bcm_phy_radio_data_hi(&c->phy);
    }
    if (mask & 0xffff0000) {
        v |= (uint32_t)bcm_phy_radio_data_read(&c->phy) << 16;
    }
    return v;
}

static void d11_w_radio_data(D11Core *c, uint32_t off, uint32_t val,
                             uint32_t mask)
{
    /* 0x3F8 (32-bit radio data's high half): no 32-bit registers */
    if (mask & 0xffff0000) {
        bcm_phy_radio_data_write(&c->phy, val >> 16);
    }
}

static uint32_t d11_r_phy_ver(D11Core *c, uint32_t off, uint32_t mask)
{
    return bcm_phy_version(&c->phy) | (c->mac.regs[off >> 2] & 0xffff0000);
}

static void d11_w_phy_ver(D11Core *c, uint32_t off, uint32_t val,
                          uint32_t mask)
{
    if (mask & 0xffff) {
        d11_w_ro(c, off, val, mask);
    }
    c->mac.regs[off >> 2] = merge(c->mac.regs[off >> 2], val,
                                  mask & 0xffff0000);
}

static uint32_t d11_r_macfilter(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_rcm_read(&c->mac);
}

static void d11_w_macfilter(D11Core *c, uint32_t off, uint32_t val,
                            uint32_t mask)
{
    d11_rcm_write(&c->mac, val, mask);
}

static uint32_t d11_r_gpio(D11Core *c, uint32_t off, uint32_t mask)
{
    return c->mac.gpio_control | (c->mac.regs[off >> 2] & 0xffff0000);
}

static void d11_w_gpio(D11Core *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    D11State *m = &c->mac;

    if (mask & 0xffff) {
        uint16_t v = merge(m->gpio_control, val, mask);

        if (v != m->gpio_control) {
            trace_bcm4331_d11_gpio(m->gpio_control, v);
        }
        m->gpio_control = v;
    }
    m->regs[off >> 2] = merge(m->regs[off >> 2], val, mask & 0xffff0000);
}

/* the 16-bit hardware RNG at 0x65A */
static uint32_t d11_r_rng(D11Core *c, uint32_t off, uint32_t mask)
{
    uint32_t v = c->mac.regs[off >> 2] & 0xffff;

    if (mask & 0xffff0000) {
        uint16_t rnd;

        qemu_guest_getrandom_nofail(&rnd, sizeof(rnd));
        v |= rnd << 16;
    }
    return v;
}

/* the DMA engines' registers: theirs, and they trace them */
static uint32_t d11_r_dma(D11Core *c, uint32_t off, uint32_t mask)
{
    return d11_dma_read(&c->dma, off, mask);
}

static void d11_w_dma(D11Core *c, uint32_t off, uint32_t val, uint32_t mask)
{
    unsigned n;
    unsigned ev = d11_dma_write(&c->dma, off, val, mask, &n);

    if (ev & D11_DMA_TX_RESET) {
        d11_xmit_engine_reset(&c->xmit, n);     /* its frames: no status */
    }
    if (ev & D11_DMA_TX_KICK) {
        d11_core_kick(c);
    }
    if (ev & D11_DMA_TX_START) {
        d11_core_tx_work(c);    /* TXINDEX moved: fetch at once */
    }
    if (ev & D11_DMA_RX_CTL) {
        d11_core_air_update(c);     /* the RX engine on, off or reset */
    }
}

/* ------------------------------------------------------------------ */
/* the register table                                                  */

/*
 * One row a 32-bit word of the core's 4 KiB: the names of the registers
 * at its low and high half (for the traces; "D11" when none), its read
 * and write handlers (none: store and read back).
 */
typedef struct D11Reg {
    const char *name[2];
    D11RegRead *read;
    D11RegWrite *write;
    bool own_trace;             /* the DMA engines trace their registers */
    bool air;                   /* a write may change what the air sees */
} D11Reg;

#define D11_REG(a, lo, hi, r, w) \
    [(a) >> 2] = { .name = { lo, hi }, .read = r, .write = w }
/* ... whose write may change what the air sees of the radio */
#define D11_REG_AIR(a, lo, hi, r, w) \
    [(a) >> 2] = { .name = { lo, hi }, .read = r, .write = w, .air = true }

/* an engine's interrupt reason and mask, in the MAC's register file */
#define D11_DMA_REASON_REG(i) \
    D11_REG(D11_DMA_REASON(i), "DMA_REASON", "DMA_REASON", \
            d11_r_dma_irq, d11_w_dma_irq)
#define D11_DMA_MASK_REG(i) \
    D11_REG(D11_DMA_IRQ_MASK(i), "DMA_IRQ_MASK", "DMA_IRQ_MASK", \
            d11_r_dma_irq, d11_w_dma_irq)

static const D11Reg d11_regs[BCMA_CORE_SIZE / 4] = {
    D11_DMA_REASON_REG(0), D11_DMA_MASK_REG(0),
    D11_DMA_REASON_REG(1), D11_DMA_MASK_REG(1),
    D11_DMA_REASON_REG(2), D11_DMA_MASK_REG(2),
    D11_DMA_REASON_REG(3), D11_DMA_MASK_REG(3),
    D11_DMA_REASON_REG(4), D11_DMA_MASK_REG(4),
    D11_DMA_REASON_REG(5), D11_DMA_MASK_REG(5),
    D11_REG(A_D11_RX_LAZY, "RX_LAZY", NULL, NULL, NULL),
    D11_REG_AIR(A_D11_MACCTL, "MACCTL", "MACCTL", d11_r_macctl, d11_w_macctl),
    D11_REG(A_D11_MACCMD, "MACCMD", "MACCMD", d11_r_maccmd, d11_w_maccmd),
    D11_REG(A_D11_GEN_IRQ_REASON, "GEN_IRQ_REASON", "GEN_IRQ_REASON",
            d11_r_irq_reason, d11_w_irq_reason),
    D11_REG(A_D11_GEN_IRQ_MASK, "GEN_IRQ_MASK", "GEN_IRQ_MASK",
            d11_r_irq_mask, d11_w_irq_mask),
    D11_REG(A_D11_RAM_CONTROL, "RAM_CONTROL", NULL, d11_r_ram_control,
            d11_w_ram_control),
    D11_REG(A_D11_RAM_DATA, "RAM_DATA", NULL, d11_r_ram_data,
            d11_w_ram_data),
    D11_REG(A_D11_PS_STATUS, "PS_STATUS", NULL, d11_r_zero, NULL),
    D11_REG(A_D11_RADIO_HWENABLED_HI, "RADIO_HWENABLED_HI",
            "RADIO_HWENABLED_HI", d11_r_hwenabled, d11_w_ro),
    D11_REG(A_D11_MAC_HW_CAP, "MAC_HW_CAP", NULL, d11_r_zero, NULL),
    D11_REG(A_D11_SHM_CONTROL, "SHM_CONTROL", "SHM_CONTROL",
            d11_r_shm_control, d11_w_shm_control),
    D11_REG(A_D11_SHM_DATA, "SHM_DATA", "SHM_DATA_UNALIGNED",
            d11_r_shm_data, d11_w_shm_data),
    D11_REG(A_D11_XMITSTAT_0, "XMITSTAT_0", NULL, d11_r_xmitstat0, d11_w_ro),
    D11_REG(A_D11_XMITSTAT_1, "XMITSTAT_1", NULL, d11_r_xmitstat1, d11_w_ro),
    D11_REG(A_D11_TSF_LOW, "TSF_LOW", NULL, d11_r_tsf_low, d11_w_tsf_low),
    D11_REG(A_D11_TSF_HIGH, "TSF_HIGH", NULL, d11_r_tsf_high,
            d11_w_tsf_high),
    D11_REG(A_D11_TSF_CFP_REP, "TSF_CFP_REP", NULL, NULL, d11_w_tbtt),
    D11_REG(A_D11_TSF_CFP_START, "TSF_CFP_START", NULL, NULL, d11_w_tbtt),
    [D11_DMA_BASE >> 2 ... (D11_DMA_END >> 2) - 1] = {
        .read = d11_r_dma, .write = d11_w_dma, .own_trace = true,
    },
    D11_REG_AIR(A_D11_RADIO24_CONTROL, "RADIO24_CONTROL", "RADIO24_DATA",
            d11_r_radio24, d11_w_radio24),
    D11_REG_AIR(A_D11_PHY_VER, "PHY_VER", NULL, d11_r_phy_ver, d11_w_phy_ver),
    D11_REG(A_D11_PHY0, NULL, "PHY0", NULL, NULL),
    D11_REG_AIR(A_D11_RADIO_CONTROL, NULL, NULL, d11_r_radio_control,
            d11_w_radio_control),
    D11_REG_AIR(A_D11_RADIO_DATA, NULL, NULL, d11_r_radio_data,
            d11_w_radio_data),
    D11_REG_AIR(A_D11_PHY_CONTROL, "PHY_CONTROL", "PHY_DATA", d11_r_phy_port,
            d11_w_phy_port),
    D11_REG_AIR(A_D11_MACFILTER_CONTROL, "MACFILTER_CONTROL", "MACFILTER_DATA",
            d11_r_macfilter, d11_w_macfilter),
    D11_REG(A_D11_RCMTA_COUNT, "RCMTA_COUNT", NULL, NULL, NULL),
    D11_REG(A_D11_PSM_PHY_HDR, NULL, "PSM_PHY_HDR", NULL, NULL),
    D11_REG(A_D11_GPIO_CONTROL, "GPIO_CONTROL", "GPIO_MASK", d11_r_gpio,
            d11_w_gpio),
    D11_REG(A_D11_TSF_CFP_PRETBTT, NULL, "TSF_CFP_PRETBTT", NULL, NULL),
    D11_REG(A_D11_TSF_CLK_FRAC_LOW, NULL, "TSF_CLK_FRAC_LOW", NULL, NULL),
    D11_REG(A_D11_TSF_CLK_FRAC_HIGH, "TSF_CLK_FRAC_HIGH", NULL, NULL, NULL),
    D11_REG(A_D11_RNG, NULL, "RNG", d11_r_rng, NULL),
    D11_REG(A_D11_IFSSLOT, "IFSSLOT", NULL, NULL, NULL),
    D11_REG(A_D11_IFSCTL, "IFSCTL", NULL, NULL, NULL),
    D11_REG(A_D11_POWERUP_DELAY, "POWERUP_DELAY", NULL, NULL, NULL),
};

/* the name of the register the access at @off, lanes @mask, starts in */
static const char *d11_reg_name(uint32_t off, uint32_t mask)
{
    uint32_t a = bcma_lane_addr(off, mask);
    const char *name = d11_regs[off >> 2].name[(a >> 1) & 1];

    return name ? name : "D11";
}

/*
 * The hostile card's sites among the registers (hostile.h): the site of
 * the register at @off, and in *@bits the bits of the lanes @mask that are
 * its data (a port's address half is not); -1 when it is none
 */
static int d11_hostile_site(D11Core *c, uint32_t off, uint32_t mask,
                            uint32_t *bits)
{
    *bits = mask;
    if (off >= D11_DMA_BASE && off < D11_DMA_END) {
        return d11_dma_is_status(&c->dma, off) ? BCM_HOSTILE_DMA_STATUS : -1;
    }
    if (off < D11_DMA_REASON(D11_DMA_ENGINES) && off >= D11_DMA_REASON(0)) {
        return (off & 4) ? -1 : BCM_HOSTILE_IRQ;    /* reasons, not masks */
    }
    switch (off & ~3) {
    case A_D11_GEN_IRQ_REASON:
        return BCM_HOSTILE_IRQ;
    case A_D11_XMITSTAT_0:
    case A_D11_XMITSTAT_1:
        return BCM_HOSTILE_TXSTAT;
    case A_D11_SHM_DATA:
        return BCM_HOSTILE_SHM;
    case A_D11_PHY_VER:
    case A_D11_RADIO_DATA:
        return BCM_HOSTILE_PHY;
    case A_D11_PHY_CONTROL:             /* PHY_DATA: the high half */
    case A_D11_RADIO24_CONTROL:         /* RADIO24_DATA: the high half */
        *bits = mask & 0xffff0000;
        return *bits ? BCM_HOSTILE_PHY : -1;
    default:
        return -1;
    }
}

static uint32_t d11_core_read(void *opaque, uint32_t off, uint32_t mask)
{
    D11Core *c = opaque;
    const D11Reg *r = &d11_regs[off >> 2];
    uint32_t v, bits;
    int site;

    assert(off < BCMA_CORE_SIZE);
    v = r->read ? r->read(c, off, mask) : c->mac.regs[off >> 2];
    if (c->hostile.in) {
        site = d11_hostile_site(c, off, mask, &bits);
        if (site >= 0) {
            v = bcm_hostile_u32(&c->hostile, site, v, bits);
        }
    }
    if (!r->own_trace) {
        trace_bcm4331_d11_read(d11_reg_name(off, mask),
                               bcma_lane_addr(off, mask),
                               bcma_lane_val(v, mask));
    }
    return v;
}

static void d11_core_write(void *opaque, uint32_t off, uint32_t val,
                           uint32_t mask)
{
    D11Core *c = opaque;
    const D11Reg *r = &d11_regs[off >> 2];

    assert(off < BCMA_CORE_SIZE);
    if (!r->own_trace) {
        trace_bcm4331_d11_write(d11_reg_name(off, mask),
                                bcma_lane_addr(off, mask),
                                bcma_lane_val(val, mask));
    }
    if (r->write) {
        r->write(c, off, val, mask);
    } else {
        /* everything else stores and reads back */
        c->mac.regs[off >> 2] = merge(c->mac.regs[off >> 2], val, mask);
    }
    if (r->air) {
        d11_core_air_update(c);
    }
}

BCMA_REGION_OPS(d11_core_ops, d11_core_read, d11_core_write);

/* ------------------------------------------------------------------ */
/* life cycle                                                          */

/* instance_init: the blocks, and the hooks they call up through */
void d11_core_init(D11Core *c, PCIDevice *pci, const BcmPhyModel *phy)
{
    bcm_phy_init(&c->phy, phy);
    c->pci = pci;
    c->dma.pci = pci;
    c->dma.intr_raise = d11_core_dma_intr;
    c->dma.intr_opaque = c;
}

/*
 * the core's registers, a region for the backplane; what the chip says of
 * the core: its revision (the firmware's), rings aligned to 4 KiB
 */
void d11_core_init_mmio(D11Core *c, Object *owner, uint8_t corerev,
                        bool ring_aligned)
{
    c->fw.corerev = corerev;
    c->dma.ring_aligned = ring_aligned;
    memory_region_init_io(&c->iomem, owner, &d11_core_ops, c, "bcm4331-d11",
                          BCMA_CORE_SIZE);
}

/* the core's interrupt line, the TX work, the medium client, the TBTT */
void d11_core_realize(D11Core *c, DeviceState *dev, qemu_irq irq)
{
    c->mac.irq = irq;
    c->tx_work = wifi_deferred_new(d11_core_tx_work, c,
                                   &dev->mem_reentrancy_guard);
    c->air.ops = &d11_air_ops;
    c->air.opaque = c;
    c->air.name = dev->id ? dev->id : "bcm4331";
    wifi_medium_attach(c->medium, &c->air, dev);
    c->air.txpower_dbm = c->txpower;
    bcm_fw_init(&c->fw, d11_core_tbtt, c);
}

void d11_core_exit(D11Core *c)
{
    wifi_medium_detach(&c->air);
    wifi_deferred_free(c->tx_work);
    c->tx_work = NULL;
    bcm_fw_exit(&c->fw);
}

/* the blocks' registers to their power-on values (no interrupt change) */
static void d11_core_reset_blocks(D11Core *c)
{
    d11_mac_reset(&c->mac);
    bcm_fw_reset(&c->fw);
    d11_dma_reset(&c->dma);
    if (c->tx_work) {
        wifi_deferred_cancel(c->tx_work);
    }
    d11_xmit_reset(&c->xmit);
    wifi_medium_flush(&c->air);     /* what the air holds of this card */
}

/* bcma core reset of the 802.11 core (from the backplane's agent) */
void d11_core_bcma_reset(void *opaque)
{
    D11Core *c = opaque;

    d11_core_reset_blocks(c);
    d11_update_irq(&c->mac);
    d11_core_air_update(c);
}

/*
 * device reset (enter phase): also the memories, the microcode, the PHY
 * and the radio; the interrupt line follows in the hold phase
 */
void d11_core_reset(D11Core *c)
{
    d11_mac_clear_memories(&c->mac);
    bcm_fw_clear_ucode(&c->fw);
    bcm_phy_reset(&c->phy);
    d11_core_reset_blocks(c);
}

/* the core's line follows its reasons (reset hold, migration) */
void d11_core_update_irq(D11Core *c)
{
    d11_update_irq(&c->mac);
}

/*
 * Migration, once every block is loaded: the TX status of the frames that
 * were on the source's air.  An in-process loadvm first: what the medium
 * still holds of this card's timeline before the load (frames contending
 * or on the air, frames not yet delivered) is not the loaded state's; its
 * tx_done would pop entries of the TX FIFO.
 */
void d11_core_post_load(D11Core *c)
{
    wifi_medium_flush(&c->air);
    d11_xmit_post_load(&c->xmit, &c->mac);
}

/* the TBTT timer follows the TSF; frames posted before the move go out */
void d11_core_resume(D11Core *c)
{
    bcm_fw_tbtt_update(&c->fw, &c->mac);
    d11_core_kick(c);
}

/* the card's hardware radio switch */
void d11_core_set_rfkill(D11Core *c, bool blocked)
{
    if (!bcm_phy_set_rfkill(&c->phy, blocked)) {
        return;
    }
    d11_core_air_update(c);
    /* the switch change interrupt (b43 polls the switch; it only acks) */
    if (bcm_fw_running(&c->fw)) {
        d11_raise_irq(&c->mac, D11_IRQ_RFKILL);
    }
}
