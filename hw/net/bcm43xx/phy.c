/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 core: what every PHY model shares (phy.h).
 *
 * The PHY port (0x3FC/0x3FE) selects a 16-bit PHY register; registers
 * 0x072-0x074 are the table port (a 16-bit cell pointer that advances
 * after each low-half access, the low and high halves of a 32-bit cell),
 * on the HT-PHY (b43/tables_phy_ht.c) as on the N-PHY (brcmsmac
 * phy_n.c wlc_phy_table_write_nphy(), phy_cmn.c wlc_phy_write_table()).
 * The radio ports carry an address word and a data word whose meaning is
 * the radio's (the model's).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "net/wifi/ieee80211.h"
#include "phy.h"
#include "trace.h"

void bcm_phy_init(PhyState *p, const BcmPhyModel *model)
{
    p->model = model;
}

/*
 * The frequency the radio transmits and receives on: 0 when it cannot
 * (the rfkill switch is off, the radio is powered down, or nothing is
 * tuned).
 */
uint32_t bcm_phy_radio_freq(PhyState *p)
{
    return !p->rfkill && p->model->radio_powered(p) ? p->freq_mhz : 0;
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

uint16_t bcm_phy_version(PhyState *p)
{
    return p->model->version;
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

void bcm_phy_tune(PhyState *p, uint32_t f, uint16_t from)
{
    if (ieee80211_freq_to_chan(f) == 0) {
        BCM_GUEST_ERR(bcm4331_phy_ub_tune, "%s: 0x%04x is no channel the "
                      "radio can tune (%u MHz)", p->model->name, from, f);
        return;
    }
    if (f != p->freq_mhz) {
        trace_bcm4331_phy_tune(f, ieee80211_freq_to_chan(f));
    }
    p->freq_mhz = f;
}

/*
 * The table pointer advances after the access that ends a cell: the low
 * half, or on a PHY whose driver reads the low half first, the high half
 * read that follows it (a low half read with no high half after it, a
 * 16-bit cell, advances at the next access to the port).
 */
static void bcm_phy_table_settle(PhyState *p)
{
    if (p->table_hi_pending) {
        p->table_hi_pending = false;
        p->table_ptr++;
    }
}

static uint16_t bcm_phy_data_read(PhyState *p)
{
    uint16_t a = p->phy_addr & (BCM_PHY_REGS - 1);
    uint16_t v;

    switch (a) {
    case BCM_PHY_TABLE_DATALO:
        bcm_phy_table_settle(p);
        v = p->tables[p->table_ptr];
        if (p->model->table_read_lo_first) {
            p->table_hi_pending = true;
        } else {
            p->table_ptr++; /* 16-bit pointer: wraps within the cells */
        }
        break;
    case BCM_PHY_TABLE_DATAHI:
        v = p->tables[p->table_ptr] >> 16;
        bcm_phy_table_settle(p);
        break;
    default:
        /* forced RF sequences complete at once */
        v = a == p->model->rfseq_status ? 0 : p->phy[a];
        break;
    }
    trace_bcm4331_phy_read(a, v);
    return v;
}

static void bcm_phy_data_write(PhyState *p, uint16_t v)
{
    uint16_t a = p->phy_addr & (BCM_PHY_REGS - 1);
    uint16_t old;

    if (p->phy_addr >= BCM_PHY_REGS) {
        BCM_GUEST_ERR(bcm4331_phy_ub_addr, "PHY address 0x%x beyond 0xfff, "
                      "using 0x%x", p->phy_addr, a);
    }
    trace_bcm4331_phy_write(a, v);
    switch (a) {
    case BCM_PHY_TABLE_ADDR:
        p->table_hi_pending = false;
        p->table_ptr = v;
        break;
    case BCM_PHY_TABLE_DATALO:
        bcm_phy_table_settle(p);
        p->tables[p->table_ptr] = (p->tables[p->table_ptr] & 0xffff0000) | v;
        p->table_ptr++;
        return;
    case BCM_PHY_TABLE_DATAHI:
        bcm_phy_table_settle(p);
        p->tables[p->table_ptr] = (p->tables[p->table_ptr] & 0xffff) |
                                  ((uint32_t)v << 16);
        return;
    default:
        break;
    }
    old = p->phy[a];
    p->phy[a] = v;
    p->model->phy_write(p, a, old, v);
}

uint16_t bcm_phy_radio_addr(PhyState *p)
{
    return p->radio_addr;
}

void bcm_phy_radio_set_addr(PhyState *p, uint16_t addr)
{
    p->radio_addr = addr;
}

uint16_t bcm_phy_radio_data_read(PhyState *p)
{
    return p->model->radio_read(p);
}

void bcm_phy_radio_data_write(PhyState *p, uint16_t v)
{
    p->model->radio_write(p, v);
}

/* the high half of 32-bit radio data (older port, 0x3F8) */
uint16_t bcm_phy_radio_data_hi(PhyState *p)
{
    return p->model->radio_data_hi ? p->model->radio_data_hi(p) : 0;
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
        hi = radio ? bcm_phy_radio_data_read(p) : bcm_phy_data_read(p);
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
            bcm_phy_radio_data_write(p, val >> 16);
        } else {
            bcm_phy_data_write(p, val >> 16);
        }
    }
}

/*
 * What the RX header says of the PHY: where it carries the signal each
 * radio core measured, the channel, the PHY type
 */
void bcm_phy_rx_info(PhyState *p, BcmPhyRx *rx)
{
    *rx = (BcmPhyRx) {
        .power_at = p->model->rxh_power,
        .channel = bcm_phy_channel(p),
        .phy_type = FIELD_EX32(bcm_phy_version(p), D11_PHY_VER, TYPE),
    };
}

void bcm_phy_reset(PhyState *p)
{
    const BcmPhyModel *model = p->model;
    bool rfkill = p->rfkill;    /* a switch: reset does not move it */

    memset(p, 0, sizeof(*p));
    p->model = model;
    p->rfkill = rfkill;
}

const VMStateDescription vmstate_bcm_phy = {
    .name = "bcm4331-phy",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(phy_addr, PhyState),
        VMSTATE_UINT16_ARRAY(phy, PhyState, BCM_PHY_REGS),
        VMSTATE_UINT16(table_ptr, PhyState),
        VMSTATE_BOOL(table_hi_pending, PhyState),
        VMSTATE_UINT32_ARRAY(tables, PhyState, BCM_PHY_TABLE_CELLS),
        VMSTATE_UINT16(radio_addr, PhyState),
        VMSTATE_UINT16_2DARRAY(radio, PhyState, BCM_RADIO_BLOCKS,
                               BCM_RADIO_REGS),
        VMSTATE_UINT32(freq_mhz, PhyState),
        VMSTATE_BOOL(rfkill, PhyState),
        VMSTATE_END_OF_LIST()
    },
};
