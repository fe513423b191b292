#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the host packages the build, the tests and the guest image need.
# Idempotent: does nothing when everything is present.
#
#   scripts/deps.sh         the build, the tests, the guest image
#   scripts/deps.sh fuzz    and the fuzzer's toolchain (clang-14, libFuzzer)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

"$here/apt-sources.sh"

# name[:suite] - packages whose bookworm version is too old come from backports
pkgs=(
    build-essential pkg-config ccache ninja-build flex bison dpkg-dev
    python3 python3-venv python3-setuptools
    libglib2.0-dev libpixman-1-dev libslirp-dev zlib1g-dev libfdt-dev
    seabios qemu-system-data ipxe-qemu
    cpio xz-utils zstd kmod busybox-static
    # scripts/bug-lab.sh: an out-of-tree b43 against Debian's extracted
    # kernel headers (what linux-kbuild's tools and modfinal's BTF need)
    patch gcc-12 libelf1 libssl3 pahole gdb
    tshark iperf3
    # tests/guest/test_explain.py: scripts/explain.py's HTML page in a
    # real headless browser, through its WebDriver
    chromium chromium-driver python3-selenium
    # scripts/air-plot.py: pictures of the air
    python3-matplotlib
    # tests/guest/test_netns.py: one air through VDE switches (QEMU's
    # -netdev vde links libvdeplug), network namespaces (iproute2)
    libvdeplug-dev vde2 iproute2
    # the wifi-medium's scenario files (wmediumd's format) through libconfig
    libconfig-dev
)
bpo=(meson python3-pycotap)
# scripts/build-fuzz.sh: clang with libFuzzer, ASan/UBSan and profile
# runtimes (libclang-rt), llvm-profdata/llvm-cov for the line coverage
if [ "${1:-}" = fuzz ]; then
    pkgs+=(clang-14 lld-14 llvm-14 libclang-rt-14-dev)
fi

missing=()
for p in "${pkgs[@]}" "${bpo[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
        missing+=("$p")
done
# meson must be >= 1.5 (QEMU 10.0)
if ! dpkg --compare-versions "$(dpkg-query -W -f='${Version}' meson 2>/dev/null || echo 0)" ge 1.5; then
    missing+=(meson)
fi
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
apt-get install -y -q --no-install-recommends -t bookworm-backports "${bpo[@]}" >/dev/null
