/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The QMP commands of qapi/wifi.json in a QEMU built without wifi-medium.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-wifi.h"

WifiAirInfoList *qmp_query_wifi_air(const char *medium, Error **errp)
{
    error_setg(errp, "this QEMU has no wifi-medium");
    return NULL;
}

void qmp_wifi_radio_move(const char *radio, double x, double y, double z,
                         Error **errp)
{
    error_setg(errp, "this QEMU has no wifi-medium");
}

void qmp_wifi_link_set(const char *medium, const char *a, const char *b,
                       bool has_attenuation, double attenuation,
                       bool has_loss, double loss, bool has_enabled,
                       bool enabled, Error **errp)
{
    error_setg(errp, "this QEMU has no wifi-medium");
}

void qmp_wifi_link_clear(const char *medium, const char *a, const char *b,
                         Error **errp)
{
    error_setg(errp, "this QEMU has no wifi-medium");
}
