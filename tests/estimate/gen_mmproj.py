#!/usr/bin/env python3
"""Write a multimodal projector (mmproj) GGUF header with realistic CLIP/SigLIP shapes and all-zero data.

Our converter does not write projectors yet; these are what llama.cpp's convert_hf_to_gguf.py --mmproj writes
for two public models (key and tensor names of master's tools/mtmd/clip-impl.h), for `gguf estimate --mmproj`:

    gen_mmproj.py PRESET OUT.gguf        write one projector (sparse: the data is never written)
    gen_mmproj.py --list                 list the presets

Presets: gemma3-4b-mmproj (SigLIP so400m at 896 px, 27 layers, the Gemma 3 projector: a 4x4 average pool,
an RMS norm and a projection to the text model's 2560), llava-1.5-7b-mmproj (CLIP ViT-L/14 at 336 px, 23
layers, a class embedding, the two-layer MLP projector to 4096).  Matrices F16, vectors F32, as
convert_hf_to_gguf.py writes an F16 mmproj.  The GGUF writer is gen_models.py's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_models as g  # noqa: E402  (the header writer and type table)

PRESETS = {
    'gemma3-4b-mmproj': dict(
        name='Gemma-3-4B-it mmproj-like', projector='gemma3', image=896, patch=14, n_embd=1152, n_ff=4304,
        n_layer=27, n_head=16, proj_dim=2560, eps=1e-6, gelu=True, class_embd=False, pre_ln=False, post_ln=True),
    'llava-1.5-7b-mmproj': dict(
        name='LLaVA-1.5-7B mmproj-like', projector='mlp', image=336, patch=14, n_embd=1024, n_ff=4096,
        n_layer=23, n_head=16, proj_dim=4096, eps=1e-5, gelu=False, class_embd=True, pre_ln=True, post_ln=False),
}


def metadata(p):
    kv = []

    def add(k, ty, v):
        kv.append((k, ty, v))
    add('general.architecture', g.STR, 'clip')
    add('general.name', g.STR, p['name'])
    add('general.file_type', g.U32, 1)
    add('clip.has_vision_encoder', g.BOOL, True)
    add('clip.projector_type', g.STR, p['projector'])
    add('clip.use_gelu', g.BOOL, p['gelu'])
    add('clip.vision.image_size', g.U32, p['image'])
    add('clip.vision.patch_size', g.U32, p['patch'])
    add('clip.vision.embedding_length', g.U32, p['n_embd'])
    add('clip.vision.feed_forward_length', g.U32, p['n_ff'])
    add('clip.vision.projection_dim', g.U32, p['proj_dim'])
    add('clip.vision.block_count', g.U32, p['n_layer'])
    add('clip.vision.attention.head_count', g.U32, p['n_head'])
    add('clip.vision.attention.layer_norm_epsilon', g.F32, p['eps'])
    add('clip.vision.image_mean', g.ARR, (g.F32, [0.5, 0.5, 0.5]))
    add('clip.vision.image_std', g.ARR, (g.F32, [0.5, 0.5, 0.5]))
    return kv


def tensor_list(p):
    """[(name, ne, type)] in ggml order (ne[0] = row length)."""
    E, F, P = p['n_embd'], p['n_ff'], p['patch']
    n_pos = (p['image'] // P) ** 2 + (1 if p['class_embd'] else 0)
    T = []
    if p['class_embd']:
        T.append(('v.class_embd', [E], 'F32'))
    T.append(('v.patch_embd.weight', [P, P, 3, E], 'F16'))
    if not p['class_embd']:  # SigLIP's patch embedding has a bias, CLIP's none
        T.append(('v.patch_embd.bias', [E], 'F32'))
    T.append(('v.position_embd.weight', [E, n_pos], 'F16'))
    if p['pre_ln']:
        T += [('v.pre_ln.weight', [E], 'F32'), ('v.pre_ln.bias', [E], 'F32')]
    for i in range(p['n_layer']):
        b = 'v.blk.%d.' % i
        for m in ('attn_q', 'attn_k', 'attn_v', 'attn_out'):
            T += [(b + m + '.weight', [E, E], 'F16'), (b + m + '.bias', [E], 'F32')]
        T += [(b + 'ln1.weight', [E], 'F32'), (b + 'ln1.bias', [E], 'F32')]
        T += [(b + 'ffn_up.weight', [E, F], 'F16'), (b + 'ffn_up.bias', [F], 'F32')]
        T += [(b + 'ffn_down.weight', [F, E], 'F16'), (b + 'ffn_down.bias', [E], 'F32')]
        T += [(b + 'ln2.weight', [E], 'F32'), (b + 'ln2.bias', [E], 'F32')]
    if p['post_ln']:
        T += [('v.post_ln.weight', [E], 'F32'), ('v.post_ln.bias', [E], 'F32')]
    if p['projector'] == 'gemma3':
        T += [('mm.input_projection.weight', [p['proj_dim'], E], 'F16'), ('mm.soft_emb_norm.weight', [E], 'F32')]
    else:  # mlp: mm.0 (E -> proj_dim), GELU, mm.2 (proj_dim -> proj_dim)
        D = p['proj_dim']
        T += [('mm.0.weight', [E, D], 'F16'), ('mm.0.bias', [D], 'F32'), ('mm.2.weight', [D, D], 'F16'),
              ('mm.2.bias', [D], 'F32')]
    return T


def build(p):
    tensors, off = [], 0
    for name, ne, ty in tensor_list(p):
        nb = g.nbytes(ty, ne)
        tensors.append((name, ne, ty, off))
        off += (nb + g.ALIGN - 1) // g.ALIGN * g.ALIGN
    header = g.pack_header(metadata(p), tensors)
    return header, tensors, len(header) + off


def main(argv):
    if len(argv) == 2 and argv[1] == '--list':
        for k, p in PRESETS.items():
            print('%-22s %s' % (k, p['name']))
        return 0
    if len(argv) != 3 or argv[1] not in PRESETS:
        sys.stderr.write('usage: gen_mmproj.py PRESET OUT.gguf | --list\n')
        return 2
    header, tensors, size = build(PRESETS[argv[1]])
    with open(argv[2], 'wb') as f:
        f.write(header)
        f.truncate(size)
    print('%s: %d tensors, %d bytes (%d header)' % (argv[2], len(tensors), size, len(header)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
