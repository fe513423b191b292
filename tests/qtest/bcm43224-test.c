/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM43224 (-device bcm43224): what brcmsmac and
 * bcma read from it.  The identity real BCM43224 cards print (bcma
 * scan.c), the rev-8 SPROM, the N-PHY and BCM2056 identity through the
 * older radio port (brcmsmac phy_cmn.c read_radio_id()), the radio's
 * address decoding and calibrations, the N-PHY table port's read order,
 * the microcode kept across PSM restarts (main.c brcms_ucode_download()).
 * What it shares with the BCM4331 runs on both chips in qos-test
 * (bcm43xx-bcma-test.c, bcm43xx-d11-test.c).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"
#include "libqos/bcm43xx.h"

typedef QBcm43xx Card;

#define RADIO_ADDR      0x3f6       /* phy4waddr */
#define RADIO_DATA_HI   0x3f8       /* phy4wdatahi */
#define RADIO_DATA_LO   0x3fa       /* phy4wdatalo */

static void card_open(Card *c, const char *extra)
{
    qbcm43xx_open(c, "-M q35 -device bcm43224,id=wifi0,addr=04.0%s",
                  extra ? extra : "");
}

static void test_identity(void)
{
    Card c;
    uint32_t id;

    card_open(&c, NULL);
    g_assert_cmphex(qpci_config_readw(c.dev, PCI_VENDOR_ID), ==, 0x14e4);
    g_assert_cmphex(qpci_config_readw(c.dev, PCI_DEVICE_ID), ==, 0x4353);
    g_assert_cmphex(qpci_config_readb(c.dev, PCI_REVISION_ID), ==, 0x01);
    g_assert_cmphex(qpci_config_readw(c.dev, PCI_CLASS_DEVICE), ==, 0x0280);
    g_assert_cmphex(qpci_config_readw(c.dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x106b);
    g_assert_cmphex(qpci_config_readw(c.dev, PCI_SUBSYSTEM_ID), ==, 0x0093);
    /* capabilities as lspci shows them: PM 0x40, MSI 0x48, PCIe 0xd0 */
    g_assert_cmphex(qpci_config_readb(c.dev, PCI_CAPABILITY_LIST), ==, 0x40);
    g_assert_cmphex(qpci_config_readb(c.dev, 0x41), ==, 0x48);
    g_assert_cmphex(qpci_config_readb(c.dev, 0x48), ==, PCI_CAP_ID_MSI);
    g_assert_cmphex(qpci_config_readb(c.dev, 0x49), ==, 0xd0);
    g_assert_cmphex(qpci_config_readb(c.dev, 0xd0), ==, PCI_CAP_ID_EXP);

    /* "Found chip with id 0xA8D8, rev 0x01 and package 0x08" */
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN, 0x18000000);
    id = bcm_rl(&c, BCMA_BAR0_WIN0);
    g_assert_cmphex(id & 0xffff, ==, 0xa8d8);
    g_assert_cmphex((id >> 16) & 0xf, ==, 1);
    g_assert_cmphex((id >> 20) & 0xf, ==, 8);
    /* PMU, external SPROM present, no power control */
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x04) & 0x50040000, ==,
                    0x50000000);
    g_assert_cmphex(bcm_rl(&c, BCMA_BAR0_CC + 0x190) & 1, ==, 1);
    /* the SPROM: rev 8, device id 0x4353, a CRC bcma accepts */
    g_assert_cmphex(bcm_rw(&c, BCMA_BAR0_CC + 0x800 + 219 * 2) & 0xff, ==, 8);
    g_assert_cmphex(bcm_rw(&c, BCMA_BAR0_CC + 0x800 + 48 * 2), ==, 0x4353);

    /* the 802.11 core: rev 0x17 in its agent's view too (IOST bits) */
    qpci_config_writel(c.dev, BCMA_PCI_BAR0_WIN2, 0x18101000);
    /* 64-bit DMA, 2G, 5G, fast clock, dual band */
    g_assert_cmphex(bcm_rl(&c, AGENT + A_AI_IOST) & 0x100f, ==, 0x100f);
    qbcm43xx_close(&c);
}

static uint16_t radio_read(Card *c, uint16_t addr)
{
    bcm_ww(c, D11 + RADIO_ADDR, addr | 0x100);
    return bcm_rw(c, D11 + RADIO_DATA_LO);
}

static void radio_write(Card *c, uint16_t addr, uint16_t v)
{
    bcm_ww(c, D11 + RADIO_ADDR, addr);
    bcm_ww(c, D11 + RADIO_DATA_LO, v);
}

static uint16_t phy_read(Card *c, uint16_t reg)
{
    bcm_ww(c, D11 + A_D11_PHY_CONTROL, reg);
    return bcm_rw(c, D11 + A_D11_PHY_DATA);
}

static void phy_write(Card *c, uint16_t reg, uint16_t v)
{
    /* brcmsmac: one 32-bit write of address and data */
    bcm_wl(c, D11 + A_D11_PHY_CONTROL, reg | (uint32_t)v << 16);
}

static void test_phy_radio(void)
{
    QDict *rsp;
    uint32_t idcode;
    Card c;

    card_open(&c, NULL);
    qbcm43xx_core_up(c.dev, c.bar0);
    /* N-PHY rev 6, analog 8 */
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_PHY_VER), ==, 0x8406);
    /* read_radio_id(): BCM2056 rev 11, manufacturer 0x17F */
    bcm_ww(&c, D11 + RADIO_ADDR, 0x0001);
    idcode = bcm_rw(&c, D11 + RADIO_DATA_LO);
    idcode |= (uint32_t)bcm_rw(&c, D11 + RADIO_DATA_HI) << 16;
    g_assert_cmphex(idcode, ==, 0xb205617f);
    g_assert_cmphex((idcode & 0x0ffff000) >> 12, ==, 0x2056);

    /* blocks: SYN 0, TX0 2, TX1 3, RX0 6, RX1 7; 0xE = both TX */
    radio_write(&c, 0x2000 | 0x45, 0x11);
    radio_write(&c, 0x3000 | 0x45, 0x22);
    g_assert_cmphex(radio_read(&c, 0x2000 | 0x45), ==, 0x11);
    g_assert_cmphex(radio_read(&c, 0x3000 | 0x45), ==, 0x22);
    radio_write(&c, 0xe000 | 0x45, 0x33);
    g_assert_cmphex(radio_read(&c, 0x2000 | 0x45), ==, 0x33);
    g_assert_cmphex(radio_read(&c, 0x3000 | 0x45), ==, 0x33);
    g_assert_cmphex(radio_read(&c, 0x6000 | 0x45), ==, 0);
    radio_write(&c, 0xf000 | 0x45, 0x44);
    g_assert_cmphex(radio_read(&c, 0x7000 | 0x45), ==, 0x44);
    /* a block that does not exist reads 0, keeps nothing */
    radio_write(&c, 0x4000 | 0x45, 0x55);
    g_assert_cmphex(radio_read(&c, 0x4000 | 0x45), ==, 0);
    /* the resistor calibration is done ("HW error: radio calib3") */
    g_assert_cmphex(radio_read(&c, 0x2d) & 0x80, ==, 0x80);

    /* what the driver waits for completes at once */
    phy_write(&c, 0x78, 0x0401);            /* CHIP0_PU, core 0 trigger */
    g_assert_cmphex(phy_read(&c, 0x78), ==, 0x0400);
    phy_write(&c, 0xc0, 0xc123);            /* TX IQ/LO calibration */
    g_assert_cmphex(phy_read(&c, 0xc0), ==, 0x0123);
    phy_write(&c, 0x12b, 0x4000);           /* RX IQ estimate, 16384 */
    phy_write(&c, 0x129, 0x0003);
    g_assert_cmphex(phy_read(&c, 0x129), ==, 0x0002);
    /*
     * both cores: I and Q power equal, a small I*Q product: what
     * brcmsmac's wlc_phy_calc_rx_iq_comp_nphy() turns into a compensation
     * near zero instead of "Failed" (zeros)
     */
    for (int core = 0; core < 2; core++) {
        uint16_t b = core ? 0x134 : 0x12c;
        uint32_t iq = phy_read(&c, b) | phy_read(&c, b + 1) << 16;
        uint32_t ii = phy_read(&c, b + 2) | phy_read(&c, b + 3) << 16;
        uint32_t qq = phy_read(&c, b + 4) | phy_read(&c, b + 5) << 16;

        g_assert_cmpuint(ii, ==, 0x4000 * 2048);
        g_assert_cmpuint(qq, ==, ii);
        g_assert_cmpuint(iq, >, 0);
        g_assert_cmpuint(iq, <, ii / 32);
    }
    phy_write(&c, 0x2be, 1);                /* internal PA calibration */
    g_assert_cmphex(phy_read(&c, 0x2be), ==, 0);
    g_assert_cmphex(phy_read(&c, 0xa4), ==, 0);     /* RF sequencer */

    /*
     * Table port: 32-bit cells written high half first, read low half
     * first (wlc_phy_write_table()/wlc_phy_read_table()); 16-bit cells
     * one low half each.
     */
    phy_write(&c, 0x72, (8 << 10) | 4);
    for (uint32_t i = 0; i < 3; i++) {
        phy_write(&c, 0x74, 0xa000 + i);
        phy_write(&c, 0x73, 0x1000 + i);
    }
    phy_write(&c, 0x72, (8 << 10) | 4);
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t v = phy_read(&c, 0x73);

        v |= (uint32_t)phy_read(&c, 0x74) << 16;
        g_assert_cmphex(v, ==, 0xa0001000 + (i << 16) + i);
    }
    phy_write(&c, 0x72, (8 << 10) | 4);
    g_assert_cmphex(phy_read(&c, 0x73), ==, 0x1000);
    g_assert_cmphex(phy_read(&c, 0x73), ==, 0x1001);
    g_assert_cmphex(phy_read(&c, 0x73), ==, 0x1002);
    /* BCM43224 rev 1's workaround: the address again before each cell */
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t v;

        phy_write(&c, 0x72, (8 << 10) | (4 + i));
        (void)phy_read(&c, 0x73);
        phy_write(&c, 0x72, (8 << 10) | (4 + i));
        v = phy_read(&c, 0x73);
        v |= (uint32_t)phy_read(&c, 0x74) << 16;
        g_assert_cmphex(v, ==, 0xa0001000 + (i << 16) + i);
    }

    /* the channel: the BW1a word of chan_info_nphyrev6_2056v11 */
    phy_write(&c, 0x1ce, 0x03c9);           /* channel 1 */
    rsp = qtest_qmp(c.qts, "{'execute': 'qom-get', 'arguments': {"
                    "'path': '/machine/peripheral/wifi0', "
                    "'property': 'channel'}}");
    g_assert_cmpint(qdict_get_int(rsp, "return"), ==, 1);
    qobject_unref(rsp);
    phy_write(&c, 0x1ce, 0x081c);           /* channel 36, 5180 MHz */
    rsp = qtest_qmp(c.qts, "{'execute': 'qom-get', 'arguments': {"
                    "'path': '/machine/peripheral/wifi0', "
                    "'property': 'frequency'}}");
    g_assert_cmpint(qdict_get_int(rsp, "return"), ==, 5180);
    qobject_unref(rsp);
    qbcm43xx_close(&c);
}

/* brcmsmac's stub (firmware-stubs/gen-stubs.py): words as uploaded */
static const uint32_t stub610[] = {
    0x51454d55, 0x484c4531, 0x0262032c, 0, 0,
};

static uint32_t psm_start(Card *c, const uint32_t *w, unsigned n)
{
    /* brcms_b_coreinit(): JMP0, upload (auto-increment), run */
    bcm_wl(c, D11 + A_D11_MACCTL, 0x04000404);
    if (n) {
        bcm_wl(c, D11 + A_D11_SHM_CONTROL, 0x03000000);
        (void)bcm_rl(c, D11 + A_D11_SHM_CONTROL);
        for (unsigned k = 0; k < n; k++) {
            bcm_wl(c, D11 + A_D11_SHM_DATA, w[k]);
        }
    }
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0xffffffff);
    bcm_wl(c, D11 + A_D11_MACCTL, 0x04020402);
    return bcm_rl(c, D11 + A_D11_GEN_IRQ_REASON);
}

static uint16_t shm_r16(Card *c, unsigned off)
{
    bcm_wl(c, D11 + A_D11_SHM_CONTROL, (1 << 16) | (off >> 2));
    return bcm_rl(c, D11 + A_D11_SHM_DATA) >> ((off & 2) * 8);
}

static void test_firmware(void)
{
    g_autofree uint32_t *real = g_new0(uint32_t, 39864 / 4);
    Card c;

    card_open(&c, NULL);
    qbcm43xx_core_up(c.dev, c.bar0);
    /* the PSM signals "self-suspended"; the BOM release in SHM 0/2 */
    g_assert_cmphex(psm_start(&c, stub610, ARRAY_SIZE(stub610)), ==, 0x1);
    g_assert_cmpuint(shm_r16(&c, 0x0), ==, 610);
    g_assert_cmpuint(shm_r16(&c, 0x2), ==, 812);
    /* MACCTL reads back what brcms_c_mctrl_reset() and coreinit wrote */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_MACCTL), ==, 0x04020402);

    /*
     * The next "up": a core reset, JMP0 and PSM start without an upload
     * (brcmsmac keeps ucode_loaded): the PSM runs what it has
     */
    bcm_wl(&c, AGENT + A_AI_RESET_CTL, 1);
    bcm_wl(&c, AGENT + A_AI_RESET_CTL, 0);
    bcm_wl(&c, D11 + A_D11_MACCTL, 0x04000400);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_MACCTL), ==, 0x04000400);
    g_assert_cmphex(psm_start(&c, NULL, 0), ==, 0x1);
    g_assert_cmpuint(shm_r16(&c, 0x2), ==, 812);

    /* Broadcom's ucode16_mimo, recognised by its size (39864 bytes) */
    for (unsigned i = 0; i < 39864 / 4; i++) {
        real[i] = i * 0x9e3779b9u;
    }
    g_assert_cmphex(psm_start(&c, real, 39864 / 4), ==, 0x1);
    g_assert_cmpuint(shm_r16(&c, 0x0), ==, 610);
    g_assert_cmpuint(shm_r16(&c, 0x2), ==, 812);
    qbcm43xx_close(&c);

    /* after power-on the microcode store is empty: the PSM is silent */
    card_open(&c, NULL);
    qbcm43xx_core_up(c.dev, c.bar0);
    g_assert_cmphex(psm_start(&c, NULL, 0), ==, 0);
    qbcm43xx_close(&c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/bcm43xx/bcm43224/pci/identity", test_identity);
    qtest_add_func("/bcm43xx/bcm43224/phy/radio", test_phy_radio);
    qtest_add_func("/bcm43xx/bcm43224/fw/brcmsmac", test_firmware);
    return g_test_run();
}
