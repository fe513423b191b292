/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331 and its air against hostile input: one
 * test per defect an outside review found (each failed before its fix,
 * the memory ones under ASan/UBSan):
 *  - TX frames shorter than the TX header or the 802.11 header: what the
 *    TX status reports comes from the posted bytes, never from the bounce
 *    buffer's earlier contents (host heap);
 *  - a frame to a station in another process shorter than a data header
 *    is not kept for resending (its ACK check read past it);
 *  - an RX buffer on a root port's Slot Control register: the card's own
 *    DMA unplugs it in the middle of a receive;
 *  - the virtual AP's station table: a flood of authentications does not
 *    lock stations out, unassociated entries expire, idle stations are
 *    polled and dropped when they do not answer;
 *  - (second review) neither does a flood of stations that associate and
 *    send keep-alives, on an open or a WPA2 network, and a station that
 *    passes traffic keeps its place through such a flood.
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
#include "qobject/qjson.h"

#define MACCTL_ENABLED  0x00000001u
#define MACCTL_PROMISC  0x01000000u

/* TX status of the frame just posted on @c */
static void tx_status(QBcmCard *c, uint32_t *w0, uint32_t *w1)
{
    g_assert_true(qbcm_wait_reason(c, 0x20000000));
    *w0 = qbcm_rl(c, D11 + A_D11_XMITSTAT_0);
    *w1 = qbcm_rl(c, D11 + A_D11_XMITSTAT_1);
    qbcm_wl(c, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
}

/* post @len bytes as one SOF|EOF descriptor: a "frame" of any length */
static void post_raw(QBcmAir *a, QBcmCard *c, const uint8_t *buf, size_t len)
{
    unsigned slot = c->txslot;
    uint64_t hb = c->txbuf + slot * 4096;

    qtest_memwrite(a->qts, hb, buf, len);
    qbcm_desc(a, c->txring + 16 * slot,
              D11_DESC_CTL0_SOF | D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC, len,
              hb);
    c->txslot = slot + 1;
    qbcm_wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, c->txslot * 16);
}

/*
 * Finding 1: d11_tx_frame() read mac_ctl, phy_ctl, the cookie and the
 * sequence field at fixed offsets whatever the posted length.  A good
 * frame first leaves its header (cookie, sequence 0x123) in the bounce
 * buffer; the short ones after it must report zeros, not that.
 */
static void test_tx_short(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    uint8_t f[D11_TXH_LEN + 64];
    uint32_t w0, w1;
    uint16_t cookie;
    size_t len;

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) { .chip = chip });
    len = qbcm_frame(f, B->mac, A->mac, 20);
    cookie = qbcm_post(&a, A, f, len, true, 0xc, true);
    tx_status(A, &w0, &w1);
    g_assert_cmphex(w0 >> 16, ==, cookie);
    g_assert_cmphex(w1, ==, 0x123);

    /* 4 bytes: no TX header at all; "not sent", cookie 0, nothing else */
    memset(f, 0, sizeof(f));
    f[0] = 0x03;
    post_raw(&a, A, f, 4);
    tx_status(A, &w0, &w1);
    g_assert_cmphex(w0, ==, 0x00000001);
    g_assert_cmphex(w1, ==, 0);

    /* the TX header and a 10..21-byte frame: sequence field not posted */
    for (size_t flen = 10; flen <= 21; flen++) {
        memset(f, 0, sizeof(f));
        stl_le_p(f, 0x2);                   /* no ACK wanted */
        stw_le_p(f + 0x4c, 0x2a00 | flen);
        f[0x70] = 0xc;
        qbcm_frame(f + D11_TXH_LEN, B->mac, A->mac, 0);
        post_raw(&a, A, f, D11_TXH_LEN + flen);
        tx_status(A, &w0, &w1);
        g_assert_cmphex(w0 >> 16, ==, 0x2a00 | flen);
        g_assert_cmphex(w0 & 1, ==, 1);
        g_assert_cmphex(w1, ==, 0);
    }
    /* the frame on the air is the posted bytes, nothing more */
    g_assert_true(qbcm_wait_reason(B, 0x8000));
    qbcm_air_close(&a, 2);
}

/*
 * Finding 2: a unicast "data frame" of 10 bytes (FC, duration, RA) to a
 * station in another process was kept for resending; the ACK check then
 * compared the 6 bytes at offset 10, past its end.  It must not be kept
 * (nothing to resend, nothing compared); a real data frame still is.
 */
static void test_arq_short(const void *data)
{
    const char *chip = data;
    g_autofree uint8_t *buf = g_malloc0(8192);
    g_autofree uint8_t *out = g_malloc0(8192);
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer peer;
    size_t n;
    int fd;

    fd = qbcm_peer_open(&a, &peer, chip, NULL);
    qbcm_peer_heard(fd, A);

    /* 10 bytes to it: acknowledged (it lives over there), not kept */
    qbcm_frame(buf, qbcm_peer_sta, A->mac, 0);
    qbcm_post(&a, A, buf, 10, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    g_assert_cmphex(qbcm_rl(A, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    qbcm_wl(A, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    n = qbcm_peer_recv(fd, out, 8192);
    g_assert_cmpuint(n, ==, 14 + QBCM_AIR_HDR + 10);
    /* the peer's ACK naming it: nothing to match (and nothing read) */
    qbcm_peer_ack(fd, A, lduw_be_p(out + 14 + 46));
    qtest_clock_step(a.qts, 100 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 0);

    /* a 24-byte data frame is kept: no ACK, so it is sent again */
    n = qbcm_frame(buf, qbcm_peer_sta, A->mac, 0);
    qbcm_post(&a, A, buf, n, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(A, 0x20000000));
    qtest_clock_step(a.qts, 50 * 1000 * 1000);
    g_assert_cmpuint(qbcm_medium_get(&a, "remote-resent"), ==, 1);
    qbcm_peer_close(&a, &peer);
}

/*
 * Finding 3: the card behind a pcie-root-port with native hotplug; its RX
 * descriptor points at the root port's Slot Control register (ECAM), and
 * a frame of 1782 bytes makes the RX header's first word 0x0700: power
 * off, indicator off.  QEMU unplugs the card inside the card's own
 * pci_dma_write().  The card must stop there (no IRQ update on freed
 * config space, no use of freed memory), QEMU must go on, and the other
 * card must keep working.
 */
#define ECAM_BASE       0xb0000000u
#define RP_SLOT         3

static void test_unplug_by_dma(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *V = &a.c[0], *B = &a.c[1];
    QPCIDevice *mch, *rp;
    g_autofree uint8_t *f = g_malloc0(2048);
    uint64_t win;
    uint8_t cap;
    size_t len;
    g_autoptr(GString) js = NULL;
    QDict *r;

    a.qts = qtest_initf("-M q35 -m 512M "
        "-global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off "
        "-object wifi-medium,id=air0 "
        "-device pcie-root-port,id=rp0,bus=pcie.0,addr=03.0,chassis=1,slot=1 "
        "-device %s,id=victim,bus=rp0,addr=00.0,medium=air0,"
        "mac=02:00:00:00:00:01 "
        "-device %s,addr=05.0,medium=air0,mac=02:00:00:00:00:02", chip, chip);
    a.bus = qpci_new_pc(a.qts, NULL);
    /* ECAM on (what firmware does): PCIEXBAR, 256 MiB at 0xb0000000 */
    mch = qpci_device_find(a.bus, 0);
    qpci_config_writel(mch, 0x64, 0);
    qpci_config_writel(mch, 0x60, ECAM_BASE | 1);
    /* the root port: bus 1 behind it, a 1 MiB memory window, enabled */
    rp = qpci_device_find(a.bus, QPCI_DEVFN(RP_SLOT, 0));
    g_assert_nonnull(rp);
    qpci_config_writeb(rp, PCI_PRIMARY_BUS, 0);
    qpci_config_writeb(rp, PCI_SECONDARY_BUS, 1);
    qpci_config_writeb(rp, PCI_SUBORDINATE_BUS, 1);
    win = ROUND_UP(a.bus->mmio_alloc_ptr, 0x100000);
    a.bus->mmio_alloc_ptr = win;
    qpci_config_writew(rp, PCI_MEMORY_BASE, (win >> 16) & 0xfff0);
    qpci_config_writew(rp, PCI_MEMORY_LIMIT, (win >> 16) & 0xfff0);
    qpci_device_enable(rp);
    cap = qpci_find_capability(rp, PCI_CAP_ID_EXP, 0);
    g_assert_cmpuint(cap, !=, 0);

    for (int i = 0; i < 2; i++) {
        QBcmCard *c = &a.c[i];

        /* card 0 behind the root port: bus 1, 00.0 */
        qbcm_card_layout(c, i, 0, i ? QPCI_DEVFN(5, 0) : 1 << 8);
        qbcm_card_up(&a, c, i);
        if (!i) {
            g_assert_cmpuint(a.bus->mmio_alloc_ptr, <=, win + 0x100000);
            a.bus->mmio_alloc_ptr = win + 0x100000;
        }
    }
    /* the victim receives fine through the root port */
    len = qbcm_frame(f, V->mac, B->mac, 40);
    qbcm_post(&a, B, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(V, 0x8000));
    g_assert_true(qbcm_wait_reason(B, 0x20000000));
    g_assert_cmphex(qbcm_rl(B, D11 + A_D11_XMITSTAT_0) & 3, ==, 3);
    qbcm_wl(B, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);

    /* its next RX buffer: the root port's Slot Control register */
    qbcm_desc(&a, V->rxring + 16, 0, D11_RX_FW598_BUFSIZE,
              ECAM_BASE + (RP_SLOT << 15) + cap + PCI_EXP_SLTCTL);
    len = qbcm_frame(f, V->mac, B->mac, 0x700 - 6 - 4 - 24);
    g_assert_cmpuint(len, ==, 1782);
    qbcm_post(&a, B, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(B, 0x20000000));
    g_assert_cmphex(qbcm_rl(B, D11 + A_D11_XMITSTAT_0) & 3, ==,
                    3); /* it was there */
    qbcm_wl(B, D11 + A_D11_GEN_IRQ_REASON, 0x20000000);
    for (int i = 0; i < 20; i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
    }
    /* QEMU is alive, the victim gone */
    r = qtest_qmp(a.qts, "{ 'execute': 'qom-list', 'arguments': "
                  "{ 'path': '/machine/peripheral' } }");
    g_assert_nonnull(qdict_get(r, "return"));
    js = qobject_to_json(QOBJECT(r));
    g_assert_null(strstr(js->str, "victim"));
    qobject_unref(r);
    g_assert_cmphex(qpci_config_readw(V->dev, PCI_VENDOR_ID), ==, 0xffff);

    /* the other card still sends: to the victim nobody acknowledges now */
    len = qbcm_frame(f, V->mac, B->mac, 40);
    qbcm_post(&a, B, f, len, true, 0xc, true);
    g_assert_true(qbcm_wait_reason(B, 0x20000000));
    g_assert_cmphex(qbcm_rl(B, D11 + A_D11_XMITSTAT_0) & 3, ==, 1);
    g_free(V->dev);
    g_free(B->dev);
    g_free(mch);
    g_free(rp);
    qpci_free_pc(a.bus);
    qtest_quit(a.qts);
}

/*
 * The AP drops a retry of the last data frame of its TID (its ACK was
 * lost), as mac80211 does: two stations associate, one sends a frame to
 * the other (intra-BSS, forwarded by the AP), then the same frame again
 * with the Retry bit; then a new frame.  Before, the retry was forwarded a
 * second time (second review, the duplicate ping replies of
 * guest-crypto-wep; the AP had no duplicate detection).  A retry of a
 * frame the AP did not see last (another sequence number) goes through.
 */
/*
 * data frames forwarded to @da in @c's RX ring, each counted once (the
 * AP's own retries of a frame to a made-up station that never answers
 * carry the Retry bit)
 */
static unsigned rx_forwarded(QBcmAir *a, QBcmCard *c, const uint8_t *da)
{
    unsigned cd = qbcm_rx_cd(c) / 16;
    uint8_t rx[128];
    unsigned n = 0;

    for (unsigned k = 0; k < cd; k++) {
        const uint8_t *f = rx + D11_RX_FW598_FO + 6;

        qtest_memread(a->qts, c->rxbuf + 2400 * k, rx, sizeof(rx));
        n += f[0] == 0x08 && (f[1] & 0x0b) == 0x02 && !memcmp(f + 4, da, 6);
    }
    return n;
}

static void test_ap_retry_dup(const void *data)
{
    const char *chip = data;
    static const uint8_t sta2[6] = { 2, 0x5a, 0, 0, 0, 2 };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t f[128];

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03",
    });
    qbcm_wl(A, D11 + A_D11_MACCTL,
            qbcm_rl(A, D11 + A_D11_MACCTL) | MACCTL_PROMISC);
    qbcm_auth_from(&a, A, A->mac);
    qbcm_auth_from(&a, A, sta2);
    qbcm_run_ms(&a, A, 20);
    qbcm_assoc_from(&a, A, A->mac);
    qbcm_assoc_from(&a, A, sta2);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpint(qbcm_rx_scan(&a, A, 0x10, A->mac).last_status, ==, 0);
    g_assert_cmpint(qbcm_rx_scan(&a, A, 0x10, sta2).last_status, ==, 0);
    qbcm_rx_rewind(A);

    /* A -> sta2 through the AP: ToDS, BSSID, SA, DA; LLC/SNAP IPv4 */
    memset(f, 0, sizeof(f));
    qbcm_to_ds_frame(f, A->mac, sta2, 100 - 32);
    stw_le_p(f + 22, 0x100 << 4);
    qbcm_post(&a, A, f, 100, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpuint(rx_forwarded(&a, A, sta2), ==, 1);
    f[1] |= 0x08;                               /* the same, retried */
    qbcm_post(&a, A, f, 100, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpuint(rx_forwarded(&a, A, sta2), ==, 1);
    stw_le_p(f + 22, 0x101 << 4);               /* a retry of another one */
    qbcm_post(&a, A, f, 100, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpuint(rx_forwarded(&a, A, sta2), ==, 2);
    f[1] &= ~0x08;                              /* same number, no retry */
    qbcm_post(&a, A, f, 100, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpuint(rx_forwarded(&a, A, sta2), ==, 3);
    qbcm_air_close(&a, 1);
}

/*
 * Finding 4: 32 authentications from 32 made-up addresses filled the
 * table for good (status 17 for everyone after them, until reset).
 */
static void test_ap_auth_flood(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t fake[6] = { 2, 0xfa, 0, 0, 0, 0 };
    QBcmRxScan sc;

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03",
    });
    for (int i = 0; i < 32; i++) {
        fake[5] = i;
        qbcm_auth_from(&a, A, fake);
    }
    qbcm_run_ms(&a, A, 50);
    /* a real station authenticates and associates */
    qbcm_rx_rewind(A);
    qbcm_auth_from(&a, A, A->mac);
    qbcm_run_ms(&a, A, 20);
    sc = qbcm_rx_scan(&a, A, 0xb0, A->mac);
    g_assert_cmpuint(sc.count, ==, 1);
    g_assert_cmpint(sc.last_status, ==, 0);
    qbcm_assoc_from(&a, A, A->mac);
    qbcm_run_ms(&a, A, 20);
    sc = qbcm_rx_scan(&a, A, 0x10, A->mac);
    g_assert_cmpuint(sc.count, ==, 1);
    g_assert_cmpint(sc.last_status, ==, 0);

    /* a second flood does not take the associated station's place */
    for (int i = 32; i < 96; i++) {
        fake[5] = i;
        qbcm_auth_from(&a, A, fake);
        if (i % 16 == 0) {
            qbcm_run_ms(&a, A, 10);
        }
    }
    qbcm_run_ms(&a, A, 50);
    qbcm_rx_rewind(A);
    qbcm_assoc_from(&a, A, A->mac);     /* reassociating: still known */
    qbcm_run_ms(&a, A, 20);
    sc = qbcm_rx_scan(&a, A, 0x10, A->mac);
    g_assert_cmpuint(sc.count, ==, 1);
    g_assert_cmpint(sc.last_status, ==, 0);

    /*
     * 30 s later the flood's entries are gone: deauthenticated (reason 2,
     * previous authentication no longer valid), seen in promiscuous mode
     */
    qbcm_run_ms(&a, A, 29000);
    qbcm_rx_rewind(A);
    qbcm_wl(A, D11 + A_D11_MACCTL,
            qbcm_rl(A, D11 + A_D11_MACCTL) | MACCTL_PROMISC);
    qbcm_run_ms(&a, A, 2000);
    sc = qbcm_rx_scan(&a, A, 0xc0, NULL);
    g_assert_cmpuint(sc.count, >=, 31);
    g_assert_cmpint(sc.last_status, ==, 2);
    sc = qbcm_rx_scan(&a, A, 0xc0, A->mac);
    g_assert_cmpuint(sc.count, ==, 0);
    qbcm_air_close(&a, 1);
}

/*
 * An associated station silent for max-inactivity is polled with a null
 * data frame; it stays while it acknowledges, and is deauthenticated
 * (reason 4) when it does not.
 */
static void test_ap_inactivity(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t f[64];
    QBcmRxScan sc;
    size_t n;

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03,max-inactivity=2",
    });
    qbcm_ap_join(&a, A, A->mac);

    /* 2 s of silence: polled (null function, from DS), acknowledged */
    qbcm_rx_rewind(A);
    qbcm_run_ms(&a, A, 2500);
    sc = qbcm_rx_scan(&a, A, 0x48, A->mac);
    g_assert_cmpuint(sc.count, ==, 1);
    qbcm_run_ms(&a, A, 1000);
    sc = qbcm_rx_scan(&a, A, 0xc0, A->mac);
    g_assert_cmpuint(sc.count, ==, 0);

    /* the station stops answering (MAC off): the next poll drops it */
    qbcm_wl(A, D11 + A_D11_MACCTL,
            qbcm_rl(A, D11 + A_D11_MACCTL) & ~MACCTL_ENABLED);
    qbcm_run_ms(&a, A, 3000);
    qbcm_wl(A, D11 + A_D11_MACCTL,
            qbcm_rl(A, D11 + A_D11_MACCTL) | MACCTL_ENABLED);
    /* its data now gets a deauthentication: class 3 from a stranger */
    qbcm_rx_rewind(A);
    n = qbcm_mgmt(f, 0x08, A->mac);
    f[1] = 0x01;                            /* to DS */
    memcpy(f + n, "\xaa\xaa\x03\x00\x00\x00\x08\x00", 8);
    qbcm_post(&a, A, f, n + 8 + 20, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    sc = qbcm_rx_scan(&a, A, 0xc0, A->mac);
    g_assert_cmpuint(sc.count, >=, 1);
    g_assert_cmpint(sc.last_status, ==, 7);
    qbcm_air_close(&a, 1);
}

/* ---- floods of associated stations (second review) --------------------- */

#define FLOOD_STA       32      /* the AP's whole station table */
#define KEEPALIVE_S     20      /* a flood station's keep-alive period */

/* the flood's made-up station number @i */
static void fake_addr(uint8_t *addr, unsigned i)
{
    addr[0] = 2;
    addr[1] = 0xfa;
    addr[2] = 0;
    addr[3] = 0;
    addr[4] = i >> 8;
    addr[5] = i;
}

/* let @ms of virtual time pass in steps of 100 ms (long idle stretches) */
static void idle_ms(QBcmAir *a, QBcmCard *c, unsigned ms)
{
    for (unsigned i = 0; i < ms / 100; i++) {
        qtest_clock_step(a->qts, 100 * 1000 * 1000);
        qbcm_rl(c, D11 + A_D11_GEN_IRQ_REASON);
    }
}

static void promisc(QBcmCard *c, bool on)
{
    uint32_t v = qbcm_rl(c, D11 + A_D11_MACCTL) & ~MACCTL_PROMISC;

    qbcm_wl(c, D11 + A_D11_MACCTL, v | (on ? MACCTL_PROMISC : 0));
}

/* a station that says it leaves (deauthentication, reason 3) */
static void deauth_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    uint8_t f[64];
    size_t n = qbcm_mgmt(f, 0xc0, sa);

    qbcm_tx_room(a, c);
    stw_le_p(f + n, 3);
    qbcm_post(a, c, f, n + 2, true, 0x0a, false);
}

/* a null data frame to the DS: the cheapest keep-alive */
static void null_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    uint8_t f[64];
    size_t n = qbcm_mgmt(f, 0x48, sa);

    qbcm_tx_room(a, c);
    f[1] = 0x01;
    qbcm_post(a, c, f, n, true, 0x0a, false);
}

/* an IPv4 packet from @sa to a host behind the AP */
static void data_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    static const uint8_t host[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
    uint8_t f[128];

    qbcm_tx_room(a, c);
    qbcm_post(a, c, f, qbcm_to_ds_frame(f, sa, host, 40), true, 0xc, true);
}

/* a WPA2 association request: privacy, and the RSN element (CCMP, PSK) */
static void assoc_rsn_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa)
{
    static const uint8_t rsn[] = {
        48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4,
        1, 0, 0x00, 0x0f, 0xac, 2, 0, 0,
    };

    qbcm_assoc_req(a, c, sa, 0x0411, rsn, sizeof(rsn));
}

/*
 * The flood: made-up stations @from..@to-1 authenticate and associate
 * (with an RSN element on a WPA2 network, never answering the handshake)
 */
static void flood(QBcmAir *a, QBcmCard *c, unsigned from, unsigned to, bool rsn)
{
    uint8_t fake[6];

    for (unsigned i = from; i < to; i++) {
        fake_addr(fake, i);
        qbcm_auth_from(a, c, fake);
        if (rsn) {
            assoc_rsn_from(a, c, fake);
        } else {
            qbcm_assoc_from(a, c, fake);
        }
    }
}

static void keepalive(QBcmAir *a, QBcmCard *c, unsigned from, unsigned to)
{
    uint8_t fake[6];

    for (unsigned i = from; i < to; i++) {
        fake_addr(fake, i);
        null_from(a, c, fake);
    }
}

/*
 * A real station joins: the AP's answers to its authentication and
 * association (status, -1 when none came), and the reason of the last
 * deauthentication the AP sent anyone meanwhile (-1: none), seen in
 * promiscuous mode: with a full table, the station it made room from.
 */
typedef struct {
    int auth, assoc, evict;
} Join;

static Join join(QBcmAir *a, QBcmCard *c, bool rsn)
{
    Join j;
    QBcmRxScan sc;

    qbcm_rx_rewind(c);
    promisc(c, true);
    qbcm_auth_from(a, c, c->mac);
    qbcm_run_ms(a, c, 20);
    j.auth = qbcm_rx_scan(a, c, 0xb0, c->mac).last_status;
    if (rsn) {
        assoc_rsn_from(a, c, c->mac);
    } else {
        qbcm_assoc_from(a, c, c->mac);
    }
    qbcm_run_ms(a, c, 20);
    j.assoc = qbcm_rx_scan(a, c, 0x10, c->mac).last_status;
    sc = qbcm_rx_scan(a, c, 0xc0, NULL);
    j.evict = sc.count ? sc.last_status : -1;
    promisc(c, false);
    return j;
}

/*
 * Second review: 32 made-up stations that authenticate, associate and
 * send a null data frame every 20 s held the whole table: a real station
 * got status 17 at once, 60 s and 340 s later.  Now the newcomer takes the
 * place of the associated station that never passed data and associated
 * first, which is deauthenticated with reason 5 (AP busy).
 */
static void test_ap_assoc_flood(const void *data)
{
    const char *chip = data;
    static const unsigned at_s[] = { 0, 60, 340 };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    unsigned nfake = FLOOD_STA, t = 0;
    Join j[3];

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03",
    });
    flood(&a, A, 0, nfake, false);
    qbcm_run_ms(&a, A, 50);
    for (int r = 0; r < 3; r++) {
        for (; t < at_s[r]; t++) {
            if (t % KEEPALIVE_S == 0) {
                keepalive(&a, A, 0, nfake);
            }
            idle_ms(&a, A, 1000);
        }
        j[r] = join(&a, A, false);
        g_test_message("at %u s: authentication status %d, association "
                       "status %d, deauthentication reason %d", at_s[r],
                       j[r].auth, j[r].assoc, j[r].evict);
        /* the station leaves; the flood takes its place at once */
        deauth_from(&a, A, A->mac);
        flood(&a, A, nfake, nfake + 1, false);
        nfake++;
        qbcm_run_ms(&a, A, 20);
    }
    for (int r = 0; r < 3; r++) {
        g_assert_cmpint(j[r].auth, ==, 0);
        g_assert_cmpint(j[r].assoc, ==, 0);
        g_assert_cmpint(j[r].evict, ==, 5);
    }
    qbcm_air_close(&a, 1);
}

/* ---- a WPA2 supplicant, written from the standard ---------------------- */

static void hmac_sha1(const void *key, size_t klen, const void *a,
                      size_t alen, const void *b, size_t blen, uint8_t *out)
{
    GHmac *h = g_hmac_new(G_CHECKSUM_SHA1, key, klen);
    gsize n = 20;

    g_hmac_update(h, a, alen);
    if (blen) {
        g_hmac_update(h, b, blen);
    }
    g_hmac_get_digest(h, out, &n);
    g_hmac_unref(h);
}

/* IEEE 802.11-2020 J.4.1: PSK = PBKDF2-HMAC-SHA1(passphrase, SSID, 4096) */
static void psk(const char *pass, const char *ssid, uint8_t pmk[32])
{
    uint8_t u[20], t[40], be[4];

    for (unsigned blk = 0; blk < 2; blk++) {
        stl_be_p(be, blk + 1);
        hmac_sha1(pass, strlen(pass), ssid, strlen(ssid), be, 4, u);
        memcpy(t + 20 * blk, u, 20);
        for (int r = 1; r < 4096; r++) {
            hmac_sha1(pass, strlen(pass), u, 20, NULL, 0, u);
            for (int i = 0; i < 20; i++) {
                t[20 * blk + i] ^= u[i];
            }
        }
    }
    memcpy(pmk, t, 32);
}

/* IEEE 802.11-2020 12.7.1.2: PRF-384 */
static void prf384(const uint8_t *key, const char *label,
                   const uint8_t *data, size_t dlen, uint8_t out[48])
{
    for (uint8_t i = 0; i < 3; i++) {
        g_autofree uint8_t *m = g_malloc(strlen(label) + 1 + dlen + 1);
        size_t n = strlen(label) + 1;
        uint8_t d[20];

        memcpy(m, label, n);                /* the label and a zero */
        memcpy(m + n, data, dlen);
        m[n + dlen] = i;
        hmac_sha1(key, 32, m, n + dlen + 1, NULL, 0, d);
        memcpy(out + 20 * i, d, MIN(20, 48 - 20 * i));
    }
}

/*
 * The last EAPOL-Key frame from the AP to @c with Key Information @info in
 * @c's RX ring, copied to @out (256 bytes); its length, 0 if none
 */
static size_t rx_eapol(QBcmAir *a, QBcmCard *c, uint16_t info, uint8_t *out)
{
    unsigned cd =
        (qbcm_rx_cd(c)) / 16;
    uint8_t rx[D11_RX_FW598_BUFSIZE];
    size_t found = 0;

    for (unsigned k = 0; k < cd; k++) {
        const uint8_t *f = rx + D11_RX_FW598_FO + 6;
        size_t len;

        qtest_memread(a->qts, c->rxbuf + 2400 * k, rx, sizeof(rx));
        len = lduw_le_p(rx) - 6 - 4;
        if (f[0] == 0x08 && (f[1] & 3) == 2 && !memcmp(f + 4, c->mac, 6) &&
            len >= 32 + 99 && len <= 256 && lduw_be_p(f + 30) == 0x888e &&
            f[33] == 3 && lduw_be_p(f + 37) == info) {
            memcpy(out, f, len);
            found = len;
        }
    }
    return found;
}

/* message 2 or 4 (@info), an answer to @m (replay counter), from @c */
static void eapol_reply(QBcmAir *a, QBcmCard *c, const uint8_t *m,
                        uint16_t info, const uint8_t *snonce,
                        const uint8_t *kck)
{
    static const uint8_t rsn[] = {
        48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4,
        1, 0, 0x00, 0x0f, 0xac, 2, 0, 0,
    };
    size_t kdl = snonce ? sizeof(rsn) : 0;
    uint8_t f[256] = { 0 }, *e = f + 32, *k = e + 4, mic[20];

    qbcm_mgmt(f, 0x08, c->mac);
    f[1] = 0x01;
    memcpy(f + 24, "\xaa\xaa\x03\x00\x00\x00\x88\x8e", 8);
    e[0] = 2;
    e[1] = 3;                               /* EAPOL-Key */
    stw_be_p(e + 2, 95 + kdl);
    k[0] = 2;                               /* RSN key descriptor */
    stw_be_p(k + 1, info);
    memcpy(k + 5, m + 36 + 5, 8);           /* replay counter */
    if (snonce) {
        memcpy(k + 13, snonce, 32);
        memcpy(k + 95, rsn, kdl);
    }
    stw_be_p(k + 93, kdl);
    hmac_sha1(kck, 16, e, 4 + 95 + kdl, NULL, 0, mic);
    memcpy(k + 77, mic, 16);                /* HMAC-SHA1-128 */
    qbcm_tx_room(a, c);
    qbcm_post(a, c, f, 32 + 4 + 95 + kdl, true, 0xc, true);
}

/*
 * @c runs the 4-way handshake with the AP as a supplicant that knows the
 * PMK: true when message 3 came with a MIC over our PTK and message 4 went
 */
static bool supplicant(QBcmAir *a, QBcmCard *c, const uint8_t *pmk)
{
    static const uint8_t bssid[6] = { 2, 0xaa, 0, 0, 0, 3 };
    uint8_t m[256], d[76], ptk[48], snonce[32], mic[20], buf[256];
    const uint8_t *anonce = m + 36 + 13;
    size_t n = 0, elen;
    bool aa_first = memcmp(bssid, c->mac, 6) < 0;

    for (int i = 0; i < 50 && !n; i++) {
        qbcm_run_ms(a, c, 10);
        n = rx_eapol(a, c, 0x008a, m);      /* ACK, pairwise, v2 */
    }
    if (!n) {
        return false;
    }
    for (int i = 0; i < 32; i++) {
        snonce[i] = 0x5a ^ i;
    }
    memcpy(d, aa_first ? bssid : c->mac, 6);
    memcpy(d + 6, aa_first ? c->mac : bssid, 6);
    if (memcmp(anonce, snonce, 32) < 0) {
        memcpy(d + 12, anonce, 32);
        memcpy(d + 44, snonce, 32);
    } else {
        memcpy(d + 12, snonce, 32);
        memcpy(d + 44, anonce, 32);
    }
    prf384(pmk, "Pairwise key expansion", d, sizeof(d), ptk);
    eapol_reply(a, c, m, 0x010a, snonce, ptk);
    n = 0;
    for (int i = 0; i < 50 && !n; i++) {
        qbcm_run_ms(a, c, 10);
        n = rx_eapol(a, c, 0x13ca, m);      /* + install, MIC, secure */
    }
    if (!n) {
        return false;
    }
    /* message 3's MIC: the AP derived the same PTK */
    elen = 4 + lduw_be_p(m + 34);
    g_assert_cmpuint(32 + elen, <=, n);
    memcpy(buf, m + 32, elen);
    memset(buf + 81, 0, 16);
    hmac_sha1(ptk, 16, buf, elen, NULL, 0, mic);
    g_assert_cmpmem(mic, 16, m + 32 + 81, 16);
    eapol_reply(a, c, m, 0x030a, NULL, ptk);
    qbcm_run_ms(a, c, 20);
    return true;
}

/*
 * The same on a WPA2 network, with a flood that authenticates and
 * associates its 32 made-up stations again every 5 s (they never answer
 * message 1, so the AP drops them after its retries).  A real station
 * joins at once and at 60 s and 340 s, completes the handshake, and keeps
 * its place through the next floods.
 */
static void test_ap_assoc_flood_wpa2(const void *data)
{
    const char *chip = data;
    static const unsigned at_s[] = { 0, 60, 340 };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t pmk[32];
    unsigned t = 0;
    Join j[3];
    bool keys[3];
    int kicked[3];

    /* the PSK derivation against IEEE 802.11-2020 J.4.2's first vector */
    psk("password", "IEEE", pmk);
    g_assert_cmpmem(pmk, 32, "\xf4\x2c\x6f\xc5\x2d\xf0\xeb\xef\x9e\xbb\x4b"
                    "\x90\xb3\x8a\x5f\x90\x2e\x83\xfe\x1b\x13\x5a\x70\xe2"
                    "\x3a\xed\x76\x2e\x97\x10\xa1\x2e", 32);
    psk("flood-test-passphrase", "QEMU", pmk);
    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03,passphrase=flood-test-passphrase",
    });
    for (int r = 0; r < 3; r++) {
        for (; t < at_s[r]; t++) {
            if (t % 5 == 0) {
                flood(&a, A, 0, FLOOD_STA, true);
            }
            idle_ms(&a, A, 1000);
        }
        flood(&a, A, 0, FLOOD_STA, true);
        qbcm_run_ms(&a, A, 50);
        j[r] = join(&a, A, true);
        keys[r] = j[r].assoc == 0 && supplicant(&a, A, pmk);
        /* the flood goes on: the station keeps its place */
        for (int s = 0; s < 10; s++, t++) {
            if (t % 5 == 0) {
                flood(&a, A, 0, FLOOD_STA, true);
            }
            idle_ms(&a, A, 1000);
        }
        kicked[r] = qbcm_rx_scan(&a, A, 0xc0, A->mac).count;
        g_test_message("at %u s: authentication status %d, association "
                       "status %d, deauthentication reason %d, handshake "
                       "%d, deauthenticated %d times since", at_s[r],
                       j[r].auth, j[r].assoc, j[r].evict, keys[r],
                       kicked[r]);
        deauth_from(&a, A, A->mac);
        qbcm_run_ms(&a, A, 20);
    }
    for (int r = 0; r < 3; r++) {
        g_assert_cmpint(j[r].auth, ==, 0);
        g_assert_cmpint(j[r].assoc, ==, 0);
        g_assert_cmpint(j[r].evict, ==, 5);
        g_assert_true(keys[r]);
        g_assert_cmpint(kicked[r], ==, 0);
    }
    qbcm_air_close(&a, 1);
}

/*
 * A station that passes traffic keeps its place through a flood: A sends
 * a packet every 5 s; 31 made-up stations fill the table and send null
 * frames; 40 more made-up stations arrive every 10 s for 340 s, each wave
 * after A's last packet (more recent than it: recency alone would
 * push A out).  A real station B that comes at 60 s gets in, passes
 * traffic too, and stays.
 */
static void test_ap_flood_keeps_active(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    unsigned nfake = FLOOD_STA - 1;
    int kicked_a = 0, kicked_b = 0;
    Join jb = { -1, -1, -1 };

    qbcm_air_open(&a, 2, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:03",
    });
    qbcm_ap_join(&a, A, A->mac);
    data_from(&a, A, A->mac);
    flood(&a, B, 0, nfake, false);
    qbcm_run_ms(&a, A, 50);
    qbcm_rx_rewind(A);
    for (unsigned t = 0; t < 340; t++) {
        if (t == 60) {
            jb = join(&a, B, false);
            qbcm_rx_rewind(B);
        }
        if (t % 5 == 0) {
            data_from(&a, A, A->mac);
            if (jb.assoc == 0) {
                data_from(&a, B, B->mac);
            }
        }
        if (t % KEEPALIVE_S == 0) {
            keepalive(&a, B, nfake - (FLOOD_STA - 1), nfake);
        }
        if (t % 10 == 0) {
            flood(&a, B, nfake, nfake + 40, false);
            nfake += 40;
        }
        idle_ms(&a, A, 1000);
        qbcm_rl(B, D11 + A_D11_GEN_IRQ_REASON);
        if (t % 10 == 9) {
            kicked_a += qbcm_rx_scan(&a, A, 0xc0, A->mac).count;
            qbcm_rx_rewind(A);
            if (t > 60) {
                kicked_b += qbcm_rx_scan(&a, B, 0xc0, B->mac).count;
                qbcm_rx_rewind(B);
            }
        }
    }
    g_test_message("B: authentication status %d, association status %d, "
                   "deauthentication reason %d; deauthentications: A %d, "
                   "B %d", jb.auth, jb.assoc, jb.evict, kicked_a, kicked_b);
    g_assert_cmpint(jb.auth, ==, 0);
    g_assert_cmpint(jb.assoc, ==, 0);
    g_assert_cmpint(jb.evict, ==, 5);
    g_assert_cmpint(kicked_a, ==, 0);
    g_assert_cmpint(kicked_b, ==, 0);
    qbcm_air_close(&a, 2);
}

/* /bcm43xx/<chip>/robust/<name> */
static void add_test(const char *chip, const char *name,
                     void (*fn)(const void *))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/robust/%s", chip,
                                            name);

    qtest_add_data_func(path, chip, fn);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);

    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_test(chips[i], "unplug-by-own-dma", test_unplug_by_dma);
        add_test(chips[i], "arq-short-frame", test_arq_short);
        add_test(chips[i], "tx-short-frames", test_tx_short);
        add_test(chips[i], "ap-auth-flood", test_ap_auth_flood);
        add_test(chips[i], "ap-retry-dup", test_ap_retry_dup);
        add_test(chips[i], "ap-inactivity", test_ap_inactivity);
        add_test(chips[i], "ap-assoc-flood", test_ap_assoc_flood);
        add_test(chips[i], "ap-assoc-flood-wpa2", test_ap_assoc_flood_wpa2);
        add_test(chips[i], "ap-flood-keeps-active",
                 test_ap_flood_keeps_active);
    }

    return g_test_run();
}
