#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch Broadcom's brcmsmac firmware (brcm/bcm43xx-0.fw, bcm43xx_hdr-0.fw)
# from Debian's firmware-brcm80211 package (component non-free-firmware)
# into build/firmware-brcm80211/, for the test of the device's recognition
# of the real files (tests/guest/test_brcmsmac.py realfw).  The files are
# not redistributed by this project: they stay in build/.  The mirror is
# the one the machine's apt already uses (scripts/apt-sources.sh finds it);
# apt's state lives in build/, the system's configuration is untouched.
# Exit 0 with the files in place, 1 when the package cannot be fetched.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/firmware-brcm80211
if [ -s "$out/bcm43xx-0.fw" ] && [ -s "$out/bcm43xx_hdr-0.fw" ]; then
    exit 0
fi
work=$top/build/apt-nonfree
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$out"
# shellcheck source=/dev/null
uri=$(sed -n '/^find_uri()/,/^}/p' "$top/scripts/apt-sources.sh" |
      { out=/nonexistent; . /dev/stdin; find_uri; } | head -n1)
if [ -z "$uri" ]; then
    echo "fetch-brcm-firmware: no Debian mirror in the apt configuration" >&2
    exit 1
fi
printf 'Types: deb\nURIs: %s\nSuites: bookworm\nComponents: non-free-firmware\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" > "$work/nonfree.sources"
apt_opts=(-o Dir::Etc::sourcelist=/dev/null -o "Dir::Etc::sourceparts=$work"
          -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
          -o APT::Sandbox::User=root -q)
if ! apt-get "${apt_opts[@]}" update >/dev/null 2>&1; then
    echo "fetch-brcm-firmware: the non-free-firmware index is not reachable" >&2
    exit 1
fi
cd "$work" || exit 1
rm -f firmware-brcm80211_*.deb
if ! apt-get "${apt_opts[@]}" download firmware-brcm80211 >/dev/null 2>&1; then
    echo "fetch-brcm-firmware: firmware-brcm80211 cannot be downloaded" >&2
    exit 1
fi
rm -rf x && mkdir x && dpkg-deb -x firmware-brcm80211_*.deb x || exit 1
for f in bcm43xx-0.fw bcm43xx_hdr-0.fw; do
    src=$(find x -name "$f" | head -n1)
    [ -n "$src" ] || { echo "fetch-brcm-firmware: $f not in the package" >&2; exit 1; }
    cp "$src" "$out/$f"
done
rm -rf x
echo "fetch-brcm-firmware: $(ls "$out" | tr '\n' ' ')from $(ls firmware-brcm80211_*.deb)"
