"""6장 멀티헤드 어텐션: 한 번의 배열 연산으로 계산하기, 파라미터와 FLOP 세기."""

# --8<-- [start:setup]
import numpy as np

from attention import (
    merge_heads, multi_head_attention,
    scaled_dot_product_attention, split_heads)
from toy_data import cat_sat_example

np.set_printoptions(precision=3,
                    suppress=True)

# 4장의 히트맵과 같은 토큰 벡터와 W_Q, W_K,
# W_V 입니다. 거기서는 헤드 하나(d_k = 64)로
# 썼고, 여기서는 같은 행렬의 열을 헤드 8개로
# 나눠 씁니다. W_O 는 이 장에서 처음 씁니다.
# X: (6, 64), 행렬 네 개: 각각 (64, 64)
tokens, X, params = cat_sat_example(
    d_model=64)
d_model, h = 64, 8
# 헤드 하나의 폭: 64 / 8 = 8
d_head = d_model // h
print("X:", X.shape)
print(f"헤드 수 {h}, 헤드마다 폭 {d_head}")
# --8<-- [end:setup]

# --8<-- [start:split]
# (6, 64): 여덟 헤드의 쿼리가 열 방향으로
# 나란히 붙어 있습니다
Q = X @ params["W_Q"]
# (8, 6, 8): 헤드 축을 앞으로
Qh = split_heads(Q, h)
print("Q:", Q.shape)
print("헤드로 나누면", Qh.shape)
# 코드의 인덱스는 0부터, 헤드 이름은 1부터
# 셉니다: Qh[2] 는 세 번째 헤드입니다.
print("세 번째 헤드(Qh[2])는 Q 의 열 16–23 인가?",
      np.array_equal(Qh[2], Q[:, 16:24]))
# --8<-- [end:split]

# --8<-- [start:batched]
Kh = split_heads(X @ params["W_K"], h)
Vh = split_heads(X @ params["W_V"], h)
# 여덟 헤드를 한 번에
heads_out, weights = (
    scaled_dot_product_attention(Qh, Kh, Vh))
print("헤드별 출력:", heads_out.shape)
print("헤드별 가중치:", weights.shape)
# 이어 붙이고 (6, 64) → W_O 로 섞기
out = merge_heads(heads_out) @ params["W_O"]
print("이어 붙인 뒤 W_O 를 곱한 출력:", out.shape)
# --8<-- [end:batched]

# --8<-- [start:loop_check]
# 같은 계산을 헤드마다 Python 반복문으로
# 해서 비교합니다.
K = X @ params["W_K"]
V = X @ params["W_V"]
pieces = []
for i in range(h):
    cols = slice(i * d_head, (i + 1) * d_head)
    o, _ = scaled_dot_product_attention(
        Q[:, cols], K[:, cols], V[:, cols])
    pieces.append(o)
loop_out = (np.concatenate(pieces, axis=-1)
            @ params["W_O"])
print("반복문 결과와 같은가?",
      np.allclose(loop_out, out))
core_out, _ = multi_head_attention(X, X, params, h)
print("코어의 multi_head_attention 과 같은가?",
      np.allclose(core_out, out))
# --8<-- [end:loop_check]

# --8<-- [start:own_matrices]
# "헤드마다 자기 W_Q 를 갖는다"는 말과
# "큰 W_Q 하나를 열로 나눈다"는 말은
# 같은 뜻입니다. 헤드 i 의 W_Q: (64, 8)
W_Q_heads = [params["W_Q"][:, i * d_head:(i + 1) * d_head]
             for i in range(h)]
print("첫 번째 헤드의 W_Q:", W_Q_heads[0].shape)
print("그 헤드의 쿼리가 같은가?",
      np.array_equal(X @ W_Q_heads[0], Qh[0]))
# --8<-- [end:own_matrices]


# --8<-- [start:cost]
def attention_cost(n, d_model, h):
    """멀티헤드 어텐션 층 하나의 비용, 공식으로.

    곱하고 더하기 한 번 = 2 FLOP.
    """
    d_head = d_model // h
    # Q, K, V 투영과 W_O
    proj = 4 * n * d_model * d_model
    # 헤드마다 Q Kᵀ 와 가중치 @ V
    attn = 2 * h * n * n * d_head
    return {
        # W_Q, W_K, W_V, W_O (편향 제외)
        "파라미터": 4 * d_model * d_model,
        "FLOP": 2 * (proj + attn),
        # 소프트맥스를 거치는 칸 수
        # = 가중치 행렬의 메모리
        "가중치 원소": h * n * n,
    }


def matmul_flops(a, b):
    """a @ b 를 실제로 계산할 때의 FLOP.

    앞쪽 축 × m × k × n 번 곱하고 더합니다.
    """
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    return 2 * int(np.prod(batch)) * m * k * n


def measured_cost(n, d_model, h, seed=0):
    """실제 배열로 계산하며 셉니다.

    FLOP 은 곱한 배열들의 모양으로,
    파라미터는 원소 수로 셉니다.
    """
    r = np.random.default_rng(seed)
    x = r.standard_normal((n, d_model)).astype(np.float32)
    p = {k: (r.standard_normal((d_model, d_model)) / np.sqrt(d_model)).astype(np.float32)
         for k in ("W_Q", "W_K", "W_V", "W_O")}
    q, k, v = (split_heads(x @ p[name], h) for name in ("W_Q", "W_K", "W_V"))
    heads, w = scaled_dot_product_attention(q, k, v)
    # 투영 세 번
    flops = 3 * matmul_flops(x, p["W_Q"])
    # 헤드마다 Q Kᵀ
    flops += matmul_flops(q, np.swapaxes(k, -1, -2))
    # 헤드마다 가중치 @ V
    flops += matmul_flops(w, v)
    # 이어 붙인 뒤 W_O
    flops += matmul_flops(merge_heads(heads), p["W_O"])
    return {"파라미터": sum(a.size for a in p.values()),
            "FLOP": flops,
            "가중치 원소": w.size}


# 토큰 512개, 원 논문 base 모델의 폭 512
n = 512
cost = {heads: measured_cost(n, 512, heads)
        for heads in (1, 8)}
# 휴대전화의 실행 결과 상자에 들어가게 헤드 수를
# 열로, 센 값을 줄로 찍습니다.
print("헤드 h개, 헤드마다 폭 512 / h")
a, b = cost[1], cost[8]
print(f"{'h = 1':>9} {'h = 8':>9}")
print(f"{a['파라미터']:9,} {b['파라미터']:9,}  파라미터")
fa, fb = a["FLOP"] / 1e6, b["FLOP"] / 1e6
print(f"{fa:9,.1f} {fb:9,.1f}  FLOP(백만)")
wa, wb = a["가중치 원소"], b["가중치 원소"]
print(f"{wa:9,} {wb:9,}  가중치 원소")
print("공식과 같은가?",
      a == attention_cost(n, 512, 1),
      b == attention_cost(n, 512, 8))
# --8<-- [end:cost]

# --8<-- [start:gpt3]
# GPT-3 175B 의 설정 (Brown 외 2020, 표 2.1): 층 96개, d_model 12288, 헤드 96개, 헤드 폭 128
layers, d, heads_gpt3 = 96, 12288, 96
print("헤드 폭 d_model / 헤드 수 =", d // heads_gpt3)
# 층마다 W_Q, W_K, W_V, W_O (편향 제외)
attn_params = layers * 4 * d * d
# 층마다 d → 4d → d 인 피드포워드
ffn_params = layers * 2 * d * (4 * d)
# 소수 셋째 자리까지 (57.982 + 115.964 = 173.946 이 그대로 맞습니다). 첫째 자리로 반올림하면 58.0 + 116.0 이
# 173.9 로 찍혀 덧셈이 틀려 보입니다.
print(f"어텐션 {attn_params / 1e9:.3f}B + FFN {ffn_params / 1e9:.3f}B = {(attn_params + ffn_params) / 1e9:.3f}B")
print("(논문의 전체 175.0B 에는 임베딩 등이 더해집니다)")
# --8<-- [end:gpt3]


# --8<-- [start:quiz_1]
# BERT-base: d_model 768 에 헤드 12개
bert_width, bert_heads = 768, 12
bert_params = {heads: attention_cost(128, bert_width, heads)["파라미터"] for heads in (1, bert_heads)}
for heads, count in bert_params.items():
    print(f"d_model {bert_width}, 헤드 {heads:2d}개: 파라미터 {count:,}")
print(f"헤드 1개 ÷ 헤드 {bert_heads}개: {bert_params[1] / bert_params[bert_heads]:g}배")
print(f"헤드 {bert_heads}개일 때 헤드 하나의 폭: {bert_width // bert_heads}")
# --8<-- [end:quiz_1]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_1():
    """문제 1: 같은 폭에서 헤드를 12개에서 1개로 바꾸면 파라미터가 몇 배가 되는지."""
    from predict import number, wrong

    ratio = bert_params[1] / bert_params[bert_heads]
    values = {"params": f"{bert_params[bert_heads]:,}", "one": "1", "heads": str(bert_heads),
              "d_head": str(bert_width // bert_heads)}
    return number(
        label="헤드 {one}개일 때의 파라미터는 헤드 {heads}개일 때의 몇 배",
        unit="배",
        answer=ratio,
        tolerance=0.01,
        right="두 경우 모두 {params}개입니다. 헤드 수는 같은 (d_model, d_model) 행렬을 폭 {d_head}짜리 조각 몇 "
        "개로 나눠 쓰느냐일 뿐입니다.",
        wrong=[
            wrong(bert_heads * ratio, 0.5, "헤드가 {heads}개면 헤드 하나의 폭이 {d_head}로 좁아지니 파라미터도 그만큼 "
                  "적다고 봤나요? 좁은 W_Q가 헤드마다 하나씩, {heads}개 있습니다. 모두 이어 붙이면 헤드 하나일 때와 같은 "
                  "(d_model, d_model)이라 파라미터는 {params}개로 같습니다."),
            wrong(ratio / bert_heads, 0.01, "헤드마다 (d_model, d_model) 행렬을 따로 가져서, 헤드가 많을수록 파라미터도 "
                  "많다고 봤나요? 헤드가 {heads}개이면 헤드 하나의 W_Q는 폭이 {d_head}이고, {heads}개를 이어 붙이면 "
                  "(d_model, d_model) 하나입니다."),
        ],
        other="헤드가 {heads}개일 때 헤드 하나의 W_Q가 어떤 모양인지, 그것들을 모두 이어 붙이면 어떤 모양인지 떠올려 "
        "보세요.",
        values=values,
    )

# --8<-- [start:quiz_2]
# (배치 2, 토큰 10, d_model 768)
x = np.random.default_rng(1).standard_normal((2, 10, 768)) * 0.02
xh = split_heads(x, 12)
_, w_batch = scaled_dot_product_attention(xh, xh, xh)
print("split_heads:", xh.shape)
print("가중치:", w_batch.shape)
print("다시 합치면:", merge_heads(xh).shape)
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# 축을 바꾸지 않고 (6, 64) → (8, 6, 8)로 바로 reshape
naive = Q.reshape(h, len(tokens), d_head)
print("잘못 나눈 헤드 1(naive[0])의 여섯 행이")
print("  모두 첫 토큰(The)의 숫자인가?", np.array_equal(naive[0].ravel(), Q[0, :48]))
print("제대로 나눈 헤드 1(Qh[0])의 여섯 행은")
print("  여섯 토큰의 열 0–7 인가?", np.array_equal(Qh[0], Q[:, :8]))
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# 헤드 8개의 가중치를 평균한 (6, 6) 한 장
mean_w = weights.mean(axis=0)
print("평균한 한 장의 행 합:", mean_w.sum(axis=-1).round(6))
# 그 한 장으로 모든 밸류 열을 섞으면
from_mean = (mean_w @ (X @ params["W_V"])) @ params["W_O"]
gap = np.linalg.norm(from_mean - out) / np.linalg.norm(out)
print("멀티헤드 출력과 같은가?", np.allclose(from_mean, out))
print(f"어긋난 크기: 출력의 {gap:.0%}")
# --8<-- [end:quiz_4]

# --8<-- [start:figure]
def figure_heads(narrow=False):
    """무작위 파라미터로 만든 헤드 8개의 어텐션 가중치: 헤드마다 다른 무늬가 나오지만 언어적 의미는 없습니다."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, label_heatmap_grid, width

    rows, cols = (4, 2) if narrow else (2, 4)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 10.4 if narrow else 4.6), layout="constrained",
                             sharex=True, sharey=True)
    for i, ax in enumerate(axes.flat):
        im = heatmap(ax, weights[i], tokens, tokens, title=f"헤드 {i + 1}", annotate=False, xlabel="", ylabel="")
        ax.label_outer()  # 눈금 이름은 맨 아래 줄과 맨 왼쪽 칸에만
    label_heatmap_grid(fig, axes, im, narrow)
    return fig
# --8<-- [end:figure]
