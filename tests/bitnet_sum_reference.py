#!/usr/bin/python3
# bitnet_sum_reference.py -- torch's float32 sums and means of |x| that
# tests/test_convert_bitnet.c's convert_bitnet_torch_sum checks
# src/convert/families/bitnet.c against: x is convert_cases.c's generator
# (cv_case_value) from element `first` on, as F32, or rounded to BF16 or F16
# by torch (nearest even, as the test's lgg_f32_to_bf16 / lgg_f32_to_f16).
# Prints the test's table rows.  Run it with Debian's torch 1.13 twice, as
#   /usr/bin/python3 tests/bitnet_sum_reference.py 8
#   ATEN_CPU_CAPABILITY=avx512 /usr/bin/python3 tests/bitnet_sum_reference.py 16
# (8 and 16 lanes: the default AVX2 kernel and the opt-in AVX-512 one).
import struct
import sys

import numpy as np
import torch

M = (1 << 64) - 1
CASES = [(5, 0, "F32"), (37, 11, "F32"), (1001, 3, "BF16"), (32768, 7, "F32"), (32769, 5, "F16"),
         (100003, 1, "F32"), (250001, 9, "BF16"), (16777259, 2, "BF16")]


def values(first, n):
    i = np.arange(first, first + n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = i * np.uint64(0x9e3779b97f4a7c15) + np.uint64(0x9e3779b97f4a7c15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        z ^= z >> np.uint64(31)
    return ((z >> np.uint64(40)).astype(np.int64) - (1 << 23)).astype(np.float32) * np.float32(2.0 ** -29)


def hexf(t):
    return "0x%08x" % struct.unpack("<I", t.numpy().tobytes())[0]


lanes = sys.argv[1]
for n, first, dtype in CASES:
    x = torch.from_numpy(values(first, n))
    if dtype == "BF16":
        x = x.bfloat16().float()
    elif dtype == "F16":
        x = x.half().float()
    x = x.abs()
    for threads in (1, 2, 3):
        if threads > 1 and n < 32768:
            continue
        torch.set_num_threads(threads)
        print("    {%d, %d, LGG_TYPE_%s, %s, %d, %s, %s}," % (n, first, dtype, lanes, threads, hexf(x.sum()), hexf(x.mean())))
