/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane of the BCM4331: the chip and its cores as
 * the EROM describes them, the agents (wrappers), ChipCommon with its PMU
 * and SPROM window, the PCIe core.  Other cores (the 802.11 core) attach
 * with a BcmaCoreOps: the backplane knows them only through it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM4331_BCMA_H
#define HW_NET_BCM4331_BCMA_H

#include "hw/net/bcm4331/bcma-regs.h"
#include "sprom.h"
#include "bcm-common.h"

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
#define BCMA_CORE_SIZE          0x1000
#define BCMA_REGFILE_WORDS      (0x800 / 4)

/*
 * A core the backplane does not model itself: its register window (a
 * 32-bit word at @off, @mask the byte lanes accessed) and the reset its
 * agent's RESET_CTL puts it in.
 */
typedef struct BcmaCoreOps {
    uint32_t (*read)(void *opaque, uint32_t off, uint32_t mask);
    void (*write)(void *opaque, uint32_t off, uint32_t val, uint32_t mask);
    void (*reset)(void *opaque);
} BcmaCoreOps;

typedef struct BcmaCoreState {
    uint32_t ioctl;
    uint32_t resetctl;
    uint32_t oob_sel_out_a30;
    uint32_t clkctlst;          /* writable bits only */
} BcmaCoreState;

typedef struct BcmaCcState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t pmu_chipctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_regctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_pllctl[BCMA_PMU_INDIRECT_REGS];
} BcmaCcState;

typedef struct BcmaPcieState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t ind[BCMA_PCIE_IND_SIZE / 4];
    uint16_t sprom_shadow[BCMA_PCIE_SPROM_SHADOW_WORDS];
    uint16_t mdio_block;                /* selected block */
    uint8_t mdio_nblocks;
    uint16_t mdio_block_id[BCMA_PCIE_MDIO_BLOCKS];
    uint16_t mdio_regs[BCMA_PCIE_MDIO_BLOCKS][BCMA_PCIE_MDIO_REGS];
} BcmaPcieState;

typedef struct BcmaState {
    const BcmaChipInfo *chip;
    uint32_t erom[BCMA_EROM_WORDS];
    unsigned erom_words;
    uint16_t sprom[BCM_SPROM_MAX_WORDS];
    unsigned sprom_words;
    bool dma64;                 /* the 802.11 core's IOST: 64-bit DMA */
    const BcmaCoreOps *core_ops[BCMA_MAX_CORES];
    void *core_opaque[BCMA_MAX_CORES];

    BcmaCoreState core[BCMA_MAX_CORES];
    BcmaCcState cc;
    BcmaPcieState pcie;
} BcmaState;

extern const VMStateDescription vmstate_bcma;

/* bcma.c: the backplane */
bool bcma_realize(BcmaState *b, const char *sprom_file, const uint8_t *mac,
                  bool mac_given, Error **errp);
void bcma_attach_core(BcmaState *b, BcmaCoreType type,
                      const BcmaCoreOps *ops, void *opaque);
void bcma_reset(BcmaState *b);
uint32_t bcma_bp_read(BcmaState *b, uint32_t addr, unsigned size);
void bcma_bp_write(BcmaState *b, uint32_t addr, uint32_t val, unsigned size);
const char *bcma_target_name(BcmaState *b, uint32_t addr);
int bcma_core_index(BcmaState *b, BcmaCoreType type);
uint32_t bcma_core_base(BcmaState *b, BcmaCoreType type);

/* bcma-cc.c: ChipCommon, PMU, SPROM window (the chip's identity) */
const char *bcma_cc_reg_name(uint32_t off);
uint16_t bcma_sprom_word(BcmaState *b, unsigned w);
uint32_t bcma_cc_read32(BcmaState *b, uint32_t off);
void bcma_cc_write32(BcmaState *b, uint32_t off, uint32_t val,
                     uint32_t mask);

/* bcma-pcie.c: the PCIe core */
const char *bcma_pcie_reg_name(uint32_t off);
uint32_t bcma_pcie_read32(BcmaPcieState *p, uint32_t off);
void bcma_pcie_write32(BcmaPcieState *p, uint32_t off, uint32_t val,
                       uint32_t mask);

#endif
