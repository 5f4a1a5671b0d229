#!/usr/bin/env python3
"""Write tests/data/master-pre-hashes.tsv: llama.cpp master's table of BPE
pre-tokenizer check hashes (conversion/base.py, get_vocab_base_pre: each
`if chkhsh == HASH: res = NAME`), one row per hash with the name the
reference gives it (a later entry of a hash wins, as its chain of `if`s
makes it), in the table's order of first appearance.

    python3 scripts/master-pre-hashes.py [GIT_DIR [COMMIT]]

GIT_DIR is a clone of llama.cpp (default: the mirror `fetch
github:ngxson/llama.cpp` makes); COMMIT defaults to the pinned one that
docs/reference.md names.  With --check, it writes nothing and prints the
rows of the file that differ from src/convert/bpe.c's table (exit 1 if any).
It is read by tests/test_tokenize.c (tokenize_pre_master_table).
"""
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != "--check"]
GIT_DIR = args[0] if args else "/work/.mirror/ngxson+llama.cpp/repo"
COMMIT = args[1] if len(args) > 1 else "3f545beccee69d9975f466ec7e45fd9aacd8ba90"
OUT = "tests/data/master-pre-hashes.tsv"
ROW = re.compile(r'if chkhsh == "([0-9a-f]{64})":\s*\n(?:\s*#.*\n)*\s*res = "([^"]+)"')


def master_table():
    src = subprocess.run(["git", "--git-dir", GIT_DIR, "show", COMMIT + ":conversion/base.py"],
                         check=True, capture_output=True, text=True).stdout
    body = src[src.index("def get_vocab_base_pre"):]
    table = {}
    for h, name in ROW.findall(body):
        table[h] = name  # a later entry wins; the first appearance keeps its place
    return table


def ours():
    table = {}
    for h, name in re.findall(r'\{"([0-9a-f]{64})", "([^"]+)"\}', open("src/convert/bpe.c").read()):
        table[h] = name
    return table


def main():
    table = master_table()
    if "--check" in sys.argv:
        mine = ours()
        bad = [(h, n, mine.get(h)) for h, n in table.items() if mine.get(h) != n]
        for h, n, m in bad:
            print("%s\tmaster %s\tours %s" % (h, n, m))
        print("%d hashes in master's table, %d differ from src/convert/bpe.c" % (len(table), len(bad)))
        sys.exit(1 if bad else 0)
    with open(OUT, "w") as f:
        f.write("# llama.cpp %s conversion/base.py get_vocab_base_pre: check hash, tokenizer.ggml.pre "
                "(scripts/master-pre-hashes.py)\n" % COMMIT[:9])
        for h, name in table.items():
            f.write("%s\t%s\n" % (h, name))
    print("%d hashes -> %s" % (len(table), OUT))


main()
