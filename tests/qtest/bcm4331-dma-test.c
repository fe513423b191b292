/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331's DMA engines on a -object wifi-medium:
 * TX and RX through the rings (also above 4 GiB), the RXSTATUS bit-12
 * erratum, 32-bit engines (dma64=off), a full RX ring, hostile
 * descriptors and frames, rings and buffers whose end lies beyond the
 * engine's reach, driven the way b43 drives them.
 * Structure after tests/qtest/xlnx-can-test.c.
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
#include "net/wifi/ieee80211.h"

static void tx_rx(const char *chip, bool high)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[1500], rx[2400];
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    static const uint8_t stranger[6] = { 2, 9, 9, 9, 9, 9 };
    size_t len;
    uint32_t st;
    uint16_t cookie;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip, .high = high });
    len = qbcm_frame(f, B->mac, A->mac, 1000);
    /* unicast to B at 54 Mb/s OFDM (PLCP rate code 0xC) */
    cookie = qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));     /* TX_OK */
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 1, ==, 1);                      /* valid */
    g_assert_cmphex(st & 2, ==, 2);                      /* acked */
    g_assert_cmphex((st >> 12) & 0xf, ==, 1);            /* first try */
    g_assert_cmphex(st >> 16, ==, cookie);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_1) & 0xffff, ==,
                    0x123);                                    /* seq */
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0); /* empty */
    g_assert_cmphex(qbcm_tx_cd(A), ==, 0x20);

    /* B: RX_DONE on engine 0, summarised in GEN bit 15, INTx */
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA_REASON(0)) & 0x10000, ==, 0x10000);
    g_assert_true(qpci_config_readw(B->dev, PCI_STATUS) &
                  PCI_STATUS_INTERRUPT);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    qtest_memread(a.qts, B->rxbuf, rx, sizeof(rx));
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + len + 4);   /* PLCP+frame+FCS */
    g_assert_cmphex(lduw_le_p(rx + 4) & 1, ==, 1);       /* OFDM */
    /* the signal (dBm) where the chip's PHY puts it; channel, PHY type */
    g_assert_cmpint((int8_t)rx[B->chip->rxh_power], <, 0);
    g_assert_cmpint((int8_t)rx[B->chip->rxh_power], >, -100);
    g_assert_cmphex(lduw_le_p(rx + 0x16), ==,
                    (6 << 3) | ((B->chip->phy_ver >> 8) & 0xf));
    g_assert_cmphex(rx[D11_RX_FW598_FO] & 0xf, ==, 0xc);           /* 54 Mb/s */
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, len, f, len);
    g_assert_cmphex((uint32_t)ldl_le_p(rx + D11_RX_FW598_FO + 6 + len), ==,
                    qbcm_fcs32(f, len));
    /* W1C the DMA reason: the summary and the line go away */
    qbcm_wl(B, D11 + D11_DMA_REASON(0), 0x10000);
    g_assert_cmphex(qbcm_rl(B, D11 + A_D11_GEN_IRQ_REASON) & 0x8000, ==, 0);
    g_assert_false(qpci_config_readw(B->dev, PCI_STATUS) &
                   PCI_STATUS_INTERRUPT);

    /* unicast to nobody: retried up to the long limit (4), not acked */
    len = qbcm_frame(f, stranger, A->mac, 100);
    cookie = qbcm_post(&a, A, f, len, true, 0x0a, false); /* 1 Mb/s CCK */
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 3, ==, 1);
    g_assert_cmphex((st >> 12) & 0xf, ==, 4);
    g_assert_cmphex(st >> 16, ==, cookie);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);

    /* broadcast: one transmission, no ACK; B receives it (CCK) */
    len = qbcm_frame(f, bcast, A->mac, 10);
    qbcm_post(&a, A, f, len, false, 0x0a, false);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 3, ==, 1);
    g_assert_cmphex((st >> 12) & 0xf, ==, 1);
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x20);
    qtest_memread(a.qts, B->rxbuf + 2400, rx, 64);
    g_assert_cmphex(lduw_le_p(rx + 4) & 1, ==, 0);       /* CCK */
    g_assert_cmphex(rx[D11_RX_FW598_FO], ==, 0x0a);

    /* another channel: B does not hear A */
    /* channel 1: BW1 (HT-PHY), BW1a (N-PHY), both PHY 0x1CE */
    qbcm43xx_phy_write(B->dev, B->bar0, HTPHY_BW1, 0x3c9);
    qbcm_post(&a, A, f, len, false, 0x0a, false);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x20);
    qbcm_air_close(&a, 2);
}

static void test_tx_rx(const void *data)
{
    tx_rx(data, false);
}

static void test_tx_rx_high(const void *data)
{
    tx_rx(data, true);
}

/* RXSTATUS current descriptor with the ring 4 KiB- or 8 KiB-aligned */
static void test_erratum(const void *data)
{
    const char *chip = data;
    static const struct {
        uint64_t ring;
        bool erratum;
        uint32_t cd;
    } cases[] = {
        { 0x3001000, true, 0x1010 },     /* bit 12 set: leaks into CD */
        { 0x3001000, false, 0x0010 },
        { 0x3002000, true, 0x0010 },     /* 8 KiB aligned: unaffected */
        { 0x3002000, false, 0x0010 },
    };

    for (int i = 0; i < ARRAY_SIZE(cases); i++) {
        QBcmAir a;
        QBcmCard *A = &a.c[0], *B = &a.c[1];
        uint8_t f[64];
        size_t len;

        qbcm_air_open(&a, 2, cases[i].erratum ? ",rx-cd-erratum=on"
                                              : ",rx-cd-erratum=off",
                      &(QBcmAirOpts) { .chip = chip });
        /* move B's RX ring */
        B->rxring = cases[i].ring;
        for (int k = 0; k < 256; k++) {
            qbcm_desc(&a, B->rxring + 16 * k,
                      k == 255 ? D11_DESC_CTL0_DTABLEEND : 0,
                      D11_RX_FW598_BUFSIZE, B->rxbuf + 2400 * k);
        }
        qbcm_set_ring(B, 0, true, B->rxring);
        g_assert_cmphex(qbcm_rx_cd(B), ==, cases[i].cd - 0x10);
        len = qbcm_frame(f, B->mac, A->mac, 8);
        qbcm_post(&a, A, f, len, true, 0xc, true);
        g_assert_true(qbcm_wait_reason(B, 0x8000));
        /* b43 would take CD / 16 as the slot: 257 instead of 1 */
        g_assert_cmphex(qbcm_rx_cd(B), ==, cases[i].cd);
        qbcm_air_close(&a, 2);
    }
}

/* RX ring full: RX descriptor underflow, frames lost, never a fatal bit */
static void test_rx_full(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[64];
    size_t len;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    /* b43 consumed nothing and says slot 2 is its next: 1 free slot */
    qbcm_wl(B, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX, 2 * 16);
    len = qbcm_frame(f, B->mac, A->mac, 8);
    for (int i = 0; i < 4; i++) {
        qbcm_post(&a, A, f, len, true, 0xc, true);
        g_assert_true(qbcm_wait_reason(A, 0x20000000));
        qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
        qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    }
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA_REASON(0)) & 0x2000, ==, 0x2000);
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA_REASON(0)) & 0xdc00, ==, 0);
    /* the driver frees slots: reception resumes */
    qbcm_wl(B, D11 + D11_DMA_REASON(0), 0x12000);
    qbcm_wl(B, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX, 1 * 16);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x20);
    qbcm_air_close(&a, 2);
}

static void test_bad_descriptors(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint64_t bar = 0;
    uint8_t f[64];
    size_t len;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    len = qbcm_frame(f, a.c[1].mac, A->mac, 8);

    /* zero length */
    qbcm_desc(&a, A->txring, D11_DESC_CTL0_SOF | D11_DESC_CTL0_EOF, 0,
              A->txbuf);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x10);
    qbcm_expect_tx_error(&a, A, 0x1000, 1);

    /* self-linked: one descriptor that ends the table, TXINDEX off it */
    qtest_memwrite(a.qts, A->txbuf + 256, f, len);
    qbcm_desc(&a, A->txring,
              D11_DESC_CTL0_SOF | D11_DESC_CTL0_EOF | D11_DESC_CTL0_DTABLEEND,
              len, A->txbuf + 256);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x10);
    qbcm_expect_tx_error(&a, A, 0x1000, 1);
    /* it went out at most one ring lap's worth of times */
    for (int i = 0; qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1; i++) {
        g_assert_cmpint(i, <, 512);
    }

    /* past the ring end: no DTABLEEND anywhere, chain never ends */
    for (int k = 0; k < 512; k++) {
        qbcm_desc(&a, A->txring + 16 * k, k ? 0 : D11_DESC_CTL0_SOF, 4,
                  A->txbuf);
    }
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x1ff0);
    qbcm_expect_tx_error(&a, A, 0x1000, 1);

    /* buffer pointing at the card's own BAR0: blocked, data error */
    qpci_config_readl(A->dev, PCI_BASE_ADDRESS_0);
    bar = qpci_config_readl(A->dev, PCI_BASE_ADDRESS_0) & ~0xfull;
    bar |= (uint64_t)qpci_config_readl(A->dev, PCI_BASE_ADDRESS_1) << 32;
    qbcm_desc(&a, A->txring, D11_DESC_CTL0_SOF, D11_TXH_LEN, bar);
    qbcm_desc(&a, A->txring + 16, D11_DESC_CTL0_EOF, len, bar + 0x100);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x20);
    qbcm_expect_tx_error(&a, A, 0x800, 3);

    /* the ring itself in BAR0: descriptor read error */
    qbcm_set_ring(A, 1, false, bar);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x20);
    qbcm_expect_tx_error(&a, A, 0x400, 4);

    /* the engine works again afterwards */
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    qbcm_air_close(&a, 2);
}

/* frames the air refuses or the firmware drops: defined outcome */
static void test_bad_frames(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    g_autofree uint8_t *big = g_malloc0(3000);
    uint8_t f[64];
    uint32_t st;
    size_t len;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    /*
     * oversized: longer than any 802.11 frame (2352 bytes): the engine
     * stops with a protocol error, nothing reaches the air
     */
    len = qbcm_frame(big, B->mac, A->mac, 2400);
    qbcm_post(&a, A, big, len, true, 0xc, true);
    qbcm_expect_tx_error(&a, A, 0x1000, 1);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0);
    /* truncated: 8 bytes after the TX header */
    len = qbcm_frame(f, B->mac, A->mac, 0);
    qbcm_post(&a, A, f, 8, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 3, ==, 1);
    g_assert_cmphex((st >> 12) & 0xf, ==, 0);            /* never sent */
    /* the smallest frame the air carries (10 bytes) gets through */
    qbcm_post(&a, A, f, 10, false, 0xc, true);
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    qbcm_air_close(&a, 2);
}

/*
 * 32-bit engines (dma64=off, the format of older parts): registers at
 * 0x200 + 0x20 n (TXCTL 0, TXRING 4, TXINDEX 8, TXSTATUS 0xC, RX +0x10),
 * 8-byte descriptors with the translation 0x40000000 in the address.
 */

static void desc32(QBcmAir *a, uint64_t at, uint32_t ctl, uint32_t len,
                   uint32_t addr)
{
    uint32_t d[2] = {
        cpu_to_le32(ctl | len),
        cpu_to_le32((addr & 0x3fffffff) | 0x40000000),
    };

    qtest_memwrite(a->qts, at, d, sizeof(d));
}

/*
 * Two cards with 32-bit engines; card_up's 64-bit ring setup lands on
 * other registers there and is redone here: TX engine 1, RX engine 0.
 */
static void dma32_open(QBcmAir *a, const char *chip)
{
    g_autofree char *more = g_strdup_printf("-global %s.dma64=off", chip);

    qbcm_air_open(a, 2, NULL, &(QBcmAirOpts) { .chip = chip, .more = more });
    for (int i = 0; i < 2; i++) {
        QBcmCard *c = &a->c[i];

        qbcm_wl(c, D11 + D11_DMA32_ENGINE(1), 0x801); /* TX engine 1 */
        qbcm_wl(c, D11 + D11_DMA32_ENGINE(1) + 4,
                (c->txring & 0x3fffffff) | 0x40000000);
        for (int k = 0; k < 256; k++) {
            desc32(a, c->rxring + 8 * k,
                   k == 255 ? D11_DESC_CTL0_DTABLEEND : 0, D11_RX_FW598_BUFSIZE,
                   c->rxbuf + 2400 * k);
        }
        qbcm_wl(c, D11 + D11_DMA32_ENGINE(0) + 0x10,
                0x801 | D11_RX_FW598_FO << 1);
        qbcm_wl(c, D11 + D11_DMA32_ENGINE(0) + 0x14,
                (c->rxring & 0x3fffffff) | 0x40000000);
        qbcm_wl(c, D11 + D11_DMA32_ENGINE(0) + 0x18, 256 * 8);
        g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA32_ENGINE(0) + 0x1c) & 0xf000,
                        ==, 0x2000);
    }
}

static void test_dma32(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t h[D11_TXH_LEN] = { 0 }, f[128], rx[256];
    size_t len;
    uint32_t st;

    dma32_open(&a, chip);
    g_assert_cmphex(qbcm_rl(A, AGENT + 0x500) & 0x1000, ==, 0); /* no DMA64 */
    len = qbcm_frame(f, B->mac, A->mac, 64);
    stl_le_p(h, 0x3);
    stw_le_p(h + 0x08, 1);
    stw_le_p(h + 0x4c, 0x2000);
    h[0x70] = 0xc;
    qtest_memwrite(a.qts, A->txbuf, h, sizeof(h));
    qtest_memwrite(a.qts, A->txbuf + 256, f, len);
    desc32(&a, A->txring, D11_DESC_CTL0_SOF, D11_TXH_LEN, A->txbuf);
    desc32(&a, A->txring + 8, D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC, len,
           A->txbuf + 256);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 8, 16); /* TXINDEX */
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 3, ==, 3);
    g_assert_cmphex(st >> 16, ==, 0x2000);
    g_assert_cmphex(qbcm_rl(A, D11 + D11_DMA32_ENGINE(1) + 0xc) & 0xfff, ==,
                    16);
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA32_ENGINE(0) + 0x1c) & 0xfff, ==,
                    8);
    qtest_memread(a.qts, B->rxbuf, rx, sizeof(rx));
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + len + 4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, len, f, len);

    /*
     * a buffer where the bus has no memory (0xc0000000: ADDREXT 3, in the
     * PCI hole of the 5 GiB q35 machine): the write fails, the engine
     * stops with a data error (status: error 3 in bits 19:16, state
     * stopped in 15:12, at the descriptor) and nothing is written
     * elsewhere; slot 2's buffer stays as it was
     */
    desc32(&a, B->rxring + 8, 3 << D11_DESC_CTL1_ADDREXT_SHIFT,
           D11_RX_FW598_BUFSIZE, 0xc0000000);
    qtest_memset(a.qts, B->rxbuf + 2400 * 2, 0x5a, 64);
    qtest_memwrite(a.qts, A->txbuf + 256, f, len);
    desc32(&a, A->txring + 16, D11_DESC_CTL0_SOF, D11_TXH_LEN, A->txbuf);
    desc32(&a, A->txring + 24, D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC, len,
           A->txbuf + 256);
    qbcm_wl(B, D11 + D11_DMA_REASON(0), 0xffffffff);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 8, 32); /* TXINDEX */
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA_REASON(0)) & 0xdc00, ==,
                    D11_DMAIRQ_DATA_ERR);
    st = qbcm_rl(B, D11 + D11_DMA32_ENGINE(0) + 0x1c);
    g_assert_cmphex(st & 0xfffff, ==, 0x33008);
    qtest_memread(a.qts, B->rxbuf + 2400 * 2, rx, 64);
    for (int i = 0; i < 64; i++) {
        g_assert_cmphex(rx[i], ==, 0x5a);
    }
    /* disabling and enabling the engine clears the error */
    qbcm_wl(B, D11 + D11_DMA32_ENGINE(0) + 0x10, 0);
    qbcm_wl(B, D11 + D11_DMA32_ENGINE(0) + 0x10, 0x801 | D11_RX_FW598_FO << 1);
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA32_ENGINE(0) + 0x1c) & 0xff000, ==,
                    0x2000);
    qbcm_air_close(&a, 2);
}

/*
 * Accesses whose end lies beyond what the engine can address: the end of
 * a 64-bit engine's access past 2^64, or of a 32-bit engine's past 4 GiB.
 * Refused before any byte moves, with the engine's error for a failed
 * access of that kind (QEMU's address space itself would carry a wrapping
 * access on at address 0, after the part that fails).
 */

static void fill(QBcmAir *a, uint64_t at, size_t n)
{
    qtest_memset(a->qts, at, 0x5a, n);
}

/* @n bytes at @at are still as fill() left them */
static void assert_filled(QBcmAir *a, uint64_t at, size_t n)
{
    g_autofree uint8_t *b = g_malloc(n);

    qtest_memread(a->qts, at, b, n);
    for (size_t i = 0; i < n; i++) {
        g_assert_cmphex(b[i], ==, 0x5a);
    }
}

/* RX engine 0 of @c stopped on a DMA error: @reason, error @code at @cd */
static void expect_rx_error(QBcmCard *c, uint32_t reason, unsigned code,
                            uint32_t cd)
{
    g_assert_true(qbcm_wait_reason(c, 0x8000));
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA_REASON(0)) & 0xdc00, ==, reason);
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS)
                    >> 28, ==, 3); /* STOP */
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXERROR), ==,
                    code << 28 | cd);
}

/* 64-bit engines: a TX and an RX buffer whose end wraps past 2^64 */
static void test_wrap_buffers(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    g_autofree uint8_t *big = g_malloc(2400);
    uint8_t f[64];
    size_t len;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    fill(&a, 0, 4096);

    /* TX: the frame's 48 bytes at 2^64 - 32 */
    len = qbcm_frame(f, B->mac, A->mac, 24);
    qbcm_desc(&a, A->txring, D11_DESC_CTL0_SOF, D11_TXH_LEN, A->txbuf);
    qbcm_desc(&a, A->txring + 16, D11_DESC_CTL0_EOF, len,
              0xffffffffffffffe0ull);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x20);
    g_assert_true(qbcm_wait_reason(A, 0x8000));
    g_assert_cmphex(qbcm_rl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXERROR), ==,
                    D11_DMA_ERR_TRANSFER << 28 | 0x10);
    qbcm_expect_tx_error(&a, A, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER);

    /*
     * RX: slot 0's buffer 4 KiB at 2^64 - 2 KiB; a 2124-byte frame is a
     * 2172-byte write, whose last 124 bytes would land at address 0
     */
    qbcm_desc(&a, B->rxring, 0, 4096, 0xfffffffffffff800ull);
    len = qbcm_frame(big, B->mac, A->mac, 2100);
    qbcm_post(&a, A, big, len, false, 0xc, true);
    expect_rx_error(B, D11_DMAIRQ_DATA_ERR, D11_DMA_ERR_TRANSFER, 0);
    assert_filled(&a, 0, 4096);
    qbcm_air_close(&a, 2);
}

/*
 * 64-bit engines: a TX ring that ends past 2^64.  The engine keeps its
 * current descriptor when only the ring's high word is rewritten (b43
 * never does that), so a ring moved to 2^64 - 4 KiB with the engine at
 * descriptor 0x1000 would take its next descriptor from address 0.
 */
static void test_wrap_ring(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t h[D11_TXH_LEN] = { 0 }, f[64];
    uint32_t ctl, rx;
    size_t len;

    /* A's ring at 8 GiB - 4 KiB: the low word of the ring at the top */
    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip, .machine = "-M q35 -m 8G",
    });
    A->txring = 0x1fffff000ull;
    qbcm_set_ring(A, 1, false, A->txring);
    len = qbcm_frame(f, B->mac, A->mac, 8);
    for (int i = 0; i < 128; i++) {
        qbcm_post(&a, A, f, len, false, 0xc, true);
        g_assert_true(qbcm_wait_reason(A, 0x20000000));
        qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
        qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    }
    g_assert_cmphex(qbcm_tx_cd(A), ==, 0x1000);
    rx = qbcm_rx_cd(B);

    /* a frame at address 0 for a wrapped fetch to find */
    stl_le_p(h, 0x2);
    stw_le_p(h + 0x08, 1);
    stw_le_p(h + 0x4c, 0x2abc);
    h[0x70] = 0xc;
    qtest_memwrite(a.qts, 0x8000, h, sizeof(h));
    qtest_memwrite(a.qts, 0x8100, f, len);
    qbcm_desc(&a, 0, D11_DESC_CTL0_SOF, D11_TXH_LEN, 0x8000);
    qbcm_desc(&a, 0x10, D11_DESC_CTL0_EOF, len, 0x8100);

    /* the ring to 2^64 - 4 KiB: high word and ADDREXT only */
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXRINGHI, 0xbfffffff);
    ctl = qbcm_rl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL,
            ctl | 3 << D11_DMA64_CTL_ADDREXT_SHIFT);
    g_assert_cmphex(qbcm_tx_cd(A), ==, 0x1000);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, 0x1020);
    g_assert_true(qbcm_wait_reason(A, 0x8000));
    g_assert_cmphex(qbcm_rl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXERROR), ==,
                    D11_DMA_ERR_DESCREAD << 28 | 0x1000);
    qbcm_expect_tx_error(&a, A, D11_DMAIRQ_DESC_ERR, D11_DMA_ERR_DESCREAD);
    /* nothing went out */
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
    g_assert_cmphex(qbcm_rx_cd(B), ==, rx);
    qbcm_air_close(&a, 2);
}

/* engine 1 of @c (32-bit) stopped with @reason, status bits 19:0 @st */
static void expect_tx32_error(QBcmCard *c, uint32_t reason, uint32_t st)
{
    g_assert_true(qbcm_wait_reason(c, 0x8000));
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA_REASON(1)) & 0xdc00, ==, reason);
    g_assert_cmphex(qbcm_rl(c, D11 + D11_DMA32_ENGINE(1) + 0xc) & 0xfffff, ==,
                    st);
    /* disable, enable, the ring again */
    qbcm_wl(c, D11 + D11_DMA_REASON(1), 0xdc00);
    qbcm_wl(c, D11 + D11_DMA32_ENGINE(1), 0);
    qbcm_wl(c, D11 + D11_DMA32_ENGINE(1), 0x801);
    qbcm_wl(c, D11 + D11_DMA32_ENGINE(1) + 4,
            (c->txring & 0x3fffffff) | 0x40000000);
}

/* 32-bit engines: a TX buffer, a TX descriptor, an RX buffer across 4 GiB */
static void test_wrap_dma32(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t h[D11_TXH_LEN] = { 0 };
    g_autofree uint8_t *big = g_malloc(2400);
    size_t len;

    dma32_open(&a, chip);
    fill(&a, 0x100000000ull, 4096);
    stl_le_p(h, 0x2);
    stw_le_p(h + 0x08, 1);
    stw_le_p(h + 0x4c, 0x2000);
    h[0x70] = 0xc;
    qtest_memwrite(a.qts, A->txbuf, h, sizeof(h));

    /* TX: the frame's 256 bytes at 4 GiB - 128 */
    desc32(&a, A->txring, D11_DESC_CTL0_SOF, D11_TXH_LEN, A->txbuf);
    desc32(&a, A->txring + 8,
           D11_DESC_CTL0_EOF | 3 << D11_DESC_CTL1_ADDREXT_SHIFT, 256,
           0xffffff80);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 8, 16);
    expect_tx32_error(A, D11_DMAIRQ_DATA_ERR, 0x33000);

    /* TX: the ring at 4 GiB - 4, its first descriptor across */
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1),
            0x801 | 3 << D11_DMA64_CTL_ADDREXT_SHIFT);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 4, 0x7ffffffc);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 8, 8);
    expect_tx32_error(A, D11_DMAIRQ_DESC_ERR, 0x43000);

    /*
     * RX: slot 0's buffer 4 KiB at 4 GiB - 2 KiB; a 2124-byte frame is a
     * 2172-byte write, whose last 124 bytes would land above 4 GiB
     */
    desc32(&a, B->rxring, 3 << D11_DESC_CTL1_ADDREXT_SHIFT, 4096, 0xfffff800);
    len = qbcm_frame(big, B->mac, A->mac, 2100);
    qtest_memwrite(a.qts, A->txbuf + 256, big, len);
    desc32(&a, A->txring, D11_DESC_CTL0_SOF, D11_TXH_LEN, A->txbuf);
    desc32(&a, A->txring + 8, D11_DESC_CTL0_EOF, len, A->txbuf + 256);
    qbcm_wl(A, D11 + D11_DMA32_ENGINE(1) + 8, 16);
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA_REASON(0)) & 0xdc00, ==,
                    D11_DMAIRQ_DATA_ERR);
    g_assert_cmphex(qbcm_rl(B, D11 + D11_DMA32_ENGINE(0) + 0x1c) & 0xfffff, ==,
                    0x33000);
    assert_filled(&a, 0x100000000ull, 4096);
    qbcm_air_close(&a, 2);
}

/* the tests of a chip's DMA engines: /bcm43xx/<chip>/dma/<name> */
static void add_dma_test(const char *chip, const char *name,
                         void (*fn)(const void *))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/dma/%s", chip, name);

    qtest_add_data_func(path, chip, fn);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_dma_test(chips[i], "tx-rx", test_tx_rx);
        add_dma_test(chips[i], "tx-rx-above-4g", test_tx_rx_high);
        add_dma_test(chips[i], "rxstatus-erratum", test_erratum);
        add_dma_test(chips[i], "dma32", test_dma32);
        add_dma_test(chips[i], "rx-ring-full", test_rx_full);
        add_dma_test(chips[i], "bad-descriptors", test_bad_descriptors);
        add_dma_test(chips[i], "bad-frames", test_bad_frames);
        add_dma_test(chips[i], "wrap/buffers", test_wrap_buffers);
        add_dma_test(chips[i], "wrap/ring", test_wrap_ring);
        add_dma_test(chips[i], "wrap/dma32", test_wrap_dma32);
    }
    return g_test_run();
}
