/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The virtual access point's data frames and WPA2-PSK: frames to stations
 * (CCMP with the pairwise or group key once the handshake is done), the
 * 4-way handshake (IEEE 802.11-2020 12.7.6: PTK from PRF-384, the
 * HMAC-SHA1-128 MIC, the GTK in message 3 wrapped with AES key wrap), and
 * data from stations: the PN replay check, EAPOL, the bridge to the netdev.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/guest-random.h"
#include "net/eth.h"
#include "net/wifi/crypto.h"
#include "ap-wpa.h"
#include "trace.h"

QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_ccmp_hdr) != WIFI_CCMP_HDR_LEN);
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_rsn_ie1) != WIFI_RSN_IE_LEN);

/* RSN element: CCMP group and pairwise, PSK (IEEE 802.11-2020 9.4.2.24) */
const uint8_t wifi_rsn_ie[WIFI_RSN_IE_LEN] = {
    IEEE80211_EID_RSN, 20, 1, 0,
    0x00, 0x0f, 0xac, 4,                /* group: CCMP */
    1, 0, 0x00, 0x0f, 0xac, 4,          /* pairwise: CCMP */
    1, 0, 0x00, 0x0f, 0xac, 2,          /* AKM: PSK */
    0, 0,                               /* capabilities */
};

/* ---- WPA2-PSK: protected data and the 4-way handshake ---------------- */

/*
 * A data frame from the AP (FromDS) to @da, @body = LLC/SNAP + payload.
 * On a WPA2 network it is CCMP-protected, with the station's pairwise key
 * or, for group addresses, the group key; @plain sends it unprotected
 * (EAPOL before the keys are in place).  Stations whose handshake is not
 * done get nothing but EAPOL.
 */
bool wifi_ap_send_data(WifiApState *s, const uint8_t *da,
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
            WifiApWpa *w = sta ? &sta->wpa : NULL;

            if (!w || w->state != WPA_DONE) {
                return false;           /* port not authorized */
            }
            key = w->ptk + WPA_PTK_TK_OFF;
            pn = ++w->tx_pn;
        }
    }
    n = wifi_hdr(s, f, IEEE80211_TYPE_DATA, 0,
                 IEEE80211_FC1_FROMDS | (key ? IEEE80211_FC1_PROTECTED : 0), da,
                 wifi_ap_bssid(s), sa);
    if (key) {
        struct ieee80211_ccmp_hdr *ch = (struct ieee80211_ccmp_hdr *)(f + n);

        ch->pn0 = pn;
        ch->pn1 = pn >> 8;
        ch->rsvd = 0;
        ch->keyid = IEEE80211_CCMP_EXT_IV |
                    keyid << IEEE80211_CCMP_KEYID_SHIFT;
        stl_le_p(&ch->pn2_5, pn >> 16);
        n += sizeof(*ch);
    }
    memcpy(f + n, body, blen);
    n += blen;
    if (key) {
        n = wifi_encrypt(WIFI_CIPHER_CCMP, key, f, n, sizeof(f));
    }
    return wifi_ap_tx(s, f, n, wifi_ap_data_rate(s, da, n));
}

/* an EAPOL-Key frame in a data frame's body, key data at most 64 bytes */
typedef struct QEMU_PACKED WifiApEapolKeyFrame {
    struct ieee80211_llc_snap llc;
    struct ieee8021x_hdr eapol;
    struct ieee80211_eapol_key key;
    uint8_t key_data[64];
} WifiApEapolKeyFrame;

QEMU_BUILD_BUG_ON(offsetof(WifiApEapolKeyFrame, key.key_mic) -
                  offsetof(WifiApEapolKeyFrame, eapol) != EAPOL_MIC_OFF);

/* EAPOL-Key message 1 or 3 of the 4-way handshake to @sta */
static void wifi_ap_eapol_send(WifiApState *s, WifiApSta *sta)
{
    WifiApWpa *w = &sta->wpa;
    WifiApEapolKeyFrame b;
    struct ieee80211_eapol_key *k = &b.key;
    uint16_t info = KI_VER_AES_SHA1 | KI_PAIRWISE | KI_ACK;
    size_t kdl = 0;

    memset(&b, 0, sizeof(b));
    ieee80211_put_llc_snap(&b.llc, ETH_P_PAE);
    w->replay++;
    if (w->state == WPA_MSG3) {
        /* key data: our RSN element, the GTK KDE, padding; wrapped */
        uint8_t kd[48];
        struct ieee80211_gtk_kde *gk =
            (struct ieee80211_gtk_kde *)(kd + sizeof(wifi_rsn_ie));
        size_t n = sizeof(wifi_rsn_ie);

        QEMU_BUILD_BUG_ON(ROUND_UP(sizeof(wifi_rsn_ie) +
                                   sizeof(struct ieee80211_gtk_kde) + 1, 8) >
                          sizeof(kd));
        QEMU_BUILD_BUG_ON(sizeof(kd) + 8 > sizeof(b.key_data));
        memcpy(kd, wifi_rsn_ie, n);
        gk->hdr.eid = IEEE80211_EID_VENDOR;
        gk->hdr.len = sizeof(*gk) - 2;
        gk->hdr.oui[0] = 0x00;
        gk->hdr.oui[1] = 0x0f;
        gk->hdr.oui[2] = 0xac;
        gk->hdr.type = IEEE80211_KDE_GTK;
        gk->keyid = WPA_GTK_IDX;
        gk->rsvd = 0;
        memcpy(gk->gtk, s->gtk, sizeof(gk->gtk));
        n += sizeof(*gk);
        /* padding (12.7.2): 0xdd, then zeros to a multiple of 8 */
        kd[n++] = IEEE80211_EID_VENDOR;
        while (n % 8) {
            kd[n++] = 0;
        }
        wifi_aes_wrap(w->ptk + WPA_PTK_KEK_OFF, kd, n, b.key_data);
        kdl = n + 8;
        info |= KI_INSTALL | KI_MIC | KI_SECURE | KI_ENC_DATA;
        for (int i = 0; i < 6; i++) {
            /* key RSC of the GTK */
            k->key_rsc[i] = s->gtk_pn >> (8 * i);
        }
    }
    b.eapol.version = IEEE8021X_VERSION_2004;
    b.eapol.type = IEEE8021X_TYPE_EAPOL_KEY;
    stw_be_p(&b.eapol.length, sizeof(*k) + kdl);
    k->type = IEEE80211_EAPOL_KEY_TYPE_RSN;
    stw_be_p(&k->key_info, info);
    stw_be_p(&k->key_length, 16);       /* CCMP key length */
    stq_be_p(&k->replay_counter, w->replay);
    memcpy(k->key_nonce, w->anonce, sizeof(k->key_nonce));
    stw_be_p(&k->key_data_length, kdl);
    if (info & KI_MIC) {
        wifi_hmac_sha1_128(w->ptk, (const uint8_t *)&b.eapol,
                           sizeof(b.eapol) + sizeof(*k) + kdl, k->key_mic);
    }
    w->deadline = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  NANOSECONDS_PER_SECOND;
    if (!timer_pending(s->eapol_timer) ||
        timer_expire_time_ns(s->eapol_timer) > w->deadline) {
        timer_mod(s->eapol_timer, w->deadline);
    }
    trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr),
                      w->state == WPA_MSG1 ? 1 : 3, "sent");
    wifi_ap_send_data(s, sta->addr, wifi_ap_bssid(s), (const uint8_t *)&b,
                      offsetof(WifiApEapolKeyFrame, key_data) + kdl, true);
}

void wifi_ap_wpa_start(WifiApState *s, WifiApSta *sta)
{
    WifiApWpa *w = &sta->wpa;

    memset(w, 0, sizeof(*w));
    qemu_guest_getrandom_nofail(w->anonce, sizeof(w->anonce));
    w->state = WPA_MSG1;
    wifi_ap_eapol_send(s, sta);
}

/* retransmit unanswered messages; give up after WPA_RETRIES */
void wifi_ap_eapol_timer(void *opaque)
{
    WifiApState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), next = INT64_MAX;

    for (int i = 0; i < WIFI_AP_MAX_STA; i++) {
        WifiApWpa *w = &s->sta[i].wpa;

        if (w->state != WPA_MSG1 && w->state != WPA_MSG3) {
            continue;
        }
        if (w->deadline <= now) {
            if (++w->tries >= WPA_RETRIES) {

                trace_wifi_ap_wpa(s->ssid, MAC_ARG(s->sta[i].addr),
                                  w->state == WPA_MSG1 ? 1 : 3, "timeout");
                wifi_ap_deauth(s, s->sta[i].addr, WLAN_REASON_4WAY_TIMEOUT);
                wifi_ap_sta_left(s, &s->sta[i], "handshake-timeout");
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
    WifiApWpa *w = &sta->wpa;
    const struct ieee8021x_hdr *eh = (const struct ieee8021x_hdr *)e;
    const struct ieee80211_eapol_key *k =
        (const struct ieee80211_eapol_key *)(eh + 1);
    uint16_t info;
    size_t blen;

    /* the EAPOL header and the descriptor up to its key data are there */
    if (len < EAPOL_KEY_LEN || eh->type != IEEE8021X_TYPE_EAPOL_KEY ||
        k->type != IEEE80211_EAPOL_KEY_TYPE_RSN) {
        trace_wifi_ap_ub_frame(s->ssid, "not an RSN EAPOL-Key frame", len);
        return;
    }
    blen = lduw_be_p(&eh->length);
    if (blen < sizeof(*k) || blen + sizeof(*eh) > len ||
        blen + sizeof(*eh) > EAPOL_KEY_LEN + 256 ||
        sizeof(*k) + lduw_be_p(&k->key_data_length) > blen) {
        trace_wifi_ap_ub_frame(s->ssid, "EAPOL-Key lengths", len);
        return;
    }
    len = blen + sizeof(*eh);
    info = lduw_be_p(&k->key_info);
    if ((info & 7) != KI_VER_AES_SHA1 || !(info & KI_PAIRWISE) ||
        !(info & KI_MIC) || (info & KI_ACK) ||
        ldq_be_p(&k->replay_counter) != w->replay) {
        trace_wifi_ap_wpa(s->ssid, MAC_ARG(sta->addr), 0,
                          "EAPOL-Key ignored (info, replay counter)");
        return;
    }
    if (w->state == WPA_MSG1 && !(info & KI_SECURE)) {
        /* message 2: PTK = PRF-384(PMK, "Pairwise key expansion", ...) */
        const uint8_t *aa = wifi_ap_bssid(s), *spa = sta->addr;
        const uint8_t *snonce = k->key_nonce;
        /* Min(AA, SPA) || Max(AA, SPA) || Min(ANonce, SNonce) || Max(...) */
        struct QEMU_PACKED {
            uint8_t addr_min[IEEE80211_ADDR_LEN];
            uint8_t addr_max[IEEE80211_ADDR_LEN];
            uint8_t nonce_min[WPA_NONCE_LEN];
            uint8_t nonce_max[WPA_NONCE_LEN];
        } data;
        uint8_t ptk[WPA_PTK_LEN];
        bool a_first = memcmp(aa, spa, IEEE80211_ADDR_LEN) < 0;
        bool an_first = memcmp(w->anonce, snonce, WPA_NONCE_LEN) < 0;

        QEMU_BUILD_BUG_ON(sizeof(data) != 76);
        QEMU_BUILD_BUG_ON(sizeof(k->key_nonce) != WPA_NONCE_LEN);
        memcpy(data.addr_min, a_first ? aa : spa, IEEE80211_ADDR_LEN);
        memcpy(data.addr_max, a_first ? spa : aa, IEEE80211_ADDR_LEN);
        memcpy(data.nonce_min, an_first ? w->anonce : snonce, WPA_NONCE_LEN);
        memcpy(data.nonce_max, an_first ? snonce : w->anonce, WPA_NONCE_LEN);
        wifi_prf_sha1(s->pmk, sizeof(s->pmk), "Pairwise key expansion",
                      (const uint8_t *)&data, sizeof(data), ptk, sizeof(ptk));
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

/*
 * A retry of the last frame of its TID from @sta (the ACK was lost): a
 * duplicate, dropped.  @f has its @hdr bytes of header.
 */
static bool wifi_ap_rx_dup(WifiApSta *sta, const uint8_t *f, size_t hdr)
{
    unsigned tid = ieee80211_is_qos_data(f) ?
                   (f[hdr - IEEE80211_QOS_LEN] & IEEE80211_QOS_TID_MASK) : 16;
    uint16_t sc = lduw_le_p(f + IEEE80211_SEQ_OFF);

    if ((f[1] & IEEE80211_FC1_RETRY) && (sta->sc_valid & BIT(tid)) &&
        sta->last_sc[tid] == sc) {
        return true;
    }
    sta->last_sc[tid] = sc;
    sta->sc_valid |= BIT(tid);
    return false;
}

/*
 * A protected frame (@len bytes, @hdr of header) from @sta: decrypted into
 * @plain with its pairwise key (CCMP), its PN checked against replay and
 * kept, the CCMP header and MIC taken out (*@len its length then).  NULL:
 * dropped.
 */
static const uint8_t *wifi_ap_rx_ccmp(WifiApState *s, WifiApSta *sta,
                                      const uint8_t *f, size_t *len,
                                      size_t hdr, uint8_t *plain)
{
    WifiApWpa *w = &sta->wpa;
    uint64_t pn;

    if (!s->passphrase) {
        trace_wifi_ap_ub_frame(s->ssid, "protected frame, open network",
                               *len);
        return NULL;
    }
    if ((w->state != WPA_MSG3 && w->state != WPA_DONE) ||
        *len > WIFI_MAX_FRAME) {
        trace_wifi_ap_ub_frame(s->ssid, "protected frame, no key", *len);
        return NULL;
    }
    memcpy(plain, f, *len);
    if (!wifi_decrypt(WIFI_CIPHER_CCMP, w->ptk + WPA_PTK_TK_OFF, plain,
                      *len)) {
        trace_wifi_ap_ub_frame(s->ssid, "CCMP: does not authenticate", *len);
        return NULL;
    }
    pn = wifi_frame_pn(WIFI_CIPHER_CCMP, plain, *len);
    if (pn <= w->rx_pn) {
        trace_wifi_ap_ub_frame(s->ssid, "CCMP: replayed PN", *len);
        return NULL;
    }
    w->rx_pn = pn;
    /* strip CCMP header and MIC */
    *len -= WIFI_CCMP_HDR_LEN + WIFI_CCMP_MIC_LEN;
    if (*len < hdr) {
        return NULL;
    }
    memmove(plain + hdr, plain + hdr + WIFI_CCMP_HDR_LEN, *len - hdr);
    return plain;
}

/*
 * An MSDU from @sa to @da (@llc: its LLC/SNAP header, @plen bytes after
 * it) to the network as an Ethernet frame; to the BSS as well when it is
 * for one of its stations (then only there) or a group
 */
static void wifi_ap_bridge(WifiApState *s, const uint8_t *sa,
                           const uint8_t *da,
                           const struct ieee80211_llc_snap *llc, size_t plen)
{
    struct {
        struct eth_header h;
        uint8_t payload[WIFI_MAX_FRAME];
    } eth;

    QEMU_BUILD_BUG_ON(offsetof(typeof(eth), payload) != ETH_HLEN);
    memcpy(eth.h.h_dest, da, ETH_ALEN);
    memcpy(eth.h.h_source, sa, ETH_ALEN);
    eth.h.h_proto = llc->ethertype;                 /* big-endian both */
    memcpy(eth.payload, llc + 1, plen);
    trace_wifi_ap_to_net(s->ssid, MAC_ARG(sa), plen + ETH_HLEN);

    /* intra-BSS: to another associated station, or a group address */
    if (ieee80211_is_group(da) || wifi_ap_sta(s, da, false)) {
        wifi_ap_send_data(s, da, sa, (const uint8_t *)llc,
                          sizeof(*llc) + plen, false);
        if (!ieee80211_is_group(da)) {
            return;
        }
    }
    qemu_send_packet(qemu_get_queue(s->nic), (const uint8_t *)&eth,
                     plen + ETH_HLEN);
}

void wifi_ap_rx_data(WifiApState *s, WifiApSta *sta, unsigned subtype,
                     const uint8_t *f, size_t len)
{
    size_t hdr = IEEE80211_HDR_LEN +
                 (ieee80211_is_qos_data(f) ? IEEE80211_QOS_LEN : 0);
    const uint8_t *sa = ieee80211_addr2(f), *da = ieee80211_addr3(f);
    uint8_t plain[WIFI_MAX_FRAME];
    const struct ieee80211_llc_snap *llc;
    bool protected = f[1] & IEEE80211_FC1_PROTECTED;

    if ((f[1] & (IEEE80211_FC1_TODS | IEEE80211_FC1_FROMDS)) !=
        IEEE80211_FC1_TODS ||
        memcmp(ieee80211_addr1(f), wifi_ap_bssid(s), IEEE80211_ADDR_LEN)) {
        return;
    }
    if (!sta || sta->state != STA_ASSOC) {
        wifi_ap_deauth(s, sa, WLAN_REASON_CLASS3_NONASSOC);
        return;
    }
    if (subtype & IEEE80211_STYPE_NULLFUNC) {
        return;         /* (QoS) null function: no payload */
    }
    if (len < hdr) {
        return;
    }
    if (wifi_ap_rx_dup(sta, f, hdr)) {
        trace_wifi_ap_ub_frame(s->ssid, "duplicate (retry)", len);
        return;
    }
    if (protected) {
        f = wifi_ap_rx_ccmp(s, sta, f, &len, hdr, plain);
        if (!f) {
            return;
        }
    }
    llc = (const struct ieee80211_llc_snap *)(f + hdr);
    if (len < hdr + sizeof(*llc) || !ieee80211_is_rfc1042(llc)) {
        trace_wifi_ap_ub_frame(s->ssid, "no RFC 1042 header", len);
        return;
    }
    if (s->passphrase && lduw_be_p(&llc->ethertype) == ETH_P_PAE) {
        wifi_ap_eapol_rx(s, sta, (const uint8_t *)(llc + 1),
                         len - hdr - sizeof(*llc));
        return;
    }
    if (s->passphrase && (!protected || sta->wpa.state != WPA_DONE)) {
        trace_wifi_ap_ub_frame(s->ssid, "data before the 4-way handshake "
                               "or unprotected", len);
        return;
    }
    wifi_ap_sta_passed_data(sta);
    wifi_ap_bridge(s, sa, da, llc, len - hdr - sizeof(*llc));
}
