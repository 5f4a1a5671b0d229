#!/usr/bin/env python3
"""Writes texts.inp: the texts the tokenizer tests feed to both sides, in
llama.cpp's .inp layout (texts separated by "\\n__ggml_vocab_test__\\n"),
bytes exactly (invalid UTF-8 included).  Run from this directory."""
T = [
    b"", b" ", b"  ", b"\t", b"\n", b"\r\n", b" \n \n", b"Hello world", b" Hello World!",
    b"Hello, y'all! How are you? I'M FINE, WE'LL SEE, THEY'RE HERE, it's 'quoted' ' alone",
    "нещо на Български, Ελληνικά, עברית, العربية, हिन्दी, ไทย, ខ្មែរ".encode(),
    "我想在apple工作1314151天～ 日本語のテキスト、カタカナ。한국어 텍스트".encode(),
    "🚀 (normal) 😶‍🌫️ (multiple emojis concatenated) ✅ 👩🏽‍💻 🇫🇷🇯🇵 1️⃣".encode(),
    b"3 33 333 3333 33333 333333 3333333 12345678901234567890",
    "١٢٣٤ ０１２３ ⅫⅣ ½ ²³ 0.5e-10 -42 +7".encode(),
    b"    Hello\n    Hello\n\n\n\tdef f(x):\n\t\treturn x**2  # comment\n",
    b'{"key": [1, 2.5, null], "s": "a\\"b"}\nint main(void) { return a->b[i] != c; }',
    b"a  b   c    d\t\te \r\n\r\nf\x0b\x0cg",
    "nbsp\u00a0x ideographic\u3000y line\u2028z nel\u0085w".encode(),
    b"<s> </s> <unk> <|endoftext|> <|end|> <|im_start|>user<|im_end|> [CLS] x [SEP] [MASK] <mask>",
    b"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nhi<|eot_id|>",
    b"text<|endoftext|>text   <|end|>   more <s>x</s>",
    b"lone continuation \x80\xbf end", b"truncated \xe2\x82", b"overlong \xc0\x80 surrogate \xed\xa0\x80",
    b"bad lead \xf8\x88\x80\x80\x80 and \xff\xfe", b"\xe2\x96\x81 already escaped \xe2\x96\x81\xe2\x96\x81",
    "Ünïcödé ÀÉÎÕÜ ﬁ ﬃ Å Å ǅ ﬀ ß ẞ İ ı".encode(),
    "The quick brown fox jumps over the lazy dog. Voix ambiguë d’un cœur qui au zéphyr préfère les jattes de kiwis.".encode(),
    b"__init__ self.x_y = x-y; a--b ++c ... !!! ??? ,,, ;;",
    b"www.example.com/path?q=1&r=2#frag mail@example.org",
    b"CamelCaseWordsAndALLCAPS mixedCASEletters iPhone McDonald",
    b"' era", b"\n =", b" (", b"   Hello", b"\t\n", b"\n\n\n",
    "Ⅷ ⓐ ㊙ ℃ ™ © ® § ¶ † ‡ • … ‰ ′ ″ € £ ¥ ₹ ¢".encode(),
    "a\u0301 e\u0308 n\u0303 \u1100\u1161\u11a8 각".encode(),
    b"\x00nul\x00byte", b"IMGIMGABCZ <sentinel:12> tabs\t\tand  spaces",
    b"beyond U+10FFFF \xf5\x80\x80\x80 here",
]
with open("texts.inp", "wb") as f:
    f.write(b"\n__ggml_vocab_test__\n".join(T) + b"\n__ggml_vocab_test__\n")
print(len(T), "texts")
