# convert_reference_hfft.py -- run llama.cpp b4747's convert_hf_to_gguf.py
# with the AutoTokenizer stand-in (../shared/golden/convert/reference/shims)
# answering three more questions that gguf-py's LlamaHfVocab asks of a
# transformers PreTrainedTokenizerFast, as transformers answers them:
#   is_fast             True (the stand-in loads tokenizer.json only)
#   all_special_tokens  the special tokens named in tokenizer_config.json
#                       (bos, eos, unk, sep, pad, cls, mask, then
#                       additional_special_tokens; special_tokens_map.json's
#                       values replace its), each once
#   all_special_ids     their ids (the unknown token's for a missing one)
# and answering vocab_size once per tokenizer (it does not change; the
# stand-in asks node for the whole vocabulary each time, which LlamaHfVocab's
# loop over thousands of added tokens, Gemma 3's 6415, makes hours long).
# Usage: as convert_hf_to_gguf.py, with LLAMA_CPP first:
#   python3 convert_reference_hfft.py LLAMA_CPP [converter arguments...]
import json
import runpy
import sys

import transformers

ref = sys.argv.pop(1)
ATTRS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token",
         "additional_special_tokens"]


def _special_values(self):
    values = dict(self.init_kwargs)
    smap = self._dir / "special_tokens_map.json"
    if smap.is_file():
        with open(smap, encoding="utf-8") as f:
            values.update(json.load(f))
    out = []
    for attr in ATTRS:
        v = values.get(attr)
        for t in v if isinstance(v, list) else [v]:
            if isinstance(t, dict):
                t = t.get("content")
            if isinstance(t, str) and t and t not in out:
                out.append(t)
    return out


def _ids(self):
    vocab = self.get_vocab()
    unk = None
    for t in [self.init_kwargs.get("unk_token")]:
        t = t.get("content") if isinstance(t, dict) else t
        unk = vocab.get(t) if isinstance(t, str) else None
    return [vocab.get(t, unk) for t in self.all_special_tokens]


init = transformers.PreTrainedTokenizerFast.__init__


def __init__(self, directory):
    from pathlib import Path
    init(self, directory)
    self._dir = Path(directory)


transformers.PreTrainedTokenizerFast.__init__ = __init__
_vocab_size = transformers.PreTrainedTokenizerFast.vocab_size


def _cached_vocab_size(self):
    if getattr(self, "_lgg_vocab_size", None) is None:
        self._lgg_vocab_size = _vocab_size.fget(self)
    return self._lgg_vocab_size


transformers.PreTrainedTokenizerFast.is_fast = True
transformers.PreTrainedTokenizerFast.vocab_size = property(_cached_vocab_size)
transformers.PreTrainedTokenizerFast.all_special_tokens = property(_special_values)
transformers.PreTrainedTokenizerFast.all_special_ids = property(_ids)
sys.argv[0] = ref + "/convert_hf_to_gguf.py"
sys.path.insert(0, ref)
runpy.run_path(sys.argv[0], run_name="__main__")
