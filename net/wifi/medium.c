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
#include <math.h>
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/guest-random.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hw/qdev-core.h"
#include "net/wifi/medium.h"
#include "net/wifi/qemu-compat.h"
#include "medium-airtime.h"
#include "medium-channel.h"
#include "medium-link.h"
#include "medium-radio.h"
#include "medium-scenario.h"
#include "pcap.h"
#include "net/wifi/air-proto.h"
#include "net/wifi/deferred.h"
#include <zlib.h>
#include "trace.h"

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
        if (!c->rx_work) {
            /*
             * The radio was detached meanwhile (its device unplugged by
             * its own DMA): it keeps its memory until this work
             * returns, but nothing may be delivered to it any more.
             */
            return;
        }
    }
    if (!QSIMPLEQ_EMPTY(&c->rxq)) {
        wifi_deferred_schedule(c->rx_work);
    }
}

bool wifi_medium_paced(WifiMediumClient *c)
{
    return c->medium && c->medium->airtime;
}

unsigned wifi_medium_txq_len(WifiMediumClient *c)
{
    return c->txq_len;
}

/* one transmission, airtime off: true if a radio acknowledged it */
static bool wifi_medium_send(WifiMediumClient *from, const uint8_t *frame,
                             size_t len, const WifiFrameMeta *meta)
{
    WifiMedium *m = from->medium;
    WifiMediumClient *acker;
    WifiFrameMeta fm = *meta;
    WifiSite site;
    uint16_t seq;
    bool acked;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;           /* alone on its own air */
    }
    m->frames++;
    from->stats.tx_frames++;
    from->stats.tx_bytes += len;
    fm.fcs_bad = wifi_fcs_error(m);
    wifi_client_site(from, &site);
    trace_wifi_medium_tx(from->name, meta->freq_mhz, len, meta->rate_500k);
    wifi_pcap_write(m, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), frame, len,
                    &fm, meta->txpower_dbm - 40);
    acker = wifi_medium_local(m, &(WifiLocalTx){ from, &site, frame, len, &fm,
                                                 NULL }, NULL);
    seq = wifi_link_send(m, &site, frame, len, &fm, 0);
    acked = acker;
    if (acker) {
        wifi_medium_ack(m, acker, frame, len, &fm,
                        qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), 0);
    } else if (m->nic && !fm.fcs_bad && wifi_wants_ack(frame)) {
        acked = wifi_remote_acks(m, ieee80211_addr1(frame), meta->freq_mhz);
        if (acked) {
            wifi_arq_add(m, seq, &site, frame, len, &fm);
        }
    }
    return acked;
}

WifiTxStatus wifi_medium_transmit(WifiMediumClient *c, uint8_t *frame,
                                  size_t len, WifiFrameMeta *meta,
                                  unsigned retry_limit, bool notify,
                                  WifiTxResult *result)
{
    WifiTxResult r = { 0 };
    unsigned limit = MAX(retry_limit, 1);

    c->txpower_dbm = meta->txpower_dbm;
    meta->airtime_us = wifi_airtime_us(len + IEEE80211_FCS_LEN,
                                       meta->rate_500k, meta->ofdm,
                                       meta->short_preamble);
    if (len < IEEE80211_ACK_LEN ||
        ieee80211_is_group(ieee80211_addr1(frame))) {
        limit = 1;              /* nobody acknowledges a group frame */
    }
    if (wifi_medium_paced(c)) {
        return wifi_medium_queue(c, frame, len, meta, limit, notify) ?
               WIFI_TX_QUEUED : WIFI_TX_REFUSED;
    }
    do {
        if (r.attempts) {
            frame[1] |= IEEE80211_FC1_RETRY;
            c->stats.tx_retries++;
            /* a retransmission: at the fallback rate, when it is time */
            wifi_meta_for_attempt(meta, r.attempts + 1, len);
        }
        r.attempts++;
        r.acked = wifi_medium_send(c, frame, len, meta);
    } while (!r.acked && r.attempts < limit);
    if (result) {
        *result = r;
    }
    return WIFI_TX_DONE;
}

void wifi_medium_attach(WifiMedium *m, WifiMediumClient *c,
                        DeviceState *owner)
{
    c->medium = m;
    c->txpower_dbm = WIFI_TXPOWER_DEFAULT_DBM;
    c->nav_until_ns = 0;
    if (m && !c->radio_id) {
        c->radio_id = ++m->next_radio_id;
    }
    QSIMPLEQ_INIT(&c->rxq);
    c->rxq_len = 0;
    QSIMPLEQ_INIT(&c->txq);
    c->txq_len = 0;
    c->rx_work = wifi_deferred_new(wifi_medium_deliver, c,
                                   &owner->mem_reentrancy_guard);
    if (m) {
        QTAILQ_INSERT_TAIL(&m->clients, c, next);
    }
}

void wifi_medium_set_freq(WifiMediumClient *c, uint32_t freq_mhz)
{
    if (c->freq_mhz != freq_mhz) {
        c->freq_mhz = freq_mhz;
        trace_wifi_medium_radio_freq(c->name, freq_mhz);
    }
}

void wifi_medium_set_addr(WifiMediumClient *c, const uint8_t *addr)
{
    static const uint8_t none[6];

    addr = addr ? addr : none;
    if (memcmp(c->addr, addr, sizeof(c->addr))) {
        memcpy(c->addr, addr, sizeof(c->addr));
        trace_wifi_medium_radio_addr(c->name, addr[0], addr[1], addr[2],
                                     addr[3], addr[4], addr[5]);
    }
}

void wifi_medium_set_wants(WifiMediumClient *c, unsigned wants)
{
    if (c->wants != wants) {
        c->wants = wants;
        trace_wifi_medium_radio_wants(c->name, wants);
    }
}

void wifi_medium_flush(WifiMediumClient *c)
{
    WifiQueuedFrame *f;
    WifiTxJob *j;

    while ((f = QSIMPLEQ_FIRST(&c->rxq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->rxq, next);
        g_free(f);
    }
    c->rxq_len = 0;
    /* frames waiting for the channel or on the air: gone, unreported */
    while ((j = QSIMPLEQ_FIRST(&c->txq))) {
        QSIMPLEQ_REMOVE_HEAD(&c->txq, next);
        wifi_job_free(j);
    }
    c->txq_len = 0;
}

void wifi_medium_detach(WifiMediumClient *c)
{
    if (c->medium) {
        QTAILQ_REMOVE(&c->medium->clients, c, next);
        c->medium = NULL;
    }
    wifi_medium_flush(c);
    wifi_deferred_free(c->rx_work);
    c->rx_work = NULL;
}

static void wifi_medium_init(Object *obj)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    QTAILQ_INIT(&m->clients);
    QTAILQ_INIT(&m->arq);
    QTAILQ_INIT(&m->remote_jobs);
    m->pcap_max_size = WIFI_PCAP_MAX_SIZE_DEFAULT;
    wifi_links_init(m);
    m->arq_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_arq_timer, m);
    qemu_guest_getrandom_nofail(&m->sender_id, sizeof(m->sender_id));
    qemu_guest_getrandom_nofail(m->link_mac, sizeof(m->link_mac));
    m->link_mac[0] = (m->link_mac[0] & ~1) | 2;     /* local, unicast */
}

static void wifi_medium_get_counter(Object *obj, Visitor *v,
                                    const char *name, void *opaque,
                                    Error **errp)
{
    uint64_t n = *(uint64_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_uint64(v, name, &n, errp);
}

static bool wifi_medium_get_airtime(Object *obj, Error **errp)
{
    return WIFI_MEDIUM(obj)->airtime;
}

static void wifi_medium_set_airtime(Object *obj, bool v, Error **errp)
{
    WIFI_MEDIUM(obj)->airtime = v;
}

static void wifi_medium_get_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &WIFI_MEDIUM(obj)->seed, errp);
}

static void wifi_medium_set_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    WifiMedium *m = WIFI_MEDIUM(obj);
    uint64_t n;

    if (visit_type_uint64(v, name, &n, errp)) {
        m->seed = n;
        m->prng = n;
    }
}

static void wifi_medium_get_fcs_rate(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    visit_type_uint32(v, name, &WIFI_MEDIUM(obj)->fcs_error_rate, errp);
}

static void wifi_medium_set_fcs_rate(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    uint32_t n;

    if (!visit_type_uint32(v, name, &n, errp)) {
        return;
    }
    if (n > 1000) {
        error_setg(errp, "wifi-medium: fcs-error-rate is per mille "
                   "(0..1000), not %" PRIu32, n);
        return;
    }
    WIFI_MEDIUM(obj)->fcs_error_rate = n;
}

static void wifi_medium_get_pcap_max(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    visit_type_size(v, name, &WIFI_MEDIUM(obj)->pcap_max_size, errp);
}

static void wifi_medium_set_pcap_max(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    uint64_t n;

    if (visit_type_size(v, name, &n, errp)) {
        WIFI_MEDIUM(obj)->pcap_max_size = n;
    }
}

/* ---- the netdev: frames of other processes ---------------------------- */

static bool wifi_medium_link_can_receive(NetClientState *nc)
{
    return true;
}

/* a packet from another process: its frame on the air here */
static ssize_t wifi_medium_link_receive(NetClientState *nc,
                                        const uint8_t *buf, size_t size)
{
    WifiMedium *m = qemu_get_nic_opaque(nc);
    WifiMediumClient *acker;
    WifiFrameMeta meta;
    WifiAirFrame af;
    WifiSite site;

    switch (wifi_link_take(m, buf, size, &af, &meta, &site)) {
    case WIFI_LINK_EMPTY:
        /*
         * Returning its size, 0, would tell the net layer we cannot
         * receive, and it would stop delivering anything to the medium
         */
        return -1;
    case WIFI_LINK_RESEND:
        wifi_medium_reack(m, af.frame, af.len, &meta, af.seq);
        return size;
    case WIFI_LINK_FRAME:
        break;
    default:
        return size;
    }
    if (m->airtime) {
        wifi_remote_on_air(m, &af, &meta);
        return size;
    }
    wifi_pcap_write(m, meta.tx_time_ns, af.frame, af.len, &meta,
                    af.txpower_dbm - 40);
    acker = wifi_medium_local(m, &(WifiLocalTx){ NULL, &site, af.frame,
                                                 af.len, &meta, NULL },
                              NULL);
    if (acker) {
        wifi_rx_delivered(m, af.sender, af.frame, af.len);
        wifi_medium_ack(m, acker, af.frame, af.len, &meta, meta.tx_time_ns,
                        af.seq);
    }
    return size;
}

static NetClientInfo wifi_medium_link_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = wifi_medium_link_can_receive,
    .receive = wifi_medium_link_receive,
};

static void wifi_medium_complete(UserCreatable *uc, Error **errp)
{
    ERRP_GUARD();
    WifiMedium *m = WIFI_MEDIUM(uc);

    /*
     * What can fail without taking anything first; on any failure the
     * object is finalized (wifi_medium_finalize releases what was taken)
     */
    if (m->scenario_file && !wifi_scenario_load(m, errp)) {
        return;
    }
    if (m->pcap) {
        wifi_pcap_open(m, errp);
        if (*errp) {
            return;
        }
    }
    if (m->netdev) {
        wifi_link_open(m, &wifi_medium_link_info, errp);
    }
}

/*
 * Only a medium whose complete failed is finalized (a complete one cannot
 * be deleted: radios point at it); all the same, everything goes.
 */
static void wifi_medium_finalize(Object *obj)
{
    WifiMedium *m = WIFI_MEDIUM(obj);

    wifi_link_close(m);
    wifi_scenario_free(m);
    wifi_remote_jobs_free(m);
    wifi_links_free(m);
    wifi_pcap_close(m);
    timer_free(m->arq_timer);
    m->arq_timer = NULL;
    g_free(m->netdev);
    g_free(m->pcap);
    g_free(m->scenario_file);
}

/* a string property kept in the WifiMedium at the offset @opaque */
static void wifi_medium_get_str(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    char **field = (char **)((uint8_t *)obj + (uintptr_t)opaque);
    g_autofree char *s = g_strdup(*field ? *field : "");

    visit_type_str(v, name, &s, errp);
}

static void wifi_medium_set_str(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    char **field = (char **)((uint8_t *)obj + (uintptr_t)opaque);
    char *s;

    if (visit_type_str(v, name, &s, errp)) {
        g_free(*field);
        *field = s;
    }
}

/* radios hold pointers to their medium: it lives as long as QEMU */
static bool wifi_medium_can_be_deleted(UserCreatable *uc)
{
    return false;
}

/* read-only statistics, qom-get /objects/<id> <name> */
typedef struct {
    const char *name;
    size_t offset;
    const char *desc;
} WifiMediumCounter;

static const WifiMediumCounter wifi_medium_counters[] = {
    { "rx-rejected", offsetof(WifiMedium, remote_rejected),
      "read-only: frames from other processes rejected as malformed or "
      "of another protocol version" },
    { "collisions", offsetof(WifiMedium, collisions),
      "read-only: collisions seen on this medium (airtime on)" },
    { "fcs-errors", offsetof(WifiMedium, fcs_errors),
      "read-only: transmissions corrupted by fcs-error-rate" },
    { "rx-overflows", offsetof(WifiMedium, rx_overflows),
      "read-only: deliveries dropped because a local radio's receive "
      "queue was full (the radio does not acknowledge them)" },
    { "acks", offsetof(WifiMedium, acks),
      "read-only: ACK frames the local radios sent" },
    { "rx-errors", offsetof(WifiMedium, per_losses),
      "read-only: receptions by local radios lost to noise (the frame "
      "error rate at their SNR) or to a link's loss" },
    { "remote-dups", offsetof(WifiMedium, remote_dups),
      "read-only: frames from other processes sent again after a copy was "
      "delivered here (acknowledged again, not delivered again)" },
    { "pcap-dropped", offsetof(WifiMedium, pcap_dropped),
      "read-only: frames not written to the pcap file because it reached "
      "pcap-max-size" },
    { "remote-resent", offsetof(WifiMedium, arq_resent),
      "read-only: frames to stations in other processes sent again "
      "because their ACK did not come back" },
};

static void wifi_medium_class_init(ObjectClass *klass, QemuClassData data)
{
    UserCreatableClass *uc = USER_CREATABLE_CLASS(klass);

    uc->can_be_deleted = wifi_medium_can_be_deleted;
    uc->complete = wifi_medium_complete;
    wifi_medium_class_add_radio_props(klass);
    object_class_property_add(klass, "netdev", "str", wifi_medium_get_str,
                              wifi_medium_set_str, NULL,
                              (void *)offsetof(WifiMedium, netdev));
    object_class_property_set_description(klass, "netdev",
        "network backend joining this medium to the media of other QEMU "
        "processes (e.g. -netdev socket,mcast=...)");
    object_class_property_add(klass, "pcap", "str", wifi_medium_get_str,
                              wifi_medium_set_str, NULL,
                              (void *)offsetof(WifiMedium, pcap));
    object_class_property_set_description(klass, "pcap",
        "file receiving every frame on the medium (pcap, radiotap)");
    object_class_property_add(klass, "pcap-max-size", "size",
                              wifi_medium_get_pcap_max,
                              wifi_medium_set_pcap_max, NULL, NULL);
    object_class_property_set_description(klass, "pcap-max-size",
        "the pcap file stops growing at this size in bytes: later frames "
        "are counted in pcap-dropped (a peer can flood the air; default "
        "1G, 0: no limit)");
    object_class_property_add(klass, "scenario", "str", wifi_medium_get_str,
                              wifi_medium_set_str, NULL,
                              (void *)offsetof(WifiMedium, scenario_file));
    object_class_property_set_description(klass, "scenario",
        "file (libconfig syntax) with links in wmediumd's format and events "
        "run on the virtual clock: radios moving, links changing, the noise "
        "floor, interferers (docs/air.md)");
    object_class_property_add_bool(klass, "airtime", wifi_medium_get_airtime,
                                   wifi_medium_set_airtime);
    object_class_property_set_description(klass, "airtime",
        "on: frames take real 802.11b/g time (preamble, DIFS, backoff, "
        "SIFS + ACK), a channel carries one at a time, transmissions "
        "starting in the same slot collide (default off: as fast as "
        "possible)");
    object_class_property_add(klass, "fcs-error-rate", "uint32",
                              wifi_medium_get_fcs_rate,
                              wifi_medium_set_fcs_rate, NULL, NULL);
    object_class_property_set_description(klass, "fcs-error-rate",
        "per mille of transmissions corrupted on the air (bad FCS: only "
        "monitors asking for such frames get them; default 0)");
    object_class_property_add(klass, "seed", "uint64",
                              wifi_medium_get_seed, wifi_medium_set_seed,
                              NULL, NULL);
    object_class_property_set_description(klass, "seed",
        "seed of the medium's deterministic pseudo-random numbers "
        "(backoff slots, bit errors; default 0)");
    for (int i = 0; i < ARRAY_SIZE(wifi_medium_counters); i++) {
        const WifiMediumCounter *c = &wifi_medium_counters[i];

        object_class_property_add(klass, c->name, "uint64",
                                  wifi_medium_get_counter, NULL, NULL,
                                  (void *)c->offset);
        object_class_property_set_description(klass, c->name, c->desc);
    }
}

static const TypeInfo wifi_medium_info = {
    .name = TYPE_WIFI_MEDIUM,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(WifiMedium),
    .instance_init = wifi_medium_init,
    .instance_finalize = wifi_medium_finalize,
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
