# convert_reference_nodup.py -- run llama.cpp b4747's convert_hf_to_gguf.py
# with one change: a metadata key written a second time is skipped (the
# first value stays) instead of failing with "Duplicated key name".  This
# is what the reference writes without that bug (OLMoE with rms_norm_eps in
# config.json).  Usage: as convert_hf_to_gguf.py, with LLAMA_CPP first:
#   python3 convert_reference_nodup.py LLAMA_CPP [converter arguments...]
import runpy
import sys

import gguf

ref = sys.argv.pop(1)


def add_key_value(self, key, val, vtype):
    if any(key in kv for kv in self.kv_data):
        return
    self.kv_data[0][key] = gguf.gguf_writer.GGUFValue(value=val, type=vtype)


gguf.GGUFWriter.add_key_value = add_key_value
count_parameters = gguf.GGUFWriter.get_total_parameter_count


def get_total_parameter_count(self):
    kept = [dict(t) for t in self.tensors]  # the order is restored below
    extra = 0
    for t in self.tensors:
        for name in [n for n, i in t.items() if "_exps." in n and len(i.shape) < 3]:
            extra += gguf.gguf_writer.prod(t.pop(name).shape)
    try:
        total, shared, expert, count = count_parameters(self)
    finally:
        for t, k in zip(self.tensors, kept):
            t.clear()
            t.update(k)
    return total + extra, shared + extra, expert, count


gguf.GGUFWriter.get_total_parameter_count = get_total_parameter_count
sys.argv[0] = ref + "/convert_hf_to_gguf.py"
sys.path.insert(0, ref)
runpy.run_path(sys.argv[0], run_name="__main__")
