# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python unit tests share: loading a script of scripts/ as a
module, and TAP output (meson's protocol 'tap')."""

import importlib.util
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def load_script(name, module):
    """scripts/@name as module @module"""
    spec = importlib.util.spec_from_file_location(
        module, os.path.join(TOP, "scripts", name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Tap:
    def __init__(self):
        self.results = []

    def __call__(self, cond, what):
        self.results.append((bool(cond), what))

    def finish(self):
        print("1..%d" % len(self.results))
        for i, (ok, what) in enumerate(self.results, 1):
            print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
        sys.exit(0 if all(ok for ok, _ in self.results) else 1)
