#!/bin/sh
# Writes the stdout of the tokenize CLI cases (tests/cli/tokenize-*.out) from
# llama.cpp b4747's llama-tokenize, run on the same vocabulary and bytes.
# Usage (from the repository's root): tests/tokenize/make_cli.sh LLAMA_TOKENIZE SHARED_DIR
set -e
LT=$1
V=$2/corpus/llama.cpp
lt() { "$LT" --log-disable --no-escape "$@"; }
lt -m $V/ggml-vocab-gpt-2@5ea85cf5.gguf -p "Hello world, it's 🦙" > tests/cli/tokenize-gpt2.out
lt -m $V/ggml-vocab-llama-spm@658295a5.gguf -p "Hello world" --ids > tests/cli/tokenize-spm-ids.out
lt -m $V/ggml-vocab-phi-3@745be416.gguf -p "<|user|>hi <|end|> x" --ids --no-bos --no-parse-special \
    > tests/cli/tokenize-no-special.out
lt -m $V/ggml-vocab-phi-3@745be416.gguf -p "<|user|>hi <|end|> x" > tests/cli/tokenize-phi3-special.out
lt -m $V/ggml-vocab-bert-bge@b2cbd5df.gguf --stdin < tests/tokenize/stdin.txt > tests/cli/tokenize-stdin.out
lt -m $V/ggml-vocab-falcon@334d50da.gguf -f tests/tokenize/stdin.txt --ids > tests/cli/tokenize-file.out
# --json: the ids of --ids and the pieces of the default lines
M=$V/ggml-vocab-deepseek-llm@5d66091c.gguf
T="x = 12345 + 'ab'  # 注释"
python3 - "$(lt -m $M -p "$T" --ids)" "$(lt -m $M -p "$T")" > tests/cli/tokenize-json.out <<'PY'
import json, re, sys
ids = json.loads(sys.argv[1])
pieces = re.findall(r"^ *-?\d+ -> '(.*?)'\n(?= *-?\d+ -> '|\Z)", sys.argv[2] + "\n", re.M | re.S)
print(json.dumps({"ids": ids, "pieces": pieces}, ensure_ascii=False))
PY
