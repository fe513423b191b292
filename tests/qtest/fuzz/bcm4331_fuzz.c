/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fuzz targets "bcm4331-peer" and "bcm4331-peer-wpa2": the fuzz input is
 * what a peer process sends on the air's netdev (include/net/wifi/
 * air-proto.h), so management frames, EAPOL and data reach the virtual
 * access point and the card's RX path, interleaved with frames the card
 * itself transmits.
 *
 *   -object wifi-medium,id=air0,netdev=l0 -netdev hubport,id=l0,hubid=0
 *   -device wifi-ap,medium=air0,... -device bcm4331,medium=air0
 *
 * The peer is the hub port l0 itself: qemu_send_packet() on it delivers to
 * its peer, the medium's link (wifi_medium_link_receive()), synchronously and
 * deterministically; what the medium sends to the netdev goes to a hub
 * with no other port.  Before each input the card is brought up as b43
 * does it (firmware stub, channel 6, RX ring on engine 0, TX ring on
 * engine 1; qbcm_card_up() of tests/qtest/libqos/bcm43xx.c).
 *
 * Input: records { uint8_t kind; uint8_t flags; uint16_t len (LE); data };
 * kind & 15 selects (10..15 are 2..7 again, the kinds of kind % 8 before
 * 8 and 9 came):
 *   kind = 0      an 802.11 frame (data, no FCS) from the peer in a valid
 *                 air header: flags bit 0 OFDM, 1 short preamble, 2 FCS
 *                 bad, 3 channel 1 instead of 6, 7:4 rate index
 *              1  a raw netdev packet (Ethernet + air header + frame)
 *              2  the virtual clock steps by len + 1 microseconds (no data)
 *              3  a card register write: data = u16 offset, u32 value
 *              4  a card register read: data = u16 offset
 *              5  the card transmits data (an 802.11 frame) through its
 *                 TX ring: flags bit 0 ACK wanted, bit 1 OFDM, 7:4 rate
 *                 index; mac_ctl key bits from the data's first byte
 *                 when flags bit 2 is set
 *              6  the card's mode (b43_adjust_opmode()): flags bits 1:0
 *                 0 station, 1 access point, 2 monitor (promiscuous,
 *                 keeping control frames and bad FCS/PLCP), 3 ad hoc
 *              7  a hardware key (b43's key_write()/keymac_write()):
 *                 data = u8 slot, u8 algorithm, key bytes (up to 16);
 *                 flags bit 0: the peer's address in the slot's RCMTA
 *                 entry, bit 1: static default keys (HF_USEDEFKEYS)
 *              8  an EAPOL-Key message 2 or 4 of the 4-way handshake the
 *                 target makes itself (bcm4331-peer-wpa2): the ANonce and
 *                 replay counter are those of the AP's last message 1/3
 *                 to that station, as seen on the air's netdev; the PTK is
 *                 derived from the AP's passphrase, the ANonce and a fixed
 *                 SNonce, and the MIC computed with it.  data = a mask
 *                 XORed onto the EAPOL frame (bytes past its end are
 *                 appended).  flags bit 0: message 4 (else 2), bit 1: the
 *                 MIC is computed over the masked frame (a valid message
 *                 with these changes; else the mask also hits the MIC),
 *                 bit 2: key data = the RSN element, bit 3: the card sends
 *                 it (through its TX ring) instead of the peer, bit 4:
 *                 CCMP-protected with that station's PTK, bit 5: QoS data
 *              9  a data frame CCMP-protected with the station's PTK (from
 *                 kind 8's handshake): data = DA (6 bytes; broadcast if
 *                 shorter), then the body (LLC/SNAP ...).  flags bit 0:
 *                 QoS, bit 1: the last packet number again (a replay),
 *                 bit 2: a wrong key, bit 3: the card sends it, bit 4:
 *                 not protected at all
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/main-loop.h"
#include "net/net.h"
#include "tests/qtest/libqtest.h"
#include "tests/qtest/libqos/pci-pc.h"
#include "net/wifi/air-proto.h"
#include "net/wifi/crypto.h"
#include "net/wifi/ieee80211.h"
#include "net/hub.h"
#include "fuzz.h"
#include "tests/qtest/libqos/bcm43xx.h"

#define CARD_DEVFN      QPCI_DEVFN(4, 0)
#define MACCTL_INFRA    (1u << 17)
#define MACCTL_AP       (1u << 18)
#define MACCTL_MONITOR  (0x17u << 20)   /* BEACPROMISC, KEEP_*, PROMISC */
#define RING_SLOTS      256

/* guest memory of the card (as the qtests lay it out) */
#define TXRING          0x1000000ull
#define RXRING          0x1002000ull
#define TXBUF           0x1010000ull
#define RXBUF           0x1100000ull

static const uint8_t card_mac[6] = { 2, 0, 0, 0, 0, 1 };
static const uint8_t peer_mac[6] = { 2, 7, 7, 7, 7, 7 };
static const uint8_t ap_bssid[6] = { 2, 0xaa, 0, 0, 0, 1 };
static const uint8_t llc_eapol[8] = { 0xaa, 0xaa, 3, 0, 0, 0, 0x88, 0x8e };
static const uint8_t rsn_ie[22] = {
    48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4,
    1, 0, 0x00, 0x0f, 0xac, 2, 0, 0,
};
static const uint8_t ofdm_codes[8] = { 0xb, 0xf, 0xa, 0xe, 0x9, 0xd, 0x8, 0xc };
static const uint16_t ofdm_rates[8] = { 12, 18, 24, 36, 48, 72, 96, 108 };
static const uint8_t cck_plcp[4] = { 0x0a, 0x14, 0x37, 0x6e };
static const uint16_t cck_rates[4] = { 2, 4, 11, 22 };

typedef struct {
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar bar0;
    unsigned txslot;
} PeerCard;

static NetClientState *peer_nc;

/*
 * The 4-way handshake as a station does it (IEEE 802.11-2020 12.7.6), for
 * the peer (0) and the card (1): what the AP last sent that station
 * (EAPOL-Key with the ACK bit: message 1 or 3), the PTK of the station's
 * last message 2, the packet number of its protected frames.
 */
#define EAPOL_KEY_LEN       99      /* EAPOL header + key descriptor */
#define EAPOL_MIC_OFF       81
#define KI_VER_AES_SHA1     2
#define KI_PAIRWISE         0x0008
#define KI_ACK              0x0080
#define KI_MIC              0x0100
#define KI_SECURE           0x0200

typedef struct {
    const uint8_t *addr;
    bool seen;                  /* an EAPOL-Key from the AP */
    uint64_t replay;
    uint8_t anonce[32];
    uint8_t ptk[48];            /* KCK | KEK | TK */
    uint64_t pn;
} WpaSta;

static WpaSta wpa_sta[2];
static uint8_t wpa_pmk[32];
static uint16_t wpa_seq;

/* what the medium sends to the other processes: the AP's EAPOL-Key */
static ssize_t wpa_observe(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    WifiAirFrame af;
    const uint8_t *f, *e, *k;
    size_t h;

    if (wifi_air_decode(buf, size, &af) != WIFI_AIR_OK || af.frags != 1) {
        return size;
    }
    f = af.frame;
    h = IEEE80211_HDR_LEN + (ieee80211_is_qos_data(f) ? IEEE80211_QOS_LEN : 0);
    if (af.len < h + sizeof(llc_eapol) + EAPOL_KEY_LEN ||
        !ieee80211_is_data(f) || (f[1] & IEEE80211_FC1_PROTECTED) ||
        memcmp(f + 10, ap_bssid, 6) || memcmp(f + h, llc_eapol, 8)) {
        return size;
    }
    e = f + h + sizeof(llc_eapol);
    k = e + 4;
    if (e[1] != 3 || k[0] != 2 || !(lduw_be_p(k + 1) & KI_ACK)) {
        return size;
    }
    for (int i = 0; i < ARRAY_SIZE(wpa_sta); i++) {
        WpaSta *w = &wpa_sta[i];

        if (!memcmp(f + 4, w->addr, 6)) {
            w->seen = true;
            w->replay = ldq_be_p(k + 5);
            memcpy(w->anonce, k + 13, 32);
        }
    }
    return size;
}

static NetClientInfo wpa_observer_info = {
    .type = NET_CLIENT_DRIVER_NONE,
    .size = sizeof(NetClientState),
    .receive = wpa_observe,
};

/* the station's PTK: PRF-384(PMK, "Pairwise key expansion", ...) */
static void wpa_ptk(WpaSta *w, const uint8_t *snonce)
{
    uint8_t data[76];
    bool a_first = memcmp(ap_bssid, w->addr, 6) < 0;
    bool an_first = memcmp(w->anonce, snonce, 32) < 0;

    memcpy(data, a_first ? ap_bssid : w->addr, 6);
    memcpy(data + 6, a_first ? w->addr : ap_bssid, 6);
    memcpy(data + 12, an_first ? w->anonce : snonce, 32);
    memcpy(data + 44, an_first ? snonce : w->anonce, 32);
    wifi_prf_sha1(wpa_pmk, sizeof(wpa_pmk), "Pairwise key expansion", data,
                  sizeof(data), w->ptk, sizeof(w->ptk));
}

static void wl(PeerCard *c, uint32_t off, uint32_t v)
{
    qpci_io_writel(c->dev, c->bar0, off, v);
}

static void ww(PeerCard *c, uint32_t off, uint16_t v)
{
    qpci_io_writew(c->dev, c->bar0, off, v);
}

static uint32_t rl(PeerCard *c, uint32_t off)
{
    return qpci_io_readl(c->dev, c->bar0, off);
}

static void desc(QTestState *s, uint64_t at, uint32_t ctl0, uint32_t len,
                 uint64_t addr, uint8_t *out)
{
    uint32_t d[4] = {
        cpu_to_le32(ctl0),
        cpu_to_le32(len | ((addr >> 62) << 16)),
        cpu_to_le32(addr),
        cpu_to_le32(((addr >> 32) & 0x3fffffff) | 0x80000000),
    };

    if (out) {
        memcpy(out, d, sizeof(d));
    } else {
        qtest_memwrite(s, at, d, sizeof(d));
    }
}

/* what b43 does up to a running interface on channel 6 */
static void card_up(QTestState *s, PeerCard *c)
{
    g_autofree uint8_t *ring = g_malloc0(16 * RING_SLOTS);

    c->bus = qpci_new_pc(s, NULL);
    c->dev = qpci_device_find(c->bus, CARD_DEVFN);
    g_assert_nonnull(c->dev);
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
    c->txslot = 0;
    qbcm43xx_core_up(c->dev, c->bar0);
    qbcm43xx_fw_start(c->dev, c->bar0);
    qbcm43xx_radio_up(c->dev, c->bar0, card_mac);
    qbcm43xx_set_ring(c->dev, c->bar0, 1, false, TXRING);
    for (int k = 0; k < RING_SLOTS; k++) {
        desc(s, 0, k == RING_SLOTS - 1 ? D11_DESC_CTL0_DTABLEEND : 0,
             D11_RX_FW598_BUFSIZE, RXBUF + 2400 * k, ring + 16 * k);
    }
    qtest_memwrite(s, RXRING, ring, 16 * RING_SLOTS);
    qbcm43xx_set_ring(c->dev, c->bar0, 0, true, RXRING);
    qbcm43xx_enable(c->dev, c->bar0);
}

static void card_down(PeerCard *c)
{
    g_free(c->dev);
    qpci_free_pc(c->bus);
}

/* the card sends @f the way b43's dma_tx_fragment() posts a frame */
static void card_tx(QTestState *s, PeerCard *c, const uint8_t *f, size_t len,
                    uint8_t flags)
{
    uint8_t h[D11_TXH_LEN] = { 0 };
    uint8_t d[32];
    unsigned slot = c->txslot;
    uint64_t hb = TXBUF + slot * 2048;
    bool ofdm = flags & 2;
    uint32_t mac_ctl = (flags & 1 ? 0x1 : 0) | 0x2;

    if (!len) {
        return;
    }
    len = MIN(len, 2048 - 256);
    if ((flags & 4) && len) {
        /* a hardware key: algorithm (bits 18:16), slot (bits 25:20) */
        mac_ctl |= (f[0] & 7) << 16 | ((f[0] >> 3) & 0x3f) << 20;
    }
    stl_le_p(h, mac_ctl);
    stw_le_p(h + 0x08, ofdm ? 1 : 0);
    stw_le_p(h + 0x4c, (2 << 12) | slot);
    h[0x70] = ofdm ? ofdm_codes[(flags >> 4) & 7] : cck_plcp[(flags >> 4) & 3];
    qtest_memwrite(s, hb, h, sizeof(h));
    qtest_memwrite(s, hb + 256, f, len);
    desc(s, 0, D11_DESC_CTL0_SOF, D11_TXH_LEN, hb, d);
    desc(s, 0,
         D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC |
             (slot + 1 == RING_SLOTS - 1 ? D11_DESC_CTL0_DTABLEEND : 0),
         len, hb + 256, d + 16);
    qtest_memwrite(s, TXRING + 16 * slot, d, sizeof(d));
    c->txslot = (slot + 2) % RING_SLOTS;
    wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, c->txslot * 16);
    flush_events(s);
    /* b43 reads the TX status of each frame */
    for (int i = 0; i < 8 && rl(c, D11 + A_D11_XMITSTAT_0); i++) {
        continue;
    }
}

/* b43_adjust_opmode(): station, AP, monitor, ad hoc */
static void card_mode(PeerCard *c, uint8_t flags)
{
    static const uint32_t mode[4] = {
        MACCTL_INFRA, MACCTL_INFRA | MACCTL_AP, MACCTL_INFRA | MACCTL_MONITOR,
        0,
    };
    uint32_t v = rl(c, D11 + A_D11_MACCTL);

    v &= ~(MACCTL_INFRA | MACCTL_AP | MACCTL_MONITOR);
    wl(c, D11 + A_D11_MACCTL, v | mode[flags & 3]);
}

static void shm_w16(PeerCard *c, uint32_t b, uint16_t v)
{
    wl(c, D11 + A_D11_SHM_CONTROL, (1 << 16) | (b >> 2));
    ww(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED : A_D11_SHM_DATA), v);
}

/* b43's key_write() and keymac_write() */
static void card_key(PeerCard *c, const uint8_t *p, size_t len, uint8_t flags)
{
    uint8_t key[16] = { 0 };
    unsigned slot, e;

    if (len < 2) {
        return;
    }
    slot = p[0] % 64;
    memcpy(key, p + 2, MIN(len - 2, sizeof(key)));
    shm_w16(c, D11_SHM_SH_KEYIDXBLOCK + 2 * slot, slot << 4 | (p[1] & 7));
    for (int i = 0; i < 16; i += 2) {
        shm_w16(c, 0x400 * 2 + slot * 16 + i, key[i] | key[i + 1] << 8);
    }
    if ((flags & 1) && slot >= 4) {
        e = slot - 4;
        wl(c, D11 + A_D11_SHM_CONTROL, (4 << 16) | (2 * e));
        wl(c, D11 + A_D11_SHM_DATA, ldl_le_p(peer_mac));
        wl(c, D11 + A_D11_SHM_CONTROL, (4 << 16) | (2 * e + 1));
        ww(c, D11 + A_D11_SHM_DATA, lduw_le_p(peer_mac + 4));
    }
    if (flags & 2) {
        shm_w16(c, D11_SHM_SH_HOSTF1, D11_HF_USEDEFKEYS);
    }
}

/* an air frame from "another process" around @f, channel 6 unless asked */
static void peer_frame(const uint8_t *f, size_t len, uint8_t flags)
{
    uint8_t buf[WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + WIFI_AIR_FRAME_MAX];
    uint8_t *h = buf + WIFI_AIR_ETH_LEN;
    bool ofdm = flags & 1;

    len = MIN(len, WIFI_AIR_FRAME_MAX);
    memset(buf, 0xff, 6);
    memcpy(buf + 6, peer_mac, 6);
    stw_be_p(buf + 12, WIFI_AIR_ETHERTYPE);
    memset(h, 0, WIFI_AIR_HDR_LEN);
    h[0] = WIFI_AIR_VERSION;
    h[1] = flags & WIFI_AIR_F_ALL;
    stw_be_p(h + 2, WIFI_AIR_HDR_LEN);
    stq_be_p(h + 4, 0x7065657200000001ull);        /* the peer's id */
    stl_be_p(h + 12, flags & 8 ? 2412 : 2437);
    h[16] = 15;                                     /* dBm */
    stw_be_p(h + 18, ofdm ? ofdm_rates[(flags >> 4) & 7]
                          : cck_rates[(flags >> 4) & 3]);
    stl_be_p(h + 20, 100);
    stq_be_p(h + 24, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    stl_be_p(h + 32, 3000);                         /* 3 m away (mm) */
    memcpy(h + 48, peer_mac, 6);                    /* its radio */
    stw_be_p(h + 44, len);
    /* in fragments that fit an Ethernet frame, as a medium sends it */
    for (unsigned i = 0; i < wifi_air_frags(len); i++) {
        size_t off = i * WIFI_AIR_FRAG_DATA;
        size_t n = MIN(len - off, WIFI_AIR_FRAG_DATA);

        h[54] = wifi_air_frags(len) > 1 ? i : 0;
        h[55] = wifi_air_frags(len) > 1 ? wifi_air_frags(len) : 0;
        memcpy(h + WIFI_AIR_HDR_LEN, f + off, n);
        qemu_send_packet(peer_nc, buf, WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + n);
    }
}

/*
 * A data frame from station @w to the AP (ToDS, DA @da): the header, a
 * CCMP header with the next packet number when @prot (the body is then
 * encrypted by wpa_send); returns the header length
 */
static size_t wpa_header(uint8_t *f, WpaSta *w, bool qos, bool prot,
                         bool replay, const uint8_t *da)
{
    size_t n = IEEE80211_HDR_LEN;

    f[0] = qos ? 0x88 : 0x08;
    f[1] = IEEE80211_FC1_TODS | (prot ? IEEE80211_FC1_PROTECTED : 0);
    stw_le_p(f + 2, 0);
    memcpy(f + 4, ap_bssid, 6);
    memcpy(f + 10, w->addr, 6);
    memcpy(f + 16, da, 6);
    stw_le_p(f + 22, (++wpa_seq & 0xfff) << 4);
    if (qos) {
        stw_le_p(f + n, 0);
        n += IEEE80211_QOS_LEN;
    }
    if (prot) {
        uint64_t pn = replay && w->pn ? w->pn : ++w->pn;

        f[n] = pn;
        f[n + 1] = pn >> 8;
        f[n + 2] = 0;
        f[n + 3] = 0x20;                        /* ExtIV, key 0 */
        stl_le_p(f + n + 4, pn >> 16);
        n += WIFI_CCMP_HDR_LEN;
    }
    return n;
}

/* @f goes on the air from the peer, or through the card's TX ring */
static void wpa_send(QTestState *s, PeerCard *c, WpaSta *w, uint8_t *f,
                     size_t len, size_t cap, bool prot, bool bad_key)
{
    if (prot) {
        uint8_t tk[16];

        memcpy(tk, w->ptk + 32, sizeof(tk));
        tk[0] ^= bad_key;
        len = wifi_encrypt(WIFI_CIPHER_CCMP, tk, f, len, cap);
        if (!len) {
            return;
        }
    }
    if (w == &wpa_sta[1]) {
        card_tx(s, c, f, len, 0x01 | 0x02 | 0x70);  /* ACK, OFDM 54 */
    } else {
        peer_frame(f, len, 0x01 | 0x70);            /* OFDM 54 */
    }
}

/* kind 8: message 2 or 4 of the 4-way handshake, made here (see above) */
static void wpa_eapol(QTestState *s, PeerCard *c, const uint8_t *mask,
                      size_t mlen, uint8_t flags)
{
    WpaSta *w = &wpa_sta[!!(flags & 8)];
    bool msg4 = flags & 1, mic_after = flags & 2, prot = flags & 16;
    uint8_t f[WIFI_AIR_FRAME_MAX];
    size_t h = wpa_header(f, w, flags & 32, prot, false, ap_bssid);
    uint8_t *e = f + h + sizeof(llc_eapol), *k = e + 4;
    size_t kdl = !msg4 && (flags & 4) ? sizeof(rsn_ie) : 0;
    size_t elen = 4 + 95 + kdl, room;
    uint16_t info = KI_VER_AES_SHA1 | KI_PAIRWISE | KI_MIC |
                    (msg4 ? KI_SECURE : 0);

    room = sizeof(f) - WIFI_CCMP_MIC_LEN - (e - f);
    memcpy(f + h, llc_eapol, sizeof(llc_eapol));
    memset(e, 0, elen);
    e[0] = 2;                                   /* 802.1X-2004 */
    e[1] = 3;                                   /* EAPOL-Key */
    stw_be_p(e + 2, 95 + kdl);
    k[0] = 2;                                   /* RSN key descriptor */
    stw_be_p(k + 1, info);
    stw_be_p(k + 3, msg4 ? 0 : 16);
    stq_be_p(k + 5, w->replay);
    if (!msg4) {
        for (int i = 0; i < 32; i++) {          /* the SNonce */
            k[13 + i] = 0x5a ^ i;
        }
    }
    stw_be_p(k + 93, kdl);
    memcpy(k + 95, rsn_ie, kdl);
    for (int pass = 0; pass < 2; pass++) {
        /* the mask before the MIC, or the MIC before the mask */
        if (pass == !mic_after) {
            mlen = MIN(mlen, room);
            for (size_t i = 0; i < mlen; i++) {
                e[i] = (i < elen ? e[i] : 0) ^ mask[i];
            }
            elen = MAX(elen, mlen);
        } else {
            /* the MIC covers what the length field says, as the AP reads */
            size_t n = MIN(4 + (size_t)lduw_be_p(e + 2), elen);

            if (!msg4) {
                wpa_ptk(w, k + 13);
            }
            if (n >= EAPOL_MIC_OFF + 16) {
                memset(e + EAPOL_MIC_OFF, 0, 16);
                wifi_hmac_sha1_128(w->ptk, e, n, e + EAPOL_MIC_OFF);
            }
        }
    }
    wpa_send(s, c, w, f, e + elen - f, sizeof(f), prot, false);
}

/* kind 9: a (protected) data frame from a station to the AP */
static void wpa_data(QTestState *s, PeerCard *c, const uint8_t *p, size_t len,
                     uint8_t flags)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    WpaSta *w = &wpa_sta[!!(flags & 8)];
    bool prot = !(flags & 16);
    uint8_t f[WIFI_AIR_FRAME_MAX];
    size_t h = wpa_header(f, w, flags & 1, prot, flags & 2,
                          len >= 6 ? p : bcast);

    if (len >= 6) {
        p += 6;
        len -= 6;
    }
    len = MIN(len, sizeof(f) - WIFI_CCMP_MIC_LEN - h);
    memcpy(f + h, p, len);
    wpa_send(s, c, w, f, h + len, sizeof(f), prot, flags & 4);
}

static void bcm4331_peer_fuzz(QTestState *s, const unsigned char *data,
                              size_t size)
{
    PeerCard c;

    for (int i = 0; i < ARRAY_SIZE(wpa_sta); i++) {
        const uint8_t *addr = wpa_sta[i].addr;

        memset(&wpa_sta[i], 0, sizeof(wpa_sta[i]));
        wpa_sta[i].addr = addr;
    }
    wpa_seq = 0;
    card_up(s, &c);
    flush_events(s);
    while (size >= 4) {
        uint8_t kind = data[0] & 15, flags = data[1];
        size_t len = MIN(lduw_le_p(data + 2), size - 4);

        if (kind >= 10) {
            kind &= 7;                  /* as kind % 8 was before 8, 9 */
        }
        const uint8_t *p = data + 4;

        data += 4;
        size -= 4;
        switch (kind) {
        case 0:
            peer_frame(p, len, flags);
            break;
        case 1:
            qemu_send_packet(peer_nc, p, MIN(len, 65535));
            break;
        case 2:
            /* (qtest refuses a step of 0) */
            qtest_clock_step(s, (lduw_le_p(data - 2) + 1) * 1000ull);
            len = 0;                    /* the length was the time */
            break;
        case 3:
            if (len >= 6) {
                wl(&c, lduw_le_p(p) & 0x3ffc, ldl_le_p(p + 2));
            }
            break;
        case 4:
            if (len >= 2) {
                rl(&c, lduw_le_p(p) & 0x3ffc);
            }
            break;
        case 5:
            card_tx(s, &c, p, len, flags);
            break;
        case 6:
            card_mode(&c, flags);
            break;
        case 7:
            card_key(&c, p, len, flags);
            break;
        case 8:
            wpa_eapol(s, &c, p, len, flags);
            break;
        case 9:
            wpa_data(s, &c, p, len, flags);
            break;
        }
        data += len;
        size -= len;
        flush_events(s);
    }
    card_down(&c);
    fuzz_reset(s);
}

static GString *bcm4331_peer_cmdline(FuzzTarget *t)
{
    GString *cmd = g_string_new(TARGET_NAME);

    g_string_append_printf(cmd, " -machine q35,accel=qtest -m 512M "
                           "-display none -nodefaults "
                           "-netdev hubport,id=l0,hubid=0 "
                           "-object wifi-medium,id=air0,netdev=l0,"
                           "pcap=/dev/null%s "
                           "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
                           "bssid=02:aa:00:00:00:01%s "
                           "-device bcm4331,addr=04.0,medium=air0,"
                           "mac=02:00:00:00:00:01 ",
                           t->opaque ? ",airtime=on" : "",
                           t->opaque ? ",passphrase=secret123" :
                           ",netdev=n0 -netdev user,id=n0,restrict=on");
    /* e.g. -trace wifi_ap_wpa to see what an input does */
    if (getenv("BCM_FUZZ_EXTRA_ARGS")) {
        g_string_append_printf(cmd, " %s ", getenv("BCM_FUZZ_EXTRA_ARGS"));
    }
    return cmd;
}

/* the hub port l0 of the targets' command lines, joined to its medium */
static NetClientState *fuzz_netdev_l0(void)
{
    NetClientState *nc = qemu_find_netdev("l0");

    g_assert_nonnull(nc);
    g_assert_nonnull(nc->peer);
    return nc;
}

static void bcm4331_peer_pre_fuzz(QTestState *s)
{
    NetClientState *obs;

    peer_nc = fuzz_netdev_l0();
    /* a second port on l0's hub: what the medium sends reaches wpa_observe */
    obs = qemu_new_net_client(&wpa_observer_info, NULL, "fuzz-observer",
                              "fuzz-observer");
    g_assert_nonnull(net_hub_add_port(0, "fuzz-observer-port", obs));
    wpa_sta[0].addr = peer_mac;
    wpa_sta[1].addr = card_mac;
    /* the PMK of the WPA2 AP (passphrase=secret123, ssid=QEMU) */
    wifi_psk_pmk("secret123", (const uint8_t *)"QEMU", 4, wpa_pmk);
}

static void register_bcm4331_fuzz_targets(void)
{
    fuzz_add_target(&(FuzzTarget){
        .name = "bcm4331-peer",
        .description = "bcm4331 + wifi-ap: frames from a peer on the air's "
                       "netdev, and frames the card sends (open AP bridged "
                       "to user networking)",
        .get_init_cmdline = bcm4331_peer_cmdline,
        .pre_fuzz = bcm4331_peer_pre_fuzz,
        .fuzz = bcm4331_peer_fuzz,
    });
    fuzz_add_target(&(FuzzTarget){
        .name = "bcm4331-peer-wpa2",
        .description = "bcm4331-peer with a WPA2-PSK AP on an air that takes "
                       "real time (airtime=on)",
        .get_init_cmdline = bcm4331_peer_cmdline,
        .pre_fuzz = bcm4331_peer_pre_fuzz,
        .fuzz = bcm4331_peer_fuzz,
        .opaque = (void *)1,
    });
}

fuzz_target_init(register_bcm4331_fuzz_targets);

/*
 * The air's own targets (wifi-scenario, wifi-qmp): a file of their own,
 * compiled here because the overlay hooks this one file into the fuzz
 * build
 */
#include "wifi_air_fuzz.c"
