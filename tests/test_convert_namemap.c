/* test_convert_namemap.c -- the converter's shared Hugging Face -> GGUF
 * tensor-name map (src/convert/namemap.c) and the families' rows over it:
 * each pattern once, none two rows could both match, placeholders whole
 * segments, expert slots complete; a family's own rows and flags win over
 * the shared map (names and transforms as llama.cpp b4747's converter
 * gives them: Gemma's +1 norms, Llama's q/k permutation, GPT-2's Conv1D
 * transposes, BitNet's refused lm_head). */
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include "convert/cvint.h"

#include <string.h>

/* Two patterns that one name can match (segment by segment: equal, or a
 * placeholder against a number or a placeholder). */
static int overlap(const char *a, const char *b) {
    while (*a && *b) {
        size_t la = strcspn(a, "."), lb = strcspn(b, ".");
        int pa = la == 1 && (*a == '#' || *a == '*'), pb = lb == 1 && (*b == '#' || *b == '*');
        int na = la && strspn(a, "0123456789") == la, nb = lb && strspn(b, "0123456789") == lb;
        if (!((la == lb && !memcmp(a, b, la)) || (pa && (pb || nb)) || (pb && na))) return 0;
        a += la + (a[la] == '.'), b += lb + (b[lb] == '.');
    }
    return !*a && !*b;
}

TEST(convert_namemap_rows) {
    const cv_tmap *rows;
    size_t n = lgg__cv_namemap_rows(&rows);
    CHECKF(n > 250, "%zu rows", n);
    unsigned slots[16] = {0};
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++)
            CHECKF(!overlap(rows[i].hf, rows[j].hf), "'%s' and '%s' match the same names", rows[i].hf, rows[j].hf);
        for (const char *p = rows[i].hf; (p = strpbrk(p, "#*")); p++)
            CHECKF((p == rows[i].hf || p[-1] == '.') && (!p[1] || p[1] == '.'), "'%s': a placeholder inside a segment",
                   rows[i].hf);
        CHECKF(strlen(rows[i].hf) < 120, "'%s': longer than the index's keys", rows[i].hf);
        CHECKF(!strchr(rows[i].hf, '#') == !strchr(rows[i].gguf, '#'), "'%s' -> '%s': the block number", rows[i].hf,
               rows[i].gguf);
        CHECKF(!(rows[i].xform & ~(unsigned)(CV_X_EXPERT | CV_X_SLOT(3))), "'%s': a family's transform in the shared map",
               rows[i].hf);
        if (rows[i].xform & CV_X_EXPERT) { /* a group: expert rows in a row */
            size_t g = i;
            while (g > 0 && (rows[g - 1].xform & CV_X_EXPERT)) g--;
            slots[g % 16] |= 1u << CV_X_SLOT_OF(rows[i].xform);
        }
    }
    for (size_t i = 0; i < n; i++)
        if ((rows[i].xform & CV_X_EXPERT) && (i == 0 || !(rows[i - 1].xform & CV_X_EXPERT)))
            CHECKF(slots[i % 16] == 7, "'%s': the group's slots are %x, not 0, 1 and 2", rows[i].hf, slots[i % 16]);
}

typedef struct map_case {
    const char *arch, *hf, *gguf; /* gguf NULL: no GGUF name */
    unsigned xform;
} map_case;

TEST(convert_namemap_families) {
    static const map_case CASES[] = {
        {"LlamaForCausalLM", "model.layers.3.self_attn.q_proj.weight", "blk.3.attn_q.weight", CV_X_PERM_Q},
        {"LlamaForCausalLM", "model.layers.3.self_attn.k_proj.bias", "blk.3.attn_k.bias", CV_X_PERM_K},
        {"Qwen2ForCausalLM", "model.layers.3.self_attn.q_proj.weight", "blk.3.attn_q.weight", 0},
        {"MixtralForCausalLM", "model.layers.1.block_sparse_moe.experts.7.w2.weight", "blk.1.ffn_down_exps.weight",
         CV_X_EXPERT | CV_X_SLOT(1)},
        {"Qwen2MoeForCausalLM", "model.layers.1.mlp.experts.0.gate_proj.weight", "blk.1.ffn_gate_exps.weight",
         CV_X_EXPERT | CV_X_SLOT(1)},
        {"GemmaForCausalLM", "model.layers.0.input_layernorm.weight", "blk.0.attn_norm.weight", CV_X_ADD1},
        {"GemmaForCausalLM", "lm_head.weight", ".weight", CV_X_SKIP},
        {"Gemma2ForCausalLM", "model.layers.0.post_attention_layernorm.weight", "blk.0.post_attention_norm.weight", CV_X_ADD1},
        {"LlamaForCausalLM", "model.layers.0.post_attention_layernorm.weight", "blk.0.ffn_norm.weight", 0},
        {"ArcticForCausalLM", "model.layers.0.post_attention_layernorm.weight", "blk.0.ffn_norm_exps.weight", 0},
        {"RWKV6Qwen2ForCausalLM", "model.layers.2.self_attn.q_proj.weight", "blk.2.time_mix_receptance.weight", 0},
        {"GPT2LMHeadModel", "h.0.mlp.c_fc.weight", "blk.0.ffn_up.weight", CV_X_TRANSPOSE},
        {"JAISLMHeadModel", "transformer.h.0.mlp.c_fc2.weight", "blk.0.ffn_gate.weight", CV_X_TRANSPOSE},
        {"QWenLMHeadModel", "transformer.h.0.attn.c_attn.weight", "blk.0.attn_qkv.weight", 0},
        {"T5ForConditionalGeneration", "decoder.block.1.layer.2.DenseReluDense.wi_1.weight", "dec.blk.1.ffn_up.weight", 0},
        {"T5ForConditionalGeneration", "decoder.block.1.layer.1.DenseReluDense.wi_1.weight", NULL, 0},
        {"Rwkv6ForCausalLM", "rwkv.blocks.0.pre_ln.weight", "token_embd_norm.weight", 0},
        {"BitnetForCausalLM", "lm_head.weight", NULL, 0},
        {"BitnetForCausalLM", "model.layers.0.mlp.ffn_layernorm.weight", "blk.0.ffn_sub_norm.weight", 0},
        {"LlamaForCausalLM", "model.layers.x.self_attn.q_proj.weight", NULL, 0},
        {"LlamaForCausalLM", "model.layers.0.self_attn.q_proj.weight.weight", NULL, 0},
        /* a name of the shared map that the family does not write (its kinds): refused as its reference does */
        {"LlamaForCausalLM", "model.layers.0.self_attn.q_norm.weight", NULL, 0},
        {"Qwen2ForCausalLM", "model.layers.0.mlp.experts.0.gate_proj.weight", NULL, 0},
        {"GPT2LMHeadModel", "model.layers.0.self_attn.q_proj.weight", NULL, 0},
        {"Olmo2ForCausalLM", "model.layers.0.self_attn.q_norm.weight", "blk.0.attn_q_norm.weight", 0},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const map_case *k = &CASES[i];
        const cv_family *f = lgg__cv_family_find(k->arch);
        CHECKF(f != NULL, "%s: no family", k->arch);
        if (!f) continue;
        char out[256] = "";
        unsigned x = 0;
        long bid = -1, xid = -1;
        const cv_tmap *m = lgg__cv_map_name(f, k->hf, out, sizeof out, &x, &bid, &xid);
        if (!k->gguf) {
            CHECKF(m == NULL, "%s: '%s' mapped to '%s'", k->arch, k->hf, out);
            continue;
        }
        CHECKF(m && !strcmp(out, k->gguf) && x == k->xform, "%s: '%s' -> '%s' xform %#x, expected '%s' %#x", k->arch, k->hf,
               m ? out : "(none)", x, k->gguf, k->xform);
    }
}

#endif
