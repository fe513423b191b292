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

/* ---- backplane (bcma) --------------------------------------------- */

/* bcma_host_pci_switch_core(): window 0 = core, window 1 = its wrapper */
static void switch_core(Card *c, uint32_t base, uint32_t wrap)
{
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, base);
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN2, wrap);
}

typedef struct {
    uint16_t manuf, id;
    uint8_t rev, class;
    uint32_t addr, wrap;
} ScannedCore;

/*
 * The EROM parser of drivers/bcma/scan.c (bcma_get_next_core and its
 * helpers), over words read through window 0 the way the driver reads them.
 */
typedef struct {
    Card *c;
    unsigned pos;
    unsigned reads;
} Erom;

static uint32_t erom_get(Erom *e)
{
    uint32_t v;

    g_assert_cmpuint(e->pos, <, 1024);
    v = bcm_rl(e->c, BCMA_BAR0_WIN0 + 4 * e->pos++);
    e->reads++;
    return v;
}

static int erom_get_ci(Erom *e)
{
    uint32_t v = erom_get(e);

    if (!(v & 1) || (v & 0xe) != 0) {
        e->pos--;
        return v == 0xf ? -2 : -1;      /* END or not a CI */
    }
    return v;
}

static bool erom_is_end(Erom *e)
{
    uint32_t v = erom_get(e);

    e->pos--;
    return v == 0xf;
}

/* bcma_erom_get_addr_desc(): -1 when the next entry is not of this kind */
static int64_t erom_get_addr(Erom *e, unsigned type, unsigned port)
{
    uint32_t v = erom_get(e);
    uint32_t addr;

    if (!(v & 1) || (v & 0x6) != 0x4 || ((v >> 8) & 0xf) != port ||
        ((v >> 6) & 3) != type) {
        e->pos--;
        return -1;
    }
    addr = v & 0xfffff000;
    if (v & 0x8) {
        erom_get(e);                    /* upper 32 bits */
    }
    if (((v >> 4) & 3) == 3) {
        uint32_t sz = erom_get(e);

        if (sz & 0x8) {
            erom_get(e);
        }
    }
    return addr;
}

static unsigned erom_scan(Card *c, ScannedCore *out, unsigned max)
{
    Erom e = { .c = c };
    unsigned n = 0;
    uint32_t erom_base;

    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, 0x18000000);
    erom_base = bcm_rl(c, BCMA_BAR0_WIN0 + 0xfc);
    g_assert_cmphex(erom_base & 0xfff, ==, 0);
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, erom_base);

    while (!erom_is_end(&e)) {
        int cia = erom_get_ci(&e), cib;
        unsigned nmp, nsp, nmw, nsw;
        int64_t a;

        g_assert_cmpint(cia, >=, 0);    /* -EILSEQ would fail the probe */
        cib = erom_get_ci(&e);
        g_assert_cmpint(cib, >=, 0);
        nmp = (cib >> 4) & 0x1f;
        nsp = (cib >> 9) & 0x1f;
        nmw = (cib >> 14) & 0x1f;
        nsw = (cib >> 19) & 0x1f;
        g_assert_cmpuint(nsp, >, 0);
        g_assert_cmpuint(nmw + nsw, >, 0);
        for (unsigned i = 0; i < nmp; i++) {
            uint32_t mp = erom_get(&e);

            g_assert_cmphex(mp & 0xf, ==, 0x3);
        }
        g_assert_cmpuint(n, <, max);
        out[n] = (ScannedCore) {
            .manuf = (cia >> 20) & 0xfff, .id = (cia >> 8) & 0xfff,
            .class = (cia >> 4) & 0xf, .rev = (cib >> 24) & 0xff,
        };
        a = erom_get_addr(&e, 0, 0);    /* first: SLAVE port 0 */
        g_assert_cmpint(a, >, 0);
        out[n].addr = a;
        for (unsigned i = 0; i < nsp; i++) {
            while (erom_get_addr(&e, 0, i) >= 0) {
                ;
            }
        }
        for (unsigned i = 0; i < nmw; i++) {
            a = erom_get_addr(&e, 3, i);
            if (a >= 0 && i == 0) {
                out[n].wrap = a;
            }
        }
        for (unsigned i = 0; i < nsw; i++) {
            a = erom_get_addr(&e, 2, i + (nsp == 1 ? 0 : 1));
            if (a >= 0 && i == 0 && nmw == 0) {
                out[n].wrap = a;
            }
        }
        g_assert_cmphex(out[n].wrap, !=, 0);
        n++;
    }
    /* EROM reads are side-effect free: a second walk sees the same */
    return n;
}

static void test_erom(void)
{
    static const ScannedCore want[] = {
        { 0x4bf, 0x800, 0x25, 0, 0x18000000, 0x18100000 },
        { 0x4bf, 0x812, 0x1d, 0, 0x18001000, 0x18101000 },
        { 0x4bf, 0x820, 0x13, 0, 0x18002000, 0x18102000 },
    };
    ScannedCore got[8], again[8];
    Card c;
    unsigned n;

    card_open(&c, "q35", NULL);
    n = erom_scan(&c, got, ARRAY_SIZE(got));
    g_assert_cmpuint(n, ==, ARRAY_SIZE(want));
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmphex(got[i].manuf, ==, want[i].manuf);
        g_assert_cmphex(got[i].id, ==, want[i].id);
        g_assert_cmphex(got[i].rev, ==, want[i].rev);
        g_assert_cmphex(got[i].class, ==, want[i].class);
        g_assert_cmphex(got[i].addr, ==, want[i].addr);
        g_assert_cmphex(got[i].wrap, ==, want[i].wrap);
    }
    g_assert_cmpuint(erom_scan(&c, again, ARRAY_SIZE(again)), ==, n);
    g_assert_cmpmem(got, sizeof(got[0]) * n, again, sizeof(again[0]) * n);
    qbcm43xx_close(&c);
}

static void test_chip_id(void)
{
    Card c;
    uint32_t id;

    card_open(&c, "q35", NULL);
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN, 0x18000000);
    id = bcm_rl(&c, BCMA_BAR0_WIN0);
    g_assert_cmphex(id & 0xffff, ==, 0x4331);       /* chip */
    g_assert_cmphex((id >> 16) & 0xf, ==, 2);       /* revision */
    g_assert_cmphex((id >> 20) & 0xf, ==, 9);       /* package */
    /* the fixed ChipCommon window shows the same register */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC), ==, id);
    /* capabilities: PMU and SPROM, no power control, no AOB */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x04) & 0x50040000, ==,
                    0x50000000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0xac) & 0x40, ==, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x190) & 1, ==, 1);
    qbcm43xx_close(&c);
}

/* Windows decode what config 0x80/0xAC say; the fixed windows do not move. */
static void test_windows(void)
{
    Card c;
    uint32_t cc_id;

    card_open(&c, "q35", NULL);
    cc_id = bcm_rl(&c, BCMA_BAR0_CC);
    /* window 0 on the PCIe core: its CLKCTLST reports HT available */
    switch_core(&c, 0x18002000, 0x18102000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0x20000, ==, 0x20000);
    /* PCIe registers through window 0 and the fixed window are the same */
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x130, 0x128);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x130), ==, 0x128);
    /* low 12 bits of the window registers are ignored */
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN, 0x18000abc);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0), ==, cc_id);
    /* the fixed windows ignore the sliding ones */
    switch_core(&c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC), ==, cc_id);
    /* out-of-range windows: all-ones, writes dropped, device still fine */
    switch_core(&c, 0x18005000, 0x20000000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0), ==, 0xffffffff);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0xffffffff);
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_WIN0 + 2), ==,
                    0xffff);
    g_assert_cmphex(qpci_io_readb(c.dev, c.bar0, BCMA_BAR0_WIN0 + 3), ==, 0xff);
    bcm_wl(&c, BCMA_BAR0_WIN0, 0x12345678);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x800, 1);
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN, 0xfffff000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0xffc), ==, 0xffffffff);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC), ==, cc_id);
    /* the device never moves the windows itself */
    g_assert_cmphex(qpci_config_readl(c.dev, BCMA_PCI_BAR0_WIN), ==,
                    0xfffff000);
    g_assert_cmphex(qpci_config_readl(c.dev, BCMA_PCI_BAR0_WIN2), ==,
                    0x20000000);
    qbcm43xx_close(&c);
}

static void test_narrow_unaligned(void)
{
    Card c;
    uint32_t id;

    card_open(&c, "q35", NULL);
    id = bcm_rl(&c, BCMA_BAR0_CC);
    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(qpci_io_readb(c.dev, c.bar0, BCMA_BAR0_CC + i), ==,
                        (id >> (8 * i)) & 0xff);
    }
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_CC), ==,
                    id & 0xffff);
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_CC + 2), ==,
                    id >> 16);
    /* narrow writes merge into the 32-bit register */
    bcm_wl(&c, BCMA_BAR0_CC + 0x28, 0x11223344);              /* CHIPCTL */
    qpci_io_writeb(c.dev, c.bar0, BCMA_BAR0_CC + 0x29, 0xaa);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x28), ==, 0x1122aa44);
    qpci_io_writew(c.dev, c.bar0, BCMA_BAR0_CC + 0x2a, 0xbeef);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x28), ==, 0xbeefaa44);
    /* an unaligned 32-bit access spans two registers */
    bcm_wl(&c, BCMA_BAR0_CC + 0x58, 0x03020100);              /* GPIOPULLUP */
    bcm_wl(&c, BCMA_BAR0_CC + 0x5c, 0x07060504);              /* GPIOPULLDOWN */
    g_assert_cmphex(qpci_io_readl(c.dev, c.bar0, BCMA_BAR0_CC + 0x5a), ==,
                    0x05040302);
    qpci_io_writel(c.dev, c.bar0, BCMA_BAR0_CC + 0x5b, 0xddccbbaa);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x58), ==, 0xaa020100);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x5c), ==, 0x07ddccbb);
    /* across the end of a window into the next one */
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN2, 0x18100000);
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_WIN1 - 1), ==,
                    0xff | ((bcm_rl(&c, BCMA_BAR0_WIN1) & 0xff) << 8));
    qbcm43xx_close(&c);
}

/* bcma_core_enable()/disable() on the 802.11 core's agent */
static void test_wrapper(void)
{
    Card c;

    card_open(&c, "q35", NULL);
    switch_core(&c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x500), ==, 0x1003);  /* IOST */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x800), ==, 1); /* reset */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x804), ==, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0);
    /* the enable sequence of b43's first reset, gmode */
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x408, 0x2007);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0x2007);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x800, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x800), ==, 0);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x408, 0x2005);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0x2005);
    /* every IOCTL bit reads back exactly */
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x408, 0xfffffffe);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0xfffffffe);
    /* RESET_CTL keeps bit 0 only; RESET_ST and IOST are read-only */
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x800, 0xffffffff);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x800), ==, 1);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x804, 1);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x804), ==, 0);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x500, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x500), ==, 0x1003);
    /* other cores: no DMA64/PHY bits, out of reset */
    switch_core(&c, 0x18002000, 0x18102000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x500), ==, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x800), ==, 0);
    /* 802.11 CLKCTLST: FORCEHT -> HAVEHT, PLL requests mirrored */
    switch_core(&c, 0x18001000, 0x18101000);
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x1e0, 0x2);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0x20002, ==, 0x20002);
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x1e0, 0x302);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0x03000300, ==,
                    0x03000300);
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x1e0, 0x2);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0x07000700, ==, 0);
    /* bcma's DYNAMIC mode writes ~FORCEHT: only writable bits stick */
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x1e0, ~0x2u);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0xf800f880, ==, 0);
    qbcm43xx_close(&c);
}

/* CRC-8 of drivers/bcma/sprom.c, computed here independently */
static uint8_t sprom_crc(const uint16_t *w, unsigned n)
{
    uint8_t crc = 0xff;

    for (unsigned i = 0; i < 2 * n - 1; i++) {
        crc ^= (i & 1) ? w[i / 2] >> 8 : w[i / 2] & 0xff;
        for (int b = 0; b < 8; b++) {
            crc = (crc & 1) ? (crc >> 1) ^ 0xab : crc >> 1;
        }
    }
    return crc ^ 0xff;
}

static void read_sprom(Card *c, uint16_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        w[i] = qpci_io_readw(c->dev, c->bar0, BCMA_BAR0_CC + 0x800 + 2 * i);
    }
}

static void test_sprom(void)
{
    uint16_t w[234];
    Card c;

    card_open(&c, "q35", ",mac=02:11:22:33:44:55");
    read_sprom(&c, w, 234);
    g_assert_cmphex(w[219] & 0xff, ==, 9);
    g_assert_cmphex(w[219] >> 8, ==, sprom_crc(w, 220));
    g_assert_cmphex(w[70], ==, 0x0211);
    g_assert_cmphex(w[71], ==, 0x2233);
    g_assert_cmphex(w[72], ==, 0x4455);
    /* past the 220 words: all-ones (bcma's 230/234-word attempts) */
    for (int i = 220; i < 234; i++) {
        g_assert_cmphex(w[i], ==, 0xffff);
    }
    /* read-only */
    qpci_io_writew(c.dev, c.bar0, BCMA_BAR0_CC + 0x800 + 2 * 70, 0);
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_CC + 0x800 + 140),
                    ==, 0x0211);
    /* the PCIe core's SPROM shadow: word 0 PI = 2, word 5 bit 15 */
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_PCIE + 0x800) >> 12,
                    ==, 2);
    g_assert_cmphex(qpci_io_readw(c.dev, c.bar0, BCMA_BAR0_PCIE + 0x80a) &
                    0x8000, ==, 0x8000);
    qbcm43xx_close(&c);

    /* QEMU's default MAC when mac= is not given */
    card_open(&c, "q35", NULL);
    read_sprom(&c, w, 220);
    g_assert_cmphex(w[70], ==, 0x5254);
    g_assert_cmphex(w[219] >> 8, ==, sprom_crc(w, 220));
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
    w[219] |= sprom_crc(w, 220) << 8;
    good = write_sprom_file(w, 220);
    badsize = write_sprom_file(w, 219);
    w[65] ^= 1;
    badcrc = write_sprom_file(w, 220);
    w[65] ^= 1;
    w[219] = 7;
    w[219] |= sprom_crc(w, 220) << 8;
    badrev = write_sprom_file(w, 220);

    expect_sprom_rejected(badsize, "size");
    expect_sprom_rejected(badcrc, "CRC");
    expect_sprom_rejected(badrev, "revision");
    expect_sprom_rejected("/nonexistent/sprom.bin", "cannot read");

    /* a good image is served as is */
    opts = g_strdup_printf(",sprom=%s", good);
    card_open(&c, "q35", opts);
    read_sprom(&c, r, 220);
    w[219] = 8;
    w[219] |= sprom_crc(w, 220) << 8;
    g_assert_cmpmem(r, 440, w, 440);
    qbcm43xx_close(&c);

    /* with an explicit mac=, the MAC is replaced and the CRC redone */
    g_free(opts);
    opts = g_strdup_printf(",sprom=%s,mac=02:00:00:00:00:07", good);
    card_open(&c, "q35", opts);
    read_sprom(&c, r, 220);
    g_assert_cmphex(r[65], ==, 0x4242);
    g_assert_cmphex(r[72], ==, 0x0007);
    g_assert_cmphex(r[219] & 0xff, ==, 8);
    g_assert_cmphex(r[219] >> 8, ==, sprom_crc(r, 220));
    qbcm43xx_close(&c);

    unlink(good);
    unlink(badcrc);
    unlink(badrev);
    unlink(badsize);
}

/* PCIe core: MDIO (SerDes) and the indirect registers, as bcma uses them */
static void test_pcie_core(void)
{
    Card c;

    card_open(&c, "q35", NULL);
    /* polarity workaround: indirect PLP status reads 0 */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x130, 0x204);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x130), ==, 0x204);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x134), ==, 0);
    /* L1 timer extension: indirect 0x128 R-M-W */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x130, 0x128);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x134,
           bcm_rl(&c, BCMA_BAR0_PCIE + 0x134) | 0x1000000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x134), ==, 0x1000000);
    /* indirect address out of range: defined all-ones, no crash */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x130, 0xfffffff0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x134), ==, 0xffffffff);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x134, 0x1);

    /* MDIO: done bit, block select, write, read back */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x128, 0x82);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x128) & 0x100, ==, 0x100);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x507e01f0);       /* block 0x1f (RX) */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x50060080);       /* reg 1 = 0x80 */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x507e01d0);       /* block 0x1d (PLL) */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);       /* read reg 1 */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0x4000);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x50060000);       /* clear FREQDET */
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x507e01f0);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0x80);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x507e01d0);
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0);
    /* many blocks: bounded table, no crash */
    for (unsigned blk = 0; blk < 64; blk++) {
        bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x507e0000 | (blk << 4));
        bcm_wl(&c, BCMA_BAR0_PCIE + 0x12c, 0x50060000 | blk);
    }
    bcm_wl(&c, BCMA_BAR0_PCIE + 0x128, 0);
    qbcm43xx_close(&c);
}

/* ChipCommon PMU: indirect arrays with bounds, self-clearing PLL update */
static void test_pmu(void)
{
    Card c;

    card_open(&c, "q35", NULL);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x604) & 0xff, !=, 1);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x608) & 0x100, ==, 0);
    /* b43_wireless_core_phy_pll_reset() */
    bcm_wl(&c, BCMA_BAR0_CC + 0x650, 0);
    bcm_wl(&c, BCMA_BAR0_CC + 0x654, bcm_rl(&c, BCMA_BAR0_CC + 0x654) | 4);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x654), ==, 4);
    bcm_wl(&c, BCMA_BAR0_CC + 0x650, 1);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x654), ==, 0);
    /* spur avoidance PLL values and the update bit */
    bcm_wl(&c, BCMA_BAR0_CC + 0x660, 0);
    bcm_wl(&c, BCMA_BAR0_CC + 0x664, 0x11500014);
    bcm_wl(&c, BCMA_BAR0_CC + 0x660, 2);
    bcm_wl(&c, BCMA_BAR0_CC + 0x664, 0x0f600a08);
    bcm_wl(&c, BCMA_BAR0_CC + 0x660, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x664), ==, 0x11500014);
    bcm_wl(&c, BCMA_BAR0_CC + 0x600, bcm_rl(&c, BCMA_BAR0_CC + 0x600) | 0x600);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x600) & 0x600, ==, 0x200);
    /* out-of-range index: reads 0, writes dropped */
    bcm_wl(&c, BCMA_BAR0_CC + 0x660, 0xffffffff);
    bcm_wl(&c, BCMA_BAR0_CC + 0x664, 0xdead);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x664), ==, 0);
    /* read-only identity registers stay */
    bcm_wl(&c, BCMA_BAR0_CC + 0x0, 0);
    bcm_wl(&c, BCMA_BAR0_CC + 0xfc, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC) & 0xffff, ==, 0x4331);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0xfc), !=, 0);
    qbcm43xx_close(&c);
}

/* Reset brings back the power-on state of agents and cores */
static void test_backplane_reset(void)
{
    Card c;

    card_open(&c, "q35", NULL);
    switch_core(&c, 0x18001000, 0x18101000);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x408, 0x2005);
    bcm_wl(&c, BCMA_BAR0_WIN1 + 0x800, 0);
    bcm_wl(&c, BCMA_BAR0_WIN0 + 0x1e0, 0x302);
    bcm_wl(&c, BCMA_BAR0_CC + 0x28, 0x1090);
    qtest_system_reset(c.qts);
    /* the reset cleared the BAR: map it again */
    qpci_device_enable(c.dev);
    c.bar0 = qpci_iomap(c.dev, 0, NULL);
    switch_core(&c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x408), ==, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN1 + 0x800), ==, 1);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_WIN0 + 0x1e0) & 0x7ff, ==, 0);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x28), ==, 0);
    qbcm43xx_close(&c);
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
    qtest_add_func("/bcm43xx/bcm4331/bcma/erom", test_erom);
    qtest_add_func("/bcm43xx/bcm4331/bcma/chip-id", test_chip_id);
    qtest_add_func("/bcm43xx/bcm4331/bcma/windows", test_windows);
    qtest_add_func("/bcm43xx/bcm4331/bcma/narrow-unaligned",
                   test_narrow_unaligned);
    qtest_add_func("/bcm43xx/bcm4331/bcma/wrapper", test_wrapper);
    qtest_add_func("/bcm43xx/bcm4331/bcma/sprom", test_sprom);
    qtest_add_func("/bcm43xx/bcm4331/bcma/sprom-file", test_sprom_file);
    qtest_add_func("/bcm43xx/bcm4331/bcma/pcie-core", test_pcie_core);
    qtest_add_func("/bcm43xx/bcm4331/bcma/pmu", test_pmu);
    qtest_add_func("/bcm43xx/bcm4331/bcma/reset", test_backplane_reset);

    return g_test_run();
}
