#!/usr/bin/env python3
"""Regenerate tests/estimate/devices.json: where llama.cpp master (3f545becc) places a model on several devices.

    tests/estimate/ref_devices.py [--llama DIR] [--out FILE] [PRESET...]

Builds ref_devices.cpp against a built master tree (--llama, default /work/ref-llama-master: its include/,
ggml/include, ggml/src, common/ and build/bin), writes each preset of gen_models.py to a temporary sparse
file and runs ref_devices once per case below: fake GPU devices of the given free memory (MiB), master's
own placement (llama_model_load through common_get_device_memory_data, which loads without mmap and
without allocating).  Not run by make test (it needs master's libraries); tests/test_estimate.c checks the
JSON it writes.  See docs/reference.md and docs/estimate.md.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = '3f545becc'

# (ngl, free MiB per device, options): every preset gets these
COMMON = [
    (99, '8000,8000', []),
    (99, '8000,8000', ['-ts', '3,1']),
    (99, '8000,8000,8000', []),
    (99, '12000,4000', []),
    (3, '8000,8000', []),
    (99, '8000,8000', ['-sm', 'none', '-mg', '1']),
    (99, '8000,8000', ['-nkvo']),
    (99, '8000,8000', ['-ot', 'blk\\.1\\.=CPU']),
    (99, '8000,8000', ['-ot', 'blk\\.0\\.=GPU1']),
    (99, '8000,8000', ['-fa', 'off', '-c', '8192']),
]
# expert models: their matrices to the host
MOE = [
    (99, '8000,8000', ['-cmoe']),
    (99, '8000,8000', ['-ncmoe', '2']),
    (99, '8000,8000', ['-ts', '1,2', '-ncmoe', '1']),
]
PRESETS = ('smollm2-135m', 'qwen2-0.5b', 'phi3-mini', 'gemma3-1b', 'qwen3-0.6b', 'mixtral-tiny', 'qwen3moe-small',
           'gpt-oss-small', 'deepseek2-small', 'olmoe-small')


def build(llama, tmp):
    exe = os.path.join(tmp, 'ref_devices')
    bin_dir = os.path.join(llama, 'build', 'bin')
    inc = ['-I' + os.path.join(llama, d) for d in ('include', 'ggml/include', 'ggml/src', 'common')]
    subprocess.run(['g++', '-std=c++17', '-O1'] + inc + [os.path.join(HERE, 'ref_devices.cpp'), '-rdynamic',
                    '-L' + bin_dir, '-lllama-common', '-lllama', '-lggml', '-lggml-base', '-ldl',
                    '-Wl,-rpath,' + bin_dir, '-o', exe], check=True)
    return exe


def run_case(exe, model, ngl, free, options):
    p = subprocess.run([exe, model, str(ngl), free] + options, capture_output=True, text=True)
    places = []
    for line in p.stdout.splitlines():
        w = line.split()  # "I model M context C compute P"
        places.append(dict(model=int(w[2]), context=int(w[4]), compute=int(w[6])))
    return p.returncode, places


def main(argv):
    opt = {'--llama': '/work/ref-llama-master', '--out': os.path.join(HERE, 'devices.json')}
    sys.path.insert(0, HERE)
    import gen_models
    from ref_master import parse_argv, write_compact
    presets = parse_argv(argv, opt)
    cases = []
    with tempfile.TemporaryDirectory(prefix='estimate-dev-') as tmp:
        exe = build(opt['--llama'], tmp)
        for preset in presets or PRESETS:
            model = os.path.join(tmp, preset + '.gguf')
            header, _, size = gen_models.build(gen_models.PRESETS[preset])
            with open(model, 'wb') as f:
                f.write(header)
                f.truncate(size)
            moe = 'moe' in preset or preset in ('mixtral-tiny', 'gpt-oss-small', 'deepseek2-small')
            for ngl, free, options in COMMON + (MOE if moe else []):
                status, places = run_case(exe, model, ngl, free, options)
                case = dict(id='%s.ngl%d.%s.%s' % (preset, ngl, free.replace(',', '_'),
                                                   '_'.join(o.strip('-').replace('\\', '') for o in options)),
                            preset=preset, ngl=ngl, free_mib=[int(x) for x in free.split(',')], options=options,
                            status=status, devices=places[:-1], host=places[-1] if places else None)
                cases.append(case)
                sys.stderr.write('%s: %d %s\n' % (case['id'], status, json.dumps(places)))
            os.unlink(model)
    doc = dict(about='Where llama.cpp master (%s) places models written by gen_models.py (sparse, all-zero '
                     'weights) on fake GPU devices (ref_devices.cpp: registered through ggml\'s public device '
                     'API, every op supported, AMX refused on the host), as common_get_device_memory_data '
                     'reports it: per device and for the host, the model, context (KV cache) and compute '
                     'bytes. It loads without mmap and without allocating: the host\'s model bytes leave out '
                     'the CPU_REPACK copies. Regenerate with ref_devices.py.' % COMMIT,
               command='ref_devices MODEL NGL MiB,MiB,... OPTIONS (llama.cpp spellings; -c 4096, -fa auto)',
               fields={'devices': 'one {model, context, compute} per device, in order',
                       'host': 'the same for the host (CPU)',
                       'free_mib': "each device's free memory: the default split follows it",
                       'status': 'ref_devices exit status (0: placed)'},
               cases=cases)
    write_compact(opt['--out'], doc)


if __name__ == '__main__':
    main(sys.argv)
