#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fuzz the BCM4331 and its air with QEMU's libFuzzer targets
# (build/qemu-fuzz/qemu-fuzz-x86_64 from scripts/build-fuzz.sh).
#
#   scripts/fuzz.sh --time S [--config NAME] [--jobs N]
#       fuzz every configuration (or NAME) for S seconds each, N workers
#       (default: every core); the corpus under tests/fuzz/corpus/<config>/
#       grows and is merged (minimised) at the end; crashes, leaks,
#       timeouts and OOMs go to build/fuzz-artifacts/<config>/.  Prints per
#       configuration: executions, execs/s, coverage (cov/ft), crashes.
#   scripts/fuzz.sh --replay [--config NAME]
#       run each committed corpus once through its target (CI): fails on
#       any crash, leak, timeout or sanitizer report
#   scripts/fuzz.sh --coverage [--config NAME]
#       build the coverage variant (build/qemu-fuzz-cov/), replay the
#       corpora, print line coverage of hw/net/bcm43xx/, hw/net/wifi/ and net/wifi/
#   scripts/fuzz.sh --seed [--config NAME]
#       (re)make the seed corpus from the qtests (scripts/qtest-to-fuzz.py,
#       needs the ASan build's qtests) and merge it into the corpus dirs
#   scripts/fuzz.sh --merge [--config NAME]
#       re-minimise the committed corpora (what --time does at its end)
#   scripts/fuzz.sh --list      the configurations
#
# Configurations: generic-fuzz-<name> of tests/qtest/fuzz/
# bcm4331_fuzz_configs.h, and bcm4331-peer, bcm4331-peer-wpa2 (tests/qtest/
# fuzz/bcm4331_fuzz.c: the input is frames from a peer on the air's netdev;
# seeds from scripts/peer-fuzz-seeds.py), wifi-scenario (the input is a
# scenario file) and wifi-qmp (QMP commands of the air) (tests/qtest/fuzz/
# wifi_air_fuzz.c; seeds from scripts/air-fuzz-seeds.py).  A dictionary
# tests/fuzz/dict/<config>.dict, if there is one, is given to --time runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

configs=(bcm4331 bcm43224 bcm43224-ap bcm4331-ap bcm4331-airtime-wpa2 bcm4331-dma32
         bcm4331-pair bcm4331-trio bcm4331-peer bcm4331-peer-wpa2 wifi-scenario wifi-qmp)
mode=
secs=
only=
jobs=$(nproc)
while [ $# -gt 0 ]; do
    case $1 in
    --time) secs=${2:?--time needs seconds}; mode=${mode:-fuzz}; shift ;;
    --config) only=${2:?--config needs a name}; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --replay|--coverage|--seed|--merge|--list) mode=${1#--} ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$mode" ] || { echo "fuzz.sh: --time S, --replay, --coverage, --seed, --merge or --list" >&2; exit 2; }
if [ -n "$only" ]; then
    printf '%s\n' "${configs[@]}" | grep -qxF "$only" ||
        { echo "fuzz.sh: no configuration $only (--list)" >&2; exit 2; }
    configs=("$only")
fi
if [ "$mode" = list ]; then
    printf '%s\n' "${configs[@]}"
    exit 0
fi

fuzzer=$top/build/qemu-fuzz/qemu-fuzz-x86_64
covfuzzer=$top/build/qemu-fuzz-cov/qemu-fuzz-x86_64
# BCM_FUZZ_CORPUS: another corpus root (e.g. a snapshot taken while a
# campaign rewrites the committed one)
corpus=${BCM_FUZZ_CORPUS:-$top/tests/fuzz/corpus}
artifacts=$top/build/fuzz-artifacts
work=$top/build/fuzz-work
# what every run uses (QEMU's scripts/oss-fuzz defaults; max_len as OSS-Fuzz)
fopts=(-timeout=10 -rss_limit_mb=2560 -max_len=8192)
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:print_summary=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=0
# (third-party leaks, each with its reason: tests/fuzz/lsan.supp)
export LSAN_OPTIONS=print_suppressions=0:suppressions=$top/tests/fuzz/lsan.supp

target() {
    case $1 in
    bcm4331-peer*|wifi-*) echo "$1" ;;
    *) echo "generic-fuzz-$1" ;;
    esac
}

need_fuzzer() {
    if [ ! -x "$1" ]; then
        echo "fuzz.sh: $1 missing: run scripts/build-fuzz.sh${2:+ $2}" >&2
        exit 1
    fi
}

# does the binary know the target (bcm4331-peer is optional)?
# (the whole list first: grep -q stopping at a match would kill the
# binary with SIGPIPE, and pipefail turn a match into a failure)
has_target() {
    local list
    list=$(LLVM_PROFILE_FILE=/dev/null "$1" --fuzz-target=nonexistent 2>/dev/null || true)
    grep -q "^ \* $2 " <<<"$list"
}

# keep only what adds coverage: merge DIRS into a fresh dir, replace $1.
# Edges only (no hit counters, no comparison operands): a fifth of the
# inputs the full feature set keeps, the same edge coverage
merge_into() {
    local cfg=$1 dst=$corpus/$1 fresh
    shift
    mkdir -p "$dst"
    fresh=$(mktemp -d "$work/merge-$cfg.XXXXXX")
    (cd "$work" && "$fuzzer" --fuzz-target="$(target "$cfg")" -merge=1 \
        -use_counters=0 -use_cmp=0 "${fopts[@]}" "$fresh" "$dst" "$@" \
        >"$work/$cfg-merge.log" 2>&1) ||
        { tail -n 30 "$work/$cfg-merge.log"; rm -rf "$fresh"; return 1; }
    mkdir -p "$dst"
    find "$dst" -maxdepth 1 -type f -delete
    find "$fresh" -maxdepth 1 -type f -exec mv -t "$dst" {} +
    rmdir "$fresh"
}

count_artifacts() {
    find "$artifacts/$1" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \
           -o -name 'slow-unit-*' \) 2>/dev/null | wc -l
}

# --- replay: each committed corpus once, fail on anything ------------------
replay_one() {
    local bin=$1 cfg=$2 n log
    n=$(find "$corpus/$cfg" -maxdepth 1 -type f 2>/dev/null | wc -l)
    if [ "$n" -eq 0 ]; then
        echo "replay $cfg: FAILED: no corpus in $corpus/$cfg"
        return 1
    fi
    log=$work/$cfg-replay.log
    mkdir -p "$artifacts/$cfg"
    if (cd "$work" && "$bin" --fuzz-target="$(target "$cfg")" -runs=0 \
            "${fopts[@]}" -artifact_prefix="$artifacts/$cfg/" "$corpus/$cfg" \
            >"$log" 2>&1) &&
       ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
        echo "replay $cfg: $n inputs OK ($(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n1))"
    else
        echo "replay $cfg: FAILED ($log)"
        grep -E 'ERROR:|SUMMARY:|runtime error:|Test unit written' "$log" | head -n 10
        return 1
    fi
}

# the configurations side by side, $jobs at a time
replay() {
    local bin=$1 cfg rc=0 pids=() p
    mkdir -p "$work"
    for cfg in "${configs[@]}"; do
        if ! has_target "$bin" "$(target "$cfg")"; then
            echo "replay $cfg: FAILED: $(target "$cfg") is not in $bin"
            rc=1
            continue
        fi
        replay_one "$bin" "$cfg" >"$work/$cfg-replay.out" &
        pids+=("$!:$cfg")
        if [ ${#pids[@]} -ge "$jobs" ]; then
            p=${pids[0]}
            pids=("${pids[@]:1}")
            wait "${p%%:*}" || rc=1
            cat "$work/${p#*:}-replay.out"
        fi
    done
    for p in "${pids[@]}"; do
        wait "${p%%:*}" || rc=1
        cat "$work/${p#*:}-replay.out"
    done
    return $rc
}

# --- fuzz for S seconds ----------------------------------------------------
# executions (final stats, or the last status line of a worker that
# stopped on a crash), coverage: the best worker's last cov/ft
fuzz_stats() {
    /usr/bin/python3 - "$@" <<'PY'
import re, sys
execs = cov = ft = 0
for path in sys.argv[1:]:
    n = c = f = 0
    for line in open(path, errors="replace"):
        m = re.match(r"#(\d+)\s.*cov: (\d+) ft: (\d+)", line)
        if m:
            n, c, f = (int(x) for x in m.groups())
        m = re.match(r"stat::number_of_executed_units: (\d+)", line)
        if m:
            n = int(m.group(1))
    execs += n
    cov, ft = max(cov, c), max(ft, f)
print(execs, cov, ft)
PY
}

fuzz_one() {
    local cfg=$1 t d logs before after execs rate cov ft crashes new dict=()
    t=$(target "$cfg")
    [ -f "$top/tests/fuzz/dict/$cfg.dict" ] && dict=(-dict="$top/tests/fuzz/dict/$cfg.dict")
    d=$work/$cfg
    rm -rf "$d"
    mkdir -p "$d/new" "$corpus/$cfg" "$artifacts/$cfg"
    before=$(count_artifacts "$cfg")
    touch "$d/.start"
    echo "fuzz $cfg: $secs s, $jobs worker(s) (logs: $d/fuzz-*.log)"
    # -jobs: N independent processes sharing the corpus dirs; new inputs are
    # written to the first dir, the committed corpus seeds them
    (cd "$d" && "$fuzzer" --fuzz-target="$t" "${fopts[@]}" -jobs="$jobs" \
        -workers="$jobs" -max_total_time="$secs" -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$artifacts/$cfg/" -close_fd_mask=1 \
        "$d/new" "$corpus/$cfg" >"$d/driver.log" 2>&1) || true
    logs=("$d"/fuzz-*.log)
    [ -e "${logs[0]}" ] || logs=("$d/driver.log")
    read -r execs cov ft < <(fuzz_stats "${logs[@]}")
    rate=$(awk -v e="$execs" -v s="$secs" 'BEGIN { printf "%.0f", e / s }')
    new=$(find "$d/new" -maxdepth 1 -type f | wc -l)
    merge_into "$cfg" "$d/new" || echo "fuzz $cfg: merge failed (see $work/$cfg-merge.log)"
    after=$(count_artifacts "$cfg")
    crashes=$((after - before))
    printf '%-22s execs %9s  execs/s %5s  cov %5s  ft %6s  new inputs %4s  corpus %4s  crashes %s\n' \
        "$cfg" "$execs" "$rate" "$cov" "$ft" "$new" \
        "$(find "$corpus/$cfg" -maxdepth 1 -type f | wc -l)" "$crashes"
    if [ "$crashes" -gt 0 ]; then
        find "$artifacts/$cfg" -maxdepth 1 -type f -newer "$d/.start" |
            sed 's/^/    artifact: /'
        grep -hE 'SUMMARY: |ERROR: ' "${logs[@]}" | sort | uniq -c | head -n 10
    fi
    echo "$cfg $execs $rate $cov $ft $crashes" >>"$work/summary"
}

# --- line coverage -----------------------------------------------------------
coverage() {
    local cfg prof=$top/build/fuzz-cov
    BCM_SKIP_DEPS=${BCM_SKIP_DEPS:-} "$top/scripts/build-fuzz.sh" --coverage
    rm -rf "$prof"
    mkdir -p "$prof"
    for cfg in "${configs[@]}"; do
        [ -n "$(ls -A "$corpus/$cfg" 2>/dev/null)" ] || continue
        if ! has_target "$covfuzzer" "$(target "$cfg")"; then
            continue
        fi
        # no sanitizers in this build; a crash still ends the replay early
        (cd "$prof" && LLVM_PROFILE_FILE="$prof/$cfg-%p.profraw" \
            "$covfuzzer" --fuzz-target="$(target "$cfg")" -runs=0 "${fopts[@]}" \
            "$corpus/$cfg" >"$prof/$cfg.log" 2>&1) ||
            echo "coverage: replay of $cfg failed ($prof/$cfg.log)"
    done
    ls "$prof"/*.profraw >/dev/null 2>&1 || { echo "coverage: no profile" >&2; exit 1; }
    llvm-profdata-14 merge -sparse "$prof"/*.profraw -o "$prof/all.profdata"
    llvm-cov-14 export -summary-only -instr-profile="$prof/all.profdata" \
        "$covfuzzer" >"$prof/all.json"
    /usr/bin/python3 - "$prof/all.json" <<'PY'
import json, os, re, sys
files = json.load(open(sys.argv[1]))["data"][0]["files"]
rows, tot = [], {}
for f in files:
    name = os.path.normpath(f["filename"])
    # the card, the devices on the air, the air (net/wifi: the backend)
    m = re.search(r"/(hw/net/bcm43xx|hw/net/wifi|net/wifi)/[^/]+\.c$", name)
    if m:
        d = m.group(1) + "/"
        l = f["summary"]["lines"]
        rows.append((name[m.start() + 1:], l["covered"], l["count"]))
        t = tot.setdefault(d, [0, 0])
        t[0] += l["covered"]
        t[1] += l["count"]
for n, c, a in sorted(rows):
    print("%-32s %5d / %5d lines  %5.1f %%" % (n, c, a, 100.0 * c / max(a, 1)))
allc = sum(t[0] for t in tot.values())
alla = sum(t[1] for t in tot.values())
for d, (c, a) in sorted(tot.items()):
    print("%-32s %5d / %5d lines  %5.1f %%" % (d + " (total)", c, a, 100.0 * c / max(a, 1)))
print("%-32s %5d / %5d lines  %5.1f %%" % ("all (total)", allc, alla, 100.0 * allc / max(alla, 1)))
PY
}

# --- seeds from the qtests -----------------------------------------------------
# config  qtest binary  test path  [converter options]
seed_table() {
    cat <<'EOF'
bcm4331 bcm4331-dma-test /bcm43xx/bcm4331/dma/tx-rx
bcm4331 bcm4331-dma-test /bcm43xx/bcm4331/dma/bad-descriptors
bcm4331 bcm4331-robust-test /bcm43xx/bcm4331/robust/tx-short-frames
bcm4331 qos-test /pc/i440FX-pcihost/pci-bus-pc/pci-bus/bcm4331/bcm43xx/bcm43xx-tests/mac/irq
bcm4331 qos-test /pc/i440FX-pcihost/pci-bus-pc/pci-bus/bcm4331/bcm43xx/bcm43xx-tests/mac/tsf
bcm4331 bcm4331-mac-test /bcm43xx/bcm4331/phy/radio
bcm4331 qos-test /pc/i440FX-pcihost/pci-bus-pc/pci-bus/bcm4331/bcm43xx/bcm43xx-tests/bcma/windows
bcm43224-ap bcm43224-test /bcm43xx/bcm43224/pci/identity
bcm43224-ap bcm43224-test /bcm43xx/bcm43224/phy/radio
bcm43224-ap qos-test /pc/i440FX-pcihost/pci-bus-pc/pci-bus/bcm43224/bcm43xx/bcm43xx-tests/dma/align
bcm43224-ap bcm43224-test /bcm43xx/bcm43224/fw/brcmsmac
bcm43224-ap qos-test /pc/i440FX-pcihost/pci-bus-pc/pci-bus/bcm43224/bcm43xx/bcm43xx-tests/mac/template
bcm4331-ap bcm4331-ap-test /bcm43xx/bcm4331/air/hostile-to-ap
bcm4331-ap bcm4331-robust-test /bcm43xx/bcm4331/robust/ap-auth-flood --split --max-seeds 3 --subst 02aa00000003=02aa00000001
bcm4331-ap bcm4331-robust-test /bcm43xx/bcm4331/robust/ap-inactivity --subst 02aa00000003=02aa00000001
bcm4331-airtime-wpa2 bcm4331-ap-test /bcm43xx/bcm4331/air/hostile-eapol --split --max-seeds 3
bcm4331-airtime-wpa2 bcm4331-air-test /bcm43xx/bcm4331/air/airtime
bcm4331-dma32 bcm4331-dma-test /bcm43xx/bcm4331/dma/dma32
bcm4331-pair bcm4331-dma-test /bcm43xx/bcm4331/dma/tx-rx
bcm4331-pair bcm4331-crypto-test /bcm43xx/bcm4331/crypto/keys --split
bcm4331-pair bcm4331-dma-test /bcm43xx/bcm4331/dma/bad-frames
bcm4331-pair bcm4331-dma-test /bcm43xx/bcm4331/dma/rx-ring-full
bcm4331-pair bcm4331-air-test /bcm43xx/bcm4331/air/ap-beacons --split --max-seeds 3
bcm4331-trio bcm4331-air-test /bcm43xx/bcm4331/xmit/rts-cts --split --max-seeds 3
EOF
}

seed() {
    local qt=$top/build/qemu-fuzz/tests/qtest cfg bin path opts seeds cfgs
    need_fuzzer "$fuzzer"
    seeds=$work/seeds
    cfgs=" ${configs[*]} "
    for cfg in "${configs[@]}"; do
        rm -rf "${seeds:?}/$cfg"
    done
    mkdir -p "$seeds"
    while read -r cfg bin path opts; do
        case $cfgs in *" $cfg "*) ;; *) continue ;; esac
        if [ ! -x "$qt/$bin" ]; then
            echo "seed $cfg: $qt/$bin not built (scripts/build-qemu.sh --fuzz --qtests): $path skipped" >&2
            continue
        fi
        echo "seed $cfg: $bin $path"
        # shellcheck disable=SC2086
        QTEST_QEMU_BINARY=$top/build/qemu-fuzz/qemu-system-x86_64 \
        ASAN_OPTIONS=detect_leaks=0 \
        /usr/bin/python3 "$top/scripts/qtest-to-fuzz.py" --fuzzer "$fuzzer" \
            --config "$cfg" --run-qtest "$qt/$bin:/x86_64$path" \
            --name "$(basename "$path")" --out "$seeds/$cfg" --verify $opts
    done < <(seed_table)
    for cfg in bcm4331-peer bcm4331-peer-wpa2; do
        case $cfgs in *" $cfg "*) ;; *) continue ;; esac
        /usr/bin/python3 "$top/scripts/peer-fuzz-seeds.py" "$seeds/$cfg"
    done
    for cfg in wifi-scenario wifi-qmp; do
        case $cfgs in *" $cfg "*) ;; *) continue ;; esac
        /usr/bin/python3 "$top/scripts/air-fuzz-seeds.py" "$cfg" "$seeds/$cfg"
    done
    for cfg in "${configs[@]}"; do
        [ -d "$seeds/$cfg" ] || continue
        merge_into "$cfg" "$seeds/$cfg"
        echo "seed $cfg: corpus $(find "$corpus/$cfg" -maxdepth 1 -type f | wc -l) inputs," \
             "$(cat "$corpus/$cfg"/* | wc -c) bytes"
    done
}

mkdir -p "$work" "$artifacts"
case $mode in
replay)
    need_fuzzer "$fuzzer"
    replay "$fuzzer" ;;
coverage)
    coverage ;;
seed)
    seed ;;
merge)
    need_fuzzer "$fuzzer"
    for cfg in "${configs[@]}"; do
        [ -n "$(ls -A "$corpus/$cfg" 2>/dev/null)" ] || continue
        merge_into "$cfg"
        echo "merge $cfg: $(find "$corpus/$cfg" -maxdepth 1 -type f | wc -l) inputs," \
             "$(cat "$corpus/$cfg"/* | wc -c) bytes"
    done ;;
fuzz)
    need_fuzzer "$fuzzer"
    case $secs in ''|*[!0-9]*) echo "fuzz.sh: --time needs seconds" >&2; exit 2 ;; esac
    : >"$work/summary"
    for cfg in "${configs[@]}"; do
        if ! has_target "$fuzzer" "$(target "$cfg")"; then
            echo "fuzz $cfg: target not built, skipped"
            continue
        fi
        fuzz_one "$cfg"
    done
    awk '{ c += $6 } END { exit c > 0 }' "$work/summary" ;;
esac
