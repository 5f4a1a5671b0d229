// ref_detokenize.cpp -- the reference side of `gguf detokenize`: llama.cpp
// b4747's llama_detokenize (remove_special = false, unparse_special = true)
// on MODEL's vocabulary, then a newline.  Not part of the build; made the
// tests/cli/detokenize-*.out files:
//   g++ -O1 -o /tmp/ref_detokenize tests/tokenize/ref_detokenize.cpp -I$LLAMA/include -I$LLAMA/ggml/include \
//       -L$BUILD/bin -lllama -Wl,-rpath,$BUILD/bin
//   /tmp/ref_detokenize MODEL ID... > tests/cli/detokenize-NAME.out
#include "llama.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

static void quiet(ggml_log_level, const char *, void *) {}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    llama_log_set(quiet, nullptr);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.vocab_only = true;
    llama_model *m = llama_model_load_from_file(argv[1], mp);
    if (!m) return 1;
    const llama_vocab *v = llama_model_get_vocab(m);
    std::vector<llama_token> ids;
    for (int i = 2; i < argc; i++) ids.push_back(atoi(argv[i]));
    std::vector<char> buf(1 << 16);
    int n = llama_detokenize(v, ids.data(), (int)ids.size(), buf.data(), (int)buf.size(), false, true);
    if (n < 0) return 1;
    fwrite(buf.data(), 1, n, stdout);
    putchar('\n');
    llama_model_free(m);
    return 0;
}
