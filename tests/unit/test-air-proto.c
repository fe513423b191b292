/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit test of the cross-process air encapsulation
 * (net/wifi/air-proto.c): round trip and hostile input.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "net/wifi/air-proto.h"

static const uint8_t src[6] = { 2, 1, 2, 3, 4, 5 };

static size_t sample_frag(uint8_t *buf, size_t bufsz, uint8_t *frame,
                          size_t len, unsigned frag)
{
    WifiAirFrame f = {
        .sender = 0x0123456789abcdefull, .freq_mhz = 2437,
        .txpower_dbm = -5, .rate_500k = 108, .ofdm = true,
        .short_preamble = false, .airtime_us = 123,
        .tx_time_ns = -42, .pos_mm = { -10500, 20000, 3 }, .seq = 0xbeef,
        .radio = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee },
        .frame = frame, .len = len,
    };

    for (size_t i = 0; i < len; i++) {
        frame[i] = i * 13;
    }
    return wifi_air_encode(buf, bufsz, src, &f, frag);
}

static size_t sample(uint8_t *buf, size_t bufsz, uint8_t *frame, size_t len)
{
    return sample_frag(buf, bufsz, frame, len, 0);
}

static void test_round_trip(void)
{
    uint8_t frame[WIFI_AIR_FRAME_MAX], buf[4096], whole[WIFI_AIR_FRAME_MAX];
    WifiAirFrame g;

    for (size_t len = 10; len <= WIFI_AIR_FRAME_MAX; len += 571) {
        unsigned frags = wifi_air_frags(len);

        memset(whole, 0, sizeof(whole));
        g_assert_cmpuint(frags, ==, len <= 1444 ? 1 : 2);
        for (unsigned i = 0; i < frags; i++) {
            size_t n = sample_frag(buf, sizeof(buf), frame, len, i);
            size_t flen = MIN(len - i * 1444, 1444);

            /* an Ethernet frame: at most 1500 bytes after its header */
            g_assert_cmpuint(n, ==, 14 + 56 + flen);
            g_assert_cmpuint(n, <=, 14 + 1500);
            g_assert_cmphex(buf[12], ==, 0x88);
            g_assert_cmphex(buf[13], ==, 0xb5);
            g_assert_cmpmem(buf + 6, 6, src, 6);
            g_assert_cmpint(wifi_air_decode(buf, n, &g), ==, WIFI_AIR_OK);
            g_assert_cmphex(g.sender, ==, 0x0123456789abcdefull);
            g_assert_cmpuint(g.freq_mhz, ==, 2437);
            g_assert_cmpint(g.txpower_dbm, ==, -5);
            g_assert_cmpuint(g.rate_500k, ==, 108);
            g_assert_true(g.ofdm);
            g_assert_false(g.short_preamble);
            g_assert_false(g.fcs_bad);
            g_assert_cmpuint(g.airtime_us, ==, 123);
            g_assert_cmpint(g.tx_time_ns, ==, -42);
            g_assert_cmpint(g.pos_mm[0], ==, -10500);
            g_assert_cmpint(g.pos_mm[1], ==, 20000);
            g_assert_cmpint(g.pos_mm[2], ==, 3);
            g_assert_cmpmem(g.radio, 6, ((uint8_t[]){ 0x02, 0xaa, 0xbb, 0xcc,
                                                     0xdd, 0xee }), 6);
            g_assert_cmphex(g.seq, ==, 0xbeef);
            g_assert_cmpuint(g.len, ==, len);
            g_assert_cmpuint(g.frag, ==, i);
            g_assert_cmpuint(g.frags, ==, frags);
            g_assert_cmpuint(g.frag_len, ==, flen);
            memcpy(whole + i * 1444, g.frame, g.frag_len);
        }
        g_assert_cmpmem(whole, len, frame, len);
        /* no fragment past the last */
        g_assert_cmpuint(sample_frag(buf, sizeof(buf), frame, len, frags), ==,
                         0);
    }
    /* does not fit / too long: not encoded */
    g_assert_cmpuint(sample(buf, 100, frame, 100), ==, 0);
}

/* fragments that do not add up are refused */
static void test_bad_fragments(void)
{
    uint8_t frame[2000], buf[4096], bad[4096];
    size_t n = sample_frag(buf, sizeof(buf), frame, 2000, 1);
    WifiAirFrame g;

    g_assert_cmpint(wifi_air_decode(buf, n, &g), ==, WIFI_AIR_OK);
    memcpy(bad, buf, n);
    bad[14 + 55] = 3;                               /* 3 of a 2000-byte one */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    memcpy(bad, buf, n);
    bad[14 + 54] = 2;                               /* index 2 of 2 */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    memcpy(bad, buf, n);
    bad[14 + 54] = 0;                               /* index 0: 1444 bytes */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    memcpy(bad, buf, n);
    bad[14 + 55] = 0;                               /* whole, too short */
    bad[14 + 54] = 0;
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    /* a long frame in one piece whose bytes are not all there */
    n = sample_frag(buf, sizeof(buf), frame, 1000, 0);
    stw_be_p(buf + 14 + 44, 2000);
    g_assert_cmpint(wifi_air_decode(buf, n, &g), ==, WIFI_AIR_BAD_LENGTH);
}

/* over a netdev that carries long packets: any frame in one piece */
static void test_whole(void)
{
    uint8_t frame[WIFI_AIR_FRAME_MAX], buf[WIFI_AIR_WHOLE_MAX + 16];
    WifiAirFrame f = {
        .sender = 7, .freq_mhz = 2437, .rate_500k = 108, .ofdm = true,
        .seq = 0x1234, .frame = frame, .whole = true,
    }, g;

    for (size_t i = 0; i < sizeof(frame); i++) {
        frame[i] = i * 7;
    }
    for (f.len = 10; f.len <= WIFI_AIR_FRAME_MAX; f.len += 571) {
        size_t n;

        g_assert_cmpuint(wifi_air_pieces(&f), ==, 1);
        n = wifi_air_encode(buf, sizeof(buf), src, &f, 0);
        g_assert_cmpuint(n, ==, 14 + 56 + f.len);
        g_assert_cmpuint(wifi_air_encode(buf, sizeof(buf), src, &f, 1), ==,
                         0);
        n = wifi_air_encode(buf, sizeof(buf), src, &f, 0);
        g_assert_cmpint(wifi_air_decode(buf, n, &g), ==, WIFI_AIR_OK);
        g_assert_true(g.whole);
        g_assert_cmpuint(g.frags, ==, 1);
        g_assert_cmpuint(g.frag, ==, 0);
        g_assert_cmpuint(g.len, ==, f.len);
        g_assert_cmpuint(g.frag_len, ==, f.len);
        g_assert_cmphex(g.seq, ==, 0x1234);
        g_assert_cmpmem(g.frame, g.frag_len, frame, f.len);
        /* a byte more or less than its length says: refused */
        g_assert_cmpint(wifi_air_decode(buf, n - 1, &g), ==,
                        WIFI_AIR_BAD_LENGTH);
        g_assert_cmpint(wifi_air_decode(buf, n + 1, &g), ==,
                        WIFI_AIR_BAD_LENGTH);
    }
    /* the longest frame fits WIFI_AIR_WHOLE_MAX, not a byte less */
    f.len = WIFI_AIR_FRAME_MAX;
    g_assert_cmpuint(wifi_air_encode(buf, WIFI_AIR_WHOLE_MAX, src, &f, 0),
                     ==, WIFI_AIR_WHOLE_MAX);
    g_assert_cmpuint(wifi_air_encode(buf, WIFI_AIR_WHOLE_MAX - 1, src, &f,
                                     0), ==, 0);
    /* fragments (the default) are unchanged: two for a long frame */
    f.whole = false;
    g_assert_cmpuint(wifi_air_pieces(&f), ==, 2);
}

static void test_hostile(void)
{
    uint8_t frame[64], buf[256], bad[256];
    size_t n = sample(buf, sizeof(buf), frame, 64);
    WifiAirFrame g;

    /* every truncation is refused, never read past the end */
    for (size_t k = 0; k < n; k++) {
        g_autofree uint8_t *cut = g_memdup2(buf, k);

        g_assert_cmpint(wifi_air_decode(cut, k, &g), !=, WIFI_AIR_OK);
    }
    /* trailing garbage: the length no longer matches */
    memcpy(bad, buf, n);
    g_assert_cmpint(wifi_air_decode(bad, n + 1, &g), ==, WIFI_AIR_BAD_LENGTH);
    /* another EtherType is not ours (and not an error) */
    bad[13] = 0x00;
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_NOT_OURS);
    /* another version */
    memcpy(bad, buf, n);
    bad[14] = 3;
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==,
                    WIFI_AIR_VERSION_MISMATCH);
    bad[14] = 1;                /* version 1: metres, no radio address */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==,
                    WIFI_AIR_VERSION_MISMATCH);
    /* header length, frame length, fields */
    memcpy(bad, buf, n);
    bad[17] = 40;
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    memcpy(bad, buf, n);
    bad[14 + 44] = 0xff;
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_LENGTH);
    memcpy(bad, buf, n);
    memset(bad + 14 + 12, 0, 4);                    /* frequency 0 */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_FIELD);
    memcpy(bad, buf, n);
    bad[14 + 1] = 0x80;                             /* unknown flag */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_FIELD);
    bad[14 + 1] = 0x08;                             /* the next one */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_BAD_FIELD);
    bad[14 + 1] = 0x05;                             /* OFDM, FCS bad */
    g_assert_cmpint(wifi_air_decode(bad, n, &g), ==, WIFI_AIR_OK);
    g_assert_true(g.fcs_bad);
    g_assert_true(g.ofdm);
    /* random garbage with our EtherType: never OK by accident */
    for (int r = 0; r < 10000; r++) {
        size_t len = g_random_int_range(0, sizeof(bad));

        for (size_t i = 0; i < len; i++) {
            bad[i] = g_random_int();
        }
        if (len >= 14) {
            bad[12] = 0x88;
            bad[13] = 0xb5;
        }
        if (wifi_air_decode(bad, len, &g) == WIFI_AIR_OK) {
            g_assert_cmpuint(g.frag_len + 70, ==, len);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wifi/air-proto/round-trip", test_round_trip);
    g_test_add_func("/wifi/air-proto/hostile", test_hostile);
    g_test_add_func("/wifi/air-proto/bad-fragments", test_bad_fragments);
    g_test_add_func("/wifi/air-proto/whole", test_whole);
    return g_test_run();
}
