#!/bin/sh
# convert_lora_reference.sh -- remake the reference file names and sha256s
# recorded in tests/test_convert_famD.c (LORA_CASES): the test writes its
# adapters (kept with LGG_TEST_KEEP) under lora/NAME/{base,ADAPTER}, then
# llama.cpp b4747's convert_lora_to_gguf.py (through
# convert_lora_reference.py, which adds the two names the shims lack)
# converts each one in every outtype into an empty folder, so that it
# chooses its default name; prints "NAME OUTTYPE FILE SHA256" lines.
#
#   tests/convert_lora_reference.sh LLAMA_CPP [NAME...]
#
# LLAMA_CPP: a b4747 work tree; the shims are
# ../shared/golden/convert/reference/shims (see its README.md for the
# Debian packages).  Run from the repository's root after
# `make build/test_runner`.
set -eu
ref=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
shims=$(cd ../shared/golden/convert/reference/shims && pwd)
keep=$(mktemp -d)
LGG_TEST_KEEP=1 TMPDIR=$keep ./build/test_runner convert_famD_lora >/dev/null 2>&1 || true
for dir in $(ls -d "$keep"/lggtest.*/lora/*/ | sed 's:/$::'); do
    name=$(basename "$dir")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    adapter=$(ls -d "$dir"/*/ | sed 's:/$::' | grep -v '/base$')
    for t in f32 f16 bf16 q8_0 auto; do
        out=$keep/$name.$t
        mkdir "$out"
        PYTHONPATH=$shims:$ref/gguf-py /usr/bin/python3 "$here/convert_lora_reference.py" "$ref" \
            --outtype $t --outfile "$out" --base "$dir/base" "$adapter" >"$out.log" 2>&1 ||
            { echo "$name $t FAILED (see $out.log)"; continue; }
        f=$(ls "$out")
        echo "$name $t $f $(sha256sum "$out/$f" | cut -d' ' -f1)"
        rm -rf "$out"
    done
done
echo "adapters kept in $keep" >&2
