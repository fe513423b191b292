#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
Seed inputs of the air's fuzz targets (tests/qtest/fuzz/wifi_air_fuzz.c):

  wifi-scenario  scenario files: the qtests' (bcm4331-air-test scenario and
                 scenario-refused), docs/air.md's example, wmediumd's link
                 matrices, and edge cases (a walk from -48854.1 to 10^6, a
                 long walk, events at 0 and 10^6 s, 1e300 as a link index,
                 negative and huge durations, 16 and 17 interferers, ...)
  wifi-qmp       QMP command sequences of the air (records, see the target)

    scripts/air-fuzz-seeds.py wifi-scenario OUTDIR
    scripts/air-fuzz-seeds.py wifi-qmp OUTDIR

The radios of wifi-scenario are ap0 (wifi-ap, 02:aa:00:00:00:01) and the
wifi-traffic radios card0 (02:00:00:00:00:01), card1 (02:00:00:00:00:02)
and wlan0 (02:00:00:00:00:03).
"""

import json
import os
import struct
import sys

# ---- wifi-scenario -----------------------------------------------------------

QTEST_SCENARIO = """# wmediumd's part
ifaces : { ids = [ "02:00:00:00:00:01", "02:00:00:00:00:02" ]; };
model : { type = "snr"; links = ( (0, 1, 15) ); };
events = (
  { at = 4.0; move = "card1"; to = [0.0, 0.0, 0.0]; duration = 2.0; },
  { at = 0.5; interferer = "oven"; pos = [0.0, 1000.0, 0.0];
    power = 20.0; freq = 2437; },
  { at = 1.0; move = "card1"; to = [3000.0, 0.0, 0.0]; },
  { at = 2.0; link = ["card0", "card1"]; enabled = false; },
  { at = 2.5; interferer = "oven"; on = false; },
  { at = 3.0; noise_floor = -60.0; }
);
"""

DOCS_EXAMPLE = """events = (
  # a station walks 2 km away in 60 s (moved every 100 ms of virtual time)
  { at = 5.0;  move = "wlan0"; to = [2000.0, 0.0, 0.0]; duration = 60.0; },
  # a jump
  { at = 70.0; move = "wlan0"; to = [10.0, 0.0, 0.0]; },
  # a link fading, then failing (radio names or MAC addresses)
  { at = 80.0; link = ["wlan0", "ap0"]; attenuation = 95.0; loss = 0.2; },
  { at = 90.0; link = ["wlan0", "ap0"]; enabled = false; },
  # an interferer (a noise source: its power at 1 m plus free-space loss,
  # on its channel and the overlapping ones) switching on, then off
  { at = 100.0; interferer = "oven"; pos = [5.0, 5.0, 0.0]; power = 20.0; freq = 2442; },
  { at = 110.0; interferer = "oven"; on = false; },
  # the noise floor
  { at = 120.0; noise_floor = -85.0; }
);
"""

IDS3 = ('ifaces : { ids = [ "02:00:00:00:00:01", "02:00:00:00:00:02", '
        '"02:aa:00:00:00:01" ]; };\n')

SCENARIOS = {
    "qtest-scenario": QTEST_SCENARIO,
    "docs-example": DOCS_EXAMPLE,
    # the qtest's refused files
    "refused-syntax": 'events = ( { at = 1.0; move = "x"; ',
    "refused-at": "events = ( { at = -1.0; noise_floor = -90; } );",
    "refused-pos": 'events = ( { at = 1; move = "a";\n  to = [1e9, 0.0, 0.0]; } );',
    "refused-link": 'events = ( { at = 1; link = ["a"]; } );',
    "refused-loss": 'events = ( { at = 1; link = ["a", "b"];\n  loss = 3; } );',
    "refused-bogus": "events = ( { at = 1; bogus = 1; } );",
    "refused-index": ('ifaces : { ids = [ "02:00:00:00:00:01" ]; };\n'
                      'model : { type = "snr"; links = ( (0, 5, 10) ); };'),
    "refused-mac": ('ifaces : { ids = [ "nope" ]; };\n'
                    'model : { type = "snr"; };'),
    "refused-pathloss": ('ifaces : { ids = [ "02:00:00:00:00:01" ]; };\n'
                         'model : { type = "path_loss"; };'),
    "refused-interferer": 'events = ( { at = 1; interferer = "i"; } );',
    # wmediumd's probability matrix, a default for the pairs not listed
    "wmediumd-prob": (IDS3 + 'model : { type = "prob"; default_prob = 0.25;\n'
                      '  links = ( (0, 1, 0.0), (1, 2, 1.0), (0, 2, 0.5) ); };\n'),
    "wmediumd-snr": (IDS3 + 'model : { type = "snr";\n'
                     '  links = ( (0, 1, -50), (1, 2, 100), (2, 0, 0) ); };\n'
                     'events = ( { at = 1.5; link = ["02:00:00:00:00:01", '
                     '"02:aa:00:00:00:01"]; snr = 30.0; } );\n'),
    # a walk from -48854.1 to 10^6 m (the end of the axis) and back
    "walk-edge": ('events = (\n'
                  '  { at = 0.0; move = "card0"; to = [-48854.1, 0.0, 0.0]; },\n'
                  '  { at = 1.0; move = "card0"; to = [1000000.0, 0.0, 0.0];'
                  ' duration = 1.0; },\n'
                  '  { at = 3.0; move = "card0"; to = [-1000000.0, -1000000.0,'
                  ' 1000000.0]; duration = 3.1; },\n'
                  '  { at = 4.0; move = "card1"; to = [-48854.1, 1e6, -1e6];'
                  ' duration = 0.05; }\n);\n'),
    # a walk of 10^6 s, one replaced by another, events at the end of time
    "walk-long": ('events = (\n'
                  '  { at = 0.0; move = "wlan0"; to = [1000000.0, 0.0, 0.0];'
                  ' duration = 1000000.0; },\n'
                  '  { at = 2.0; move = "card1"; to = [5.0, 5.0, 5.0];'
                  ' duration = 999999.9; },\n'
                  '  { at = 500000.0; move = "wlan0"; to = [0.0, 1000000.0, 0.0];'
                  ' duration = 500000.0; },\n'
                  '  { at = 1000000.0; noise_floor = -130.0; },\n'
                  '  { at = 1000000; move = "ap0"; to = [0, 0, 1e6]; }\n);\n'),
    # link indexes far out of int's range (a double-to-int conversion)
    "index-1e300": (IDS3 + 'model : { type = "snr"; links = ( (1e300, 0, 10) ); };'),
    "index-neg": (IDS3 + 'model : { type = "prob"; links = ( (0, -1e300, 0.5) ); };'),
    "index-frac": (IDS3 + 'model : { type = "snr"; links = ( (0.5, 1, 10) ); };'),
    "index-int64": (IDS3 + 'model : { type = "snr"; links = ( (4294967296L, 1, 10) ); };'),
    # durations and times at and past the limits
    "duration-negative": ('events = ( { at = 1.0; move = "card0"; to = [1.0, 2.0, 3.0];'
                          ' duration = -1.0; } );'),
    "duration-huge": ('events = ( { at = 1.0; move = "card0"; to = [1.0, 2.0, 3.0];'
                      ' duration = 1e300; } );'),
    "at-past-end": 'events = ( { at = 1000000.0000001; noise_floor = -90; } );',
    "at-hex": 'events = ( { at = 0x10; noise_floor = -90; }, { at = 0; noise_floor = 0; } );',
    # links by name and by address, every member, a radio that is not there
    "links": ('events = (\n'
              '  { at = 0.5; link = ["card0", "ap0"]; attenuation = 200.0; loss = 1.0; },\n'
              '  { at = 1.0; link = ["card0", "ap0"]; snr = -50.0; enabled = true; },\n'
              '  { at = 1.5; link = ["02:00:00:00:00:02", "02:aa:00:00:00:01"];'
              ' attenuation = 0.0; loss = 0.0; },\n'
              '  { at = 2.0; link = ["ghost", "card1"]; enabled = false; },\n'
              '  { at = 2.5; move = "ghost"; to = [1.0, 1.0, 1.0]; }\n);\n'),
    # interferers: all 16, on and off, on channels near and far
    "interferers-16": ("events = (\n" + ",\n".join(
        '  { at = %d.0; interferer = "i%d"; pos = [%d.0, 0.0, 0.0]; power = %d.0;'
        ' freq = %d; }' % (i % 6, i, i * 10, 40 - 5 * i, 2412 + 5 * i)
        for i in range(16)) +
        ',\n  { at = 5.0; interferer = "i3"; on = false; }\n);\n'),
    "interferers-17": ("events = (\n" + ",\n".join(
        '  { at = 1.0; interferer = "i%d"; pos = [0.0, 0.0, 0.0]; }' % i
        for i in range(17)) + "\n);\n"),
    "interferer-limits": ('events = ( { at = 1; interferer = "hot"; pos = [1e6, 1e6, 1e6];'
                          ' power = 40; freq = 6000; },\n'
                          '  { at = 2; interferer = "cold"; pos = [0, 0, 0];'
                          ' power = -50; freq = 2400; } );'),
    # shapes libconfig accepts that the format does not
    "events-group": "events = { at = 1.0; noise_floor = -90; };",
    "events-array": "events = [ 1, 2, 3 ];",
    "ids-group": 'ifaces : { ids = { a = "02:00:00:00:00:01"; }; };\nmodel : { type = "snr"; };',
    "no-type": IDS3,
    "empty": "",
}


def scenario_seeds():
    return {name: text.encode() for name, text in SCENARIOS.items()}


# ---- wifi-qmp ----------------------------------------------------------------
# value encodings of tests/qtest/fuzz/wifi_air_fuzz.c (air_num, air_str, ...)

NUMS = ["0", "-0", "nan", "-nan", "inf", "-inf", "1e300", "-1e300",
        "max", "-max", "min", "denorm", "1e-300", "1e6", "-1e6", "1e6+",
        "-1e6-", "1e6-", "-48854.1", "200", "200+", "-0.5", "0.5", "1",
        "1+", "-130", "-130-", "-95", "100", "-50", "2^63", "-2^63", "2^64",
        "2^32"]
STRS = ["ap0", "card0", "sta0", "ap1", "sta1", "air0", "air1",
        "02:aa:00:00:00:01", "02:00:00:00:00:01", "02:00:00:00:00:02",
        "02:07:07:07:07:07", "ff:ff:ff:ff:ff:ff", "00:00:00:00:00:00",
        "02:AA:00:00:00:01", "2:aa:0:0:0:1", "02:aa:00:00:00:01:",
        "02:aa:00:00:00:0g", "", "nope", "/objects/air0",
        "02:bb:00:00:00:01", "02:00:00:00:00:03"]
PATHS = ["air0", "air1", "ap0", "card0", "sta0", "ap1", "sta1"]
PROPS = ["x", "y", "z", "noise-floor", "airtime", "fcs-error-rate", "seed",
         "running", "rx-rejected", "collisions", "pcap", "netdev", "scenario",
         "pcap-max-size", "sent", "acked", "received", "medium", "ssid",
         "beacon-interval", "type", "acks", "rx-errors", "remote-resent",
         "pcap-dropped", "txpower", "interval-us", "channel"]
CMDS = ["query-wifi-air", "wifi-radio-move", "wifi-link-set", "wifi-link-clear"]


def num(v):
    if isinstance(v, str):
        return bytes([NUMS.index(v)])
    if isinstance(v, int) and -62 <= v <= 63:
        return bytes([v + 96])
    return bytes([160]) + struct.pack("<d", v)


def string(s):
    if s in STRS:
        return bytes([STRS.index(s)])
    if s == "a" * 128:
        return bytes([250])
    if s == "a" * 129:
        return bytes([251])
    if s == "b" * 4096:
        return bytes([252])
    b = s.encode()
    assert len(b) < 256
    return bytes([253, len(b)]) + b


def query(medium=None):
    return bytes([0, 1 if medium is not None else 0]) + \
        (string(medium) if medium is not None else b"")


def move(radio, x, y, z):
    return bytes([1]) + string(radio) + num(x) + num(y) + num(z)


def link_set(a, b, medium="air0", att=None, loss=None, enabled=None):
    mask = ((1 if medium is not None else 0) | (2 if att is not None else 0) |
            (4 if loss is not None else 0) |
            (8 if enabled is not None else 0) | (16 if enabled else 0))
    out = bytes([2, mask])
    if medium is not None:
        out += string(medium)
    out += string(a) + string(b)
    if att is not None:
        out += num(att)
    if loss is not None:
        out += num(loss)
    return out


def link_clear(medium=None, a=None, b=None):
    mask = ((1 if medium is not None else 0) | (2 if a is not None else 0) |
            (4 if b is not None else 0))
    out = bytes([3, mask])
    for v in (medium, a, b):
        if v is not None:
            out += string(v)
    return out


def path(p):
    return bytes([PATHS.index(p)]) if p in PATHS else bytes([56])


def prop(name):
    return bytes([PROPS.index(name)]) if name in PROPS else \
        bytes([200]) + string(name)


def v_num(x):
    return bytes([0]) + num(x)


def v_int(i):
    return bytes([2]) + struct.pack("<q", i)


def v_bool(b):
    return bytes([4, 1 if b else 0])


def v_str(s):
    return bytes([5]) + string(s)


def qom_set(p, name, value):
    return bytes([4]) + path(p) + prop(name) + value


def qom_get(p, name):
    return bytes([5]) + path(p) + prop(name)


def clock(us):
    return bytes([6]) + struct.pack("<H", max(us // 10 - 1, 0))


def remote(who=0, pos=(3000, 0, 0), power=15, frame=b"", flags=0x71):
    return bytes([7, flags, who]) + struct.pack("<iiib", *pos, power) + \
        struct.pack("<H", len(frame)) + frame


def raw(cmd, args):
    text = args if isinstance(args, str) else json.dumps(args)
    return bytes([8, CMDS.index(cmd)]) + struct.pack("<H", len(text)) + \
        text.encode()


def qmp_seeds():
    s = {}
    s["query"] = (query() + query("air0") + query("air1") + query("nope") +
                  query(""))
    s["move"] = (move("card0", 100, -1, 2) + query("air0") +
                 move("ap0", "1e6", "-1e6", "0") + move("sta0", "1e6+", 0, 0) +
                 move("sta1", "nan", 0, 0) + move("sta1", 0, "inf", 0) +
                 move("ap1", 0, 0, "-1e300") + move("ap0", "-0", "denorm", "1e6-") +
                 move("nope", 0, 0, 0) + move("02:aa:00:00:00:01", 1, 1, 1) +
                 query())
    s["links"] = (link_set("card0", "ap0", att=200, loss=1, enabled=False) +
                  link_set("card0", "ap0", att="200+") +
                  link_set("card0", "ap0", loss="1+") +
                  link_set("card0", "ap0", loss="nan", att="nan") +
                  link_set("02:00:00:00:00:01", "02:aa:00:00:00:01", att=60) +
                  link_set("02:AA:00:00:00:01", "card0", loss=0.5) +
                  link_set("card0", "card0", att=0) +
                  link_set("a" * 128, "b", medium="air0") +
                  link_set("a" * 129, "b") + link_set("", "b") +
                  link_set("card0", "ap0", medium=None, att=1) +
                  link_set("sta1", "ap1", medium="air1", enabled=True) +
                  link_set("x", "y", medium="nope") +
                  query() + link_clear("air0", "card0", "ap0") +
                  link_clear("air0", "card0") + link_clear("air0", "x", "y") +
                  link_clear() + link_clear("air1") + query())
    s["props"] = (qom_set("air0", "noise-floor", v_num("nan")) +
                  qom_set("air0", "noise-floor", v_num("-130-")) +
                  qom_set("air0", "noise-floor", v_num(0)) +
                  qom_set("air0", "noise-floor", v_str("loud")) +
                  qom_set("air0", "airtime", v_bool(True)) +
                  qom_set("air1", "airtime", v_bool(False)) +
                  qom_set("air0", "fcs-error-rate", v_int(1001)) +
                  qom_set("air0", "fcs-error-rate", v_int(1000)) +
                  qom_set("air0", "seed", v_int(-1)) +
                  qom_set("air0", "rx-rejected", v_int(0)) +
                  qom_set("card0", "x", v_num("1e6+")) +
                  qom_set("ap0", "y", v_num("-inf")) +
                  qom_set("sta0", "z", v_str("1")) +
                  qom_set("sta0", "running", v_bool(True)) +
                  clock(20000) + query("air0") +
                  qom_set("ap0", "ssid", v_str("X")) +
                  qom_set("air0", "pcap", v_str("/nonexistent/x")) +
                  qom_set("air0", "pcap-max-size", v_int(1)) +
                  qom_set("air1", "medium", v_str("air0")) +
                  qom_set("air0", "nonexistent", v_int(0)) +
                  b"".join(qom_get(p, n) for p in PATHS for n in
                           ("x", "collisions", "sent", "noise-floor")) +
                  qom_set("sta1", "running", v_bool(True)) + clock(50000) +
                  qom_set("air1", "airtime", v_bool(False)) + clock(5000) +
                  qom_set("air1", "airtime", v_bool(True)) + clock(5000) +
                  query())
    s["remote"] = (remote() + remote(who=1, pos=(2**31 - 1, -2**31, 0)) +
                   remote(who=2, power=127) + remote(who=3, power=-128) +
                   link_set("02:07:07:07:07:07", "card0", att=10) +
                   remote(frame=bytes([0x08, 0x01, 0, 0]) +
                          bytes.fromhex("02aa00000001") +
                          bytes.fromhex("020707070707") +
                          bytes.fromhex("ffffffffffff") + b"\0\0" + b"d" * 60) +
                   query("air0") + clock(1000) +
                   link_set("02:07:07:07:07:07", "ap0", enabled=False) +
                   remote(flags=0x04) + remote(frame=b"\xd4\0\0\0" +
                                               bytes.fromhex("02aa00000001")) +
                   remote(frame=b"\x80" + bytes(2000)) + query())
    s["raw"] = (raw("wifi-radio-move", '{"radio": "ap0", "x": 1e400, "y": 0, "z": 0}') +
                raw("wifi-radio-move", {"radio": "ap0", "x": 1, "y": 2}) +
                raw("wifi-radio-move", {"radio": 5, "x": 1, "y": 2, "z": 3}) +
                raw("wifi-link-set", '{"a": "card0", "b": "ap0", "attenuation": -1e400}') +
                raw("wifi-link-set", {"a": "card0", "b": "ap0", "loss": True}) +
                raw("wifi-link-set", {"a": "card0", "b": "ap0", "extra": 1}) +
                raw("wifi-link-clear", {"a": "card0"}) +
                raw("query-wifi-air", {"medium": None}) +
                raw("query-wifi-air", {"medium": ["air0"]}) +
                raw("wifi-link-set", '{"a": "\\u00e9\\u0000", "b": "ap0"}') + query())
    return s


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("wifi-scenario", "wifi-qmp"):
        raise SystemExit(__doc__)
    seeds = scenario_seeds() if sys.argv[1] == "wifi-scenario" else qmp_seeds()
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(sys.argv[2], name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
