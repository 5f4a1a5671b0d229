// hf_encode.js -- the Hugging Face side of the differential test: the npm
// package `tokenizers` (the Rust library) encodes every text of a file in
// llama.cpp's .inp layout with add_special_tokens; one JSON id list per line,
// SKIP for a text that is not valid UTF-8 (the library takes only strings).
// With "decode", each line is instead the JSON string decode(ids, false) gives.
// Usage: NODE_PATH=DIR/node_modules node hf_encode.js TOKENIZER_JSON TEXTS [decode]
const {Tokenizer}=require("tokenizers");
const fs=require("fs");
(async()=>{
 const t=Tokenizer.fromFile(process.argv[2]);
 const raw=fs.readFileSync(process.argv[3]);
 const SEP=Buffer.from("\n__ggml_vocab_test__\n");
 let parts=[],p=0;
 while(p<raw.length){const q=raw.indexOf(SEP,p); if(q<0){parts.push(raw.subarray(p));break;} parts.push(raw.subarray(p,q)); p=q+SEP.length;}
 for(const b of parts){
   const s=b.toString("utf8");
   if(!Buffer.from(s,"utf8").equals(b)){console.log("SKIP");continue;}
   const e=await t.encode(s,null,{addSpecialTokens:true});
   if(process.argv[4]==="decode") console.log(JSON.stringify(await t.decode(e.getIds(),false)));
   else console.log(JSON.stringify(e.getIds()));
 }
})();
