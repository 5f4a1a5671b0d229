#!/usr/bin/python3
"""Writes spm/NAME@SHA.txt: what sentencepiece's encode gives (Debian 12's
python3-sentencepiece 0.1.97, run by /usr/bin/python3) for every valid UTF-8
text of texts.inp and of spm_texts.txt (one text a line: NFKC compatibility
forms, full-width and half-width forms, ligatures, combining marks,
whitespace runs and odd spaces), with one tokenizer.model; each line
"i [ids]", the ids preceded by the model's BOS as transformers'
LlamaTokenizer adds it (add_bos_token true, add_eos_token false; these texts
hold no special tokens' texts the slow tokenizer would split out, as
sentencepiece knows no special tokens in text).
Usage (from this directory): ./make_spm_expect.py MODEL...
Made with: ./make_spm_expect.py ../data/unigram-nmt-nfkc.model \\
  ../../../shared/golden/convert/TinyLlama-2-Test-2x32/tokenizer.model
"""
import hashlib, os, sys
import sentencepiece

SEP = b"\n__ggml_vocab_test__\n"
texts = []
for t in open("texts.inp", "rb").read().split(SEP)[:-1] + open("spm_texts.txt", "rb").read().split(b"\n")[:-1]:
    try:
        texts.append(t.decode("utf-8"))
    except UnicodeDecodeError:
        texts.append(None)
os.makedirs("spm", exist_ok=True)
for model in sys.argv[1:]:
    data = open(model, "rb").read()
    sha = hashlib.sha256(data).hexdigest()[:12]
    name = os.path.basename(os.path.dirname(os.path.abspath(model))) if os.path.basename(model) == "tokenizer.model" \
        else os.path.basename(model).removesuffix(".model")
    sp = sentencepiece.SentencePieceProcessor(model_proto=data)
    with open(f"spm/{name}@{sha}.txt", "w") as out:
        for i, t in enumerate(texts):
            if t is None or "<s>" in t or "</s>" in t or "<unk>" in t:
                continue
            ids = ([sp.bos_id()] if sp.bos_id() >= 0 else []) + sp.encode(t)
            out.write(f"{i} {ids}\n")
