/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 MAC core (d11, core rev 29): register offsets and bits.
 *
 * From Linux drivers/net/wireless/broadcom/b43/b43.h, dma.h, phy_ht.h,
 * radio_2059.h; the hardware meaning of a few bits from brcmsmac's d11.h.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef HW_NET_BCM43XX_D11_REGS_H
#define HW_NET_BCM43XX_D11_REGS_H

#include "hw/registerfields.h"

/* per-engine DMA interrupt reason/mask, engine i at 0x20 + 8i */
#define D11_DMA_REASON(i)       (0x20 + 8 * (i))
    FIELD(D11_DMA_REASON, DESC_ERR, 10, 1)
    FIELD(D11_DMA_REASON, DATA_ERR, 11, 1)
    FIELD(D11_DMA_REASON, PROTO_ERR, 12, 1)
    FIELD(D11_DMA_REASON, RX_UFLOW, 13, 1)  /* descriptors ran out */
    FIELD(D11_DMA_REASON, RX_OFLOW, 14, 1)  /* receive FIFO overflow */
    FIELD(D11_DMA_REASON, TX_UFLOW, 15, 1)  /* transmit FIFO underflow */
    FIELD(D11_DMA_REASON, RX_DONE, 16, 1)
    FIELD(D11_DMA_REASON, TX_DONE, 24, 1)
#define D11_DMA_IRQ_MASK(i)     (0x24 + 8 * (i)) /* fields as D11_DMA_REASON */
#define D11_DMA_ENGINES         6

REG32(D11_RX_LAZY, 0x100)
REG32(D11_MACCTL, 0x120)
    FIELD(D11_MACCTL, ENABLED, 0, 1)
    FIELD(D11_MACCTL, PSM_RUN, 1, 1)
    FIELD(D11_MACCTL, PSM_JMP0, 2, 1)
    FIELD(D11_MACCTL, SHM_ENABLED, 8, 1)
    FIELD(D11_MACCTL, IHR_ENABLED, 10, 1)
    FIELD(D11_MACCTL, BE, 16, 1)
    FIELD(D11_MACCTL, INFRA, 17, 1)
    FIELD(D11_MACCTL, AP, 18, 1)
    FIELD(D11_MACCTL, BEACPROMISC, 20, 1)
    FIELD(D11_MACCTL, KEEP_BADPLCP, 21, 1)
    FIELD(D11_MACCTL, KEEP_CTL, 22, 1)
    FIELD(D11_MACCTL, KEEP_BAD, 23, 1)
    FIELD(D11_MACCTL, PROMISC, 24, 1)
    FIELD(D11_MACCTL, HWPS, 25, 1)
    FIELD(D11_MACCTL, AWAKE, 26, 1)
    FIELD(D11_MACCTL, TBTTHOLD, 28, 1)
    FIELD(D11_MACCTL, DISCPMQ, 30, 1)
    FIELD(D11_MACCTL, GMODE, 31, 1)
REG32(D11_MACCMD, 0x124)
    FIELD(D11_MACCMD, BEACON0_VALID, 0, 1)
    FIELD(D11_MACCMD, BEACON1_VALID, 1, 1)
    FIELD(D11_MACCMD, DFQ_VALID, 2, 1)
    FIELD(D11_MACCMD, CCA, 3, 1)
    FIELD(D11_MACCMD, BGNOISE, 4, 1)
/* interrupt reasons (b43.h B43_IRQ_*) */
REG32(D11_GEN_IRQ_REASON, 0x128)
    FIELD(D11_GEN_IRQ_REASON, MAC_SUSPENDED, 0, 1)
    FIELD(D11_GEN_IRQ_REASON, BEACON, 1, 1)
    FIELD(D11_GEN_IRQ_REASON, TBTT_INDI, 2, 1)
    FIELD(D11_GEN_IRQ_REASON, BEACON_TX_OK, 3, 1)
    FIELD(D11_GEN_IRQ_REASON, BEACON_CANCEL, 4, 1)
    FIELD(D11_GEN_IRQ_REASON, ATIM_END, 5, 1)
    FIELD(D11_GEN_IRQ_REASON, PMQ, 6, 1)
    FIELD(D11_GEN_IRQ_REASON, PIO_WORKAROUND, 8, 1)
    FIELD(D11_GEN_IRQ_REASON, MAC_TXERR, 9, 1)
    FIELD(D11_GEN_IRQ_REASON, PHY_TXERR, 11, 1)
    FIELD(D11_GEN_IRQ_REASON, PMEVENT, 12, 1)
    FIELD(D11_GEN_IRQ_REASON, TIMER0, 13, 1)
    FIELD(D11_GEN_IRQ_REASON, TIMER1, 14, 1)
    FIELD(D11_GEN_IRQ_REASON, DMA, 15, 1)   /* summary of DMA reasons */
    FIELD(D11_GEN_IRQ_REASON, TXFIFO_FLUSH_OK, 16, 1)
    FIELD(D11_GEN_IRQ_REASON, CCA_MEASURE_OK, 17, 1)
    FIELD(D11_GEN_IRQ_REASON, NOISESAMPLE_OK, 18, 1)
    FIELD(D11_GEN_IRQ_REASON, UCODE_DEBUG, 27, 1)
    FIELD(D11_GEN_IRQ_REASON, RFKILL, 28, 1)
    FIELD(D11_GEN_IRQ_REASON, TX_OK, 29, 1)
    FIELD(D11_GEN_IRQ_REASON, PHY_G_CHANGED, 30, 1)
    FIELD(D11_GEN_IRQ_REASON, TIMEOUT, 31, 1)
REG32(D11_GEN_IRQ_MASK, 0x12c)          /* fields as D11_GEN_IRQ_REASON */
REG32(D11_RAM_CONTROL, 0x130)
REG32(D11_RAM_DATA, 0x134)
REG32(D11_PS_STATUS, 0x140)
REG32(D11_RADIO_HWENABLED_HI, 0x158)
#define D11_RADIO_HWDISABLED    0x00010000  /* bit 16: RF disabled */
REG32(D11_MAC_HW_CAP, 0x15c)
REG32(D11_SHM_CONTROL, 0x160)
    FIELD(D11_SHM_CONTROL, OFFSET, 0, 16)
    FIELD(D11_SHM_CONTROL, ROUTING, 16, 8)
    FIELD(D11_SHM_CONTROL, AUTOINC_W, 24, 1)
    FIELD(D11_SHM_CONTROL, AUTOINC_R, 25, 1)
REG32(D11_SHM_DATA, 0x164)
REG16(D11_SHM_DATA_UNALIGNED, 0x166)
/* TX status FIFO (b43 main.c b43_handle_txstatus() reads the fields) */
REG32(D11_XMITSTAT_0, 0x170)
    FIELD(D11_XMITSTAT_0, VALID, 0, 1)
    FIELD(D11_XMITSTAT_0, ACKED, 1, 1)
    FIELD(D11_XMITSTAT_0, SUPP_REASON, 2, 3)
    FIELD(D11_XMITSTAT_0, FOR_AMPDU, 5, 1)
    FIELD(D11_XMITSTAT_0, INTERMEDIATE, 6, 1)
    FIELD(D11_XMITSTAT_0, PM_INDICATED, 7, 1)
    FIELD(D11_XMITSTAT_0, RTS_COUNT, 8, 4)
    FIELD(D11_XMITSTAT_0, FRAME_COUNT, 12, 4)   /* attempts, 0: not sent */
    FIELD(D11_XMITSTAT_0, COOKIE, 16, 16)
REG32(D11_XMITSTAT_1, 0x174)
    FIELD(D11_XMITSTAT_1, SEQ, 0, 16)
    FIELD(D11_XMITSTAT_1, PHY_STAT, 16, 8)
REG32(D11_TSF_LOW, 0x180)
REG32(D11_TSF_HIGH, 0x184)
REG32(D11_TSF_CFP_REP, 0x188)
REG32(D11_TSF_CFP_START, 0x18c)
#define D11_DMA_BASE            0x200   /* 6 engines, 0x40 each */
#define D11_DMA_ENGINE(n)       (D11_DMA_BASE + 0x40 * (n))
#define D11_DMA32_ENGINE(n)     (D11_DMA_BASE + D11_DMA32_ENGINE_SIZE * (n))
#define D11_DMA_END             0x380
/* engine 4 sends the group frames that follow a DTIM beacon (AP) */
#define D11_DMA_MCAST_ENGINE    4
/*
 * 16-bit registers b43 reads and writes (b43.h B43_MMIO_*).  The model
 * keeps them in the 32-bit word that holds them (the REG32 below); a REG16
 * names the upper half of such a word.
 */
/*
 * The older radio port (brcmsmac phy4waddr/phy4wdatahi/phy4wdatalo, b43
 * B43_MMIO_RADIO_CONTROL/_DATA_HIGH/_DATA_LOW), used below core rev 24:
 * the address at 0x3F6 (high half of the word at 0x3F4), the data's high
 * half at 0x3F8 and its low half at 0x3FA (one word at 0x3F8).
 */
REG32(D11_RADIO_CONTROL, 0x3f4)
REG32(D11_RADIO_DATA, 0x3f8)
REG32(D11_RADIO24_CONTROL, 0x3d8)
REG16(D11_RADIO24_DATA, 0x3da)
REG32(D11_PHY_VER, 0x3e0)
    FIELD(D11_PHY_VER, REV, 0, 8)
    FIELD(D11_PHY_VER, TYPE, 8, 4)          /* 7: HT */
    FIELD(D11_PHY_VER, ANALOG, 12, 4)
REG16(D11_PHY0, 0x3e6)
REG32(D11_PHY_CONTROL, 0x3fc)
REG16(D11_PHY_DATA, 0x3fe)
/* the receive address (RCM) filter: word index, auto-increment; data */
REG32(D11_MACFILTER_CONTROL, 0x420)
    FIELD(D11_MACFILTER_CONTROL, INDEX, 0, 5)
    FIELD(D11_MACFILTER_CONTROL, INC_DATA, 5, 1)
REG16(D11_MACFILTER_DATA, 0x422)
REG16(D11_RCMTA_COUNT, 0x43c)
REG16(D11_PSM_PHY_HDR, 0x492)
REG32(D11_GPIO_CONTROL, 0x49c)
REG16(D11_GPIO_MASK, 0x49e)
REG16(D11_TSF_CFP_PRETBTT, 0x612)
REG16(D11_TSF_CLK_FRAC_LOW, 0x62e)
REG16(D11_TSF_CLK_FRAC_HIGH, 0x630)
REG32(D11_RNG, 0x658)                   /* the 16-bit RNG is at 0x65A */
REG16(D11_RNG_DATA, 0x65a)
REG16(D11_IFSSLOT, 0x684)
REG16(D11_IFSCTL, 0x688)
REG16(D11_POWERUP_DELAY, 0x6a8)

/* GEN_IRQ_REASON / GEN_IRQ_MASK bits the model raises */
#define D11_IRQ_MAC_SUSPENDED   R_D11_GEN_IRQ_REASON_MAC_SUSPENDED_MASK
#define D11_IRQ_BEACON          R_D11_GEN_IRQ_REASON_BEACON_MASK
#define D11_IRQ_TBTT_INDI       R_D11_GEN_IRQ_REASON_TBTT_INDI_MASK
#define D11_IRQ_DMA             R_D11_GEN_IRQ_REASON_DMA_MASK
#define D11_IRQ_RFKILL          R_D11_GEN_IRQ_REASON_RFKILL_MASK
#define D11_IRQ_TX_OK           R_D11_GEN_IRQ_REASON_TX_OK_MASK

/* SHM routings */
#define D11_SHM_UCODE           0
#define D11_SHM_SHARED          1
#define D11_SHM_SCRATCH         2
#define D11_SHM_HW              3
#define D11_SHM_RCMTA           4
/* routing flags: auto-increment on write / read (b43 B43_SHM_AUTOINC_*) */
#define D11_SHM_AUTOINC_W       0x0100
#define D11_SHM_AUTOINC_R       0x0200

#define D11_SHM_SHARED_SIZE     0x10000 /* bytes */
#define D11_SHM_SCRATCH_REGS    64
/* scratch registers b43 uses (b43.h B43_SHM_SC_*) */
#define D11_SHM_SC_WATCHDOG     1       /* B43_WATCHDOG_REG */
#define D11_SHM_SC_SRLIMIT      6       /* short retry limit */
#define D11_SHM_SC_LRLIMIT      7       /* long retry limit */
#define D11_SHM_HW_WORDS        1024
#define D11_SHM_RCMTA_WORDS     128
#define D11_TEMPLATE_SIZE       0x2000  /* bytes */
#define D11_RCM_WORDS           32      /* RCM_CTL index: 5 bits */

/* SHM SHARED words the firmware owns (byte offsets) */
#define D11_SHM_SH_UCODEREV     0x0000
#define D11_SHM_SH_UCODEPATCH   0x0002
#define D11_SHM_SH_UCODEDATE    0x0004
#define D11_SHM_SH_UCODETIME    0x0006
#define D11_SHM_SH_UCODESTAT    0x0040
#define D11_SHM_SH_FWCAPA       0x0042
#define D11_SHM_SH_SFFBLIM      0x0044  /* short frame: attempts before */
#define D11_SHM_SH_LFFBLIM      0x0046  /* ... long: the fallback rate */
#define D11_SHM_SH_KTP          0x0056
#define D11_SHM_SH_CHAN         0x00a0
#define D11_UCODESTAT_ACTIVE    2
#define D11_UCODESTAT_SUSP      3
#define D11_KTP_DEFAULT         0x0400  /* key table at byte 0x0800 */
#define D11_SHM_SH_HOSTF1       0x005e
/* the cookie of the last group frame after a DTIM (b43 dma.c) */
#define D11_SHM_SH_MCASTCOOKIE  0x00a8
#define D11_HF_USEDEFKEYS       0x4000  /* WEP: default keys by key ID */
#define D11_SHM_SH_KEYIDXBLOCK  0x05d4  /* per slot: slot << 4 | algorithm */

/* hardware key table (b43's new index API, firmware >= 351) */
#define D11_NR_KEYS             54      /* 4 default + 50 pairwise slots */
#define D11_NR_GROUP_KEYS       4
#define D11_KEY_SIZE            16
#define D11_KEYALG_NONE         0
#define D11_KEYALG_WEP40        1
#define D11_KEYALG_TKIP         2
#define D11_KEYALG_AES          3
#define D11_KEYALG_WEP104       4

#define D11_TXSTAT_FIFO         1024    /* > 5 rings x 128 frames in flight */

/* DMA64 engine registers (offsets inside an engine's 0x40 block) */
#define D11_DMA64_TXCTL         0x00
    FIELD(D11_DMA64_TXCTL, ENABLE, 0, 1)
    FIELD(D11_DMA64_TXCTL, SUSPEND, 1, 1)
    FIELD(D11_DMA64_TXCTL, LOOPBACK, 2, 1)
    FIELD(D11_DMA64_TXCTL, FLUSH, 4, 1)
    FIELD(D11_DMA64_TXCTL, PARITYDISABLE, 11, 1)
    FIELD(D11_DMA64_TXCTL, ADDREXT, 16, 2)
#define D11_DMA64_TXINDEX       0x04    /* byte offset of the last + 1 */
#define D11_DMA64_TXRINGLO      0x08
#define D11_DMA64_TXRINGHI      0x0c
#define D11_DMA64_TXSTATUS      0x10
    FIELD(D11_DMA64_TXSTATUS, CURRDSCR, 0, 13)  /* byte offset */
    FIELD(D11_DMA64_TXSTATUS, STATE, 28, 4)
#define D11_DMA64_TXSTATUS_STATE_DISABLED 0
#define D11_DMA64_TXSTATUS_STATE_ACTIVE   1
#define D11_DMA64_TXSTATUS_STATE_IDLEWAIT 2
#define D11_DMA64_TXSTATUS_STATE_STOPPED  3
#define D11_DMA64_TXSTATUS_STATE_SUSP     4
#define D11_DMA64_TXERROR       0x14
    FIELD(D11_DMA64_TXERROR, ACTIVEDSCR, 0, 17)
    FIELD(D11_DMA64_TXERROR, ERR, 28, 4)
#define D11_DMA64_TXERROR_ERR_NOERR     0
#define D11_DMA64_TXERROR_ERR_PROT      1
#define D11_DMA64_TXERROR_ERR_UNDERRUN  2
#define D11_DMA64_TXERROR_ERR_TRANSFER  3
#define D11_DMA64_TXERROR_ERR_DESCREAD  4
#define D11_DMA64_TXERROR_ERR_CORE      5
#define D11_DMA64_RXCTL         0x20
    FIELD(D11_DMA64_RXCTL, ENABLE, 0, 1)
    FIELD(D11_DMA64_RXCTL, FROFF, 1, 7)     /* frame offset */
    FIELD(D11_DMA64_RXCTL, DIRECTFIFO, 8, 1)
    FIELD(D11_DMA64_RXCTL, PARITYDISABLE, 11, 1)
    FIELD(D11_DMA64_RXCTL, ADDREXT, 16, 2)
#define D11_DMA64_RXINDEX       0x24    /* byte offset of the last + 1 */
#define D11_DMA64_RXRINGLO      0x28
#define D11_DMA64_RXRINGHI      0x2c
#define D11_DMA64_RXSTATUS      0x30    /* fields as D11_DMA64_TXSTATUS */
#define D11_DMA64_RXERROR       0x34    /* fields as D11_DMA64_TXERROR */
#define D11_DMA64_CTL_ENABLE    R_D11_DMA64_TXCTL_ENABLE_MASK
#define D11_DMA64_CTL_SUSPEND   R_D11_DMA64_TXCTL_SUSPEND_MASK
#define D11_DMA64_STAT(state)   ((uint32_t)D11_DMA64_TXSTATUS_STATE_##state \
                                 << R_D11_DMA64_TXSTATUS_STATE_SHIFT)
#define D11_DMA64_STAT_DISABLED D11_DMA64_STAT(DISABLED)
#define D11_DMA64_STAT_IDLEWAIT D11_DMA64_STAT(IDLEWAIT)
#define D11_DMA64_STAT_STOPPED  D11_DMA64_STAT(STOPPED)
#define D11_DMA64_STAT_SUSP     D11_DMA64_STAT(SUSP)
#define D11_DMA64_CD_MASK       R_D11_DMA64_TXSTATUS_CURRDSCR_MASK
#define D11_DMA64_CTL_ADDREXT_SHIFT R_D11_DMA64_TXCTL_ADDREXT_SHIFT
#define D11_DMA64_RXCTL_FO_SHIFT R_D11_DMA64_RXCTL_FROFF_SHIFT
/* descriptor: control words 0 and 1 (b43 dma.h B43_DMA64_DCTL*) */
FIELD(D11_DESC_CTL0, DTABLEEND, 28, 1)  /* the ring's last descriptor */
FIELD(D11_DESC_CTL0, IOC, 29, 1)        /* interrupt on completion */
FIELD(D11_DESC_CTL0, EOF, 30, 1)        /* a frame's last buffer */
FIELD(D11_DESC_CTL0, SOF, 31, 1)        /* a frame's first buffer */
FIELD(D11_DESC_CTL1, LEN, 0, 13)        /* buffer length, bytes */
FIELD(D11_DESC_CTL1, ADDREXT, 16, 2)
#define D11_DESC_CTL0_DTABLEEND R_D11_DESC_CTL0_DTABLEEND_MASK
#define D11_DESC_CTL0_IOC       R_D11_DESC_CTL0_IOC_MASK
#define D11_DESC_CTL0_EOF       R_D11_DESC_CTL0_EOF_MASK
#define D11_DESC_CTL0_SOF       R_D11_DESC_CTL0_SOF_MASK
#define D11_DESC_CTL1_LEN       R_D11_DESC_CTL1_LEN_MASK
#define D11_DESC_CTL1_ADDREXT_SHIFT R_D11_DESC_CTL1_ADDREXT_SHIFT
#define D11_DESC_SIZE           16
#define D11_DESC32_SIZE         8
#define D11_DMA32_RING_BYTES    0x1000  /* 12-bit descriptor pointer */
#define D11_DMA32_CD_MASK       0x0fff
#define D11_DMA32_STAT_ERR_SHIFT 16     /* 32-bit status: error in 19:16 */
#define D11_DMA32_ENGINE_SIZE   0x20    /* 32-bit engines at 0x200 + 0x20 n */
#define D11_DMA_RING_BYTES      0x2000  /* the CD field spans 8 KiB */
/* per-engine DMA reason bits */
#define D11_DMAIRQ_DESC_ERR     R_D11_DMA_REASON_DESC_ERR_MASK
#define D11_DMAIRQ_DATA_ERR     R_D11_DMA_REASON_DATA_ERR_MASK
#define D11_DMAIRQ_PROTO_ERR    R_D11_DMA_REASON_PROTO_ERR_MASK
#define D11_DMAIRQ_RX_UFLOW     R_D11_DMA_REASON_RX_UFLOW_MASK
#define D11_DMAIRQ_RX_DONE      R_D11_DMA_REASON_RX_DONE_MASK
/* DMA error codes (TXERROR/RXERROR bits 31:28) */
#define D11_DMA_ERR_PROT        D11_DMA64_TXERROR_ERR_PROT
#define D11_DMA_ERR_TRANSFER    D11_DMA64_TXERROR_ERR_TRANSFER
#define D11_DMA_ERR_DESCREAD    D11_DMA64_TXERROR_ERR_DESCREAD

/* TX header (format 598) and RX header */
#define D11_TXH_LEN             118
#define D11_TXH_MAC_CTL         0x00
#define D11_TXH_PHY_CTL         0x08
#define D11_TXH_PHY_RATE_RTS    0x13    /* u8: the RTS's rate code */
#define D11_TXH_EXTRA_FT        0x14    /* u8: fallback encodings */
#define D11_TXH_EFT_RTS_MASK    0x0c    /* the RTS/CTS's: */
#define D11_TXH_EFT_RTS_CCK     0x00
#define D11_TXH_EFT_RTS_OFDM    0x04
#define D11_TXH_EFT_FB_MASK     0x03    /* the data fallback's: */
#define D11_TXH_EFT_FB_CCK      0x00
#define D11_TXH_EFT_FB_OFDM     0x01
#define D11_TXH_PLCP_FB         0x36    /* fallback PLCP header (6 bytes) */
#define D11_TXH_COOKIE          0x4c
#define D11_TXH_RTS_FRAME       0x5e    /* the RTS or CTS, 16 bytes */
#define D11_TXH_PLCP            0x70
#define D11_TXH_MAC_ACK         0x00000001
#define D11_TXH_MAC_LONGFRAME   0x00000002
#define D11_TXH_MAC_SENDRTS     0x00000004
#define D11_TXH_MAC_SENDCTS     0x00000800
#define D11_TXH_MAC_KEYALG_SHIFT 16
#define D11_TXH_MAC_KEYALG_MASK 0x00070000
#define D11_TXH_MAC_KEYIDX_SHIFT 20
#define D11_TXH_MAC_KEYIDX_MASK 0x0ff00000
/* frame types; the EXTRA_FT fallback field has the same encoding */
#define D11_TXH_PHY_ENC_CCK     0x0000
#define D11_TXH_PHY_ENC_OFDM    0x0001
#define D11_TXH_PHY_ENC_MASK    0x0003      /* frame type: */
#define D11_TXH_PHY_ENC_HT      0x0002      /* HT (MCS in the PLCP) */
#define D11_TXH_PHY_ENC_VHT     0x0003
#define D11_TXH_MAC_AMPDU_SHIFT 9           /* A-MPDU position: */
#define D11_TXH_MAC_AMPDU_MASK  0x00000600
#define D11_AMPDU_NONE          0
#define D11_AMPDU_FIRST         1
#define D11_AMPDU_MIDDLE        2
#define D11_AMPDU_LAST          3           /* the last, or the only one */
#define D11_TXH_PHY_SHORTPRMBL  0x0010
/* RX header, format 598 (b43 xmit.h struct b43_rxhdr_fw4), little-endian */
#define D11_RXH_LEN             24
#define D11_RXH_FRAME_LEN       0x00    /* PLCP + frame + FCS */
#define D11_RXH_PHY_STATUS0     0x04
#define D11_RXH_HT_POWER0       0x09    /* s8 dBm, per radio core: 0..2 */
#define D11_RXH_POWERS          3       /* one per radio core, either PHY */
#define D11_RXH_N_POWER0        0x06    /* N-PHY: PhyRxStatus_1 lo/hi, _2 lo */
#define D11_RXH_MAC_STATUS      0x10    /* 32 bits */
#define D11_RXH_MAC_TIME        0x14    /* TSF bits 15:0 at frame start */
#define D11_RXH_CHANNEL         0x16    /* channel << 3 | PHY type */
#define D11_RXH_CHANNEL_SHIFT   3
#define D11_RX_PHYST0_OFDM      0x0001
#define D11_RX_PHYST0_SHORTPRMBL 0x0080
#define D11_RX_MAC_FCSERR       0x00000001  /* mac_status: bad FCS */
#define D11_RX_MAC_DEC          0x00000008  /* decryption attempted */
#define D11_RX_MAC_DECERR       0x00000010  /* ... and failed */
#define D11_RX_MAC_KEYIDX_SHIFT 5           /* key slot, 6 bits */
#define D11_RX_MAC_PHYST_VALID  0x01000000  /* PHY status words valid */
#define D11_PLCP_LEN            6
/* RX buffers as b43 sets them up for format 598 (b43 dma.h) */
#define D11_RX_FW598_FO         38      /* frame offset: header + pad */
#define D11_RX_FW598_BUFSIZE    (D11_RX_FW598_FO + 2352)

/*
 * HT-PHY register map (b43 phy_ht.h B43_PHY_HT_*; OFDM-routed registers at
 * 0x400 +, extended-G at 0x800 +, N/B-mode at 0xC00 +): the names of the
 * registers behind the PHY port, as traces and scripts/explain.py show them.
 * The model gives meaning to those below it, and keeps the rest as plain
 * read/write cells.
 */
REG16(HTPHY_BBCFG, 0x001)
REG16(HTPHY_BANDCTL, 0x009)
REG16(HTPHY_TABLE_ADDR, 0x072)
REG16(HTPHY_TABLE_DATALO, 0x073)
REG16(HTPHY_TABLE_DATAHI, 0x074)
REG16(HTPHY_CLASS_CTL, 0x0b0)
REG16(HTPHY_IQLOCAL_CMDGCTL, 0x0c2)
REG16(HTPHY_SAMP_CMD, 0x0c3)
REG16(HTPHY_SAMP_LOOP_CNT, 0x0c4)
REG16(HTPHY_SAMP_WAIT_CNT, 0x0c5)
REG16(HTPHY_SAMP_DEP_CNT, 0x0c6)
REG16(HTPHY_SAMP_STAT, 0x0c7)
REG16(HTPHY_EST_PWR_C1, 0x118)
REG16(HTPHY_EST_PWR_C2, 0x119)
REG16(HTPHY_EST_PWR_C3, 0x11a)
REG16(HTPHY_TSSIMODE, 0x122)
REG16(HTPHY_BW1, 0x1ce)
REG16(HTPHY_BW2, 0x1cf)
REG16(HTPHY_BW3, 0x1d0)
REG16(HTPHY_BW4, 0x1d1)
REG16(HTPHY_BW5, 0x1d2)
REG16(HTPHY_BW6, 0x1d3)
REG16(HTPHY_TXPCTL_CMD_C1, 0x1e7)
REG16(HTPHY_TXPCTL_N, 0x1e8)
REG16(HTPHY_TXPCTL_IDLE_TSSI, 0x1e9)
REG16(HTPHY_TXPCTL_TARG_PWR, 0x1ea)
REG16(HTPHY_TX_PCTL_STATUS_C1, 0x1ed)
REG16(HTPHY_TX_PCTL_STATUS_C2, 0x1ee)
REG16(HTPHY_TXPCTL_CMD_C2, 0x222)
REG16(HTPHY_RSSI_C1, 0x219)
REG16(HTPHY_RSSI_C2, 0x21a)
REG16(HTPHY_RSSI_C3, 0x21b)
REG16(HTPHY_C1_CLIP1THRES, 0x40e)
REG16(HTPHY_C2_CLIP1THRES, 0x44e)
REG16(HTPHY_C3_CLIP1THRES, 0x48e)
REG16(HTPHY_RF_SEQ_MODE, 0x800)
REG16(HTPHY_RF_SEQ_TRIG, 0x803)
REG16(HTPHY_RF_SEQ_STATUS, 0x804)
REG16(HTPHY_RF_CTL_CMD, 0x810)
REG16(HTPHY_RF_CTL_INT_C1, 0x84c)
REG16(HTPHY_RF_CTL_INT_C2, 0x86c)
REG16(HTPHY_RF_CTL_INT_C3, 0x88c)
REG16(HTPHY_AFE_C1_OVER, 0x910)
REG16(HTPHY_AFE_C1, 0x911)
REG16(HTPHY_AFE_C2_OVER, 0x914)
REG16(HTPHY_AFE_C2, 0x915)
REG16(HTPHY_AFE_C3_OVER, 0x918)
REG16(HTPHY_AFE_C3, 0x919)
REG16(HTPHY_TXPCTL_CMD_C3, 0x964)
REG16(HTPHY_TXPCTL_IDLE_TSSI2, 0x965)
REG16(HTPHY_TXPCTL_TARG_PWR2, 0x966)
REG16(HTPHY_TX_PCTL_STATUS_C3, 0x969)
REG16(HTPHY_TEST, 0xc0a)

/* HT-PHY: version, PHY registers the model gives meaning to */
#define HTPHY_VERSION           0x9701  /* analog 9, type 7 (HT), rev 1 */
#define HTPHY_REGS              0x1000
#define HTPHY_BANDCTL           A_HTPHY_BANDCTL
#define HTPHY_TABLE_ADDR        A_HTPHY_TABLE_ADDR
#define HTPHY_TABLE_DATALO      A_HTPHY_TABLE_DATALO
#define HTPHY_TABLE_DATAHI      A_HTPHY_TABLE_DATAHI
#define HTPHY_BW1               A_HTPHY_BW1
#define HTPHY_RF_SEQ_STATUS     A_HTPHY_RF_SEQ_STATUS
#define HTPHY_RF_CTL_CMD        A_HTPHY_RF_CTL_CMD
#define HTPHY_RF_CTL_CHIP0_PU   0x0002
#define HTPHY_TABLE_CELLS       0x10000

/* BCM2059 radio: 3 cores of 512 registers; core 3 = broadcast */
#define R2059_CORES             3
#define R2059_REGS              512
#define R2059_READ_FLAG         0x200
#define R2059_RCAL_STATUS       0x145   /* core 2, bit 0: done */
#define R2059_RCCAL_DONE        0x140   /* core 0, bit 1: done */
#define R2059_ID0               0x0010  /* rev 0, version 1 */
#define R2059_ID1               0x0059
#define R2059_ID2               0x0020  /* id 0x2059 */

#endif
