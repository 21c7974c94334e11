"""snippets/head_explorer.py: 헤드 탐색기의 JSON 이 모델의 값 그대로이고, 페이지가 말하는 문장·헤드를 담고, 예산 안입니다.

브라우저에서 보이는 숫자는 tests/test_head_explorer_browser.py 가 확인합니다.
"""

import gzip
import json

import numpy as np
import pytest
from head_explorer_reference import reference

from conftest import DOCS, SNIPPETS

BUDGET = 300_000  # 바이트: 페이지마다 탐색기 데이터 (압축하지 않은 JSON)
PAGES = {"minilm": ("real_model.md", "real_model.py"), "e5": ("korean_model.md", "korean_model.py")}


@pytest.fixture(scope="module")
def data():
    import head_explorer

    return {"minilm": head_explorer.data_minilm(), "e5": head_explorer.data_e5()}


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_scores_are_the_models_float32_values(data, which):
    """JSON 의 점수 = 모델을 새로 돌려 얻은 float32 q·kᵀ (비트까지). 그리고 그 점수의 소프트맥스가 인코더의 가중치입니다."""
    from head_explorer import unpack

    d = data[which]
    refs = reference(which)
    assert d["format"] == "head-explorer/1"
    assert [s["text"] for s in d["sentences"]] == [r["text"] for r in refs]
    for sent, ref in zip(d["sentences"], refs):
        assert sent["tokens"] == ref["tokens"] and tuple(sent["queries"]) == ref["queries"]
        nq, n = ref["queries"][1] - ref["queries"][0], len(ref["tokens"])
        scores = unpack(sent["scores"], (d["layers"], d["heads"], nq, n))
        np.testing.assert_array_equal(scores, ref["qk"])  # 양자화하지 않았습니다: float32 그대로
        # 2장처럼 float64 로 계산한 가중치는 모델(float32 코어)의 가중치와 float32 반올림 안에서 같습니다
        np.testing.assert_allclose(ref["weight"], ref["model_weights"], atol=1e-6, rtol=0)


@pytest.mark.parametrize("which, layers", [("minilm", 6), ("e5", 12)])
def test_shape_comes_from_the_data(data, which, layers):
    """층·헤드·d_head 는 모델 설정에서 JSON 으로 옵니다 (브라우저 테스트가 작은 히트맵의 수로 다시 봅니다)."""
    from bert_numpy import load_model
    from e5_numpy import load_e5

    d = data[which]
    config = (load_model() if which == "minilm" else load_e5()).config
    assert (d["layers"], d["heads"]) == (config["num_hidden_layers"], config["num_attention_heads"]) == (layers, 12)
    assert d["d_head"] * d["heads"] == config["hidden_size"] == 384


def test_presets_are_the_sentences_the_pages_discuss(data):
    """영어 문장은 실제 모델 페이지의 코드에, 한국어 문장은 한국어 페이지의 코드에 나오는 문장이고, 모두 6개 이상입니다."""
    total = 0
    for which, (_, snippet) in PAGES.items():
        code = (SNIPPETS / snippet).read_text(encoding="utf-8")
        for sent in data[which]["sentences"]:
            assert f'"{sent["text"]}"' in code, f"{sent['text']!r} 는 {snippet} 에 없는 문장입니다"
            total += 1
    assert total >= 6
    assert any("가" <= c <= "힣" for s in data["e5"]["sentences"] for c in s["text"])


def test_pages_carry_the_explorer_and_explain_it():
    for which, (page, _) in PAGES.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        assert f'<div class="head-explorer" data-src="../data/head_explorer-{which}.json"></div>' in text
        assert "(four_steps.md)" in text.split('class="head-explorer"')[0].rsplit("\n## ", 1)[1]  # 2장으로 가는 링크


def test_start_views_are_the_heads_the_pages_talk_about(data):
    """처음 화면: 영어는 cat → sat 이 가장 큰 헤드의 cat 행 (가장 큰 키 sat), 한국어는 조사 헤드의 "가" 행 (가장 큰 키 ▁고양이)."""
    import korean_model
    import real_model

    for which, head, query, best in (("minilm", real_model.top, "cat", "sat"),
                                     ("e5", korean_model.best, "가", "▁고양이")):
        start, ref = data[which]["start"], reference(which)[data[which]["start"]["sentence"]]
        assert (start["layer"], start["head"]) == tuple(int(x) for x in head)
        assert ref["tokens"][start["query"]] == query
        row = ref["weight"][start["layer"], start["head"], start["query"] - ref["queries"][0]]
        assert ref["tokens"][int(row.argmax())] == best


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_payload_stays_under_budget(data, which):
    text = json.dumps(data[which], ensure_ascii=False, separators=(",", ":")).encode()
    print(f"{which}: {len(text):,} 바이트, gzip {len(gzip.compress(text, 6)):,} 바이트")
    assert len(text) <= BUDGET


@pytest.mark.parametrize("args, error, words", [
    (("model", "The cat sat."), TypeError, "Encoder"),
    ((None, 3), TypeError, "text"),
    ((None, "   "), ValueError, "비어"),
    ((None, "The cat", 7), TypeError, "prefix"),
])
def test_bad_inputs_name_the_argument(args, error, words):
    from bert_numpy import load_model
    from head_explorer import head_scores

    args = tuple(load_model() if a is None else a for a in args)
    with pytest.raises(error, match=words):
        head_scores(*args)
