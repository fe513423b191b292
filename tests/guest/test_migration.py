#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: live migration of a guest in the middle of an iperf3 run
through its card.

Four QEMU processes on one air (UDP multicast on 127.0.0.1): the virtual
access point (-M none), a server guest running
iperf3 -s, and the client guest, which is migrated (precopy, tcp on
127.0.0.1) to a fourth process while iperf3 -c sends to the server across
the access point.  The TCP session must survive: iperf3 ends without error,
the server counts what the client reports it received; b43 on the migrated
guest must report no error (an out-of-order or duplicate TX status, a
stuck ring), and the card's TX statuses must account for every frame
(with "airtime" as argument the air takes real time: frames are in the
card's TX FIFO and on the air's timers when the source stops)
mac80211 handed it: the station's tx packets grew across the move, and
the interface's counters after the move are consistent with mac80211's.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, Qmp, driver_noise,  # noqa
                     kernel_splat, log_dir, qemu_binary, Result, SH_WLAN0)

JOIN = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 30 && echo "connected"
ip addr add MY_IP/24 dev wlan0
"""

SERVER = JOIN.replace("MY_IP", "192.168.80.1") + r"""
timeout 300 iperf3 -s -1 -J > /tmp/iperf.json 2>&1
grep -E '"bytes"|"error"' /tmp/iperf.json | tail -n 4
echo "served"
"""

CLIENT = JOIN.replace("MY_IP", "192.168.80.2") + r"""
wait-for 'ping -c 1 -W 1 SERVER_IP >/dev/null' 120 && echo "server reachable"
sleep 2
stat() { iw dev wlan0 station dump | grep -E 'tx packets|tx retries|tx failed' | tr -d '\t' | tr '\n' ' '; echo; }
echo "before: $(stat)"
timeout 200 iperf3 -c SERVER_IP -t SECS -J > /tmp/iperf.json 2>&1 &
sleep 8
echo "BCM-HOST: migrate"
wait
echo "iperf3 exit $?"
tr -d ' \t\n' < /tmp/iperf.json | grep -o '"sum_sent":{[^}]*}' | head -n1
tr -d ' \t\n' < /tmp/iperf.json | grep -o '"sum_received":{[^}]*}' | head -n1
grep -q '"error"' /tmp/iperf.json && grep '"error"' /tmp/iperf.json
echo "after: $(stat)"
echo "iface: tx $(cat /sys/class/net/wlan0/statistics/tx_packets) rx $(cat /sys/class/net/wlan0/statistics/rx_packets)"
"""

SECS = 30
check = Checks()


def main():
    with socket.socket() as so:             # a free port for the stream
        so.bind(("127.0.0.1", 0))
        mport = so.getsockname()[1]
    mcast = air_netdev()
    # "airtime": the air takes real time: frames sit in the card's TX FIFO
    # and on the air's timers when the source stops
    mode = sys.argv[1] if sys.argv[1:] else "plain"
    if mode not in ("plain", "airtime"):
        sys.exit("usage: test_migration.py [plain|airtime]")
    opts = ",airtime=on" if mode == "airtime" else ""
    # the modes run side by side in the suite: every file is per mode
    tag = "migration-" + mode
    air = ["-object", "wifi-medium,id=air0,netdev=l0" + opts,
           "-netdev", mcast]
    ap_log = open(os.path.join(log_dir(), tag + "-ap.log"), "wb")
    ap = subprocess.Popen([qemu_binary(), "-M", "none", "-display", "none",
                           "-object", "wifi-medium,id=air0,netdev=l0" + opts,
                           "-netdev", mcast, "-netdev", "user,id=n0",
                           "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                           "netdev=n0"], stdout=ap_log, stderr=ap_log)
    dst = {}

    def migrate(qmp):
        cmd = [a.replace(cli.qmp_path, cli.qmp_path + ".dst")
               for a in cli.command(cli.sfile)]
        dst["log"] = os.path.join(log_dir(), tag + "-dst.console.log")
        dst["f"] = open(dst["log"], "wb")
        dst["proc"] = subprocess.Popen(
            cmd + ["-incoming", "tcp:127.0.0.1:%d" % mport],
            stdin=subprocess.DEVNULL, stdout=dst["f"],
            stderr=subprocess.STDOUT)
        dq = Qmp(cli.qmp_path + ".dst")      # waits for the destination
        dq.close()
        t0 = time.monotonic()
        qmp.cmd("migrate", uri="tcp:127.0.0.1:%d" % mport)
        while True:
            st = qmp.cmd("query-migrate")
            if st.get("status") == "completed":
                break
            if st.get("status") in ("failed", "cancelled") or \
                    time.monotonic() - t0 > 120:
                raise RuntimeError("migration %s" % json.dumps(st))
            time.sleep(0.1)
        dst["downtime"] = st.get("downtime")
        dst["total"] = st.get("total-time")
        qmp.cmd("quit")                     # the source's part is over

    try:
        srv = Guest(tag + "-srv", SERVER, timeout=400,
                    qemu_args=air + ["-device", "bcm4331,addr=04.0,"
                                     "medium=air0,mac=02:00:00:00:0a:01"])
        srv.start()
        cli = Guest(tag + "-cli", CLIENT.replace("SERVER_IP", "192.168.80.1")
                    .replace("SECS", str(SECS)), timeout=400,
                    actions={"BCM-HOST: migrate": migrate},
                    qemu_args=air + ["-device", "bcm4331,addr=04.0,"
                                     "medium=air0,mac=02:00:00:00:0a:02"])
        cli.start()
        rc = cli.wait()                     # the source: quit after the move
        r_srv = srv.wait()
        r = rc
        if "proc" in dst:
            try:
                dst["proc"].wait(timeout=300)
            except subprocess.TimeoutExpired:
                dst["proc"].kill()
                dst["proc"].wait()
            dst["f"].close()
            with open(dst["log"], "rb") as f:
                text = rc.text + f.read().decode("utf-8", "replace") \
                    .replace("\r", "")
            r = Result(tag + "-cli", dst["log"], text, False,
                       dst["proc"].returncode)
    finally:
        ap.terminate()
        ap.wait()
        ap_log.close()
        for k in ("proc",):
            if k in dst and dst[k].poll() is None:
                dst[k].kill()
    out, dm = r.output, r.dmesg
    print(out)
    print("server:", r_srv.output)
    check(not cli.action_errors, "migration %s" % cli.action_errors, r)
    check("proc" in dst, "the destination was started", r)
    print("migration: total %s ms, downtime %s ms" %
          (dst.get("total"), dst.get("downtime")))
    check(r.ok, "the scenario ran to its end on the destination", r)
    check("server reachable" in out, "the two guests reach each other", r)
    check("iperf3 exit 0" in out, "iperf3 ran to the end across the move", r)
    sent = re.search(r'"sum_sent":\{[^}]*"bytes":(\d+)', out)
    recv = re.search(r'"sum_received":\{[^}]*"bytes":(\d+)', out)
    # iperf3 counts at the receiver until the test time is over: what is
    # still in the socket buffers then (up to a few hundred KiB) is not in
    check(sent is not None and recv is not None and
          int(sent.group(1)) > 0 and
          int(recv.group(1)) >= int(sent.group(1)) * 0.95,
          "the TCP session survived: received %s of %s bytes" %
          (recv.group(1) if recv else "?", sent.group(1) if sent else "?"),
          r)
    check(recv is not None and
          re.search(r'"bytes":\s*%s\b' % recv.group(1), r_srv.output),
          "the server's count is the client's report", r_srv)
    b = re.search(r"before: tx packets:(\d+)", out)
    a = re.search(r"after: tx packets:(\d+) tx retries:(\d+) "
                  r"tx failed:(\d+)", out)
    i = re.search(r"iface: tx (\d+)", out)
    check(b is not None and a is not None and
          int(a.group(1)) > int(b.group(1)) + 1000,
          "the station sent across the move (%s -> %s frames, %s failed)" %
          (b.group(1) if b else "?", a.group(1) if a else "?",
           a.group(3) if a else "?"), r)
    if a and i:
        # every frame mac80211 counted was reported by the card (sent or
        # failed); the interface counts what the stack queued
        check(int(a.group(3)) <= int(a.group(1)) // 20 and
              int(i.group(1)) >= int(a.group(1)) - 64,
              "TX statuses account for the frames (station %s sent, %s "
              "failed; interface %s)" % (a.group(1), a.group(3),
                                         i.group(1)), r)
    check("served" in r_srv.output, "the server finished", r_srv)
    bad = driver_noise(r.text + dm)
    check(not bad, "no b43/bcma error or warning %s" % bad[:5], r)
    check(not kernel_splat(r.text + dm), "no kernel WARN", r)
    return check.finish([r, r_srv])


if __name__ == "__main__":
    sys.exit(main())
