/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libqos driver steps for the bcm4331 and the bcm43224 (see bcm43xx.h),
 * and their libqos graph nodes.  The values are what b43 writes:
 * drivers/net/wireless/broadcom/b43/main.c (b43_bcma_wireless_core_reset,
 * b43_upload_microcode, b43_chip_init, b43_mac_enable), dma.c
 * (b43_dma_init), phy_ht.c (channel 6).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qobject/qlist.h"
#include "hw/pci/pci_regs.h"
#include "pci-pc.h"
#include "qgraph.h"
#include "net/wifi/ieee80211.h"
#include <sys/socket.h>
#include <sys/un.h>
#include "bcm43xx.h"

static const QBcm43xxChip qbcm43xx_chips[] = {
    {
        .name = "bcm4331", .device_id = 0x4331, .revision = 0x02,
        .chip_id = 0x4331, .chip_rev = 2, .package = 9,
        .cc_rev = 0x25, .d11_rev = 0x1d, .pcie_rev = 0x13,
        .d11_iost = 0x1003,         /* DMA64, 2 GHz, 5 GHz */
        .sprom_rev = 9, .msi_cap = 0x58, .phy_ver = 0x9701, .rxh_power = 0x09,
        .rf_pu_reg = HTPHY_RF_CTL_CMD, .rf_pu_bit = HTPHY_RF_CTL_CHIP0_PU,
    }, {
        .name = "bcm43224", .device_id = 0x4353, .revision = 0x01,
        .chip_id = 0xa8d8, .chip_rev = 1, .package = 8,
        .cc_rev = 0x22, .d11_rev = 0x17, .pcie_rev = 0x0f,
        .d11_iost = 0x100f,         /* ... dual band, fast clock */
        .sprom_rev = 8, .msi_cap = 0x48, .phy_ver = 0x8406, .rxh_power = 0x06,
        .dma_ring_aligned = true,
        .rf_pu_reg = 0x078, .rf_pu_bit = 0x0400,    /* N-PHY RFCTRL_CMD */
    },
};

const QBcm43xxChip *qbcm43xx_chip(uint16_t device_id)
{
    for (int i = 0; i < ARRAY_SIZE(qbcm43xx_chips); i++) {
        if (qbcm43xx_chips[i].device_id == device_id) {
            return &qbcm43xx_chips[i];
        }
    }
    return NULL;
}

void qbcm43xx_open(QBcm43xx *c, const char *fmt, ...)
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
    c->chip = qbcm43xx_chip(qpci_config_readw(c->dev, PCI_DEVICE_ID));
    g_assert_nonnull(c->chip);
}

void qbcm43xx_close(QBcm43xx *c)
{
    g_free(c->dev);
    qpci_free_pc(c->bus);
    qtest_quit(c->qts);
}

uint32_t bcm_rl(QBcm43xx *c, uint32_t off)
{
    return qpci_io_readl(c->dev, c->bar0, off);
}

void bcm_wl(QBcm43xx *c, uint32_t off, uint32_t v)
{
    qpci_io_writel(c->dev, c->bar0, off, v);
}

uint16_t bcm_rw(QBcm43xx *c, uint32_t off)
{
    return qpci_io_readw(c->dev, c->bar0, off);
}

void bcm_ww(QBcm43xx *c, uint32_t off, uint16_t v)
{
    qpci_io_writew(c->dev, c->bar0, off, v);
}

uint8_t qbcm43xx_sprom_crc(const uint16_t *w, unsigned n)
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

void qbcm43xx_read_sprom(QBcm43xx *c, uint16_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        w[i] = bcm_rw(c, BCMA_BAR0_CC + 0x800 + 2 * i);
    }
}

void qbcm43xx_shm_ctl(QBcm43xx *c, uint32_t routing, uint32_t off)
{
    bcm_wl(c, D11 + A_D11_SHM_CONTROL, (routing << 16) | off);
}

void qbcm43xx_shm_w16(QBcm43xx *c, uint32_t b, uint16_t v)
{
    qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
    bcm_ww(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED : A_D11_SHM_DATA), v);
}

uint16_t qbcm43xx_shm_r16(QBcm43xx *c, uint32_t b)
{
    qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
    return bcm_rw(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED
                                    : A_D11_SHM_DATA));
}

void qbcm43xx_shm_w32(QBcm43xx *c, uint32_t b, uint32_t v)
{
    if (b & 2) {
        qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
        bcm_ww(c, D11 + A_D11_SHM_DATA_UNALIGNED, v & 0xffff);
        qbcm43xx_shm_ctl(c, D11_SHM_SHARED, (b >> 2) + 1);
        bcm_ww(c, D11 + A_D11_SHM_DATA, v >> 16);
    } else {
        qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
        bcm_wl(c, D11 + A_D11_SHM_DATA, v);
    }
}

uint32_t qbcm43xx_shm_r32(QBcm43xx *c, uint32_t b)
{
    uint32_t v;

    if (b & 2) {
        qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
        v = bcm_rw(c, D11 + A_D11_SHM_DATA_UNALIGNED);
        qbcm43xx_shm_ctl(c, D11_SHM_SHARED, (b >> 2) + 1);
        return v | ((uint32_t)bcm_rw(c, D11 + A_D11_SHM_DATA) << 16);
    }
    qbcm43xx_shm_ctl(c, D11_SHM_SHARED, b >> 2);
    return bcm_rl(c, D11 + A_D11_SHM_DATA);
}

bool qbcm43xx_intx(QBcm43xx *c)
{
    return qpci_config_readw(c->dev, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

const uint32_t qbcm43xx_stub784[6] = {
    0x51454d55, 0x484c4531, 0x03100002, 0xc80fac73, 0x00000000, 0x62636d34,
};

uint32_t qbcm43xx_boot(QBcm43xx *c, const uint32_t *words, unsigned n)
{
    bcm_wl(c, D11 + A_D11_MACCTL, 0x80020500);
    bcm_wl(c, D11 + A_D11_MACCTL, bcm_rl(c, D11 + A_D11_MACCTL) | 0x4);
    for (int i = 0; i < 64; i++) {
        qbcm43xx_shm_ctl(c, D11_SHM_SCRATCH, i);
        bcm_ww(c, D11 + A_D11_SHM_DATA, 0);
    }
    for (int i = 0; i < 4096; i += 2) {
        qbcm43xx_shm_w16(c, i, 0);
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

/* b43_bcma_wireless_core_reset(): windows, bcma_core_enable(), clocks */
void qbcm43xx_core_up(QPCIDevice *dev, QPCIBar bar0)
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
uint32_t qbcm43xx_fw_start(QPCIDevice *dev, QPCIBar bar0)
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

void qbcm43xx_scratch_write(QPCIDevice *dev, QPCIBar bar0, unsigned reg,
                            uint16_t v)
{
    qpci_io_writel(dev, bar0, D11 + A_D11_SHM_CONTROL,
                   (D11_SHM_SCRATCH << 16) | reg);
    qpci_io_writew(dev, bar0, D11 + A_D11_SHM_DATA, v);
}

void qbcm43xx_phy_write(QPCIDevice *dev, QPCIBar bar0, uint16_t reg,
                        uint16_t v)
{
    qpci_io_writew(dev, bar0, D11 + A_D11_PHY_CONTROL, reg);
    qpci_io_writew(dev, bar0, D11 + A_D11_PHY_DATA, v);
}

/*
 * b43_chip_init() and the channel switch: retry limits 7/4, @mac in the
 * receive address filter, the radio powered (the chip's PHY register),
 * channel 6 (the BW1 word of the 2059 table; the 2056's is the same).
 */
void qbcm43xx_radio_up(QPCIDevice *dev, QPCIBar bar0, const uint8_t *mac)
{
    const QBcm43xxChip *chip = qbcm43xx_chip(qpci_config_readw(dev,
                                                               PCI_DEVICE_ID));

    g_assert_nonnull(chip);
    qbcm43xx_scratch_write(dev, bar0, D11_SHM_SC_SRLIMIT, 7);
    qbcm43xx_scratch_write(dev, bar0, D11_SHM_SC_LRLIMIT, 4);
    qpci_io_writew(dev, bar0, D11 + A_D11_MACFILTER_CONTROL, 0x20);
    for (int k = 0; k < 3; k++) {
        qpci_io_writew(dev, bar0, D11 + A_D11_MACFILTER_DATA,
                       mac[2 * k] | (mac[2 * k + 1] << 8));
    }
    qbcm43xx_phy_write(dev, bar0, chip->rf_pu_reg, chip->rf_pu_bit);
    /* channel 6: BW1 (HT-PHY) or BW1a (N-PHY), both PHY 0x1CE */
    qbcm43xx_phy_write(dev, bar0, HTPHY_BW1, 0x3d3);
}

/* a 64-bit ring as b43 sets it up: enabled, b43's PCIe translation bit */
void qbcm43xx_set_ring(QPCIDevice *dev, QPCIBar bar0, unsigned engine,
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
void qbcm43xx_enable(QPCIDevice *dev, QPCIBar bar0)
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

/* poll query-migrate until the migration has completed */
void qbcm_wait_migration(QTestState *qts)
{
    for (int i = 0; i < 2000; i++) {
        QDict *r = qtest_qmp(qts, "{ 'execute': 'query-migrate' }");
        QDict *ret = qdict_get_qdict(r, "return");
        const char *st = ret && qdict_haskey(ret, "status") ?
                         qdict_get_str(ret, "status") : "";
        bool done = !strcmp(st, "completed");

        g_assert_cmpstr(st, !=, "failed");
        qobject_unref(r);
        if (done) {
            return;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

uint32_t qbcm_rl(QBcmCard *c, uint32_t off)
{
    return qpci_io_readl(c->dev, c->bar0, off);
}

/* the current descriptor (bytes) of TX engine 1 and RX engine 0 */
uint32_t qbcm_tx_cd(QBcmCard *c)
{
    return qbcm_rl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS) & 0x1fff;
}

uint32_t qbcm_rx_cd(QBcmCard *c)
{
    return qbcm_rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff;
}

void qbcm_wl(QBcmCard *c, uint32_t off, uint32_t v)
{
    qpci_io_writel(c->dev, c->bar0, off, v);
}

void qbcm_ww(QBcmCard *c, uint32_t off, uint16_t v)
{
    qpci_io_writew(c->dev, c->bar0, off, v);
}

void qbcm_scratch_w(QBcmCard *c, unsigned reg, uint16_t v)
{
    qbcm43xx_scratch_write(c->dev, c->bar0, reg, v);
}

/* a 64-bit descriptor, with b43's PCIe translation bit in the high word */
void qbcm_desc(QBcmAir *a, uint64_t at, uint32_t ctl0, uint32_t len,
               uint64_t addr)
{
    uint32_t d[4] = {
        cpu_to_le32(ctl0),
        cpu_to_le32(len | ((addr >> 62) << 16)),
        cpu_to_le32(addr),
        cpu_to_le32(((addr >> 32) & 0x3fffffff) | 0x80000000),
    };

    qtest_memwrite(a->qts, at, d, sizeof(d));
}

void qbcm_set_ring(QBcmCard *c, unsigned n, bool rx, uint64_t base)
{
    qbcm43xx_set_ring(c->dev, c->bar0, n, rx, base);
}

/* what b43 does up to a running interface, channel 6 */
void qbcm_card_up(QBcmAir *a, QBcmCard *c, unsigned i)
{
    c->dev = qpci_device_find(a->bus, c->devfn ? c->devfn
                                                : QPCI_DEVFN(4 + i, 0));
    g_assert_nonnull(c->dev);
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
    c->chip = qbcm43xx_chip(qpci_config_readw(c->dev, PCI_DEVICE_ID));
    g_assert_nonnull(c->chip);
    qbcm43xx_core_up(c->dev, c->bar0);
    g_assert_cmphex(qbcm43xx_fw_start(c->dev, c->bar0), ==, 1);
    qbcm43xx_radio_up(c->dev, c->bar0, c->mac);
    /* rings: TX on engine 1 (b43's only data ring here), RX on engine 0 */
    qbcm_set_ring(c, 1, false, c->txring);
    for (int k = 0; k < 256; k++) {
        qbcm_desc(a, c->rxring + 16 * k,
                  k == 255 ? D11_DESC_CTL0_DTABLEEND : 0,
                  D11_RX_FW598_BUFSIZE, c->rxbuf + 2400 * k);
    }
    qbcm_set_ring(c, 0, true, c->rxring);
    qbcm43xx_enable(c->dev, c->bar0);
}

/*
 * Layouts: card i at 0x1000000 * (i + 1) in low memory (8 KiB-aligned
 * rings), or above 4 GiB when @high.
 */
GString *qbcm_air_cmdline(const QBcmAirOpts *o, int ncards,
                          const char *extra)
{
    GString *cmd = g_string_new(o && o->machine ? o->machine
                                                : "-M q35 -m 5G");

    g_string_append(cmd, " -object wifi-medium,id=air0");

    if (o && o->link) {
        g_string_append(cmd, ",netdev=l0");
    }
    if (o && o->medium) {
        g_string_append(cmd, o->medium);
    }
    if (o && o->more) {
        g_string_append_printf(cmd, " %s", o->more);
    }
    for (int i = 0; i < ncards; i++) {
        g_string_append_printf(cmd, " -device %s,id=card%d,addr=%02x.0,"
                               "medium=air0,mac=02:00:00:00:00:%02x%s",
                               o && o->chip ? o->chip : "bcm4331", i,
                               4 + i, i + 1,
                               extra && i == ncards - 1 ? extra : "");
    }
    return cmd;
}

/*
 * QBcmCard number @i's address 02:00:00:00:00:<i+1> and its memory: rings and
 * buffers at @base + 16 MiB * (i + 1); @devfn as in QBcmCard (0: slot 4 + i).
 */
void qbcm_card_layout(QBcmCard *c, unsigned i, uint64_t base, int devfn)
{
    base += 0x1000000ull * (i + 1);
    memset(c->mac, 0, 6);
    c->mac[0] = 2;
    c->mac[5] = i + 1;
    c->txring = base;
    c->rxring = base + 0x2000;
    c->txbuf = base + 0x10000;
    c->rxbuf = base + 0x100000;
    c->txslot = 0;
    c->devfn = devfn;
}

/* @ncards cards on one air (@extra: more properties of the last one) */
void qbcm_air_open(QBcmAir *a, int ncards, const char *extra,
                   const QBcmAirOpts *o)
{
    GString *cmd = qbcm_air_cmdline(o, ncards, extra);
    bool high = o && o->high;

    a->qts = qtest_init(cmd->str);
    g_string_free(cmd, true);
    a->bus = qpci_new_pc(a->qts, NULL);
    for (int i = 0; i < ncards; i++) {
        qbcm_card_layout(&a->c[i], i, high ? 0x100000000ull : 0, 0);
        qbcm_card_up(a, &a->c[i], i);
    }
}

void qbcm_air_close(QBcmAir *a, int ncards)
{
    for (int i = 0; i < ncards; i++) {
        g_free(a->c[i].dev);
    }
    qpci_free_pc(a->bus);
    qtest_quit(a->qts);
}

/* the cookie of the next frame posted on @c's engine 1 */
uint16_t qbcm_next_cookie(QBcmCard *c)
{
    return (2 << 12) | c->txslot;
}

/*
 * Post TX header @h and @frame on @c's engine 1 the way b43's
 * dma_tx_fragment() does: two descriptors, the header's buffer and the
 * frame's, then the new TXINDEX
 */
void qbcm_post_txh(QBcmAir *a, QBcmCard *c, const uint8_t *h,
                   const uint8_t *frame, size_t len)
{
    unsigned slot = c->txslot;
    uint64_t hb = c->txbuf + slot * 4096;

    qtest_memwrite(a->qts, hb, h, D11_TXH_LEN);
    qtest_memwrite(a->qts, hb + 256, frame, len);
    qbcm_desc(a, c->txring + 16 * slot, D11_DESC_CTL0_SOF, D11_TXH_LEN, hb);
    qbcm_desc(a, c->txring + 16 * (slot + 1),
              D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC,
         len, hb + 256);
    c->txslot = slot + 2;
    qbcm_wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, c->txslot * 16);
}

/* post one frame on engine 1 the way b43's dma_tx_fragment() does */
uint16_t qbcm_post_ctl(QBcmAir *a, QBcmCard *c, const uint8_t *frame,
                       size_t len, uint32_t mac_ctl, uint8_t plcp0,
                       bool ofdm)
{
    uint8_t h[D11_TXH_LEN] = { 0 };
    uint16_t cookie = qbcm_next_cookie(c);

    stl_le_p(h, mac_ctl);
    stw_le_p(h + 0x08, ofdm ? 1 : 0);
    stw_le_p(h + 0x4c, cookie);
    h[0x70] = plcp0;
    qbcm_post_txh(a, c, h, frame, len);
    return cookie;
}

uint16_t qbcm_post(QBcmAir *a, QBcmCard *c, const uint8_t *frame, size_t len,
                   bool ack, uint8_t plcp0, bool ofdm)
{
    /* ACK, LONGFRAME */
    return qbcm_post_ctl(a, c, frame, len, ack ? 0x3 : 0x2,
                    plcp0, ofdm);
}

/* let the bottom halves run: poll until @bits appear in GEN_IRQ_REASON */
bool qbcm_wait_reason(QBcmCard *c, uint32_t bits)
{
    for (int i = 0; i < 200; i++) {
        if ((qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON) & bits) == bits) {
            return true;
        }
    }
    return false;
}

/* IEEE 802.3 CRC-32 (the 802.11 FCS), bitwise: an independent check */
uint32_t qbcm_fcs32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffff;

    while (n--) {
        c ^= *p++;
        for (int b = 0; b < 8; b++) {
            c = (c & 1) ? (c >> 1) ^ 0xedb88320 : c >> 1;
        }
    }
    return ~c;
}

size_t qbcm_frame(uint8_t *f, const uint8_t *a1, const uint8_t *a2,
                  size_t body)
{
    memset(f, 0, 24 + body);
    f[0] = 0x08;                            /* data */
    f[1] = 0x01;                            /* to DS */
    memcpy(f + 4, a1, 6);
    memcpy(f + 10, a2, 6);
    memcpy(f + 16, a1, 6);
    stw_le_p(f + 22, 0x1230);
    for (size_t i = 0; i < body; i++) {
        f[24 + i] = i * 7;
    }
    return 24 + body;
}

const uint8_t qbcm_peer_sta[6] = { 2, 7, 7, 7, 7, 7 };

/* a peer process on the netdev: length-prefixed frames (-netdev stream) */
void qbcm_peer_send(int fd, const uint8_t *buf, uint32_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(write(fd, &be, 4), ==, 4);
    if (len) {
        g_assert_cmpint(write(fd, buf, len), ==, len);
    }
}

size_t qbcm_air_frame(uint8_t *out, const uint8_t *a1, uint16_t flen,
                      uint8_t version)
{
    uint8_t *h = out + 14;

    memset(out, 0xff, 6);
    memset(out + 6, 0x02, 6);
    out[12] = 0x88;
    out[13] = 0xb5;
    memset(h, 0, QBCM_AIR_HDR);
    h[0] = version;
    h[1] = 1;                               /* OFDM */
    stw_be_p(h + 2, QBCM_AIR_HDR);
    stq_be_p(h + 4, 0x1234);                /* another sender */
    stl_be_p(h + 12, 2437);
    h[16] = 10;
    stw_be_p(h + 18, 108);
    stw_be_p(h + 44, flen);
    memcpy(h + 48, qbcm_peer_sta, 6);            /* the radio */
    qbcm_frame(h + QBCM_AIR_HDR, a1, qbcm_peer_sta, flen - 24);
    return 14 + QBCM_AIR_HDR + flen;
}

/*
 * Connect to a stream netdev QEMU serves on the Unix socket @path (it
 * listens asynchronously: wait for it, 30 s at most, then for
 * NETDEV_STREAM_CONNECTED); a receive waits 30 s at most, then fails
 */
int qbcm_stream_connect(QTestState *qts, const char *path)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    g_strlcpy(sa.sun_path, path, sizeof(sa.sun_path));
    for (int i = 0;; i++) {
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        g_assert_cmpint(fd, >=, 0);
        if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
            break;
        }
        g_assert_true(errno == ENOENT || errno == ECONNREFUSED);
        g_assert_cmpint(i, <, 3000);
        close(fd);
        g_usleep(10 * 1000);
    }
    /*
     * connect() succeeds once QEMU's worker thread listens, before the
     * main loop has accepted us; until then the netdev has no channel
     * (unpatched QEMU 10.0 crashed on the first frame sent meanwhile;
     * scripts/overlay.sh's qemu-fix keeps its link down) and what it
     * should carry is dropped.  NETDEV_STREAM_CONNECTED comes after.
     */
    qtest_qmp_eventwait(qts, "NETDEV_STREAM_CONNECTED");
    g_assert_cmpint(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO,
                               &(struct timeval){ .tv_sec = 30 },
                               sizeof(struct timeval)), ==, 0);
    return fd;
}

int qbcm_peer_open(QBcmAir *a, QBcmPeer *p, const char *chip,
                   const char *opts)
{
    g_autofree char *more = NULL;

    p->dir = g_dir_make_tmp("bcm4331-peer-XXXXXX", NULL);
    p->sock = g_strdup_printf("%s/air.sock", p->dir);
    more = g_strdup_printf("-netdev stream,id=l0,server=on,addr.type=unix,"
                           "addr.path=%s", p->sock);
    qbcm_air_open(a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip, .more = more, .link = true, .medium = opts,
    });
    p->fd = qbcm_stream_connect(a->qts, p->sock);
    return p->fd;
}

void qbcm_peer_close(QBcmAir *a, QBcmPeer *p)
{
    close(p->fd);
    qbcm_air_close(a, 1);
    unlink(p->sock);
    rmdir(p->dir);
    g_free(p->sock);
    g_free(p->dir);
}

/* the next air frame from the medium on the stream socket (10 s at most) */
/*
 * The peer's station makes itself heard with a broadcast frame (the
 * medium learns it lives over there); card @c receives it.  Later reads
 * on @fd time out after 10 s.
 */
void qbcm_peer_heard(int fd, QBcmCard *c)
{
    struct timeval tv = { .tv_sec = 10 };
    uint8_t buf[256];
    size_t n;

    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    n = qbcm_air_frame(buf, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", 100,
                  QBCM_AIR_VERSION);
    qbcm_peer_send(fd, buf, n);
    g_assert_true(qbcm_wait_reason(c, 0x8000));
}

/*
 * The peer's station acknowledges, on the air's netdev, the frame card @c
 * sent with air sequence @seq; the card's medium takes it in.
 */
void qbcm_peer_ack(int fd, QBcmCard *c, uint16_t seq)
{
    uint8_t buf[256];

    qbcm_air_frame(buf, c->mac, 24, QBCM_AIR_VERSION);
    stw_be_p(buf + 14 + 44, IEEE80211_ACK_LEN);
    buf[14 + QBCM_AIR_HDR] = 0xd4;          /* ACK: FC, duration, RA */
    buf[14 + QBCM_AIR_HDR + 1] = 0;
    stw_be_p(buf + 14 + 46, seq);
    qbcm_peer_send(fd, buf, 14 + QBCM_AIR_HDR + IEEE80211_ACK_LEN);
    for (int i = 0; i < 20; i++) {
        qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON);
    }
}

size_t qbcm_peer_recv(int fd, uint8_t *buf, size_t size)
{
    uint32_t be, len;

    g_assert_cmpint(recv(fd, &be, 4, MSG_WAITALL), ==, 4);
    len = be32_to_cpu(be);
    g_assert_cmpuint(len, <=, size);
    g_assert_cmpint(recv(fd, buf, len, MSG_WAITALL), ==, len);
    return len;
}

/* index of the first RX buffer of @c from slot @from matching @pred, or -1 */
int qbcm_rx_find(QBcmAir *a, QBcmCard *c, unsigned from,
                 bool (*pred)(const uint8_t *f, size_t len))
{
    unsigned cd =
        (qbcm_rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff) /
        16;
    uint8_t rx[D11_RX_FW598_BUFSIZE];

    for (unsigned k = from; k < cd; k++) {
        qtest_memread(a->qts, c->rxbuf + 2400 * k, rx, sizeof(rx));
        if (pred(rx + D11_RX_FW598_FO + 6, lduw_le_p(rx) - 6 - 4)) {
            return k;
        }
    }
    return -1;
}

/* the medium's QOM properties */
uint64_t qbcm_medium_get(QBcmAir *a, const char *prop)
{
    QDict *r = qtest_qmp(a->qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': '/objects/air0', 'property': %s } }",
                         prop);
    uint64_t v = qdict_get_int(r, "return");

    qobject_unref(r);
    return v;
}

void qbcm_medium_set(QBcmAir *a, const char *prop, uint64_t v)
{
    QDict *r = qtest_qmp(a->qts, "{ 'execute': 'qom-set', 'arguments': "
                         "{ 'path': '/objects/air0', 'property': %s, "
                         "'value': %" PRIu64 " } }", prop, v);

    g_assert_false(qdict_haskey(r, "error"));
    qobject_unref(r);
}

/*
 * Engine 1 of @c stopped on a DMA error (@reason in DMA_REASON, @code in
 * TXERROR); reset it the way b43 does and set its ring up again.
 */
void qbcm_expect_tx_error(QBcmAir *a, QBcmCard *c, uint32_t reason,
                          unsigned code)
{
    uint32_t st = D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS;
    uint32_t err = D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXERROR;

    g_assert_true(qbcm_wait_reason(c, 0x8000));
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA_REASON(1)) & 0xdc00, ==, reason);
    g_assert_cmphex(qbcm_rl(c, st) >> 28, ==, 3); /* STOP */
    g_assert_cmphex(qbcm_rl(c, err) >> 28, ==, code);
    /* b43's reset path: disable, state DISABLED, re-setup */
    qbcm_wl(c, D11 + D11_DMA_REASON(1), 0xdc00);
    qbcm_wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL, 0);
    g_assert_cmphex(qbcm_rl(c, st) >> 28, ==, 0);
    qbcm_set_ring(c, 1, false, c->txring);
    c->txslot = 0;
}

/* ---- a station of the virtual AP (wifi-ap, bssid qbcm_ap_bssid) ------ */

const uint8_t qbcm_ap_bssid[6] = { 2, 0xaa, 0, 0, 0, 3 };

/* a management frame from @sa to the AP */
size_t qbcm_mgmt(uint8_t *f, uint8_t fc0, const uint8_t *sa)
{
    memset(f, 0, 64);
    f[0] = fc0;
    memcpy(f + 4, qbcm_ap_bssid, 6);
    memcpy(f + 10, sa, 6);
    memcpy(f + 16, qbcm_ap_bssid, 6);
    return 24;
}

/*
 * Start @c's TX ring over before its buffers (4 KiB a descriptor from
 * txbuf) run into its RX buffers: the long floods post thousands of frames.
 */
void qbcm_tx_room(QBcmAir *a, QBcmCard *c)
{
    uint32_t st = D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS;

    if (c->txslot < 200) {
        return;
    }
    for (int i = 0;
         i < 100 && (qbcm_rl(c, st) & 0x1fff) != c->txslot * 16; i++) {
        qtest_clock_step(a->qts, 1000 * 1000);
    }
    g_assert_cmphex(qbcm_rl(c, st) & 0x1fff, ==, c->txslot * 16);
    qbcm_wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL, 0);
    qbcm_set_ring(c, 1, false, c->txring);
    c->txslot = 0;
}

void qbcm_auth_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    uint8_t f[64];
    size_t n = qbcm_mgmt(f, 0xb0, sa);

    qbcm_tx_room(a, c);
    stw_le_p(f + n + 2, 1);                 /* open system, seq 1 */
    qbcm_post(a, c, f, n + 6, true, 0x0a, false);
}

/*
 * an association request from @sa: capability @capab, SSID "QEMU", then
 * @ies (@ies_len bytes, at most 48)
 */
void qbcm_assoc_req(QBcmAir *a, QBcmCard *c, const uint8_t *sa,
                    uint16_t capab, const uint8_t *ies,
                    size_t ies_len)
{
    uint8_t f[96];
    size_t n = qbcm_mgmt(f, 0x00, sa);

    g_assert_cmpuint(ies_len, <=, 48);
    qbcm_tx_room(a, c);
    stw_le_p(f + n, capab);
    stw_le_p(f + n + 2, 10);
    f[n + 4] = 0;                           /* SSID "QEMU" */
    f[n + 5] = 4;
    memcpy(f + n + 6, "QEMU", 4);
    if (ies_len) {
        memcpy(f + n + 10, ies, ies_len);
    }
    qbcm_post(a, c, f, n + 10 + ies_len, true, 0x0a, false);
}

void qbcm_assoc_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    qbcm_assoc_req(a, c, sa, 0x0401, NULL, 0);
}

/* restart @c's RX ring at its first buffer */
void qbcm_rx_rewind(QBcmCard *c)
{
    qbcm_wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXCTL, 0);
    qbcm_set_ring(c, 0, true, c->rxring);
    qbcm_wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX, 0x1000);
}

QBcmRxScan qbcm_rx_scan(QBcmAir *a, QBcmCard *c, uint8_t fc0, const uint8_t *da)
{
    unsigned cd =
        (qbcm_rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff) /
        16;
    uint8_t rx[D11_RX_FW598_BUFSIZE];
    QBcmRxScan sc = { 0, -1 };

    for (unsigned k = 0; k < cd; k++) {
        const uint8_t *f = rx + D11_RX_FW598_FO + 6;
        size_t len;

        qtest_memread(a->qts, c->rxbuf + 2400 * k, rx, sizeof(rx));
        len = lduw_le_p(rx) - 6 - 4;
        if (f[0] != fc0 || len < 24 || (da && memcmp(f + 4, da, 6))) {
            continue;
        }
        sc.count++;
        if (fc0 == 0xb0 && len >= 30) {
            sc.last_status = lduw_le_p(f + 28);
        } else if (fc0 == 0x10 && len >= 30) {
            sc.last_status = lduw_le_p(f + 26);
        } else if (fc0 == 0xc0 && len >= 26) {
            sc.last_status = lduw_le_p(f + 24);
        }
    }
    return sc;
}

/* let @ms of virtual time pass, with the main loop running between */
void qbcm_run_ms(QBcmAir *a, QBcmCard *c, unsigned ms)
{
    for (unsigned i = 0; i < ms / 10; i++) {
        qtest_clock_step(a->qts, 10 * 1000 * 1000);
        qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON);
    }
}

/* @sa (the card's own address or another) authenticates and associates */
void qbcm_ap_join(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    qbcm_auth_from(a, c, sa);
    qbcm_run_ms(a, c, 10);
    qbcm_assoc_from(a, c, sa);
    qbcm_run_ms(a, c, 10);
    g_assert_cmpint(qbcm_rx_scan(a, c, 0x10, sa).last_status, ==, 0);
}

/*
 * A data frame from @sa to @da through the AP (ToDS: BSSID, SA, DA), an
 * LLC/SNAP IPv4 header and @payload bytes of pattern; its length
 */
size_t qbcm_to_ds_frame(uint8_t *f, const uint8_t *sa,
                        const uint8_t *da, size_t payload)
{
    size_t n = qbcm_mgmt(f, 0x08, sa);

    f[1] = 0x01;
    memcpy(f + 16, da, 6);
    memcpy(f + n, "\xaa\xaa\x03\x00\x00\x00\x08\x00", 8);
    n += 8;
    for (size_t i = 0; i < payload; i++) {
        f[n + i] = 0x45 + i;
    }
    return n + payload;
}

/* ---- the libqos graph: a card on a pci-bus ----------------------------- */

typedef struct QBcm43xxPCI {
    QOSGraphObject obj;
    QPCIDevice pci;
    QBcm43xx card;
} QBcm43xxPCI;

static void *qbcm43xx_get_driver(void *obj, const char *interface)
{
    QBcm43xxPCI *d = obj;

    if (!g_strcmp0(interface, "bcm43xx")) {
        return &d->card;
    }
    if (!g_strcmp0(interface, "pci-device")) {
        return &d->pci;
    }
    fprintf(stderr, "%s not present in bcm43xx\n", interface);
    g_assert_not_reached();
}

static void qbcm43xx_start_hw(QOSGraphObject *obj)
{
    QBcm43xxPCI *d = (QBcm43xxPCI *)obj;

    qpci_device_enable(&d->pci);
    d->card.bar0 = qpci_iomap(&d->pci, 0, NULL);
}

static void qbcm43xx_destructor(QOSGraphObject *obj)
{
    QBcm43xxPCI *d = (QBcm43xxPCI *)obj;

    qpci_iounmap(&d->pci, d->card.bar0);
}

static void *qbcm43xx_create(void *pci_bus, QGuestAllocator *alloc,
                             void *addr)
{
    QBcm43xxPCI *d = g_new0(QBcm43xxPCI, 1);
    QPCIBus *bus = pci_bus;

    qpci_device_init(&d->pci, bus, addr);
    d->card.qts = bus->qts;
    d->card.bus = bus;
    d->card.dev = &d->pci;
    d->card.chip = qbcm43xx_chip(qpci_config_readw(&d->pci, PCI_DEVICE_ID));
    g_assert_nonnull(d->card.chip);
    d->obj.get_driver = qbcm43xx_get_driver;
    d->obj.start_hw = qbcm43xx_start_hw;
    d->obj.destructor = qbcm43xx_destructor;
    return &d->obj;
}

static void qbcm43xx_register_nodes(void)
{
    for (int i = 0; i < ARRAY_SIZE(qbcm43xx_chips); i++) {
        const QBcm43xxChip *chip = &qbcm43xx_chips[i];
        QPCIAddress addr = {
            .devfn = QPCI_DEVFN(4, 0),
            .vendor_id = 0x14e4,
            .device_id = chip->device_id,
        };
        QOSGraphEdgeOptions opts = {
            .extra_device_opts = "addr=04.0,id=wifi0",
        };

        add_qpci_address(&opts, &addr);
        qos_node_create_driver(chip->name, qbcm43xx_create);
        qos_node_consumes(chip->name, "pci-bus", &opts);
        qos_node_produces(chip->name, "bcm43xx");
    }
}

libqos_init(qbcm43xx_register_nodes);

/* query-wifi-air: the link from @from to @to (in *@resp, to unref) */
QDict *qbcm_air_link(QTestState *qts, QDict **resp, const char *from,
                     const char *to)
{
    QList *media, *links;
    QListEntry *e;

    *resp = qtest_qmp(qts, "{ 'execute': 'query-wifi-air' }");
    media = qdict_get_qlist(*resp, "return");
    g_assert_cmpuint(qlist_size(media), ==, 1);
    links = qdict_get_qlist(qobject_to(QDict, qlist_peek(media)), "links");
    QLIST_FOREACH_ENTRY(links, e) {
        QDict *l = qobject_to(QDict, qlist_entry_obj(e));

        if (!strcmp(qdict_get_str(l, "from"), from) &&
            !strcmp(qdict_get_str(l, "to"), to)) {
            return l;
        }
    }
    g_assert_not_reached();
}

/* query-wifi-air: counter @name of radio @radio */
int64_t qbcm_air_radio(QTestState *qts, const char *radio, const char *name)
{
    QDict *r = qtest_qmp(qts, "{ 'execute': 'query-wifi-air' }");
    QList *media = qdict_get_qlist(r, "return");
    QList *radios = qdict_get_qlist(qobject_to(QDict, qlist_peek(media)),
                                    "radios");
    QListEntry *e;
    int64_t v = -1;

    QLIST_FOREACH_ENTRY(radios, e) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (!strcmp(qdict_get_str(d, "name"), radio)) {
            v = qdict_get_int(d, name);
        }
    }
    qobject_unref(r);
    g_assert_cmpint(v, >=, 0);
    return v;
}
