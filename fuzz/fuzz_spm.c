/* fuzz_spm.c -- the SentencePiece ModelProto reader (lgg_spm_parse,
 * libgguf-tokenize's, which the converter uses) on arbitrary bytes: every
 * piece's text must lie inside the input and its type be one the reference
 * converter writes (proto_type the stored one); the specs' strings and
 * charsmap lie inside the input too. */
#include "fuzz.h"
#include "libgguf_tokenize.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lgg_spm *s = NULL;
    lgg_error err;
    if (lgg_spm_parse(size ? data : NULL, size, &s, &err) != LGG_OK) {
        FUZZ_ASSERT(s == NULL && err.message[0]);
        return 0;
    }
    size_t n = lgg_spm_count(s);
    FUZZ_ASSERT(n > 0);
    for (size_t i = 0; i < n; i++) {
        const lgg_spm_piece *p = lgg_spm_at(s, i);
        FUZZ_ASSERT(p);
        if (p->piece.len) {
            const uint8_t *t = (const uint8_t *)p->piece.ptr;
            FUZZ_ASSERT(t >= data && p->piece.len <= size && t <= data + size - p->piece.len);
        }
        FUZZ_ASSERT(p->type == 1 || p->type == 2 || p->type == 3 || p->type == 5 || p->type == 6);
        FUZZ_ASSERT(p->proto_type >= 1 && p->proto_type <= 6 && p->type == (p->proto_type == 4 ? 1 : p->proto_type));
    }
    const lgg_spm_specs *sp = lgg_spm_get_specs(s);
    FUZZ_ASSERT(sp);
    const lgg_str in[] = {sp->bos_piece, sp->eos_piece, sp->normalizer_name, {(const char *)sp->charsmap, sp->charsmap_len}};
    for (size_t k = 0; k < 4; k++) {
        if (!in[k].len) continue;
        const uint8_t *t = (const uint8_t *)in[k].ptr;
        const bool inside = t >= data && in[k].len <= size && t <= data + size - in[k].len;
        /* absent bos/eos pieces: the proto's defaults, "<s>" and "</s>" */
        const bool dflt = !inside && k < 2 && in[k].len == 3 + k && !memcmp(t, k ? "</s>" : "<s>", in[k].len);
        FUZZ_ASSERT(inside || dflt);
    }
    FUZZ_ASSERT(lgg_spm_at(s, n) == NULL);
    lgg_spm_free(s);
    return 0;
}
