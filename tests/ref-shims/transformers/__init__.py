"""Extends the shared `transformers` stand-in (../shared/golden/convert/reference/shims/transformers: the next
`transformers` on PYTHONPATH after this folder) with what a checkpoint's own tokenizer code needs, as
AutoTokenizer.from_pretrained(dir, trust_remote_code=True) runs it for Qwen (v1) (tokenization_qwen.py):
  AutoTokenizer            a tokenizer_config.json auto_map "AutoTokenizer" class is imported from the checkpoint's
                           own python file and made as transformers makes a slow tokenizer: its vocab_files_names
                           found in the folder, tokenizer_config.json's entries as keyword arguments
  PreTrainedTokenizer      encode(text) = convert_tokens_to_ids(tokenize(text)) (no special tokens are added by
                           the base class's build_inputs_with_special_tokens)
  models.gpt2.tokenization_gpt2.bytes_to_unicode
Everything else is the shared stand-in's.
"""
import importlib.util
import json
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _load_shared():
    for p in sys.path:
        cand = Path(p or ".") / "transformers" / "__init__.py"
        if cand.is_file() and cand.resolve().parent != _HERE:
            spec = importlib.util.spec_from_file_location("_transformers_shared_standin", cand)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    raise ImportError("the shared transformers stand-in is not on PYTHONPATH after " + str(_HERE))


_shared = _load_shared()
AddedToken = _shared.AddedToken
PreTrainedTokenizerFast = _shared.PreTrainedTokenizerFast
__version__ = _shared.__version__


class PreTrainedTokenizer:
    vocab_files_names = {}

    def __init__(self, **kwargs):
        self.init_kwargs = dict(kwargs)

    def tokenize(self, text, **kwargs):
        raise NotImplementedError

    def convert_tokens_to_ids(self, tokens):
        raise NotImplementedError

    def encode(self, text, text_pair=None, add_special_tokens=True, **kwargs):
        if text_pair is not None:
            raise NotImplementedError("pairs are not provided by this stand-in")
        return self.convert_tokens_to_ids(self.tokenize(text, **kwargs))

    def __call__(self, text, add_special_tokens=True, **kwargs):
        return {"input_ids": self.encode(text, add_special_tokens=add_special_tokens)}


def _remote_class(d, ref):
    module, _, name = ref.rpartition(".")
    spec = importlib.util.spec_from_file_location("transformers_modules." + module, d / (module + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


class AutoTokenizer:
    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, *args, trust_remote_code=False, **kwargs):
        d = Path(pretrained_model_name_or_path)
        cfg = {}
        if (d / "tokenizer_config.json").is_file():
            with open(d / "tokenizer_config.json", encoding="utf-8") as f:
                cfg = json.load(f)
        ref = (cfg.get("auto_map") or {}).get("AutoTokenizer")
        if not ref:
            return _shared.AutoTokenizer.from_pretrained(d, *args, trust_remote_code=trust_remote_code, **kwargs)
        if not trust_remote_code:
            raise ValueError(f"{d} needs trust_remote_code=True to load its tokenizer")
        slow, fast = (ref + [None])[:2] if isinstance(ref, list) else (ref, None)
        if fast:
            raise NotImplementedError("remote fast tokenizers are not provided by this stand-in")
        klass = _remote_class(d, slow)
        init = {k: v for k, v in cfg.items() if k not in ("auto_map", "tokenizer_class")}
        for arg, fname in klass.vocab_files_names.items():
            if (d / fname).is_file():
                init[arg] = str(d / fname)
        init.update(kwargs)
        return klass(**init)
