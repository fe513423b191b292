/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: HT-PHY (type 7, rev 1) and BCM2059 radio registers.
 *
 * Register files behind the PHY (0x3FC/0x3FE) and radio (0x3D8/0x3DA)
 * ports of the 802.11 core, the PHY table port (PHY 0x072-0x074), the
 * identity words, the status bits b43 polls (RF sequence done, RCAL and
 * RC-CAL done) and the tuned channel, derived from what the driver writes.
 * Driver side: drivers/net/wireless/broadcom/b43/phy_ht.c, radio_2059.c,
 * tables_phy_ht.c, phy_common.c.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "bcm4331.h"
#include "trace.h"

/* the radio transmits and receives: rfkill off, chip 0 powered, tuned */
bool bcm_radio_on(Bcm4331State *s)
{
    return !s->mac.rfkill && (s->phy.phy[HTPHY_RF_CTL_CMD] &
                              HTPHY_RF_CTL_CHIP0_PU) && s->phy.freq_mhz;
}

uint16_t bcm_phy_version(Bcm4331State *s)
{
    return HTPHY_VERSION;
}

unsigned bcm_phy_channel(Bcm4331State *s)
{
    return ieee80211_freq_to_chan(s->phy.freq_mhz);
}

/*
 * The tuned frequency follows the channel's BW1 filter word (PHY 0x1CE),
 * which b43 writes after programming the synthesizer: across the whole
 * 2059 channel table f = (BW1 - 4) * 5 / 2 MHz (b43/radio_2059.c, the
 * table of struct b43_phy_ht_channeltab_e_radio2059).
 */
static void bcm_phy_tune(Bcm4331State *s, uint16_t bw1)
{
    PhyState *p = &s->phy;
    uint32_t f;

    /* both bands (BANDCTL bit 0 says which; the formula covers both) */
    f = ((uint32_t)(uint16_t)(bw1 - 4) * 5) / 2;
    if (ieee80211_freq_to_chan(f) == 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: BW1 0x%04x is no channel "
                      "the BCM2059 can tune (%u MHz)\n", bw1, f);
        return;
    }
    p->freq_mhz = f;
    trace_bcm4331_phy_tune(f, ieee80211_freq_to_chan(f));
}

uint16_t bcm_phy_data_read(Bcm4331State *s)
{
    PhyState *p = &s->phy;
    uint16_t a = p->phy_addr & (HTPHY_REGS - 1);
    uint16_t v;

    switch (a) {
    case HTPHY_RF_SEQ_STATUS:
        v = 0;      /* forced RF sequences complete at once */
        break;
    case HTPHY_TABLE_DATALO:
        v = p->tables[p->table_ptr];
        p->table_ptr++;     /* 16-bit pointer: wraps within the cells */
        break;
    case HTPHY_TABLE_DATAHI:
        v = p->tables[p->table_ptr] >> 16;
        break;
    default:
        v = p->phy[a];
        break;
    }
    trace_bcm4331_phy_read(a, v);
    return v;
}

void bcm_phy_data_write(Bcm4331State *s, uint16_t v)
{
    PhyState *p = &s->phy;
    uint16_t a = p->phy_addr & (HTPHY_REGS - 1);

    if (p->phy_addr >= HTPHY_REGS) {
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: PHY address 0x%x beyond "
                      "0xfff, using 0x%x\n", p->phy_addr, a);
    }
    trace_bcm4331_phy_write(a, v);
    switch (a) {
    case HTPHY_TABLE_ADDR:
        p->table_ptr = v;
        break;
    case HTPHY_TABLE_DATALO:
        p->tables[p->table_ptr] = (p->tables[p->table_ptr] & 0xffff0000) | v;
        p->table_ptr++;
        return;
    case HTPHY_TABLE_DATAHI:
        p->tables[p->table_ptr] = (p->tables[p->table_ptr] & 0xffff) |
                                  ((uint32_t)v << 16);
        return;
    case HTPHY_BW1:
        p->phy[a] = v;
        bcm_phy_tune(s, v);
        return;
    case HTPHY_RF_CTL_CMD:
        if ((v ^ p->phy[a]) & HTPHY_RF_CTL_CHIP0_PU) {
            trace_bcm4331_phy_radio_power(!!(v & HTPHY_RF_CTL_CHIP0_PU));
        }
        break;
    default:
        break;
    }
    p->phy[a] = v;
}

/* radio address: bits 11:10 core (3 = all), bit 9 read flag, 8:0 register */
uint16_t bcm_radio_data_read(Bcm4331State *s)
{
    PhyState *p = &s->phy;
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

void bcm_radio_data_write(Bcm4331State *s, uint16_t v)
{
    PhyState *p = &s->phy;
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
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: write 0x%x to read-only "
                      "radio ID register %u\n", v, reg);
        return;
    }
    p->radio[core][reg] = v;
}

void bcm_phy_reset(Bcm4331State *s)
{
    memset(&s->phy, 0, sizeof(s->phy));
}

const VMStateDescription vmstate_bcm_phy = {
    .name = "bcm4331-phy",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(phy_addr, PhyState),
        VMSTATE_UINT16_ARRAY(phy, PhyState, HTPHY_REGS),
        VMSTATE_UINT16(table_ptr, PhyState),
        VMSTATE_UINT32_ARRAY(tables, PhyState, HTPHY_TABLE_CELLS),
        VMSTATE_UINT16(radio_addr, PhyState),
        VMSTATE_UINT16_2DARRAY(radio, PhyState, R2059_CORES, R2059_REGS),
        VMSTATE_UINT32(freq_mhz, PhyState),
        VMSTATE_END_OF_LIST()
    },
};
