/* cmd_info.c -- `gguf info [--json] FILE...`: a human summary of each model
 * file: format, architecture and hyperparameters, size, tensor types, and
 * for a shard the set it belongs to. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

#include "spec_info.h" /* from tools/spec/info.txt (scripts/cli-spec.awk) */

/* Totals over one file's tensors. */
typedef struct sums {
    uint64_t params, expert_params, data, tensors, file;
    uint64_t by_type[LGG_TYPE_COUNT + 1];
} sums;

static bool has_sub(lgg_str s, const char *sub) {
    size_t n = strlen(sub);
    for (uint64_t i = 0; i + n <= s.len; i++)
        if (!memcmp(s.ptr + i, sub, n)) return true;
    return false;
}

static void add_sums(const lgg_file *f, sums *s) {
    s->params += lgg_parameter_count(f);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if (t->type_known && has_sub(t->name, "_exps.")) s->expert_params += t->n_elements;
        s->data += t->size;
        s->by_type[t->type < LGG_TYPE_COUNT ? t->type : LGG_TYPE_COUNT]++;
    }
    s->tensors += lgg_tensor_count(f);
    s->file += lgg_file_size(f);
}

typedef struct hparam {
    const char *label, *json, *suffix;
} hparam;

/* The hyperparameters llama.cpp reads, as "<arch>.<suffix>". */
static const hparam HP[] = {
    {"context length:", "context_length", "context_length"},
    {"embedding:", "embedding_length", "embedding_length"},
    {"layers:", "block_count", "block_count"},
    {"feed forward:", "feed_forward_length", "feed_forward_length"},
    {"heads:", "head_count", "attention.head_count"},
    {"KV heads:", "head_count_kv", "attention.head_count_kv"},
    {"vocabulary:", "vocab_size", "vocab_size"},
    {"rope base:", "rope_freq_base", "rope.freq_base"},
    {"rope scaling:", "rope_scaling_type", "rope.scaling.type"},
    {"rope factor:", "rope_scaling_factor", "rope.scaling.factor"},
    {"rope orig ctx:", "rope_scaling_original_context_length", "rope.scaling.original_context_length"},
    {"experts:", "expert_count", "expert_count"},
    {"experts used:", "expert_used_count", "expert_used_count"},
    {"sliding window:", "sliding_window", "attention.sliding_window"},
};

/* The value of <arch>.<suffix>, or NULL. */
static const lgg_value *arch_value(const lgg_file *f, lgg_str arch, const char *suffix) {
    char key[512];
    if (!arch.len || arch.len > 256) return NULL;
    snprintf(key, sizeof key, "%.*s.%s", (int)arch.len, arch.ptr, suffix);
    int64_t i = lgg_find_key(f, key, strlen(key));
    return i < 0 ? NULL : &lgg_kv_at(f, (uint64_t)i)->value;
}

/* The vocabulary size: <arch>.vocab_size, else the token list's length. */
static bool vocab_size(const lgg_file *f, const lgg_value *v, uint64_t *n) {
    if (v && lgg_value_uint(v, n) == LGG_OK) return true;
    lgg_value t;
    if (lgg_get(f, "tokenizer.ggml.tokens", &t) == LGG_OK && t.type == LGG_VT_ARRAY) {
        *n = t.count;
        return true;
    }
    return false;
}

static lgg_str str_key(const lgg_file *f, const char *key) {
    lgg_value v;
    lgg_str s = {NULL, 0};
    if (lgg_get(f, key, &v) == LGG_OK) lgg_value_string(&v, &s);
    return s;
}

static uint64_t uint_key(const lgg_file *f, const char *key, uint64_t dflt) {
    lgg_value v;
    uint64_t x;
    if (lgg_get(f, key, &v) == LGG_OK && lgg_value_uint(&v, &x) == LGG_OK) return x;
    return dflt;
}

static bool str_is(lgg_str s, const char *c) { return s.ptr && s.len == strlen(c) && !memcmp(s.ptr, c, s.len); }

/* What a file is, from general.type (gguf-py writes "model" and "adapter";
 * llama-imatrix "imatrix"; later gguf-py "mmproj"), the keys only one kind
 * has, and whether it holds weights: a vocabulary (convert_hf_to_gguf.py
 * --vocab-only) says general.type "model" but has no tensors. */
static const char *file_kind(const lgg_file *f, lgg_str arch, uint32_t shard_count) {
    const lgg_str type = str_key(f, "general.type");
    if (str_is(type, "adapter") || lgg_find_key_cstr(f, "adapter.type") >= 0) return "adapter";
    if (str_is(type, "imatrix") || lgg_find_key_cstr(f, "imatrix.chunk_count") >= 0) return "imatrix";
    if (str_is(type, "mmproj") || str_is(arch, "clip") || lgg_find_key_cstr(f, "clip.has_vision_encoder") >= 0)
        return "projector";
    /* the first shard of a set split with --no-tensor-first-split has no tensors */
    if (lgg_tensor_count(f) || shard_count > 1) return arch.len || str_is(type, "model") ? "model" : "unknown";
    return lgg_find_key_cstr(f, "tokenizer.ggml.tokens") >= 0 ? "vocab" : "unknown";
}

typedef struct facts {
    const char *path;
    lgg_file *f;
    lgg_str arch;
    sums own, set;
    uint32_t shard_no, shard_count;
    bool set_known;
    uint32_t experts;
    char label[64];
    const char *kind;
} facts;

static void gather(facts *x) {
    lgg_file *f = x->f;
    memset(&x->own, 0, sizeof x->own);
    add_sums(f, &x->own);
    x->arch = str_key(f, "general.architecture");
    uint64_t e = 0;
    const lgg_value *ev = arch_value(f, x->arch, "expert_count");
    x->experts = ev && lgg_value_uint(ev, &e) == LGG_OK && e < UINT32_MAX ? (uint32_t)e : 0;
    x->shard_count = (uint32_t)uint_key(f, "split.count", 0);
    x->shard_no = (uint32_t)uint_key(f, "split.no", 0);
    memset(&x->set, 0, sizeof x->set);
    cli_shards set;
    x->set_known = x->shard_count > 1 && cli_shards_around(x->path, f, &set) == CLI_OK;
    for (uint32_t k = 0; x->set_known && k < set.n; k++) add_sums(set.files[k], &x->set);
    if (x->set_known) cli_shards_close(&set);
    const sums *s = x->set_known ? &x->set : &x->own;
    uint64_t path_params =
        x->experts > 1 ? s->params - s->expert_params + s->expert_params / x->experts : s->params;
    lgg_size_label(path_params, x->experts, x->label, sizeof x->label);
    x->kind = file_kind(f, x->arch, x->shard_count);
}

static void text_str(const char *label, lgg_str s) {
    if (!s.ptr) return;
    printf("%-16s", label);
    cli_text_str(stdout, s.ptr, s.len, 120);
    putchar('\n');
}

static void text_types(const sums *s) {
    int first = 1;
    for (uint32_t t = 0; t <= LGG_TYPE_COUNT; t++) {
        if (!s->by_type[t]) continue;
        printf("%s%s: %llu", first ? " (" : ", ", t < LGG_TYPE_COUNT ? lgg_type_name(t) : "unknown",
               (unsigned long long)s->by_type[t]);
        first = 0;
    }
    printf("%s\n", first ? "" : ")");
}

static void print_text(const facts *x) {
    const lgg_file *f = x->f;
    char b[64];
    printf("%-16s%s\n", "file:", cli_display_name(x->path));
    printf("%-16s%s\n", "kind:", x->kind);
    printf("%-16s%u\n", "version:", lgg_file_version(f));
    printf("%-16s%s\n", "byte order:", lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big-endian" : "little-endian");
    printf("%-16s%llu\n", "alignment:", (unsigned long long)lgg_file_alignment(f));
    text_str("architecture:", x->arch);
    text_str("name:", str_key(f, "general.name"));
    for (size_t i = 0; i < sizeof HP / sizeof HP[0]; i++) {
        const lgg_value *v = arch_value(f, x->arch, HP[i].suffix);
        uint64_t n;
        if (!strcmp(HP[i].suffix, "vocab_size")) {
            if (vocab_size(f, v, &n)) printf("%-16s%llu\n", HP[i].label, (unsigned long long)n);
            continue;
        }
        if (!v) continue;
        printf("%-16s", HP[i].label);
        cli_text_value(stdout, v, 8, 60);
        putchar('\n');
    }
    if (x->shard_count > 1) {
        printf("%-16sshard %u of %u", "split:", x->shard_no + 1, x->shard_count);
        printf("%s\n", x->set_known ? " (totals below are the set's)" : " (the other shards are not beside it)");
    }
    const sums *s = x->set_known ? &x->set : &x->own;
    printf("%-16s%llu\n", "parameters:", (unsigned long long)s->params);
    if (s->params) printf("%-16s%s\n", "size label:", x->label);
    text_str("label in file:", str_key(f, "general.size_label"));
    uint64_t ft = uint_key(f, "general.file_type", UINT64_MAX);
    if (ft != UINT64_MAX) {
        const char *n = ft <= UINT32_MAX ? lgg_file_type_name((uint32_t)ft) : NULL;
        printf("%-16s%s (%llu)\n", "file type:", n ? n : "unknown", (unsigned long long)ft);
    }
    if (s->params) printf("%-16s%.2f\n", "bits/weight:", (double)s->data * 8.0 / (double)s->params);
    printf("%-16s%llu", "tensors:", (unsigned long long)s->tensors);
    text_types(s);
    cli_fmt_bytes(b, sizeof b, s->data);
    printf("%-16s%s (%llu bytes)\n", "data size:", b, (unsigned long long)s->data);
    /* the one line about this file alone: a shard says so */
    cli_fmt_bytes(b, sizeof b, lgg_file_size(f));
    printf("%-16s%s (%llu bytes)%s\n", "file size:", b, (unsigned long long)lgg_file_size(f),
           x->shard_count > 1 ? ", this shard" : "");
    if (x->set_known) {
        cli_fmt_bytes(b, sizeof b, x->set.file);
        printf("%-16s%s (%llu bytes), %u shards\n", "set file size:", b, (unsigned long long)x->set.file, x->shard_count);
    }
    printf("%-16s%llu\n", "metadata:", (unsigned long long)lgg_kv_count(f));
}

static void json_strkey(const char *name, lgg_str s) {
    printf(", \"%s\": ", name);
    if (s.ptr) cli_json_str(stdout, s.ptr, s.len);
    else fputs("null", stdout);
}

static void print_json(const facts *x) {
    const lgg_file *f = x->f;
    fputs("{\"file\": ", stdout);
    cli_json_str(stdout, x->path, strlen(x->path));
    printf(", \"version\": %u, \"endian\": \"%s\", \"alignment\": %llu", lgg_file_version(f),
           lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little", (unsigned long long)lgg_file_alignment(f));
    json_strkey("architecture", x->arch);
    json_strkey("name", str_key(f, "general.name"));
    fputs(", \"hyperparameters\": {", stdout);
    int first = 1;
    for (size_t i = 0; i < sizeof HP / sizeof HP[0]; i++) {
        const lgg_value *v = arch_value(f, x->arch, HP[i].suffix);
        uint64_t n;
        if (!strcmp(HP[i].suffix, "vocab_size")) {
            if (vocab_size(f, v, &n)) printf("%s\"%s\": %llu", first ? "" : ", ", HP[i].json, (unsigned long long)n);
            else continue;
        } else if (v) {
            printf("%s\"%s\": ", first ? "" : ", ", HP[i].json);
            cli_json_value(stdout, v);
        } else continue;
        first = 0;
    }
    fputc('}', stdout);
    const sums *s = x->set_known ? &x->set : &x->own;
    char set_size[24] = "null";
    if (x->set_known) snprintf(set_size, sizeof set_size, "%llu", (unsigned long long)x->set.file);
    if (x->shard_count > 1)
        printf(", \"split\": {\"no\": %u, \"count\": %u, \"set_totals\": %s, \"shard_file_size\": %llu, "
               "\"set_file_size\": %s}",
               x->shard_no + 1, x->shard_count, x->set_known ? "true" : "false", (unsigned long long)lgg_file_size(f),
               set_size);
    printf(", \"parameters\": %llu, \"size_label\": ", (unsigned long long)s->params);
    if (s->params) cli_json_str(stdout, x->label, strlen(x->label));
    else fputs("null", stdout);
    uint64_t ft = uint_key(f, "general.file_type", UINT64_MAX);
    if (ft != UINT64_MAX) {
        const char *n = ft <= UINT32_MAX ? lgg_file_type_name((uint32_t)ft) : NULL;
        printf(", \"file_type\": {\"id\": %llu, \"name\": ", (unsigned long long)ft);
        if (n) cli_json_str(stdout, n, strlen(n));
        else fputs("null", stdout);
        fputc('}', stdout);
    }
    printf(", \"tensors\": %llu, \"tensor_types\": {", (unsigned long long)s->tensors);
    first = 1;
    for (uint32_t t = 0; t <= LGG_TYPE_COUNT; t++) {
        if (!s->by_type[t]) continue;
        printf("%s\"%s\": %llu", first ? "" : ", ", t < LGG_TYPE_COUNT ? lgg_type_name(t) : "unknown",
               (unsigned long long)s->by_type[t]);
        first = 0;
    }
    printf("}, \"data_size\": %llu, \"file_size\": %llu, \"metadata\": %llu, \"kind\": \"%s\"}\n",
           (unsigned long long)s->data, (unsigned long long)lgg_file_size(f), (unsigned long long)lgg_kv_count(f),
           x->kind);
}

int cmd_info(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    const int json = flags['j'];
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++) {
        facts x;
        memset(&x, 0, sizeof x);
        x.path = argv[i];
        x.f = cli_open("info", x.path, CLI_OPEN_INSPECT);
        if (!x.f) {
            rc = CLI_FAIL;
            continue;
        }
        gather(&x);
        if (json) print_json(&x);
        else {
            if (i > 1) putchar('\n');
            print_text(&x);
        }
        if (cli_open_status(x.f)) rc = CLI_FAIL;
        lgg_close(x.f);
    }
    return rc;
}
