"""여러분의 문장으로 (docs/own_sentence.md): 브라우저의 토크나이저·인코더가 사이트의 파이썬과 같고, 화면이 약속을 지킵니다.

- e5-tokenizer.js = 사이트의 tokenizers 토크나이저: 사이트의 문장, 지원 글자로 만든 무작위 글, 정규화의 가장자리
  2,000개 넘게 (두 묶음), 토큰 id 와 글자까지. 지원하지 않는 글자는 파이썬과 같은 자리·글자를 알립니다.
- e5-worker.js 의 계산 = numpy 인코더 (bert_numpy.encode): 20개 넘는 문장에서 어텐션 가중치 차이 ≤ 1e-4,
  마지막 은닉 상태 코사인 ≥ 0.99999.
- 화면: 단추의 크기(MB)는 목록(manifest.json)의 파일 크기에서 오고, 받기 전에는 모델 파일을 받지 않습니다. 받는 동안
  진행 막대. 계산한 문장은 헤드 탐색기(144칸, ①–④)와 조사 표가 되고, 보이는 숫자는 numpy 의 값과 같습니다.
- 지원하지 않는 글자, 빈 글, 너무 많은 토큰, 받다가 실패하거나 끊긴 파일: 한국어 알림만 나오고 아무것도 그리지 않습니다.
- 모델을 받기 전에 계산하기: 받지 않고 크기를 알려 묻습니다. 받는 동안과 받은 뒤 초점, 파일 확인 중의 글, 남는 "저장했습니다".
- 조사 표: 받침이 맞지 않는 끝("사과")은 조사가 아니고, 표에 넣지 못한 말과 어미에 대한 주의가 표 아래에 있습니다.
- 저장: 다시 오면 받지 않고 바로 열고, 서버가 꺼져도(네트워크 없이) 페이지와 계산이 됩니다. 그때 검색은 쓸 수 없다고 적습니다.
"""

import functools
import json

import numpy as np
import pytest

from browser import B64_JS, ModelTool, assert_fits_phone_and_axe, broken_download, floats, go_offline
from conftest import SNIPPETS
from head_explorer_reference import DIGITS, compute, step_values
from sitebuild import snippets
from support import runs, static
from supported_strings import EDGE_CASES, generated

pytestmark = pytest.mark.browser

PAGE = "own_sentence/"
ROOT = ".own-sentence"
MODELS = "models/e5-ko/"
TOOL = ModelTool(PAGE, ROOT, MODELS, get=".own-sentence__get[data-pack=ko]")


@functools.cache
def site_sentences():
    from head_explorer import E5_SENTENCES
    from korean_model import SENTENCES

    return list(dict.fromkeys(SENTENCES + E5_SENTENCES))


@functools.cache
def tables():
    from e5_numpy import read_e5_file, weights_path

    return read_e5_file(weights_path())[3]


def compute_text(page, text, expect="ok"):
    """글 상자에 text 를 넣고 "계산하기" → 결과가 다 그려지거나(ok) 알림이 나올 때까지 기다립니다.

    탐색기는 격자 아래 부분이 화면 밖이면 한가할 때 그리고(data-pending), 작은 히트맵은 다음 화면 뒤에 그립니다(data-atlas):
    그것까지 기다립니다."""
    page.fill(f"{ROOT} input", text)
    page.locator(f"{ROOT} .own-sentence__run").click()
    page.wait_for_function("() => document.querySelector('.own-sentence').dataset.state === 'ready'", timeout=60_000)
    if expect == "ok":
        page.wait_for_selector(f"{ROOT}[data-result=ok] .head-explorer[data-state]:not([data-pending])")
        page.wait_for_selector(f"{ROOT} .head-explorer__grid[data-atlas=ok]")
    return page


@pytest.fixture(scope="module")
def reader(browser, server):
    """데스크톱 독자 한 사람: 모델을 한 번 받아 둔 탭 (모듈의 테스트가 함께 씁니다)."""
    with TOOL.downloaded(browser, server, timeout=120_000) as tab:
        yield tab


# 페이지 안에서 워커를 하나 더 띄웁니다 (화면의 도구와 같은 파일, 같은 저장소: 이미 받아 둔 파일을 씁니다).
# wasm=false 이면 워커는 WebAssembly 를 쓰지 않습니다: SIMD 가 없는 브라우저가 가는 길(JavaScript 의 linear)입니다.
WORKER_JS = """async ([packs, wasm]) => {
  const manifest = await (await fetch('../models/e5-ko/manifest.json')).json();
  const w = new Worker('../assets/e5-worker.js');
  window.__ask = msg => new Promise(res => { w.onmessage = e => { if (e.data.type !== 'progress' && e.data.type !== 'phase') res(e.data); };
                                             w.postMessage(msg); });
  return await window.__ask({type: 'load', manifest, base: new URL('../models/e5-ko/', location.href).href, packs,
                             cache: 'attention-e5-ko', wasm});
}"""


# ---------------------------------------------------------------- 토크나이저 ----
# 어휘 묶음마다 토크나이저를 한 번만 만듭니다 (화면의 도구도 토크나이저 하나로 여러 문장을 나눕니다).
TOKENIZE_JS = """async ([texts, packs, prefix]) => {
  const get = n => fetch('../models/e5-ko/' + n).then(r => r.json());
  window.__tokenizers = window.__tokenizers || {};
  if (!window.__tokenizers[packs]) {
    const made = new E5Tokenizer(await get('tokenizer.json'));
    for (const p of packs) made.addVocab(await get('vocab-' + p + '.json'));
    window.__tokenizers[packs] = made;
  }
  const t = window.__tokenizers[packs];
  return texts.map(x => { const r = t.encode(x, prefix);
    return r.error ? {error: r.error.kind, position: r.error.position || null, char: r.error.char || null,
                      message: r.error.message}
                   : {ids: r.ids, tokens: r.tokens, queries: r.queries}; });
}"""


def reference_tokens(pack, candidates):
    """사이트의 tokenizers 토크나이저(e5_numpy)가 나눈 기준: (글들, 접두어를 붙인 [id, 토큰], 앞 300개, 접두어 없이).

    빈 글(정규화하면 공백뿐)은 빼고 아래 테스트가 따로 봅니다. 이 토크나이저는 정규화 단계가 수백 개라 글 2천 개에
    8초쯤 걸립니다. 글과 토크나이저의 스니펫(e5_numpy 와 그것이 import 하는 것), 환경이 그대로면 지난 기준을 씁니다.
    """
    from e5_numpy import PREFIX, load_e5

    def tokenize():
        full = load_e5().tokenizer
        texts = [t for t in candidates if full.normalizer.normalize_str(t).strip()]
        plain = texts[:300]
        return [
            texts,
            [[e.ids, e.tokens] for e in full.encode_batch([PREFIX + t for t in texts])],
            plain,
            [[e.ids, e.tokens] for e in full.encode_batch(plain)],
        ]

    closure = snippets.content_hash({"e5_numpy"}, SNIPPETS)
    return runs.cached_value(f"e5-reference-tokens-{pack}", [closure, *candidates], tokenize, __name__)


def test_tokenizer_equals_the_sites_tokenizer_on_every_string(reader):
    """2,000개 넘는 글에서 e5-tokenizer.js 의 토큰 id 와 토큰 글자 = 사이트의 tokenizers 토크나이저 (접두어를 붙여)."""
    from browser_model import PACKS, unsupported

    page = reader.page
    page.add_script_tag(url=reader.origin + "assets/e5-tokenizer.js")
    total = 0
    for pack, count in (("ko", 1400), ("latin", 700)):
        candidates = site_sentences() + [t for t in EDGE_CASES if unsupported(t, tables(), PACKS[pack]) is None]
        candidates += generated(pack, count, seed=2023)
        texts, expect, plain, expect_plain = reference_tokens(pack, candidates)
        packs = ["ko"] if pack == "ko" else ["ko", "latin"]
        got = page.evaluate(TOKENIZE_JS, [texts, packs, True])
        for text, g, e in zip(texts, got, expect, strict=True):
            assert "error" not in g, (text, g)
            assert (g["ids"], g["tokens"]) == tuple(e), text
            assert g["queries"] == [4, len(e[0]) - 1]  # 문장의 조각: <s>, ▁que, ry, : 다음부터 </s> 앞까지
        # 접두어 없이도 (토크나이저만 따로 쓸 때)
        got = page.evaluate(TOKENIZE_JS, [plain, packs, False])
        for text, g, e in zip(plain, got, expect_plain, strict=True):
            assert (g["ids"], g["tokens"]) == tuple(e), text
        total += len(texts) + len(plain)
    assert total >= 2000
    print(f"토크나이저: 글 {total:,}개에서 토큰이 모두 같습니다")
    reader.assert_clean()


def test_unsupported_characters_are_named_like_python_does(reader):
    """지원하지 않는 글자: 파이썬의 unsupported() 와 같은 (자리, 글자). 영어 글자는 첫 묶음만 있으면 "latin" 입니다."""
    from browser_model import PACKS, unsupported

    page = reader.page
    page.add_script_tag(url=reader.origin + "assets/e5-tokenizer.js")
    bad = [
        "나는 cat",
        "漢字",
        "가\x00나",
        "가\ud800나",
        "😀 좋아",
        "ＡＢＣ",
        "가나다 é",
        "テスト",
        "가\u0301",
        "a",
        "한글 русский",
        "\u200d가",
        "가 \x7f",
    ]
    got = page.evaluate(TOKENIZE_JS, [bad, ["ko"], True])
    rejected = 0
    for text, g in zip(bad, got, strict=True):
        where = unsupported(text, tables(), PACKS["ko"])
        if where is None:  # 정규화하면 S 안으로 들어오는 글자 (예: 폭 없는 이음자 → 공백): 둘 다 받아들입니다
            assert "error" not in g, (text, g)
            continue
        rejected += 1
        pos, char = where
        assert (g["position"], g["char"]) == (pos, char), text
        assert f"{pos}번째 글자" in g["message"]
        latin = (
            char.isascii()
            and char.isalpha()
            or tables().get(char, char).isascii()
            and tables().get(char, char).isalpha()
        )
        assert g["error"] == ("latin" if latin else "unsupported"), (text, g)
    assert rejected >= 10
    got = page.evaluate(TOKENIZE_JS, [["", "   ", "\u3000\t", "\u2581"], ["ko"], True])
    assert all(g["error"] == "empty" for g in got)
    reader.assert_clean()


# ---------------------------------------------------------------- 계산 ----
# 배열은 float32 바이트를 base64 로 돌려받습니다 (수십만 개의 수를 JSON 으로 주고받으면 그것만으로 몇 초씩 걸립니다).
RUN_JS = (
    """async (texts) => { const out = [];
  """
    + B64_JS
    + """
  for (const text of texts) { const r = await window.__ask({type: 'run', id: 1, text});
    out.push(r.error ? {error: r.error} : {ids: r.ids, weights: b64(r.weights), hidden: b64(r.hidden),
                                           scores: b64(r.scores), q: b64(r.q), k: b64(r.k), kernel: r.kernel}); }
  return out; }"""
)


def forward_texts():
    return site_sentences()[:20] + generated("ko", 3, seed=7) + ["뷁 똠양꿍 ▁ 햏햏!", "１２３ 개의  공"]


@pytest.fixture(scope="module")
def forward(reader):
    """길마다 (WebAssembly SIMD 커널, JavaScript 의 linear) 워커 하나로 같은 문장들을 계산한 결과."""
    page, out = reader.page, {}
    for kernel in ("wasm", "js"):
        ready = page.evaluate(WORKER_JS, [["ko"], kernel == "wasm"])
        assert ready["type"] == "ready" and ready["kernel"] == kernel, ready  # 이 chromium 은 SIMD 를 씁니다
        texts, got = forward_texts(), []
        for chunk in range(0, len(texts), 6):
            got += page.evaluate(RUN_JS, texts[chunk : chunk + 6])
        out[kernel] = got
    return out


@pytest.mark.parametrize("kernel", ["wasm", "js"])
def test_forward_pass_equals_numpy(reader, forward, kernel):
    """20개 넘는 문장, 행렬 곱의 두 길 모두: 모든 층·헤드의 어텐션 가중치 차이 ≤ 1e-4, 마지막 은닉 상태 코사인 ≥ 0.99999,
    q·k 점수와 q, k 벡터도 numpy 의 float32 값과 반올림만큼만 다릅니다."""
    from bert_numpy import encode, tokenize
    from e5_numpy import PREFIX, load_e5

    model = load_e5()
    texts = forward_texts()
    worst_w, worst_cos, worst_s = 0.0, 1.0, 0.0
    for text, got in zip(texts, forward[kernel], strict=True):
        assert "error" not in got, (text, got)
        assert got["kernel"] == kernel
        ids, _ = tokenize(model, PREFIX + text)
        hidden, weights = encode(model, ids)
        n = len(ids)
        assert got["ids"] == ids.tolist()
        w = floats(got["weights"]).reshape(12, 12, n, n)
        worst_w = max(worst_w, float(np.abs(w - np.stack([x[0] for x in weights])).max()))
        h = floats(got["hidden"]).reshape(n, -1)
        cos = (h * hidden[0]).sum(-1) / np.linalg.norm(h, axis=-1) / np.linalg.norm(hidden[0], axis=-1)
        worst_cos = min(worst_cos, float(cos.min()))
        ref = compute(model, text, PREFIX)
        nq = ref["queries"][1] - ref["queries"][0]
        s = floats(got["scores"]).reshape(12, 12, nq, n)
        worst_s = max(worst_s, float(np.abs(s - ref["qk"]).max() / np.abs(ref["qk"]).max()))
        assert np.allclose(floats(got["q"]).reshape(ref["q"].shape), ref["q"], atol=1e-4, rtol=1e-4)
        assert np.allclose(floats(got["k"]).reshape(ref["k"].shape), ref["k"], atol=1e-4, rtol=1e-4)
    print(
        f"인코더 ({kernel}): 문장 {len(texts)}개, 가중치 최대 차이 {worst_w:.2e}, 은닉 상태 코사인 최솟값 {worst_cos:.8f}, "
        f"점수의 상대 차이 최대 {worst_s:.1e}"
    )
    assert len(texts) >= 20 and worst_w <= 1e-4 and worst_cos >= 0.99999 and worst_s < 1e-5
    reader.assert_clean()


def test_the_two_matrix_product_paths_agree(forward):
    """WebAssembly 커널(float32 로 더함)과 JavaScript 의 linear(float64 로 더함)는 같은 토큰에 반올림만큼만 다릅니다.
    같은 길끼리 비트까지 같다면 커널을 쓰지 않은 것이므로, 적어도 한 문장에서는 달라야 합니다."""
    worst_w, worst_cos, differs = 0.0, 1.0, 0
    for a, b in zip(forward["wasm"], forward["js"], strict=True):
        assert a["ids"] == b["ids"]
        n = len(a["ids"])
        wa, wb = floats(a["weights"]), floats(b["weights"])
        worst_w = max(worst_w, float(np.abs(wa - wb).max()))
        differs += not np.array_equal(wa, wb)
        ha, hb = floats(a["hidden"]).reshape(n, -1), floats(b["hidden"]).reshape(n, -1)
        cos = (ha * hb).sum(-1) / np.linalg.norm(ha, axis=-1) / np.linalg.norm(hb, axis=-1)
        worst_cos = min(worst_cos, float(cos.min()))
    print(
        f"두 길 (wasm ↔ js): 문장 {len(forward['js'])}개, 가중치 최대 차이 {worst_w:.2e}, 은닉 상태 코사인 최솟값 {worst_cos:.8f}"
    )
    assert worst_w <= 1e-4 and worst_cos >= 0.99999 and differs > 0


# ---------------------------------------------------------------- 화면 ----
def numbers(page, scope):
    return page.evaluate(
        """s => [...document.querySelectorAll(s + ' [data-value]')].map(e => [e.dataset.value, e.textContent])""", scope
    )


def close_to(text, value, digits, tol):
    """화면의 글자(소수 digits 자리)가 value 를 반올림한 것과 반올림 폭 + tol 안에서 같은지."""
    return abs(float(text) - value) <= 0.5 * 10**-digits + tol


def test_button_size_comes_from_the_manifest(reader, browser, server, built_site):
    site, _ = built_site
    manifest = json.loads((site / MODELS / "manifest.json").read_text(encoding="utf-8"))
    total = sum(manifest["files"][f]["bytes"] for f in manifest["packs"]["ko"])
    latin = sum(manifest["files"][f]["bytes"] for f in manifest["packs"]["latin"])
    page = reader.page
    html = page.evaluate("() => document.querySelector('.own-sentence__get[data-pack=latin]').textContent")
    assert html == f"영어 조각 받기 (약 {latin / 1e6:.0f} MB)"
    with TOOL.tab(browser, server) as tab:
        page = TOOL.open(tab)
        assert (
            page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").text_content()
            == f"모델 받기 (약 {total / 1e6:.0f} MB)"
        )
        assert total <= 16_000_000


def test_the_readers_sentence_feeds_the_head_explorer(reader):
    """계산한 문장: 144칸 격자, 헤드 7-11 에서 조사 행으로 시작, 네 단계와 ① 의 숫자가 numpy 의 값과 같습니다."""
    from e5_numpy import PREFIX, load_e5

    page = reader.page
    text = "할머니께서 시장에서 사과 두 봉지를 사 오셨다"
    compute_text(page, text)
    explorer = page.locator(f"{ROOT} .head-explorer")
    assert explorer.locator(".head-explorer__thumb").count() == 144
    ref = compute(load_e5(), text, PREFIX)
    s, l, h, i, j = (int(x) for x in explorer.get_attribute("data-state").split(","))
    assert (s, l, h) == (0, 6, 10) and ref["tokens"][i] == "께서"  # 첫 조사 "께서" 의 행
    q0 = ref["queries"][0]
    for layer, head, query, key in (
        (6, 10, i, j),
        (0, 0, q0, 0),
        (11, 11, ref["queries"][1] - 1, 5),
        (3, 7, q0 + 2, 1),
    ):
        page.evaluate(
            """([t, i, j]) => { const root = document.querySelector('.own-sentence .head-explorer');
            root.querySelectorAll('.head-explorer__thumb')[t].click();
            root.querySelector(`.head-explorer__col:not(.head-explorer__col--keys) button[data-token='${i}']`).click();
            root.querySelector(`.head-explorer__col--keys button[data-token='${j}']`).click(); }""",
            [layer * 12 + head, query, key],
        )
        page.wait_for_selector(f"{ROOT} .head-explorer__dot[data-qk=ok]")
        page.evaluate(
            "() => { const d = document.querySelector('.own-sentence .head-explorer__dot details'); d.open = true; }"
        )
        page.wait_for_selector(f"{ROOT} .head-explorer__table")
        at = (layer, head, query - q0)
        want = step_values(ref, layer, head, query, key)
        qv, kv = ref["q"][at].astype(np.float64), ref["k"][layer, head, key].astype(np.float64)
        prods = qv * kv
        order = sorted(range(32), key=lambda d: (-abs(prods[d]), d))[:3]
        want.update({"dot-sum": prods.sum(), "rest-sum": prods.sum() - prods[order].sum()})
        tops = {"q-top": qv[order], "k-top": kv[order], "prod-top": prods[order]}
        shown_tops = {name: [] for name in tops}
        checked = 0
        for name, shown in numbers(page, f"{ROOT} .head-explorer"):
            if name in want:
                assert close_to(shown, want[name], DIGITS[name], 1e-3), (name, shown, want[name])
                checked += 1
            elif name in tops:
                shown_tops[name].append(shown)
        for name, values in tops.items():
            assert all(close_to(t, v, 2, 1e-3) for t, v in zip(shown_tops[name], values, strict=True)), name
        assert checked >= 12
        table = page.evaluate("""() => [...document.querySelectorAll('.own-sentence .head-explorer__table tbody tr')].map(tr =>
            [...tr.querySelectorAll('[data-value]')].map(e => Number(e.textContent)))""")
        assert len(table) == 32
        got = np.array(table)
        assert np.all(np.abs(got - np.stack([qv, kv, prods], axis=1)) <= 0.005 + 1e-4)
        top = page.evaluate("""() => [...document.querySelectorAll('.own-sentence .head-explorer__top li')].map(e =>
            [Number(e.dataset.key), Number(e.querySelector('[data-value]').textContent)])""")
        row = ref["weight"][at]
        assert [k for k, _ in top] == list(np.argsort(-row, kind="stable")[:3])
        assert all(close_to(str(v), row[k], 3, 1e-4) for k, v in top)
    reader.assert_clean()


def test_particles_and_their_words_with_head_7_11(reader):
    """조사 표: 파이썬의 find_particles 와 같은 조사·붙은 말, 헤드 7-11 의 가중치 합은 numpy 의 값과 같습니다.
    "탐색기에서 보기" 를 누르면 탐색기가 헤드 7-11 의 그 조사 행으로 갑니다."""
    from e5_numpy import PREFIX, load_e5
    from particles import HEAD, find_particles, particle_weights

    page = reader.page
    for text in [
        "고양이가 매트 위에 앉았다",
        "동생이 어제 공원에서 새 자전거를 탔어요.",
        "비가 그치자 아이들이 밖으로 뛰어나갔다.",
    ]:
        compute_text(page, text)
        ref = compute(load_e5(), text, PREFIX)
        found = find_particles(ref["tokens"], *ref["queries"])
        assert found
        full = np.zeros((12, 12, len(ref["tokens"]), len(ref["tokens"])))
        full[:, :, ref["queries"][0] : ref["queries"][1]] = ref["weight"]
        weights = particle_weights(full, found)
        rows = page.evaluate("""() => [...document.querySelectorAll('.own-sentence__table tbody tr')].map(tr =>
            [Number(tr.dataset.particle), tr.dataset.host.split(' ').map(Number), tr.cells[1].textContent,
             tr.querySelector('[data-value=host-weight]').textContent])""")
        assert [(p, h) for p, h, _, _ in rows] == [(i, host) for i, host in found]
        for (_, host, word, shown), w in zip(rows, weights):
            assert word == "".join(ref["tokens"][j] for j in host).replace("\u2581", "")
            assert close_to(shown, w, 3, 1e-4), (text, shown, w)
        last = page.locator(f"{ROOT} .own-sentence__show").last
        last.click()
        state = [int(x) for x in page.locator(f"{ROOT} .head-explorer").get_attribute("data-state").split(",")]
        assert state[1:4] == [*HEAD, found[-1][0]]
    reader.assert_clean()


@pytest.mark.parametrize(
    "text, kind, words",
    [
        ("나는 cat 이 좋다", "latin", ["4번째 글자", "'c'", "영어 조각"]),
        ("오늘은 漢字 공부", "unsupported", ["5번째 글자", "'漢'"]),
        ("   ", "empty", ["문장을 입력해 주세요"]),
        ("가" * 70, "too_long", ["토큰이", "64개"]),
        ("웃는 얼굴 😀", "unsupported", ["7번째 글자", "'😀'"]),
    ],
)
def test_input_the_model_cannot_take_gets_a_message_and_nothing_drawn(reader, text, kind, words):
    page = reader.page
    compute_text(page, "나는 학교에 간다")
    compute_text(page, text, expect="error")
    TOOL.assert_refused(page, kind, words)  # 앞의 결과도 남기지 않습니다
    assert not page.locator(f"{ROOT} .head-explorer, {ROOT} .own-sentence__table").count()
    reader.assert_clean()


# 키 열에 보이는 토큰: 화면 읽기 프로그램용 글("띄어쓰기")과 ▁ 하나뿐인 토큰의 설명 글은 빼고 읽습니다.
SHOWN_TOKENS_JS = """() => [...document.querySelectorAll('.own-sentence .head-explorer__col--keys button')].map(b => {
  const c = b.cloneNode(true); c.querySelectorAll('.head-explorer__sr, .head-explorer__alone').forEach(e => e.remove());
  return c.textContent; })"""


def test_latin_letters_come_in_a_second_download(reader):
    """영어 글자가 든 문장: 알림에 둘째 묶음 단추가 나오고, 받은 뒤에는 사이트의 토크나이저와 같은 토큰으로 계산합니다."""
    from e5_numpy import PREFIX, load_e5

    page = reader.page
    text = "나는 GPU 로 AI 모델을 돌린다"
    compute_text(page, text, expect="error")
    button = page.locator(f"{ROOT} .own-sentence__get[data-pack=latin]")
    assert button.is_visible()
    # 알림은 단추가 어디 있는지 맞게 말합니다: 단추는 알림보다 위에 있습니다
    message = page.locator(f"{ROOT} .own-sentence__error")
    assert "위의" in message.inner_text() and "아래" not in message.inner_text()
    assert button.bounding_box()["y"] + button.bounding_box()["height"] <= message.bounding_box()["y"]
    before = len(TOOL.requests(reader))
    button.click()
    page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
    new = [u.rsplit("/", 1)[1] for u in TOOL.requests(reader)[before:]]
    assert sorted(new) == ["embed-latin.bin", "vocab-latin.json"]  # 첫 묶음은 다시 받지 않습니다
    tokens = page.evaluate(SHOWN_TOKENS_JS)
    assert tokens == load_e5().tokenizer.encode(PREFIX + text).tokens
    assert not button.is_visible()
    reader.assert_clean()


# ---------------------------------------------------------------- 받기 실패 ----
@pytest.mark.parametrize("how", ["missing", "cut", "corrupt"])
def test_a_failed_or_cut_download_says_so_and_draws_nothing(browser, server, built_site, how):
    """encoder.bin 을 받지 못하거나(404), 중간에 끊기거나, 다른 바이트가 오면: 알림 한 줄, 그림 없음, 저장도 없음.
    다시 누르면 제대로 받아 계산합니다."""
    site, _ = built_site
    broken = broken_download((site / MODELS / "encoder.bin").read_bytes(), how)
    with TOOL.tab(browser, server) as tab:
        page = TOOL.open(tab)
        page.route("**/models/e5-ko/encoder.bin", broken)
        page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").click()
        page.wait_for_selector(f"{ROOT}[data-error]", timeout=60_000)
        kind, message = TOOL.error(page)
        assert kind == {"missing": "network", "cut": "cut", "corrupt": "corrupt"}[how]
        assert "encoder.bin" in message and ("다시" in message)
        assert not page.locator(f"{ROOT} .head-explorer").count()
        assert page.locator(f"{ROOT} .own-sentence__progress").is_hidden()
        stored = page.evaluate("""async () => { const c = await caches.open('attention-e5-ko');
            return (await c.keys()).map(r => r.url.split('/').pop()); }""")
        assert "encoder.bin" not in stored
        page.unroute("**/models/e5-ko/encoder.bin")
        page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").click()
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
        assert page.locator(ROOT).get_attribute("data-error") is None
        own = [e for e in tab.errors if "status of 404" not in e]
        assert not own and not tab.foreign


# ---------------------------------------------------------------- 저장과 네트워크 없이 ----
@pytest.fixture
def own_server(built_site):
    """이 테스트만 쓰는 서버: 끄면 정말로 네트워크가 없는 것과 같습니다."""
    site, _ = built_site
    httpd, url = static.serve(site)
    yield httpd, url
    httpd.server_close()


def test_second_visit_starts_at_once_and_works_offline(browser, own_server):
    httpd, origin = own_server
    tab = TOOL.tab(browser, origin)
    try:
        page = TOOL.open(tab)
        page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").click()
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
        page.wait_for_selector(f"{ROOT}[data-offline=yes]")
        first = len(TOOL.requests(tab))
        assert first == 5  # 토크나이저, 층, 어휘, 단어 임베딩, 행렬 곱 커널 (이 chromium 은 WebAssembly SIMD 를 씁니다)
        assert page.locator(ROOT).get_attribute("data-kernel") == "wasm"

        # 다시 오면: 단추 없이 저장본으로 바로 열고 계산합니다. 모델 파일은 한 번도 더 받지 않습니다.
        page = TOOL.open(tab)
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=60_000)
        assert len(TOOL.requests(tab)) == first
        assert page.locator(ROOT).get_attribute("data-source") == "cache"
        assert page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").is_hidden()

        # 네트워크 없이: 브라우저를 오프라인으로 두고, 서버도 끕니다. 페이지는 서비스 워커가, 모델은 저장소가 줍니다.
        uncaught, failed, logged = go_offline(tab, page, httpd)
        page.reload()
        page.locator(ROOT).scroll_into_view_if_needed()
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=60_000)
        assert page.locator(ROOT).get_attribute("data-source") == "cache"
        # 검색: 이 페이지의 서비스 워커는 검색 작업자의 파일(lunr)을 줄 수 없어 검색이 되지 않습니다. 저장본으로 연 페이지는
        # 색인도 작업자도 부르지 않고(overrides/main.html), 검색 창이 그렇다고 말합니다 (docs/assets/site.js).
        page.wait_for_selector("html[data-search=unavailable]", state="attached", timeout=10_000)
        assert page.locator("html").get_attribute("data-search-failed") == "offline"
        assert (
            "저장본으로 연 페이지라 지금은 검색할 수 없습니다" in page.locator(".md-search-result__meta").text_content()
        )
        page.wait_for_timeout(500)  # 늦게 오는 실패(작업자, 목록)도 모이게
        # issue 39 §8: 실패한 요청이 없습니다 (전에는 검색 색인 두 번, 모델 목록 한 번)
        assert not failed and not logged and not tab.errors and not uncaught, (failed, logged, tab.errors, uncaught)
        compute_text(page, "비가 그치자 아이들이 밖으로 뛰어나갔다.")
        assert page.locator(f"{ROOT} .own-sentence__table tbody tr").count() >= 2
        compute_text(page, "漢", expect="error")
        assert page.locator(ROOT).get_attribute("data-error") == "unsupported"
    finally:
        tab.context.set_offline(False)
        tab.close()


# ---------------------------------------------------------------- 받기 전·받는 동안·받은 뒤 ----
# 알림 줄(status)이 바뀔 때마다 [글, 진행 막대가 값을 가졌는지(끝을 모르는 모양이 아닌지), 초점이 있는 요소] 를 모읍니다.
RECORD_STATUS_JS = """() => { window.__statuses = [];
  const root = document.querySelector('.own-sentence'), status = root.querySelector('.own-sentence__status');
  const bar = root.querySelector('.own-sentence__progress');
  new MutationObserver(() => window.__statuses.push([status.textContent, bar.hasAttribute('value'),
    document.activeElement === document.body ? 'body' : document.activeElement.className]))
    .observe(status, {childList: true, characterData: true, subtree: true}); }"""
FOCUSED_JS = "() => document.activeElement === document.body ? 'body' : document.activeElement.className"


def test_computing_before_the_model_asks_first_and_loading_keeps_the_reader_in_place(browser, server, built_site):
    """모델을 받기 전에 Enter(계산하기): 모델 파일을 받지 않고, 받을 크기(목록의 바이트)를 적어 묻고, 초점을 받기 단추로.
    키보드로 그 단추를 누르면: 받는 동안 초점은 그 단추에 (<body> 로 떨어지지 않음), 받기가 끝나고 파일을 확인·준비하는
    동안은 그렇다고 적고(막대는 끝을 모르는 모양), 받은 뒤 단추가 사라지면 초점은 글 상자로. 받은 뒤 그 문장을 바로 계산하고,
    "저장했습니다" 는 계산한 뒤에도 남습니다."""
    site, _ = built_site
    manifest = json.loads((site / MODELS / "manifest.json").read_text(encoding="utf-8"))
    size = f"약 {sum(manifest['files'][f]['bytes'] for f in manifest['packs']['ko']) / 1e6:.0f} MB"
    with TOOL.tab(browser, server) as tab:
        page = TOOL.open(tab)
        text = "할머니께서 시장에서 사과 두 봉지를 사 오셨다"
        page.fill(f"{ROOT} input", text)
        page.locator(f"{ROOT} input").press("Enter")
        page.wait_for_selector(f"{ROOT}[data-error=need-model]")
        page.wait_for_timeout(500)
        assert not TOOL.requests(tab)  # 묻기만 하고 받지 않습니다
        message = page.locator(f"{ROOT} .own-sentence__error").inner_text()
        assert size in message and "모델 받기" in message, message
        assert "own-sentence__get" in page.evaluate(FOCUSED_JS)
        page.evaluate(RECORD_STATUS_JS)
        page.keyboard.press("Enter")  # 초점이 있는 받기 단추를 키보드로
        page.wait_for_function("() => document.querySelector('.own-sentence').dataset.state === 'loading'")
        assert "own-sentence__get" in page.evaluate(FOCUSED_JS)
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
        page.wait_for_timeout(1500)  # "저장했습니다" 가 1초 안에 덮이던 것
        assert page.evaluate(FOCUSED_JS) != "body" and page.evaluate("() => document.activeElement.id").endswith(
            "-text"
        )
        note = page.locator(f"{ROOT} .own-sentence__model")
        assert note.is_visible() and "저장했습니다" in note.inner_text()
        assert page.locator(f"{ROOT} .own-sentence__summary").is_visible()  # 기다리던 문장을 계산했습니다
        statuses = page.evaluate("() => window.__statuses")
        last_download = max(k for k, (t, _, _) in enumerate(statuses) if t.startswith("받는 중"))
        after = statuses[last_download + 1 :]
        assert after and ("확인하고 있습니다" in after[0][0] or "준비하고 있습니다" in after[0][0]), statuses
        assert any("준비하고 있습니다" in t and not valued for t, valued, _ in after), after
        assert all(focus != "body" for _, _, focus in statuses), statuses
        tab.assert_clean()


def test_particle_table_skips_particle_shaped_noun_endings_and_names_what_it_leaves_out(reader):
    """받침이 맞지 않는 끝("사과"의 "과")은 조사로 보지 않습니다. 토크나이저가 조사를 앞 글자와 한 조각으로 묶은 말
    (반장은, 물을, 나는)과 문장부호가 가운데 든 말(3,500원에)은 표 아래에 "표에 없는 말" 로 적습니다 (파이썬의 unsplit_words
    와 같은 말). 어미를 조사로 볼 수 있다는 주의("먹은")는 표 바로 아래에 있습니다."""
    from e5_numpy import PREFIX, load_e5
    from particles import find_particles, unsplit_words

    page = reader.page
    tok = load_e5().tokenizer
    for text in [
        "2024년 3월 15일에 사과 12개를 3,500원에 샀다.",
        "반장은 물을 마셨고 나는 밥을 먹은 뒤 잤다.",
        "비가 그치자 아이들이 밖으로 뛰어나갔다.",
    ]:
        compute_text(page, text)
        tokens = tok.encode(PREFIX + text).tokens
        found, unsplit = find_particles(tokens, 4, len(tokens) - 1), unsplit_words(tokens, 4, len(tokens) - 1)
        rows = page.evaluate(
            "() => [...document.querySelectorAll('.own-sentence__table tbody tr')].map(tr => Number(tr.dataset.particle))"
        )
        assert rows == [i for i, _ in found], text
        note = page.locator(f"{ROOT} .own-sentence__unsplit")
        if unsplit:
            assert note.get_attribute("data-words").split(" ") == [w for w, _ in unsplit]
            assert "표에 없는 말" in note.inner_text()
        else:
            assert not note.count()
        caveat = page.evaluate("""() => { const t = document.querySelector('.own-sentence__table');
            return t ? t.nextElementSibling.textContent : null; }""")
        assert (caveat is None) == (not found) and (caveat is None or '"먹은"' in caveat), caveat
        if text.startswith("2024"):
            assert not rows and "찾지 못했습니다" in page.locator(f"{ROOT} .own-sentence__particles").inner_text()
            assert [w for w, _ in unsplit] == ["15일에", "12개를", "3,500원에"]
        if text.startswith("반장은"):
            assert [tokens[i] for i in rows] == ["을", "은"] and [w for w, _ in unsplit] == ["반장은", "물을", "나는"]
    reader.assert_clean()


def test_a_new_sentence_reuses_the_explorer(reader):
    """새 문장은 탐색기를 새로 만들지 않고 문장 목록만 바꿉니다 (칸 144개는 같은 요소): 문장을 받은 뒤 주 스레드의 일이
    긴 작업 하나가 되지 않게. 목록의 첫 문장이 새 문장이고, 앞 문장도 남습니다."""
    page = reader.page
    compute_text(page, "고양이가 매트 위에 앉았다")
    page.evaluate("() => { document.querySelector('.own-sentence .head-explorer__thumb').__kept = true; }")
    compute_text(page, "나는 학교에 간다")
    assert page.evaluate("() => document.querySelector('.own-sentence .head-explorer__thumb').__kept === true")
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.own-sentence .head-explorer__sentences label')].map(l => l.textContent)"
    )
    assert labels[:2] == ["나는 학교에 간다", "고양이가 매트 위에 앉았다"]
    reader.assert_clean()


# ---------------------------------------------------------------- 휴대전화, 팔레트, 손가락 ----
def phone_with_result(tab, scheme):
    """375 px 휴대전화(손가락) tab 에서 모델 받기를 누르고 첫 결과(예문)가 다 그려진 페이지."""
    page = TOOL.open(tab, scheme)
    page.locator(f"{ROOT} .own-sentence__get[data-pack=ko]").tap()
    page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
    page.wait_for_selector(f"{ROOT} .head-explorer__grid[data-atlas=ok]")
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_result_fits_a_phone_and_passes_axe_in_both_palettes(browser, server, scheme):
    with TOOL.tab(browser, server, has_touch=True, is_mobile=True) as tab:
        page = phone_with_result(tab, scheme)
        assert_fits_phone_and_axe(
            page,
            ROOT,
            [".own-sentence__table", ".head-explorer__grid", ".head-explorer__view"],
            controls="button, input",
            skip=".head-explorer__dot",
        )
        # 손가락: 단추로 헤드를 옮깁니다 (7-11 에서 층 -1, 헤드 +1 → 6-12)
        page.locator(f"{ROOT} .head-explorer__step[data-what=layer][data-step='-']").tap()
        page.locator(f"{ROOT} .head-explorer__step[data-what=head][data-step='+']").tap()
        state = page.locator(f"{ROOT} .head-explorer").get_attribute("data-state").split(",")
        assert state[1:3] == ["5", "11"]
        assert page.locator(f"{ROOT} .head-explorer__step[data-what=head][data-step='+']").is_disabled()
        tab.assert_clean()


def test_no_model_file_before_the_button_and_no_third_party_requests(browser, server):
    """페이지를 끝까지 읽어도 모델 파일은 받지 않고(목록 manifest.json 만), 다른 출처로 가는 요청은 하나도 없습니다."""
    TOOL.assert_no_model_before_the_button(browser, server, scripts=r"e5-(worker|tokenizer)\.js")
