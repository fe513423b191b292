/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTests for the simulated air (-object wifi-medium) on its own, with
 * synthetic radios (-device wifi-traffic) and no Wi-Fi card: delivery and
 * acknowledgement, broadcast, links switched off and on over QMP,
 * channels (far apart, and adjacent ones with airtime on), airtime as a
 * shared resource, the pcap file, scenario files (and the ones QEMU must
 * refuse).  What a card does on the air is tested with the card
 * (bcm4331-air-test.c).  Structure after tests/qtest/xlnx-can-test.c.
 *
 * A wifi-traffic radio sends frames of a given length and rate to an
 * address (count=, interval-us=; qom-set running=true starts it), and
 * acknowledges frames to its own address; its QOM counters sent, acked
 * and received, and query-wifi-air's, are what these tests observe.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/bswap.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "libqos/bcm43xx.h"

#define MS              (1000 * 1000)

/* a wifi-traffic radio's QOM counter (sent, acked, received) */
static uint64_t radio_get(QTestState *qts, const char *id, const char *prop)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': { "
                         "'path': %s, 'property': %s } }", path, prop);
    uint64_t v;

    g_assert_false(qdict_haskey(r, "error"));
    v = qdict_get_int(r, "return");
    qobject_unref(r);
    return v;
}

static void radio_run(QTestState *qts, const char *id, bool on)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': { "
                         "'path': %s, 'property': 'running', "
                         "'value': %i } }", path, on);

    g_assert_false(qdict_haskey(r, "error"));
    qobject_unref(r);
}

/* the medium air0's QOM counter */
static uint64_t medium_get(QTestState *qts, const char *prop)
{
    QDict *r = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': '/objects/air0', 'property': %s } }",
                         prop);
    uint64_t v = qdict_get_int(r, "return");

    qobject_unref(r);
    return v;
}

/* a QMP command (a literal) that must succeed */
#define qmp_ok(qts, cmd) do {                                         \
        QDict *r_ = qtest_qmp(qts, cmd);                              \
        g_assert_false(qdict_haskey(r_, "error"));                    \
        qobject_unref(r_);                                            \
    } while (0)

/* query-wifi-air: medium value @name (a number) */
static double air_value(QTestState *qts, const char *name)
{
    QDict *r = qtest_qmp(qts, "{ 'execute': 'query-wifi-air' }");
    QDict *m = qobject_to(QDict, qlist_peek(qdict_get_qlist(r, "return")));
    double v = qdict_get_double(m, name);

    qobject_unref(r);
    return v;
}

static double radio_x(QTestState *qts, const char *radio)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", radio);
    QDict *r = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': { "
                         "'path': %s, 'property': 'x' } }", path);
    double v = qdict_get_double(r, "return");

    qobject_unref(r);
    return v;
}

/*
 * A receiving radio "rx" (02:00:00:00:00:01, sends nothing) and a sender
 * "gen": 5 frames of 100 bytes at 11 Mb/s, 1 ms apart, to rx.  Nothing
 * moves until gen runs; rx acknowledges each frame; running=false stops
 * gen for good.
 */
static void test_traffic(void)
{
    QTestState *qts = qtest_init(
        "-M none -object wifi-medium,id=air0 "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:01,"
        "dest=02:00:00:00:00:02,count=1 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:01,len=100,count=5,interval-us=1000,rate=22");

    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, 0);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 0);
    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 5);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 5);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, 5);
    g_assert_cmpuint(medium_get(qts, "acks"), ==, 5);
    g_assert_cmpint(qbcm_air_radio(qts, "rx", "rx-frames"), ==, 5);
    g_assert_cmpint(qbcm_air_radio(qts, "gen", "tx-frames"), ==, 5);
    g_assert_cmpint(qbcm_air_radio(qts, "gen", "tx-retries"), ==, 0);

    /* no end (count=0), 1 ms apart: stopped after 3 more */
    qtest_quit(qts);
    qts = qtest_init(
        "-M none -object wifi-medium,id=air0 "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:01,"
        "dest=02:00:00:00:00:02,count=1 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:01,len=100,interval-us=1000,rate=22");
    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 2500 * 1000);
    radio_run(qts, "gen", false);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 3);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, 3);
    qtest_quit(qts);
}

/* broadcast frames: every radio on the channel gets them, nobody acks */
static void test_broadcast(void)
{
    QTestState *qts = qtest_init(
        "-M none -object wifi-medium,id=air0 "
        "-device wifi-traffic,id=rx1,medium=air0,addr=02:00:00:00:00:01 "
        "-device wifi-traffic,id=rx2,medium=air0,addr=02:00:00:00:00:02 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=ff:ff:ff:ff:ff:ff,len=200,count=4,interval-us=1000");

    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 4);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 0);
    g_assert_cmpuint(radio_get(qts, "rx1", "received"), ==, 4);
    g_assert_cmpuint(radio_get(qts, "rx2", "received"), ==, 4);
    g_assert_cmpuint(medium_get(qts, "acks"), ==, 0);
    g_assert_cmpint(qbcm_air_radio(qts, "gen", "tx-retries"), ==, 0);
    qtest_quit(qts);
}

/*
 * wifi-link-set switches the link between two radios off: the frames are
 * not heard, so not acknowledged (and retried); a third radio still hears
 * them.  wifi-link-clear puts the link back.
 */
static void test_link_set(void)
{
    QTestState *qts = qtest_init(
        "-M none -object wifi-medium,id=air0 "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:01 "
        "-device wifi-traffic,id=mon,medium=air0,addr=02:00:00:00:00:03 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:01,len=100,count=2,interval-us=1000");
    QDict *resp, *l;

    qmp_ok(qts, "{ 'execute': 'wifi-link-set', 'arguments': { "
           "'a': 'gen', 'b': 'rx', 'enabled': false } }");
    l = qbcm_air_link(qts, &resp, "gen", "rx");
    g_assert_false(qdict_get_bool(l, "enabled"));
    g_assert_false(qdict_get_bool(l, "heard"));
    g_assert_true(qdict_get_bool(l, "configured"));
    qobject_unref(resp);
    l = qbcm_air_link(qts, &resp, "gen", "mon");
    g_assert_true(qdict_get_bool(l, "heard"));
    qobject_unref(resp);
    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 2);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 0);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, 0);
    g_assert_cmpint(qbcm_air_radio(qts, "gen", "tx-retries"), >, 0);
    /* every try of both frames reached the radio the link left alone */
    g_assert_cmpuint(radio_get(qts, "mon", "received"), ==,
                     2 + qbcm_air_radio(qts, "gen", "tx-retries"));

    qmp_ok(qts, "{ 'execute': 'wifi-link-clear', 'arguments': { "
           "'a': 'gen', 'b': 'rx' } }");
    l = qbcm_air_link(qts, &resp, "gen", "rx");
    g_assert_true(qdict_get_bool(l, "enabled"));
    g_assert_true(qdict_get_bool(l, "heard"));
    g_assert_false(qdict_get_bool(l, "configured"));
    qobject_unref(resp);
    qmp_ok(qts, "{ 'execute': 'system_reset' }");
    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 2);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, 2);
    qtest_quit(qts);
}

/* radios 25 MHz apart (channels 1 and 6) do not hear each other */
static void test_channels(void)
{
    QTestState *qts = qtest_init(
        "-M none -object wifi-medium,id=air0 "
        "-device wifi-traffic,id=rx1,medium=air0,addr=02:00:00:00:00:01,"
        "channel=1 "
        "-device wifi-traffic,id=rx6,medium=air0,addr=02:00:00:00:00:06,"
        "channel=6 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:06,len=100,count=3,interval-us=1000,"
        "channel=1");

    g_assert_cmpint(qbcm_air_radio(qts, "rx1", "freq"), ==, 2412);
    g_assert_cmpint(qbcm_air_radio(qts, "rx6", "freq"), ==, 2437);
    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "sent"), ==, 3);
    g_assert_cmpuint(radio_get(qts, "rx1", "received"), >=, 3);
    g_assert_cmpuint(radio_get(qts, "rx6", "received"), ==, 0);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 0);
    qtest_quit(qts);
}

/*
 * Adjacent channels (airtime on): a jammer that the sender cannot hear
 * (link off) blasts broadcast frames 1 m from the receiver.  On channel 4
 * (10 MHz from channel 6: 5.7 dB of rejection) it drowns the sender's
 * frames at the receiver; on channel 1 or 11 (25 MHz away: no overlap)
 * it does not matter.
 */
static bool adjacent_jam(unsigned channel)
{
    g_autofree char *cmd = g_strdup_printf(
        "-M none -object wifi-medium,id=air0,airtime=on "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:02 "
        "-device wifi-traffic,id=tx,medium=air0,addr=02:00:00:00:00:01,"
        "dest=02:00:00:00:00:02,len=1000,count=1 "
        "-device wifi-traffic,id=jam,medium=air0,addr=02:00:00:00:66:01,"
        "dest=ff:ff:ff:ff:ff:ff,rate=2,len=1500,channel=%u,x=1", channel);
    QTestState *qts = qtest_init(cmd);
    bool acked;

    qmp_ok(qts, "{ 'execute': 'wifi-link-set', 'arguments': { "
           "'a': 'tx', 'b': 'jam', 'enabled': false } }");
    qmp_ok(qts, "{ 'execute': 'wifi-link-set', 'arguments': { "
           "'a': 'tx', 'b': 'rx', 'attenuation': 60 } }");
    radio_run(qts, "jam", true);
    qtest_clock_step(qts, 5 * MS);
    radio_run(qts, "tx", true);
    qtest_clock_step(qts, 200 * MS);
    g_assert_cmpuint(radio_get(qts, "tx", "sent"), ==, 1);
    g_assert_cmpint(qbcm_air_radio(qts, "tx", "tx-frames"), >=, 1);
    acked = radio_get(qts, "tx", "acked") == 1;
    g_assert_cmpuint(radio_get(qts, "rx", "received"), ==, acked);
    qtest_quit(qts);
    return acked;
}

static void test_adjacent_channels(void)
{
    g_assert_false(adjacent_jam(4));        /* 2427 MHz: overlaps 2437 */
    g_assert_true(adjacent_jam(1));         /* 2412 MHz: does not */
    g_assert_true(adjacent_jam(11));        /* 2462 MHz: does not */
}

/*
 * Airtime is shared: two senders back to back, 1500-byte frames at
 * 54 Mb/s (244 us on the air each, 20 us preamble + 56 symbols), for
 * 100 ms.  With airtime on the air carries them one at a time: no more
 * than 100 ms / 244 us = 409 frames between them, and both get through,
 * in fair shares: a sender that lost the contention keeps what is left of
 * its backoff for the next round (802.11's DCF) instead of starving
 * against the other's fresh draws (283 to 1 before that was modelled).
 * With airtime off each sends at its own pace, one mean exchange apart,
 * as if alone: more than the air could carry.
 */
static uint64_t contention(bool airtime)
{
    g_autofree char *cmd = g_strdup_printf(
        "-M none -object wifi-medium,id=air0,airtime=%s "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:01 "
        "-device wifi-traffic,id=g1,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:01 "
        "-device wifi-traffic,id=g2,medium=air0,addr=02:00:00:00:77:02,"
        "dest=02:00:00:00:00:01", airtime ? "on" : "off");
    QTestState *qts = qtest_init(cmd);
    uint64_t a1, a2;

    radio_run(qts, "g1", true);
    radio_run(qts, "g2", true);
    for (int i = 0; i < 100; i++) {
        qtest_clock_step(qts, 1 * MS);
    }
    radio_run(qts, "g1", false);
    radio_run(qts, "g2", false);
    a1 = radio_get(qts, "g1", "acked");
    a2 = radio_get(qts, "g2", "acked");
    g_assert_cmpuint(a1, >, 0);
    g_assert_cmpuint(a2, >, 0);
    g_assert_cmpuint(radio_get(qts, "rx", "received"), >=, a1 + a2);
    g_test_message("airtime %s: %" PRIu64 " + %" PRIu64 " frames acked",
                   airtime ? "on" : "off", a1, a2);
    /* each sender at least a third of what the other gets */
    g_assert_cmpuint(3 * a1, >=, a2);
    g_assert_cmpuint(3 * a2, >=, a1);
    qtest_quit(qts);
    return a1 + a2;
}

static void test_airtime(void)
{
    g_assert_cmpuint(contention(true), <=, 100000 / 244);
    g_assert_cmpuint(contention(false), >, 100000 / 244);
}

/*
 * pcap=FILE: every frame on the air in a radiotap pcap file, ACKs
 * included: 3 data frames and their 3 ACKs, in order of time.
 */
static void test_pcap(void)
{
    g_autofree char *dir = g_dir_make_tmp("wifi-pcap-XXXXXX", NULL);
    g_autofree char *file = g_strdup_printf("%s/air.pcap", dir);
    g_autofree char *cmd = g_strdup_printf(
        "-M none -object wifi-medium,id=air0,pcap=%s "
        "-device wifi-traffic,id=rx,medium=air0,addr=02:00:00:00:00:01 "
        "-device wifi-traffic,id=gen,medium=air0,addr=02:00:00:00:77:01,"
        "dest=02:00:00:00:00:01,len=100,count=3,interval-us=1000", file);
    QTestState *qts = qtest_init(cmd);
    g_autofree uint8_t *buf = NULL;
    unsigned data = 0, acks = 0;
    uint64_t last = 0;
    size_t len, off;

    radio_run(qts, "gen", true);
    qtest_clock_step(qts, 20 * MS);
    g_assert_cmpuint(radio_get(qts, "gen", "acked"), ==, 3);
    qtest_quit(qts);

    g_assert_true(g_file_get_contents(file, (char **)&buf, &len, NULL));
    g_assert_cmpuint(len, >=, 24);
    g_assert_cmphex((uint32_t)ldl_le_p(buf), ==, 0xa1b2c3d4);
    g_assert_cmpuint(ldl_le_p(buf + 20), ==, 127);      /* radiotap */
    for (off = 24; off + 16 <= len;) {
        uint64_t t = (uint32_t)ldl_le_p(buf + off) * 1000000ull +
                     (uint32_t)ldl_le_p(buf + off + 4);
        uint32_t incl = ldl_le_p(buf + off + 8);
        const uint8_t *rt = buf + off + 16;
        const uint8_t *f;

        g_assert_cmpuint(off + 16 + incl, <=, len);
        g_assert_cmpuint(t, >=, last);
        last = t;
        f = rt + lduw_le_p(rt + 2);
        if (f[0] == 0x08) {
            g_assert_cmpmem(f + 4, 6, "\x02\x00\x00\x00\x00\x01", 6);
            data++;
        } else if (f[0] == 0xd4) {
            g_assert_cmpmem(f + 4, 6, "\x02\x00\x00\x00\x77\x01", 6);
            acks++;
        }
        off += 16 + incl;
    }
    g_assert_cmpuint(off, ==, len);
    g_assert_cmpuint(data, ==, 3);
    g_assert_cmpuint(acks, ==, 3);
    unlink(file);
    rmdir(dir);
}

/*
 * A scenario file (scenario=FILE): wmediumd's "snr" links by MAC address,
 * then events on the virtual clock: an interferer switching on, a jump, a
 * link switched off, the noise floor, a walk
 */
static void test_scenario(void)
{
    g_autofree char *dir = g_dir_make_tmp("wifi-scen-XXXXXX", NULL);
    g_autofree char *file = g_strdup_printf("%s/air.cfg", dir);
    g_autofree char *cmd = g_strdup_printf(
        "-M none -object wifi-medium,id=air0,scenario=%s "
        "-device wifi-traffic,id=radio0,medium=air0,addr=02:00:00:00:00:01 "
        "-device wifi-traffic,id=radio1,medium=air0,addr=02:00:00:00:00:02",
        file);
    static const char cfg[] =
        "# wmediumd's part\n"
        "ifaces : { ids = [ \"02:00:00:00:00:01\", \"02:00:00:00:00:02\" ]; };\n"
        "model : { type = \"snr\"; links = ( (0, 1, 15) ); };\n"
        "events = (\n"
        "  { at = 4.0; move = \"radio1\"; to = [0.0, 0.0, 0.0]; duration = 2.0; },\n"
        "  { at = 0.5; interferer = \"oven\"; pos = [0.0, 1000.0, 0.0];\n"
        "    power = 20.0; freq = 2437; },\n"
        "  { at = 1.0; move = \"radio1\"; to = [3000.0, 0.0, 0.0]; },\n"
        "  { at = 2.0; link = [\"radio0\", \"radio1\"]; enabled = false; },\n"
        "  { at = 2.5; interferer = \"oven\"; on = false; },\n"
        "  { at = 3.0; noise_floor = -60.0; }\n"
        ");\n";
    QTestState *qts;
    QDict *resp, *l;
    double x;

    g_assert_true(g_file_set_contents(file, cfg, -1, NULL));
    qts = qtest_init(cmd);
    l = qbcm_air_link(qts, &resp, "radio0", "radio1");
    g_assert_cmpfloat(qdict_get_double(l, "snr"), ==, 15.0);
    g_assert_true(qdict_get_bool(l, "configured"));
    qobject_unref(resp);
    /* the interferer 1 km away: -80 dBm of noise, the SNR falls to ~0 */
    qtest_clock_step(qts, 600 * MS);
    l = qbcm_air_link(qts, &resp, "radio0", "radio1");
    g_assert_cmpfloat(fabs(qdict_get_double(l, "snr") + 0.13), <, 0.05);
    qobject_unref(resp);
    qtest_clock_step(qts, 500 * MS);                            /* 1.1 s */
    g_assert_cmpfloat(radio_x(qts, "radio1"), ==, 3000.0);
    qtest_clock_step(qts, 1000 * MS);                           /* 2.1 s */
    l = qbcm_air_link(qts, &resp, "radio1", "radio0");
    g_assert_false(qdict_get_bool(l, "heard"));
    qobject_unref(resp);
    qtest_clock_step(qts, 1000 * MS);                           /* 3.1 s */
    g_assert_cmpfloat(air_value(qts, "noise-floor"), ==, -60.0);
    /* halfway through the walk back, then there */
    qtest_clock_step(qts, 1900 * MS);                           /* 5.0 s */
    x = radio_x(qts, "radio1");
    g_assert_cmpfloat(fabs(x - 1500.0), <=, 150.0);
    qtest_clock_step(qts, 1100 * MS);                           /* 6.1 s */
    g_assert_cmpfloat(radio_x(qts, "radio1"), ==, 0.0);
    qtest_quit(qts);
    unlink(file);
    rmdir(dir);
}

/* a scenario file QEMU must refuse, with @msg in its error */
static void scenario_refused(const char *cfg, const char *msg)
{
    g_autofree char *dir = g_dir_make_tmp("wifi-scen-XXXXXX", NULL);
    g_autofree char *file = g_strdup_printf("%s/bad.cfg", dir);
    g_autofree char *obj = g_strdup_printf("wifi-medium,id=air0,scenario=%s",
                                           file);
    g_autofree char *err = NULL;
    const char *argv[] = {
        getenv("QTEST_QEMU_BINARY"), "-M", "none", "-display", "none",
        "-object", obj, NULL,
    };
    int status;

    g_assert_true(g_file_set_contents(file, cfg, -1, NULL));
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL,
                               NULL, &err, &status, NULL));
    g_assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!strstr(err, msg)) {
        g_printerr("expected '%s' in: %s\n", msg, err);
        g_assert_not_reached();
    }
    unlink(file);
    rmdir(dir);
}

static void test_scenario_refused(void)
{
    scenario_refused("events = ( { at = 1.0; move = \"x\"; ",
                     "bad.cfg:1: syntax error");
    scenario_refused("events = ( { at = -1.0; noise_floor = -90; } );",
                     "'at' (seconds on the virtual clock)");
    scenario_refused("events = ( { at = 1; move = \"a\";\n"
                     "  to = [1e9, 0.0, 0.0]; } );",
                     "a position is [x, y, z]");
    scenario_refused("events = ( { at = 1; link = [\"a\"]; } );",
                     "link = [\"a\", \"b\"]");
    scenario_refused("events = ( { at = 1; link = [\"a\", \"b\"];\n"
                     "  loss = 3; } );",
                     "loss 0..1");
    scenario_refused("events = ( { at = 1; bogus = 1; } );",
                     "an event moves a radio");
    scenario_refused("ifaces : { ids = [ \"02:00:00:00:00:01\" ]; };\n"
                     "model : { type = \"snr\"; links = ( (0, 5, 10) ); };",
                     "link ends are two indexes");
    scenario_refused("ifaces : { ids = [ \"nope\" ]; };\n"
                     "model : { type = \"snr\"; };",
                     "is not a MAC address");
    scenario_refused("ifaces : { ids = [ \"02:00:00:00:00:01\" ]; };\n"
                     "model : { type = \"path_loss\"; };",
                     "only \"snr\" and \"prob\"");
    scenario_refused("events = ( { at = 1; interferer = \"i\"; } );",
                     "pos = [x, y, z] missing");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/net/wifi/traffic", test_traffic);
    qtest_add_func("/net/wifi/broadcast", test_broadcast);
    qtest_add_func("/net/wifi/link-set", test_link_set);
    qtest_add_func("/net/wifi/channels", test_channels);
    qtest_add_func("/net/wifi/adjacent-channels", test_adjacent_channels);
    qtest_add_func("/net/wifi/airtime", test_airtime);
    qtest_add_func("/net/wifi/pcap", test_pcap);
    qtest_add_func("/net/wifi/scenario", test_scenario);
    qtest_add_func("/net/wifi/scenario-refused", test_scenario_refused);
    return g_test_run();
}
