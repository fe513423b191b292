/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's pcap view of the air: link type 127 (radiotap),
 * every frame with its FCS as the air carried it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include <zlib.h>
#include "pcap.h"
#include "trace.h"

/* ---- pcap: link type 127, radiotap + frame + FCS ---------------------- */

void wifi_pcap_open(WifiMedium *m, Error **errp)
{
    static const uint8_t hdr[24] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,     /* magic, version 2.4 */
        0, 0, 0, 0, 0, 0, 0, 0,                 /* tz, sigfigs */
        0xff, 0xff, 0, 0, 127, 0, 0, 0,         /* snaplen, radiotap */
    };

    m->pcap_file = fopen(m->pcap, "wb");
    if (!m->pcap_file) {
        error_setg_errno(errp, errno, "wifi-medium: cannot open pcap=%s",
                         m->pcap);
        return;
    }
    if (fwrite(hdr, sizeof(hdr), 1, m->pcap_file) != 1) {
        error_setg_errno(errp, errno, "wifi-medium: cannot write pcap=%s",
                         m->pcap);
        wifi_pcap_close(m);
        return;
    }
    m->pcap_size = sizeof(hdr);
}

void wifi_pcap_close(WifiMedium *m)
{
    if (m->pcap_file) {
        fclose(m->pcap_file);
        m->pcap_file = NULL;
    }
}

void wifi_pcap_record(WifiMedium *m, int64_t ns, const uint8_t *frame,
                      size_t len, const WifiFrameMeta *meta, int8_t signal)
{
    uint8_t rec[16], rt[15];
    uint8_t fcs[4];
    size_t caplen = sizeof(rt) + len + sizeof(fcs);
    uint32_t crc = crc32(0, frame, len);

    if (!m->pcap_file) {
        return;
    }
    /*
     * Bounded, as a peer can flood the air: past pcap-max-size the file
     * stops growing (a warning once, the frames counted in pcap-dropped)
     */
    if (m->pcap_max_size &&
        m->pcap_size + sizeof(rec) + caplen > m->pcap_max_size) {
        if (!m->pcap_dropped++) {
            warn_report("wifi-medium: pcap=%s reached pcap-max-size "
                        "(%" PRIu64 " bytes): later frames are not written",
                        m->pcap, m->pcap_max_size);
        }
        trace_wifi_pcap_full(m->pcap_dropped);
        return;
    }
    m->pcap_size += sizeof(rec) + caplen;
    stl_le_p(rec, ns / NANOSECONDS_PER_SECOND);
    stl_le_p(rec + 4, (ns % NANOSECONDS_PER_SECOND) / 1000);
    stl_le_p(rec + 8, caplen);
    stl_le_p(rec + 12, caplen);
    /*
     * radiotap: flags (FCS at end, bad FCS, short preamble), rate,
     * channel, signal
     */
    rt[0] = 0;
    rt[1] = 0;
    stw_le_p(rt + 2, sizeof(rt));
    stl_le_p(rt + 4, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5));
    rt[8] = 0x10 | (meta->fcs_bad ? 0x40 : 0) |
            (meta->short_preamble ? 0x02 : 0);
    rt[9] = meta->rate_500k;
    stw_le_p(rt + 10, meta->freq_mhz);
    stw_le_p(rt + 12, (meta->freq_mhz < 3000 ? 0x0080 : 0x0100) |
             (meta->ofdm ? 0x0040 : 0x0020));
    rt[14] = signal;
    /* a corrupted frame carries the complement of its FCS */
    stl_le_p(fcs, meta->fcs_bad ? ~crc : crc);
    if (fwrite(rec, sizeof(rec), 1, m->pcap_file) != 1 ||
        fwrite(rt, sizeof(rt), 1, m->pcap_file) != 1 ||
        fwrite(frame, len, 1, m->pcap_file) != 1 ||
        fwrite(fcs, sizeof(fcs), 1, m->pcap_file) != 1) {
        warn_report_once("wifi-medium: writing pcap=%s failed", m->pcap);
    }
    fflush(m->pcap_file);
}
