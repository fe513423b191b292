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
#include "bcma.h"
#include "trace.h"

/*
 * BCM4331 core table, in EROM order (core index = position: ChipCommon 0,
 * 802.11 1, PCIe 2, as on real parts).  A sibling chip is a new table.
 */
static const BcmaCoreInfo bcm4331_cores[] = {
    {
        .name = "ChipCommon", .type = BCMA_CORE_CHIPCOMMON,
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_CHIPCOMMON,
        .rev = 0x25,
        .base = 0x18000000, .wrap = 0x18100000, .master = false,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
    {
        .name = "802.11", .type = BCMA_CORE_80211,
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_80211,
        .rev = 0x1d,
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
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_PCIE,
        .rev = 0x13,
        .base = 0x18002000, .wrap = 0x18102000, .master = true,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
};

const BcmaChipInfo bcma_chip_bcm4331 = {
    .chip_id = 0x4331,
    .chip_rev = 2,
    .package = 9,
    .erom_base = 0x18103000,
    /* PMU and SPROM; no flash, no PCTL (bcma would log an error) */
    .cc_cap = R_CC_CAP_PMU_MASK | R_CC_CAP_SPROM_MASK,
    .cc_chipstat = BCMA_CC_CHIPST_4331_SPROM_PRESENT,
    .pmu_cap = 0x00000009,
    .cores = bcm4331_cores,
    .ncores = ARRAY_SIZE(bcm4331_cores),
};

/*
 * BCM43224 (brcmsmac), as real cards print it (bcma scan.c): "Found chip
 * with id 0xA8D8, rev 0x01 and package 0x08", ChipCommon rev 0x22, 802.11
 * rev 0x17 (23), PCIe rev 0x0F (Mac mini 4,1, MacBook Air and HP Mini 311
 * cards; docs/brcmsmac.md cites them).  Same backplane map as the BCM4331.
 */
static const BcmaCoreInfo bcm43224_cores[] = {
    {
        .name = "ChipCommon", .type = BCMA_CORE_CHIPCOMMON,
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_CHIPCOMMON,
        .rev = 0x22,
        .base = 0x18000000, .wrap = 0x18100000, .master = false,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
    {
        .name = "802.11", .type = BCMA_CORE_80211,
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_80211,
        .rev = 0x17,
        .base = 0x18001000, .wrap = 0x18101000, .master = true,
        /*
         * 64-bit DMA; a dual-band a/b/g/n N-PHY; the fast clock (brcmsmac
         * phy_cmn.c wlc_phy_init() warns "HW error SISF_FCLKA" without it)
         */
        .iost = BCMA_IOST_DMA64 | BCMA_IOST_D11_2G_PHY | BCMA_IOST_D11_5G_PHY |
                BCMA_IOST_D11_DB_PHY | BCMA_IOST_D11_FCLKA,
        .ioctl_reset = 0, .resetctl_reset = 1,  /* held in reset */
    },
    {
        .name = "PCIe", .type = BCMA_CORE_PCIE,
        .manuf = BCMA_EROM_CIA_MANUF_BCM, .id = BCMA_EROM_CIA_ID_PCIE,
        .rev = 0x0f,
        .base = 0x18002000, .wrap = 0x18102000, .master = true,
        .iost = 0, .ioctl_reset = 0x1, .resetctl_reset = 0,
    },
};

const BcmaChipInfo bcma_chip_bcm43224 = {
    .chip_id = 0xa8d8,
    .chip_rev = 1,
    .package = 8,
    .erom_base = 0x18103000,
    /*
     * PMU and an external SPROM (bcma reads it at ChipCommon 0x800 when
     * CAP_SPROM and SROM_CONTROL bit 0 are set); no flash, no PCTL.  The
     * PMU revision is not public: 6, below the 10 from which brcmsmac
     * measures the crystal (pmu.c).
     */
    .cc_cap = R_CC_CAP_PMU_MASK | R_CC_CAP_SPROM_MASK,
    .cc_chipstat = 0,
    .pmu_cap = 0x00000006,
    .cores = bcm43224_cores,
    .ncores = ARRAY_SIZE(bcm43224_cores),
};

/* ------------------------------------------------------------------ */
/* EROM                                                                */

static uint32_t erom_entry(unsigned tag)
{
    return FIELD_DP32(R_BCMA_EROM_VALID_MASK, BCMA_EROM, TAG, tag);
}

static uint32_t erom_addr(uint32_t base, unsigned type, unsigned port)
{
    /* 4 KiB (SZ 0), 32-bit address descriptor (AG32 0) */
    uint32_t e = erom_entry(BCMA_EROM_TAG_ADDR);

    e = FIELD_DP32(e, BCMA_EROM_ADDR, TYPE, type);
    e = FIELD_DP32(e, BCMA_EROM_ADDR, PORT, port);
    return FIELD_DP32(e, BCMA_EROM_ADDR, BASE,
                      base >> R_BCMA_EROM_ADDR_BASE_SHIFT);
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
        uint32_t e;

        /* CIA: manufacturer, core id, class */
        e = FIELD_DP32(erom_entry(BCMA_EROM_TAG_CI), BCMA_EROM_CIA, MANUF,
                       c->manuf);
        e = FIELD_DP32(e, BCMA_EROM_CIA, ID, c->id);
        b->erom[n++] = FIELD_DP32(e, BCMA_EROM_CIA, CLASS, c->class);
        /* CIB: revision, #slave wrappers, #master wrappers, #sp, #mp */
        e = FIELD_DP32(erom_entry(BCMA_EROM_TAG_CI), BCMA_EROM_CIB, REV,
                       c->rev);
        e = FIELD_DP32(e, BCMA_EROM_CIB, NSW, nsw);
        e = FIELD_DP32(e, BCMA_EROM_CIB, NMW, nmw);
        e = FIELD_DP32(e, BCMA_EROM_CIB, NSP, 1);
        b->erom[n++] = FIELD_DP32(e, BCMA_EROM_CIB, NMP, nmp);
        if (nmp) {
            /* master port descriptor: master number = core index */
            b->erom[n++] = FIELD_DP32(erom_entry(BCMA_EROM_TAG_MP),
                                      BCMA_EROM_MP, NUM, i);
        }
        b->erom[n++] = erom_addr(c->base, BCMA_EROM_ADDR_TYPE_SLAVE, 0);
        /* wrapper: slave-wrapper port 0 when nsp == 1 (scan.c's hack) */
        b->erom[n++] = erom_addr(c->wrap, c->master ?
                                 BCMA_EROM_ADDR_TYPE_MWRAP :
                                 BCMA_EROM_ADDR_TYPE_SWRAP, 0);
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
    uint32_t v = c->clkctlst;

    v = FIELD_DP32(v, CLKCTLST, HAVEALP, 1);
    v = FIELD_DP32(v, CLKCTLST, HAVEHT, 1);
    v = FIELD_DP32(v, CLKCTLST, BP_ON_HT, 1);
    /* every external resource requested is granted at once */
    return FIELD_DP32(v, CLKCTLST, EXTRESST,
                      FIELD_EX32(c->clkctlst, CLKCTLST, EXTRESREQ));
}

static void bcma_clkctlst_write(BcmaCoreState *c, uint32_t val)
{
    /* bcma's DYNAMIC clock mode writes almost all ones: keep only RW bits */
    c->clkctlst = val & BCMA_CLKCTLST_WMASK;
}

/* ------------------------------------------------------------------ */
/* agent (wrapper)                                                     */

static uint32_t bcma_agent_read32(BcmaState *b, unsigned i, uint32_t off)
{
    BcmaCoreState *c = &b->core[i];

    switch (off) {
    case A_AI_OOB_SEL_OUT_A30:
        return c->oob_sel_out_a30;
    case A_AI_IOCTL:
        return c->ioctl;
    case A_AI_IOST:
        /* dma64=off: a part with 32-bit DMA engines */
        return b->chip->cores[i].iost &
               (b->dma64 ? ~0u : ~(uint32_t)BCMA_IOST_DMA64);
    case A_AI_RESET_CTL:
        return c->resetctl;
    case A_AI_RESET_ST:
        return 0;   /* resets complete at once: never busy */
    default:
        qemu_log_mask(LOG_UNIMP, "bcm4331: %s agent register 0x%x read\n",
                      b->chip->cores[i].name, off);
        return 0;
    }
}

static void bcma_agent_write32(BcmaState *b, unsigned i, uint32_t off,
                               uint32_t val, uint32_t mask)
{
    const BcmaCoreInfo *info = &b->chip->cores[i];
    BcmaCoreState *c = &b->core[i];
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
            if (v && b->bus[i].reset) {
                b->bus[i].reset(b->bus[i].opaque);
            }
        }
        c->resetctl = v;
        return;
    case A_AI_IOST:
    case A_AI_RESET_ST:
        BCM_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                       "register 0x%x", info->name, val, off);
        return;
    default:
        qemu_log_mask(LOG_UNIMP, "bcm4331: %s agent register 0x%x write "
                      "0x%x\n", info->name, off, val);
        return;
    }
}

/* ------------------------------------------------------------------ */
/* backplane decode (for the window traces)                            */

typedef enum {
    BCMA_TGT_NONE,
    BCMA_TGT_CORE,
    BCMA_TGT_AGENT,
    BCMA_TGT_EROM,
} BcmaTarget;

static BcmaTarget bcma_decode(BcmaState *b, uint32_t addr, unsigned *core)
{
    const BcmaChipInfo *chip = b->chip;
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

int bcma_core_index(BcmaState *b, BcmaCoreType type)
{
    for (unsigned i = 0; i < b->chip->ncores; i++) {
        if (b->chip->cores[i].type == type) {
            return i;
        }
    }
    g_assert_not_reached();
}

uint32_t bcma_core_base(BcmaState *b, BcmaCoreType type)
{
    return b->chip->cores[bcma_core_index(b, type)].base;
}

const char *bcma_target_name(BcmaState *b, uint32_t addr)
{
    unsigned i = 0;

    switch (bcma_decode(b, addr, &i)) {
    case BCMA_TGT_CORE:
        return b->chip->cores[i].name;
    case BCMA_TGT_AGENT:
        return "agent";
    case BCMA_TGT_EROM:
        return "EROM";
    default:
        return "unmapped";
    }
}

/* ------------------------------------------------------------------ */
/* the regions on the backplane                                        */

static void bcma_trace_read(BcmaCoreBus *c, uint32_t base, const char *reg,
                            uint32_t off, uint32_t mask, uint32_t v)
{
    trace_bcm4331_bcma_read(c->b->chip->cores[c->index].name, reg,
                            bcma_lane_addr(base + off, mask),
                            bcma_lane_val(v, mask), ctpop32(mask) / 8);
}

static void bcma_trace_write(BcmaCoreBus *c, uint32_t base, const char *reg,
                             uint32_t off, uint32_t mask, uint32_t v)
{
    trace_bcm4331_bcma_write(c->b->chip->cores[c->index].name, reg,
                             bcma_lane_addr(base + off, mask),
                             bcma_lane_val(v, mask), ctpop32(mask) / 8);
}

/* ChipCommon and the PCIe core: the backplane's own register files */
static uint32_t bcma_core_read32(void *opaque, uint32_t off, uint32_t mask)
{
    BcmaCoreBus *c = opaque;
    BcmaState *b = c->b;
    const BcmaCoreInfo *info = &b->chip->cores[c->index];
    uint32_t v;

    v = info->type == BCMA_CORE_CHIPCOMMON ? bcma_cc_read32(&b->cc,
                                                            &b->cc_chip, off)
                                            : bcma_pcie_read32(&b->pcie, off);
    bcma_trace_read(c, info->base, bcma_core_reg_name(info->type, off), off,
                    mask, v);
    return v;
}

static void bcma_core_write32(void *opaque, uint32_t off, uint32_t val,
                              uint32_t mask)
{
    BcmaCoreBus *c = opaque;
    BcmaState *b = c->b;
    const BcmaCoreInfo *info = &b->chip->cores[c->index];

    bcma_trace_write(c, info->base, bcma_core_reg_name(info->type, off), off,
                     mask, val);
    if (info->type == BCMA_CORE_CHIPCOMMON) {
        bcma_cc_write32(&b->cc, off, val, mask);
    } else {
        bcma_pcie_write32(&b->pcie, off, val, mask);
    }
}

BCMA_REGION_OPS(bcma_core_ops, bcma_core_read32, bcma_core_write32);

/* clock control/status: register 0x1E0 of every core */
static uint32_t bcma_clk_read32(void *opaque, uint32_t off, uint32_t mask)
{
    BcmaCoreBus *c = opaque;
    const BcmaCoreInfo *info = &c->b->chip->cores[c->index];
    uint32_t v = bcma_clkctlst_read(&c->b->core[c->index]);

    bcma_trace_read(c, info->base, bcma_core_reg_name(info->type, A_CLKCTLST),
                    A_CLKCTLST, mask, v);
    return v;
}

static void bcma_clk_write32(void *opaque, uint32_t off, uint32_t val,
                             uint32_t mask)
{
    BcmaCoreBus *c = opaque;
    const BcmaCoreInfo *info = &c->b->chip->cores[c->index];
    BcmaCoreState *cs = &c->b->core[c->index];

    bcma_trace_write(c, info->base,
                     bcma_core_reg_name(info->type, A_CLKCTLST), A_CLKCTLST,
                     mask, val);
    bcma_clkctlst_write(cs, (cs->clkctlst & ~mask) | (val & mask));
}

BCMA_REGION_OPS(bcma_clk_ops, bcma_clk_read32, bcma_clk_write32);

/* the agents (wrappers) */
static uint32_t bcma_agent_mmio_read32(void *opaque, uint32_t off,
                                       uint32_t mask)
{
    BcmaCoreBus *c = opaque;
    uint32_t v = bcma_agent_read32(c->b, c->index, off);

    bcma_trace_read(c, c->b->chip->cores[c->index].wrap,
                    bcma_agent_reg_name(off), off, mask, v);
    return v;
}

static void bcma_agent_mmio_write32(void *opaque, uint32_t off, uint32_t val,
                                    uint32_t mask)
{
    BcmaCoreBus *c = opaque;

    bcma_trace_write(c, c->b->chip->cores[c->index].wrap,
                     bcma_agent_reg_name(off), off, mask, val);
    bcma_agent_write32(c->b, c->index, off, val, mask);
}

BCMA_REGION_OPS(bcma_agent_ops, bcma_agent_mmio_read32,
                bcma_agent_mmio_write32);

/* the EROM: a ROM, reads have no side effect (bcma re-reads entries) */
static uint64_t bcma_erom_read(void *opaque, hwaddr addr, unsigned size)
{
    BcmaState *b = opaque;
    uint64_t v = 0;

    for (unsigned k = 0; k < size; k++) {
        uint32_t a = (addr + k) & (BCMA_CORE_SIZE - 1);

        v |= (uint64_t)((b->erom[a >> 2] >> ((a & 3) * 8)) & 0xff) << (8 * k);
    }
    trace_bcm4331_bcma_read("EROM", "EROM", b->chip->erom_base + addr, v,
                            size);
    return v;
}

static void bcma_erom_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    BCM_GUEST_ERR(bcm4331_bcma_ub_ro, "%s: write 0x%x to read-only "
                   "register 0x%x", "EROM", (uint32_t)val,
                   (uint32_t)addr & ~3u);
}

static const MemoryRegionOps bcma_erom_ops = {
    .read = bcma_erom_read,
    .write = bcma_erom_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    BCMA_ACCESS_SIZES,
};

/* the rest of the backplane: nothing answers, reads float high */
static uint64_t bcma_unmapped_read(void *opaque, hwaddr addr, unsigned size)
{
    BCM_GUEST_ERR(bcm4331_bcma_ub_unmapped,
                   "read of unmapped backplane address 0x%08x (%u bytes, "
                   "write %d)", (uint32_t)addr, size, 0);
    return bcma_lanes(size);
}

static void bcma_unmapped_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    BCM_GUEST_ERR(bcm4331_bcma_ub_unmapped,
                   "write of unmapped backplane address 0x%08x (%u bytes, "
                   "write %d)", (uint32_t)addr, size, 1);
}

static const MemoryRegionOps bcma_unmapped_ops = {
    .read = bcma_unmapped_read,
    .write = bcma_unmapped_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    BCMA_ACCESS_SIZES,
};

/*
 * The core of @type is modelled elsewhere: @regs are its registers on the
 * backplane, @reset what its agent's RESET_CTL does to it.
 */
void bcma_attach_core(BcmaState *b, BcmaCoreType type, MemoryRegion *regs,
                      void (*reset)(void *opaque), void *opaque)
{
    int i = bcma_core_index(b, type);

    b->bus[i].reset = reset;
    b->bus[i].opaque = opaque;
    memory_region_add_subregion(&b->bp, b->chip->cores[i].base, regs);
}

/*
 * Take the regions off the backplane (unrealize): a region in a container
 * holds a reference to its owner, the card, which would never be freed.
 */
void bcma_unrealize(BcmaState *b)
{
    MemoryRegion *sub, *next;

    QTAILQ_FOREACH_SAFE(sub, &b->bp.subregions, subregions_link, next) {
        memory_region_del_subregion(&b->bp, sub);
    }
}

static void bcma_map(BcmaState *b, Object *owner)
{
    memory_region_init(&b->bp, owner, "bcma", 1ULL << 32);
    memory_region_init_io(&b->unmapped, owner, &bcma_unmapped_ops, b,
                          "bcma-unmapped", 1ULL << 32);
    memory_region_add_subregion_overlap(&b->bp, 0, &b->unmapped, -1);
    memory_region_init_io(&b->erom_mr, owner, &bcma_erom_ops, b, "bcma-erom",
                          BCMA_CORE_SIZE);
    memory_region_add_subregion(&b->bp, b->chip->erom_base, &b->erom_mr);
    for (unsigned i = 0; i < b->chip->ncores; i++) {
        const BcmaCoreInfo *info = &b->chip->cores[i];
        BcmaCoreBus *c = &b->bus[i];
        g_autofree char *agent = g_strdup_printf("bcma-%s-agent", info->name);
        g_autofree char *clk = g_strdup_printf("bcma-%s-clkctlst", info->name);

        c->b = b;
        c->index = i;
        memory_region_init_io(&c->agent, owner, &bcma_agent_ops, c, agent,
                              BCMA_CORE_SIZE);
        memory_region_add_subregion(&b->bp, info->wrap, &c->agent);
        memory_region_init_io(&c->clkctlst, owner, &bcma_clk_ops, c, clk, 4);
        memory_region_add_subregion_overlap(&b->bp, info->base + A_CLKCTLST,
                                            &c->clkctlst, 1);
        if (info->type == BCMA_CORE_CHIPCOMMON ||
            info->type == BCMA_CORE_PCIE) {
            g_autofree char *name = g_strdup_printf("bcma-%s", info->name);

            memory_region_init_io(&c->regs, owner, &bcma_core_ops, c, name,
                                  BCMA_CORE_SIZE);
            memory_region_add_subregion(&b->bp, info->base, &c->regs);
        }
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

/*
 * The backplane of @chip, its regions owned by @owner; its SPROM from
 * @sprom_file, or built by @sprom_build with @mac (which also replaces the
 * file's address when @mac_given).
 */
bool bcma_realize(BcmaState *b, Object *owner, const BcmaChipInfo *chip,
                  BcmSpromBuild *sprom_build, const char *sprom_file,
                  const uint8_t *mac, bool mac_given, Error **errp)
{
    b->chip = chip;
    assert(b->chip->ncores <= BCMA_MAX_CORES);
    bcma_build_erom(b);
    bcma_map(b, owner);

    if (sprom_file) {
        if (!bcma_load_sprom(b, sprom_file, errp)) {
            return false;
        }
        /* an explicit mac= overrides the image's il0mac */
        if (mac_given) {
            bcm_sprom_set_mac(b->sprom, mac);
            bcm_sprom_fix_crc(b->sprom, b->sprom_words);
        }
        trace_bcm4331_bcma_sprom(sprom_file, b->sprom_words,
                                 b->sprom[b->sprom_words - 1] & 0xff);
    } else {
        b->sprom_words = sprom_build(b->sprom, mac);
        trace_bcm4331_bcma_sprom("built-in", b->sprom_words,
                                 b->sprom[b->sprom_words - 1] & 0xff);
    }
    b->cc_chip = (BcmaCcChip) {
        .chip = chip, .sprom = b->sprom, .sprom_words = b->sprom_words,
    };
    return true;
}

void bcma_reset(BcmaState *b)
{

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
        b->pcie.sprom_shadow[w] = bcma_sprom_word(&b->cc_chip, w);
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
