// editor.test.mjs BUILD -- the GGUF Editor (web/) in headless Chromium,
// driven by playwright-core (tests/web/run.sh runs it).  The page is served
// with the models by tests/httpd.c (BUILD/web-test/serve); what the page
// shows and saves is checked against the reference files' own data (the
// shared corpus's manifest, the Hugging Face tokenizer files) and against
// what `gguf set` / `gguf rm` write for the same edits.  Prints one line
// per test and exits non-zero when one fails.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import net from 'node:net';

const B = path.resolve(process.argv[2] || 'build');
const GGUF = path.join(B, 'gguf');
const SHARED = path.resolve(process.env.GGUF_SHARED || '../shared');
const WORK = path.join(B, 'web-test', 'work');
const ROOT = path.join(WORK, 'root');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const DENSE = path.join(SHARED, 'golden/llama-quantize/pub-dense-Q8_0.gguf');
const DENSE_BE = path.join(SHARED, 'golden/llama-quantize/pub-dense-Q8_0.BE.gguf');
const QWEN = path.join(SHARED, 'golden/convert/Qwen2.5-Tiny-Test-Instruct.f16.gguf');
const QWEN_HF = path.join(SHARED, 'golden/convert/Qwen2.5-Tiny-Test-Instruct');

// ---- set-up ------------------------------------------------------------------

fs.rmSync(WORK, { recursive: true, force: true });
fs.mkdirSync(ROOT, { recursive: true });
for (const f of ['index.html', 'app.js', 'style.css', 'gguf.js', 'gguf.wasm']) fs.copyFileSync(path.join(B, 'web', f), path.join(ROOT, f));
const served = (name, from) => { fs.mkdirSync(path.dirname(path.join(ROOT, name)), { recursive: true }); fs.symlinkSync(from, path.join(ROOT, name)); };
served('qwen.gguf', QWEN);
served('dense.gguf', DENSE);
served('owner/repo/resolve/main/qwen.gguf', QWEN);
served('owner/repo/resolve/v1.0/qwen.gguf', QWEN);
served('o/x.gguf', DENSE); // where hf://o/r/../../../x.gguf led when the page did not check it
// a repository for hf://qo/qr:QUANT: its listing, as the hub's API answers, and its files
served('qo/qr/resolve/main/tiny-Q8_0.gguf', DENSE);
served('qo/qr/resolve/main/tiny-F16.gguf', QWEN);
fs.mkdirSync(path.join(ROOT, 'api/models/qo/qr/tree'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'api/models/qo/qr/tree/main'), JSON.stringify([
  { type: 'file', path: 'README.md', size: 10 }, { type: 'directory', path: 'docs', size: 0 },
  { type: 'file', path: 'tiny-F16.gguf', size: fs.statSync(QWEN).size },
  { type: 'file', path: 'tiny-Q8_0.gguf', size: fs.statSync(DENSE).size }]));

const server = spawn(path.join(B, 'web-test', 'serve'), [ROOT], { stdio: ['pipe', 'pipe', 'inherit'] });
const serverLines = readline.createInterface({ input: server.stdout })[Symbol.asyncIterator]();
const port = Number((await serverLines.next()).value);
const BASE = `http://127.0.0.1:${port}`;
// Requests and body bytes the server sent since the last call.
async function counts() {
  server.stdin.write('counts\n');
  const [requests, bytes] = (await serverLines.next()).value.split(' ').map(Number);
  return { requests, bytes };
}

const gguf = (...args) => execFileSync(GGUF, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
const HUB_ENV = () => ({ ...process.env, HF_ENDPOINT: `${BASE}/plain` });
function ggufFails(...args) {
  try {
    execFileSync(GGUF, args, { stdio: 'pipe', env: HUB_ENV() });
  } catch (e) {
    return e.stderr.toString();
  }
  throw new Error(`gguf ${args.join(' ')} succeeded`);
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
let page;
const pageErrors = [];

async function newPage(query = '') {
  if (page) await page.close();
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${BASE}/plain/index.html${query}`);
  await page.waitForSelector('body[data-ready="1"]');
}

// ---- checks ------------------------------------------------------------------

function check(cond, what) { if (!cond) throw new Error(what); }
function eq(a, b, what) {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: got ${JSON.stringify(a)?.slice(0, 300)}, expected ${JSON.stringify(b)?.slice(0, 300)}`);
}
function sameBytes(a, b, what) {
  const x = fs.readFileSync(a), y = fs.readFileSync(b);
  if (x.length !== y.length) throw new Error(`${what}: ${x.length} bytes, the CLI wrote ${y.length}`);
  const at = x.findIndex((v, i) => v !== y[i]);
  if (at >= 0) throw new Error(`${what}: first difference from the CLI's file at byte ${at}`);
}

// ---- driving the page ----------------------------------------------------------

const alertText = async () => ((await page.getByRole('alert').isVisible()) ? page.getByRole('alert').textContent() : null);
// Wait until the page has opened something or said why not.
async function settled() {
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Opened') || !document.getElementById('alert').hidden);
}
async function openLocal(file) {
  await page.getByLabel('GGUF file', { exact: true }).setInputFiles(file);
  await settled();
}
async function openUrl(url) {
  await page.getByRole('textbox', { name: 'URL', exact: true }).fill(url);
  await page.getByRole('button', { name: 'Open URL' }).click();
  await settled();
}
const rows = (name) => page.getByRole('table', { name, exact: true }).locator('tbody tr')
  .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
async function metaRow(key) {
  return (await rows('Metadata')).find((r) => r[0] === key);
}
async function editKey(key, fields) {
  await page.getByRole('button', { name: `Edit ${key}`, exact: true }).click();
  await fillForm(fields);
}
async function fillForm({ key, type, value }) {
  const form = page.getByRole('form', { name: 'Edit metadata' });
  if (key !== undefined) await form.getByRole('textbox', { name: 'Key', exact: true }).fill(key);
  if (type !== undefined) await form.getByRole('combobox', { name: 'Type', exact: true }).selectOption(type);
  if (value !== undefined) await form.getByRole('textbox', { name: 'Value', exact: true }).fill(value);
  await form.getByRole('button', { name: 'Apply' }).click();
}
async function addKey(fields) {
  await page.getByRole('button', { name: 'Add key', exact: true }).click();
  await fillForm(fields);
}
async function save(to) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  await dl.saveAs(to);
  return dl.suggestedFilename();
}
const out = (name) => path.join(WORK, name);

// ---- the tests ---------------------------------------------------------------

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('metadata and tensors tables show what the CLI reads, with the types gguf set names', async () => {
  await newPage();
  await openLocal(DENSE);
  eq(await alertText(), null, 'alert');
  const dump = JSON.parse(gguf('dump', '--json', DENSE));
  const meta = await rows('Metadata');
  eq(meta.map((r) => r[0]), dump.metadata.map((m) => m.key), 'keys in file order');
  const typeOf = (m) => (m.type === 'array' ? `arr[${m.value.type === 'string' ? 'str' : m.value.type}]` : m.type === 'string' ? 'str' : m.type);
  eq(meta.map((r) => r[1]), dump.metadata.map(typeOf), 'types');
  for (const m of dump.metadata.filter((x) => x.type !== 'array')) eq((await metaRow(m.key))[2], String(m.value), `value of ${m.key}`);
  const tokens = dump.metadata.find((m) => m.key === 'tokenizer.ggml.tokens');
  check((await metaRow('tokenizer.ggml.tokens'))[2].startsWith(`${tokens.value.items.length} items: ["<unk>", "<s>"`), 'array summary');
  const tens = await rows('Tensors');
  eq(tens.map((r) => [r[0], r[1], r[2], Number(r[3])]), dump.tensors.map((t) => [t.name, t.type, `[${t.shape.join(', ')}]`, t.size]), 'tensors');
  await page.getByLabel('Filter tensors by name').fill('ffn_up');
  eq((await rows('Tensors')).map((r) => r[0]), dump.tensors.filter((t) => t.name.includes('ffn_up')).map((t) => t.name), 'filtered tensors');
  const summary = await page.locator('#summary').textContent();
  check(summary.includes('architecturellama') && summary.includes('file typeMOSTLY_Q8_0 (7)'), `summary: ${summary}`);
});

test('llama.cpp master\'s tensor types (MXFP4, NVFP4, Q1_0, Q2_0): named and sized as the CLI gives them', async () => {
  const f = path.join(WORK, 'newtypes.gguf');
  gguf('quantize', '-q', '--tensor-type', 'ffn_up=mxfp4', '--tensor-type', 'ffn_down=nvfp4', '--tensor-type', 'attn_q=q1_0',
    '--tensor-type', 'attn_k=q2_0', path.join(SHARED, 'golden/llama-quantize/pub-dense-f16.gguf'), f, 'Q8_0');
  const dump = JSON.parse(gguf('dump', '--json', f));
  eq([...new Set(dump.tensors.map((t) => t.type))].sort(), ['F32', 'MXFP4', 'NVFP4', 'Q1_0', 'Q2_0', 'Q8_0'], 'the file\'s types');
  await newPage();
  await openLocal(f);
  eq(await alertText(), null, 'alert');
  const tens = await rows('Tensors');
  eq(tens.map((r) => [r[0], r[1], r[2], Number(r[3])]), dump.tensors.map((t) => [t.name, t.type, `[${t.shape.join(', ')}]`, t.size]), 'tensors');
});

test('the shared corpus: every file ggml reads opens with ggml\'s pair and tensor counts', async () => {
  await newPage();
  const manifest = fs.readFileSync(path.join(SHARED, 'corpus/MANIFEST.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const head = manifest.shift();
  const col = (n) => head.indexOf(n);
  let n = 0;
  for (const r of manifest) {
    if (r[col('format')] !== 'GGUF' || r[col('ref_ggml_c')] !== 'ok') continue;
    await openLocal(path.join(SHARED, 'corpus', r[col('path')]));
    eq(await alertText(), null, `${r[0]}: alert`);
    eq((await rows('Metadata')).length, Number(r[col('n_kv')]), `${r[0]}: metadata rows`);
    eq((await rows('Tensors')).length, Number(r[col('n_tensors')]), `${r[0]}: tensor rows`);
    n++;
  }
  check(n >= 20, `only ${n} corpus files`);
  return `${n} files`;
});

test('edits saved equal gguf set + gguf rm for the same edits (little- and big-endian)', async () => {
  for (const [file, tag] of [[DENSE, 'le'], [DENSE_BE, 'be']]) {
    await newPage();
    await openLocal(file);
    await editKey('general.name', { value: 'Edited in the browser' });
    await addKey({ key: 'general.description', type: 'str', value: 'line one\nline two, with a comma' });
    await editKey('llama.context_length', { value: '1024' });
    await editKey('general.description', { key: 'general.comment' });
    await addKey({ key: 'test.scales', type: 'arr[f32]', value: '0.5,-1.25,3' });
    await page.getByRole('button', { name: 'Remove tokenizer.ggml.unknown_token_id', exact: true }).click();
    eq(await alertText(), null, 'alert after the edits');
    eq((await metaRow('general.comment')).slice(0, 3), ['general.comment', 'str', 'line one\nline two, with a comma'], 'renamed key');
    eq((await metaRow('llama.context_length')).slice(0, 3), ['llama.context_length', 'u32', '1024'], 'changed value keeps its type');
    eq(await metaRow('tokenizer.ggml.unknown_token_id'), undefined, 'removed key');
    const name = await save(out(`saved-${tag}.gguf`));
    eq(name, path.basename(file), 'download name');
    gguf('set', '-o', out(`cli1-${tag}.gguf`), file, 'general.name=str:Edited in the browser',
      'general.description=str:line one\nline two, with a comma', 'llama.context_length=u32:1024',
      '--rename', 'general.description=general.comment', 'test.scales=arr[f32]:0.5,-1.25,3');
    gguf('rm', '-o', out(`cli-${tag}.gguf`), out(`cli1-${tag}.gguf`), 'tokenizer.ggml.unknown_token_id');
    sameBytes(out(`saved-${tag}.gguf`), out(`cli-${tag}.gguf`), `${tag} file`);
  }
});

test('Save as... writes the same bytes through the File System Access API', async () => {
  await newPage();
  await openLocal(DENSE);
  check(await page.getByRole('button', { name: 'Save as...' }).isVisible(), 'Save as... is offered');
  await editKey('general.name', { value: 'saved as' });
  // the picker is a dialog no headless test can answer: hand the page a real
  // file handle of the origin's private file system instead
  await page.evaluate(() => {
    window.showSaveFilePicker = async () => (await navigator.storage.getDirectory()).getFileHandle('saved-as.gguf', { create: true });
  });
  await page.getByRole('button', { name: 'Save as...' }).click();
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Saved saved-as.gguf.');
  const b64 = await page.evaluate(async () => {
    const f = await (await (await navigator.storage.getDirectory()).getFileHandle('saved-as.gguf')).getFile();
    const bytes = new Uint8Array(await f.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  });
  fs.writeFileSync(out('saved-as.gguf'), Buffer.from(b64, 'base64'));
  gguf('set', '-o', out('saved-as-cli.gguf'), DENSE, 'general.name=str:saved as');
  sameBytes(out('saved-as.gguf'), out('saved-as-cli.gguf'), 'Save as...');
});

test('undo and redo', async () => {
  await newPage();
  await openLocal(DENSE);
  await editKey('general.name', { value: 'first' });
  await editKey('general.name', { value: 'second' });
  await page.getByRole('button', { name: 'Undo' }).click();
  eq((await metaRow('general.name'))[2], 'first', 'after one undo');
  await page.getByRole('button', { name: 'Undo' }).click();
  eq((await metaRow('general.name'))[2], 'tiny-llama-11', 'after two undos');
  await page.getByRole('button', { name: 'Redo' }).click();
  eq((await metaRow('general.name'))[2], 'first', 'after a redo');
  check(await page.getByRole('button', { name: 'Redo' }).isEnabled(), 'a second redo is possible');
  await save(out('undo.gguf'));
  gguf('set', '-o', out('undo-cli.gguf'), DENSE, 'general.name=str:first');
  sameBytes(out('undo.gguf'), out('undo-cli.gguf'), 'saved after undo/redo');
});

test('refused edits: gguf set\'s message, validate\'s message, the state kept', async () => {
  await newPage();
  await openLocal(DENSE);
  await addKey({ key: 'test.byte', type: 'u8', value: '300' });
  const cli = ggufFails('set', '-o', out('x.gguf'), DENSE, 'test.byte=u8:300');
  const why = /test\.byte: (.*)/.exec(cli)[1];
  check((await alertText()).includes(why), `alert '${await alertText()}' lacks '${why}'`);
  eq(await metaRow('test.byte'), undefined, 'refused key not added');
  // a standard key keeps its type: validate names the change an error
  await page.getByRole('button', { name: 'Cancel' }).click();
  await editKey('llama.context_length', { type: 'str', value: 'abc' });
  gguf('set', '--force', '-o', out('typed.gguf'), DENSE, 'llama.context_length=str:abc'); // set refuses it without --force
  let v = '';
  try { execFileSync(GGUF, ['validate', out('typed.gguf')], { stdio: 'pipe' }); } catch (e) { v = e.stdout.toString(); }
  const msg = /error: (.*)/.exec(v)[1];
  check((await alertText()).includes(msg), `alert '${await alertText()}' lacks '${msg}'`);
  eq((await metaRow('llama.context_length')).slice(1, 3), ['u32', '512'], 'value kept');
  await page.getByRole('button', { name: 'Cancel' }).click();
  // what validate requires cannot be removed
  await page.getByRole('button', { name: 'Remove general.quantization_version', exact: true }).click();
  check((await alertText()).includes('general.quantization_version is missing but tensors are quantized'), 'quantization_version refusal');
  check(!!(await metaRow('general.quantization_version')), 'key kept');
});

test('a file with an error already: other edits pass, the error is shown, a new error is refused', async () => {
  const bad = out('bad-eos.gguf');
  gguf('set', '-o', bad, DENSE, 'tokenizer.ggml.eos_token_id=u32:5000');
  await newPage();
  await openLocal(bad);
  const findings = await rows('Findings');
  check(findings.some((r) => r[0] === 'error' && r[2] === 'tokenizer.ggml.eos_token_id = 5000 is outside the vocabulary of 1000 tokens'), `findings: ${JSON.stringify(findings)}`);
  await editKey('general.name', { value: 'still broken' });
  eq(await alertText(), null, 'an edit that adds no error');
  await page.getByRole('button', { name: 'Set tokenizer.ggml.bos_token_id' }).click();
  await fillForm({ value: '4000' });
  check((await alertText()).includes('tokenizer.ggml.bos_token_id = 4000 is outside the vocabulary of 1000 tokens'), `alert: ${await alertText()}`);
  await save(out('bad-saved.gguf'));
  gguf('set', '-o', out('bad-cli.gguf'), bad, 'general.name=str:still broken');
  sameBytes(out('bad-saved.gguf'), out('bad-cli.gguf'), 'saved');
});

test('a 151,936-token vocabulary: shown within 5 s, paged, chat template and special token edited', async () => {
  await newPage();
  const t0 = Date.now();
  await openLocal(QWEN);
  const n = (await rows('Tensors')).length;
  const ms = Date.now() - t0;
  eq(n, 26, 'tensors');
  check(ms < 5000, `${ms} ms to show the file`);
  check((await metaRow('tokenizer.ggml.tokens'))[2].startsWith('151936 items: '), 'token count');
  // the screenshot the run keeps (docs/web.png is one of these)
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(B, 'web-test', 'editor.png') });
  // the paged view, against the Hugging Face tokenizer's vocabulary
  const vocab = JSON.parse(fs.readFileSync(path.join(QWEN_HF, 'tokenizer.json'), 'utf8')).model.vocab;
  const byId = [];
  for (const [k, i] of Object.entries(vocab)) byId[i] = k;
  await page.getByRole('button', { name: 'Items of tokenizer.ggml.tokens' }).click();
  await page.getByRole('button', { name: 'Next items' }).click();
  const items = await rows('Array items');
  eq(items.map((r) => [Number(r[0]), JSON.parse(r[1])]), byId.slice(100, 200).map((t, i) => [100 + i, t]), 'tokens 100..199');
  // the chat template, as the model's tokenizer_config.json has it
  const cfg = JSON.parse(fs.readFileSync(path.join(QWEN_HF, 'tokenizer_config.json'), 'utf8'));
  eq(await page.getByLabel('Chat template text').textContent(), cfg.chat_template, 'chat template');
  const tmpl = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}";
  await page.getByRole('button', { name: 'Edit chat template' }).click();
  await fillForm({ value: tmpl });
  eq(await page.getByLabel('Chat template text').textContent(), tmpl, 'edited template shown');
  // the file's eos is <|im_end|>: make it <|endoftext|>, whose id the tokenizer's added tokens give
  const eos = JSON.parse(fs.readFileSync(path.join(QWEN_HF, 'tokenizer.json'), 'utf8')).added_tokens.find((t) => t.content === '<|endoftext|>').id;
  eq((await rows('Special tokens')).find((r) => r[0] === 'tokenizer.ggml.eos_token_id')[2], '"<|im_end|>"', 'eos before');
  await page.getByRole('button', { name: 'Set tokenizer.ggml.eos_token_id' }).click();
  await fillForm({ value: String(eos) });
  const special = (await rows('Special tokens')).find((r) => r[0] === 'tokenizer.ggml.eos_token_id');
  eq(special.slice(1, 3), [String(eos), '"<|endoftext|>"'], 'eos row');
  eq(await page.locator('#save-note').textContent(), '2 edits', 'edit count');
  await save(out('qwen.gguf'));
  fs.writeFileSync(out('tmpl.txt'), tmpl);
  gguf('set', '-o', out('qwen-cli.gguf'), QWEN, `tokenizer.chat_template=str@${out('tmpl.txt')}`, `tokenizer.ggml.eos_token_id=u32:${eos}`);
  sameBytes(out('qwen.gguf'), out('qwen-cli.gguf'), 'saved qwen');
  return `${ms} ms to show`;
});

test('sparse models: 1.7 GB (288 tensors) within 3 s, 100 GiB within 3 s, the header alone read', async () => {
  const gemma = out('gemma2-2b.gguf');
  execFileSync('python3', [path.join(SHARED, 'golden/estimate/gen_gguf.py'), 'gemma2-2b', gemma]);
  const big = out('big.gguf');
  writeSparse(big, 100);
  const times = [];
  for (const [file, tensors] of [[gemma, 288], [big, 100]]) {
    await newPage();
    const t0 = Date.now();
    await openLocal(file);
    eq((await rows('Tensors')).length, tensors, `${path.basename(file)} tensors`);
    const ms = Date.now() - t0;
    check(ms < 3000, `${path.basename(file)}: ${ms} ms`);
    times.push(`${path.basename(file)} (${fs.statSync(file).size} bytes) ${ms} ms`);
    const status = await page.getByRole('status').textContent();
    const read = Number(/read (\d+) of/.exec(status)[1]);
    const header = JSON.parse(gguf('dump', '--json', '--no-tensors', file)).data_offset;
    check(read <= Math.max(2 * header, 256 * 1024), `${read} bytes read for a ${header}-byte header`);
  }
  fs.rmSync(gemma);
  fs.rmSync(big);
  return times.join(', ');
});

// A GGUF v3 file of n 1-GiB F32 tensors, the data a hole (written here, not
// by the library under test).
function writeSparse(file, n) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { u64(Buffer.byteLength(s)); parts.push(Buffer.from(s)); };
  parts.push(Buffer.from('GGUF'));
  u32(3); u64(n); u64(1);
  str('general.architecture'); u32(8); str('llama');
  for (let i = 0; i < n; i++) { str(`blk.${i}.weight`); u32(2); u64(1 << 14); u64(1 << 14); u32(0); u64(i * 2 ** 30); }
  let head = Buffer.concat(parts);
  head = Buffer.concat([head, Buffer.alloc((32 - (head.length % 32)) % 32)]);
  fs.writeFileSync(file, head);
  fs.truncateSync(file, head.length + n * 2 ** 30);
}

// A GGUF v3 file of n u32 keys test.kNNNNNNN = NNNNNNN and no tensor
// (written here, not by the library under test).
function writeManyKeys(file, n) {
  const head = Buffer.alloc(24);
  head.write('GGUF');
  head.writeUInt32LE(3, 4);
  head.writeBigUInt64LE(0n, 8);
  head.writeBigUInt64LE(BigInt(n), 16);
  const parts = [head];
  for (let i = 0; i < n; i += 100000) {
    const m = Math.min(100000, n - i), b = Buffer.alloc(m * 29);
    for (let k = 0; k < m; k++) {
      const at = k * 29;
      b.writeBigUInt64LE(13n, at);
      b.write(`test.k${String(i + k).padStart(7, '0')}`, at + 8);
      b.writeUInt32LE(4, at + 21);
      b.writeUInt32LE(i + k, at + 25);
    }
    parts.push(b);
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}

test('a million keys: only the rows in view are in the DOM, shown within 20 s, an edit within 10 s, saved as gguf set writes it', async () => {
  const file = out('million.gguf');
  writeManyKeys(file, 1000000);
  await newPage();
  // the longest main-thread task while the file opens
  await page.evaluate(() => {
    window.longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longest = Math.max(window.longest, e.duration); })
      .observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await page.getByLabel('GGUF file', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Edit test.k0000005', exact: true }).waitFor({ timeout: 120000 });
  const openMs = Date.now() - t0;
  await settled();
  eq(await alertText(), null, 'alert');
  const longest = Math.round(await page.evaluate(() => window.longest));
  // bounds with room for a loaded CI machine (measured 4.6-13.3 s), still far from the 48 s of the eager
  // table this test keeps out (issue 38, item 11)
  check(openMs < 20000, `${openMs} ms until the first rows show`);
  const meta = await rows('Metadata');
  check(meta.length < 2000, `${meta.length} rows in the DOM`);
  eq(meta.filter((r) => r.length === 4).slice(0, 3).map((r) => r.slice(0, 3)),
    [['test.k0000000', 'u32', '0'], ['test.k0000001', 'u32', '1'], ['test.k0000002', 'u32', '2']], 'first rows');
  // scrolled to 90%: the rows there, drawn as the box scrolls
  await page.locator('#meta-box').evaluate((b) => { b.scrollTop = (b.scrollHeight - b.clientHeight) * 0.9; });
  await page.waitForFunction(() => [...document.querySelectorAll('#meta td.key')].some((td) => td.textContent.startsWith('test.k08')));
  const deep = (await rows('Metadata')).filter((r) => r.length === 4);
  check(deep.length < 2000 && deep.every((r) => r[2] === String(Number(r[0].slice(6)))), `rows after scrolling: ${deep.length}, ${deep[0]}`);
  // the key filter: a pass over the million keys in the module
  await page.getByLabel('Filter metadata by key').fill('K099999');
  eq((await rows('Metadata')).map((r) => r[0]), Array.from({ length: 10 }, (_, i) => `test.k099999${i}`), 'filtered keys');
  await page.getByLabel('Filter metadata by key').fill('');
  await page.locator('#meta-box').evaluate((b) => { b.scrollTop = 0; });
  await page.getByRole('button', { name: 'Edit test.k0000005', exact: true }).waitFor();
  // an edit: the writer takes it in place, one header write
  const t1 = Date.now();
  await editKey('test.k0000005', { value: '4242' });
  await page.getByRole('form', { name: 'Edit metadata' }).waitFor({ state: 'hidden', timeout: 60000 });
  const editMs = Date.now() - t1;
  eq(await alertText(), null, 'alert after the edit');
  check(editMs < 10000, `${editMs} ms for an edit`); // measured 1.5-6.6 s; the eager one took over 30 s
  eq((await metaRow('test.k0000005')).slice(0, 3), ['test.k0000005', 'u32', '4242'], 'edited row');
  await save(out('million-saved.gguf'));
  eq(gguf('get', out('million-saved.gguf'), 'test.k0000005').trim(), '4242', 'the saved key, read natively');
  gguf('set', '-o', out('million-cli.gguf'), file, 'test.k0000005=u32:4242');
  sameBytes(out('million-saved.gguf'), out('million-cli.gguf'), 'saved million-key file');
  for (const f of [file, out('million-saved.gguf'), out('million-cli.gguf')]) fs.rmSync(f);
  return `first rows in ${openMs} ms (longest task ${longest} ms), ${meta.length} rows in the DOM, edit in ${editMs} ms`;
});

test('Open URL: http range requests, at most the header plus 1 MiB; hf:// names; a server without ranges', async () => {
  await newPage(`?hf_endpoint=${encodeURIComponent(`${BASE}/plain`)}`);
  const header = JSON.parse(gguf('dump', '--json', '--no-tensors', QWEN)).data_offset;
  const tensors = JSON.parse(gguf('tensors', '--json', QWEN)).map((t) => t.name);
  const fetched = [];
  for (const url of [`${BASE}/plain/qwen.gguf`, 'hf://owner/repo/qwen.gguf', 'hf://owner/repo/qwen.gguf@v1.0']) {
    await counts();
    await openUrl(url);
    eq(await alertText(), null, `${url}: alert`);
    eq((await rows('Tensors')).map((r) => r[0]), tensors, `${url}: tensors`);
    const c = await counts();
    check(c.bytes <= header + (1 << 20), `${url}: ${c.bytes} bytes fetched for a ${header}-byte header`);
    check(c.bytes < fs.statSync(QWEN).size, `${url}: the whole file was fetched`);
    fetched.push(`${c.bytes} bytes in ${c.requests} requests`);
    check(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), 'Save needs the local file');
  }
  await openUrl(`${BASE}/norange/qwen.gguf`);
  check((await alertText()).includes('ignores range requests'), `norange alert: ${await alertText()}`);
  await openUrl(`${BASE}/plain/missing.gguf`);
  check((await alertText()).includes('HTTP 404'), `404 alert: ${await alertText()}`);
  return `header ${header} bytes; fetched ${fetched.join(', ')}`;
});

/* The library's message on the CLI's last line, and its offset: "(at byte N)"
 * after it, or "offset N" in it (then said once). */
function cliMessageOffset(cli) {
  const m = /: ([^:]*?)(?: \(at byte (\d+)\))?\n?$/.exec(cli.split('\n').filter(Boolean).pop());
  return [m[1], m[2] ?? /offset (\d+)/.exec(m[1])[1]];
}

test('hf:// names: refused as the CLI refuses them, with its reason, and nothing fetched', async () => {
  await newPage(`?hf_endpoint=${encodeURIComponent(`${BASE}/plain`)}`);
  const names = ['hf://o/r/../../../x.gguf', 'hf://o/r/x.gguf?a=b', 'hf://o/r/x.gguf#a', 'hf://o/r/%2e%2e/%2e%2e/%2e%2e/x.gguf',
    'hf://o//x.gguf', 'hf://o/r/./x.gguf', 'hf://o/r/x.gguf@main/..', 'hf://o/r/a\\x.gguf', 'hf://o/r/a\tx.gguf'];
  for (const name of names) {
    // the CLI's verdict: exit 2 and its reason, before any request
    const cli = ggufFails('download', '-o', out('refused.gguf'), name);
    const why = /': (.*)/.exec(cli)[1];
    await counts();
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(name);
    await page.getByRole('button', { name: 'Open URL' }).click();
    await page.waitForFunction(() => !document.getElementById('alert').hidden);
    const text = await alertText();
    check(text.includes(why) && text.includes('nothing was fetched'), `${JSON.stringify(name)}: alert '${text}', the CLI's reason '${why}'`);
    eq((await counts()).requests, 0, `${JSON.stringify(name)}: requests`);
    check(!(await page.locator('#doc').isVisible()), `${JSON.stringify(name)}: a file was opened`);
  }
  // a name the checker accepts goes to the URL the CLI would fetch, percent-encoded as it does
  await openUrl('hf://owner/repo/qwen.gguf@v1.0');
  eq(await alertText(), null, 'an accepted name');
  check((await page.locator('#summary').textContent()).includes(`${BASE}/plain/owner/repo/resolve/v1.0/qwen.gguf`), 'the resolved URL');
  return `${names.length} names refused, 0 requests`;
});

test('an error after Apply shows next to the form\'s fields, in sight; other errors at the top', async () => {
  await newPage();
  await openLocal(DENSE);
  await addKey({ key: 'test.byte', type: 'u8', value: '300' });
  const form = page.getByRole('form', { name: 'Edit metadata' });
  check(await form.getByRole('alert').isVisible(), 'the alert is in the edit form');
  const a = await page.getByRole('alert').boundingBox(), v = await form.getByRole('textbox', { name: 'Value', exact: true }).boundingBox();
  const gap = Math.round(a.y - (v.y + v.height));
  check(gap >= 0 && gap < 100, `the alert is ${gap} px below the Value field`);
  check(a.y >= -2 && a.y + a.height <= 902, `the alert is out of sight (y ${a.y})`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  eq(await alertText(), null, 'Cancel clears it');
  // a refused Remove: the alert at its place under the open controls, scrolled into sight
  await page.getByRole('button', { name: 'Remove general.quantization_version', exact: true }).click();
  check(await page.locator('#open + #alert').isVisible(), 'a Remove refusal shows at the top');
  const b = await page.getByRole('alert').boundingBox();
  check(b.y >= -2 && b.y + b.height <= 902, `the alert is out of sight (y ${b.y})`);
  return `${gap} px below the Value field`;
});

test('Save confirms what it saved: the name and the size', async () => {
  await newPage();
  await openLocal(DENSE);
  await editKey('general.name', { value: 'confirmed' });
  await save(out('confirmed.gguf'));
  const size = fs.statSync(out('confirmed.gguf')).size;
  const note = page.locator('#saved');
  check(await note.isVisible(), 'a confirmation is shown');
  const text = await note.textContent();
  check(text.startsWith(`Saved ${path.basename(DENSE)}: ${size} bytes (`) && text.includes('with 1 edit'), `confirmation: ${text}`);
  return text;
});

test('the metadata filter: rows whose key contains the text, edits keep it', async () => {
  await newPage();
  await openLocal(DENSE);
  const keys = JSON.parse(gguf('dump', '--json', DENSE)).metadata.map((m) => m.key);
  await page.getByLabel('Filter metadata by key').fill('TOKEN_ID');
  const want = keys.filter((k) => k.toLowerCase().includes('token_id'));
  check(want.length >= 3, 'token ids in the file');
  eq((await rows('Metadata')).map((r) => r[0]), want, 'filtered rows');
  eq(await page.locator('#mcount').textContent(), `${want.length} of ${keys.length} keys`, 'count');
  await editKey('tokenizer.ggml.bos_token_id', { value: '2' });
  eq((await rows('Metadata')).map((r) => r[0]), want, 'filtered rows after an edit');
  eq((await metaRow('tokenizer.ggml.bos_token_id'))[2], '2', 'edited row');
  await page.getByLabel('Filter metadata by key').fill('no such key');
  eq((await rows('Metadata')).length, 0, 'no rows');
  await page.getByLabel('Filter metadata by key').fill('');
  eq((await rows('Metadata')).map((r) => r[0]), keys, 'every row again');
});

test('hf://OWNER/REPO:QUANT: the listing from the hub\'s API, the file the CLI picks, its messages', async () => {
  await newPage(`?hf_endpoint=${encodeURIComponent(`${BASE}/plain`)}`);
  const tensors = JSON.parse(gguf('tensors', '--json', DENSE)).map((t) => t.name);
  for (const name of ['hf://qo/qr:Q8_0', 'hf://qo/qr:q8_0', 'hf://qo/qr:Q8_0@main']) {
    await openUrl(name);
    eq(await alertText(), null, `${name}: alert`);
    eq((await rows('Tensors')).map((r) => r[0]), tensors, `${name}: tensors`);
    check((await page.locator('#summary').textContent()).includes(`${BASE}/plain/qo/qr/resolve/main/tiny-Q8_0.gguf`), `${name}: the file`);
    // the CLI picks the same file
    const cli = JSON.parse(execFileSync(GGUF, ['tensors', '--json', name], { encoding: 'utf8', env: HUB_ENV() })).map((t) => t.name);
    eq(cli, tensors, `${name}: the CLI's tensors`);
  }
  for (const name of ['hf://qo/qr', 'hf://qo/qr:Q5_K', 'hf://qo/qr:tiny']) {
    const cli = ggufFails('tensors', name).trim();
    const why = cli.slice(cli.indexOf('hf://qo/qr: ') + 12).replace(/ \(the repository has [^)]*\)$/, '');
    await openUrl(name);
    const text = await alertText();
    check(text && text.includes(`hf://qo/qr: ${why}`), `${name}: alert '${text}', the CLI's '${cli}'`);
  }
  await counts();
  await openUrl('hf://qo/..:Q8_0');
  check((await alertText()).includes("'.' or '..'"), `a bad repository name: ${await alertText()}`);
  eq((await counts()).requests, 0, 'requests for a refused repository name');
});

test('a failing URL says what failed: the server not reached, or the HTTP status', async () => {
  await newPage();
  // a port nothing listens on: taken, then given back
  const port = await new Promise((res) => { const srv = net.createServer().listen(0, '127.0.0.1', () => { const p = srv.address().port; srv.close(() => res(p)); }); });
  const url = `http://127.0.0.1:${port}/x.gguf`;
  await openUrl(url);
  eq(await alertText(), `the server could not be reached: ${url}`, 'unreachable');
  await openUrl(`${BASE}/plain/missing.gguf`);
  eq(await alertText(), `${BASE}/plain/missing.gguf: HTTP 404 Not Found`, '404');
});

test('arrays edited item by item in the paged view, saved as gguf set writes the whole array', async () => {
  await newPage();
  await openLocal(DENSE);
  const meta = JSON.parse(gguf('dump', '--json', DENSE)).metadata;
  const tokens = meta.find((m) => m.key === 'tokenizer.ggml.tokens').value.items.slice();
  const scores = meta.find((m) => m.key === 'tokenizer.ggml.scores').value.items.slice();
  await page.getByRole('button', { name: 'Items of tokenizer.ggml.tokens' }).click();
  await page.getByRole('button', { name: 'Next items' }).click();
  await page.getByRole('button', { name: 'Edit item 105', exact: true }).click();
  const form = page.getByRole('form', { name: 'Edit item' });
  eq(await form.getByRole('textbox', { name: 'Item value' }).inputValue(), tokens[105], 'the item in the form');
  await form.getByRole('textbox', { name: 'Item value' }).fill('hello, world\\');
  await form.getByRole('button', { name: 'Apply item' }).click();
  eq(await alertText(), null, 'alert after the item edit');
  tokens[105] = 'hello, world\\';
  eq((await rows('Array items')).find((r) => r[0] === '105')[1], JSON.stringify(tokens[105]), 'the edited item, same page');
  await page.getByRole('button', { name: 'Close items' }).click();
  await page.getByRole('button', { name: 'Items of tokenizer.ggml.scores' }).click();
  await page.getByRole('button', { name: 'Edit item 7', exact: true }).click();
  await form.getByRole('textbox', { name: 'Item value' }).fill('abc');
  await form.getByRole('button', { name: 'Apply item' }).click();
  check(await form.getByRole('alert').isVisible(), 'a refused item: the alert beside its field');
  await form.getByRole('textbox', { name: 'Item value' }).fill('0.25');
  await form.getByRole('button', { name: 'Apply item' }).click();
  eq(await alertText(), null, 'alert after the second item edit');
  scores[7] = 0.25;
  eq((await rows('Array items')).find((r) => r[0] === '7')[1], '0.25', 'the edited score');
  eq(await page.locator('#save-note').textContent(), '2 edits', 'two edits');
  // undo: the item edit replayed from the file's own array
  await page.getByRole('button', { name: 'Undo' }).click();
  eq((await rows('Array items')).find((r) => r[0] === '7')[1], '-7', 'score after undo');
  await page.getByRole('button', { name: 'Redo' }).click();
  await save(out('items.gguf'));
  const esc = (x) => String(x).replace(/\\/g, '\\\\').replace(/,/g, '\\,');
  gguf('set', '-o', out('items-cli.gguf'), DENSE, `tokenizer.ggml.tokens=arr[str]:${tokens.map(esc).join(',')}`,
    `tokenizer.ggml.scores=arr[f32]:${scores.join(',')}`);
  sameBytes(out('items.gguf'), out('items-cli.gguf'), 'saved after item edits');
});

test('a truncated file: the library\'s message and offset in an alert, and the page keeps working', async () => {
  await newPage();
  const cut = out('cut.gguf');
  fs.writeFileSync(cut, fs.readFileSync(DENSE).subarray(0, 20000));
  await openLocal(cut);
  const cli = ggufFails('info', cut);
  const [msg, at] = cliMessageOffset(cli);
  const text = await alertText();
  check(text && text.includes(msg) && text.includes(`at byte offset ${at}`), `alert '${text}' vs the CLI's '${cli}'`);
  await openLocal(DENSE);
  eq(await alertText(), null, 'alert cleared');
  eq((await rows('Tensors')).length, 39, 'the next file opens');
});

test('drag and drop opens a file', async () => {
  await newPage();
  await page.evaluate(async () => {
    const dt = new DataTransfer();
    dt.items.add(new File([await (await fetch('dense.gguf')).blob()], 'dropped.gguf'));
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await settled();
  eq((await rows('Tensors')).length, 39, 'tensors of the dropped file');
  check((await page.getByRole('status').textContent()).startsWith('Opened dropped.gguf'), 'status');
});

// ---- run -----------------------------------------------------------------------

let failed = 0;
for (const t of tests) {
  const t0 = Date.now();
  try {
    const note = await t.fn();
    if (pageErrors.length) throw new Error(`page errors: ${pageErrors.splice(0).join('; ')}`);
    console.log(`ok   ${t.name} (${Date.now() - t0} ms${note ? `; ${note}` : ''})`);
  } catch (e) {
    failed++;
    pageErrors.length = 0;
    console.log(`FAIL ${t.name}: ${e.message}`);
  }
}
await browser.close();
server.stdin.end();
console.log(`browser: ${tests.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
