/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pcap view of the air (pcap.c): a leaf of the medium.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_PCAP_H
#define NET_WIFI_PCAP_H

#include "medium-state.h"

void wifi_pcap_open(WifiMedium *m, Error **errp);
void wifi_pcap_close(WifiMedium *m);
void wifi_pcap_record(WifiMedium *m, int64_t ns, const uint8_t *frame,
                      size_t len, const WifiFrameMeta *meta, int8_t signal);

/* a frame on the air: to the pcap file, if there is one */
static inline void wifi_pcap_write(WifiMedium *m, int64_t ns,
                                   const uint8_t *frame, size_t len,
                                   const WifiFrameMeta *meta, int8_t signal)
{
    if (m->pcap_file) {
        wifi_pcap_record(m, ns, frame, len, meta, signal);
    }
}

#endif
