/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 cards: the hostile card (see hostile.h).
 *
 * The input is a sequence of decisions, one per datum at an enabled site,
 * each an operation byte and its operands (little endian):
 *
 *   op & 7   0..3  honest: the datum as the card has it
 *            4     XOR with the next 4 bytes
 *            5     replaced by the next 4 bytes
 *            6     plus the next byte (signed)
 *            7     bit (next byte & 31) flipped
 *
 * For a structure (bcm_hostile_words()), a changing operation is followed
 * by the index of the 16-bit word it changes (modulo the structure's
 * words), then its operand.  Operand bytes beyond the end read as 0.  Half
 * the operation bytes are honest, so that random input leaves the card
 * mostly coherent and the driver reaches deep code; an input of zeros is
 * an honest card.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/bswap.h"
#include "hostile.h"
#include "trace.h"

enum {
    HOSTILE_XOR = 4,
    HOSTILE_SET = 5,
    HOSTILE_ADD = 6,
    HOSTILE_FLIP = 7,
};

static const char *const site_name[BCM_HOSTILE_SITES] = {
    [BCM_HOSTILE_DMA_STATUS] = "dma-status",
    [BCM_HOSTILE_TXSTAT] = "txstat",
    [BCM_HOSTILE_IRQ] = "irq",
    [BCM_HOSTILE_SHM] = "shm",
    [BCM_HOSTILE_RXHDR] = "rx-header",
    [BCM_HOSTILE_PHY] = "phy",
};

void bcm_hostile_free(BcmHostile *h)
{
    g_free(h->in);
    g_free(h->path);
    h->in = NULL;
    h->path = NULL;
    h->len = h->pos = 0;
}

bool bcm_hostile_load(BcmHostile *h, const char *path, Error **errp)
{
    g_autofree uint8_t *data = NULL;
    size_t len = 0;

    if (path && *path) {
        FILE *f = fopen(path, "rb");

        if (!f) {
            error_setg_errno(errp, errno, "hostile input %s", path);
            return false;
        }
        /* read at most one byte more than accepted: never more */
        data = g_malloc(BCM_HOSTILE_MAX_INPUT + 1);
        len = fread(data, 1, BCM_HOSTILE_MAX_INPUT + 1, f);
        if (ferror(f)) {
            error_setg(errp, "hostile input %s: read error", path);
            fclose(f);
            return false;
        }
        fclose(f);
        if (len > BCM_HOSTILE_MAX_INPUT) {
            error_setg(errp, "hostile input %s: more than the %d bytes "
                       "accepted", path, BCM_HOSTILE_MAX_INPUT);
            return false;
        }
        data = g_realloc(data, MAX(len, 1));
    }
    bcm_hostile_free(h);
    if (path && *path) {
        h->in = g_steal_pointer(&data);
        h->len = len;
        h->path = g_strdup(path);
    }
    memset(h->perturbed, 0, sizeof(h->perturbed));
    trace_bcm4331_hostile_load(path && *path ? path : "(off)", h->len);
    return true;
}

/* the next input byte; 0 beyond the end */
static uint8_t next_byte(BcmHostile *h)
{
    return h->pos < h->len ? h->in[h->pos++] : 0;
}

static uint32_t next_u32(BcmHostile *h)
{
    uint32_t v = 0;

    for (int i = 0; i < 4; i++) {
        v |= (uint32_t)next_byte(h) << (8 * i);
    }
    return v;
}

/* @v after operation @op and its operand */
static uint32_t apply(BcmHostile *h, uint8_t op, uint32_t v)
{
    switch (op & 7) {
    case HOSTILE_XOR:
        return v ^ next_u32(h);
    case HOSTILE_SET:
        return next_u32(h);
    case HOSTILE_ADD:
        return v + (int8_t)next_byte(h);
    case HOSTILE_FLIP:
        return v ^ (1u << (next_byte(h) & 31));
    default:
        return v;
    }
}

uint32_t bcm_hostile_u32(BcmHostile *h, BcmHostileSite s, uint32_t v,
                         uint32_t mask)
{
    uint8_t op;
    uint32_t nv;

    if (!bcm_hostile_on(h, s)) {
        return v;
    }
    op = next_byte(h);
    nv = (v & ~mask) | (apply(h, op, v) & mask);
    if (nv != v) {
        h->perturbed[s]++;
        trace_bcm4331_hostile(site_name[s], v, nv, h->pos);
    }
    return nv;
}

void bcm_hostile_words(BcmHostile *h, BcmHostileSite s, uint8_t *buf,
                       size_t len)
{
    uint8_t op;
    size_t at;
    uint16_t v, nv;

    if (!bcm_hostile_on(h, s) || len < 2) {
        return;
    }
    op = next_byte(h);
    if ((op & 7) < HOSTILE_XOR) {
        return;                 /* honest */
    }
    at = (next_byte(h) % (len / 2)) * 2;
    v = lduw_le_p(buf + at);
    nv = apply(h, op, v);
    if (nv != v) {
        stw_le_p(buf + at, nv);
        h->perturbed[s]++;
        trace_bcm4331_hostile(site_name[s], v, nv, h->pos);
    }
}
