"""실습 파트 2: "The cat sat on the mat" 의 어텐션 가중치 히트맵 (학습하지 않은 무작위 파라미터).

4장(히트맵)과 같은 예제(toy_data.cat_sat_example)를 쓰므로 같은 가중치가 나옵니다. 어텐션은 파트 1 의 네 줄을
함수 하나로 묶은 plain_attention 으로 계산하고(노트북은 저장소 밖에서도 돌아가야 하므로 코어를 import 하지
않습니다), 그것이 코어의 scaled_dot_product_attention 과 같다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

import matplotlib.pyplot as plt  # 노트북에서는 그림 도우미의 절(plotting.py:korean_font)이 import 합니다

from plotting import use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다
from practice_checks import check_with  # 노트북에는 이 절(확인 함수의 틀)이 직접 들어갑니다
from toy_data import cat_sat_example  # 노트북에는 toy_data 의 절이 직접 들어갑니다

# --8<-- [start:attention]
import numpy as np


def plain_softmax(scores):
    """파트 1 의 소프트맥스."""
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def plain_attention(Q, K, V, mask=None):
    """파트 1 의 네 줄. mask 의 False 칸은 가립니다 (exp(-inf) = 0). 가중합과 가중치를 돌려줍니다."""
    # ① 내적(K 의 마지막 두 축만 전치), ② √d_k
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    # ③ 소프트맥스, ④ 가중합
    weights = plain_softmax(scores)
    return weights @ V, weights
# --8<-- [end:attention]

# --8<-- [start:tokens]
# 4장과 같은 무작위 토큰 벡터와 투영 행렬
tokens, X, params = cat_sat_example(d_model=64)
Q, K, V = X @ params["W_Q"], X @ params["W_K"], X @ params["W_V"]
_, weights = plain_attention(Q, K, V)
print("가중치:", weights.shape, " 행의 합:", weights.sum(axis=-1).round(6))
# --8<-- [end:tokens]

# --8<-- [start:plot]
use_korean_font()
fig, ax = plt.subplots(figsize=(5.6, 4.6), layout="constrained")
# 행 = 쿼리, 열 = 키, 밝을수록 큰 가중치. 칸마다 값을 적습니다 (어두운 칸에는 흰 글씨)
im = ax.imshow(weights, vmin=0.0, vmax=1.0)
ax.set_xticks(range(len(tokens)), labels=tokens, rotation=45, ha="right")
ax.set_yticks(range(len(tokens)), labels=tokens)
ax.set(xlabel="키 (보이는 쪽)", ylabel="쿼리 (보는 쪽)")
for i in range(len(tokens)):
    for j in range(len(tokens)):
        ax.text(j, i, f"{weights[i, j]:.2f}", ha="center", va="center",
                color="white" if weights[i, j] < 0.5 else "black")
ax.set_title("The cat sat on the mat (무작위 파라미터)")
fig.colorbar(im, ax=ax, label="어텐션 가중치")
plt.show()
# --8<-- [end:plot]


def figure_weights(narrow=False):
    """노트북의 그림 셀과 같은 가중치를 사이트용으로: 밝은/어두운 테마와 좁은/넓은 판.

    노트북 페이지는 그림 셀의 출력 대신 이 그림을 보여 줍니다 (같은 weights 를 사이트의 heatmap 도우미로).
    내려받은 노트북은 위의 plot 절로 직접 그립니다.
    """
    from plotting import heatmap, width

    fig_, ax_ = plt.subplots(figsize=(width(narrow), 4.6 if narrow else 5.4), layout="constrained")
    im_ = heatmap(ax_, weights, tokens, tokens, title="The cat sat on the mat (무작위 파라미터)")
    fig_.colorbar(im_, ax=ax_, label="어텐션 가중치", location="bottom" if narrow else "right")
    return fig_


# --8<-- [start:rows]
for token, row in zip(tokens, weights):
    top = int(np.argmax(row))
    print(f"'{token}' 행에서 가장 큰 가중치: '{tokens[top]}' ({row[top]:.2f})")
# --8<-- [end:rows]

# --8<-- [start:checks]
# 이 파트의 확인 함수 두 개. 정답은 위의 plain_attention 과 3장의 엔트로피이고, mistakes 는 흔한 실수를 일부러 그대로 짠 것입니다.
def check_masked_attention(fn):
    """fn(Q, K, V, mask) 가 (출력, 가중치) 를 돌려주고, mask 의 False 칸을 소프트맥스에서 빼는지 봅니다."""
    r = np.random.default_rng(3)
    cases = [("인과 마스크, 토큰 4개",
              (r.standard_normal((4, 3)), r.standard_normal((4, 3)), r.standard_normal((4, 2)),
               np.tril(np.ones((4, 4), dtype=bool)))),
             ("패딩: 키 5개 가운데 뒤 둘을 가림",
              (r.standard_normal((2, 3)), r.standard_normal((5, 3)), r.standard_normal((5, 2)),
               np.array([[True, True, True, False, False]])))]

    def masked_with(hide):
        """가리는 방법(hide)만 바꾼 마스크 어텐션"""
        def variant(Q, K, V, mask):
            weights = hide(Q @ K.T / np.sqrt(K.shape[-1]), mask)
            return weights @ V, weights
        return variant

    mistakes = [
        (masked_with(lambda s, m: plain_softmax(s) * m),
         "소프트맥스를 한 뒤에 가렸습니다. 가린 칸의 몫이 그냥 사라져 행의 합이 1보다 작아집니다. "
         "소프트맥스 앞에서 가린 칸의 점수를 -inf 로 두면 남은 칸끼리 합이 1이 되게 나뉩니다."),
        (masked_with(lambda s, m: plain_softmax(np.where(m, s, 0.0))),
         "가린 칸의 점수를 0으로 두었습니다. exp(0) = 1 이라 가린 칸도 몫을 받습니다. -inf 로 두어야 exp 가 0이 됩니다."),
        (masked_with(lambda s, m: plain_softmax(np.where(m, -np.inf, s))),
         "마스크를 거꾸로 읽었습니다. 이 노트북과 본문의 코어에서 True 는 볼 수 있는 칸입니다."),
    ]
    check_with(fn, plain_attention, mistakes, cases, "fn", parts=("출력", "가중치"))


def check_entropy(fn):
    """fn(weights) 가 행마다 엔트로피 -Σ p·ln p 를 돌려주는지 봅니다 (0 인 칸은 0·ln 0 = 0 으로 셉니다)."""
    cases = [("고르게 나눈 행 [0.25, 0.25, 0.25, 0.25]", (np.full((1, 4), 0.25),)),
             ("쿼리 2개, 키 3개", (np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]]),)),
             ("마스크로 0이 된 칸이 있는 가중치", (np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]),))]

    def entropy(w, log=np.log, axis=-1):
        """0 인 칸은 빼고 더합니다"""
        return -np.sum(np.where(w > 0, w * log(np.where(w > 0, w, 1.0)), 0.0), axis=axis)

    mistakes = [
        (lambda w: -(w * np.log(w)).sum(axis=-1),
         "0인 칸에서 0 × ln 0 = 0 × (-inf) = nan 이 됐습니다. 0인 칸은 빼고 더합니다(0·ln 0 = 0으로 약속)."),
        (lambda w: entropy(w, axis=0),
         "열마다 구했습니다(axis=0). 행이 쿼리이므로 행마다, 곧 마지막 축(axis=-1)을 따라 더합니다."),
        (lambda w: entropy(w, log=np.log2),
         "밑이 2인 로그(비트)로 셌습니다. 3장처럼 자연로그(np.log, 나트)로 세면 키 4개에 고르게 나눌 때 ln 4 입니다."),
        (lambda w: -entropy(w),
         "부호를 빠뜨렸습니다. ln p 는 0 이하라서, 엔트로피는 -Σ p·ln p 로 0 이상이 되게 셉니다."),
    ]
    check_with(fn, entropy, mistakes, cases, "fn")
# --8<-- [end:checks]

# --8<-- [start:exercise_1]
# 연습 1: 마스크의 False 칸(가릴 칸)을 빼고 계산하는 어텐션. (출력, 가중치)를 돌려줍니다.
def masked_attention(Q, K, V, mask):
    scores = Q @ K.T / np.sqrt(K.shape[-1])
    weights = plain_softmax(scores)
    # ↓ 가린 칸을 소프트맥스 다음에 0으로 만듭니다. 이것으로 충분할까요?
    weights = weights * mask
    return weights @ V, weights


check_masked_attention(masked_attention)
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 토큰 순서를 뒤섞어 넣습니다 (위치 정보는 더하지 않습니다). order 를 바꿔 보세요.
# "mat the on sat cat The"
order = [5, 4, 3, 2, 1, 0]
_, w_shuffled = plain_attention(Q[order], K[order], V[order])
cat, sat = tokens.index("cat"), tokens.index("sat")
# 뒤섞은 문장에서 cat 과 sat 의 자리
i, j = order.index(cat), order.index(sat)
print(f"cat → sat  원래 순서: {weights[cat, sat]:.4f}, 뒤섞은 순서: {w_shuffled[i, j]:.4f}")
# --8<-- [end:exercise_2]

# --8<-- [start:exercise_3]
# 연습 3: 행마다 엔트로피(3장): 분포가 고를수록 크고, 한 칸에 몰릴수록 0에 가깝습니다.
def row_entropy(weights):
    # ↓ 가중치가 0인 칸에서는 어떻게 될까요?
    return -(weights * np.log(weights)).sum(axis=-1)


check_entropy(row_entropy)
# --8<-- [end:exercise_3]

# --8<-- [start:solution_1]
# 풀이 1: 소프트맥스 앞에서 가린 칸의 점수를 -inf 로 둡니다. exp(-inf) = 0 이라 가린 칸은 몫이 없고,
# 남은 칸끼리 합이 1이 되게 나뉩니다. 위의 plain_attention 과 같은 방법입니다.
def masked_attention(Q, K, V, mask):
    scores = Q @ K.T / np.sqrt(K.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    weights = plain_softmax(scores)
    return weights @ V, weights


check_masked_attention(masked_attention)
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: 어텐션만으로는 순서를 알 수 없습니다. 순서를 바꾸면 가중치 행렬의 행과 열이 같은 방식으로
# 자리만 바뀌고, cat → sat 같은 짝의 값은 그대로입니다. 실제 모델은 토큰 벡터에 위치 임베딩을 더해서
# 순서를 알려 줍니다.
same_pairs = np.allclose(w_shuffled, weights[np.ix_(order, order)])
print("뒤섞은 가중치가 원래 가중치의 행과 열을 같은 순서로 바꾼 것과 같은가?", same_pairs)
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: 0인 칸은 빼고 더합니다. 고친 함수로 위 히트맵의 행들을 재면, 어느 행이 넓게 보는지 숫자로 읽힙니다.
def row_entropy(weights):
    safe = np.where(weights > 0, weights, 1.0)
    return -(weights * np.log(safe)).sum(axis=-1)


check_entropy(row_entropy)
row_h = row_entropy(weights)
print(f"히트맵의 행마다 엔트로피 (고르게 나누면 ln 6 = {np.log(6):.3f})")
for token, h_row in zip(tokens, row_h):
    print(f"  {token:4s} {h_row:.3f}")
# --8<-- [end:solution_3]
