/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's own state: what it keeps of its clients' frames, the
 * channels, the other processes and the pcap.  Types only: every part of
 * the medium (net/wifi/medium*.c, pcap.c) sees them, each part's functions
 * are in its own header; clients use include/net/wifi/medium.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_STATE_H
#define NET_WIFI_MEDIUM_STATE_H

#include "qemu/timer.h"
#include "qom/object.h"
#include "net/net.h"
#include "hw/qdev-core.h"           /* MemReentrancyGuard */
#include "net/wifi/medium-client.h"
#include "net/wifi/air-proto.h"
#include "net/wifi/airtime.h"
#include "qemu/units.h"

/* the pcap file's default bound (property pcap-max-size) */
#define WIFI_PCAP_MAX_SIZE_DEFAULT  (1 * GiB)

/* transmissions from other processes on the air at once (airtime on) */
#define WIFI_REMOTE_ON_AIR_MAX  256

/*
 * Airtime on: every transmission on the air (data, RTS, CTS, ACK; local or
 * from another process) is kept a while, for carrier sense and for the
 * interference it causes at receivers: a ring of the latest ones.  More
 * than WIFI_EMISSIONS transmissions within the longest frame's airtime
 * cannot happen on the channels of one air.
 */
#define WIFI_EMISSIONS          512
typedef struct WifiEmission {
    int64_t start_ns, end_ns;
    uint32_t freq_mhz;
    int8_t txpower_dbm;
    uint32_t radio;             /* local transmitter's radio_id, 0: remote */
    WifiSite site;
} WifiEmission;

/*
 * Unicast frames to stations in other processes, kept until that process's
 * ACK comes back (the netdev may lose frames: a full socket buffer)
 */
#define WIFI_ARQ_MAX            256
#define WIFI_ARQ_TIMEOUT_NS     (40 * SCALE_MS)
#define WIFI_ARQ_TRIES          4
typedef struct WifiArqFrame WifiArqFrame;

/*
 * Unicast data frames from other processes delivered to a local radio,
 * remembered a second: a resend of one (Retry set, the same sender, TA,
 * sequence control and bytes) is acknowledged again, not delivered again.
 * 802.11 receivers drop a retry only if it repeats the last sequence
 * number of its TID, and a resend across processes comes 40 ms later,
 * after newer frames (mac80211's ieee80211_rx_h_check_dup lets it through,
 * and a WEP or open network has no replay counter to stop it).
 */
#define WIFI_RX_DUPS            64
#define WIFI_RX_DUP_NS          NANOSECONDS_PER_SECOND
typedef struct WifiRxDup {
    uint64_t sender;
    uint8_t ta[6];
    uint16_t seq_ctrl;
    uint32_t crc;               /* the frame's, Retry bit clear */
    bool used;
    int64_t at_ns;
} WifiRxDup;

/* ACKs from other processes that came before their frame was kept */
#define WIFI_EARLY_ACKS         32
typedef struct WifiEarlyAck {
    uint16_t seq;               /* 0: none */
    uint8_t ra[6];
    int64_t at_ns;
} WifiEarlyAck;

/*
 * Long frames from other processes being put together from their
 * fragments (air-proto.h); a slot is reused after a second
 */
#define WIFI_REASM_SLOTS        16
typedef struct WifiReasm {
    unsigned have;              /* fragments received (bits), 0: free */
    int64_t first_ns;
    WifiAirFrame hdr;           /* the first fragment's header */
    uint8_t data[WIFI_AIR_FRAME_MAX];
} WifiReasm;

/* other processes whose clock offset the medium estimates (airtime on) */
#define WIFI_PEERS              16

typedef struct WifiPeerClock {
    bool used;
    uint64_t sender;
    int64_t min[2];             /* least (arrival - start): this, last window */
    int64_t window_ns;          /* start of this window */
} WifiPeerClock;

/* stations heard from other processes: unicast to them counts as acked */
#define WIFI_REMOTE_STATIONS    64
#define WIFI_REMOTE_TTL_NS      (10 * NANOSECONDS_PER_SECOND)

typedef struct WifiRemoteStation {
    uint8_t addr[6];
    uint32_t freq_mhz;
    int64_t last_ns;
} WifiRemoteStation;

/*
 * A link between two radios set by wifi-link-set (a wmediumd-style
 * override of the distance model): each end is a radio's name (its id) or
 * its own address.  Symmetric.
 */
#define WIFI_LINKS_MAX          4096
typedef struct WifiLink {
    QTAILQ_ENTRY(WifiLink) next;
    char *end[2];               /* as given */
    bool is_addr[2];            /* the end is an address: */
    uint8_t addr[2][6];
    bool has_attenuation;
    double attenuation_db;      /* path loss a <-> b, replacing distance */
    bool has_snr;
    double snr_db;              /* or the SNR itself (wmediumd "snr") */
    double loss;                /* probability a frame is lost, 0..1 */
    bool enabled;               /* false: the two do not hear each other */
} WifiLink;

/* what wifi_link_apply() changes of a link */
typedef struct WifiLinkSettings {
    bool has_attenuation, has_snr, has_loss, has_enabled;
    double attenuation, snr, loss;
    bool enabled;
} WifiLinkSettings;

/* a noise source switched on and off by the scenario (an interferer) */
#define WIFI_INTERFERERS        16
typedef struct WifiInterferer {
    char *name;
    double pos[3];
    double power_dbm;           /* at 1 m: + 40 dB of path loss */
    uint32_t freq_mhz;
    bool on;
} WifiInterferer;

typedef struct WifiScenario WifiScenario;

/*
 * Below this SNR a receiver does not even detect a frame (no delivery, no
 * bad FCS); 1 Mb/s DBPSK, with its 10.4 dB of Barker processing gain, still
 * gets a 100-byte frame through 2 times in 3 at -5 dB.
 */
#define WIFI_DETECT_SNR_DB      (-5.0)
#define WIFI_NOISE_FLOOR_DBM    (-95.0)

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
    /* the netdev carries long packets: no fragments (air-proto.h) */
    bool link_whole;
    uint64_t remote_frames;
    uint64_t remote_rejected;
    WifiRemoteStation remote[WIFI_REMOTE_STATIONS];
    uint16_t air_seq;
    WifiReasm reasm[WIFI_REASM_SLOTS];
    QTAILQ_HEAD(, WifiArqFrame) arq;
    WifiEarlyAck early_acks[WIFI_EARLY_ACKS];
    unsigned early_next;
    unsigned arq_len;
    QEMUTimer *arq_timer;
    uint64_t arq_resent;
    WifiRxDup rx_dups[WIFI_RX_DUPS];
    unsigned rx_dups_next;
    uint64_t remote_dups;       /* resends acknowledged, not delivered */

    /* pcap view of the air */
    char *pcap;
    FILE *pcap_file;
    uint64_t pcap_max_size;     /* bytes, 0: no limit */
    uint64_t pcap_size;         /* written so far */
    uint64_t pcap_dropped;      /* frames not written: the limit */

    /* airtime, collisions, corrupted frames */
    bool airtime;
    uint32_t fcs_error_rate;    /* per mille */
    uint64_t seed;
    uint64_t prng;
    WifiEmission emis[WIFI_EMISSIONS];
    unsigned emis_next;                 /* ring: the next slot to fill */
    uint32_t next_radio_id;
    unsigned remote_on_air;
    QTAILQ_HEAD(, WifiTxJob) remote_jobs;   /* their jobs (remote_next) */
    WifiPeerClock peers[WIFI_PEERS];
    uint64_t collisions;
    uint64_t fcs_errors;
    uint64_t rx_overflows;
    uint64_t acks;
    uint64_t per_losses;

    /* the link model (medium-radio.c) */
    double noise_floor_dbm;
    QTAILQ_HEAD(, WifiLink) links;
    unsigned n_links;
    WifiInterferer interferers[WIFI_INTERFERERS];
    unsigned n_interferers;

    /* the scenario file (medium-scenario.c) */
    char *scenario_file;
    WifiScenario *scenario;
};

/* one transmission, airtime on (local with its retries, or remote) */
typedef enum {
    WIFI_JOB_CONTEND,           /* waiting for DIFS + backoff */
    WIFI_JOB_PROT,              /* the RTS or CTS-to-self on the air */
    WIFI_JOB_CTS,               /* the addressee's CTS on the air */
    WIFI_JOB_SIFS,              /* SIFS before the frame (after a CTS) */
    WIFI_JOB_FRAME,             /* on the air */
} WifiJobPhase;

struct WifiTxJob {
    QSIMPLEQ_ENTRY(WifiTxJob) next;     /* in the sender's queue */
    QTAILQ_ENTRY(WifiTxJob) remote_next; /* from another process: on the air */
    WifiMedium *m;
    WifiMediumClient *from;             /* NULL: from another process */
    QEMUTimer *timer;
    WifiJobPhase phase;
    int64_t due_ns;                     /* when the timer is due */
    WifiFrameMeta meta;
    WifiSite site;                      /* the transmitter's */
    unsigned retry_limit, attempts;
    unsigned rts_attempts, rts_failures;
    uint32_t backoff;                   /* slots left to count down */
    int64_t countdown_ns;               /* when the countdown (re)began */
    bool notify, acked;
    uint32_t responder;                 /* the CTS's sender (radio_id) */
    uint8_t cts[IEEE80211_ACK_LEN];     /* its CTS */
    /*
     * the transmission on the air now (RTS, CTS, frame), in the ring;
     * a slot reused meanwhile only skews what interference it reports
     */
    const WifiEmission *emission;
    uint16_t air_seq;                   /* on the netdev (wifi_arq) */
    uint64_t sender;                    /* from another process: its id */
    int64_t start_ns;
    size_t len;
    uint8_t data[];
};

/* deterministic pseudo-random numbers (splitmix64) from property seed */
static inline uint64_t wifi_random(WifiMedium *m)
{
    uint64_t z = (m->prng += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* does this transmission suffer a bit error (property fcs-error-rate)? */
static inline bool wifi_fcs_error(WifiMedium *m)
{
    if (!m->fcs_error_rate || wifi_random(m) % 1000 >= m->fcs_error_rate) {
        return false;
    }
    m->fcs_errors++;
    return true;
}

#endif
