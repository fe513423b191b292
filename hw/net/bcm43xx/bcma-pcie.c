/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 backplane: the PCIe core (rev 19) as bcma's
 * driver_pci.c programs it: its plain registers, the indirect
 * configuration registers, the MDIO SerDes blocks and the SPROM shadow.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "bcma-pcie.h"
#include "bcm-common.h"
#include "trace.h"

const char *bcma_pcie_reg_name(uint32_t off)
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
            BCM_GUEST_ERR(bcm4331_bcma_ub_mdio_block,
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
        BCM_GUEST_ERR(bcm4331_bcma_ub_pcie_ind,
                       "indirect PCIe register 0x%x invalid (%s)", a,
                       is_write ? "write" : "read");
        return NULL;
    }
    return &p->ind[a >> 2];
}

uint32_t bcma_pcie_read32(BcmaPcieState *p, uint32_t off)
{
    uint32_t *r;

    if (off >= BCMA_PCIE_SPROM_SHADOW &&
        off < BCMA_PCIE_SPROM_SHADOW + 2 * BCMA_PCIE_SPROM_SHADOW_WORDS) {
        unsigned w = (off - BCMA_PCIE_SPROM_SHADOW) / 2;

        return p->sprom_shadow[w] | (p->sprom_shadow[w + 1] << 16);
    }
    if (off >= BCMA_REGFILE_WORDS * 4) {
        BCM_GUEST_ERR(bcm4331_bcma_ub_core_reg, "%s: register 0x%x "
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

void bcma_pcie_write32(BcmaPcieState *p, uint32_t off, uint32_t val,
                       uint32_t mask)
{
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
        BCM_GUEST_ERR(bcm4331_bcma_ub_core_reg, "%s: register 0x%x "
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
