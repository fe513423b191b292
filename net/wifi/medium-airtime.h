/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The medium with airtime on (medium-airtime.c): contention, RTS/CTS,
 * frames with their retries on the virtual clock, frames of other
 * processes on the air.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_AIRTIME_H
#define NET_WIFI_MEDIUM_AIRTIME_H

#include "medium-state.h"

void wifi_remote_jobs_free(WifiMedium *m);
void wifi_job_free(WifiTxJob *j);
bool wifi_medium_queue(WifiMediumClient *from, const uint8_t *frame, size_t len,
                       const WifiFrameMeta *meta, unsigned retry_limit,
                       bool notify);
void wifi_remote_on_air(WifiMedium *m, const WifiAirFrame *af,
                        const WifiFrameMeta *meta);

#endif
