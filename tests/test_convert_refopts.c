/* test_convert_refopts.c -- convert_hf_to_gguf.py b4747's options on
 * `gguf convert`: --metadata FILE.json, --model-name, --bigendian,
 * --no-tensor-first-split and the ignored switches.  The sha256s are those
 * of the reference's outputs, made as golden/convert/reference/README.md
 * says on ../shared/golden/convert/TinyLlama-2-Test-2x32:
 *   convert_hf_to_gguf.py --outtype f16 --metadata meta.json --outfile DIR MODEL
 *   convert_hf_to_gguf.py --outtype f16 --model-name "My Model" --outfile DIR MODEL
 *   convert_hf_to_gguf.py --outtype f16|f32 --bigendian --no-lazy --outfile OUT MODEL
 * with meta.json holding META below. */
#include "libgguf.h"
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

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

static void sha_of(const char *path, char hex[65]) {
    size_t n = 0;
    unsigned char *b = read_file(path, &n);
    hex[0] = 0;
    if (b) sha256_hex(b, n, hex);
    free(b);
}

/* `gguf convert -q --no-fsync OPT [VALUE] -o OUT MODEL` gives the
 * reference's bytes at `file` (OUT, or the default name inside OUT). */
static void same_as_reference(const char *opt, const char *value, const char *outtype, const char *out,
                              const char *file, const char *want) {
    char *so = NULL, *se = NULL;
    int st = value ? run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", outtype, opt, value, "-o",
                                      out, model(), NULL)
                   : run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--outtype", outtype, opt, "-o", out,
                                      model(), NULL);
    CHECKF(st == 0 && so && !*so && se && !*se, "%s: status %d, stderr %s", opt, st, se ? se : "");
    char hex[65];
    sha_of(file, hex);
    CHECKF(!strcmp(hex, want), "%s %s: sha256 %s, reference %s", opt, outtype, hex, want);
    unlink(file);
    free(so), free(se);
}

TEST(convert_refopts_golden) {
    if (!need_shared()) return;
    const char *meta = scratch_path("meta.json");
    put(meta, META);
    char dir[4200], file[4400];
    snprintf(dir, sizeof dir, "%s", scratch_dir());
    /* the override's general.version joins the default name, as there */
    snprintf(file, sizeof file, "%s/TinyLlama-2-Test-2.1M-2x32-v2-F16.gguf", dir);
    same_as_reference("--metadata", meta, "f16", dir, file,
                      "33453896c1573abe21ae6c0c89bab58806ae2a5fbc18917f861a6b8591f6c27b");
    snprintf(file, sizeof file, "%s/TinyLlama-2-Test-2.1M-2x32-F16.gguf", dir);
    same_as_reference("--model-name", "My Model", "f16", dir, file,
                      "6960eed424054d6ba5e8c0b41220a0c80ca56f72e262153105b3ce713bbb5c00");
    /* the reference's --no-lazy output: its lazy default leaves the tensor
     * data little-endian under a big-endian header (docs/convert.md) */
    snprintf(file, sizeof file, "%s/be.gguf", dir);
    same_as_reference("--bigendian", NULL, "f16", file, file,
                      "93b430ba0f2aa8c27b70c862d53d3a28efe724110bb8aa769b58c1e683ee3ab9");
    same_as_reference("--bigendian", NULL, "f32", file, file,
                      "38abdfd91aa11406a8d0028ef698908ce46bcc5aa70cadd101e2b80c8d2178e2");
    unlink(meta);
}

/* The switches the reference uses for memory and logging change nothing:
 * the bytes of its own f16 output beside the checkpoint. */
TEST(convert_refopts_ignored) {
    if (!need_shared()) return;
    char want[4300], hex[65], ref[65];
    snprintf(want, sizeof want, "%s.f16.gguf", model());
    const char *out = scratch_path("ignored.gguf");
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--use-temp-file", "--no-lazy", "--verbose", "-o",
                              out, model(), NULL);
    CHECKF(st == 0 && so && !*so && se && !*se, "status %d: %s", st, se ? se : "");
    sha_of(out, hex);
    sha_of(want, ref);
    CHECK(*ref && !strcmp(hex, ref));
    unlink(out);
    free(so), free(se);
}

/* --no-tensor-first-split: the first of the shards holds no tensor; the
 * counts are those of the reference's shards (gguf-py's GGUFReader on
 * convert_hf_to_gguf.py --split-max-tensors 20 --no-tensor-first-split).
 * Their bytes are not the reference's: see docs/convert.md. */
TEST(convert_refopts_no_tensor_first_split) {
    if (!need_shared()) return;
    const char *prefix = scratch_path("nf.gguf");
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", "-q", "--no-fsync", "--split-max-tensors", "20",
                              "--no-tensor-first-split", "-o", prefix, model(), NULL);
    CHECKF(st == 0, "status %d: %s", st, se ? se : "");
    static const uint64_t want[3] = {0, 20, 1};
    for (int i = 1; i <= 3; i++) {
        char shard[4400];
        snprintf(shard, sizeof shard, "%s/nf-%05d-of-00003.gguf", scratch_dir(), i);
        lgg_file *f = NULL;
        CHECKF(lgg_open_file(shard, NULL, &f, NULL) == LGG_OK, "%s", shard);
        if (f) CHECKF(lgg_tensor_count(f) == want[i - 1], "shard %d: %llu tensors", i, (unsigned long long)lgg_tensor_count(f));
        lgg_close(f);
        unlink(shard);
    }
    free(so), free(se);
}

#define USAGE                                                                         \
    "usage: gguf convert [options] MODEL_DIR|hf://OWNER/REPO[@REVISION] [-o OUT]\n" \
    "       gguf convert [options] --lora ADAPTER_DIR --base BASE_DIR [-o OUT]\n"

/* Exact stderr and status, nothing on stdout, no output left. */
static void expect(const char *want_err, int want, const char *a, const char *b, const char *c) {
    const char *out = scratch_path("never.gguf");
    char *so = NULL, *se = NULL;
    int st = run_gguf_capture(&so, &se, "convert", a, b, c ? c : "-o", c ? "-o" : out, c ? out : model(),
                              c ? model() : NULL, NULL);
    CHECKF(st == want, "%s %s: status %d", a, b, st);
    CHECK_STR(so, "");
    CHECK_STR(se, want_err);
    CHECK(access(out, F_OK) != 0);
    free(so), free(se);
}

TEST(convert_refopts_errors) {
    if (!need_shared()) return;
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
    int st = run_gguf_capture(&so, &se, "convert", "-q", "--metadata", bad, "-o", bad, model(), NULL);
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
