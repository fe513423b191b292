/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 802.11b/g timing of the simulated air (include/net/wifi/airtime.h).
 * Pure functions: unit-tested on the host.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "net/wifi/airtime.h"

uint32_t wifi_airtime_us(size_t bytes, uint16_t rate_500k, bool ofdm,
                         bool short_preamble)
{
    uint32_t bits = bytes * 8;

    if (rate_500k == 0) {
        return 0;
    }
    if (ofdm) {
        /*
         * 16 us preamble + 4 us SIGNAL, then 4 us symbols of
         * rate * 4 bits carrying SERVICE (16), the PSDU and the tail (6),
         * then the 6 us signal extension of ERP-OFDM.
         */
        uint32_t bits_per_sym = rate_500k * 2;

        return 20 + 4 * DIV_ROUND_UP(16 + bits + 6, bits_per_sym) + 6;
    }
    /* DSSS/CCK: 192 us long or 96 us short PLCP, then the payload */
    return (short_preamble ? 96 : 192) + DIV_ROUND_UP(bits * 2, rate_500k);
}

uint32_t wifi_slot_us(bool ofdm)
{
    return ofdm ? WIFI_SLOT_SHORT_US : WIFI_SLOT_LONG_US;
}

uint32_t wifi_difs_us(bool ofdm)
{
    return WIFI_SIFS_US + 2 * wifi_slot_us(ofdm);
}

uint32_t wifi_cw(bool ofdm, unsigned retries)
{
    uint32_t cw = ofdm ? WIFI_CWMIN_OFDM : WIFI_CWMIN_DSSS;

    /* doubles (2^k - 1) with every failed attempt, up to CWmax */
    for (unsigned i = 0; i < retries && cw < WIFI_CWMAX; i++) {
        cw = cw * 2 + 1;
    }
    return MIN(cw, WIFI_CWMAX);
}

uint16_t wifi_ack_rate(uint16_t rate_500k, bool ofdm)
{
    if (ofdm) {
        return rate_500k >= 48 ? 48 : rate_500k >= 24 ? 24 : 12;
    }
    return rate_500k >= 4 ? 4 : 2;
}

uint32_t wifi_ack_us(uint16_t rate_500k, bool ofdm, bool short_preamble)
{
    return WIFI_SIFS_US + wifi_airtime_us(WIFI_ACK_BYTES,
                                          wifi_ack_rate(rate_500k, ofdm),
                                          ofdm, short_preamble);
}

uint64_t wifi_exchange_mean_ns(size_t bytes, uint16_t rate_500k, bool ofdm,
                               bool short_preamble, bool acked)
{
    uint64_t ns = 1000ull * (wifi_difs_us(ofdm) +
                             wifi_airtime_us(bytes, rate_500k, ofdm,
                                             short_preamble));

    /* mean of a uniform backoff in [0, CWmin] slots */
    ns += 500ull * wifi_cw(ofdm, 0) * wifi_slot_us(ofdm);
    if (acked) {
        ns += 1000ull * wifi_ack_us(rate_500k, ofdm, short_preamble);
    }
    return ns;
}
