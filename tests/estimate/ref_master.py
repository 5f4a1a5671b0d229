#!/usr/bin/env python3
"""Regenerate tests/estimate/master.json: what llama.cpp master (3f545becc) allocates on the CPU backend.

    tests/estimate/ref_master.py [--llama-bin DIR] [--llama-inc DIR] [--out FILE] [--update yes] [PRESET...]

Compiles ref_master.c against master's headers (DIR/include and DIR/ggml/include, e.g. extracted with
`git -C LLAMA_REPO archive 3f545becc include ggml/include | tar -x -C DIR`) and its libllama/libggml
(--llama-bin, default /work/ref-llama-master/build/bin), writes each preset of gen_models.py to a
temporary sparse file and runs ref_master once per case below.  Not run by make test (it needs master's
libraries); the JSON it writes is what tests/test_estimate.c checks.  See docs/reference.md.
With --update yes, the cases of the presets named replace theirs in FILE and the other presets' cases are kept
(in FILE's order, the new presets' cases after them).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = '3f545becc'

# (preset, [options...]): every preset gets the common settings, some get more
COMMON = [
    ['-c', '4096'],
    ['-c', '1000'],
    ['-c', '4096', '-fa', 'off'],
    ['-c', '4096', '-fa', 'on', '-ctk', 'q8_0', '-ctv', 'q8_0'],
    ['-c', '2048', '-ub', '128'],
    ['-c', '4096', '-np', '4'],
    ['-c', '4096', '--no-repack'],
    ['-c', '4096', '--no-mmap'],
    ['-c', '1100', '-fa', 'off'],
]
# the architectures b4747 did not have references for: fewer settings each
SHORT = [
    ['-c', '4096'],
    ['-c', '1100', '-fa', 'off'],
    ['-c', '2048', '-ub', '128'],
    ['-c', '4096', '-np', '2'],
    ['-c', '4096', '--no-mmap'],
]
# presets for a weights rule (llama-layers-last: the mapped buffer ends before its repacked last matrices)
WEIGHTS_ONLY = ('llama-layers-last',)
WEIGHTS = [['-c', '4096'], ['-c', '4096', '--no-mmap'], ['-c', '4096', '--no-repack']]
FIRST = ('smollm2-135m', 'gemma2-2b', 'qwen2-0.5b', 'phi3-mini', 'mixtral-tiny', 'qwen2moe-small', 'deepseek2-small')
EXTRA = {
    'gemma2-2b': [['-c', '8192', '--swa-full'], ['-c', '8192'], ['-c', '8192', '-np', '2']],
    'phi3-mini': [['-c', '4096', '--swa-full']],
    'gemma3-1b': [['-c', '8192', '--swa-full'], ['-c', '8192', '-ub', '128']],
    'gemma4-31b': [['-c', '8192', '--swa-full'], ['-c', '8192', '-ub', '128']],
    'gpt-oss-small': [['-c', '8192', '--swa-full'], ['-c', '8192', '--no-repack']],
    'llama4-scout-small': [['-c', '16384'], ['-c', '16384', '--swa-full'], ['-c', '32768', '-np', '2']],
    # recurrent states: one row per sequence whatever the context
    'mamba-130m': [['-c', '65536'], ['-c', '4096', '-np', '4', '-ub', '256']],
    'rwkv6-1.6b': [['-c', '4096', '-np', '3']],
    'jamba-small': [['-c', '16384', '-np', '4'], ['-c', '4096', '-fa', 'off', '-ctk', 'q8_0']],
    'granitehybrid-small': [['-c', '8192', '-np', '3', '-fa', 'off']],
    'lfm2-1.2b': [['-c', '8192', '-ub', '256', '-np', '4']],
    'nemotron_h-small': [['-c', '8192', '-ctk', 'q8_0', '-ctv', 'q8_0']],
    'qwen3next-small': [['-c', '8192', '-np', '4', '-fa', 'off']],
    'ernie4_5-moe-small': [['-c', '8192', '-fa', 'off', '-ub', '256']],
    'hunyuan-moe-small': [['-c', '8192', '-np', '2', '-fa', 'off']],
    # embedding contexts: the output buffer's embeddings beside the logits, the pooling's tensors
    'qwen3-0.6b': [['-c', '4096', '--embedding'], ['-c', '4096', '--embedding', '--pooling', 'mean'],
                   ['-c', '4096', '--embedding', '--pooling', 'mean', '-np', '4'],
                   ['-c', '2048', '-ub', '128', '--embedding', '--pooling', 'cls'],
                   ['-c', '4096', '-fa', 'off', '--embedding', '--pooling', 'last'], ['-c', '4096', '--reranking'],
                   ['-c', '4096', '--pooling', 'mean']],
    'smollm2-135m': [['-c', '4096', '--embedding', '--pooling', 'mean', '-ub', '128']],
    'qwen3-embedding-0.6b': [['-c', '4096', '--embedding'], ['-c', '8192', '--embedding', '-np', '4'],
                             ['-c', '4096', '--embedding', '--pooling', 'none']],
    'qwen3-reranker-0.6b': [['-c', '4096', '--reranking'], ['-c', '4096', '--embedding'],
                            ['-c', '4096', '--reranking', '-np', '2', '--no-mmap']],
}
# a draft model beside the target (ref_master --draft): {target: {draft: [options, ...]}}; the case keeps the
# draft's preset in "draft", its buffers' kinds are "draft_model", "draft_kv", ...
DRAFT = {
    'qwen3-0.6b': {'smollm2-135m': [['-c', '4096'], ['-c', '4096', '-np', '4'], ['-c', '1000', '-fa', 'off'],
                                    ['-c', '2048', '-ub', '128', '--no-mmap']]},
    'gemma2-2b': {'gemma3-1b': [['-c', '8192'], ['-c', '8192', '-np', '2', '--no-repack']]},
}
# presets master runs only with flash attention (minimax-m3's sparse attention asserts without it): their -fa off
# cases are left out (the estimate refuses -fa off for them)
FA_ONLY = ('minimax-m3-small',)
# presets whose cases are their EXTRA ones alone
EXTRA_ONLY = ('qwen3-embedding-0.6b', 'qwen3-reranker-0.6b')


def build(inc, lib, tmp):
    exe = os.path.join(tmp, 'ref_master')
    subprocess.run(['cc', '-O1', '-std=c11', '-Wall', '-Wextra', '-I' + os.path.join(inc, 'include'),
                    '-I' + os.path.join(inc, 'ggml', 'include'), os.path.join(HERE, 'ref_master.c'),
                    '-o', exe, '-rdynamic', '-L' + lib, '-lllama', '-lggml', '-lggml-base', '-ldl',
                    '-Wl,-rpath,' + lib], check=True)
    return exe


KEEP = ('llama_kv_cache: size', 'creating', 'Flash Attention', 'error', 'failed', 'quantized V')


def effective(lines):
    """llama_context's settings as it printed them: n_ctx, n_ctx_seq, n_batch, n_ubatch, flash attention."""
    eff = {}
    for l in lines:
        m = re.match(r'llama_context: (n_ctx|n_ctx_seq|n_batch|n_ubatch|n_seq_max) += (\d+)$', l)
        if m:
            eff[m.group(1)] = int(m.group(2))
        if 'Flash Attention enabled' in l or 'flash_attn            = enabled' in l:
            eff['flash_attn'] = 1
        if 'Flash Attention not supported' in l or 'flash_attn            = disabled' in l:
            eff['flash_attn'] = 0
    return eff


def run_case(exe, model, options):
    p = subprocess.run([exe, model] + options, capture_output=True, text=True, check=True)
    out = json.loads(p.stdout)
    bufs = {}
    for b in out['buffers']:
        key = b['kind'] + '.' + b['name']
        bufs.setdefault(key, []).append(b['bytes'])
    lines = p.stderr.splitlines()
    log = [l for l in lines if any(k in l for k in KEEP) and 'layer ' not in l]
    return out['status'], bufs, log, effective(lines)


def write_model(gen_models, tmp, preset):
    """PRESET as a sparse file in tmp (once); its path."""
    model = os.path.join(tmp, preset + '.gguf')
    if not os.path.exists(model):
        header, _, size = gen_models.build(gen_models.PRESETS[preset])
        with open(model, 'wb') as f:
            f.write(header)
            f.truncate(size)
    return model


def parse_argv(argv, opt):
    """Fill opt's --NAME VALUE pairs from argv; the other words are presets (returned)."""
    presets = []
    i = 1
    while i < len(argv):
        if argv[i] in opt and i + 1 < len(argv):
            opt[argv[i]] = argv[i + 1]
            i += 2
        else:
            presets.append(argv[i])
            i += 1
    return presets


def write_compact(path, doc):
    """doc as JSON with its cases one a line."""
    with open(path, 'w') as f:
        head = json.dumps({k: v for k, v in doc.items() if k != 'cases'}, indent=1)[:-2]
        f.write(head + ',\n "cases": [\n')
        f.write(',\n'.join('  ' + json.dumps(c) for c in doc['cases']))
        f.write('\n ]\n}\n')


def main(argv):
    opt = {'--llama-bin': '/work/ref-llama-master/build/bin', '--llama-inc': '/tmp/estimate-llama-inc',
           '--out': os.path.join(HERE, 'master.json'), '--update': 'no'}
    presets = parse_argv(argv, opt)
    sys.path.insert(0, HERE)
    import gen_models
    if not presets:
        presets = list(gen_models.PRESETS)
    cases = []
    with tempfile.TemporaryDirectory(prefix='estimate-ref-') as tmp:
        exe = build(opt['--llama-inc'], opt['--llama-bin'], tmp)
        for preset in presets:
            model = write_model(gen_models, tmp, preset)
            base = COMMON if preset in FIRST else WEIGHTS if preset in WEIGHTS_ONLY else \
                [] if preset in EXTRA_ONLY else SHORT
            runs = [(options, None) for options in base + EXTRA.get(preset, [])
                    if not (preset in FA_ONLY and 'off' in options)]
            runs += [(options, d) for d, opts in DRAFT.get(preset, {}).items() for options in opts]
            for options, draft in runs:
                extra = ['--draft', write_model(gen_models, tmp, draft)] if draft else []
                status, bufs, log, eff = run_case(exe, model, options + extra)
                case = dict(id=preset + ('+' + draft if draft else '') + '.' +
                            '_'.join(o.lstrip('-') for o in options), preset=preset,
                            options=options, status=status, bytes=bufs, effective=eff, log=log)
                if draft:
                    case['draft'] = draft
                cases.append(case)
                sys.stderr.write('%s: %s %s\n' % (case['id'], status, json.dumps(bufs)))
            os.unlink(model)
    if opt['--update'] == 'yes' and os.path.exists(opt['--out']):
        with open(opt['--out']) as f:
            kept = [c for c in json.load(f)['cases'] if c['preset'] not in presets]
        cases = kept + cases
    doc = dict(about='Bytes llama.cpp master (%s, CPU backend, x86-64 with AVX2 and AVX-512, AMX refused as on '
                     'a host without it) allocated for models written by gen_models.py (sparse, all-zero '
                     'weights), from ggml_backend_buffer_get_size and ggml_backend_sched_get_buffer_size '
                     'around the lines llama.cpp prints (ref_master.c). Regenerate with ref_master.py.' % COMMIT,
               command='ref_master MODEL OPTIONS (llama-cli spelling; defaults as llama-cli: -b 2048 -ub 512 '
                       '-np 1 -fa auto, mmap, repack)',
               fields={'bytes': 'KIND.BUFFER -> [bytes, ...] in the order llama.cpp printed them (model, kv, rs, '
                                'output, compute; a SWA model has two kv buffers, the non-SWA cache first; with a draft '
                                'model its buffers are draft_model, draft_kv, ...)',
                       'draft': 'the preset of the draft model loaded beside the target (ref_master --draft), if any',
                       'status': '1 when llama.cpp refused the model or the settings',
                       'effective': 'the settings llama_context printed (flash_attn: 1 when enabled; with a '
                                    'draft model, its context\'s, printed last)',
                       'log': "llama.cpp's lines about the KV caches and flash attention"},
               cases=cases)
    write_compact(opt['--out'], doc)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
