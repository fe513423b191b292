/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the AMBA (bcma) backplane behind BAR0.
 *
 * EROM generated from a per-chip core table, agent (wrapper) registers,
 * ChipCommon with PMU, GPIO and SPROM, the PCIe core (MDIO/SerDes, indirect
 * registers, SPROM shadow) and clock control.
 *
 * What is modelled is what Linux's bcma driver and b43 use:
 * drivers/bcma/{scan.c,core.c,main.c,sprom.c,driver_chipcommon*.c,
 * driver_pci.c,host_pci.c} and include/linux/bcma/.  Values are those of a
 * real BCM4331 (chip 0x4331 rev 2 package 9; ChipCommon rev 0x25, 802.11
 * rev 0x1D, PCIe rev 0x13).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "migration/vmstate.h"
#include "bcm4331.h"
#include "trace.h"

/* guest mistake: trace event + LOG_GUEST_ERROR (hw/nvme/ctrl.c idiom) */
#define BCMA_GUEST_ERR(trace, fmt, ...)                                 \
    do {                                                                \
        (trace_##trace)(__VA_ARGS__);                                   \
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: " #trace ": " fmt "\n", \
                      ## __VA_ARGS__);                                  \
    } while (0)

#define BCMA_MANUF_BCM          0x4bf

/*
 * BCM4331 core table, in EROM order (core index = position: ChipCommon 0,
 * 802.11 1, PCIe 2, as on real parts).  A sibling chip is a new table.
 */
static const BcmaCoreInfo bcm4331_cores[] = {
    {
        .name = "ChipCommon", .type = BCMA_CORE_CHIPCOMMON,
        .manuf = BCMA_MANUF_BCM, .id = 0x800, .rev = 0x25,
        .base = 0x18000000, .wrap = 0x18100000, .master = false,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
    {
        .name = "802.11", .type = BCMA_CORE_80211,
        .manuf = BCMA_MANUF_BCM, .id = 0x812, .rev = 0x1d,
        .base = 0x18001000, .wrap = 0x18101000, .master = true,
        /*
         * 64-bit DMA; 2 and 5 GHz PHY (a dual-band a/b/g/n part: b43 then
         * prints "5 GHz band is unsupported on this PHY" like on hardware)
         */
        .iost = BCMA_IOST_DMA64 | BCMA_IOST_D11_2G_PHY | BCMA_IOST_D11_5G_PHY,
        .ioctl_reset = 0, .resetctl_reset = 1,  /* held in reset */
    },
    {
        .name = "PCIe", .type = BCMA_CORE_PCIE,
        .manuf = BCMA_MANUF_BCM, .id = 0x820, .rev = 0x13,
        .base = 0x18002000, .wrap = 0x18102000, .master = true,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
};

static const BcmaChipInfo bcm4331_chip = {
    .chip_id = 0x4331,
    .chip_rev = 2,
    .package = 9,
    .erom_base = 0x18103000,
    /* PMU and SPROM; no flash, no PCTL (bcma would log an error) */
    .cc_cap = BCMA_CC_CAP_PMU | BCMA_CC_CAP_SPROM,
    .cc_chipstat = BCMA_CC_CHIPST_4331_SPROM_PRESENT,
    .pmu_cap = 0x00000009,
    .cores = bcm4331_cores,
    .ncores = ARRAY_SIZE(bcm4331_cores),
};

/* ------------------------------------------------------------------ */
/* EROM                                                                */

static uint32_t erom_addr(uint32_t base, unsigned type, unsigned port)
{
    /* 4 KiB, 32-bit address descriptor */
    return (base & ~0xfffu) | (port << 8) | (type << 6) |
           BCMA_EROM_TAG_ADDR | BCMA_EROM_VALID;
}

static void bcma_build_erom(BcmaState *b)
{
    unsigned n = 0;

    memset(b->erom, 0, sizeof(b->erom));
    for (unsigned i = 0; i < b->chip->ncores; i++) {
        const BcmaCoreInfo *c = &b->chip->cores[i];
        unsigned nmp = c->master ? 1 : 0;
        unsigned nmw = c->master ? 1 : 0;
        unsigned nsw = c->master ? 0 : 1;

        /* CIA: manufacturer, core id, class */
        b->erom[n++] = (c->manuf << 20) | (c->id << 8) | (c->class << 4) |
                       BCMA_EROM_TAG_CI | BCMA_EROM_VALID;
        /* CIB: revision, #slave wrappers, #master wrappers, #sp, #mp */
        b->erom[n++] = (c->rev << 24) | (nsw << 19) | (nmw << 14) |
                       (1 << 9) | (nmp << 4) |
                       BCMA_EROM_TAG_CI | BCMA_EROM_VALID;
        if (nmp) {
            /* master port descriptor: master number = core index */
            b->erom[n++] = (i << 8) | BCMA_EROM_TAG_MP | BCMA_EROM_VALID;
        }
        b->erom[n++] = erom_addr(c->base, BCMA_EROM_ADDR_SLAVE, 0);
        /* wrapper: slave-wrapper port 0 when nsp == 1 (scan.c's hack) */
        b->erom[n++] = erom_addr(c->wrap, c->master ? BCMA_EROM_ADDR_MWRAP :
                                 BCMA_EROM_ADDR_SWRAP, 0);
    }
    b->erom[n++] = BCMA_EROM_END;
    b->erom_words = n;
}

/* ------------------------------------------------------------------ */
/* register names for traces                                           */

static const char *bcma_agent_reg_name(uint32_t off)
{
    switch (off) {
    case A_AI_OOB_SEL_OUT_A30: return "AI_OOB_SEL_OUT_A30";
    case A_AI_IOCTL: return "AI_IOCTL";
    case A_AI_IOST: return "AI_IOST";
    case A_AI_RESET_CTL: return "AI_RESET_CTL";
    case A_AI_RESET_ST: return "AI_RESET_ST";
    default: return "AI_?";
    }
}

static const char *bcma_cc_reg_name(uint32_t off)
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

static const char *bcma_pcie_reg_name(uint32_t off)
{
    if (off >= BCMA_PCIE_SPROM_SHADOW &&
        off < BCMA_PCIE_SPROM_SHADOW + 2 * BCMA_PCIE_SPROM_SHADOW_WORDS) {
        return "PCIE_SPROM_SHADOW";
    }
    switch (off) {
    case A_PCIE_CTL: return "PCIE_CTL";
    case A_PCIE_BIST_STATUS: return "PCIE_BIST_STATUS";
    case A_PCIE_GPIO_SEL: return "PCIE_GPIO_SEL";
    case A_PCIE_GPIO_OUT_EN: return "PCIE_GPIO_OUT_EN";
    case A_PCIE_INTR_STATUS: return "PCIE_INTR_STATUS";
    case A_PCIE_INTR_MASK: return "PCIE_INTR_MASK";
    case A_PCIE_SB_TO_PCI_MBOX: return "PCIE_SB_TO_PCI_MBOX";
    case A_PCIE_MBOX_INT: return "PCIE_MBOX_INT";
    case A_PCIE_BCAST_ADDR: return "PCIE_BCAST_ADDR";
    case A_PCIE_BCAST_DATA: return "PCIE_BCAST_DATA";
    case A_PCIE_SBTOPCI0: return "PCIE_SBTOPCI0";
    case A_PCIE_SBTOPCI1: return "PCIE_SBTOPCI1";
    case A_PCIE_SBTOPCI2: return "PCIE_SBTOPCI2";
    case A_PCIE_CONFIG_ADDR: return "PCIE_CONFIG_ADDR";
    case A_PCIE_CONFIG_DATA: return "PCIE_CONFIG_DATA";
    case A_PCIE_MDIO_CONTROL: return "PCIE_MDIO_CONTROL";
    case A_PCIE_MDIO_DATA: return "PCIE_MDIO_DATA";
    case A_PCIE_IND_ADDR: return "PCIE_IND_ADDR";
    case A_PCIE_IND_DATA: return "PCIE_IND_DATA";
    case A_PCIE_CLKREQENCTRL: return "PCIE_CLKREQENCTRL";
    case A_CLKCTLST: return "PCIE_CLKCTLST";
    default: return "PCIE_?";
    }
}

static const char *bcma_d11_reg_name(uint32_t off)
{
    /* the MAC core traces its own registers by name (d11-mac.c) */
    return off == A_CLKCTLST ? "D11_CLKCTLST" : "D11";
}

static const char *bcma_core_reg_name(BcmaCoreType type, uint32_t off)
{
    switch (type) {
    case BCMA_CORE_CHIPCOMMON:
        return bcma_cc_reg_name(off);
    case BCMA_CORE_PCIE:
        return bcma_pcie_reg_name(off);
    case BCMA_CORE_80211:
        return bcma_d11_reg_name(off);
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* clock control (core register 0x1E0 of every core)                   */

static uint32_t bcma_clkctlst_read(BcmaCoreState *c)
{
    /*
     * ALP and HT are always available on a PCIe card (the PMU keeps them
     * up); the external resource status mirrors the requests at once, so
     * bcma_core_set_clockmode() and bcma_core_pll_ctl() never poll long.
     */
    return c->clkctlst | BCMA_CLKCTLST_HAVEALP | BCMA_CLKCTLST_HAVEHT |
           BCMA_CLKCTLST_BP_ON_HT |
           ((c->clkctlst & BCMA_CLKCTLST_EXTRESREQ) <<
            BCMA_CLKCTLST_EXTRESST_SHIFT);
}

static void bcma_clkctlst_write(BcmaCoreState *c, uint32_t val)
{
    /* bcma's DYNAMIC clock mode writes almost all ones: keep only RW bits */
    c->clkctlst = val & BCMA_CLKCTLST_WMASK;
}

/* ------------------------------------------------------------------ */
/* ChipCommon                                                          */

static uint16_t bcma_sprom_word(BcmaState *b, unsigned w)
{
    /* past the image the SPROM area reads as all-ones */
    return w < b->sprom_words ? b->sprom[w] : 0xffff;
}

static uint32_t *bcma_pmu_indirect(Bcm4331State *s, uint32_t addr_reg,
                                   uint32_t *file, bool is_write)
{
    uint32_t idx = s->bcma.cc.regs[addr_reg >> 2];

    /* guest-chosen index into a fixed array: bound it */
    if (idx >= BCMA_PMU_INDIRECT_REGS) {
        BCMA_GUEST_ERR(bcm4331_bcma_ub_pmu_index,
                       "PMU indirect index %u out of range (%s)",
                       idx, is_write ? "write" : "read");
        return NULL;
    }
    return &file[idx];
}

static uint32_t bcma_cc_read32(Bcm4331State *s, uint32_t off)
{
    BcmaState *b = &s->bcma;
    BcmaCcState *cc = &b->cc;
    const BcmaChipInfo *chip = b->chip;
    uint32_t *p;

    if (off >= BCMA_CC_SPROM) {
        unsigned w = (off - BCMA_CC_SPROM) / 2;

        return bcma_sprom_word(b, w) | (bcma_sprom_word(b, w + 1) << 16);
    }
    switch (off) {
    case A_CC_ID:
        /* type 1 (AI), 3 cores, package, revision, chip id */
        return (1u << 28) | (chip->ncores << 24) | (chip->package << 20) |
               (chip->chip_rev << 16) | chip->chip_id;
    case A_CC_CAP:
        return chip->cc_cap;
    case A_CC_CHIPSTAT:
        return chip->cc_chipstat;
    case A_CC_CAP_EXT:
        return 0;   /* no AOB: the PMU lives in ChipCommon */
    case A_CC_EROM:
        return chip->erom_base;
    case A_CC_SROM_CONTROL:
        return b->sprom_words ? BCMA_CC_SROM_PRESENT | BCMA_CC_SROM_SIZE_4K
                              : 0;
    case A_CC_GPIOIN:
        /* pins driven by us read back; undriven pins read low */
        return cc->regs[A_CC_GPIOOUT >> 2] & cc->regs[A_CC_GPIOOUTEN >> 2];
    case A_CC_PMU_CAP:
        return chip->pmu_cap;
    case A_CC_PMU_STAT:
        return 0;   /* no external LPO: bcma skips the xtal measurement */
    case A_CC_PMU_CHIPCTL_DATA:
        p = bcma_pmu_indirect(s, A_CC_PMU_CHIPCTL_ADDR, cc->pmu_chipctl,
                              false);
        return p ? *p : 0;
    case A_CC_PMU_REGCTL_DATA:
        p = bcma_pmu_indirect(s, A_CC_PMU_REGCTL_ADDR, cc->pmu_regctl, false);
        return p ? *p : 0;
    case A_CC_PMU_PLLCTL_DATA:
        p = bcma_pmu_indirect(s, A_CC_PMU_PLLCTL_ADDR, cc->pmu_pllctl, false);
        return p ? *p : 0;
    default:
        return cc->regs[off >> 2];
    }
}

static void bcma_cc_write32(Bcm4331State *s, uint32_t off, uint32_t val,
                            uint32_t mask)
{
    BcmaState *b = &s->bcma;
    BcmaCcState *cc = &b->cc;
    uint32_t *p = NULL;

    if (off >= BCMA_CC_SPROM) {
        /* SPROM programming goes through SROM_CONTROL commands: absent */
        BCMA_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
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
        BCMA_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
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
        p = bcma_pmu_indirect(s, A_CC_PMU_CHIPCTL_ADDR, cc->pmu_chipctl, true);
        break;
    case A_CC_PMU_REGCTL_DATA:
        p = bcma_pmu_indirect(s, A_CC_PMU_REGCTL_ADDR, cc->pmu_regctl, true);
        break;
    case A_CC_PMU_PLLCTL_DATA:
        p = bcma_pmu_indirect(s, A_CC_PMU_PLLCTL_ADDR, cc->pmu_pllctl, true);
        break;
    default:
        cc->regs[off >> 2] = (cc->regs[off >> 2] & ~mask) | (val & mask);
        return;
    }
    if (p) {
        *p = (*p & ~mask) | (val & mask);
    }
}

/* ------------------------------------------------------------------ */
/* PCIe core                                                           */

/* MDIO register reset values: SerDes PLL control has FREQDET enabled */
static uint16_t bcma_mdio_reset_value(uint16_t block, unsigned reg)
{
    if (block == 0x1d && reg == 1) {
        return 0x4000;
    }
    return 0;
}

static int bcma_mdio_slot(BcmaPcieState *p, uint16_t block)
{
    for (unsigned i = 0; i < p->mdio_nblocks; i++) {
        if (p->mdio_block_id[i] == block) {
            return i;
        }
    }
    if (p->mdio_nblocks >= BCMA_PCIE_MDIO_BLOCKS) {
        return -1;
    }
    p->mdio_block_id[p->mdio_nblocks] = block;
    for (unsigned r = 0; r < BCMA_PCIE_MDIO_REGS; r++) {
        p->mdio_regs[p->mdio_nblocks][r] = bcma_mdio_reset_value(block, r);
    }
    return p->mdio_nblocks++;
}

static uint32_t bcma_mdio_command(BcmaPcieState *p, uint32_t v)
{
    unsigned reg = FIELD_EX32(v, PCIE_MDIO_DATA, REGADDR);
    uint16_t data = FIELD_EX32(v, PCIE_MDIO_DATA, DATA);
    int slot;

    if (FIELD_EX32(v, PCIE_MDIO_DATA, WRITE)) {
        if (reg == BCMA_PCIE_MDIO_BLK_ADDR) {
            p->mdio_block = data >> 4;
            trace_bcm4331_bcma_mdio("select", p->mdio_block, reg, data);
            return v;
        }
        slot = bcma_mdio_slot(p, p->mdio_block);
        if (slot < 0) {
            BCMA_GUEST_ERR(bcm4331_bcma_ub_mdio_block,
                           "too many MDIO blocks (block 0x%x)",
                           p->mdio_block);
            return v;
        }
        p->mdio_regs[slot][reg] = data;
        trace_bcm4331_bcma_mdio("write", p->mdio_block, reg, data);
        return v;
    }
    if (FIELD_EX32(v, PCIE_MDIO_DATA, READ)) {
        if (reg == BCMA_PCIE_MDIO_BLK_ADDR) {
            data = p->mdio_block << 4;
        } else {
            slot = bcma_mdio_slot(p, p->mdio_block);
            data = slot < 0 ? 0xffff : p->mdio_regs[slot][reg];
        }
        trace_bcm4331_bcma_mdio("read", p->mdio_block, reg, data);
        return FIELD_DP32(v, PCIE_MDIO_DATA, DATA, data);
    }
    return v;
}

static uint32_t *bcma_pcie_ind(BcmaPcieState *p, bool is_write)
{
    uint32_t a = p->regs[A_PCIE_IND_ADDR >> 2];

    if (a >= BCMA_PCIE_IND_SIZE || (a & 3)) {
        BCMA_GUEST_ERR(bcm4331_bcma_ub_pcie_ind,
                       "indirect PCIe register 0x%x invalid (%s)", a,
                       is_write ? "write" : "read");
        return NULL;
    }
    return &p->ind[a >> 2];
}

static uint32_t bcma_pcie_read32(Bcm4331State *s, uint32_t off)
{
    BcmaPcieState *p = &s->bcma.pcie;
    uint32_t *r;

    if (off >= BCMA_PCIE_SPROM_SHADOW &&
        off < BCMA_PCIE_SPROM_SHADOW + 2 * BCMA_PCIE_SPROM_SHADOW_WORDS) {
        unsigned w = (off - BCMA_PCIE_SPROM_SHADOW) / 2;

        return p->sprom_shadow[w] | (p->sprom_shadow[w + 1] << 16);
    }
    if (off >= BCMA_REGFILE_WORDS * 4) {
        BCMA_GUEST_ERR(bcm4331_bcma_ub_core_reg, "%s: register 0x%x "
                       "unimplemented (%s)", "PCIe", off, "read");
        return 0xffffffff;
    }
    switch (off) {
    case A_PCIE_MDIO_CONTROL:
        /* MDIO transactions complete immediately */
        return p->regs[off >> 2] | BCMA_PCIE_MDIOCTL_ACCESS_DONE;
    case A_PCIE_IND_DATA:
        if (p->regs[A_PCIE_IND_ADDR >> 2] == BCMA_PCIE_PLP_STATUSREG) {
            return 0;   /* no polarity inversion on the SerDes */
        }
        r = bcma_pcie_ind(p, false);
        return r ? *r : 0xffffffff;
    default:
        return p->regs[off >> 2];
    }
}

static void bcma_pcie_write32(Bcm4331State *s, uint32_t off, uint32_t val,
                              uint32_t mask)
{
    BcmaPcieState *p = &s->bcma.pcie;
    uint32_t *r, v;

    if (off >= BCMA_PCIE_SPROM_SHADOW &&
        off < BCMA_PCIE_SPROM_SHADOW + 2 * BCMA_PCIE_SPROM_SHADOW_WORDS) {
        unsigned w = (off - BCMA_PCIE_SPROM_SHADOW) / 2;

        if (mask & 0xffff) {
            p->sprom_shadow[w] = val;
        }
        if (mask & 0xffff0000) {
            p->sprom_shadow[w + 1] = val >> 16;
        }
        return;
    }
    if (off >= BCMA_REGFILE_WORDS * 4) {
        BCMA_GUEST_ERR(bcm4331_bcma_ub_core_reg, "%s: register 0x%x "
                       "unimplemented (%s)", "PCIe", off, "write");
        return;
    }
    v = (p->regs[off >> 2] & ~mask) | (val & mask);
    switch (off) {
    case A_PCIE_MDIO_CONTROL:
        p->regs[off >> 2] = v & ~BCMA_PCIE_MDIOCTL_ACCESS_DONE;
        return;
    case A_PCIE_MDIO_DATA:
        if (FIELD_EX32(v, PCIE_MDIO_DATA, START)) {
            v = bcma_mdio_command(p, v);
        }
        p->regs[off >> 2] = v;
        return;
    case A_PCIE_IND_DATA:
        if (p->regs[A_PCIE_IND_ADDR >> 2] == BCMA_PCIE_PLP_STATUSREG) {
            return;     /* read-only status */
        }
        r = bcma_pcie_ind(p, true);
        if (r) {
            *r = (*r & ~mask) | (val & mask);
        }
        return;
    default:
        p->regs[off >> 2] = v;
        return;
    }
}

/* ------------------------------------------------------------------ */
/* agent (wrapper)                                                     */

static uint32_t bcma_agent_read32(Bcm4331State *s, unsigned i, uint32_t off)
{
    BcmaCoreState *c = &s->bcma.core[i];

    switch (off) {
    case A_AI_OOB_SEL_OUT_A30:
        return c->oob_sel_out_a30;
    case A_AI_IOCTL:
        return c->ioctl;
    case A_AI_IOST:
        /* dma64=off: a part with 32-bit DMA engines */
        return s->bcma.chip->cores[i].iost &
               (s->dma64 ? ~0u : ~(uint32_t)BCMA_IOST_DMA64);
    case A_AI_RESET_CTL:
        return c->resetctl;
    case A_AI_RESET_ST:
        return 0;   /* resets complete at once: never busy */
    default:
        qemu_log_mask(LOG_UNIMP, "bcm4331: %s agent register 0x%x read\n",
                      s->bcma.chip->cores[i].name, off);
        return 0;
    }
}

static void bcma_agent_write32(Bcm4331State *s, unsigned i, uint32_t off,
                               uint32_t val, uint32_t mask)
{
    const BcmaCoreInfo *info = &s->bcma.chip->cores[i];
    BcmaCoreState *c = &s->bcma.core[i];
    uint32_t v;

    switch (off) {
    case A_AI_OOB_SEL_OUT_A30:
        c->oob_sel_out_a30 = (c->oob_sel_out_a30 & ~mask) | (val & mask);
        return;
    case A_AI_IOCTL:
        v = (c->ioctl & ~mask) | (val & mask);
        if (v != c->ioctl) {
            trace_bcm4331_bcma_core_ioctl(info->name, c->ioctl, v);
        }
        c->ioctl = v;
        return;
    case A_AI_RESET_CTL:
        v = ((c->resetctl & ~mask) | (val & mask)) & R_AI_RESET_CTL_RESET_MASK;
        if (v != c->resetctl) {
            trace_bcm4331_bcma_core_reset(info->name, v);
            /*
             * Entering reset clears the core's state.  Only the 802.11
             * core is ever reset through its agent on a PCIe card (resetting
             * ChipCommon or the PCIe core would cut the host off).
             */
            if (v && info->type == BCMA_CORE_80211) {
                d11_core_reset(s);
            }
        }
        c->resetctl = v;
        return;
    case A_AI_IOST:
    case A_AI_RESET_ST:
        BCMA_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                       "register 0x%x", info->name, val, off);
        return;
    default:
        qemu_log_mask(LOG_UNIMP, "bcm4331: %s agent register 0x%x write "
                      "0x%x\n", info->name, off, val);
        return;
    }
}

/* ------------------------------------------------------------------ */
/* backplane decode                                                    */

typedef enum {
    BCMA_TGT_NONE,
    BCMA_TGT_CORE,
    BCMA_TGT_AGENT,
    BCMA_TGT_EROM,
} BcmaTarget;

static BcmaTarget bcma_decode(Bcm4331State *s, uint32_t addr, unsigned *core)
{
    const BcmaChipInfo *chip = s->bcma.chip;
    uint32_t page = addr & ~(BCMA_CORE_SIZE - 1);

    for (unsigned i = 0; i < chip->ncores; i++) {
        if (page == chip->cores[i].base) {
            *core = i;
            return BCMA_TGT_CORE;
        }
        if (page == chip->cores[i].wrap) {
            *core = i;
            return BCMA_TGT_AGENT;
        }
    }
    if (page == chip->erom_base) {
        return BCMA_TGT_EROM;
    }
    return BCMA_TGT_NONE;
}

int bcma_core_index(Bcm4331State *s, BcmaCoreType type)
{
    for (unsigned i = 0; i < s->bcma.chip->ncores; i++) {
        if (s->bcma.chip->cores[i].type == type) {
            return i;
        }
    }
    g_assert_not_reached();
}

const char *bcma_target_name(Bcm4331State *s, uint32_t addr)
{
    unsigned i = 0;

    switch (bcma_decode(s, addr, &i)) {
    case BCMA_TGT_CORE:
        return s->bcma.chip->cores[i].name;
    case BCMA_TGT_AGENT:
        return "agent";
    case BCMA_TGT_EROM:
        return "EROM";
    default:
        return "unmapped";
    }
}

static uint32_t bcma_core_read32(Bcm4331State *s, unsigned i, uint32_t off,
                                 uint32_t mask)
{
    /* clock control/status: the same register in every core */
    if (off == A_CLKCTLST) {
        return bcma_clkctlst_read(&s->bcma.core[i]);
    }
    switch (s->bcma.chip->cores[i].type) {
    case BCMA_CORE_CHIPCOMMON:
        return bcma_cc_read32(s, off);
    case BCMA_CORE_PCIE:
        return bcma_pcie_read32(s, off);
    case BCMA_CORE_80211:
        return d11_mmio_read(s, off, mask);    /* d11-mac.c */
    }
    g_assert_not_reached();
}

static void bcma_core_write32(Bcm4331State *s, unsigned i, uint32_t off,
                              uint32_t val, uint32_t mask)
{
    BcmaCoreState *c = &s->bcma.core[i];

    if (off == A_CLKCTLST) {
        bcma_clkctlst_write(c, (c->clkctlst & ~mask) | (val & mask));
        return;
    }
    switch (s->bcma.chip->cores[i].type) {
    case BCMA_CORE_CHIPCOMMON:
        bcma_cc_write32(s, off, val, mask);
        return;
    case BCMA_CORE_PCIE:
        bcma_pcie_write32(s, off, val, mask);
        return;
    case BCMA_CORE_80211:
        d11_mmio_write(s, off, val, mask);
        return;
    }
    g_assert_not_reached();
}

static const char *bcma_reg_name(Bcm4331State *s, BcmaTarget t, unsigned i,
                                 uint32_t off)
{
    switch (t) {
    case BCMA_TGT_CORE:
        return bcma_core_reg_name(s->bcma.chip->cores[i].type, off);
    case BCMA_TGT_AGENT:
        return bcma_agent_reg_name(off);
    case BCMA_TGT_EROM:
        return "EROM";
    default:
        return "unmapped";
    }
}

/* The MAC core names its own registers in its traces (d11-mac.c) */
static bool bcma_traced_by_core(Bcm4331State *s, BcmaTarget t, unsigned i,
                                uint32_t off)
{
    return t == BCMA_TGT_CORE &&
           s->bcma.chip->cores[i].type == BCMA_CORE_80211 &&
           off != A_CLKCTLST;
}

/*
 * One backplane access of @size bytes that does not cross a 32-bit word
 * (the BAR0 dispatcher splits those).  Registers are 32-bit; narrower
 * accesses select byte lanes of the word.
 */
uint32_t bcma_bp_read(Bcm4331State *s, uint32_t addr, unsigned size)
{
    uint32_t off = addr & (BCMA_CORE_SIZE - 1) & ~3u;
    unsigned shift = (addr & 3) * 8;
    uint32_t mask = size >= 4 ? UINT32_MAX : (1u << (size * 8)) - 1;
    unsigned i = 0;
    BcmaTarget t = bcma_decode(s, addr, &i);
    uint32_t dw, val;

    switch (t) {
    case BCMA_TGT_CORE:
        /* the lanes read: registers with read side effects need them */
        dw = bcma_core_read32(s, i, off, mask << shift);
        break;
    case BCMA_TGT_AGENT:
        dw = bcma_agent_read32(s, i, off);
        break;
    case BCMA_TGT_EROM:
        /* a ROM: reads have no side effect (bcma re-reads entries) */
        dw = s->bcma.erom[off >> 2];
        break;
    default:
        BCMA_GUEST_ERR(bcm4331_bcma_ub_unmapped,
                       "read of unmapped backplane address 0x%08x (%u bytes, "
                       "write %d)", addr, size, 0);
        return mask;
    }
    val = (dw >> shift) & mask;
    if (!bcma_traced_by_core(s, t, i, off)) {
        trace_bcm4331_bcma_read(t == BCMA_TGT_EROM ? "EROM" :
                                s->bcma.chip->cores[i].name,
                                bcma_reg_name(s, t, i, off), addr, val, size);
    }
    return val;
}

void bcma_bp_write(Bcm4331State *s, uint32_t addr, uint32_t val,
                   unsigned size)
{
    uint32_t off = addr & (BCMA_CORE_SIZE - 1) & ~3u;
    unsigned shift = (addr & 3) * 8;
    uint32_t mask = size >= 4 ? UINT32_MAX : (1u << (size * 8)) - 1;
    unsigned i = 0;
    BcmaTarget t = bcma_decode(s, addr, &i);

    val &= mask;
    switch (t) {
    case BCMA_TGT_CORE:
        if (!bcma_traced_by_core(s, t, i, off)) {
            trace_bcm4331_bcma_write(s->bcma.chip->cores[i].name,
                                     bcma_reg_name(s, t, i, off), addr, val,
                                     size);
        }
        bcma_core_write32(s, i, off, val << shift, mask << shift);
        return;
    case BCMA_TGT_AGENT:
        trace_bcm4331_bcma_write(s->bcma.chip->cores[i].name,
                                 bcma_reg_name(s, t, i, off), addr, val, size);
        bcma_agent_write32(s, i, off, val << shift, mask << shift);
        return;
    case BCMA_TGT_EROM:
        BCMA_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                       "register 0x%x", "EROM", val, off);
        return;
    default:
        BCMA_GUEST_ERR(bcm4331_bcma_ub_unmapped,
                       "write of unmapped backplane address 0x%08x (%u bytes, "
                       "write %d)", addr, size, 1);
        return;
    }
}

/* ------------------------------------------------------------------ */
/* realize, reset, migration                                           */

static bool bcma_load_sprom(BcmaState *b, const char *file, Error **errp)
{
    g_autofree char *data = NULL;
    g_autoptr(GError) gerr = NULL;
    gsize len = 0;
    unsigned words = 0;
    BcmSpromStatus st;

    if (!g_file_get_contents(file, &data, &len, &gerr)) {
        error_setg(errp, "bcm4331: cannot read sprom=%s: %s", file,
                   gerr->message);
        return false;
    }
    if (len > sizeof(b->sprom)) {
        error_setg(errp, "bcm4331: sprom=%s: %s (file has %zu bytes)", file,
                   bcm_sprom_strerror(BCM_SPROM_ERR_SIZE), (size_t)len);
        return false;
    }
    for (gsize i = 0; i < len / 2; i++) {
        b->sprom[i] = lduw_le_p(data + 2 * i);
    }
    st = bcm_sprom_check(b->sprom, len, &words);
    if (st != BCM_SPROM_OK) {
        error_setg(errp, "bcm4331: sprom=%s: %s (file has %zu bytes)", file,
                   bcm_sprom_strerror(st), (size_t)len);
        return false;
    }
    b->sprom_words = words;
    return true;
}

bool bcma_realize(Bcm4331State *s, bool mac_given, Error **errp)
{
    BcmaState *b = &s->bcma;

    b->chip = &bcm4331_chip;
    assert(b->chip->ncores <= BCMA_MAX_CORES);
    bcma_build_erom(b);

    if (s->sprom_file) {
        if (!bcma_load_sprom(b, s->sprom_file, errp)) {
            return false;
        }
        /* an explicit mac= overrides the image's il0mac */
        if (mac_given) {
            bcm_sprom_set_mac(b->sprom, s->macaddr.a);
            bcm_sprom_fix_crc(b->sprom, b->sprom_words);
        }
        trace_bcm4331_bcma_sprom(s->sprom_file, b->sprom_words,
                                 b->sprom[b->sprom_words - 1] & 0xff);
    } else {
        b->sprom_words = bcm_sprom_build_r9(b->sprom, s->macaddr.a);
        trace_bcm4331_bcma_sprom("built-in", b->sprom_words, 9);
    }
    return true;
}

void bcma_reset(Bcm4331State *s)
{
    BcmaState *b = &s->bcma;

    for (unsigned i = 0; i < b->chip->ncores; i++) {
        b->core[i] = (BcmaCoreState) {
            .ioctl = b->chip->cores[i].ioctl_reset,
            .resetctl = b->chip->cores[i].resetctl_reset,
        };
    }
    memset(&b->cc, 0, sizeof(b->cc));
    memset(&b->pcie, 0, sizeof(b->pcie));
    /* the PCIe core loads its SPROM shadow from the SPROM at reset */
    for (unsigned w = 0; w < BCMA_PCIE_SPROM_SHADOW_WORDS; w++) {
        b->pcie.sprom_shadow[w] = bcma_sprom_word(b, w);
    }
}

static int bcma_post_load(void *opaque, int version_id)
{
    BcmaState *b = opaque;

    /* indexes that later accesses use must be in range */
    if (b->pcie.mdio_nblocks > BCMA_PCIE_MDIO_BLOCKS) {
        return -EINVAL;
    }
    for (unsigned i = 0; i < BCMA_MAX_CORES; i++) {
        if (b->core[i].resetctl & ~R_AI_RESET_CTL_RESET_MASK ||
            b->core[i].clkctlst & ~BCMA_CLKCTLST_WMASK) {
            return -EINVAL;
        }
    }
    return 0;
}

static const VMStateDescription vmstate_bcma_core = {
    .name = "bcm4331-bcma-core",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ioctl, BcmaCoreState),
        VMSTATE_UINT32(resetctl, BcmaCoreState),
        VMSTATE_UINT32(oob_sel_out_a30, BcmaCoreState),
        VMSTATE_UINT32(clkctlst, BcmaCoreState),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_bcma = {
    .name = "bcm4331-bcma",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = bcma_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(core, BcmaState, BCMA_MAX_CORES, 1,
                             vmstate_bcma_core, BcmaCoreState),
        VMSTATE_UINT32_ARRAY(cc.regs, BcmaState, BCMA_REGFILE_WORDS),
        VMSTATE_UINT32_ARRAY(cc.pmu_chipctl, BcmaState,
                             BCMA_PMU_INDIRECT_REGS),
        VMSTATE_UINT32_ARRAY(cc.pmu_regctl, BcmaState,
                             BCMA_PMU_INDIRECT_REGS),
        VMSTATE_UINT32_ARRAY(cc.pmu_pllctl, BcmaState,
                             BCMA_PMU_INDIRECT_REGS),
        VMSTATE_UINT32_ARRAY(pcie.regs, BcmaState, BCMA_REGFILE_WORDS),
        VMSTATE_UINT32_ARRAY(pcie.ind, BcmaState, BCMA_PCIE_IND_SIZE / 4),
        VMSTATE_UINT16_ARRAY(pcie.sprom_shadow, BcmaState,
                             BCMA_PCIE_SPROM_SHADOW_WORDS),
        VMSTATE_UINT16(pcie.mdio_block, BcmaState),
        VMSTATE_UINT8(pcie.mdio_nblocks, BcmaState),
        VMSTATE_UINT16_ARRAY(pcie.mdio_block_id, BcmaState,
                             BCMA_PCIE_MDIO_BLOCKS),
        VMSTATE_UINT16_2DARRAY(pcie.mdio_regs, BcmaState,
                               BCMA_PCIE_MDIO_BLOCKS, BCMA_PCIE_MDIO_REGS),
        VMSTATE_END_OF_LIST()
    },
};
