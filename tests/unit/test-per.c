/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The air's frame error rate from the SNR (net/wifi/per.c).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "net/wifi/per.h"

/* rounding noise: 2^-40, about 10^-12 */
#define TINY ldexp(1, -40)

/*
 * Values computed independently (a Python transcription of the published
 * formulas: Pei & Miller's OFDM model, ns-3's DSSS model) at points on the
 * slope of each curve, where a wrong coefficient shows.
 */
static const struct {
    double snr_db;
    uint16_t rate;
    bool ofdm, short_preamble;
    size_t bytes;
    double per;
} vectors[] = {
    {  -3.0,   2, false, false, 1500, 0.0933670462 },
    {   1.5,   4, false, false, 1500, 0.128376985 },
    {   1.5,   4, false, true,  1500, 0.128855891 },
    {   6.0,  11, false, false, 1500, 0.214277748 },
    {   9.5,  22, false, false, 1500, 0.609239777 },
    {   9.5,  22, false, false,  100, 0.0607222747 },
    {   3.5,  12, true,  false, 1500, 0.412303418 },
    {   6.5,  18, true,  false, 1500, 0.290075665 },
    {   6.7,  24, true,  false, 1500, 0.240321422 },
    {   9.5,  36, true,  false, 1500, 0.298392256 },
    {  13.0,  48, true,  false, 1500, 0.410255656 },
    {  16.0,  72, true,  false, 1500, 0.509721271 },
    {  21.0,  96, true,  false, 1500, 0.276643412 },
    {  22.0, 108, true,  false, 1500, 0.487193912 },
    {  22.0, 108, true,  false,   14, 0.00621394974 },
    {  30.0, 108, true,  false, 1500, 0 },
};

static void test_vectors(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
        double p = wifi_per(vectors[i].snr_db, vectors[i].rate,
                            vectors[i].ofdm, vectors[i].short_preamble,
                            vectors[i].bytes);

        /* to a part in a million, 10^-7 absolute */
        g_assert_cmpfloat_with_epsilon(p, vectors[i].per,
                                       (1 + 10 * vectors[i].per) / 10000000);
    }
}

/* the SNR (0.01 dB steps) at which a 1500-byte frame gets through 90% */
static double threshold(uint16_t rate, bool ofdm)
{
    double db = -10;

    while (wifi_per(db, rate, ofdm, false, 1500) > 0.1) {
        db += 0.01;
        g_assert_cmpfloat(db, <, 40);
    }
    return db;
}

/*
 * Faster rates need more SNR, within DSSS and within OFDM (9 and 12 Mb/s
 * are within a tenth of a dB in this model: BPSK 3/4 against QPSK 1/2).
 */
static void test_thresholds(void)
{
    static const uint16_t dsss[] = { 2, 4, 11, 22 };
    static const uint16_t ofdm[] = { 12, 18, 24, 36, 48, 72, 96, 108 };
    double last = -100;

    for (size_t i = 0; i < ARRAY_SIZE(dsss); i++) {
        double t = threshold(dsss[i], false);

        g_assert_cmpfloat(t, >, last);
        last = t;
    }
    g_assert_cmpfloat(threshold(2, false), <, -2.5);    /* Barker gain */
    last = -100;
    for (size_t i = 0; i < ARRAY_SIZE(ofdm); i++) {
        double t = threshold(ofdm[i], true);

        g_assert_cmpfloat(t, >, last);
        last = t;
    }
    g_assert_cmpfloat(threshold(108, true), >, 20);
    g_assert_cmpfloat(threshold(108, true), <, 25);
}

/* more SNR never hurts, a longer frame never helps */
static void test_monotonic(void)
{
    static const uint16_t rates[] = { 2, 4, 11, 22, 12, 18, 24, 36, 48, 72,
                                      96, 108 };

    for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
        bool ofdm = i >= 4;
        double last = 1.0;

        for (double db = -10; db <= 35; db += 0.25) {
            double p = wifi_per(db, rates[i], ofdm, false, 1000);

            g_assert_cmpfloat(p, >=, 0.0);
            g_assert_cmpfloat(p, <=, last + TINY);
            g_assert_cmpfloat(wifi_per(db, rates[i], ofdm, false, 1500), >=,
                              p - TINY);
            last = p;
        }
        g_assert_cmpfloat(last, <, 1000 * TINY);
        g_assert_cmpfloat(wifi_per(-10, rates[i], ofdm, false, 1000), >,
                          0.99);
    }
    g_assert_cmpfloat(wifi_per(NAN, 2, false, false, 100), ==, 1.0);
}

/* the rate chosen for an SNR: the fastest with a PER at most the bound */
static void test_rate_for_snr(void)
{
    bool ofdm;

    g_assert_cmpuint(wifi_rate_for_snr(40, 1500, true, 0.1, &ofdm), ==, 108);
    g_assert_true(ofdm);
    g_assert_cmpuint(wifi_rate_for_snr(40, 1500, false, 0.1, &ofdm), ==, 22);
    g_assert_false(ofdm);
    g_assert_cmpuint(wifi_rate_for_snr(15, 1500, true, 0.1, &ofdm), ==, 48);
    g_assert_cmpuint(wifi_rate_for_snr(8, 1500, true, 0.1, &ofdm), ==, 24);
    g_assert_cmpuint(wifi_rate_for_snr(5, 1500, true, 0.1, &ofdm), ==, 12);
    g_assert_cmpuint(wifi_rate_for_snr(2, 1500, true, 0.1, &ofdm), ==, 4);
    g_assert_false(ofdm);
    g_assert_cmpuint(wifi_rate_for_snr(-20, 1500, true, 0.1, &ofdm), ==, 2);
    for (double db = -5; db < 30; db += 0.5) {
        uint16_t r = wifi_rate_for_snr(db, 1500, true, 0.1, &ofdm);

        g_assert_true(r == 2 || wifi_per(db, r, ofdm, false, 1500) <= 0.1);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wifi/per/vectors", test_vectors);
    g_test_add_func("/wifi/per/thresholds", test_thresholds);
    g_test_add_func("/wifi/per/monotonic", test_monotonic);
    g_test_add_func("/wifi/per/rate-for-snr", test_rate_for_snr);
    return g_test_run();
}
