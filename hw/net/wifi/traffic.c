/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A synthetic radio on a wifi-medium: -device wifi-traffic sends frames of
 * a given length and rate to an address, as fast as the air lets it or at
 * an interval, and acknowledges frames to its own address.  Background
 * load and interference for the guests' radios, and the load of the air's
 * benchmark (tests/bench/bench_medium.py).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/resettable.h"
#include "system/reset.h"
#include "net/net.h"
#include "net/wifi/medium.h"
#include "net/wifi/qemu-compat.h"

#define TYPE_WIFI_TRAFFIC "wifi-traffic"
OBJECT_DECLARE_SIMPLE_TYPE(WifiTrafficState, WIFI_TRAFFIC)

/* frames sent per timer callback with airtime off (bounded work) */
#define WIFI_TRAFFIC_BURST      1

struct WifiTrafficState {
    DeviceState parent_obj;

    /* properties */
    WifiMedium *medium;
    MACAddr addr;
    MACAddr dest;
    uint32_t channel;
    uint32_t rate;              /* 500 kb/s units */
    uint32_t len;               /* 802.11 frame, bytes without FCS */
    uint64_t count;             /* frames to send, 0: no end */
    uint32_t interval_us;       /* between frames, 0: back to back */
    int32_t txpower;
    bool running;

    WifiMediumClient client;
    QEMUTimer *timer;
    uint64_t sent, acked, received;
    uint16_t seq;
    bool in_flight;             /* airtime on: a frame on the air */
};

static void wifi_traffic_receive(WifiMediumClient *c, const uint8_t *f,
                                 size_t len, const WifiFrameMeta *meta)
{
    WifiTrafficState *s = c->opaque;

    s->received++;
}

static bool wifi_traffic_done(WifiTrafficState *s)
{
    return !s->running || (s->count && s->sent >= s->count);
}

/*
 * Time from one frame to the next: interval-us, or back to back (0): the
 * mean time of one exchange on the air (DIFS, mean backoff, the frame,
 * SIFS + ACK when acknowledged), whether the medium models airtime or not.
 * Never zero: a timer re-armed at "now" would run again in the same pass
 * of the timer list, for ever when the clock stands still (qtest, icount).
 */
static int64_t wifi_traffic_gap_ns(WifiTrafficState *s)
{
    bool ofdm = !ieee80211_rate_is_cck(s->rate);
    bool acked = !(s->dest.a[0] & 1);

    if (s->interval_us) {
        return (int64_t)s->interval_us * SCALE_US;
    }
    return MAX(wifi_exchange_mean_ns(s->len + 4, s->rate, ofdm, false,
                                     acked), SCALE_US);
}

/* the next frame: at once when it starts (@first), then a gap apart */
static void wifi_traffic_arm(WifiTrafficState *s, int64_t now, bool first)
{
    if (!wifi_traffic_done(s) && !s->in_flight) {
        timer_mod(s->timer, now + (first ? 0 : wifi_traffic_gap_ns(s)));
    }
}

/* one data frame (null data of @len bytes: header, then zeroes) */
static WifiTxStatus wifi_traffic_send(WifiTrafficState *s, WifiTxResult *r)
{
    uint8_t f[WIFI_MAX_FRAME] = { 0 };
    WifiFrameMeta m = {
        .freq_mhz = ieee80211_chan_to_freq(s->channel),
        .txpower_dbm = s->txpower,
        .rate_500k = s->rate,
        .ofdm = !ieee80211_rate_is_cck(s->rate),
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };

    f[0] = IEEE80211_FC0(IEEE80211_TYPE_DATA, IEEE80211_STYPE_DATA);
    memcpy(f + IEEE80211_ADDR1_OFF, s->dest.a, 6);
    memcpy(f + IEEE80211_ADDR1_OFF + 6, s->addr.a, 6);
    memcpy(f + IEEE80211_ADDR1_OFF + 12, s->addr.a, 6);
    ieee80211_set_seq(f, s->seq++);
    s->sent++;
    return wifi_medium_transmit(&s->client, f, s->len, &m, 4, true, r);
}

static void wifi_traffic_timer(void *opaque)
{
    WifiTrafficState *s = opaque;
    WifiTxResult r;

    for (int i = 0; i < (s->interval_us ? 1 : WIFI_TRAFFIC_BURST) &&
                    !wifi_traffic_done(s) && !s->in_flight; i++) {
        switch (wifi_traffic_send(s, &r)) {
        case WIFI_TX_DONE:
            s->acked += r.acked;
            break;
        case WIFI_TX_QUEUED:
            s->in_flight = true;    /* the next one after tx_done */
            break;
        default:
            break;
        }
    }
    wifi_traffic_arm(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), false);
}

static void wifi_traffic_tx_done(WifiMediumClient *c, const WifiTxResult *r)
{
    WifiTrafficState *s = c->opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    s->acked += r->acked;
    s->in_flight = false;
    /* airtime on: the air took the last one; back to back, the next now */
    if (!wifi_traffic_done(s)) {
        timer_mod(s->timer, now + (int64_t)s->interval_us * SCALE_US);
    }
}

static const WifiMediumClientOps wifi_traffic_ops = {
    .receive = wifi_traffic_receive,
    .tx_done = wifi_traffic_tx_done,
};

static void wifi_traffic_realize(DeviceState *dev, Error **errp)
{
    WifiTrafficState *s = WIFI_TRAFFIC(dev);

    if (!s->medium) {
        error_setg(errp, "wifi-traffic: medium= is required");
        return;
    }
    if (s->channel < 1 || s->channel > 14) {
        error_setg(errp, "wifi-traffic: channel must be 1..14 (2.4 GHz)");
        return;
    }
    if (!ieee80211_rate_is_cck(s->rate) &&
        s->rate != 12 && s->rate != 18 && s->rate != 24 && s->rate != 36 &&
        s->rate != 48 && s->rate != 72 && s->rate != 96 && s->rate != 108) {
        error_setg(errp, "wifi-traffic: rate is an 802.11b/g rate in "
                   "500 kb/s units (2, 4, 11, 22, 12 ... 108)");
        return;
    }
    if (s->len < IEEE80211_HDR_LEN || s->len > WIFI_MAX_FRAME) {
        error_setg(errp, "wifi-traffic: len must be %d..%d bytes",
                   IEEE80211_HDR_LEN, WIFI_MAX_FRAME);
        return;
    }
    if (s->txpower < -10 || s->txpower > 30) {
        error_setg(errp, "wifi-traffic: txpower must be -10..30 dBm");
        return;
    }
    s->client.ops = &wifi_traffic_ops;
    s->client.opaque = s;
    s->client.name = dev->id ? dev->id : TYPE_WIFI_TRAFFIC;
    wifi_medium_attach(s->medium, &s->client, dev);
    /* a test radio: hears everything on its channel but bad frames */
    wifi_medium_set_freq(&s->client, ieee80211_chan_to_freq(s->channel));
    wifi_medium_set_addr(&s->client, s->addr.a);
    wifi_medium_set_wants(&s->client, WIFI_WANT_RX | WIFI_WANT_CTRL);
    s->client.txpower_dbm = s->txpower;
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_traffic_timer, s);
    qemu_register_resettable(OBJECT(dev));
    wifi_traffic_arm(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), true);
}

static void wifi_traffic_unrealize(DeviceState *dev)
{
    WifiTrafficState *s = WIFI_TRAFFIC(dev);

    qemu_unregister_resettable(OBJECT(dev));
    timer_free(s->timer);
    wifi_medium_detach(&s->client);
}

static void wifi_traffic_reset_hold(Object *obj, ResetType type)
{
    WifiTrafficState *s = WIFI_TRAFFIC(obj);

    wifi_medium_flush(&s->client);
    s->in_flight = false;
    s->sent = s->acked = s->received = 0;
    timer_del(s->timer);
    wifi_traffic_arm(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), true);
}

/* "running" starts and stops it while the machine runs */
static bool wifi_traffic_get_running(Object *obj, Error **errp)
{
    return WIFI_TRAFFIC(obj)->running;
}

static void wifi_traffic_set_running(Object *obj, bool v, Error **errp)
{
    WifiTrafficState *s = WIFI_TRAFFIC(obj);

    s->running = v;
    if (s->timer) {
        wifi_traffic_arm(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), true);
    }
}

static void wifi_traffic_get_u64(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint64_t n = *(uint64_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_uint64(v, name, &n, errp);
}

static const Property wifi_traffic_properties[] = {
    DEFINE_PROP_LINK("medium", WifiTrafficState, medium, TYPE_WIFI_MEDIUM,
                     WifiMedium *),
    DEFINE_PROP_MACADDR("addr", WifiTrafficState, addr),
    DEFINE_PROP_MACADDR("dest", WifiTrafficState, dest),
    DEFINE_PROP_UINT32("channel", WifiTrafficState, channel, 6),
    DEFINE_PROP_UINT32("rate", WifiTrafficState, rate, 108),
    DEFINE_PROP_UINT32("len", WifiTrafficState, len, 1500),
    DEFINE_PROP_UINT64("count", WifiTrafficState, count, 0),
    DEFINE_PROP_UINT32("interval-us", WifiTrafficState, interval_us, 0),
    DEFINE_PROP_INT32("txpower", WifiTrafficState, txpower, 20),
};

static void wifi_traffic_class_init(ObjectClass *klass, QemuClassData data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "synthetic radio sending frames on a wifi-medium";
    dc->realize = wifi_traffic_realize;
    dc->unrealize = wifi_traffic_unrealize;
    rc->phases.hold = wifi_traffic_reset_hold;
    device_class_set_props(dc, wifi_traffic_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    object_class_property_set_description(klass, "medium",
        "the wifi-medium it transmits on");
    object_class_property_set_description(klass, "addr",
        "its own address (transmitter; it acknowledges frames to it)");
    object_class_property_set_description(klass, "dest",
        "receiver address of its frames (ff:ff:ff:ff:ff:ff: broadcast, "
        "not acknowledged)");
    object_class_property_set_description(klass, "rate",
        "data rate, 500 kb/s units (default 108: 54 Mb/s)");
    object_class_property_set_description(klass, "len",
        "frame length without FCS, bytes (default 1500)");
    object_class_property_set_description(klass, "count",
        "frames to send (default 0: no end)");
    object_class_property_set_description(klass, "interval-us",
        "time between frames, us of virtual time (default 0: back to "
        "back, one mean exchange on the air apart: DIFS, backoff, frame, "
        "SIFS + ACK; with airtime=on the next after the air took the last)");
    object_class_property_add_bool(klass, "running",
                                   wifi_traffic_get_running,
                                   wifi_traffic_set_running);
    object_class_property_set_description(klass, "running",
        "sending (default off; qom-set while the machine runs)");
    object_class_property_add(klass, "sent", "uint64", wifi_traffic_get_u64,
                              NULL, NULL,
                              (void *)offsetof(WifiTrafficState, sent));
    object_class_property_set_description(klass, "sent",
        "read-only: frames sent (each with its retries)");
    object_class_property_add(klass, "acked", "uint64", wifi_traffic_get_u64,
                              NULL, NULL,
                              (void *)offsetof(WifiTrafficState, acked));
    object_class_property_set_description(klass, "acked",
        "read-only: frames acknowledged");
    object_class_property_add(klass, "received", "uint64",
                              wifi_traffic_get_u64, NULL, NULL,
                              (void *)offsetof(WifiTrafficState, received));
    object_class_property_set_description(klass, "received",
        "read-only: frames it received");
    wifi_radio_class_add_pos(klass, offsetof(WifiTrafficState, client),
        "position on the medium in metres (x, y, z; default 0, 0, 0)");
}

static const TypeInfo wifi_traffic_info = {
    .name = TYPE_WIFI_TRAFFIC,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(WifiTrafficState),
    .class_init = wifi_traffic_class_init,
};

static void wifi_traffic_register_types(void)
{
    type_register_static(&wifi_traffic_info);
}

type_init(wifi_traffic_register_types);
