/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit test of net/wifi/crypto.c on the published test vectors:
 * WEP (IEEE P802.11i/D7.0 I.7.2), TKIP (IEEE 802.11-2012 M.6.3, with the
 * phase-1/phase-2 intermediate keys), CCMP (M.6.4), the PSK mapping (J.4),
 * PRF-SHA1 (J.3) and the AES key wrap (RFC 3394 4.1); plus tampering and
 * malformed frames.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "net/wifi/crypto.h"
#include "wifi-vectors.h"

static void unhex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;

        g_assert(sscanf(s + 2 * i, "%2x", &v) == 1);
        out[i] = v;
    }
}

/* ---- WEP --------------------------------------------------------------- */

static const uint8_t wep_plain[] = {
    0x08, 0x48, 0xc3, 0x2c, 0x0f, 0xd2, 0xe1, 0x28, 0xa5, 0x7c, 0x50, 0x30,
    0xf1, 0x84, 0x44, 0x08, 0xab, 0xae, 0xa5, 0xb8, 0xfc, 0xba, 0x80, 0x33,
    0xfb, 0x02, 0x9e, 0x80,                                   /* IV, key 2 */
    0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45, 0x00, 0x00, 0x4e,
    0x66, 0x1a, 0x00, 0x00, 0x80, 0x11, 0xbe, 0x64, 0x0a, 0x00, 0x01, 0x22,
    0x0a, 0xff, 0xff, 0xff, 0x00, 0x89, 0x00, 0x89, 0x00, 0x3a, 0x00, 0x00,
    0x80, 0xa6, 0x01, 0x10, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x20, 0x45, 0x43, 0x45, 0x4a, 0x45, 0x48, 0x45, 0x43, 0x46, 0x43, 0x45,
    0x50, 0x46, 0x45, 0x45, 0x49, 0x45, 0x46, 0x46, 0x43, 0x43, 0x41, 0x43,
    0x41, 0x43, 0x41, 0x43, 0x41, 0x43, 0x41, 0x41, 0x41, 0x00, 0x00, 0x20,
    0x00, 0x01,
};

static const uint8_t wep_cipher[] = {               /* body + ICV */
    0xf6, 0x9c, 0x58, 0x06, 0xbd, 0x6c, 0xe8, 0x46, 0x26, 0xbc, 0xbe, 0xfb,
    0x94, 0x74, 0x65, 0x0a, 0xad, 0x1f, 0x79, 0x09, 0xb0, 0xf6, 0x4d, 0x5f,
    0x58, 0xa5, 0x03, 0xa2, 0x58, 0xb7, 0xed, 0x22, 0xeb, 0x0e, 0xa6, 0x49,
    0x30, 0xd3, 0xa0, 0x56, 0xa5, 0x57, 0x42, 0xfc, 0xce, 0x14, 0x1d, 0x48,
    0x5f, 0x8a, 0xa8, 0x36, 0xde, 0xa1, 0x8d, 0xf4, 0x2c, 0x53, 0x80, 0x80,
    0x5a, 0xd0, 0xc6, 0x1a, 0x5d, 0x6f, 0x58, 0xf4, 0x10, 0x40, 0xb2, 0x4b,
    0x7d, 0x1a, 0x69, 0x38, 0x56, 0xed, 0x0d, 0x43, 0x98, 0xe7, 0xae, 0xe3,
    0xbf, 0x0e, 0x2a, 0x2c, 0xa8, 0xf7,
};

static void test_wep(void)
{
    uint8_t key[16] = { 0x30, 0x31, 0x32, 0x33, 0x34 };
    uint8_t f[256];
    size_t n = sizeof(wep_plain), m;

    memcpy(f, wep_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_WEP40, key, f, n, sizeof(f));
    g_assert_cmpuint(m, ==, n + 4);
    g_assert(memcmp(f, wep_plain, 28) == 0);
    g_assert(memcmp(f + 28, wep_cipher, sizeof(wep_cipher)) == 0);

    g_assert(wifi_decrypt(WIFI_CIPHER_WEP40, key, f, m));
    g_assert(memcmp(f, wep_plain, n) == 0);

    /* a flipped bit fails the ICV; a wrong key too */
    memcpy(f, wep_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_WEP40, key, f, n, sizeof(f));
    f[40] ^= 1;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_WEP40, key, f, m));
    memcpy(f, wep_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_WEP40, key, f, n, sizeof(f));
    key[0] ^= 1;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_WEP40, key, f, m));
    /* no room for the ICV */
    memcpy(f, wep_plain, n);
    g_assert_cmpuint(wifi_encrypt(WIFI_CIPHER_WEP40, key, f, n, n + 3), ==, 0);
}

/* ---- TKIP -------------------------------------------------------------- */

static const uint8_t tkip_tk[16] = {
    0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56,
    0x78, 0x90, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12,
};

/* header, IV (TSC 1, ExtIV), plaintext MSDU with its Michael MIC */
static const uint8_t tkip_plain[] = {
    0x08, 0x42, 0x2c, 0x00, 0x02, 0x03, 0x04, 0x05, 0x06, 0x08, 0x02, 0x03,
    0x04, 0x05, 0x06, 0x07, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xd0, 0x02,
    0x00, 0x20, 0x01, 0x20, 0x00, 0x00, 0x00, 0x00,
    0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45, 0x00, 0x00, 0x54,
    0x00, 0x00, 0x40, 0x00, 0x40, 0x01, 0xa5, 0x55, 0xc0, 0xa8, 0x0a, 0x02,
    0xc0, 0xa8, 0x0a, 0x01, 0x08, 0x00, 0x3a, 0xb0, 0x00, 0x00, 0x00, 0x00,
    0xcd, 0x4c, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x09, 0x0a, 0x0b,
    0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23,
    0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
    0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
    0x68, 0x81, 0xa3, 0xf3, 0xd6, 0x48, 0xd0, 0x3c,
};

static const uint8_t tkip_cipher[] = {              /* body + ICV */
    0xc0, 0x0e, 0x14, 0xfc, 0xe7, 0xcf, 0xab, 0xc7, 0x75, 0x47, 0xe6, 0x66,
    0xe5, 0x7c, 0x0d, 0xac, 0x70, 0x4a, 0x1e, 0x35, 0x8a, 0x88, 0xc1, 0x1c,
    0x8e, 0x2e, 0x28, 0x2e, 0x38, 0x01, 0x02, 0x7a, 0x46, 0x56, 0x05, 0x5e,
    0xe9, 0x3e, 0x9c, 0x25, 0x47, 0x02, 0xe9, 0x73, 0x58, 0x05, 0xdd, 0xb5,
    0x76, 0x9b, 0xa7, 0x3f, 0x1e, 0xbb, 0x56, 0xe8, 0x44, 0xef, 0x91, 0x22,
    0x85, 0xd3, 0xdd, 0x6e, 0x54, 0x1e, 0x82, 0x38, 0x73, 0x55, 0x8a, 0xdb,
    0xa0, 0x79, 0x06, 0x8a, 0xbd, 0x7f, 0x7f, 0x50, 0x95, 0x96, 0x75, 0xac,
    0xc4, 0xb4, 0xde, 0x9a, 0xa9, 0x9c, 0x05, 0xf2, 0x89, 0xa7, 0xc5, 0x2f,
    0xee, 0x5b, 0xfc, 0x14, 0xf6, 0xf8, 0xe5, 0xf8,
};

static void test_tkip(void)
{
    static const uint8_t phase1[10] = {
        0xbb, 0x58, 0x07, 0x1f, 0x9e, 0x93, 0xb4, 0x38, 0x25, 0x4b,
    };
    static const uint8_t phase2[16] = {
        0x00, 0x20, 0x01, 0x4c, 0xfe, 0x67, 0xbe, 0xd2,
        0x7c, 0x86, 0x7b, 0x1b, 0xf8, 0x02, 0x8b, 0x1c,
    };
    uint16_t ttak[5];
    uint8_t rc4key[16], f[256];
    size_t n = sizeof(tkip_plain), m;

    wifi_tkip_phase1(ttak, tkip_tk, tkip_plain + 10, 0);
    for (int i = 0; i < 5; i++) {
        g_assert_cmphex(ttak[i], ==, phase1[2 * i] | phase1[2 * i + 1] << 8);
    }
    wifi_tkip_phase2(rc4key, ttak, tkip_tk, 1);
    g_assert(memcmp(rc4key, phase2, 16) == 0);

    memcpy(f, tkip_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_TKIP, tkip_tk, f, n, sizeof(f));
    g_assert_cmpuint(m, ==, n + 4);
    g_assert(memcmp(f + 32, tkip_cipher, sizeof(tkip_cipher)) == 0);
    g_assert_cmphex(wifi_frame_pn(WIFI_CIPHER_TKIP, f, m), ==, 1);
    g_assert(wifi_decrypt(WIFI_CIPHER_TKIP, tkip_tk, f, m));
    g_assert(memcmp(f, tkip_plain, n) == 0);
    f[33] ^= 0x80;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_TKIP, tkip_tk, f, m));
}

/* ---- CCMP -------------------------------------------------------------- */

/* ccmp_tk, ccmp_plain, ccmp_cipher: wifi-vectors.h */

static void test_ccmp(void)
{
    uint8_t f[256];
    size_t n = sizeof(ccmp_plain), m;

    memcpy(f, ccmp_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
    g_assert_cmpuint(m, ==, n + 8);
    g_assert(memcmp(f, ccmp_plain, 32) == 0);
    g_assert(memcmp(f + 32, ccmp_cipher, sizeof(ccmp_cipher)) == 0);
    g_assert_cmphex(wifi_frame_pn(WIFI_CIPHER_CCMP, f, m), ==,
                    0xb5039776e70cull);

    /* the retry bit is masked out of the AAD: a retransmission verifies */
    f[1] &= ~0x08;
    g_assert(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));
    f[1] |= 0x08;
    g_assert(memcmp(f, ccmp_plain, n) == 0);

    /* but addresses, the PN and the body are authenticated */
    for (size_t at = 4; at < m; at += (at < 32 ? 5 : 7)) {
        memcpy(f, ccmp_plain, n);
        wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
        if (at == 22 || at == 24) {
            continue;       /* sequence number / PN low byte: see below */
        }
        f[at] ^= 0x10;
        g_assert_false(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));
    }
    memcpy(f, ccmp_plain, n);
    wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
    f[24] ^= 1;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));

    /* malformed: shorter than header + CCMP header + MIC, or no ExtIV */
    for (size_t k = 0; k < 40; k++) {
        memcpy(f, ccmp_plain, n);
        g_assert_false(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, k));
    }
    memcpy(f, ccmp_plain, n);
    m = wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
    f[27] &= ~0x20;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));
    g_assert_cmpuint(wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, 30, 64), ==,
                     0);
}

/* QoS data, four addresses: round trip through the longer AAD */
static void test_ccmp_qos_a4(void)
{
    uint8_t f[128], g[128];
    size_t n = 32 + 8 + 20, m;

    memset(f, 0, sizeof(f));
    f[0] = 0x88;                    /* QoS data */
    f[1] = 0x43;                    /* ToDS | FromDS | Protected */
    for (int i = 4; i < 30; i++) {
        f[i] = i;
    }
    f[30] = 0x05;                   /* TID 5 */
    f[32] = 1;
    f[35] = 0x20;                   /* ExtIV, PN 1 */
    for (size_t i = 40; i < n; i++) {
        f[i] = i * 3;
    }
    g_assert_cmpuint(wifi_hdrlen(f, n), ==, 32);
    memcpy(g, f, n);
    m = wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
    g_assert_cmpuint(m, ==, n + 8);
    g_assert(memcmp(f + 40, g + 40, n - 40) != 0);
    g_assert(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));
    g_assert(memcmp(f, g, n) == 0);
    /* the TID is in the nonce */
    wifi_encrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, n, sizeof(f));
    f[30] = 0x06;
    g_assert_false(wifi_decrypt(WIFI_CIPHER_CCMP, ccmp_tk, f, m));
}

/* ---- WPA2-PSK ---------------------------------------------------------- */

static void test_psk(void)
{
    uint8_t pmk[32], want[32];

    wifi_psk_pmk("password", (const uint8_t *)"IEEE", 4, pmk);
    unhex("f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e",
          want, 32);
    g_assert(memcmp(pmk, want, 32) == 0);
    wifi_psk_pmk("ThisIsAPassword", (const uint8_t *)"ThisIsASSID", 11, pmk);
    unhex("0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af",
          want, 32);
    g_assert(memcmp(pmk, want, 32) == 0);
}

static void test_prf(void)
{
    uint8_t key[20], out[64], want[64];

    memset(key, 0x0b, sizeof(key));
    wifi_prf_sha1(key, sizeof(key), "prefix", (const uint8_t *)"Hi There", 8,
                  out, 64);
    unhex("bcd4c650b30b9684951829e0d75f9d54b862175ed9f00606e17d8da35402ffee"
          "75df78c3d31e0f889f012120c0862beb67753e7439ae242edb8373698356cf5a",
          want, 64);
    g_assert(memcmp(out, want, 64) == 0);
}

static void test_keywrap(void)
{
    uint8_t kek[16], key[16], out[24], want[24], back[16];

    for (int i = 0; i < 16; i++) {
        kek[i] = i;
        key[i] = i * 0x11;
    }
    wifi_aes_wrap(kek, key, 16, out);
    unhex("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5", want, 24);
    g_assert(memcmp(out, want, 24) == 0);
    g_assert(wifi_aes_unwrap(kek, out, 24, back));
    g_assert(memcmp(back, key, 16) == 0);
    out[5] ^= 1;
    g_assert_false(wifi_aes_unwrap(kek, out, 24, back));
    g_assert_false(wifi_aes_unwrap(kek, out, 20, back));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wifi/crypto/wep", test_wep);
    g_test_add_func("/wifi/crypto/tkip", test_tkip);
    g_test_add_func("/wifi/crypto/ccmp", test_ccmp);
    g_test_add_func("/wifi/crypto/ccmp-qos-a4", test_ccmp_qos_a4);
    g_test_add_func("/wifi/crypto/psk", test_psk);
    g_test_add_func("/wifi/crypto/prf", test_prf);
    g_test_add_func("/wifi/crypto/keywrap", test_keywrap);
    return g_test_run();
}
