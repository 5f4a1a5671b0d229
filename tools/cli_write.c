/* cli_write.c -- every file the tool writes goes through here, so that
 * SIGINT, SIGTERM and SIGHUP remove the temporary file a write leaves
 * beside its target (SIGKILL aside, no run leaves one behind). */
#include "cli.h"

lgg_status cli_write_file(const lgg_writer *w, const char *out, const lgg_write_options *o, lgg_error *e) {
    return lgg_writer_write_file(w, out, o, e);
}
