/* libgguf/loadcheck.h -- would llama.cpp master load this file: the hyperparameters master reads,
 * the vocabulary keys it needs and the tensors it creates, with their shapes, per architecture.
 * Part of libgguf's public API, included by libgguf.h (only that one is included directly; its
 * conventions hold here). */
#ifndef LIBGGUF_LOADCHECK_H
#define LIBGGUF_LOADCHECK_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Load check: what llama.cpp master (3f545becc) refuses when it loads      */
/* ======================================================================== */

/* The verdict. */
#define LGG_LOAD_LOADS 0    /* master would load the file */
#define LGG_LOAD_REFUSED 1  /* master would refuse it (or abort on it): the issues say why */
#define LGG_LOAD_NO_TABLE 2 /* no table for the file's general.architecture: not checked */

/* What is wrong with a key or a tensor. */
#define LGG_LOAD_MISSING 1     /* required and absent */
#define LGG_LOAD_WRONG_TYPE 2  /* a key of another GGUF type than master reads */
#define LGG_LOAD_WRONG_SHAPE 3 /* a tensor of another shape than master creates */
#define LGG_LOAD_UNEXPECTED 4  /* a tensor master does not create (it refuses extra tensors) */
#define LGG_LOAD_BAD_VALUE 5   /* a key whose value master refuses or asserts on */
#define LGG_LOAD_NO_DATA 6     /* a tensor whose data is not within the file (opened with
                                  LGG_OPEN_ALLOW_MISSING_DATA): master checks this first */

#define LGG_LOAD_MAX_ISSUES 64

typedef struct lgg_load_issue {
    bool tensor;       /* true: `name` is a tensor's; false: a metadata key's */
    uint32_t problem;  /* LGG_LOAD_MISSING ... LGG_LOAD_BAD_VALUE */
    char name[96];     /* the key or tensor name (printable ASCII; cut to fit) */
    char expected[96]; /* what master wants: a type ("u32"), a shape ("[1024, 2048]"), a value; or "" */
    char found[96];    /* what the file has, in the same terms; or "" */
} lgg_load_issue;

typedef struct lgg_load_check {
    uint32_t verdict;  /* LGG_LOAD_LOADS, LGG_LOAD_REFUSED, LGG_LOAD_NO_TABLE */
    char arch[64];     /* general.architecture (printable ASCII; cut to fit), "" when absent */
    uint32_t n_issues; /* all issues found; the first LGG_LOAD_MAX_ISSUES are in `issues` */
    lgg_load_issue issues[LGG_LOAD_MAX_ISSUES];
    uint64_t n_tensors_expected; /* tensors master would create from this file (0 when not reached) */
} lgg_load_check;

/* Check a parsed file as llama.cpp master's llama_model_load_from_file does, in its order:
 * 0. every tensor's data within the file (llama_model_loader's first check, whatever the
 *    architecture; a file opened with LGG_OPEN_ALLOW_MISSING_DATA can lack it);
 * 1. the hyperparameters (llama_model::load_hparams: the keys it requires, the type of every key
 *    it reads, the values it asserts on);
 * 2. the vocabulary (tokenizer.ggml.model, .tokens, for BPE .merges and a .pre master knows, the
 *    score and token-type arrays, the special token ids' type);
 * 3. the tensors the architecture creates (load_tensors: each required one present, each one
 *    present of master's shape, no tensor master does not create).
 * A stage is checked only when the earlier ones pass (the tensors' shapes come from the keys).
 * Master stops at its first problem; this lists every problem of the stage it stops in, the
 * first one being master's.  The tables cover 114 architectures, listed in docs/validation.md
 * ("Covered architectures"); another architecture gives LGG_LOAD_NO_TABLE and no issues (unless its
 * tensor data is missing).  Not checked: the tensor types (the format's validation checks them).
 * Returns LGG_OK with *out filled (whatever the verdict), LGG_ERR_ARG or LGG_ERR_NOMEM.
 * Thread-safe. */
LGG_API lgg_status lgg_load_check_file(const lgg_file *f, lgg_load_check *out, lgg_error *err);

/* "missing", "wrong type", "wrong shape", "unexpected", "bad value", "no data"; NULL for another value. */
LGG_API const char *lgg_load_problem_name(uint32_t problem);

#endif /* LIBGGUF_LOADCHECK_H */
