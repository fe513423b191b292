/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331 802.11 PCIe card: PCI function.
 *
 * What is asserted is what Linux's bcma host driver relies on
 * (drivers/bcma/host_pci.c) and what real BCM4331 cards show in lspci.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"

#define BCM_DEVFN       QPCI_DEVFN(4, 0)
#define BCM_DEVFN2      QPCI_DEVFN(5, 0)

typedef struct {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
} Card;

static void card_open(Card *c, const char *machine, const char *extra)
{
    c->qts = qtest_initf("-M %s -device bcm4331,addr=04.0%s", machine,
                         extra ? extra : "");
    c->bus = qpci_new_pc(c->qts, NULL);
    c->dev = qpci_device_find(c->bus, BCM_DEVFN);
    g_assert_nonnull(c->dev);
}

static void card_close(Card *c)
{
    g_free(c->dev);
    qpci_free_pc(c->bus);
    qtest_quit(c->qts);
}

static void check_identity(QPCIDevice *dev, uint16_t svid, uint16_t sid)
{
    g_assert_cmphex(qpci_config_readw(dev, PCI_VENDOR_ID), ==, 0x14e4);
    g_assert_cmphex(qpci_config_readw(dev, PCI_DEVICE_ID), ==, 0x4331);
    g_assert_cmphex(qpci_config_readb(dev, PCI_REVISION_ID), ==, 0x02);
    /* class 0x028000: network controller, other */
    g_assert_cmphex(qpci_config_readw(dev, PCI_CLASS_DEVICE), ==, 0x0280);
    g_assert_cmphex(qpci_config_readb(dev, PCI_CLASS_PROG), ==, 0x00);
    g_assert_cmphex(qpci_config_readb(dev, PCI_HEADER_TYPE) & 0x7f, ==,
                    PCI_HEADER_TYPE_NORMAL);
    g_assert_cmphex(qpci_config_readw(dev, PCI_SUBSYSTEM_VENDOR_ID), ==, svid);
    g_assert_cmphex(qpci_config_readw(dev, PCI_SUBSYSTEM_ID), ==, sid);
    g_assert_cmphex(qpci_config_readb(dev, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmphex(qpci_config_readw(dev, PCI_STATUS) & PCI_STATUS_CAP_LIST,
                    ==, PCI_STATUS_CAP_LIST);
}

static void check_bar0(QPCIDevice *dev)
{
    uint32_t lo = qpci_config_readl(dev, PCI_BASE_ADDRESS_0);
    uint32_t szlo, szhi;

    /* memory, 64-bit, non-prefetchable */
    g_assert_cmphex(lo & 0xf, ==, PCI_BASE_ADDRESS_MEM_TYPE_64);
    qpci_config_writel(dev, PCI_BASE_ADDRESS_0, 0xffffffff);
    qpci_config_writel(dev, PCI_BASE_ADDRESS_1, 0xffffffff);
    szlo = qpci_config_readl(dev, PCI_BASE_ADDRESS_0);
    szhi = qpci_config_readl(dev, PCI_BASE_ADDRESS_1);
    g_assert_cmphex(szlo & ~0xfu, ==, 0xffffc000);   /* 16 KiB */
    g_assert_cmphex(szhi, ==, 0xffffffff);
    qpci_config_writel(dev, PCI_BASE_ADDRESS_0, lo);
    qpci_config_writel(dev, PCI_BASE_ADDRESS_1, 0);
    /* no other BAR */
    for (int bar = PCI_BASE_ADDRESS_2; bar <= PCI_BASE_ADDRESS_5; bar += 4) {
        qpci_config_writel(dev, bar, 0xffffffff);
        g_assert_cmphex(qpci_config_readl(dev, bar), ==, 0);
    }
}

static void check_caps(QPCIDevice *dev)
{
    static const uint8_t want[][2] = {
        { 0x40, PCI_CAP_ID_PM },
        { 0x58, PCI_CAP_ID_MSI },
        { 0xd0, PCI_CAP_ID_EXP },
    };
    uint8_t off = qpci_config_readb(dev, PCI_CAPABILITY_LIST);

    for (int i = 0; i < ARRAY_SIZE(want); i++) {
        g_assert_cmphex(off, ==, want[i][0]);
        g_assert_cmphex(qpci_config_readb(dev, off), ==, want[i][1]);
        off = qpci_config_readb(dev, off + PCI_CAP_LIST_NEXT);
    }
    g_assert_cmphex(off, ==, 0);

    /* PCIe capability: endpoint type, version 1 */
    g_assert_cmphex(qpci_config_readw(dev, 0xd0 + PCI_EXP_FLAGS) &
                    PCI_EXP_FLAGS_VERS, ==, 1);
    /* MSI present but disabled: bcma and b43 use INTx */
    g_assert_cmphex(qpci_config_readw(dev, 0x58 + PCI_MSI_FLAGS) &
                    PCI_MSI_FLAGS_ENABLE, ==, 0);
    /* PM version 3 (PCI PM 1.2) */
    g_assert_cmphex(qpci_config_readw(dev, 0x40 + PCI_PM_PMC) & 7, ==, 3);
}

/* cfg 0x80 (BAR0 window), 0x94 (core IRQ mask), 0xAC (BAR0 window 2) */
static void check_vendor_regs(QPCIDevice *dev)
{
    static const uint8_t regs[] = { 0x80, 0x94, 0xac };
    static const uint32_t pat[] = { 0xa5a55a5a, 0x18001000, 0, 0xffffffff };

    /* reset values: ChipCommon and its wrapper, no core routed */
    g_assert_cmphex(qpci_config_readl(dev, 0x80), ==, 0x18000000);
    g_assert_cmphex(qpci_config_readl(dev, 0x94), ==, 0);
    g_assert_cmphex(qpci_config_readl(dev, 0xac), ==, 0x18100000);

    for (int i = 0; i < ARRAY_SIZE(regs); i++) {
        for (int j = 0; j < ARRAY_SIZE(pat); j++) {
            qpci_config_writel(dev, regs[i], pat[j]);
            g_assert_cmphex(qpci_config_readl(dev, regs[i]), ==, pat[j]);
        }
        /* narrow accesses, as bcma_host_pci_irq_ctl's R-M-W may do */
        qpci_config_writel(dev, regs[i], 0);
        qpci_config_writeb(dev, regs[i] + 1, 0x02);
        g_assert_cmphex(qpci_config_readl(dev, regs[i]), ==, 0x200);
        qpci_config_writew(dev, regs[i] + 2, 0x1810);
        g_assert_cmphex(qpci_config_readl(dev, regs[i]), ==, 0x18100200);
    }
    /* the registers are independent of each other */
    qpci_config_writel(dev, 0x80, 0x18001000);
    qpci_config_writel(dev, 0x94, 0x200);
    qpci_config_writel(dev, 0xac, 0x18101000);
    g_assert_cmphex(qpci_config_readl(dev, 0x80), ==, 0x18001000);
    g_assert_cmphex(qpci_config_readl(dev, 0x94), ==, 0x200);
    g_assert_cmphex(qpci_config_readl(dev, 0xac), ==, 0x18101000);
}

static void test_config(const void *data)
{
    const char *machine = data;
    Card c;

    card_open(&c, machine, NULL);
    check_identity(c.dev, 0x106b, 0x00d6);
    check_bar0(c.dev);
    check_caps(c.dev);
    check_vendor_regs(c.dev);
    card_close(&c);
}

static void test_subsystem_props(void)
{
    Card c;

    card_open(&c, "q35", ",subsys-vendor-id=0x14e4,subsys-id=0x4331");
    check_identity(c.dev, 0x14e4, 0x4331);
    card_close(&c);
}

/* A system reset puts the window registers back to their reset values. */
static void test_reset(void)
{
    Card c;

    card_open(&c, "q35", NULL);
    qpci_config_writel(c.dev, 0x80, 0x18002000);
    qpci_config_writel(c.dev, 0x94, 0x200);
    qpci_config_writel(c.dev, 0xac, 0x18102000);
    qtest_system_reset(c.qts);
    g_assert_cmphex(qpci_config_readl(c.dev, 0x80), ==, 0x18000000);
    g_assert_cmphex(qpci_config_readl(c.dev, 0x94), ==, 0);
    g_assert_cmphex(qpci_config_readl(c.dev, 0xac), ==, 0x18100000);
    card_close(&c);
}

/* Two cards: independent config spaces. */
static void test_two_cards(void)
{
    Card c;
    QPCIDevice *dev2;

    card_open(&c, "pc", " -device bcm4331,addr=05.0,mac=02:00:00:00:00:02");
    dev2 = qpci_device_find(c.bus, BCM_DEVFN2);
    g_assert_nonnull(dev2);
    check_identity(dev2, 0x106b, 0x00d6);
    check_caps(dev2);
    qpci_config_writel(c.dev, 0x80, 0x18001000);
    qpci_config_writel(dev2, 0x80, 0x18002000);
    g_assert_cmphex(qpci_config_readl(c.dev, 0x80), ==, 0x18001000);
    g_assert_cmphex(qpci_config_readl(dev2, 0x80), ==, 0x18002000);
    g_free(dev2);
    card_close(&c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_data_func("/bcm4331/pci/config/pc", "pc", test_config);
    qtest_add_data_func("/bcm4331/pci/config/q35", "q35", test_config);
    qtest_add_func("/bcm4331/pci/subsystem-props", test_subsystem_props);
    qtest_add_func("/bcm4331/pci/reset", test_reset);
    qtest_add_func("/bcm4331/pci/two-cards", test_two_cards);

    return g_test_run();
}
