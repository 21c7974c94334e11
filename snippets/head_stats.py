"""헤드 패턴을 숫자로 비교하는 도구: 젠슨-섀넌(Jensen–Shannon) 거리.

실습 파트 3 과 실제 모델 페이지가 함께 씁니다.
"""

# --8<-- [start:js]
import numpy as np


def js_distance(p, q):
    """젠슨-섀넌 거리 (밑 2): 두 분포가 같으면 0, 전혀 겹치지 않으면 1."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if not (np.allclose(p.sum(-1), 1) and np.allclose(q.sum(-1), 1)):
        raise ValueError("js_distance 는 합이 1 인 분포(행)끼리만 비교합니다")
    m = (p + q) / 2

    def kl(a, b):  # 0·log(0/…) = 0 으로 약속합니다
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log2(a / b), 0.0).sum(axis=-1)

    return np.sqrt(np.clip((kl(p, m) + kl(q, m)) / 2, 0, None))


def mean_pairwise_js(w):
    """헤드 쌍마다 같은 쿼리 행끼리 JS 거리를 재고 모두 평균합니다. w: (헤드, n, n)."""
    n_heads = w.shape[0]
    if n_heads < 2:
        raise ValueError(f"헤드가 둘 이상 있어야 쌍을 비교할 수 있습니다: w.shape={w.shape}")
    a, b = np.triu_indices(n_heads, k=1)  # 모든 헤드 쌍 (a < b) 을 한 번의 배열 연산으로
    return float(js_distance(w[a], w[b]).mean())
# --8<-- [end:js]
