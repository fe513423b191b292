# The main job's scenario: show what the real drivers do with the card.
t=0
while [ ! -e /sys/class/net/wlan0 ] && [ $t -lt 600 ]; do t=$((t + 1)); sleep 0.1; done
echo "### lspci: the PCI function"
lspci -nn -v -k -d 14e4:4331
echo
echo "### ip link set wlan0 up"
ip link set wlan0 up && echo "wlan0 is up"
ip link show wlan0
echo
echo "### kernel log of bcma and b43"
dmesg | grep -E 'bcma|b43|ieee80211|phy[0-9]' || echo "(nothing from bcma/b43)"
echo
echo "### wireless devices (iw dev)"
iw dev 2>&1 || true
echo
echo "### channels (iw phy)"
iw phy | grep -E '^\s+\* [0-9]+ MHz' || true
