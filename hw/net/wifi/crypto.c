/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 802.11 frame protection: WEP (RC4 + CRC-32 ICV), TKIP (key mixing + RC4;
 * the Michael MIC is the sender's), CCMP (AES-CCM with the 802.11 nonce and
 * AAD), and the WPA2-PSK derivations.  RC4, AES-CCM, HMAC-SHA1, PBKDF2 and
 * the AES key wrap are nettle's.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/net/wifi/crypto.h"
#include <nettle/aes.h>
#include <nettle/arcfour.h>
#include <nettle/ccm.h>
#include <nettle/hmac.h>
#include <nettle/nist-keywrap.h>
#include <nettle/pbkdf2.h>
#include <zlib.h>

#define FC0_TYPE_MASK   0x0c
#define FC0_TYPE_MGMT   0x00
#define FC0_TYPE_CTL    0x04
#define FC0_TYPE_DATA   0x08
#define FC0_QOS         0x80
#define FC1_TODS        0x01
#define FC1_FROMDS      0x02
#define FC1_RETRY       0x08
#define FC1_PM          0x10
#define FC1_MOREDATA    0x20
#define FC1_PROTECTED   0x40
#define FC1_ORDER       0x80

size_t wifi_hdrlen(const uint8_t *f, size_t len)
{
    size_t h;

    if (len < 2) {
        return 0;
    }
    switch (f[0] & FC0_TYPE_MASK) {
    case FC0_TYPE_MGMT:
        h = 24 + ((f[1] & FC1_ORDER) ? 4 : 0);
        break;
    case FC0_TYPE_DATA:
        h = 24;
        if ((f[1] & (FC1_TODS | FC1_FROMDS)) == (FC1_TODS | FC1_FROMDS)) {
            h += 6;
        }
        if (f[0] & FC0_QOS) {
            h += 2 + ((f[1] & FC1_ORDER) ? 4 : 0);
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

/* RC4 over body + CRC-32 ICV, seed = the per-frame key */
static void rc4_seal(const uint8_t *seed, size_t seed_len, uint8_t *body,
                     size_t blen)
{
    struct arcfour_ctx rc4;
    uint32_t icv = crc32(0, body, blen);

    stl_le_p(body + blen, icv);
    arcfour_set_key(&rc4, seed_len, seed);
    arcfour_crypt(&rc4, blen + WIFI_ICV_LEN, body, body);
}

static bool rc4_open(const uint8_t *seed, size_t seed_len, uint8_t *body,
                     size_t blen)
{
    struct arcfour_ctx rc4;

    arcfour_set_key(&rc4, seed_len, seed);
    arcfour_crypt(&rc4, blen + WIFI_ICV_LEN, body, body);
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
 * The TKIP S-box is the AES S-box s(x) as (2·s(x), 3·s(x)) in GF(2^8):
 * derive it from the field rather than carrying a 512-byte table.
 */
static uint16_t tkip_sbox[256];

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;

    while (b) {
        if (b & 1) {
            r ^= a;
        }
        a = (a << 1) ^ ((a & 0x80) ? 0x1b : 0);
        b >>= 1;
    }
    return r;
}

static void tkip_sbox_init(void)
{
    unsigned x, i;

    if (tkip_sbox[0]) {
        return;
    }
    for (x = 0; x < 256; x++) {
        uint8_t inv = 0, s;

        for (i = 1; x && i < 256; i++) {
            if (gf_mul(x, i) == 1) {
                inv = i;
                break;
            }
        }
        s = inv ^ ((inv << 1) | (inv >> 7)) ^ ((inv << 2) | (inv >> 6)) ^
            ((inv << 3) | (inv >> 5)) ^ ((inv << 4) | (inv >> 4)) ^ 0x63;
        tkip_sbox[x] = gf_mul(s, 2) << 8 | gf_mul(s, 3);
    }
}

static uint16_t tkip_s(uint16_t v)
{
    return tkip_sbox[v & 0xff] ^ bswap16(tkip_sbox[v >> 8]);
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

    tkip_sbox_init();
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

    tkip_sbox_init();
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

    wifi_tkip_phase1(ttak, tk, f + 10, ldl_le_p(iv + 4));
    wifi_tkip_phase2(seed, ttak, tk, mk16(iv[0], iv[2]));
}

/* ---- CCMP -------------------------------------------------------------- */

/* nonce and AAD as mac80211's ccmp_special_blocks() builds them */
static size_t ccmp_blocks(const uint8_t *f, size_t h, uint8_t nonce[13],
                          uint8_t aad[30])
{
    const uint8_t *iv = f + h;
    bool mgmt = (f[0] & FC0_TYPE_MASK) == FC0_TYPE_MGMT;
    bool a4 = !mgmt && (f[1] & (FC1_TODS | FC1_FROMDS)) ==
                       (FC1_TODS | FC1_FROMDS);
    bool qos = !mgmt && (f[0] & FC0_QOS);
    uint8_t tid = qos ? f[a4 ? 30 : 24] & 0x0f : 0;
    size_t n;

    nonce[0] = tid | (mgmt ? 0x10 : 0);
    memcpy(nonce + 1, f + 10, 6);
    nonce[7] = iv[7];
    nonce[8] = iv[6];
    nonce[9] = iv[5];
    nonce[10] = iv[4];
    nonce[11] = iv[1];
    nonce[12] = iv[0];

    aad[0] = mgmt ? f[0] : f[0] & ~0x70;
    aad[1] = (f[1] & ~(FC1_RETRY | FC1_PM | FC1_MOREDATA)) | FC1_PROTECTED;
    memcpy(aad + 2, f + 4, 18);
    aad[20] = f[22] & 0x0f;
    aad[21] = 0;
    n = 22;
    if (a4) {
        memcpy(aad + n, f + 24, 6);
        n += 6;
    }
    if (qos) {
        aad[n] = tid;
        aad[n + 1] = 0;
        n += 2;
    }
    return n;
}

/* ---- frame level ------------------------------------------------------- */

size_t wifi_encrypt(WifiCipher c, const uint8_t *key, uint8_t *f,
                    size_t len, size_t cap)
{
    size_t h = wifi_hdrlen(f, len);
    size_t ivl = wifi_cipher_iv_len(c);
    size_t tail = wifi_cipher_tail_len(c);
    uint8_t *iv = f + h, *body = iv + ivl;
    size_t blen;
    uint8_t seed[16];

    if (!h || !ivl || len < h + ivl || len + tail > cap) {
        return 0;
    }
    blen = len - h - ivl;
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
        struct ccm_aes128_ctx ccm;
        uint8_t nonce[13], aad[30];
        size_t alen = ccmp_blocks(f, h, nonce, aad);

        ccm_aes128_set_key(&ccm, key);
        ccm_aes128_encrypt_message(&ccm, sizeof(nonce), nonce, alen, aad,
                                   WIFI_CCMP_MIC_LEN, blen + tail, body, body);
        break;
    }
    default:
        return 0;
    }
    return len + tail;
}

bool wifi_decrypt(WifiCipher c, const uint8_t *key, uint8_t *f, size_t len)
{
    size_t h = wifi_hdrlen(f, len);
    size_t ivl = wifi_cipher_iv_len(c);
    size_t tail = wifi_cipher_tail_len(c);
    uint8_t *iv = f + h, *body = iv + ivl;
    size_t blen;
    uint8_t seed[16];

    if (!h || !ivl || len < h + ivl + tail) {
        return false;
    }
    blen = len - h - ivl - tail;
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
        struct ccm_aes128_ctx ccm;
        uint8_t nonce[13], aad[30];
        size_t alen;

        if (!(iv[3] & 0x20)) {
            return false;
        }
        alen = ccmp_blocks(f, h, nonce, aad);
        ccm_aes128_set_key(&ccm, key);
        /* in place; the MIC stays behind the body */
        return ccm_aes128_decrypt_message(&ccm, sizeof(nonce), nonce, alen,
                                          aad, WIFI_CCMP_MIC_LEN, blen, body,
                                          body);
    }
    default:
        return false;
    }
}

/* ---- WPA2-PSK ---------------------------------------------------------- */

void wifi_psk_pmk(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
                  uint8_t pmk[32])
{
    pbkdf2_hmac_sha1(strlen(passphrase), (const uint8_t *)passphrase, 4096,
                     ssid_len, ssid, 32, pmk);
}

/* IEEE 802.11-2020 12.7.1.2: PRF-n(K, A, B) with HMAC-SHA1 */
void wifi_prf_sha1(const uint8_t *key, size_t key_len, const char *label,
                   const uint8_t *data, size_t data_len, uint8_t *out,
                   size_t out_len)
{
    struct hmac_sha1_ctx h;
    uint8_t d[SHA1_DIGEST_SIZE], zero = 0;
    uint8_t i;

    for (i = 0; out_len; i++) {
        size_t n = MIN(out_len, sizeof(d));

        hmac_sha1_set_key(&h, key_len, key);
        hmac_sha1_update(&h, strlen(label), (const uint8_t *)label);
        hmac_sha1_update(&h, 1, &zero);
        hmac_sha1_update(&h, data_len, data);
        hmac_sha1_update(&h, 1, &i);
        hmac_sha1_digest(&h, sizeof(d), d);
        memcpy(out, d, n);
        out += n;
        out_len -= n;
    }
}

void wifi_hmac_sha1_128(const uint8_t *key, const uint8_t *data, size_t len,
                        uint8_t mic[16])
{
    struct hmac_sha1_ctx h;

    hmac_sha1_set_key(&h, 16, key);
    hmac_sha1_update(&h, len, data);
    hmac_sha1_digest(&h, 16, mic);
}

static const uint8_t wrap_iv[8] = {
    0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6
};

void wifi_aes_wrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                   uint8_t *out)
{
    struct aes128_ctx aes;

    aes128_set_encrypt_key(&aes, kek);
    aes128_keywrap(&aes, wrap_iv, len + 8, out, in);
}

bool wifi_aes_unwrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                     uint8_t *out)
{
    struct aes128_ctx aes;

    if (len < 24 || len % 8) {
        return false;
    }
    aes128_set_decrypt_key(&aes, kek);
    return aes128_keyunwrap(&aes, wrap_iv, len - 8, out, in);
}
