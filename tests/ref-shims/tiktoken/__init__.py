"""Stand-in for the `tiktoken` package (not in Debian): tiktoken.Encoding as a checkpoint's own tokenizer code
(Qwen (v1)'s tokenization_qwen.py) uses it. Encoding runs OpenAI's real tiktoken core, the npm package `tiktoken`
(the Rust library built to WASM), in node through tiktoken_server.js beside this file; NODE_PATH must reach it.
"""
import atexit
import base64
import json
import os
import subprocess
import tempfile
from pathlib import Path

__version__ = "0.0-shim"

_SERVER = Path(__file__).with_name("tiktoken_server.js")


class Encoding:
    def __init__(self, name, *, pat_str, mergeable_ranks, special_tokens, explicit_n_vocab=None):
        self.name = name
        self._pat_str = pat_str
        self._mergeable_ranks = mergeable_ranks
        self._special_tokens = dict(special_tokens)
        # as tiktoken: the highest id names the vocabulary's size
        self.max_token_value = max(max(mergeable_ranks.values()), max(self._special_tokens.values(), default=0))
        if explicit_n_vocab:
            assert len(mergeable_ranks) + len(special_tokens) == explicit_n_vocab
            assert self.max_token_value == explicit_n_vocab - 1
        with tempfile.NamedTemporaryFile("wb", suffix=".tiktoken", delete=False) as f:
            for tok, rank in mergeable_ranks.items():
                f.write(base64.b64encode(tok) + b" " + str(rank).encode() + b"\n")
            self._ranks_file = f.name
        node = os.environ.get("NODE", "node")
        self._p = subprocess.Popen([node, str(_SERVER), self._ranks_file, json.dumps(self._special_tokens), pat_str],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
        atexit.register(self._close)

    def _call(self, **req):
        self._p.stdin.write(json.dumps(req) + "\n")
        self._p.stdin.flush()
        line = self._p.stdout.readline()
        if not line:
            raise RuntimeError("tiktoken helper (node " + str(_SERVER) + ") exited; is NODE_PATH set to the npm node_modules?")
        ans = json.loads(line)
        if not ans["ok"]:
            raise ValueError("tiktoken helper: " + ans["error"])
        return ans["result"]

    def _close(self):
        if self._p.poll() is None:
            self._p.stdin.close()
            self._p.wait()
        try:
            os.unlink(self._ranks_file)
        except OSError:
            pass

    @property
    def n_vocab(self):
        return self.max_token_value + 1

    @property
    def eot_token(self):
        return self._special_tokens["<|endoftext|>"]

    @property
    def special_tokens_set(self):
        return set(self._special_tokens)

    def encode(self, text, *, allowed_special=set(), disallowed_special="all"):
        # tiktoken's own argument handling ("all" or sets); the core checks disallowed text and raises
        allowed = "all" if allowed_special == "all" else sorted(allowed_special)
        if disallowed_special == "all":
            disallowed = sorted(self.special_tokens_set - (self.special_tokens_set if allowed == "all" else set(allowed)))
        else:
            disallowed = sorted(disallowed_special)
        return self._call(op="encode", text=text, allowed_special=allowed, disallowed_special=disallowed)

    def encode_ordinary(self, text):
        return self.encode(text, allowed_special=set(), disallowed_special=())

    def decode_bytes(self, tokens):
        return base64.b64decode(self._call(op="decode", ids=[int(t) for t in tokens]))

    def decode(self, tokens, errors="replace"):
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)
