/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The virtual access point's state and its lower layer, ap-bss.c: the
 * station table and the frame senders.  The layers, each calling only
 * those below it:
 *
 *   ap.c       beacons, MLME, station aging, the device (QOM, reset,
 *              migration), the bridge from the netdev
 *   ap-wpa.c   data frames, WPA2-PSK (ap-wpa.h)
 *   ap-bss.c   the BSS, the station table, the frame senders (this file)
 *
 * Private to hw/net/wifi/.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_WIFI_AP_BSS_H
#define HW_NET_WIFI_AP_BSS_H

#include "qemu/timer.h"
#include "net/net.h"
#include "net/wifi/medium.h"

#define TYPE_WIFI_AP "wifi-ap"
OBJECT_DECLARE_SIMPLE_TYPE(WifiApState, WIFI_AP)

#define WIFI_AP_MAX_STA     32
/*
 * Station aging, as hostapd does it (src/ap/sta_info.h): an associated
 * station silent for ap_max_inactivity (property max-inactivity, hostapd's
 * default AP_MAX_INACTIVITY 300 s) is polled with a null data frame and
 * deauthenticated if it does not acknowledge it; an entry that is
 * authenticated but not associated is kept AP_MAX_INACTIVITY_AFTER_DISASSOC
 * (30 s).  When the table is full, a new authentication takes the slot of
 * a station chosen by wifi_ap_evict() (ap-bss.c) instead of being refused.
 */
#define WIFI_AP_AUTH_TTL_NS (30 * NANOSECONDS_PER_SECOND)
#define WIFI_AP_RETRIES     4
/* airtime on: frames queued for the air before the network waits */
#define WIFI_AP_TXQ_HIGH    48
#define WIFI_RATE_MGMT      IEEE80211_RATE_1M    /* CCK */
#define WIFI_RATE_DATA      IEEE80211_RATE_54M   /* OFDM, SNR unknown */
/* the frame error rate the AP's rate choice for a station accepts */
#define WIFI_AP_MAX_PER     0.1

#define WLAN_STATUS_SUCCESS             0
#define WLAN_STATUS_UNSPEC              1
#define WLAN_STATUS_NOT_SUPPORTED_ALG   13
#define WLAN_STATUS_AP_FULL             17
#define WLAN_REASON_PREV_AUTH_NOT_VALID 2
#define WLAN_REASON_INACTIVITY          4
#define WLAN_REASON_DISASSOC_AP_BUSY    5
#define WLAN_REASON_CLASS2_NONAUTH      6
#define WLAN_REASON_CLASS3_NONASSOC     7
#define WLAN_REASON_4WAY_TIMEOUT        15
#define WLAN_STATUS_INVALID_IE          40

#define ETH_P_PAE           0x888e
/* EAPOL-Key Key Information (IEEE 802.11-2020 12.7.2) */
#define KI_VER_AES_SHA1     2
#define KI_PAIRWISE         0x0008
#define KI_INSTALL          0x0040
#define KI_ACK              0x0080
#define KI_MIC              0x0100
#define KI_SECURE           0x0200
#define KI_ENC_DATA         0x1000
/* EAPOL header (4) + descriptor up to the key data length (95) */
#define EAPOL_KEY_LEN       (sizeof(struct ieee8021x_hdr) + \
                             sizeof(struct ieee80211_eapol_key))
/* the MIC's offset from the EAPOL header */
#define EAPOL_MIC_OFF       (sizeof(struct ieee8021x_hdr) + \
                             offsetof(struct ieee80211_eapol_key, key_mic))
#define WPA_GTK_IDX         1
/* the PTK of CCMP (12.7.1.3): KCK (the MIC's key), KEK (key wrap), TK */
#define WPA_PTK_LEN         48
#define WPA_PTK_KEK_OFF     16
#define WPA_PTK_TK_OFF      32
#define WPA_NONCE_LEN       32
#define WPA_RETRIES         4

enum { WPA_IDLE, WPA_MSG1, WPA_MSG3, WPA_DONE };

/* a station's 4-way handshake and pairwise key */
typedef struct WifiApWpa {
    uint8_t state;
    uint8_t tries;
    uint64_t replay;
    uint8_t anonce[WPA_NONCE_LEN];
    uint8_t ptk[WPA_PTK_LEN];   /* KCK | KEK | TK */
    uint64_t tx_pn;
    uint64_t rx_pn;
    int64_t deadline;           /* retransmit the last message then */
} WifiApWpa;

enum { STA_NONE, STA_AUTH, STA_ASSOC };

typedef struct WifiApSta {
    uint8_t addr[6];
    uint8_t state;
    uint16_t aid;
    int64_t last_ns;            /* last heard (or state change) */
    int64_t active_ns;          /* associated, or last passed data */
    bool passed_data;           /* data since it associated */
    bool polled;                /* inactivity poll sent, not answered */
    bool heard;                 /* signal_dbm is known (not migrated) */
    int8_t signal_dbm;          /* of the station's last frame */
    /*
     * duplicate detection (802.11 10.3.2.14, mac80211's
     * ieee80211_rx_h_check_dup): the last sequence control per TID, [16]
     * for non-QoS data; bit n of sc_valid: last_sc[n] holds one (not
     * migrated: a retry right after a migration is delivered once more)
     */
    uint16_t last_sc[17];
    uint32_t sc_valid;
    WifiApWpa wpa;              /* WPA2: the 4-way handshake, its keys */
} WifiApSta;

/* airtime on: what each frame in the medium's TX queue is (tx_done) */
#define WIFI_AP_TAG_OTHER   0xff

struct WifiApState {
    DeviceState parent_obj;

    WifiMedium *medium;
    NICConf conf;
    NICState *nic;
    char *ssid;
    uint32_t channel;
    uint32_t beacon_int;
    int32_t txpower;

    WifiMediumClient client;
    QEMUTimer *beacon_timer;
    int64_t tsf_base_ns;
    uint16_t seq;
    WifiApSta sta[WIFI_AP_MAX_STA];
    uint32_t max_inactivity;    /* seconds */
    uint8_t txtag[WIFI_TX_QUEUE_MAX];   /* station index of a poll */
    unsigned txtag_head, txtag_count;

    /* WPA2-PSK (passphrase set) */
    char *passphrase;
    uint8_t pmk[32];
    uint8_t gtk[16];
    uint64_t gtk_pn;
    QEMUTimer *eapol_timer;
};

/* the BSS */
uint32_t wifi_ap_freq(WifiApState *s);
const uint8_t *wifi_ap_bssid(WifiApState *s);
uint16_t wifi_ap_capab(WifiApState *s);

/* frame senders */
size_t wifi_hdr(WifiApState *s, uint8_t *f, unsigned type, unsigned subtype,
                uint8_t fc1, const uint8_t *a1, const uint8_t *a2,
                const uint8_t *a3);
bool wifi_ap_tx_tagged(WifiApState *s, uint8_t *f, size_t len,
                       uint16_t rate_500k, uint8_t tag);
bool wifi_ap_tx(WifiApState *s, uint8_t *f, size_t len, uint16_t rate_500k);
uint16_t wifi_ap_data_rate(WifiApState *s, const uint8_t *da, size_t len);
void wifi_ap_send_mgmt(WifiApState *s, unsigned subtype, const uint8_t *da,
                       const uint8_t *body, size_t blen);
void wifi_ap_deauth(WifiApState *s, const uint8_t *da, uint16_t reason);

/* the station table */
WifiApSta *wifi_ap_sta(WifiApState *s, const uint8_t *addr, bool add);
void wifi_ap_sta_event(WifiApState *s, WifiApSta *sta, bool joined,
                       const char *why);
void wifi_ap_sta_left(WifiApState *s, WifiApSta *sta, const char *why);
void wifi_ap_sta_passed_data(WifiApSta *sta);
void wifi_ap_sta_free(WifiApState *s, WifiApSta *sta, const char *why,
                      const char *event);

#endif
