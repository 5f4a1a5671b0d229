#!/bin/sh
# run.sh BUILD -- the GGUF Editor's tests (make check-web; the test runner's
# web_editor test calls it): the WebAssembly replay of the hostile-file
# corpus against the native build, then the browser tests
# (tests/web/editor.test.mjs: playwright-core driving Debian's chromium).
# Exit 0: passed; 77: skipped (the reason on stdout: something to run them
# with is missing); anything else: failed.
set -eu
B=${1:-build}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "skipped: $*"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node is not installed (WITH_WEB=1 scripts/install-deps.sh)"
[ -x "$CHROMIUM" ] || skip "no chromium at $CHROMIUM (WITH_WEB=1 scripts/install-deps.sh)"
[ -d tests/web/node_modules/playwright-core ] || skip "playwright-core is not installed (WITH_WEB=1 scripts/install-deps.sh)"
SHARED=${GGUF_SHARED:-../shared}
[ -d "$SHARED/golden" ] && [ -d "$SHARED/corpus" ] || skip "the reference material ($SHARED, or GGUF_SHARED) is missing"
export GGUF_SHARED="$SHARED"
for f in web/gguf.js web/gguf.wasm web/index.html web-test/serve web-test/verdicts web-test/verdicts.js gguf; do
    [ -e "$B/$f" ] || skip "$B/$f is not built (make web)"
done

# The hostile-file replay: the crafted cases (tests/hostile.c), the fuzz
# corpora and the shared corpus, natively and in node; same lines, and each
# crafted case with the status it expects.
inputs="fuzz/corpus/fuzz_open fuzz/corpus/fuzz_source fuzz/corpus/fuzz_edit fuzz/regressions $SHARED/corpus $SHARED/golden"
"$B/web-test/verdicts" $inputs > "$B/web-test/verdicts.native"
node "$B/web-test/verdicts.js" $inputs > "$B/web-test/verdicts.wasm"
if ! cmp -s "$B/web-test/verdicts.native" "$B/web-test/verdicts.wasm"; then
    echo "the WebAssembly build's verdicts differ from the native build's:"
    diff "$B/web-test/verdicts.native" "$B/web-test/verdicts.wasm" | head -20
    exit 1
fi
n=$(wc -l < "$B/web-test/verdicts.wasm")
bad=$(awk '$1 == "hostile" && substr($3, 8) != substr($4, 5)' "$B/web-test/verdicts.wasm")
[ -z "$bad" ] || { echo "crafted cases with another status than expected:"; echo "$bad"; exit 1; }
echo "replay: $n inputs, the same verdicts natively and in WebAssembly"
# The fuzz targets that need only the core, replaying their corpora in node
# as make test replays them natively: any failed check aborts.
for t in fuzz_open fuzz_source fuzz_name; do
    [ -e "$B/web-test/$t.js" ] || skip "$B/web-test/$t.js is not built (make web)"
    dirs="fuzz/corpus/$t"
    [ -d "fuzz/regressions/$t" ] && dirs="$dirs fuzz/regressions/$t"
    # the source target checks itself against lgg_open_memory: give it the open corpus too
    [ "$t" = fuzz_source ] && dirs="$dirs fuzz/corpus/fuzz_open"
    node "$B/web-test/$t.js" $dirs
done

exec node tests/web/editor.test.mjs "$B"
