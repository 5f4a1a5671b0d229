#!/usr/bin/env python3
"""Writes hf/*.json: small tokenizer.json files that exercise the components
the tokenizer part implements (normalizers, Split behaviors, ByteLevel
options, post-processors, added-token flags, byte fallback), for the
differential test against Hugging Face's tokenizers (tests/test_tokenize.c
runs both on every text).  Run from this directory."""
import json, os

def bl(b):  # GPT-2's printable code point of a byte
    if 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xAC or 0xAE <= b: return chr(b)
    if b <= 0x20: return chr(0x100 + b)
    if b <= 0xA0: return chr(0x121 + b - 0x7F)
    return chr(0x143)

WORDS = ["the", "Ġthe", "he", "th", "an", "Ġa", "ll", "llo", "hello", "Ġhello", "12", "123", "in", "ing", "er", "Ġw", "wor", "world"]
def bytelevel_vocab():
    v = {}
    for b in range(256): v.setdefault(bl(b), len(v))
    for w in WORDS: v.setdefault(w, len(v))
    merges = ["t h", "th e", "Ġ the", "h e", "a n", "Ġ a", "l l", "ll o", "he llo", "Ġ hello", "1 2", "12 3",
              "i n", "in g", "e r", "Ġ w", "w or", "o r", "wor l", "worl d"]
    v.setdefault("or", len(v)); v.setdefault("worl", len(v))
    return v, merges

def spm_vocab():
    v = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256): v["<0x%02X>" % b] = len(v)
    for w in ["▁", "▁t", "▁th", "▁the", "h", "e", "t", "l", "o", "▁h", "he", "ll", "llo", "▁hello", "a", "n", "▁a", "1", "2", "12", "▁he"]:
        v.setdefault(w, len(v))
    merges = ["▁ t", "▁t h", "▁th e", "h e", "l l", "ll o", "▁ h", "▁h e", "1 2", "▁ a"]
    return v, merges

ADDED = [{"id": 0, "content": "<s>", "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True},
         {"id": 0, "content": "<|end|>", "single_word": False, "lstrip": True, "rstrip": True, "normalized": False, "special": True},
         {"id": 0, "content": "hello", "single_word": True, "lstrip": False, "rstrip": False, "normalized": True, "special": False},
         {"id": 0, "content": "WORLD", "single_word": False, "lstrip": False, "rstrip": False, "normalized": True, "special": False}]

def build(name, vocab, merges, normalizer=None, pre=None, post=None, model_extra=None, added=True):
    v = dict(vocab)
    toks = []
    if added:
        for a in ADDED:
            a = dict(a)
            a["id"] = v.setdefault(a["content"], len(v))
            toks.append(a)
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "vocab": v, "merges": merges}
    model.update(model_extra or {})
    j = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": toks, "normalizer": normalizer,
         "pre_tokenizer": pre, "post_processor": post, "decoder": None, "model": model}
    json.dump(j, open("hf/%s.json" % name, "w"), ensure_ascii=False, indent=1)

os.makedirs("hf", exist_ok=True)
v, m = bytelevel_vocab()
BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
build("bytelevel-regex", v, m, pre=BL)
build("bytelevel-prefix", v, m, pre=dict(BL, add_prefix_space=True))
build("bytelevel-noregex-nfkc", v, m, normalizer={"type": "NFKC"}, pre=dict(BL, use_regex=False))
build("nfd-strip", v, m, normalizer={"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "Strip", "strip_left": True, "strip_right": True}]}, pre=BL)
build("nfkd-replace-regex", v, m, normalizer={"type": "Sequence", "normalizers": [{"type": "NFKD"}, {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "}]}, pre=BL)
for beh in ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]:
    for inv in [False, True]:
        split = {"type": "Split", "pattern": {"Regex": "\\p{N}+|[.,!?]"}, "behavior": beh, "invert": inv}
        build("split-%s%s" % (beh, "-invert" if inv else ""), v, m, normalizer={"type": "NFC"},
              pre={"type": "Sequence", "pretokenizers": [split, dict(BL, use_regex=False)]})
build("split-string", v, m, pre={"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithNext", "invert": False}, dict(BL, use_regex=False)]})
for name, pt in [("whitespace", {"type": "Whitespace"}), ("whitespace-split", {"type": "WhitespaceSplit"}),
                 ("digits-individual", {"type": "Digits", "individual_digits": True}),
                 ("digits", {"type": "Digits", "individual_digits": False}),
                 ("punctuation", {"type": "Punctuation", "behavior": "Isolated"}),
                 ("punctuation-contiguous", {"type": "Punctuation", "behavior": "Contiguous"}),
                 ("bert-pre", {"type": "BertPreTokenizer"})]:
    build("pre-" + name, v, m, pre={"type": "Sequence", "pretokenizers": [pt, dict(BL, use_regex=False)]})
for name, nm in [("lowercase", {"type": "Lowercase"}), ("strip-accents", {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]}),
                 ("bert", {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": None, "lowercase": True}),
                 ("bert-cased", {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False})]:
    build("norm-" + name, v, m, normalizer=nm, pre=BL)
tp = {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "<|end|>", "type_id": 0}}],
      "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}], "special_tokens": {"<s>": {"id": "<s>", "ids": [len(v)], "tokens": ["<s>"]}, "<|end|>": {"id": "<|end|>", "ids": [len(v) + 1], "tokens": ["<|end|>"]}}}
build("template", v, m, pre=BL, post={"type": "Sequence", "processors": [{"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True}, tp]})
build("bert-post", v, m, pre=BL, post={"type": "BertProcessing", "sep": ["<|end|>", len(v) + 1], "cls": ["<s>", len(v)]})
build("roberta-post", v, m, pre=BL, post={"type": "RobertaProcessing", "sep": ["<|end|>", len(v) + 1], "cls": ["<s>", len(v)], "trim_offsets": True, "add_prefix_space": False})
build("ignore-merges", v, m, pre=BL, model_extra={"ignore_merges": True})
sv, sm = spm_vocab()
SPM_NORM = {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}
build("spm-bytefallback", sv, sm, normalizer=SPM_NORM, model_extra={"byte_fallback": True, "unk_token": "<unk>", "fuse_unk": True})
build("spm-unk-fused", sv, sm, normalizer=SPM_NORM, model_extra={"unk_token": "<unk>", "fuse_unk": True})
build("spm-unk", sv, sm, normalizer=SPM_NORM, model_extra={"unk_token": "<unk>"})
build("spm-split-prev", sv, sm, normalizer={"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
      pre={"type": "Split", "pattern": {"String": "▁"}, "behavior": "MergedWithPrevious", "invert": False}, model_extra={"byte_fallback": True})
for name, ms in [("always-split", {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}),
                 ("first", {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": False}),
                 ("first-split", {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True}),
                 ("never-split", {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True})]:
    build("metaspace-" + name, sv, sm, pre=ms, model_extra={"byte_fallback": True, "unk_token": "<unk>"})

# ---- WordPiece and Unigram on small vocabularies (the real ones are written
# by make_hf_models.js); a hand-built precompiled_charsmap ----
def darts(keys):
    """sentencepiece's precompiled_charsmap for {bytes: replacement}: a Darts
    double array (unit: offset << 10 | has_leaf << 8 | label; a value unit
    has bit 31 set), then the replacements, each ending in NUL"""
    trie = {}
    for k in keys:
        n = trie
        for c in k: n = n.setdefault(c, {})
        n[None] = True
    norm, val = b"", {}
    for k, r in keys.items():
        val[k] = len(norm)
        norm += r.encode() + b"\0"
    units, bases = {}, set()
    def place(pos, node, label, prefix):
        kids = sorted(c for c in node if c is not None)
        leaf = None in node
        slots = kids + ([0] if leaf else [])
        base = 1
        while any((base ^ c) in units or (base ^ c) == 0 for c in slots) or base == pos or base in bases: base += 1
        bases.add(base)  # a base of its own, so no other node's child answers for a label
        units[pos] = ((pos ^ base) << 10) | (int(leaf) << 8) | label
        for c in kids: units[base ^ c] = None  # reserve
        if leaf: units[base] = (1 << 31) | val[bytes(prefix)]
        for c in kids: place(base ^ c, node[c], c, prefix + [c])
    place(0, trie, 0, [])
    # whole blocks of 256, as Darts allocates them: every base ^ byte is inside the array
    arr = [units.get(i) or 0 for i in range((max(max(units), max(bases)) // 256 + 1) * 256)]
    return (4 * len(arr)).to_bytes(4, "little") + b"".join(u.to_bytes(4, "little") for u in arr) + norm

import base64
CHARSMAP = base64.b64encode(darts({"A".encode(): "a", "ﬁ".encode(): "fi", "e\u0301".encode(): "é", "１".encode(): "1",
                                   "①".encode(): "(1)", "\u3000".encode(): " ", "\u200b".encode(): "", "Å".encode(): "A"})).decode()

def dump(name, model, normalizer=None, pre=None, post=None, decoder=None, added=()):
    j = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": list(added), "normalizer": normalizer,
         "pre_tokenizer": pre, "post_processor": post, "decoder": decoder, "model": model}
    json.dump(j, open("hf/%s.json" % name, "w"), ensure_ascii=False, indent=1)

WP = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2}
for w in ["hello", "world", "wor", "@@ld", "@@l", "@@d", "he", "@@llo", "@@lo", "un", "@@aff", "@@able", "x", "@@x", "1", "@@2", "12", "@@3",
          "a", "b", "@@a", "@@b", ".", ",", "!", "'", "s", "@@s", "do", "not", "n", "@@'", "t"]:
    WP.setdefault(w, len(WP))
SPECIAL = lambda i, c: {"id": i, "content": c, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
dump("wordpiece-prefix", {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "@@", "max_input_chars_per_word": 6, "vocab": WP},
     normalizer={"type": "Lowercase"}, pre={"type": "BertPreTokenizer"},
     post={"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]},
     decoder={"type": "WordPiece", "prefix": "@@", "cleanup": False}, added=[SPECIAL(0, "[UNK]"), SPECIAL(1, "[CLS]"), SPECIAL(2, "[SEP]")])
UG = [["<unk>", 0.0], ["<pad>", 0.0], ["▁", -2.0], ["a", -3.0], ["b", -3.5], ["ab", -4.0], ["▁a", -3.2], ["▁ab", -5.5], ["abc", -6.0],
      ["c", -4.5], ["fi", -4.0], ["f", -5.0], ["i", -5.0], ["1", -3.0], ["(", -4.0], [")", -4.0], ["é", -3.0], ["e", -3.0], ["▁▁", -1.0],
      ["hello", -8.0], ["hel", -5.0], ["lo", -4.0], ["l", -4.1], ["h", -4.2], ["o", -4.3], ["▁hello", -7.0], ["b", -1.0]]
dump("unigram-charsmap-ctc", {"type": "Unigram", "unk_id": 0, "vocab": UG, "byte_fallback": False},
     normalizer={"type": "Sequence", "normalizers": [{"type": "Precompiled", "precompiled_charsmap": CHARSMAP}, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
     pre={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
     decoder={"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "▁", "cleanup": True}, added=[SPECIAL(1, "<pad>")])
dump("unigram-bytes-metaspace", {"type": "Unigram", "unk_id": 0, "vocab": UG + [["<0x%02X>" % b, -10.0] for b in range(256)], "byte_fallback": True},
     pre={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": False},
     decoder={"type": "Sequence", "decoders": [{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": False}, {"type": "ByteFallback"}]})
# ---- older files whose model has no "type": Hugging Face's library infers
# the model from the fields present (BPE, WordPiece, then Unigram) ----
for src, dst in [("bytelevel-regex", "untyped-bpe"), ("spm-bytefallback", "untyped-bpe-spm"),
                 ("wordpiece-prefix", "untyped-wordpiece"), ("unigram-bytes-metaspace", "untyped-unigram")]:
    j = json.load(open("hf/%s.json" % src))
    del j["model"]["type"]
    json.dump(j, open("hf/%s.json" % dst, "w"), ensure_ascii=False, indent=1)
print(len(os.listdir("hf")), "files")
