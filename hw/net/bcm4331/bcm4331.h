/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 802.11 PCIe card: private state shared by the card's
 * source files.
 *
 * Register layout from the Linux bcma and b43 drivers
 * (drivers/bcma/host_pci.c, include/linux/bcma/bcma_regs.h).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM4331_H
#define HW_NET_BCM4331_H

#include "hw/pci/pci_device.h"
#include "net/net.h"
#include "qom/object.h"
#include "hw/net/wifi/medium.h"
#include "hw/net/wifi/crypto.h"
#include "hw/net/bcm4331/bcma-regs.h"
#include "hw/net/bcm4331/d11-regs.h"
#include "sprom.h"

#define TYPE_BCM4331_PCI "bcm4331"
OBJECT_DECLARE_SIMPLE_TYPE(Bcm4331State, BCM4331_PCI)

/* Broadcom's ids are not in include/hw/pci/pci_ids.h */
#define BCM4331_PCI_VENDOR_ID       0x14e4
#define BCM4331_PCI_DEVICE_ID       0x4331
#define BCM4331_PCI_REVISION        0x02
/* Apple AirPort Extreme (MacBook Pro 8,x - 10,1), as seen on real cards */
#define BCM4331_DEFAULT_SUBSYS_VID  0x106b
#define BCM4331_DEFAULT_SUBSYS_ID   0x00d6

#define BCM4331_BAR0_SIZE           0x4000

/*
 * Capabilities: PM at 0x40 -> MSI at 0x58 -> PCIe (v1) at 0xD0.  The
 * Broadcom vendor registers 0x80..0xBB must stay plain read/write config
 * space (bcma/host_pci.c, bcma_regs.h), so no capability may overlap them.
 */
#define BCM4331_CAP_PM              0x40
#define BCM4331_CAP_MSI             0x58
#define BCM4331_CAP_PCIE            0xd0

/* a guest error: a trace event and a LOG_GUEST_ERROR line */
#define BCM_GUEST_ERR(trace, fmt, ...)                                  \
    do {                                                                \
        (trace_##trace)(__VA_ARGS__);                                   \
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: " #trace ": " fmt "\n", \
                      ## __VA_ARGS__);                                  \
    } while (0)

/* ---- backplane (bcma.c) ---- */

typedef enum {
    BCMA_CORE_CHIPCOMMON,
    BCMA_CORE_80211,
    BCMA_CORE_PCIE,
} BcmaCoreType;

/* A core as the EROM describes it: one row of a chip's core table. */
typedef struct BcmaCoreInfo {
    const char *name;
    BcmaCoreType type;
    uint16_t manuf;
    uint16_t id;
    uint8_t rev;
    uint8_t class;
    uint32_t base;          /* slave port 0, 4 KiB */
    uint32_t wrap;          /* agent (wrapper), 4 KiB */
    bool master;            /* bus master: MP descriptor + master wrapper */
    uint32_t iost;          /* agent IOST (read-only) */
    uint32_t ioctl_reset;
    uint32_t resetctl_reset;
} BcmaCoreInfo;

/* A chip: identity and core table; the EROM is generated from it. */
typedef struct BcmaChipInfo {
    uint16_t chip_id;
    uint8_t chip_rev;
    uint8_t package;
    uint32_t erom_base;
    uint32_t cc_cap;
    uint32_t cc_chipstat;
    uint32_t pmu_cap;
    const BcmaCoreInfo *cores;
    unsigned ncores;
} BcmaChipInfo;

#define BCMA_MAX_CORES          8
#define BCMA_CORE_SIZE          0x1000
#define BCMA_REGFILE_WORDS      (0x800 / 4)

typedef struct BcmaCoreState {
    uint32_t ioctl;
    uint32_t resetctl;
    uint32_t oob_sel_out_a30;
    uint32_t clkctlst;          /* writable bits only */
} BcmaCoreState;

typedef struct BcmaCcState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t pmu_chipctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_regctl[BCMA_PMU_INDIRECT_REGS];
    uint32_t pmu_pllctl[BCMA_PMU_INDIRECT_REGS];
} BcmaCcState;

typedef struct BcmaPcieState {
    uint32_t regs[BCMA_REGFILE_WORDS];  /* plain registers, 0x000-0x7ff */
    uint32_t ind[BCMA_PCIE_IND_SIZE / 4];
    uint16_t sprom_shadow[BCMA_PCIE_SPROM_SHADOW_WORDS];
    uint16_t mdio_block;                /* selected block */
    uint8_t mdio_nblocks;
    uint16_t mdio_block_id[BCMA_PCIE_MDIO_BLOCKS];
    uint16_t mdio_regs[BCMA_PCIE_MDIO_BLOCKS][BCMA_PCIE_MDIO_REGS];
} BcmaPcieState;

typedef struct BcmaState {
    const BcmaChipInfo *chip;
    uint32_t erom[BCMA_EROM_WORDS];
    unsigned erom_words;
    uint16_t sprom[BCM_SPROM_MAX_WORDS];
    unsigned sprom_words;

    BcmaCoreState core[BCMA_MAX_CORES];
    BcmaCcState cc;
    BcmaPcieState pcie;
} BcmaState;

/* ---- 802.11 MAC core (d11-mac.c) ---- */

typedef struct D11State {
    qemu_irq irq;               /* the core's interrupt line */
    uint32_t regs[BCMA_CORE_SIZE / 4];  /* plain registers: store/read back */
    uint32_t macctl;
    uint32_t maccmd;
    uint32_t irq_reason;
    uint32_t irq_mask;
    uint32_t dma_reason[D11_DMA_ENGINES];
    uint32_t dma_mask[D11_DMA_ENGINES];
    uint32_t shm_control;
    uint8_t shm[D11_SHM_SHARED_SIZE];
    uint16_t scratch[D11_SHM_SCRATCH_REGS];
    uint32_t shm_hw[D11_SHM_HW_WORDS];
    uint32_t rcmta[D11_SHM_RCMTA_WORDS];
    uint32_t ram_control;
    uint8_t tpl[D11_TEMPLATE_SIZE];
    uint16_t rcm_control;
    uint16_t rcm[D11_RCM_WORDS];
    int64_t tsf_offset;         /* TSF = virtual clock (us) + offset */
    uint32_t tsf_high_latch;
    uint32_t tsf_low_pending;
    uint16_t gpio_control;
    bool rfkill;                /* property: hardware radio switch off */

    /* DMA engines (d11-dma.c): current descriptor, byte offset in ring */
    uint32_t tx_cd[D11_DMA_ENGINES];
    uint32_t rx_cd[D11_DMA_ENGINES];
    /* descriptors walked since the last TXINDEX write (bounds a lap) */
    uint32_t tx_walk[D11_DMA_ENGINES];
    /* TX status FIFO (XMITSTAT_0/1) */
    uint32_t txstat[D11_TXSTAT_FIFO][2];
    uint32_t txstat_head;
    uint32_t txstat_count;
    uint32_t txstat_latch;
    uint64_t rx_dropped;
} D11State;

/* ---- firmware high-level emulation (fw.c) ---- */

/* a frame handed to the air, awaiting its TX status (airtime on) */
#define D11_TX_FIFO     32
typedef struct D11TxPending {
    uint16_t cookie;
    uint16_t seq;
    uint8_t engine;
    bool want_ack;
    bool dead;          /* its engine was reset meanwhile: no status */
} D11TxPending;

typedef struct FwState {
    bool psm_running;
    /* AP/IBSS beacons (fw.c): active template, DTIM counter, engine 4 */
    uint8_t beacon_active;
    uint8_t dtim_count;
    bool after_dtim;            /* engine 4 may send (after a DTIM) */
    uint32_t ucode_bytes;       /* bytes uploaded since PSM_JMP0 */
    uint32_t ucode_head[8];     /* first words: the stub's identity */
    uint16_t rev, patch, date, time, fwcapa;
    bool stub;                  /* our stub (else Broadcom's microcode) */
} FwState;

/* ---- HT-PHY and BCM2059 radio (htphy.c) ---- */

typedef struct PhyState {
    uint16_t phy_addr;
    uint16_t phy[HTPHY_REGS];
    uint16_t table_ptr;
    uint32_t tables[HTPHY_TABLE_CELLS];
    uint16_t radio_addr;
    uint16_t radio[R2059_CORES][R2059_REGS];
    uint32_t freq_mhz;          /* tuned frequency, derived from BW1 */
} PhyState;

struct Bcm4331State {
    PCIDevice parent_obj;

    WifiMedium *medium;
    WifiMediumClient air;
    QEMUBH *tx_bh;
    /*
     * airtime on: the frames the DMA engines fetched and handed to the air
     * (the PHY's TX FIFO), oldest first, until their exchange ends and the
     * firmware writes their TX status.  An engine's CD moves on when it
     * fetches a frame, as the hardware's does, so a slow air never leaves
     * it a whole ring behind TXINDEX.
     */
    D11TxPending tx_fifo[D11_TX_FIFO];
    uint32_t tx_fifo_head, tx_fifo_count;
    QEMUTimer *tbtt_timer;
    int32_t pos[3];
    int32_t txpower;
    bool rx_cd_erratum;
    bool dma64;

    MemoryRegion bar0;
    uint32_t core_irq_level;    /* cores' interrupt lines (not migrated) */
    BcmaState bcma;
    D11State mac;
    FwState fw;
    PhyState phy;

    /* properties */
    MACAddr macaddr;
    char *sprom_file;
    uint16_t subsys_vid;
    uint16_t subsys_id;
};

extern const VMStateDescription vmstate_bcma;
extern const VMStateDescription vmstate_d11;
extern const VMStateDescription vmstate_bcm_fw;
extern const VMStateDescription vmstate_bcm_phy;
extern const VMStateDescription vmstate_d11_tx_fifo;

bool bcma_realize(Bcm4331State *s, bool mac_given, Error **errp);
void bcma_reset(Bcm4331State *s);
uint32_t bcma_bp_read(Bcm4331State *s, uint32_t addr, unsigned size);
void bcma_bp_write(Bcm4331State *s, uint32_t addr, uint32_t val,
                   unsigned size);
const char *bcma_target_name(Bcm4331State *s, uint32_t addr);

/* bcma-cc.c: ChipCommon, PMU, SPROM window */
const char *bcma_cc_reg_name(uint32_t off);
uint16_t bcma_sprom_word(BcmaState *b, unsigned w);
uint32_t bcma_cc_read32(Bcm4331State *s, uint32_t off);
void bcma_cc_write32(Bcm4331State *s, uint32_t off, uint32_t val,
                     uint32_t mask);

/* bcma-pcie.c: the PCIe core */
const char *bcma_pcie_reg_name(uint32_t off);
uint32_t bcma_pcie_read32(Bcm4331State *s, uint32_t off);
void bcma_pcie_write32(Bcm4331State *s, uint32_t off, uint32_t val,
                       uint32_t mask);
int bcma_core_index(Bcm4331State *s, BcmaCoreType type);

/* d11-mac.c */
uint32_t d11_mmio_read(Bcm4331State *s, uint32_t off, uint32_t mask);
void d11_mmio_write(Bcm4331State *s, uint32_t off, uint32_t val,
                    uint32_t mask);
void d11_core_reset(Bcm4331State *s);
void d11_reset(Bcm4331State *s);
bool d11_irq_pending(Bcm4331State *s);
void d11_update_irq(Bcm4331State *s);
void d11_set_rfkill(Bcm4331State *s, bool blocked);
bool d11_mac_running(Bcm4331State *s);
uint16_t d11_shm_read16(Bcm4331State *s, uint32_t byte_off);
uint64_t d11_tsf_now(Bcm4331State *s);
void d11_shm_write16(Bcm4331State *s, uint32_t byte_off, uint16_t v);

/* d11-dma.c: the DMA engines */

/* the largest frame an engine gathers, and what encryption may append */
#define D11_TX_MAX_BYTES        (D11_TXH_LEN + WIFI_MAX_FRAME)
#define D11_TX_CRYPTO_ROOM      WIFI_CCMP_MIC_LEN   /* WEP/TKIP ICV: 4 */

/* an RX buffer the RX engine reserved for a frame */
typedef struct D11RxSlot {
    uint32_t cd;                /* its descriptor */
    uint32_t next;              /* CD after it */
    uint64_t addr;              /* the buffer */
} D11RxSlot;

void d11_dma_reg_write(Bcm4331State *s, uint32_t off, uint32_t old,
                       uint32_t val);
uint32_t d11_dma_status(Bcm4331State *s, uint32_t off);
void d11_dma_kick(Bcm4331State *s);
bool d11_dma_tx_posted(Bcm4331State *s, unsigned engine);
void d11_dma_fetch_now(Bcm4331State *s);
void d11_dma_hold(Bcm4331State *s);
void d11_dma_release(Bcm4331State *s);
bool d11_dma_rx_enabled(Bcm4331State *s);
uint32_t d11_dma_rx_offset(Bcm4331State *s);
bool d11_dma_rx_reserve(Bcm4331State *s, size_t total, size_t frame_len,
                        D11RxSlot *slot);
bool d11_dma_rx_commit(Bcm4331State *s, const D11RxSlot *slot,
                       const uint8_t *buf, size_t total);
void d11_dma_init(Bcm4331State *s);
void d11_dma_exit(Bcm4331State *s);
void d11_dma_reset(Bcm4331State *s);

/* d11-xmit.c: the firmware's data path, the card's client of the air */
void d11_xmit_tx(Bcm4331State *s, unsigned engine, uint8_t *buf, size_t len);
bool d11_xmit_may_fetch(Bcm4331State *s);
void d11_xmit_engine_reset(Bcm4331State *s, unsigned engine);
uint32_t d11_txstat_pop(Bcm4331State *s);
uint32_t d11_txstat_word1(Bcm4331State *s);
void d11_xmit_init(Bcm4331State *s);
void d11_xmit_exit(Bcm4331State *s);
void d11_xmit_reset(Bcm4331State *s);
int d11_xmit_post_load(Bcm4331State *s);

/* d11-crypto.c: the hardware key table and frame protection */
size_t d11_tx_encrypt(Bcm4331State *s, uint32_t mac_ctl, uint8_t *f,
                      size_t len, size_t cap);
uint32_t d11_rx_decrypt(Bcm4331State *s, uint8_t *f, size_t len);

/* fw.c */
void bcm_fw_ucode_write(Bcm4331State *s, uint32_t word_index, uint32_t v,
                        uint32_t mask);
void bcm_fw_macctl_changed(Bcm4331State *s, uint32_t old, uint32_t val);
void bcm_fw_reset(Bcm4331State *s);
void bcm_fw_tbtt_update(Bcm4331State *s);
void bcm_fw_init(Bcm4331State *s);
void bcm_fw_exit(Bcm4331State *s);
bool bcm_fw_engine_may_send(Bcm4331State *s, unsigned engine);
void bcm_fw_engine_idle(Bcm4331State *s, unsigned engine);
uint16_t bcm_fw_tx_fixup(Bcm4331State *s, unsigned engine, uint16_t cookie,
                         uint8_t *frame);

/* htphy.c */
uint16_t bcm_phy_version(Bcm4331State *s);
uint16_t bcm_phy_data_read(Bcm4331State *s);
void bcm_phy_data_write(Bcm4331State *s, uint16_t v);
uint16_t bcm_radio_data_read(Bcm4331State *s);
void bcm_radio_data_write(Bcm4331State *s, uint16_t v);
void bcm_phy_reset(Bcm4331State *s);
unsigned bcm_phy_channel(Bcm4331State *s);
bool bcm_radio_on(Bcm4331State *s);

#endif
