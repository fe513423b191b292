/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331's hardware key table and frame
 * protection: WEP, TKIP and CCMP keys installed the way b43 installs
 * them, frames encrypted on TX and decrypted on RX with the published
 * test vectors.
 * Structure after tests/qtest/xlnx-can-test.c.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"
#include "libqos/bcm43xx.h"
#include "net/wifi/ieee80211.h"
#include "wifi-vectors.h"

/* ---- hardware crypto: the key table, TX encryption, RX decryption ---- */

static void shm_w16(QBcmCard *c, uint32_t b, uint16_t v)
{
    qbcm_wl(c, D11 + A_D11_SHM_CONTROL, (1 << 16) | (b >> 2));
    qbcm_ww(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED : A_D11_SHM_DATA), v);
}

/* b43's key_write(): algorithm block, then the key at KTP * 2 */
static void key_write(QBcmCard *c, unsigned slot, unsigned alg,
                      const uint8_t *k, size_t klen)
{
    uint8_t key[16] = { 0 };

    memcpy(key, k, klen);
    shm_w16(c, D11_SHM_SH_KEYIDXBLOCK + 2 * slot, slot << 4 | alg);
    for (int i = 0; i < 16; i += 2) {
        shm_w16(c, 0x400 * 2 + slot * 16 + i, key[i] | key[i + 1] << 8);
    }
}

/* b43's keymac_write(): RCMTA entry slot - 4, word addressed */
static void keymac_write(QBcmCard *c, unsigned slot, const uint8_t *addr)
{
    unsigned e = slot - 4;

    qbcm_wl(c, D11 + A_D11_SHM_CONTROL, (4 << 16) | (2 * e));
    qbcm_wl(c, D11 + A_D11_SHM_DATA, ldl_le_p(addr));
    qbcm_wl(c, D11 + A_D11_SHM_CONTROL, (4 << 16) | (2 * e + 1));
    qbcm_ww(c, D11 + A_D11_SHM_DATA, lduw_le_p(addr + 4));
}

static void set_own_mac(QBcmCard *c, const uint8_t *mac)
{
    qbcm_ww(c, D11 + A_D11_MACFILTER_CONTROL, 0x20);
    for (int k = 0; k < 3; k++) {
        qbcm_ww(c, D11 + A_D11_MACFILTER_DATA,
                mac[2 * k] | (mac[2 * k + 1] << 8));
    }
}

/* send @f from A with @mac_ctl, return B's RX buffer (slot *rxs) */
static uint32_t crypt_xfer(QBcmAir *a, const uint8_t *f, size_t len,
                           uint32_t mac_ctl, unsigned *rxs, uint8_t *rx,
                           uint32_t *txst)
{
    QBcmCard *A = &a->c[0], *B = &a->c[1];
    uint32_t before = qbcm_rx_cd(B);

    qbcm_post_ctl(a, A, f, len, mac_ctl, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    *txst = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    for (int i = 0; i < 50 && qbcm_rx_cd(B) == before; i++) {
        qbcm_rl(B, D11 + A_D11_GEN_IRQ_REASON);
    }
    if ((qbcm_rx_cd(B)) ==
        before) {
        return 0;                                   /* nothing received */
    }
    qtest_memread(a->qts, B->rxbuf + 2400 * *rxs, rx, 2400);
    (*rxs)++;
    /* the PHY status words are always valid: the decryption bits follow */
    g_assert_cmphex(ldl_le_p(rx + 0x10) & D11_RX_MAC_PHYST_VALID, ==,
                    D11_RX_MAC_PHYST_VALID);
    /* mac_status, + seen */
    return (ldl_le_p(rx + 0x10) & ~D11_RX_MAC_PHYST_VALID) | 0x80000000u;
}

/* IEEE 802.11-2012 M.6.4 (wifi-vectors.h): the FCS of the frame on air */
static const uint8_t ccmp_fcs[] = { 0x1d, 0x99, 0xf0, 0x66 };
/* IEEE P802.11i/D7.0 I.7.2 (key ID 2), trimmed to its first 16 bytes */
static const uint8_t wep_key[5] = { 0x30, 0x31, 0x32, 0x33, 0x34 };
static const uint8_t wep_plain[] = {
    0x08, 0x48, 0xc3, 0x2c, 0x0f, 0xd2, 0xe1, 0x28, 0xa5, 0x7c, 0x50, 0x30,
    0xf1, 0x84, 0x44, 0x08, 0xab, 0xae, 0xa5, 0xb8, 0xfc, 0xba, 0x80, 0x33,
    0xfb, 0x02, 0x9e, 0x80,
    0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45, 0x00, 0x00, 0x4e,
    0x66, 0x1a, 0x00, 0x00,
};
static const uint8_t wep_air_head[] = {         /* RC4 keystream is fixed */
    0xf6, 0x9c, 0x58, 0x06, 0xbd, 0x6c, 0xe8, 0x46, 0x26, 0xbc, 0xbe, 0xfb,
    0x94, 0x74, 0x65, 0x0a,
};
static void test_crypto(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    static const uint8_t tkip_tk[16] = {
        0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56,
        0x78, 0x90, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12,
    };
    static const uint8_t other_key[16] = { 1, 2, 3 };
    uint8_t f[256], rx[2400];
    unsigned rxs = 0;
    uint32_t ms, st;
    size_t n;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    /* b43_security_init(): KTP as the firmware reports it */
    qbcm_wl(A, D11 + A_D11_SHM_CONTROL, (1 << 16) | (D11_SHM_SH_KTP >> 2));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_SHM_DATA + 0) >> 16, ==, 0x400);

    /* CCMP, group-addressed vector: A encrypts exactly as M.6.4 says */
    key_write(A, 1, 3, ccmp_tk, 16);
    n = sizeof(ccmp_plain);
    ms = crypt_xfer(&a, ccmp_plain, n, 0x2 | 3 << 16 | 1 << 20, &rxs, rx,
                    &st);
    g_assert_cmphex(st & 0xf001, ==, 0x1001);           /* sent once */
    g_assert_cmphex(ms, ==, 0x80000000u);               /* B: no key */
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + n + 8 + 4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, 32, ccmp_plain, 32);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + 32, sizeof(ccmp_cipher),
                    ccmp_cipher, sizeof(ccmp_cipher));
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + 32 + sizeof(ccmp_cipher),
                    sizeof(ccmp_fcs), ccmp_fcs, sizeof(ccmp_fcs));

    /* B with the group key (key ID 0): decrypted in place, MIC kept */
    key_write(B, 0, 3, ccmp_tk, 16);
    ms = crypt_xfer(&a, ccmp_plain, n, 0x2 | 3 << 16 | 1 << 20, &rxs, rx,
                    &st);
    g_assert_cmphex(ms, ==, 0x80000000u | D11_RX_MAC_DEC | 0 << 5);
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + n + 8 + 4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, n, ccmp_plain, n);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + n, 8, ccmp_cipher + 20, 8);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + n + 8, 4, ccmp_fcs, 4);
    /* a wrong key: DEC | DECERR, b43 drops it */
    key_write(B, 0, 3, other_key, 16);
    ms = crypt_xfer(&a, ccmp_plain, n, 0x2 | 3 << 16 | 1 << 20, &rxs, rx,
                    &st);
    g_assert_cmphex(ms, ==, 0x80000000u | D11_RX_MAC_DEC | D11_RX_MAC_DECERR);
    key_write(B, 0, 0, other_key, 0);

    /* WEP-40, key ID 2, static WEP (USEDEFKEYS) */
    key_write(A, 2, 1, wep_key, 5);
    n = sizeof(wep_plain);
    ms = crypt_xfer(&a, wep_plain, n, 0x2 | 1 << 16 | 2 << 20, &rxs, rx,
                    &st);
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + n + 4 + 4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + 28, sizeof(wep_air_head),
                    wep_air_head, sizeof(wep_air_head));
    key_write(B, 2, 1, wep_key, 5);
    shm_w16(B, D11_SHM_SH_HOSTF1, D11_HF_USEDEFKEYS);
    ms = crypt_xfer(&a, wep_plain, n, 0x2 | 1 << 16 | 2 << 20, &rxs, rx,
                    &st);
    g_assert_cmphex(ms, ==, 0x80000000u | D11_RX_MAC_DEC | 2 << 5);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, n, wep_plain, n);

    /* pairwise CCMP A -> B by RCMTA (slot 4 = RCMTA 0), and TKIP */
    n = qbcm_frame(f, B->mac, A->mac, 40);
    f[1] |= 0x40;
    memmove(f + 32, f + 24, 40);
    memset(f + 24, 0, 8);
    f[24] = 7;                                          /* PN 7 */
    f[27] = 0x20;                                       /* ExtIV */
    n += 8;
    key_write(A, 4, 3, ccmp_tk, 16);
    key_write(B, 7, 3, ccmp_tk, 16);
    keymac_write(B, 7, A->mac);
    ms = crypt_xfer(&a, f, n, 0x3 | 3 << 16 | 4 << 20, &rxs, rx, &st);
    g_assert_cmphex(st & 0xf003, ==, 0x1003);           /* acked */
    g_assert_cmphex(ms, ==, 0x80000000u | D11_RX_MAC_DEC | 7 << 5);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, n, f, n);
    /* a frame from a station B has no key for: passed undecrypted */
    keymac_write(B, 7, B->mac);
    ms = crypt_xfer(&a, f, n, 0x3 | 3 << 16 | 4 << 20, &rxs, rx, &st);
    g_assert_cmphex(ms, ==, 0x80000000u);
    g_assert(memcmp(rx + D11_RX_FW598_FO + 6 + 32, f + 32, 40) != 0);
    /* TKIP (hwtkip): RC4 with the mixed key, ICV appended */
    f[24] = 0;
    f[25] = 0x20;
    f[26] = 7;
    key_write(A, 5, 2, tkip_tk, 16);
    key_write(B, 6, 2, tkip_tk, 16);
    keymac_write(B, 6, A->mac);
    ms = crypt_xfer(&a, f, n, 0x3 | 2 << 16 | 5 << 20, &rxs, rx, &st);
    g_assert_cmphex(ms, ==, 0x80000000u | D11_RX_MAC_DEC | 6 << 5);
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + n + 4 + 4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, n, f, n);

    /* the TKIP vector (M.6.3: TSC 1, MIC in the body) through the card */
    {
        static const uint8_t tkip_plain[] = {
            0x08, 0x42, 0x2c, 0x00, 0x02, 0x03, 0x04, 0x05, 0x06, 0x08,
            0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x02, 0x03, 0x04, 0x05,
            0x06, 0x07, 0xd0, 0x02, 0x00, 0x20, 0x01, 0x20, 0x00, 0x00,
            0x00, 0x00, 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00,
            0x45, 0x00, 0x00, 0x54, 0x00, 0x00, 0x40, 0x00, 0x40, 0x01,
        };
        static const uint8_t tkip_air_head[] = {
            0xc0, 0x0e, 0x14, 0xfc, 0xe7, 0xcf, 0xab, 0xc7, 0x75, 0x47,
            0xe6, 0x66, 0xe5, 0x7c, 0x0d, 0xac, 0x70, 0x4a,
        };

        set_own_mac(B, tkip_plain + 4);
        ms = crypt_xfer(&a, tkip_plain, sizeof(tkip_plain),
                        0x2 | 2 << 16 | 5 << 20, &rxs, rx, &st);
        g_assert_cmphex(ms, ==, 0x80000000u);           /* B: no key */
        g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + 32, sizeof(tkip_air_head),
                        tkip_air_head, sizeof(tkip_air_head));
        set_own_mac(B, B->mac);
    }

    /* hostile key use: bad slot, bad algorithm, bad KTP: nothing sent */
    for (int k = 0; k < 3; k++) {
        uint32_t ctl = k == 0 ? 0x3 | 3 << 16 | 60 << 20 :
                       k == 1 ? 0x3 | 7 << 16 | 4 << 20 :
                                0x3 | 3 << 16 | 53 << 20;

        if (k == 2) {
            shm_w16(A, D11_SHM_SH_KTP, 0xfff0);
        }
        ms = crypt_xfer(&a, f, n, ctl, &rxs, rx, &st);
        g_assert_cmphex(ms, ==, 0);
        g_assert_cmphex(st & 0xf003, ==, 0x0001);       /* not sent */
    }
    /* a frame too short for its CCMP header */
    shm_w16(A, D11_SHM_SH_KTP, 0x400);
    ms = crypt_xfer(&a, f, 28, 0x3 | 3 << 16 | 4 << 20, &rxs, rx, &st);
    g_assert_cmphex(ms, ==, 0);
    g_assert_cmphex(st & 0xf003, ==, 0x0001);
    /* garbage in the algorithm block of B: the frame passes as is */
    shm_w16(B, D11_SHM_SH_KEYIDXBLOCK + 2 * 6, 0x6f);
    ms = crypt_xfer(&a, f, n, 0x3 | 2 << 16 | 5 << 20, &rxs, rx, &st);
    g_assert_cmphex(ms, ==, 0x80000000u);
    /* both cards still work */
    n = qbcm_frame(f, B->mac, A->mac, 40);
    ms = crypt_xfer(&a, f, n, 0x3, &rxs, rx, &st);
    g_assert_cmphex(ms, ==, 0x80000000u);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, n, f, n);
    qbcm_air_close(&a, 2);
}

/* /bcm43xx/<chip>/<block>/<name>, for the bcm4331 and the bcm43224 */
static void add_test(const char *chip, const char *name,
                     void (*fn)(const void *))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/%s", chip, name);

    qtest_add_data_func(path, chip, fn);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_test(chips[i], "crypto/keys", test_crypto);
    }
    return g_test_run();
}
