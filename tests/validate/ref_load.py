#!/usr/bin/env python3
"""Regenerate tests/validate/master_load.json: whether llama.cpp master (3f545becc) loads each case of
load_cases.py, and master's reason when it does not.

    tests/validate/ref_load.py [--llama-bin DIR] [--llama-inc DIR] [--out FILE] [--update yes] [CASE...]

Compiles ref_load.c against master's headers (DIR/include and DIR/ggml/include, e.g. extracted with
`git -C LLAMA_REPO archive 3f545becc include ggml/include | tar -x -C DIR`) and its libllama/libggml
(--llama-bin, default /work/ref-llama-master/build/bin), writes each case to a temporary sparse file and
runs ref_load on it, one process a case (master aborts on some files: its GGML_ASSERT line is the
reason then).  With --update yes, the cases named replace theirs in FILE and the others are kept (FILE's order,
new cases last).  Not run by make test (it needs master's libraries); the JSON it writes is what
tests/test_validate_load.c holds `gguf validate --load` to.  See docs/reference.md.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = '3f545becc'
# committed files (the CLI cases' too), checked as they are
FILES = {'examples/Tiny-Llama-82K-v1.0-Q8_0.gguf': 'the example model',
         'tests/data/tiny-llama-bad-load.gguf': 'the example with llama.attention.causal u8 and '
                                                'rope.dimension_count 32 (gguf set)'}


def build(inc, lib, tmp):
    exe = os.path.join(tmp, 'ref_load')
    subprocess.run(['cc', '-O1', '-std=c11', '-Wall', '-Wextra', '-I' + os.path.join(inc, 'include'),
                    '-I' + os.path.join(inc, 'ggml', 'include'), os.path.join(HERE, 'ref_load.c'), '-o', exe,
                    '-L' + lib, '-lllama', '-lggml', '-lggml-base', '-Wl,-rpath,' + lib], check=True)
    return exe


def run_case(exe, model):
    env = dict(os.environ, GGML_NO_BACKTRACE='1')
    p = subprocess.run([exe, model], capture_output=True, text=True, env=env)
    if p.returncode == 0:
        return json.loads(p.stdout)
    why = [l for l in p.stderr.splitlines() if 'GGML_ASSERT' in l or 'GGML_ABORT' in l or 'error' in l]
    text = why[-1] if why else 'exit status %d' % p.returncode
    return dict(loaded=False, error='aborted: ' + text.split('/src/')[-1])


def main(argv):
    opt = {'--llama-bin': '/work/ref-llama-master/build/bin', '--llama-inc': '/tmp/lead/refinc',
           '--out': os.path.join(HERE, 'master_load.json'), '--update': 'no'}
    cases, i = [], 1
    while i < len(argv):
        if argv[i] in opt and i + 1 < len(argv):
            opt[argv[i]] = argv[i + 1]
            i += 2
        else:
            cases.append(argv[i])
            i += 1
    sys.path.insert(0, HERE)
    import load_cases
    out = []
    with tempfile.TemporaryDirectory(prefix='validate-load-ref-') as tmp:
        exe = build(opt['--llama-inc'], opt['--llama-bin'], tmp)
        for case in cases or list(load_cases.CASES):
            model = os.path.join(tmp, case + '.gguf')
            load_cases.write(case, model)
            r = run_case(exe, model)
            os.unlink(model)
            out.append(dict(id=case, preset=load_cases.CASES[case][0], what=load_cases.CASES[case][2],
                            loaded=r['loaded'], error=r['error']))
            sys.stderr.write('%s: %s %s\n' % (case, r['loaded'], r['error']))
        for path, what in ([] if cases else FILES.items()):
            r = run_case(exe, os.path.join(HERE, '..', '..', path))
            out.append(dict(id=path, preset=None, what=what, loaded=r['loaded'], error=r['error']))
            sys.stderr.write('%s: %s %s\n' % (path, r['loaded'], r['error']))
    if opt['--update'] == 'yes' and cases and os.path.exists(opt['--out']):
        with open(opt['--out']) as f:
            old = json.load(f)['cases']
        fresh = {c['id']: c for c in out}
        out = [fresh.pop(c['id'], c) for c in old] + list(fresh.values())
    doc = dict(about='Whether llama.cpp master (%s, CPU backend, mmap, no repacking) loads each case of '
                     'load_cases.py and of the committed FILES (llama_model_load_from_file: hyperparameters, vocabulary, tensors), and '
                     "master's reason when it does not. Regenerate with ref_load.py." % COMMIT,
               fields={'loaded': 'llama_model_load_from_file returned a model',
                       'error': "master's 'error loading model' text, or 'aborted: ' and its GGML_ASSERT"},
               cases=out)
    with open(opt['--out'], 'w') as f:
        f.write(json.dumps({k: v for k, v in doc.items() if k != 'cases'}, indent=1)[:-2] + ',\n "cases": [\n')
        f.write(',\n'.join('  ' + json.dumps(c) for c in out))
        f.write('\n ]\n}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
