"""5장 셀프 어텐션과 크로스 어텐션, 그리고 마스크드(인과) 셀프 어텐션."""

# --8<-- [start:setup]
import numpy as np

from attention import causal_mask, multi_head_attention
from toy_data import token_vectors

np.set_printoptions(precision=2, suppress=True)
d_model, heads = 16, 1
rng = np.random.default_rng(0)
params = {name: rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
          for name in ("W_Q", "W_K", "W_V", "W_O")}

source = ["나는", "학교에", "간다"]  # 인코더가 읽는 한국어 문장
target = ["I", "go", "to", "school"]  # 디코더가 만드는 영어 문장
enc = token_vectors(source, d_model, seed=10)  # 인코더 출력이라고 가정한 (3, 16)
dec = token_vectors(target, d_model, seed=11)  # 디코더 상태라고 가정한 (4, 16)
# --8<-- [end:setup]

# --8<-- [start:self]
_, w_self = multi_head_attention(enc, enc, params, heads)  # Q, K, V 모두 인코더 문장에서
print("셀프 어텐션 가중치:", w_self.shape, "→ (헤드, 쿼리 3, 키 3)")
# --8<-- [end:self]

# --8<-- [start:cross]
_, w_cross = multi_head_attention(dec, enc, params, heads)  # Q 는 디코더, K·V 는 인코더에서
print("크로스 어텐션 가중치:", w_cross.shape, "→ (헤드, 쿼리 4, 키 3)")
print("행의 합:", w_cross[0].sum(axis=-1))
print(w_cross[0])
# --8<-- [end:cross]

# --8<-- [start:causal]
mask = causal_mask(len(target))  # True = 볼 수 있음: 자기 자신과 앞쪽 토큰만
out, w_causal = multi_head_attention(dec, dec, params, heads, mask=mask)
print(mask.astype(int))
print(w_causal[0])
print("대각선 위(미래)의 가중치 합:", w_causal[0][~mask].sum())
# --8<-- [end:causal]

# --8<-- [start:no_peeking]
# 마지막 토큰 "school" 을 전혀 다른 벡터로 바꿔도 앞의 세 토큰 출력은 그대로여야 합니다.
dec_changed = dec.copy()
dec_changed[-1] = rng.standard_normal(d_model) * 5
out_changed, _ = multi_head_attention(dec_changed, dec_changed, params, heads, mask=mask)
print("앞 세 토큰 출력의 최대 변화:", np.abs(out_changed[:3] - out[:3]).max())
print("마지막 토큰 출력의 최대 변화:", round(float(np.abs(out_changed[3] - out[3]).max()), 3))
# 마스크가 없으면 앞 토큰들도 미래를 봅니다.
out_free, _ = multi_head_attention(dec, dec, params, heads)
out_free_changed, _ = multi_head_attention(dec_changed, dec_changed, params, heads)
print("마스크 없이 앞 세 토큰 출력의 최대 변화:", round(float(np.abs(out_free_changed[:3] - out_free[:3]).max()), 3))
# --8<-- [end:no_peeking]


# --8<-- [start:figure]
def figure_cross_and_causal():
    """크로스 어텐션 (4×3, 정사각형이 아님) 과 인과 마스크를 쓴 셀프 어텐션 (4×4)."""
    import matplotlib.pyplot as plt

    from plotting import heatmap

    fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.0), layout="constrained",
                             gridspec_kw={"width_ratios": [3, 4]})
    heatmap(axes[0], w_cross[0], target, source, title="크로스 어텐션 (4 × 3)",
            xlabel="키: 인코더 (한국어)", ylabel="쿼리: 디코더 (영어)")
    heatmap(axes[1], w_causal[0], target, target, title="인과 마스크 셀프 어텐션 (4 × 4)",
            xlabel="키 (앞쪽 토큰만)", ylabel="쿼리")
    return fig
# --8<-- [end:figure]
