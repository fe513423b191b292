/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What a radio and the air exchange: a frame's meta data, a radio's site
 * and statistics, the client a radio attaches (include/net/wifi/medium.h
 * has the calls).  Types only, so that the medium's own parts can use
 * them without the medium's core.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_CLIENT_H
#define NET_WIFI_MEDIUM_CLIENT_H

#include "qemu/queue.h"
#include "qom/object.h"
#include "net/wifi/deferred.h"
#include "net/wifi/ieee80211.h"

#define TYPE_WIFI_MEDIUM "wifi-medium"
OBJECT_DECLARE_SIMPLE_TYPE(WifiMedium, WIFI_MEDIUM)

/* largest MPDU the air carries (IEEE 802.11-2020: 2304 + headers) */
#define WIFI_MAX_FRAME          2352
/* frames waiting for one receiver; more are dropped (a busy receiver) */
#define WIFI_RX_QUEUE_MAX       256

/* What the air knows of a frame besides its bytes (no FCS in the bytes) */
typedef struct WifiFrameMeta {
    uint32_t freq_mhz;          /* channel centre frequency */
    int8_t txpower_dbm;
    int8_t signal_dbm;          /* filled in for each receiver */
    uint16_t rate_500k;         /* data rate, 500 kb/s units */
    bool ofdm;
    bool short_preamble;
    uint32_t airtime_us;        /* duration on the air */
    int64_t tx_time_ns;         /* virtual time the transmission started */
    bool fcs_bad;               /* corrupted on the air (receivers only) */
    /*
     * Senders only: after @fallback_after attempts at rate_500k, the
     * retransmissions go at @fallback_rate_500k (0 attempts: no fallback)
     */
    uint8_t fallback_after;
    bool fallback_ofdm;
    uint16_t fallback_rate_500k;
    /*
     * Senders only, airtime on: protection sent before each attempt of a
     * unicast frame: an RTS (@prot_frame, 16 bytes: FC, duration, RA, TA),
     * answered by a CTS from the addressee, or a CTS-to-self (10 bytes),
     * at @prot_rate_500k.  An RTS left unanswered @prot_limit times gives
     * the frame up.
     */
    uint8_t prot;               /* WIFI_PROT_* */
    bool prot_ofdm;
    uint8_t prot_limit;
    uint16_t prot_rate_500k;
    uint8_t prot_frame[16];
} WifiFrameMeta;

enum {
    WIFI_PROT_NONE,
    WIFI_PROT_RTS,
    WIFI_PROT_CTS,              /* CTS-to-self */
};
#define WIFI_RTS_LEN            16      /* FC, duration, RA, TA */

typedef struct WifiMediumClient WifiMediumClient;

/* where a transmission comes from, for the link model */
typedef struct WifiSite {
    double pos[3];              /* metres */
    uint8_t addr[6];            /* the radio's own address (zero: unknown) */
} WifiSite;

/* what one radio did on the air (query-wifi-air) */
typedef struct WifiRadioStats {
    uint64_t tx_frames;         /* transmissions, retransmissions included */
    uint64_t tx_bytes;
    uint64_t tx_retries;        /* retransmissions */
    uint64_t collisions;        /* own transmissions lost to a collision */
    uint64_t rx_frames;         /* frames received intact */
    uint64_t rx_bytes;
    uint64_t rx_errors;         /* heard, but lost to noise or link loss */
    uint64_t drops;             /* not taken: the receive queue was full */
} WifiRadioStats;

/* what became of a frame (its exchange) */
typedef struct WifiTxResult {
    bool acked;
    unsigned attempts;          /* transmissions of the frame */
    unsigned rts_attempts;      /* RTS frames sent before them */
} WifiTxResult;

/*
 * A radio's two entry points, as a CAN controller has two on its bus
 * (include/net/can_emu.h).  Everything else the medium needs to know of a
 * radio the radio tells it when it changes (wifi_medium_set_freq(),
 * _set_addr(), _set_wants()); the medium never asks.
 */
typedef struct WifiMediumClientOps {
    /*
     * A frame arrives (called from the client's deferred work): only on
     * the radio's frequency, only while it wants frames (WIFI_WANT_RX),
     * control frames only if it wants them, never an ACK or CTS to its
     * own address (the answer to its own frame: the medium did what it
     * does), a frame with a bad FCS only with WIFI_WANT_BAD_FCS and
     * meta->fcs_bad set.
     */
    void (*receive)(WifiMediumClient *c, const uint8_t *frame, size_t len,
                    const WifiFrameMeta *meta);
    /*
     * Optional, airtime on: the exchange of a frame queued with @notify
     * ended (called from a timer): @r says how.
     */
    void (*tx_done)(WifiMediumClient *c, const WifiTxResult *r);
} WifiMediumClientOps;

/* what a radio wants from the air now (wifi_medium_set_wants) */
enum {
    /*
     * it takes frames: receives them and acknowledges (with an ACK, a CTS
     * to an RTS) the unicast ones to its address
     */
    WIFI_WANT_RX = 1 << 0,
    WIFI_WANT_CTRL = 1 << 1,        /* control frames (a monitor's) too */
    WIFI_WANT_BAD_FCS = 1 << 2,     /* frames with a bad FCS too */
};

/* one transmission, airtime on (local with its retries, or remote) */
typedef struct WifiTxJob WifiTxJob;

typedef struct WifiQueuedFrame {
    QSIMPLEQ_ENTRY(WifiQueuedFrame) next;
    WifiFrameMeta meta;
    size_t len;
    uint8_t data[];
} WifiQueuedFrame;

struct WifiMediumClient {
    const WifiMediumClientOps *ops;
    void *opaque;
    WifiMedium *medium;
    const char *name;
    double pos[3];              /* metres (wifi_radio_class_add_pos) */
    /* what the radio told the medium (wifi_medium_set_*); read-only here */
    uint32_t freq_mhz;          /* the channel it listens on; 0: off */
    uint8_t addr[6];            /* its own address; all zero: none */
    unsigned wants;             /* WIFI_WANT_* */
    int8_t txpower_dbm;         /* of its last transmission */
    WifiRadioStats stats;
    uint32_t radio_id;          /* the medium's number for it, from 1 */
    int64_t nav_until_ns;       /* virtual carrier sense (NAV), airtime on */
    QTAILQ_ENTRY(WifiMediumClient) next;
    QSIMPLEQ_HEAD(, WifiQueuedFrame) rxq;
    unsigned rxq_len;
    WifiDeferred *rx_work;      /* delivers rxq; NULL once detached */
    /* airtime on: frames waiting for the channel, the head contending */
    QSIMPLEQ_HEAD(, WifiTxJob) txq;
    unsigned txq_len;
};

/* is @addr the address @c told the medium (an address it has)? */
static inline bool wifi_client_is(const WifiMediumClient *c,
                                  const uint8_t *addr)
{
    static const uint8_t none[6];

    return memcmp(c->addr, none, 6) && !memcmp(addr, c->addr, 6);
}

/* does @c acknowledge a unicast frame to @addr1 now? */
static inline bool wifi_client_acks(const WifiMediumClient *c,
                                    const uint8_t *addr1)
{
    return (c->wants & WIFI_WANT_RX) && wifi_client_is(c, addr1);
}

/* a radio's transmit power until it sends its first frame */
#define WIFI_TXPOWER_DEFAULT_DBM 20

/* frames one radio may have waiting for the channel (airtime on) */
#define WIFI_TX_QUEUE_MAX       64

/*
 * Positions: a radio device's "x", "y", "z" properties (metres, decimals
 * allowed, settable while the guest runs: qom-set or wifi-radio-move).
 * @client_offset: where the device keeps its WifiMediumClient.
 */
#define WIFI_POS_MAX_M          1e6
void wifi_radio_class_add_pos(ObjectClass *klass, size_t client_offset,
                              const char *desc);

/* the channel's noise floor, dBm (property noise-floor) */
double wifi_medium_noise_floor(WifiMediumClient *c);

#endif
