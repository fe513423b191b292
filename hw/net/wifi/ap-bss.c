/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The virtual access point's lower layer: its BSS (BSSID, channel,
 * capabilities), the station table (lookup, adding, eviction when full,
 * freeing, the QMP event of a station that joins or leaves) and the frame
 * senders beneath MLME (ap.c) and WPA2 (ap-wpa.c): the 802.11 header,
 * transmit on the medium with the data rate for a station, management
 * frames, deauthentication.  It calls neither of the two above it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "hw/qdev-core.h"
#include "net/wifi/medium.h"
#include "net/wifi/per.h"
#include "qapi/qapi-events-wifi.h"
#include "ap-bss.h"
#include "trace.h"

uint32_t wifi_ap_freq(WifiApState *s)
{
    return ieee80211_chan_to_freq(s->channel);
}

const uint8_t *wifi_ap_bssid(WifiApState *s)
{
    return s->conf.macaddr.a;
}

/* ---- transmit ------------------------------------------------------ */

size_t wifi_hdr(WifiApState *s, uint8_t *f, unsigned type,
                unsigned subtype, uint8_t fc1, const uint8_t *a1,
                const uint8_t *a2, const uint8_t *a3)
{
    f[0] = IEEE80211_FC0(type, subtype);
    f[1] = fc1;
    stw_le_p(f + IEEE80211_DURATION_OFF, 0);
    memcpy(f + IEEE80211_ADDR1_OFF, a1, IEEE80211_ADDR_LEN);
    memcpy(f + IEEE80211_ADDR2_OFF, a2, IEEE80211_ADDR_LEN);
    memcpy(f + IEEE80211_ADDR3_OFF, a3, IEEE80211_ADDR_LEN);
    ieee80211_set_seq(f, s->seq++);
    return IEEE80211_HDR_LEN;
}

bool wifi_ap_tx_tagged(WifiApState *s, uint8_t *f, size_t len,
                       uint16_t rate_500k, uint8_t tag)
{
    WifiFrameMeta m = {
        .freq_mhz = wifi_ap_freq(s),
        .txpower_dbm = s->txpower,
        .rate_500k = rate_500k,
        .ofdm = !ieee80211_rate_is_cck(rate_500k),
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    WifiTxResult r = { 0 };

    switch (wifi_medium_transmit(&s->client, f, len, &m, WIFI_AP_RETRIES,
                                 true, &r)) {
    case WIFI_TX_QUEUED:
        /* the medium queue holds at most WIFI_TX_QUEUE_MAX: so does this */
        s->txtag[(s->txtag_head + s->txtag_count++) % WIFI_TX_QUEUE_MAX] =
            tag;
        return true;
    case WIFI_TX_DONE:
        return r.acked;
    default:
        return false;
    }
}

/*
 * The rate of a data frame of @len bytes to @da: group frames at the
 * lowest basic rate, as every station must hear them; to a station the
 * fastest rate whose frame error rate at the SNR of its last frame is
 * at most WIFI_AP_MAX_PER (the link taken as symmetric), as an ideal
 * SNR-based rate control would choose.
 */
uint16_t wifi_ap_data_rate(WifiApState *s, const uint8_t *da, size_t len)
{
    WifiApSta *sta;
    bool ofdm;

    if (ieee80211_is_group(da)) {
        return WIFI_RATE_MGMT;
    }
    sta = wifi_ap_sta(s, da, false);
    if (!sta || !sta->heard) {
        return WIFI_RATE_DATA;
    }
    return wifi_rate_for_snr(sta->signal_dbm -
                             wifi_medium_noise_floor(&s->client),
                             len + IEEE80211_FCS_LEN, true, WIFI_AP_MAX_PER,
                             &ofdm);
}

bool wifi_ap_tx(WifiApState *s, uint8_t *f, size_t len,
                uint16_t rate_500k)
{
    return wifi_ap_tx_tagged(s, f, len, rate_500k, WIFI_AP_TAG_OTHER);
}

/* capability information: ESS, short slot time, privacy with WPA2 */
uint16_t wifi_ap_capab(WifiApState *s)
{
    return IEEE80211_CAPAB_ESS | IEEE80211_CAPAB_SHORT_SLOT |
           (s->passphrase ? IEEE80211_CAPAB_PRIVACY : 0);
}

void wifi_ap_send_mgmt(WifiApState *s, unsigned subtype, const uint8_t *da,
                       const uint8_t *body, size_t blen)
{
    uint8_t f[256];
    size_t n = wifi_hdr(s, f, IEEE80211_TYPE_MGMT, subtype, 0, da,
                        wifi_ap_bssid(s), wifi_ap_bssid(s));

    assert(blen <= sizeof(f) - n);
    memcpy(f + n, body, blen);
    wifi_ap_tx(s, f, n + blen, WIFI_RATE_MGMT);
}

void wifi_ap_deauth(WifiApState *s, const uint8_t *da, uint16_t reason)
{
    struct ieee80211_deauth body;

    stw_le_p(&body.reason, reason);
    wifi_ap_send_mgmt(s, IEEE80211_STYPE_DEAUTH, da, (const uint8_t *)&body,
                      sizeof(body));
}

/* ---- stations ------------------------------------------------------ */

/*
 * A full table: who gives way to a new station.
 *
 * hostapd refuses the newcomer (ap_sta_add() in src/ap/sta_info.c, with
 * "FIX: might try to remove some old STAs first?"; handle_auth() in
 * src/ap/ieee802_11.c then answers WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA)
 * and relies on ap_handle_timer()'s inactivity poll to free places.  On the
 * air anyone can make up addresses, and any frame, a null data frame as
 * well, answers that poll: 32 made-up stations that associate and say
 * something now and then held the table for good.  So a new authentication
 * is never refused while someone can give way; it takes the place of,
 * in this order (within a class, the one quiet longest):
 *
 *  1. an entry authenticated but not associated (since last heard): it
 *     would expire after AP_MAX_INACTIVITY_AFTER_DISASSOC anyway;
 *  2. WPA2: an associated station that has not answered message 1 of the
 *     4-way handshake with a valid MIC (since it associated): only the
 *     passphrase makes that MIC, and the EAPOL retries drop it after
 *     about 4 s in any case (wpa_auth.c: wpa_pairwise_update_count, then
 *     WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
 *  3. open network: an associated station that has passed no data since it
 *     associated (since it associated): keep-alives, null frames and
 *     acknowledged polls hold no place against a newcomer;
 *  4. open network: the station that passed data least recently.
 *
 * On a WPA2 network a station whose message 2 verified is never taken: a
 * flood without the passphrase cannot push out those who have it, and
 * when all 32 places are theirs the newcomer is refused as hostapd does.
 * On an open network, anyone who can associate can also deauthenticate
 * anyone else with one forged frame: the classes only make a flood of
 * quiet stations go before stations that pass traffic.  A newcomer is
 * itself the most recent of its class: it keeps its place until it passes
 * data (open) or answers message 1 (WPA2), or until 31 later newcomers
 * have come.  The victim is deauthenticated with reason 5 (hostapd's
 * WLAN_REASON_DISASSOC_AP_BUSY, hostapd_notif_assoc() in
 * src/ap/drv_callbacks.c when its table is full).  Bounded: the table
 * stays at WIFI_AP_MAX_STA; deterministic: virtual clock only.
 */
typedef enum {
    WIFI_AP_EVICT_UNASSOC,
    WIFI_AP_EVICT_HANDSHAKE,
    WIFI_AP_EVICT_NO_DATA,
    WIFI_AP_EVICT_DATA,
    WIFI_AP_EVICT_NEVER,
} WifiApEvictClass;

static const char *const wifi_ap_evict_why[] = {
    [WIFI_AP_EVICT_UNASSOC] = "authenticated, not associated",
    [WIFI_AP_EVICT_HANDSHAKE] = "4-way handshake message 1 not answered",
    [WIFI_AP_EVICT_NO_DATA] = "associated, passed no data",
    [WIFI_AP_EVICT_DATA] = "passed data least recently",
};

/* @sta's class, and since when it has been quiet in that class's terms */
static WifiApEvictClass wifi_ap_evict_class(WifiApState *s, WifiApSta *sta,
                                            int64_t *since)
{
    if (sta->state != STA_ASSOC) {
        *since = sta->last_ns;
        return WIFI_AP_EVICT_UNASSOC;
    }
    *since = sta->active_ns;
    if (s->passphrase) {
        uint8_t w = sta->wpa.state;

        return w == WPA_MSG3 || w == WPA_DONE ? WIFI_AP_EVICT_NEVER
                                              : WIFI_AP_EVICT_HANDSHAKE;
    }
    return sta->passed_data ? WIFI_AP_EVICT_DATA : WIFI_AP_EVICT_NO_DATA;
}

/* the table is full: free the place of the station that gives way */
static WifiApSta *wifi_ap_evict(WifiApState *s)
{
    WifiApEvictClass vc = WIFI_AP_EVICT_NEVER;
    WifiApSta *victim = NULL;
    int64_t vsince = 0;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        int64_t since;
        WifiApEvictClass c = wifi_ap_evict_class(s, &s->sta[i], &since);

        if (c < vc || (c == vc && victim && since < vsince)) {
            victim = &s->sta[i];
            vc = c;
            vsince = since;
        }
    }
    if (!victim) {
        return NULL;
    }
    trace_wifi_ap_sta_evict(s->ssid, MAC_ARG(victim->addr),
                            wifi_ap_evict_why[vc],
                            (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - vsince) /
                            SCALE_MS);
    wifi_ap_deauth(s, victim->addr, WLAN_REASON_DISASSOC_AP_BUSY);
    wifi_ap_sta_free(s, victim, "evicted: table full", "evicted");
    return victim;
}

WifiApSta *wifi_ap_sta(WifiApState *s, const uint8_t *addr, bool add)
{
    WifiApSta *free_slot = NULL;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        WifiApSta *t = &s->sta[i];

        if (t->state != STA_NONE && !memcmp(t->addr, addr, 6)) {
            return t;
        }
        if (t->state == STA_NONE && !free_slot) {
            free_slot = t;
        }
    }
    if (!add) {
        return NULL;
    }
    if (!free_slot) {
        free_slot = wifi_ap_evict(s);
    }
    if (!free_slot) {
        return NULL;
    }
    memset(free_slot, 0, sizeof(*free_slot));
    memcpy(free_slot->addr, addr, 6);
    free_slot->aid = free_slot - s->sta + 1;
    free_slot->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    return free_slot;
}

/* QMP event WIFI_AP_STATION: @sta associated, or left (@why) */
void wifi_ap_sta_event(WifiApState *s, WifiApSta *sta, bool joined,
                       const char *why)
{
    DeviceState *dev = DEVICE(s);
    g_autofree char *mac = g_strdup_printf(
        "%02x:%02x:%02x:%02x:%02x:%02x", sta->addr[0], sta->addr[1],
        sta->addr[2], sta->addr[3], sta->addr[4], sta->addr[5]);

    qapi_event_send_wifi_ap_station(dev->id ? dev->id : s->ssid, mac, joined,
                                    why);
}

/* @sta is no longer associated (if it was): tell QMP why */
void wifi_ap_sta_left(WifiApState *s, WifiApSta *sta, const char *why)
{
    if (sta->state == STA_ASSOC) {
        wifi_ap_sta_event(s, sta, false, why);
    }
}

/* @sta passed data: what keeps its place in a full table */
void wifi_ap_sta_passed_data(WifiApSta *sta)
{
    sta->active_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    sta->passed_data = true;
}

void wifi_ap_sta_free(WifiApState *s, WifiApSta *sta, const char *why,
                      const char *event)
{
    wifi_ap_sta_left(s, sta, event);

    trace_wifi_ap_sta_expire(s->ssid, MAC_ARG(sta->addr), why);
    memset(&sta->wpa, 0, sizeof(sta->wpa));
    sta->state = STA_NONE;
    sta->polled = false;
}
