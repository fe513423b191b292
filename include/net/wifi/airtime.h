/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 802.11b/g timing of the simulated air: how long a frame and its
 * acknowledgement occupy the channel.  Pure functions, unit-tested on the
 * host (tests/unit/test-airtime.c).
 *
 * Values from IEEE Std 802.11-2020: clause 15/16 (DSSS/HR-DSSS: 192 us
 * long or 96 us short PLCP preamble and header, 20 us slot, CWmin 31),
 * clause 17/18 (OFDM/ERP-OFDM: 16 us preamble + 4 us SIGNAL, 4 us symbols,
 * 16 SERVICE + 6 tail bits, 6 us signal extension at 2.4 GHz, short slot
 * 9 us, CWmin 15), SIFS 10 us, DIFS = SIFS + 2 slots, CWmax 1023.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_AIRTIME_H
#define NET_WIFI_AIRTIME_H

#define WIFI_SIFS_US            10
#define WIFI_SLOT_SHORT_US      9       /* ERP-OFDM (short slot) */
#define WIFI_SLOT_LONG_US       20      /* DSSS/HR-DSSS */
#define WIFI_CWMIN_OFDM         15
#define WIFI_CWMIN_DSSS         31
#define WIFI_CWMAX              1023
#define WIFI_ACK_BYTES          14      /* FC, duration, RA, FCS */
#define WIFI_ACK_LEN            10      /* the same without FCS */

/* airtime of a frame of @bytes (with FCS) at @rate_500k, in microseconds */
uint32_t wifi_airtime_us(size_t bytes, uint16_t rate_500k, bool ofdm,
                         bool short_preamble);

/* slot time and DIFS of the modulation, microseconds */
uint32_t wifi_slot_us(bool ofdm);
uint32_t wifi_difs_us(bool ofdm);

/* contention window (slots, 2^k - 1) after @retries failed attempts */
uint32_t wifi_cw(bool ofdm, unsigned retries);

/*
 * Rate of the ACK answering a frame at @rate_500k (the control response
 * rate): the highest mandatory rate of the same modulation not above the
 * data rate: OFDM 6/12/24 Mb/s, DSSS 1/2 Mb/s (basic rate set 1, 2).
 */
uint16_t wifi_ack_rate(uint16_t rate_500k, bool ofdm);

/* SIFS + ACK airtime after a frame at @rate_500k (also the ACK timeout) */
uint32_t wifi_ack_us(uint16_t rate_500k, bool ofdm, bool short_preamble);

/*
 * Mean time of one first-attempt exchange, nanoseconds: DIFS, the mean
 * backoff (CWmin / 2 slots), the frame, and SIFS + ACK when @acked.
 */
uint64_t wifi_exchange_mean_ns(size_t bytes, uint16_t rate_500k, bool ofdm,
                               bool short_preamble, bool acked);

#endif
