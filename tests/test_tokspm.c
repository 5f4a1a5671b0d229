/* test_tokspm.c -- a checkpoint folder with only a SentencePiece
 * tokenizer.model: lgg_tokenizer_open_dir gives sentencepiece's encode plus
 * LlamaTokenizer's BOS, against tests/tokenize/spm/NAME@SHA.txt (Debian's
 * python3-sentencepiece, tests/tokenize/make_spm_expect.py) for the
 * repository's Unigram model with its NFKC charsmap and the BPE models of
 * ../shared's golden checkpoints (skipped when those are missing). */
#include "libgguf_tokenize.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the texts make_spm_expect.py numbers: texts.inp's, then spm_texts.txt's lines */
static size_t load_texts(char **store, char **text, size_t *len, size_t max) {
    size_t n1, n2, k = 0;
    unsigned char *a = read_file("tests/tokenize/texts.inp", &n1), *b = read_file("tests/tokenize/spm_texts.txt", &n2);
    if (!a || !b) {
        free(a), free(b);
        return 0;
    }
    *store = malloc(n1 + n2 + 1);
    memcpy(*store, a, n1), memcpy(*store + n1, b, n2);
    free(a), free(b);
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    char *p = *store, *end = *store + n1;
    while (p < end && k < max) {
        char *q = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
        if (!q) break;
        text[k] = p, len[k++] = (size_t)(q - p);
        p = q + sizeof SEP - 1;
    }
    for (p = *store + n1, end = *store + n1 + n2; p < end && k < max;) {
        char *q = memchr(p, '\n', (size_t)(end - p));
        if (!q) break;
        text[k] = p, len[k++] = (size_t)(q - p);
        p = q + 1;
    }
    return k;
}

/* ---- without ../shared: tests/data/golden/spm/ (scripts/make-vocab-standins.py):
 * a small model copied whole, a large one reduced to the pieces the texts
 * can reach, expanded here to every id (the others: placeholder pieces no
 * text matches, score 0, type UNUSED) ---- */

#define SPM_DATA "tests/data/golden/spm"

static size_t pb_read_varint(const unsigned char *b, size_t n, size_t *pos) {
    size_t v = 0;
    for (int shift = 0; *pos < n && shift < 64; shift += 7) {
        const unsigned char c = b[(*pos)++];
        v |= (size_t)(c & 0x7f) << shift;
        if (c < 0x80) return v;
    }
    *pos = n + 1; /* truncated */
    return 0;
}

static size_t pb_put_len(unsigned char *o, size_t v) {
    size_t k = 0;
    do {
        o[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return k;
}

/* the placeholder piece of id I at O (the script's spm_placeholder); its bytes */
static size_t pb_placeholder(unsigned char *o, size_t i) {
    char t[32];
    const size_t tl = (size_t)snprintf(t, sizeof t, "\xee\x80\x80%zu\xee\x80\x81", i);
    size_t k = 0;
    o[k++] = 0x0a, k += pb_put_len(o + k, tl + 9);
    o[k++] = 0x0a, k += pb_put_len(o + k, tl);
    memcpy(o + k, t, tl), k += tl;
    memcpy(o + k, "\x15\0\0\0\0\x18\x05", 7);
    return k + 7;
}

/* the compact model C (CN bytes: the kept pieces, then the model's other
 * fields) with N pieces, the kept ones' ids IDS (K, ascending): every piece
 * at its id, then the other fields; NULL when C is not of that shape */
static unsigned char *spm_expand(const unsigned char *c, size_t cn, size_t n, const size_t *ids, size_t k, size_t *out_n) {
    unsigned char *o = malloc(cn + n * 40 + 1);
    size_t on = 0, j = 0, pos = 0, i = 0;
    for (; o && i < n; i++) {
        if (j < k && ids[j] == i) {
            const size_t start = pos, key = pb_read_varint(c, cn, &pos), len = pb_read_varint(c, cn, &pos);
            if (key != 0x0a || pos > cn || len > cn - pos) break;
            pos += len;
            memcpy(o + on, c + start, pos - start), on += pos - start, j++;
        } else {
            on += pb_placeholder(o + on, i);
        }
    }
    if (!o || i != n || j != k) {
        free(o);
        return NULL;
    }
    memcpy(o + on, c + pos, cn - pos);
    *out_n = on + cn - pos;
    return o;
}

/* spm.tsv's model NAME: its bytes (the copy, or the reduced one expanded)
 * and the reference's sha256; NULL when spm.tsv has no row for it */
static unsigned char *spm_standin(const char *name, size_t *n, char sha[65]) {
    size_t tn;
    char *t = (char *)read_file(SPM_DATA "/spm.tsv", &tn), *save = NULL;
    unsigned char *out = NULL;
    for (char *line = t ? strtok_r(t, "\n", &save) : NULL; line && !out; line = strtok_r(NULL, "\n", &save)) {
        char rel[512], form[16], path[700];
        size_t pieces = 0, k = 0, cn;
        int off = 0;
        if (sscanf(line, "%511s %*s %64s %15s %zu %n", rel, sha, form, &pieces, &off) < 3) continue;
        char *dir_end = strrchr(rel, '/');
        if (!dir_end || dir_end - rel < (ptrdiff_t)strlen(name) || strncmp(dir_end - strlen(name), name, strlen(name)))
            continue;
        snprintf(path, sizeof path, "%s/%s.model", SPM_DATA, name);
        unsigned char *c = read_file(path, &cn);
        if (c && !strcmp(form, "whole")) { /* the reference itself */
            char got[65];
            sha256_hex(c, cn, got);
            CHECKF(!strcmp(got, sha), "%s: sha256 %s, the reference's is %s", path, got, sha);
            out = c, *n = cn;
            break;
        }
        size_t *ids = malloc((pieces + 1) * sizeof *ids);
        for (char *p = line + off; ids && off && *p && k < pieces; k++) {
            ids[k] = strtoul(p, &p, 10);
            if (*p == ',') p++;
        }
        out = c && ids ? spm_expand(c, cn, pieces, ids, k, n) : NULL;
        CHECKF(out != NULL, "%s: cannot expand the reduced model", path);
        free(ids);
        free(c);
        break;
    }
    free(t);
    return out;
}

/* M (MN bytes), a tokenizer.model, in a folder of its own named DIRNAME,
 * against the expected ids of FILE (NAME@SHA) */
static void spm_run(const char *file, const char *name, const char *dirname, const unsigned char *m, size_t mn) {
    char dir[1200], expect[1400];
    snprintf(dir, sizeof dir, "%s", scratch_path(dirname));
    mkdir(dir, 0755);
    snprintf(expect, sizeof expect, "%s/tokenizer.model", dir);
    FILE *f = fopen(expect, "wb");
    REQUIRE(f && fwrite(m, 1, mn, f) == mn && fclose(f) == 0);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_tokenizer_open_dir(dir, 0, &t, &err) == LGG_OK || (test_fail(__FILE__, __LINE__, "%s", err.message), 0));
    snprintf(expect, sizeof expect, "tests/tokenize/spm/%s.txt", file);
    size_t en;
    char *exp = (char *)read_file(expect, &en), *store = NULL;
    static char *text[256];
    static size_t len[256];
    size_t nt = load_texts(&store, text, len, 256);
    REQUIRE(exp && nt > 60);
    int cases = 0, bad = 0;
    for (char *line = exp, *end = exp + en; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl) break;
        *nl = 0;
        size_t i = strtoul(line, NULL, 10);
        char *want = strchr(line, '[');
        REQUIRE(i < nt && want);
        int32_t ids[4096];
        int64_t k = lgg_tokenize(t, text[i], len[i], LGG_TOKENIZE_ADD_SPECIAL, ids, 4096, &err);
        char got[65536] = "[";
        size_t gl = 1;
        for (int64_t j = 0; j < k && j < 4096 && gl < sizeof got - 16; j++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%d", j ? ", " : "", (int)ids[j]);
        snprintf(got + gl, sizeof got - gl, "]");
        if (k < 0 || strcmp(got, want)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%s text %zu (%.*s): got %s want %s", name, i, (int)(len[i] > 40 ? 40 : len[i]),
                          text[i], k < 0 ? err.message : got, want);
        }
        cases++;
        line = nl + 1;
    }
    CHECKF(bad == 0, "%s: %d of %d texts differ from sentencepiece", name, bad, cases);
    CHECK(cases > 50);
    free(exp);
    free(store);
    lgg_tokenizer_free(t);
}

/* NAME@SHA: the model (the repository's, or ../shared's golden checkpoint's)
 * when it is there, and spm.tsv's stand-in of it always */
static void spm_case(void *arg) {
    const char *file = arg; /* NAME@SHA (of NAME@SHA.txt) */
    char name[256], model[1200], sha[65] = "", sha_st[65] = "", label[300];
    snprintf(name, sizeof name, "%s", file);
    char *at = strchr(name, '@');
    REQUIRE(at != NULL);
    *at = 0;
    if (!strcmp(name, "unigram-nmt-nfkc")) snprintf(model, sizeof model, "tests/data/%s.model", name);
    else snprintf(model, sizeof model, "%sgolden/convert/%s/tokenizer.model", shared_path(""), name);
    size_t mn, sn = 0;
    unsigned char *m = read_file(model, &mn), *st = spm_standin(name, &sn, sha_st);
    if (!m && !st) {
        test_skip("%s is missing, and %s/spm.tsv has no stand-in of it", model, SPM_DATA);
        return;
    }
    if (m) {
        sha256_hex(m, mn, sha);
        CHECKF(!strncmp(sha, at + 1, 12), "%s: sha256 %.12s, the expected ids are of %.12s", model, sha, at + 1);
        spm_run(file, name, name, m, mn);
    }
    if (st) {
        CHECKF(!strncmp(sha_st, at + 1, 12), "%s's stand-in: of sha256 %.12s, the expected ids are of %.12s", name,
               sha_st, at + 1);
        snprintf(label, sizeof label, "%s (stand-in)", name);
        spm_run(file, label, "spm-standin", st, sn);
    }
    free(m);
    free(st);
}

/* A T5-style UGM vocabulary written from unigram-nmt-nfkc.model as the
 * reference converter's T5 path writes it (with its precompiled NFKC
 * charsmap), against llama-tokenize b4747 on texts.inp and spm_texts.txt
 * (tests/tokenize/make_t5_expect.py): mode A as llama-tokenize runs by
 * default (add_special = the file's add_bos, which is false, so no EOS;
 * special tokens parsed), mode B with --no-bos --no-parse-special. */
TEST(tokenize_spm_t5_ugm_llama) {
    lgg_file *f = NULL;
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_open_file("tests/data/t5-unigram-nmt-nfkc.gguf", NULL, &f, &err) == LGG_OK);
    REQUIRE(lgg_tokenizer_open_gguf(f, &t, &err) == LGG_OK || (test_fail(__FILE__, __LINE__, "%s", err.message), 0));
    lgg_close(f);
    CHECK(lgg_tokenizer_type(t) == LGG_VOCAB_UGM);
    size_t en;
    char *exp = (char *)read_file("tests/tokenize/t5/t5-unigram-nmt-nfkc.txt", &en), *store = NULL;
    static char *text[256];
    static size_t len[256];
    size_t nt = load_texts(&store, text, len, 256);
    REQUIRE(exp && nt > 60);
    int cases = 0, bad = 0;
    for (char *line = exp, *end = exp + en; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl) break;
        *nl = 0;
        char mode = line[0];
        size_t i = strtoul(line + 2, NULL, 10);
        char *want = strchr(line + 2, ' ');
        REQUIRE(i < nt && want && (mode == 'A' || mode == 'B'));
        want++;
        unsigned flags = mode == 'B' ? 0 : LGG_TOKENIZE_PARSE_SPECIAL | (lgg_tokenizer_add_bos(t) ? LGG_TOKENIZE_ADD_SPECIAL : 0);
        int32_t ids[4096];
        int64_t k = lgg_tokenize(t, text[i], len[i], flags, ids, 4096, &err);
        char got[65536] = "[";
        size_t gl = 1;
        for (int64_t j = 0; j < k && j < 4096 && gl < sizeof got - 16; j++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%d", j ? ", " : "", (int)ids[j]);
        snprintf(got + gl, sizeof got - gl, "]");
        const char *g = k < 0 ? "ERROR" : got;
        if (strcmp(g, want)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%c text %zu (%.*s): got %s want %s", mode, i, (int)(len[i] > 40 ? 40 : len[i]),
                          text[i], g, want);
        }
        cases++;
        line = nl + 1;
    }
    CHECKF(bad == 0, "%d of %d cases differ from llama-tokenize", bad, cases);
    CHECK(cases > 120);
    free(exp);
    free(store);
    lgg_tokenizer_free(t);
}

__attribute__((constructor)) static void register_spm_cases(void) {
    test_register_dir("tests/tokenize/spm", ".txt", "tokenize_spm/", spm_case);
}


/* ---- the one ModelProto reader (lgg_spm_parse), which the converter uses too ---- */

static void pb_varint(buf *b, uint64_t v) {
    while (v >= 0x80) buf_u8(b, (uint8_t)(v | 0x80)), v >>= 7;
    buf_u8(b, (uint8_t)v);
}
static void pb_bytes(buf *b, unsigned field, const void *p, size_t n) {
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_varint(b, n);
    buf_put(b, p, n);
}
static void pb_uint(buf *b, unsigned field, uint64_t v) {
    pb_varint(b, (uint64_t)field << 3);
    pb_varint(b, v);
}

/* Pieces of types normal, user-defined and byte, a trainer_spec and a
 * normalizer_spec, built by the wire format's rules (protobuf's encoding
 * guide: key = field << 3 | wire type), with fields the reader skips. */
TEST(tokenize_spm_proto_reader) {
    static const char *const text[] = {"<unk>", "<user>", "<0x41>"};
    static const int type[] = {2, 4, 6};
    buf m = {0}, sub = {0};
    for (int i = 0; i < 3; i++) {
        buf p = {0};
        pb_bytes(&p, 1, text[i], strlen(text[i]));
        buf_u8(&p, 0x15); /* field 2, fixed32: the score */
        float sc = -1.5f * (float)i;
        uint32_t u;
        memcpy(&u, &sc, 4);
        buf_u32(&p, u);
        pb_uint(&p, 3, (uint64_t)type[i]);
        pb_bytes(&m, 1, p.p, p.n);
        buf_free(&p);
    }
    pb_uint(&sub, 3, 2);            /* model_type BPE */
    pb_uint(&sub, 24, 0);           /* treat_whitespace_as_suffix */
    pb_uint(&sub, 35, 1);           /* byte_fallback */
    pb_uint(&sub, 40, 0);           /* unk_id */
    pb_uint(&sub, 41, 5);           /* bos_id */
    pb_uint(&sub, 42, 0xFFFFFFFFFFFFFFFFull); /* eos_id -1, as protobuf writes a negative int32 */
    pb_bytes(&sub, 46, "[BOS]", 5); /* bos_piece */
    pb_bytes(&sub, 7, "skipped", 7);
    pb_bytes(&m, 2, sub.p, sub.n);
    sub.n = 0;
    pb_bytes(&sub, 1, "identity", 8);
    pb_bytes(&sub, 2, "\x01\x02\x03", 3); /* precompiled_charsmap */
    pb_uint(&sub, 3, 0);                  /* add_dummy_prefix false */
    pb_bytes(&m, 3, sub.p, sub.n);
    pb_uint(&m, 9, 7); /* an unknown top-level field */
    lgg_spm *s = NULL;
    lgg_error err;
    REQUIRE(lgg_spm_parse(m.p, m.n, &s, &err) == LGG_OK);
    CHECK_EQ_U(lgg_spm_count(s), 3);
    const lgg_spm_piece *p = lgg_spm_at(s, 1);
    REQUIRE(p);
    CHECK(p->piece.len == 6 && !memcmp(p->piece.ptr, "<user>", 6));
    CHECK_EQ_U(p->type, 1); /* user-defined counts as normal for the converter */
    CHECK_EQ_U(p->proto_type, 4); /* the tokenizer keeps what the model says */
    CHECK(lgg_spm_at(s, 2)->type == 6 && lgg_spm_at(s, 2)->score == -3.0f);
    CHECK(lgg_spm_at(s, 3) == NULL);
    const lgg_spm_specs *sp = lgg_spm_get_specs(s);
    REQUIRE(sp);
    CHECK_EQ_U(sp->model_type, 2);
    CHECK(sp->byte_fallback && !sp->treat_whitespace_as_suffix);
    CHECK(sp->unk_id == 0 && sp->bos_id == 5 && sp->eos_id == -1);
    CHECK(sp->bos_piece.len == 5 && !memcmp(sp->bos_piece.ptr, "[BOS]", 5));
    CHECK(sp->eos_piece.len == 4 && !memcmp(sp->eos_piece.ptr, "</s>", 4)); /* absent: the default */
    CHECK(sp->normalizer_name.len == 8 && !memcmp(sp->normalizer_name.ptr, "identity", 8));
    CHECK(sp->charsmap_len == 3 && sp->charsmap && sp->charsmap[2] == 3);
    CHECK(!sp->add_dummy_prefix && sp->remove_extra_whitespaces && sp->escape_whitespaces);
    lgg_spm_free(s);
    CHECK(lgg_spm_get_specs(NULL) == NULL);
    /* every cut is refused or read, never a crash; a piece of type 7 is refused */
    for (size_t cut = 0; cut < m.n; cut++)
        if (lgg_spm_parse(m.p, cut, &s, &err) == LGG_OK) lgg_spm_free(s);
    buf bad = {0}, piece = {0};
    pb_bytes(&piece, 1, "x", 1);
    pb_uint(&piece, 3, 7);
    pb_bytes(&bad, 1, piece.p, piece.n);
    CHECK(lgg_spm_parse(bad.p, bad.n, &s, &err) == LGG_ERR_INVALID);
    buf_free(&bad), buf_free(&piece), buf_free(&sub), buf_free(&m);
}

#endif
