#!/usr/bin/env python3
"""Regenerate tests/estimate/adapters.json: the buffers llama.cpp master (3f545becc) allocates for LoRA
adapters (--lora) and control vectors (--control-vector) on the CPU backend.

    tests/estimate/ref_adapters.py [--llama-bin DIR] [--llama-inc DIR] [--out FILE]

Builds ref_master.c as ref_master.py does, writes each case's model (a gen_models.py preset, sparse) and
its LoRA adapters (GGUF: general.type adapter, adapter.type lora, the model's architecture; a pair
NAME.lora_a [in, rank] / NAME.lora_b [rank, out] for every blk.N.TARGET.weight of the model, and for
token_embd.weight [rank, n_vocab] / [rank, n_embd] when asked; zero data), and runs ref_master with
--lora FILE... and --control-vector.  Not run by make test; tests/test_estimate.c checks the JSON (it
writes the same adapters itself).  See docs/reference.md.
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_models  # noqa: E402
import ref_master  # noqa: E402

# (preset, options, [lora spec...], control vector)
CASES = [
    ('smollm2-135m', ['-c', '4096'], [dict(type='F16', rank=8, targets=['attn_q', 'attn_v'], embd=False)], False),
    ('smollm2-135m', ['-c', '4096', '--no-mmap'],
     [dict(type='F32', rank=16, targets=['attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_up'], embd=True)], False),
    ('smollm2-135m', ['-c', '4096'], [], True),
    ('qwen2-0.5b', ['-c', '4096'],
     [dict(type='Q8_0', rank=32, targets=['attn_q', 'ffn_down'], embd=False),
      dict(type='F16', rank=8, targets=['attn_v', 'attn_output'], embd=True)], True),
    ('qwen2-0.5b', ['-c', '4096', '--no-repack'], [dict(type='F16', rank=8, targets=['attn_q'], embd=False)], True),
    ('mixtral-tiny', ['-c', '4096'], [dict(type='F16', rank=8, targets=['attn_q', 'attn_k'], embd=False)], True),
]


def lora_file(path, preset, spec):
    p = gen_models.PRESETS[preset]
    model = {name: ne for name, ne in gen_models.tensor_list(p)}
    pairs = []
    for name, ne in gen_models.tensor_list(p):
        parts = name.split('.')
        if len(ne) != 2:
            continue
        if parts[0] == 'blk' and parts[2] in spec['targets'] and parts[3] == 'weight':
            pairs.append((name, [ne[0], spec['rank']], [spec['rank'], ne[1]]))
    if spec['embd'] and 'token_embd.weight' in model:
        ne = model['token_embd.weight']
        pairs.append(('token_embd.weight', [spec['rank'], ne[1]], [spec['rank'], ne[0]]))
    kv = [('general.architecture', gen_models.STR, p['arch']), ('general.type', gen_models.STR, 'adapter'),
          ('adapter.type', gen_models.STR, 'lora'), ('adapter.lora.alpha', gen_models.F32, 16.0)]
    tensors, off = [], 0
    for name, a, b in pairs:
        for suffix, ne in (('.lora_a', a), ('.lora_b', b)):
            nb = gen_models.nbytes(spec['type'], ne)
            tensors.append((name + suffix, ne, spec['type'], off))
            off += (nb + gen_models.ALIGN - 1) // gen_models.ALIGN * gen_models.ALIGN
    write_sparse(path, gen_models.pack_header(kv, tensors), off)


def write_sparse(path, header, data_bytes):
    """header, then data_bytes of zeros (sparse)."""
    with open(path, 'wb') as f:
        f.write(header)
        f.truncate(len(header) + data_bytes)


def cvec_file(path, preset):
    """A control vector for the preset: direction.1 .. direction.(n_layer - 1), F32 [n_embd], zero."""
    p = gen_models.PRESETS[preset]
    n = p['n_layer'] - 1
    nb = p['n_embd'] * 4
    step = (nb + gen_models.ALIGN - 1) // gen_models.ALIGN * gen_models.ALIGN
    kv = [('general.architecture', gen_models.STR, 'controlvector')]
    tensors = [('direction.%d' % il, [p['n_embd']], 'F32', (il - 1) * step) for il in range(1, n + 1)]
    write_sparse(path, gen_models.pack_header(kv, tensors), n * step)


def write_mode(argv):
    """--write-lora PRESET TYPE RANK TARGET[,TARGET...] EMBD(0|1) OUT, --write-cvec PRESET OUT: one file (the
    test writes the adapters of adapters.json's cases so)."""
    if argv[1] == '--write-lora' and len(argv) == 8:
        lora_file(argv[7], argv[2], dict(type=argv[3], rank=int(argv[4]), targets=argv[5].split(','),
                                         embd=argv[6] == '1'))
        return 0
    if argv[1] == '--write-cvec' and len(argv) == 4:
        cvec_file(argv[3], argv[2])
        return 0
    sys.stderr.write(write_mode.__doc__ + '\n')
    return 2


def main(argv):
    if len(argv) > 1 and argv[1].startswith('--write-'):
        return write_mode(argv)
    opt = {'--llama-bin': '/work/ref-llama-master/build/bin', '--llama-inc': '/tmp/estimate-llama-inc',
           '--out': os.path.join(HERE, 'adapters.json')}
    ref_master.parse_argv(argv, opt)
    cases = []
    with tempfile.TemporaryDirectory(prefix='estimate-adapters-') as tmp:
        exe = ref_master.build(opt['--llama-inc'], opt['--llama-bin'], tmp)
        for n, (preset, options, loras, cvec) in enumerate(CASES):
            model = os.path.join(tmp, preset + '.gguf')
            header, _, size = gen_models.build(gen_models.PRESETS[preset])
            with open(model, 'wb') as f:
                f.write(header)
                f.truncate(size)
            args = list(options)
            for k, spec in enumerate(loras):
                path = os.path.join(tmp, 'lora%d.gguf' % k)
                lora_file(path, preset, spec)
                args += ['--lora', path]
            if cvec:
                args.append('--control-vector')  # a zero vector of the model's n_embd (no file needed)
            status, bufs, log, eff = ref_master.run_case(exe, model, args)
            case = dict(id='%s.%d' % (preset, n), preset=preset, options=options, loras=loras, control_vector=cvec,
                        status=status, bytes=bufs, effective=eff)
            cases.append(case)
            sys.stderr.write('%s: %s %s\n' % (case['id'], status, json.dumps(bufs)))
    doc = dict(about='Bytes llama.cpp master (%s, CPU backend, x86-64 with AVX2 and AVX-512) allocated for LoRA '
                     'adapters and control vectors beside models written by gen_models.py (ref_master.c '
                     '--lora/--control-vector; adapters written by ref_adapters.py). Regenerate with '
                     'ref_adapters.py.' % ref_master.COMMIT,
               fields={'bytes': 'KIND.BUFFER -> [bytes, ...]: model, kv, output, compute, lora (one per adapter '
                                'and buffer type), cvec',
                       'loras': 'each adapter: tensor type, rank, the blk.N.TARGET.weight it adapts, token_embd too'},
               cases=cases)
    ref_master.write_compact(opt['--out'], doc)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
