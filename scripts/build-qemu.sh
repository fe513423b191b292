#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build QEMU (Debian's source package, Debian patches applied) with the
# bcm4331 device overlaid: trixie's QEMU 10.0.x, or with --qemu sid the
# newest QEMU Debian serves (its build directories get a -sid: build/qemu-sid/,
# build/qemu-sid-asan/, ...).
#
#   scripts/build-qemu.sh           -> build/qemu/         (+ build/qemu-system-x86_64)
#   scripts/build-qemu.sh --asan    -> build/qemu-asan/    (gcc ASan + UBSan)
#   ... --qtests                    and the qtests of that build (scripts/test.sh:
#                                      with --fuzz, its qemu-system-x86_64 too)
#   scripts/build-qemu.sh --fuzz    -> build/qemu-fuzz/    (clang-14 libFuzzer + ASan +
#                                      UBSan: qemu-fuzz-x86_64; scripts/build-fuzz.sh)
#   scripts/build-qemu.sh --fuzz-cov -> build/qemu-fuzz-cov/ (libFuzzer with clang's
#                                      source coverage, for scripts/fuzz.sh --coverage)
#
#   scripts/build-qemu.sh --qemu sid [--asan|...] -> build/qemu-sid[-asan|...]/
#
# The QEMU tree is unpacked once into build/src/qemu-<version>; the project's
# files are symlinked into it (so an edit rebuilds incrementally) and a few
# one-line hooks are added.  Everything is idempotent.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
variant=normal
qtests=
suite=trixie
usage="usage: build-qemu.sh [--qemu trixie|sid] [--asan|--fuzz|--fuzz-cov] [--qtests]"
while [ $# -gt 0 ]; do
    case $1 in
    --asan) variant=asan ;;
    --fuzz) variant=fuzz ;;
    --fuzz-cov) variant=fuzz-cov ;;
    --qtests) qtests=1 ;;
    --qemu) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
            suite=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
# the suite's files: trixie keeps the names it always had
case $suite in
trixie) sfx= ;;
sid)    sfx=-sid ;;
*) echo "$usage" >&2; exit 2 ;;
esac

# sid's sources are added only for a sid build (whatever BCM_SKIP_DEPS says:
# the source package comes from there)
[ "$suite" = trixie ] || "$top/scripts/apt-sources.sh" "$suite"
case $variant in
fuzz*) [ -n "${BCM_SKIP_DEPS:-}" ] || "$top/scripts/deps.sh" fuzz ;;
*)     [ -n "${BCM_SKIP_DEPS:-}" ] || "$top/scripts/deps.sh" ;;
esac

# The QEMU build needs Debian's python3 (with Debian's meson), not a
# python3 that happens to come first in PATH.
py=/usr/bin/python3
export PATH=/usr/lib/ccache:$PATH

srcroot=$top/build/src
mkdir -p "$srcroot"

# --- 1. QEMU source from Debian's trixie (or sid) suite ------------------
# build/src/qemu$sfx.version: the Debian version; build/src/dl$sfx: the package.
# The suite's versions of the source package, newest first: sid's index may
# list more than one, and the newest may not be served (yet) where this
# machine's apt gets its files; the newest one that downloads is taken.
srcdir() {   # the tree of upstream version $1
    local d=$srcroot/qemu-$1 tv
    # sid with the very release trixie has: a tree of its own all the same
    # (Debian's patches may differ)
    tv=$(cat "$srcroot/qemu.version" 2>/dev/null || true)
    if [ "$suite" != trixie ] && [ "$1" = "${tv%%-*}" ]; then d=$d$sfx; fi
    echo "$d"
}
ver=
mapfile -t cands < <(apt-cache madison qemu 2>/dev/null |
    awk -F' [|] ' -v s="$suite" '{ split($3, a, " ") }
        a[3] == "Sources" && a[2] ~ "^" s "/" { print $2 }' | sort -rV)
for c in "${cands[@]}"; do
    v=${c#*:}                      # no epoch: 10.0.13+ds-0+deb13u1
    qsrc=$(srcdir "${v%%-*}")
    if [ -f "$qsrc/.bcm4331-unpacked" ]; then ver=$v; break; fi
    echo "build-qemu: fetching Debian source package qemu $v ($suite)"
    rm -rf "$srcroot/dl$sfx.new"
    mkdir -p "$srcroot/dl$sfx.new"
    if ! (cd "$srcroot/dl$sfx.new" && apt-get source -q --download-only "qemu=$c" >/dev/null 2>&1); then
        echo "build-qemu: qemu $v is not served, trying the suite's next version"
        rm -rf "$srcroot/dl$sfx.new"
        continue
    fi
    rm -rf "$qsrc" "$srcroot/dl$sfx"
    mv "$srcroot/dl$sfx.new" "$srcroot/dl$sfx"
    dsc=$(ls "$srcroot"/dl$sfx/qemu_*.dsc | head -n1)
    # dpkg-source applies Debian's patch series (3.0 quilt)
    dpkg-source -q -x --no-check "$dsc" "$qsrc" >/dev/null
    # kept: scripts/patches.sh makes its series against this source
    echo "$v" > "$srcroot/qemu$sfx.version"
    touch "$qsrc/.bcm4331-unpacked"
    ver=$v
    break
done
if [ -z "$ver" ]; then
    # fall back to whatever is already unpacked (offline rebuild)
    ver=$(cat "$srcroot/qemu$sfx.version" 2>/dev/null || true)
    [ -n "$ver" ] && qsrc=$(srcdir "${ver%%-*}")
fi
[ -n "$ver" ] && [ -f "$qsrc/.bcm4331-unpacked" ] ||
    { echo "build-qemu: cannot find the qemu source package in $suite" >&2; exit 1; }
upver=${ver%%-*}
echo "build-qemu: QEMU $(cat "$qsrc/VERSION") from Debian source package qemu $ver"

# --- 2. overlay -----------------------------------------------------------
"$top/scripts/overlay.sh" "$qsrc"

# --- 3. configure + build -------------------------------------------------
# Debian's source drops the firmware blobs: use Debian's seabios,
# qemu-system-data and ipxe-qemu packages at run time.
fwpath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
# Only what the guests, qtests and benchmarks use: one target, no optional
# feature we do not name, and the devices of our devices file
# (configs/devices/x86_64-softmmu/bcm43xx.mak, overlaid: Q35 and I440FX,
# the cards and the air, e1000/e1000e, pcie-root-port, intel-iommu).
base=(--python=$py --target-list=x86_64-softmmu --without-default-features
      --without-default-devices --with-devices-x86_64=bcm43xx --enable-tcg)
features=(--enable-slirp --enable-pixman
          --disable-docs --disable-download --disable-install-blobs)
# libFuzzer builds: clang (ccache'd through PATH), no KVM (the fuzzer
# runs with accel=qtest); coverage instrumentation is limited to hw/, net/
# (QEMU's scripts/oss-fuzz/instrumentation-filter-template)
clang=(--cc=clang-14 --cxx=clang++-14 --objcc=clang-14)
case $variant in
normal)   bdir=$top/build/qemu$sfx
          # VDE: the guest tests' second transport across hosts (test_netns)
          conf=("${base[@]}" --enable-kvm "${features[@]}" --enable-trace-backends=log
                --enable-vde --firmwarepath=$fwpath) ;;
asan)     bdir=$top/build/qemu$sfx-asan
          # gcc's -fsanitize=undefined leaves out float-cast-overflow (a
          # double out of an integer's range converted: a scenario file's
          # 1e300): named here
          conf=("${base[@]}" --enable-kvm "${features[@]}" --enable-trace-backends=log
                --firmwarepath=$fwpath --enable-asan --enable-ubsan --disable-werror
                "--extra-cflags=-fsanitize=float-cast-overflow") ;;
fuzz)     bdir=$top/build/qemu$sfx-fuzz
          # UBSan: float-cast-overflow named (clang's -fsanitize=undefined
          # has it, gcc's does not), and every finding fatal wherever the
          # binary runs (not only with UBSAN_OPTIONS=halt_on_error=1)
          conf=("${clang[@]}" "${base[@]}" "${features[@]}" --firmwarepath=$fwpath
                --enable-fuzzing --enable-asan --enable-ubsan --disable-werror
                "--extra-cflags=-fsanitize=float-cast-overflow -fno-sanitize-recover=undefined") ;;
fuzz-cov) bdir=$top/build/qemu$sfx-fuzz-cov
          conf=("${clang[@]}" "${base[@]}" "${features[@]}" --firmwarepath=$fwpath
                --enable-fuzzing --disable-werror
                "--extra-cflags=-fprofile-instr-generate -fcoverage-mapping") ;;
esac
stamp="${conf[*]} $upver"
if [ ! -f "$bdir/build.ninja" ] || [ "$(cat "$bdir/.bcm4331-conf" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$bdir"
    mkdir -p "$bdir"
    (cd "$bdir" && "$qsrc/configure" "${conf[@]}" >configure.log 2>&1) ||
        { tail -n 40 "$bdir/configure.log"; exit 1; }
    echo "$stamp" > "$bdir/.bcm4331-conf"
fi
jobs=$(nproc)
# --qtests (scripts/test.sh): our qtests, QEMU's own sweeps over every
# device and machine type (device-introspect-test, qom-test) with our
# devices built in, and qos-test, where the tests/qtest/*-test.c of the
# libqos graph go; the main job needs none of them.  In the fuzzer build
# (clang, ASan, UBSan with every finding fatal) they come with its own
# qemu-system-x86_64: the test command's sanitized qtests run there, so
# that one sanitizer build serves both (--asan is gcc's, for a user who
# wants that one).
qtest_targets=(tests/qtest/device-introspect-test tests/qtest/qom-test
               tests/qtest/qos-test
               $(cd "$top" && grep -L 'libqos_init(' tests/qtest/*-test.c 2>/dev/null |
                 sed 's/\.c$//'))
case $variant in
fuzz)     targets=(qemu-fuzz-x86_64)
          [ -z "$qtests" ] || targets+=(qemu-system-x86_64 "${qtest_targets[@]}") ;;
fuzz-cov) targets=(qemu-fuzz-x86_64) ;;
*)        targets=(qemu-system-x86_64)
          [ -z "$qtests" ] || targets+=("${qtest_targets[@]}") ;;
esac
echo "build-qemu: ninja -C $bdir (log: $bdir/ninja.log)"
# Progress without flooding the terminal or a CI log: one line per tenth of
# the compile ([N/M] as ninja counts it), with the time spent and an
# estimate of what is left (a full build is ~1600 steps, ~6 min on 2 cores
# with a warm ccache, longer without).
progress() {
    local start=$SECONDS step last=-1 n m pct el
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$bdir/ninja.log"
        [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
        n=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]}
        [ "$m" -ge 50 ] || continue          # a rebuild of a few files
        step=$((n * 10 / m))
        [ "$step" -gt "$last" ] || continue
        last=$step
        pct=$((n * 100 / m)) el=$((SECONDS - start))
        if [ "$n" -gt 0 ] && [ "$el" -gt 0 ] && [ "$n" -lt "$m" ]; then
            printf 'build-qemu: [%d/%d] %3d %%, %d s so far, about %d s left\n' \
                "$n" "$m" "$pct" "$el" $(( el * (m - n) / n ))
        else
            printf 'build-qemu: [%d/%d] %3d %%, %d s\n' "$n" "$m" "$pct" "$el"
        fi
    done
}
: >"$bdir/ninja.log"
set +e
ninja -C "$bdir" -j "$jobs" "${targets[@]}" 2>&1 | progress
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
    grep -v '^\[' "$bdir/ninja.log" | tail -n 60
    exit 1
fi
# QEMU release trees build without -Werror: a warning in the project's own
# files (say, a bool function returning nothing) must still stop the build.
if grep -A3 -E '(hw/net/bcm43xx/|net/wifi/|tests/(qtest|unit)/.*(bcm4331|bcm43224|wifi)).*: warning:' \
        "$bdir/ninja.log"; then
    echo "build-qemu: compiler warnings in the project's sources (above)" >&2
    # (clang's, in a fuzzer build, are reported but do not stop it)
    case $variant in fuzz*) ;; *) exit 1 ;; esac
fi
# A QEMU run from its build tree relocates the configured firmware path
# under <builddir>/qemu-bundle/: point those at Debian's directories.
for d in ${fwpath//:/ }; do
    mkdir -p "$bdir/qemu-bundle$(dirname "$d")"
    ln -sfn "$d" "$bdir/qemu-bundle$d"
done
if [ "$variant" = normal ]; then
    ln -sfn "qemu$sfx/qemu-system-x86_64" "$top/build/qemu$sfx-system-x86_64"
fi
ln -sfn "$qsrc" "$top/build/qemu$sfx-src"
