#!/bin/sh
# convert_refopts_reference.sh -- remake the sha256s of the seeded checkpoint
# that tests/test_convert_refopts.c records (SEEDED_SET, SEEDED_SPLITS):
# test_convert_embed.c writes its checkpoints (LGG_EMBED_CHECKPOINTS), then
# llama.cpp b4747's convert_hf_to_gguf.py converts bge-reranker-tiny-test
# with --metadata (the test's META), --model-name, --bigendian and the
# split options; prints "OPTIONS: SHA256 FILE" lines, shards in order.
#
#   tests/convert_refopts_reference.sh LLAMA_CPP
#
# LLAMA_CPP: a work tree of llama.cpp c392e5094 (b4747), e.g.
#   git -C MIRROR archive c392e5094deaf2d1a7c18683214f007fad3fe42b convert_hf_to_gguf.py gguf-py | tar -x -C DIR
# Debian's python3-numpy, python3-torch, python3-sentencepiece,
# python3-protobuf, python3-yaml and python3-tqdm, and the shims of
# ../shared/golden/convert/reference/shims (its README.md).  Run from the
# repository's root after `make build/test_runner`.
set -eu
ref=$1
shims=$(cd ../shared/golden/convert/reference/shims && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
LGG_EMBED_CHECKPOINTS=$work ./build/test_runner convert_embed_families >/dev/null
python3 - tests/test_convert_refopts.c "$work/meta.json" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
body = re.search(r'static const char META\[\] =\n(.*?);\n', src, re.S).group(1)
text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)).encode().decode("unicode_escape")
open(sys.argv[2], "w").write(text)
PY
cd "$work"
conv() {
    PYTHONPATH="$shims:$ref/gguf-py" /usr/bin/python3 "$ref/convert_hf_to_gguf.py" "$@" >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; exit 1; }
}
show() { # label, folder
    (cd "$2" && for f in $(ls | sort); do printf '%s: %s %s\n' "$1" "$(sha256sum "$f" | cut -d' ' -f1)" "$f"; done)
}
model=bge-reranker-tiny-test
mkdir meta name be
conv --outtype f16 --metadata meta.json --outfile meta $model && show "--metadata" meta
conv --outtype f16 --model-name "My Model" --outfile name $model && show "--model-name" name
conv --outtype f16 --bigendian --no-lazy --outfile be/be16.gguf $model
conv --outtype f32 --bigendian --no-lazy --outfile be/be32.gguf $model && show "--bigendian (be16 f16, be32 f32)" be
i=0
while read -r t o v f; do
    i=$((i + 1))
    mkdir "sp$i"
    # shellcheck disable=SC2086 # $f: an option or nothing
    conv --outtype "$t" "$o" "$v" $f --outfile "sp$i/sp.gguf" $model && show "$t $o $v $f" "sp$i"
done <<'CASES'
f16 --split-max-size 200K
q8_0 --split-max-size 100K
bf16 --split-max-tensors 20 --no-tensor-first-split
f32 --split-max-tensors 100
f16 --split-max-size 200K --no-tensor-first-split
CASES
