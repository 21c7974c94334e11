"""4장 어텐션 가중치 히트맵: 학습하지 않은 무작위 파라미터로 그린 히트맵이 보여 주는 것과 보여 주지 못하는 것."""

# --8<-- [start:random_weights]
import numpy as np

from attention import scaled_dot_product_attention, softmax
from toy_data import cat_sat_example, projection_weights, token_vectors

np.set_printoptions(precision=2, suppress=True)

# 3장의 탐색기, 6장, 실습 파트 2·3 과 같은 예제입니다: 학습하지 않은 무작위 토큰 벡터와 투영.
tokens, X, params = cat_sat_example(d_model=64)
d_model = d_k = 64  # 헤드 하나: W_Q, W_K, W_V 가 모두 (64, 64)
W_Q, W_K, W_V = params["W_Q"], params["W_K"], params["W_V"]
_, weights = scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V)
print("가중치 모양:", weights.shape, " 행의 합:", weights.sum(axis=-1))
print(weights)
# --8<-- [end:random_weights]

# --8<-- [start:read_row]
cat, sat = tokens.index("cat"), tokens.index("sat")
print("'cat' 행 (cat 이 각 토큰을 보는 정도):", dict(zip(tokens, weights[cat].round(2).tolist())))
print("cat → sat:", round(weights[cat, sat], 3), "  sat → cat:", round(weights[sat, cat], 3))
# --8<-- [end:read_row]

# --8<-- [start:scaling_effect]
scores = (X @ W_Q) @ (X @ W_K).T
unscaled = softmax(scores, axis=-1)  # √d_k 로 나누지 않으면
print("행마다 가장 큰 가중치 (÷√d_k):   ", weights.max(axis=-1))
print("행마다 가장 큰 가중치 (나누지 않음):", unscaled.max(axis=-1))
# --8<-- [end:scaling_effect]

# --8<-- [start:seeds]
# 시드만 바꿔 200번 다시 만들어 봅니다. 'cat' 이 가장 많이 보는 토큰은 매번 달라집니다.
top_counts = dict.fromkeys(tokens, 0)
for seed in range(200):
    X_s = token_vectors(tokens, d_model, seed=1000 + seed)
    W_Q_s, W_K_s, W_V_s = projection_weights(d_model, d_k, seed=2000 + seed)
    _, w = scaled_dot_product_attention(X_s @ W_Q_s, X_s @ W_K_s, X_s @ W_V_s)
    top_counts[tokens[int(np.argmax(w[cat]))]] += 1
print("'cat' 행에서 1등인 토큰의 횟수:", top_counts)
print("'sat' 이 1등인 비율:", top_counts["sat"] / 200, " (토큰 6개를 고르게 고르면 1/6 ≈ 0.167)")
# --8<-- [end:seeds]


# --8<-- [start:quiz_1]
# 'mat' 과 똑같은 키와 밸류를 하나 더 붙입니다. 쿼리는 그대로 여섯 개입니다.
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
mat = tokens.index("mat")
_, w_twice = scaled_dot_product_attention(Q, np.vstack([K, K[mat]]), np.vstack([V, V[mat]]))
# 넷째 자리까지: 셋째 자리로 반올림하면 0.290 + 0.290 = 0.579 처럼 덧셈이 틀려 보입니다.
print(f"'cat' 행의 mat: 하나일 때 {weights[cat, mat]:.4f}")
print(f"  둘일 때 {w_twice[cat, mat]:.4f} + {w_twice[cat, -1]:.4f} = {w_twice[cat, mat] + w_twice[cat, -1]:.4f}")
print("모든 행에서 두 mat 칸이 같은가?", np.allclose(w_twice[:, mat], w_twice[:, -1]))
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 위치 정보 없이, 'the' 자리에 'The' 와 똑같은 벡터를 넣어 봅니다.
X_same = X.copy()
X_same[4] = X[0]
_, w_same = scaled_dot_product_attention(X_same @ W_Q, X_same @ W_K, X_same @ W_V)
print("두 토큰의 행이 같은가?", np.allclose(w_same[0], w_same[4]),
      " 열이 같은가?", np.allclose(w_same[:, 0], w_same[:, 4]))
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# 출력 = Σ_j 가중치_j × V_j. 토큰 j 가 보태는 벡터의 길이는 가중치_j × |V_j| 입니다.
V = X @ W_V
row = tokens.index("The")
contribution = weights[row] * np.linalg.norm(V, axis=-1)
print("'The' 행의 가중치:     ", dict(zip(tokens, weights[row].round(2).tolist())))
print("보태는 벡터의 길이:    ", dict(zip(tokens, contribution.round(2).tolist())))
print("가중치 1등:", tokens[int(weights[row].argmax())], " 길이 1등:", tokens[int(contribution.argmax())])
# --8<-- [end:quiz_3]

# --8<-- [start:explorer_data]
def data_explorer():
    """브라우저 탐색기가 쓰는 데이터: 위 히트맵과 같은 나누기 전 점수 (d_k = 64, 3장의 탐색기와 같음)."""
    return {"title": "위 히트맵을 직접 만져 보세요 (무작위 파라미터, d_k = 64)", "tokens": tokens, "d_k": d_k,
            "scores": np.round(scores, 6).tolist()}
# --8<-- [end:explorer_data]


# --8<-- [start:figure]
def figure_random(narrow=False):
    """무작위 파라미터로 계산한 히트맵: √d_k 로 나눈 것과 나누지 않은 것 (좁은 판은 위아래로)."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, width

    rows, cols = (2, 1) if narrow else (1, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 9.4 if narrow else 4.0), layout="constrained")
    heatmap(axes[0], weights, tokens, tokens, title="무작위 파라미터, ÷ √d_k")
    im = heatmap(axes[1], unscaled, tokens, tokens, title="무작위 파라미터, 나누지 않음")
    fig.colorbar(im, ax=axes, shrink=0.8, label="어텐션 가중치", location="bottom" if narrow else "right")
    return fig
# --8<-- [end:figure]


# --8<-- [start:quiz_4]
# 가장 밝은 칸을 "고르게 나눌 때의 한 칸(1/n)" 과 견줍니다.
for n, brightest in [(len(tokens), weights[cat].max()), (60, 0.2)]:
    print(f"토큰 {n:2d}개: 고른 몫 {1 / n:.3f}, 가장 밝은 칸 {brightest:.2f} → {brightest * n:.1f}배")
# --8<-- [end:quiz_4]
