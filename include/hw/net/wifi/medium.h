/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A simulated 802.11 radio medium ("the air"), device independent.
 *
 * Radios (emulated Wi-Fi cards, the virtual access point) attach to a
 * -object wifi-medium as clients, like CAN controllers to a can-bus
 * (include/net/can_emu.h).  A transmission reaches every other client tuned
 * to the same frequency, asynchronously (a guarded bottom half per client),
 * with a received signal computed from the transmit power and the distance.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_WIFI_MEDIUM_H
#define HW_NET_WIFI_MEDIUM_H

#include "qemu/queue.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "hw/qdev-core.h"
#include "net/net.h"
#include "hw/net/wifi/airtime.h"

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
} WifiFrameMeta;

typedef struct WifiMediumClient WifiMediumClient;

typedef struct WifiMediumClientOps {
    /* frequency the radio listens on now; 0 = radio off */
    uint32_t (*freq)(WifiMediumClient *c);
    /* would this radio acknowledge a unicast frame to @addr1 now? */
    bool (*acks)(WifiMediumClient *c, const uint8_t *addr1);
    /* a frame arrives (called from the client's bottom half) */
    void (*receive)(WifiMediumClient *c, const uint8_t *frame, size_t len,
                    const WifiFrameMeta *meta);
    /*
     * Optional: would this radio take frames with a bad FCS now (a monitor
     * asking for them)?  Such frames reach only radios that say yes, with
     * meta->fcs_bad set.
     */
    bool (*wants_bad_fcs)(WifiMediumClient *c);
    /*
     * Optional, airtime on: the exchange of a frame queued with @notify
     * ended after @attempts transmissions (called from a timer).
     */
    void (*tx_done)(WifiMediumClient *c, bool acked, unsigned attempts);
} WifiMediumClientOps;

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
    int32_t pos[3];             /* position, metres */
    QTAILQ_ENTRY(WifiMediumClient) next;
    QSIMPLEQ_HEAD(, WifiQueuedFrame) rxq;
    unsigned rxq_len;
    uint64_t rx_dropped;
    QEMUBH *bh;
    /* airtime on: frames waiting for the channel, the head contending */
    QSIMPLEQ_HEAD(, WifiTxJob) txq;
    unsigned txq_len;
};

/* frames one radio may have waiting for the channel (airtime on) */
#define WIFI_TX_QUEUE_MAX       64
/* transmissions from other processes on the air at once (airtime on) */
#define WIFI_REMOTE_ON_AIR_MAX  256
/* channels whose airtime the medium tracks */
#define WIFI_CHANNELS           32

/*
 * Unicast frames to stations in other processes, kept until that process's
 * ACK comes back (the netdev may lose frames: a full socket buffer)
 */
#define WIFI_ARQ_MAX            256
#define WIFI_ARQ_TIMEOUT_NS     (40 * SCALE_MS)
#define WIFI_ARQ_TRIES          4
typedef struct WifiArqFrame WifiArqFrame;

/* other processes whose clock offset the medium estimates (airtime on) */
#define WIFI_PEERS              16

typedef struct WifiPeerClock {
    bool used;
    uint64_t sender;
    int64_t min[2];             /* least (arrival - start): this, last window */
    int64_t window_ns;          /* start of this window */
} WifiPeerClock;

typedef struct WifiChannel {
    uint32_t freq_mhz;          /* 0: free slot */
    int64_t busy_until_ns;      /* end of the current exchange */
} WifiChannel;

/* stations heard from other processes: unicast to them counts as acked */
#define WIFI_REMOTE_STATIONS    64
#define WIFI_REMOTE_TTL_NS      (10 * NANOSECONDS_PER_SECOND)

typedef struct WifiRemoteStation {
    uint8_t addr[6];
    uint32_t freq_mhz;
    int64_t last_ns;
} WifiRemoteStation;

struct WifiMedium {
    Object parent_obj;
    QTAILQ_HEAD(, WifiMediumClient) clients;
    uint64_t frames;

    /* cross-process link (air-proto.h) */
    char *netdev;
    NICConf conf;
    NICState *nic;
    MemReentrancyGuard guard;
    uint64_t sender_id;
    uint8_t link_mac[6];
    uint64_t remote_frames;
    uint64_t remote_rejected;
    WifiRemoteStation remote[WIFI_REMOTE_STATIONS];
    uint16_t air_seq;
    QTAILQ_HEAD(, WifiArqFrame) arq;
    unsigned arq_len;
    QEMUTimer *arq_timer;
    uint64_t arq_resent;

    /* pcap view of the air */
    char *pcap;
    FILE *pcap_file;

    /* airtime, collisions, corrupted frames */
    bool airtime;
    uint32_t fcs_error_rate;    /* per mille */
    uint64_t seed;
    uint64_t prng;
    WifiChannel chan[WIFI_CHANNELS];
    QTAILQ_HEAD(, WifiTxJob) on_air;
    unsigned remote_on_air;
    WifiPeerClock peers[WIFI_PEERS];
    uint64_t collisions;
    uint64_t fcs_errors;
    uint64_t acks;
};

/*
 * Attach @c (ops, opaque, name, pos filled in) to @m; @owner's reentrancy
 * guard protects the delivery bottom half.  @m may be NULL: the radio is
 * alone on its own air.
 */
void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner);
void wifi_medium_detach(WifiMediumClient *c);
/* drop frames not yet delivered (device reset) */
void wifi_medium_flush(WifiMediumClient *c);

/*
 * Transmit @frame (an MPDU without FCS) from @from.  Returns true when a
 * radio on the channel acknowledges it (unicast only).  Delivery happens
 * later, from each receiver's bottom half.
 */
bool wifi_medium_send(WifiMediumClient *from, const uint8_t *frame,
                      size_t len, const WifiFrameMeta *meta);

/*
 * Does the air take real time (property airtime=on)?  Then senders that
 * care about the outcome use wifi_medium_queue() instead: wifi_medium_send()
 * queues the frame for one attempt and returns false.
 */
bool wifi_medium_paced(WifiMediumClient *c);

/*
 * Airtime on: queue @frame; it waits for the channel (DIFS + backoff),
 * takes its airtime, and, unicast with @retry_limit > 1, is sent again
 * (retry bit set, contention window doubled) until acknowledged or
 * @retry_limit attempts.  With @notify, ops->tx_done reports the outcome.
 * Returns false (nothing queued, no tx_done) when the radio's queue is full.
 */
bool wifi_medium_queue(WifiMediumClient *from, const uint8_t *frame,
                       size_t len, const WifiFrameMeta *meta,
                       unsigned retry_limit, bool notify);
unsigned wifi_medium_txq_len(WifiMediumClient *c);

static inline bool wifi_is_group(const uint8_t *addr)
{
    return addr[0] & 1;
}

#endif
