"""헤드 탐색기의 "헤드 끄기" 데이터 (snippets/sitedata/explorer_ablation.py → data/explorer_ablation-<모델>.json).

빌드와 같은 캐시(.cache/site/data)의 파일을 읽고, 몇 칸을 numpy 로 따로 다시 계산해 견줍니다: 문장 하나를 배치 없이
`encode(heads_off=switch_off(...))` 로 돌려, 문장 임베딩의 1 − cos 와 뒤 층 헤드마다 쿼리 행의 JS 거리를 여기서 직접
계산합니다 (ablation.head_effects 를 부르지 않습니다). 빌드는 여러 문장·끈 헤드를 한 배치로 돌리므로 float32 의
마지막 자리가 다를 수 있어, 비트까지 같다고는 하지 않습니다 (허용 오차는 아래 TOL).
"""

import gzip
import json

import numpy as np
import pytest

from conftest import DOCS, ROOT, SNIPPETS

# 1 − cos 와 JS 거리: 저장한 유효숫자 6자리(상대 5e-7)와 배치·패딩에 따른 float32 의 마지막 자리
TOL = {"rel": 2e-5, "abs": 2e-7}


@pytest.fixture(scope="module")
def files():
    """두 모델의 파일. 빌드와 같은 캐시를 읽고, 없으면 만들어 거기에 둡니다."""
    import disk_cache
    from sitebuild import datafiles

    names = {"explorer_ablation-minilm", "explorer_ablation-e5"}
    paths = datafiles.build_data(SNIPPETS, ROOT / ".cache" / "site" / "data", disk_cache.environment(ROOT), names=names)
    return {p.stem.removeprefix("explorer_ablation-"): p for p in paths}


@pytest.fixture(scope="module")
def stored(files):
    return {k: json.loads(p.read_text(encoding="utf-8")) for k, p in files.items()}


@pytest.fixture(scope="module")
def models():
    from bert_numpy import load_model
    from e5_numpy import load_e5

    return {"minilm": load_model(), "e5": load_e5()}


def test_files_are_small_and_fetched_only_on_the_first_switch(files):
    for k, p in files.items():
        raw, gz = p.stat().st_size, len(gzip.compress(p.read_bytes(), 6))
        print(f"explorer_ablation-{k}.json: {raw:,} B, gzip {gz:,} B")
        assert raw < 40_000 and gz < 15_000


def test_format_matches_the_explorer(stored):
    from e5_numpy import PREFIX
    from head_explorer import E5_SENTENCES, MINILM_SENTENCES

    sentences = {"minilm": MINILM_SENTENCES, "e5": E5_SENTENCES}
    for k, data in stored.items():
        L, H = data["layers"], data["heads"]
        assert (L, H) == {"minilm": (6, 12), "e5": (12, 12)}[k]
        assert data["format"] == "explorer-ablation/1" and data["top"] == 5
        assert data["prefix"] == ("" if k == "minilm" else PREFIX)
        assert [s["text"] for s in data["sentences"]] == sentences[k]
        for sent in data["sentences"]:
            cos = np.array(sent["one_minus_cos"])
            assert cos.shape == (L, H + 1) and (cos > 0).all() and (cos < 1).all()
            for l, row in enumerate(sent["moved"]):
                assert len(row) == H + 1
                for top in row:
                    # 뒤 층의 헤드만, 큰 것부터, 5개 (마지막 층을 끄면 뒤에 헤드가 없어 빈 목록)
                    assert len(top) == (0 if l == L - 1 else 5)
                    assert all(l < m[0] < L and 0 <= m[1] < H for m in top)
                    values = [m[2] for m in top]
                    assert values == sorted(values, reverse=True) and all(v > 0 for v in values)


def recomputed(model, text, off, layer):
    """문장 하나, 끈 것 하나를 따로: (1 − cos, 뒤 층 헤드마다 JS 거리 (층, 헤드), 앞 층 가중치의 가장 큰 차이)."""
    from bert_numpy import encode, switch_off, tokenize
    from head_stats import js_distance

    ids, _ = tokenize(model, text)
    hidden, weights = encode(model, ids)
    hidden_off, weights_off = encode(model, ids, heads_off=switch_off(model, **off))

    def embedding(h):
        mean = h[0].astype(np.float64).mean(axis=0)
        return mean / np.linalg.norm(mean)

    one_minus_cos = 1 - embedding(hidden) @ embedding(hidden_off)
    # 끈 층 뒤의 층마다 (헤드, 쿼리) 의 JS 거리를 모든 쿼리 행에서 평균. 끈 층과 그 앞은 0 으로 셉니다
    moved = np.zeros((len(weights), weights[0].shape[1]))
    for later in range(layer + 1, len(weights)):
        moved[later] = js_distance(weights[later][0], weights_off[later][0]).mean(axis=-1)
    before = max((np.abs(weights[x] - weights_off[x]).max() for x in range(layer)), default=0.0)
    return one_minus_cos, moved, before


# (모델, 문장, 층, 헤드 또는 None = 층 전체): 페이지가 이름 붙인 헤드, 첫 층과 마지막 층, 층 전체
CASES = [
    ("minilm", 0, 1, 8),
    ("minilm", 0, 5, None),
    ("minilm", 2, 0, 2),
    ("minilm", 3, 2, None),
    ("e5", 0, 6, 10),
    ("e5", 0, 1, 7),
    ("e5", 1, 11, 6),
    ("e5", 1, 0, None),
]


@pytest.mark.parametrize(("which", "s", "l", "h"), CASES)
def test_stored_values_equal_numpy_recomputed(stored, models, which, s, l, h):
    data, model = stored[which], models[which]
    sent = data["sentences"][s]
    col = data["heads"] if h is None else h
    off = {"layers": [l]} if h is None else {"heads": [(l, h)]}
    one_minus_cos, moved, before = recomputed(model, data["prefix"] + sent["text"], off, l)
    assert sent["one_minus_cos"][l][col] == pytest.approx(one_minus_cos, **TOL)
    # 끈 층 앞의 어텐션은 그대로입니다 (그래서 0 으로 세어도 됩니다)
    assert before < 1e-6
    top = sent["moved"][l][col]
    for ml, mh, value in top:
        assert value == pytest.approx(moved[ml, mh], **TOL)
    # 실리지 않은 헤드는 다섯째보다 크지 않습니다 (반올림 오차만큼의 같은 값은 허용)
    if top:
        listed = {(ml, mh) for ml, mh, _ in top}
        rest = max(moved[a, b] for a in range(moved.shape[0]) for b in range(moved.shape[1]) if (a, b) not in listed)
        assert rest <= top[-1][2] * (1 + TOL["rel"]) + TOL["abs"]
    else:
        assert l == data["layers"] - 1


def test_moved_top_names_bad_input():
    from explorer_ablation import moved_top

    assert moved_top(np.array([[0.0, 0.0], [0.3, 0.1]]), top=5) == [[1, 0, 0.3], [1, 1, 0.1]]
    assert moved_top(np.array([[0.2, 0.2]]), top=1) == [[0, 0, 0.2]]  # 같으면 앞 헤드
    for bad, word in [(np.zeros(3), "moved"), (np.array([[np.nan]]), "moved"), (np.array([[-0.1]]), "moved")]:
        with pytest.raises(ValueError, match=word):
            moved_top(bad)
    with pytest.raises(ValueError, match="top"):
        moved_top(np.zeros((2, 2)), top=0)


def paragraph(doc, start):
    """페이지에서 start 로 시작하는 글 (다음 제목까지)."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    at = text.index(start)
    return text[at : text.index("\n## ", at)]


@pytest.mark.reads("docs/korean_model.md", "docs/real_model.md")
def test_what_the_pages_say_is_the_stored_data(stored):
    """두 모델 페이지의 "헤드 끄기" 문단이 말하는 숫자와 비교가 저장된 값에 있습니다."""
    minilm, e5 = stored["minilm"], stored["e5"]
    text = paragraph("real_model.md", "탐색기의 **헤드 끄기**")
    cos = minilm["sentences"][0]["one_minus_cos"]
    assert minilm["sentences"][0]["text"] == "The cat sat on the mat."
    assert f"헤드 2-9를 끄면 1 − cos가 {cos[1][8]:.5f}이고, 헤드 6-12를 끄면 {cos[5][11]:.5f}입니다" in text
    # "임베딩을 가장 많이 움직이는 헤드는 네 문장 모두 6층에" (헤드 하나씩 끈 것 가운데)
    assert "네 문장 모두 6층에" in text and len(minilm["sentences"]) == 4
    for sent in minilm["sentences"]:
        heads = np.array(sent["one_minus_cos"])[:, :-1]
        assert np.unravel_index(heads.argmax(), heads.shape)[0] == minilm["layers"] - 1 == 5
        assert all(top == [] for top in sent["moved"][-1])  # 6층을 끄면 움직이는 뒤 층 헤드가 없습니다
    text = paragraph("korean_model.md", "탐색기의 **헤드 끄기**")
    cos = e5["sentences"][0]["one_minus_cos"]
    assert (
        f"끄면 1 − cos가 {cos[6][10]:.5f}입니다" in text and f"헤드 11-12를 끄면 {cos[10][11]:.5f}로, 백 배가" in text
    )
    assert cos[10][11] > 100 * cos[6][10]
    # "이 장이 이름 붙이지 않은 헤드 11-12": 한국어 장의 글에 11-12 가 이 문단 말고는 나오지 않습니다
    page = (DOCS / "korean_model.md").read_text(encoding="utf-8")
    assert page.count("11-12") == text.count("11-12") == 1


def test_particle_head_looks_most_at_its_host_in_the_first_sentence(models):
    """korean_model 의 문단: 처음 화면의 헤드 7-11 은 "가" 에서 "고양이" 를 가장 많이 봅니다."""
    from bert_numpy import encode, tokenize
    from e5_numpy import PREFIX
    from head_explorer import E5_SENTENCES

    ids, tokens = tokenize(models["e5"], PREFIX + E5_SENTENCES[0])
    _, weights = encode(models["e5"], ids)
    row = weights[6][0, 10, tokens.index("가")]
    assert tokens[int(row.argmax())] == "▁고양이"
