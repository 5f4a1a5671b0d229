/* serve.c -- tests/httpd.c as a standalone server for the browser tests
 * (tests/web/run.sh): serves ROOT on 127.0.0.1, prints the port, then
 * answers "counts" on standard input with "REQUESTS BYTES" (body bytes sent
 * since the last "counts") and ends at end of input. */
#include "httpd.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: serve ROOT\n");
        return 2;
    }
    httpd *h = httpd_start(argv[1]);
    if (!h) {
        fprintf(stderr, "serve: cannot listen on 127.0.0.1\n");
        return 1;
    }
    printf("%d\n", httpd_port(h));
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "counts", 6)) continue;
        httpd_counts c = httpd_take_counts(h);
        printf("%lu %llu\n", c.requests, c.sent);
        fflush(stdout);
    }
    httpd_stop(h);
    return 0;
}
