#!/bin/sh
# convert_reference.sh -- remake the reference sha256s recorded in
# tests/test_convert_more.c: the test writes its checkpoints (kept with
# LGG_TEST_KEEP), then llama.cpp b4747's convert_hf_to_gguf.py converts each
# one in every outtype; prints "MODEL OUTTYPE SHA256" lines.  A model whose
# name ends in "-rms-eps", "-add-bos" or "-pad-id", or names Arctic, runs through
# convert_reference_nodup.py (the reference without its duplicate-key failure and
# its parameter count's failure on Arctic's 1-D ffn_norm_exps); one named
# DeciLM-* or *-HfVocab-* runs through convert_reference_hfft.py (the AutoTokenizer stand-in
# with what gguf-py's LlamaHfVocab also asks of it).
#
#   [LGG_REF_TEST=NAME] tests/convert_reference.sh LLAMA_CPP NODE_DIR [MODEL...]
#
# LGG_REF_ARGS: more arguments for the reference (--no-lazy: Debian's torch
# 1.13 cannot run Chameleon's repeat_interleave on its lazy meta tensors).
# LGG_REF_TYPES: the outtypes to write (default "f32 f16 bf16 q8_0 auto"),
# e.g. LGG_REF_TYPES=f16 to check one quickly.
#
# LGG_REF_GLM3_PY: ChatGLM3-6B's tokenization_chatglm.py (the checkpoint's
# own code, not in this repository), copied into each checkpoint whose
# config.json names THUDM/chatglm3-6b: the reference runs it
# (trust_remote_code) through the stand-ins of tests/ref-shims.
# LGG_REF_QWEN_PY: Qwen-7B's tokenization_qwen.py (the checkpoint's own code,
# not in this repository), copied into each checkpoint that has a
# qwen.tiktoken: the reference runs it (trust_remote_code) through the
# stand-ins of tests/ref-shims (they need `npm install tiktoken` in NODE_DIR).
#
# LGG_REF_TEST: the test (a test-runner prefix) that writes the checkpoints
# under its scratch folder's more/ (default convert_more_families; each
# tests/test_convert_*.c family group has its own).
#
# LLAMA_CPP: a b4747 work tree; NODE_DIR: where `npm install tokenizers` was
# run; the shims are ../shared/golden/convert/reference/shims (see its
# README.md for the Debian packages).  Run from the repository's root after
# `make build/test_runner`.
set -eu
ref=$1 node=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
shims=$(cd ../shared/golden/convert/reference/shims && pwd)
keep=$(mktemp -d)
LGG_TEST_KEEP=1 TMPDIR=$keep ./build/test_runner "${LGG_REF_TEST:-convert_more_families}" >/dev/null 2>&1 || true
models=$(ls -d "$keep"/lggtest.*/more/*/ | sed 's:/$::')
for dir in $models; do
    name=$(basename "$dir")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    if grep -q 'THUDM/chatglm3-6b' "$dir/config.json" 2>/dev/null; then
        cp "${LGG_REF_GLM3_PY:?ChatGLM3 needs LGG_REF_GLM3_PY=tokenization_chatglm.py}" "$dir/tokenization_chatglm.py"
    fi
    if [ -f "$dir/qwen.tiktoken" ]; then
        cp "${LGG_REF_QWEN_PY:?Qwen (v1) needs LGG_REF_QWEN_PY=tokenization_qwen.py}" "$dir/tokenization_qwen.py"
    fi
    for t in ${LGG_REF_TYPES:-f32 f16 bf16 q8_0 auto}; do
        out=$keep/$name.$t.gguf
        case $name in
        *-rms-eps | *-add-bos | *-pad-id | *arctic*) run="$here/convert_reference_nodup.py $ref" ;;
        DeciLM-* | *-HfVocab-*) run="$here/convert_reference_hfft.py $ref" ;;
        *) run=$ref/convert_hf_to_gguf.py ;;
        esac
        # shellcheck disable=SC2086 # run is a script and maybe its first argument
        # the transformers/tiktoken stand-ins of tests/ref-shims over the shared ones
        PYTHONPATH=$here/ref-shims:$shims:$ref/gguf-py NODE_PATH=$node/node_modules \
            /usr/bin/python3 $run ${LGG_REF_ARGS:-} --outtype $t --outfile "$out" "$dir" >"$keep/$name.$t.log" 2>&1 ||
            { echo "$name $t FAILED (see $keep/$name.$t.log)"; continue; }
        echo "$name $t $(sha256sum "$out" | cut -d' ' -f1)"
        rm -f "$out"
    done
done
echo "checkpoints kept in $keep" >&2
