/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the Broadcom BCM4331 across its life cycle under traffic:
 *  - system_reset in the middle of DMA, 100 times: every register a driver
 *    reads at probe (config space, each core's and agent's registers, the
 *    EROM) is back at its power-on value, also after the clock has run on
 *    (no timer or bottom half of before the reset fires after it);
 *  - device_del of a card with frames in flight (pcie-root-port, native
 *    hotplug, airtime on: its frames on the air's timers), 100 times: the
 *    air, the virtual AP and the other card go on.  Under ASan the test
 *    also collects LeakSanitizer's report of QEMU and fails on any leak
 *    or error in hw/net/bcm43xx, hw/net/wifi or net/wifi (BCM_LSAN=1).
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

#define RP_SLOT         3

/* the backplane pages a driver reads at probe (bcma host_pci, scan, b43) */
static const uint32_t probe_pages[] = {
    0x18000000,         /* ChipCommon: chip id, capabilities, PMU, SPROM */
    0x18001000,         /* 802.11 core */
    0x18002000,         /* PCIe core */
    0x18100000, 0x18101000, 0x18102000,     /* their agents */
    0x18103000,         /* EROM */
};

/*
 * Registers whose value is the time or random: the TSF follows the virtual
 * clock, the hardware RNG (0x65a) gives a new number at each read.
 */
static bool time_register(uint32_t page, uint32_t off)
{
    return page == 0x18001000 &&
           (off == 0x180 || off == 0x184 || (off >= 0x630 && off <= 0x638) ||
            off == 0x658);
}

/*
 * What a driver sees at probe: config space, then each page through the
 * BAR0 window.  Maps BAR0 (at a new address each time) to read it.
 */
static GArray *probe_dump(QBcmAir *a, QBcmCard *c)
{
    GArray *d = g_array_new(false, false, sizeof(uint32_t));

    for (uint32_t off = 0; off < 0x100; off += 4) {
        uint32_t v = qpci_config_readl(c->dev, off);

        g_array_append_val(d, v);
    }
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
    for (int p = 0; p < ARRAY_SIZE(probe_pages); p++) {
        qpci_config_writel(c->dev, BCMA_PCI_BAR0_WIN, probe_pages[p]);
        for (uint32_t off = 0; off < 0x1000; off += 4) {
            uint32_t v = time_register(probe_pages[p], off) ? 0
                                                            : qbcm_rl(c, off);

            g_array_append_val(d, v);
        }
    }
    return d;
}

static void dump_compare(GArray *fresh, GArray *now, int round)
{
    g_assert_cmpuint(fresh->len, ==, now->len);
    for (guint i = 0; i < fresh->len; i++) {
        uint32_t f = g_array_index(fresh, uint32_t, i);
        uint32_t n = g_array_index(now, uint32_t, i);

        if (f != n) {
            g_test_message("round %d: %s 0x%x: power-on 0x%08x, after "
                           "reset 0x%08x", round,
                           i < 64 ? "config" : "backplane page",
                           i < 64 ? i * 4 :
                           probe_pages[(i - 64) / 1024] + (i - 64) % 1024 * 4,
                           f, n);
        }
        g_assert_cmphex(f, ==, n);
    }
}

static void test_reset_under_dma(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *A = &a.c[0], *B = &a.c[1];
    g_autoptr(GArray) fresh = NULL;
    uint8_t f[1600];

    GString *cmd;

    cmd = qbcm_air_cmdline(&(QBcmAirOpts) {
        .chip = chip,
        .medium = ",airtime=on",
        .more = "-device wifi-ap,medium=air0,ssid=QEMU,channel=6",
    }, 2, NULL);
    a.qts = qtest_init(cmd->str);
    g_string_free(cmd, true);
    a.bus = qpci_new_pc(a.qts, NULL);
    A->dev = qpci_device_find(a.bus, QPCI_DEVFN(4, 0));
    fresh = probe_dump(&a, A);
    g_free(A->dev);

    for (int round = 0; round < 100; round++) {
        g_autoptr(GArray) now = NULL;

        for (int i = 0; i < 2; i++) {
            qbcm_card_layout(&a.c[i], i, 0, 0);
            qbcm_card_up(&a, &a.c[i], i);
        }
        /* frames both ways, some on the air, some waiting, some received */
        for (int k = 0; k < 6; k++) {
            size_t len = qbcm_frame(f, k & 1 ? A->mac : B->mac,
                                    k & 1 ? B->mac : A->mac, 100 + 200 * k);

            qbcm_post(&a, k & 1 ? B : A, f, len, true, 0xc, true);
        }
        qtest_clock_step(a.qts, (round % 7 + 1) * 150 * 1000);
        qtest_system_reset(a.qts);
        qtest_clock_step(a.qts, 50 * 1000 * 1000);
        now = probe_dump(&a, A);
        dump_compare(fresh, now, round);
        g_free(A->dev);
        g_free(B->dev);
    }
    qpci_free_pc(a.bus);
    qtest_quit(a.qts);
}

/* ---- device_del under traffic ------------------------------------------ */

static void slot_control(QPCIDevice *rp, uint8_t cap, uint16_t v)
{
    qpci_config_writew(rp, cap + PCI_EXP_SLTCTL, v);
}

static char *lsan_dir;

/* ASan build (BCM_LSAN=1): QEMU's sanitizer reports go to files */
static void lsan_begin(void)
{
    g_autofree char *opts = NULL;

    if (g_strcmp0(getenv("BCM_LSAN"), "1")) {
        return;
    }
    lsan_dir = g_dir_make_tmp("bcm4331-lsan-XXXXXX", NULL);
    opts = g_strdup_printf("detect_leaks=1:halt_on_error=1:"
                           "fast_unwind_on_malloc=0:malloc_context_size=30:"
                           "abort_on_error=0:exitcode=0:"
                           "log_path=%s/qemu", lsan_dir);
    g_setenv("ASAN_OPTIONS", opts, true);
}

/* after QEMU exited: no report that names our code, no error at all */
static void lsan_check(void)
{
    g_autoptr(GDir) dir = NULL;
    const char *name;
    unsigned ours = 0, errors = 0, leaks = 0;

    if (!lsan_dir) {
        return;
    }
    dir = g_dir_open(lsan_dir, 0, NULL);
    while (dir && (name = g_dir_read_name(dir))) {
        g_autofree char *path = g_build_filename(lsan_dir, name, NULL);
        g_autofree char *text = NULL;
        g_auto(GStrv) reports = NULL;

        g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
        errors += strstr(text, "ERROR: AddressSanitizer") != NULL;
        /* one report per leaked allocation: blank-line separated */
        reports = g_strsplit(text, "\n\n", -1);
        for (int i = 0; reports[i]; i++) {
            if (!strstr(reports[i], "leak of")) {
                continue;
            }
            leaks++;
            g_test_message("%s", reports[i]);
            if (strstr(reports[i], "hw/net/bcm43xx/") ||
                strstr(reports[i], "net/wifi/")) {
                ours++;
            }
        }
        unlink(path);
    }
    rmdir(lsan_dir);
    g_test_message("LeakSanitizer: %u leak reports of QEMU, %u in "
                   "hw/net/bcm43xx or (hw/)net/wifi; %u ASan errors",
                   leaks, ours, errors);
    g_assert_cmpuint(errors, ==, 0);
    g_assert_cmpuint(ours, ==, 0);
}

/* an authentication response, accepted */
static bool is_auth_ok(const uint8_t *f, size_t len)
{
    return f[0] == 0xb0 && len >= 30 && lduw_le_p(f + 26) == 2 &&
           lduw_le_p(f + 28) == 0;
}

static void test_unplug_under_traffic(const void *data)
{
    const char *chip = data;
    QBcmAir a;
    QBcmCard *V = &a.c[0], *B = &a.c[1];
    QPCIDevice *rp;
    uint8_t f[1600];
    uint64_t win;
    uint8_t cap;

    lsan_begin();
    a.qts = qtest_initf("-M q35 -m 512M "
        "-global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off "
        "-object wifi-medium,id=air0,airtime=on "
        "-device pcie-root-port,id=rp0,bus=pcie.0,addr=03.0,chassis=1,slot=1 "
        "-device %s,addr=05.0,medium=air0,mac=02:00:00:00:00:02 "
        "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
        "bssid=02:aa:00:00:00:03", chip);
    a.bus = qpci_new_pc(a.qts, NULL);
    rp = qpci_device_find(a.bus, QPCI_DEVFN(RP_SLOT, 0));
    qpci_config_writeb(rp, PCI_SECONDARY_BUS, 1);
    qpci_config_writeb(rp, PCI_SUBORDINATE_BUS, 1);
    win = ROUND_UP(a.bus->mmio_alloc_ptr, 0x100000);
    qpci_config_writew(rp, PCI_MEMORY_BASE, (win >> 16) & 0xfff0);
    qpci_config_writew(rp, PCI_MEMORY_LIMIT, (win >> 16) & 0xfff0);
    qpci_device_enable(rp);
    cap = qpci_find_capability(rp, PCI_CAP_ID_EXP, 0);
    a.bus->mmio_alloc_ptr = win + 0x100000;

    qbcm_card_layout(B, 1, 0, QPCI_DEVFN(5, 0));
    qbcm_card_up(&a, B, 1);

    for (int round = 0; round < 100; round++) {
        uint64_t keep = a.bus->mmio_alloc_ptr;
        size_t len;

        /* power the slot on, plug a card in, bring it up */
        slot_control(rp, cap, PCI_EXP_SLTCTL_PWR_IND_ON |
                     PCI_EXP_SLTCTL_PWR_ON);
        qtest_qmp_device_add(a.qts, chip, "v", "{'bus': 'rp0', "
                             "'addr': '00.0', 'medium': 'air0', "
                             "'mac': '02:00:00:00:00:01'}");
        qbcm_card_layout(V, 0, 0, 1 << 8); /* bus 1, 00.0 */
        a.bus->mmio_alloc_ptr = win;
        qbcm_card_up(&a, V, 0);
        a.bus->mmio_alloc_ptr = keep;
        B->txslot = 0;
        qbcm_wl(B, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL,
                0); /* B's TX ring from the start */
        qbcm_set_ring(B, 1, false, B->txring);

        /* traffic both ways and to the AP, part of it on the air */
        for (int k = 0; k < 6; k++) {
            len = qbcm_frame(f, k & 1 ? V->mac : B->mac,
                             k & 1 ? B->mac : V->mac,
                             200 + 100 * k);
            qbcm_post(&a, k & 1 ? B : V, f, len, true, 0xc, true);
        }
        memset(f, 0, 64);
        f[0] = 0xb0;
        memcpy(f + 4, "\x02\xaa\x00\x00\x00\x03", 6);
        memcpy(f + 10, V->mac, 6);
        memcpy(f + 16, "\x02\xaa\x00\x00\x00\x03", 6);
        stw_le_p(f + 26, 1);
        qbcm_post(&a, V, f, 30, true, 0x0a, false);
        qtest_clock_step(a.qts, (round % 5 + 1) * 300 * 1000);

        /* device_del; the "guest" powers the slot off: unplugged now */
        qtest_qmp_device_del_send(a.qts, "v");
        slot_control(rp, cap, PCI_EXP_SLTCTL_PWR_IND_OFF |
                     PCI_EXP_SLTCTL_PWR_OFF);
        qtest_qmp_eventwait(a.qts, "DEVICE_DELETED");
        g_free(V->dev);
        V->dev = NULL;
        qtest_clock_step(a.qts, 20 * 1000 * 1000);
        for (int k = 0; k < 8; k++) {
            qbcm_rl(B, D11 + A_D11_XMITSTAT_0);   /* B's TX status FIFO */
        }
    }
    /* the other card and the AP still work: B authenticates */
    qbcm_rl(B, D11 + A_D11_GEN_IRQ_REASON);
    qbcm_wl(B, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXCTL, 0);
    qbcm_set_ring(B, 0, true, B->rxring);
    qbcm_wl(B, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX, 0x1000);
    memcpy(f + 10, B->mac, 6);
    qbcm_post(&a, B, f, 30, true, 0x0a, false);
    for (int i = 0; i < 100 && qbcm_rx_find(&a, B, 0, is_auth_ok) < 0; i++) {
        qtest_clock_step(a.qts, 1000 * 1000);
    }
    g_assert_cmpint(qbcm_rx_find(&a, B, 0, is_auth_ok), >=, 0);
    g_free(B->dev);
    g_free(rp);
    qpci_free_pc(a.bus);
    qtest_quit(a.qts);
    lsan_check();
}

/* /bcm43xx/<chip>/lifecycle/<name> */
static void add_test(const char *chip, const char *name,
                     void (*fn)(const void *))
{
    g_autofree char *path = g_strdup_printf("/bcm43xx/%s/lifecycle/%s", chip,
                                            name);

    qtest_add_data_func(path, chip, fn);
}

int main(int argc, char **argv)
{
    static const char *const chips[] = { "bcm4331", "bcm43224" };

    g_test_init(&argc, &argv, NULL);

    for (int i = 0; i < ARRAY_SIZE(chips); i++) {
        add_test(chips[i], "reset-under-dma", test_reset_under_dma);
        add_test(chips[i], "unplug-under-traffic", test_unplug_under_traffic);
    }

    return g_test_run();
}
