"""다음 토큰을 고르는 세 손잡이: 온도(temperature), top-k, top-p. 로짓 → 뽑을 확률.

차례는 transformers 의 generate 와 같습니다: 로짓을 온도로 나눠 소프트맥스 → 확률이 큰 k 개만 남기기 → 큰 것부터
더해 p 에 닿는 가장 작은 묶음만 남기기 → 남은 것끼리 합이 1이 되게 다시 나누기. (llama.cpp 의 기본 순서는 온도를
맨 나중에 쓰므로, 같은 손잡이 값이라도 프로그램마다 결과가 조금 다를 수 있습니다.)

페이지의 JavaScript(docs/assets/next-token.js)는 어휘 262,144개의 로짓을 모두 받지 않습니다. 걸음마다 상위 후보 50개의
로짓과, 나머지 로짓의 히스토그램(폭 0.125 의 칸마다 개수와 평균)만 받습니다 (summarize). 그 요약으로 같은 계산을 하는
것이 from_summary 이고, 브라우저 테스트가 JavaScript 의 답을 이것과 견줍니다. 요약이 전체 로짓의 답에서 얼마나 먼지는
빌드가 재어 데이터에 함께 적습니다.
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
    # 온도로 나눈 소프트맥스 (최댓값을 빼서 넘치지 않게)
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
# 나머지 로짓의 히스토그램 칸 폭 (0.25 이면 몫의 차이가 네 배쯤 큽니다: 칸 안의 평균으로 셈하는 오차가 폭²에 비례)
BIN = 0.125


def summarize(logits, candidates=CANDIDATES, width=BIN):
    """로짓 (어휘,) → 브라우저가 받는 요약: 상위 후보의 id 와 로짓, 나머지 로짓의 히스토그램 (칸마다 개수와 평균)."""
    z = _logits(logits)
    if z.size <= candidates:
        raise ValueError(f"logits 가 {z.size}개뿐입니다: 후보 {candidates}개보다 많아야 나머지를 요약합니다")
    # 상위 후보 (차례 없이, 전체를 정렬하지 않고)
    top = np.argpartition(-z, candidates)[:candidates]
    # 로짓이 큰 차례, 같으면 id 가 작은 것부터
    top = top[np.lexsort((top, -z[top]))]
    rest = np.delete(z, top)
    # 칸 번호: 칸 b 는 [b × 폭, (b + 1) × 폭)
    b = np.floor(rest / width).astype(np.int64)
    hi = int(b.max())
    # 위쪽 칸부터
    counts = np.bincount(hi - b)
    sums = np.bincount(hi - b, weights=rest)
    means = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    return {"ids": top.tolist(), "logits": np.round(z[top], 4).tolist(),
            "tail": {"top": hi, "width": width, "counts": counts.tolist(), "means": np.round(means, 3).tolist()}}


def from_summary(summary, temperature=1.0, top_k=0, top_p=1.0):
    """요약으로 한 probabilities → (후보마다 확률 (후보,), 나머지 토큰 전체의 몫, 그 가운데 남은 토큰 수).

    히스토그램의 한 칸 안의 토큰은 모두 그 칸의 평균 로짓을 가진 것으로 셉니다. 그래서 나머지의 몫은 근사이고,
    top-p 의 경계가 나머지 안에 떨어지면 그 칸의 토큰을 몇 개 남길지도 근사입니다. top_k 는 후보 수까지만 받습니다.
    """
    temperature, top_k, top_p = _knobs(temperature, top_k, top_p)
    z = np.asarray(summary["logits"], dtype=np.float64)
    counts = np.asarray(summary["tail"]["counts"], dtype=np.float64)
    means = np.asarray(summary["tail"]["means"], dtype=np.float64)
    if top_k > z.size:
        raise ValueError(f"top_k={top_k} 는 후보 수 {z.size} 이하여야 합니다 (0 = 끔)")
    if temperature == 0:
        return np.eye(1, z.size)[0], 0.0, 0
    # 후보는 로짓이 큰 차례입니다
    cand = np.exp((z - z[0]) / temperature)
    # 칸 안의 토큰 하나
    each = np.where(counts > 0, np.exp((means - z[0]) / temperature), 0.0)
    total = cand.sum() + (counts * each).sum()
    cand, each = cand / total, each / total
    # 상위 k 개는 모두 후보 안에 있습니다: 나머지 토큰은 모두 잘립니다
    if top_k:
        cand = np.where(np.arange(z.size) < top_k, cand, 0.0)
        cand, counts = cand / cand.sum(), np.zeros_like(counts)
    rest, count = 0.0, 0
    if top_p >= 1:
        rest, count = float((counts * each).sum()), int(counts.sum())
    else:
        cum = np.cumsum(cand)
        # 경계가 후보 안에 떨어집니다
        if cum[-1] >= top_p - 1e-12:
            n = int(np.searchsorted(cum, top_p - 1e-12)) + 1
            cand = np.where(np.arange(z.size) < n, cand, 0.0)
        else:
            # 후보를 모두 남기고, 나머지의 위쪽 칸부터 더합니다
            for c, e in zip(counts, each):
                if c == 0:
                    continue
                # 이 칸에서 남길 토큰 수
                m = min(c, np.ceil((top_p - cum[-1] - rest) / e - 1e-9))
                rest, count = rest + m * e, count + int(m)
                if m < c:
                    break
    kept = cand.sum() + rest
    return cand / kept, rest / kept, count
# --8<-- [end:summary]


# --8<-- [start:checks]
def _logits(logits):
    z = np.asarray(logits)
    if z.dtype.kind not in "iuf" or z.ndim != 1 or z.size == 0:
        raise ValueError(f"logits 는 비어 있지 않은 1차원 실수 배열이어야 합니다: dtype={z.dtype}, shape={z.shape}")
    z = z.astype(np.float64)
    if not np.all(np.isfinite(z)):
        raise ValueError(f"logits 에 NaN 이나 inf 가 있습니다: shape={z.shape}")
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
