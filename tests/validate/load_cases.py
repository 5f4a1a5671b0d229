#!/usr/bin/env python3
"""The files `gguf validate --load` is held to llama.cpp master's loader on (tests/validate/master_load.json).

Each case is a preset of tests/estimate/gen_models.py (a realistic header, sparse all-zero data), valid
or broken in one way: a tensor missing, of a wrong shape, added; a hyperparameter missing or of the
wrong type; the vocabulary damaged.  The output is deterministic (the same case gives the same bytes).
Only the Python 3 standard library is used.

    load_cases.py --list              the cases, one a line: ID PRESET
    load_cases.py --all DIR           write every case to DIR/ID.gguf
    load_cases.py ID OUT.gguf         write one case
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'estimate'))
import gen_models as gm  # noqa: E402


# ---- the changes: each takes (arch, kv, tensors) and changes the lists in place ----------------------
def drop_tensor(name):
    def f(a, kv, T):
        T[:] = [t for t in T if t[0] != name]
    return f


def reshape_tensor(name, ne):
    def f(a, kv, T):
        T[:] = [(n, list(ne) if n == name else s) for n, s in T]
    return f


def add_tensor(name, ne):
    def f(a, kv, T):
        T.append((name, list(ne)))
    return f


def drop_key(key):
    def f(a, kv, T):
        k = key.replace('{a}', a)
        kv[:] = [x for x in kv if x[0] != k]
    return f


def retype_key(key, ty, value):
    def f(a, kv, T):
        k = key.replace('{a}', a)
        kv[:] = [(n, ty, value) if n == k else (n, t, v) for n, t, v in kv]
    return f


def set_key(key, ty, value):
    def f(a, kv, T):
        k = key.replace('{a}', a)
        kv[:] = [x for x in kv if x[0] != k] + [(k, ty, value)]
    return f


def as_arch(new, drop=()):
    """The preset's architecture renamed to NEW (general.architecture and its keys), the tensors whose name
    ends with one of DROP left out."""
    def f(a, kv, T):
        kv[:] = [(new + k[len(a):] if k.startswith(a + '.') else k, t, new if k == 'general.architecture' else v)
                 for k, t, v in kv]
        T[:] = [t for t in T if not any(t[0].endswith(d) for d in drop)]
    return f


def both(*fs):
    def f(a, kv, T):
        for g in fs:
            g(a, kv, T)
    return f


# id -> (preset, change or None, what it shows)
CASES = {
    'qwen3.ok': ('qwen3-0.6b', None, 'valid, tied output'),
    'qwen3.no_k_norm': ('qwen3-0.6b', drop_tensor('blk.3.attn_k_norm.weight'), 'a required tensor missing'),
    'qwen3.q_shape': ('qwen3-0.6b', reshape_tensor('blk.0.attn_q.weight', [1024, 1024]), 'a wrong shape'),
    'qwen3.extra': ('qwen3-0.6b', add_tensor('blk.0.attn_extra.weight', [1024]), 'a tensor master does not create'),
    'qwen3.no_embd': ('qwen3-0.6b', drop_key('{a}.embedding_length'), 'a required hyperparameter missing'),
    'qwen3.no_eps': ('qwen3-0.6b', drop_key('{a}.attention.layer_norm_rms_epsilon'), 'the RMS epsilon missing'),
    'qwen3.block_count_u64': ('qwen3-0.6b', retype_key('{a}.block_count', gm.U64, 28), 'a key of the wrong type'),
    'qwen3.freq_base_u32': ('qwen3-0.6b', retype_key('{a}.rope.freq_base', gm.U32, 1000000),
                            'an optional key of the wrong type'),
    'qwen3.no_tokens': ('qwen3-0.6b', drop_key('tokenizer.ggml.tokens'), 'no vocabulary'),
    'qwen3.no_merges': ('qwen3-0.6b', drop_key('tokenizer.ggml.merges'), 'a BPE vocabulary without merges'),
    'qwen3.pre_unknown': ('qwen3-0.6b', set_key('tokenizer.ggml.pre', gm.STR, 'no-such-pre'),
                          'a pre-tokenizer master does not know'),
    'qwen3.no_pre': ('qwen3-0.6b', drop_key('tokenizer.ggml.pre'), 'no pre-tokenizer: the default, with a warning'),
    'qwen3.prefix_u8': ('qwen3-0.6b', set_key('tokenizer.ggml.add_space_prefix', gm.U8, 1),
                        'add_space_prefix of the wrong type'),
    'qwen3.bos_i32': ('qwen3-0.6b', retype_key('tokenizer.ggml.bos_token_id', gm.I32, 151643),
                      'a special token id of the wrong type'),
    'qwen3.output_bad': ('qwen3-0.6b', add_tensor('output.weight', [1024, 1000]),
                         'an optional tensor of the wrong shape'),
    'qwen3.untied': ('qwen3-0.6b', add_tensor('output.weight', [1024, 151936]), 'an optional tensor present'),
    'smollm2.ok': ('smollm2-135m', None, 'llama, tied'),
    'smollm2.rot': ('smollm2-135m', set_key('{a}.rope.dimension_count', gm.U32, 32),
                    "llama's n_rot must equal the head size"),
    'smollm2.ffn_bias': ('smollm2-135m', add_tensor('blk.2.ffn_up.bias', [1536]), "llama's optional MLP bias"),
    'smollm2.ffn_bias_bad': ('smollm2-135m', add_tensor('blk.2.ffn_up.bias', [576]), 'a wrong optional bias'),
    'mixtral.ok': ('mixtral-tiny', None, 'llama with experts'),
    'mixtral.no_gate_exps': ('mixtral-tiny', drop_tensor('blk.1.ffn_gate_exps.weight'),
                             "llama's expert gate is optional"),
    'mixtral.no_up_exps': ('mixtral-tiny', drop_tensor('blk.1.ffn_up_exps.weight'), 'a required expert tensor'),
    'mixtral.used_9': ('mixtral-tiny', retype_key('{a}.expert_used_count', gm.U32, 9),
                       'more experts used than there are'),
    'qwen2.ok': ('qwen2-0.5b', None, 'qwen2 with Q/K/V biases'),
    'qwen2.k_bias_bad': ('qwen2-0.5b', reshape_tensor('blk.5.attn_k.bias', [64]), 'a wrong optional bias'),
    'qwen2.no_q_bias': ('qwen2-0.5b', drop_tensor('blk.1.attn_q.bias'), 'an optional bias missing'),
    'qwen2.no_ffn_down': ('qwen2-0.5b', drop_tensor('blk.23.ffn_down.weight'), 'the last layer incomplete'),
    'qwen3moe.ok': ('qwen3moe-small', None, 'qwen3moe'),
    'qwen3moe.exp_shape': ('qwen3moe-small', reshape_tensor('blk.2.ffn_down_exps.weight', [768, 2048, 64]),
                           'an expert tensor with fewer experts'),
    'qwen3moe.no_ffexp': ('qwen3moe-small', drop_key('{a}.expert_feed_forward_length'),
                          'the experts size then n_ff / n_expert_used'),
    'gemma3.ok': ('gemma3-1b', None, 'gemma3, sliding window'),
    'gemma3.no_post_norm': ('gemma3-1b', drop_tensor('blk.7.post_ffw_norm.weight'), 'gemma3 post-norm missing'),
    'gemma3.window_f32': ('gemma3-1b', retype_key('{a}.attention.sliding_window', gm.F32, 512.0),
                          'sliding_window of the wrong type'),
    'smollm3.ok': ('smollm3-3b', None, 'smollm3'),
    'smollm3.no_ctx': ('smollm3-3b', drop_key('{a}.context_length'), 'context_length missing'),
    'mistral3.ok': ('mistral3-small', None, 'mistral3'),
    'mistral3.o_bias': ('mistral3-small', add_tensor('blk.0.attn_output.bias', [5120]), 'an optional bias'),
    'unknown_arch.ok': ('qwen3-0.6b', as_arch('nosucharch'), 'an architecture without a table'),
    'qwen3.cut': ('qwen3-0.6b', None, 'the file cut 1000 bytes into its data'),
    'gpt2.cut': ('gpt2-medium', None, 'the file cut 1000 bytes into its data (any architecture)'),
}
# every covered architecture's preset, valid and broken the same three ways: a layer-1 tensor missing (the
# one 3 * len(arch) places into the layer's list, so that the architectures lose different ones), blk.0.attn_output.weight of another shape, an extra tensor
AUTO = {'qwen2moe': 'qwen2moe-small', 'olmoe': 'olmoe-small', 'gemma2': 'gemma2-2b', 'granite': 'granite-2b',
        'phi3': 'phi3-mini', 'olmo2': 'olmo2-1b', 'exaone': 'exaone-2.4b', 'internlm2': 'internlm2-1.8b',
        'minicpm': 'minicpm-1b', 'command-r': 'command-r-small', 'arcee': 'arcee-afm', 'seed_oss': 'seed_oss-small',
        'ernie4_5': 'ernie4_5-0.3b', 'qwen2vl': 'qwen2vl-2b', 'qwen3vl': 'qwen3vl-2b',
        'qwen3vlmoe': 'qwen3vlmoe-small', 'qwen35': 'qwen35-4b', 'qwen35moe': 'qwen35moe-small',
        'cohere2': 'cohere2-7b', 'phimoe': 'phimoe-small', 'deepseek': 'deepseek-moe-small',
        'baichuan': 'baichuan-7b', 'stablelm': 'stablelm-1.6b', 'starcoder': 'starcoder-1b', 'refact': 'refact-1.6b',
        'bloom': 'bloom-560m', 'mpt': 'mpt-7b', 'olmo': 'olmo-1b', 'orion': 'orion-14b', 'xverse': 'xverse-7b',
        'codeshell': 'codeshell-7b', 'chatglm': 'chatglm-9b', 'bert': 'bert-minilm', 'nomic-bert': 'nomic-bert-v1.5',
        'gemma-embedding': 'gemma-embedding-300m', 'jais': 'jais-13b', 'bitnet': 'bitnet-large',
        'gemma3n': 'gemma3n-e2b', 'lfm2moe': 'lfm2moe-small', 'minicpm3': 'minicpm3-4b',
        'jina-bert-v2': 'jina-bert-v2-base', 'modern-bert': 'modern-bert-base',
        'neo-bert': 'neo-bert', 'eurobert': 'eurobert-210m', 'dream': 'dream-7b', 'llada': 'llada-8b',
        'nomic-bert-moe': 'nomic-bert-moe-v2', 'llama-embed': 'llama-embed-8b',
        'jina-bert-v3': 'jina-bert-v3', 'dbrx': 'dbrx-small', 'grok': 'grok-small',
        'gptneox': 'gptneox-410m', 'phi2': 'phi2', 'starcoder2': 'starcoder2-3b', 'nemotron': 'nemotron-4b',
        'falcon': 'falcon-1b', 'gpt-oss': 'gpt-oss-small',
        'llama4': 'llama4-scout-small', 'glm4moe': 'glm4moe-small',
        'deepseek2': 'deepseek2-small', 'glm4': 'glm4-9b', 'mamba': 'mamba-130m', 'mamba2': 'mamba2-370m',
        'qwen3next': 'qwen3next-small', 'lfm2': 'lfm2-1.2b',
        'gpt2': 'gpt2-medium', 'jamba': 'jamba-small',
        'granitehybrid': 'granitehybrid-small', 'falcon-h1': 'falcon-h1-small',
        'granitemoe': 'granitemoe-1b', 'exaone4': 'exaone4-1.2b', 'hunyuan-dense': 'hunyuan-dense-1.8b',
        'hunyuan-moe': 'hunyuan-moe-small', 'apertus': 'apertus-8b', 'dots1': 'dots1-small',
        'ernie4_5-moe': 'ernie4_5-moe-small', 'minimax-m2': 'minimax-m2-small', 'smallthinker': 'smallthinker-4b',
        'bailingmoe2': 'bailingmoe2-small', 'exaone-moe': 'exaone-moe-small', 'rwkv6': 'rwkv6-1.6b',
        'rwkv7': 'rwkv7-0.4b', 'nemotron_h': 'nemotron_h-small', 'maincoder': 'maincoder-1b', 'rnd1': 'rnd1-base',
        'mellum': 'mellum-moe', 'hunyuan_vl': 'hunyuan-vl-ocr', 'qwen': 'qwen-7b', 'plamo': 'plamo-13b',
        'pangu-embedded': 'pangu-embedded-1b', 'nanbeige': 'nanbeige-3b', 'jais2': 'jais2-8b',
        'llada-moe': 'llada-moe-7b', 'bailingmoe': 'bailingmoe-lite', 'arctic': 'arctic-small',
        'openelm': 'openelm-270m', 'plamo3': 'plamo3-small', 'granite_swa': 'granite-swa-small',
        'afmoe': 'afmoe-mini', 'grovemoe': 'grovemoe-inst', 'deci': 'deci-super', 'hy_v3': 'hy-v3-small',
        'laguna': 'laguna-xs', 'cohere2moe': 'cohere2moe-small'}


def drop_nth_of_layer1(a, kv, T):
    names = [n for n, _ in T if n.startswith('blk.1.')]
    T[:] = [t for t in T if t[0] != names[3 * len(a) % len(names)]]


def widen_attn_output(a, kv, T):
    T[:] = [(n, [s[0] * 2] + s[1:] if n == 'blk.0.attn_output.weight' else s) for n, s in T]


# gemma (1): gemma2's layer without its two post-norms
GEMMA = as_arch('gemma', ('post_attention_norm.weight', 'post_ffw_norm.weight'))
CASES['gemma.ok'] = ('gemma2-2b', GEMMA, "gemma2-2b's shapes as gemma")
CASES['gemma.post_norms'] = ('gemma2-2b', as_arch('gemma'), 'gemma with post-norms it does not create')
CASES['gemma.no_ffn_norm'] = ('gemma2-2b', both(GEMMA, drop_tensor('blk.5.ffn_norm.weight')), 'ffn_norm missing')

for arch, preset in AUTO.items():
    CASES[arch + '.ok'] = (preset, None, 'valid')
    CASES[arch + '.drop'] = (preset, drop_nth_of_layer1, 'a layer-1 tensor missing')
    CASES[arch + '.shape'] = (preset, widen_attn_output, 'attn_output twice as wide')
    CASES[arch + '.extra'] = (preset, add_tensor('blk.1.extra.weight', [64]), 'a tensor master does not create')
# glm4moe's MTP layer (blk.3): master creates its tensors but skips them, Q/K/V then optional; the selection bias
CASES['glm4moe.mtp_no_q'] = ('glm4moe-small', drop_tensor('blk.3.attn_q.weight'), "the MTP layer's Q missing")
CASES['glm4moe.mtp_no_eh'] = ('glm4moe-small', drop_tensor('blk.3.nextn.eh_proj.weight'), "the MTP layer's eh_proj missing")
CASES['glm4moe.no_probs_b'] = ('glm4moe-small', drop_tensor('blk.1.exp_probs_b.bias'), 'the selection bias missing')
# llama4's experts every interleave_moe_layer_step-th layer: with 2, layer 0 would be dense
CASES['llama4.step2'] = ('llama4-scout-small', set_key('{a}.interleave_moe_layer_step', gm.U32, 2),
                         'experts where master wants a dense FFN')
# deepseek2: MLA's split K/V (key_length_mla and value_length_mla) instead of attn_kv_b; a lite model's Q
CASES['deepseek2.mla_kv_b'] = ('deepseek2-small', both(set_key('{a}.attention.key_length_mla', gm.U32, 192),
                                                      set_key('{a}.attention.value_length_mla', gm.U32, 128)),
                               "MLA's sizes with the unsplit attn_kv_b")
CASES['deepseek2.no_q_lora'] = ('deepseek2-small', drop_key('{a}.attention.q_lora_rank'),
                                'q_lora_rank missing (required but for the lite models)')
CASES['mamba.expand3'] = ('mamba-130m', set_key('{a}.ssm.inner_size', gm.U32, 2304),
                          'an expansion factor of 3, which master refuses')
CASES['qwen3next.no_ssm_in'] = ('qwen3next-small', drop_tensor('blk.0.ssm_in.weight'),
                               'the legacy fused ssm_in missing (optional, as attn_qkv and attn_gate are)')
# lfm2's layer 0 is a short convolution (its attn_output change is no change): an attention layer's K
CASES['lfm2.k_shape'] = ('lfm2-1.2b', reshape_tensor('blk.2.attn_k.weight', [2048, 1024]),
                         "an attention layer's K of twice its head_count_kv's width")
# jamba: a layer's router decides between experts and a dense FFN
CASES['jamba.no_router'] = ('jamba-small', drop_tensor('blk.3.ffn_gate_inp.weight'),
                            'a router missing: master then wants a dense FFN, and the experts are extra')
CASES['granitehybrid.expand3'] = ('granitehybrid-small', set_key('{a}.ssm.inner_size', gm.U32, 6144),
                                  'an expansion factor of 3: master asserts')
# apertus' xIELU keys (no architecture prefix): required, one f32 or an array of block_count f32
CASES['apertus.no_beta'] = ('apertus-8b', drop_key('xielu.beta'), 'a required xIELU key missing')
CASES['apertus.alpha_layers'] = ('apertus-8b', set_key('xielu.alpha_n', gm.ARR, (gm.F32, [0.8] * 8)),
                                 'xielu.alpha_n as one f32 a layer')
CASES['apertus.alpha_short'] = ('apertus-8b', set_key('xielu.alpha_n', gm.ARR, (gm.F32, [0.8] * 3)),
                                'xielu.alpha_n an array of 3 for 8 layers')
# ernie4_5-moe's dense first layer, then experts; smallthinker and exaone-moe without experts
CASES['ernie4_5-moe.no_down_exps'] = ('ernie4_5-moe-small', drop_tensor('blk.2.ffn_down_exps.weight'),
                                      "an expert layer's down projection missing")
CASES['smallthinker.no_experts'] = ('smallthinker-4b', both(set_key('{a}.expert_count', gm.U32, 0),
                                                            set_key('{a}.expert_used_count', gm.U32, 0)),
                                    'no experts: master asserts')
CASES['exaone-moe.no_experts'] = ('exaone-moe-small', both(set_key('{a}.expert_count', gm.U32, 0),
                                                          set_key('{a}.expert_used_count', gm.U32, 0)),
                                  'no experts: master throws at the first expert layer')
CASES['dots1.lead2'] = ('dots1-small', set_key('{a}.leading_dense_block_count', gm.U32, 2),
                        'two leading dense layers where the file has one')
# RWKV-6's fused lerp, or time_mix_lerp_w (master asserts one of them); RWKV-7's layer 0 value LoRA of the iclr rank
CASES['rwkv6.no_lerp'] = ('rwkv6-1.6b', drop_tensor('blk.2.time_mix_lerp_fused.weight'),
                          'a layer without its fused lerp nor time_mix_lerp_w: master asserts')
CASES['rwkv6.lerp_w'] = ('rwkv6-1.6b', both(drop_tensor('blk.2.time_mix_lerp_fused.weight'),
                                            add_tensor('blk.2.time_mix_lerp_w.weight', [2048, 1, 1])),
                         'time_mix_lerp_w in place of the fused lerp')
CASES['rwkv6.fused_4'] = ('rwkv6-1.6b', reshape_tensor('blk.0.time_mix_lerp_fused.weight', [2048, 1, 1, 4]),
                          'a fused lerp of 4 where master wants 5')
CASES['rwkv7.v1_rank'] = ('rwkv7-0.4b', reshape_tensor('blk.0.time_mix_v1.weight', [1024, 32]),
                          "layer 0's value LoRA of value_residual_mix_lora_rank, where master wants iclr_lora_rank")
# nemotron_h: blk.5 attention (head_count_kv 8, feed_forward_length 0), blk.1 an FFN, blk.0 Mamba-2; both epsilons
CASES['nemotron_h.k_shape'] = ('nemotron_h-small', reshape_tensor('blk.5.attn_k.weight', [4096, 2048]),
                               "the attention layer's K of twice its head_count_kv's width")
CASES['nemotron_h.up_bias'] = ('nemotron_h-small', add_tensor('blk.1.ffn_up.bias', [21504]), "an FFN layer's optional bias")
CASES['nemotron_h.no_norm_eps'] = ('nemotron_h-small', drop_key('{a}.attention.layer_norm_epsilon'),
                                   'layer_norm_epsilon missing (master requires it beside the RMS one)')
CASES['nemotron_h.ffn_as_attn'] = ('nemotron_h-small', drop_tensor('blk.1.ffn_up.weight'),
                                   "an FFN layer's up projection missing")


def nemotron_h_experts(a, kv, T):
    """nemotron_h-small's FFN layers as Nemotron-H-MoE's: 8 experts of 256 (2 used), a shared one of 512, a
    selection bias each"""
    E, X, FX, FS = 4096, 8, 256, 512
    kv += [(a + '.expert_count', gm.U32, X), (a + '.expert_used_count', gm.U32, 2),
           (a + '.expert_feed_forward_length', gm.U32, FX), (a + '.expert_shared_feed_forward_length', gm.U32, FS)]
    ffn = sorted({n.split('.')[1] for n, _ in T if n.endswith('.ffn_up.weight')}, key=int)
    T[:] = [t for t in T if not (t[0].endswith('.ffn_up.weight') or t[0].endswith('.ffn_down.weight'))]
    for i in ffn:
        b = 'blk.%s.' % i
        T.extend([(b + 'ffn_gate_inp.weight', [E, X]), (b + 'exp_probs_b.bias', [X]),
                  (b + 'ffn_down_exps.weight', [FX, E, X]), (b + 'ffn_up_exps.weight', [E, FX, X]),
                  (b + 'ffn_down_shexp.weight', [FS, E]), (b + 'ffn_up_shexp.weight', [E, FS])])


CASES['nemotron_h.moe'] = ('nemotron_h-small', nemotron_h_experts, 'the FFN layers as experts with a shared one')
CASES['nemotron_h.moe_no_probs_b'] = ('nemotron_h-small', both(nemotron_h_experts, drop_tensor('blk.3.exp_probs_b.bias')),
                                      'an expert layer without its selection bias (required)')
CASES['nemotron_h.moe_latent'] = ('nemotron_h-small', both(nemotron_h_experts,
                                                          set_key('{a}.moe_latent_size', gm.U32, 1024)),
                                  'moe_latent_size 1024 with experts n_embd wide')


def rwkv_hybrid(new, ff):
    """An RWKV preset as NEW (rwkv6qwen2, arwkv7): no LN0, the layers' second norms, biases and channel mixing out,
    a transformer FFN of FF in"""
    drop = ('token_embd_norm.weight', 'token_embd_norm.bias', 'attn_norm.bias', 'attn_norm_2.weight', 'attn_norm_2.bias',
            'channel_mix_lerp_k.weight', 'channel_mix_lerp_r.weight', 'channel_mix_key.weight', 'channel_mix_value.weight',
            'channel_mix_receptance.weight') + (('time_mix_ln.weight', 'time_mix_ln.bias') if new == 'rwkv6qwen2' else
                                                ('output_norm.bias',))
    rename = as_arch(new, drop)

    def f(a, kv, T):
        rename(a, kv, T)
        E = [s for n, s in T if n == 'token_embd.weight'][0][0]
        for i in sorted({int(n.split('.')[1]) for n, _ in T if n.startswith('blk.')}):
            b = 'blk.%d.' % i
            T.extend([(b + 'ffn_norm.weight', [E]), (b + 'ffn_gate.weight', [E, ff]), (b + 'ffn_down.weight', [ff, E]),
                      (b + 'ffn_up.weight', [E, ff])])
    return f


R6Q = rwkv_hybrid('rwkv6qwen2', 7168)
A7 = rwkv_hybrid('arwkv7', 4096)
CASES['rwkv6qwen2.ok'] = ('rwkv6-1.6b', R6Q, "rwkv6-1.6b's time mixing with Qwen2's FFN")
CASES['rwkv6qwen2.drop'] = ('rwkv6-1.6b', both(R6Q, drop_tensor('blk.1.time_mix_decay_w2.weight')), 'a tensor missing')
CASES['rwkv6qwen2.shape'] = ('rwkv6-1.6b', both(R6Q, reshape_tensor('blk.0.time_mix_output.weight', [4096, 2048])),
                             'time_mix_output twice as wide')
CASES['rwkv6qwen2.extra'] = ('rwkv6-1.6b', both(R6Q, add_tensor('blk.1.extra.weight', [64])), 'a tensor master does not create')
CASES['rwkv6qwen2.kv8'] = ('rwkv6-1.6b', both(R6Q, set_key('rwkv6qwen2.attention.head_count_kv', gm.U32, 8)),
                           'head_count_kv 8: K and V of 8 heads, the file has them n_embd wide')
CASES['rwkv6qwen2.no_first'] = ('rwkv6-1.6b', both(R6Q, drop_tensor('blk.3.time_mix_first.weight')),
                                'time_mix_first missing (optional here)')
CASES['arwkv7.ok'] = ('rwkv7-0.4b', A7, "rwkv7-0.4b's time mixing with a transformer FFN")
CASES['arwkv7.drop'] = ('rwkv7-0.4b', both(A7, drop_tensor('blk.1.time_mix_a2.weight')), 'a tensor missing')
CASES['arwkv7.shape'] = ('rwkv7-0.4b', both(A7, reshape_tensor('blk.0.time_mix_output.weight', [2048, 1024])),
                         'time_mix_output twice as wide')
CASES['arwkv7.extra'] = ('rwkv7-0.4b', both(A7, add_tensor('blk.1.extra.weight', [64])), 'a tensor master does not create')
CASES['arwkv7.lerp5'] = ('rwkv7-0.4b', both(A7, reshape_tensor('blk.2.time_mix_lerp_fused.weight', [1024, 1, 1, 5])),
                         'a fused lerp of 5 (no gate): master retries with 5')
CASES['arwkv7.lerp4'] = ('rwkv7-0.4b', both(A7, reshape_tensor('blk.2.time_mix_lerp_fused.weight', [1024, 1, 1, 4])),
                         'a fused lerp of 4: neither')
CASES['arwkv7.no_gate'] = ('rwkv7-0.4b', both(A7, drop_tensor('blk.1.time_mix_g1.weight'), drop_tensor('blk.1.time_mix_g2.weight'),
                                            drop_tensor('blk.1.time_mix_ln.weight')),
                           'the gate LoRA and time_mix_ln missing (optional here)')
# qwen's and pangu-embedded's required biases; jais2's separate Q/K/V; expert asserts and keys
CASES['qwen.no_qkv_bias'] = ('qwen-7b', drop_tensor('blk.2.attn_qkv.bias'), 'the fused Q/K/V bias missing (required)')
CASES['pangu-embedded.no_o_bias'] = ('pangu-embedded-1b', drop_tensor('blk.4.attn_output.bias'),
                                     'the attention output bias missing (required)')


def fuse_qkv(layer):
    def f(a, kv, T):
        b = 'blk.%d.' % layer
        parts = [s for n, s in T if n in (b + 'attn_q.weight', b + 'attn_k.weight', b + 'attn_v.weight')]
        T[:] = [t for t in T if t[0] not in (b + 'attn_q.weight', b + 'attn_k.weight', b + 'attn_v.weight')]
        T.append((b + 'attn_qkv.weight', [parts[0][0], sum(p[1] for p in parts)]))
    return f


CASES['jais2.fused_qkv'] = ('jais2-8b', fuse_qkv(1), "a fused attn_qkv, which jais2's loader does not take")
CASES['maincoder.fused_qkv'] = ('maincoder-1b', fuse_qkv(1), 'a fused attn_qkv in place of Q/K/V (loads)')
NO_EXPERTS = both(set_key('{a}.expert_count', gm.U32, 0), set_key('{a}.expert_used_count', gm.U32, 0))
CASES['llada-moe.no_experts'] = ('llada-moe-7b', NO_EXPERTS, 'no experts: master asserts before the layers')
CASES['rnd1.no_experts'] = ('rnd1-base', NO_EXPERTS, 'no experts: master throws at the first layer')
CASES['mellum.no_ffexp'] = ('mellum-moe', drop_key('{a}.expert_feed_forward_length'),
                            'expert_feed_forward_length missing (required here)')
CASES['rnd1.no_ffexp'] = ('rnd1-base', drop_key('{a}.expert_feed_forward_length'),
                          'expert_feed_forward_length missing: the experts then n_ff / n_expert_used wide')
# bailingmoe without experts; arctic's experts' norm; openelm's per-layer sizes; plamo3's post-norm names (no
# .weight); granite_swa's window pattern (a required array) and sinks
for case_id, preset, change, what in (
        ('bailingmoe.no_experts', 'bailingmoe-lite', NO_EXPERTS, 'no experts: master throws at the first layer'),
        ('arctic.no_norm_exps', 'arctic-small', drop_tensor('blk.1.ffn_norm_exps.weight'), "the experts' norm missing"),
        ('openelm.qkv_layer0', 'openelm-270m', reshape_tensor('blk.2.attn_qkv.weight', [1280, 1152]),
         "layer 2's fused Q/K/V sized by layer 0's head counts"),
        ('openelm.up_layer0', 'openelm-270m', reshape_tensor('blk.3.ffn_up.weight', [1280, 768]),
         "layer 3's up projection of layer 0's FFN size"),
        ('plamo3.norm_weight', 'plamo3-small',
         both(drop_tensor('blk.1.post_ffw_norm'), add_tensor('blk.1.post_ffw_norm.weight', [2048])),
         'a post-norm named with .weight, which master does not look for'),
        ('granite_swa.no_pattern', 'granite-swa-small', drop_key('{a}.attention.sliding_window_pattern'),
         'the window pattern missing (a required array)'),
        ('granite_swa.pattern_u32', 'granite-swa-small', set_key('{a}.attention.sliding_window_pattern', gm.U32, 4),
         'the window pattern as one u32, where master wants an array'),
        ('granite_swa.no_sinks', 'granite-swa-small', drop_tensor('blk.2.attn_sinks.weight'), "a layer's sinks missing")):
    CASES[case_id] = (preset, change, what)
# afmoe's dense first layer and selection bias; grovemoe's groups; deci's layers by their own sizes
for case_id, preset, change, what in (
        ('afmoe.no_probs_b', 'afmoe-mini', drop_tensor('blk.2.exp_probs_b.bias'), 'the selection bias missing (required)'),
        ('afmoe.lead2', 'afmoe-mini', set_key('{a}.leading_dense_block_count', gm.U32, 2),
         'two leading dense layers where the file has one'),
        ('grovemoe.groups0', 'grovemoe-inst', set_key('{a}.experts_per_group', gm.U32, 0),
         'experts_per_group 0: master asserts'),
        ('grovemoe.no_chunk_ff', 'grovemoe-inst', drop_key('{a}.expert_chunk_feed_forward_length'),
         'the chunk experts then head_k wide: loads'),
        ('grovemoe.no_group_scale', 'grovemoe-inst', drop_key('{a}.expert_group_scale'), 'expert_group_scale missing'),
        ('deci.linear_q', 'deci-super', add_tensor('blk.1.attn_q.weight', [8192, 8192]),
         'a Q where the layer has a linear map for attention'),
        ('deci.no_ffn_layer_ff', 'deci-super', add_tensor('blk.2.ffn_norm.weight', [8192]),
         'an FFN norm on the layer without an FFN'),
        ('deci.k_shape', 'deci-super', reshape_tensor('blk.3.attn_k.weight', [8192, 2048]), "a layer's K too wide"),
        ('hy_v3.no_probs_b', 'hy-v3-small', drop_tensor('blk.2.exp_probs_b'), 'the selection bias missing (optional)'),
        ('hy_v3.probs_b_weight', 'hy-v3-small', both(drop_tensor('blk.2.exp_probs_b'), add_tensor('blk.2.exp_probs_b.bias', [32])),
         'the selection bias named with .bias, which master does not look for'),
        ('hy_v3.no_ffexp', 'hy-v3-small', drop_key('{a}.expert_feed_forward_length'), 'expert_feed_forward_length missing'),
        ('hy_v3.shexp_shape', 'hy-v3-small', reshape_tensor('blk.3.ffn_up_shexp.weight', [4096, 3072]),
         'a shared expert of twice its width'),
        ('laguna.gate_elem', 'laguna-xs', reshape_tensor('blk.2.attn_gate.weight', [2048, 4096]),
         'an attention gate an element (loads)'),
        ('laguna.gate_64', 'laguna-xs', reshape_tensor('blk.2.attn_gate.weight', [2048, 64]),
         'an attention gate of another width: master aborts'),
        ('laguna.no_gate', 'laguna-xs', drop_tensor('blk.2.attn_gate.weight'), 'the attention gate missing'),
        ('laguna.no_lead', 'laguna-xs', drop_key('{a}.leading_dense_block_count'),
         'leading_dense_block_count missing (required here)'),
        ('laguna.shared2', 'laguna-xs', both(drop_key('{a}.expert_shared_feed_forward_length'),
                                             set_key('{a}.expert_shared_count', gm.U32, 2)),
         'two shared experts without their size: n_ff_exp 2 wide, the file has 1'),
        ('cohere2moe.rms_eps', 'cohere2moe-small', both(drop_key('{a}.attention.layer_norm_epsilon'),
                                                        set_key('{a}.attention.layer_norm_rms_epsilon', gm.F32, 1e-5)),
         'the RMS epsilon in place of the other (loads)'),
        ('cohere2moe.no_window', 'cohere2moe-small', drop_key('{a}.attention.sliding_window'), 'sliding_window missing'),
        ('cohere2moe.no_experts', 'cohere2moe-small', NO_EXPERTS, 'no experts: master throws before the layers'),
        ('cohere2moe.no_shexp_ff', 'cohere2moe-small', drop_key('{a}.expert_shared_feed_forward_length'),
         'the shared experts then n_ff_exp expert_shared_count wide (loads)')):
    CASES[case_id] = (preset, change, what)
CUT = 1000  # the .cut cases: the file ends this many bytes into the data section


_METADATA = {}  # preset -> its metadata, made once (the vocabularies are what takes the time)


def build(case):
    preset, change, _ = CASES[case]
    p = gm.PRESETS[preset]
    if preset not in _METADATA:
        _METADATA[preset] = gm.metadata(p)
    kv = list(_METADATA[preset])
    T = [(n, list(ne)) for n, ne in gm.tensor_list(p)]
    if change:
        change(p['arch'], kv, T)
    tensors, off = [], 0
    for name, ne in T:
        t = gm.pick_type(p, name, ne)
        tensors.append((name, ne, t, off))
        off += (gm.nbytes(t, ne) + gm.ALIGN - 1) // gm.ALIGN * gm.ALIGN
    header = gm.pack_header(kv, tensors)
    return header, len(header) + (CUT if case.endswith('.cut') else off)


def write(case, path):
    header, size = build(case)
    with open(path, 'wb') as f:
        f.write(header)
        f.truncate(size)  # sparse: the data reads back as zeros


def main(argv):
    if len(argv) == 2 and argv[1] == '--list':
        for k, c in CASES.items():
            print(k, c[0])
        return 0
    if len(argv) == 3 and argv[1] == '--all':
        for k in CASES:
            write(k, os.path.join(argv[2], k + '.gguf'))
        return 0
    if len(argv) != 3 or argv[1] not in CASES:
        sys.stderr.write(__doc__)
        return 2
    write(argv[1], argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
