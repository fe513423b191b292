#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The project as a patch series for qemu-devel, against the QEMU release we
# build (Debian's qemu source package: upstream without the blobs, Debian's
# patches applied, which is what makes that tree build):
#
#   scripts/patches.sh            build/patches/series/*.patch (+ cover letter),
#                                 checkpatch.pl on every patch
#   scripts/patches.sh --check    ... and build the tree of the whole series
#                                 (configure + ninja: the emulator and every
#                                 qtest of ours) and run those qtests; and
#                                 git am the series onto the other suite's
#                                 QEMU too (when scripts/build-qemu.sh
#                                 fetched it)
#   scripts/patches.sh --check-each
#                                 ... and first build the tree after every
#                                 patch (each one builds: bisectable); the
#                                 QAPI schema and Kconfig patches rebuild
#                                 most of QEMU, so this takes hours on 2 cores
#   scripts/patches.sh --qemu sid [--check|--check-each]
#                                 the same against the QEMU of
#                                 scripts/build-qemu.sh --qemu sid, in
#                                 build/patches-sid/
#
# The git tree the series is made in is build/patches/qemu (a commit of the
# pristine tree, then one commit per patch).  Author and Signed-off-by: the
# identity of `git config user.name/user.email` in this repository.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
check=
suite=trixie
each=
usage="usage: patches.sh [--qemu trixie|sid] [--check|--check-each]"
while [ $# -gt 0 ]; do
    case $1 in
    --check) check=1 ;;
    --check-each) check=1 each=1 ;;
    --qemu) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
            suite=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
# the file names of scripts/build-qemu.sh's suites
case $suite in
trixie) sfx= other=sid osfx=-sid ;;
sid)    sfx=-sid other=trixie osfx= ;;
*) echo "$usage" >&2; exit 2 ;;
esac

out=$top/build/patches$sfx
tree=$out/qemu
series=$out/series
# The source we build: Debian's qemu source package (the upstream release,
# blobs removed, Debian's patch series applied), without our overlay.
# scripts/build-qemu.sh keeps the package in build/src/dl; fetch it again
# if it is not there.
srcroot=$top/build/src
if [ ! -f "$srcroot/qemu$sfx.version" ]; then
    BCM_SKIP_DEPS=${BCM_SKIP_DEPS:-} "$top/scripts/build-qemu.sh" --qemu "$suite" >/dev/null
fi
pkgver=$(cat "$srcroot/qemu$sfx.version")
dsc=$(ls "$srcroot"/dl$sfx/qemu_*.dsc 2>/dev/null | head -n1 || true)
if [ -z "$dsc" ]; then
    echo "patches: fetching Debian source package qemu $pkgver"
    [ "$suite" = trixie ] || "$top/scripts/apt-sources.sh" "$suite"
    rm -rf "$srcroot/dl$sfx"
    mkdir -p "$srcroot/dl$sfx"
    # the version we build, as the suite's deb-src entry (scripts/apt-sources.sh)
    # has it (with its epoch)
    full=$(apt-cache madison qemu 2>/dev/null |
           awk -F' [|] ' -v v="$pkgver" '{ x = $2; sub(/^[0-9]+:/, "", x) }
                                          x == v { print $2; exit }')
    (cd "$srcroot/dl$sfx" && apt-get source -q --download-only "qemu=${full:-$pkgver}" \
        >/dev/null 2>&1) || true
    dsc=$(ls "$srcroot"/dl$sfx/qemu_"$pkgver".dsc 2>/dev/null | head -n1 || true)
    if [ -z "$dsc" ]; then
        echo "patches: cannot fetch Debian's qemu $pkgver, the source we" \
             "build (rebuild with scripts/build-qemu.sh)" >&2
        exit 1
    fi
fi
ver=${pkgver%%-*}
ver=${ver%+ds}
name=$(git -C "$top" config user.name || echo "bcm4331-qemu authors")
email=$(git -C "$top" config user.email || echo "")

# a git tree of Debian's source package DSC (version V) in DIR
pristine() {
    local dsc=$1 v=$2 dir=$3
    rm -rf "$dir"
    dpkg-source -q -x --no-check "$dsc" "$dir" >/dev/null
    rm -rf "$dir/debian" "$dir/.pc"
    git -C "$dir" init -q
    git -C "$dir" config user.name "$name"
    git -C "$dir" config user.email "$email"
    git -C "$dir" add -A
    git -C "$dir" commit -q -m "QEMU ${v%%-*} (Debian qemu $v)"
}

echo "patches: QEMU $ver as Debian's source package qemu $pkgver has it"
rm -rf "$tree" "$series"
mkdir -p "$series" "$(dirname "$tree")"
pristine "$dsc" "$pkgver" "$tree"
base=$(git -C "$tree" rev-parse HEAD)

# part, then the commit message (subject, blank line, body)
commit() {
    local part=$1 msg=$2
    "$top/scripts/overlay.sh" --copy --parts "$part" "$tree"
    # a wifi part builds on its own: net/wifi/meson.build and
    # hw/net/wifi/meson.build list the sources the tree has so far (all of
    # them once the AP is in)
    for d in net/wifi hw/net/wifi; do
        [ -f "$tree/$d/meson.build" ] || continue
        /usr/bin/python3 - "$tree/$d" "$top/$d/meson.build" <<'PY'
import os, re, sys
d, ours = sys.argv[1:]
path = os.path.join(d, "meson.build")
out = []
for line in open(ours):
    m = re.match(r"\s*'([\w.-]+\.c)',\s*$", line)
    if m and not os.path.exists(os.path.join(d, m.group(1))):
        continue
    out.append(line)
open(path, "w").write("".join(out))
PY
    done
    # MAINTAINERS: every patch that adds files names them in our entry
    /usr/bin/python3 - "$tree/MAINTAINERS" "$part" "$name" "$email" <<'PY'
import sys
path, part, name, email = sys.argv[1:]
files = {
    "wifi-lib": ["net/wifi/", "include/net/wifi/", "hw/net/wifi/Kconfig"],
    "wifi-medium": ["qapi/wifi.json"],
    "wifi-ap": ["hw/net/wifi/"],
    "bcm4331": ["hw/net/bcm43xx/"],
    "qtest": ["tests/qtest/bcm4331*", "tests/qtest/bcm43224*",
              "tests/qtest/wifi-*", "tests/qtest/bcm43xx-*",
              "tests/qtest/libqos/bcm43xx*"],
    "fuzz": ["tests/qtest/fuzz/bcm4331*", "tests/qtest/fuzz/wifi_*"],
    "docs": ["docs/system/devices/bcm4331.rst"],
}.get(part)
if not files:
    sys.exit(0)
title = "Broadcom BCM4331 Wi-Fi, Wi-Fi medium and access point\n"
s = open(path).read()
if title not in s:
    anchor = "CAN bus subsystem and hardware\n"
    assert anchor in s, "MAINTAINERS: no CAN entry"
    s = s.replace(anchor, title + "M: %s <%s>\nS: Maintained\n\n" %
                  (name, email) + anchor, 1)
start = s.index(title)
end = s.index("\n\n", start) + 1
s = s[:end] + "".join("F: %s\n" % f for f in files) + s[end:]
open(path, "w").write(s)
PY
    git -C "$tree" add -A
    git -C "$tree" commit -q -s -F - <<<"$msg"
}

commit qemu-fix "net/stream: a server's link is down until a client connects

net_stream_server_init() leaves link_down false and s->ioc NULL until the
asynchronous listen completes in the main loop, and for ever when the
listen fails (a path in a missing directory, an address in use).  A peer
NIC that transmits meanwhile (a device's timer: a beacon) makes
net_stream_receive() call qio_channel_writev() on NULL.  The client side
already starts with its link down; the server now does too, and
net_stream_listen() brings it up when a client connects."

commit wifi-lib "net/wifi: 802.11 vocabulary, frame times and frame protection

The pieces an emulated Wi-Fi device and a simulated medium share, with no
state of their own: include/net/wifi/ieee80211.h (frame control,
addresses, sequence control, information elements, channel <->
frequency, rates), 802.11b/g frame durations (airtime.c), the encoding
of frames exchanged between QEMU processes (air-proto.c), and WEP, TKIP,
CCMP, the WPA2-PSK key derivation and the RFC 3394 key wrap (crypto.c,
on QEMU's AES and GLib's HMAC: no crypto backend needed).  Besides them
deferred.c: work a device does \"at once, not in the caller\" as a
virtual-clock timer due now with its owner's reentrancy guard engaged
(a guarded bottom half's role, but repeatable under -icount and
record/replay)."

commit wifi-medium "net/wifi: a simulated 802.11 medium

-object wifi-medium is a radio medium for emulated Wi-Fi devices, in the
manner of net/can's can-bus: radios attach as clients and a transmission
reaches every other radio tuned to the channel, each with its own signal
and SNR (distance or a link's attenuation, the noise floor) and the
802.11b/g frame error rate of that SNR (medium-radio.c).
wifi_medium_transmit() is the one send call; with airtime=on frames take
802.11b/g time (DIFS, backoff, SIFS + ACK), carrier sense, interference,
the NAV and RTS/CTS are judged per radio, and unicast frames are retried
(medium-airtime.c).  QMP commands (qapi/wifi.json) read the air and move
radios or set links while guests run; scenario=FILE runs a scenario on
the virtual clock (medium-scenario.c, libconfig).  A netdev joins the
media of several QEMU processes (medium-link.c); pcap=FILE records the
air with radiotap headers (pcap.c)."

commit wifi-ap "hw/net/wifi: a virtual access point

-device wifi-ap is an access point on a wifi-medium bridged to a netdev:
beacons, probe/authentication/association, a station table that ages
out as hostapd's does, the QMP event WIFI_AP_STATION, and WPA2-PSK
(4-way handshake, CCMP both ways, PN replay check) in ap-wpa.c.
-device wifi-traffic is a synthetic radio sending frames (traffic.c)."

commit bcm4331 "hw/net/bcm43xx: Broadcom BCM4331 and BCM43224 802.11n PCIe cards

The BCM4331 (PCI 14e4:4331) as Linux's bcma and b43 drivers see it: a
Broadcom AMBA backplane behind BAR0 (EROM, ChipCommon with PMU and SPROM,
the PCIe core, agents), the 802.11 MAC core rev 29 with shared memory,
TSF and templates, its 64-bit (or 32-bit) DMA engines with the chip's
RXSTATUS erratum (property rx-cd-erratum), the HT-PHY with its BCM2059
radio, and a high-level emulation of the microcode b43 talks to through
shared memory: upload, PSM start, beacons, the data path with the key
table's hardware encryption.  The card is a client of the wifi-medium.

-device bcm43224 (PCI 14e4:4353) is a second chip on the same blocks, for
Linux's brcmsmac: the BCM43224's backplane table (802.11 core rev 23),
its rev-8 SPROM, the N-PHY with its BCM2056 radio (nphy.c; phy.c holds
what both PHYs share), and what brcmsmac needs from the microcode:
A-MPDU block-ack statuses, the microcode kept across PSM restarts."

commit qtest "tests/qtest: bcm4331, bcm43224 and wifi-medium qtests

libqos/bcm43xx.c holds what the tests share: a card's register file and
b43's bring-up steps.  The backplane and PCI function, the MAC core and firmware handshake, the
DMA engines and data path on a medium (hostile descriptors and frames
included), the crypto, the access point, robustness against a hostile
guest and peers, system_reset under DMA and device_del under traffic."

commit fuzz "tests/qtest/fuzz: generic-fuzz configurations for bcm4331, a peer-side target

Six generic-fuzz configurations (the card alone; with a medium and an
access point; airtime with WPA2; 32-bit DMA; two cards on one air; a
bcm43224 beside a bcm4331) and
bcm4331-peer(-wpa2), whose input is what another process sends on the
medium's netdev, interleaved with the card's own transmissions, its mode
and its hardware keys."

commit docs "docs/system: bcm4331, bcm43224, wifi-medium and wifi-ap; MAINTAINERS

How to use the card, the medium and the access point, their properties,
limits and debugging; a MAINTAINERS entry for the new files."

n=$(git -C "$tree" rev-list --count "$base"..HEAD)
git -C "$tree" format-patch -q --cover-letter -o "$series" "$base"..HEAD
# The net/stream.c fix with two lines of context: its third line before
# differs between QEMU 10.0 and 10.2 (scripts/overlay.sh), the two lines
# either side of it do not, and so the one patch applies to both
git -C "$tree" format-patch -q -U2 --cover-letter -o "$series/u2" "$base"..HEAD
mv "$series"/u2/0001-*.patch "$series/"
rm -rf "$series/u2"
/usr/bin/python3 - "$series"/0000-cover-letter.patch "$n" "$ver" <<'PY'
import sys
path, n, ver = sys.argv[1:]
s = open(path).read()
s = s.replace("*** SUBJECT HERE ***",
              "Broadcom BCM4331 Wi-Fi, a simulated 802.11 medium and access point")
s = s.replace("*** BLURB HERE ***", """\
This series adds an emulated Wi-Fi card that the unmodified Linux bcma +
b43 + mac80211 stack drives, and the pieces it needs: a simulated radio
medium (-object wifi-medium, after net/can) that also joins several QEMU
processes, and a virtual access point (-device wifi-ap) bridged to any
netdev, with WPA2-PSK.

Guests with Debian's 6.1 and 6.12 kernels scan, associate (open, WEP,
TKIP, WPA2 with the card's hardware crypto), get an address by DHCP from
user networking, run hostapd, IBSS and monitor mode.  The b43 firmware is
emulated at a high level; stub firmware files in b43's format are
generated by a script kept out of this series.

Against QEMU %s.  Each patch builds on its own.""" % ver)
open(path, "w").write(s)
PY
echo "patches: $n patches in $series"

rc=0
for p in "$series"/0*.patch; do
    case $p in */0000-cover-letter.patch) continue ;; esac
    # without -q: checkpatch's totals line counts the warnings too, and a
    # warning fails the series as an error does
    perl "$tree/scripts/checkpatch.pl" "$p" >"$p.checkpatch" 2>&1 || true
    total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings' "$p.checkpatch" || true)
    if [ -z "$total" ]; then
        echo "patches: checkpatch: $(basename "$p"): no verdict, see $p.checkpatch"
        rc=1
    elif ! [[ $total =~ ^total:\ 0\ errors,\ 0\ warnings ]]; then
        echo "patches: checkpatch: $(basename "$p"): $total: see $p.checkpatch"
        rc=1
    else
        echo "patches: checkpatch: $(basename "$p"): $total"
        rm -f "$p.checkpatch"
    fi
done

# The same series onto the other suite's QEMU (trixie's 10.0.x, sid's
# newest), with plain git am, when scripts/build-qemu.sh fetched it
odsc=$(ls "$srcroot"/dl$osfx/qemu_*.dsc 2>/dev/null | head -n1 || true)
if [ -n "$odsc" ]; then
    over=$(basename "$odsc" .dsc)
    over=${over#qemu_}
    pristine "$odsc" "$over" "$out/qemu-$other"
    if git -C "$out/qemu-$other" am -q $(ls "$series"/0*.patch | grep -v /0000-) \
            >"$out/am-$other.log" 2>&1; then
        echo "patches: git am onto QEMU ${over%%-*} ($other) too: $n patches applied"
        rm -rf "$out/qemu-$other" "$out/am-$other.log"
    else
        echo "patches: the series does not apply with git am onto QEMU" \
             "${over%%-*} ($other): $out/am-$other.log, $out/qemu-$other"
        rc=1
    fi
else
    echo "patches: no $other source in build/src (scripts/build-qemu.sh --qemu $other):" \
         "git am onto it not tried"
fi
[ -z "$check" ] && exit $rc

# --check: configure once (as scripts/build-qemu.sh does, with our devices
# file beside the tree: it is not part of the series), build after every
# patch with --check-each, and the whole series' tree with every qtest
bdir=$out/build
rm -rf "$bdir"
mkdir -p "$bdir"
last=$(git -C "$tree" rev-parse HEAD)
[ -z "$each" ] || git -C "$tree" checkout -q "$base"
devs=configs/devices/x86_64-softmmu/bcm43xx.mak
cp "$top/$devs" "$tree/$devs"
# Debian's meson (bookworm-backports) lives with /usr/bin/python3; the +ds
# source has no firmware blobs: Debian's seabios and QEMU data packages
(cd "$bdir" && "$tree/configure" --python=/usr/bin/python3 \
    --target-list=x86_64-softmmu \
    --without-default-features --without-default-devices \
    --with-devices-x86_64=bcm43xx --enable-tcg --enable-slirp \
    --enable-pixman --disable-docs --disable-download \
    --disable-install-blobs \
    --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu \
    >configure.log 2>&1) ||
    { tail -n 30 "$bdir/configure.log"; exit 1; }
# run from its build tree, QEMU looks for firmware under qemu-bundle/
for d in /usr/share/qemu /usr/share/seabios /usr/lib/ipxe/qemu; do
    mkdir -p "$bdir/qemu-bundle$(dirname "$d")"
    ln -sfn "$d" "$bdir/qemu-bundle$d"
done
build() {   # build() COMMIT: the emulator at that commit of the series
    local c=$1 subj start=$SECONDS
    git -C "$tree" checkout -q "$c"
    subj=$(git -C "$tree" log -1 --format=%s "$c")
    if ninja -C "$bdir" qemu-system-x86_64 >"$bdir/ninja-${c:0:8}.log" 2>&1; then
        echo "patches: builds ($((SECONDS - start)) s): $subj"
    else
        echo "patches: DOES NOT BUILD: $subj ($bdir/ninja-${c:0:8}.log)"
        rc=1
    fi
}
if [ -n "$each" ]; then
    for c in $(git -C "$tree" rev-list --reverse "$base".."$last"); do
        build "$c"
    done
else
    build "$last"
fi
# every qtest of ours the series carries, and qos-test's on the cards' nodes
qts=$(cd "$tree/tests/qtest" && grep -L 'libqos_init(' bcm43*-test.c wifi-*-test.c |
      sed 's/\.c$//')
qstart=$SECONDS
for t in $qts qos-test; do
    if ! ninja -C "$bdir" "tests/qtest/$t" >>"$bdir/ninja-qtests.log" 2>&1; then
        echo "patches: qtest $t does not build"
        rc=1
        continue
    fi
    if [ "$t" = qos-test ]; then
        run=("$top/scripts/qos-test.sh" tests/qtest/qos-test)
    else
        run=("tests/qtest/$t" --tap -k)
    fi
    if (cd "$bdir" && QTEST_QEMU_BINARY=./qemu-system-x86_64 \
            "${run[@]}" >"$bdir/$t.log" 2>&1); then
        echo "patches: qtest $t: OK, $(grep -c '^ok ' "$bdir/$t.log") tests"
    else
        echo "patches: qtest $t: FAILED ($bdir/$t.log)"
        rc=1
    fi
done
echo "patches: qtests built and run in $((SECONDS - qstart)) s"
exit $rc
