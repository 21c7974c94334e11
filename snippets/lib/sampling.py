"""다음 토큰을 고르는 세 손잡이: 온도(temperature), top-k, top-p. 로짓 → 뽑을 확률.

차례는 transformers 의 generate 와 같습니다: 로짓을 온도로 나눠 소프트맥스 → 확률이 큰 k 개만 남기기 → 큰 것부터
더해 p 에 닿는 가장 작은 묶음만 남기기 → 남은 것끼리 합이 1이 되게 다시 나누기. (llama.cpp 의 기본 순서는 온도를
맨 나중에 쓰므로, 같은 손잡이 값이라도 프로그램마다 결과가 조금 다를 수 있습니다.)
top-k 에서 k 번째와 로짓이 같은 토큰이 더 있으면 이 사이트는 id 가 작은 것부터 정확히 k 개만 남깁니다.
transformers 의 TopKLogitsWarper 는 k 번째와 같은 로짓을 모두 남깁니다 (로짓이 똑같은 일은 드뭅니다).
로짓의 -inf 는 "뽑을 수 없음"(확률 0)으로 받습니다: 마스크가 쓰는 값입니다. NaN 과 +inf 는 받지 않습니다.

페이지의 JavaScript(docs/assets/next-token.js)는 어휘 262,144개의 로짓을 모두 받지 않고, 걸음마다 요약만 받습니다
(summarize): 상위 후보 50개의 로짓과, 도구의 손잡이가 설 수 있는 값(온도 0.05 간격, top-p 0.05 간격)마다 나머지
토큰들의 몫을 빌드 때 어휘 전체로 미리 더해 둔 표. 그래서 손잡이의 어느 자리에서나 답은 어휘 전체로 계산한 것과
(float64 의 반올림 안에서) 같습니다. 그 요약으로 같은 계산을 하는 것이 from_summary 이고, 브라우저 테스트가
JavaScript 의 답을 이것과, tests/test_next_token.py 가 이것을 어휘 전체의 계산과 손잡이의 모든 자리에서 견줍니다.
"""

# --8<-- [start:knobs]
import numpy as np


def probabilities(logits, temperature=1.0, top_k=0, top_p=1.0):
    """로짓 (어휘,) → 뽑을 확률 (어휘,). temperature = 0 은 가장 큰 로짓 하나 (탐욕), top_k = 0 과 top_p = 1 은 끔."""
    z = _logits(logits)
    temperature, top_k, top_p = _knobs(temperature, top_k, top_p)
    # 로짓이 큰 차례, 같으면 id 가 작은 것부터
    order = np.argsort(-z, kind="stable")
    out = np.zeros_like(z)
    if temperature == 0:
        out[order[0]] = 1.0
        return out
    # 온도로 나눈 소프트맥스 (최댓값을 빼서 넘치지 않게; -inf 는 0)
    e = np.exp((z[order] - z.max()) / temperature)
    p = e / e.sum()
    if top_k:
        # 상위 k 개끼리 다시 나눕니다
        p = p[:top_k] / p[:top_k].sum()
    # 합이 p 에 처음 닿는 자리
    n = p.size if top_p >= 1 else int(np.searchsorted(np.cumsum(p), top_p - 1e-12)) + 1
    out[order[:n]] = p[:n] / p[:n].sum()
    return out
# --8<-- [end:knobs]


# --8<-- [start:summary]
# 걸음마다 로짓을 그대로 싣는 상위 후보 수
CANDIDATES = 50
# 도구의 손잡이가 설 수 있는 값 (0 은 탐욕, top-p 1 은 끔이라 표가 필요 없습니다)
TEMPERATURES = tuple(round(0.05 * i, 2) for i in range(1, 41))
TOP_PS = tuple(round(0.05 * i, 2) for i in range(1, 20))
# 온도로 나눈 로짓이 1등보다 이만큼 작으면 exp 가 1등의 e^-60 (≈ 1e-26) 보다 작습니다: 어휘 전체를 더해도 float64 의
# 반올림(1e-16)보다 작으므로 더하지 않습니다
NEGLIGIBLE = 60.0


def summarize(logits, candidates=CANDIDATES, temperatures=TEMPERATURES, top_ps=TOP_PS):
    """로짓 (어휘,) → 브라우저가 받는 요약 (dict, JSON 으로 쓸 수 있는 값만).

    - ids, logits: 상위 후보의 id 와 로짓 (로짓이 큰 차례, 같으면 id 가 작은 것부터; 로짓은 float64 값 그대로).
    - tail: 후보 밖 토큰(나머지)의 표. 온도 temperatures[t] 마다 mass[t] = Σ exp((z − z₁) / T) (z₁ = 1등의 로짓).
      top-p 의 경계가 나머지 안에 떨어지는 (T, p) 마다 count[t][i] = 남는 나머지 토큰 수, kept[t][i] = 그 토큰들의
      Σ exp((z − z₁) / T). 경계가 나머지 안에 떨어지는 p 는 top_ps 의 뒤쪽이므로 count[t] 는 top_ps 의 끝에 맞춥니다.
    """
    z = _logits(logits)
    candidates = _count(candidates, "candidates", z)
    temperatures = _grid(temperatures, "temperatures", upper=10.0, closed=True)
    top_ps = _grid(top_ps, "top_ps", upper=1.0, closed=False)
    top = _top(z, candidates)
    # 큰 차례로 정렬한 로짓과 1등과의 차이 (0 이상, 오름차순)
    gap = z[top[0]] - np.sort(z)[::-1]
    tail = {"size": z.size - candidates, "temperatures": list(temperatures), "top_ps": list(top_ps),
            "mass": [], "count": [], "kept": []}
    # 온도마다 다시 쓰는 작업 배열 (어휘 크기의 배열을 새로 만들지 않게)
    work, running = np.empty_like(gap), np.empty_like(gap)
    for T in temperatures:
        # 보탬이 있는 토큰만 (후보는 언제나)
        n = max(candidates, int(np.searchsorted(gap, NEGLIGIBLE * T, side="right")))
        e = np.exp(np.multiply(gap[:n], -1 / T, out=work[:n]), out=work[:n])
        # 누적 합 하나로: 확률의 누적(경계 찾기)과 나머지의 누적(남는 몫)
        run = np.cumsum(e, out=running[:n])
        cum = run / run[-1]
        counts, kept = [], []
        for p in top_ps:
            # probabilities 처럼: 확률의 누적 합이 p 에 처음 닿는 자리
            keep = int(np.searchsorted(cum, p - 1e-12)) + 1
            if keep > candidates:
                counts.append(keep - candidates)
                kept.append(float(run[keep - 1] - run[candidates - 1]))
            elif counts:
                raise AssertionError("top-p 의 경계는 p 가 클수록 뒤에 있어야 합니다")
        tail["mass"].append(float(e[candidates:].sum()))
        tail["count"].append(counts)
        tail["kept"].append(kept)
    return {"ids": top.tolist(), "logits": z[top].tolist(), "tail": tail}


def from_summary(summary, temperature=1.0, top_k=0, top_p=1.0):
    """요약으로 한 probabilities → (후보마다 확률 (후보,), 나머지 토큰 전체의 몫, 그 가운데 남은 토큰 수).

    top_k 를 켜면 후보만으로 계산합니다 (top_k 는 후보 수까지). top_k 를 끄면 나머지의 몫이 필요하므로 온도와
    top-p(1 이 아니면)는 요약의 표에 있는 값이어야 합니다: 도구의 손잡이가 설 수 있는 값입니다.
    """
    temperature, top_k, top_p = _knobs(temperature, top_k, top_p)
    z, tail = _check_summary(summary)
    if top_k > z.size:
        raise ValueError(f"top_k={top_k} 는 후보 수 {z.size} 이하여야 합니다 (0 = 끔)")
    if temperature == 0:
        return np.eye(1, z.size)[0], 0.0, 0
    # 후보는 로짓이 큰 차례입니다
    cand = np.exp((z - z[0]) / temperature)
    rest, count = 0.0, 0
    if top_k:
        # 상위 k 개는 모두 후보 안에 있습니다: 나머지 토큰은 모두 잘립니다
        cand[top_k:] = 0.0
        total = cand.sum()
    else:
        t = _grid_index(temperature, tail["temperatures"], "temperature")
        total = cand.sum() + tail["mass"][t]
        if top_p >= 1:
            rest, count = tail["mass"][t], tail["size"]
        else:
            i = _grid_index(top_p, tail["top_ps"], "top_p") - (len(tail["top_ps"]) - len(tail["count"][t]))
            if i >= 0:
                # 경계가 나머지 안: 후보는 모두 남고, 나머지에서 표의 토큰들이 남습니다
                rest, count = tail["kept"][t][i], tail["count"][t][i]
                top_p = 1.0
    if top_p < 1:
        # 경계가 후보 안에 떨어집니다
        n = int(np.searchsorted(np.cumsum(cand / total), top_p - 1e-12)) + 1
        if n > z.size:
            raise ValueError(f"요약이 맞지 않습니다: top_p={top_p} 의 경계가 후보 {z.size}개 안에 없는데 표에도 없습니다")
        cand[n:] = 0.0
    kept = cand.sum() + rest
    return cand / kept, rest / kept, count
# --8<-- [end:summary]


# --8<-- [start:checks]
def _logits(logits):
    try:
        z = np.asarray(logits)
    except (ValueError, TypeError) as err:
        raise ValueError(f"logits 를 배열로 만들 수 없습니다: {err}") from None
    if z.dtype.kind not in "iuf" or z.ndim != 1 or z.size == 0:
        raise ValueError(f"logits 는 비어 있지 않은 1차원 실수 배열이어야 합니다: dtype={z.dtype}, shape={z.shape}")
    z = z.astype(np.float64)
    # -inf 는 확률 0 (마스크가 가린 토큰), NaN 과 +inf 는 잘못된 값
    bad = np.isnan(z) | (z == np.inf)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"logits 에 NaN 이나 +inf 가 있습니다: logits[{i}]={z[i]}, shape={z.shape} (-inf 는 확률 0 으로 받습니다)")
    if np.all(z == -np.inf):
        raise ValueError(f"logits 가 모두 -inf 입니다: 고를 수 있는 토큰이 없습니다 (shape={z.shape})")
    return z


def _knobs(temperature, top_k, top_p):
    for name, value in (("temperature", temperature), ("top_p", top_p)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} 는 수여야 합니다: {name}={value!r}")
    if not 0 <= temperature <= 10:
        raise ValueError(f"temperature={temperature} 는 0 이상 10 이하여야 합니다 (0 = 가장 큰 로짓 하나)")
    if isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)) or top_k < 0:
        raise ValueError(f"top_k 는 0 이상의 정수여야 합니다 (0 = 끔): top_k={top_k!r}")
    if not 0 < top_p <= 1:
        raise ValueError(f"top_p={top_p} 는 0 보다 크고 1 이하여야 합니다 (1 = 끔)")
    return float(temperature), int(top_k), float(top_p)
# --8<-- [end:checks]


# --8<-- [start:summary_checks]
def _count(value, name, z):
    """후보 수: 1 이상, 로짓 수 미만의 정수이고, 후보는 모두 유한한 로짓이어야 합니다 (JSON 에는 -inf 가 없습니다)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} 는 정수여야 합니다: {name}={value!r} ({type(value).__name__})")
    if not 1 <= value < z.size:
        raise ValueError(f"{name}={value} 는 1 이상, logits 의 수 {z.size} 미만이어야 합니다 (나머지가 있어야 요약합니다)")
    if np.count_nonzero(np.isfinite(z)) < value:
        raise ValueError(f"{name}={value}: -inf 가 아닌 로짓이 {np.count_nonzero(np.isfinite(z))}개뿐이라 후보를 채울 수 없습니다")
    return int(value)


def _grid(values, name, upper, closed):
    """손잡이 값의 목록: 비어 있지 않은 1차원, 0 보다 크고 upper 이하(closed) 또는 미만, 작은 것부터 겹치지 않게."""
    try:
        a = np.asarray(values, dtype=np.float64)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} 를 실수 배열로 만들 수 없습니다: {err}") from None
    top = "이하" if closed else "미만"
    if a.ndim != 1 or a.size == 0 or not np.all(np.isfinite(a)) or a.min() <= 0 or \
            (a.max() > upper if closed else a.max() >= upper) or np.any(np.diff(a) <= 0):
        raise ValueError(f"{name} 는 0 보다 크고 {upper:g} {top}인 값을 작은 것부터 겹치지 않게 담은 1차원 목록이어야 합니다: "
                         f"{name}={values!r:.80}")
    return tuple(float(x) for x in a)


def _top(z, n):
    """로짓이 큰 후보 n 개의 id: 로짓이 큰 차례, 같으면 id 가 작은 것부터 (어휘 전체를 정렬한 것과 같은 n 개)."""
    edge = np.partition(z, z.size - n)[z.size - n]
    above, tied = np.flatnonzero(z > edge), np.flatnonzero(z == edge)
    top = np.concatenate([above, tied[:n - above.size]])
    return top[np.lexsort((top, -z[top]))]


def _grid_index(value, grid, name):
    i = int(np.argmin(np.abs(np.asarray(grid) - value)))
    if abs(grid[i] - value) > 1e-9:
        raise ValueError(f"{name}={value} 는 요약의 표에 없는 값입니다: top_k 를 끄면 {name} 는 "
                         f"{grid[0]:g}, {grid[1]:g}, …, {grid[-1]:g} 가운데 하나여야 합니다 (나머지 토큰의 몫을 그 값들에서만 더해 두었습니다)")
    return i


def _check_summary(summary):
    """summarize 가 만든 요약인지 봅니다 → (후보의 로짓 float64 배열, 표)."""
    if not isinstance(summary, dict) or not {"ids", "logits", "tail"} <= set(summary):
        got = sorted(summary) if isinstance(summary, dict) else type(summary).__name__
        raise ValueError(f"summary 는 summarize() 가 만든 dict (ids, logits, tail) 여야 합니다: {got}")
    z = _logits(summary["logits"])
    if not np.all(np.isfinite(z)) or np.any(np.diff(z) > 0):
        raise ValueError(f"summary['logits'] 는 큰 것부터 정렬된 유한한 값이어야 합니다: {np.round(z[:5], 4).tolist()} …")
    if len(summary["ids"]) != z.size:
        raise ValueError(f"summary['ids'] 가 {len(summary['ids'])}개, summary['logits'] 가 {z.size}개입니다: 같아야 합니다")
    tail = summary["tail"]
    keys = {"size", "temperatures", "top_ps", "mass", "count", "kept"}
    if not isinstance(tail, dict) or not keys <= set(tail):
        raise ValueError(f"summary['tail'] 에 {sorted(keys)} 가 있어야 합니다: "
                         f"{sorted(tail) if isinstance(tail, dict) else type(tail).__name__}")
    n_t, n_p = len(tail["temperatures"]), len(tail["top_ps"])
    shapes = (len(tail["mass"]), len(tail["count"]), len(tail["kept"]))
    if shapes != (n_t,) * 3 or any(len(c) != len(k) or len(c) > n_p for c, k in zip(tail["count"], tail["kept"])):
        raise ValueError(f"summary['tail'] 의 표가 온도 {n_t}개 × top-p {n_p}개와 맞지 않습니다: "
                         f"mass, count, kept 의 길이 {shapes}")
    return z, tail
# --8<-- [end:summary_checks]


# --8<-- [start:sampler]
def sampler(temperature=1.0, top_k=0, top_p=1.0):
    """gemma_decoder.generate 의 pick 으로 쓸 함수: 세 손잡이를 적용한 확률대로 토큰 하나를 뽑습니다."""
    # 잘못된 값은 뽑기 전에 바로 알립니다
    _knobs(temperature, top_k, top_p)

    def pick(logits, rng):
        p = probabilities(logits, temperature, top_k, top_p)
        return int(rng.choice(p.size, p=p))

    return pick
# --8<-- [end:sampler]
