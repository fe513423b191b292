/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: HT-PHY (type 7, rev 1) and BCM2059 radio.  The MAC
 * reaches them through two ports (htphy.c); the data path asks for the
 * tuned frequency and whether the radio is powered.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM4331_HTPHY_H
#define HW_NET_BCM4331_HTPHY_H

#include "hw/net/bcm4331/d11-regs.h"
#include "bcm-common.h"

struct PhyState {
    uint16_t phy_addr;
    uint16_t phy[HTPHY_REGS];
    uint16_t table_ptr;
    uint32_t tables[HTPHY_TABLE_CELLS];
    uint16_t radio_addr;
    uint16_t radio[R2059_CORES][R2059_REGS];
    uint32_t freq_mhz;          /* tuned frequency, derived from BW1 */
    bool rfkill;                /* the hardware radio switch: off */
};

/* the two ports of the MAC: address in bits 15:0, data in 31:16 */
typedef enum {
    BCM_PHY_PORT_PHY,           /* PHY_CONTROL (0x3FC) */
    BCM_PHY_PORT_RADIO,         /* RADIO24_CONTROL (0x3D8) */
} BcmPhyPort;

extern const VMStateDescription vmstate_bcm_phy;

uint16_t bcm_phy_version(void);
uint32_t bcm_phy_port_read(PhyState *p, BcmPhyPort port, uint32_t mask);
void bcm_phy_port_write(PhyState *p, BcmPhyPort port, uint32_t val,
                        uint32_t mask);
void bcm_phy_reset(PhyState *p);
uint32_t bcm_phy_freq(PhyState *p);
unsigned bcm_phy_channel(PhyState *p);
uint32_t bcm_phy_radio_freq(PhyState *p);
bool bcm_phy_rfkill(PhyState *p);
bool bcm_phy_set_rfkill(PhyState *p, bool blocked);

#endif
