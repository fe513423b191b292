/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom BCM4331: high-level emulation (HLE) of the 802.11 core's
 * microcode, boot and MAC-state part.
 *
 * The device never executes microcode.  It watches what b43 does through
 * the MAC registers and SHM and answers as Broadcom's firmware would:
 * the upload is accepted (its first words identify our stub and its
 * personality), PSM start raises exactly MAC_SUSPENDED and publishes the
 * firmware's identity in SHM, MAC suspend/enable are acknowledged.
 * Driver side: drivers/net/wireless/broadcom/b43/main.c
 * (b43_upload_microcode, b43_mac_suspend, b43_mac_enable).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "migration/vmstate.h"
#include "net/wifi/ieee80211.h"
#include "fw.h"
#include "trace.h"

/*
 * Our stub microcode (firmware-stubs/): the payload starts with
 *   word 0 "QEMU", word 1 "HLE1", word 2 rev << 16 | patch,
 *   word 3 date << 16 | time (b43's encoding), word 4 FWCAPA.
 * b43 uploads the payload as big-endian 32-bit words.
 */
#define FW_STUB_MAGIC0          0x51454d55  /* "QEMU" */
#define FW_STUB_MAGIC1          0x484c4531  /* "HLE1" */
#define FW_STUB_HEADER_BYTES    20

typedef struct {
    uint8_t corerev;            /* the 802.11 core revision it is for */
    uint32_t bytes;             /* size of Broadcom's microcode */
    uint16_t rev, patch, date, time;
} FwPersonality;

/*
 * Broadcom's microcode: the size identifies the release.  b43's
 * ucode29_mimo.fw as b43-fwcutter extracts it (real-hardware.md); for
 * brcmsmac, the ucode16_mimo image of linux-firmware's brcm/bcm43xx-0.fw
 * (its size word, tag 11 of bcm43xx_hdr-0.fw), which has no date.  The
 * first entry of a core revision stands for an unknown release.
 */
static const FwPersonality fw_known[] = {
    { 29, 0xa8d0, 784, 2, 0xc80f, 0xac73 },     /* 2012-08-15 21:35:19 */
    { 29, 0x9b48, 666, 2, 0xb217, 0x09e7 },     /* 2011-02-23 01:15:07 */
    { 23, 0x9bb8, 610, 812, 0, 0 },
    { 17, 0x9bb8, 610, 812, 0, 0 },
};

void bcm_fw_ucode_write(FwState *fw, uint32_t word_index, uint32_t v,
                        uint32_t mask)
{

    if (fw->psm_running) {
        /* the instruction memory is not writable while the PSM runs */
        BCM_GUEST_ERR(bcm4331_fw_ub_ucode_write, "microcode write while the "
                      "PSM runs (word %u)", word_index);
        return;
    }
    if (word_index == 0) {
        fw->ucode_bytes = 0;        /* an upload starts at the beginning */
    }
    if (word_index < ARRAY_SIZE(fw->ucode_head)) {
        fw->ucode_head[word_index] =
            (fw->ucode_head[word_index] & ~mask) | (v & mask);
    }
    /* upload size = highest word written; bounded by the 16-bit offset */
    fw->ucode_bytes = MAX(fw->ucode_bytes, (word_index + 1) * 4);
}

static void bcm_fw_boot(FwState *fw, D11State *m)
{
    if (fw->ucode_bytes == 0) {
        /* nothing to run: the PSM never signals (driver times out) */
        trace_bcm4331_fw_no_ucode(fw->ucode_bytes);
        return;
    }
    if (fw->ucode_head[0] == FW_STUB_MAGIC0 &&
        fw->ucode_head[1] == FW_STUB_MAGIC1) {
        if (fw->ucode_bytes < FW_STUB_HEADER_BYTES) {
            /* a truncated stub: garbage microcode, the PSM never signals */
            BCM_GUEST_ERR(bcm4331_fw_no_ucode, "stub microcode truncated "
                          "(%u bytes): PSM does not start", fw->ucode_bytes);
            return;
        }
        fw->rev = fw->ucode_head[2] >> 16;
        fw->patch = fw->ucode_head[2];
        fw->date = fw->ucode_head[3] >> 16;
        fw->time = fw->ucode_head[3];
        fw->fwcapa = fw->ucode_head[4];
        fw->stub = true;
    } else {
        const FwPersonality *p = NULL, *first = NULL;

        for (unsigned i = 0; i < ARRAY_SIZE(fw_known) && !p; i++) {
            if (fw_known[i].corerev == fw->corerev) {
                first = first ? first : &fw_known[i];
                p = fw_known[i].bytes == fw->ucode_bytes ? &fw_known[i] : NULL;
            }
        }
        /* unknown: the core's first release */
        p = p ? p : first ? first : &fw_known[0];
        fw->rev = p->rev;
        fw->patch = p->patch;
        fw->date = p->date;
        fw->time = p->time;
        fw->fwcapa = 0;
        fw->stub = false;
    }
    trace_bcm4331_fw_boot(fw->stub ? "stub" : "Broadcom (not executed, "
                          "emulated)", fw->rev, fw->patch, fw->ucode_bytes);

    /* what the microcode publishes once running (after b43 zeroed SHM) */
    d11_shm_write16(m, D11_SHM_SH_UCODEREV, fw->rev);
    d11_shm_write16(m, D11_SHM_SH_UCODEPATCH, fw->patch);
    d11_shm_write16(m, D11_SHM_SH_UCODEDATE, fw->date);
    d11_shm_write16(m, D11_SHM_SH_UCODETIME, fw->time);
    d11_shm_write16(m, D11_SHM_SH_UCODESTAT, D11_UCODESTAT_SUSP);
    d11_shm_write16(m, D11_SHM_SH_FWCAPA, fw->fwcapa);
    d11_shm_write16(m, D11_SHM_SH_KTP, D11_KTP_DEFAULT);
    d11_scratch_write(m, D11_SHM_SC_WATCHDOG, 0);
    fw->psm_running = true;

    /* the "alive" handshake: exactly MAC_SUSPENDED, nothing else */
    d11_set_irq_reason(m, D11_IRQ_MAC_SUSPENDED);
}

bool bcm_fw_running(FwState *fw)
{
    return fw->psm_running;
}

/* MACCTL went from @old to @val: what it asks of the hub (BCM_FW_*) */
unsigned bcm_fw_macctl_changed(FwState *fw, D11State *m, uint32_t old,
                               uint32_t val)
{
    unsigned ev = 0;
    bool jmp0 = FIELD_EX32(val, D11_MACCTL, PSM_JMP0);
    bool run = FIELD_EX32(val, D11_MACCTL, PSM_RUN);

    if (jmp0 && !FIELD_EX32(old, D11_MACCTL, PSM_JMP0)) {
        /* PSM held at address 0: stopped, ready for a new upload */
        if (fw->psm_running) {
            trace_bcm4331_fw_stop();
        }
        bcm_fw_reset(fw);
        ev |= BCM_FW_PSM_RESET;
        trace_bcm4331_fw_ucode_upload_start();
    }
    if (fw->psm_running && !run) {
        trace_bcm4331_fw_stop();
        fw->psm_running = false;
    }
    if (run && !jmp0 && !fw->psm_running &&
        (!FIELD_EX32(old, D11_MACCTL, PSM_RUN) ||
         FIELD_EX32(old, D11_MACCTL, PSM_JMP0))) {
        bcm_fw_boot(fw, m);
        return ev;
    }
    if (!fw->psm_running) {
        return ev;
    }
    if (FIELD_EX32(old, D11_MACCTL, ENABLED) &&
        !FIELD_EX32(val, D11_MACCTL, ENABLED)) {
        /* suspend: stop at a frame boundary, then say so */
        d11_shm_write16(m, D11_SHM_SH_UCODESTAT, D11_UCODESTAT_SUSP);
        trace_bcm4331_fw_suspend();
        d11_raise_irq(m, D11_IRQ_MAC_SUSPENDED);
    } else if (!FIELD_EX32(old, D11_MACCTL, ENABLED) &&
               FIELD_EX32(val, D11_MACCTL, ENABLED)) {
        d11_shm_write16(m, D11_SHM_SH_UCODESTAT, D11_UCODESTAT_ACTIVE);
        trace_bcm4331_fw_enable();
        ev |= BCM_FW_MAC_ENABLED;   /* frames posted while suspended go out */
    }
    return ev;
}

/* ---- beacons (AP, mesh, IBSS): b43/main.c b43_update_templates() ---- */

#define FW_SHM_DTIMPER          0x0012
#define FW_SHM_BTL0             0x0018
#define FW_SHM_BTL1             0x001a
#define FW_SHM_TIMBPOS          0x001e
#define FW_SHM_BEACPHYCTL       0x0054
#define FW_TPL_BEACON0          0x068
#define FW_TPL_BEACON1          0x468
#define FW_MACCMD_BEACON_VALID(i) (1u << (i))

/* the firmware beacons in AP/mesh (MACCTL.AP) and IBSS (INFRA clear) */
static bool bcm_fw_beaconing(FwState *fw, D11State *m)
{
    uint32_t c = d11_macctl(m);

    return fw->psm_running && FIELD_EX32(c, D11_MACCTL, ENABLED) &&
           !FIELD_EX32(c, D11_MACCTL, TBTTHOLD) &&
           (FIELD_EX32(c, D11_MACCTL, AP) || !FIELD_EX32(c, D11_MACCTL, INFRA));
}

static uint32_t bcm_fw_beacon_interval_us(D11State *m)
{
    /* CFP_REP bits 31:6: beacon interval in us (b43 writes TU << 16) */
    return d11_reg(m, A_D11_TSF_CFP_REP) >> 6;
}

/* the TBTT timer follows the beacon registers, the TSF and MACCTL */
void bcm_fw_tbtt_update(FwState *fw, D11State *m)
{
    uint32_t iv = bcm_fw_beacon_interval_us(m);
    uint32_t start = d11_reg(m, A_D11_TSF_CFP_START);
    uint64_t tsf, next;

    if (!fw->tbtt_timer) {
        return;
    }
    /* at least 1 TU: a guest cannot make the firmware beacon in a loop */
    if (!bcm_fw_beaconing(fw, m) || iv < 1024) {
        timer_del(fw->tbtt_timer);
        return;
    }
    tsf = d11_tsf_now(m);
    if ((uint32_t)tsf < start) {
        next = (tsf & ~0xffffffffull) | start;
    } else {
        next = tsf + iv - ((uint32_t)tsf - start) % iv;
    }
    timer_mod(fw->tbtt_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (int64_t)(next - tsf) * SCALE_US);
}

/*
 * The beacon of template @t into @b (no beacon if its length is invalid),
 * with the firmware's DTIM count in its TIM and the TSF as its timestamp
 */
static void bcm_fw_beacon(FwState *fw, D11State *m, unsigned t,
                          bool mcast_posted, BcmFwBeacon *b)
{
    uint32_t base = t ? FW_TPL_BEACON1 : FW_TPL_BEACON0;
    uint32_t len = d11_shm_read16(m, t ? FW_SHM_BTL1 : FW_SHM_BTL0);
    uint32_t timpos = d11_shm_read16(m, FW_SHM_TIMBPOS);
    uint8_t period = d11_shm_read16(m, FW_SHM_DTIMPER);
    uint8_t *tpl = b->tpl;
    uint8_t *frame = tpl + BCM_FW_BEACON_PLCP;
    bool dtim = false;

    /* the length includes the 6-byte PLCP; bounded by the template */
    if (len < 6 + 24 + 12 || len > BCM_FW_BEACON_MAX ||
        !d11_template_read(m, base, tpl, len)) {
        BCM_GUEST_ERR(bcm4331_fw_ub_beacon_len, "beacon template %u length "
                      "%u invalid", t, len);
        return;
    }
    /*
     * TIM: the firmware's own DTIM count, multicast-after-DTIM bit.
     * TIMBPOS comes from the guest: it must point past PLCP, MAC header
     * and fixed fields, and the element must fit in the template.
     */
    if (timpos >= 6 + IEEE80211_HDR_LEN + 12 && timpos + 4 < len &&
        tpl[timpos] == IEEE80211_EID_TIM &&
        tpl[timpos + 1] >= 4) {
        uint8_t *tim = frame + timpos - 6;

        tim[2] = fw->dtim_count;
        dtim = fw->dtim_count == 0;
        if (dtim && mcast_posted) {
            tim[4] |= 1;        /* group frames follow */
        }
        fw->dtim_count = fw->dtim_count ? fw->dtim_count - 1
                                        : (period ? period - 1 : 0);
    } else {
        dtim = true;
    }
    /* timestamp: the TSF at transmission */
    stq_le_p(frame + 24, d11_tsf_now(m));
    trace_bcm4331_fw_beacon(t, len - 6, dtim);
    b->len = len - BCM_FW_BEACON_PLCP;
    b->ofdm = d11_shm_read16(m, FW_SHM_BEACPHYCTL) & 1;
    b->dtim = dtim;     /* the group frames follow */
}

/*
 * A TBTT: false when the firmware does not beacon (the timer stops);
 * else the beacon to send in @b (b->len 0: none), and the hub sends it
 * and moves the timer on (bcm_fw_tbtt_update()).  @mcast_posted: engine 4
 * has group frames.
 */
bool bcm_fw_tbtt(FwState *fw, D11State *m, bool mcast_posted,
                 BcmFwBeacon *b)
{
    unsigned a = fw->beacon_active, o = !a;

    b->len = 0;
    if (!bcm_fw_beaconing(fw, m)) {
        return false;
    }
    /* template ping-pong: switch to a newly validated template */
    if (d11_maccmd(m) & FW_MACCMD_BEACON_VALID(o)) {
        d11_maccmd_clear(m, FW_MACCMD_BEACON_VALID(a));
        fw->beacon_active = a = o;
        d11_raise_irq(m, D11_IRQ_BEACON);
    }
    if (d11_maccmd(m) & FW_MACCMD_BEACON_VALID(a)) {
        bcm_fw_beacon(fw, m, a, mcast_posted, b);
    }
    return true;
}

/* the TBTT timer calls @tbtt (the hub's, which calls bcm_fw_tbtt()) */
void bcm_fw_init(FwState *fw, QEMUTimerCB *tbtt, void *opaque)
{
    fw->tbtt_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, tbtt, opaque);
}

void bcm_fw_exit(FwState *fw)
{
    timer_free(fw->tbtt_timer);
    fw->tbtt_timer = NULL;
}

/*
 * A core reset or PSM_JMP0: the PSM stops; its instruction memory keeps
 * the microcode (brcmsmac uploads it once per power-up and restarts the
 * PSM on it at every "up", main.c brcms_ucode_download()).
 */
void bcm_fw_reset(FwState *fw)
{
    fw->beacon_active = 0;
    fw->dtim_count = 0;
    if (fw->tbtt_timer) {
        timer_del(fw->tbtt_timer);
    }
    fw->psm_running = false;
}

/* power-on: the instruction memory is empty */
void bcm_fw_clear_ucode(FwState *fw)
{
    fw->ucode_bytes = 0;
    memset(fw->ucode_head, 0, sizeof(fw->ucode_head));
}

static int bcm_fw_post_load(void *opaque, int version_id)
{
    FwState *fw = opaque;

    return fw->ucode_bytes > 0x40000 || fw->beacon_active > 1 ? -EINVAL : 0;
}

const VMStateDescription vmstate_bcm_fw = {
    .name = "bcm4331-fw",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = bcm_fw_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(psm_running, FwState),
        VMSTATE_UINT32(ucode_bytes, FwState),
        VMSTATE_UINT32_ARRAY(ucode_head, FwState, 8),
        VMSTATE_UINT16(rev, FwState),
        VMSTATE_UINT16(patch, FwState),
        VMSTATE_UINT16(date, FwState),
        VMSTATE_UINT16(time, FwState),
        VMSTATE_UINT16(fwcapa, FwState),
        VMSTATE_BOOL(stub, FwState),
        VMSTATE_UINT8(beacon_active, FwState),
        VMSTATE_UINT8(dtim_count, FwState),
        VMSTATE_END_OF_LIST()
    },
};
