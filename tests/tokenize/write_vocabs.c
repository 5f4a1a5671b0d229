/* write_vocabs.c -- writes fuzz/tok_vocabs.h's small vocabularies as
 * DIR/synth-NAME.gguf, for make_expect.py to run llama-tokenize on (not
 * part of the build):
 *   cc -Iinclude -o /tmp/write_vocabs tests/tokenize/write_vocabs.c build/libgguf.a -lpthread -lm
 *   /tmp/write_vocabs /tmp/synth */
#include "../../fuzz/tok_vocabs.h"

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    for (int k = 0; k < N_VOCABS; k++) {
        char name[64], path[1024];
        tok_vocab_name(k, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s.gguf", argv[1], name);
        if (tok_vocab_write(k, path)) return 1;
    }
    return 0;
}
