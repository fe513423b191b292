/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: high-level emulation of the 802.11 core's microcode
 * (fw.c): upload, PSM start and the "alive" handshake, MAC suspend and
 * enable, beacons and TBTT, multicast after DTIM.  Under the hub
 * (d11-core.c), over the MAC (d11-mac.h), whose state its functions take:
 * what the firmware asks of the rest of the core (fetch frames, send a
 * beacon, open engine 4) is its functions' return value.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_FW_H
#define HW_NET_BCM43XX_FW_H

#include "qemu/timer.h"
#include "d11-mac.h"

typedef struct FwState {
    QEMUTimer *tbtt_timer;      /* its callback is the hub's */

    bool psm_running;
    /* AP/IBSS beacons: active template, DTIM counter */
    uint8_t beacon_active;
    uint8_t dtim_count;
    uint32_t ucode_bytes;       /* bytes uploaded since PSM_JMP0 */
    uint32_t ucode_head[8];     /* first words: the stub's identity */
    uint16_t rev, patch, date, time, fwcapa;
    bool stub;                  /* our stub (else Broadcom's microcode) */
    uint8_t corerev;            /* of the 802.11 core (set at realize) */
} FwState;

/* what a MACCTL write asks of the hub */
#define BCM_FW_PSM_RESET        (1u << 0)   /* engine 4 waits for a DTIM */
#define BCM_FW_MAC_ENABLED      (1u << 1)   /* posted frames may go out */

/* a beacon the firmware sends at a TBTT, from its template */
#define BCM_FW_BEACON_MAX       0x200
#define BCM_FW_BEACON_PLCP      6       /* the frame follows its PLCP */
typedef struct BcmFwBeacon {
    uint8_t tpl[BCM_FW_BEACON_MAX];
    uint32_t len;               /* of the frame at tpl + 6, 0: none */
    bool ofdm;
    bool dtim;                  /* engine 4 sends its group frames next */
} BcmFwBeacon;

extern const VMStateDescription vmstate_bcm_fw;

void bcm_fw_init(FwState *fw, QEMUTimerCB *tbtt, void *opaque);
void bcm_fw_exit(FwState *fw);
void bcm_fw_reset(FwState *fw);
void bcm_fw_clear_ucode(FwState *fw);
bool bcm_fw_running(FwState *fw);
void bcm_fw_ucode_write(FwState *fw, uint32_t word_index, uint32_t v,
                        uint32_t mask);
unsigned bcm_fw_macctl_changed(FwState *fw, D11State *m, uint32_t old,
                               uint32_t val);
void bcm_fw_tbtt_update(FwState *fw, D11State *m);
bool bcm_fw_tbtt(FwState *fw, D11State *m, bool mcast_posted,
                 BcmFwBeacon *b);

#endif
