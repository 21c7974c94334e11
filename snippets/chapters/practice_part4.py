"""실습 파트 4: 온라인 소프트맥스를 처음부터 직접 짜고, 확인 함수로 스스로 검사합니다.

확인 함수(check_online, check_merge, check_attention_row)는 practice_checks.py 의 check_with 를 씁니다.

본문 8장(efficient.py)의 온라인 소프트맥스와 같은 생각을 더 짧게 씁니다. 노트북은 저장소 밖에서도 돌아가야
하므로 절 안에서는 저장소의 모듈을 import 하지 않습니다 (numpy 만). 여기 함수들이 코어의 softmax 와
같은 답을 낸다는 것, 연습 셀이 처음에는 틀리고 풀이가 맞는다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

from practice_checks import check_with  # 노트북에는 이 절(확인 함수의 틀)이 직접 들어갑니다

# --8<-- [start:softmax]
import numpy as np


def plain_softmax(x):
    """보통의 소프트맥스: 최댓값을 빼고, 지수를 취하고, 합으로 나눕니다."""
    e = np.exp(x - x.max())
    return e / e.sum()


# 본문 8장과 같은 점수 8개
row = np.array([1.0, 3.0, 2.0, 6.0, 0.0, 4.0, 5.0, 2.0])
print(plain_softmax(row).round(3))
# --8<-- [end:softmax]

# --8<-- [start:online]
def online_softmax(x, block, show=False):
    """x 를 block 개씩 한 번만 읽으며 최댓값 m 과 그 기준의 지수 합 l 을 이어 갑니다."""
    m, l = -np.inf, 0.0
    for j in range(0, len(x), block):
        chunk = x[j:j + block]
        m_new = max(m, chunk.max())
        # 예전 합을 새 기준으로 고쳐서 더하기
        l = l * np.exp(m - m_new) + np.exp(chunk - m_new).sum()
        m = m_new
        if show:
            print(f"블록 {j // block + 1}: {chunk} → m = {m:.0f}, l = {l:.4f}")
    # 다 읽은 뒤 한 번 나누기
    return np.exp(x - m) / l


p = online_softmax(row, block=3, show=True)
# --8<-- [end:online]

# --8<-- [start:check]
def check_online(fn):
    """fn(x, block) 이 보통의 소프트맥스와 같은지 여러 점수와 블록 크기로 봅니다.

    fn 은 (1차원 점수 배열, 블록 크기) 를 받아 같은 길이의 배열을 돌려주는 함수입니다. 틀리면 흔한 실수
    가운데 같은 답을 내는 것을 찾아 그 실수를 짚습니다 (맨 아래의 check_with)."""
    rng = np.random.default_rng(0)
    scores = {"본문의 점수 8개": row, "무작위 점수 1000개": rng.standard_normal(1000) * 5,
              "아주 큰 점수": np.array([1000.0, 999.0, 0.0]), "모두 같은 점수": np.zeros(7),
              "아주 작은 점수": np.array([-1000.0, -1001.0, -1003.0])}
    blocks = (1, 3, 64)
    cases = [(f"{name} (블록 1, 3, 64)", (x,)) for name, x in scores.items()]

    def every_block(f):
        """블록 크기마다 부른 결과들: 블록 하나라도 틀리면 다릅니다"""
        return lambda x: tuple(np.asarray(f(x, block)) for block in blocks)

    def without_fix(x, block):
        m, l = -np.inf, 0.0
        for j in range(0, len(x), block):
            m_new = max(m, x[j:j + block].max())
            l = l + np.exp(x[j:j + block] - m_new).sum()
            m = m_new
        return np.exp(x - m) / l

    def without_max(x, block):
        l = sum(np.exp(x[j:j + block]).sum() for j in range(0, len(x), block))
        return np.exp(x) / l

    def from_zero(x, block):
        m, l = 0.0, 0.0
        for j in range(0, len(x), block):
            m_new = max(m, x[j:j + block].max())
            l = l * np.exp(m - m_new) + np.exp(x[j:j + block] - m_new).sum()
            m = m_new
        return np.exp(x - m) / l

    mistakes = [
        (every_block(without_fix), "최댓값이 바뀔 때 예전 합 l 을 새 기준으로 고치지 않았습니다: l * np.exp(m - m_new)."),
        (every_block(without_max), "최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan 이 됐습니다."),
        (every_block(from_zero), "최댓값 m 을 0 에서 시작했습니다. 점수가 모두 아주 작은 음수면 exp 가 모두 0 이 되어 "
                                 "0/0 = nan 입니다. m = -np.inf 에서 시작하면 첫 블록의 최댓값이 기준이 됩니다."),
    ]
    if not callable(fn):
        raise TypeError(f"check_online 에는 함수를 넘겨 주세요 (예: check_online(online_softmax)): fn={fn!r}")
    check_with(every_block(fn), every_block(lambda x, block: plain_softmax(x)), mistakes, cases, "fn",
                      parts=[f"블록 {block}" for block in blocks])


check_online(online_softmax)
# --8<-- [end:check]

# --8<-- [start:naive]
# 최댓값을 빼지 않고 바로 지수를 취하면? numpy 는 넘침 경고를 내고 nan 을 돌려줍니다 (여기서는 경고를 끄고 봅니다).
with np.errstate(over="ignore", invalid="ignore"):
    big = np.array([1000.0, 999.0, 0.0])
    print("빼지 않으면:", np.exp(big) / np.exp(big).sum())
print("빼면:      ", plain_softmax(big).round(3))
# --8<-- [end:naive]

# --8<-- [start:exercise_1]
# 연습 1: 점수를 두 조각으로 나눠 따로 읽은 결과 (m_a, l_a) 와 (m_b, l_b) 를 하나로 합치세요.
# 아래 merge 는 일부러 틀렸습니다. 고쳐서 "모두 통과" 가 나오게 해 보세요.
def merge(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    # ↓ 두 합의 기준(최댓값)이 서로 다릅니다
    return m, l_a + l_b


def check_merge(merge):
    """merge((m_a, l_a), (m_b, l_b)) 가 두 조각을 한 번에 읽은 것과 같은 (m, l) 을 돌려주는지 봅니다."""
    def read(x):
        return x.max(), np.exp(x - x.max()).sum()

    cases = [(f"앞 {k}개 + 뒤 {len(row) - k}개", (read(row[:k]), read(row[k:]))) for k in (5, 3)]

    def right(a, b):
        (m_a, l_a), (m_b, l_b) = a, b
        m = max(m_a, m_b)
        return m, l_a * np.exp(m_a - m) + l_b * np.exp(m_b - m)

    mistakes = [
        (lambda a, b: (max(a[0], b[0]), a[1] + b[1]),
         "두 l 을 그대로 더했습니다. 두 합은 기준(각자의 최댓값)이 달라서, 새 최댓값 m 에 맞게 "
         "l_a * np.exp(m_a - m) 처럼 고친 뒤 더합니다."),
        (lambda a, b: (max(a[0], b[0]), a[1] * np.exp(max(a[0], b[0]) - a[0]) + b[1] * np.exp(max(a[0], b[0]) - b[0])),
         "고치는 값의 부호가 거꾸로입니다. 최댓값이 작은 쪽의 합을 줄여야 하므로 np.exp(m_a - m) 처럼 "
         "1 이하인 값을 곱합니다."),
    ]
    check_with(merge, right, mistakes, cases, "merge", parts=("m", "l"))


check_merge(merge)
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 쿼리 하나의 어텐션 출력(가중합)까지 한 번 읽으며 계산하세요: 본문 8장의 타일 어텐션의 한 행입니다.
# 아래 함수는 acc(나누기 전의 가중합)를 새 최댓값에 맞게 고치지 않아서 틀립니다.
def online_attention_row(scores, V, block):
    m, l, acc = -np.inf, 0.0, np.zeros(V.shape[1])
    for j in range(0, len(scores), block):
        s = scores[j:j + block]
        m_new = max(m, s.max())
        fix = np.exp(m - m_new)
        w = np.exp(s - m_new)
        l = l * fix + w.sum()
        # ↓ 무엇이 빠졌을까요?
        acc = acc + w @ V[j:j + block]
        m = m_new
    return acc / l


def check_attention_row(fn):
    """fn(scores, V, block) 이 softmax(scores) @ V 와 같은지, 블록 크기 1, 3, 8 과 아주 크거나 작은 점수로 봅니다."""
    values = np.random.default_rng(1).standard_normal((8, 4))
    cases = [(f"블록 {block}", (row, values, block)) for block in (1, 3, 8)]
    cases += [("아주 큰 점수 (row × 200), 블록 3", (row * 200, values, 3)),
              ("아주 작은 점수 (row − 2000), 블록 3", (row - 2000, values, 3))]

    def running(scores, V, block, fix_acc=True, subtract=True, m=-np.inf):
        """흔한 실수를 골라 켤 수 있는 한 행의 온라인 어텐션"""
        l, acc = 0.0, np.zeros(V.shape[1])
        for j in range(0, len(scores), block):
            m_new = max(m, scores[j:j + block].max()) if subtract else 0.0
            w = np.exp(scores[j:j + block] - m_new)
            fix = np.exp(m - m_new) if subtract else 1.0
            l, acc, m = l * fix + w.sum(), (acc * fix if fix_acc else acc) + w @ V[j:j + block], m_new
        return acc / l

    mistakes = [
        (lambda s, V, b: running(s, V, b, fix_acc=False),
         "acc 를 새 최댓값에 맞게 고치지 않았습니다. l 처럼 acc 에도 fix 를 곱한 뒤 더합니다."),
        (lambda s, V, b: running(s, V, b, subtract=False),
         "최댓값을 빼지 않아, 아주 큰 점수에서는 exp 가 넘치고 아주 작은 점수에서는 모두 0 이 되어 nan 이 됐습니다. "
         "w = np.exp(s - m_new) 처럼 뺍니다."),
        (lambda s, V, b: running(s, V, b, m=0.0),
         "최댓값 m 을 0 에서 시작했습니다. 점수가 모두 아주 작은 음수면 exp 가 모두 0 이 되어 0/0 = nan 입니다. "
         "m = -np.inf 에서 시작합니다."),
    ]
    check_with(fn, lambda scores, V, block: plain_softmax(scores) @ V, mistakes, cases, "fn")


check_attention_row(online_attention_row)
# --8<-- [end:exercise_2]

# --8<-- [start:solution_1]
# 풀이 1: 두 합을 같은 기준(더 큰 최댓값)으로 고친 뒤 더합니다. 온라인 소프트맥스의 한 걸음과 같은 식입니다.
# GPU 에서는 여러 조각을 나란히 읽은 뒤 이렇게 합칩니다.
def merge(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    return m, l_a * np.exp(m_a - m) + l_b * np.exp(m_b - m)


check_merge(merge)
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: acc 도 l 처럼 fix 를 곱해 새 기준에 맞춘 뒤 더합니다. 블록 크기를 바꿔도 같은 답입니다.
def online_attention_row(scores, V, block):
    m, l, acc = -np.inf, 0.0, np.zeros(V.shape[1])
    for j in range(0, len(scores), block):
        s = scores[j:j + block]
        m_new = max(m, s.max())
        fix = np.exp(m - m_new)
        w = np.exp(s - m_new)
        l = l * fix + w.sum()
        acc = acc * fix + w @ V[j:j + block]
        m = m_new
    return acc / l


check_attention_row(online_attention_row)
# --8<-- [end:solution_2]
