/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The bcm4331 data-path qtests' common ground: cards on one wifi-medium
 * brought up the way b43 brings them up, frames posted the way b43 posts
 * them, and a peer process on the air's netdev (a stream socket).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef BCM4331_AIR_H
#define BCM4331_AIR_H

#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"
#include "libqos/bcm4331.h"
#include "net/wifi/ieee80211.h"
#include <sys/socket.h>
#include <sys/un.h>

typedef struct {
    QPCIDevice *dev;
    int devfn;                  /* bus << 8 | devfn; 0: slot 4 + index */
    QPCIBar bar0;
    uint8_t mac[6];
    uint64_t txring, txbuf, rxring, rxbuf;
    unsigned txslot;
} Card;

typedef struct {
    QTestState *qts;
    QPCIBus *bus;
    Card c[3];
} Air;

static inline uint32_t rl(Card *c, uint32_t off)
{
    return qpci_io_readl(c->dev, c->bar0, off);
}

/* the current descriptor (bytes) of TX engine 1 and RX engine 0 */
static inline uint32_t tx_cd(Card *c)
{
    return rl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS) & 0x1fff;
}

static inline uint32_t rx_cd(Card *c)
{
    return rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff;
}

static inline void wl(Card *c, uint32_t off, uint32_t v)
{
    qpci_io_writel(c->dev, c->bar0, off, v);
}

static inline void ww(Card *c, uint32_t off, uint16_t v)
{
    qpci_io_writew(c->dev, c->bar0, off, v);
}

static inline void scratch_w(Card *c, unsigned reg, uint16_t v)
{
    qbcm4331_scratch_write(c->dev, c->bar0, reg, v);
}

/* a 64-bit descriptor, with b43's PCIe translation bit in the high word */
static inline void desc(Air *a, uint64_t at, uint32_t ctl0, uint32_t len,
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

static inline void set_ring(Card *c, unsigned n, bool rx, uint64_t base)
{
    qbcm4331_set_ring(c->dev, c->bar0, n, rx, base);
}

/* what b43 does up to a running interface, channel 6 */
static inline void card_up(Air *a, Card *c, unsigned i)
{
    c->dev = qpci_device_find(a->bus, c->devfn ? c->devfn
                                                : QPCI_DEVFN(4 + i, 0));
    g_assert_nonnull(c->dev);
    qpci_device_enable(c->dev);
    c->bar0 = qpci_iomap(c->dev, 0, NULL);
    qbcm4331_core_up(c->dev, c->bar0);
    g_assert_cmphex(qbcm4331_fw_start(c->dev, c->bar0), ==, 1);
    qbcm4331_radio_up(c->dev, c->bar0, c->mac);
    /* rings: TX on engine 1 (b43's only data ring here), RX on engine 0 */
    set_ring(c, 1, false, c->txring);
    for (int k = 0; k < 256; k++) {
        desc(a, c->rxring + 16 * k, k == 255 ? D11_DESC_CTL0_DTABLEEND : 0,
             D11_RX_FW598_BUFSIZE, c->rxbuf + 2400 * k);
    }
    set_ring(c, 0, true, c->rxring);
    qbcm4331_enable(c->dev, c->bar0);
}

/*
 * Layouts: card i at 0x1000000 * (i + 1) in low memory (8 KiB-aligned
 * rings), or above 4 GiB when @high.
 */
/* how air_open() builds the machine; every field may be left out */
typedef struct {
    const char *machine;    /* default "-M q35 -m 5G" */
    const char *medium;     /* more medium properties (",airtime=on") */
    const char *more;       /* more on the command line (a wifi-ap...) */
    bool link;              /* the medium's netdev is l0 */
    bool high;              /* rings and buffers above 4 GiB */
} AirOpts;

static inline GString *air_cmdline(const AirOpts *o, int ncards,
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
        g_string_append_printf(cmd, " -device bcm4331,id=card%d,addr=%02x.0,"
                               "medium=air0,mac=02:00:00:00:00:%02x%s", i,
                               4 + i, i + 1,
                               extra && i == ncards - 1 ? extra : "");
    }
    return cmd;
}

/*
 * Card number @i's address 02:00:00:00:00:<i+1> and its memory: rings and
 * buffers at @base + 16 MiB * (i + 1); @devfn as in Card (0: slot 4 + i).
 */
static inline void card_layout(Card *c, unsigned i, uint64_t base, int devfn)
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
static inline void air_open(Air *a, int ncards, const char *extra,
                            const AirOpts *o)
{
    GString *cmd = air_cmdline(o, ncards, extra);
    bool high = o && o->high;

    a->qts = qtest_init(cmd->str);
    g_string_free(cmd, true);
    a->bus = qpci_new_pc(a->qts, NULL);
    for (int i = 0; i < ncards; i++) {
        card_layout(&a->c[i], i, high ? 0x100000000ull : 0, 0);
        card_up(a, &a->c[i], i);
    }
}

static inline void air_close(Air *a, int ncards)
{
    for (int i = 0; i < ncards; i++) {
        g_free(a->c[i].dev);
    }
    qpci_free_pc(a->bus);
    qtest_quit(a->qts);
}

/* the cookie of the next frame posted on @c's engine 1 */
static inline uint16_t next_cookie(Card *c)
{
    return (2 << 12) | c->txslot;
}

/*
 * Post TX header @h and @frame on @c's engine 1 the way b43's
 * dma_tx_fragment() does: two descriptors, the header's buffer and the
 * frame's, then the new TXINDEX
 */
static inline void post_txh(Air *a, Card *c, const uint8_t *h,
                            const uint8_t *frame, size_t len)
{
    unsigned slot = c->txslot;
    uint64_t hb = c->txbuf + slot * 4096;

    qtest_memwrite(a->qts, hb, h, D11_TXH_LEN);
    qtest_memwrite(a->qts, hb + 256, frame, len);
    desc(a, c->txring + 16 * slot, D11_DESC_CTL0_SOF, D11_TXH_LEN, hb);
    desc(a, c->txring + 16 * (slot + 1), D11_DESC_CTL0_EOF | D11_DESC_CTL0_IOC,
         len, hb + 256);
    c->txslot = slot + 2;
    wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXINDEX, c->txslot * 16);
}

/* post one frame on engine 1 the way b43's dma_tx_fragment() does */
static inline uint16_t post_ctl(Air *a, Card *c, const uint8_t *frame,
                                size_t len, uint32_t mac_ctl, uint8_t plcp0,
                                bool ofdm)
{
    uint8_t h[D11_TXH_LEN] = { 0 };
    uint16_t cookie = next_cookie(c);

    stl_le_p(h, mac_ctl);
    stw_le_p(h + 0x08, ofdm ? 1 : 0);
    stw_le_p(h + 0x4c, cookie);
    h[0x70] = plcp0;
    post_txh(a, c, h, frame, len);
    return cookie;
}

static inline uint16_t post(Air *a, Card *c, const uint8_t *frame, size_t len,
                     bool ack, uint8_t plcp0, bool ofdm)
{
    return post_ctl(a, c, frame, len, ack ? 0x3 : 0x2,  /* ACK, LONGFRAME */
                    plcp0, ofdm);
}

/* let the bottom halves run: poll until @bits appear in GEN_IRQ_REASON */
static inline bool wait_reason(Card *c, uint32_t bits)
{
    for (int i = 0; i < 200; i++) {
        if ((rl(c, D11 + A_D11_GEN_IRQ_REASON) & bits) == bits) {
            return true;
        }
    }
    return false;
}

/* IEEE 802.3 CRC-32 (the 802.11 FCS), bitwise: an independent check */
static inline uint32_t fcs32(const uint8_t *p, size_t n)
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

static inline size_t frame(uint8_t *f, const uint8_t *a1, const uint8_t *a2,
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

/* a station in the peer process */
static const uint8_t peer_sta[6] = { 2, 7, 7, 7, 7, 7 };

/* a peer process on the netdev: length-prefixed frames (-netdev stream) */
static inline void peer_send(int fd, const uint8_t *buf, uint32_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(write(fd, &be, 4), ==, 4);
    if (len) {
        g_assert_cmpint(write(fd, buf, len), ==, len);
    }
}

/* the wire format (include/net/wifi/air-proto.h), version 2 */
#define AIR_VERSION     2
#define AIR_HDR         56

static inline size_t air_frame(uint8_t *out, const uint8_t *a1, uint16_t flen,
                        uint8_t version)
{
    uint8_t *h = out + 14;

    memset(out, 0xff, 6);
    memset(out + 6, 0x02, 6);
    out[12] = 0x88;
    out[13] = 0xb5;
    memset(h, 0, AIR_HDR);
    h[0] = version;
    h[1] = 1;                               /* OFDM */
    stw_be_p(h + 2, AIR_HDR);
    stq_be_p(h + 4, 0x1234);                /* another sender */
    stl_be_p(h + 12, 2437);
    h[16] = 10;
    stw_be_p(h + 18, 108);
    stw_be_p(h + 44, flen);
    memcpy(h + 48, peer_sta, 6);            /* the radio */
    frame(h + AIR_HDR, a1, peer_sta, flen - 24);
    return 14 + AIR_HDR + flen;
}

/*
 * Connect to a stream netdev QEMU serves on the Unix socket @path (it
 * listens asynchronously: wait for it, 30 s at most, then for
 * NETDEV_STREAM_CONNECTED); a receive waits 30 s at most, then fails
 */
static inline int stream_connect(QTestState *qts, const char *path)
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

/*
 * One card whose medium joins the air of "another process": a stream
 * netdev on a Unix socket, with the test on the other end as the peer.
 * @opts: more medium properties.  Returns the peer's socket.
 */
typedef struct {
    char *dir, *sock;
    int fd;
} Peer;

static inline int peer_open(Air *a, Peer *p, const char *opts)
{
    g_autofree char *more = NULL;

    p->dir = g_dir_make_tmp("bcm4331-peer-XXXXXX", NULL);
    p->sock = g_strdup_printf("%s/air.sock", p->dir);
    more = g_strdup_printf("-netdev stream,id=l0,server=on,addr.type=unix,"
                           "addr.path=%s", p->sock);
    air_open(a, 1, NULL, &(AirOpts) {
        .more = more, .link = true, .medium = opts,
    });
    p->fd = stream_connect(a->qts, p->sock);
    return p->fd;
}

static inline void peer_close(Air *a, Peer *p)
{
    close(p->fd);
    air_close(a, 1);
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
static inline void peer_heard(int fd, Card *c)
{
    struct timeval tv = { .tv_sec = 10 };
    uint8_t buf[256];
    size_t n;

    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    n = air_frame(buf, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", 100,
                  AIR_VERSION);
    peer_send(fd, buf, n);
    g_assert_true(wait_reason(c, 0x8000));
}

/*
 * The peer's station acknowledges, on the air's netdev, the frame card @c
 * sent with air sequence @seq; the card's medium takes it in.
 */
static inline void peer_ack(int fd, Card *c, uint16_t seq)
{
    uint8_t buf[256];

    air_frame(buf, c->mac, 24, AIR_VERSION);
    stw_be_p(buf + 14 + 44, IEEE80211_ACK_LEN);
    buf[14 + AIR_HDR] = 0xd4;                    /* ACK: FC, duration, RA */
    buf[14 + AIR_HDR + 1] = 0;
    stw_be_p(buf + 14 + 46, seq);
    peer_send(fd, buf, 14 + AIR_HDR + IEEE80211_ACK_LEN);
    for (int i = 0; i < 20; i++) {
        rl(c, D11 + A_D11_GEN_IRQ_REASON);
    }
}

static inline size_t peer_recv(int fd, uint8_t *buf, size_t size)
{
    uint32_t be, len;

    g_assert_cmpint(recv(fd, &be, 4, MSG_WAITALL), ==, 4);
    len = be32_to_cpu(be);
    g_assert_cmpuint(len, <=, size);
    g_assert_cmpint(recv(fd, buf, len, MSG_WAITALL), ==, len);
    return len;
}

/* index of the first RX buffer of @c from slot @from matching @pred, or -1 */
static inline int rx_find(Air *a, Card *c, unsigned from,
                          bool (*pred)(const uint8_t *f, size_t len))
{
    unsigned cd =
        (rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff) / 16;
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
static inline uint64_t medium_get(Air *a, const char *prop)
{
    QDict *r = qtest_qmp(a->qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': '/objects/air0', 'property': %s } }",
                         prop);
    uint64_t v = qdict_get_int(r, "return");

    qobject_unref(r);
    return v;
}

static inline void medium_set(Air *a, const char *prop, uint64_t v)
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
static inline void expect_tx_error(Air *a, Card *c, uint32_t reason,
                                   unsigned code)
{
    g_assert_true(wait_reason(c, 0x8000));
    g_assert_cmphex(rl(c, D11 + D11_DMA_REASON(1)) & 0xdc00, ==, reason);
    g_assert_cmphex(rl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS) >> 28,
                    ==, 3); /* STOP */
    g_assert_cmphex(rl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXERROR) >> 28,
                    ==, code);
    /* b43's reset path: disable, state DISABLED, re-setup */
    wl(c, D11 + D11_DMA_REASON(1), 0xdc00);
    wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL, 0);
    g_assert_cmphex(rl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS) >> 28,
                    ==, 0);
    set_ring(c, 1, false, c->txring);
    c->txslot = 0;
}

/* ---- a station of the virtual AP (wifi-ap, bssid ap_bssid) ------------ */

static const uint8_t ap_bssid[6] = { 2, 0xaa, 0, 0, 0, 3 };

/* a management frame from @sa to the AP */
static inline size_t mgmt(uint8_t *f, uint8_t fc0, const uint8_t *sa)
{
    memset(f, 0, 64);
    f[0] = fc0;
    memcpy(f + 4, ap_bssid, 6);
    memcpy(f + 10, sa, 6);
    memcpy(f + 16, ap_bssid, 6);
    return 24;
}

/*
 * Start @c's TX ring over before its buffers (4 KiB a descriptor from
 * txbuf) run into its RX buffers: the long floods post thousands of frames.
 */
static inline void tx_room(Air *a, Card *c)
{
    uint32_t st = D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXSTATUS;

    if (c->txslot < 200) {
        return;
    }
    for (int i = 0; i < 100 && (rl(c, st) & 0x1fff) != c->txslot * 16; i++) {
        qtest_clock_step(a->qts, 1000 * 1000);
    }
    g_assert_cmphex(rl(c, st) & 0x1fff, ==, c->txslot * 16);
    wl(c, D11 + D11_DMA_ENGINE(1) + D11_DMA64_TXCTL, 0);
    set_ring(c, 1, false, c->txring);
    c->txslot = 0;
}

static inline void auth_from(Air *a, Card *c, const uint8_t *sa)
{
    uint8_t f[64];
    size_t n = mgmt(f, 0xb0, sa);

    tx_room(a, c);
    stw_le_p(f + n + 2, 1);                 /* open system, seq 1 */
    post(a, c, f, n + 6, true, 0x0a, false);
}

/*
 * an association request from @sa: capability @capab, SSID "QEMU", then
 * @ies (@ies_len bytes, at most 48)
 */
static inline void assoc_req(Air *a, Card *c, const uint8_t *sa,
                             uint16_t capab, const uint8_t *ies,
                             size_t ies_len)
{
    uint8_t f[96];
    size_t n = mgmt(f, 0x00, sa);

    g_assert_cmpuint(ies_len, <=, 48);
    tx_room(a, c);
    stw_le_p(f + n, capab);
    stw_le_p(f + n + 2, 10);
    f[n + 4] = 0;                           /* SSID "QEMU" */
    f[n + 5] = 4;
    memcpy(f + n + 6, "QEMU", 4);
    if (ies_len) {
        memcpy(f + n + 10, ies, ies_len);
    }
    post(a, c, f, n + 10 + ies_len, true, 0x0a, false);
}

static inline void assoc_from(Air *a, Card *c, const uint8_t *sa)
{
    assoc_req(a, c, sa, 0x0401, NULL, 0);
}

/* restart @c's RX ring at its first buffer */
static inline void rx_rewind(Card *c)
{
    wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXCTL, 0);
    set_ring(c, 0, true, c->rxring);
    wl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXINDEX, 0x1000);
}

/* frames in @c's RX ring matching fc0 (and to @da, if given) */
typedef struct {
    unsigned count;
    int last_status;            /* auth/assoc status, deauth reason */
} RxScan;

static inline RxScan rx_scan(Air *a, Card *c, uint8_t fc0, const uint8_t *da)
{
    unsigned cd =
        (rl(c, D11 + D11_DMA_ENGINE(0) + D11_DMA64_RXSTATUS) & 0x1fff) / 16;
    uint8_t rx[D11_RX_FW598_BUFSIZE];
    RxScan sc = { 0, -1 };

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
static inline void run_ms(Air *a, Card *c, unsigned ms)
{
    for (unsigned i = 0; i < ms / 10; i++) {
        qtest_clock_step(a->qts, 10 * 1000 * 1000);
        rl(c, D11 + A_D11_GEN_IRQ_REASON);
    }
}

/* @sa (the card's own address or another) authenticates and associates */
static inline void ap_join(Air *a, Card *c, const uint8_t *sa)
{
    auth_from(a, c, sa);
    run_ms(a, c, 10);
    assoc_from(a, c, sa);
    run_ms(a, c, 10);
    g_assert_cmpint(rx_scan(a, c, 0x10, sa).last_status, ==, 0);
}

/*
 * A data frame from @sa to @da through the AP (ToDS: BSSID, SA, DA), an
 * LLC/SNAP IPv4 header and @payload bytes of pattern; its length
 */
static inline size_t to_ds_frame(uint8_t *f, const uint8_t *sa,
                                 const uint8_t *da, size_t payload)
{
    size_t n = mgmt(f, 0x08, sa);

    f[1] = 0x01;
    memcpy(f + 16, da, 6);
    memcpy(f + n, "\xaa\xaa\x03\x00\x00\x00\x08\x00", 8);
    n += 8;
    for (size_t i = 0; i < payload; i++) {
        f[n + i] = 0x45 + i;
    }
    return n + payload;
}

#endif
