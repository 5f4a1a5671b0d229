#!/bin/sh
# convert_master_sweep.sh -- remake tests/data/convert-master-sweep.tsv: llama.cpp
# master's converter run on the checkpoints of b4747's family tests, the
# bytes `gguf convert --target master` is held to (convert_cases.c's
# cv_case_check and the family tests with their own loops look each
# checkpoint up there).
#
#   tests/convert_master_sweep.sh LLAMA_MASTER NODE_DIR > tests/data/convert-master-sweep.tsv
#
# LLAMA_MASTER: a work tree of llama.cpp master at 3f545becc; NODE_DIR: where
# `npm install tokenizers` was run (as for tests/convert_master_reference.sh,
# whose stand-ins this uses).  Run from the repository's root after
# `make build/test_runner`.
#
# Each line: MODEL, then either the sha256s of master's f16 and q8_0 outputs,
# or "keep-b4747" and why (master fails on the checkpoint, or writes a file
# its own loader refuses: a regression, so target master writes b4747's
# bytes), or "no-reference" and why (the stand-ins cannot run master's path
# here: trust_remote_code tokenizers, LlamaHfVocab's tokenizer attributes).
set -eu
ref=$1 node=$2
shims=$(cd tests/ref-shims/master && pwd):$(cd ../shared/golden/convert-master/shims && pwd)
keep=$(mktemp -d)
# the tests that write b4747's family checkpoints
TESTS="convert_more_families convert_famB_families convert_famC_families convert_famD_families
convert_embed_families convert_deci_families convert_qwen1_families convert_bitnet_families convert_wav_families
convert_gpt2 convert_gptneox convert_falcon convert_internlm2 convert_internlm3 convert_starcoder
convert_granitemoe convert_grok convert_phimoe convert_arctic convert_exaone convert_mixtral_experts
convert_plamo_13b_attention convert_glm3_chatglm3"
# master succeeds but its file does not load in master (name:why)
KEEP="EXAONE-3.5-tiny-Instruct:master's ExaoneModel writes attention.layer_norm_epsilon from layer_norm_epsilon, but its loader requires layer_norm_rms_epsilon"
# shellcheck disable=SC2086 # the test names are words
LGG_TEST_KEEP=1 TMPDIR=$keep ./build/test_runner $TESTS >/dev/null 2>&1 || true
for dir in $(ls -d "$keep"/lggtest.*/more/*/ "$keep"/lggtest.*/*/ | sed 's:/$::' | sort -u); do
    [ -f "$dir/config.json" ] || continue
    name=$(basename "$dir")
    why=$(printf '%s\n' "$KEEP" | sed -n "s/^$name://p")
    if [ -n "$why" ]; then printf '%s\tkeep-b4747\t%s\n' "$name" "$why"; continue; fi
    line=$name
    for t in f16 q8_0; do
        out=$keep/$name.$t.gguf
        args= run=$ref/convert_hf_to_gguf.py
        case $name in chameleon-*) args=--no-lazy ;; esac # torch 1.13's meta tensors lack repeat_interleave
        # gguf-py's LlamaHfVocab asks the tokenizer for is_fast, all_special_tokens and all_special_ids
        case $name in DeciLM-*) run="$(pwd)/tests/convert_reference_hfft.py $ref" ;; esac
        # shellcheck disable=SC2086
        if PYTHONPATH=$shims:$ref/gguf-py NODE_PATH=$node/node_modules \
            /usr/bin/python3 $run $args --outtype "$t" --outfile "$out" "$dir" >"$keep/$name.log" 2>&1; then
            line="$line	$(sha256sum "$out" | cut -d' ' -f1)"
            rm -f "$out"
            continue
        fi
        err=$(grep -E '^[A-Za-z.]*(Error|Exception)' "$keep/$name.log" | tail -1 | cut -c1-160)
        case $err in
        *"stand-in"* | *"is_fast"* | *"tokenizer helper"* | *"all_special"*) line="$name	no-reference	master's converter under the stand-ins: $err" ;;
        *) line="$name	keep-b4747	master fails: $err" ;;
        esac
        break
    done
    printf '%s\n' "$line"
done
echo "checkpoints kept in $keep" >&2
# A refusal case both converters refuse (bitnet_b1_58-tiny-with-head) is not a
# checkpoint the tests convert: its line was left out of the committed file.
