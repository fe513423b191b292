/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom AMBA (bcma) backplane of the BCM4331: the chip and its cores as
 * the EROM describes them, the agents (wrappers), ChipCommon with its PMU
 * and SPROM window, the PCIe core.  The backplane is a MemoryRegion (4 GiB
 * of backplane addresses) holding a region per core, per agent, the EROM
 * and the unmapped rest; the PCI glue's BAR0 windows are aliases into it.
 * Other cores (the 802.11 core) attach their own register region: the
 * backplane knows them only through it and their reset.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_BCMA_H
#define HW_NET_BCM43XX_BCMA_H

#include "net/wifi/qemu-compat.h"   /* MemoryRegion */
#include "bcma-chip.h"
#include "bcma-cc.h"
#include "bcma-pcie.h"
#include "sprom.h"
#include "bcm-common.h"

/* the chips (bcma.c) */
extern const BcmaChipInfo bcma_chip_bcm4331;
extern const BcmaChipInfo bcma_chip_bcm43224;

/*
 * The registers of a core are 32-bit words; an access of 1, 2 or 4 bytes
 * selects byte lanes of one word (@mask).  QEMU's memory core splits an
 * unaligned access into naturally aligned ones (impl.unaligned false), as
 * the CPU's would be on the bus; should one still cross a word, it is two
 * accesses, and nothing past the 4 KiB of a core is reached.
 */
typedef uint32_t BcmaRead32(void *opaque, uint32_t off, uint32_t mask);
typedef void BcmaWrite32(void *opaque, uint32_t off, uint32_t val,
                         uint32_t mask);

static inline uint32_t bcma_lanes(unsigned size)
{
    return size >= 4 ? UINT32_MAX : (1u << (size * 8)) - 1;
}

/* for traces: the address of the first lane of @mask, the value there */
static inline uint32_t bcma_lane_addr(uint32_t off, uint32_t mask)
{
    return off + (mask ? ctz32(mask) / 8 : 0);
}

static inline uint32_t bcma_lane_val(uint32_t v, uint32_t mask)
{
    return (v & mask) >> (mask ? ctz32(mask) : 0);
}

static inline uint64_t bcma_access_read(void *opaque, hwaddr addr,
                                        unsigned size, BcmaRead32 *read32)
{
    unsigned first = MIN(size, 4 - (addr & 3));
    unsigned shift = (addr & 3) * 8;
    uint64_t v;

    addr &= BCMA_CORE_SIZE - 1;
    v = (read32(opaque, addr & ~3u, bcma_lanes(first) << shift) >> shift) &
        bcma_lanes(first);
    if (first < size && addr + first < BCMA_CORE_SIZE) {
        v |= bcma_access_read(opaque, addr + first, size - first, read32) <<
             (first * 8);
    }
    return v;
}

static inline void bcma_access_write(void *opaque, hwaddr addr, uint64_t val,
                                     unsigned size, BcmaWrite32 *write32)
{
    unsigned first = MIN(size, 4 - (addr & 3));
    unsigned shift = (addr & 3) * 8;

    addr &= BCMA_CORE_SIZE - 1;
    write32(opaque, addr & ~3u, (uint32_t)(val & bcma_lanes(first)) << shift,
            bcma_lanes(first) << shift);
    if (first < size && addr + first < BCMA_CORE_SIZE) {
        bcma_access_write(opaque, addr + first, val >> (first * 8),
                          size - first, write32);
    }
}

/* accesses of 1-4 bytes at any address, made naturally aligned */
#define BCMA_ACCESS_SIZES                                               \
    .valid = { .min_access_size = 1, .max_access_size = 4,             \
               .unaligned = true },                                     \
    .impl = { .min_access_size = 1, .max_access_size = 4 }

/*
 * The MemoryRegionOps @name of a register window whose 32-bit registers
 * @read32 and @write32 serve (BcmaRead32, BcmaWrite32).
 */
#define BCMA_REGION_OPS(name, read32, write32)                          \
    static uint64_t name##_read(void *opaque, hwaddr addr, unsigned size) \
    {                                                                   \
        return bcma_access_read(opaque, addr, size, read32);            \
    }                                                                   \
    static void name##_write(void *opaque, hwaddr addr, uint64_t val,   \
                             unsigned size)                             \
    {                                                                   \
        bcma_access_write(opaque, addr, val, size, write32);            \
    }                                                                   \
    static const MemoryRegionOps name = {                               \
        .read = name##_read,                                            \
        .write = name##_write,                                          \
        .endianness = DEVICE_LITTLE_ENDIAN,                             \
        BCMA_ACCESS_SIZES,                                              \
    }

typedef struct BcmaState BcmaState;

/* the regions of one core on the backplane */
typedef struct BcmaCoreBus {
    BcmaState *b;
    unsigned index;
    MemoryRegion regs;          /* ChipCommon, PCIe: the backplane's own */
    MemoryRegion agent;
    MemoryRegion clkctlst;      /* 0x1E0 of every core, over its registers */
    void (*reset)(void *opaque);    /* an attached core's reset */
    void *opaque;
} BcmaCoreBus;

typedef struct BcmaCoreState {
    uint32_t ioctl;
    uint32_t resetctl;
    uint32_t oob_sel_out_a30;
    uint32_t clkctlst;          /* writable bits only */
} BcmaCoreState;

struct BcmaState {
    const BcmaChipInfo *chip;
    uint32_t erom[BCMA_EROM_WORDS];
    unsigned erom_words;
    uint16_t sprom[BCM_SPROM_MAX_WORDS];
    unsigned sprom_words;
    BcmaCcChip cc_chip;         /* what ChipCommon shows of the two above */
    bool dma64;                 /* the 802.11 core's IOST: 64-bit DMA */

    MemoryRegion bp;            /* the backplane's address space */
    MemoryRegion erom_mr;
    MemoryRegion unmapped;
    BcmaCoreBus bus[BCMA_MAX_CORES];

    BcmaCoreState core[BCMA_MAX_CORES];
    BcmaCcState cc;
    BcmaPcieState pcie;
};

extern const VMStateDescription vmstate_bcma;

/* bcma.c: the backplane */
typedef unsigned BcmSpromBuild(uint16_t *sprom, const uint8_t mac[6]);

bool bcma_realize(BcmaState *b, Object *owner, const BcmaChipInfo *chip,
                  BcmSpromBuild *sprom_build, const char *sprom_file,
                  const uint8_t *mac, bool mac_given, Error **errp);
void bcma_attach_core(BcmaState *b, BcmaCoreType type, MemoryRegion *regs,
                      void (*reset)(void *opaque), void *opaque);
void bcma_unrealize(BcmaState *b);
void bcma_reset(BcmaState *b);
const char *bcma_target_name(BcmaState *b, uint32_t addr);
int bcma_core_index(BcmaState *b, BcmaCoreType type);
uint32_t bcma_core_base(BcmaState *b, BcmaCoreType type);

#endif
