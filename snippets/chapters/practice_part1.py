"""실습 파트 1: numpy 로 어텐션 구현하기 — 세 줄짜리 소프트맥스를 직접 짜고, 단계마다 모양(shape)을 찍어 봅니다.

노트북(snippets/notebooks/part1_numpy_attention.md)은 이 파일의 절(section)과 toy_data.py 의 절을 그대로
가져다 씁니다. 노트북은 저장소 밖에서도 돌아가야 하므로 절 안에서는 저장소의 모듈을 import 하지 않습니다.
소프트맥스와 네 단계는 코어 함수를 부르지 않고 직접 계산하고, 그 결과가 코어의 softmax 와
scaled_dot_product_attention 과 같다는 것은 tests/test_notebooks.py 가 확인합니다. 입력 검사와 dtype 규칙을 갖춘
코어의 softmax 는 부록(core_tour.md)에 있습니다.
"""

from practice_checks import check_with  # 노트북에는 이 절(확인 함수의 틀)이 직접 들어갑니다
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

# --8<-- [start:checks]
# 이 파트의 확인 함수 두 개. 정답은 맨 위의 소프트맥스와 네 단계이고, mistakes 는 흔한 실수를 일부러 그대로 짠 것입니다.
def check_softmax(fn):
    """fn(scores) 가 마지막 축(키 축)을 따라 소프트맥스를 하는지, 세 가지 점수로 봅니다."""
    cases = [("점수 한 행 [2, 1, 0.1]", (np.array([2.0, 1.0, 0.1]),)),
             ("점수 행렬 (2, 3)", (np.array([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]]),)),
             ("아주 큰 점수 [1000, 999, 0]", (np.array([1000.0, 999.0, 0.0]),))]

    def by_axis_0(s):
        e = np.exp(s - s.max(axis=0, keepdims=True))
        return e / e.sum(axis=0, keepdims=True)

    def by_whole_sum(s):
        e = np.exp(s - s.max())
        return e / e.sum()

    def without_keepdims(s):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1)

    def without_max(s):
        return np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)

    def python_max(s):
        e = np.exp(s - max(s))
        return e / e.sum(axis=-1, keepdims=True)

    mistakes = [
        (by_axis_0, "쿼리 축(axis=0)을 따라 나눠 열의 합이 1이 됐습니다. "
                    "한 쿼리의 점수 행을 나눠야 하므로 마지막 축(axis=-1)입니다."),
        (by_whole_sum, "배열 전체의 합으로 나눴습니다. 행마다 합이 1이 되려면 "
                       "sum(axis=-1, keepdims=True)입니다."),
        (without_keepdims, "합을 keepdims=True 없이 구해 (2,) 모양이 됐고, "
                           "(2, 3)과 나누는 방향이 어긋났습니다."),
        (without_max, "최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan 이 됐습니다. "
                      "빼도 결과는 같습니다."),
        (python_max, "파이썬의 max() 를 썼습니다. max() 는 배열을 행끼리 견주어 2차원 점수에서 오류가 납니다. "
                     "행마다의 최댓값은 scores.max(axis=-1, keepdims=True) 입니다."),
    ]
    check_with(fn, plain_softmax, mistakes, cases, "fn")


def check_attention(fn):
    """fn(Q, K, V) 가 (출력, 가중치) = (softmax(Q Kᵀ/√d_k) V, softmax(Q Kᵀ/√d_k)) 를 돌려주는지 봅니다."""
    r = np.random.default_rng(7)
    cases = [("쿼리 2개, 키 3개, d_k = 4",
              (r.standard_normal((2, 4)), r.standard_normal((3, 4)), r.standard_normal((3, 5)))),
             ("정사각형: 쿼리 3개, 키 3개, d_k = 3",
              (r.standard_normal((3, 3)), r.standard_normal((3, 3)), r.standard_normal((3, 2)))),
             ("큰 점수 (1600 안팎)",
              (20 + r.standard_normal((2, 4)), 20 + 0.1 * r.standard_normal((3, 4)), r.standard_normal((3, 5))))]

    def attention_with(scores_of, softmax=plain_softmax):
        """점수를 만드는 방법(scores_of)과 소프트맥스만 바꾼 어텐션"""
        def variant(Q, K, V):
            weights = softmax(scores_of(Q, K))
            return weights @ V, weights
        return variant

    def right(Q, K, V):
        return attention_with(lambda Q, K: Q @ K.T / np.sqrt(K.shape[-1]))(Q, K, V)

    def weights_transposed(Q, K, V):
        weights = plain_softmax(Q @ K.T / np.sqrt(K.shape[-1]))
        return weights.T @ V, weights

    def softmax_axis_0(s):
        e = np.exp(s - s.max(axis=0, keepdims=True))
        return e / e.sum(axis=0, keepdims=True)

    def softmax_without_max(s):
        return np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)

    mistakes = [
        (attention_with(lambda Q, K: Q @ K.T / K.shape[-1]),
         "√d_k 대신 d_k 로 나눴습니다. 점수가 너무 작아져, d_k 가 클수록 가중치가 고르게 퍼집니다."),
        (attention_with(lambda Q, K: Q @ K.T),
         "√d_k 로 나누지 않았습니다. d_k 가 크면 점수가 넓게 퍼져 가중치가 한 키에 몰립니다."),
        (attention_with(lambda Q, K: Q @ K / np.sqrt(K.shape[-1])),
         "K 를 전치하지 않았습니다(Q @ K). 점수는 쿼리와 키의 내적이라 Q @ K.T 입니다. "
         "정사각형이면 오류 없이 틀린 값이 나옵니다."),
        (attention_with(lambda Q, K: Q @ K.T / np.sqrt(d_k)),
         f"바깥의 d_k({d_k})로 나눴습니다. 함수 안에서 K.shape[-1] 로 읽어야 입력마다 맞습니다."),
        (attention_with(lambda Q, K: Q @ K.T / np.sqrt(K.shape[-1]), softmax_axis_0),
         "소프트맥스를 쿼리 축(axis=0)으로 했습니다. 한 쿼리의 점수 행을 나눠야 하므로 axis=-1 입니다."),
        (attention_with(lambda Q, K: Q @ K.T / np.sqrt(K.shape[-1]), softmax_without_max),
         "소프트맥스에서 최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan 이 됐습니다."),
        (weights_transposed,
         "가중치를 전치해 곱했습니다(weights.T @ V). 가중치의 행이 쿼리이므로 그대로 weights @ V 입니다."),
    ]
    check_with(fn, right, mistakes, cases, "fn", parts=("출력", "가중치"))
# --8<-- [end:checks]

# --8<-- [start:exercise_1]
# 연습 1: 점수 배열의 마지막 축을 따라 소프트맥스를 하는 함수입니다.
def my_softmax(scores):
    # ↓ 이 두 줄에 틀린 곳이 둘 있습니다
    e = np.exp(scores)
    return e / e.sum(axis=0, keepdims=True)


check_softmax(my_softmax)
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 네 단계를 함수 하나로. (출력, 가중치)를 돌려줍니다.
def my_attention(Q, K, V):
    scores = Q @ K.T
    # ↓ 이 줄이 틀렸습니다
    scaled = scores / K.shape[-1]
    weights = plain_softmax(scaled)
    return weights @ V, weights


check_attention(my_attention)
# --8<-- [end:exercise_2]

# --8<-- [start:exercise_3]
# 연습 3: d_k_try 를 바꿔 가며 실행해 보세요.
d_k_try = 64
rng = np.random.default_rng(0)
# 무작위 쿼리 1000개와 키 10개
q_try = rng.standard_normal((1000, d_k_try))
k_try = rng.standard_normal((10, d_k_try))
# (1000, 10): 쿼리마다 키 10개의 점수 한 행
raw = q_try @ k_try.T
print(f"d_k = {d_k_try}: 가장 큰 가중치의 평균")
print(f"  나누지 않음 {plain_softmax(raw).max(-1).mean():.3f}")
print(f"  ÷√d_k      {plain_softmax(raw / np.sqrt(d_k_try)).max(-1).mean():.3f}")
# --8<-- [end:exercise_3]

# --8<-- [start:solution_1]
# 풀이 1: 최댓값을 빼고(결과는 같고 exp 가 넘치지 않습니다),
# 마지막 축(axis=-1)을 따라 나눕니다. 맨 위의 plain_softmax 와 같습니다.
def my_softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


check_softmax(my_softmax)
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: d_k 가 아니라 √d_k 로 나눕니다.
def my_attention(Q, K, V):
    scores = Q @ K.T
    scaled = scores / np.sqrt(K.shape[-1])
    weights = plain_softmax(scaled)
    return weights @ V, weights


check_attention(my_attention)
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: d_k 가 커질수록 나누지 않은 점수는 더 넓게 퍼져서 가장 큰 가중치가 1에 다가갑니다.
# √d_k 로 나누면 d_k 와 상관없이 비슷한 값에 머뭅니다.
solution_3 = {}
for d in (4, 64, 512):
    r = np.random.default_rng(0)
    s = r.standard_normal((1000, d)) @ r.standard_normal((10, d)).T
    solution_3[d] = (plain_softmax(s).max(-1).mean(), plain_softmax(s / np.sqrt(d)).max(-1).mean())
    print(f"d_k = {d:3d}: 나누지 않음 {solution_3[d][0]:.3f}, ÷√d_k {solution_3[d][1]:.3f}")
# --8<-- [end:solution_3]
