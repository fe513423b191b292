/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The channels of the medium (medium-channel.c): what is on the air, and
 * one transmission delivered to the local radios that hear it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_CHANNEL_H
#define NET_WIFI_MEDIUM_CHANNEL_H

#include "medium-state.h"

/* a frame on the air as the local radios hear it (wifi_medium_local) */
typedef struct WifiLocalTx {
    WifiMediumClient *from;     /* its sender; NULL: another process */
    const WifiSite *site;       /* where it comes from */
    const uint8_t *frame;
    size_t len;
    const WifiFrameMeta *meta;
    const WifiEmission *e;      /* airtime on: its transmission */
} WifiLocalTx;

/* what is on the air (airtime on) */
const WifiEmission *wifi_emit(WifiMedium *m, int64_t start, int64_t end,
                              uint32_t freq, int8_t txpower, uint32_t radio,
                              const WifiSite *site);
bool wifi_half_duplex(WifiMedium *m, WifiMediumClient *rx,
                      const WifiEmission *e);
double wifi_interference_mw(WifiMedium *m, WifiMediumClient *rx,
                            const WifiEmission *e);
int64_t wifi_busy_until(WifiMedium *m, WifiMediumClient *c, int64_t now,
                        bool ofdm);
uint32_t wifi_idle_slots(WifiMedium *m, WifiMediumClient *c, int64_t after,
                         int64_t now, bool ofdm);
void wifi_nav_update(WifiMediumClient *rx, const uint8_t *frame, size_t len,
                     int64_t end_ns);

/* delivery */
bool wifi_wants_ack(const uint8_t *frame);
WifiMediumClient *wifi_medium_local(WifiMedium *m, const WifiLocalTx *tx,
                                    WifiMediumClient **addressee);
void wifi_medium_ack(WifiMedium *m, WifiMediumClient *acker,
                     const uint8_t *frame, size_t len, const WifiFrameMeta *dm,
                     int64_t now, uint16_t ack_seq);
void wifi_medium_reack(WifiMedium *m, const uint8_t *frame, size_t len,
                       const WifiFrameMeta *meta, uint16_t air_seq);
/*
 * @meta for attempt number @attempt (1 = the first) of a frame of @len
 * bytes: the fallback rate and its airtime from attempt fallback_after + 1
 */
void wifi_meta_for_attempt(WifiFrameMeta *meta, unsigned attempt, size_t len);

#endif
