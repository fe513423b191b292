/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331: the 802.11 MAC core, the firmware
 * emulation's boot handshake, the HT-PHY and the BCM2059 radio, driven
 * the way b43 drives them (drivers/net/wireless/broadcom/b43/main.c,
 * phy_ht.c; see contract-b43-mac.md and contract-htphy.md).
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

static void shm_ctl(Card *c, uint32_t routing, uint32_t off)
{
    bcm_wl(c, D11 + A_D11_SHM_CONTROL, (routing << 16) | off);
}

/* b43_shm_write16/read16/write32/read32 for the SHARED routing */
static void shm_w16(Card *c, uint32_t b, uint16_t v)
{
    shm_ctl(c, D11_SHM_SHARED, b >> 2);
    bcm_ww(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED : A_D11_SHM_DATA), v);
}

static uint16_t shm_r16(Card *c, uint32_t b)
{
    shm_ctl(c, D11_SHM_SHARED, b >> 2);
    return bcm_rw(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED
                                    : A_D11_SHM_DATA));
}

static void shm_w32(Card *c, uint32_t b, uint32_t v)
{
    if (b & 2) {
        shm_ctl(c, D11_SHM_SHARED, b >> 2);
        bcm_ww(c, D11 + A_D11_SHM_DATA_UNALIGNED, v & 0xffff);
        shm_ctl(c, D11_SHM_SHARED, (b >> 2) + 1);
        bcm_ww(c, D11 + A_D11_SHM_DATA, v >> 16);
    } else {
        shm_ctl(c, D11_SHM_SHARED, b >> 2);
        bcm_wl(c, D11 + A_D11_SHM_DATA, v);
    }
}

static uint32_t shm_r32(Card *c, uint32_t b)
{
    uint32_t v;

    if (b & 2) {
        shm_ctl(c, D11_SHM_SHARED, b >> 2);
        v = bcm_rw(c, D11 + A_D11_SHM_DATA_UNALIGNED);
        shm_ctl(c, D11_SHM_SHARED, (b >> 2) + 1);
        return v | ((uint32_t)bcm_rw(c, D11 + A_D11_SHM_DATA) << 16);
    }
    shm_ctl(c, D11_SHM_SHARED, b >> 2);
    return bcm_rl(c, D11 + A_D11_SHM_DATA);
}

/* b43_validate_chipaccess() and more */
static void test_shm(void)
{
    Card c;

    card_open(&c, NULL);
    shm_w32(&c, 0, 0x55aaaa55);
    g_assert_cmphex(shm_r32(&c, 0), ==, 0x55aaaa55);
    shm_w32(&c, 0, 0xaa5555aa);
    g_assert_cmphex(shm_r32(&c, 0), ==, 0xaa5555aa);
    shm_w16(&c, 0, 0x1122);
    shm_w16(&c, 2, 0x3344);
    shm_w16(&c, 4, 0x5566);
    shm_w16(&c, 6, 0x7788);
    g_assert_cmphex(shm_r32(&c, 2), ==, 0x55663344);
    shm_w32(&c, 2, 0xaabbccdd);
    g_assert_cmphex(shm_r16(&c, 0), ==, 0x1122);
    g_assert_cmphex(shm_r16(&c, 2), ==, 0xccdd);
    g_assert_cmphex(shm_r16(&c, 4), ==, 0xaabb);
    g_assert_cmphex(shm_r16(&c, 6), ==, 0x7788);
    /* little-endian words: SHM byte 0x100 holds the low byte */
    shm_w32(&c, 0x100, 0x04030201);
    g_assert_cmphex(shm_r16(&c, 0x100), ==, 0x0201);
    g_assert_cmphex(shm_r16(&c, 0x102), ==, 0x0403);
    /* top of the 64 KiB shared memory; beyond it: all-ones, no crash */
    shm_w16(&c, 0xfffe, 0xbeef);
    g_assert_cmphex(shm_r16(&c, 0xfffe), ==, 0xbeef);
    shm_ctl(&c, D11_SHM_SHARED, 0x4000);
    bcm_wl(&c, D11 + A_D11_SHM_DATA, 0x12345678);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_SHM_DATA), ==, 0xffffffff);
    g_assert_cmphex(shm_r16(&c, 0), ==, 0x1122);

    /* scratch: 64 16-bit registers, selected by register number */
    for (int i = 0; i < 64; i++) {
        shm_ctl(&c, D11_SHM_SCRATCH, i);
        bcm_ww(&c, D11 + A_D11_SHM_DATA, 0x100 + i);
    }
    shm_ctl(&c, D11_SHM_SCRATCH, 7);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_SHM_DATA), ==, 0x107);
    shm_ctl(&c, D11_SHM_SCRATCH, 64);
    bcm_ww(&c, D11 + A_D11_SHM_DATA, 0xdead);
    shm_ctl(&c, D11_SHM_SCRATCH, 0);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_SHM_DATA), ==, 0x100);

    /* RCMTA: 32-bit words */
    shm_ctl(&c, D11_SHM_RCMTA, 9);
    bcm_wl(&c, D11 + A_D11_SHM_DATA, 0xcafef00d);
    shm_ctl(&c, D11_SHM_RCMTA, 9);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_SHM_DATA), ==, 0xcafef00d);

    /* auto-increment on write and on read */
    bcm_wl(&c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_SHARED | D11_SHM_AUTOINC_W) << 16) | 0x40);
    for (int i = 0; i < 4; i++) {
        bcm_wl(&c, D11 + A_D11_SHM_DATA, 0x11111111 * (i + 1));
    }
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_SHM_CONTROL) & 0xffff, ==, 0x44);
    bcm_wl(&c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_SHARED | D11_SHM_AUTOINC_R) << 16) | 0x40);
    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(bcm_rl(&c, D11 + A_D11_SHM_DATA), ==,
                        0x11111111 * (i + 1));
    }
    /* a routing that does not exist: defined all-ones */
    shm_ctl(&c, 7, 0);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_SHM_DATA), ==, 0xffffffff);
    qbcm43xx_close(&c);
}

/*
 * What b43_chip_init() and b43_upload_microcode() do, with @words of
 * microcode (big-endian words of the payload, as b43 uploads them).
 */
static uint32_t boot(Card *c, const uint32_t *words, unsigned n)
{
    bcm_wl(c, D11 + A_D11_MACCTL, 0x80020500);
    bcm_wl(c, D11 + A_D11_MACCTL, bcm_rl(c, D11 + A_D11_MACCTL) | 0x4);
    for (int i = 0; i < 64; i++) {
        shm_ctl(c, D11_SHM_SCRATCH, i);
        bcm_ww(c, D11 + A_D11_SHM_DATA, 0);
    }
    for (int i = 0; i < 4096; i += 2) {
        shm_w16(c, i, 0);
    }
    bcm_wl(c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_UCODE | D11_SHM_AUTOINC_W) << 16) | 0);
    for (unsigned i = 0; i < n; i++) {
        bcm_wl(c, D11 + A_D11_SHM_DATA, words[i]);
    }
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0xffffffff);
    bcm_wl(c, D11 + A_D11_MACCTL,
           (bcm_rl(c, D11 + A_D11_MACCTL) & ~0x4u) | 0x2);
    return bcm_rl(c, D11 + A_D11_GEN_IRQ_REASON);
}

static const uint32_t stub784[] = {
    0x51454d55, 0x484c4531, 0x03100002, 0xc80fac73, 0x00000000, 0x62636d34,
};
static const uint32_t stub666[] = {
    0x51454d55, 0x484c4531, 0x029a0002, 0xb21709e7, 0x00000000,
};

static void test_psm_handshake(void)
{
    Card c;

    card_open(&c, NULL);
    /* exactly MAC_SUSPENDED, nothing else (b43 tests == 1) */
    g_assert_cmphex(boot(&c, stub784, ARRAY_SIZE(stub784)), ==, 0x1);
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 784);
    g_assert_cmphex(shm_r16(&c, 0x2), ==, 2);
    g_assert_cmphex(shm_r16(&c, 0x4), ==, 0xc80f);    /* 2012-08-15 */
    g_assert_cmphex(shm_r16(&c, 0x6), ==, 0xac73);    /* 21:35:19 */
    g_assert_cmphex(shm_r16(&c, 0x40), ==, 3);        /* suspended */
    g_assert_cmphex(shm_r16(&c, 0x56), ==, 0x400);    /* key table */
    /* not read-to-clear */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0x1);

    /* b43_mac_enable(): ENABLED, ack; UCODESTAT active */
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) | 0x1);
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x1);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0);
    g_assert_cmphex(shm_r16(&c, 0x40), ==, 2);
    /* b43_mac_suspend(): MAC_SUSPENDED comes back */
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) & ~0x1u);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON) & 0x1, ==, 0x1);
    g_assert_cmphex(shm_r16(&c, 0x40), ==, 3);
    /* MACCTL is a plain register: the firmware never sets bits in it */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_MACCTL), ==, 0x80020502);

    /* the other stub personality */
    g_assert_cmphex(boot(&c, stub666, ARRAY_SIZE(stub666)), ==, 0x1);
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 666);
    g_assert_cmphex(shm_r16(&c, 0x4), ==, 0xb217);

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
    g_assert_cmphex(boot(&c, w, 0xa8d0 / 4), ==, 0x1);
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 784);
    g_assert_cmphex(boot(&c, w, 0x9b48 / 4), ==, 0x1);
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 666);
    g_assert_cmphex(shm_r16(&c, 0x6), ==, 0x09e7);
    qbcm43xx_close(&c);
}

/* Bad microcode: the PSM does not signal, as with garbage on hardware */
static void test_bad_ucode(void)
{
    Card c;

    card_open(&c, NULL);
    /* nothing uploaded */
    g_assert_cmphex(boot(&c, NULL, 0), ==, 0);
    /* a stub truncated inside its identity */
    g_assert_cmphex(boot(&c, stub784, 3), ==, 0);
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 0);
    /* the device still works: a good upload afterwards boots */
    g_assert_cmphex(boot(&c, stub784, ARRAY_SIZE(stub784)), ==, 0x1);
    /* uploads while the PSM runs are ignored (no crash) */
    bcm_wl(&c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_UCODE | D11_SHM_AUTOINC_W) << 16) | 0);
    for (int i = 0; i < 100000; i++) {
        bcm_wl(&c, D11 + A_D11_SHM_DATA, i);
    }
    g_assert_cmphex(shm_r16(&c, 0x0), ==, 784);
    qbcm43xx_close(&c);
}

/*
 * Initvals may write anything below 0x1000: every plain register stores
 * and reads back; the device does not crash on any offset.
 */
static void test_initvals_anywhere(void)
{
    static const uint32_t plain[] = {
        0x100, 0x43c, 0x492, 0x49c, 0x612, 0x62c, 0x630, 0x684, 0x688,
        0x6a8, 0x800, 0xffc,
    };
    Card c;

    card_open(&c, NULL);
    for (uint32_t off = 0; off < 0x1000; off += 2) {
        if (off == 0x1e0 || off == 0x1e2) {
            continue;       /* bcma clock control */
        }
        bcm_ww(&c, D11 + off, off ^ 0x5a5a);
    }
    qbcm43xx_core_up(c.dev, c.bar0);
    for (int i = 0; i < ARRAY_SIZE(plain); i++) {
        bcm_wl(&c, D11 + plain[i], 0x12345678 + i);
        g_assert_cmphex(bcm_rl(&c, D11 + plain[i]), ==, 0x12345678 + i);
    }
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_PHY_VER), ==, 0x9701);
    qbcm43xx_close(&c);
}

static bool intx(Card *c)
{
    return qpci_config_readw(c->dev, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

/*
 * MSI (no Linux driver of these cards enables it; a guest may): one
 * message as the card's interrupt rises, INTA# deasserted meanwhile, back
 * to INTA# when MSI is disabled.  The message goes to RAM here, where the
 * test reads it.  (Before: MSI enabled, the card kept raising INTA#.)
 */
#define MSI_CAP     0x58
#define MSI_AT      0x100000ull

static uint32_t msi_take(Card *c)
{
    uint32_t v = qtest_readl(c->qts, MSI_AT);

    qtest_writel(c->qts, MSI_AT, 0);
    return v;
}

static void test_msi(void)
{
    Card c;
    uint16_t flags;

    card_open(&c, NULL);
    boot(&c, stub784, ARRAY_SIZE(stub784));
    qpci_config_writel(c.dev, 0x94, 0x200);
    flags = qpci_config_readw(c.dev, MSI_CAP + PCI_MSI_FLAGS);
    g_assert_true(flags & PCI_MSI_FLAGS_64BIT);
    qpci_config_writel(c.dev, MSI_CAP + PCI_MSI_ADDRESS_LO, MSI_AT);
    qpci_config_writel(c.dev, MSI_CAP + PCI_MSI_ADDRESS_HI, 0);
    qpci_config_writew(c.dev, MSI_CAP + PCI_MSI_DATA_64, 0x4331);
    msi_take(&c);
    qpci_config_writew(c.dev, MSI_CAP + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE);
    g_assert_cmphex(msi_take(&c), ==, 0);       /* nothing pending */

    /* the interrupt rises: one message, no INTA# */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_cmphex(msi_take(&c), ==, 0x4331);
    g_assert_false(intx(&c));
    /* still up (another reason unmasked): no second message */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x10000001);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(msi_take(&c), ==, 0);
    /* handled (W1C), then a new reason: a new message */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x10000001);
    g_assert_cmphex(msi_take(&c), ==, 0);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(msi_take(&c), ==, 0x4331);
    g_assert_false(intx(&c));
    /* MSI off with the interrupt up: INTA# again */
    qpci_config_writew(c.dev, MSI_CAP + PCI_MSI_FLAGS, flags);
    g_assert_true(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    g_assert_false(intx(&c));
    /* MSI on again with nothing up; a level that rises sends a message */
    qpci_config_writew(c.dev, MSI_CAP + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE);
    g_assert_cmphex(msi_take(&c), ==, 0);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(msi_take(&c), ==, 0x4331);
    /* bus mastering off: the message cannot be sent (as on hardware) */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    qpci_config_writew(c.dev, PCI_COMMAND,
                       qpci_config_readw(c.dev, PCI_COMMAND) &
                       ~PCI_COMMAND_MASTER);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(msi_take(&c), ==, 0);
    g_assert_false(intx(&c));
    qbcm43xx_close(&c);
}

/* GEN_IRQ_REASON & GEN_IRQ_MASK, routed by config 0x94 bit 9 */
static void test_irq(void)
{
    Card c;

    card_open(&c, NULL);
    boot(&c, stub784, ARRAY_SIZE(stub784));
    g_assert_false(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_false(intx(&c));                   /* not routed yet */
    qpci_config_writel(c.dev, 0x94, 0x200);     /* bcma_host_pci_irq_ctl */
    g_assert_true(intx(&c));
    qpci_config_writel(c.dev, 0x94, 0x100);     /* another core's bit */
    g_assert_false(intx(&c));
    qpci_config_writel(c.dev, 0x94, 0x200);
    g_assert_true(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0);        /* hard handler masks */
    g_assert_false(intx(&c));
    /* b43's mask: no bit 0 */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x38058264);
    g_assert_false(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_true(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x1);          /* W1C */
    g_assert_false(intx(&c));
    /* the hardware rfkill switch interrupt (bit 28) */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x38058264);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON), ==, 0x10000000);
    g_assert_true(intx(&c));
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    g_assert_false(intx(&c));
    /* no DMA summary bit without a DMA reason */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_GEN_IRQ_REASON) & 0x8000, ==, 0);
    /* a core reset drops the line */
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0xffffffff);
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) | 1);
    bcm_wl(&c, D11 + A_D11_MACCTL, bcm_rl(&c, D11 + A_D11_MACCTL) & ~1u);
    g_assert_true(intx(&c));
    bcm_wl(&c, AGENT + 0x800, 1);
    g_assert_false(intx(&c));
    qbcm43xx_close(&c);
}

static uint64_t tsf(Card *c)
{
    uint32_t lo = bcm_rl(c, D11 + A_D11_TSF_LOW);

    return ((uint64_t)bcm_rl(c, D11 + A_D11_TSF_HIGH) << 32) | lo;
}

static void test_tsf(void)
{
    Card c;
    uint64_t t0, t1;

    card_open(&c, NULL);
    t0 = tsf(&c);
    qtest_clock_step(c.qts, 1500 * 1000);       /* 1.5 ms virtual */
    t1 = tsf(&c);
    g_assert_cmpuint(t1 - t0, ==, 1500);
    /* atomic write: low, then high commits */
    bcm_wl(&c, D11 + A_D11_TSF_LOW, 0xfffffff0);
    bcm_wl(&c, D11 + A_D11_TSF_HIGH, 0x1);
    g_assert_cmphex(tsf(&c), ==, 0x1fffffff0ull);
    qtest_clock_step(c.qts, 32 * 1000);
    g_assert_cmphex(tsf(&c), ==, 0x200000010ull);  /* carries into high */
    /* reading high alone gives the value latched by the last low read */
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_TSF_HIGH), ==, 0x2);
    qbcm43xx_close(&c);
}

static void test_rfkill(void)
{
    Card c;

    card_open(&c, ",rfkill=on");
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0);
    g_assert_false(qtest_qom_get_bool(c.qts, "/machine/peripheral/wifi0",
                                      "rfkill"));
    /* the switch survives core resets (it is a pin, not a register) */
    qtest_qom_set_bool(c.qts, "/machine/peripheral/wifi0", "rfkill", true);
    bcm_wl(&c, AGENT + 0x800, 1);
    qbcm43xx_core_up(c.dev, c.bar0);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
    /* read-only */
    bcm_wl(&c, D11 + A_D11_RADIO_HWENABLED_HI, 0);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
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

static void test_misc(void)
{
    uint16_t r[8];
    bool differ = false;
    Card c;

    card_open(&c, NULL);
    /* RNG: fresh values */
    for (int i = 0; i < 8; i++) {
        r[i] = bcm_rw(&c, D11 + A_D11_RNG_DATA);
        differ |= i && r[i] != r[0];
    }
    g_assert_true(differ);
    /* MAC filter: index | auto-increment, three words per address */
    bcm_ww(&c, D11 + A_D11_MACFILTER_CONTROL, 0x0023);
    bcm_ww(&c, D11 + A_D11_MACFILTER_DATA, 0x1102);
    bcm_ww(&c, D11 + A_D11_MACFILTER_DATA, 0x3322);
    bcm_ww(&c, D11 + A_D11_MACFILTER_DATA, 0x5544);
    bcm_ww(&c, D11 + A_D11_MACFILTER_CONTROL, 0x0004);
    g_assert_cmphex(bcm_rw(&c, D11 + A_D11_MACFILTER_DATA), ==, 0x3322);
    /* template RAM: byte address, 32-bit data, bounded */
    bcm_wl(&c, D11 + A_D11_RAM_CONTROL, 0x68);
    bcm_wl(&c, D11 + A_D11_RAM_DATA, 0x00a0b0c0);
    bcm_wl(&c, D11 + A_D11_RAM_CONTROL, 0x68);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RAM_DATA), ==, 0x00a0b0c0);
    bcm_wl(&c, D11 + A_D11_RAM_CONTROL, 0x100000);
    bcm_wl(&c, D11 + A_D11_RAM_DATA, 0xdeadbeef);
    bcm_wl(&c, D11 + A_D11_RAM_CONTROL, 0x68);
    g_assert_cmphex(bcm_rl(&c, D11 + A_D11_RAM_DATA), ==, 0x00a0b0c0);
    /* DMA engine state: disabled until enabled, then idle */
    g_assert_cmphex(bcm_rl(&c, D11 + 0x240 + 0x10) >> 28, ==, 0);
    bcm_wl(&c, D11 + 0x240, 0x801);
    g_assert_cmphex(bcm_rl(&c, D11 + 0x240 + 0x10) >> 28, ==, 2);
    bcm_wl(&c, D11 + 0x240, 0);
    g_assert_cmphex(bcm_rl(&c, D11 + 0x240 + 0x10) >> 28, ==, 0);
    qbcm43xx_close(&c);
}

/* the card's state survives a migration (VMState of all its parts) */
static void test_migration(void)
{
    g_autofree char *file = g_strdup_printf("%s/bcm4331-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri_out = g_strdup_printf("exec:cat > %s", file);
    g_autofree char *uri_in = g_strdup_printf("exec:cat %s", file);
    static const uint16_t bw1_ch6 = 0x3d3;
    Card c, d;
    QDict *r;

    card_open(&c, ",mac=02:11:22:33:44:55");
    boot(&c, stub784, ARRAY_SIZE(stub784));
    shm_w32(&c, 0x200, 0xfeedf00d);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x810, 0x2);
    qbcm43xx_phy_write(c.dev, c.bar0, 0x1ce, bw1_ch6);
    bcm_wl(&c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    qpci_config_writel(c.dev, 0x94, 0x200);
    g_assert_true(intx(&c));
    r = qtest_qmp(c.qts, "{ 'execute': 'migrate', 'arguments': "
                  "{ 'uri': %s } }", uri_out);
    qobject_unref(r);
    qbcm_wait_migration(c.qts);

    d.qts = qtest_initf("-M q35 -device bcm4331,addr=04.0,id=wifi0,"
                        "mac=02:11:22:33:44:55 -incoming defer");
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
    g_assert_cmphex(shm_r32(&d, 0x200), ==, 0xfeedf00d);
    g_assert_cmphex(shm_r16(&d, 0x0), ==, 784);
    g_assert_cmpuint(qom_u32(&d, "channel"), ==, 6);
    g_assert_true(intx(&d));                        /* line re-derived */
    g_free(d.dev);
    qpci_free_pc(d.bus);
    qtest_quit(d.qts);
    qbcm43xx_close(&c);
    unlink(file);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/bcm43xx/bcm4331/mac/shm", test_shm);
    qtest_add_func("/bcm43xx/bcm4331/fw/psm-handshake", test_psm_handshake);
    qtest_add_func("/bcm43xx/bcm4331/fw/real-ucode", test_real_ucode);
    qtest_add_func("/bcm43xx/bcm4331/fw/bad-ucode", test_bad_ucode);
    qtest_add_func("/bcm43xx/bcm4331/fw/initvals-anywhere",
                   test_initvals_anywhere);
    qtest_add_func("/bcm43xx/bcm4331/mac/irq", test_irq);
    qtest_add_func("/bcm43xx/bcm4331/mac/msi", test_msi);
    qtest_add_func("/bcm43xx/bcm4331/mac/tsf", test_tsf);
    qtest_add_func("/bcm43xx/bcm4331/mac/rfkill", test_rfkill);
    qtest_add_func("/bcm43xx/bcm4331/phy/radio", test_phy_radio);
    qtest_add_func("/bcm43xx/bcm4331/mac/misc", test_misc);
    qtest_add_func("/bcm43xx/bcm4331/mac/migration", test_migration);

    return g_test_run();
}
