"""snippets/chapters/journey.py: 2장의 "실제 모델에서 쿼리 하나 따라가기" 의 데이터가 모델의 값 그대로이고, 2차원 그림이 페이지가
말하는 것(그림자 = q·k/|q|, 이어 붙인 밸류의 끝 = o)을 지키고, 글이 말하는 사실이 맞습니다.

화면의 숫자가 numpy 와 같다는 것은 tests/test_journey_browser.py 가 봅니다.
"""

import json
import re

import numpy as np
import pytest

# 글의 {이름} 자리: docs/assets/journey.js 의 values() 가 채우는 이름들 (브라우저 테스트가 모든 자리가 채워졌는지 봅니다)
NAMES = set(
    "model n layer head layers heads d_k sentence focus shadow q_len score sqrt_d top second gap ratio w_sum".split()
)
NAMES |= {"o_len", "top_part", "other", "differ", "times", "weight", "part"}
# "이 헤드를 고른 까닭" 을 이 문장 밖에서 보는 문장들: "에" 가 조각 하나로 떨어지는 문장 (이 파일에서 처음 고른 것,
# 페이지의 문장과 겹치지 않습니다)
HELD_OUT = [
    "우리는 공원에 간다",
    "책이 가방에 있다",
    "기차가 역에 도착했다",
    "그는 회사에 다닌다",
    "나는 도서관에 갔다",
    "새가 나무에 앉았다",
    "동생은 학교에 있다",
    "꽃이 창가에 피었다",
    "엄마는 시장에 가셨다",
]


@pytest.fixture(scope="module")
def jr():
    import journey

    return journey


@pytest.fixture(scope="module")
def data(jr):
    # 빌드가 쓰는 것처럼 JSON 으로 한 번 오갑니다
    return json.loads(json.dumps(jr.data_e5(), ensure_ascii=False, allow_nan=False))


def f64(values):
    """JSON 의 float32 글자 → float32 값 그대로의 float64 (브라우저의 Math.fround 와 같은 되읽기)."""
    return np.asarray(values, dtype=np.float64).astype(np.float32).astype(np.float64)


def test_vectors_are_the_models_q_k_v(jr, data):
    """q, k 는 인코더가 돌려주는 그 층·헤드의 q, k 이고 (encode(return_qk=True)), v 는 인코더가 쓰는 W_V, b_V 로 같은 입력에서
    만든 것입니다. 가중치는 인코더가 그 층에서 계산한 가중치와 같습니다.

    float32 행렬 곱은 모양에 따라 BLAS 가 다른 차례로 더해 마지막 비트가 다를 수 있어(test_head_explorer 의 설명), 비트가 아니라
    float32 의 반올림 폭으로 견줍니다."""
    from attention import split_heads
    from bert_numpy import _attention_params, embed, encode, run_layers, tokenize
    from e5_numpy import PREFIX, load_e5

    model = load_e5()
    ids, tokens = tokenize(model, PREFIX + data["sentence"])
    assert data["tokens"] == tokens and tokens[data["query"]] == "에"
    layer, head = data["layer"] - 1, data["head"] - 1
    _, weights, qk = encode(model, ids, return_qk=True)
    q, k = (a[0, head] for a in qk[layer])
    np.testing.assert_allclose(f64(data["q"]), q[data["query"]], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(f64(data["k"]), k, rtol=1e-5, atol=1e-5)
    params = _attention_params(model.weights, layer)
    x = run_layers(model, embed(model, ids), 0, stop=layer)[0]
    v = split_heads(x @ params["W_V"] + params["b_V"], model.config["num_attention_heads"])[0, head]
    np.testing.assert_allclose(f64(data["v"]), v, rtol=1e-5, atol=1e-5)
    from attention import scaled_dot_product_attention

    _, w = scaled_dot_product_attention(f64(data["q"])[None], f64(data["k"]), f64(data["v"]))
    np.testing.assert_allclose(w[0], weights[layer][0, head, data["query"]], atol=1e-6)
    assert (data["d_k"], data["layers"], data["heads"]) == (32, 12, 12)


def test_json_numbers_read_back_as_the_same_float32(jr, data):
    """JSON 의 짧은 글자를 float32 로 되읽으면(브라우저의 Math.fround) 스니펫의 float32 값과 비트까지 같습니다."""
    for name, want in (("q", jr.real_q), ("k", jr.real_K), ("v", jr.real_V)):
        got = np.asarray(data[name], dtype=np.float64).astype(np.float32)
        assert got.dtype == want.dtype and np.array_equal(got.view(np.uint32), want.view(np.uint32)), name
    size = len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    assert size < 20_000, f"데이터가 {size:,} 바이트입니다"


def test_the_plane_keeps_what_the_page_says(data):
    """키 그림: 첫 축은 q 의 방향 그대로라 그림자(첫 좌표)가 참값 q·k/|q| 이고, 둘째 축은 q 에 수직인 나머지가 가장 넓게
    퍼지는 방향입니다. 밸류 그림: 첫 축이 o 의 방향이고, 가중치만큼 줄여 이어 붙인 밸류의 끝이 정확히 (|o|, 0) 입니다.
    지키지 않는 것: 길이 (길이의 제곱 가운데 2차원에 남는 몫이 절반도 안 되는 벡터가 있습니다)."""
    from attention import scaled_dot_product_attention

    q, K, V = f64(data["q"]), f64(data["k"]), f64(data["v"])
    out, w = scaled_dot_product_attention(q[None], K, V)
    for axes, along, vectors in ((data["key_axes"], q, K), (data["value_axes"], out[0], V)):
        A = np.asarray(axes)
        np.testing.assert_allclose(A @ A.T, np.eye(2), atol=1e-12)
        np.testing.assert_allclose(A[0], along / np.linalg.norm(along), atol=1e-12)
        # 둘째 축: q(o) 에 수직으로 내린 나머지의 공분산에서 가장 큰 고유벡터 (numpy 의 eigh 로 따로 계산)
        rest = vectors - np.outer(vectors @ A[0], A[0])
        values, vecs = np.linalg.eigh(np.cov(rest.T, bias=True))
        assert abs(vecs[:, -1] @ A[1]) == pytest.approx(1.0, abs=1e-9)
        assert values[-1] > 1.5 * values[-2], "가장 넓게 퍼지는 방향이 하나로 정해지지 않습니다"
        assert (vectors @ A[1]).mean() > 0
        kept = ((vectors @ A.T) ** 2).sum(axis=1) / (vectors**2).sum(axis=1)
        assert kept.min() < 0.5, "2차원에 길이가 거의 다 남는다면 '길이는 지키지 않는다' 는 글이 지나칩니다"
    scores = K @ q
    shadow = K @ np.asarray(data["key_axes"])[0]
    np.testing.assert_allclose(np.linalg.norm(q) * shadow, scores, rtol=1e-13)
    end = w[0] @ (V @ np.asarray(data["value_axes"]).T)
    np.testing.assert_allclose(end, [np.linalg.norm(out), 0.0], atol=1e-12)


def test_what_the_text_says_about_this_query(data):
    """글(그림의 단계 글과 페이지의 접힌 글)이 말하는 것: "에" 는 "▁학교" 에 가장 큰 가중치(과반)를 주고, 둘째는 "에" 자신이며
    열 배쯤 차이 납니다. 점수는 모두 양수이고, 출력 o 의 대부분이 "▁학교" 에서 옵니다."""
    from attention import scaled_dot_product_attention

    q, K, V = f64(data["q"]), f64(data["k"]), f64(data["v"])
    out, w = scaled_dot_product_attention(q[None], K, V)
    order = np.argsort(-w[0])
    tokens = data["tokens"]
    assert tokens[order[0]] == "▁학교" and w[0, order[0]] > 0.5
    assert order[1] == data["query"]
    assert 9 < w[0, order[0]] / w[0, order[1]] < 11
    assert (K @ q > 0).all()
    part = w[0] * (V @ (out[0] / np.linalg.norm(out)))
    assert part.argmax() == order[0] and part[order[0]] > 0.9 * np.linalg.norm(out)


def test_the_head_looks_from_the_particle_to_its_word_in_other_sentences(data):
    """이 헤드를 고른 까닭(조사에 반응하는 헤드)이 이 문장만의 우연이 아닌지: 따로 고른 문장들에서도 "에" 가 붙은 어절의
    앞 조각을 가장 많이 봅니다. 9문장 가운데 8문장 이상 (한 빌드에서 9문장 모두)."""
    from bert_numpy import encode, tokenize
    from e5_numpy import PREFIX, load_e5

    model = load_e5()
    layer, head = data["layer"] - 1, data["head"] - 1
    hits = []
    for text in HELD_OUT:
        assert data["sentence"] != text
        ids, tokens = tokenize(model, PREFIX + text)
        assert tokens.count("에") == 1, (text, tokens)
        at = tokens.index("에")
        start = max(i for i in range(at) if tokens[i].startswith("▁"))  # "에" 가 붙은 어절의 첫 조각
        row = encode(model, ids)[1][layer][0, head, at]
        hits.append(start <= int(row.argmax()) < at)
    assert sum(hits) >= 8, dict(zip(HELD_OUT, hits))


def test_texts_hold_no_typed_numbers(data):
    """그림의 글에는 숫자를 적지 않고 {이름} 자리로 둡니다: 값은 브라우저가 데이터에서 계산하고, 브라우저 테스트가 numpy 와
    견줍니다. 자리 이름은 journey.js 가 채우는 이름이어야 합니다."""
    texts = [s["title"] for s in data["stages"]] + [s["text"] for s in data["stages"]] + list(data["text"].values())
    assert len(data["stages"]) == 5
    for text in texts:
        plain = re.sub(r"\{[a-z_]+\}", "", text)
        assert not re.search(r"[0-9]", plain), text
        assert "{" not in plain and "}" not in plain, text
        assert set(re.findall(r"\{([a-z_]+)\}", text)) <= NAMES, text
