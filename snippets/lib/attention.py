"""어텐션 코어: 사이트의 모든 페이지·노트북·그림·실제 모델이 가져다 쓰는 단 하나의 구현.

여기 있는 함수만으로 어텐션(attention)을 계산합니다. 다른 파일은 이 함수들을 다시 만들지 않고
`from attention import ...` 로 가져옵니다.

모양(shape) 약속
    q: (..., n_q, d_k)   k: (..., n_k, d_k)   v: (..., n_k, d_v)
    앞쪽 `...` 은 배치(batch)·헤드(head) 같은 축이며 서로 브로드캐스트(broadcast)될 수 있습니다.

마스크(mask) 약속 — PyTorch `scaled_dot_product_attention` 과 같습니다
    불리언(bool) 배열이고 True = "이 키를 볼 수 있음", False = "가림".
    모양은 (n_q, n_k) 이거나, 점수 (..., n_q, n_k) 와 축 수가 같아야 합니다(크기 1 인 축은 브로드캐스트).
    축 수가 그 사이인 마스크는 어느 축이 무엇인지 모호해서 받지 않습니다. 마스크의 뜻은 언제나
    축 수로만 정해지고, 배치 수와 헤드 수가 우연히 같은지에 따라 달라지지 않습니다.
    모든 키가 가려진 행은 가중치가 전부 0이고, 그래서 출력도 0입니다 (NaN이 아닙니다).

dtype 약속
    float32 입력은 float32 로, float64 입력은 float64 로 계산해 돌려줍니다. float16 은 float32 로,
    정수·불리언은 float64 로 바꿔 계산합니다(정수 곱셈이 조용히 넘치지 않게). 복소수·문자열·객체
    배열은 조용히 바꾸지 않고 TypeError 입니다. 입력에 NaN 이나 inf 가 있거나, 계산 도중 값이
    dtype 의 범위를 넘으면 ValueError 입니다.

빈 입력 약속
    원소가 없는 축은 오류가 아닙니다: 길이 0 인 축의 소프트맥스는 같은 모양의 빈 배열이고,
    키가 하나도 없는(n_k = 0) 어텐션은 모든 키가 가려진 것과 같아 출력이 0 입니다.

잘못된 입력
    오류 메시지는 언제나 문제인 인자의 이름과 그 모양·dtype·값을 적습니다. 종류가 틀리면
    TypeError(예: 복소수 배열, num_heads=2.0), 값이나 모양이 틀리면 ValueError 입니다.
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
    길이가 0 인 축의 소프트맥스는 같은 모양의 빈 배열입니다 (나눠 줄 몫이 없습니다).
    """
    # 입력 검사와 dtype 약속 (바로 아래 도우미)
    x = _softmax_input(x, axis)
    if x.shape[axis] == 0:
        return x.copy()
    # 차이가 dtype 범위 밖이면 -inf 가 되고,
    # exp(-inf) = 0 이 맞는 값입니다
    with np.errstate(over="ignore"):
        shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_input(x, axis):
    """float32 는 float32 로, float64 는 float64 로 (float16 은 float32, 정수·불리언은 float64) 바꾼 x.

    실수가 아닌 dtype(복소수의 허수부를 조용히 버리지 않게)은 TypeError, 배열로 만들 수 없거나
    axis 가 x 의 축이 아니거나 NaN·inf 가 있으면 ValueError 입니다.
    """
    try:
        x = np.asarray(x)
    # 행마다 길이가 다른 중첩 리스트
    except ValueError:
        raise ValueError("x 를 배열로 만들 수 없습니다 (행마다 길이가 다른가요?)") from None
    # 불리언·정수·부호 없는 정수·실수
    if x.dtype.kind not in "biuf":
        raise TypeError(f"x 는 실수 배열이어야 합니다: x.dtype={x.dtype}, x.shape={x.shape}")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis={axis!r} 는 x.shape={x.shape} 의 축 번호가 아닙니다")
    x = x.astype(np.result_type(x.dtype, np.float32) if x.dtype.kind == "f" else np.float64, copy=False)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"x 에 NaN 이나 inf 가 있습니다: x.shape={x.shape}")
    return x
# --8<-- [end:softmax]


# --8<-- [start:masked_softmax]
def masked_softmax(scores, mask=None, axis=-1):
    """마스크가 False 인 자리를 빼고 계산하는 소프트맥스.

    가려진 자리는 exp 를 계산하지 않고 정확히 0으로 둡니다 (-1e9 를 더하는 요령과 달리
    근사가 아닙니다). 모든 자리가 가려진 행은 0으로 채웁니다: 0/0 = NaN 이 뒤 계산으로
    조용히 번지지 않게 하려는 약속입니다. 가려진 자리의 점수는 읽지 않으므로 NaN이어도 됩니다.
    """
    if mask is None:
        return softmax(scores, axis=axis)
    scores = _float_array(scores, "scores")
    _check_axis(axis, scores, "scores")
    mask = np.broadcast_to(_check_mask(mask, scores.shape, "scores"), scores.shape)
    if not np.all(np.isfinite(scores[mask])):
        raise ValueError(f"볼 수 있는 자리의 점수에 NaN 이나 inf 가 있습니다 (scores.shape={scores.shape})")
    # 최댓값은 볼 수 있는 자리에서만 구합니다.
    # 행 전체가 가려졌다면(길이 0인 행도) 0을 씁니다.
    row_max = np.max(np.where(mask, scores, -np.inf), axis=axis, keepdims=True, initial=-np.inf)
    row_max = np.where(row_max == -np.inf, 0, row_max)
    # 가린 자리는 빼지도 않고 -inf 로 둡니다:
    # exp(-inf) = 0 이고 경고도 없습니다
    with np.errstate(over="ignore"):
        shifted = np.subtract(scores, row_max, out=np.full_like(scores, -np.inf), where=mask)
    e = np.exp(shifted)
    total = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
# --8<-- [end:masked_softmax]


# --8<-- [start:checks]
def _array(a, name):
    """np.asarray 와 같지만, 배열로 만들 수 없는 입력(행마다 길이가 다른 리스트)은 이름을 밝힙니다."""
    try:
        return np.asarray(a)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} 를 배열로 만들 수 없습니다 (행마다 길이가 다른가요?): {err}") from None


def _float_array(a, name):
    """dtype 약속(모듈 설명)대로 바꾼 배열. 실수가 아닌 배열은 조용히 바꾸지 않고 TypeError 입니다."""
    a = _array(a, name)
    # 불리언·정수·부호 없는 정수·실수만
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} 는 실수 배열이어야 합니다: {name}.dtype={a.dtype}, {name}.shape={a.shape}")
    return a.astype(np.result_type(a.dtype, np.float32) if a.dtype.kind == "f" else np.float64, copy=False)


def _check_axis(axis, a, name):
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or not -a.ndim <= axis < a.ndim:
        raise ValueError(f"axis={axis!r} 는 {name}.shape={a.shape} 의 축 번호가 아닙니다")


def _check_mask(mask, scores_shape, scores_name="점수"):
    """마스크는 불리언이고, (n_q, n_k) 이거나 점수와 축 수가 같고, 점수 모양으로 브로드캐스트됩니다."""
    mask = _array(mask, "mask")
    if mask.dtype != np.bool_:
        raise ValueError(
            f"mask 는 불리언이어야 합니다 (True = 볼 수 있음): mask.dtype={mask.dtype}, "
            f"mask.shape={mask.shape}"
        )
    if mask.ndim not in (2, len(scores_shape)):
        raise ValueError(
            f"mask.shape={mask.shape} 는 (n_q, n_k) 이거나 {scores_name} {scores_shape} 와 축 수가 같아야 "
            "합니다: 축 수가 그 사이이면 어느 축이 배치이고 어느 축이 헤드인지 모호합니다"
        )
    try:
        ok = np.broadcast_shapes(mask.shape, scores_shape) == scores_shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"mask.shape={mask.shape} 가 {scores_name} 모양 {scores_shape} (..., n_q, n_k) 로 "
            "브로드캐스트되지 않습니다"
        )
    return mask


def _check_attention_inputs(q, k, v, mask):
    """모양·dtype·값을 검사하고, 같은 dtype 으로 맞춘 (q, k, v, mask) 를 돌려줍니다.

    어긋나면 어떤 입력의 어떤 모양(dtype)이 왜 문제인지 적은 ValueError(TypeError) 를 냅니다.
    """
    q, k, v = _float_array(q, "q"), _float_array(k, "k"), _float_array(v, "v")
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
        raise ValueError(f"d_k 가 0 이라 √d_k 로 나눌 수 없습니다: q.shape={q.shape}, k.shape={k.shape}")
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
    if mask is not None:
        mask = _check_mask(mask, (*lead, q.shape[-2], k.shape[-2]))
    dtype = np.result_type(q, k, v)
    return q.astype(dtype, copy=False), k.astype(dtype, copy=False), v.astype(dtype, copy=False), mask


def _check_in_range(result, what, **inputs):
    """계산 결과에 inf·NaN 이 생겼다면 (dtype 범위를 넘었다면) 입력을 밝힌 ValueError 를 냅니다."""
    if not np.all(np.isfinite(result)):
        sizes = ", ".join(f"{n}.shape={a.shape}, |{n}| 최대 {np.max(np.abs(a)):.3g}" for n, a in inputs.items())
        raise ValueError(f"{what} 가 {result.dtype} 범위를 넘었습니다 ({sizes})")
    return result
# --8<-- [end:checks]


# --8<-- [start:sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """스케일드 닷-프로덕트 어텐션: softmax(Q Kᵀ / √d_k) V.

    반환값: (출력 (..., n_q, d_v), 어텐션 가중치 (..., n_q, n_k)).
    가중치의 각 행은 한 쿼리가 모든 키에 나눠 준 몫이라서 합이 1입니다.
    """
    # 모양·dtype·NaN 검사 (위의 도우미)
    q, k, v, mask = _check_attention_inputs(q, k, v, mask)
    d_k = q.shape[-1]
    # √d_k 를 입력과 같은 dtype 으로 만듭니다:
    # np.sqrt(64) 는 float64 라서 float32 점수를
    # 나누면 결과가 조용히 float64 로 바뀝니다.
    # 넘침은 경고 대신 바로 아래에서 분명한 오류로
    with np.errstate(over="ignore", invalid="ignore"):
        scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(q.dtype.type(d_k))
    _check_in_range(scores, "점수 Q Kᵀ/√d_k", q=q, k=k)
    # 키 축(마지막 축)으로 정규화
    weights = masked_softmax(scores, mask, axis=-1)
    with np.errstate(over="ignore"):
        output = weights @ v
    _check_in_range(output, "출력 (가중치 @ v)", v=v)
    return output, weights
# --8<-- [end:sdpa]


# --8<-- [start:heads]
def split_heads(x, num_heads):
    """(..., n, d_model) → (..., h, n, d_model/h).

    reshape 만 하면 (..., n, h, d_head) 가 됩니다. 헤드 축을 길이 축 앞으로 옮기는
    swapaxes 가 있어야 헤드마다 (n, d_head) 행렬이 생깁니다. 모양만 바꾸므로 dtype 은 그대로입니다.
    """
    x = _array(x, "x")
    if x.ndim < 2:
        raise ValueError(f"x 는 최소 2차원 (..., n, d_model) 이어야 합니다: x.shape={x.shape}")
    *lead, n, d_model = x.shape
    num_heads = _check_heads(num_heads, d_model, f"x.shape={x.shape}")
    x = x.reshape(*lead, n, num_heads, d_model // num_heads)
    return np.swapaxes(x, -3, -2)


def merge_heads(x):
    """(..., h, n, d_head) → (..., n, h·d_head): split_heads 의 역연산."""
    x = _array(x, "x")
    if x.ndim < 3:
        raise ValueError(f"x 는 헤드 축이 있는 (..., h, n, d_head) 여야 합니다: x.shape={x.shape}")
    x = np.swapaxes(x, -3, -2)
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])


def _check_count(value, name, minimum=0):
    """헤드 수·길이처럼 개수를 뜻하는 인자: 정수(불리언 제외)이고 minimum 이상이어야 합니다."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} 는 정수여야 합니다: {name}={value!r} ({type(value).__name__})")
    if value < minimum:
        raise ValueError(f"{name}={value} 는 {minimum} 이상의 정수여야 합니다")
    return int(value)


def _check_heads(num_heads, d_model, where):
    num_heads = _check_count(num_heads, "num_heads", minimum=1)
    if d_model % num_heads:
        raise ValueError(f"d_model={d_model} 이 헤드 수 {num_heads} 로 나누어떨어지지 않습니다 ({where})")
    return num_heads
# --8<-- [end:heads]


# --8<-- [start:mha]
def multi_head_attention(x_q, x_kv, params, num_heads, mask=None):
    """멀티헤드 어텐션: 헤드 h 개를 한 번의 배열 연산으로 계산합니다.

    x_q: (..., n_q, d_model) 쿼리를 만들 입력,  x_kv: (..., n_k, d_model) 키·밸류를 만들 입력.
    셀프 어텐션이면 x_q 와 x_kv 가 같은 배열이고, 크로스 어텐션이면 다릅니다.
    params: W_Q, W_K, W_V, W_O 는 (d_model, d_model) 행렬이고 입력에 오른쪽에서 곱합니다
    (Q = X W_Q). b_Q, b_K, b_V, b_O 편향 (d_model,) 은 있으면 더합니다. 다른 이름은 오류입니다.
    mask: (n_q, n_k), 헤드 축이 없는 (..., n_q, n_k), 또는 헤드 축이 있는 (..., h, n_q, n_k).
    `...` 은 x_q 와 x_kv 의 배치 축을 브로드캐스트한 것이고, 어느 쪽인지는 축 수로 정해집니다.
    헤드 축이 없으면 모든 헤드에 같은 마스크를 씁니다.
    반환값: (출력 (..., n_q, d_model), 가중치 (..., h, n_q, n_k)).
    """
    x_q, x_kv, params, num_heads, mask = _check_mha_inputs(x_q, x_kv, params, num_heads, mask)

    def project(x, x_name, name):
        bias = params.get("b" + name[1:])
        # 넘침은 경고 대신 분명한 오류로 바꿉니다
        with np.errstate(over="ignore", invalid="ignore"):
            y = x @ params[name] if bias is None else x @ params[name] + bias
        return _check_in_range(y, f"투영 {x_name} @ {name}", **{x_name: x, name: params[name]})

    # 쿼리 (..., h, n_q, d_head)
    # 키·밸류 (..., h, n_k, d_head)
    q = split_heads(project(x_q, "x_q", "W_Q"), num_heads)
    k = split_heads(project(x_kv, "x_kv", "W_K"), num_heads)
    v = split_heads(project(x_kv, "x_kv", "W_V"), num_heads)
    heads, weights = scaled_dot_product_attention(q, k, v, mask)
    return project(merge_heads(heads), "heads", "W_O"), weights


# 파라미터 이름: 축 수
_PARAM_NDIM = {"W_Q": 2, "W_K": 2, "W_V": 2, "W_O": 2,
               "b_Q": 1, "b_K": 1, "b_V": 1, "b_O": 1}


def _check_mha_inputs(x_q, x_kv, params, num_heads, mask):
    """멀티헤드 어텐션의 입력 검사. 같은 dtype 으로 맞춘 (x_q, x_kv, params, num_heads, mask) 를 돌려줍니다."""
    x_q, x_kv = _float_array(x_q, "x_q"), _float_array(x_kv, "x_kv")
    for name, x in (("x_q", x_q), ("x_kv", x_kv)):
        if x.ndim < 2:
            raise ValueError(f"{name} 는 최소 2차원 (..., 길이, d_model) 이어야 합니다: {name}.shape={x.shape}")
        if not np.all(np.isfinite(x)):
            raise ValueError(f"{name} 에 NaN 이나 inf 가 있습니다: {name}.shape={x.shape}")
    d_model = x_q.shape[-1]
    if x_kv.shape[-1] != d_model:
        raise ValueError(f"x_q.shape={x_q.shape} 와 x_kv.shape={x_kv.shape} 의 d_model 이 다릅니다")
    try:
        lead = np.broadcast_shapes(x_q.shape[:-2], x_kv.shape[:-2])
    except ValueError:
        raise ValueError(f"x_q.shape={x_q.shape} 와 x_kv.shape={x_kv.shape} 의 배치 축이 "
                         "브로드캐스트되지 않습니다") from None
    num_heads = _check_heads(num_heads, d_model, f"x_q.shape={x_q.shape}")
    if not isinstance(params, dict):
        raise TypeError(f"params 는 이름 → 배열의 dict 여야 합니다: {type(params).__name__}")
    unknown = sorted(set(params) - set(_PARAM_NDIM), key=str)
    # 철자가 틀린 편향(예: "b_q")이 조용히 빠지지 않게
    if unknown:
        raise ValueError(f"params 에 모르는 이름 {unknown} 이 있습니다 (쓸 수 있는 이름: {list(_PARAM_NDIM)})")
    checked = {}
    for name, ndim in _PARAM_NDIM.items():
        if params.get(name) is None:
            if ndim == 2:
                raise ValueError(f"params 에 {name} 가 없습니다 (W_Q, W_K, W_V, W_O 가 필요합니다)")
            # 편향은 없어도 됩니다
            continue
        p = _float_array(params[name], name)
        if p.shape != (d_model,) * ndim:
            raise ValueError(f"{name}.shape={p.shape} 는 입력 x_q.shape={x_q.shape} 에 맞게 "
                             f"{(d_model,) * ndim} 이어야 합니다")
        if not np.all(np.isfinite(p)):
            raise ValueError(f"{name} 에 NaN 이나 inf 가 있습니다: {name}.shape={p.shape}")
        checked[name] = p
    if mask is not None:
        # 마스크의 뜻은 축 수로만 정합니다: 입력의 배치
        # 축 수 + 2 이면 헤드 축이 없고, + 3 이면 있습니다.
        mask = _array(mask, "mask")
        n_q, n_k = x_q.shape[-2], x_kv.shape[-2]
        if mask.ndim == len(lead) + 3:
            mask = _check_mask(mask, (*lead, num_heads, n_q, n_k), "헤드 축이 있는 점수")
        elif mask.ndim in (2, len(lead) + 2):
            mask = _check_mask(mask, (*lead, n_q, n_k), "헤드 축이 없는 점수")
            # 헤드 축을 넣어 모든 헤드에 같은 마스크를 씁니다
            if mask.ndim > 2:
                mask = mask[..., None, :, :]
        else:
            raise ValueError(f"mask.shape={mask.shape} 는 (n_q, n_k), (..., n_q, n_k) = {(*lead, n_q, n_k)}, "
                             f"(..., h, n_q, n_k) = {(*lead, num_heads, n_q, n_k)} 중 하나여야 합니다")
    dtype = np.result_type(x_q, x_kv, *checked.values())
    checked = {name: p.astype(dtype, copy=False) for name, p in checked.items()}
    return x_q.astype(dtype, copy=False), x_kv.astype(dtype, copy=False), checked, num_heads, mask
# --8<-- [end:mha]


# --8<-- [start:masks]
def causal_mask(n):
    """(n, n) 인과 마스크: 쿼리 i 는 키 0..i 만 볼 수 있습니다 (True = 볼 수 있음)."""
    n = _check_count(n, "n")
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, n_k):
    """패딩 마스크 (batch, 1, 1, n_k): 문장 b 의 앞 lengths[b] 개 키만 진짜 토큰입니다.

    가운데 두 축은 헤드와 쿼리 축이라서 (batch, h, n_q, n_k) 점수에 그대로 브로드캐스트됩니다.
    헤드 축이 없는 (batch, n_q, n_k) 점수에는 padding_mask(...)[:, 0] 을 쓰세요.
    lengths 가 비어 있으면(문장 0 개) 모양 (0, 1, 1, n_k) 의 빈 마스크입니다.
    """
    n_k = _check_count(n_k, "n_k")
    lengths = _array(lengths, "lengths")
    if lengths.size == 0 and lengths.ndim == 1:
        # [] 는 float64 배열이 되지만, 문장 0개라는 뜻입니다
        lengths = lengths.astype(np.int64)
    if lengths.ndim != 1 or lengths.dtype.kind not in "iu":
        raise ValueError(f"lengths 는 정수 1차원 (batch,) 이어야 합니다: lengths={lengths!r}")
    if np.any(lengths < 0) or np.any(lengths > n_k):
        raise ValueError(f"lengths={lengths.tolist()} 는 0 이상 n_k={n_k} 이하여야 합니다")
    # (batch, n_k)
    valid = np.arange(n_k) < lengths[:, None]
    return valid[:, None, None, :]
# --8<-- [end:masks]
