"""docs/four_steps.md 가 말하는 내용을 확인합니다 (snippets/chapters/four_steps.py)."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def fs():
    import four_steps

    return four_steps


def test_shapes_follow_the_four_steps(fs):
    n, d_k = len(fs.tokens), fs.d_k
    assert (n, d_k) == (3, 4)
    assert fs.scores.shape == (n, n)
    assert fs.scaled.shape == (n, n)
    assert fs.weights.shape == (n, n)
    assert fs.output.shape == (n, fs.V.shape[1])


def test_step1_is_all_pairs_of_dot_products(fs):
    for i in range(3):
        for j in range(3):
            assert fs.scores[i, j] == pytest.approx(float(np.dot(fs.Q[i], fs.K[j])))


def test_elementwise_product_only_gives_the_diagonal(fs, capsys):
    assert np.allclose(fs.elementwise, np.diag(fs.scores))
    # 대각선 밖의 칸은 대각선과 다른 값이라서, * 로는 다른 토큰을 보는 점수를 얻을 수 없습니다.
    off = fs.scores[~np.eye(3, dtype=bool)]
    assert not np.any(np.isclose(off[:, None], fs.elementwise[None, :]))
    with pytest.raises(ValueError, match="broadcast"):
        fs.Q * fs.K.T


def test_step2_divides_by_two(fs):
    assert np.sqrt(fs.d_k) == 2.0
    assert np.allclose(fs.scaled * 2.0, fs.scores)


def test_dtype_pitfall_is_real(fs):
    s32 = fs.scores.astype(np.float32)
    assert (s32 / np.sqrt(fs.d_k)).dtype == np.float64
    assert (s32 / np.sqrt(np.float32(fs.d_k))).dtype == np.float32


def test_softmax_runs_over_the_key_axis(fs):
    assert np.allclose(fs.weights.sum(axis=-1), 1.0)
    assert np.all(fs.weights > 0)
    assert not np.allclose(fs.weights.sum(axis=0), 1.0)
    assert np.allclose(fs.wrong.sum(axis=0), 1.0)
    assert not np.allclose(fs.wrong.sum(axis=-1), 1.0)


def test_output_rows_are_mixtures_of_values(fs):
    for i in range(3):
        mix = sum(fs.weights[i, j] * fs.V[j] for j in range(3))
        assert np.allclose(fs.output[i], mix)


def test_core_function_agrees_with_the_steps(fs):
    assert np.allclose(fs.out_core, fs.output) and np.allclose(fs.w_core, fs.weights)


def test_quiz_answers(fs):
    assert fs.w5.shape == (5, 7) and fs.out5.shape == (5, 6)
    # 정사각형이면 * 도 돌아가지만 @ 와 다른 값입니다.
    assert (fs.Qs * fs.Ks.T).shape == (fs.Qs @ fs.Ks.T).shape == (3, 3)
    assert not np.allclose(fs.Qs * fs.Ks.T, fs.Qs @ fs.Ks.T)
    # 열의 합은 1 이 아닙니다.
    np.testing.assert_allclose(fs.weights.sum(axis=-1), 1.0)
    assert not np.allclose(fs.weights.sum(axis=0), 1.0)
    np.testing.assert_allclose(fs.weights.sum(axis=0).sum(), 3.0)
    # d_k 로 나누면 더 고르게 (가장 큰 값은 작아지고 가장 작은 값은 커짐)
    assert fs.by_dk[0].max() < fs.by_sqrt[0].max() and fs.by_dk[0].min() > fs.by_sqrt[0].min()
