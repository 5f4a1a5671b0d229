# libgguf -- build, test, install.  GNU make; gcc or clang.
#
#   make                 static + shared library and the gguf tool (build/)
#   make test            build and run the whole test suite (check-deps first)
#   make check-deps      dependencies run one way (README layout table)
#   make asan            the CLI with ASan+UBSan as build/asan/gguf
#   make check-asan      the whole test suite under ASan+UBSan
#   make check-tsan      the whole test suite under ThreadSanitizer
#   make fuzz            every libFuzzer target for FUZZ_SECONDS (default 60) each
#   make fuzz-corpus     regenerate the generated seed inputs in fuzz/corpus/
#   make bench           the benchmarks (print ratios against baselines)
#   make check-aarch64   the dequantization tests cross-built for AArch64 (NEON) under qemu-user
#   make install PREFIX=/usr/local [DESTDIR=...]

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang

# The version is written once, in include/libgguf.h (LGG_VERSION_MAJOR/MINOR/PATCH).
version_part = $(shell sed -n 's/^\#define LGG_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/libgguf.h)
SOMAJOR := $(call version_part,MAJOR)
VERSION := $(SOMAJOR).$(call version_part,MINOR).$(call version_part,PATCH)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
# -ffp-contract=off: no fused multiply-add anywhere, so results follow ggml's
# reference rounding exactly on every machine.
BASEFLAGS := -std=c11 -D_GNU_SOURCE -ffp-contract=off -fno-strict-aliasing -fvisibility=hidden -fPIC
OPT     ?= -O2 -g
CFLAGS_ALL = $(BASEFLAGS) $(WARN) $(OPT) $(EXTRA_CFLAGS) -Iinclude -Isrc
LDLIBS  := -lpthread -lm

LIB_SRC  := $(sort $(shell find src -name '*.c' -not -path 'src/convert/*' -not -path 'src/remote/*' -not -path 'src/tokenize/*'))
# The converter (Hugging Face -> GGUF) is a library of its own because it
# reads JSON with jansson; the core library stays libc + pthreads.
CONV_SRC := $(sort $(wildcard src/convert/*.c))
CONV_LIBS := -ljansson -lyaml -lcrypto
# Remote files (HTTP ranges, hf:// names, downloads) are a library of their
# own too: libcurl (and libcrypto for the download's sha256).
REMOTE_SRC := $(sort $(wildcard src/remote/*.c))
REMOTE_LIBS := -lcurl -lcrypto
TOOL_SRC := $(sort $(wildcard tools/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
BENCH_SRC:= $(sort $(wildcard bench/bench_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CONV_OBJ := $(CONV_SRC:%.c=$(BUILD)/obj/%.o)
REMOTE_OBJ := $(REMOTE_SRC:%.c=$(BUILD)/obj/%.o)
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)
BENCH_BIN:= $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

# Per-file instruction sets for the SIMD kernels (chosen at run time).  The
# AVX2 kernels' short loops run up to 30% slower when a loop straddles a
# 32-byte boundary (measured on Zen 3: BF16, F64, I8 moved by unrelated edits),
# hence -falign-loops=32.
SIMD_avx2   := -mavx2 -mf16c -mno-fma -falign-loops=32
SIMD_avx512 := -mavx512f -mavx512bw -mavx512vl -mavx2 -mf16c -mno-fma
simd_flags = $(if $(findstring _avx512.c,$<),$(SIMD_avx512),$(if $(findstring _avx2.c,$<),$(SIMD_avx2)))
# By the compiler's target, not the build machine's, so cross builds work.
ifneq ($(filter x86_64-% i386-% i486-% i586-% i686-%,$(shell $(CC) -dumpmachine)),)
else
SIMD_avx2 :=
SIMD_avx512 :=
endif

STATIC := $(BUILD)/libgguf.a
SHARED := $(BUILD)/libgguf.so.$(VERSION)
TOOL   := $(BUILD)/gguf
CONVLIB:= $(BUILD)/libgguf-convert.a
REMOTELIB := $(BUILD)/libgguf-remote.a
TESTBIN:= $(BUILD)/test_runner

.PHONY: all test check check-deps check-aarch64 asan check-asan check-ubsan-clang check-tsan fuzz fuzz-build fuzz-corpus bench install clean
all: $(STATIC) $(SHARED) $(CONVLIB) $(REMOTELIB) $(TOOL)

$(BUILD)/obj/%.o: %.c $(filter-out include/libgguf_convert.h include/libgguf_tokenize.h,$(wildcard include/*.h)) $(shell find src -name '*.h' -not -path 'src/convert/*' -not -path 'src/remote/*' -not -path 'src/tokenize/*') $(wildcard tools/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) $(simd_flags) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# ---- the tokenizer part (libgguf-tokenize; issue 24) -------------------------
# A library of its own: Oniguruma (llama.cpp's and Hugging Face's pre-tokenizer
# expressions) and utf8proc (Unicode categories and normalization); it uses
# libgguf's public API only.  TOKLIB goes before $(STATIC) in the links below.
# -lc before -lonig: libonig.so also exports POSIX regcomp/regexec/regfree
# (with its own regex_t), which would otherwise take the place of glibc's in
# the whole program (the quantize presets' --tensor-type use glibc's).
TOK_SRC := $(sort $(wildcard src/tokenize/*.c))
TOK_OBJ := $(TOK_SRC:%.c=$(BUILD)/obj/%.o)
TOK_LIBS := -lc -lonig -lutf8proc -ljansson
TOKLIB := $(BUILD)/libgguf-tokenize.a
all: $(TOKLIB)
$(TOK_OBJ): $(wildcard src/tokenize/*.h)
$(TOK_OBJ) $(BUILD)/obj/tools/cmd_tokenize.o $(BUILD)/obj/tools/cmd_detokenize.o $(BUILD)/obj/tests/test_tokenize.o: include/libgguf_tokenize.h
$(BUILD)/obj/tests/test_tokenize.o: include/libgguf_convert.h fuzz/tok_vocabs.h
$(BUILD)/fuzz/fuzz_tokenize $(BUILD)/libfuzzer/fuzz_tokenize: fuzz/tok_vocabs.h
$(TOKLIB): $(TOK_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(TOOL): $(TOKLIB)
# The converter names BPE pre-tokenizers with this part (lgg_convert_bpe_pre):
# whatever links libgguf-convert links it too.
install: install-tokenize
install-tokenize: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/libgguf_tokenize.h $(DESTDIR)$(PREFIX)/include/libgguf_tokenize.h
	install -m 644 $(TOKLIB) $(DESTDIR)$(PREFIX)/lib/libgguf-tokenize.a
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libgguf-tokenize.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libgguf-tokenize.pc
.PHONY: install-tokenize
# ---- end of the tokenizer part ----------------------------------------------

$(SHARED): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libgguf.so.$(SOMAJOR) -o $@ $^ $(LDLIBS)
	ln -sf libgguf.so.$(VERSION) $(BUILD)/libgguf.so.$(SOMAJOR)
	ln -sf libgguf.so.$(VERSION) $(BUILD)/libgguf.so

# The tool alone links libcrypto and libxxhash (gguf hash, gguf verify) and,
# through the converter, jansson.
TOOL_LIBS := -lcrypto -lxxhash
# Only the converter's objects (and what includes its header) depend on its headers.
$(CONV_OBJ) $(BUILD)/obj/tools/cmd_convert.o $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/test_convert*.c)): include/libgguf_convert.h $(wildcard src/convert/*.h)
$(BUILD)/obj/src/convert/bpe.o: include/libgguf_tokenize.h
$(CONVLIB): $(CONV_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(REMOTE_OBJ): $(wildcard src/remote/*.h)
$(REMOTELIB): $(REMOTE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TOOL): $(TOOL_OBJ) $(CONVLIB) $(REMOTELIB) $(STATIC)
	$(CC) -o $@ $(TOOL_OBJ) $(CONVLIB) $(TOKLIB) $(REMOTELIB) $(STATIC) $(LDLIBS) $(CONV_LIBS) $(REMOTE_LIBS) $(TOK_LIBS) $(TOOL_LIBS)

# Fuzz targets as plain programs that replay their corpus (fuzz/replay.c main).
# Some targets link part of the CLI: FUZZ_EXTRA_<target> lists those sources.
FUZZ_EXTRA_fuzz_dump := tools/cli.c tools/cli_args.c tools/cli_data.c tools/cli_remote.c tools/cli_mem.c
$(BUILD)/fuzz/fuzz_dump $(BUILD)/libfuzzer/fuzz_dump: $(FUZZ_EXTRA_fuzz_dump) tools/cli.h
FUZZ_EXTRA_fuzz_args := tools/cli.c tools/cli_args.c tools/cli_data.c tools/cli_edit.c tools/cli_write.c tools/cli_remote.c tools/cli_mem.c
$(BUILD)/fuzz/fuzz_args $(BUILD)/libfuzzer/fuzz_args: $(FUZZ_EXTRA_fuzz_args) tools/cli.h
# Targets of the converter part name themselves in FUZZ_CONV (they link
# libgguf-convert and jansson).
FUZZ_CONV := fuzz_safetensors fuzz_spm fuzz_convert_json fuzz_tokenize fuzz_tokenizer_json
# ... and those of the remote part in FUZZ_REMOTE (libgguf-remote and libcurl).
FUZZ_REMOTE := fuzz_http fuzz_dump fuzz_args
$(BUILD)/fuzz/%: fuzz/%.c fuzz/replay.c fuzz/fuzz.h $(STATIC) $(CONVLIB) $(TOKLIB) $(REMOTELIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools -o $@ $< $(FUZZ_EXTRA_$*) fuzz/replay.c $(if $(filter $*,$(FUZZ_CONV)),$(CONVLIB) $(TOKLIB)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTELIB)) $(STATIC) $(LDLIBS) $(if $(filter $*,$(FUZZ_CONV)),$(CONV_LIBS) $(TOK_LIBS)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTE_LIBS))

$(BUILD)/bench/%: bench/%.c bench/bench.h $(STATIC) $(CONVLIB) $(TOKLIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O3 -o $@ $< $(if $(filter bench_convert bench_tokenize,$*),$(CONVLIB) $(TOKLIB)) $(STATIC) $(LDLIBS) $(if $(filter bench_convert bench_tokenize,$*),$(CONV_LIBS) $(TOK_LIBS))

# The test runner alone also links jansson (golden JSON) and libcrypto (sha256), and
# libyaml for the converter part it tests;
# the AArch64 cross build leaves them (and the tests that need them) out.
TEST_LIBS := -ljansson -lyaml -lcrypto -lcurl $(TOK_LIBS)
TEST_CONV = $(if $(TEST_LIBS),$(CONVLIB) $(TOKLIB) $(REMOTELIB))
$(TESTBIN): $(TEST_OBJ) $(STATIC) $(TEST_CONV)
	$(CC) -o $@ $(TEST_OBJ) $(TEST_CONV) $(STATIC) $(LDLIBS) $(TEST_LIBS) -lpthread

# The whole suite: the dependency check, then unit, corpus, golden, CLI,
# symbol checks and fuzz replays.
test: all $(TESTBIN) $(FUZZ_BIN)
	@python3 scripts/check-deps.py --self-test
	python3 scripts/check-deps.py --build $(BUILD)
	GGUF_BUILD=$(BUILD) ./$(TESTBIN)
check: test
# Dependencies run one way: every include and link edge against the
# README's layout table, and no cycle between files.
check-deps: all
	@python3 scripts/check-deps.py --self-test
	python3 scripts/check-deps.py --build $(BUILD)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	$(MAKE) BUILD=build/asan OPT="$(ASAN_FLAGS)" LDLIBS="$(LDLIBS) -fsanitize=address,undefined" build/asan/gguf
check-asan:
	$(MAKE) BUILD=build/asan OPT="$(ASAN_FLAGS)" LDLIBS="$(LDLIBS) -fsanitize=address,undefined" test
# clang's UBSan checks what gcc's does not: its intrinsics dereference typed
# pointers (a misaligned _mm256_broadcast_ss), and NULL + 0 is reported
UBSAN_CLANG_FLAGS := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-ubsan-clang:
	$(MAKE) BUILD=build/ubsan-clang CC=clang OPT="$(UBSAN_CLANG_FLAGS)" LDLIBS="$(LDLIBS) -fsanitize=undefined" test
# ThreadSanitizer over the whole suite: the quantizer's worker pipeline and
# the threaded whole-tensor calls must be free of data races
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
check-tsan:
	TSAN_OPTIONS=halt_on_error=1 $(MAKE) BUILD=build/tsan OPT="$(TSAN_FLAGS)" LDLIBS="$(LDLIBS) -fsanitize=thread" test

# The NEON kernels have no hardware here: cross-build the test runner for
# AArch64, statically, and run the dequantization tests (NEON against the
# scalar reference and ggml's golden vectors, big-endian data, row ranges)
# under qemu-user.  Needs gcc-aarch64-linux-gnu and qemu-user
# (WITH_AARCH64=1 scripts/install-deps.sh).
AARCH64_CC ?= aarch64-linux-gnu-gcc
QEMU_AARCH64 ?= qemu-aarch64
check-aarch64:
	$(MAKE) BUILD=build/aarch64 CC=$(AARCH64_CC) LDLIBS="-lpthread -lm -static" TEST_LIBS= \
	    EXTRA_CFLAGS=-DLGG_TEST_NO_GOLDEN_LIBS build/aarch64/test_runner
	GGUF_BUILD=build/aarch64 $(QEMU_AARCH64) build/aarch64/test_runner dequant_

# libFuzzer builds (clang); each target runs FUZZ_SECONDS on its corpus.
# New inputs go to $(BUILD)/libfuzzer/new-<target>/ (merge the useful ones into
# fuzz/corpus/<target>/ with -merge=1); crashes to fuzz/crashes/<target>-*.
# FUZZ_ARGS passes more libFuzzer options (e.g. FUZZ_ARGS=-max_len=4096).
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_ARGS ?=
FUZZ_LIBFUZZER := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/libfuzzer/%)
$(BUILD)/libfuzzer/%: fuzz/%.c fuzz/fuzz.h $(LIB_SRC) $(CONV_SRC) $(TOK_SRC) $(REMOTE_SRC) $(wildcard include/*.h) $(shell find src -name '*.h')
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_FLAGS) -Iinclude -Isrc -Itools -o $@ $< $(FUZZ_EXTRA_$*) $(LIB_SRC) $(if $(filter $*,$(FUZZ_CONV)),$(CONV_SRC) $(TOK_SRC) $(CONV_LIBS) $(TOK_LIBS)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTE_SRC) $(REMOTE_LIBS)) $(SIMD_avx2) -lpthread -lm
fuzz-build: $(FUZZ_LIBFUZZER)
fuzz: fuzz-build
	@mkdir -p fuzz/crashes
	@set -e; for src in $(FUZZ_SRC); do \
	  t=$$(basename $$src .c); \
	  mkdir -p fuzz/corpus/$$t $(BUILD)/libfuzzer/new-$$t; \
	  echo "== $$t ($(FUZZ_SECONDS)s)"; \
	  $(BUILD)/libfuzzer/$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=fuzz/crashes/$$t- $(FUZZ_ARGS) \
	     $(BUILD)/libfuzzer/new-$$t fuzz/corpus/$$t || exit 1; \
	done

# Regenerate the generated part of the seed corpora (fuzz/gen_corpus.c; the
# copies of ../shared files are refreshed too when ../shared is present).
fuzz-corpus: $(BUILD)/gen_corpus
	./$(BUILD)/gen_corpus
$(BUILD)/gen_corpus: fuzz/gen_corpus.c tests/gen.c tests/util.c tests/hostile.c tests/hostile.h tests/gen.h tests/test.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -o $@ fuzz/gen_corpus.c tests/gen.c tests/util.c tests/hostile.c $(STATIC) $(LDLIBS)

bench: $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; ./$$b || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/gguf
	install -m 644 include/libgguf.h $(DESTDIR)$(PREFIX)/include/libgguf.h
	install -m 644 include/libgguf_convert.h $(DESTDIR)$(PREFIX)/include/libgguf_convert.h
	install -m 644 $(CONVLIB) $(DESTDIR)$(PREFIX)/lib/libgguf-convert.a
	install -m 644 include/libgguf_remote.h $(DESTDIR)$(PREFIX)/include/libgguf_remote.h
	install -m 644 $(REMOTELIB) $(DESTDIR)$(PREFIX)/lib/libgguf-remote.a
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libgguf-remote.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libgguf-remote.pc
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libgguf-convert.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libgguf-convert.pc
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/libgguf.a
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/libgguf.so.$(VERSION)
	ln -sf libgguf.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgguf.so.$(SOMAJOR)
	ln -sf libgguf.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgguf.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libgguf.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libgguf.pc
	install -m 644 docs/gguf.1 $(DESTDIR)$(PREFIX)/share/man/man1/gguf.1

clean:
	rm -rf build
