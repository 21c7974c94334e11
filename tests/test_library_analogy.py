"""docs/library_analogy.md: 도서관 비유와 Q, K, V 투영."""

import numpy as np
import pytest
from page_outputs import page_output


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


def test_page_output():
    out = page_output("library_analogy.md")
    assert "라벨과의 점수: [2. 1. 1.]" in out
    assert "한 권만 고르기 → 파이썬 입문서의 내용 [0.9 0.8]" in out
    assert "파이썬 입문서: 가중치 0.576" in out and "요리 입문서: 가중치 0.212" in out
    assert "Q: (3, 4)  K: (3, 4)  V: (3, 4)" in out
    assert "Q 와 K 가 같은가? False  K 와 V 가 같은가? False" in out


def test_quiz_answers(la):
    assert la.X5.shape == (5, 16) and [(la.X5 @ W).shape for W in la.W5] == [(5, 8)] * 3
    # 문제 2 와 "키는 색인, 밸류는 내용" 상자: 밸류를 바꿔도 가중치는 그대로, 키를 바꾸면 바뀝니다.
    np.testing.assert_array_equal(la.weights_v, la.weights)
    assert not np.allclose(la.weights_v @ la.new_values, la.weights @ la.values)
    assert not np.allclose(la.weights_k, la.weights)
    # 문제 3: 요리 입문서가 1등이지만, 한 칸도 겹치지 않는 책도 0 이 아닌 가중치를 받습니다.
    assert la.books[int(np.argmax(la.scores_cooking))] == "요리 입문서" == la.books[int(la.weights_cooking.argmax())]
    assert la.scores_cooking[1] == 0 and la.weights_cooking[1] > 0
    # 문제 4: 점수가 모두 같으면 고르게, 섞인 내용은 밸류의 평균
    np.testing.assert_allclose(la.weights_empty, 1 / 3)
    np.testing.assert_allclose(la.weights_empty @ la.values, la.values.mean(axis=0))


def test_quiz_page_output():
    out = page_output("library_analogy.md")
    assert "X: (5, 16)  Q, K, V: [(5, 8), (5, 8), (5, 8)]" in out
    assert "밸류를 바꾼 뒤 가중치: [0.576 0.212 0.212]  그대로인가? True" in out
    assert "점수: [1. 0. 2.]  한 권만 고르기 → 요리 입문서" in out
    assert "가중치: [0.333 0.333 0.333]" in out
