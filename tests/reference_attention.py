"""정의를 그대로 옮긴 느린 참조 구현 (Python 반복문, float64).

코어(snippets/lib/attention.py)와 독립적으로 쓰였습니다: numpy 는 배열을 담고 모양을
브로드캐스트하는 데에만 쓰고, 내적·지수·합은 모두 Python 의 math 로 한 칸씩 계산합니다.
"""

import math

import numpy as np


def reference_softmax(x, axis=-1, mask=None):
    """축 axis 를 따라 한 줄씩, 볼 수 있는 자리만 math.exp 로 계산합니다 (가려진 자리는 읽지 않음)."""
    x = np.asarray(x, dtype=np.float64)
    m = np.broadcast_to(True if mask is None else mask, x.shape)
    x, m = np.moveaxis(x, axis, -1), np.moveaxis(m, axis, -1)
    out = np.zeros(x.shape)
    for idx in np.ndindex(*x.shape[:-1]):
        visible = [j for j in range(x.shape[-1]) if m[idx][j]]
        if not visible:  # 볼 자리가 없는 줄(길이 0 인 줄 포함)은 0
            continue
        top = max(float(x[idx][j]) for j in visible)
        exps = {j: math.exp(float(x[idx][j]) - top) for j in visible}
        total = sum(exps.values())
        for j, e in exps.items():
            out[idx][j] = e / total
    return np.moveaxis(out, -1, axis)


def reference_split_heads(x, num_heads):
    """헤드 h 는 마지막 축의 열 구간 [h·d_head, (h+1)·d_head) 입니다."""
    x = np.asarray(x)
    d_head = x.shape[-1] // num_heads
    return np.stack([x[..., h * d_head : (h + 1) * d_head] for h in range(num_heads)], axis=-3)


def reference_merge_heads(x):
    """헤드들의 (n, d_head) 를 열 방향으로 이어 붙입니다."""
    x = np.asarray(x)
    if x.shape[-3] == 0:  # 헤드가 없으면 폭 0
        return np.zeros(x.shape[:-3] + (x.shape[-2], 0), x.dtype)
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)


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
        o, w = reference_attention(
            q[..., cols], k[..., cols], v[..., cols], None if mask is None else mask[..., h, :, :]
        )
        outs.append(o)
        ws.append(w)
    return proj(np.concatenate(outs, axis=-1), "W_O"), np.stack(ws, axis=-3)
