#!/bin/sh
# golden-quantize-master.sh -- regenerate tests/data/quantize-master.tsv: the
# exit status and output sha256 of llama.cpp master's llama-quantize on the
# tiny seeded models of tests/quant_master_models.h (docs/reference.md,
# "gguf quantize against llama.cpp master's llama-quantize").
#
#   scripts/golden-quantize-master.sh
#
# Environment (defaults in brackets):
#   LLAMA_QUANTIZE  master's llama-quantize [/work/ref-llama-master/build/bin/llama-quantize]
#   WORK            a scratch directory outside the repository [/tmp/golden-quantize-master]
#   INDEX           the index written [tests/data/quantize-master.tsv]
#   COMMIT          the commit LLAMA_QUANTIZE was built from, for the heading [3f545becc]
#
# The models and their importance matrices are written into WORK by
# scripts/quantize_master_models.c (linked against build/libgguf.a: make
# first); each preset master lists is run on each model with 2 threads, in
# WORK with relative names (quantize.imatrix.file records the name given),
# without an importance matrix and, where master refuses without one, with
# the model's; then a few option runs.  tests/test_quant_master.c
# (quantize_master_presets) makes the same models and runs gguf quantize the
# same way.  Only the index goes into the repository.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
LQ=${LLAMA_QUANTIZE:-/work/ref-llama-master/build/bin/llama-quantize}
WORK=${WORK:-/tmp/golden-quantize-master}
INDEX=${INDEX:-$here/tests/data/quantize-master.tsv}
[ -x "$LQ" ] || { echo "golden-quantize-master.sh: $LQ is not built" >&2; exit 2; }
[ -f "$here/build/libgguf.a" ] || { echo "golden-quantize-master.sh: build/libgguf.a is not built (make)" >&2; exit 2; }
LD_LIBRARY_PATH=$(dirname "$LQ")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

rm -rf "$WORK"
mkdir -p "$WORK"
cc -O2 -std=gnu11 -I"$here/include" -I"$here/tests" -o "$WORK/quantize_master_models" \
    "$here/scripts/quantize_master_models.c" "$here/build/libgguf.a" -lpthread -lm
cd "$WORK"
models=$(./quantize_master_models .)
presets=$("$LQ" 2>&1 | sed -n 's/^ *[0-9][0-9]* *or *\([A-Z0-9_]*\) *:.*/\1/p')

# one run: MODEL PRESET ARGS...; prints the index row
run() {
    m=$1 p=$2
    shift 2
    rm -f out.gguf
    rc=0
    "$LQ" "$@" "$m.gguf" out.gguf "$p" 2 >run.log 2>&1 || rc=$?
    sum=-
    [ $rc -eq 0 ] && sum=$(sha256sum out.gguf | cut -d' ' -f1)
    a=$*
    printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$p" "${a:--}" "$rc" "$sum"
}

{
    printf '# llama-quantize %s: scripts/golden-quantize-master.sh (docs/reference.md)\n' "${COMMIT:-3f545becc}"
    printf 'model\tpreset\targs\trc\tsha256\n'
    for m in $models; do
        printf '%s\tINPUT\t-\t0\t%s\n' "$m" "$(sha256sum "$m.gguf" | cut -d' ' -f1)"
        printf '%s\tINPUT\t--imatrix\t0\t%s\n' "$m" "$(sha256sum "$m.imatrix.dat" | cut -d' ' -f1)"
        for p in $presets; do
            # llama70's 80 layers only change attn_v (Q3_K/Q4_K become Q5_K): the presets that reach
            # those types, not the whole list on a 105 MB model
            case "$m:$p" in llama70:Q2_K* | llama70:Q3_K* | llama70:Q4_K* | llama70:IQ3_* | llama70:IQ4_*) ;; llama70:*) continue ;; esac
            row=$(run "$m" "$p")
            printf '%s\n' "$row"
            case "$row" in
            *"	-") run "$m" "$p" --imatrix "$m.imatrix.dat" ;;
            esac
        done
        [ "$m" = llama70 ] && continue
        for p in Q1_0 Q2_0 Q4_0 Q4_K_M IQ4_NL MXFP4_MOE; do
            run "$m" "$p" --imatrix "$m.imatrix.dat"
        done
        run "$m" Q4_K_M --tensor-type attn_v=nvfp4 --tensor-type ffn_down=mxfp4
        run "$m" Q4_K_M --tensor-type ffn_down=q1_0 --tensor-type ffn=q2_0
        run "$m" Q4_K_M --pure
        run "$m" Q2_0 --token-embedding-type q1_0 --output-tensor-type q2_0
        run "$m" Q8_0 --override-kv general.name=str:renamed --override-kv llama.context_length=int:-4096
    done
    # --prune-layers where master is right: its last layer.  (Pruning an
    # earlier one, master writes each renumbered tensor with the data of the
    # tensor that had its new name, and crashes on the dense model; gguf
    # quantize writes each tensor's own data: test_quant_plan.c.)
    for m in $models; do
        case $m in dense) last=3 ;; fused | falcon) last=2 ;; llama70) last=79 ;; *) last=1 ;; esac
        run "$m" Q4_K_M --imatrix "$m.imatrix.dat" --prune-layers "$last"
    done
} > "$INDEX.tmp"
mv "$INDEX.tmp" "$INDEX"
echo "wrote $INDEX ($(grep -vc '^#\|^model' "$INDEX") rows)"
