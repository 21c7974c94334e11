"""실습 파트 1: numpy 로 어텐션 구현하기 — 세 줄짜리 소프트맥스를 직접 짜고, 단계마다 모양(shape)을 찍어 봅니다.

노트북(snippets/notebooks/part1_numpy_attention.md)은 이 파일의 절(section)과 toy_data.py 의 절을 그대로
가져다 씁니다. 노트북은 저장소 밖에서도 돌아가야 하므로 절 안에서는 저장소의 모듈을 import 하지 않습니다.
소프트맥스와 네 단계는 코어 함수를 부르지 않고 직접 계산하고, 그 결과가 코어의 softmax 와
scaled_dot_product_attention 과 같다는 것은 tests/test_notebooks.py 가 확인합니다. 입력 검사와 dtype 규칙을 갖춘
코어의 softmax 는 부록(core_tour.md)에 있습니다.
"""

from toy_data import toy_qkv  # 노트북에는 toy_data 의 절이 직접 들어갑니다

# --8<-- [start:softmax]
import numpy as np


def plain_softmax(scores):
    """마지막 축(키 축)을 따라: 최댓값을 빼고(결과는 같고 exp 가 넘치지 않습니다), 지수를 취하고, 합으로 나눕니다."""
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


print(plain_softmax(np.array([2.0, 1.0, 0.1])).round(3), " 합:", plain_softmax(np.array([2.0, 1.0, 0.1])).sum())
print("아주 큰 점수도:", plain_softmax(np.array([1000.0, 999.0])).round(4))
# --8<-- [end:softmax]

# --8<-- [start:data]
# 1장·2장과 같은 "나는 학교에 간다": 토큰 3개, d_k = 4
tokens, X, Q, K, V = toy_qkv()
d_k = K.shape[-1]
print("토큰:", tokens)
print("Q:", Q.shape, " K:", K.shape, " V:", V.shape)
# --8<-- [end:data]

# --8<-- [start:steps]
# ① 내적: 모든 쿼리 × 모든 키
scores = Q @ K.T
print("① scores  = Q @ K.T        ", scores.shape)
# ② 스케일링
scaled = scores / np.sqrt(d_k)
print("② scaled  = scores / √d_k   ", scaled.shape)
# ③ 키 축(마지막 축)으로 소프트맥스
weights = plain_softmax(scaled)
print("③ weights = softmax(scaled) ", weights.shape, " 행의 합:", weights.sum(axis=-1).round(6))
output = weights @ V  # ④ 가중합
print("④ output  = weights @ V     ", output.shape)
# --8<-- [end:steps]

# --8<-- [start:exercise_1]
# 연습 1: d_k_try 를 바꿔 가며 실행해 보세요.
d_k_try = 64
rng = np.random.default_rng(0)
# 무작위 쿼리 1000개
q_try = rng.standard_normal((1000, 1, d_k_try))
# 쿼리마다 무작위 키 10개
k_try = rng.standard_normal((1000, 10, d_k_try))
# (1000, 1, 10): 나누기 전 점수
raw = q_try @ np.swapaxes(k_try, -1, -2)
print(f"d_k = {d_k_try}: 가장 큰 가중치의 평균  나누지 않음 {plain_softmax(raw).max(-1).mean():.3f}, "
      f"÷√d_k {plain_softmax(raw / np.sqrt(d_k_try)).max(-1).mean():.3f}")
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 쿼리를 두 개만 쓰고 키·밸류는 세 개를 그대로 씁니다. 모양을 먼저 예상해 보세요.
Q_2 = Q[:2]
w_2 = plain_softmax(Q_2 @ K.T / np.sqrt(d_k))
out_2 = w_2 @ V
print("가중치:", w_2.shape, " 출력:", out_2.shape)
# --8<-- [end:exercise_2]

# --8<-- [start:exercise_3]
# 연습 3: 점수의 모든 칸에 같은 수를 더하거나 곱하면 가중치는 어떻게 될까요?
shift, factor = 10.0, 1.0
changed = plain_softmax(scaled * factor + shift)
print("첫 행의 가중치:", weights[0].round(3), "→", changed[0].round(3))
# --8<-- [end:exercise_3]

# --8<-- [start:solution_1]
# 풀이 1: d_k 가 커질수록 나누지 않은 점수는 더 넓게 퍼져서 가장 큰 가중치가 1에 다가갑니다.
# √d_k 로 나누면 d_k 와 상관없이 비슷한 값에 머뭅니다.
solution_1 = {}
for d in (4, 64, 512):
    r = np.random.default_rng(0)
    q_s, k_s = r.standard_normal((1000, 1, d)), r.standard_normal((1000, 10, d))
    s = q_s @ np.swapaxes(k_s, -1, -2)
    solution_1[d] = (plain_softmax(s).max(-1).mean(), plain_softmax(s / np.sqrt(d)).max(-1).mean())
    print(f"d_k = {d:3d}: 나누지 않음 {solution_1[d][0]:.3f}, ÷√d_k {solution_1[d][1]:.3f}")
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: 가중치는 (쿼리 수, 키 수), 출력은 (쿼리 수, d_v) 입니다. 키를 늘리면 가중치의 열이 늘고,
# 출력의 모양은 그대로입니다. 키와 밸류는 언제나 같은 수여야 합니다.
for n_q, n_k in [(2, 3), (1, 3), (2, 5)]:
    r = np.random.default_rng(1)
    q_s, k_s, v_s = r.standard_normal((n_q, 4)), r.standard_normal((n_k, 4)), r.standard_normal((n_k, 4))
    w = plain_softmax(q_s @ k_s.T / np.sqrt(4))
    print(f"쿼리 {n_q}개, 키 {n_k}개 → 가중치 {w.shape}, 출력 {(w @ v_s).shape}")
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: 소프트맥스는 점수의 차이만 봅니다. 모든 칸에 같은 수를 더해도 가중치는 그대로이고,
# 모든 칸에 2를 곱하면 차이가 두 배가 되어 가중치가 큰 쪽으로 더 몰립니다.
same_after_shift = np.allclose(plain_softmax(scaled + 10.0), weights)
doubled = plain_softmax(scaled * 2.0)
print("10을 더한 뒤에도 같은가?", same_after_shift)
print("첫 행: 그대로", weights[0].round(3), " 2를 곱하면", doubled[0].round(3))
# --8<-- [end:solution_3]
