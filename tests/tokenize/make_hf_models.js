// make_hf_models.js -- tokenizer.json files for the WordPiece and Unigram
// models, written by Hugging Face's tokenizers (the npm package) for the
// differential test (tests/test_tokenize.c, tokenize_hf/models-*):
//   bert.json             bert-base-uncased's vocabulary as BertWordPieceTokenizer builds it
//                         (BertNormalizer, BertPreTokenizer, WordPiece, BertProcessing, WordPiece decoder)
//   bert-cased-max8.json  the same, cased, accents kept, max_input_chars_per_word 8
//   unigram-xlmr.json     tests/data/unigram-nmt-nfkc.model in the layout transformers'
//                         XLMRobertaConverter gives a sentencepiece model (<s> <pad> </s> <unk>,
//                         the pieces after the third, <mask>; unk_id 3; <s> $A </s>), with the
//                         Precompiled charsmap, Replace " {2,}" and Metaspace "always"
//   unigram-bytes.json    the model's own pieces plus the 256 <0xXX> pieces, byte_fallback,
//                         SpmConverter's normalizer (Precompiled, Strip right, Replace " {2,}" -> "▁")
//                         and Metaspace "first" without split
// Usage: NODE_PATH=DIR/node_modules node make_hf_models.js OUTDIR
const tk = require("tokenizers");
const fs = require("fs");
const out = process.argv[2];

// sentencepiece's ModelProto: pieces (1: piece, 2: score, 3: type), trainer_spec (40: unk_id),
// normalizer_spec (2: precompiled_charsmap)
function readSpm(path) {
  const b = fs.readFileSync(path);
  let p = 0;
  const varint = () => { let r = 0, s = 0, c; do { c = b[p++]; r += (c & 0x7f) * 2 ** s; s += 7; } while (c & 0x80); return r; };
  const fields = (end, f) => {
    while (p < end) {
      const key = varint(), no = Math.floor(key / 8), wt = key & 7;
      if (wt === 0) f(no, varint());
      else if (wt === 5) { f(no, b.readFloatLE(p)); p += 4; }
      else if (wt === 1) p += 8;
      else if (wt === 2) { const l = varint(), e = p + l; f(no, [p, e]); p = e; }
      else throw new Error("wire type " + wt);
    }
  };
  const m = { pieces: [], unkId: 0, charsmap: null };
  fields(b.length, (no, v) => {
    if (no === 1) {
      const [s, e] = v, piece = { piece: "", score: 0, type: 1 }, save = p;
      p = s;
      fields(e, (n2, v2) => { if (n2 === 1) piece.piece = b.subarray(v2[0], v2[1]).toString("utf8"); else if (n2 === 2) piece.score = v2; else if (n2 === 3) piece.type = v2; });
      p = save;
      m.pieces.push(piece);
    } else if (no === 2 || no === 3) {
      const [s, e] = v, save = p;
      p = s;
      fields(e, (n2, v2) => {
        if (no === 2 && n2 === 40) m.unkId = v2;
        if (no === 3 && n2 === 2) m.charsmap = b.subarray(v2[0], v2[1]);
      });
      p = save;
    }
  });
  return m;
}

function unigramJson(m, variant) {
  const bytes = variant === "bytes";
  const special = (content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  let vocab, added = [], unkId = m.unkId;
  if (bytes) {
    vocab = m.pieces.map((x) => [x.piece, x.score]);
    for (let i = 0; i < 256; i++) vocab.push(["<0x" + i.toString(16).toUpperCase().padStart(2, "0") + ">", 0.0]);
    m.pieces.forEach((x, id) => { if (x.type === 2 || x.type === 3) added.push(special(x.piece, id)); });
  } else { /* fairseq's ids: the sentencepiece pieces one further on */
    vocab = [["<s>", 0.0], ["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0]];
    for (const x of m.pieces.slice(3)) vocab.push([x.piece, x.score]);
    vocab.push(["<mask>", 0.0]);
    unkId = 3;
    added = [special("<s>", 0), special("<pad>", 1), special("</s>", 2), special("<unk>", 3), special("<mask>", vocab.length - 1)];
    added[4].lstrip = true;
  }
  const charsmap = { type: "Precompiled", precompiled_charsmap: Buffer.from(m.charsmap).toString("base64") };
  const norm = bytes
    ? [charsmap, { type: "Strip", strip_left: false, strip_right: true }, { type: "Replace", pattern: { Regex: " {2,}" }, content: "\u2581" }]
    : [charsmap, { type: "Replace", pattern: { Regex: " {2,}" }, content: " " }];
  const scheme = bytes ? "first" : "always", split = !bytes;
  const id = (s) => vocab.findIndex((x) => x[0] === s);
  return {
    version: "1.0", truncation: null, padding: null, added_tokens: added,
    normalizer: { type: "Sequence", normalizers: norm },
    pre_tokenizer: { type: "Metaspace", replacement: "\u2581", prepend_scheme: scheme, split },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "<s>", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }],
      pair: [{ Sequence: { id: "A", type_id: 0 } }, { Sequence: { id: "B", type_id: 0 } }],
      special_tokens: { "<s>": { id: "<s>", ids: [id("<s>")], tokens: ["<s>"] }, "</s>": { id: "</s>", ids: [id("</s>")], tokens: ["</s>"] } },
    },
    decoder: { type: "Metaspace", replacement: "\u2581", prepend_scheme: scheme, split },
    model: { type: "Unigram", unk_id: unkId, vocab, byte_fallback: bytes },
  };
}

(async () => {
  for (const [name, cased, max] of [["bert", false, 100], ["bert-cased-max8", true, 8]]) {
    const model = await tk.WordPiece.fromFile("tests/data/bert-base-uncased-vocab.txt", { unkToken: "[UNK]", maxInputCharsPerWord: max });
    const t = new tk.Tokenizer(model);
    t.setNormalizer(tk.bertNormalizer(cased ? { lowercase: false, stripAccents: false } : {}));
    t.setPreTokenizer(tk.bertPreTokenizer());
    t.setPostProcessor(tk.bertProcessing(["[SEP]", t.tokenToId("[SEP]")], ["[CLS]", t.tokenToId("[CLS]")]));
    t.setDecoder(tk.wordPieceDecoder("##", true));
    t.addSpecialTokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]);
    t.save(out + "/" + name + ".json");
  }
  const m = readSpm("tests/data/unigram-nmt-nfkc.model");
  if (!m.charsmap || m.pieces.length !== 400) throw new Error("unexpected sentencepiece model");
  for (const v of ["xlmr", "bytes"]) {
    const f = out + "/unigram-" + v + ".json";
    fs.writeFileSync(f, JSON.stringify(unigramJson(m, v)));
    tk.Tokenizer.fromFile(f); // the library must accept it as written
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
