/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM43224: N-PHY (type 4, rev 6) and BCM2056 radio (rev 11).
 *
 * The N-PHY's part of the PHY model (phy.c has the ports, the register
 * files and the table port).  Driver side: brcmsmac
 * (drivers/net/wireless/broadcom/brcm80211/brcmsmac/phy/phy_cmn.c,
 * phy_n.c, phyreg_n.h, phy_radio.h):
 *  - identity: PHY_VER 0x8406 (analog 8, N-PHY, rev 6: "6 = 43222a0,
 *    43224a0", types.h NCONF), radio id word 0xB2056000 (BCM2056 rev 11,
 *    the revision brcmsmac has the chan_info_nphyrev6_2056v11 table for),
 *    read through the older radio port on 802.11 core rev 23
 *    (phy_cmn.c read_radio_id());
 *  - the radio's address: bits 15:12 the block (SYN 0, TX0 2, TX1 3,
 *    RX0 6, RX1 7; 0xE writes both TX blocks, 0xF both RX blocks), bit 8
 *    the read flag (RADIO_2055_READ_OFF), bits 7:0 the register;
 *  - what the driver waits for finishes at once: RF control triggers
 *    (0x78 bits 1:0), RF sequences (status 0xA4), the TX IQ/LO calibration
 *    command (0xC0 bits 15:14), the RX IQ estimator (0x129 bit 0, with
 *    a balanced estimate in 0x12C..0x139), the
 *    internal PA's calibration (0x2BE, a 10 s busy wait otherwise), the
 *    2056's resistor calibration (SYN 0x2D bit 7, "HW error: radio
 *    calib3" otherwise);
 *  - the channel: the BW1a word (PHY 0x1CE) of the driver's channel table,
 *    f = (BW1a - 4) * 5 / 2 MHz across the whole 2056 table, as on the
 *    HT-PHY;
 *  - the radio is on while RfctrlCmd (0x78) has CHIP0_PU (0x400).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "phy.h"
#include "trace.h"

#define NPHY_VERSION            0x8406

#define NPHY_RFCTRL_CMD         0x078
#define NPHY_RFCTRL_CMD_TRIGGERS 0x0003     /* per-core override triggers */
#define NPHY_RFCTRL_CHIP0_PU    0x0400
#define NPHY_RFSEQ_STATUS       0x0a4
#define NPHY_TXIQLO_CMD         0x0c0
#define NPHY_TXIQLO_BUSY        0xc000
#define NPHY_IQEST_CMD          0x129
#define NPHY_IQEST_START        0x0001
#define NPHY_IQEST_SAMPLES      0x12b
#define NPHY_IQEST_ACC0         0x12c       /* core 0: 0x12C..0x131 */
#define NPHY_IQEST_ACC1         0x134       /* core 1: 0x134..0x139 */
#define NPHY_BW1A               0x1ce
#define NPHY_PAPD_CAL_CMD       0x2be       /* internal-PA calibration */

#define R2056_READ              0x0100
#define R2056_IDCODE            0x0001      /* RADIO_IDCODE, no read flag */
#define R2056_ID_LO             0x617f      /* id << 12, manufacturer 0x17F */
#define R2056_ID_HI             0xb205      /* revision 11 << 12, id >> 4 */
#define R2056_BLOCK_ALLTX       0xe
#define R2056_BLOCK_ALLRX       0xf
#define R2056_SYN_RCAL_CODE_OUT 0x2d
#define R2056_RCAL_DONE         0x80

static bool bcm_nphy_radio_powered(PhyState *p)
{
    return p->phy[NPHY_RFCTRL_CMD] & NPHY_RFCTRL_CHIP0_PU;
}

/*
 * The RX IQ estimator's result: per core, the I and Q power and the I*Q
 * product summed over the requested samples (0x12B), as a healthy radio
 * receiving the driver's calibration tone gives them: I and Q of equal
 * power (2048 per sample each), a small correlation (1/64 of it).  With
 * nothing there (zeros) brcmsmac's RX IQ calibration fails and retries
 * ("wlc_phy_calc_rx_iq_comp_nphy: Failed"); these give it a compensation
 * near zero (a about -16/1024, b about 0) at every sample count.
 */
static void bcm_nphy_iq_estimate(PhyState *p)
{
    static const uint16_t base[2] = { NPHY_IQEST_ACC0, NPHY_IQEST_ACC1 };
    uint32_t n = p->phy[NPHY_IQEST_SAMPLES];
    uint32_t pwr = n * 2048, iq = n * 32;
    unsigned c;

    for (c = 0; c < ARRAY_SIZE(base); c++) {
        p->phy[base[c] + 0] = iq & 0xffff;      /* IqAccLo */
        p->phy[base[c] + 1] = iq >> 16;         /* IqAccHi */
        p->phy[base[c] + 2] = pwr & 0xffff;     /* ipwrAccLo */
        p->phy[base[c] + 3] = pwr >> 16;        /* ipwrAccHi */
        p->phy[base[c] + 4] = pwr & 0xffff;     /* qpwrAccLo */
        p->phy[base[c] + 5] = pwr >> 16;        /* qpwrAccHi */
    }
}

static void bcm_nphy_write(PhyState *p, uint16_t a, uint16_t old, uint16_t v)
{
    switch (a) {
    case NPHY_BW1A:
        bcm_phy_tune(p, ((uint32_t)(uint16_t)(v - 4) * 5) / 2, v);
        break;
    case NPHY_RFCTRL_CMD:
        /* the override triggers complete at once */
        p->phy[a] &= ~NPHY_RFCTRL_CMD_TRIGGERS;
        if ((v ^ old) & NPHY_RFCTRL_CHIP0_PU) {
            trace_bcm4331_phy_radio_power(!!(v & NPHY_RFCTRL_CHIP0_PU));
        }
        break;
    case NPHY_TXIQLO_CMD:
        p->phy[a] &= ~NPHY_TXIQLO_BUSY;     /* calibration done */
        break;
    case NPHY_IQEST_CMD:
        if (v & NPHY_IQEST_START) {
            bcm_nphy_iq_estimate(p);
        }
        p->phy[a] &= ~NPHY_IQEST_START;     /* estimate ready */
        break;
    case NPHY_PAPD_CAL_CMD:
        p->phy[a] = 0;                      /* PA calibration done */
        break;
    default:
        break;
    }
}

/* the blocks of the address's bits 15:12 that exist (others: none) */
static int bcm_r2056_block(unsigned b)
{
    switch (b) {
    case 0: case 2: case 3: case 6: case 7:
        return b;
    default:
        return -1;
    }
}

static uint16_t bcm_r2056_read(PhyState *p)
{
    uint16_t addr = p->radio_addr;
    unsigned reg = addr & 0xff;
    int blk = bcm_r2056_block(addr >> 12);
    uint16_t v = 0;

    if (addr == R2056_IDCODE) {
        v = R2056_ID_LO;
    } else if (!(addr & R2056_READ)) {
        BCM_GUEST_ERR(bcm4331_radio_ub_read_flag, "BCM2056 read of 0x%04x "
                      "without the read flag (0x100)", addr);
    } else if (blk < 0) {
        BCM_GUEST_ERR(bcm4331_radio_ub_block, "BCM2056 read of 0x%04x: no "
                      "such block", addr);
    } else {
        v = p->radio[blk][reg];
        if (blk == 0 && reg == R2056_SYN_RCAL_CODE_OUT) {
            v |= R2056_RCAL_DONE;           /* calibration finishes at once */
        }
    }
    trace_bcm4331_radio_read(addr >> 12, reg, v);
    return v;
}

static void bcm_r2056_write(PhyState *p, uint16_t v)
{
    uint16_t addr = p->radio_addr;
    unsigned reg = addr & 0xff;
    unsigned b = addr >> 12;
    int blk = bcm_r2056_block(b);

    trace_bcm4331_radio_write(b, reg, v);
    if (b == R2056_BLOCK_ALLTX || b == R2056_BLOCK_ALLRX) {
        unsigned first = b == R2056_BLOCK_ALLTX ? 2 : 6;

        p->radio[first][reg] = p->radio[first + 1][reg] = v;
    } else if (blk < 0 || addr == R2056_IDCODE) {
        BCM_GUEST_ERR(bcm4331_radio_ub_reg, "BCM2056 write 0x%x to 0x%04x: "
                      "no such register", v, addr);
    } else {
        p->radio[blk][reg] = v;
    }
}

/* the high half of the older port's 32-bit data: the id's upper word */
static uint16_t bcm_r2056_data_hi(PhyState *p)
{
    return p->radio_addr == R2056_IDCODE ? R2056_ID_HI : 0;
}

const BcmPhyModel bcm_nphy_model = {
    .name = "N-PHY/BCM2056",
    .version = NPHY_VERSION,
    .rxh_power = D11_RXH_N_POWER0,
    .table_read_lo_first = true,
    .rfseq_status = NPHY_RFSEQ_STATUS,
    .phy_write = bcm_nphy_write,
    .radio_read = bcm_r2056_read,
    .radio_write = bcm_r2056_write,
    .radio_data_hi = bcm_r2056_data_hi,
    .radio_powered = bcm_nphy_radio_powered,
};
