/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 PCIe cards: the PCI function (bcm43xx-pci.c), made of
 * the backplane and its 802.11 core (the hub of d11-core.h).  One abstract type
 * holds the card; each chip (bcm4331, bcm43224) is a subclass whose class
 * data (Bcm43xxInfo) says what differs: the PCI identity, the backplane's
 * chip table, the PHY model and the SPROM image.
 *
 * Register layout from the Linux bcma and b43 drivers
 * (drivers/bcma/host_pci.c, include/linux/bcma/bcma_regs.h).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_H
#define HW_NET_BCM43XX_H

#include "hw/pci/pci_device.h"
#include "net/net.h"
#include "qom/object.h"
#include "bcma.h"
#include "d11-core.h"

#define TYPE_BCM43XX_PCI "bcm43xx-pci"
#define TYPE_BCM4331_PCI "bcm4331"
#define TYPE_BCM43224_PCI "bcm43224"
OBJECT_DECLARE_TYPE(Bcm43xxState, Bcm43xxClass, BCM43XX_PCI)

/* what a chip's card is; the rest is shared */
typedef struct Bcm43xxInfo {
    const char *desc;
    uint16_t device_id;
    uint8_t revision;
    const BcmaChipInfo *chip;
    const BcmPhyModel *phy;
    BcmSpromBuild *sprom_build;
    const char *sprom_desc;         /* for the "sprom" property */
    const char *subsys_desc;        /* the default subsystem ids */
    bool dma_ring_aligned;          /* ring address bits 11:0 read 0 */
    uint8_t cap_msi;                /* where the MSI capability sits */
    const Property *props;          /* the chip's own: subsystem ids */
    size_t nprops;
} Bcm43xxInfo;

struct Bcm43xxClass {
    PCIDeviceClass parent_class;
    const Bcm43xxInfo *info;
};

/* Broadcom's ids are not in include/hw/pci/pci_ids.h */
#define BCM4331_PCI_VENDOR_ID       0x14e4
#define BCM4331_PCI_DEVICE_ID       0x4331
#define BCM4331_PCI_REVISION        0x02
/* Apple AirPort Extreme (MacBook Pro 8,x - 10,1), as seen on real cards */
#define BCM4331_DEFAULT_SUBSYS_VID  0x106b
#define BCM4331_DEFAULT_SUBSYS_ID   0x00d6

/* BCM43224: Apple Mac mini 4,1 / MacBook Air cards (bcm43224-identity) */
#define BCM43224_PCI_DEVICE_ID      0x4353
#define BCM43224_PCI_REVISION       0x01
#define BCM43224_DEFAULT_SUBSYS_VID 0x106b
#define BCM43224_DEFAULT_SUBSYS_ID  0x0093

#define BCM4331_BAR0_SIZE           0x4000

/*
 * Capabilities: PM at 0x40 -> MSI at 0x58 -> PCIe (v1) at 0xD0.  The
 * Broadcom vendor registers 0x80..0xBB must stay plain read/write config
 * space (bcma/host_pci.c, bcma_regs.h), so no capability may overlap them.
 */
#define BCM4331_CAP_PM              0x40
#define BCM4331_CAP_MSI             0x58
#define BCM43224_CAP_MSI            0x48    /* lspci of real BCM43224s */
#define BCM4331_CAP_PCIE            0xd0

struct Bcm43xxState {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    MemoryRegion win[4];        /* BAR0: two windows, PCIe and ChipCommon */
    uint32_t core_irq_level;    /* cores' interrupt lines (not migrated) */
    bool irq_level;             /* the card's interrupt: INTA# or MSI edge */
    bool irq_quiet;             /* post_load: lines re-driven, no message */

    /* the backplane and its 802.11 core */
    BcmaState bcma;
    D11Core d11;

    /* properties */
    MACAddr macaddr;
    char *sprom_file;
    uint16_t subsys_vid;
    uint16_t subsys_id;
};

#endif
