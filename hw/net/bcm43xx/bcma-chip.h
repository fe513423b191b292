/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane: what a chip is made of, as the EROM
 * describes it (the tables are in bcma.c).  The backplane and its cores
 * (bcma.c, bcma-cc.c, bcma-pcie.c) share these types; nothing here calls.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_BCMA_CHIP_H
#define HW_NET_BCM43XX_BCMA_CHIP_H

#include "hw/net/bcm43xx/bcma-regs.h"

#define BCMA_CORE_SIZE          0x1000  /* a core's registers, an agent */

typedef enum {
    BCMA_CORE_CHIPCOMMON,
    BCMA_CORE_80211,
    BCMA_CORE_PCIE,
} BcmaCoreType;

/* A core as the EROM describes it: one row of a chip's core table. */
typedef struct BcmaCoreInfo {
    const char *name;
    BcmaCoreType type;
    uint16_t manuf;
    uint16_t id;
    uint8_t rev;
    uint8_t class;
    uint32_t base;          /* slave port 0, 4 KiB */
    uint32_t wrap;          /* agent (wrapper), 4 KiB */
    bool master;            /* bus master: MP descriptor + master wrapper */
    uint32_t iost;          /* agent IOST (read-only) */
    uint32_t ioctl_reset;
    uint32_t resetctl_reset;
} BcmaCoreInfo;

/* A chip: identity and core table; the EROM is generated from it. */
typedef struct BcmaChipInfo {
    uint16_t chip_id;
    uint8_t chip_rev;
    uint8_t package;
    uint32_t erom_base;
    uint32_t cc_cap;
    uint32_t cc_chipstat;
    uint32_t pmu_cap;
    const BcmaCoreInfo *cores;
    unsigned ncores;
} BcmaChipInfo;

#define BCMA_MAX_CORES          8

#define BCMA_REGFILE_WORDS      (0x800 / 4)

#endif
