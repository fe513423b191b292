/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the virtual access point (wifi-ap): a card associated with it
 * exchanging data with the AP's netdev both ways, and the AP seen from a
 * hostile station on the air: malformed management frames and a broken
 * 4-way handshake.
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

/* a station sends malformed frames to the virtual AP: it survives */
static void test_hostile_to_ap(const void *data)
{
    const char *chip = data;
    static const uint8_t bssid[6] = { 2, 0xaa, 0, 0, 0, 1 };
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t f[64], rx[128];
    uint32_t cd;

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:01",
    });
    /* short auth (header only + 2 bytes) */
    memset(f, 0, sizeof(f));
    f[0] = 0xb0;
    memcpy(f + 4, bssid, 6);
    memcpy(f + 10, A->mac, 6);
    memcpy(f + 16, bssid, 6);
    qbcm_post(&a, A, f, 26, true, 0x0a, false);
    /* probe request whose IE length runs past the frame */
    f[0] = 0x40;
    memcpy(f + 4, bcast, 6);
    f[24] = 0;
    f[25] = 200;
    qbcm_post(&a, A, f, 30, false, 0x0a, false);
    /* association request without authentication: deauthenticated */
    f[0] = 0x00;
    memcpy(f + 4, bssid, 6);
    qbcm_post(&a, A, f, 24, true, 0x0a, false);
    /* data from a stranger: deauthenticated too */
    f[0] = 0x08;
    f[1] = 0x01;
    qbcm_post(&a, A, f, 40, true, 0xc, true);
    /* the AP answered with deauthentications (and beacons keep coming) */
    cd = 0;
    for (int i = 0; i < 200 && cd < 0x20; i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
        cd = qbcm_rx_cd(A);
    }
    g_assert_cmphex(cd, >=, 0x20);
    for (uint32_t k = 0, deauth = 0; k < cd / 16; k++) {
        qtest_memread(a.qts, A->rxbuf + 2400 * k, rx, sizeof(rx));
        deauth += rx[D11_RX_FW598_FO + 6] == 0xc0;
        if (k == cd / 16 - 1) {
            g_assert_cmpuint(deauth, >=, 1);
        }
    }
    qbcm_air_close(&a, 1);
}

static bool is_assoc_resp_40(const uint8_t *f, size_t len)
{
    return f[0] == 0x10 && len >= 30 && lduw_le_p(f + 26) == 40;
}

static bool is_assoc_resp_ok(const uint8_t *f, size_t len)
{
    return f[0] == 0x10 && len >= 30 && lduw_le_p(f + 26) == 0 &&
           (lduw_le_p(f + 24) & 0x0010);        /* privacy */
}

static bool is_eapol_msg1(const uint8_t *f, size_t len)
{
    return f[0] == 0x08 && !(f[1] & 0x40) && len >= 24 + 8 + 99 &&
           lduw_be_p(f + 30) == 0x888e && f[33] == 3 &&
           lduw_be_p(f + 37) == 0x008a;
}

static bool is_deauth_4way(const uint8_t *f, size_t len)
{
    return f[0] == 0xc0 && len >= 26 && lduw_le_p(f + 24) == 15;
}

/* a WPA2 AP: RSN required, EAPOL from the air is hostile, 4-way times out */
static void test_hostile_eapol(const void *data)
{
    const char *chip = data;
    static const uint8_t bssid[6] = { 2, 0xaa, 0, 0, 0, 2 };
    static const uint8_t rsn[] = {
        48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4,
        1, 0, 0x00, 0x0f, 0xac, 2, 0, 0,
    };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    uint8_t f[600];
    unsigned seen;
    int k = -1;

    qbcm_air_open(&a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip,
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
               "bssid=02:aa:00:00:00:02,passphrase=not-the-real-one",
    });
    memset(f, 0, sizeof(f));
    memcpy(f + 4, bssid, 6);
    memcpy(f + 10, A->mac, 6);
    memcpy(f + 16, bssid, 6);
    /* open authentication */
    f[0] = 0xb0;
    stw_le_p(f + 26, 1);
    qbcm_post(&a, A, f, 30, true, 0x0a, false);
    /* association without an RSN element: refused, status 40 */
    f[0] = 0x00;
    stw_le_p(f + 24, 0x0411);
    stw_le_p(f + 26, 10);
    f[28] = 0;
    f[29] = 4;
    memcpy(f + 30, "QEMU", 4);
    qbcm_post(&a, A, f, 34, true, 0x0a, false);
    for (int i = 0; i < 100 && k < 0; i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
        k = qbcm_rx_find(&a, A, 0, is_assoc_resp_40);
    }
    g_assert_cmpint(k, >=, 0);
    /* with it: associated, and message 1 of the 4-way handshake comes */
    memcpy(f + 34, rsn, sizeof(rsn));
    qbcm_post(&a, A, f, 34 + sizeof(rsn), true, 0x0a, false);
    k = -1;
    for (int i = 0; i < 100 && k < 0; i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
        k = qbcm_rx_find(&a, A, 0, is_eapol_msg1);
    }
    g_assert_cmpint(k, >=, 0);
    g_assert_cmpint(qbcm_rx_find(&a, A, 0, is_assoc_resp_ok), >=, 0);
    seen = k + 1;

    /* hostile EAPOL-Key and protected frames: all ignored, no crash */
    f[0] = 0x08;
    f[1] = 0x01;
    memcpy(f + 24, "\xaa\xaa\x03\x00\x00\x00\x88\x8e", 8);
    for (unsigned len = 32; len < sizeof(f); len += 37) {
        for (unsigned i = 32; i < len; i++) {
            f[i] = i * 89 + len;
        }
        f[33] = 3;                              /* EAPOL-Key */
        f[36] = 2;                              /* RSN descriptor */
        stw_be_p(f + 34, len % 3 ? 0xffff : len - 36);  /* body length */
        stw_be_p(f + 37, 0x010a);               /* message 2 bits */
        stw_be_p(f + 36 + 93, len % 2 ? 0xfff0 : 0);    /* key data */
        qbcm_post(&a, A, f, len, true, 0xc, true);
        /* a protected frame of the same size: no key yet */
        f[1] = 0x41;
        qbcm_post(&a, A, f, len, true, 0xc, true);
        f[1] = 0x01;
        /* a plain data frame: the port is closed */
        memcpy(f + 30, "\x08\x00", 2);
        qbcm_post(&a, A, f, len, true, 0xc, true);
        memcpy(f + 30, "\x88\x8e", 2);
    }
    /* nobody answered: messages retransmitted, then deauthenticated (15) */
    k = -1;
    for (int i = 0; i < 100 && k < 0; i++) {
        qtest_clock_step(a.qts, 100 * 1000 * 1000);
        k = qbcm_rx_find(&a, A, seen, is_deauth_4way);
    }
    g_assert_cmpint(k, >=, 0);
    g_assert_cmpint(qbcm_rx_find(&a, A, seen, is_eapol_msg1), >=, 0);
    qbcm_air_close(&a, 1);
}

/*
 * The AP's netdev: a stream netdev on a Unix socket (length-prefixed
 * Ethernet frames), the test at the other end.  Returns its socket.
 */
static int ap_bridge_open(QBcmAir *a, QBcmPeer *p, const char *chip)
{
    g_autofree char *more = NULL;

    p->dir = g_dir_make_tmp("bcm4331-ap-XXXXXX", NULL);
    p->sock = g_strdup_printf("%s/lan.sock", p->dir);
    more = g_strdup_printf("-netdev stream,id=lan,server=on,addr.type=unix,"
                           "addr.path=%s -device wifi-ap,medium=air0,"
                           "ssid=QEMU,channel=6,bssid=02:aa:00:00:00:03,"
                           "netdev=lan", p->sock);
    qbcm_air_open(a, 1, NULL, &(QBcmAirOpts) {
        .chip = chip, .more = more,
    });
    p->fd = qbcm_stream_connect(a->qts, p->sock);
    return p->fd;
}

/*
 * An associated station and the network behind the AP: a data frame to
 * the AP (ToDS) comes out of its netdev as the Ethernet frame it carries,
 * and an Ethernet frame for the station goes to it over the air (FromDS),
 * acknowledged: the AP's bridge both ways, and the path of one frame each
 * way that docs/architecture.md counts (scripts/count-crossings.py).
 */
static void test_ap_bridge(const void *data)
{
    const char *chip = data;
    static const uint8_t host[6] = { 2, 0x11, 0x22, 0x33, 0x44, 0x55 };
    static const uint8_t llc[8] = { 0xaa, 0xaa, 3, 0, 0, 0, 8, 0 };
    QBcmAir a;
    QBcmCard *A = &a.c[0];
    QBcmPeer lan;
    uint8_t f[128], eth[128];
    uint8_t rx[D11_RX_FW598_BUFSIZE];
    const uint8_t *r = rx + D11_RX_FW598_FO + 6;
    int fd = ap_bridge_open(&a, &lan, chip);
    uint32_t be, cd;
    size_t n;

    qbcm_ap_join(&a, A, A->mac);
    qbcm_rx_rewind(A);

    /* station -> network: ToDS, BSSID, SA, DA, LLC/SNAP IPv4 */
    memset(f, 0, sizeof(f));
    g_assert_cmpuint(qbcm_to_ds_frame(f, A->mac, host, 100 - 32), ==, 100);
    stw_le_p(f + 22, 0x100 << 4);
    qbcm_post(&a, A, f, 100, true, 0xc, true);
    qbcm_run_ms(&a, A, 20);
    g_assert_cmpint(recv(fd, &be, 4, MSG_WAITALL), ==, 4);
    n = be32_to_cpu(be);
    g_assert_cmpuint(n, ==, 14 + 100 - 32);
    g_assert_cmpint(recv(fd, eth, n, MSG_WAITALL), ==, n);
    g_assert_cmpmem(eth, 6, host, 6);
    g_assert_cmpmem(eth + 6, 6, A->mac, 6);
    g_assert_cmphex(lduw_be_p(eth + 12), ==, 0x0800);
    g_assert_cmpmem(eth + 14, n - 14, f + 32, 100 - 32);

    /* network -> station: FromDS, DA, BSSID, SA */
    memcpy(eth, A->mac, 6);
    memcpy(eth + 6, host, 6);
    stw_be_p(eth + 12, 0x0800);
    for (int i = 14; i < 74; i++) {
        eth[i] = 0x80 + i;
    }
    qbcm_peer_send(fd, eth, 74);
    cd = 0;
    for (int i = 0; i < 100 && !cd; i++) {
        qbcm_run_ms(&a, A, 10);
        cd = qbcm_rx_cd(A);
    }
    g_assert_cmphex(cd, ==, 16);                /* one frame: no ACK */
    qtest_memread(a.qts, A->rxbuf, rx, sizeof(rx));
    g_assert_cmphex(r[0], ==, 0x08);
    g_assert_cmphex(r[1] & 0x03, ==, 0x02);     /* FromDS */
    g_assert_cmpmem(r + 4, 6, A->mac, 6);
    g_assert_cmpmem(r + 10, 6, qbcm_ap_bssid, 6);
    g_assert_cmpmem(r + 16, 6, host, 6);
    g_assert_cmpmem(r + 24, 8, llc, 8);
    g_assert_cmpmem(r + 32, 60, eth + 14, 60);
    g_assert_cmpuint(lduw_le_p(rx) - 6 - 4, ==, 32 + 60);

    close(fd);
    qbcm_air_close(&a, 1);
    unlink(lan.sock);
    rmdir(lan.dir);
    g_free(lan.sock);
    g_free(lan.dir);
}

/* /bcm43xx/<chip>/<block>/<name>, for the bcm4331 and the bcm43224 */
static void add_test(const char *chip, const char *name,
                     void (*fn)(const void *))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/%s", chip, name);

    qtest_add_data_func(path, chip, fn);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_test(chips[i], "air/ap-bridge", test_ap_bridge);
        add_test(chips[i], "air/hostile-to-ap", test_hostile_to_ap);
        add_test(chips[i], "air/hostile-eapol", test_hostile_eapol);
    }
    return g_test_run();
}
