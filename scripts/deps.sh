#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the Debian packages a job needs.  Idempotent: does nothing when
# everything is present.  Every group includes the main job's; lab, test
# and fuzz each include the ones above them.
#
#   scripts/deps.sh         the main job (scripts/run.sh): build QEMU with the
#                           device, build the guest image, boot it
#   scripts/deps.sh lab     and the bug lab (scripts/bug-lab.sh): b43 built
#                           out of tree against Debian's kernel headers, gdb
#   scripts/deps.sh test    and everything the test command needs
#                           (scripts/test.sh): the suites' host tools
#   scripts/deps.sh fuzz    and the fuzzer's toolchain (clang-14, libFuzzer)
#   scripts/deps.sh gate    the main job and the kernel gate
#                           (scripts/kernel-gate.py): iperf3
#   scripts/deps.sh kernel  the gate and a kernel built from source
#                           (scripts/build-kernel.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
group=${1:-main}
case $group in
main|lab|test|fuzz|gate|kernel) ;;
*) echo "usage: deps.sh [lab|test|fuzz|gate|kernel]" >&2; exit 2 ;;
esac

"$here/apt-sources.sh"

# The main job.  QEMU's build (scripts/build-qemu.sh: apt-get source and
# dpkg-source, a C toolchain, meson from backports, python3-venv for
# QEMU's configure) and the libraries of the features it enables (GLib,
# pixman, libslirp for -netdev user, zlib, libconfig for the medium's
# scenario files, libvdeplug for -netdev vde); at run time SeaBIOS and
# Debian's QEMU firmware data (linuxboot_dma.bin for -kernel: Debian's
# QEMU source drops the blobs); the guest image (scripts/build-guest.py:
# cpio, xz, zstd, depmod, busybox, file).
pkgs=(
    build-essential pkg-config ccache ninja-build dpkg-dev
    python3 python3-venv python3-setuptools
    libglib2.0-dev libpixman-1-dev libslirp-dev zlib1g-dev libconfig-dev
    libvdeplug-dev
    seabios qemu-system-data
    cpio xz-utils zstd kmod busybox-static file
)
# name from bookworm-backports: bookworm's is too old (QEMU 10 wants >= 1.5)
bpo=(meson)
case $group in
lab|test|fuzz)
    # scripts/bug-lab.sh: an out-of-tree b43 against Debian's extracted
    # kernel headers (what linux-kbuild's tools and modfinal's BTF need);
    # gdb at the bug (tests/guest/buglab.py --gdb)
    pkgs+=(patch gcc-12 libelf1 libssl3 pahole gdb) ;;
esac
case $group in
test|fuzz)
    pkgs+=(
        # iPXE's ROMs: the e1000 the benchmarks measure against loads one
        ipxe-qemu
        # the pcap checks (tshark); the benchmarks' host side (iperf3)
        tshark iperf3
        # tests/guest/test_explain.py: scripts/explain.py's HTML page in a
        # real headless browser, through its WebDriver
        chromium chromium-driver python3-selenium
        # scripts/air-plot.py: pictures of the air
        python3-matplotlib
        # tests/guest/test_netns.py: one air through VDE switches,
        # network namespaces (iproute2)
        vde2 iproute2
    )
    # meson test's TAP parsing of the python tests
    bpo+=(python3-pycotap) ;;
esac
# scripts/build-fuzz.sh: clang with libFuzzer, ASan/UBSan and profile
# runtimes (libclang-rt), llvm-profdata/llvm-cov for the line coverage
case $group in
gate|kernel)
    # scripts/kernel-gate.py: the host's iperf3 servers; jsonschema for
    # --kcidb-schema
    pkgs+=(iperf3 python3-jsonschema) ;;
esac
if [ "$group" = kernel ]; then
    # scripts/build-kernel.sh: a kernel from source (objtool wants libelf)
    pkgs+=(bc bison flex libelf-dev libssl-dev)
fi
if [ "$group" = fuzz ]; then
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
# dpkg without an fsync per file (--force-unsafe-io, as Debian's build
# chroots install): most of a first run's install time otherwise
opts=(-y -q --no-install-recommends -o Dpkg::Options::=--force-unsafe-io)
apt-get install "${opts[@]}" "${pkgs[@]}" >/dev/null
apt-get install "${opts[@]}" -t bookworm-backports "${bpo[@]}" >/dev/null
