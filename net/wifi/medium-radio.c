/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's link model and its control: what each receiver hears
 * of a transmission (distance, links set over QMP, noise floor, frame
 * error rate), the radios' positions, and the QMP commands of
 * qapi/wifi.json.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qapi/qapi-commands-wifi.h"
#include "qemu/cutils.h"
#include "qom/object.h"
#include "net/net.h"
#include "medium-radio.h"
#include "net/wifi/per.h"
#include "trace.h"

/* the local radio with the medium's number @id (0: none) */
WifiMediumClient *wifi_radio_by_id(WifiMedium *m, uint32_t id)
{
    WifiMediumClient *c;

    if (!id) {
        return NULL;
    }
    QTAILQ_FOREACH(c, &m->clients, next) {
        if (c->radio_id == id) {
            return c;
        }
    }
    return NULL;
}

/* where @c transmits from: its position and its address */
void wifi_client_site(WifiMediumClient *c, WifiSite *site)
{
    memcpy(site->pos, c->pos, sizeof(site->pos));
    memcpy(site->addr, c->addr, sizeof(site->addr));
}

/*
 * Path loss in free space at 2.4 GHz: 40 dB at 1 m plus 20 dB per decade
 * (Friis); distances below 1 m count as 1 m.
 */
static double wifi_free_space_db(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    double d = MAX(sqrt(dx * dx + dy * dy + dz * dz), 1.0);

    return 40.0 + 20.0 * log10(d);
}

static double wifi_distance(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];

    return sqrt(dx * dx + dy * dy + dz * dz);
}

/*
 * How much of a transmission centred on @tx_mhz a receiver tuned to
 * @rx_mhz takes in, dB of rejection (0: the same channel); negative if
 * none.  2.4 GHz channels 5 MHz apart overlap: the interference factor of
 * Mishra et al., "Partially Overlapped Channels Not Considered Harmful"
 * (SIGMETRICS 2006, table 1: the overlap of the 802.11b spectral masks) is
 * 1, 0.7272, 0.2714, 0.0375, 0.0054 for 0 to 4 channels apart; 25 MHz and
 * more apart (channels 1 and 6) do not overlap, nor do 5 GHz channels.
 */
double wifi_coupling_db(uint32_t tx_mhz, uint32_t rx_mhz)
{
    static const double rejection_db[] = {
        0.0, 1.38, 5.66, 14.26, 22.68,      /* -10 log10(I-factor) */
    };
    uint32_t d = tx_mhz > rx_mhz ? tx_mhz - rx_mhz : rx_mhz - tx_mhz;

    if (d == 0) {
        return 0.0;
    }
    if (tx_mhz > 3000 || rx_mhz > 3000 || d >= 25) {
        return -1.0;
    }
    return rejection_db[MIN((d + 2) / 5, ARRAY_SIZE(rejection_db) - 1)];
}

/* ---- links -------------------------------------------------------------- */

void wifi_links_init(WifiMedium *m)
{
    QTAILQ_INIT(&m->links);
    m->noise_floor_dbm = WIFI_NOISE_FLOOR_DBM;
}

static bool wifi_addr_zero(const uint8_t *a)
{
    static const uint8_t zero[6];

    return !memcmp(a, zero, 6);
}

/* does end @i of @l name the radio @c (local) or the site @s (any)? */
static bool wifi_link_end_is(const WifiLink *l, int i, WifiMediumClient *c,
                             const WifiSite *s)
{
    if (l->is_addr[i]) {
        return s && !wifi_addr_zero(s->addr) &&
               !memcmp(l->addr[i], s->addr, 6);
    }
    return c && c->name && !strcmp(l->end[i], c->name);
}

/*
 * The link between the transmitter (@txc if local, its site @tx) and the
 * receiver @rx, if one was set
 */
static WifiLink *wifi_link_find(WifiMedium *m, WifiMediumClient *txc,
                                const WifiSite *tx, WifiMediumClient *rx)
{
    WifiLink *l;
    WifiSite rs;
    bool have_rs = false;

    if (QTAILQ_EMPTY(&m->links)) {
        return NULL;
    }
    QTAILQ_FOREACH(l, &m->links, next) {
        for (int i = 0; i < 2; i++) {
            if (!wifi_link_end_is(l, i, txc, tx)) {
                continue;
            }
            if (!have_rs && l->is_addr[!i]) {
                wifi_client_site(rx, &rs);
                have_rs = true;
            }
            if (wifi_link_end_is(l, !i, rx, have_rs ? &rs : NULL)) {
                return l;
            }
        }
    }
    return NULL;
}

/*
 * The noise a receiver hears: the noise floor, plus the interferers that
 * are on (scenario file), each by its power at @rx on @rx's channel
 */
static double wifi_noise_at(WifiMedium *m, WifiMediumClient *rx)
{
    double mw = 0;
    uint32_t freq;

    if (!m->n_interferers) {
        return m->noise_floor_dbm;
    }
    freq = rx->freq_mhz;
    for (unsigned i = 0; i < m->n_interferers; i++) {
        const WifiInterferer *n = &m->interferers[i];
        double rej = wifi_coupling_db(n->freq_mhz, freq);

        if (n->on && rej >= 0) {
            mw += pow(10.0, (n->power_dbm - rej -
                             wifi_free_space_db(n->pos, rx->pos)) / 10.0);
        }
    }
    return 10.0 * log10(pow(10.0, m->noise_floor_dbm / 10.0) + mw);
}

static void wifi_path_eval(WifiMedium *m, WifiMediumClient *txc,
                           const WifiSite *tx, int8_t txpower_dbm,
                           WifiMediumClient *rx, WifiPath *p,
                           WifiLink **linkp)
{
    WifiLink *l = wifi_link_find(m, txc, tx, rx);
    double pl = l && l->has_attenuation ? l->attenuation_db
                                        : wifi_free_space_db(tx->pos, rx->pos);
    double noise = wifi_noise_at(m, rx);

    p->signal_dbm = txpower_dbm - pl;
    if (l && l->has_snr) {
        /* a wmediumd "snr" link: that SNR over the floor, any power */
        p->signal_dbm = m->noise_floor_dbm + l->snr_db;
    }
    p->snr_db = p->signal_dbm - noise;
    p->loss = l ? l->loss : 0.0;
    p->heard = (!l || l->enabled) && p->snr_db >= WIFI_DETECT_SNR_DB;
    if (linkp) {
        *linkp = l;
    }
}

/*
 * What @rx hears of a transmission from @tx at @txpower_dbm; @txc is the
 * transmitting radio if it is local (links may name it by its name), NULL
 * for a radio of another process (links name it by its address).
 */
void wifi_path(WifiMedium *m, WifiMediumClient *txc, const WifiSite *tx,
               int8_t txpower_dbm, WifiMediumClient *rx, WifiPath *p)
{
    wifi_path_eval(m, txc, tx, txpower_dbm, rx, p, NULL);
}

/* a uniform draw in [0, 1) from the medium's deterministic generator */
static double wifi_uniform(WifiMedium *m)
{
    return ldexp(wifi_random(m) >> 11, -53);
}

bool wifi_path_survives(WifiMedium *m, const WifiPath *p, uint16_t rate_500k,
                        bool ofdm, bool short_preamble, size_t bytes)
{
    double ok = (1.0 - wifi_per(p->snr_db, rate_500k, ofdm, short_preamble,
                                bytes)) * (1.0 - p->loss);

    if (ok >= 1.0) {
        return true;    /* no draw: runs without loss stay as they were */
    }
    if (ok <= 0.0) {
        return false;
    }
    return wifi_uniform(m) < ok;
}

double wifi_medium_noise_floor(WifiMediumClient *c)
{
    return c->medium ? c->medium->noise_floor_dbm : WIFI_NOISE_FLOOR_DBM;
}

/* ---- positions ---------------------------------------------------------- */

static bool wifi_pos_check(double v, const char *name, Error **errp)
{
    if (!isfinite(v) || fabs(v) > WIFI_POS_MAX_M) {
        error_setg(errp, "%s: a position is a number of metres within "
                   "+-%.0f", name, WIFI_POS_MAX_M);
        return false;
    }
    return true;
}

static void wifi_trace_move(WifiMediumClient *c)
{
    trace_wifi_radio_move(c->name ? c->name : "", llround(c->pos[0] * 1000),
                          llround(c->pos[1] * 1000),
                          llround(c->pos[2] * 1000));
}

static WifiMediumClient *wifi_radio_client(Object *obj, void *opaque)
{
    return (WifiMediumClient *)((uint8_t *)obj + (uintptr_t)opaque);
}

static int wifi_axis(const char *name)
{
    return name[0] - 'x';
}

static void wifi_radio_get_pos(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    double d = wifi_radio_client(obj, opaque)->pos[wifi_axis(name)];

    visit_type_number(v, name, &d, errp);
}

static void wifi_radio_set_pos(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    WifiMediumClient *c = wifi_radio_client(obj, opaque);
    double d;

    if (!visit_type_number(v, name, &d, errp) ||
        !wifi_pos_check(d, name, errp)) {
        return;
    }
    c->pos[wifi_axis(name)] = d;
    wifi_trace_move(c);
}

void wifi_radio_class_add_pos(ObjectClass *klass, size_t client_offset,
                              const char *desc)
{
    static const char *const axes[] = { "x", "y", "z" };

    for (int i = 0; i < 3; i++) {
        object_class_property_add(klass, axes[i], "number",
                                  wifi_radio_get_pos, wifi_radio_set_pos,
                                  NULL, (void *)client_offset);
        object_class_property_set_description(klass, axes[i], desc);
    }
}

/* ---- QMP ---------------------------------------------------------------- */

typedef struct {
    const char *id;
    GSList *list;
} WifiMediaFind;

static int wifi_media_one(Object *obj, void *opaque)
{
    WifiMediaFind *f = opaque;

    if (object_dynamic_cast(obj, TYPE_WIFI_MEDIUM) &&
        (!f->id ||
         !strcmp(object_get_canonical_path_component(obj), f->id))) {
        f->list = g_slist_append(f->list, obj);
    }
    return 0;
}

static GSList *wifi_media(const char *id)
{
    WifiMediaFind f = { .id = id };

    object_child_foreach(object_get_objects_root(), wifi_media_one, &f);
    return f.list;
}

/* the medium a command names, or the only one */
static WifiMedium *wifi_medium_named(bool has, const char *id, Error **errp)
{
    g_autoptr(GSList) l = wifi_media(has ? id : NULL);

    if (!l) {
        error_setg(errp, has ? "no wifi-medium '%s'" : "no wifi-medium",
                   id);
        return NULL;
    }
    if (l->next) {
        error_setg(errp, "several wifi-medium objects: name one (medium)");
        return NULL;
    }
    return WIFI_MEDIUM(l->data);
}

static char *wifi_addr_str(const uint8_t *a)
{
    return g_strdup_printf("%02x:%02x:%02x:%02x:%02x:%02x",
                           a[0], a[1], a[2], a[3], a[4], a[5]);
}

static bool wifi_parse_addr(const char *s, uint8_t *a)
{
    unsigned v[6];
    char end;

    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &end) != 6 || strlen(s) != 17) {
        return false;
    }
    for (int i = 0; i < 6; i++) {
        a[i] = v[i];
    }
    return true;
}

static WifiRadioInfo *wifi_radio_info(WifiMediumClient *c)
{
    WifiRadioInfo *r = g_new0(WifiRadioInfo, 1);
    r->name = g_strdup(c->name ? c->name : "");
    if (wifi_client_is(c, c->addr)) {
        r->address = wifi_addr_str(c->addr);
    }
    r->freq = c->freq_mhz;
    r->x = c->pos[0];
    r->y = c->pos[1];
    r->z = c->pos[2];
    r->tx_frames = c->stats.tx_frames;
    r->tx_bytes = c->stats.tx_bytes;
    r->tx_retries = c->stats.tx_retries;
    r->collisions = c->stats.collisions;
    r->rx_frames = c->stats.rx_frames;
    r->rx_bytes = c->stats.rx_bytes;
    r->rx_errors = c->stats.rx_errors;
    r->drops = c->stats.drops;
    return r;
}

/* the transmit power a radio's frames carry now: its last frame's */
static int8_t wifi_radio_txpower(WifiMediumClient *c)
{
    return c->txpower_dbm;
}

static WifiAirInfo *wifi_air_info(WifiMedium *m)
{
    WifiAirInfo *info = g_new0(WifiAirInfo, 1);
    WifiRadioInfoList **rt = &info->radios;
    WifiLinkInfoList **lt = &info->links;
    WifiMediumClient *a, *b;

    info->id = g_strdup(object_get_canonical_path_component(OBJECT(m)));
    info->noise_floor = m->noise_floor_dbm;
    info->airtime = m->airtime;
    info->frames = m->frames;
    info->collisions = m->collisions;
    info->rx_errors = m->per_losses;
    QTAILQ_FOREACH(a, &m->clients, next) {
        QAPI_LIST_APPEND(rt, wifi_radio_info(a));
    }
    QTAILQ_FOREACH(a, &m->clients, next) {
        WifiSite site;

        wifi_client_site(a, &site);
        QTAILQ_FOREACH(b, &m->clients, next) {
            WifiLinkInfo *li;
            WifiLink *l;
            WifiPath p;

            if (a == b) {
                continue;
            }
            wifi_path_eval(m, a, &site, wifi_radio_txpower(a), b, &p, &l);
            li = g_new0(WifiLinkInfo, 1);
            li->from = g_strdup(a->name ? a->name : "");
            li->to = g_strdup(b->name ? b->name : "");
            li->distance = wifi_distance(a->pos, b->pos);
            li->path_loss = wifi_radio_txpower(a) - p.signal_dbm;
            li->signal = p.signal_dbm;
            li->snr = p.snr_db;
            li->loss = p.loss;
            li->enabled = !l || l->enabled;
            li->heard = p.heard;
            li->configured = l;
            QAPI_LIST_APPEND(lt, li);
        }
    }
    return info;
}

WifiAirInfoList *qmp_query_wifi_air(const char *medium, Error **errp)
{
    g_autoptr(GSList) media = wifi_media(medium);
    WifiAirInfoList *head = NULL, **tail = &head;

    if (medium && !media) {
        error_setg(errp, "no wifi-medium '%s'", medium);
        return NULL;
    }
    for (GSList *l = media; l; l = l->next) {
        QAPI_LIST_APPEND(tail, wifi_air_info(WIFI_MEDIUM(l->data)));
    }
    return head;
}

/* the local radio named @radio on any medium */
WifiMediumClient *wifi_radio_named(const char *radio)
{
    g_autoptr(GSList) media = wifi_media(NULL);

    for (GSList *l = media; l; l = l->next) {
        WifiMedium *m = WIFI_MEDIUM(l->data);
        WifiMediumClient *c;

        QTAILQ_FOREACH(c, &m->clients, next) {
            if (c->name && !strcmp(c->name, radio)) {
                return c;
            }
        }
    }
    return NULL;
}

bool wifi_radio_move(WifiMediumClient *c, const double *pos, Error **errp)
{
    if (!wifi_pos_check(pos[0], "x", errp) ||
        !wifi_pos_check(pos[1], "y", errp) ||
        !wifi_pos_check(pos[2], "z", errp)) {
        return false;
    }
    memcpy(c->pos, pos, sizeof(c->pos));
    wifi_trace_move(c);
    return true;
}

void qmp_wifi_radio_move(const char *radio, double x, double y, double z,
                         Error **errp)
{
    WifiMediumClient *c = wifi_radio_named(radio);
    double pos[3] = { x, y, z };

    if (!c) {
        error_setg(errp, "no radio '%s' on a wifi-medium", radio);
        return;
    }
    wifi_radio_move(c, pos, errp);
}

static bool wifi_link_end_set(WifiLink *l, int i, const char *s,
                              Error **errp)
{
    if (!*s || strlen(s) > 128) {
        error_setg(errp, "a link end is a radio name or a MAC address");
        return false;
    }
    l->end[i] = g_strdup(s);
    l->is_addr[i] = wifi_parse_addr(s, l->addr[i]);
    return true;
}

static bool wifi_link_same_end(const WifiLink *l, int i, const char *s)
{
    uint8_t a[6];

    if (l->is_addr[i] && wifi_parse_addr(s, a)) {
        return !memcmp(a, l->addr[i], 6);
    }
    return !strcmp(l->end[i], s);
}

static WifiLink *wifi_link_lookup(WifiMedium *m, const char *a, const char *b)
{
    WifiLink *l;

    QTAILQ_FOREACH(l, &m->links, next) {
        if ((wifi_link_same_end(l, 0, a) && wifi_link_same_end(l, 1, b)) ||
            (wifi_link_same_end(l, 0, b) && wifi_link_same_end(l, 1, a))) {
            return l;
        }
    }
    return NULL;
}

static void wifi_link_free(WifiMedium *m, WifiLink *l)
{
    QTAILQ_REMOVE(&m->links, l, next);
    m->n_links--;
    g_free(l->end[0]);
    g_free(l->end[1]);
    g_free(l);
}

/* the medium goes: its links and the scenario's interferers */
void wifi_links_free(WifiMedium *m)
{
    while (!QTAILQ_EMPTY(&m->links)) {
        wifi_link_free(m, QTAILQ_FIRST(&m->links));
    }
    for (unsigned i = 0; i < m->n_interferers; i++) {
        g_free(m->interferers[i].name);
        m->interferers[i].name = NULL;
    }
    m->n_interferers = 0;
}

bool wifi_link_apply(WifiMedium *m, const char *a, const char *b,
                     const WifiLinkSettings *set, Error **errp)
{
    WifiLink *l;

    if (set->has_attenuation &&
        !(set->attenuation >= 0 && set->attenuation <= 200)) {
        error_setg(errp, "attenuation: 0 to 200 dB");
        return false;
    }
    if (set->has_snr && !(set->snr >= -50 && set->snr <= 100)) {
        error_setg(errp, "snr: -50 to 100 dB");
        return false;
    }
    if (set->has_loss && !(set->loss >= 0 && set->loss <= 1)) {
        error_setg(errp, "loss: a probability, 0 to 1");
        return false;
    }
    l = wifi_link_lookup(m, a, b);
    if (!l) {
        if (m->n_links >= WIFI_LINKS_MAX) {
            error_setg(errp, "too many links (%d)", WIFI_LINKS_MAX);
            return false;
        }
        l = g_new0(WifiLink, 1);
        if (!wifi_link_end_set(l, 0, a, errp) ||
            !wifi_link_end_set(l, 1, b, errp)) {
            g_free(l->end[0]);
            g_free(l);
            return false;
        }
        l->enabled = true;
        /* first in the list: of two links naming one pair, the newer wins */
        QTAILQ_INSERT_HEAD(&m->links, l, next);
        m->n_links++;
    }
    if (set->has_attenuation) {
        l->has_attenuation = true;
        l->has_snr = false;
        l->attenuation_db = set->attenuation;
    }
    if (set->has_snr) {
        l->has_snr = true;
        l->has_attenuation = false;
        l->snr_db = set->snr;
    }
    if (set->has_loss) {
        l->loss = set->loss;
    }
    if (set->has_enabled) {
        l->enabled = set->enabled;
    }
    trace_wifi_link_set(l->end[0], l->end[1],
                        l->has_attenuation ? lround(l->attenuation_db * 10)
                                           : -10,
                        lround(l->loss * 1e6), l->enabled);
    return true;
}

void qmp_wifi_link_set(const char *medium, const char *a, const char *b,
                       bool has_attenuation, double attenuation,
                       bool has_loss, double loss, bool has_enabled,
                       bool enabled, Error **errp)
{
    WifiMedium *m = wifi_medium_named(medium, medium, errp);
    WifiLinkSettings set = {
        .has_attenuation = has_attenuation, .attenuation = attenuation,
        .has_loss = has_loss, .loss = loss,
        .has_enabled = has_enabled, .enabled = enabled,
    };

    if (m) {
        wifi_link_apply(m, a, b, &set, errp);
    }
}

void qmp_wifi_link_clear(const char *medium, const char *a, const char *b,
                         Error **errp)
{
    WifiMedium *m = wifi_medium_named(medium, medium, errp);
    WifiLink *l, *n;

    if (!m) {
        return;
    }
    if (!a != !b) {
        error_setg(errp, "name both ends of the link (a and b), or neither");
        return;
    }
    if (a) {
        l = wifi_link_lookup(m, a, b);
        if (!l) {
            error_setg(errp, "no link between '%s' and '%s'", a, b);
            return;
        }
        wifi_link_free(m, l);
        return;
    }
    QTAILQ_FOREACH_SAFE(l, &m->links, next, n) {
        wifi_link_free(m, l);
    }
}

/* ---- the noise floor ---------------------------------------------------- */

static void wifi_medium_get_noise(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    visit_type_number(v, name, &WIFI_MEDIUM(obj)->noise_floor_dbm, errp);
}

static void wifi_medium_set_noise(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    double d;

    if (!visit_type_number(v, name, &d, errp)) {
        return;
    }
    if (!(d >= -130 && d <= 0)) {
        error_setg(errp, "noise-floor: -130 to 0 dBm");
        return;
    }
    WIFI_MEDIUM(obj)->noise_floor_dbm = d;
}

void wifi_medium_class_add_radio_props(ObjectClass *klass)
{
    object_class_property_add(klass, "noise-floor", "number",
                              wifi_medium_get_noise, wifi_medium_set_noise,
                              NULL, NULL);
    object_class_property_set_description(klass, "noise-floor",
        "noise floor of the channels, dBm (default -95; settable while "
        "guests run): with the signal it gives each receiver's SNR, hence "
        "its frame error rate per rate");
}

/*
 * Does the ACK of @acker reach @to, the sender of the frame it answers
 * (@dm: that frame's meta): at the ACK's rate, with the frame's power?
 */
bool wifi_ack_heard(WifiMedium *m, WifiMediumClient *acker,
                    WifiMediumClient *to, const WifiFrameMeta *dm)
{
    WifiPath back = { 0 };
    WifiSite own;

    wifi_client_site(acker, &own);
    wifi_path(m, acker, &own, dm->txpower_dbm, to, &back);
    return back.heard &&
           wifi_path_survives(m, &back, wifi_ack_rate(dm->rate_500k, dm->ofdm),
                              dm->ofdm, dm->short_preamble, WIFI_ACK_BYTES);
}
