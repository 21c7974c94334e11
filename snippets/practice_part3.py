"""실습 파트 3: 헤드 8개를 한 번의 배열 연산으로 계산하고, 헤드들의 패턴이 얼마나 다른지 잽니다.

6장(멀티헤드)과 같은 예제(toy_data.cat_sat_example)를 쓰므로 같은 헤드 8개가 나옵니다.
"""

from attention import merge_heads, scaled_dot_product_attention, split_heads  # 노트북에는 코어의 절이 직접
from head_stats import js_distance, mean_pairwise_js  # 노트북에는 이 절들이 직접 들어갑니다
from plotting import heatmap, use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다
from toy_data import cat_sat_example  # 노트북에는 toy_data 의 절이 직접 들어갑니다

# --8<-- [start:heads]
import numpy as np

tokens, X, params = cat_sat_example(d_model=64)  # 6장과 같은 토큰 벡터와 W_Q, W_K, W_V, W_O
d_model, h = 64, 8
W_Q, W_K, W_V, W_O = params["W_Q"], params["W_K"], params["W_V"], params["W_O"]

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

# --8<-- [start:exercise_1]
# 연습 1: 헤드 수 h_try 를 1, 2, 16 으로 바꿔 보세요. 파라미터 수와 가중치 원소 수는 어떻게 변할까요?
h_try = 1
_, w_try = scaled_dot_product_attention(*(split_heads(X @ W, h_try) for W in (W_Q, W_K, W_V)))
n_params = sum(W.size for W in (W_Q, W_K, W_V, W_O))
print(f"헤드 {h_try}개: 파라미터 {n_params:,}개, 가중치 {w_try.shape} → 원소 {w_try.size}개")
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: W_Q, W_K 를 뽑는 표준편차 std 를 0.02 로 줄이면 헤드 사이의 거리는 어떻게 될까요?
std = 1 / np.sqrt(d_model)  # 위의 W_Q, W_K 와 같은 크기 0.125 로 새로 뽑습니다 (시드 7 이라 위에서 잰 거리와 조금 다릅니다)
r = np.random.default_rng(7)
W_Q_s, W_K_s = (r.standard_normal((d_model, d_model)) * std for _ in range(2))
_, w_std = scaled_dot_product_attention(split_heads(X @ W_Q_s, h), split_heads(X @ W_K_s, h), Vh)
print(f"std = {std:.3f}: 헤드 사이 평균 JS 거리 {mean_pairwise_js(w_std):.3f}")
# --8<-- [end:exercise_2]

# --8<-- [start:exercise_3]
# 연습 3: 세 번째 헤드의 밸류만 바꿉니다 (W_V 의 열 16–23). W_O 를 곱하기 전과 후에 출력의 어느 열이 바뀔까요?
W_V_changed = W_V.copy()
W_V_changed[:, 16:24] += 1.0
heads_changed, _ = scaled_dot_product_attention(Qh, Kh, split_heads(X @ W_V_changed, h))
changed_before = np.any(~np.isclose(merge_heads(heads_changed), merge_heads(heads_out)), axis=0)
print("W_O 전에 바뀐 열:", np.flatnonzero(changed_before))
# --8<-- [end:exercise_3]

# --8<-- [start:solution_1]
# 풀이 1: W_Q, W_K, W_V, W_O 는 헤드 수와 상관없이 (64, 64) 라서 파라미터 수는 그대로입니다.
# 가중치 행렬은 헤드마다 6×6 하나씩이라서, 원소 수는 헤드 수에 비례합니다.
for h_s in (1, 2, 8, 16):
    _, w_s = scaled_dot_product_attention(*(split_heads(X @ W, h_s) for W in (W_Q, W_K, W_V)))
    print(f"헤드 {h_s:2d}개: 파라미터 {n_params:,}개, 가중치 원소 {w_s.size}개")
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: 값이 작으면 점수가 모두 0 근처라서, 모든 헤드가 거의 고르게 나눠 줍니다.
# 그래서 헤드끼리 구별되지 않습니다. 학습 전 실제 모델(BERT 는 표준편차 0.02)이 이쪽에 가깝습니다.
solution_2 = {}
for s in (1 / np.sqrt(d_model), 0.02):
    r = np.random.default_rng(7)
    W_Q_s, W_K_s = (r.standard_normal((d_model, d_model)) * s for _ in range(2))
    _, w_s = scaled_dot_product_attention(split_heads(X @ W_Q_s, h), split_heads(X @ W_K_s, h), Vh)
    solution_2[round(s, 3)] = mean_pairwise_js(w_s)
    print(f"std = {s:.3f}: 헤드 사이 평균 JS 거리 {solution_2[round(s, 3)]:.3f}, "
          f"가장 큰 가중치 {w_s.max():.3f} (고르게 나누면 {1 / len(tokens):.3f})")
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: W_O 를 곱하기 전에는 세 번째 헤드의 몫인 열 16–23 만 바뀝니다. 이어 붙이기는 헤드를 섞지 않습니다.
# W_O 를 곱한 뒤에는 모든 열이 바뀝니다. 헤드들의 정보를 한데 섞는 것이 W_O 의 일입니다.
changed_after = np.any(~np.isclose(merge_heads(heads_changed) @ W_O, output), axis=0)
print("W_O 전에 바뀐 열 수:", int(changed_before.sum()), " W_O 뒤에 바뀐 열 수:", int(changed_after.sum()))
# --8<-- [end:solution_3]
