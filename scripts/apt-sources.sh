#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Add the apt entries this project needs (bookworm-backports binaries,
# trixie sources for the qemu source package; with the argument "sid", sid
# sources for the newest QEMU Debian has, scripts/build-qemu.sh --qemu sid)
# using the mirror URI the machine's apt is already configured with.  No
# host name is written here: the URI is read from /etc/apt/sources.list{,.d/*}.
#
#   scripts/apt-sources.sh          bookworm-backports, trixie (deb-src)
#   scripts/apt-sources.sh sid      and sid (deb-src)
#
# sid is a file of its own, added only when asked for: the main job does not
# depend on sid's index (an index apt refuses, such as a stale mirror's
# expired Release file, would stop it), and a checkout whose script predates
# it rewrites the first file to what it knows and leaves the second alone.
set -euo pipefail
case ${1:-} in
""|sid) ;;
*) echo "usage: apt-sources.sh [sid]" >&2; exit 2 ;;
esac

out=/etc/apt/sources.list.d/bcm4331-qemu.sources
out_sid=/etc/apt/sources.list.d/bcm4331-qemu-sid.sources

# Print the first URI serving the 'bookworm' suite of Debian (deb822 or
# one-line format).
find_uri() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] || continue
        [ "$f" = "$out" ] || [ "$f" = "$out_sid" ] && continue
        awk '
            BEGIN { RS=""; FS="\n" }
            {
                uri=""; suites=""; types=""
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^URIs:/)   { sub(/^URIs:[ \t]*/, "", $i); uri=$i }
                    if ($i ~ /^Suites:/) { sub(/^Suites:[ \t]*/, "", $i); suites=" " $i " " }
                    if ($i ~ /^Types:/)  { types=$i }
                }
                split(uri, u, " ")
                if (suites ~ / bookworm / && types ~ /deb/) { print u[1]; exit }
            }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -e "$f" ] || continue
        awk '$1 == "deb" {
                 i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                 if ($(i+1) == "bookworm") { print $i; exit }
             }' "$f"
    done
}

uri=$(find_uri | head -n1)
if [ -z "$uri" ]; then
    echo "apt-sources: no Debian bookworm entry found in the apt configuration" >&2
    exit 1
fi

want=$(cat <<EOT
# Written by bcm4331-qemu scripts/apt-sources.sh (mirror taken from this
# machine's own apt configuration).
Types: deb deb-src
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
)

want_sid=$(cat <<EOT
# Written by bcm4331-qemu scripts/apt-sources.sh (mirror taken from this
# machine's own apt configuration): sources only.
Types: deb-src
URIs: $uri
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
)

update=${APT_UPDATE:-}
if [ ! -f "$out" ] || [ "$(cat "$out")" != "$want" ]; then
    echo "apt-sources: adding bookworm-backports and trixie (deb-src) from the configured mirror"
    printf '%s\n' "$want" > "$out"
    update=1
fi
if [ "${1:-}" = sid ] &&
   { [ ! -f "$out_sid" ] || [ "$(cat "$out_sid")" != "$want_sid" ]; }; then
    echo "apt-sources: adding sid (deb-src) from the configured mirror"
    printf '%s\n' "$want_sid" > "$out_sid"
    update=1
fi
if [ -n "$update" ]; then
    apt-get update -qq
fi
