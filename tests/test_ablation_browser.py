"""헤드 끄기(어블레이션)를 브라우저에서: e5-worker.js 의 "ablate" 가 numpy(bert_numpy.encode(heads_off=…))와 같습니다.

- 워커가 헤드·층을 끄고 계산한 값 = numpy 가 같은 헤드를 끄고 계산한 값, 행렬 곱의 두 길(WebAssembly, JavaScript) 모두:
  어텐션 가중치 차이 ≤ 1e-4, 마지막 은닉 상태 코사인 ≥ 0.99999 (끄지 않은 계산과 같은 허용치,
  test_own_sentence_browser.py). 견주는 것: "보는 것과 시험하는 것" 의 참고 데이터(data/head_ablation-reference.json:
  탐색기의 두 문장 × 끄는 방법 다섯)와, 다른 문장 셋에서 numpy 로 바로 계산한 값.
- 끄기 전과의 차이(문장 임베딩의 1 − cos, 헤드마다 가중치의 JS 거리)도 snippets/lib/ablation.py 의 pooled, moved 와 같습니다.
- 잘못 적은 off·ablation 은 인자의 이름과 값을 밝힌 오류입니다 (switch_off 와 같은 규칙).
- 화면 (여러분의 문장으로의 "헤드 끄기"): 키보드로 헤드나 층을 골라 끄면, 보이는 숫자(1 − cos, 가장 많이 바뀐 헤드 다섯과
  그 JS 거리, 조사 표의 7-11 가중치 끄기 전·뒤)가 numpy 의 값과 같습니다. "탐색기에서 고른 헤드" 는 탐색기의 헤드를 가져옵니다.
  375 px 휴대전화에서 손가락으로, 두 팔레트에서 axe 위반 없이 씁니다.
"""

import json

import numpy as np
import pytest

from browser import B64_JS, DESKTOP, PHONE, RecordingTab, floats
from test_own_sentence_browser import ROOT, TOOL, WORKER_JS, close_to, compute_text, phone_with_result

pytestmark = pytest.mark.browser

ABLATE_JS = (
    """async (runs) => { const out = [];
  """
    + B64_JS
    + """
  for (const r of runs) { const m = await window.__ask({type: 'ablate', id: 1, ...r});
    out.push(m.error ? {error: m.error} : {ids: m.ids, weights: b64(m.weights), hidden: b64(m.hidden),
      moved: Array.from(m.moved, x => Number.isNaN(x) ? null : x), oneMinusCos: m.oneMinusCos, off: Array.from(m.off),
      ablation: m.ablation}); }
  return out; }"""
)

# 참고 데이터에 없는 문장과 헤드: 조사 헤드의 다음 층, 첫 층 통째로, 마지막 층의 헤드 둘
EXTRA = [
    ("할머니께서 시장에서 사과 두 봉지를 사 오셨다.", {"heads": [[7, 3]]}, "zero"),
    ("할머니께서 시장에서 사과 두 봉지를 사 오셨다.", {"layers": [0]}, "zero"),
    ("나는 어제 도서관에서 책을 빌렸다", {"heads": [[11, 6], [11, 0]]}, "uniform"),
]


def page_head(name):
    """페이지 이름 "7-11" → 0부터 센 [6, 10]."""
    layer, head = name.split("-")
    return [int(layer) - 1, int(head) - 1]


@pytest.fixture(scope="module")
def reference(built_site):
    site, _ = built_site
    return json.loads((site / "data" / "head_ablation-reference.json").read_text(encoding="utf-8"))


def runs_of(reference):
    """(문장, off, ablation, 참고 데이터의 run 또는 None): 참고 데이터의 열 가지와 EXTRA."""
    out = []
    for s in reference["sentences"]:
        for run in s["runs"]:
            off = {"heads": [page_head(h) for h in run["heads"]], "layers": [x - 1 for x in run["layers"]]}
            out.append((s["text"], off, run["ablation"], run))
    return out + [(text, off, how, None) for text, off, how in EXTRA]


@pytest.fixture(scope="module")
def tab(browser, server):
    tab = RecordingTab(browser, server, DESKTOP)
    page = TOOL.open(tab)
    page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").click()
    page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def ablated(tab, reference):
    """길마다 워커 하나로 같은 runs 를 끄고 계산한 결과."""
    out = {}
    for kernel in ("wasm", "js"):
        ready = tab.page.evaluate(WORKER_JS, [["ko"], kernel == "wasm"])
        assert ready["type"] == "ready" and ready["kernel"] == kernel, ready
        asks = [{"text": text, "off": off, "ablation": how} for text, off, how, _ in runs_of(reference)]
        out[kernel] = tab.page.evaluate(ABLATE_JS, asks)
    return out


def numpy_run(text, off, how):
    """numpy 로 같은 헤드를 끈 (ids, 은닉 상태, 가중치 (층, 헤드, n, n), 1 − cos, moved (층, 헤드; 끈 헤드 nan))."""
    from ablation import moved, pooled
    from bert_numpy import encode, switch_off, tokenize
    from e5_numpy import PREFIX, load_e5

    m = load_e5()
    ids, _ = tokenize(m, PREFIX + text)
    mask = switch_off(m, heads=[tuple(p) for p in off.get("heads", [])], layers=off.get("layers", []))
    every = np.ones((1, len(ids)), dtype=np.int64)
    hidden, weights = encode(m, ids)
    hidden_off, weights_off = encode(m, ids, heads_off=mask, ablation=how)
    w, w_off = np.stack([x[0] for x in weights]), np.stack([x[0] for x in weights_off])
    change = 1 - pooled(hidden, every)[0] @ pooled(hidden_off, every)[0]
    js = np.full(mask.shape, np.nan)
    for layer in range(mask.shape[0]):
        keep = np.flatnonzero(~mask[layer])
        js[layer, keep] = moved(w[None, layer, keep], w_off[None, layer, keep], every.astype(bool))[0]
    return ids, hidden_off[0], w_off, change, js, mask


@pytest.mark.parametrize("kernel", ["wasm", "js"])
def test_switched_off_heads_equal_numpy(tab, reference, ablated, kernel):
    """끈 모델의 가중치 ≤ 1e-4, 은닉 상태 코사인 ≥ 0.99999 (끄지 않은 계산의 허용치). 끄기 전과의 차이 1 − cos 와
    헤드마다의 JS 거리는 numpy 와 1e-5 안 (값의 크기: 1 − cos 는 1e-4 … 1e-1, JS 는 1e-3 … 1e-1), 참고 데이터(6자리로
    반올림해 적은 값)와도 같습니다."""
    worst = {"w": 0.0, "cos": 1.0, "change": 0.0, "js": 0.0}
    for (text, off, how, run), got in zip(runs_of(reference), ablated[kernel], strict=True):
        assert "error" not in got, (text, off, got)
        ids, hidden, w, change, js, mask = numpy_run(text, off, how)
        n = len(ids)
        assert got["ids"] == ids.tolist() and got["ablation"] == how
        assert got["off"] == mask.astype(int).ravel().tolist()
        gw = floats(got["weights"]).reshape(12, 12, n, n)
        assert np.all(gw[mask] == 0) if how == "zero" else np.allclose(gw[mask], 1 / n, atol=1e-7)
        worst["w"] = max(worst["w"], float(np.abs(gw - w).max()))
        h = floats(got["hidden"]).reshape(n, -1)
        cos = (h * hidden).sum(-1) / np.linalg.norm(h, axis=-1) / np.linalg.norm(hidden, axis=-1)
        worst["cos"] = min(worst["cos"], float(cos.min()))
        worst["change"] = max(worst["change"], abs(got["oneMinusCos"] - change))
        moved = np.array([np.nan if v is None else v for v in got["moved"]]).reshape(12, 12)
        assert np.array_equal(np.isnan(moved), mask)
        worst["js"] = max(worst["js"], float(np.abs(moved - js)[~mask].max()))
        first = int(np.flatnonzero(mask.any(axis=1))[0])
        assert np.all(moved[:first][~mask[:first]] == 0)  # 끈 층보다 앞의 헤드는 그대로입니다 (같은 계산)
        if run is not None:
            assert abs(got["oneMinusCos"] - run["one_minus_cos"]) <= 1e-5 + 1e-5 * run["one_minus_cos"]
            want = np.array([[np.nan if v is None else v for v in row] for row in run["moved"]])
            assert np.array_equal(np.isnan(want), mask)
            assert np.abs(moved - want)[~mask].max() <= 1e-5
    print(
        f"헤드 끄기 ({kernel}): {len(ablated[kernel])}가지, 가중치 최대 차이 {worst['w']:.2e}, 은닉 상태 코사인 최솟값 "
        f"{worst['cos']:.8f}, 1 − cos 차이 최대 {worst['change']:.1e}, JS 차이 최대 {worst['js']:.1e}"
    )
    assert worst["w"] <= 1e-4 and worst["cos"] >= 0.99999
    assert worst["change"] <= 1e-5 and worst["js"] <= 1e-5
    tab.assert_clean()


BAD = [
    ({"heads": [[12, 0]]}, "zero", "off.heads[0][0]=12 는 0 이상 12 미만"),
    ({"heads": [[0, -1]]}, "zero", "off.heads[0][1]=-1 는 0 이상 12 미만"),
    ({"heads": [[6, 1.5]]}, "zero", "off.heads[0][1] 는 정수여야 합니다: off.heads[0][1]=1.5"),
    ({"heads": [[True, 0]]}, "zero", "off.heads[0][0] 는 정수여야 합니다: off.heads[0][0]=true"),
    ({"heads": [[6]]}, "zero", "off.heads[0]=[6] 는 [층, 헤드] 정수 쌍이어야 합니다"),
    ({"heads": [[6, 10], [6, 10]]}, "zero", "off.heads[1]=[6, 10]: 같은 헤드(페이지의 7-11)를 두 번"),
    ({"layers": [3, 3]}, "zero", "off.layers[1]=3: 같은 층(페이지의 4층)을 두 번"),
    ({"layers": [3], "heads": [[3, 0]]}, "zero", "off.heads[0]=[3, 0] 는 off.layers 로 이미 끈 층 3 에 있습니다"),
    ({"layers": ["3"]}, "zero", 'off.layers[0] 는 정수여야 합니다: off.layers[0]="3"'),
    ({"layers": 3}, "zero", "off.layers 는 목록이어야 합니다: 3"),
    ({"head": [[6, 10]]}, "zero", 'off 에 모르는 이름 "head" 이 있습니다'),
    ({}, "zero", "off 에 끌 헤드가 없습니다"),
    ([6, 10], "zero", "off 는 {heads: [[층, 헤드], …], layers: [층, …]} 이어야 합니다: off=[6,10]"),
    ({"heads": [[6, 10]]}, "mean", 'ablation="mean" 는 "zero", "uniform" 중 하나여야 합니다'),
]


@pytest.mark.parametrize("off,how,words", BAD, ids=[w.split(" ")[0] for _, _, w in BAD])
def test_bad_switches_name_the_argument(tab, ablated, off, how, words):
    got = tab.page.evaluate(
        "async ([off, ablation]) => await window.__ask({type: 'ablate', id: 2, text: '나는 학교에 간다', off, ablation})",
        [off, how],
    )
    assert got["type"] == "ablated" and got["error"]["kind"] == "bad_off", got
    assert words in got["error"]["message"], got["error"]["message"]


# ---------------------------------------------------------------- 화면 ----
def shown(page):
    """헤드 끄기 상자에 보이는 것: 1 − cos, 가장 많이 바뀐 헤드 [(이름, JS)], 조사 표 [(조사 자리, 끄기 전, 끈 뒤)]."""
    return page.evaluate("""() => { const box = document.querySelector('.own-sentence__ablated');
      return {change: box.querySelector('[data-value=one-minus-cos]').textContent,
              moved: [...box.querySelectorAll('.own-sentence__moved tbody tr')].map(tr => [Number(tr.dataset.head),
                      tr.cells[0].textContent, tr.querySelector('[data-value=moved]').textContent]),
              after: [...box.querySelectorAll('.own-sentence__after tbody tr')].map(tr => [Number(tr.dataset.particle),
                      tr.cells[2].textContent, tr.querySelector('[data-value=host-weight-after]').textContent]),
              summary: box.querySelector('.own-sentence__ablation-summary').textContent,
              unmoved: !!box.querySelector('.own-sentence__unmoved')}; }""")


def switch_off_with_keys(page, layer, head, whole=False):
    """키보드만으로: 층·헤드 고르기(Home, 아래 화살표), 층 전체(스페이스), 단추(Enter)."""

    def choose(what, index):
        page.locator(f"{ROOT} .own-sentence__switch select[data-what={what}]").focus()
        page.keyboard.press("Home")
        for _ in range(index):
            page.keyboard.press("ArrowDown")

    box = page.locator(f"{ROOT} .own-sentence__switch input[data-what=whole]")
    if box.is_checked() != whole:  # 먼저: 층 전체에 표시하면 헤드 고르기는 꺼집니다
        box.focus()
        page.keyboard.press("Space")
    choose("layer", layer)
    if not whole:
        choose("head", head)
    picked = page.evaluate("() => [...document.querySelectorAll('.own-sentence__switch select')].map(e => e.value)")
    assert picked[0] == str(layer) and (whole or picked[1] == str(head)), picked
    page.locator(f"{ROOT} .own-sentence__ablate").focus()
    page.evaluate("() => document.querySelector('.own-sentence').removeAttribute('data-ablated')")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{ROOT}[data-ablated=ok]", timeout=60_000)


def assert_panel_equals_numpy(page, text, off):
    from particles import HEAD, find_particles, particle_weights

    ids, _, w_off, change, js, mask = numpy_run(text, off, "zero")
    got = shown(page)
    assert close_to(got["change"], change, 5, 1e-6), (got, change)
    # 바뀐 헤드만 (끈 헤드와 그 앞의 헤드는 0): 큰 차례로 다섯
    flat = np.where(mask, 0.0, js).ravel()
    order = np.argsort(-flat, kind="stable")[: min(5, int((flat > 0).sum()))]
    assert len(got["moved"]) == len(order)
    assert got["unmoved"] == (len(order) == 0)
    for (at, name, value), want in zip(got["moved"], order, strict=True):
        assert name == f"{at // 12 + 1}-{at % 12 + 1}" and not mask.ravel()[at]
        assert close_to(value, flat[at], 4, 1e-5), (name, value, flat[at])
        # 같은 차례: 화면의 k번째 헤드의 numpy 값이 numpy 의 k번째 값과 같습니다 (거의 같은 값끼리는 자리를 바꿔도 됩니다)
        assert abs(flat[at] - flat[want]) <= 1e-5
    from bert_numpy import tokenize
    from e5_numpy import PREFIX, load_e5

    m = load_e5()
    tokens = tokenize(m, PREFIX + text)[1]
    # 문장의 조각: <s> 와 접두어 조각들 뒤부터 </s> 앞까지 (head_ablation.data_reference 와 같은 자리)
    found = find_particles(tokens, len(tokenize(m, PREFIX.strip())[1]) - 1, len(tokens) - 1)
    after = particle_weights(w_off, found)
    assert [p for p, _, _ in got["after"]] == [i for i, _ in found] and found
    for (_, _, value), want in zip(got["after"], after, strict=True):
        assert close_to(value, want, 3, 1e-4), (value, want)
    if mask[HEAD]:
        assert all(v == "0.000" for _, _, v in got["after"])
    return got


def check_ends_view(page, text, off):
    """<s>, </s> 빼고 나누기를 켜면 두 표의 7-11 가중치가 numpy 의 행을 다시 나눈 값이 되고, 끄면 그대로 돌아옵니다."""
    from bert_numpy import encode, tokenize
    from e5_numpy import PREFIX, load_e5
    from particles import HEAD, find_particles

    ids, _, w_off, _, _, _ = numpy_run(text, off, "zero")
    m = load_e5()
    tokens = tokenize(m, PREFIX + text)[1]
    found = find_particles(tokens, len(tokenize(m, PREFIX.strip())[1]) - 1, len(tokens) - 1)
    w = np.stack([x[0] for x in encode(m, ids)[1]])
    values = """() => ['host-weight', 'host-weight-before', 'host-weight-after'].map(v =>
        [...document.querySelectorAll('.own-sentence [data-value=' + v + ']')].map(e => e.textContent))"""
    raw = page.evaluate(values)
    note = page.locator(f"{ROOT} .own-sentence__ends-note")
    assert not note.is_visible()
    page.locator(f"{ROOT} .own-sentence__ends input").focus()
    page.keyboard.press("Space")
    assert page.locator(ROOT).get_attribute("data-view") == "hide-ends" and note.is_visible()
    assert "보기만 바꿉니다" in note.inner_text() and "계산도 바뀌지 않습니다" in note.inner_text()
    hidden = page.evaluate(values)
    for weights, shown_before, shown_after in ((w, hidden[0], hidden[1]), (w_off, None, hidden[2])):
        rows = weights[HEAD]
        want = [rows[i, host].sum() / (1 - rows[i, 0] - rows[i, -1]) for i, host in found]
        for got in (shown_before, shown_after):
            if got is not None:
                assert len(got) == len(want) and all(close_to(g, x, 3, 1e-4) for g, x in zip(got, want)), (got, want)
    assert hidden[0] == hidden[1] and hidden != raw  # 끄기 전 칸은 조사 표와 같은 보기
    page.keyboard.press("Space")  # 되돌리면 모델의 가중치 그대로
    assert page.evaluate(values) == raw and not note.is_visible()
    assert page.locator(ROOT).get_attribute("data-view") == "model"


def test_switching_a_head_off_on_the_page_shows_numpys_numbers(tab):
    page = tab.page
    text = "고양이가 매트 위에 앉았다"
    compute_text(page, text)
    before = page.evaluate(
        "() => [...document.querySelectorAll('.own-sentence__table [data-value=host-weight]')].map(e => e.textContent)"
    )
    # 한국어 장이 이름 붙이지 않은 헤드 12-7 (참고 데이터의 가장 큰 1 − cos)
    switch_off_with_keys(page, 11, 6)
    got = assert_panel_equals_numpy(page, text, {"heads": [[11, 6]]})
    assert (
        got["summary"].startswith("헤드 12-7 끄기: 다시 계산하는 데 ") and got["unmoved"]
    )  # 마지막 층: 뒤에 헤드가 없습니다
    assert [b for _, b, _ in got["after"]] == before  # 끄기 전 칸은 조사 표의 값 그대로
    # 조사 헤드 7-11 자신: 끈 뒤의 가중치는 0
    switch_off_with_keys(page, 6, 10)
    assert_panel_equals_numpy(page, text, {"heads": [[6, 10]]})
    # 2층 전체
    switch_off_with_keys(page, 1, 0, whole=True)
    got = assert_panel_equals_numpy(page, text, {"layers": [1]})
    assert got["summary"].startswith("2층 전체 끄기:")
    # <s>, </s> 빼고 나누기: 보기만 바뀝니다. 표의 값 = numpy 의 같은 행에서 <s>, </s> 의 몫을 빼고 다시 나눈 값
    switch_off_with_keys(page, 2, 7)  # 3-8: 7-11 보다 앞 층이라 7-11 의 가중치가 바뀝니다
    check_ends_view(page, text, {"heads": [[2, 7]]})
    # 탐색기에서 고른 헤드를 가져옵니다: 탐색기의 층 -1, 헤드 +1 (7-11 → 6-12)
    page.locator(f"{ROOT} .head-explorer__step[data-what=layer][data-step='-']").click()
    page.locator(f"{ROOT} .head-explorer__step[data-what=head][data-step='+']").click()
    page.locator(f"{ROOT} .own-sentence__from").click()
    picked = page.evaluate("""() => ['layer', 'head', 'whole'].map(w => {
        const e = document.querySelector('.own-sentence__switch [data-what=' + w + ']');
        return e.type === 'checkbox' ? e.checked : e.value; })""")
    assert picked == ["5", "11", False]
    # 새 문장은 끈 결과를 지웁니다 (다른 문장의 숫자가 남지 않게)
    compute_text(page, "나는 학교에 간다")
    assert page.locator(f"{ROOT} .own-sentence__ablated").inner_text() == ""
    tab.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_switch_works_by_touch_on_a_phone_and_passes_axe(browser, server, scheme):
    from axe_playwright_python.sync_playwright import Axe

    with TOOL.tab(browser, server, has_touch=True, is_mobile=True) as phone:
        page = phone_with_result(phone, scheme)
        page.locator(f"{ROOT} .own-sentence__switch select[data-what=layer]").select_option(index=10)
        page.locator(f"{ROOT} .own-sentence__switch input[data-what=whole]").tap()
        assert page.locator(f"{ROOT} .own-sentence__switch select[data-what=head]").is_disabled()
        page.locator(f"{ROOT} .own-sentence__ablate").tap()
        page.wait_for_selector(f"{ROOT}[data-ablated=ok]", timeout=60_000)
        assert shown(page)["summary"].startswith("11층 전체 끄기:")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for sel in (".own-sentence__switch", ".own-sentence__moved", ".own-sentence__after"):
            box = page.locator(f"{ROOT} {sel}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
        small = page.evaluate("""() => [...document.querySelectorAll('.own-sentence :is(.own-sentence__switch, .own-sentence__ends) :is(button, select, label, input)')]
            .map(e => e.getBoundingClientRect()).filter(r => r.width < 24 || r.height < 24).length""")
        assert small == 0
        violations = Axe().run(page, context=ROOT).response["violations"]
        assert not violations, [
            (v["id"], [(n["target"], n.get("failureSummary")) for n in v["nodes"][:3]]) for v in violations
        ]
        phone.assert_clean()
