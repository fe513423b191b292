#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The test command: installs what is missing, builds QEMU with the device
# (normal and ASan/UBSan) and its libFuzzer binary, the guest image, then
# runs every suite (unit, qtest, fuzz corpus replay, guest, static).
#
#   scripts/test.sh                 all suites
#   scripts/test.sh qtest guest     only these meson suites
#
# The last line of the output is "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
suites=("$@")

summary() {
    echo "$1 passed, $2 failed"
}
die() {
    echo "test: $*" >&2
    summary 0 1
    exit 1
}

scripts/deps.sh fuzz || die "installing dependencies failed"
BCM_SKIP_DEPS=1 scripts/build-qemu.sh || die "QEMU build failed"
BCM_SKIP_DEPS=1 scripts/build-qemu.sh --asan || die "QEMU ASan/UBSan build failed"
BCM_SKIP_DEPS=1 scripts/build-fuzz.sh || die "QEMU fuzzer build failed"
/usr/bin/python3 firmware-stubs/gen-stubs.py || die "firmware stubs failed"
for k in 6.12 6.1; do
    /usr/bin/python3 scripts/build-guest.py --kernel $k || die "guest image ($k) failed"
done

tdir=build/tests
if [ ! -f "$tdir/build.ninja" ]; then
    meson setup "$tdir" >/dev/null || die "meson setup failed"
else
    meson setup --reconfigure "$tdir" >/dev/null || die "meson reconfigure failed"
fi
args=(--print-errorlogs --num-processes "$(nproc)")
for s in "${suites[@]}"; do
    args+=(--suite "$s")
done
meson test -C "$tdir" "${args[@]}"
rc=$?

# Count from meson's machine-readable log (one JSON object per test).
read -r pass fail < <(/usr/bin/python3 - "$tdir/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r != "SKIP":
        f += 1
print(p, f)
PY
) || { pass=0; fail=1; }
[ "$rc" = 0 ] || [ "$fail" != 0 ] || fail=1
summary "$pass" "$fail"
[ "$fail" = 0 ]
