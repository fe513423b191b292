#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build a kernel for the kernel gate (scripts/kernel-gate.py) with its
# config fragment, configs/kernel/gate.config: `make tinyconfig`, the
# fragment merged on top (bcma, b43, brcmsmac, mac80211 as modules; KASAN,
# UBSAN, lockdep, KCOV, ...), bzImage and modules, the modules installed.
#
#   scripts/build-kernel.sh [--source DIR] [--out DIR] [--fragment FILE]
#
# --source: a kernel source tree (yours); without it, Debian's
#   linux-source-6.12 (bookworm-backports), extracted once into
#   build/kernel/src/.
# --out: the object directory (make O=), default build/kernel/obj-<name>;
#   the build is incremental there.  The modules are installed into
#   <out>/modroot (INSTALL_MOD_PATH).  It ends with the gate's command line.
# --fragment: another fragment, merged after gate.config.
# Every option of the fragments that the source tree's Kconfig did not
# take (a dependency missing, a name changed) is listed; one the gate
# needs (bcma, b43, brcmsmac, mac80211, cfg80211, KASAN) stops the build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src="" out="" extra=""
while [ $# -gt 0 ]; do
    case $1 in
    --source) src=$(cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --fragment) extra=$(realpath "$2"); shift 2 ;;
    *) echo "usage: build-kernel.sh [--source DIR] [--out DIR] [--fragment FILE]" >&2
       exit 2 ;;
    esac
done
[ "${BCM_SKIP_DEPS:-}" = 1 ] || "$top/scripts/deps.sh" kernel
t0=$SECONDS

if [ -z "$src" ]; then
    # Debian's linux-source-6.12, the version apt offers
    kdir=$top/build/kernel
    mkdir -p "$kdir/debs"
    ver=$(apt-cache policy linux-source-6.12 | sed -n 's/ *Candidate: //p')
    [ -n "$ver" ] && [ "$ver" != "(none)" ] || {
        echo "build-kernel: apt offers no linux-source-6.12 (bookworm-backports)" >&2; exit 1; }
    deb=$(ls "$kdir/debs"/linux-source-6.12_"${ver//:/%3a}"_all.deb 2>/dev/null || true)
    if [ -z "$deb" ]; then
        echo "build-kernel: downloading linux-source-6.12 $ver"
        (cd "$kdir/debs" && apt-get download -q -o APT::Sandbox::User=root \
            "linux-source-6.12=$ver" >/dev/null)
        deb=$(ls "$kdir/debs"/linux-source-6.12_*_all.deb | tail -n1)
    fi
    src=$kdir/src/linux-source-6.12-$ver
    if [ ! -f "$src/Makefile" ]; then
        echo "build-kernel: extracting $(basename "$deb")"
        rm -rf "$src.tmp"
        mkdir -p "$src.tmp"
        dpkg-deb --fsys-tarfile "$deb" |
            tar -xO ./usr/src/linux-source-6.12.tar.xz |
            tar -xJ -C "$src.tmp" --strip-components=1
        mv "$src.tmp" "$src"
    fi
    name=debian-6.12-$ver
else
    name=$(basename "$src")
fi
out=$(realpath -m "${out:-$top/build/kernel/obj-$name}")
mkdir -p "$out"
frags=("$top/configs/kernel/gate.config")
[ -n "$extra" ] && frags+=("$extra")

# the configuration: tinyconfig + the fragments; redone when they change
stamp=$out/.gate-config.sha256
want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "build-kernel: configuring $src in $out (tinyconfig + ${frags[*]##*/})"
    make -s -C "$src" O="$out" tinyconfig >/dev/null
    (cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m .config "${frags[@]}" >/dev/null)
    make -s -C "$src" O="$out" olddefconfig >/dev/null
    echo "$want" > "$stamp"
fi
# what the fragments asked for and the tree's Kconfig did not give
missing=$(cat "${frags[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' | while IFS= read -r l; do
    k=${l%%=*} v=${l#*=}
    if [ "$v" = n ]; then
        grep -q "^$k=" "$out/.config" && echo "$k (wanted n)"
    else
        grep -qx "$l" "$out/.config" || echo "$k=$v (got: $(grep "^$k=" "$out/.config" || echo unset))"
    fi
done)
if [ -n "$missing" ]; then
    echo "build-kernel: options the tree did not take:"
    echo "$missing" | sed 's/^/  /'
    if echo "$missing" | grep -qE '^CONFIG_(BCMA|B43|BRCMSMAC|MAC80211|CFG80211|KASAN)='; then
        echo "build-kernel: the gate needs those: stopping" >&2
        exit 1
    fi
fi

echo "build-kernel: make -j$(nproc) bzImage modules (log: $out/build.log)"
tb=$SECONDS
if ! make -C "$src" O="$out" -j"$(nproc)" bzImage modules >"$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    exit 1
fi
rm -rf "$out/modroot"
make -s -C "$src" O="$out" modules_install INSTALL_MOD_PATH="$out/modroot" \
    INSTALL_MOD_STRIP=1 >/dev/null
rel=$(cat "$out/include/config/kernel.release")
echo "build-kernel: kernel $rel built in $((SECONDS - tb)) s (all: $((SECONDS - t0)) s)"
echo "build-kernel: run the gate on it:"
echo "  scripts/kernel-gate.py --kernel $out/arch/x86/boot/bzImage --modules $out/modroot"
