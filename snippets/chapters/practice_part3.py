"""실습 파트 3: 헤드 8개를 한 번의 배열 연산으로 계산하고, 헤드들의 패턴이 얼마나 다른지 잽니다.

6장(멀티헤드)과 같은 예제(toy_data.cat_sat_example)를 쓰므로 같은 헤드 8개가 나옵니다. 헤드를 나누고 잇는 함수와
어텐션은 노트북 안에서 직접 짭니다(저장소 밖에서도 돌아가야 하므로 코어를 import 하지 않습니다). 그것이 코어의
split_heads, merge_heads, multi_head_attention 과 같다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

import matplotlib.pyplot as plt  # 노트북에서는 그림 도우미의 절(plotting.py:korean_font)이 import 합니다

from head_stats import js_distance, mean_pairwise_js  # 노트북에는 이 절들이 직접 들어갑니다
from plotting import use_korean_font  # 노트북에는 그림 도우미의 절이 직접 들어갑니다
from practice_checks import check_with  # 노트북에는 이 절(확인 함수의 틀)이 직접 들어갑니다
from toy_data import cat_sat_example  # 노트북에는 toy_data 의 절이 직접 들어갑니다

# --8<-- [start:attention]
import numpy as np


def plain_attention(Q, K, V):
    """파트 1 의 네 줄. 앞쪽 축(헤드)은 그대로 두고 마지막 두 축으로 계산합니다."""
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights
# --8<-- [end:attention]

# --8<-- [start:split]
def to_heads(x, h):
    """(n, d_model) → (h, n, d_model / h): 열을 h 묶음으로 나눈 뒤 헤드 축을 맨 앞으로 옮깁니다."""
    n, d_model = x.shape
    return x.reshape(n, h, d_model // h).transpose(1, 0, 2)
# --8<-- [end:split]

# --8<-- [start:heads]
# 6장과 같은 토큰 벡터와 W_Q, W_K, W_V, W_O
tokens, X, params = cat_sat_example(d_model=64)
d_model, h = 64, 8
d_head = d_model // h
W_Q, W_K, W_V, W_O = params["W_Q"], params["W_K"], params["W_V"], params["W_O"]
# Qh, Kh, Vh 는 각각 (8, 6, 8): 헤드 8개를 한 번에 계산합니다
Qh, Kh, Vh = (to_heads(X @ W, h) for W in (W_Q, W_K, W_V))
heads_out, weights = plain_attention(Qh, Kh, Vh)
print("헤드별 가중치:", weights.shape, " 헤드별 출력:", heads_out.shape)
# --8<-- [end:heads]

# --8<-- [start:plot]
use_korean_font()
fig, axes = plt.subplots(2, 4, figsize=(12, 6.4), layout="constrained")
# 코드의 weights[0] 이 헤드 1 입니다
for i, ax in enumerate(axes.flat):
    im = ax.imshow(weights[i], vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(tokens)), labels=tokens, rotation=45, ha="right")
    ax.set_yticks(range(len(tokens)), labels=tokens)
    ax.set_title(f"헤드 {i + 1}")
fig.colorbar(im, ax=axes, shrink=0.7, label="어텐션 가중치")
plt.show()
# --8<-- [end:plot]

# --8<-- [start:merge]
def from_heads(x):
    """(h, n, d_head) → (n, h · d_head): 헤드별 결과를 다시 옆으로 이어 붙입니다."""
    h, n, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(n, h * d_head)


def plain_multi_head(X, W_Q, W_K, W_V, W_O, h):
    """위의 세 단계를 함수 하나로: 헤드 나누기, 헤드 h 개의 어텐션, 이어 붙이고 W_O 곱하기."""
    Qh, Kh, Vh = (to_heads(X @ W, h) for W in (W_Q, W_K, W_V))
    heads_out, weights = plain_attention(Qh, Kh, Vh)
    return from_heads(heads_out) @ W_O, weights, heads_out


output, weights, heads_out = plain_multi_head(X, W_Q, W_K, W_V, W_O, h)
print("이어 붙인 뒤:", from_heads(heads_out).shape, " W_O 를 곱한 출력:", output.shape)
# --8<-- [end:merge]


# --8<-- [start:compare]
uniform = np.full_like(weights[0], 1 / len(tokens))
print(f"헤드 8개 사이의 평균 JS 거리: {mean_pairwise_js(weights):.3f}")
print(f"헤드 1 을 자기 자신과 비교:   {js_distance(weights[0], weights[0]).mean():.3f}")
print(f"W_Q, W_K 를 공유한 헤드 8개: {mean_pairwise_js(np.stack([weights[0]] * 8)):.3f}")
print(f"헤드들과 균일 분포의 평균 거리: {np.mean([js_distance(w, uniform).mean() for w in weights]):.3f}")
# --8<-- [end:compare]

# --8<-- [start:checks]
# 이 파트의 확인 함수. 정답은 위의 plain_attention 이고, mistakes 는 흔한 실수를 일부러 그대로 짠 것입니다.
def check_heads_attention(fn):
    """fn(Qh, Kh, Vh) 가 헤드마다 어텐션을 계산해 (출력, 가중치) 를 돌려주는지 봅니다. 입력은 (헤드, 토큰, 폭)."""
    r = np.random.default_rng(5)
    cases = [("헤드 2개, 토큰 3개, 폭 4", tuple(r.standard_normal((2, 3, 4)) for _ in range(3))),
             ("모든 축이 3 (헤드 3개, 토큰 3개, 폭 3)", tuple(r.standard_normal((3, 3, 3)) for _ in range(3))),
             ("위의 Qh, Kh, Vh (8, 6, 8)", (Qh, Kh, Vh))]

    def attention_with(scores_of, axis=-1):
        """점수를 만드는 방법(scores_of)과 소프트맥스의 축만 바꾼 어텐션"""
        def variant(Qh, Kh, Vh):
            s = scores_of(Qh, Kh)
            e = np.exp(s - s.max(axis=axis, keepdims=True))
            weights = e / e.sum(axis=axis, keepdims=True)
            return weights @ Vh, weights
        return variant

    mistakes = [
        (attention_with(lambda Qh, Kh: Qh @ Kh / np.sqrt(Kh.shape[-1])),
         "Kh 를 전치하지 않았습니다(Qh @ Kh). 헤드마다 키를 전치하려면 마지막 두 축만 바꿔 "
         "np.swapaxes(Kh, -1, -2) 를 곱합니다."),
        (attention_with(lambda Qh, Kh: Qh @ Kh.T / np.sqrt(Kh.shape[-1])),
         "Kh.T 는 모든 축을 뒤집습니다: (헤드, 토큰, 폭) → (폭, 토큰, 헤드). 헤드마다 키를 전치하려면 마지막 두 축만 "
         "바꿉니다: np.swapaxes(Kh, -1, -2)."),
        (attention_with(lambda Qh, Kh: Qh @ np.swapaxes(Kh, -1, -2) / np.sqrt(Kh.shape[-1]), axis=0),
         "소프트맥스를 헤드 축(axis=0)으로 했습니다. 헤드 축이 앞에 있어도 키 축은 마지막 축(axis=-1)입니다."),
        (attention_with(lambda Qh, Kh: Qh @ np.swapaxes(Kh, -1, -2) / np.sqrt(d_model)),
         f"모델의 폭 d_model({d_model})의 제곱근으로 나눴습니다. 헤드 하나의 폭 Kh.shape[-1] 로 나눕니다."),
    ]
    check_with(fn, plain_attention, mistakes, cases, "fn", parts=("출력", "가중치"))
# --8<-- [end:checks]

# --8<-- [start:exercise_1]
# 연습 1: 헤드마다 어텐션을 계산합니다. Qh, Kh, Vh 는 (헤드, 토큰, 폭) 입니다.
def heads_attention(Qh, Kh, Vh):
    # ↓ 3차원 배열에서 Kh.T 는 무엇을 뒤집을까요?
    scores = Qh @ Kh.T / np.sqrt(Kh.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ Vh, weights


check_heads_attention(heads_attention)
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 헤드 1 과 헤드 2 의 자리를 맞바꿉니다. W_Q, W_K, W_V 의 열은 헤드 묶음째로 바꾸고,
# W_O 의 행은 swap_W_O 가 True 일 때만 바꿉니다. 출력이 그대로일까요? swap_W_O 를 True 로 바꿔 보세요.
# 새 헤드 i 는 원래 헤드 order[i]. cols 는 헤드 묶음째로 고른 열 번호
order = [1, 0, 2, 3, 4, 5, 6, 7]
swap_W_O = False
cols = np.concatenate([np.arange(o * d_head, (o + 1) * d_head) for o in order])
out_swapped, w_swapped, _ = plain_multi_head(X, W_Q[:, cols], W_K[:, cols], W_V[:, cols],
                                             W_O[cols] if swap_W_O else W_O, h)
print("출력이 그대로인가?", np.allclose(out_swapped, output), " 새 헤드 1 = 원래 헤드 2?",
      np.allclose(w_swapped[0], weights[1]))
# --8<-- [end:exercise_2]

# --8<-- [start:exercise_3]
# 연습 3: W_Q, W_K 에 같은 수 scale 을 곱해 작게 만들면 헤드 사이의 거리는 어떻게 될까요?
# scale = 1 은 위의 행렬 그대로라서 위에서 잰 거리와 같습니다. scale 을 0.16 으로 바꿔 보세요.
scale = 1.0
_, w_scaled, _ = plain_multi_head(X, W_Q * scale, W_K * scale, W_V, W_O, h)
print(f"scale = {scale}: 헤드 사이 평균 JS 거리 {mean_pairwise_js(w_scaled):.3f}")
# --8<-- [end:exercise_3]

# --8<-- [start:exercise_4]
# 연습 4: 세 번째 헤드의 밸류만 바꿉니다 (W_V 의 열 16–23). W_O 를 곱하기 전과 후에 출력의 어느 열이 바뀔까요?
W_V_changed = W_V.copy()
W_V_changed[:, 16:24] += 1.0
out_changed, _, heads_changed = plain_multi_head(X, W_Q, W_K, W_V_changed, W_O, h)
changed_before = np.any(~np.isclose(from_heads(heads_changed), from_heads(heads_out)), axis=0)
print("W_O 전에 바뀐 열:", np.flatnonzero(changed_before))
# --8<-- [end:exercise_4]

# --8<-- [start:solution_1]
# 풀이 1: 마지막 두 축(토큰, 폭)만 바꿔 헤드마다 Kᵀ 를 만듭니다. 위의 plain_attention 도 이렇게 합니다.
def heads_attention(Qh, Kh, Vh):
    scores = Qh @ np.swapaxes(Kh, -1, -2) / np.sqrt(Kh.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ Vh, weights


check_heads_attention(heads_attention)
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: W_O 의 행까지 함께 바꾸면 출력은 그대로이고, 헤드의 번호만 바뀝니다. 헤드 i 의 결과는 W_O 의
# 행 묶음 i 하고만 곱해지기 때문입니다. 그래서 "몇 번 헤드" 라는 번호 자체에는 뜻이 없습니다.
# W_O 를 그대로 두면 헤드의 결과가 남의 행과 곱해져 출력이 달라집니다.
solution_2 = {}
for swap in (False, True):
    out_s, _, _ = plain_multi_head(X, W_Q[:, cols], W_K[:, cols], W_V[:, cols], W_O[cols] if swap else W_O, h)
    solution_2[swap] = np.allclose(out_s, output)
    print(f"W_O 의 행도 바꾸면 {swap}: 출력이 그대로인가? {solution_2[swap]}")
# --8<-- [end:solution_2]

# --8<-- [start:solution_3]
# 풀이 3: 값이 작으면 점수가 모두 0 근처라서, 모든 헤드가 거의 고르게 나눠 줍니다.
# 그래서 헤드끼리 구별되지 않습니다.
solution_3 = {}
for s in (1.0, 0.16):
    _, w_s, _ = plain_multi_head(X, W_Q * s, W_K * s, W_V, W_O, h)
    solution_3[s] = mean_pairwise_js(w_s)
    print(f"scale = {s}: 헤드 사이 평균 JS 거리 {solution_3[s]:.3f}, "
          f"가장 큰 가중치 {w_s.max():.3f} (고르게 나누면 {1 / len(tokens):.3f})")
# --8<-- [end:solution_3]

# --8<-- [start:solution_4]
# 풀이 4: W_O 를 곱하기 전에는 세 번째 헤드의 몫인 열 16–23 만 바뀝니다. 이어 붙이기는 헤드를 섞지 않습니다.
# W_O 를 곱한 뒤에는 모든 열이 바뀝니다. 헤드들의 정보를 한데 섞는 것이 W_O 의 일입니다.
changed_after = np.any(~np.isclose(out_changed, output), axis=0)
print("W_O 전에 바뀐 열 수:", int(changed_before.sum()), " W_O 뒤에 바뀐 열 수:", int(changed_after.sum()))
# --8<-- [end:solution_4]
