"""어텐션 코어: 사이트의 모든 페이지·노트북·그림·실제 모델이 가져다 쓰는 단 하나의 구현.

여기 있는 함수만으로 어텐션(attention)을 계산합니다. 다른 파일은 이 함수들을 다시 만들지 않고
`from attention import ...` 로 가져옵니다.

모양(shape) 약속
    q: (..., n_q, d_k)   k: (..., n_k, d_k)   v: (..., n_k, d_v)
    앞쪽 `...` 은 배치(batch)·헤드(head) 같은 축이며 서로 브로드캐스트(broadcast)될 수 있습니다.

마스크(mask) 약속 — PyTorch `scaled_dot_product_attention` 과 같습니다
    불리언(bool) 배열이고 True = "이 키를 볼 수 있음", False = "가림".
    모양은 (n_q, n_k) 이거나, 점수 (..., n_q, n_k) 와 축 수가 같아야 합니다(크기 1 인 축은 브로드캐스트).
    축 수가 그 사이인 마스크는 어느 축이 무엇인지 모호해서 받지 않습니다.
    모든 키가 가려진 행은 가중치가 전부 0이고, 그래서 출력도 0입니다 (NaN이 아닙니다).

dtype 약속
    float32 입력은 float32 로, float64 입력은 float64 로 계산해 돌려줍니다. float16 은 float32 로,
    정수·불리언은 float64 로 바꿔 계산합니다. 입력에 NaN 이나 inf 가 있으면 ValueError 입니다.
"""

# --8<-- [start:imports]
import numpy as np
# --8<-- [end:imports]

__all__ = [
    "softmax",
    "masked_softmax",
    "scaled_dot_product_attention",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
    "causal_mask",
    "padding_mask",
]


# --8<-- [start:softmax]
def softmax(x, axis=-1):
    """수치적으로 안정한 소프트맥스(softmax).

    exp 에 넣기 전에 행의 최댓값을 빼 줍니다. softmax(x) = softmax(x - c) 이므로 결과는 같고,
    가장 큰 지수가 0이 되어 exp 가 넘치지(overflow) 않습니다.
    """
    x = np.asarray(x)
    # float32 는 float32 로, float64 는 float64 로 계산합니다 (float16 은 float32, 정수는 float64).
    floating = np.issubdtype(x.dtype, np.floating)
    x = x.astype(np.result_type(x.dtype, np.float32) if floating else np.float64, copy=False)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"소프트맥스 입력에 NaN 이나 inf 가 있습니다 (x.shape={x.shape})")
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
# --8<-- [end:softmax]


# --8<-- [start:masked_softmax]
def masked_softmax(scores, mask=None, axis=-1):
    """마스크가 False 인 자리를 빼고 계산하는 소프트맥스.

    가려진 자리는 exp 를 계산하지 않고 정확히 0으로 둡니다 (-1e9 를 더하는 요령과 달리
    근사가 아닙니다). 모든 자리가 가려진 행은 0으로 채웁니다: 0/0 = NaN 이 뒤 계산으로
    조용히 번지지 않게 하려는 약속입니다.
    """
    if mask is None:
        return softmax(scores, axis=axis)
    scores, mask = np.asarray(scores), np.asarray(mask)
    if mask.dtype != np.bool_:
        raise ValueError(f"mask 는 불리언이어야 합니다 (True = 볼 수 있음): mask.dtype={mask.dtype}")
    floating = np.issubdtype(scores.dtype, np.floating)
    scores = scores.astype(np.result_type(scores.dtype, np.float32) if floating else np.float64, copy=False)
    mask = np.broadcast_to(mask, scores.shape)
    if not np.all(np.isfinite(scores[mask])):
        raise ValueError(f"볼 수 있는 자리의 점수에 NaN 이나 inf 가 있습니다 (scores.shape={scores.shape})")
    # 최댓값은 볼 수 있는 자리에서만 구합니다. 행 전체가 가려졌다면 0을 씁니다.
    row_max = np.max(np.where(mask, scores, -np.inf), axis=axis, keepdims=True)
    row_max = np.where(row_max == -np.inf, 0, row_max)
    e = np.exp(np.where(mask, scores - row_max, -np.inf))  # exp(-inf) = 0, 경고 없음
    total = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
# --8<-- [end:masked_softmax]


# --8<-- [start:checks]
def _check_attention_inputs(q, k, v, mask):
    """모양이 어긋나면 어떤 모양이 왜 문제인지 적은 ValueError 를 냅니다."""
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim < 2:
            raise ValueError(
                f"{name} 는 최소 2차원 (..., 길이, 특성) 이어야 합니다: {name}.shape={a.shape}"
            )
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} 에 NaN 이나 inf 가 있습니다: {name}.shape={a.shape}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            "쿼리와 키의 특성 크기 d_k 가 달라 내적을 할 수 없습니다: "
            f"q.shape={q.shape}, k.shape={k.shape} (마지막 축 {q.shape[-1]} != {k.shape[-1]})"
        )
    if q.shape[-1] == 0:
        raise ValueError(f"d_k 가 0 입니다: q.shape={q.shape}, k.shape={k.shape}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            "키와 밸류의 길이 n_k 가 달라 가중합을 할 수 없습니다: "
            f"k.shape={k.shape}, v.shape={v.shape} (뒤에서 둘째 축 {k.shape[-2]} != {v.shape[-2]})"
        )
    try:
        lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            "배치·헤드 축이 브로드캐스트되지 않습니다: "
            f"q.shape={q.shape}, k.shape={k.shape}, v.shape={v.shape}"
        ) from None
    scores_shape = (*lead, q.shape[-2], k.shape[-2])
    if mask is not None:
        if mask.dtype != np.bool_:
            raise ValueError(
                f"mask 는 불리언이어야 합니다 (True = 볼 수 있음): mask.dtype={mask.dtype}, "
                f"mask.shape={mask.shape}"
            )
        if mask.ndim not in (2, len(scores_shape)):
            raise ValueError(
                f"mask.shape={mask.shape} 는 (n_q, n_k) 이거나 점수 {scores_shape} 와 축 수가 같아야 합니다: "
                "축 수가 그 사이이면 어느 축이 배치이고 어느 축이 헤드인지 모호합니다"
            )
        try:
            ok = np.broadcast_shapes(mask.shape, scores_shape) == scores_shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                f"mask.shape={mask.shape} 가 점수 모양 {scores_shape} (..., n_q, n_k) 로 "
                "브로드캐스트되지 않습니다"
            )
    return scores_shape
# --8<-- [end:checks]


# --8<-- [start:sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """스케일드 닷-프로덕트 어텐션: softmax(Q Kᵀ / √d_k) V.

    반환값: (출력 (..., n_q, d_v), 어텐션 가중치 (..., n_q, n_k)).
    가중치의 각 행은 한 쿼리가 모든 키에 나눠 준 몫이라서 합이 1입니다.
    """
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    mask = None if mask is None else np.asarray(mask)
    scores_shape = _check_attention_inputs(q, k, v, mask)
    dtype = np.result_type(q, k, v)
    dtype = np.result_type(dtype, np.float32) if np.issubdtype(dtype, np.floating) else np.dtype(np.float64)
    q, k, v = q.astype(dtype, copy=False), k.astype(dtype, copy=False), v.astype(dtype, copy=False)
    if k.shape[-2] == 0:  # 볼 키가 하나도 없으면: 모든 행이 가려진 것과 같은 약속 (0)
        lead = scores_shape[:-2]
        return np.zeros((*lead, q.shape[-2], v.shape[-1]), dtype), np.zeros(scores_shape, dtype)

    d_k = q.shape[-1]
    # √d_k 를 입력과 같은 dtype 으로 만듭니다: np.sqrt(64) 는 float64 라서
    # float32 점수를 나누면 결과가 조용히 float64 로 바뀝니다.
    with np.errstate(over="ignore", invalid="ignore"):  # 넘침은 바로 아래에서 분명한 오류로 바꿉니다
        scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(dtype.type(d_k))
    if not np.all(np.isfinite(scores)):
        raise ValueError(
            f"점수 Q Kᵀ/√d_k 가 {dtype} 범위를 넘었습니다 (q.shape={q.shape}, k.shape={k.shape})"
        )
    weights = masked_softmax(scores, mask, axis=-1)  # 키 축(마지막 축)으로 정규화
    return weights @ v, weights
# --8<-- [end:sdpa]


# --8<-- [start:heads]
def split_heads(x, num_heads):
    """(..., n, d_model) → (..., h, n, d_model/h).

    reshape 만 하면 (..., n, h, d_head) 가 됩니다. 헤드 축을 길이 축 앞으로 옮기는
    swapaxes 가 있어야 헤드마다 (n, d_head) 행렬이 생깁니다.
    """
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"x 는 최소 2차원 (..., n, d_model) 이어야 합니다: x.shape={x.shape}")
    *lead, n, d_model = x.shape
    if num_heads < 1 or d_model % num_heads:
        raise ValueError(
            f"d_model={d_model} 이 헤드 수 {num_heads} 로 나누어떨어지지 않습니다 (x.shape={x.shape})"
        )
    x = x.reshape(*lead, n, num_heads, d_model // num_heads)
    return np.swapaxes(x, -3, -2)


def merge_heads(x):
    """(..., h, n, d_head) → (..., n, h·d_head): split_heads 의 역연산."""
    x = np.swapaxes(x, -3, -2)
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])
# --8<-- [end:heads]


# --8<-- [start:mha]
def multi_head_attention(x_q, x_kv, params, num_heads, mask=None):
    """멀티헤드 어텐션: 헤드 h 개를 한 번의 배열 연산으로 계산합니다.

    x_q: (..., n_q, d_model) 쿼리를 만들 입력,  x_kv: (..., n_k, d_model) 키·밸류를 만들 입력.
    셀프 어텐션이면 x_q 와 x_kv 가 같은 배열이고, 크로스 어텐션이면 다릅니다.
    params: W_Q, W_K, W_V, W_O 는 (d_model, d_model) 행렬이고 입력에 오른쪽에서 곱합니다
    (Q = X W_Q). b_Q, b_K, b_V, b_O 편향 (d_model,) 은 있으면 더합니다.
    mask: (n_q, n_k), 헤드 축이 없는 (..., n_q, n_k), 또는 헤드 축이 있는 (..., h, n_q, n_k).
    헤드 축이 없으면 모든 헤드에 같은 마스크를 씁니다.
    반환값: (출력 (..., n_q, d_model), 가중치 (..., h, n_q, n_k)).
    """
    x_q, x_kv = np.asarray(x_q), np.asarray(x_kv)
    for name, x in (("x_q", x_q), ("x_kv", x_kv)):
        if x.ndim < 2:
            raise ValueError(f"{name} 는 최소 2차원 (..., 길이, d_model) 이어야 합니다: {name}.shape={x.shape}")
    d_model = x_q.shape[-1]
    if x_kv.shape[-1] != d_model:
        raise ValueError(f"x_q.shape={x_q.shape} 와 x_kv.shape={x_kv.shape} 의 d_model 이 다릅니다")
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        if name not in params:
            raise ValueError(f"params 에 {name} 가 없습니다 (W_Q, W_K, W_V, W_O 가 필요합니다)")
        w = np.asarray(params[name])
        if w.shape != (d_model, d_model):
            raise ValueError(f"{name}.shape={w.shape} 는 입력 x_q.shape={x_q.shape} 에 맞게 "
                             f"({d_model}, {d_model}) 이어야 합니다")
        bias = params.get("b" + name[1:])
        if bias is not None and np.shape(bias) != (d_model,):
            raise ValueError(f"b{name[1:]}.shape={np.shape(bias)} 는 ({d_model},) 이어야 합니다")
    if num_heads < 1 or d_model % num_heads:
        raise ValueError(
            f"d_model={d_model} 이 헤드 수 {num_heads} 로 나누어떨어지지 않습니다 (x_q.shape={x_q.shape})"
        )
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim == x_q.ndim and mask.ndim > 2:  # 헤드 축이 없으면 넣어서 모든 헤드에 같이 씁니다
            mask = mask[..., None, :, :]

    def project(x, name):
        y = x @ params[name]
        bias = params.get("b" + name[1:])
        return y if bias is None else y + bias

    q = split_heads(project(x_q, "W_Q"), num_heads)   # (..., h, n_q, d_head)
    k = split_heads(project(x_kv, "W_K"), num_heads)  # (..., h, n_k, d_head)
    v = split_heads(project(x_kv, "W_V"), num_heads)  # (..., h, n_k, d_head)
    heads, weights = scaled_dot_product_attention(q, k, v, mask)
    return project(merge_heads(heads), "W_O"), weights
# --8<-- [end:mha]


# --8<-- [start:masks]
def causal_mask(n):
    """(n, n) 인과 마스크: 쿼리 i 는 키 0..i 만 볼 수 있습니다 (True = 볼 수 있음)."""
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, n_k):
    """패딩 마스크 (batch, 1, 1, n_k): 문장 b 의 앞 lengths[b] 개 키만 진짜 토큰입니다.

    가운데 두 축은 헤드와 쿼리 축이라서 (batch, h, n_q, n_k) 점수에 그대로 브로드캐스트됩니다.
    헤드 축이 없는 (batch, n_q, n_k) 점수에는 padding_mask(...)[:, 0] 을 쓰세요.
    """
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or not np.issubdtype(lengths.dtype, np.integer):
        raise ValueError(f"lengths 는 정수 1차원 (batch,) 이어야 합니다: lengths={lengths!r}")
    if np.any(lengths < 0) or np.any(lengths > n_k):
        raise ValueError(f"lengths={lengths.tolist()} 는 0 이상 n_k={n_k} 이하여야 합니다")
    valid = np.arange(n_k) < lengths[:, None]  # (batch, n_k)
    return valid[:, None, None, :]
# --8<-- [end:masks]
