/* test_convert_refopts.c -- convert_hf_to_gguf.py b4747's options on
 * `gguf convert`: --metadata FILE.json, --model-name, --bigendian,
 * --split-max-*, --no-tensor-first-split and the ignored switches.  The sha256s are those
 * of the reference's outputs, made as golden/convert/reference/README.md
 * says on ../shared/golden/convert/TinyLlama-2-Test-2x32:
 *   convert_hf_to_gguf.py --outtype f16 --metadata meta.json --outfile DIR MODEL
 *   convert_hf_to_gguf.py --outtype f16 --model-name "My Model" --outfile DIR MODEL
 *   convert_hf_to_gguf.py --outtype f16|f32 --bigendian --no-lazy --outfile OUT MODEL
 * with meta.json holding META below.
 *
 * Without ../shared, the errors and the ignored switches are checked on a
 * checkpoint made from a seed (embed_cases.h) whose conversion by the
 * reference is known; the outputs of the other options are known for
 * TinyLlama-2-Test-2x32 only, and those tests say so. */
#include "embed_cases.h"
#include "libgguf.h"
#include "standin.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* Every kind of key the override file takes, general.license (which the
 * reference does not take from it) and a key it ignores. */
static const char META[] =
    "{\"general.name\": \"Override Name\", \"general.author\": \"A. Author\", \"general.version\": \"v2\",\n"
    " \"general.description\": \"a description\", \"general.quantized_by\": \"someone\", \"general.license\": \"mit\",\n"
    " \"general.license.name\": \"tiny-license\", \"general.url\": \"https://example.org/m\", \"general.doi\": \"10.1/x\",\n"
    " \"general.base_models\": [{\"name\": \"Base\", \"organization\": \"Org\", \"repo_url\": "
    "\"https://huggingface.co/org/base\"}, {\"name\": \"Other\"}],\n"
    " \"general.datasets\": [{\"name\": \"Data\"}],\n"
    " \"general.tags\": [\"t1\", \"t2\"], \"general.languages\": [\"en\", \"fr\"], \"unrelated\": 3}\n";

static const char *model(void) {
    static char dir[4200];
    snprintf(dir, sizeof dir, "%s/TinyLlama-2-Test-2x32", shared_path("golden/convert"));
    return dir;
}

/* The checkpoint made from a seed (test_convert_embed.c) whose outputs of
 * the reference with these options are recorded too: every test checks
 * it, with or without ../shared (tests/convert_refopts_reference.sh remakes
 * its sha256s). */
#define SEEDED "bge-reranker-tiny-test"

/* The seeded checkpoint, made once; NULL (the test failed) if it cannot be. */
static const char *seeded(void) {
    static char base[4200], made[4300]; /* not in scratch_path's rotating buffers */
    if (!made[0]) {
        snprintf(base, sizeof base, "%s/refopts", scratch_dir());
        const char *d = embed_case(SEEDED, base);
        if (d) snprintf(made, sizeof made, "%s", d);
    }
    CHECKF(made[0], "cannot make the seeded checkpoint %s", SEEDED);
    return made[0] ? made : NULL;
}

/* The checkpoint the errors are checked on: TinyLlama-2-Test-2x32, or
 * without ../shared the seeded one (its reference f16 sha256 into *f16
 * when f16 is not NULL); NULL, the test failed, when it cannot be made. */
static const char *any_model(const char **f16) {
    const char *const *sha = shared_present() ? NULL : embed_case_sha(SEEDED);
    const char *dir = shared_present() ? model() : seeded();
    if (f16) *f16 = sha ? sha[1] : NULL;
    return dir;
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

/* `gguf convert -q --no-fsync OPT [VALUE] -o OUT DIR` gives the
 * reference's bytes at `file` (OUT, or the default name inside OUT). */
static void same_as_reference(const char *dir, const char *opt, const char *value, const char *outtype,
                              const char *out, const char *file, const char *want) {
    char *so = NULL, *se = NULL;
    int st = value ? run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", outtype, opt, value, "-o",
                                      out, dir, NULL)
                   : run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", outtype, opt, "-o", out,
                                      dir, NULL);
    CHECKF(st == 0 && so && !*so && se && !*se, "%s: status %d, stderr %s", opt, st, se ? se : "");
    char hex[65];
    file_sha256(file, hex);
    CHECKF(!strcmp(hex, want), "%s %s: sha256 %s, reference %s", opt, outtype, hex, want);
    unlink(file);
    free(so), free(se);
}

/* The reference's outputs on one checkpoint: --metadata META and
 * --model-name "My Model" (f16, the default file name inside the output
 * folder: meta_name, name_name), --bigendian f16 and f32. */
typedef struct golden_set {
    const char *meta_name, *name_name;
    const char *sha[4]; /* --metadata, --model-name, --bigendian f16, --bigendian f32 */
} golden_set;

static const golden_set TINYLLAMA = {"TinyLlama-2-Test-2.1M-2x32-v2-F16.gguf", "TinyLlama-2-Test-2.1M-2x32-F16.gguf",
                                     {"33453896c1573abe21ae6c0c89bab58806ae2a5fbc18917f861a6b8591f6c27b",
                                      "6960eed424054d6ba5e8c0b41220a0c80ca56f72e262153105b3ce713bbb5c00",
                                      "93b430ba0f2aa8c27b70c862d53d3a28efe724110bb8aa769b58c1e683ee3ab9",
                                      "38abdfd91aa11406a8d0028ef698908ce46bcc5aa70cadd101e2b80c8d2178e2"}};
static const golden_set SEEDED_SET = {"Override-Name-293K-v2-F16.gguf", "My-Model-293K-F16.gguf",
                                      {"78483d765620a47e9cce4d3e1eb02f37f5883b55f585f0c262b4867307532b3e",
                                       "f9ed1aa955a0487c687f5b41fdc527d70820948c54af95974be74d55adfcb2ca",
                                       "c1be23981f7b5adf43a45d3a3b5b0ff5d78ed96b866af129630095e7a1fdb16b",
                                       "18f97f291113c24f24cfc9bbbb2f226a9d34d21bcbab5a3947d7cbdbb3a7ad22"}};

static void golden_options(const char *model_dir, const golden_set *g) {
    const char *meta = scratch_path("meta.json");
    put(meta, META);
    char dir[4200], file[4400];
    snprintf(dir, sizeof dir, "%s", scratch_dir());
    /* the override's general.version joins the default name, as there */
    snprintf(file, sizeof file, "%s/%s", dir, g->meta_name);
    same_as_reference(model_dir, "--metadata", meta, "f16", dir, file, g->sha[0]);
    snprintf(file, sizeof file, "%s/%s", dir, g->name_name);
    same_as_reference(model_dir, "--model-name", "My Model", "f16", dir, file, g->sha[1]);
    /* the reference's --no-lazy output: its lazy default leaves the tensor
     * data little-endian under a big-endian header (docs/convert.md) */
    snprintf(file, sizeof file, "%s/be.gguf", dir);
    same_as_reference(model_dir, "--bigendian", NULL, "f16", file, file, g->sha[2]);
    same_as_reference(model_dir, "--bigendian", NULL, "f32", file, file, g->sha[3]);
    unlink(meta);
}

TEST(convert_refopts_golden) {
    if (shared_present()) golden_options(model(), &TINYLLAMA);
    const char *dir = seeded();
    if (dir) golden_options(dir, &SEEDED_SET);
}

/* The switches the reference uses for memory and logging change nothing:
 * the bytes of its own f16 output beside the checkpoint. */
TEST(convert_refopts_ignored) {
    const char *f16 = NULL, *dir = any_model(&f16); /* without ../shared: the reference's f16 sha256 of the seeded case */
    if (!dir) return;
    char want[4300], hex[65], ref[65] = "";
    snprintf(want, sizeof want, "%s.f16.gguf", dir);
    const char *out = scratch_path("ignored.gguf");
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--use-temp-file", "--no-lazy", "--verbose", "-o",
                              out, dir, NULL);
    CHECKF(st == 0 && so && !*so && se && !*se, "status %d: %s", st, se ? se : "");
    file_sha256(out, hex);
    if (f16) snprintf(ref, sizeof ref, "%s", f16);
    else file_sha256(want, ref);
    CHECKF(*ref && !strcmp(hex, ref), "sha256 %s, the reference's f16 output %s", hex, ref);
    unlink(out);
    free(so), free(se);
}

/* --split-max-size / --split-max-tensors (with --no-tensor-first-split
 * too): the reference's shards, byte for byte (gguf-py's layout: split.no,
 * split.count, split.tensors.count; the size rule on unpadded sizes, K/M
 * as powers of 1000); a set of one shard is the plain output.  The sha256s
 * are those of convert_hf_to_gguf.py --outtype T OPTS --outfile P.gguf. */
typedef struct split_case {
    const char *outtype, *opt, *val, *first; /* first: --no-tensor-first-split or NULL */
    const char *sha[4];                      /* the shards in order (one: the plain file) */
} split_case;

static const split_case SPLITS[] = {
    {"f16", "--split-max-size", "1M", NULL,
     {"71d355aa21836052660fa142f1665fab70a8b0709d63e5cacaab2819387e3432",
      "9bf5748d74c70890a2d280d76ef9185858fb3b422f35b420040c8b263ec5966b",
      "41f9564e7ab2424a23ad3208e69e1a2cd774142369b9de871f5ce8cba4b36e77"}},
    {"q8_0", "--split-max-size", "500K", NULL,
     {"39956352c6b7146bf74bac8eb2732c2100c5eafb332197eb62cd7440ec071f0e",
      "5a884f851d0e55cd7357eb9c0f192428789e1f3fb574e159aa0ca2e6e393db3c",
      "cf8156d657c1b4c3c2ccefb3fe3c78003a6686e0b8d71fd150abc34e9e8af047"}},
    {"bf16", "--split-max-tensors", "20", "--no-tensor-first-split",
     {"5039eca1845b50cc16e67f5de14a391a024d78e5d498c0164f927a578106c2fd",
      "1384529678ae6aeb3c1f85b23951054ce89c31f023806ada954ae8ac73e095c2",
      "9961f41e4c3241356f4f3935c2fc510dd9ef8097e6608fb85bd2e9f8c2bd049c"}},
    {"f32", "--split-max-tensors", "100", NULL, {"8776b1ce0fd8f8f9c4274b61c88381eb619be2e1ccf9687fc09a531090809f5a"}},
    {"f16", "--split-max-size", "1M", "--no-tensor-first-split",
     {"6ef42c5fc5e279cf501a3ac431262bf0a34bacd6bbcc1640db1b501d6e39a320",
      "e4e04401d6c228f08fe6c1e2ceef9382aeb752fc4fb06369f1073b3735d6e206",
      "bc0311b8fedb2def81aa2fda5e81ba63f532722fa3f5855baa8b0c896fa8a377",
      "5d92925fc8d3f5d9c5718eee771fdea850fc2c3099537ec3f184d8e3915dd374"}},
};

/* The same options on the seeded checkpoint (1.1 MB in f16, its position
 * embeddings 0.5 MB of it). */
static const split_case SEEDED_SPLITS[] = {
    {"f16", "--split-max-size", "200K", NULL,
     {"08319ca593acfe8db5616311f44eacfcf0d976bb3e4e0834a136db93032c8b78",
      "f1f2a5650985502068a6420bac574a4cf9b2298ca5c42affba6b256585cc2e61",
      "d64c22ba1a7c400c809ca4b77afc5811522ead9428c58b1609a6b236780f152c"}},
    {"q8_0", "--split-max-size", "100K", NULL,
     {"365e898e253d26c578331546607ccab0ee53df2a0f1f119e49bdf520832d4d76",
      "f1f2a5650985502068a6420bac574a4cf9b2298ca5c42affba6b256585cc2e61",
      "c3261e8f060091beb1f9a9315fc213e05c8d7534395c4fda74f7de2b2c7a8bd1"}},
    {"bf16", "--split-max-tensors", "20", "--no-tensor-first-split",
     {"c030b847e0b4614cee6c5942a38ba92ace368ca17f949a56dbbff66656979c26",
      "2c6b8c5df6454c860b54e20f38650c63816f4a4b9a3e0ad1fd569b5cb1468d12",
      "6f72932f968a9360b1455cec0eab91e07b0c0c00cf62918d5383252eb0780394",
      "b0d038421443d0a2edee77f754950af2e07e752415886c6905797b83f2a492a7"}},
    {"f32", "--split-max-tensors", "100", NULL, {"cad40d1e1661a056539dc18a26623f8493d708e5d9b066ac183f5b46cef56b45"}},
    {"f16", "--split-max-size", "200K", "--no-tensor-first-split",
     {"df22aa767cdd5fee8742bebcedc70d328b89eeed307248d83b7ec31aa08b8778",
      "3b361430c7f815fbc319e2cd928e3d73ac0bfb17a3586052385b227101af076c",
      "017486a000b301494e7f1e4fb90b1ec42efa133a555bd86ecdf32ce4afe89de7",
      "376cb508075cef14807ab4672ae74444f3308cfb5d07cbdd70ae9cc946aae7f8"}},
};

static void split_cases(const char *model_dir, const split_case *cases, size_t n_cases) {
    for (size_t c = 0; c < n_cases; c++) {
        size_t n = 0;
        while (n < 4 && cases[c].sha[n]) n++;
        char *so = NULL, *se = NULL;
        const char *out = scratch_path("sp.gguf");
        int st = cases[c].first ? run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", cases[c].outtype,
                                                    cases[c].opt, cases[c].val, cases[c].first, "-o", out, model_dir, NULL)
                                 : run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", cases[c].outtype,
                                                    cases[c].opt, cases[c].val, "-o", out, model_dir, NULL);
        CHECKF(st == 0, "case %zu: status %d: %s", c, st, se ? se : "");
        for (size_t i = 0; i < n; i++) {
            char shard[4400], hex[65];
            if (n == 1) snprintf(shard, sizeof shard, "%s", out);
            else snprintf(shard, sizeof shard, "%s/sp-%05zu-of-%05zu.gguf", scratch_dir(), i + 1, n);
            file_sha256(shard, hex);
            CHECKF(!strcmp(hex, cases[c].sha[i]), "case %zu (%s %s %s), shard %zu: sha256 '%s'", c, cases[c].outtype,
                   cases[c].opt, cases[c].val, i + 1, hex);
            unlink(shard);
        }
        char extra[4400]; /* no shard beyond the reference's count, no plain file beside a set */
        snprintf(extra, sizeof extra, "%s/sp-%05zu-of-%05zu.gguf", scratch_dir(), n + 1, n + 1);
        CHECK(access(extra, F_OK) != 0);
        if (n > 1) CHECK(access(out, F_OK) != 0);
        free(so), free(se);
    }
}

TEST(convert_refopts_split) {
    if (shared_present()) split_cases(model(), SPLITS, sizeof SPLITS / sizeof SPLITS[0]);
    const char *dir = seeded();
    if (dir) split_cases(dir, SEEDED_SPLITS, sizeof SEEDED_SPLITS / sizeof SEEDED_SPLITS[0]);
}

#define USAGE                                                                         \
    "usage: gguf convert [options] MODEL_DIR|hf://OWNER/REPO[@REVISION] [-o OUT]\n" \
    "       gguf convert [options] --lora ADAPTER_DIR --base BASE_DIR [-o OUT]\n"

/* Exact stderr and status, nothing on stdout, no output left. */
static void expect(const char *want_err, int want, const char *a, const char *b, const char *c) {
    const char *out = scratch_path("never.gguf"), *dir = any_model(NULL);
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", a, b, c ? c : "-o", c ? "-o" : out, c ? out : dir, c ? dir : NULL,
                              NULL);
    CHECKF(st == want, "%s %s: status %d", a, b, st);
    CHECK_STR(so, "");
    CHECK_STR(se, want_err);
    CHECK(access(out, F_OK) != 0);
    free(so), free(se);
}

TEST(convert_refopts_errors) {
    if (!any_model(NULL)) return;
    expect("gguf convert: --metadata takes a JSON file (the reference's override file); 'general.name=str:X' is a "
           "key to set: use --set\n" USAGE,
           2, "--metadata", "general.name=str:X", NULL);
    expect("gguf convert: --bigendian takes no quantize preset and no --lora\n" USAGE, 2, "--bigendian", "--outtype",
           "Q4_K_M");
    expect("gguf convert: --set 'general.name': expected KEY=TYPE:VALUE\n", 2, "--set", "general.name", NULL);
    char msg[9000];
    const char *missing = scratch_path("missing.json");
    snprintf(msg, sizeof msg, "gguf convert: %s: cannot read the metadata file: No such file or directory\n", missing);
    expect(msg, 1, "--metadata", missing, NULL);
    static const char *const BAD[][2] = {
        {"[1]\n", "not a JSON object"},
        {"{\"general.name\": 3}\n", "'general.name' is not a string"},
        {"{\"general.tags\": [\"a\", 1]}\n", "'general.tags' is not a list of strings"},
        {"{\"general.base_models\": [{\"name\": 2}]}\n", "'general.base_models' is not a list of objects of strings"},
        {"{\n", "line 2: string or '}' expected near end of file"},
    };
    const char *bad = scratch_path("bad.json");
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        put(bad, BAD[i][0]);
        snprintf(msg, sizeof msg, "gguf convert: %s: %s\n", bad, BAD[i][1]);
        expect(msg, 1, "-q", "--metadata", bad);
    }
    /* the override file is an input: never the output */
    put(bad, META);
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", "-q", "--metadata", bad, "-o", bad, any_model(NULL), NULL);
    snprintf(msg, sizeof msg, "gguf convert: %s: refusing to write over the input %s (the same file); nothing written\n",
             bad, bad);
    CHECK(st == 1);
    CHECK_STR(se, msg);
    size_t n = 0;
    char *after = (char *)read_file(bad, &n);
    CHECK(after && n == strlen(META) && !memcmp(after, META, n));
    free(after), free(so), free(se);
    unlink(bad);
}

#endif
