/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: HT-PHY (type 7, rev 1) and BCM2059 radio registers.
 *
 * The HT-PHY's part of the PHY model (phy.c has the ports, the register
 * files and the table port): the identity words, the status bits b43 polls
 * (RF sequence done, RCAL and RC-CAL done), the radio's address decoding
 * and the tuned channel, derived from what the driver writes.
 * Driver side: drivers/net/wireless/broadcom/b43/phy_ht.c, radio_2059.c,
 * tables_phy_ht.c, phy_common.c.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "net/wifi/ieee80211.h"
#include "phy.h"
#include "trace.h"

static bool bcm_htphy_radio_powered(PhyState *p)
{
    return p->phy[HTPHY_RF_CTL_CMD] & HTPHY_RF_CTL_CHIP0_PU;
}

/*
 * The tuned frequency follows the channel's BW1 filter word (PHY 0x1CE),
 * which b43 writes after programming the synthesizer: across the whole
 * 2059 channel table f = (BW1 - 4) * 5 / 2 MHz (b43/radio_2059.c, the
 * table of struct b43_phy_ht_channeltab_e_radio2059); both bands
 * (BANDCTL bit 0 says which; the formula covers both).
 */
static void bcm_htphy_write(PhyState *p, uint16_t a, uint16_t old,
                            uint16_t v)
{
    switch (a) {
    case HTPHY_BW1:
        bcm_phy_tune(p, ((uint32_t)(uint16_t)(v - 4) * 5) / 2, v);
        break;
    case HTPHY_RF_CTL_CMD:
        if ((v ^ old) & HTPHY_RF_CTL_CHIP0_PU) {
            trace_bcm4331_phy_radio_power(!!(v & HTPHY_RF_CTL_CHIP0_PU));
        }
        break;
    default:
        break;
    }
}

/* radio address: bits 11:10 core (3 = all), bit 9 read flag, 8:0 register */
static uint16_t bcm_r2059_read(PhyState *p)
{
    unsigned core = (p->radio_addr >> 10) & 3;
    unsigned reg = p->radio_addr & (R2059_REGS - 1);
    uint16_t v;

    if (core == 3) {
        core = 0;       /* broadcast address: reads come from core 0 */
    }
    if (core == 0 && reg <= 2) {
        /* identity, read without the read flag by b43_phy_versioning() */
        static const uint16_t id[3] = { R2059_ID0, R2059_ID1, R2059_ID2 };

        v = id[reg];
    } else {
        v = p->radio[core][reg];
        /* calibrations finish at once */
        if (core == 2 && reg == R2059_RCAL_STATUS) {
            v |= 0x1;
        } else if (core == 0 && reg == R2059_RCCAL_DONE) {
            v |= 0x2;
        }
    }
    trace_bcm4331_radio_read(core, reg, v);
    return v;
}

static void bcm_r2059_write(PhyState *p, uint16_t v)
{
    unsigned core = (p->radio_addr >> 10) & 3;
    unsigned reg = p->radio_addr & (R2059_REGS - 1);

    trace_bcm4331_radio_write(core, reg, v);
    if (core == 3) {
        for (unsigned c = 0; c < R2059_CORES; c++) {
            p->radio[c][reg] = v;
        }
        return;
    }
    if (core == 0 && reg <= 2) {
        BCM_GUEST_ERR(bcm4331_radio_ub_ro, "write 0x%x to read-only radio "
                      "ID register %u", v, reg);
        return;
    }
    p->radio[core][reg] = v;
}

const BcmPhyModel bcm_htphy_model = {
    .name = "HT-PHY/BCM2059",
    .version = HTPHY_VERSION,
    .rxh_power = D11_RXH_HT_POWER0,
    .rfseq_status = HTPHY_RF_SEQ_STATUS,
    .phy_write = bcm_htphy_write,
    .radio_read = bcm_r2059_read,
    .radio_write = bcm_r2059_write,
    .radio_powered = bcm_htphy_radio_powered,
};
