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
