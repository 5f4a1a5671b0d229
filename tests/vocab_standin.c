/* vocab_standin.c -- the reduced vocabularies expanded back to every id
 * (vocab_standin.h).  A compact file is a GGUF holding the reference's keys
 * with tokenizer.ggml.tokens, .scores and .token_type cut to the kept
 * entries, test.vocab.ids (their ids, ascending), test.vocab.n_tokens and
 * test.vocab.sha256 (the reference's); the stand-in puts each kept entry at
 * its id and fills the others as scripts/make-vocab-standins.py's expand()
 * does: the text U+E000 ID U+E001, score 0, type UNUSED (5). */
#include "vocab_standin.h"

#include "libgguf.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define VOCAB_DATA "tests/data/golden/vocab"

typedef struct expansion {
    uint32_t n, kept;
    uint32_t *ids;   /* kept ids, ascending */
    lgg_str *tokens; /* n texts */
    char *names;     /* the placeholders' bytes */
    float *scores;
    int32_t *types;
} expansion;

static void expansion_free(expansion *x) {
    free(x->ids), free(x->tokens), free(x->names), free(x->scores), free(x->types);
}

/* The kept ids and the placeholders, from the compact file F. */
static bool expansion_init(const lgg_file *f, expansion *x) {
    int64_t kn = lgg_find_key_cstr(f, "test.vocab.n_tokens"), ki = lgg_find_key_cstr(f, "test.vocab.ids");
    if (kn < 0 || ki < 0 || lgg_value_u32(&lgg_kv_at(f, (uint64_t)kn)->value, &x->n) != LGG_OK) return false;
    const lgg_value *ids = &lgg_kv_at(f, (uint64_t)ki)->value;
    x->kept = (uint32_t)ids->count;
    x->ids = malloc((x->kept + 1) * sizeof *x->ids);
    x->tokens = calloc(x->n + 1, sizeof *x->tokens);
    x->names = malloc((size_t)x->n * 24 + 1);
    x->scores = calloc(x->n + 1, sizeof *x->scores);
    x->types = malloc((x->n + 1) * sizeof *x->types);
    if (!x->ids || !x->tokens || !x->names || !x->scores || !x->types || x->kept > x->n) return false;
    for (uint32_t j = 0; j < x->kept; j++) {
        lgg_value e;
        if (lgg_array_get(ids, j, &e) != LGG_OK || lgg_value_u32(&e, &x->ids[j]) != LGG_OK || x->ids[j] >= x->n ||
            (j && x->ids[j] <= x->ids[j - 1]))
            return false;
    }
    for (uint32_t i = 0; i < x->n; i++) {
        char *p = x->names + (size_t)i * 24;
        x->tokens[i].ptr = p;
        x->tokens[i].len = (uint64_t)snprintf(p, 24, "\xee\x80\x80%u\xee\x80\x81", (unsigned)i);
        x->types[i] = 5;
    }
    return true;
}

/* The kept entries of array V (tokens, scores or token types) at their ids. */
static bool expansion_fill(expansion *x, int which, const lgg_value *v) {
    if (v->count != x->kept) return false;
    for (uint32_t j = 0; j < x->kept; j++) {
        lgg_value e;
        const uint32_t i = x->ids[j];
        if (lgg_array_get(v, j, &e) != LGG_OK) return false;
        lgg_status s = which == 0 ? lgg_value_string(&e, &x->tokens[i])
                       : which == 1 ? lgg_value_f32(&e, &x->scores[i])
                                    : lgg_value_i32(&e, &x->types[i]);
        if (s != LGG_OK) return false;
    }
    return true;
}

bool vocab_expand(const char *from, const char *to) {
    static const char *const ARRAYS[] = {"tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type"};
    static const uint32_t ELEM[] = {LGG_VT_STRING, LGG_VT_F32, LGG_VT_I32};
    lgg_file *f = NULL;
    lgg_writer *w = NULL;
    lgg_error err;
    expansion x = {0};
    bool ok = lgg_open_file(from, NULL, &f, &err) == LGG_OK && lgg_writer_create(NULL, &w, &err) == LGG_OK &&
              expansion_init(f, &x);
    for (uint64_t k = 0; ok && k < lgg_kv_count(f); k++) {
        const lgg_kv *kv = lgg_kv_at(f, k);
        if (kv->key.len >= 11 && !memcmp(kv->key.ptr, "test.vocab.", 11)) continue;
        int which = -1;
        for (int a = 0; a < 3; a++)
            if (kv->key.len == strlen(ARRAYS[a]) && !memcmp(kv->key.ptr, ARRAYS[a], kv->key.len)) which = a;
        if (which < 0) {
            ok = lgg_writer_set_value(w, kv->key.ptr, kv->key.len, &kv->value, &err) == LGG_OK;
            continue;
        }
        const void *data = which == 0 ? (const void *)x.tokens : which == 1 ? (const void *)x.scores : x.types;
        lgg_wvalue v = {LGG_VT_ARRAY, ELEM[which], x.n, data};
        ok = expansion_fill(&x, which, &kv->value) && lgg_writer_set(w, kv->key.ptr, kv->key.len, &v, &err) == LGG_OK;
    }
    char tmp[1700];
    snprintf(tmp, sizeof tmp, "%s.%ld", to, (long)getpid());
    ok = ok && lgg_writer_write_file(w, tmp, NULL, &err) == LGG_OK && rename(tmp, to) == 0;
    CHECKF(ok, "%s: cannot expand the reduced vocabulary into %s", from, to);
    expansion_free(&x);
    lgg_writer_free(w);
    lgg_close(f);
    return ok;
}

/* vocab.tsv's rows: reference (corpus/llama.cpp/BASE), bytes, sha256, compact file */
typedef struct vocab_row {
    char base[512], sha[65], compact[256];
} vocab_row;

static int vocab_rows(vocab_row *rows, int cap) {
    size_t n;
    char *t = (char *)read_file(VOCAB_DATA "/vocab.tsv", &n);
    if (!t) return 0;
    int k = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line && k < cap; line = strtok_r(NULL, "\n", &save)) {
        char rel[512];
        unsigned long long bytes;
        if (sscanf(line, "%511s %llu %64s %255s", rel, &bytes, rows[k].sha, rows[k].compact) != 4) continue;
        snprintf(rows[k].base, sizeof rows[k].base, "%s", strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);
        k++;
    }
    free(t);
    return k;
}

const char *vocab_standin_dir(void) {
    static char dir[1024];
    static int state; /* 0 not built, 1 built, -1 failed */
    if (state) return state == 1 ? dir : NULL;
    snprintf(dir, sizeof dir, "%s/vocab", scratch_dir());
    vocab_row rows[64];
    const int n = vocab_rows(rows, 64);
    CHECKF(n > 0, "%s/vocab.tsv is missing or empty", VOCAB_DATA);
    state = n > 0 && (mkdir(dir, 0700) == 0 || errno == EEXIST) ? 1 : -1;
    for (int i = 0; i < n && state == 1; i++) {
        char from[600], to[1600];
        snprintf(from, sizeof from, "%s/%s", VOCAB_DATA, rows[i].compact);
        snprintf(to, sizeof to, "%s/%s", dir, rows[i].base);
        if (access(to, R_OK) != 0 && !vocab_expand(from, to)) state = -1;
    }
    return state == 1 ? dir : NULL;
}

/* vocab.tsv's row for NAME and SHA (NULL: the first for NAME), or false */
static bool vocab_find(const char *name, const char *sha, vocab_row *out) {
    static vocab_row rows[64];
    const int n = vocab_rows(rows, 64);
    const size_t nl = strlen(name);
    for (int i = 0; i < n; i++) {
        if (strncmp(rows[i].base, name, nl) || rows[i].base[nl] != '@') continue;
        if (sha && strncmp(rows[i].sha, sha, strlen(sha))) continue;
        *out = rows[i];
        return true;
    }
    return false;
}

const char *vocab_standin(const char *name, const char *sha) {
    static char p[4][1600];
    static int k;
    vocab_row r;
    if (!vocab_find(name, sha, &r)) return NULL;
    const char *dir = vocab_standin_dir();
    if (!dir) return NULL;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, r.base);
    return p[k];
}

const char *vocab_realistic(const char *name) {
    static char p[4][1600];
    static int k;
    k = (k + 1) % 4;
    const char *d = getenv("GGUF_LLAMA_CPP");
    snprintf(p[k], sizeof p[k], "%s/models/%s.gguf", d && *d ? d : "../ref/llama.cpp", name);
    if (access(p[k], R_OK) == 0) return p[k];
    vocab_row r;
    if (!vocab_find(name, NULL, &r)) return NULL;
    char rel[600];
    snprintf(rel, sizeof rel, "corpus/llama.cpp/%s", r.base);
    snprintf(p[k], sizeof p[k], "%s", shared_path(rel));
    if (access(p[k], R_OK) == 0) return p[k];
    return vocab_standin(name, NULL);
}
