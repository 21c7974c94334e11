"""docs/library_analogy.md: 도서관 비유와 Q, K, V 투영."""

import numpy as np
import pytest

from page_outputs import printed

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/library_analogy.md")


@pytest.fixture(scope="module")
def la():
    import library_analogy

    return library_analogy


def test_label_scores_and_soft_lookup(la):
    np.testing.assert_array_equal(la.scores, [2.0, 1.0, 1.0])
    assert la.books[la.best] == "파이썬 입문서"
    e = np.exp([2.0, 1.0, 1.0])
    np.testing.assert_allclose(la.weights, e / e.sum())
    assert la.weights[0] == pytest.approx(0.576, abs=5e-4) and la.weights[1] == pytest.approx(0.212, abs=5e-4)
    np.testing.assert_allclose(la.weights @ la.values, [0.730, 0.652], atol=5e-4)


def test_qkv_are_three_projections_of_the_same_input(la):
    assert la.X.shape == (3, 8) and la.W_Q.shape == (8, 4)
    assert la.Q.shape == la.K.shape == la.V.shape == (3, 4)
    np.testing.assert_allclose(la.Q, la.X @ la.W_Q)
    assert not np.allclose(la.Q, la.K) and not np.allclose(la.K, la.V)


def test_toy_qkv_recreates_this_page(la):
    from toy_data import toy_qkv

    tokens, X, Q, K, V = toy_qkv()
    assert tokens == la.tokens
    for a, b in [(X, la.X), (Q, la.Q), (K, la.K), (V, la.V)]:
        np.testing.assert_array_equal(a, b)


def test_quiz_answers(la):
    assert la.X5.shape == (5, 16) and [(la.X5 @ W).shape for W in la.W5] == [(5, 8)] * 3
    # 문제 2 와 "키는 색인, 밸류는 내용" 상자: 밸류를 바꿔도 가중치는 그대로, 키를 바꾸면 바뀝니다.
    np.testing.assert_array_equal(la.weights_v, la.weights)
    assert not np.allclose(la.weights_v @ la.new_values, la.weights @ la.values)
    assert not np.allclose(la.weights_k, la.weights)
    # 문제 3: 요리 입문서가 1등이지만, 한 칸도 겹치지 않는 책도 0 이 아닌 가중치를 받습니다.
    assert la.books[int(np.argmax(la.scores_cooking))] == "요리 입문서" == la.books[int(la.weights_cooking.argmax())]
    assert la.scores_cooking[1] == 0 and la.weights_cooking[1] > 0
    # 문제 3 (issue 41): 요청을 열 배로 키워도 고르는 책은 그대로이고, 가중치는 그 책에 몰립니다
    assert np.array_equal(la.scores_loud, 10 * la.scores_cooking)
    assert la.weights_loud.argmax() == la.weights_cooking.argmax()
    assert la.weights_cooking.max() == pytest.approx(0.665, abs=5e-4) and la.weights_loud.max() > 0.9999
    # 문제 4: 점수가 모두 같으면 고르게, 섞인 내용은 밸류의 평균
    np.testing.assert_allclose(la.weights_empty, 1 / 3)
    np.testing.assert_allclose(la.weights_empty @ la.values, la.values.mean(axis=0))


# 페이지 출력 전체는 tests/test_page_snapshots.py 의 스냅숏이 고정합니다. 여기는 본문이 풀어 쓰는 숫자만 이름 붙여 봅니다.


def test_the_page_quotes_the_soft_weights():
    """본문의 논지: 한 권만 고르지 않고 파이썬 입문서 0.576, 요리 입문서 0.212 로 나눠 가져옵니다."""
    assert printed("library_analogy.md", r"파이썬 입문서: 가중치 ([\d.]+)") == pytest.approx(0.576, abs=5e-4)
    assert printed("library_analogy.md", r"요리 입문서: 가중치 ([\d.]+)") == pytest.approx(0.212, abs=5e-4)
