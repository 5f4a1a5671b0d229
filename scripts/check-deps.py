#!/usr/bin/env python3
"""check-deps: dependencies run one way.

Reads the parts and the parts each may use from the table in
docs/layout.md (the one place they are written: a row per part, its
folder, the files it holds, the parts it may use), then checks every edge
in the tree against it:

  include edges  every #include "..." in src/ and tools/, resolved as the
                 compiler resolves it (the file's directory, then -Isrc,
                 -Iinclude, -Itools);
  link edges     every undefined symbol of an object in BUILD/obj that
                 another of our objects defines (nm).

A source file its part's row does not name fails (by name, a pattern such
as `deq_*.c` or `cursor.*`, or a directory such as `x86/`).  An edge to a
part that the table does not allow fails, and so does any
cycle between files (include and link edges together): a part may use
itself, but not in a loop.  For a part that may use only the API (the tool,
the remote library), a public symbol (lgg_*, not the internal lgg__*)
counts as an edge to the public header: it links the library through its
API, never through its internals.

Usage: check-deps.py [--build DIR] [--root DIR]      exit 0 clean, 1 not
       check-deps.py --self-test                    the check finds what it
                                                    must find
"""
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

api_only = set()  # parts whose last column says "`api` only"
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROW_RE = re.compile(r'^\|\s*\*?\*?(\w+)\*?\*?\s*\|\s*`([^`]+)`\s*\|([^|]*)\|([^|]*)\|\s*$')
names = {}  # part -> the `names` its "what it holds" column places


LAYOUT = os.path.join("docs", "layout.md")
HEADER_RE = re.compile(r"^\|\s*part\s*\|\s*path\s*\|")


def read_table(layout):
    """parts: name -> (path prefix, set of parts it may use), from the
    table whose header row starts "| part | path |" """
    try:
        text = open(layout, encoding="utf-8").read()
    except OSError as e:
        sys.exit("check-deps: cannot read the layout table: %s" % e)
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if HEADER_RE.match(l)), None)
    if start is None:
        sys.exit("check-deps: %s has no table starting '| part | path |'" % layout)
    parts = {}
    api_only.clear()
    names.clear()
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            break
        m = ROW_RE.match(line)
        if not m:
            continue
        name, path, uses = m.group(1), m.group(2).rstrip("/") + "/", m.group(4)
        names[name] = re.findall(r"`([^`]+)`", m.group(3))
        allowed = set(re.findall(r"`(\w+)`", uses))
        parts[name] = (path, allowed)
        if "api" in allowed and "only" in uses:
            api_only.add(name)
    if not parts:
        sys.exit("check-deps: no parts found in the layout table of %s" % layout)
    for name, (_, allowed) in parts.items():
        for a in allowed:
            if a not in parts:
                sys.exit("check-deps: part %s may use '%s', which the table does not define" % (name, a))
    return parts


def part_of(parts, path):
    best = None
    for name, (prefix, _) in parts.items():
        if path.startswith(prefix) and (best is None or len(prefix) > len(parts[best][0])):
            best = name
    return best


def resolve(root, src_file, inc):
    for d in (os.path.dirname(src_file), "src", "include", "tools"):
        cand = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def source_files(root, parts):
    out = []
    for name, (prefix, _) in parts.items():
        top = os.path.join(root, prefix)
        for d, _, files in os.walk(top):
            for f in files:
                if f.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(d, f), root)
                    if part_of(parts, rel) == name:
                        out.append(rel)
    return sorted(set(out))


def placed(parts, f):
    """Whether the table names file f: its name, a pattern (`cursor.*`,
    `deq_*.c`) or a directory (`x86/`) in its part's row"""
    part = part_of(parts, f)
    rel = f[len(parts[part][0]):]
    for n in names.get(part, ()):
        if n.endswith("/") and rel.startswith(n):
            return True
        if fnmatch.fnmatchcase(rel, n) or fnmatch.fnmatchcase(os.path.basename(rel), n):
            return True
    return False


def include_edges(root, files):
    edges = []
    for f in files:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE_RE.findall(text):
            target = resolve(root, f, inc)
            if target:
                edges.append((f, target, "includes"))
    return edges


def nm(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defs, undef = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDRBVW":
            defs.add(p[2])
        elif len(p) == 2 and p[0] == "U":
            undef.add(p[1])
    return defs, undef


def link_edges(root, build, files):
    """(user .c, definer .c, symbol) for every symbol one of our objects
    takes from another"""
    objs = {}
    for f in files:
        if f.endswith(".c"):
            o = os.path.join(build, "obj", f[:-2] + ".o")
            if os.path.isfile(o):
                objs[f] = nm(o)
    definer = {}
    for f, (defs, _) in objs.items():
        for s in defs:
            definer[s] = f
    edges = []
    for f, (_, undef) in objs.items():
        for s in sorted(undef):
            d = definer.get(s)
            if d and d != f:
                edges.append((f, d, s))
    return edges, len(objs)


def cycles(nodes, adj):
    """strongly connected components of more than one file (Tarjan)"""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        work = [(v, iter(sorted(adj.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(adj.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check(root, build):
    parts = read_table(os.path.join(root, LAYOUT))
    files = source_files(root, parts)
    problems = ["%s (%s) is not named in the layout table's row for %s" % (f, part_of(parts, f), part_of(parts, f))
                for f in files if not placed(parts, f)]
    inc = include_edges(root, files)
    links, n_obj = link_edges(root, build, files)
    # parts that may use "`api` only" (the tool, the remote library):
    # a public symbol they take is an edge to the API, whichever file defines it
    tool_like = set(api_only)
    api = [n for n, (p, _) in parts.items() if p.startswith("include/")]
    for a, b, how in inc + links:
        pa, pb = part_of(parts, a), part_of(parts, b)
        if pb is None or pa == pb:
            continue
        if pa in tool_like and how not in ("includes",) and not how.startswith("lgg__") and api:
            pb = api[0]  # a public symbol: the tool uses the API, not the file
            if pb in parts[pa][1]:
                continue
        if pb not in parts[pa][1]:
            what = "includes %s" % b if how == "includes" else "uses %s from %s" % (how, b)
            problems.append("%s (%s) %s (%s): %s may not use %s" % (a, pa, what, pb, pa, pb))
    adj = {}
    for a, b, _ in inc + links:
        adj.setdefault(a, set()).add(b)
    # a .c and its own header are one unit: edges through the header count
    # for the file (parse.c -> file.h -> ... stays one node per name)
    for comp in cycles(set(files), adj):
        problems.append("cycle between files: " + " -> ".join(comp))
    return problems, len(files), len(inc), len(links), n_obj


def self_test():
    """A tree with an upward include, an upward link edge and a cycle must
    give exactly those three findings; the same tree without them none."""
    layout = """# t

| part | path | what | may use |
| --- | --- | --- | --- |
| base | `src/base/` | `b.*` | |
| format | `src/format/` | `f.*`, `g.h` | `base` |
"""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src/base"))
        os.makedirs(os.path.join(root, "src/format"))
        os.makedirs(os.path.join(root, "docs"))
        open(os.path.join(root, LAYOUT), "w").write(layout)
        w = lambda p, t: open(os.path.join(root, p), "w").write(t)
        w("src/base/b.h", "int b(void);\n")
        w("src/format/f.h", "int f(void);\n")
        w("src/format/g.h", '#include "format/f.h"\n')
        w("src/format/f.c", '#include "base/b.h"\n#include "format/g.h"\nint f(void) { return b(); }\n')
        w("src/base/b.c", '#include "base/b.h"\nint b(void) { return 1; }\n')
        p, *_ = check(root, os.path.join(root, "build"))
        if p:
            print("check-deps self-test: a clean tree gave findings:", p)
            return 1
        w("src/format/h.c", "int h(void) { return 0; }\n")
        p, *_ = check(root, os.path.join(root, "build"))
        if len(p) != 1 or "src/format/h.c (format) is not named" not in p[0]:
            print("check-deps self-test: expected the unnamed file src/format/h.c, got:", p)
            return 1
        os.remove(os.path.join(root, "src/format/h.c"))
        w("src/base/b.c", '#include "base/b.h"\n#include "format/f.h"\nint b(void) { return 1; }\n')
        w("src/format/f.h", '#include "format/g.h"\nint f(void);\n')
        p, *_ = check(root, os.path.join(root, "build"))
        up = [x for x in p if "base may not use format" in x]
        cyc = [x for x in p if x.startswith("cycle") and "src/format/f.h" in x and "src/format/g.h" in x]
        if len(up) != 1 or len(cyc) != 1 or len(p) != 2:
            print("check-deps self-test: expected one upward edge and one cycle, got:", p)
            return 1
    print("check-deps self-test: ok (an unnamed file, an upward include and a cycle are found)")
    return 0


def main():
    args = sys.argv[1:]
    if "--self-test" in args:
        return self_test()
    build, root = "build", "."
    while args:
        a = args.pop(0)
        if a == "--build" and args:
            build = args.pop(0)
        elif a == "--root" and args:
            root = args.pop(0)
        else:
            print(__doc__.split("\n\n")[-1], file=sys.stderr)
            return 2
    problems, n_files, n_inc, n_link, n_obj = check(root, os.path.join(root, build) if not os.path.isabs(build) else build)
    for p in problems:
        print("check-deps: " + p)
    if n_obj == 0:
        print("check-deps: no objects under %s/obj: build first (make)" % build)
        return 1
    print("check-deps: %d files, %d include edges, %d link edges (%d objects): %s"
          % (n_files, n_inc, n_link, n_obj, "ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
