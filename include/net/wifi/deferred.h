/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Deferred work on the virtual clock, with its owner's reentrancy guard
 * engaged (net/wifi/deferred.c).  The medium delivers each radio's
 * frames with it, the card's TX DMA engine runs from it; it needs nothing
 * of either.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_DEFERRED_H
#define NET_WIFI_DEFERRED_H

#include "hw/qdev-core.h"       /* MemReentrancyGuard */

/*
 * Work a device model does "at once, but not in the caller" (a bottom
 * half's role), made deterministic: a QEMU_CLOCK_VIRTUAL timer that
 * expires at the current virtual time.  With -icount the vCPU thread runs
 * it at a fixed instruction count, and under record/replay it runs at a
 * replay checkpoint; a bottom half would run whenever the main loop gets
 * to it.  @guard (the owner's reentrancy guard) is engaged while @cb runs,
 * as a guarded bottom half's.  @cb may free the WifiDeferred.
 */
typedef struct WifiDeferred WifiDeferred;
WifiDeferred *wifi_deferred_new(void (*cb)(void *opaque), void *opaque,
                                MemReentrancyGuard *guard);
void wifi_deferred_schedule(WifiDeferred *w);
/*
 * Run @w's work now, from a timer of its owner, guard engaged (or, when
 * the owner is inside its own I/O, schedule it instead).
 */
void wifi_deferred_run_now(WifiDeferred *w);
void wifi_deferred_cancel(WifiDeferred *w);
void wifi_deferred_free(WifiDeferred *w);

#endif
