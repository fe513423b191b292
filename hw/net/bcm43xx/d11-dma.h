/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core's DMA engines (d11-dma.c), a leaf of
 * the hub (d11-core.c).  They own their registers (0x200-0x37F: six
 * engines of 64-bit registers, or the packed 32-bit layout with
 * dma64=off) and their rings: the hub pulls the frames posted on a TX ring
 * one by one (d11_dma_tx_fetch(), then d11_dma_tx_advance()) and places a
 * received frame as a reserve/commit pair.  They call no other block of
 * the card: their interrupt reasons go up through the intr_raise hook the
 * hub gives them (as xhci's), what a register write asks of the hub
 * (start fetching, an engine reset) is the write's return value.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_DMA_H
#define HW_NET_BCM43XX_D11_DMA_H

#include "hw/pci/pci_device.h"
#include "hw/net/bcm43xx/d11-regs.h"
#include "net/wifi/medium.h"    /* WIFI_MAX_FRAME */
#include "net/wifi/crypto.h"
#include "bcm-common.h"

/* the largest frame an engine gathers, and what encryption may append */
#define D11_TX_MAX_BYTES        (D11_TXH_LEN + WIFI_MAX_FRAME)
#define D11_TX_CRYPTO_ROOM      WIFI_CCMP_MIC_LEN   /* WEP/TKIP ICV: 4 */

#define D11_DMA_ENGINE_WORDS    (0x40 / 4)
#define D11_DMA_RING_ALIGN_MASK 0xfff

/* an engine's interrupt @reason (D11_DMAIRQ_*), to the hub */
typedef void D11DmaIntrRaise(void *opaque, unsigned engine, uint32_t reason);

typedef struct D11Dma {
    /* set by the hub */
    PCIDevice *pci;             /* the bus master (QOM object, not a block) */
    D11DmaIntrRaise *intr_raise;
    void *intr_opaque;

    bool mcast_open;            /* a DTIM beacon went out: engine 4 may send */

    bool dma64;                 /* property: 64-bit engines */
    bool rx_cd_erratum;         /* property: RXSTATUS bit-12 erratum */
    /*
     * the chip: ring address bits 11:0 read as 0 (brcmsmac probes them
     * with 0xff0, dma.c _dma_descriptor_align(), and then aligns its rings
     * and writes ring offsets to the index registers)
     */
    bool ring_aligned;

    uint32_t regs[D11_DMA_ENGINES][D11_DMA_ENGINE_WORDS];
    /* current descriptor of each engine, byte offset in its ring */
    uint32_t tx_cd[D11_DMA_ENGINES];
    uint32_t rx_cd[D11_DMA_ENGINES];
    /* descriptors walked since the last TXINDEX write (bounds a lap) */
    uint32_t tx_walk[D11_DMA_ENGINES];
    uint64_t rx_dropped;
} D11Dma;

/* an RX buffer the RX engine reserved for a frame */
typedef struct D11RxSlot {
    uint32_t cd;                /* its descriptor */
    uint32_t next;              /* CD after it */
    uint64_t addr;              /* the buffer */
    size_t fo;                  /* where the frame's PLCP goes (RXCTL) */
    size_t total;               /* the bytes written */
} D11RxSlot;

extern const VMStateDescription vmstate_d11_dma;

/*
 * What a register write asks of the hub, for engine *@engine: its frames
 * in the air report nothing (the ring was reset), fetch later, fetch now
 */
#define D11_DMA_TX_RESET        (1u << 0)
#define D11_DMA_TX_KICK         (1u << 1)
#define D11_DMA_TX_START        (1u << 2)
#define D11_DMA_RX_CTL          (1u << 3)       /* engine 0 RXCTL written */

/* registers: @off in D11_DMA_BASE..D11_DMA_END, @mask the byte lanes */
uint32_t d11_dma_read(D11Dma *d, uint32_t off, uint32_t mask);
unsigned d11_dma_write(D11Dma *d, uint32_t off, uint32_t val, uint32_t mask,
                       unsigned *engine);

/* TX: the hub pulls the posted frames */
bool d11_dma_tx_posted(D11Dma *d, unsigned engine);
bool d11_dma_tx_ready(D11Dma *d, unsigned engine, bool mcast_held);
uint32_t d11_dma_tx_due(D11Dma *d, bool mcast_held);
bool d11_dma_tx_fetch(D11Dma *d, unsigned engine, uint8_t *buf, size_t *len,
                      uint32_t *next);
void d11_dma_tx_advance(D11Dma *d, unsigned engine, uint32_t next);
void d11_dma_mcast_release(D11Dma *d);
void d11_dma_mcast_hold(D11Dma *d);

/* RX (engine 0): a frame is a reserve/commit pair */
bool d11_dma_rx_enabled(D11Dma *d);
/* is the register at @off (D11_DMA_BASE..D11_DMA_END) a TX/RX status? */
bool d11_dma_is_status(D11Dma *d, uint32_t off);
/*
 * an RX buffer for a frame of @frame_len bytes: the frame offset (RXCTL's,
 * at least @min_fo) and @body bytes after it, in @slot
 */
bool d11_dma_rx_reserve(D11Dma *d, size_t min_fo, size_t body,
                        size_t frame_len, D11RxSlot *slot);
bool d11_dma_rx_commit(D11Dma *d, const D11RxSlot *slot,
                       const uint8_t *buf, size_t total);

/* a path that does DMA holds the card (the DMA may unplug it) */


void d11_dma_reset(D11Dma *d);

#endif
