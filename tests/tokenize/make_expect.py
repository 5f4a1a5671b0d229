#!/usr/bin/env python3
"""Writes expect/VOCAB@SHA.txt: what llama.cpp b4747's llama-tokenize prints
for every text of texts.inp with one vocabulary, in two modes per text:

  A i [ids]   llama-tokenize -m VOCAB -f TEXT --ids --no-escape --log-disable
              (BOS/EOS as the vocabulary asks, special tokens parsed)
  B i [ids]   the same with --no-bos --no-parse-special

"ERROR" stands for a run that failed (llama.cpp throws or aborts on the text).
Usage: make_expect.py LLAMA_TOKENIZE VOCAB.gguf...   (from this directory)
Made with: ./make_expect.py /work/ref/llama-build/bin/llama-tokenize \\
  /work/ref/llama.cpp/models/ggml-vocab-*.gguf ../../../shared/corpus/llama.cpp/ggml-vocab-{falcon,stablelm,deepseek-coder}@*.gguf
and, for fuzz/tok_vocabs.h's small vocabularies (BPE under every pre-tokenizer
name, SPM, WPM, UGM, RWKV): tests/tokenize/write_vocabs.c /tmp/synth, then
./make_expect.py LLAMA_TOKENIZE /tmp/synth/*.gguf
(the corpus's dbrx and llama files were left out: llama.cpp refuses those
files as files -- a duplicate key, GGUF v1, a byte-swapped magic -- before
their vocabulary is read).
"""
import hashlib, os, subprocess, sys, tempfile

SEP = b"\n__ggml_vocab_test__\n"
raw = open("texts.inp", "rb").read()
texts = raw.split(SEP)[:-1]
tool = sys.argv[1]
os.makedirs("expect", exist_ok=True)
for vocab in sys.argv[2:]:
    data = open(vocab, "rb").read()
    sha = hashlib.sha256(data).hexdigest()[:12]
    name = os.path.basename(vocab).split("@")[0].removesuffix(".gguf")
    lines = []
    for i, t in enumerate(texts):
        with tempfile.NamedTemporaryFile() as f:
            f.write(t)
            f.flush()
            for mode, extra in (("A", []), ("B", ["--no-bos", "--no-parse-special"])):
                r = subprocess.run([tool, "-m", vocab, "-f", f.name, "--ids", "--no-escape", "--log-disable"] + extra,
                                   capture_output=True)
                out = r.stdout.decode().strip()
                ok = r.returncode == 0 and out.startswith("[")
                lines.append("%s %d %s" % (mode, i, out if ok else "ERROR"))
    path = "expect/%s@%s.txt" % (name, sha)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(path, sum("ERROR" in l for l in lines), "errors")
