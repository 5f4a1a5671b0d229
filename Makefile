# libgguf -- build, test, install.  GNU make; gcc or clang.
#
#   make                 every part whose libraries are present (static + shared
#                        library each) and the gguf tool, in build/; says which
#                        parts it skipped and why
#   make all-parts       the same, failing when a part cannot be built
#   make test            build and run the whole test suite (check-deps first)
#   make check-deps      dependencies run one way (README layout table)
#   make check-abi BASELINE=DIR   abidiff of each shared library against DIR's
#   make asan            the CLI with ASan+UBSan as build/asan/gguf
#   make check-asan      the whole test suite under ASan+UBSan (clang's when there)
#   make check-tsan      the whole test suite under ThreadSanitizer
#   make fuzz            every libFuzzer target for FUZZ_SECONDS (default 60) each
#   make fuzz-corpus     regenerate the generated seed inputs in fuzz/corpus/
#   make bench           the benchmarks (print ratios against baselines)
#   make check-aarch64   the dequantization tests cross-built for AArch64 (NEON) under qemu-user
#   make web             the GGUF Editor (web/, docs/web.md) in build/web/; make check-web tests it
#   make install / uninstall   PREFIX=/usr/local [DESTDIR=...] (see docs/packaging.md)
#
# The usual variables: CC, AR, CFLAGS, CPPFLAGS, LDFLAGS, PREFIX, LIBDIR,
# INCLUDEDIR, BINDIR, MANDIR, PKGCONFIGDIR, DESTDIR; V=1 prints whole command
# lines; WERROR=1 makes warnings errors.  The project's own flags come first,
# the user's after them, so the user's win.

.DEFAULT_GOAL := all
CC      ?= cc
AR      ?= ar
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR ?=
BUILD   ?= build
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
# OPT and EXTRA_CFLAGS are older spellings kept for scripts: OPT is the
# default CFLAGS, EXTRA_CFLAGS goes with CPPFLAGS.
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
Q       := $(if $(filter 1,$(V)),,@)
show     = $(if $(Q),@printf '  %-7s %s\n' $(1) $(2))

# The version is written once, in include/libgguf.h (LGG_VERSION_MAJOR/MINOR/PATCH).
version_part = $(shell sed -n 's/^\#define LGG_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/libgguf.h)
SOMAJOR := $(call version_part,MAJOR)
VERSION := $(SOMAJOR).$(call version_part,MINOR).$(call version_part,PATCH)

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla $(if $(filter 1,$(WERROR)),-Werror)
# -ffp-contract=off: no fused multiply-add anywhere, so results follow ggml's
# reference rounding exactly on every machine.
BASEFLAGS := -std=c11 -D_GNU_SOURCE -ffp-contract=off -fno-strict-aliasing -fvisibility=hidden -fPIC
CFLAGS_ALL = $(BASEFLAGS) $(WARN) -Iinclude -Isrc $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS)
# A shared library must resolve every symbol from the libraries it names
# (what a program linked through pkg-config gets); clang's sanitizer builds
# leave their runtime unresolved in shared objects, so those targets clear it.
SHLIB_LDFLAGS ?= -Wl,--no-undefined
LDFLAGS_ALL = $(LDFLAGS)
LDLIBS  := -lpthread -lm

# ---- the parts: one static and one shared library each ----------------------
# $(call part,NAME,SOURCE DIRS,PUBLIC HEADER,PARTS IT LINKS,LIBRARIES,DESCRIPTION)
# (DESCRIPTION goes into the .pc file between single quotes: none inside)
# builds libNAME.a and libNAME.so.$(VERSION) (soname libNAME.so.$(SOMAJOR));
# make install writes libNAME.pc.  LIBRARIES are `module=-lflag` for a
# library with a pkg-config module (the .pc's Requires.private), a bare
# -lflag otherwise (its Libs.private).  The parts it links go to the .pc's
# Requires (its header includes theirs).  The exported symbols are listed in
# abi/libNAME.sym (tests/test_symbols.c).  A part whose libraries cannot be
# linked is skipped by `make` (and fails `make all-parts`).
comma := ,
PARTS :=
define part
PARTS += $(1)
$(1)_DIRS := $(2)
$(1)_SRC := $$(sort $$(shell find $(2) -name '*.c'))
$(1)_OBJ := $$($(1)_SRC:%.c=$$(BUILD)/obj/%.o)
$(1)_HDR := include/$(3)
$(1)_USES := $(4)
$(1)_PKGS := $$(strip $$(foreach d,$(5),$$(if $$(findstring =,$$(d)),$$(firstword $$(subst =, ,$$(d))))))
$(1)_LIBS := $$(foreach d,$(5),$$(lastword $$(subst =, ,$$(d))))
$(1)_PRIV := $$(strip $$(foreach d,$(5),$$(if $$(findstring =,$$(d)),,$$(d))))
$(1)_DESC := $(6)
$(1)_A := $$(BUILD)/lib$(1).a
$(1)_SO := $$(BUILD)/lib$(1).so.$$(VERSION)
$$($(1)_A): $$($(1)_OBJ)
	$$(call show,AR,$$@)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
$$($(1)_SO): $$($(1)_OBJ) $$(foreach p,$(4),$$($$(p)_SO))
	$$(call show,LD,$$@)
	$$(Q)$$(CC) -shared -Wl,-soname,lib$(1).so.$$(SOMAJOR) $$(SHLIB_LDFLAGS) $$(LDFLAGS_ALL) -o $$@ \
	    $$($(1)_OBJ) $$(foreach p,$(4),$$($$(p)_SO)) $$($(1)_LIBS)
	$$(Q)ln -sf lib$(1).so.$$(VERSION) $$(BUILD)/lib$(1).so.$$(SOMAJOR)
	$$(Q)ln -sf lib$(1).so.$$(VERSION) $$(BUILD)/lib$(1).so
endef
# The core: libc and pthreads only.
$(eval $(call part,gguf,src/base src/format src/quant src/model,libgguf.h,,-lpthread -lm,Read$(comma) validate$(comma) write and quantize GGUF model files))
# The tokenizer (llama.cpp's and Hugging Face's token ids): Oniguruma for the
# pre-tokenizers' expressions, utf8proc for Unicode categories and
# normalization, jansson for tokenizer.json.  -lc comes before -lonig:
# libonig.so also exports POSIX regcomp/regexec/regfree with its own regex_t,
# which would otherwise take the place of glibc's in the whole program (the
# quantize presets' --tensor-type use glibc's).  Defined before the converter,
# which uses it (a rule's prerequisites are expanded where it is defined).
$(eval $(call part,gguf-tokenize,src/tokenize,libgguf_tokenize.h,gguf,-lc oniguruma=-lonig libutf8proc=-lutf8proc jansson=-ljansson,Tokenize text as llama.cpp does for a GGUF vocabulary and as Hugging Face does for a checkpoint tokenizer.json))
$(BUILD)/fuzz/fuzz_tokenize $(BUILD)/libfuzzer/fuzz_tokenize: fuzz/tok_vocabs.h
# The converter (Hugging Face -> GGUF): jansson for JSON, libyaml for model
# cards, libcrypto.
$(eval $(call part,gguf-convert,src/convert,libgguf_convert.h,gguf-tokenize gguf,jansson=-ljansson yaml-0.1=-lyaml libcrypto=-lcrypto -lm,Convert Hugging Face checkpoints (safetensors$(comma) SentencePiece) to GGUF))
# Remote files (HTTP ranges, hf:// names, downloads): libcurl, libcrypto.
$(eval $(call part,gguf-remote,src/remote,libgguf_remote.h,gguf,libcurl=-lcurl libcrypto=-lcrypto jansson=-ljansson,Read GGUF files over HTTP(S) with byte ranges$(comma) hf:// names$(comma) resumable downloads))

# The tool links these parts (statically, the ones using others first) and,
# for gguf hash and gguf verify, libcrypto and libxxhash.
TOOL_PARTS := gguf-convert gguf-tokenize gguf-remote gguf
TOOL_LIBS := -lcrypto -lxxhash

# Which -l flags link here (one probe each, once per make run; libc's own
# -lm and -lpthread always do).
PROBE_LIBS := $(filter-out -lm -lpthread,$(sort $(foreach p,$(PARTS),$($(p)_LIBS)) $(TOOL_LIBS)))
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
LINKABLE := -lm -lpthread $(shell for l in $(PROBE_LIBS); do \
    printf 'int main(void){return 0;}\n' | $(CC) $(LDFLAGS) -x c -o /dev/null - $$l >/dev/null 2>&1 && echo $$l; done)
endif
# What a part lacks: its own libraries that do not link, and what the parts
# it uses lack.
missing = $(sort $(filter-out $(LINKABLE),$($(1)_LIBS)) $(foreach p,$($(1)_USES),$(call missing,$(p))))
BUILT_PARTS = $(foreach p,$(PARTS),$(if $(call missing,$(p)),,$(p)))
SKIPPED_PARTS = $(filter-out $(BUILT_PARTS),$(PARTS))

# The .pc file: Requires (the parts below, whose headers ours includes),
# Requires.private (libraries with a pkg-config module, needed for static
# linking), Libs.private (the rest).
pc_text = printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
    'Name: lib$(1)' 'Description: $($(1)_DESC)' 'Version: $(VERSION)' \
    $(if $($(1)_USES),'Requires: $(patsubst %,lib%,$($(1)_USES))') \
    $(if $($(1)_PKGS),'Requires.private: $($(1)_PKGS)') \
    'Libs: -L$${libdir} -l$(1)' \
    $(if $($(1)_PRIV),'Libs.private: $($(1)_PRIV)') \
    'Cflags: -I$${includedir}'

# Names the rest of this file (and the tool, test, fuzz and bench rules) use.
LIB_SRC    := $(gguf_SRC)
CONV_SRC   := $(gguf-convert_SRC)
REMOTE_SRC := $(gguf-remote_SRC)
CONV_LIBS  := $(gguf-convert_LIBS)
REMOTE_LIBS:= $(gguf-remote_LIBS)
STATIC     := $(gguf_A)
SHARED     := $(gguf_SO)
CONVLIB    := $(gguf-convert_A)
REMOTELIB  := $(gguf-remote_A)
TOK_SRC    := $(gguf-tokenize_SRC)
TOK_LIBS   := $(gguf-tokenize_LIBS)
TOKLIB     := $(gguf-tokenize_A)
# The CLI's part (tools/common/): the tool, the fuzz targets and the web
# editor build on it.
CLI_SRC  := $(sort $(wildcard tools/common/*.c))
CLI_HDRS := $(wildcard tools/common/*.h)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TOOL_SRC := $(sort $(wildcard tools/*.c)) $(CLI_SRC)
TEST_SRC := $(sort $(wildcard tests/*.c))
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
BENCH_SRC:= $(sort $(wildcard bench/bench_*.c))

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

# Each command's usage, prose, options and epilog are data: tools/spec/NAME.txt,
# turned by scripts/cli-spec.awk into build/gen/spec_NAME.h, which
# tools/cmd_NAME.c includes (its OPTS and SPEC tables).
SPEC_TXT := $(sort $(wildcard tools/spec/*.txt))
SPEC_HDR := $(SPEC_TXT:tools/spec/%.txt=$(BUILD)/gen/spec_%.h)
$(BUILD)/gen/spec_%.h: tools/spec/%.txt scripts/cli-spec.awk
	@mkdir -p $(dir $@)
	$(call show,GEN,$@)
	$(Q)awk -f scripts/cli-spec.awk $< > $@.tmp || { rm -f $@.tmp; exit 1; }; mv $@.tmp $@
$(foreach n,$(SPEC_TXT:tools/spec/%.txt=%),$(eval $(BUILD)/obj/tools/cmd_$(n).o: $(BUILD)/gen/spec_$(n).h))
$(BUILD)/obj/tools/%.o: CFLAGS_ALL += -I$(BUILD)/gen

TOOL   := $(BUILD)/gguf
TESTBIN:= $(BUILD)/test_runner
tool_missing = $(sort $(filter-out $(LINKABLE),$(TOOL_LIBS)) $(foreach p,$(TOOL_PARTS),$(call missing,$(p))))

.PHONY: all all-parts parts-report test check check-deps check-abi check-aarch64 asan check-asan check-ubsan-clang check-tsan fuzz fuzz-build fuzz-corpus bench install uninstall clean
all: $(foreach p,$(BUILT_PARTS),$($(p)_A) $($(p)_SO)) $(if $(tool_missing),,$(TOOL)) parts-report
parts-report:
	@$(foreach p,$(SKIPPED_PARTS),echo "make: skipped lib$(p): $(call missing,$(p)) cannot be linked (install it, or see scripts/install-deps.sh)";)
	@$(if $(tool_missing),echo "make: skipped the gguf tool: $(tool_missing) cannot be linked";)
all-parts: all
	@$(if $(SKIPPED_PARTS)$(tool_missing),echo "make all-parts: not every part could be built" >&2; exit 1)

# -MMD -MP: each object depends on the headers it includes (an object
# without its .d, from before, is rebuilt).
$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.d
	@mkdir -p $(dir $@)
	$(call show,CC,$<)
	$(Q)$(CC) $(CFLAGS_ALL) $(simd_flags) -MMD -MP -c $< -o $@
DEPFILES = $(patsubst %.o,%.d,$(foreach p,$(PARTS),$($(p)_OBJ)) $(TOOL_OBJ) $(TEST_OBJ))
$(DEPFILES):
-include $(wildcard $(DEPFILES))

TOOL_A = $(foreach p,$(TOOL_PARTS),$($(p)_A))
$(TOOL): $(TOOL_OBJ) $(TOOL_A)
	$(call show,LD,$@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(TOOL_OBJ) $(TOOL_A) $(LDLIBS) $(foreach p,$(TOOL_PARTS),$($(p)_LIBS)) $(TOOL_LIBS)

# Fuzz targets as plain programs that replay their corpus (fuzz/replay.c main).
# Targets of the CLI's part name themselves in FUZZ_CLI: they link its
# objects (the libFuzzer builds compile its sources with the sanitizers).
FUZZ_CLI := fuzz_dump fuzz_args
$(FUZZ_CLI:%=$(BUILD)/fuzz/%): $(CLI_OBJ)
$(FUZZ_CLI:%=$(BUILD)/libfuzzer/%): $(CLI_SRC) $(CLI_HDRS)
# Targets of the converter and tokenizer parts name themselves in FUZZ_CONV
# (they link libgguf-convert, libgguf-tokenize and their libraries).
FUZZ_CONV := fuzz_safetensors fuzz_spm fuzz_convert_json fuzz_tokenize fuzz_tokenizer_json fuzz_spmodel fuzz_tiktoken
# ... and those of the remote part in FUZZ_REMOTE (libgguf-remote and libcurl).
FUZZ_REMOTE := fuzz_http fuzz_hub_listing
$(BUILD)/fuzz/%: fuzz/%.c fuzz/replay.c fuzz/fuzz.h $(STATIC) $(CONVLIB) $(TOKLIB) $(REMOTELIB)
	@mkdir -p $(dir $@)
	$(call show,CCLD,$@)
	$(Q)$(CC) $(CFLAGS_ALL) -Itools/common $(LDFLAGS_ALL) -o $@ $< $(if $(filter $*,$(FUZZ_CLI)),$(CLI_OBJ)) fuzz/replay.c $(if $(filter $*,$(FUZZ_CONV)),$(CONVLIB) $(TOKLIB)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTELIB)) $(STATIC) $(LDLIBS) $(if $(filter $*,$(FUZZ_CONV)),$(CONV_LIBS) $(TOK_LIBS)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTE_LIBS))

$(BUILD)/bench/%: bench/%.c bench/bench.h $(STATIC) $(CONVLIB) $(TOKLIB)
	@mkdir -p $(dir $@)
	$(call show,CCLD,$@)
	$(Q)$(CC) $(CFLAGS_ALL) -O3 $(LDFLAGS_ALL) -o $@ $< $(if $(filter bench_convert bench_tokenize,$*),$(CONVLIB) $(TOKLIB)) $(STATIC) $(LDLIBS) $(if $(filter bench_convert bench_tokenize,$*),$(CONV_LIBS) $(TOK_LIBS))

# The test runner links every companion part (and its libraries) and, for
# itself, jansson (golden JSON) and libcrypto (sha256); the AArch64 cross
# build (TEST_LIBS=) leaves them (and the tests that need them) out.
# (in TOOL_PARTS's order: a static library before the ones it uses)
COMPANIONS = $(filter-out gguf,$(TOOL_PARTS))
TEST_LIBS := -ljansson -lcrypto $(foreach p,$(COMPANIONS),$($(p)_LIBS))
TEST_CONV = $(if $(TEST_LIBS),$(foreach p,$(COMPANIONS),$($(p)_A)))
$(TESTBIN): $(TEST_OBJ) $(STATIC) $(TEST_CONV)
	$(call show,LD,$@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(TEST_OBJ) $(TEST_CONV) $(STATIC) $(LDLIBS) $(TEST_LIBS) -lpthread

# The whole suite: the dependency check, then unit, corpus, golden, CLI,
# symbol checks and fuzz replays.  It needs every part.  TEST_JOBS worker
# processes (default: one per core) take the tests in turn; TEST_ARGS
# passes more to the runner (test names to pick, --slowest K).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
TEST_ARGS ?=
test: all-parts $(TESTBIN) $(FUZZ_BIN)
	@python3 scripts/check-deps.py --self-test
	python3 scripts/check-deps.py --build $(BUILD)
	GGUF_BUILD=$(BUILD) ./$(TESTBIN) -j $(TEST_JOBS) $(TEST_ARGS)
check: test
# Dependencies run one way: every include and link edge against the
# README's layout table, and no cycle between files.
check-deps: all
	@python3 scripts/check-deps.py --self-test
	python3 scripts/check-deps.py --build $(BUILD)

# The ABI of each shared library against a previous build's (BASELINE=DIR,
# that build's directory): abidiff (abigail-tools; WITH_ABI=1
# scripts/install-deps.sh).  Additions pass and are listed; a removed or
# changed symbol or type fails.
check-abi: all
	@test -n "$(BASELINE)" || { echo "make check-abi: BASELINE=DIR (a previous build directory) is required" >&2; exit 2; }
	@command -v abidiff >/dev/null || { echo "make check-abi: abidiff not found (WITH_ABI=1 scripts/install-deps.sh)" >&2; exit 2; }
	@st=0; for p in $(BUILT_PARTS); do \
	  if [ ! -e $(BASELINE)/lib$$p.so ]; then echo "== lib$$p: new (not in $(BASELINE))"; continue; fi; \
	  echo "== lib$$p"; abidiff --headers-dir1 include --headers-dir2 include $(BASELINE)/lib$$p.so $(BUILD)/lib$$p.so; rc=$$?; \
	  if [ $$((rc & 11)) -ne 0 ]; then st=1; fi; \
	done; exit $$st

# The sanitizer builds: their flags are the CFLAGS and LDFLAGS of a build of
# their own (clang leaves the sanitizer runtime unresolved in shared objects:
# no --no-undefined there); the packaging test runs in the plain build only,
# and so do the full byte-identity sweeps (under a sanitizer a part of each:
# LGG_TEST_SWEEPS=reduced, tests/test.h).
SAN_MAKE = GGUF_PACKAGING_TEST=0 LGG_TEST_SWEEPS=reduced $(MAKE) SHLIB_LDFLAGS=
# AddressSanitizer and UndefinedBehaviorSanitizer in one build, with clang
# by default: clang's UBSan checks what gcc's does not (its intrinsics
# dereference typed pointers: a misaligned _mm256_broadcast_ss; NULL + 0),
# so one run covers both (ASAN_CC=gcc for gcc's).
ASAN_CC ?= $(if $(shell command -v clang 2>/dev/null),clang,$(CC))
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	+$(SAN_MAKE) BUILD=build/asan CC=$(ASAN_CC) CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" build/asan/gguf
check-asan:
	+$(SAN_MAKE) BUILD=build/asan CC=$(ASAN_CC) CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" test
# clang's UBSan alone (check-asan has it too)
UBSAN_CLANG_FLAGS := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-ubsan-clang:
	+$(SAN_MAKE) BUILD=build/ubsan-clang CC=clang CFLAGS="$(UBSAN_CLANG_FLAGS)" LDFLAGS="-fsanitize=undefined" test
# ThreadSanitizer over the whole suite: the quantizer's worker pipeline and
# the threaded whole-tensor calls must be free of data races
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
check-tsan:
	+TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/tests/tsan.supp" $(SAN_MAKE) BUILD=build/tsan CFLAGS="$(TSAN_FLAGS)" LDFLAGS="-fsanitize=thread" test

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
$(BUILD)/libfuzzer/%: fuzz/%.c fuzz/fuzz.h $(LIB_SRC) $(CONV_SRC) $(TOK_SRC) $(REMOTE_SRC) $(wildcard include/*.h include/libgguf/*.h) $(shell find src -name '*.h')
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_FLAGS) -Iinclude -Isrc -Itools/common -o $@ $< $(if $(filter $*,$(FUZZ_CLI)),$(CLI_SRC)) $(LIB_SRC) $(if $(filter $*,$(FUZZ_CONV)),$(CONV_SRC) $(TOK_SRC) $(CONV_LIBS) $(TOK_LIBS)) $(if $(filter $*,$(FUZZ_REMOTE)),$(REMOTE_SRC) $(REMOTE_LIBS)) $(SIMD_avx2) -lpthread -lm
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
	$(CC) $(CFLAGS_ALL) -Itests $(LDFLAGS_ALL) -o $@ fuzz/gen_corpus.c tests/gen.c tests/util.c tests/hostile.c $(STATIC) $(LDLIBS)

bench: $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; ./$$b || exit 1; done

# install: every part built (header, static and shared library, .pc), the
# tool and its manual page.  uninstall removes those files, of every part.
# The core's header includes its topic headers, installed in INCLUDEDIR/libgguf/.
TOPIC_HDRS := $(sort $(wildcard include/libgguf/*.h))
installed_files = $(foreach p,$(1),$(INCLUDEDIR)/$(notdir $($(p)_HDR)) $(if $(filter gguf,$(p)),$(TOPIC_HDRS:include/%=$(INCLUDEDIR)/%)) $(LIBDIR)/lib$(p).a \
    $(LIBDIR)/lib$(p).so.$(VERSION) $(LIBDIR)/lib$(p).so.$(SOMAJOR) $(LIBDIR)/lib$(p).so $(PKGCONFIGDIR)/lib$(p).pc)
install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(INCLUDEDIR)/libgguf $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(TOPIC_HDRS) $(DESTDIR)$(INCLUDEDIR)/libgguf/
	$(foreach p,$(BUILT_PARTS),install -m 644 $($(p)_HDR) $(DESTDIR)$(INCLUDEDIR)/ && \
	    install -m 644 $($(p)_A) $(DESTDIR)$(LIBDIR)/ && \
	    install -m 755 $($(p)_SO) $(DESTDIR)$(LIBDIR)/ && \
	    ln -sf lib$(p).so.$(VERSION) $(DESTDIR)$(LIBDIR)/lib$(p).so.$(SOMAJOR) && \
	    ln -sf lib$(p).so.$(VERSION) $(DESTDIR)$(LIBDIR)/lib$(p).so && \
	    $(call pc_text,$(p)) > $(DESTDIR)$(PKGCONFIGDIR)/lib$(p).pc && ) true
	$(if $(tool_missing),,install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1)
	$(if $(tool_missing),,install -m 755 $(TOOL) $(DESTDIR)$(BINDIR)/gguf)
	$(if $(tool_missing),,install -m 644 docs/gguf.1 $(DESTDIR)$(MANDIR)/man1/gguf.1)
uninstall:
	rm -f $(addprefix $(DESTDIR),$(call installed_files,$(PARTS)) $(BINDIR)/gguf $(MANDIR)/man1/gguf.1)
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/gguf/web/,$(WEB_INSTALLED))
	rmdir $(DESTDIR)$(INCLUDEDIR)/libgguf 2>/dev/null || true

# ---- web: the GGUF Editor (web/, docs/web.md) -------------------------------
# The core (src/base, src/format) and the CLI's value text and JSON
# renderings compiled to WebAssembly with Debian's emscripten behind a
# static page: build/web/ holds index.html and its assets.  The test helpers
# go to build/web-test/: the standalone HTTP server (tests/httpd.c) and the
# hostile-file replay built natively and for node (tests/web/verdicts.c).
# Needs WITH_WEB=1 scripts/install-deps.sh (emscripten, chromium, node,
# playwright-core in tests/web/node_modules).
EMCC ?= emcc
# emcc's own node scripts need Debian's node modules (acorn) when node is not Debian's
WEB_ENV := NODE_PATH=/usr/share/nodejs
WEB_CORE_SRC := $(sort $(shell find src/base src/format -name '*.c' -not -name '*_avx*')) web/compat.c
WEB_GLUE_SRC := web/gguf_web.c $(CLI_SRC)
WEB_HDRS := $(wildcard include/*.h include/libgguf/*.h web/*.h) $(CLI_HDRS) $(shell find src/base src/format -name '*.h')
WEB_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 $(WARN) -fno-strict-aliasing -ffp-contract=off -include web/compat.h -Iinclude -Isrc -Itools/common
WEB_EXPORTS := _malloc,_free,_lgg_version,_web_open,_web_need,_web_close,_web_reset,_web_set,_web_remove,_web_rename,_web_commit,_web_error_json,_web_view_json,_web_array_page,_web_header,_web_header_len,_web_plan_json,_web_kv_rows,_web_kv_find,_web_kv_filter,_web_kv_filter_indices,_web_open_header,_web_hf_url,_web_hf_tree_url,_web_hf_select,_web_set_item
WEB_ASSETS := $(addprefix $(BUILD)/web/,index.html app.js style.css)
WEB_TEST := $(BUILD)/web-test
.PHONY: web check-web install-web
web: $(BUILD)/web/gguf.js $(WEB_ASSETS) $(WEB_TEST)/serve $(WEB_TEST)/verdicts $(WEB_TEST)/verdicts.js
$(BUILD)/web/gguf.js: $(WEB_CORE_SRC) $(WEB_GLUE_SRC) $(WEB_HDRS)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -o $@ $(WEB_CORE_SRC) $(WEB_GLUE_SRC) -sMODULARIZE=1 -sEXPORT_NAME=createGgufModule \
	    -sEXPORTED_FUNCTIONS=$(WEB_EXPORTS) -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8 \
	    -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web -sFILESYSTEM=0
$(BUILD)/web/%: web/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB_TEST)/serve: tests/web/serve.c tests/httpd.c tests/httpd.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DLGG_TEST_NO_GOLDEN_LIBS -Itests -o $@ tests/web/serve.c tests/httpd.c -lpthread
# The replay natively (only the parts of the test helpers it calls are linked)...
WEB_VERDICT_SRC := tests/web/verdicts.c tests/hostile.c tests/gen.c tests/util.c
$(WEB_TEST)/verdicts: $(WEB_VERDICT_SRC) $(WEB_GLUE_SRC) $(WEB_HDRS) tests/hostile.h tests/gen.h tests/test.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/common -Itests -ffunction-sections -fdata-sections -Wl,--gc-sections -o $@ $(WEB_VERDICT_SRC) $(WEB_GLUE_SRC) $(STATIC) $(LDLIBS)
# ... and for node, reading the corpus files straight from the disk
$(WEB_TEST)/verdicts.js: $(WEB_VERDICT_SRC) $(WEB_CORE_SRC) $(WEB_GLUE_SRC) $(WEB_HDRS) tests/hostile.h tests/gen.h tests/test.h
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -Itests -o $@ $(WEB_VERDICT_SRC) $(WEB_CORE_SRC) $(WEB_GLUE_SRC) \
	    -sSINGLE_FILE=1 -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node
# ... and the fuzz targets that need only the core (fuzz_open also dequantizes:
# the kernels' portable paths, and checks that master would load it), replaying their corpora in node like make test does
WEB_FUZZ := fuzz_open fuzz_source fuzz_name
WEB_FUZZ_SRC := $(WEB_CORE_SRC) $(sort $(shell find src/quant -name '*.c' -not -path '*/x86/*' -not -path '*/arm/*')) src/model/dequant_tensor.c src/model/loadcheck.c
$(WEB_TEST)/fuzz_%.js: fuzz/fuzz_%.c fuzz/replay.c fuzz/fuzz.h $(WEB_FUZZ_SRC) $(WEB_HDRS) $(wildcard src/quant/*.h src/model/*.h)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -o $@ $< fuzz/replay.c $(WEB_FUZZ_SRC) -sSINGLE_FILE=1 -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node
web: $(WEB_FUZZ:%=$(WEB_TEST)/%.js)
check-web: web $(TOOL)
	tests/web/run.sh $(BUILD)
# Installed when built (make web): any static file server serves the directory.
WEB_INSTALLED := index.html app.js style.css gguf.js gguf.wasm
install: install-web
install-web:
	@if [ -f $(BUILD)/web/gguf.js ]; then \
	    install -d $(DESTDIR)$(DATADIR)/gguf/web && \
	    install -m 644 $(addprefix $(BUILD)/web/,$(WEB_INSTALLED)) $(DESTDIR)$(DATADIR)/gguf/web/; \
	fi
# ---- end of web --------------------------------------------------------------

clean:
	rm -rf build
