"""부록: 어텐션 코어 둘러보기 — 배치·헤드 축, 크로스 어텐션, 마스크 약속, dtype, 빈 입력, 오류 메시지."""

# --8<-- [start:batch_heads]
import numpy as np

from attention import (causal_mask, multi_head_attention, padding_mask,
                       scaled_dot_product_attention, softmax)

np.set_printoptions(precision=3, suppress=True)
rng = np.random.default_rng(0)

# 앞쪽 축은 (배치, 헤드)처럼 얼마든지 붙일 수
# 있습니다. 계산은 마지막 두 축에서 일어납니다.
# (배치 2, 헤드 4, 쿼리 5개, d_k 8)
q = rng.standard_normal((2, 4, 5, 8))
k = rng.standard_normal((2, 4, 5, 8))
# d_v 는 d_k 와 달라도 됩니다
v = rng.standard_normal((2, 4, 5, 6))
out, w = scaled_dot_product_attention(q, k, v)
print("출력:", out.shape)
print("가중치:", w.shape)
# --8<-- [end:batch_heads]

# --8<-- [start:cross]
# 디코더 쪽 토큰 3개의 쿼리
q_dec = rng.standard_normal((3, 8))
# 인코더 쪽 토큰 7개의 키와 밸류
k_enc = rng.standard_normal((7, 8))
v_enc = rng.standard_normal((7, 8))
out, w = scaled_dot_product_attention(
    q_dec, k_enc, v_enc)
print("크로스 어텐션 가중치:", w.shape)
print("← 쿼리 3개 × 키 7개, 정사각형이 아닙니다")
# --8<-- [end:cross]

# --8<-- [start:mask_convention]
# True = 볼 수 있음, False = 가림
mask = causal_mask(4)
print(mask.astype(int))
x = rng.standard_normal((4, 8))
_, w = scaled_dot_product_attention(x, x, x, mask)
print(w)
print("가린 자리의 가중치가 정확히 0인가?", bool(np.all(w[~mask] == 0.0)))
# --8<-- [end:mask_convention]

# --8<-- [start:padding]
# 두 문장의 진짜 길이. 짧은 문장은 뒤를
# 패딩으로 채워 길이 5로 맞춥니다.
lengths = [3, 5]
# (배치, 1, 1, 키): 헤드·쿼리 축으로 브로드캐스트
pad = padding_mask(lengths, 5)
# 두 마스크는 & 로 합칩니다 → (2, 1, 5, 5)
both = pad & causal_mask(5)
x = rng.standard_normal((2, 5, 8))
params = {name: rng.standard_normal((8, 8)) / np.sqrt(8)
          for name in ("W_Q", "W_K", "W_V", "W_O")}
out, w = multi_head_attention(x, x, params,
                              num_heads=2, mask=both)
print("패딩 마스크:", pad.shape)
print("합친 마스크:", both.shape)
print("가중치:", w.shape)
print("첫 문장이 패딩(키 3, 4)에 준 가중치의 최댓값:",
      w[0, :, :, 3:].max())
# --8<-- [end:padding]

# --8<-- [start:fully_masked]
# 한 쿼리가 볼 수 있는 키가 하나도 없는 경우
nothing = np.zeros((1, 3), dtype=bool)
out, w = scaled_dot_product_attention(
    rng.standard_normal((1, 4)),
    rng.standard_normal((3, 4)),
    rng.standard_normal((3, 2)), nothing)
print("가중치:", w)
print("출력:", out)
print("NaN 이 있는가?", bool(np.isnan(out).any()))
# --8<-- [end:fully_masked]

# --8<-- [start:dtypes]
x32 = rng.standard_normal((4, 8)).astype(np.float32)
out, w = scaled_dot_product_attention(x32, x32, x32)
print("float32 입력 →", out.dtype, w.dtype)
# 점수가 ±1000에 이르는 경우
big = np.array([[1000.0, -1000.0, 0.0]],
               dtype=np.float32)
eye3 = np.eye(3, dtype=np.float32)
out, w = scaled_dot_product_attention(
    big, eye3, eye3)
print("큰 점수에서도 경고 없이:", w, w.dtype)
# --8<-- [end:dtypes]

# --8<-- [start:empty]
print("길이 0 인 축의 소프트맥스:",
      softmax(np.ones((2, 0))).shape)
# 키가 하나도 없음
out, w = scaled_dot_product_attention(
    np.ones((3, 4)), np.ones((0, 4)), np.ones((0, 2)))
print("키가 하나도 없을 때")
print("  가중치", w.shape)
print("  출력", out.shape, "모두 0인가?", bool(np.all(out == 0)))
print("문장 0개의 패딩 마스크:",
      padding_mask([], 5).shape)
print("causal_mask(0):", causal_mask(0).shape)
# --8<-- [end:empty]

# --8<-- [start:errors]
bad_inputs = {
    "쿼리/키 특성 크기가 다름": (np.ones((3, 4)), np.ones((5, 6)), np.ones((5, 2)), None),
    "키/밸류 길이가 다름": (np.ones((3, 4)), np.ones((5, 4)), np.ones((6, 2)), None),
    "마스크가 브로드캐스트되지 않음": (np.ones((3, 4)), np.ones((5, 4)), np.ones((5, 2)),
                            np.ones((4, 5), dtype=bool)),
    "차원 수가 모자람": (np.ones(4), np.ones((3, 4)), np.ones((3, 4)), None),
    "마스크 축 수가 모호함": (np.ones((2, 2, 3, 4)), np.ones((2, 2, 3, 4)), np.ones((2, 2, 3, 4)),
                       padding_mask([1, 3], 3)[:, 0]),
    "입력에 NaN": (np.array([[np.nan, 1.0]]), np.ones((1, 2)), np.ones((1, 2)), None),
    "복소수 입력": (np.ones((3, 4)) + 1j, np.ones((3, 4)), np.ones((3, 4)), None),
}
for why, (q_, k_, v_, m_) in bad_inputs.items():
    try:
        scaled_dot_product_attention(q_, k_, v_, m_)
    except (ValueError, TypeError) as err:
        print(f"[{why}] {type(err).__name__}: {err}")

x = np.ones((3, 6), dtype=np.float32)
eye = {n: np.eye(6, dtype=np.float32) for n in ("W_Q", "W_K", "W_V", "W_O")}
bad_heads = {
    "헤드 수로 나누어떨어지지 않음": (x, eye, 4),
    "헤드 수가 정수가 아님": (x, eye, 2.0),
    "W_O 에 NaN": (x, eye | {"W_O": np.full((6, 6), np.nan, np.float32)}, 2),
    "편향 이름의 철자가 틀림": (x, eye | {"b_o": np.ones(6, np.float32)}, 2),
    "float32 범위를 넘는 투영": (x * 1e20, eye | {"W_V": eye["W_V"] * 1e20}, 2),
}
for why, (x_, params_, h_) in bad_heads.items():
    try:
        multi_head_attention(x_, x_, params_, num_heads=h_)
    except (ValueError, TypeError) as err:
        print(f"[{why}] {type(err).__name__}: {err}")
# --8<-- [end:errors]
