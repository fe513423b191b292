/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The wire format that joins wifi-medium objects of several QEMU processes
 * through a netdev: one 802.11 transmission per Ethernet frame.
 *
 *   Ethernet: dst ff:ff:ff:ff:ff:ff, src = the medium's address,
 *             EtherType 0x88B5 (IEEE 802 local experimental 1)
 *   header (56 bytes, big endian):
 *     0  u8  version (2)          1  u8  flags (bit 0 OFDM, bit 1 short
 *     2  u16 header length (56)          preamble, bit 2 FCS bad)
 *     4  u64 sender id (random per medium instance)
 *    12  u32 frequency, MHz      16  s8  transmit power, dBm
 *    17  u8  reserved (0)        18  u16 rate, 500 kb/s units
 *    20  u32 airtime, us         24  s64 sender's virtual time, ns
 *    32  s32 x, y, z position of the transmitter, millimetres (3 x 4)
 *    44  u16 802.11 frame length 46  u16 air sequence (0: none): a
 *                                        transmission's number, or in an
 *                                        ACK the number of the frame it
 *                                        acknowledges
 *    48  6 bytes: the transmitting radio's own address (zero: unknown;
 *        the links of wifi-link-set name radios by it)
 *    54  u8  fragment index     55  u8  fragment count (0 or 1: whole)
 * Version 1 (48 bytes, positions in whole metres, no radio address) is
 * not accepted: processes on one air run the same version.
 *   then the 802.11 frame (no FCS), or the fragment @index of it: an air
 *   frame is an Ethernet frame and stays within Ethernet's 1500-byte
 *   payload (a bridge, a tap or a VDE switch drops longer ones), so a
 *   longer 802.11 frame travels in fragments of 1444 bytes, each with the
 *   whole header (the length field is the whole frame's).  Over a netdev
 *   that carries longer packets (socket, stream, dgram: UDP or a stream
 *   socket) a sender may put any frame in one piece (count 0 or 1), one
 *   packet instead of two for every full-size data frame; a receiver takes
 *   both forms.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_AIR_PROTO_H
#define NET_WIFI_AIR_PROTO_H

#define WIFI_AIR_ETHERTYPE      0x88b5
#define WIFI_AIR_VERSION        2
#define WIFI_AIR_HDR_LEN        56
#define WIFI_AIR_ETH_LEN        14
#define WIFI_AIR_FRAME_MAX      2352    /* = WIFI_MAX_FRAME */
#define WIFI_AIR_F_OFDM         0x01
#define WIFI_AIR_F_SHORTPRE     0x02
#define WIFI_AIR_F_FCS_BAD      0x04
#define WIFI_AIR_F_ALL          0x07
/* an air frame's Ethernet payload, at most (header + 802.11 bytes) */
#define WIFI_AIR_MTU            1500
#define WIFI_AIR_FRAG_DATA      (WIFI_AIR_MTU - WIFI_AIR_HDR_LEN)
#define WIFI_AIR_FRAGS_MAX      2       /* 2 x 1444 >= 2352 */
/* an air frame with the longest 802.11 frame in one piece */
#define WIFI_AIR_WHOLE_MAX      (WIFI_AIR_ETH_LEN + WIFI_AIR_HDR_LEN + \
                                 WIFI_AIR_FRAME_MAX)

typedef struct WifiAirFrame {
    uint64_t sender;
    uint32_t freq_mhz;
    int8_t txpower_dbm;
    uint16_t rate_500k;
    bool ofdm;
    bool short_preamble;
    bool fcs_bad;               /* corrupted: only monitors asking see it */
    uint32_t airtime_us;
    int64_t tx_time_ns;
    int32_t pos_mm[3];          /* position, millimetres */
    uint8_t radio[6];           /* transmitting radio's address */
    uint16_t seq;               /* air sequence (see above) */
    const uint8_t *frame;       /* points into the decoded buffer */
    size_t len;                 /* the 802.11 frame's length */
    /*
     * in one piece whatever its length (encoding: the netdev carries long
     * packets; decoding: it came so, frags is 1)
     */
    bool whole;
    /* decoding: the fragment @frame points to (frag_len bytes) */
    unsigned frag, frags;
    size_t frag_len;
} WifiAirFrame;

typedef enum {
    WIFI_AIR_OK = 0,
    WIFI_AIR_NOT_OURS,          /* another EtherType: not an error */
    WIFI_AIR_SHORT,             /* truncated */
    WIFI_AIR_VERSION_MISMATCH,
    WIFI_AIR_BAD_LENGTH,        /* lengths inconsistent or out of range */
    WIFI_AIR_BAD_FIELD,         /* frequency, rate, ... out of range */
} WifiAirStatus;

/* fragments of a frame of @len bytes; bytes of the air frame of one */
unsigned wifi_air_frags(size_t len);
size_t wifi_air_size(size_t len, unsigned frag);

/* the air frames @f travels in: 1 if @f->whole, else its fragments */
unsigned wifi_air_pieces(const WifiAirFrame *f);

/*
 * encode fragment @frag of @f (the whole frame if @f->whole) into @out
 * (@outsz bytes); returns the size, 0 if it does not fit
 */
size_t wifi_air_encode(uint8_t *out, size_t outsz, const uint8_t src[6],
                       const WifiAirFrame *f, unsigned frag);

/*
 * decode and validate @len bytes of @in: @f->frame points into @in at
 * fragment @f->frag (@f->frag_len bytes) of @f->frags of an 802.11 frame
 * of @f->len bytes
 */
WifiAirStatus wifi_air_decode(const uint8_t *in, size_t len,
                              WifiAirFrame *f);

const char *wifi_air_strerror(WifiAirStatus st);

#endif
