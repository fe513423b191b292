#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bug lab: historical b43 DMA bugs reproduced on the card with the real
# driver they hit (docs/bug-lab.md).  Installs what is missing, builds QEMU,
# the guest and the pre-fix driver (from Debian's source of the guest's
# kernel, with the fix reverted by a patch in scripts/bug-lab/), then runs
# the catalogue and prints per case what is expected and what was observed.
#
#   scripts/bug-lab.sh                  every entry
#   scripts/bug-lab.sh rx-ring-bit12    one entry
#   scripts/bug-lab.sh --list           the catalogue
#   scripts/bug-lab.sh --repeat 10 rx-ring-bit12
#                                       the failing run 10 times
#   scripts/bug-lab.sh --build          only build the pre-fix driver
#   scripts/bug-lab.sh --kernel 6.1 ... the bookworm 6.1 guest (default 6.12)
#   scripts/bug-lab.sh --record rx-ring-bit12; scripts/bug-lab.sh --replay --gdb
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.12
prev=
for a in "$@"; do
    case $a in
    --list) exec /usr/bin/python3 "$top/tests/guest/buglab.py" --list ;;
    esac
    [ "$prev" = --kernel ] && kernel=$a
    prev=$a
done
"$top/scripts/deps.sh" lab
BCM_SKIP_DEPS=1 "$top/scripts/build-qemu.sh"
/usr/bin/python3 "$top/firmware-stubs/gen-stubs.py"
/usr/bin/python3 "$top/scripts/build-guest.py" --kernel "$kernel"
export BCM_LOG_DIR=${BCM_LOG_DIR:-$top/build/bug-lab/logs}
exec /usr/bin/python3 "$top/tests/guest/buglab.py" "$@"
