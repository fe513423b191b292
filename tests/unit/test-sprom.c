/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit test of the BCM4331 SPROM builder and validator
 * (hw/net/bcm43xx/sprom.c) against the rules of drivers/bcma/sprom.c.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "sprom.h"

/*
 * Independent bitwise CRC of the kernel's algorithm (no table), so the
 * table-driven implementation is checked against a second derivation.
 */
static uint8_t ref_crc(const uint16_t *w, unsigned n)
{
    uint8_t crc = 0xff;

    for (unsigned i = 0; i < 2 * n - 1; i++) {
        uint8_t byte = (i & 1) ? w[i / 2] >> 8 : w[i / 2] & 0xff;

        crc ^= byte;
        for (int b = 0; b < 8; b++) {
            crc = (crc & 1) ? (crc >> 1) ^ 0xab : crc >> 1;
        }
    }
    return crc ^ 0xff;
}

/* Vectors computed with the kernel's table (bcma/sprom.c bcma_crc8()). */
static void test_crc_vectors(void)
{
    uint16_t w[BCM_SPROM_WORDS_R4];

    for (int i = 0; i < 219; i++) {
        w[i] = 0xffff;
    }
    w[219] = 0x0009;
    g_assert_cmphex(bcm_sprom_crc(w, 220), ==, 0x28);
    memset(w, 0, sizeof(w));
    w[219] = 0x0009;
    g_assert_cmphex(bcm_sprom_crc(w, 220), ==, 0x44);
    bcm_sprom_fix_crc(w, 220);
    g_assert_cmphex(w[219], ==, 0x4409);
}

static void test_crc_matches_reference(void)
{
    uint16_t w[BCM_SPROM_MAX_WORDS];
    uint32_t x = 0x12345678;

    for (int round = 0; round < 64; round++) {
        for (int i = 0; i < BCM_SPROM_MAX_WORDS; i++) {
            x = x * 1103515245 + 12345;
            w[i] = x >> 8;
        }
        g_assert_cmphex(bcm_sprom_crc(w, 220), ==, ref_crc(w, 220));
        g_assert_cmphex(bcm_sprom_crc(w, 234), ==, ref_crc(w, 234));
    }
}

static void test_build_r9(void)
{
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    uint16_t w[BCM_SPROM_MAX_WORDS];
    unsigned n, words = 0;

    n = bcm_sprom_build_r9(w, mac);
    g_assert_cmpuint(n, ==, 220);
    g_assert_cmpint(bcm_sprom_check(w, n * 2, &words), ==, BCM_SPROM_OK);
    g_assert_cmpuint(words, ==, 220);
    g_assert_cmphex(w[219] & 0xff, ==, 9);
    /* il0mac: big-endian per word (bcma_sprom_extract_r8) */
    g_assert_cmphex(w[70], ==, 0x5254);
    g_assert_cmphex(w[71], ==, 0x0012);
    g_assert_cmphex(w[72], ==, 0x3456);
    /* PCIe core index 2 in word 0, L23 fixup bit set in word 5 */
    g_assert_cmphex(w[0] >> 12, ==, 2);
    g_assert_cmphex(w[5] & 0x8000, ==, 0x8000);
    /* three chains available; power info of cores 0..2 sane */
    g_assert_cmphex(w[78] & 0xff, ==, 0x07);
    for (int c = 0; c < 3; c++) {
        const uint16_t *p = &w[96 + 16 * c];
        int16_t a1 = p[1];

        g_assert_cmpuint(p[0] & 0xff, >, 0);
        g_assert_cmpuint(p[0] & 0xff, <, 0x80);
        /* b43 divides by 32768 + a1 * i, i = 0..63 */
        for (int i = 0; i < 64; i++) {
            g_assert_cmpint(32768 + a1 * i, !=, 0);
        }
    }
}

static void test_set_mac_needs_crc(void)
{
    static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
    static const uint8_t mac2[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
    uint16_t w[BCM_SPROM_MAX_WORDS];
    unsigned words;

    bcm_sprom_build_r9(w, mac);
    bcm_sprom_set_mac(w, mac2);
    g_assert_cmpint(bcm_sprom_check(w, 440, &words), ==, BCM_SPROM_ERR_CRC);
    bcm_sprom_fix_crc(w, 220);
    g_assert_cmpint(bcm_sprom_check(w, 440, &words), ==, BCM_SPROM_OK);
    g_assert_cmphex(w[72], ==, 0x0002);
}

static void test_check_rejects(void)
{
    static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 1 };
    uint16_t w[BCM_SPROM_MAX_WORDS];
    unsigned words = 0;

    bcm_sprom_build_r9(w, mac);
    /* sizes bcma does not read */
    g_assert_cmpint(bcm_sprom_check(w, 0, &words), ==, BCM_SPROM_ERR_SIZE);
    g_assert_cmpint(bcm_sprom_check(w, 438, &words), ==, BCM_SPROM_ERR_SIZE);
    g_assert_cmpint(bcm_sprom_check(w, 441, &words), ==, BCM_SPROM_ERR_SIZE);
    g_assert_cmpint(bcm_sprom_check(w, 442, &words), ==, BCM_SPROM_ERR_SIZE);
    /* one flipped bit anywhere breaks the CRC */
    for (int i = 0; i < 220; i++) {
        w[i] ^= 0x0100;
        g_assert_cmpint(bcm_sprom_check(w, 440, &words), ==,
                        BCM_SPROM_ERR_CRC);
        w[i] ^= 0x0100;
    }
    /* revisions outside 8..11 with a valid CRC */
    for (int rev = 0; rev < 256; rev++) {
        w[219] = rev;
        bcm_sprom_fix_crc(w, 220);
        g_assert_cmpint(bcm_sprom_check(w, 440, &words), ==,
                        rev >= 8 && rev <= 11 ? BCM_SPROM_OK :
                        BCM_SPROM_ERR_REV);
    }
    /* a valid rev-11 image of 234 words */
    for (int i = 220; i < 234; i++) {
        w[i] = 0xffff;
    }
    w[219] = 0xffff;
    w[233] = 11;
    bcm_sprom_fix_crc(w, 234);
    g_assert_cmpint(bcm_sprom_check(w, 468, &words), ==, BCM_SPROM_OK);
    g_assert_cmpuint(words, ==, 234);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bcm4331/sprom/crc-vectors", test_crc_vectors);
    g_test_add_func("/bcm4331/sprom/crc-reference", test_crc_matches_reference);
    g_test_add_func("/bcm4331/sprom/build-r9", test_build_r9);
    g_test_add_func("/bcm4331/sprom/set-mac-crc", test_set_mac_needs_crc);
    g_test_add_func("/bcm4331/sprom/check-rejects", test_check_rejects);
    return g_test_run();
}
