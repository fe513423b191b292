#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every run repeatable: record/replay and -icount determinism.

    test_replay.py wpa2      record a run (boot, scan, WPA2 association with
                             the virtual AP, DHCP from user networking, ping)
                             with -icount rr=record and filter-replay on the
                             AP's netdev, replay it: the serial output and the
                             trace of the card and the air (-trace bcm4331_*
                             -trace wifi_*) are the same, byte for byte
    test_replay.py erratum   the bug lab's failing run recorded: the
                             pre-fix b43 (scripts/bug-lab.sh rx-ring-bit12)
                             with rx-cd-erratum=on, up to its soft lockup;
                             replayed under gdb up to the bug (the slot 257
                             of a 256-slot ring), not through the whole
                             lockup: the replay's serial output and trace
                             are the record's, byte for byte, that far
    test_replay.py icount    no record/replay: two runs with
                             -icount shift=N,sleep=off, the virtual AP
                             without a netdev (WPA2 association only) give
                             the same trace and serial output
"""

import filecmp
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Guest, SH_WLAN0, log_dir  # noqa: E402
import buglab  # noqa: E402

PASS = "qemu-wpa2-secret"
TRACE = ["-trace", "bcm4331_*", "-trace", "wifi_*"]

JOIN_WPA = r"""ip link set wlan0 up
iw dev wlan0 scan | grep -q 'SSID: QEMU' && echo "scan found QEMU"
printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 && echo "4-way handshake done"
""" % PASS

SCENARIO_NET = SH_WLAN0 + JOIN_WPA + """\
udhcpc -i wlan0 -n -q -t 5
ping -c 3 10.0.2.2
"""

SCENARIO_AIR = SH_WLAN0 + JOIN_WPA + """\
iw dev wlan0 link | grep -q 'SSID: QEMU' && echo "associated"
iw dev wlan0 station dump | grep -E 'rx packets|tx packets'
"""

check = Checks()


def air(netdev):
    qa = ["-object", "wifi-medium,id=air0"]
    if netdev:
        qa += ["-netdev", "user,id=n0",
               "-object", "filter-replay,id=rep0,netdev=n0"]
    qa += ["-device", "wifi-ap,medium=air0,ssid=QEMU,channel=6,"
           "passphrase=%s" % PASS + (",netdev=n0" if netdev else "")]
    return qa


def rr_guest(name, mode, rrfile, scenario, qemu_args, initrd=None,
             append="", timeout=900, gdb=False):
    tr = os.path.join(log_dir(), "%s.trace" % name)
    if os.path.exists(tr):
        os.unlink(tr)
    g = Guest(name, scenario, buglab.icount_args((mode, rrfile) if mode
                                                 else None) + qemu_args +
              TRACE + ["-D", tr] + (["-gdb", "tcp:127.0.0.1:%d" % gdb, "-S"]
                                    if gdb else []),
              initrd=initrd, append=append,
              timeout=timeout, hostname="replay")
    g.trace = tr
    return g


def same(res_a, res_b, ga, gb, what):
    """console and trace of two runs identical, byte for byte"""
    lines = sum(1 for _ in open(ga.trace, errors="replace")) \
        if os.path.exists(ga.trace) else 0
    check(os.path.exists(ga.trace) and os.path.exists(gb.trace) and
          filecmp.cmp(ga.trace, gb.trace, shallow=False),
          "%s: the traces are identical (%d lines, %d bytes)" % (
              what, lines, os.path.getsize(ga.trace)
              if os.path.exists(ga.trace) else 0), res_b)
    check(filecmp.cmp(ga.log, gb.log, shallow=False),
          "%s: the serial output is identical (%d bytes)" % (
              what, os.path.getsize(ga.log)), res_b)
    return lines


def same_prefix(rec, rep, what, res):
    """A replay stopped early (killed by gdb at the bug): its console and
    its trace, up to their last whole line, are the start of the record's,
    byte for byte"""
    for kind, a, b in (("serial output", rec.log, rep.log),
                       ("trace", rec.trace, rep.trace)):
        full = open(a, "rb").read() if os.path.exists(a) else b""
        part = open(b, "rb").read() if os.path.exists(b) else b""
        part = part[:part.rfind(b"\n") + 1]
        # the console's last line is QEMU's own message of gdb's kill
        # ("qemu-system-x86_64: QEMU: Terminated via GDBstub"), not the guest's
        while kind == "serial output" and part.count(b"\n") and \
                part[part.rfind(b"\n", 0, -1) + 1:].startswith(b"qemu-system"):
            part = part[:part.rfind(b"\n", 0, -1) + 1]
        check(len(part) > 0 and full.startswith(part),
              "%s: the %s is the record's up to the bug (%d of %d lines)" % (
                  what, kind, part.count(b"\n"), full.count(b"\n")), res)


def record_replay(name, scenario, qemu_args, initrd=None, append=""):
    rrfile = os.path.join(log_dir(), "%s.rr" % name)
    rec = rr_guest(name + "-record", "record", rrfile, scenario, qemu_args,
                   initrd, append)
    rec.qemu_args_rr = qemu_args
    r1 = rec.run()
    rep = rr_guest(name + "-replay", "replay", rrfile, scenario, qemu_args,
                   initrd, append, timeout=2400)
    r2 = rep.run()
    check(not r2.timed_out, "the replay ran to its end", r2)
    size = os.path.getsize(rrfile) if os.path.exists(rrfile) else 0
    print("record/replay log %s: %d bytes" % (rrfile, size))
    return rec, r1, rep, r2


def gdb_at_the_bug(rec, r1, ko, initrd):
    """docs/bug-lab.md's gdb session, run: the recorded failing run
    replayed with the gdb stub, gdb stops in b43 where the slot is derived
    from RXSTATUS and sees 257 in a 256-slot ring."""
    m = re.search(r"### b43 \.text at (0x[0-9a-f]+)", r1.text)
    if not shutil.which("gdb") or not m:
        check(False, "gdb and the module's address (%s)" % bool(m), r1)
        return r1
    port = random.randint(20000, 60000)
    rrfile = os.path.join(log_dir(), "replay-erratum.rr")
    g = rr_guest("replay-erratum-gdb", "replay", rrfile, buglab.SCENARIO,
                 rec.qemu_args_rr, initrd, rec.append, gdb=port)
    g.start()
    time.sleep(2)
    out = subprocess.run(
        ["gdb", "-q", "-batch", "-nx",
         "-ex", "target remote 127.0.0.1:%d" % port,
         "-ex", "add-symbol-file %s -s .text %s" % (ko, m.group(1)),
         "-ex", "break op64_get_current_rxslot", "-ex", "continue",
         "-ex", "finish", "-ex", "print ring->nr_slots",
         "-ex", "print/x ring->dmabase", "-ex", "kill"],
        capture_output=True, text=True, timeout=600).stdout
    r3 = g.wait()
    print(out)
    check(re.search(r"Value returned is \$\d+ = 257", out) is not None and
          re.search(r"\$\d+ = 256", out) is not None,
          "gdb in the replay: op64_get_current_rxslot() returns 257 on a "
          "ring of 256 slots", r3)
    same_prefix(rec, g, "record vs replay under gdb", r3)
    return r3


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "wpa2"
    results = []
    if mode == "wpa2":
        rec, r1, rep, r2 = record_replay("replay-wpa2", SCENARIO_NET,
                                         air(True) + [
                                             "-device", "bcm4331,addr=04.0,"
                                             "medium=air0"])
        results = [r1, r2]
        print(r1.output)
        check(r1.ok, "the recorded run ran to its end", r1)
        check("4-way handshake done" in r1.output,
              "WPA2 association with the virtual AP", r1)
        check("lease of 10.0.2.15 obtained" in r1.output, "DHCP", r1)
        check(" 0% packet loss" in r1.output, "ping 10.0.2.2", r1)
        n = same(r1, r2, rec, rep, "record vs replay")
        check(n > 10000, "the trace has every register access (%d lines)" %
              n, r2)
    elif mode == "erratum":
        initrd, ko = buglab.driver_initrd("b43-revert-14a8083e6765.patch")
        qa = ["-device", "intel-iommu"] + air(True) + \
            ["-device", "bcm4331,addr=04.0,medium=air0,rx-cd-erratum=on"]
        rrfile = os.path.join(log_dir(), "replay-erratum.rr")
        rec = rr_guest("replay-erratum-record", "record", rrfile,
                       buglab.SCENARIO, qa, initrd,
                       buglab.LOCKUP_APPEND + " intel_iommu=on")
        rec.qemu_args_rr = qa
        r1 = rec.run()
        o = buglab.rx_observed(buglab.ring_trace(rec.trace))
        check(buglab.lockup(r1), "the recorded run locks up in b43_dma_rx "
              "(RX ring 0x%x, RXSTATUS 0x%x, slot %s)" % (
                  o["ring"] or 0, o["status"] or 0, o["slot"]), r1)
        results = [r1, gdb_at_the_bug(rec, r1, ko, initrd)]
    elif mode == "icount":
        qa = air(False) + ["-device", "bcm4331,addr=04.0,medium=air0"]
        ga = rr_guest("icount-a", None, None, SCENARIO_AIR, qa)
        gb = rr_guest("icount-b", None, None, SCENARIO_AIR, qa)
        ga.start()
        gb.start()
        ra, rb = ga.wait(), gb.wait()
        results = [ra, rb]
        print(ra.output)
        check(ra.ok and "associated" in ra.output,
              "WPA2 association with the virtual AP (no netdev)", ra)
        n = same(ra, rb, ga, gb, "two -icount sleep=off runs")
        check(n > 10000, "the trace has every register access (%d lines)" %
              n, rb)
    else:
        sys.exit("usage: test_replay.py wpa2|erratum|icount")
    if not check.failed:
        # the log of a passing run is not kept (hundreds of MB); only this
        # mode's: the others may be running beside it
        f = os.path.join(log_dir(), "replay-%s.rr" % mode)
        if os.path.exists(f):
            os.unlink(f)
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
