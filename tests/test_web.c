/* test_web.c -- the GGUF Editor (web/) as one test of the suite: runs
 * tests/web/run.sh (the WebAssembly replay of the hostile-file corpus
 * against the native build, then the browser tests in headless Chromium).
 * Skipped, with the script's reason, when what it needs is missing:
 * node, chromium, playwright-core (WITH_WEB=1 scripts/install-deps.sh) or
 * the web build (make web). */
#include "test.h"

#include <stdlib.h>
#include <string.h>

TEST_ALONE(web_editor) { /* its browser tests bound the editor's response times */
    char *argv[] = {"tests/web/run.sh", (char *)build_dir(), NULL};
    char *out = NULL, *err = NULL;
    size_t on = 0, en = 0;
    int status = -1;
    REQUIRE(run_capture(argv, &out, &on, &err, &en, &status) == 0);
    if (status == 77) {
        char *nl = strchr(out, '\n');
        if (nl) *nl = 0;
        test_skip("%s", out);
    } else {
        CHECKF(status == 0, "tests/web/run.sh %s: status %d\n%s%s", build_dir(), status, out, err);
    }
    free(out);
    free(err);
}
