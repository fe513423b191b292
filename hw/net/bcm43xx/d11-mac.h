/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 MAC core's own state (d11-mac.c), a leaf
 * of the hub (d11-core.c): interrupt reasons and masks, SHM in all its
 * routings, scratch registers, template RAM, the receive address (RCM),
 * TSF, the TX status FIFO (XMITSTAT) and the plain registers.  The hub's
 * register table reads and writes them through the functions below; the
 * firmware and the data path use the same functions.  It calls no other
 * block of the card: its interrupt goes up through the qemu_irq the hub
 * gives it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_MAC_H
#define HW_NET_BCM43XX_D11_MAC_H

#include "hw/irq.h"
#include "hw/net/bcm43xx/d11-regs.h"
#include "bcma.h"
#include "bcm-common.h"

typedef struct D11State {
    qemu_irq irq;               /* the core's interrupt line (from the hub) */

    uint32_t regs[BCMA_CORE_SIZE / 4];  /* plain registers: store/read back */
    uint32_t macctl;
    uint32_t maccmd;
    uint32_t irq_reason;
    uint32_t irq_mask;
    uint32_t dma_reason[D11_DMA_ENGINES];
    uint32_t dma_mask[D11_DMA_ENGINES];
    uint32_t shm_control;
    uint8_t shm[D11_SHM_SHARED_SIZE];
    uint16_t scratch[D11_SHM_SCRATCH_REGS];
    uint32_t shm_hw[D11_SHM_HW_WORDS];
    uint32_t rcmta[D11_SHM_RCMTA_WORDS];
    uint32_t ram_control;
    uint8_t tpl[D11_TEMPLATE_SIZE];
    uint16_t rcm_control;
    uint16_t rcm[D11_RCM_WORDS];
    int64_t tsf_offset;         /* TSF = virtual clock (us) + offset */
    uint32_t tsf_high_latch;
    uint32_t tsf_low_pending;
    uint16_t gpio_control;
    /* TX status FIFO (XMITSTAT_0/1), filled by the firmware's data path */
    uint32_t txstat[D11_TXSTAT_FIFO][2];
    uint32_t txstat_head;
    uint32_t txstat_count;
    uint32_t txstat_latch;
} D11State;

extern const VMStateDescription vmstate_d11;

/* interrupts: the core's line follows reasons and masks */
uint32_t d11_irq_reason(D11State *m);
void d11_update_irq(D11State *m);
void d11_raise_irq(D11State *m, uint32_t reason);
void d11_set_irq_reason(D11State *m, uint32_t reason);
void d11_raise_dma_irq(D11State *m, unsigned engine, uint32_t reason);
uint32_t d11_dma_irq_read(D11State *m, uint32_t off);
void d11_dma_irq_write(D11State *m, uint32_t off, uint32_t val,
                       uint32_t mask);

/* the TX status FIFO: the data path pushes, the driver pops */
void d11_txstat_push(D11State *m, uint32_t w0, uint32_t w1);
bool d11_txstat_room(D11State *m, unsigned n);
uint32_t d11_txstat_pop(D11State *m);

/* the MAC's state as the firmware and the data path see it */
uint32_t d11_macctl(D11State *m);
uint32_t d11_maccmd(D11State *m);
void d11_maccmd_clear(D11State *m, uint32_t bits);
uint32_t d11_reg(D11State *m, uint32_t off);
uint64_t d11_tsf_now(D11State *m);
void d11_tsf_set(D11State *m, uint64_t tsf);
void d11_own_addr(D11State *m, uint8_t *addr);

/* memories: SHM (shared, scratch), RCMTA, template RAM; all bounded */
uint16_t d11_shm_read16(D11State *m, uint32_t byte_off);
void d11_shm_write16(D11State *m, uint32_t byte_off, uint16_t v);
bool d11_shm_read(D11State *m, uint32_t byte_off, void *buf, size_t len);
uint16_t d11_scratch(D11State *m, unsigned reg);
void d11_scratch_write(D11State *m, unsigned reg, uint16_t v);
void d11_rcmta_addr(D11State *m, unsigned entry, uint8_t *addr);
bool d11_template_read(D11State *m, uint32_t off, void *buf, size_t len);

/* the memory ports: SHM_DATA, RAM_DATA, MACFILTER_CONTROL */
uint32_t d11_shm_data_read(D11State *m, uint32_t mask);
bool d11_shm_data_write(D11State *m, uint32_t val, uint32_t mask,
                        uint32_t *ucode_word);
uint32_t d11_template_data_read(D11State *m);
void d11_template_data_write(D11State *m, uint32_t val, uint32_t mask);
uint32_t d11_rcm_read(D11State *m);
void d11_rcm_write(D11State *m, uint32_t val, uint32_t mask);

/* reset: the registers (a core reset), the memories (power-on) */
void d11_mac_reset(D11State *m);
void d11_mac_clear_memories(D11State *m);

#endif
