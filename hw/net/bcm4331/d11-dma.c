/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core's DMA engines (64-bit, or 32-bit with
 * dma64=off): their registers, the descriptor rings, the TX ring walk that
 * gathers a frame for the firmware (d11-xmit.c) and the RX engine that
 * places the frames the firmware built.
 *
 * Descriptor and header formats: Linux drivers/net/wireless/broadcom/b43/
 * dma.c, dma.h, xmit.c, xmit.h.
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
#include "bcm4331.h"
#include "trace.h"

/* frames one engine may send per bottom-half run (then reschedule) */
#define D11_TX_BUDGET           32
/* descriptors one frame may span: b43 uses 2 (header, frame) */
#define D11_TX_MAX_DESC         8

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
void d11_dma_hold(Bcm4331State *s)
{
    object_ref(OBJECT(s));
}

static void d11_unref_bh(void *opaque)
{
    object_unref(opaque);
}

void d11_dma_release(Bcm4331State *s)
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
        BCM_GUEST_ERR(bcm4331_dma_ub_desc, "engine %u %s descriptor at "
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
        if (!d11_xmit_may_fetch(s)) {
            trace_bcm4331_tx_wait(n, "TX FIFO full");
            return false;       /* the end of an exchange kicks the engines */
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
                BCM_GUEST_ERR(bcm4331_dma_ub_lap, "engine %u TX: TXINDEX "
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
                BCM_GUEST_ERR(bcm4331_dma_ub_chain, "engine %u TX descriptor "
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
                BCM_GUEST_ERR(bcm4331_dma_ub_data, "engine %u TX buffer "
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
            BCM_GUEST_ERR(bcm4331_dma_ub_noeof, "engine %u TX frame at 0x%x "
                          "without EOF within %d descriptors", n,
                          s->mac.tx_cd[n], D11_TX_MAX_DESC);
            dma_fail(s, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT,
                     s->mac.tx_cd[n]);
            return false;
        }
        d11_xmit_tx(s, n, buf, len);
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

/* has the driver posted frames engine @n has not fetched yet? */
bool d11_dma_tx_posted(Bcm4331State *s, unsigned n)
{
    return s->mac.tx_cd[n] !=
           (*dma_reg(s, n, D11_DMA64_TXINDEX) & dma_ring_mask(s));
}

void d11_dma_kick(Bcm4331State *s)
{
    if (s->tx_bh) {
        qemu_bh_schedule(s->tx_bh);
    }
}

/*
 * Run the engines now, from a timer (the end of an exchange on the air
 * frees room in the TX FIFO): the hardware fetches the next frame at
 * once, and a bottom half would run only after the virtual clock has moved
 * on (a qtest's clock step, icount: the engine would fall idle for the
 * rest of the step).  With the device's reentrancy guard engaged, as in
 * its MMIO handlers and guarded bottom half, so that a descriptor pointing
 * into BAR0 ends in a DMA error instead of re-entering the device.
 */
void d11_dma_fetch_now(Bcm4331State *s)
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
                d11_xmit_engine_reset(s, n);
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
        d11_xmit_engine_reset(s, n);
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
/* RX: engine 0 places the frames the firmware built                   */

bool d11_dma_rx_enabled(Bcm4331State *s)
{
    return (*dma_reg(s, 0, D11_DMA64_RXCTL) & D11_DMA64_CTL_ENABLE) &&
           !dma_stopped(s, 0, true);
}

/* RXCTL's frame offset: the bytes before the frame (the RX header) */
uint32_t d11_dma_rx_offset(Bcm4331State *s)
{
    return (*dma_reg(s, 0, D11_DMA64_RXCTL) >> D11_DMA64_RXCTL_FO_SHIFT) &
           0x7f;
}

/*
 * The buffer for the next frame (@total bytes, a @frame_len-byte frame):
 * the descriptor at CD, if the ring has a free one after it (else the
 * frame is lost: RX descriptor underflow) and its buffer is large enough.
 */
bool d11_dma_rx_reserve(Bcm4331State *s, size_t total, size_t frame_len,
                        D11RxSlot *slot)
{
    uint32_t stop = *dma_reg(s, 0, D11_DMA64_RXINDEX) & dma_ring_mask(s);
    D11Desc d;

    slot->cd = s->mac.rx_cd[0];
    if (!dma_desc(s, 0, true, slot->cd, &d)) {
        return false;
    }
    slot->next = dma_next(s, &d, slot->cd);
    slot->addr = d.addr;
    if (slot->next == stop) {
        s->mac.rx_dropped++;
        s->mac.dma_reason[0] |= D11_DMAIRQ_RX_UFLOW;
        trace_bcm4331_rx_drop("ring full", frame_len);
        d11_update_irq(s);
        return false;
    }
    if (total > (d.ctl1 & D11_DESC_CTL1_LEN)) {
        s->mac.rx_dropped++;
        trace_bcm4331_rx_drop("buffer too small", frame_len);
        return false;
    }
    return true;
}

/*
 * Write the frame into the reserved buffer and move CD on; false if the
 * write failed (a DMA error) or unplugged the card (d11_dma_gone()).  The
 * caller raises the RX interrupt.
 */
bool d11_dma_rx_commit(Bcm4331State *s, const D11RxSlot *slot,
                       const uint8_t *buf, size_t total)
{
    MemTxResult r = pci_dma_write(PCI_DEVICE(s), slot->addr, buf, total);

    if (d11_gone(s)) {
        return false;           /* the write unplugged the card */
    }
    if (r != MEMTX_OK) {
        BCM_GUEST_ERR(bcm4331_dma_ub_data, "engine %u RX buffer 0x%" PRIx64
                      " (%zu bytes) not writable", 0, slot->addr, total);
        dma_fail(s, 0, true, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER,
                 slot->cd);
        return false;
    }
    s->mac.rx_cd[0] = slot->next;
    s->mac.dma_reason[0] |= D11_DMAIRQ_RX_DONE;
    return true;
}

/* ------------------------------------------------------------------ */

void d11_dma_init(Bcm4331State *s)
{
    DeviceState *dev = DEVICE(s);

    s->tx_bh = qemu_bh_new_guarded(d11_tx_bh, s, &dev->mem_reentrancy_guard);
}

void d11_dma_exit(Bcm4331State *s)
{
    qemu_bh_delete(s->tx_bh);
    s->tx_bh = NULL;
}

void d11_dma_reset(Bcm4331State *s)
{
    D11State *m = &s->mac;

    memset(m->tx_cd, 0, sizeof(m->tx_cd));
    memset(m->rx_cd, 0, sizeof(m->rx_cd));
    memset(m->tx_walk, 0, sizeof(m->tx_walk));
    if (s->tx_bh) {
        qemu_bh_cancel(s->tx_bh);
    }
}
