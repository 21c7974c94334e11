"""실습 파트 2: "The cat sat on the mat" 의 어텐션 가중치 히트맵 (학습하지 않은 무작위 파라미터).

4장(히트맵)과 같은 예제(toy_data.cat_sat_example)를 쓰므로 같은 가중치가 나옵니다. 어텐션은 파트 1 의 네 줄을
함수 하나로 묶은 plain_attention 으로 계산하고(노트북은 저장소 밖에서도 돌아가야 하므로 코어를 import 하지
않습니다), 그것이 코어의 scaled_dot_product_attention 과 같다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

import matplotlib.pyplot as plt  # 노트북에서는 그림 도우미의 절(plotting.py:korean_font)이 import 합니다

from plotting import use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다
from toy_data import cat_sat_example  # 노트북에는 toy_data 의 절이 직접 들어갑니다

# --8<-- [start:attention]
import numpy as np


def plain_softmax(scores):
    """파트 1 의 소프트맥스."""
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def plain_attention(Q, K, V, mask=None):
    """파트 1 의 네 줄. mask 의 False 칸은 가립니다 (exp(-inf) = 0). 가중합과 가중치를 돌려줍니다."""
    # ① 내적, ② √d_k 로 나누기
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

# --8<-- [start:exercise_1]
# 연습 1: 인과 마스크. True = 볼 수 있음, False = 가림입니다.
# 자기 자신과 앞쪽 토큰만 True
mask = np.tril(np.ones((6, 6), dtype=bool))
_, masked = plain_attention(Q, K, V, mask)
print(masked.round(2))
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
# 연습 3: √d_k 로 나누지 않으면 몇 개의 행이 한 토큰에 가중치를 90% 넘게 몰아 줄까요?
# ③ 소프트맥스만: ② 를 건너뜁니다
unscaled = plain_softmax(Q @ K.T)
print("행마다 가장 큰 가중치 (나누지 않음):", unscaled.max(axis=-1).round(3))
# --8<-- [end:exercise_3]

# --8<-- [start:solution_1]
# 풀이 1: 첫 행(The)은 자기 자신만 볼 수 있어서 [1, 0, 0, 0, 0, 0] 입니다.
# i 번째 행은 앞쪽 i+1 개 칸에만 가중치가 있고, 합은 여전히 1 입니다. 마지막 행은 가리는 칸이 없어서 원래와 같습니다.
print("첫 행:", masked[0])
print("행마다 0이 아닌 칸의 수:", (masked > 0).sum(axis=-1))
print("마지막 행이 마스크 없을 때와 같은가?", np.allclose(masked[-1], weights[-1]))
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: 어텐션만으로는 순서를 알 수 없습니다. 순서를 바꾸면 가중치 행렬의 행과 열이 같은 방식으로
# 자리만 바뀌고, cat → sat 같은 짝의 값은 그대로입니다. 실제 모델은 토큰 벡터에 위치 임베딩을 더해서
# 순서를 알려 줍니다.
same_pairs = np.allclose(w_shuffled, weights[np.ix_(order, order)])
print("뒤섞은 가중치가 원래 가중치의 행과 열을 같은 순서로 바꾼 것과 같은가?", same_pairs)
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: 나누지 않은 점수는 √d_k = 8 배 넓게 퍼져 있어서, 여섯 행 가운데 여러 행이 거의 한 칸에 몰립니다.
sharp_rows = int((unscaled.max(axis=-1) > 0.9).sum())
print("90% 넘게 한 토큰에 몰린 행:", sharp_rows, "개 /", len(tokens), "개 (÷√d_k 일 때는",
      int((weights.max(axis=-1) > 0.9).sum()), "개)")
# --8<-- [end:solution_3]
