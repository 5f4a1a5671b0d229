#!/bin/sh
# The expected stdout of the dump-markdown-* CLI cases, printed by gguf-py's
# own gguf_dump.py --markdown (llama.cpp b4747), never by gguf.  Run from
# the repository's root with Debian 12's python3, python3-numpy and
# python3-sentencepiece:
#   LLAMA_CPP=/path/to/llama.cpp-b4747 sh tests/cli/dump-markdown-expected.sh
# The shared reference directory (../shared, or GGUF_SHARED) is written as
# @SHARED@, as the CLI cases spell it.
set -e
: "${LLAMA_CPP:?set LLAMA_CPP to a llama.cpp b4747 checkout}"
SHARED=${GGUF_SHARED:-../shared}
ref() {
    out=$1
    shift
    PYTHONPATH="$LLAMA_CPP/gguf-py" /usr/bin/python3 "$LLAMA_CPP/gguf-py/gguf/scripts/gguf_dump.py" --markdown "$@" |
        sed "s|$SHARED|@SHARED@|g" >"tests/cli/$out.out"
}
ref dump-markdown-example examples/Tiny-Llama-82K-v1.0-Q8_0.gguf
ref dump-markdown-no-tensors --no-tensors tests/data/mmproj-clip.gguf
ref dump-markdown-edge tests/data/markdown-edge.gguf
ref dump-markdown-dup-keys "$SHARED/corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf"
