#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run the tests of QEMU's qos-test (the libqos graph) on our cards' nodes:
# every test path under .../pci-bus/bcm4331/ or .../pci-bus/bcm43224/
# (tests/qtest/bcm43xx-*-test.c register them, libqos/bcm43xx.c the
# nodes).  GLib's -p only selects a suite that holds the test cases
# themselves, so each path is given; GLib then prints a plan after each
# one: one plan, at the end, is what a TAP reader takes.
#
#   scripts/qos-test.sh BUILD/tests/qtest/qos-test [ARGS...]
set -euo pipefail
qos=${1:?usage: qos-test.sh QOS_TEST [ARGS...]}
shift
args=()
while IFS= read -r p; do
    args+=(-p "$p")
done < <("$qos" -l | grep -E '^/.*/pci-bus/(bcm4331|bcm43224)/')
[ ${#args[@]} -gt 0 ] || { echo "qos-test.sh: no bcm43xx tests in $qos" >&2; exit 1; }
set +e
"$qos" --tap -k "$@" "${args[@]}" | awk '
    /^1\.\.[0-9]+$/ { next }
    /^(not )?ok / { n++ }
    { print; fflush() }
    END { print "1.." n }'
rc=${PIPESTATUS[0]}
exit "$rc"
