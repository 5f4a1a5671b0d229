/* test_convert_plamo.c -- PLaMo against llama.cpp b4747's
 * convert_hf_to_gguf.py.  The reference's q and attention-output shuffles
 * take PLaMo-13B's 5120 x 5120 matrices only, so the checkpoint has its
 * attention as it is (hidden_size 5120, 40 heads of 128, 8 sharing each
 * key/value head: k and v have 640 rows) but one block, a small MLP and
 * the 400-piece SentencePiece model of tests/data (vocab_size 400, as a
 * real checkpoint's matches its tokenizer.model): about 128 MB in bf16,
 * written again byte for byte by convert_cases.c and converted in the
 * five outtypes.  The sha256s of the reference's outputs are recorded here
 * (LGG_REF_TEST=convert_plamo_ tests/convert_reference.sh remakes them).
 * Any other shape is refused, naming it, where the reference's assertion
 * fails. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <unistd.h>

/* pfnet/plamo-13b's config.json at one block, a 64-wide MLP and a
 * 400-token vocabulary. */
#define PLAMO_CONFIG(H, NH, FF, L)                                                                                      \
    "{\"architectures\":[\"PlamoForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"modeling_plamo.PlamoConfig\",\"AutoMode" \
    "lForCausalLM\":\"modeling_plamo.PlamoForCausalLM\"},\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_size\":" #H      \
    ",\"initializer_range\":0.02,\"intermediate_size\":" #FF ",\"max_position_embeddings\":4096,\"model_type\":\"plam" \
    "o\",\"n_shared_head\":8,\"num_attention_heads\":" #NH ",\"num_hidden_layers\":" #L ",\"pad_token_id\":3,\"rms_no" \
    "rm_eps\":1e-06,\"tie_word_embeddings\":false,\"tokenizer_class\":\"PlamoTokenizer\",\"torch_dtype\":\"bfloat16\"," \
    "\"transformers_version\":\"4.30.2\",\"use_cache\":true,\"vocab_size\":400}"

/* Its tokenizer_config.json: PlamoTokenizer's special tokens (the SentencePiece
 * model has no <pad>, <cls>, <sep> or <mask>: their ids come from config.json
 * or nowhere). */
#define PLAMO_TC                                                                                                         \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"auto_map\":{\"AutoTokenizer\":[\"tokenization_plamo.PlamoTok" \
    "enizer\",null]},\"bos_token\":\"<s>\",\"clean_up_tokenization_spaces\":false,\"cls_token\":\"<cls>\",\"eos_toke" \
    "n\":\"</s>\",\"local_file_only\":true,\"mask_token\":\"<mask>\",\"pad_token\":\"<pad>\",\"sep_token\":\"<sep>\"," \
    "\"sp_model_kwargs\":{},\"tokenizer_class\":\"PlamoTokenizer\",\"unk_token\":\"<unk>\"}"

static const char *const CONFIG = PLAMO_CONFIG(5120, 40, 64, 1);

/* The reference's output for f32, f16, bf16, q8_0 and auto. */
static const char *const SHA[5] = {"d09c5f1e73c8b0bb22f0f192be8644b64bea1c3fc8f74b441d4284cb2ff449ca",
                                   "c61ac81417b10a83b31807f91e6e8319e7890cb78e8629c76bc1b3d6c8d1911a",
                                   "c217d7f2be6e2315206de3dc09dd531a9d253ecc1cc1fdc55751a8beb5697d69",
                                   "904fe299e4f15b5ad5bb79e999503e7476d69c04d430cbbc89f9735b472702e3",
                                   "c217d7f2be6e2315206de3dc09dd531a9d253ecc1cc1fdc55751a8beb5697d69"};

/* A checkpoint named `name`: H wide, nh heads of H / nh, nh / 8 key/value heads. */
static const char *make(const char *name, const char *config, uint64_t H, uint64_t nh, uint64_t ff, uint64_t V) {
    static const char *const files[][2] = {{"tokenizer_config.json", PLAMO_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *d = cv_case_dir(name, "", "", config, files);
    static char dir[4096];
    char to[4300];
    if (!d) return NULL;
    snprintf(dir, sizeof dir, "%s", d);
    snprintf(to, sizeof to, "%s/tokenizer.model", dir);
    if (!cv_case_copy("tests/data/unigram-nmt-nfkc.model", to)) return NULL;
    uint64_t kv = (nh + 7) / 8 * (H / nh);
    tspec t[16];
    size_t n = 0;
    ADD(V, H, "model.embed_tokens.weight");
    ADD(V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    const char *p = "model.layers.layers.0";
    ADD(H, 0, "%s.norm.weight", p);
    ADD(H, H, "%s.self_attn.q_proj.weight", p);
    ADD(kv, H, "%s.self_attn.k_proj.weight", p);
    ADD(kv, H, "%s.self_attn.v_proj.weight", p);
    ADD(H, H, "%s.self_attn.o_proj.weight", p);
    ADD(ff, H, "%s.mlp.gate_proj.weight", p);
    ADD(ff, H, "%s.mlp.up_proj.weight", p);
    ADD(H, ff, "%s.mlp.down_proj.weight", p);
    return cv_case_weights(dir, t, cv_case_sort(t, n), LGG_TYPE_BF16) ? dir : NULL;
}

TEST(convert_plamo_13b_attention) {
    const char *dir = make("plamo-13b-tiny", CONFIG, 5120, 40, 64, 400);
    CHECKF(dir != NULL, "cannot make the PLaMo checkpoint");
    if (!dir) return;
    int same = cv_case_check(dir, "plamo-13b-tiny", SHA);
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to the reference", same, cv_case_outtypes());
    cv_case_supported("PlamoForCausalLM");
    cv_case_refused(dir, CONFIG, ",\"rms_norm_eps\":1e-06", "'rms_norm_eps'");
    cv_case_refused(dir, CONFIG, ",\"hidden_size\":5120", "'hidden_size'");
}

/* Other attention dimensions: the reference's assertion fails; here the
 * conversion is refused with the shape it cannot shuffle. */
TEST(convert_plamo_other_dims_refused) {
    static const char *const config = PLAMO_CONFIG(256, 16, 64, 1);
    const char *dir = make("plamo-small", config, 256, 16, 64, 400);
    CHECKF(dir != NULL, "cannot make the small PLaMo checkpoint");
    if (!dir) return;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(err.message, "'model.layers.layers.0.self_attn.o_proj.weight'") &&
               strstr(err.message, "shape 256 x 256") && strstr(err.message, "5120 x 5120"),
           "status %d, '%s'", (int)st, st ? err.message : "");
}

#endif
