/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The medium's scenario file (medium-scenario.c, or its stub without
 * libconfig): events on the virtual clock that move radios and set links.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_MEDIUM_SCENARIO_H
#define NET_WIFI_MEDIUM_SCENARIO_H

#include "medium-state.h"

bool wifi_scenario_load(WifiMedium *m, Error **errp);
void wifi_scenario_free(WifiMedium *m);

#endif
