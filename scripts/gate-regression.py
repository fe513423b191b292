#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run the kernel gate on a kernel with a known driver regression.

    scripts/gate-regression.py --list
    scripts/gate-regression.py NAME [kernel-gate options, e.g. --case ...]

The kernel is Debian's 6.12 guest kernel with one driver rebuilt from
Debian's source of that very kernel with the regression's patch applied
(out of tree, against Debian's headers, as the bug lab builds b43).  It is
handed to the gate as a developer would hand over their own build:
--kernel BZIMAGE --modules DIR.  The gate's exit status is this script's.

Regressions:
  b43-revert-14a8083e6765
      b43 with Linux commit 14a8083e6765 (2011) reverted: 4 KiB RX rings
      again; behind the IOMMU the RX ring lands on bit 12 and the BCM4331's
      erratum sends b43's RX loop to slot 256 and beyond: b43.dma-erratum
      fails (soft lockup), every other case passes.
  brcmsmac-rx-fcs-inverted
      brcmsmac testing the FCS-error bit of the RX header inverted (a
      planted one-line break): it tosses every intact frame; brcmsmac's
      scan, open, WPA2 and monitor cases fail, probe, rfkill and reload
      pass.
"""

import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "guest"))

BRCM = "drivers/net/wireless/broadcom/brcm80211"
# name -> (patch file, source paths to extract, module dir, module)
REGRESSIONS = {
    "b43-revert-14a8083e6765": (
        "scripts/bug-lab/b43-revert-14a8083e6765.patch",
        ["drivers/net/wireless/broadcom/b43"],
        "drivers/net/wireless/broadcom/b43", "b43"),
    "brcmsmac-rx-fcs-inverted": (
        "scripts/gate-regressions/brcmsmac-rx-fcs-inverted.patch",
        [BRCM], BRCM + "/brcmsmac", "brcmsmac"),
}


def log(msg):
    print("gate-regression: " + msg, file=sys.stderr, flush=True)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if sys.argv[1] == "--list":
        for n in REGRESSIONS:
            print(n)
        return 0
    name, gate_args = sys.argv[1], sys.argv[2:]
    if name not in REGRESSIONS:
        log("unknown regression %s (--list)" % name)
        return 2
    patch, paths, mdir, mod = REGRESSIONS[name]
    os.environ.setdefault("BCM_GUEST_KERNEL", "6.12")
    r = subprocess.run([sys.executable, os.path.join(TOP, "scripts",
                                                     "build-guest.py"),
                        "--kernel", "6.12"], stdout=sys.stderr)
    if r.returncode:
        return 125
    # standard output is the gate's KTAP: everything else goes to stderr
    with contextlib.redirect_stdout(sys.stderr):
        kernel = build(name, patch, paths, mdir, mod)
    if kernel is None:
        return 125
    vmlinuz, modroot = kernel
    cmd = [sys.executable, os.path.join(TOP, "scripts", "kernel-gate.py"),
           "--kernel", vmlinuz, "--modules", modroot] + gate_args
    return subprocess.run(cmd).returncode


def build(name, patch, paths, mdir, mod):
    """Debian's 6.12 kernel with @mod rebuilt with @patch: (vmlinuz,
    modules root), or None"""
    lab = load("buglab", os.path.join(TOP, "tests", "guest", "buglab.py"))
    bg = lab.build_guest()
    ver, kver = lab.guest_kernel()
    work = os.path.join(TOP, "build", "gate", "regress", kver)
    os.makedirs(work, exist_ok=True)

    # the driver, rebuilt with the patch against Debian's headers
    hdr, _ = lab.kernel_tree(ver, kver)
    src = lab.kernel_source(ver, kver, paths + ["Makefile"],
                            os.path.join(work, "src-" + mod))
    tree = os.path.join(work, name, "tree")
    ko = os.path.join(tree, mdir, mod + ".ko")
    stamp = os.path.join(work, name, "built")
    pfile = os.path.join(TOP, patch)
    key = "%s %s\n" % (ver, open(pfile).read())
    if not (os.path.exists(stamp) and open(stamp).read() == key):
        log("building %s for %s with %s" % (mod, kver, patch))
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
        shutil.copytree(src, tree)
        subprocess.run(["patch", "-s", "-p1", "-d", tree, "-i", pfile],
                       check=True)
        subprocess.run(["make", "-s", "-C", hdr, "M=" + os.path.join(
            tree, mdir), "modules", "-j%d" % os.cpu_count()], check=True,
            stdout=sys.stderr)
        with open(stamp, "w") as f:
            f.write(key)

    # Debian's kernel with the rebuilt module in its place
    root = os.path.join(work, "debian-root")
    if not os.path.isdir(os.path.join(root, "boot")):
        kdir = os.path.join(TOP, "build", "guest", "debs", "kernel")
        deb = sorted(f for f in os.listdir(kdir) if f.endswith(".deb") and
                     ver.replace(":", "%3a") in f)
        if not deb:
            log("no Debian kernel package %s in %s" % (ver, kdir))
            return None
        bg.extract([os.path.join(kdir, deb[-1])], root)
    vmlinuz, kmod, _ = bg.kernel_files(root)
    modroot = os.path.join(work, name, "modroot")
    dst = os.path.join(modroot, "lib", "modules", kver)
    shutil.rmtree(modroot, ignore_errors=True)
    os.makedirs(os.path.dirname(dst))
    subprocess.run(["cp", "-al", kmod, dst], check=True)
    old = [f for f in os.listdir(os.path.join(dst, "kernel", mdir))
           if f.split(".ko")[0] == mod and ".ko" in f]
    for f in old:
        os.unlink(os.path.join(dst, "kernel", mdir, f))
    shutil.copy2(ko, os.path.join(dst, "kernel", mdir, mod + ".ko"))
    subprocess.run(["/sbin/depmod", "-b", modroot, kver], check=True)
    log("%s: Debian's %s with %s rebuilt (%s)" % (name, kver, mod, patch))
    return vmlinuz, modroot


if __name__ == "__main__":
    sys.exit(main())
