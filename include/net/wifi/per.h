/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Frame error rate of the simulated air as a function of the SNR, per
 * 802.11b/g rate.  Pure functions, unit-tested on the host
 * (tests/unit/test-per.c).
 *
 * The model is the one ns-3 uses for these PHYs, from the published
 * formulas it is built on:
 *  - ERP-OFDM (6..54 Mb/s): "NIST" error rate model, Y. Pei and J. A.
 *    Miller, "From the Lab to the Field: 802.11 PHY error rate models"
 *    (NIST, 2007; ns-3 src/wifi/model/nist-error-rate-model.cc): uncoded
 *    BER of BPSK/QPSK/16-QAM/64-QAM in AWGN, then the union bound on the
 *    first-event error probability of the K=7 convolutional code at rate
 *    1/2, 2/3, 3/4 (the distance spectra of Frenger et al., "Rate-compatible
 *    convolutional codes", and J. Proakis, "Digital Communications", tables
 *    8.2-1 / 8.2-2).
 *  - DSSS/HR-DSSS (1, 2, 5.5, 11 Mb/s): ns-3's DsssErrorRateModel: DBPSK
 *    and DQPSK with the 11-chip Barker processing gain (Eb/N0 = SNR * 22 MHz
 *    / 1 MHz per bit), CCK 5.5 and 11 Mb/s by the closed-form fits of the
 *    same file (valid for 0.1 <= SNR <= 10, linear).
 * A frame needs its PLCP header (OFDM SIGNAL at 6 Mb/s, 24 bits; DSSS
 * header at 1 Mb/s, 48 bits, or at 2 Mb/s with the short preamble) and its
 * PSDU at the frame's rate.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_PER_H
#define NET_WIFI_PER_H

/*
 * Probability that a frame of @bytes (PSDU, FCS included) at @rate_500k
 * is received with an error, at a signal-to-noise ratio of @snr_db
 */
double wifi_per(double snr_db, uint16_t rate_500k, bool ofdm,
                bool short_preamble, size_t bytes);

/*
 * The fastest rate of the ERP set (1, 2, 5.5, 11 and 6..54 Mb/s; only the
 * DSSS ones unless @ofdm_ok) that delivers a frame of @bytes at @snr_db
 * with an error rate of at most @max_per; 1 Mb/s if none does.  Sets *@ofdm.
 */
uint16_t wifi_rate_for_snr(double snr_db, size_t bytes, bool ofdm_ok,
                           double max_per, bool *ofdm);

#endif
