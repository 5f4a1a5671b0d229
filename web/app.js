// app.js -- the GGUF Editor's interface and I/O.  Every GGUF byte is parsed,
// checked and written by libgguf in WebAssembly (gguf.js, from
// web/gguf_web.c); this file reads bytes (Blob.slice, HTTP ranges), shows
// what the module returns as JSON, and assembles the saved file.
'use strict';

const FIRST_READ = 256 * 1024;   // what lgg_open_source reads first
const URL_STEP = 1024 * 1024;    // over HTTP the prefix grows by at most this: header + 1 MiB at most
const WHOLE = 1000;              // a table of up to this many rows is drawn whole; a longer one, its visible rows only
const ROW_H = 30;                // px of a row of a long table (one line each)
const OVERSCAN = 10;             // rows drawn above and below the visible ones
const MAX_PX = 15e6;             // a long table's scroll height at most (browsers cap an element's height)
const PAGE = 100;                // items per page of an array
const SCALARS = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64', 'f32', 'f64', 'bool', 'str'];
const TYPES = SCALARS.concat(SCALARS.map((t) => `arr[${t}]`));
const SPECIAL = ['bos', 'eos', 'eot', 'eom', 'unknown', 'separator', 'padding', 'cls', 'mask'];
const EDIT_ARRAY_MAX = 4096;     // longer arrays are shown in pages, not edited as text

const $ = (id) => document.getElementById(id);
let M = null;         // the WebAssembly module
let doc = null;       // { ptr, name, size, blob (local files only), url, view, ops, at, rows }

// ---- the module ----------------------------------------------------------

function cstr(s) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  return p;
}

function withStrings(strings, fn) {
  const ptrs = strings.map(cstr);
  try { return fn(...ptrs); } finally { ptrs.forEach((p) => M._free(p)); }
}

// JSON from the module; integers beyond 2^53 (u64, i64) stay exact as BigInt.
function parseJson(text) {
  return JSON.parse(text, (k, v, ctx) =>
    typeof v === 'number' && !Number.isSafeInteger(v) && ctx && /^-?\d+$/.test(ctx.source) ? BigInt(ctx.source) : v);
}
const moduleJson = (ptr) => parseJson(M.UTF8ToString(ptr));
const lastError = () => moduleJson(M._web_error_json());

class GgufError extends Error {
  constructor(e) {
    super(e.message);
    this.detail = e;
  }
}

// ---- messages ------------------------------------------------------------

// The one alert element: at its place under the open controls, or, for an
// error of a form (Apply), moved next to that form's fields, in sight.
let alertHome = null;
function showError(e, near) {
  const d = e && e.detail;
  let text = d ? `${d.status}: ${d.message}` : String(e && e.message ? e.message : e);
  if (d && d.offset !== null && d.offset !== undefined) text += ` (at byte offset ${d.offset})`;
  const a = $('alert');
  if (near) near.after(a);
  else if (alertHome && a.previousElementSibling !== alertHome) alertHome.after(a);
  a.textContent = text;
  a.hidden = false;
  if (a.scrollIntoView) a.scrollIntoView({ block: 'nearest' });
}

function clearError() {
  const a = $('alert');
  a.hidden = true;
  a.textContent = '';
  if (alertHome && a.previousElementSibling !== alertHome) alertHome.after(a);
}

const say = (s) => { $('status').textContent = s; };
const tick = () => new Promise((r) => setTimeout(r, 0));

// ---- opening -------------------------------------------------------------

// Open the header through `read(from, to)`: a prefix of the file, grown to
// what the library asks for (web_need) until it opens or truly fails.
async function openHeader(name, size, read, step) {
  let have = new Uint8Array(0);
  let want = Math.min(size, FIRST_READ);
  for (;;) {
    if (want > have.length) {
      const more = await read(have.length, want);
      if (more.length !== want - have.length) throw new Error(`${name}: read ${more.length} bytes at ${have.length}, not ${want - have.length} (did the file change?)`);
      const next = new Uint8Array(have.length + more.length);
      next.set(have);
      next.set(more, have.length);
      have = next;
    }
    const p = M._malloc(Math.max(have.length, 1));
    M.HEAPU8.set(have, p);
    const ptr = withStrings([name], (n) => M._web_open_header(p, have.length, size, n));
    if (ptr) {
      // web_open's other steps, each its own task: the page paints and
      // answers between them (a header of a million keys takes seconds)
      say(`Reading ${name}: preparing the editor (${have.length} bytes of header)...`);
      await tick();
      M._web_reset(ptr);
      say(`Reading ${name}: validating...`);
      await tick();
      if (M._web_commit(ptr)) {
        const err = lastError();
        M._web_close(ptr);
        throw new GgufError(err);
      }
      return { ptr, bytesRead: have.length };
    }
    const err = lastError();
    if (!(err.need > have.length && have.length < size)) throw new GgufError(err);
    want = Math.min(size, step(have.length, err.need));
  }
}

async function openFile(file) {
  clearError();
  say(`Reading ${file.name}...`);
  const t0 = performance.now();
  try {
    const read = async (a, b) => new Uint8Array(await file.slice(a, b).arrayBuffer());
    // a local read is cheap: grow as lgg_open_source does (what it asks for)
    const r = await openHeader(file.name, file.size, read, (have, need) => need);
    setDoc({ ptr: r.ptr, name: file.name, size: file.size, blob: file, bytesRead: r.bytesRead });
    say(`Opened ${file.name}: read ${r.bytesRead} of ${file.size} bytes in ${Math.round(performance.now() - t0)} ms.`);
  } catch (e) {
    say('');
    showError(e);
  }
}

// The hub's address: index.html?hf_endpoint=URL (as HF_ENDPOINT for the CLI);
// "" is https://huggingface.co (the module's default).
const hfEndpoint = () => new URLSearchParams(location.search).get('hf_endpoint') || '';

// hf://OWNER/REPO/PATH[@REVISION] through the core's one checker of hf://
// names (lgg_hf_name_check, lgg_hf_resolve), which the CLI applies too: the
// same names refused for the same reasons ('..', '.', empty segments, '?',
// '#', %2e and the like, control bytes), before anything is fetched; the
// same URL, percent-encoded as huggingface_hub does, for the rest.
function resolveUrl(name) {
  if (!name.startsWith('hf://')) return name;
  const r = moduleJson(withStrings([name, hfEndpoint()], (n, e) => M._web_hf_url(n, e)));
  if (r.error !== undefined) throw new Error(`${JSON.stringify(name)}: ${r.error}; nothing was fetched`);
  return r.url;
}

// fetch, saying what failed: the server not reached (offline, refused, no
// such host, or a cross-origin answer the browser hides), or the status.
async function get(url, opts = {}) {
  let r;
  try {
    r = await fetch(url, opts);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new Error(`the server could not be reached: ${url}`);
  }
  return r;
}
const httpStatus = (url, r) => `${url}: HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`;
async function body(url, r, how) {
  try {
    return await r[how]();
  } catch (e) {
    throw new Error(how === 'json' ? `${url}: the answer is not JSON` : `${url}: the connection broke while reading the answer`);
  }
}

// Bytes [a, b) of a URL by a range request; the first answer tells the size.
async function fetchRange(url, a, b) {
  const ctl = new AbortController();
  const r = await get(url, { headers: { Range: `bytes=${a}-${b - 1}` }, signal: ctl.signal });
  if (r.status !== 206) {
    ctl.abort();
    if (r.status === 200) throw new Error(`${url}: the server ignores range requests (200 instead of 206); nothing more was read`);
    throw new Error(httpStatus(url, r));
  }
  const cr = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(r.headers.get('Content-Range') || '');
  if (!cr || Number(cr[1]) !== a) {
    ctl.abort();
    throw new Error(`${url}: the answer's Content-Range '${r.headers.get('Content-Range')}' is not the range asked for`);
  }
  const bytes = new Uint8Array(await body(url, r, 'arrayBuffer'));
  if (bytes.length !== Number(cr[2]) - a + 1) throw new Error(`${url}: ${bytes.length} bytes instead of the range's ${Number(cr[2]) - a + 1}`);
  return { body: bytes, size: Number(cr[3]) };
}

// hf://OWNER/REPO[:QUANT][@REVISION], as the CLI reads it (lgg_hub_pick):
// the repository's listing from the hub's API (every page), then the file
// the CLI picks (lgg_hf_select, in the module: QUANT in its name, Q4_K_M by
// default, the first shard of a complete set): its hf://OWNER/REPO/PATH name.
const isRepoName = (n) => /^hf:\/\/[^/]+\/[^/]+$/.test(n);
function saneListedPath(p) {
  if (p.startsWith('/') || /[\x00-\x1f\x7f?#\\]/.test(p)) return false;
  return p.split('/').every((seg) => seg && seg !== '.' && seg !== '..');
}
async function pickQuant(name) {
  const p = name.slice(5), at = p.lastIndexOf('@'), end = at >= 0 ? at : p.length;
  const colon = p.slice(0, end).indexOf(':');
  const repo = p.slice(0, colon >= 0 ? colon : end), tag = colon >= 0 ? p.slice(colon + 1, end) : '', rev = at >= 0 ? p.slice(at + 1) : '';
  if ((colon >= 0 && !tag) || (at >= 0 && !rev)) throw new Error(`${name}: not hf://OWNER/REPO[:QUANT][@REVISION]`);
  const t = moduleJson(withStrings([repo, rev, hfEndpoint()], (r, v, e) => M._web_hf_tree_url(r, v, e)));
  if (t.error !== undefined) throw new Error(`${JSON.stringify(`hf://${repo}`)}: ${t.error}; nothing was fetched`);
  const origin = new URL(t.url, location.href).origin;
  const paths = [];
  for (let url = t.url, page = 0; url; page++) {
    if (page === 10000) throw new Error(`${url}: a listing of more than 10000 pages`);
    say(`Reading ${name}: the repository's listing${page ? `, page ${page + 1}` : ''}...`);
    const r = await get(url);
    if (!r.ok) throw new Error(httpStatus(url, r));
    const list = await body(url, r, 'json');
    if (!Array.isArray(list)) throw new Error(`${url}: the listing is not a JSON array`);
    list.forEach((e, i) => {
      if (e && e.type && e.type !== 'file') return;
      if (!e || typeof e.path !== 'string' || !e.path || !Number.isInteger(e.size) || e.size < 0) throw new Error(`${url}: entry ${i} has no path or size`);
      if (!saneListedPath(e.path)) throw new Error(`${url}: entry ${i}: a path that cannot be a file of the repository`);
      paths.push(e.path);
    });
    const next = /<([^>]*)>\s*;\s*rel="?next"?/.exec(r.headers.get('Link') || '');
    url = next ? next[1] : null;
    if (url && new URL(url, location.href).origin !== origin) throw new Error(`${t.url}: the listing's next page is on another server`);
  }
  const gguf = paths.filter((x) => x.endsWith('.gguf'));
  const has = gguf.length ? gguf.join(', ') : 'no GGUF file';
  const sel = moduleJson(withStrings([paths.join('\n'), tag, has], (a, b, c) => M._web_hf_select(a, b, c)));
  if (sel.error !== undefined) throw new Error(`hf://${repo}: ${sel.error}`);
  const file = paths[sel.index];
  // a path with '@' keeps an explicit revision after it (the last '@' is the revision's)
  return `hf://${repo}/${file}${rev ? `@${rev}` : file.includes('@') ? '@main' : ''}`;
}

async function openUrl(name) {
  clearError();
  say(`Reading ${name}...`);
  try {
    name = name.trim();
    if (isRepoName(name)) name = await pickQuant(name);
    const url = resolveUrl(name);
    const first = await fetchRange(url, 0, FIRST_READ);
    const size = first.size;
    const read = async (a, b) => (a === 0 && b <= first.body.length ? first.body.slice(0, b) : (await fetchRange(url, a, b)).body);
    // each step fetches at most 1 MiB more: at most the header plus 1 MiB in all
    const base = decodeURIComponent(url.split('?')[0].split('/').pop() || 'model.gguf');
    const r = await openHeader(base, size, read, (have, need) => Math.min(need, have + URL_STEP));
    setDoc({ ptr: r.ptr, name: base, size, url, bytesRead: r.bytesRead });
    say(`Opened ${url}: read ${r.bytesRead} of ${size} bytes.`);
  } catch (e) {
    say('');
    showError(e);
  }
}

// ---- the document and its edits ------------------------------------------

function setDoc(d) {
  if (doc) M._web_close(doc.ptr);
  doc = Object.assign(d, { ops: [], at: 0 });
  setView(viewJson());
  closeEdit();
  $('items').hidden = true;
  $('tfilter').value = $('mfilter').value = '';
  $('saved').hidden = true;
  itemsAt = null;
  $('meta-box').scrollTop = $('tensors-box').scrollTop = 0;
  render();
}

function applyOp(op) {
  const rc = op.kind === 'set' ? withStrings([op.key, op.text], (k, t) => M._web_set(doc.ptr, k, t))
    : op.kind === 'item' ? withStrings([op.key, op.text], (k, t) => M._web_set_item(doc.ptr, k, op.index, t))
    : op.kind === 'rm' ? withStrings([op.key], (k) => M._web_remove(doc.ptr, k))
      : withStrings([op.key, op.to], (k, t) => M._web_rename(doc.ptr, k, t));
  if (rc) throw new GgufError(lastError());
}

// The view: summary, findings, tensors and the metadata's count; its
// metadata rows are fetched as the table shows them (doc.rows caches them).
const viewJson = () => moduleJson(M._web_view_json(doc.ptr));
function setView(view) {
  doc.view = view;
  doc.rows = new Map();
}

// The document as the file's metadata with ops[0..n) applied.  The writer
// then holds exactly those edits (an accepted edit adds to it in place).
function rebuild(n) {
  M._web_reset(doc.ptr);
  applyOps(doc.ops.slice(0, n), false);
  if (M._web_commit(doc.ptr)) throw new GgufError(lastError());
  return viewJson();
}

// An item edit reads its array from the view: the edits before it are
// committed first (committed: the view is the writer's state already).
function applyOps(ops, committed) {
  for (const op of ops) {
    if (op.kind === 'item' && !committed && M._web_commit(doc.ptr)) throw new GgufError(lastError());
    applyOp(op);
    committed = false;
  }
}

// ---- metadata rows ---------------------------------------------------------

const kvRows = (first, n) => moduleJson(M._web_kv_rows(doc.ptr, first, n));
// Rows [first, first + n) into the cache (one call for those missing).
function fetchRows(first, n) {
  let a = first, b = first + n;
  while (a < b && doc.rows.has(a)) a++;
  while (b > a && doc.rows.has(b - 1)) b--;
  if (a === b) return;
  if (doc.rows.size > 50000) doc.rows.clear();
  for (const r of kvRows(a, b - a)) doc.rows.set(r.index, r);
}
function kvRow(i) {
  fetchRows(i, 1);
  return doc.rows.get(i);
}
function kvByKey(key) {
  const i = withStrings([key], (k) => M._web_kv_find(doc.ptr, k));
  return i < 0 ? null : kvRow(i);
}

// Error findings counted by check and message, numbers left out: offsets
// move when the header changes, and an error the file had is no new error.
const errorKey = (f) => `${f.check}:${f.message.replace(/\d+/g, 'N')}`;
function errorCounts(view) {
  const n = new Map();
  for (const f of view.findings) if (f.severity === 'error') n.set(errorKey(f), (n.get(errorKey(f)) || 0) + 1);
  return n;
}

// Apply new edits on top of the current state; refused (and the state kept)
// when the library refuses one, or when validation finds a new error.
// The new edits go onto the writer as it is (it holds ops[0..at)): one
// header write, not a replay of every edit; a refusal replays ops[0..at).
function edit(ops, near) {
  clearError();
  const before = errorCounts(doc.view);
  const kept = doc.ops.slice(0, doc.at);
  try {
    applyOps(ops, true);
    if (M._web_commit(doc.ptr)) throw new GgufError(lastError());
    const view = viewJson();
    const after = errorCounts(view);
    const fresh = view.findings.find((f) => f.severity === 'error' && after.get(errorKey(f)) > (before.get(errorKey(f)) || 0));
    if (fresh) throw new GgufError({ status: 'refused', message: `validate would reject this: ${fresh.message}`, offset: fresh.offset });
    doc.ops = kept.concat(ops);
    doc.at = doc.ops.length;
    setView(view);
    render();
    return true;
  } catch (e) {
    doc.ops = kept;
    setView(rebuild(doc.at));
    render();
    showError(e, near);
    return false;
  }
}

function undoRedo(delta) {
  clearError();
  try {
    setView(rebuild(doc.at + delta));
    doc.at += delta;
  } catch (e) {
    setView(rebuild(doc.at));
    showError(e);
  }
  render();
}

// ---- values as text --------------------------------------------------------

const typeName = (e) => (e && typeof e === 'object' ? `arr[${e.type}]` : '');
function itemText(v) {
  if (v && typeof v === 'object' && !(typeof v === 'bigint')) return `[${v.items.map(itemText).join(', ')}]`;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
const CELL_CHARS = 10000; // a longer string is cut in the table (the edit form has all of it)
function valueText(kv) {
  if (kv.count === undefined && typeof kv.value === 'string' && kv.value.length > CELL_CHARS)
    return `${kv.value.slice(0, CELL_CHARS)}... (${kv.value.length} characters)`;
  if (kv.count === undefined) return String(kv.value);
  const shown = kv.items.map(itemText).join(', ');
  return `${kv.count} items: [${shown}${kv.count > kv.items.length ? ', ...' : ''}]`;
}
// The Value box's text for an array: items joined by commas, as gguf set reads them.
const escapeItem = (s) => String(s).replace(/\\/g, '\\\\').replace(/,/g, '\\,');

function readArray(index, count) {
  const out = [];
  for (let i = 0; i < count; i += 1000) out.push(...moduleJson(M._web_array_page(doc.ptr, index, i, Math.min(1000, count - i))));
  return out;
}

// ---- the edit form -----------------------------------------------------------

let editing = null; // { key, type, value } of the key being edited, or null for a new key

function openEdit(kv, opts = {}) {
  const f = $('edit');
  editing = kv ? { key: kv.key, type: kv.type, value: '' } : null;
  $('f-key').value = kv ? kv.key : (opts.key || '');
  $('f-type').value = kv ? kv.type : (opts.type || 'str');
  let value = '', hint = '';
  if (kv && kv.count !== undefined) {
    const index = kv.index;
    if (kv.count > EDIT_ARRAY_MAX) {
      editing.big = true;
      hint = `${kv.count} items: too many to edit as text here; rename it, remove it, edit its items one by one with Items, or use gguf set.`;
    } else {
      value = readArray(index, kv.count).map((v) => escapeItem(typeof v === 'object' ? itemText(v) : v)).join(',');
    }
  } else if (kv) {
    value = typeof kv.value === 'string' ? kv.value : String(kv.value);
  }
  if (kv) editing.value = value;
  $('f-value').value = value;
  $('f-value').disabled = !!(editing && editing.big);
  $('f-value').rows = Math.min(20, Math.max(3, value.split('\n').length + 1));
  $('f-hint').textContent = hint || 'Arrays: items separated by commas (\\, is a comma inside an item). Integers may be 0x hex; bool is true or false.';
  f.hidden = false;
  (kv ? $('f-value') : $('f-key')).focus();
}

function closeEdit() {
  if ($('edit').contains($('alert'))) clearError();
  $('edit').hidden = true;
  editing = null;
}

function submitEdit(ev) {
  ev.preventDefault();
  const key = $('f-key').value.trim(), type = $('f-type').value, value = $('f-value').value;
  const ops = [];
  const near = $('edit').querySelector('.fields');
  if (!key) return showError(new Error('Key: a key is needed'), near);
  const text = `${type}:${value}`;
  if (editing && key !== editing.key) ops.push({ kind: 'rename', key: editing.key, to: key });
  if (!editing || type !== editing.type || (value !== editing.value && !editing.big)) {
    if (editing && editing.big) return showError(new Error('this array is too long to edit as text; only its name can change here (edit its items one by one with Items)'), near);
    ops.push({ kind: 'set', key, text });
  }
  if (!ops.length || edit(ops, near)) closeEdit();
}

// ---- rendering -------------------------------------------------------------

function cell(tr, text, cls) {
  const td = document.createElement('td');
  if (text instanceof Node) td.append(text);
  else td.textContent = text;
  if (cls) td.className = cls;
  tr.append(td);
  return td;
}

function button(label, text, fn) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', fn);
  return b;
}

const fmtBytes = (n) => {
  n = Number(n);
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return i ? `${n.toFixed(2)} ${u[i]}` : `${n} B`;
};

function renderSummary(v) {
  const i = v.info, dl = $('summary');
  dl.replaceChildren();
  const add = (k, val) => {
    if (val === null || val === undefined || val === '') return;
    const dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = k;
    dd.textContent = val;
    dl.append(dt, dd);
  };
  add('file', doc.name + (doc.url ? ` (${doc.url})` : ''));
  add('format', `GGUF v${i.version}, ${i.endian}-endian, alignment ${i.alignment}`);
  add('architecture', i.architecture);
  add('name', i.name);
  for (const [k, val] of Object.entries(i.hyperparameters)) add(k, itemText(val));
  if (Number(i.parameters)) add('parameters', `${i.parameters} (${i.size_label})`);
  add('file type', i.file_type);
  add('tensors', `${i.tensors}, ${fmtBytes(i.data_size)} of data`);
  add('metadata', `${i.metadata} keys`);
  add('file size', `${fmtBytes(v.size)} (${v.size} bytes${Number(v.size) !== doc.size ? `; ${doc.size} before the edits` : ''})`);
  add('header', `${v.data_offset} bytes (read ${doc.bytesRead} bytes of the file)`);
}

function renderFindings(v) {
  const tb = $('findings').tBodies[0];
  tb.replaceChildren();
  for (const f of v.findings) {
    const tr = document.createElement('tr');
    tr.className = f.severity;
    cell(tr, f.severity);
    cell(tr, f.offset === null ? '' : String(f.offset));
    cell(tr, f.message);
    tb.append(tr);
  }
  $('findings-none').hidden = v.findings.length > 0;
  $('findings').hidden = v.findings.length === 0;
}

// ---- long tables -------------------------------------------------------------

// A table whose row i < count is rowAt(i) (a <tr>): drawn whole up to WHOLE
// rows, as any table; longer, its box scrolls with the full height while
// only the rows in view, and OVERSCAN around them, are in the DOM (each
// ROW_H px, one line), drawn again as the box scrolls.
const tables = {};
function longTable(name, table, box, cols) {
  const t = { table, box, cols, count: 0, rowAt: null, prepare: null, queued: false };
  box.addEventListener('scroll', () => {
    if (t.queued || t.count <= WHOLE) return;
    t.queued = true;
    requestAnimationFrame(() => { t.queued = false; drawTable(t); });
  });
  tables[name] = t;
  return t;
}

function spacer(cols, px) {
  const tr = document.createElement('tr');
  tr.className = 'spacer';
  tr.setAttribute('aria-hidden', 'true');
  const td = document.createElement('td');
  td.colSpan = cols;
  td.style.height = `${px}px`;
  tr.append(td);
  return tr;
}

function drawTable(t) {
  const tb = t.table.tBodies[0];
  const long = t.count > WHOLE;
  t.box.classList.toggle('long', long);
  let first = 0, n = t.count, top = 0, bottom = 0;
  if (long) {
    const scale = Math.min(1, MAX_PX / (t.count * ROW_H)), h = ROW_H * scale;
    const view = t.box.clientHeight || 600;
    const k = Math.min(t.count - 1, Math.floor(t.box.scrollTop / h)); // the row at the top of the box
    const before = Math.min(OVERSCAN, k);
    first = k - before;
    n = Math.min(t.count - first, before + Math.ceil(view / ROW_H) + OVERSCAN);
    top = Math.max(0, k * h - before * ROW_H);
    bottom = Math.max(0, t.count * h - top - n * ROW_H);
  }
  if (t.prepare) t.prepare(first, n);
  const rows = [];
  for (let i = first; i < first + n; i++) rows.push(t.rowAt(i));
  if (long) tb.replaceChildren(spacer(t.cols, top), ...rows, spacer(t.cols, bottom));
  else tb.replaceChildren(...rows);
}

function metaTr(kv) {
  const tr = document.createElement('tr');
  cell(tr, kv.key, 'key');
  cell(tr, kv.type, 'type');
  const val = document.createElement('div');
  val.className = kv.count === undefined && typeof kv.value === 'string' && kv.value.includes('\n') ? 'value multi' : 'value';
  val.textContent = valueText(kv);
  cell(tr, val);
  const acts = document.createElement('span');
  acts.className = 'actions';
  if (kv.count !== undefined && kv.count > kv.items.length) acts.append(button(`Items of ${kv.key}`, 'Items', () => showItems(kv.index, kv, 0)));
  acts.append(button(`Edit ${kv.key}`, 'Edit', () => openEdit(kv)),
    button(`Remove ${kv.key}`, 'Remove', () => edit([{ kind: 'rm', key: kv.key }])));
  cell(tr, acts);
  tr.dataset.index = kv.index;
  return tr;
}

// The keys containing the filter's text (ASCII case ignored), in file order
// (web_kv_filter: a pass over the keys in the module), or null: every key.
function keyFilter() {
  const q = $('mfilter').value.trim();
  if (!q) return null;
  const n = withStrings([q], (p) => M._web_kv_filter(doc.ptr, p));
  return n ? new Uint32Array(M.HEAPU8.buffer, M._web_kv_filter_indices(), n).slice() : new Uint32Array(0);
}

function renderMetadata(v) {
  const t = tables.meta, all = Number(v.metadata_count), only = keyFilter();
  t.count = only ? only.length : all;
  t.prepare = only ? (first, n) => { for (let i = first; i < first + n; i++) fetchRows(only[i], 1); } : (first, n) => fetchRows(first, n);
  t.rowAt = only ? (i) => metaTr(doc.rows.get(only[i])) : (i) => metaTr(doc.rows.get(i));
  drawTable(t);
  $('mcount').textContent = only ? `${only.length} of ${all} keys` : `${all} keys`;
  $('meta-more').textContent = t.count > WHOLE ? `${t.count} rows: the table shows the rows in view as it scrolls.` : '';
}

// The paged view of an array, PAGE items at a time; arrays of scalars or
// strings are edited there item by item (web_set_item: the array with one
// item changed, as gguf set would write it).
let itemsAt = null; // { key, first } of the page shown
function showItems(index, kv, first) {
  const s = $('items');
  s.hidden = false;
  itemsAt = { key: kv.key, first };
  closeItemEdit();
  $('h-items').textContent = `Items of ${kv.key}`;
  const items = moduleJson(M._web_array_page(doc.ptr, index, first, PAGE));
  const tb = $('items-table').tBodies[0];
  tb.replaceChildren();
  const elem = kv.type.slice(4, -1), editable = elem !== 'arr' && !elem.startsWith('arr[') && doc.view.editable;
  items.forEach((it, k) => {
    const tr = document.createElement('tr');
    cell(tr, String(first + k));
    cell(tr, itemText(it));
    cell(tr, editable ? button(`Edit item ${first + k}`, 'Edit', () => openItemEdit(kv, elem, first + k, it)) : '');
    tb.append(tr);
  });
  $('items-where').textContent = `${first}..${first + items.length - 1} of ${kv.count}`;
  $('items-prev').onclick = () => showItems(index, kv, Math.max(0, first - PAGE));
  $('items-next').onclick = () => { if (first + PAGE < kv.count) showItems(index, kv, first + PAGE); };
  $('items-prev').disabled = first === 0;
  $('items-next').disabled = first + PAGE >= kv.count;
  $('items-close').onclick = () => { s.hidden = true; itemsAt = null; };
  if (first === 0) s.scrollIntoView({ block: 'start' });
}

let itemEditing = null; // { key, elem, index }
function openItemEdit(kv, elem, index, value) {
  itemEditing = { key: kv.key, elem, index };
  $('i-where').textContent = `Item ${index} of ${kv.key} (${elem})`;
  $('i-value').value = typeof value === 'string' ? value : String(value);
  $('item-edit').hidden = false;
  $('i-value').focus();
}
function closeItemEdit() {
  if ($('item-edit').contains($('alert'))) clearError();
  $('item-edit').hidden = true;
  itemEditing = null;
}
function submitItemEdit(ev) {
  ev.preventDefault();
  const it = itemEditing;
  if (!it) return;
  const near = $('item-edit').querySelector('.fields');
  if (edit([{ kind: 'item', key: it.key, index: it.index, text: `${it.elem}:${$('i-value').value}` }], near)) {
    const kv = kvByKey(it.key);
    if (kv) showItems(kv.index, kv, itemsAt ? itemsAt.first : 0);
  }
}

function renderSpecial() {
  const tb = $('special').tBodies[0];
  tb.replaceChildren();
  const tk = kvByKey('tokenizer.ggml.tokens');
  const tokens = tk ? tk.index : undefined;
  for (const s of SPECIAL) {
    const key = `tokenizer.ggml.${s}_token_id`;
    const tr = document.createElement('tr');
    cell(tr, key);
    const kv = kvByKey(key);
    cell(tr, kv ? String(kv.value) : '');
    let tok = '';
    if (kv && tokens !== undefined && Number.isSafeInteger(kv.value) && kv.value >= 0) {
      const t = moduleJson(M._web_array_page(doc.ptr, tokens, Number(kv.value), 1));
      tok = t.length ? JSON.stringify(t[0]) : '(out of range)';
    }
    cell(tr, tok);
    cell(tr, button(`Set ${key}`, 'Set', () => (kv ? openEdit(kv) : openEdit(null, { key, type: 'u32' }))));
    tb.append(tr);
  }
}

function renderTemplate() {
  const kv = kvByKey('tokenizer.chat_template');
  $('template').textContent = kv && typeof kv.value === 'string' ? kv.value : '(no tokenizer.chat_template)';
  $('template-edit').onclick = () => (kv ? openEdit(kv) : openEdit(null, { key: 'tokenizer.chat_template', type: 'str' }));
}

function renderTensors(v) {
  const q = $('tfilter').value.trim().toLowerCase();
  const list = q ? v.tensors.filter((t) => t.name.toLowerCase().includes(q)) : v.tensors;
  const t = tables.tensors;
  t.count = list.length;
  t.rowAt = (i) => {
    const x = list[i], tr = document.createElement('tr');
    cell(tr, x.name);
    cell(tr, x.type);
    cell(tr, `[${x.shape.join(', ')}]`);
    cell(tr, String(x.size), 'num');
    cell(tr, String(x.offset), 'num');
    return tr;
  };
  drawTable(t);
  $('tcount').textContent = `${list.length} of ${v.tensors.length} tensors`;
}

function render() {
  const v = doc.view;
  $('doc').hidden = false;
  renderSummary(v);
  renderFindings(v);
  renderMetadata(v);
  renderSpecial();
  renderTemplate();
  renderTensors(v);
  if (itemsAt && !$('items').hidden && !itemEditing) {
    const kv = kvByKey(itemsAt.key);
    if (kv && kv.count !== undefined) showItems(kv.index, kv, Math.min(itemsAt.first, Math.max(0, Number(kv.count) - 1)));
    else $('items').hidden = true;
  }
  $('undo').disabled = doc.at === 0;
  $('redo').disabled = doc.at === doc.ops.length;
  $('add').disabled = !v.editable;
  $('save').disabled = $('save-as').disabled = !v.editable || !doc.blob;
  $('save-note').textContent = !v.editable ? `Not editable: ${v.edit_error}`
    : !doc.blob ? 'Saving needs the whole file: download it and open it from disk.'
      : doc.at ? `${doc.at} edit${doc.at > 1 ? 's' : ''}` : '';
}

// ---- saving ------------------------------------------------------------------

// The new header, then each tensor's bytes as a slice of the original file
// (never read into memory), zero padding between them as the writer lays out.
function savedBlob() {
  const plan = moduleJson(M._web_plan_json(doc.ptr));
  const hp = M._web_header(doc.ptr), hn = M._web_header_len(doc.ptr);
  const parts = [M.HEAPU8.slice(hp, hp + hn)];
  let pos = hn;
  const zeros = (n) => new Uint8Array(n);
  for (const [dst, src, size] of plan.pieces) {
    if (dst > pos) parts.push(zeros(dst - pos));
    parts.push(doc.blob.slice(src, src + size));
    pos = dst + size;
  }
  if (plan.size > pos) parts.push(zeros(plan.size - pos));
  const blob = new Blob(parts, { type: 'application/octet-stream' });
  if (blob.size !== plan.size) throw new Error(`the saved file would have ${blob.size} bytes, not ${plan.size}`);
  return blob;
}

function save() {
  clearError();
  try {
    const a = document.createElement('a');
    const blob = savedBlob(), blobSize = blob.size;
    a.href = URL.createObjectURL(blob);
    a.download = doc.name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    say(`Saved ${doc.name}.`);
    savedNote(doc.name, blobSize);
  } catch (e) {
    showError(e);
  }
}

// The confirmation beside the Save buttons: what was saved, name and size.
function savedNote(name, size) {
  const edits = doc.at ? `, with ${doc.at} edit${doc.at > 1 ? 's' : ''}` : '';
  $('saved').textContent = `Saved ${name}: ${size} bytes (${fmtBytes(size)})${edits}.`;
  $('saved').hidden = false;
}

// Where the File System Access API exists: write the same bytes through a
// file the user picks, streamed from the slices.
async function saveAs() {
  clearError();
  try {
    const handle = await window.showSaveFilePicker({ suggestedName: doc.name });
    const w = await handle.createWritable();
    const blob = savedBlob();
    await blob.stream().pipeTo(w);
    say(`Saved ${handle.name}.`);
    savedNote(handle.name, blob.size);
  } catch (e) {
    if (e.name !== 'AbortError') showError(e);
  }
}

// ---- wiring ------------------------------------------------------------------

function wire() {
  alertHome = $('alert').previousElementSibling;
  longTable('meta', $('meta'), $('meta-box'), 4);
  longTable('tensors', $('tensors'), $('tensors-box'), 5);
  $('f-type').replaceChildren(...TYPES.map((t) => new Option(t, t)));
  $('file').addEventListener('change', (e) => { if (e.target.files[0]) openFile(e.target.files[0]); });
  $('url-form').addEventListener('submit', (e) => { e.preventDefault(); openUrl($('url').value); });
  document.addEventListener('dragover', (e) => { e.preventDefault(); $('drop').classList.add('over'); });
  document.addEventListener('dragleave', () => $('drop').classList.remove('over'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    $('drop').classList.remove('over');
    const f = e.dataTransfer.files[0];
    if (f) openFile(f);
  });
  $('add').addEventListener('click', () => openEdit(null));
  $('edit').addEventListener('submit', submitEdit);
  $('f-cancel').addEventListener('click', closeEdit);
  $('undo').addEventListener('click', () => undoRedo(-1));
  $('redo').addEventListener('click', () => undoRedo(+1));
  $('save').addEventListener('click', save);
  $('save-as').hidden = !('showSaveFilePicker' in window);
  $('save-as').addEventListener('click', saveAs);
  $('tfilter').addEventListener('input', () => renderTensors(doc.view));
  $('mfilter').addEventListener('input', () => { $('meta-box').scrollTop = 0; renderMetadata(doc.view); });
  $('item-edit').addEventListener('submit', submitItemEdit);
  $('i-cancel').addEventListener('click', closeItemEdit);
}

wire();
createGgufModule().then((m) => {
  M = m;
  $('version').textContent = M.UTF8ToString(M._lgg_version());
  document.body.dataset.ready = '1';
}, (e) => showError(e));
