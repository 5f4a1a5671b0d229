"""safetensors.torch.load_file(path): every tensor of a .safetensors file as a torch tensor, by name.

The file is read by hand: an 8-byte little-endian header length, the JSON header, then the raw
little-endian data that "data_offsets" index."""
import json
import struct

import numpy as np
import torch

_DTYPES = {
    "F64": (np.float64, None),
    "F32": (np.float32, None),
    "F16": (np.float16, None),
    "BF16": (np.int16, torch.bfloat16),
    "I64": (np.int64, None),
    "I32": (np.int32, None),
    "I16": (np.int16, None),
    "I8": (np.int8, None),
    "U8": (np.uint8, None),
    "BOOL": (np.bool_, None),
}


def load_file(filename, device="cpu"):
    if str(device) != "cpu":
        raise ValueError("only device='cpu' is provided by this stand-in")
    with open(filename, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    header.pop("__metadata__", None)
    data = raw[8 + n:]
    out = {}
    for name in sorted(header):
        info = header[name]
        npdt, view = _DTYPES[info["dtype"]]
        start, end = info["data_offsets"]
        arr = np.frombuffer(data[start:end], dtype=npdt).reshape(info["shape"]).copy()
        t = torch.from_numpy(arr)
        out[name] = t.view(view) if view is not None else t
    return out
