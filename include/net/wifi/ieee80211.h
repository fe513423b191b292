/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The 802.11 vocabulary shared by the Wi-Fi medium, the virtual access
 * point and the emulated cards: frame control, header layout and
 * addresses, sequence control, information elements, channels and rates
 * (IEEE Std 802.11-2020, clauses 9 and 15-19).
 *
 * Frames are byte arrays as on the air (little-endian fields); the
 * accessors take the frame and trust the caller to have checked that the
 * bytes they read are there (IEEE80211_HDR_LEN, or 10 for control frames).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_IEEE80211_H
#define NET_WIFI_IEEE80211_H

#include "qemu/bswap.h"

/* ---- frame control (9.2.4.1) ------------------------------------------ */

/* first byte: protocol version, type, subtype */
#define IEEE80211_FC0_VERSION_MASK      0x03
#define IEEE80211_FC0_TYPE_MASK         0x0c
#define IEEE80211_FC0_TYPE_SHIFT        2
#define IEEE80211_FC0_SUBTYPE_SHIFT     4
#define IEEE80211_FC0_QOS               0x80    /* data subtype bit 3 */

#define IEEE80211_TYPE_MGMT             0
#define IEEE80211_TYPE_CTRL             1
#define IEEE80211_TYPE_DATA             2

/* management subtypes */
#define IEEE80211_STYPE_ASSOC_REQ       0
#define IEEE80211_STYPE_ASSOC_RESP      1
#define IEEE80211_STYPE_REASSOC_REQ     2
#define IEEE80211_STYPE_REASSOC_RESP    3
#define IEEE80211_STYPE_PROBE_REQ       4
#define IEEE80211_STYPE_PROBE_RESP      5
#define IEEE80211_STYPE_BEACON          8
#define IEEE80211_STYPE_DISASSOC        10
#define IEEE80211_STYPE_AUTH            11
#define IEEE80211_STYPE_DEAUTH          12
/* control subtypes */
#define IEEE80211_STYPE_RTS             11
#define IEEE80211_STYPE_CTS             12
#define IEEE80211_STYPE_ACK             13
/* data subtypes */
#define IEEE80211_STYPE_DATA            0
#define IEEE80211_STYPE_NULLFUNC        4

/* the first frame-control byte of a frame of @type and @subtype */
#define IEEE80211_FC0(type, subtype) \
    ((type) << IEEE80211_FC0_TYPE_SHIFT | \
     (subtype) << IEEE80211_FC0_SUBTYPE_SHIFT)
#define IEEE80211_FC0_ACK \
    IEEE80211_FC0(IEEE80211_TYPE_CTRL, IEEE80211_STYPE_ACK)   /* 0xd4 */

/* second byte: flags */
#define IEEE80211_FC1_TODS              0x01
#define IEEE80211_FC1_FROMDS            0x02
#define IEEE80211_FC1_MOREFRAGS         0x04
#define IEEE80211_FC1_RETRY             0x08
#define IEEE80211_FC1_PM                0x10
#define IEEE80211_FC1_MOREDATA          0x20
#define IEEE80211_FC1_PROTECTED         0x40
#define IEEE80211_FC1_ORDER             0x80

/* ---- header layout (9.3) ---------------------------------------------- */

#define IEEE80211_ADDR_LEN              6
#define IEEE80211_DURATION_OFF          2
#define IEEE80211_ADDR1_OFF             4       /* RA / DA */
#define IEEE80211_ADDR2_OFF             10      /* TA / SA */
#define IEEE80211_ADDR3_OFF             16
#define IEEE80211_SEQ_OFF               22
#define IEEE80211_ADDR4_OFF             24
#define IEEE80211_HDR_LEN               24      /* three addresses */
#define IEEE80211_HDR4_LEN              30      /* four addresses */
#define IEEE80211_QOS_LEN               2
#define IEEE80211_QOS_TID_MASK          0x0f    /* of the QoS control */
#define IEEE80211_ACK_LEN               10      /* FC, duration, RA */
#define IEEE80211_FCS_LEN               4
/* the shortest frame with a transmitter address (RTS, and longer) */
#define IEEE80211_TA_END                (IEEE80211_ADDR2_OFF + 6)

static inline unsigned ieee80211_type(const uint8_t *f)
{
    return (f[0] & IEEE80211_FC0_TYPE_MASK) >> IEEE80211_FC0_TYPE_SHIFT;
}

static inline unsigned ieee80211_subtype(const uint8_t *f)
{
    return f[0] >> IEEE80211_FC0_SUBTYPE_SHIFT;
}

static inline bool ieee80211_is_mgmt(const uint8_t *f)
{
    return ieee80211_type(f) == IEEE80211_TYPE_MGMT;
}

static inline bool ieee80211_is_ctrl(const uint8_t *f)
{
    return ieee80211_type(f) == IEEE80211_TYPE_CTRL;
}

/* a frame with a transmitter address (addr2): not a control frame */
static inline bool ieee80211_has_ta(const uint8_t *f, size_t len)
{
    return len >= IEEE80211_TA_END && !ieee80211_is_ctrl(f);
}

static inline bool ieee80211_is_data(const uint8_t *f)
{
    return ieee80211_type(f) == IEEE80211_TYPE_DATA;
}

static inline bool ieee80211_is_qos_data(const uint8_t *f)
{
    return ieee80211_is_data(f) && (f[0] & IEEE80211_FC0_QOS);
}

/* a data frame with both DS bits: the four-address format */
static inline bool ieee80211_has_a4(const uint8_t *f)
{
    return ieee80211_is_data(f) &&
           (f[1] & (IEEE80211_FC1_TODS | IEEE80211_FC1_FROMDS)) ==
           (IEEE80211_FC1_TODS | IEEE80211_FC1_FROMDS);
}

static inline const uint8_t *ieee80211_addr1(const uint8_t *f)
{
    return f + IEEE80211_ADDR1_OFF;
}

static inline const uint8_t *ieee80211_addr2(const uint8_t *f)
{
    return f + IEEE80211_ADDR2_OFF;
}

static inline const uint8_t *ieee80211_addr3(const uint8_t *f)
{
    return f + IEEE80211_ADDR3_OFF;
}

/* sequence control (9.2.4.4): sequence number and fragment number */
static inline uint16_t ieee80211_seq(const uint8_t *f)
{
    return lduw_le_p(f + IEEE80211_SEQ_OFF) >> 4;
}

static inline void ieee80211_set_seq(uint8_t *f, uint16_t seq)
{
    stw_le_p(f + IEEE80211_SEQ_OFF, (seq & 0xfff) << 4);
}

/* group (multicast/broadcast) address: the I/G bit */
static inline bool ieee80211_is_group(const uint8_t *addr)
{
    return addr[0] & 1;
}

/* ---- information elements (9.4.2) ------------------------------------- */

#define IEEE80211_EID_SSID              0
#define IEEE80211_EID_RATES             1
#define IEEE80211_EID_DS_PARAMS         3
#define IEEE80211_EID_TIM               5
#define IEEE80211_EID_IBSS_PARAMS       6
#define IEEE80211_EID_ERP               42
#define IEEE80211_EID_RSN               48
#define IEEE80211_EID_EXT_RATES         50
#define IEEE80211_EID_VENDOR            221

/* append element @id with @len bytes of @data at @p; returns its size */
static inline size_t ieee80211_put_ie(uint8_t *p, uint8_t id,
                                      const void *data, uint8_t len)
{
    p[0] = id;
    p[1] = len;
    memcpy(p + 2, data, len);
    return 2 + len;
}

/*
 * Walk the elements from @p to @end; return element @id or NULL.  Stops at
 * the first element that does not fit before @end.
 */
static inline const uint8_t *ieee80211_find_ie(const uint8_t *p,
                                               const uint8_t *end, uint8_t id)
{
    while (end - p >= 2 && p[1] <= end - p - 2) {
        if (p[0] == id) {
            return p;
        }
        p += 2 + p[1];
    }
    return NULL;
}

/* ---- management frame bodies (9.3.3) ---------------------------------- */

/*
 * The fixed fields of management frame bodies, little-endian on the air:
 * read and write them with lduw_le_p()/stw_le_p() and friends on the
 * field's address (the structs are packed, the frame buffer unaligned).
 */

/* beacon and probe response (9.3.3.2, 9.3.3.10): then the elements */
struct ieee80211_beacon_fixed {
    uint64_t timestamp;
    uint16_t beacon_int;
    uint16_t capab;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_beacon_fixed) != 12);

/* capability information (9.4.1.4) */
#define IEEE80211_CAPAB_ESS             0x0001
#define IEEE80211_CAPAB_PRIVACY         0x0010
#define IEEE80211_CAPAB_SHORT_SLOT      0x0400

/* authentication (9.3.3.12): then challenge text etc. */
struct ieee80211_auth {
    uint16_t alg;
    uint16_t seq;
    uint16_t status;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_auth) != 6);

#define IEEE80211_AUTH_ALG_OPEN         0

/* association request (9.3.3.6); reassociation request adds the AP */
struct ieee80211_assoc_req {
    uint16_t capab;
    uint16_t listen_int;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_assoc_req) != 4);

struct ieee80211_reassoc_req {
    uint16_t capab;
    uint16_t listen_int;
    uint8_t current_ap[IEEE80211_ADDR_LEN];
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_reassoc_req) != 10);

/* (re)association response (9.3.3.7): then the elements */
struct ieee80211_assoc_resp {
    uint16_t capab;
    uint16_t status;
    uint16_t aid;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_assoc_resp) != 6);

/* the two top bits set in an AID field (9.4.1.8) */
#define IEEE80211_AID_FLAGS             0xc000

/* deauthentication and disassociation (9.3.3.13, 9.3.3.5) */
struct ieee80211_deauth {
    uint16_t reason;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_deauth) != 2);

/* ---- RSN (9.4.2.24, 12.7) --------------------------------------------- */

/* a cipher or AKM suite selector: OUI 00-0F-AC and a type */
struct ieee80211_suite {
    uint8_t oui[3];
    uint8_t type;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_suite) != 4);

#define IEEE80211_CIPHER_CCMP           4       /* suite type */
#define IEEE80211_AKM_PSK               2       /* suite type */

/*
 * An RSN element with one pairwise cipher and one AKM suite (the counts
 * are little-endian), then the RSN capabilities.
 */
struct ieee80211_rsn_ie1 {
    uint8_t eid;
    uint8_t len;
    uint16_t version;
    struct ieee80211_suite group;
    uint16_t pairwise_count;
    struct ieee80211_suite pairwise;
    uint16_t akm_count;
    struct ieee80211_suite akm;
    uint16_t capab;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_rsn_ie1) != 22);

/* ---- LLC/SNAP (RFC 1042) and the CCMP header (12.5.3.2) ---------------- */

/* the RFC 1042 encapsulation of an Ethernet frame; ethertype big-endian */
struct ieee80211_llc_snap {
    uint8_t dsap;
    uint8_t ssap;
    uint8_t ctrl;
    uint8_t oui[3];
    uint16_t ethertype;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_llc_snap) != 8);

/* write the RFC 1042 header with @ethertype at @h */
static inline void ieee80211_put_llc_snap(struct ieee80211_llc_snap *h,
                                          uint16_t ethertype)
{
    h->dsap = 0xaa;
    h->ssap = 0xaa;
    h->ctrl = 0x03;                     /* UI */
    memset(h->oui, 0, sizeof(h->oui));
    stw_be_p(&h->ethertype, ethertype);
}

/* @h (LLC/SNAP, its 8 bytes there) is an RFC 1042 header */
static inline bool ieee80211_is_rfc1042(const struct ieee80211_llc_snap *h)
{
    return h->dsap == 0xaa && h->ssap == 0xaa && h->ctrl == 0x03 &&
           !h->oui[0] && !h->oui[1] && !h->oui[2];
}

/* PN0 PN1 reserved key-ID octet PN2..PN5 */
struct ieee80211_ccmp_hdr {
    uint8_t pn0;
    uint8_t pn1;
    uint8_t rsvd;
    uint8_t keyid;              /* ExtIV (0x20) | key ID << 6 */
    uint32_t pn2_5;             /* little-endian */
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_ccmp_hdr) != 8);

#define IEEE80211_CCMP_EXT_IV           0x20
#define IEEE80211_CCMP_KEYID_SHIFT      6

/* ---- EAPOL-Key (IEEE 802.1X-2004 7.5, IEEE 802.11-2020 12.7.2) ---------- */

/* the EAPOL header; body length big-endian */
struct ieee8021x_hdr {
    uint8_t version;
    uint8_t type;
    uint16_t length;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee8021x_hdr) != 4);

#define IEEE8021X_VERSION_2004          2
#define IEEE8021X_TYPE_EAPOL_KEY        3

/* the EAPOL-Key descriptor up to its key data, big-endian fields */
struct ieee80211_eapol_key {
    uint8_t type;
    uint16_t key_info;
    uint16_t key_length;
    uint64_t replay_counter;
    uint8_t key_nonce[32];
    uint8_t key_iv[16];
    uint8_t key_rsc[8];
    uint8_t key_id[8];          /* reserved */
    uint8_t key_mic[16];
    uint16_t key_data_length;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_eapol_key) != 95);

#define IEEE80211_EAPOL_KEY_TYPE_RSN    2

/* a KDE (12.7.2, table 12-9): a vendor element, OUI 00-0F-AC, a type */
struct ieee80211_kde_hdr {
    uint8_t eid;                /* IEEE80211_EID_VENDOR */
    uint8_t len;
    uint8_t oui[3];
    uint8_t type;
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_kde_hdr) != 6);

#define IEEE80211_KDE_GTK               1

/* the GTK KDE with a 16-byte (CCMP) GTK */
struct ieee80211_gtk_kde {
    struct ieee80211_kde_hdr hdr;
    uint8_t keyid;              /* key ID (bits 0-1), Tx (bit 2) */
    uint8_t rsvd;
    uint8_t gtk[16];
} QEMU_PACKED;
QEMU_BUILD_BUG_ON(sizeof(struct ieee80211_gtk_kde) != 24);

/* ---- channels (15.4.4.3, 17.3.8.4.2) ---------------------------------- */

/*
 * The centre frequency of channel @chan: 2.4 GHz for 1..14, else the
 * 5 GHz band's 5000 + 5 * @chan; 0 if none.
 */
static inline uint32_t ieee80211_chan_to_freq(unsigned chan)
{
    if (chan >= 15 && chan <= 199) {
        return 5000 + 5 * chan;
    }
    if (chan == 14) {
        return 2484;
    }
    if (chan >= 1 && chan <= 13) {
        return 2407 + 5 * chan;
    }
    return 0;
}

/* the channel of a centre frequency in MHz (2.4 or 5 GHz), 0 if none */
static inline unsigned ieee80211_freq_to_chan(uint32_t mhz)
{
    if (mhz == 2484) {
        return 14;
    }
    if (mhz >= 2412 && mhz <= 2472 && (mhz - 2407) % 5 == 0) {
        return (mhz - 2407) / 5;
    }
    if (mhz > 5000 && mhz < 6000 && mhz % 5 == 0) {
        return (mhz - 5000) / 5;
    }
    return 0;
}

/* ---- rates (units of 500 kb/s, as in a Supported Rates element) -------- */

#define IEEE80211_RATE_BASIC            0x80    /* in a rates element */
#define IEEE80211_RATE_1M               2
#define IEEE80211_RATE_2M               4
#define IEEE80211_RATE_5M5              11
#define IEEE80211_RATE_11M              22
#define IEEE80211_RATE_6M               12
#define IEEE80211_RATE_54M              108

/* a DSSS/HR-DSSS (802.11b, "CCK") rate: 1, 2, 5.5 or 11 Mb/s */
static inline bool ieee80211_rate_is_cck(uint16_t rate_500k)
{
    return rate_500k == IEEE80211_RATE_1M || rate_500k == IEEE80211_RATE_2M ||
           rate_500k == IEEE80211_RATE_5M5 || rate_500k == IEEE80211_RATE_11M;
}

#endif
