"""transformers.utils stand-in: the names ChatGLM3's tokenization_chatglm.py imports."""
import logging as _logging
from enum import Enum


class _Logging:
    @staticmethod
    def get_logger(name=None):
        return _logging.getLogger(name)


logging = _Logging()


class PaddingStrategy(str, Enum):
    LONGEST = "longest"
    MAX_LENGTH = "max_length"
    DO_NOT_PAD = "do_not_pad"
