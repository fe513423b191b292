/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A simulated 802.11 radio medium ("the air"), device independent.
 *
 * Radios (emulated Wi-Fi cards, the virtual access point) attach to a
 * -object wifi-medium as clients, like CAN controllers to a can-bus
 * (include/net/can_emu.h).  A transmission reaches every other client tuned
 * to the same frequency, asynchronously (deferred work per client, on the
 * virtual clock),
 * with a received signal computed from the transmit power and the distance.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_H
#define NET_WIFI_MEDIUM_H

#include "hw/qdev-core.h"           /* DeviceState: a radio's owner */
#include "net/wifi/airtime.h"
#include "net/wifi/medium-client.h"

/*
 * What a radio tells the medium when it changes (before or after attach):
 * the frequency it listens on (0: radio off), its own address (the one it
 * acknowledges, which links may name it by; NULL or all zero: none), what
 * it wants (WIFI_WANT_*).  Cheap when nothing changed.
 */
void wifi_medium_set_freq(WifiMediumClient *c, uint32_t freq_mhz);
void wifi_medium_set_addr(WifiMediumClient *c, const uint8_t *addr);
void wifi_medium_set_wants(WifiMediumClient *c, unsigned wants);

/*
 * Attach @c (ops, opaque, name, pos filled in) to @m; @owner's reentrancy
 * guard protects the delivery (a WifiDeferred).  @m may be NULL: the radio is
 * alone on its own air.
 */
void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner);
void wifi_medium_detach(WifiMediumClient *c);
/* drop frames not yet delivered (device reset) */
void wifi_medium_flush(WifiMediumClient *c);

/* what became of a frame handed to wifi_medium_transmit() */
typedef enum WifiTxStatus {
    WIFI_TX_DONE,       /* airtime off: sent, the outcome is in *result */
    WIFI_TX_QUEUED,     /* airtime on: ops->tx_done reports it (@notify) */
    WIFI_TX_REFUSED,    /* not sent: the radio's queue is full */
} WifiTxStatus;

/*
 * Transmit @frame (an MPDU without FCS) from @c, the one call of every
 * sender.  The medium fills in meta->airtime_us (from the length, rate and
 * preamble) and, for a frame to a unicast address with @retry_limit > 1,
 * sends it again (retry bit set in @frame; at the fallback rate once
 * meta->fallback_after attempts were made) until a radio acknowledges it
 * or @retry_limit attempts were made.
 *
 * Airtime off (wifi_medium_paced() false): all of it happens before the
 * call returns WIFI_TX_DONE with the outcome in @result (may be NULL).
 * Airtime on: the frame waits for the channel (DIFS + backoff) and each
 * attempt takes its airtime (contention window doubled on a retry); the
 * call returns WIFI_TX_QUEUED and, with @notify, ops->tx_done reports the
 * outcome from a timer, in order; WIFI_TX_REFUSED if the radio's queue
 * holds WIFI_TX_QUEUE_MAX frames (nothing queued, no tx_done).
 * Delivery to receivers happens later, from each receiver's deferred work.
 */
WifiTxStatus wifi_medium_transmit(WifiMediumClient *c, uint8_t *frame,
                                  size_t len, WifiFrameMeta *meta,
                                  unsigned retry_limit, bool notify,
                                  WifiTxResult *result);

/* Does the air take real time (property airtime=on)? */
bool wifi_medium_paced(WifiMediumClient *c);
unsigned wifi_medium_txq_len(WifiMediumClient *c);

#endif
