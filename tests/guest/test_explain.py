#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/explain.py on a live guest run, probe to DHCP and ping.

Runs the command a student runs (scripts/explain.py --run, text and
HTML), then checks:
  - the transcript's steps are the guest's marker lines, in order;
  - each step has the phases the driver goes through in it, with values
    decoded into the fields of the device's headers;
  - the HTML page in a real headless browser (Chromium through its
    WebDriver): one foldable block per step and per phase, phases closed
    until clicked, "open all"/"close all" work, no script errors;
  - (6.12) every kernel function the transcript cites is defined in the
    cited file of the guest kernel's own source (Debian's linux-source of
    exactly that version).

    tests/guest/test_explain.py [6.12|6.1]
"""

import importlib.util
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import TOP, log_dir  # noqa: E402
import buglab  # noqa: E402

KERNEL = sys.argv[1] if len(sys.argv) > 1 else "6.12"
spec = importlib.util.spec_from_file_location(
    "explain", os.path.join(TOP, "scripts", "explain.py"))
explain = importlib.util.module_from_spec(spec)
spec.loader.exec_module(explain)

# step -> phases the driver must go through in it (titles of PHASES)
EXPECT_PHASES = {
    "probe": ["pci", "enum", "sprom", "cc", "pcie", "reset"],
    "up": ["fwup", "psm", "mac", "phy", "chan", "dma"],
    "scan": ["scan"],
    "connect": ["scan", "assoc", "key"],
    "dhcp": ["data"],
    "ping": ["data", "irq"],
}
# step -> decoded text that must appear in it
EXPECT_TEXT = {
    "probe": ["PCI config COMMAND", "MEMORY MASTER",
              "BAR0_WIN -> 0x18000000 (ChipCommon)",
              "ID=0x4331 REV=2 PKG=9 NRCORES=3 TYPE=AI",
              "component A: ID=80211 MANUF=BCM",
              "address region: SLAVE at 0x18001000",
              "END of the table", "CC_SPROM: read",
              "PRESENT SIZE=4K", "D11_PHY_RESET", "REV=1 TYPE=7 ANALOG=9"],
    "up": ["set PSM_JMP0", "SHM ucode: wrote", "[set PSM_RUN, cleared PSM_JMP0]",
           "firmware revision 784", "MAC_SUSPENDED", "TXRINGLO",
           "RXCTL", "FROFF=0x26", "tuned to"],
    "scan": ["probe response to"],
    "connect": ["auth from", "algorithm AES", "peer of key slot",
                "4-way handshake message 4"],
    "dhcp": ["RX_DONE", "CURRDSCR=", "RXINDEX", "TXINDEX", "TX_OK",
             "ap_to_net"],
    "ping": ["key_tx", "key_rx"],
}

results = []


def check(cond, what):
    results.append((bool(cond), what))
    print("%s: %s" % ("PASS" if cond else "FAIL", what), flush=True)
    return cond


def steps_of(text):
    """{step name: its section of the text transcript}, in order"""
    parts = re.split(r"^Step \d+: ", text, flags=re.M)[1:]
    out = []
    for p in parts:
        title = p.split("\n", 1)[0]
        out.append((title.split(":")[0].strip(), title, p))
    return out


def check_browser(html_path, titles):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    try:
        d.get("file://" + os.path.abspath(html_path))
        steps = d.find_elements(By.CSS_SELECTOR, "details.step")
        shown = [s.find_element(By.TAG_NAME, "summary").text for s in steps]
        check(len(steps) == len(titles) and
              all(t in s for t, s in zip(titles, shown)),
              "browser: one block per step, as in the text (%d)" % len(steps))
        phases = d.find_elements(By.CSS_SELECTOR, "details.phase")
        check(len(phases) > 50, "browser: %d phase blocks" % len(phases))
        picks = [phases[0], phases[len(phases) // 2], phases[-1]]
        tables = [p.find_element(By.TAG_NAME, "table") for p in picks]
        check(not any(t.is_displayed() for t in tables),
              "browser: phases are folded until opened")
        for p in picks:
            p.find_element(By.TAG_NAME, "summary").click()
        check(all(t.is_displayed() for t in tables),
              "browser: a click on a phase's title opens it")
        cite = picks[1].find_elements(By.CSS_SELECTOR, "p.cite")
        check(cite and re.search(r"\w+\(\) in (drivers|net)/", cite[0].text),
              "browser: an opened phase shows the kernel function it cites")
        d.find_element(By.ID, "close-all").click()
        check(not any(t.is_displayed() for t in tables),
              "browser: 'close all' folds the phases again")
        d.find_element(By.ID, "open-all").click()
        check(all(p.get_attribute("open") for p in phases),
              "browser: 'open all' opens every phase")
        errs = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        check(not errs, "browser: no script errors %s" % errs[:2])
    finally:
        d.quit()


def check_citations():
    ver, kver = buglab.guest_kernel()
    src = os.path.join(TOP, "build", "explain", kver, "src")
    files = sorted({f for _, _, fl in explain.PHASES.values()
                    for _, f in fl})
    dirs = sorted({f if f.endswith("probe.c") else os.path.dirname(f)
                   for f in files})
    buglab.kernel_source(ver, kver, dirs, src)
    for key, (title, _, funcs) in explain.PHASES.items():
        for fn, f in funcs:
            path = os.path.join(src, f)
            text = open(path).read() if os.path.exists(path) else ""
            check(re.search(r"^[a-z][^;(]*\b%s\(" % fn, text, re.M),
                  "%s: %s() is defined in %s of Linux %s" % (title, fn, f,
                                                             ver))


def main():
    d = os.path.join(log_dir(), "explain-" + KERNEL)
    os.makedirs(d, exist_ok=True)
    html_path = os.path.join(d, "transcript.html")
    text_path = os.path.join(d, "transcript.txt")
    cmd = ["/usr/bin/python3", os.path.join(TOP, "scripts", "explain.py"),
           "--run", "--kernel", KERNEL, "--keep", d, "--html", html_path,
           "--full", "-o", text_path]
    print("running: %s" % " ".join(cmd), flush=True)
    rc = subprocess.run(cmd).returncode
    if not check(rc == 0, "scripts/explain.py --run exits 0"):
        return 1
    text = open(text_path).read()
    console = open(os.path.join(d, "explain.console.log"),
                   errors="replace").read()
    marks = [m.strip() for m in re.findall(r"^@@ (.*)$", console, re.M)]
    steps = steps_of(text)
    check([t for _, t, _ in steps[1:]] == marks,
          "the transcript's steps are the guest's %d marker lines, in "
          "order" % len(marks))
    check("lease of 10.0.2.15 obtained" in console and
          "3 packets received" in console,
          "the guest got its DHCP lease and its pings answered")
    by_name = {n: body for n, _, body in steps}
    for step, keys in EXPECT_PHASES.items():
        body = by_name.get(step, "")
        for k in keys:
            check("\n  -- %s: " % explain.PHASES[k][0] in body,
                  "step %s: phase '%s'" % (step, explain.PHASES[k][0]))
    for step, wants in EXPECT_TEXT.items():
        body = by_name.get(step, "")
        for w in wants:
            check(w in body, "step %s shows %r" % (step, w))
    # every register name in the text is one the device's headers or its
    # trace know (no invented names): D11 lines
    regs = explain.RegDefs(explain.HEADERS)
    unknown = set()
    for m in re.finditer(r"^     D11 (?:DMA\d )?(\w+)\s+\[0x([0-9a-f]+)\]",
                         text, re.M):
        n = m.group(1)
        if not ({"D11_" + n, "D11_DMA64_" + n, "D11_DMA_" + n} &
                (set(regs.offset) | set(regs.consts) | set(regs.fields) |
                 set(regs.alias))):
            unknown.add(n)
    check(not unknown, "every D11 register named is in the headers %s" %
          sorted(unknown))
    titles = [t for _, t, _ in steps]
    check_browser(html_path, titles)
    if KERNEL == "6.12":
        check_citations()
    failed = [w for ok, w in results if not ok]
    print("%d checks, %d failed" % (len(results), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
