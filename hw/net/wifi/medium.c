/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A simulated 802.11 radio medium: -object wifi-medium,id=air0
 *
 * Modelled on QEMU's CAN bus (net/can/can_core.c), but delivery is
 * asynchronous: the sender's MMIO path never calls into a peer.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/guest-random.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hw/qdev-core.h"
#include "hw/net/wifi/medium.h"
#include "hw/net/wifi/air-proto.h"
#include <zlib.h>
#include "trace.h"

/*
 * Received signal: free-space path loss at 2.4 GHz, 40 dB at 1 m plus
 * 20 dB per decade (Friis), distances below 1 m count as 1 m.
 */
static int8_t wifi_signal(const int32_t *tx, const int32_t *rx,
                          int8_t txpower)
{
    double dx = (double)tx[0] - rx[0];
    double dy = (double)tx[1] - rx[1];
    double dz = (double)tx[2] - rx[2];
    double d = MAX(sqrt(dx * dx + dy * dy + dz * dz), 1.0);
    double s = txpower - 40.0 - 20.0 * log10(d);

    return MAX(s, -100.0);
}

uint32_t wifi_airtime_us(size_t bytes, uint16_t rate_500k, bool ofdm,
                         bool short_preamble)
{
    uint32_t bits = bytes * 8;

    if (rate_500k == 0) {
        return 0;
    }
    if (ofdm) {
        /* 20 us preamble+SIGNAL, 4 us symbols of rate * 4 bits, +22 bits */
        uint32_t bits_per_sym = rate_500k * 2;

        return 20 + 4 * DIV_ROUND_UP(16 + bits + 6, bits_per_sym) + 6;
    }
    /* DSSS/CCK: 192 us long or 96 us short PLCP, then the payload */
    return (short_preamble ? 96 : 192) + DIV_ROUND_UP(bits * 2, rate_500k);
}

/* ---- pcap: link type 127, radiotap + frame + FCS ---------------------- */

static void wifi_pcap_open(WifiMedium *m, Error **errp)
{
    static const uint8_t hdr[24] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,     /* magic, version 2.4 */
        0, 0, 0, 0, 0, 0, 0, 0,                 /* tz, sigfigs */
        0xff, 0xff, 0, 0, 127, 0, 0, 0,         /* snaplen, radiotap */
    };

    m->pcap_file = fopen(m->pcap, "wb");
    if (!m->pcap_file) {
        error_setg_errno(errp, errno, "wifi-medium: cannot open pcap=%s",
                         m->pcap);
        return;
    }
    if (fwrite(hdr, sizeof(hdr), 1, m->pcap_file) != 1) {
        error_setg_errno(errp, errno, "wifi-medium: cannot write pcap=%s",
                         m->pcap);
    }
}

static void wifi_pcap_write(WifiMedium *m, const uint8_t *frame, size_t len,
                            const WifiFrameMeta *meta, int8_t signal)
{
    int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint8_t rec[16], rt[15];
    uint8_t fcs[4];
    size_t caplen = sizeof(rt) + len + sizeof(fcs);

    if (!m->pcap_file) {
        return;
    }
    stl_le_p(rec, ns / NANOSECONDS_PER_SECOND);
    stl_le_p(rec + 4, (ns % NANOSECONDS_PER_SECOND) / 1000);
    stl_le_p(rec + 8, caplen);
    stl_le_p(rec + 12, caplen);
    /* radiotap: flags (FCS at end), rate, channel, antenna signal */
    rt[0] = 0;
    rt[1] = 0;
    stw_le_p(rt + 2, sizeof(rt));
    stl_le_p(rt + 4, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5));
    rt[8] = 0x10;
    rt[9] = meta->rate_500k;
    stw_le_p(rt + 10, meta->freq_mhz);
    stw_le_p(rt + 12, (meta->freq_mhz < 3000 ? 0x0080 : 0x0100) |
             (meta->ofdm ? 0x0040 : 0x0020));
    rt[14] = signal;
    stl_le_p(fcs, crc32(0, frame, len));
    if (fwrite(rec, sizeof(rec), 1, m->pcap_file) != 1 ||
        fwrite(rt, sizeof(rt), 1, m->pcap_file) != 1 ||
        fwrite(frame, len, 1, m->pcap_file) != 1 ||
        fwrite(fcs, sizeof(fcs), 1, m->pcap_file) != 1) {
        warn_report_once("wifi-medium: writing pcap=%s failed", m->pcap);
    }
    fflush(m->pcap_file);
}

/* ---- stations in other processes --------------------------------------- */

static void wifi_remote_learn(WifiMedium *m, const uint8_t *addr,
                              uint32_t freq)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    WifiRemoteStation *slot = &m->remote[0];

    if (wifi_is_group(addr)) {
        return;
    }
    for (int i = 0; i < WIFI_REMOTE_STATIONS; i++) {
        WifiRemoteStation *r = &m->remote[i];

        if (!memcmp(r->addr, addr, 6)) {
            slot = r;
            break;
        }
        if (!r->freq_mhz || r->last_ns < slot->last_ns) {
            slot = r;           /* a free slot, or the least recently heard */
        }
    }
    memcpy(slot->addr, addr, 6);
    slot->freq_mhz = freq;
    slot->last_ns = now;
}

static bool wifi_remote_acks(WifiMedium *m, const uint8_t *addr,
                             uint32_t freq)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    for (int i = 0; i < WIFI_REMOTE_STATIONS; i++) {
        WifiRemoteStation *r = &m->remote[i];

        if (r->freq_mhz && !memcmp(r->addr, addr, 6) && r->freq_mhz == freq &&
            now - r->last_ns < WIFI_REMOTE_TTL_NS) {
            return true;
        }
    }
    return false;
}

static void wifi_medium_deliver(void *opaque)
{
    WifiMediumClient *c = opaque;
    WifiQueuedFrame *f;
    /* bounded: the queue itself is bounded and refills only via BHs */
    unsigned budget = WIFI_RX_QUEUE_MAX;

    while (budget-- && (f = QSIMPLEQ_FIRST(&c->rxq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->rxq, next);
        c->rxq_len--;
        c->ops->receive(c, f->data, f->len, &f->meta);
        g_free(f);
    }
    if (!QSIMPLEQ_EMPTY(&c->rxq)) {
        qemu_bh_schedule(c->bh);
    }
}

/* deliver to the local radios on the channel; true if one acks */
static bool wifi_medium_local(WifiMedium *m, WifiMediumClient *from,
                              const int32_t *pos, const uint8_t *frame,
                              size_t len, const WifiFrameMeta *meta)
{
    WifiMediumClient *c;
    bool acked = false;

    QTAILQ_FOREACH(c, &m->clients, next) {
        WifiQueuedFrame *f;

        if (c == from || c->ops->freq(c) != meta->freq_mhz) {
            continue;
        }
        if (!wifi_is_group(frame + 4) && c->ops->acks(c, frame + 4)) {
            acked = true;
        }
        if (c->rxq_len >= WIFI_RX_QUEUE_MAX) {
            c->rx_dropped++;
            trace_wifi_medium_rx_overflow(c->name);
            continue;
        }
        f = g_malloc(sizeof(*f) + len);
        f->meta = *meta;
        f->meta.signal_dbm = wifi_signal(pos, c->pos, meta->txpower_dbm);
        f->len = len;
        memcpy(f->data, frame, len);
        QSIMPLEQ_INSERT_TAIL(&c->rxq, f, next);
        c->rxq_len++;
        qemu_bh_schedule(c->bh);
    }
    return acked;
}

bool wifi_medium_send(WifiMediumClient *from, const uint8_t *frame,
                      size_t len, const WifiFrameMeta *meta)
{
    WifiMedium *m = from->medium;
    bool acked;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;           /* alone on its own air */
    }
    m->frames++;
    trace_wifi_medium_tx(from->name, meta->freq_mhz, len, meta->rate_500k);
    wifi_pcap_write(m, frame, len, meta, meta->txpower_dbm - 40);
    acked = wifi_medium_local(m, from, from->pos, frame, len, meta);
    if (m->nic) {
        WifiAirFrame af = {
            .sender = m->sender_id,
            .freq_mhz = meta->freq_mhz,
            .txpower_dbm = meta->txpower_dbm,
            .rate_500k = meta->rate_500k,
            .ofdm = meta->ofdm,
            .short_preamble = meta->short_preamble,
            .airtime_us = meta->airtime_us,
            .tx_time_ns = meta->tx_time_ns,
            .frame = frame,
            .len = len,
        };
        uint8_t buf[WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + WIFI_MAX_FRAME];
        size_t n;

        memcpy(af.pos, from->pos, sizeof(af.pos));
        n = wifi_air_encode(buf, sizeof(buf), m->link_mac, &af);
        qemu_send_packet(qemu_get_queue(m->nic), buf, n);
        if (!acked && !wifi_is_group(frame + 4)) {
            acked = wifi_remote_acks(m, frame + 4, meta->freq_mhz);
        }
    }
    return acked;
}

/* ---- the link to other processes ---------------------------------------- */

static bool wifi_link_can_receive(NetClientState *nc)
{
    return true;
}

static ssize_t wifi_link_receive(NetClientState *nc, const uint8_t *buf,
                                 size_t size)
{
    WifiMedium *m = qemu_get_nic_opaque(nc);
    WifiAirStatus st;
    WifiAirFrame af;
    WifiFrameMeta meta;

    st = wifi_air_decode(buf, size, &af);
    if (st == WIFI_AIR_NOT_OURS) {
        return size;            /* other traffic on the netdev: ignore */
    }
    if (st != WIFI_AIR_OK) {
        m->remote_rejected++;
        trace_wifi_medium_peer_rejected(wifi_air_strerror(st), size);
        return size;
    }
    if (af.sender == m->sender_id) {
        return size;            /* our own, looped back by multicast */
    }
    m->remote_frames++;
    meta = (WifiFrameMeta) {
        .freq_mhz = af.freq_mhz,
        .txpower_dbm = af.txpower_dbm,
        .rate_500k = af.rate_500k,
        .ofdm = af.ofdm,
        .short_preamble = af.short_preamble,
        .airtime_us = af.airtime_us,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    /* the transmitter (addr2) lives over there: it will ack its frames */
    if (af.len >= 16) {
        wifi_remote_learn(m, af.frame + 10, af.freq_mhz);
    }
    trace_wifi_medium_rx_remote(af.freq_mhz, af.len);
    wifi_pcap_write(m, af.frame, af.len, &meta, af.txpower_dbm - 40);
    wifi_medium_local(m, NULL, af.pos, af.frame, af.len, &meta);
    return size;
}

static NetClientInfo wifi_link_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = wifi_link_can_receive,
    .receive = wifi_link_receive,
};

void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner)
{
    c->medium = m;
    QSIMPLEQ_INIT(&c->rxq);
    c->rxq_len = 0;
    c->bh = qemu_bh_new_guarded(wifi_medium_deliver, c,
                                &owner->mem_reentrancy_guard);
    if (m) {
        QTAILQ_INSERT_TAIL(&m->clients, c, next);
    }
}

void wifi_medium_flush(WifiMediumClient *c)
{
    WifiQueuedFrame *f;

    while ((f = QSIMPLEQ_FIRST(&c->rxq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->rxq, next);
        g_free(f);
    }
    c->rxq_len = 0;
}

void wifi_medium_detach(WifiMediumClient *c)
{
    if (c->medium) {
        QTAILQ_REMOVE(&c->medium->clients, c, next);
        c->medium = NULL;
    }
    wifi_medium_flush(c);
    if (c->bh) {
        qemu_bh_delete(c->bh);
        c->bh = NULL;
    }
}

static void wifi_medium_init(Object *obj)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    QTAILQ_INIT(&m->clients);
    qemu_guest_getrandom_nofail(&m->sender_id, sizeof(m->sender_id));
    qemu_guest_getrandom_nofail(m->link_mac, sizeof(m->link_mac));
    m->link_mac[0] = (m->link_mac[0] & ~1) | 2;     /* local, unicast */
}

static void wifi_medium_get_rejected(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    uint64_t n = WIFI_MEDIUM(obj)->remote_rejected;

    visit_type_uint64(v, name, &n, errp);
}

static void wifi_medium_complete(UserCreatable *uc, Error **errp)
{
    ERRP_GUARD();
    WifiMedium *m = WIFI_MEDIUM(uc);

    if (m->pcap) {
        wifi_pcap_open(m, errp);
        if (*errp) {
            return;
        }
    }
    if (m->netdev) {
        NetClientState *peer = qemu_find_netdev(m->netdev);

        if (!peer) {
            error_setg(errp, "wifi-medium: netdev '%s' not found",
                       m->netdev);
            return;
        }
        if (peer->peer) {
            error_setg(errp, "wifi-medium: netdev '%s' is already in use",
                       m->netdev);
            return;
        }
        m->conf.peers.ncs[0] = peer;
        m->conf.peers.queues = 1;
        memcpy(m->conf.macaddr.a, m->link_mac, 6);
        m->nic = qemu_new_nic(&wifi_link_info, &m->conf, TYPE_WIFI_MEDIUM,
                              object_get_canonical_path_component(OBJECT(m)),
                              &m->guard, m);
    }
}

static char *wifi_medium_get_netdev(Object *obj, Error **errp)
{
    return g_strdup(WIFI_MEDIUM(obj)->netdev);
}

static void wifi_medium_set_netdev(Object *obj, const char *v, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    g_free(m->netdev);
    m->netdev = g_strdup(v);
}

static char *wifi_medium_get_pcap(Object *obj, Error **errp)
{
    return g_strdup(WIFI_MEDIUM(obj)->pcap);
}

static void wifi_medium_set_pcap(Object *obj, const char *v, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    g_free(m->pcap);
    m->pcap = g_strdup(v);
}

/* radios hold pointers to their medium: it lives as long as QEMU */
static bool wifi_medium_can_be_deleted(UserCreatable *uc)
{
    return false;
}

static void wifi_medium_class_init(ObjectClass *klass, void *data)
{
    UserCreatableClass *uc = USER_CREATABLE_CLASS(klass);

    uc->can_be_deleted = wifi_medium_can_be_deleted;
    uc->complete = wifi_medium_complete;
    object_class_property_add_str(klass, "netdev", wifi_medium_get_netdev,
                                  wifi_medium_set_netdev);
    object_class_property_set_description(klass, "netdev",
        "network backend joining this medium to the media of other QEMU "
        "processes (e.g. -netdev socket,mcast=...)");
    object_class_property_add_str(klass, "pcap", wifi_medium_get_pcap,
                                  wifi_medium_set_pcap);
    object_class_property_set_description(klass, "pcap",
        "file receiving every frame on the medium (pcap, radiotap)");
    object_class_property_add(klass, "rx-rejected", "uint64",
                              wifi_medium_get_rejected, NULL, NULL, NULL);
    object_class_property_set_description(klass, "rx-rejected",
        "read-only: frames from other processes rejected as malformed or "
        "of another protocol version");
}

static const TypeInfo wifi_medium_info = {
    .name = TYPE_WIFI_MEDIUM,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(WifiMedium),
    .instance_init = wifi_medium_init,
    .class_init = wifi_medium_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_USER_CREATABLE },
        { }
    },
};

static void wifi_medium_register_types(void)
{
    type_register_static(&wifi_medium_info);
}

type_init(wifi_medium_register_types);
