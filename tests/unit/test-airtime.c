/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit test of the 802.11b/g timing of the simulated air
 * (net/wifi/airtime.c) against values computed from IEEE Std
 * 802.11-2020 by hand.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "net/wifi/airtime.h"

static void test_ofdm(void)
{
    /*
     * 1500 bytes at 54 Mb/s: 16 + 12000 + 6 bits in 216-bit symbols = 56
     * symbols = 224 us, + 20 us preamble/SIGNAL + 6 us signal extension.
     */
    g_assert_cmpuint(wifi_airtime_us(1500, 108, true, false), ==, 250);
    /* 6 Mb/s, 24 bits per symbol: 12022 / 24 -> 501 symbols */
    g_assert_cmpuint(wifi_airtime_us(1500, 12, true, false), ==,
                     20 + 4 * 501 + 6);
    /* ACK (14 bytes) at 24 Mb/s: 134 bits in 96-bit symbols = 2 */
    g_assert_cmpuint(wifi_airtime_us(14, 48, true, false), ==, 34);
    /* the short-preamble flag means nothing to OFDM */
    g_assert_cmpuint(wifi_airtime_us(1500, 108, true, true), ==, 250);
}

static void test_dsss(void)
{
    /* 1500 bytes at 11 Mb/s, long preamble: 192 + 12000 / 11 -> 1091 */
    g_assert_cmpuint(wifi_airtime_us(1500, 22, false, false), ==, 1283);
    /* ... short preamble: 96 + 1091 */
    g_assert_cmpuint(wifi_airtime_us(1500, 22, false, true), ==, 1187);
    /* ACK at 1 Mb/s, long preamble: 192 + 112 */
    g_assert_cmpuint(wifi_airtime_us(14, 2, false, false), ==, 304);
    /* 5.5 Mb/s: 8 bits -> 16 / 11 us, rounded up */
    g_assert_cmpuint(wifi_airtime_us(1, 11, false, false), ==, 192 + 2);
    g_assert_cmpuint(wifi_airtime_us(100, 0, false, false), ==, 0);
}

static void test_timing(void)
{
    g_assert_cmpuint(wifi_slot_us(true), ==, 9);
    g_assert_cmpuint(wifi_slot_us(false), ==, 20);
    g_assert_cmpuint(wifi_difs_us(true), ==, 28);
    g_assert_cmpuint(wifi_difs_us(false), ==, 50);
    g_assert_cmpuint(wifi_cw(true, 0), ==, 15);
    g_assert_cmpuint(wifi_cw(true, 1), ==, 31);
    g_assert_cmpuint(wifi_cw(false, 0), ==, 31);
    g_assert_cmpuint(wifi_cw(true, 6), ==, 1023);
    g_assert_cmpuint(wifi_cw(true, 100), ==, 1023);
    /* control response rates */
    g_assert_cmpuint(wifi_ack_rate(108, true), ==, 48);
    g_assert_cmpuint(wifi_ack_rate(36, true), ==, 24);
    g_assert_cmpuint(wifi_ack_rate(18, true), ==, 12);
    g_assert_cmpuint(wifi_ack_rate(12, true), ==, 12);
    g_assert_cmpuint(wifi_ack_rate(22, false), ==, 4);
    g_assert_cmpuint(wifi_ack_rate(2, false), ==, 2);
    g_assert_cmpuint(wifi_ack_us(108, true, false), ==, 10 + 34);
    g_assert_cmpuint(wifi_ack_us(22, false, false), ==, 10 + 192 + 56);
}

static void test_exchange(void)
{
    /*
     * A 1536-byte MPDU (1500-byte IP packet, 24-byte header, 8-byte
     * LLC/SNAP, FCS) at 54 Mb/s: DIFS 28 + 7.5 slots (67.5 us) + 254 us
     * + SIFS 10 + ACK 34 = 393.5 us: 31.2 Mb/s of IP at most.
     */
    g_assert_cmpuint(wifi_airtime_us(1536, 108, true, false), ==, 254);
    g_assert_cmpuint(wifi_exchange_mean_ns(1536, 108, true, false, true),
                     ==, 393500);
    g_assert_cmpuint(wifi_exchange_mean_ns(1536, 108, true, false, false),
                     ==, 349500);
    /* 11 Mb/s long preamble: 50 + 310 + 1283 + 10 + 192 + 56 */
    g_assert_cmpuint(wifi_exchange_mean_ns(1500, 22, false, false, true),
                     ==, 1901000);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wifi/airtime/ofdm", test_ofdm);
    g_test_add_func("/wifi/airtime/dsss", test_dsss);
    g_test_add_func("/wifi/airtime/timing", test_timing);
    g_test_add_func("/wifi/airtime/exchange", test_exchange);
    return g_test_run();
}
