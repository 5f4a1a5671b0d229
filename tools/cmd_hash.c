/* cmd_hash.c -- `gguf hash`: llama-gguf-hash's output (llama.cpp b4747,
 * examples/gguf-hash), line for line, including its --check manifests and
 * exit statuses, read from disk in a bounded ring of buffers on several
 * threads (hash_stream.c) instead of loading the model into memory.
 *
 * What llama-gguf-hash does, and this does the same:
 *  - per tensor, in tensor-info order, one line per chosen hash (xxh64, sha1,
 *    sha256 in that order) over its ggml_nbytes bytes, named FILE:TENSOR with
 *    FILE as given on the command line; then the whole-model lines (xxh64,
 *    sha1, sha256, uuid) over the tensors' bytes concatenated, named FILE;
 *  - "%-8s  %s  %s", and with --check "  -  Ok|Mismatch|Not Found" after it;
 *  - no hash chosen: the strongest the manifest has, else xxh64; --all is
 *    xxh64, sha1 and sha256 (not uuid);
 *  - the uuid line is checked against the manifest's *sha256* entry for FILE
 *    (its lookup uses that type), which it can never match;
 *  - exit 0 success, 1 failure or a mismatch, 3 no entry of the manifest
 *    applies, 4 the manifest has no known hash type, 5 it cannot be read.
 * Usage errors exit 2 here (llama-gguf-hash: 1), as for every gguf command. */
#include "tool.h"
#include "hash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_MISSING_ENTRY = 3, EXIT_UNKNOWN_HASH = 4, EXIT_MANIFEST_ERROR = 5 };

enum { O_XXH64 = 1, O_SHA1, O_SHA256, O_ALL, O_UUID, O_NO_LAYER, O_CHECK, O_METADATA, O_SHARDS, O_JSON, O_THREADS };
#include "spec_hash.h" /* from tools/spec/hash.txt (scripts/cli-spec.awk) */

typedef struct opts {
    unsigned algos; /* HASH_XXH64|SHA1|SHA256|UUID */
    bool no_layer, json, metadata, shards;
    unsigned threads;
    const char *manifest_path;
    hash_manifest *m;
    int stdin_used;
} opts;

/* One model being hashed: a file, or a shard set. */
typedef struct model {
    const opts *o;
    const char *path;
    cli_shards set;
    const lgg_tensor **t;
    size_t n_t;
    hash_range *r;
    bool layer_in, layer_bad, model_in, model_bad; /* llama-gguf-hash's verdict flags */
    char *name;                                    /* "FILE:TENSOR" being printed */
    size_t name_cap;
    bool json_first;
    cli_progress prog;
    uint64_t prog_done;
    uint8_t *in;  /* standard input's first bytes (the header, and what came with it) */
    size_t in_n;
    bool stream;  /* read in one pass (hash_job.stream) */
} model;

static const char *algo_name(unsigned a) {
    return a == HASH_XXH64 ? "xxh64" : a == HASH_SHA1 ? "sha1" : a == HASH_SHA256 ? "sha256" : "uuid";
}

/* The digest of one algorithm as llama-gguf-hash prints it. */
static void digest_text(char *out, const hash_digest *d, unsigned a) {
    if (a == HASH_XXH64) hash_hex(out, d->xxh64, 8);
    else if (a == HASH_SHA1) hash_hex(out, d->sha1, 20);
    else if (a == HASH_SHA256) hash_hex(out, d->sha256, 32);
    else hash_uuid_text(out, d->uuid);
}

/* Room for "FILE" plus `extra` bytes in h->name; false when out of memory. */
static bool reserve_name(model *h, size_t extra) {
    return cli_grow((void **)&h->name, &h->name_cap, strlen(h->path) + extra + 1, 1, 64);
}

/* name = path + sep + tail, in the room reserve_name made */
static void set_name(model *h, const char *sep, const char *tail, size_t tail_len) {
    size_t pl = strlen(h->path), need = pl + strlen(sep) + tail_len + 1;
    memcpy(h->name, h->path, pl);
    memcpy(h->name + pl, sep, strlen(sep));
    memcpy(h->name + pl + strlen(sep), tail, tail_len);
    h->name[need - 1] = 0;
}

/* Check one line against the manifest and fold the verdict into the flags
 * the way llama-gguf-hash does; returns the verdict. */
static int check_line(model *h, unsigned a, const char *hex, size_t name_len, bool is_model) {
    const char *type = a == HASH_UUID ? "sha256" : algo_name(a); /* its uuid lookup */
    int v = hash_manifest_verify(h->o->m, type, hex, h->name, name_len);
    bool *in = is_model ? &h->model_in : &h->layer_in, *bad = is_model ? &h->model_bad : &h->layer_bad;
    if (v != HASH_NOT_FOUND) *in = true;
    if (v == HASH_MISMATCH) *bad = true;
    return v;
}

static void text_line(model *h, unsigned a, const char *hex, size_t name_len, bool is_model) {
    printf("%-8s  %s  ", algo_name(a), hex);
    fwrite(h->name, 1, name_len, stdout);
    if (h->o->m) printf("  -  %s", hash_verdict_name(check_line(h, a, hex, name_len, is_model)));
    putchar('\n');
}

/* The "xxh64": "…" members of one JSON object (and "check" with a manifest). */
static void json_digests(model *h, const hash_digest *d, unsigned algos, size_t name_len, bool is_model) {
    char hex[65];
    int verdict[4];
    int k = 0;
    for (unsigned a = 1; a <= HASH_UUID; a <<= 1) {
        if (!(algos & a)) continue;
        digest_text(hex, d, a);
        printf(", \"%s\": \"%s\"", algo_name(a), hex);
        if (h->o->m) verdict[k++] = check_line(h, a, hex, name_len, is_model);
    }
    if (!h->o->m) return;
    printf(", \"check\": {");
    k = 0;
    for (unsigned a = 1; a <= HASH_UUID; a <<= 1)
        if (algos & a) printf("%s\"%s\": \"%s\"", k ? ", " : "", algo_name(a), hash_verdict_name(verdict[k])), k++;
    printf("}");
}

static void on_item(void *ud, size_t i, const hash_digest *d) {
    model *h = ud;
    const lgg_tensor *t = h->t[i];
    set_name(h, ":", t->name.ptr, (size_t)t->name.len); /* sized for the longest name beforehand */
    size_t nl = strlen(h->path) + 1 + (size_t)t->name.len;
    unsigned algos = h->o->algos & ~(unsigned)HASH_UUID;
    if (h->o->json) {
        printf("%s\n    {\"name\": ", h->json_first ? "" : ",");
        h->json_first = false;
        cli_json_str(stdout, t->name.ptr, t->name.len);
        json_digests(h, d, algos, nl, false);
        printf("}");
        return;
    }
    char hex[65];
    for (unsigned a = 1; a < HASH_UUID; a <<= 1)
        if (algos & a) {
            digest_text(hex, d, a);
            text_line(h, a, hex, nl, false);
        }
}

static void on_progress(void *ud, uint64_t bytes) {
    model *h = ud;
    cli_progress_add(&h->prog, bytes - h->prog_done);
    h->prog_done = bytes;
}

/* The header from standard input: read in doubling blocks until it parses
 * (the tensor data is left in the pipe for the one-pass read).  The file
 * keeps pointing into h->in. */
static int stdin_open(model *h) {
    size_t cap = 1 << 16;
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
    for (bool eof = false;;) {
        uint8_t *p = realloc(h->in, cap);
        if (!p) {
            cli_err("hash", "-", "out of memory");
            return CLI_FAIL;
        }
        h->in = p;
        while (h->in_n < cap && !eof) {
            ssize_t r = read(0, h->in + h->in_n, cap - h->in_n);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) {
                cli_err("hash", "-", "%s", strerror(errno));
                return CLI_FAIL;
            }
            eof = r == 0;
            h->in_n += (size_t)r;
        }
        lgg_file *f = NULL;
        lgg_error e;
        memset(&e, 0, sizeof e);
        lgg_status st = lgg_open_memory(h->in, h->in_n, &o, &f, &e);
        if (st == LGG_OK) {
            h->set.files = calloc(1, sizeof *h->set.files);
            h->set.fds = malloc(sizeof *h->set.fds);
            if (!h->set.files || !h->set.fds) {
                lgg_close(f);
                cli_err("hash", "-", "out of memory");
                return CLI_FAIL;
            }
            h->set.files[0] = f;
            h->set.fds[0] = -1;
            h->set.n = 1;
            h->set.borrowed = UINT32_MAX;
            return CLI_OK;
        }
        if (st != LGG_ERR_TRUNCATED || eof || cap >= ((size_t)1 << 30)) {
            cli_err_lgg("hash", "-", &e);
            return CLI_FAIL;
        }
        cap *= 2; /* the header goes on: read more */
    }
}

/* The one-pass read of hash_job.stream: standard input after what
 * stdin_open read, or a file on a server in one request. */
static int stream_bytes(void *ud, const hash_range *item, uint64_t from, uint64_t to, hash_push_fn push, void *pud,
                        char *why, size_t cap) {
    model *h = ud;
    if (!h->in) return cli_remote_stream(item->file, from, to, push, pud, why, cap);
    uint64_t pos = from;
    if (pos < h->in_n) { /* what came with the header */
        size_t k = to < h->in_n ? (size_t)(to - pos) : h->in_n - (size_t)pos;
        if (push(pud, h->in + pos, k)) return -1;
        pos += k;
    }
    static uint8_t b[1 << 16];
    for (uint64_t at = h->in_n; pos < to;) {
        ssize_t r = read(0, b, sizeof b);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return snprintf(why, cap, "read failed at offset %llu: %s", (unsigned long long)at, strerror(errno)), -1;
        if (r == 0) return 0; /* the caller says what is missing */
        uint64_t lo = at, hi = at + (uint64_t)r;
        at = hi;
        if (hi <= pos) continue; /* before `from`: dropped */
        if (hi > to) hi = to;
        if (push(pud, b + (pos - lo), (size_t)(hi - pos))) return -1;
        pos = hi;
    }
    return 0;
}

/* Items of each file in file order, none overlapping: one pass reads them. */
static bool in_file_order(const model *h) {
    for (size_t i = 1; i < h->n_t; i++)
        if (h->r[i].file == h->r[i - 1].file && h->r[i].offset < h->r[i - 1].offset + h->r[i - 1].size) return false;
    return true;
}

/* Open the file or the shard set and list its tensors' byte ranges. */
static int model_open(model *h) {
    const char *p = h->path;
    if (cli_is_stdin(p) ? stdin_open(h) != CLI_OK
        : (h->o->shards ? cli_shards_open("hash", p, &h->set) : cli_shards_single("hash", p, &h->set)) != CLI_OK)
        return CLI_FAIL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_value v;
    uint64_t count = 1;
    if (h->o->shards && lgg_merge_check((const lgg_file *const *)h->set.files, h->set.n, &e) != LGG_OK) {
        cli_err("hash", p, "%s", e.message); /* about the set: no one file's offset */
        return CLI_FAIL;
    }
    if (!h->o->shards && lgg_get(h->set.files[0], "split.count", &v) == LGG_OK && lgg_value_uint(&v, &count) == LGG_OK &&
        count > 1)
        cli_err("hash", p, "one shard of %llu; --shards on the first hashes the set as one model",
                (unsigned long long)count);
    size_t longest = 0;
    for (uint32_t f = 0; f < h->set.n; f++) h->n_t += lgg_tensor_count(h->set.files[f]);
    h->t = calloc(h->n_t ? h->n_t : 1, sizeof *h->t);
    h->r = calloc(h->n_t ? h->n_t : 1, sizeof *h->r);
    if (!h->t || !h->r) {
        cli_err("hash", p, "out of memory");
        return CLI_FAIL;
    }
    size_t k = 0;
    for (uint32_t f = 0; f < h->set.n; f++)
        for (uint64_t i = 0; i < lgg_tensor_count(h->set.files[f]); i++, k++) {
            const lgg_tensor *t = h->t[k] = lgg_tensor_at(h->set.files[f], i);
            const char *why = cli_data_problem(t);
            if (why && (lgg_file_header_only(h->set.files[f]) || h->in) && t->type_known && lgg_type_is_valid(t->type))
                why = NULL; /* at the server, or still in the pipe: read as it is hashed */
            if (why) {
                fprintf(stderr, "gguf hash: %s: tensor '", p);
                cli_text_name(stderr, t->name);
                fprintf(stderr, "' %s\n", why);
                return CLI_FAIL;
            }
            h->r[k] = (hash_range){h->set.fds[f], t->file_offset, t->size, h->set.files[f]};
            if (t->name.len > longest) longest = (size_t)t->name.len;
        }
    if (!reserve_name(h, (longest > 9 ? longest : 9) + 1)) {
        cli_err("hash", p, "out of memory");
        return CLI_FAIL;
    }
    /* a pipe can only be read in one pass; a file on a server is, too: one
     * request instead of one per chunk (and, on a server that ignores
     * Range, one from byte 0 per chunk) */
    /* (a local file read header-only, when it could not be mapped, is read
     * range by range through its descriptor) */
    h->stream = h->in || (cli_is_remote(p) && h->set.n && lgg_file_header_only(h->set.files[0]));
    if (h->stream && !in_file_order(h)) {
        if (h->in) {
            cli_err("hash", p, "the tensors are not in file order: standard input cannot be hashed in one pass; "
                    "give the file");
            return CLI_FAIL;
        }
        h->stream = false; /* on a server: each tensor read where it is */
    }
    return CLI_OK;
}

static void model_close(model *h) {
    cli_shards_close(&h->set);
    free(h->in);
    free(h->t);
    free(h->r);
    free(h->name);
}

/* The whole-model lines, then the metadata's. */
static void model_lines(model *h, const hash_digest *total, const hash_digest *meta, unsigned meta_algos) {
    const opts *o = h->o;
    size_t pl = strlen(h->path), ml = pl + strlen("@metadata");
    char hex[65];
    set_name(h, "", "", 0);
    if (o->json) {
        printf("],\n  \"model\": {\"name\": ");
        cli_json_str(stdout, h->path, pl);
        json_digests(h, total, o->algos, pl, true);
        printf("}");
    } else {
        for (unsigned a = 1; a <= HASH_UUID; a <<= 1)
            if (o->algos & a) {
                digest_text(hex, total, a);
                text_line(h, a, hex, pl, true);
            }
    }
    if (!o->metadata) return;
    set_name(h, "@metadata", "", 0);
    if (o->json) {
        printf(",\n  \"metadata\": {\"name\": ");
        cli_json_str(stdout, h->name, ml);
        json_digests(h, meta, meta_algos, ml, true);
        printf("}");
        return;
    }
    for (unsigned a = 1; a < HASH_UUID; a <<= 1)
        if (meta_algos & a) {
            digest_text(hex, meta, a);
            text_line(h, a, hex, ml, true);
        }
}

/* llama-gguf-hash's verdict from its four flags. */
static int model_verdict(const model *h) {
    if (!h->o->m) return CLI_OK;
    if (!h->model_in) return !h->layer_in ? EXIT_MISSING_ENTRY : h->layer_bad ? CLI_FAIL : CLI_OK;
    return h->layer_bad || h->model_bad ? CLI_FAIL : CLI_OK;
}

static int hash_one(const opts *o, const char *path, bool first_file) {
    model h;
    memset(&h, 0, sizeof h);
    h.o = o;
    h.path = path;
    h.json_first = true;
    int rc = model_open(&h);
    hash_digest total, meta;
    memset(&meta, 0, sizeof meta);
    unsigned meta_algos = o->algos & ~(unsigned)HASH_UUID ? o->algos & ~(unsigned)HASH_UUID : HASH_SHA256;
    if (rc == CLI_OK && o->metadata) {
        hash_ctx *c = hash_ctx_new(meta_algos);
        if (!c || hash_metadata(h.set.files, h.set.n, c)) {
            cli_err("hash", path, "out of memory");
            rc = CLI_FAIL;
        } else {
            hash_ctx_final(c, &meta);
        }
        hash_ctx_free(c);
    }
    if (rc != CLI_OK) {
        model_close(&h);
        return rc;
    }
    if (o->json) {
        printf("%s{\"file\": ", first_file ? "" : ",\n ");
        cli_json_str(stdout, path, strlen(path));
        printf(",\n  \"tensors\": [");
    }
    uint64_t bytes = 0;
    for (size_t i = 0; i < h.n_t; i++) bytes += h.r[i].size;
    cli_progress_init(&h.prog, "hash", bytes);
    hash_job j = {h.r, h.n_t, o->no_layer ? 0 : o->algos & ~(unsigned)HASH_UUID, o->algos, o->threads,
                  on_item, on_progress, &h, h.stream ? stream_bytes : NULL, &h};
    char why[320];
    if (hash_stream(&j, &total, why, sizeof why)) {
        cli_progress_end(&h.prog);
        fflush(stdout);
        cli_err("hash", path, "%s", why);
        if (o->json) {
            printf("],\n  \"error\": ");
            cli_json_str(stdout, why, strlen(why));
            printf("}");
        }
        model_close(&h);
        return CLI_FAIL;
    }
    cli_progress_end(&h.prog);
    model_lines(&h, &total, &meta, meta_algos);
    if (o->json) printf("}");
    rc = model_verdict(&h);
    model_close(&h);
    return rc;
}

static int hash_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    opts *o = ud;
    static const unsigned ALGO[] = {0, HASH_XXH64, HASH_SHA1, HASH_SHA256, HASH_XXH64 | HASH_SHA1 | HASH_SHA256, HASH_UUID};
    uint64_t t;
    if (id >= O_XXH64 && id <= O_UUID) o->algos |= ALGO[id];
    else if (id == O_NO_LAYER) o->no_layer = true;
    else if (id == O_CHECK) o->manifest_path = val;
    else if (id == O_METADATA) o->metadata = true;
    else if (id == O_SHARDS) o->shards = true;
    else if (id == O_JSON) o->json = true;
    else if (id == O_THREADS) {
        if (!cli_parse_u64(val, &t) || t < 1 || t > 64) return cli_why(why, cap, "--threads takes 1 to 64, not '%s'", val);
        o->threads = (unsigned)t;
    } else if (id == CLI_OPERAND && cli_is_stdin(val)) {
        if (o->stdin_used++) return cli_why(why, cap, "standard input (-) can be read once");
    }
    return 0;
}

/* Load the manifest and print its header line as llama-gguf-hash does (its
 * two errors go to stdout without a newline; stderr gets the reason too). */
static int manifest_open(opts *o) {
    char why[256];
    if (hash_manifest_load(o->manifest_path, &o->m, why, sizeof why)) {
        if (!o->json) printf("ERROR cannot open manifest %s", o->manifest_path);
        fflush(stdout);
        cli_err("hash", o->manifest_path, "%s", why);
        return EXIT_MANIFEST_ERROR;
    }
    unsigned types = hash_manifest_types(o->m);
    if (!types) {
        if (!o->json) printf("ERROR manifest does not have any known hash format in %s", o->manifest_path);
        fflush(stdout);
        cli_err("hash", o->manifest_path, "no line starts with sha256, sha1, xxh64 or uuid");
        return EXIT_UNKNOWN_HASH;
    }
    static const unsigned ORDER[4] = {HASH_SHA256, HASH_SHA1, HASH_XXH64, HASH_UUID};
    if (!o->json) printf("manifest  %s", o->manifest_path);
    for (int k = 0; k < 4; k++)
        if ((types & ORDER[k]) && !o->json) printf("  %s", algo_name(ORDER[k]));
    if (!o->json) printf("\n");
    for (int k = 0; k < 4 && !o->algos; k++)
        if (types & ORDER[k]) o->algos = ORDER[k];
    return CLI_OK;
}

static const char *status_name(int st) {
    static const char *const N[] = {"Success", "Failure", "Failure", "Manifest Missing Entry"};
    return st >= 0 && st <= 3 ? N[st] : "Failure";
}

int cmd_hash(int argc, char **argv) {
    opts o;
    memset(&o, 0, sizeof o);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
    int n_files = 0;
    int rc = cli_parse(&SPEC, argc, argv, hash_opt, &o, &n_files);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *const *files = (const char *const *)argv + 1;
    if (rc == CLI_OK && o.manifest_path) rc = manifest_open(&o);
    if (rc != CLI_OK) {
        hash_manifest_free(o.m);
        return rc;
    }
    if (!o.algos) o.algos = HASH_XXH64;
    if (o.json) printf("{\"files\": [");
    int st = CLI_OK;
    for (int i = 0; i < n_files; i++) {
        int s = hash_one(&o, files[i], i == 0);
        if (s == CLI_FAIL || st == CLI_FAIL) st = CLI_FAIL;
        else if (s > st) st = s;
    }
    if (o.json && o.m) {
        printf("],\n \"manifest\": ");
        cli_json_str(stdout, o.manifest_path, strlen(o.manifest_path));
        printf(", \"result\": \"%s\", \"status\": %d}\n", status_name(st), st);
    } else if (o.json) {
        printf("]}\n");
    } else if (o.m) {
        printf("\nVerification results for %s - %s\n", o.manifest_path, status_name(st));
    }
    hash_manifest_free(o.m);
    return st;
}
