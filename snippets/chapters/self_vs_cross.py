"""5장 셀프 어텐션과 크로스 어텐션, 그리고 마스크드(인과) 셀프 어텐션.

멀티헤드는 6장에서 배우므로, 이 장은 헤드 하나짜리 코어 함수 scaled_dot_product_attention 만 씁니다.
"""

# --8<-- [start:setup]
import numpy as np

from attention import (
    causal_mask, scaled_dot_product_attention)
from toy_data import (projection_weights,
                      token_vectors, toy_qkv)

np.set_printoptions(precision=2,
                    suppress=True)

# 인코더가 읽는 한국어 문장
source = ["나는", "학교에", "간다"]
# 디코더가 만드는 영어 문장
target = ["I", "go", "to", "school"]
# 1장의 X: "나는 학교에 간다"의 토큰 벡터
# (3, 8)
_, enc, _, _, _ = toy_qkv()
d_model, d_k = enc.shape[-1], 4
# 디코더 쪽 토큰 벡터라고 가정한 (4, 8)
dec = token_vectors(target, d_model, seed=11)

# 실제 모델은 어텐션마다 자기 W_Q, W_K,
# W_V 를 따로 학습합니다. 여기서도 세 어텐션에
# 행렬을 따로 둡니다.
# 인코더의 셀프 어텐션 (1장의 행렬)
W_enc_self = projection_weights(
    d_model, d_k, seed=1)
# 디코더의 크로스 어텐션
W_cross = projection_weights(
    d_model, d_k, seed=2)
# 디코더의 마스크드 셀프 어텐션
W_dec_self = projection_weights(
    d_model, d_k, seed=3)
print("인코더 쪽:", enc.shape)
print("디코더 쪽:", dec.shape)
print("투영 행렬 한 개:", W_cross[0].shape)
# --8<-- [end:setup]

# --8<-- [start:self]
W_Q, W_K, W_V = W_enc_self
# Q, K, V 모두 인코더 문장에서
_, w_self = scaled_dot_product_attention(
    enc @ W_Q, enc @ W_K, enc @ W_V)
print("셀프 어텐션 가중치:", w_self.shape)
print("→ (쿼리 3, 키 3)")
# --8<-- [end:self]

# --8<-- [start:cross]
W_Q, W_K, W_V = W_cross
# Q 는 디코더, K·V 는 인코더에서
out_cross, w_cross = (
    scaled_dot_product_attention(
        dec @ W_Q, enc @ W_K, enc @ W_V))
print("크로스 어텐션 가중치:", w_cross.shape)
print("→ (쿼리 4, 키 3)")
print("출력:", out_cross.shape)
print("행의 합:", w_cross.sum(axis=-1))
print(w_cross)
# --8<-- [end:cross]

# --8<-- [start:causal]
# True = 볼 수 있음: 자기 자신과 앞쪽 토큰만
mask = causal_mask(len(target))
W_Q, W_K, W_V = W_dec_self
out, w_causal = scaled_dot_product_attention(
    dec @ W_Q, dec @ W_K, dec @ W_V, mask)
print(mask.astype(int))
print(w_causal)
print("대각선 위(미래)의 가중치 합:",
      w_causal[~mask].sum())
# --8<-- [end:causal]

# --8<-- [start:no_peeking]
def decoder_self_attention(x, mask=None):
    """디코더의 (마스크드) 셀프 어텐션.

    출력만 돌려줍니다.
    """
    W_Q, W_K, W_V = W_dec_self
    out, _ = scaled_dot_product_attention(
        x @ W_Q, x @ W_K, x @ W_V, mask)
    return out


def biggest_change(a, b):
    return round(float(np.abs(a - b).max()), 3)


# 마지막 토큰 "school" 을 전혀 다른 벡터로
# 바꿔도 앞의 세 토큰 출력은 그대로여야 합니다.
dec_changed = dec.copy()
rng = np.random.default_rng(0)
dec_changed[-1] = rng.standard_normal(d_model) * 5
out_changed = decoder_self_attention(
    dec_changed, mask)
print("출력의 최대 변화")
print("  앞 세 토큰:",
      biggest_change(out_changed[:3], out[:3]))
print("  마지막 토큰:",
      biggest_change(out_changed[3], out[3]))
# 마스크가 없으면 앞 토큰들도 미래를 봅니다.
out_free = decoder_self_attention(dec)
out_free_changed = decoder_self_attention(
    dec_changed)
print("마스크 없이 앞 세 토큰:",
      biggest_change(out_free_changed[:3],
                     out_free[:3]))
# --8<-- [end:no_peeking]


# --8<-- [start:quiz_1]
# 인코더의 마지막 토큰 "간다" 를 전혀 다른 벡터로
enc_changed = enc.copy()
enc_changed[-1] = np.random.default_rng(1).standard_normal(d_model) * 5
W_Q, W_K, W_V = W_cross
out_q1, _ = scaled_dot_product_attention(
    dec @ W_Q, enc_changed @ W_K, enc_changed @ W_V)
change_q1 = np.abs(out_q1 - out_cross).max(axis=-1)
print("디코더 토큰마다 출력의 최대 변화:")
for token, c in zip(target, change_q1):
    print(f"  {token}: {c:.3f}")
print(f"바뀐 토큰 {int((change_q1 > 0).sum())}개 / {len(target)}개")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 이번에는 첫 토큰 "I" 를 전혀 다른 벡터로 (마스크는 그대로)
dec_first = dec.copy()
dec_first[0] = np.random.default_rng(2).standard_normal(d_model) * 5
out_first = decoder_self_attention(dec_first, mask)
change_q2 = np.abs(out_first - out).max(axis=-1)
print("토큰마다 출력의 최대 변화:")
for token, c in zip(target, change_q2):
    print(f"  {token}: {c:.3f}")
print(f"바뀐 토큰 {int((change_q2 > 0).sum())}개 / {len(target)}개")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_4]
# 인코더 문장 끝에 길이를 맞추는 패딩 토큰 하나 (벡터는 아무것이나)
enc_pad = np.vstack([enc, np.full(d_model, 3.0)])
# (1, 4): 모든 쿼리가 앞의 키 세 개만 봅니다
visible = np.array([[True, True, True, False]])
W_Q, W_K, W_V = W_cross
out_pad, w_pad = scaled_dot_product_attention(
    dec @ W_Q, enc_pad @ W_K, enc_pad @ W_V, visible)
print("패딩 열의 가중치:", w_pad[:, -1])
print("패딩이 없을 때와의 최대 차이")
print("  가중치:", biggest_change(w_pad[:, :-1], w_cross))
print("  출력:", biggest_change(out_pad, out_cross))
# --8<-- [end:quiz_4]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_1():
    """문제 1: 인코더의 마지막 토큰을 바꾸면 디코더 토큰 몇 개의 출력이 바뀌는지."""
    from predict import number, wrong

    changed = int((change_q1 > 0).sum())
    assert changed == len(target)
    values = {"n_dec": str(len(target)), "smallest": f"{change_q1.min():.3f}"}
    return number(
        label="출력이 바뀌는 디코더 토큰의 수",
        unit="개",
        answer=changed,
        tolerance=0.01,
        right="크로스 어텐션에는 인과 마스크가 없어서, 디코더 토큰 {n_dec}개가 모두 \"간다\"의 키와 밸류를 씁니다. "
        "가장 적게 바뀐 토큰도 출력 벡터의 한 성분이 {smallest}만큼 움직입니다.",
        wrong=[
            wrong(1, 0.01, "인과 마스크처럼 마지막 자리끼리만 이어진다고 봤나요? 크로스 어텐션에는 인과 마스크가 "
                  "없어서, 디코더 토큰 {n_dec}개가 모두 인코더 문장 전체를 봅니다."),
            wrong(0, 0.01, "디코더 쪽(쿼리)이 그대로라서 출력도 그대로라고 봤나요? 키와 밸류는 인코더에서 오므로, "
                  "\"간다\"가 바뀌면 모든 행의 점수와 섞이는 밸류가 함께 바뀝니다."),
        ],
        other="크로스 어텐션에서 디코더의 각 토큰이 인코더의 어느 토큰까지 볼 수 있는지 떠올려 보세요.",
        values=values,
    )


def data_quiz_2():
    """문제 2: 인과 마스크 아래에서 첫 토큰을 바꾸면 출력이 바뀌는 토큰의 수."""
    from predict import number, wrong

    changed = int((change_q2 > 0).sum())
    assert changed == len(target)
    values = {"n": str(len(target)), "smallest": f"{change_q2.min():.3f}", "first": target[0]}
    return number(
        label="출력이 바뀌는 토큰의 수",
        unit="개",
        answer=float(changed),
        tolerance=0.01,
        right="{n}개 모두입니다. 인과 마스크는 앞쪽을 보게 두고 뒤쪽만 가리므로, 맨 앞의 {first}는 모든 토큰이 봅니다. "
        "가장 작은 변화도 {smallest}입니다.",
        wrong=[
            wrong(1.0, 0.01, "마스크가 다른 토큰을 모두 가린다고 봤나요? 가리는 것은 자기보다 뒤(미래)의 토큰뿐입니다. "
                  "{first}는 맨 앞이라 모든 토큰이 볼 수 있습니다."),
            wrong(float(len(target) - 1), 0.01, "{first} 자신의 출력은 그대로라고 봤나요? 토큰은 자기 자신도 봅니다. "
                  "{first}는 볼 수 있는 키가 자기 하나뿐이라, 출력이 곧 바뀐 자기 밸류입니다."),
            wrong(0.0, 0.01, "마스크가 있으면 아무도 영향을 받지 않는다고 봤나요? 마스크는 미래만 가립니다. 앞의 "
                  "토큰을 바꾸면 그 토큰을 보는 모든 출력이 바뀝니다."),
        ],
        other="인과 마스크 아래에서 {first}를 볼 수 있는 토큰이 몇 개인지 세어 보세요 (자기 자신도 셉니다).",
        values=values,
    )


# --8<-- [start:figure]
def figure_cross_and_causal(narrow=False):
    """크로스 어텐션 (4×3, 정사각형이 아님) 과 인과 마스크를 쓴 셀프 어텐션 (4×4). 좁은 판은 위아래로."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, width

    layout = {"nrows": 2, "ncols": 1, "height_ratios": [1, 1]} if narrow else \
        {"nrows": 1, "ncols": 2, "width_ratios": [3, 4]}
    fig, axes = plt.subplots(figsize=(width(narrow), 8.6 if narrow else 3.6), layout="constrained", **layout)
    heatmap(axes[0], w_cross, target, source, title="크로스 어텐션 (4 × 3)",
            xlabel="키: 인코더 (한국어)", ylabel="쿼리: 디코더 (영어)")
    heatmap(axes[1], w_causal, target, target, title="인과 마스크 셀프 어텐션 (4 × 4)",
            xlabel="키 (앞쪽 토큰만)", ylabel="쿼리")
    return fig
# --8<-- [end:figure]
