#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: protected networks between two guests, each in its own QEMU
process, on one air over UDP multicast on 127.0.0.1.

Guest A runs hostapd on its bcm4331, guest B associates; both ping each
other without loss and run iperf3 both ways.  Modes:

  wpa2     WPA2-PSK (CCMP), b43 defaults: keys in the card, the card
           encrypts and decrypts (its key trace shows CCMP in slots);
           the pcap of the air shows protected data frames only, and
           tshark decrypts them with the passphrase
  wpa2-sw  the same with b43.nohwcrypt=1: mac80211 does the crypto, the
           card never sees a key
  wep      WEP-40 open system (static keys, hardware WEP, USEDEFKEYS)
  tkip     WPA with TKIP and b43.hwtkip=1: the pairwise key in the card
           (key mixing + RC4 there, Michael in mac80211), the group key in
           software as b43 wants it
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise, kernel_splat,  # noqa
                     log_dir, run_guests, SH_WLAN0, sh_hostapd, sh_leave,
                     sh_stations_left)

PASS = "bcm4331-secret"

AP = r"""
""" + SH_WLAN0 + r"""echo "nohwcrypt $(cat /sys/module/b43/parameters/nohwcrypt)"
""" + sh_hostapd("%(ssid)s", "%(conf)s") + r"""ip addr add 192.168.78.1/24 dev wlan0
iperf3 -s -D
wait-for 'iw dev wlan0 station dump | grep -q Station' 150 && echo "station joined"
wait-for 'ping -c 1 -W 1 192.168.78.2 >/dev/null' 60
pings -c 10 -i 0.2 192.168.78.2
""" + sh_stations_left(180) + r"""echo "station left"
"""

STA_WPA = r"""
printf 'network={\n ssid="%(ssid)s"\n psk="%(pw)s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -B -D nl80211 -i wlan0 -c /tmp/wpa.conf >/dev/null &&
    echo "wpa_supplicant started"
"""

STA_TKIP = r"""
printf 'network={\n ssid="%(ssid)s"\n psk="%(pw)s"\n key_mgmt=WPA-PSK\n proto=WPA\n pairwise=TKIP\n group=TKIP\n}\n' > /tmp/wpa.conf
wpa_supplicant -B -D nl80211 -i wlan0 -c /tmp/wpa.conf >/dev/null &&
    echo "wpa_supplicant started"
"""

STA_WEP = r"""
iw dev wlan0 connect %(ssid)s keys 0:0102030405
"""

STA = r"""
""" + SH_WLAN0 + r"""echo "nohwcrypt $(cat /sys/module/b43/parameters/nohwcrypt)"
ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: %(ssid)s"' 60
%(join)s
wait-for 'iw dev wlan0 link | grep -q Connected' 40 && echo "connected"
ip addr add 192.168.78.2/24 dev wlan0
wait-for 'ping -c 1 -W 1 192.168.78.1 >/dev/null' 60 && echo "keys work"
pings -c 10 -i 0.2 192.168.78.1
timeout 60 iperf3 -c 192.168.78.1 -t 2 -f m | grep -E 'sender|receiver'
# the server closes its listening socket after a test and opens it again
# once it has read our last message: a second test started at once can
# find it closed (refused, or reset when it was still queued)
sleep 2
timeout 60 iperf3 -c 192.168.78.1 -t 2 -f m -R | grep -E 'sender|receiver'
# leave: wpa_supplicant deauthenticates when it ends
""" + sh_leave("killall wpa_supplicant 2>/dev/null || "
                  "iw dev wlan0 disconnect")

MODES = {
    "wpa2": dict(ssid="GUESTWPA", hw=True,
                 conf=r"wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\n"
                      r"rsn_pairwise=CCMP\n" % PASS, join=STA_WPA,
                 alg=3),
    "wpa2-sw": dict(ssid="GUESTWPA", hw=False,
                    conf=r"wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\n"
                         r"rsn_pairwise=CCMP\n" % PASS, join=STA_WPA,
                    alg=3),
    "tkip": dict(ssid="GUESTTKIP", hw=True, append="b43.hwtkip=1",
                 conf=r"wpa=1\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\n"
                      r"wpa_pairwise=TKIP\n" % PASS, join=STA_TKIP, alg=2),
    "wep": dict(ssid="GUESTWEP", hw=True,
                conf=r"auth_algs=1\nwep_default_key=0\nwep_key0=0102030405\n",
                join=STA_WEP, alg=1),
}

check = Checks()


def key_trace(path, alg):
    """(frames the card encrypted, frames it decrypted) with algorithm"""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return 0, 0
    tx = len(re.findall(r"TX key slot \d+ algorithm %d: \d+ -> [1-9]" % alg,
                        text))
    rx = len(re.findall(r"RX key slot \d+ algorithm %d: \d+ bytes, "
                        r"authentic 1" % alg, text))
    return tx, rx


def tshark(pcap, *args):
    r = subprocess.run(["tshark", "-n", "-r", pcap] + list(args),
                       capture_output=True, text=True, timeout=120)
    return r.stdout


def run_mode(mode):
    m = MODES[mode]
    mcast = air_netdev()
    pcap = os.path.join(log_dir(), "crypto-%s.pcap" % mode)
    subst = dict(ssid=m["ssid"], conf=m["conf"], pw=PASS)
    subst["join"] = m["join"] % subst
    guests = []
    for name, script, mac in (("ap", AP, "02:00:00:00:00:1a"),
                              ("sta", STA, "02:00:00:00:00:1b")):
        name = "crypto-%s-%s" % (mode, name)
        trace = os.path.join(log_dir(), name + ".trace")
        if os.path.exists(trace):
            os.unlink(trace)
        medium = "wifi-medium,id=air0,netdev=l0"
        if name.endswith("-ap"):
            medium += ",pcap=" + pcap
        g = Guest(name, script % subst, timeout=400,
                  append=m.get("append", "" if m["hw"] else
                               "b43.nohwcrypt=1"),
                  qemu_args=["-object", medium, "-netdev", mcast,
                             "-device",
                             "bcm4331,addr=04.0,medium=air0,mac=" + mac,
                             "-trace", "bcm4331_key_*", "-D", trace])
        g.trace = trace
        guests.append(g)
    ap, sta = run_guests(guests)
    print(ap.output)
    print(sta.output)
    for r in (ap, sta):
        check(r.ok, "%s: scenario ran to the end" % mode, r)
        check(not driver_noise(r.dmesg), "%s: no b43/bcma error or warning "
              "%s" % (mode, driver_noise(r.dmesg)[:3]), r)
        check(not kernel_splat(r.dmesg), "%s: no kernel WARN" % mode, r)
        check(("nohwcrypt %s" % (0 if m["hw"] else 1)) in r.output,
              "%s: b43 nohwcrypt=%s" % (mode, 0 if m["hw"] else 1), r)
    check("hostapd started" in ap.output, "%s: hostapd runs" % mode, ap)
    check("connected" in sta.output and "keys work" in sta.output,
          "%s: station associated, traffic passes" % mode, sta)
    for r in (ap, sta):
        check("10 packets transmitted, 10 packets received, 0% packet loss"
              in r.output, "%s: ping without loss" % mode, r)
    rates = re.findall(r"([\d.]+) Mbits/sec.*receiver", sta.output)
    check(len(rates) == 2 and all(float(x) > 0 for x in rates),
          "%s: iperf3 both ways (%s Mbit/s)" % (mode, rates), sta)
    for g, r in zip(guests, (ap, sta)):
        tx, rx = key_trace(g.trace, m["alg"])
        if m["hw"]:
            check(tx > 20 and rx > 20, "%s: the card encrypted %d and "
                  "decrypted %d frames" % (mode, tx, rx), r)
        else:
            check(tx == 0 and rx == 0, "%s: the card saw no key (%d/%d)" %
                  (mode, tx, rx), r)
    if mode == "wpa2":
        plain = tshark(pcap, "-Y", "icmp")
        prot = tshark(pcap, "-Y", "wlan.fc.type == 2 && "
                      "wlan.fc.protected == 1")
        dec = tshark(pcap, "-o", "wlan.enable_decryption:TRUE", "-o",
                     'uat:80211_keys:"wpa-pwd","%s:%s"' % (PASS, m["ssid"]),
                     "-Y", "icmp")
        print("pcap: %d protected data frames, %d ICMP in the clear, "
              "%d ICMP after decryption" % (len(prot.splitlines()),
                                            len(plain.splitlines()),
                                            len(dec.splitlines())))
        check(len(prot.splitlines()) > 40 and not plain.strip(),
              "wpa2: data on the air is protected", ap)
        check(len(dec.splitlines()) >= 40,
              "wpa2: tshark decrypts the pings with the passphrase", ap)
    return [ap, sta]


def main():
    modes = sys.argv[1:] or list(MODES)
    results = []
    for mode in modes:
        results += run_mode(mode)
    return check.finish(results)


if __name__ == "__main__":
    sys.exit(main())
