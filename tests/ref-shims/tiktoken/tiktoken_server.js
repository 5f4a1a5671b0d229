// Runs OpenAI's tiktoken core (the npm package `tiktoken`: the original Rust library built to WASM) for the Python
// stand-in of tiktoken.Encoding beside this file. argv[2]: a file of "BASE64 RANK" lines (the mergeable ranks),
// argv[3]: the special tokens as JSON {text: id}, argv[4]: the pattern. One JSON request per input line, one answer
// per line: {op: "encode", text, allowed_special, disallowed_special} -> ids; {op: "decode", ids} -> base64 bytes.
// Find the package with NODE_PATH=<npm prefix>/node_modules.
"use strict";
const fs = require("fs");
const readline = require("readline");
const { Tiktoken } = require("tiktoken");

// The WASM constructor reads runs of consecutive ranks: "NAME FIRST_RANK B64 B64 ..." per line.
const ranks = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l).map((l) => {
  const [b64, rank] = l.split(" ");
  return [Number(rank), b64];
}).sort((a, b) => a[0] - b[0]);
const runs = [];
for (const [rank, b64] of ranks) {
  const last = runs[runs.length - 1];
  if (last && last.start + last.toks.length === rank) last.toks.push(b64);
  else runs.push({ start: rank, toks: [b64] });
}
const bfe = runs.map((r) => "! " + r.start + " " + r.toks.join(" ")).join("\n");
const enc = new Tiktoken(bfe, JSON.parse(process.argv[3]), process.argv[4]);
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  let out;
  try {
    const req = JSON.parse(line);
    if (req.op === "encode") out = Array.from(enc.encode(req.text, req.allowed_special, req.disallowed_special));
    else if (req.op === "decode") out = Buffer.from(enc.decode(Uint32Array.from(req.ids))).toString("base64");
    else throw new Error("unknown op " + req.op);
    out = { ok: true, result: out };
  } catch (e) {
    out = { ok: false, error: String(e && e.stack ? e.stack : e) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
