#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The main job: build what is missing, boot a guest with a bcm4331 card on a
# simulated air with a virtual access point (SSID QEMU) bridged to QEMU's user
# networking; the guest's real drivers scan, associate, get 10.0.2.15 by
# DHCP and ping the host.
#
#   scripts/run.sh              run the demo scenario and power off
#   scripts/run.sh --shell      a shell on the guest's console instead
#   scripts/run.sh --kernel 6.1 the bookworm 6.1 kernel instead of 6.12
#   scripts/run.sh -- ARGS      extra QEMU arguments
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.12
mode=demo
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --shell) mode=shell ;;
    --kernel) kernel=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: $0 [--shell] [--kernel 6.12|6.1] [-- QEMU ARGS]" >&2; exit 2 ;;
    esac
    shift
done

# Each phase's time, and the total at the end (a first run on a fresh
# machine installs and builds; a second one goes straight to the guest).
t0=$SECONDS
step() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    echo "run: $name: $((SECONDS - start)) s"
}
step "dependencies" "$top/scripts/deps.sh"
# the firmware stubs first: the guest image carries them
step "firmware stubs" /usr/bin/python3 "$top/firmware-stubs/gen-stubs.py"
# The guest image (mostly downloads and decompression) is made while QEMU
# compiles; its output follows QEMU's.
mkdir -p "$top/build"
glog=$top/build/run-guest-image.log
gstart=$SECONDS
/usr/bin/python3 "$top/scripts/build-guest.py" --kernel "$kernel" >"$glog" 2>&1 &
gpid=$!
step "QEMU" env BCM_SKIP_DEPS=1 "$top/scripts/build-qemu.sh"
grc=0
wait $gpid || grc=$?
cat "$glog"
[ $grc = 0 ] || { echo "run: the guest image failed (above)" >&2; exit 1; }
echo "run: guest image: $((SECONDS - gstart)) s (beside QEMU's build)"

qargs=(-object wifi-medium,id=air0
       -netdev user,id=n0
       -device wifi-ap,medium=air0,ssid=QEMU,netdev=n0
       -device bcm4331,addr=04.0,id=wifi0,medium=air0 "${extra[@]}")
if [ $mode = shell ]; then
    exec /usr/bin/python3 "$top/tests/guest/harness.py" --kernel "$kernel" \
        --interactive -- "${qargs[@]}"
fi
start=$SECONDS
set +e
/usr/bin/python3 "$top/tests/guest/harness.py" --kernel "$kernel" \
    --name demo --scenario "$top/tests/guest/scenarios/demo.sh" -- "${qargs[@]}"
rc=$?
set -e
echo "run: guest: $((SECONDS - start)) s"
echo "run: total: $((SECONDS - t0)) s"
exit $rc
