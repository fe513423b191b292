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
#include "net/wifi/medium.h"
#include "net/wifi/qemu-compat.h"
#include "net/wifi/crypto.h"
#include "qemu/guest-random.h"
#include "net/eth.h"
#include "ap-bss.h"
#include "ap-wpa.h"
#include "trace.h"

static const uint8_t wifi_rates[] = {
    0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24,     /* 1..18 Mb/s */
};
static const uint8_t wifi_ext_rates[] = { 0x30, 0x48, 0x60, 0x6c };


static uint64_t wifi_ap_tsf(WifiApState *s)
{
    return (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->tsf_base_ns) /
           SCALE_US;
}


/* body of beacons and probe responses (IEEE 802.11-2020 9.3.3.2) */
static size_t wifi_ap_bss_body(WifiApState *s, uint8_t *p, bool beacon)
{
    size_t n;
    uint8_t ch = s->channel;
    static const uint8_t tim[4] = { 0, 1, 0, 0 };   /* DTIM every beacon */
    uint8_t erp = 0;                                /* no protection */
    struct ieee80211_beacon_fixed *fx = (struct ieee80211_beacon_fixed *)p;

    stq_le_p(&fx->timestamp, wifi_ap_tsf(s));
    stw_le_p(&fx->beacon_int, s->beacon_int);
    stw_le_p(&fx->capab, wifi_ap_capab(s));
    n = sizeof(*fx);
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


/* an (re)association response refusing @da with @status */
static void wifi_ap_assoc_refuse(WifiApState *s, unsigned subtype,
                                 const uint8_t *da, uint16_t status)
{
    struct ieee80211_assoc_resp resp;

    stw_le_p(&resp.capab, wifi_ap_capab(s));
    stw_le_p(&resp.status, status);
    stw_le_p(&resp.aid, 0);
    trace_wifi_ap_assoc(s->ssid, MAC_ARG(da), 0, status);
    wifi_ap_send_mgmt(s, subtype, da, (const uint8_t *)&resp, sizeof(resp));
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
    wifi_ap_sta_free(s, sta, "inactive, poll not acknowledged", "inactive");
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
            wifi_ap_sta_free(s, sta, "authenticated, never associated",
                             NULL);
        } else if (sta->state == STA_ASSOC && !sta->polled &&
                   now - sta->last_ns >= idle_max) {
            wifi_ap_poll(s, i);
        }
    }
}

/* a probe request: wildcard SSID or ours gets a probe response */
static void wifi_ap_rx_probe(WifiApState *s, const uint8_t *sa,
                             const uint8_t *body, const uint8_t *end)
{
    const uint8_t *ie = ieee80211_find_ie(body, end, IEEE80211_EID_SSID);
    uint8_t resp[256];
    size_t n;

    if (ie && ie[1] && (ie[1] != strlen(s->ssid) ||
                        memcmp(ie + 2, s->ssid, ie[1]))) {
        return;
    }
    n = wifi_ap_bss_body(s, resp, false);
    trace_wifi_ap_probe(s->ssid, MAC_ARG(sa));
    wifi_ap_send_mgmt(s, IEEE80211_STYPE_PROBE_RESP, sa, resp, n);
}

/* open system authentication (sequence 1), the station (re)starting */
static void wifi_ap_rx_auth(WifiApState *s, const uint8_t *sa,
                            const uint8_t *body, const uint8_t *end)
{
    const struct ieee80211_auth *req = (const struct ieee80211_auth *)body;
    struct ieee80211_auth ar;
    uint16_t alg, seq, status = WLAN_STATUS_SUCCESS;
    WifiApSta *sta;

    if (end - body < sizeof(*req)) {
        trace_wifi_ap_ub_frame(s->ssid, "short auth",
                               end - body + IEEE80211_HDR_LEN);
        return;
    }
    alg = lduw_le_p(&req->alg);
    seq = lduw_le_p(&req->seq);
    if (seq != 1) {
        return;
    }
    if (alg != IEEE80211_AUTH_ALG_OPEN) {
        status = WLAN_STATUS_NOT_SUPPORTED_ALG;
    } else {
        sta = wifi_ap_sta(s, sa, true);
        if (!sta) {
            status = WLAN_STATUS_AP_FULL;
        } else {
            wifi_ap_sta_left(s, sta, "reauthenticated");
            sta->state = STA_AUTH;     /* (re)authentication */
            sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            memset(&sta->wpa, 0, sizeof(sta->wpa));
        }
    }
    trace_wifi_ap_auth(s->ssid, MAC_ARG(sa), alg, seq, status);
    stw_le_p(&ar.alg, alg);
    stw_le_p(&ar.seq, 2);
    stw_le_p(&ar.status, status);
    wifi_ap_send_mgmt(s, IEEE80211_STYPE_AUTH, sa, (uint8_t *)&ar,
                      sizeof(ar));
}

/*
 * The elements of an association request we check: our SSID if it names
 * one, and with WPA2 an RSN element asking for what we offer (CCMP, PSK),
 * there up to and with its AKM suite.  The status to answer with.
 */
static uint16_t wifi_ap_assoc_ies_status(WifiApState *s, const uint8_t *ies,
                                         const uint8_t *end)
{
    const struct ieee80211_rsn_ie1 *rsn, *ours;
    const uint8_t *ie = ieee80211_find_ie(ies, end, IEEE80211_EID_SSID);

    if (ie && (ie[1] != strlen(s->ssid) || memcmp(ie + 2, s->ssid, ie[1]))) {
        return WLAN_STATUS_UNSPEC;
    }
    if (!s->passphrase) {
        return WLAN_STATUS_SUCCESS;
    }
    ie = ieee80211_find_ie(ies, end, IEEE80211_EID_RSN);
    rsn = (const struct ieee80211_rsn_ie1 *)ie;
    ours = (const struct ieee80211_rsn_ie1 *)wifi_rsn_ie;
    if (!ie || ie[1] < offsetof(struct ieee80211_rsn_ie1, capab) - 2 ||
        memcmp(&rsn->group, &ours->group, sizeof(rsn->group)) ||
        memcmp(&rsn->pairwise, &ours->pairwise, sizeof(rsn->pairwise)) ||
        memcmp(&rsn->akm, &ours->akm, sizeof(rsn->akm))) {
        return WLAN_STATUS_INVALID_IE;
    }
    return WLAN_STATUS_SUCCESS;
}

/* (re)association of an authenticated station; WPA2 starts after it */
static void wifi_ap_rx_assoc(WifiApState *s, unsigned subtype,
                             const uint8_t *sa, const uint8_t *body,
                             const uint8_t *end)
{
    size_t fixed = subtype == IEEE80211_STYPE_ASSOC_REQ ?
                   sizeof(struct ieee80211_assoc_req) :
                   sizeof(struct ieee80211_reassoc_req);
    uint8_t resp[256];
    struct ieee80211_assoc_resp *ar = (struct ieee80211_assoc_resp *)resp;
    WifiApSta *sta = wifi_ap_sta(s, sa, false);
    uint16_t status;
    size_t n;

    if (!sta) {
        wifi_ap_deauth(s, sa, WLAN_REASON_CLASS2_NONAUTH);
        return;
    }
    if (end - body < fixed) {
        trace_wifi_ap_ub_frame(s->ssid, "short association",
                               end - body + IEEE80211_HDR_LEN);
        return;
    }
    status = wifi_ap_assoc_ies_status(s, body + fixed, end);
    if (status != WLAN_STATUS_SUCCESS) {
        wifi_ap_assoc_refuse(s, subtype + 1, sa, status);
        return;
    }
    if (sta->state != STA_ASSOC) {
        sta->state = STA_ASSOC;
        /* a reassociation is no activity: it keeps its time */
        sta->active_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        sta->passed_data = false;
        wifi_ap_sta_event(s, sta, true, NULL);
    }
    sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    sta->polled = false;
    stw_le_p(&ar->capab, wifi_ap_capab(s));
    stw_le_p(&ar->status, WLAN_STATUS_SUCCESS);
    stw_le_p(&ar->aid, sta->aid | IEEE80211_AID_FLAGS);
    n = sizeof(*ar);
    n += ieee80211_put_ie(resp + n, IEEE80211_EID_RATES, wifi_rates,
                          sizeof(wifi_rates));
    n += ieee80211_put_ie(resp + n, IEEE80211_EID_EXT_RATES, wifi_ext_rates,
                          sizeof(wifi_ext_rates));
    trace_wifi_ap_assoc(s->ssid, MAC_ARG(sa), sta->aid, WLAN_STATUS_SUCCESS);
    wifi_ap_send_mgmt(s, subtype + 1, sa, resp, n);
    if (s->passphrase) {
        wifi_ap_wpa_start(s, sta);
    }
}

/* a station leaves: deauthenticated (to none) or disassociated */
static void wifi_ap_rx_leave(WifiApState *s, unsigned subtype,
                             const uint8_t *sa, const uint8_t *body,
                             const uint8_t *end)
{
    const struct ieee80211_deauth *d = (const struct ieee80211_deauth *)body;
    bool deauth = subtype == IEEE80211_STYPE_DEAUTH;
    WifiApSta *sta = wifi_ap_sta(s, sa, false);

    if (!sta) {
        return;
    }
    trace_wifi_ap_deauth(s->ssid, MAC_ARG(sa),
                         end - body >= sizeof(*d) ? lduw_le_p(&d->reason) : 0);
    wifi_ap_sta_left(s, sta, deauth ? "deauthenticated" : "disassociated");
    sta->state = deauth ? STA_NONE : STA_AUTH;
    memset(&sta->wpa, 0, sizeof(sta->wpa));
}

static void wifi_ap_rx_mgmt(WifiApState *s, unsigned subtype,
                            const uint8_t *f, size_t len)
{
    const uint8_t *sa = ieee80211_addr2(f);
    const uint8_t *body = f + IEEE80211_HDR_LEN, *end = f + len;

    /* management frames for us: to our BSSID, or broadcast probes */
    if (memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN) &&
        !(subtype == IEEE80211_STYPE_PROBE_REQ &&
          ieee80211_is_group(ieee80211_addr1(f)))) {
        return;
    }
    switch (subtype) {
    case IEEE80211_STYPE_PROBE_REQ:
        wifi_ap_rx_probe(s, sa, body, end);
        break;
    case IEEE80211_STYPE_AUTH:
        wifi_ap_rx_auth(s, sa, body, end);
        break;
    case IEEE80211_STYPE_ASSOC_REQ:
    case IEEE80211_STYPE_REASSOC_REQ:
        wifi_ap_rx_assoc(s, subtype, sa, body, end);
        break;
    case IEEE80211_STYPE_DISASSOC:
    case IEEE80211_STYPE_DEAUTH:
        wifi_ap_rx_leave(s, subtype, sa, body, end);
        break;
    default:
        break;
    }
}

/* data from a station: to the network (and to stations of this BSS) */
static void wifi_ap_client_receive(WifiMediumClient *c, const uint8_t *f,
                                   size_t len, const WifiFrameMeta *meta)
{
    WifiApState *s = c->opaque;
    WifiApSta *sta = NULL;
    unsigned type, subtype;

    /* (no control frames come: it does not want them) */
    if (len < IEEE80211_HDR_LEN) {
        trace_wifi_ap_ub_frame(s->ssid, "short frame", len);
        return;
    }
    type = ieee80211_type(f);
    subtype = ieee80211_subtype(f);
    if ((f[0] & IEEE80211_FC0_VERSION_MASK) != 0) {
        trace_wifi_ap_ub_frame(s->ssid, "protocol version", len);
        return;
    }
    trace_wifi_ap_rx(s->ssid, type, subtype, MAC_ARG(ieee80211_addr2(f)));
    if (!memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN)) {
        sta = wifi_ap_sta(s, ieee80211_addr2(f), false);
        if (sta) {              /* heard: not inactive */
            sta->last_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            sta->polled = false;
            sta->heard = true;
            sta->signal_dbm = meta->signal_dbm;
        }
    }
    switch (type) {
    case IEEE80211_TYPE_MGMT:
        wifi_ap_rx_mgmt(s, subtype, f, len);
        break;
    case IEEE80211_TYPE_DATA:
        wifi_ap_rx_data(s, sta, subtype, f, len);
        break;
    default:
        break;          /* reserved type: nothing to do */
    }
}

/* airtime on: a frame left the queue, the network may send again */
static void wifi_ap_client_tx_done(WifiMediumClient *c, const WifiTxResult *r)
{
    WifiApState *s = c->opaque;

    if (s->txtag_count) {
        uint8_t tag = s->txtag[s->txtag_head];

        s->txtag_head = (s->txtag_head + 1) % WIFI_TX_QUEUE_MAX;
        s->txtag_count--;
        wifi_ap_poll_result(s, tag, r->acked);
    }
    if (s->nic && wifi_medium_txq_len(c) < WIFI_AP_TXQ_HIGH) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

static const WifiMediumClientOps wifi_ap_client_ops = {
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
    struct ieee80211_llc_snap *llc = (struct ieee80211_llc_snap *)f;
    /* the Ethernet header: destination, source, ethertype */
    const uint8_t *da = buf, *sa = buf + ETH_ALEN;
    WifiApSta *sta = NULL;
    bool acked;

    if (!size) {
        return -1;      /* dropped (0 would stop the netdev's deliveries) */
    }
    if (size < ETH_HLEN ||
        size - ETH_HLEN > WIFI_MAX_FRAME - IEEE80211_HDR_LEN - sizeof(*llc) -
                          WIFI_CCMP_HDR_LEN - WIFI_CCMP_MIC_LEN) {
        return size;    /* consumed: nothing to bridge */
    }
    if (!ieee80211_is_group(da)) {
        sta = wifi_ap_sta(s, da, false);
        if (!sta || sta->state != STA_ASSOC) {
            return size;
        }
    }
    ieee80211_put_llc_snap(llc, lduw_be_p(buf + 2 * ETH_ALEN));
    memcpy(llc + 1, buf + ETH_HLEN, size - ETH_HLEN);
    acked = wifi_ap_send_data(s, da, sa, f, sizeof(*llc) + size - ETH_HLEN,
                              false);
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

    for (unsigned i = 0; i < WIFI_AP_MAX_STA; i++) {
        wifi_ap_sta_left(s, &s->sta[i], "reset");
    }
    memset(s->sta, 0, sizeof(s->sta));         /* and their WPA state */
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
    s->client.name = dev->id ? dev->id : s->ssid;
    wifi_medium_attach(s->medium, &s->client, dev);
    /* always on its channel, always taking frames (no control frames) */
    wifi_medium_set_freq(&s->client, wifi_ap_freq(s));
    wifi_medium_set_addr(&s->client, wifi_ap_bssid(s));
    wifi_medium_set_wants(&s->client, WIFI_WANT_RX);
    s->client.txpower_dbm = s->txpower;
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
        if (s->sta[i].state > STA_ASSOC || s->sta[i].wpa.state > WPA_DONE) {
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

/*
 * A station's WPA state, in the stream as it was when it was an array of
 * its own beside the station table (WifiApState.wpa[32]): the same fields
 * in the same order for each of the 32 entries; only this description is
 * new, and a VMSTATE_STRUCT writes no name or header of its own.
 */
static const VMStateDescription vmstate_wifi_ap_sta_wpa = {
    .name = "wifi-ap-sta-wpa",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(wpa, WifiApSta, 1, vmstate_wifi_ap_wpa_sta, WifiApWpa),
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

static const VMStateDescription vmstate_wifi_ap_sta_activity = {
    .name = "wifi-ap-sta-activity",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT64(active_ns, WifiApSta),
        VMSTATE_BOOL(passed_data, WifiApSta),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * what decides who gives way in a full table; a stream without it: every
 * associated station looks as if it associated at time 0, passing no data
 */
static const VMStateDescription vmstate_wifi_ap_activity = {
    .name = "wifi-ap/activity",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = wifi_ap_age_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(sta, WifiApState, WIFI_AP_MAX_STA, 1,
                             vmstate_wifi_ap_sta_activity, WifiApSta),
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
        VMSTATE_STRUCT_ARRAY(sta, WifiApState, WIFI_AP_MAX_STA, 1,
                             vmstate_wifi_ap_sta_wpa, WifiApSta),
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
        &vmstate_wifi_ap_activity,
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
};

static void wifi_ap_class_init(ObjectClass *klass, QemuClassData data)
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
    wifi_radio_class_add_pos(klass, offsetof(WifiApState, client),
        "position on the medium in metres, decimals allowed, settable while "
        "guests run (x, y, z; default 10, 0, 0)");
}

static void wifi_ap_instance_init(Object *obj)
{
    WIFI_AP(obj)->client.pos[0] = 10;
}

static const TypeInfo wifi_ap_info = {
    .name = TYPE_WIFI_AP,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(WifiApState),
    .instance_init = wifi_ap_instance_init,
    .class_init = wifi_ap_class_init,
};

static void wifi_ap_register_types(void)
{
    type_register_static(&wifi_ap_info);
}

type_init(wifi_ap_register_types);
