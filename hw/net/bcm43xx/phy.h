/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 core: the PHY and its radio, behind the MAC's ports
 * (phy.c).  What every PHY shares lives in phy.c: the ports, the register
 * files, the PHY table port, the hardware radio switch, the tuned
 * frequency the data path asks for.  A PHY model (htphy.c: HT-PHY and
 * BCM2059 of the BCM4331; nphy.c: N-PHY and BCM2056 of the BCM43224) says
 * what differs: its identity, the status bits its driver polls, how its
 * radio addresses are decoded and which writes tune the channel.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_PHY_H
#define HW_NET_BCM43XX_PHY_H

#include "hw/net/bcm43xx/d11-regs.h"
#include "bcm-common.h"

#define BCM_PHY_REGS            0x1000      /* 12-bit PHY register space */
#define BCM_PHY_TABLE_CELLS     0x10000     /* 16-bit table pointer */
#define BCM_RADIO_BLOCKS        8           /* radio cores / blocks */
#define BCM_RADIO_REGS          512

/* PHY table port: the same PHY registers on the HT-PHY and the N-PHY */
#define BCM_PHY_TABLE_ADDR      0x072
#define BCM_PHY_TABLE_DATALO    0x073
#define BCM_PHY_TABLE_DATAHI    0x074

typedef struct BcmPhyModel BcmPhyModel;

typedef struct PhyState {
    const BcmPhyModel *model;   /* the chip's PHY (set at init) */
    uint16_t phy_addr;
    uint16_t phy[BCM_PHY_REGS];
    uint16_t table_ptr;
    bool table_hi_pending;      /* a 32-bit read's high half is next */
    uint32_t tables[BCM_PHY_TABLE_CELLS];
    uint16_t radio_addr;
    uint16_t radio[BCM_RADIO_BLOCKS][BCM_RADIO_REGS];
    uint32_t freq_mhz;          /* tuned frequency, from the driver's writes */
    bool rfkill;                /* the hardware radio switch: off */
} PhyState;

/*
 * A PHY model.  @rfseq_status reads 0 (forced RF sequences complete at
 * once); @phy_write runs after a PHY register was stored (@old: its
 * previous value).  Radio
 * accesses are the model's: the address word's layout differs by radio.
 */
struct BcmPhyModel {
    const char *name;
    uint16_t version;                   /* PHY_VER (0x3E0) */
    uint8_t rxh_power;                  /* RX header: per-core signal at */
    /*
     * the driver reads a 32-bit table cell low half first (brcmsmac's and
     * b43's N-PHY code); HT-PHY code reads the high half first
     */
    bool table_read_lo_first;
    uint16_t rfseq_status;              /* the RF sequencer's status */
    void (*phy_write)(PhyState *p, uint16_t reg, uint16_t old, uint16_t v);
    uint16_t (*radio_read)(PhyState *p);
    void (*radio_write)(PhyState *p, uint16_t v);
    uint16_t (*radio_data_hi)(PhyState *p);     /* optional */
    bool (*radio_powered)(PhyState *p);
};

extern const BcmPhyModel bcm_htphy_model;       /* htphy.c */
extern const BcmPhyModel bcm_nphy_model;        /* nphy.c */

/*
 * The ports of the MAC.  PHY (0x3FC) and RADIO24 (0x3D8): address in bits
 * 15:0, data in 31:16 of one word.  The older radio port (0x3F6 address,
 * 0x3FA data, 0x3F8 the high half of 32-bit radio data) spans two words.
 */
typedef enum {
    BCM_PHY_PORT_PHY,           /* PHY_CONTROL (0x3FC) */
    BCM_PHY_PORT_RADIO,         /* RADIO24_CONTROL (0x3D8) */
} BcmPhyPort;

extern const VMStateDescription vmstate_bcm_phy;

void bcm_phy_init(PhyState *p, const BcmPhyModel *model);
uint16_t bcm_phy_version(PhyState *p);
uint32_t bcm_phy_port_read(PhyState *p, BcmPhyPort port, uint32_t mask);
void bcm_phy_port_write(PhyState *p, BcmPhyPort port, uint32_t val,
                        uint32_t mask);
uint16_t bcm_phy_radio_addr(PhyState *p);
void bcm_phy_radio_set_addr(PhyState *p, uint16_t addr);
uint16_t bcm_phy_radio_data_read(PhyState *p);
void bcm_phy_radio_data_write(PhyState *p, uint16_t v);
uint16_t bcm_phy_radio_data_hi(PhyState *p);
void bcm_phy_reset(PhyState *p);
uint32_t bcm_phy_freq(PhyState *p);
unsigned bcm_phy_channel(PhyState *p);
uint32_t bcm_phy_radio_freq(PhyState *p);
bool bcm_phy_rfkill(PhyState *p);
bool bcm_phy_set_rfkill(PhyState *p, bool blocked);

/* how the PHY describes a received frame in the RX header */
typedef struct BcmPhyRx {
    uint8_t power_at;           /* where the per-core signal goes */
    unsigned channel;
    uint16_t phy_type;
} BcmPhyRx;
void bcm_phy_rx_info(PhyState *p, BcmPhyRx *rx);

/* for the models: tune to @f MHz (0: a value no channel has, ignored) */
void bcm_phy_tune(PhyState *p, uint32_t f, uint16_t from);

#endif
