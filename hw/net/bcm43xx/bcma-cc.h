/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane: the ChipCommon core (bcma-cc.c), with
 * the PMU's indirect registers and the SPROM window, a leaf of the
 * backplane (bcma.c), which dispatches its registers and hands it the
 * chip's identity and SPROM image.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_BCMA_CC_H
#define HW_NET_BCM43XX_BCMA_CC_H

#include "bcma-chip.h"

typedef struct BcmaCcState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t pmu_chipctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_regctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_pllctl[BCMA_PMU_INDIRECT_REGS];
} BcmaCcState;

/* what ChipCommon shows of the chip: its identity and the SPROM image */
typedef struct BcmaCcChip {
    const BcmaChipInfo *chip;
    const uint16_t *sprom;
    unsigned sprom_words;
} BcmaCcChip;

const char *bcma_cc_reg_name(uint32_t off);
uint16_t bcma_sprom_word(const BcmaCcChip *id, unsigned w);
uint32_t bcma_cc_read32(BcmaCcState *cc, const BcmaCcChip *id, uint32_t off);
void bcma_cc_write32(BcmaCcState *cc, uint32_t off, uint32_t val,
                     uint32_t mask);

#endif
