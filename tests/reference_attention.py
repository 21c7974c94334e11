"""정의를 그대로 옮긴 느린 참조 구현 (Python 반복문, float64).

코어(snippets/attention.py)와 독립적으로 쓰였습니다: numpy 는 배열을 담고 모양을
브로드캐스트하는 데에만 쓰고, 내적·지수·합은 모두 Python 의 math 로 한 칸씩 계산합니다.
"""

import math

import numpy as np


def reference_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n_q, d_k = q.shape[-2:]
    n_k, d_v = v.shape[-2:]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    qb = np.broadcast_to(q, lead + (n_q, d_k))
    kb = np.broadcast_to(k, lead + (n_k, d_k))
    vb = np.broadcast_to(v, lead + (n_k, d_v))
    mb = np.broadcast_to(np.ones((n_q, n_k), bool) if mask is None else mask, lead + (n_q, n_k))
    out = np.zeros(lead + (n_q, d_v))
    weights = np.zeros(lead + (n_q, n_k))
    for idx in np.ndindex(*lead):
        for i in range(n_q):
            scores = {}
            for j in range(n_k):
                if mb[idx][i, j]:
                    dot = sum(float(qb[idx][i, t]) * float(kb[idx][j, t]) for t in range(d_k))
                    scores[j] = dot / math.sqrt(d_k)
            if not scores:  # 볼 수 있는 키가 하나도 없으면 가중치·출력 모두 0
                continue
            top = max(scores.values())
            exps = {j: math.exp(s - top) for j, s in scores.items()}
            total = sum(exps.values())
            for j, e in exps.items():
                weights[idx][i, j] = e / total
            for c in range(d_v):
                out[idx][i, c] = sum(weights[idx][i, j] * float(vb[idx][j, c]) for j in range(n_k))
    return out, weights


def reference_multi_head(x_q, x_kv, params, num_heads, mask=None):
    """헤드마다 열 구간을 잘라 따로 계산한 뒤 이어 붙이는, 반복문 버전 멀티헤드 어텐션."""
    x_q, x_kv = np.asarray(x_q, np.float64), np.asarray(x_kv, np.float64)
    d_model = x_q.shape[-1]
    d_head = d_model // num_heads

    def proj(x, name):
        y = x @ np.asarray(params[name], np.float64)
        b = params.get("b" + name[1:])
        return y if b is None else y + b

    q, k, v = proj(x_q, "W_Q"), proj(x_kv, "W_K"), proj(x_kv, "W_V")
    n_q, n_k = x_q.shape[-2], x_kv.shape[-2]
    lead = np.broadcast_shapes(x_q.shape[:-2], x_kv.shape[:-2])
    if mask is not None:  # (..., h, n_q, n_k) 로 펼쳐 두고 헤드마다 한 장씩 꺼냅니다
        mask = np.broadcast_to(mask, lead + (num_heads, n_q, n_k))
    outs, ws = [], []
    for h in range(num_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        o, w = reference_attention(q[..., cols], k[..., cols], v[..., cols],
                                   None if mask is None else mask[..., h, :, :])
        outs.append(o)
        ws.append(w)
    return proj(np.concatenate(outs, axis=-1), "W_O"), np.stack(ws, axis=-3)
