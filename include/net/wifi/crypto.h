/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 802.11 frame protection (WEP, TKIP, CCMP) and the WPA2-PSK key
 * derivations, shared by the emulated cards and the virtual access point.
 * AES is QEMU's (crypto/aes.h) and HMAC-SHA1 GLib's; RC4, AES-CCM, PBKDF2
 * and the AES key wrap are built on them in crypto.c, with the 802.11
 * constructions (IV/ICV layout, the CCMP nonce and AAD, TKIP key mixing).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_CRYPTO_H
#define NET_WIFI_CRYPTO_H

typedef enum WifiCipher {
    WIFI_CIPHER_NONE,
    WIFI_CIPHER_WEP40,
    WIFI_CIPHER_WEP104,
    WIFI_CIPHER_TKIP,
    WIFI_CIPHER_CCMP,
} WifiCipher;

#define WIFI_TK_LEN         16      /* WEP-104 uses 13, WEP-40 5 bytes */
#define WIFI_CCMP_HDR_LEN   8
#define WIFI_CCMP_MIC_LEN   8
#define WIFI_WEP_IV_LEN     4
#define WIFI_TKIP_IV_LEN    8
#define WIFI_ICV_LEN        4

/* length of the MAC header of @f (0 if @len is too short for it) */
size_t wifi_hdrlen(const uint8_t *f, size_t len);

/* bytes the cipher inserts after the MAC header / appends at the end */
size_t wifi_cipher_iv_len(WifiCipher c);
size_t wifi_cipher_tail_len(WifiCipher c);

/*
 * Encrypt @f (@len bytes, no FCS) in place: MAC header, then the IV or
 * CCMP header as the sender inserted it, then the plaintext body.  The
 * body is encrypted and the ICV (WEP, TKIP) or MIC (CCMP) appended; @cap
 * is the room in @f.  Returns the new length, 0 if the frame is malformed
 * (too short, no room).  The key is 16 bytes (WEP keys zero-padded).
 */
size_t wifi_encrypt(WifiCipher c, const uint8_t *key, uint8_t *f,
                    size_t len, size_t cap);

/*
 * Decrypt @f in place and check its ICV/MIC.  The frame keeps its length:
 * header, IV, plaintext body, then the (decrypted) ICV or the MIC.
 * Returns false if the frame is malformed or does not authenticate (the
 * body is then garbage: drop the frame).
 */
bool wifi_decrypt(WifiCipher c, const uint8_t *key, uint8_t *f, size_t len);

/* the 48-bit packet number (CCMP) or TSC (TKIP) of a protected frame */
uint64_t wifi_frame_pn(WifiCipher c, const uint8_t *f, size_t len);

/* TKIP key mixing (IEEE 802.11-2020 12.5.2.5), exposed for the tests */
void wifi_tkip_phase1(uint16_t ttak[5], const uint8_t *tk, const uint8_t *ta,
                      uint32_t iv32);
void wifi_tkip_phase2(uint8_t rc4key[16], const uint16_t ttak[5],
                      const uint8_t *tk, uint16_t iv16);

/* WPA2-PSK (IEEE 802.11-2020 12.7.1, J.4) */
void wifi_psk_pmk(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
                  uint8_t pmk[32]);
void wifi_prf_sha1(const uint8_t *key, size_t key_len, const char *label,
                   const uint8_t *data, size_t data_len, uint8_t *out,
                   size_t out_len);
void wifi_hmac_sha1_128(const uint8_t *key, const uint8_t *data, size_t len,
                        uint8_t mic[16]);
/*
 * RFC 3394 AES key wrap: @len plaintext bytes (a multiple of 8, >= 16) to
 * @len + 8; unwrap takes the wrapped length and writes @len - 8 bytes.
 */
void wifi_aes_wrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                   uint8_t *out);
bool wifi_aes_unwrap(const uint8_t kek[16], const uint8_t *in, size_t len,
                     uint8_t *out);

#endif
