#!/usr/bin/env python3
# Small test inputs written by gguf-py's own writer (llama.cpp b4747), each in
# the shape the llama.cpp tool named beside it writes.  Regenerate with:
#   PYTHONPATH=/path/to/llama.cpp-b4747/gguf-py /usr/bin/python3 tests/data/gen_gguf_py.py tests/data
# (Debian's python3 with python3-numpy).  See tests/data/README.md.
import sys
from pathlib import Path

import numpy as np
import gguf

out = Path(sys.argv[1])


def finish(w):
    # convert_hf_to_gguf.py's write(): header, metadata, tensor infos, data;
    # the data section is padded to the alignment even without tensors
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def vocab(w):
    w.add_tokenizer_model("llama")
    w.add_token_list(["<unk>", "<s>", "</s>", "a", "b"])
    w.add_token_scores([0.0, 0.0, 0.0, -1.0, -2.0])
    w.add_token_types([2, 3, 3, 1, 1])


# a vocabulary and no weights, written through the full writer path (padded
# after the header, as convert_hf_to_gguf.py and ggml write a file)
w = gguf.GGUFWriter(out / "vocab-padded.gguf", "llama")
w.add_type(gguf.GGUFType.MODEL)
w.add_name("Tiny Vocab")
vocab(w)
finish(w)

# a LoRA adapter as convert_lora_to_gguf.py writes it
w = gguf.GGUFWriter(out / "lora-adapter.gguf", "llama")
w.add_type(gguf.GGUFType.ADAPTER)
w.add_string(gguf.Keys.Adapter.TYPE, "lora")
w.add_float32(gguf.Keys.Adapter.LORA_ALPHA, 16.0)
w.add_name("Tiny Lora")
w.add_tensor("blk.0.attn_q.weight.lora_a", np.arange(32, dtype=np.float32).reshape(4, 8))
w.add_tensor("blk.0.attn_q.weight.lora_b", np.arange(32, dtype=np.float32).reshape(8, 4))
finish(w)

# a multimodal projector as examples/llava/convert_image_encoder_to_gguf.py writes it
w = gguf.GGUFWriter(out / "mmproj-clip.gguf", "clip")
w.add_bool("clip.has_text_encoder", False)
w.add_bool("clip.has_vision_encoder", True)
w.add_bool("clip.has_llava_projector", True)
w.add_file_type(0)
w.add_name("Tiny Projector")
w.add_description("image encoder for LLaVA")
w.add_string("clip.projector_type", "mlp")
w.add_uint32("clip.vision.image_size", 8)
w.add_uint32("clip.vision.patch_size", 4)
w.add_tensor("v.patch_embd.weight", np.ones((4, 3, 4, 4), dtype=np.float32))
w.add_tensor("mm.0.weight", np.ones((8, 4), dtype=np.float32))
finish(w)

# an importance matrix in llama-imatrix's GGUF layout (general.type imatrix,
# no architecture; NAME.in_sum2 and NAME.counts per matrix)
w = gguf.GGUFWriter(out / "imatrix-tiny.gguf", "")  # an empty architecture is not written
w.add_type("imatrix")
w.add_array("imatrix.datasets", ["wiki.train.raw"])
w.add_uint32("imatrix.chunk_count", 10)
w.add_uint32("imatrix.chunk_size", 512)
w.add_tensor("blk.0.attn_q.weight.in_sum2", np.full((1, 8), 2.0, dtype=np.float32))
w.add_tensor("blk.0.attn_q.weight.counts", np.full((1, 1), 10.0, dtype=np.float32))
finish(w)

# the corners of gguf_dump.py --markdown, written byte by byte (gguf-py's
# writer refuses empty arrays): empty and nested arrays, every scalar type,
# floats around the exponent cut-offs, strings with backticks, tabs,
# newlines and multi-byte characters near the shortening limits, tensor
# names in every group gguf_dump.py knows
import struct

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
PACK = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f", BOOL: "<B", U64: "<Q",
        I64: "<q", F64: "<d"}


def s(x):
    b = x.encode("utf-8") if isinstance(x, str) else x
    return struct.pack("<Q", len(b)) + b


def val(t, v):
    if t == STR:
        return s(v)
    if t == ARR:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(val(et, i) for i in items)
    return struct.pack(PACK[t], v)


kvs = [
    ("general.architecture", STR, "edge"),
    ("edge.empty", ARR, (U32, [])),
    ("edge.empty_strings", ARR, (STR, [])),
    ("edge.nested", ARR, (ARR, [(I32, [1, 2]), (I32, [3])])),
    ("edge.nested_first_empty", ARR, (ARR, [(I32, []), (I32, [5])])),
    ("edge.bools", ARR, (BOOL, [1, 0, 2])),
    ("edge.true", BOOL, 1), ("edge.false", BOOL, 0),
    ("edge.u8", U8, 255), ("edge.i8", I8, -128), ("edge.u16", U16, 65535), ("edge.i16", I16, -32768),
    ("edge.u32", U32, 4294967295), ("edge.i32", I32, -2147483648),
    ("edge.u64", U64, 18446744073709551615), ("edge.i64", I64, -9223372036854775808),
]
for i, x in enumerate([1e-5, 1e-4, 1.234e-4, 9.99e-5, 1e16, 9.999e15, 3.4028235e38, -0.0, float("nan"),
                       float("inf"), float("-inf"), 1.5, 123456789.0, 1e-45, 0.1, 16777217.0]):
    kvs.append(("edge.f32_%d" % i, F32, x))
for i, x in enumerate([1e-5, 1e-4, 0.1, 1e22, 1e-300, 5e-324, 1e16, 123456789012345.6]):
    kvs.append(("edge.f64_%d" % i, F64, x))
kvs += [
    ("edge.floats", ARR, (F32, [0.5, 1e-5, 2.0, 3.25, 1e20, -7.0, 0.1, 8.0])),
    ("edge.ticks", STR, "`code`"), ("edge.double_tick", STR, "a``b"), ("edge.tab", STR, "tab\there"),
    ("edge.newline", STR, "line\nbreak"), ("edge.sixty", STR, "é" * 60), ("edge.sixty_one", STR, "é" * 61),
    ("edge.long", STR, "".join(chr(ord("a") + i % 26) for i in range(100))),
    ("edge.long_ticks", STR, "`" * 40 + "x" * 40), ("edge.ключ", STR, "значение"),
    ("edge.strings", ARR, (STR, ["short", "x" * 31, "ü" * 30, "`tick", "ü" * 31, "a", "b"])),
]
tensors = [  # name, dims, type (F32 0, F16 1, Q8_0 8)
    ("token_embd.weight", [32, 4], 8), ("enc.blk.0.attn_q.weight", [32, 2], 0), ("dec.blk.1.ffn_up.bias", [8], 0),
    ("enc.output_norm.weight", [8], 1), ("dec.token_embd.weight", [32, 1, 1, 3], 8),
    ("blk.2.ffn_gate_inp.weight", [4, 2], 0), ("v.blk.0.x", [2], 0), ("FooBar.1st.weight", [2, 0], 0),
    ("blk.10.ffn_down_exps.weight", [2500], 0), ("blk.10.ffn_up_exps.weight", [3500], 0), ("enc.blk.0.ffn_norm.weight", [8], 0), ("output.bias", [3], 0),
]
SIZE = {0: (1, 4), 1: (1, 2), 8: (32, 34)}
out_b = bytearray(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)))
for k, t, v in kvs:
    out_b += s(k) + struct.pack("<I", t) + val(t, v)
off, sizes = 0, []
for name, dims, t in tensors:
    n = 1
    for d in dims:
        n *= d
    size = n // SIZE[t][0] * SIZE[t][1]
    out_b += s(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
    out_b += struct.pack("<IQ", t, off)
    sizes.append(size)
    off += (size + 31) // 32 * 32
out_b += bytes(-len(out_b) % 32) + bytes(off)
(out / "markdown-edge.gguf").write_bytes(out_b)
