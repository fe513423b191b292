/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libqos driver steps for the Broadcom SoftMAC cards (bcm4331, bcm43224):
 * a card's register file behind its BAR0, brought up the way b43 brings it
 * up (the steps the qtests and the fuzz targets share); the data path of
 * cards on one wifi-medium (frames posted the way b43 posts them, a peer
 * process on the air's netdev, a station of the wifi-ap).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef LIBQOS_BCM43XX_H
#define LIBQOS_BCM43XX_H

#include "../libqtest.h"
#include "qobject/qdict.h"
#include "pci.h"
#include "qgraph.h"
#include "hw/net/bcm43xx/bcma-regs.h"
#include "hw/net/bcm43xx/d11-regs.h"

/* where the tests map the 802.11 core and its agent: the BAR0 windows */
#define D11             BCMA_BAR0_WIN0
#define AGENT           BCMA_BAR0_WIN1

/*
 * What differs between the chips, as the tests see it (the device models'
 * tables: hw/net/bcm43xx/bcma.c, bcm43xx-pci.c, htphy.c, nphy.c)
 */
typedef struct QBcm43xxChip {
    const char *name;           /* the QEMU device, the libqos node */
    uint16_t device_id;         /* PCI */
    uint8_t revision;           /* PCI */
    uint16_t chip_id;           /* ChipCommon: id, revision, package */
    uint8_t chip_rev;
    uint8_t package;
    uint8_t cc_rev;             /* EROM: core revisions */
    uint8_t d11_rev;
    uint8_t pcie_rev;
    uint32_t d11_iost;          /* the 802.11 core's agent: IOST */
    uint8_t sprom_rev;          /* the built-in SPROM image */
    uint8_t msi_cap;            /* PCI: the MSI capability */
    uint16_t phy_ver;           /* the 802.11 core's PHY_VER (type 11:8) */
    uint8_t rxh_power;          /* RX header: offset of core 0's signal */
    bool dma_ring_aligned;      /* DMA ring address bits 11:0 read 0 */
    uint16_t rf_pu_reg;         /* PHY register and bit: radio powered */
    uint16_t rf_pu_bit;
} QBcm43xxChip;

/* the chip of PCI device @device_id (NULL: none of ours) */
const QBcm43xxChip *qbcm43xx_chip(uint16_t device_id);

/*
 * One card on the PC's PCI bus, its BAR0 mapped.  The libqos graph has it
 * too: nodes "bcm4331" and "bcm43224" (on a pci-bus, at 04.0, id wifi0)
 * produce the interface "bcm43xx", a QBcm43xx, for qos_add_test().
 */
typedef struct QBcm43xx {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar bar0;
    const QBcm43xxChip *chip;
} QBcm43xx;

void qbcm43xx_open(QBcm43xx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void qbcm43xx_close(QBcm43xx *c);
uint32_t bcm_rl(QBcm43xx *c, uint32_t off);
void bcm_wl(QBcm43xx *c, uint32_t off, uint32_t v);
uint16_t bcm_rw(QBcm43xx *c, uint32_t off);
void bcm_ww(QBcm43xx *c, uint32_t off, uint16_t v);
/* CRC-8 of drivers/bcma/sprom.c over @n words, computed independently */
uint8_t qbcm43xx_sprom_crc(const uint16_t *w, unsigned n);
/* the first @n words of the SPROM, through ChipCommon */
void qbcm43xx_read_sprom(QBcm43xx *c, uint16_t *w, unsigned n);

/* shared memory: b43_shm_write16/read16/write32/read32 (SHARED routing) */
void qbcm43xx_shm_ctl(QBcm43xx *c, uint32_t routing, uint32_t off);
void qbcm43xx_shm_w16(QBcm43xx *c, uint32_t b, uint16_t v);
uint16_t qbcm43xx_shm_r16(QBcm43xx *c, uint32_t b);
void qbcm43xx_shm_w32(QBcm43xx *c, uint32_t b, uint32_t v);
uint32_t qbcm43xx_shm_r32(QBcm43xx *c, uint32_t b);
/*
 * What b43_chip_init() and b43_upload_microcode() do, with @n @words of
 * microcode (big-endian words of the payload, as b43 uploads them); the
 * general interrupt reason after the PSM start
 */
uint32_t qbcm43xx_boot(QBcm43xx *c, const uint32_t *words, unsigned n);
/* INTA# asserted (the PCI status bit) */
bool qbcm43xx_intx(QBcm43xx *c);
/* b43's firmware stub, release 784.2 (firmware-stubs/gen-stubs.py) */
extern const uint32_t qbcm43xx_stub784[6];

/* b43 steps, on any card's function and BAR0 */
void qbcm43xx_core_up(QPCIDevice *dev, QPCIBar bar0);
uint32_t qbcm43xx_fw_start(QPCIDevice *dev, QPCIBar bar0);
void qbcm43xx_scratch_write(QPCIDevice *dev, QPCIBar bar0, unsigned reg,
                            uint16_t v);
void qbcm43xx_phy_write(QPCIDevice *dev, QPCIBar bar0, uint16_t reg,
                        uint16_t v);
void qbcm43xx_radio_up(QPCIDevice *dev, QPCIBar bar0, const uint8_t *mac);
void qbcm43xx_set_ring(QPCIDevice *dev, QPCIBar bar0, unsigned engine,
                       bool rx, uint64_t base);
void qbcm43xx_enable(QPCIDevice *dev, QPCIBar bar0);

/* poll query-migrate until the migration has completed */
void qbcm_wait_migration(QTestState *qts);

/* ---- cards on one wifi-medium (air0), the data path ------------------- */

typedef struct {
    QPCIDevice *dev;
    int devfn;                  /* bus << 8 | devfn; 0: slot 4 + index */
    QPCIBar bar0;
    uint8_t mac[6];
    uint64_t txring, txbuf, rxring, rxbuf;
    unsigned txslot;
    const QBcm43xxChip *chip;   /* set by qbcm_card_up() */
} QBcmCard;

typedef struct {
    QTestState *qts;
    QPCIBus *bus;
    QBcmCard c[3];
} QBcmAir;

uint32_t qbcm_rl(QBcmCard *c, uint32_t off);
void qbcm_wl(QBcmCard *c, uint32_t off, uint32_t v);
void qbcm_ww(QBcmCard *c, uint32_t off, uint16_t v);
/* the current descriptor (bytes) of TX engine 1 and RX engine 0 */
uint32_t qbcm_tx_cd(QBcmCard *c);
uint32_t qbcm_rx_cd(QBcmCard *c);
void qbcm_scratch_w(QBcmCard *c, unsigned reg, uint16_t v);
/* a 64-bit descriptor, with b43's PCIe translation bit in the high word */
void qbcm_desc(QBcmAir *a, uint64_t at, uint32_t ctl0, uint32_t len,
               uint64_t addr);
void qbcm_set_ring(QBcmCard *c, unsigned n, bool rx, uint64_t base);
/* what b43 does up to a running interface, channel 6 */
void qbcm_card_up(QBcmAir *a, QBcmCard *c, unsigned i);

/* how qbcm_air_open() builds the machine; every field may be left out */
typedef struct {
    const char *chip;       /* the cards' device, default "bcm4331" */
    const char *machine;    /* default "-M q35 -m 5G" */
    const char *medium;     /* more medium properties (",airtime=on") */
    const char *more;       /* more on the command line (a wifi-ap...) */
    bool link;              /* the medium's netdev is l0 */
    bool high;              /* rings and buffers above 4 GiB */
} QBcmAirOpts;

GString *qbcm_air_cmdline(const QBcmAirOpts *o, int ncards,
                          const char *extra);
/*
 * Card number @i's address 02:00:00:00:00:<i+1> and its memory: rings and
 * buffers at @base + 16 MiB * (i + 1); @devfn as in QBcmCard (0: slot 4 + i)
 */
void qbcm_card_layout(QBcmCard *c, unsigned i, uint64_t base, int devfn);
/* @ncards cards on one air (@extra: more properties of the last one) */
void qbcm_air_open(QBcmAir *a, int ncards, const char *extra,
                   const QBcmAirOpts *o);
void qbcm_air_close(QBcmAir *a, int ncards);

/* the cookie of the next frame posted on @c's engine 1 */
uint16_t qbcm_next_cookie(QBcmCard *c);
/* TX header @h and @frame on @c's engine 1 as b43's dma_tx_fragment() */
void qbcm_post_txh(QBcmAir *a, QBcmCard *c, const uint8_t *h,
                   const uint8_t *frame, size_t len);
uint16_t qbcm_post_ctl(QBcmAir *a, QBcmCard *c, const uint8_t *frame,
                       size_t len, uint32_t mac_ctl, uint8_t plcp0,
                       bool ofdm);
uint16_t qbcm_post(QBcmAir *a, QBcmCard *c, const uint8_t *frame,
                   size_t len, bool ack, uint8_t plcp0, bool ofdm);
/* let the bottom halves run: poll until @bits appear in GEN_IRQ_REASON */
bool qbcm_wait_reason(QBcmCard *c, uint32_t bits);
/* IEEE 802.3 CRC-32 (the 802.11 FCS), bitwise: an independent check */
uint32_t qbcm_fcs32(const uint8_t *p, size_t n);
/* a ToDS data frame a2 -> a1 with @body bytes of pattern; its length */
size_t qbcm_frame(uint8_t *f, const uint8_t *a1, const uint8_t *a2,
                  size_t body);

/* ---- a peer process on the medium's netdev (-netdev stream) ----------- */

/* a station in the peer process */
extern const uint8_t qbcm_peer_sta[6];

/* the wire format (include/net/wifi/air-proto.h), version 2 */
#define QBCM_AIR_VERSION        2
#define QBCM_AIR_HDR            56

typedef struct {
    char *dir, *sock;
    int fd;
} QBcmPeer;

/* length-prefixed frames on the stream */
void qbcm_peer_send(int fd, const uint8_t *buf, uint32_t len);
size_t qbcm_air_frame(uint8_t *out, const uint8_t *a1, uint16_t flen,
                      uint8_t version);
int qbcm_stream_connect(QTestState *qts, const char *path);
/*
 * One card of @chip (NULL: bcm4331) whose medium joins the air of "another
 * process": a stream netdev on a Unix socket, the test at the other end as
 * the peer.  @opts: more medium properties.  Returns the peer's socket.
 */
int qbcm_peer_open(QBcmAir *a, QBcmPeer *p, const char *chip,
                   const char *opts);
void qbcm_peer_close(QBcmAir *a, QBcmPeer *p);
void qbcm_peer_heard(int fd, QBcmCard *c);
void qbcm_peer_ack(int fd, QBcmCard *c, uint16_t seq);
size_t qbcm_peer_recv(int fd, uint8_t *buf, size_t size);

/* index of the first RX buffer of @c from slot @from matching @pred, or -1 */
int qbcm_rx_find(QBcmAir *a, QBcmCard *c, unsigned from,
                 bool (*pred)(const uint8_t *f, size_t len));
/* the medium's QOM properties */
uint64_t qbcm_medium_get(QBcmAir *a, const char *prop);
void qbcm_medium_set(QBcmAir *a, const char *prop, uint64_t v);
void qbcm_expect_tx_error(QBcmAir *a, QBcmCard *c, uint32_t reason,
                          unsigned code);

/* ---- a station of the virtual AP (wifi-ap, bssid qbcm_ap_bssid) ------- */

extern const uint8_t qbcm_ap_bssid[6];

/* frames in @c's RX ring matching fc0 (and to @da, if given) */
typedef struct {
    unsigned count;
    int last_status;            /* auth/assoc status, deauth reason */
} QBcmRxScan;

size_t qbcm_mgmt(uint8_t *f, uint8_t fc0, const uint8_t *sa);
void qbcm_tx_room(QBcmAir *a, QBcmCard *c);
void qbcm_auth_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa);
void qbcm_assoc_req(QBcmAir *a, QBcmCard *c, const uint8_t *sa,
                    uint16_t capab, const uint8_t *ies, size_t ies_len);
void qbcm_assoc_from(QBcmAir *a, QBcmCard *c, const uint8_t *sa);
void qbcm_rx_rewind(QBcmCard *c);
QBcmRxScan qbcm_rx_scan(QBcmAir *a, QBcmCard *c, uint8_t fc0,
                        const uint8_t *da);
void qbcm_run_ms(QBcmAir *a, QBcmCard *c, unsigned ms);
void qbcm_ap_join(QBcmAir *a, QBcmCard *c, const uint8_t *sa);
size_t qbcm_to_ds_frame(uint8_t *f, const uint8_t *sa, const uint8_t *da,
                        size_t payload);

/* query-wifi-air: the link from @from to @to (in *@resp, to unref) */
QDict *qbcm_air_link(QTestState *qts, QDict **resp, const char *from,
                     const char *to);

/* query-wifi-air: counter @name of radio @radio */
int64_t qbcm_air_radio(QTestState *qts, const char *radio, const char *name);

#endif
