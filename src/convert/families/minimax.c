/* minimax.c -- MiniMax-Text-01 and MiniMax-M1 (llama.cpp master's
 * MiniMaxText01Model, minimax-01), which only master converts: lightning
 * (linear) attention blocks and softmax attention blocks, Mixtral's experts.
 * Beyond the shared tables:
 * - tokenizer.ggml.suppress_tokens: the ids past the tokenizer's own
 *   vocabulary (tokenizer.json's model, without its added tokens) whose
 *   embedding rows are all zeros, read from the shard
 *   model.safetensors.index.json names for model.embed_tokens.weight (master
 *   reads that index: a folder without it is refused);
 * - residual_scale: the layernorm alpha, which master requires to be the same
 *   for the full-attention, linear-attention and MLP norms, with every beta 1;
 * - the rotary dimension;
 * - the chat template replaced, after the vocabulary's, by chat_template.jinja
 *   when the folder has one, else by llama.cpp's own MiniMax-M1 template. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* config.json's number `key` (required; a boolean is refused, though Python
 * would compare it as 0 or 1). */
static lgg_status alpha_beta(lgg_convert *c, const char *key, double *v, lgg_error *err) {
    const json_t *j = json_object_get(c->config, key);
    if (!j) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, key);
    if (!json_is_number(j)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a number", c->dir, key);
    *v = json_number_value(j);
    return LGG_OK;
}

/* Master stores one residual scale for the three norms: their alphas must be
 * equal and their betas 1 (its assertions, refused here with the values). */
static lgg_status minimax01_init(lgg_convert *c, lgg_error *err) {
    static const char *const NORMS[3] = {"full_attention", "linear_attention", "mlp"};
    double alpha[3], beta[3];
    char key[64];
    lgg_status st = LGG_OK;
    for (int k = 0; k < 3 && !st; k++) {
        snprintf(key, sizeof key, "layernorm_%s_alpha", NORMS[k]);
        st = alpha_beta(c, key, &alpha[k], err);
        snprintf(key, sizeof key, "layernorm_%s_beta", NORMS[k]);
        if (!st) st = alpha_beta(c, key, &beta[k], err);
    }
    if (!st && (alpha[0] != alpha[1] || alpha[1] != alpha[2]))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                          "%s/config.json: the layernorm alphas differ (%g, %g, %g); llama.cpp master (3f545becc) stores one "
                          "residual scale and requires them equal",
                          c->dir, alpha[0], alpha[1], alpha[2]);
    if (!st && (beta[0] != 1.0 || beta[1] != 1.0 || beta[2] != 1.0))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                          "%s/config.json: a layernorm beta is not 1 (%g, %g, %g); llama.cpp master (3f545becc) requires "
                          "them all 1",
                          c->dir, beta[0], beta[1], beta[2]);
    return st;
}

/* The tokenizer's vocabulary size as transformers' fast tokenizers give it
 * (vocab_size: the model's tokens, the added ones not counted). */
static lgg_status tokenizer_size(lgg_convert *c, uint64_t *n, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    const json_t *v = st ? NULL : json_object_get(json_object_get(tj, "model"), "vocab");
    if (!st && !json_is_object(v))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no model.vocab object (a BPE tokenizer)", c->dir);
    if (!st) *n = json_object_size(v);
    json_decref(tj);
    return st;
}

/* The embeddings' shard by the index, as master finds it: it must be the
 * one the tensor is in. */
static lgg_status embeddings(lgg_convert *c, const lgg_st_tensor **t, uint32_t *shard, lgg_error *err) {
    static const char NAME[] = "model.embed_tokens.weight";
    if (!lgg__cv_exists(c, "model.safetensors.index.json", NULL))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s: no model.safetensors.index.json: llama.cpp master (3f545becc) finds the embeddings' shard "
                            "through it for MiniMax-Text-01 and -M1 (their checkpoints have one)",
                            c->dir);
    json_t *idx = NULL;
    lgg_status st = lgg__cv_json(c, "model.safetensors.index.json", 1, &idx, err);
    const char *file = st ? NULL : json_string_value(json_object_get(json_object_get(idx, "weight_map"), NAME));
    *t = file ? lgg__cv_find_tensor(c, NAME, shard) : NULL;
    if (!st && (!*t || strcmp(c->shard_names[*shard], file)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/model.safetensors.index.json: weight_map does not place '%s' in its shard",
                          c->dir, NAME);
    else if (!st && ((*t)->n_dims != 2 || !(*t)->shape[1] ||
                     ((*t)->dtype != LGG_TYPE_F32 && (*t)->dtype != LGG_TYPE_F16 && (*t)->dtype != LGG_TYPE_BF16)))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: '%s' is not a 2-D F32, F16 or BF16 matrix", c->dir,
                          c->shard_names[*shard], NAME);
    json_decref(idx);
    return st;
}

/* Whether the row of n elements of `size` bytes at p is all zeros (-0 too,
 * as torch compares; a NaN is not). */
static int zero_row(const uint8_t *p, uint64_t n, size_t size) {
    for (uint64_t i = 0; i < n; i++, p += size) {
        uint32_t u = 0;
        memcpy(&u, p, size); /* the low bytes on a little-endian host; the sign bit masked below */
        if (size == 4 ? (u & 0x7fffffffu) : (u & 0x7fffu)) return 0;
    }
    return 1;
}

/* The rows from `first` on of embeddings t (its tail only: a local shard's
 * mapping, else read through the io): ids of the zero ones into *ids. */
static lgg_status zero_rows(lgg_convert *c, const lgg_st_tensor *t, uint32_t shard, uint64_t first, int32_t **ids, uint64_t *n,
                            lgg_error *err) {
    size_t size = t->dtype == LGG_TYPE_F32 ? 4 : 2;
    /* no overflow: the tail is within the tensor's size, which the shard's header check bounded */
    uint64_t rows = t->shape[0] - first, row_bytes = t->shape[1] * size, bytes = rows * row_bytes;
    if (first > INT32_MAX || t->shape[0] > (uint64_t)INT32_MAX + 1)
        return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: token ids past 2^31 in the embeddings", c->dir);
    const uint8_t *p = NULL;
    uint8_t *owned = NULL;
    lgg_status st = LGG_OK;
    if (!c->has_io) p = lgg_st_bytes(c->shards[shard]) + t->offset + first * row_bytes;
    else if (bytes > SIZE_MAX || !(owned = malloc(bytes ? (size_t)bytes : 1)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    else st = lgg__cv_pread(c, c->shard_names[shard], t->offset + first * row_bytes, owned, (size_t)bytes, err), p = owned;
    if (!st && !(*ids = malloc(rows ? (size_t)rows * sizeof **ids : 1))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    *n = 0;
    for (uint64_t r = 0; !st && r < rows; r++)
        if (zero_row(p + r * row_bytes, t->shape[1], size)) (*ids)[(*n)++] = (int32_t)(first + r);
    free(owned);
    return st;
}

static lgg_status suppress_tokens(lgg_convert *c, lgg_error *err) {
    const lgg_st_tensor *t = NULL;
    uint32_t shard = 0;
    uint64_t first = 0, n = 0;
    int32_t *ids = NULL;
    lgg_status st = tokenizer_size(c, &first, err);
    if (!st) st = embeddings(c, &t, &shard, err);
    if (!st && first < t->shape[0]) st = zero_rows(c, t, shard, first, &ids, &n, err);
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_I32, n, ids};
    if (!st && n && lgg_writer_set(c->w, "tokenizer.ggml.suppress_tokens", 30, &a, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.suppress_tokens");
    free(ids);
    return st;
}

static const cv_mkey MINIMAX01_TAIL[] = {
    {"residual_scale", "layernorm_full_attention_alpha", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "rotary_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static lgg_status minimax01_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = suppress_tokens(c, err);
    return st ? st : lgg__cv_meta_keys(c, MINIMAX01_TAIL, err);
}

/* llama.cpp master's models/templates/MiniMax-M1.jinja (3f545becc), the
 * template master writes for a MiniMax-Text-01 or -M1 folder without
 * chat_template.jinja. */
static const char MINIMAX_M1_TEMPLATE[] =
    "{{ '<begin_of_document>' -}}\n"
    "{%- if custom_tools is defined %}\n"
    "    {%- set tools = custom_tools %}\n"
    "{%- endif %}\n"
    "{%- if not tools is defined %}\n"
    "    {%- set tools = none %}\n"
    "{%- endif %}\n"
    "\n"
    "{#- Extract system message #}\n"
    "{% set ns = namespace(system_prompt='') -%}\n"
    "{%- if messages[0]['role'] == 'system' %}\n"
    "    {%- if messages[0]['content'] is string %}\n"
    "        {%- set ns.system_prompt = messages[0]['content']|trim %}\n"
    "    {%- else %}\n"
    "        {%- set ns.system_prompt = messages[0]['content'][0]['text']|trim %}\n"
    "    {%- endif %}\n"
    "    {%- set messages = messages[1:] %}\n"
    "{%- else %}\n"
    "    {%- if tools is not none %}\n"
    "        {%- set ns.system_prompt = \"You are a helpful assistant created by Minimax based on MiniMax-M1 model.\" %}\n"
    "    {%- else %}\n"
    "        {%- set ns.system_prompt = \"You are a helpful assistant created by Minimax based on MiniMax-M1 model.\" %}\n"
    "    {%- endif %}\n"
    "{%- endif %}\n"
    "\n"
    "{#- System message #}\n"
    "{%- if ns.system_prompt != '' %}\n"
    "{{ '<beginning_of_sentence>system ai_setting=assistant\\n' + ns.system_prompt + '<end_of_sentence>\\n' -}}\n"
    "{%- endif %}\n"
    "\n"
    "{#- Tools configuration #}\n"
    "{%- if tools is not none %}\n"
    "{{ '<beginning_of_sentence>system tool_setting=tools\\nYou are provided with these tools:\\n<tools>\\n' -}}\n"
    "{%- for tool in tools %}\n"
    "{{ tool | tojson ~ '\\n' -}}\n"
    "{%- endfor %}\n"
    "{{ '</tools>\\n\\nIf you need to call tools, please respond with <tool_calls></tool_calls> XML tags, and provide tool-name and json-object of arguments, following the format below:\\n<tool_calls>\\n{\"name\": <tool-name>, \"arguments\": <args-json-object>}\\n...\\n</tool_calls><end_of_sentence>\\n' -}}\n"
    "{%- endif %}\n"
    "\n"
    "{#- Process messages #}\n"
    "{%- for message in messages %}\n"
    "    {%- if not (message.role == 'ipython' or message.role == 'tool' or 'tool_calls' in message) %}\n"
    "        {%- if message['role'] == 'user' %}\n"
    "{{ '<beginning_of_sentence>user name=user\\n' -}}\n"
    "{%- if message['content'] is string %}\n"
    "{{ message['content']|trim -}}\n"
    "{%- else %}\n"
    "{%- for content in message['content'] %}\n"
    "{%- if content['type'] == 'text' %}\n"
    "{{ content['text']|trim -}}\n"
    "{%- endif %}\n"
    "{%- endfor %}\n"
    "{%- endif %}\n"
    "{{ '<end_of_sentence>\\n' -}}\n"
    "        {%- elif message['role'] == 'assistant' %}\n"
    "{{ '<beginning_of_sentence>ai name=assistant\\n' -}}\n"
    "{%- if message['content'] is string %}\n"
    "{{ message['content']|trim -}}\n"
    "{%- else %}\n"
    "{%- for content in message['content'] | selectattr('type', 'equalto', 'text') %}\n"
    "{{ content['text']|trim -}}\n"
    "{%- endfor %}\n"
    "{%- endif %}\n"
    "{{ '<end_of_sentence>\\n' -}}\n"
    "        {%- endif %}\n"
    "    {%- elif 'tool_calls' in message %}\n"
    "{{ '<beginning_of_sentence>ai name=assistant\\n<tool_calls>\\n' -}}\n"
    "{%- for tool_call in message.tool_calls %}\n"
    "{{ '{\"name\": \"' + tool_call.function.name + '\", \"arguments\": ' + tool_call.function.arguments | tojson + '}\\n' -}}\n"
    "{%- endfor %}\n"
    "{{ '</tool_calls><end_of_sentence>\\n' -}}\n"
    "    {%- elif message.role == \"tool\" or message.role == \"ipython\" %}\n"
    "{{ '<beginning_of_sentence>tool name=tools\\n' -}}\n"
    "{%- if message.content is string %}\n"
    "{{ 'tool result: ' + message.content + '\\n\\n' -}}\n"
    "{%- else %}\n"
    "{%- for content in message['content'] %}\n"
    "{%- if content['type'] == 'text' %}\n"
    "{{ 'tool result: ' + content['text'] + '\\n\\n' -}}\n"
    "{%- elif content.get('name') %}\n"
    "{{ 'tool name: ' + content['name'] + '\\ntool result: ' + content['text'] + '\\n\\n' -}}\n"
    "{%- endif %}\n"
    "{%- endfor %}\n"
    "{%- endif %}\n"
    "{{ '<end_of_sentence>\\n' -}}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "\n"
    "{%- if add_generation_prompt %}\n"
    "{{ '<beginning_of_sentence>ai name=assistant\\n' -}}\n"
    "{%- endif %}";

static lgg_status minimax01_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    lgg_status st = lgg__cv_bpe(c, tc, o, err);
    json_t *text = NULL;
    if (!st && lgg__cv_exists(c, "chat_template.jinja", NULL)) st = lgg__cv_text_file(c, "chat_template.jinja", &text, err);
    const char *tmpl = text ? json_string_value(text) : MINIMAX_M1_TEMPLATE;
    if (!st && lgg_writer_set_str(c->w, "tokenizer.chat_template", tmpl, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_template");
    json_decref(text);
    return st;
}

const cv_hooks lgg__cv_hooks_minimax01 = {minimax01_init, NULL, NULL, minimax01_meta, minimax01_vocab, NULL};

/* ---- MiniMax-M3 (master's MiniMaxM3Model over its MiniMaxM2Model, minimax-m3): the text of
 * MiniMaxM3SparseForConditionalGeneration too (text_config over the top level, the vision tower's tensors
 * out).  Its keys after M2's: the shared experts' count, the routed scale, expert_weights_norm true, the
 * indexer's from sparse_attention_config, the dense blocks before the first MoE one (moe_layer_freq's leading
 * zeros); Gemma-style norms (1 added to every tensor whose name ends in "norm.weight") and every indexer
 * tensor F32 (master's tensor_force_quant). */

/* config.json's `key` copied to lgg.NAME (key '/'-separated: one level into an object), required. */
static lgg_status flatten(lgg_convert *c, const char *key, const char *name, lgg_error *err) {
    const char *slash = strchr(key, '/');
    const json_t *v = c->config;
    if (slash) v = json_object_get(v, "sparse_attention_config");
    v = json_is_object(v) ? json_object_get(v, slash ? slash + 1 : key) : NULL;
    if (!v) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, key);
    return json_object_set(c->config, name, (json_t *)v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* moe_layer_freq's leading entries equal to 0 (Python's 0 == v: 0, 0.0 and false), as lgg.dense_blocks. */
static lgg_status leading_dense(lgg_convert *c, lgg_error *err) {
    const json_t *f = json_object_get(c->config, "moe_layer_freq"), *v;
    if (!json_is_array(f))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'moe_layer_freq' is %s", c->dir, f ? "not a list" : "missing");
    size_t n = 0;
    json_array_foreach(f, n, v) if (!(json_is_false(v) || (json_is_number(v) && json_number_value(v) == 0))) break;
    return json_object_set_new(c->config, "lgg.dense_blocks", json_integer((json_int_t)n)) ||
                   json_object_set_new(c->config, "lgg.true", json_true())
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
               : LGG_OK;
}

static lgg_status minimaxm3_init(lgg_convert *c, lgg_error *err) {
    static const char *const SAC[5][2] = {{"sparse_attention_config/sparse_num_index_heads", "lgg.index_heads"},
                                          {"sparse_attention_config/sparse_index_dim", "lgg.index_dim"},
                                          {"sparse_attention_config/sparse_topk_blocks", "lgg.index_top_k"},
                                          {"sparse_attention_config/sparse_block_size", "lgg.index_block"},
                                          {"sparse_attention_config/sparse_local_block", "lgg.index_local"}};
    lgg_status st = lgg__cv_master_text_config(c, err);
    for (int k = 0; k < 5 && !st; k++) st = flatten(c, SAC[k][0], SAC[k][1], err);
    return st ? st : leading_dense(c, err);
}

static lgg_status minimaxm3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)c, (void)err;
    if (lgg__cv_ends_with(t->src_name, "norm.weight")) t->xform |= CV_X_ADD1;
    if (strstr(t->name, ".indexer.")) t->type = LGG_TYPE_F32;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_minimaxm3 = {minimaxm3_init, lgg__cv_master_text_name, minimaxm3_tensor, NULL, NULL, NULL};
