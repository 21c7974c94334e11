"""잘못된 입력 (이슈 15): 조용한 쓰레기 값도, numpy 의 날것 오류도 없습니다.

코어(snippets/lib/attention.py)와 인코더(snippets/lib/bert_numpy.py)의 공개 함수는 입력마다 둘 중 하나입니다.
- 문서에 적힌 결과: tests/reference_attention.py 의 반복문 참조 구현과 같은 값
- 분명한 오류: 정확히 ValueError 나 TypeError 이고 (numpy 의 AxisError 같은 하위 클래스가 아님),
  메시지에 문제인 인자의 이름과 그 모양·dtype·값이 들어 있음

입력 종류(이슈 15 의 목록과 그 밖에 찾은 것)마다 hypothesis 가 잘못된 입력과 경계의 입력을 만들고,
각 입력에 대해 어느 쪽이어야 하는지를 함께 정해 둡니다. 경고(RuntimeWarning 등)는 모두 실패입니다.
"""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# 코어의 함수는 attention.이름 으로 부릅니다: 이 파일은 인코더(bert_numpy)의 함수도 보므로, 어느 모듈의 함수가
# 입력을 거르는지 부르는 자리에서 보이게.
import attention
from reference_attention import (
    reference_attention,
    reference_merge_heads,
    reference_multi_head,
    reference_softmax,
    reference_split_heads,
)

F64 = dict(rtol=1e-10, atol=1e-12)
F32 = dict(rtol=1e-4, atol=2e-5)
PARAM_NAMES = ("W_Q", "W_K", "W_V", "W_O")


def run(call):
    """경고를 오류로 바꿔 실행합니다 (pytest 설정과 상관없이)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


def named_error(call, exc, name, *details):
    """call 이 정확히 exc 를 내고, 메시지에 name 과 details(모양·dtype·값) 가 모두 들어 있는지."""
    try:
        run(call)
    except (ValueError, TypeError) as err:
        msg = str(err)
        assert type(err) is exc, f"{exc.__name__} 가 아니라 {type(err).__name__}: {msg}"
        assert name in msg, f"메시지에 인자 이름 {name!r} 가 없습니다: {msg}"
        for d in details:
            assert str(d) in msg, f"메시지에 {d!r} 가 없습니다: {msg}"
        return msg
    raise AssertionError(f"{name}: 오류가 나야 하는데 결과를 돌려줬습니다")


def tol(dtype):
    return F64 if np.dtype(dtype) in (np.float64, np.longdouble) else F32


# ---------------------------------------------------------------- dtype

REAL = [
    np.bool_,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    np.longdouble,
]
NOT_REAL = [np.complex64, np.complex128, "U3", "S3", object, "datetime64[s]", "timedelta64[s]"]


def computed_dtype(dtype):
    """모듈 설명의 dtype 약속: 실수는 float32 이상으로, 정수·불리언은 float64 로."""
    dtype = np.dtype(dtype)
    return np.result_type(dtype, np.float32) if dtype.kind == "f" else np.dtype(np.float64)


def real_array(draw, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return draw(hnp.arrays(dtype, shape))
    if dtype.kind in "iu":
        return draw(hnp.arrays(dtype, shape, elements=st.integers(0 if dtype.kind == "u" else -3, 3)))
    return draw(hnp.arrays(np.float64, shape, elements=st.floats(-3, 3))).astype(dtype)


def not_real_array(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return np.full(shape, 1 + 2j, dtype)
    if dtype.kind == "O":
        a = np.empty(shape, dtype)
        a[...] = 1.0  # 숫자를 담은 객체 배열도 받지 않습니다 (무엇이 들어 있을지 모르니까요)
        return a
    if dtype.kind in "US":
        return np.full(shape, "1", dtype)
    return np.zeros(shape, dtype)  # datetime64, timedelta64


@pytest.mark.parametrize("fn", ["softmax", "masked_softmax", "sdpa", "mha"])
@given(data=st.data(), dtype=st.sampled_from(REAL + NOT_REAL))
def test_dtypes_are_real_numbers_or_a_type_error(fn, data, dtype):
    """복소수·문자열·객체·날짜는 TypeError (허수부를 조용히 버리지 않음), 실수는 약속된 dtype 으로 계산."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    real = np.dtype(dtype).kind in "biuf"
    if fn in ("softmax", "masked_softmax"):
        shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
        x = real_array(data.draw, shape, dtype) if real else not_real_array(shape, dtype)
        mask = data.draw(hnp.arrays(np.bool_, shape)) if fn == "masked_softmax" else None
        call = (lambda: attention.softmax(x)) if mask is None else (lambda: attention.masked_softmax(x, mask))
        name = "x" if mask is None else "scores"
        if not real:
            named_error(call, TypeError, name, np.dtype(dtype), shape)
            return
        out = run(call)
        assert out.dtype == computed_dtype(dtype)
        np.testing.assert_allclose(out, reference_softmax(x, -1, mask), **tol(out.dtype))
    elif fn == "sdpa":
        which = data.draw(st.sampled_from("qkv"))
        arrays = {n: rng.standard_normal((3, 2)) for n in "qkv"}
        arrays[which] = real_array(data.draw, (3, 2), dtype) if real else not_real_array((3, 2), dtype)
        call = lambda: attention.scaled_dot_product_attention(arrays["q"], arrays["k"], arrays["v"])  # noqa: E731
        if not real:
            named_error(call, TypeError, which, np.dtype(dtype))
            return
        out, w = run(call)
        assert out.dtype == np.result_type(computed_dtype(dtype), np.float64)
        ref_out, ref_w = reference_attention(arrays["q"], arrays["k"], arrays["v"])
        np.testing.assert_allclose(w, ref_w, **F32)
        np.testing.assert_allclose(out, ref_out, **F32)
    else:
        which = data.draw(st.sampled_from(["x_q", "x_kv", *PARAM_NAMES, "b_Q", "b_O"]))
        x = rng.standard_normal((3, 4))
        inputs = {"x_q": x, "x_kv": x} | {n: rng.standard_normal((4, 4)) / 2 for n in PARAM_NAMES}
        inputs |= {"b_Q": rng.standard_normal(4), "b_O": rng.standard_normal(4)}
        shape = inputs[which].shape
        inputs[which] = real_array(data.draw, shape, dtype) if real else not_real_array(shape, dtype)
        params = {n: inputs[n] for n in (*PARAM_NAMES, "b_Q", "b_O")}
        call = lambda: attention.multi_head_attention(inputs["x_q"], inputs["x_kv"], params, 2)  # noqa: E731
        if not real:
            named_error(call, TypeError, which, np.dtype(dtype))
            return
        out, w = run(call)
        ref_out, ref_w = reference_multi_head(inputs["x_q"], inputs["x_kv"], params, 2)
        np.testing.assert_allclose(w, ref_w, **F32)
        np.testing.assert_allclose(out, ref_out, **F32)


def test_integer_inputs_cannot_wrap_around():
    """int8 끼리 곱하면 numpy 는 조용히 넘쳐 돌아갑니다(100·100 → 16). 코어는 먼저 float64 로 바꿉니다."""
    x = np.full((3, 4), 100, np.int8)
    params = {n: np.full((4, 4), 100, np.int8) for n in PARAM_NAMES}
    assert (x @ params["W_Q"]).dtype == np.int8  # 함정이 진짜인지
    out, w = run(lambda: attention.multi_head_attention(x, x, params, 2))
    ref_out, ref_w = reference_multi_head(x, x, params, 2)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, ref_out, rtol=1e-12)
    q = np.full((2, 3), 2**40, np.int64)  # 정수 내적 2^80 은 int64 를 넘지만 float64 로는 괜찮습니다
    out, w = run(lambda: attention.scaled_dot_product_attention(q, q, np.eye(2)))
    np.testing.assert_allclose(w, 0.5)


# ---------------------------------------------------------------- NaN·inf, 그리고 계산 도중의 넘침


@pytest.mark.parametrize("kind", ["non-finite", "overflow"])
@given(data=st.data())
def test_non_finite_parameters_and_overflow_are_named(kind, data):
    """투영 행렬·편향의 NaN/inf, 그리고 float32 에서만 넘치는 투영·출력은 이름을 밝힌 ValueError."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    d_model, heads = 4, 2
    x = rng.standard_normal((2, 3, d_model))
    params = {n: rng.standard_normal((d_model, d_model)) / 2 for n in PARAM_NAMES}
    params |= {b: rng.standard_normal(d_model) for b in ("b_Q", "b_K", "b_V", "b_O")}
    name = data.draw(st.sampled_from(sorted(params) if kind == "non-finite" else PARAM_NAMES))
    if kind == "non-finite":
        bad = params[name].copy()
        index = tuple(data.draw(st.integers(0, s - 1)) for s in bad.shape)
        bad[index] = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]))
        named_error(
            lambda: attention.multi_head_attention(x, x, params | {name: bad}, heads),
            ValueError,
            name,
            f"{name}.shape={bad.shape}",
            "NaN",
        )
        return
    # 한 투영만 아주 크게: float64 에서는 유한하지만 float32 (최대 3.4e38) 에서는 넘칩니다.
    big = {n: p.astype(np.float32) for n, p in params.items()} | {name: (params[name] * 1e37).astype(np.float32)}
    x32 = (x * 1e3).astype(np.float32)
    try:
        out, w = run(lambda: attention.multi_head_attention(x32, x32, big, heads))
    except ValueError as err:
        assert type(err) is ValueError and "float32 범위" in str(err) and name in str(err), str(err)
    else:  # 넘치지 않았다면 (W_K 처럼 소프트맥스가 흡수하는 경우 등) 참조와 같아야 합니다
        assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
        ref_out, _ = reference_multi_head(x32, x32, big, heads)
        np.testing.assert_allclose(out, ref_out, rtol=1e-3, atol=1e-3 * np.abs(ref_out).max())
    out64, _ = run(
        lambda: attention.multi_head_attention(x * 1e3, x * 1e3, params | {name: params[name] * 1e37}, heads)
    )
    assert np.all(np.isfinite(out64))


@given(name=st.sampled_from(["b_q", "b_o", "bias_Q", "W_q", "Wq", "b_QK", "W_QKV"]), seed=st.integers(0, 2**32 - 1))
def test_misspelt_parameter_names_are_not_ignored(name, seed):
    """철자가 틀린 편향은 예전에는 조용히 빠졌습니다(결과가 조용히 달라짐). 이제 그 이름을 밝힌 오류입니다."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, 4))
    params = {n: rng.standard_normal((4, 4)) for n in PARAM_NAMES} | {name: rng.standard_normal(4)}
    named_error(lambda: attention.multi_head_attention(x, x, params, 2), ValueError, repr(name))
    missing = {n: p for n, p in params.items() if n in ("W_Q", "W_K", "W_O")}
    named_error(lambda: attention.multi_head_attention(x, x, missing, 2), ValueError, "W_V 가 없습니다")
    named_error(lambda: attention.multi_head_attention(x, x, list(params.items()), 2), TypeError, "params", "list")


@given(n_k=st.integers(1, 40), scale=st.sampled_from([1.0, 0.999, 0.99, 0.5]))
def test_value_overflow_in_float32_is_named_or_exact(n_k, scale):
    """가중치의 행 합이 1 보다 반올림만큼 크면 float32 최댓값 근처의 밸류가 출력에서 넘칩니다."""
    top = np.finfo(np.float32).max
    q = np.zeros((1, 2), np.float32)
    v = np.full((n_k, 2), top * scale, np.float32)
    try:
        out, w = run(lambda: attention.scaled_dot_product_attention(q, np.zeros((n_k, 2), np.float32), v))
    except ValueError as err:
        assert type(err) is ValueError
        assert "출력" in str(err) and f"v.shape={v.shape}" in str(err) and "float32 범위" in str(err)
    else:
        assert out.dtype == np.float32 and np.all(np.isfinite(out))
        np.testing.assert_allclose(out, float(top * scale), rtol=1e-6)


@given(data=st.data())
def test_extreme_float32_scores_need_no_warning(data):
    """±3e38 이 섞인 float32 점수: 최솟값 - 최댓값이 float32 를 넘어도 경고 없이 맞는 가중치."""
    x = data.draw(
        hnp.arrays(
            np.float32,
            hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
            elements=st.sampled_from([-3e38, -1.0, 0.0, 2.5, 3e38]).map(np.float32),
        )
    )
    mask = data.draw(hnp.arrays(np.bool_, x.shape))
    out = run(lambda: attention.softmax(x))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, reference_softmax(x), **F32)
    out = run(lambda: attention.masked_softmax(x, mask))
    np.testing.assert_allclose(out, reference_softmax(x, -1, mask), **F32)


# ---------------------------------------------------------------- 빈 입력


@given(data=st.data())
def test_empty_inputs_have_documented_results(data):
    """원소가 없는 축은 오류가 아니라 참조 구현과 같은 빈(또는 0) 결과입니다. d_k = 0 만 오류입니다."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3))
    assume(0 in shape)
    x = np.ones(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    np.testing.assert_array_equal(run(lambda: attention.softmax(x, axis)), reference_softmax(x, axis))
    mask = data.draw(hnp.arrays(np.bool_, shape))
    np.testing.assert_array_equal(
        run(lambda: attention.masked_softmax(x, mask, axis)), reference_softmax(x, axis, mask)
    )

    lead = tuple(data.draw(st.lists(st.integers(0, 2), max_size=2)))
    n_q, n_k, d_v = (data.draw(st.integers(0, 3)) for _ in range(3))
    d_k = data.draw(st.integers(0, 3))
    q, k, v = np.ones(lead + (n_q, d_k)), np.ones(lead + (n_k, d_k)), np.ones(lead + (n_k, d_v))
    call = lambda: attention.scaled_dot_product_attention(q, k, v)  # noqa: E731
    if d_k == 0:
        named_error(call, ValueError, "d_k", f"q.shape={q.shape}")
    else:
        out, w = run(call)
        ref_out, ref_w = reference_attention(q, k, v)
        assert out.shape == ref_out.shape and w.shape == ref_w.shape
        np.testing.assert_allclose(out, ref_out, **F64)
        np.testing.assert_allclose(w, ref_w, **F64)

    heads = data.draw(st.sampled_from([1, 2]))
    x = np.ones(lead + (n_q, 2 * heads))
    np.testing.assert_array_equal(run(lambda: attention.split_heads(x, heads)), reference_split_heads(x, heads))
    params = {n: np.eye(2 * heads) for n in PARAM_NAMES}
    x_kv = np.ones(lead + (n_k, 2 * heads))
    out, w = run(lambda: attention.multi_head_attention(x, x_kv, params, heads))
    ref_out, ref_w = reference_multi_head(x, x_kv, params, heads)
    assert out.shape == ref_out.shape and w.shape == ref_w.shape
    np.testing.assert_allclose(out, ref_out, **F64)


def test_empty_masks_and_batches():
    np.testing.assert_array_equal(attention.causal_mask(0), np.ones((0, 0), bool))
    assert attention.padding_mask([], 4).shape == (0, 1, 1, 4) and attention.padding_mask([], 4).dtype == np.bool_
    assert attention.padding_mask([0, 0], 0).shape == (2, 1, 1, 0)
    assert attention.merge_heads(np.ones((0, 3, 2))).shape == (3, 0)


# ---------------------------------------------------------------- 축 번호

AXES = st.one_of(
    st.integers(-5, 5), st.sampled_from([1.0, 0.5, True, False, None, "1", (0, 1)]), st.integers(-3, 3).map(np.int64)
)


@given(data=st.data(), axis=AXES)
def test_axis_is_an_axis_or_a_value_error(data, axis):
    x = data.draw(
        hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=4), elements=st.floats(-5, 5))
    )
    valid = isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and -x.ndim <= axis < x.ndim
    if not valid:
        named_error(lambda: attention.softmax(x, axis), ValueError, f"axis={axis!r}", f"x.shape={x.shape}")
        if x.ndim >= 1:
            mask = np.ones(x.shape, bool)
            named_error(lambda: attention.masked_softmax(x, mask, axis), ValueError, f"axis={axis!r}", x.shape)
        return
    np.testing.assert_allclose(run(lambda: attention.softmax(x, axis)), reference_softmax(x, axis), **F64)
    mask = data.draw(hnp.arrays(np.bool_, x.shape))
    np.testing.assert_allclose(
        run(lambda: attention.masked_softmax(x, mask, axis)), reference_softmax(x, axis, mask), **F64
    )


# ---------------------------------------------------------------- 헤드 수

NUM_HEADS = st.one_of(
    st.integers(-3, 8),
    st.integers(1, 6).map(np.int64),
    st.sampled_from([2.0, 1.5, "3", True, False, None, [2], np.float64(2)]),
)


@given(num_heads=NUM_HEADS, d_model=st.sampled_from([4, 6, 12]), seed=st.integers(0, 2**32 - 1))
def test_num_heads_is_a_divisor_of_d_model(num_heads, d_model, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 3, d_model))
    params = {n: rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for n in PARAM_NAMES}
    calls = {
        "split_heads": lambda: attention.split_heads(x, num_heads),
        "multi_head_attention": lambda: attention.multi_head_attention(x, x, params, num_heads),
    }
    if isinstance(num_heads, bool) or not isinstance(num_heads, (int, np.integer)):
        for call in calls.values():
            named_error(call, TypeError, "num_heads", f"num_heads={num_heads!r}")
    elif num_heads < 1:
        for call in calls.values():
            named_error(call, ValueError, f"num_heads={num_heads}")
    elif d_model % num_heads:
        for call in calls.values():
            named_error(call, ValueError, f"d_model={d_model}", f"헤드 수 {num_heads}", "(2, 3,")
    else:
        np.testing.assert_array_equal(run(calls["split_heads"]), reference_split_heads(x, int(num_heads)))
        out, w = run(calls["multi_head_attention"])
        ref_out, ref_w = reference_multi_head(x, x, params, int(num_heads))
        np.testing.assert_allclose(out, ref_out, **F64)
        np.testing.assert_allclose(w, ref_w, **F64)


@given(
    x=hnp.arrays(
        np.float64, hnp.array_shapes(min_dims=0, max_dims=5, min_side=0, max_side=3), elements=st.floats(-5, 5)
    )
)
def test_merge_heads_needs_a_head_axis(x):
    if x.ndim < 3:
        named_error(lambda: attention.merge_heads(x), ValueError, "x", f"x.shape={x.shape}", "h, n, d_head")
        return
    merged = run(lambda: attention.merge_heads(x))
    np.testing.assert_array_equal(merged, reference_merge_heads(x))
    if x.shape[-3] > 0:  # 되돌리면 그대로
        np.testing.assert_array_equal(attention.split_heads(merged, x.shape[-3]), x)


# ---------------------------------------------------------------- 마스크 만들기

SIZES = st.one_of(
    st.integers(-3, 6),
    st.integers(0, 6).map(np.int32),
    st.sampled_from([2.5, 3.0, True, False, None, "3", np.float64(2)]),
)


def is_count(n):
    return isinstance(n, (int, np.integer)) and not isinstance(n, bool)


@given(n=SIZES)
def test_causal_mask_size(n):
    if not is_count(n):
        named_error(lambda: attention.causal_mask(n), TypeError, "n", f"n={n!r}")
    elif n < 0:
        named_error(lambda: attention.causal_mask(n), ValueError, f"n={n}")
    else:
        m = run(lambda: attention.causal_mask(n))
        assert m.dtype == np.bool_
        np.testing.assert_array_equal(m, np.array([[j <= i for j in range(n)] for i in range(n)], bool).reshape(n, n))


LENGTHS = st.one_of(
    st.lists(st.integers(-2, 7), max_size=4),
    st.lists(st.floats(0, 5), min_size=1, max_size=3),
    st.lists(st.booleans(), min_size=1, max_size=3),
    st.just([[1, 2]]),
    st.just(3),
)


@given(lengths=LENGTHS, n_k=SIZES)
def test_padding_mask_sizes(lengths, n_k):
    call = lambda: attention.padding_mask(lengths, n_k)  # noqa: E731
    if not is_count(n_k):
        named_error(call, TypeError, "n_k", f"n_k={n_k!r}")
        return
    if n_k < 0:
        named_error(call, ValueError, f"n_k={n_k}")
        return
    arr = np.asarray(lengths)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        named_error(call, ValueError, "lengths", "정수 1차원")
        return
    if arr.size and (arr.min() < 0 or arr.max() > n_k):
        named_error(call, ValueError, f"lengths={arr.tolist()}", f"n_k={n_k}")
        return
    m = run(call)
    assert m.shape == (len(arr), 1, 1, n_k) and m.dtype == np.bool_
    expected = np.array([[j < length for j in range(n_k)] for length in arr], bool).reshape(len(arr), n_k)
    np.testing.assert_array_equal(m[:, 0, 0], expected)


# ---------------------------------------------------------------- 마스크의 뜻: 배치 수 = 헤드 수일 때


@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_mask_meaning_depends_on_rank_not_on_sizes(data, seed):
    """배치 수와 헤드 수가 같아도 마스크의 뜻은 축 수로만 정해집니다.

    입력의 배치 축 수 + 2 축이면 문장마다(헤드 축 없음), + 3 축이면 문장·헤드마다, 그 밖은 오류.
    """
    rng = np.random.default_rng(seed)
    heads = data.draw(st.sampled_from([2, 3]))
    lead = data.draw(st.sampled_from([(), (heads,), (1, heads)]))  # 배치 수 = 헤드 수
    n_q, n_k, d_model = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4)), 2 * heads
    q_lead = data.draw(st.sampled_from([lead, ()]))  # 쿼리 쪽만 배치 축이 없어도 (브로드캐스트) 같은 규칙
    x_q = rng.standard_normal(q_lead + (n_q, d_model))
    x_kv = rng.standard_normal(lead + (n_k, d_model))
    params = {n: rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for n in PARAM_NAMES}
    rank = data.draw(st.integers(1, len(lead) + 4))
    if rank == 2:
        shape = (n_q, n_k)
    elif rank == len(lead) + 2:
        shape = lead + (n_q, n_k)
    elif rank == len(lead) + 3:
        shape = lead + (heads, n_q, n_k)
    elif rank == 1:
        shape = (n_k,)
    else:
        shape = (heads,) * (rank - 2) + (n_q, n_k)
    mask = rng.random(shape) < 0.7
    call = lambda: attention.multi_head_attention(x_q, x_kv, params, heads, mask)  # noqa: E731
    if rank not in (2, len(lead) + 2, len(lead) + 3):
        named_error(call, ValueError, f"mask.shape={mask.shape}")
        return
    out, w = run(call)
    per_head = mask if rank == len(lead) + 3 else mask[..., None, :, :] if rank > 2 else mask
    ref_out, ref_w = reference_multi_head(x_q, x_kv, params, heads, per_head)
    np.testing.assert_allclose(w, ref_w, **F64)
    np.testing.assert_allclose(out, ref_out, **F64)
    if lead == (heads,) and rank == 3:  # 문장 b 의 마스크는 문장 b 에만: 하나씩 따로 계산한 것과 같습니다
        for b in range(heads):
            alone, _ = attention.multi_head_attention(x_q[b] if q_lead else x_q, x_kv[b], params, heads, mask[b])
            np.testing.assert_allclose(out[b], alone, **F64)


@given(data=st.data())
def test_mask_shape_that_does_not_fit_is_named(data):
    """헤드 축이 있든 없든, 크기가 맞지 않는 마스크는 넘겨준 모양 그대로 메시지에 나옵니다."""
    heads, batch, n = 2, data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    x = np.ones((batch, n, 4))
    params = {p: np.eye(4) for p in PARAM_NAMES}
    with_heads = data.draw(st.booleans())
    shape = [batch, heads, n, n] if with_heads else [batch, n, n]
    i = data.draw(st.integers(0, len(shape) - 1))
    shape[i] += data.draw(st.integers(1, 2))  # 한 축을 어긋나게
    mask = np.ones(shape, bool)
    named_error(
        lambda: attention.multi_head_attention(x, x, params, heads, mask), ValueError, f"mask.shape={tuple(shape)}"
    )


# ---------------------------------------------------------------- masked_softmax 에 바로 준 마스크


@pytest.mark.parametrize("kind", ["dtype", "rank", "size", "ragged", "ok", "ok-2d", "nan-hidden"])
@given(data=st.data())
def test_masked_softmax_checks_its_mask(kind, data):
    scores = data.draw(
        hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, max_side=3), elements=st.floats(-5, 5))
    )
    shape = scores.shape
    if kind == "dtype":
        dtype = data.draw(st.sampled_from([np.int64, np.float64, np.uint8, object]))
        mask = np.ones(shape, dtype)
        named_error(lambda: attention.masked_softmax(scores, mask), ValueError, "mask", f"mask.dtype={np.dtype(dtype)}")
    elif kind == "rank":
        rank = data.draw(st.integers(0, len(shape) + 2).filter(lambda r: r not in (2, len(shape))))
        mask = np.ones((1,) * rank, bool)
        named_error(lambda: attention.masked_softmax(scores, mask), ValueError, f"mask.shape={mask.shape}")
    elif kind == "size":
        bad = list(shape)
        i = data.draw(st.integers(0, len(bad) - 1))
        bad[i] += data.draw(st.integers(1, 2))
        mask = np.ones(bad, bool)
        named_error(lambda: attention.masked_softmax(scores, mask), ValueError, f"mask.shape={tuple(bad)}", shape)
    elif kind == "ragged":
        named_error(lambda: attention.masked_softmax(scores, [[True], [True, False]]), ValueError, "mask")
    else:
        if kind == "ok-2d":
            assume(len(shape) >= 2)
            mask = data.draw(hnp.arrays(np.bool_, shape[-2:]))
        else:
            mask = data.draw(hnp.arrays(np.bool_, shape))
        if kind == "nan-hidden":  # 가린 자리의 NaN 은 읽지 않습니다
            scores = np.where(np.broadcast_to(mask, shape), scores, np.nan)
        out = run(lambda: attention.masked_softmax(scores, mask))
        np.testing.assert_allclose(out, reference_softmax(scores, -1, mask), **F64)


# ---------------------------------------------------------------- 메모리에 띄엄띄엄 놓인 입력


@given(seed=st.integers(0, 2**32 - 1), heads=st.sampled_from([1, 2]))
def test_non_contiguous_views_give_the_same_answer(seed, heads):
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((8, 6, 4 * heads))
    x = base[::2, ::-1].swapaxes(0, 1)  # (6, 4, 4h): 거꾸로, 건너뛰며, 축을 바꾼 뷰
    assert not x.flags.c_contiguous
    params = {n: rng.standard_normal((4 * heads, 4 * heads)).T for n in PARAM_NAMES}
    out, w = run(lambda: attention.multi_head_attention(x, x, params, heads))
    ref_out, ref_w = reference_multi_head(np.ascontiguousarray(x), np.ascontiguousarray(x), params, heads)
    np.testing.assert_allclose(out, ref_out, **F64)
    q = base[:, ::2, ::3]
    out, w = run(lambda: attention.scaled_dot_product_attention(q, q, q))
    ref_out, _ = reference_attention(q, q, q)
    np.testing.assert_allclose(out, ref_out, **F64)


# ---------------------------------------------------------------- 인코더


@pytest.fixture(scope="module")
def model():
    from bert_numpy import load_model

    return load_model()


@pytest.mark.parametrize(
    "case", ["ok", "ok-2d", "negative", "vocab", "float", "bool", "rank0", "rank3", "empty", "ragged", "too-long"]
)
@settings(max_examples=6)  # 인코더 한 번이 수 ms 라서 경우마다 몇 개만
@given(n=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_encoder_ids(model, case, n, seed):
    from bert_numpy import encode

    rng = np.random.default_rng(seed)
    vocab = model.config["vocab_size"]
    ids = np.concatenate([[101], rng.integers(1000, vocab, n), [102]])
    if case == "negative":
        ids[rng.integers(len(ids))] = -rng.integers(1, 5)
        named_error(lambda: encode(model, ids), ValueError, "input_ids", f"최솟값 {ids.min()}")
    elif case == "vocab":
        ids[rng.integers(len(ids))] = vocab + rng.integers(0, 3)
        named_error(lambda: encode(model, ids), ValueError, "input_ids", f"최댓값 {ids.max()}", vocab)
    elif case in ("float", "bool"):
        bad = ids.astype(float) if case == "float" else ids > 500
        named_error(lambda: encode(model, bad), TypeError, "input_ids", bad.dtype)
    elif case in ("rank0", "rank3"):
        bad = ids[0] if case == "rank0" else ids[None, None]
        named_error(lambda: encode(model, bad), ValueError, f"input_ids.shape={np.shape(bad)}")
    elif case == "empty":
        bad = np.zeros((rng.integers(1, 3), 0), np.int64)
        named_error(lambda: encode(model, bad), ValueError, f"input_ids.shape={bad.shape}")
    elif case == "ragged":
        named_error(lambda: encode(model, [list(ids), list(ids[:-1])]), ValueError, "input_ids")
    elif case == "too-long":
        long_ids = rng.integers(1000, vocab, 513)
        named_error(lambda: encode(model, long_ids), ValueError, "input_ids.shape=(513,)", 512)
    else:
        hidden, weights = run(lambda: encode(model, ids if case == "ok" else ids[None]))
        ref_hidden, ref_weights = encode(model, np.stack([ids, ids]))  # 배치로 계산한 것의 한 줄
        np.testing.assert_allclose(hidden[0], ref_hidden[1], rtol=1e-5, atol=1e-5)
        assert hidden.shape == (1, len(ids), model.config["hidden_size"])


@pytest.mark.parametrize("case", ["1d-ok", "2d-ok", "bool", "float", "shape", "rank", "values", "no-token", "complex"])
@settings(max_examples=6)
@given(n=st.integers(1, 6), pad=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_encoder_attention_mask(model, case, n, pad, seed):
    from bert_numpy import encode

    rng = np.random.default_rng(seed)
    ids = np.concatenate([[101], rng.integers(1000, 20000, n), [102], np.zeros(pad, np.int64)])
    mask = (np.arange(len(ids)) < n + 2).astype(np.int64)  # 오른쪽 패딩
    if case == "shape":
        bad = np.ones(len(ids) + 1, np.int64)
        named_error(
            lambda: encode(model, ids, bad),
            ValueError,
            f"attention_mask.shape={bad.shape}",
            f"input_ids.shape={ids.shape}",
        )
    elif case == "rank":  # (n,) id 에 (1, n) 마스크, 또는 (1, n) id 에 (n,) 마스크
        if rng.random() < 0.5:
            named_error(lambda: encode(model, ids, mask[None]), ValueError, "attention_mask.shape=(1,")
        else:
            named_error(lambda: encode(model, ids[None], mask), ValueError, f"attention_mask.shape={mask.shape}")
    elif case == "values":
        bad = mask.copy()
        bad[0] = rng.choice([2, -1])
        named_error(lambda: encode(model, ids, bad), ValueError, "attention_mask", "1(진짜 토큰)과 0(패딩)")
    elif case == "no-token":
        batch = np.stack([ids, ids])
        masks = np.stack([mask, np.zeros_like(mask)])
        named_error(lambda: encode(model, batch, masks), ValueError, "attention_mask", "[1]")
    elif case == "complex":
        named_error(lambda: encode(model, ids, mask + 0j), TypeError, "attention_mask", "complex128")
    else:
        given_mask = {"1d-ok": mask, "2d-ok": mask, "bool": mask.astype(bool), "float": mask.astype(np.float32)}[case]
        call_ids = ids[None] if case == "2d-ok" else ids
        call_mask = given_mask[None] if case == "2d-ok" else given_mask
        hidden, _ = run(lambda: encode(model, call_ids, call_mask))
        alone, _ = encode(model, ids[: n + 2])  # 패딩을 떼고 따로 계산한 것이 참조입니다
        np.testing.assert_allclose(hidden[0, : n + 2], alone[0], rtol=1e-5, atol=1e-5)


def test_encoder_text_arguments(model):
    from bert_numpy import attention_maps, encode, sentence_embeddings, tokenize

    named_error(lambda: tokenize(model, 3), TypeError, "text", "int")
    named_error(lambda: tokenize(model, ["a"]), TypeError, "text", "list")
    named_error(lambda: attention_maps(None), TypeError, "text", "NoneType")
    named_error(lambda: sentence_embeddings("A cat."), TypeError, "texts", "str")
    named_error(lambda: sentence_embeddings(["A cat.", 3]), TypeError, "texts[1]", "int")
    named_error(lambda: encode("model", [101, 102]), TypeError, "model", "str")
    named_error(lambda: tokenize(None, "hi"), TypeError, "model", "NoneType")
    empty = sentence_embeddings([])
    assert empty.shape == (0, model.config["hidden_size"]) and empty.dtype == np.float32
    ids, tokens = tokenize(model, "")
    assert tokens == ["[CLS]", "[SEP]"] and ids.dtype == np.int64
    tokens, maps = attention_maps("")
    assert maps.shape == (6, 12, 2, 2)
    np.testing.assert_allclose(maps.sum(-1), 1.0, rtol=1e-5)
