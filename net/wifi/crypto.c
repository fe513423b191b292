/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 802.11 frame protection: WEP (RC4 + CRC-32 ICV), TKIP (key mixing + RC4;
 * the Michael MIC is the sender's), CCMP (AES-CCM with the 802.11 nonce and
 * AAD), and the WPA2-PSK derivations.  AES is QEMU's (crypto/aes.h, built
 * into every QEMU whatever its crypto backend), HMAC-SHA1 GLib's (the backend
 * of QEMU's own hmac-glib.c); RC4, CCM (RFC 3610), PBKDF2 (RFC 8018) and the
 * AES key wrap (RFC 3394) are the few lines each below, so the Wi-Fi medium
 * builds without nettle, gnutls or libgcrypt.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "net/wifi/crypto.h"
#include "net/wifi/ieee80211.h"
#include "crypto/aes.h"
#include <zlib.h>


size_t wifi_hdrlen(const uint8_t *f, size_t len)
{
    size_t h;

    if (len < 2) {
        return 0;
    }
    /* +HTC (4 bytes) when Order is set in management and QoS data frames */
    switch (ieee80211_type(f)) {
    case IEEE80211_TYPE_MGMT:
        h = IEEE80211_HDR_LEN + ((f[1] & IEEE80211_FC1_ORDER) ? 4 : 0);
        break;
    case IEEE80211_TYPE_DATA:
        h = ieee80211_has_a4(f) ? IEEE80211_HDR4_LEN : IEEE80211_HDR_LEN;
        if (ieee80211_is_qos_data(f)) {
            h += IEEE80211_QOS_LEN + ((f[1] & IEEE80211_FC1_ORDER) ? 4 : 0);
        }
        break;
    default:
        /* control frames carry no protected body */
        return 0;
    }
    return len >= h ? h : 0;
}

size_t wifi_cipher_iv_len(WifiCipher c)
{
    switch (c) {
    case WIFI_CIPHER_WEP40:
    case WIFI_CIPHER_WEP104:
        return WIFI_WEP_IV_LEN;
    case WIFI_CIPHER_TKIP:
        return WIFI_TKIP_IV_LEN;
    case WIFI_CIPHER_CCMP:
        return WIFI_CCMP_HDR_LEN;
    default:
        return 0;
    }
}

size_t wifi_cipher_tail_len(WifiCipher c)
{
    switch (c) {
    case WIFI_CIPHER_WEP40:
    case WIFI_CIPHER_WEP104:
    case WIFI_CIPHER_TKIP:
        return WIFI_ICV_LEN;
    case WIFI_CIPHER_CCMP:
        return WIFI_CCMP_MIC_LEN;
    default:
        return 0;
    }
}

uint64_t wifi_frame_pn(WifiCipher c, const uint8_t *f, size_t len)
{
    size_t h = wifi_hdrlen(f, len);
    const uint8_t *iv = f + h;

    if (!h || len < h + 8) {
        return 0;
    }
    switch (c) {
    case WIFI_CIPHER_CCMP:
        return (uint64_t)iv[0] | (uint64_t)iv[1] << 8 |
               (uint64_t)(uint32_t)ldl_le_p(iv + 4) << 16;
    case WIFI_CIPHER_TKIP:
        return (uint64_t)iv[2] | (uint64_t)iv[0] << 8 |
               (uint64_t)(uint32_t)ldl_le_p(iv + 4) << 16;
    default:
        return 0;
    }
}

/* ---- WEP and the RC4 stage of TKIP ------------------------------------ */

/* RC4 (the ARCFOUR key schedule and generator), in place */
static void rc4(const uint8_t *key, size_t klen, uint8_t *buf, size_t len)
{
    uint8_t st[256], t;
    unsigned i, j = 0;
    size_t k;

    for (i = 0; i < 256; i++) {
        st[i] = i;
    }
    for (i = 0; i < 256; i++) {
        j = (j + st[i] + key[i % klen]) & 0xff;
        t = st[i];
        st[i] = st[j];
        st[j] = t;
    }
    i = j = 0;
    for (k = 0; k < len; k++) {
        i = (i + 1) & 0xff;
        j = (j + st[i]) & 0xff;
        t = st[i];
        st[i] = st[j];
        st[j] = t;
        buf[k] ^= st[(st[i] + st[j]) & 0xff];
    }
}

/* RC4 over body + CRC-32 ICV, seed = the per-frame key */
static void rc4_seal(const uint8_t *seed, size_t seed_len, uint8_t *body,
                     size_t blen)
{
    uint32_t icv = crc32(0, body, blen);

    stl_le_p(body + blen, icv);
    rc4(seed, seed_len, body, blen + WIFI_ICV_LEN);
}

static bool rc4_open(const uint8_t *seed, size_t seed_len, uint8_t *body,
                     size_t blen)
{
    rc4(seed, seed_len, body, blen + WIFI_ICV_LEN);
    return (uint32_t)crc32(0, body, blen) == (uint32_t)ldl_le_p(body + blen);
}

static size_t wep_seed(WifiCipher c, const uint8_t *iv, const uint8_t *key,
                       uint8_t *seed)
{
    size_t klen = c == WIFI_CIPHER_WEP40 ? 5 : 13;

    memcpy(seed, iv, 3);
    memcpy(seed + 3, key, klen);
    return 3 + klen;
}

/* ---- TKIP key mixing --------------------------------------------------- */

/*
 * The TKIP S-box is the AES S-box s(x) as (2·s(x), 3·s(x)) in GF(2^8)
 * (IEEE 802.11-2020 12.5.2.5.2): computed from QEMU's AES_sbox rather than
 * carrying a second 512-byte table.
 */
static uint8_t gf_x2(uint8_t a)
{
    return (a << 1) ^ ((a & 0x80) ? 0x1b : 0);
}

static uint16_t tkip_sbox(uint8_t x)
{
    uint8_t s = AES_sbox[x];

    return gf_x2(s) << 8 | (gf_x2(s) ^ s);
}

static uint16_t tkip_s(uint16_t v)
{
    return tkip_sbox(v & 0xff) ^ bswap16(tkip_sbox(v >> 8));
}

static uint16_t mk16(uint8_t hi, uint8_t lo)
{
    return hi << 8 | lo;
}

static uint16_t ror1(uint16_t v)
{
    return (v >> 1) | (v << 15);
}

void wifi_tkip_phase1(uint16_t ttak[5], const uint8_t *tk, const uint8_t *ta,
                      uint32_t iv32)
{
    unsigned i;

    ttak[0] = iv32;
    ttak[1] = iv32 >> 16;
    ttak[2] = mk16(ta[1], ta[0]);
    ttak[3] = mk16(ta[3], ta[2]);
    ttak[4] = mk16(ta[5], ta[4]);
    for (i = 0; i < 8; i++) {
        unsigned j = 2 * (i & 1);

        ttak[0] += tkip_s(ttak[4] ^ mk16(tk[1 + j], tk[0 + j]));
        ttak[1] += tkip_s(ttak[0] ^ mk16(tk[5 + j], tk[4 + j]));
        ttak[2] += tkip_s(ttak[1] ^ mk16(tk[9 + j], tk[8 + j]));
        ttak[3] += tkip_s(ttak[2] ^ mk16(tk[13 + j], tk[12 + j]));
        ttak[4] += tkip_s(ttak[3] ^ mk16(tk[1 + j], tk[0 + j])) + i;
    }
}

void wifi_tkip_phase2(uint8_t rc4key[16], const uint16_t ttak[5],
                      const uint8_t *tk, uint16_t iv16)
{
    uint16_t ppk[6];
    unsigned i;

    memcpy(ppk, ttak, 5 * sizeof(uint16_t));
    ppk[5] = ttak[4] + iv16;
    ppk[0] += tkip_s(ppk[5] ^ mk16(tk[1], tk[0]));
    ppk[1] += tkip_s(ppk[0] ^ mk16(tk[3], tk[2]));
    ppk[2] += tkip_s(ppk[1] ^ mk16(tk[5], tk[4]));
    ppk[3] += tkip_s(ppk[2] ^ mk16(tk[7], tk[6]));
    ppk[4] += tkip_s(ppk[3] ^ mk16(tk[9], tk[8]));
    ppk[5] += tkip_s(ppk[4] ^ mk16(tk[11], tk[10]));
    ppk[0] += ror1(ppk[5] ^ mk16(tk[13], tk[12]));
    ppk[1] += ror1(ppk[0] ^ mk16(tk[15], tk[14]));
    ppk[2] += ror1(ppk[1]);
    ppk[3] += ror1(ppk[2]);
    ppk[4] += ror1(ppk[3]);
    ppk[5] += ror1(ppk[4]);
    rc4key[0] = iv16 >> 8;
    rc4key[1] = ((iv16 >> 8) | 0x20) & 0x7f;
    rc4key[2] = iv16;
    rc4key[3] = (ppk[5] ^ mk16(tk[1], tk[0])) >> 1;
    for (i = 0; i < 6; i++) {
        rc4key[4 + 2 * i] = ppk[i];
        rc4key[5 + 2 * i] = ppk[i] >> 8;
    }
}

static void tkip_seed(const uint8_t *f, const uint8_t *iv, const uint8_t *tk,
                      uint8_t seed[16])
{
    uint16_t ttak[5];

    wifi_tkip_phase1(ttak, tk, ieee80211_addr2(f), ldl_le_p(iv + 4));
    wifi_tkip_phase2(seed, ttak, tk, mk16(iv[0], iv[2]));
}

/* ---- CCMP -------------------------------------------------------------- */

/* nonce and AAD as mac80211's ccmp_special_blocks() builds them */
static size_t ccmp_blocks(const uint8_t *f, size_t h, uint8_t nonce[13],
                          uint8_t aad[30])
{
    const uint8_t *iv = f + h;
    bool mgmt = ieee80211_is_mgmt(f);
    bool a4 = ieee80211_has_a4(f);
    bool qos = ieee80211_is_qos_data(f);
    uint8_t tid = qos ? f[a4 ? IEEE80211_HDR4_LEN : IEEE80211_HDR_LEN] & 0x0f
                      : 0;
    size_t n;

    nonce[0] = tid | (mgmt ? 0x10 : 0);
    memcpy(nonce + 1, ieee80211_addr2(f), IEEE80211_ADDR_LEN);
    nonce[7] = iv[7];
    nonce[8] = iv[6];
    nonce[9] = iv[5];
    nonce[10] = iv[4];
    nonce[11] = iv[1];
    nonce[12] = iv[0];

    /* data: subtype bits 4..6 masked (QoS stays) */
    aad[0] = mgmt ? f[0] : f[0] & ~0x70;
    aad[1] = (f[1] & ~(IEEE80211_FC1_RETRY | IEEE80211_FC1_PM |
                       IEEE80211_FC1_MOREDATA)) | IEEE80211_FC1_PROTECTED;
    /* A1, A2, A3; sequence control with the sequence number masked */
    memcpy(aad + 2, f + IEEE80211_ADDR1_OFF, 3 * IEEE80211_ADDR_LEN);
    aad[20] = f[IEEE80211_SEQ_OFF] & 0x0f;
    aad[21] = 0;
    n = 22;
    if (a4) {
        memcpy(aad + n, f + IEEE80211_ADDR4_OFF, IEEE80211_ADDR_LEN);
        n += IEEE80211_ADDR_LEN;
    }
    if (qos) {
        aad[n] = tid;
        aad[n + 1] = 0;
        n += 2;
    }
    return n;
}

/*
 * AES-CCM (RFC 3610) as CCMP uses it: 13-byte nonce (L = 2), 8-byte MIC,
 * AAD of at most 30 bytes.  Encrypts @body in place and writes the MIC to
 * @mic, or decrypts it and checks @mic.
 */
static void ccm_mac(const AES_KEY *k, uint8_t x[16], const uint8_t *d,
                    size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        x[i] ^= d[i];
    }
    AES_encrypt(x, x, k);
}

static void ccm_ctr(const AES_KEY *k, const uint8_t nonce[13], uint8_t *body,
                    size_t blen)
{
    uint8_t a[16], s[16];
    size_t off, i;
    uint16_t ctr = 1;

    a[0] = 1;                               /* flags: L - 1 */
    memcpy(a + 1, nonce, 13);
    for (off = 0; off < blen; off += 16, ctr++) {
        stw_be_p(a + 14, ctr);
        AES_encrypt(a, s, k);
        for (i = 0; i < MIN(16, blen - off); i++) {
            body[off + i] ^= s[i];
        }
    }
}

static bool ccmp_crypt(const uint8_t key[16], const uint8_t nonce[13],
                       const uint8_t *aad, size_t alen, uint8_t *body,
                       size_t blen, uint8_t mic[WIFI_CCMP_MIC_LEN], bool enc)
{
    AES_KEY k;
    uint8_t x[16], a[16], b[32] = { 0 };
    uint8_t diff = 0;
    size_t off;
    unsigned i;

    assert(alen <= sizeof(b) - 2 && blen <= 0xffff);
    AES_set_encrypt_key(key, 128, &k);
    if (!enc) {
        ccm_ctr(&k, nonce, body, blen);
    }
    /* CBC-MAC over B0, the AAD (length-prefixed, padded), the plaintext */
    x[0] = 0x40 | ((WIFI_CCMP_MIC_LEN - 2) / 2) << 3 | 1;
    memcpy(x + 1, nonce, 13);
    stw_be_p(x + 14, blen);
    AES_encrypt(x, x, &k);
    stw_be_p(b, alen);
    memcpy(b + 2, aad, alen);
    for (off = 0; off < 2 + alen; off += 16) {
        ccm_mac(&k, x, b + off, 16);
    }
    for (off = 0; off < blen; off += 16) {
        ccm_mac(&k, x, body + off, MIN(16, blen - off));
    }
    if (enc) {
        ccm_ctr(&k, nonce, body, blen);
    }
    /* the MIC: T xor the first bytes of A0's keystream */
    a[0] = 1;
    memcpy(a + 1, nonce, 13);
    stw_be_p(a + 14, 0);
    AES_encrypt(a, a, &k);
    for (i = 0; i < WIFI_CCMP_MIC_LEN; i++) {
        if (enc) {
            mic[i] = x[i] ^ a[i];
        } else {
            diff |= mic[i] ^ x[i] ^ a[i];
        }
    }
    return diff == 0;
}

/* ---- frame level ------------------------------------------------------- */

/*
 * The parts of a frame protected with @c: MAC header, IV (or CCMP header)
 * at *@iv, then the body; the header's length, 0 when the frame cannot
 * hold header and IV.
 */
static size_t wifi_prot_split(WifiCipher c, uint8_t *f, size_t len,
                              uint8_t **iv)
{
    size_t h = wifi_hdrlen(f, len);

    if (!h || !wifi_cipher_iv_len(c) || len < h + wifi_cipher_iv_len(c)) {
        return 0;
    }
    *iv = f + h;
    return h;
}

size_t wifi_encrypt(WifiCipher c, const uint8_t *key, uint8_t *f,
                    size_t len, size_t cap)
{
    uint8_t *iv = NULL;
    size_t h = wifi_prot_split(c, f, len, &iv);
    size_t tail = wifi_cipher_tail_len(c);
    uint8_t *body, seed[16];
    size_t blen;

    if (!h || len + tail > cap) {
        return 0;
    }
    body = iv + wifi_cipher_iv_len(c);
    blen = len - (body - f);
    switch (c) {
    case WIFI_CIPHER_WEP40:
    case WIFI_CIPHER_WEP104:
        rc4_seal(seed, wep_seed(c, iv, key, seed), body, blen);
        break;
    case WIFI_CIPHER_TKIP:
        tkip_seed(f, iv, key, seed);
        rc4_seal(seed, 16, body, blen);
        break;
    case WIFI_CIPHER_CCMP: {
        uint8_t nonce[13], aad[30];
        size_t alen = ccmp_blocks(f, h, nonce, aad);

        ccmp_crypt(key, nonce, aad, alen, body, blen, body + blen, true);
        break;
    }
    default:
        return 0;
    }
    return len + tail;
}

bool wifi_decrypt(WifiCipher c, const uint8_t *key, uint8_t *f, size_t len)
{
    uint8_t *iv = NULL;
    size_t h = wifi_prot_split(c, f, len, &iv);
    size_t tail = wifi_cipher_tail_len(c);
    uint8_t *body, seed[16];
    size_t blen;

    if (!h || len < h + wifi_cipher_iv_len(c) + tail) {
        return false;
    }
    body = iv + wifi_cipher_iv_len(c);
    blen = len - (body - f) - tail;
    switch (c) {
    case WIFI_CIPHER_WEP40:
    case WIFI_CIPHER_WEP104:
        return rc4_open(seed, wep_seed(c, iv, key, seed), body, blen);
    case WIFI_CIPHER_TKIP:
        if (!(iv[3] & 0x20)) {          /* TKIP always has the ExtIV */
            return false;
        }
        tkip_seed(f, iv, key, seed);
        return rc4_open(seed, 16, body, blen);
    case WIFI_CIPHER_CCMP: {
        uint8_t nonce[13], aad[30];
        size_t alen;

        if (!(iv[3] & 0x20)) {
            return false;
        }
        alen = ccmp_blocks(f, h, nonce, aad);
        /* in place; the MIC stays behind the body */
        return ccmp_crypt(key, nonce, aad, alen, body, blen, body + blen,
                          false);
    }
    default:
        return false;
    }
}

/* ---- WPA2-PSK ---------------------------------------------------------- */

#define SHA1_LEN 20

/* HMAC-SHA1 over the concatenation of up to three pieces */
static void hmac_sha1(const uint8_t *key, size_t key_len,
                      const uint8_t *d1, size_t n1, const uint8_t *d2,
                      size_t n2, const uint8_t *d3, size_t n3,
                      uint8_t out[SHA1_LEN])
{
    GHmac *h = g_hmac_new(G_CHECKSUM_SHA1, key, key_len);
    gsize n = SHA1_LEN;

    g_hmac_update(h, d1, n1);
    if (n2) {
        g_hmac_update(h, d2, n2);
    }
    if (n3) {
        g_hmac_update(h, d3, n3);
    }
    g_hmac_get_digest(h, out, &n);
    g_hmac_unref(h);
    assert(n == SHA1_LEN);
}

/* IEEE 802.11-2020 J.4.1: PBKDF2-HMAC-SHA1 (RFC 8018 5.2), 4096 rounds */
void wifi_psk_pmk(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
                  uint8_t pmk[32])
{
    const uint8_t *p = (const uint8_t *)passphrase;
    size_t plen = strlen(passphrase);
    uint8_t u[SHA1_LEN], t[SHA1_LEN], be[4];
    unsigned blk, r, i;

    for (blk = 1; blk <= 2; blk++) {
        stl_be_p(be, blk);
        hmac_sha1(p, plen, ssid, ssid_len, be, 4, NULL, 0, u);
        memcpy(t, u, SHA1_LEN);
        for (r = 1; r < 4096; r++) {
            hmac_sha1(p, plen, u, SHA1_LEN, NULL, 0, NULL, 0, u);
            for (i = 0; i < SHA1_LEN; i++) {
                t[i] ^= u[i];
            }
        }
        memcpy(pmk + (blk - 1) * SHA1_LEN, t,
               blk == 1 ? SHA1_LEN : 32 - SHA1_LEN);
    }
}

/* IEEE 802.11-2020 12.7.1.2: PRF-n(K, A, B) with HMAC-SHA1 */
void wifi_prf_sha1(const uint8_t *key, size_t key_len, const char *label,
                   const uint8_t *data, size_t data_len, uint8_t *out,
                   size_t out_len)
{
    uint8_t d[SHA1_LEN], tail[2] = { 0, 0 };
    GHmac *h;
    gsize n;

    for (; out_len; tail[1]++) {
        size_t m = MIN(out_len, sizeof(d));

        /* label, a zero byte, the data, the counter */
        h = g_hmac_new(G_CHECKSUM_SHA1, key, key_len);
        g_hmac_update(h, (const guchar *)label, strlen(label));
        g_hmac_update(h, tail, 1);
        g_hmac_update(h, data, data_len);
        g_hmac_update(h, tail + 1, 1);
        n = sizeof(d);
        g_hmac_get_digest(h, d, &n);
        g_hmac_unref(h);
        memcpy(out, d, m);
        out += m;
        out_len -= m;
    }
}

void wifi_hmac_sha1_128(const uint8_t *key, const uint8_t *data, size_t len,
                        uint8_t mic[16])
{
    uint8_t d[SHA1_LEN];

    hmac_sha1(key, 16, data, len, NULL, 0, NULL, 0, d);
    memcpy(mic, d, 16);
}

/* RFC 3394 2.2.1 (index form), default IV A6A6A6A6A6A6A6A6 */
#define WRAP_IV 0xa6a6a6a6a6a6a6a6ULL

void wifi_aes_wrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                   uint8_t *out)
{
    size_t n = len / 8, i;
    uint64_t a = WRAP_IV;
    uint8_t b[16];
    AES_KEY k;
    unsigned j;

    AES_set_encrypt_key(kek, 128, &k);
    memmove(out + 8, in, len);
    for (j = 0; j < 6; j++) {
        for (i = 1; i <= n; i++) {
            stq_be_p(b, a);
            memcpy(b + 8, out + 8 * i, 8);
            AES_encrypt(b, b, &k);
            a = ldq_be_p(b) ^ (n * j + i);
            memcpy(out + 8 * i, b + 8, 8);
        }
    }
    stq_be_p(out, a);
}

bool wifi_aes_unwrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                     uint8_t *out)
{
    size_t n, i;
    uint64_t a;
    uint8_t b[16];
    AES_KEY k;
    int j;

    if (len < 24 || len % 8) {
        return false;
    }
    n = (len - 8) / 8;
    a = ldq_be_p(in);
    memmove(out, in + 8, len - 8);
    AES_set_decrypt_key(kek, 128, &k);
    for (j = 5; j >= 0; j--) {
        for (i = n; i >= 1; i--) {
            stq_be_p(b, a ^ (n * j + i));
            memcpy(b + 8, out + 8 * (i - 1), 8);
            AES_decrypt(b, b, &k);
            a = ldq_be_p(b);
            memcpy(out + 8 * (i - 1), b + 8, 8);
        }
    }
    if (a != WRAP_IV) {
        memset(out, 0, len - 8);    /* nothing unauthenticated leaks */
        return false;
    }
    return true;
}
