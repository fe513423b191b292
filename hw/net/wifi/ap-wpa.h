/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The virtual access point's data frames and WPA2-PSK (ap-wpa.c), above
 * the station table and frame senders of ap-bss.h and beneath MLME (ap.c).
 * Private to hw/net/wifi/.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_WIFI_AP_WPA_H
#define HW_NET_WIFI_AP_WPA_H

#include "ap-bss.h"

/* our RSN element, in beacons, probe responses and message 3 */
#define WIFI_RSN_IE_LEN     22
extern const uint8_t wifi_rsn_ie[WIFI_RSN_IE_LEN];

bool wifi_ap_send_data(WifiApState *s, const uint8_t *da, const uint8_t *sa,
                       const uint8_t *body, size_t blen, bool plain);
void wifi_ap_wpa_start(WifiApState *s, WifiApSta *sta);
void wifi_ap_eapol_timer(void *opaque);
/* a data frame, from @sta if one of ours sent it (NULL: none) */
void wifi_ap_rx_data(WifiApState *s, WifiApSta *sta, unsigned subtype,
                     const uint8_t *f, size_t len);

#endif
