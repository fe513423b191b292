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
#include "hw/net/wifi/ieee80211.h"
#include "htphy.h"
#include "trace.h"

/*
 * The frequency the radio transmits and receives on: 0 when it cannot
 * (the rfkill switch is off, chip 0 is powered down, or nothing is tuned).
 */
uint32_t bcm_phy_radio_freq(PhyState *p)
{
    return !p->rfkill && (p->phy[HTPHY_RF_CTL_CMD] & HTPHY_RF_CTL_CHIP0_PU) ?
           p->freq_mhz : 0;
}

bool bcm_phy_rfkill(PhyState *p)
{
    return p->rfkill;
}

/* flip the hardware radio switch; true if it changed */
bool bcm_phy_set_rfkill(PhyState *p, bool blocked)
{
    if (p->rfkill == blocked) {
        return false;
    }
    p->rfkill = blocked;
    trace_bcm4331_d11_rfkill(blocked);
    return true;
}

uint16_t bcm_phy_version(void)
{
    return HTPHY_VERSION;
}

/* the tuned frequency in MHz, 0 before the driver tuned a channel */
uint32_t bcm_phy_freq(PhyState *p)
{
    return p->freq_mhz;
}

unsigned bcm_phy_channel(PhyState *p)
{
    return ieee80211_freq_to_chan(p->freq_mhz);
}

/*
 * The tuned frequency follows the channel's BW1 filter word (PHY 0x1CE),
 * which b43 writes after programming the synthesizer: across the whole
 * 2059 channel table f = (BW1 - 4) * 5 / 2 MHz (b43/radio_2059.c, the
 * table of struct b43_phy_ht_channeltab_e_radio2059).
 */
static void bcm_phy_tune(PhyState *p, uint16_t bw1)
{
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

static uint16_t bcm_phy_data_read(PhyState *p)
{
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

static void bcm_phy_data_write(PhyState *p, uint16_t v)
{
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
        bcm_phy_tune(p, v);
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
static uint16_t bcm_radio_data_read(PhyState *p)
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

static void bcm_radio_data_write(PhyState *p, uint16_t v)
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
        qemu_log_mask(LOG_GUEST_ERROR, "bcm4331: write 0x%x to read-only "
                      "radio ID register %u\n", v, reg);
        return;
    }
    p->radio[core][reg] = v;
}

/*
 * A port of the MAC: the address register in the low half, the data
 * register it selects in the high half; the data is read (a side effect
 * for the table port) only when the access covers it.
 */
uint32_t bcm_phy_port_read(PhyState *p, BcmPhyPort port, uint32_t mask)
{
    bool radio = port == BCM_PHY_PORT_RADIO;
    uint32_t lo = radio ? p->radio_addr : p->phy_addr;
    uint32_t hi = 0;

    if (mask & 0xffff0000) {
        hi = radio ? bcm_radio_data_read(p) : bcm_phy_data_read(p);
    }
    return lo | (hi << 16);
}

void bcm_phy_port_write(PhyState *p, BcmPhyPort port, uint32_t val,
                        uint32_t mask)
{
    bool radio = port == BCM_PHY_PORT_RADIO;
    uint16_t *addr = radio ? &p->radio_addr : &p->phy_addr;

    if (mask & 0xffff) {
        *addr = (*addr & ~mask) | (val & mask);
    }
    if (mask & 0xffff0000) {
        if (radio) {
            bcm_radio_data_write(p, val >> 16);
        } else {
            bcm_phy_data_write(p, val >> 16);
        }
    }
}

void bcm_phy_reset(PhyState *p)
{
    bool rfkill = p->rfkill;    /* a switch: reset does not move it */

    memset(p, 0, sizeof(*p));
    p->rfkill = rfkill;
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
        VMSTATE_BOOL(rfkill, PhyState),
        VMSTATE_END_OF_LIST()
    },
};
