"""docs/core_tour.md (부록: 어텐션 코어 둘러보기) 가 보여 주는 사실들."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def ct():
    import core_tour

    return core_tour


def test_batch_and_head_axes(ct):
    out, w = ct.scaled_dot_product_attention(ct.q, ct.k, ct.v)
    assert out.shape == (2, 4, 5, 6) and w.shape == (2, 4, 5, 5)


def test_cross_attention_weights_are_not_square(ct):
    _, w = ct.scaled_dot_product_attention(ct.q_dec, ct.k_enc, ct.v_enc)
    assert w.shape == (3, 7)
    np.testing.assert_allclose(w.sum(-1), 1.0)


def test_padding_and_causal_masks_combine(ct):
    assert ct.pad.shape == (2, 1, 1, 5) and ct.both.shape == (2, 1, 5, 5)
    x = np.random.default_rng(1).standard_normal((2, 5, 8))
    _, w = ct.multi_head_attention(x, x, ct.params, num_heads=2, mask=ct.both)
    assert w.shape == (2, 2, 5, 5)
    assert np.all(w[0, :, :, 3:] == 0)  # 첫 문장의 패딩 키 (길이 3)
    assert np.all(w[..., np.triu_indices(5, k=1)[0], np.triu_indices(5, k=1)[1]] == 0)  # 미래


@pytest.mark.reads("docs/core_tour.md")
def test_page_output():
    from page_outputs import assert_prints

    # 잘못된 입력을 하나씩 넣어 본 칸: 줄마다 [무엇이 잘못인지] 와 코어가 올린 오류
    value_errors = (
        "쿼리/키 특성 크기가 다름",
        "키/밸류 길이가 다름",
        "마스크가 브로드캐스트되지 않음",
        "차원 수가 모자람",
        "마스크 축 수가 모호함",
        "입력에 NaN",
        "헤드 수로 나누어떨어지지 않음",
        "W_O 에 NaN",
        "편향 이름의 철자가 틀림",
    )
    assert_prints(
        "core_tour.md",
        "출력: (2, 4, 5, 6)\n가중치: (2, 4, 5, 5)",
        "크로스 어텐션 가중치: (3, 7)",
        "가린 자리의 가중치가 정확히 0인가? True",
        "첫 문장이 패딩(키 3, 4)에 준 가중치의 최댓값: 0.0",
        "NaN 이 있는가? False",
        "float32 입력 → float32 float32",
        "길이 0 인 축의 소프트맥스: (2, 0)",
        "키가 하나도 없을 때\n  가중치 (3, 0)\n  출력 (3, 2) 모두 0인가? True",
        "문장 0개의 패딩 마스크: (0, 1, 1, 5)\ncausal_mask(0): (0, 0)",
        *(f"[{why}] ValueError:" for why in value_errors),
        "[복소수 입력] TypeError: q 는 실수 배열이어야 합니다: q.dtype=complex128",
        "[헤드 수가 정수가 아님] TypeError: num_heads 는 정수여야 합니다: num_heads=2.0",
        "[float32 범위를 넘는 투영] ValueError: 투영 x_kv @ W_V 가 float32 범위를 넘었습니다",
    )


def test_page_claims_about_checks():
    """페이지의 '입력 검사' 글이 말하는 사실들: int8 곱셈은 넘쳐 돌아가고, 코어는 그러지 않습니다."""
    from attention import multi_head_attention, softmax

    a = np.array([100], dtype=np.int8)
    assert (a * a)[0] == 16  # 100 × 100 = 10000 = 39·256 + 16
    x = np.full((1, 2), 100, np.int8)
    out, _ = multi_head_attention(x, x, {n: np.eye(2, dtype=np.int8) for n in ("W_Q", "W_K", "W_V", "W_O")}, 1)
    assert out.dtype == np.float64 and np.all(out == 100.0)
    big = np.finfo(np.float32).max
    assert 3.4e38 < float(big) < 3.5e38  # 페이지: float32 는 약 3.4 × 10³⁸
    w = softmax(np.array([big, -big], np.float32))  # x - 최댓값 이 -inf 가 되어도 경고 없이
    assert w.tolist() == [1.0, 0.0]
