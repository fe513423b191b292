/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the firmware's data path (d11-xmit.c), under the hub
 * (d11-core.c), which pulls the frames from the DMA engines and is the
 * card's client of the Wi-Fi medium.  TX: the TX header read into what
 * the air needs (PLCP rate, fallback, protection, retries, encryption),
 * the TX status words, the PHY's TX FIFO; RX: the receive filter, the RX
 * header, PLCP and FCS around the frame.  Its functions take the MAC
 * (d11-mac.h: SHM, TX status FIFO) they work on; it calls no block above.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_XMIT_H
#define HW_NET_BCM43XX_D11_XMIT_H

#include "hw/net/bcm43xx/d11-regs.h"
#include "net/wifi/medium.h"
#include "d11-mac.h"
#include "phy.h"

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

typedef struct D11Xmit {
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
} D11Xmit;

/* a frame an engine fetched, as the firmware read its TX header */
typedef struct D11TxFrame {
    unsigned engine;
    unsigned ampdu;             /* its place in an A-MPDU (D11_AMPDU_*) */
    uint16_t cookie;
    uint16_t seq;               /* its sequence control field */
    bool want_ack;
    uint8_t *mpdu;              /* the frame, in the engine's buffer */
    size_t len;
    unsigned limit;             /* transmissions at most */
    WifiFrameMeta meta;         /* the hub adds frequency and power */
} D11TxFrame;

extern const VMStateDescription vmstate_d11_xmit;

/* TX */
bool d11_xmit_tx_prepare(D11Xmit *x, D11State *m, unsigned engine,
                         uint8_t *buf, size_t len, D11TxFrame *t);
void d11_xmit_tx_unsent(D11Xmit *x, D11State *m, const D11TxFrame *t);
void d11_xmit_tx_sent(D11Xmit *x, D11State *m, const D11TxFrame *t,
                      WifiTxStatus st, const WifiTxResult *r);
bool d11_xmit_tx_fifo_full(D11Xmit *x);
bool d11_xmit_tx_done(D11Xmit *x, D11State *m, const WifiTxResult *r);
void d11_xmit_engine_reset(D11Xmit *x, unsigned engine);

/* RX: the filter, then the buffer the RX engine writes */
bool d11_xmit_rx_accept(uint32_t macctl, const uint8_t *own,
                        const uint8_t *f, size_t len,
                        const WifiFrameMeta *meta);
void d11_xmit_rx_build(D11State *m, const BcmPhyRx *phy, uint8_t *buf,
                       uint32_t fo, const uint8_t *f, size_t len,
                       const WifiFrameMeta *meta);

void d11_xmit_reset(D11Xmit *x);
void d11_xmit_post_load(D11Xmit *x, D11State *m);

#endif
