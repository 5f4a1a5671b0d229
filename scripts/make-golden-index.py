#!/usr/bin/env python3
"""make-golden-index.py -- the compact copy of the reference material that the
tests use when ../shared is not there (docs/reference.md).

Reads the reference files (made by ggml and llama.cpp, see ../shared/golden/
README.md) and writes, under tests/data/golden/:

  quant.tsv        ../shared/golden/quant/index.tsv with, per output file, its
                   sha256 and the first 8 hex digits of each row's sha256
  quant/           the inputs: input.<case>.f32, input.<case>.imatrix.f32 and
                   random.<type>.bin (copied: tens of KB)
  llama-quantize.json  the runs of ../shared/golden/llama-quantize/
                   *.presets.json without the tensor data's hashes: each
                   run's arguments, exit status, output sha256, keys and
                   types in order, tensor names and types (repeated lists
                   written once: the runs name them by index)
  standin/         the header (everything before the tensor data) of each
                   model the CLI tests open, and standin.tsv: each one's
                   reference size and sha256.  The tests fill the data from
                   a seed (tests/standin.c).
  corpus.tsv       the corpus files of tests/corpus_expect.tsv that a short
  corpus.heads     prefix reproduces: per file its size, sha256, how many
                   of its first bytes corpus.heads holds (all of a file that
                   does not open, the header of one that does or whose
                   tensors overlap: its data is made zeros) and
                   MANIFEST.tsv's counts; the vocabulary
                   files (0.5 to 4 MB of header each) are left out.
  estimate.json    ../shared/golden/estimate/index.json's cases (settings,
                   llama.cpp's bytes, effective settings) and models, each
                   model with the sha256 of its header (the rest is zeros):
                   the model its generator writes, checked here against the
                   whole file's sha256, which tests/estimate/gen_models.py
                   (the same presets) must reproduce.

Usage: scripts/make-golden-index.py [SHARED] (default ../shared, or
$GGUF_SHARED).  Run from the repository's root; rerunning on the same
reference material rewrites the same bytes."""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SHARED = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GGUF_SHARED", "../shared")
OUT = "tests/data/golden"
# (reference, how the stand-in's data is made): "seeded" from each tensor's
# name (tests/standin.c), "seeded-pyswap" (the same, its Q8_0 data swapped to
# big-endian as gguf-py's converter swapped the reference's: rows 34k and
# 34k + 1 as 16-bit words, the other rows left as they were), "zeros" (a file whose tensors overlap, so the seeded
# data has no place), "whole" (the reference itself: a small file, one that
# does not parse, or one whose data is a few bytes after a long header),
# "quant" (ggml's vectors: below).
STANDINS = [
    ("golden/llama-quantize/pub-dense-f16.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-f16.BE.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0.BE.gguf", "seeded-pyswap"),
    ("golden/llama-quantize/pub-dense-Q8_0-split-00001-of-00003.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0-split-00002-of-00003.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0-split-00003-of-00003.gguf", "seeded"),
    ("golden/llama-quantize/pub-moe-f32.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-f16.imatrix.dat", "whole"),
    ("golden/llama-quantize/pub-moe-f32.imatrix.dat", "whole"),
    ("corpus/threatflux-gguf/test_model@0f14d3d7.gguf", "zeros"),
    ("corpus/crabml/tinyllamas-stories-260k-f32@e8579850.gguf", "seeded"),
    ("corpus/ggml/superpoint@1297967f.gguf", "seeded"),
    ("corpus/emel.cpp/lifecycle_integration_smoke_model@fa1b09ec.gguf", "whole"),
    ("corpus/bitnet-rs/bert-base-uncased@edd0518f.gguf", "whole"),
    ("corpus/bitnet-rs/llama2-32k@4c3fe82b.gguf", "whole"),
    ("corpus/bitnet-rs/mini@e11b908a.gguf", "whole"),
    ("corpus/llama.cpp/example@42a152e7.gguf", "whole"),
    ("corpus/llama.cpp/test_writer@30fef3d6.gguf", "whole"),
    ("corpus/ollama/test@f68a3c4b.gguf", "whole"),
    ("corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf", "vocab"),
    ("corpus/llama.cpp/ggml-vocab-llama-spm@658295a5.gguf", "vocab"),
    ("corpus/llama.cpp/ggml-vocab-deepseek-coder@640ee63d.gguf", "vocab"),
    ("corpus/ollama/llama-2-tiny-random@55b2b40c.gguf", "vocab"),
    ("golden/convert/Qwen2.5-Tiny-Test-Instruct.f16.gguf", "vocab"),
]
# A "vocab" stand-in keeps every key and value of a file with a vocabulary but the
# items of its long arrays past the first VOCAB_KEEP: those are made by the
# tests (tests/standin.c), as many, in as many bytes, so every later key is
# where the reference has it.  The .head is then a valid GGUF with those
# arrays cut short; standin.tsv's last column says, per cut array, KEY:COUNT:BYTES
# (the reference's item count and the bytes of its items).  A model's tensor
# infos follow whole, and its data is seeded.
VOCAB_KEEP = 16
def vocab_head(b):
    """The .head of a "vocab" stand-in of the little-endian v3 file b, and its spec."""
    assert b[:4] == b"GGUF" and struct.unpack_from("<I", b, 4)[0] == 3
    n_tensors, n_kv = struct.unpack_from("<QQ", b, 8)
    fixed = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    out, spec, pos = [b[:24]], [], 24

    def item_end(t, at):
        return at + 8 + struct.unpack_from("<Q", b, at)[0] if t == 8 else at + fixed[t]

    for _ in range(n_kv):
        start = pos
        klen = struct.unpack_from("<Q", b, pos)[0]
        key = b[pos + 8:pos + 8 + klen].decode()
        pos += 8 + klen
        t = struct.unpack_from("<I", b, pos)[0]
        pos += 4
        if t != 9:
            pos = item_end(t, pos)
            out.append(b[start:pos])
            continue
        et, count = struct.unpack_from("<IQ", b, pos)
        assert et != 9
        items = pos + 12
        cut, at = items, items
        for i in range(count):
            at = item_end(et, at)
            if i + 1 == VOCAB_KEEP:
                cut = at
        pos = at
        if count <= 4 * VOCAB_KEEP:
            out.append(b[start:pos])
            continue
        out.append(b[start:items - 8] + struct.pack("<Q", VOCAB_KEEP) + b[items:cut])
        spec.append("%s:%d:%d" % (key, count, pos - items))
    infos = pos
    for _ in range(n_tensors):  # kept whole; the data is seeded, as for a "seeded" stand-in
        pos += 8 + struct.unpack_from("<Q", b, pos)[0]
        pos += 4 + 8 * struct.unpack_from("<I", b, pos)[0] + 4 + 8
    assert pos == len(b) or n_tensors
    return b"".join(out) + b[infos:pos], ",".join(spec)


# ggml's files of every type: the header, with the tensors' data rebuilt from
# the quantization vectors (quant.tsv); the file's sha256 checks the whole.
GGML_TYPES = "golden/ggml-types"


def sha(b):
    return hashlib.sha256(b).hexdigest()


def row_prefixes(data, nrows):
    step = len(data) // nrows
    return ",".join(sha(data[r * step:(r + 1) * step])[:8] for r in range(nrows))


def read(rel):
    with open(os.path.join(SHARED, rel), "rb") as f:
        return f.read()


def quant_index():
    lines = read("golden/quant/index.tsv").decode().splitlines()
    out = [lines[0] + "\tsha256\trows"]
    for line in lines[1:]:
        f = line.split("\t")
        data = read("golden/quant/" + f[8])
        assert len(data) == int(f[9]), f[8]
        out.append(line + "\t" + sha(data) + "\t" + row_prefixes(data, int(f[4])))
    os.makedirs(OUT + "/quant", exist_ok=True)
    with open(OUT + "/quant.tsv", "w") as f:
        f.write("\n".join(out) + "\n")
    for name in sorted(os.listdir(os.path.join(SHARED, "golden/quant"))):
        if name.startswith("input.") or name.startswith("random."):
            shutil.copyfile(os.path.join(SHARED, "golden/quant", name), OUT + "/quant/" + name)


# ---- GGUF headers (enough of the format to find where the data starts) ----

def gguf_data_offset(b):
    """Offset of the tensor data in the GGUF file b, and its byte order."""
    end = "<" if struct.unpack_from("<I", b, 4)[0] < 0x10000 else ">"
    v1 = struct.unpack_from(end + "I", b, 4)[0] == 1  # counts and lengths are 32-bit
    pos = 8
    align = 32

    def u64():
        nonlocal pos
        v = struct.unpack_from(end + ("I" if v1 else "Q"), b, pos)[0]
        pos += 4 if v1 else 8
        return v

    n_tensors, n_kv = u64(), u64()

    def string():
        nonlocal pos
        n = u64()
        s = b[pos:pos + n]
        pos += n
        return s

    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

    def value(t):
        nonlocal pos
        if t == 8:
            return string()
        if t == 9:
            et = struct.unpack_from(end + "I", b, pos)[0]
            pos += 4
            for _ in range(u64()):
                value(et)
            return None
        v = b[pos:pos + sizes[t]]
        pos += sizes[t]
        return v

    for _ in range(n_kv):
        key = string()
        t = struct.unpack_from(end + "I", b, pos)[0]
        pos += 4
        v = value(t)
        if key == b"general.alignment":
            align = struct.unpack(end + "I", v)[0]
    for _ in range(n_tensors):
        string()
        nd = struct.unpack_from(end + "I", b, pos)[0]
        pos += 4 + (4 if v1 else 8) * nd + 4 + 8
    return (pos + align - 1) // align * align


def quantize_runs():
    """The llama-quantize runs (what test_quant_model.c checks without
    ../shared): the key lists and tensor name lists written once."""
    out = {"reference": None, "kvs": [], "names": [], "models": {}}
    for fn in ("pub-dense-f16.presets.json", "pub-moe-f32.presets.json"):
        d = json.loads(read("golden/llama-quantize/" + fn))
        out["reference"] = d["reference"]
        runs = []
        for r in d["runs"]:
            run = {k: r[k] for k in ("model", "args", "preset", "tag", "rc")}
            if "tensors" in r:
                kvs = [list(kv) for kv in r["kvs"]]
                names = [t[0] for t in r["tensors"]]
                for key, val in (("kvs", kvs), ("names", names)):
                    if val not in out[key]:
                        out[key].append(val)
                    run[key] = out[key].index(val)
                run["file_sha256"] = r["file_sha256"]
                run["types"] = " ".join(t[1] for t in r["tensors"])
            runs.append(run)
        out["models"][fn] = runs
    with open(OUT + "/llama-quantize.json", "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


def standins():
    os.makedirs(OUT + "/standin", exist_ok=True)
    rows = ["reference\tbytes\tsha256\thead_bytes\tdata\tarrays"]
    types = sorted(os.listdir(os.path.join(SHARED, GGML_TYPES)))
    for rel, data in STANDINS + [(GGML_TYPES + "/" + n, "quant") for n in types if n.endswith(".gguf")]:
        b = read(rel)
        spec = ""
        if data == "vocab":
            head, spec = vocab_head(b)
        else:
            head = b[:len(b) if data == "whole" else gguf_data_offset(b)]
        assert len(head) <= len(b), rel
        name = os.path.basename(rel)
        with open(OUT + "/standin/" + name + ".head", "wb") as f:
            f.write(head)
        rows.append("%s\t%d\t%s\t%d\t%s" % (rel, len(b), sha(b), len(head), data) + ("\t" + spec if spec else ""))
    with open(OUT + "/standin/standin.tsv", "w") as f:
        f.write("\n".join(rows) + "\n")


# A corpus file is reproduced from at most this many of its first bytes.
CORPUS_HEAD_MAX = 64 << 10


def corpus():
    manifest = {}
    for line in read("corpus/MANIFEST.tsv").decode().splitlines()[1:]:
        f = line.split("\t")
        manifest[f[0]] = f
    rows = ["path\tbytes\tsha256\thead_bytes\tdata\tversion\tn_tensors\tn_kv\tboth_references_accept"]
    heads = []
    with open("tests/corpus_expect.tsv") as x:
        expect = [line.rstrip("\n").split("\t")[:2] for line in x if "\t" in line]
    for rel, verdict in expect:
        b = read("corpus/" + rel)
        if verdict in ("ok", "tensor-overlap"):  # the header decides; the data can be zeros
            off, data = min(gguf_data_offset(b), len(b)), "zeros"
        elif verdict == "bad-magic":
            off, data = 8, "zeros"  # the magic decides: the rest is never read
        else:
            off, data = len(b), "whole"
        if off > CORPUS_HEAD_MAX:
            continue
        m = manifest[rel]
        both = "yes" if m[12] == "ok" and m[13].startswith("ok") else "no"
        counts = [c or "-" for c in m[6:9]]  # the manifest has none for a file that does not parse
        rows.append("\t".join([rel, str(len(b)), sha(b), str(off), data] + counts + [both]))
        heads.append(b[:off])
    with open(OUT + "/corpus.tsv", "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(OUT + "/corpus.heads", "wb") as f:
        f.write(b"".join(heads))


def estimate():
    index = json.loads(read("golden/estimate/index.json"))
    gen = os.path.join(SHARED, "golden/estimate", index["generator"]["path"])
    models = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, m in sorted(index["models"].items()):
            path = os.path.join(tmp, name)
            subprocess.run([sys.executable, gen, m["preset"], path], check=True, stdout=subprocess.DEVNULL)
            whole, head = hashlib.sha256(), None
            with open(path, "rb") as f:
                head = f.read(m["data_offset"])
                whole.update(head)
                for chunk in iter(lambda: f.read(1 << 24), b""):
                    assert chunk.count(0) == len(chunk), name  # the data is zeros
                    whole.update(chunk)
            assert whole.hexdigest() == m["sha256"] and os.path.getsize(path) == m["bytes"], name
            models[name] = {"preset": m["preset"], "bytes": m["bytes"], "data_offset": m["data_offset"],
                            "sha256": m["sha256"], "header_sha256": sha(head)}
    keep = {"settings": None, "effective": None,
            "bytes": ("weights_total", "kv_k", "kv_v", "output", "compute_total", "total")}
    cases = []
    for c in index["cases"]:
        row = {"id": c["id"], "model": c["model"]}
        for k, fields in keep.items():
            row[k] = c[k] if fields is None else {f: c[k][f] for f in fields}
        cases.append(row)
    out = {"about": "Compact copy of ../shared/golden/estimate/index.json (scripts/make-golden-index.py): "
                    "llama.cpp b4747's bytes per case; each model's header sha256 (its data is zeros)",
           "models": models, "cases": cases}
    with open(OUT + "/estimate.json", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    shutil.copyfile(os.path.join(SHARED, "ggml-public-names.txt"), "tests/data/ggml-public-names.txt")
    quant_index()
    quantize_runs()
    standins()
    corpus()
    estimate()
