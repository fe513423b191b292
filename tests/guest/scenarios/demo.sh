# The main job's scenario: the real drivers bring the card up, scan the
# simulated air, associate with the virtual access point, get an address
# by DHCP from QEMU's user networking and reach the host.
wait-for '[ -e /sys/class/net/wlan0 ]' 60 || exit 1
echo "### lspci: the PCI function"
lspci -nn -v -k -d 14e4:4331
echo
echo "### ip link set wlan0 up; iw dev wlan0 scan"
ip link set wlan0 up
iw dev wlan0 scan | grep -E '^BSS|freq:|signal:|SSID:'
echo
echo "### iw dev wlan0 connect QEMU"
iw dev wlan0 connect QEMU
wait-for 'iw dev wlan0 link | grep -q Connected' 20 || exit 1
iw dev wlan0 link
echo
echo "### udhcpc -i wlan0"
udhcpc -i wlan0 -n -q -t 10 || exit 1
ip -4 addr show wlan0
echo
echo "### ping the host (10.0.2.2)"
ping -c 5 10.0.2.2 || exit 1
echo
echo "### kernel log of bcma, b43 and mac80211"
dmesg | grep -E 'bcma|b43|wlan0|ieee80211|phy[0-9]'
