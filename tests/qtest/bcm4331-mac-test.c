/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331: the firmware emulation's boot handshake
 * with b43's microcode, the HT-PHY and the BCM2059 radio, migration,
 * driven the way b43 drives them (drivers/net/wireless/broadcom/b43/
 * main.c, phy_ht.c; see contract-b43-mac.md and contract-htphy.md).  The
 * 802.11 core's tests that apply to every chip are bcm43xx-d11-test.c's.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"
#include "libqos/bcm43xx.h"

typedef QBcm43xx Card;

static void card_open(Card *c, const char *extra)
{
    qbcm43xx_open(c, "-M q35 -device bcm4331,addr=04.0,id=wifi0%s",
                  extra ? extra : "");
    qbcm43xx_core_up(c->dev, c->bar0);
}

static const uint32_t stub666[] = {
    0x51454d55, 0x484c4531, 0x029a0002, 0xb21709e7, 0x00000000,
};

static void test_psm_handshake(void)
{
    Card c;

    card_open(&c, NULL);
    /* exactly MAC_SUSPENDED, nothing else (b43 tests == 1) */
    g_assert_cmphex(qbcm43xx_boot(&c, qbcm43xx_stub784,
                                  ARRAY_SIZE(qbcm43xx_stub784)), ==, 0x1);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 784);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x2), ==, 2);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x4), ==, 0xc80f);    /* 2012-08-15 */
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x6), ==, 0xac73);    /* 21:35:19 */
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x40), ==, 3);        /* suspended */
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x56), ==, 0x400);    /* key table */
    /* not read-to-clear */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0x1);

    /* b43_mac_enable(): ENABLED, ack; UCODESTAT active */
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) | 0x1);
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x1);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x40), ==, 2);
    /* b43_mac_suspend(): MAC_SUSPENDED comes back */
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) & ~0x1u);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON) & 0x1, ==, 0x1);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x40), ==, 3);
    /* MACCTL is a plain register: the firmware never sets bits in it */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_MACCTL), ==, 0x80020502);

    /* the other stub personality */
    g_assert_cmphex(qbcm43xx_boot(&c, stub666, ARRAY_SIZE(stub666)), ==, 0x1);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 666);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x4), ==, 0xb217);

    /* a core reset clears MACCTL and the interrupt state */
    bcm_wl(&c, AGENT + 0x800, 1);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_MACCTL), ==, 0);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0);
    qbcm43xx_close(&c);
}

/* Broadcom's microcode is recognised by its size and emulated */
static void test_real_ucode(void)
{
    g_autofree uint32_t *w = g_new0(uint32_t, 0xa8d0 / 4);
    Card c;

    for (unsigned i = 0; i < 0xa8d0 / 4; i++) {
        w[i] = i * 0x9e3779b9u;
    }
    card_open(&c, NULL);
    g_assert_cmphex(qbcm43xx_boot(&c, w, 0xa8d0 / 4), ==, 0x1);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 784);
    g_assert_cmphex(qbcm43xx_boot(&c, w, 0x9b48 / 4), ==, 0x1);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 666);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x6), ==, 0x09e7);
    qbcm43xx_close(&c);
}

/* Bad microcode: the PSM does not signal, as with garbage on hardware */
static void test_bad_ucode(void)
{
    Card c;

    card_open(&c, NULL);
    /* nothing uploaded */
    g_assert_cmphex(qbcm43xx_boot(&c, NULL, 0), ==, 0);
    /* a stub truncated inside its identity */
    g_assert_cmphex(qbcm43xx_boot(&c, qbcm43xx_stub784, 3), ==, 0);
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 0);
    /* the device still works: a good upload afterwards boots */
    g_assert_cmphex(qbcm43xx_boot(&c, qbcm43xx_stub784,
                                  ARRAY_SIZE(qbcm43xx_stub784)), ==, 0x1);
    /* uploads while the PSM runs are ignored (no crash) */
    bcm_wl(&c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_UCODE | D11_SHM_AUTOINC_W) << 16) | 0);
    for (int i = 0; i < 100000; i++) {
        bcm_wl(&c, D11 + A_D11_SHM_DATA, i);
    }
    g_assert_cmphex(qbcm43xx_shm_r16(&c, 0x0), ==, 784);
    qbcm43xx_close(&c);
}

static uint16_t phy_r(Card *c, uint16_t reg)
{
    bcm_ww(c, D11 + A_D11_PHY_CONTROL, reg);
    return bcm_rw(c, D11 + A_D11_PHY_DATA);
}

static uint16_t radio_r(Card *c, uint16_t reg)
{
    bcm_ww(c, D11 + A_D11_RADIO24_CONTROL, reg | 0x200);
    return bcm_rw(c, D11 + A_D11_RADIO24_DATA);
}

static void radio_w(Card *c, uint16_t reg, uint16_t v)
{
    bcm_ww(c, D11 + A_D11_RADIO24_CONTROL, reg);
    bcm_ww(c, D11 + A_D11_RADIO24_DATA, v);
}

static uint32_t qom_u32(Card *c, const char *prop)
{
    QDict *r = qtest_qmp(c->qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': '/machine/peripheral/wifi0', "
                         "'property': %s } }", prop);
    uint32_t v = qdict_get_int(r, "return");

    qobject_unref(r);
    return v;
}

static void test_phy_radio(void)
{
    /* BW1 (PHY 0x1CE) of channels 1..13 from the 2059 channel table */
    static const uint16_t bw1[] = {
        0x3c9, 0x3cb, 0x3cd, 0x3cf, 0x3d1, 0x3d3, 0x3d5, 0x3d7, 0x3d9,
        0x3db, 0x3dd, 0x3df, 0x3e1,
    };
    Card c;

    card_open(&c, NULL);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_PHY_VER), ==, 0x9701);
    /* radio identity: words 0, 1, 2 read without the read flag */
    for (int i = 0; i < 3; i++) {
        static const uint16_t id[] = { 0x10, 0x59, 0x20 };

        bcm_ww(&c, D11 + A_D11_RADIO24_CONTROL, i);
        g_assert_cmphex(bcm_rw(&c, D11 + A_D11_RADIO24_DATA), ==, id[i]);
    }
    /* PHY registers: plain storage, no auto-increment of PHY_DATA */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x23f, 0x7ff);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_PHY_DATA), ==, 0x7ff);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_PHY_DATA), ==, 0x7ff);
    g_assert_cmphex(phy_r(&c, 0x240), ==, 0);
    /* RF sequences complete at once */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x804, 0x21);
    g_assert_cmphex(phy_r(&c, 0x804), ==, 0);
    /* calibrations done: RCAL (core 2 reg 0x145), RC-CAL (core 0 0x140) */
    g_assert_cmphex(radio_r(&c, 0x800 | 0x145) & 1, ==, 1);
    g_assert_cmphex(radio_r(&c, 0x140) & 2, ==, 2);
    /* per-core radio registers; core 3 broadcasts writes */
    radio_w(&c, 0xc00 | 0x146, 0x3);
    g_assert_cmphex(radio_r(&c, 0x000 | 0x146), ==, 3);
    g_assert_cmphex(radio_r(&c, 0x400 | 0x146), ==, 3);
    g_assert_cmphex(radio_r(&c, 0x800 | 0x146), ==, 3);
    radio_w(&c, 0x400 | 0x146, 0x7);
    g_assert_cmphex(radio_r(&c, 0x000 | 0x146), ==, 3);
    g_assert_cmphex(radio_r(&c, 0x400 | 0x146), ==, 7);
    /* ID registers are read-only */
    radio_w(&c, 0x001, 0xff);
    g_assert_cmphex(radio_r(&c, 0x001), ==, 0x59);

    /* table port: DATALO advances, DATAHI does not; 32-bit = HI then LO */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x072, (0x1a << 10) | 0x0e8);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x074, 0x1019);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x073, 0x0033);
    /* next element, low half */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x073, 0x4444);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x072, (0x1a << 10) | 0x0e8);
    g_assert_cmphex(phy_r(&c, 0x074), ==, 0x1019);
    g_assert_cmphex(phy_r(&c, 0x073), ==, 0x0033);
    g_assert_cmphex(phy_r(&c, 0x073), ==, 0x4444);
    /* pointer wraps inside the table space */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x072, 0xffff);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x073, 1);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x073, 2);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x072, 0);
    g_assert_cmphex(phy_r(&c, 0x073), ==, 2);

    /* the tuned channel follows BW1 */
    g_assert_cmpuint(qom_u32(&c, "channel"), ==, 0);
    for (int ch = 1; ch <= 13; ch++) {
        qbcm43xx_phy_write(c.dev, c.bar0, 0x1ce, bw1[ch - 1]);
        g_assert_cmpuint(qom_u32(&c, "channel"), ==, ch);
        g_assert_cmpuint(qom_u32(&c, "frequency"), ==, 2407 + 5 * ch);
    }
    /* a value that is no channel leaves the tuning alone */
    qbcm43xx_phy_write(c.dev, c.bar0, 0x1ce, 0x0004);
    g_assert_cmpuint(qom_u32(&c, "channel"), ==, 13);
    /* PHY address beyond 0xFFF: wraps, logged, no crash */
    qbcm43xx_phy_write(c.dev, c.bar0, 0xf23f, 0x1);
    g_assert_cmphex(phy_r(&c, 0x23f), ==, 1);
    qbcm43xx_close(&c);
}

/* the card's state survives a migration (VMState of all its parts) */
static void test_migration(const void *data)
{
    const char *chip = data;
    g_autofree char *file = g_strdup_printf("%s/bcm4331-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri_out = g_strdup_printf("exec:cat > %s", file);
    g_autofree char *uri_in = g_strdup_printf("exec:cat %s", file);
    static const uint16_t bw1_ch6 = 0x3d3;
    Card c, d;
    QDict *r;

    qbcm43xx_open(&c, "-M q35 -device %s,addr=04.0,id=wifi0,"
                  "mac=02:11:22:33:44:55", chip);
    qbcm43xx_core_up(c.dev, c.bar0);
    qbcm43xx_boot(&c, qbcm43xx_stub784, ARRAY_SIZE(qbcm43xx_stub784));
    qbcm43xx_shm_w32(&c, 0x200, 0xfeedf00d);
    /* the radio powered (HT-PHY 0x810 bit 1, N-PHY 0x78 bit 10) */
    qbcm43xx_phy_write(c.dev, c.bar0, c.chip->rf_pu_reg, c.chip->rf_pu_bit);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x1ce, bw1_ch6);
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    qpci_config_writel(c.dev, 0x94, 0x200);
    g_assert_true(qbcm43xx_intx(&c));
    r = qtest_qmp(c.qts, "{ 'execute': 'migrate', 'arguments': "
                  "{ 'uri': %s } }", uri_out);
    qobject_unref(r);
    qbcm_wait_migration(c.qts);

    d.qts = qtest_initf("-M q35 -device %s,addr=04.0,id=wifi0,"
                        "mac=02:11:22:33:44:55 -incoming defer", chip);
    r = qtest_qmp(d.qts, "{ 'execute': 'migrate-incoming', 'arguments': "
                  "{ 'uri': %s } }", uri_in);
    qobject_unref(r);
    qbcm_wait_migration(d.qts);
    d.bus = qpci_new_pc(d.qts, NULL);
    d.dev = qpci_device_find(d.bus, QPCI_DEVFN(4, 0));
    /* same BAR address as the source (config space migrated) */
    d.bar0 = c.bar0;
    g_assert_cmphex(qpci_config_readl(d.dev, 0x80), ==, 0x18001000);
    g_assert_cmphex(bcm_rl(&d, AGENT + 0x408), ==, 0x2005);
    g_assert_cmphex(bcm_rl(&d, D11 + A_D11_MACCTL), ==,
                    bcm_rl(&c, D11 + A_D11_MACCTL));
    g_assert_cmphex(qbcm43xx_shm_r32(&d, 0x200), ==, 0xfeedf00d);
    g_assert_cmphex(qbcm43xx_shm_r16(&d, 0x0), ==, 784);
    g_assert_cmpuint(qom_u32(&d, "channel"), ==, 6);
    g_assert_true(qbcm43xx_intx(&d));               /* line re-derived */
    g_free(d.dev);
    qpci_free_pc(d.bus);
    qtest_quit(d.qts);
    qbcm43xx_close(&c);
    unlink(file);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/bcm43xx/bcm4331/fw/psm-handshake", test_psm_handshake);
    qtest_add_func("/bcm43xx/bcm4331/fw/real-ucode", test_real_ucode);
    qtest_add_func("/bcm43xx/bcm4331/fw/bad-ucode", test_bad_ucode);
    qtest_add_func("/bcm43xx/bcm4331/phy/radio", test_phy_radio);
    /* the card's state across a migration, on each chip */
    qtest_add_data_func("/bcm43xx/bcm4331/mac/migration", "bcm4331",
                        test_migration);
    qtest_add_data_func("/bcm43xx/bcm43224/mac/migration", "bcm43224",
                        test_migration);

    return g_test_run();
}
