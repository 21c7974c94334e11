"""docs/self_vs_cross.md: 셀프·크로스 어텐션의 모양과 인과 마스크."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def sc():
    import self_vs_cross

    return self_vs_cross


def test_self_is_square_and_cross_is_not(sc):
    assert sc.w_self.shape == (3, 3)
    assert sc.w_cross.shape == (4, 3) and sc.out_cross.shape == (4, 4)
    np.testing.assert_allclose(sc.w_cross.sum(-1), 1.0)


def test_each_attention_has_its_own_projections(sc):
    """페이지: "세 어텐션에 행렬을 한 벌씩 따로 줍니다"."""
    sets = [sc.W_enc_self, sc.W_cross, sc.W_dec_self]
    for a in range(3):
        for b in range(a + 1, 3):
            assert not any(np.allclose(x, y) for x, y in zip(sets[a], sets[b]))


def test_causal_mask_zeroes_the_future(sc):
    w = sc.w_causal
    assert np.all(w[np.triu_indices(4, k=1)] == 0.0)
    assert w[0, 0] == 1.0
    np.testing.assert_allclose(w.sum(-1), 1.0)


def test_changing_the_last_token_only_changes_itself(sc):
    assert np.array_equal(sc.out_changed[:3], sc.out[:3])
    assert np.abs(sc.out_changed[3] - sc.out[3]).max() > 0.1
    assert np.abs(sc.out_free_changed[:3] - sc.out_free[:3]).max() > 1.0




def test_encoder_self_attention_is_chapter_2(sc):
    import four_steps

    np.testing.assert_allclose(sc.w_self, four_steps.weights, rtol=1e-12)


def test_quiz_answers(sc):
    assert sc.w_q1.shape == (2, 5) and sc.out_q1.shape == (2, 4)
    assert list((sc.w_causal > 0).sum(axis=-1)) == [1, 2, 3, 4]
    np.testing.assert_array_equal(sc.w_causal[0], [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(sc.w_causal.sum(axis=-1), 1.0)
    assert np.allclose(sc.decoder_self_attention(sc.dec, sc.all_visible), sc.decoder_self_attention(sc.dec))
    assert sc.leak > 1.0
