#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest test: the BCM43224 (-device bcm43224) under Broadcom's own
driver, brcmsmac, unchanged, on the 6.12 and the 6.1 kernel.

    test_brcmsmac.py [ap|hostapd|ht|realfw]

ap (default), both kernels at once, each guest with its own virtual AP:
  bcma enumerates the chip as real BCM43224 cards print it, brcmsmac
  probes with no error or warning, wlan0 comes up, scans, associates
  (open), DHCP, ping, iperf3 both ways; then WPA2-PSK (mac80211's
  software CCMP: brcmsmac has no set_key, so the card's key table stays
  untouched), DHCP, ping, iperf3 both ways; monitor mode (the AP's
  beacons); 10 rmmod/modprobe/up/down cycles.
hostapd: a b43 guest (bcm4331, 6.12) runs hostapd (WPA2) and a brcmsmac
  guest (bcm43224, BCM_GUEST_KERNEL or 6.1) joins it over the air of two
  QEMU processes: ping and iperf3 both ways.
ht: two BCM43224 guests, one running hostapd on brcmsmac (802.11n, WPA2),
  the other joining it, airtime on: the AP's beacons come from its
  template (the station counts them), the link is HT (an MCS rate), ping
  without loss; a UDP burst through the AP's iperf3 server with the
  station held at MCS1, so that the air, not the guest, is the
  bottleneck: brcmsmac aggregates in every run (several MPDUs per
  aggregate, within its 5 ms limit at MCS1); 8 MiB of TCP arrive whole.
  From the trace of each card: every A-MPDU is block-acknowledged, holds
  1 to 16 MPDUs, and holds several only after the card's TX FIFO was
  full (brcmsmac joins MPDUs while the engine lags behind it); no
  warning from brcmsmac's ampdu.c.
Every iperf3 client's output (stderr too) and exit code are in the log,
prefixed; the servers in guests start before the wait-fors, and their
clients wait for the port.
realfw: Broadcom's brcm/bcm43xx{,_hdr}-0.fw (Debian's firmware-brcm80211,
  fetched by scripts/fetch-brcm-firmware.sh) instead of our stubs: the
  device recognises release 610.812, brcmsmac associates and pings.
  Skipped (exit 77) when the package cannot be fetched.

b43 claims the BCM43224's core too (its table lists core revision 0x17):
as on a real machine with both drivers, the guest blacklists b43 so that
brcmsmac binds.
"""

import contextlib
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (air_netdev, Checks, Guest, driver_noise,  # noqa
                     host_iperf3, kernel_splat, log_dir, run_guests,
                     SH_WLAN0, sh_hostapd, sh_leave, sh_stations_left)

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PASS = "brcmsmac-wpa2-secret"
CYCLES = 10
NOISE = r"brcms|bcma|brcmsmac|ieee80211 phy"

# iperf3 as a client: all its output, stderr included, flushed as it goes
# (--forceflush: stdout is a file), then its exit code, each line
# prefixed with TAG: "iperf_c TAG ARGS..." (a failure explains itself)
SH_IPERF = r"""iperf_c() {
  tag=$1; shift
  timeout 90 iperf3 "$@" --forceflush > /tmp/iperf3.log 2>&1
  echo "$tag iperf3 exit $?"
  sed "s/^/$tag /" /tmp/iperf3.log
}
"""


def sh_iperf_server():
    """an iperf3 server in the background, its log (errors included) in
    /tmp/iperf3-server.log; an AP starts it before its wait-fors"""
    return ("iperf3 -s -D --forceflush --logfile /tmp/iperf3-server.log"
            " && echo \"iperf3 server started\"\n")


def sh_wait_port(addr, port=5201):
    """a client waits until @addr listens on TCP @port (busybox nc: the
    connection closes at once; the iperf3 server ends that session and
    listens again, hence the second's pause)"""
    return ("wait-for 'nc -w 2 %s %d </dev/null >/dev/null 2>&1' 60 && "
            "echo \"%s:%d listens\"\nsleep 1\n" % (addr, port, addr, port))


def sh_sta_counters(tag):
    """the station's frame counters, prefixed with @tag"""
    return ("iw dev wlan0 station dump | grep -E 'tx packets|rx packets|"
            "tx retries|tx failed' | sed 's/^/%s /'\n" % tag)


# load brcmsmac the way a user with both drivers would: b43 blacklisted
SH_LOAD = SH_IPERF + r"""echo "blacklist b43" > /etc/modprobe.conf
COPYFW
modprobe brcmsmac && echo "brcmsmac loaded"
""" + SH_WLAN0

SH_JOIN_WPA = r"""printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 && echo "4-way handshake done"
""" % PASS


def sh_traffic(tag, port):
    """DHCP from the virtual AP, ping, iperf3 to the host both ways (the
    host's servers listen before the guest boots: host_iperf3)"""
    return (r"""udhcpc -i wlan0 -n -q -t 10 >/dev/null 2>&1
echo "TAG addr $(ip -4 addr show wlan0 | grep -o 'inet [0-9./]*')"
ping -c 10 -i 0.2 10.0.2.2 | sed 's/^/TAG /'
""" + sh_sta_counters("TAG before") + r"""iperf_c "TAG up" -c 10.0.2.2 -p PORT -t 3 -f m
sleep 2
iperf_c "TAG down" -c 10.0.2.2 -p PORT -t 3 -f m -R
""" + sh_sta_counters("TAG after")).replace("TAG", tag).replace(
        "PORT", str(port))


def scenario_ap(port):
    return SH_LOAD + r"""ip link set wlan0 up && echo "ifup ok"
echo "address $(cat /sys/class/net/wlan0/address)"
echo "== scan"
wait-for 'iw dev wlan0 scan | grep -q "SSID: QEMU"' 60
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID:'
echo "== open"
iw dev wlan0 connect QEMU-OPEN
wait-for 'iw dev wlan0 link | grep -q Connected' 30 && echo "open connected"
iw dev wlan0 link
""" + sh_traffic("open", port) + r"""iw dev wlan0 disconnect
wait-for '! iw dev wlan0 link | grep -q Connected' 10
ip addr flush dev wlan0
echo "== wpa2"
""" + SH_JOIN_WPA + sh_traffic("wpa2", port) + r"""kill %1
wait-for '! iw dev wlan0 link | grep -q Connected' 10; sleep 1
ip addr flush dev wlan0
echo "== monitor"
ip link set wlan0 down
iw dev wlan0 set type monitor && ip link set wlan0 up && echo "monitor ok"
iw dev wlan0 set channel 6 && echo "monitor on channel 6"
timeout 5 tcpdump -i wlan0 -n -e -l 2>/dev/null > /tmp/cap.txt
echo "beacons $(grep -c 'Beacon (QEMU' /tmp/cap.txt)"
ip link set wlan0 down
iw dev wlan0 set type managed
echo "== cycles"
n=0
for cycle in $(seq CYCLES); do
    rmmod brcmsmac || break
    modprobe brcmsmac || break
    wait-for '[ -e /sys/class/net/wlan0 ]' 30 || break
    ip link set wlan0 up || break
    ip link set wlan0 down || break
    n=$cycle
done
echo "cycles ok $n"
""".replace("CYCLES", str(CYCLES))


def fetch_real_firmware():
    """the directory with Broadcom's bcm43xx files, or None"""
    d = os.path.join(TOP, "build", "firmware-brcm80211")
    if not all(os.path.exists(os.path.join(d, f)) for f in
               ("bcm43xx-0.fw", "bcm43xx_hdr-0.fw")):
        subprocess.run([os.path.join(TOP, "scripts",
                                     "fetch-brcm-firmware.sh")],
                       stdout=sys.stderr, stderr=sys.stderr)
    if all(os.path.exists(os.path.join(d, f)) for f in
           ("bcm43xx-0.fw", "bcm43xx_hdr-0.fw")):
        return d
    return None


def card_checks(check, r, kernel):
    dm = r.dmesg
    check(r.ok, "scenario ran to the end", r)
    check(re.search(r"bus0: Found chip with id (43224|0xA8D8), rev 0x01 and "
                    r"package 0x08", dm) is not None,
          "bcma: the chip as real BCM43224 cards print it", r)
    for core in (r"Core 0 found: ChipCommon \(manuf 0x4BF, id 0x800, rev "
                 r"0x22, class 0x0\)",
                 r"Core 1 found: IEEE 802.11 \(manuf 0x4BF, id 0x812, rev "
                 r"0x17, class 0x0\)",
                 r"Core 2 found: PCIe \(manuf 0x4BF, id 0x820, rev 0x0F, "
                 r"class 0x0\)"):
        check(re.search(core, dm) is not None, "bcma: %s" %
              core.replace("\\", "")[:40], r)
    check(re.search(r"brcmsmac bcma0:1: mfg 4bf core 812 rev 23 class 0",
                    dm) is not None, "brcmsmac binds the 802.11 core", r)
    bad = driver_noise(dm, NOISE)
    check(not bad, "no brcmsmac/bcma error or warning %s" % bad[:4], r)
    check(not kernel_splat(dm), "no kernel WARN, BUG or soft lockup", r)
    check("soft lockup" not in dm, "no soft lockup", r)


def traffic_checks(check, r, tag, what):
    out = r.output
    check("%s addr inet 10.0.2.15/24" % tag in out, "%s: DHCP lease" % what,
          r)
    check("%s 10 packets transmitted, 10 packets received, 0%% packet loss"
          % tag in out, "%s: ping without loss" % what, r)
    iperf_checks(check, r, tag + " ", what)


def iperf_checks(check, r, pfx, what):
    """iperf3 both ways (iperf_c "@pfx" up / down): each ran to the end
    (exit 0) and the receiver got data"""
    out = r.output
    up = re.search(r"^%sup .* ([\d.]+) Mbits/sec .*receiver" % pfx, out,
                   re.M)
    down = re.search(r"^%sdown .* ([\d.]+) Mbits/sec .*receiver" % pfx, out,
                     re.M)
    rc = [re.search(r"^%s%s iperf3 exit (\d+)" % (pfx, way), out, re.M)
          for way in ("up", "down")]
    rc = [m.group(1) if m else "-" for m in rc]
    check(rc == ["0", "0"] and up is not None and float(up.group(1)) > 0 and
          down is not None and float(down.group(1)) > 0,
          "%s: iperf3 both ways (%s / %s Mbit/s, exit %s / %s)"
          % (what, up.group(1) if up else "-",
             down.group(1) if down else "-", rc[0], rc[1]), r)


def main_ap(check):
    kernels = ("6.12", "6.1")
    ports = {"6.12": 5231, "6.1": 5232}
    guests = []
    traces = {}
    with contextlib.ExitStack() as stack:
        for k in kernels:
            stack.enter_context(host_iperf3(ports[k]))
            traces[k] = os.path.join(log_dir(), "brcmsmac-%s.trace" % k)
            if os.path.exists(traces[k]):
                os.unlink(traces[k])
            sc = scenario_ap(ports[k]).replace("COPYFW\n", "")
            guests.append(Guest(
                "brcmsmac-" + k, sc, kernel=k, timeout=900,
                append="bcm4331.coldplug=0",
                qemu_args=["-object", "wifi-medium,id=air0",
                           "-netdev", "user,id=n0",
                           "-netdev", "user,id=n1",
                           "-device", "wifi-ap,medium=air0,ssid=QEMU-OPEN,"
                           "netdev=n0,channel=1,bssid=02:42:00:00:00:01",
                           "-device", "wifi-ap,medium=air0,ssid=QEMU,"
                           "netdev=n1,channel=6,bssid=02:42:00:00:00:02,"
                           "passphrase=" + PASS,
                           "-device", "bcm43224,id=wifi0,addr=04.0,"
                           "medium=air0,mac=02:43:22:24:00:01",
                           "-trace", "bcm4331_key_*",
                           "-trace", "bcm4331_fw_boot",
                           "-trace", "bcm4331_phy_tune",
                           "-D", traces[k]]))
        results = run_guests(guests)
    for k, r in zip(kernels, results):
        out = r.output
        print("==== %s ====" % k)
        print(out)
        card_checks(check, r, k)
        check("ifup ok" in out, "wlan0 comes up", r)
        check("address 02:43:22:24:00:01" in out,
              "wlan0 has the SPROM's address", r)
        check(re.search(r"freq: 2412\s+signal: -?\d+\.\d+ dBm\s+SSID: "
                        r"QEMU-OPEN", out) is not None and
              re.search(r"freq: 2437\s+signal: -?\d+\.\d+ dBm\s+SSID: QEMU\n",
                        out) is not None,
              "the scan finds both APs on channels 1 and 6", r)
        check("open connected" in out, "associates with the open AP", r)
        traffic_checks(check, r, "open", "open")
        check("4-way handshake done" in out, "WPA2 4-way handshake", r)
        traffic_checks(check, r, "wpa2", "WPA2")
        text = open(traces[k], errors="replace").read() \
            if os.path.exists(traces[k]) else ""
        # brcmsmac has no set_key: every protected frame passes the card
        # undecrypted (no key in the table: slot -1) and leaves as mac80211
        # encrypted it
        keys = len(re.findall(r"TX key slot|RX key slot [0-9]", text))
        nokey = len(re.findall(r"RX key slot -1", text))
        check(keys == 0 and nokey > 100, "WPA2 in software: the card "
              "encrypted/decrypted nothing (%d frames with a key, %d "
              "protected frames passed up as received)" % (keys, nokey), r)
        check(re.search(r"PSM start: stub microcode, firmware 610\.812",
                        text) is not None, "the firmware emulation boots "
              "our brcmsmac microcode stub (610.812)", r)
        check(re.search(r"tuned to 2412 MHz", text) is not None and
              re.search(r"tuned to 2437 MHz", text) is not None,
              "the card follows the channels the driver tunes", r)
        check("monitor on channel 6" in out, "monitor mode", r)
        m = re.search(r"beacons (\d+)", out)
        check(m is not None and int(m.group(1)) > 0,
              "the monitor sees the AP's beacons (%s)" %
              (m.group(1) if m else "-"), r)
        check("cycles ok %d" % CYCLES in out, "%d rmmod/modprobe/up/down "
              "cycles" % CYCLES, r)
    return check.finish(results)


AP_GUEST = r"""
""" + SH_WLAN0 + sh_hostapd(
    "B43AP", "wpa=2\\nwpa_passphrase=%s\\nwpa_key_mgmt=WPA-PSK\\n"
    "rsn_pairwise=CCMP\\n" % PASS) + sh_iperf_server() + r"""ip addr add 192.168.78.1/24 dev wlan0
wait-for 'iw dev wlan0 station dump | grep -q Station' 300 && echo "station joined"
wait-for 'ping -c 1 -W 1 192.168.78.2 >/dev/null' 60
pings -c 10 -i 0.2 192.168.78.2
""" + sh_stations_left(300) + r"""echo "station left"
sed 's/^/server /' /tmp/iperf3-server.log
"""

def sh_sta_wpa(ssid, net, pings):
    """a brcmsmac station joins hostapd's WPA2 network @ssid, takes address
    @net.2 and pings the AP (@net.1) @pings times"""
    return SH_LOAD.replace("COPYFW\n", "") + r"""ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: @SSID@"' 90
iw dev wlan0 scan | grep -E '^BSS|freq:|SSID: @SSID@|HT capabilities'
printf 'network={\n ssid="@SSID@"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 90 && echo "4-way handshake done"
ip addr add @NET@.2/24 dev wlan0
wait-for 'ping -c 1 -W 1 @NET@.1 >/dev/null' 60
pings -c @PINGS@ -i 0.2 -s 1400 @NET@.1
""".replace("@SSID@", ssid).replace("@NET@", net).replace(
        "@PINGS@", str(pings)) % PASS


STA_GUEST = sh_sta_wpa("B43AP", "192.168.78", 10) + sh_wait_port(
    "192.168.78.1") + sh_sta_counters("before") + r"""iperf_c up -c 192.168.78.1 -t 3 -f m
sleep 2
iperf_c down -c 192.168.78.1 -t 3 -f m -R
""" + sh_sta_counters("after") + sh_leave("kill %1")


def main_hostapd(check):
    k = os.environ.get("BCM_GUEST_KERNEL", "6.1")
    mcast = air_netdev()
    ap = Guest("brcmsmac-b43ap", AP_GUEST, kernel="6.12", timeout=600,
               qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                          "-netdev", mcast, "-device",
                          "bcm4331,addr=04.0,medium=air0,"
                          "mac=02:00:00:00:00:0a"])
    sta = Guest("brcmsmac-sta-" + k, STA_GUEST, kernel=k, timeout=600,
                append="bcm4331.coldplug=0",
                qemu_args=["-object", "wifi-medium,id=air0,netdev=l0",
                           "-netdev", mcast, "-device",
                           "bcm43224,addr=04.0,medium=air0,"
                           "mac=02:43:22:24:00:0b"])
    ra, rs = run_guests([ap, sta])
    print(ra.output)
    print(rs.output)
    check(ra.ok, "scenario ran to the end", ra)
    check("hostapd started" in ra.output, "hostapd runs on b43", ra)
    check("station joined" in ra.output, "the brcmsmac station joined", ra)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in ra.output, "the b43 AP pings the station without loss", ra)
    check(not driver_noise(ra.dmesg), "no b43/bcma error or warning", ra)
    card_checks(check, rs, k)
    check(re.search(r"BSS 02:00:00:00:00:0a.*\s+freq: 2437", rs.output)
          is not None, "brcmsmac finds the b43 AP on channel 6", rs)
    check("4-way handshake done" in rs.output, "WPA2 with hostapd", rs)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in rs.output, "the station pings the b43 AP without loss", rs)
    iperf_checks(check, rs, "", "the b43 AP's iperf3 server")
    return check.finish([ra, rs])


HT_AP = SH_LOAD.replace("COPYFW\n", "") + sh_hostapd(
    "BRCMHT", "ieee80211n=1\\nwmm_enabled=1\\nwpa=2\\nwpa_passphrase=%s\\n"
    "wpa_key_mgmt=WPA-PSK\\nrsn_pairwise=CCMP\\n" % PASS) + \
    sh_iperf_server() + r"""# the bulk's listener, before the wait-fors too (stdin held open: busybox
# nc closes its side at EOF of its input)
sleep 600 | nc -l -p 7777 > /tmp/bulk &
ip addr add 192.168.80.1/24 dev wlan0
wait-for 'iw dev wlan0 station dump | grep -q Station' 300 && echo "station joined"
wait-for 'ping -c 1 -W 1 192.168.80.2 >/dev/null' 60
pings -c 20 -i 0.2 -s 1400 192.168.80.2
""" + sh_stations_left(300) + r"""echo "bulk received $(wc -c < /tmp/bulk)"
echo "station left"
sed 's/^/server /' /tmp/iperf3-server.log
"""

# The UDP burst: MCS1 is 13 Mb/s to brcmsmac (its 5 ms limit, AMPDU_MAX_DUR,
# allows 13000 * 5 / 8 = 8125 bytes in an aggregate: 5 MPDUs of 1400-byte
# datagrams) and 12 Mb/s on our air (about 880 such MPDUs/s): far below
# what even a loaded TCG guest offers, so the card's TX FIFO (32 frames)
# stays full and its engine lags behind brcmsmac, which then aggregates
# (dma.c dma_txfast(): an MPDU joins the open aggregate while the engine
# is busy).  UDP: no TCP Small Queues to hold the source back.
BURST_MCS1_MAX_BYTES = 13000 * 5 // 8
BURST_RATE = 24                 # MCS1 on our air: 12 Mb/s, in 500 kb/s
# brcmsmac's AMPDU_NUM_MPDU
AMPDU_MAX_MPDUS = 16

HT_STA = sh_sta_wpa("BRCMHT", "192.168.80", 20) + sh_wait_port(
    "192.168.80.1") + r"""# the air the bottleneck: MCS1 only, a UDP burst far above it
# (mac80211 wants a basic rate in the mask: hostapd's 802.11g has 1, 2, 5.5
# and 11 Mb/s; EINVAL without one)
iw dev wlan0 set bitrates legacy-2.4 1 ht-mcs-2.4 1 && echo "bitrates: MCS1"
""" + sh_sta_counters("burst before") + r"""echo "BCM-HOST: burst-start"
iperf_c burst -c 192.168.80.1 -u -b 100M -l 1400 -t 3 -f m
echo "BCM-HOST: burst-end"
# the host notes the end before the rates change
sleep 1
""" + sh_sta_counters("burst after") + r"""iw dev wlan0 set bitrates && echo "bitrates: all"
# bulk traffic: brcmsmac aggregates as the air and the guest allow
dd if=/dev/zero bs=1024 count=8192 2>/dev/null | nc -w 10 192.168.80.1 7777 && echo "bulk sent"
iw dev wlan0 link
iw dev wlan0 station dump | grep -E 'beacon rx|tx bitrate|tx failed'
""" + sh_leave("kill %1")

# what the ht guests trace: each frame the card takes from a ring (its
# length and rate) and each beacon it sends from its template, each
# exchange's end on the air (and a frame the air refused), the A-MPDU
# statuses, every status, and why a TX engine waits (the TX FIFO full)
HT_TRACE = ("bcm4331_tx", "bcm4331_fw_beacon", "bcm4331_fw_beacon_skipped",
            "wifi_medium_tx_done", "wifi_medium_txq_full", "bcm4331_txstat",
            "bcm4331_txstat_ampdu", "bcm4331_tx_wait")


def ampdus(path):
    """The A-MPDUs of a trace of @HT_TRACE (with -msg timestamp=on): a list
    of dicts: time (host seconds of the status), bitmap, mpdus [(line,
    length, rate)]; and the line of the first "TX FIFO full" wait and the
    number of them, the waits for other reasons, and how often the trace
    went out of step.  The card's frames reach the air in order, those
    the engines took and the firmware's beacons: the k-th exchange that
    ends is the k-th of them; an aggregate's MPDUs are the exchanges since
    the previous status."""
    stamp = re.compile(r"@(\d+\.\d+):")
    tx = re.compile(r"bcm4331_tx TX cookie 0x[0-9a-f]+, (\d+) bytes at (\d+) "
                    r"x 500 kb/s")
    done = re.compile(r"wifi_medium_tx_done ")
    agg = re.compile(r"bcm4331_txstat_ampdu A-MPDU from frame 0x[0-9a-f]+: "
                     r"block ack from sequence \d+, bitmap 0x([0-9a-f]+)")
    stat = re.compile(r"bcm4331_txstat TX status")
    wait = re.compile(r"bcm4331_tx_wait engine \d+ TX waits: (.*)")
    beacon = re.compile(r"bcm4331_fw_beacon beacon from template")
    refused = re.compile(r"bcm4331_fw_beacon_skipped |wifi_medium_txq_full ")
    r = {"aggs": [], "first_full": None, "full": 0, "waits": {},
         "out_of_step": 0}
    queue, ended = [], []
    last = None
    if not os.path.exists(path):
        return r
    with open(path, errors="replace") as f:
        for ln, line in enumerate(f):
            m = tx.search(line)
            if m:
                queue.append((ln, int(m.group(1)), int(m.group(2))))
                last = "tx"
                continue
            if beacon.search(line):
                queue.append(None)
                last = "beacon"
                continue
            if refused.search(line):
                if queue:
                    queue.pop()         # the frame just offered: not sent
                last = "refused"
                continue
            if done.search(line):
                if not queue:
                    r["out_of_step"] += 1
                elif queue[0] is None:
                    queue.pop(0)        # a beacon
                else:
                    ended.append(queue.pop(0))
                last = "done"
                continue
            m = agg.search(line)
            if m:
                t = stamp.search(line)
                r["aggs"].append({"time": float(t.group(1)) if t else None,
                                  "bitmap": int(m.group(1), 16),
                                  "mpdus": ended})
                ended = []
                last = "agg"
                continue
            if stat.search(line):
                if ended:
                    ended = []          # a frame outside an aggregate
                elif last == "tx" and queue:
                    queue.pop()         # its status at once: not on the air
                last = "stat"
                continue
            m = wait.search(line)
            if m:
                why = m.group(1).strip()
                r["waits"][why] = r["waits"].get(why, 0) + 1
                if why == "TX FIFO full":
                    r["full"] += 1
                    if r["first_full"] is None:
                        r["first_full"] = ln
    return r


def ampdu_checks(check, r, res, who, burst=None):
    """What holds for every run (docs/brcmsmac.md): each aggregate is
    block-acknowledged (bitmap != 0), holds 1 to 16 MPDUs (brcmsmac's
    AMPDU_NUM_MPDU), no more acknowledged than sent, and brcmsmac puts
    several MPDUs into one only while the card's engine lags behind it,
    which it does only once its TX FIFO was full.  With @burst = (start,
    end) host times: the aggregates of the MCS1 burst went at MCS1, kept
    brcmsmac's 5 ms limit, and at least one holds several MPDUs."""
    aggs = r["aggs"]
    n = [len(a["mpdus"]) for a in aggs]
    acked = [bin(a["bitmap"]).count("1") for a in aggs]
    multi = [a for a in aggs if len(a["mpdus"]) > 1]
    hist = {}
    for k in n:
        hist[k] = hist.get(k, 0) + 1
    print("%s: %d A-MPDUs, MPDUs per aggregate %s; %d TX FIFO full waits "
          "(first at trace line %s), other waits %s, trace out of step %d" %
          (who, len(aggs), dict(sorted(hist.items())), r["full"],
           r["first_full"], r["waits"] or "none", r["out_of_step"]))
    check(aggs and all(a["bitmap"] for a in aggs),
          "%s: every A-MPDU's status is a block ack with a nonzero bitmap "
          "(%d aggregates, %d without)" % (
              who, len(aggs), sum(1 for a in aggs if not a["bitmap"])), res)
    check(all(1 <= k <= AMPDU_MAX_MPDUS for k in n) and
          all(c <= k for c, k in zip(acked, n)) and not r["out_of_step"],
          "%s: 1 to %d MPDUs per aggregate, no more acknowledged than sent "
          "(at most %d MPDUs, %d acknowledged)" % (
              who, AMPDU_MAX_MPDUS, max(n, default=0),
              max(acked, default=0)), res)
    late = [a for a in multi if r["first_full"] is None or
            a["mpdus"][0][0] < r["first_full"]]
    check(not late, "%s: aggregates of several MPDUs (%d) only after the TX "
          "FIFO was full (%d before)" % (who, len(multi), len(late)), res)
    if burst is None:
        return
    t0, t1 = burst
    inb = [a for a in aggs if a["time"] is not None and t0 <= a["time"] <= t1]
    bmulti = [a for a in inb if len(a["mpdus"]) > 1]
    rates = sorted({m[2] for a in inb for m in a["mpdus"]})
    size = [sum(m[1] + 8 for m in a["mpdus"]) for a in bmulti]
    print("%s: the burst (%.1f s): %d A-MPDUs, %d of several MPDUs (largest "
          "%d MPDUs, %d bytes as brcmsmac counts them at least), rates %s x "
          "500 kb/s" % (who, t1 - t0, len(inb), len(bmulti),
                        max((len(a["mpdus"]) for a in inb), default=0),
                        max(size, default=0), rates))
    check(inb and rates == [BURST_RATE], "%s: the burst's MPDUs all went "
          "at MCS1 (12 Mb/s on the air: rates %s x 500 kb/s)" % (who, rates),
          res)
    # brcmsmac counts an MPDU as its PLCP length (the frame and its FCS)
    # rounded up to 4 bytes plus a 4-byte delimiter (and null ones):
    # at least the length the card took + 8
    check(all(k <= BURST_MCS1_MAX_BYTES for k in size),
          "%s: the burst's aggregates within brcmsmac's 5 ms at MCS1 (%d "
          "bytes; largest %d)" % (who, BURST_MCS1_MAX_BYTES,
                                  max(size, default=0)), res)
    check(len(bmulti) >= 1, "%s: the air the bottleneck: aggregates of "
          "several MPDUs during the burst (%d of %d)" % (
              who, len(bmulti), len(inb)), res)


def main_ht(check):
    mcast = air_netdev()
    trace = {}
    for name in ("brcmsmac-ht-ap", "brcmsmac-ht-sta"):
        trace[name] = os.path.join(log_dir(), name + ".trace")
        if os.path.exists(trace[name]):
            os.unlink(trace[name])
    marks = {}

    def mark(key):
        def action(qmp):
            marks[key] = time.time()
        return action

    actions = {"BCM-HOST: burst-start": mark("start"),
               "BCM-HOST: burst-end": mark("end")}
    guests = []
    for name, sc, k, mac in (
            ("brcmsmac-ht-ap", HT_AP, "6.12", "02:43:22:24:00:0a"),
            ("brcmsmac-ht-sta", HT_STA, "6.1", "02:43:22:24:00:0b")):
        # airtime: frames take time, brcmsmac's queues fill and it
        # aggregates; the trace's lines carry the host's time (the burst)
        qa = ["-object", "wifi-medium,id=air0,netdev=l0,airtime=on",
              "-netdev", mcast, "-device",
              "bcm43224,addr=04.0,medium=air0,mac=" + mac,
              "-msg", "timestamp=on", "-D", trace[name]]
        for e in HT_TRACE:
            qa += ["-trace", e]
        guests.append(Guest(name, sc, kernel=k, timeout=600,
                            append="bcm4331.coldplug=0", qemu_args=qa,
                            actions=actions if sc is HT_STA else None))
    ra, rs = run_guests(guests)
    print(ra.output)
    print(rs.output)
    card_checks(check, ra, "6.12")
    card_checks(check, rs, "6.1")
    check("hostapd started" in ra.output, "hostapd runs on brcmsmac", ra)
    check("iperf3 server started" in ra.output, "the AP's iperf3 server "
          "started before the station came", ra)
    check("station joined" in ra.output, "the station joined", ra)
    check("20 packets transmitted, 20 packets received, 0% packet loss"
          in ra.output, "the AP pings the station without loss", ra)
    check("4-way handshake done" in rs.output, "WPA2 with hostapd", rs)
    check("20 packets transmitted, 20 packets received, 0% packet loss"
          in rs.output, "the station pings the AP without loss", rs)
    check("bulk received 8388608" in ra.output, "8 MiB of TCP from the "
          "station arrive whole", ra)
    check(re.search(r"tx bitrate:\s+[\d.]+ MBit/s MCS \d+", rs.output)
          is not None, "the link is 802.11n (an MCS rate)", rs)
    m = re.search(r"beacon rx:\s+(\d+)", rs.output)
    check(m is not None and int(m.group(1)) > 10, "the station hears the "
          "AP's beacons (%s)" % (m.group(1) if m else "-"), rs)
    for r in (ra, rs):
        check(not re.search(r"ampdu|WARNING", r.dmesg),
              "no A-MPDU complaint or warning", r)
    # the burst: through the AP's iperf3 server, whole
    rc = re.search(r"^burst iperf3 exit (\d+)", rs.output, re.M)
    udp = re.search(r"^burst .* (\d+)/(\d+) \([^)]*\)\s+receiver", rs.output,
                    re.M)
    check("bitrates: MCS1" in rs.output and "bitrates: all" in rs.output,
          "iw set bitrates: MCS1 for the burst, then every rate again", rs)
    check(rc is not None and rc.group(1) == "0" and udp is not None and
          int(udp.group(2)) > int(udp.group(1)),
          "the UDP burst through the brcmsmac AP (exit %s, %s datagrams "
          "lost of %s)" % (rc.group(1) if rc else "-",
                           udp.group(1) if udp else "-",
                           udp.group(2) if udp else "-"), rs)
    burst = (marks.get("start"), marks.get("end"))
    check(None not in burst and not g_action_errors(guests),
          "the host saw the burst start and end %s" % (
              g_action_errors(guests) or ""), rs)
    rsta = ampdus(trace["brcmsmac-ht-sta"])
    ampdu_checks(check, rsta, rs, "station",
                 burst if None not in burst else (0, -1))
    acked = sum(bin(a["bitmap"]).count("1") for a in rsta["aggs"])
    check(acked >= 8388608 // 1448, "every MPDU of the bulk block-"
          "acknowledged: %d MPDUs acknowledged in aggregates (8 MiB is %d "
          "TCP segments)" % (acked, 8388608 // 1448), rs)
    ampdu_checks(check, ampdus(trace["brcmsmac-ht-ap"]), ra, "AP")
    return check.finish([ra, rs])


def g_action_errors(guests):
    return [e for g in guests for e in getattr(g, "action_errors", [])]


def main_realfw(check):
    d = fetch_real_firmware()
    if not d:
        print("test_brcmsmac realfw: firmware-brcm80211 cannot be fetched "
              "here: skipped")
        return 77
    k = os.environ.get("BCM_GUEST_KERNEL", "6.12")
    trace = os.path.join(log_dir(), "brcmsmac-realfw.trace")
    if os.path.exists(trace):
        os.unlink(trace)
    fw = "/sys/firmware/qemu_fw_cfg/by_name/opt/bcm4331"
    copy = ("for f in bcm43xx-0.fw bcm43xx_hdr-0.fw; do "
            "cat %s/$f/raw > /lib/firmware/brcm/$f; done\n"
            "echo \"firmware $(md5sum /lib/firmware/brcm/bcm43xx-0.fw)\"\n"
            % fw)
    sc = SH_LOAD.replace("COPYFW\n", copy) + r"""ip link set wlan0 up
wait-for 'iw dev wlan0 scan | grep -q "SSID: QEMU"' 60
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 30 && echo "connected"
udhcpc -i wlan0 -n -q -t 10 >/dev/null 2>&1
ping -c 10 -i 0.2 10.0.2.2
""" + sh_leave()
    args = ["-object", "wifi-medium,id=air0", "-netdev", "user,id=n0",
            "-device", "wifi-ap,medium=air0,ssid=QEMU,netdev=n0,channel=6",
            "-device", "bcm43224,addr=04.0,medium=air0",
            "-trace", "bcm4331_fw_boot", "-D", trace]
    for f in ("bcm43xx-0.fw", "bcm43xx_hdr-0.fw"):
        args += ["-fw_cfg", "name=opt/bcm4331/%s,file=%s" %
                 (f, os.path.join(d, f))]
    r = Guest("brcmsmac-realfw", sc, kernel=k, timeout=400,
              append="bcm4331.coldplug=0", qemu_args=args).run()
    print(r.output)
    card_checks(check, r, k)
    text = open(trace, errors="replace").read() \
        if os.path.exists(trace) else ""
    print(text.strip().splitlines()[-1:] if text else "(no trace)")
    check(re.search(r"PSM start: Broadcom \(not executed, emulated\) "
                    r"microcode, firmware 610\.812 \(39864 bytes", text)
          is not None, "the device recognises Broadcom's 610.812", r)
    check("connected" in r.output, "associated", r)
    check("10 packets transmitted, 10 packets received, 0% packet loss"
          in r.output, "ping without loss", r)
    return check.finish([r])


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "ap"
    check = Checks()
    return {"ap": main_ap, "hostapd": main_hostapd, "ht": main_ht,
            "realfw": main_realfw}[mode](check)


if __name__ == "__main__":
    sys.exit(main())
