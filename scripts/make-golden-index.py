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

Usage: scripts/make-golden-index.py [SHARED] (default ../shared, or
$GGUF_SHARED).  Run from the repository's root; rerunning on the same
reference material rewrites the same bytes."""
import hashlib
import json
import os
import shutil
import struct
import sys

SHARED = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GGUF_SHARED", "../shared")
OUT = "tests/data/golden"
# (reference, how the stand-in's data is made): "seeded" from each tensor's
# name (tests/standin.c), "zeros" (a file whose tensors overlap, so the seeded
# data has no place), "whole" (the reference itself: a small file, one that
# does not parse, or one whose data is a few bytes after a long header),
# "quant" (ggml's vectors: below).
STANDINS = [
    ("golden/llama-quantize/pub-dense-f16.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-f16.BE.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0.gguf", "seeded"),
    ("golden/llama-quantize/pub-dense-Q8_0.BE.gguf", "seeded"),
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
]
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
    rows = ["reference\tbytes\tsha256\thead_bytes\tdata"]
    types = sorted(os.listdir(os.path.join(SHARED, GGML_TYPES)))
    for rel, data in STANDINS + [(GGML_TYPES + "/" + n, "quant") for n in types if n.endswith(".gguf")]:
        b = read(rel)
        off = len(b) if data == "whole" else gguf_data_offset(b)
        assert off <= len(b), rel
        name = os.path.basename(rel)
        with open(OUT + "/standin/" + name + ".head", "wb") as f:
            f.write(b[:off])
        rows.append("%s\t%d\t%s\t%d\t%s" % (rel, len(b), sha(b), off, data))
    with open(OUT + "/standin/standin.tsv", "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    shutil.copyfile(os.path.join(SHARED, "ggml-public-names.txt"), "tests/data/ggml-public-names.txt")
    quant_index()
    quantize_runs()
    standins()
