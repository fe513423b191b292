/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The Wi-Fi medium's scenario file (property scenario=FILE): links in
 * wmediumd's configuration format, and events run on the virtual clock
 * (radios walking, links fading or failing, the noise floor, interferers
 * switching on and off).  Parsed with libconfig, as wmediumd parses its
 * own files.  The format is in docs/air.md.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include <libconfig.h>
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/timer.h"
#include "medium-scenario.h"
#include "medium-radio.h"
#include "trace.h"

#define WIFI_SCENARIO_EVENTS    10000
#define WIFI_SCENARIO_MAX_S     1e6             /* last event time, s */
#define WIFI_WALK_STEP_NS       (100 * SCALE_MS)

typedef enum {
    EV_MOVE,
    EV_LINK,
    EV_NOISE,
    EV_INTERFERER,
} WifiEventKind;

typedef struct WifiEvent {
    int64_t at_ns;
    unsigned idx;               /* in the file: same times keep its order */
    WifiEventKind kind;
    char *radio;                /* EV_MOVE */
    double to[3];
    int64_t duration_ns;        /* EV_MOVE: a walk, 0: a jump */
    char *a, *b;                /* EV_LINK */
    WifiLinkSettings link;
    double noise_dbm;           /* EV_NOISE */
    unsigned interferer;        /* EV_INTERFERER: index */
    bool on;
} WifiEvent;

/* a radio on its way somewhere */
typedef struct WifiWalk {
    char *radio;
    double from[3], to[3];
    int64_t start_ns, end_ns;
} WifiWalk;

struct WifiScenario {
    WifiMedium *m;
    WifiEvent *ev;
    unsigned n_ev, next;
    WifiWalk *walks;            /* at most one per EV_MOVE */
    unsigned n_walks;
    QEMUTimer *timer;
};

/* ---- parsing ------------------------------------------------------------ */

static bool wifi_cfg_number(const config_setting_t *s, double *v)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
    case CONFIG_TYPE_FLOAT:
        *v = config_setting_get_float(s);
        if (config_setting_type(s) != CONFIG_TYPE_FLOAT) {
            *v = config_setting_get_int64(s);
        }
        return isfinite(*v);
    default:
        return false;
    }
}

static bool wifi_cfg_lookup_number(const config_setting_t *s,
                                   const char *name, double *v, bool *has,
                                   const char *file, Error **errp)
{
    config_setting_t *x = config_setting_get_member(s, name);

    *has = x;
    if (x && !wifi_cfg_number(x, v)) {
        error_setg(errp, "%s:%d: '%s' must be a number", file,
                   config_setting_source_line(x), name);
        return false;
    }
    return true;
}

/* a list or array of three numbers (a position) */
static bool wifi_cfg_pos(const config_setting_t *s, double *pos,
                         const char *file, Error **errp)
{
    if (!config_setting_is_aggregate(s) || config_setting_length(s) != 3) {
        goto bad;
    }
    for (int i = 0; i < 3; i++) {
        if (!wifi_cfg_number(config_setting_get_elem(s, i), &pos[i]) ||
            fabs(pos[i]) > WIFI_POS_MAX_M) {
            goto bad;
        }
    }
    return true;
bad:
    error_setg(errp, "%s:%d: a position is [x, y, z] in metres, each within "
               "+-%.0f", file, config_setting_source_line(s),
               WIFI_POS_MAX_M);
    return false;
}

static char *wifi_cfg_string(const config_setting_t *s, const char *name)
{
    const char *v = NULL;

    if (!config_setting_lookup_string(s, name, &v) || !*v ||
        strlen(v) > 128) {
        return NULL;
    }
    return g_strdup(v);
}

/*
 * wmediumd's format: ifaces.ids (MAC addresses), model.type "snr" (links:
 * (i, j, SNR dB)) or "prob" (links: (i, j, frame error probability), and
 * default_prob for the pairs not listed)
 */
static bool wifi_scenario_wmediumd(WifiMedium *m, config_t *cfg,
                                   const char *file, Error **errp)
{
    config_setting_t *ids = config_lookup(cfg, "ifaces.ids");
    config_setting_t *links = config_lookup(cfg, "model.links");
    const char *type = NULL;
    double def_prob = 0;
    int n;

    if (!ids) {
        return true;            /* not a wmediumd file */
    }
    n = config_setting_length(ids);
    if (!config_setting_is_array(ids) && !config_setting_is_list(ids)) {
        error_setg(errp, "%s:%d: ifaces.ids is a list of MAC addresses", file,
                   config_setting_source_line(ids));
        return false;
    }
    for (int i = 0; i < n; i++) {
        const char *id = config_setting_get_string_elem(ids, i);
        uint8_t mac[6];

        if (!id || sscanf(id, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0],
                          &mac[1], &mac[2], &mac[3], &mac[4], &mac[5]) != 6) {
            error_setg(errp, "%s:%d: ifaces.ids[%d] is not a MAC address",
                       file, config_setting_source_line(ids), i);
            return false;
        }
    }
    if (!config_lookup_string(cfg, "model.type", &type)) {
        error_setg(errp, "%s: model.type missing (\"snr\" or \"prob\")",
                   file);
        return false;
    }
    if (strcmp(type, "snr") && strcmp(type, "prob")) {
        error_setg(errp, "%s: model.type \"%s\": only \"snr\" and \"prob\" "
                   "(positions are the radios' x, y, z)", file, type);
        return false;
    }
    if (!strcmp(type, "prob")) {
        config_setting_t *d = config_lookup(cfg, "model.default_prob");

        if (d && (!wifi_cfg_number(d, &def_prob) || def_prob < 0 ||
                  def_prob > 1)) {
            error_setg(errp, "%s: model.default_prob: 0 to 1", file);
            return false;
        }
        for (int i = 0; def_prob > 0 && i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                WifiLinkSettings set = { .has_loss = true, .loss = def_prob };

                if (!wifi_link_apply(m, config_setting_get_string_elem(ids, i),
                                     config_setting_get_string_elem(ids, j),
                                     &set, errp)) {
                    return false;
                }
            }
        }
    }
    for (int k = 0; links && k < config_setting_length(links); k++) {
        config_setting_t *l = config_setting_get_elem(links, k);
        WifiLinkSettings set = { 0 };
        double v[3];
        int i, j;

        if (!config_setting_is_aggregate(l) || config_setting_length(l) != 3 ||
            !wifi_cfg_number(config_setting_get_elem(l, 0), &v[0]) ||
            !wifi_cfg_number(config_setting_get_elem(l, 1), &v[1]) ||
            !wifi_cfg_number(config_setting_get_elem(l, 2), &v[2])) {
            error_setg(errp, "%s:%d: a link is (i, j, value)", file,
                       config_setting_source_line(l));
            return false;
        }
        /* range first: converting a double out of int's range is UB */
        if (!(v[0] >= 0 && v[0] < n && v[1] >= 0 && v[1] < n) ||
            v[0] != (int)v[0] || v[1] != (int)v[1] || v[0] == v[1]) {
            error_setg(errp, "%s:%d: link ends are two indexes of "
                       "ifaces.ids (0..%d)", file,
                       config_setting_source_line(l), n - 1);
            return false;
        }
        i = v[0];
        j = v[1];
        if (!strcmp(type, "snr")) {
            set.has_snr = true;
            set.snr = v[2];
        } else {
            set.has_loss = true;
            set.loss = v[2];
        }
        if (!wifi_link_apply(m, config_setting_get_string_elem(ids, i),
                             config_setting_get_string_elem(ids, j), &set,
                             errp)) {
            error_prepend(errp, "%s:%d: ", file,
                          config_setting_source_line(l));
            return false;
        }
    }
    return true;
}

static int wifi_event_cmp(const void *a, const void *b)
{
    const WifiEvent *x = a, *y = b;

    if (x->at_ns != y->at_ns) {
        return x->at_ns < y->at_ns ? -1 : 1;
    }
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool wifi_scenario_interferer(WifiMedium *m, config_setting_t *e,
                                     WifiEvent *ev, const char *file,
                                     Error **errp)
{
    g_autofree char *name = wifi_cfg_string(e, "interferer");
    config_setting_t *pos = config_setting_get_member(e, "pos");
    double power = 20, freq = 2437;
    bool has, on = true;
    int ion;
    unsigned i;

    if (!name) {
        error_setg(errp, "%s:%d: interferer = \"name\";", file,
                   config_setting_source_line(e));
        return false;
    }
    for (i = 0; i < m->n_interferers; i++) {
        if (!strcmp(m->interferers[i].name, name)) {
            break;
        }
    }
    if (i == m->n_interferers) {
        /* its first event defines it */
        if (i == WIFI_INTERFERERS) {
            error_setg(errp, "%s: more than %d interferers", file,
                       WIFI_INTERFERERS);
            return false;
        }
        if (!pos) {
            error_setg(errp, "%s:%d: interferer '%s': pos = [x, y, z] "
                       "missing", file, config_setting_source_line(e), name);
            return false;
        }
        if (!wifi_cfg_pos(pos, m->interferers[i].pos, file, errp) ||
            !wifi_cfg_lookup_number(e, "power", &power, &has, file, errp) ||
            !wifi_cfg_lookup_number(e, "freq", &freq, &has, file, errp)) {
            return false;
        }
        if (power < -50 || power > 40 || freq < 2400 || freq > 6000) {
            error_setg(errp, "%s:%d: interferer power -50..40 dBm, freq "
                       "2400..6000 MHz", file, config_setting_source_line(e));
            return false;
        }
        m->interferers[i].name = g_steal_pointer(&name);
        m->interferers[i].power_dbm = power;
        m->interferers[i].freq_mhz = freq;
        m->n_interferers++;
    }
    if (config_setting_lookup_bool(e, "on", &ion)) {
        on = ion;
    }
    ev->kind = EV_INTERFERER;
    ev->interferer = i;
    ev->on = on;
    return true;
}

static bool wifi_scenario_event(WifiMedium *m, config_setting_t *e,
                                WifiEvent *ev, const char *file,
                                Error **errp)
{
    int line = config_setting_source_line(e);
    config_setting_t *x;
    double at, v;
    bool has;

    if (!config_setting_is_group(e)) {
        error_setg(errp, "%s:%d: an event is { at = seconds; ... }", file,
                   line);
        return false;
    }
    if (!wifi_cfg_lookup_number(e, "at", &at, &has, file, errp)) {
        return false;
    }
    if (!has || at < 0 || at > WIFI_SCENARIO_MAX_S) {
        error_setg(errp, "%s:%d: 'at' (seconds on the virtual clock) "
                   "missing or out of 0..%.0f", file, line,
                   WIFI_SCENARIO_MAX_S);
        return false;
    }
    ev->at_ns = llround(at * NANOSECONDS_PER_SECOND);
    if (config_setting_get_member(e, "move")) {
        ev->kind = EV_MOVE;
        ev->radio = wifi_cfg_string(e, "move");
        x = config_setting_get_member(e, "to");
        if (!ev->radio || !x) {
            error_setg(errp, "%s:%d: move = \"radio\"; to = [x, y, z];",
                       file, line);
            return false;
        }
        if (!wifi_cfg_pos(x, ev->to, file, errp)) {
            return false;
        }
        if (!wifi_cfg_lookup_number(e, "duration", &v, &has, file, errp)) {
            return false;
        }
        if (has && !(v >= 0 && v <= WIFI_SCENARIO_MAX_S)) {
            error_setg(errp, "%s:%d: duration: 0..%.0f s", file, line,
                       WIFI_SCENARIO_MAX_S);
            return false;
        }
        ev->duration_ns = has ? llround(v * NANOSECONDS_PER_SECOND) : 0;
        return true;
    }
    x = config_setting_get_member(e, "link");
    if (x) {
        const char *a = config_setting_get_string_elem(x, 0);
        const char *b = config_setting_get_string_elem(x, 1);
        int en;

        if (!config_setting_is_aggregate(x) || config_setting_length(x) != 2 ||
            !a || !b) {
            error_setg(errp, "%s:%d: link = [\"a\", \"b\"] (radio names or "
                       "MAC addresses)", file, line);
            return false;
        }
        ev->kind = EV_LINK;
        ev->a = g_strdup(a);
        ev->b = g_strdup(b);
        if (!wifi_cfg_lookup_number(e, "attenuation", &ev->link.attenuation,
                                    &ev->link.has_attenuation, file, errp) ||
            !wifi_cfg_lookup_number(e, "snr", &ev->link.snr,
                                    &ev->link.has_snr, file, errp) ||
            !wifi_cfg_lookup_number(e, "loss", &ev->link.loss,
                                    &ev->link.has_loss, file, errp)) {
            return false;
        }
        if (config_setting_lookup_bool(e, "enabled", &en)) {
            ev->link.has_enabled = true;
            ev->link.enabled = en;
        }
        if ((ev->link.has_attenuation &&
             !(ev->link.attenuation >= 0 && ev->link.attenuation <= 200)) ||
            (ev->link.has_snr && !(ev->link.snr >= -50 &&
                                   ev->link.snr <= 100)) ||
            (ev->link.has_loss && !(ev->link.loss >= 0 &&
                                    ev->link.loss <= 1))) {
            error_setg(errp, "%s:%d: attenuation 0..200 dB, snr -50..100 dB, "
                       "loss 0..1", file, line);
            return false;
        }
        return true;
    }
    if (config_setting_get_member(e, "noise_floor")) {
        if (!wifi_cfg_lookup_number(e, "noise_floor", &ev->noise_dbm, &has,
                                    file, errp)) {
            return false;
        }
        if (!(ev->noise_dbm >= -130 && ev->noise_dbm <= 0)) {
            error_setg(errp, "%s:%d: noise_floor: -130..0 dBm", file, line);
            return false;
        }
        ev->kind = EV_NOISE;
        return true;
    }
    if (config_setting_get_member(e, "interferer")) {
        return wifi_scenario_interferer(m, e, ev, file, errp);
    }
    error_setg(errp, "%s:%d: an event moves a radio (move), sets a link "
               "(link), the noise floor (noise_floor) or an interferer "
               "(interferer)", file, line);
    return false;
}

/* ---- running ------------------------------------------------------------ */

static void wifi_scenario_arm(WifiScenario *sc, int64_t now)
{
    int64_t next = INT64_MAX;

    if (sc->next < sc->n_ev) {
        next = sc->ev[sc->next].at_ns;
    }
    for (unsigned i = 0; i < sc->n_walks; i++) {
        next = MIN(next, MAX(now + WIFI_WALK_STEP_NS, sc->walks[i].start_ns));
    }
    if (next == INT64_MAX) {
        timer_del(sc->timer);
    } else {
        timer_mod(sc->timer, MAX(next, now));
    }
}

static void wifi_scenario_walks(WifiScenario *sc, int64_t now)
{
    for (unsigned i = 0; i < sc->n_walks;) {
        WifiWalk *w = &sc->walks[i];
        WifiMediumClient *c = wifi_radio_named(w->radio);
        double f = MIN((double)(now - w->start_ns) /
                       MAX(w->end_ns - w->start_ns, 1), 1.0);
        double pos[3];
        Error *err = NULL;

        /*
         * The end of a walk is its destination exactly (from + (to - from)
         * can land an ulp past it, and past WIFI_POS_MAX_M); on the way
         * the position lies between two checked ones, clamped all the same.
         */
        for (int k = 0; k < 3; k++) {
            pos[k] = f >= 1.0 ? w->to[k]
                              : w->from[k] + (w->to[k] - w->from[k]) * f;
            pos[k] = CLAMP(pos[k], -WIFI_POS_MAX_M, WIFI_POS_MAX_M);
        }
        if (c && !wifi_radio_move(c, pos, &err)) {
            /* cannot happen (both ends were checked): stop this walk */
            warn_report_err(err);
            c = NULL;
        }
        if (!c || now >= w->end_ns) {
            g_free(w->radio);
            *w = sc->walks[--sc->n_walks];
            continue;
        }
        i++;
    }
}

static void wifi_scenario_run(WifiScenario *sc, WifiEvent *ev, int64_t now)
{
    WifiMedium *m = sc->m;
    Error *err = NULL;

    switch (ev->kind) {
    case EV_MOVE: {
        WifiMediumClient *c = wifi_radio_named(ev->radio);
        WifiWalk *w;

        if (!c) {
            warn_report("wifi-medium scenario: no radio '%s' at %.3f s",
                        ev->radio, (double)now / NANOSECONDS_PER_SECOND);
            return;
        }
        for (unsigned i = 0; i < sc->n_walks; i++) {
            if (!strcmp(sc->walks[i].radio, ev->radio)) {
                g_free(sc->walks[i].radio);     /* a new walk replaces it */
                sc->walks[i] = sc->walks[--sc->n_walks];
                break;
            }
        }
        if (!ev->duration_ns) {
            if (!wifi_radio_move(c, ev->to, &err)) {
                warn_report_err(err);
            }
            return;
        }
        w = &sc->walks[sc->n_walks++];
        w->radio = g_strdup(ev->radio);
        memcpy(w->from, c->pos, sizeof(w->from));
        memcpy(w->to, ev->to, sizeof(w->to));
        w->start_ns = now;
        w->end_ns = now + ev->duration_ns;
        return;
    }
    case EV_LINK:
        if (!wifi_link_apply(m, ev->a, ev->b, &ev->link, &err)) {
            warn_report_err(err);
        }
        return;
    case EV_NOISE:
        m->noise_floor_dbm = ev->noise_dbm;
        return;
    case EV_INTERFERER:
        m->interferers[ev->interferer].on = ev->on;
        return;
    }
}

static void wifi_scenario_timer(void *opaque)
{
    WifiScenario *sc = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    while (sc->next < sc->n_ev && sc->ev[sc->next].at_ns <= now) {
        trace_wifi_scenario_event(sc->next, sc->ev[sc->next].kind);
        wifi_scenario_run(sc, &sc->ev[sc->next++], now);
    }
    wifi_scenario_walks(sc, now);
    wifi_scenario_arm(sc, now);
}

static void wifi_scenario_destroy(WifiScenario *sc)
{
    for (unsigned k = 0; k < sc->n_ev; k++) {
        g_free(sc->ev[k].radio);
        g_free(sc->ev[k].a);
        g_free(sc->ev[k].b);
    }
    for (unsigned k = 0; k < sc->n_walks; k++) {
        g_free(sc->walks[k].radio);
    }
    if (sc->timer) {
        timer_free(sc->timer);
    }
    g_free(sc->ev);
    g_free(sc->walks);
    g_free(sc);
}

/* the medium goes (wifi_medium_finalize) */
void wifi_scenario_free(WifiMedium *m)
{
    if (m->scenario) {
        wifi_scenario_destroy(m->scenario);
        m->scenario = NULL;
    }
}

bool wifi_scenario_load(WifiMedium *m, Error **errp)
{
    const char *file = m->scenario_file;
    config_setting_t *events;
    WifiScenario *sc;
    config_t cfg;
    bool ok = false;
    int n;

    config_init(&cfg);
    if (!config_read_file(&cfg, file)) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO) {
            error_setg(errp, "wifi-medium: cannot read scenario %s", file);
        } else {
            error_setg(errp, "wifi-medium: %s:%d: %s", file,
                       config_error_line(&cfg), config_error_text(&cfg));
        }
        goto out;
    }
    if (!wifi_scenario_wmediumd(m, &cfg, file, errp)) {
        goto out;
    }
    events = config_lookup(&cfg, "events");
    n = events ? config_setting_length(events) : 0;
    if (events && !config_setting_is_list(events)) {
        error_setg(errp, "%s:%d: events = ( { at = ...; ... }, ... );", file,
                   config_setting_source_line(events));
        goto out;
    }
    if (n > WIFI_SCENARIO_EVENTS) {
        error_setg(errp, "%s: more than %d events", file,
                   WIFI_SCENARIO_EVENTS);
        goto out;
    }
    sc = g_new0(WifiScenario, 1);
    sc->m = m;
    sc->ev = g_new0(WifiEvent, MAX(n, 1));
    sc->walks = g_new0(WifiWalk, MAX(n, 1));
    for (int i = 0; i < n; i++) {
        if (!wifi_scenario_event(m, config_setting_get_elem(events, i),
                                 &sc->ev[i], file, errp)) {
            sc->n_ev = i + 1;
            wifi_scenario_destroy(sc);
            goto out;
        }
        sc->ev[i].idx = i;
        sc->n_ev++;
    }
    qsort(sc->ev, sc->n_ev, sizeof(*sc->ev), wifi_event_cmp);
    sc->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wifi_scenario_timer, sc);
    m->scenario = sc;
    wifi_scenario_arm(sc, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    ok = true;
out:
    config_destroy(&cfg);
    return ok;
}
