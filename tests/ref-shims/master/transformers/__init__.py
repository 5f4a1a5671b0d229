"""The shared `transformers` stand-in (../shared/golden/convert-master/shims/transformers, found further on
sys.path) with what master's Qwen3 reranker path calls on top: `convert_tokens_to_ids` (a token's id in the
vocabulary with the added tokens, else the unknown token's id, else None, as transformers' fast tokenizers
answer), and what master's DeepSeek V3.2 asserts: `add_bos_token` (LlamaTokenizerFast's). Everything else is the
shared stand-in's, re-exported."""
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_shared = next(os.path.join(p, "transformers", "__init__.py") for p in sys.path
               if p and os.path.abspath(p) != _here and os.path.isfile(os.path.join(p, "transformers", "__init__.py")))
_spec = importlib.util.spec_from_file_location("_lgg_shared_transformers", _shared)
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
globals().update({k: v for k, v in vars(_mod).items() if not k.startswith("__")})


def _convert_tokens_to_ids(self, tokens):
    vocab = self.get_vocab()
    unk = self.init_kwargs.get("unk_token")
    if isinstance(unk, dict):
        unk = unk.get("content")

    def one(t):
        return vocab.get(t, vocab.get(unk) if unk is not None else None)
    return one(tokens) if isinstance(tokens, str) else [one(t) for t in tokens]


PreTrainedTokenizerFast.convert_tokens_to_ids = _convert_tokens_to_ids  # noqa: F821 (re-exported above)


def _add_bos_token(self):
    # LlamaTokenizerFast's add_bos_token (tokenizer_config.json's, default true), which master's DeepseekV32Model
    # asserts; other classes have no such attribute here (master's getattr(..., False) then answers False)
    if self.init_kwargs.get("tokenizer_class") in ("LlamaTokenizer", "LlamaTokenizerFast"):
        return bool(self.init_kwargs.get("add_bos_token", True))
    raise AttributeError("add_bos_token")


PreTrainedTokenizerFast.add_bos_token = property(_add_bos_token)  # noqa: F821 (re-exported above)
