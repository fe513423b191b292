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

struct Bcm4331State {
    PCIDevice parent_obj;

    MemoryRegion bar0;

    /* properties */
    MACAddr macaddr;
    uint16_t subsys_vid;
    uint16_t subsys_id;
};

#endif
