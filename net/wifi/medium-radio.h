/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The medium's link model (medium-radio.c): where radios are, what a
 * receiver makes of a transmission (signal, SNR, links set by QMP or a
 * scenario, interferers), the radios' QOM properties and QMP commands.
 * A leaf of the medium: it calls no other part of it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_RADIO_H
#define NET_WIFI_MEDIUM_RADIO_H

#include "medium-state.h"

/* what a receiver makes of one transmission (wifi_path) */
typedef struct WifiPath {
    bool heard;                 /* above the detection threshold, link on */
    double signal_dbm;
    double snr_db;
    double loss;                /* the link's own loss probability */
} WifiPath;

WifiMediumClient *wifi_radio_by_id(WifiMedium *m, uint32_t id);
void wifi_client_site(WifiMediumClient *c, WifiSite *site);
double wifi_coupling_db(uint32_t tx_mhz, uint32_t rx_mhz);
void wifi_path(WifiMedium *m, WifiMediumClient *txc, const WifiSite *tx,
               int8_t txpower_dbm, WifiMediumClient *rx, WifiPath *p);
bool wifi_path_survives(WifiMedium *m, const WifiPath *p, uint16_t rate_500k,
                        bool ofdm, bool short_preamble, size_t bytes);
bool wifi_ack_heard(WifiMedium *m, WifiMediumClient *acker,
                    WifiMediumClient *to, const WifiFrameMeta *dm);
void wifi_links_init(WifiMedium *m);
void wifi_links_free(WifiMedium *m);
bool wifi_link_apply(WifiMedium *m, const char *a, const char *b,
                     const WifiLinkSettings *set, Error **errp);
WifiMediumClient *wifi_radio_named(const char *radio);
bool wifi_radio_move(WifiMediumClient *c, const double *pos, Error **errp);
void wifi_medium_class_add_radio_props(ObjectClass *klass);

#endif
