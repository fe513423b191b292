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

# Each phase's wall time, printed before the last line (issue 28: what
# dominates a run on a fresh machine).
phases=()
t0=$SECONDS
phase() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    local rc=$?
    phases+=("$(printf '%-28s %5d s' "$name" $((SECONDS - start)))")
    return $rc
}

phase "dependencies" scripts/deps.sh fuzz || die "installing dependencies failed"
phase "QEMU build" env BCM_SKIP_DEPS=1 scripts/build-qemu.sh --qtests ||
    die "QEMU build failed"
# one sanitizer build (clang, ASan + UBSan, every finding fatal): the
# libFuzzer targets, and the emulator and qtests the sanitized qtests run
phase "QEMU fuzzer+ASan build" env BCM_SKIP_DEPS=1 scripts/build-qemu.sh --fuzz --qtests ||
    die "QEMU fuzzer+ASan build failed"
phase "firmware stubs" /usr/bin/python3 firmware-stubs/gen-stubs.py || die "firmware stubs failed"
for k in 6.12 6.1; do
    phase "guest image $k" /usr/bin/python3 scripts/build-guest.py --kernel $k ||
        die "guest image ($k) failed"
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
phase "meson test" meson test -C "$tdir" "${args[@]}"
rc=$?

# Count from meson's machine-readable log (one JSON object per test).
# On stderr: each suite's summed test time and the five longest tests.
read -r pass fail < <(/usr/bin/python3 - "$tdir/meson-logs/testlog.json" <<'PY'
import collections, json, sys
p = f = 0
tests = [json.loads(line) for line in open(sys.argv[1])]
for t in tests:
    if t["result"] in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif t["result"] != "SKIP":
        f += 1
per = collections.Counter()
for t in tests:
    # "bcm4331-qemu:qtest+asan / bcm4331-test-asan": the suites
    per[t["name"].split(" / ")[0].split(":")[-1]] += t["duration"]
for s, d in sorted(per.items(), key=lambda x: -x[1]):
    print("  suite %-24s %5d s (summed)" % (s, d), file=sys.stderr)
for t in sorted(tests, key=lambda t: -t["duration"])[:5]:
    print("  test  %-24s %5d s" % (t["name"].split(" / ")[-1], t["duration"]),
          file=sys.stderr)
print(p, f)
PY
) || { pass=0; fail=1; }
echo "phases (wall time):" >&2
printf '  %s\n' "${phases[@]}" >&2
printf '  %-28s %5d s\n' "total" $((SECONDS - t0)) >&2
[ "$rc" = 0 ] || [ "$fail" != 0 ] || fail=1
summary "$pass" "$fail"
[ "$fail" = 0 ]
