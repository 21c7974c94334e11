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
import practice_part5 as p5
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


def merge_backwards(a, b):
    (m_a, l_a), (m_b, l_b) = a, b
    m = max(m_a, m_b)
    return m, l_a / np.exp(m_a - m) + l_b / np.exp(m_b - m)


def softmax_python_max(s):
    e = np.exp(s - max(s))
    return e / e.sum(axis=-1, keepdims=True)


def attention_weights_transposed(Q, K, V):
    w = softmax(Q @ K.T / np.sqrt(K.shape[-1]), axis=-1)
    return w.T @ V, w


# 배우는 사람의 온라인 계산: 한 곳을 바꿔 틀리게 만들 수 있습니다 (기본값은 맞는 계산). start: 최댓값 m 의 처음 값,
# subtract=False: 최댓값을 빼지 않음, fix_total / fix_acc=False: 최댓값이 바뀔 때 예전 합 / acc 를 새 기준으로 고치지 않음.
def online(x, block, start=-np.inf, subtract=True, fix_total=True):
    """온라인 소프트맥스: 블록마다 최댓값 m 과 합 total 을 이어 가고, 끝에서 한 번에 나눕니다."""
    m, total = start, 0.0
    for j in range(0, len(x), block):
        m_new = max(m, x[j : j + block].max()) if subtract else 0.0
        fix = np.exp(m - m_new) if subtract and fix_total else 1.0
        total, m = total * fix + np.exp(x[j : j + block] - m_new).sum(), m_new
    return np.exp(x - m) / total


def row_online(scores, V, block, start=-np.inf, subtract=True, fix_acc=True):
    """한 행의 온라인 어텐션: 합 total 과 함께 가중합 acc 도 이어 갑니다."""
    m, total, acc = start, 0.0, np.zeros(V.shape[1])
    for j in range(0, len(scores), block):
        s = scores[j : j + block]
        m_new = max(m, s.max()) if subtract else 0.0
        fix = np.exp(m - m_new) if subtract else 1.0
        w = np.exp(s - m_new)
        total, acc, m = total * fix + w.sum(), acc * (fix if fix_acc else 1.0) + w @ V[j : j + block], m_new
    return acc / total


def backward(
    dP_of=lambda dO, V: dO @ V.T,
    dV_of=lambda P, dO: P.T @ dO,
    scale=True,
    dK_of=lambda dS, Q: dS.T @ Q,
    dS_of=lambda dP, P: P * (dP - np.sum(dP * P, axis=1, keepdims=True)),
):
    """배우는 사람의 역전파: 한 곳을 바꿔 틀리게 만들 수 있습니다."""

    def fn(dO, Q, K, V, P):
        dP = dP_of(dO, V)
        dS = dS_of(dP, P)
        if scale:
            dS = dS * (1 / np.sqrt(K.shape[1]))
        return dS @ K, dK_of(dS, Q), dV_of(P, dO)

    return fn


# float32 로 맞게 짠 구현들 (issue 39: "가장 큰 차이 ~1e-08" 로 틀렸다고 했습니다)
def f32(*arrays):
    return [np.asarray(a, dtype=np.float32) for a in arrays]


def softmax32(s):
    (s,) = f32(s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention32(Q, K, V, mask=None):
    Q, K, V = f32(Q, K, V)
    s = Q @ np.swapaxes(K, -1, -2) / np.float32(np.sqrt(K.shape[-1]))
    if mask is not None:
        s = np.where(mask, s, np.float32(-np.inf))
    w = softmax32(s)
    return w @ V, w


def entropy32(w):
    (w,) = f32(w)
    return -np.sum(w * np.log(np.where(w > 0, w, np.float32(1))), axis=-1)


def online32(x, block):
    (x,) = f32(x)
    m, total = np.float32(-np.inf), np.float32(0)
    for j in range(0, len(x), block):
        m_new = max(m, x[j : j + block].max())
        total = total * np.exp(m - m_new) + np.exp(x[j : j + block] - m_new).sum()
        m = m_new
    return np.exp(x - m) / total


def merge32(a, b):
    (m_a, l_a), (m_b, l_b) = [tuple(np.float32(v) for v in part) for part in (a, b)]
    m = max(m_a, m_b)
    return m, l_a * np.exp(m_a - m) + l_b * np.exp(m_b - m)


def row32(scores, V, block):
    scores, V = f32(scores, V)
    return softmax32(scores) @ V


def backward32(dO, Q, K, V, P):
    dO, Q, K, V, P = f32(dO, Q, K, V, P)
    dP = dO @ V.T
    dS = P * (dP - (dP * P).sum(axis=-1, keepdims=True)) / np.float32(np.sqrt(Q.shape[-1]))
    return [dS @ K, dS.T @ Q, P.T @ dO]  # 리스트로 돌려줘도 됩니다


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
    "online: 고치지 않은 합": (
        p4.check_online,
        lambda x, b: online(x, b, fix_total=False),
        "예전 합 l 을 새 기준으로 고치지 않았습니다",
    ),
    "online: 최댓값": (
        p4.check_online,
        lambda x, b: online(x, b, subtract=False),
        "최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan",
    ),
    "merge: 그대로 더함": (
        p4.check_merge,
        lambda a, b: (max(a[0], b[0]), a[1] + b[1]),
        "두 l 을 그대로 더했습니다",
    ),
    "merge: 거꾸로 고침": (p4.check_merge, merge_backwards, "고치는 값의 부호가 거꾸로입니다"),
    "row: acc": (
        p4.check_attention_row,
        lambda s, V, b: row_online(s, V, b, fix_acc=False),
        "acc 를 새 최댓값에 맞게 고치지 않았습니다",
    ),
    # issue 39: 예전에는 통과했거나 다른 실수의 말을 들은 구현들
    "softmax: 파이썬 max": (p1.check_softmax, softmax_python_max, "파이썬의 max() 를 썼습니다"),
    "attention: 가중치 전치": (p1.check_attention, attention_weights_transposed, "가중치를 전치해 곱했습니다"),
    "heads: 전치하지 않은 Kh": (
        p3.check_heads_attention,
        heads(lambda Qh, Kh: np.matmul(Qh, Kh) / np.sqrt(Kh.shape[-1])),
        "Kh 를 전치하지 않았습니다(Qh @ Kh)",
    ),
    "online: 0 에서 시작": (p4.check_online, lambda x, b: online(x, b, start=0.0), "최댓값 m 을 0 에서 시작했습니다"),
    "row: 최댓값": (
        p4.check_attention_row,
        lambda s, V, b: row_online(s, V, b, subtract=False),
        "최댓값을 빼지 않아, 아주 큰 점수에서는 exp 가 넘치고",
    ),
    "row: 0 에서 시작": (
        p4.check_attention_row,
        lambda s, V, b: row_online(s, V, b, start=0.0),
        "최댓값 m 을 0 에서 시작했습니다",
    ),
    "softmax backward: − P_j": (p5.check_softmax_backward, lambda dP, P: dP * P, "식의 − P_j 부분을 빠뜨렸습니다"),
    "softmax backward: 열마다": (
        p5.check_softmax_backward,
        lambda dP, P: P * (dP - np.sum(dP * P, axis=0)[None, :]),
        "Σ_i dP_i P_i 를 열마다 더했습니다",
    ),
    "softmax backward: keepdims": (
        p5.check_softmax_backward,
        lambda dP, P: P * (dP - np.sum(dP * P, axis=1)),
        "합을 keepdims=True 없이 구해",
    ),
    "softmax backward: 전체 합": (
        p5.check_softmax_backward,
        lambda dP, P: P * (dP - np.sum(P * dP)),
        "배열 전체를 더했습니다",
    ),
    "softmax backward: 앞의 P": (
        p5.check_softmax_backward,
        lambda dP, P: dP - np.sum(dP * P, axis=1, keepdims=True),
        "앞의 P_j 를 곱하지 않았습니다",
    ),
    "backward: √d_k": (p5.check, backward(scale=False), "dS 를 √d_k 로 나누지 않았습니다"),
    "backward: P @ dO": (p5.check, backward(dV_of=lambda P, dO: np.matmul(P, dO)), "dV 는 Pᵀ @ dO 입니다"),
    "backward: dO @ V": (p5.check, backward(dP_of=lambda dO, V: np.matmul(dO, V)), "dP 는 dO @ Vᵀ 입니다"),
    "backward: P ⊙ dP": (p5.check, backward(dS_of=lambda dP, P: dP * P), "행마다 Σ dP ⊙ P 를 빼지 않았습니다"),
    "backward: 열마다": (
        p5.check,
        backward(dS_of=lambda dP, P: P * (dP - (P * dP).sum(0))),
        "Σ dP ⊙ P 를 열마다 더했습니다",
    ),
    "backward: dS @ Q": (p5.check, backward(dK_of=lambda dS, Q: np.matmul(dS, Q)), "dK 는 dSᵀ @ Q 입니다"),
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
    "softmax backward": (p5.check_softmax_backward, lambda dP, P: P * (dP - np.sum(dP * P, axis=-1, keepdims=True))),
    "backward": (p5.check, backward()),
    "softmax float32": (p1.check_softmax, softmax32),
    "attention float32": (p1.check_attention, attention32),
    "mask float32": (p2.check_masked_attention, attention32),
    "entropy float32": (p2.check_entropy, entropy32),
    "heads float32": (p3.check_heads_attention, attention32),
    "online float32": (p4.check_online, online32),
    "merge float32": (p4.check_merge, merge32),
    "row float32": (p4.check_attention_row, row32),
    "backward float32": (p5.check, backward32),
}


@pytest.mark.parametrize("label", WRONG)
def test_each_known_mistake_is_named(label, capsys):
    check, wrong, message = WRONG[label]
    assert check(wrong) is None
    out = capsys.readouterr().out
    assert message in out, out
    assert out.rstrip().endswith("다시 살펴보세요")
    # 다른 실수의 말로 잘못 짚지 않습니다 (같은 확인 함수의 다른 말들)
    others = {m for c, _, m in WRONG.values() if c is check and m != message}
    assert not [m for m in others if m in out], out
    assert "Traceback" not in out and "Input operand" not in out and "could not be broadcast" not in out


@pytest.mark.parametrize("label", RIGHT)
def test_the_right_implementation_passes(label, capsys):
    """코어로 만든 구현, 그리고 float32 로 맞게 짠 구현 (반올림만큼의 차이는 봐줍니다)."""
    check, right = RIGHT[label]
    assert check(right) is None
    out = capsys.readouterr().out
    assert "✗" not in out and out.rstrip().endswith("모두 통과"), out


def test_every_listed_mistake_has_a_test(monkeypatch):
    """확인 함수마다 그 안의 실수 목록(mistakes)의 모든 말이 위 WRONG 의 어느 구현으로 찍히는지 (빠진 실수 없음)."""
    checks = {check for check, _ in RIGHT.values()}
    for check in checks:
        listed = []

        def spy(fn, right, mistakes, cases, *args, **kwargs):
            listed.extend(text for _, text in mistakes)

        monkeypatch.setitem(check.__globals__, "check_with", spy)
        check(lambda *a: None)
        monkeypatch.undo()
        tested = [m for c, _, m in WRONG.values() if c is check]
        assert listed, check.__name__
        missing = [text for text in listed if not any(m in text for m in tested)]
        assert not missing, (check.__name__, missing)


def test_a_learner_with_two_mistakes_hears_about_both(capsys):
    """연습 1 의 처음 코드처럼 실수가 둘이면, 입력마다 하나씩 두 실수를 모두 짚습니다."""
    p1.check_softmax(lambda s: np.exp(s) / np.exp(s).sum(axis=0, keepdims=True))
    out = capsys.readouterr().out
    assert "쿼리 축(axis=0)" in out and "최댓값을 빼지 않아" in out and "✓ 점수 한 행" in out


# ---------------------------------------------------------------- 틀의 공통 동작


def test_check_with_reports_errors_shapes_and_missing_values(capsys):
    def right(x):
        return x * 2, x

    cases = [("한 값", (np.ones(3),))]
    assert check_with(lambda x: undefined_name, right, [], cases) is None  # noqa: F821
    out = capsys.readouterr().out
    assert "오류가 났습니다 (NameError): 정의되지 않은 이름을 썼습니다: undefined_name." in out
    assert "오류가 난 줄: assert check_with(lambda x: undefined_name" in out
    check_with(lambda x: x * 2, right, [], cases, parts=("출력", "가중치"))
    assert "출력, 가중치 을(를) 튜플로 돌려줘야 합니다" in capsys.readouterr().out
    check_with(lambda x: (x * 2,), right, [], cases, parts=("출력", "가중치"))
    assert "출력, 가중치, 값 2개를 돌려줘야 합니다 (지금은 1개)" in capsys.readouterr().out
    check_with(lambda x: (x[:2] * 2, x), right, [], cases, parts=("출력", "가중치"))
    assert "출력: 모양이 (2,) 입니다 ((3,) 이어야 합니다) (맞는 값: 가중치)" in capsys.readouterr().out
    check_with(lambda x: (x * 2, x * np.nan), right, [], cases, parts=("출력", "가중치"))
    assert "가중치: nan 이나 inf 가 나왔습니다" in capsys.readouterr().out
    check_with(lambda x: [x * 2, x], right, [], cases, parts=("출력", "가중치"))
    assert "모두 통과" in capsys.readouterr().out  # 리스트로 돌려줘도 됩니다
    with pytest.raises(TypeError, match=r"my_fn=3"):
        check_with(3, right, [], cases, "my_fn")


def learner_matmul(Q, K, V):
    scores = Q @ K.T
    w = softmax(scores, axis=-1)
    return w @ V.T, w


def test_numpy_errors_are_explained_in_korean_with_the_learners_line(capsys):
    """어느 실수와도 같지 않은 오류: numpy 의 영어 메시지나 traceback 대신, 무엇이 어긋났는지와 오류가 난 줄."""
    p1.check_attention(learner_matmul)
    out = capsys.readouterr().out
    assert (
        "오류가 났습니다 (ValueError): 행렬 곱(@)의 모양이 맞지 않습니다: 왼쪽의 마지막 축(크기 3)과 오른쪽의 뒤에서"
        in out
    )
    assert "오류가 난 줄: return w @ V.T, w" in out
    assert "Input operand" not in out and "Traceback" not in out

    def broadcast(x):
        return x + np.ones(2)

    check_with(broadcast, lambda x: x, [], [("세 값", (np.ones(3),))])
    out = capsys.readouterr().out
    assert "두 배열의 모양 (3,), (2,)이 맞지 않아 칸마다 계산할 수 없습니다(브로드캐스트)" in out
    assert "오류가 난 줄: return x + np.ones(2)" in out

    def axis(s):
        return softmax(s, axis=-1).sum(axis=2)

    p1.check_softmax(axis)
    assert "축 번호(axis=2)가 배열의 차원 수(1차원)를 넘습니다" in capsys.readouterr().out
    p5.check(lambda *args: 1 / 0)
    out = capsys.readouterr().out
    assert "오류가 났습니다 (ZeroDivisionError): division by zero. 오류가 난 줄: p5.check(lambda *args: 1 / 0)" in out


def test_two_mistakes_with_the_same_error_are_told_apart_by_the_other_inputs(capsys):
    """Qh @ Kh 와 Qh @ Kh.T 는 (2, 3, 4) 에서 같은 오류(같은 글)를 냅니다. 다른 입력(모든 축이 3, 위의 (8, 6, 8))의
    답으로 어느 쪽인지 가립니다. 가려지지 않으면 짐작하지 않고 오류를 설명합니다."""
    from practice_checks import diagnose

    p3.check_heads_attention(heads(lambda Qh, Kh: Qh @ Kh / np.sqrt(Kh.shape[-1])))
    out = capsys.readouterr().out
    assert out.count("Kh 를 전치하지 않았습니다") == 3 and "Kh.T 는 모든 축" not in out
    err = ValueError("같은 글")
    assert diagnose({0: err}, [{0: (ValueError("같은 글"), 0.0)}, {0: (ValueError("같은 글"), 0.0)}]) == {0: None}
    assert diagnose({0: err}, [{0: (ValueError("다른 글"), 0.0)}, {0: (ValueError("같은 글"), 0.0)}]) == {0: 1}
    # 두 실수가 틀린 입력에서 같은 답(nan)이면, 배우는 사람이 맞힌 입력에서도 같은 답인 쪽을 고릅니다
    nan, one = np.array([np.nan]), np.array([1.0])
    mistakes = [{0: (nan, 0.0), 1: (nan, 0.0)}, {0: (nan, 0.0), 1: (one, 0.0)}]
    assert diagnose({0: nan, 1: one}, mistakes, wrong_cases=[0]) == {0: 1}


def test_check_with_keeps_numpy_warnings_out_of_the_output(recwarn, capsys):
    p1.check_softmax(softmax_no_max)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
