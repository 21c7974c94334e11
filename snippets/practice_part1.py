"""실습 파트 1: numpy 로 어텐션 구현하기 — 단계마다 모양(shape)을 찍어 봅니다.

노트북(snippets/notebooks/part1_numpy_attention.md)은 이 파일의 절(section)과 어텐션 코어의
softmax 절을 그대로 가져다 씁니다. 노트북은 저장소 밖에서도 돌아가야 하므로 절 안에서는
저장소의 모듈을 import 하지 않습니다.
"""

from attention import scaled_dot_product_attention, softmax  # 노트북에는 코어의 절이 직접 들어갑니다

# --8<-- [start:data]
import numpy as np

rng = np.random.default_rng(42)
n, d_k, d_v = 4, 8, 8  # 토큰 4개, 쿼리·키 폭 8, 밸류 폭 8
Q = rng.standard_normal((n, d_k))
K = rng.standard_normal((n, d_k))
V = rng.standard_normal((n, d_v))
print("Q:", Q.shape, " K:", K.shape, " V:", V.shape)
# --8<-- [end:data]

# --8<-- [start:steps]
scores = Q @ K.T  # ① 내적: 모든 쿼리 × 모든 키
print("① scores  = Q @ K.T        ", scores.shape)
scaled = scores / np.sqrt(d_k)  # ② 스케일링
print("② scaled  = scores / √d_k   ", scaled.shape)
weights = softmax(scaled, axis=-1)  # ③ 키 축으로 소프트맥스
print("③ weights = softmax(scaled) ", weights.shape, " 행의 합:", weights.sum(axis=-1).round(6))
output = weights @ V  # ④ 가중합
print("④ output  = weights @ V     ", output.shape)
# --8<-- [end:steps]

# --8<-- [start:check]
out_core, w_core = scaled_dot_product_attention(Q, K, V)
print("코어 함수와 같은가?", np.allclose(out_core, output), np.allclose(w_core, weights))
# --8<-- [end:check]
