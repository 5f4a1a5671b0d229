/* spm.c -- the pieces of a SentencePiece ModelProto (tokenizer.model), read
 * straight from the protobuf wire format with a bounded cursor.  The
 * converter needs three fields of one repeated message, so a 100-line reader
 * replaces protobuf-c and its generated code (docs/convert.md). */
#include "cv.h"

#include <stdlib.h>
#include <string.h>

struct lgg_spm {
    size_t n;
    lgg_spm_piece *p;
};

typedef struct pb {
    const uint8_t *p, *end;
} pb;

static int varint(pb *c, uint64_t *v) {
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end) return 0;
        uint8_t b = *c->p++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 1;
        }
    }
    return 0; /* more than 10 bytes */
}

/* Skip one field of wire type wt; 0 if it does not fit or wt is unknown. */
static int skip(pb *c, unsigned wt) {
    uint64_t v;
    switch (wt) {
    case 0: return varint(c, &v);
    case 1: if ((size_t)(c->end - c->p) < 8) return 0; c->p += 8; return 1;
    case 2: if (!varint(c, &v) || v > (uint64_t)(c->end - c->p)) return 0; c->p += v; return 1;
    case 5: if ((size_t)(c->end - c->p) < 4) return 0; c->p += 4; return 1;
    default: return 0; /* groups (3, 4) are not used by sentencepiece */
    }
}

static lgg_status piece(pb c, size_t idx, lgg_spm_piece *out, lgg_error *err) {
    out->piece.ptr = "";
    out->piece.len = 0;
    out->score = 0.0f;
    int32_t type = 1;
    while (c.p < c.end) {
        uint64_t key, v;
        if (!varint(&c, &key)) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated field", idx);
        unsigned f = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (f == 1 && wt == 2) {
            if (!varint(&c, &v) || v > (uint64_t)(c.end - c.p))
                return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: text runs past its message", idx);
            out->piece.ptr = (const char *)c.p;
            out->piece.len = v;
            c.p += v;
        } else if (f == 2 && wt == 5) {
            if (c.end - c.p < 4) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated score", idx);
            uint32_t u = (uint32_t)c.p[0] | (uint32_t)c.p[1] << 8 | (uint32_t)c.p[2] << 16 | (uint32_t)c.p[3] << 24;
            memcpy(&out->score, &u, 4);
            c.p += 4;
        } else if (f == 3 && wt == 0) {
            if (!varint(&c, &v)) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated type", idx);
            if (v < 1 || v > 6)
                return lgg__cv_fail(err, LGG_ERR_INVALID, "tokenizer.model: piece %zu: unknown type %llu", idx,
                                    (unsigned long long)v);
            type = (int32_t)v;
        } else if (!skip(&c, wt)) {
            return lgg__cv_fail(err, LGG_ERR_INVALID, "tokenizer.model: piece %zu: bad field %u (wire type %u)", idx, f, wt);
        }
    }
    /* The processor reports user-defined pieces as none of unknown, control,
     * unused or byte, so the reference converter writes them as normal. */
    out->type = type == 4 ? 1 : type;
    return LGG_OK;
}

/* Count the pieces (field 1) so the array is sized once, from what is
 * really in the buffer. */
static lgg_status count(pb c, size_t *n, lgg_error *err) {
    *n = 0;
    while (c.p < c.end) {
        uint64_t key;
        if (!varint(&c, &key)) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: truncated field key");
        if ((key >> 3) == 1 && (key & 7) == 2) (*n)++;
        if (!skip(&c, (unsigned)(key & 7)))
            return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "tokenizer.model: field %llu (wire type %u) runs past the end",
                                (unsigned long long)(key >> 3), (unsigned)(key & 7));
    }
    if (*n == 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "tokenizer.model: no pieces");
    return LGG_OK;
}

lgg_status lgg_spm_parse(const void *data, size_t size, lgg_spm **out, lgg_error *err) {
    if (!out || (!data && size)) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_spm_parse: NULL argument");
    *out = NULL;
    if (!size) return lgg__cv_fail(err, LGG_ERR_INVALID, "tokenizer.model: empty file");
    pb c = {data, (const uint8_t *)data + size};
    size_t n;
    lgg_status st = count(c, &n, err);
    if (st) return st;
    lgg_spm *s = calloc(1, sizeof *s);
    if (!s || !(s->p = calloc(n, sizeof *s->p))) {
        free(s);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "tokenizer.model: out of memory");
    }
    while (c.p < c.end) {
        uint64_t key = 0, len = 0;
        varint(&c, &key); /* count() proved every field well formed */
        if ((key >> 3) == 1 && (key & 7) == 2) {
            varint(&c, &len);
            pb sub = {c.p, c.p + len};
            if ((st = piece(sub, s->n, &s->p[s->n], err)) != LGG_OK) {
                lgg_spm_free(s);
                return st;
            }
            s->n++;
            c.p += len;
        } else {
            skip(&c, (unsigned)(key & 7));
        }
    }
    *out = s;
    return LGG_OK;
}

void lgg_spm_free(lgg_spm *s) {
    if (!s) return;
    free(s->p);
    free(s);
}
size_t lgg_spm_count(const lgg_spm *s) { return s ? s->n : 0; }
const lgg_spm_piece *lgg_spm_at(const lgg_spm *s, size_t i) { return s && i < s->n ? &s->p[i] : NULL; }

/* The two specs' fields a UGM vocabulary needs: trainer_spec (2) ->
 * model_type (3), bos_piece (46), eos_piece (47); normalizer_spec (3) -> precompiled_charsmap (2),
 * add_dummy_prefix (3), remove_extra_whitespaces (4); proto defaults when
 * absent. */
static lgg_status spec(pb c, unsigned which, cv_spm_specs *o) {
    while (c.p < c.end) {
        uint64_t key, v;
        if (!varint(&c, &key)) return LGG_ERR_TRUNCATED;
        unsigned f = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (wt == 0 && ((which == 2 && f == 3) || (which == 3 && (f == 3 || f == 4)))) {
            if (!varint(&c, &v)) return LGG_ERR_TRUNCATED;
            if (which == 2) o->model_type = (uint32_t)v;
            else if (f == 3) o->add_dummy_prefix = v != 0;
            else o->remove_extra_whitespaces = v != 0;
        } else if (which == 2 && (f == 46 || f == 47) && wt == 2) {
            if (!varint(&c, &v) || v > (uint64_t)(c.end - c.p)) return LGG_ERR_TRUNCATED;
            *(f == 46 ? &o->bos_piece : &o->eos_piece) = (lgg_str){(const char *)c.p, (size_t)v};
            c.p += v;
        } else if (which == 3 && f == 2 && wt == 2) {
            if (!varint(&c, &v) || v > (uint64_t)(c.end - c.p)) return LGG_ERR_TRUNCATED;
            o->charsmap = c.p, o->charsmap_len = (size_t)v;
            c.p += v;
        } else if (!skip(&c, wt)) {
            return LGG_ERR_TRUNCATED;
        }
    }
    return LGG_OK;
}

lgg_status lgg__cv_spm_specs(const void *data, size_t size, cv_spm_specs *out, lgg_error *err) {
    *out = (cv_spm_specs){1, 1, 1, NULL, 0, {"<s>", 3}, {"</s>", 4}};
    pb c = {data, (const uint8_t *)data + size};
    while (c.p < c.end) {
        uint64_t key, len;
        if (!varint(&c, &key)) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "truncated field key");
        unsigned f = (unsigned)(key >> 3);
        if ((f == 2 || f == 3) && (key & 7) == 2) {
            if (!varint(&c, &len) || len > (uint64_t)(c.end - c.p) || spec((pb){c.p, c.p + len}, f, out))
                return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "%s runs past its end", f == 2 ? "trainer_spec" : "normalizer_spec");
            c.p += len;
        } else if (!skip(&c, (unsigned)(key & 7))) {
            return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "field %u runs past the end", f);
        }
    }
    return LGG_OK;
}
