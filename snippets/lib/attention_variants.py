"""8장(efficient.py)과 Gemma 디코더(gemma_decoder.py)가 함께 쓰는 어텐션의 변형들: KV 캐시의 크기, 그룹 쿼리
어텐션(GQA/MQA)과 그 가중치를 멀티헤드로 펼치기, 슬라이딩 윈도 마스크, 회전 위치 임베딩(RoPE).

import 할 때 아무것도 찍거나 계산하지 않습니다 (8장의 스크립트는 찍으므로, 다른 모듈은 그 대신 이 파일을 import 합니다).
8장 페이지는 이 파일의 절과 efficient.py 의 절을 차례로 보여 줍니다. 절의 import 는 페이지에 보이는 그대로 절 안에 둡니다.
"""

import numpy as np

from attention import causal_mask, scaled_dot_product_attention


# --8<-- [start:kv_bytes]
from efficient_checks import check_kv_bytes


def kv_bytes_per_token(kv_heads, d_head=128, bytes_per_number=2):
    """토큰 하나, 층 하나가 캐시에 남기는 바이트: K 와 V 두 가지 × KV 헤드 수 × 헤드 폭 × float16 2바이트."""
    kv_heads, d_head, bytes_per_number = check_kv_bytes(kv_heads, d_head, bytes_per_number)
    return 2 * kv_heads * d_head * bytes_per_number
# --8<-- [end:kv_bytes]


# --8<-- [start:gqa]
from efficient_checks import check_copy_heads, check_gqa


def grouped_query_attention(q, k, v, mask=None):
    """q: (..., h, n_q, d), k·v: (..., g, n_k, d). 쿼리 헤드 h/g 개가 K·V 헤드 하나를 함께 씁니다.

    g = h 이면 멀티헤드, g = 1 이면 MQA 입니다. 캐시에는 g 개만 두고, 계산할 때 그룹마다 복사해 씁니다.
    """
    q, k, v = check_gqa(q, k, v)
    group = q.shape[-3] // k.shape[-3]
    return scaled_dot_product_attention(q, np.repeat(k, group, axis=-3), np.repeat(v, group, axis=-3), mask)
# --8<-- [end:gqa]


# --8<-- [start:copy_heads]
def copy_heads(W, kv_heads, heads):
    """K·V 헤드의 열 묶음을 그 그룹의 쿼리 헤드 수만큼 복사해 멀티헤드용 (d_model, d_model) 행렬로."""
    W, kv_heads, heads = check_copy_heads(W, kv_heads, heads)
    return np.repeat(W.reshape(W.shape[0], kv_heads, -1), heads // kv_heads, axis=1).reshape(W.shape[0], -1)
# --8<-- [end:copy_heads]


# --8<-- [start:window]
from efficient_checks import check_window


def sliding_window_mask(n, window, sinks=0):
    """(n, n) 마스크 (True = 볼 수 있음): 쿼리 i 는 키 i-window+1 … i 와 맨 앞 키 sinks 개만 봅니다.

    인과 창입니다: 앞쪽 키만 봅니다 (Longformer 의 창은 양쪽을 봅니다).
    """
    window, sinks = check_window(window, sinks)
    # 인과 마스크에서 window 자리보다 먼 키를 가리고, 맨 앞 sinks 개는 (인과 마스크가 허락하면) 늘 봅니다
    mask = causal_mask(n) & ~np.tri(n, k=-window, dtype=bool)
    mask[:, :sinks] = causal_mask(n)[:, :sinks]
    return mask
# --8<-- [end:window]


# --8<-- [start:rope]
from efficient_checks import check_rope


def rope(x, positions, base=10000.0):
    """회전 위치 임베딩: 성분 쌍 (0, 1), (2, 3), … 을 자리 × 쌍마다 다른 속도의 각도만큼 돌립니다."""
    x, positions, base = check_rope(x, positions, base)
    # 각도 (n, d/2): 자리 × 쌍마다의 속도
    angle = positions[:, None] * base ** (-np.arange(0, x.shape[-1], 2) / x.shape[-1])
    cos, sin = np.cos(angle), np.sin(angle)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = even * cos - odd * sin, even * sin + odd * cos
    return out
# --8<-- [end:rope]
