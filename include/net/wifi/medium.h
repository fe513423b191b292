/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A simulated 802.11 radio medium ("the air"), device independent.
 *
 * Radios (emulated Wi-Fi cards, the virtual access point) attach to a
 * -object wifi-medium as clients, like CAN controllers to a can-bus
 * (include/net/can_emu.h).  A transmission reaches every other client tuned
 * to the same frequency, asynchronously (deferred work per client, on the
 * virtual clock),
 * with a received signal computed from the transmit power and the distance.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_H
#define NET_WIFI_MEDIUM_H

#include "qemu/queue.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "hw/qdev-core.h"
#include "net/net.h"
#include "net/wifi/airtime.h"
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

/*
 * What a radio tells the medium when it changes (before or after attach):
 * the frequency it listens on (0: radio off), its own address (the one it
 * acknowledges, which links may name it by; NULL or all zero: none), what
 * it wants (WIFI_WANT_*).  Cheap when nothing changed.
 */
void wifi_medium_set_freq(WifiMediumClient *c, uint32_t freq_mhz);
void wifi_medium_set_addr(WifiMediumClient *c, const uint8_t *addr);
void wifi_medium_set_wants(WifiMediumClient *c, unsigned wants);

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
 * Attach @c (ops, opaque, name, pos filled in) to @m; @owner's reentrancy
 * guard protects the delivery (a WifiDeferred).  @m may be NULL: the radio is
 * alone on its own air.
 */
void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner);
void wifi_medium_detach(WifiMediumClient *c);
/* drop frames not yet delivered (device reset) */
void wifi_medium_flush(WifiMediumClient *c);

/* what became of a frame handed to wifi_medium_transmit() */
typedef enum WifiTxStatus {
    WIFI_TX_DONE,       /* airtime off: sent, the outcome is in *result */
    WIFI_TX_QUEUED,     /* airtime on: ops->tx_done reports it (@notify) */
    WIFI_TX_REFUSED,    /* not sent: the radio's queue is full */
} WifiTxStatus;

/*
 * Transmit @frame (an MPDU without FCS) from @c, the one call of every
 * sender.  The medium fills in meta->airtime_us (from the length, rate and
 * preamble) and, for a frame to a unicast address with @retry_limit > 1,
 * sends it again (retry bit set in @frame; at the fallback rate once
 * meta->fallback_after attempts were made) until a radio acknowledges it
 * or @retry_limit attempts were made.
 *
 * Airtime off (wifi_medium_paced() false): all of it happens before the
 * call returns WIFI_TX_DONE with the outcome in @result (may be NULL).
 * Airtime on: the frame waits for the channel (DIFS + backoff) and each
 * attempt takes its airtime (contention window doubled on a retry); the
 * call returns WIFI_TX_QUEUED and, with @notify, ops->tx_done reports the
 * outcome from a timer, in order; WIFI_TX_REFUSED if the radio's queue
 * holds WIFI_TX_QUEUE_MAX frames (nothing queued, no tx_done).
 * Delivery to receivers happens later, from each receiver's deferred work.
 */
WifiTxStatus wifi_medium_transmit(WifiMediumClient *c, uint8_t *frame,
                                  size_t len, WifiFrameMeta *meta,
                                  unsigned retry_limit, bool notify,
                                  WifiTxResult *result);

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

/*
 * @meta for attempt number @attempt (1 = the first) of a frame of @len
 * bytes: the fallback rate and its airtime from attempt fallback_after + 1
 */
void wifi_meta_for_attempt(WifiFrameMeta *meta, unsigned attempt, size_t len);

/* Does the air take real time (property airtime=on)? */
bool wifi_medium_paced(WifiMediumClient *c);
unsigned wifi_medium_txq_len(WifiMediumClient *c);

#endif
