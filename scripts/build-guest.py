#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the test guest (kernel + initramfs) from Debian packages.

    scripts/build-guest.py [--kernel 6.12|6.1] [--out DIR]

Output in build/guest/<kernel>/: vmlinuz, initrd.img, kernel.version.
The guest is an initramfs: busybox, iw, wpa_supplicant/wpa_cli, hostapd/
hostapd_cli, iperf3, tcpdump, lspci with the libraries they need, the real
bcma/b43/brcmsmac/mac80211/cfg80211 modules (and their dependencies) of the
Debian kernel, /lib/firmware/b43 and /lib/firmware/brcm from
build/firmware-stubs/{b43,brcm}, and the /init of
tests/guest/init.  Nothing is rebuilt when no input changed: the inputs
(package versions, init, firmware files, this script) are hashed.
"""

import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOOLS = ["busybox-static", "iw", "wpasupplicant", "hostapd", "iperf3",
         "tcpdump", "pciutils"]
DATA_PKGS = ["pci.ids", "wireless-regdb"]
# guest path -> program name, looked up in the packages' bin/sbin dirs
BINARIES = {
    "bin/busybox": "busybox",
    "sbin/iw": "iw",
    "sbin/wpa_supplicant": "wpa_supplicant",
    "sbin/wpa_cli": "wpa_cli",
    "sbin/hostapd": "hostapd",
    "sbin/hostapd_cli": "hostapd_cli",
    "bin/iperf3": "iperf3",
    "bin/tcpdump": "tcpdump",
    "bin/lspci": "lspci",
}
BINDIRS = ["usr/sbin", "sbin", "usr/bin", "bin"]
# Modules wanted in the guest; their dependencies are added from modules.dep.
MODULES = [
    "bcma", "b43", "brcmsmac", "mac80211", "cfg80211", "rfkill",
    "e1000", "af_packet", "qemu_fw_cfg",
    # mac80211 software crypto (nohwcrypt, WPA2)
    "ccm", "gcm", "ctr", "cmac", "gmac", "aes_generic", "libarc4", "arc4",
    "michael_mic", "crypto_user",
    # the hash of the regulatory database's signature (cfg80211 asks for
    # it by name where the kernel has SHA-256 as a module)
    "sha256_generic", "sha256_ssse3",
]
KERNELS = {
    # name: (package regex, apt target release)
    "6.12": (r"^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$",
             "bookworm-backports"),
    "6.1": (r"^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$", "bookworm"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True,
                          stdout=subprocess.PIPE, **kw).stdout


def newest_kernel(kind):
    regex, _ = KERNELS[kind]
    out = run(["apt-cache", "search", "--names-only", regex])
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    if not names:
        sys.exit("build-guest: no package matches %s" % regex)

    def key(n):
        return [int(x) for x in re.findall(r"\d+", n)]
    return sorted(names, key=key)[-1]


def closure(pkgs):
    """Packages and their Depends/Pre-Depends, keeping libraries only."""
    out = run(["apt-cache", "depends", "--recurse", "--no-recommends",
               "--no-suggests", "--no-conflicts", "--no-breaks",
               "--no-replaces", "--no-enhances"] + pkgs)
    names = set()
    for line in out.splitlines():
        if line.startswith(" ") or line.startswith("<"):
            continue
        names.add(line.strip())
    keep = set(pkgs) | set(DATA_PKGS)
    keep |= {n for n in names if (n.startswith("lib") or n == "zlib1g") and
             not n.endswith("-perl") and "perl" not in n}
    return sorted(keep)


def versions(pkgs):
    out = run(["apt-cache", "policy"] + pkgs)
    ver = {}
    cur = None
    for line in out.splitlines():
        if not line.startswith(" "):
            cur = line.rstrip(":")
        elif line.strip().startswith("Candidate:") and cur:
            ver[cur] = line.split()[1]
    return ver


def cached_debs(dest, pkg):
    """The .deb files of @pkg ("name", or "name=version": that version) in
    the directory @dest, oldest version first."""
    name, _, ver = pkg.partition("=")
    return sorted(glob.glob(os.path.join(dest, "%s_%s_*.deb" % (
        name, ver.replace(":", "%3a") if ver else "*"))))


def download(pkgs, dest, release=None):
    """Download what of @pkgs (names, or name=version) @dest does not have;
    returns the .deb of each."""
    os.makedirs(dest, exist_ok=True)
    missing = [p for p in pkgs if not cached_debs(dest, p)]
    if missing:
        # root downloads into a root-owned cache: no _apt sandbox
        cmd = ["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root"]
        if release:
            cmd += ["-t", release]
        subprocess.run(cmd + missing, check=True, cwd=dest,
                       stdout=subprocess.DEVNULL)
    return [cached_debs(dest, p)[-1] for p in pkgs]


def extract(debs, root):
    os.makedirs(root, exist_ok=True)
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)


def needed(path):
    out = run(["readelf", "-d", path])
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)


LIBDIRS = ["lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib64",
           "usr/lib", "lib"]


def find_lib(sysroot, name):
    for d in LIBDIRS:
        p = os.path.join(sysroot, d, name)
        if os.path.exists(p):
            return p
    return None


def copy_with_libs(sysroot, initrd, binaries):
    todo = []
    for dst, prog in binaries.items():
        cands = [os.path.join(sysroot, d, prog) for d in BINDIRS]
        found = [c for c in cands if os.path.exists(c)]
        if not found:
            sys.exit("build-guest: %s not found in the packages" % prog)
        s = found[0]
        d = os.path.join(initrd, dst)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d)
        todo.append(s)
    seen = set()
    while todo:
        f = todo.pop()
        if run(["file", "-bL", f]).find("dynamically linked") < 0 and \
                not f.endswith(".so") and ".so." not in f:
            continue
        for lib in needed(f):
            if lib in seen:
                continue
            seen.add(lib)
            p = find_lib(sysroot, lib)
            if not p:
                sys.exit("build-guest: library %s (for %s) not found" %
                         (lib, f))
            real = os.path.realpath(p)
            d = os.path.join(initrd, "lib/x86_64-linux-gnu", lib)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy2(real, d)
            todo.append(real)
    # OpenSSL 3 keeps RC4 (WPA1/TKIP key data) in its legacy provider, a
    # module dlopen()ed from MODULESDIR: wpa_supplicant/hostapd need it
    ossl = "usr/lib/x86_64-linux-gnu/ossl-modules/legacy.so"
    if os.path.exists(os.path.join(sysroot, ossl)):
        os.makedirs(os.path.dirname(os.path.join(initrd, ossl)),
                    exist_ok=True)
        shutil.copy2(os.path.realpath(os.path.join(sysroot, ossl)),
                     os.path.join(initrd, ossl))
    # the dynamic loader at its ABI path
    os.makedirs(os.path.join(initrd, "lib64"), exist_ok=True)
    ld = os.path.realpath(find_lib(sysroot, "ld-linux-x86-64.so.2"))
    shutil.copy2(ld, os.path.join(initrd, "lib64/ld-linux-x86-64.so.2"))


def module_closure(moddir, wanted):
    deps = {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            path, _, rest = line.partition(":")
            deps[path] = rest.split()
    byname = {}
    for path in deps:
        base = os.path.basename(path)
        name = re.sub(r"\.ko(\.(xz|zst|gz))?$", "", base).replace("-", "_")
        byname[name] = path
    out = set()
    todo = [byname[m] for m in wanted if m in byname]
    while todo:
        p = todo.pop()
        if p in out:
            continue
        out.add(p)
        todo.extend(deps.get(p, []))
    return sorted(out)


def decompress_module(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if src.endswith(".xz"):
        with open(dst, "wb") as o:
            subprocess.run(["xz", "-dc", src], check=True, stdout=o)
    elif src.endswith(".zst"):
        with open(dst, "wb") as o:
            subprocess.run(["zstd", "-qdc", src], check=True, stdout=o)
    else:
        shutil.copy2(src, dst)


def pack(root, out):
    """Append the tree @root as a gzipped newc cpio archive (an initramfs)
    to the open file @out (an initramfs may be several such archives one
    after the other: the kernel unpacks them in order)."""
    find = subprocess.Popen(["find", ".", "-print0"], cwd=root,
                            stdout=subprocess.PIPE)
    cpio = subprocess.Popen(["cpio", "--quiet", "-o", "-H", "newc", "-0",
                             "-R", "0:0"], cwd=root, stdin=find.stdout,
                            stdout=subprocess.PIPE)
    subprocess.run(["gzip", "-1"], stdin=cpio.stdout, stdout=out, check=True)
    if find.wait() or cpio.wait():
        sys.exit("build-guest: cpio failed")


def kernel_files(root):
    """(vmlinuz, modules directory lib/modules/VERSION, VERSION) under
    @root, a tree with boot/ and lib/modules/ (or usr/lib/modules/: the
    merged /usr of newer packages); None where one is missing."""
    vmlinuz = sorted(glob.glob(os.path.join(root, "boot", "vmlinuz-*")))
    mods = [d for d in sorted(glob.glob(os.path.join(root, "lib/modules/*")) +
                              glob.glob(os.path.join(root,
                                                     "usr/lib/modules/*")))
            if os.path.isdir(os.path.join(d, "kernel"))]
    if len(mods) > 1:
        sys.exit("build-guest: more than one kernel's modules in %s: %s" %
                 (root, ", ".join(os.path.basename(m) for m in mods)))
    mod = mods[0] if mods else None
    kver = os.path.basename(mod) if mod else None
    img = None
    if kver and os.path.exists(os.path.join(root, "boot", "vmlinuz-" + kver)):
        img = os.path.join(root, "boot", "vmlinuz-" + kver)
    elif len(vmlinuz) == 1:
        img = vmlinuz[0]
    return img, mod, kver


def modules_dir(path):
    """The lib/modules/VERSION directory that @path names: that directory
    itself, or the root that `make modules_install INSTALL_MOD_PATH=`
    filled."""
    path = os.path.abspath(path)
    if os.path.isdir(os.path.join(path, "kernel")):
        return path
    _, mod, _ = kernel_files(path)
    if not mod:
        sys.exit("build-guest: %s is neither lib/modules/VERSION nor a "
                 "tree holding one" % path)
    return mod


def module_release(moddir):
    """The kernel release @moddir's modules were built for: their
    directory's name, checked against a module's vermagic"""
    kver = os.path.basename(os.path.normpath(moddir))
    if not re.match(r"^\d+\.\d+", kver):
        sys.exit("build-guest: %s does not look like lib/modules/VERSION" %
                 moddir)
    return kver


def hash_files(h, paths):
    for f in paths:
        h.update(f.encode())
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)


def fw_dirs():
    fwdirs = {d: os.path.join(TOP, "build", "firmware-stubs", d)
              for d in ("b43", "brcm")}
    for d in fwdirs.values():
        # a guest without them probes the card and stops at its firmware
        if not glob.glob(os.path.join(d, "*.fw")):
            sys.exit("build-guest: no firmware stubs in %s: run "
                     "firmware-stubs/gen-stubs.py first" % d)
    return fwdirs


def own_inputs(fwdirs):
    """this script, the guest's /init and tools, the firmware stubs"""
    return [os.path.abspath(__file__), os.path.join(TOP, "tests/guest/init"),
            os.path.join(TOP, "tests/guest/udhcpc.script"),
            os.path.join(TOP, "tests/guest/wait-for"),
            os.path.join(TOP, "tests/guest/pings")] + \
        sorted(f for d in sorted(fwdirs) for f in
               glob.glob(os.path.join(fwdirs[d], "*.fw")))


def user_space(cache, pkgs, vers, sysroot, initrd):
    """the guest's user space from the Debian packages @pkgs into the
    tree @initrd (@sysroot: where they are extracted)"""
    debs = []
    for p in pkgs:
        cand = sorted(glob.glob(os.path.join(cache, p + "_*.deb")))
        want = [c for c in cand if
                os.path.basename(c).split("_")[1].replace("%3a", ":") ==
                vers[p]]
        debs.append((want or cand)[-1])
    extract(debs, sysroot)
    for d in ["bin", "sbin", "etc", "proc", "sys", "dev", "tmp", "run",
              "root", "var/run", "usr/share/misc", "usr/share/udhcpc"]:
        os.makedirs(os.path.join(initrd, d), exist_ok=True)
    copy_with_libs(sysroot, initrd, BINARIES)
    shutil.copy2(os.path.join(sysroot, "usr/share/misc/pci.ids"),
                 os.path.join(initrd, "usr/share/misc/pci.ids"))
    # cfg80211's regulatory database: the Debian-signed variant, which
    # Debian's update-alternatives would select
    os.makedirs(os.path.join(initrd, "lib/firmware"), exist_ok=True)
    for f in ("regulatory.db", "regulatory.db.p7s"):
        shutil.copy2(os.path.join(sysroot, "lib/firmware", f + "-debian"),
                     os.path.join(initrd, "lib/firmware", f))
    shutil.copy2(os.path.join(TOP, "tests/guest/init"),
                 os.path.join(initrd, "init"))
    for tool in ("wait-for", "pings"):
        shutil.copy2(os.path.join(TOP, "tests/guest", tool),
                     os.path.join(initrd, "bin", tool))
        os.chmod(os.path.join(initrd, "bin", tool), 0o755)
    # udhcpc's event script where Debian's busybox looks for it
    for d in ("etc/udhcpc", "usr/share/udhcpc"):
        os.makedirs(os.path.join(initrd, d), exist_ok=True)
        shutil.copy2(os.path.join(TOP, "tests/guest/udhcpc.script"),
                     os.path.join(initrd, d, "default.script"))
        os.chmod(os.path.join(initrd, d, "default.script"), 0o755)
    os.chmod(os.path.join(initrd, "init"), 0o755)
    os.symlink("/bin/busybox", os.path.join(initrd, "bin/sh"))
    # the kernel's request_module() runs /sbin/modprobe: mac80211 loads
    # ccm/gcm/cmac that way when a WPA2 key is installed
    os.symlink("/bin/busybox", os.path.join(initrd, "sbin/modprobe"))
    with open(os.path.join(initrd, "etc/passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\n"
                "tcpdump:x:104:109::/nonexistent:/bin/false\n")
    with open(os.path.join(initrd, "etc/group"), "w") as f:
        f.write("root:x:0:\ntcpdump:x:109:\n")
    with open(os.path.join(initrd, "etc/nsswitch.conf"), "w") as f:
        f.write("passwd: files\ngroup: files\nhosts: files dns\n")
    with open(os.path.join(initrd, "etc/hosts"), "w") as f:
        f.write("127.0.0.1 localhost\n")


def indexed_modules(kmod, kver, work):
    """@kmod (lib/modules/@kver) with a modules.dep: itself, or a copy
    indexed by depmod (a tree without one: depmod never writes into the
    caller's)"""
    if os.path.exists(os.path.join(kmod, "modules.dep")):
        return kmod
    root = os.path.join(work, "kmods")
    dst = os.path.join(root, "lib/modules", kver)
    shutil.copytree(kmod, dst, symlinks=False,
                    ignore=shutil.ignore_patterns("build", "source"))
    subprocess.run(["/sbin/depmod", "-b", root, kver], check=True)
    return dst


def install_modules(kmod, kver, initrd, fwdirs):
    """the wanted modules of @kmod and their dependencies, decompressed,
    into @initrd with their index; the firmware stubs; returns the
    modules' paths relative to @kmod"""
    imod = os.path.join(initrd, "lib/modules", kver)
    mods = module_closure(kmod, MODULES)
    for m in mods:
        dst = re.sub(r"\.(xz|zst|gz)$", "", m)
        decompress_module(os.path.join(kmod, m), os.path.join(imod, dst))
    for f in ["modules.builtin", "modules.builtin.modinfo", "modules.order"]:
        if os.path.exists(os.path.join(kmod, f)):
            shutil.copy2(os.path.join(kmod, f), os.path.join(imod, f))
    os.makedirs(imod, exist_ok=True)
    subprocess.run(["/sbin/depmod", "-b", initrd, kver], check=True)
    for d, src in fwdirs.items():
        fwdst = os.path.join(initrd, "lib/firmware", d)
        os.makedirs(fwdst, exist_ok=True)
        for f in glob.glob(os.path.join(src, "*.fw")):
            shutil.copy2(f, fwdst)
    return mods


def finish(out, work, initrd, vmlinuz, label, kver, mods, stamp, digest):
    print("build-guest: [3/3] the initrd", flush=True)
    os.makedirs(out, exist_ok=True)
    shutil.copy2(vmlinuz, os.path.join(out, "vmlinuz"))
    tmp = os.path.join(out, "initrd.img.tmp")
    with open(tmp, "wb") as o:
        pack(initrd, o)
    os.replace(tmp, os.path.join(out, "initrd.img"))
    with open(os.path.join(out, "kernel.version"), "w") as f:
        f.write("%s %s\n" % (label, kver))
    with open(os.path.join(out, "modules.txt"), "w") as f:
        f.write("\n".join(mods) + "\n")
    shutil.rmtree(work)
    with open(stamp, "w") as f:
        f.write(digest + "\n")
    size = os.path.getsize(os.path.join(out, "initrd.img")) // 1024
    print("build-guest: %s: kernel %s, initrd %d KiB, %d modules" %
          (out, kver, size, len(mods)))


def build_custom(vmlinuz, kmod, out, label, force=False):
    """The guest of a kernel the user brings (bzImage and its modules
    directory lib/modules/VERSION): user space as for Debian's kernels,
    the kernel's own modules.  Returns @out."""
    kver = module_release(kmod)
    if not os.path.isfile(vmlinuz):
        sys.exit("build-guest: no kernel image %s" % vmlinuz)
    cache = os.path.join(TOP, "build", "guest", "debs")
    pkgs = closure(TOOLS)
    vers = versions(pkgs)
    fwdirs = fw_dirs()
    work = os.path.join(out, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    kmod = indexed_modules(kmod, kver, work)
    mods = module_closure(kmod, MODULES)
    h = hashlib.sha256()
    for p in sorted(vers):
        h.update(("%s=%s\n" % (p, vers[p])).encode())
    h.update(("%s %s\n" % (label, kver)).encode())
    hash_files(h, own_inputs(fwdirs) + [vmlinuz] +
               [os.path.join(kmod, m) for m in mods] +
               [f for f in (os.path.join(kmod, "modules.builtin"),)
                if os.path.exists(f)])
    digest = h.hexdigest()
    stamp = os.path.join(out, "inputs.sha256")
    if not force and os.path.exists(stamp) and \
            open(stamp).read().strip() == digest and \
            os.path.exists(os.path.join(out, "initrd.img")):
        shutil.rmtree(work)
        print("build-guest: guest of %s (%s) up to date" % (label, kver))
        return out
    print("build-guest: building the guest of %s (%s)" % (label, kver),
          flush=True)
    print("build-guest: [1/3] Debian packages (%d, cached in %s)" %
          (len(pkgs), cache), flush=True)
    download(pkgs, cache)
    print("build-guest: [2/3] user space and the kernel's modules",
          flush=True)
    initrd = os.path.join(work, "initrd")
    user_space(cache, pkgs, vers, os.path.join(work, "sysroot"), initrd)
    mods = install_modules(kmod, kver, initrd, fwdirs)
    finish(out, work, initrd, vmlinuz, label, kver, mods, stamp, digest)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", default="6.12", choices=sorted(KERNELS))
    ap.add_argument("--vmlinuz", help="a kernel of your own (bzImage); "
                    "with --modules and --out")
    ap.add_argument("--modules", help="its modules: lib/modules/VERSION, or "
                    "the INSTALL_MOD_PATH of `make modules_install`")
    ap.add_argument("--out", default=None)
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()

    if args.vmlinuz or args.modules:
        if not (args.vmlinuz and args.modules and args.out):
            ap.error("--vmlinuz, --modules and --out go together")
        build_custom(os.path.abspath(args.vmlinuz),
                     modules_dir(args.modules), os.path.abspath(args.out),
                     os.path.basename(args.vmlinuz), args.force)
        return

    out = args.out or os.path.join(TOP, "build", "guest", args.kernel)
    cache = os.path.join(TOP, "build", "guest", "debs")
    kpkg = newest_kernel(args.kernel)
    pkgs = closure(TOOLS)
    vers = versions(pkgs + [kpkg])
    fwdirs = fw_dirs()
    h = hashlib.sha256()
    for p in sorted(vers):
        h.update(("%s=%s\n" % (p, vers[p])).encode())
    hash_files(h, own_inputs(fwdirs))
    digest = h.hexdigest()
    stamp = os.path.join(out, "inputs.sha256")
    if not args.force and os.path.exists(stamp) and \
            open(stamp).read().strip() == digest and \
            os.path.exists(os.path.join(out, "initrd.img")):
        print("build-guest: %s guest up to date (%s)" % (args.kernel, kpkg))
        return

    print("build-guest: building the %s guest (%s), about a minute" %
          (args.kernel, kpkg), flush=True)
    print("build-guest: [1/3] Debian packages (%d, cached in %s)" %
          (len(pkgs) + 1, cache), flush=True)
    download(pkgs, cache)
    download([kpkg], os.path.join(cache, "kernel"), KERNELS[args.kernel][1])
    print("build-guest: [2/3] user space and the kernel's modules",
          flush=True)

    work = os.path.join(out, "work")
    shutil.rmtree(work, ignore_errors=True)
    kroot = os.path.join(work, "kernel")
    initrd = os.path.join(work, "initrd")
    user_space(cache, pkgs, vers, os.path.join(work, "sysroot"), initrd)
    kdeb = sorted(glob.glob(os.path.join(cache, "kernel", kpkg + "_*.deb")))[-1]
    extract([kdeb], kroot)
    vmlinuz, kmod, kver = kernel_files(kroot)
    # the package ships no modules.dep (its postinst runs depmod)
    subprocess.run(["/sbin/depmod", "-b", kroot, kver], check=True)
    mods = install_modules(kmod, kver, initrd, fwdirs)
    finish(out, work, initrd, vmlinuz, "%s %s" % (kpkg, vers.get(kpkg, "?")),
           kver, mods, stamp, digest)


if __name__ == "__main__":
    main()
