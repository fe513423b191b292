/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the firmware's data path and the card's client of the
 * Wi-Fi medium (d11-xmit.c): TX header, PLCP rate, retries, TX status
 * words, the PHY's TX FIFO; the receive filter, RX header, PLCP and FCS.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_XMIT_H
#define HW_NET_BCM43XX_D11_XMIT_H

#include "hw/net/bcm43xx/d11-regs.h"
#include "net/wifi/medium.h"
#include "bcm-common.h"

/* a frame handed to the air, awaiting its TX status (airtime on) */
#define D11_TX_FIFO     32
typedef struct D11TxPending {
    uint16_t cookie;
    uint16_t seq;
    uint8_t engine;
    uint8_t ampdu;      /* its place in an A-MPDU (D11_AMPDU_*) */
    bool want_ack;
    bool dead;          /* its engine was reset meanwhile: no status */
} D11TxPending;

/*
 * An A-MPDU being sent (brcmsmac's ampdu.c): its MPDUs go on the air one
 * by one, each acknowledged or not; the firmware reports the aggregate
 * once its last MPDU is done, as a block ack: the first MPDU's frame id,
 * the starting sequence number and the bitmap of what arrived.
 */
typedef struct D11Ampdu {
    bool open;
    uint16_t cookie;    /* the first MPDU's */
    uint16_t start_seq; /* its sequence number (without the fragment) */
    uint8_t attempts;
    uint64_t bitmap;    /* bit i: MPDU start_seq + i acknowledged */
} D11Ampdu;

struct D11Xmit {
    /* links (set at realize) */
    D11State *mac;              /* filter, retry limits, TSF, TX status */
    D11Dma *dma;                /* the RX ring; more TX after an exchange */
    PhyState *phy;              /* the tuned channel */

    /* properties */
    WifiMedium *medium;
    int32_t txpower;

    WifiMediumClient air;
    /*
     * airtime on: the frames the DMA engines fetched and handed to the air
     * (the PHY's TX FIFO), oldest first, until their exchange ends and the
     * firmware writes their TX status.  An engine's CD moves on when it
     * fetches a frame, as the hardware's does, so a slow air never leaves
     * it a whole ring behind TXINDEX.
     */
    D11TxPending tx_fifo[D11_TX_FIFO];
    uint32_t tx_fifo_head, tx_fifo_count;
    D11Ampdu ampdu[D11_DMA_ENGINES];
};

extern const VMStateDescription vmstate_d11_xmit;

/* from the DMA engines */
void d11_xmit_tx(D11Xmit *x, unsigned engine, uint8_t *buf, size_t len);
void d11_xmit_engine_reset(D11Xmit *x, unsigned engine);

/* from the firmware: a beacon from the template */
void d11_xmit_beacon(D11Xmit *x, uint8_t *frame, size_t len, bool ofdm);

/* the radio's state to the air (after anything that may change it) */
void d11_xmit_air_update(D11Xmit *x);

void d11_xmit_init(D11Xmit *x, DeviceState *dev);
void d11_xmit_exit(D11Xmit *x);
void d11_xmit_reset(D11Xmit *x);
void d11_xmit_post_load(D11Xmit *x);

#endif
