"""docs/heatmap.md: 무작위 파라미터 히트맵이 보여 주는 것(모양, 행의 합, 스케일링)과 보여 주지 못하는 것."""

import numpy as np
import pytest

from page_outputs import page_output


@pytest.fixture(scope="module")
def hm():
    import heatmap

    return heatmap


def test_shape_and_rows(hm):
    assert hm.weights.shape == (6, 6)
    np.testing.assert_allclose(hm.weights.sum(-1), 1.0)
    assert not np.allclose(hm.weights, hm.weights.T)  # 대칭이 아닙니다


def test_unscaled_rows_are_sharper(hm):
    assert np.all(hm.unscaled.max(-1) >= hm.weights.max(-1))
    assert hm.unscaled.max(-1).mean() > hm.weights.max(-1).mean() + 0.3


def test_random_heatmaps_pick_a_random_favourite(hm):
    counts = np.array(list(hm.top_counts.values()))
    assert counts.sum() == 200
    # 고른 분포(기댓값 200/6 ≈ 33)와 카이제곱 검정: 자유도 5 의 99.9% 임계값 20.5
    chi2 = ((counts - 200 / 6) ** 2 / (200 / 6)).sum()
    assert chi2 < 20.5
    assert 0.1 < hm.top_counts["sat"] / 200 < 0.25


def test_alt_text_claims(hm):
    # "왼쪽은 색이 여러 칸에 퍼져 있고, 오른쪽은 ... 여섯 행 가운데 네 행은 한 칸이 0.9를 넘는다"
    assert hm.weights.max() < 0.5
    assert (hm.unscaled.max(axis=-1) > 0.9).sum() == 4


def test_quiz_answers(hm):
    # 문제 1: 같은 키가 둘이면 두 칸이 똑같이 나눠 받고, 합은 원래 한 칸보다 큽니다 (분모에 한 번 더 들어감)
    s = hm.scores[hm.cat] / np.sqrt(hm.d_k)
    e = np.exp(s - s.max())
    twice = 2 * e[hm.mat] / (e.sum() + e[hm.mat])
    np.testing.assert_allclose(hm.w_twice[:, hm.mat], hm.w_twice[:, -1])
    np.testing.assert_allclose(hm.w_twice[hm.cat, hm.mat] + hm.w_twice[hm.cat, -1], twice, rtol=1e-12)
    assert twice > hm.weights[hm.cat, hm.mat]
    np.testing.assert_allclose(hm.w_twice.sum(-1), 1.0)
    np.testing.assert_allclose(hm.w_same[0], hm.w_same[4])
    np.testing.assert_allclose(hm.w_same[:, 0], hm.w_same[:, 4])
    assert not np.allclose(hm.weights[0], hm.weights[4])  # 원래 예제에서는 두 행이 다릅니다
    row = hm.tokens.index("The")
    assert hm.tokens[int(hm.weights[row].argmax())] == "cat"
    assert hm.tokens[int(hm.contribution.argmax())] == "the"
    np.testing.assert_allclose(hm.contribution, hm.weights[row] * np.linalg.norm(hm.X @ hm.W_V, axis=-1))
    assert round(hm.weights[hm.cat].max(), 2) == 0.41  # 문제 4 의 "cat 행에서 가장 밝은 칸은 0.41"


def test_quiz_page_output():
    out = page_output("heatmap.md")
    assert "'cat' 행의 mat: 하나일 때 0.4076" in out
    assert "둘일 때 0.2896 + 0.2896 = 0.5792" in out and "모든 행에서 두 mat 칸이 같은가? True" in out
    assert "두 토큰의 행이 같은가? True  열이 같은가? True" in out
    assert "가중치 1등: cat  길이 1등: the" in out
    assert "토큰  6개: 고른 몫 0.167, 가장 밝은 칸 0.41 → 2.4배" in out
    assert "토큰 60개: 고른 몫 0.017, 가장 밝은 칸 0.20 → 12.0배" in out
