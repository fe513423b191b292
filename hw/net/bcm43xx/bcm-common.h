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

/* the blocks of the 802.11 core, each with its own state and functions */
typedef struct D11State D11State;       /* d11-mac.h: registers, SHM, TSF */
typedef struct D11Dma D11Dma;           /* d11-dma.h: the DMA engines */
typedef struct D11Xmit D11Xmit;         /* d11-xmit.h: data path, air */
typedef struct FwState FwState;         /* fw.h: the microcode's emulation */
typedef struct PhyState PhyState;       /* phy.h: the PHY and its radio */

#endif
