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

#ifndef HW_NET_BCM43XX_BCMA_REGS_H
#define HW_NET_BCM43XX_BCMA_REGS_H

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

/*
 * ---- EROM entries (drivers/bcma/scan.h) ----
 * Every entry has VALID in bit 0 and a tag in bits 3:1; the layouts below
 * (component identifier A and B, master port, address) are what
 * bcma_build_erom() writes and scripts/explain.py decodes.
 */
FIELD(BCMA_EROM, VALID, 0, 1)
FIELD(BCMA_EROM, TAG, 1, 3)
#define BCMA_EROM_TAG_CI        0       /* component identifier, A or B */
#define BCMA_EROM_TAG_MP        1       /* master port */
#define BCMA_EROM_TAG_ADDR      2       /* address region */
#define BCMA_EROM_TAG_END       7
FIELD(BCMA_EROM_CIA, CLASS, 4, 4)
FIELD(BCMA_EROM_CIA, ID, 8, 12)
FIELD(BCMA_EROM_CIA, MANUF, 20, 12)
/* core ids and designers (include/linux/bcma/bcma.h BCMA_CORE_*, _MANUF_*) */
#define BCMA_EROM_CIA_ID_CHIPCOMMON 0x800
#define BCMA_EROM_CIA_ID_80211      0x812
#define BCMA_EROM_CIA_ID_PCIE       0x820
#define BCMA_EROM_CIA_MANUF_ARM     0x43b
#define BCMA_EROM_CIA_MANUF_BCM     0x4bf
FIELD(BCMA_EROM_CIB, NMP, 4, 5)         /* master ports */
FIELD(BCMA_EROM_CIB, NSP, 9, 5)         /* slave ports */
FIELD(BCMA_EROM_CIB, NMW, 14, 5)        /* master wrappers */
FIELD(BCMA_EROM_CIB, NSW, 19, 5)        /* slave wrappers */
FIELD(BCMA_EROM_CIB, REV, 24, 8)
FIELD(BCMA_EROM_MP, NUM, 8, 4)
FIELD(BCMA_EROM_ADDR, AG32, 3, 1)       /* 64-bit address follows */
FIELD(BCMA_EROM_ADDR, SZ, 4, 2)         /* 0: 4 KiB */
FIELD(BCMA_EROM_ADDR, TYPE, 6, 2)
FIELD(BCMA_EROM_ADDR, PORT, 8, 4)
FIELD(BCMA_EROM_ADDR, BASE, 12, 20)     /* address bits 31:12 */
#define BCMA_EROM_ADDR_TYPE_SLAVE   0
#define BCMA_EROM_ADDR_TYPE_BRIDGE  1
#define BCMA_EROM_ADDR_TYPE_SWRAP   2
#define BCMA_EROM_ADDR_TYPE_MWRAP   3
#define BCMA_EROM_END           0x0000000f
#define BCMA_EROM_WORDS         1024    /* one 4 KiB window (eromend) */

/* ---- agent (wrapper) registers, per core ---- */
REG32(AI_OOB_SEL_OUT_A30, 0x100)
REG32(AI_IOCTL, 0x408)
    FIELD(AI_IOCTL, CLK, 0, 1)
    FIELD(AI_IOCTL, FGC, 1, 1)
/* the 802.11 core's IOCTL bits 15:2 (b43.h B43_BCMA_IOCTL_*) */
    FIELD(AI_IOCTL, D11_PHY_CLKEN, 2, 1)
    FIELD(AI_IOCTL, D11_PHY_RESET, 3, 1)
    FIELD(AI_IOCTL, D11_MACPHYCLKEN, 4, 1)
    FIELD(AI_IOCTL, D11_PLLREFSEL, 5, 1)
    FIELD(AI_IOCTL, D11_PHY_BW, 6, 2)
    FIELD(AI_IOCTL, D11_DAC, 8, 2)
    FIELD(AI_IOCTL, D11_GMODE, 13, 1)
REG32(AI_IOST, 0x500)
REG32(AI_RESET_CTL, 0x800)
    FIELD(AI_RESET_CTL, RESET, 0, 1)
REG32(AI_RESET_ST, 0x804)           /* fields as AI_RESET_CTL */

/* IOST bits of the 802.11 core (b43/b43.h, bcma_regs.h) */
#define BCMA_IOST_D11_2G_PHY    0x0001
#define BCMA_IOST_D11_5G_PHY    0x0002
#define BCMA_IOST_D11_FCLKA     0x0004      /* fast clock available */
#define BCMA_IOST_D11_DB_PHY    0x0008      /* dual-band PHY */
#define BCMA_IOST_DMA64         0x1000

/* ---- clock control/status, at core register 0x1E0 of every core ---- */
REG32(CLKCTLST, 0x1e0)
    FIELD(CLKCTLST, FORCEALP, 0, 1)
    FIELD(CLKCTLST, FORCEHT, 1, 1)
    FIELD(CLKCTLST, FORCEILP, 2, 1)
    FIELD(CLKCTLST, HAVEALPREQ, 3, 1)
    FIELD(CLKCTLST, HAVEHTREQ, 4, 1)
    FIELD(CLKCTLST, HWCROFF, 5, 1)
    FIELD(CLKCTLST, HQCLKREQ, 6, 1)
    FIELD(CLKCTLST, EXTRESREQ, 8, 3)
    FIELD(CLKCTLST, HAVEALP, 16, 1)
    FIELD(CLKCTLST, HAVEHT, 17, 1)
    FIELD(CLKCTLST, BP_ON_ALP, 18, 1)
    FIELD(CLKCTLST, BP_ON_HT, 19, 1)
    FIELD(CLKCTLST, EXTRESST, 24, 3)
#define BCMA_CLKCTLST_WMASK     0x0000077f  /* FORCE*, HAVE*REQ, EXTRESREQ */

/* ---- ChipCommon (bcma_driver_chipcommon.h) ---- */
REG32(CC_ID, 0x000)
    FIELD(CC_ID, ID, 0, 16)
    FIELD(CC_ID, REV, 16, 4)
    FIELD(CC_ID, PKG, 20, 4)
    FIELD(CC_ID, NRCORES, 24, 4)
    FIELD(CC_ID, TYPE, 28, 4)
#define CC_ID_TYPE_SB           0       /* Sonics (ssb) */
#define CC_ID_TYPE_AI           1       /* AMBA (bcma) */
REG32(CC_CAP, 0x004)
    FIELD(CC_CAP, NRUART, 0, 2)
    FIELD(CC_CAP, MIPSEB, 2, 1)
    FIELD(CC_CAP, UARTCLK, 3, 2)
    FIELD(CC_CAP, UARTGPIO, 5, 1)
    FIELD(CC_CAP, EXTBUS, 6, 2)
    FIELD(CC_CAP, FLASHT, 8, 3)
    FIELD(CC_CAP, PLLT, 15, 3)
    FIELD(CC_CAP, PCTL, 18, 1)
    FIELD(CC_CAP, OTPS, 19, 3)
    FIELD(CC_CAP, JTAGM, 22, 1)
    FIELD(CC_CAP, BROM, 23, 1)
    FIELD(CC_CAP, BKPLN64, 27, 1)
    FIELD(CC_CAP, PMU, 28, 1)
    FIELD(CC_CAP, ECI, 29, 1)
    FIELD(CC_CAP, SPROM, 30, 1)
    FIELD(CC_CAP, NFLASH, 31, 1)
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
    FIELD(CC_SROM_CONTROL, PRESENT, 0, 1)
    FIELD(CC_SROM_CONTROL, SIZE, 1, 2)  /* 1: 4 Kbit */
    FIELD(CC_SROM_CONTROL, LOCK, 3, 1)
    FIELD(CC_SROM_CONTROL, OTPSEL, 4, 1)
    FIELD(CC_SROM_CONTROL, OTP_PRESENT, 5, 1)
    FIELD(CC_SROM_CONTROL, OPCODE, 29, 2)
    FIELD(CC_SROM_CONTROL, BUSY, 31, 1)
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

#define CC_SROM_CONTROL_SIZE_1K 0       /* CC_SROM_CONTROL.SIZE, bits */
#define CC_SROM_CONTROL_SIZE_4K 1
#define CC_SROM_CONTROL_SIZE_16K 2
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
