#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: one air across two "hosts" (network namespaces).

The test makes two network namespaces joined by a veth pair (10.99.N.1 and
10.99.N.2), as two machines on a LAN, and removes them at the end (no
daemon is left behind).  Host A runs the virtual access point (WPA2-PSK)
in a -M none QEMU, bridged to user networking, with an iperf3 server on
its loopback; host B runs a guest with a bcm4331.  Their wifi-media share
one air:
  mcast  over UDP multicast across the veth (-netdev socket,mcast=...);
  vde    through VDE: a vde_switch on each host, the two switches joined
         by vde_plug over UDP across the veth, and QEMU's -netdev vde.
The guest joins with wpa_supplicant (the 4-way handshake crosses the
hosts), gets a lease from host A's slirp, pings 10.0.2.2 and runs iperf3
both ways to host A.  Needs root (namespaces) and, for vde, a QEMU built
with VDE.
"""

import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Guest, driver_noise, kernel_splat,  # noqa
                     log_dir, qemu_binary, SH_WLAN0)

PASS = "qemu-netns-secret"
PORT = 5231

SCENARIO = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 && echo "4-way handshake done"
udhcpc -i wlan0 -n -q -t 10
ip -4 addr show wlan0 | grep inet
pings -c 10 -i 0.2 10.0.2.2
# iperf3's server takes one test at a time and answers "busy" to a client
# that connects before it has read the last one's end (its control
# connection closes through the air and slirp after the client is gone):
# seen in loaded suite run D, the second client refused.  Retried.
iperf() {
    for i in 1 2 3 4 5; do
        timeout 60 iperf3 "$@" > /tmp/iperf.log 2>&1
        grep -q 'server is busy' /tmp/iperf.log || break
        echo "iperf3: server busy, again"
        sleep 1
    done
    cat /tmp/iperf.log
}
echo "== up"
iperf -c 10.0.2.2 -p PORT -t 3 -f k | grep -E 'sender|receiver|busy'
echo "== down"
iperf -c 10.0.2.2 -p PORT -t 3 -f k -R | grep -E 'sender|receiver|busy'
echo "== end"
""".replace("%s", PASS).replace("PORT", str(PORT))

check = Checks()


def sh(*cmd, **kw):
    return subprocess.run(list(cmd), check=True, **kw)


class Hosts:
    """Two namespaces A and B joined by a veth pair, torn down on exit."""

    def __init__(self):
        n = os.getpid() % 200 + 20
        self.ns = ("bcmA%d" % os.getpid(), "bcmB%d" % os.getpid())
        self.addr = ("10.99.%d.1" % n, "10.99.%d.2" % n)
        self.veth = ("bva%d" % os.getpid(), "bvb%d" % os.getpid())
        self.procs = []

    def __enter__(self):
        for ns in self.ns:
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "link", "add", self.veth[0], "netns", self.ns[0], "type",
           "veth", "peer", "name", self.veth[1], "netns", self.ns[1])
        for ns, dev, a in zip(self.ns, self.veth, self.addr):
            sh("ip", "-n", ns, "addr", "add", a + "/24", "dev", dev)
            sh("ip", "-n", ns, "link", "set", dev, "up")
            # multicast leaves by the veth, as on a LAN
            sh("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)
        return self

    def run(self, i, cmd, log):
        """Start @cmd in host @i, output to @log; stopped on exit."""
        f = open(os.path.join(log_dir(), log), "wb")
        # stdin a pipe kept open: vde_switch ends at EOF on its console
        p = subprocess.Popen(["ip", "netns", "exec", self.ns[i]] + cmd,
                             stdin=subprocess.PIPE, stdout=f,
                             stderr=subprocess.STDOUT)
        self.procs.append((p, f))
        return p

    def __exit__(self, *exc):
        for p, f in reversed(self.procs):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            f.close()
        for ns in self.ns:
            subprocess.run(["ip", "netns", "del", ns])
        return False


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "mcast"
    if os.geteuid() != 0:
        print("SKIP: network namespaces need root")
        return 77
    if mode == "vde" and not shutil.which("vde_switch"):
        sys.exit("vde_switch missing (scripts/deps.sh installs vde2)")
    if mode == "vde" and "vde" not in subprocess.run(
            [qemu_binary(), "-netdev", "help"], capture_output=True,
            text=True).stdout.split():
        sys.exit("this QEMU has no -netdev vde (scripts/build-qemu.sh "
                 "configures it with --enable-vde)")
    tmp = os.path.join(log_dir(), "netns-%s" % mode)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with Hosts() as h:
        if mode == "vde":
            sw = [os.path.join(tmp, "sw%d" % i) for i in (0, 1)]
            for i in (0, 1):
                h.run(i, ["vde_switch", "-s", sw[i]], "netns-vde-sw%d.log" % i)
            for i in (0, 1):
                wait_for_path(sw[i] + "/ctl")
            # the two switches, joined over UDP across the veth
            for i in (0, 1):
                h.run(i, ["vde_plug", "vde://" + sw[i],
                          "udp://%d->%s:%d" % (5600 + i, h.addr[1 - i],
                                               5600 + 1 - i)],
                      "netns-vde-plug%d.log" % i)
            nd = ["vde,id=l0,sock=" + sw[0], "vde,id=l0,sock=" + sw[1]]
        else:
            nd = ["socket,id=l0,mcast=230.0.0.1:%d,localaddr=%s" %
                  (5700, h.addr[i]) for i in (0, 1)]
        h.run(0, ["iperf3", "-s", "-p", str(PORT), "-B", "127.0.0.1"],
              "netns-%s-iperf3.log" % mode)
        ap = h.run(0, [qemu_binary(), "-M", "none", "-display", "none",
                       "-object", "wifi-medium,id=air0,netdev=l0",
                       "-netdev", nd[0], "-netdev", "user,id=n0",
                       "-device", "wifi-ap,medium=air0,ssid=QEMU,netdev=n0,"
                       "passphrase=" + PASS],
                   "netns-%s-ap.log" % mode)
        time.sleep(1)
        g = Guest("netns-" + mode, SCENARIO, timeout=360,
                  prefix=["ip", "netns", "exec", h.ns[1]],
                  qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                             "-netdev", nd[1],
                             "-device", "bcm4331,addr=04.0,medium=air0,"
                             "mac=02:00:00:00:0b:01"])
        r = g.run()
        ap_ran = ap.poll() is None
    left = subprocess.run(["ip", "netns", "list"], capture_output=True,
                          text=True).stdout
    out, dm = r.output, r.dmesg
    print(out)
    check(r.ok, "scenario ran to the end", r)
    check(ap_ran, "the AP's QEMU ran in host A to the end", r)
    check("4-way handshake done" in out, "WPA2 across the two hosts", r)
    check("inet 10.0.2.15/24" in out, "DHCP from host A's slirp", r)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in out, "ping 10.0.2.2 without loss", r)
    for way in ("up", "down"):
        m = re.search(r"== %s\n(.*?)== " % way, out, re.S)
        kb = re.findall(r"([\d.]+) Kbits/sec[^\n]*receiver",
                        m.group(1) if m else "")
        check(kb and float(kb[0]) > 100, "iperf3 %s: %s kbit/s" %
              (way, kb[0] if kb else "none"), r)
    check(not any(ns in left for ns in h.ns),
          "the namespaces are gone", r)
    check(not driver_noise(dm), "no b43/bcma error or warning", r)
    check(not kernel_splat(dm), "no kernel WARN", r)
    return check.finish([r])


def wait_for_path(path, timeout=10):
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise RuntimeError("%s did not appear" % path)
        time.sleep(0.05)


if __name__ == "__main__":
    sys.exit(main())
