# convert_lora_reference.py -- run llama.cpp b4747's convert_lora_to_gguf.py
# with the stand-in shims (../shared/golden/convert/reference/shims), which
# lack two names it imports: safetensors.torch.load_file (here: safe_open's
# tensors, by name) and transformers.AutoConfig (only used without --base).
# Usage: python3 convert_lora_reference.py LLAMA_CPP [converter arguments...]
import runpy
import sys
import types

import safetensors
import transformers

ref = sys.argv.pop(1)


def load_file(path, device="cpu"):
    with safetensors.safe_open(path, framework="pt", device=device) as f:
        return {k: f.get_tensor(k) for k in f.keys()}


st_torch = types.ModuleType("safetensors.torch")
st_torch.load_file = load_file
sys.modules["safetensors.torch"] = st_torch


class AutoConfig:
    @staticmethod
    def from_pretrained(model_id):
        raise OSError(f"no hub here: {model_id}")


transformers.AutoConfig = AutoConfig
sys.argv[0] = ref + "/convert_lora_to_gguf.py"
sys.path.insert(0, ref)
runpy.run_path(sys.argv[0], run_name="__main__")
