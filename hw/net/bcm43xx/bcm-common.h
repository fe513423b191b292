/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: what every block of the card uses.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_BCM_COMMON_H
#define HW_NET_BCM43XX_BCM_COMMON_H

#include "qemu/log.h"

/* a guest error: a trace event and a LOG_GUEST_ERROR line */
#define BCM_GUEST_ERR(trace, fmt, ...)                                  \
    do {                                                                \
        (trace_##trace)(__VA_ARGS__);                                   \
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: " #trace ": " fmt "\n", \
                      ## __VA_ARGS__);                                  \
    } while (0)

#endif
