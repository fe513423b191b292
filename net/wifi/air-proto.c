/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Wire format between the wifi-medium objects of several QEMU processes
 * (see include/net/wifi/air-proto.h).  Pure functions: unit-tested on
 * the host.  Everything from the wire is untrusted and checked.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "net/wifi/air-proto.h"

unsigned wifi_air_frags(size_t len)
{
    return len ? DIV_ROUND_UP(len, WIFI_AIR_FRAG_DATA) : 1;
}

/* bytes of fragment @frag of a frame of @len bytes */
static size_t wifi_air_frag_len(size_t len, unsigned frag)
{
    size_t off = (size_t)frag * WIFI_AIR_FRAG_DATA;

    return off < len ? MIN(len - off, WIFI_AIR_FRAG_DATA) : 0;
}

unsigned wifi_air_pieces(const WifiAirFrame *f)
{
    return f->whole ? 1 : wifi_air_frags(f->len);
}

size_t wifi_air_size(size_t len, unsigned frag)
{
    return WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + wifi_air_frag_len(len, frag);
}

size_t wifi_air_encode(uint8_t *out, size_t outsz, const uint8_t src[6],
                       const WifiAirFrame *f, unsigned frag)
{
    unsigned frags = wifi_air_pieces(f);
    size_t flen = f->whole ? (frag ? 0 : f->len)
                           : wifi_air_frag_len(f->len, frag);
    size_t n = WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + flen;
    uint8_t *h = out + WIFI_AIR_ETH_LEN;

    if (n > outsz || f->len > WIFI_AIR_FRAME_MAX || frag >= frags) {
        return 0;
    }
    memset(out, 0xff, 6);
    memcpy(out + 6, src, 6);
    stw_be_p(out + 12, WIFI_AIR_ETHERTYPE);
    memset(h, 0, WIFI_AIR_HDR_LEN);
    h[0] = WIFI_AIR_VERSION;
    h[1] = (f->ofdm ? WIFI_AIR_F_OFDM : 0) |
           (f->short_preamble ? WIFI_AIR_F_SHORTPRE : 0) |
           (f->fcs_bad ? WIFI_AIR_F_FCS_BAD : 0);
    stw_be_p(h + 2, WIFI_AIR_HDR_LEN);
    stq_be_p(h + 4, f->sender);
    stl_be_p(h + 12, f->freq_mhz);
    h[16] = f->txpower_dbm;
    stw_be_p(h + 18, f->rate_500k);
    stl_be_p(h + 20, f->airtime_us);
    stq_be_p(h + 24, f->tx_time_ns);
    for (int i = 0; i < 3; i++) {
        stl_be_p(h + 32 + 4 * i, f->pos_mm[i]);
    }
    memcpy(h + 48, f->radio, 6);
    stw_be_p(h + 44, f->len);
    stw_be_p(h + 46, f->seq);
    if (frags > 1) {
        h[54] = frag;
        h[55] = frags;
    }
    memcpy(h + WIFI_AIR_HDR_LEN, f->frame + (size_t)frag * WIFI_AIR_FRAG_DATA,
           flen);
    return n;
}

WifiAirStatus wifi_air_decode(const uint8_t *in, size_t len, WifiAirFrame *f)
{
    const uint8_t *h = in + WIFI_AIR_ETH_LEN;
    size_t hlen;

    if (len < WIFI_AIR_ETH_LEN) {
        return WIFI_AIR_SHORT;
    }
    if (lduw_be_p(in + 12) != WIFI_AIR_ETHERTYPE) {
        return WIFI_AIR_NOT_OURS;
    }
    if (len < WIFI_AIR_ETH_LEN + 4) {
        return WIFI_AIR_SHORT;
    }
    if (h[0] != WIFI_AIR_VERSION) {
        return WIFI_AIR_VERSION_MISMATCH;
    }
    hlen = lduw_be_p(h + 2);
    if (hlen != WIFI_AIR_HDR_LEN) {
        return WIFI_AIR_BAD_LENGTH;
    }
    if (len < WIFI_AIR_ETH_LEN + hlen) {
        return WIFI_AIR_SHORT;
    }
    f->len = lduw_be_p(h + 44);
    f->seq = lduw_be_p(h + 46);
    f->frag = h[54];
    f->frags = MAX(h[55], 1);
    /* in one piece (any length), or in the fragments its length makes */
    if (f->len < 10 || f->len > WIFI_AIR_FRAME_MAX ||
        (f->frags > 1 && f->frags != wifi_air_frags(f->len)) ||
        f->frag >= f->frags) {
        return WIFI_AIR_BAD_LENGTH;
    }
    f->whole = f->frags == 1;
    f->frag_len = f->whole ? f->len : wifi_air_frag_len(f->len, f->frag);
    if (f->frag_len != len - WIFI_AIR_ETH_LEN - hlen) {
        return WIFI_AIR_BAD_LENGTH;
    }
    f->ofdm = h[1] & WIFI_AIR_F_OFDM;
    f->short_preamble = h[1] & WIFI_AIR_F_SHORTPRE;
    f->fcs_bad = h[1] & WIFI_AIR_F_FCS_BAD;
    f->sender = ldq_be_p(h + 4);
    f->freq_mhz = ldl_be_p(h + 12);
    f->txpower_dbm = h[16];
    f->rate_500k = lduw_be_p(h + 18);
    f->airtime_us = ldl_be_p(h + 20);
    f->tx_time_ns = ldq_be_p(h + 24);
    for (int i = 0; i < 3; i++) {
        f->pos_mm[i] = ldl_be_p(h + 32 + 4 * i);
    }
    memcpy(f->radio, h + 48, 6);
    if (f->freq_mhz < 2400 || f->freq_mhz > 6000 || f->rate_500k == 0 ||
        f->rate_500k > 108 || (h[1] & ~WIFI_AIR_F_ALL) || f->txpower_dbm > 40 ||
        f->txpower_dbm < -40) {
        return WIFI_AIR_BAD_FIELD;
    }
    f->frame = h + hlen;        /* the fragment's bytes */
    return WIFI_AIR_OK;
}

const char *wifi_air_strerror(WifiAirStatus st)
{
    switch (st) {
    case WIFI_AIR_OK:
        return "ok";
    case WIFI_AIR_NOT_OURS:
        return "not an air frame";
    case WIFI_AIR_SHORT:
        return "truncated";
    case WIFI_AIR_VERSION_MISMATCH:
        return "other protocol version";
    case WIFI_AIR_BAD_LENGTH:
        return "inconsistent length";
    case WIFI_AIR_BAD_FIELD:
        return "field out of range";
    }
    return "?";
}
