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
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hw/qdev-core.h"
#include "hw/net/wifi/medium.h"
#include "trace.h"

/*
 * Received signal: free-space path loss at 2.4 GHz, 40 dB at 1 m plus
 * 20 dB per decade (Friis), distances below 1 m count as 1 m.
 */
static int8_t wifi_signal(const WifiMediumClient *tx,
                          const WifiMediumClient *rx, int8_t txpower)
{
    double dx = tx->pos[0] - rx->pos[0];
    double dy = tx->pos[1] - rx->pos[1];
    double dz = tx->pos[2] - rx->pos[2];
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

bool wifi_medium_send(WifiMediumClient *from, const uint8_t *frame,
                      size_t len, const WifiFrameMeta *meta)
{
    WifiMedium *m = from->medium;
    WifiMediumClient *c;
    bool acked = false;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;           /* alone on its own air */
    }
    m->frames++;
    trace_wifi_medium_tx(from->name, meta->freq_mhz, len, meta->rate_500k);
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
        f->meta.signal_dbm = wifi_signal(from, c, meta->txpower_dbm);
        f->len = len;
        memcpy(f->data, frame, len);
        QSIMPLEQ_INSERT_TAIL(&c->rxq, f, next);
        c->rxq_len++;
        qemu_bh_schedule(c->bh);
    }
    return acked;
}

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
