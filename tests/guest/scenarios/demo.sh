# The main job's scenario: show what the real drivers do with the card.
echo "### lspci: the PCI function"
lspci -nn -v -k -d 14e4:4331
echo
echo "### kernel log of bcma and b43"
dmesg | grep -E 'bcma|b43|ieee80211|phy[0-9]' || echo "(nothing from bcma/b43)"
echo
echo "### network interfaces"
ip link
echo
echo "### wireless devices (iw dev)"
iw dev 2>&1 || true
