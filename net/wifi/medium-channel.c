/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The channels of the Wi-Fi medium: what is on the air (every
 * transmission kept a while, airtime on: carrier sense, interference, the
 * NAV) and the delivery of one transmission to the local radios that hear
 * it, with the ACK of its addressee.  Beneath the medium's core
 * (medium.c) and its airtime engine (medium-airtime.c), which both send
 * through here; above the link model (medium-radio.c), the pcap and the
 * netdev (medium-link.c).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/timer.h"
#include "net/wifi/deferred.h"
#include "medium-channel.h"
#include "medium-link.h"
#include "medium-radio.h"
#include "pcap.h"
#include "trace.h"

/* ---- what is on the air ------------------------------------------------- */

const WifiEmission *wifi_emit(WifiMedium *m, int64_t start, int64_t end,
                              uint32_t freq, int8_t txpower, uint32_t radio,
                              const WifiSite *site)
{
    WifiEmission *e = &m->emis[m->emis_next];

    m->emis_next = (m->emis_next + 1) % WIFI_EMISSIONS;
    *e = (WifiEmission) {
        .start_ns = start,
        .end_ns = end,
        .freq_mhz = freq,
        .txpower_dbm = txpower,
        .radio = radio,
        .site = *site,
    };
    return e;
}

static bool wifi_overlaps(const WifiEmission *a, int64_t start, int64_t end)
{
    return a->end_ns > start && a->start_ns < end;
}

/*
 * The power of @e at @rx, dBm, on @rx's channel (adjacent channels
 * attenuated: wifi_coupling_db()); -INFINITY if it does not reach @rx at
 * all (link off, no channel overlap, or below the detection threshold)
 */
static double wifi_power_at(WifiMedium *m, const WifiEmission *e,
                            WifiMediumClient *rx, uint32_t rx_freq)
{
    double rej = wifi_coupling_db(e->freq_mhz, rx_freq);
    WifiPath p;

    if (rej < 0) {
        return -INFINITY;
    }
    wifi_path(m, wifi_radio_by_id(m, e->radio), &e->site, e->txpower_dbm, rx,
              &p);
    if (!p.heard || p.snr_db - rej < WIFI_DETECT_SNR_DB) {
        return -INFINITY;
    }
    return p.signal_dbm - rej;
}

/* was @rx itself transmitting during @e?  Then it heard none of it. */
bool wifi_half_duplex(WifiMedium *m, WifiMediumClient *rx,
                      const WifiEmission *e)
{
    for (int i = 0; i < WIFI_EMISSIONS; i++) {
        const WifiEmission *o = &m->emis[i];

        if (o != e && o->radio == rx->radio_id && o->end_ns &&
            wifi_overlaps(o, e->start_ns, e->end_ns)) {
            return true;
        }
    }
    return false;
}

/* the power of everything else on the air during @e at @rx, mW */
double wifi_interference_mw(WifiMedium *m, WifiMediumClient *rx,
                            const WifiEmission *e)
{
    uint32_t freq = rx->freq_mhz;
    double mw = 0;

    for (int i = 0; i < WIFI_EMISSIONS; i++) {
        const WifiEmission *o = &m->emis[i];
        double dbm;

        if (o == e || !o->end_ns || o->radio == rx->radio_id ||
            !wifi_overlaps(o, e->start_ns, e->end_ns)) {
            continue;
        }
        dbm = wifi_power_at(m, o, rx, freq);
        if (dbm > -INFINITY) {
            mw += pow(10.0, dbm / 10.0);
        }
    }
    return mw;
}

/*
 * Carrier sense of @c at @now: until when the channel is busy for it (its
 * NAV, its own transmission (an ACK or CTS it sends), or one it hears that
 * started at least a slot ago: a newer one it cannot have detected yet);
 * @now if idle
 */
int64_t wifi_busy_until(WifiMedium *m, WifiMediumClient *c,
                               int64_t now, bool ofdm)
{
    int64_t slot = SCALE_US * wifi_slot_us(ofdm);
    int64_t until = MAX(now, c->nav_until_ns);
    uint32_t freq = c->freq_mhz;

    for (int i = 0; i < WIFI_EMISSIONS; i++) {
        const WifiEmission *o = &m->emis[i];

        if (!o->end_ns || o->end_ns <= now || o->end_ns <= until) {
            continue;
        }
        if (o->radio == c->radio_id) {
            until = o->end_ns;      /* its own (an ACK, a CTS) */
        } else if (o->start_ns <= now - slot &&
                   wifi_power_at(m, o, c, freq) > -INFINITY) {
            until = o->end_ns;
        }
    }
    return until;
}

static int wifi_interval_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;

    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * The idle slots @c's backoff counted down between @after (when its
 * countdown began) and @now: 802.11-2020 10.3.4.3 suspends the countdown
 * while the channel is busy for it (a transmission it hears, by
 * wifi_busy_until()'s rule; one of its own, an ACK or CTS; its NAV) and
 * resumes it a DIFS after the channel is idle again.  Transmissions over
 * by now count too: the countdown runs on timers, not on every change of
 * the channel.
 */
uint32_t wifi_idle_slots(WifiMedium *m, WifiMediumClient *c, int64_t after,
                         int64_t now, bool ofdm)
{
    int64_t slot = SCALE_US * wifi_slot_us(ofdm);
    int64_t difs = SCALE_US * wifi_difs_us(ofdm);
    int64_t busy[WIFI_EMISSIONS + 1][2];
    int64_t t = after;
    uint64_t n = 0;
    int nb = 0;

    for (int i = 0; i < WIFI_EMISSIONS; i++) {
        const WifiEmission *o = &m->emis[i];

        if (!o->end_ns || o->end_ns <= after || o->start_ns > now) {
            continue;
        }
        if (o->radio == c->radio_id) {
            busy[nb][0] = o->start_ns;      /* its own ACK or CTS */
        } else if (o->start_ns <= now - slot &&
                   wifi_power_at(m, o, c, c->freq_mhz) > -INFINITY) {
            busy[nb][0] = o->start_ns + slot;   /* detected a slot in */
        } else {
            continue;
        }
        busy[nb++][1] = o->end_ns;
    }
    if (c->nav_until_ns > after) {
        /*
         * the NAV runs from the frame that set it: the channel's latest
         * busy stretch before its end
         */
        int64_t from = after;

        for (int i = 0; i < nb; i++) {
            if (busy[i][1] <= c->nav_until_ns && busy[i][1] > from) {
                from = busy[i][1];
            }
        }
        busy[nb][0] = from;
        busy[nb++][1] = c->nav_until_ns;
    }
    qsort(busy, nb, sizeof(busy[0]), wifi_interval_cmp);
    for (int i = 0; i < nb && t < now; i++) {
        if (busy[i][0] > t) {
            n += (MIN(busy[i][0], now) - t) / slot;
        }
        t = MAX(t, busy[i][1] + difs);
    }
    if (now > t) {
        n += (now - t) / slot;
    }
    return MIN(n, UINT32_MAX);
}

/*
 * A radio that decoded a frame not addressed to it sets its NAV to the
 * frame's Duration (802.11-2020 10.3.2.4), if that is a duration
 */
void wifi_nav_update(WifiMediumClient *rx, const uint8_t *frame, size_t len,
                     int64_t end_ns)
{
    uint16_t dur;

    if (len < IEEE80211_ACK_LEN) {
        return;
    }
    dur = lduw_le_p(frame + 2);
    if (dur & 0x8000) {
        return;                 /* an AID or CFP: not a duration */
    }
    if (wifi_client_is(rx, ieee80211_addr1(frame))) {
        return;
    }
    rx->nav_until_ns = MAX(rx->nav_until_ns, end_ns + dur * SCALE_US);
}

/* ---- delivery to the local radios ------------------------------------- */

/* a frame a receiver acknowledges: unicast data or management */
bool wifi_wants_ack(const uint8_t *frame)
{
    return !ieee80211_is_group(ieee80211_addr1(frame)) &&
           !ieee80211_is_ctrl(frame);
}

/* @from lost a frame to a collision */
static void wifi_collision(WifiMedium *m, WifiMediumClient *from,
                           uint32_t freq_mhz)
{
    m->collisions++;
    from->stats.collisions++;
    trace_wifi_medium_collision(from->name, freq_mhz);
}

/* does @c take this frame (judged @bad on the way) now? */
static bool wifi_client_takes(const WifiMediumClient *c, const uint8_t *frame,
                              bool bad)
{
    if (!(c->wants & WIFI_WANT_RX) ||
        (bad && !(c->wants & WIFI_WANT_BAD_FCS))) {
        return false;
    }
    if (!ieee80211_is_ctrl(frame)) {
        return true;
    }
    /* an ACK or CTS to its own address answers its own frame: not for it */
    if ((ieee80211_subtype(frame) == IEEE80211_STYPE_ACK ||
         ieee80211_subtype(frame) == IEEE80211_STYPE_CTS) &&
        !memcmp(ieee80211_addr1(frame), c->addr, IEEE80211_ADDR_LEN)) {
        return false;
    }
    return c->wants & WIFI_WANT_CTRL;
}

/*
 * Does @tx survive on its way to @c (path @p)?  With airtime on (tx->e),
 * false in *@deaf if @c was transmitting meanwhile (half duplex): it hears
 * nothing; otherwise what else was on the air adds to the noise (SINR).
 * A loss of a frame for @c to interference is a collision of its sender.
 */
static bool wifi_rx_survives(WifiMedium *m, const WifiLocalTx *tx,
                             WifiMediumClient *c, WifiPath *p, bool for_c,
                             bool *deaf)
{
    const WifiFrameMeta *meta = tx->meta;
    bool interfered = false, bad;

    *deaf = false;
    if (tx->e && tx->e->radio) {
        double noise_mw = pow(10.0, m->noise_floor_dbm / 10.0);
        double i_mw;

        /*
         * (A frame from another process is taken as that process judged
         * it against ours, its sender having heard whether it was
         * acknowledged: a collision seen on one side only costs a
         * retransmission, never a silent loss.)
         */
        if (wifi_half_duplex(m, c, tx->e)) {
            *deaf = true;
            if (for_c && tx->from) {
                wifi_collision(m, tx->from, meta->freq_mhz);
            }
            return false;
        }
        i_mw = wifi_interference_mw(m, c, tx->e);
        if (i_mw > 0) {
            p->snr_db = p->signal_dbm - 10.0 * log10(noise_mw + i_mw);
            interfered = true;
        }
    }
    bad = meta->fcs_bad ||
          !wifi_path_survives(m, p, meta->rate_500k, meta->ofdm,
                              meta->short_preamble,
                              tx->len + IEEE80211_FCS_LEN);
    if (bad && !meta->fcs_bad) {
        c->stats.rx_errors++;
        m->per_losses++;
        trace_wifi_medium_rx_error(c->name, meta->freq_mhz, tx->len,
                                   meta->rate_500k, lround(p->snr_db * 10));
        if (interfered && for_c && tx->from) {
            wifi_collision(m, tx->from, meta->freq_mhz);
        }
    }
    return !bad;
}

/* does the ACK of @c make it back to a local sender? */
static bool wifi_ack_returns(WifiMedium *m, const WifiLocalTx *tx,
                             WifiMediumClient *c)
{
    if (!tx->from) {
        return true;            /* the other process judges that */
    }
    if (wifi_ack_heard(m, c, tx->from, tx->meta)) {
        return true;
    }
    trace_wifi_medium_ack_lost(c->name, tx->from->name);
    return false;
}

/* queue the frame for @c's deferred work; false if its queue is full */
static bool wifi_rx_enqueue(WifiMedium *m, WifiMediumClient *c,
                            const WifiLocalTx *tx, bool bad, double signal)
{
    WifiQueuedFrame *f;

    if (c->rxq_len >= WIFI_RX_QUEUE_MAX) {
        m->rx_overflows++;
        c->stats.drops++;
        trace_wifi_medium_rx_overflow(c->name);
        return false;
    }
    f = g_malloc(sizeof(*f) + tx->len);
    f->meta = *tx->meta;
    f->meta.fcs_bad = bad;
    f->meta.signal_dbm = MIN(MAX(lround(signal), -128), 127);
    f->len = tx->len;
    memcpy(f->data, tx->frame, tx->len);
    QSIMPLEQ_INSERT_TAIL(&c->rxq, f, next);
    c->rxq_len++;
    wifi_deferred_schedule(c->rx_work);
    return true;
}

/*
 * Deliver @tx to the local radios on its channel (except its sender);
 * returns the radio that acknowledges it, if any.  Each receiver hears the
 * frame with its own signal and SNR (wifi_path): not at all below the
 * detection threshold or over a link switched off; with a bad FCS when
 * noise (wifi_per), interference or the link's loss corrupts it
 * (wifi_rx_survives).  A receiver that decodes a frame for another radio
 * sets its NAV (airtime on).  A radio gets what it wants
 * (wifi_client_takes); one that would take the frame but whose queue is
 * full does not acknowledge it, nor does one whose ACK back to a local
 * sender is lost (the sender retries, the receiver drops the duplicate).
 * *@addressee (if given): the radio the frame is for that got it intact,
 * whatever its type.
 */
WifiMediumClient *wifi_medium_local(WifiMedium *m, const WifiLocalTx *tx,
                                    WifiMediumClient **addressee)
{
    const WifiFrameMeta *meta = tx->meta;
    WifiMediumClient *c, *acker = NULL;

    if (addressee) {
        *addressee = NULL;
    }
    QTAILQ_FOREACH(c, &m->clients, next) {
        WifiPath p;
        bool good, deaf, for_c, may, takes;

        if (c == tx->from || c->freq_mhz != meta->freq_mhz) {
            continue;
        }
        /* a radio that wants none of it hears it only for its NAV */
        may = wifi_client_takes(c, tx->frame, false);
        if (!may && !tx->e) {
            continue;
        }
        wifi_path(m, tx->from, tx->site, meta->txpower_dbm, c, &p);
        if (!p.heard) {
            continue;
        }
        for_c = tx->len >= IEEE80211_ACK_LEN &&
                wifi_client_acks(c, ieee80211_addr1(tx->frame));
        good = wifi_rx_survives(m, tx, c, &p, for_c, &deaf);
        if (deaf) {
            continue;
        }
        takes = may && wifi_client_takes(c, tx->frame, !good);
        if ((takes && !wifi_rx_enqueue(m, c, tx, !good, p.signal_dbm)) ||
            !good) {
            continue;           /* a full queue: dropped, not acknowledged */
        }
        if (takes) {
            c->stats.rx_frames++;
            c->stats.rx_bytes += tx->len;
        }
        if (tx->e) {
            wifi_nav_update(c, tx->frame, tx->len, tx->e->end_ns);
        }
        if (for_c && addressee && !*addressee) {
            *addressee = c;
        }
        if (takes && !acker && for_c && wifi_wants_ack(tx->frame) &&
            wifi_ack_returns(m, tx, c)) {
            acker = c;
        }
    }
    return acker;
}

void wifi_medium_ack(WifiMedium *m, WifiMediumClient *acker,
                     const uint8_t *frame, size_t len,
                     const WifiFrameMeta *dm, int64_t now,
                     uint16_t ack_seq)
{
    uint8_t ack[WIFI_ACK_LEN] = { IEEE80211_FC0_ACK, 0x00 };
    const WifiEmission *e = NULL;
    WifiSite site;
    WifiFrameMeta meta = {
        .freq_mhz = dm->freq_mhz,
        .txpower_dbm = dm->txpower_dbm,
        .rate_500k = wifi_ack_rate(dm->rate_500k, dm->ofdm),
        .ofdm = dm->ofdm,
        .short_preamble = dm->short_preamble,
        .tx_time_ns = now + WIFI_SIFS_US * SCALE_US,
    };

    if (!ieee80211_has_ta(frame, len)) {
        return;
    }
    /* RA = the data's TA */
    memcpy(ack + IEEE80211_ADDR1_OFF, ieee80211_addr2(frame),
           IEEE80211_ADDR_LEN);
    meta.airtime_us = wifi_airtime_us(WIFI_ACK_BYTES, meta.rate_500k,
                                      meta.ofdm, meta.short_preamble);
    m->acks++;
    trace_wifi_medium_ack(acker->name, meta.freq_mhz, meta.rate_500k);
    wifi_client_site(acker, &site);
    if (m->airtime) {
        e = wifi_emit(m, meta.tx_time_ns,
                      meta.tx_time_ns + meta.airtime_us * SCALE_US,
                      meta.freq_mhz, meta.txpower_dbm, acker->radio_id,
                      &site);
    }
    wifi_pcap_write(m, meta.tx_time_ns, ack, sizeof(ack), &meta,
                    meta.txpower_dbm - 40);
    wifi_medium_local(m, &(WifiLocalTx){ acker, &site, ack, sizeof(ack),
                                         &meta, e }, NULL);
    /* the ACK of a frame from another process names it: see wifi_arq */
    wifi_link_send(m, &site, ack, sizeof(ack), &meta, ack_seq);
}

void wifi_meta_for_attempt(WifiFrameMeta *meta, unsigned attempt, size_t len)
{
    if (meta->fallback_after && attempt > meta->fallback_after &&
        meta->fallback_rate_500k) {
        meta->rate_500k = meta->fallback_rate_500k;
        meta->ofdm = meta->fallback_ofdm;
        meta->airtime_us = wifi_airtime_us(len + IEEE80211_FCS_LEN,
                                           meta->rate_500k, meta->ofdm,
                                           meta->short_preamble);
    }
}

/*
 * A resend from another process of a frame delivered here already: the
 * local radio it was for acknowledges it again (the sender stops resending)
 */
void wifi_medium_reack(WifiMedium *m, const uint8_t *frame, size_t len,
                       const WifiFrameMeta *meta, uint16_t air_seq)
{
    WifiMediumClient *c;

    QTAILQ_FOREACH(c, &m->clients, next) {
        if (c->freq_mhz == meta->freq_mhz &&
            wifi_client_acks(c, ieee80211_addr1(frame))) {
            wifi_medium_ack(m, c, frame, len, meta, meta->tx_time_ns, air_seq);
            break;
        }
    }
}
