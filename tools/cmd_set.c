/* cmd_set.c -- `gguf set [-o OUT] [--force] FILE KEY=TYPE:VALUE...
 * [--rename OLD=NEW]...`: edit metadata, in the order given. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

#include "spec_set.h" /* from tools/spec/set.txt (scripts/cli-spec.awk) */

typedef struct op {
    int rename;
    const char *text;
} op;

typedef struct setopts {
    op *ops;
    int n_ops, n_operands, force, keep_dups;
    const char *out;
} setopts;

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    setopts *s = ud;
    if (id == 'o') {
        s->out = val;
        return 0;
    }
    if (id == 'f' || id == 'k') {
        *(id == 'f' ? &s->force : &s->keep_dups) = 1;
        return 0;
    }
    if (id == CLI_OPERAND && s->n_operands++ == 0) return 0; /* FILE */
    const char *eq = strchr(val, '=');
    if (id == 'r' && (!eq || eq == val || !eq[1])) return cli_why(why, cap, "--rename takes OLD=NEW, not '%s'", val);
    if (id == CLI_OPERAND && (!eq || eq == val)) return cli_why(why, cap, "expected KEY=[TYPE:]VALUE, got '%s'", val);
    if (id == CLI_OPERAND && cli_val_typed(eq + 1)) {
        /* the text is checked now; the type is settled against the file
         * (a bare VALUE takes the key's type, known only then) */
        cli_val v;
        /* a generic int or float may end up any integer or float type:
         * accept what fits i64, u64 or f64; the file's key decides later */
        if (!cli_val_parse_for(eq + 1, LGG_VT_I64, CLI_NO_TYPE, &v, why, cap) &&
            !cli_val_parse_for(eq + 1, LGG_VT_U64, CLI_NO_TYPE, &v, why, cap) &&
            !cli_val_parse_for(eq + 1, LGG_VT_F64, CLI_NO_TYPE, &v, why, cap)) {
            char inner[400];
            cli_val_parse_for(eq + 1, LGG_VT_I64, CLI_NO_TYPE, &v, inner, sizeof inner); /* the first reason */
            return cli_why(why, cap, "%.*s: %s", (int)(eq - val), val, inner);
        }
        cli_val_free(&v);
    }
    s->ops[s->n_ops++] = (op){id == 'r', val};
    return 0;
}

/* A key the naming rule allows (cli_key_ok), or --force. */
static int key_allowed(const cli_edit *e, const char *file, const char *key, size_t len, int force) {
    if (force || cli_key_ok(e->f, key, len)) return 1;
    cli_err("set", file, "'%.*s' is not a valid key (lower_snake_case segments separated by dots); --force writes it",
            (int)len, key);
    return 0;
}

/* What validate would reject at key (key, kl) holding v: refused unless
 * --force (CLI_FAIL after the message). */
static int value_allowed(const cli_edit *e, const char *file, const char *key, size_t kl, const lgg_wvalue *v,
                         int force) {
    lgg_str arch = {NULL, 0};
    lgg_value av;
    lgg_error err;
    memset(&err, 0, sizeof err);
    if (force) return 1;
    if (lgg_get(e->f, "general.architecture", &av) == LGG_OK) lgg_value_string(&av, &arch);
    if (lgg_standard_key_check(key, kl, arch.ptr, arch.len, v, &err) == LGG_OK) return 1;
    cli_err("set", file, "%s%s", err.message, err.code == LGG_ERR_INVALID ? "; --force writes it" : "");
    return 0;
}

/* KEY=VALUE for a key the file does not have (nor the spec): its type is
 * unknown, a usage error that shows the typed forms. */
static int untyped_new_key(const char *key, size_t kl, const char *text) {
    const size_t n = strcspn(text, ":@");
    char what[300];
    if (text[n]) snprintf(what, sizeof what, "unknown type '%.*s'", (int)(n < 64 ? n : 64), text);
    else snprintf(what, sizeof what, "no TYPE: for a new key");
    return cli_usage_error("set", SPEC.usage,
                           "%.*s: %s; a new key is written %.*s=TYPE:VALUE (TYPE u8 i8 u16 i16 u32 i32 u64 i64 f32 "
                           "f64 bool str, or int, float), %.*s=str@PATH or %.*s=arr[TYPE]:A,B,C",
                           (int)kl, key, what, (int)kl, key, (int)kl, key, (int)kl, key);
}

static int apply_set(cli_edit *e, const char *file, const char *a, int force) {
    const char *eq = strchr(a, '=');
    size_t kl = (size_t)(eq - a);
    if (!key_allowed(e, file, a, kl, force)) return CLI_FAIL;
    uint32_t have = CLI_NO_TYPE, have_elem = CLI_NO_TYPE, std;
    if (lgg_writer_key_type(e->w, a, kl, &have, &have_elem) != LGG_OK && lgg_standard_key_type(a, kl, &std) == LGG_OK)
        have = std; /* a new standard key gets the spec's type for a generic value */
    if (have == CLI_NO_TYPE && !cli_val_typed(eq + 1)) return untyped_new_key(a, kl, eq + 1);
    cli_val v;
    char why[400];
    if (!cli_val_parse_for(eq + 1, have, have_elem, &v, why, sizeof why)) {
        cli_err("set", file, "%.*s: %s", (int)kl, a, why);
        return CLI_FAIL;
    }
    lgg_error err;
    memset(&err, 0, sizeof err);
    if (!value_allowed(e, file, a, kl, &v.v, force)) {
        cli_val_free(&v);
        return CLI_FAIL;
    }
    int rc = CLI_OK;
    uint32_t now;
    if (lgg_writer_key_type(e->w, a, kl, &now, NULL) == LGG_OK && now != v.v.type)
        cli_err("set", file, "note: %.*s changes type from %s to %s", (int)kl, a, lgg_vtype_name(now),
                lgg_vtype_name(v.v.type));
    if (lgg_writer_set(e->w, a, kl, &v.v, &err) != LGG_OK) {
        cli_err("set", file, "%.*s: %s", (int)kl, a, err.message);
        rc = CLI_FAIL;
    }
    cli_val_free(&v);
    return rc;
}

static int apply_rename(cli_edit *e, const char *file, const char *a, int force) {
    const char *eq = strchr(a, '=');
    if (!key_allowed(e, file, eq + 1, strlen(eq + 1), force)) return CLI_FAIL;
    /* the value moves to the new key: it must have the type the spec gives
     * it there; general.alignment, whose value matters too, is set, not
     * renamed to */
    const char *to = eq + 1;
    const size_t tl = strlen(to);
    lgg_wvalue moved = {CLI_NO_TYPE, CLI_NO_TYPE, 0, NULL};
    if (!force && tl == 17 && !memcmp(to, "general.alignment", 17)) {
        cli_err("set", file, "general.alignment is set (general.alignment=u32:N), not renamed to; --force renames it");
        return CLI_FAIL;
    }
    if (lgg_writer_key_type(e->w, a, (size_t)(eq - a), &moved.type, &moved.elem_type) == LGG_OK &&
        !value_allowed(e, file, to, tl, &moved, force))
        return CLI_FAIL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    if (lgg_writer_rename(e->w, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), &err) != LGG_OK) {
        cli_err("set", file, "%s", err.message);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cmd_set(int argc, char **argv) {
    setopts s;
    memset(&s, 0, sizeof s);
    s.ops = calloc((size_t)argc, sizeof *s.ops);
    if (!s.ops) return CLI_FAIL;
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &s, &n);
    if (rc == CLI_OK && n == 1 && !s.n_ops) rc = cli_usage_error("set", SPEC.usage, "nothing to set");
    if (rc) {
        free(s.ops);
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    const char *file = argv[1];
    cli_edit e;
    if (cli_edit_open("set", file, s.keep_dups, &e)) {
        free(s.ops);
        return CLI_FAIL;
    }
    for (int i = 0; i < s.n_ops && rc == CLI_OK; i++)
        rc = s.ops[i].rename ? apply_rename(&e, file, s.ops[i].text, s.force) : apply_set(&e, file, s.ops[i].text, s.force);
    if (rc == CLI_OK) rc = cli_edit_commit("set", &e, s.out);
    cli_edit_close(&e);
    free(s.ops);
    return rc;
}
