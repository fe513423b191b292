/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 backplane: the ChipCommon core, with the PMU (its
 * indirect chip/regulator/PLL control registers) and the SPROM window at
 * 0x800 (drivers/bcma/driver_chipcommon*.c, sprom.c).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "bcma-cc.h"
#include "bcm-common.h"
#include "trace.h"

const char *bcma_cc_reg_name(uint32_t off)
{
    if (off >= BCMA_CC_SPROM) {
        return "CC_SPROM";
    }
    switch (off) {
    case A_CC_ID: return "CC_ID";
    case A_CC_CAP: return "CC_CAP";
    case A_CC_CORECTL: return "CC_CORECTL";
    case A_CC_BIST: return "CC_BIST";
    case A_CC_OTPS: return "CC_OTPS";
    case A_CC_OTPC: return "CC_OTPC";
    case A_CC_OTPP: return "CC_OTPP";
    case A_CC_OTPL: return "CC_OTPL";
    case A_CC_IRQSTAT: return "CC_IRQSTAT";
    case A_CC_IRQMASK: return "CC_IRQMASK";
    case A_CC_CHIPCTL: return "CC_CHIPCTL";
    case A_CC_CHIPSTAT: return "CC_CHIPSTAT";
    case A_CC_JCMD: return "CC_JCMD";
    case A_CC_GPIOPULLUP: return "CC_GPIOPULLUP";
    case A_CC_GPIOPULLDOWN: return "CC_GPIOPULLDOWN";
    case A_CC_GPIOIN: return "CC_GPIOIN";
    case A_CC_GPIOOUT: return "CC_GPIOOUT";
    case A_CC_GPIOOUTEN: return "CC_GPIOOUTEN";
    case A_CC_GPIOCTL: return "CC_GPIOCTL";
    case A_CC_GPIOPOL: return "CC_GPIOPOL";
    case A_CC_GPIOIRQ: return "CC_GPIOIRQ";
    case A_CC_WATCHDOG: return "CC_WATCHDOG";
    case A_CC_GPIOTIMER: return "CC_GPIOTIMER";
    case A_CC_GPIOTOUTM: return "CC_GPIOTOUTM";
    case A_CC_CAP_EXT: return "CC_CAP_EXT";
    case A_CC_EROM: return "CC_EROM";
    case A_CC_SROM_CONTROL: return "CC_SROM_CONTROL";
    case A_CLKCTLST: return "CC_CLKCTLST";
    case A_CC_PMU_CTL: return "CC_PMU_CTL";
    case A_CC_PMU_CAP: return "CC_PMU_CAP";
    case A_CC_PMU_STAT: return "CC_PMU_STAT";
    case A_CC_PMU_RES_STAT: return "CC_PMU_RES_STAT";
    case A_CC_PMU_RES_PEND: return "CC_PMU_RES_PEND";
    case A_CC_PMU_TIMER: return "CC_PMU_TIMER";
    case A_CC_PMU_MINRES_MSK: return "CC_PMU_MINRES_MSK";
    case A_CC_PMU_MAXRES_MSK: return "CC_PMU_MAXRES_MSK";
    case A_CC_PMU_RES_TABSEL: return "CC_PMU_RES_TABSEL";
    case A_CC_PMU_RES_DEPMSK: return "CC_PMU_RES_DEPMSK";
    case A_CC_PMU_RES_UPDNTM: return "CC_PMU_RES_UPDNTM";
    case A_CC_PMU_RES_TIMER: return "CC_PMU_RES_TIMER";
    case A_CC_PMU_CLKSTRETCH: return "CC_PMU_CLKSTRETCH";
    case A_CC_PMU_WATCHDOG: return "CC_PMU_WATCHDOG";
    case A_CC_PMU_CHIPCTL_ADDR: return "CC_PMU_CHIPCTL_ADDR";
    case A_CC_PMU_CHIPCTL_DATA: return "CC_PMU_CHIPCTL_DATA";
    case A_CC_PMU_REGCTL_ADDR: return "CC_PMU_REGCTL_ADDR";
    case A_CC_PMU_REGCTL_DATA: return "CC_PMU_REGCTL_DATA";
    case A_CC_PMU_PLLCTL_ADDR: return "CC_PMU_PLLCTL_ADDR";
    case A_CC_PMU_PLLCTL_DATA: return "CC_PMU_PLLCTL_DATA";
    case A_CC_PMU_XTAL_FREQ: return "CC_PMU_XTAL_FREQ";
    default: return "CC_?";
    }
}

/* ------------------------------------------------------------------ */
/* ChipCommon                                                          */

uint16_t bcma_sprom_word(const BcmaCcChip *id, unsigned w)
{
    /* past the image the SPROM area reads as all-ones */
    return w < id->sprom_words ? id->sprom[w] : 0xffff;
}

static uint32_t *bcma_pmu_indirect(BcmaCcState *cc, uint32_t addr_reg,
                                   uint32_t *file, bool is_write)
{
    uint32_t idx = cc->regs[addr_reg >> 2];

    /* guest-chosen index into a fixed array: bound it */
    if (idx >= BCMA_PMU_INDIRECT_REGS) {
        BCM_GUEST_ERR(bcm4331_bcma_ub_pmu_index,
                       "PMU indirect index %u out of range (%s)",
                       idx, is_write ? "write" : "read");
        return NULL;
    }
    return &file[idx];
}

uint32_t bcma_cc_read32(BcmaCcState *cc, const BcmaCcChip *id, uint32_t off)
{
    const BcmaChipInfo *chip = id->chip;
    uint32_t *p;
    uint32_t v;

    if (off >= BCMA_CC_SPROM) {
        unsigned w = (off - BCMA_CC_SPROM) / 2;

        return bcma_sprom_word(id, w) | (bcma_sprom_word(id, w + 1) << 16);
    }
    switch (off) {
    case A_CC_ID:
        /* type 1 (AI), 3 cores, package, revision, chip id */
        v = FIELD_DP32(0, CC_ID, TYPE, CC_ID_TYPE_AI);
        v = FIELD_DP32(v, CC_ID, NRCORES, chip->ncores);
        v = FIELD_DP32(v, CC_ID, PKG, chip->package);
        v = FIELD_DP32(v, CC_ID, REV, chip->chip_rev);
        return FIELD_DP32(v, CC_ID, ID, chip->chip_id);
    case A_CC_CAP:
        return chip->cc_cap;
    case A_CC_CHIPSTAT:
        return chip->cc_chipstat;
    case A_CC_CAP_EXT:
        return 0;   /* no AOB: the PMU lives in ChipCommon */
    case A_CC_EROM:
        return chip->erom_base;
    case A_CC_SROM_CONTROL:
        if (!id->sprom_words) {
            return 0;
        }
        v = FIELD_DP32(0, CC_SROM_CONTROL, PRESENT, 1);
        return FIELD_DP32(v, CC_SROM_CONTROL, SIZE, CC_SROM_CONTROL_SIZE_4K);
    case A_CC_GPIOIN:
        /* pins driven by us read back; undriven pins read low */
        return cc->regs[A_CC_GPIOOUT >> 2] & cc->regs[A_CC_GPIOOUTEN >> 2];
    case A_CC_PMU_CAP:
        return chip->pmu_cap;
    case A_CC_PMU_STAT:
        return 0;   /* no external LPO: bcma skips the xtal measurement */
    case A_CC_PMU_CHIPCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_CHIPCTL_ADDR, cc->pmu_chipctl,
                              false);
        return p ? *p : 0;
    case A_CC_PMU_REGCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_REGCTL_ADDR, cc->pmu_regctl, false);
        return p ? *p : 0;
    case A_CC_PMU_PLLCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_PLLCTL_ADDR, cc->pmu_pllctl, false);
        return p ? *p : 0;
    default:
        return cc->regs[off >> 2];
    }
}

void bcma_cc_write32(BcmaCcState *cc, uint32_t off, uint32_t val,
                     uint32_t mask)
{
    uint32_t *p = NULL;

    if (off >= BCMA_CC_SPROM) {
        /* SPROM programming goes through SROM_CONTROL commands: absent */
        BCM_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                       "register 0x%x", "ChipCommon", val, off);
        return;
    }
    switch (off) {
    case A_CC_ID:
    case A_CC_CAP:
    case A_CC_CHIPSTAT:
    case A_CC_CAP_EXT:
    case A_CC_EROM:
    case A_CC_GPIOIN:
    case A_CC_PMU_CAP:
    case A_CC_PMU_STAT:
        BCM_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                       "register 0x%x", "ChipCommon", val, off);
        return;
    case A_CC_SROM_CONTROL:
        qemu_log_mask(LOG_UNIMP, "bcm4331: SPROM/OTP programming through "
                      "SROM_CONTROL is not modelled (0x%x)\n", val);
        return;
    case A_CC_PMU_CTL:
        val = (cc->regs[off >> 2] & ~mask) | (val & mask);
        if (FIELD_EX32(val, CC_PMU_CTL, PLL_UPD)) {
            /* the PLL takes the new PLLCTL values at once; bit self-clears */
            trace_bcm4331_bcma_pll_update(cc->pmu_pllctl[0],
                                          cc->pmu_pllctl[2]);
            val = FIELD_DP32(val, CC_PMU_CTL, PLL_UPD, 0);
        }
        cc->regs[off >> 2] = val;
        return;
    case A_CC_PMU_CHIPCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_CHIPCTL_ADDR, cc->pmu_chipctl, true);
        break;
    case A_CC_PMU_REGCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_REGCTL_ADDR, cc->pmu_regctl, true);
        break;
    case A_CC_PMU_PLLCTL_DATA:
        p = bcma_pmu_indirect(cc, A_CC_PMU_PLLCTL_ADDR, cc->pmu_pllctl, true);
        break;
    default:
        cc->regs[off >> 2] = (cc->regs[off >> 2] & ~mask) | (val & mask);
        return;
    }
    if (p) {
        *p = (*p & ~mask) | (val & mask);
    }
}
