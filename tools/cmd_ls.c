/* cmd_ls.c -- `gguf ls hf://OWNER/REPO[@REV]`: a Hugging Face repository's
 * files with their sizes, from the hub's API (lgg_hub_list), then its GGUF
 * files grouped into shard sets with the quantization their names carry. */
#include "tool.h"

#include "libgguf_remote.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt OPTS[] = {
    {'j', "--json", NULL, "one JSON object: \"files\" (path, size, sha256) and \"gguf\"\n"
                          "(quantization, shard files, total size)"},
    {0},
};
static const cli_spec SPEC = {
    "ls",
    "gguf ls [--json] [--token TOKEN] [--timeout SECONDS] hf://OWNER/REPO[@REV]",
    "List a Hugging Face repository's files with their sizes in bytes (the hub's\n"
    "tree API, under $HF_ENDPOINT, default https://huggingface.co), then its GGUF\n"
    "files, a shard set (NAME-00001-of-0000N.gguf ...) as one line, with the\n"
    "quantization their names carry (Q4_K_M, IQ4_XS, F16, ...; '-' for none), the\n"
    "number of files and their total size.\n",
    OPTS,
    "Exit status: 0 success, 1 failure (the repository cannot be listed), 2 usage\n"
    "error.\n",
    1, 1, "an hf://OWNER/REPO name is required",
    0,
};

/* A shard's set: the name before "-NNNNN-of-MMMMM.gguf" and MMMMM. */
typedef struct shard {
    const char *path;
    size_t pre, i;
    uint32_t count;
} shard;

/* By set, then by place in the listing: each set's first file leads its run. */
static int by_set(const void *a, const void *b) {
    const shard *x = a, *y = b;
    int c = memcmp(x->path, y->path, x->pre < y->pre ? x->pre : y->pre);
    if (c) return c;
    if (x->pre != y->pre) return x->pre < y->pre ? -1 : 1;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Each file's group into group[]: the index of its set's first file in the
 * listing (itself when it is not a shard), so that a set's shards share
 * one.  Sorting, not a search per file: 2,000 shard names took 98 s when
 * every file looked for its set's first, for every group (O(n^3)). */
static int group_all(const lgg_hub_repo *r, size_t *group) {
    size_t n = lgg_hub_file_count(r), k = 0;
    shard *s = malloc((n + 1) * sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = lgg_hub_file_at(r, i)->path;
        size_t pre = 0;
        uint32_t no, count;
        group[i] = i;
        if (lgg_split_name_parse(p, strlen(p), &no, &count, &pre)) s[k++] = (shard){p, pre, i, count};
    }
    qsort(s, k, sizeof *s, by_set);
    for (size_t j = 1; j < k; j++)
        if (s[j].pre == s[j - 1].pre && s[j].count == s[j - 1].count && !memcmp(s[j].path, s[j - 1].path, s[j].pre))
            group[s[j].i] = group[s[j - 1].i];
    free(s);
    return 0;
}

static int is_gguf(const char *p) {
    size_t l = strlen(p);
    return l > 5 && !strcmp(p + l - 5, ".gguf");
}

static void print_files(const lgg_hub_repo *r, int json) {
    size_t n = lgg_hub_file_count(r);
    if (json) printf("{\"files\": [");
    for (size_t i = 0; i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (json) {
            printf("%s{\"path\": ", i ? ", " : "");
            cli_json_str(stdout, f->path, strlen(f->path));
            printf(", \"size\": %llu, \"sha256\": \"%s\"}", (unsigned long long)f->size, f->sha256);
        } else {
            printf("%14llu  %s\n", (unsigned long long)f->size, f->path);
        }
    }
    printf(json ? "], \"gguf\": [" : "");
}

/* The files, then the GGUF files by set (in the order of each set's first
 * file); -1 when out of memory. */
static int print(const lgg_hub_repo *r, int json) {
    size_t n = lgg_hub_file_count(r);
    size_t *group = malloc((n + 1) * sizeof *group);
    uint64_t *total = calloc(n + 1, sizeof *total), *count = calloc(n + 1, sizeof *count);
    if (!group || !total || !count || group_all(r, group)) {
        free(group), free(total), free(count);
        return -1;
    }
    for (size_t j = 0; j < n; j++)
        if (is_gguf(lgg_hub_file_at(r, j)->path)) total[group[j]] += lgg_hub_file_at(r, j)->size, count[group[j]]++;
    print_files(r, json);
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (!is_gguf(f->path) || group[i] != i) continue;
        char q[64];
        lgg_hub_quant_name(f->path, q, sizeof q);
        if (json) {
            printf("%s{\"quantization\": \"%s\", \"first\": ", any ? ", " : "", q);
            cli_json_str(stdout, f->path, strlen(f->path));
            printf(", \"files\": %llu, \"size\": %llu}", (unsigned long long)count[i], (unsigned long long)total[i]);
        } else {
            if (!any) printf("\nGGUF files (quantization, files, size, first file):\n");
            printf("  %-8s %3llu %14llu  %s\n", *q ? q : "-", (unsigned long long)count[i], (unsigned long long)total[i],
                   f->path);
        }
        any = 1;
    }
    if (json) printf("]}\n");
    free(group), free(total), free(count);
    return 0;
}

int cmd_ls(int argc, char **argv) {
    int flags[256] = {0}, np = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &np);
    const int json = flags['j'];
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *name = argv[1];
    if (!lgg_hub_is_repo_name(name) || strchr(name + 5, ':'))
        return cli_usage_error("ls", SPEC.usage, "'%s' is not an hf://OWNER/REPO[@REV] name", name);
    char repo[1024];
    const char *rev;
    lgg_hub_repo *r = cli_hub_list("ls", name, repo, sizeof repo, &rev);
    if (!r) return CLI_FAIL;
    int printed = print(r, json);
    lgg_hub_free(r);
    if (printed) cli_err("ls", name, "out of memory");
    return printed ? CLI_FAIL : CLI_OK;
}
