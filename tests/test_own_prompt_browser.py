"""여러분의 프롬프트로 (docs/own_prompt.md): 브라우저의 토크나이저·디코더가 numpy 와 같고, 화면이 약속을 지킵니다.

- gemma-tokenizer.js = 파이썬의 GemmaTokenizer: 프롬프트 글자로만 된 글 2,000개 넘게, 토큰 id 까지.
- gemma-worker.js = 사이트가 보내는 파일로 돌린 numpy 디코더 (gemma_browser.site_model): 테스트가 만든 글과 나머지 몫을 잰
  글에서, 행렬 곱의 두 길(WebAssembly SIMD, JavaScript) 모두. 프롬프트를 읽은 걸음과 KV 캐시로 이은 세 걸음마다
  토큰 id 가 같고, 로짓 차이 ≤ LOGITS_TOL, 후보 10개(차례까지)가 같고, 어텐션 가중치 차이 ≤ ATTENTION_TOL. 로짓 렌즈도.
- 화면: 후보 표의 확률 = sampling.probabilities (부분 어휘의 로짓으로), T = 0 으로 고르면 numpy 의 1등, 계속 쓰기와 멈추기,
  어텐션 줄과 <bos> 빼기, 로짓 렌즈 표. 받기 전에는 모델 파일을 받지 않고, 받을 크기를 적어 묻습니다.
- 잘못된 글(빈 글, 이모지, 한자, 영어만, 영어 섞임, 너무 긺): 한국어 알림 하나. 받지 못한 파일(거절, 404, 끊김, 다른 바이트),
  가득 찬 저장소(QuotaExceededError): 알림이 나오고 페이지는 그대로 씁니다.
- 저장: 다시 오면 받지 않고 열고, 서버가 꺼져도(네트워크 없이) 페이지와 계산이 됩니다. 375 px 손가락, 두 팔레트, axe.
"""

import functools
import json

import numpy as np
import pytest

from browser import B64_JS, ModelTool, assert_fits_phone_and_axe, broken_download, floats, go_offline
from support import static

pytestmark = pytest.mark.browser

PAGE = "own_prompt/"
ROOT = ".own-prompt"
MODELS = "models/gemma-ko/"
TOOL = ModelTool(PAGE, ROOT, MODELS, get=".own-prompt__get")
# 허용 차이 (페이지의 "더 알아보기: 브라우저의 계산은 numpy와 같나요?" 가 말하는 값). 잰 최댓값은 이 10분의 1 안팎입니다:
# numpy 도 float32 행렬 곱(BLAS, CPU 마다 더하는 차례가 다름)이라, 비트가 아니라 이만큼으로 견줍니다.
LOGITS_TOL = 1e-3
ATTENTION_TOL = 1e-4


@functools.cache
def site_files(site):
    return {p.name: p.read_bytes() for p in (site / MODELS).iterdir()}


@functools.cache
def reference(site):
    """빌드된 사이트가 보내는 파일만으로 만든 numpy 디코더 (gemma_browser.site_model)."""
    from gemma_browser import site_model

    return site_model(site_files(site))


@pytest.fixture(scope="module")
def model(built_site):
    """빌드된 사이트가 보내는 파일만으로 만든 numpy 디코더."""
    site, _ = built_site
    return reference(site)


def read_prompt(reader, text):
    """데스크톱 독자가 text 를 계산한 페이지."""
    return compute_text(reader.page, text)


def wait_ready(page):
    page.wait_for_function("() => document.querySelector('.own-prompt').dataset.state === 'ready'", timeout=120_000)


def compute_text(page, text, expect="ok"):
    page.fill(f"{ROOT} input[type=text]", text)
    page.locator(f"{ROOT} .own-prompt__run").click()
    if expect == "ok":
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=120_000)
        wait_ready(page)
    else:
        page.wait_for_selector(f"{ROOT}[data-error]", timeout=60_000)
    return page


@pytest.fixture(scope="module")
def reader(browser, server):
    """데스크톱 독자 한 사람: 모델을 한 번 받아 둔 탭 (모듈의 테스트가 함께 씁니다)."""
    with TOOL.downloaded(browser, server, timeout=180_000) as tab:
        wait_ready(tab.page)
        yield tab


# ---------------------------------------------------------------- 토크나이저 ----
TOKENIZE_JS = """async (texts) => {
  if (!window.__tok) {
    const manifest = await (await fetch('../models/gemma-ko/manifest.json')).json();
    const vocab = await (await fetch('../models/gemma-ko/vocab.json')).json();
    window.__tok = new GemmaTokenizer(vocab, manifest.config.max_prompt, manifest.prompt_chars);
  }
  return texts.map(t => { const r = window.__tok.encode(t);
    return r.error ? {error: r.error.kind, position: r.error.position || null, char: r.error.char || null, message: r.error.message}
                   : {ids: r.ids, tokens: r.tokens}; });
}"""


def test_tokenizer_equals_pythons_on_every_string(reader):
    """2,000개 넘는 글에서 gemma-tokenizer.js 의 토큰 id 와 조각 = 파이썬의 GemmaTokenizer (전체 어휘). 64토큰이 넘는 글은 알림."""
    from gemma_decoder import load_gemma
    from gemma_heldout import TEXTS
    from gemma_strings import EDGE_CASES, generated

    tok = load_gemma().tokenizer
    texts = EDGE_CASES + TEXTS + generated(2000, seed=2042)
    got = []
    for start in range(0, len(texts), 500):
        got += reader.page.evaluate(TOKENIZE_JS, texts[start : start + 500])
    long = 0
    for text, g in zip(texts, got, strict=True):
        ids = tok.encode(text)
        if len(ids) > 64:
            assert g["error"] == "too_long", text
            long += 1
            continue
        assert "error" not in g, (text, g)
        assert g["ids"] == ids and g["tokens"] == [tok.piece(i) for i in ids], text
    assert len(texts) - long >= 2000
    reader.assert_clean()


BAD = [
    ("", "empty", ["프롬프트를 써 주세요"]),
    ("   ", "empty", ["프롬프트를 써 주세요"]),
    ("웃는 얼굴 😀", "emoji", ["7번째 글자", "'😀'", "이모지"]),
    ("🇰🇷 국기", "emoji", ["1번째 글자", "이모지"]),
    ("오늘은 漢字 공부", "hanja", ["5번째 글자", "'漢'", "한자"]),
    ("The capital of France is", "latin", ["1번째 글자", "'T'", "영어로만 된 글"]),
    ("나는 cat 이 좋다", "latin", ["4번째 글자", "'c'", "영어 조각이 없습니다"]),
    ("카페 é", "latin", ["4번째 글자", "'é'"]),
    ("줄\t바꿈", "unsupported", ["2번째 글자", "읽지 못하는 글자"]),
    ("1" * 70, "too_long", ["토큰 71개", "64개"]),
]


def test_unsupported_characters_match_python(reader):
    """알림의 자리와 글자는 파이썬의 gemma_browser.unsupported 와 같습니다."""
    from gemma_browser import unsupported

    got = reader.page.evaluate(TOKENIZE_JS, [t for t, kind, _ in BAD if kind not in ("empty", "too_long")])
    for (text, kind, _), g in zip([b for b in BAD if b[1] not in ("empty", "too_long")], got, strict=True):
        assert g["error"] == kind and (g["position"], g["char"]) == unsupported(text), (text, g)


@pytest.mark.parametrize("text, kind, words", BAD)
def test_input_the_model_cannot_take_gets_a_message_and_nothing_drawn(reader, text, kind, words):
    page = reader.page
    compute_text(page, "나는 학교에")
    compute_text(page, text, expect="error")
    TOOL.assert_refused(page, kind, words)
    compute_text(page, "봄이 오면")  # 페이지는 그대로 씁니다
    assert page.locator(ROOT).get_attribute("data-error") is None
    reader.assert_clean()


# ---------------------------------------------------------------- 워커 = numpy ----
WORKER_JS = """async (wasm) => {
  const manifest = await (await fetch('../models/gemma-ko/manifest.json')).json();
  const w = new Worker('../assets/gemma-worker.js');
  window.__ask = msg => new Promise(res => { w.onmessage = e => { if (e.data.type !== 'progress' && e.data.type !== 'phase') res(e.data); };
                                             w.postMessage(msg); });
  const ready = await window.__ask({type: 'load', manifest, base: new URL('../models/gemma-ko/', location.href).href,
                                    cache: 'attention-gemma-ko', wasm});
  window.__vocab = ready.vocab;
  delete ready.vocab;
  return ready;
}"""
# 프롬프트마다: 읽은 걸음과, 로짓 1등을 골라 이은 세 걸음 (로짓·어텐션은 float32 바이트의 base64), 그리고 마지막 걸음의 렌즈
RUN_JS = (
    """async (texts) => { const out = [];
  """
    + B64_JS
    + """
  for (const text of texts) {
    const steps = [];
    let r = await window.__ask({type: 'start', id: 1, text});
    if (r.error) { out.push({error: r.error}); continue; }
    for (let k = 0; ; k++) {
      steps.push({ids: r.ids, logits: b64(r.logits), attention: b64(r.attention), kernel: r.kernel});
      if (k === 3) break;
      let best = 0; for (let i = 1; i < r.logits.length; i++) if (r.logits[i] > r.logits[best]) best = i;
      r = await window.__ask({type: 'next', id: 2, token: window.__vocab.ids[best]});
    }
    const lens = await window.__ask({type: 'lens', id: 3});
    out.push({steps, lens: b64(lens.probs)});
  }
  return out; }"""
)


def forward_texts(kernel):
    """테스트가 만든 글과 나머지 몫을 잰 글(페이지의 예가 아닌 것). JavaScript 의 길은 느려서 절반만."""
    from gemma_heldout import TEXTS
    from gemma_strings import generated

    texts = generated(8, seed=7, longest=24) + [t[:30] for t in TEXTS[5::30]] + ["ㅋㅋ 진짜?", "1, 2, 3, 4,"]
    return texts if kernel == "wasm" else texts[::2]


@pytest.fixture(scope="module")
def forward(reader):
    page, out = reader.page, {}
    for kernel in ("wasm", "js"):
        ready = page.evaluate(WORKER_JS, kernel == "wasm")
        assert ready["type"] == "ready" and ready["kernel"] == kernel, ready  # 이 chromium 은 SIMD 를 씁니다
        texts, got = forward_texts(kernel), []
        for chunk in range(0, len(texts), 3):
            got += page.evaluate(RUN_JS, texts[chunk : chunk + 3])
        out[kernel] = got
    return out


def numpy_steps(model, text):
    """numpy: 프롬프트를 읽고, 1등을 골라 세 걸음. 걸음마다 (ids, 부분 어휘의 로짓, 마지막 쿼리의 어텐션 (층, 헤드, 자리))."""
    from gemma_decoder import forward, new_cache

    ids = model.tokenizer.encode(text)
    cache, batch, out = new_cache(model, len(ids) + 3), [np.array(ids)], []
    for _ in range(4):
        (z,), (w,) = forward(model, batch, [cache])
        out.append((list(cache.ids), z[-1], np.stack([layer[:, -1] for layer in w])))
        batch = [np.array([int(model.params["E"].ids[np.argmax(z[-1])])])]
    return out, cache


@pytest.mark.parametrize("kernel", ["wasm", "js"])
def test_worker_equals_numpy_on_prompts_the_tests_make(reader, model, forward, kernel):
    """토큰 id 같음, 로짓 ≤ LOGITS_TOL, 후보 10개(차례까지) 같음, 어텐션 ≤ ATTENTION_TOL: 읽은 걸음과 KV 캐시로 이은 세 걸음."""
    worst_z = worst_w = 0.0
    texts = forward_texts(kernel)
    for text, got in zip(texts, forward[kernel], strict=True):
        assert "error" not in got, (text, got)
        want, _ = numpy_steps(model, text)
        for g, (ids, z, w) in zip(got["steps"], want, strict=True):
            assert g["kernel"] == kernel and g["ids"] == ids, text
            zg = floats(g["logits"])
            worst_z = max(worst_z, float(np.abs(zg - z).max()))
            assert list(np.argsort(-zg, kind="stable")[:10]) == list(np.argsort(-z, kind="stable")[:10]), text
            worst_w = max(worst_w, float(np.abs(floats(g["attention"]).reshape(w.shape) - w).max()))
    print(
        f"디코더 ({kernel}): 프롬프트 {len(texts)}개 × 4걸음, 로짓 최대 차이 {worst_z:.1e}, 어텐션 최대 차이 {worst_w:.1e}"
    )
    assert len(texts) >= 6 and worst_z <= LOGITS_TOL and worst_w <= ATTENTION_TOL
    reader.assert_clean()


@pytest.mark.parametrize("kernel", ["wasm", "js"])
def test_worker_logit_lens_equals_numpy(reader, model, forward, kernel):
    """렌즈: 층마다 부분 어휘의 확률 (T = 1) = numpy 의 잔차 흐름으로 계산한 것, 차이 ≤ 1e-4 (마지막 걸음의 자리)."""
    from gemma_decoder import new_cache, residual_stream, rms_norm

    worst = 0.0
    for text, got in zip(forward_texts(kernel), forward[kernel], strict=True):
        _, cache = numpy_steps(model, text)
        ids = cache.ids
        stream = residual_stream(model, [np.array(ids)], [new_cache(model, len(ids))])
        last = np.stack([h[-1] for h in stream[1:]])
        z = model.params["E"].logits(rms_norm(last, model.params["norm_out"], model.cfg["eps"])).astype(np.float64)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        worst = max(worst, float(np.abs(floats(got["lens"]).reshape(p.shape) - p).max()))
    assert worst <= 1e-4, worst


def test_the_two_paths_agree_and_differ(forward):
    """WebAssembly(float32 로 더함)와 JavaScript(float64)는 반올림만큼만 다릅니다. 비트까지 같다면 커널을 쓰지 않은 것입니다."""
    wasm = forward["wasm"][::2]
    differs = 0
    for a, b in zip(wasm, forward["js"], strict=True):
        for sa, sb in zip(a["steps"], b["steps"], strict=True):
            za, zb = floats(sa["logits"]), floats(sb["logits"])
            assert sa["ids"] == sb["ids"] and np.abs(za - zb).max() <= LOGITS_TOL
            differs += not np.array_equal(za, zb)
    assert differs > 0


# ---------------------------------------------------------------- 화면 ----
def set_knobs(page, T, k, p):
    page.evaluate(
        """([T, k, p]) => { for (const [name, v] of [['t', T], ['k', k], ['p', p]]) {
          const input = document.querySelector(`.own-prompt input[data-knob=${name}]`);
          input.value = String(v); input.dispatchEvent(new Event('input', {bubbles: true})); } }""",
        [T, k, p],
    )
    return json.loads(page.locator(f"{ROOT} .own-prompt__table").first.get_attribute("data-candidates"))


def test_candidates_follow_the_knobs_like_sampling_py(reader, model):
    """후보 표의 확률 = sampling.probabilities (부분 어휘의 로짓; 브라우저의 로짓과 numpy 의 로짓 차이만큼), 후보 id 도 같습니다."""
    import sampling

    text = "김치찌개를 맛있게 끓이려면"
    page = read_prompt(reader, text)
    (_, z, _), *_ = numpy_steps(model, text)[0]
    ids = model.params["E"].ids
    for T, k, p in [(1, 0, 1), (0.5, 0, 1), (1.5, 0, 0.9), (1, 5, 1), (0.8, 20, 0.5), (0, 0, 1), (2, 50, 0.05)]:
        shown = set_knobs(page, T, k, p)
        want = sampling.probabilities(z, temperature=T, top_k=k, top_p=p)
        top = np.argsort(-z, kind="stable")[:10]
        assert shown["ids"] == ids[top].tolist()
        assert np.abs(np.array(shown["probs"]) - want[top]).max() <= 2e-4, (T, k, p)
        assert abs(shown["rest"] - want[np.argsort(-z, kind="stable")[10:]].sum()) <= 2e-4
        assert shown["kept"] == np.count_nonzero(want)
        cells = page.evaluate("""() => [...document.querySelectorAll('.own-prompt__table tbody tr[data-id]')]
            .map(tr => tr.querySelector('[data-value=p] .own-prompt__num').textContent)""")
        for cell, value in zip(cells, want[top], strict=True):
            if value == 0:
                assert cell == "잘림"
            else:
                assert abs(float(cell.rstrip("%").lstrip("<")) - 100 * value) <= 0.05 + 0.02, (cell, value)
    set_knobs(page, 1, 0, 1)
    reader.assert_clean()


def test_choosing_with_t0_takes_numpys_first_token_and_keep_writing_stops(reader, model):
    text = "옛날 옛적에 한 마을에"
    page = read_prompt(reader, text)
    set_knobs(page, 0, 0, 1)
    steps, _ = numpy_steps(model, text)
    for k in range(2):
        page.locator(f"{ROOT} .own-prompt__choose").click()
        page.wait_for_function(
            "n => document.querySelectorAll('.own-prompt__tokens .own-prompt__new').length === n", arg=k + 1
        )
        wait_ready(page)
        assert int(page.locator(ROOT).get_attribute("data-chosen")) == steps[k + 1][0][-1]
    assert page.locator(f"{ROOT} .own-prompt__generated").text_content() == model.tokenizer.decode(steps[2][0][-2:])
    # 계속 쓰기: 몇 토큰 잇다가 멈추기
    page.locator(f"{ROOT} .own-prompt__auto").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.own-prompt__tokens .own-prompt__new').length >= 5", timeout=60_000
    )
    page.locator(f"{ROOT} .own-prompt__auto").click()
    wait_ready(page)
    page.wait_for_timeout(300)
    n = page.locator(f"{ROOT} .own-prompt__tokens .own-prompt__new").count()
    page.wait_for_timeout(1000)
    assert page.locator(f"{ROOT} .own-prompt__tokens .own-prompt__new").count() == n  # 멈췄습니다
    assert page.locator(f"{ROOT} .own-prompt__auto").get_attribute("aria-pressed") == "false"
    page.locator(f"{ROOT} .own-prompt__reset").click()
    wait_ready(page)
    assert page.locator(f"{ROOT} .own-prompt__tokens .own-prompt__new").count() == 0
    set_knobs(page, 1, 0, 1)
    reader.assert_clean()


def test_attention_strip_and_bos_switch_show_numpys_weights(reader, model):
    text = "고양이가 매트 위에"
    page = read_prompt(reader, text)
    (_, _, w), *_ = numpy_steps(model, text)[0]
    for layer, head in [(5, 0), (0, 3), (17, 2), (8, 1)]:
        page.select_option(f"{ROOT} select[data-pick=layer]", str(layer))
        page.select_option(f"{ROOT} select[data-pick=head]", str(head))
        for hide in (False, True):
            box = page.locator(f"{ROOT} input[type=checkbox]")
            if box.is_checked() != hide:
                box.click()
            shown = json.loads(page.locator(f"{ROOT} .own-prompt__strip").get_attribute("data-attention"))
            row = w[layer, head].astype(np.float64)
            want = np.concatenate([[0], row[1:] / (1 - row[0])]) if hide else row
            assert (shown["layer"], shown["head"], shown["hideBos"]) == (layer, head, hide)
            assert np.abs(np.array(shown["weights"]) - want).max() <= 2 * ATTENTION_TOL
            values = page.evaluate("() => [...document.querySelectorAll('.own-prompt__w')].map(e => e.textContent)")
            for j, (v, x) in enumerate(zip(values, want, strict=True)):
                if hide and j == 0:
                    assert v == "뺌"
                else:
                    assert abs(float(v) - x) <= 0.0005 + 2 * ATTENTION_TOL, (j, v, x)
            note = page.locator(f"{ROOT} .own-prompt__note").nth(1).inner_text()
            assert ("전역 층" in note) == (layer in model.cfg["global_layers"]) and "왼쪽만" in note
    reader.assert_clean()


def test_logit_lens_table_matches_numpy(reader, model):
    """렌즈 표: 층마다 1등 조각과 마지막 층의 1등이 가진 확률 = numpy (부분 어휘 안에서)."""
    from gemma_decoder import new_cache, residual_stream, rms_norm

    text = "봄이 오면 산에"
    page = read_prompt(reader, text)
    page.locator(f"{ROOT} .own-prompt__lens-button").click()
    page.wait_for_selector(f"{ROOT} .own-prompt__lens[data-lens]", timeout=60_000)
    lens = json.loads(page.locator(f"{ROOT} .own-prompt__lens").get_attribute("data-lens"))
    ids = model.tokenizer.encode(text)
    stream = residual_stream(model, [np.array(ids)], [new_cache(model, len(ids))])
    z = model.params["E"].logits(
        rms_norm(np.stack([h[-1] for h in stream[1:]]), model.params["norm_out"], model.cfg["eps"])
    )
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    vocab = model.params["E"].ids
    final = int(np.argmax(p[-1]))
    assert lens["eventual"] == int(vocab[final]) and len(lens["layers"]) == 18
    for row, q in zip(lens["layers"], p, strict=True):
        assert row["top"] == int(vocab[np.argmax(q)])
        assert abs(row["p"] - q.max()) <= 1e-4 and abs(row["eventual"] - q[final]) <= 1e-4
    assert "생각한" in page.locator(f"{ROOT} .own-prompt__lens").inner_text()
    reader.assert_clean()


def test_the_outside_share_is_stated_beside_the_candidates(reader, built_site):
    site, _ = built_site
    manifest = json.loads((site / MODELS / "manifest.json").read_text(encoding="utf-8"))
    o = manifest["outside"]
    note = reader.page.locator(f"{ROOT} .own-prompt__note").first.inner_text()
    assert (
        f"{manifest['vocab']['count']:,}" in note
        and f"{o['median'] * 100:.1f}%" in note
        and f"{o['worst'] * 100:.1f}%" in note
    )


# ---------------------------------------------------------------- 받기 전·받기 실패·저장소 ----
def test_computing_before_the_model_asks_with_the_size_and_checks_letters_first(browser, server, built_site):
    site, _ = built_site
    manifest = json.loads((site / MODELS / "manifest.json").read_text(encoding="utf-8"))
    size = sum(manifest["files"][f]["bytes"] for f in manifest["packs"]["ko"])
    assert size <= 80e6
    with TOOL.tab(browser, server) as tab:
        page = TOOL.open(tab)
        assert page.locator(f"{ROOT} .own-prompt__get").text_content() == f"모델 받기 (약 {size / 1e6:.0f} MB)"
        compute_text(page, "漢字", expect="error")  # 글자는 모델 없이도 봅니다
        assert page.locator(ROOT).get_attribute("data-error") == "hanja"
        page.fill(f"{ROOT} input[type=text]", "나는 학교에")
        page.locator(f"{ROOT} input[type=text]").press("Enter")
        page.wait_for_selector(f"{ROOT}[data-error=need-model]")
        page.wait_for_timeout(300)
        assert not TOOL.requests(tab)
        assert f"약 {size / 1e6:.0f} MB" in page.locator(f"{ROOT} .own-prompt__error").inner_text()
        assert "own-prompt__get" in page.evaluate("() => document.activeElement.className")
        page.keyboard.press("Enter")  # 키보드로 받기 단추를
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=180_000)
        assert page.evaluate("() => document.activeElement.id").endswith("-text")
        tab.assert_clean()


@pytest.mark.parametrize("how", ["refused", "missing", "cut", "corrupt"])
def test_a_failed_download_says_so_and_the_page_still_works(browser, server, built_site, how):
    site, _ = built_site
    broken = broken_download((site / MODELS / "blocks-2.bin").read_bytes(), how)
    with TOOL.tab(browser, server) as tab:
        page = TOOL.open(tab)
        page.evaluate("async () => { await caches.delete('attention-gemma-ko'); }")
        page.route(f"**/{MODELS}blocks-2.bin", broken)
        page.locator(f"{ROOT} .own-prompt__get").click()
        page.wait_for_selector(f"{ROOT}[data-error]", timeout=120_000)
        kind, message = TOOL.error(page)
        assert kind == {"refused": "network", "missing": "network", "cut": "cut", "corrupt": "corrupt"}[how]
        assert "blocks-2.bin" in message and "다시" in message
        assert (
            page.locator(f"{ROOT} .own-prompt__progress").is_hidden()
            and not page.locator(f"{ROOT} .own-prompt__table").count()
        )
        page.unroute(f"**/{MODELS}blocks-2.bin")
        page.locator(f"{ROOT} .own-prompt__get").click()
        page.wait_for_selector(f"{ROOT}[data-ready=yes][data-state=ready][data-kernel]", timeout=180_000)
        compute_text(page, "나는 학교에")
        assert page.locator(ROOT).get_attribute("data-error") is None
        own = [e for e in tab.errors if "status of 404" not in e and "ERR_CONNECTION_REFUSED" not in e]
        assert not own and not tab.foreign


# 워커 스크립트 앞에 붙여, 저장소가 가득 찬 것처럼 (QuotaExceededError) 합니다
FULL_DISK = (
    "Cache.prototype.put = function () { return Promise.reject(new DOMException('full', 'QuotaExceededError')); };\n"
)


def test_a_full_disk_still_computes_and_says_it_was_not_saved(browser, server, built_site):
    site, _ = built_site
    worker = (site / "assets" / "gemma-worker.js").read_text(encoding="utf-8")
    with TOOL.tab(browser, server) as tab:
        tab.context.add_init_script("navigator.storage.estimate = () => Promise.resolve({quota: 50e6, usage: 40e6});")
        page = TOOL.open(tab)
        page.evaluate("async () => { await caches.delete('attention-gemma-ko'); }")
        page.route(
            "**/assets/gemma-worker.js", lambda r: r.fulfill(body=FULL_DISK + worker, content_type="text/javascript")
        )
        page.locator(f"{ROOT} .own-prompt__get").click()
        page.wait_for_selector(f"{ROOT}[data-saved]", timeout=180_000)
        assert page.locator(ROOT).get_attribute("data-saved") == "no"
        note = page.locator(f"{ROOT} .own-prompt__model").inner_text()
        assert "저장 공간이 모자라" in note and "다시 받아야" in note, note
        compute_text(page, "나는 학교에")
        assert page.locator(f"{ROOT} .own-prompt__table tbody tr").count() == 11
        stored = page.evaluate("async () => (await (await caches.open('attention-gemma-ko')).keys()).length")
        assert stored == 0
        tab.assert_clean()


# ---------------------------------------------------------------- 저장과 네트워크 없이 ----
def test_second_visit_starts_at_once_and_works_offline(browser, built_site):
    site, _ = built_site
    httpd, origin = static.serve(site)
    tab = TOOL.tab(browser, origin)
    try:
        page = TOOL.open(tab)
        page.locator(f"{ROOT} .own-prompt__get").click()
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=180_000)
        page.wait_for_selector(f"{ROOT}[data-offline=yes]", timeout=30_000)
        first = len(TOOL.requests(tab))
        page = TOOL.open(tab)
        page.wait_for_selector(f"{ROOT}[data-state=ready][data-source=cache]", timeout=60_000)
        assert len(TOOL.requests(tab)) == first  # 다시 받지 않습니다
        # 네트워크 없이: 브라우저를 오프라인으로 두고, 서버도 끕니다. 페이지는 서비스 워커가, 모델 목록과 모델은 저장소가
        # 줍니다 ("여러분의 문장으로" 와 같은 길: tests/test_own_sentence_browser.py). 실패한 요청도 콘솔 오류도 없습니다:
        # 저장본으로 연 페이지(data-saved-copy)는 모델 목록을 네트워크에 먼저 묻지 않습니다 (model-tool.js 의 manifestOf).
        uncaught, failed, logged = go_offline(tab, page, httpd)
        page.reload()
        page.locator(ROOT).scroll_into_view_if_needed()
        page.wait_for_selector(f"{ROOT}[data-state=ready][data-source=cache]", timeout=60_000)
        assert page.locator("html").get_attribute("data-saved-copy") is not None
        page.wait_for_selector("html[data-search=unavailable]", state="attached", timeout=10_000)
        assert page.locator("html").get_attribute("data-search-failed") == "offline"
        page.wait_for_timeout(500)  # 늦게 오는 실패(작업자, 목록)도 모이게
        assert not failed and not logged and not tab.errors and not uncaught, (failed, logged, tab.errors, uncaught)
        compute_text(page, "어머니는 부엌에서")
        assert page.locator(f"{ROOT} .own-prompt__table tbody tr").count() == 11
        page.locator(f"{ROOT} .own-prompt__choose").click()
        page.wait_for_selector(f"{ROOT} .own-prompt__tokens .own-prompt__new")
    finally:
        tab.context.set_offline(False)
        tab.close()
        httpd.server_close()


# ---------------------------------------------------------------- 휴대전화, 팔레트, 손가락 ----
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tool_fits_a_phone_works_by_touch_and_passes_axe(browser, server, scheme):
    with TOOL.tab(browser, server, has_touch=True, is_mobile=True) as tab:
        page = TOOL.open(tab, scheme)
        page.locator(f"{ROOT} .own-prompt__get").tap()
        page.wait_for_selector(f"{ROOT}[data-result=ok]", timeout=180_000)
        wait_ready(page)
        page.locator(f"{ROOT} .own-prompt__choose").tap()
        page.wait_for_selector(f"{ROOT} .own-prompt__tokens .own-prompt__new")
        wait_ready(page)
        page.locator(f"{ROOT} .own-prompt__lens-button").tap()
        page.wait_for_selector(f"{ROOT} .own-prompt__lens[data-lens]", timeout=60_000)
        assert_fits_phone_and_axe(page, ROOT, [".own-prompt__table", ".own-prompt__strip", ".own-prompt__lens-table"])
        tab.assert_clean()


def test_no_model_file_before_the_button_and_no_third_party_requests(browser, server):
    TOOL.assert_no_model_before_the_button(browser, server, scripts="gemma-worker")
