"""transformers.tokenization_utils_base stand-in: the names ChatGLM3's tokenization_chatglm.py imports."""
from typing import List

EncodedInput = List[int]


class BatchEncoding(dict):
    pass
