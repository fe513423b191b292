/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: high-level emulation of the 802.11 core's microcode
 * (fw.c): upload, PSM start and the "alive" handshake, MAC suspend and
 * enable, beacons and TBTT, multicast after DTIM.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_FW_H
#define HW_NET_BCM43XX_FW_H

#include "qemu/timer.h"
#include "bcm-common.h"

struct FwState {
    /* the blocks the firmware drives (set at realize) */
    D11State *mac;
    D11Dma *dma;
    D11Xmit *xmit;
    QEMUTimer *tbtt_timer;

    bool psm_running;
    /* AP/IBSS beacons: active template, DTIM counter */
    uint8_t beacon_active;
    uint8_t dtim_count;
    uint32_t ucode_bytes;       /* bytes uploaded since PSM_JMP0 */
    uint32_t ucode_head[8];     /* first words: the stub's identity */
    uint16_t rev, patch, date, time, fwcapa;
    bool stub;                  /* our stub (else Broadcom's microcode) */
    uint8_t corerev;            /* of the 802.11 core (set at realize) */
};

extern const VMStateDescription vmstate_bcm_fw;

void bcm_fw_init(FwState *fw);
void bcm_fw_exit(FwState *fw);
void bcm_fw_reset(FwState *fw);
void bcm_fw_clear_ucode(FwState *fw);
bool bcm_fw_running(FwState *fw);
void bcm_fw_ucode_write(FwState *fw, uint32_t word_index, uint32_t v,
                        uint32_t mask);
void bcm_fw_macctl_changed(FwState *fw, uint32_t old, uint32_t val);
void bcm_fw_tbtt_update(FwState *fw);

#endif
