#!/bin/sh
# golden-quant-master.sh -- regenerate tests/data/quant-master.tsv, the sha256
# sums of llama.cpp master's quantization and dequantization of the shared
# golden inputs (docs/reference.md, "Quantization reference: master").
#
#   scripts/golden-quant-master.sh [TYPE...]      (default: mxfp4 nvfp4 q1_0 q2_0)
#
# Environment (defaults in brackets):
#   LLAMA_GIT   a clone or bare mirror of llama.cpp [/work/.mirror/ngxson+llama.cpp/repo]
#   COMMIT      the reference commit [3f545becc]
#   WORK        a scratch directory outside the repository [/work/ref-ggml-master]
#   INPUTS      the golden inputs input.<case>.f32 [../shared/golden/quant]
#   INDEX       the index written [tests/data/quant-master.tsv]
#
# ggml's sources are exported from COMMIT into WORK and its ggml-base library
# built there (plain -O3 for baseline x86-64 with -ffp-contract=off, as the
# shared golden vectors were), the harness scripts/golden_quant_master.c is
# linked against it, and its outputs (WORK/out) are hashed.  Only the index
# goes into the repository.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
LLAMA_GIT=${LLAMA_GIT:-/work/.mirror/ngxson+llama.cpp/repo}
COMMIT=${COMMIT:-3f545becc}
WORK=${WORK:-/work/ref-ggml-master}
INPUTS=${INPUTS:-$here/../shared/golden/quant}
INDEX=${INDEX:-$here/tests/data/quant-master.tsv}
[ $# -gt 0 ] || set -- mxfp4 nvfp4 q1_0 q2_0

mkdir -p "$WORK"
full=$(git -C "$LLAMA_GIT" rev-parse "$COMMIT^{commit}")
if [ "$(cat "$WORK/COMMIT" 2>/dev/null || true)" != "$full" ]; then
    rm -rf "$WORK/ggml" "$WORK/build"
    git -C "$LLAMA_GIT" archive "$full" ggml | tar -x -C "$WORK"
    # ggml's CMakeLists configures a pkg-config file the mirror does not carry
    [ -e "$WORK/ggml/ggml.pc.in" ] || : > "$WORK/ggml/ggml.pc.in"
    echo "$full" > "$WORK/COMMIT"
fi
if [ ! -f "$WORK/build/src/libggml-base.a" ]; then
    cmake -S "$WORK/ggml" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release -DGGML_CPU=OFF -DGGML_NATIVE=OFF \
        -DGGML_OPENMP=OFF -DBUILD_SHARED_LIBS=OFF -DGGML_CCACHE=OFF -DGGML_BUILD_TESTS=OFF \
        -DGGML_BUILD_EXAMPLES=OFF -DCMAKE_C_FLAGS=-ffp-contract=off -DCMAKE_CXX_FLAGS=-ffp-contract=off >/dev/null
    cmake --build "$WORK/build" --target ggml-base -j2 >/dev/null
fi
cc -O2 -std=gnu11 -I"$WORK/ggml/include" -o "$WORK/golden_quant_master" "$here/scripts/golden_quant_master.c" \
    "$WORK/build/src/libggml-base.a" -lstdc++ -lm -lpthread

rm -rf "$WORK/out"
mkdir -p "$WORK/out"
"$WORK/golden_quant_master" "$INPUTS" "$WORK/out" "$@" > "$WORK/out/list.tsv" 2> "$WORK/out/stderr.txt"

{
    printf '# llama.cpp %s: scripts/golden-quant-master.sh (docs/reference.md)\n' "$full"
    printf 'type\tcase\timatrix\tkind\tbytes\tvalid_rows\tsha256\n'
    while IFS='	' read -r type cas imx kind bytes mask file; do
        sum=$(sha256sum "$WORK/out/$file" | cut -d' ' -f1)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$type" "$cas" "$imx" "$kind" "$bytes" "$mask" "$sum"
    done < "$WORK/out/list.tsv"
} > "$INDEX"
echo "wrote $INDEX ($(grep -vc '^#\|^type' "$INDEX") files)"
