/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's scenario file in a QEMU built without libconfig.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "medium-scenario.h"

bool wifi_scenario_load(WifiMedium *m, Error **errp)
{
    error_setg(errp, "wifi-medium: scenario files need libconfig, which "
               "this QEMU was built without");
    return false;
}

void wifi_scenario_free(WifiMedium *m)
{
}
