#!/usr/bin/env python3
"""Write tests/data/master-architectures.tsv: every architecture name that
llama.cpp master's converter registers (conversion/__init__.py's
TEXT_MODEL_MAP and MMPROJ_MODEL_MAP), with the module that converts it.

    python3 scripts/master-architectures.py [GIT_DIR [COMMIT]]

GIT_DIR is a clone of llama.cpp (default: the mirror `fetch
github:ngxson/llama.cpp` makes); COMMIT defaults to the pinned one that
docs/reference.md names.  The output is sorted, so the same input gives the
same bytes.  It is read by tests/test_convert_names.c.
"""
import ast
import subprocess
import sys

GIT_DIR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/ngxson+llama.cpp/repo"
COMMIT = sys.argv[2] if len(sys.argv) > 2 else "3f545beccee69d9975f466ec7e45fd9aacd8ba90"
OUT = "tests/data/master-architectures.tsv"


def registered_maps(source):
    """The two dicts as Python data, read from the module's syntax tree (not run)."""
    maps = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        else:
            continue
        if name in ("TEXT_MODEL_MAP", "MMPROJ_MODEL_MAP"):
            maps[name] = ast.literal_eval(value)
    return maps


def main():
    src = subprocess.run(["git", "--git-dir", GIT_DIR, "show", COMMIT + ":conversion/__init__.py"],
                         check=True, capture_output=True, text=True).stdout
    maps = registered_maps(src)
    rows = [(n, "text", m) for n, m in maps["TEXT_MODEL_MAP"].items()]
    rows += [(n, "mmproj", m) for n, m in maps["MMPROJ_MODEL_MAP"].items()]
    rows.sort()
    with open(OUT, "w") as f:
        f.write("# architecture\tkind\tmodule  (llama.cpp %s, conversion/__init__.py; "
                "scripts/master-architectures.py)\n" % COMMIT[:9])
        for r in rows:
            f.write("\t".join(r) + "\n")
    print("%s: %d text, %d mmproj" % (OUT, len(maps["TEXT_MODEL_MAP"]), len(maps["MMPROJ_MODEL_MAP"])))


if __name__ == "__main__":
    main()
