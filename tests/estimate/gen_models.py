#!/usr/bin/env python3
"""Write a GGUF v3 model with realistic shapes and metadata, and all-zero tensor data.

This is ../shared/golden/estimate/gen_gguf.py (which writes the golden set's models; its presets are kept
unchanged and give the same bytes) with more presets for libgguf's own estimate references
(tests/estimate/cases.json): qwen2, phi3, a mixtral-like llama MoE, qwen2moe and deepseek2, and the
tensors qwen2moe needs.

The tensor data is a sparse region (the file is extended with truncate(), nothing is written), so a
5 GB model costs a few MB of disk. The output is deterministic: the same preset always gives the same
bytes. Only the Python 3 standard library is used.

    gen_gguf.py PRESET OUT.gguf        write one model
    gen_gguf.py --list                 list the presets
    gen_gguf.py --show PRESET          print the preset, tensor count and sizes as JSON

Weights use a Q4_K_M-like scheme (scheme "q4_k_m"): 1-D tensors and ffn_gate_inp are F32; output.weight
(or token_embd.weight when the output is tied to it) is Q6_K; attn_v and ffn_down* are Q6_K on the layers
where llama.cpp's use_more_bits(i, n) holds, Q4_K elsewhere; every other matrix is Q4_K. A preset can
override the type of a tensor by its name suffix. When a row length is not a multiple of the block size,
the type falls back as llama-quantize does (Q4_K->Q5_0, Q6_K->Q8_0, Q2_K/Q3_K/IQ2_XXS->IQ4_NL, else F16).
"""
import hashlib
import itertools
import json
import struct
import sys

ALIGN = 32

# name: (ggml type id, block size, bytes per block)
GGML_TYPES = {
    'F32': (0, 1, 4), 'F16': (1, 1, 2), 'Q4_0': (2, 32, 18), 'Q4_1': (3, 32, 20), 'Q5_0': (6, 32, 22),
    'Q5_1': (7, 32, 24), 'Q8_0': (8, 32, 34), 'Q2_K': (10, 256, 84), 'Q3_K': (11, 256, 110),
    'Q4_K': (12, 256, 144), 'Q5_K': (13, 256, 176), 'Q6_K': (14, 256, 210), 'IQ2_XXS': (16, 256, 66),
    'IQ2_XS': (17, 256, 74), 'IQ3_XXS': (18, 256, 98), 'IQ1_S': (19, 256, 50), 'IQ4_NL': (20, 32, 18),
    'IQ3_S': (21, 256, 110), 'IQ2_S': (22, 256, 82), 'IQ4_XS': (23, 256, 136), 'BF16': (30, 1, 2),
    'MXFP4': (39, 32, 17),
}
FALLBACK = {'Q4_K': 'Q5_0', 'Q5_K': 'Q5_1', 'Q6_K': 'Q8_0', 'Q2_K': 'IQ4_NL', 'Q3_K': 'IQ4_NL',
            'IQ2_XXS': 'IQ4_NL', 'IQ2_XS': 'IQ4_NL', 'IQ2_S': 'IQ4_NL', 'IQ3_XXS': 'IQ4_NL',
            'IQ3_S': 'IQ4_NL', 'IQ1_S': 'IQ4_NL', 'IQ4_XS': 'IQ4_NL'}

# GGUF metadata value types
U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)

# ---------------------------------------------------------------------------------------------------------
# presets: dimensions follow the named public model
PRESETS = {
    'smollm2-135m': dict(
        arch='llama', name='SmolLM2-135M-like', ftype=7, scheme='q8_0', ctx=8192, n_embd=576, n_layer=30,
        n_ff=1536, n_head=9, n_head_kv=3, rope_base=100000.0, eps=1e-5, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'gemma2-2b': dict(
        arch='gemma2', name='Gemma-2-2B-like', ftype=15, ctx=8192, n_embd=2304, n_layer=26, n_ff=9216,
        n_head=8, n_head_kv=4, head_dim=256, rope_base=10000.0, eps=1e-6, swa=4096, attn_softcap=50.0,
        final_softcap=30.0, tied=True,
        vocab=dict(kind='spm', n=256000, front=['<pad>', '<eos>', '<bos>', '<unk>', '<mask>',
                                                '<start_of_turn>', '<end_of_turn>'],
                   bos=2, eos=1, unk=3, pad=0, add_bos=True, add_space_prefix=False)),
    'qwen2-0.5b': dict(
        arch='qwen2', name='Qwen2-0.5B-like', ftype=15, ctx=32768, n_embd=896, n_layer=24, n_ff=4864,
        n_head=14, n_head_kv=2, rope_base=1000000.0, eps=1e-6, tied=True, qkv_bias=True,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'phi3-mini': dict(
        arch='phi3', name='Phi-3-mini-like', ftype=15, ctx=4096, n_embd=3072, n_layer=32, n_ff=8192,
        n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-5, tied=False, swa=2047, ctx_orig=4096,
        rope_attn_factor=1.0,
        vocab=dict(kind='spm', n=32064, front=['<unk>', '<s>', '</s>'], back=['<|endoftext|>'], n_back=64,
                   bos=1, eos=32000, unk=0, add_bos=False)),
    'mixtral-tiny': dict(
        arch='llama', name='Mixtral-tiny-like', ftype=15, ctx=32768, n_embd=1024, n_layer=8, n_ff=3584,
        n_head=16, n_head_kv=4, rope_base=1000000.0, eps=1e-5, tied=False, n_expert=8, n_expert_used=2,
        vocab=dict(kind='spm', n=32000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'qwen2moe-small': dict(
        arch='qwen2moe', name='Qwen1.5-MoE-small-like', ftype=15, ctx=8192, n_embd=2048, n_layer=6,
        n_ff=5632, n_head=16, n_head_kv=16, rope_base=1000000.0, eps=1e-6, tied=False, qkv_bias=True,
        n_expert=60, n_expert_used=4, n_ff_exp=1408, n_ff_shexp=5632,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151643, add_bos=False)),
    'deepseek2-small': dict(
        arch='deepseek2', name='DeepSeek-V2-small-like', ftype=15, ctx=163840, n_embd=2048, n_layer=6,
        n_ff=10944, n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-6, tied=False,
        n_dense_lead=1, key_length=192, value_length=128, q_lora_rank=1536, kv_lora_rank=512, n_rot=64,
        n_ff_exp=1408, n_expert=64, n_expert_shared=2, n_expert_used=6, expert_weights_scale=1.0,
        yarn=dict(factor=40.0, orig=4096, log_mul=0.0707),
        vocab=dict(kind='bpe', pre='deepseek-llm', n=102400, n_regular=102400 - 15, n_special=15, bos=100000,
                   eos=100001, add_bos=True)),
    # llama-like architectures llama.cpp master knows (their references: tests/estimate/master.json)
    'qwen3-0.6b': dict(
        arch='qwen3', name='Qwen3-0.6B-like', ftype=15, ctx=40960, n_embd=1024, n_layer=28, n_ff=3072,
        n_head=16, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=True,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    # embedding and reranking models of the same shape (the rank head F16, as a converter leaves a small matrix)
    'qwen3-embedding-0.6b': dict(
        arch='qwen3', name='Qwen3-Embedding-0.6B-like', ftype=15, ctx=32768, n_embd=1024, n_layer=28, n_ff=3072,
        n_head=16, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=True, pooling=3,
        vocab=dict(kind='bpe', pre='qwen2', n=151669, n_regular=151643, n_special=26, bos=151643,
                   eos=151643, add_bos=False)),
    'qwen3-reranker-0.6b': dict(
        arch='qwen3', name='Qwen3-Reranker-0.6B-like', ftype=15, ctx=40960, n_embd=1024, n_layer=28, n_ff=3072,
        n_head=16, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=True, pooling=4,
        cls_labels=['yes', 'no'], types={'output': 'F16'},
        vocab=dict(kind='bpe', pre='qwen2', n=151669, n_regular=151643, n_special=26, bos=151643,
                   eos=151645, add_bos=False)),
    'granite-2b': dict(
        arch='granite', name='Granite-3-2B-like', ftype=15, ctx=4096, n_embd=2048, n_layer=40, n_ff=8192,
        n_head=32, n_head_kv=8, rope_base=10000000.0, eps=1e-5, tied=True,
        scales=dict(logit_scale=8.0, residual_scale=0.22, embedding_scale=12.0, attention_scale=0.015625),
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'exaone-2.4b': dict(
        arch='exaone', name='EXAONE-3.5-2.4B-like', ftype=15, ctx=32768, n_embd=2560, n_layer=30, n_ff=7168,
        n_head=32, n_head_kv=8, rope_base=1000000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'internlm2-1.8b': dict(
        arch='internlm2', name='InternLM2-1.8B-like', ftype=15, ctx=32768, n_embd=2048, n_layer=24, n_ff=8192,
        n_head=16, n_head_kv=8, rope_base=1000000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'minicpm-1b': dict(
        arch='minicpm', name='MiniCPM-1B-like', ftype=15, ctx=4096, n_embd=1536, n_layer=52, n_ff=3840,
        n_head=24, n_head_kv=8, rope_base=10000.0, eps=1e-5, tied=True,
        scales=dict(embedding_scale=12.0, residual_scale=1.4, logit_scale=256.0),
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'olmo2-1b': dict(
        arch='olmo2', name='OLMo-2-1B-like', ftype=15, ctx=4096, n_embd=2048, n_layer=16, n_ff=8192,
        n_head=16, n_head_kv=16, rope_base=500000.0, eps=1e-6, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'command-r-small': dict(
        arch='command-r', name='Command-R-small-like', ftype=15, ctx=131072, n_embd=2048, n_layer=8, n_ff=5632,
        n_head=16, n_head_kv=4, rope_base=8000000.0, eps=1e-5, norm_eps=True, tied=True,
        scales=dict(logit_scale=0.0625),
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # non-gated feed-forward, layer norms with biases
    'gpt2-medium': dict(
        arch='gpt2', name='GPT-2-medium-like', ftype=15, ctx=1024, n_embd=1024, n_layer=24, n_ff=4096,
        n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'gptneox-410m': dict(
        arch='gptneox', name='Pythia-410M-like', ftype=15, ctx=2048, n_embd=1024, n_layer=24, n_ff=4096,
        n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False, par_res=True,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'phi2': dict(
        arch='phi2', name='Phi-2-like', ftype=15, ctx=2048, n_embd=2560, n_layer=32, n_ff=10240,
        n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False, qkv_bias=True,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'falcon-1b': dict(
        arch='falcon', name='Falcon-1B-like', ftype=15, ctx=2048, n_embd=2048, n_layer=24, n_ff=8192,
        n_head=32, n_head_kv=1, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'starcoder2-3b': dict(
        arch='starcoder2', name='StarCoder2-3B-like', ftype=15, ctx=16384, n_embd=3072, n_layer=30, n_ff=12288,
        n_head=24, n_head_kv=2, rope_base=999999.4, eps=1e-5, norm_eps=True, tied=True, qkv_bias=True,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'nemotron-4b': dict(
        arch='nemotron', name='Minitron-4B-like', ftype=15, ctx=4096, n_embd=3072, n_layer=32, n_ff=9216,
        n_head=24, n_head_kv=8, head_dim=128, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # experts and sliding windows (master)
    'olmoe-small': dict(
        arch='olmoe', name='OLMoE-1B-7B-like (4 layers)', ftype=15, ctx=4096, n_embd=2048, n_layer=4, n_ff=1024,
        n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-5, tied=False, n_expert=64, n_expert_used=8,
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'qwen3moe-small': dict(
        arch='qwen3moe', name='Qwen3-30B-A3B-like (4 layers)', ftype=15, ctx=40960, n_embd=2048, n_layer=4,
        n_ff=6144, n_head=32, n_head_kv=4, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=False,
        n_expert=128, n_expert_used=8, n_ff_exp=768,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'gemma3-1b': dict(
        arch='gemma3', name='Gemma-3-1B-like', ftype=15, ctx=32768, n_embd=1152, n_layer=26, n_ff=6912,
        n_head=4, n_head_kv=1, head_dim=256, rope_base=1000000.0, eps=1e-6, swa=512, swa_pattern=6, tied=True,
        vocab=dict(kind='spm', n=256000, front=['<pad>', '<eos>', '<bos>', '<unk>', '<mask>',
                                                '<start_of_turn>', '<end_of_turn>'],
                   bos=2, eos=1, unk=3, pad=0, add_bos=True, add_space_prefix=False)),
    # llama-like architectures master added (their tensors as master's src/models/NAME.cpp loads them)
    'smollm3-3b': dict(
        arch='smollm3', name='SmolLM3-3B-like', ftype=15, ctx=65536, n_embd=2048, n_layer=36, n_ff=11008,
        n_head=16, n_head_kv=4, rope_base=5000000.0, eps=1e-6, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=128256, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'mistral3-small': dict(
        arch='mistral3', name='Mistral-Small-3-like (8 layers)', ftype=15, ctx=131072, n_embd=5120, n_layer=8,
        n_ff=32768, n_head=32, n_head_kv=8, head_dim=128, rope_base=1000000000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='smollm', n=131072, n_front=17, bos=1, eos=2, add_bos=True,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'arcee-afm': dict(
        arch='arcee', name='AFM-4.5B-like (12 layers)', ftype=15, ctx=65536, n_embd=2560, n_layer=12,
        n_ff=18432, n_head=20, n_head_kv=4, rope_base=10000.0, eps=1e-5, tied=False, no_gate=True,
        vocab=dict(kind='bpe', pre='smollm', n=128004, n_front=17, bos=1, eos=2, add_bos=True,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'ernie4_5-0.3b': dict(
        arch='ernie4_5', name='ERNIE-4.5-0.3B-like', ftype=15, ctx=131072, n_embd=1024, n_layer=18, n_ff=3072,
        n_head=16, n_head_kv=2, rope_base=500000.0, eps=1e-5, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=103424, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'seed_oss-small': dict(
        arch='seed_oss', name='Seed-OSS-36B-like (8 layers)', ftype=15, ctx=524288, n_embd=5120, n_layer=8,
        n_ff=27648, n_head=80, n_head_kv=8, head_dim=128, rope_base=10000000.0, eps=1e-6, tied=False,
        qkv_bias=True, post_attn_norm_only=True,
        vocab=dict(kind='bpe', pre='smollm', n=155136, n_front=17, bos=1, eos=2, add_bos=True,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'granitemoe-1b': dict(
        arch='granitemoe', name='Granite-3-1B-A400M-like', ftype=15, ctx=4096, n_embd=1024, n_layer=24, n_ff=512,
        n_head=16, n_head_kv=8, rope_base=10000.0, eps=1e-6, tied=True, n_expert=32, n_expert_used=8,
        scales=dict(logit_scale=6.0, residual_scale=0.22, embedding_scale=12.0, attention_scale=0.015625),
        vocab=dict(kind='bpe', pre='smollm', n=49155, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # norms after attention and FFN only, q/k norms
    'exaone4-1.2b': dict(
        arch='exaone4', name='EXAONE-4.0-1.2B-like', ftype=15, ctx=65536, n_embd=2048, n_layer=30, n_ff=4096,
        n_head=32, n_head_kv=8, head_dim=64, rope_base=1000000.0, eps=1e-5, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=102400, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # a dense first layer, then 128 experts with 2 shared and a sigmoid router with a bias
    'dots1-small': dict(
        arch='dots1', name='dots.llm1-like (4 layers)', ftype=15, ctx=32768, n_embd=4096, n_layer=4, n_ff=10944,
        n_head=32, n_head_kv=32, head_dim=128, rope_base=10000000.0, eps=1e-5, tied=False,
        n_expert=128, n_expert_used=6, n_ff_exp=1408, n_expert_shared=2, n_dense_lead=1,
        vocab=dict(kind='bpe', pre='qwen2', n=152064, n_regular=151643, n_special=421, bos=151643,
                   eos=151645, add_bos=False)),
    # GLM-4.5-Air-like: a dense first layer, experts with a shared one, q/k/v biases, and a last (MTP) layer
    # master does not load
    'glm4moe-small': dict(
        arch='glm4moe', name='GLM-4.5-Air-like (3 layers and the MTP one)', ftype=15, ctx=131072, n_embd=4096,
        n_layer=4, n_ff=10944, n_head=96, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-5, tied=False,
        qkv_bias=True, post_attn_norm_only=True, n_expert=128, n_expert_used=8, n_ff_exp=1408,
        n_expert_shared=1, n_dense_lead=1, nextn=1,
        vocab=dict(kind='bpe', pre='qwen2', n=151552, n_regular=151329, n_special=223, bos=151329,
                   eos=151336, add_bos=False)),
    # GLM-4-9B-like: q/k/v biases, gate and up fused in ffn_up, norms before and after attention and FFN
    'glm4-9b': dict(
        arch='glm4', name='GLM-4-9B-0414-like', ftype=15, ctx=32768, n_embd=4096, n_layer=40, n_ff=13696,
        n_head=32, n_head_kv=2, head_dim=128, rope_base=10000.0, eps=1e-5, tied=False, qkv_bias=True,
        fused_up=True,
        vocab=dict(kind='bpe', pre='qwen2', n=151552, n_regular=151329, n_special=223, bos=151329,
                   eos=151336, add_bos=False)),
    # MiniMax-M2-like: q/k norms over all heads, 256 experts with a sigmoid router and a bias
    'minimax-m2-small': dict(
        arch='minimax-m2', name='MiniMax-M2-like (4 layers)', ftype=15, ctx=196608, n_embd=3072, n_layer=4,
        n_ff=1536, n_head=48, n_head_kv=8, head_dim=128, rope_base=5000000.0, eps=1e-6, tied=False,
        n_expert=256, n_expert_used=8, n_ff_exp=1536, probs_bias=True,
        vocab=dict(kind='bpe', pre='qwen2', n=200064, n_regular=199744, n_special=320, bos=199744,
                   eos=199745, add_bos=False)),
    # Llama-4-Scout-like: 16 experts and a shared one in every layer; chunked attention (8192) on three
    # layers of four
    'llama4-scout-small': dict(
        arch='llama4', name='Llama-4-Scout-like (4 layers)', ftype=15, ctx=10485760, n_embd=5120, n_layer=4,
        n_ff=16384, n_head=40, n_head_kv=8, head_dim=128, rope_base=500000.0, eps=1e-5, tied=False,
        n_expert=16, n_expert_used=1, n_ff_exp=8192, moe_step=1,
        vocab=dict(kind='bpe', pre='smollm', n=202048, n_front=17, bos=1, eos=2, add_bos=True,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # the layers last in the file, their last matrix Q4_K: master moves it into CPU_REPACK, so the mapped
    # buffer ends before it
    'llama-layers-last': dict(
        arch='llama', name='Llama-layers-last-like', ftype=15, ctx=4096, n_embd=1024, n_layer=8, n_ff=2816,
        n_head=16, n_head_kv=4, rope_base=10000.0, eps=1e-5, tied=False, globals_first=True,
        types={'ffn_down': 'Q4_K', 'attn_v': 'Q4_K'},
        vocab=dict(kind='spm', n=32000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    # newer families of master's converter (their tensors as master's src/models/NAME.cpp loads them)
    'ernie4_5-moe-small': dict(
        arch='ernie4_5-moe', name='ERNIE-4.5-21B-A3B-like (4 layers)', ftype=15, ctx=131072, n_embd=2560, n_layer=4,
        n_ff=12288, n_head=20, n_head_kv=4, head_dim=128, rope_base=500000.0, eps=1e-5, tied=False,
        n_expert=64, n_expert_used=6, n_ff_exp=1536, n_ff_shexp=3072, n_dense_lead=1, moe_step=1,
        vocab=dict(kind='bpe', pre='smollm', n=103424, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'smallthinker-4b': dict(
        arch='smallthinker', name='SmallThinker-4B-A0.6B-like (8 layers)', ftype=15, ctx=32768, n_embd=1536, n_layer=8,
        n_ff=768, n_head=12, n_head_kv=2, head_dim=128, rope_base=1500000.0, eps=1e-6, tied=False,
        n_expert=32, n_expert_used=4, n_ff_exp=768,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'hunyuan-moe-small': dict(
        arch='hunyuan-moe', name='Hunyuan-A13B-like (4 layers)', ftype=15, ctx=262144, n_embd=4096, n_layer=4,
        n_ff=3072, n_head=32, n_head_kv=8, head_dim=128, rope_base=11158840.0, eps=1e-5, tied=True,
        n_expert=64, n_expert_used=8, n_ff_exp=3072, n_ff_shexp=3072,
        vocab=dict(kind='bpe', pre='smollm', n=128167, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'hunyuan-dense-1.8b': dict(
        arch='hunyuan-dense', name='Hunyuan-1.8B-like (8 layers)', ftype=15, ctx=262144, n_embd=2048, n_layer=8,
        n_ff=6144, n_head=16, n_head_kv=4, head_dim=128, rope_base=10000.0, eps=1e-5, tied=True,
        vocab=dict(kind='bpe', pre='smollm', n=120818, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # up and down only (xIELU), q/k norms
    'apertus-8b': dict(
        arch='apertus', name='Apertus-8B-like (8 layers)', ftype=15, ctx=65536, n_embd=4096, n_layer=8, n_ff=21504,
        n_head=32, n_head_kv=8, head_dim=128, rope_base=12000000.0, eps=1e-5, tied=False, no_gate=True,
        vocab=dict(kind='bpe', pre='smollm', n=131072, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Ling-mini-2.0-like: attn_qkv fused, q/k norms, a dense first layer, 256 experts with a shared one
    'bailingmoe2-small': dict(
        arch='bailingmoe2', name='Ling-mini-2.0-like (4 layers)', ftype=15, ctx=32768, n_embd=2048, n_layer=4,
        n_ff=5120, n_head=16, n_head_kv=4, head_dim=128, rope_base=600000.0, eps=1e-6, tied=False,
        n_expert=256, n_expert_used=8, n_ff_exp=512, n_expert_shared=1, n_dense_lead=1,
        vocab=dict(kind='bpe', pre='smollm', n=157184, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # K-EXAONE-like: sliding window of 128 on three layers of four, q/k norms, experts with a shared one
    'exaone-moe-small': dict(
        arch='exaone-moe', name='K-EXAONE-like (8 layers)', ftype=15, ctx=262144, n_embd=3072, n_layer=8,
        n_ff=12288, n_head=32, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-5, tied=False, swa=128,
        n_expert=64, n_expert_used=8, n_ff_exp=1536, n_ff_shexp=1536, n_expert_shared=1, n_dense_lead=1,
        vocab=dict(kind='bpe', pre='smollm', n=153600, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'gpt-oss-small': dict(
        arch='gpt-oss', name='gpt-oss-20b-like (4 layers)', ftype=38, ctx=131072, n_embd=2880, n_layer=4, n_ff=2880,
        n_head=64, n_head_kv=8, head_dim=64, rope_base=150000.0, eps=1e-5, swa=128, tied=False,
        n_expert=32, n_expert_used=4, n_ff_exp=2880,
        types={'ffn_gate_exps': 'MXFP4', 'ffn_up_exps': 'MXFP4', 'ffn_down_exps': 'MXFP4', 'attn_q': 'Q8_0',
               'attn_k': 'Q8_0', 'attn_v': 'Q8_0', 'attn_output': 'Q8_0', 'output': 'Q8_0', 'token_embd': 'Q8_0'},
        vocab=dict(kind='bpe', pre='smollm', n=49152, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # recurrent (llama_memory_recurrent: R and S state rows per sequence) and hybrid models
    # (llama_memory_hybrid: a KV cache for the attention layers, states for the others)
    'mamba-130m': dict(
        arch='mamba', name='Mamba-130M-like', ftype=15, ctx=1048576, n_embd=768, n_layer=24, n_ff=0,
        n_head=0, n_head_kv=0, rope_base=10000.0, eps=1e-5, tied=True,
        ssm=dict(d_conv=4, d_inner=1536, d_state=16, dt_rank=48),
        vocab=dict(kind='bpe', pre='smollm', n=50280, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'mamba2-370m': dict(
        arch='mamba2', name='Mamba2-370M-like', ftype=15, ctx=1048576, n_embd=1024, n_layer=48, n_ff=0,
        n_head=0, n_head_kv=0, rope_base=10000.0, eps=1e-5, tied=True,
        ssm=dict(d_conv=4, d_inner=2048, d_state=128, dt_rank=32, n_group=1),
        vocab=dict(kind='bpe', pre='smollm', n=50288, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'rwkv6-1.6b': dict(
        arch='rwkv6', name='RWKV6-Finch-1.6B-like', ftype=15, ctx=1048576, n_embd=2048, n_layer=24, n_ff=7168,
        n_head=0, n_head_kv=0, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        rwkv=dict(head_size=64, time_mix_extra_dim=32, time_decay_extra_dim=64, rescale=6),
        vocab=dict(kind='bpe', pre='smollm', n=65536, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    'rwkv7-0.4b': dict(
        arch='rwkv7', name='RWKV7-Goose-0.4B-like', ftype=15, ctx=1048576, n_embd=1024, n_layer=24, n_ff=4096,
        n_head=0, n_head_kv=0, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        rwkv=dict(head_size=64, decay_lora=64, iclr_lora=64, value_res_mix_lora=32, gate_lora=128),
        vocab=dict(kind='bpe', pre='smollm', n=65536, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Jamba-like: attention on one layer of four (head_count_kv 0: a Mamba layer), experts every other layer
    'jamba-small': dict(
        arch='jamba', name='Jamba-mini-like (8 layers)', ftype=15, ctx=262144, n_embd=2048, n_layer=8, n_ff=5632,
        n_head=16, n_head_kv=[0, 0, 0, 0, 4, 0, 0, 0], rope_base=10000.0, eps=1e-6, tied=False,
        n_expert=8, n_expert_used=2, moe_layers=[1, 3, 5, 7],
        ssm=dict(d_conv=4, d_inner=4096, d_state=16, dt_rank=128),
        vocab=dict(kind='bpe', pre='smollm', n=65536, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Granite-4.0-H-Micro-like: Mamba2 layers with attention on a few
    'granitehybrid-small': dict(
        arch='granitehybrid', name='Granite-4.0-H-like (10 layers)', ftype=15, ctx=131072, n_embd=2048, n_layer=10,
        n_ff=8192, n_head=32, n_head_kv=[0, 0, 0, 0, 0, 8, 0, 0, 0, 8], head_dim=64, rope_base=10000.0, eps=1e-5,
        tied=True, scales=dict(logit_scale=8.0, residual_scale=0.22, embedding_scale=12.0, attention_scale=0.0078125),
        ssm=dict(d_conv=4, d_inner=4096, d_state=128, dt_rank=64, n_group=1),
        vocab=dict(kind='bpe', pre='smollm', n=100352, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # LFM2-1.2B-like: short convolutions (state of l_cache - 1 columns) and attention on 6 of 16 layers
    'lfm2-1.2b': dict(
        arch='lfm2', name='LFM2-1.2B-like', ftype=15, ctx=128000, n_embd=2048, n_layer=16, n_ff=8192,
        n_head=32, n_head_kv=[0, 0, 8, 0, 0, 8, 0, 0, 8, 0, 8, 0, 8, 0, 8, 0], rope_base=1000000.0, eps=1e-5,
        tied=True, shortconv=3,
        vocab=dict(kind='bpe', pre='smollm', n=65536, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Falcon-H1-1.5B-like: every layer has attention and a Mamba2 mixer side by side
    'falcon-h1-small': dict(
        arch='falcon-h1', name='Falcon-H1-1.5B-like (8 layers)', ftype=15, ctx=131072, n_embd=2048, n_layer=8,
        n_ff=6144, n_head=8, n_head_kv=2, head_dim=128, rope_base=100000000000.0, eps=1e-5, tied=False,
        ssm=dict(d_conv=4, d_inner=3072, d_state=256, dt_rank=48, n_group=1),
        vocab=dict(kind='bpe', pre='smollm', n=65537, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Nemotron-H-8B-like: Mamba2 layers, plain FFN layers (ReLU^2, up and down) and a few attention layers
    'nemotron_h-small': dict(
        arch='nemotron_h', name='Nemotron-H-8B-like (12 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=12,
        n_ff=[0, 21504, 0, 21504, 0, 0, 21504, 0, 21504, 0, 21504, 0], n_head=32,
        n_head_kv=[0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0], head_dim=128, rope_base=10000.0, eps=1e-5, tied=False,
        ssm=dict(d_conv=4, d_inner=8192, d_state=128, dt_rank=128, n_group=8),
        vocab=dict(kind='bpe', pre='smollm', n=131072, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # Nemotron-3-Nano-30B-A3B-like: Mamba2 layers, expert layers (128 experts of 1856, 6 used, a shared one of 3712)
    # and an attention layer; 8 of its 52 layers
    'nemotron_h_moe-nano': dict(
        arch='nemotron_h_moe', name='Nemotron-3-Nano-30B-A3B-like (8 layers)', ftype=15, ctx=262144, n_embd=2688,
        n_layer=8, n_ff=[0, 1856, 0, 1856, 0, 0, 1856, 0], n_head=32, n_head_kv=[0, 0, 0, 0, 0, 2, 0, 0], head_dim=128,
        rope_base=10000.0, eps=1e-5, tied=False, n_expert=128, n_ff_exp=1856, n_ff_shexp=3712,
        ssm=dict(d_conv=4, d_inner=4096, d_state=128, dt_rank=64, n_group=8),
        kv=[('expert_feed_forward_length', U32, 1856), ('expert_shared_feed_forward_length', U32, 3712),
            ('expert_count', U32, 128), ('expert_used_count', U32, 6), ('expert_weights_norm', BOOL, True),
            ('expert_weights_scale', F32, 2.5)],
        vocab=dict(kind='bpe', pre='smollm', n=131072, n_front=17, bos=1, eos=2, add_bos=False,
                   special_names=['<|endoftext|>', '<|im_start|>', '<|im_end|>'])),
    # PLaMo-2-1B-like: Mamba layers and an attention layer every fourth (8 of its 16 layers)
    'plamo2-1b': dict(
        arch='plamo2', name='PLaMo-2-1B-like (8 layers)', ftype=15, ctx=32768, n_embd=2048, n_layer=8, n_ff=8192,
        n_head=16, n_head_kv=[0, 0, 0, 1, 0, 0, 0, 1], head_dim=128, rope_base=10000.0, eps=1e-6, tied=True,
        ssm=dict(d_conv=4, d_inner=4096, d_state=64, dt_rank=32, n_group=0),
        vocab=dict(kind='spm', n=100000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    # Qwen3-Next-80B-A3B-like: gated delta-net layers, full attention every 4th, experts with a shared one
    # (64 experts, not 512: master's CPU_REPACK copy would take gigabytes)
    'qwen3next-small': dict(
        arch='qwen3next', name='Qwen3-Next-like (8 layers, 64 experts)', ftype=15, ctx=262144, n_embd=2048,
        n_layer=8, n_ff=5120, n_head=16, n_head_kv=2, head_dim=256, rope_base=10000000.0, eps=1e-6, tied=False,
        n_expert=64, n_expert_used=10, n_ff_exp=512, n_ff_shexp=512, full_attn_interval=4,
        ssm=dict(d_conv=4, d_inner=4096, d_state=128, dt_rank=32, n_group=16),
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    # architectures added for master's references: their tensors from LAYERS below (one function a family),
    # their extra keys in 'kv' ((suffix, type, value) after "<arch>.")
    'qwen2vl-2b': dict(
        arch='qwen2vl', name='Qwen2-VL-2B-like (text)', ftype=15, ctx=32768, n_embd=1536, n_layer=28, n_ff=8960,
        n_head=12, n_head_kv=2, rope_base=1000000.0, eps=1e-6, tied=True, qkv_bias=True,
        kv=[('rope.dimension_sections', ARR, (I32, [16, 24, 24, 0]))],
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'qwen3vl-2b': dict(
        arch='qwen3vl', name='Qwen3-VL-2B-like (text)', ftype=15, ctx=262144, n_embd=2048, n_layer=28, n_ff=6144,
        n_head=16, n_head_kv=8, head_dim=128, rope_base=5000000.0, eps=1e-6, tied=True,
        kv=[('rope.dimension_sections', ARR, (I32, [24, 20, 20, 0])), ('n_deepstack_layers', U32, 3)],
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'qwen3vlmoe-small': dict(
        arch='qwen3vlmoe', name='Qwen3-VL-30B-A3B-like (text, 4 layers)', ftype=15, ctx=262144, n_embd=2048,
        n_layer=4, n_ff=6144, n_head=32, n_head_kv=4, head_dim=128, rope_base=5000000.0, eps=1e-6, tied=False,
        n_expert=128, n_expert_used=8, n_ff_exp=768,
        kv=[('rope.dimension_sections', ARR, (I32, [24, 20, 20, 0])), ('n_deepstack_layers', U32, 3),
            ('expert_count', U32, 128), ('expert_used_count', U32, 8), ('expert_feed_forward_length', U32, 768)],
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    # Qwen3.5: gated delta-net layers, full attention every 4th, one multi-token-prediction layer appended
    'qwen35-4b': dict(
        arch='qwen35', name='Qwen3.5-4B-like (8 layers and the MTP one)', ftype=15, ctx=262144, n_embd=2560,
        n_layer=9, nextn=1, n_ff=9216, n_head=16, n_head_kv=4, head_dim=256, rope_base=10000000.0, eps=1e-6,
        tied=True, ssm=dict(d_conv=4, d_inner=4096, d_state=128, dt_rank=32, n_group=16),
        kv=[('rope.dimension_sections', ARR, (I32, [11, 11, 10, 0])), ('rope.dimension_count', U32, 64),
            ('full_attention_interval', U32, 4)],
        vocab=dict(kind='bpe', pre='qwen35', n=248320, n_regular=248044, n_special=276, bos=248044,
                   eos=248046, add_bos=False)),
    'qwen35moe-small': dict(
        arch='qwen35moe', name='Qwen3.5-35B-A3B-like (8 layers and the MTP one, 64 experts)', ftype=15, ctx=262144,
        n_embd=2048, n_layer=9, nextn=1, n_ff=512, n_head=16, n_head_kv=2, head_dim=256, rope_base=10000000.0,
        eps=1e-6, tied=False, n_expert=64, n_expert_used=8, n_ff_exp=512, n_ff_shexp=512,
        ssm=dict(d_conv=4, d_inner=4096, d_state=128, dt_rank=32, n_group=16),
        kv=[('rope.dimension_sections', ARR, (I32, [11, 11, 10, 0])), ('rope.dimension_count', U32, 64),
            ('full_attention_interval', U32, 4), ('expert_count', U32, 64), ('expert_used_count', U32, 8),
            ('expert_feed_forward_length', U32, 512), ('expert_shared_feed_forward_length', U32, 512)],
        vocab=dict(kind='bpe', pre='qwen35', n=248320, n_regular=248044, n_special=276, bos=248044,
                   eos=248046, add_bos=False)),
    # Command R7B: a sliding window of 4096 on three layers of four, no output matrix
    'cohere2-7b': dict(
        arch='cohere2', name='Command-R7B-like (8 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=8, n_ff=14336,
        n_head=32, n_head_kv=8, rope_base=50000.0, eps=1e-5, norm_eps=True, tied=True,
        kv=[('attention.sliding_window', U32, 4096), ('attention.sliding_window_pattern', U32, 4),
            ('logit_scale', F32, 0.25)],
        vocab=dict(kind='bpe', pre='command-r', n=256000, n_front=17, bos=5, eos=255001, add_bos=True)),
    'phimoe-small': dict(
        arch='phimoe', name='Phi-3.5-MoE-like (4 layers)', ftype=15, ctx=131072, n_embd=4096, n_layer=4, n_ff=6400,
        n_head=32, n_head_kv=8, rope_base=10000.0, eps=1e-5, tied=False, qkv_bias=True, n_expert=16,
        n_expert_used=2, kv=[('expert_count', U32, 16), ('expert_used_count', U32, 2)],
        vocab=dict(kind='spm', n=32064, front=['<unk>', '<s>', '</s>'], back=['<|endoftext|>'], n_back=64,
                   bos=1, eos=32000, unk=0, add_bos=False)),
    'deepseek-moe-small': dict(
        arch='deepseek', name='DeepSeek-MoE-16B-like (4 layers)', ftype=15, ctx=4096, n_embd=2048, n_layer=4,
        n_ff=10944, n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-6, tied=False, n_expert=64, n_expert_used=6,
        n_ff_exp=1408, n_expert_shared=2, n_dense_lead=1,
        kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 1408),
            ('expert_shared_count', U32, 2), ('expert_weights_scale', F32, 1.0), ('expert_count', U32, 64),
            ('expert_used_count', U32, 6)],
        vocab=dict(kind='bpe', pre='deepseek-llm', n=102400, n_regular=102400 - 15, n_special=15, bos=100000,
                   eos=100001, add_bos=True)),
    # plain dense families, their tensors from SPECS below
    'baichuan-7b': dict(
        arch='baichuan', name='Baichuan2-7B-like (8 layers)', ftype=15, ctx=4096, n_embd=4096, n_layer=8, n_ff=11008,
        n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-6, tied=False,
        vocab=dict(kind='spm', n=125696, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'stablelm-1.6b': dict(
        arch='stablelm', name='StableLM-2-1.6B-like', ftype=15, ctx=4096, n_embd=2048, n_layer=24, n_ff=5632,
        n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False, qkv_bias=True,
        kv=[('rope.dimension_count', U32, 16)],
        vocab=dict(kind='bpe', pre='stablelm2', n=100352, n_front=17, bos=1, eos=2, add_bos=False)),
    'starcoder-1b': dict(
        arch='starcoder', name='StarCoderBase-1B-like', ftype=15, ctx=8192, n_embd=2048, n_layer=24, n_ff=8192,
        n_head=16, n_head_kv=1, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        vocab=dict(kind='bpe', pre='starcoder', n=49152, n_front=17, bos=1, eos=2, add_bos=False)),
    'refact-1.6b': dict(
        arch='refact', name='Refact-1.6B-like', ftype=15, ctx=4096, n_embd=2048, n_layer=32, n_ff=5632, n_head=32,
        n_head_kv=1, rope_base=10000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='refact', n=49216, n_front=17, bos=1, eos=2, add_bos=False)),
    'bloom-560m': dict(
        arch='bloom', name='BLOOM-560M-like', ftype=15, ctx=2048, n_embd=1024, n_layer=24, n_ff=4096, n_head=16,
        n_head_kv=16, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        vocab=dict(kind='bpe', pre='bloom', n=250880, n_front=17, bos=1, eos=2, add_bos=False)),
    'mpt-7b': dict(
        arch='mpt', name='MPT-7B-like (8 layers)', ftype=15, ctx=2048, n_embd=4096, n_layer=8, n_ff=16384, n_head=32,
        n_head_kv=32, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        kv=[('attention.max_alibi_bias', F32, 8.0)],
        vocab=dict(kind='bpe', pre='mpt', n=50432, n_front=17, bos=1, eos=2, add_bos=False)),
    'olmo-1b': dict(
        arch='olmo', name='OLMo-1B-like', ftype=15, ctx=2048, n_embd=2048, n_layer=16, n_ff=8192, n_head=16,
        n_head_kv=16, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        vocab=dict(kind='bpe', pre='olmo', n=50304, n_front=17, bos=1, eos=2, add_bos=False)),
    'orion-14b': dict(
        arch='orion', name='Orion-14B-like (8 layers)', ftype=15, ctx=4096, n_embd=5120, n_layer=8, n_ff=15360,
        n_head=40, n_head_kv=40, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        vocab=dict(kind='spm', n=84608, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'xverse-7b': dict(
        arch='xverse', name='XVERSE-7B-like (8 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=8, n_ff=11008,
        n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-6, tied=False,
        vocab=dict(kind='spm', n=100534, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'codeshell-7b': dict(
        arch='codeshell', name='CodeShell-7B-like (8 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=8,
        n_ff=16384, n_head=32, n_head_kv=8, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        vocab=dict(kind='bpe', pre='codeshell', n=70144, n_front=17, bos=1, eos=2, add_bos=False)),
    'chatglm-9b': dict(
        arch='chatglm', name='GLM-4-9B-like (8 layers)', ftype=15, ctx=131072, n_embd=4096, n_layer=8, n_ff=13696,
        n_head=32, n_head_kv=2, rope_base=10000.0, eps=1e-5, tied=False,
        kv=[('rope.dimension_count', U32, 64)],
        vocab=dict(kind='bpe', pre='chatglm-bpe', n=151552, n_front=17, bos=1, eos=2, add_bos=False)),
    # non-causal encoders (master gives them no KV cache); a BPE vocabulary stands in for their WordPiece one
    'bert-minilm': dict(
        arch='bert', name='all-MiniLM-L6-v2-like', ftype=15, ctx=512, n_embd=384, n_layer=6, n_ff=1536, n_head=12,
        n_head_kv=12, rope_base=10000.0, eps=1e-12, norm_eps=True, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='bpe', pre='default', n=30522, n_front=17, bos=1, eos=2, add_bos=True, token_types=2)),
    'nomic-bert-v1.5': dict(
        arch='nomic-bert', name='nomic-embed-text-v1.5-like', ftype=15, ctx=2048, n_embd=768, n_layer=12, n_ff=3072,
        n_head=12, n_head_kv=12, rope_base=1000.0, eps=1e-12, norm_eps=True, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='bpe', pre='default', n=30522, n_front=17, bos=1, eos=2, add_bos=True, token_types=2)),
    'gemma-embedding-300m': dict(
        arch='gemma-embedding', name='EmbeddingGemma-300M-like', ftype=15, ctx=2048, n_embd=768, n_layer=24,
        n_ff=1152, n_head=3, n_head_kv=1, head_dim=256, rope_base=1000000.0, eps=1e-6, tied=True,
        kv=[('attention.sliding_window', U32, 512), ('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='spm', n=262144, front=['<pad>', '<eos>', '<bos>', '<unk>', '<mask>'],
                   bos=2, eos=1, unk=3, pad=0, add_bos=True, add_space_prefix=False)),
    'jais-13b': dict(
        arch='jais', name='Jais-13B-like (8 layers)', ftype=15, ctx=2048, n_embd=5120, n_layer=8, n_ff=13653,
        n_head=40, n_head_kv=40, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=False,
        kv=[('attention.max_alibi_bias', F32, 8.0)],
        vocab=dict(kind='bpe', pre='jais', n=84992, n_front=17, bos=1, eos=2, add_bos=False)),
    'bitnet-large': dict(
        arch='bitnet', name='bitnet_b1_58-large-like', ftype=15, ctx=2048, n_embd=1536, n_layer=24, n_ff=4096,
        n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-5, tied=True,
        vocab=dict(kind='spm', n=32002, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    # Gemma 3n E2B: per-layer embeddings, AltUp and LAuReL, a sliding window of 512 on four layers of five;
    # layers 20 and later reuse earlier layers' KV caches
    'gemma3n-e2b': dict(
        arch='gemma3n', name='Gemma-3n-E2B-like', ftype=15, ctx=32768, n_embd=2048, n_layer=30, n_ff=8192, n_head=8,
        n_head_kv=2, head_dim=256, rope_base=1000000.0, eps=1e-6, tied=True, altup=4, laurel=64, n_embd_altup=256,
        kv=[('attention.sliding_window', U32, 512), ('rope.freq_base_swa', F32, 10000.0)],
        types={'altup_proj': 'F16', 'altup_unembd_proj': 'F16'},
        vocab=dict(kind='spm', n=262400, front=['<pad>', '<eos>', '<bos>', '<unk>', '<mask>'],
                   bos=2, eos=1, unk=3, pad=0, add_bos=True, add_space_prefix=False)),
    # LFM2-8B-A1B: lfm2's short convolutions and attention layers, experts after two dense layers
    'lfm2moe-small': dict(
        arch='lfm2moe', name='LFM2-8B-A1B-like (8 layers)', ftype=15, ctx=128000, n_embd=2048, n_layer=8, n_ff=7168,
        n_head=32, n_head_kv=[0, 0, 8, 0, 0, 0, 8, 0], rope_base=1000000.0, eps=1e-5, tied=True, shortconv=3,
        n_expert=32, n_expert_used=4, n_ff_exp=1792, n_dense_lead=2,
        kv=[('leading_dense_block_count', U32, 2), ('expert_feed_forward_length', U32, 1792),
            ('expert_gating_func', U32, 2), ('expert_count', U32, 32), ('expert_used_count', U32, 4)],
        vocab=dict(kind='bpe', pre='lfm2', n=65536, n_front=17, bos=1, eos=2, add_bos=False)),
    # MiniCPM3-4B: latent Q and KV projections, the decompressed K (96) and V (64) cached per head
    'minicpm3-4b': dict(
        arch='minicpm3', name='MiniCPM3-4B-like (8 layers)', ftype=15, ctx=32768, n_embd=2560, n_layer=8, n_ff=6400,
        n_head=40, n_head_kv=40, rope_base=10000.0, eps=1e-5, tied=False, mla=dict(q=768, kv=256, rope=32, k=96, v=64),
        kv=[('attention.q_lora_rank', U32, 768), ('attention.kv_lora_rank', U32, 256), ('rope.dimension_count', U32, 32),
            ('attention.key_length', U32, 96), ('attention.value_length', U32, 64)],
        vocab=dict(kind='bpe', pre='default', n=73448, n_front=17, bos=1, eos=2, add_bos=True)),
    'jina-bert-v2-base': dict(
        arch='jina-bert-v2', name='jina-embeddings-v2-base-en-like', ftype=15, ctx=8192, n_embd=768, n_layer=12,
        n_ff=3072, n_head=12, n_head_kv=12, rope_base=10000.0, eps=1e-12, norm_eps=True, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='bpe', pre='jina-v1-en', n=30528, n_front=17, bos=1, eos=2, add_bos=True, token_types=2)),
    'modern-bert-base': dict(
        arch='modern-bert', name='ModernBERT-base-like', ftype=15, ctx=8192, n_embd=768, n_layer=22, n_ff=1152,
        n_head=12, n_head_kv=12, rope_base=160000.0, eps=1e-5, norm_eps=True, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 2), ('attention.sliding_window', U32, 128),
            ('rope.freq_base_swa', F32, 10000.0)],
        vocab=dict(kind='bpe', pre='modern-bert', n=50368, n_front=17, bos=1, eos=2, add_bos=True)),
    'neo-bert': dict(
        arch='neo-bert', name='NeoBERT-like', ftype=15, ctx=4096, n_embd=768, n_layer=28, n_ff=3072, n_head=12,
        n_head_kv=12, rope_base=10000.0, eps=1e-5, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 2)],
        vocab=dict(kind='bpe', pre='default', n=30522, n_front=17, bos=1, eos=2, add_bos=True)),
    'eurobert-210m': dict(
        arch='eurobert', name='EuroBERT-210m-like', ftype=15, ctx=8192, n_embd=768, n_layer=12, n_ff=3072,
        n_head=12, n_head_kv=12, rope_base=250000.0, eps=1e-5, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='bpe', pre='llama-bpe', n=128256, n_front=17, bos=1, eos=2, add_bos=True)),
    # diffusion language models (non-causal, no memory)
    'dream-7b': dict(
        arch='dream', name='Dream-v0-7B-like (4 layers)', ftype=15, ctx=131072, n_embd=3584, n_layer=4, n_ff=18944,
        n_head=28, n_head_kv=4, rope_base=1000000.0, eps=1e-6, tied=False, qkv_bias=True,
        vocab=dict(kind='bpe', pre='qwen2', n=152064, n_regular=151643, n_special=421, bos=151643, eos=151643,
                   add_bos=False)),
    'llada-8b': dict(
        arch='llada', name='LLaDA-8B-like (4 layers)', ftype=15, ctx=4096, n_embd=4096, n_layer=4, n_ff=12288,
        n_head=32, n_head_kv=32, rope_base=500000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='llama-bpe', n=126464, n_front=17, bos=1, eos=2, add_bos=True)),
    'nomic-bert-moe-v2': dict(
        arch='nomic-bert-moe', name='nomic-embed-text-v2-moe-like', ftype=15, ctx=512, n_embd=768, n_layer=12,
        n_ff=3072, n_head=12, n_head_kv=12, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True, n_expert=8,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1), ('moe_every_n_layers', U32, 2),
            ('expert_count', U32, 8), ('expert_used_count', U32, 2)],
        vocab=dict(kind='bpe', pre='default', n=250048, n_front=17, bos=1, eos=2, add_bos=True, token_types=1)),
    'llama-embed-8b': dict(
        arch='llama-embed', name='llama-embed-nemotron-8b-like (4 layers)', ftype=15, ctx=131072, n_embd=4096,
        n_layer=4, n_ff=14336, n_head=32, n_head_kv=8, rope_base=500000.0, eps=1e-5, tied=False,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1), ('rope.dimension_count', U32, 128)],
        vocab=dict(kind='bpe', pre='llama-bpe', n=128256, n_front=17, bos=1, eos=2, add_bos=True)),
    'jina-bert-v3': dict(
        arch='jina-bert-v3', name='jina-embeddings-v3-like', ftype=15, ctx=8194, n_embd=1024, n_layer=24, n_ff=4096,
        n_head=16, n_head_kv=16, rope_base=10000.0, eps=1e-5, norm_eps=True, tied=True,
        kv=[('attention.causal', BOOL, False), ('pooling_type', U32, 1)],
        vocab=dict(kind='bpe', pre='default', n=250002, n_front=17, bos=1, eos=2, add_bos=True, token_types=1)),
    # experts of the real models' sizes, fewer of them and fewer layers (master's CPU_REPACK copy of the
    # whole models would take tens of GB)
    'dbrx-small': dict(
        arch='dbrx', name='DBRX-like (2 layers, 4 of its 16 experts)', ftype=15, ctx=32768, n_embd=6144, n_layer=2,
        n_ff=10752, n_head=48, n_head_kv=8, rope_base=500000.0, eps=1e-5, norm_eps=True, tied=False, n_expert=4,
        kv=[('attention.clamp_kqv', F32, 8.0), ('expert_count', U32, 4), ('expert_used_count', U32, 2)],
        vocab=dict(kind='bpe', pre='dbrx', n=100352, n_front=17, bos=1, eos=2, add_bos=False)),
    # Gemma 4 31B: five sliding-window layers (head 256, 16 KV heads, window 1024) to one full-attention layer
    # (head 512, 4 KV heads); 6 of its 60 layers
    'gemma4-31b': dict(
        arch='gemma4', name='Gemma-4-31B-like (6 layers)', ftype=15, ctx=262144, n_embd=5376, n_layer=6, n_ff=21504,
        n_head=32, n_head_kv=[16, 16, 16, 16, 16, 4], head_dim=512, head_dim_swa=256, rope_base=1000000.0, eps=1e-6,
        tied=True, swa_layers=[True, True, True, True, True, False],
        kv=[('attention.key_length_swa', U32, 256), ('attention.value_length_swa', U32, 256),
            ('attention.sliding_window', U32, 1024), ('attention.sliding_window_pattern', ARR, (BOOL, [1, 1, 1, 1, 1, 0])),
            ('attention.shared_kv_layers', U32, 0), ('embedding_length_per_layer_input', U32, 0),
            ('rope.dimension_count', U32, 512), ('rope.dimension_count_swa', U32, 256),
            ('rope.freq_base_swa', F32, 10000.0), ('final_logit_softcapping', F32, 30.0)],
        vocab=dict(kind='bpe', pre='gemma4', n=262144, n_front=17, bos=2, eos=1, add_bos=True)),
    # master-only MoE families (#36, batch 3): the real models' sizes, 4 layers
    'llada-moe-7b': dict(
        arch='llada-moe', name='LLaDA-MoE-7B-A1B-like (4 layers)', ftype=15, ctx=8192, n_embd=2048, n_layer=4,
        n_ff=8192, n_head=16, n_head_kv=16, head_dim=128, rope_base=50000.0, eps=1e-5, tied=False, n_expert=64,
        n_ff_exp=1024,
        kv=[('expert_feed_forward_length', U32, 1024), ('expert_count', U32, 64), ('expert_used_count', U32, 8),
            ('attention.causal', BOOL, False)],
        vocab=dict(kind='bpe', pre='llada-moe', n=157184, n_front=17, bos=1, eos=2, add_bos=False)),
    'bailingmoe-lite': dict(
        arch='bailingmoe', name='Ling-lite-like (4 layers)', ftype=15, ctx=16384, n_embd=2048, n_layer=4, n_ff=5632,
        n_head=16, n_head_kv=4, head_dim=128, rope_base=600000.0, eps=1e-6, tied=False, n_expert=64, n_ff_exp=1408,
        n_expert_shared=2,
        kv=[('rope.dimension_count', U32, 128), ('leading_dense_block_count', U32, 0),
            ('expert_feed_forward_length', U32, 1408), ('expert_weights_scale', F32, 1.0),
            ('expert_shared_count', U32, 2), ('expert_weights_norm', BOOL, True), ('expert_count', U32, 64),
            ('expert_used_count', U32, 6)],
        vocab=dict(kind='bpe', pre='bailingmoe', n=126464, n_front=17, bos=1, eos=2, add_bos=False)),
    'grovemoe-inst': dict(
        arch='grovemoe', name='GroveMoE-Inst-like (4 layers)', ftype=15, ctx=131072, n_embd=2048, n_layer=4,
        n_ff=6144, n_head=32, n_head_kv=4, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=False, n_expert=128,
        n_ff_exp=768, n_ff_chexp=128, n_chexp=64,
        kv=[('expert_feed_forward_length', U32, 768), ('expert_chunk_feed_forward_length', U32, 128),
            ('experts_per_group', U32, 2), ('expert_group_scale', F32, 0.05), ('expert_count', U32, 128),
            ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    # MoE families with leading dense layers and sliding windows (4 layers: the dense one and three expert ones)
    'afmoe-mini': dict(
        arch='afmoe', name='Trinity-Mini-like (4 layers)', ftype=15, ctx=131072, n_embd=2048, n_layer=4, n_ff=6144,
        n_head=32, n_head_kv=4, head_dim=128, rope_base=10000.0, eps=1e-5, tied=False, n_expert=128, n_ff_exp=1024,
        n_expert_shared=1, n_ff_shexp=1024,
        kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 1024),
            ('expert_shared_count', U32, 1), ('expert_gating_func', U32, 2), ('expert_weights_scale', F32, 2.5),
            ('expert_weights_norm', BOOL, True), ('attention.sliding_window', U32, 2048),
            ('attention.sliding_window_pattern', U32, 4), ('expert_count', U32, 128), ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='afmoe', n=200192, n_front=17, bos=1, eos=2, add_bos=False)),
    'laguna-xs': dict(
        arch='laguna', name='Laguna-XS-like (4 layers)', ftype=15, ctx=131072, n_embd=2048, n_layer=4, n_ff=8192,
        n_head=32, n_head_kv=8, head_dim=128, rope_base=500000.0, eps=1e-6, tied=False, n_expert=64, n_ff_exp=512,
        n_ff_shexp=512,
        kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 512),
            ('expert_shared_feed_forward_length', U32, 512), ('expert_gating_func', U32, 2),
            ('expert_weights_scale', F32, 2.5), ('expert_weights_norm', BOOL, True), ('attention.sliding_window', U32, 512),
            ('expert_count', U32, 64), ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='laguna', n=100352, n_front=17, bos=1, eos=2, add_bos=False)),
    'cohere2moe-small': dict(
        arch='cohere2moe', name='Cohere2-MoE-like (4 layers)', ftype=15, ctx=131072, n_embd=4096, n_layer=4, n_ff=14336,
        n_head=32, n_head_kv=8, head_dim=128, rope_base=50000.0, eps=1e-5, norm_eps=True, tied=True, n_expert=64,
        n_ff_exp=2048, n_ff_shexp=2048,
        kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 2048),
            ('expert_shared_count', U32, 1), ('expert_shared_feed_forward_length', U32, 2048),
            ('expert_weights_norm', BOOL, True), ('logit_scale', F32, 0.25), ('attention.sliding_window', U32, 4096),
            ('attention.sliding_window_pattern', ARR, (BOOL, [1, 1, 1, 0])), ('expert_count', U32, 64),
            ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='cohere2moe', n=256000, n_front=17, bos=5, eos=255001, add_bos=True)),
    # MiMo-V2-Flash: a full-attention first layer (4 KV heads), sliding ones of window 128 (8 KV heads), K heads 192
    # and V heads 128 wide; 4 of its 48 layers (a dense first layer, then experts: 32 of its 256)
    'mimo2-flash': dict(
        arch='mimo2', name='MiMo-V2-Flash-like (4 layers, 32 experts)', ftype=15, ctx=262144, n_embd=4096, n_layer=4,
        n_ff=16384, n_head=64, n_head_kv=[4, 8, 8, 8], head_k=192, head_v=128, rope_base=5000000.0, eps=1e-5,
        tied=False, swa_layers=[False, True, True, True], n_expert=32, n_ff_exp=2048, n_dense_lead=1,
        kv=[('attention.key_length', U32, 192), ('attention.value_length', U32, 128), ('attention.sliding_window', U32, 128),
            ('attention.sliding_window_pattern', ARR, (BOOL, [0, 1, 1, 1])), ('rope.dimension_count', U32, 64),
            ('rope.freq_base_swa', F32, 10000.0), ('expert_feed_forward_length', U32, 2048), ('expert_count', U32, 32),
            ('expert_used_count', U32, 8), ('attention.value_scale', F32, 0.707)],
        vocab=dict(kind='bpe', pre='qwen2', n=152576, n_regular=151643, n_special=933, bos=151643,
                   eos=151645, add_bos=False)),
    # Snowflake Arctic: a dense residual FFN (n_embd wide) beside 128 experts of n_ff; 2 of 35 layers, 8 experts
    'arctic-small': dict(
        arch='arctic', name='Snowflake-Arctic-like (2 layers, 8 of its 128 experts)', ftype=15, ctx=4096, n_embd=7168,
        n_layer=2, n_ff=4864, n_head=56, n_head_kv=8, rope_base=10000.0, eps=1e-5, tied=False, n_expert=8,
        kv=[('expert_count', U32, 8), ('expert_used_count', U32, 2)],
        vocab=dict(kind='spm', n=32000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    # Granite 4 with sliding-window layers (granite_swa): attention sinks, the pattern as one flag a layer
    'granite-swa-small': dict(
        arch='granite_swa', name='Granite-4-SWA-like (4 layers)', ftype=15, ctx=131072, n_embd=2560, n_layer=4,
        n_ff=8192, n_head=40, n_head_kv=8, rope_base=10000000.0, eps=1e-5, tied=True,
        kv=[('attention.sliding_window', U32, 4096), ('attention.sliding_window_pattern', ARR, (BOOL, [1, 1, 1, 0])),
            ('logit_scale', F32, 10.0), ('residual_scale', F32, 0.22), ('embedding_scale', F32, 12.0),
            ('attention.scale', F32, 0.0078125)],
        vocab=dict(kind='bpe', pre='granite-docling', n=100352, n_front=17, bos=1, eos=2, add_bos=False)),
    # Step-3.5-Flash-like: sliding-window layers flagged one by one, a dense first layer, experts with a shared one
    'step35-flash': dict(
        arch='step35', name='Step-3.5-Flash-like (4 layers, 32 experts)', ftype=15, ctx=65536, n_embd=4096, n_layer=4,
        n_ff=11264, n_head=64, n_head_kv=8, head_dim=128, rope_base=5000000.0, eps=1e-5, tied=False, n_expert=32,
        n_ff_exp=1280, n_ff_shexp=1280,
        kv=[('attention.sliding_window', U32, 512), ('attention.sliding_window_pattern', ARR, (BOOL, [0, 1, 1, 1])),
            ('expert_feed_forward_length', U32, 1280), ('expert_shared_feed_forward_length', U32, 1280),
            ('expert_count', U32, 32), ('expert_used_count', U32, 8), ('rope.dimension_count', U32, 128)],
        vocab=dict(kind='bpe', pre='qwen2', n=128896, n_front=17, bos=1, eos=2, add_bos=False)),
    # Hy3-like (hy_v3): q/k norms, a dense first layer, experts with a selection bias and a shared expert
    'hy-v3-small': dict(
        arch='hy_v3', name='Hy3-like (4 layers, 32 experts)', ftype=15, ctx=131072, n_embd=4096, n_layer=4, n_ff=12288,
        n_head=32, n_head_kv=8, head_dim=128, rope_base=1000000.0, eps=1e-5, tied=False, n_expert=32, n_ff_exp=1536,
        n_ff_shexp=1536,
        kv=[('expert_feed_forward_length', U32, 1536), ('expert_shared_feed_forward_length', U32, 1536),
            ('expert_count', U32, 32), ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='hunyuan-dense', n=120832, n_front=17, bos=1, eos=2, add_bos=False)),
    # dense families of master's converter (4 layers of the named models' sizes; jais2's, maincoder's, nanbeige's and
    # mellum's approximate)
    'plamo-13b': dict(
        arch='plamo', name='PLaMo-13B-like (4 layers)', ftype=15, ctx=4096, n_embd=5120, n_layer=4, n_ff=13824,
        n_head=40, n_head_kv=5, rope_base=10000.0, eps=1e-6, tied=False,
        vocab=dict(kind='spm', n=50432, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'qwen-7b': dict(
        arch='qwen', name='Qwen-7B-like (4 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=4, n_ff=22016, n_head=32,
        n_head_kv=32, rope_base=10000.0, eps=1e-6, tied=False,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151643, add_bos=False)),
    'maincoder-1b': dict(
        arch='maincoder', name='Maincoder-1B-like', ftype=15, ctx=32768, n_embd=1536, n_layer=24, n_ff=4096,
        n_head=16, n_head_kv=4, head_dim=96, rope_base=1000000.0, eps=1e-6, tied=True,
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    'nanbeige-3b': dict(
        arch='nanbeige', name='Nanbeige4-3B-like (8 layers)', ftype=15, ctx=65536, n_embd=2560, n_layer=8, n_ff=10496,
        n_head=20, n_head_kv=4, head_dim=128, rope_base=70000000.0, eps=1e-5, tied=False,
        vocab=dict(kind='bpe', pre='default', n=166144, n_front=17, bos=1, eos=2, add_bos=True)),
    'jais2-8b': dict(
        arch='jais2', name='Jais-2-8B-like (4 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=4, n_ff=16384,
        n_head=32, n_head_kv=32, rope_base=500000.0, eps=1e-5, norm_eps=True, tied=False,
        vocab=dict(kind='bpe', pre='jais-2', n=150272, n_front=17, bos=1, eos=2, add_bos=False)),
    'mellum-moe': dict(
        arch='mellum', name='Mellum-MoE-like (4 layers)', ftype=15, ctx=8192, n_embd=2048, n_layer=4, n_ff=6144,
        n_head=16, n_head_kv=4, head_dim=128, rope_base=500000.0, eps=1e-6, tied=False, n_expert=64, n_ff_exp=768,
        kv=[('expert_feed_forward_length', U32, 768), ('expert_count', U32, 64), ('expert_used_count', U32, 8)],
        vocab=dict(kind='bpe', pre='mellum', n=98304, n_front=17, bos=1, eos=2, add_bos=False)),
    # Llama-3.3-Nemotron-Super-49B-like (deci): full attention, a linear replacement, no attention, FFNs of three
    # sizes and none; 4 of its 80 layers
    'deci-super': dict(
        arch='deci', name='Llama-3.3-Nemotron-Super-49B-like (4 layers)', ftype=15, ctx=131072, n_embd=8192, n_layer=4,
        n_ff=[28672, 14336, 0, 5632], n_head=[64, 64, 0, 64], n_head_kv=[8, 0, 0, 8], rope_base=500000.0, eps=1e-5,
        tied=False, kv=[('rope.dimension_count', U32, 128)],
        vocab=dict(kind='bpe', pre='llama-bpe', n=128256, n_front=17, bos=1, eos=2, add_bos=True)),
    # RND1 (a diffusion model of Qwen3-30B-A3B's shapes; 4 layers, 32 of its 128 experts)
    'rnd1-base': dict(
        arch='rnd1', name='RND1-Base-like (4 layers, 32 experts)', ftype=15, ctx=4096, n_embd=2048, n_layer=4, n_ff=6144,
        n_head=32, n_head_kv=4, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=False, n_expert=32, n_ff_exp=768,
        kv=[('expert_feed_forward_length', U32, 768), ('expert_count', U32, 32), ('expert_used_count', U32, 8),
            ('attention.causal', BOOL, False)],
        vocab=dict(kind='bpe', pre='qwen2', n=151936, n_regular=151643, n_special=293, bos=151643,
                   eos=151645, add_bos=False)),
    # PLaMo 3-like: fused Q/K/V, q/k norms, gate and up fused, a sliding window on seven layers of eight (shapes
    # approximate; 8 layers)
    'plamo3-small': dict(
        arch='plamo3', name='PLaMo-3-like (8 layers)', ftype=15, ctx=32768, n_embd=2048, n_layer=8, n_ff=8192, n_head=16,
        n_head_kv=4, head_dim=128, rope_base=1000000.0, eps=1e-6, tied=True,
        kv=[('attention.sliding_window', U32, 2048), ('rope.freq_base_swa', F32, 10000.0)],
        vocab=dict(kind='spm', n=100000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    # OpenELM-270M-like: layer-wise scaling of heads, KV heads and FFN sizes (4 of its 16 layers' sizes)
    'openelm-270m': dict(
        arch='openelm', name='OpenELM-270M-like (4 layers)', ftype=15, ctx=2048, n_embd=1280, n_layer=4,
        n_ff=[768, 2048, 3328, 5120], n_head=[12, 16, 16, 20], n_head_kv=[3, 4, 4, 5], head_dim=64, rope_base=10000.0,
        eps=1e-6, tied=True,
        vocab=dict(kind='spm', n=32000, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
    'hunyuan-vl-ocr': dict(
        arch='hunyuan_vl', name='HunyuanOCR-like (text)', ftype=15, ctx=32768, n_embd=1024, n_layer=24, n_ff=3584,
        n_head=16, n_head_kv=8, head_dim=128, rope_base=10000.0, eps=1e-5, tied=True,
        kv=[('rope.dimension_sections', ARR, (I32, [0, 64, 64, 0]))],
        vocab=dict(kind='bpe', pre='hunyuan-dense', n=120818, n_front=17, bos=1, eos=2, add_bos=False)),
    'pangu-embedded-1b': dict(
        arch='pangu-embedded', name='openPangu-Embedded-1B-like', ftype=15, ctx=32768, n_embd=1536, n_layer=26,
        n_ff=6144, n_head=12, n_head_kv=6, rope_base=4000000.0, eps=1e-5, tied=False, qkv_bias=True,
        vocab=dict(kind='spm', n=153376, front=['<unk>', '<s>', '</s>'], bos=1, eos=45892, unk=0, add_bos=True)),
    # Grok-1's sizes (2 layers, 2 of its 8 experts): validate --load's references and master's estimate ones
    'grok-small': dict(
        arch='grok', name='Grok-1-like (2 layers, 2 of its 8 experts)', ftype=15, ctx=8192, n_embd=6144, n_layer=2,
        n_ff=32768, n_head=48, n_head_kv=8, rope_base=10000.0, eps=1e-5, tied=False, n_expert=2,
        kv=[('expert_feed_forward_length', U32, 32768), ('expert_count', U32, 2), ('expert_used_count', U32, 2)],
        vocab=dict(kind='spm', n=131072, front=['<unk>', '<s>', '</s>'], bos=1, eos=2, unk=0, add_bos=True)),
}

# Mistral 4: deepseek2's loader and latent attention; deepseek2-small's layout with approximate Mistral 4 sizes
# (4 layers, a dense one, 16 experts)
PRESETS['mistral4-small'] = dict(
    PRESETS['deepseek2-small'], arch='mistral4', name='Mistral-4-like (4 layers, 16 experts)', ctx=262144, n_embd=4096,
    n_layer=4, n_ff=12288, n_head=32, n_head_kv=32, q_lora_rank=1024, n_ff_exp=2048, n_expert=16, n_expert_shared=1,
    n_expert_used=4, yarn=dict(factor=64.0, orig=4096, log_mul=0.1),
    vocab=dict(kind='bpe', pre='tekken', n=131072, n_regular=131072 - 1000, n_special=1000, bos=1, eos=2, add_bos=True))

def dsa_keys(mla, indexer, n_expert, n_ff_exp, vocab, extra=()):
    """The keys of a sparse-attention preset (deepseek32, glm-dsa): a dense first layer, n_expert experts (8 used, one
    shared), latent attention in master's MLA layout (one KV head of kv_lora_rank + the rotary part), the indexer."""
    return [('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, n_ff_exp),
            ('expert_count', U32, n_expert), ('expert_used_count', U32, 8), ('expert_shared_count', U32, 1),
            ('expert_weights_scale', F32, 2.5), ('expert_weights_norm', BOOL, True), ('expert_gating_func', U32, 2),
            ('attention.q_lora_rank', U32, mla['q']), ('attention.kv_lora_rank', U32, mla['kv']),
            ('attention.key_length', U32, mla['kv'] + mla['rope']), ('attention.value_length', U32, mla['kv']),
            ('attention.key_length_mla', U32, mla['k']), ('attention.value_length_mla', U32, mla['v']),
            ('rope.dimension_count', U32, mla['rope']), ('attention.indexer.head_count', U32, indexer['heads']),
            ('attention.indexer.key_length', U32, indexer['k']), ('attention.indexer.top_k', U32, 2048)] + \
        list(extra) + [('vocab_size', U32, vocab)]


# DeepSeek-V3.2 (deepseek32): V3's latent attention in master's MLA layout (K and V decompression per head in
# attn_k_b / attn_v_b) and the sparse-attention indexer (64 heads of 128, its keys cached apart); V3.2's sizes, 3
# layers (a dense one), 16 of 256 experts
DS32_MLA, DS32_INDEXER = dict(q=1536, kv=512, rope=64, k=192, v=128), dict(heads=64, k=128)
PRESETS['deepseek32-small'] = dict(
    arch='deepseek32', name='DeepSeek-V3.2-like (3 layers, 16 experts)', ftype=15, ctx=163840, n_embd=7168, n_layer=3,
    n_ff=18432, n_head=128, n_head_kv=1, rope_base=10000.0, eps=1e-6, tied=False, n_expert=16, n_ff_exp=2048,
    n_ff_shexp=2048, mla=DS32_MLA, indexer=DS32_INDEXER,
    kv=dsa_keys(DS32_MLA, DS32_INDEXER, 16, 2048, 129280, [
        ('rope.scaling.type', STR, 'yarn'), ('rope.scaling.factor', F32, 40.0),
        ('rope.scaling.original_context_length', U32, 4096), ('rope.scaling.yarn_log_multiplier', F32, 0.1)]),
    vocab=dict(kind='bpe', pre='deepseek-v3', n=129280, n_front=17, bos=0, eos=1, add_bos=True))

# GLM-5.2 (glm-dsa): deepseek32's layers with GLM's sizes (approximate), 5 layers (a dense one), 16 of 256 experts; a
# training context of 2^20 and no attention.indexer.types, so master keeps indexer keys in GLM-5.2's layers (0, 1,
# 2, then every fourth): 3 of 5
GLM_DSA_MLA, GLM_DSA_INDEXER = dict(q=2048, kv=512, rope=64, k=256, v=256), dict(heads=32, k=128)
PRESETS['glm-dsa-small'] = dict(
    arch='glm-dsa', name='GLM-5.2-like (5 layers, 16 experts)', ftype=15, ctx=1048576, n_embd=6144, n_layer=5,
    n_ff=12288, n_head=64, n_head_kv=1, rope_base=1000000.0, eps=1e-5, tied=False, n_expert=16, n_ff_exp=2048,
    n_ff_shexp=2048, mla=GLM_DSA_MLA, indexer=GLM_DSA_INDEXER, kv=dsa_keys(GLM_DSA_MLA, GLM_DSA_INDEXER, 16, 2048, 154880),
    vocab=dict(kind='bpe', pre='glm4', n=154880, n_front=17, bos=0, eos=1, add_bos=False))

# MiniMax-M3 (minimax-m3): minimax-m2's attention (q/k norms of one head, partial RoPE), a dense first layer then experts
# with a selection bias and a shared one, and MiniMax Sparse Attention: an indexer (one head of IK a KV head) in the expert layers,
# its keys (and a V row of one head) cached apart; approximate sizes, 4 layers, 16 experts
PRESETS['minimax-m3-small'] = dict(
    arch='minimax-m3', name='MiniMax-M3-like (4 layers, 16 experts)', ftype=15, ctx=196608, n_embd=3072, n_layer=4,
    n_ff=8192, n_head=48, n_head_kv=8, head_dim=128, rope_base=5000000.0, eps=1e-6, tied=False, n_expert=16,
    n_ff_exp=1536, n_ff_shexp=1536, indexer=dict(heads=8, k=128),
    kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 1536), ('expert_count', U32, 16),
        ('expert_used_count', U32, 8), ('expert_shared_count', U32, 1), ('expert_weights_scale', F32, 2.0),
        ('expert_weights_norm', BOOL, True), ('expert_gating_func', U32, 2), ('rope.dimension_count', U32, 64),
        ('attention.indexer.head_count', U32, 8), ('attention.indexer.key_length', U32, 128),
        ('attention.indexer.top_k', U32, 16), ('attention.indexer.block_size', U32, 64),
        ('attention.indexer.local_blocks', U32, 1)],
    vocab=dict(kind='bpe', pre='minimax-m2', n=200064, n_front=17, bos=1, eos=2, add_bos=False))

# Chameleon-7B (chameleon): llama's layers with q/k norms per head (2-D); its graph copies the logits to blank the
# image tokens' (ggml_set_1d); 4 of 32 layers
PRESETS['chameleon-7b'] = dict(
    arch='chameleon', name='Chameleon-7B-like (4 layers)', ftype=15, ctx=4096, n_embd=4096, n_layer=4, n_ff=11008,
    n_head=32, n_head_kv=32, rope_base=10000.0, eps=1e-5, tied=False,
    vocab=dict(kind='bpe', pre='chameleon', n=65536, n_front=17, bos=0, eos=2, add_bos=True))

# MiniMax-Text-01 (minimax-01): lightning (linear) attention layers, whose state is head_dim x head_dim per head a
# sequence, and softmax attention every full_attention_interval-th layer; experts of feed_forward_length in every
# layer.  Its sizes, 4 layers (attention in the fourth), 4 of 32 experts
PRESETS['minimax-01-small'] = dict(
    arch='minimax-01', name='MiniMax-Text-01-like (4 layers, 4 experts)', ftype=15, ctx=1048576, n_embd=6144, n_layer=4,
    n_ff=9216, n_head=64, n_head_kv=8, head_dim=128, rope_base=10000000.0, eps=1e-5, tied=False, n_expert=4,
    kv=[('residual_scale', F32, 1.0), ('full_attention_interval', U32, 4), ('expert_count', U32, 4),
        ('expert_used_count', U32, 2), ('rope.dimension_count', U32, 64)],
    vocab=dict(kind='bpe', pre='minimax-m2', n=200064, n_front=17, bos=1, eos=2, add_bos=False))

# PaddleOCR-VL's text model (paddleocr): ERNIE-4.5-0.3B's loader with heads of 128, multi-section RoPE
PRESETS['paddleocr-0.9b'] = dict(
    arch='paddleocr', name='PaddleOCR-VL-0.9B-like (text)', ftype=15, ctx=131072, n_embd=1024, n_layer=18, n_ff=3072,
    n_head=16, n_head_kv=2, head_dim=128, rope_base=500000.0, eps=1e-5, tied=True,
    kv=[('rope.dimension_sections', ARR, (I32, [16, 24, 24, 0])), ('rope.dimension_count', U32, 128)],
    vocab=dict(kind='bpe', pre='smollm', n=103424, n_front=17, bos=1, eos=2, add_bos=False))

# DeepSeek-OCR's decoder (deepseek2-ocr): deepseek2's layers without MLA (plain Q/K/V of n_embd), a dense first layer,
# experts with two shared ones; its sizes, 4 of 12 layers
PRESETS['deepseek2-ocr-3b'] = dict(
    arch='deepseek2-ocr', name='DeepSeek-OCR-3B-like (4 layers)', ftype=15, ctx=8192, n_embd=1280, n_layer=4,
    n_ff=6848, n_head=10, n_head_kv=10, rope_base=10000.0, eps=1e-6, tied=False, n_expert=64, n_ff_exp=896,
    n_ff_shexp=1792,
    kv=[('leading_dense_block_count', U32, 1), ('expert_feed_forward_length', U32, 896), ('expert_count', U32, 64),
        ('expert_used_count', U32, 6), ('expert_shared_count', U32, 2), ('expert_weights_scale', F32, 1.0),
        ('rope.dimension_count', U32, 128)],
    vocab=dict(kind='bpe', pre='deepseek-v3', n=129280, n_front=17, bos=0, eos=1, add_bos=True))

# CogVLM2's text model (cogvlm): llama-3-8B's layers with fused Q/K/V and a visual expert beside every attention and FFN
# matrix (vis_*); 4 of 32 layers
PRESETS['cogvlm-19b'] = dict(
    arch='cogvlm', name='CogVLM2-Llama3-19B-like (text, 4 layers)', ftype=15, ctx=8192, n_embd=4096, n_layer=4,
    n_ff=14336, n_head=32, n_head_kv=32, rope_base=500000.0, eps=1e-5, tied=False,
    vocab=dict(kind='bpe', pre='llama-bpe', n=128256, n_front=17, bos=128000, eos=128001, add_bos=True))

# talkie-1930-13b (talkie): llama's layers without norm weights but a q gain per head and an output scale per layer;
# approximate 13B sizes, 4 of 40 layers
PRESETS['talkie-13b'] = dict(
    arch='talkie', name='talkie-1930-13B-like (4 layers)', ftype=15, ctx=4096, n_embd=5120, n_layer=4, n_ff=13824,
    n_head=40, n_head_kv=40, rope_base=10000.0, eps=1e-5, tied=False, kv=[('logit_scale', F32, 1.0)],
    vocab=dict(kind='bpe', pre='talkie', n=65536, n_front=17, bos=1, eos=2, add_bos=True))

# T5 v1.1's encoder (t5encoder, as image models use it): relative-position attention, a gated FFN, its tensors under
# enc.; a unigram (t5) vocabulary; 4 of 24 layers
PRESETS['t5encoder-xxl'] = dict(
    arch='t5encoder', name='T5-v1.1-XXL-encoder-like (4 layers)', ftype=15, ctx=512, n_embd=4096, n_layer=4,
    n_ff=10240, n_head=64, n_head_kv=64, head_dim=64, rope_base=10000.0, eps=1e-6, tied=True,
    kv=[('attention.relative_buckets_count', U32, 32)],
    vocab=dict(kind='spm', model='t5', n=32128, bos=0, eos=1, unk=2, add_bos=False))

NONGATED = ('gpt2', 'gptneox', 'phi2', 'falcon', 'starcoder2', 'nemotron')
LLAMA_LIKE = ('qwen3', 'granite', 'exaone', 'internlm2', 'minicpm', 'olmo2', 'command-r', 'olmoe', 'qwen3moe',
              'gemma3', 'gpt-oss', 'smollm3', 'mistral3', 'arcee', 'ernie4_5', 'seed_oss', 'granitemoe', 'exaone4',
              'dots1', 'glm4moe', 'glm4', 'minimax-m2', 'llama4', 'ernie4_5-moe', 'smallthinker', 'hunyuan-moe',
              'hunyuan-dense', 'apertus', 'exaone-moe', 'bailingmoe2', 'qwen2vl', 'qwen3vl', 'qwen3vlmoe', 'paddleocr')


# ---------------------------------------------------------------------------------------------------------
# vocabularies (synthetic but accepted by llama.cpp)
def gpt2_byte_chars():
    bs = list(range(ord('!'), ord('~') + 1)) + list(range(ord('\xa1'), ord('\xac') + 1)) + \
        list(range(ord('\xae'), ord('\xff') + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    m = dict(zip(bs, cs))
    return [chr(m[b]) for b in range(256)]


def bpe_vocab(v):
    """tokens, token types, merges. Regular tokens: the 256 byte-level characters, then merged words."""
    n = v['n']
    n_front = v.get('n_front', 0)
    n_regular = v.get('n_regular', n - n_front)
    names = v.get('special_names', [])
    base = [chr(c) for c in range(ord('a'), ord('z') + 1)] + ['\u0120'] + \
           [chr(c) for c in range(ord('A'), ord('Z') + 1)]
    regular = gpt2_byte_chars()
    merges = []
    level = base
    while len(regular) < n_regular:
        nxt = []
        for t in level:
            for c in base:
                if len(regular) >= n_regular:
                    break
                regular.append(t + c)
                merges.append(t + ' ' + c)
                nxt.append(t + c)
        level = nxt
    def special(i):
        return names[i] if i < len(names) else '<|special_%d|>' % i
    if n_front:
        front = [special(i) for i in range(n_front)]
        toks = front + regular
        types = [3] * n_front + [1] * len(regular)
    else:
        toks = list(regular)
        types = [1] * len(regular)
        n_special = v.get('n_special', n - n_regular)
        for i in range(n_special):
            toks.append(special(i))
            types.append(3)
        while len(toks) < n:
            toks.append('[PAD%d]' % len(toks))
            types.append(5)
    assert len(toks) == n and len(set(toks)) == n
    return toks, types, merges


def spm_vocab(v):
    n = v['n']
    front = list(v.get('front', []))
    back_names = list(v.get('back', []))
    n_back = v.get('n_back', len(back_names))
    back = [back_names[i] if i < len(back_names) else '<|placeholder_x%d|>' % i for i in range(n_back)]
    toks = list(front)
    types = [2 if t == '<unk>' else 3 for t in front]
    scores = [0.0] * len(front)
    for b in range(256):
        toks.append('<0x%02X>' % b)
        types.append(6)
        scores.append(0.0)
    n_normal = n - len(toks) - len(back)
    alphabet = 'abcdefghijklmnopqrstuvwxyz'
    k = 0
    done = False
    for L in itertools.count(1):
        for w in itertools.product(alphabet, repeat=L):
            w = ''.join(w)
            for piece in ('\u2581' + w, w):
                if k >= n_normal:
                    done = True
                    break
                toks.append(piece)
                types.append(1)
                scores.append(float(-k))
                k += 1
            if done:
                break
        if done:
            break
    for t in back:
        toks.append(t)
        types.append(3)
        scores.append(0.0)
    assert len(toks) == n and len(set(toks)) == n
    return toks, types, scores


# ---------------------------------------------------------------------------------------------------------
def use_more_bits(i, n):
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2

RECURRENT = ('mamba', 'mamba2', 'rwkv6', 'rwkv7', 'jamba', 'granitehybrid', 'lfm2', 'falcon-h1', 'nemotron_h', 'nemotron_h_moe', 'plamo2',
             'qwen3next')


def per_layer(v, i):
    return v[i] if isinstance(v, list) else v


def mamba_layer(p, T, b, mamba2, norms=False):
    """A Mamba (1 or 2) mixer's tensors, as master's src/models/mamba*.cpp, jamba.cpp, granite-hybrid.cpp load them."""
    E, m = p['n_embd'], p['ssm']
    DI, DS, DC, R = m['d_inner'], m['d_state'], m['d_conv'], m['dt_rank']
    if mamba2:
        G = m['n_group']
        conv = DI + 2 * G * DS
        T += [(b + 'ssm_in.weight', [E, DI + conv + R]), (b + 'ssm_conv1d.weight', [DC, conv]),
              (b + 'ssm_conv1d.bias', [conv]), (b + 'ssm_dt.bias', [R]), (b + 'ssm_a', [1, R]), (b + 'ssm_d', [1, R]),
              (b + 'ssm_norm.weight', [DI // G, G]), (b + 'ssm_out.weight', [DI, E])]
        return
    T += [(b + 'ssm_in.weight', [E, 2 * DI]), (b + 'ssm_conv1d.weight', [DC, DI]), (b + 'ssm_conv1d.bias', [DI]),
          (b + 'ssm_x.weight', [DI, R + 2 * DS])]
    if norms:  # jamba
        T.append((b + 'ssm_dt_norm.weight', [R]))
    T += [(b + 'ssm_dt.weight', [R, DI]), (b + 'ssm_dt.bias', [DI])]
    if norms:
        T += [(b + 'ssm_b_norm.weight', [DS]), (b + 'ssm_c_norm.weight', [DS])]
    T += [(b + 'ssm_a', [DS, DI]), (b + 'ssm_d', [DI]), (b + 'ssm_out.weight', [DI, E])]


def rwkv_layer(p, T, b, i):
    """An RWKV6 or RWKV7 block (master's src/models/rwkv6.cpp, rwkv7.cpp)."""
    E, F, r = p['n_embd'], p['n_ff'], p['rwkv']
    T += [(b + 'attn_norm.weight', [E]), (b + 'attn_norm.bias', [E]), (b + 'attn_norm_2.weight', [E]),
          (b + 'attn_norm_2.bias', [E])]
    if p['arch'] == 'rwkv6':
        X, D, hs = r['time_mix_extra_dim'], r['time_decay_extra_dim'], r['head_size']
        T += [(b + 'time_mix_w1.weight', [E, X * 5]), (b + 'time_mix_w2.weight', [X, E, 5]),
              (b + 'time_mix_lerp_x.weight', [E, 1, 1]), (b + 'time_mix_lerp_fused.weight', [E, 1, 1, 5]),
              (b + 'time_mix_first.weight', [hs, E // hs]), (b + 'time_mix_decay.weight', [E]),
              (b + 'time_mix_decay_w1.weight', [E, D]), (b + 'time_mix_decay_w2.weight', [D, E])]
        T += [(b + 'time_mix_' + n + '.weight', [E, E]) for n in ('key', 'value', 'receptance', 'gate')]
    else:
        dl, il, vl, gl = r['decay_lora'], r['iclr_lora'], r['value_res_mix_lora'], r['gate_lora']
        v = il if i == 0 else vl
        T += [(b + 'time_mix_w0.weight', [E]), (b + 'time_mix_w1.weight', [E, dl]), (b + 'time_mix_w2.weight', [dl, E]),
              (b + 'time_mix_a0.weight', [E]), (b + 'time_mix_a1.weight', [E, il]), (b + 'time_mix_a2.weight', [il, E]),
              (b + 'time_mix_v0.weight', [E]), (b + 'time_mix_v1.weight', [E, v]), (b + 'time_mix_v2.weight', [v, E]),
              (b + 'time_mix_g1.weight', [E, gl]), (b + 'time_mix_g2.weight', [gl, E]),
              (b + 'time_mix_lerp_fused.weight', [E, 1, 1, 6]), (b + 'time_mix_k_k.weight', [E]),
              (b + 'time_mix_k_a.weight', [E]), (b + 'time_mix_r_k.weight', [E])]
        T += [(b + 'time_mix_' + n + '.weight', [E, E]) for n in ('key', 'value', 'receptance')]
    T += [(b + 'time_mix_ln.weight', [E]), (b + 'time_mix_ln.bias', [E]), (b + 'time_mix_output.weight', [E, E]),
          (b + 'channel_mix_lerp_k.weight', [E, 1, 1])]
    if p['arch'] == 'rwkv6':
        T.append((b + 'channel_mix_lerp_r.weight', [E, 1, 1]))
    T += [(b + 'channel_mix_key.weight', [E, F]), (b + 'channel_mix_value.weight', [F, E])]
    if p['arch'] == 'rwkv6':
        T.append((b + 'channel_mix_receptance.weight', [E, E]))


def attn_qkvo(p, T, b, i, q_out=None):
    E, H, hkv = p['n_embd'], p['n_head'], per_layer(p['n_head_kv'], i)
    hd = p.get('head_dim', E // H)
    T += [(b + 'attn_q.weight', [E, hd * H]), (b + 'attn_k.weight', [E, hd * hkv]), (b + 'attn_v.weight', [E, hd * hkv]),
          (b + 'attn_output.weight', [hd * H, E])]


def gated_ffn(p, T, b, i):
    E, F = p['n_embd'], per_layer(p['n_ff'], i)
    if i in p.get('moe_layers', ()):
        X = p['n_expert']
        T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_gate_exps.weight', [E, F, X]),
              (b + 'ffn_down_exps.weight', [F, E, X]), (b + 'ffn_up_exps.weight', [E, F, X])]
        return
    T += [(b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]


def lfm2_mixer(p, T, b, i):
    """LFM2's operator: attention where head_count_kv is not 0, a short convolution elsewhere."""
    E = p['n_embd']
    T.append((b + 'attn_norm.weight', [E]))
    if per_layer(p['n_head_kv'], i):
        hd = E // p['n_head']
        T += [(b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd])]
        attn_qkvo(p, T, b, i)
    else:
        L = p['shortconv']
        T += [(b + 'shortconv.conv.weight', [L, E]), (b + 'shortconv.in_proj.weight', [E, 3 * E]),
              (b + 'shortconv.out_proj.weight', [E, E])]


def recurrent_layer(p, T, b, i):
    a, E = p['arch'], p['n_embd']
    hkv, ff = per_layer(p['n_head_kv'], i), per_layer(p['n_ff'], i)
    if a in ('rwkv6', 'rwkv7'):
        rwkv_layer(p, T, b, i)
        return
    if a == 'lfm2':
        T.append((b + 'ffn_norm.weight', [E]))
        gated_ffn(p, T, b, i)
        lfm2_mixer(p, T, b, i)
        return
    T.append((b + 'attn_norm.weight', [E]))
    if a == 'plamo2':
        plamo2_layer(p, T, b, i)
        return
    if a == 'qwen3next':
        qwen3next_layer(p, T, b, i)
        return
    if a in ('mamba', 'mamba2'):
        mamba_layer(p, T, b, a == 'mamba2')
        return
    if a == 'falcon-h1':
        mamba_layer(p, T, b, True)
        attn_qkvo(p, T, b, i)
        T.append((b + 'ffn_norm', [E]))  # no .weight: master's tn(LLM_TENSOR_FFN_NORM, i)
        gated_ffn(p, T, b, i)
        return
    if a in ('nemotron_h', 'nemotron_h_moe'):
        if hkv == 0 and ff == 0:
            mamba_layer(p, T, b, True)
        elif ff == 0:
            attn_qkvo(p, T, b, i)
        elif a == 'nemotron_h_moe':  # experts (up and down, ReLU^2) with a selection bias, a shared expert
            X, FX, FS = p['n_expert'], p['n_ff_exp'], p['n_ff_shexp']
            T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'exp_probs_b.bias', [X]),
                  (b + 'ffn_down_exps.weight', [FX, E, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
                  (b + 'ffn_down_shexp.weight', [FS, E]), (b + 'ffn_up_shexp.weight', [E, FS])]
        else:
            T += [(b + 'ffn_down.weight', [ff, E]), (b + 'ffn_up.weight', [E, ff])]
        return
    # jamba, granitehybrid
    if hkv == 0:
        mamba_layer(p, T, b, a == 'granitehybrid', norms=a == 'jamba')
    else:
        attn_qkvo(p, T, b, i)
    T.append((b + 'ffn_norm.weight', [E]))
    gated_ffn(p, T, b, i)


def plamo2_layer(p, T, b, i):
    """PLaMo 2 after attn_norm: a Mamba mixer (head_count_kv 0) or fused-Q/K/V attention, then the FFN (gate and up
    fused); the post norms have no .weight suffix, as master names them."""
    E, F, m = p['n_embd'], p['n_ff'], p['ssm']
    if per_layer(p['n_head_kv'], i) == 0:
        DI, DS, DC, NH = m['d_inner'], m['d_state'], m['d_conv'], m['dt_rank']
        DT = max(64, E // 16)
        T += [(b + 'ssm_in.weight', [E, 2 * DI]), (b + 'ssm_conv1d.weight', [DC, DI]), (b + 'ssm_x.weight', [DI, DT + 2 * DS]),
              (b + 'ssm_dt.weight', [DT, NH]), (b + 'ssm_dt.bias', [NH]), (b + 'ssm_a', [NH]), (b + 'ssm_d', [NH]),
              (b + 'ssm_out.weight', [DI, E]), (b + 'ssm_dt_norm', [DT]), (b + 'ssm_b_norm', [DS]), (b + 'ssm_c_norm', [DS])]
    else:
        H, hkv, hd = p['n_head'], per_layer(p['n_head_kv'], i), p['head_dim']
        T += [(b + 'attn_qkv.weight', [E, (H + 2 * hkv) * hd]), (b + 'attn_q_norm.weight', [hd, H]),
              (b + 'attn_k_norm.weight', [hd, hkv]), (b + 'attn_output.weight', [H * hd, E])]
    T += [(b + 'post_attention_norm', [E]), (b + 'ffn_norm.weight', [E]), (b + 'ffn_down.weight', [F, E]),
          (b + 'ffn_up.weight', [E, 2 * F]), (b + 'post_ffw_norm', [E])]


def qwen3next_layer(p, T, b, i):
    """A Qwen3-Next block after attn_norm (master's src/models/qwen3next.cpp)."""
    E, H, hkv, hd, m = p['n_embd'], p['n_head'], p['n_head_kv'], p['head_dim'], p['ssm']
    T.append((b + 'post_attention_norm.weight', [E]))
    if (i + 1) % p['full_attn_interval'] == 0:
        T += [(b + 'attn_q.weight', [E, hd * H * 2]), (b + 'attn_k.weight', [E, hd * hkv]),
              (b + 'attn_v.weight', [E, hd * hkv]), (b + 'attn_output.weight', [hd * H, E]),
              (b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd])]
    else:
        key, value, nv = m['d_state'] * m['n_group'], m['d_state'] * m['dt_rank'], m['dt_rank']
        T += [(b + 'ssm_in.weight', [E, 2 * key + 2 * value]), (b + 'ssm_conv1d.weight', [m['d_conv'], 2 * key + value]),
              (b + 'ssm_dt.bias', [nv]), (b + 'ssm_a', [nv]), (b + 'ssm_ba.weight', [E, 2 * nv]),
              (b + 'ssm_norm.weight', [m['d_state']]), (b + 'ssm_out.weight', [value, E])]
    X, FX, FS = p['n_expert'], p['n_ff_exp'], p['n_ff_shexp']
    T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_down_exps.weight', [FX, E, X]),
          (b + 'ffn_gate_exps.weight', [E, FX, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
          (b + 'ffn_gate_inp_shexp.weight', [E]), (b + 'ffn_gate_shexp.weight', [E, FS]),
          (b + 'ffn_up_shexp.weight', [E, FS]), (b + 'ffn_down_shexp.weight', [FS, E])]


def recurrent_tensor_list(p):
    a, E, V = p['arch'], p['n_embd'], p['vocab']['n']
    T = [('token_embd.weight', [E, V])]
    if a in ('rwkv6', 'rwkv7'):
        T += [('token_embd_norm.weight', [E]), ('token_embd_norm.bias', [E])]
    for i in range(p['n_layer']):
        recurrent_layer(p, T, 'blk.%d.' % i, i)
    T.append(('token_embd_norm.weight' if a == 'lfm2' else 'output_norm.weight', [E]))  # lfm2's output norm's name
    if a in ('rwkv6', 'rwkv7'):
        T.append(('output_norm.bias', [E]))
    if not p['tied']:
        T.append(('output.weight', [E, V]))
    return T



# ---------------------------------------------------------------------------------------------------------
# families whose layers are built by one function each (master's src/models/NAME.cpp, in its order):
# f(p, T, b, i) appends layer i's tensors (prefix b) to T
def qwen35_layer(p, T, b, i):
    """Qwen3.5 (dense or experts): gated delta-net layers, attention every 4th, the MTP layers last."""
    E, H, hkv, hd, m = p['n_embd'], p['n_head'], p['n_head_kv'], p['head_dim'], p['ssm']
    mtp = i >= p['n_layer'] - p.get('nextn', 0)
    T += [(b + 'attn_norm.weight', [E]), (b + 'post_attention_norm.weight', [E])]
    if mtp or (i + 1) % 4 == 0:
        T += [(b + 'attn_q.weight', [E, hd * H * 2]), (b + 'attn_k.weight', [E, hd * hkv]),
              (b + 'attn_v.weight', [E, hd * hkv]), (b + 'attn_output.weight', [hd * H, E]),
              (b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd])]
    else:
        key, value, nv = m['d_state'] * m['n_group'], m['d_state'] * m['dt_rank'], m['dt_rank']
        T += [(b + 'attn_qkv.weight', [E, 2 * key + value]), (b + 'attn_gate.weight', [E, value]),
              (b + 'ssm_conv1d.weight', [m['d_conv'], 2 * key + value]), (b + 'ssm_dt.bias', [nv]),
              (b + 'ssm_a', [nv]), (b + 'ssm_beta.weight', [E, nv]), (b + 'ssm_alpha.weight', [E, nv]),
              (b + 'ssm_norm.weight', [m['d_state']]), (b + 'ssm_out.weight', [value, E])]
    if p['arch'] == 'qwen35moe':
        X, FX, FS = p['n_expert'], p['n_ff_exp'], p['n_ff_shexp']
        T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_down_exps.weight', [FX, E, X]),
              (b + 'ffn_gate_exps.weight', [E, FX, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
              (b + 'ffn_gate_inp_shexp.weight', [E]), (b + 'ffn_gate_shexp.weight', [E, FS]),
              (b + 'ffn_up_shexp.weight', [E, FS]), (b + 'ffn_down_shexp.weight', [FS, E])]
    else:
        F = p['n_ff']
        T += [(b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]
    if mtp:
        T += [(b + 'nextn.eh_proj.weight', [2 * E, E]), (b + 'nextn.enorm.weight', [E]),
              (b + 'nextn.hnorm.weight', [E]), (b + 'nextn.shared_head_norm.weight', [E])]


def cohere2_layer(p, T, b, i):
    """Command R7B: one norm before the parallel attention and FFN."""
    E, F = p['n_embd'], p['n_ff']
    T.append((b + 'attn_norm.weight', [E]))
    attn_qkvo(p, T, b, i)
    T += [(b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]


def phimoe_layer(p, T, b, i):
    """Phi-3.5-MoE: layer norms with biases, Q/K/V and output biases, 16 experts of n_ff."""
    E, F, X, hkv = p['n_embd'], p['n_ff'], p['n_expert'], p['n_head_kv']
    hd = E // p['n_head']
    T += [(b + 'attn_norm.weight', [E]), (b + 'attn_norm.bias', [E]), (b + 'attn_q.weight', [E, E]),
          (b + 'attn_k.weight', [E, hd * hkv]), (b + 'attn_v.weight', [E, hd * hkv]), (b + 'attn_q.bias', [E]),
          (b + 'attn_k.bias', [hd * hkv]), (b + 'attn_v.bias', [hd * hkv]), (b + 'attn_output.weight', [E, E]),
          (b + 'attn_output.bias', [E]), (b + 'ffn_norm.weight', [E]), (b + 'ffn_norm.bias', [E]),
          (b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_gate_exps.weight', [E, F, X]),
          (b + 'ffn_down_exps.weight', [F, E, X]), (b + 'ffn_up_exps.weight', [E, F, X])]


def deepseek_layer(p, T, b, i):
    """DeepSeek-MoE (V1): leading dense layers, then experts with shared ones."""
    E, F = p['n_embd'], p['n_ff']
    T.append((b + 'attn_norm.weight', [E]))
    attn_qkvo(p, T, b, i)
    T.append((b + 'ffn_norm.weight', [E]))
    if i < p['n_dense_lead']:
        T += [(b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]
        return
    X, FX, S = p['n_expert'], p['n_ff_exp'], p['n_expert_shared']
    T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_gate_exps.weight', [E, FX, X]),
          (b + 'ffn_down_exps.weight', [FX, E, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
          (b + 'ffn_gate_shexp.weight', [E, FX * S]), (b + 'ffn_down_shexp.weight', [FX * S, E]),
          (b + 'ffn_up_shexp.weight', [E, FX * S])]


def gemma3n_layer(p, T, b, i):
    """Gemma 3n: gemma3's layer, then the per-layer input's gate and projection, AltUp and LAuReL."""
    E, F, H, hkv, hd = p['n_embd'], p['n_ff'], p['n_head'], p['n_head_kv'], p['head_dim']
    A, R, EA = p['altup'], p['laurel'], p['n_embd_altup']
    T += [(b + 'attn_norm.weight', [E]), (b + 'attn_q.weight', [E, hd * H]), (b + 'attn_k.weight', [E, hd * hkv]),
          (b + 'attn_v.weight', [E, hd * hkv]), (b + 'attn_output.weight', [hd * H, E]),
          (b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd]), (b + 'post_attention_norm.weight', [E]),
          (b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, F]), (b + 'ffn_up.weight', [E, F]),
          (b + 'ffn_down.weight', [F, E]), (b + 'post_ffw_norm.weight', [E]), (b + 'inp_gate.weight', [E, EA]),
          (b + 'proj.weight', [EA, E]), (b + 'post_norm.weight', [E]), (b + 'altup_correct_coef.weight', [A, A]),
          (b + 'altup_correct_scale.weight', [E]), (b + 'altup_predict_coef.weight', [A, A * A]),
          (b + 'altup_router.weight', [E, A]), (b + 'altup_router_norm.weight', [E]), (b + 'laurel_l.weight', [E, R]),
          (b + 'laurel_r.weight', [R, E]), (b + 'laurel_post_norm.weight', [E])]


def gemma3n_globals(p):
    E, V, A, EA, L = p['n_embd'], p['vocab']['n'], p['altup'], p['n_embd_altup'], p['n_layer']
    return [('altup_proj.weight', [E, E, A - 1]), ('altup_unembd_proj.weight', [E, E, A - 1]),
            ('per_layer_token_embd.weight', [EA * L, V]), ('per_layer_model_proj.weight', [E, EA * L]),
            ('per_layer_proj_norm.weight', [EA])]


def lfm2moe_layer(p, T, b, i):
    """LFM2-MoE: the FFN (dense, then experts with a selection bias), then attention or a short convolution."""
    E = p['n_embd']
    T.append((b + 'ffn_norm.weight', [E]))
    if i >= p['n_dense_lead']:
        X, FX = p['n_expert'], p['n_ff_exp']
        T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_gate_exps.weight', [E, FX, X]),
              (b + 'ffn_down_exps.weight', [FX, E, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
              (b + 'exp_probs_b.bias', [X])]
    else:
        gated_ffn(p, T, b, i)
    lfm2_mixer(p, T, b, i)


def gemma4_layer(p, T, b, i):
    """Gemma 4: per-layer head sizes and KV heads (the full-attention layers': key_length, their V read from K
    as the 31B's attention_k_eq_v has it, so no attn_v), q/k norms, norms after attention and FFN."""
    E, F, H = p['n_embd'], p['n_ff'], p['n_head']
    full = not p['swa_layers'][i]
    hd, hkv = (p['head_dim'] if full else p['head_dim_swa']), p['n_head_kv'][i]
    T += [(b + 'attn_norm.weight', [E]), (b + 'attn_q.weight', [E, hd * H]), (b + 'attn_k.weight', [E, hd * hkv])]
    if not full:
        T.append((b + 'attn_v.weight', [E, hd * hkv]))
    T += [(b + 'attn_output.weight', [hd * H, E]), (b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd]),
          (b + 'post_attention_norm.weight', [E]), (b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, F]),
          (b + 'ffn_up.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'post_ffw_norm.weight', [E])]


def mimo2_layer(p, T, b, i):
    """MiMo-V2: K 192 and V 128 wide heads, per-layer KV heads, attention sinks on the sliding-window layers, a dense
    first layer, then experts with a selection bias."""
    E, F, H, hkv, hk, hv = p['n_embd'], p['n_ff'], p['n_head'], p['n_head_kv'][i], p['head_k'], p['head_v']
    T += [(b + 'attn_q.weight', [E, hk * H]), (b + 'attn_k.weight', [E, hk * hkv]), (b + 'attn_v.weight', [E, hv * hkv]),
          (b + 'attn_output.weight', [hv * H, E]), (b + 'attn_norm.weight', [E])]
    if p['swa_layers'][i]:
        T.append((b + 'attn_sinks.weight', [H]))
    T.append((b + 'ffn_norm.weight', [E]))
    if i < p['n_dense_lead']:
        T += [(b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]
        return
    X, FX = p['n_expert'], p['n_ff_exp']
    T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'ffn_gate_exps.weight', [E, FX, X]),
          (b + 'ffn_down_exps.weight', [FX, E, X]), (b + 'ffn_up_exps.weight', [E, FX, X]), (b + 'exp_probs_b.bias', [X])]


def deci_layer(p, T, b, i):
    """DeciLM (Nemotron-NAS): attention, a linear replacement (attn_output alone: KV heads 0) or none (heads 0); an FFN
    of the layer's size, or none."""
    E, H, hkv, F = p['n_embd'], p['n_head'][i], p['n_head_kv'][i], p['n_ff'][i]
    hd = E // p['n_head'][0]
    if H and not hkv:
        T += [(b + 'attn_norm.weight', [E]), (b + 'attn_output.weight', [E, E])]
    elif hkv:
        T += [(b + 'attn_norm.weight', [E]), (b + 'attn_q.weight', [E, hd * H]), (b + 'attn_k.weight', [E, hd * hkv]),
              (b + 'attn_v.weight', [E, hd * hkv]), (b + 'attn_output.weight', [hd * H, E])]
    if F:
        T += [(b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]),
              (b + 'ffn_up.weight', [E, F])]


def openelm_layer(p, T, b, i):
    """OpenELM: per-layer heads, KV heads and FFN sizes (layer-wise scaling), fused Q/K/V, q/k norms."""
    E, H, hkv, F, hd = p['n_embd'], p['n_head'][i], p['n_head_kv'][i], p['n_ff'][i], p['head_dim']
    T += [(b + 'attn_norm.weight', [E]), (b + 'attn_qkv.weight', [E, (H + 2 * hkv) * hd]),
          (b + 'attn_q_norm.weight', [hd]), (b + 'attn_k_norm.weight', [hd]), (b + 'attn_output.weight', [H * hd, E]),
          (b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, F]), (b + 'ffn_down.weight', [F, E]),
          (b + 'ffn_up.weight', [E, F])]


def minimax01_layer(p, T, b, i):
    """MiniMax-Text-01: a lightning-attention layer (fused Q/K/V, an output gate and norm) but every
    full_attention_interval-th, which has softmax attention; experts in every layer."""
    E, H, hkv, hd, F, X = p['n_embd'], p['n_head'], p['n_head_kv'], p['head_dim'], p['n_ff'], p['n_expert']
    T.append((b + 'attn_norm.weight', [E]))
    if (i + 1) % dict((k, v) for k, _, v in p['kv'])['full_attention_interval']:
        T += [(b + 'attn_norm_2.weight', [H * hd]), (b + 'attn_qkv.weight', [E, 3 * H * hd]),
              (b + 'attn_gate.weight', [E, H * hd])]
    else:
        T += [(b + 'attn_q.weight', [E, H * hd]), (b + 'attn_k.weight', [E, hkv * hd]), (b + 'attn_v.weight', [E, hkv * hd])]
    T += [(b + 'attn_output.weight', [H * hd, E]), (b + 'ffn_norm.weight', [E]), (b + 'ffn_gate_inp.weight', [E, X]),
          (b + 'ffn_gate_exps.weight', [E, F, X]), (b + 'ffn_down_exps.weight', [F, E, X]),
          (b + 'ffn_up_exps.weight', [E, F, X])]


def gemma4_globals(p):
    return [('rope_freqs.weight', [p['head_dim'] // 2])]  # the full-attention layers' proportional RoPE


# tensors before the layers, after token_embd
GLOBALS = {'gemma3n': gemma3n_globals, 'gemma4': gemma4_globals}
LAYERS = {'minimax-01': minimax01_layer, 'openelm': openelm_layer, 'deci': deci_layer, 'mimo2': mimo2_layer, 'gemma4': gemma4_layer, 'lfm2moe': lfm2moe_layer, 'gemma3n': gemma3n_layer, 'qwen35': qwen35_layer, 'qwen35moe': qwen35_layer, 'cohere2': cohere2_layer, 'phimoe': phimoe_layer,
          'deepseek': deepseek_layer}
# the output norm has a bias; the output matrix too
OUTPUT_BIASES = ('phimoe',)


def built_tensor_list(p):
    """token_embd, the layers by LAYERS, output_norm and (untied) output."""
    E, V = p['n_embd'], p['vocab']['n']
    T = [('token_embd.weight', [E, V])] + (GLOBALS[p['arch']](p) if p['arch'] in GLOBALS else [])
    for i in range(p['n_layer']):
        LAYERS[p['arch']](p, T, 'blk.%d.' % i, i)
    T.append(('token_embd_norm.weight' if p['arch'] == 'lfm2moe' else 'output_norm.weight', [E]))  # LFM2's name
    if p['arch'] in OUTPUT_BIASES:
        T.append(('output_norm.bias', [E]))
    if not p['tied']:
        T.append(('output.weight', [E, V]))
    if p['arch'] in OUTPUT_BIASES:
        T.append(('output.bias', [V]))
    return T


# the plain families' tensors as master's src/models/NAME.cpp creates them: (before the layers, a layer's,
# after them), each "NAME DIMS" with DIMS Python expressions of E (n_embd), V (vocabulary), F (n_ff),
# Q (head_dim n_head), G (head_dim n_head_kv), HD (head_dim), C (context_length); a name ending in "?" only when
# untied
BERT_LAYER = ['attn_q.weight E,E', 'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_q.bias E', 'attn_k.bias G',
              'attn_v.bias G', 'attn_output.weight E,E', 'attn_output.bias E', 'attn_output_norm.weight E',
              'attn_output_norm.bias E', 'ffn_up.weight E,F', 'ffn_up.bias F', 'ffn_down.weight F,E',
              'ffn_down.bias E', 'layer_output_norm.weight E', 'layer_output_norm.bias E']
# a dense FFN in layer 0, then experts with a selection bias and a shared expert (afmoe, laguna)
DENSE_THEN_BIASED_EXPERTS = [
    'ffn_gate_inp.weight@1 E,X', 'exp_probs_b.bias@1 X', 'ffn_gate_exps.weight@1 E,FX,X', 'ffn_down_exps.weight@1 FX,E,X',
    'ffn_up_exps.weight@1 E,FX,X', 'ffn_gate_shexp.weight@1 E,FSX', 'ffn_down_shexp.weight@1 FSX,E',
    'ffn_up_shexp.weight@1 E,FSX', 'ffn_gate.weight@0 E,F', 'ffn_down.weight@0 F,E', 'ffn_up.weight@0 E,F']
SPECS = {
    'baichuan': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
                 'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
                 'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight E,V']),
    'stablelm': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_norm.bias E', 'attn_q.weight E,E',
                 'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_q.bias E', 'attn_k.bias G', 'attn_v.bias G',
                 'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_norm.bias E', 'ffn_gate.weight E,F',
                 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
                 ['output_norm.bias E', 'output_norm.weight E', 'output.weight E,V']),
    'starcoder': (['token_embd.weight E,V', 'position_embd.weight E,C'],
                  ['attn_norm.weight E', 'attn_norm.bias E', 'attn_qkv.weight E,E+2*G', 'attn_qkv.bias E+2*G',
                   'attn_output.weight E,E', 'attn_output.bias E', 'ffn_norm.weight E', 'ffn_norm.bias E',
                   'ffn_down.weight F,E', 'ffn_down.bias E', 'ffn_up.weight E,F', 'ffn_up.bias F'],
                  ['output_norm.weight E', 'output_norm.bias E', 'output.weight? E,V']),
    'refact': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
               'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'bloom': (['token_embd.weight E,V', 'token_embd_norm.weight E', 'token_embd_norm.bias E'],
              ['attn_norm.weight E', 'attn_norm.bias E', 'attn_qkv.weight E,E+2*G', 'attn_qkv.bias E+2*G',
               'attn_output.weight E,E', 'attn_output.bias E', 'ffn_norm.weight E', 'ffn_norm.bias E',
               'ffn_down.weight F,E', 'ffn_down.bias E', 'ffn_up.weight E,F', 'ffn_up.bias F'],
              ['output_norm.weight E', 'output_norm.bias E', 'output.weight? E,V']),
    'mpt': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,E+2*G', 'attn_output.weight E,E',
            'ffn_norm.weight E', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
            ['output_norm.weight E', 'output.weight? E,V']),
    'olmo': (['token_embd.weight E,V'], ['attn_q.weight E,E', 'attn_k.weight E,G', 'attn_v.weight E,G',
             'attn_output.weight E,E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
             ['output.weight? E,V']),
    'orion': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_norm.bias E', 'attn_q.weight E,E',
              'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_norm.weight E',
              'ffn_norm.bias E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
              ['output_norm.weight E', 'output_norm.bias E', 'output.weight E,V']),
    'xverse': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
               'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight E,V']),
    'codeshell': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_norm.bias E', 'attn_qkv.weight E,E+2*G',
                  'attn_qkv.bias E+2*G', 'attn_output.weight E,E', 'attn_output.bias E', 'ffn_norm.weight E',
                  'ffn_norm.bias E', 'ffn_down.weight F,E', 'ffn_down.bias E', 'ffn_up.weight E,F', 'ffn_up.bias F'],
                  ['output_norm.weight E', 'output_norm.bias E', 'output.weight E,V']),
    'bert': (['token_embd.weight E,V', 'token_types.weight E,2', 'position_embd.weight E,C',
              'token_embd_norm.weight E', 'token_embd_norm.bias E'], BERT_LAYER, []),
    'nomic-bert': (['token_embd.weight E,V', 'token_types.weight E,2', 'token_embd_norm.weight E',
                    'token_embd_norm.bias E'],
                   ['attn_qkv.weight E,E+2*G', 'attn_output.weight E,E', 'attn_output_norm.weight E',
                    'attn_output_norm.bias E', 'ffn_up.weight E,F', 'ffn_down.weight F,E', 'ffn_gate.weight E,F',
                    'layer_output_norm.weight E', 'layer_output_norm.bias E'], []),
    'gemma-embedding': (['token_embd.weight E,V'],
                        ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G', 'attn_v.weight E,G',
                         'attn_output.weight Q,E', 'post_attention_norm.weight E', 'attn_k_norm.weight HD',
                         'attn_q_norm.weight HD', 'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_up.weight E,F',
                         'ffn_down.weight F,E', 'post_ffw_norm.weight E'], ['output_norm.weight E']),
    'jais': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_norm.bias E', 'attn_qkv.weight E,E+2*G',
             'attn_qkv.bias E+2*G', 'attn_output.weight E,E', 'attn_output.bias E', 'ffn_norm.weight E',
             'ffn_norm.bias E', 'ffn_down.weight F,E', 'ffn_down.bias E', 'ffn_gate.weight E,F', 'ffn_gate.bias F',
             'ffn_up.weight E,F', 'ffn_up.bias F'], ['output_norm.weight E', 'output_norm.bias E', 'output.weight E,V']),
    'bitnet': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_sub_norm.weight E', 'attn_q.weight E,E',
               'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_norm.weight E',
               'ffn_sub_norm.weight F', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
               ['output_norm.weight E']),
    'minicpm3': (['token_embd.weight E,V'],
                 ['attn_norm.weight E', 'attn_q_a_norm.weight QL', 'attn_kv_a_norm.weight KL', 'attn_q_a.weight E,QL',
                  'attn_q_b.weight QL,H*HK', 'attn_kv_a_mqa.weight E,KL+R', 'attn_kv_b.weight KL,H*(HK-R+HV)',
                  'attn_output.weight H*HV,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E',
                  'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'jina-bert-v2': (['token_embd.weight E,V', 'token_types.weight E,2', 'token_embd_norm.weight E',
                      'token_embd_norm.bias E'],
                     ['attn_q.weight E,E', 'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_q.bias E', 'attn_k.bias G',
                      'attn_v.bias G', 'attn_output.weight E,E', 'attn_output.bias E', 'attn_output_norm.weight E',
                      'attn_output_norm.bias E', 'ffn_gate.weight E,F', 'ffn_up.weight E,F', 'ffn_down.weight F,E',
                      'ffn_down.bias E', 'layer_output_norm.weight E', 'layer_output_norm.bias E'], []),
    # a name ending in "@1": not in layer 0 (ModernBERT's first layer has no attention norm)
    'modern-bert': (['token_embd.weight E,V', 'token_embd_norm.weight E', 'output_norm.weight E'],
                    ['attn_norm.weight@1 E', 'attn_qkv.weight E,3*E', 'attn_output.weight E,E', 'ffn_up.weight E,2*F',
                     'ffn_down.weight F,E', 'ffn_norm.weight E'], []),
    # a name ending in "%2": on the odd layers (the expert ones) only, "%1": on the others
    'nomic-bert-moe': (['token_embd.weight E,V', 'token_types.weight E,1', 'token_embd_norm.weight E',
                        'token_embd_norm.bias E'],
                       ['attn_qkv.weight E,E+2*G', 'attn_output.weight E,E', 'attn_output_norm.weight E',
                        'attn_output_norm.bias E', 'ffn_up_exps.weight%2 E,F,X', 'ffn_down_exps.weight%2 F,E,X',
                        'ffn_gate_inp.weight%2 E,X', 'ffn_up.weight%1 E,F', 'ffn_up.bias%1 F', 'ffn_down.weight%1 F,E',
                        'ffn_down.bias%1 E', 'layer_output_norm.weight E', 'layer_output_norm.bias E'], []),
    'jina-bert-v3': (['token_embd.weight E,V', 'token_types.weight E,1', 'token_embd_norm.weight E',
                      'token_embd_norm.bias E'], BERT_LAYER, []),
    'dbrx': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,E+2*G', 'attn_output.weight E,E',
             'attn_output_norm.weight E', 'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,F,X',
             'ffn_down_exps.weight F,E,X', 'ffn_up_exps.weight E,F,X'], ['output_norm.weight E', 'output.weight E,V']),
    'grok': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
             'attn_v.weight E,G', 'attn_output.weight E,E', 'attn_output_norm.weight E', 'ffn_norm.weight E',
             'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,F,X', 'ffn_down_exps.weight F,E,X',
             'ffn_up_exps.weight E,F,X', 'layer_output_norm.weight E'], ['output_norm.weight E', 'output.weight? E,V']),
    'llama-embed': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                    'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
                    'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'neo-bert': (['token_embd.weight E,V', 'enc.output_norm.weight E'],
                 ['attn_norm.weight E', 'attn_qkv.weight E,E+2*G', 'attn_output.weight E,E', 'ffn_norm.weight E',
                  'ffn_up.weight E,2*F', 'ffn_down.weight F,E'], []),
    'eurobert': (['token_embd.weight E,V', 'output_norm.weight E'],
                 ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G', 'attn_v.weight E,G',
                  'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_up.weight E,F',
                  'ffn_down.weight F,E'], []),
    'dream': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
              'attn_v.weight E,G', 'attn_q.bias E', 'attn_k.bias G', 'attn_v.bias G', 'attn_output.weight E,E',
              'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
              ['output_norm.weight E', 'output.weight? E,V']),
    'llada': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
              'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
              'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'llada-moe': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                  'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q_norm.weight HD', 'attn_k_norm.weight HD',
                  'ffn_norm.weight E', 'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,FX,X',
                  'ffn_down_exps.weight FX,E,X', 'ffn_up_exps.weight E,FX,X'],
                  ['output_norm.weight E', 'output.weight E,V']),
    'bailingmoe': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                   'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate_inp.weight E,X',
                   'ffn_gate_exps.weight E,FX,X', 'ffn_down_exps.weight FX,E,X', 'ffn_up_exps.weight E,FX,X',
                   'ffn_gate_shexp.weight E,FS', 'ffn_down_shexp.weight FS,E', 'ffn_up_shexp.weight E,FS'],
                   ['output_norm.weight E', 'output.weight E,V']),
    'grovemoe': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                 'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_k_norm.weight HD', 'attn_q_norm.weight HD',
                 'ffn_norm.weight E', 'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,FX,X',
                 'ffn_down_exps.weight FX,E,X', 'ffn_up_exps.weight E,FX,X', 'ffn_gate_chexps.weight E,CF,CX',
                 'ffn_down_chexps.weight CF,E,CX', 'ffn_up_chexps.weight E,CF,CX'],
                 ['output_norm.weight E', 'output.weight? E,V']),
    'hunyuan_vl': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                   'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_k_norm.weight HD', 'attn_q_norm.weight HD',
                   'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
                   ['output_norm.weight E', 'output.weight? E,V']),
    'pangu-embedded': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                       'attn_v.weight E,G', 'attn_q.bias Q', 'attn_k.bias G', 'attn_v.bias G', 'attn_output.weight Q,E',
                       'attn_output.bias E', 'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E',
                       'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    # "@0": only in layer 0 (the leading dense layer), "@1": not in layer 0
    'afmoe': (['token_embd.weight E,V'], ['attn_norm.weight E', 'post_attention_norm.weight E', 'attn_q.weight E,Q',
              'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q_norm.weight HD',
              'attn_k_norm.weight HD', 'attn_gate.weight E,Q', 'ffn_norm.weight E', 'post_ffw_norm.weight E']
              + DENSE_THEN_BIASED_EXPERTS, ['output_norm.weight E', 'output.weight? E,V']),
    'laguna': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q_norm.weight HD', 'attn_k_norm.weight HD',
               'attn_gate.weight E,H', 'ffn_norm.weight E'] + DENSE_THEN_BIASED_EXPERTS,
               ['output_norm.weight E', 'output.weight? E,V']),
    'cohere2moe': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                   'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_gate.weight@0 E,F', 'ffn_down.weight@0 F,E',
                   'ffn_up.weight@0 E,F', 'ffn_gate_inp.weight@1 E,X', 'ffn_down_exps.weight@1 FX,E,X',
                   'ffn_gate_exps.weight@1 E,FX,X', 'ffn_up_exps.weight@1 E,FX,X', 'ffn_gate_shexp.weight@1 E,FSX',
                   'ffn_down_shexp.weight@1 FSX,E', 'ffn_up_shexp.weight@1 E,FSX'],
                   ['output_norm.weight E', 'output.weight? E,V']),
    'arctic': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_gate.weight E,E',
               'ffn_down.weight E,E', 'ffn_up.weight E,E', 'ffn_gate_inp.weight E,X', 'ffn_norm_exps.weight E',
               'ffn_gate_exps.weight E,F,X', 'ffn_down_exps.weight F,E,X', 'ffn_up_exps.weight E,F,X'],
               ['output_norm.weight E', 'output.weight? E,V']),
    'granite_swa': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                    'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_sinks.weight H', 'ffn_norm.weight E',
                    'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
                    ['output_norm.weight E', 'output.weight? E,V']),
    'step35': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q_norm.weight HD', 'attn_k_norm.weight HD',
               'attn_q.weight E,Q', 'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight Q,E',
               'attn_gate.weight E,H', 'ffn_norm.weight E'] + DENSE_THEN_BIASED_EXPERTS,
               ['output_norm.weight E', 'output.weight E,V']),
    'hy_v3': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
              'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q_norm.weight HD', 'attn_k_norm.weight HD',
              'ffn_norm.weight E', 'ffn_gate.weight@0 E,F', 'ffn_down.weight@0 F,E', 'ffn_up.weight@0 E,F',
              'ffn_gate_inp.weight@1 E,X', 'exp_probs_b@1 X', 'ffn_down_exps.weight@1 FX,E,X',
              'ffn_gate_exps.weight@1 E,FX,X', 'ffn_up_exps.weight@1 E,FX,X', 'ffn_gate_shexp.weight@1 E,FSX',
              'ffn_up_shexp.weight@1 E,FSX', 'ffn_down_shexp.weight@1 FSX,E'],
              ['output_norm.weight E', 'output.weight? E,V']),
    'plamo': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,E', 'attn_k.weight E,G',
              'attn_v.weight E,G', 'attn_output.weight E,E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E',
              'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight E,V']),
    'qwen': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,3*E', 'attn_qkv.bias 3*E',
             'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F//2', 'ffn_down.weight F//2,E',
             'ffn_up.weight E,F//2'], ['output_norm.weight E', 'output.weight E,V']),
    'maincoder': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                  'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_k_norm.weight HD', 'attn_q_norm.weight HD',
                  'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
                  ['output_norm.weight E', 'output.weight? E,V']),
    'nanbeige': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
                 'attn_v.weight E,G', 'attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
                 'ffn_down.weight F,E', 'ffn_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'jais2': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_norm.bias E', 'attn_q.weight E,Q',
              'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q.bias E', 'attn_k.bias E',
              'attn_v.bias E', 'attn_output.bias E', 'ffn_norm.weight E', 'ffn_norm.bias E', 'ffn_up.weight E,F',
              'ffn_up.bias F', 'ffn_down.weight F,E', 'ffn_down.bias E'],
              ['output_norm.weight E', 'output_norm.bias E', 'output.weight? E,V']),
    'mellum': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_k_norm.weight HD', 'attn_q_norm.weight HD',
               'ffn_norm.weight E', 'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,FX,X',
               'ffn_down_exps.weight FX,E,X', 'ffn_up_exps.weight E,FX,X'], ['output_norm.weight E', 'output.weight E,V']),
    'rnd1': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q.weight E,Q', 'attn_k.weight E,G',
             'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_k_norm.weight HD', 'attn_q_norm.weight HD',
             'ffn_norm.weight E', 'ffn_gate_inp.weight E,X', 'ffn_gate_exps.weight E,FX,X', 'ffn_down_exps.weight FX,E,X',
             'ffn_up_exps.weight E,FX,X'], ['output_norm.weight E', 'output.weight? E,V']),
    'plamo3': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,Q+2*G', 'attn_q_norm.weight HD',
               'attn_k_norm.weight HD', 'attn_output.weight Q,E', 'post_attention_norm E', 'ffn_norm.weight E',
               'post_ffw_norm E', 'ffn_up.weight E,2*F', 'ffn_down.weight F,E'],
               ['output_norm.weight E', 'output.weight? E,V']),
    # master's MLA layout and the sparse-attention indexer (IH heads of IK)
    'deepseek32': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q_a_norm.weight QL', 'attn_kv_a_norm.weight KL',
                   'attn_q_a.weight E,QL', 'attn_q_b.weight QL,H*HK', 'attn_kv_a_mqa.weight E,KL+R',
                   'attn_k_b.weight HK-R,KL,H', 'attn_v_b.weight KL,HV,H', 'attn_output.weight H*HV,E',
                   'ffn_norm.weight E', 'indexer.k_norm.weight IK', 'indexer.k_norm.bias IK', 'indexer.proj.weight E,IH',
                   'indexer.attn_k.weight E,IK', 'indexer.attn_q_b.weight QL,IH*IK'] + DENSE_THEN_BIASED_EXPERTS,
                   ['output_norm.weight E', 'output.weight? E,V']),
    'glm-dsa': None,  # deepseek32's (below)
    'talkie': (['token_embd.weight E,V', 'output.weight E,V'], ['attn_q.weight E,Q', 'attn_k.weight E,G',
               'attn_v.weight E,G', 'attn_output.weight Q,E', 'attn_q_norm.weight 1,H', 'ffn_gate.weight E,F',
               'ffn_up.weight E,F', 'ffn_down.weight F,E', 'layer_output_scale.weight 1'], []),
    'cogvlm': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,3*Q', 'attn_output.weight Q,E',
               'vis_attn_qkv.weight E,3*Q', 'vis_attn_output.weight Q,E', 'ffn_norm.weight E', 'ffn_gate.weight E,F',
               'ffn_down.weight F,E', 'ffn_up.weight E,F', 'vis_gate.weight E,F', 'vis_down.weight F,E',
               'vis_up.weight E,F'], ['output_norm.weight E', 'output.weight? E,V']),
    'deepseek2-ocr': (['token_embd.weight E,V'], ['attn_q.weight E,E', 'attn_k.weight E,E', 'attn_v.weight E,E',
                      'attn_output.weight E,E', 'ffn_norm.weight E', 'attn_norm.weight E'] + DENSE_THEN_BIASED_EXPERTS,
                      ['output_norm.weight E', 'output.weight? E,V']),
    'chameleon': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_q_norm.weight HD,H', 'attn_k_norm.weight HD,HKV',
                  'attn_q.weight E,E', 'attn_k.weight E,G', 'attn_v.weight E,G', 'attn_output.weight E,E',
                  'ffn_norm.weight E', 'ffn_gate.weight E,F', 'ffn_down.weight F,E', 'ffn_up.weight E,F'],
                  ['output_norm.weight E', 'output.weight? E,V']),
    'minimax-m3': (['token_embd.weight E,V'], ['attn_q.weight E,Q', 'attn_k.weight E,G', 'attn_v.weight E,G',
                   'attn_output.weight Q,E', 'attn_norm.weight E', 'attn_q_norm.weight HD', 'attn_k_norm.weight HD',
                   'ffn_norm.weight E'] + DENSE_THEN_BIASED_EXPERTS +
                   ['indexer.q_proj.weight@1 E,IH*IK', 'indexer.k_proj.weight@1 E,IK', 'indexer.q_norm.weight@1 IK',
                    'indexer.k_norm.weight@1 IK'], ['output_norm.weight E', 'output.weight E,V']),
    'chatglm': (['token_embd.weight E,V'], ['attn_norm.weight E', 'attn_qkv.weight E,Q+2*G', 'attn_qkv.bias Q+2*G',
                'attn_output.weight E,E', 'ffn_norm.weight E', 'ffn_up.weight E,2*F', 'ffn_down.weight F,E'],
                ['output_norm.weight E', 'output.weight? E,V']),
}

SPECS['glm-dsa'] = SPECS['deepseek32']


def spec_tensor_list(p):
    """A family of SPECS: its names with the preset's dimensions."""
    hd = p.get('head_dim', p['n_embd'] // p['n_head'])
    env = dict(E=p['n_embd'], V=p['vocab']['n'], F=p['n_ff'], Q=hd * p['n_head'], G=hd * p['n_head_kv'], C=p['ctx'],
               HD=hd, H=p['n_head'], HKV=p['n_head_kv'], X=p.get('n_expert', 0), FX=p.get('n_ff_exp', 0),
               FS=p.get('n_ff_exp', 0) * p.get('n_expert_shared', 0), CF=p.get('n_ff_chexp', 0), CX=p.get('n_chexp', 0),
               FSX=p.get('n_ff_shexp', 0))
    if 'mla' in p:  # latent ranks, the rotary part, the K and V head sizes
        m = p['mla']
        env.update(QL=m['q'], KL=m['kv'], R=m['rope'], HK=m['k'], HV=m['v'])
    if 'indexer' in p:  # the sparse-attention indexer's heads and key size
        env.update(IH=p['indexer']['heads'], IK=p['indexer']['k'])
    pre, layer, post = SPECS[p['arch']]

    def expand(items, b):
        out = []
        for item in items:
            name, dims = item.split(' ')
            if name.endswith('?'):
                if p['tied']:
                    continue
                name = name[:-1]
            if name.endswith('@1'):
                if b == 'blk.0.':
                    continue
                name = name[:-2]
            if name.endswith('@0'):
                if b != 'blk.0.':
                    continue
                name = name[:-2]
            if name[-2:] in ('%1', '%2'):  # an expert (odd) layer's, or another's
                if (int(b.split('.')[1]) % 2 == 1) != (name[-1] == '2'):
                    continue
                name = name[:-2]
            out.append((b + name, [eval(d, {}, env) for d in dims.split(',')]))
        return out
    T = expand(pre, '')
    for i in range(p['n_layer']):
        T += expand(layer, 'blk.%d.' % i)
    return T + expand(post, '')


def t5encoder_tensor_list(p):
    """T5's encoder: every tensor under enc. (the relative-position bias in the first layer only)."""
    E, F, V, Q = p['n_embd'], p['n_ff'], p['vocab']['n'], p['head_dim'] * p['n_head']
    T = [('token_embd.weight', [E, V])]
    for i in range(p['n_layer']):
        b = 'enc.blk.%d.' % i
        T += [(b + 'attn_norm.weight', [E])] + ([(b + 'attn_rel_b.weight', [p['n_head'], 32])] if i == 0 else [])
        T += [(b + 'attn_q.weight', [E, Q]), (b + 'attn_k.weight', [E, Q]), (b + 'attn_v.weight', [E, Q]),
              (b + 'attn_o.weight', [Q, E]), (b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, F]),
              (b + 'ffn_down.weight', [F, E]), (b + 'ffn_up.weight', [E, F])]
    return T + [('enc.output_norm.weight', [E])]


def tensor_list(p):
    """[(name, ne)] in ggml order (ne[0] = row length)."""
    a = p['arch']
    if a == 't5encoder':
        return t5encoder_tensor_list(p)
    if a in SPECS:
        return spec_tensor_list(p)
    if a in LAYERS:
        return built_tensor_list(p)
    if a in RECURRENT:
        return recurrent_tensor_list(p)
    E, L, F = p['n_embd'], p['n_layer'], p['n_ff']
    H, HKV = p['n_head'], p['n_head_kv']
    V = p['vocab']['n']
    hd = p.get('head_dim', E // H)
    T = []
    T.append(('token_embd.weight', [E, V]))
    if a == 'llama' and p.get('rope_freqs'):
        T.append(('rope_freqs.weight', [hd // 2]))
    if a == 'gpt2':
        T.append(('position_embd.weight', [E, p['ctx']]))
    if a == 'phi3':
        T.append(('rope_factors_long.weight', [hd // 2]))
        T.append(('rope_factors_short.weight', [hd // 2]))
    for i in range(L):
        b = 'blk.%d.' % i
        if a not in ('olmo2', 'exaone4'):
            T.append((b + 'attn_norm.weight', [E]))
        if a in NONGATED:
            T.append((b + 'attn_norm.bias', [E]))
            nongated_layer(p, T, b, E, F, H, HKV, hd)
            continue
        if a == 'bailingmoe2':  # one fused attn_qkv
            T.append((b + 'attn_qkv.weight', [E, hd * H + 2 * hd * HKV]))
            T.append((b + 'attn_output.weight', [hd * H, E]))
            T.append((b + 'attn_q_norm.weight', [hd]))
            T.append((b + 'attn_k_norm.weight', [hd]))
        elif a in ('llama', 'qwen2', 'gemma2', 'qwen2moe') + LLAMA_LIKE:
            T.append((b + 'attn_q.weight', [E, hd * H]))
            T.append((b + 'attn_k.weight', [E, hd * HKV]))
            T.append((b + 'attn_v.weight', [E, hd * HKV]))
            if p.get('qkv_bias'):
                T.append((b + 'attn_q.bias', [hd * H]))
                T.append((b + 'attn_k.bias', [hd * HKV]))
                T.append((b + 'attn_v.bias', [hd * HKV]))
            T.append((b + 'attn_output.weight', [hd * H, E]))
            if a in ('qwen3', 'qwen3moe', 'gemma3', 'exaone4', 'dots1', 'hunyuan-moe', 'hunyuan-dense', 'apertus',
                     'exaone-moe', 'qwen3vl', 'qwen3vlmoe'):
                T.append((b + 'attn_q_norm.weight', [hd]))
                T.append((b + 'attn_k_norm.weight', [hd]))
            if a in ('exaone4', 'glm4'):
                T.append((b + 'post_attention_norm.weight', [E]))
            if a in ('gemma3', 'gpt-oss'):
                T.append((b + 'post_attention_norm.weight', [E]))
            if a == 'gpt-oss':
                T.append((b + 'attn_output.bias', [E]))
                T.append((b + 'attn_sinks.weight', [H]))
            if a == 'minimax-m2':
                T.append((b + 'attn_q_norm.weight', [hd * H]))
                T.append((b + 'attn_k_norm.weight', [hd * HKV]))
            if a == 'olmoe':
                T.append((b + 'attn_q_norm.weight', [E]))
                T.append((b + 'attn_k_norm.weight', [hd * HKV]))
            if a == 'olmo2':
                T.append((b + 'attn_q_norm.weight', [hd * H]))
                T.append((b + 'attn_k_norm.weight', [hd * HKV]))
                T.append((b + 'post_attention_norm.weight', [E]))
            if a == 'gemma2':
                T.append((b + 'post_attention_norm.weight', [E]))
        elif a == 'phi3':
            T.append((b + 'attn_qkv.weight', [E, E + 2 * hd * HKV]))
            T.append((b + 'attn_output.weight', [E, E]))
        elif a in ('deepseek2', 'mistral4'):
            kl, ql = p['kv_lora_rank'], p['q_lora_rank']
            hk, hv, rot = p['key_length'], p['value_length'], p['n_rot']
            if ql:
                T.append((b + 'attn_q_a_norm.weight', [ql]))
                T.append((b + 'attn_q_a.weight', [E, ql]))
                T.append((b + 'attn_q_b.weight', [ql, H * hk]))
            else:
                T.append((b + 'attn_q.weight', [E, H * hk]))
            T.append((b + 'attn_kv_a_mqa.weight', [E, kl + rot]))
            T.append((b + 'attn_kv_a_norm.weight', [kl]))
            T.append((b + 'attn_kv_b.weight', [kl, H * (hk - rot + hv)]))
            T.append((b + 'attn_output.weight', [H * hv, E]))
        if p.get('post_attn_norm_only'):  # seed_oss: the FFN's input norm is post_attention_norm
            T.append((b + 'post_attention_norm.weight', [E]))
        elif a not in ('olmo2', 'command-r', 'gpt-oss', 'exaone4'):
            T.append((b + 'ffn_norm.weight', [E]))
        if a == 'phi3':
            T.append((b + 'ffn_up.weight', [E, 2 * F]))
            T.append((b + 'ffn_down.weight', [F, E]))
        elif a == 'llama4' and (i + 1) % p['moe_step'] == 0:
            X, FX = p['n_expert'], p['n_ff_exp']
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            T.append((b + 'ffn_gate_shexp.weight', [E, FX]))
            T.append((b + 'ffn_up_shexp.weight', [E, FX]))
            T.append((b + 'ffn_down_shexp.weight', [FX, E]))
        elif a in ('dots1', 'glm4moe') and i >= p['n_dense_lead']:
            X, FX, S = p['n_expert'], p['n_ff_exp'], p['n_expert_shared']
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            T.append((b + 'exp_probs_b.bias', [X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            T.append((b + 'ffn_gate_shexp.weight', [E, FX * S]))
            T.append((b + 'ffn_up_shexp.weight', [E, FX * S]))
            T.append((b + 'ffn_down_shexp.weight', [FX * S, E]))
        elif a == 'ernie4_5-moe' and i >= p['n_dense_lead']:
            X, FX, FS = p['n_expert'], p['n_ff_exp'], p['n_ff_shexp']
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            T.append((b + 'exp_probs_b.bias', [X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_gate_shexp.weight', [E, FS]))
            T.append((b + 'ffn_down_shexp.weight', [FS, E]))
            T.append((b + 'ffn_up_shexp.weight', [E, FS]))
        elif a in ('bailingmoe2', 'exaone-moe') and i >= p['n_dense_lead']:
            X, FX = p['n_expert'], p['n_ff_exp']
            FS = p.get('n_ff_shexp', FX * p['n_expert_shared'])
            T += [(b + 'ffn_gate_inp.weight', [E, X]), (b + 'exp_probs_b.bias', [X]),
                  (b + 'ffn_gate_exps.weight', [E, FX, X]), (b + 'ffn_down_exps.weight', [FX, E, X]),
                  (b + 'ffn_up_exps.weight', [E, FX, X]), (b + 'ffn_gate_shexp.weight', [E, FS]),
                  (b + 'ffn_down_shexp.weight', [FS, E]), (b + 'ffn_up_shexp.weight', [E, FS])]
        elif a in ('deepseek2', 'mistral4') and i >= p['n_dense_lead']:
            X, FX, S = p['n_expert'], p['n_ff_exp'], p['n_expert_shared']
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            T.append((b + 'ffn_gate_shexp.weight', [E, FX * S]))
            T.append((b + 'ffn_up_shexp.weight', [E, FX * S]))
            T.append((b + 'ffn_down_shexp.weight', [FX * S, E]))
        elif a == 'qwen2moe':
            X, FX, FS = p['n_expert'], p['n_ff_exp'], p['n_ff_shexp']
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            T.append((b + 'ffn_gate_inp_shexp.weight', [E]))
            T.append((b + 'ffn_gate_shexp.weight', [E, FS]))
            T.append((b + 'ffn_up_shexp.weight', [E, FS]))
            T.append((b + 'ffn_down_shexp.weight', [FS, E]))
        elif p.get('n_expert') and a in ('llama', 'olmoe', 'qwen3moe', 'gpt-oss', 'granitemoe', 'minimax-m2',
                                         'smallthinker', 'hunyuan-moe', 'qwen3vlmoe'):
            X, FX = p['n_expert'], p.get('n_ff_exp', F)
            T.append((b + 'ffn_gate_inp.weight', [E, X]))
            if p.get('probs_bias'):
                T.append((b + 'exp_probs_b.bias', [X]))
            T.append((b + 'ffn_gate_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_up_exps.weight', [E, FX, X]))
            T.append((b + 'ffn_down_exps.weight', [FX, E, X]))
            if a == 'hunyuan-moe':  # the experts are n_ff wide, the shared one n_ff_shexp
                FS = p['n_ff_shexp']
                T += [(b + 'ffn_gate_shexp.weight', [E, FS]), (b + 'ffn_up_shexp.weight', [E, FS]),
                      (b + 'ffn_down_shexp.weight', [FS, E])]
            if a == 'gpt-oss':
                T.append((b + 'ffn_gate_inp.bias', [X]))
                T.append((b + 'ffn_gate_exps.bias', [FX, X]))
                T.append((b + 'ffn_up_exps.bias', [FX, X]))
                T.append((b + 'ffn_down_exps.bias', [E, X]))
        elif p.get('fused_up'):  # glm4: gate and up in one matrix
            T.append((b + 'ffn_up.weight', [E, 2 * F]))
            T.append((b + 'ffn_down.weight', [F, E]))
        else:
            if not p.get('no_gate'):  # arcee: up and down only (ReLU^2)
                T.append((b + 'ffn_gate.weight', [E, F]))
            T.append((b + 'ffn_up.weight', [E, F]))
            T.append((b + 'ffn_down.weight', [F, E]))
        if a in ('gemma2', 'olmo2', 'gemma3', 'exaone4', 'glm4'):
            T.append((b + 'post_ffw_norm.weight', [E]))
        if i >= L - p.get('nextn', 0):  # a multi-token-prediction layer
            T.append((b + 'nextn.eh_proj.weight', [2 * E, E]))
            T.append((b + 'nextn.enorm.weight', [E]))
            T.append((b + 'nextn.hnorm.weight', [E]))
            T.append((b + 'nextn.shared_head_norm.weight', [E]))
    T.append(('output_norm.weight', [E]))
    if a in NONGATED:
        T.append(('output_norm.bias', [E]))
    if not p['tied']:
        T.append(('output.weight', [E, V]))
    if a == 'phi2':
        T.append(('output.bias', [V]))
    if p.get('cls_labels'):  # a reranker's head: one row per label (Qwen3-Reranker: "yes", "no")
        T.append(('cls.output.weight', [E, len(p['cls_labels'])]))
    if p.get('globals_first'):  # output, output_norm, token_embd, then the layers (llama.cpp's own test models)
        first = [t for t in T if not t[0].startswith('blk.')]
        T = sorted(first, key=lambda t: t[0]) + [t for t in T if t[0].startswith('blk.')]
    return T


def nongated_layer(p, T, b, E, F, H, HKV, hd):
    """The rest of a layer of gpt2, gptneox, phi2, falcon, starcoder2, nemotron (after attn_norm)."""
    a = p['arch']
    if a in ('gptneox', 'falcon', 'gpt2'):
        T.append((b + 'attn_qkv.weight', [E, hd * H + 2 * hd * HKV]))
        if a != 'falcon':
            T.append((b + 'attn_qkv.bias', [hd * H + 2 * hd * HKV]))
    else:
        T.append((b + 'attn_q.weight', [E, hd * H]))
        T.append((b + 'attn_k.weight', [E, hd * HKV]))
        T.append((b + 'attn_v.weight', [E, hd * HKV]))
        if p.get('qkv_bias'):
            T.append((b + 'attn_q.bias', [hd * H]))
            T.append((b + 'attn_k.bias', [hd * HKV]))
            T.append((b + 'attn_v.bias', [hd * HKV]))
    T.append((b + 'attn_output.weight', [hd * H, E]))
    if a != 'falcon':
        T.append((b + 'attn_output.bias', [E]))
    if a not in ('falcon', 'phi2'):
        T.append((b + 'ffn_norm.weight', [E]))
        T.append((b + 'ffn_norm.bias', [E]))
    T.append((b + 'ffn_up.weight', [E, F]))
    if a not in ('falcon', 'nemotron'):
        T.append((b + 'ffn_up.bias', [F]))
    T.append((b + 'ffn_down.weight', [F, E]))
    if a not in ('falcon', 'nemotron'):
        T.append((b + 'ffn_down.bias', [E]))


# kept F32 by llama-quantize (ssm_a, ssm_d and the other names without .weight too)
F32_NAMES = ('ssm_conv1d', 'shortconv.conv', 'time_mix_first', 'time_mix_w0', 'time_mix_w1', 'time_mix_w2',
             'time_mix_v0', 'time_mix_v1', 'time_mix_v2', 'time_mix_a0', 'time_mix_a1', 'time_mix_a2', 'time_mix_g1',
             'time_mix_g2', 'time_mix_decay_w1', 'time_mix_decay_w2', 'time_mix_lerp_fused', '_norm.weight')


def pick_type(p, name, ne):
    if len(ne) == 1 or name.endswith('ffn_gate_inp.weight') or name.endswith('.bias') or \
            not name.endswith('.weight') or any(k in name for k in F32_NAMES) or all(d == 1 for d in ne[1:]):
        return 'F32'
    L = p['n_layer']
    short = name.split('.')[-2]
    layer = int(name.split('.')[1]) if name.startswith('blk.') else -1
    t = None
    for suffix, ty in p.get('types', {}).items():
        if short == suffix:
            t = ty
    if t is None:
        if p.get('scheme', 'q4_k_m') in ('q8_0', 'q4_0'):
            t = p['scheme'].upper()
        elif name == 'output.weight' or (name == 'token_embd.weight' and p['tied']):
            t = 'Q6_K'
        elif short in ('attn_v', 'ffn_down', 'ffn_down_exps', 'ffn_down_shexp') and \
                use_more_bits(layer, L):
            t = 'Q6_K'
        else:
            t = 'Q4_K'
    if ne[0] % GGML_TYPES[t][1] != 0:
        t = FALLBACK.get(t, 'F16')
        if ne[0] % GGML_TYPES[t][1] != 0:
            t = 'F16'
    return t


def nbytes(t, ne):
    _, blck, size = GGML_TYPES[t]
    n = ne[0] // blck * size
    for d in ne[1:]:
        n *= d
    return n


def recurrent_metadata(p, add):
    """The state sizes of the recurrent and hybrid presets."""
    a = p['arch']
    if 'ssm' in p:
        m = p['ssm']
        add(a + '.ssm.conv_kernel', U32, m['d_conv'])
        add(a + '.ssm.inner_size', U32, m['d_inner'])
        add(a + '.ssm.state_size', U32, m['d_state'])
        add(a + '.ssm.time_step_rank', U32, m['dt_rank'])
        if 'n_group' in m:
            add(a + '.ssm.group_count', U32, m['n_group'])
    if 'rwkv' in p:
        r = p['rwkv']
        add(a + '.wkv.head_size', U32, r['head_size'])
        if a == 'rwkv6':
            add(a + '.time_mix_extra_dim', U32, r['time_mix_extra_dim'])
            add(a + '.time_decay_extra_dim', U32, r['time_decay_extra_dim'])
            add(a + '.rescale_every_n_layers', U32, r['rescale'])
            add(a + '.token_shift_count', U32, 2)
        else:  # rwkv7: token_shift_count left to its default (2)
            for k, n in (('decay', 'decay_lora'), ('iclr', 'iclr_lora'), ('value_residual_mix', 'value_res_mix_lora'),
                         ('gate', 'gate_lora')):
                add(a + '.attention.%s_lora_rank' % k, U32, r[n])
    if 'shortconv' in p:
        add(a + '.shortconv.l_cache', U32, p['shortconv'])
    if a in ('jamba', 'qwen3next'):
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
    if a == 'qwen3next':
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        add(a + '.expert_shared_feed_forward_length', U32, p['n_ff_shexp'])
        add(a + '.full_attention_interval', U32, p['full_attn_interval'])
    if a in ('nemotron_h', 'nemotron_h_moe'):  # both: the MTP head's norm reads the plain one
        add(a + '.attention.layer_norm_epsilon', F32, p['eps'])


def metadata(p):
    a = p['arch']
    kv = []
    def add(k, ty, v):
        kv.append((k, ty, v))
    add('general.architecture', STR, a)
    add('general.name', STR, p['name'])
    add('general.file_type', U32, p['ftype'])
    add('general.quantization_version', U32, 2)
    add(a + '.context_length', U32, p['ctx'])
    add(a + '.embedding_length', U32, p['n_embd'])
    add(a + '.block_count', U32, p['n_layer'])
    for key, v in (('feed_forward_length', p['n_ff']), ('attention.head_count', p['n_head']),
                   ('attention.head_count_kv', p['n_head_kv'])):
        add(a + '.' + key, *((ARR, (U32, v)) if isinstance(v, list) else (U32, v)))  # per layer: an array
    add(a + '.rope.freq_base', F32, p['rope_base'])
    add(a + ('.attention.layer_norm_epsilon' if p.get('norm_eps') else '.attention.layer_norm_rms_epsilon'),
        F32, p['eps'])
    recurrent_metadata(p, add)
    for k, ty, v in p.get('kv', ()):
        add(a + '.' + k, ty, v)
    if a == 'gpt-oss':
        add(a + '.rope.dimension_count', U32, p['head_dim'])
        add(a + '.attention.sliding_window', U32, p['swa'])
    if a in ('dots1', 'glm4moe'):
        add(a + '.leading_dense_block_count', U32, p['n_dense_lead'])
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        add(a + '.expert_shared_count', U32, p['n_expert_shared'])
        add(a + '.expert_weights_scale', F32, 1.0)
        add(a + '.expert_weights_norm', BOOL, True)
        add(a + '.expert_gating_func', U32, 2)
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
    if p.get('nextn'):
        add(a + '.nextn_predict_layers', U32, p['nextn'])
    if a == 'minimax-m2':
        add(a + '.expert_gating_func', U32, 2)
    if a in ('ernie4_5-moe', 'smallthinker', 'hunyuan-moe'):
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        if 'n_ff_shexp' in p:
            add(a + '.expert_shared_feed_forward_length', U32, p['n_ff_shexp'])
    if a == 'smallthinker':  # softmax (the converter writes it: master has no default)
        add(a + '.expert_gating_func', U32, 1)
    if a in ('bailingmoe2', 'exaone-moe'):
        add(a + '.leading_dense_block_count', U32, p['n_dense_lead'])
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        if 'n_ff_shexp' in p:
            add(a + '.expert_shared_feed_forward_length', U32, p['n_ff_shexp'])
        add(a + '.expert_shared_count', U32, p['n_expert_shared'])
        add(a + '.expert_weights_scale', F32, 1.0)
        add(a + '.expert_weights_norm', BOOL, True)
        add(a + '.expert_gating_func', U32, 2)
    if a == 'exaone-moe':
        add(a + '.attention.sliding_window', U32, p['swa'])
    if a == 'ernie4_5-moe':
        add(a + '.interleave_moe_layer_step', U32, p['moe_step'])
        add(a + '.leading_dense_block_count', U32, p['n_dense_lead'])
    if a == 'apertus':  # xIELU's constants (no architecture prefix in master's key names)
        for k, v in (('alpha_n', 0.8), ('alpha_p', 0.8), ('beta', 0.5), ('eps', -1e-6)):
            add('xielu.' + k, F32, v)
    if a == 'llama4':
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        add(a + '.interleave_moe_layer_step', U32, p['moe_step'])
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
    if a in ('olmoe', 'qwen3moe', 'gpt-oss', 'granitemoe', 'minimax-m2'):
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
        if 'n_ff_exp' in p:
            add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
    if a == 'gemma3':
        add(a + '.attention.sliding_window', U32, p['swa'])
        add(a + '.attention.sliding_window_pattern', U32, p['swa_pattern'])
    if 'par_res' in p:
        add(a + '.use_parallel_residual', BOOL, p['par_res'])
    if 'pooling' in p:  # an embedding or reranking model's pooling (llama.cpp's enum: 3 last, 4 rank)
        add(a + '.pooling_type', U32, p['pooling'])
    if p.get('cls_labels'):
        add(a + '.classifier.output_labels', ARR, (STR, p['cls_labels']))
    for k, v in p.get('scales', {}).items():
        add(a + '.' + k, F32, v)
    if 'head_dim' in p:
        add(a + '.attention.key_length', U32, p['head_dim'])
        add(a + '.attention.value_length', U32, p['head_dim'])
    if a == 'llama':
        add(a + '.rope.dimension_count', U32, p['n_embd'] // p['n_head'])
        add(a + '.vocab_size', U32, p['vocab']['n'])
    if p.get('n_expert') and a == 'llama':
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
    if a == 'qwen2moe':
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        add(a + '.expert_shared_feed_forward_length', U32, p['n_ff_shexp'])
    if a == 'gemma2':
        add(a + '.attention.sliding_window', U32, p['swa'])
        add(a + '.attn_logit_softcapping', F32, p['attn_softcap'])
        add(a + '.final_logit_softcapping', F32, p['final_softcap'])
    if a == 'phi3':
        add(a + '.rope.dimension_count', U32, p['n_embd'] // p['n_head'])
        add(a + '.rope.scaling.attn_factor', F32, p['rope_attn_factor'])
        add(a + '.rope.scaling.original_context_length', U32, p['ctx_orig'])
        add(a + '.attention.sliding_window', U32, p['swa'])
    if a in ('deepseek2', 'mistral4'):
        add(a + '.vocab_size', U32, p['vocab']['n'])
        add(a + '.leading_dense_block_count', U32, p['n_dense_lead'])
        add(a + '.attention.key_length', U32, p['key_length'])
        add(a + '.attention.value_length', U32, p['value_length'])
        if p['q_lora_rank']:
            add(a + '.attention.q_lora_rank', U32, p['q_lora_rank'])
        add(a + '.attention.kv_lora_rank', U32, p['kv_lora_rank'])
        add(a + '.expert_feed_forward_length', U32, p['n_ff_exp'])
        add(a + '.expert_count', U32, p['n_expert'])
        add(a + '.expert_shared_count', U32, p['n_expert_shared'])
        add(a + '.expert_used_count', U32, p['n_expert_used'])
        add(a + '.expert_weights_scale', F32, p['expert_weights_scale'])
        add(a + '.rope.dimension_count', U32, p['n_rot'])
        add(a + '.rope.scaling.type', STR, 'yarn')
        add(a + '.rope.scaling.factor', F32, p['yarn']['factor'])
        add(a + '.rope.scaling.original_context_length', U32, p['yarn']['orig'])
        add(a + '.rope.scaling.yarn_log_multiplier', F32, p['yarn']['log_mul'])
    v = p['vocab']
    if v['kind'] == 'bpe':
        toks, types, merges = bpe_vocab(v)
        add('tokenizer.ggml.model', STR, 'gpt2')
        add('tokenizer.ggml.pre', STR, v['pre'])
        add('tokenizer.ggml.tokens', ARR, (STR, toks))
        add('tokenizer.ggml.token_type', ARR, (I32, types))
        add('tokenizer.ggml.merges', ARR, (STR, merges))
    else:
        toks, types, scores = spm_vocab(v)
        add('tokenizer.ggml.model', STR, v.get('model', 'llama'))
        add('tokenizer.ggml.tokens', ARR, (STR, toks))
        add('tokenizer.ggml.scores', ARR, (F32, scores))
        add('tokenizer.ggml.token_type', ARR, (I32, types))
    add('tokenizer.ggml.bos_token_id', U32, v['bos'])
    add('tokenizer.ggml.eos_token_id', U32, v['eos'])
    if 'unk' in v:
        add('tokenizer.ggml.unknown_token_id', U32, v['unk'])
    if 'pad' in v:
        add('tokenizer.ggml.padding_token_id', U32, v['pad'])
    add('tokenizer.ggml.add_bos_token', BOOL, bool(v.get('add_bos', True)))
    add('tokenizer.ggml.add_eos_token', BOOL, False)
    if 'token_types' in v:  # BERT's token type count (segment embeddings)
        add('tokenizer.ggml.token_type_count', U32, v['token_types'])
    if 'add_space_prefix' in v:
        add('tokenizer.ggml.add_space_prefix', BOOL, v['add_space_prefix'])
    return kv


# ---------------------------------------------------------------------------------------------------------
def enc_str(s):
    b = s.encode('utf-8')
    return struct.pack('<Q', len(b)) + b


SCALAR = {U8: '<B', I8: '<b', U16: '<H', I16: '<h', U32: '<I', I32: '<i', F32: '<f', BOOL: '<?',
          U64: '<Q', I64: '<q', F64: '<d'}


def enc_val(ty, v):
    if ty == STR:
        return enc_str(v)
    if ty == ARR:
        et, items = v
        head = struct.pack('<IQ', et, len(items))
        if et == STR:
            return head + b''.join(enc_str(s) for s in items)
        return head + struct.pack('<%d%s' % (len(items), SCALAR[et][1]), *items)
    return struct.pack(SCALAR[ty], v)


def build(p):
    kv = metadata(p)
    tensors = []
    off = 0
    for name, ne in tensor_list(p):
        t = pick_type(p, name, ne)
        nb = nbytes(t, ne)
        tensors.append(dict(name=name, ne=ne, type=t, offset=off, nbytes=nb))
        off += (nb + ALIGN - 1) // ALIGN * ALIGN
    header = pack_header(kv, [(t['name'], t['ne'], t['type'], t['offset']) for t in tensors])
    return header, tensors, len(header) + off


_ENCODED = {}  # (key, id of an array value) -> (the value, its bytes): a vocabulary is encoded once a process


def enc_kv(k, ty, v):
    if ty != ARR:
        return enc_str(k) + struct.pack('<I', ty) + enc_val(ty, v)
    hit = _ENCODED.get((k, id(v)))
    if hit is None or hit[0] is not v:
        hit = (v, enc_str(k) + struct.pack('<I', ty) + enc_val(ty, v))
        _ENCODED[(k, id(v))] = hit
    return hit[1]


def pack_header(kv, tensors):
    """A GGUF v3 header padded to ALIGN: the (key, type, value) pairs, then (name, ne, type name, offset)."""
    out = [b'GGUF', struct.pack('<IQQ', 3, len(tensors), len(kv))]
    for k, ty, v in kv:
        out.append(enc_kv(k, ty, v))
    for name, ne, ty, offset in tensors:
        out.append(enc_str(name) + struct.pack('<I', len(ne)) + struct.pack('<%dQ' % len(ne), *ne) +
                   struct.pack('<IQ', GGML_TYPES[ty][0], offset))
    header = b''.join(out)
    return header + b'\0' * ((-len(header)) % ALIGN)


def summary(preset):
    p = PRESETS[preset]
    header, tensors, size = build(p)
    by_type = {}
    for t in tensors:
        by_type[t['type']] = by_type.get(t['type'], 0) + t['nbytes']
    return dict(preset=preset, params=p, n_tensors=len(tensors), header_bytes=len(header), file_bytes=size,
                tensor_bytes=sum(t['nbytes'] for t in tensors), tensor_bytes_by_type=by_type,
                header_sha256=hashlib.sha256(header).hexdigest())


def main(argv):
    if len(argv) == 2 and argv[1] == '--list':
        for k, p in PRESETS.items():
            print(k, p['arch'], p['name'])
        return 0
    if len(argv) == 3 and argv[1] == '--show':
        print(json.dumps(summary(argv[2]), indent=1))
        return 0
    if len(argv) != 3 or argv[1] not in PRESETS:
        sys.stderr.write(__doc__)
        return 2
    header, tensors, size = build(PRESETS[argv[1]])
    with open(argv[2], 'wb') as f:
        f.write(header)
        f.truncate(size)  # sparse: the tensor data reads back as zeros
    print('%s: %d tensors, %d bytes (%d header)' % (argv[2], len(tensors), size, len(header)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
