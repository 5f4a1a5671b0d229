"""Rebuilds the tokenizer.json a llama.cpp vocabulary GGUF (models/ggml-vocab-NAME.gguf)
came from: its tokens, token types (control: special, user-defined: normalized added
tokens) and merges, with the pre-tokenizer the original checkpoint declares (gpt-2,
gpt-neox, starcoder, falcon).  Usage: rebuild_json.py GGUF_TOOL VOCAB.gguf OUT_DIR KIND"""
import json, subprocess, sys, os
tool, gguf, out, kind = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def get(key):
    r = subprocess.run([tool, "get", "--json", gguf, key], capture_output=True, text=True)
    if r.returncode: return None
    v = json.loads(r.stdout)
    return v["items"] if isinstance(v, dict) and "items" in v else v
toks, types, merges = get("tokenizer.ggml.tokens"), get("tokenizer.ggml.token_type"), get("tokenizer.ggml.merges")
vocab = {}; added = []
for i, (t, ty) in enumerate(zip(toks, types)):
    if ty in (3, 4): added.append({"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": ty == 4, "special": ty == 3})
    vocab[t] = i
BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
pre = {"gpt2": BL, "neox": BL,
       "starcoder": {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, BL]},
       "falcon": {"type": "Sequence", "pretokenizers": [{"type": "Punctuation", "behavior": "Contiguous"}, {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}, {"type": "Digits", "individual_digits": False}, {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"}, "behavior": "Isolated", "invert": False}]}}[kind]
norm = {"type": "NFC"} if kind == "neox" else None
j = {"version": "1.0", "added_tokens": added, "normalizer": norm, "pre_tokenizer": pre, "post_processor": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}, "decoder": {"type": "ByteLevel"},
     "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "", "end_of_word_suffix": "", "fuse_unk": False, "vocab": vocab, "merges": merges}}
os.makedirs(out, exist_ok=True)
json.dump(j, open(out + "/tokenizer.json", "w"), ensure_ascii=False)

