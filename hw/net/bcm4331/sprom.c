/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 SPROM image: rev-9 builder, CRC-8 and validation.
 *
 * CRC: drivers/bcma/sprom.c (bcma_crc8, bcma_sprom_crc): reflected CRC-8,
 * polynomial 0xAB, init 0xFF, result inverted, fed with the low then the
 * high byte of words 0..N-2 and the low (revision) byte of word N-1; the CRC
 * is stored in the high byte of word N-1.
 * Field values: a BCM94331 board (board type 0x0525); the HT-PHY power
 * parameters are b43's own fallback constants (b43/phy_ht.c
 * b43_phy_ht_tx_power_ctl_setup(): a pa_2g[0] of -1024..-32768 powers of
 * two would make b43 divide by zero).
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

/* Per-core power info (SSB_SROM8_PWR_INFO_CORE*): 2.4 GHz part */
static const uint16_t bcm4331_pwr_2g[3][4] = {
    /* maxpwr_2g 18 dBm (quarter dBm) | itssi_2g << 8, pa_2g[0..2] */
    { 0x2048, 0xfe58, 0x15ec, 0xfa8f },
    { 0x2048, 0xfe58, 0x15ec, 0xfa8f },
    { 0x2048, 0xfe58, 0x15ec, 0xfa8f },
};

unsigned bcm_sprom_build_r9(uint16_t *sp, const uint8_t mac[6])
{
    const unsigned n = BCM_SPROM_WORDS_R4;

    /* unprogrammed SPROM cells read as all-ones */
    for (unsigned i = 0; i < n; i++) {
        sp[i] = 0xffff;
    }
    sp[BCM_SPROM_W_PCIE_PI] = 0x2801;       /* PCIe core index 2 */
    sp[1] = 0x0000;
    sp[BCM_SPROM_W_BOARD_TYPE] = 0x0525;    /* BCM94331MC */
    sp[BCM_SPROM_W_SUBVENDOR] = 0x14e4;
    sp[4] = 0x0000;
    sp[BCM_SPROM_W_PCIE_L23] = 0xedbe;      /* L23READY_EXIT_NOPERST set */
    sp[BCM_SPROM_W_DEVID] = 0x4331;
    sp[BCM_SPROM_W_SIGNATURE] = 0x5372;
    sp[BCM_SPROM_W_BOARDREV] = 0x1104;
    sp[BCM_SPROM_W_BFLLO] = 0x0200;
    sp[BCM_SPROM_W_BFLHI] = 0x0000;
    sp[BCM_SPROM_W_BFL2LO] = 0x0000;
    sp[BCM_SPROM_W_BFL2HI] = 0x0000;
    bcm_sprom_set_mac(sp, mac);
    sp[BCM_SPROM_W_CCODE] = 0x5553;         /* "US" */
    sp[74] = 0x0000;
    sp[BCM_SPROM_W_GPIO01] = 0xffff;        /* LEDs: driver defaults */
    sp[BCM_SPROM_W_GPIO23] = 0xffff;
    sp[BCM_SPROM_W_LEDDC] = 0x0a5a;         /* on 10, off 90 */
    sp[BCM_SPROM_W_ANTAVAIL] = 0x0707;      /* 3 chains, both bands */
    sp[BCM_SPROM_W_AGAIN01] = 0x0202;       /* antenna gain 2 dBm */
    sp[BCM_SPROM_W_AGAIN23] = 0xff02;
    sp[BCM_SPROM_W_TXRXC] = 0x0077;         /* txchain 7, rxchain 7 */
    sp[BCM_SPROM_W_FEM2G] = 0x0325;
    sp[BCM_SPROM_W_FEM5G] = 0x0325;
    for (int c = 0; c < 3; c++) {
        uint16_t *p = &sp[BCM_SPROM_W_PWR_CORE0 + c * BCM_SPROM_PWR_WORDS];

        memcpy(p, bcm4331_pwr_2g[c], sizeof(bcm4331_pwr_2g[c]));
        p[4] = 0x3e3c;                      /* maxpwr_5g / itssi_5g */
        p[5] = 0x3c3c;                      /* maxpwr_5gh / _5gl */
        p[15] = 0x0000;
    }
    /* per-rate power offsets (cck/ofdm/mcs/cdd/stbc/bw40/bwdup): 0 */
    for (unsigned w = 160; w <= 204; w++) {
        sp[w] = 0x0000;
    }
    sp[n - 1] = 0x0009;                     /* revision 9 */
    bcm_sprom_fix_crc(sp, n);
    return n;
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
