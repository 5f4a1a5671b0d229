/* fuzz_dump.c -- the CLI's value renderers (tools/common/cli.c, as `gguf dump`
 * uses them) on every value of every file that opens.
 *
 * Text renderings (shortened and --full) go to /dev/null.  Each JSON
 * rendering is also captured in memory and checked: it must be one
 * well-formed JSON value in valid UTF-8, because `gguf dump --json` output
 * is a contract that other programs parse. */
#include "cli.h"
#include "fuzz.h"

#include <string.h>


static FILE *devnull;

/* ---- a strict JSON checker (RFC 8259), iterative ---- */

typedef struct jp {
    const unsigned char *p, *end;
} jp;

static void ws(jp *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')) j->p++;
}

static bool hex4(jp *j) {
    if (j->end - j->p < 4) return false;
    for (int i = 0; i < 4; i++) {
        unsigned char c = j->p[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    }
    j->p += 4;
    return true;
}

/* Length of a valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned char c = *p;
    if (c < 0x80) return 1;
    int need;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (end - p <= need) return 0;
    for (int k = 1; k <= need; k++) {
        if ((p[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return need + 1;
}

static bool jstring(jp *j) {
    if (j->p >= j->end || *j->p != '"') return false;
    j->p++;
    while (j->p < j->end) {
        unsigned char c = *j->p;
        if (c == '"') {
            j->p++;
            return true;
        }
        if (c < 0x20) return false;
        if (c == '\\') {
            j->p++;
            if (j->p >= j->end) return false;
            c = *j->p++;
            if (c == 'u') {
                if (!hex4(j)) return false;
            } else if (!strchr("\"\\/bfnrt", c) || c == 0) {
                return false;
            }
            continue;
        }
        int k = utf8_len(j->p, j->end);
        if (!k) return false;
        j->p += k;
    }
    return false;
}

static bool jnumber(jp *j) {
    const unsigned char *s = j->p;
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p >= j->end) return false;
    if (*j->p == '0') {
        j->p++;
    } else if (*j->p >= '1' && *j->p <= '9') {
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    } else {
        return false;
    }
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        const unsigned char *d = j->p;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
        if (j->p == d) return false;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        const unsigned char *d = j->p;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
        if (j->p == d) return false;
    }
    return j->p > s;
}

static bool lit(jp *j, const char *w) {
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return false;
    j->p += n;
    return true;
}

/* One JSON value spanning exactly [p, end) (surrounding whitespace allowed). */
static bool json_ok(const unsigned char *p, size_t n) {
    jp j = {p, p + n};
    char stack[512]; /* '[' or '{' */
    int sp = 0;
    ws(&j);
    for (;;) {
        /* a value */
        ws(&j);
        if (j.p >= j.end) return false;
        unsigned char c = *j.p;
        bool opened = false;
        if (c == '{' || c == '[') {
            if (sp == (int)sizeof stack) return false;
            stack[sp++] = (char)c;
            j.p++;
            ws(&j);
            if (j.p < j.end && *j.p == (c == '{' ? '}' : ']')) {
                j.p++;
                sp--;
            } else {
                opened = true;
                if (c == '{') {
                    if (!jstring(&j)) return false;
                    ws(&j);
                    if (j.p >= j.end || *j.p != ':') return false;
                    j.p++;
                }
            }
        } else if (c == '"') {
            if (!jstring(&j)) return false;
        } else if (c == 't') {
            if (!lit(&j, "true")) return false;
        } else if (c == 'f') {
            if (!lit(&j, "false")) return false;
        } else if (c == 'n') {
            if (!lit(&j, "null")) return false;
        } else {
            if (!jnumber(&j)) return false;
        }
        if (opened) continue;
        /* after a value: close containers, or a comma and the next member */
        for (;;) {
            ws(&j);
            if (sp == 0) return j.p == j.end;
            if (j.p >= j.end) return false;
            char top = stack[sp - 1];
            if (*j.p == (top == '{' ? '}' : ']')) {
                j.p++;
                sp--;
                continue;
            }
            if (*j.p != ',') return false;
            j.p++;
            ws(&j);
            if (top == '{') {
                if (!jstring(&j)) return false;
                ws(&j);
                if (j.p >= j.end || *j.p != ':') return false;
                j.p++;
            }
            break;
        }
    }
}

/* ---- the target ---- */

static void render_json(void (*fn)(FILE *, const void *), const void *arg) {
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    if (!m) return;
    fn(m, arg);
    fclose(m);
    if (!json_ok((const unsigned char *)out, n)) {
        fprintf(stderr, "invalid JSON (%zu bytes): %.*s\n", n, (int)(n < 2000 ? n : 2000), out);
        abort();
    }
    fwrite(out, 1, n, devnull);
    free(out);
}

static void kv_json(FILE *o, const void *arg) {
    const lgg_kv *kv = arg;
    /* the shape cmd_dump.c writes for one pair */
    fputs("{\"key\": ", o);
    cli_json_str(o, kv->key.ptr, kv->key.len);
    fprintf(o, ", \"type\": \"%s\", \"value\": ", lgg_vtype_name(kv->value.type));
    cli_json_value(o, &kv->value);
    fputc('}', o);
}

static void tensor_json(FILE *o, const void *arg) { cli_tensor_json(o, arg); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull) devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    lgg_file *f = NULL;
    if (lgg_open_memory(size ? data : NULL, size, NULL, &f, NULL) != LGG_OK) return 0;
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        render_json(kv_json, kv);
        cli_text_str(devnull, kv->key.ptr, kv->key.len, 0);
        cli_text_str(devnull, kv->key.ptr, kv->key.len, 16);
        cli_text_value(devnull, &kv->value, 8, 200); /* `gguf dump` */
        cli_text_value(devnull, &kv->value, 0, 0);   /* `gguf dump --full` */
        cli_text_value(devnull, &kv->value, 1, 1);
        fputc('\n', devnull);
    }
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        render_json(tensor_json, t);
        char shape[128], bytes[64];
        cli_fmt_shape(shape, sizeof shape, t);
        FUZZ_ASSERT(memchr(shape, 0, sizeof shape) != NULL);
        FUZZ_ASSERT(shape[0] == '[' && shape[strlen(shape) - 1] == ']');
        cli_fmt_bytes(bytes, sizeof bytes, t->size);
        cli_text_str(devnull, t->name.ptr, t->name.len, 0);
        fprintf(devnull, " %s %s %s\n", cli_type_name(t->type), shape, bytes);
    }
    lgg_close(f);
    return 0;
}
