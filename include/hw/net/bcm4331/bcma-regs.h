/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane of the BCM4331: register offsets.
 *
 * From Linux include/linux/bcma/bcma_regs.h, bcma_driver_chipcommon.h,
 * bcma_driver_pci.h and drivers/bcma/scan.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM4331_BCMA_REGS_H
#define HW_NET_BCM4331_BCMA_REGS_H

#include "hw/registerfields.h"

/* ---- PCI side (drivers/bcma/host_pci.c, bcma_regs.h) ---- */

/* Broadcom vendor config registers */
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

/* BAR0 layout: two sliding windows, then two fixed cores */
#define BCMA_BAR0_WIN0              0x0000  /* page in BCMA_PCI_BAR0_WIN */
#define BCMA_BAR0_WIN1              0x1000  /* page in BCMA_PCI_BAR0_WIN2 */
#define BCMA_BAR0_PCIE              0x2000  /* the PCIe core's registers */
#define BCMA_BAR0_CC                0x3000  /* ChipCommon's registers */

/* Reset values of the windows: ChipCommon and its wrapper */
#define BCMA_ADDR_BASE              0x18000000
#define BCMA_WRAP_BASE              0x18100000

/* ---- EROM entries (drivers/bcma/scan.h) ---- */
#define BCMA_EROM_VALID         0x1
#define BCMA_EROM_TAG_CI        0x0
#define BCMA_EROM_TAG_MP        0x2
#define BCMA_EROM_TAG_ADDR      0x4
#define BCMA_EROM_END           0x0000000f
#define BCMA_EROM_ADDR_SLAVE    0
#define BCMA_EROM_ADDR_BRIDGE   1
#define BCMA_EROM_ADDR_SWRAP    2
#define BCMA_EROM_ADDR_MWRAP    3
#define BCMA_EROM_WORDS         1024    /* one 4 KiB window (eromend) */

/* ---- agent (wrapper) registers, per core ---- */
REG32(AI_OOB_SEL_OUT_A30, 0x100)
REG32(AI_IOCTL, 0x408)
    FIELD(AI_IOCTL, CLK, 0, 1)
    FIELD(AI_IOCTL, FGC, 1, 1)
REG32(AI_IOST, 0x500)
REG32(AI_RESET_CTL, 0x800)
    FIELD(AI_RESET_CTL, RESET, 0, 1)
REG32(AI_RESET_ST, 0x804)

/* IOST bits of the 802.11 core (b43/b43.h, bcma_regs.h) */
#define BCMA_IOST_D11_2G_PHY    0x0001
#define BCMA_IOST_D11_5G_PHY    0x0002
#define BCMA_IOST_DMA64         0x1000

/* ---- clock control/status, at core register 0x1E0 of every core ---- */
REG32(CLKCTLST, 0x1e0)
#define BCMA_CLKCTLST_WMASK     0x0000077f  /* FORCE*, HAVE*REQ, EXTRESREQ */
#define BCMA_CLKCTLST_HAVEALP   0x00010000
#define BCMA_CLKCTLST_HAVEHT    0x00020000
#define BCMA_CLKCTLST_BP_ON_HT  0x00080000
#define BCMA_CLKCTLST_EXTRESREQ 0x00000700
#define BCMA_CLKCTLST_EXTRESST_SHIFT 16

/* ---- ChipCommon (bcma_driver_chipcommon.h) ---- */
REG32(CC_ID, 0x000)
REG32(CC_CAP, 0x004)
REG32(CC_CORECTL, 0x008)
REG32(CC_BIST, 0x00c)
REG32(CC_OTPS, 0x010)
REG32(CC_OTPC, 0x014)
REG32(CC_OTPP, 0x018)
REG32(CC_OTPL, 0x01c)
REG32(CC_IRQSTAT, 0x020)
REG32(CC_IRQMASK, 0x024)
REG32(CC_CHIPCTL, 0x028)
REG32(CC_CHIPSTAT, 0x02c)
REG32(CC_JCMD, 0x030)
REG32(CC_GPIOPULLUP, 0x058)
REG32(CC_GPIOPULLDOWN, 0x05c)
REG32(CC_GPIOIN, 0x060)
REG32(CC_GPIOOUT, 0x064)
REG32(CC_GPIOOUTEN, 0x068)
REG32(CC_GPIOCTL, 0x06c)
REG32(CC_GPIOPOL, 0x070)
REG32(CC_GPIOIRQ, 0x074)
REG32(CC_WATCHDOG, 0x080)
REG32(CC_GPIOTIMER, 0x088)
REG32(CC_GPIOTOUTM, 0x08c)
REG32(CC_CAP_EXT, 0x0ac)
REG32(CC_EROM, 0x0fc)
REG32(CC_SROM_CONTROL, 0x190)
REG32(CC_PMU_CTL, 0x600)
    FIELD(CC_PMU_CTL, NOILPONW, 9, 1)
    FIELD(CC_PMU_CTL, PLL_UPD, 10, 1)
REG32(CC_PMU_CAP, 0x604)
REG32(CC_PMU_STAT, 0x608)
REG32(CC_PMU_RES_STAT, 0x60c)
REG32(CC_PMU_RES_PEND, 0x610)
REG32(CC_PMU_TIMER, 0x614)
REG32(CC_PMU_MINRES_MSK, 0x618)
REG32(CC_PMU_MAXRES_MSK, 0x61c)
REG32(CC_PMU_RES_TABSEL, 0x620)
REG32(CC_PMU_RES_DEPMSK, 0x624)
REG32(CC_PMU_RES_UPDNTM, 0x628)
REG32(CC_PMU_RES_TIMER, 0x62c)
REG32(CC_PMU_CLKSTRETCH, 0x630)
REG32(CC_PMU_WATCHDOG, 0x634)
REG32(CC_PMU_CHIPCTL_ADDR, 0x650)
REG32(CC_PMU_CHIPCTL_DATA, 0x654)
REG32(CC_PMU_REGCTL_ADDR, 0x658)
REG32(CC_PMU_REGCTL_DATA, 0x65c)
REG32(CC_PMU_PLLCTL_ADDR, 0x660)
REG32(CC_PMU_PLLCTL_DATA, 0x664)
REG32(CC_PMU_XTAL_FREQ, 0x66c)
#define BCMA_CC_SPROM           0x800   /* SPROM image, 16-bit words */

#define BCMA_CC_CAP_PMU         0x10000000
#define BCMA_CC_CAP_SPROM       0x40000000
#define BCMA_CC_SROM_PRESENT    0x00000001
#define BCMA_CC_SROM_SIZE_4K    0x00000002
#define BCMA_CC_CHIPST_4331_SPROM_PRESENT 0x00000002

/* PMU indirect register files (chip control, regulator, PLL control) */
#define BCMA_PMU_INDIRECT_REGS  16

/* ---- PCIe core (bcma_driver_pci.h) ---- */
REG32(PCIE_CTL, 0x000)
REG32(PCIE_BIST_STATUS, 0x00c)
REG32(PCIE_GPIO_SEL, 0x010)
REG32(PCIE_GPIO_OUT_EN, 0x014)
REG32(PCIE_INTR_STATUS, 0x020)
REG32(PCIE_INTR_MASK, 0x024)
REG32(PCIE_SB_TO_PCI_MBOX, 0x028)
REG32(PCIE_MBOX_INT, 0x048)
REG32(PCIE_BCAST_ADDR, 0x050)
REG32(PCIE_BCAST_DATA, 0x054)
REG32(PCIE_SBTOPCI0, 0x100)
REG32(PCIE_SBTOPCI1, 0x104)
REG32(PCIE_SBTOPCI2, 0x108)
REG32(PCIE_CONFIG_ADDR, 0x120)
REG32(PCIE_CONFIG_DATA, 0x124)
REG32(PCIE_MDIO_CONTROL, 0x128)
REG32(PCIE_MDIO_DATA, 0x12c)
    FIELD(PCIE_MDIO_DATA, DATA, 0, 16)
    FIELD(PCIE_MDIO_DATA, TA, 17, 1)
    FIELD(PCIE_MDIO_DATA, REGADDR, 18, 5)
    FIELD(PCIE_MDIO_DATA, DEVADDR, 23, 5)
    FIELD(PCIE_MDIO_DATA, WRITE, 28, 1)
    FIELD(PCIE_MDIO_DATA, READ, 29, 1)
    FIELD(PCIE_MDIO_DATA, START, 30, 1)
REG32(PCIE_IND_ADDR, 0x130)
REG32(PCIE_IND_DATA, 0x134)
REG32(PCIE_CLKREQENCTRL, 0x138)
#define BCMA_PCIE_SPROM_SHADOW  0x800   /* 72 bytes: SPROM words 0..35 */
#define BCMA_PCIE_SPROM_SHADOW_WORDS 36

#define BCMA_PCIE_MDIOCTL_ACCESS_DONE 0x100
#define BCMA_PCIE_MDIO_BLK_ADDR 0x1f    /* block-address register */
#define BCMA_PCIE_MDIO_REGS     32
#define BCMA_PCIE_MDIO_BLOCKS   16      /* distinct blocks remembered */

/* indirect PCIe protocol registers (through IND_ADDR/IND_DATA) */
#define BCMA_PCIE_IND_SIZE      0x400
#define BCMA_PCIE_DLLP_PMTHRESHREG 0x128
#define BCMA_PCIE_PLP_STATUSREG 0x204

#endif
