/* bpe.c -- a byte-level BPE vocabulary from tokenizer.json as the
 * reference converter writes it (tokenizer.ggml.model "gpt2"): tokens by
 * id with [PADi] holes, token types from the added tokens, merges, and
 * tokenizer.ggml.pre.
 *
 * The pre-tokenizer is named as the reference (convert_hf_to_gguf.py b4747,
 * get_vocab_base_pre, with the hashes llama.cpp master added) names it: the checkpoint's own tokenizer (here the
 * tokenizer part's, which gives transformers' ids: tokenizer.json with
 * tokenizer_config.json's rules) encodes a fixed check text, the ids are
 * formatted as Python prints a list, and the sha256 of that text is looked
 * up in the reference's table.  An unknown hash is refused, as the reference
 * refuses it, unless --pre names the pre-tokenizer. */
#include "cvint.h"
#include "libgguf_tokenize.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference's check text, its UTF-8 bytes (format data:
 * convert_hf_to_gguf.py b4747, chktxt). */
static const char CHECK_TEXT[] =
    "\n \n\n \n\n\n \t \t\t \t\n  \n   \n    \n     \n\xf0\x9f\x9a\x80 (normal) \xf0\x9f\x98\xb6\xe2"
    "\x80\x8d\xf0\x9f\x8c\xab\xef\xb8\x8f (multiple emojis concatenated) \xe2\x9c\x85 \xf0\x9f\xa6"
    "\x99\xf0\x9f\xa6\x99 3 33 333 3333 33333 333333 3333333 33333333 3.3 3..3 3...3 \xe1\x9e\x80\xe1"
    "\x9e\xb6\xe1\x9e\x93\xe1\x9f\x8b\xe1\x9e\x8f\xe1\x9f\x82\xe1\x9e\x96\xe1\x9e\xb7\xe1\x9e\x9f\xe1"
    "\x9f\x81\xe1\x9e\x9f\xe1\x9e\xa2\xe1\x9e\xb6\xe1\x9e\x85\xf0\x9f\x98\x81 ?\xe6\x88\x91\xe6\x83"
    "\xb3\xe5\x9c\xa8"
    "apple\xe5\xb7\xa5\xe4\xbd\x9c"
    "1314151\xe5\xa4\xa9\xef\xbd\x9e ------======= \xd0\xbd\xd0\xb5\xd1\x89\xd0\xbe \xd0\xbd\xd0\xb0 "
    "\xd0\x91\xd1\x8a\xd0\xbb\xd0\xb3\xd0\xb0\xd1\x80\xd1\x81\xd0\xba\xd0\xb8 ''''''```````\"\"\"\".."
    "....!!!!!!?????? I've been 'told he's there, 'RE you sure? 'M not sure I'll make it, 'D you like"
    " some tea? We'Ve a'lL";

/* The reference's table, in its order: a later entry with the same hash
 * wins, as the reference's chain of `if`s makes it (mpt then olmo,
 * bert-bge then jina-v2-en).  b4747's rows, then those master added (no
 * hash of b4747's changed its name in master). */
static const struct {
    const char *sha256, *pre;
} REF_PRE[] = {
    {"0ef9807a4087ebef797fc749390439009c3b9eda9ad1a097abbe738f486c01e5", "llama-bpe"},
    {"049ecf7629871e3041641907f3de7c733e4dbfdc736f57d882ba0b0845599754", "deepseek-llm"},
    {"347715f544604f9118bb75ed199f68779f423cabb20db6de6f31b908d04d7821", "deepseek-coder"},
    {"8aeee3860c56296a157a1fe2fad249ec40aa59b1bb5709f4ade11c4e6fe652ed", "falcon"},
    {"9d032fcbd5501f4a38150912590928bfb36091efb5df11b8e2124b0390e3fb1e", "falcon3"},
    {"0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f", "bert-bge"},
    {"8e62295832751ca1e8f92f2226f403dea30dc5165e448b5bfa05af5340c64ec7", "bert-bge-large"},
    {"b6dc8df998e1cfbdc4eac8243701a65afe638679230920b50d6f17d81c098166", "mpt"},
    {"35d91631860c815f952d711435f48d356ebac988362536bed955d43bfa436e34", "starcoder"},
    {"3ce83efda5659b07b1ad37ca97ca5797ea4285d9b9ab0dc679e4a720c9da7454", "gpt-2"},
    {"32d85c31273f8019248f2559fed492d929ea28b17e51d81d3bb36fff23ca72b3", "stablelm2"},
    {"6221ad2852e85ce96f791f476e0b390cf9b474c9e3d1362f53a24a06dc8220ff", "refact"},
    {"9c2227e4dd922002fb81bde4fc02b0483ca4f12911410dee2255e4987644e3f8", "command-r"},
    {"e636dc30a262dcc0d8c323492e32ae2b70728f4df7dfe9737d9f920a282b8aea", "qwen2"},
    {"b6dc8df998e1cfbdc4eac8243701a65afe638679230920b50d6f17d81c098166", "olmo"},
    {"a8594e3edff7c29c003940395316294b2c623e09894deebbc65f33f1515df79e", "dbrx"},
    {"c7699093ba4255a91e702aa38a596aa81669f3525dae06c2953267dde580f448", "jina-v1-en"},
    {"0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f", "jina-v2-en"},
    {"171aeeedd6fb548d418a7461d053f11b6f1f1fc9b387bd66640d28a4b9f5c643", "jina-v2-es"},
    {"27949a2493fc4a9f53f5b9b029c82689cfbe5d3a1929bb25e043089e28466de6", "jina-v2-de"},
    {"c136ed14d01c2745d4f60a9596ae66800e2b61fa45643e72436041855ad4089d", "smaug-bpe"},
    {"c7ea5862a53e4272c035c8238367063e2b270d51faa48c0f09e9d5b54746c360", "poro-chat"},
    {"7967bfa498ade6b757b064f31e964dddbb80f8f9a4d68d4ba7998fcf281c531a", "jina-v2-code"},
    {"b6e8e1518dc4305be2fe39c313ed643381c4da5db34a98f6a04c093f8afbe99b", "chatglm-bpe"},
    {"81d72c7348a9f0ebe86f23298d37debe0a5e71149e29bd283904c02262b27516", "chatglm-bpe"},
    {"7fc505bd3104ca1083b150b17d088b59534ede9bde81f0dd2090967d7fe52cee", "viking"},
    {"b53802fb28e26d645c3a310b34bfe07da813026ec7c7716883404d5e0f8b1901", "jais"},
    {"7b3e7548e4308f52a76e8229e4e6cc831195d0d1df43aed21ac6c93da05fec5f", "codeshell"},
    {"63b97e4253352e6f357cc59ea5b583e3a680eaeaf2632188c2b952de2588485e", "tekken"},
    {"855059429035d75a914d1eda9f10a876752e281a054a7a3d421ef0533e5b6249", "smollm"},
    {"3c30d3ad1d6b64202cd222813e7736c2db6e1bd6d67197090fc1211fbc612ae7", "bloom"},
    {"bc01ce58980e1db43859146dc51b1758b3b88729b217a74792e9f8d43e479d21", "gpt3-finnish"},
    {"4e2b24cc4770243d65a2c9ec19770a72f08cffc161adbb73fcbb6b7dd45a0aae", "exaone"},
    {"fcace8b9cac38ce847670c970cd5892031a753a1ef381abd1d9af00f713da085", "phi-2"},
    {"60824e3c0d9401f89943cbb2fff727f0e2d4c545ba4df2d6e4f09a6db0f5b450", "chameleon"},
    {"1431a23e583c97432bc230bff598d103ddb5a1f89960c8f1d1051aaa944d0b35", "minerva-7b"},
    {"8b5a93ed704057481f240da0be7e7dca721d7f8f4755263b6807227a2cbeae65", "roberta-bpe"},
    {"ad851be1dba641f2e3711822f816db2c265f788b37c63b4e1aeacb9ee92de8eb", "gigachat"},
    {"d4c8f286ea6b520b3d495c4455483cfa2302c0cfcd4be05d781b6a8a0a7cdaf1", "megrez"},
    {"877081d19cf6996e2c4ff0e1236341e9b7bde288f5311a56a937f0afbbb3aeb5", "deepseek-v3"},
    {"b3f499bb4255f8ca19fccd664443283318f2fd2414d5e0b040fbdd0cc195d6c5", "deepseek-r1-qwen"},
    /* llama.cpp master 3f545becc added these (conversion/base.py; scripts/master-pre-hashes.py) */
    {"a1336059768a55c99a734006ffb02203cd450fed003e9a71886c88acf24fdbc2", "glm4"},
    {"9ca2dd618e8afaf09731a7cf6e2105b373ba6a1821559f258b272fe83e6eb902", "glm4"},
    {"cdf5f35325780597efd76153d4d1c16778f766173908894c04afc20108536267", "glm4"},
    {"7e57df22b1fe23a7b1e1c7f3dc4e3f96d43a4eb0836d0c6bdc3436d7b2f1c664", "hunyuan"},
    {"bba3b3366b646dbdded5dbc42d59598b849371afc42f7beafa914afaa5b70aa6", "hunyuan-dense"},
    {"a6b57017d60e6edb4d88ecc2845188e0eb333a70357e45dcc9b53964a73bbae6", "falcon-h1"},
    {"60476e1243776c4fb1b993dbd7a5f15ac22f83c80afdf425fa5ae01c8d44ef86", "falcon-h1"},
    {"3eda48b4c4dc7de733d1a8b3e3b4a85243dbbf704da2ee9d42c6beced8897896", "falcon-h1"},
    {"48f8e02c0359c0bbdd82f26909171fac1c18a457bb47573ed1fe3bbb2c1cfd4b", "falcon-h1"},
    {"81212dc7cdb7e0c1074ca62c5aeab0d43c9f52b8a737be7b12a777c953027890", "kimi-k2"},
    {"d4540891389ea895b53b399da6ac824becc30f2fba0e9ddbb98f92e55ca0e97c", "qwen2"},
    {"1444df51289cfa8063b96f0e62b1125440111bc79a52003ea14b6eac7016fd5f", "qwen35"},
    {"66b8d4e19ab16c3bfd89bce5d785fb7e0155e8648708a1f42077cb9fe002c273", "grok-2"},
    {"b3d1dd861f1d4c5c0d2569ce36baf3f90fe8a102db3de50dd71ff860d91be3df", "jina-v2-de"},
    {"0fe1cf6eda062318a1af7270f3331a85c539a01778ff948e24388e949c5282f4", "gpt-2"},
    {"9e454714343b69b99b71795c1d27a68c2a1d15dab111f4d353109f966af29da7", "lfm2"},
    {"d772b220ace2baec124bed8cfafce0ead7d6c38a4b65ef11261cf9d5d62246d1", "tiny_aya"},
    {"52df12b4c8d4176e7481aab4b6e8454d1fd0a210a04a574f6d4e067d10e23c3e", "cohere2moe"},
    {"a023e9fdc5a11f034d3ef515b92350e56fb2af1f66c6b6811a4444ea9bf8763d", "jina-v5-nano"},
    {"bc5108ee1eb6a3d600cadd065f63190fbd0554dbc9e4bbd6a0d977970afc8d2a", "jais-2"},
    {"ccc2ef013c104be7bae2965776d611e1d7a8a2a9c547dd93a682c9a9fc80352e", "gpt-4o"},
    {"7dec86086fcc38b66b7bc1575a160ae21cf705be7718b9d5598190d7c12db76f", "superbpe"},
    {"1994ffd01900cfb37395608534236ecd63f2bd5995d6cb1004dda1af50240f15", "trillion"},
    {"96a5f08be6259352137b512d4157e333e21df7edd3fcd152990608735a65b224", "bailingmoe"},
    {"d353350c764d8c3b39c763113960e4fb4919bea5fbf208a0e3b22e8469dc7406", "llama4"},
    {"0e9433cbbb161f89e264eb32e8e64bfe69e834973ffca5d41d3948a604a3e2a3", "pixtral"},
    {"d5f1dd6f980fec569fb218a81a7658ac45fc56b38c5a0adeb1c232fbe04ef5ec", "seed-coder"},
    {"b0a6b1c0bd5998ebd9df08611efde34a4ff03faed45ae09c43e6b31ebd4b94cf", "a.x-4.0"},
    {"f6791d196f87ce6b56a7d234be618e0d58f8cda3549416635b2bebcd22cd95c4", "midm-2.0"},
    {"169bf0296a13c4d9b7672313f749eb36501d931022de052aad6e36f2bf34dd51", "lfm2"},
    {"2085e1638f6c377a0aa4ead21b27bb4cb941bf800df86ed391011769c1758dfb", "exaone4"},
    {"a1e163ecab2e718a4c829d1148b6e86824ec36163bb71941c3dca9cd5ac25756", "mellum"},
    {"a0b64b4385f123663873756336c085744376d015ff328bb1d901598f63c44152", "modern-bert"},
    {"49fc0303c9e0d2c2c565c510f64b2d9b271276acdcdadff733249eda9f7d59df", "afmoe"},
    {"9b1be57e70d20d9501b2b3186e792d81181ae36ada3903c26f9fea418cf87206", "bailingmoe2"},
    {"53e325976a6e142379c19b09afcae354f2f496f147afa8f9e189a33fe4e3024e", "granite-docling"},
    {"f4f37b6c8eb9ea29b3eac6bb8c8487c5ab7885f8d8022e67edc1c68ce8403e95", "minimax-m2"},
    {"4a2e2abae11ca2b86d570fc5b44be4d5eb5e72cc8f22dd136a94b37da83ab665", "kormo"},
    {"9d70134b369a70e5735009b6de918f7581b5211f7c074d1f89f753aea8248af1", "youtu"},
    {"16389f0a1f51ee53e562ffd51c371dc508639ab0e4261502071836e50e223e91", "solar-open"},
    {"6c81ce329e0802883b22eabab0d3fa48357337ef1ecb45443828bf1f6254833f", "exaone-moe"},
    {"d30d75d9059f1aa2c19359de71047b3ae408c70875e8a3ccf8c5fba56c9d8af4", "qwen35"},
    {"b4b8ca1f9769494fbd956ebc4c249de6131fb277a4a3345a7a92c7dd7a55808d", "joyai-llm"},
    {"e4d54df1ebc1f2b91acd986c5b51aa50837d5faf7c7398e73c1f9e9ee5d19869", "kanana2"},
    {"862f827721df956049dff5ca81a57f29e575280bc622e290d3bf4e35eca29015", "f2llmv2"},
    {"62f6fb0a6fd5098caeabb19b07a5c1099cafc8b9c40eab6ea89ece4ec02fbc57", "sarvam-moe"},
    {"f728162c1315c26e40249849799b4ba3fe584c32084b4795b03eb295e63cb5af", "talkie"},
    {"36f3066e97b7f3994b379aaacde306c1444c6ae84e81a5ae3cd2b7ed3b8c42d4", "minicpm5"},
    {"f241072145675bf8322086f115aebad05e9f869557a238bf2150a2a417d1bf60", "granite-embed-multi-97m"},
    {"789696f5946cc0fc59371f39f6097cafed196b3acded6140432f26bbb1ae1669", "granite-embed-multi-311m"},
    {"9dcf830ee9990cdbf78cc523a5f7bd9ad8f3f9890c2d3581d2785ad10f07049d", "mellum2"},
    {"972da7b59cec44d1f0a490a86c96df53859e486e481563e5dddac155013d87ac", "laguna"},
};

typedef struct bpe {
    size_t n;         /* vocab_size */
    lgg_str *tok;
    int32_t *type;
    char *pads;       /* the [PADi] texts */
    char **own;       /* texts rewritten here (user-defined added tokens), by id */
    lgg_str *merges;
    char **merge_own;
    size_t n_merges;
} bpe;

static void bpe_free(bpe *b) {
    for (size_t i = 0; b->merge_own && i < b->n_merges; i++) free(b->merge_own[i]);
    free(b->merge_own);
    free(b->merges);
    free(b->tok);
    free(b->type);
    free(b->pads);
    for (size_t i = 0; b->own && i < b->n; i++) free(b->own[i]);
    free(b->own);
}

/* The base vocabulary by id (for the fingerprint); *n_ids = highest id + 1. */
static lgg_status base_by_id(lgg_convert *c, const json_t *vocab, lgg_str **out, size_t *n_ids, lgg_error *err) {
    const char *k;
    json_t *v;
    size_t n = 0;
    json_object_foreach((json_t *)vocab, k, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= (1 << 26))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: model.vocab '%s': id is not a token number",
                                c->dir, k);
        if ((size_t)json_integer_value(v) + 1 > n) n = (size_t)json_integer_value(v) + 1;
    }
    lgg_str *by = calloc(n ? n : 1, sizeof *by);
    if (!by) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_object_foreach((json_t *)vocab, k, v) {
        by[json_integer_value(v)].ptr = k;
        by[json_integer_value(v)].len = strlen(k);
    }
    *out = by;
    *n_ids = n;
    return LGG_OK;
}

/* The reference's hash of the check text's ids as t encodes it: sha256 of
 * str(ids) (dir names the checkpoint in messages). */
lgg_status lgg__cv_check_hash(const lgg_tokenizer *t, const char *dir, char hex[65], lgg_error *err) {
    lgg_error e;
    memset(&e, 0, sizeof e);
    size_t len = sizeof CHECK_TEXT - 1;
    unsigned flags = LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL;
    int64_t n = lgg_tokenize(t, CHECK_TEXT, len, flags, NULL, 0, &e);
    /* no ids at all (a vocabulary without the text's bytes, which the BPE
     * model drops): the reference hashes "[]" */
    int32_t *ids = n >= 0 ? malloc((size_t)(n ? n : 1) * sizeof *ids) : NULL;
    char *txt = n >= 0 ? malloc((size_t)n * 13 + 3) : NULL;
    lgg_status st = LGG_OK;
    if (n < 0 || !ids || !txt || (n && lgg_tokenize(t, CHECK_TEXT, len, flags, ids, (size_t)n, &e) != n)) {
        st = lgg__cv_fail(err, n < 0 ? (lgg_status)-n : LGG_ERR_NOMEM, "%s: cannot encode the check text: %s", dir,
                          n < 0 ? e.message : "out of memory");
    } else { /* Python's str() of a list of ints: "[1, 2, 3]" */
        size_t k = 0;
        txt[k++] = '[';
        for (int64_t i = 0; i < n; i++) k += (size_t)sprintf(txt + k, "%s%d", i ? ", " : "", (int)ids[i]);
        txt[k++] = ']';
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned int ml = 0;
        EVP_Digest(txt, k, md, &ml, EVP_sha256(), NULL);
        for (unsigned i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    }
    free(ids);
    free(txt);
    return st;
}

const char *lgg__cv_ref_pre(const char *hex) {
    const char *pre = NULL;
    for (size_t i = 0; i < sizeof REF_PRE / sizeof REF_PRE[0]; i++)
        if (!strcmp(hex, REF_PRE[i].sha256)) pre = REF_PRE[i].pre;
    return pre;
}

/* The converter's own parse of tokenizer.json (a reference), when the
 * tokenize part would read the same values from the text: its integers read
 * as integers, and a file within the part's bound.  Parsing a 262k-token
 * vocabulary a second time took 0.55 s of a 1.9 s conversion. */
static json_t *parsed_tokenizer_json(lgg_convert *c) {
    json_t *tj = NULL;
    lgg_error e;
    if (c->max_json > LGG_TOKENIZER_MAX_JSON) return NULL;
    if (lgg__cv_tokenizer_json(c, 0, &tj, &e) != LGG_OK) return NULL; /* the text's own parse reports it */
    if (tj && c->tokenizer_json_reals) json_decref(tj), tj = NULL;
    return tj;
}

/* tokenizer_config.json's text (NULL when there is none); one larger than
 * the bound is refused, as lgg_tokenizer_open_dir refuses it */
static lgg_status config_text(lgg_convert *c, char **cfg, size_t *cn, lgg_error *e) {
    *cfg = NULL, *cn = 0;
    if (!lgg__cv_exists(c, "tokenizer_config.json", NULL)) return LGG_OK;
    lgg_status st = lgg__cv_load(c, "tokenizer_config.json", LGG_CONVERT_MAX_OTHER_JSON, cfg, cn, e);
    if (!st && !*cfg) st = lgg_error_set(e, LGG_ERR_LIMIT, LGG_NO_OFFSET, "tokenizer_config.json too large");
    return st;
}

/* The check hash of checkpoint dir's tokenizer.json. */
static lgg_status check_hash(lgg_convert *c, const char *dir, char hex[65], lgg_error *err) {
    lgg_tokenizer *t = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_status ost;
    json_t *parsed = c ? parsed_tokenizer_json(c) : NULL;
    if (parsed) {
        char *cfg = NULL;
        size_t cn = 0;
        ost = config_text(c, &cfg, &cn, &e);
        if (!ost) ost = lgg_tokenizer_open_jansson(parsed, cfg, cn, &t, &e);
        free(cfg);
        json_decref(parsed);
    } else if (c && c->has_io) { /* the same two files open_dir reads, through the io */
        char *json = NULL, *cfg = NULL;
        size_t n = 0, cn = 0;
        ost = lgg__cv_load(c, "tokenizer.json", LGG_CONVERT_MAX_TOKENIZER_JSON, &json, &n, &e);
        if (!ost && !json) ost = lgg_error_set(&e, LGG_ERR_LIMIT, LGG_NO_OFFSET, "tokenizer.json too large");
        if (!ost) ost = config_text(c, &cfg, &cn, &e);
        if (!ost) ost = lgg_tokenizer_open_json(json, n, cfg, cn, &t, &e);
        free(json), free(cfg);
    } else {
        ost = lgg_tokenizer_open_dir(dir, 0, &t, &e);
    }
    if (ost != LGG_OK)
        return lgg__cv_fail(err, e.code,
                            "%s: cannot encode the reference's check text to name the BPE pre-tokenizer (%s); "
                            "name it with --pre NAME", dir, e.message);
    lgg_status st = lgg__cv_check_hash(t, dir, hex, err);
    lgg_tokenizer_free(t);
    return st;
}

/* The pre-tokenizer the reference names for the check hash of checkpoint
 * dir (c: read through its io, or NULL). */
static lgg_status bpe_pre(lgg_convert *c, const char *dir, const char **pre, char hash[65], lgg_error *err) {
    char hex[65];
    if (!dir || !pre) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_bpe_pre: NULL argument");
    *pre = NULL;
    lgg_status st = check_hash(c, dir, hex, err);
    if (st) return st;
    if (hash) memcpy(hash, hex, 65);
    if ((*pre = lgg__cv_ref_pre(hex))) return LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s/tokenizer.json: BPE pre-tokenizer not recognised (the reference's check hash %s is not in "
                        "its table: it refuses this tokenizer); name it with --pre NAME", dir, hex);
}

lgg_status lgg_convert_bpe_pre(const char *dir, const char **pre, char hash[65], lgg_error *err) {
    return bpe_pre(NULL, dir, pre, hash, err);
}

static lgg_status pre_name(lgg_convert *c, const lgg_convert_options *o, const char **pre, lgg_error *err) {
    if (o->pre) {
        *pre = o->pre;
        return LGG_OK;
    }
    return bpe_pre(c, c->dir, pre, NULL, err);
}

/* Tokens and types by id: the base vocabulary, then the added tokens
 * (which win an id they share), [PADi] for ids neither names. */
static lgg_status fill_tokens(lgg_convert *c, const json_t *added, const lgg_str *by, size_t n_ids, bpe *b,
                              int flagged, lgg_error *err) {
    size_t i;
    const json_t *a;
    for (i = 0; i < b->n; i++) {
        if (i < n_ids && by[i].ptr) b->tok[i] = by[i], b->type[i] = 1;
    }
    json_array_foreach((json_t *)added, i, a) {
        const json_t *id = json_object_get(a, "id"), *ct = json_object_get(a, "content");
        if (!json_is_integer(id) || json_integer_value(id) < 0 || !json_is_string(ct))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: added_tokens[%zu]: needs an id and a content",
                                c->dir, i);
        if ((uint64_t)json_integer_value(id) >= b->n)
            return lgg__cv_fail(err, LGG_ERR_INVALID,
                                "%s/tokenizer.json: added token '%s' has id %lld, beyond config.json's vocab_size %zu",
                                c->dir, json_string_value(ct), (long long)json_integer_value(id), b->n);
        size_t k = (size_t)json_integer_value(id);
        const char *text = json_string_value(ct);
        b->tok[k].ptr = text, b->tok[k].len = strlen(text);
        b->type[k] = (json_is_true(json_object_get(a, "special")) || (!flagged && lgg__cv_looks_special(text))) ? 3 : 4;
        if (b->type[k] == 4 && !flagged) { /* the reference writes user-defined spaces as ' ' */
            free(b->own[k]);
            if (!(b->own[k] = lgg__cv_unspace(text))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            b->tok[k].ptr = b->own[k], b->tok[k].len = strlen(b->own[k]);
        }
    }
    size_t pads = 0;
    for (i = 0; i < b->n; i++) pads += !b->tok[i].ptr;
    if (pads && !(b->pads = malloc(pads * 24))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    char *w = b->pads;
    for (i = 0; i < b->n; i++) {
        if (b->tok[i].ptr) continue;
        int l = snprintf(w, 24, "[PAD%zu]", i);
        b->tok[i].ptr = w, b->tok[i].len = (size_t)l, b->type[i] = 5;
        w += 24;
    }
    return LGG_OK;
}

static lgg_status merges(lgg_convert *c, const json_t *model, bpe *b, lgg_error *err) {
    const json_t *m = json_object_get(model, "merges");
    size_t n = json_array_size(m), i;
    if (!n) return LGG_OK;
    b->merges = calloc(n, sizeof *b->merges);
    b->merge_own = calloc(n, sizeof *b->merge_own);
    if (!b->merges || !b->merge_own) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    const json_t *e;
    json_array_foreach(m, i, e) {
        if (!(b->merge_own[i] = lgg__cv_merge_text(e)))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: model.merges[%zu] is not a merge rule", c->dir, i);
        b->merges[i].ptr = b->merge_own[i], b->merges[i].len = strlen(b->merge_own[i]);
        b->n_merges = i + 1;
    }
    return LGG_OK;
}

/* Each token through the style's rewrite (NULL: kept as it is). */
static lgg_status rewrite(lgg_convert *c, const cv_vocab_style *vs, bpe *b, lgg_error *err) {
    size_t cl = vs->control ? strlen(vs->control) : 0;
    for (size_t i = 0; vs->control && i < b->n; i++) /* the style's CONTROL token (LLAMA_TOKEN_TYPE_CONTROL, 3) */
        if (b->tok[i].len == cl && b->tok[i].ptr && !memcmp(b->tok[i].ptr, vs->control, cl)) b->type[i] = 3;
    for (size_t i = 0; vs->rewrite && i < b->n; i++) {
        char *r = vs->rewrite(b->tok[i].ptr, b->tok[i].len, b->type[i]);
        if (r == b->tok[i].ptr) continue;
        if (!r) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", c->dir);
        free(b->own[i]);
        b->own[i] = r;
        b->tok[i].ptr = r, b->tok[i].len = strlen(r);
    }
    return LGG_OK;
}

static lgg_status write_bpe(lgg_convert *c, const bpe *b, const char *model, const char *pre, lgg_error *err) {
    lgg_wvalue tok = {LGG_VT_ARRAY, LGG_VT_STRING, b->n, b->tok};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, b->n, b->type};
    lgg_wvalue mg = {LGG_VT_ARRAY, LGG_VT_STRING, b->n_merges, b->merges};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", model, NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.ggml.pre", pre, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tok, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL) ||
        (b->n_merges && lgg_writer_set(c->w, "tokenizer.ggml.merges", 21, &mg, NULL)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

lgg_status lgg__cv_bpe(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const cv_vocab_style GPT2 = {"gpt2", NULL, 0, 0, NULL};
    return lgg__cv_vocab_json(c, tc, o, &GPT2, err);
}

lgg_status lgg__cv_bpe_flagged(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const cv_vocab_style GPT2 = {"gpt2", NULL, 0, 1, NULL};
    return lgg__cv_vocab_json(c, tc, o, &GPT2, err);
}

lgg_status lgg__cv_vocab_json(lgg_convert *c, json_t *tc, const lgg_convert_options *o, const cv_vocab_style *vs,
                              lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *model = json_object_get(tj, "model"), *vocab = json_object_get(model, "vocab");
    const json_t *added = json_object_get(tj, "added_tokens");
    bpe b = {0};
    lgg_str *by = NULL;
    size_t n_ids = 0;
    if (!json_is_object(vocab))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: key 'model.vocab' is missing", c->dir);
    if (!st) st = base_by_id(c, vocab, &by, &n_ids, err);
    const char *pre = NULL;
    if (!st) st = pre_name(c, o, &pre, err);
    if (!st) {
        json_t *vsz = json_object_get(c->config, "vocab_size");
        b.n = json_is_integer(vsz) && json_integer_value(vsz) >= 0 ? (size_t)json_integer_value(vsz)
                                                                 : json_object_size(vocab) + json_array_size(added);
        if (n_ids > b.n)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: token id %zu is beyond config.json's vocab_size %zu",
                              c->dir, n_ids - 1, b.n);
        else if (b.n > (64u << 20))
            st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: vocab_size %zu is too large", c->dir, b.n);
    }
    if (!st && (!(b.tok = calloc(b.n + 1, sizeof *b.tok)) || !(b.type = calloc(b.n + 1, sizeof *b.type)) ||
                !(b.own = calloc(b.n + 1, sizeof *b.own))))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = fill_tokens(c, added, by, n_ids, &b, vs->flagged, err);
    if (!st) st = merges(c, model, &b, err);
    if (!st) st = rewrite(c, vs, &b, err);
    if (!st) st = write_bpe(c, &b, vs->model, pre, err);
    if (!st) st = lgg__cv_special_vocab(c, tc, vs->bound_ids ? b.n : SIZE_MAX, err);
    free(by);
    bpe_free(&b);
    json_decref(tj);
    return st;
}
