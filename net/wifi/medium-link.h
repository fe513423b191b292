/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The medium's link to other QEMU processes (medium-link.c): the netdev
 * and the air protocol, stations heard over there, resending unicast
 * frames whose ACK did not come back, resends not delivered twice.  It
 * decodes what comes in (wifi_link_take) and leaves the frame to the
 * medium's core; it calls no part of the medium above it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_LINK_H
#define NET_WIFI_MEDIUM_LINK_H

#include "medium-state.h"

/* what came in on the netdev (wifi_link_take) */
typedef enum WifiLinkRx {
    WIFI_LINK_NOTHING,          /* nothing (more) to do with it */
    WIFI_LINK_EMPTY,            /* an empty packet: rejected */
    WIFI_LINK_RESEND,           /* a resend of a frame delivered here */
    WIFI_LINK_FRAME,            /* a frame for the air: *af, *meta, *site */
} WifiLinkRx;
WifiLinkRx wifi_link_take(WifiMedium *m, const uint8_t *buf, size_t size,
                          WifiAirFrame *af, WifiFrameMeta *meta,
                          WifiSite *site);

bool wifi_remote_acks(WifiMedium *m, const uint8_t *addr, uint32_t freq);
uint16_t wifi_link_put(WifiMedium *m, const WifiSite *site,
                       const uint8_t *frame, size_t len,
                       const WifiFrameMeta *meta, uint16_t ack_seq);
void wifi_arq_add(WifiMedium *m, uint16_t seq, const WifiSite *site,
                  const uint8_t *frame, size_t len, const WifiFrameMeta *meta);
void wifi_arq_timer(void *opaque);
void wifi_link_open(WifiMedium *m, NetClientInfo *info, Error **errp);
void wifi_link_close(WifiMedium *m);
void wifi_rx_delivered(WifiMedium *m, uint64_t sender, const uint8_t *frame,
                       size_t len);

/*
 * ... and to the other processes, if the medium has a netdev: returns the
 * frame's sequence number on the netdev (@ack_seq for an ACK), 0 if none
 */
static inline uint16_t wifi_link_send(WifiMedium *m, const WifiSite *site,
                                      const uint8_t *frame, size_t len,
                                      const WifiFrameMeta *meta,
                                      uint16_t ack_seq)
{
    return m->nic ? wifi_link_put(m, site, frame, len, meta, ack_seq) : 0;
}

#endif
