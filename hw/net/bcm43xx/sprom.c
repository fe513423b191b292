/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom SPROM images: the BCM94331's (rev 9) and the BCM943224's
 * (rev 8) builders, CRC-8 and validation.
 *
 * CRC: drivers/bcma/sprom.c (bcma_crc8, bcma_sprom_crc): reflected CRC-8,
 * polynomial 0xAB, init 0xFF, result inverted, fed with the low then the
 * high byte of words 0..N-2 and the low (revision) byte of word N-1; the CRC
 * is stored in the high byte of word N-1.
 * Layout: SSB_SPROM8_* of include/linux/ssb/ssb_regs.h (revisions 8-11).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "sprom.h"

/*
 * One byte of the CRC-8 (polynomial 0xAB, LSB first) that bcma's table
 * from crc8_populate_lsb(table, 0xAB) gives, a bit at a time: no table to
 * build (a SPROM is checked a few times per boot).
 */
static uint8_t bcm_crc8_byte(uint8_t crc, uint8_t data)
{
    crc ^= data;
    for (int b = 0; b < 8; b++) {
        crc = (crc & 1) ? (crc >> 1) ^ 0xab : crc >> 1;
    }
    return crc;
}

uint8_t bcm_sprom_crc(const uint16_t *sprom, unsigned words)
{
    uint8_t crc = 0xff;

    if (words == 0) {
        return 0;
    }
    for (unsigned i = 0; i < words - 1; i++) {
        crc = bcm_crc8_byte(crc, sprom[i] & 0xff);
        crc = bcm_crc8_byte(crc, sprom[i] >> 8);
    }
    crc = bcm_crc8_byte(crc, sprom[words - 1] & 0xff);
    return crc ^ 0xff;
}

void bcm_sprom_fix_crc(uint16_t *sprom, unsigned words)
{
    sprom[words - 1] = (sprom[words - 1] & 0x00ff) |
                       (bcm_sprom_crc(sprom, words) << 8);
}

void bcm_sprom_set_mac(uint16_t *sprom, const uint8_t mac[6])
{
    for (int i = 0; i < 3; i++) {
        sprom[BCM_SPROM_W_IL0MAC + i] = (mac[2 * i] << 8) | mac[2 * i + 1];
    }
}

/* What a board's image says; the builder lays it out (rev 8/9 layout). */
typedef struct {
    uint16_t board_type, subvendor, devid, boardrev;
    uint32_t boardflags, boardflags2;
    uint16_t antavail, txrxc, fem2g, fem5g;
    uint8_t rev, cores;
    uint16_t pwr_2g[4];         /* maxpwr_2g | itssi_2g << 8, pa_2g[0..2] */
    uint16_t pwr_5g[2];         /* maxpwr_5g | itssi_5g << 8, 5gh | 5gl */
    bool pa_5g;                 /* 5 GHz PA triplets as the 2.4 GHz one */
    uint32_t ofdm2gpo;          /* 2.4 GHz OFDM power offsets */
} BcmSpromBoard;

static unsigned bcm_sprom_build(uint16_t *sp, const uint8_t mac[6],
                                const BcmSpromBoard *b)
{
    const unsigned n = BCM_SPROM_WORDS_R4;

    /* unprogrammed SPROM cells read as all-ones */
    for (unsigned i = 0; i < n; i++) {
        sp[i] = 0xffff;
    }
    sp[BCM_SPROM_W_PCIE_PI] = 0x2801;       /* PCIe core index 2 */
    sp[1] = 0x0000;
    sp[BCM_SPROM_W_BOARD_TYPE] = b->board_type;
    sp[BCM_SPROM_W_SUBVENDOR] = b->subvendor;
    sp[4] = 0x0000;
    sp[BCM_SPROM_W_PCIE_L23] = 0xedbe;      /* L23READY_EXIT_NOPERST set */
    sp[BCM_SPROM_W_DEVID] = b->devid;
    sp[BCM_SPROM_W_SIGNATURE] = 0x5372;
    sp[BCM_SPROM_W_BOARDREV] = b->boardrev;
    sp[BCM_SPROM_W_BFLLO] = b->boardflags;
    sp[BCM_SPROM_W_BFLHI] = b->boardflags >> 16;
    sp[BCM_SPROM_W_BFL2LO] = b->boardflags2;
    sp[BCM_SPROM_W_BFL2HI] = b->boardflags2 >> 16;
    bcm_sprom_set_mac(sp, mac);
    sp[BCM_SPROM_W_CCODE] = 0x5553;         /* "US" */
    sp[74] = 0x0000;
    sp[BCM_SPROM_W_GPIO01] = 0xffff;        /* LEDs: driver defaults */
    sp[BCM_SPROM_W_GPIO23] = 0xffff;
    sp[BCM_SPROM_W_LEDDC] = 0x0a5a;         /* on 10, off 90 */
    sp[BCM_SPROM_W_ANTAVAIL] = b->antavail;
    sp[BCM_SPROM_W_AGAIN01] = 0x0202;       /* antenna gain 2 dBm */
    sp[BCM_SPROM_W_AGAIN23] = 0xff02;
    sp[BCM_SPROM_W_TXRXC] = b->txrxc;
    sp[BCM_SPROM_W_FEM2G] = b->fem2g;
    sp[BCM_SPROM_W_FEM5G] = b->fem5g;
    for (int c = 0; c < b->cores; c++) {
        uint16_t *p = &sp[BCM_SPROM_W_PWR_CORE0 + c * BCM_SPROM_PWR_WORDS];

        memcpy(p, b->pwr_2g, sizeof(b->pwr_2g));
        p[4] = b->pwr_5g[0];                /* maxpwr_5g / itssi_5g */
        p[5] = b->pwr_5g[1];                /* maxpwr_5gh / _5gl */
        for (int k = 0; b->pa_5g && k < 3; k++) { /* pa_5g, _5gl, _5gh */
            memcpy(&p[6 + 3 * k], &b->pwr_2g[1], 3 * sizeof(uint16_t));
        }
        p[15] = 0x0000;
    }
    /* per-rate power offsets (cck/ofdm/mcs/cdd/stbc/bw40/bwdup): 0 */
    for (unsigned w = 160; w <= 204; w++) {
        sp[w] = 0x0000;
    }
    sp[161] = b->ofdm2gpo;                  /* SSB_SPROM8_OFDM2GPO */
    sp[162] = b->ofdm2gpo >> 16;
    sp[n - 1] = b->rev;
    bcm_sprom_fix_crc(sp, n);
    return n;
}

/*
 * A BCM94331 board: 3 chains; the HT-PHY power parameters are b43's own
 * fallback constants (a pa_2g[0] of -1024..-32768 powers of two would make
 * b43 divide by zero).
 */
unsigned bcm_sprom_build_r9(uint16_t *sp, const uint8_t mac[6])
{
    static const BcmSpromBoard b = {
        .board_type = 0x0525, .subvendor = 0x14e4,     /* BCM94331MC */
        .devid = 0x4331, .boardrev = 0x1104,
        .boardflags = 0x0200, .boardflags2 = 0,
        .antavail = 0x0707,                 /* 3 chains, both bands */
        .txrxc = 0x0077,                    /* txchain 7, rxchain 7 */
        .fem2g = 0x0325, .fem5g = 0x0325,
        .rev = 9, .cores = 3,
        .pwr_2g = { 0x2048, 0xfe58, 0x15ec, 0xfa8f },  /* 18 dBm */
        .pwr_5g = { 0x3e3c, 0x3c3c },
        .pa_5g = false,                     /* blank (all-ones) */
        .ofdm2gpo = 0,
    };

    return bcm_sprom_build(sp, mac, &b);
}

/*
 * A dual-band BCM943224 board, rev 8, 2 chains.  No dump of a real 43224
 * image is public; the values are those of the rev-8 BCM43225 image of
 * OpenWrt's bcma fallback SPROM (board flags 0x200, boardflags2 0x1000,
 * antennas 3/3, max power 0x4e quarter-dBm = 19.5 dBm, core 0's PA
 * triplet, OFDM offsets 0x55555555), with the 5 GHz fields the 2.4 GHz-only
 * 43225 leaves blank filled from the 2.4 GHz ones; Apple's subsystem ids.
 */
unsigned bcm_sprom_build_43224(uint16_t *sp, const uint8_t mac[6])
{
    static const BcmSpromBoard b = {
        .board_type = 0x0093, .subvendor = 0x106b,
        .devid = 0x4353, .boardrev = 0x1200,
        .boardflags = 0x0200, .boardflags2 = 0x1000,
        .antavail = 0x0303,                 /* 2 chains, both bands */
        .txrxc = 0x0033,                    /* txchain 3, rxchain 3 */
        .fem2g = 0x0325, .fem5g = 0x0325,
        .rev = 8, .cores = 2,
        .pwr_2g = { 0x204e, 0xfead, 0x1611, 0xfa9a },
        .pwr_5g = { 0x204a, 0x4a4a },
        .pa_5g = true,
        .ofdm2gpo = 0x55555555,
    };

    return bcm_sprom_build(sp, mac, &b);
}

BcmSpromStatus bcm_sprom_check(const uint16_t *sprom, size_t len,
                               unsigned *words)
{
    unsigned n = len / 2;
    uint8_t rev;

    if (len % 2 || (n != BCM_SPROM_WORDS_R4 && n != BCM_SPROM_WORDS_R10 &&
                    n != BCM_SPROM_WORDS_R11)) {
        return BCM_SPROM_ERR_SIZE;
    }
    if ((sprom[n - 1] >> 8) != bcm_sprom_crc(sprom, n)) {
        return BCM_SPROM_ERR_CRC;
    }
    rev = sprom[n - 1] & 0xff;
    /* bcma_sprom_valid(): revisions 8..11 (all parsed as rev 8) */
    if (rev < 8 || rev > 11) {
        return BCM_SPROM_ERR_REV;
    }
    *words = n;
    return BCM_SPROM_OK;
}

const char *bcm_sprom_strerror(BcmSpromStatus st)
{
    switch (st) {
    case BCM_SPROM_OK:
        return "valid";
    case BCM_SPROM_ERR_SIZE:
        return "size is not 440, 460 or 468 bytes (220, 230 or 234 words)";
    case BCM_SPROM_ERR_CRC:
        return "CRC-8 (high byte of the last word) does not match";
    case BCM_SPROM_ERR_REV:
        return "revision (low byte of the last word) is not 8..11";
    }
    return "unknown";
}
