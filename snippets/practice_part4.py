"""실습 파트 4: 온라인 소프트맥스를 처음부터 직접 짜고, 확인 함수로 스스로 검사합니다.

본문 8장(efficient.py)의 온라인 소프트맥스와 같은 생각을 더 짧게 씁니다. 노트북은 저장소 밖에서도 돌아가야
하므로 절 안에서는 저장소의 모듈을 import 하지 않습니다 (numpy 만). 여기 함수들이 코어의 softmax 와
같은 답을 낸다는 것, 연습 셀이 처음에는 틀리고 풀이가 맞는다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

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
def check(fn):
    """fn(x, block) 이 보통의 소프트맥스와 같은지 여러 점수와 블록 크기로 검사합니다.

    fn 은 (1차원 점수 배열, 블록 크기) 를 받아 같은 길이의 배열을 돌려주는 함수입니다.
    돌려준 것의 모양이 다르면 ✗ 와 그 모양을 찍습니다."""
    if not callable(fn):
        raise TypeError(f"check 에는 함수를 넘겨 주세요 (예: check(online_softmax)): fn={fn!r}")
    rng = np.random.default_rng(0)
    cases = {"본문의 점수 8개": row, "무작위 점수 1000개": rng.standard_normal(1000) * 5,
             "아주 큰 점수": np.array([1000.0, 999.0, 0.0]), "모두 같은 점수": np.zeros(7)}
    passed = True
    for name, x in cases.items():
        got = {block: np.asarray(fn(x, block)) for block in (1, 3, 64)}
        shapes = {g.shape for g in got.values()}
        if shapes != {x.shape}:
            print("✗", name, f"모양이 {sorted(shapes)} 입니다 (점수의 모양 {x.shape} 이어야 합니다)")
            passed = False
            continue
        ok = all(np.allclose(g, plain_softmax(x), rtol=1e-12, atol=1e-15) for g in got.values())
        print("✓" if ok else "✗", name, "(블록 1, 3, 64)")
        passed &= ok
    print("모두 통과" if passed else "다시 살펴보세요")
    return passed


check(online_softmax)
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
# 아래 merge 는 일부러 틀렸습니다. 고쳐서 "✓" 가 나오게 해 보세요.
def merge(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    # ↓ 두 합의 기준(최댓값)이 서로 다릅니다
    return m, l_a + l_b


def check_merge(merge):
    """merge((m_a, l_a), (m_b, l_b)) 가 두 조각을 한 번에 읽은 것과 같은 (m, l) 을 돌려주는지 봅니다."""
    if not callable(merge):
        raise TypeError(f"check_merge 에는 함수를 넘겨 주세요 (예: check_merge(merge)): merge={merge!r}")
    left, right = row[:5], row[5:]
    got = merge((left.max(), np.exp(left - left.max()).sum()), (right.max(), np.exp(right - right.max()).sum()))
    want = (row.max(), np.exp(row - row.max()).sum())
    if np.shape(got) != (2,):
        print("✗", f"merge 는 (m, l) 두 값을 돌려줘야 합니다: {got!r}")
        return False
    ok = np.allclose(got, want, rtol=1e-12)
    print("✓" if ok else "✗", f"합친 (m, l) = ({got[0]:.0f}, {got[1]:.4f}), 정답 = ({want[0]:.0f}, {want[1]:.4f})")
    return ok


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


# 키 8개의 밸류 (폭 4)
V = np.random.default_rng(1).standard_normal((8, 4))
want = plain_softmax(row) @ V
got = online_attention_row(row, V, block=3)
print("✓" if np.allclose(got, want) else "✗", "출력:", got.round(3), " 정답:", want.round(3))
# --8<-- [end:exercise_2]

# --8<-- [start:solution_1]
# 풀이 1: 두 합을 같은 기준(더 큰 최댓값)으로 고친 뒤 더합니다. 온라인 소프트맥스의 한 걸음과 같은 식입니다.
# GPU 에서는 여러 조각을 나란히 읽은 뒤 이렇게 합칩니다.
def merge(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    return m, l_a * np.exp(m_a - m) + l_b * np.exp(m_b - m)


solution_1 = check_merge(merge)
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


solution_2 = {block: online_attention_row(row, V, block) for block in (1, 3, 8)}
for block, out in solution_2.items():
    print("✓" if np.allclose(out, want) else "✗", f"블록 {block}:", out.round(3))
# --8<-- [end:solution_2]
