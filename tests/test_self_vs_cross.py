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
    # 문제 1: 크로스 어텐션에는 인과 마스크가 없어서, 인코더의 마지막 토큰을 바꾸면 디코더의 모든 출력이 바뀝니다
    assert sc.change_q1.shape == (4,) and sc.change_q1.min() > 1.0
    assert list((sc.w_causal > 0).sum(axis=-1)) == [1, 2, 3, 4]
    np.testing.assert_array_equal(sc.w_causal[0], [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(sc.w_causal.sum(axis=-1), 1.0)
    # 문제 2 (issue 41): 인과 마스크 아래에서 첫 토큰을 바꾸면 모든 출력이 바뀝니다 (모두가 앞을 봅니다)
    assert sc.change_q2.shape == (4,) and sc.change_q2.min() > 0.1
    # 문제 4: 가린 패딩 키는 정확히 0 을 받고, 나머지 가중치와 출력은 패딩이 없을 때와 같습니다 (패딩 벡터와 상관없이)
    assert np.all(sc.w_pad[:, -1] == 0.0)
    np.testing.assert_allclose(sc.w_pad[:, :-1], sc.w_cross, rtol=1e-12)
    np.testing.assert_allclose(sc.out_pad, sc.out_cross, rtol=1e-12)
    other = np.vstack([sc.enc, np.full(sc.d_model, -50.0)])
    W_Q, W_K, W_V = sc.W_cross
    out_other, _ = sc.scaled_dot_product_attention(sc.dec @ W_Q, other @ W_K, other @ W_V, sc.visible)
    np.testing.assert_allclose(out_other, sc.out_cross, rtol=1e-12)


@pytest.mark.reads("docs/self_vs_cross.md", "docs/core_tour.md", "docs/glossary.md", "docs/references.md")
def test_page_names_both_pytorch_mask_conventions():
    """issue 22: 코어와 torch 의 scaled_dot_product_attention 은 True = 볼 수 있음, nn.MultiheadAttention 의
    key_padding_mask 와 불리언 attn_mask 는 True = 가림 (PyTorch 문서). 페이지와 용어집, 부록이 둘 다 밝힙니다."""
    from attention import causal_mask, scaled_dot_product_attention
    from site_pages import DOCS

    page = (DOCS / "self_vs_cross.md").read_text(encoding="utf-8")
    assert "`scaled_dot_product_attention`도 같지만" in page
    assert '`nn.MultiheadAttention`의 `key_padding_mask`와 불리언 `attn_mask`에서는 True가 "가림"' in page
    assert "PyTorch와 같은 약속" not in page  # 한쪽만 말하던 옛 문장
    for doc in ("glossary.md", "core_tour.md", "references.md"):
        text = (DOCS / doc).read_text(encoding="utf-8")
        assert "MultiheadAttention" in text and "key_padding_mask" in text, doc
    # 코어의 약속 자체: True 인 칸만 가중치를 받습니다
    q = np.random.default_rng(0).standard_normal((4, 3))
    _, w = scaled_dot_product_attention(q, q, q, causal_mask(4))
    assert np.all(w[~causal_mask(4)] == 0) and np.all(w[causal_mask(4)] > 0)


@pytest.mark.parametrize("seed", [3, 4, 5, 6, 7])
def test_quiz_2_answer_holds_for_other_first_tokens(sc, seed):
    """문제 2 의 답(네 출력 모두 바뀜)은 페이지가 고른 새 첫 토큰 하나에 기대지 않습니다: 다른 첫 토큰을 넣어도 인과
    마스크 아래에서 네 토큰의 출력이 모두 바뀝니다 (모든 토큰이 첫 토큰을 봅니다)."""
    other = sc.dec.copy()
    other[0] = np.random.default_rng(seed).standard_normal(sc.d_model) * 5
    change = np.abs(sc.decoder_self_attention(other, sc.mask) - sc.out).max(axis=-1)
    assert change.shape == (4,) and change.min() > 0.01
