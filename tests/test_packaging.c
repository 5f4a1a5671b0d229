/* test_packaging.c -- the libraries as a distribution ships them:
 * tests/packaging.sh stages `make install` with a distribution's
 * directories and hardening flags, builds one program per library with
 * pkg-config against the staged shared libraries, runs them, and checks
 * that `make uninstall` leaves no file (see the script for every check). */
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

TEST(packaging_staged_install_links_through_pkg_config) {
    /* the sanitizer targets rebuild this same tree under their flags; the
     * plain `make test` runs the check once */
    const char *off = getenv("GGUF_PACKAGING_TEST");
    if (off && !strcmp(off, "0")) {
        test_skip("GGUF_PACKAGING_TEST=0 (a sanitizer build: the plain make test runs it)");
        return;
    }
    char cwd[4096], dir[4096];
    REQUIRE(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(dir, sizeof dir, "%s/packaging", scratch_dir());
    char *argv[] = {"/bin/sh", "tests/packaging.sh", cwd, dir, NULL}, *out, *err;
    size_t ol, el;
    int status;
    char mk[4200];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", dir);
    REQUIRE(system(mk) == 0);
    REQUIRE(run_capture(argv, &out, &ol, &err, &el, &status) == 0);
    if (status == 77) {
        test_skip("%s", out);
    } else {
        CHECKF(status == 0 && strstr(out, "packaging: ok"), "tests/packaging.sh (status %d):\n%s%s", status, out, err);
    }
    free(out);
    free(err);
}
