/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium with airtime on: the channels, contention (DIFS,
 * backoff), transmissions with their retries, collisions, ACK timing, and
 * frames from other processes on the air since they started.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "medium-int.h"
#include "trace.h"

WifiChannel *wifi_channel(WifiMedium *m, uint32_t freq, int64_t now)
{
    WifiChannel *slot = NULL;

    for (int i = 0; i < WIFI_CHANNELS; i++) {
        WifiChannel *ch = &m->chan[i];

        if (ch->freq_mhz == freq) {
            return ch;
        }
        if (!slot && (!ch->freq_mhz || ch->busy_until_ns <= now)) {
            slot = ch;          /* free, or idle: reusable */
        }
    }
    if (slot) {
        slot->freq_mhz = freq;
        slot->busy_until_ns = 0;
    }
    return slot;                /* NULL: all busy, this one is untracked */
}

/*
 * @acker (a local radio) acknowledges @frame: the ACK (SIFS later, at the
 * control response rate) goes to the pcap, the local radios (monitors
 * keep control frames, the others drop them) and the other processes.
 */
/* ---- airtime: contention, transmissions, collisions --------------------- */


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
    if (j->on_air) {
        QTAILQ_REMOVE(&j->m->on_air, j, air);
    }
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
    uint32_t cw = wifi_cw(j->meta.ofdm, j->attempts);

    j->backoff = wifi_random(j->m) % (cw + 1);
}

/* wait until the channel is idle, then DIFS and the backoff */
static void wifi_job_contend(WifiTxJob *j, int64_t now)
{
    WifiChannel *ch = wifi_channel(j->m, j->meta.freq_mhz, now);
    int64_t idle = ch ? MAX(now, ch->busy_until_ns) : now;

    wifi_job_arm(j, WIFI_JOB_CONTEND, idle + SCALE_US *
                 (wifi_difs_us(j->meta.ofdm) +
                  (int64_t)j->backoff * wifi_slot_us(j->meta.ofdm)));
}

/*
 * @j starts at @start: a transmission that started less than a slot before
 * or after it could not be heard (carrier sense takes a slot): they
 * collide.  Each process judges only its own radios' frames: a local frame
 * in a collision is lost (nobody acknowledges it: its sender retries).  A
 * frame from another process is taken as its sender's process saw it, as
 * that process judges it against ours: a collision seen on one side only
 * costs a retransmission, never a silent loss.
 */
static bool wifi_collide(WifiMedium *m, WifiTxJob *j, int64_t start)
{
    int64_t slot = SCALE_US * wifi_slot_us(j->meta.ofdm);
    WifiTxJob *o;
    bool hit = false;

    QTAILQ_FOREACH(o, &m->on_air, air) {
        int64_t d = start - o->start_ns;

        if (o->meta.freq_mhz != j->meta.freq_mhz || d >= slot ||
            d <= -slot || (!o->from && !j->from)) {
            continue;
        }
        hit = true;
        if (o->from && !o->collided) {
            o->collided = true;
            o->from->stats.collisions++;
        }
    }
    if (hit) {
        if (j->from) {
            j->collided = true;
            j->from->stats.collisions++;
        }
        m->collisions++;
        trace_wifi_medium_collision(j->from ? j->from->name : "remote",
                                    j->meta.freq_mhz);
    }
    return hit;
}

/* @j is on the air from @start (now, or a remote frame's mapped start) */
static void wifi_job_on_air(WifiTxJob *j, int64_t start, bool ack_wait)
{
    WifiMedium *m = j->m;
    WifiChannel *ch = wifi_channel(m, j->meta.freq_mhz, start);
    int64_t end = start + SCALE_US * j->meta.airtime_us;

    j->start_ns = start;
    j->meta.tx_time_ns = start;
    j->on_air = true;
    QTAILQ_INSERT_TAIL(&m->on_air, j, air);
    if (ch) {
        if (ack_wait) {
            end += SCALE_US * wifi_ack_us(j->meta.rate_500k, j->meta.ofdm,
                                          j->meta.short_preamble);
        }
        ch->busy_until_ns = MAX(ch->busy_until_ns, end);
    }
    wifi_job_arm(j, WIFI_JOB_FRAME, start + SCALE_US * j->meta.airtime_us);
}

/* a local radio's frame leaves: channel idle long enough, or a collision */
static void wifi_job_start(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiChannel *ch = wifi_channel(m, j->meta.freq_mhz, now);
    bool busy = ch && ch->busy_until_ns > now;

    j->collided = false;
    if (busy && !wifi_collide(m, j, now)) {
        wifi_job_contend(j, now);   /* heard another one: defer */
        return;
    }
    j->attempts++;
    wifi_meta_for_attempt(&j->meta, j->attempts, j->len);
    if (j->attempts > 1) {
        j->data[1] |= 0x08;         /* retry bit on retransmissions */
        j->from->stats.tx_retries++;
    }
    m->frames++;
    j->from->stats.tx_frames++;
    j->from->stats.tx_bytes += j->len;
    j->meta.fcs_bad = wifi_fcs_error(m);
    trace_wifi_medium_airtime_tx(j->from->name, j->meta.freq_mhz, j->len,
                                 j->meta.rate_500k, j->attempts,
                                 j->meta.airtime_us);
    wifi_job_on_air(j, now, wifi_job_expects_ack(j));
    j->air_seq = wifi_link_send(m, &j->site, j->data, j->len, &j->meta, 0);
}

static void wifi_job_exchange_end(WifiTxJob *j, int64_t now);

/* the last bit is on the air: receivers get it (or not) */
static void wifi_job_frame_end(WifiTxJob *j, int64_t now)
{
    WifiMedium *m = j->m;
    WifiMediumClient *acker;
    WifiFrameMeta meta = j->meta;

    QTAILQ_REMOVE(&m->on_air, j, air);
    j->on_air = false;
    meta.fcs_bad |= j->collided;
    wifi_pcap_write(m, j->start_ns, j->data, j->len, &meta,
                    meta.txpower_dbm - 40);
    acker = wifi_medium_local(m, j->from, &j->site, j->data, j->len, &meta);
    if (acker) {
        wifi_medium_ack(m, acker, j->data, j->len, &meta, now,
                        j->from ? 0 : j->air_seq);
    }
    if (!j->from) {
        m->remote_on_air--;
        wifi_job_free(j);           /* from another process: done */
        return;
    }
    j->acked = acker;
    if (!acker && m->nic && !meta.fcs_bad && wifi_wants_ack(j->data)) {
        /*
         * Not kept for wifi_arq: with airtime on, trials resent most
         * frames (an ACK did not name the attempt kept) and the link
         * slowed down (its stalls were the card's TX engine falling a
         * ring behind, fixed since); to be understood before it is used.
         */
        j->acked = wifi_remote_acks(m, j->data + 4, meta.freq_mhz);
    }
    wifi_job_exchange_end(j, now);
}

/*
 * The outcome is known: retry, or report and let the next frame contend.
 * The channel stays busy for SIFS + ACK (or the ACK timeout) after the
 * frame: the next attempt waits for that, the sender hears of it now.
 */
static void wifi_job_exchange_end(WifiTxJob *j, int64_t now)
{
    WifiMediumClient *c = j->from;
    WifiTxJob *head;
    bool notify = j->notify, acked = j->acked;
    unsigned attempts = j->attempts;

    if (wifi_job_expects_ack(j) && !j->acked &&
        j->attempts < j->retry_limit) {
        wifi_job_backoff(j);
        wifi_job_contend(j, now);
        return;
    }
    trace_wifi_medium_tx_done(c->name, acked, attempts);
    QSIMPLEQ_REMOVE_HEAD(&c->txq, next);
    c->txq_len--;
    wifi_job_free(j);
    head = QSIMPLEQ_FIRST(&c->txq);
    if (head) {
        wifi_job_contend(head, now);
    }
    /* last: the callback may queue the radio's next frame */
    if (notify && c->ops->tx_done) {
        c->ops->tx_done(c, acked, attempts);
    }
}

static void wifi_job_timer(void *opaque)
{
    WifiTxJob *j = opaque;

    switch (j->phase) {
    case WIFI_JOB_CONTEND:
        wifi_job_start(j, j->due_ns);
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

/* a frame from another process, airtime on: on the air since it started */
void wifi_remote_on_air(WifiMedium *m, const WifiAirFrame *af,
                        const WifiFrameMeta *meta)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t lag = wifi_peer_lag(m, af->sender, af->tx_time_ns, now);
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
    /* the peer's airtime is not trusted: ours, from length and rate */
    j->meta.airtime_us = wifi_airtime_us(af->len + 4, meta->rate_500k,
                                         meta->ofdm, meta->short_preamble);
    m->remote_on_air++;
    if (lag >= SCALE_US * j->meta.airtime_us) {
        /* over before we heard of it: it no longer holds the channel */
        wifi_job_on_air(j, now - SCALE_US * j->meta.airtime_us, false);
        return;
    }
    wifi_collide(m, j, now - lag);
    wifi_job_on_air(j, now - lag, false);
}
