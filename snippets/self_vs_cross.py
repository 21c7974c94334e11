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
# 인코더 쪽 5개
source5 = token_vectors(["어제", "나는", "친구와", "학교에", "갔다"], d_model, seed=12)
# 디코더 쪽 2개 (지금까지 만든 토큰)
target2 = token_vectors(["I", "went"], d_model, seed=13)
W_Q, W_K, W_V = W_cross
out_q1, w_q1 = scaled_dot_product_attention(target2 @ W_Q, source5 @ W_K, source5 @ W_V)
print("크로스 어텐션 가중치:", w_q1.shape)
print("출력:", out_q1.shape)
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
print("행마다 0이 아닌 가중치의 수:", (w_causal > 0).sum(axis=-1))
print("첫 행 (I):", w_causal[0])
print("행의 합:", w_causal.sum(axis=-1))
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_4]
# 모든 자리를 "볼 수 있음" 으로 둔 마스크
all_visible = np.ones((4, 4), dtype=bool)
print("모두 True 인 마스크 = 마스크 없음?",
      np.allclose(decoder_self_attention(dec, all_visible), decoder_self_attention(dec)))
leak = biggest_change(decoder_self_attention(dec_changed, all_visible)[:3],
                      decoder_self_attention(dec, all_visible)[:3])
print("그때 마지막 토큰을 바꾸면")
print("  앞 세 토큰 출력의 최대 변화:", leak)
# --8<-- [end:quiz_4]

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
