"""실습 파트 3: 헤드 8개를 한 번의 배열 연산으로 계산하고, 헤드들의 패턴이 얼마나 다른지 잽니다."""

from attention import merge_heads, scaled_dot_product_attention, split_heads  # 노트북에는 코어의 절이 직접
from head_stats import js_distance, mean_pairwise_js  # 노트북에는 이 절들이 직접 들어갑니다
from plotting import heatmap, use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다

# --8<-- [start:heads]
import numpy as np

tokens = ["The", "cat", "sat", "on", "the", "mat"]
d_model, h = 64, 8
rng = np.random.default_rng(0)
X = rng.standard_normal((len(tokens), d_model))
W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))

Qh, Kh, Vh = (split_heads(X @ W, h) for W in (W_Q, W_K, W_V))  # 각각 (8, 6, 8)
heads_out, weights = scaled_dot_product_attention(Qh, Kh, Vh)  # 헤드 8개를 한 번에
output = merge_heads(heads_out) @ W_O
print("헤드별 가중치:", weights.shape, " 출력:", output.shape)
# --8<-- [end:heads]

# --8<-- [start:plot]
import matplotlib.pyplot as plt

use_korean_font()
fig, axes = plt.subplots(2, 4, figsize=(12, 6.4), layout="constrained")
for i, ax in enumerate(axes.flat):
    im = heatmap(ax, weights[i], tokens, tokens, title=f"헤드 {i + 1}", annotate=False)
fig.colorbar(im, ax=axes, shrink=0.7, label="어텐션 가중치")
plt.show()
# --8<-- [end:plot]


# --8<-- [start:compare]
uniform = np.full_like(weights[0], 1 / len(tokens))
print(f"헤드 8개 사이의 평균 JS 거리: {mean_pairwise_js(weights):.3f}")
print(f"헤드 1 을 자기 자신과 비교:   {js_distance(weights[0], weights[0]).mean():.3f}")
print(f"W_Q, W_K 를 공유한 헤드 8개: {mean_pairwise_js(np.stack([weights[0]] * 8)):.3f}")
print(f"헤드들과 균일 분포의 평균 거리: {np.mean([js_distance(w, uniform).mean() for w in weights]):.3f}")
# --8<-- [end:compare]
