/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 SPROM image: rev-9 builder, CRC-8 and validation.
 *
 * Layout from Linux include/linux/ssb/ssb_regs.h (SSB_SPROM8_*, rev 8-11 use
 * the rev-8 layout) and drivers/bcma/sprom.c (CRC and size rules).
 * Pure functions (no device state) so they are unit-tested on the host.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_SPROM_H
#define HW_NET_BCM43XX_SPROM_H

/* sizes bcma tries, in 16-bit words (SSB_SPROMSIZE_WORDS_R4/R10/R11) */
#define BCM_SPROM_WORDS_R4      220
#define BCM_SPROM_WORDS_R10     230
#define BCM_SPROM_WORDS_R11     234
#define BCM_SPROM_MAX_WORDS     BCM_SPROM_WORDS_R11

/* word offsets (byte offset / 2) of the fields we set */
#define BCM_SPROM_W_PCIE_PI     0       /* bits 15:12: PCIe core index */
#define BCM_SPROM_W_PCIE_L23    5       /* bit 15: L23READY_EXIT_NOPERST */
#define BCM_SPROM_W_BOARD_TYPE  2
#define BCM_SPROM_W_SUBVENDOR   3
#define BCM_SPROM_W_DEVID       48
#define BCM_SPROM_W_SIGNATURE   64
#define BCM_SPROM_W_BOARDREV    65
#define BCM_SPROM_W_BFLLO       66
#define BCM_SPROM_W_BFLHI       67
#define BCM_SPROM_W_BFL2LO      68
#define BCM_SPROM_W_BFL2HI      69
#define BCM_SPROM_W_IL0MAC      70      /* 3 words, big-endian per word */
#define BCM_SPROM_W_CCODE       73
#define BCM_SPROM_W_GPIO01      75
#define BCM_SPROM_W_GPIO23      76
#define BCM_SPROM_W_LEDDC       77
#define BCM_SPROM_W_ANTAVAIL    78
#define BCM_SPROM_W_AGAIN01     79
#define BCM_SPROM_W_AGAIN23     80
#define BCM_SPROM_W_TXRXC       81
#define BCM_SPROM_W_FEM2G       87
#define BCM_SPROM_W_FEM5G       88
#define BCM_SPROM_W_PWR_CORE0   96      /* 16 words per core, 4 cores */
#define BCM_SPROM_PWR_WORDS     16

typedef enum {
    BCM_SPROM_OK = 0,
    BCM_SPROM_ERR_SIZE,
    BCM_SPROM_ERR_CRC,
    BCM_SPROM_ERR_REV,
} BcmSpromStatus;

/* CRC-8 of an image of @words words as drivers/bcma/sprom.c computes it */
uint8_t bcm_sprom_crc(const uint16_t *sprom, unsigned words);

/* recompute the CRC byte (high byte of the last word) */
void bcm_sprom_fix_crc(uint16_t *sprom, unsigned words);

/* write the MAC address into il0mac */
void bcm_sprom_set_mac(uint16_t *sprom, const uint8_t mac[6]);

/*
 * Build the rev-9 (220-word) image of a BCM94331 board with @mac, with a
 * valid CRC.  Returns the number of words (BCM_SPROM_WORDS_R4).
 */
unsigned bcm_sprom_build_r9(uint16_t *sprom, const uint8_t mac[6]);

/* The rev-8 (220-word) image of a dual-band BCM943224 board with @mac. */
unsigned bcm_sprom_build_43224(uint16_t *sprom, const uint8_t mac[6]);

/*
 * Validate a user image of @len bytes (little-endian words): its size must
 * be one bcma reads (220, 230 or 234 words), its CRC valid and its revision
 * 8..11 (the revisions bcma parses).  On success *words is its size.
 */
BcmSpromStatus bcm_sprom_check(const uint16_t *sprom, size_t len,
                               unsigned *words);

const char *bcm_sprom_strerror(BcmSpromStatus st);

#endif
