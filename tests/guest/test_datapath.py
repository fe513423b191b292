#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: scan, associate, DHCP and traffic through the virtual AP.

One guest with a bcm4331 on a wifi-medium with a wifi-ap bridged to QEMU
user networking: `iw dev wlan0 scan` finds SSID QEMU on channel 6 with a
plausible signal, `iw dev wlan0 connect QEMU` associates, udhcpc gets
10.0.2.15, ping 10.0.2.2 loses nothing, a 4 MiB file served by the host
downloads intact, and b43/bcma print no error or warning.

With an argument: "wpa2" makes the AP WPA2-PSK (passphrase=) and the guest
join with wpa_supplicant, b43 defaults (the card does CCMP: its key trace
must show it); "wpa2-sw" the same with b43.nohwcrypt=1 (mac80211 does it).
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
from harness import (Checks, Guest, driver_noise, kernel_splat, log_dir,  # noqa
                     SH_WLAN0)

SCENARIO = r"""
""" + SH_WLAN0 + r"""ip link set wlan0 up
echo "== scan"
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID:'
echo "== connect"
JOIN
wait-for 'iw dev wlan0 link | grep -q Connected' 30
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

PASS = "qemu-wpa2-secret"
JOIN_OPEN = "iw dev wlan0 connect QEMU"
# wpa_supplicant says CTRL-EVENT-CONNECTED once the 4-way handshake is done
JOIN_WPA = r"""printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 && echo "4-way handshake done"
""" % PASS

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

    mode = sys.argv[1] if len(sys.argv) > 1 else "open"
    wpa = mode.startswith("wpa2")
    trace = os.path.join(log_dir(), "datapath-%s.trace" % mode)
    if os.path.exists(trace):
        os.unlink(trace)
    scenario = SCENARIO.replace("PORT", str(port))
    scenario = scenario.replace("JOIN", JOIN_WPA if wpa else JOIN_OPEN)
    g = Guest("datapath-" + mode, scenario, timeout=400,
              append="b43.nohwcrypt=1" if mode == "wpa2-sw" else "",
              qemu_args=["-object", "wifi-medium,id=air0",
                         "-netdev", "user,id=n0",
                         "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                         "netdev=n0,channel=6" +
                         (",passphrase=" + PASS if wpa else ""),
                         "-device", "bcm4331,addr=04.0,medium=air0",
                         "-trace", "bcm4331_key_*", "-D", trace])
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
    if wpa:
        check("4-way handshake done" in out, "WPA2 4-way handshake with "
              "the virtual AP", r)
        text = open(trace, errors="replace").read() if \
            os.path.exists(trace) else ""
        tx = len(re.findall(r"TX key slot 4 algorithm 3: \d+ -> [1-9]", text))
        rx = len(re.findall(r"RX key slot 4 algorithm 3: \d+ bytes, "
                            r"authentic 1", text))
        if mode == "wpa2":
            check(tx > 100 and rx > 1000, "the card did CCMP (%d frames "
                  "encrypted, %d decrypted)" % (tx, rx), r)
        else:
            check(tx == 0 and rx == 0, "nohwcrypt: the card saw no key "
                  "(%d/%d)" % (tx, rx), r)
    bad = driver_noise(dm)
    check(not bad, "no b43/bcma error or warning %s" % bad[:5], r)
    check(not kernel_splat(dm), "no kernel WARN", r)
    return check.finish([r])


if __name__ == "__main__":
    sys.exit(main())
