/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core's DMA engines (d11-dma.c).  They own
 * their registers (0x200-0x37F: six engines of 64-bit registers, or the
 * packed 32-bit layout with dma64=off), walk the TX rings and hand each
 * gathered frame to the data path (d11-xmit.c), and place the frames the
 * data path builds into the RX ring.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_DMA_H
#define HW_NET_BCM43XX_D11_DMA_H

#include "hw/pci/pci_device.h"
#include "hw/net/bcm43xx/d11-regs.h"
#include "net/wifi/medium.h"    /* WIFI_MAX_FRAME */
#include "net/wifi/crypto.h"
#include "net/wifi/deferred.h"
#include "bcm-common.h"

/* the largest frame an engine gathers, and what encryption may append */
#define D11_TX_MAX_BYTES        (D11_TXH_LEN + WIFI_MAX_FRAME)
#define D11_TX_CRYPTO_ROOM      WIFI_CCMP_MIC_LEN   /* WEP/TKIP ICV: 4 */

#define D11_DMA_ENGINE_WORDS    (0x40 / 4)
#define D11_DMA_RING_ALIGN_MASK 0xfff

struct D11Dma {
    /* links (set at realize) */
    PCIDevice *pci;             /* the bus master */
    D11State *mac;              /* interrupts */
    D11Xmit *xmit;              /* where gathered frames go */
    WifiDeferred *tx_work;

    /* the lines the rest of the core drives (not migrated: re-driven) */
    bool mac_running;           /* MAC enabled and the PSM runs */
    bool mcast_held;            /* AP: engine 4 waits for a DTIM beacon */
    bool tx_fifo_full;          /* the PHY's TX FIFO takes no frame */
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
};

/* an RX buffer the RX engine reserved for a frame */
typedef struct D11RxSlot {
    uint32_t cd;                /* its descriptor */
    uint32_t next;              /* CD after it */
    uint64_t addr;              /* the buffer */
} D11RxSlot;

extern const VMStateDescription vmstate_d11_dma;

/* registers: @off in D11_DMA_BASE..D11_DMA_END, @mask the byte lanes */
uint32_t d11_dma_read(D11Dma *d, uint32_t off, uint32_t mask);
void d11_dma_write(D11Dma *d, uint32_t off, uint32_t val, uint32_t mask);

/* TX */
void d11_dma_set_mac_state(D11Dma *d, bool running, bool ap);
void d11_dma_tx_fifo_full(D11Dma *d, bool full);
void d11_dma_mcast_release(D11Dma *d);
void d11_dma_mcast_hold(D11Dma *d);
void d11_dma_kick(D11Dma *d);
void d11_dma_fetch_now(D11Dma *d);
bool d11_dma_tx_posted(D11Dma *d, unsigned engine);

/* RX (engine 0) */
bool d11_dma_rx_enabled(D11Dma *d);
uint32_t d11_dma_rx_offset(D11Dma *d);
bool d11_dma_rx_reserve(D11Dma *d, size_t total, size_t frame_len,
                        D11RxSlot *slot);
bool d11_dma_rx_commit(D11Dma *d, const D11RxSlot *slot,
                       const uint8_t *buf, size_t total);

/* a path that does DMA holds the card (the DMA may unplug it) */
void d11_dma_hold(D11Dma *d);
void d11_dma_release(D11Dma *d);

void d11_dma_init(D11Dma *d);
void d11_dma_exit(D11Dma *d);
void d11_dma_reset(D11Dma *d);

#endif
