/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 802.11 PCIe card: private state shared by the card's
 * source files.
 *
 * Register layout from the Linux bcma and b43 drivers
 * (drivers/bcma/host_pci.c, include/linux/bcma/bcma_regs.h).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM4331_H
#define HW_NET_BCM4331_H

#include "hw/pci/pci_device.h"
#include "net/net.h"
#include "qom/object.h"
#include "bcma-regs.h"
#include "sprom.h"

#define TYPE_BCM4331_PCI "bcm4331"
OBJECT_DECLARE_SIMPLE_TYPE(Bcm4331State, BCM4331_PCI)

/* Broadcom's ids are not in include/hw/pci/pci_ids.h */
#define BCM4331_PCI_VENDOR_ID       0x14e4
#define BCM4331_PCI_DEVICE_ID       0x4331
#define BCM4331_PCI_REVISION        0x02
/* Apple AirPort Extreme (MacBook Pro 8,x - 10,1), as seen on real cards */
#define BCM4331_DEFAULT_SUBSYS_VID  0x106b
#define BCM4331_DEFAULT_SUBSYS_ID   0x00d6

#define BCM4331_BAR0_SIZE           0x4000

/*
 * Capabilities: PM at 0x40 -> MSI at 0x58 -> PCIe (v1) at 0xD0.  The
 * Broadcom vendor registers 0x80..0xBB must stay plain read/write config
 * space (contract-bcma.md section 1.3), so no capability may overlap them.
 */
#define BCM4331_CAP_PM              0x40
#define BCM4331_CAP_MSI             0x58
#define BCM4331_CAP_PCIE            0xd0

/* Broadcom vendor config registers (include/linux/bcma/bcma_regs.h) */
#define BCMA_PCI_BAR0_WIN           0x80    /* BAR0 0x0000 sliding window */
#define BCMA_PCI_BAR1_WIN           0x84
#define BCMA_PCI_SPROMCTL           0x88
#define BCMA_PCI_BAR1_CONTROL       0x8c
#define BCMA_PCI_IRQS               0x90
#define BCMA_PCI_IRQMASK            0x94    /* bit 8 + core index: INTx */
#define BCMA_PCI_BACKPLANE_IRQS     0x98
#define BCMA_PCI_BAR0_WIN2          0xac    /* BAR0 0x1000 wrapper window */
#define BCMA_PCI_GPIO_IN            0xb0
#define BCMA_PCI_GPIO_OUT           0xb4
#define BCMA_PCI_GPIO_OUT_ENABLE    0xb8

/* Reset values of the windows: ChipCommon and its wrapper */
#define BCMA_ADDR_BASE              0x18000000
#define BCMA_WRAP_BASE              0x18100000

/* ---- backplane (bcma.c) ---- */

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

    BcmaCoreState core[BCMA_MAX_CORES];
    BcmaCcState cc;
    BcmaPcieState pcie;
    /* 802.11 core registers: a plain register file until the MAC model */
    uint32_t d11_regs[BCMA_CORE_SIZE / 4];
    bool d11_irq;               /* 802.11 core interrupt pending */
} BcmaState;

struct Bcm4331State {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    BcmaState bcma;

    /* properties */
    MACAddr macaddr;
    char *sprom_file;
    uint16_t subsys_vid;
    uint16_t subsys_id;
};

extern const VMStateDescription vmstate_bcma;

bool bcma_realize(Bcm4331State *s, bool mac_given, Error **errp);
void bcma_reset(Bcm4331State *s);
uint32_t bcma_bp_read(Bcm4331State *s, uint32_t addr, unsigned size);
void bcma_bp_write(Bcm4331State *s, uint32_t addr, uint32_t val,
                   unsigned size);
const char *bcma_target_name(Bcm4331State *s, uint32_t addr);
int bcma_core_index(Bcm4331State *s, BcmaCoreType type);
void bcm4331_update_irq(Bcm4331State *s);

#endif
