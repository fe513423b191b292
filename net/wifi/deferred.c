/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Deferred work on the virtual clock, with its owner's reentrancy guard
 * engaged: see include/net/wifi/deferred.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "net/wifi/deferred.h"

struct WifiDeferred {
    QEMUTimer timer;
    void (*cb)(void *opaque);
    void *opaque;
    MemReentrancyGuard *guard;
};

static void wifi_deferred_run(void *opaque)
{
    WifiDeferred *w = opaque;
    MemReentrancyGuard *g = w->guard;
    void (*cb)(void *opaque) = w->cb;
    bool engaged = g->engaged_in_io;

    g->engaged_in_io = true;
    cb(w->opaque);              /* may free @w: not touched after this */
    g->engaged_in_io = engaged;
}

WifiDeferred *wifi_deferred_new(void (*cb)(void *opaque), void *opaque,
                                MemReentrancyGuard *guard)
{
    WifiDeferred *w = g_new0(WifiDeferred, 1);

    w->cb = cb;
    w->opaque = opaque;
    w->guard = guard;
    timer_init_ns(&w->timer, QEMU_CLOCK_VIRTUAL, wifi_deferred_run, w);
    return w;
}

void wifi_deferred_schedule(WifiDeferred *w)
{
    if (!timer_pending(&w->timer)) {
        timer_mod(&w->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
}

void wifi_deferred_run_now(WifiDeferred *w)
{
    if (w->guard->engaged_in_io) {
        wifi_deferred_schedule(w);
        return;
    }
    timer_del(&w->timer);
    wifi_deferred_run(w);
}

void wifi_deferred_cancel(WifiDeferred *w)
{
    timer_del(&w->timer);
}

void wifi_deferred_free(WifiDeferred *w)
{
    if (w) {
        timer_del(&w->timer);
        g_free(w);
    }
}
