# SPDX-License-Identifier: GPL-2.0-or-later
# The run scripts/explain.py annotates: every step a user would type, from
# loading the driver to DHCP.  The guest boots with bcm4331.coldplug=0, so
# nothing touches the card before the first step.  Before each step the
# scenario prints a marker line "@@ <stage>: <command>" on the serial
# console; the host sees the console's bytes in the same trace as the
# card's registers (trace event serial_write) and cuts the trace there.
mark() { echo "@@ $*"; }

mark "probe: modprobe bcma (b43 follows by hotplug)"
modprobe bcma
wait-for '[ -e /sys/class/net/wlan0 ]' 60 || echo "no wlan0"

mark "up: ip link set wlan0 up"
ip link set wlan0 up

mark "scan: iw dev wlan0 scan"
iw dev wlan0 scan | grep -E '^BSS|SSID:'

mark "connect: wpa_supplicant (WPA2-PSK with the virtual AP)"
printf 'network={\n ssid="QEMU"\n psk="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}\n' \
    qemu-course > /tmp/wpa.conf
wpa_supplicant -D nl80211 -i wlan0 -c /tmp/wpa.conf > /tmp/wpa.log 2>&1 &
wait-for 'grep -q CTRL-EVENT-CONNECTED /tmp/wpa.log' 60 &&
    echo "4-way handshake done"

mark "dhcp: udhcpc -i wlan0"
udhcpc -i wlan0 -n -q -t 5 2>&1 | grep -E 'lease|obtained'

mark "ping: ping -c 3 10.0.2.2"
ping -c 3 10.0.2.2 | grep -E 'transmitted'

mark "end"
