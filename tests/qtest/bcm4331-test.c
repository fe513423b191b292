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
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "libqos/bcm43xx.h"

#define BCM_DEVFN       QPCI_DEVFN(4, 0)
#define BCM_DEVFN2      QPCI_DEVFN(5, 0)

typedef QBcm43xx Card;

static void card_open(Card *c, const char *machine, const char *extra)
{
    qbcm43xx_open(c, "-M %s -device bcm4331,addr=04.0%s", machine,
                  extra ? extra : "");
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
    qbcm43xx_close(&c);
}

static void test_subsystem_props(void)
{
    Card c;

    card_open(&c, "q35", ",subsys-vendor-id=0x14e4,subsys-id=0x4331");
    check_identity(c.dev, 0x14e4, 0x4331);
    qbcm43xx_close(&c);
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
    qbcm43xx_close(&c);
}

static char *write_sprom_file(const uint16_t *w, unsigned n)
{
    g_autofree uint16_t *le = g_new(uint16_t, n);
    char *path = NULL;
    int fd = g_file_open_tmp("bcm4331-sprom-XXXXXX", &path, NULL);

    g_assert_cmpint(fd, >=, 0);
    for (unsigned i = 0; i < n; i++) {
        le[i] = cpu_to_le16(w[i]);
    }
    g_assert_cmpint(write(fd, le, 2 * n), ==, 2 * n);
    close(fd);
    return path;
}

/* QEMU must refuse to start with a bad sprom= and say why */
static void expect_sprom_rejected(const char *file, const char *why)
{
    g_autofree char *cmd = g_strdup_printf(
        "%s -M q35 -display none -nodefaults -S "
        "-device bcm4331,sprom=%s", g_getenv("QTEST_QEMU_BINARY"), file);
    g_autofree char *out = NULL, *err = NULL;
    int status = 0;

    g_assert_true(g_spawn_command_line_sync(cmd, &out, &err, &status, NULL));
    g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    if (!strstr(err, why)) {
        g_test_message("stderr: %s", err);
    }
    g_assert_nonnull(strstr(err, why));
}

static void test_sprom_file(void)
{
    uint16_t w[234], r[234];
    g_autofree char *good = NULL, *badcrc = NULL, *badrev = NULL,
                    *badsize = NULL, *opts = NULL;
    Card c;

    /* a rev-8 image with a recognisable board revision */
    for (int i = 0; i < 220; i++) {
        w[i] = 0xffff;
    }
    w[0] = 0x2801;
    w[65] = 0x4242;
    w[70] = 0x0200;
    w[71] = 0xcafe;
    w[72] = 0x0001;
    w[219] = 8;
    w[219] |= qbcm43xx_sprom_crc(w, 220) << 8;
    good = write_sprom_file(w, 220);
    badsize = write_sprom_file(w, 219);
    w[65] ^= 1;
    badcrc = write_sprom_file(w, 220);
    w[65] ^= 1;
    w[219] = 7;
    w[219] |= qbcm43xx_sprom_crc(w, 220) << 8;
    badrev = write_sprom_file(w, 220);

    expect_sprom_rejected(badsize, "size");
    expect_sprom_rejected(badcrc, "CRC");
    expect_sprom_rejected(badrev, "revision");
    expect_sprom_rejected("/nonexistent/sprom.bin", "cannot read");

    /* a good image is served as is */
    opts = g_strdup_printf(",sprom=%s", good);
    card_open(&c, "q35", opts);
    qbcm43xx_read_sprom(&c, r, 220);
    w[219] = 8;
    w[219] |= qbcm43xx_sprom_crc(w, 220) << 8;
    g_assert_cmpmem(r, 440, w, 440);
    qbcm43xx_close(&c);

    /* with an explicit mac=, the MAC is replaced and the CRC redone */
    g_free(opts);
    opts = g_strdup_printf(",sprom=%s,mac=02:00:00:00:00:07", good);
    card_open(&c, "q35", opts);
    qbcm43xx_read_sprom(&c, r, 220);
    g_assert_cmphex(r[65], ==, 0x4242);
    g_assert_cmphex(r[72], ==, 0x0007);
    g_assert_cmphex(r[219] & 0xff, ==, 8);
    g_assert_cmphex(r[219] >> 8, ==, qbcm43xx_sprom_crc(r, 220));
    qbcm43xx_close(&c);

    unlink(good);
    unlink(badcrc);
    unlink(badrev);
    unlink(badsize);
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
    qbcm43xx_close(&c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_data_func("/bcm43xx/bcm4331/pci/config/pc", "pc", test_config);
    qtest_add_data_func("/bcm43xx/bcm4331/pci/config/q35", "q35", test_config);
    qtest_add_func("/bcm43xx/bcm4331/pci/subsystem-props",
                   test_subsystem_props);
    qtest_add_func("/bcm43xx/bcm4331/pci/reset", test_reset);
    qtest_add_func("/bcm43xx/bcm4331/pci/two-cards", test_two_cards);
    qtest_add_func("/bcm43xx/bcm4331/bcma/sprom-file", test_sprom_file);

    return g_test_run();
}
