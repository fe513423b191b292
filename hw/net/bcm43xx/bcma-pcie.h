/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane: the PCIe core (bcma-pcie.c), its plain
 * and indirect registers, MDIO SerDes blocks and SPROM shadow, a leaf of
 * the backplane (bcma.c), which dispatches its registers.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_BCMA_PCIE_H
#define HW_NET_BCM43XX_BCMA_PCIE_H

#include "bcma-chip.h"

typedef struct BcmaPcieState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t ind[BCMA_PCIE_IND_SIZE / 4];
    uint16_t sprom_shadow[BCMA_PCIE_SPROM_SHADOW_WORDS];
    uint16_t mdio_block;                /* selected block */
    uint8_t mdio_nblocks;
    uint16_t mdio_block_id[BCMA_PCIE_MDIO_BLOCKS];
    uint16_t mdio_regs[BCMA_PCIE_MDIO_BLOCKS][BCMA_PCIE_MDIO_REGS];
} BcmaPcieState;

const char *bcma_pcie_reg_name(uint32_t off);
uint32_t bcma_pcie_read32(BcmaPcieState *p, uint32_t off);
void bcma_pcie_write32(BcmaPcieState *p, uint32_t off, uint32_t val,
                       uint32_t mask);

#endif
