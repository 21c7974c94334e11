"""어텐션 코어(snippets/lib/attention.py)의 정확성: 참조 구현과의 비교, 성질 테스트, 오류, 회귀.

허용 오차
    float64: 참조 구현(역시 float64)과 rtol=1e-10, atol=1e-12
    float32: float64 참조와 rtol=1e-4, atol=2e-5 (입력은 |x| ≤ 3, d_k ≤ 8 이라 점수가 작습니다)
"""

import ast
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention import (
    causal_mask,
    masked_softmax,
    merge_heads,
    multi_head_attention,
    padding_mask,
    scaled_dot_product_attention,
    softmax,
    split_heads,
)
from conftest import snippet_files, snippet_path
from reference_attention import reference_attention, reference_multi_head

TOL = {np.float64: dict(rtol=1e-10, atol=1e-12), np.float32: dict(rtol=1e-4, atol=2e-5)}


# ---------------------------------------------------------------- 입력 만들기


@st.composite
def attention_case(draw, dtype=np.float64, with_mask=True):
    """배치·헤드 축, n_q ≠ n_k, 브로드캐스트되는 마스크를 갖춘 임의의 입력."""
    lead = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    n_q, n_k = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    d_k, d_v = draw(st.integers(1, 8)), draw(st.integers(1, 4))
    vals = st.floats(-3, 3, allow_nan=False, width=32)
    q = draw(hnp.arrays(dtype, lead + (n_q, d_k), elements=vals))
    # 키·밸류는 앞쪽 축 일부를 1 로 두어 브로드캐스트도 시험합니다.
    k_lead = tuple(draw(st.sampled_from([d, 1])) for d in lead)
    k = draw(hnp.arrays(dtype, k_lead + (n_k, d_k), elements=vals))
    v = draw(hnp.arrays(dtype, k_lead + (n_k, d_v), elements=vals))
    mask = None
    if with_mask and draw(st.booleans()):
        # 마스크는 (n_q, n_k) 이거나 점수와 축 수가 같습니다 (크기 1 인 축은 브로드캐스트).
        m_lead = tuple(draw(st.sampled_from([d, 1])) for d in lead) if draw(st.booleans()) else ()
        mask = draw(hnp.arrays(np.bool_, m_lead + (draw(st.sampled_from([n_q, 1])), n_k)))
    return q, k, v, mask


# ---------------------------------------------------------------- 참조 구현과 비교


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@given(data=st.data())
def test_matches_reference(dtype, data):
    q, k, v, mask = data.draw(attention_case(dtype=dtype))
    out, w = scaled_dot_product_attention(q, k, v, mask)
    ref_out, ref_w = reference_attention(q, k, v, mask)
    assert out.dtype == dtype and w.dtype == dtype
    np.testing.assert_allclose(w, ref_w, **TOL[dtype])
    np.testing.assert_allclose(out, ref_out, **TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@given(
    batch=st.integers(1, 2),
    n_q=st.integers(1, 5),
    n_k=st.integers(1, 5),
    heads=st.sampled_from([1, 2, 4]),
    d_head=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
    mask_kind=st.sampled_from(["none", "padding", "random"]),
)
def test_multi_head_matches_reference(dtype, batch, n_q, n_k, heads, d_head, seed, mask_kind):
    rng = np.random.default_rng(seed)
    d_model = heads * d_head
    x_q = rng.standard_normal((batch, n_q, d_model)).astype(dtype)
    x_kv = rng.standard_normal((batch, n_k, d_model)).astype(dtype)
    params = {
        n: (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)).astype(dtype)
        for n in ("W_Q", "W_K", "W_V", "W_O")
    }
    for b in ("b_Q", "b_K", "b_V", "b_O"):
        params[b] = rng.standard_normal(d_model).astype(dtype)
    mask = {
        "none": None,
        "padding": padding_mask(rng.integers(0, n_k + 1, size=batch), n_k),
        "random": rng.random((batch, heads, n_q, n_k)) < 0.7,
    }[mask_kind]
    out, w = multi_head_attention(x_q, x_kv, params, heads, mask)
    ref_out, ref_w = reference_multi_head(x_q, x_kv, params, heads, mask)
    assert out.shape == (batch, n_q, d_model) and w.shape == (batch, heads, n_q, n_k)
    assert out.dtype == dtype
    np.testing.assert_allclose(w, ref_w, **TOL[dtype])
    np.testing.assert_allclose(out, ref_out, **TOL[dtype])


def test_padding_mask_is_per_sentence_even_when_batch_equals_heads():
    """배치 수와 헤드 수가 같아도 패딩 마스크가 헤드가 아니라 문장에 붙습니다 (흔한 브로드캐스트 함정)."""
    rng = np.random.default_rng(7)
    batch = heads = 2
    x = rng.standard_normal((batch, 3, 4))
    params = {n: rng.standard_normal((4, 4)) for n in ("W_Q", "W_K", "W_V", "W_O")}
    lengths = [1, 3]
    for mask in (padding_mask(lengths, 3), padding_mask(lengths, 3)[:, 0]):  # 헤드 축 있음 / 없음
        _, w = multi_head_attention(x, x, params, heads, mask)
        np.testing.assert_array_equal(w[0, :, :, 1:], 0.0)  # 첫 문장: 모든 헤드가 키 0 만 봅니다
        np.testing.assert_allclose(w[0, :, :, 0], 1.0)
        assert np.all(w[1] > 0)  # 둘째 문장: 가린 것이 없습니다
        out, _ = multi_head_attention(x, x, params, heads, mask)
        for b, n in enumerate(lengths):  # 문장 하나씩, 진짜 키(앞 n 개)만 주고 따로 계산한 것과 같습니다
            alone, _ = multi_head_attention(x[b], x[b, :n], params, heads)
            np.testing.assert_allclose(out[b], alone, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="모호"):
        scaled_dot_product_attention(
            np.ones((2, 2, 3, 4)), np.ones((2, 2, 3, 4)), np.ones((2, 2, 3, 4)), padding_mask(lengths, 3)[:, 0]
        )


def test_biases_enter_where_they_should():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 4))
    params = {n: rng.standard_normal((4, 4)) for n in ("W_Q", "W_K", "W_V", "W_O")}
    base, _ = multi_head_attention(x, x, params, 2)
    # b_K 는 한 쿼리의 모든 점수에 같은 수를 더할 뿐이라 결과를 바꾸지 않습니다 (소프트맥스의 이동 불변성).
    same, _ = multi_head_attention(x, x, params | {"b_K": rng.standard_normal(4)}, 2)
    np.testing.assert_allclose(same, base, rtol=1e-10, atol=1e-12)
    for b in ("b_Q", "b_V", "b_O"):
        changed, _ = multi_head_attention(x, x, params | {b: rng.standard_normal(4)}, 2)
        assert not np.allclose(changed, base), b
    # b_V 와 b_O 는 출력에 정확히 이렇게 더해집니다 (가중치의 행 합이 1 이라서).
    b_V, b_O = rng.standard_normal(4), rng.standard_normal(4)
    shifted, _ = multi_head_attention(x, x, params | {"b_V": b_V, "b_O": b_O}, 2)
    np.testing.assert_allclose(shifted, base + b_V @ params["W_O"] + b_O, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- 성질 테스트


@given(data=st.data(), scale=st.sampled_from([1.0, 100.0, 1000.0]))
def test_rows_are_probability_distributions(data, scale):
    q, k, v, _ = data.draw(attention_case(with_mask=False))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # ±1000 점수에서도 overflow 경고가 없어야 합니다
        _, w = scaled_dot_product_attention(q * scale, k * scale, v)
    assert np.all(w >= 0) and np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


@given(n=st.integers(2, 6), d=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_self_attention_is_permutation_equivariant(n, d, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    perm = rng.permutation(n)
    out, w = scaled_dot_product_attention(x, x, x)
    out_p, w_p = scaled_dot_product_attention(x[perm], x[perm], x[perm])
    np.testing.assert_allclose(out_p, out[perm], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(w_p, w[np.ix_(perm, perm)], rtol=1e-12, atol=1e-12)


@given(data=st.data(), shift=st.floats(-500, 500))
def test_softmax_ignores_a_constant_added_to_a_row(data, shift):
    s = data.draw(hnp.arrays(np.float64, (3, 5), elements=st.floats(-50, 50)))
    np.testing.assert_allclose(softmax(s + shift), softmax(s), rtol=1e-9, atol=1e-12)
    mask = data.draw(hnp.arrays(np.bool_, (3, 5)))
    np.testing.assert_allclose(masked_softmax(s + shift, mask), masked_softmax(s, mask), rtol=1e-9, atol=1e-12)


@given(n=st.integers(1, 5), d=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_adding_one_vector_to_every_key_changes_nothing(n, d, seed):
    """모든 키에 같은 벡터 c 를 더하면 행 i 의 점수마다 q_i·c/√d 가 똑같이 더해질 뿐입니다."""
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((n, d)), rng.standard_normal((n + 1, d)), rng.standard_normal((n + 1, 2))
    c = rng.standard_normal(d) * 5
    out, w = scaled_dot_product_attention(q, k, v)
    out_c, w_c = scaled_dot_product_attention(q, k + c, v)
    np.testing.assert_allclose(w_c, w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(out_c, out, rtol=1e-9, atol=1e-12)


def _causal_self_attention(mask_fn, heads=2):
    rng = np.random.default_rng(0)
    d_model = 4
    params = {n: rng.standard_normal((d_model, d_model)) for n in ("W_Q", "W_K", "W_V", "W_O")}

    def run(x):
        return multi_head_attention(x, x, params, heads, mask_fn(x.shape[-2]))[0]

    return run


def causal_property_holds(attn, n, t, seed):
    """토큰 t 를 바꿨을 때 t 보다 앞선 위치의 출력이 그대로인가?"""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 4))
    x2 = x.copy()
    x2[t] = rng.standard_normal(4) * 3
    return np.array_equal(attn(x)[:t], attn(x2)[:t])


@given(n=st.integers(2, 7), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_causal_mask_hides_the_future(n, data, seed):
    t = data.draw(st.integers(1, n - 1))
    assert causal_property_holds(_causal_self_attention(causal_mask), n, t, seed)


def test_inverted_mask_is_caught_by_the_causal_property():
    """True/False 를 거꾸로 쓴 마스크(흔한 버그)는 위 성질 테스트에 걸립니다."""
    inverted = _causal_self_attention(lambda n: ~causal_mask(n))
    assert not all(causal_property_holds(inverted, 5, t, seed=1) for t in range(1, 5))
    # -inf 를 더하는 쪽에서 흔한 실수: 위쪽 삼각형을 "볼 수 있음"으로 준 경우도 걸립니다.
    upper = _causal_self_attention(lambda n: np.triu(np.ones((n, n), bool)))
    assert not all(causal_property_holds(upper, 5, t, seed=1) for t in range(1, 5))


@given(data=st.data())
def test_masked_positions_get_exactly_zero(data):
    q, k, v, _ = data.draw(attention_case(with_mask=False))
    mask = data.draw(hnp.arrays(np.bool_, (q.shape[-2], k.shape[-2])))
    _, w = scaled_dot_product_attention(q, k, v, mask)
    wb = np.broadcast_to(~mask, w.shape)
    assert np.all(w[wb] == 0.0)
    rows_with_keys = np.broadcast_to(mask.any(axis=-1), w.shape[:-1])
    np.testing.assert_allclose(w.sum(-1)[rows_with_keys], 1.0, rtol=1e-12)


# ---------------------------------------------------------------- 수치 안정성과 dtype


def test_fully_masked_row_gives_zeros_not_nan():
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 2))
    mask = padding_mask([0, 3], 5)[:, 0]  # 첫 문장은 진짜 토큰이 하나도 없습니다
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, w = scaled_dot_product_attention(q, k, v, mask)
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
    assert np.all(w[0] == 0) and np.all(out[0] == 0)
    np.testing.assert_allclose(w[1].sum(-1), 1.0)
    assert np.all(w[1][:, 3:] == 0)


@pytest.mark.parametrize("value", [1000.0, -1000.0])
def test_large_scores_are_stable(value):
    q = np.array([[value, 0.0]], dtype=np.float32)
    k = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 0.0]], dtype=np.float32)
    v = np.eye(3, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, w = scaled_dot_product_attention(q, k, v)
    assert w.dtype == np.float32
    winner = 0 if value > 0 else 1
    assert w[0, winner] == pytest.approx(1.0) and np.all(np.isfinite(w))
    assert np.all(out == w)  # V 가 단위 행렬이면 출력 = 가중치


@pytest.mark.parametrize(
    "dtype, expected",
    [
        (np.float32, np.float32),
        (np.float64, np.float64),
        (np.float16, np.float32),
        (np.int64, np.float64),
        (np.int8, np.float64),
        (np.bool_, np.float64),
    ],
)
def test_dtype_is_preserved(dtype, expected):
    x = np.arange(12).reshape(3, 4).astype(dtype)
    out, w = scaled_dot_product_attention(x, x, x)
    assert out.dtype == expected and w.dtype == expected
    assert softmax(x).dtype == expected
    assert masked_softmax(x, np.ones((3, 4), bool)).dtype == expected
    params = {n: np.eye(4, dtype=dtype) for n in ("W_Q", "W_K", "W_V", "W_O")}
    out, w = multi_head_attention(
        x.astype(expected), x.astype(expected), {n: p.astype(expected) for n, p in params.items()}, 2
    )
    assert out.dtype == expected and w.dtype == expected


def test_nan_input_is_a_clear_error():
    q = np.array([[np.nan, 1.0]])
    ok = np.ones((1, 2))
    with pytest.raises(ValueError, match=r"q 에 NaN.*q.shape=\(1, 2\)"):
        scaled_dot_product_attention(q, ok, ok)
    # 가려진 키의 밸류에 NaN 이 있어도 조용히 번지지 않고 오류입니다.
    with pytest.raises(ValueError, match=r"v 에 NaN.*v.shape=\(2, 1\)"):
        scaled_dot_product_attention(np.ones((1, 2)), np.ones((2, 2)), [[1.0], [np.nan]], [[True, False]])
    with pytest.raises(ValueError, match="NaN"):
        softmax([np.nan, 1.0])
    with pytest.raises(ValueError, match="NaN"):
        masked_softmax(np.array([[np.nan, 1.0]]), np.array([[True, True]]))


def test_masked_softmax_rejects_additive_masks():
    with pytest.raises(ValueError, match="불리언"):
        masked_softmax(np.array([[1.0, 2.0]]), np.array([[0.0, -np.inf]]))


def test_overflowing_scores_are_a_clear_error():
    big = np.full((1, 2), 3e38, dtype=np.float32)
    with pytest.raises(ValueError, match="float32 범위"):
        scaled_dot_product_attention(big, big, big)


def test_empty_and_degenerate_shapes():
    out, w = scaled_dot_product_attention(np.ones((3, 4)), np.ones((0, 4)), np.ones((0, 2)))
    assert out.shape == (3, 2) and w.shape == (3, 0) and np.all(out == 0)
    with pytest.raises(ValueError, match="d_k 가 0"):
        scaled_dot_product_attention(np.ones((3, 0)), np.ones((2, 0)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="num_heads=0 "):
        split_heads(np.ones((2, 4)), 0)
    with pytest.raises(ValueError, match=r"\(4,\)"):
        split_heads(np.ones(4), 2)
    with pytest.raises(ValueError, match="정수"):
        padding_mask([2.5], 4)
    with pytest.raises(ValueError, match="W_K 가 없습니다"):
        multi_head_attention(
            np.ones((2, 4)), np.ones((2, 4)), {"W_Q": np.eye(4), "W_V": np.eye(4), "W_O": np.eye(4)}, 2
        )
    with pytest.raises(ValueError, match=r"b_V.shape=\(3,\)"):
        multi_head_attention(np.ones((2, 4)), np.ones((2, 4)), _mha_params(4) | {"b_V": np.ones(3)}, 2)


# ---------------------------------------------------------------- 잘못된 입력은 모양을 밝힌 ValueError


def _mha_params(d_model):
    return {n: np.eye(d_model) for n in ("W_Q", "W_K", "W_V", "W_O")}


@pytest.mark.parametrize(
    "call, shapes",
    [
        # 쿼리/키 특성 크기 불일치
        (lambda: scaled_dot_product_attention(np.ones((3, 4)), np.ones((5, 6)), np.ones((5, 2))), ["(3, 4)", "(5, 6)"]),
        # 키/밸류 길이 불일치
        (lambda: scaled_dot_product_attention(np.ones((3, 4)), np.ones((5, 4)), np.ones((6, 2))), ["(5, 4)", "(6, 2)"]),
        # 브로드캐스트되지 않는 마스크
        (
            lambda: scaled_dot_product_attention(
                np.ones((3, 4)), np.ones((5, 4)), np.ones((5, 2)), np.ones((4, 5), bool)
            ),
            ["(4, 5)", "(3, 5)"],
        ),
        # 점수 모양을 바꿔 버리는 마스크 (헤드 축 없는 점수에 4차원 패딩 마스크)
        (
            lambda: scaled_dot_product_attention(
                np.ones((2, 3, 4)), np.ones((2, 5, 4)), np.ones((2, 5, 2)), padding_mask([2, 5], 5)
            ),
            ["(2, 1, 1, 5)", "(2, 3, 5)"],
        ),
        # 불리언이 아닌 마스크 (0/1 이나 -inf 를 더하는 방식과 헷갈리지 않게)
        (
            lambda: scaled_dot_product_attention(np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 2)), np.ones((3, 3))),
            ["float64", "(3, 3)"],
        ),
        # d_model 이 헤드 수로 나누어떨어지지 않음
        (lambda: multi_head_attention(np.ones((3, 6)), np.ones((3, 6)), _mha_params(6), 4), ["(3, 6)", "4"]),
        (lambda: split_heads(np.ones((2, 3, 10)), 3), ["(2, 3, 10)"]),
        # 차원 수가 잘못됨
        (lambda: scaled_dot_product_attention(np.ones(4), np.ones((3, 4)), np.ones((3, 4))), ["(4,)"]),
        (lambda: multi_head_attention(np.ones(8), np.ones((3, 8)), _mha_params(8), 2), ["(8,)"]),
        # 투영 행렬 모양이 입력과 맞지 않음
        (lambda: multi_head_attention(np.ones((3, 8)), np.ones((3, 8)), _mha_params(6), 2), ["(6, 6)", "(3, 8)"]),
        # 배치 축이 브로드캐스트되지 않음
        (
            lambda: scaled_dot_product_attention(np.ones((2, 3, 4)), np.ones((3, 5, 4)), np.ones((3, 5, 2))),
            ["(2, 3, 4)", "(3, 5, 4)"],
        ),
    ],
)
def test_bad_input_names_the_shapes(call, shapes):
    with pytest.raises(ValueError) as err:
        call()
    for s in shapes:
        assert s in str(err.value), f"오류 메시지에 {s} 가 없습니다: {err.value}"


# ---------------------------------------------------------------- 회귀 테스트


def test_split_heads_needs_the_transpose():
    """reshape 만 하고 축을 바꾸지 않으면 헤드마다 엉뚱한 숫자 묶음이 모입니다."""
    rng = np.random.default_rng(3)
    batch, n, heads, d_head = 2, 5, 4, 3
    x = rng.standard_normal((batch, n, heads * d_head))
    right = split_heads(x, heads)
    wrong = x.reshape(batch, heads, n, d_head)  # 흔한 버그: transpose 없이 바로 reshape
    assert right.shape == wrong.shape == (batch, heads, n, d_head)
    # 올바른 분할: 헤드 h 는 모든 토큰의 열 구간 [h*d_head, (h+1)*d_head) 입니다.
    for h in range(heads):
        np.testing.assert_array_equal(right[:, h], x[:, :, h * d_head : (h + 1) * d_head])
    assert not np.allclose(right, wrong)
    np.testing.assert_array_equal(merge_heads(right), x)

    # 어텐션 결과도 달라집니다: 틀린 분할은 반복문 참조 구현과 맞지 않습니다.
    params = {nme: rng.standard_normal((12, 12)) / 4 for nme in ("W_Q", "W_K", "W_V", "W_O")}
    ref, _ = reference_multi_head(x, x, params, heads)
    out, _ = multi_head_attention(x, x, params, heads)
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)

    def wrong_mha(x):
        q, k, v = (x @ params[nme] for nme in ("W_Q", "W_K", "W_V"))

        def split(t):
            return t.reshape(batch, heads, n, d_head)

        o, _ = scaled_dot_product_attention(split(q), split(k), split(v))
        return o.reshape(batch, n, heads * d_head) @ params["W_O"]

    assert not np.allclose(wrong_mha(x), ref, atol=1e-3)


def test_softmax_on_the_wrong_axis_breaks_the_row_sums():
    s = np.random.default_rng(5).standard_normal((4, 6))
    assert np.allclose(softmax(s, axis=-1).sum(-1), 1)
    assert not np.allclose(softmax(s, axis=0).sum(-1), 1)


def test_masks_follow_the_pytorch_convention():
    m = causal_mask(3)
    assert m.dtype == np.bool_
    np.testing.assert_array_equal(m, [[True, False, False], [True, True, False], [True, True, True]])
    p = padding_mask([1, 3], 3)
    assert p.shape == (2, 1, 1, 3)
    np.testing.assert_array_equal(p[:, 0, 0], [[True, False, False], [True, True, True]])
    with pytest.raises(ValueError, match="lengths"):
        padding_mask([4], 3)


# ---------------------------------------------------------------- 코어는 하나뿐

CORE_NAMES = {
    "softmax",
    "masked_softmax",
    "scaled_dot_product_attention",
    "attention",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
    "causal_mask",
    "padding_mask",
}


@pytest.mark.reads("snippets/*.py")
@pytest.mark.parametrize("path", [p.name for p in snippet_files() if p.name != "attention.py"])
def test_no_other_snippet_reimplements_the_core(path):
    tree = ast.parse(snippet_path(path.removesuffix(".py")).read_text(encoding="utf-8"))
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert not defined & CORE_NAMES, f"{path} 가 코어 함수를 다시 만듭니다: {defined & CORE_NAMES}"
