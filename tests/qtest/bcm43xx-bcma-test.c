/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the backplane of the Broadcom SoftMAC cards (bcma:
 * hw/net/bcm43xx/bcma.c, bcma-cc.c, bcma-pcie.c), on every chip of the
 * libqos graph (nodes bcm4331 and bcm43224, interface bcm43xx): the EROM
 * as drivers/bcma/scan.c parses it, the chip id, the BAR0 windows,
 * narrow and unaligned accesses, the agents (wrappers), the SPROM, the
 * PCIe core's MDIO and indirect registers, the PMU, a reset.  What
 * differs between the chips comes from the chip's QBcm43xxChip.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/qgraph.h"
#include "libqos/bcm43xx.h"

/* bcma_host_pci_switch_core(): window 0 = core, window 1 = its wrapper */
static void switch_core(QBcm43xx *c, uint32_t base, uint32_t wrap)
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
    QBcm43xx *c;
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

static unsigned erom_scan(QBcm43xx *c, ScannedCore *out, unsigned max)
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

static void test_erom(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    const ScannedCore want[] = {
        { 0x4bf, 0x800, c->chip->cc_rev, 0, 0x18000000, 0x18100000 },
        { 0x4bf, 0x812, c->chip->d11_rev, 0, 0x18001000, 0x18101000 },
        { 0x4bf, 0x820, c->chip->pcie_rev, 0, 0x18002000, 0x18102000 },
    };
    ScannedCore got[8], again[8];
    unsigned n;

    n = erom_scan(c, got, ARRAY_SIZE(got));
    g_assert_cmpuint(n, ==, ARRAY_SIZE(want));
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmphex(got[i].manuf, ==, want[i].manuf);
        g_assert_cmphex(got[i].id, ==, want[i].id);
        g_assert_cmphex(got[i].rev, ==, want[i].rev);
        g_assert_cmphex(got[i].class, ==, want[i].class);
        g_assert_cmphex(got[i].addr, ==, want[i].addr);
        g_assert_cmphex(got[i].wrap, ==, want[i].wrap);
    }
    g_assert_cmpuint(erom_scan(c, again, ARRAY_SIZE(again)), ==, n);
    g_assert_cmpmem(got, sizeof(got[0]) * n, again, sizeof(again[0]) * n);
}

static void test_chip_id(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint32_t id;

    /* the PCI function this node found is the chip's */
    g_assert_cmphex(qpci_config_readw(c->dev, PCI_VENDOR_ID), ==, 0x14e4);
    g_assert_cmphex(qpci_config_readw(c->dev, PCI_DEVICE_ID), ==,
                    c->chip->device_id);
    g_assert_cmphex(qpci_config_readb(c->dev, PCI_REVISION_ID), ==,
                    c->chip->revision);
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, 0x18000000);
    id = bcm_rl(c, BCMA_BAR0_WIN0);
    g_assert_cmphex(id & 0xffff, ==, c->chip->chip_id);
    g_assert_cmphex((id >> 16) & 0xf, ==, c->chip->chip_rev);
    g_assert_cmphex((id >> 20) & 0xf, ==, c->chip->package);
    /* the fixed ChipCommon window shows the same register */
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC), ==, id);
    /* capabilities: PMU and SPROM, no power control, no AOB */
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x04) & 0x50040000, ==,
                    0x50000000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0xac) & 0x40, ==, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x190) & 1, ==, 1);
}

/* Windows decode what config 0x80/0xAC say; the fixed windows do not move. */
static void test_windows(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint32_t cc_id;

    cc_id = bcm_rl(c, BCMA_BAR0_CC);
    /* window 0 on the PCIe core: its CLKCTLST reports HT available */
    switch_core(c, 0x18002000, 0x18102000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0x20000, ==, 0x20000);
    /* PCIe registers through window 0 and the fixed window are the same */
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x130, 0x128);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x130), ==, 0x128);
    /* low 12 bits of the window registers are ignored */
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, 0x18000abc);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0), ==, cc_id);
    /* the fixed windows ignore the sliding ones */
    switch_core(c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC), ==, cc_id);
    /* out-of-range windows: all-ones, writes dropped, device still fine */
    switch_core(c, 0x18005000, 0x20000000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0), ==, 0xffffffff);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0xffffffff);
    g_assert_cmphex(qpci_io_readw(c->dev, c->bar0, BCMA_BAR0_WIN0 + 2), ==,
                    0xffff);
    g_assert_cmphex(qpci_io_readb(c->dev, c->bar0, BCMA_BAR0_WIN0 + 3), ==,
                    0xff);
    bcm_wl(c, BCMA_BAR0_WIN0, 0x12345678);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x800, 1);
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, 0xfffff000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0xffc), ==, 0xffffffff);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC), ==, cc_id);
    /* the device never moves the windows itself */
    g_assert_cmphex(qpci_config_readl(c->dev, BCMA_PCI_BAR0_WIN), ==,
                    0xfffff000);
    g_assert_cmphex(qpci_config_readl(c->dev, BCMA_PCI_BAR0_WIN2), ==,
                    0x20000000);
}

static void test_narrow_unaligned(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint32_t id;

    id = bcm_rl(c, BCMA_BAR0_CC);
    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(qpci_io_readb(c->dev, c->bar0, BCMA_BAR0_CC + i), ==,
                        (id >> (8 * i)) & 0xff);
    }
    g_assert_cmphex(qpci_io_readw(c->dev, c->bar0, BCMA_BAR0_CC), ==,
                    id & 0xffff);
    g_assert_cmphex(qpci_io_readw(c->dev, c->bar0, BCMA_BAR0_CC + 2), ==,
                    id >> 16);
    /* narrow writes merge into the 32-bit register */
    bcm_wl(c, BCMA_BAR0_CC + 0x28, 0x11223344);              /* CHIPCTL */
    qpci_io_writeb(c->dev, c->bar0, BCMA_BAR0_CC + 0x29, 0xaa);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x28), ==, 0x1122aa44);
    qpci_io_writew(c->dev, c->bar0, BCMA_BAR0_CC + 0x2a, 0xbeef);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x28), ==, 0xbeefaa44);
    /* an unaligned 32-bit access spans two registers */
    bcm_wl(c, BCMA_BAR0_CC + 0x58, 0x03020100);              /* GPIOPULLUP */
    bcm_wl(c, BCMA_BAR0_CC + 0x5c, 0x07060504);              /* GPIOPULLDOWN */
    g_assert_cmphex(qpci_io_readl(c->dev, c->bar0, BCMA_BAR0_CC + 0x5a), ==,
                    0x05040302);
    qpci_io_writel(c->dev, c->bar0, BCMA_BAR0_CC + 0x5b, 0xddccbbaa);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x58), ==, 0xaa020100);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x5c), ==, 0x07ddccbb);
    /* across the end of a window into the next one */
    qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN2, 0x18100000);
    g_assert_cmphex(qpci_io_readw(c->dev, c->bar0, BCMA_BAR0_WIN1 - 1), ==,
                    0xff | ((bcm_rl(c, BCMA_BAR0_WIN1) & 0xff) << 8));
}

/* bcma_core_enable()/disable() on the 802.11 core's agent */
static void test_wrapper(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    switch_core(c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x500), ==,     /* IOST */
                    c->chip->d11_iost);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x800), ==, 1); /* reset */
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x804), ==, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0);
    /* the enable sequence of b43's first reset, gmode */
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x408, 0x2007);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0x2007);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x800, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x800), ==, 0);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x408, 0x2005);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0x2005);
    /* every IOCTL bit reads back exactly */
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x408, 0xfffffffe);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0xfffffffe);
    /* RESET_CTL keeps bit 0 only; RESET_ST and IOST are read-only */
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x800, 0xffffffff);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x800), ==, 1);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x804, 1);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x804), ==, 0);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x500, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x500), ==, c->chip->d11_iost);
    /* other cores: no DMA64/PHY bits, out of reset */
    switch_core(c, 0x18002000, 0x18102000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x500), ==, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x800), ==, 0);
    /* 802.11 CLKCTLST: FORCEHT -> HAVEHT, PLL requests mirrored */
    switch_core(c, 0x18001000, 0x18101000);
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x1e0, 0x2);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0x20002, ==, 0x20002);
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x1e0, 0x302);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0x03000300, ==,
                    0x03000300);
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x1e0, 0x2);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0x07000700, ==, 0);
    /* bcma's DYNAMIC mode writes ~FORCEHT: only writable bits stick */
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x1e0, ~0x2u);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0xf800f880, ==, 0);
}

/* with mac=02:11:22:33:44:55 (the test's edge options) */
static void test_sprom(void *obj, void *data, QGuestAllocator *alloc)
{
    uint16_t w[234];
    QBcm43xx *c = obj;

    qbcm43xx_read_sprom(c, w, 234);
    g_assert_cmphex(w[219] & 0xff, ==, c->chip->sprom_rev);
    g_assert_cmphex(w[219] >> 8, ==, qbcm43xx_sprom_crc(w, 220));
    g_assert_cmphex(w[70], ==, 0x0211);
    g_assert_cmphex(w[71], ==, 0x2233);
    g_assert_cmphex(w[72], ==, 0x4455);
    /* past the 220 words: all-ones (bcma's 230/234-word attempts) */
    for (int i = 220; i < 234; i++) {
        g_assert_cmphex(w[i], ==, 0xffff);
    }
    /* read-only */
    qpci_io_writew(c->dev, c->bar0, BCMA_BAR0_CC + 0x800 + 2 * 70, 0);
    g_assert_cmphex(bcm_rw(c, BCMA_BAR0_CC + 0x800 + 140), ==, 0x0211);
    /* the PCIe core's SPROM shadow: word 0 PI = 2, word 5 bit 15 */
    g_assert_cmphex(bcm_rw(c, BCMA_BAR0_PCIE + 0x800) >> 12, ==, 2);
    g_assert_cmphex(bcm_rw(c, BCMA_BAR0_PCIE + 0x80a) & 0x8000, ==, 0x8000);
}

/* QEMU's default MAC when mac= is not given */
static void test_sprom_default_mac(void *obj, void *data,
                                   QGuestAllocator *alloc)
{
    uint16_t w[220];
    QBcm43xx *c = obj;

    qbcm43xx_read_sprom(c, w, 220);
    g_assert_cmphex(w[70], ==, 0x5254);
    g_assert_cmphex(w[219] >> 8, ==, qbcm43xx_sprom_crc(w, 220));
}

/* PCIe core: MDIO (SerDes) and the indirect registers, as bcma uses them */
static void test_pcie_core(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    /* polarity workaround: indirect PLP status reads 0 */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x130, 0x204);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x130), ==, 0x204);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x134), ==, 0);
    /* L1 timer extension: indirect 0x128 R-M-W */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x130, 0x128);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x134,
           bcm_rl(c, BCMA_BAR0_PCIE + 0x134) | 0x1000000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x134), ==, 0x1000000);
    /* indirect address out of range: defined all-ones, no crash */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x130, 0xfffffff0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x134), ==, 0xffffffff);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x134, 0x1);

    /* MDIO: done bit, block select, write, read back */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x128, 0x82);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x128) & 0x100, ==, 0x100);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x507e01f0);       /* block 0x1f (RX) */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x50060080);       /* reg 1 = 0x80 */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x507e01d0);       /* block 0x1d (PLL) */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);       /* read reg 1 */
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0x4000);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x50060000);       /* clear FREQDET */
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x507e01f0);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0x80);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x507e01d0);
    bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x60060000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_PCIE + 0x12c) & 0xffff, ==, 0);
    /* many blocks: bounded table, no crash */
    for (unsigned blk = 0; blk < 64; blk++) {
        bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x507e0000 | (blk << 4));
        bcm_wl(c, BCMA_BAR0_PCIE + 0x12c, 0x50060000 | blk);
    }
    bcm_wl(c, BCMA_BAR0_PCIE + 0x128, 0);
}

/* ChipCommon PMU: indirect arrays with bounds, self-clearing PLL update */
static void test_pmu(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x604) & 0xff, !=, 1);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x608) & 0x100, ==, 0);
    /* b43_wireless_core_phy_pll_reset() */
    bcm_wl(c, BCMA_BAR0_CC + 0x650, 0);
    bcm_wl(c, BCMA_BAR0_CC + 0x654, bcm_rl(c, BCMA_BAR0_CC + 0x654) | 4);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x654), ==, 4);
    bcm_wl(c, BCMA_BAR0_CC + 0x650, 1);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x654), ==, 0);
    /* spur avoidance PLL values and the update bit */
    bcm_wl(c, BCMA_BAR0_CC + 0x660, 0);
    bcm_wl(c, BCMA_BAR0_CC + 0x664, 0x11500014);
    bcm_wl(c, BCMA_BAR0_CC + 0x660, 2);
    bcm_wl(c, BCMA_BAR0_CC + 0x664, 0x0f600a08);
    bcm_wl(c, BCMA_BAR0_CC + 0x660, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x664), ==, 0x11500014);
    bcm_wl(c, BCMA_BAR0_CC + 0x600, bcm_rl(c, BCMA_BAR0_CC + 0x600) | 0x600);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x600) & 0x600, ==, 0x200);
    /* out-of-range index: reads 0, writes dropped */
    bcm_wl(c, BCMA_BAR0_CC + 0x660, 0xffffffff);
    bcm_wl(c, BCMA_BAR0_CC + 0x664, 0xdead);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x664), ==, 0);
    /* read-only identity registers stay */
    bcm_wl(c, BCMA_BAR0_CC + 0x0, 0);
    bcm_wl(c, BCMA_BAR0_CC + 0xfc, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC) & 0xffff, ==, c->chip->chip_id);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0xfc), !=, 0);
}

/* Reset brings back the power-on state of agents and cores */
static void test_backplane_reset(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    switch_core(c, 0x18001000, 0x18101000);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x408, 0x2005);
    bcm_wl(c, BCMA_BAR0_WIN1 + 0x800, 0);
    bcm_wl(c, BCMA_BAR0_WIN0 + 0x1e0, 0x302);
    bcm_wl(c, BCMA_BAR0_CC + 0x28, 0x1090);
    qtest_system_reset(c->qts);
    /* the reset cleared the BAR: map it again */
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
    switch_core(c, 0x18001000, 0x18101000);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x408), ==, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN1 + 0x800), ==, 1);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_WIN0 + 0x1e0) & 0x7ff, ==, 0);
    g_assert_cmphex(bcm_rl(c, BCMA_BAR0_CC + 0x28), ==, 0);
}

static void register_bcm43xx_bcma_test(void)
{
    QOSGraphTestOptions mac = {
        .edge.extra_device_opts = "mac=02:11:22:33:44:55",
    };

    qos_add_test("bcma/erom", "bcm43xx", test_erom, NULL);
    qos_add_test("bcma/chip-id", "bcm43xx", test_chip_id, NULL);
    qos_add_test("bcma/windows", "bcm43xx", test_windows, NULL);
    qos_add_test("bcma/narrow-unaligned", "bcm43xx", test_narrow_unaligned,
                 NULL);
    qos_add_test("bcma/wrapper", "bcm43xx", test_wrapper, NULL);
    qos_add_test("bcma/sprom", "bcm43xx", test_sprom, &mac);
    qos_add_test("bcma/sprom-default-mac", "bcm43xx", test_sprom_default_mac,
                 NULL);
    qos_add_test("bcma/pcie-core", "bcm43xx", test_pcie_core, NULL);
    qos_add_test("bcma/pmu", "bcm43xx", test_pmu, NULL);
    qos_add_test("bcma/reset", "bcm43xx", test_backplane_reset, NULL);
}

libqos_init(register_bcm43xx_bcma_test);
