#!/bin/sh
# tests/packaging.sh SRCDIR TMPDIR -- the libraries as a distribution ships
# them (tests/test_packaging.c runs it in make test; exit 77: skipped, with
# the reason on stdout).
#
# Stages `make install` with a distribution's directories and hardening
# flags into TMPDIR/root (the build in TMPDIR/build), then: the flags reached
# every object (-frecord-gcc-switches) and the link (BIND_NOW, GNU_RELRO);
# one small program per library, built with `pkg-config --cflags --libs`
# against the staged tree, runs and loads the staged shared libraries (ldd);
# the .pc files name what static linking needs; `make uninstall` leaves no
# file behind.
set -eu
src=$1
tmp=$2
command -v pkg-config >/dev/null 2>&1 || { echo "pkg-config is not installed (scripts/install-deps.sh installs it)"; exit 77; }
# The suite's own make must not leak its variables (BUILD, CFLAGS, ...) in.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
cc=${CC:-cc}
multiarch=$($cc -dumpmachine)
root=$tmp/root
libdir=/usr/lib/$multiarch
fail() { echo "packaging: $*"; exit 1; }

set -- -C "$src" BUILD="$tmp/build" PREFIX=/usr LIBDIR="$libdir" INCLUDEDIR=/usr/include/gguf DESTDIR="$root"
make -j2 "$@" CFLAGS="-O2 -g -fstack-protector-strong -frecord-gcc-switches" \
    CPPFLAGS="-D_FORTIFY_SOURCE=2" LDFLAGS="-Wl,-z,relro,-z,now" install >"$tmp/make.log" 2>&1 ||
    { tail -30 "$tmp/make.log"; fail "make install failed"; }

for f in /usr/bin/gguf /usr/share/man/man1/gguf.1; do
    [ -f "$root$f" ] || fail "$f not installed"
done
for lib in libgguf libgguf-tokenize libgguf-convert libgguf-remote; do
    for f in $libdir/$lib.a $libdir/$lib.so $libdir/$lib.so.0 $libdir/pkgconfig/$lib.pc; do
        [ -e "$root$f" ] || fail "$f not installed"
    done
    so=$(readlink -f "$root$libdir/$lib.so")
    [ "$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = "$lib.so.0" ] || fail "$lib: soname is not $lib.so.0"
    # the user's CFLAGS reached the objects, with the project's own (gcc
    # records no -D: CPPFLAGS shows as the fortified libc calls it selects)
    switches=$(readelf -p .GCC.command.line "$so")
    for flag in -fstack-protector-strong -ffp-contract=off; do
        echo "$switches" | grep -q -- "$flag" || fail "$lib: $flag is not in .GCC.command.line"
    done
    nm -D --undefined-only "$so" | grep -q '__.*_chk' || fail "$lib: no fortified call: -D_FORTIFY_SOURCE=2 did not arrive"
    readelf -d "$so" | grep -q 'BIND_NOW' || fail "$lib: not linked with -z now"
    readelf -lW "$so" | grep -q 'GNU_RELRO' || fail "$lib: not linked with -z relro"
done
for h in libgguf.h libgguf_tokenize.h libgguf_convert.h libgguf_remote.h $(cd include && ls libgguf/*.h); do
    [ -f "$root/usr/include/gguf/$h" ] || fail "/usr/include/gguf/$h not installed"
done

# pkg-config reads the staged .pc files (and the system's, for what they
# require) and puts the staging root in front of their paths.
export PKG_CONFIG_SYSROOT_DIR="$root"
export PKG_CONFIG_LIBDIR="$root$libdir/pkgconfig:/usr/lib/$multiarch/pkgconfig:/usr/share/pkgconfig:/usr/lib/pkgconfig"
pc() { pkg-config "$@" || fail "pkg-config $* failed"; }
[ "$(pc --variable=libdir libgguf)" = "$root$libdir" ] || fail "libgguf.pc: libdir is $(pc --variable=libdir libgguf)"
pc --static --libs libgguf | grep -q -- '-lm' || fail "libgguf.pc: no -lm for static linking"
[ "$(pc --print-requires-private libgguf-convert | tr '\n' ' ')" = "jansson yaml-0.1 libcrypto " ] ||
    fail "libgguf-convert.pc: Requires.private is $(pc --print-requires-private libgguf-convert)"
[ "$(pc --print-requires-private libgguf-remote | tr '\n' ' ')" = "libcurl libcrypto jansson " ] ||
    fail "libgguf-remote.pc: Requires.private is $(pc --print-requires-private libgguf-remote)"
grep -qx 'Libs.private: -lm' "$root$libdir/pkgconfig/libgguf-convert.pc" || fail "libgguf-convert.pc: Libs.private is not -lm"
[ "$(pc --print-requires libgguf-convert | tr '\n' ' ')" = "libgguf-tokenize libgguf " ] ||
    fail "libgguf-convert.pc: Requires is $(pc --print-requires libgguf-convert)"
[ "$(pc --print-requires-private libgguf-tokenize | tr '\n' ' ')" = "oniguruma libutf8proc jansson " ] ||
    fail "libgguf-tokenize.pc: Requires.private is $(pc --print-requires-private libgguf-tokenize)"

mkdir -p "$tmp/prog"
# libgguf: a file of the GGUF specification, byte by byte (magic, version 3,
# no tensors, one key general.architecture = "llama"), opened from memory.
cat >"$tmp/prog/libgguf.c" <<'EOF'
#include <libgguf.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    static const unsigned char f[] = {'G', 'G', 'U', 'F', 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0,
        'g', 'e', 'n', 'e', 'r', 'a', 'l', '.', 'a', 'r', 'c', 'h', 'i', 't', 'e', 'c', 't', 'u', 'r', 'e',
        8, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 'l', 'l', 'a', 'm', 'a'};
    lgg_file *g;
    lgg_error e;
    if (lgg_open_memory(f, sizeof f, NULL, &g, &e) != LGG_OK) return printf("open: %s\n", e.message), 1;
    int ok = lgg_find_key_cstr(g, "general.architecture") == 0 && !strcmp(lgg_version(), LGG_VERSION_STRING);
    lgg_close(g);
    puts(ok ? "ok" : "wrong");
    return !ok;
}
EOF
# libgguf-tokenize: a one-merge BPE tokenizer.json, as Hugging Face's
# tokenizers reads it, from memory.
cat >"$tmp/prog/libgguf-tokenize.c" <<'EOF'
#include <libgguf_tokenize.h>
#include <stdio.h>
int main(void) {
    static const char j[] = "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},\"merges\":[\"a b\"]}}";
    lgg_tokenizer *t;
    lgg_error e;
    if (lgg_tokenizer_open_json(j, sizeof j - 1, NULL, 0, &t, &e) != LGG_OK) return printf("open: %s\n", e.message), 1;
    int32_t ids[4];
    int64_t n = lgg_tokenize(t, "abab", 4, 0, ids, 4, &e);
    int ok = n == 2 && ids[0] == 2 && ids[1] == 2;
    lgg_tokenizer_free(t);
    puts(ok ? "ok" : "wrong");
    return !ok;
}
EOF
# libgguf-convert: a safetensors file (8-byte header length, JSON header,
# data) parsed from memory.
cat >"$tmp/prog/libgguf-convert.c" <<'EOF'
#include <libgguf_convert.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    static const char hdr[] = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    unsigned char file[8 + sizeof hdr - 1 + 8] = {sizeof hdr - 1};
    memcpy(file + 8, hdr, sizeof hdr - 1);
    lgg_safetensors *s;
    lgg_error e;
    if (lgg_st_parse(file, sizeof file, "t", &s, &e) != LGG_OK) return printf("parse: %s\n", e.message), 1;
    const lgg_st_tensor *t = lgg_st_at(s, 0);
    int ok = lgg_st_count(s) == 1 && t->name.len == 1 && t->name.ptr[0] == 'w' && t->size == 8;
    lgg_st_close(s);
    puts(ok ? "ok" : "wrong");
    return !ok;
}
EOF
# libgguf-remote: an hf:// name resolved to the hub's download URL.
cat >"$tmp/prog/libgguf-remote.c" <<'EOF'
#include <libgguf_remote.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    char url[256];
    lgg_remote_resolve("hf://owner/repo/dir/m.gguf@v1", NULL, url, sizeof url);
    int ok = lgg_remote_is_url("hf://owner/repo/m.gguf") &&
             !strcmp(url, "https://huggingface.co/owner/repo/resolve/v1/dir/m.gguf");
    puts(ok ? "ok" : url);
    return !ok;
}
EOF
for lib in libgguf libgguf-tokenize libgguf-convert libgguf-remote; do
    prog=$tmp/prog/$lib
    # shellcheck disable=SC2046
    $cc -Wall -Werror -o "$prog" "$prog.c" $(pc --cflags --libs $lib) || fail "$lib: the program does not build"
    out=$(LD_LIBRARY_PATH="$root$libdir" "$prog") || fail "$lib: the program failed: $out"
    [ "$out" = ok ] || fail "$lib: the program printed $out"
    deps=$(LD_LIBRARY_PATH="$root$libdir" ldd "$prog")
    echo "$deps" | grep -q "$lib.so.0 => $root$libdir/$lib.so.0" || fail "$lib: the program does not load the staged $lib.so.0: $deps"
    if [ $lib != libgguf ]; then
        echo "$deps" | grep -q "libgguf.so.0 => $root$libdir/libgguf.so.0" || fail "$lib: libgguf.so.0 is not the staged one"
    fi
    # and statically, our archives (-l:libNAME.a) with what `--static` adds:
    # the .pc's Requires.private and Libs.private must be complete (not for
    # the remote part: libcurl's own static dependencies, which its .pc
    # lists, are not installed with libcurl4-openssl-dev)
    [ $lib = libgguf-remote ] && continue
    # shellcheck disable=SC2046
    $cc -o "$prog-static" "$prog.c" $(pc --cflags --static --libs $lib | sed 's/-l\(gguf[a-z-]*\)/-l:lib\1.a/g') ||
        fail "$lib: the program does not link statically with pkg-config --static: $(pc --static --libs $lib)"
    out=$("$prog-static") || fail "$lib: the static program failed: $out"
    [ "$out" = ok ] || fail "$lib: the static program printed $out"
    ldd "$prog-static" | grep -q libgguf && fail "$lib: the static program loads a shared libgguf"
done

make "$@" uninstall >"$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log"; fail "make uninstall failed"; }
left=$(find "$root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "packaging: ok"
