#!/bin/sh
# compare-quantize-master.sh -- gguf quantize against llama.cpp master's
# llama-quantize, preset by preset, on the golden models: each preset the
# reference lists is run by both (without an importance matrix, then with the
# model's when the reference refuses without one), and the exit statuses and
# the outputs' sha256 are compared.  Prints one line a run and a total;
# exit 1 when any differs.
#
#   scripts/compare-quantize-master.sh [LLAMA_QUANTIZE] [MODEL...]
#
# LLAMA_QUANTIZE: master's llama-quantize (default
# /work/ref-llama-master/build/bin/llama-quantize: built once outside the
# repository as docs/reference.md says); MODELs default to the golden dense
# and MoE models in ../shared/golden/llama-quantize (GGUF_SHARED).  The
# reference is not stored: this script is how a difference is found when the
# pinned commit moves.
set -u
cd "$(dirname "$0")/.."
ref=${1:-/work/ref-llama-master/build/bin/llama-quantize}
[ $# -gt 0 ] && shift
shared=${GGUF_SHARED:-../shared}
gold="$shared/golden/llama-quantize"
[ $# -gt 0 ] || set -- "$gold/pub-dense-f16.gguf" "$gold/pub-moe-f32.gguf"
[ -x "$ref" ] || { echo "compare-quantize-master.sh: $ref is not built" >&2; exit 2; }
[ -x build/gguf ] || { echo "compare-quantize-master.sh: build/gguf is not built (make)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
presets=$("$ref" 2>&1 | sed -n 's/^ *[0-9][0-9]* *or *\([A-Z0-9_]*\) *:.*/\1/p')
same=0 differ=0
for model in "$@"; do
    imatrix="${model%.gguf}.imatrix.dat"
    for p in $presets; do
        for im in "" "$imatrix"; do
            set -- # the imatrix option, when used
            [ -n "$im" ] && set -- --imatrix "$im"
            "$ref" "$@" "$model" "$work/ref.gguf" "$p" 2 >"$work/ref.log" 2>&1
            rr=$?
            [ $rr -ne 0 ] && [ -z "$im" ] && [ -f "$imatrix" ] && continue # try with the imatrix
            build/gguf quantize -q --no-fsync "$@" "$model" "$work/ours.gguf" "$p" 2 >"$work/ours.log" 2>&1
            ro=$?
            a=-; b=-
            [ $rr -eq 0 ] && a=$(sha256sum <"$work/ref.gguf" | cut -c1-16)
            [ $ro -eq 0 ] && b=$(sha256sum <"$work/ours.gguf" | cut -c1-16)
            if [ $rr -eq $ro ] && { [ $rr -ne 0 ] || [ "$a" = "$b" ]; }; then
                verdict=same; same=$((same + 1))
            else
                verdict=DIFFER; differ=$((differ + 1))
            fi
            printf '%-8s %-20s %-10s %-9s master %d %s  gguf %d %s\n' "$verdict" "$(basename "$model")" "$p" \
                "${im:+imatrix}" $rr "$a" $ro "$b"
            rm -f "$work/ref.gguf" "$work/ours.gguf"
            break
        done
    done
done
echo "$same same, $differ differ"
[ $differ -eq 0 ]
