/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's own state: what medium.c keeps of its clients'
 * frames, the channels, the other processes and the pcap.  Private to
 * hw/net/wifi/medium.c; clients use include/hw/net/wifi/medium.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_WIFI_MEDIUM_INT_H
#define HW_NET_WIFI_MEDIUM_INT_H

#include "hw/net/wifi/medium.h"

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
    uint64_t rx_overflows;
    uint64_t acks;
};

#endif
