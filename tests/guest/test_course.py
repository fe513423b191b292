#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The course (docs/course/) never rots: run every lesson's commands as a
student would, from the top of the tree, and check that the output still
shows what the lesson tells the student to look for.

In a lesson, "<!-- course: command -->" or "<!-- course: exercise -->"
precedes a ```sh block; the "<!-- expect: REGEX -->" lines after it
belong to that block's output.

    tests/guest/test_course.py [LESSON.md ...]
"""

import glob
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import TOP, log_dir  # noqa: E402

COURSE = os.path.join(TOP, "docs", "course")
BLOCK = re.compile(r"<!-- course: (command|exercise) -->\s*\n\s*```sh\n"
                   r"(.*?)\n\s*```", re.S)
EXPECT = re.compile(r"<!-- expect: (.*?) -->")


def lesson_runs(path):
    """[(kind, command, [regex])] of a lesson, in order"""
    text = open(path).read()
    runs = []
    blocks = list(BLOCK.finditer(text))
    for k, m in enumerate(blocks):
        end = blocks[k + 1].start() if k + 1 < len(blocks) else len(text)
        cmd = "\n".join(line.strip() for line in m.group(2).splitlines())
        runs.append((m.group(1), cmd,
                     EXPECT.findall(text, m.end(), end)))
    return runs


def main():
    lessons = sys.argv[1:] or sorted(glob.glob(os.path.join(COURSE,
                                                            "[0-9]*.md")))
    failed = []
    checks = 0
    if not sys.argv[1:] and not 5 <= len(lessons) <= 8:
        failed.append("the course has %d lessons (5 to 8 expected)" %
                      len(lessons))
    for path in lessons:
        name = os.path.basename(path)
        runs = lesson_runs(path)
        if not any(kind == "command" for kind, _, _ in runs):
            failed.append("%s: no command" % name)
            continue
        for kind, cmd, expects in runs:
            if not expects:
                failed.append("%s: the %s has nothing to look for" %
                              (name, kind))
            d = os.path.join(log_dir(), "course", name[:-3], kind)
            os.makedirs(d, exist_ok=True)
            env = dict(os.environ, BCM_LOG_DIR=d)
            t0 = time.monotonic()
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", cmd],
                               cwd=TOP, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=900)
            out = p.stdout.decode("utf-8", "replace")
            with open(os.path.join(d, "output.txt"), "w") as f:
                f.write(out)
            print("%s %s: exit %d in %.0f s, %d lines (%s)" % (
                name, kind, p.returncode, time.monotonic() - t0,
                out.count("\n"), os.path.join(d, "output.txt")), flush=True)
            checks += 1
            if p.returncode:
                failed.append("%s %s: exit %d\n%s" % (name, kind,
                                                      p.returncode,
                                                      out[-3000:]))
                continue
            for rx in expects:
                checks += 1
                if re.search(rx, out):
                    print("PASS: %s %s shows /%s/" % (name, kind, rx))
                else:
                    failed.append("%s %s: no /%s/ in its output" %
                                  (name, kind, rx))
    for f in failed:
        print("FAIL: " + f)
    print("%d checks, %d failed" % (checks, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
