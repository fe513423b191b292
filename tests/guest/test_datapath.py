#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: scan, associate, DHCP and traffic through the virtual AP.

One guest with a bcm4331 on a wifi-medium with a wifi-ap bridged to QEMU
user networking: `iw dev wlan0 scan` finds SSID QEMU on channel 6 with a
plausible signal, `iw dev wlan0 connect QEMU` associates, udhcpc gets
10.0.2.15, ping 10.0.2.2 loses nothing, a 4 MiB file served by the host
downloads intact, and b43/bcma print no error or warning.
"""

import functools
import hashlib
import http.server
import os
import re
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Guest, driver_noise, kernel_splat  # noqa: E402

SCENARIO = r"""
wait-for '[ -e /sys/class/net/wlan0 ]' 60
ip link set wlan0 up
echo "== scan"
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID:'
echo "== connect"
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20
iw dev wlan0 link
echo "== dhcp"
udhcpc -i wlan0 -n -q -t 10
ip -4 addr show wlan0
echo "== ping"
ping -c 20 -i 0.2 10.0.2.2
echo "== download"
wget -q -O /tmp/blob http://10.0.2.2:PORT/blob && echo "download ok"
echo "md5 $(md5sum /tmp/blob)"
echo "size $(wc -c < /tmp/blob)"
"""

check = Checks()


def main():
    blob = os.urandom(4 << 20)
    tmp = tempfile.mkdtemp(prefix="bcm4331-http-")
    with open(os.path.join(tmp, "blob"), "wb") as f:
        f.write(blob)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=tmp)
    handler.log_message = lambda *a: None
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]

    g = Guest("datapath", SCENARIO.replace("PORT", str(port)), timeout=400,
              qemu_args=["-object", "wifi-medium,id=air0",
                         "-netdev", "user,id=n0",
                         "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                         "netdev=n0,channel=6",
                         "-device", "bcm4331,addr=04.0,medium=air0"])
    r = g.run()
    srv.shutdown()
    out, dm = r.output, r.dmesg
    print(out)
    check(r.ok, "scenario ran to the end", r)
    m = re.search(r"freq: (\d+)\s+signal: (-?\d+)\.\d+ dBm\s+SSID: QEMU", out)
    check(m is not None, "scan finds SSID QEMU", r)
    if m:
        check(m.group(1) == "2437", "on channel 6 (%s MHz)" % m.group(1), r)
        check(-90 < int(m.group(2)) < -20,
              "plausible signal (%s dBm)" % m.group(2), r)
    check(re.search(r"Connected to [0-9a-f:]+ \(on wlan0\)\s+SSID: QEMU", out)
          is not None, "associated with QEMU", r)
    check("wlan0: associated" in dm, "mac80211 says associated", r)
    check("inet 10.0.2.15/24" in out, "udhcpc got 10.0.2.15", r)
    check("20 packets transmitted, 20 packets received, 0% packet loss" in out,
          "ping 10.0.2.2 without loss", r)
    check("download ok" in out, "4 MiB download completed", r)
    check("md5 %s" % hashlib.md5(blob).hexdigest() in out,
          "download intact (md5)", r)
    bad = driver_noise(dm)
    check(not bad, "no b43/bcma error or warning %s" % bad[:5], r)
    check(not kernel_splat(dm), "no kernel WARN", r)
    return check.finish([r])


if __name__ == "__main__":
    sys.exit(main())
