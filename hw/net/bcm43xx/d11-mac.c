/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: the 802.11 MAC core's (d11, core rev 29) own state, a
 * leaf of the hub (d11-core.c, which holds the register table).
 *
 * Interrupt reason and mask, shared memory (SHM) in all its routings,
 * template RAM, the receive-address (RCM) filter, TSF on QEMU's virtual
 * clock, the TX status FIFO.  The microcode's behaviour is in fw.c, the
 * PHY and radio in phy.c; this file calls neither.
 *
 * Register semantics: Linux drivers/net/wireless/broadcom/b43/ (b43.h,
 * main.c) as b43 drives a rev-29 core; bit meanings confirmed by brcmsmac's
 * d11.h where b43 is silent.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "migration/vmstate.h"
#include "d11-mac.h"
#include "trace.h"

/* ------------------------------------------------------------------ */
/* interrupts                                                          */

uint32_t d11_irq_reason(D11State *m)
{
    uint32_t r = m->irq_reason;

    /* bit 15 is the summary of the (masked) per-engine DMA reasons */
    for (int i = 0; i < D11_DMA_ENGINES; i++) {
        if (m->dma_reason[i] & m->dma_mask[i]) {
            r |= D11_IRQ_DMA;
        }
    }
    return r;
}

static bool d11_irq_pending(D11State *m)
{
    return (d11_irq_reason(m) & m->irq_mask) != 0;
}

void d11_update_irq(D11State *m)
{
    trace_bcm4331_d11_irq(d11_irq_reason(m), m->irq_mask);
    qemu_set_irq(m->irq, d11_irq_pending(m));
}

void d11_raise_irq(D11State *m, uint32_t reason)
{
    m->irq_reason |= reason;
    d11_update_irq(m);
}

/* the reasons become exactly @reason (the firmware's "alive" handshake) */
void d11_set_irq_reason(D11State *m, uint32_t reason)
{
    m->irq_reason = reason;
    d11_update_irq(m);
}

/* a DMA engine's reason; bit 15 of the general reason summarises them */
void d11_raise_dma_irq(D11State *m, unsigned engine, uint32_t reason)
{
    assert(engine < D11_DMA_ENGINES);
    m->dma_reason[engine] |= reason;
    d11_update_irq(m);
}

/* DMA_REASON (write 1 to clear) and DMA_IRQ_MASK of an engine, at @off */
uint32_t d11_dma_irq_read(D11State *m, uint32_t off)
{
    unsigned i = (off - D11_DMA_REASON(0)) / 8;

    assert(i < D11_DMA_ENGINES);
    return (off & 4) ? m->dma_mask[i] : m->dma_reason[i];
}

void d11_dma_irq_write(D11State *m, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    unsigned i = (off - D11_DMA_REASON(0)) / 8;

    assert(i < D11_DMA_ENGINES);
    if (off & 4) {
        m->dma_mask[i] = (m->dma_mask[i] & ~mask) | (val & mask);
    } else {
        m->dma_reason[i] &= ~(val & mask);  /* write 1 to clear */
    }
    d11_update_irq(m);
}

/* ------------------------------------------------------------------ */
/* shared memory                                                       */

uint16_t d11_shm_read16(D11State *m, uint32_t byte_off)
{
    return lduw_le_p(&m->shm[byte_off & (D11_SHM_SHARED_SIZE - 2)]);
}

void d11_shm_write16(D11State *m, uint32_t byte_off, uint16_t v)
{
    stw_le_p(&m->shm[byte_off & (D11_SHM_SHARED_SIZE - 2)], v);
}

/* @len bytes of shared memory at @byte_off; false if they do not fit */
bool d11_shm_read(D11State *m, uint32_t byte_off, void *buf, size_t len)
{
    if (byte_off > D11_SHM_SHARED_SIZE ||
        len > D11_SHM_SHARED_SIZE - byte_off) {
        return false;
    }
    memcpy(buf, m->shm + byte_off, len);
    return true;
}

uint16_t d11_scratch(D11State *m, unsigned reg)
{
    return reg < D11_SHM_SCRATCH_REGS ? m->scratch[reg] : 0;
}

void d11_scratch_write(D11State *m, unsigned reg, uint16_t v)
{
    if (reg < D11_SHM_SCRATCH_REGS) {
        m->scratch[reg] = v;
    }
}

/* the address in RCMTA entry @entry (two words: bytes 0-3, 4-5) */
void d11_rcmta_addr(D11State *m, unsigned entry, uint8_t *addr)
{
    uint32_t lo = 0, hi = 0;

    if (2 * entry + 1 < D11_SHM_RCMTA_WORDS) {
        lo = m->rcmta[2 * entry];
        hi = m->rcmta[2 * entry + 1];
    }
    stl_le_p(addr, lo);
    stw_le_p(addr + 4, hi);
}

/* @len bytes of template RAM at @off; false if they do not fit */
bool d11_template_read(D11State *m, uint32_t off, void *buf, size_t len)
{
    if (off > D11_TEMPLATE_SIZE || len > D11_TEMPLATE_SIZE - off) {
        return false;
    }
    memcpy(buf, m->tpl + off, len);
    return true;
}

/* the station's own address: the first three RCM words */
void d11_own_addr(D11State *m, uint8_t *addr)
{
    for (int i = 0; i < 3; i++) {
        stw_le_p(addr + 2 * i, m->rcm[i]);
    }
}

/*
 * Locate the 32-bit SHM word SHM_CONTROL selects.  Returns a pointer to a
 * 32-bit word for HW/RCMTA, a byte address for SHARED, a register for
 * SCRATCH; false (with a guest error) when the offset is outside the
 * routing's memory or the routing does not exist.
 */
typedef struct {
    unsigned routing;
    uint32_t woff;
    uint8_t *bytes;         /* SHARED: 4 bytes */
    uint16_t *scratch;      /* SCRATCH: one 16-bit register */
    uint32_t *word;         /* HW, RCMTA */
} D11ShmRef;

static bool d11_shm_ref(D11State *m, D11ShmRef *r, bool is_write)
{

    r->routing = FIELD_EX32(m->shm_control, D11_SHM_CONTROL, ROUTING);
    r->woff = FIELD_EX32(m->shm_control, D11_SHM_CONTROL, OFFSET);
    r->bytes = NULL;
    r->scratch = NULL;
    r->word = NULL;
    switch (r->routing) {
    case D11_SHM_SHARED:
        if (r->woff * 4 < D11_SHM_SHARED_SIZE) {
            r->bytes = &m->shm[r->woff * 4];
            return true;
        }
        break;
    case D11_SHM_SCRATCH:
        if (r->woff < D11_SHM_SCRATCH_REGS) {
            r->scratch = &m->scratch[r->woff];
            return true;
        }
        break;
    case D11_SHM_HW:
        if (r->woff < D11_SHM_HW_WORDS) {
            r->word = &m->shm_hw[r->woff];
            return true;
        }
        break;
    case D11_SHM_RCMTA:
        if (r->woff < D11_SHM_RCMTA_WORDS) {
            r->word = &m->rcmta[r->woff];
            return true;
        }
        break;
    case D11_SHM_UCODE:
        return true;    /* the microcode store: see fw.c */
    }
    BCM_GUEST_ERR(bcm4331_d11_ub_shm, "SHM routing %u offset 0x%x out of "
                  "range (write %d)", r->routing, r->woff, is_write);
    return false;
}

static void d11_shm_autoinc(D11State *m, bool is_write)
{
    if (FIELD_EX32(m->shm_control, D11_SHM_CONTROL,
                   AUTOINC_W) && is_write) {
        m->shm_control = FIELD_DP32(m->shm_control, D11_SHM_CONTROL, OFFSET,
            FIELD_EX32(m->shm_control, D11_SHM_CONTROL, OFFSET) + 1);
    } else if (FIELD_EX32(m->shm_control, D11_SHM_CONTROL,
                          AUTOINC_R) && !is_write) {
        m->shm_control = FIELD_DP32(m->shm_control, D11_SHM_CONTROL, OFFSET,
            FIELD_EX32(m->shm_control, D11_SHM_CONTROL, OFFSET) + 1);
    }
}

/*
 * SHM_DATA (0x164, 32/16-bit) and SHM_DATA_UNALIGNED (0x166, 16-bit: the
 * high half of the addressed word) share one 32-bit register slot; the
 * byte lanes say which was accessed.
 */
uint32_t d11_shm_data_read(D11State *m, uint32_t mask)
{
    D11ShmRef r;
    uint32_t v = 0;

    if (d11_shm_ref(m, &r, false)) {
        if (r.bytes) {
            v = ldl_le_p(r.bytes);
        } else if (r.scratch) {
            v = *r.scratch;
        } else if (r.word) {
            v = *r.word;
        }
        trace_bcm4331_d11_shm_read(r.routing, r.woff, v & mask);
    } else {
        v = UINT32_MAX;
    }
    d11_shm_autoinc(m, false);
    return v;
}

/*
 * A write to SHM_DATA; true when it goes to the microcode store, whose
 * word *@ucode_word the firmware takes (fw.c)
 */
bool d11_shm_data_write(D11State *m, uint32_t val, uint32_t mask,
                        uint32_t *ucode_word)
{
    D11ShmRef r;
    bool ucode = false;

    if (d11_shm_ref(m, &r, true)) {
        if (r.routing == D11_SHM_UCODE) {
            ucode = true;
            *ucode_word = r.woff;
        } else {
            trace_bcm4331_d11_shm_write(r.routing, r.woff, val & mask, mask);
        }
        if (r.bytes) {
            stl_le_p(r.bytes, (ldl_le_p(r.bytes) & ~mask) | (val & mask));
        } else if (r.scratch) {
            *r.scratch = (*r.scratch & ~mask) | (val & mask);
        } else if (r.word) {
            *r.word = (*r.word & ~mask) | (val & mask);
        }
    }
    d11_shm_autoinc(m, true);
    return ucode;
}

/* ------------------------------------------------------------------ */
/* TX status FIFO: the firmware writes, b43 reads XMITSTAT_0 then _1    */

/* room in the TX status FIFO for @n entries */
bool d11_txstat_room(D11State *m, unsigned n)
{
    return m->txstat_count + n <= D11_TXSTAT_FIFO;
}

void d11_txstat_push(D11State *m, uint32_t w0, uint32_t w1)
{
    unsigned i;

    if (m->txstat_count >= D11_TXSTAT_FIFO) {
        BCM_GUEST_ERR(bcm4331_txstat_ub_full, "TX status FIFO full");
        return;
    }
    i = (m->txstat_head + m->txstat_count) % D11_TXSTAT_FIFO;
    m->txstat[i][0] = w0;
    m->txstat[i][1] = w1;
    m->txstat_count++;
    trace_bcm4331_txstat(FIELD_EX32(w0, D11_XMITSTAT_0, COOKIE),
                         FIELD_EX32(w0, D11_XMITSTAT_0, ACKED),
                         FIELD_EX32(w0, D11_XMITSTAT_0, FRAME_COUNT));
    d11_raise_irq(m, D11_IRQ_TX_OK);
}

/* pops the oldest TX status and latches its second word; 0 when empty */
uint32_t d11_txstat_pop(D11State *m)
{
    uint32_t w0;

    if (!m->txstat_count) {
        m->txstat_latch = 0;
        return 0;
    }
    w0 = m->txstat[m->txstat_head][0];
    m->txstat_latch = m->txstat[m->txstat_head][1];
    m->txstat_head = (m->txstat_head + 1) % D11_TXSTAT_FIFO;
    m->txstat_count--;
    return w0;
}

/* ------------------------------------------------------------------ */
/* TSF: 1 MHz, on QEMU's virtual clock                                  */

static uint64_t d11_now_us(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / SCALE_US;
}

uint64_t d11_tsf_now(D11State *m)
{
    return d11_now_us() + m->tsf_offset;
}

void d11_tsf_set(D11State *m, uint64_t tsf)
{
    m->tsf_offset = tsf - d11_now_us();
    trace_bcm4331_d11_tsf_write(tsf);
}

/* ------------------------------------------------------------------ */
/* the memory ports                                                    */

static uint32_t merge(uint32_t old, uint32_t val, uint32_t mask)
{
    return (old & ~mask) | (val & mask);
}

/* RAM_DATA: the template RAM word at RAM_CONTROL */
uint32_t d11_template_data_read(D11State *m)
{
    return ldl_le_p(&m->tpl[m->ram_control & (D11_TEMPLATE_SIZE - 4)]);
}

void d11_template_data_write(D11State *m, uint32_t val, uint32_t mask)
{
    /* template RAM: byte address in RAM_CONTROL, bounded */
    uint8_t *p = &m->tpl[m->ram_control & (D11_TEMPLATE_SIZE - 4)];

    if (m->ram_control >= D11_TEMPLATE_SIZE) {
        BCM_GUEST_ERR(bcm4331_d11_ub_tpl, "template RAM offset 0x%x out "
                      "of range", m->ram_control);
        return;
    }
    if (FIELD_EX32(m->macctl, D11_MACCTL, BE)) {
        val = bswap32(val);
        mask = bswap32(mask);
    }
    stl_le_p(p, merge(ldl_le_p(p), val, mask));
    /*
     * the write pointer advances by a word (brcmsmac writes the
     * address once per template, brcms_b_write_template_ram(); b43
     * writes it before every word)
     */
    if (mask & 0xff000000) {
        m->ram_control = (m->ram_control + 4) & (D11_TEMPLATE_SIZE - 1);
    }
}

/* MACFILTER_CONTROL: the index in the low half, RCM data in the high */
uint32_t d11_rcm_read(D11State *m)
{
    return m->rcm_control |
           (m->rcm[FIELD_EX32(m->rcm_control, D11_MACFILTER_CONTROL,
                              INDEX)] << 16);
}

void d11_rcm_write(D11State *m, uint32_t val, uint32_t mask)
{
    if (mask & 0xffff) {
        m->rcm_control = merge(m->rcm_control, val, mask);
    }
    if (mask & 0xffff0000) {
        unsigned idx = FIELD_EX32(m->rcm_control, D11_MACFILTER_CONTROL,
                                  INDEX);

        m->rcm[idx] = val >> 16;
        trace_bcm4331_d11_rcm(idx, val >> 16);
        if (FIELD_EX32(m->rcm_control, D11_MACFILTER_CONTROL, INC_DATA)) {
            m->rcm_control = FIELD_DP32(m->rcm_control,
                                        D11_MACFILTER_CONTROL, INDEX,
                                        idx + 1);
        }
    }
}

/* ------------------------------------------------------------------ */
/* the state the firmware reads, reset, migration                      */

uint32_t d11_macctl(D11State *m)
{
    return m->macctl;
}

uint32_t d11_maccmd(D11State *m)
{
    return m->maccmd;
}

void d11_maccmd_clear(D11State *m, uint32_t bits)
{
    m->maccmd &= ~bits;
}

/* a plain (store and read back) register the firmware reads */
uint32_t d11_reg(D11State *m, uint32_t off)
{
    return m->regs[(off & (BCMA_CORE_SIZE - 4)) >> 2];
}

/* a core reset: the registers to their power-on values (no interrupt) */
void d11_mac_reset(D11State *m)
{
    trace_bcm4331_d11_core_reset();
    memset(m->regs, 0, sizeof(m->regs));
    m->macctl = 0;
    m->maccmd = 0;
    m->irq_reason = 0;
    m->irq_mask = 0;
    memset(m->dma_reason, 0, sizeof(m->dma_reason));
    memset(m->dma_mask, 0, sizeof(m->dma_mask));
    m->shm_control = 0;
    m->ram_control = 0;
    m->rcm_control = 0;
    m->tsf_high_latch = 0;
    m->tsf_low_pending = 0;
    m->gpio_control = 0;
    m->txstat_head = 0;
    m->txstat_count = 0;
    m->txstat_latch = 0;
    d11_tsf_set(m, 0);
}

/* power-on: the memories too */
void d11_mac_clear_memories(D11State *m)
{
    memset(m->shm, 0, sizeof(m->shm));
    memset(m->scratch, 0, sizeof(m->scratch));
    memset(m->shm_hw, 0, sizeof(m->shm_hw));
    memset(m->rcmta, 0, sizeof(m->rcmta));
    memset(m->tpl, 0, sizeof(m->tpl));
    memset(m->rcm, 0, sizeof(m->rcm));
}

static int d11_post_load(void *opaque, int version_id)
{
    D11State *m = opaque;

    /* indexes into the TX status FIFO: reject nonsense */
    if (m->txstat_head >= D11_TXSTAT_FIFO ||
        m->txstat_count > D11_TXSTAT_FIFO) {
        return -EINVAL;
    }
    return 0;
}

const VMStateDescription vmstate_d11 = {
    .name = "bcm4331-d11",
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = d11_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, D11State, BCMA_CORE_SIZE / 4),
        VMSTATE_UINT32(macctl, D11State),
        VMSTATE_UINT32(maccmd, D11State),
        VMSTATE_UINT32(irq_reason, D11State),
        VMSTATE_UINT32(irq_mask, D11State),
        VMSTATE_UINT32_ARRAY(dma_reason, D11State, D11_DMA_ENGINES),
        VMSTATE_UINT32_ARRAY(dma_mask, D11State, D11_DMA_ENGINES),
        VMSTATE_UINT32(shm_control, D11State),
        VMSTATE_UINT8_ARRAY(shm, D11State, D11_SHM_SHARED_SIZE),
        VMSTATE_UINT16_ARRAY(scratch, D11State, D11_SHM_SCRATCH_REGS),
        VMSTATE_UINT32_ARRAY(shm_hw, D11State, D11_SHM_HW_WORDS),
        VMSTATE_UINT32_ARRAY(rcmta, D11State, D11_SHM_RCMTA_WORDS),
        VMSTATE_UINT32(ram_control, D11State),
        VMSTATE_UINT8_ARRAY(tpl, D11State, D11_TEMPLATE_SIZE),
        VMSTATE_UINT16(rcm_control, D11State),
        VMSTATE_UINT16_ARRAY(rcm, D11State, D11_RCM_WORDS),
        VMSTATE_INT64(tsf_offset, D11State),
        VMSTATE_UINT32(tsf_high_latch, D11State),
        VMSTATE_UINT32(tsf_low_pending, D11State),
        VMSTATE_UINT16(gpio_control, D11State),
        VMSTATE_UINT32_2DARRAY(txstat, D11State, D11_TXSTAT_FIFO, 2),
        VMSTATE_UINT32(txstat_head, D11State),
        VMSTATE_UINT32(txstat_count, D11State),
        VMSTATE_UINT32(txstat_latch, D11State),
        VMSTATE_END_OF_LIST()
    },
};
