/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium with airtime on: every transmission on the air (data,
 * RTS, CTS, ACK; local or from other processes) for carrier sense and
 * interference, contention (DIFS, backoff, the NAV), RTS/CTS, frames with
 * their retries, and frames from other processes on the air since they
 * started.
 *
 * What a radio senses and what a receiver gets are judged per radio, from
 * what reaches it (the link model of medium-radio.c): two stations that
 * cannot hear each other both find the channel idle, and their frames
 * collide at an access point that hears both (hidden stations) unless an
 * RTS/CTS exchange sets the hidden one's NAV.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/timer.h"
#include "medium-airtime.h"
#include "medium-channel.h"
#include "medium-link.h"
#include "medium-radio.h"
#include "pcap.h"
#include "net/wifi/per.h"
#include "trace.h"

/* ---- local transmissions: contention, RTS/CTS, the frame, retries ------- */

static void wifi_job_timer(void *opaque);

/*
 * The next step of @j at @when.  The air's timeline follows the due
 * times, not when the host gets to run the timer: a late timer delays the
 * radios' view of the air, not the air itself.
 */
static void wifi_job_arm(WifiTxJob *j, WifiJobPhase phase, int64_t when)
{
    j->phase = phase;
    j->due_ns = when;
    timer_mod(j->timer, when);
}

static WifiTxJob *wifi_job_new(WifiMedium *m, WifiMediumClient *from,
                               const uint8_t *frame, size_t len,
                               const WifiFrameMeta *meta)
{
    WifiTxJob *j = g_malloc0(sizeof(*j) + len);

    j->m = m;
    j->from = from;
    j->meta = *meta;
    j->len = len;
    memcpy(j->data, frame, len);
    j->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_job_timer, j);
    return j;
}

void wifi_job_free(WifiTxJob *j)
{
    timer_free(j->timer);
    g_free(j);
}

static bool wifi_job_expects_ack(WifiTxJob *j)
{
    return j->from && wifi_wants_ack(j->data);
}

/* draw the backoff for the next attempt: uniform in [0, CW] */
static void wifi_job_backoff(WifiTxJob *j)
{
    uint32_t cw = wifi_cw(j->meta.ofdm, j->attempts + j->rts_failures);

    j->backoff = wifi_random(j->m) % (cw + 1);
}

/* wait until the channel is idle for the sender, then DIFS and backoff */
static void wifi_job_contend(WifiTxJob *j, int64_t now)
{
    int64_t idle = wifi_busy_until(j->m, j->from, now, j->meta.ofdm);

    j->countdown_ns = idle + SCALE_US * wifi_difs_us(j->meta.ofdm);
    wifi_job_arm(j, WIFI_JOB_CONTEND, j->countdown_ns + SCALE_US *
                 (int64_t)j->backoff * wifi_slot_us(j->meta.ofdm));
}

/*
 * The backoff's timer ran out: the idle slots since the countdown began
 * are spent.  Other transmissions may have taken the channel meanwhile
 * (802.11-2020 10.3.4.3: the countdown is suspended while the channel is
 * busy, not redrawn): true when the station may transmit now; else it
 * keeps what is left and waits for the channel again.  Without that a
 * station that lost once kept its large count against a rival's fresh
 * draws and starved.
 */
static bool wifi_job_may_send(WifiTxJob *j, int64_t now)
{
    uint32_t n = wifi_idle_slots(j->m, j->from, j->countdown_ns, now,
                                 j->meta.ofdm);
    bool busy = wifi_busy_until(j->m, j->from, now, j->meta.ofdm) > now;

    if (!busy && n >= j->backoff) {
        return true;
    }
    j->backoff -= MIN(n, j->backoff);
    if (busy) {
        wifi_job_contend(j, now);   /* after the channel and a DIFS */
    } else {
        /* idle now, with slots left: counting on (no second DIFS) */
        j->countdown_ns = now;
        wifi_job_arm(j, WIFI_JOB_CONTEND, now + SCALE_US *
                     (int64_t)j->backoff * wifi_slot_us(j->meta.ofdm));
    }
    return false;
}

/* a control frame (RTS, CTS) from @from at @start: on the air, delivered */
static const WifiEmission *wifi_ctrl_frame(WifiMedium *m,
                                           WifiMediumClient *from,
                                           const uint8_t *frame, size_t len,
                                           const WifiFrameMeta *dm,
                                           uint16_t rate, bool ofdm,
                                           int64_t start)
{
    WifiFrameMeta meta = {
        .freq_mhz = dm->freq_mhz,
        .txpower_dbm = from->txpower_dbm,
        .rate_500k = rate,
        .ofdm = ofdm,
        .short_preamble = dm->short_preamble,
        .tx_time_ns = start,
    };
    WifiSite site;

    meta.airtime_us = wifi_airtime_us(len + IEEE80211_FCS_LEN, rate, ofdm,
                                      meta.short_preamble);
    wifi_client_site(from, &site);
    return wifi_emit(m, start, start + SCALE_US * meta.airtime_us,
                     meta.freq_mhz, meta.txpower_dbm, from->radio_id, &site);
}

/* ... and, once over, to the pcap, the local radios, other processes */
static WifiMediumClient *wifi_ctrl_deliver(WifiMedium *m,
                                           WifiMediumClient *from,
                                           const uint8_t *frame, size_t len,
                                           const WifiEmission *e,
                                           const WifiFrameMeta *dm,
                                           uint16_t rate, bool ofdm)
{
    WifiFrameMeta meta = {
        .freq_mhz = e->freq_mhz,
        .txpower_dbm = e->txpower_dbm,
        .rate_500k = rate,
        .ofdm = ofdm,
        .short_preamble = dm->short_preamble,
        .tx_time_ns = e->start_ns,
        .airtime_us = (e->end_ns - e->start_ns) / SCALE_US,
    };
    WifiMediumClient *addressee = NULL;

    wifi_pcap_write(m, e->start_ns, frame, len, &meta,
                    meta.txpower_dbm - 40);
    wifi_link_send(m, &e->site, frame, len, &meta, 0);

    wifi_medium_local(m, &(WifiLocalTx){ from, &e->site, frame, len, &meta, e },
                      &addressee);
    return addressee;
}

static void wifi_job_exchange_end(WifiTxJob *j, int64_t now,
                                  int64_t next_not_before);

/* the data frame leaves (after contention, or SIFS after a CTS) */
static void wifi_job_frame_start(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    const WifiEmission *e;

    j->attempts++;
    if (j->attempts > 1) {
        /* a retransmission: at the fallback rate, when it is time */
        wifi_meta_for_attempt(&j->meta, j->attempts, j->len);
        j->data[1] |= IEEE80211_FC1_RETRY;
        j->from->stats.tx_retries++;
    }
    m->frames++;
    j->from->stats.tx_frames++;
    j->from->stats.tx_bytes += j->len;
    j->meta.fcs_bad = wifi_fcs_error(m);
    j->meta.tx_time_ns = now;
    j->start_ns = now;
    trace_wifi_medium_airtime_tx(j->from->name, j->meta.freq_mhz, j->len,
                                 j->meta.rate_500k, j->attempts,
                                 j->meta.airtime_us);
    e = wifi_emit(m, now, now + SCALE_US * j->meta.airtime_us,
                  j->meta.freq_mhz, j->meta.txpower_dbm, j->from->radio_id,
                  &j->site);
    j->emission = e;
    j->air_seq = wifi_link_send(m, &j->site, j->data, j->len, &j->meta, 0);
    wifi_job_arm(j, WIFI_JOB_FRAME, e->end_ns);
}

/* contention won: the protection first, if any, else the frame */
static void wifi_job_start(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    const WifiEmission *e;
    uint8_t cts[IEEE80211_ACK_LEN];

    if (!wifi_job_may_send(j, now)) {
        return;
    }
    if (j->meta.prot == WIFI_PROT_RTS && wifi_job_expects_ack(j)) {
        j->rts_attempts++;
        e = wifi_ctrl_frame(m, j->from, j->meta.prot_frame, WIFI_RTS_LEN,
                            &j->meta, j->meta.prot_rate_500k,
                            j->meta.prot_ofdm, now);
        trace_wifi_medium_rts(j->from->name, j->rts_attempts);
        j->emission = e;
        wifi_job_arm(j, WIFI_JOB_PROT, e->end_ns);
        return;
    }
    if (j->meta.prot == WIFI_PROT_CTS) {
        memcpy(cts, j->meta.prot_frame, sizeof(cts));
        e = wifi_ctrl_frame(m, j->from, cts, sizeof(cts), &j->meta,
                            j->meta.prot_rate_500k, j->meta.prot_ofdm, now);
        j->emission = e;
        wifi_job_arm(j, WIFI_JOB_PROT, e->end_ns);
        return;
    }
    wifi_job_frame_start(j, now);
}

/* an RTS got no CTS: contend again from @not_before, or give the frame up */
static void wifi_job_rts_failed(WifiTxJob *j, int64_t now,
                                int64_t not_before)
{
    j->rts_failures++;
    trace_wifi_medium_rts_failed(j->from->name, j->rts_failures);
    if (j->rts_failures >= MAX(j->meta.prot_limit, 1)) {
        wifi_job_exchange_end(j, now, now);
        return;
    }
    wifi_job_backoff(j);
    wifi_job_contend(j, not_before);
}

/*
 * The RTS (or CTS-to-self) is over.  A CTS-to-self: the frame follows
 * after SIFS.  An RTS: the addressee, if it got it intact and its NAV is
 * idle, answers with a CTS after SIFS; without one the RTS failed.
 */
static void wifi_job_prot_end(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    const WifiEmission *e = j->emission;
    WifiMediumClient *r;
    uint8_t cts[IEEE80211_ACK_LEN] = {
        IEEE80211_FC0(IEEE80211_TYPE_CTRL, IEEE80211_STYPE_CTS), 0,
    };
    uint16_t cts_rate = wifi_ack_rate(j->meta.prot_rate_500k,
                                      j->meta.prot_ofdm);
    uint32_t cts_us;
    int32_t dur;

    if (j->meta.prot == WIFI_PROT_CTS) {
        wifi_ctrl_deliver(m, j->from, j->meta.prot_frame, IEEE80211_ACK_LEN,
                          e, &j->meta, j->meta.prot_rate_500k,
                          j->meta.prot_ofdm);
        wifi_job_arm(j, WIFI_JOB_SIFS, now + WIFI_SIFS_US * SCALE_US);
        return;
    }
    r = wifi_ctrl_deliver(m, j->from, j->meta.prot_frame, WIFI_RTS_LEN, e,
                          &j->meta, j->meta.prot_rate_500k,
                          j->meta.prot_ofdm);
    cts_us = wifi_airtime_us(WIFI_ACK_BYTES, cts_rate, j->meta.prot_ofdm,
                             j->meta.short_preamble);
    if (!r && m->nic &&
        wifi_remote_acks(m, j->meta.prot_frame + 4, j->meta.freq_mhz)) {
        /*
         * The addressee lives in another process: its CTS is taken as
         * given (that process sends none of its own), as an ACK is
         */
        wifi_job_arm(j, WIFI_JOB_SIFS, now + (2 * WIFI_SIFS_US + cts_us) *
                     SCALE_US);
        return;
    }
    if (r && r->nav_until_ns <= e->start_ns) {
        /* CTS: RA = the RTS's TA, Duration = the RTS's less SIFS + CTS */
        dur = lduw_le_p(j->meta.prot_frame + 2) - WIFI_SIFS_US - cts_us;
        stw_le_p(cts + 2, MAX(dur, 0));
        memcpy(cts + 4, j->meta.prot_frame + 10, 6);
        j->responder = r->radio_id;     /* it may be unplugged meanwhile */
        memcpy(j->cts, cts, sizeof(j->cts));
        j->emission = wifi_ctrl_frame(m, r, cts, sizeof(cts), &j->meta,
                                      cts_rate, j->meta.prot_ofdm,
                                      now + WIFI_SIFS_US * SCALE_US);
        wifi_job_arm(j, WIFI_JOB_CTS, now + (WIFI_SIFS_US + cts_us) *
                     SCALE_US);
        return;
    }
    /* no CTS: after the CTS timeout, contend again or give up */
    wifi_job_rts_failed(j, now, now + SCALE_US *
                        wifi_ack_us(j->meta.prot_rate_500k, j->meta.prot_ofdm,
                                    j->meta.short_preamble));
}

/* the addressee's CTS is over: the sender got it, or the RTS failed */
static void wifi_job_cts_end(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiMediumClient *r = wifi_radio_by_id(m, j->responder);
    const WifiEmission *e = j->emission;
    uint16_t cts_rate = wifi_ack_rate(j->meta.prot_rate_500k,
                                      j->meta.prot_ofdm);
    bool got = false;

    j->responder = 0;
    if (r) {
        WifiPath p;

        wifi_ctrl_deliver(m, r, j->cts, sizeof(j->cts), e, &j->meta,
                          cts_rate, j->meta.prot_ofdm);
        /* the sender's own reception of it, interference included */
        wifi_path(m, r, &e->site, e->txpower_dbm, j->from, &p);
        if (p.heard && !wifi_half_duplex(m, j->from, e)) {
            double n = pow(10.0, m->noise_floor_dbm / 10.0);

            p.snr_db = p.signal_dbm -
                       10.0 * log10(n + wifi_interference_mw(m, j->from, e));
            got = wifi_path_survives(m, &p, cts_rate, j->meta.prot_ofdm,
                                     j->meta.short_preamble, WIFI_ACK_BYTES);
        }
    }
    if (got) {
        wifi_job_arm(j, WIFI_JOB_SIFS, now + WIFI_SIFS_US * SCALE_US);
        return;
    }
    wifi_job_rts_failed(j, now, now);
}

/* the last bit is on the air: receivers get it (or not) */
static void wifi_job_frame_end(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiMediumClient *acker;
    WifiFrameMeta meta = j->meta;
    const WifiEmission *e = j->emission;

    wifi_pcap_write(m, j->start_ns, j->data, j->len, &meta,
                    meta.txpower_dbm - 40);
    acker = wifi_medium_local(m, &(WifiLocalTx){ j->from, &j->site, j->data,
                                                 j->len, &meta, e }, NULL);
    if (acker && !j->from) {
        wifi_rx_delivered(m, j->sender, j->data, j->len);
    }
    if (acker) {
        wifi_medium_ack(m, acker, j->data, j->len, &meta, now,
                        j->from ? 0 : j->air_seq);
    }
    if (!j->from) {
        m->remote_on_air--;
        QTAILQ_REMOVE(&m->remote_jobs, j, remote_next);
        wifi_job_free(j);           /* from another process: done */
        return;
    }
    j->acked = acker;
    if (!acker && m->nic && !meta.fcs_bad && wifi_wants_ack(j->data)) {
        /*
         * To a station in another process: acknowledged if it lives
         * there, and kept until its ACK comes back (wifi_arq), as with
         * airtime off.  That ACK may have come already: the frame went on
         * the netdev when it started (wifi_arq_early).
         */
        j->acked = wifi_remote_acks(m, j->data + 4, meta.freq_mhz);
        if (j->acked) {
            wifi_arq_add(m, j->air_seq, &j->site, j->data, j->len, &meta);
        }
    }
    wifi_job_exchange_end(j, now, now + (wifi_job_expects_ack(j) ?
        SCALE_US * wifi_ack_us(meta.rate_500k, meta.ofdm,
                               meta.short_preamble) : 0));
}

/*
 * The outcome is known: retry, or report and let the next frame contend.
 * A retry or the next frame contends once the ACK (or its timeout) is
 * over, @next_not_before; the sender hears of the outcome now.
 */
static void wifi_job_exchange_end(WifiTxJob *j, int64_t now,
                                  int64_t next_not_before)
{
    WifiMediumClient *c = j->from;
    WifiTxJob *head;
    WifiTxResult r = {
        .acked = j->acked,
        .attempts = j->attempts,
        .rts_attempts = j->rts_attempts,
    };
    bool notify = j->notify;

    if (wifi_job_expects_ack(j) && !j->acked &&
        j->attempts < j->retry_limit &&
        j->rts_failures < MAX(j->meta.prot_limit, 1)) {
        wifi_job_backoff(j);
        wifi_job_contend(j, next_not_before);
        return;
    }
    trace_wifi_medium_tx_done(c->name, r.acked, r.attempts);
    QSIMPLEQ_REMOVE_HEAD(&c->txq, next);
    c->txq_len--;
    wifi_job_free(j);
    head = QSIMPLEQ_FIRST(&c->txq);
    if (head) {
        wifi_job_contend(head, next_not_before);
    }
    /* last: the callback may queue the radio's next frame */
    if (notify && c->ops->tx_done) {
        c->ops->tx_done(c, &r);
    }
}

static void wifi_job_timer(void *opaque)
{
    WifiTxJob *j = opaque;

    switch (j->phase) {
    case WIFI_JOB_CONTEND:
        wifi_job_start(j, j->due_ns);
        break;
    case WIFI_JOB_PROT:
        wifi_job_prot_end(j, j->due_ns);
        break;
    case WIFI_JOB_CTS:
        wifi_job_cts_end(j, j->due_ns);
        break;
    case WIFI_JOB_SIFS:
        wifi_job_frame_start(j, j->due_ns);
        break;
    case WIFI_JOB_FRAME:
        wifi_job_frame_end(j, j->due_ns);
        break;
    }
}

/* airtime on: queue @frame for the channel with its retries */
bool wifi_medium_queue(WifiMediumClient *from, const uint8_t *frame,
                       size_t len, const WifiFrameMeta *meta,
                       unsigned retry_limit, bool notify)
{
    WifiMedium *m = from->medium;
    WifiTxJob *j;

    if (len < 10 || len > WIFI_MAX_FRAME) {
        trace_wifi_medium_bad_frame(from->name, len);
        return false;
    }
    if (!m) {
        return false;
    }
    if (from->txq_len >= WIFI_TX_QUEUE_MAX) {
        trace_wifi_medium_txq_full(from->name);
        return false;
    }
    j = wifi_job_new(m, from, frame, len, meta);
    wifi_client_site(from, &j->site);
    j->retry_limit = MAX(retry_limit, 1);
    j->notify = notify;
    wifi_job_backoff(j);
    QSIMPLEQ_INSERT_TAIL(&from->txq, j, next);
    if (from->txq_len++ == 0) {
        wifi_job_contend(j, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
    return true;
}

/* ---- frames from other processes ---------------------------------------- */

/*
 * When did a frame from another process start, on our clock?  Virtual
 * clocks of processes differ by a constant while both run; a frame
 * arrives some latency after it started.  The smallest (arrival - start)
 * seen from a sender over the last one to two seconds estimates the
 * offset (NTP's minimum-delay filter); the frame started that much less
 * the extra latency ago.  Returns how long ago, in ns.
 */
static uint64_t wifi_peer_lag(WifiMedium *m, uint64_t sender, int64_t tx_ns,
                              int64_t now)
{
    /* wraps instead of overflowing: the peer's clock is not trusted */
    int64_t obs = (int64_t)((uint64_t)now - (uint64_t)tx_ns);
    WifiPeerClock *p = NULL, *lru = &m->peers[0];
    int64_t est;

    for (int i = 0; i < WIFI_PEERS; i++) {
        if (m->peers[i].used && m->peers[i].sender == sender) {
            p = &m->peers[i];
            break;
        }
        if (!m->peers[i].used ||
            (lru->used && m->peers[i].window_ns < lru->window_ns)) {
            lru = &m->peers[i];
        }
    }
    if (!p) {
        p = lru;
        p->used = true;
        p->sender = sender;
        p->min[0] = p->min[1] = obs;
        p->window_ns = now;
    }
    if (now - p->window_ns > NANOSECONDS_PER_SECOND) {
        p->min[1] = p->min[0];      /* a new window: forget older minima */
        p->min[0] = obs;
        p->window_ns = now;
    }
    p->min[0] = MIN(p->min[0], obs);
    est = MIN(p->min[0], p->min[1]);
    return (uint64_t)obs - (uint64_t)est;
}

/*
 * A frame from another process, airtime on: on the air since it started
 * (as far as we can tell: wifi_peer_lag), delivered when it ends, its
 * interference counted for what overlaps it from then on
 */
void wifi_remote_on_air(WifiMedium *m, const WifiAirFrame *af,
                        const WifiFrameMeta *meta)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t lag = wifi_peer_lag(m, af->sender, af->tx_time_ns, now);
    int64_t start;
    WifiTxJob *j;

    if (m->remote_on_air >= WIFI_REMOTE_ON_AIR_MAX) {
        trace_wifi_medium_rx_overflow("remote");
        return;
    }
    j = wifi_job_new(m, NULL, af->frame, af->len, meta);
    for (int i = 0; i < 3; i++) {
        j->site.pos[i] = af->pos_mm[i] / 1000.0;
    }
    memcpy(j->site.addr, af->radio, sizeof(j->site.addr));
    j->air_seq = af->seq;
    j->sender = af->sender;
    /* the peer's airtime is not trusted: ours, from length and rate */
    j->meta.airtime_us = wifi_airtime_us(af->len + 4, meta->rate_500k,
                                         meta->ofdm, meta->short_preamble);
    m->remote_on_air++;
    QTAILQ_INSERT_TAIL(&m->remote_jobs, j, remote_next);
    /* over before we heard of it: it ends now */
    start = now - MIN(lag, SCALE_US * j->meta.airtime_us);
    j->start_ns = start;
    j->meta.tx_time_ns = start;
    j->emission = wifi_emit(m, start,
                                   start + SCALE_US * j->meta.airtime_us,
                                   meta->freq_mhz, meta->txpower_dbm, 0,
                                   &j->site);
    wifi_job_arm(j, WIFI_JOB_FRAME, start + SCALE_US * j->meta.airtime_us);
}

/* the medium goes (wifi_medium_finalize): frames of other processes too */
void wifi_remote_jobs_free(WifiMedium *m)
{
    WifiTxJob *j, *tmp;

    QTAILQ_FOREACH_SAFE(j, &m->remote_jobs, remote_next, tmp) {
        QTAILQ_REMOVE(&m->remote_jobs, j, remote_next);
        wifi_job_free(j);
    }
    m->remote_on_air = 0;
}
