/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fuzz targets of the simulated air itself (hw/net/wifi/medium*.c), not of
 * a card:
 *
 * "wifi-scenario": the input is the text of a scenario file (libconfig,
 * wmediumd's links and our events; docs/air.md).  For each input a
 * wifi-medium is created with it (QMP object-add, scenario=FILE), then
 * radios on it: a wifi-ap (ap0, 02:aa:00:00:00:01) and three wifi-traffic
 * radios (card0 02:00:00:00:00:01, card1 02:00:00:00:00:02, wlan0
 * 02:00:00:00:00:03), and the virtual clock goes from 0 to 2 * 10^6 s
 * through a fixed list of instants (so that events at any time, and walks,
 * run).  At each instant the traffic radios send a few frames and
 * query-wifi-air reads the links.  The clock advances timer by timer, at
 * most a few hundred timers between two instants; past that it jumps to
 * the instant (timers then fire late, once, as on a loaded host), so a
 * walk of 10^6 s costs no 10^7 steps.  A scenario that does not load must
 * fail object-add with an error.  Afterwards the radios are unrealized,
 * the medium deleted (object-del; while wifi-medium refuses that, the
 * target unparents it, which finalizes it), no timer may be left on the
 * virtual clock, and the clock goes back to 0 for the next input (the
 * scenario's times are counted from the machine's start).
 *
 * "wifi-qmp": the input is a sequence of QMP commands of the air
 * (qapi/wifi.json: query-wifi-air, wifi-radio-move, wifi-link-set,
 * wifi-link-clear) and qom-set/qom-get of the media's and radios'
 * properties, with values chosen by the input (doubles: NaN, infinities,
 * -0, 1e300, the limits and one ulp past them, any 8 bytes; strings: the
 * radios', media's and addresses' names, unknown ones, 128/129/4096
 * characters, any bytes), interleaved with clock steps and frames from a
 * radio of "another process" on air0's netdev.  Every command goes through
 * qmp_dispatch() as a QMP monitor's would and must get a reply: a return
 * or an error with a class and a description, which must serialize to
 * JSON that parses back (a NaN or an infinity in a reply does not: QEMU's
 * JSON writer prints it as such).  Machine: two media (air0 with a netdev,
 * air1 with airtime on), on air0 a wifi-ap, a bcm4331 and a wifi-traffic
 * radio, on air1 a wifi-ap and a wifi-traffic radio (the APs beacon every
 * ~1 s: the clock steps of an input cost less).  After each input
 * every writable property of those objects gets its value back, links are
 * cleared, and the machine is reset.
 *
 * Input of wifi-qmp: records { u8 op; op's bytes } (what is missing at the
 * end reads as zeros):
 *   op % 9 = 0  query-wifi-air [medium]
 *            1  wifi-radio-move radio x y z
 *            2  wifi-link-set [medium] a b [attenuation] [loss] [enabled]
 *            3  wifi-link-clear [medium] [a] [b]
 *            4  qom-set path property value
 *            5  qom-get path property
 *            6  the virtual clock steps (u16 + 1) * 10 us (at most 10 s
 *               per input)
 *            7  a frame from a radio of another process on air0's netdev:
 *               u8 flags (bit 0 OFDM, 1 short preamble, 2 bad FCS, 3
 *               channel 1, 7:4 rate), u8 its address (table), 3 x s32
 *               position in mm, s8 power, u16 length, the 802.11 frame
 *            8  one of the four wifi commands with arguments given as JSON
 *               text: u8 command, u16 length, text
 *   (values: see air_num(), air_str(), air_value())
 *
 * WIFI_FUZZ_LOG=1 in the environment prints every command and its reply.
 *
 * This file is compiled as part of bcm4331_fuzz.c (#include at its end):
 * the overlay hooks that one file into tests/qtest/fuzz/meson.build.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <float.h>
#include <math.h>
#include "qapi/error.h"
#include "qapi/qmp-registry.h"
#include "qobject/qbool.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qobject/qlist.h"
#include "qobject/qnull.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"
#include "qom/object.h"
#include "qom/object_interfaces.h"
#include "qom/qom-qobject.h"
#include "qemu/cutils.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "system/cpu-timers.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "monitor/qdev.h"
#include "monitor/monitor-internal.h"   /* qmp_commands */
#include "net/net.h"
#include "net/wifi/air-proto.h"
#include "fuzz.h"

static G_NORETURN G_GNUC_PRINTF(1, 2) void air_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/*
 * Run one QMP command as a monitor does; the reply must be a return or an
 * error with class and description, and be JSON.  Takes @args.
 */
static QDict *air_qmp(const char *cmd, QDict *args)
{
    QDict *req = qdict_new();
    QDict *rsp, *err;
    g_autoptr(GString) json = NULL;
    QObject *back;
    Error *perr = NULL;

    qdict_put_str(req, "execute", cmd);
    if (args) {
        qdict_put(req, "arguments", args);
    }
    if (getenv("WIFI_FUZZ_LOG")) {
        g_autoptr(GString) r = qobject_to_json(QOBJECT(req));

        fprintf(stderr, "-> %s\n", r->str);
    }
    rsp = qmp_dispatch(&qmp_commands, QOBJECT(req), false, NULL);
    qobject_unref(req);
    if (rsp && getenv("WIFI_FUZZ_LOG")) {
        g_autoptr(GString) r = qobject_to_json(QOBJECT(rsp));

        fprintf(stderr, "<- %.2000s\n", r->str);
    }
    if (!rsp) {
        air_fail("wifi fuzz: %s: no reply", cmd);
    }
    err = qdict_get_qdict(rsp, "error");
    if (!qdict_haskey(rsp, "return") == !err) {
        json = qobject_to_json(QOBJECT(rsp));
        air_fail("wifi fuzz: %s: reply neither return nor error: %s", cmd,
                 json->str);
    }
    if (err && (!qdict_get_try_str(err, "class") ||
                !qdict_get_try_str(err, "desc"))) {
        json = qobject_to_json(QOBJECT(rsp));
        air_fail("wifi fuzz: %s: malformed error: %s", cmd, json->str);
    }
    /* what the monitor would send: a client must be able to parse it */
    json = qobject_to_json(QOBJECT(rsp));
    back = qobject_from_json(json->str, &perr);
    if (!back) {
        air_fail("wifi fuzz: %s: the reply is not JSON (%s): %.4000s", cmd,
                 error_get_pretty(perr), json->str);
    }
    qobject_unref(back);
    return rsp;
}

static void air_qmp_drop(const char *cmd, QDict *args)
{
    qobject_unref(air_qmp(cmd, args));
}

static bool air_qmp_ok(const char *cmd, QDict *args)
{
    QDict *rsp = air_qmp(cmd, args);
    bool ok = qdict_haskey(rsp, "return");

    qobject_unref(rsp);
    return ok;
}

/*
 * Advance the virtual clock to @dest, timer by timer while @budget lasts,
 * then in one jump (the timers due fire once, late).  Returns the budget
 * left.
 */
static int air_clock_to(int64_t dest, int budget)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    while (now < dest) {
        int64_t d = qemu_clock_deadline_ns_all(QEMU_CLOCK_VIRTUAL,
                                               QEMU_TIMER_ATTR_ALL);

        if (budget-- <= 0) {
            /* the jump: what is due runs once, and re-arms from @dest */
            cpus_set_virtual_clock(dest);
            qemu_clock_run_all_timers();
        } else {
            /* to the next timer (those due at that time run) */
            qemu_clock_advance_virtual_time(d < 0 || d >= dest - now ? dest
                                                                     : now + d);
        }
        now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    }
    /* BHs the timers scheduled */
    flush_events(NULL);
    return budget;
}

/* ---- a radio device made in process ------------------------------------ */

static DeviceState *air_radio_new(const char *type, const char *id,
                                  Object *medium)
{
    DeviceState *dev = qdev_new(type);

    if (!qdev_set_id(dev, g_strdup(id), &error_abort)) {
        abort();
    }
    object_property_set_link(OBJECT(dev), "medium", medium, &error_abort);
    return dev;
}

static void air_radio_realize(DeviceState *dev)
{
    qdev_realize(dev, NULL, &error_abort);
    object_unref(OBJECT(dev));          /* the peripheral container has it */
}

static DeviceState *air_traffic_new(const char *id, Object *medium,
                                    const uint8_t *addr, const uint8_t *dest,
                                    double x)
{
    DeviceState *dev = air_radio_new("wifi-traffic", id, medium);
    QNum *vx = qnum_from_double(x);

    qdev_prop_set_macaddr(dev, "addr", addr);
    qdev_prop_set_macaddr(dev, "dest", dest);
    qdev_prop_set_uint32(dev, "len", 100);
    qdev_prop_set_uint32(dev, "interval-us", 500);
    object_property_set_qobject(OBJECT(dev), "x", QOBJECT(vx), &error_abort);
    qobject_unref(vx);
    air_radio_realize(dev);
    return dev;
}

/* ==== wifi-scenario ===================================================== */

#define SCEN_RADIOS         4
#define SCEN_TIMERS         64      /* timer steps between two instants */

static char *scen_file;
static int scen_fd = -1;

static const uint8_t scen_ap[6] = { 2, 0xaa, 0, 0, 0, 1 };
static const uint8_t scen_card0[6] = { 2, 0, 0, 0, 0, 1 };
static const uint8_t scen_card1[6] = { 2, 0, 0, 0, 0, 2 };
static const uint8_t scen_wlan0[6] = { 2, 0, 0, 0, 0, 3 };

/* the instants, seconds: around the events' usual and extreme times */
static const double scen_instants[] = {
    0.001, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6.1, 10, 60, 100, 1000, 1e4, 1e5,
    999999.9, 1e6, 1e6 + 0.1, 1e6 + 60, 2e6 + 1,
};

/* the traffic radios send for a millisecond; the links are read (@query) */
static void scen_traffic(DeviceState **r, int n, bool query)
{
    QDict *args;

    for (int i = 1; i < n; i++) {
        object_property_set_bool(OBJECT(r[i]), "running", true, &error_abort);
    }
    air_clock_to(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + SCALE_MS, 16);
    for (int i = 1; i < n; i++) {
        object_property_set_bool(OBJECT(r[i]), "running", false,
                                 &error_abort);
    }
    if (query) {
        args = qdict_new();
        qdict_put_str(args, "medium", "fz-air");
        air_qmp_drop("query-wifi-air", args);
    }
}

static void wifi_scenario_fuzz(QTestState *s, const unsigned char *data,
                               size_t size)
{
    DeviceState *r[SCEN_RADIOS];
    Object *m;
    QDict *args;

    if (ftruncate(scen_fd, 0) ||
        pwrite(scen_fd, data, size, 0) != (ssize_t)size) {
        air_fail("wifi-scenario: cannot write %s", scen_file);
    }
    args = qdict_new();
    qdict_put_str(args, "qom-type", "wifi-medium");
    qdict_put_str(args, "id", "fz-air");
    qdict_put_str(args, "scenario", scen_file);
    if (!air_qmp_ok("object-add", args)) {
        /* refused, cleanly: nothing of it may stay */
        if (object_resolve_path_component(object_get_objects_root(),
                                          "fz-air")) {
            air_fail("wifi-scenario: object-add failed, the medium stayed");
        }
        goto out;
    }
    m = object_resolve_path_component(object_get_objects_root(), "fz-air");
    g_assert_nonnull(m);

    r[0] = air_radio_new("wifi-ap", "ap0", m);
    qdev_prop_set_string(r[0], "ssid", "QEMU");
    qdev_prop_set_macaddr(r[0], "bssid", scen_ap);
    qdev_prop_set_uint32(r[0], "beacon-interval", 10000);  /* ~10 s */
    air_radio_realize(r[0]);
    r[1] = air_traffic_new("card0", m, scen_card0, scen_ap, 0);
    r[2] = air_traffic_new("card1", m, scen_card1, scen_card0, 50);
    r[3] = air_traffic_new("wlan0", m, scen_wlan0, scen_ap, 300);

    flush_events(s);
    for (int i = 0; i < ARRAY_SIZE(scen_instants); i++) {
        air_clock_to(scen_instants[i] * NANOSECONDS_PER_SECOND, SCEN_TIMERS);
        /* (a reply is some 60 QDicts: read them now and then) */
        scen_traffic(r, SCEN_RADIOS, i % 4 == 3);
    }

    for (int i = SCEN_RADIOS - 1; i >= 0; i--) {
        object_unparent(OBJECT(r[i]));
    }
    args = qdict_new();
    qdict_put_str(args, "id", "fz-air");
    if (!air_qmp_ok("object-del", args)) {
        /*
         * wifi-medium refuses deletion (radios point at it); this one has
         * none left: finalize it as object-del would
         */
        object_unparent(m);
    }
    if (object_resolve_path_component(object_get_objects_root(), "fz-air")) {
        air_fail("wifi-scenario: the medium could not be deleted");
    }
out:
    flush_events(s);
    /*
     * Nothing of the medium and its radios may be left on the virtual
     * clock (a timer of a freed object would fire into freed memory);
     * then the next scenario starts at time 0 again
     */
    if (qemu_clock_deadline_ns_all(QEMU_CLOCK_VIRTUAL,
                                   QEMU_TIMER_ATTR_ALL) >= 0) {
        air_fail("wifi-scenario: a timer is still armed after the medium "
                 "and its radios were deleted");
    }
    cpus_set_virtual_clock(0);
}

/* BCM_FUZZ_EXTRA_ARGS: more of QEMU's arguments (e.g. -trace wifi_*) */
static GString *air_extra_args(GString *cmd)
{
    if (getenv("BCM_FUZZ_EXTRA_ARGS")) {
        g_string_append_printf(cmd, " %s ", getenv("BCM_FUZZ_EXTRA_ARGS"));
    }
    return cmd;
}

static GString *wifi_scenario_cmdline(FuzzTarget *t)
{
    return air_extra_args(g_string_new(TARGET_NAME " -machine none,"
                                       "accel=qtest -display none "
                                       "-nodefaults "));
}

static void wifi_scenario_pre_fuzz(QTestState *s)
{
    GError *gerr = NULL;

    scen_fd = g_file_open_tmp("wifi-scenario-XXXXXX.cfg", &scen_file, &gerr);
    if (scen_fd < 0) {
        air_fail("wifi-scenario: %s", gerr->message);
    }
    flush_events(s);
    if (qemu_clock_deadline_ns_all(QEMU_CLOCK_VIRTUAL,
                                   QEMU_TIMER_ATTR_ALL) >= 0) {
        air_fail("wifi-scenario: the machine has timers of its own");
    }
    cpus_set_virtual_clock(0);
}

/* ==== wifi-qmp ========================================================== */

#define QMP_CLOCK_BUDGET_NS     (10 * NANOSECONDS_PER_SECOND)

typedef struct {
    const uint8_t *p;
    size_t n;
} AirIn;

static uint8_t in_u8(AirIn *in)
{
    uint8_t v = 0;

    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return v;
}

static uint16_t in_u16(AirIn *in)
{
    return in_u8(in) | in_u8(in) << 8;
}

static uint64_t in_u64(AirIn *in)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)in_u8(in) << (8 * i);
    }
    return v;
}

/* a number: a table of edge cases, a small integer, or any 8 bytes */
static double air_num(AirIn *in)
{
    static const double table[] = {
        0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, 1e300, -1e300,
        DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 1 / 1e300,
        1e6, -1e6, 1000000.0000000001 /* 1e6 + 1 ulp */,
        -1000000.0000000001, 999999.9999999999 /* 1e6 - 1 ulp */,
        -48854.1,
        200, 200.00000000000003, -0.5, 0.5, 1, 1.0000000000000002,
        -130, -130.00000000000003, -95, 100, -50,
        9223372036854775808.0 /* 2^63 */, -9223372036854775808.0,
        18446744073709551616.0 /* 2^64 */, 4294967296.0,
    };
    uint8_t sel = in_u8(in);
    uint64_t raw;
    double d;

    if (sel < ARRAY_SIZE(table)) {
        return table[sel];
    }
    if (sel < 160) {
        return (int)sel - 96;                   /* -62 .. 63 */
    }
    raw = in_u64(in);
    memcpy(&d, &raw, sizeof(d));
    return d;
}

/* a name: radios, media, addresses (good, bad), long ones, any bytes */
static char *air_str(AirIn *in)
{
    static const char *const table[] = {
        "ap0", "card0", "sta0", "ap1", "sta1", "air0", "air1",
        "02:aa:00:00:00:01", "02:00:00:00:00:01", "02:00:00:00:00:02",
        "02:07:07:07:07:07", "ff:ff:ff:ff:ff:ff", "00:00:00:00:00:00",
        "02:AA:00:00:00:01", "2:aa:0:0:0:1", "02:aa:00:00:00:01:",
        "02:aa:00:00:00:0g", "", "nope", "/objects/air0",
        "02:bb:00:00:00:01", "02:00:00:00:00:03",
    };
    uint8_t sel = in_u8(in);
    size_t n;
    char *s;

    if (sel < ARRAY_SIZE(table)) {
        return g_strdup(table[sel]);
    }
    switch (sel) {
    case 250:
        return g_strnfill(128, 'a');            /* the longest name */
    case 251:
        return g_strnfill(129, 'a');
    case 252:
        return g_strnfill(4096, 'b');
    }
    n = MIN(in_u8(in), in->n);
    s = g_strndup((const char *)in->p, n);      /* (stops at a NUL) */
    in->p += n;
    in->n -= n;
    /* a QMP client's JSON is UTF-8 */
    if (!g_utf8_validate(s, -1, NULL)) {
        char *v = g_utf8_make_valid(s, -1);

        g_free(s);
        s = v;
    }
    return s;
}

/* a QObject for qom-set: number, integer, bool, string, null, dict, list */
static QObject *air_value(AirIn *in)
{
    uint8_t t = in_u8(in);
    QList *l;

    switch (t % 9) {
    case 0:
    case 1:
        return QOBJECT(qnum_from_double(air_num(in)));
    case 2:
        return QOBJECT(qnum_from_int((int64_t)in_u64(in)));
    case 3:
        return QOBJECT(qnum_from_uint(in_u64(in)));
    case 4:
        return QOBJECT(qbool_from_bool(in_u8(in) & 1));
    case 5: {
        g_autofree char *s = air_str(in);

        return QOBJECT(qstring_from_str(s));
    }
    case 6:
        return QOBJECT(qnull());
    case 7:
        return QOBJECT(qdict_new());
    default:
        l = qlist_new();
        qlist_append(l, qnum_from_double(air_num(in)));
        return QOBJECT(l);
    }
}

/* the objects qom-set may touch (their state is restored after each input) */
static const char *const qmp_paths[] = {
    "/objects/air0", "/objects/air1", "/machine/peripheral/ap0",
    "/machine/peripheral/card0", "/machine/peripheral/sta0",
    "/machine/peripheral/ap1", "/machine/peripheral/sta1",
};

static const char *air_path(AirIn *in)
{
    static const char *const bad[] = {
        "/objects/nope", "", "air0", "/machine/peripheral",
    };
    uint8_t sel = in_u8(in);

    if (sel < ARRAY_SIZE(qmp_paths) * 8) {
        return qmp_paths[sel % ARRAY_SIZE(qmp_paths)];
    }
    return bad[sel % ARRAY_SIZE(bad)];
}

static char *air_prop(AirIn *in)
{
    static const char *const table[] = {
        "x", "y", "z", "noise-floor", "airtime", "fcs-error-rate", "seed",
        "running", "rx-rejected", "collisions", "pcap", "netdev", "scenario",
        "pcap-max-size", "sent", "acked", "received", "medium", "ssid",
        "beacon-interval", "type", "acks", "rx-errors", "remote-resent",
        "pcap-dropped", "txpower", "interval-us", "channel",
    };
    uint8_t sel = in_u8(in);

    char *s;

    if (sel < 200) {
        return g_strdup(table[sel % ARRAY_SIZE(table)]);
    }
    s = air_str(in);
    if (!strcmp(s, "realized")) {
        /* (un)realizing devices over QOM is not the air's business */
        g_free(s);
        s = g_strdup("x");
    }
    return s;
}

/* an optional member: present if the next bit of @mask is set */
static bool air_has(uint8_t *mask)
{
    bool has = *mask & 1;

    *mask >>= 1;
    return has;
}

/* restoring the state the input changed */
typedef struct {
    Object *obj;
    char *prop;
    QObject *value;
} AirSaved;

static GArray *qmp_saved;
static NetClientState *qmp_peer;

static void qmp_save_state(void)
{
    qmp_saved = g_array_new(false, true, sizeof(AirSaved));
    for (int i = 0; i < ARRAY_SIZE(qmp_paths); i++) {
        Object *obj = object_resolve_path(qmp_paths[i], NULL);
        ObjectPropertyIterator iter;
        ObjectProperty *prop;

        g_assert_nonnull(obj);
        object_property_iter_init(&iter, obj);
        while ((prop = object_property_iter_next(&iter))) {
            AirSaved sv = { .obj = obj };

            if (!prop->get || !prop->set ||
                strstart(prop->type, "link<", NULL) ||
                strstart(prop->type, "child<", NULL)) {
                continue;
            }
            /* what can be set again after realize (and is not realized) */
            sv.value = object_property_get_qobject(obj, prop->name, NULL);
            if (!sv.value || !strcmp(prop->name, "realized") ||
                !object_property_set_qobject(obj, prop->name, sv.value,
                                             NULL)) {
                qobject_unref(sv.value);
                continue;
            }
            sv.prop = g_strdup(prop->name);
            g_array_append_val(qmp_saved, sv);
        }
    }
}

/*
 * Every property set again (seed also restarts the medium's random
 * numbers), the links of both media cleared
 */
static void qmp_restore_state(void)
{
    for (guint i = 0; i < qmp_saved->len; i++) {
        AirSaved *sv = &g_array_index(qmp_saved, AirSaved, i);

        object_property_set_qobject(sv->obj, sv->prop, sv->value,
                                    &error_abort);
    }
    for (int i = 0; i < 2; i++) {
        QDict *args = qdict_new();

        qdict_put_str(args, "medium", i ? "air1" : "air0");
        if (!air_qmp_ok("wifi-link-clear", args)) {
            air_fail("wifi-qmp: wifi-link-clear of all links failed");
        }
    }
}

/* op 7: a frame from a radio of another process on air0's netdev */
static void qmp_remote_frame(AirIn *in)
{
    static const uint8_t addrs[][6] = {
        { 2, 7, 7, 7, 7, 7 }, { 2, 0xaa, 0, 0, 0, 1 },
        { 2, 0, 0, 0, 0, 1 }, { 0, 0, 0, 0, 0, 0 },
    };
    static const uint16_t rates[16] = {
        2, 4, 11, 22, 12, 18, 24, 36, 48, 72, 96, 108, 108, 108, 108, 108,
    };
    static const uint8_t src[6] = { 2, 0x77, 0, 0, 0, 1 };
    uint8_t frame[WIFI_AIR_FRAME_MAX];
    uint8_t buf[WIFI_AIR_ETH_LEN + WIFI_AIR_MTU];
    uint8_t flags = in_u8(in), who = in_u8(in);
    WifiAirFrame af = {
        .sender = 0x7065657200000002ull,
        .freq_mhz = flags & 8 ? 2412 : 2437,
        .rate_500k = rates[flags >> 4],
        .ofdm = flags & 1,
        .short_preamble = flags & 2,
        .fcs_bad = flags & 4,
        .airtime_us = 100,
        .tx_time_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    size_t len;

    memcpy(af.radio, addrs[who % ARRAY_SIZE(addrs)], 6);
    for (int i = 0; i < 3; i++) {
        af.pos_mm[i] = (int32_t)(in_u8(in) | in_u8(in) << 8 |
                                 in_u8(in) << 16 | (uint32_t)in_u8(in) << 24);
    }
    af.txpower_dbm = (int8_t)in_u8(in);
    len = MIN(MIN(in_u16(in), in->n), sizeof(frame));
    memcpy(frame, in->p, len);
    in->p += len;
    in->n -= len;
    if (len < 10) {
        /* a data frame from that radio to everyone */
        memset(frame, 0, 24);
        frame[0] = 0x08;
        memset(frame + 4, 0xff, 6);
        memcpy(frame + 10, af.radio, 6);
        memcpy(frame + 16, af.radio, 6);
        len = 24;
    }
    af.frame = frame;
    af.len = len;
    for (unsigned i = 0; i < wifi_air_frags(len); i++) {
        size_t n = wifi_air_encode(buf, sizeof(buf), src, &af, i);

        if (n) {
            qemu_send_packet(qmp_peer, buf, n);
        }
    }
}

/* @key: a string from the input (air_str) */
static void air_put_str(QDict *args, const char *key, AirIn *in)
{
    g_autofree char *str = air_str(in);

    qdict_put_str(args, key, str);
}

static void wifi_qmp_fuzz(QTestState *s, const unsigned char *data,
                          size_t size)
{
    static const char *const cmds[] = {
        "query-wifi-air", "wifi-radio-move", "wifi-link-set",
        "wifi-link-clear",
    };
    AirIn in = { data, size };
    int64_t clock_left = QMP_CLOCK_BUDGET_NS;
    bool remote = false;

    while (in.n) {
        uint8_t op = in_u8(&in) % 9, mask;
        QDict *args = qdict_new();
        char *str;

        switch (op) {
        case 0:
            if (in_u8(&in) & 1) {
                air_put_str(args, "medium", &in);
            }
            air_qmp_drop("query-wifi-air", args);
            break;
        case 1:
            air_put_str(args, "radio", &in);
            qdict_put(args, "x", qnum_from_double(air_num(&in)));
            qdict_put(args, "y", qnum_from_double(air_num(&in)));
            qdict_put(args, "z", qnum_from_double(air_num(&in)));
            air_qmp_drop("wifi-radio-move", args);
            break;
        case 2:
            mask = in_u8(&in);
            if (air_has(&mask)) {
                air_put_str(args, "medium", &in);
            }
            air_put_str(args, "a", &in);
            air_put_str(args, "b", &in);
            if (air_has(&mask)) {
                qdict_put(args, "attenuation", qnum_from_double(air_num(&in)));
            }
            if (air_has(&mask)) {
                qdict_put(args, "loss", qnum_from_double(air_num(&in)));
            }
            if (air_has(&mask)) {
                qdict_put_bool(args, "enabled", air_has(&mask));
            }
            air_qmp_drop("wifi-link-set", args);
            break;
        case 3:
            mask = in_u8(&in);
            if (air_has(&mask)) {
                air_put_str(args, "medium", &in);
            }
            if (air_has(&mask)) {
                air_put_str(args, "a", &in);
            }
            if (air_has(&mask)) {
                air_put_str(args, "b", &in);
            }
            air_qmp_drop("wifi-link-clear", args);
            break;
        case 4:
            qdict_put_str(args, "path", air_path(&in));
            qdict_put_str(args, "property", str = air_prop(&in));
            g_free(str);
            qdict_put_obj(args, "value", air_value(&in));
            air_qmp_drop("qom-set", args);
            break;
        case 5:
            qdict_put_str(args, "path", air_path(&in));
            qdict_put_str(args, "property", str = air_prop(&in));
            g_free(str);
            air_qmp_drop("qom-get", args);
            break;
        case 6: {
            int64_t ns = MIN((in_u16(&in) + 1) * 10 * SCALE_US, clock_left);

            qobject_unref(args);
            if (ns > 0) {
                clock_left -= ns;
                qtest_clock_step(s, ns);
            }
            break;
        }
        case 7:
            qobject_unref(args);
            qmp_remote_frame(&in);
            remote = true;
            break;
        case 8: {
            const char *cmd = cmds[in_u8(&in) % ARRAY_SIZE(cmds)];
            size_t n = MIN(in_u16(&in), in.n);
            g_autofree char *text = g_strndup((const char *)in.p, n);
            QObject *parsed;

            in.p += n;
            in.n -= n;
            qobject_unref(args);
            parsed = g_utf8_validate(text, -1, NULL) ?
                     qobject_from_json(text, NULL) : NULL;
            if (parsed && qobject_type(parsed) == QTYPE_QDICT) {
                air_qmp_drop(cmd, qobject_to(QDict, parsed));
            } else {
                qobject_unref(parsed);
            }
            break;
        }
        }
        flush_events(s);
    }

    /* back to the machine of the start */
    qmp_restore_state();
    if (remote) {
        /* stations of other processes age out (10 s), their ACKs too */
        qtest_clock_step(s, 11 * NANOSECONDS_PER_SECOND);
    }
    fuzz_reset(s);
}

static GString *wifi_qmp_cmdline(FuzzTarget *t)
{
    return air_extra_args(g_string_new(TARGET_NAME
        " -machine q35,accel=qtest -display none "
        "-nodefaults -netdev hubport,id=l0,hubid=0 "
        "-object wifi-medium,id=air0,netdev=l0 "
        "-object wifi-medium,id=air1,airtime=on "
        "-device wifi-ap,id=ap0,medium=air0,ssid=QEMU,channel=6,"
        "bssid=02:aa:00:00:00:01,beacon-interval=1000 "
        "-device bcm4331,id=card0,addr=04.0,medium=air0,"
        "mac=02:00:00:00:00:01 "
        "-device wifi-traffic,id=sta0,medium=air0,addr=02:00:00:00:00:02,"
        "dest=02:aa:00:00:00:01,interval-us=20000,len=200,x=30 "
        "-device wifi-ap,id=ap1,medium=air1,ssid=AIR1,channel=1,"
        "bssid=02:bb:00:00:00:01,beacon-interval=1000 "
        "-device wifi-traffic,id=sta1,medium=air1,addr=02:00:00:00:00:03,"
        "dest=02:bb:00:00:00:01,channel=1,interval-us=20000,len=200,y=20 "));
}

static void wifi_qmp_pre_fuzz(QTestState *s)
{
    qmp_peer = fuzz_netdev_l0();
    qmp_save_state();
}

static void register_wifi_air_fuzz_targets(void)
{
    fuzz_add_target(&(FuzzTarget){
        .name = "wifi-scenario",
        .description = "wifi-medium: the input is a scenario file (libconfig:"
                       " wmediumd links, events), run on a medium with an AP"
                       " and three radios from 0 to 2e6 s",
        .get_init_cmdline = wifi_scenario_cmdline,
        .pre_fuzz = wifi_scenario_pre_fuzz,
        .fuzz = wifi_scenario_fuzz,
    });
    fuzz_add_target(&(FuzzTarget){
        .name = "wifi-qmp",
        .description = "wifi-medium: QMP commands of the air and qom-set/get "
                       "of media and radios with hostile values, clock "
                       "steps, frames from another process",
        .get_init_cmdline = wifi_qmp_cmdline,
        .pre_fuzz = wifi_qmp_pre_fuzz,
        .fuzz = wifi_qmp_fuzz,
    });
}

fuzz_target_init(register_wifi_air_fuzz_targets);
