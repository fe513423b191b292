/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 cards: the hostile card (off by default).  Every datum
 * the card gives the driver at the sites below passes bcm_hostile_*(),
 * which may perturb it from an input stream the operator gives (property
 * "hostile", a file; qom-set at run time loads another); the card's own
 * state is never changed, so the rest of it stays coherent.  The stream is
 * consumed front to back in the order the driver's accesses come, so a run
 * under -icount or record/replay repeats exactly; once it is exhausted the
 * card is honest again.  A leaf: it calls no other block of the card.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_HOSTILE_H
#define HW_NET_BCM43XX_HOSTILE_H

/* where the card hands the driver a datum (bit n of "hostile-sites") */
typedef enum BcmHostileSite {
    BCM_HOSTILE_DMA_STATUS,     /* TXSTATUS/RXSTATUS: state, descriptor */
    BCM_HOSTILE_TXSTAT,         /* XMITSTAT_0/_1: cookie, counts, flags */
    BCM_HOSTILE_IRQ,            /* the MAC's and the engines' reasons */
    BCM_HOSTILE_SHM,            /* shared memory read back */
    BCM_HOSTILE_RXHDR,          /* the RX header written with a frame */
    BCM_HOSTILE_PHY,            /* PHY version, PHY and radio data */
    BCM_HOSTILE_SITES
} BcmHostileSite;

#define BCM_HOSTILE_ALL_SITES   ((1u << BCM_HOSTILE_SITES) - 1)
/* the largest input accepted (a fuzz input is a few KiB) */
#define BCM_HOSTILE_MAX_INPUT   (1 << 20)

typedef struct BcmHostile {
    uint8_t *in;                /* the input (NULL: honest card) */
    size_t len, pos;            /* its length; what was consumed */
    uint32_t sites;             /* the sites that consume it (mask) */
    char *path;                 /* where it came from (the property) */
    uint64_t perturbed[BCM_HOSTILE_SITES];  /* values changed, per site */
} BcmHostile;

/*
 * Load @path as the input (NULL or "" turns the hostile mode off); the
 * stream starts from its beginning.  False, with @errp set, when the file
 * cannot be read or is larger than BCM_HOSTILE_MAX_INPUT: the card stays
 * as it was.
 */
bool bcm_hostile_load(BcmHostile *h, const char *path, Error **errp);
void bcm_hostile_free(BcmHostile *h);

static inline bool bcm_hostile_on(const BcmHostile *h, BcmHostileSite s)
{
    return h->in && h->pos < h->len && (h->sites & (1u << s));
}

/*
 * the value @v the card gives at site @s, as the input has it (@mask: the
 * bits the driver reads)
 */
uint32_t bcm_hostile_u32(BcmHostile *h, BcmHostileSite s, uint32_t v,
                         uint32_t mask);
/*
 * the @len-byte structure @buf (a header the card writes): at most one of
 * its 16-bit words changed, the one the input names
 */
void bcm_hostile_words(BcmHostile *h, BcmHostileSite s, uint8_t *buf,
                       size_t len);

#endif
