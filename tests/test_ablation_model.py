"""헤드 끄기를 multilingual-e5-small 에서, 그리고 브라우저 워커가 나중에 견줄 데이터(head_ablation.data_reference).

한국어 모델을 읽고 문장마다 여러 번 계산하므로 make check 에서는 빼고(model 표시), make test 와 CI 가 돌립니다.
"""

import json

import numpy as np
import pytest

from browser import floats

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def e5():
    from e5_numpy import load_e5

    return load_e5()


@pytest.fixture(scope="module")
def reference():
    import head_ablation

    return head_ablation.data_reference()


@pytest.mark.parametrize("heads, layers", [([(6, 10)], []), ([(0, 2), (1, 7)], []), ([], [11])])
def test_switching_off_in_e5_equals_zeroed_W_O_rows(e5, heads, layers):
    from bert_numpy import Encoder, encode, switch_off, tokenize
    from e5_numpy import PREFIX

    ids, _ = tokenize(e5, PREFIX + "고양이가 매트 위에 앉았다")
    weights = dict(e5.weights)
    d = 384 // 12
    for layer, head in heads + [(layer, h) for layer in layers for h in range(12)]:
        name = f"encoder.layer.{layer}.attention.output.dense.weight"
        if weights[name] is e5.weights[name]:
            weights[name] = weights[name].copy()
        weights[name][:, head * d : (head + 1) * d] = 0
    want, _ = encode(Encoder(weights, e5.config, e5.tokenizer), ids)
    got, _ = encode(e5, ids, heads_off=switch_off(e5, heads=heads, layers=layers))
    assert np.abs(got - want).max() <= 1e-5


def test_reference_data_format_and_size(reference):
    text = json.dumps(reference, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    assert len(text.encode()) < 100_000  # 브라우저 테스트가 받는 작은 파일
    assert reference["format"] == "head-ablation-reference/1" and reference["prefix"] == "query: "
    assert set(reference["ablations"]) == {"zero", "uniform"}
    from head_explorer import E5_SENTENCES

    assert [s["text"] for s in reference["sentences"]] == E5_SENTENCES
    for sentence in reference["sentences"]:
        assert len(sentence["runs"]) == 5 and len(sentence["particles"]) == len(sentence["particles_before"])
        base = floats(sentence["embedding"]).astype(np.float64)
        assert base.shape == (384,) and abs(np.linalg.norm(base) - 1) < 1e-6
        for run in sentence["runs"]:
            vec = floats(run["embedding"]).astype(np.float64)
            assert run["one_minus_cos"] == pytest.approx(1 - base @ vec, abs=1e-6)
            moved = run["moved"]
            assert len(moved) == 12 and all(len(row) == 12 for row in moved)
            off = {(int(h.split("-")[0]) - 1, int(h.split("-")[1]) - 1) for h in run["heads"]}
            off |= {(layer - 1, h) for layer in run["layers"] for h in range(12)}
            first = min(layer for layer, _ in off)
            for layer in range(12):
                for h in range(12):
                    v = moved[layer][h]
                    if (layer, h) in off:
                        assert v is None
                    elif layer < first:  # 앞 층은 끄지 않은 계산과 같은 길로 돕니다
                        assert v == 0
                    elif layer == first:  # 끈 층의 다른 헤드는 입력이 그대로 (가린 헤드가 섞인 소프트맥스도 같은 값)
                        assert v <= 1e-4
                    else:
                        assert v is not None and 0 <= v <= 1
    worth = reference["worth"]
    assert set(worth) == {"all-MiniLM-L6-v2", "multilingual-e5-small"}
    assert np.array(worth["multilingual-e5-small"]["embedding"]).shape == (12, 13)
    assert np.array(worth["all-MiniLM-L6-v2"]["attention"]).shape == (6, 13)


def test_reference_values_are_what_encode_gives(reference, e5):
    """데이터의 값을 encode(heads_off=…) 로 다시 계산해 견줍니다: 나중의 브라우저 테스트가 믿고 쓸 수 있게."""
    from ablation import pooled
    from bert_numpy import encode, switch_off, tokenize
    from e5_numpy import PREFIX
    from head_stats import js_distance
    from particles import HEAD

    sentence = reference["sentences"][0]
    ids, tokens = tokenize(e5, PREFIX + sentence["text"])
    assert sentence["ids"] == ids.tolist() and sentence["tokens"] == tokens
    hidden, weights = encode(e5, ids)
    by_name = {(tuple(r["heads"]), tuple(r["layers"]), r["ablation"]): r for r in sentence["runs"]}
    run = by_name[(("2-8",), (), "uniform")]
    h, w = encode(e5, ids, heads_off=switch_off(e5, heads=[(1, 7)]), ablation="uniform")
    vec = pooled(h, np.ones((1, len(ids))))[0]
    assert np.abs(floats(run["embedding"]) - vec).max() <= 1e-6
    assert run["moved"][5][3] == pytest.approx(js_distance(weights[5][0, 3], w[5][0, 3]).mean(), rel=1e-5)
    assert run["moved"][1][0] == 0 and run["moved"][1][7] is None
    # 조사 '가' 가 붙은 말 '▁고양이' 에 헤드 7-11 이 준 가중치: 끄기 전, 그리고 7-11 자신을 끈 뒤 (출력 0 → 가중치 0)
    (particle,) = sentence["particles"]
    assert (tokens[particle["at"]], [tokens[i] for i in particle["host"]]) == ("가", ["▁고양이"])
    layer, head = HEAD
    assert sentence["particles_before"][0] == pytest.approx(
        float(weights[layer][0, head, particle["at"], particle["host"][0]]), abs=1e-6
    )
    assert by_name[(("7-11",), (), "zero")]["particles_after"] == [0.0]
    assert by_name[((), (12,), "zero")]["particles_after"] == sentence["particles_before"]  # 12층은 7층 뒤입니다
