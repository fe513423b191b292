/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Frame error rate from the SNR per 802.11b/g rate: see
 * include/net/wifi/per.h for the model and its sources.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "net/wifi/per.h"

/* ---- ERP-OFDM ---------------------------------------------------------- */

typedef enum { MOD_BPSK, MOD_QPSK, MOD_16QAM, MOD_64QAM } WifiMod;

/* uncoded bit error rate in AWGN at the linear SNR @snr (per symbol) */
static double wifi_ber(WifiMod mod, double snr)
{
    switch (mod) {
    case MOD_BPSK:
        return 0.5 * erfc(sqrt(snr));
    case MOD_QPSK:
        return 0.5 * erfc(sqrt(snr / 2.0));
    case MOD_16QAM:
        return 0.75 * 0.5 * erfc(sqrt(snr / 10.0));
    case MOD_64QAM:
    default:
        return 7.0 / 12.0 * 0.5 * erfc(sqrt(snr / 42.0));
    }
}

/*
 * Union bound of the first-event error probability of the 802.11 K=7
 * convolutional code (rate 1/2, punctured to 2/3 or 3/4: @b = 1, 2, 3)
 * with hard decisions on bits of error probability @p: the sum over the
 * code's distance spectrum c_d * D^d, D = sqrt(4 p (1 - p)) (Bhattacharyya).
 */
static double wifi_fec_pe(double p, unsigned b)
{
    static const double r12[] = { /* d = 10, 12, ... 26 */
        36, 211, 1404, 11633, 77433, 502690, 3322763, 21292910, 134365911,
    };
    static const double r23[] = { /* d = 6, 7, ... 15 */
        3, 70, 285, 1276, 6160, 27128, 117019, 498860, 2103891, 8784123,
    };
    static const double r34[] = { /* d = 5, 6, ... 14 */
        42, 201, 1492, 10469, 62935, 379644, 2253373, 13073811, 75152755,
        428005675,
    };
    double d = sqrt(4.0 * p * (1.0 - p));
    double pe = 0;

    switch (b) {
    case 1:
        for (size_t i = 0; i < ARRAY_SIZE(r12); i++) {
            pe += r12[i] * pow(d, 10 + 2 * i);
        }
        return 0.5 * pe;
    case 2:
        for (size_t i = 0; i < ARRAY_SIZE(r23); i++) {
            pe += r23[i] * pow(d, 6 + i);
        }
        return pe / (2.0 * b);
    default:
        for (size_t i = 0; i < ARRAY_SIZE(r34); i++) {
            pe += r34[i] * pow(d, 5 + i);
        }
        return pe / (2.0 * b);
    }
}

/* probability that @bits coded at (@mod, rate b) all arrive */
static double wifi_ofdm_success(WifiMod mod, unsigned b, double snr,
                                double bits)
{
    double ber = wifi_ber(mod, snr);
    double pe;

    if (ber == 0.0) {
        return 1.0;
    }
    pe = MIN(wifi_fec_pe(ber, b), 1.0);
    return pow(1.0 - pe, bits);
}

static double wifi_ofdm_rate_success(uint16_t rate_500k, double snr,
                                     double bits)
{
    switch (rate_500k) {
    case 12:  return wifi_ofdm_success(MOD_BPSK, 1, snr, bits);
    case 18:  return wifi_ofdm_success(MOD_BPSK, 3, snr, bits);
    case 24:  return wifi_ofdm_success(MOD_QPSK, 1, snr, bits);
    case 36:  return wifi_ofdm_success(MOD_QPSK, 3, snr, bits);
    case 48:  return wifi_ofdm_success(MOD_16QAM, 1, snr, bits);
    case 72:  return wifi_ofdm_success(MOD_16QAM, 3, snr, bits);
    case 96:  return wifi_ofdm_success(MOD_64QAM, 2, snr, bits);
    default:  return wifi_ofdm_success(MOD_64QAM, 3, snr, bits);
    }
}

/* ---- DSSS / HR-DSSS ---------------------------------------------------- */

/* CCK fits hold for 0.1 <= SNR <= 10 (linear): error-free above */
#define WIFI_SIR_PERFECT        10.0
#define WIFI_SIR_IMPOSSIBLE     0.1

static double wifi_dsss_success(uint16_t rate_500k, double snr, double bits)
{
    double ber;

    switch (rate_500k) {
    case 2: {                   /* DBPSK, 1 bit per 1 MHz symbol */
        double ebn0 = snr * 22.0;

        ber = 0.5 * exp(-ebn0);
        break;
    }
    case 4: {                   /* DQPSK, 2 bits per symbol */
        double ebn0 = snr * 22.0 / 2.0;

        ber = (M_SQRT2 + 1.0) / sqrt(8.0 * M_PI * M_SQRT2) / sqrt(ebn0) *
              exp(-(2.0 - M_SQRT2) * ebn0);
        break;
    }
    case 11:                    /* CCK 5.5 */
        if (snr > WIFI_SIR_PERFECT) {
            ber = 0.0;
        } else if (snr < WIFI_SIR_IMPOSSIBLE) {
            ber = 0.5;
        } else {
            ber = 0.53681634344056195 *
                  exp(-pow((snr - 0.0033092430025608586) /
                           0.41654372361004000, 1.0288981434358866));
        }
        break;
    default:                    /* CCK 11 */
        if (snr > WIFI_SIR_PERFECT) {
            ber = 0.0;
        } else if (snr < WIFI_SIR_IMPOSSIBLE) {
            ber = 0.5;
        } else {
            ber = (0.0079056742265333456 * snr * snr -
                   0.18397449399176360 * snr + 1.0740689468707241) /
                  (snr * snr * snr + 1.0523316904502553 * snr * snr +
                   0.30552298746496687 * snr + 2.2032715128698435);
        }
        break;
    }
    ber = MIN(MAX(ber, 0.0), 0.5);
    return pow(1.0 - ber, bits);
}

/* a frame error rate this small is taken as none */
#define WIFI_PER_NEGLIGIBLE     0.000000000001

/*
 * Above this SNR a frame of at most 4096 bytes at @rate_500k has an error
 * rate below 10^-12, taken as 0 (computed once per rate, by bisection)
 */
static double wifi_per_clear_db(uint16_t rate_500k, bool ofdm)
{
    static double clear[2][128];
    double *c = &clear[ofdm][MIN(rate_500k, 127)];

    if (*c == 0) {
        double lo = -20, hi = 60;

        for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            double snr = pow(10.0, mid / 10.0);
            double ok = ofdm ? wifi_ofdm_rate_success(12, snr, 24) *
                               wifi_ofdm_rate_success(rate_500k, snr,
                                                      8.0 * 4096)
                             : wifi_dsss_success(2, snr, 48) *
                               wifi_dsss_success(4, snr, 48) *
                               wifi_dsss_success(rate_500k, snr, 8.0 * 4096);

            if (1.0 - ok < WIFI_PER_NEGLIGIBLE) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        *c = hi;
    }
    return *c;
}

double wifi_per(double snr_db, uint16_t rate_500k, bool ofdm,
                bool short_preamble, size_t bytes)
{
    double snr = pow(10.0, snr_db / 10.0);
    double bits = 8.0 * bytes;
    double ok;

    if (isnan(snr_db)) {
        return 1.0;
    }
    if (bytes <= 4096 && snr_db >= wifi_per_clear_db(rate_500k, ofdm)) {
        return 0.0;
    }
    if (ofdm) {
        ok = wifi_ofdm_rate_success(12, snr, 24) *
             wifi_ofdm_rate_success(rate_500k, snr, bits);
    } else {
        ok = wifi_dsss_success(short_preamble ? 4 : 2, snr, 48) *
             wifi_dsss_success(rate_500k, snr, bits);
    }
    return MIN(MAX(1.0 - ok, 0.0), 1.0);
}

uint16_t wifi_rate_for_snr(double snr_db, size_t bytes, bool ofdm_ok,
                           double max_per, bool *ofdm)
{
    static const struct {
        uint16_t rate;
        bool ofdm;
    } rates[] = {   /* fastest first */
        { 108, true }, { 96, true }, { 72, true }, { 48, true },
        { 36, true }, { 24, true }, { 22, false }, { 18, true },
        { 12, true }, { 11, false }, { 4, false }, { 2, false },
    };

    for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
        if ((ofdm_ok || !rates[i].ofdm) &&
            wifi_per(snr_db, rates[i].rate, rates[i].ofdm, false,
                     bytes) <= max_per) {
            *ofdm = rates[i].ofdm;
            return rates[i].rate;
        }
    }
    *ofdm = false;
    return 2;
}
