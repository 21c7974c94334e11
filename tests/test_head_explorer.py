"""snippets/sitedata/head_explorer.py: 헤드 탐색기의 JSON 이 모델의 값 그대로이고, 페이지가 말하는 문장·헤드를 담고, 예산 안입니다.

브라우저에서 보이는 숫자는 tests/test_head_explorer_browser.py 가 확인합니다.
"""

import gzip
import json

import numpy as np
import pytest

from attention import softmax
from conftest import DOCS, SNIPPETS
from head_explorer_reference import reference
from sitebuild import snippets
from support import runs

BUDGET = 300_000  # 바이트: 페이지마다 처음 보일 때 받는 탐색기 데이터 (압축하지 않은 JSON: 점수 + 시작 층의 q·k)
QK_BUDGET = 50_000  # 바이트: q·k 파일 하나 (문장·층 하나, 압축하지 않은 JSON)
PAGES = {"minilm": ("real_model.md", "real_model.py"), "e5": ("korean_model.md", "korean_model.py")}


def _explorer_json(kind):
    """head_explorer 의 data_* (kind="data") 나 datafiles_* (kind="datafiles") 가 두 모델로 만든 JSON 값.

    모델 둘을 읽어 문장마다 인코더를 돌리는 일이라서, head_explorer 와 그것이 import 하는 스니펫, 환경이 그대로면 지난
    값을 씁니다 (support/runs.py). 빌드가 data/*.json 으로 쓰는 것과 같은 값입니다 (JSON 으로 한 번 오갑니다)."""

    def compute():
        import head_explorer

        return {which: getattr(head_explorer, f"{kind}_{which}")() for which in ("minilm", "e5")}

    closure = snippets.content_hash({"head_explorer"}, SNIPPETS)
    return runs.cached_value(f"head-explorer-{kind}", [closure], compute, __name__)


@pytest.fixture(scope="module")
def data():
    return _explorer_json("data")


@pytest.fixture(scope="module")
def vectors():
    return _explorer_json("datafiles")


def assert_float32_products_agree(a, b, q, k):
    """두 float32 점수 q·kᵀ 가 합하는 차례만 다른 같은 내적인지: |a - b| ≤ 2 γ_d (|q| |k|ᵀ).

    float32 행렬 곱의 결과는 비트까지 재현되지 않습니다. BLAS 는 CPU 와 행렬 모양에 따라 다른 커널을 골라
    내적을 다른 차례로 더하기 때문입니다 (이 기계에서도 n × n 전체를 곱해 자른 것과 쿼리 행만 곱한 것이
    마지막 비트에서 다릅니다). 길이 d 인 내적 하나를 어떤 차례로 더해도 오차는 γ_d |q|·|k| 이하이고
    (γ_d = d·u / (1 - d·u), u = 2⁻²⁴, Higham 의 3.1절), 두 계산의 차이는 그 두 배 이하입니다.
    """
    d, u = q.shape[-1], 2.0**-24
    gamma = d * u / (1 - d * u)
    bound = 2 * gamma * (np.abs(q.astype(np.float64)) @ np.swapaxes(np.abs(k.astype(np.float64)), -1, -2))
    excess = np.abs(a.astype(np.float64) - b) - bound
    assert excess.max() <= 0, f"float32 반올림으로 설명되지 않는 차이: 최대 초과 {excess.max():.3g}"


def qk_part(name):
    """ "head_explorer-minilm-qk-s0-l1.json" → ("minilm", "qk-s0-l1"): 빌드가 datafiles_<이름>() 의 조각을 쓰는 이름."""
    stem = name.removeprefix("head_explorer-").removesuffix(".json")
    which, part = stem.split("-", 1)
    return which, part


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_scores_are_the_models_float32_values(data, which):
    """JSON 의 점수 = 모델을 새로 돌려 얻은 float32 q·kᵀ (float32 반올림 안에서). 그 점수의 소프트맥스가 인코더의 가중치입니다."""
    from head_explorer import unpack

    d = data[which]
    refs = reference(which)
    assert d["format"] == "head-explorer/2"
    assert [s["text"] for s in d["sentences"]] == [r["text"] for r in refs]
    for sent, ref in zip(d["sentences"], refs):
        assert sent["tokens"] == ref["tokens"] and tuple(sent["queries"]) == ref["queries"]
        nq, n = ref["queries"][1] - ref["queries"][0], len(ref["tokens"])
        scores = unpack(sent["scores"], (d["layers"], d["heads"], nq, n))
        assert scores.dtype == np.float32  # 양자화하지 않았습니다: float32 그대로 (pack 은 비트까지 남깁니다)
        np.testing.assert_array_equal(scores, ref["qk"])  # 같은 벡터, 같은 모양의 곱 (같은 기계에서 비트까지)
        assert_float32_products_agree(scores, ref["qk_full"], ref["q"], ref["k"])  # 코어처럼 n × n 을 곱한 값
        # 2장처럼 float64 로 계산한 가중치는 모델(float32 코어)의 가중치와 float32 반올림 안에서 같습니다
        # (코어처럼 n × n 을 곱한 점수에서 출발해야 모델과 같은 점수이고, 남는 차이는 float32 소프트맥스의 반올림뿐)
        weight = softmax(ref["qk_full"].astype(np.float64) / np.sqrt(ref["d_head"]), axis=-1)
        np.testing.assert_allclose(weight, ref["model_weights"], atol=1e-6, rtol=0)


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_vectors_are_the_encoders_and_multiply_to_the_scores(data, vectors, which):
    """q·k 파일 = 모델을 새로 돌려 얻은 float32 q (쿼리 행) 와 k (모든 토큰) (비트까지).
    그리고 그 벡터의 float32 행렬 곱이 점수 파일의 점수와 비트까지 같습니다.

    비트까지 같은 까닭: 같은 프로세스에서 같은 코드가 같은 모양으로 계산한 값이기 때문입니다 (q, k 는 문장 하나를
    넣은 encode, 점수는 쿼리 행 (쿼리, d) @ (d, 토큰) 의 float32 곱). 코어처럼 n × n 전체를 곱한 뒤 자른 값과는
    행렬 모양이 달라 BLAS 가 다른 커널을 고를 수 있으므로 float32 반올림 안에서 같은지 봅니다 (위 테스트).
    """
    from head_explorer import layer_scores, unpack

    d, files, refs = data[which], vectors[which], reference(which)
    H, dh = d["heads"], d["d_head"]
    listed = [name for sent in d["sentences"] for name in sent["qk"]]
    assert sorted(qk_part(name) for name in listed) == sorted((which, part) for part in files)
    for s, (sent, ref) in enumerate(zip(d["sentences"], refs)):
        assert len(sent["qk"]) == d["layers"]
        nq, n = ref["queries"][1] - ref["queries"][0], len(ref["tokens"])
        scores = unpack(sent["scores"], (d["layers"], H, nq, n))
        for l, name in enumerate(sent["qk"]):
            f = files[qk_part(name)[1]]
            assert (f["format"], f["sentence"], f["layer"], f["heads"], f["d_head"], f["tokens"]) == (
                "head-explorer-qk/1",
                s,
                l,
                H,
                dh,
                n,
            )
            assert tuple(f["queries"]) == ref["queries"]
            q, k = unpack(f["q"], (H, nq, dh)), unpack(f["k"], (H, n, dh))
            np.testing.assert_array_equal(q, ref["q"][l])
            np.testing.assert_array_equal(k, ref["k"][l])
            np.testing.assert_array_equal(layer_scores(q, k), scores[l])
            np.testing.assert_array_equal(layer_scores(q, k), ref["qk"][l])
            # 탐색기가 ① 에서 하듯 float64 로 곱해 더한 합은 float32 점수와 float32 반올림 안에서 같습니다
            dots = np.einsum("hqd,hkd->hqk", q.astype(np.float64), k.astype(np.float64))
            assert_float32_products_agree(scores[l], dots, q, k)


@pytest.mark.parametrize("which, layers", [("minilm", 6), ("e5", 12)])
def test_shape_comes_from_the_data(data, which, layers):
    """층·헤드·d_head 는 모델 설정에서 JSON 으로 옵니다 (브라우저 테스트가 작은 히트맵의 수로 다시 봅니다)."""
    from bert_numpy import load_model
    from e5_numpy import load_e5

    d = data[which]
    config = (load_model() if which == "minilm" else load_e5()).config
    assert (d["layers"], d["heads"]) == (config["num_hidden_layers"], config["num_attention_heads"]) == (layers, 12)
    assert d["d_head"] * d["heads"] == config["hidden_size"] == 384


@pytest.mark.reads("docs/korean_model.md", "docs/real_model.md")
def test_presets_are_the_sentences_the_pages_discuss(data):
    """영어 문장은 실제 모델 페이지의 코드에, 한국어 문장은 한국어 페이지의 코드에 나오는 문장이고, 모두 6개 이상입니다."""
    total = 0
    for which, (_, snippet) in PAGES.items():
        code = snippets.path_of(SNIPPETS, snippet.removesuffix(".py")).read_text(encoding="utf-8")
        for sent in data[which]["sentences"]:
            assert f'"{sent["text"]}"' in code, f"{sent['text']!r} 는 {snippet} 에 없는 문장입니다"
            total += 1
    assert total >= 6
    assert any("가" <= c <= "힣" for s in data["e5"]["sentences"] for c in s["text"])


@pytest.mark.reads("docs/four_steps.md", "docs/korean_model.md", "docs/real_model.md")
def test_pages_carry_the_explorer_and_explain_it():
    for which, (page, _) in PAGES.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        assert f'<div class="head-explorer" data-src="../data/head_explorer-{which}.json"' in text
        assert "(four_steps.md)" in text.split('class="head-explorer"')[0].rsplit("\n## ", 1)[1]  # 2장으로 가는 링크


def test_start_views_are_the_heads_the_pages_talk_about(data):
    """처음 화면: 영어는 cat → sat 이 가장 큰 헤드의 cat 행 (가장 큰 키 sat), 한국어는 조사 헤드의 "가" 행 (가장 큰 키 ▁고양이)."""
    heads = chapter_heads()
    for which, head, query, best in (("minilm", heads["top"], "cat", "sat"), ("e5", heads["best"], "가", "▁고양이")):
        start, ref = data[which]["start"], reference(which)[data[which]["start"]["sentence"]]
        assert (start["layer"], start["head"]) == tuple(int(x) for x in head)
        assert ref["tokens"][start["query"]] == query
        row = ref["weight"][start["layer"], start["head"], start["query"] - ref["queries"][0]]
        assert ref["tokens"][int(row.argmax())] == best


def chapter_heads():
    """두 장이 말하는 헤드: real_model.top (cat → sat 이 가장 큰 헤드), korean_model.best (조사 헤드).

    두 스니펫을 import 하면 모델로 문장 수십 개를 계산합니다 (2코어에서 합쳐 7초 남짓). 두 스니펫과 그것이 import 하는
    스니펫, 환경이 그대로면 지난 값을 씁니다 (support/runs.py)."""

    def compute():
        import korean_model
        import real_model

        return {"top": [int(x) for x in real_model.top], "best": [int(x) for x in korean_model.best]}

    closure = snippets.content_hash({"korean_model", "real_model"}, SNIPPETS)
    return runs.cached_value("head-explorer-chapter-heads", [closure], compute, __name__)


def size(obj):
    """빌드가 쓰는 것과 같은 JSON 글자 → (바이트, gzip 바이트)."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    return len(text), len(gzip.compress(text, 6))


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_payload_stays_under_budget(data, vectors, which):
    """처음 보일 때 받는 것(점수 파일 + 시작 문장·층의 q·k 파일) ≤ 300 KB, q·k 파일은 하나하나 ≤ 50 KB."""
    d, files = data[which], vectors[which]
    main, main_gz = size(d)
    sizes = {part: size(f) for part, f in files.items()}
    for part, (raw, gz) in sizes.items():
        assert raw <= QK_BUDGET, f"{which} {part}: {raw:,} 바이트"
    start = d["start"]
    first = qk_part(d["sentences"][start["sentence"]]["qk"][start["layer"]])[1]
    first_view = main + sizes[first][0]
    everything = main + sum(raw for raw, _ in sizes.values())
    print(
        f"{which}: 점수 {main:,} (gzip {main_gz:,}), q·k 파일 {len(sizes)}개 "
        f"{min(r for r, _ in sizes.values()):,}–{max(r for r, _ in sizes.values()):,} 바이트, "
        f"처음 보일 때 {first_view:,} (gzip {main_gz + sizes[first][1]:,}), "
        f"모든 문장·층 {everything:,} (gzip {main_gz + sum(g for _, g in sizes.values()):,})"
    )
    assert first_view <= BUDGET


@pytest.mark.parametrize(
    "args, error, words",
    [
        (("model", "The cat sat."), TypeError, "Encoder"),
        ((None, 3), TypeError, "text"),
        ((None, "   "), ValueError, "비어"),
        ((None, "The cat", 7), TypeError, "prefix"),
    ],
)
def test_bad_inputs_name_the_argument(args, error, words):
    from bert_numpy import load_model
    from head_explorer import head_scores

    args = tuple(load_model() if a is None else a for a in args)
    with pytest.raises(error, match=words):
        head_scores(*args)


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_docstring_bound_on_float32_scores_holds(which):
    """snippets/sitedata/head_explorer.py 맨 위의 약속: 화면의 q·k(float32 점수)와 32개 곱의 float64 합의 차이는 0.0001 보다 작고,
    소수 둘째 자리로 적은 두 글자가 다른 곳은 천 곳에 하나 꼴 이하이며 그때도 마지막 자리 한 단위입니다.

    (예전 설명은 0.00003 과 "언어마다 한 곳" 이었는데, 다른 빌드에서 4.24e-5 와 세 곳이 나왔습니다: float32 행렬 곱의
    마지막 비트는 BLAS 와 CPU 에 따라 다릅니다.)"""
    import head_explorer
    from head_explorer_reference import shown

    doc = head_explorer.__doc__
    assert "0.0001 보다 작습니다" in doc and "천 곳에 하나 꼴을 넘지 않습니다" in doc and "0.00003" not in doc
    worst, differ, places = 0.0, 0, 0
    for ref in reference(which):
        dots = np.einsum("lhqd,lhkd->lhqk", ref["q"].astype(np.float64), ref["k"].astype(np.float64))
        worst = max(worst, float(np.abs(ref["qk"].astype(np.float64) - dots).max()))
        shown_qk = np.array([shown(x, 2) for x in ref["qk"].ravel()])
        shown_sum = np.array([shown(x, 2) for x in dots.ravel()])
        apart = shown_qk != shown_sum
        steps = np.abs(shown_qk[apart].astype(float) - shown_sum[apart].astype(float))
        assert np.all(np.round(steps, 6) == 0.01), steps
        differ, places = differ + int(apart.sum()), places + apart.size
    assert worst < 1e-4, worst
    assert differ <= places / 1000, (differ, places)
