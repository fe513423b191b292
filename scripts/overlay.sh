#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Overlay the project's QEMU-relative files onto a QEMU source tree:
# every file under hw/, net/, include/, qapi/, configs/ and tests/qtest/
# becomes a symlink at the same path in the tree (edits rebuild
# incrementally), and the one-line hooks
# that make QEMU's build see them are added.  Idempotent.
#
#   overlay.sh QEMU_SRC_DIR                     all of it, as symlinks
#   overlay.sh --copy --parts P,... QEMU_SRC_DIR
#       copies of the files of parts P (qemu-fix, wifi, bcm4331, qtest,
#       fuzz, docs, devices)
#       and their hooks only: one patch of scripts/patches.sh each
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
copy=
parts=qemu-fix,wifi,bcm4331,qtest,fuzz,devices
while [ $# -gt 1 ]; do
    case $1 in
    --copy) copy=1 ;;
    --parts) parts=$2; shift ;;
    *) echo "usage: overlay.sh [--copy] [--parts P,...] QEMU_SRC_DIR" >&2; exit 2 ;;
    esac
    shift
done
q=${1:?usage: overlay.sh [--copy] [--parts P,...] QEMU_SRC_DIR}
# "wifi" is its three parts: the 802.11 library, the medium, the AP
has() {
    [[ ",$parts," == *",$1,"* ]] ||
        { [[ $1 == wifi-* ]] && [[ ",$parts," == *",wifi,"* ]]; }
}

# the project's files of each part
part_of() {
    case $1 in
    # the Kconfig symbol WIFI_MEDIUM sits with the devices, as CAN_BUS does
    hw/net/wifi/Kconfig) echo wifi-lib ;;
    hw/net/wifi/*) echo wifi-ap ;;
    net/wifi/medium*|net/wifi/pcap.c|include/net/wifi/medium.h|qapi/wifi.json)
        echo wifi-medium ;;
    net/wifi/*|include/net/wifi/*) echo wifi-lib ;;
    hw/net/bcm43xx/*) echo bcm4331 ;;
    tests/qtest/fuzz/*) echo fuzz ;;
    tests/qtest/*) echo qtest ;;
    docs/system/*) echo docs ;;
    # our builds' device selection (build-qemu.sh), not part of the series
    configs/devices/*) echo devices ;;
    esac
}

cd "$top"
while IFS= read -r f; do
    has "$(part_of "$f")" || continue
    dst=$q/$f
    mkdir -p "$(dirname "$dst")"
    if [ -e "$dst" ] && [ ! -L "$dst" ] && [ -z "$copy" ]; then
        echo "overlay: refusing to replace QEMU's own file $f" >&2
        exit 1
    fi
    if [ -n "$copy" ]; then
        rm -f "$dst"
        cp "$top/$f" "$dst"
    else
        ln -sfn "$top/$f" "$dst"
    fi
done < <(find hw net include tests/qtest docs/system qapi configs -type f 2>/dev/null | sort)

# drop symlinks whose project file was removed
if [ -z "$copy" ]; then
    find "$q/hw" "$q/net" "$q/include" "$q/tests/qtest" "$q/qapi" "$q/configs" -type l 2>/dev/null | while IFS= read -r l; do
        case $(readlink "$l") in
        "$top"/*) [ -e "$l" ] || rm -f "$l" ;;
        esac
    done
fi

# hook LINE after the first line matching ANCHOR in FILE, once
hook() {
    local file=$q/$1 anchor=$2 line=$3
    grep -qxF "$line" "$file" && return 0
    grep -qE "$anchor" "$file" || { echo "overlay: hook anchor '$anchor' not in $1" >&2; exit 1; }
    awk -v a="$anchor" -v l="$line" '{ print } !done && $0 ~ a { print l; done = 1 }' \
        "$file" > "$file.tmp" && mv "$file.tmp" "$file"
}
kconfig() {
    grep -qxF "source $1/Kconfig" "$q/hw/net/Kconfig" ||
        printf '\nsource %s/Kconfig\n' "$1" >> "$q/hw/net/Kconfig"
}

# lines of older versions of the hooks (hw/net/bcm4331 before the move)
unhook() {
    local file=$q/$1 line=$2
    [ -f "$file" ] && grep -qxF "$line" "$file" || return 0
    grep -vxF "$line" "$file" > "$file.tmp" && mv "$file.tmp" "$file"
}
unhook hw/net/meson.build "subdir('bcm4331')"
unhook hw/net/Kconfig "source bcm4331/Kconfig"
unhook meson.build "    'hw/net/bcm4331',"
# ... and libqos/bcm4331.c before it became libqos/bcm43xx.c
unhook tests/qtest/libqos/meson.build "        'bcm4331.c',"

if has qemu-fix; then
    # net/stream.c: a server's link is down until a client connects.  Its
    # listen completes asynchronously (and never, if it fails); a NIC that
    # sent meanwhile made net_stream_receive() write to a NULL channel (the
    # wifi-ap's first beacon did).  The trailing comment keeps the line
    # unique: hook skips a line that is already in the file.
    # The line goes before net_stream_server_init()'s "return 0;", after
    # its listen call: lines that QEMU 10.0 and 10.2 share (10.2 moved the
    # state into NetStreamData, "s" became "d"), so that one patch applies
    # to both (scripts/patches.sh makes it with two lines of context).
    unhook net/stream.c '    s->nc.link_down = true;     /* no client yet: nothing to write to */'
    line='    nc->link_down = true;       /* no client yet: nothing to write to */'
    if ! grep -qxF "$line" "$q/net/stream.c"; then
        awk -v l="$line" '
            /^                                    net_stream_server_listening, [sd],$/ { st = 1 }
            st == 1 && /^                                    NULL, NULL[)];$/ { st = 2; print; next }
            st == 2 && /^$/ { st = 3; print; next }
            st == 3 && /^    return 0;$/ { print l; st = 4 }
            st == 2 || st == 3 { st = 0 }
            { print }
            END { if (st != 4) exit 1 }' "$q/net/stream.c" > "$q/net/stream.c.tmp" ||
            { echo "overlay: no net_stream_server_init() listen call in net/stream.c" >&2; exit 1; }
        mv "$q/net/stream.c.tmp" "$q/net/stream.c"
    fi
fi
# Where a hook goes: a line whose three lines either side are the same in
# QEMU 10.0 and 10.2 where it can, so that one patch series applies to both
# (scripts/patches.sh); the trace-events list, qapi/meson.build and the
# devices' toctree differ near the obvious places, so our lines go at the
# end of the trace-events list, after the system-only QAPI modules, and
# in a toctree of their own.
if has wifi-lib; then
    # the medium and its libraries are a backend, as net/can is
    hook net/meson.build "^subdir[(]'can'[)]$" "subdir('wifi')"
    kconfig wifi
    hook meson.build "^    'hw/remote',$" "    'net/wifi',"
fi
if has wifi-ap; then
    hook hw/net/meson.build "^subdir[(]'can'[)]" "subdir('wifi')"
    hook meson.build "^    'hw/net/can',$" "    'hw/net/wifi',"
fi
if has wifi-medium; then
    # wifi-medium has a "netdev" property: create it after the netdevs, like
    # the filter-* objects
    hook system/vl.c '^    if [(]g_str_equal[(]type, "filter-buffer"[)] [|][|]$' \
        '        g_str_equal(type, "wifi-medium") ||'
    # -object wifi-medium: user-creatable types and their properties are in
    # the QAPI schema: the enum entry, the properties struct, the union branch
    hook qapi/qom.json "^    'can-bus',$" "    'wifi-medium',"
    # QMP control of the air (qapi/wifi.json): a schema module of its own
    hook qapi/qapi-schema.json "^[{] 'include': 'uefi.json' [}]$" \
        "{ 'include': 'wifi.json' }"
    unhook qapi/meson.build "    'wifi',"
    line="qapi_all_modules += have_system ? ['wifi'] : []"
    if ! grep -qxF "$line" "$q/qapi/meson.build"; then
        awk -v l="$line" '
            /^    .uefi.,$/ { st = 1 }
            { print }
            st == 1 && /^endif$/ { print l; st = 2 }
            END { if (st != 2) exit 1 }' "$q/qapi/meson.build" > "$q/qapi/meson.build.tmp" ||
            { echo "overlay: no system-only QAPI module list in qapi/meson.build" >&2; exit 1; }
        mv "$q/qapi/meson.build.tmp" "$q/qapi/meson.build"
    fi
    /usr/bin/python3 - "$q/qapi/qom.json" "$top/scripts/qom-wifi-medium.json" <<'PY'
import sys
path, block = sys.argv[1], open(sys.argv[2]).read()
s = open(path).read()
# an older version of our block: take it out, the current one goes in
start = s.find("##\n# @WifiMediumProperties:")
if start >= 0 and block not in s:
    end = s.index("} }\n", start) + 4
    s = s[:start] + s[end:]
if "# @WifiMediumProperties:" not in s:
    anchor = "##\n# @CanHostSocketcanProperties:"
    assert anchor in s, "qom.json: no CanHostSocketcanProperties"
    s = s.replace(anchor, block + anchor, 1)
    branch = "      'can-host-socketcan':         { 'type'"
    assert branch in s, "qom.json: no can-host-socketcan branch"
    if "'wifi-medium':                'WifiMediumProperties'" not in s:
        s = s.replace(branch, "      'wifi-medium':                "
                      "'WifiMediumProperties',\n" + branch, 1)
    open(path, "w").write(s)
PY
fi
if has bcm4331; then
    hook hw/net/meson.build "^subdir[(]'can'[)]" "subdir('bcm43xx')"
    kconfig bcm43xx
    hook meson.build "^    'hw/net/can',$" "    'hw/net/bcm43xx',"
fi
if has fuzz; then
    # generic-fuzz: our configurations go into its predefined_configs[]
    # (the entries are in tests/qtest/fuzz/bcm4331_fuzz_configs.h)
    hook tests/qtest/fuzz/generic_fuzz_configs.h \
        '^const generic_fuzz_config predefined_configs[[][]] = [{]$' \
        '#include "bcm4331_fuzz_configs.h"'
    # ... and our own fuzz target (frames from a peer on the air's netdev)
    hook tests/qtest/fuzz/meson.build "^specific_fuzz_ss.add[(]files[(]'generic_fuzz.c'[)][)]$" \
        "specific_fuzz_ss.add(when: 'CONFIG_BCM4331_PCI', if_true: files('bcm4331_fuzz.c'))"
fi
if has qtest; then
    # the libqos driver steps the qtests and the fuzz targets share
    hook tests/qtest/libqos/meson.build "^        'e1000e.c',$" "        'bcm43xx.c',"
    # the qtest list is the project's tests/qtest/*-test.c: rewrite our
    # lines.  A file that registers with libqos_init() holds qos_add_test()s
    # of the libqos graph and goes into qos-test (as e1000e-test.c does);
    # the others are qtests of their own.
    qt=$(cd "$top/tests/qtest" && grep -L 'libqos_init(' -- *-test.c 2>/dev/null |
         sed "s/\.c$//; s/.*/'&'/" | paste -sd, -)
    qos=$(cd "$top/tests/qtest" && grep -l 'libqos_init(' -- *-test.c 2>/dev/null |
          sed "s/.*/'&'/" | paste -sd, -)
    line="qtests_x86_64 += config_all_devices.has_key('CONFIG_BCM4331_PCI') ? [$qt] : []"
    qline="qos_test_ss.add(files(config_all_devices.has_key('CONFIG_BCM4331_PCI') ? [$qos] : []))"
    if ! grep -qxF "$line" "$q/tests/qtest/meson.build" ||
       ! grep -qxF "$qline" "$q/tests/qtest/meson.build"; then
        sed -i "/CONFIG_BCM4331_PCI/d" "$q/tests/qtest/meson.build"
        hook tests/qtest/meson.build "^qtests_x86_64 = qtests_i386$" "$line"
        hook tests/qtest/meson.build "^qos_test_ss = ss.source_set[(][)]$" "$qline"
    fi
fi
if has docs; then
    # a toctree of its own before the devices' one
    if ! grep -qxF "   devices/bcm4331.rst" "$q/docs/system/device-emulation.rst"; then
        awk '
            !done && /^[.][.] toctree::$/ {
                print; print "   :maxdepth: 1"; print ""; print "   devices/bcm4331.rst"
                print ""; done = 1
            }
            { print }
            END { if (!done) exit 1 }' "$q/docs/system/device-emulation.rst" \
            > "$q/docs/system/device-emulation.rst.tmp" ||
            { echo "overlay: no toctree in docs/system/device-emulation.rst" >&2; exit 1; }
        mv "$q/docs/system/device-emulation.rst.tmp" "$q/docs/system/device-emulation.rst"
    fi
fi
