#!/usr/bin/env python3
"""make-vocab-standins.py -- reduced copies of llama.cpp's vocabulary GGUFs
(../shared/corpus/llama.cpp/ggml-vocab-*.gguf, llama.cpp b4747's
models/ggml-vocab-*.gguf) for the tokenizer tests when ../shared is not there
(docs/reference.md).

A reduced vocabulary keeps every token id, so ids are unchanged, but only the
entries that can take part in tokenizing the tests' texts (texts.inp, the CLI
cases' texts, compare_bert.txt, the converter's check text):
  BPE  the merges whose result is a substring of an input (byte-level form),
       ranks kept in order, and every token that is such a substring;
  SPM  every token that is a substring of an input (spaces as U+2581), or
       U+2581 and such a substring (a fragment after a special token
       starts with one);
  WPM  every token that is a substring of an input (lowercased, accents
       stripped; a word-start token's U+2581 aside);
and, for all, every unknown, control, user-defined and byte token, the
special ids the file names and the ids the CLI cases detokenize.  The other
ids are left out; tests/vocab_standin.c gives them placeholder texts that no
text can match (type UNUSED).  The compact file is a small GGUF: the
reference's keys with the token arrays cut to the kept entries, plus
test.vocab.ids (their ids), test.vocab.n_tokens and test.vocab.sha256 (the
reference's).

Before writing, the script checks with libgguf-tokenize (build/, through
ctypes) that the reduced vocabulary, expanded as the tests expand it, gives
the reference's ids for every input, both without specials and with
add-special + parse-special.  Writes tests/data/golden/vocab/NAME.gguf and
tests/data/golden/vocab/vocab.tsv (reference, bytes, sha256, compact file).

Usage: scripts/make-vocab-standins.py [SHARED] (default ../shared or
$GGUF_SHARED), from the repository's root after `make`.  Rerunning on the
same reference material rewrites the same bytes."""
import ast
import ctypes
import glob
import hashlib
import json
import os
import re
import struct
import sys
import unicodedata

SHARED = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GGUF_SHARED", "../shared")
OUT = "tests/data/golden/vocab"
BUILD = os.environ.get("GGUF_BUILD", "build")
SEP = b"\n__ggml_vocab_test__\n"
# token types (llama.cpp): 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte
KEEP_TYPES = (2, 3, 4, 6)

# ---- GGUF, as much as a vocabulary file needs ----

SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def gguf_read(b):
    """[(key, type, value)] of a little-endian GGUF v2/v3's keys;
    an array's value is (element type, [items])."""
    assert b[:4] == b"GGUF" and struct.unpack_from("<I", b, 4)[0] in (2, 3)
    n_kv = struct.unpack_from("<Q", b, 16)[0]  # the tensor infos after the keys are not read
    pos = 24

    def string():
        nonlocal pos
        n = struct.unpack_from("<Q", b, pos)[0]
        s = b[pos + 8:pos + 8 + n]
        pos += 8 + n
        return s

    def value(t):
        nonlocal pos
        if t == 8:
            return string()
        if t == 9:
            et, n = struct.unpack_from("<IQ", b, pos)
            pos += 12
            return (et, [value(et) for _ in range(n)])
        v = struct.unpack_from("<" + SCALAR[t], b, pos)[0]
        pos += struct.calcsize(SCALAR[t])
        return v

    kvs = []
    for _ in range(n_kv):
        k = string()
        t = struct.unpack_from("<I", b, pos)[0]
        pos += 4
        kvs.append((k.decode(), t, value(t)))
    return kvs


def gguf_write(kvs):
    out = [b"GGUF", struct.pack("<IQQ", 3, 0, len(kvs))]

    def string(s):
        out.append(struct.pack("<Q", len(s)) + s)

    def value(t, v):
        if t == 8:
            string(v)
        elif t == 9:
            et, items = v
            out.append(struct.pack("<IQ", et, len(items)))
            if et == 8:
                for s in items:
                    string(s)
            else:
                out.append(struct.pack("<%d%s" % (len(items), SCALAR[et]), *items))
        else:
            out.append(struct.pack("<" + SCALAR[t], v))

    for k, t, v in kvs:
        string(k.encode())
        out.append(struct.pack("<I", t))
        value(t, v)
    b = b"".join(out)
    return b + b"\0" * (-len(b) % 32)


def placeholder(i):
    """The text tests/vocab_standin.c gives a left-out id (U+E000, the id,
    U+E001: private-use code points no test text holds)."""
    return b"\xee\x80\x80" + str(i).encode() + b"\xee\x80\x81"


def expand(compact):
    """The full vocabulary, as tests/vocab_standin.c makes it from the compact one."""
    kv = {k: (t, v) for k, t, v in compact}
    ids = kv["test.vocab.ids"][1][1]
    n = kv["test.vocab.n_tokens"][1]
    out = []
    for k, t, v in compact:
        if k.startswith("test.vocab."):
            continue
        if k in ("tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type"):
            fill = {"tokenizer.ggml.tokens": None, "tokenizer.ggml.scores": 0.0, "tokenizer.ggml.token_type": 5}[k]
            full = [placeholder(i) if fill is None else fill for i in range(n)]
            for j, i in enumerate(ids):
                full[i] = v[1][j]
            v = (v[0], full)
        out.append((k, t, v))
    return out


# ---- the inputs ----

def check_text():
    """convert_hf_to_gguf.py's chktxt, from src/convert/bpe.c."""
    src = open("src/convert/bpe.c", encoding="utf-8").read()
    body = re.search(r"CHECK_TEXT\[\] =(.*?);\n", src, re.S).group(1)
    return b"".join(ast.literal_eval("b" + m) for m in re.findall(r'"(?:[^"\\]|\\.)*"', body))


def cli_cases():
    """{corpus file name: (texts, ids)} from tests/cli/*.cmd cases naming one"""
    cases = {}
    for cmd in sorted(glob.glob("tests/cli/*tokenize*.cmd")):
        args = open(cmd, "rb").read().split(b"\n")
        files = [a.rsplit(b"/", 1)[1].decode() for a in args if b"ggml-vocab" in a and a.startswith(b"@VOCAB@")]
        if not files:
            continue
        texts, ids = cases.setdefault(files[0], ([], set()))
        for j, a in enumerate(args[1:], 1):
            if args[j - 1] == b"-f":
                texts.append(open(a, "rb").read())
            elif not a or b"ggml-vocab" in a or a.startswith(b"-") or a.startswith(b"@"):
                continue
            elif args[0] == b"detokenize":
                ids.update(int(x) for x in re.findall(rb"\d+", a))
            else:
                texts.append(a)
        stdin = cmd[:-4] + ".stdin"
        if os.path.exists(stdin):
            name = open(stdin, "rb").read().strip().decode()
            data = open(name[5:] if name.startswith("pipe:") else name, "rb").read()
            if args[0] == b"detokenize":
                ids.update(int(x) for x in re.findall(rb"\d+", data))
            else:
                texts.append(data)
    return cases


def all_texts():
    texts = open("tests/tokenize/texts.inp", "rb").read().split(SEP)
    texts += [check_text(), "\u010a".encode()]
    for f in ("tests/tokenize/stdin.txt", "tests/tokenize/beyond.txt"):
        texts.append(open(f, "rb").read())
    texts += open("tests/tokenize/compare_bert.txt", "rb").read().split(b"\n")  # tokenize_compare_bert's
    for t, _ in cli_cases().values():
        texts += t
    texts.append(b" ".join(texts))
    return texts


# ---- the reduction ----

def byte_encoder():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


def forms(model, texts):
    """the strings a kept token must be a substring of, joined"""
    out = []
    enc = byte_encoder()
    for t in texts:
        variants = {t.decode("utf-8", "replace")}
        s0 = next(iter(variants))
        variants.add(unicodedata.normalize("NFC", s0))
        variants.add("".join(c for c in s0 if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf")))
        for s in list(variants):
            if model == "gpt2":
                out.append("".join(enc[c] for c in s.encode()))
            elif model == "llama":
                out.append("\u2581" + s.replace(" ", "\u2581"))
                out.append(s)
            else:
                low = s.lower()
                strip = "".join(c for c in unicodedata.normalize("NFD", low) if unicodedata.category(c) != "Mn")
                out += [s, low, strip, unicodedata.normalize("NFD", low)]
        if model == "gpt2":
            out.append("".join(enc[c] for c in t))
    return "\x00".join(out)


def reduce(path, texts, keep_ids, only=""):
    """the compact form of vocabulary file PATH (its keys starting with ONLY)"""
    kvs = [kv for kv in gguf_read(open(path, "rb").read()) if kv[0].startswith(only)]
    kv = {k: (t, v) for k, t, v in kvs}
    model = kv["tokenizer.ggml.model"][1].decode()
    toks = kv["tokenizer.ggml.tokens"][1][1]
    types = kv.get("tokenizer.ggml.token_type", (9, (5, [1] * len(toks))))[1][1]
    big = forms(model, texts)
    keep = {i for i in keep_ids if 0 <= i < len(toks)}
    keep.update(v for k, (t, v) in kv.items() if k.endswith("_token_id") and t in (4, 5) and 0 <= v < len(toks))
    for i, s in enumerate(toks):
        text = s.decode("utf-8", "replace")
        if types[i] in KEEP_TYPES:
            keep.add(i)
        elif model in ("bert", "llama") and text.startswith("\u2581"):
            if text[1:] in big:
                keep.add(i)
        elif text in big:
            keep.add(i)
    ids = sorted(keep)
    out = []
    for k, t, v in kvs:
        if k in ("tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type"):
            v = (v[0], [v[1][i] for i in ids])
        elif k == "tokenizer.ggml.merges":
            v = (v[0], [m for m in v[1] if m.decode("utf-8", "replace").replace(" ", "", 1) in big])
        out.append((k, t, v))
    sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
    out += [("test.vocab.n_tokens", 4, len(toks)), ("test.vocab.ids", 9, (4, ids)),
            ("test.vocab.sha256", 8, sha.encode())]
    return out, len(ids), len(toks)


# ---- the check, with libgguf-tokenize ----

class Tok:
    def __init__(self):
        ctypes.CDLL(os.path.join(BUILD, "libgguf.so"), mode=ctypes.RTLD_GLOBAL)
        self.lib = ctypes.CDLL(os.path.join(BUILD, "libgguf-tokenize.so"))
        self.lib.lgg_tokenize.restype = ctypes.c_int64
        self.lib.lgg_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint,
                                          ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        self.lib.lgg_tokenizer_free.argtypes = [ctypes.c_void_p]
        self.lib.lgg_tokenizer_open_dir.argtypes = [ctypes.c_char_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        self.err = ctypes.create_string_buffer(512)

    def open(self, data):
        f, t = ctypes.c_void_p(), ctypes.c_void_p()
        buf = ctypes.create_string_buffer(data, len(data))
        rc = ctypes.CDLL(os.path.join(BUILD, "libgguf.so")).lgg_open_memory(buf, ctypes.c_size_t(len(data)), None,
                                                                             ctypes.byref(f), self.err)
        if rc:
            return None
        rc = self.lib.lgg_tokenizer_open_gguf(f, ctypes.byref(t), self.err)
        ctypes.CDLL(os.path.join(BUILD, "libgguf.so")).lgg_close(f)
        return t if rc == 0 else None

    def ids(self, t, text, flags):
        k = self.lib.lgg_tokenize(t, text, len(text), flags, None, 0, self.err)
        if k < 0:
            return "ERROR %d" % k
        arr = (ctypes.c_int32 * max(k, 1))()
        self.lib.lgg_tokenize(t, text, len(text), flags, arr, k, self.err)
        return list(arr[:k])


# ---- SentencePiece tokenizer.model files (tests/test_tokspm.c) ----
# The golden checkpoints' models: a small one copied whole, a large one
# reduced as an SPM vocabulary is: its pieces that are substrings of a text
# (or U+2581 and one), and every unknown, control, user-defined and byte piece.
SPM_MODELS = [("golden/convert/gemma-2-tiny-12L-test/tokenizer.model", "whole"),
              ("golden/convert/TinyLlama-2-Test-2x32/tokenizer.model", "reduced")]
SPM_OUT = "tests/data/golden/spm"


def pb_varint(b, pos):
    v = shift = 0
    while True:
        c = b[pos]
        pos += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, pos


def pb_fields(b):
    """(field number, the field's whole bytes, its payload) of each top-level field"""
    pos = 0
    while pos < len(b):
        start = pos
        key, pos = pb_varint(b, pos)
        wt = key & 7
        if wt == 0:
            _, pos = pb_varint(b, pos)
            payload = None
        elif wt == 1 or wt == 5:
            pos += 8 if wt == 1 else 4
            payload = None
        else:
            assert wt == 2
            n, pos = pb_varint(b, pos)
            payload = b[pos:pos + n]
            pos += n
        yield key >> 3, b[start:pos], payload


def pb_piece(payload):
    """(text, type) of a SentencePiece message (type NORMAL when absent)"""
    text, ty = b"", 1
    for num, raw, pl in pb_fields(payload):
        if num == 1:
            text = pl
        elif num == 3:
            ty = pb_varint(raw, 1)[0]
    return text, ty


def pb_len(n):
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def spm_placeholder(i):
    """a piece no text matches, score 0, type UNUSED: as tests/test_tokspm.c writes it"""
    t = placeholder(i)
    inner = b"\x0a" + pb_len(len(t)) + t + b"\x15\0\0\0\0\x18\x05"
    return b"\x0a" + pb_len(len(inner)) + inner


def spm_expand(compact, ids, n):
    pieces = [f[1] for f in pb_fields(compact) if f[0] == 1]
    rest = [f[1] for f in pb_fields(compact) if f[0] != 1]
    full = [spm_placeholder(i) for i in range(n)]
    for j, i in enumerate(ids):
        full[i] = pieces[j]
    return b"".join(full + rest)


def spm_texts():
    texts = open("tests/tokenize/texts.inp", "rb").read().split(SEP)
    return texts + open("tests/tokenize/spm_texts.txt", "rb").read().split(b"\n")


def spm_reduce(data):
    big = forms("llama", spm_texts())
    pieces, rest, ids = [], [], []
    i = 0
    for num, raw, pl in pb_fields(data):
        if num != 1:
            rest.append(raw)
            continue
        text, ty = pb_piece(pl)
        t = text.decode("utf-8", "replace")
        if ty not in (1, 5) or t in big or (t.startswith("\u2581") and t[1:] in big):
            pieces.append(raw)
            ids.append(i)
        i += 1
    return b"".join(pieces + rest), ids, i


def spm_open(tok, data):
    d = "/tmp/make-vocab-standins.%d" % os.getpid()
    os.makedirs(d, exist_ok=True)
    with open(d + "/tokenizer.model", "wb") as f:
        f.write(data)
    t = ctypes.c_void_p()
    rc = tok.lib.lgg_tokenizer_open_dir(d.encode(), 0, ctypes.byref(t), tok.err)
    os.remove(d + "/tokenizer.model")
    os.rmdir(d)
    return t if rc == 0 else None


def spm_models(tok):
    os.makedirs(SPM_OUT, exist_ok=True)
    rows = ["reference\tbytes\tsha256\tform\tpieces\tkept ids"]
    for rel, form in SPM_MODELS:
        data = open(os.path.join(SHARED, rel), "rb").read()
        name = rel.split("/")[-2]
        sha = hashlib.sha256(data).hexdigest()
        if form == "whole":
            with open(os.path.join(SPM_OUT, name + ".model"), "wb") as f:
                f.write(data)
            rows.append("%s\t%d\t%s\twhole\t-\t-" % (rel, len(data), sha))
            continue
        compact, ids, n = spm_reduce(data)
        a, b = spm_open(tok, data), spm_open(tok, spm_expand(compact, ids, n))
        assert a and b, name
        diff = [t for t in spm_texts() for f in (0, 1) if tok.ids(a, t, f) != tok.ids(b, t, f)]
        tok.lib.lgg_tokenizer_free(a)
        tok.lib.lgg_tokenizer_free(b)
        print("%-45s %6d of %6d pieces kept, %7d bytes, %d texts differ" % (name, len(ids), n, len(compact), len(diff)))
        if diff:
            sys.exit("%s: the reduced model differs from the reference: %r" % (name, diff[0][:60]))
        with open(os.path.join(SPM_OUT, name + ".model"), "wb") as f:
            f.write(compact)
        rows.append("%s\t%d\t%s\treduced\t%d\t%s" % (rel, len(data), sha, n, ",".join(map(str, ids))))
    with open(os.path.join(SPM_OUT, "spm.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


# ---- the golden Qwen2.5 checkpoint's tokenizer (tokenize_pre_qwen25_golden,
# tokenize_compare): its tokenizer.json reduced (the vocabulary entries and
# merges the texts reach, every added token; ids are the file's own) with
# its tokenizer_config.json, and the reference converter's GGUF's tokenizer
# keys reduced as above ----
QWEN = "golden/convert/Qwen2.5-Tiny-Test-Instruct"
QWEN_OUT = "tests/data/golden/qwen25"


def compare_texts():
    """gguf tokenize --compare's built-in texts (tools/cmd_tokenize.c), one a line"""
    src = open("tools/cmd_tokenize.c", encoding="utf-8").read()
    body = re.search(r"COMPARE_TEXTS\[\] = \{(.*?)\n\};", src, re.S).group(1)
    return ["".join(ast.literal_eval(m) for m in re.findall(r'"(?:[^"\\]|\\.)*"', line)).encode()
            for line in body.split("\n") if '"' in line]


def qwen_texts():
    return [check_text()] + compare_texts() + [b"Hello world", b"1234567"]


def qwen_json(j, texts):
    big = forms("gpt2", texts)
    added = {a["id"] for a in j["added_tokens"]}
    m = j["model"]
    m["vocab"] = {t: i for t, i in m["vocab"].items() if t in big or i in added}
    m["merges"] = [x for x in m["merges"] if (x.replace(" ", "", 1) if isinstance(x, str) else "".join(x)) in big]
    return (json.dumps(j, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def qwen_dir_ids(tok, files, texts):
    d = "/tmp/make-vocab-standins.%d" % os.getpid()
    os.makedirs(d, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    t = ctypes.c_void_p()
    ok = tok.lib.lgg_tokenizer_open_dir(d.encode(), 0, ctypes.byref(t), tok.err) == 0
    ids = [tok.ids(t, x, 3) for x in texts] if ok else None
    hash_ = ctypes.create_string_buffer(65)
    pre = ctypes.c_char_p()
    conv = ctypes.CDLL(os.path.join(BUILD, "libgguf-convert.so"))
    conv.lgg_convert_bpe_pre(d.encode(), ctypes.byref(pre), hash_, tok.err)
    tok.lib.lgg_tokenizer_free(t)
    for name in files:
        os.remove(os.path.join(d, name))
    os.rmdir(d)
    return ids, hash_.value


def qwen(tok):
    texts = qwen_texts()
    src = os.path.join(SHARED, QWEN)
    real = {n: open(os.path.join(src, n), "rb").read() for n in ("tokenizer.json", "tokenizer_config.json")}
    small = dict(real)
    small["tokenizer.json"] = qwen_json(json.loads(real["tokenizer.json"]), texts)
    a, b = qwen_dir_ids(tok, real, texts), qwen_dir_ids(tok, small, texts)
    gguf = src + ".f16.gguf"
    compact, kept, n = reduce(gguf, texts, set(), "tokenizer.")
    g1, g2 = tok.open(open(gguf, "rb").read()), tok.open(gguf_write(expand(compact)))
    gdiff = sum(tok.ids(g1, t, 3) != tok.ids(g2, t, 3) for t in texts)
    tok.lib.lgg_tokenizer_free(g1)
    tok.lib.lgg_tokenizer_free(g2)
    print("%-45s tokenizer.json %d bytes, check hash %s; GGUF %d of %d tokens kept, %d texts differ" %
          (QWEN, len(small["tokenizer.json"]), b[1].decode(), kept, n, gdiff))
    if a != b or gdiff or not a[0]:
        sys.exit("%s: the reduced tokenizer differs from the reference" % QWEN)
    os.makedirs(QWEN_OUT, exist_ok=True)
    for name, data in small.items():
        with open(os.path.join(QWEN_OUT, name), "wb") as f:
            f.write(data)
    with open(os.path.join(QWEN_OUT, "vocab.gguf"), "wb") as f:
        f.write(gguf_write(compact))


def main():
    expects = sorted(glob.glob("tests/tokenize/expect/ggml-vocab-*.txt"))
    refs = []
    for e in expects:
        name, sha = os.path.basename(e)[:-4].split("@")
        for p in sorted(glob.glob(os.path.join(SHARED, "corpus/llama.cpp", name + "@*.gguf"))):
            if hashlib.sha256(open(p, "rb").read()).hexdigest().startswith(sha):
                refs.append(p)
    texts = all_texts()
    cases = cli_cases()
    tok = Tok()
    os.makedirs(OUT, exist_ok=True)
    rows = ["reference\tbytes\tsha256\tcompact"]
    for p in refs:
        base = os.path.basename(p)
        data = open(p, "rb").read()
        compact, kept, n = reduce(p, texts, cases.get(base, ([], set()))[1])
        full = gguf_write(expand(compact))
        a, b = tok.open(data), tok.open(full)
        if not a or not b:
            assert not a and not b, base  # both refused, or neither
            bad = 0
        else:
            add = 1 | 2
            diff = [(t, f) for t in texts for f in (0, add) if tok.ids(a, t, f) != tok.ids(b, t, f)]
            for t, f in diff[:3]:
                print("  differs (flags %d): %r\n    reference %s\n    reduced   %s" % (f, t[:80], tok.ids(a, t, f)[:40],
                                                                                   tok.ids(b, t, f)[:40]))
            bad = len(diff)
        tok.lib.lgg_tokenizer_free(a)
        tok.lib.lgg_tokenizer_free(b)
        small = gguf_write(compact)
        print("%-45s %6d of %6d tokens kept, %7d bytes, %d texts differ" % (base, kept, n, len(small), bad))
        if bad:
            sys.exit("%s: the reduced vocabulary differs from the reference" % base)
        with open(os.path.join(OUT, base), "wb") as f:
            f.write(small)
        rows.append("corpus/llama.cpp/%s\t%d\t%s\t%s" % (base, len(data), hashlib.sha256(data).hexdigest(), base))
    with open(os.path.join(OUT, "vocab.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    spm_models(tok)
    qwen(tok)


if __name__ == "__main__":
    main()
