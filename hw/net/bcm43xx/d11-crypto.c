/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331 802.11 core: the hardware key table and the frame
 * protection the firmware does with it (b43/main.c: b43_op_set_key(),
 * key_write(), keymac_write(); b43/xmit.c: b43_rx()).
 *
 * b43 (new key index API) keeps the keys in shared memory: 54 slots of 16
 * bytes at the key table pointer (SHM 0x0056, in 16-bit words), one word
 * per slot in the algorithm block at 0x05D4 (slot << 4 | algorithm), and
 * for the pairwise slots 4..53 the peer's address in RCMTA entry slot - 4.
 * Slots 0..3 are the default (group, WEP) keys by key ID.
 *
 * TX: the TX header names algorithm and slot; mac80211 has inserted the
 * IV / CCMP header, the firmware encrypts the body and appends ICV or MIC.
 * RX: a protected frame from a peer with a pairwise key, or a group frame
 * (or any frame with USEDEFKEYS, static WEP) whose key ID has a default key,
 * is decrypted in place; IV and ICV/MIC stay where they were and the RX
 * header says DEC and the slot (DECERR when it does not authenticate, and
 * b43 drops it).  Frames for which no key is known pass untouched, so
 * mac80211 can decrypt them in software.  All state is in SHM and RCMTA,
 * so nothing here needs migrating or resetting.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "net/wifi/crypto.h"
#include "net/wifi/medium.h"
#include "d11-crypto.h"
#include "trace.h"

static WifiCipher d11_cipher(unsigned alg)
{
    switch (alg) {
    case D11_KEYALG_WEP40:
        return WIFI_CIPHER_WEP40;
    case D11_KEYALG_TKIP:
        return WIFI_CIPHER_TKIP;
    case D11_KEYALG_AES:
        return WIFI_CIPHER_CCMP;
    case D11_KEYALG_WEP104:
        return WIFI_CIPHER_WEP104;
    default:
        return WIFI_CIPHER_NONE;
    }
}

/* the algorithm the slot's entry in the algorithm block names */
static unsigned d11_key_alg(D11State *m, unsigned slot)
{
    unsigned alg = d11_shm_read16(m, D11_SHM_SH_KEYIDXBLOCK + 2 * slot) & 0xf;

    if (alg > D11_KEYALG_WEP104) {
        BCM_GUEST_ERR(bcm4331_key_ub_alg, "key slot %u: unknown algorithm "
                      "%u, slot unused", slot, alg);
        return D11_KEYALG_NONE;
    }
    return alg;
}

/* the 16 key bytes of @slot; false if the key table pointer is bad */
static bool d11_key_read(D11State *m, unsigned slot, uint8_t *key)
{
    uint16_t ktp = d11_shm_read16(m, D11_SHM_SH_KTP);
    uint32_t at = ktp * 2u + slot * D11_KEY_SIZE;

    if (!d11_shm_read(m, at, key, D11_KEY_SIZE)) {
        BCM_GUEST_ERR(bcm4331_key_ub_table, "key table pointer 0x%x puts "
                      "slot %u outside shared memory", ktp, slot);
        return false;
    }
    return true;
}

/* pairwise slot whose RCMTA entry holds @ta, or -1 */
static int d11_key_by_ta(D11State *m, const uint8_t *ta)
{
    uint8_t addr[IEEE80211_ADDR_LEN];

    for (unsigned e = 0; e < D11_NR_KEYS - D11_NR_GROUP_KEYS; e++) {
        d11_rcmta_addr(m, e, addr);
        if (!memcmp(addr, ta, IEEE80211_ADDR_LEN) &&
            d11_key_alg(m, D11_NR_GROUP_KEYS + e) != D11_KEYALG_NONE) {
            return D11_NR_GROUP_KEYS + e;
        }
    }
    return -1;
}

size_t d11_tx_encrypt(D11State *m, uint32_t mac_ctl, uint8_t *f,
                      size_t len, size_t cap)
{
    unsigned alg = (mac_ctl & D11_TXH_MAC_KEYALG_MASK) >>
                   D11_TXH_MAC_KEYALG_SHIFT;
    unsigned slot = (mac_ctl & D11_TXH_MAC_KEYIDX_MASK) >>
                    D11_TXH_MAC_KEYIDX_SHIFT;
    WifiCipher c = d11_cipher(alg);
    uint8_t key[D11_KEY_SIZE];
    size_t n;

    if (c == WIFI_CIPHER_NONE || slot >= D11_NR_KEYS) {
        BCM_GUEST_ERR(bcm4331_key_ub_tx_key, "TX header asks for key "
                      "algorithm %u in slot %u: frame not sent", alg, slot);
        return 0;
    }
    if (!d11_key_read(m, slot, key)) {
        return 0;
    }
    n = wifi_encrypt(c, key, f, len, cap);
    if (!n) {
        BCM_GUEST_ERR(bcm4331_key_ub_tx_short, "frame of %zu bytes too "
                      "short for key algorithm %u: not sent", len, alg);
    }
    trace_bcm4331_key_tx(slot, alg, len, n);
    return n;
}

uint32_t d11_rx_decrypt(D11State *m, uint8_t *f, size_t len)
{
    size_t h = wifi_hdrlen(f, len);
    uint8_t key[D11_KEY_SIZE];
    unsigned alg;
    int slot = -1;
    bool ok;

    if (!h || !(f[1] & IEEE80211_FC1_PROTECTED) || len < h + 4) {
        return 0;                       /* not protected, or no IV */
    }
    if (!ieee80211_is_group(ieee80211_addr1(f))) {
        slot = d11_key_by_ta(m, ieee80211_addr2(f));
    }
    if (slot < 0 && (ieee80211_is_group(ieee80211_addr1(f)) ||
                     (d11_shm_read16(m, D11_SHM_SH_HOSTF1) &
                      D11_HF_USEDEFKEYS))) {
        slot = f[h + 3] >> 6;           /* key ID: default key */
        if (d11_key_alg(m, slot) == D11_KEYALG_NONE) {
            slot = -1;
        }
    }
    if (slot < 0 || !d11_key_read(m, slot, key)) {
        trace_bcm4331_key_rx(-1, 0, len, 0);
        return 0;                       /* no key: mac80211's business */
    }
    alg = d11_key_alg(m, slot);
    ok = wifi_decrypt(d11_cipher(alg), key, f, len);
    trace_bcm4331_key_rx(slot, alg, len, ok);
    return D11_RX_MAC_DEC | (ok ? 0 : D11_RX_MAC_DECERR) |
           (uint32_t)slot << D11_RX_MAC_KEYIDX_SHIFT;
}
