#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# QEMU's scripts/checkpatch.pl on every C source and header of the project
# (hw/, net/, include/, tests/qtest/, tests/unit/), as files (-f): 0 errors
# and 0 warnings, or the check fails and prints what checkpatch said.
# QEMU's source comes from scripts/build-qemu.sh's tree (build/qemu-src).
#
#   scripts/check-style.sh [FILE...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cp=$top/build/qemu-src/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "check-style: no $cp (run scripts/build-qemu.sh)" >&2; exit 2; }
cd "$top"
if [ $# -eq 0 ]; then
    mapfile -t files < <(git ls-files 'hw/*.[ch]' 'net/*.[ch]' 'include/*.h' \
                                      'tests/qtest/*.[ch]' 'tests/unit/*.[ch]')
else
    files=("$@")
fi
bad=0 errors=0 warnings=0
for f in "${files[@]}"; do
    out=$(perl "$cp" --no-tree -f "$f" 2>&1 || true)
    total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings' <<<"$out" || true)
    if [[ $total =~ ^total:\ ([0-9]+)\ errors,\ ([0-9]+)\ warnings ]]; then
        errors=$((errors + BASH_REMATCH[1]))
        warnings=$((warnings + BASH_REMATCH[2]))
        [ "${BASH_REMATCH[1]}${BASH_REMATCH[2]}" = 00 ] && continue
    fi
    bad=$((bad + 1))
    echo "== $f"
    grep -E '^(ERROR|WARNING)|^#|^\+' <<<"$out" || echo "$out"
done
echo "check-style: ${#files[@]} files, $errors errors, $warnings warnings"
[ $bad -eq 0 ]
