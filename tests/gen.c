/* gen.c -- building GGUF files by hand for tests. */
#include "gen.h"

void gen_len(buf *b, uint32_t version, uint64_t n) {
    if (version == 1) buf_u32(b, (uint32_t)n);
    else buf_u64(b, n);
}
void gen_header(buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
    buf_put(b, "GGUF", 4);
    buf_u32(b, version);
    gen_len(b, version, n_tensors);
    gen_len(b, version, n_kv);
}
void gen_str(buf *b, uint32_t version, const char *s) {
    gen_len(b, version, strlen(s));
    buf_put(b, s, strlen(s));
}
void gen_key(buf *b, uint32_t version, const char *key, uint32_t vtype) {
    gen_str(b, version, key);
    buf_u32(b, vtype);
}
void gen_tensor(buf *b, uint32_t version, const char *name, uint32_t n_dims, const uint64_t *ne, uint32_t type,
                uint64_t offset) {
    gen_str(b, version, name);
    buf_u32(b, n_dims);
    for (uint32_t i = 0; i < n_dims; i++) gen_len(b, version, ne[i]);
    buf_u32(b, type);
    buf_u64(b, offset);
}
void gen_small_model(buf *b) {
    gen_header(b, 3, 2, 2);
    gen_key(b, 3, "general.architecture", 8);
    gen_str(b, 3, "test");
    gen_key(b, 3, "general.alignment", 4);
    buf_u32(b, 32);
    uint64_t a[1] = {8}, c[2] = {4, 2};
    gen_tensor(b, 3, "a", 1, a, 0, 0);
    gen_tensor(b, 3, "b", 2, c, 0, 32);
    buf_pad(b, 32);
    for (int i = 0; i < 16; i++) {
        float x = (float)(i + 1);
        uint32_t u;
        memcpy(&u, &x, 4);
        buf_u32(b, u);
    }
}
