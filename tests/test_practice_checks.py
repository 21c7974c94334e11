"""실습 노트북의 확인 함수(check_…): 알려진 틀린 구현마다 그 실수를 짚는 말을 찍고, 맞는 구현은 통과시킵니다.

틀린 구현은 배우는 사람이 짤 법한 모양으로 여기서 따로 짭니다 (확인 함수 안의 mistakes 를 그대로 넘기면 테스트가
제 자신을 확인하는 셈이라서). 맞는 구현은 사이트의 코어(attention.py, efficient.py)입니다. 틀의 공통 동작
(practice_checks.check_with)은 맨 아래에서 따로 봅니다.
"""

import numpy as np
import pytest

import practice_part1 as p1
import practice_part2 as p2
import practice_part3 as p3
import practice_part4 as p4
from attention import scaled_dot_product_attention, softmax
from practice_checks import check_with

# ---------------------------------------------------------------- 배우는 사람이 짤 법한 틀린 구현들


def softmax_by_columns(s):
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def softmax_whole_sum(s):
    e = np.exp(s - np.max(s))
    return e / np.sum(e)


def softmax_no_keepdims(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1)


def softmax_no_max(s):
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def attention(scores_of, softmax_of=lambda s: softmax(s, axis=-1)):
    def fn(Q, K, V):
        w = softmax_of(scores_of(Q, K))
        return w @ V, w

    return fn


def masked(hide):
    def fn(Q, K, V, mask):
        w = hide(Q @ K.T / np.sqrt(K.shape[-1]), mask)
        return w @ V, w

    return fn


def entropy_ok(w):
    return -np.sum(w * np.log(w, where=w > 0, out=np.zeros_like(w)), axis=-1)


def heads(scores_of, axis=-1):
    def fn(Qh, Kh, Vh):
        w = softmax(scores_of(Qh, Kh), axis=axis)
        return w @ Vh, w

    return fn


def online_without_fix(x, block):
    m, total = -np.inf, 0.0
    for j in range(0, len(x), block):
        m = max(m, x[j : j + block].max())
        total += np.exp(x[j : j + block] - m).sum()
    return np.exp(x - m) / total


def online_without_max(x, block):
    return np.exp(x) / sum(np.exp(x[j : j + block]).sum() for j in range(0, len(x), block))


def row_without_acc_fix(scores, V, block):
    m, total, acc = -np.inf, 0.0, np.zeros(V.shape[1])
    for j in range(0, len(scores), block):
        s = scores[j : j + block]
        m_new = max(m, s.max())
        w = np.exp(s - m_new)
        total = total * np.exp(m - m_new) + w.sum()
        acc += w @ V[j : j + block]
        m = m_new
    return acc / total


def merge_backwards(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    return m, l_a / np.exp(m_a - m) + l_b / np.exp(m_b - m)


def online_core(x, block):
    import efficient

    return efficient.online_softmax(x, block)[0]


def row_core(scores, V, block):
    return softmax(scores) @ V


# (확인 함수, 틀린 구현, 찍혀야 할 말) — 말은 확인 함수가 그 실수를 짚는 글의 앞부분입니다.
WRONG = {
    "softmax: 쿼리 축": (p1.check_softmax, softmax_by_columns, "쿼리 축(axis=0)을 따라 나눠 열의 합이 1이 됐습니다"),
    "softmax: 전체 합": (p1.check_softmax, softmax_whole_sum, "배열 전체의 합으로 나눴습니다"),
    "softmax: keepdims": (p1.check_softmax, softmax_no_keepdims, "합을 keepdims=True 없이 구해"),
    "softmax: 최댓값": (p1.check_softmax, softmax_no_max, "최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan"),
    "attention: ÷ d_k": (
        p1.check_attention,
        attention(lambda Q, K: Q @ K.T / K.shape[-1]),
        "√d_k 대신 d_k 로 나눴습니다. 점수가 너무 작아져, d_k 가 클수록 가중치가 고르게 퍼집니다",
    ),
    "attention: 나누지 않음": (p1.check_attention, attention(lambda Q, K: Q @ K.T), "√d_k 로 나누지 않았습니다"),
    "attention: 전치하지 않은 K": (
        p1.check_attention,
        attention(lambda Q, K: np.matmul(Q, K) / np.sqrt(K.shape[-1])),
        "K 를 전치하지 않았습니다(Q @ K)",
    ),
    "attention: 바깥의 d_k": (
        p1.check_attention,
        attention(lambda Q, K: Q @ K.T / 2.0),
        "바깥의 d_k(4)로 나눴습니다",
    ),
    "attention: 소프트맥스 축": (
        p1.check_attention,
        attention(lambda Q, K: Q @ K.T / np.sqrt(K.shape[-1]), lambda s: softmax(s, axis=0)),
        "소프트맥스를 쿼리 축(axis=0)으로 했습니다",
    ),
    "attention: 최댓값": (
        p1.check_attention,
        attention(lambda Q, K: Q @ K.T / np.sqrt(K.shape[-1]), softmax_no_max),
        "소프트맥스에서 최댓값을 빼지 않아",
    ),
    "mask: 소프트맥스 뒤": (
        p2.check_masked_attention,
        masked(lambda s, m: np.where(m, softmax(s, axis=-1), 0.0)),
        "소프트맥스를 한 뒤에 가렸습니다",
    ),
    "mask: 점수 0": (
        p2.check_masked_attention,
        masked(lambda s, m: softmax(s * m, axis=-1)),
        "가린 칸의 점수를 0으로 두었습니다. exp(0) = 1",
    ),
    "mask: 거꾸로": (
        p2.check_masked_attention,
        masked(lambda s, m: softmax(np.where(~m, s, -1e30), axis=-1)),
        "마스크를 거꾸로 읽었습니다",
    ),
    "entropy: 0 ln 0": (p2.check_entropy, lambda w: -np.sum(w * np.log(w), axis=1), "0 × ln 0 = 0 × (-inf) = nan"),
    "entropy: 열마다": (p2.check_entropy, lambda w: entropy_ok(w.T), "열마다 구했습니다(axis=0)"),
    "entropy: 밑 2": (p2.check_entropy, lambda w: entropy_ok(w) / np.log(2), "밑이 2인 로그(비트)로 셌습니다"),
    "entropy: 부호": (p2.check_entropy, lambda w: -entropy_ok(w), "부호를 빠뜨렸습니다"),
    "heads: K.T": (
        p3.check_heads_attention,
        heads(lambda Qh, Kh: Qh @ Kh.T / np.sqrt(Kh.shape[-1])),
        "Kh.T 는 모든 축을 뒤집습니다",
    ),
    "heads: 헤드 축 소프트맥스": (
        p3.check_heads_attention,
        heads(lambda Qh, Kh: Qh @ Kh.transpose(0, 2, 1) / np.sqrt(Kh.shape[-1]), axis=0),
        "소프트맥스를 헤드 축(axis=0)으로 했습니다",
    ),
    "heads: √d_model": (
        p3.check_heads_attention,
        heads(lambda Qh, Kh: Qh @ Kh.transpose(0, 2, 1) / 8.0),
        "모델의 폭 d_model(64)의 제곱근으로 나눴습니다",
    ),
    "online: 고치지 않은 합": (p4.check_online, online_without_fix, "예전 합 l 을 새 기준으로 고치지 않았습니다"),
    "online: 최댓값": (p4.check_online, online_without_max, "최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan"),
    "merge: 그대로 더함": (
        p4.check_merge,
        lambda a, b: (max(a[0], b[0]), a[1] + b[1]),
        "두 l 을 그대로 더했습니다",
    ),
    "merge: 거꾸로 고침": (p4.check_merge, merge_backwards, "고치는 값의 부호가 거꾸로입니다"),
    "row: acc": (p4.check_attention_row, row_without_acc_fix, "acc 를 새 최댓값에 맞게 고치지 않았습니다"),
}

RIGHT = {
    "softmax": (p1.check_softmax, lambda s: softmax(s, axis=-1)),
    "attention": (p1.check_attention, scaled_dot_product_attention),
    "mask": (p2.check_masked_attention, scaled_dot_product_attention),
    "entropy": (p2.check_entropy, entropy_ok),
    "heads": (p3.check_heads_attention, scaled_dot_product_attention),
    "online": (p4.check_online, online_core),
    "merge": (p4.check_merge, lambda a, b: p4.merge(a, b)),
    "row": (p4.check_attention_row, row_core),
}


@pytest.mark.parametrize("label", WRONG)
def test_each_known_mistake_is_named(label, capsys):
    check, wrong, message = WRONG[label]
    assert check(wrong) is False
    out = capsys.readouterr().out
    assert message in out, out
    assert out.rstrip().endswith("다시 살펴보세요")
    # 다른 실수의 말로 잘못 짚지 않습니다 (같은 확인 함수의 다른 말들)
    others = {m for c, _, m in WRONG.values() if c is check and m != message}
    assert not [m for m in others if m in out], out


@pytest.mark.parametrize("label", RIGHT)
def test_the_right_implementation_passes(label, capsys):
    check, right = RIGHT[label]
    assert check(right) is True
    out = capsys.readouterr().out
    assert "✗" not in out and out.rstrip().endswith("모두 통과"), out


def test_every_listed_mistake_has_a_test(monkeypatch):
    """확인 함수마다 그 안의 실수 목록(mistakes)의 모든 말이 위 WRONG 의 어느 구현으로 찍히는지 (빠진 실수 없음)."""
    checks = {check for check, _ in RIGHT.values()}
    for check in checks:
        listed = []

        def spy(fn, right, mistakes, cases, *args, **kwargs):
            listed.extend(text for _, text in mistakes)
            return True

        monkeypatch.setitem(check.__globals__, "check_with", spy)
        check(lambda *a: None)
        monkeypatch.undo()
        tested = [m for c, _, m in WRONG.values() if c is check]
        assert listed, check.__name__
        missing = [text for text in listed if not any(m in text for m in tested)]
        assert not missing, (check.__name__, missing)


def test_a_learner_with_two_mistakes_hears_about_both(capsys):
    """연습 1 의 처음 코드처럼 실수가 둘이면, 입력마다 하나씩 두 실수를 모두 짚습니다."""
    assert p1.check_softmax(lambda s: np.exp(s) / np.exp(s).sum(axis=0, keepdims=True)) is False
    out = capsys.readouterr().out
    assert "쿼리 축(axis=0)" in out and "최댓값을 빼지 않아" in out and "✓ 점수 한 행" in out


# ---------------------------------------------------------------- 틀의 공통 동작


def test_check_with_reports_errors_shapes_and_missing_values(capsys):
    def right(x):
        return x * 2, x

    cases = [("한 값", (np.ones(3),))]
    assert check_with(lambda x: undefined_name, right, [], cases) is False  # noqa: F821
    assert "오류가 났습니다 (NameError" in capsys.readouterr().out
    assert check_with(lambda x: x * 2, right, [], cases, parts=("출력", "가중치")) is False
    assert "출력, 가중치 을(를) 튜플로 돌려줘야 합니다" in capsys.readouterr().out
    assert check_with(lambda x: (x[:2] * 2, x), right, [], cases, parts=("출력", "가중치")) is False
    assert "출력: 모양이 (2,) 입니다 ((3,) 이어야 합니다)" in capsys.readouterr().out
    assert check_with(lambda x: (x * 2, x * np.nan), right, [], cases, parts=("출력", "가중치")) is False
    assert "가중치: nan 이나 inf 가 나왔습니다" in capsys.readouterr().out
    with pytest.raises(TypeError, match=r"my_fn=3"):
        check_with(3, right, [], cases, "my_fn")


def test_check_with_keeps_numpy_warnings_out_of_the_output(recwarn, capsys):
    p1.check_softmax(softmax_no_max)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
