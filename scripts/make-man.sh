#!/bin/sh
# make-man.sh -- write docs/gguf.1 from docs/gguf.1.in (the prose) and the
# commands' option tables (tools/cmd_*.c), through the built tool:
#   build/gguf help --man docs/gguf.1.in > docs/gguf.1
# Run it after `make` whenever the prose or an option table changes; the test
# cli_man_page_generated fails while the committed page differs.
# GGUF_BUILD=DIR names another build directory (default build).
set -eu
cd "$(dirname "$0")/.."
tool="${GGUF_BUILD:-build}/gguf"
[ -x "$tool" ] || { echo "make-man.sh: $tool is missing: run make first" >&2; exit 1; }
"$tool" help --man docs/gguf.1.in > docs/gguf.1.tmp
mv docs/gguf.1.tmp docs/gguf.1
echo "make-man.sh: docs/gguf.1 written from docs/gguf.1.in and $tool's option tables"
