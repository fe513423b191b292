# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel gate's guest side (scripts/kernel-gate.py): the shell each
case runs in the guest's busybox sh.

A case is a shell function of the same name (dots and dashes become
underscores)
that returns 0 (pass), 77 (skip, after a line "@@skip REASON") or anything
else (fail), printing "# ..." lines that tell a driver developer what went
wrong.  run_case wraps it: markers on the console ("@@gate begin NAME",
"@@gate end NAME RC") and in the kernel log ("gate: begin NAME"), so that
the host slices both per case.  Every case starts and ends with its
driver loaded and its interface down (the next one may run alone: a case
is selected by name for bisecting).
"""

# what every guest of the gate has
LIB = r"""
# the network interface bound to driver $1 ("b43", "brcmsmac"), "" if none
iface_of() {
    for i in /sys/class/net/*; do
        d=$(readlink "$i/device/driver" 2>/dev/null)
        [ "${d##*/}" = "$1" ] && { echo "${i##*/}"; return 0; }
    done
    return 1
}
# the phy (phyN) of interface $1
phy_of() { basename "$(readlink /sys/class/net/$1/phy80211)"; }
# does the phy of $1 offer interface mode $2 ("mesh point", "IBSS", "AP")
has_mode() {
    iw phy "$(phy_of $1)" info | sed -n '/Supported interface modes/,/^\t[^\t]/p' |
        grep -q "\* $2\$"
}
run_case() {
    echo "@@gate begin $1"
    echo "gate: begin $1" > /dev/kmsg
    # a case is a function: dots in its name are underscores
    f=$(echo "$1" | tr '.-' '__')
    $f
    rc=$?
    echo "gate: end $1 rc=$rc" > /dev/kmsg
    echo "@@gate end $1 $rc"
}
fail() { echo "# $*"; return 1; }
# wf CONDITION SECONDS: poll CONDITION every 0.1 s in this shell (its
# functions and variables), true as soon as it holds, false after SECONDS
# of the clock (a condition that takes time itself, a scan, counts)
wf() {
    wf_end=$(($(date +%s) + $2))
    while ! eval "$1"; do
        [ "$(date +%s)" -ge $wf_end ] && return 1
        sleep 0.1
    done
}
# iperf3 as a client, its output prefixed with $1, then its exit code
iperf_c() {
    tag=$1; shift
    timeout 60 iperf3 "$@" --forceflush > /tmp/iperf3.log 2>&1
    irc=$?
    sed "s/^/$tag /" /tmp/iperf3.log
    echo "$tag iperf3 exit $irc"
    [ $irc = 0 ]
}
# traffic over $IF through the virtual AP: DHCP, 10 pings, iperf3 to the
# host both ways (its server on port $PORT)
traffic() {
    udhcpc -i $IF -n -q -t 10 >/dev/null 2>&1 || fail "no DHCP lease on $IF" || return 1
    echo "lease $(ip -4 addr show $IF | grep -o 'inet [0-9./]*')"
    pings -c 10 -i 0.2 10.0.2.2 | tail -n 1 > /tmp/ping.txt
    cat /tmp/ping.txt
    grep -q ' 0% packet loss' /tmp/ping.txt || fail "ping 10.0.2.2: $(cat /tmp/ping.txt)" || return 1
    iperf_c up -c 10.0.2.2 -p $PORT -t 3 -f m || fail "iperf3 upload failed (output above)" || return 1
    sleep 1
    iperf_c down -c 10.0.2.2 -p $PORT -t 3 -f m -R || fail "iperf3 download failed (output above)" || return 1
}
# leave whatever $IF is in: managed, down, no address
reset_if() {
    iw dev $IF disconnect 2>/dev/null
    ip addr flush dev $IF
    ip link set $IF down
    iw dev $IF set type managed 2>/dev/null
    return 0
}
wpa_join() {   # ssid passphrase
    printf 'network={\n ssid="%s"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' "$1" "$2" > /tmp/wpa.conf
    wpa_supplicant -D nl80211 -i $IF -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
    WPA_PID=$!
    wf 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 || {
        sed 's/^/# wpa_supplicant: /' /tmp/wpa.log | tail -n 15
        fail "no WPA2 association with $1 in 60 s"; return 1; }
    echo "4-way handshake with $1 done"
}
wpa_leave() {
    kill $WPA_PID 2>/dev/null; wait $WPA_PID 2>/dev/null
    wf '! iw dev $IF link | grep -q Connected' 10
    reset_if
}
"""

# the cases a single driver's guest runs against its own virtual APs
# (OPEN: open, WPA: WPA2 with PASS; CH: the open AP's channel;
# CH_AWAY: another channel)
SINGLE = r"""
DRV_probe() {
    wf '[ -n "$(iface_of DRV)" ]' 60 || fail "DRV created no wlan interface in 60 s" || return 1
    IF=$(iface_of DRV)
    echo "interface $IF address $(cat /sys/class/net/$IF/address) $(phy_of $IF)"
    ip link set $IF up || fail "ip link set $IF up failed" || return 1
    ip link set $IF down
}
DRV_scan() {
    ip link set $IF up || return 1
    wf 'iw dev $IF scan > /tmp/scan.txt 2>&1 && grep -q "SSID: OPEN\$" /tmp/scan.txt && grep -q "SSID: WPA\$" /tmp/scan.txt' 60 ||
        { sed 's/^/# scan: /' /tmp/scan.txt | grep -E 'BSS|SSID|freq|signal|scan:' | head -20
          fail "the scan did not find both access points (OPEN, WPA) in 60 s"; r=1; }
    grep -E '^BSS|freq:|signal:|SSID:' /tmp/scan.txt
    reset_if
    return ${r:-0}
}
DRV_open() {
    ip link set $IF up || return 1
    iw dev $IF connect OPEN
    if wf 'iw dev $IF link | grep -q Connected' 30; then
        iw dev $IF link | grep -E 'Connected|freq|signal|tx bitrate'
        traffic; r=$?
    else
        r=1; fail "no association with the open AP OPEN in 30 s"
    fi
    reset_if
    return $r
}
wpa2_case() {
    ip link set $IF up || return 1
    wpa_join WPA PASS && traffic; r=$?
    wpa_leave
    return $r
}
reload() {   # module parameters
    rmmod DRV || fail "rmmod DRV failed" || return 1
    modprobe DRV "$@" || fail "modprobe DRV $* failed" || return 1
    wf '[ -n "$(iface_of DRV)" ]' 30 || fail "no interface after modprobe DRV $*" || return 1
    IF=$(iface_of DRV)
}
DRV_monitor() {
    iw dev $IF set type monitor || fail "iw set type monitor refused" || return 1
    ip link set $IF up || { reset_if; fail "monitor interface does not come up"; return 1; }
    # Linux 6.1's mac80211 ignores a monitor channel equal to the one it
    # recorded last (at first: the band's first channel), and the radio
    # stays where the station left it: tune away, then to CH
    iw dev $IF set channel CH_AWAY || { reset_if; fail "monitor: set channel CH_AWAY refused"; return 1; }
    iw dev $IF set channel CH || { reset_if; fail "monitor: set channel CH refused"; return 1; }
    timeout 5 tcpdump -i $IF -n -e -l 2>/dev/null > /tmp/cap.txt
    n=$(grep -c 'Beacon (OPEN)' /tmp/cap.txt)
    echo "monitor: $(wc -l < /tmp/cap.txt) frames in 5 s, $n beacons of OPEN"
    reset_if
    [ "$n" -gt 0 ] || fail "the monitor captured no beacon of OPEN on channel CH in 5 s (beacons seen: $(grep -o 'Beacon ([^)]*)' /tmp/cap.txt | sort | uniq -c | tr -s ' \n' ' '))"
}
DRV_rfkill() {
    rf=$(ls -d /sys/class/ieee80211/$(phy_of $IF)/rfkill* 2>/dev/null | head -n1)
    [ -n "$rf" ] || fail "$(phy_of $IF) registered no rfkill switch" || return 1
    export rf
    echo 1 > $rf/soft
    if ip link set $IF up 2>/dev/null; then
        r=1; fail "soft-blocked, yet $IF came up"
    fi
    echo 0 > $rf/soft
    ip link set $IF up || { r=1; fail "unblocked, but $IF does not come up"; }
    echo "@@host rfkill-on"
    wf '[ "$(cat $rf/hard)" = 1 ]' 20 || { r=1; fail "the card's hardware switch went on; the driver did not report it within 20 s"; }
    echo "@@host rfkill-off"
    wf '[ "$(cat $rf/hard)" = 0 ]' 20 || { r=1; fail "the hardware switch went off; the driver still reports it on after 20 s"; }
    echo "rfkill: soft and hard switches followed"
    ip link set $IF down
    ip link set $IF up || { r=1; fail "$IF does not come up after the hardware switch"; }
    reset_if
    return ${r:-0}
}
DRV_reload() {
    n=0
    for c in 1 2 3 4 5 6 7 8 9 10; do
        reload || break
        ip link set $IF up || { fail "cycle $c: $IF does not come up"; break; }
        ip link set $IF down
        n=$c
    done
    echo "reload: $n of 10 rmmod/modprobe/up/down cycles"
    [ $n = 10 ]
}
"""

B43_ONLY = r"""
b43_wpa2_hwcrypto() { wpa2_case; }
b43_wpa2_swcrypto() {
    reload nohwcrypt=1 || return 1
    wpa2_case; r=$?
    reload || return 1
    return $r
}
"""

BRCMSMAC_ONLY = r"""
brcmsmac_wpa2() { wpa2_case; }
"""

# cases between the two guests (A: b43 on a bcm4331, B: brcmsmac on a
# bcm43224 and a second bcm4331 for b43's mesh peer), one part in each,
# run in the same order on both sides; each side waits for the other
PAIR = r"""
PASS_AP=gate-pair-secret
ap_side() {   # ssid net
    ssid=$1 net=$2
    printf 'interface=%s\ndriver=nl80211\nssid=%s\nhw_mode=g\nchannel=6\nwpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n' \
        $IF $ssid $PASS_AP > /tmp/hostapd.conf
    hostapd -B -P /tmp/hostapd.pid /tmp/hostapd.conf > /tmp/hostapd.log 2>&1 ||
        { sed 's/^/# hostapd: /' /tmp/hostapd.log; fail "hostapd did not start on $IF"; return 1; }
    echo "hostapd $ssid started on $IF"
    ip addr add $net.1/24 dev $IF
    iperf3 -s -D --logfile /tmp/iperf3-server.log
    r=0
    wf 'iw dev $IF station dump | grep -q Station' 300 || { r=1; fail "no station joined $ssid in 300 s"; }
    if [ $r = 0 ]; then
        echo "station joined"
        wf 'ping -c 1 -W 1 $net.2 >/dev/null' 60 || { r=1; fail "the station $net.2 does not answer pings"; }
        # the station leaves when it is done (absent twice, 2 s apart)
        wf '! iw dev $IF station dump | grep -q Station && sleep 2 && ! iw dev $IF station dump | grep -q Station' 300 ||
            { r=1; fail "the station did not leave in 300 s"; }
    fi
    kill $(cat /tmp/hostapd.pid) 2>/dev/null
    killall iperf3 2>/dev/null
    sleep 1
    reset_if
    return $r
}
sta_side() {  # ssid net
    ssid=$1 net=$2
    ip link set $IF up || return 1
    wf 'iw dev $IF scan 2>/dev/null | grep -q "SSID: $ssid\$"' 300 || { reset_if; fail "the peer's access point $ssid not found in 300 s"; return 1; }
    wpa_join $ssid $PASS_AP || { wpa_leave; return 1; }
    ip addr add $net.2/24 dev $IF
    r=0
    wf 'ping -c 1 -W 1 $net.1 >/dev/null' 60 || { r=1; fail "the access point $net.1 does not answer pings"; }
    if [ $r = 0 ]; then
        pings -c 10 -i 0.2 $net.1 | tail -n 1 > /tmp/ping.txt; cat /tmp/ping.txt
        grep -q ' 0% packet loss' /tmp/ping.txt || { r=1; fail "ping $net.1: $(cat /tmp/ping.txt)"; }
        wf 'nc -w 2 $net.1 5201 </dev/null >/dev/null 2>&1' 60; sleep 1
        iperf_c up -c $net.1 -t 3 -f m || { r=1; fail "iperf3 to the access point failed"; }
    fi
    wpa_leave
    return $r
}
adhoc_side() {   # me peer
    me=$1 peer=$2
    iw dev $IF set type ibss || fail "iw set type ibss refused" || return 1
    ip link set $IF up || { reset_if; fail "IBSS interface does not come up"; return 1; }
    iw dev $IF ibss join gate-ibss 2437 fixed-freq 02:42:00:00:1b:55 || { reset_if; fail "iw ibss join refused"; return 1; }
    ip addr add 192.168.79.$me/24 dev $IF
    r=0
    wf 'ping -c 1 -W 1 192.168.79.$peer >/dev/null' 120 || { r=1; fail "the IBSS peer 192.168.79.$peer does not answer in 120 s"; }
    if [ $r = 0 ]; then
        pings -c 10 -i 0.2 192.168.79.$peer | tail -n 1 > /tmp/ping.txt; cat /tmp/ping.txt
        grep -q ' 0% packet loss' /tmp/ping.txt || { r=1; fail "IBSS ping: $(cat /tmp/ping.txt)"; }
        sleep 8     # the peer pings us meanwhile
    fi
    iw dev $IF ibss leave
    reset_if
    return $r
}
mesh_side() {   # me peer
    me=$1 peer=$2
    iw dev $IF set type mp || fail "iw set type mp refused" || return 1
    ip link set $IF up || { reset_if; fail "mesh interface does not come up"; return 1; }
    iw dev $IF mesh join gate-mesh freq 2437 || { reset_if; fail "iw mesh join refused"; return 1; }
    ip addr add 192.168.80.$me/24 dev $IF
    r=0
    wf 'iw dev $IF station dump | grep -q ESTAB' 60 || { r=1; fail "no mesh peering (plink ESTAB) in 60 s"; }
    wf 'ping -c 1 -W 1 192.168.80.$peer >/dev/null' 60 || { r=1; fail "the mesh peer 192.168.80.$peer does not answer"; }
    if [ $r = 0 ]; then
        pings -c 10 -i 0.2 192.168.80.$peer | tail -n 1 > /tmp/ping.txt; cat /tmp/ping.txt
        grep -q ' 0% packet loss' /tmp/ping.txt || { r=1; fail "mesh ping: $(cat /tmp/ping.txt)"; }
        sleep 8
    fi
    iw dev $IF mesh leave
    reset_if
    return $r
}
"""

# the pair cases' parts: case -> (A's shell, B's shell)
PAIR_PARTS = {
    "b43.ap": ("IF=$(iface_of b43); ap_side gate-b43-ap 192.168.77",
               "IF=$(iface_of brcmsmac); sta_side gate-b43-ap 192.168.77"),
    "brcmsmac.ap": ("IF=$(iface_of b43); sta_side gate-brcms-ap 192.168.78",
                    "IF=$(iface_of brcmsmac); "
                    "ap_side gate-brcms-ap 192.168.78"),
    # one IBSS of both drivers: each driver's case is its side of it
    "b43.ibss": ("IF=$(iface_of b43); adhoc_side 1 2",
                 "IF=$(iface_of brcmsmac); adhoc_side 2 1"),
    "brcmsmac.ibss": None,          # the same exchange (b43.ibss)
    # a mesh of b43 on A's card and on B's second bcm4331
    "b43.mesh": ("IF=$(iface_of b43); mesh_side 1 2",
                 "gate_b43_second || return 1; IF=$(iface_of b43); "
                 "mesh_side 2 1"),
    "brcmsmac.mesh": (None, "IF=$(iface_of brcmsmac); "
                      "if has_mode $IF 'mesh point'; then fail 'brcmsmac "
                      "offers mesh point now: the gate has no brcmsmac "
                      "mesh peer yet'; else echo '@@skip brcmsmac offers "
                      "no mesh point interface (iw phy info)'; return 77; "
                      "fi"),
}

# B loads b43 for its second card (bcm4331 at 05.0) only when the mesh
# case needs it: b43 would claim the BCM43224's core too (as on a real
# machine with both drivers, B blacklists it; an explicit modprobe still
# loads it, and it binds the core brcmsmac left)
B43_SECOND = r"""
gate_b43_second() {
    iface_of b43 >/dev/null && return 0
    modprobe b43 || fail "modprobe b43 (B's second card) failed" || return 1
    wf 'iface_of b43 >/dev/null' 30 || fail "b43 created no interface for B's second card" || return 1
}
"""

# the DMA erratum case: b43 behind QEMU's IOMMU, rx-cd-erratum=on
ERRATUM = r"""
b43_dma_erratum() {
    # a lockup in the RX loop is reported after 2 s (2 x the threshold),
    # and panics (softlockup_panic=1): set here, not on the command line,
    # where a slow kernel's boot (KASAN under TCG) would trip it
    echo 1 > /proc/sys/kernel/watchdog_thresh ||
        echo "# no soft lockup detector: a lockup is found by the case's timeout"
    IF=$(iface_of b43)
    ip link set $IF up || return 1
    iw dev $IF connect OPEN
    if wf 'iw dev $IF link | grep -q Connected' 30; then
        traffic; r=$?
    else
        r=1; fail "no association with the open AP in 30 s"
    fi
    reset_if
    return $r
}
"""
