/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 core as a hub over its blocks (d11-core.c).
 * The hub owns the core's register table (one row a register, as
 * igb_macreg_writeops[] in QEMU's hw/net/igb_core.c), the reset fan-out,
 * the state derived from several blocks (the MAC runs, AP mode, the TX
 * FIFO is full, the radio receives), the TX engines' work, which pulls
 * the frames from the DMA engines (as e1000e_start_xmit()), and the
 * card's client of the Wi-Fi medium.  Its blocks take only their own
 * state and call nothing above them: the MAC (d11-mac.h), the DMA engines
 * (d11-dma.h, their interrupt through the intr_raise hook), the PHY
 * (phy.h), the firmware (fw.h, over the MAC) and the data path
 * (d11-xmit.h, over the MAC and the key table).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_CORE_H
#define HW_NET_BCM43XX_D11_CORE_H

#include "net/wifi/qemu-compat.h"   /* MemoryRegion */
#include "net/wifi/medium.h"
#include "net/wifi/deferred.h"
#include "d11-mac.h"
#include "d11-dma.h"
#include "d11-xmit.h"
#include "fw.h"
#include "phy.h"
#include "hostile.h"

typedef struct D11Core {
    PCIDevice *pci;             /* the card (held while its DMA runs) */
    MemoryRegion iomem;         /* the core's registers on the backplane */
    WifiDeferred *tx_work;      /* the TX engines' work */

    /* the blocks (migrated one by one, as the card's "bcm4331" fields) */
    D11State mac;
    D11Dma dma;
    D11Xmit xmit;
    FwState fw;
    PhyState phy;

    /* off unless asked for: what the card hands the driver, perturbed */
    BcmHostile hostile;

    /* the card's client of the medium; properties */
    WifiMedium *medium;
    int32_t txpower;
    WifiMediumClient air;
} D11Core;

void d11_core_init(D11Core *c, PCIDevice *pci, const BcmPhyModel *phy);
void d11_core_init_mmio(D11Core *c, Object *owner, uint8_t corerev,
                        bool ring_aligned);
void d11_core_realize(D11Core *c, DeviceState *dev, qemu_irq irq);
void d11_core_exit(D11Core *c);

/* reset: the backplane's core reset, the card's (enter, then hold) */
void d11_core_bcma_reset(void *opaque);
void d11_core_reset(D11Core *c);
void d11_core_update_irq(D11Core *c);

/* migration: the frames on the air, the lines, then the work resumes */
void d11_core_post_load(D11Core *c);
void d11_core_resume(D11Core *c);

void d11_core_set_rfkill(D11Core *c, bool blocked);
void d11_core_air_update(D11Core *c);

#endif
