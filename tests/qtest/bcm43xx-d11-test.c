/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the 802.11 core of the Broadcom SoftMAC cards (d11:
 * hw/net/bcm43xx/d11-core.c, d11-mac.c, d11-dma.c), on every chip of the
 * libqos graph (nodes bcm4331 and bcm43224, interface bcm43xx): shared
 * memory, the interrupt (INTx and MSI), the TSF, the rfkill pin, the RNG,
 * the MAC filter and template RAM, the DMA engines' state and ring
 * alignment, registers initvals may write.  What differs between the chips
 * comes from the chip's QBcm43xxChip.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "hw/pci/pci_regs.h"
#include "libqos/qgraph.h"
#include "libqos/bcm43xx.h"

/* b43_validate_chipaccess() and more */
static void test_shm(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    qbcm43xx_shm_w32(c, 0, 0x55aaaa55);
    g_assert_cmphex(qbcm43xx_shm_r32(c, 0), ==, 0x55aaaa55);
    qbcm43xx_shm_w32(c, 0, 0xaa5555aa);
    g_assert_cmphex(qbcm43xx_shm_r32(c, 0), ==, 0xaa5555aa);
    qbcm43xx_shm_w16(c, 0, 0x1122);
    qbcm43xx_shm_w16(c, 2, 0x3344);
    qbcm43xx_shm_w16(c, 4, 0x5566);
    qbcm43xx_shm_w16(c, 6, 0x7788);
    g_assert_cmphex(qbcm43xx_shm_r32(c, 2), ==, 0x55663344);
    qbcm43xx_shm_w32(c, 2, 0xaabbccdd);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 0), ==, 0x1122);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 2), ==, 0xccdd);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 4), ==, 0xaabb);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 6), ==, 0x7788);
    /* little-endian words: SHM byte 0x100 holds the low byte */
    qbcm43xx_shm_w32(c, 0x100, 0x04030201);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 0x100), ==, 0x0201);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 0x102), ==, 0x0403);
    /* top of the 64 KiB shared memory; beyond it: all-ones, no crash */
    qbcm43xx_shm_w16(c, 0xfffe, 0xbeef);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 0xfffe), ==, 0xbeef);
    qbcm43xx_shm_ctl(c, D11_SHM_SHARED, 0x4000);
    bcm_wl(c, D11 + A_D11_SHM_DATA, 0x12345678);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_SHM_DATA), ==, 0xffffffff);
    g_assert_cmphex(qbcm43xx_shm_r16(c, 0), ==, 0x1122);

    /* scratch: 64 16-bit registers, selected by register number */
    for (int i = 0; i < 64; i++) {
        qbcm43xx_shm_ctl(c, D11_SHM_SCRATCH, i);
        bcm_ww(c, D11 + A_D11_SHM_DATA, 0x100 + i);
    }
    qbcm43xx_shm_ctl(c, D11_SHM_SCRATCH, 7);
    g_assert_cmphex(bcm_rw(c, D11 + A_D11_SHM_DATA), ==, 0x107);
    qbcm43xx_shm_ctl(c, D11_SHM_SCRATCH, 64);
    bcm_ww(c, D11 + A_D11_SHM_DATA, 0xdead);
    qbcm43xx_shm_ctl(c, D11_SHM_SCRATCH, 0);
    g_assert_cmphex(bcm_rw(c, D11 + A_D11_SHM_DATA), ==, 0x100);

    /* RCMTA: 32-bit words */
    qbcm43xx_shm_ctl(c, D11_SHM_RCMTA, 9);
    bcm_wl(c, D11 + A_D11_SHM_DATA, 0xcafef00d);
    qbcm43xx_shm_ctl(c, D11_SHM_RCMTA, 9);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_SHM_DATA), ==, 0xcafef00d);

    /* auto-increment on write and on read */
    bcm_wl(c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_SHARED | D11_SHM_AUTOINC_W) << 16) | 0x40);
    for (int i = 0; i < 4; i++) {
        bcm_wl(c, D11 + A_D11_SHM_DATA, 0x11111111 * (i + 1));
    }
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_SHM_CONTROL) & 0xffff, ==, 0x44);
    bcm_wl(c, D11 + A_D11_SHM_CONTROL,
           ((D11_SHM_SHARED | D11_SHM_AUTOINC_R) << 16) | 0x40);
    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(bcm_rl(c, D11 + A_D11_SHM_DATA), ==,
                        0x11111111 * (i + 1));
    }
    /* a routing that does not exist: defined all-ones */
    qbcm43xx_shm_ctl(c, 7, 0);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_SHM_DATA), ==, 0xffffffff);
}



/*
 * MSI (no Linux driver of these cards enables it; a guest may): one
 * message as the card's interrupt rises, INTA# deasserted meanwhile, back
 * to INTA# when MSI is disabled.  The message goes to RAM here, where the
 * test reads it.  (Before: MSI enabled, the card kept raising INTA#.)
 */
#define MSI_AT      0x100000ull

static uint32_t msi_take(QBcm43xx *c)
{
    uint32_t v = qtest_readl(c->qts, MSI_AT);

    qtest_writel(c->qts, MSI_AT, 0);
    return v;
}

static void test_msi(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint16_t flags;

    qbcm43xx_core_up(c->dev, c->bar0);
    qbcm43xx_boot(c, qbcm43xx_stub784, ARRAY_SIZE(qbcm43xx_stub784));
    qpci_config_writel(c->dev, 0x94, 0x200);
    flags = qpci_config_readw(c->dev, c->chip->msi_cap + PCI_MSI_FLAGS);
    g_assert_true(flags & PCI_MSI_FLAGS_64BIT);
    qpci_config_writel(c->dev, c->chip->msi_cap + PCI_MSI_ADDRESS_LO, MSI_AT);
    qpci_config_writel(c->dev, c->chip->msi_cap + PCI_MSI_ADDRESS_HI, 0);
    qpci_config_writew(c->dev, c->chip->msi_cap + PCI_MSI_DATA_64, 0x4331);
    msi_take(c);
    qpci_config_writew(c->dev, c->chip->msi_cap + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE);
    g_assert_cmphex(msi_take(c), ==, 0);       /* nothing pending */

    /* the interrupt rises: one message, no INTA# */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_cmphex(msi_take(c), ==, 0x4331);
    g_assert_false(qbcm43xx_intx(c));
    /* still up (another reason unmasked): no second message */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x10000001);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(msi_take(c), ==, 0);
    /* handled (W1C), then a new reason: a new message */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x10000001);
    g_assert_cmphex(msi_take(c), ==, 0);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(msi_take(c), ==, 0x4331);
    g_assert_false(qbcm43xx_intx(c));
    /* MSI off with the interrupt up: INTA# again */
    qpci_config_writew(c->dev, c->chip->msi_cap + PCI_MSI_FLAGS, flags);
    g_assert_true(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    g_assert_false(qbcm43xx_intx(c));
    /* MSI on again with nothing up; a level that rises sends a message */
    qpci_config_writew(c->dev, c->chip->msi_cap + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE);
    g_assert_cmphex(msi_take(c), ==, 0);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(msi_take(c), ==, 0x4331);
    /* bus mastering off: the message cannot be sent (as on hardware) */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    qpci_config_writew(c->dev, PCI_COMMAND,
                       qpci_config_readw(c->dev, PCI_COMMAND) &
                       ~PCI_COMMAND_MASTER);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(msi_take(c), ==, 0);
    g_assert_false(qbcm43xx_intx(c));
}

/* GEN_IRQ_REASON & GEN_IRQ_MASK, routed by config 0x94 bit 9 */
static void test_irq(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    qbcm43xx_boot(c, qbcm43xx_stub784, ARRAY_SIZE(qbcm43xx_stub784));
    g_assert_false(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_false(qbcm43xx_intx(c));                   /* not routed yet */
    qpci_config_writel(c->dev, 0x94, 0x200);     /* bcma_host_pci_irq_ctl */
    g_assert_true(qbcm43xx_intx(c));
    qpci_config_writel(c->dev, 0x94, 0x100);     /* another core's bit */
    g_assert_false(qbcm43xx_intx(c));
    qpci_config_writel(c->dev, 0x94, 0x200);
    g_assert_true(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0);        /* hard handler masks */
    g_assert_false(qbcm43xx_intx(c));
    /* b43's mask: no bit 0 */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x38058264);
    g_assert_false(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x1);
    g_assert_true(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x1);          /* W1C */
    g_assert_false(qbcm43xx_intx(c));
    /* the hardware rfkill switch interrupt (bit 28) */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0x38058264);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", true);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_GEN_IRQ_REASON), ==, 0x10000000);
    g_assert_true(qbcm43xx_intx(c));
    bcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x10000000);
    g_assert_false(qbcm43xx_intx(c));
    /* no DMA summary bit without a DMA reason */
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_GEN_IRQ_REASON) & 0x8000, ==, 0);
    /* a core reset drops the line */
    bcm_wl(c, D11 + A_D11_GEN_IRQ_MASK, 0xffffffff);
    bcm_wl(c, D11 + A_D11_MACCTL, bcm_rl(c, D11 + A_D11_MACCTL) | 1);
    bcm_wl(c, D11 + A_D11_MACCTL, bcm_rl(c, D11 + A_D11_MACCTL) & ~1u);
    g_assert_true(qbcm43xx_intx(c));
    bcm_wl(c, AGENT + 0x800, 1);
    g_assert_false(qbcm43xx_intx(c));
}

static uint64_t tsf(QBcm43xx *c)
{
    uint32_t lo = bcm_rl(c, D11 + A_D11_TSF_LOW);

    return ((uint64_t)bcm_rl(c, D11 + A_D11_TSF_HIGH) << 32) | lo;
}

static void test_tsf(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint64_t t0, t1;

    qbcm43xx_core_up(c->dev, c->bar0);
    t0 = tsf(c);
    qtest_clock_step(c->qts, 1500 * 1000);       /* 1.5 ms virtual */
    t1 = tsf(c);
    g_assert_cmpuint(t1 - t0, ==, 1500);
    /* atomic write: low, then high commits */
    bcm_wl(c, D11 + A_D11_TSF_LOW, 0xfffffff0);
    bcm_wl(c, D11 + A_D11_TSF_HIGH, 0x1);
    g_assert_cmphex(tsf(c), ==, 0x1fffffff0ull);
    qtest_clock_step(c->qts, 32 * 1000);
    g_assert_cmphex(tsf(c), ==, 0x200000010ull);  /* carries into high */
    /* reading high alone gives the value latched by the last low read */
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_TSF_HIGH), ==, 0x2);
}

/* with rfkill=on (the test's edge options) */
static void test_rfkill(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", false);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0);
    g_assert_false(qtest_qom_get_bool(c->qts, "/machine/peripheral/wifi0",
                                      "rfkill"));
    /* the switch survives core resets (it is a pin, not a register) */
    qtest_qom_set_bool(c->qts, "/machine/peripheral/wifi0", "rfkill", true);
    bcm_wl(c, AGENT + 0x800, 1);
    qbcm43xx_core_up(c->dev, c->bar0);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
    /* read-only */
    bcm_wl(c, D11 + A_D11_RADIO_HWENABLED_HI, 0);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RADIO_HWENABLED_HI) & 0x10000, ==,
                    0x10000);
}

static void test_misc(void *obj, void *data, QGuestAllocator *alloc)
{
    uint16_t r[8];
    bool differ = false;
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    /* RNG: fresh values */
    for (int i = 0; i < 8; i++) {
        r[i] = bcm_rw(c, D11 + A_D11_RNG_DATA);
        differ |= i && r[i] != r[0];
    }
    g_assert_true(differ);
    /* MAC filter: index | auto-increment, three words per address */
    bcm_ww(c, D11 + A_D11_MACFILTER_CONTROL, 0x0023);
    bcm_ww(c, D11 + A_D11_MACFILTER_DATA, 0x1102);
    bcm_ww(c, D11 + A_D11_MACFILTER_DATA, 0x3322);
    bcm_ww(c, D11 + A_D11_MACFILTER_DATA, 0x5544);
    bcm_ww(c, D11 + A_D11_MACFILTER_CONTROL, 0x0004);
    g_assert_cmphex(bcm_rw(c, D11 + A_D11_MACFILTER_DATA), ==, 0x3322);
    /* template RAM: byte address, 32-bit data, bounded */
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x68);
    bcm_wl(c, D11 + A_D11_RAM_DATA, 0x00a0b0c0);
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x68);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RAM_DATA), ==, 0x00a0b0c0);
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x100000);
    bcm_wl(c, D11 + A_D11_RAM_DATA, 0xdeadbeef);
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x68);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RAM_DATA), ==, 0x00a0b0c0);
    /* DMA engine state: disabled until enabled, then idle */
    g_assert_cmphex(bcm_rl(c, D11 + 0x240 + 0x10) >> 28, ==, 0);
    bcm_wl(c, D11 + 0x240, 0x801);
    g_assert_cmphex(bcm_rl(c, D11 + 0x240 + 0x10) >> 28, ==, 2);
    bcm_wl(c, D11 + 0x240, 0);
    g_assert_cmphex(bcm_rl(c, D11 + 0x240 + 0x10) >> 28, ==, 0);
}

/*
 * Initvals may write anything below 0x1000: every plain register stores
 * and reads back; the device does not crash on any offset.
 */
static void test_initvals_anywhere(void *obj, void *data,
                                   QGuestAllocator *alloc)
{
    static const uint32_t plain[] = {
        0x100, 0x43c, 0x492, 0x49c, 0x612, 0x62c, 0x630, 0x684, 0x688,
        0x6a8, 0x800, 0xffc,
    };
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    for (uint32_t off = 0; off < 0x1000; off += 2) {
        if (off == 0x1e0 || off == 0x1e2) {
            continue;       /* bcma clock control */
        }
        bcm_ww(c, D11 + off, off ^ 0x5a5a);
    }
    qbcm43xx_core_up(c->dev, c->bar0);
    for (int i = 0; i < ARRAY_SIZE(plain); i++) {
        bcm_wl(c, D11 + plain[i], 0x12345678 + i);
        g_assert_cmphex(bcm_rl(c, D11 + plain[i]), ==, 0x12345678 + i);
    }
    g_assert_cmphex(bcm_rw(c, D11 + A_D11_PHY_VER), ==, c->chip->phy_ver);
}

/*
 * brcmsmac's _dma_descriptor_align(): on a chip whose rings start on 4 KiB
 * 0xff0 reads back 0; elsewhere (the BCM4331, b43 aligns its rings
 * itself) the ring address reads back as written
 */
static void test_dma_align(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint32_t low = c->chip->dma_ring_aligned ? 0 : 0xff0;

    qbcm43xx_core_up(c->dev, c->bar0);
    for (unsigned e = 0; e < 6; e++) {
        uint32_t tx = D11 + D11_DMA_ENGINE(e) + D11_DMA64_TXRINGLO;
        uint32_t rx = D11 + D11_DMA_ENGINE(e) + D11_DMA64_RXRINGLO;

        bcm_wl(c, tx, 0xff0);
        g_assert_cmphex(bcm_rl(c, tx), ==, low);
        bcm_wl(c, rx, 0x12345ff0);
        g_assert_cmphex(bcm_rl(c, rx), ==, 0x12345000 | low);
    }
}

/*
 * brcms_b_write_template_ram(): the address once, then the words; the
 * write pointer advances (the beacon a brcmsmac AP sends is this)
 */
static void test_template(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;

    qbcm43xx_core_up(c->dev, c->bar0);
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x468);
    for (uint32_t i = 0; i < 4; i++) {
        bcm_wl(c, D11 + A_D11_RAM_DATA, 0x11111111 * (i + 1));
    }
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RAM_CONTROL), ==, 0x478);
    for (uint32_t i = 0; i < 4; i++) {
        bcm_wl(c, D11 + A_D11_RAM_CONTROL, 0x468 + 4 * i);
        g_assert_cmphex(bcm_rl(c, D11 + A_D11_RAM_DATA), ==,
                        0x11111111 * (i + 1));
    }
    /* the pointer wraps within the template RAM */
    bcm_wl(c, D11 + A_D11_RAM_CONTROL, D11_TEMPLATE_SIZE - 4);
    bcm_wl(c, D11 + A_D11_RAM_DATA, 0xcafe);
    g_assert_cmphex(bcm_rl(c, D11 + A_D11_RAM_CONTROL), ==, 0);
}

static void hostile_set(QBcm43xx *c, const char *path, bool ok)
{
    QDict *r = qtest_qmp(c->qts, "{ 'execute': 'qom-set', 'arguments': "
                         "{ 'path': '/machine/peripheral/wifi0', "
                         "'property': 'hostile', 'value': %s } }", path);

    g_assert(qdict_haskey(r, ok ? "return" : "error"));
    qobject_unref(r);
}

static uint64_t hostile_get(QBcm43xx *c, const char *prop)
{
    QDict *r = qtest_qmp(c->qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': '/machine/peripheral/wifi0', "
                         "'property': %s } }", prop);
    uint64_t v = qdict_get_int(r, "return");

    qobject_unref(r);
    return v;
}

static char *hostile_file(const uint8_t *in, size_t len)
{
    char *path = NULL;
    int fd = g_file_open_tmp("bcm-hostile-XXXXXX", &path, NULL);

    g_assert(fd >= 0);
    g_assert_cmpint(write(fd, in, len), ==, len);
    close(fd);
    return path;
}

/*
 * The hostile card (hw/net/bcm43xx/hostile.h): off, the card is honest; a
 * loaded input changes the values at its sites in the order the reads
 * come, one decision each, and nothing else (registers that are no site
 * consume nothing, the card's own state stays); exhausted, the card is
 * honest again; a missing file is refused, the input kept.
 */
static void test_hostile(void *obj, void *data, QGuestAllocator *alloc)
{
    QBcm43xx *c = obj;
    uint32_t rxst = D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS;
    uint32_t irq = D11 + A_D11_GEN_IRQ_REASON;
    /* RXSTATUS replaced; the reason's bit 3 flipped; RXSTATUS honest */
    static const uint8_t in[] = { 5, 0x78, 0x56, 0x34, 0x12, 7, 3, 0 };
    g_autofree char *path = hostile_file(in, sizeof(in));
    uint32_t st, reason;

    qbcm43xx_core_up(c->dev, c->bar0);
    bcm_wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXRINGLO, 0x10000);
    bcm_wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXCTL, 1);
    st = bcm_rl(c, rxst);
    reason = bcm_rl(c, irq);
    g_assert_cmpuint(hostile_get(c, "hostile-consumed"), ==, 0);

    hostile_set(c, path, true);
    bcm_rl(c, D11 + A_D11_MACCTL);          /* no site: nothing consumed */
    g_assert_cmpuint(hostile_get(c, "hostile-consumed"), ==, 0);
    g_assert_cmphex(bcm_rl(c, rxst), ==, 0x12345678);
    g_assert_cmphex(bcm_rl(c, irq), ==, reason ^ 8);
    g_assert_cmphex(bcm_rl(c, rxst), ==, st);
    g_assert_cmpuint(hostile_get(c, "hostile-consumed"), ==, sizeof(in));
    g_assert_cmpuint(hostile_get(c, "hostile-perturbed"), ==, 2);
    /* exhausted: honest, and the card's state was never changed */
    g_assert_cmphex(bcm_rl(c, rxst), ==, st);
    g_assert_cmphex(bcm_rl(c, irq), ==, reason);

    /* a missing file is refused; a reload starts from the beginning */
    hostile_set(c, "/nonexistent/bcm-hostile", false);
    hostile_set(c, path, true);
    g_assert_cmpuint(hostile_get(c, "hostile-consumed"), ==, 0);
    g_assert_cmphex(bcm_rl(c, rxst), ==, 0x12345678);
    /* off */
    hostile_set(c, "", true);
    g_assert_cmphex(bcm_rl(c, irq), ==, reason);
    g_assert_cmpuint(hostile_get(c, "hostile-consumed"), ==, 0);
    unlink(path);
}

static void register_bcm43xx_d11_test(void)
{
    QOSGraphTestOptions rfkill = {
        .edge.extra_device_opts = "rfkill=on",
    };

    qos_add_test("mac/shm", "bcm43xx", test_shm, NULL);
    qos_add_test("mac/tsf", "bcm43xx", test_tsf, NULL);
    qos_add_test("mac/misc", "bcm43xx", test_misc, NULL);
    qos_add_test("mac/template", "bcm43xx", test_template, NULL);
    qos_add_test("mac/rfkill", "bcm43xx", test_rfkill, &rfkill);
    qos_add_test("mac/msi", "bcm43xx", test_msi, NULL);
    qos_add_test("mac/irq", "bcm43xx", test_irq, NULL);
    qos_add_test("dma/align", "bcm43xx", test_dma_align, NULL);
    qos_add_test("hostile/registers", "bcm43xx", test_hostile, NULL);
    qos_add_test("fw/initvals-anywhere", "bcm43xx", test_initvals_anywhere,
                 NULL);
}

libqos_init(register_bcm43xx_d11_test);
