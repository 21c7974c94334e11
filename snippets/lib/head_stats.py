"""헤드 패턴을 숫자로 비교하는 도구: 젠슨-섀넌(Jensen–Shannon) 거리.

실습 파트 3 과 실제 모델 페이지가 함께 씁니다.
"""

# --8<-- [start:js]
import numpy as np


def as_distribution(a, name):
    """마지막 축을 따라 합이 1 인 0 이상의 실수 배열(분포)로. 아니면 이름과 모양을 밝힌 오류를 냅니다."""
    try:
        a = np.asarray(a)
    except ValueError:
        raise ValueError(f"{name} 를 배열로 만들 수 없습니다 (행마다 길이가 다른가요?)") from None
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} 는 실수 배열이어야 합니다: {name}.dtype={a.dtype}, {name}.shape={a.shape}")
    a = a.astype(float)
    if a.ndim == 0 or not np.all(np.isfinite(a)) or np.any(a < 0) or not np.allclose(a.sum(-1), 1):
        raise ValueError(f"{name} 는 마지막 축을 따라 합이 1 인 0 이상의 값이어야 합니다: {name}.shape={a.shape}")
    return a


def js_distance(p, q):
    """젠슨-섀넌 거리 (밑 2): 두 분포가 같으면 0, 전혀 겹치지 않으면 1.

    p, q: 마지막 축을 따라 합이 1 인 분포(행)들. 모양이 같거나 서로 브로드캐스트되어야 합니다.
    """
    p, q = as_distribution(p, "p"), as_distribution(q, "q")
    try:
        m = (p + q) / 2
    except ValueError:
        raise ValueError(f"p.shape={p.shape} 와 q.shape={q.shape} 가 서로 맞지 않습니다") from None

    # 0·log(0/…) = 0 으로 약속합니다
    def kl(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log2(a / b), 0.0).sum(axis=-1)

    return np.sqrt(np.clip((kl(p, m) + kl(q, m)) / 2, 0, None))


def mean_pairwise_js(w):
    """헤드 쌍마다 같은 쿼리 행끼리 JS 거리를 재고 모두 평균합니다. w: (헤드, 쿼리 수, 키 수)."""
    w = as_distribution(w, "w")
    if w.ndim != 3 or w.shape[0] < 2:
        raise ValueError(f"w 는 헤드가 둘 이상인 (헤드, 쿼리 수, 키 수) 여야 합니다: w.shape={w.shape}")
    # 모든 헤드 쌍 (a < b) 을 한 번의 배열 연산으로
    a, b = np.triu_indices(w.shape[0], k=1)
    return float(js_distance(w[a], w[b]).mean())
# --8<-- [end:js]
