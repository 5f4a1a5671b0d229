#!/usr/bin/python3
"""A T5-style (UGM) vocabulary and llama.cpp b4747's ids for it.

1. Writes ../data/t5-unigram-nmt-nfkc.gguf from ../data/unigram-nmt-nfkc.model
   the way convert_hf_to_gguf.py b4747's T5Model.set_vocab does (its code,
   with the checkpoint's parts it reads -- tokenizer.model only, no
   added_tokens.json, no config -- spelled out here: the reference script
   itself imports torch): tokenizer.ggml.model "t5", pre "default", every
   piece with its score and type, add_space_prefix and
   remove_extra_whitespaces from the normalizer spec, its precompiled
   charsmap, add_bos false, add_eos true; gguf-py of the same checkout writes
   the file.
2. Writes t5/t5-unigram-nmt-nfkc.txt: for every text of texts.inp and of
   spm_texts.txt (NFKC forms that need the charsmap), what
     A i [ids]   llama-tokenize -m GGUF -f TEXT --ids --no-escape --log-disable
     B i [ids]   the same with --no-bos --no-parse-special
   prints ("ERROR" when it fails).
Usage (from this directory): ./make_t5_expect.py LLAMA_CPP_CHECKOUT LLAMA_TOKENIZE
Made with: ./make_t5_expect.py /work/ref/llama.cpp /work/ref/llama-build/bin/llama-tokenize
(Debian 12's python3-sentencepiece and python3-numpy.)
"""
import os, subprocess, sys, tempfile

checkout, tool = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(checkout, "gguf-py"))
import gguf  # noqa: E402
from sentencepiece import SentencePieceProcessor  # noqa: E402
from sentencepiece import sentencepiece_model_pb2 as model  # noqa: E402

src, out = "../data/unigram-nmt-nfkc.model", "../data/t5-unigram-nmt-nfkc.gguf"
# --- T5Model.set_vocab, b4747 ---
sentencepiece_model = model.ModelProto()
sentencepiece_model.ParseFromString(open(src, "rb").read())
assert sentencepiece_model.trainer_spec.model_type == 1  # UNIGRAM
add_prefix = sentencepiece_model.normalizer_spec.add_dummy_prefix
remove_whitespaces = sentencepiece_model.normalizer_spec.remove_extra_whitespaces
precompiled_charsmap = sentencepiece_model.normalizer_spec.precompiled_charsmap
tokenizer = SentencePieceProcessor()
tokenizer.LoadFromFile(src)
vocab_size = tokenizer.vocab_size()
T = gguf.SentencePieceTokenTypes if hasattr(gguf, "SentencePieceTokenTypes") else None
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
tokens = [f"[PAD{i}]".encode("utf-8") for i in range(vocab_size)]
scores = [-10000.0] * vocab_size
toktypes = [UNUSED] * vocab_size
for token_id in range(tokenizer.vocab_size()):
    piece = tokenizer.IdToPiece(token_id)
    toktype = NORMAL
    if tokenizer.IsUnknown(token_id):
        toktype = UNKNOWN
    elif tokenizer.IsControl(token_id):
        toktype = CONTROL
    elif tokenizer.IsUnused(token_id):
        toktype = UNUSED
    elif tokenizer.IsByte(token_id):
        toktype = BYTE
    tokens[token_id] = piece.encode("utf-8")
    scores[token_id] = tokenizer.GetScore(token_id)
    toktypes[token_id] = toktype
w = gguf.GGUFWriter(out, "t5")
w.add_name("t5-unigram-nmt-nfkc")
w.add_tokenizer_model("t5")
w.add_tokenizer_pre("default")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(toktypes)
w.add_add_space_prefix(add_prefix)
w.add_remove_extra_whitespaces(remove_whitespaces)
if precompiled_charsmap:
    w.add_precompiled_charsmap(precompiled_charsmap)
w.add_add_bos_token(False)
w.add_add_eos_token(True)
w.write_header_to_file()
w.write_kv_data_to_file()
w.close()

# --- llama-tokenize on the texts ---
SEP = b"\n__ggml_vocab_test__\n"
texts = open("texts.inp", "rb").read().split(SEP)[:-1] + open("spm_texts.txt", "rb").read().split(b"\n")[:-1]
os.makedirs("t5", exist_ok=True)
lines = []
for i, t in enumerate(texts):
    with tempfile.NamedTemporaryFile() as f:
        f.write(t)
        f.flush()
        for mode, extra in (("A", []), ("B", ["--no-bos", "--no-parse-special"])):
            r = subprocess.run([tool, "-m", out, "-f", f.name, "--ids", "--no-escape", "--log-disable"] + extra,
                               capture_output=True)
            o = r.stdout.decode().strip().split("\n")[-1]
            lines.append(f"{mode} {i} {o if r.returncode == 0 and o.startswith('[') else 'ERROR'}\n")
open("t5/t5-unigram-nmt-nfkc.txt", "w").writelines(lines)
