#!/usr/bin/env python3
"""Make examples/Tiny-Llama-82K-v1.0-Q8_0.gguf, the bundled example: a tiny
llama-architecture model (2 layers, 64 wide, 64-token vocabulary) with F32 norms,
an F16 embedding and Q8_0 weights.  Written independently of libgguf so that the
example also tests the reader against a second writer.  Deterministic."""
import random
import struct

random.seed(7)


def s(x):
    b = x.encode()
    return struct.pack('<Q', len(b)) + b


def kv(k, t, payload):
    return s(k) + struct.pack('<I', t) + payload


def arr(t, items):
    return struct.pack('<IQ', t, len(items)) + b''.join(items)


def q8_0(vals):
    out = b''
    for i in range(0, len(vals), 32):
        blk = vals[i:i + 32]
        amax = max(abs(v) for v in blk)
        d = amax / 127 if amax else 0.0
        dh = struct.unpack('<e', struct.pack('<e', d))[0]
        out += struct.pack('<e', d) + bytes((int(round(v / dh)) & 255) if dh else 0 for v in blk)
    return out


n_embd, n_ff, n_vocab, n_layer = 64, 128, 64, 2
toks = ['<unk>', '<s>', '</s>'] + [chr(ord('a') + i % 26) + ('' if i < 26 else str(i // 26)) for i in range(n_vocab - 3)]
kvs = [
    kv('general.architecture', 8, s('llama')),
    kv('general.name', 8, s('Tiny Llama')),
    kv('general.basename', 8, s('Tiny-Llama')),
    kv('general.size_label', 8, s('82K')),
    kv('general.version', 8, s('v1.0')),
    kv('general.license', 8, s('MIT')),
    kv('general.file_type', 4, struct.pack('<I', 7)),
    kv('general.quantization_version', 4, struct.pack('<I', 2)),
    kv('llama.context_length', 4, struct.pack('<I', 256)),
    kv('llama.embedding_length', 4, struct.pack('<I', n_embd)),
    kv('llama.block_count', 4, struct.pack('<I', n_layer)),
    kv('llama.feed_forward_length', 4, struct.pack('<I', n_ff)),
    kv('llama.rope.dimension_count', 4, struct.pack('<I', 16)),
    kv('llama.attention.head_count', 4, struct.pack('<I', 4)),
    kv('llama.attention.head_count_kv', 4, struct.pack('<I', 2)),
    kv('llama.attention.layer_norm_rms_epsilon', 6, struct.pack('<f', 1e-5)),
    kv('llama.rope.freq_base', 6, struct.pack('<f', 10000.0)),
    kv('tokenizer.ggml.model', 8, s('llama')),
    kv('tokenizer.ggml.tokens', 9, arr(8, [s(t) for t in toks])),
    kv('tokenizer.ggml.scores', 9, arr(6, [struct.pack('<f', -float(i)) for i in range(n_vocab)])),
    kv('tokenizer.ggml.token_type', 9, arr(5, [struct.pack('<i', t) for t in [2, 3, 3] + [1] * (n_vocab - 3)])),
    kv('tokenizer.ggml.bos_token_id', 4, struct.pack('<I', 1)),
    kv('tokenizer.ggml.eos_token_id', 4, struct.pack('<I', 2)),
    kv('tokenizer.ggml.unknown_token_id', 4, struct.pack('<I', 0)),
    kv('tokenizer.chat_template', 8, s("{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}</s>\n{% endfor %}")),
]
tensors = []


def add(name, shape, typ):
    n = 1
    for x in shape:
        n *= x
    vals = [random.gauss(0, 0.02) for _ in range(n)]
    if typ == 0:
        data = b''.join(struct.pack('<f', 1.0) for _ in vals)
    elif typ == 1:
        data = b''.join(struct.pack('<e', v) for v in vals)
    else:
        data = q8_0(vals)
    tensors.append((name, shape, typ, data))


add('token_embd.weight', [n_embd, n_vocab], 1)
for l in range(n_layer):
    add(f'blk.{l}.attn_norm.weight', [n_embd], 0)
    add(f'blk.{l}.attn_q.weight', [n_embd, n_embd], 8)
    add(f'blk.{l}.attn_k.weight', [n_embd, 32], 8)
    add(f'blk.{l}.attn_v.weight', [n_embd, 32], 8)
    add(f'blk.{l}.attn_output.weight', [n_embd, n_embd], 8)
    add(f'blk.{l}.ffn_norm.weight', [n_embd], 0)
    add(f'blk.{l}.ffn_gate.weight', [n_embd, n_ff], 8)
    add(f'blk.{l}.ffn_up.weight', [n_embd, n_ff], 8)
    add(f'blk.{l}.ffn_down.weight', [n_ff, n_embd], 8)
add('output_norm.weight', [n_embd], 0)
add('output.weight', [n_embd, n_vocab], 8)

body = b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(kvs)) + b''.join(kvs)
off = 0
for name, shape, typ, data in tensors:
    body += s(name) + struct.pack('<I', len(shape)) + b''.join(struct.pack('<Q', x) for x in shape)
    body += struct.pack('<IQ', typ, off)
    off += (len(data) + 31) // 32 * 32
body += b'\0' * ((-len(body)) % 32)
for name, shape, typ, data in tensors:
    body += data + b'\0' * ((-len(data)) % 32)
with open('examples/Tiny-Llama-82K-v1.0-Q8_0.gguf', 'wb') as f:
    f.write(body)
