/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libqos driver steps for the bcm4331 (see bcm4331.h).  The values are
 * what b43 writes: drivers/net/wireless/broadcom/b43/main.c
 * (b43_bcma_wireless_core_reset, b43_upload_microcode, b43_chip_init,
 * b43_mac_enable), dma.c (b43_dma_init), phy_ht.c (channel 6).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "pci-pc.h"
#include "bcm4331.h"

void qbcm4331_open(QBcm4331 *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    c->qts = qtest_vinitf(fmt, ap);
    va_end(ap);
    c->bus = qpci_new_pc(c->qts, NULL);
    c->dev = qpci_device_find(c->bus, QPCI_DEVFN(4, 0));
    g_assert_nonnull(c->dev);
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
}

void qbcm4331_close(QBcm4331 *c)
{
    g_free(c->dev);
    qpci_free_pc(c->bus);
    qtest_quit(c->qts);
}

uint32_t bcm_rl(QBcm4331 *c, uint32_t off)
{
    return qpci_io_readl(c->dev, c->bar0, off);
}

void bcm_wl(QBcm4331 *c, uint32_t off, uint32_t v)
{
    qpci_io_writel(c->dev, c->bar0, off, v);
}

uint16_t bcm_rw(QBcm4331 *c, uint32_t off)
{
    return qpci_io_readw(c->dev, c->bar0, off);
}

void bcm_ww(QBcm4331 *c, uint32_t off, uint16_t v)
{
    qpci_io_writew(c->dev, c->bar0, off, v);
}

/* b43_bcma_wireless_core_reset(): windows, bcma_core_enable(), clocks */
void qbcm4331_core_up(QPCIDevice *dev, QPCIBar bar0)
{
    qpci_config_writel(dev, BCMA_PCI_BAR0_WIN, 0x18001000);
    qpci_config_writel(dev, BCMA_PCI_BAR0_WIN2, 0x18101000);
    qpci_io_writel(dev, bar0, AGENT + A_AI_IOCTL, 0x2007);
    qpci_io_writel(dev, bar0, AGENT + A_AI_RESET_CTL, 0);
    qpci_io_writel(dev, bar0, AGENT + A_AI_IOCTL, 0x2005);
    qpci_io_writel(dev, bar0, D11 + A_CLKCTLST, 0x302);
}

/*
 * b43_upload_microcode(): our stub (firmware-stubs/, release 784.2) into
 * the microcode store, then PSM start; the general interrupt reason after
 * it (1, MAC_SUSPENDED: the firmware's "alive").
 */
uint32_t qbcm4331_fw_start(QPCIDevice *dev, QPCIBar bar0)
{
    static const uint32_t stub[] = {
        0x51454d55, 0x484c4531, 0x03100002, 0xc80fac73, 0,
    };

    qpci_io_writel(dev, bar0, D11 + A_D11_MACCTL, 0x80020504);
    qpci_io_writel(dev, bar0, D11 + A_D11_SHM_CONTROL, 0x01000000);
    for (int k = 0; k < ARRAY_SIZE(stub); k++) {
        qpci_io_writel(dev, bar0, D11 + A_D11_SHM_DATA, stub[k]);
    }
    qpci_io_writel(dev, bar0, D11 + A_D11_GEN_IRQ_REASON, 0xffffffff);
    qpci_io_writel(dev, bar0, D11 + A_D11_MACCTL, 0x80020502);
    return qpci_io_readl(dev, bar0, D11 + A_D11_GEN_IRQ_REASON);
}

void qbcm4331_scratch_write(QPCIDevice *dev, QPCIBar bar0, unsigned reg,
                            uint16_t v)
{
    qpci_io_writel(dev, bar0, D11 + A_D11_SHM_CONTROL,
                   (D11_SHM_SCRATCH << 16) | reg);
    qpci_io_writew(dev, bar0, D11 + A_D11_SHM_DATA, v);
}

void qbcm4331_phy_write(QPCIDevice *dev, QPCIBar bar0, uint16_t reg,
                        uint16_t v)
{
    qpci_io_writew(dev, bar0, D11 + A_D11_PHY_CONTROL, reg);
    qpci_io_writew(dev, bar0, D11 + A_D11_PHY_DATA, v);
}

/*
 * b43_chip_init() and the channel switch: retry limits 7/4, @mac in the
 * receive address filter, the radio powered, channel 6 (the BW1 word of
 * the 2059 table).
 */
void qbcm4331_radio_up(QPCIDevice *dev, QPCIBar bar0, const uint8_t *mac)
{
    qbcm4331_scratch_write(dev, bar0, D11_SHM_SC_SRLIMIT, 7);
    qbcm4331_scratch_write(dev, bar0, D11_SHM_SC_LRLIMIT, 4);
    qpci_io_writew(dev, bar0, D11 + A_D11_MACFILTER_CONTROL, 0x20);
    for (int k = 0; k < 3; k++) {
        qpci_io_writew(dev, bar0, D11 + A_D11_MACFILTER_DATA,
                       mac[2 * k] | (mac[2 * k + 1] << 8));
    }
    qbcm4331_phy_write(dev, bar0, HTPHY_RF_CTL_CMD, HTPHY_RF_CTL_CHIP0_PU);
    qbcm4331_phy_write(dev, bar0, HTPHY_BW1, 0x3d3);
}

/* a 64-bit ring as b43 sets it up: enabled, b43's PCIe translation bit */
void qbcm4331_set_ring(QPCIDevice *dev, QPCIBar bar0, unsigned engine,
                       bool rx, uint64_t base)
{
    uint32_t o = D11 + D11_DMA_ENGINE(engine) +
                 (rx ? D11_DMA64_RXCTL : D11_DMA64_TXCTL);

    qpci_io_writel(dev, bar0, o, 0x801 | (rx ? D11_RX_FW598_FO << 1 : 0) |
                   ((base >> 62) << 16));
    qpci_io_writel(dev, bar0, o + 8, base);
    qpci_io_writel(dev, bar0, o + 12,
                   ((base >> 32) & 0x3fffffff) | 0x80000000);
}

/*
 * The rest of b43_dma_init() and b43_mac_enable(): the RX ring handed to
 * the engine, b43's interrupt masks, the 802.11 core's interrupt routed to
 * INTA#, the MAC enabled.
 */
void qbcm4331_enable(QPCIDevice *dev, QPCIBar bar0)
{
    qpci_io_writel(dev, bar0, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX,
                   0x1000);
    qpci_io_writel(dev, bar0, D11 + D11_DMA_IRQ_MASK(0), 0x1fc00);
    qpci_io_writel(dev, bar0, D11 + D11_DMA_IRQ_MASK(1), 0xdc00);
    qpci_io_writel(dev, bar0, D11 + A_D11_GEN_IRQ_MASK, 0x38058264);
    qpci_config_writel(dev, BCMA_PCI_IRQMASK, 0x200);
    qpci_io_writel(dev, bar0, D11 + A_D11_MACCTL,
                   qpci_io_readl(dev, bar0, D11 + A_D11_MACCTL) | 1);
    qpci_io_writel(dev, bar0, D11 + A_D11_GEN_IRQ_REASON, 1);
}
