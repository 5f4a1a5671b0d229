/* tok_spm_proto.c -- the one SentencePiece ModelProto reader (tokenizer.model):
 * its pieces and the trainer_spec and normalizer_spec fields a vocabulary
 * needs, read straight from the protobuf wire format with a bounded cursor.
 * The tokenizer (tok_spmodel.c) and the converter (libgguf-convert, through
 * libgguf_tokenize.h) both read models here; a few fields of three messages
 * do not need protobuf-c and its generated code. */
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

struct lgg_spm {
    size_t n;
    lgg_spm_piece *p;
    lgg_spm_specs specs;
};

/* The error of a parse, with no byte offset. */
#define SPM_ERR(code, ...) lgg_error_set(err, code, LGG_NO_OFFSET, __VA_ARGS__)

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

/* A length-delimited field's bytes (the key read): 0 if they do not fit. */
static int bytes(pb *c, pb *out) {
    uint64_t v;
    if (!varint(c, &v) || v > (uint64_t)(c->end - c->p)) return 0;
    *out = (pb){c->p, c->p + v};
    c->p += v;
    return 1;
}

static lgg_status piece(pb c, size_t idx, lgg_spm_piece *out, lgg_error *err) {
    out->piece.ptr = "";
    out->piece.len = 0;
    out->score = 0.0f;
    int32_t type = 1;
    while (c.p < c.end) {
        uint64_t key, v;
        pb b;
        if (!varint(&c, &key)) return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated field", idx);
        unsigned f = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (f == 1 && wt == 2) {
            if (!bytes(&c, &b))
                return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: text runs past its message", idx);
            out->piece.ptr = (const char *)b.p;
            out->piece.len = (size_t)(b.end - b.p);
        } else if (f == 2 && wt == 5) {
            if (c.end - c.p < 4) return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated score", idx);
            uint32_t u = (uint32_t)c.p[0] | (uint32_t)c.p[1] << 8 | (uint32_t)c.p[2] << 16 | (uint32_t)c.p[3] << 24;
            memcpy(&out->score, &u, 4);
            c.p += 4;
        } else if (f == 3 && wt == 0) {
            if (!varint(&c, &v)) return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: piece %zu: truncated type", idx);
            if (v < 1 || v > 6)
                return SPM_ERR(LGG_ERR_INVALID, "tokenizer.model: piece %zu: unknown type %llu", idx, (unsigned long long)v);
            type = (int32_t)v;
        } else if (!skip(&c, wt)) {
            return SPM_ERR(LGG_ERR_INVALID, "tokenizer.model: piece %zu: bad field %u (wire type %u)", idx, f, wt);
        }
    }
    /* The processor reports user-defined pieces as none of unknown, control,
     * unused or byte, so the reference converter writes them as normal. */
    out->proto_type = type;
    out->type = type == 4 ? 1 : type;
    return LGG_OK;
}

/* One varint field of trainer_spec (which 2) or normalizer_spec (3). */
static void spec_varint(lgg_spm_specs *o, unsigned which, unsigned f, uint64_t v) {
    if (which == 2) {
        if (f == 3) o->model_type = (int32_t)v;
        else if (f == 24) o->treat_whitespace_as_suffix = v != 0;
        else if (f == 35) o->byte_fallback = v != 0;
        else if (f == 40) o->unk_id = (int32_t)v;
        else if (f == 41) o->bos_id = (int32_t)v;
        else if (f == 42) o->eos_id = (int32_t)v;
    } else {
        if (f == 3) o->add_dummy_prefix = v != 0;
        else if (f == 4) o->remove_extra_whitespaces = v != 0;
        else if (f == 5) o->escape_whitespaces = v != 0;
    }
}

/* trainer_spec (2): model_type, treat_whitespace_as_suffix, byte_fallback,
 * unk/bos/eos ids (40-42) and pieces (46, 47); normalizer_spec (3): name,
 * precompiled_charsmap, add_dummy_prefix, remove_extra_whitespaces,
 * escape_whitespaces (1-5). */
static int spec(pb c, unsigned which, lgg_spm_specs *o) {
    while (c.p < c.end) {
        uint64_t key, v;
        pb b;
        if (!varint(&c, &key)) return 0;
        unsigned f = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (wt == 0) {
            if (!varint(&c, &v)) return 0;
            spec_varint(o, which, f, v);
        } else if (wt == 2 && ((which == 2 && (f == 46 || f == 47)) || (which == 3 && (f == 1 || f == 2)))) {
            if (!bytes(&c, &b)) return 0;
            lgg_str s = {(const char *)b.p, (size_t)(b.end - b.p)};
            if (which == 2) *(f == 46 ? &o->bos_piece : &o->eos_piece) = s;
            else if (f == 1) o->normalizer_name = s;
            else o->charsmap = b.p, o->charsmap_len = s.len;
        } else if (!skip(&c, wt)) {
            return 0;
        }
    }
    return 1;
}

/* Count the pieces (field 1) so the array is sized once, from what is
 * really in the buffer, and read the specs. */
static lgg_status scan(pb c, size_t *n, lgg_spm_specs *o, lgg_error *err) {
    *n = 0;
    *o = (lgg_spm_specs){.model_type = 1, .unk_id = 0, .bos_id = 1, .eos_id = 2, .bos_piece = {"<s>", 3},
                         .eos_piece = {"</s>", 4}, .normalizer_name = {"", 0}, .add_dummy_prefix = true,
                         .remove_extra_whitespaces = true, .escape_whitespaces = true};
    while (c.p < c.end) {
        uint64_t key;
        pb b;
        if (!varint(&c, &key)) return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: truncated field key");
        unsigned f = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (f == 1 && wt == 2) (*n)++;
        if ((f == 2 || f == 3) && wt == 2) {
            if (!bytes(&c, &b) || !spec(b, f, o))
                return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: %s runs past its end",
                            f == 2 ? "trainer_spec" : "normalizer_spec");
        } else if (!skip(&c, wt)) {
            return SPM_ERR(LGG_ERR_TRUNCATED, "tokenizer.model: field %u (wire type %u) runs past the end", f, wt);
        }
    }
    if (*n == 0) return SPM_ERR(LGG_ERR_INVALID, "tokenizer.model: no pieces");
    if (*n > INT32_MAX) return SPM_ERR(LGG_ERR_LIMIT, "tokenizer.model: too many pieces");
    return LGG_OK;
}

lgg_status lgg_spm_parse(const void *data, size_t size, lgg_spm **out, lgg_error *err) {
    if (!out || (!data && size)) return SPM_ERR(LGG_ERR_ARG, "lgg_spm_parse: NULL argument");
    *out = NULL;
    if (!size) return SPM_ERR(LGG_ERR_INVALID, "tokenizer.model: empty file");
    pb c = {data, (const uint8_t *)data + size};
    size_t n;
    lgg_spm_specs specs;
    lgg_status st = scan(c, &n, &specs, err);
    if (st) return st;
    lgg_spm *s = calloc(1, sizeof *s);
    if (!s || !(s->p = calloc(n, sizeof *s->p))) {
        free(s);
        return SPM_ERR(LGG_ERR_NOMEM, "tokenizer.model: out of memory");
    }
    s->specs = specs;
    while (c.p < c.end) {
        uint64_t key = 0;
        pb b;
        varint(&c, &key); /* scan() proved every field well formed */
        if ((key >> 3) == 1 && (key & 7) == 2) {
            bytes(&c, &b);
            if ((st = piece(b, s->n, &s->p[s->n], err)) != LGG_OK) {
                lgg_spm_free(s);
                return st;
            }
            s->n++;
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
const lgg_spm_specs *lgg_spm_get_specs(const lgg_spm *s) { return s ? &s->specs : NULL; }
