/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 802.11 core: the hardware key table in SHM and the frame
 * protection the firmware does with it (d11-crypto.c).  It reads the key
 * table from the MAC's memories (d11-mac.h) and keeps no state of its own.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_CRYPTO_H
#define HW_NET_BCM43XX_D11_CRYPTO_H

#include "d11-mac.h"

size_t d11_tx_encrypt(D11State *m, uint32_t mac_ctl, uint8_t *f,
                      size_t len, size_t cap);
uint32_t d11_rx_decrypt(D11State *m, uint8_t *f, size_t len);

#endif
