"""8장 더 길게, 더 빠르게: 비용이 가는 곳, 온라인 소프트맥스와 타일링, KV 캐시, MQA/GQA, 창과 쉬는 자리, RoPE.

절(section) 하나에 생각 하나입니다. 어텐션 계산은 모두 코어(attention.py)의 함수로 하고, 여기서는
코어를 다시 만들지 않습니다. 타일 어텐션만은 계산 순서 자체가 주제라서 직접 씁니다.
입력 검사는 efficient_checks.py 에 따로 있습니다: 함수마다 첫 줄에서 check_* 하나를 부르고, 검사의 규칙과
메시지는 코어와 같습니다 (페이지가 보여 주는 코드에 검사 코드가 섞이지 않게).
시간은 재지 않습니다. 페이지와 테스트는 같음과 개수(점수 칸, 곱셈, 바이트)와 tracemalloc 이 센 메모리만 봅니다.
"""
# 8장과 디코더(gemma_decoder.py)가 함께 쓰는 함수들은 attention_variants.py 에 있습니다 (페이지는 두 파일의 절을 차례로 보여 줍니다)
from attention_variants import copy_heads, grouped_query_attention, kv_bytes_per_token, rope, sliding_window_mask

# --8<-- [start:cost]
import tracemalloc

import numpy as np

from attention import scaled_dot_product_attention
from efficient_checks import check_callable, check_random_qkv


def peak_bytes(fn, *args, **kwargs):
    """fn 을 부르는 동안 새로 잡은 메모리의 최고점 (바이트, 파이썬의 tracemalloc 으로 잽니다)."""
    fn = check_callable(fn)
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        if not was_tracing:
            tracemalloc.stop()


def random_qkv(n, d=64, seed=0, dtype=np.float64):
    n, d, seed, dtype = check_random_qkv(n, d, seed, dtype)
    r = np.random.default_rng(seed)
    return tuple(r.standard_normal((n, d)).astype(dtype) for _ in range(3))


# 헤드 하나의 폭
d = 64
sizes = (256, 512, 1024, 2048)
core_peak = {n: peak_bytes(scaled_dot_product_attention, *random_qkv(n)) for n in sizes}
print("    n     점수 칸  GFLOP  최고 메모리")
for n in sizes:
    # Q Kᵀ 와 가중치 @ V, 두 번의 행렬 곱
    flop = 2 * n * n * d * 2
    print(f"{n:5d} {n * n:11,d} {flop / 1e9:6.2f} {core_peak[n] / 1e6:7.1f} MB")
print(f"n 2배 → 메모리 {core_peak[2048] / core_peak[1024]:.1f}배")
print(f"점수 배열(n² × 8 B)의 {core_peak[2048] / (2048 ** 2 * 8):.1f}배")
# --8<-- [end:cost]


# --8<-- [start:online]
from efficient_checks import check_online


def online_softmax(x, block):
    """1차원 점수 x 를 block 개씩 읽으며 최댓값 m 과 합 l 을 이어 갑니다. 다 읽은 뒤 한 번 나눕니다."""
    x, block = check_online(x, block)
    m, l, steps = -np.inf, 0.0, []
    for j in range(0, x.size, block):
        chunk = x[j:j + block]
        m_new = max(m, chunk.max())
        # 예전 합을 새 최댓값 기준으로 고쳐 더합니다
        l = l * np.exp(m - m_new) + np.exp(chunk - m_new).sum()
        m = m_new
        steps.append((m, l))
    return np.exp(x - m) / l, steps


from attention import softmax

# 한 쿼리의 점수 8개
row = np.array([1.0, 3.0, 2.0, 6.0, 0.0, 4.0, 5.0, 2.0])
p_online, steps = online_softmax(row, block=3)
for i, (m, l) in enumerate(steps, start=1):
    print(f"블록 {i}: m = {m:.0f}, l = {l:.4f}")
print("코어 softmax 와 최대 차이:", f"{np.abs(p_online - softmax(row)).max():.1e}")
# --8<-- [end:online]


# --8<-- [start:tiled]
from efficient_checks import check_tiled, output_in_range, scores_in_range


def tiled_attention(q, k, v, mask=None, block=128):
    """softmax(Q Kᵀ/√d_k) V 를 (block × block) 조각으로: n × n 점수를 한꺼번에 만들지 않습니다.

    입력 약속(모양, dtype, True = 볼 수 있음, 모든 키가 가려진 행은 0)과 오류 메시지는 코어와 같습니다.
    """
    q, k, v, mask, block = check_tiled(q, k, v, mask, block)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    if mask is not None:
        # 뷰라서 메모리를 더 쓰지 않습니다
        mask = np.broadcast_to(mask, (*lead, n_q, n_k))
    # 나누기 전의 가중합(아래 acc)은 |v| 의 n_k 배까지 커집니다. 그 값이 dtype 을 넘을 만큼 v 가 크면
    # v 를 2의 거듭제곱 shrink 로 나눠 계산하고 끝에 곱해 되돌립니다 (2의 거듭제곱이라 반올림이 없습니다).
    v_top = max(v.max(initial=0), -v.min(initial=0))
    roof = np.finfo(q.dtype).max / (2 * max(n_k, 1))
    shrink = q.dtype.type(2.0 ** np.ceil(np.log2(v_top / roof)) if v_top > roof else 1.0)
    v_work = v / shrink if shrink > 1 else v
    root = np.sqrt(q.dtype.type(q.shape[-1]))
    out = np.zeros((*lead, n_q, d_v), dtype=q.dtype)
    for i in range(0, n_q, block):
        qi = q[..., i:i + block, :]
        # 행마다 지금까지의 최댓값 m, exp 합 l, 나누기 전의 가중합 acc
        m = np.full((*lead, qi.shape[-2], 1), -np.inf, dtype=q.dtype)
        l = np.zeros_like(m)
        acc = np.zeros((*lead, qi.shape[-2], d_v), dtype=q.dtype)
        for j in range(0, n_k, block):
            with np.errstate(over="ignore", invalid="ignore"):
                s = qi @ np.swapaxes(k[..., j:j + block, :], -1, -2) / root
            scores_in_range(s, q, k)
            if mask is not None:
                s = np.where(mask[..., i:i + block, j:j + block], s, -np.inf)
            m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
            # 아직 볼 수 있는 키가 없는 행은 기준을 0 으로
            base = np.where(m_new == -np.inf, 0, m_new)
            # 예전 합과 가중합을 새 최댓값 기준으로 고치는 배율
            fix = np.exp(m - base)
            p = np.exp(s - base)
            l = l * fix + p.sum(axis=-1, keepdims=True)
            acc = acc * fix + p @ v_work[..., j:j + block, :]
            m = m_new
        out[..., i:i + block, :] = np.divide(acc, l, out=np.zeros_like(acc), where=l > 0)
    with np.errstate(over="ignore"):
        out *= shrink
    return output_in_range(out, v)
# --8<-- [end:tiled]


# --8<-- [start:tiled_check]
from attention import causal_mask

# 블록 128로 나누어떨어지지 않는 길이
q, k, v = random_qkv(1000)
for name, mask in (("마스크 없음", None), ("인과 마스크", causal_mask(1000))):
    gap = np.abs(tiled_attention(q, k, v, mask) - scaled_dot_product_attention(q, k, v, mask)[0]).max()
    print(f"{name}: 코어와 최대 차이 {gap:.1e}")

tiled_peak = {n: peak_bytes(tiled_attention, *random_qkv(n)) for n in sizes}
n = 2048
print(f"n = {n} 최고 메모리")
print(f"  코어 {core_peak[n] / 1e6:7.1f} MB")
print(f"  타일 {tiled_peak[n] / 1e6:7.1f} MB")
print(f"  출력 {n * d * 8 / 1e6:7.1f} MB")
# --8<-- [end:tiled_check]


# --8<-- [start:work]
from efficient_checks import check_work


def attention_work(n_q, n_k, d, block=None):
    """행렬 곱 두 번의 FLOP, 그리고 타일이면 블록마다 예전 합과 가중합을 고치는 곱셈 수와 조각 수."""
    n_q, n_k, d, block = check_work(n_q, n_k, d, block)
    matmul = 2 * n_q * n_k * d * 2
    if block is None:
        return {"행렬 곱": matmul, "고치기": 0, "조각": 1}
    # 올림 나눗셈
    key_blocks = -(-n_k // block)
    return {"행렬 곱": matmul, "고치기": n_q * key_blocks * (d + 1),
            "조각": -(-n_q // block) * key_blocks}


plain, tiled = attention_work(2048, 2048, d), attention_work(2048, 2048, d, block=128)
print("n = 2048, d = 64, 블록 128")
print(f"  행렬 곱 FLOP  코어 {plain['행렬 곱'] / 1e9:.2f}G, 타일 {tiled['행렬 곱'] / 1e9:.2f}G")
print(f"  타일의 고치기 곱셈 +{tiled['고치기']:,}")
print(f"  numpy 를 부르는 조각 {tiled['조각']}개")
# --8<-- [end:work]


# --8<-- [start:flash_papers]
# 논문이 보고한 숫자입니다 (이 사이트가 GPU 에서 잰 값이 아닙니다).
# FlashAttention 그림 2 왼쪽: GPT-2 medium (길이 1024, 헤드 폭 64, 헤드 16개, 배치 64), A100, 순전파 + 역전파.
# 값은 차례대로 GFLOP, HBM 을 읽고 쓴 양(GB), 시간(ms)
fa1_fig2 = {"표준": (66.6, 40.3, 41.7), "Flash": (75.2, 4.4, 7.3)}
print("FlashAttention 그림 2 (A100)")
print(" GFLOP  HBM GB     ms")
for name, (gflop, hbm, ms) in fa1_fig2.items():
    print(f"{gflop:6.1f} {hbm:7.1f} {ms:6.1f}  {name}")
(f_std, h_std, t_std), (f_fa, h_fa, t_fa) = fa1_fig2.values()
print(f"HBM {h_std / h_fa:.1f}배 적게")
print(f"시간 {t_std / t_fa:.1f}배 짧게")
print(f"FLOP 은 {f_fa / f_std:.2f}배로 늘어남")
# --8<-- [end:flash_papers]


# --8<-- [start:decoder]
from attention import merge_heads, multi_head_attention, split_heads
from efficient_checks import check_decoder_sizes, check_generate, check_model, check_step, check_tokens


def toy_decoder(vocab=512, d_model=256, heads=4, max_len=1100, seed=0):
    """층 하나짜리 장난감 디코더의 파라미터: 토큰·위치 임베딩과 W_Q, W_K, W_V, W_O (학습하지 않은 무작위 값)."""
    vocab, d_model, heads, max_len, seed = check_decoder_sizes(vocab, d_model, heads, max_len, seed)
    r = np.random.default_rng(seed)
    p = {name: r.standard_normal((d_model, d_model)) / np.sqrt(d_model) for name in ("W_Q", "W_K", "W_V", "W_O")}
    # E: 토큰 임베딩, P: 자리마다 학습했다고 치는 위치 임베딩, U: 마지막 벡터 → 다음 토큰의 로짓
    p["E"] = r.standard_normal((vocab, d_model))
    p["P"] = r.standard_normal((max_len, d_model)) * 0.5
    p["U"] = r.standard_normal((d_model, vocab)) / np.sqrt(d_model)
    p["heads"] = heads
    return p


def next_logits_without_cache(p, tokens):
    """캐시 없이: 지금까지의 토큰 t 개를 모두 다시 계산하고 마지막 자리의 로짓만 씁니다.

    돌려주는 값: (로짓, 계산한 점수 칸 수)."""
    tokens = check_tokens(p, tokens)
    t = len(tokens)
    x = p["E"][tokens] + p["P"][:t]
    attn = {name: p[name] for name in ("W_Q", "W_K", "W_V", "W_O")}
    out, _ = multi_head_attention(x, x, attn, p["heads"], mask=causal_mask(t))
    return (x + out)[-1] @ p["U"], p["heads"] * t * t


def next_logits_with_cache(p, token, pos, cache):
    """KV 캐시로: 새 토큰 하나의 q, k, v 만 만들고, k 와 v 는 캐시에 붙여 둡니다."""
    token, pos = check_step(p, token, pos, cache)
    # x 는 (1, d_model), q·k·v 는 각각 (헤드, 1, 폭)
    x = (p["E"][token] + p["P"][pos])[None]
    q, k, v = (split_heads(x @ p[name], p["heads"]) for name in ("W_Q", "W_K", "W_V"))
    cache["K"][:, pos], cache["V"][:, pos] = k[:, 0], v[:, 0]
    cache["length"] = pos + 1
    # 새 쿼리는 마지막 자리라서 인과 마스크의 마지막 행(앞쪽 모두 True)과 같습니다: 마스크가 필요 없습니다.
    o, _ = scaled_dot_product_attention(q, cache["K"][:, :pos + 1], cache["V"][:, :pos + 1])
    return (x + merge_heads(o) @ p["W_O"])[0] @ p["U"], p["heads"] * (pos + 1)


def empty_cache(p):
    """빈 캐시: 헤드마다 max_len 자리의 K, V 와, 앞에서부터 채운 자리 수 length."""
    check_model(p)
    heads, d_model = p["heads"], p["W_Q"].shape[0]
    shape = (heads, p["P"].shape[0], d_model // heads)
    return {"K": np.zeros(shape), "V": np.zeros(shape), "length": 0}


def prefill(p, tokens):
    """토큰들의 k, v 를 한꺼번에 계산해 캐시에 채웁니다 (프롬프트를 읽는 단계)."""
    tokens = check_tokens(p, tokens, allow_empty=True)
    cache, t = empty_cache(p), len(tokens)
    x = p["E"][tokens] + p["P"][:t]
    cache["K"][:, :t], cache["V"][:, :t] = (split_heads(x @ p[name], p["heads"]) for name in ("W_K", "W_V"))
    cache["length"] = t
    return cache


def generate(p, prompt, steps, use_cache):
    """가장 점수가 높은 토큰을 하나씩 고릅니다. (토큰들, 로짓들, 계산한 점수 칸 수의 합)"""
    prompt, steps, use_cache = check_generate(p, prompt, steps, use_cache)
    tokens, logits, entries, cache = list(prompt), [], 0, empty_cache(p)
    for pos in range(len(prompt) + steps - 1):
        if use_cache:
            z, e = next_logits_with_cache(p, tokens[pos], pos, cache)
        elif pos >= len(prompt) - 1:
            z, e = next_logits_without_cache(p, tokens[:pos + 1])
        else:
            # 캐시가 없으면 프롬프트 안의 자리는 따로 계산할 까닭이 없습니다
            continue
        entries += e
        if pos >= len(prompt) - 1:
            logits.append(z)
            tokens.append(int(np.argmax(z)))
    return tokens, np.array(logits), entries
# --8<-- [end:decoder]


# --8<-- [start:kv_cache]
model = toy_decoder()
prompt = [7, 42, 3, 99]
plain_tokens, plain_logits, plain_entries = generate(model, prompt, 60, use_cache=False)
cached_tokens, cached_logits, cached_entries = generate(model, prompt, 60, use_cache=True)
print("토큰 64개가 같은가?", plain_tokens == cached_tokens)
print("로짓 최대 차이:", f"{np.abs(plain_logits - cached_logits).max():.1e}")
print(f"점수 칸: 캐시 없이 {plain_entries:,}")
print(f"        KV 캐시로 {cached_entries:,}")
print(f"→ {plain_entries / cached_entries:.0f}배 적게")
# --8<-- [end:kv_cache]


# --8<-- [start:kv_bytes_use]


layers, context = 32, 4096
print("쿼리 헤드 32개, 헤드 폭 128, float16")
for kv_heads, name in ((32, "MHA"), (8, "GQA-8"), (1, "MQA")):
    per_token = kv_bytes_per_token(kv_heads)
    total = per_token * layers * context
    print(f"{name:5s} {per_token:6,d} B/토큰 → {total / 2**20:5,.0f} MiB")
print(f"(층 {layers}개, 토큰 {context:,}개일 때)")
# --8<-- [end:kv_bytes_use]


# --8<-- [start:gqa_use]


r = np.random.default_rng(1)
# 토큰 10개, d_model 64. 쿼리 헤드 8개, K·V 헤드 2개
X = r.standard_normal((10, 64))
h, g, d_head = 8, 2, 8
W_Q, W_O = (r.standard_normal((64, 64)) / 8 for _ in range(2))
# W_K_g, W_V_g 는 K·V 헤드 2개분의 열만 있습니다
W_K_g, W_V_g = (r.standard_normal((64, g * d_head)) / 8 for _ in range(2))
out_gqa, _ = grouped_query_attention(split_heads(X @ W_Q, h), split_heads(X @ W_K_g, g),
                                     split_heads(X @ W_V_g, g))
out_gqa = merge_heads(out_gqa) @ W_O


# --8<-- [end:gqa_use]
# --8<-- [start:gqa_use_1]


mha = {"W_Q": W_Q, "W_K": copy_heads(W_K_g, g, h), "W_V": copy_heads(W_V_g, g, h), "W_O": W_O}
out_mha, _ = multi_head_attention(X, X, mha, h)
print("복사한 헤드의 MHA 와 같은가?", np.allclose(out_gqa, out_mha, rtol=1e-12, atol=1e-12))
print(f"K·V 파라미터: GQA {W_K_g.size + W_V_g.size:,}, MHA {mha['W_K'].size + mha['W_V'].size:,}")
# --8<-- [end:gqa_use_1]


# --8<-- [start:gqa_paper]
# GQA 논문(Ainslie 외 2023) 표 1의 T5-XXL: 샘플 하나의 추론 시간(TPUv4 칩 하나당)과 7개 과제의 평균 점수.
# MQA 와 GQA-8 은 멀티헤드로 학습한 모델을 바꾼 뒤 원래 사전 학습 계산의 5% 만큼 더 학습(uptraining)한 것입니다.
gqa_table = {"MHA": (1.51, 47.2), "GQA-8": (0.28, 47.1), "MQA": (0.24, 46.6)}
print("GQA 논문 표 1, T5-XXL")
print("초/샘플  평균")
for name, (sec, score) in gqa_table.items():
    print(f"{sec:6.2f} {score:6.1f}  {name}")
print(f"GQA-8: MHA 보다 {gqa_table['MHA'][0] / gqa_table['GQA-8'][0]:.1f}배 빠름")
# --8<-- [end:gqa_paper]


# --8<-- [start:window_use]


n = 4096
print(f"n = {n:,}, 마지막 쿼리가 보는 키")
for name, mask in (("인과", causal_mask(n)), ("창 1,020", sliding_window_mask(n, 1020)),
                   ("맨 앞 4 + 창 1,020", sliding_window_mask(n, 1020, sinks=4))):
    print(f"{mask[-1].sum():5,d}개  {name}")
# --8<-- [end:window_use]


# --8<-- [start:streaming_paper]
# StreamingLLM 논문(Xiao 외 2024)의 표 1: Llama-2-13B, PG19 테스트 세트 첫 책(토큰 65K)의 퍼플렉서티(낮을수록 좋음).
# 이 모델은 창 없이(모든 앞 토큰을 보며) 학습했고, 여기서는 창으로 돌립니다.
# "4+1020" 은 맨 앞 토큰 4개와 최근 토큰 1020개를 캐시에 두는 설정입니다.
# 셋째 줄은 맨 앞 토큰 4개를 줄바꿈 토큰 "\n" 4개로 바꾼 것입니다: 뜻보다 자리가 중요하다는 증거입니다.
streaming_table = {"0+1024 (창만)": 5158.07, "4+1020": 5.40, "4+1020 (줄바꿈)": 5.60}
print("StreamingLLM 표 1: 퍼플렉서티")
for name, ppl in streaming_table.items():
    print(f"{ppl:8.2f}  {name}")
print("토큰 4,000,000개까지 안정 (그림 5)")
print("다시 계산하는 창보다 최대 22.2배 빠름")
# --8<-- [end:streaming_paper]


# --8<-- [start:sink]
# 한 쿼리가 키 셋에 준 점수와, 밸류 없이 소프트맥스의 분모에만 들어가는 쉬는 자리 점수 b
scores = np.array([2.0, 1.0, 0.5])
b = 1.5
# 칸 하나를 더해 소프트맥스한 뒤 그 칸을 버립니다
with_sink = softmax(np.append(scores, b))[:-1]
formula = np.exp(scores) / (np.exp(scores).sum() + np.exp(b))
print("식과 같은가?", np.allclose(with_sink, formula, rtol=1e-15, atol=0))
print(f"가중치 합 {with_sink.sum():.3f} (< 1)")

# b = 0 은 키와 밸류가 모두 0 인 토큰을 맨 앞에 붙인 것과 같습니다 (점수 q·0 = 0).
q1, K1, V1 = (r.standard_normal((m, 16)) for m in (1, 5, 5))
zero = np.zeros((1, 16))
out_zero, w_zero = scaled_dot_product_attention(q1, np.vstack([zero, K1]), np.vstack([zero, V1]))
e = np.exp(q1 @ K1.T / 4)
print("영 벡터 토큰 = 점수 0 인 쉬는 자리?", np.allclose(out_zero, e @ V1 / (e.sum() + 1)))
# --8<-- [end:sink]


# --8<-- [start:rope_use]


# 길이 1 인 쿼리와 키: 점수가 -1 과 1 사이
qv, kv = r.standard_normal((2, 64))
qv, kv = qv / np.linalg.norm(qv), kv / np.linalg.norm(kv)
# 오프셋: 쿼리가 키보다 몇 자리 뒤인가
offsets = np.arange(0, 4097)


def rope_scores(shift):
    """키는 자리 shift, 쿼리는 자리 shift + 오프셋에 두었을 때의 점수 q·k (오프셋마다)."""
    q_rot = rope(np.tile(qv, (offsets.size, 1)), shift + offsets)
    k_rot = rope(kv[None], [shift])
    return q_rot @ k_rot[0]


# 둘을 함께 옮기는 거리
shifts = (100, 1000, 4000)
rope_gap = max(np.abs(rope_scores(s) - rope_scores(0)).max() for s in shifts)
print("오프셋 0–4,096")
print(f"함께 옮긴 거리 {shifts}")
print(f"점수 최대 차이 {rope_gap:.1e}")
# --8<-- [end:rope_use]


# --8<-- [start:quiz_1]
for block in (1, 3, 8):
    p_b, _ = online_softmax(row, block)
    print(f"블록 {block}: 코어와 최대 차이 {np.abs(p_b - softmax(row)).max():.1e}")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 헤드 폭 128, float16, 층 32개. 캐시는 (KV 헤드 수) × (토큰 수) 에 비례합니다
n_layers, n_tokens, longer = 32, 8192, 4
kv_heads_gqa, query_heads = 8, 32


def cache_gib(kv_heads, tokens):
    return kv_bytes_per_token(kv_heads) * n_layers * tokens / 2**30


total_mha = cache_gib(query_heads, n_tokens)
gqa_short = cache_gib(kv_heads_gqa, n_tokens)
gqa_long = cache_gib(kv_heads_gqa, n_tokens * longer)
print(f"MHA({query_heads}), {n_tokens:,} 토큰: {total_mha:.0f} GiB")
print(f"GQA-{kv_heads_gqa}, {n_tokens:,} 토큰: {gqa_short:.0f} GiB")
print(f"GQA-{kv_heads_gqa}, {n_tokens * longer:,} 토큰: {gqa_long:.0f} GiB")
print(f"MHA({query_heads}), {n_tokens * longer:,} 토큰: {cache_gib(query_heads, n_tokens * longer):.0f} GiB")
# --8<-- [end:quiz_2]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_2():
    """문제 2: MHA(4 GiB) 를 GQA-8 로 바꾸고 문맥을 4배로 늘리면 캐시가 몇 GiB 인지."""
    from predict import number, wrong

    values = {"mha": f"{total_mha:.0f}", "short": f"{gqa_short:.0f}", "long": f"{gqa_long:.0f}",
              "kv": str(kv_heads_gqa), "q": str(query_heads), "longer": str(longer),
              "only_tokens": f"{cache_gib(query_heads, n_tokens * longer):.0f}"}
    return number(
        label="캐시의 크기",
        unit="GiB",
        answer=gqa_long,
        tolerance=0.01,
        right="캐시는 KV 헤드 수와 토큰 수의 곱에 비례합니다. KV 헤드가 {q}개에서 {kv}개로 줄어 {mha} GiB가 {short} GiB가 되고, "
        "토큰이 {longer}배가 되어 다시 {long} GiB입니다. 같은 메모리로 {longer}배 긴 문맥을 두는 것이 GQA의 쓸모입니다.",
        wrong=[
            wrong(total_mha * longer, 0.01, "토큰만 {longer}배로 세어 {only_tokens} GiB가 되었나요? 쿼리 헤드는 {q}개 그대로지만 캐시에 두는 것은 "
                  "KV 헤드 {kv}개의 키와 밸류뿐이라, 헤드 쪽에서 {longer}분의 일로 줄어듭니다."),
            wrong(gqa_short, 0.01, "KV 헤드를 줄인 효과만 셌나요? 그것은 문맥이 그대로일 때({short} GiB)이고, 토큰이 "
                  "{longer}배면 캐시도 {longer}배입니다."),
            wrong(gqa_short / longer, 0.01, "토큰이 늘어도 캐시가 준다고 봤나요? 토큰마다 키와 밸류가 하나씩 쌓이므로 "
                  "문맥이 길어지면 캐시는 커집니다."),
        ],
        other="캐시는 (KV 헤드 수) × (토큰 수)에 비례합니다. 두 수가 각각 몇 배가 되었는지 곱해 보세요.",
        values=values,
    )

# --8<-- [start:quiz_3]
m3 = sliding_window_mask(200, 4, sinks=4)
print("쿼리 100이 보는 키:")
print(np.flatnonzero(m3[100]).tolist())
print(f"인과 마스크라면 {int(causal_mask(200)[100].sum())}개")
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# 점수가 모두 0 인 키 셋과 쉬는 자리 점수 b = ln 3
three = np.zeros(3)
w4 = softmax(np.append(three, np.log(3)))[:-1]
print("가중치:", w4.round(3), " 합:", round(w4.sum(), 3))
# --8<-- [end:quiz_4]


# --8<-- [start:figures]
from efficient_checks import check_work_per_token


def figure_cost(narrow=False):
    """n 에 따른 최고 메모리: 코어는 n² 을, 타일 어텐션은 출력처럼 n 을 따라갑니다 (tracemalloc 측정)."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, finish, log_axes, width

    t = current_theme()
    ns = np.array(sizes)
    fig, ax = plt.subplots(figsize=(width(narrow), 4.4 if narrow else 3.6), layout="constrained")
    ax.plot(ns, [core_peak[n] / 1e6 for n in sizes], "o-", color=t["accent"], label="코어: 점수를 다 만들기")
    ax.plot(ns, [tiled_peak[n] / 1e6 for n in sizes], "s-", color=t["accent2"], label="타일: 블록 128")
    ax.plot(ns, ns * d * 8 / 1e6, ":", color=t["muted"], label="출력 (n × 64)")
    log_axes(ax, ns)
    # 10⁻¹ 대신 보통 숫자로
    ax.set_yticks([0.1, 1, 10, 100], labels=["0.1", "1", "10", "100"])
    finish(ax, "토큰 수 n", "최고 메모리 (MB, float64)", "코어는 n² 을 따라, 타일은 출력 크기 가까이")
    return fig


POSITIONS = (64, 128, 256, 512, 1024)


def work_per_token(t, d_model=256, vocab=512):
    """자리 t 에서 토큰 하나를 만들 때의 FLOP (층 하나): 캐시 없이, KV 캐시로, 그리고 KV 캐시 가운데 어텐션의 몫.

    투영(W_Q, W_K, W_V, W_O)과 로짓은 캐시로 만들 때 t 와 상관없고, 어텐션(q·kᵀ 와 가중치 @ v)은 t 에 비례합니다.
    """
    t, d_model, vocab = check_work_per_token(t, d_model, vocab)
    proj = 2 * 4 * d_model * d_model
    logits = 2 * d_model * vocab
    attention = 2 * 2 * t * d_model
    return {"캐시 없이": t * proj + 2 * 2 * t * t * d_model + logits,
            "KV 캐시": proj + attention + logits, "KV 캐시의 어텐션": attention}


def figure_kv_work(narrow=False):
    """토큰 하나를 만드는 FLOP (센 값): 캐시 없이, KV 캐시로, 그리고 KV 캐시 가운데 어텐션의 몫.

    시간은 싣지 않습니다: numpy 로 잰 토큰 하나의 시간은 수십 µs 라서 컴퓨터와 그때의 부하에 따라 흔들리고,
    캐시를 쓴 쪽은 호출마다 드는 고정 비용이 커서 자리에 따른 차이보다 흔들림이 큽니다 (긴 자리가 더 빨라 보입니다).
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    from plotting import current_theme, finish, log_axes, width

    t = current_theme()
    ts = np.array(POSITIONS)
    counted = {key: [work_per_token(int(x))[key] / 1e6 for x in ts] for key in ("캐시 없이", "KV 캐시", "KV 캐시의 어텐션")}
    fig, ax = plt.subplots(figsize=(width(narrow), 4.6 if narrow else 3.6), layout="constrained")
    ax.plot(ts, counted["캐시 없이"], "o-", color=t["accent"], label="캐시 없이")
    ax.plot(ts, counted["KV 캐시"], "s-", color=t["accent2"], label="KV 캐시")
    ax.plot(ts, counted["KV 캐시의 어텐션"], "^:", color=t["accent2"], label="KV 캐시 가운데 어텐션")
    log_axes(ax, ts)
    # 10⁻¹ 대신 0.1 처럼 보통 숫자로
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    finish(ax, "만드는 자리 t", "토큰 하나의 FLOP (백만)", "캐시를 써도 어텐션의 몫은 t 와 함께 늘어남")
    return fig


def figure_masks(narrow=False):
    """토큰 16개의 마스크 세 가지: 인과, 창 4, 맨 앞 4개 + 창 4. 칠한 칸이 볼 수 있는 키입니다.

    세 판이 작은 정사각형이라 좁은 판도 한 줄에 둡니다 (쌓으면 휴대전화에서 세 화면이 됩니다).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from plotting import current_theme, width

    t = current_theme()
    masks = (("인과", causal_mask(16)), ("창 4", sliding_window_mask(16, 4)),
             ("앞 4개 + 창 4", sliding_window_mask(16, 4, sinks=4)))
    fig, axes = plt.subplots(1, 3, figsize=(width(narrow), 2.9 if narrow else 3.0), layout="constrained",
                             sharey=True)
    cmap = ListedColormap([t["grid"], t["accent"]])
    for ax, (title, mask) in zip(axes, masks):
        ax.imshow(mask, cmap=cmap, vmin=0, vmax=1)
        ax.set_title(f"{title}\n마지막 행 {mask[-1].sum()}칸")
        # 자리는 코드처럼 0부터 셉니다
        ax.set_xticks([0, 15])
        ax.set_yticks([0, 15])
        ax.set_xlabel("키")
    axes[0].set_ylabel("쿼리")
    return fig
# --8<-- [end:figures]
