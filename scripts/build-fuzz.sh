#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build QEMU's libFuzzer binary with the bcm4331 device overlaid: the same
# Debian QEMU tree and overlay as scripts/build-qemu.sh (its --fuzz and
# --fuzz-cov variants do the work), clang-14.
#
#   scripts/build-fuzz.sh              -> build/qemu-fuzz/qemu-fuzz-x86_64
#                                         (--enable-fuzzing, ASan + UBSan)
#   scripts/build-fuzz.sh --coverage   -> build/qemu-fuzz-cov/qemu-fuzz-x86_64
#                                         (clang source coverage, no sanitizers)
#
# Targets: generic-fuzz-bcm4331* (tests/qtest/fuzz/bcm4331_fuzz_configs.h)
# and bcm4331-peer (tests/qtest/fuzz/bcm4331_fuzz.c); scripts/fuzz.sh runs
# them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
"")         exec "$here/build-qemu.sh" --fuzz ;;
--coverage) exec "$here/build-qemu.sh" --fuzz-cov ;;
*)          echo "usage: build-fuzz.sh [--coverage]" >&2; exit 2 ;;
esac
