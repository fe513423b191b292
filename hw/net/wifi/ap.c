/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A virtual 802.11 access point on a simulated medium, bridged to a QEMU
 * network backend:
 *
 *   -object wifi-medium,id=air0 -netdev user,id=n0
 *   -device wifi-ap,medium=air0,ssid=QEMU,netdev=n0
 *
 * Beacons, probe responses, open-system authentication, association,
 * 802.11 <-> Ethernet (RFC 1042 LLC/SNAP) bridging.  With -netdev user,
 * DHCP, DNS, NAT and hostfwd come from libslirp.  Frames from the air are
 * untrusted: every field is checked before use.  Frame formats: IEEE
 * 802.11-2020 clause 9.
 *
 * With passphrase=, the network is WPA2-PSK (RSN, CCMP only): the PMK is
 * PBKDF2(passphrase, SSID); after association the AP runs the 4-way
 * handshake (IEEE 802.11-2020 12.7.6, EAPOL-Key descriptor version 2:
 * HMAC-SHA1-128 MIC, AES key wrap), hands out its group key in message 3,
 * and from then on data frames are CCMP-protected both ways, with a PN
 * replay check on receive.  Only EAPOL passes the port before that.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "system/reset.h"
#include "hw/net/wifi/medium.h"
#include "hw/net/wifi/crypto.h"
#include "qemu/guest-random.h"
#include "trace.h"

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
 * the least recently heard unassociated entry (hostapd's ap_sta_add() only
 * refuses: "FIX: might try to remove some old STAs first?"), so a flood of
 * authentications from made-up addresses never locks a station out.
 */
#define WIFI_AP_AUTH_TTL_NS (30 * NANOSECONDS_PER_SECOND)
#define WIFI_AP_RETRIES     4
/* airtime on: frames queued for the air before the network waits */
#define WIFI_AP_TXQ_HIGH    48
#define WIFI_RATE_MGMT      IEEE80211_RATE_1M    /* CCK */
#define WIFI_RATE_DATA      IEEE80211_RATE_54M   /* OFDM */

#define WLAN_STATUS_SUCCESS             0
#define WLAN_STATUS_UNSPEC              1
#define WLAN_STATUS_NOT_SUPPORTED_ALG   13
#define WLAN_STATUS_AP_FULL             17
#define WLAN_REASON_PREV_AUTH_NOT_VALID 2
#define WLAN_REASON_INACTIVITY          4
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
#define EAPOL_KEY_LEN       99
#define EAPOL_MIC_OFF       81
#define WPA_GTK_IDX         1
#define WPA_RETRIES         4

enum { WPA_IDLE, WPA_MSG1, WPA_MSG3, WPA_DONE };

/* a station's 4-way handshake and pairwise key */
typedef struct WifiApWpa {
    uint8_t state;
    uint8_t tries;
    uint64_t replay;
    uint8_t anonce[32];
    uint8_t ptk[48];            /* KCK | KEK | TK */
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
    bool polled;                /* inactivity poll sent, not answered */
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
    int32_t pos[3];

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
    WifiApWpa wpa[WIFI_AP_MAX_STA];
};

/* RSN element: CCMP group and pairwise, PSK (IEEE 802.11-2020 9.4.2.24) */
static const uint8_t wifi_rsn_ie[] = {
    IEEE80211_EID_RSN, 20, 1, 0,
    0x00, 0x0f, 0xac, 4,                /* group: CCMP */
    1, 0, 0x00, 0x0f, 0xac, 4,          /* pairwise: CCMP */
    1, 0, 0x00, 0x0f, 0xac, 2,          /* AKM: PSK */
    0, 0,                               /* capabilities */
};

static const uint8_t wifi_rates[] = {
    0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24,     /* 1..18 Mb/s */
};
static const uint8_t wifi_ext_rates[] = { 0x30, 0x48, 0x60, 0x6c };
static const uint8_t rfc1042[6] = { 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00 };

static uint32_t wifi_ap_freq(WifiApState *s)
{
    return ieee80211_chan_to_freq(s->channel);
}

static const uint8_t *wifi_ap_bssid(WifiApState *s)
{
    return s->conf.macaddr.a;
}

static uint64_t wifi_ap_tsf(WifiApState *s)
{
    return (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->tsf_base_ns) /
           SCALE_US;
}

/* ---- transmit ------------------------------------------------------ */

static size_t wifi_hdr(WifiApState *s, uint8_t *f, unsigned type,
                       unsigned subtype, uint8_t fc1, const uint8_t *a1,
                       const uint8_t *a2, const uint8_t *a3)
{
    f[0] = IEEE80211_FC0(type, subtype);
    f[1] = fc1;
    stw_le_p(f + 2, 0);
    memcpy(f + IEEE80211_ADDR1_OFF, a1, IEEE80211_ADDR_LEN);
    memcpy(f + IEEE80211_ADDR2_OFF, a2, IEEE80211_ADDR_LEN);
    memcpy(f + IEEE80211_ADDR3_OFF, a3, IEEE80211_ADDR_LEN);
    ieee80211_set_seq(f, s->seq++);
    return IEEE80211_HDR_LEN;
}

static bool wifi_ap_tx_tagged(WifiApState *s, uint8_t *f, size_t len,
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

static bool wifi_ap_tx(WifiApState *s, uint8_t *f, size_t len,
                       uint16_t rate_500k)
{
    return wifi_ap_tx_tagged(s, f, len, rate_500k, WIFI_AP_TAG_OTHER);
}

/* capability information: ESS, short slot time, privacy with WPA2 */
static uint16_t wifi_ap_capab(WifiApState *s)
{
    return 0x0401 | (s->passphrase ? 0x0010 : 0);
}

/* body of beacons and probe responses (IEEE 802.11-2020 9.3.3.2) */
static size_t wifi_ap_bss_body(WifiApState *s, uint8_t *p, bool beacon)
{
    size_t n;
    uint8_t ch = s->channel;
    static const uint8_t tim[4] = { 0, 1, 0, 0 };   /* DTIM every beacon */
    uint8_t erp = 0;                                /* no protection */

    stq_le_p(p, wifi_ap_tsf(s));
    stw_le_p(p + 8, s->beacon_int);
    stw_le_p(p + 10, wifi_ap_capab(s));
    n = 12;
    n += ieee80211_put_ie(p + n, IEEE80211_EID_SSID, s->ssid, strlen(s->ssid));
    n += ieee80211_put_ie(p + n, IEEE80211_EID_RATES, wifi_rates,
                          sizeof(wifi_rates));
    n += ieee80211_put_ie(p + n, IEEE80211_EID_DS_PARAMS, &ch, 1);
    if (beacon) {
        n += ieee80211_put_ie(p + n, IEEE80211_EID_TIM, tim, sizeof(tim));
    }
    n += ieee80211_put_ie(p + n, IEEE80211_EID_ERP, &erp, 1);
    if (s->passphrase) {
        memcpy(p + n, wifi_rsn_ie, sizeof(wifi_rsn_ie));
        n += sizeof(wifi_rsn_ie);
    }
    n += ieee80211_put_ie(p + n, IEEE80211_EID_EXT_RATES, wifi_ext_rates,
                          sizeof(wifi_ext_rates));
    return n;
}

static void wifi_ap_age(WifiApState *s);

static void wifi_ap_beacon(void *opaque)
{
    WifiApState *s = opaque;
    uint8_t f[256];
    size_t n;
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    n = wifi_hdr(s, f, IEEE80211_TYPE_MGMT, IEEE80211_STYPE_BEACON, 0, bcast,
                 wifi_ap_bssid(s), wifi_ap_bssid(s));
    n += wifi_ap_bss_body(s, f + n, true);
    trace_wifi_ap_beacon(s->ssid, wifi_ap_tsf(s));
    wifi_ap_tx(s, f, n, WIFI_RATE_MGMT);
    wifi_ap_age(s);
    timer_mod(s->beacon_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (int64_t)s->beacon_int * 1024 * SCALE_US);
}

static void wifi_ap_send_mgmt(WifiApState *s, unsigned subtype,
                              const uint8_t *da, const uint8_t *body,
                              size_t blen)
{
    uint8_t f[256];
    size_t n = wifi_hdr(s, f, IEEE80211_TYPE_MGMT, subtype, 0, da,
                        wifi_ap_bssid(s), wifi_ap_bssid(s));

    assert(blen <= sizeof(f) - n);
    memcpy(f + n, body, blen);
    wifi_ap_tx(s, f, n + blen, WIFI_RATE_MGMT);
}

/* an (re)association response refusing @da with @status */
static void wifi_ap_assoc_refuse(WifiApState *s, unsigned subtype,
                                 const uint8_t *da, uint16_t status)
{
    uint8_t resp[6];

    stw_le_p(resp, wifi_ap_capab(s));
    stw_le_p(resp + 2, status);
    stw_le_p(resp + 4, 0);
    trace_wifi_ap_assoc(s->ssid, MAC_ARG(da), 0, status);
    wifi_ap_send_mgmt(s, subtype, da, resp, sizeof(resp));
}

static void wifi_ap_deauth(WifiApState *s, const uint8_t *da, uint16_t reason)
{
    uint8_t body[2];

    stw_le_p(body, reason);
    wifi_ap_send_mgmt(s, IEEE80211_STYPE_DEAUTH, da, body, sizeof(body));
}

/* ---- stations ------------------------------------------------------ */

static WifiApWpa *wifi_ap_wpa(WifiApState *s, WifiApSta *sta)
{
    return &s->wpa[sta - s->sta];
}

static WifiApSta *wifi_ap_sta(WifiApState *s, const uint8_t *addr, bool add)
{
    WifiApSta *free_slot = NULL, *oldest = NULL;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        WifiApSta *t = &s->sta[i];

        if (t->state != STA_NONE && !memcmp(t->addr, addr, 6)) {
            return t;
        }
        if (t->state == STA_NONE && !free_slot) {
            free_slot = t;
        }
        if (t->state == STA_AUTH && (!oldest || t->last_ns < oldest->last_ns)) {
            oldest = t;
        }
    }
    if (!add) {
        return NULL;
    }
    if (!free_slot && oldest) {
        /* full: the least recently heard unassociated entry gives way */

        trace_wifi_ap_sta_expire(s->ssid, MAC_ARG(oldest->addr),
                                 "evicted");
        memset(wifi_ap_wpa(s, oldest), 0, sizeof(WifiApWpa));
        free_slot = oldest;
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

static void wifi_ap_sta_free(WifiApState *s, WifiApSta *sta,
                             const char *why)
{

    trace_wifi_ap_sta_expire(s->ssid, MAC_ARG(sta->addr), why);
    memset(wifi_ap_wpa(s, sta), 0, sizeof(WifiApWpa));
    sta->state = STA_NONE;
    sta->polled = false;
}

/*
 * The outcome of an inactivity poll: an acknowledged poll means the
 * station is still there; otherwise it is deauthenticated (hostapd's
 * ap_handle_timer(): disassociation, then deauthentication).
 */
static void wifi_ap_poll_result(WifiApState *s, unsigned i, bool acked)
{
    WifiApSta *sta;

    if (i >= WIFI_AP_MAX_STA) {
        return;                 /* not a poll */
    }
    sta = &s->sta[i];
    if (sta->state != STA_ASSOC || !sta->polled) {
        return;                 /* left, or heard from meanwhile */
    }
    if (acked) {
        sta->polled = false;
        sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        return;
    }
    wifi_ap_deauth(s, sta->addr, WLAN_REASON_INACTIVITY);
    wifi_ap_sta_free(s, sta, "inactive, poll not acknowledged");
}

/* a null data frame to @sta: does it acknowledge? */
static void wifi_ap_poll(WifiApState *s, unsigned i)
{
    WifiApSta *sta = &s->sta[i];
    uint8_t f[IEEE80211_HDR_LEN];
    bool acked;

    sta->polled = true;
    trace_wifi_ap_sta_expire(s->ssid, MAC_ARG(sta->addr), "polled");
    wifi_hdr(s, f, IEEE80211_TYPE_DATA, IEEE80211_STYPE_NULLFUNC,
             IEEE80211_FC1_FROMDS, sta->addr,
             wifi_ap_bssid(s), wifi_ap_bssid(s));
    acked = wifi_ap_tx_tagged(s, f, sizeof(f), WIFI_RATE_MGMT, i);
    if (!wifi_medium_paced(&s->client)) {
        wifi_ap_poll_result(s, i, acked);
    } else if (!acked) {
        wifi_ap_poll_result(s, i, false);       /* queue full: gone */
    }
}

/* run with the beacons: entries that outlived their time go */
static void wifi_ap_age(WifiApState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t idle_max = (int64_t)s->max_inactivity * NANOSECONDS_PER_SECOND;

    for (unsigned i = 0; i < WIFI_AP_MAX_STA; i++) {
        WifiApSta *sta = &s->sta[i];

        if (sta->state == STA_AUTH &&
            now - sta->last_ns >= WIFI_AP_AUTH_TTL_NS) {
            wifi_ap_deauth(s, sta->addr, WLAN_REASON_PREV_AUTH_NOT_VALID);
            wifi_ap_sta_free(s, sta, "authenticated, never associated");
        } else if (sta->state == STA_ASSOC && !sta->polled &&
                   now - sta->last_ns >= idle_max) {
            wifi_ap_poll(s, i);
        }
    }
}

/* ---- WPA2-PSK: protected data and the 4-way handshake ---------------- */

/*
 * A data frame from the AP (FromDS) to @da, @body = LLC/SNAP + payload.
 * On a WPA2 network it is CCMP-protected, with the station's pairwise key
 * or, for group addresses, the group key; @plain sends it unprotected
 * (EAPOL before the keys are in place).  Stations whose handshake is not
 * done get nothing but EAPOL.
 */
static bool wifi_ap_send_data(WifiApState *s, const uint8_t *da,
                              const uint8_t *sa, const uint8_t *body,
                              size_t blen, bool plain)
{
    uint8_t f[WIFI_MAX_FRAME];
    const uint8_t *key = NULL;
    unsigned keyid = 0;
    uint64_t pn = 0;
    size_t n;

    if (blen > WIFI_MAX_FRAME - IEEE80211_HDR_LEN - WIFI_CCMP_HDR_LEN -
               WIFI_CCMP_MIC_LEN) {
        return false;
    }
    if (s->passphrase && !plain) {
        if (ieee80211_is_group(da)) {
            key = s->gtk;
            pn = ++s->gtk_pn;
            keyid = WPA_GTK_IDX;
        } else {
            WifiApSta *sta = wifi_ap_sta(s, da, false);
            WifiApWpa *w = sta ? wifi_ap_wpa(s, sta) : NULL;

            if (!w || w->state != WPA_DONE) {
                return false;           /* port not authorized */
            }
            key = w->ptk + 32;
            pn = ++w->tx_pn;
        }
    }
    n = wifi_hdr(s, f, IEEE80211_TYPE_DATA, 0,
                 IEEE80211_FC1_FROMDS | (key ? IEEE80211_FC1_PROTECTED : 0), da,
                 wifi_ap_bssid(s), sa);
    if (key) {
        f[n] = pn;
        f[n + 1] = pn >> 8;
        f[n + 2] = 0;
        f[n + 3] = 0x20 | keyid << 6;   /* ExtIV, key ID */
        stl_le_p(f + n + 4, pn >> 16);
        n += WIFI_CCMP_HDR_LEN;
    }
    memcpy(f + n, body, blen);
    n += blen;
    if (key) {
        n = wifi_encrypt(WIFI_CIPHER_CCMP, key, f, n, sizeof(f));
    }
    return wifi_ap_tx(s, f, n, WIFI_RATE_DATA);
}

/* EAPOL-Key message 1 or 3 of the 4-way handshake to @sta */
static void wifi_ap_eapol_send(WifiApState *s, WifiApSta *sta)
{
    WifiApWpa *w = wifi_ap_wpa(s, sta);
    uint8_t b[8 + EAPOL_KEY_LEN + 64] = { 0 };
    uint8_t *e = b + 8, *k = e + 4;
    uint16_t info = KI_VER_AES_SHA1 | KI_PAIRWISE | KI_ACK;
    size_t kdl = 0;

    memcpy(b, rfc1042, 6);
    stw_be_p(b + 6, ETH_P_PAE);
    w->replay++;
    if (w->state == WPA_MSG3) {
        /* key data: our RSN element, the GTK KDE, padding; wrapped */
        uint8_t kd[48];
        size_t n = sizeof(wifi_rsn_ie);

        memcpy(kd, wifi_rsn_ie, n);
        kd[n++] = IEEE80211_EID_VENDOR;
        kd[n++] = 22;
        kd[n++] = 0x00;
        kd[n++] = 0x0f;
        kd[n++] = 0xac;
        kd[n++] = 1;                    /* GTK KDE */
        kd[n++] = WPA_GTK_IDX;
        kd[n++] = 0;
        memcpy(kd + n, s->gtk, 16);
        n += 16;
        kd[n++] = IEEE80211_EID_VENDOR;
        while (n % 8) {
            kd[n++] = 0;
        }
        wifi_aes_wrap(w->ptk + 16, kd, n, k + 95);
        kdl = n + 8;
        info |= KI_INSTALL | KI_MIC | KI_SECURE | KI_ENC_DATA;
        for (int i = 0; i < 6; i++) {
            k[61 + i] = s->gtk_pn >> (8 * i);   /* key RSC of the GTK */
        }
    }
    e[0] = 2;                           /* 802.1X-2004 */
    e[1] = 3;                           /* EAPOL-Key */
    stw_be_p(e + 2, 95 + kdl);
    k[0] = 2;                           /* RSN key descriptor */
    stw_be_p(k + 1, info);
    stw_be_p(k + 3, 16);                /* CCMP key length */
    stq_be_p(k + 5, w->replay);
    memcpy(k + 13, w->anonce, 32);
    stw_be_p(k + 93, kdl);
    if (info & KI_MIC) {
        wifi_hmac_sha1_128(w->ptk, e, 4 + 95 + kdl, e + EAPOL_MIC_OFF);
    }
    w->deadline = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  NANOSECONDS_PER_SECOND;
    if (!timer_pending(s->eapol_timer) ||
        timer_expire_time_ns(s->eapol_timer) > w->deadline) {
        timer_mod(s->eapol_timer, w->deadline);
    }
    trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr),
                      w->state == WPA_MSG1 ? 1 : 3, "sent");
    wifi_ap_send_data(s, sta->addr, wifi_ap_bssid(s), b, 8 + 4 + 95 + kdl,
                      true);
}

static void wifi_ap_wpa_start(WifiApState *s, WifiApSta *sta)
{
    WifiApWpa *w = wifi_ap_wpa(s, sta);

    memset(w, 0, sizeof(*w));
    qemu_guest_getrandom_nofail(w->anonce, sizeof(w->anonce));
    w->state = WPA_MSG1;
    wifi_ap_eapol_send(s, sta);
}

/* retransmit unanswered messages; give up after WPA_RETRIES */
static void wifi_ap_eapol_timer(void *opaque)
{
    WifiApState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), next = INT64_MAX;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        WifiApWpa *w = &s->wpa[i];

        if (w->state != WPA_MSG1 && w->state != WPA_MSG3) {
            continue;
        }
        if (w->deadline <= now) {
            if (++w->tries >= WPA_RETRIES) {

                trace_wifi_ap_wpa(s->ssid, MAC_ARG(s->sta[i].addr),
                                  w->state == WPA_MSG1 ? 1 : 3, "timeout");
                wifi_ap_deauth(s, s->sta[i].addr, WLAN_REASON_4WAY_TIMEOUT);
                s->sta[i].state = STA_NONE;
                memset(w, 0, sizeof(*w));
                continue;
            }
            wifi_ap_eapol_send(s, &s->sta[i]);
        }
        next = MIN(next, w->deadline);
    }
    if (next != INT64_MAX) {
        timer_mod(s->eapol_timer, next);
    }
}

static bool wifi_ap_eapol_mic_ok(const uint8_t *kck, const uint8_t *e,
                                 size_t len)
{
    uint8_t buf[EAPOL_KEY_LEN + 256], mic[16];

    memcpy(buf, e, len);
    memset(buf + EAPOL_MIC_OFF, 0, 16);
    wifi_hmac_sha1_128(kck, buf, len, mic);
    return !memcmp(mic, e + EAPOL_MIC_OFF, 16);
}

/* EAPOL-Key message 2 or 4 from @sta (@e: the EAPOL frame, untrusted) */
static void wifi_ap_eapol_rx(WifiApState *s, WifiApSta *sta,
                             const uint8_t *e, size_t len)
{
    WifiApWpa *w = wifi_ap_wpa(s, sta);
    const uint8_t *k = e + 4;
    uint16_t info;
    size_t blen;

    if (len < EAPOL_KEY_LEN || e[1] != 3 || k[0] != 2) {
        trace_wifi_ap_ub_frame(s->ssid, "not an RSN EAPOL-Key frame", len);
        return;
    }
    blen = lduw_be_p(e + 2);
    if (blen < 95 || blen + 4 > len || blen + 4 > EAPOL_KEY_LEN + 256 ||
        95 + lduw_be_p(k + 93) > blen) {
        trace_wifi_ap_ub_frame(s->ssid, "EAPOL-Key lengths", len);
        return;
    }
    len = blen + 4;
    info = lduw_be_p(k + 1);
    if ((info & 7) != KI_VER_AES_SHA1 || !(info & KI_PAIRWISE) ||
        !(info & KI_MIC) || (info & KI_ACK) ||
        ldq_be_p(k + 5) != w->replay) {
        trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 0,
                          "EAPOL-Key ignored (info, replay counter)");
        return;
    }
    if (w->state == WPA_MSG1 && !(info & KI_SECURE)) {
        /* message 2: PTK = PRF-384(PMK, "Pairwise key expansion", ...) */
        const uint8_t *aa = wifi_ap_bssid(s), *spa = sta->addr;
        const uint8_t *snonce = k + 13;
        uint8_t data[76], ptk[48];
        bool a_first = memcmp(aa, spa, 6) < 0;
        bool an_first = memcmp(w->anonce, snonce, 32) < 0;

        memcpy(data, a_first ? aa : spa, 6);
        memcpy(data + 6, a_first ? spa : aa, 6);
        memcpy(data + 12, an_first ? w->anonce : snonce, 32);
        memcpy(data + 44, an_first ? snonce : w->anonce, 32);
        wifi_prf_sha1(s->pmk, sizeof(s->pmk), "Pairwise key expansion",
                      data, sizeof(data), ptk, sizeof(ptk));
        if (!wifi_ap_eapol_mic_ok(ptk, e, len)) {
            trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 2,
                              "bad MIC (passphrase?)");
            return;
        }
        memcpy(w->ptk, ptk, sizeof(ptk));
        trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 2, "received");
        w->state = WPA_MSG3;
        w->tries = 0;
        wifi_ap_eapol_send(s, sta);
    } else if (w->state == WPA_MSG3 && (info & KI_SECURE)) {
        if (!wifi_ap_eapol_mic_ok(w->ptk, e, len)) {
            trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 4, "bad MIC");
            return;
        }
        trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 4,
                          "received: keys installed");
        w->state = WPA_DONE;
        w->tx_pn = 0;
        w->rx_pn = 0;
    }
}

static void wifi_ap_rx_mgmt(WifiApState *s, unsigned subtype,
                            const uint8_t *f, size_t len)
{
    const uint8_t *sa = ieee80211_addr2(f);
    const uint8_t *body = f + IEEE80211_HDR_LEN, *end = f + len;
    WifiApSta *sta;
    uint8_t resp[256];
    size_t n;

    /* management frames for us: to our BSSID, or broadcast probes */
    if (memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN) &&
        !(subtype == IEEE80211_STYPE_PROBE_REQ &&
          ieee80211_is_group(ieee80211_addr1(f)))) {
        return;
    }
    switch (subtype) {
    case IEEE80211_STYPE_PROBE_REQ: {
        const uint8_t *ie = ieee80211_find_ie(body, end, IEEE80211_EID_SSID);

        /* wildcard SSID or ours */
        if (ie && ie[1] && (ie[1] != strlen(s->ssid) ||
                            memcmp(ie + 2, s->ssid, ie[1]))) {
            return;
        }
        n = wifi_ap_bss_body(s, resp, false);
        trace_wifi_ap_probe(s->ssid, MAC_ARG(sa));
        wifi_ap_send_mgmt(s, IEEE80211_STYPE_PROBE_RESP, sa, resp, n);
        return;
    }
    case IEEE80211_STYPE_AUTH: {
        uint16_t alg, seq, status = WLAN_STATUS_SUCCESS;

        if (end - body < 6) {
            trace_wifi_ap_ub_frame(s->ssid, "short auth", len);
            return;
        }
        alg = lduw_le_p(body);
        seq = lduw_le_p(body + 2);
        if (seq != 1) {
            return;
        }
        if (alg != 0) {
            status = WLAN_STATUS_NOT_SUPPORTED_ALG;
        } else {
            sta = wifi_ap_sta(s, sa, true);
            if (!sta) {
                status = WLAN_STATUS_AP_FULL;
            } else {
                sta->state = STA_AUTH;     /* (re)authentication */
                sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
                memset(wifi_ap_wpa(s, sta), 0, sizeof(WifiApWpa));
            }
        }
        trace_wifi_ap_auth(s->ssid, MAC_ARG(sa), alg, seq, status);
        stw_le_p(resp, alg);
        stw_le_p(resp + 2, 2);
        stw_le_p(resp + 4, status);
        wifi_ap_send_mgmt(s, IEEE80211_STYPE_AUTH, sa, resp, 6);
        return;
    }
    case IEEE80211_STYPE_ASSOC_REQ:
    case IEEE80211_STYPE_REASSOC_REQ: {
        size_t fixed = subtype == IEEE80211_STYPE_ASSOC_REQ ? 4 : 10;
        const uint8_t *ie;

        sta = wifi_ap_sta(s, sa, false);
        if (!sta) {
            wifi_ap_deauth(s, sa, WLAN_REASON_CLASS2_NONAUTH);
            return;
        }
        if (end - body < fixed) {
            trace_wifi_ap_ub_frame(s->ssid, "short association", len);
            return;
        }
        ie = ieee80211_find_ie(body + fixed, end, IEEE80211_EID_SSID);
        if (ie && (ie[1] != strlen(s->ssid) ||
                   memcmp(ie + 2, s->ssid, ie[1]))) {
            wifi_ap_assoc_refuse(s, subtype + 1, sa, WLAN_STATUS_UNSPEC);
            return;
        }
        if (s->passphrase) {
            /* WPA2: the station must ask for what we offer (RSN, CCMP) */
            ie = ieee80211_find_ie(body + fixed, end, IEEE80211_EID_RSN);
            if (!ie || ie[1] < 18 || memcmp(ie + 4, wifi_rsn_ie + 4, 4) ||
                memcmp(ie + 10, wifi_rsn_ie + 10, 4) ||
                memcmp(ie + 16, wifi_rsn_ie + 16, 4)) {
                wifi_ap_assoc_refuse(s, subtype + 1, sa,
                                     WLAN_STATUS_INVALID_IE);
                return;
            }
        }
        sta->state = STA_ASSOC;
        sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        sta->polled = false;
        stw_le_p(resp, wifi_ap_capab(s));
        stw_le_p(resp + 2, WLAN_STATUS_SUCCESS);
        stw_le_p(resp + 4, sta->aid | 0xc000);
        n = 6;
        n += ieee80211_put_ie(resp + n, IEEE80211_EID_RATES, wifi_rates,
                              sizeof(wifi_rates));
        n += ieee80211_put_ie(resp + n, IEEE80211_EID_EXT_RATES, wifi_ext_rates,
                              sizeof(wifi_ext_rates));
        trace_wifi_ap_assoc(s->ssid, MAC_ARG(sa), sta->aid,
                            WLAN_STATUS_SUCCESS);
        wifi_ap_send_mgmt(s, subtype + 1, sa, resp, n);
        if (s->passphrase) {
            wifi_ap_wpa_start(s, sta);
        }
        return;
    }
    case IEEE80211_STYPE_DISASSOC:
    case IEEE80211_STYPE_DEAUTH:
        sta = wifi_ap_sta(s, sa, false);
        if (sta) {
            trace_wifi_ap_deauth(s->ssid, MAC_ARG(sa),
                                 end - body >= 2 ? lduw_le_p(body) : 0);
            sta->state = subtype == IEEE80211_STYPE_DEAUTH ? STA_NONE
                                                           : STA_AUTH;
            memset(wifi_ap_wpa(s, sta), 0, sizeof(WifiApWpa));
        }
        return;
    default:
        return;
    }
}

/* data from a station: to the network (and to stations of this BSS) */
static void wifi_ap_rx_data(WifiApState *s, unsigned subtype,
                            const uint8_t *f, size_t len)
{
    size_t hdr = IEEE80211_HDR_LEN +
                 (ieee80211_is_qos_data(f) ? IEEE80211_QOS_LEN : 0);
    const uint8_t *sa = ieee80211_addr2(f), *da = ieee80211_addr3(f);
    uint8_t eth[14 + WIFI_MAX_FRAME], plain[WIFI_MAX_FRAME];
    WifiApSta *sta;
    WifiApWpa *w;
    size_t plen;
    bool eapol;

    if ((f[1] & (IEEE80211_FC1_TODS | IEEE80211_FC1_FROMDS)) !=
        IEEE80211_FC1_TODS ||
        memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN)) {
        return;
    }
    sta = wifi_ap_sta(s, sa, false);
    if (!sta || sta->state != STA_ASSOC) {
        wifi_ap_deauth(s, sa, WLAN_REASON_CLASS3_NONASSOC);
        return;
    }
    if (subtype & IEEE80211_STYPE_NULLFUNC) {
        return;         /* (QoS) null function: no payload */
    }
    w = wifi_ap_wpa(s, sta);
    if (f[1] & IEEE80211_FC1_PROTECTED) {
        uint64_t pn;

        if (!s->passphrase) {
            trace_wifi_ap_ub_frame(s->ssid, "protected frame, open network",
                                   len);
            return;
        }
        if ((w->state != WPA_MSG3 && w->state != WPA_DONE) ||
            len > sizeof(plain)) {
            trace_wifi_ap_ub_frame(s->ssid, "protected frame, no key", len);
            return;
        }
        memcpy(plain, f, len);
        if (!wifi_decrypt(WIFI_CIPHER_CCMP, w->ptk + 32, plain, len)) {
            trace_wifi_ap_ub_frame(s->ssid, "CCMP: does not authenticate",
                                   len);
            return;
        }
        pn = wifi_frame_pn(WIFI_CIPHER_CCMP, plain, len);
        if (pn <= w->rx_pn) {
            trace_wifi_ap_ub_frame(s->ssid, "CCMP: replayed PN", len);
            return;
        }
        w->rx_pn = pn;
        /* strip CCMP header and MIC */
        len -= WIFI_CCMP_HDR_LEN + WIFI_CCMP_MIC_LEN;
        if (len < hdr) {
            return;
        }
        memmove(plain + hdr, plain + hdr + WIFI_CCMP_HDR_LEN, len - hdr);
        f = plain;
    }
    if (len < hdr + 8 || memcmp(f + hdr, rfc1042, 6)) {
        trace_wifi_ap_ub_frame(s->ssid, "no RFC 1042 header", len);
        return;
    }
    eapol = lduw_be_p(f + hdr + 6) == ETH_P_PAE;
    if (s->passphrase && eapol) {
        wifi_ap_eapol_rx(s, sta, f + hdr + 8, len - hdr - 8);
        return;
    }
    if (s->passphrase &&
        (!(f[1] & IEEE80211_FC1_PROTECTED) || w->state != WPA_DONE)) {
        trace_wifi_ap_ub_frame(s->ssid, "data before the 4-way handshake "
                               "or unprotected", len);
        return;
    }
    plen = len - hdr - 8;
    memcpy(eth, da, 6);
    memcpy(eth + 6, sa, 6);
    memcpy(eth + 12, f + hdr + 6, 2);               /* ethertype */
    memcpy(eth + 14, f + hdr + 8, plen);
    trace_wifi_ap_to_net(s->ssid, MAC_ARG(sa), plen + 14);

    /* intra-BSS: to another associated station, or a group address */
    if (ieee80211_is_group(da) || wifi_ap_sta(s, da, false)) {
        wifi_ap_send_data(s, da, sa, f + hdr, len - hdr, false);
        if (!ieee80211_is_group(da)) {
            return;
        }
    }
    qemu_send_packet(qemu_get_queue(s->nic), eth, plen + 14);
}

static uint32_t wifi_ap_client_freq(WifiMediumClient *c)
{
    return wifi_ap_freq(c->opaque);
}

static bool wifi_ap_client_acks(WifiMediumClient *c, const uint8_t *addr1)
{
    return !memcmp(addr1, wifi_ap_bssid(c->opaque), 6);
}

static void wifi_ap_client_receive(WifiMediumClient *c, const uint8_t *f,
                                   size_t len, const WifiFrameMeta *meta)
{
    WifiApState *s = c->opaque;
    unsigned type, subtype;

    if (len < IEEE80211_HDR_LEN) {
        trace_wifi_ap_ub_frame(s->ssid, "short frame", len);
        return;
    }
    type = ieee80211_type(f);
    subtype = ieee80211_subtype(f);
    if ((f[0] & 3) != 0) {
        trace_wifi_ap_ub_frame(s->ssid, "protocol version", len);
        return;
    }
    trace_wifi_ap_rx(s->ssid, type, subtype, MAC_ARG(ieee80211_addr2(f)));
    if (type != IEEE80211_TYPE_CTRL &&
        !memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN)) {
        WifiApSta *sta = wifi_ap_sta(s, ieee80211_addr2(f), false);

        if (sta) {              /* heard: not inactive */
            sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            sta->polled = false;
        }
    }
    switch (type) {
    case IEEE80211_TYPE_MGMT:
        wifi_ap_rx_mgmt(s, subtype, f, len);
        break;
    case IEEE80211_TYPE_DATA:
        wifi_ap_rx_data(s, subtype, f, len);
        break;
    default:
        break;          /* control frames: nothing to do */
    }
}

/* airtime on: a frame left the queue, the network may send again */
static void wifi_ap_client_tx_done(WifiMediumClient *c, bool acked,
                                   unsigned attempts)
{
    WifiApState *s = c->opaque;

    if (s->txtag_count) {
        uint8_t tag = s->txtag[s->txtag_head];

        s->txtag_head = (s->txtag_head + 1) % WIFI_TX_QUEUE_MAX;
        s->txtag_count--;
        wifi_ap_poll_result(s, tag, acked);
    }
    if (s->nic && wifi_medium_txq_len(c) < WIFI_AP_TXQ_HIGH) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

static const WifiMediumClientOps wifi_ap_client_ops = {
    .freq = wifi_ap_client_freq,
    .acks = wifi_ap_client_acks,
    .receive = wifi_ap_client_receive,
    .tx_done = wifi_ap_client_tx_done,
};

/* ---- network side -------------------------------------------------- */

static bool wifi_ap_can_receive(NetClientState *nc)
{
    WifiApState *s = qemu_get_nic_opaque(nc);

    /* airtime on: hold the network back while the air is behind */
    return !wifi_medium_paced(&s->client) ||
           wifi_medium_txq_len(&s->client) < WIFI_AP_TXQ_HIGH;
}

static ssize_t wifi_ap_receive(NetClientState *nc, const uint8_t *buf,
                               size_t size)
{
    WifiApState *s = qemu_get_nic_opaque(nc);
    uint8_t f[WIFI_MAX_FRAME];
    const uint8_t *da = buf, *sa = buf + 6;
    WifiApSta *sta = NULL;
    bool acked;

    if (size < 14 || size - 14 > WIFI_MAX_FRAME - IEEE80211_HDR_LEN - 8 -
                                 WIFI_CCMP_HDR_LEN - WIFI_CCMP_MIC_LEN) {
        return size;    /* consumed: nothing to bridge */
    }
    if (!ieee80211_is_group(da)) {
        sta = wifi_ap_sta(s, da, false);
        if (!sta || sta->state != STA_ASSOC) {
            return size;
        }
    }
    memcpy(f, rfc1042, 6);
    memcpy(f + 6, buf + 12, 2);
    memcpy(f + 8, buf + 14, size - 14);
    acked = wifi_ap_send_data(s, da, sa, f, 8 + size - 14, false);
    trace_wifi_ap_from_net(s->ssid, MAC_ARG(da), size, acked);
    return size;
}

static NetClientInfo wifi_ap_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = wifi_ap_can_receive,
    .receive = wifi_ap_receive,
};

/* ---- device -------------------------------------------------------- */

static void wifi_ap_reset_hold(Object *obj, ResetType type)
{
    WifiApState *s = WIFI_AP(obj);

    memset(s->sta, 0, sizeof(s->sta));
    memset(s->wpa, 0, sizeof(s->wpa));
    s->seq = 0;
    s->gtk_pn = 0;
    qemu_guest_getrandom_nofail(s->gtk, sizeof(s->gtk));
    timer_del(s->eapol_timer);
    s->tsf_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    wifi_medium_flush(&s->client);
    s->txtag_head = s->txtag_count = 0;
    timer_mod(s->beacon_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (int64_t)s->beacon_int * 1024 * SCALE_US);
}

static void wifi_ap_realize(DeviceState *dev, Error **errp)
{
    WifiApState *s = WIFI_AP(dev);

    if (!s->ssid || !*s->ssid || strlen(s->ssid) > 32) {
        error_setg(errp, "wifi-ap: ssid must have 1 to 32 characters");
        return;
    }
    if (s->channel < 1 || s->channel > 14) {
        error_setg(errp, "wifi-ap: channel must be 1..14 (2.4 GHz)");
        return;
    }
    if (s->beacon_int < 15 || s->beacon_int > 65535) {
        error_setg(errp, "wifi-ap: beacon-interval must be 15..65535 TU");
        return;
    }
    if (s->max_inactivity < 1 || s->max_inactivity > 86400) {
        error_setg(errp, "wifi-ap: max-inactivity must be 1..86400 s");
        return;
    }
    if (s->txpower < -10 || s->txpower > 30) {
        error_setg(errp, "wifi-ap: txpower must be -10..30 dBm");
        return;
    }
    if (s->passphrase) {
        size_t pl = strlen(s->passphrase);

        if (pl < 8 || pl > 63) {
            error_setg(errp, "wifi-ap: passphrase must have 8 to 63 "
                       "characters (IEEE 802.11-2020 J.4)");
            return;
        }
        for (size_t i = 0; i < pl; i++) {
            if (s->passphrase[i] < 32 || s->passphrase[i] > 126) {
                error_setg(errp, "wifi-ap: passphrase must be printable "
                           "ASCII");
                return;
            }
        }
        wifi_psk_pmk(s->passphrase, (const uint8_t *)s->ssid,
                     strlen(s->ssid), s->pmk);
    }
    static const MACAddr zero_mac;

    if (!memcmp(&s->conf.macaddr, &zero_mac, sizeof(zero_mac))) {
        /*
         * A locally administered BSSID derived from SSID and channel: stable
         * across runs and distinct from the 52:54:00:12:34:xx addresses
         * QEMU gives NICs, also those of other QEMU processes on the air.
         */
        uint32_t h = g_str_hash(s->ssid) ^ (s->channel * 0x9e3779b9u);

        s->conf.macaddr.a[0] = 0x02;
        s->conf.macaddr.a[1] = 0x42;
        s->conf.macaddr.a[2] = 0x53;
        s->conf.macaddr.a[3] = h >> 16;
        s->conf.macaddr.a[4] = h >> 8;
        s->conf.macaddr.a[5] = h;
    }
    s->nic = qemu_new_nic(&wifi_ap_net_info, &s->conf,
                          object_get_typename(OBJECT(dev)), dev->id,
                          &dev->mem_reentrancy_guard, s);
    s->client.ops = &wifi_ap_client_ops;
    s->client.opaque = s;
    s->client.name = s->ssid;
    memcpy(s->client.pos, s->pos, sizeof(s->pos));
    wifi_medium_attach(s->medium, &s->client, dev);
    s->beacon_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_ap_beacon, s);
    s->eapol_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_ap_eapol_timer, s);
    /* not on a bus: register for system resets ourselves */
    qemu_register_resettable(OBJECT(dev));
    wifi_ap_reset_hold(OBJECT(dev), RESET_TYPE_COLD);
}

static void wifi_ap_unrealize(DeviceState *dev)
{
    WifiApState *s = WIFI_AP(dev);

    qemu_unregister_resettable(OBJECT(dev));
    timer_free(s->beacon_timer);
    timer_free(s->eapol_timer);
    wifi_medium_detach(&s->client);
    qemu_del_nic(s->nic);
}

static const VMStateDescription vmstate_wifi_ap_sta = {
    .name = "wifi-ap-sta",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(addr, WifiApSta, 6),
        VMSTATE_UINT8(state, WifiApSta),
        VMSTATE_UINT16(aid, WifiApSta),
        VMSTATE_END_OF_LIST()
    },
};

static int wifi_ap_post_load(void *opaque, int version_id)
{
    WifiApState *s = opaque;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        if (s->sta[i].state > STA_ASSOC || s->wpa[i].state > WPA_DONE) {
            return -EINVAL;
        }
    }
    /* the source's air queue did not move: nothing here awaits tx_done */
    s->txtag_head = s->txtag_count = 0;
    return 0;
}

static const VMStateDescription vmstate_wifi_ap_wpa_sta = {
    .name = "wifi-ap-wpa-sta",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(state, WifiApWpa),
        VMSTATE_UINT8(tries, WifiApWpa),
        VMSTATE_UINT64(replay, WifiApWpa),
        VMSTATE_UINT8_ARRAY(anonce, WifiApWpa, 32),
        VMSTATE_UINT8_ARRAY(ptk, WifiApWpa, 48),
        VMSTATE_UINT64(tx_pn, WifiApWpa),
        VMSTATE_UINT64(rx_pn, WifiApWpa),
        VMSTATE_INT64(deadline, WifiApWpa),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_wifi_ap_sta_age = {
    .name = "wifi-ap-sta-age",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT64(last_ns, WifiApSta),
        VMSTATE_BOOL(polled, WifiApSta),
        VMSTATE_END_OF_LIST()
    },
};

static bool wifi_ap_age_needed(void *opaque)
{
    return true;
}

/* station aging; a stream without it: every station looks idle, is polled */
static const VMStateDescription vmstate_wifi_ap_age = {
    .name = "wifi-ap/age",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = wifi_ap_age_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(sta, WifiApState, WIFI_AP_MAX_STA, 1,
                             vmstate_wifi_ap_sta_age, WifiApSta),
        VMSTATE_END_OF_LIST()
    },
};

static bool wifi_ap_wpa_needed(void *opaque)
{
    WifiApState *s = opaque;

    return s->passphrase != NULL;
}

static const VMStateDescription vmstate_wifi_ap_wpa = {
    .name = "wifi-ap/wpa",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = wifi_ap_wpa_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(gtk, WifiApState, 16),
        VMSTATE_UINT64(gtk_pn, WifiApState),
        VMSTATE_TIMER_PTR(eapol_timer, WifiApState),
        VMSTATE_STRUCT_ARRAY(wpa, WifiApState, WIFI_AP_MAX_STA, 1,
                             vmstate_wifi_ap_wpa_sta, WifiApWpa),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_wifi_ap = {
    .name = "wifi-ap",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = wifi_ap_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER_PTR(beacon_timer, WifiApState),
        VMSTATE_INT64(tsf_base_ns, WifiApState),
        VMSTATE_UINT16(seq, WifiApState),
        VMSTATE_STRUCT_ARRAY(sta, WifiApState, WIFI_AP_MAX_STA, 1,
                             vmstate_wifi_ap_sta, WifiApSta),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_wifi_ap_wpa,
        &vmstate_wifi_ap_age,
        NULL
    },
};

static const Property wifi_ap_properties[] = {
    DEFINE_PROP_LINK("medium", WifiApState, medium, TYPE_WIFI_MEDIUM,
                     WifiMedium *),
    DEFINE_PROP_STRING("ssid", WifiApState, ssid),
    DEFINE_PROP_STRING("passphrase", WifiApState, passphrase),
    DEFINE_PROP_MACADDR("bssid", WifiApState, conf.macaddr),
    DEFINE_PROP_NETDEV("netdev", WifiApState, conf.peers),
    DEFINE_PROP_UINT32("channel", WifiApState, channel, 6),
    DEFINE_PROP_UINT32("beacon-interval", WifiApState, beacon_int, 100),
    DEFINE_PROP_UINT32("max-inactivity", WifiApState, max_inactivity, 300),
    DEFINE_PROP_INT32("txpower", WifiApState, txpower, 20),
    DEFINE_PROP_INT32("x", WifiApState, pos[0], 10),
    DEFINE_PROP_INT32("y", WifiApState, pos[1], 0),
    DEFINE_PROP_INT32("z", WifiApState, pos[2], 0),
};

static void wifi_ap_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Virtual 802.11 access point on a wifi-medium";
    dc->realize = wifi_ap_realize;
    dc->unrealize = wifi_ap_unrealize;
    dc->vmsd = &vmstate_wifi_ap;
    dc->user_creatable = true;
    rc->phases.hold = wifi_ap_reset_hold;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    device_class_set_props(dc, wifi_ap_properties);
    object_class_property_set_description(klass, "medium",
        "the wifi-medium (simulated air) the access point is on");
    object_class_property_set_description(klass, "ssid",
        "network name (1..32 characters)");
    object_class_property_set_description(klass, "passphrase",
        "WPA2-PSK passphrase (8..63 printable characters): the network is "
        "then RSN with CCMP; without it, open");
    object_class_property_set_description(klass, "bssid",
        "BSSID, also the access point's address towards the netdev "
        "(default: 02:42:53 and a hash of SSID and channel)");
    object_class_property_set_description(klass, "netdev",
        "network backend the access point bridges to (e.g. -netdev user)");
    object_class_property_set_description(klass, "channel",
        "2.4 GHz channel 1..14 (default 6)");
    object_class_property_set_description(klass, "beacon-interval",
        "beacon interval in TU of 1024 us (default 100)");
    object_class_property_set_description(klass, "max-inactivity",
        "seconds an associated station may stay silent before it is polled "
        "with a null data frame, and deauthenticated if it does not "
        "acknowledge it (hostapd's ap_max_inactivity; default 300)");
    object_class_property_set_description(klass, "txpower",
        "transmit power in dBm (default 20)");
    object_class_property_set_description(klass, "x",
        "position on the medium in metres (default 10, 0, 0)");
}

static const TypeInfo wifi_ap_info = {
    .name = TYPE_WIFI_AP,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(WifiApState),
    .class_init = wifi_ap_class_init,
};

static void wifi_ap_register_types(void)
{
    type_register_static(&wifi_ap_info);
}

type_init(wifi_ap_register_types);
