"""snippets/chapters/efficient.py 의 공개 함수 (이슈 29, 5절): 잘못된 입력은 분명한 오류이고, 맞는 입력에서는 약속한 성질을 지킵니다.

잘못된 입력 (PROBES): 함수마다 이슈가 찾은 것과 그 밖의 경계를 한 줄씩 적었습니다. 어느 것이든 결과는 하나입니다:
정확히 ValueError 나 TypeError 이고 (numpy 의 날것 오류, ZeroDivisionError, IndexError 가 아님), 메시지에 문제인 인자의
이름과 그 모양·dtype·값이 들어 있습니다. 조용히 돌려준 값(음수 토큰으로 배열 끝을 읽기, 허수부 버리기, 글자 '8' 을 곱한
'8888…')은 실패입니다. 경고도 실패입니다 (tests/test_bad_inputs.py 의 named_error 를 그대로 씁니다).
outcome() 은 같은 목록을 예전 코드에 돌려 날것 오류와 조용한 결과를 세는 데도 씁니다 (보고서의 전후 숫자).

성질 (hypothesis): 코어의 tests/test_attention.py 처럼 무작위 입력에서 함수의 정의와 성질을 봅니다.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import multi_head_attention, scaled_dot_product_attention, split_heads
from test_bad_inputs import named_error


@pytest.fixture(scope="module")
def ef():
    import efficient

    return efficient


def small_model(ef):
    """빠른 검사용 장난감 디코더: 어휘 16, d_model 8, 헤드 2, 자리 12."""
    return ef.toy_decoder(vocab=16, d_model=8, heads=2, max_len=12, seed=0)


R = np.random.default_rng(0)
X2 = R.standard_normal((3, 4))
GQ, GK, GV = R.standard_normal((2, 4, 3, 8)), R.standard_normal((2, 2, 3, 8)), R.standard_normal((2, 2, 3, 5))
W48 = R.standard_normal((4, 8))
NAN_ROW = np.array([[np.nan, 1.0]])
INF_ROW = np.array([[np.inf, 1.0]])


def probes(ef):
    """(이름, 부르기, 오류의 종류, 메시지에 있어야 할 인자 이름, 그 밖에 있어야 할 글자들…)"""
    p = small_model(ef)
    other = ef.toy_decoder(vocab=16, d_model=12, heads=2, max_len=12, seed=0)
    ones12 = np.ones((1, 2))
    return [
        # rope: NaN/inf, 복소수, 글자, 0차원 positions, 문자열 base, None …
        ("rope x NaN", lambda: ef.rope(NAN_ROW, [0]), ValueError, "x", "x.shape=(1, 2)", "NaN"),
        ("rope x inf", lambda: ef.rope(INF_ROW, [0]), ValueError, "x", "x.shape=(1, 2)"),
        ("rope x 복소수", lambda: ef.rope(ones12 + 1j, [0]), TypeError, "x", "complex128"),
        ("rope x 글자", lambda: ef.rope(np.array([["a", "b"]]), [0]), TypeError, "x", "<U1"),
        ("rope x 홀수 폭", lambda: ef.rope(np.ones((1, 3)), [0]), ValueError, "x.shape=(1, 3)"),
        ("rope x 1차원", lambda: ef.rope(np.ones(4), [0]), ValueError, "x.shape=(4,)"),
        ("rope x None", lambda: ef.rope(None, [0]), TypeError, "x", "object"),
        ("rope x 길이가 다른 행", lambda: ef.rope([[1.0, 2.0], [3.0]], [0, 1]), ValueError, "x"),
        ("rope positions NaN", lambda: ef.rope(ones12, [np.nan]), ValueError, "positions", "positions.shape=(1,)"),
        ("rope positions inf", lambda: ef.rope(ones12, [np.inf]), ValueError, "positions", "NaN 이나 inf"),
        ("rope positions 0차원", lambda: ef.rope(ones12, 3), ValueError, "positions.shape=()"),
        ("rope positions 2차원", lambda: ef.rope(ones12, [[0]]), ValueError, "positions.shape=(1, 1)"),
        ("rope positions 길이", lambda: ef.rope(ones12, [0, 1]), ValueError, "positions.shape=(2,)", "x.shape=(1, 2)"),
        ("rope positions 복소수", lambda: ef.rope(ones12, [1j]), TypeError, "positions", "complex128"),
        ("rope positions 글자", lambda: ef.rope(ones12, ["0"]), TypeError, "positions", "<U1"),
        ("rope positions None", lambda: ef.rope(ones12, None), TypeError, "positions", "object"),
        ("rope base 0", lambda: ef.rope(ones12, [1], base=0), ValueError, "base=0"),
        ("rope base 음수", lambda: ef.rope(ones12, [1], base=-10000.0), ValueError, "base=-10000.0"),
        ("rope base NaN", lambda: ef.rope(ones12, [1], base=float("nan")), ValueError, "base=nan"),
        ("rope base inf", lambda: ef.rope(ones12, [1], base=float("inf")), ValueError, "base=inf"),
        ("rope base 글자", lambda: ef.rope(ones12, [1], base="10000"), TypeError, "base='10000'", "str"),
        ("rope base None", lambda: ef.rope(ones12, [1], base=None), TypeError, "base=None"),
        ("rope base True", lambda: ef.rope(ones12, [1], base=True), TypeError, "base=True"),
        ("rope base 복소수", lambda: ef.rope(ones12, [1], base=1j), TypeError, "base=1j"),
        # online_softmax: 복소수는 조용히 실수로, 글자·길이가 다른 목록은 numpy 의 날것 오류였습니다
        ("online x 복소수", lambda: ef.online_softmax(np.array([1 + 1j, 2.0]), 1), TypeError, "x", "complex128"),
        ("online x 글자", lambda: ef.online_softmax(["1", "2"], 1), TypeError, "x", "<U1"),
        ("online x 길이가 다른 행", lambda: ef.online_softmax([[1.0], [1.0, 2.0]], 1), ValueError, "x"),
        ("online x None", lambda: ef.online_softmax(None, 1), TypeError, "x", "object"),
        ("online x 2차원", lambda: ef.online_softmax(np.zeros((2, 3)), 2), ValueError, "x.shape=(2, 3)"),
        ("online x 빈 배열", lambda: ef.online_softmax([], 2), ValueError, "x.shape=(0,)"),
        ("online x NaN", lambda: ef.online_softmax([1.0, np.nan], 1), ValueError, "x", "x.shape=(2,)"),
        ("online x inf", lambda: ef.online_softmax([1.0, -np.inf], 1), ValueError, "x", "x.shape=(2,)"),
        ("online block 0", lambda: ef.online_softmax([1.0, 2.0], 0), ValueError, "block=0"),
        ("online block 음수", lambda: ef.online_softmax([1.0, 2.0], -2), ValueError, "block=-2"),
        ("online block 2.5", lambda: ef.online_softmax([1.0, 2.0], 2.5), TypeError, "block=2.5"),
        ("online block True", lambda: ef.online_softmax([1.0, 2.0], True), TypeError, "block=True"),
        ("online block 글자", lambda: ef.online_softmax([1.0, 2.0], "3"), TypeError, "block='3'"),
        ("online block None", lambda: ef.online_softmax([1.0, 2.0], None), TypeError, "block=None"),
        # grouped_query_attention: KV 헤드 0 은 ZeroDivisionError, 다른 실수에도 "배수여야" 메시지였습니다
        (
            "gqa KV 헤드 0",
            lambda: ef.grouped_query_attention(GQ, GK[:, :0], GV[:, :0]),
            ValueError,
            "k.shape=(2, 0, 3, 8)",
            "하나 이상",
        ),
        (
            "gqa k·v 헤드 수",
            lambda: ef.grouped_query_attention(GQ, GK, GV[:, :1]),
            ValueError,
            "k.shape=(2, 2, 3, 8)",
            "v.shape=(2, 1, 3, 5)",
            "다릅니다",
        ),
        ("gqa q 2차원", lambda: ef.grouped_query_attention(GQ[0, 0], GK, GV), ValueError, "q.shape=(3, 8)", "헤드 축"),
        ("gqa q None", lambda: ef.grouped_query_attention(None, GK, GV), TypeError, "q", "object"),
        (
            "gqa 배수 아님",
            lambda: ef.grouped_query_attention(GQ[:, :3], GK, GV),
            ValueError,
            "q.shape=(2, 3, 3, 8)",
            "k.shape=(2, 2, 3, 8)",
            "배수",
        ),
        ("gqa k 2차원", lambda: ef.grouped_query_attention(GQ, GK[0, 0], GV), ValueError, "k.shape=(3, 8)"),
        ("gqa v 2차원", lambda: ef.grouped_query_attention(GQ, GK, GV[0, 0]), ValueError, "v.shape=(3, 5)"),
        ("gqa q 복소수", lambda: ef.grouped_query_attention(GQ + 0j, GK, GV), TypeError, "q", "complex128"),
        ("gqa q NaN", lambda: ef.grouped_query_attention(np.where(GQ > 2, np.nan, GQ), GK, GV), ValueError, "q", "NaN"),
        (
            "gqa mask 모양",
            lambda: ef.grouped_query_attention(GQ, GK, GV, np.ones((3, 4), bool)),
            ValueError,
            "mask.shape=(3, 4)",
        ),
        (
            "gqa d_k 다름",
            lambda: ef.grouped_query_attention(GQ, GK[..., :7], GV),
            ValueError,
            "q.shape=(2, 4, 3, 8)",
            "k.shape=(2, 4, 3, 7)",
        ),
        (
            "gqa n_k 다름",
            lambda: ef.grouped_query_attention(GQ, GK, GV[:, :, :2]),
            ValueError,
            "k.shape=(2, 4, 3, 8)",
            "v.shape=(2, 4, 2, 5)",
        ),
        # attention_work, kv_bytes_per_token: 검사가 없었습니다 (kv_bytes_per_token('8') 은 '8888…')
        ("work n_q 음수", lambda: ef.attention_work(-1, 8, 4), ValueError, "n_q=-1"),
        ("work n_q 2.5", lambda: ef.attention_work(2.5, 8, 4), TypeError, "n_q=2.5"),
        ("work n_k 글자", lambda: ef.attention_work(8, "8", 4), TypeError, "n_k='8'"),
        ("work d 0", lambda: ef.attention_work(8, 8, 0), ValueError, "d=0"),
        ("work block 0", lambda: ef.attention_work(8, 8, 4, block=0), ValueError, "block=0"),
        ("work block 음수", lambda: ef.attention_work(8, 8, 4, block=-1), ValueError, "block=-1"),
        ("work block 2.0", lambda: ef.attention_work(8, 8, 4, block=2.0), TypeError, "block=2.0"),
        ("work n_k None", lambda: ef.attention_work(8, None, 4), TypeError, "n_k=None"),
        ("work d True", lambda: ef.attention_work(8, 8, True), TypeError, "d=True"),
        ("kv bytes 글자", lambda: ef.kv_bytes_per_token("8"), TypeError, "kv_heads='8'"),
        ("kv bytes 0", lambda: ef.kv_bytes_per_token(0), ValueError, "kv_heads=0"),
        ("kv bytes 음수", lambda: ef.kv_bytes_per_token(-1), ValueError, "kv_heads=-1"),
        ("kv bytes 2.5", lambda: ef.kv_bytes_per_token(2.5), TypeError, "kv_heads=2.5"),
        ("kv bytes d_head 0", lambda: ef.kv_bytes_per_token(8, d_head=0), ValueError, "d_head=0"),
        ("kv bytes 바이트 0", lambda: ef.kv_bytes_per_token(8, bytes_per_number=0), ValueError, "bytes_per_number=0"),
        ("kv bytes None", lambda: ef.kv_bytes_per_token(None), TypeError, "kv_heads=None"),
        ("kv bytes True", lambda: ef.kv_bytes_per_token(True), TypeError, "kv_heads=True"),
        # copy_heads(W, 2, 5) 는 조용히 틀린 모양이었습니다
        ("copy heads 5/2", lambda: ef.copy_heads(W48, 2, 5), ValueError, "heads=5", "kv_heads=2"),
        ("copy kv_heads 0", lambda: ef.copy_heads(W48, 0, 4), ValueError, "kv_heads=0"),
        ("copy heads 0", lambda: ef.copy_heads(W48, 2, 0), ValueError, "heads=0"),
        ("copy W 1차원", lambda: ef.copy_heads(W48[0], 2, 4), ValueError, "W.shape=(8,)"),
        ("copy W 열", lambda: ef.copy_heads(W48[:, :7], 2, 4), ValueError, "W.shape=(4, 7)", "kv_heads=2"),
        ("copy W 복소수", lambda: ef.copy_heads(W48 + 0j, 2, 4), TypeError, "W", "complex128"),
        ("copy heads < kv_heads", lambda: ef.copy_heads(W48, 2, 1), ValueError, "heads=1", "kv_heads=2"),
        ("copy kv_heads 2.0", lambda: ef.copy_heads(W48, 2.0, 4), TypeError, "kv_heads=2.0"),
        ("copy W None", lambda: ef.copy_heads(None, 2, 4), TypeError, "W", "object"),
        ("copy W NaN", lambda: ef.copy_heads(np.where(W48 > 1, np.nan, W48), 2, 4), ValueError, "W", "W.shape=(4, 8)"),
        # 장난감 디코더: 날것 IndexError, 토큰 −1 과 자리 −1 이 조용히 끝에서 셌습니다
        ("decoder d_model/heads", lambda: ef.toy_decoder(d_model=10, heads=4), ValueError, "d_model=10", "heads=4"),
        ("decoder vocab 0", lambda: ef.toy_decoder(vocab=0), ValueError, "vocab=0"),
        ("decoder heads 0", lambda: ef.toy_decoder(heads=0), ValueError, "heads=0"),
        ("decoder max_len 0", lambda: ef.toy_decoder(max_len=0), ValueError, "max_len=0"),
        ("decoder d_model 2.5", lambda: ef.toy_decoder(d_model=2.5), TypeError, "d_model=2.5"),
        ("decoder seed 글자", lambda: ef.toy_decoder(seed="a"), TypeError, "seed='a'"),
        ("decoder vocab 음수", lambda: ef.toy_decoder(vocab=-1), ValueError, "vocab=-1"),
        ("decoder seed 음수", lambda: ef.toy_decoder(seed=-1), ValueError, "seed=-1"),
        ("no cache 빈 토큰", lambda: ef.next_logits_without_cache(p, []), ValueError, "tokens.shape=(0,)"),
        ("no cache 토큰 -1", lambda: ef.next_logits_without_cache(p, [3, -1]), ValueError, "tokens", "최솟값 -1"),
        ("no cache 토큰 = vocab", lambda: ef.next_logits_without_cache(p, [16]), ValueError, "tokens", "vocab=16"),
        ("no cache 너무 김", lambda: ef.next_logits_without_cache(p, [1] * 13), ValueError, "tokens", "max_len=12"),
        ("no cache 토큰 1.5", lambda: ef.next_logits_without_cache(p, [1.5]), TypeError, "tokens", "float64"),
        ("no cache p 글자", lambda: ef.next_logits_without_cache("model", [1]), TypeError, "p", "str"),
        ("no cache 2차원", lambda: ef.next_logits_without_cache(p, [[1, 2]]), ValueError, "tokens.shape=(1, 2)"),
        ("no cache 불리언", lambda: ef.next_logits_without_cache(p, [True]), TypeError, "tokens", "bool"),
        ("cache 토큰 -1", lambda: ef.next_logits_with_cache(p, -1, 0, ef.empty_cache(p)), ValueError, "token=-1"),
        (
            "cache 토큰 = vocab",
            lambda: ef.next_logits_with_cache(p, 16, 0, ef.empty_cache(p)),
            ValueError,
            "token=16",
            "vocab=16",
        ),
        ("cache 자리 -1", lambda: ef.next_logits_with_cache(p, 1, -1, ef.empty_cache(p)), ValueError, "pos=-1"),
        (
            "cache 자리 = max_len",
            lambda: ef.next_logits_with_cache(p, 1, 12, ef.empty_cache(p)),
            ValueError,
            "pos=12",
            "max_len=12",
        ),
        ("cache 토큰 2.5", lambda: ef.next_logits_with_cache(p, 2.5, 0, ef.empty_cache(p)), TypeError, "token=2.5"),
        (
            "cache 다른 모델",
            lambda: ef.next_logits_with_cache(p, 1, 0, ef.empty_cache(other)),
            ValueError,
            "cache",
            "(2, 12, 6)",
            "(2, 12, 4)",
        ),
        (
            "cache 빈 자리 건너뜀",
            lambda: ef.next_logits_with_cache(p, 1, 3, ef.empty_cache(p)),
            ValueError,
            "pos=3",
            "비어",
        ),
        ("cache None", lambda: ef.next_logits_with_cache(p, 1, 0, None), TypeError, "cache", "NoneType"),
        ("cache 자리 True", lambda: ef.next_logits_with_cache(p, 1, True, ef.empty_cache(p)), TypeError, "pos=True"),
        ("empty_cache None", lambda: ef.empty_cache(None), TypeError, "p", "NoneType"),
        ("prefill 토큰 -1", lambda: ef.prefill(p, [-1]), ValueError, "tokens", "최솟값 -1"),
        ("prefill 너무 김", lambda: ef.prefill(p, [1] * 13), ValueError, "tokens", "max_len=12"),
        ("generate 빈 프롬프트", lambda: ef.generate(p, [], 3, True), ValueError, "prompt.shape=(0,)"),
        ("generate steps 0", lambda: ef.generate(p, [1], 0, True), ValueError, "steps=0"),
        ("generate steps 음수", lambda: ef.generate(p, [1], -1, False), ValueError, "steps=-1"),
        ("generate use_cache 글자", lambda: ef.generate(p, [1], 3, "yes"), TypeError, "use_cache='yes'"),
        ("generate 토큰 -1", lambda: ef.generate(p, [-1], 3, True), ValueError, "prompt", "최솟값 -1"),
        ("generate 너무 김", lambda: ef.generate(p, [1, 2, 3], 10, False), ValueError, "steps=10", "max_len=12"),
        ("generate steps 2.5", lambda: ef.generate(p, [1], 2.5, True), TypeError, "steps=2.5"),
        # 타일 어텐션과 창 (이미 깨끗했던 것들도 목록에 둡니다)
        ("tiled block 0", lambda: ef.tiled_attention(X2, X2, X2, block=0), ValueError, "block=0"),
        ("tiled q 복소수", lambda: ef.tiled_attention(X2 + 0j, X2, X2), TypeError, "q", "complex128"),
        ("window 0", lambda: ef.sliding_window_mask(5, 0), ValueError, "window=0"),
        ("window sinks 음수", lambda: ef.sliding_window_mask(5, 2, -1), ValueError, "sinks=-1"),
        ("window n 음수", lambda: ef.sliding_window_mask(-1, 2), ValueError, "n=-1"),
        ("window n 2.5", lambda: ef.sliding_window_mask(2.5, 2), TypeError, "n=2.5"),
        # 페이지의 측정 도우미와 그림의 도우미
        ("random_qkv n 음수", lambda: ef.random_qkv(-1), ValueError, "n=-1"),
        ("random_qkv d 0", lambda: ef.random_qkv(4, d=0), ValueError, "d=0"),
        ("random_qkv 정수 dtype", lambda: ef.random_qkv(4, dtype=np.int64), TypeError, "dtype", "int64"),
        ("random_qkv 모르는 dtype", lambda: ef.random_qkv(4, dtype="abc"), TypeError, "dtype='abc'"),
        ("peak_bytes fn", lambda: ef.peak_bytes(3), TypeError, "fn=3", "int"),
        ("work_per_token t 0", lambda: ef.work_per_token(0), ValueError, "t=0"),
        ("work_per_token t 2.5", lambda: ef.work_per_token(2.5), TypeError, "t=2.5"),
    ]


PROBE_COUNT = 125


def outcome(call, exc, name, *details):
    """예전 코드와 견줄 때 쓰는 분류: "clear" (named_error 가 통과할 오류), "raw" (다른 오류나 경고, 또는 이름·값이 빠진
    메시지), "silent" (오류 없이 돌려준 값)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call()
    except (ValueError, TypeError) as err:
        msg = str(err)
        ok = type(err) is exc and name in msg and all(str(d) in msg for d in details)
        return "clear" if ok else "raw"
    except Exception:
        return "raw"
    return "silent"


def test_the_probe_list_is_the_reviewed_one(ef):
    cases = probes(ef)
    assert len(cases) == PROBE_COUNT and len({c[0] for c in cases}) == PROBE_COUNT


@pytest.mark.parametrize("index", range(PROBE_COUNT))
def test_every_bad_input_gets_a_named_error(ef, index):
    label, call, exc, name, *details = probes(ef)[index]
    named_error(call, exc, name, *details)


def test_a_good_call_still_works_after_the_checks(ef):
    """검사는 맞는 입력을 바꾸지 않습니다: 정수·float32 입력도 예전처럼 계산합니다."""
    p = small_model(ef)
    logits, entries = ef.next_logits_without_cache(p, np.array([1, 2, 3], dtype=np.int32))
    assert logits.shape == (16,) and entries == 2 * 9
    assert ef.kv_bytes_per_token(np.int64(8)) == 4096 and ef.attention_work(np.int32(4), 4, 2)["조각"] == 1
    np.testing.assert_array_equal(ef.rope(np.ones((1, 2), np.float32), np.array([0], np.int64)), [[1.0, 1.0]])
    assert ef.copy_heads(np.ones((4, 8), np.int64), 2, 4).shape == (4, 16)


# ---------------------------------------------------------------- 타일 어텐션: 아주 큰 밸류


def test_tiled_attention_with_huge_values_equals_the_core(ef):
    """이슈 29: v = 1e306, 키 1,000개에서 나누기 전의 가중합(최대 |v| 의 1,000배)이 넘쳐 타일 어텐션만 오류였습니다.
    코어는 맞는 답(1e306)을 냅니다. 이제 타일 어텐션도 같은 답입니다."""
    r = np.random.default_rng(0)
    q, k = r.standard_normal((5, 8)), r.standard_normal((1000, 8))
    v = np.full((1000, 3), 1e306)
    want, _ = scaled_dot_product_attention(q, k, v)
    got = named_ok(lambda: ef.tiled_attention(q, k, v))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(got, 1e306, rtol=1e-12)


def named_ok(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


@settings(max_examples=60)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 300),
    st.integers(1, 64),
    st.sampled_from([np.float64, np.float32]),
    st.floats(0.0, 1.0),
)
def test_tiled_attention_with_values_near_the_dtype_limit(ef, seed, n_k, block, dtype, how_big):
    """밸류가 dtype 의 최댓값 가까이까지 커도 코어와 같은 답입니다 (float64 1e-12, float32 1e-5, |v| 의 최댓값에 견줘)."""
    r = np.random.default_rng(seed)
    top = float(np.finfo(dtype).max)
    q, k = r.standard_normal((4, 6)).astype(dtype), r.standard_normal((n_k, 6)).astype(dtype)
    v = (r.uniform(-1, 1, (n_k, 3)) * top * (0.5 * how_big + 1e-30)).astype(dtype)
    want, _ = named_ok(lambda: scaled_dot_product_attention(q, k, v))
    got = named_ok(lambda: ef.tiled_attention(q, k, v, block=block))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * float(np.abs(v).max()))


# ---------------------------------------------------------------- 성질 (hypothesis)


@given(
    st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 6), st.integers(-3000, 3000), st.integers(-3000, 3000)
)
def test_rope_rotations_compose_and_are_linear(ef, seed, half, n, m1, m2):
    """회전 두 번은 각도를 더한 회전 하나이고 (rope(rope(x, m1), m2) = rope(x, m1 + m2)), 회전은 선형입니다."""
    r = np.random.default_rng(seed)
    x, y = r.standard_normal((2, n, 2 * half))
    pos1, pos2 = np.full(n, m1), np.arange(n) + m2
    np.testing.assert_allclose(ef.rope(ef.rope(x, pos1), pos2), ef.rope(x, pos1 + pos2), atol=1e-9)
    np.testing.assert_allclose(ef.rope(2 * x - 3 * y, pos2), 2 * ef.rope(x, pos2) - 3 * ef.rope(y, pos2), atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(ef.rope(x, pos2), axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)


@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(0, 2000), st.integers(0, 2000), st.floats(1.5, 1e5))
def test_rope_score_depends_on_q_k_and_the_offset_only(ef, seed, half, offset, shift, base):
    """점수 q·k 는 q, k 와 오프셋에만 달려 있습니다: 둘을 함께 옮겨도 같고 (어떤 base 에서나), 오프셋 0 이면 회전 전의 q·k 입니다."""
    r = np.random.default_rng(seed)
    q, k = r.standard_normal((2, 1, 2 * half))
    moved = (ef.rope(q, [shift + offset], base) @ ef.rope(k, [shift], base).T).item()
    still = (ef.rope(q, [offset], base) @ k.T).item()
    assert moved == pytest.approx(still, abs=1e-9)
    assert (ef.rope(q, [shift], base) @ ef.rope(k, [shift], base).T).item() == pytest.approx((q @ k.T).item(), abs=1e-9)


@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.integers(1, 50), st.floats(-50, 50))
def test_online_softmax_ends_with_the_row_max_and_its_sum(ef, seed, n, block, shift):
    """다 읽은 뒤의 (m, l) 은 행의 최댓값과 그 기준의 지수 합이고, 점수에 같은 수를 더해도 가중치는 그대로입니다."""
    x = np.random.default_rng(seed).standard_normal(n) * 4
    p, steps = ef.online_softmax(x, block)
    m, l = steps[-1]
    assert m == x.max() and l == pytest.approx(np.exp(x - x.max()).sum(), rel=1e-12)
    assert all(b[0] >= a[0] for a, b in zip(steps, steps[1:]))  # m 은 줄지 않습니다
    np.testing.assert_allclose(ef.online_softmax(x + shift, block)[0], p, rtol=1e-10, atol=1e-15)


@given(st.integers(0, 500), st.integers(0, 500), st.integers(1, 256), st.one_of(st.none(), st.integers(1, 600)))
def test_attention_work_counts(ef, n_q, n_k, d, block):
    """행렬 곱의 FLOP 은 블록과 상관없이 2·2·n_q·n_k·d 이고, 타일은 키 블록마다 행 하나에 (d + 1) 번 고치며,
    조각 수는 두 블록 수의 곱입니다. 블록이 길이보다 크면 조각은 하나입니다."""
    work = ef.attention_work(n_q, n_k, d, block)
    assert work["행렬 곱"] == 4 * n_q * n_k * d == ef.attention_work(n_q, n_k, d)["행렬 곱"]
    if block is None:
        assert work["고치기"] == 0 and work["조각"] == 1
        return
    key_blocks, query_blocks = -(-n_k // block), -(-n_q // block)
    assert work["고치기"] == n_q * key_blocks * (d + 1) and work["조각"] == query_blocks * key_blocks
    if block >= max(n_q, n_k) and n_q and n_k:
        assert work["조각"] == 1


@given(st.integers(1, 64), st.integers(1, 256), st.sampled_from([1, 2, 4, 8]))
def test_kv_bytes_is_linear_in_each_size(ef, kv_heads, d_head, size):
    got = ef.kv_bytes_per_token(kv_heads, d_head, size)
    assert got == 2 * kv_heads * d_head * size
    assert ef.kv_bytes_per_token(2 * kv_heads, d_head, size) == 2 * got


@given(
    st.sampled_from([(1, 1), (1, 4), (2, 4), (2, 8), (3, 6), (4, 4)]),
    st.integers(1, 4),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
)
def test_copied_heads_make_gqa_a_multi_head_attention(ef, heads, d_head, n, seed):
    """copy_heads 로 K·V 열 묶음을 그룹 크기만큼 복사한 멀티헤드 = GQA (그룹 g, 쿼리 헤드 h)."""
    g, h = heads
    r = np.random.default_rng(seed)
    d_model = h * d_head
    X = r.standard_normal((n, d_model))
    W_Q, W_O = r.standard_normal((2, d_model, d_model)) / np.sqrt(d_model)
    W_K, W_V = r.standard_normal((2, d_model, g * d_head)) / np.sqrt(d_model)
    copied = ef.copy_heads(W_K, g, h)
    assert copied.shape == (d_model, d_model)
    for head in range(h):  # 쿼리 헤드 head 의 열 묶음 = K·V 헤드 head // (h // g) 의 열 묶음
        group = head // (h // g)
        np.testing.assert_array_equal(
            copied[:, head * d_head : (head + 1) * d_head], W_K[:, group * d_head : (group + 1) * d_head]
        )
    mha, _ = multi_head_attention(X, X, {"W_Q": W_Q, "W_K": copied, "W_V": ef.copy_heads(W_V, g, h), "W_O": W_O}, h)
    out, _ = ef.grouped_query_attention(split_heads(X @ W_Q, h), split_heads(X @ W_K, g), split_heads(X @ W_V, g))
    np.testing.assert_allclose(mha, (np.swapaxes(out, -3, -2).reshape(n, d_model)) @ W_O, rtol=1e-10, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.lists(st.integers(0, 15), min_size=1, max_size=5),
    st.integers(1, 6),
    st.sampled_from([(8, 2), (8, 4), (12, 3)]),
)
def test_the_cache_gives_the_same_tokens_for_any_small_decoder(ef, seed, prompt, steps, sizes):
    """KV 캐시가 있든 없든 같은 토큰과 (반올림 안에서) 같은 로짓: 어떤 모델·프롬프트·길이에서나.
    점수 칸 수는 캐시 없이 Σ h·t², 캐시로 Σ h·t 입니다."""
    d_model, heads = sizes
    p = ef.toy_decoder(vocab=16, d_model=d_model, heads=heads, max_len=12, seed=seed % 1000)
    plain = ef.generate(p, prompt, steps, use_cache=False)
    cached = ef.generate(p, prompt, steps, use_cache=True)
    assert plain[0] == cached[0] and len(plain[0]) == len(prompt) + steps
    np.testing.assert_allclose(plain[1], cached[1], rtol=1e-10, atol=1e-10)
    lengths = range(len(prompt), len(prompt) + steps)
    assert plain[2] == heads * sum(t * t for t in lengths)
    assert cached[2] == heads * sum(range(1, len(prompt) + steps))


@given(st.lists(st.integers(0, 15), min_size=0, max_size=12))
def test_prefill_fills_exactly_the_prompt(ef, tokens):
    """prefill 은 토큰 수만큼 채우고 (length), 그 뒤 자리는 0 으로 둡니다. 다음 걸음은 바로 그 자리에서만 이어 갈 수 있습니다."""
    p = small_model(ef)
    cache = ef.prefill(p, tokens)
    assert cache["length"] == len(tokens)
    assert not cache["K"][:, len(tokens) :].any() and not cache["V"][:, len(tokens) :].any()
    if len(tokens) < 12:
        ef.next_logits_with_cache(p, 1, len(tokens), cache)
        assert cache["length"] == len(tokens) + 1
