"""Extends the shared `transformers` stand-in (../shared/golden/convert/reference/shims/transformers: the next
`transformers` on PYTHONPATH after this folder) with what a checkpoint's own tokenizer code needs, as
AutoTokenizer.from_pretrained(dir, trust_remote_code=True) runs it for Qwen (v1) (tokenization_qwen.py) and
ChatGLM3 (tokenization_chatglm.py):
  AutoTokenizer        tokenizer_config.json's auto_map "AutoTokenizer" class, imported from the checkpoint's own
                       python file, made as transformers makes a slow tokenizer: each of its vocab_files_names found
                       in the folder, tokenizer_config.json's entries and name_or_path as keyword arguments
  PreTrainedTokenizer  keeps its keyword arguments (init_kwargs, padding_side) and tokenizer_config.json's
                       added_tokens_decoder as added tokens (added_tokens_encoder/decoder, which ChatGLM3's get_vocab
                       adds); it does not add the special tokens transformers adds when they are missing from the
                       vocabulary (ids past the checkpoint's own: only len(get_vocab()) would differ);
                       encode(text) = convert_tokens_to_ids(tokenize(text)) (no special tokens are added by the base
                       class's build_inputs_with_special_tokens)
  models.gpt2.tokenization_gpt2.bytes_to_unicode
  utils.logging, utils.PaddingStrategy, tokenization_utils_base.EncodedInput/BatchEncoding: the names ChatGLM3's
                       code imports
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
            spec = importlib.util.spec_from_file_location("_lgg_transformers_shared", cand)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    raise ImportError("the shared transformers stand-in is not on PYTHONPATH after " + str(_HERE))


_shared = _load_shared()
AddedToken = _shared.AddedToken
PreTrainedTokenizerFast = _shared.PreTrainedTokenizerFast
__version__ = _shared.__version__


def _added(v):
    if isinstance(v, AddedToken):
        return v
    return AddedToken(v["content"], single_word=v.get("single_word", False), lstrip=v.get("lstrip", False),
                      rstrip=v.get("rstrip", False), normalized=v.get("normalized", True), special=v.get("special", False))


class PreTrainedTokenizer:
    vocab_files_names = {}
    padding_side = "right"

    def __init__(self, **kwargs):
        self._added_tokens_decoder = {int(i): _added(t) for i, t in (kwargs.pop("added_tokens_decoder", None) or {}).items()}
        self.init_kwargs = dict(kwargs)
        self.padding_side = kwargs.get("padding_side", self.padding_side)
        self.clean_up_tokenization_spaces = kwargs.get("clean_up_tokenization_spaces", False)

    @property
    def added_tokens_decoder(self):
        return dict(sorted(self._added_tokens_decoder.items()))

    @property
    def added_tokens_encoder(self):
        return {t.content: i for i, t in sorted(self._added_tokens_decoder.items())}

    def get_added_vocab(self):
        return self.added_tokens_encoder

    def __len__(self):
        return len(set(self.get_vocab().keys()))

    def tokenize(self, text, **kwargs):
        raise NotImplementedError

    def convert_tokens_to_ids(self, tokens):
        raise NotImplementedError

    def convert_ids_to_tokens(self, ids, skip_special_tokens=False):
        if isinstance(ids, int):
            return self._added_tokens_decoder[ids].content if ids in self._added_tokens_decoder else self._convert_id_to_token(ids)
        return [self.convert_ids_to_tokens(int(i)) for i in ids]

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
        slow, fast = (list(ref) + [None])[:2] if isinstance(ref, list) else (ref, None)
        # transformers would take a remote fast tokenizer when there is one
        if fast or not slow:
            raise NotImplementedError("remote fast tokenizers are not provided by this stand-in")
        klass = _remote_class(d, slow)
        init = dict(cfg)
        for arg, fname in klass.vocab_files_names.items():
            if (d / fname).is_file():
                init[arg] = str(d / fname)
        init["name_or_path"] = str(d)
        init.update(kwargs)
        return klass(**init)
