"""실습 파트 2: "The cat sat on the mat" 의 어텐션 가중치 히트맵 (무작위 가중치)."""

from attention import scaled_dot_product_attention  # 노트북에는 코어의 절이 직접 들어갑니다
from plotting import heatmap, use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다

# --8<-- [start:tokens]
import numpy as np

tokens = ["The", "cat", "sat", "on", "the", "mat"]
d_model, d_k = 16, 16
rng = np.random.default_rng(0)
X = rng.standard_normal((len(tokens), d_model))  # 학습하지 않은 무작위 토큰 벡터
W_Q, W_K, W_V = (rng.standard_normal((d_model, d_k)) / np.sqrt(d_model) for _ in range(3))
_, weights = scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V)
print("가중치:", weights.shape, " 행의 합:", weights.sum(axis=-1).round(6))
# --8<-- [end:tokens]

# --8<-- [start:plot]
import matplotlib.pyplot as plt

use_korean_font()
fig, ax = plt.subplots(figsize=(5.6, 4.6), layout="constrained")
im = heatmap(ax, weights, tokens, tokens, title="The cat sat on the mat (무작위 가중치)")
fig.colorbar(im, ax=ax, label="어텐션 가중치")
plt.show()
# --8<-- [end:plot]

# --8<-- [start:rows]
for token, row in zip(tokens, weights):
    top = int(np.argmax(row))
    print(f"'{token}' 행에서 가장 큰 가중치: '{tokens[top]}' ({row[top]:.2f})")
# --8<-- [end:rows]
