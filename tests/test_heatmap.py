"""docs/heatmap.md: 무작위 가중치 히트맵이 보여 주는 것(모양, 행의 합, 스케일링)과 보여 주지 못하는 것."""

import numpy as np
import pytest


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
    np.testing.assert_allclose(hm.weights[hm.mat].sum(), 1.0)
    assert not np.allclose(hm.weights.sum(axis=0), 1.0)
    np.testing.assert_allclose(hm.w_same[0], hm.w_same[4])
    np.testing.assert_allclose(hm.w_same[:, 0], hm.w_same[:, 4])
    assert not np.allclose(hm.weights[0], hm.weights[4])  # 원래 예제에서는 두 행이 다릅니다
    row = hm.tokens.index("The")
    assert hm.tokens[int(hm.weights[row].argmax())] == "cat"
    assert hm.tokens[int(hm.contribution.argmax())] == "the"
    np.testing.assert_allclose(hm.contribution, hm.weights[row] * np.linalg.norm(hm.X @ hm.W_V, axis=-1))
    assert hm.p_on.max() > 0.999 and hm.tokens[int(hm.p_on.argmax())] == "cat"
