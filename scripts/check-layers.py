#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Circles among the project's C modules ("hub over leaves", issue 27).

The graph: one node per module, an edge A -> B when module A needs B.
A module is a header and its .c taken together (x.h + x.c = module x;
include/net/wifi/medium.h and net/wifi/medium.c are one module, and
a header x-int.h belongs to module x when there is one).  Its name is its
path without the extension and without a leading include/
(hw/net/bcm43xx/d11-dma, net/wifi/medium, hw/net/wifi/ap).  The sources are every .c and .h
under hw/, include/ and net/ of the tree; QEMU's own files are not in it.

Edges, each kept with its first example (file:line):
  include  a file of A has #include "f" and f is one of our files, looked
           for as QEMU's build does: beside the including file, then in
           include/, then at the top of the tree;
  call     a file of A calls F, a function defined without `static` in a
           .c file of B (an identifier followed by '(');
  ref      a file of A names such a function without calling it (its
           address in an ops table, a callback), or names a variable a .c
           file of B defines without `static` (a VMStateDescription, a
           model table).
Calls through pointers (ops->receive(...)) are no edges: that is how a
leaf calls back up without a circle.  A name defined in several .c files
(the medium-scenario.c / medium-scenario-stub.c alternatives) gives an
edge to each.

The C reader is a tokenizer, not a compiler: comments, string and
character literals are dropped (line numbers kept); a preprocessor line is
taken whole (an #include's name; a #define's body is scanned for uses like
code, so a macro's calls belong to the file that defines the macro); both
branches of every #if are read, except #if 0.  Braces and parentheses are
counted: at file scope (no brace or parenthesis open) an identifier
followed by a parameter list and '{' is a function definition, one
followed by '=', '[', ',' or ';' a variable's; everything there is a
declaration, not a use, and so is a member in a struct, union or enum
body.  Elsewhere (function bodies, initializers, macro arguments, #define
bodies) an identifier not after '.' or '->' that names another module's
function or variable is a use.  A static inline function of a header is
no definition: who calls it includes its header, which is the edge.

A circle is a strongly connected component of more than one module.  The
allowlist (scripts/check-layers.allow) names the circles there are today,
one a line: the sorted module names joined by spaces, '#' and why.  A
circle passes when all its modules are in one allowed circle (a circle
that shrank or split passes, and is reported so that its line can be
tightened); a new circle, or one that gained a module, fails.

Layers: scripts/check-layers.ranks gives modules a rank, one line each
"RANK PATTERN..." (fnmatch patterns on module names; the first line that
matches a module gives its rank).  An edge A -> B between two ranked
modules must go down: rank(A) > rank(B), so a leaf never includes a
header of, calls or names a module above or beside it.  And a module of
net/ (the air, a backend) never needs one of hw/ (the devices).  Both
fail the check whatever the allowlist says; --strict also fails on a
module of hw/net/bcm43xx/, hw/net/wifi/ or net/wifi/ without a rank.

  check-layers.py               check against scripts/check-layers.allow
  check-layers.py --strict      every circle fails (the allowlist ignored)
  check-layers.py --dot         the module graph in Graphviz dot form
  check-layers.py --print-allow today's circles in the allowlist's form

Exit status: 0 no circle beyond the allowlist, 1 a new or grown circle
(printed with an example of each of its edges), 2 usage error.
"""

import argparse
import fnmatch
import os
import re
import sys

SCAN_DIRS = ("hw", "include", "net")
# where #include "f" is looked for besides the including file's directory
INCLUDE_DIRS = ("include", "")
KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed
    sizeof static struct switch typedef typeof union unsigned void volatile
    while _Bool _Static_assert __attribute__ __typeof__ defined
    """.split())
TYPE_WORDS = frozenset(("struct", "union", "enum"))


# --- the tokenizer ----------------------------------------------------------

class Tok:
    __slots__ = ("kind", "text", "line", "macro")

    def __init__(self, kind, text, line, macro=False):
        self.kind = kind        # 'id', 'num', 'punct'
        self.text = text
        self.line = line
        self.macro = macro      # inside a #define's body

    def __repr__(self):
        return "%s:%r@%d" % (self.kind, self.text, self.line)


_TOKEN = re.compile(r"""
    (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<punct>->|\+\+|--|<<=?|>>=?|[<>!=]=|&&|\|\||\#\#|\.\.\.|\S)
""", re.VERBOSE)


def strip_source(text):
    """@text with comments and the contents of string and character
    literals blanked (a string keeps its quotes: "" and ''), newlines
    kept, so that line numbers stay"""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif c == "/" and text.startswith("//", i):
            j = i
            while j < n and text[j] != "\n":
                # a // comment continued by a backslash-newline
                j += 2 if text.startswith("\\\n", j) else 1
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c + "\n" * text.count("\n", i, min(j, n)))
            # an unterminated literal (an apostrophe in #error) ends at
            # the end of its line, which stays
            i = j + 1 if j < n and text[j] == c else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _tokens(text, line, macro=False):
    toks = []
    pos = 0
    for m in _TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        toks.append(Tok(m.lastgroup, m.group(), line, macro))
    return toks


def read_source(raw):
    """(includes, tokens) of C source @raw: includes as [(name, line)] of
    its #include "name" lines, tokens of the code and of #define bodies"""
    # the names of #include "..." before the strings are blanked
    names = {}
    for no, text in enumerate(raw.split("\n"), 1):
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', text)
        if m:
            names[no] = m.group(1)
    lines = strip_source(raw).split("\n")
    includes, toks = [], []
    skip = []           # per open #if: True while in an #if 0 branch
    no = 0
    while no < len(lines):
        text = lines[no]
        first = no + 1
        no += 1
        m = re.match(r"\s*#\s*(\w*)(.*)", text)
        if not m:
            if not any(skip):
                toks += _tokens(text, first)
            continue
        # a directive, continued by backslash-newlines
        while text.endswith("\\") and no < len(lines):
            text = text[:-1] + "\n" + lines[no]     # lines counted
            no += 1
        m = re.match(r"\s*#\s*(\w*)(.*)", text, re.S)
        word, rest = m.group(1), m.group(2)
        if word in ("if", "ifdef", "ifndef"):
            skip.append(word == "if" and rest.strip() == "0")
        elif word in ("else", "elif"):
            if skip:
                skip[-1] = False
        elif word == "endif":
            if skip:
                skip.pop()
        elif any(skip):
            continue
        elif word == "include" and first in names:
            includes.append((names[first], first))
        elif word == "define":
            # the name and its parameters are no use of anything
            d = re.match(r"\s*\w+(\([^)]*\))?", rest)
            toks += _tokens(rest[d.end():] if d else rest, first, macro=True)
    return includes, toks


# --- one file's definitions and uses -------------------------------------

class SourceFile:
    def __init__(self, rel, raw):
        self.rel = rel
        self.includes, toks = read_source(raw)
        self.defs = {}          # name -> line: non-static, file scope
        self.uses = []          # (name, line, 'call' | 'ref')
        self._scan(toks)

    def _scan(self, toks):
        code = [t for t in toks if not t.macro]
        # uses: everything in a #define body, elsewhere anything inside
        # braces or parentheses but for a struct, union or enum body (its
        # members are declarations)
        braces = []             # per open brace: a type's body?
        paren = 0
        for i, t in enumerate(toks):
            if t.macro:
                self._use(toks, i)
                continue
            if t.kind == "punct":
                if t.text == "{":
                    back = [x.text for x in toks[max(i - 2, 0):i]
                            if not x.macro]
                    braces.append(bool(TYPE_WORDS & set(back)))
                elif t.text == "}":
                    if braces:
                        braces.pop()
                elif t.text == "(":
                    paren += 1
                elif t.text == ")":
                    paren = max(paren - 1, 0)
            elif t.kind == "id" and (braces or paren) and \
                    not (braces and braces[-1]):
                self._use(toks, i)
        # definitions: the statements at file scope
        if self.rel.endswith(".c"):
            self._definitions(code)

    def _use(self, toks, i):
        t = toks[i]
        if t.text in KEYWORDS:
            return
        prev = toks[i - 1].text if i else ""
        if prev in (".", "->"):
            return
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        call = nxt is not None and nxt.text == "(" and nxt.macro == t.macro
        self.uses.append((t.text, t.line, "call" if call else "ref"))

    def _definitions(self, code):
        i, n = 0, len(code)
        stmt = []                       # tokens of the statement so far
        while i < n:
            t = code[i]
            if t.text == ";":
                self._variables(stmt)
                stmt = []
                i += 1
            elif t.text == "{":
                head = stmt
                j = _skip_group(code, i, "{", "}")
                fn = _function_name(head)
                if fn is not None:
                    if not _has(head, "static"):
                        self.defs.setdefault(fn.text, fn.line)
                    stmt = []
                elif head and head[-1].text == "=":
                    stmt.append(Tok("punct", "{=}", t.line))   # initializer
                else:
                    # struct/union/enum body: the declarators follow
                    stmt.append(Tok("punct", "{...}", t.line))
                i = j
            elif t.text in ("(", "["):
                j = _skip_group(code, i, t.text, ")" if t.text == "(" else "]")
                stmt.append(t)
                stmt.append(Tok("punct", "...", t.line))
                stmt.append(Tok("punct", ")" if t.text == "(" else "]",
                                code[j - 1].line))
                i = j
            else:
                stmt.append(t)
                i += 1

    def _variables(self, stmt):
        """the variables a file-scope declaration @stmt (up to its ';')
        defines, if it is not static, extern or a typedef"""
        if not stmt or _has(stmt, "static", "extern", "typedef"):
            return
        # split at the top-level commas; a declarator's name is the last
        # identifier before its '=', '[' or end, not inside parentheses
        parts, cur = [], []
        for t in stmt:
            if t.text == ",":
                parts.append(cur)
                cur = []
            else:
                cur.append(t)
        parts.append(cur)
        for k, part in enumerate(parts):
            # after a struct/union/enum body, its declarators
            body = [j for j, t in enumerate(part) if t.text == "{...}"]
            if body:
                part = part[body[-1]:]
            name = None
            for j, t in enumerate(part):
                if t.text in ("=", "["):
                    break
                if t.text == "(" and j and part[j - 1].kind == "id":
                    return      # a prototype, or a macro at file scope
                if t.kind == "id" and t.text not in KEYWORDS:
                    name = j
            if name is None:
                continue
            # a declarator has a type before it (the first one's own), and
            # `struct X;` declares no variable
            before = part[name - 1].text if name else None
            if (k == 0 and before is None) or \
                    before in ("struct", "union", "enum"):
                continue
            self.defs.setdefault(part[name].text, part[name].line)


def _skip_group(toks, i, open_, close):
    """index after the group opened by toks[i]"""
    depth = 0
    while i < len(toks):
        if toks[i].text == open_:
            depth += 1
        elif toks[i].text == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _has(toks, *words):
    return any(t.kind == "id" and t.text in words for t in toks)


def _function_name(head):
    """the name of the function a file-scope statement @head (the tokens
    before a '{') defines: `... name ( ... )`, else None"""
    if len(head) < 4 or head[-1].text != ")" or head[-3].text != "(":
        return None
    name = head[-4]
    if name.kind != "id" or name.text in KEYWORDS or _has(head, "typedef"):
        return None
    if any(t.text == "=" for t in head):
        return None
    return name


# --- the tree and its module graph -----------------------------------------

def module_of(rel):
    """a file's module: its path without extension and include/"""
    name = os.path.splitext(rel)[0]
    if name.startswith("include/"):
        name = name[len("include/"):]
    return name


class Graph:
    def __init__(self, top):
        self.top = top
        self.files = {}
        for d in SCAN_DIRS:
            for root, dirs, names in os.walk(os.path.join(top, d)):
                dirs.sort()
                for f in sorted(names):
                    if f.endswith((".c", ".h")):
                        path = os.path.join(root, f)
                        rel = os.path.relpath(path, top)
                        with open(path, encoding="utf-8",
                                  errors="replace") as fh:
                            self.files[rel] = SourceFile(rel, fh.read())
        names = {module_of(r) for r in self.files}
        self.module = {}
        for rel in self.files:
            mod = module_of(rel)
            if rel.endswith("-int.h") and mod[:-4] in names:
                mod = mod[:-4]
            self.module[rel] = mod
        self.nodes = sorted(set(self.module.values()))
        # edges: (a, b) -> [(kind, file, line, what)]
        self.edges = {}
        self._includes()
        self._symbols()

    def _add(self, a, b, kind, rel, line, what):
        if a != b:
            self.edges.setdefault((a, b), []).append((kind, rel, line, what))

    def _resolve(self, rel, name):
        for base in [os.path.dirname(rel)] + list(INCLUDE_DIRS):
            cand = os.path.normpath(os.path.join(base, name))
            if cand in self.files:
                return cand
        return None

    def _includes(self):
        for rel, sf in self.files.items():
            for name, line in sf.includes:
                target = self._resolve(rel, name)
                if target:
                    self._add(self.module[rel], self.module[target],
                              "include", rel, line,
                              '#include "%s"' % name)

    def _symbols(self):
        defs = {}               # name -> [(module, file, line)]
        for rel, sf in self.files.items():
            for name, line in sf.defs.items():
                defs.setdefault(name, []).append(
                    (self.module[rel], rel, line))
        for rel, sf in self.files.items():
            a = self.module[rel]
            for name, line, kind in sf.uses:
                for b, drel, dline in defs.get(name, ()):
                    what = "%s()" % name if kind == "call" else name
                    self._add(a, b, kind, rel, line,
                              "%s, defined at %s:%d" % (what, drel, dline))

    def successors(self, a):
        return sorted(b for (x, b) in self.edges if x == a)

    def circles(self):
        """strongly connected components of more than one module (Tarjan,
        iterative), each sorted, in sorted order"""
        succ = {v: self.successors(v) for v in self.nodes}
        index, low, on, stack, out = {}, {}, set(), [], []
        counter = [0]
        for root in self.nodes:
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                v, k = work.pop()
                if k == 0:
                    index[v] = low[v] = counter[0]
                    counter[0] += 1
                    stack.append(v)
                    on.add(v)
                if k < len(succ[v]):
                    work.append((v, k + 1))
                    w = succ[v][k]
                    if w not in index:
                        work.append((w, 0))
                    elif w in on:
                        low[v] = min(low[v], index[w])
                    continue
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
        return sorted(out)

    def examples(self, a, b):
        """the edge a -> b: its count of each kind, and the first example
        of each kind"""
        ex = self.edges[(a, b)]
        counts, lines = [], []
        for kind in ("call", "ref", "include"):
            of = sorted(e for e in ex if e[0] == kind)
            if of:
                counts.append("%d %s" % (len(of), kind))
                _, rel, line, what = of[0]
                lines.append("%s:%d: %s %s" % (rel, line, kind, what))
        return ", ".join(counts), lines

    def describe(self, comp):
        out = []
        for a in comp:
            for b in comp:
                if (a, b) in self.edges:
                    counts, lines = self.examples(a, b)
                    out.append("  %s -> %s (%s)" % (a, b, counts))
                    out += ["      " + x for x in lines]
        return "\n".join(out)

    def dot(self, circles):
        inside = {m: i for i, c in enumerate(circles) for m in c}
        out = ["digraph layers {", "  rankdir=BT;",
               "  node [shape=box, fontsize=10];"]
        groups = {}
        for m in self.nodes:
            groups.setdefault(os.path.dirname(m), []).append(m)
        for i, (g, mods) in enumerate(sorted(groups.items())):
            out.append('  subgraph "cluster_%d" {' % i)
            out.append('    label="%s";' % (g or "."))
            for m in mods:
                attr = ', color=red' if m in inside else ''
                out.append('    "%s" [label="%s"%s];'
                           % (m, os.path.basename(m), attr))
            out.append("  }")
        for (a, b), ex in sorted(self.edges.items()):
            kinds = sorted({e[0] for e in ex})
            attr = []
            if a in inside and inside.get(b) == inside[a]:
                attr.append("color=red")
            if kinds == ["include"]:
                attr.append("style=dashed")
            out.append('  "%s" -> "%s" [%s];' % (a, b, ", ".join(attr)))
        out.append("}")
        return "\n".join(out)


# --- the layers --------------------------------------------------------------

RANKED_DIRS = ("hw/net/bcm43xx/", "hw/net/wifi/", "net/wifi/")


def read_ranks(path):
    """[(pattern, rank, line number)] of a ranks file"""
    ranks = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                rank = int(words[0])
            except ValueError:
                raise ValueError("%s:%d: a line is RANK PATTERN..." % (path, no))
            ranks += [(pat, rank, no) for pat in words[1:]]
    return ranks


def rank_of(ranks, module):
    for pat, rank, _ in ranks:
        if fnmatch.fnmatchcase(module, pat):
            return rank
    return None


def check_layers(graph, ranks, strict, out):
    """print the edges that go up or sideways, or from net/ to hw/; True if
    there is none"""
    bad = 0
    for (a, b) in sorted(graph.edges):
        ra, rb = rank_of(ranks, a), rank_of(ranks, b)
        why = None
        if a.startswith("net/") and b.startswith("hw/"):
            why = "the air (net/) needs a device (hw/)"
        elif ra is not None and rb is not None and ra <= rb:
            why = "rank %d %s rank %d" % (ra, "below" if ra < rb else
                                          "beside", rb)
        if why:
            bad += 1
            counts, lines = graph.examples(a, b)
            print("UPWARD edge %s -> %s (%s): %s" % (a, b, counts, why),
                  file=out)
            for x in lines:
                print("      " + x, file=out)
    unranked = [m for m in sorted(graph.nodes)
                if m.startswith(RANKED_DIRS) and rank_of(ranks, m) is None]
    if unranked:
        print("%s: %s" % ("UNRANKED" if strict else "note: without a rank",
                          " ".join(unranked)), file=out)
        if strict:
            bad += 1
    return bad == 0


# --- the allowlist ---------------------------------------------------------

def read_allow(path):
    """[(frozenset of modules, line number)] of an allowlist file"""
    allowed = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            mods = line.split("#", 1)[0].split()
            if mods:
                allowed.append((frozenset(mods), no))
    return allowed


def check(graph, allowed, strict, out):
    """print the circles; True if every one is allowed"""
    circles = graph.circles()
    ok = True
    for comp in circles:
        s = set(comp)
        fits = [a for a, _ in allowed if s <= a] if not strict else []
        if fits:
            a = fits[0]
            shrunk = "" if a == s else \
                " (smaller than its allowlist line: tighten it to this)"
            print("allowed circle of %d: %s%s"
                  % (len(comp), " ".join(comp), shrunk), file=out)
            continue
        ok = False
        over = [a for a, _ in allowed if a & s] if not strict else []
        if over:
            known = set().union(*over)
            print("GROWN circle of %d: %s\n  new in it: %s"
                  % (len(comp), " ".join(comp),
                     " ".join(sorted(s - known))), file=out)
        else:
            print("%s of %d: %s"
                  % ("circle" if strict else "NEW circle", len(comp),
                     " ".join(comp)), file=out)
        print(graph.describe(comp), file=out)
    if not strict:
        present = [set(c) for c in circles]
        for a, no in allowed:
            if not any(c & a for c in present):
                print("note: allowlist line %d is no circle any more: %s "
                      "(remove it)" % (no, " ".join(sorted(a))), file=out)
    print("check-layers: %d modules, %d edges, %d circles, %s"
          % (len(graph.nodes), len(graph.edges), len(circles),
             "ok" if ok else "FAILED"), file=out)
    return ok


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description="Circles of #includes and calls among the project's "
        "C modules (see the top of this file).")
    ap.add_argument("--top", default=os.path.dirname(here),
                    help="the tree to read (default: this repository)")
    ap.add_argument("--allow",
                    help="allowlist file (default: TOP/scripts/"
                    "check-layers.allow)")
    ap.add_argument("--ranks",
                    help="ranks file (default: TOP/scripts/"
                    "check-layers.ranks, if there is one)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="ignore the allowlist: every circle fails")
    mode.add_argument("--dot", action="store_true",
                      help="print the module graph in Graphviz dot form")
    mode.add_argument("--print-allow", action="store_true",
                      help="print today's circles in the allowlist's form")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.top):
        ap.error("no directory %s" % args.top)
    graph = Graph(args.top)
    if not graph.files:
        ap.error("no C sources under %s/{%s}" % (args.top,
                                                 ",".join(SCAN_DIRS)))
    if args.dot:
        print(graph.dot(graph.circles()))
        return 0
    if args.print_allow:
        for comp in graph.circles():
            print("%s  # why this circle is there" % " ".join(comp))
        return 0
    allowed = []
    if not args.strict:
        path = args.allow or os.path.join(args.top, "scripts",
                                          "check-layers.allow")
        try:
            allowed = read_allow(path)
        except OSError as e:
            ap.error("allowlist: %s" % e)
    ranks = []
    path = args.ranks or os.path.join(args.top, "scripts",
                                      "check-layers.ranks")
    if args.ranks or os.path.exists(path):
        try:
            ranks = read_ranks(path)
        except (OSError, ValueError) as e:
            ap.error("ranks: %s" % e)
    ok = check(graph, allowed, args.strict, sys.stdout)
    layered = check_layers(graph, ranks, args.strict, sys.stdout)
    if ranks or not layered:
        print("check-layers: layers %s" % ("ok" if layered else "FAILED"))
    return 0 if ok and layered else 1


if __name__ == "__main__":
    sys.exit(main())
