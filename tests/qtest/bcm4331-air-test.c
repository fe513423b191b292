/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for BCM4331 and BCM43224 cards on a wifi-medium: airtime, the TX
 * FIFO (and its migration), collisions, ACK frames, bad FCS, hostile peers
 * on the netdev, retransmission to other processes, RTS/CTS protection, a
 * card as access point beaconing from its templates, each on both chips.
 * The medium's own tests, with wifi-traffic radios and no card, are in
 * wifi-medium-test.c.
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

/* the cards' device of the running test (see main()) */
static const char *chip = "bcm4331";

static void test_hostile_peer(void)
{
    g_autofree uint8_t *buf = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    QDict *r;
    size_t n;
    int fd;

    /* the medium of this test has the netdev: a different command line */
    fd = qbcm_peer_open(&a, &peer, chip, NULL);

    /*
     * an empty packet (it stopped the medium's reception for good: the
     * net layer takes a receive of 0 bytes for "cannot receive"), garbage,
     * wrong version, truncated, inconsistent, oversized
     */
    qbcm_peer_send(fd, buf, 0);
    for (int i = 0; i < 64; i++) {
        buf[i] = i * 37;
    }
    buf[12] = 0x88;
    buf[13] = 0xb5;
    qbcm_peer_send(fd, buf, 64);
    n = qbcm_air_frame(buf, A->mac, 100, 1); /* the old version */
    qbcm_peer_send(fd, buf, n);
    n = qbcm_air_frame(buf, A->mac, 100, QBCM_AIR_VERSION);
    qbcm_peer_send(fd, buf, n - 1);
    stw_be_p(buf + 14 + 44, 3000);
    qbcm_peer_send(fd, buf, n);
    n = qbcm_air_frame(buf, A->mac, 2352, QBCM_AIR_VERSION);
    stw_be_p(buf + 14 + 44, 4000);
    qbcm_peer_send(fd, buf, n);
    /* another EtherType: not ours, not an error */
    buf[13] = 0x00;
    qbcm_peer_send(fd, buf, 100);
    /* finally a good frame for the card */
    n = qbcm_air_frame(buf, A->mac, 200, QBCM_AIR_VERSION);
    qbcm_peer_send(fd, buf, n);

    g_assert_true(qbcm_wait_reason(A, 0x8000));
    g_assert_cmphex(qbcm_rx_cd(A), ==, 0x10);
    r = qtest_qmp(a.qts, "{ 'execute': 'qom-get', 'arguments': "
                  "{ 'path': '/objects/air0', 'property': 'rx-rejected' } }");
    g_assert_cmpint(qdict_get_int(r, "return"), ==, 6);
    qobject_unref(r);
    /* unicast to the peer's station is now acknowledged */
    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 50);
    qbcm_post(&a, A, buf, n, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    qbcm_peer_close(&a, &peer);
}

/* ---- airtime, collisions, ACK frames, bad FCS --------------------------- */

static uint32_t txstat(QBcmCard *c)
{
    if (!(qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON) & 0x20000000)) {
        return 0;
    }
    qbcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    return qbcm_rl(c, D11 + A_D11_XMITSTAT_0);
}

static const uint8_t nobody[6] = { 2, 9, 9, 9, 9, 9 };
static const uint8_t group[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
/* airtime on: a frame and its ACK take their 802.11g time, no less */
static void test_airtime(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[1500];
    size_t len;
    uint32_t st;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
    });
    /*
     * 1000-byte body: 1028 bytes with header and FCS at 54 Mb/s = 182 us,
     * after DIFS 28 + 0..15 slots of 9 us: B has it, A its status, between
     * 210 and 345 us (the channel stays busy for SIFS + ACK after that).
     */
    len = qbcm_frame(f, B->mac, A->mac, 1000);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_cmphex(txstat(A), ==, 0);
    qtest_clock_step(a.qts, 209 * 1000);
    g_assert_cmphex(txstat(A), ==, 0);                  /* still on air */
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0);
    qtest_clock_step(a.qts, 136 * 1000);
    st = txstat(A);
    g_assert_cmphex(st & 3, ==, 3);                     /* acked */
    g_assert_cmphex((st >> 12) & 0xf, ==, 1);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 1);

    /*
     * Nobody answers: 4 attempts (long retry limit), each with its ACK
     * timeout, backoff doubling: 31, 63, 127 slots after the first.
     */
    len = qbcm_frame(f, nobody, A->mac, 100);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    qtest_clock_step(a.qts, 100 * 1000);
    g_assert_cmphex(txstat(A), ==, 0);
    qtest_clock_step(a.qts, 5000 * 1000);
    st = txstat(A);
    g_assert_cmphex(st & 3, ==, 1);                     /* not acked */
    g_assert_cmphex((st >> 12) & 0xf, ==, 4);
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 1);
    qbcm_air_close(&a, 2);
}

/*
 * airtime on: the engine fetches frames into the TX FIFO (32 frames) as
 * they are posted, CD moving on at once as the hardware's does; the TX
 * status of each comes when its exchange on the air ends, in order.
 * (Before, CD stayed on the frame on the air: b43, which fills all 256
 * slots of a ring, could then put TXINDEX back on CD, and an engine that
 * far behind sees an empty ring: the TX stall of issue 6.)  Frames of an
 * engine that is disabled meanwhile report nothing.
 */
static void test_tx_fifo(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint16_t cookie[40];
    uint64_t bar;
    uint8_t f[1100];
    size_t len;
    uint32_t st;
    int n = 0;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
    });
    len = qbcm_frame(f, B->mac, A->mac, 1000);
    for (int i = 0; i < 40; i++) {
        cookie[i] = qbcm_post(&a, A, f, len, true, 0xc, true);
    }
    /* no virtual time has passed: 32 fetched, nothing reported */
    g_assert_cmphex(qbcm_tx_cd(A), ==, 32 * 32);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1, ==, 0);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0);
    /* the first exchange is over by 345 us, the second not (test_airtime) */
    qtest_clock_step(a.qts, 345 * 1000);
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st >> 16, ==, cookie[0]);
    g_assert_cmphex(st & 3, ==, 3);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1, ==, 0);
    g_assert_cmphex(qbcm_tx_cd(A), ==, 33 * 32); /* room for one more */
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    /* the rest, in order, every one acknowledged */
    qtest_clock_step(a.qts, 40 * 400 * 1000);
    for (n = 1; (st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0)) & 1; n++) {
        g_assert_cmpint(n, <, 40);
        g_assert_cmphex(st >> 16, ==, cookie[n]);
        g_assert_cmphex(st & 3, ==, 3);
    }
    g_assert_cmpint(n, ==, 40);
    g_assert_cmphex(qbcm_tx_cd(A), ==, 40 * 32);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 40 * 0x10);

    /*
     * A frame fetched when an exchange ends (a timer, not an MMIO write)
     * whose buffer is the card's own BAR0: the reentrancy guard holds
     * there too, a data error.  Its engine is then reset with 31 frames
     * in the FIFO: they go out, but report nothing.
     */
    for (int i = 0; i < 32; i++) {
        qbcm_post(&a, A, f, len, true, 0xc, true);
    }
    g_assert_cmphex(qbcm_tx_cd(A), ==, 72 * 32);
    bar = qpci_config_readl(A->dev, PCI_BASE_ADDRESS_0) & ~0xfull;
    bar |= (uint64_t)qpci_config_readl(A->dev, PCI_BASE_ADDRESS_1) << 32;
    qbcm_desc(&a, A->txring + 16 * A->txslot, D11_DESC_CTL0_SOF, D11_TXH_LEN,
              bar);
    qbcm_desc(&a, A->txring + 16 * (A->txslot + 1), D11_DESC_CTL0_EOF, len,
              bar + 0x100);
    A->txslot += 2;
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, A->txslot * 16);
    g_assert_cmphex(qbcm_tx_cd(A), ==, 72 * 32);        /* FIFO full */
    qtest_clock_step(a.qts, 345 * 1000);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1, ==, 1);
    qbcm_expect_tx_error(&a, A, 0x800, 3);

    /* frames in the FIFO of an engine that is reset: no status */
    for (int i = 0; i < 3; i++) {
        qbcm_post(&a, A, f, len, true, 0xc, true);
    }
    /* the 31 frames of before the reset still take FIFO room: one fits */
    g_assert_cmphex(qbcm_tx_cd(A), ==, 1 * 32);
    qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL, 0);
    qbcm_set_ring(A, 1, false, A->txring);
    A->txslot = 0;
    cookie[0] = qbcm_post(&a, A, f, len, true, 0xc, true);
    qtest_clock_step(a.qts, 40 * 400 * 1000);
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st >> 16, ==, cookie[0]);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1, ==, 0);
    g_assert_cmphex(qbcm_tx_cd(A), ==, 32);
    qbcm_air_close(&a, 2);
}

/*
 * Migration with frames in the TX FIFO (airtime on): they were queued on
 * the source's air, which does not move; the destination reports them
 * sent once and not acknowledged, in order, and nothing else.
 */
static void test_tx_fifo_migration(void)
{
    g_autofree char *file = g_strdup_printf("%s/bcm4331-fifo-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri_out = g_strdup_printf("exec:cat > %s", file);
    g_autofree char *uri_in = g_strdup_printf("exec:cat %s", file);
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint16_t cookie[3];
    uint8_t f[200];
    GString *cmd;
    QTestState *d;
    QPCIBus *bus;
    QBcmCard D;
    QDict *r;
    uint32_t st;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
        .machine = "-M q35 -m 256M",
    });
    for (int i = 0; i < 3; i++) {
        cookie[i] = qbcm_post(&a, A, f, qbcm_frame(f, B->mac, A->mac, 100),
                              true,
                              0xc, true);
    }
    g_assert_cmphex(qbcm_tx_cd(A), ==, 3 * 32);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 1, ==, 0);
    r = qtest_qmp(a.qts, "{ 'execute': 'migrate', 'arguments': "
                  "{ 'uri': %s } }", uri_out);
    qobject_unref(r);
    qbcm_wait_migration(a.qts);

    cmd = qbcm_air_cmdline(&(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
        .machine = "-M q35 -m 256M -incoming defer",
    }, 2, NULL);
    d = qtest_init(cmd->str);
    g_string_free(cmd, true);
    r = qtest_qmp(d, "{ 'execute': 'migrate-incoming', 'arguments': "
                  "{ 'uri': %s } }", uri_in);
    qobject_unref(r);
    qbcm_wait_migration(d);
    bus = qpci_new_pc(d, NULL);
    D.dev = qpci_device_find(bus, QPCI_DEVFN(4, 0));
    D.bar0 = A->bar0;               /* config space migrated */
    g_assert_cmphex(qbcm_tx_cd(&D), ==, 3 * 32);
    for (int i = 0; i < 3; i++) {
        st = qbcm_rl(&D, D11 + A_D11_XMITSTAT_0);
        g_assert_cmphex(st >> 16, ==, cookie[i]);
        g_assert_cmphex(st & 3, ==, 1);                 /* not acked */
        g_assert_cmphex((st >> 12) & 0xf, ==, 1);
    }
    qtest_clock_step(d, 10 * 1000 * 1000);
    g_assert_cmphex(qbcm_rl(&D, D11 + A_D11_XMITSTAT_0) & 1, ==, 0);
    g_free(D.dev);
    qpci_free_pc(bus);
    qtest_quit(d);
    qbcm_air_close(&a, 2);
    unlink(file);
}

/*
 * airtime on: A and B start in the same slot (same backoff): both frames
 * are lost, both senders retry with a doubled window and get through.
 * The backoff comes from the medium's seeded pseudo-random numbers: try
 * seeds until the two draws are equal (deterministic for a given seed).
 */
static void test_collision(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[200], g[200];
    size_t len;
    uint32_t sa, sb;
    uint64_t seed;
    uint32_t cda = 0, cdb = 0;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
    });
    for (seed = 1; seed < 120; seed++) {
        qbcm_medium_set(&a, "seed", seed);
        len = qbcm_frame(f, B->mac, A->mac, 100);
        qbcm_frame(g, A->mac, B->mac, 100);
        qbcm_post(&a, A, f, len, true, 0xc, true);
        qbcm_post(&a, B, g, len, true, 0xc, true);
        qtest_clock_step(a.qts, 20000 * 1000);
        sa = txstat(A);
        sb = txstat(B);
        g_assert_cmphex(sa & 3, ==, 3);
        g_assert_cmphex(sb & 3, ==, 3);
        cda = (cda + 0x10) & 0xfff;
        cdb = (cdb + 0x10) & 0xfff;
        g_assert_cmphex(qbcm_rx_cd(A), ==, cda);        /* exactly once */
        g_assert_cmphex(qbcm_rx_cd(B), ==, cdb);
        if (qbcm_medium_get(&a, "collisions")) {
            break;
        }
        g_assert_cmphex((sa >> 12) & 0xf, ==, 1);
        g_assert_cmphex((sb >> 12) & 0xf, ==, 1);
    }
    g_assert_cmpuint(qbcm_medium_get(&a, "collisions"), >=, 1);
    /* both lost the first attempt, both retried */
    g_assert_cmpuint((sa >> 12) & 0xf, >=, 2);
    g_assert_cmpuint((sb >> 12) & 0xf, >=, 2);
    qbcm_air_close(&a, 2);
}

/* a third card in monitor mode: MACCTL KEEP_CTL + BEACPROMISC (+ KEEP_BAD) */
static void monitor(QBcmCard *c, bool bad)
{
    qbcm_wl(c, D11 + A_D11_MACCTL, qbcm_rl(c, D11 + A_D11_MACCTL) | 0x00500000 |
            (bad ? 0x00800000 : 0));
}

/* ACK frames on the air: the monitor and the pcap see them */
static void test_ack_frames(void)
{
    g_autofree char *dir = g_dir_make_tmp("bcm4331-ack-XXXXXX", NULL);
    g_autofree char *pcap = g_strdup_printf("%s/air.pcap", dir);
    g_autofree char *opts = g_strdup_printf(",pcap=%s", pcap);
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1], *M = &a.c[2];
    uint8_t f[200], rx[128];
    g_autofree gchar *pc = NULL;
    gsize pclen;
    size_t len;
    bool ack_seen = false;

    qbcm_air_open(&a, 3, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = opts,
    });
    monitor(M, false);
    len = qbcm_frame(f, B->mac, A->mac, 100);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    /* the monitor: the data frame, then the ACK (FC 0xd4, RA = A) */
    g_assert_true(qbcm_wait_reason(M, 0x8000));
    for (int i = 0; i < 200 && qbcm_rx_cd(M) < 0x20; i++) {
        qbcm_rl(M, D11 + A_D11_GEN_IRQ_REASON);
    }
    g_assert_cmphex(qbcm_rx_cd(M), ==, 0x20);
    qtest_memread(a.qts, M->rxbuf, rx, sizeof(rx));
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, 64, f, 64);
    qtest_memread(a.qts, M->rxbuf + 2400, rx, sizeof(rx));
    g_assert_cmpuint(lduw_le_p(rx), ==, 6 + 10 + 4);
    g_assert_cmphex(rx[D11_RX_FW598_FO + 6], ==, 0xd4);
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6 + 4, 6, A->mac, 6);
    g_assert_cmphex(rx[D11_RX_FW598_FO] & 0xf, ==, 0x9);          /* 24 Mb/s */
    /* A (no KEEP_CTL) and B: no control frames, B only the data */
    g_assert_cmphex(qbcm_rx_cd(A), ==, 0);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    /* A broadcast is not acknowledged */
    len = qbcm_frame(f, group, A->mac, 10);
    qbcm_post(&a, A, f, len, false, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 1);
    /* the pcap holds an ACK record: radiotap (15) + 10 + FCS */
    g_assert_true(g_file_get_contents(pcap, &pc, &pclen, NULL));
    for (gsize o = 24; o + 16 <= pclen; o += 16 + ldl_le_p(pc + o + 8)) {
        uint32_t cl = ldl_le_p(pc + o + 8);

        g_assert_cmpuint(o + 16 + cl, <=, pclen);
        if (cl == 15 + 14 && (uint8_t)pc[o + 16 + 15] == 0xd4) {
            g_assert_cmpmem(pc + o + 16 + 15 + 4, 6, A->mac, 6);
            ack_seen = true;
        }
    }
    g_assert_true(ack_seen);
    qbcm_air_close(&a, 3);
    unlink(pcap);
    rmdir(dir);
}

/*
 * fcs-error-rate=1000: every frame is corrupted.  Normal receivers drop it
 * (nobody acks: retried to the limit); a monitor with KEEP_BAD gets it with
 * mac_status FCSERR and a wrong FCS; without KEEP_BAD it gets nothing.
 */
static void test_bad_fcs(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1], *M = &a.c[2];
    uint8_t f[200], rx[256];
    size_t len;
    uint32_t st;

    qbcm_air_open(&a, 3, NULL, &(QBcmAirOpts) { .chip = chip });
    qbcm_medium_set(&a, "fcs-error-rate", 1000);
    monitor(M, true);
    len = qbcm_frame(f, B->mac, A->mac, 100);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    st = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(st & 3, ==, 1);                     /* not acked */
    g_assert_cmphex((st >> 12) & 0xf, ==, 4);
    g_assert_true(qbcm_wait_reason(M, 0x8000));
    for (int i = 0; i < 200 && qbcm_rx_cd(M) < 0x40; i++) {
        qbcm_rl(M, D11 + A_D11_GEN_IRQ_REASON);
    }
    g_assert_cmphex(qbcm_rx_cd(M), ==, 0x40);           /* 4 attempts */
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0);
    qtest_memread(a.qts, M->rxbuf, rx, sizeof(rx));
    g_assert_cmphex(ldl_le_p(rx + 0x10) & 1, ==, 1);    /* FCSERR */
    g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, len, f, len);
    g_assert_cmphex((uint32_t)ldl_le_p(rx + D11_RX_FW598_FO + 6 + len), ==,
                    ~qbcm_fcs32(f, len));
    g_assert_cmpuint(qbcm_medium_get(&a, "fcs-errors"), ==, 4);
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 0);

    /* the monitor no longer asks: nothing more */
    qbcm_wl(M, D11 + A_D11_MACCTL,
            qbcm_rl(M, D11 + A_D11_MACCTL) & ~0x00800000);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    g_assert_cmphex(qbcm_rx_cd(M), ==, 0x40);

    /* a clean air: acknowledged at once, the FCS is right again */
    qbcm_medium_set(&a, "fcs-error-rate", 0);
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    qbcm_air_close(&a, 3);
}

/*
 * airtime on: a peer's frame takes the channel for the airtime we compute
 * from its length and rate, not for the airtime it claims; a flood of
 * frames is bounded; an unknown flag is still rejected.  (Its virtual
 * time, 0 here, only sets the peer's clock offset.)
 */
static void test_hostile_peer_airtime(void)
{
    g_autofree uint8_t *buf = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    size_t n;
    uint32_t st;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, ",airtime=on");

    n = qbcm_air_frame(buf, A->mac, 200, QBCM_AIR_VERSION);
    buf[14 + 1] = 0x09;                     /* OFDM + an unknown flag */
    qbcm_peer_send(fd, buf, n);
    /* 1000 frames claiming to last 4000 s each */
    n = qbcm_air_frame(buf, A->mac, 200, QBCM_AIR_VERSION);
    stl_be_p(buf + 14 + 20, 0xffffffff);
    for (int i = 0; i < 1000; i++) {
        qbcm_peer_send(fd, buf, n);
    }
    /* the link is read in the main loop: let it catch up */
    for (int i = 0; i < 50; i++) {
        qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON);
        qtest_clock_step(a.qts, 1);
    }
    g_assert_cmpuint(qbcm_medium_get(&a, "rx-rejected"), ==, 1);
    /*
     * 228 bytes at 54 Mb/s: 54 us on the air each (at most 256 at once,
     * the rest dropped): A has them within a millisecond, and the channel
     * is free again.
     */
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 0);
    qtest_clock_step(a.qts, 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "acks"), ==, 256); /* A acked each */
    /* A's frame to the peer's station (learnt from its frames) is acked */
    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 50);
    qbcm_post(&a, A, buf, n, true, 0xc, true);
    qtest_clock_step(a.qts, 1000 * 1000);
    st = txstat(A);
    g_assert_cmphex(st & 3, ==, 3);
    qbcm_peer_close(&a, &peer);
}

/* the next data frame (not an ACK) the medium sends to the peer */
static size_t peer_recv_data(QBcmAir *a, int fd, uint8_t *buf, size_t size)
{
    for (int i = 0; i < 100; i++) {
        size_t n = qbcm_peer_recv(fd, buf, size);

        if (n > 14 + QBCM_AIR_HDR + 10 && buf[14 + QBCM_AIR_HDR] == 0x08) {
            return n;
        }
    }
    g_assert_not_reached();
}

/*
 * A unicast frame to a station in another process counts as acknowledged
 * at once, and is sent again (retry bit, new air sequence) until that
 * process's ACK names it; then no more.
 */
static void test_remote_arq(void)
{
    g_autofree uint8_t *buf = g_malloc0(8192);
    g_autofree uint8_t *out = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    uint16_t seq1, seq2;
    size_t n;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, NULL);
    qbcm_peer_heard(fd, A);

    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 50);
    qbcm_post(&a, A, buf, n, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3); /* acked */
    n = peer_recv_data(&a, fd, out, 8192);
    seq1 = lduw_be_p(out + 14 + 46);
    g_assert_cmphex(seq1, !=, 0);
    g_assert_cmphex(out[14 + QBCM_AIR_HDR + 1] & 0x08, ==, 0);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 0);

    /* no ACK from the peer: 40 ms later it comes again, as a retry */
    qtest_clock_step(a.qts, 39 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 0);
    qtest_clock_step(a.qts, 2 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 1);
    n = peer_recv_data(&a, fd, out, 8192);
    seq2 = lduw_be_p(out + 14 + 46);
    g_assert_cmphex(seq2, !=, seq1);
    g_assert_cmphex(out[14 + QBCM_AIR_HDR + 1] & 0x08, ==, 0x08);
    g_assert_cmpmem(out + 14 + QBCM_AIR_HDR + 4, 6, qbcm_peer_sta, 6);

    /* the peer acknowledges that one: nothing more */
    qbcm_peer_ack(fd, A, seq2);
    qtest_clock_step(a.qts, 100 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 1);
    qbcm_peer_close(&a, &peer);
}

/*
 * The peer's ACK of the first copy comes late, after the second went out:
 * it ends the resending all the same.  (Before, only the latest copy's ACK
 * counted: the frame went out again at 80 and 120 ms.)
 */
static void test_remote_arq_late_ack(void)
{
    g_autofree uint8_t *buf = g_malloc0(8192);
    g_autofree uint8_t *out = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    uint16_t seq1;
    size_t n;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, NULL);
    qbcm_peer_heard(fd, A);
    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 50);
    qbcm_post(&a, A, buf, n, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    n = peer_recv_data(&a, fd, out, 8192);
    seq1 = lduw_be_p(out + 14 + 46);
    qtest_clock_step(a.qts, 41 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 1);
    peer_recv_data(&a, fd, out, 8192);
    qbcm_peer_ack(fd, A, seq1);
    qtest_clock_step(a.qts, 200 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 1);
    qbcm_peer_close(&a, &peer);
}

/* a data frame from the peer's station to card @c, 802.11 sequence @sn */
static size_t peer_data(uint8_t *buf, QBcmCard *c, uint16_t sn, uint8_t fill,
                        bool retry)
{
    size_t n = qbcm_air_frame(buf, c->mac, 124, QBCM_AIR_VERSION);
    uint8_t *f = buf + 14 + QBCM_AIR_HDR;

    f[1] |= retry ? IEEE80211_FC1_RETRY : 0;
    stw_le_p(f + IEEE80211_SEQ_OFF, sn << 4);
    memset(f + 24, fill, 100);
    return n;
}

/* the next ACK the medium sends to the peer: its air sequence */
static uint16_t peer_recv_ack(int fd)
{
    uint8_t out[256];

    for (int i = 0; i < 100; i++) {
        size_t n = qbcm_peer_recv(fd, out, sizeof(out));

        if (n >= 14 + QBCM_AIR_HDR + 10 && out[14 + QBCM_AIR_HDR] == 0xd4) {
            return lduw_be_p(out + 14 + 46);
        }
    }
    g_assert_not_reached();
}

/*
 * A resend from another process (Retry set, 40 ms later, after a newer
 * frame of the same station) of a frame the card received already: the
 * medium acknowledges it again, so that the sender stops, and does not
 * deliver it again (mac80211 would: its last sequence number moved on;
 * on WEP or an open network nothing else stops it: the duplicate ping
 * replies of guest-crypto-wep).  A retry of a frame that was not
 * delivered, and a frame with other bytes, are delivered.
 */
static void test_remote_dup(void)
{
    uint8_t buf[512];
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    size_t n;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, NULL);
    qbcm_peer_heard(fd, A);                         /* RX slot 0 */
    n = peer_data(buf, A, 0x100, 0x11, false);
    stw_be_p(buf + 14 + 46, 101);
    qbcm_peer_send(fd, buf, n);
    g_assert_cmphex(peer_recv_ack(fd), ==, 101);
    n = peer_data(buf, A, 0x101, 0x22, false);
    stw_be_p(buf + 14 + 46, 102);
    qbcm_peer_send(fd, buf, n);
    g_assert_cmphex(peer_recv_ack(fd), ==, 102);
    /* the first again, resent: acknowledged under its new air sequence */
    n = peer_data(buf, A, 0x100, 0x11, true);
    stw_be_p(buf + 14 + 46, 103);
    qbcm_peer_send(fd, buf, n);
    g_assert_cmphex(peer_recv_ack(fd), ==, 103);
    /* same sequence number, other bytes: a new frame */
    n = peer_data(buf, A, 0x100, 0x33, true);
    stw_be_p(buf + 14 + 46, 104);
    qbcm_peer_send(fd, buf, n);
    g_assert_cmphex(peer_recv_ack(fd), ==, 104);
    g_assert_cmphex(qbcm_rx_cd(A), ==, 4 * 0x10);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-dups"), ==, 1);
    qbcm_peer_close(&a, &peer);
}

/* ---- QMP control of the air: links, noise, positions (qapi/wifi.json) --- */

static void shm_w16(QBcmCard *c, uint32_t b, uint16_t v)
{
    qbcm_wl(c, D11 + A_D11_SHM_CONTROL, (1 << 16) | (b >> 2));
    qbcm_ww(c, D11 + ((b & 2) ? A_D11_SHM_DATA_UNALIGNED : A_D11_SHM_DATA), v);
}

/* a QMP command (a literal) that must succeed, or fail */
#define air_qmp_ok(a, cmd) do {                                       \
        QDict *r_ = qtest_qmp((a)->qts, cmd);                         \
        g_assert_false(qdict_haskey(r_, "error"));                    \
        qobject_unref(r_);                                            \
    } while (0)
#define air_qmp_err(a, cmd) do {                                      \
        QDict *r_ = qtest_qmp((a)->qts, cmd);                         \
        g_assert_true(qdict_haskey(r_, "error"));                     \
        qobject_unref(r_);                                            \
    } while (0)

/* the frame count and the ACK bit of @c's next TX status */
static unsigned sent(QBcmCard *c, bool *acked)
{
    uint32_t s;

    g_assert_true(qbcm_wait_reason(c, 0x20000000));
    s = txstat(c);
    *acked = (s & 3) == 3;
    return (s >> 12) & 0xf;
}

/*
 * A-MPDUs (brcmsmac's ampdu.c, the TX header's MAC control bits 10:9): the
 * MPDUs go on the air one by one; no status until the last, then a block
 * ack in two entries: ACK|INTERMEDIATE|AMPDU with the first MPDU's frame
 * id, bitmap bits 3:0 in 15:12 and the start sequence << 4; then AMPDU
 * with bitmap bits 7:4 in 4:1 and 31:8, bits 63:32 in the second word.
 * An aggregate nobody acknowledged: one entry, AMPDU without ACK.  With
 * airtime on the statuses come when the exchanges end, the same way.
 */
/* the TX status is there (airtime: the exchanges take virtual time) */
static void ampdu_wait(QBcmAir *a, QBcmCard *c)
{
    for (int i = 0; i < 100 && !(qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON) &
                                 D11_IRQ_TX_OK); i++) {
        qtest_clock_step(a->qts, 100 * 1000);
    }
    g_assert_true(qbcm_wait_reason(c, D11_IRQ_TX_OK));
    qbcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, D11_IRQ_TX_OK);
}

static void ampdu_case(const char *medium)
{
    static const uint8_t nobody[6] = { 2, 0x55, 0x55, 0x55, 0x55, 0x55 };
    QBcmAirOpts o = { .chip = chip, .medium = medium };
    uint8_t f[64];
    uint16_t first = 0;
    uint32_t w0, w1;
    size_t n;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];

    qbcm_air_open(&a, 2, NULL, &o);
    /* ten MPDUs to B, sequence numbers 4090..4095, 0..3 (they wrap) */
    for (unsigned k = 0; k < 10; k++) {
        unsigned pos = k == 0 ? D11_AMPDU_FIRST :
                       k == 9 ? D11_AMPDU_LAST : D11_AMPDU_MIDDLE;
        uint16_t c;

        n = qbcm_frame(f, B->mac, A->mac, 20);
        stw_le_p(f + 22, ((4090 + k) & 0xfff) << 4);
        c = qbcm_post_ctl(&a, A, f, n, 0x3 | pos << D11_TXH_MAC_AMPDU_SHIFT,
                          0xcc, true);
        first = k ? first : c;
        if (k < 9) {
            /* nothing reported before the last */
            qtest_clock_step(a.qts, 1000 * 1000);
            g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
        }
    }
    ampdu_wait(&a, A);
    w0 = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    w1 = qbcm_rl(A, D11 + A_D11_XMITSTAT_1);
    g_assert_cmphex(w0, ==, (uint32_t)first << 16 | 0xf000 | 0x63);
    g_assert_cmphex(w1 & 0xffff, ==, 4090 << 4);
    /* bitmap: bits 0..9 */
    w0 = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    w1 = qbcm_rl(A, D11 + A_D11_XMITSTAT_1);
    g_assert_cmphex(w0, ==, 0x0300 | (0xf << 1) | 0x21);
    g_assert_cmphex(w1, ==, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);

    /* to a station nobody is: one entry, not acknowledged, sent once */
    for (unsigned k = 0; k < 2; k++) {
        uint16_t c;

        n = qbcm_frame(f, nobody, A->mac, 20);
        stw_le_p(f + 22, (7 + k) << 4);
        c = qbcm_post_ctl(&a, A, f, n,
                          0x3 | (k ? D11_AMPDU_LAST : D11_AMPDU_FIRST)
                          << D11_TXH_MAC_AMPDU_SHIFT, 0xcc, true);
        first = k ? first : c;
    }
    ampdu_wait(&a, A);
    w0 = qbcm_rl(A, D11 + A_D11_XMITSTAT_0);
    w1 = qbcm_rl(A, D11 + A_D11_XMITSTAT_1);
    g_assert_cmphex(w0, ==, (uint32_t)first << 16 | 0x1000 | 0x21);
    g_assert_cmphex(w1 & 0xffff, ==, 7 << 4);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
    qbcm_air_close(&a, 2);
}

static void test_ampdu(void)
{
    ampdu_case(NULL);
    ampdu_case(",airtime=on");
}

/*
 * Two cards 0 m apart (SNR 73 dB at 18 dBm, noise floor -95 dBm): a link
 * set by MAC address switches them off from each other, an attenuation
 * gives them an SNR where 54 Mb/s never gets through and 6 Mb/s always
 * does, the fallback rate saves a 54 Mb/s frame after the fallback limit,
 * a move 3 km away shows in the signal the receiver reports, and the
 * counters and the SNR read back over QMP.
 */
static void test_link_control(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[1500], rx[D11_RX_FW598_BUFSIZE];
    uint32_t cdb;
    size_t len;
    bool acked;
    QDict *resp, *l;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    len = qbcm_frame(f, B->mac, A->mac, 1000);
    qbcm_post(&a, A, f, len, true, 0xc, true);              /* 54 Mb/s */
    g_assert_cmpuint(sent(A, &acked), ==, 1);
    g_assert_true(acked);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);

    /* switched off (named by MAC): nobody hears, all 4 attempts wasted */
    air_qmp_ok(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
               "'a': '02:00:00:00:00:01', 'b': '02:00:00:00:00:02', "
               "'enabled': false } }");
    qbcm_post(&a, A, f, len, true, 0xc, true);
    g_assert_cmpuint(sent(A, &acked), ==, 4);
    g_assert_false(acked);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    l = qbcm_air_link(a.qts, &resp, "card0", "card1");
    g_assert_false(qdict_get_bool(l, "heard"));
    g_assert_true(qdict_get_bool(l, "configured"));
    qobject_unref(resp);

    /* on again, 98 dB apart (by name): SNR 18 - 98 + 95 = 15 dB */
    air_qmp_ok(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
               "'a': 'card1', 'b': 'card0', 'enabled': true, "
               "'attenuation': 98 } }");
    l = qbcm_air_link(a.qts, &resp, "card1", "card0");
    g_assert_cmpfloat(qdict_get_double(l, "snr"), ==, 15.0);
    g_assert_cmpfloat(qdict_get_double(l, "signal"), ==, -80.0);
    g_assert_true(qdict_get_bool(l, "heard"));
    qobject_unref(resp);
    qbcm_post(&a, A, f, len, true, 0xc, true);              /* 54: lost */
    g_assert_cmpuint(sent(A, &acked), ==, 4);
    g_assert_false(acked);
    g_assert_cmpint(qbcm_air_radio(a.qts, "card1", "rx-errors"), ==, 4);
    qbcm_post(&a, A, f, len, true, 0xb, true);              /* 6: fine */
    g_assert_cmpuint(sent(A, &acked), ==, 1);
    g_assert_true(acked);
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x20);
    qtest_memread(a.qts, B->rxbuf + 2400, rx, sizeof(rx));
    g_assert_cmpint((int8_t)rx[B->chip->rxh_power], ==, -80);

    /*
     * 54 Mb/s with a 6 Mb/s fallback after 2 attempts (LFFBLIM), the
     * header's fallback fields as b43 fills them
     */
    shm_w16(A, D11_SHM_SH_LFFBLIM, 2);
    {
        uint8_t h[D11_TXH_LEN] = { 0 };
        unsigned slot = A->txslot;
        uint64_t hb = A->txbuf + slot * 4096;

        stl_le_p(h, 0x3);
        stw_le_p(h + D11_TXH_PHY_CTL, 1);
        stw_le_p(h + D11_TXH_COOKIE, (2 << 12) | slot);
        h[D11_TXH_PLCP] = 0xc;
        h[D11_TXH_EXTRA_FT] = D11_TXH_EFT_FB_OFDM;
        h[D11_TXH_PLCP_FB] = 0xb;
        qtest_memwrite(a.qts, hb, h, sizeof(h));
        qtest_memwrite(a.qts, hb + 256, f, len);
        qbcm_desc(&a, A->txring + 16 * slot, D11_DESC_CTL0_SOF, D11_TXH_LEN,
                  hb);
        qbcm_desc(&a, A->txring + 16 * (slot + 1),
                  D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC, len, hb + 256);
        A->txslot = slot + 2;
        qbcm_wl(A, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, A->txslot * 16);
    }
    g_assert_cmpuint(sent(A, &acked), ==, 3);               /* 54, 54, 6 */
    g_assert_true(acked);

    /* the links forgotten; B 3 km away: -91.5 dBm, SNR 3.5 dB */
    air_qmp_ok(&a, "{ 'execute': 'wifi-link-clear' }");
    air_qmp_ok(&a, "{ 'execute': 'wifi-radio-move', 'arguments': { "
               "'radio': 'card1', 'x': 3000, 'y': 0, 'z': 0 } }");
    cdb = qbcm_rx_cd(B);
    len = qbcm_frame(f, B->mac, A->mac, 100);
    qbcm_post(&a, A, f, len, true, 10, false);              /* 1 Mb/s */
    g_assert_cmpuint(sent(A, &acked), ==, 1);
    g_assert_true(acked);
    g_assert_cmphex(qbcm_rx_cd(B), ==, cdb + 0x10);
    qtest_memread(a.qts, B->rxbuf + 2400 * (cdb / 0x10), rx, sizeof(rx));
    g_assert_cmpint((int8_t)rx[B->chip->rxh_power], ==, -92);
    l = qbcm_air_link(a.qts, &resp, "card0", "card1");
    g_assert_cmpfloat(qdict_get_double(l, "distance"), ==, 3000.0);
    g_assert_false(qdict_get_bool(l, "configured"));
    qobject_unref(resp);
    /* qom-get sees the move; decimals; the noise floor */
    air_qmp_ok(&a, "{ 'execute': 'qom-set', 'arguments': { "
               "'path': '/machine/peripheral/card1', 'property': 'y', "
               "'value': 0.25 } }");
    resp = qtest_qmp(a.qts, "{ 'execute': 'qom-get', 'arguments': { "
                     "'path': '/machine/peripheral/card1', 'property': 'x' } }");
    g_assert_cmpfloat(qdict_get_double(resp, "return"), ==, 3000.0);
    qobject_unref(resp);
    air_qmp_ok(&a, "{ 'execute': 'qom-set', 'arguments': { "
               "'path': '/objects/air0', 'property': 'noise-floor', "
               "'value': -60 } }");
    l = qbcm_air_link(a.qts, &resp, "card0", "card1");
    g_assert_false(qdict_get_bool(l, "heard"));     /* -91.5 < -60 - 5 */
    qobject_unref(resp);
    qbcm_post(&a, A, f, len, true, 10, false);
    g_assert_cmpuint(sent(A, &acked), ==, 4);
    g_assert_false(acked);
    g_assert_cmpint(qbcm_air_radio(a.qts, "card0", "tx-retries"), >=, 9);
    g_assert_cmpint(qbcm_air_radio(a.qts, "card1", "rx-frames"), ==, 4);

    /* what is refused */
    air_qmp_err(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
                "'a': 'card0', 'b': 'card1', 'loss': 1.5 } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
                "'a': 'card0', 'b': 'card1', 'attenuation': -3 } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
                "'medium': 'nope', 'a': 'card0', 'b': 'card1' } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-link-set', 'arguments': { "
                "'a': '', 'b': 'card1' } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-link-clear', 'arguments': { "
                "'a': 'card0' } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-link-clear', 'arguments': { "
                "'a': 'card0', 'b': 'card1' } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-radio-move', 'arguments': { "
                "'radio': 'card1', 'x': 1e7, 'y': 0, 'z': 0 } }");
    air_qmp_err(&a, "{ 'execute': 'wifi-radio-move', 'arguments': { "
                "'radio': 'nobody', 'x': 0, 'y': 0, 'z': 0 } }");
    air_qmp_err(&a, "{ 'execute': 'qom-set', 'arguments': { "
                "'path': '/objects/air0', 'property': 'noise-floor', "
                "'value': 10 } }");
    air_qmp_err(&a, "{ 'execute': 'query-wifi-air', 'arguments': { "
                "'medium': 'nope' } }");
    qbcm_air_close(&a, 2);
}

/* a wifi-traffic radio: N frames to a card, acknowledged; then stopped */
static void test_traffic(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QDict *r;

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-traffic,id=gen,medium=air0,"
                "addr=02:00:00:00:77:01,dest=02:00:00:00:00:01,len=100,"
                "count=5,interval-us=1000,rate=22",
    });
    g_assert_cmphex(qbcm_rx_cd(A), ==, 0);  /* not running yet */
    air_qmp_ok(&a, "{ 'execute': 'qom-set', 'arguments': { "
               "'path': '/machine/peripheral/gen', 'property': 'running', "
               "'value': true } }");
    qtest_clock_step(a.qts, 20 * 1000 * 1000);
    g_assert_cmphex(qbcm_rx_cd(A), ==, 5 * 0x10);
    r = qtest_qmp(a.qts, "{ 'execute': 'qom-get', 'arguments': { "
                  "'path': '/machine/peripheral/gen', 'property': 'acked' } }");
    g_assert_cmpint(qdict_get_int(r, "return"), ==, 5);
    qobject_unref(r);
    g_assert_cmpint(qbcm_air_radio(a.qts, "card0", "rx-frames"), ==, 5);
    g_assert_cmpint(qbcm_air_radio(a.qts, "gen", "tx-frames"), ==, 5);
    qbcm_air_close(&a, 1);
}

/*
 * Airtime on: the frame to a station in another process goes on the
 * netdev when it starts; the peer answers at once, before the frame has
 * ended here and been kept for resending.  That early ACK still counts:
 * nothing is resent (it once was, 40 ms later: most frames were).
 */
static void test_remote_arq_airtime(void)
{
    g_autofree uint8_t *buf = g_malloc0(8192);
    g_autofree uint8_t *out = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    uint16_t seq;
    size_t n;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, ",airtime=on");
    /* the peer's station is heard (airtime on: once its frame is over) */
    n = qbcm_air_frame(buf, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", 100,
                       QBCM_AIR_VERSION);
    qbcm_peer_send(fd, buf, n);
    for (int i = 0; i < 200 &&
         !(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) & 0x8000); i++) {
        qtest_clock_step(a.qts, 100 * 1000);
    }
    g_assert_true(qbcm_wait_reason(A, 0x8000));
    qtest_clock_step(a.qts, 10 * 1000 * 1000);

    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 1000);
    qbcm_post(&a, A, buf, n, true, 0xb, true);      /* 6 Mb/s: 1.4 ms */
    /* its start: DIFS + backoff; the frame is on the netdev, not over */
    qtest_clock_step(a.qts, 400 * 1000);
    n = peer_recv_data(&a, fd, out, 8192);
    seq = lduw_be_p(out + 14 + 46);
    qbcm_peer_ack(fd, A, seq);
    for (int i = 0; i < 20; i++) {
        qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON);     /* the ACK is read */
    }
    qtest_clock_step(a.qts, 100 * 1000 * 1000);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3); /* acked */
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 0);
    qbcm_peer_close(&a, &peer);
}

/* ---- RTS/CTS protection (airtime on) ------------------------------------ */

/* the RTS/CTS's PLCP header in the TX header (b43 xmit.h rts_plcp) */
#define TXH_RTS_PLCP            0x58

/*
 * Post @f on @c's engine 1 the way b43_generate_txhdr() does for a frame
 * it protects (IEEE80211_TX_RC_USE_RTS_CTS or _USE_CTS_PROTECT): mac_ctl
 * ACK | LONGFRAME | @prot, the main rate 54 Mb/s OFDM, the RTS/CTS rate
 * code @rts_code and its frame type @rts_ft (extra_ft bits 3:2), its PLCP,
 * and the RTS (16 bytes) or CTS-to-self (10 bytes) mac80211 built, @pf.
 * @prot 0: the same frame unprotected.
 */
static uint16_t post_prot(QBcmAir *a, QBcmCard *c, const uint8_t *f, size_t len,
                          uint32_t prot, uint8_t rts_code, uint8_t rts_ft,
                          const uint8_t *pf, size_t plen)
{
    uint8_t h[D11_TXH_LEN] = { 0 };
    uint16_t cookie = qbcm_next_cookie(c);

    stl_le_p(h + D11_TXH_MAC_CTL,
             D11_TXH_MAC_ACK | D11_TXH_MAC_LONGFRAME | prot);
    stw_le_p(h + D11_TXH_PHY_CTL, D11_TXH_PHY_ENC_OFDM);
    stw_le_p(h + D11_TXH_COOKIE, cookie);
    h[D11_TXH_PLCP] = 0xc;                          /* 54 Mb/s */
    if (prot) {
        h[D11_TXH_PHY_RATE_RTS] = rts_code;
        h[D11_TXH_EXTRA_FT] = rts_ft;
        stl_le_p(h + TXH_RTS_PLCP, (rts_code & 0xf) | (plen + 4) << 5);
        memcpy(h + D11_TXH_RTS_FRAME, pf, plen);
    }
    qbcm_post_txh(a, c, h, f, len);
    return cookie;
}

/*
 * The virtual time from now to @c's next TX status, in 1 us steps (the
 * air's timeline is in whole microseconds): exact.  @st: the status.
 */
static unsigned tx_us(QBcmAir *a, QBcmCard *c, uint32_t *st)
{
    for (unsigned us = 0; us < 3000; us++) {
        if (qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON) & D11_IRQ_TX_OK) {
            *st = txstat(c);
            return us;
        }
        qtest_clock_step(a->qts, 1000);
    }
    g_assert_not_reached();
}

/* slot @k of @c's RX ring into @rx; returns the frame's length (no FCS) */
static size_t rx_slot(QBcmAir *a, QBcmCard *c, unsigned k, uint8_t *rx)
{
    qtest_memread(a->qts, c->rxbuf + 2400 * k, rx, D11_RX_FW598_BUFSIZE);
    return lduw_le_p(rx) - D11_PLCP_LEN - 4;
}

#define RX_FRAME(rx)            ((rx) + D11_RX_FW598_FO + D11_PLCP_LEN)

/*
 * Monitor @m's slot @k: a control frame @fc0 of @len bytes to @ra (from
 * @ta, unless NULL), sent at 24 Mb/s OFDM (PLCP rate code 0x9) or, @cck1,
 * at 1 Mb/s CCK (signal 0x0a)
 */
static void mon_ctrl(QBcmAir *a, QBcmCard *m, unsigned k, uint8_t fc0,
                     size_t len, const uint8_t *ra, const uint8_t *ta,
                     bool cck1)
{
    uint8_t rx[D11_RX_FW598_BUFSIZE];

    g_assert_cmpuint(rx_slot(a, m, k, rx), ==, len);
    g_assert_cmphex(RX_FRAME(rx)[0], ==, fc0);
    g_assert_cmpmem(RX_FRAME(rx) + 4, 6, ra, 6);
    if (ta) {
        g_assert_cmpmem(RX_FRAME(rx) + 10, 6, ta, 6);
    }
    g_assert_cmphex((uint32_t)ldl_le_p(RX_FRAME(rx) + len), ==,
                    qbcm_fcs32(RX_FRAME(rx), len));
    if (cck1) {
        g_assert_cmphex(rx[D11_RX_FW598_FO], ==, 0x0a);
        g_assert_cmphex(rx[D11_RXH_PHY_STATUS0] & D11_RX_PHYST0_OFDM, ==, 0);
    } else {
        g_assert_cmphex(rx[D11_RX_FW598_FO] & 0xf, ==, 0x9);
        g_assert_cmphex(rx[D11_RXH_PHY_STATUS0] & D11_RX_PHYST0_OFDM, ==, 1);
    }
}

/*
 * RTS/CTS and CTS-to-self from the TX header (airtime on), as b43 asks for
 * them: A sends B a 1000-byte frame at 54 Mb/s, the protection at 24 Mb/s
 * OFDM; a monitor M (KEEP_CTL) watches the air.  The backoff is the same
 * in every case (the medium's seed is set again before each frame), so
 * the virtual time from posting to the TX status differs by the
 * protection's airtime exactly: RTS (20 bytes with FCS, 34 us) + SIFS +
 * CTS (14 bytes, 34 us) + SIFS = 88 us; CTS-to-self + SIFS = 44 us.  The
 * frame reaches B intact, the status says acked with one transmission,
 * and one RTS for the RTS case (XMITSTAT_0 bits 11:8).
 * Hostile headers: an RTS frame type neither CCK nor OFDM (extra_ft bits
 * 3:2 = 3), or an OFDM rate code the PHY does not know: the RTS and its CTS
 * go at 1 Mb/s CCK (long preamble: 352 + 10 + 304 + 10 = 676 us).  An RTS
 * nobody answers: given up after the short retry limit (7) of RTSs, the
 * frame never sent (frame count 0, RTS count 7, not acked).
 */
static void test_rts_cts(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1], *M = &a.c[2];
    uint8_t f[1100], rx[D11_RX_FW598_BUFSIZE];
    uint8_t rts[16] = { 0xb4, 0 }, cts[10] = { 0xc4, 0 };
    static const struct {
        uint32_t prot;
        uint8_t code, ft;
        unsigned extra_us;
    } runs[] = {
        { D11_TXH_MAC_SENDRTS, 0x9, D11_TXH_EFT_RTS_OFDM, 88 },
        { D11_TXH_MAC_SENDCTS, 0x9, D11_TXH_EFT_RTS_OFDM, 44 },
        { D11_TXH_MAC_SENDRTS, 0x9, D11_TXH_EFT_RTS_MASK, 676 },
        { D11_TXH_MAC_SENDRTS, 0x3, D11_TXH_EFT_RTS_OFDM, 676 },
    };
    unsigned base_us, us, mk, bk;
    uint16_t cookie;
    uint32_t st;
    size_t len;

    qbcm_air_open(&a, 3, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
    });
    monitor(M, false);
    len = qbcm_frame(f, B->mac, A->mac, 1000);
    /* mac80211's durations: CTS + frame + ACK + 3 SIFS; frame + ACK + 2 */
    stw_le_p(rts + 2, 34 + 182 + 34 + 30);
    memcpy(rts + 4, B->mac, 6);
    memcpy(rts + 10, A->mac, 6);
    stw_le_p(cts + 2, 182 + 34 + 20);
    memcpy(cts + 4, A->mac, 6);

    /*
     * Unprotected: DIFS 28 + k slots of 9 us (k in 0..15) + the frame,
     * 182 us; the status comes when the frame ends
     */
    qbcm_medium_set(&a, "seed", 7);
    cookie = post_prot(&a, A, f, len, 0, 0, 0, NULL, 0);
    base_us = tx_us(&a, A, &st);
    g_assert_cmpuint(base_us, >=, 28 + 182);
    g_assert_cmpuint(base_us, <=, 28 + 15 * 9 + 182);
    g_assert_cmpuint((base_us - 28 - 182) % 9, ==, 0);
    g_assert_cmphex(st, ==, (uint32_t)cookie << 16 | 0x1000 | 3);
    qtest_clock_step(a.qts, 2000 * 1000);       /* ACK over, NAVs idle */
    g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10);
    g_assert_cmphex(qbcm_rx_cd(M), ==, 0x20);   /* the frame, its ACK */

    for (unsigned i = 0; i < ARRAY_SIZE(runs); i++) {
        bool is_rts = runs[i].prot == D11_TXH_MAC_SENDRTS;

        bk = qbcm_rx_cd(B) / 16;
        mk = qbcm_rx_cd(M) / 16;
        qbcm_medium_set(&a, "seed", 7);
        cookie = post_prot(&a, A, f, len, runs[i].prot, runs[i].code,
                           runs[i].ft, is_rts ? rts : cts,
                           is_rts ? sizeof(rts) : sizeof(cts));
        us = tx_us(&a, A, &st);
        g_assert_cmpuint(us, ==, base_us + runs[i].extra_us);
        /* acked at the first transmission; the RTS counted */
        g_assert_cmphex(st, ==, (uint32_t)cookie << 16 | 0x1000 |
                        (is_rts ? 0x100 : 0) | 3);
        qtest_clock_step(a.qts, 2000 * 1000);
        /* B has the frame, intact; no control frame (no KEEP_CTL) */
        g_assert_cmphex(qbcm_rx_cd(B), ==, (bk + 1) * 16);
        g_assert_cmpuint(rx_slot(&a, B, bk, rx), ==, len);
        g_assert_cmpmem(RX_FRAME(rx), len, f, len);
        g_assert_cmphex((uint32_t)ldl_le_p(RX_FRAME(rx) + len), ==,
                        qbcm_fcs32(f, len));
        /* the monitor: RTS and CTS (or CTS-to-self), the frame, the ACK */
        if (is_rts) {
            g_assert_cmphex(qbcm_rx_cd(M), ==, (mk + 4) * 16);
            mon_ctrl(&a, M, mk, 0xb4, sizeof(rts), B->mac, A->mac, i >= 2);
            mon_ctrl(&a, M, mk + 1, 0xc4, sizeof(cts), A->mac, NULL,
                     i >= 2);
            mk += 2;
        } else {
            g_assert_cmphex(qbcm_rx_cd(M), ==, (mk + 3) * 16);
            mon_ctrl(&a, M, mk, 0xc4, sizeof(cts), A->mac, NULL, false);
            mk += 1;
        }
        g_assert_cmpuint(rx_slot(&a, M, mk, rx), ==, len);
        g_assert_cmpmem(RX_FRAME(rx), len, f, len);
        mon_ctrl(&a, M, mk + 1, 0xd4, IEEE80211_ACK_LEN, A->mac, NULL,
                 false);
    }

    /* an RTS nobody answers: 7 RTSs, the frame given up unsent */
    bk = qbcm_rx_cd(B) / 16;
    mk = qbcm_rx_cd(M) / 16;
    memcpy(rts + 4, nobody, 6);
    len = qbcm_frame(f, nobody, A->mac, 1000);
    cookie = post_prot(&a, A, f, len, D11_TXH_MAC_SENDRTS, 0x9,
                       D11_TXH_EFT_RTS_OFDM, rts, sizeof(rts));
    for (int i = 0; i < 100 && !(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) &
                                 D11_IRQ_TX_OK); i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
    }
    g_assert_cmphex(txstat(A), ==, (uint32_t)cookie << 16 | 0x0700 | 1);
    qtest_clock_step(a.qts, 2000 * 1000);
    g_assert_cmphex(qbcm_rx_cd(B), ==, bk * 16);
    g_assert_cmphex(qbcm_rx_cd(M), ==, (mk + 7) * 16);
    for (unsigned k = 0; k < 7; k++) {
        mon_ctrl(&a, M, mk + k, 0xb4, sizeof(rts), nobody, A->mac, false);
    }
    g_assert_cmpint(qbcm_air_radio(a.qts, "card0", "tx-frames"), ==, 5);
    qbcm_air_close(&a, 3);
}

/* ---- the card as an access point: beacons from its templates ---------- */

/* b43.h: the beacon's words in shared memory, its two templates */
#define B43_SHM_SH_DTIMPER      0x0012
#define B43_SHM_SH_BTL0         0x0018
#define B43_SHM_SH_BTL1         0x001a
#define B43_SHM_SH_TIMBPOS      0x001e
#define B43_SHM_SH_BEACPHYCTL   0x0054
#define B43_SHM_SH_BT_BASE0     0x0068
#define B43_SHM_SH_BT_BASE1     0x0468
#define BEACON_US               (100 * 1024)    /* 100 TU */
#define BEACON_TIM              51      /* the TIM element in beacon() */
#define DTIM_PERIOD             3
/* engine 4's ring and buffers, after engine 1's ring and A's RX ring */
#define MCAST_RING              0x4000
#define MCAST_BUF               0x8000

/* b43_ram_write(): a word of template RAM, its byte address first */
static void ram_w(QBcmCard *c, uint32_t off, uint32_t v)
{
    qbcm_wl(c, D11 + A_D11_RAM_CONTROL, off);
    qbcm_wl(c, D11 + A_D11_RAM_DATA, v);
}

/*
 * b43_write_template_common() at 1 Mb/s: the PLCP of @len bytes + FCS
 * (4 bytes, then 2 zero), the frame after it (its bytes 0 and 1 in the
 * upper half of the second word), its length with the PLCP in SHM @btl
 */
static void tpl_write(QBcmCard *c, uint32_t base, uint32_t btl,
                      const uint8_t *b, size_t len)
{
    ram_w(c, base, 0x0a | 0x04 << 8 | (uint32_t)(len + 4) * 8 << 16);
    ram_w(c, base + 4, b[0] << 16 | (uint32_t)b[1] << 24);
    for (size_t i = 2; i < len; i += 4) {
        uint32_t w = 0;

        for (size_t j = 0; j < 4 && i + j < len; j++) {
            w |= (uint32_t)b[i + j] << (8 * j);
        }
        ram_w(c, base + 8 + i - 2, w);
    }
    shm_w16(c, btl, len + 6);
}

/*
 * mac80211's beacon for @c (ieee80211_beacon_get()): to all, from and
 * BSSID @c, a timestamp the firmware overwrites (0xa5s), interval 100 TU,
 * ESS, SSID @ssid (4 bytes), rates, DS channel 6, a TIM (stale DTIM count
 * 7, period 3, nothing buffered)
 */
static size_t beacon(uint8_t *b, QBcmCard *c, const char *ssid)
{
    static const uint8_t ies[] = {
        1, 4, 0x82, 0x84, 0x8b, 0x96,
        3, 1, 6,
        IEEE80211_EID_TIM, 4, 7, DTIM_PERIOD, 0, 0,
    };

    memset(b, 0, 42);
    b[0] = IEEE80211_FC0(IEEE80211_TYPE_MGMT, IEEE80211_STYPE_BEACON);
    memset(b + 4, 0xff, 6);
    memcpy(b + 10, c->mac, 6);
    memcpy(b + 16, c->mac, 6);
    memset(b + 24, 0xa5, 8);
    stw_le_p(b + 32, 100);
    stw_le_p(b + 34, 0x0001);
    b[37] = 4;
    memcpy(b + 38, ssid, 4);
    memcpy(b + 42, ies, sizeof(ies));
    g_assert_cmphex(b[BEACON_TIM], ==, IEEE80211_EID_TIM);
    return 42 + sizeof(ies);
}

/* b43_time_lock() / b43_time_unlock(): TBTTHOLD */
static void time_lock(QBcmCard *c, bool on)
{
    uint32_t v = qbcm_rl(c, D11 + A_D11_MACCTL) & ~R_D11_MACCTL_TBTTHOLD_MASK;

    qbcm_wl(c, D11 + A_D11_MACCTL, v | (on ? R_D11_MACCTL_TBTTHOLD_MASK : 0));
    qbcm_rl(c, D11 + A_D11_MACCTL);
}

/* what a station has received: ring slots, beacons among them */
typedef struct {
    unsigned slot, beacons;
} BeaconRx;

/*
 * The next frame @c received is the beacon @b (@len bytes) the firmware
 * sent at TSF @tsf: the template with the timestamp filled in, the
 * firmware's own DTIM count (0 every third beacon: the first is a DTIM),
 * bitmap control @bc; 1 Mb/s CCK, its FCS right
 */
static void rx_beacon(QBcmAir *a, QBcmCard *c, BeaconRx *r, const uint8_t *b,
                      size_t len, uint64_t tsf, uint8_t bc)
{
    uint8_t rx[D11_RX_FW598_BUFSIZE], want[512] = { 0 };

    g_assert_cmpuint(rx_slot(a, c, r->slot++, rx), ==, len);
    memcpy(want, b, len);
    stq_le_p(want + 24, tsf);
    want[BEACON_TIM + 2] = (DTIM_PERIOD - r->beacons++ % DTIM_PERIOD) %
                           DTIM_PERIOD;
    want[BEACON_TIM + 4] = bc;
    g_assert_cmpmem(RX_FRAME(rx), len, want, len);
    g_assert_cmphex((uint32_t)ldl_le_p(RX_FRAME(rx) + len), ==,
                    qbcm_fcs32(want, len));
    g_assert_cmphex(rx[D11_RX_FW598_FO], ==, 0x0a);
    g_assert_cmphex(rx[D11_RXH_PHY_STATUS0] & D11_RX_PHYST0_OFDM, ==, 0);
}

/* step @us of virtual time; @c has received @n frames in all */
static void bcn_step(QBcmAir *a, QBcmCard *c, uint64_t us, unsigned n)
{
    qtest_clock_step(a->qts, us * 1000);
    g_assert_cmphex(qbcm_rx_cd(c), ==, n * 16);
}

/* a group frame on @c's engine 4 (SEND_AFTER_DTIM): 6 Mb/s, no ACK */
static uint16_t post_mcast(QBcmAir *a, QBcmCard *c, unsigned slot,
                           const uint8_t *f, size_t len)
{
    uint8_t h[D11_TXH_LEN] = { 0 };
    uint64_t ring = c->txring + MCAST_RING;
    uint64_t hb = c->txring + MCAST_BUF + slot * 0x400;
    uint16_t cookie = (5 << 12) | slot;

    stl_le_p(h + D11_TXH_MAC_CTL, D11_TXH_MAC_LONGFRAME);
    stw_le_p(h + D11_TXH_PHY_CTL, D11_TXH_PHY_ENC_OFDM);
    stw_le_p(h + D11_TXH_COOKIE, cookie);
    h[D11_TXH_PLCP] = 0xb;
    qtest_memwrite(a->qts, hb, h, sizeof(h));
    qtest_memwrite(a->qts, hb + 256, f, len);
    qbcm_desc(a, ring + 16 * slot, D11_DESC_CTL0_SOF, D11_TXH_LEN, hb);
    qbcm_desc(a, ring + 16 * (slot + 1), D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC,
              len, hb + 256);
    qbcm_wl(c, D11 + D11_DMA_ENGINE(4) + D11_DMA64_TXINDEX, (slot + 2) * 16);
    return cookie;
}

/*
 * Card A as b43 makes it an access point (main.c b43_adjust_opmode(),
 * b43_set_beacon_int(), handle_irq_beacon(), b43_write_beacon_template(),
 * dma.c b43_dma_tx() for SEND_AFTER_DTIM frames), card B a station that
 * receives its beacons; airtime off, so a beacon is on the air at its
 * TBTT.  TSF 0 at the start, interval 100 TU, CFP_START 100 TU: the
 * TBTTs are at TSF k * 102400 us, k >= 1, and a beacon's timestamp is
 * its TBTT.
 */
static void test_ap_beacons(void)
{
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t b0[512] = { 0 }, b1[512] = { 0 }, g[2][64];
    uint8_t rx[D11_RX_FW598_BUFSIZE];
    BeaconRx r = { 0 };
    uint16_t mc[2];
    uint64_t tsf;
    size_t len, glen;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    /* b43_dma_init() sets every TX ring up, engine 4's too */
    qbcm_set_ring(A, 4, false, A->txring + MCAST_RING);
    len = beacon(b0, A, "QEMU");
    beacon(b1, A, "QEMV");

    /* b43_adjust_opmode(): AP (INFRA stays set) */
    qbcm_wl(A, D11 + A_D11_MACCTL,
            qbcm_rl(A, D11 + A_D11_MACCTL) | R_D11_MACCTL_AP_MASK);
    /* b43_tsf_write(0) and b43_set_beacon_int(100), under the time lock */
    time_lock(A, true);
    qbcm_wl(A, D11 + A_D11_TSF_LOW, 0);
    qbcm_wl(A, D11 + A_D11_TSF_HIGH, 0);
    qbcm_wl(A, D11 + A_D11_TSF_CFP_REP, 100 << 16);
    qbcm_wl(A, D11 + A_D11_TSF_CFP_START, 100 << 10);
    time_lock(A, false);
    /* handle_irq_beacon(), the first time: both templates, BEACON0_VALID */
    tpl_write(A, B43_SHM_SH_BT_BASE0, B43_SHM_SH_BTL0, b0, len);
    tpl_write(A, B43_SHM_SH_BT_BASE1, B43_SHM_SH_BTL1, b0, len);
    shm_w16(A, B43_SHM_SH_BEACPHYCTL, 0xfcc0);      /* CCK, antennas auto */
    shm_w16(A, B43_SHM_SH_TIMBPOS, 6 + BEACON_TIM);
    shm_w16(A, B43_SHM_SH_DTIMPER, DTIM_PERIOD);
    qbcm_wl(A, D11 + A_D11_MACCMD, qbcm_rl(A, D11 + A_D11_MACCMD) |
            R_D11_MACCMD_BEACON0_VALID_MASK);

    /* the first second: k = 1..9, nine beacons, no TX status for them */
    bcn_step(&a, B, 1000 * 1000, 9);
    for (unsigned k = 1; k <= 9; k++) {
        rx_beacon(&a, B, &r, b0, len, k * BEACON_US, 0);
    }
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) & D11_IRQ_TX_OK, ==,
                    0);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_MACCMD) & 3, ==, 1);

    /*
     * Group frames after the DTIM beacon: two posted (mac80211 sets
     * MOREDATA in all, b43 puts the last one's cookie in SHM MCASTCOOKIE)
     * just after the DTIM beacon of k = 10; they wait through k = 11 and
     * 12, then follow k = 13, whose TIM says so, MOREDATA cleared in the
     * last ("Ucode will clear MOREDATA on the last frame for us")
     */
    bcn_step(&a, B, 30 * 1000, 10);                 /* TSF 1030000 */
    rx_beacon(&a, B, &r, b0, len, 10 * BEACON_US, 0);
    for (int i = 0; i < 2; i++) {
        glen = qbcm_frame(g[i], group, A->mac, 30 + i);
        g[i][1] = IEEE80211_FC1_FROMDS | IEEE80211_FC1_MOREDATA;
        memcpy(g[i] + 16, A->mac, 6);
        mc[i] = post_mcast(&a, A, 2 * i, g[i], glen);
        shm_w16(A, D11_SHM_SH_MCASTCOOKIE, mc[i]);
    }
    bcn_step(&a, B, 270 * 1000, 12);                /* TSF 1300000 */
    rx_beacon(&a, B, &r, b0, len, 11 * BEACON_US, 0);
    rx_beacon(&a, B, &r, b0, len, 12 * BEACON_US, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + D11_DMA_ENGINE(4) + D11_DMA64_TXSTATUS) &
                    0x1fff, ==, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) & D11_IRQ_TX_OK, ==,
                    0);
    bcn_step(&a, B, 100 * 1000, 15);                /* TSF 1400000 */
    rx_beacon(&a, B, &r, b0, len, 13 * BEACON_US, 1);
    g[1][1] &= ~IEEE80211_FC1_MOREDATA;
    for (int i = 0; i < 2; i++) {
        glen = 24 + 30 + i;
        g_assert_cmpuint(rx_slot(&a, B, r.slot++, rx), ==, glen);
        g_assert_cmpmem(RX_FRAME(rx), glen, g[i], glen);
        g_assert_cmphex((uint32_t)ldl_le_p(RX_FRAME(rx) + glen), ==,
                        qbcm_fcs32(g[i], glen));
        /* sent once, no ACK expected */
        g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==,
                        (uint32_t)mc[i] << 16 | 0x1000 | 1);
    }
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0), ==, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + D11_DMA_ENGINE(4) + D11_DMA64_TXSTATUS) &
                    0x1fff, ==, 4 * 16);

    /*
     * A new beacon (b43_update_templates(), handle_irq_beacon()) into the
     * template not VALID, 1: the firmware takes it at k = 14, clears
     * BEACON0_VALID and raises BEACON
     */
    qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, D11_IRQ_BEACON);
    tpl_write(A, B43_SHM_SH_BT_BASE1, B43_SHM_SH_BTL1, b1, len);
    qbcm_wl(A, D11 + A_D11_MACCMD, qbcm_rl(A, D11 + A_D11_MACCMD) |
            R_D11_MACCMD_BEACON1_VALID_MASK);
    bcn_step(&a, B, 100 * 1000, 16);                /* TSF 1500000 */
    rx_beacon(&a, B, &r, b1, len, 14 * BEACON_US, 0);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_MACCMD) & 3, ==, 2);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) & D11_IRQ_BEACON, ==,
                    D11_IRQ_BEACON);

    /*
     * Hostile: template 0 again, its length in SHM beyond the template
     * (0x200 with the PLCP): the firmware switches to it and sends
     * nothing (LOG_GUEST_ERROR), k = 15..24; nor with 0xffff (k = 25, 26),
     * nor shorter than the header and fixed fields (k = 27, 28)
     */
    qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, D11_IRQ_BEACON);
    shm_w16(A, B43_SHM_SH_BTL0, 0x201);
    qbcm_wl(A, D11 + A_D11_MACCMD, qbcm_rl(A, D11 + A_D11_MACCMD) |
            R_D11_MACCMD_BEACON0_VALID_MASK);
    bcn_step(&a, B, 1000 * 1000, 16);               /* TSF 2500000 */
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_MACCMD) & 3, ==, 1);
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_GEN_IRQ_REASON) & D11_IRQ_BEACON, ==,
                    D11_IRQ_BEACON);
    shm_w16(A, B43_SHM_SH_BTL0, 0xffff);
    bcn_step(&a, B, 200 * 1000, 16);                /* TSF 2700000 */
    shm_w16(A, B43_SHM_SH_BTL0, 6 + 24 + 12 - 1);
    bcn_step(&a, B, 200 * 1000, 16);                /* TSF 2900000 */
    /* the whole template, 0x200: a beacon again (k = 29), zeros after */
    shm_w16(A, B43_SHM_SH_BTL0, 0x200);
    bcn_step(&a, B, BEACON_US, 17);                 /* TSF 3002400 */
    rx_beacon(&a, B, &r, b0, 0x200 - 6, 29 * BEACON_US, 0);
    /* b43's length: the beacon as before (k = 30) */
    shm_w16(A, B43_SHM_SH_BTL0, len + 6);
    bcn_step(&a, B, BEACON_US, 18);                 /* TSF 3104800 */
    rx_beacon(&a, B, &r, b0, len, 30 * BEACON_US, 0);

    /*
     * An interval under 1 TU (CFP_REP bits 31:6 in us): no beacon at
     * all, not one every few microseconds (nor a division by zero)
     */
    for (int i = 0; i < 3; i++) {
        static const uint32_t rep[] = { 1023 << 6, 1 << 6, 0 };

        time_lock(A, true);
        qbcm_wl(A, D11 + A_D11_TSF_CFP_REP, rep[i]);
        time_lock(A, false);
        bcn_step(&a, B, 100 * 1000, 18);
    }
    /* 1 TU, the shortest: exactly ten beacons in 10 TU, 1 TU apart */
    tsf = 3104800 + 300 * 1000;
    g_assert_cmpuint(tsf % 1024, ==, 0);
    time_lock(A, true);
    qbcm_wl(A, D11 + A_D11_TSF_CFP_REP, 1 << 16);
    qbcm_wl(A, D11 + A_D11_TSF_CFP_START, 1 << 10);
    time_lock(A, false);
    bcn_step(&a, B, 10 * 1024, 28);
    for (unsigned k = 1; k <= 10; k++) {
        rx_beacon(&a, B, &r, b0, len, tsf + k * 1024, 0);
    }
    qbcm_air_close(&a, 2);
}

/*
 * The hostile card's RX header site (hw/net/bcm43xx/hostile.h): B, hostile
 * at that site only (hostile-sites=16), writes the frame's header with the
 * field the input names changed (word 0, the frame length, set to 0x1234)
 * and the frame itself as it was on the air; the input exhausted, the next
 * header is honest.  The card's own state is not changed: RX moves on.
 */
static void test_hostile_rx_header(void)
{
    static const uint8_t in[] = { 5, 0, 0x34, 0x12, 0, 0 };
    g_autofree char *path = NULL;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[256], rx[512];
    size_t len;
    bool acked;
    QDict *r;
    int fd = g_file_open_tmp("bcm-hostile-XXXXXX", &path, NULL);

    g_assert(fd >= 0);
    g_assert_cmpint(write(fd, in, sizeof(in)), ==, sizeof(in));
    close(fd);
    qbcm_air_open(&a, 2, ",hostile-sites=16", &(QBcmAirOpts) {
        .chip = chip,
    });
    r = qtest_qmp(a.qts, "{ 'execute': 'qom-set', 'arguments': { "
                  "'path': '/machine/peripheral/card1', 'property': "
                  "'hostile', 'value': %s } }", path);
    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);

    len = qbcm_frame(f, B->mac, A->mac, 100);
    for (int i = 0; i < 2; i++) {
        qbcm_post(&a, A, f, len, true, 0xb, true);
        g_assert_cmpuint(sent(A, &acked), ==, 1);
        g_assert_true(acked);
        g_assert_cmphex(qbcm_rx_cd(B), ==, 0x10 * (i + 1));
        qtest_memread(a.qts, B->rxbuf + 2400 * i, rx, sizeof(rx));
        g_assert_cmphex(lduw_le_p(rx), ==, i ? 6 + len + 4 : 0x1234);
        g_assert_cmpmem(rx + D11_RX_FW598_FO + 6, len, f, len);
    }
    r = qtest_qmp(a.qts, "{ 'execute': 'qom-get', 'arguments': { "
                  "'path': '/machine/peripheral/card1', 'property': "
                  "'hostile-perturbed' } }");
    g_assert_cmpint(qdict_get_int(r, "return"), ==, 1);
    qobject_unref(r);
    qbcm_air_close(&a, 2);
    unlink(path);
}

/* a test of the cards on the air, for one chip: /bcm43xx/<chip>/<name> */
typedef struct {
    const char *chip;
    void (*fn)(void);
} ChipTest;

static void run_chip_test(const void *data)
{
    const ChipTest *t = data;

    chip = t->chip;
    t->fn();
}

static void add_test(const char *chip, const char *name, void (*fn)(void))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/%s", chip, name);
    ChipTest *t = g_new(ChipTest, 1);

    *t = (ChipTest) { .chip = chip, .fn = fn };
    qtest_add_data_func_full(path, t, run_chip_test, g_free);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);

    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_test(chips[i], "air/hostile-peer", test_hostile_peer);
        add_test(chips[i], "air/remote-arq-airtime", test_remote_arq_airtime);
        add_test(chips[i], "air/hostile-peer-airtime",
                 test_hostile_peer_airtime);
        add_test(chips[i], "air/remote-arq", test_remote_arq);
        add_test(chips[i], "air/remote-arq-late-ack",
                 test_remote_arq_late_ack);
        add_test(chips[i], "air/remote-dup", test_remote_dup);
        add_test(chips[i], "air/link-control", test_link_control);
        add_test(chips[i], "xmit/ampdu", test_ampdu);
        add_test(chips[i], "air/traffic-rx", test_traffic);
        add_test(chips[i], "air/airtime", test_airtime);
        add_test(chips[i], "xmit/tx-fifo", test_tx_fifo);
        add_test(chips[i], "xmit/tx-fifo-migration", test_tx_fifo_migration);
        add_test(chips[i], "air/collision", test_collision);
        add_test(chips[i], "air/ack-frames", test_ack_frames);
        add_test(chips[i], "air/bad-fcs", test_bad_fcs);
        add_test(chips[i], "xmit/rts-cts", test_rts_cts);
        add_test(chips[i], "air/ap-beacons", test_ap_beacons);
        add_test(chips[i], "hostile/rx-header", test_hostile_rx_header);
    }

    return g_test_run();
}
