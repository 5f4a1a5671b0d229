/* test_convert_embed.c -- BERT-style embedding models (issue 25), checked
 * against llama.cpp's convert_hf_to_gguf.py b4747 run outside the repo
 * (../shared/golden/convert/reference/README.md) on checkpoints this test
 * makes again byte for byte: the config.json fields of the real models
 * named, a real WordPiece vocabulary (bert-base-uncased's, which
 * all-MiniLM-L6-v2 and bge-small-en-v1.5 use: tests/data/README.md says
 * where it comes from; the reference recognises its tokenizer.json as
 * "bert-bge" by its own hash), and weights from a counter-based hash, each
 * a multiple of 2^-10 below 2^-3 in magnitude, so exact in F32, F16 and
 * BF16.  The sha256 of each reference output is recorded here.
 *
 * To remake the references: LGG_EMBED_CHECKPOINTS=DIR ./build/test_runner
 * convert_embed leaves the checkpoints in DIR; run the reference on each
 * for every outtype there. */
#include "embed_cases.h"
#include "libgguf_convert.h"
#include "standin.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

/* Element k of the checkpoint (counted across its tensors in name order). */
static float weight(uint64_t k) {
    uint64_t z = (k + 1) * 0xd1342543de82ef95ull;
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9ull;
    return (float)(int8_t)(z >> 56) * 0x1p-10f;
}

typedef struct etensor {
    char name[128];
    uint64_t d0, d1; /* d1 == 0: 1-D */
} etensor;

static int by_name(const void *a, const void *b) { return strcmp(((const etensor *)a)->name, ((const etensor *)b)->name); }

#define T(a, b, ...) (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d0 = (a), t[n].d1 = (b), n++)

/* A BERT encoder's tensors under `pre` ("" or "bert."); `old_norms`: the
 * LayerNorms' parameters named gamma/beta (older checkpoints); `heads`:
 * the pooler and (1) the masked-LM head or (2) not, which the reference
 * drops, or (4) a sequence classifier's head, which it keeps; (5) Jina's
 * BERT v2 (a fused gate/up feed-forward, the pooler); P 0: no position
 * embeddings. */
static size_t bert_tensors(etensor *t, const char *pre, uint64_t H, uint64_t L, uint64_t FF, uint64_t V, uint64_t P,
                           uint64_t TV, int old_norms, int heads) {
    size_t n = 0;
    const char *w = old_norms ? "gamma" : "weight", *b = old_norms ? "beta" : "bias";
    T(V, H, "%sembeddings.word_embeddings.weight", pre);
    if (P) T(P, H, "%sembeddings.position_embeddings.weight", pre);
    T(TV, H, "%sembeddings.token_type_embeddings.weight", pre);
    T(H, 0, "%sembeddings.LayerNorm.%s", pre, w);
    T(H, 0, "%sembeddings.LayerNorm.%s", pre, b);
    for (uint64_t l = 0; l < L; l++) {
        unsigned long long i = (unsigned long long)l;
        static const char *const qkv[] = {"query", "key", "value"};
        if (heads == 5) { /* Jina's fused gate/up, its down projection and norm */
            T(2 * FF, H, "%sencoder.layer.%llu.mlp.gated_layers.weight", pre, i);
            T(H, FF, "%sencoder.layer.%llu.mlp.wo.weight", pre, i);
            T(H, 0, "%sencoder.layer.%llu.mlp.wo.bias", pre, i);
            T(H, 0, "%sencoder.layer.%llu.mlp.layernorm.weight", pre, i);
            T(H, 0, "%sencoder.layer.%llu.mlp.layernorm.bias", pre, i);
        }
        for (int k = 0; k < 3; k++) {
            T(H, H, "%sencoder.layer.%llu.attention.self.%s.weight", pre, i, qkv[k]);
            T(H, 0, "%sencoder.layer.%llu.attention.self.%s.bias", pre, i, qkv[k]);
        }
        T(H, H, "%sencoder.layer.%llu.attention.output.dense.weight", pre, i);
        T(H, 0, "%sencoder.layer.%llu.attention.output.dense.bias", pre, i);
        T(H, 0, "%sencoder.layer.%llu.attention.output.LayerNorm.%s", pre, i, w);
        T(H, 0, "%sencoder.layer.%llu.attention.output.LayerNorm.%s", pre, i, b);
        if (heads == 5) continue;
        T(FF, H, "%sencoder.layer.%llu.intermediate.dense.weight", pre, i);
        T(FF, 0, "%sencoder.layer.%llu.intermediate.dense.bias", pre, i);
        T(H, FF, "%sencoder.layer.%llu.output.dense.weight", pre, i);
        T(H, 0, "%sencoder.layer.%llu.output.dense.bias", pre, i);
        T(H, 0, "%sencoder.layer.%llu.output.LayerNorm.%s", pre, i, w);
        T(H, 0, "%sencoder.layer.%llu.output.LayerNorm.%s", pre, i, b);
    }
    if (heads == 1 || heads == 2 || heads == 5) {
        T(H, H, "%spooler.dense.weight", pre);
        T(H, 0, "%spooler.dense.bias", pre);
    }
    if (heads == 4) { /* a sequence classifier's head */
        T(H, H, "classifier.dense.weight");
        T(H, 0, "classifier.dense.bias");
        T(1, H, "classifier.out_proj.weight");
        T(1, 0, "classifier.out_proj.bias");
    }
    if (heads == 1) {
        T(V, 0, "cls.predictions.bias");
        T(H, H, "cls.predictions.transform.dense.weight");
        T(H, 0, "cls.predictions.transform.dense.bias");
        T(H, 0, "cls.predictions.transform.LayerNorm.%s", w);
        T(H, 0, "cls.predictions.transform.LayerNorm.%s", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* Nomic's BERT: fused q/k/v and a gated feed-forward without biases, no
 * position embeddings (rotary). */
static size_t nomic_tensors(etensor *t, uint64_t H, uint64_t L, uint64_t FF, uint64_t V, uint64_t TV) {
    size_t n = 0;
    T(V, H, "embeddings.word_embeddings.weight");
    T(TV, H, "embeddings.token_type_embeddings.weight");
    T(H, 0, "emb_ln.weight");
    T(H, 0, "emb_ln.bias");
    for (unsigned long long l = 0; l < L; l++) {
        T(3 * H, H, "encoder.layers.%llu.attn.Wqkv.weight", l);
        T(H, H, "encoder.layers.%llu.attn.out_proj.weight", l);
        T(FF, H, "encoder.layers.%llu.mlp.fc11.weight", l);
        T(FF, H, "encoder.layers.%llu.mlp.fc12.weight", l);
        T(H, FF, "encoder.layers.%llu.mlp.fc2.weight", l);
        for (int k = 1; k <= 2; k++) {
            T(H, 0, "encoder.layers.%llu.norm%d.weight", l, k);
            T(H, 0, "encoder.layers.%llu.norm%d.bias", l, k);
        }
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* model.safetensors holding t[0..n) as dtype (F32, F16 or BF16). */
static int write_safetensors(const char *path, const etensor *t, size_t n, uint32_t dtype) {
    size_t es = dtype == LGG_TYPE_F32 ? 4 : 2, cap = 64 + n * 220, hl = 0;
    char *h = malloc(cap);
    FILE *f = h ? fopen(path, "wb") : NULL;
    if (!f) return free(h), 0;
    uint64_t off = 0;
    hl += (size_t)snprintf(h, cap, "{");
    for (size_t i = 0; i < n; i++) {
        uint64_t bytes = t[i].d0 * (t[i].d1 ? t[i].d1 : 1) * es;
        char shape[64];
        snprintf(shape, sizeof shape, t[i].d1 ? "%llu, %llu" : "%llu", (unsigned long long)t[i].d0,
                 (unsigned long long)t[i].d1);
        hl += (size_t)snprintf(h + hl, cap - hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                               i ? ", " : "", t[i].name, lgg_type_name(dtype), shape, (unsigned long long)off,
                               (unsigned long long)(off + bytes));
        off += bytes;
    }
    hl += (size_t)snprintf(h + hl, cap - hl, "}");
    uint64_t hl64 = hl;
    int ok = fwrite(&hl64, 8, 1, f) == 1 && fwrite(h, 1, hl, f) == hl;
    free(h);
    for (uint64_t i = 0, k = 0; ok && i < n; i++)
        for (uint64_t e = 0; e < t[i].d0 * (t[i].d1 ? t[i].d1 : 1); e++, k++) {
            float v = weight(k);
            uint16_t u = dtype == LGG_TYPE_F16 ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            ok = dtype == LGG_TYPE_F32 ? fwrite(&v, 4, 1, f) == 1 : fwrite(&u, 2, 1, f) == 1;
        }
    return (fclose(f) == 0) & ok;
}

static void json_string(FILE *f, const char *s, size_t len) {
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

/* bge-small-en-v1.5's tokenizer.json (BertNormalizer, BertPreTokenizer,
 * WordPiece) around the vocabulary, one token a line of `vocab`. */
#define TJ_ADDED(id, s) "{\"id\":" #id ",\"content\":\"" s "\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":false,\"special\":true}"
#define TJ_HEAD                                                                                                     \
    "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":[" TJ_ADDED(0, "[PAD]") "," TJ_ADDED( \
        100, "[UNK]") "," TJ_ADDED(101, "[CLS]") "," TJ_ADDED(102, "[SEP]") "," TJ_ADDED(103, "[MASK]")              \
    "],\"normalizer\":{\"type\":\"BertNormalizer\",\"clean_text\":true,\"handle_chinese_chars\":true,"                  \
    "\"strip_accents\":null,\"lowercase\":true},\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"},"                     \
    "\"post_processor\":{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":\"[CLS]\",\"type_id\":0}}," \
    "{\"Sequence\":{\"id\":\"A\",\"type_id\":0}},{\"SpecialToken\":{\"id\":\"[SEP]\",\"type_id\":0}}],"                 \
    "\"pair\":[{\"SpecialToken\":{\"id\":\"[CLS]\",\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}},"         \
    "{\"SpecialToken\":{\"id\":\"[SEP]\",\"type_id\":0}},{\"Sequence\":{\"id\":\"B\",\"type_id\":1}},"                   \
    "{\"SpecialToken\":{\"id\":\"[SEP]\",\"type_id\":1}}],\"special_tokens\":{\"[CLS]\":{\"id\":\"[CLS]\",\"ids\":[101]," \
    "\"tokens\":[\"[CLS]\"]},\"[SEP]\":{\"id\":\"[SEP]\",\"ids\":[102],\"tokens\":[\"[SEP]\"]}}},"                       \
    "\"decoder\":{\"type\":\"WordPiece\",\"prefix\":\"##\",\"cleanup\":true},\"model\":{\"type\":\"WordPiece\","          \
    "\"unk_token\":\"[UNK]\",\"continuing_subword_prefix\":\"##\",\"max_input_chars_per_word\":100,\"vocab\":{"

static int write_wordpiece(const char *dir, const char *vocab) {
    size_t n = 0;
    char *v = (char *)read_file(vocab, &n), p[4400];
    snprintf(p, sizeof p, "%s/tokenizer.json", dir);
    FILE *f = v ? fopen(p, "w") : NULL;
    if (!f) return free(v), 0;
    fputs(TJ_HEAD, f);
    size_t id = 0;
    for (char *s = v, *nl; s < v + n && (nl = memchr(s, '\n', (size_t)(v + n - s))); s = nl + 1, id++) {
        if (id) fputc(',', f);
        json_string(f, s, (size_t)(nl - s));
        fprintf(f, ":%zu", id);
    }
    fputs("}}}", f);
    free(v);
    return fclose(f) == 0 && id == 30522;
}

#define BERT_TC                                                                                                  \
    "{\"clean_up_tokenization_spaces\":true,\"cls_token\":\"[CLS]\",\"do_basic_tokenize\":true,\"do_lower_case\":true," \
    "\"mask_token\":\"[MASK]\",\"model_max_length\":512,\"never_split\":null,\"pad_token\":\"[PAD]\","                 \
    "\"sep_token\":\"[SEP]\",\"strip_accents\":null,\"tokenize_chinese_chars\":true,\"tokenizer_class\":\"BertTokenizer\"," \
    "\"unk_token\":\"[UNK]\"}"
#define BERT_STM                                                                                                  \
    "{\"cls_token\":\"[CLS]\",\"mask_token\":\"[MASK]\",\"pad_token\":\"[PAD]\",\"sep_token\":\"[SEP]\",\"unk_token\":\"[UNK]\"}"
int embed_wordpiece(const char *dir) {
    return write_wordpiece(dir, "tests/data/bert-base-uncased-vocab.txt") && put_text(dir, "tokenizer_config.json", BERT_TC) &&
           put_text(dir, "special_tokens_map.json", BERT_STM);
}

#define MODULES                                                                                                   \
    "[{\"idx\":0,\"name\":\"0\",\"path\":\"\",\"type\":\"sentence_transformers.models.Transformer\"},"                 \
    "{\"idx\":1,\"name\":\"1\",\"path\":\"1_Pooling\",\"type\":\"sentence_transformers.models.Pooling\"},"             \
    "{\"idx\":2,\"name\":\"2\",\"path\":\"2_Normalize\",\"type\":\"sentence_transformers.models.Normalize\"}]"
#define POOLING(mean, cls)                                                                                          \
    "{\"word_embedding_dimension\":32,\"pooling_mode_cls_token\":" cls ",\"pooling_mode_mean_tokens\":" mean ","     \
    "\"pooling_mode_max_tokens\":false,\"pooling_mode_mean_sqrt_len_tokens\":false}"

/* RoBERTa's tokenizer_config.json, with the special tokens of the BPE
 * tokenizer.json the test borrows (see CASES). */
#define ROBERTA_TC                                                                                                 \
    "{\"add_prefix_space\":false,\"bos_token\":\"<|endoftext|>\",\"clean_up_tokenization_spaces\":true,"            \
    "\"cls_token\":\"<|endoftext|>\",\"eos_token\":\"<|im_end|>\",\"errors\":\"replace\",\"mask_token\":\"<|vision_pad|>\"," \
    "\"model_max_length\":512,\"pad_token\":\"<|endoftext|>\",\"sep_token\":\"<|im_end|>\","                       \
    "\"tokenizer_class\":\"RobertaTokenizer\",\"trim_offsets\":true,\"unk_token\":\"<|endoftext|>\"}"

typedef struct ecase {
    const char *name, *config;
    const char *tokdir, *tc; /* a golden/convert model whose tokenizer.json is copied, or a tests/data file
                                copied as sentencepiece.bpe.model (".model"), and tokenizer_config.json;
                                NULL: the WordPiece tokenizer and BERT_TC */
    const char *pooling; /* 1_Pooling/config.json, or NULL: no modules.json */
    const char *prefix;
    int old_norms, heads; /* heads 3: Nomic's BERT (nomic_tensors) */
    uint64_t H, L, FF, V, P, TV;
    uint32_t dtype;
    const char *pre;    /* --pre, or NULL: named by the reference's check hash, as the reference names it (every case) */
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} ecase;

static const ecase CASES[] = {
    /* all-MiniLM-L6-v2's shape of config, sentence-transformers' mean pooling, F32 weights */
    {"all-MiniLM-Tiny-Test",
     "{\"_name_or_path\":\"nreimers/MiniLM-L6-H384-uncased\",\"architectures\":[\"BertModel\"],"
     "\"attention_probs_dropout_prob\":0.1,\"gradient_checkpointing\":false,\"hidden_act\":\"gelu\","
     "\"hidden_dropout_prob\":0.1,\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"layer_norm_eps\":1e-12,\"max_position_embeddings\":512,\"model_type\":\"bert\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"pad_token_id\":0,\"position_embedding_type\":\"absolute\",\"transformers_version\":\"4.8.2\","
     "\"type_vocab_size\":2,\"use_cache\":true,\"vocab_size\":30522}",
     NULL, NULL, POOLING("true", "false"), "", 0, 0, 32, 2, 64, 30522, 512, 2, LGG_TYPE_F32, NULL,
     {"dad103dc9feb5f740bad774573c7e90cb0fc0fa148462778c3a347e457b2344f", "9b94cbff0aeaea3a67913dfa23ed718e2c8e42a3a22c5105b6df188dce9b74e5", "b1932a8cd9ff482a2b93bc248148a041301e993dba9b95df3263de604948fada", "0fa32a196243170edb9ece4426372e02bcdadba06d910709c9f401e3005a60a3", "b1932a8cd9ff482a2b93bc248148a041301e993dba9b95df3263de604948fada"}},
    /* a masked-LM checkpoint: "bert." names, gamma/beta LayerNorms, the pooler and the
     * prediction head (dropped), CLS pooling, F16 weights */
    {"bge-tiny-mlm-test",
     "{\"architectures\":[\"BertForMaskedLM\"],\"attention_probs_dropout_prob\":0.1,\"classifier_dropout\":null,"
     "\"hidden_act\":\"gelu\",\"hidden_dropout_prob\":0.1,\"hidden_size\":32,\"initializer_range\":0.02,"
     "\"intermediate_size\":48,\"layer_norm_eps\":1e-12,\"max_position_embeddings\":512,\"model_type\":\"bert\","
     "\"num_attention_heads\":2,\"num_hidden_layers\":3,\"pad_token_id\":0,\"position_embedding_type\":\"absolute\","
     "\"torch_dtype\":\"float16\",\"transformers_version\":\"4.30.0\",\"type_vocab_size\":2,\"use_cache\":true,"
     "\"vocab_size\":30522}",
     NULL, NULL, POOLING("false", "true"), "bert.", 1, 1, 32, 3, 48, 30522, 512, 2, LGG_TYPE_F16, NULL,
     {"a21f3ad966618bf1a1a06c53a8493660106324d99c364d7cb8b73d9f6fa917a8", "5f4878eb530918e8fed8623be98cf0a68804a030e6c5273cbcb886ae15bb1036", "c40d47b3d6ea1f1cf60622104c8daac008107b731b9d76c1d268901986c2de71", "9abc8845e69262738d3b1fc20a455a3857b9f6a8d1ad58bafc6a7a2054710573", "5f4878eb530918e8fed8623be98cf0a68804a030e6c5273cbcb886ae15bb1036"}},
    /* all-distilroberta-v1's shape of config (pad_token_id 1: the first two position rows are dropped), a
     * BPE tokenizer.json (Qwen2.5's: no RoBERTa tokenizer is at hand, and the reference reads any
     * byte-level BPE the same way), the pooler (dropped), mean pooling, F16 weights */
    {"all-distilroberta-tiny-test",
     "{\"architectures\":[\"RobertaModel\"],\"attention_probs_dropout_prob\":0.1,\"bos_token_id\":0,"
     "\"classifier_dropout\":null,\"eos_token_id\":2,\"gradient_checkpointing\":false,\"hidden_act\":\"gelu\","
     "\"hidden_dropout_prob\":0.1,\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"layer_norm_eps\":1e-05,\"max_position_embeddings\":514,\"model_type\":\"roberta\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"pad_token_id\":1,\"position_embedding_type\":\"absolute\",\"torch_dtype\":\"float16\","
     "\"transformers_version\":\"4.39.3\",\"type_vocab_size\":1,\"use_cache\":true,\"vocab_size\":151936}",
     "Qwen2.5-Tiny-Test-Instruct", ROBERTA_TC, POOLING("true", "false"), "", 0, 2, 32, 2, 64, 151936, 514, 1,
     LGG_TYPE_F16, NULL, {"940e9e52be39e6452b308a77665084ecd6447785aaca0706b562305aaea449a2", "a6ea237f5fb306f2faa0cd711f45f9ec84fd98324e68ce5c5e650aeb3abb9108", "d9a22ee9d9fad6d03d10f23c160948aa38b22d66c51e58aeb7a6623dabea5cd1", "4f1e9bb3feeddd2a99f389754d5a4003c2742eff5bec640b1b24c3402bcfc29f", "a6ea237f5fb306f2faa0cd711f45f9ec84fd98324e68ce5c5e650aeb3abb9108"}},
    /* nomic-embed-text-v1's config.json (its names: n_embd, n_layer, n_positions 8192, which the reference
     * replaces by a 2048 context; a vocabulary padded to a multiple of 64), mean pooling, F32 weights */
    {"nomic-embed-tiny-test",
     "{\"_name_or_path\":\"nomic-ai/nomic-bert-2048\",\"activation_function\":\"swiglu\","
     "\"architectures\":[\"NomicBertModel\"],\"attn_pdrop\":0.0,\"bos_token_id\":null,\"causal\":false,"
     "\"dense_seq_output\":true,\"embd_pdrop\":0.0,\"eos_token_id\":null,\"fused_bias_fc\":true,"
     "\"fused_dropout_add_ln\":true,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-12,"
     "\"max_trained_positions\":2048,\"mlp_fc1_bias\":false,\"mlp_fc2_bias\":false,\"model_type\":\"nomic_bert\","
     "\"n_embd\":32,\"n_head\":4,\"n_inner\":64,\"n_layer\":2,\"n_positions\":8192,\"pad_vocab_size_multiple\":64,"
     "\"parallel_block\":false,\"parallel_block_tied_norm\":false,\"prenorm\":false,\"qkv_proj_bias\":false,"
     "\"reorder_and_upcast_attn\":false,\"resid_pdrop\":0.0,\"rotary_emb_base\":1000,\"rotary_emb_fraction\":1.0,"
     "\"rotary_emb_interleaved\":false,\"rotary_emb_scale_base\":null,\"rotary_scaling_factor\":2,"
     "\"scale_attn_by_inverse_layer_idx\":false,\"scale_attn_weights\":true,\"summary_activation\":null,"
     "\"torch_dtype\":\"float32\",\"transformers_version\":\"4.34.0\",\"type_vocab_size\":2,\"use_cache\":true,"
     "\"use_flash_attn\":true,\"use_rms_norm\":false,\"use_xentropy\":true,\"vocab_size\":30528}",
     NULL, NULL, POOLING("true", "false"), "", 0, 3, 32, 2, 64, 30528, 0, 2, LGG_TYPE_F32, NULL,
     {"92d3caef5de0d565fd02ff39b45d381f39678984b8df3033b9f746814ceb4935", "e44582875a473198114abd089835d44022512b247a3a26fd44b885133dfec0bd", "4f3a11c41a3f95ae184ecc1042dfc9bd86c1759a7d7b4032eeb8399e10a1fd18", "1358d0fc606809b072c1ba88ad186c2b24886756d7dc63e67fb64fd426290899", "4f3a11c41a3f95ae184ecc1042dfc9bd86c1759a7d7b4032eeb8399e10a1fd18"}},
    /* bge-reranker-v2-m3's shape of config ("roberta." names, a classifier head, pad_token_id 1), a
     * Unigram sentencepiece.bpe.model with nmt_nfkc's precompiled character map (tests/data), F32 weights */
    {"bge-reranker-tiny-test",
     "{\"_name_or_path\":\"BAAI/bge-m3\",\"architectures\":[\"XLMRobertaForSequenceClassification\"],"
     "\"attention_probs_dropout_prob\":0.1,\"bos_token_id\":0,\"classifier_dropout\":null,\"eos_token_id\":2,"
     "\"hidden_act\":\"gelu\",\"hidden_dropout_prob\":0.1,\"hidden_size\":32,\"id2label\":{\"0\":\"LABEL_0\"},"
     "\"initializer_range\":0.02,\"intermediate_size\":64,\"label2id\":{\"LABEL_0\":0},\"layer_norm_eps\":1e-05,"
     "\"max_position_embeddings\":8194,\"model_type\":\"xlm-roberta\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"output_past\":true,\"pad_token_id\":1,\"position_embedding_type\":\"absolute\","
     "\"torch_dtype\":\"float32\",\"transformers_version\":\"4.38.1\",\"type_vocab_size\":1,\"use_cache\":true,"
     "\"vocab_size\":402}",
     "tests/data/unigram-nmt-nfkc.model",
     "{\"bos_token\":\"<s>\",\"cls_token\":\"<s>\",\"eos_token\":\"</s>\",\"mask_token\":{\"__type\":\"AddedToken\","
     "\"content\":\"<mask>\",\"lstrip\":true,\"normalized\":true,\"rstrip\":false,\"single_word\":false},"
     "\"model_max_length\":8192,\"pad_token\":\"<pad>\",\"sep_token\":\"</s>\",\"sp_model_kwargs\":{},"
     "\"tokenizer_class\":\"XLMRobertaTokenizer\",\"unk_token\":\"<unk>\"}",
     NULL, "roberta.", 0, 4, 32, 2, 64, 402, 8194, 1, LGG_TYPE_F32, NULL, {"cad40d1e1661a056539dc18a26623f8493d708e5d9b066ac183f5b46cef56b45", "e3749cc474062a18665aa81216298f04323b42a0c861a091050c51af2de1fb9d", "c754d65a710054d6f7b729df2c144d1a592768bfad5d00cedf8ba2d530c40057", "1c7e589a44cb09426ee6fc548e2b2ee2c559f1a4ea64edd862e80c983615621a", "c754d65a710054d6f7b729df2c144d1a592768bfad5d00cedf8ba2d530c40057"}},
    /* jina-embeddings-v2-base-en's config.json (ALiBi: no position embeddings; a fused gate/up matrix of
     * 2 x intermediate_size rows), mean pooling, BF16 weights */
    {"jina-embeddings-v2-tiny-en",
     "{\"_name_or_path\":\"jinaai/jina-bert-implementation\",\"architectures\":[\"JinaBertModel\"],"
     "\"attention_probs_dropout_prob\":0.0,\"attn_implementation\":\"torch\",\"classifier_dropout\":null,"
     "\"emb_pooler\":\"mean\",\"feed_forward_type\":\"geglu\",\"gradient_checkpointing\":false,\"hidden_act\":\"gelu\","
     "\"hidden_dropout_prob\":0.1,\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"layer_norm_eps\":1e-12,\"max_position_embeddings\":8192,\"model_max_length\":8192,\"model_type\":\"bert\","
     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"pad_token_id\":0,\"position_embedding_type\":\"alibi\","
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.26.0\",\"type_vocab_size\":2,\"use_cache\":true,"
     "\"vocab_size\":30528}",
     NULL, NULL, POOLING("true", "false"), "", 0, 5, 32, 2, 64, 30528, 0, 2, LGG_TYPE_BF16, NULL,
     {"00c739ddc2ea0d0dc6d43d714046524a62419d4c9194eadcde76334fe52c91c3", "d4346628ee055bad20202407a6bb8729c028480cae8cf2e4241d4c1881b82c0f", "9de28d585838ee50bb601368bf5da907b91473d0a20ba545a68653bf1e9ea0de", "671d5726623aa6dbd60028cb46a9b20cd16b7f29a5b002dcb7cf422c60eb5be6", "9de28d585838ee50bb601368bf5da907b91473d0a20ba545a68653bf1e9ea0de"}},
};

/* The checkpoint of e under `base` (NULL: LGG_EMBED_CHECKPOINTS or the scratch folder). */
static const char *make_case_in(const ecase *e, const char *base) {
    static char dir[4096];
    const char *keep = getenv("LGG_EMBED_CHECKPOINTS");
    char sub[4200];
    snprintf(dir, sizeof dir, "%s/%s", base ? base : keep && *keep ? keep : scratch_dir(), e->name);
    mkdir(dir, 0755);
    static etensor t[128];
    size_t n = e->heads == 3 ? nomic_tensors(t, e->H, e->L, e->FF, e->V, e->TV)
                             : bert_tensors(t, e->prefix, e->H, e->L, e->FF, e->V, e->P, e->TV, e->old_norms, e->heads);
    snprintf(sub, sizeof sub, "%s/model.safetensors", dir);
    int ok = write_safetensors(sub, t, n, e->dtype) && put_text(dir, "config.json", e->config) &&
             put_text(dir, "tokenizer_config.json", e->tc ? e->tc : BERT_TC);
    if (ok && e->tokdir) { /* a file copied byte for byte */
        char from[4400];
        int spm = strstr(e->tokdir, ".model") != NULL;
        if (spm) snprintf(from, sizeof from, "%s", e->tokdir);
        else snprintf(from, sizeof from, "%s/%s/tokenizer.json", shared_path("golden/convert"), e->tokdir);
        snprintf(sub, sizeof sub, "%s/%s", dir, spm ? "sentencepiece.bpe.model" : "tokenizer.json");
        size_t len = 0;
        unsigned char *b = read_file(from, &len);
        FILE *f = b ? fopen(sub, "wb") : NULL;
        ok = f && fwrite(b, 1, len, f) == len;
        if (f) ok &= fclose(f) == 0;
        free(b);
    } else if (ok) {
        ok = put_text(dir, "special_tokens_map.json", BERT_STM) && write_wordpiece(dir, "tests/data/bert-base-uncased-vocab.txt");
    }
    if (ok && e->pooling) {
        snprintf(sub, sizeof sub, "%s/1_Pooling", dir);
        mkdir(sub, 0755);
        ok = put_text(dir, "modules.json", MODULES) && put_text(sub, "config.json", e->pooling);
    }
    return ok ? dir : NULL;
}

static const char *make_case(const ecase *e) { return make_case_in(e, NULL); }

/* A case that borrows a tokenizer.json of ../shared/golden/convert (the
 * RoBERTa one): without ../shared it is left out. */
static bool borrows(const ecase *e) { return e->tokdir && !strstr(e->tokdir, ".model"); }

static const ecase *find_case(const char *name) {
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        if (!strcmp(CASES[i].name, name) && (!borrows(&CASES[i]) || shared_present())) return &CASES[i];
    return NULL;
}

const char *embed_case(const char *name, const char *base) {
    const ecase *e = find_case(name);
    if (e && base) mkdir(base, 0755);
    return e ? make_case_in(e, base) : NULL;
}

const char *const *embed_case_sha(const char *name) {
    const ecase *e = find_case(name);
    return e ? e->sha : NULL;
}

TEST(convert_embed_families) {
    static const uint32_t types[5] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0,
                                      LGG_CONVERT_AUTO};
    int same = 0, cases = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        if (borrows(&CASES[i]) && !shared_present()) continue; /* the others are made here from seeds */
        cases++;
        const char *dir = make_case(&CASES[i]);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (!dir) continue;
        for (int k = 0; k < 5; k++) {
            lgg_convert_options o;
            lgg_convert_options_init(&o);
            o.outtype = types[k];
            o.pre = CASES[i].pre;
            lgg_convert *c = NULL;
            lgg_error err;
            char out[4300];
            snprintf(out, sizeof out, "%s/../%s.%d.gguf", dir, CASES[i].name, k);
            lgg_status st = lgg_convert_open(dir, &o, &c, &err);
            if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
            lgg_convert_free(c);
            CHECKF(st == LGG_OK, "%s: %s", CASES[i].name, err.message);
            size_t n = 0;
            unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
            char hex[65] = "";
            if (b) sha256_hex(b, n, hex);
            int ok = CASES[i].sha[k] && !strcmp(hex, CASES[i].sha[k]);
            CHECKF(ok, "%s outtype %d: sha256 %s, reference %s", CASES[i].name, k, hex, CASES[i].sha[k] ? CASES[i].sha[k] : "?");
            same += ok;
            free(b);
            if (!getenv("LGG_EMBED_CHECKPOINTS")) unlink(out);
        }
        /* the row offsets (RoBERTa's positions, Jina's halves) through the one-pass quantizer */
        if (CASES[i].P == 514 || CASES[i].heads == 5) CHECK(convert_fused_vs_two_step_pre(dir, CASES[i].name, "Q4_K_M", 0, CASES[i].pre));
    }
    CHECKF(same == 5 * cases && cases >= (int)(sizeof CASES / sizeof CASES[0]) - 1, "%d of %d byte-identical to the reference",
           same, 5 * cases);
}

/* The case named `name` made again with one file replaced by `text`: the
 * conversion fails with a message containing `want`, and writes nothing. */
static void refused(const char *name, const char *file, const char *text, const char *want) {
    const ecase *e = NULL;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        if (!strcmp(CASES[i].name, name)) e = &CASES[i];
    const char *dir = e ? make_case(e) : NULL;
    CHECKF(dir && put_text(dir, file, text), "%s: cannot make the checkpoint", name);
    if (!dir) return;
    lgg_convert *c = NULL;
    lgg_error err = {0};
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    CHECKF(st != LGG_OK && c == NULL && strstr(err.message, want), "%s with %s: status %d, '%s' (want '%s')", name, file,
           (int)st, err.message, want);
    lgg_convert_free(c);
}

TEST(convert_embed_refusals) {
    refused("nomic-embed-tiny-test", "config.json",
            "{\"architectures\":[\"NomicBertModel\"],\"activation_function\":\"gelu\",\"n_layer\":2}", "'activation_function'");
    refused("nomic-embed-tiny-test", "config.json",
            "{\"architectures\":[\"NomicBertModel\"],\"activation_function\":\"swiglu\",\"causal\":false,\"n_layer\":2,"
            "\"qkv_proj_bias\":false,\"mlp_fc1_bias\":false,\"mlp_fc2_bias\":false,\"prenorm\":false,"
            "\"rotary_emb_interleaved\":false,\"rotary_emb_fraction\":0.5}",
            "'rotary_emb_fraction'");
    refused("all-MiniLM-Tiny-Test", "1_Pooling/config.json",
            "{\"pooling_mode_cls_token\":false,\"pooling_mode_mean_tokens\":false}", "only MEAN and CLS");
    refused("all-MiniLM-Tiny-Test", "1_Pooling/config.json", "{\"pooling_mode_cls_token\":true}", "'pooling_mode_mean_tokens'");
    refused("all-MiniLM-Tiny-Test", "modules.json",
            "[{\"path\":\"../x\",\"type\":\"sentence_transformers.models.Pooling\"}]", "not a folder of the model");
    refused("jina-embeddings-v2-tiny-en", "tokenizer_config.json", "{\"tokenizer_class\":\"XLMRobertaTokenizer\"}",
            "'XLMRobertaTokenizer' is not supported");
    refused("jina-embeddings-v2-tiny-en", "config.json",
            "{\"architectures\":[\"JinaBertModel\"],\"num_hidden_layers\":2,\"intermediate_size\":48}",
            "not 2 x intermediate_size");
    refused("bge-reranker-tiny-test", "config.json",
            "{\"architectures\":[\"XLMRobertaModel\"],\"num_hidden_layers\":2,\"vocab_size\":300}", "fewer than the 400 pieces");
}

#endif
