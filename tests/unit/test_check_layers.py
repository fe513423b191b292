#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/check-layers.py on tiny fake trees (TAP output).

A circle is found and printed with an example of each of its edges; the
allowlist suppresses exactly the circles it names; a circle that gained a
module fails; --strict fails on any circle; what the C reader must not
take for a use (comments, strings, #if 0, members, statics, prototypes)."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytap import TOP, Tap, load_script  # noqa: E402

layers = load_script("check-layers.py", "check_layers")
SCRIPT = os.path.join(TOP, "scripts", "check-layers.py")
tap = Tap()


def check(cond, what, out=None):
    """a TAP result; a failure shows the checker's output as comments"""
    tap(cond, what)
    if not cond and out:
        for line in out.splitlines():
            print("# " + line)

# a.c calls b_run() of b.c; b.c includes a.h: circle {a, b}.
# c.c and d.c: a second circle, of a variable and a function's address.
# e.c: a leaf a.c uses (no circle), unless GROW makes it call back into a.
FILES = {
    "include/hw/net/fake/a.h": """
#ifndef A_H
#define A_H
#include "qemu/osdep.h"         /* QEMU's: not in the tree */
#include "hw/net/fake/e.h"
void a_init(void);
#endif
""",
    "hw/net/fake/a.c": """
#include "hw/net/fake/a.h"
#include "b.h"
static void helper(int x)
{
    b_run(x);
    e_leaf();
}

void a_init(void)
{
    helper(1);
}
""",
    "hw/net/fake/b.h": """
void b_run(int x);
""",
    "hw/net/fake/b.c": """
#include "hw/net/fake/a.h"

void b_run(int x)
{
    (void)x;
}
""",
    "hw/net/fake/c.c": """
#include "c-int.h"
const int vmstate_c = 1;

static void c_cb(void)
{
}

/* an ops table: d_fn's address, no call */
static const struct ops c_ops = {
    .cb = c_cb,
    .other = d_fn,
};
""",
    "hw/net/fake/c-int.h": """
extern const int vmstate_c;
""",
    "hw/net/fake/d.c": """
#include "c-int.h"
int d_tab[4] = { 0 };

void
d_fn(void)
{
    use(&vmstate_c);
}
""",
    "hw/net/fake/e.h": """
void e_leaf(void);
""",
    "hw/net/fake/e.c": """
#include "e.h"
/* a_init() in a comment is no call */
static const char *str = "a_init() in a string is none either";
#if 0
void a_init(void);
static void never(void) { a_init(); }
#endif
struct t { int (*b_run)(int); };

static void s(struct t *p)
{
    p->b_run(1);        /* a member, not b.c's b_run */
    p[0].b_run(2);
}

void e_leaf(void)
{
    s(0);
}
""",
}
GROW = """
static void grow(void)
{
    a_init();
}
"""


def tree(d, extra=None):
    files = dict(FILES)
    files.update(extra or {})
    for rel, text in files.items():
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def run(d, *args, allow=None):
    argv = [sys.executable, SCRIPT, "--top", d]
    if allow is not None:
        path = os.path.join(d, "allow")
        with open(path, "w") as f:
            f.write(allow)
        argv += ["--allow", path]
    p = subprocess.run(argv + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


AB = "hw/net/fake/a hw/net/fake/b"
CD = "hw/net/fake/c hw/net/fake/d"


def test_graph():
    with tempfile.TemporaryDirectory() as d:
        tree(d)
        g = layers.Graph(d)
        circles = [" ".join(c) for c in g.circles()]
        check(circles == [AB, CD], "two circles: %s" % circles)
        e = g.edges
        check(("hw/net/fake/a", "hw/net/fake/e") in e and
              ("hw/net/fake/e", "hw/net/fake/a") not in e and
              ("hw/net/fake/e", "hw/net/fake/b") not in e,
              "no edge from #if 0, members or comments: %s"
              % sorted(k for k in e if k[0] == "hw/net/fake/e"))
        check(g.module["hw/net/fake/c-int.h"] == "hw/net/fake/c" and
              [x[0] for x in e[("hw/net/fake/d", "hw/net/fake/c")]]
              == ["include", "ref"],
              "c-int.h is module c; d.c includes it and names c.c's "
              "variable")
        kinds = [x[0] for x in e.get(("hw/net/fake/c", "hw/net/fake/d"), [])]
        check(kinds == ["ref"], "an ops table's function address: a ref "
              "edge (%s)" % kinds)
        check(sorted(x[0] for x in e[("hw/net/fake/a", "hw/net/fake/b")])
              == ["call", "include"], "a.c -> b.c: the include and the call")
        check(g.module["include/hw/net/fake/a.h"] == "hw/net/fake/a" ==
              g.module["hw/net/fake/a.c"],
              "include/hw/x.h and hw/x.c are one module")
        check(sorted(g.files["hw/net/fake/d.c"].defs) == ["d_fn", "d_tab"],
              "d.c defines a function and a variable: %s"
              % sorted(g.files["hw/net/fake/d.c"].defs))
        check(not g.files["hw/net/fake/a.c"].defs.get("helper"),
              "a static function is no definition of the module")


def test_report():
    with tempfile.TemporaryDirectory() as d:
        tree(d)
        rc, out = run(d, "--strict")
        check(rc == 1, "--strict: a circle fails (%d)" % rc)
        check("circle of 2: " + AB in out, "the circle is printed")
        check("hw/net/fake/a.c:6: call b_run(), defined at "
              "hw/net/fake/b.c:4" in out, "the call edge's example", out)
        check('hw/net/fake/b.c:2: include #include "hw/net/fake/a.h"'
              in out, "the include edge's example")
        check("hw/net/fake/c.c:12: ref d_fn" in out and
              "hw/net/fake/a -> hw/net/fake/b (1 call, 1 include)" in out,
              "the ref edge's example, the counts of each kind")


def test_allowlist():
    with tempfile.TemporaryDirectory() as d:
        tree(d)
        rc, out = run(d, allow="# why\n%s  # today's mesh\n" % AB)
        check(rc == 1 and "NEW circle of 2: " + CD in out and
              "allowed circle of 2: " + AB in out,
              "the allowlist suppresses its circle only (%d)" % rc, out)
        rc, out = run(d, allow="%s # x\n%s # y\n" % (AB, CD))
        check(rc == 0 and "2 circles, ok" in out,
              "both allowed: success (%d)" % rc)
        rc, out = run(d, "--strict", allow="%s # x\n%s # y\n" % (AB, CD))
        check(rc == 1 and "NEW" not in out and "circle of 2: " + AB in out,
              "--strict ignores the allowlist (%d)" % rc)
        # an allowlist line larger than today's circle: it shrank
        rc, out = run(d, allow="%s hw/net/fake/x # x\n%s # y\n" % (AB, CD))
        check(rc == 0 and "tighten" in out,
              "a circle that shrank passes, with a note (%d)" % rc)
        rc, out = run(d, allow="%s # x\n%s # y\nnet/fake/p hw/net/fake/q\n"
                      % (AB, CD))
        check(rc == 0 and "line 3 is no circle any more" in out,
              "a line of a circle that is gone: noted (%d)" % rc)


def test_grown():
    with tempfile.TemporaryDirectory() as d:
        tree(d, {"hw/net/fake/e.c": FILES["hw/net/fake/e.c"]
                 + '#include "hw/net/fake/a.h"\n' + GROW})
        rc, out = run(d, allow="%s # x\n%s # y\n" % (AB, CD))
        check(rc == 1 and "GROWN circle of 3: hw/net/fake/a hw/net/fake/b "
              "hw/net/fake/e" in out and "new in it: hw/net/fake/e" in out,
              "a circle that gained a module fails (%d)" % rc, out)
        check("hw/net/fake/e.c:25: call a_init(), defined at "
              "hw/net/fake/a.c:10" in out and "no circle any more" not in out,
              "... with the new edge's example", out)


def test_usage_and_dot():
    with tempfile.TemporaryDirectory() as d:
        tree(d)
        rc, out = run(d, "--dot")
        check(rc == 0 and out.startswith("digraph") and
              '"hw/net/fake/a" -> "hw/net/fake/b" [color=red];' in out and
              '"hw/net/fake/a" -> "hw/net/fake/e" [];' in out,
              "--dot: the module graph, circles in red")
        rc, out = run(d, "--print-allow")
        check(rc == 0 and out.splitlines()[0].startswith(AB + "  # "),
              "--print-allow: one line a circle")
        rc, _ = run(d, "--no-such-option")
        check(rc == 2, "an unknown option: usage error (%d)" % rc)
        p = subprocess.run([sys.executable, SCRIPT, "--top", d, "--allow",
                            os.path.join(d, "missing")],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        check(p.returncode == 2, "a missing allowlist: usage error (%d)"
              % p.returncode)
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        rc, _ = run(empty)
        check(rc == 2, "a tree without sources: usage error (%d)" % rc)


def test_ranks():
    allow = "%s # x\n%s # y\n" % (AB, CD)
    with tempfile.TemporaryDirectory() as d:
        tree(d)
        ranks = os.path.join(d, "ranks")
        with open(ranks, "w") as f:
            f.write("# a above e\n2 hw/net/fake/a\n1 hw/net/fake/e\n")
        rc, out = run(d, "--ranks", ranks, allow=allow)
        check(rc == 0 and "layers ok" in out,
              "an edge down the ranks passes (%d)" % rc, out)
        with open(ranks, "w") as f:
            f.write("1 hw/net/fake/a\n1 hw/net/fake/e*\n")
        rc, out = run(d, "--ranks", ranks, allow=allow)
        check(rc == 1 and "UPWARD edge hw/net/fake/a -> hw/net/fake/e "
              "(1 call, 1 include): rank 1 beside rank 1" in out and
              "layers FAILED" in out,
              "an edge between siblings fails, with its examples (%d)" % rc,
              out)
        with open(ranks, "w") as f:
            f.write("0 hw/net/fake/a\n1 hw/net/fake/e\n")
        rc, out = run(d, "--ranks", ranks, allow=allow)
        check(rc == 1 and "rank 0 below rank 1" in out,
              "an edge up the ranks fails, whatever the allowlist (%d)" % rc)
        with open(ranks, "w") as f:
            f.write("x hw/net/fake/a\n")
        rc, _ = run(d, "--ranks", ranks, allow=allow)
        check(rc == 2, "a ranks line without a rank: usage error (%d)" % rc)
    with tempfile.TemporaryDirectory() as d:
        tree(d, {"net/wifi/n.c": '#include "hw/net/fake/e.h"\n'
                 "void n_run(void);\n\nvoid n_run(void)\n{\n    e_leaf();\n}\n"})
        rc, out = run(d, allow=allow)
        check(rc == 1 and "UPWARD edge net/wifi/n -> hw/net/fake/e" in out
              and "the air (net/) needs a device (hw/)" in out,
              "net/ needing hw/ fails without any ranks (%d)" % rc, out)
        check("note: without a rank: net/wifi/n" in out,
              "a module of net/wifi/ without a rank: noted", out)
        rc, out = run(d, "--strict", allow=allow)
        check(rc == 1 and "UNRANKED: net/wifi/n" in out,
              "... and fails with --strict (%d)" % rc, out)


def test_this_tree():
    rc, out = run(TOP)
    check(rc == 0, "this repository passes against its allowlist: "
          + out.strip().splitlines()[-1], out)


def test_tokenizer():
    inc, toks = layers.read_source(
        '#include "x.h"\n'
        "char c = '\\'';  // it's\n"
        '#define M(a) \\\n  f(a)\n'
        "/* #include \"y.h\" */\n"
        "int z = g(1);\n")
    check(inc == [("x.h", 1)], "includes: %s" % inc)
    names = [(t.text, t.line, t.macro) for t in toks if t.kind == "id"]
    check(("f", 4, True) in names and ("g", 6, False) in names and
          "a" not in [n for n, _, m in names if not m],
          "lines kept past literals and continuations, a #define body "
          "read: %s" % names)


for t in (test_graph, test_report, test_allowlist, test_grown, test_ranks,
          test_usage_and_dot, test_this_tree, test_tokenizer):
    t()
tap.finish()
