/* test_quant_plan.c -- the per-tensor plan beyond what the golden runs
 * cover: presets by name and id, fallbacks for row lengths a block does not
 * divide, --tensor-type rules, MXFP4_MOE, split inputs kept or merged. */
#include "libgguf.h"
#include "test.h"

#include "quant_master_models.h" /* qmm_values: values from a name */

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static lgg_status fill(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    (void)err;
    (void)ud;
    float *f = dst;
    for (size_t i = 0; i < n / 4; i++) f[i] = (float)((offset / 4 + i) % 97) * 0.01f - 0.4f;
    return LGG_OK;
}

typedef struct spec {
    const char *name;
    int64_t ne0, ne1, ne2;
} spec;

/* A llama model of F32 tensors; split_no/split_count >= 0 add split keys. */
static void write_model(const char *path, int n_layer, int n_expert, const spec *s, size_t n, int split_no,
                        int split_count) {
    lgg_writer *w;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_u32(w, "llama.block_count", (uint32_t)n_layer, NULL);
    lgg_writer_set_u32(w, "llama.attention.head_count", 8, NULL);
    lgg_writer_set_u32(w, "llama.attention.head_count_kv", 2, NULL);
    if (n_expert) lgg_writer_set_u32(w, "llama.expert_count", (uint32_t)n_expert, NULL);
    if (split_count > 0) {
        uint16_t no = (uint16_t)split_no, cnt = (uint16_t)split_count;
        lgg_wvalue v = {LGG_VT_U16, 0, 1, &no};
        lgg_writer_set(w, "split.no", 8, &v, NULL);
        v.data = &cnt;
        lgg_writer_set(w, "split.count", 11, &v, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        int64_t ne[3] = {s[i].ne0, s[i].ne1, s[i].ne2};
        uint32_t nd = s[i].ne2 > 1 ? 3 : s[i].ne1 > 1 ? 2 : 1;
        CHECK(lgg_writer_add_tensor_callback(w, s[i].name, strlen(s[i].name), nd, ne, LGG_TYPE_F32, fill, NULL,
                                             LGG_LITTLE_ENDIAN, NULL) == LGG_OK);
    }
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.flags = LGG_WRITE_NO_SYNC;
    CHECK(lgg_writer_write_file(w, path, &o, NULL) == LGG_OK);
    lgg_writer_free(w);
}

/* Open `path` and plan it with `preset`: the plan, with *f open, or NULL
 * (and *f NULL) after recording why. */
static lgg_quant_plan *plan_file(const char *path, const char *preset, lgg_file **f) {
    *f = NULL;
    if (lgg_open_file(path, NULL, f, NULL) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find(preset);
    lgg_quant_plan *p = NULL;
    lgg_error err;
    if (lgg_quant_plan_create((const lgg_file *const *)f, 1, &o, &p, &err) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "plan %s for %s: %s", preset, path, err.message);
        lgg_close(*f);
        *f = NULL;
        return NULL;
    }
    return p;
}

static const lgg_quant_item *item(const lgg_quant_plan *p, const char *name) {
    for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        if (it->t->name.len == strlen(name) && !memcmp(it->t->name.ptr, name, it->t->name.len)) return it;
    }
    return NULL;
}

static uint32_t type_of(const lgg_quant_plan *p, const char *name) {
    const lgg_quant_item *it = item(p, name);
    return it ? it->type : 9999;
}

TEST(quant_presets) {
    CHECK_EQ_U(lgg_quant_preset_count(), 39);
    CHECK(!strcmp(lgg_quant_preset_find("40")->name, "Q1_0") && lgg_quant_preset_find("q1_0")->type == LGG_TYPE_Q1_0);
    CHECK(!strcmp(lgg_quant_preset_find("41")->name, "Q2_0") && lgg_quant_preset_find("Q2_0")->type == LGG_TYPE_Q2_0);
    CHECK(lgg_quant_preset_find("39") == NULL); /* NVFP4: no preset in master */
    CHECK(lgg_quant_preset_find("q4_k_m")->ftype == 15);
    CHECK(!strcmp(lgg_quant_preset_find("15")->name, "Q4_K"));  /* the first with id 15: the alias */
    CHECK(!strcmp(lgg_quant_preset_find("0")->name, "F32"));    /* not COPY */
    CHECK(lgg_quant_preset_find("COPY")->type == LGG_TYPE_COUNT);
    CHECK(lgg_quant_preset_find("MXFP4_MOE")->ftype == 38);
    CHECK(lgg_quant_preset_find("IQ2_M")->type == LGG_TYPE_IQ2_S);
    CHECK(lgg_quant_preset_find("Q4_K_MM") == NULL);
    CHECK(lgg_quant_preset_find("15x") == NULL);
    CHECK(lgg_quant_preset_find("35") == NULL);
    CHECK(lgg_quant_preset_find("") == NULL);
    const char *want[] = {"Q4_0", "Q4_1", "Q5_0", "Q5_1", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ1_S", "IQ1_M",
                          "TQ1_0", "TQ2_0", "Q2_K", "Q2_K_S", "IQ3_XXS", "IQ3_S", "IQ3_M", "Q3_K", "IQ3_XS",
                          "Q3_K_S", "Q3_K_M", "Q3_K_L", "IQ4_NL", "IQ4_XS", "Q4_K", "Q4_K_S", "Q4_K_M", "Q5_K",
                          "Q5_K_S", "Q5_K_M", "Q6_K", "Q8_0", "F16", "BF16", "F32", "COPY", "MXFP4_MOE",
                          "Q1_0", "Q2_0"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) CHECKF(lgg_quant_preset_find(want[i]), "%s", want[i]);
}

/* Rows of 96: not a multiple of 256, so K- and IQ-types fall back. */
TEST(quant_plan_fallbacks) {
    char path[1024];
    snprintf(path, sizeof path, "%s/fb.gguf", scratch_dir());
    const spec s[] = {{"token_embd.weight", 96, 64, 1}, {"output.weight", 96, 64, 1},
                      {"blk.0.attn_v.weight", 96, 32, 1}, {"blk.0.attn_q.weight", 96, 96, 1},
                      {"blk.0.attn_norm.weight", 96, 1, 1}, {"blk.0.ffn_down.weight", 96, 96, 1}};
    write_model(path, 1, 0, s, 6, -1, 0);
    lgg_file *f;
    REQUIRE(lgg_open_file(path, NULL, &f, NULL) == LGG_OK);
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find("Q4_K_M");
    lgg_quant_plan *p = NULL;
    lgg_error err;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK(type_of(p, "output.weight") == LGG_TYPE_Q8_0);       /* a row not a multiple of 256 */
    CHECK(type_of(p, "token_embd.weight") == LGG_TYPE_Q5_0);   /* Q4_K falls back to Q5_0 */
    CHECK(type_of(p, "blk.0.attn_v.weight") == LGG_TYPE_Q8_0); /* Q6_K (last layer) falls back to Q8_0 */
    CHECK(type_of(p, "blk.0.attn_q.weight") == LGG_TYPE_Q5_0);
    CHECK(type_of(p, "blk.0.attn_norm.weight") == LGG_TYPE_F32);
    CHECK(item(p, "blk.0.attn_q.weight")->fallback && !item(p, "output.weight")->fallback);
    CHECK_EQ_U(lgg_quant_plan_fallbacks(p), 4);
    /* output order: no layer first (by name), then by layer */
    CHECK(!memcmp(lgg_quant_plan_at(p, 0)->t->name.ptr, "output.weight", 13));
    CHECK(!memcmp(lgg_quant_plan_at(p, 1)->t->name.ptr, "token_embd.weight", 17));
    lgg_quant_plan_free(p);

    /* master: a forced type, and --pure's, fall back too (b4747-era: refused) */
    lgg_tensor_type_rule r = {"attn_q", LGG_TYPE_Q4_K};
    o.tensor_types = &r;
    o.n_tensor_types = 1;
    o.pure = true;
    o.preset = lgg_quant_preset_find("Q4_K_S");
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK(type_of(p, "blk.0.attn_q.weight") == LGG_TYPE_Q5_0 && item(p, "blk.0.attn_q.weight")->fallback);
    CHECK(type_of(p, "blk.0.ffn_down.weight") == LGG_TYPE_Q5_0);
    lgg_quant_plan_free(p);
    o.tensor_types = NULL;
    o.n_tensor_types = 0;
    o.pure = false;
    /* Q2_0 (block 64) falls back to Q4_0; Q1_0 (block 128) has no fallback:
     * master refuses with this reason */
    o.preset = lgg_quant_preset_find("Q2_0");
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK(type_of(p, "blk.0.attn_q.weight") == LGG_TYPE_Q4_0);
    CHECK(type_of(p, "token_embd.weight") == LGG_TYPE_Q5_0); /* Q2_0's Q4_K, fallen back */
    CHECK(type_of(p, "output.weight") == LGG_TYPE_Q8_0);
    lgg_quant_plan_free(p);
    o.preset = lgg_quant_preset_find("Q1_0");
    CHECK(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_ERR_TENSOR_BLOCK);
    CHECK(p == NULL);
    CHECKF(strstr(err.message, "no tensor type fallback is defined for type q1_0") != NULL, "%s", err.message);
    lgg_close(f);
}

TEST(quant_plan_rules_and_moe) {
    char path[1024];
    snprintf(path, sizeof path, "%s/moe.gguf", scratch_dir());
    const spec s[] = {{"token_embd.weight", 256, 64, 1},        {"output.weight", 256, 64, 1},
                      {"blk.0.attn_q.weight", 256, 256, 1},     {"blk.0.attn_k.weight", 256, 64, 1},
                      {"blk.0.ffn_gate_inp.weight", 256, 4, 1}, {"blk.0.ffn_up_exps.weight", 256, 128, 4},
                      {"blk.1.attn_q.weight", 256, 256, 1}};
    write_model(path, 2, 4, s, 7, -1, 0);
    lgg_file *f;
    REQUIRE(lgg_open_file(path, NULL, &f, NULL) == LGG_OK);
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find("MXFP4_MOE");
    lgg_quant_plan *p = NULL;
    lgg_error err;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK(type_of(p, "blk.0.ffn_up_exps.weight") == LGG_TYPE_MXFP4);
    CHECK(type_of(p, "blk.0.attn_q.weight") == LGG_TYPE_Q8_0);
    CHECK(type_of(p, "output.weight") == LGG_TYPE_Q8_0);
    CHECK(type_of(p, "blk.0.ffn_gate_inp.weight") == LGG_TYPE_F32); /* expert gates stay */
    CHECK(lgg_quant_plan_file_type(p) == 38);
    lgg_quant_plan_free(p);

    /* --tensor-type: regular expressions, the first match wins (master;
     * b4747-era: the last) */
    lgg_tensor_type_rule r[] = {{"attn_q", LGG_TYPE_Q8_0}, {"blk\\.1\\.attn_(q|k)", LGG_TYPE_Q5_K},
                                {"exps", LGG_TYPE_Q6_K}};
    o.preset = lgg_quant_preset_find("Q4_K_M");
    o.tensor_types = r;
    o.n_tensor_types = 3;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK(type_of(p, "blk.0.attn_q.weight") == LGG_TYPE_Q8_0);
    CHECK(type_of(p, "blk.1.attn_q.weight") == LGG_TYPE_Q8_0);
    CHECK(type_of(p, "blk.0.attn_k.weight") == LGG_TYPE_Q4_K);
    CHECK(type_of(p, "blk.0.ffn_up_exps.weight") == LGG_TYPE_Q6_K);
    lgg_quant_plan_free(p);
    lgg_tensor_type_rule bad = {"attn_(q", LGG_TYPE_Q8_0};
    o.tensor_types = &bad;
    o.n_tensor_types = 1;
    CHECK(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_ERR_INVALID);

    /* the same rules through a whole write, with the 3-D tensor's imatrix per expert */
    o.tensor_types = NULL;
    o.n_tensor_types = 0;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    char out[1024];
    snprintf(out, sizeof out, "%s/moe-q4km.gguf", scratch_dir());
    lgg_quant_write_options wo;
    lgg_quant_write_options_init(&wo);
    wo.n_threads = 2;
    wo.write_flags = LGG_WRITE_NO_SYNC;
    CHECK(lgg_quant_plan_write(p, out, &wo, &err) == LGG_OK);
    lgg_file *g;
    REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
    /* each converted tensor equals lgg_quantize_tensor of the input */
    for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        const lgg_tensor *t = lgg_tensor_at(g, i);
        CHECK(t->type == it->type && t->size == it->size);
        if (!it->convert) continue;
        void *qb = malloc((size_t)it->size);
        CHECK(lgg_quantize_tensor(f, it->t, it->type, NULL, qb, (size_t)it->size, 3) == LGG_OK);
        CHECK(!memcmp(qb, t->data, (size_t)it->size));
        free(qb);
    }
    lgg_close(g);
    lgg_quant_plan_free(p);
    lgg_close(f);
}

/* Split inputs: merged into one file, or kept (--keep-split) with split
 * keys and names PREFIX-0000i-of-0000n.gguf. */
TEST(quant_plan_splits) {
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/in-00001-of-00002.gguf", scratch_dir());
    snprintf(b, sizeof b, "%s/in-00002-of-00002.gguf", scratch_dir());
    const spec s0[] = {{"token_embd.weight", 256, 32, 1}, {"blk.0.attn_q.weight", 256, 32, 1}};
    const spec s1[] = {{"blk.1.attn_q.weight", 256, 32, 1}, {"output.weight", 256, 32, 1}};
    write_model(a, 2, 0, s0, 2, 0, 2);
    write_model(b, 2, 0, s1, 2, 1, 2);
    lgg_file *f[2];
    REQUIRE(lgg_open_file(a, NULL, &f[0], NULL) == LGG_OK);
    REQUIRE(lgg_open_file(b, NULL, &f[1], NULL) == LGG_OK);
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find("Q8_0");
    lgg_quant_write_options wo;
    lgg_quant_write_options_init(&wo);
    wo.write_flags = LGG_WRITE_NO_SYNC;
    lgg_error err;
    for (int keep = 0; keep < 2; keep++) {
        o.keep_split = keep;
        lgg_quant_plan *p = NULL;
        REQUIRE(lgg_quant_plan_create((const lgg_file *const *)f, 2, &o, &p, &err) == LGG_OK);
        CHECK_EQ_U(lgg_quant_plan_count(p), 4);
        char out[1024];
        snprintf(out, sizeof out, "%s/q%d.gguf", scratch_dir(), keep);
        uint64_t predicted = 0;
        CHECK(lgg_quant_plan_output_size(p, &wo, &predicted, NULL) == LGG_OK);
        CHECK(lgg_quant_plan_write(p, out, &wo, &err) == LGG_OK);
        if (!keep) {
            lgg_file *g;
            REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
            CHECK_EQ_U(lgg_tensor_count(g), 4);
            CHECK(lgg_find_key_cstr(g, "split.count") < 0 && lgg_find_key_cstr(g, "split.no") < 0);
            CHECK_EQ_U(lgg_file_size(g), predicted);
            lgg_close(g);
        } else {
            uint64_t total = 0;
            for (int i = 0; i < 2; i++) {
                char sp[1100];
                snprintf(sp, sizeof sp, "%s/q1-%05d-of-00002.gguf", scratch_dir(), i + 1);
                lgg_file *g;
                REQUIRE(lgg_open_file(sp, NULL, &g, NULL) == LGG_OK);
                CHECK_EQ_U(lgg_tensor_count(g), 2);
                lgg_value v;
                uint16_t no = 99;
                CHECK(lgg_get(g, "split.no", &v) == LGG_OK && lgg_value_u16(&v, &no) == LGG_OK && no == i);
                int32_t nt = 0;
                CHECK(lgg_get(g, "split.tensors.count", &v) == LGG_OK && lgg_value_i32(&v, &nt) == LGG_OK && nt == 4);
                /* only the first split carries the model's metadata */
                CHECK((lgg_find_key_cstr(g, "general.architecture") >= 0) == (i == 0));
                total += lgg_file_size(g);
                lgg_close(g);
                unlink(sp);
            }
            CHECK_EQ_U(total, predicted);
        }
        unlink(out);
        lgg_quant_plan_free(p);
    }
    lgg_close(f[0]);
    lgg_close(f[1]);
}

static lgg_status fill_inf(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    fill(ud, offset, dst, n, err);
    float *f = dst;
    for (size_t i = 0; i < n / 4; i++)
        if (offset / 4 + i == 70000) f[i] = 1.0f / 0.0f;
    return LGG_OK;
}

/* A row that quantizes to Inf stops the write: an error naming the tensor,
 * no output, no temporary file left, with the workers still ahead of the
 * writer when it happens. */
TEST(quant_plan_write_failure) {
    char dir[1024], in[1100], out[1100];
    snprintf(dir, sizeof dir, "%s/fail", scratch_dir());
    mkdir(dir, 0700);
    snprintf(in, sizeof in, "%s/in.gguf", dir);
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    lgg_writer *w;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    int64_t ne[2] = {256, 1024};
    const char *names[] = {"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"};
    for (int i = 0; i < 3; i++)
        CHECK(lgg_writer_add_tensor_callback(w, names[i], strlen(names[i]), 2, ne, LGG_TYPE_F32,
                                             i == 1 ? fill_inf : fill, NULL, LGG_LITTLE_ENDIAN, NULL) == LGG_OK);
    lgg_write_options wopt;
    lgg_write_options_init(&wopt);
    wopt.flags = LGG_WRITE_NO_SYNC;
    REQUIRE(lgg_writer_write_file(w, in, &wopt, NULL) == LGG_OK);
    lgg_writer_free(w);
    lgg_file *f;
    lgg_quant_plan *p = plan_file(in, "Q8_0", &f);
    REQUIRE(p != NULL);
    lgg_error err;
    for (int nt = 1; nt <= 4; nt += 3) {
        lgg_quant_write_options wo;
        lgg_quant_write_options_init(&wo);
        wo.n_threads = nt;
        CHECK(lgg_quant_plan_write(p, out, &wo, &err) == LGG_ERR_INVALID);
        CHECKF(strstr(err.message, "blk.0.attn_k.weight") != NULL, "%s", err.message);
        DIR *d = opendir(dir);
        int n = 0;
        for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
        closedir(d);
        CHECK(n == 1); /* only the input */
    }
    lgg_quant_plan_free(p);
    lgg_close(f);
}

/* Tensors of many chunks, so the ring of buffers wraps many times, written
 * with 1 thread (the writing thread converts everything), 2 and 5: every
 * tensor's bytes must equal lgg_quantize over the whole tensor. */
TEST(quant_plan_write_many_chunks) {
    char in[1100], out[1100];
    snprintf(in, sizeof in, "%s/chunks-in.gguf", scratch_dir());
    snprintf(out, sizeof out, "%s/chunks-out.gguf", scratch_dir());
    const spec s[] = {
        {"token_embd.weight", 4096, 300, 1},   {"blk.0.attn_q.weight", 4096, 512, 1},
        {"blk.0.attn_norm.weight", 4096, 1, 1}, {"blk.0.ffn_down.weight", 1024, 700, 1},
        {"blk.0.ffn_up.weight", 32, 9000, 1},  {"output.weight", 4096, 300, 1},
    };
    write_model(in, 1, 0, s, sizeof s / sizeof s[0], -1, -1);
    lgg_file *f;
    lgg_quant_plan *p = plan_file(in, "Q8_0", &f);
    REQUIRE(p != NULL);
    lgg_error err;
    for (int nt = 1; nt <= 5; nt += nt < 2 ? 1 : 3) {
        lgg_quant_write_options wo;
        lgg_quant_write_options_init(&wo);
        wo.n_threads = nt;
        wo.write_flags = LGG_WRITE_NO_SYNC;
        CHECKF(lgg_quant_plan_write(p, out, &wo, &err) == LGG_OK, "%s", err.message);
        lgg_file *g = NULL;
        REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
        CHECK_EQ_U(lgg_tensor_count(g), sizeof s / sizeof s[0]);
        for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
            const lgg_quant_item *it = lgg_quant_plan_at(p, i);
            const int64_t k = lgg_find_tensor(g, it->t->name.ptr, (size_t)it->t->name.len);
            REQUIRE(k >= 0);
            const lgg_tensor *t = lgg_tensor_at(g, (uint64_t)k);
            CHECK_EQ_U(t->type, it->type);
            REQUIRE(t->size == it->size);
            void *want = malloc((size_t)it->size);
            REQUIRE(want != NULL);
            const int64_t ne0 = it->t->ne[0], rows = (int64_t)(it->t->n_elements / (uint64_t)ne0);
            if (it->type == LGG_TYPE_F32) memcpy(want, it->t->data, (size_t)it->size);
            else
                CHECK(lgg_quantize(it->type, it->t->data, want, (size_t)it->size, rows, ne0, NULL, NULL) == LGG_OK);
            CHECKF(!memcmp(want, t->data, (size_t)it->size), "%.*s differs with %d threads", (int)it->t->name.len,
                   it->t->name.ptr, nt);
            free(want);
        }
        lgg_close(g);
        unlink(out);
    }
    lgg_quant_plan_free(p);
    lgg_close(f);
    unlink(in);
}

/* --prune-layers (master's remap_layer): pruned layers dropped, the later
 * ones renumbered in order, block_count the count kept, the imatrix found
 * by the input's names, and each kept tensor written with its own data
 * (master 3f545becc writes the data of the tensor that had the new name,
 * and crashes on some models: not reproduced; docs/reference.md). */
TEST(quant_plan_prune_layers) {
    char path[1024], out[1100];
    snprintf(path, sizeof path, "%s/prune.gguf", scratch_dir());
    snprintf(out, sizeof out, "%s/prune-out.gguf", scratch_dir());
    const spec s[] = {{"token_embd.weight", 256, 8, 1},     {"blk.0.attn_q.weight", 256, 16, 1},
                      {"blk.1.attn_q.weight", 256, 16, 1},  {"blk.2.attn_q.weight", 256, 16, 1},
                      {"blk.2.attn_norm.weight", 256, 1, 1}, {"blk.3.attn_q.weight", 256, 16, 1}};
    { /* each tensor's values from its name, so that layers differ */
        lgg_writer *mw;
        REQUIRE(lgg_writer_create(NULL, &mw, NULL) == LGG_OK);
        lgg_writer_set_str(mw, "general.architecture", "llama", NULL);
        lgg_writer_set_u32(mw, "llama.block_count", 4, NULL);
        float *bufs[6];
        for (size_t i = 0; i < 6; i++) {
            int64_t ne[2] = {s[i].ne0, s[i].ne1};
            bufs[i] = qmm_values(s[i].name, (size_t)(ne[0] * ne[1]));
            CHECK(lgg_writer_add_tensor_buffer(mw, s[i].name, strlen(s[i].name), ne[1] > 1 ? 2 : 1, ne, LGG_TYPE_F32,
                                               bufs[i], (uint64_t)(ne[0] * ne[1]) * 4, LGG_LITTLE_ENDIAN,
                                               NULL) == LGG_OK);
        }
        lgg_write_options wo0;
        lgg_write_options_init(&wo0);
        wo0.flags = LGG_WRITE_NO_SYNC;
        CHECK(lgg_writer_write_file(mw, path, &wo0, NULL) == LGG_OK);
        for (size_t i = 0; i < 6; i++) free(bufs[i]);
        lgg_writer_free(mw);
    }
    lgg_file *f;
    REQUIRE(lgg_open_file(path, NULL, &f, NULL) == LGG_OK);
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find("Q8_0");
    const int32_t prune[] = {1, 9};
    o.prune_layers = prune;
    o.n_prune_layers = 2;
    lgg_quant_plan *p = NULL;
    lgg_error err;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK);
    CHECK_EQ_U(lgg_quant_plan_count(p), 5);
    static const char *const want[][2] = {{"token_embd.weight", "token_embd.weight"},
                                          {"blk.0.attn_q.weight", "blk.0.attn_q.weight"},
                                          {"blk.1.attn_norm.weight", "blk.2.attn_norm.weight"},
                                          {"blk.1.attn_q.weight", "blk.2.attn_q.weight"},
                                          {"blk.2.attn_q.weight", "blk.3.attn_q.weight"}};
    for (size_t i = 0; i < 5 && i < lgg_quant_plan_count(p); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        CHECKF(it->name.len == strlen(want[i][0]) && !memcmp(it->name.ptr, want[i][0], it->name.len) &&
                   it->t->name.len == strlen(want[i][1]) && !memcmp(it->t->name.ptr, want[i][1], it->t->name.len),
               "item %zu: %.*s from %.*s", i, (int)it->name.len, it->name.ptr, (int)it->t->name.len, it->t->name.ptr);
    }
    lgg_quant_write_options wo;
    lgg_quant_write_options_init(&wo);
    wo.write_flags = LGG_WRITE_NO_SYNC;
    REQUIRE(lgg_quant_plan_write(p, out, &wo, &err) == LGG_OK);
    lgg_file *g;
    REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
    lgg_value v;
    uint64_t bc = 0;
    CHECK(lgg_get(g, "llama.block_count", &v) == LGG_OK && v.type == LGG_VT_U32 && lgg_value_uint(&v, &bc) == LGG_OK &&
          bc == 3);
    CHECK(!strncmp(lgg_kv_at(g, lgg_kv_count(g) - 1)->key.ptr, "llama.block_count", 17)); /* set last */
    /* blk.1.attn_q is the input's blk.2.attn_q, quantized */
    const lgg_tensor *a = NULL, *b = NULL;
    for (uint64_t i = 0; i < lgg_tensor_count(g); i++)
        if (lgg_tensor_at(g, i)->name.len == 19 && !memcmp(lgg_tensor_at(g, i)->name.ptr, "blk.1.attn_q.weight", 19))
            a = lgg_tensor_at(g, i);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++)
        if (lgg_tensor_at(f, i)->name.len == 19 && !memcmp(lgg_tensor_at(f, i)->name.ptr, "blk.2.attn_q.weight", 19))
            b = lgg_tensor_at(f, i);
    REQUIRE(a && b && a->type == LGG_TYPE_Q8_0);
    uint8_t q[16 * 272];
    size_t w = 0;
    CHECK(lgg_quantize(LGG_TYPE_Q8_0, (const float *)b->data, q, sizeof q, 16, 256, NULL, &w) == LGG_OK &&
          w == a->size && !memcmp(q, a->data, w));
    lgg_close(g);
    lgg_quant_plan_free(p);
    lgg_close(f);
}
