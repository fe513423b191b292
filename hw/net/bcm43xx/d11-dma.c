/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core's DMA engines (64-bit, or 32-bit with
 * dma64=off): their registers, the descriptor rings, the TX ring walk that
 * gathers the frame the hub (d11-core.c) pulls, and the RX engine that
 * places the frames the firmware built.  A leaf: it calls no other block
 * of the card; its interrupt reasons go up through d->intr_raise.
 *
 * Descriptor and header formats: Linux drivers/net/wireless/broadcom/b43/
 * dma.c, dma.h, xmit.c, xmit.h.
 * Every descriptor, address and length comes from the guest and is checked;
 * walks are bounded (a frame's descriptors, one lap of the ring).  The
 * BCM4331 erratum that copies bit 12 of the RX ring address into
 * RXSTATUS's current-descriptor field is reproduced (property
 * rx-cd-erratum, on by default): see docs.
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
#include "d11-dma.h"
#include "bcma.h"
#include "trace.h"

/* descriptors one frame may span: b43 uses 2 (header, frame) */
#define D11_TX_MAX_DESC         8

static uint32_t *dma_reg(D11Dma *d, unsigned n, uint32_t rel)
{
    return &d->regs[n][(rel & 0x3f) >> 2];
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

static uint64_t dma_ring_base(D11Dma *d, unsigned n, bool rx)
{
    uint32_t off = rx ? D11_DMA64_RXCTL : D11_DMA64_TXCTL;
    uint32_t ext = *dma_reg(d, n, off) >> D11_DMA64_CTL_ADDREXT_SHIFT;

    if (!d->dma64) {
        return dma_addr32(*dma_reg(d, n, off + 8), ext);
    }
    return dma_addr(*dma_reg(d, n, off + 8), *dma_reg(d, n, off + 12), ext);
}

/* descriptor size and ring span of the engine format */
static uint32_t dma_desc_size(D11Dma *d)
{
    return d->dma64 ? D11_DESC_SIZE : D11_DESC32_SIZE;
}

static uint32_t dma_ring_mask(D11Dma *d)
{
    return (d->dma64 ? D11_DMA_RING_BYTES : D11_DMA32_RING_BYTES) - 1;
}

/* the sticky error state: engine stopped, error code, interrupt */
static void dma_fail(D11Dma *d, unsigned n, bool rx, uint32_t reason,
                     uint32_t code, uint32_t cd)
{
    *dma_reg(d, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) =
        (code << 28) | (cd & D11_DMA64_CD_MASK);
    trace_bcm4331_dma_error(n, rx ? "RX" : "TX", reason, code, cd);
    d->intr_raise(d->intr_opaque, n, reason);
}

static bool dma_stopped(D11Dma *d, unsigned n, bool rx)
{
    return *dma_reg(d, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) >> 28;
}

/*
 * A DMA access can reach MMIO that unplugs the card: an RX buffer on a
 * root port's Slot Control register (ECAM) powers the slot off, and QEMU
 * unrealizes the card inside pci_dma_write() (config space freed, medium
 * detached) and would finalize it there.  Every path that does DMA holds a
 * reference to the card for its duration (the hub: d11-core.c) and the
 * engines stop as soon as the card is gone (d11_dma_gone() after each
 * access).
 */
static bool d11_dma_gone(D11Dma *d)
{
    if (DEVICE(d->pci)->realized) {
        return false;
    }
    trace_bcm4331_dma_unplugged();
    return true;
}

/*
 * Can the engine make an access of @len bytes at @off from @base (a ring's
 * base, a buffer's address)?  Not if its end lies beyond what the engine
 * addresses: 2^64, or 4 GiB for a 32-bit engine.  Checked before the
 * access, as nvme_addr_read() (hw/nvme/ctrl.c) checks addr + len: QEMU
 * would carry an access across 2^64 on at address 0 after its failing top
 * part.  A refused access is a failed one for the caller.
 */
static bool dma_reachable(D11Dma *d, unsigned n, bool rx, uint64_t base,
                          uint32_t off, uint64_t len)
{
    uint64_t top = d->dma64 ? UINT64_MAX : UINT32_MAX;

    if (base <= top && off <= top - base &&
        (!len || len - 1 <= top - base - off)) {
        return true;
    }
    BCM_GUEST_ERR(bcm4331_dma_ub_range, "engine %u %s: %" PRIu64 " bytes at "
                  "0x%" PRIx64 " + 0x%x end beyond 0x%" PRIx64,
                  n, rx ? "RX" : "TX", len, base, off, top);
    return false;
}

/* a descriptor in the 64-bit layout (32-bit ones are converted) */
typedef struct {
    uint32_t ctl0, ctl1, lo, hi;
    uint64_t addr;
} D11Desc;

/* fetch descriptor at byte offset @cd of the ring: copied, then checked */
static bool dma_desc(D11Dma *dma, unsigned n, bool rx, uint32_t cd,
                     D11Desc *d)
{
    uint64_t base = dma_ring_base(dma, n, rx);
    uint64_t a = base + cd;
    uint32_t w[4];

    if (!dma_reachable(dma, n, rx, base, cd, dma_desc_size(dma)) ||
        pci_dma_read(dma->pci, a, w, dma_desc_size(dma)) != MEMTX_OK) {
        if (d11_dma_gone(dma)) {
            return false;
        }
        BCM_GUEST_ERR(bcm4331_dma_ub_desc, "engine %u %s descriptor at "
                      "0x%" PRIx64 " unreadable", n, rx ? "RX" : "TX", a);
        dma_fail(dma, n, rx, D11_DMAIRQ_DESC_ERR, D11_DMA_ERR_DESCREAD, cd);
        return false;
    }
    if (dma->dma64) {
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
        d->ctl1 = ctl & (D11_DESC_CTL1_LEN | R_D11_DESC_CTL1_ADDREXT_MASK);
        d->lo = le32_to_cpu(w[1]);
        d->hi = 0;
        d->addr = dma_addr32(d->lo, ctl >> D11_DESC_CTL1_ADDREXT_SHIFT);
    }
    if (d11_dma_gone(dma)) {
        return false;
    }
    trace_bcm4331_dma_desc(n, rx ? "RX" : "TX", cd, d->ctl0, d->ctl1,
                           d->addr);
    return true;
}

static uint32_t dma_next(D11Dma *dma, const D11Desc *d, uint32_t cd)
{
    /* DTABLEEND wraps; the CD field wraps at 8 KiB (4 KiB for 32-bit) */
    if (d->ctl0 & D11_DESC_CTL0_DTABLEEND) {
        return 0;
    }
    return (cd + dma_desc_size(dma)) & dma_ring_mask(dma);
}

/* has the driver posted frames engine @n has not fetched yet? */
bool d11_dma_tx_posted(D11Dma *d, unsigned n)
{
    return d->tx_cd[n] !=
           (*dma_reg(d, n, D11_DMA64_TXINDEX) & dma_ring_mask(d));
}

/*
 * May engine @n send?  Not while disabled, suspended or stopped by an
 * error, nor engine 4 in AP mode (@mcast_held) until a DTIM beacon opened
 * it (d11_dma_mcast_release()).
 */
bool d11_dma_tx_ready(D11Dma *d, unsigned n, bool mcast_held)
{
    uint32_t ctl = *dma_reg(d, n, D11_DMA64_TXCTL);
    bool mcast_wait = n == D11_DMA_MCAST_ENGINE && mcast_held &&
                      !d->mcast_open;

    if (!(ctl & D11_DMA64_CTL_ENABLE) || (ctl & D11_DMA64_CTL_SUSPEND) ||
        dma_stopped(d, n, false) || mcast_wait) {
        if (!d11_dma_tx_posted(d, n)) {
            return false;       /* nothing posted anyway */
        }
        trace_bcm4331_tx_wait(n, !(ctl & D11_DMA64_CTL_ENABLE) ? "disabled" :
                              (ctl & D11_DMA64_CTL_SUSPEND) ? "suspended" :
                              dma_stopped(d, n, false) ? "error" :
                              "multicast after DTIM");
        return false;
    }
    return true;
}

/*
 * The engines that may send and have frames posted (a mask): the TX work
 * visits only these.  Engine 4 that may send with nothing posted is
 * drained: held until the next DTIM (d11_dma_mcast_hold()).
 */
uint32_t d11_dma_tx_due(D11Dma *d, bool mcast_held)
{
    uint32_t due = 0;

    for (unsigned n = 0; n < D11_DMA_ENGINES; n++) {
        if (!d11_dma_tx_ready(d, n, mcast_held)) {
            continue;
        }
        if (d11_dma_tx_posted(d, n)) {
            due |= BIT(n);
        } else if (n == D11_DMA_MCAST_ENGINE) {
            d11_dma_mcast_hold(d);
        }
    }
    return due;
}

/*
 * Descriptor @i of a frame, at @cd (the posted end at @end): read and
 * checked into @desc, its buffer appended to @buf at *@len.  False when
 * the frame is not complete yet, or an error stopped the engine.
 */
static bool dma_tx_gather(D11Dma *d, unsigned n, int i, uint32_t cd,
                          uint32_t end, uint8_t *buf, size_t *len,
                          D11Desc *desc)
{
    uint32_t cnt;
    MemTxResult r;

    if (i && cd == end) {
        return false;           /* frame not complete yet: wait */
    }
    /*
     * A ring whose posted end is never reached (self-linked, DTABLEEND
     * missing, TXINDEX off the ring) would loop for ever: more than one
     * lap of the 8 KiB ring is an error.
     */
    if (++d->tx_walk[n] > (dma_ring_mask(d) + 1) / dma_desc_size(d)) {
        BCM_GUEST_ERR(bcm4331_dma_ub_lap, "engine %u TX: TXINDEX "
                      "0x%x not reached within one ring lap", n, end);
        dma_fail(d, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT, cd);
        return false;
    }
    if (!dma_desc(d, n, false, cd, desc)) {
        return false;
    }
    cnt = desc->ctl1 & D11_DESC_CTL1_LEN;
    if ((i == 0) != !!(desc->ctl0 & D11_DESC_CTL0_SOF) || cnt == 0 ||
        *len + cnt > D11_TX_MAX_BYTES) {
        BCM_GUEST_ERR(bcm4331_dma_ub_chain, "engine %u TX descriptor "
                      "0x%x: ctl0 0x%x, %u bytes (frame %zu bytes)",
                      n, cd, desc->ctl0, cnt, *len);
        dma_fail(d, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT, cd);
        return false;
    }
    r = dma_reachable(d, n, false, desc->addr, 0, cnt) ?
        pci_dma_read(d->pci, desc->addr, buf + *len, cnt) :
        MEMTX_DECODE_ERROR;
    if (d11_dma_gone(d)) {
        return false;
    }
    if (r != MEMTX_OK) {
        BCM_GUEST_ERR(bcm4331_dma_ub_data, "engine %u TX buffer "
                      "0x%" PRIx64 " (%u bytes) unreadable", n, desc->addr,
                      cnt);
        dma_fail(d, n, false, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER, cd);
        return false;
    }
    *len += cnt;
    return true;
}

/*
 * The frame at engine @n's CD: its descriptors SOF..EOF gathered into @buf
 * (D11_TX_MAX_BYTES), its length in *@len, the descriptor after it in
 * *@next (d11_dma_tx_advance() once the frame is taken).  False when the
 * frame is not complete yet, or an error stopped the engine.
 */
bool d11_dma_tx_fetch(D11Dma *d, unsigned n, uint8_t *buf, size_t *len,
                      uint32_t *next)
{
    uint32_t end = *dma_reg(d, n, D11_DMA64_TXINDEX) & dma_ring_mask(d);
    uint32_t cd = d->tx_cd[n];
    D11Desc desc;
    bool eof = false;

    *len = 0;
    /* gather SOF..EOF; each descriptor is bounded and checked */
    for (int i = 0; i < D11_TX_MAX_DESC && !eof; i++) {
        if (!dma_tx_gather(d, n, i, cd, end, buf, len, &desc)) {
            return false;
        }
        eof = desc.ctl0 & D11_DESC_CTL0_EOF;
        cd = dma_next(d, &desc, cd);
    }
    if (!eof) {
        BCM_GUEST_ERR(bcm4331_dma_ub_noeof, "engine %u TX frame at 0x%x "
                      "without EOF within %d descriptors", n,
                      d->tx_cd[n], D11_TX_MAX_DESC);
        dma_fail(d, n, false, D11_DMAIRQ_PROTO_ERR, D11_DMA_ERR_PROT,
                 d->tx_cd[n]);
        return false;
    }
    *next = cd;
    return true;
}

/* the frame d11_dma_tx_fetch() gathered was taken: CD moves past it */
void d11_dma_tx_advance(D11Dma *d, unsigned n, uint32_t next)
{
    d->tx_cd[n] = next;
}

/* a DTIM beacon went out: engine 4 may send its group frames */
void d11_dma_mcast_release(D11Dma *d)
{
    d->mcast_open = true;
}

/* engine 4 drained, or the firmware restarted: held until the next DTIM */
void d11_dma_mcast_hold(D11Dma *d)
{
    d->mcast_open = false;
}

/* ------------------------------------------------------------------ */
/* registers                                                           */

/*
 * With 32-bit engines (dma64=off) the engine registers are packed at
 * 0x200 + 0x20 n (b43 dma.h B43_DMA32_*): map each to its 64-bit
 * counterpart, where the engines keep them.
 */
static uint32_t dma32_reg(D11Dma *d, uint32_t off)
{
    static const uint8_t to64[8] = {
        D11_DMA64_TXCTL, D11_DMA64_TXRINGLO, D11_DMA64_TXINDEX,
        D11_DMA64_TXSTATUS, D11_DMA64_RXCTL, D11_DMA64_RXRINGLO,
        D11_DMA64_RXINDEX, D11_DMA64_RXSTATUS,
    };
    uint32_t rel = off - D11_DMA_BASE;

    if (d->dma64 || rel >= D11_DMA_ENGINES * D11_DMA32_ENGINE_SIZE) {
        return off;
    }
    return D11_DMA_BASE + 0x40 * (rel / D11_DMA32_ENGINE_SIZE) +
           to64[(rel % D11_DMA32_ENGINE_SIZE) / 4];
}

static const char *dma_reg_name(D11Dma *d, uint32_t off)
{
    static const char *const n[16] = {
        "DMA_TXCTL", "DMA_TXINDEX", "DMA_TXRINGLO", "DMA_TXRINGHI",
        "DMA_TXSTATUS", "DMA_TXERROR", "DMA_TX?", "DMA_TX?",
        "DMA_RXCTL", "DMA_RXINDEX", "DMA_RXRINGLO", "DMA_RXRINGHI",
        "DMA_RXSTATUS", "DMA_RXERROR", "DMA_RX?", "DMA_RX?",
    };

    return n[((dma32_reg(d, off) - D11_DMA_BASE) & 0x3f) >> 2];
}

static unsigned dma_reg_written(D11Dma *d, unsigned n, uint32_t rel,
                                uint32_t old, uint32_t val)
{
    unsigned ev = 0;

    switch (rel) {
    case D11_DMA64_TXCTL:
    case D11_DMA64_RXCTL: {
        bool rx = rel == D11_DMA64_RXCTL;

        if ((val ^ old) & D11_DMA64_CTL_ENABLE) {
            /* enabling restarts at the ring's first descriptor */
            if (rx) {
                d->rx_cd[n] = 0;
            } else {
                d->tx_cd[n] = 0;
            }
            /* disabling resets the engine, its posted end included */
            if (!(val & D11_DMA64_CTL_ENABLE)) {
                *dma_reg(d, n, rx ? D11_DMA64_RXINDEX : D11_DMA64_TXINDEX) = 0;
            }
            /* enable/disable clears the error state */
            *dma_reg(d, n, rx ? D11_DMA64_RXERROR : D11_DMA64_TXERROR) = 0;
            d->tx_walk[n] = 0;
            if (!rx) {
                ev |= D11_DMA_TX_RESET;
            }
        }
        if (!rx) {
            ev |= D11_DMA_TX_KICK;
        }
        break;
    }
    case D11_DMA64_TXRINGLO:
        d->tx_cd[n] = 0;
        d->tx_walk[n] = 0;
        ev |= D11_DMA_TX_RESET;
        break;
    case D11_DMA64_RXRINGLO:
        d->rx_cd[n] = 0;
        break;
    case D11_DMA64_TXINDEX:
        trace_bcm4331_tx_index(n, val, d->tx_cd[n]);
        d->tx_walk[n] = 0;
        /*
         * The engine starts fetching as soon as TXINDEX moves, as the
         * hardware's does: not in deferred work that a busy host may run
         * only after the driver has posted a whole ring.  b43 fills all
         * 256 slots, which puts TXINDEX back on the engine's CD: an engine
         * that far behind would see an empty ring and never report the
         * frames (the "TX stall").
         */
        ev |= D11_DMA_TX_START;
        break;
    default:
        break;
    }
    return ev;
}

static uint32_t dma_status(D11Dma *d, unsigned n, uint32_t rel)
{
    bool rx = rel == D11_DMA64_RXSTATUS;
    uint32_t ctl = *dma_reg(d, n, rx ? D11_DMA64_RXCTL : D11_DMA64_TXCTL);
    uint32_t state, cd;

    if (!(ctl & D11_DMA64_CTL_ENABLE)) {
        state = D11_DMA64_STAT_DISABLED;
    } else if (dma_stopped(d, n, rx)) {
        state = D11_DMA64_STAT_STOPPED;
    } else if (ctl & D11_DMA64_CTL_SUSPEND) {
        state = D11_DMA64_STAT_SUSP;
    } else {
        state = D11_DMA64_STAT_IDLEWAIT;
    }
    if (!d->dma64) {
        /*
         * 32-bit: error in bits 19:16 (no separate error register), state
         * in 15:12, descriptor pointer in 11:0 (b43 dma.h B43_DMA32_*)
         */
        uint32_t err = *dma_reg(d, n, rx ? D11_DMA64_RXERROR
                                         : D11_DMA64_TXERROR) >> 28;

        cd = rx ? d->rx_cd[n] : d->tx_cd[n];
        return (err << D11_DMA32_STAT_ERR_SHIFT) | (state >> 16) |
               (cd & D11_DMA32_CD_MASK);
    }
    if (rx) {
        cd = d->rx_cd[n];
        if (d->rx_cd_erratum) {
            /*
             * BCM4331 erratum: the current-descriptor field is computed
             * from the ring address, so its bit 12 leaks in (b43
             * dma.c alloc_ringmemory(): "some hardware (like BCM4331)
             * copies that bit into B43_DMA64_RXSTATUS").
             */
            cd = (*dma_reg(d, n, D11_DMA64_RXRINGLO) + cd);
        }
    } else {
        cd = d->tx_cd[n];
    }
    return state | (cd & D11_DMA64_CD_MASK);
}

bool d11_dma_is_status(D11Dma *d, uint32_t off)
{
    uint32_t rel = (dma32_reg(d, off) - D11_DMA_BASE) & 0x3f;

    return rel == D11_DMA64_TXSTATUS || rel == D11_DMA64_RXSTATUS;
}

uint32_t d11_dma_read(D11Dma *d, uint32_t off, uint32_t mask)
{
    uint32_t r = dma32_reg(d, off) - D11_DMA_BASE;
    unsigned n = r / 0x40;
    uint32_t v;

    switch (r & 0x3f) {
    case D11_DMA64_TXSTATUS:
    case D11_DMA64_RXSTATUS:
        v = dma_status(d, n, r & 0x3f);
        break;
    default:
        v = *dma_reg(d, n, r);
        break;
    }
    trace_bcm4331_d11_read(dma_reg_name(d, off), bcma_lane_addr(off, mask),
                           bcma_lane_val(v, mask));
    return v;
}

/* a register write; what it asks of the hub for engine *@engine */
unsigned d11_dma_write(D11Dma *d, uint32_t off, uint32_t val, uint32_t mask,
                       unsigned *engine)
{
    uint32_t r = dma32_reg(d, off) - D11_DMA_BASE;
    unsigned n = r / 0x40;
    uint32_t rel = r & 0x3f;
    uint32_t *reg = dma_reg(d, n, rel);
    uint32_t old = *reg;

    *engine = n;
    trace_bcm4331_d11_write(dma_reg_name(d, off), bcma_lane_addr(off, mask),
                            bcma_lane_val(val, mask));
    if (rel == D11_DMA64_TXSTATUS || rel == D11_DMA64_RXSTATUS ||
        rel == D11_DMA64_TXERROR || rel == D11_DMA64_RXERROR) {
        BCM_GUEST_ERR(bcm4331_d11_ub_ro, "write 0x%x to read-only "
                      "register 0x%x", val, D11_DMA_BASE + r);
        return 0;
    }
    *reg = (old & ~mask) | (val & mask);
    if (d->dma64 && d->ring_aligned &&
        (rel == D11_DMA64_TXRINGLO || rel == D11_DMA64_RXRINGLO)) {
        /* rings start on 4 KiB: the low bits are not there */
        *reg &= ~(uint32_t)D11_DMA_RING_ALIGN_MASK;
    }
    if (rel == D11_DMA64_TXCTL || rel == D11_DMA64_RXCTL) {
        trace_bcm4331_d11_dma_ctl(n, rel == D11_DMA64_TXCTL ? "TX" : "RX",
                                  *reg);
    }
    return dma_reg_written(d, n, rel, old, *reg) |
           (n == 0 && rel == D11_DMA64_RXCTL ? D11_DMA_RX_CTL : 0);
}

/* ------------------------------------------------------------------ */
/* RX: engine 0 places the frames the firmware built                   */

bool d11_dma_rx_enabled(D11Dma *d)
{
    return (*dma_reg(d, 0, D11_DMA64_RXCTL) & D11_DMA64_CTL_ENABLE) &&
           !dma_stopped(d, 0, true);
}

/* RXCTL's frame offset: the bytes before the frame (the RX header) */
static uint32_t d11_dma_rx_offset(D11Dma *d)
{
    return (*dma_reg(d, 0, D11_DMA64_RXCTL) >> D11_DMA64_RXCTL_FO_SHIFT) &
           0x7f;
}

/*
 * The buffer for the next frame (@total bytes, a @frame_len-byte frame):
 * the descriptor at CD, if the ring has a free one after it (else the
 * frame is lost: RX descriptor underflow) and its buffer is large enough.
 */
bool d11_dma_rx_reserve(D11Dma *d, size_t min_fo, size_t body,
                        size_t frame_len, D11RxSlot *slot)
{
    uint32_t stop = *dma_reg(d, 0, D11_DMA64_RXINDEX) & dma_ring_mask(d);
    D11Desc desc;
    size_t total;

    if (!d11_dma_rx_enabled(d)) {
        return false;
    }
    slot->fo = MAX(d11_dma_rx_offset(d), min_fo);
    slot->total = total = slot->fo + body;
    slot->cd = d->rx_cd[0];
    if (!dma_desc(d, 0, true, slot->cd, &desc)) {
        return false;
    }
    slot->next = dma_next(d, &desc, slot->cd);
    slot->addr = desc.addr;
    if (slot->next == stop) {
        d->rx_dropped++;
        trace_bcm4331_rx_drop("ring full", frame_len);
        d->intr_raise(d->intr_opaque, 0, D11_DMAIRQ_RX_UFLOW);
        return false;
    }
    if (total > (desc.ctl1 & D11_DESC_CTL1_LEN)) {
        d->rx_dropped++;
        trace_bcm4331_rx_drop("buffer too small", frame_len);
        return false;
    }
    return true;
}

/*
 * Write the frame into the reserved buffer, move CD on and raise RX_DONE;
 * false if the write failed (a DMA error) or unplugged the card.
 */
bool d11_dma_rx_commit(D11Dma *d, const D11RxSlot *slot,
                       const uint8_t *buf, size_t total)
{
    MemTxResult r = dma_reachable(d, 0, true, slot->addr, 0, total) ?
                    pci_dma_write(d->pci, slot->addr, buf, total) :
                    MEMTX_DECODE_ERROR;

    if (d11_dma_gone(d)) {
        return false;           /* the write unplugged the card */
    }
    if (r != MEMTX_OK) {
        BCM_GUEST_ERR(bcm4331_dma_ub_data, "engine %u RX buffer 0x%" PRIx64
                      " (%zu bytes) not writable", 0, slot->addr, total);
        dma_fail(d, 0, true, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER,
                 slot->cd);
        return false;
    }
    d->rx_cd[0] = slot->next;
    d->intr_raise(d->intr_opaque, 0, D11_DMAIRQ_RX_DONE);
    return true;
}

/* ------------------------------------------------------------------ */

void d11_dma_reset(D11Dma *d)
{
    memset(d->regs, 0, sizeof(d->regs));
    memset(d->tx_cd, 0, sizeof(d->tx_cd));
    memset(d->rx_cd, 0, sizeof(d->rx_cd));
    memset(d->tx_walk, 0, sizeof(d->tx_walk));
    d->mcast_open = false;
}

static int d11_dma_post_load(void *opaque, int version_id)
{
    D11Dma *d = opaque;

    /* ring positions index the rings: reject nonsense */
    for (int i = 0; i < D11_DMA_ENGINES; i++) {
        if (d->tx_cd[i] >= D11_DMA_RING_BYTES ||
            d->rx_cd[i] >= D11_DMA_RING_BYTES) {
            return -EINVAL;
        }
    }
    return 0;
}

const VMStateDescription vmstate_d11_dma = {
    .name = "bcm4331-d11-dma",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = d11_dma_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(regs, D11Dma, D11_DMA_ENGINES,
                               D11_DMA_ENGINE_WORDS),
        VMSTATE_UINT32_ARRAY(tx_cd, D11Dma, D11_DMA_ENGINES),
        VMSTATE_UINT32_ARRAY(rx_cd, D11Dma, D11_DMA_ENGINES),
        VMSTATE_UINT32_ARRAY(tx_walk, D11Dma, D11_DMA_ENGINES),
        VMSTATE_BOOL(mcast_open, D11Dma),
        VMSTATE_END_OF_LIST()
    },
};
