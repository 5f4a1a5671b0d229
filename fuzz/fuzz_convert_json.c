/* fuzz_convert_json.c -- the converter's JSON- and YAML-reading paths: the
 * input is split at NUL bytes into config.json, tokenizer_config.json,
 * tokenizer.json, added_tokens.json and README.md (the model card's YAML
 * front matter) (a missing part: no such file) of a
 * tiny llama directory whose weights and tokenizer.model are fixed.  A
 * conversion that opens must also write (to /dev/null) without error; one
 * that fails must say why.  The first byte also picks the output type and
 * the vocabulary (SentencePiece, or BPE from tokenizer.json), and bit 5 a
 * --max-json-size of 256 bytes, so that the bound is met on both sides of
 * it; the model card runs with its own bounds (4 MiB, 64 levels, checked
 * before libyaml loads it).  A config.json over the small bound is refused
 * for its size (LGG_ERR_LIMIT), and every error message is one line of
 * printable bytes. */
#include "fuzz.h"
#include "libgguf_convert.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static const uint8_t SPM[] = {0x0a, 0x09, 0x0a, 0x05, '<', 'u', 'n', 'k', '>', 0x18, 0x02,
                              0x0a, 0x07, 0x0a, 0x03, '<', 's', '>', 0x18, 0x03,
                              0x0a, 0x08, 0x0a, 0x04, '<', '/', 's', '>', 0x18, 0x03,
                              0x0a, 0x03, 0x0a, 0x01, 'a'};

static void put(const char *name, const void *p, size_t n) { fuzz_put(dir, name, p, n); }

static void cleanup(void) {
    static const char *const all[] = {"config.json", "tokenizer_config.json", "tokenizer.json", "added_tokens.json",
                                      "README.md", "model.safetensors", "tokenizer.model"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) put(all[i], NULL, 0);
    rmdir(dir);
}

static void setup(void) {
    snprintf(dir, sizeof dir, "/tmp/fuzz_convert_json.XXXXXX");
    if (!mkdtemp(dir)) abort();
    atexit(cleanup);
    static const char hdr[] =
        "{\"lm_head.weight\": {\"dtype\": \"F16\", \"shape\": [4, 8], \"data_offsets\": [0, 64]},"
        " \"model.embed_tokens.weight\": {\"dtype\": \"F32\", \"shape\": [4, 8], \"data_offsets\": [64, 192]},"
        " \"model.layers.0.self_attn.k_proj.weight\": {\"dtype\": \"BF16\", \"shape\": [4, 8], \"data_offsets\": [192, 256]},"
        " \"model.norm.weight\": {\"dtype\": \"F32\", \"shape\": [8], \"data_offsets\": [256, 288]}}";
    uint8_t st[8 + sizeof hdr + 288];
    uint64_t hl = sizeof hdr - 1;
    for (int i = 0; i < 8; i++) st[i] = (uint8_t)(hl >> (8 * i));
    memcpy(st + 8, hdr, hl);
    for (size_t i = 0; i < 288; i++) st[8 + hl + i] = (uint8_t)(i * 13 + 5);
    put("model.safetensors", st, 8 + hl + 288);
    put("tokenizer.model", SPM, sizeof SPM);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) setup();
    static const char *const names[] = {"config.json", "tokenizer_config.json", "tokenizer.json", "added_tokens.json",
                                        "README.md"};
    const uint8_t *p = data, *end = data + size;
    for (int i = 0; i < 5; i++) {
        const uint8_t *z = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
        const uint8_t *e = z ? z : end;
        put(names[i], p <= end && (p < end || i == 0) ? p : NULL, (size_t)(e - p));
        p = z ? z + 1 : end + 1;
        if (p > end) p = end + 1;
    }
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = size ? data[0] % 5 : 0;
    /* bit 4 of the first byte: no tokenizer.model, so the BPE path reads
     * tokenizer.json (with --pre, so an unknown fingerprint still converts) */
    int bpe = size && (data[0] & 0x10);
    put("tokenizer.model", bpe ? NULL : SPM, sizeof SPM);
    o.pre = bpe ? "qwen2" : NULL;
    o.max_json_size = size && (data[0] & 0x20) ? 256 : 0;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    /* config.json is read first: over the small bound, it is what is refused */
    const uint8_t *z = memchr(data, 0, size);
    if (o.max_json_size && (size_t)((z ? z : data + size) - data) > o.max_json_size)
        FUZZ_ASSERT(st == LGG_ERR_LIMIT && strstr(err.message, "config.json: "));
    if (st != LGG_OK) {
        FUZZ_ASSERT(c == NULL && err.message[0]);
        for (const char *m = err.message; *m; m++) FUZZ_ASSERT((unsigned char)*m >= 0x20 && *m != 0x7f);
        return 0;
    }
    int fd = open("/dev/null", O_WRONLY);
    FUZZ_ASSERT(fd >= 0);
    FUZZ_ASSERT(lgg_writer_write_fd(lgg_convert_writer(c), fd, NULL, NULL, &err) == LGG_OK);
    close(fd);
    FUZZ_ASSERT(lgg_convert_tensor_count(c) >= 3 && lgg_convert_tensor_count(c) <= 4); /* gemma drops lm_head */
    lgg_convert_free(c);
    return 0;
}
