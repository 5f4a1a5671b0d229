#!/usr/bin/env python3
"""Regenerate tests/estimate/mmproj.json: what llama.cpp master's (3f545becc) clip loader allocates for the
projectors of gen_mmproj.py on the CPU backend.

    tests/estimate/ref_mmproj.py --clip-lib LIB [--llama-bin DIR] [--llama-src DIR] [--out FILE]

LIB is master's clip as a shared library: tools/mtmd/clip.cpp, mtmd-image.cpp, mtmd-audio.cpp and
models/*.cpp compiled with -std=c++17 -fPIC -DLLAMA_SHARED -DLLAMA_BUILD and the include directories
tools/mtmd, include, ggml/include, vendor and src, linked with -shared (docs/reference.md).  The script
compiles ref_mmproj.cpp against it, master's headers (--llama-src, default /work/ref-llama-master) and
libllama/libggml (--llama-bin), writes each preset to a temporary sparse file and runs ref_mmproj with
flash attention auto (clip's default, on for the CPU) and off.  Not run by make test.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = '3f545becc'
OPTIONS = [['-fa', 'auto'], ['-fa', 'off']]


def build(src, lib, clip_lib, tmp):
    exe = os.path.join(tmp, 'ref_mmproj')
    inc = [os.path.join(src, d) for d in ('tools/mtmd', 'include', 'ggml/include')]
    subprocess.run(['g++', '-O1', '-std=c++17', '-Wall', '-Wextra'] + ['-I' + d for d in inc] +
                   [os.path.join(HERE, 'ref_mmproj.cpp'), '-o', exe, '-rdynamic', clip_lib, '-L' + lib, '-lllama',
                    '-lggml', '-lggml-base', '-ldl', '-Wl,-rpath,' + lib + ':' + os.path.dirname(clip_lib)],
                   check=True)
    return exe


def main(argv):
    opt = {'--clip-lib': None, '--llama-bin': '/work/ref-llama-master/build/bin',
           '--llama-src': '/work/ref-llama-master', '--out': os.path.join(HERE, 'mmproj.json')}
    i = 1
    while i + 1 < len(argv) and argv[i] in opt:
        opt[argv[i]] = argv[i + 1]
        i += 2
    if i != len(argv) or not opt['--clip-lib']:
        sys.stderr.write(__doc__)
        return 2
    sys.path.insert(0, HERE)
    import gen_mmproj
    cases = []
    with tempfile.TemporaryDirectory(prefix='estimate-mmproj-') as tmp:
        exe = build(opt['--llama-src'], opt['--llama-bin'], os.path.abspath(opt['--clip-lib']), tmp)
        for preset in gen_mmproj.PRESETS:
            path = os.path.join(tmp, preset + '.gguf')
            header, _, size = gen_mmproj.build(gen_mmproj.PRESETS[preset])
            with open(path, 'wb') as f:
                f.write(header)
                f.truncate(size)
            for options in OPTIONS:
                p = subprocess.run([exe, path] + options, capture_output=True, text=True, check=True)
                got = json.loads(p.stdout)
                case = dict(id=preset + '.' + '_'.join(o.lstrip('-') for o in options), preset=preset,
                            options=options, **got)
                cases.append(case)
                sys.stderr.write('%s: %s\n' % (case['id'], json.dumps(got)))
            os.unlink(path)
    doc = dict(about='Bytes llama.cpp master (%s) clip_init allocated on the CPU backend (use_gpu off, warm-up '
                     'on) for the projectors gen_mmproj.py writes (sparse, all-zero weights): the weights\' '
                     'buffer and the compute buffer of the warm-up image (ref_mmproj.cpp). Regenerate with '
                     'ref_mmproj.py.' % COMMIT,
               cases=cases)
    with open(opt['--out'], 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
