/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libqos driver steps for the bcm4331: a card's register file behind its
 * BAR0, brought up the way b43 brings it up (the steps the qtests and
 * the fuzz targets share).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef LIBQOS_BCM4331_H
#define LIBQOS_BCM4331_H

#include "../libqtest.h"
#include "pci.h"
#include "hw/net/bcm43xx/bcma-regs.h"
#include "hw/net/bcm43xx/d11-regs.h"

/* where the tests map the 802.11 core and its agent: the BAR0 windows */
#define D11             BCMA_BAR0_WIN0
#define AGENT           BCMA_BAR0_WIN1

/* one card on the PC's PCI bus, its BAR0 mapped */
typedef struct QBcm4331 {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar bar0;
} QBcm4331;

void qbcm4331_open(QBcm4331 *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void qbcm4331_close(QBcm4331 *c);
uint32_t bcm_rl(QBcm4331 *c, uint32_t off);
void bcm_wl(QBcm4331 *c, uint32_t off, uint32_t v);
uint16_t bcm_rw(QBcm4331 *c, uint32_t off);
void bcm_ww(QBcm4331 *c, uint32_t off, uint16_t v);

/* b43 steps, on any card's function and BAR0 */
void qbcm4331_core_up(QPCIDevice *dev, QPCIBar bar0);
uint32_t qbcm4331_fw_start(QPCIDevice *dev, QPCIBar bar0);
void qbcm4331_scratch_write(QPCIDevice *dev, QPCIBar bar0, unsigned reg,
                            uint16_t v);
void qbcm4331_phy_write(QPCIDevice *dev, QPCIBar bar0, uint16_t reg,
                        uint16_t v);
void qbcm4331_radio_up(QPCIDevice *dev, QPCIBar bar0, const uint8_t *mac);
void qbcm4331_set_ring(QPCIDevice *dev, QPCIBar bar0, unsigned engine,
                       bool rx, uint64_t base);
void qbcm4331_enable(QPCIDevice *dev, QPCIBar bar0);

#endif
