"""다음 토큰 고르기의 도구(docs/assets/next-token.js)를 실제 브라우저(Debian chromium + Playwright)에서 확인합니다.

- 샘플링 수학: 모든 프롬프트·걸음에서 온도·top-k·top-p 의 여러 값(모서리와, 손잡이의 모든 자리에서 고른 60곳)으로
  JavaScript 의 probabilities 를 부르고, 같은 JSON 으로 numpy 의 sampling.from_summary 가 낸 값과 견줍니다 (float64 끼리,
  1e-12 안). from_summary 가 어휘 전체의 계산과 같다는 것은 tests/test_next_token.py 가 손잡이의 모든 자리에서 봅니다.
  어텐션 가중치를 푸는 decodeWeights 도 numpy(next_token_data.unpack_attention)와 비트까지 같습니다.
- 화면의 숫자: 손잡이를 움직인 뒤 표의 백분율, 쿼리 한 행의 가중치(그리고 <bos> 를 빼고 다시 나눈 값)가 numpy 와 같습니다.
- 쿼리보다 오른쪽 토큰은 "가려짐", 가중치 막대가 없습니다.
- 키보드만으로, 손가락(터치)만으로 모든 조작에 닿고, 375 px 화면에서 두 팔레트 모두 가로로 넘치지 않습니다.
- 데이터는 독자가 도구 가까이 내려올 때만 받고(목록과 첫 프롬프트), 다른 프롬프트는 고를 때 받습니다.
"""

import json

import numpy as np
import pytest

import sampling
from browser import PHONE, fetched, open_waiting
from next_token_data import unpack_attention

pytestmark = pytest.mark.browser

PAGE = "next_token/"
# 손잡이의 모서리와 가운데, 그리고 손잡이가 설 수 있는 모든 자리(온도 41칸 × top-k 51칸 × top-p 20칸)에서 고른 60곳
_CORNERS = [(T, k, p) for T in (0, 0.05, 0.5, 1, 1.35, 2) for k in (0, 1, 7, 50) for p in (0.05, 0.5, 0.9, 1)]
_R = np.random.default_rng(39)
_SAMPLE = [
    (
        round(0.05 * int(_R.integers(0, 41)), 2),
        int(_R.choice([0, int(_R.integers(1, 51))])),
        round(0.05 * int(_R.integers(1, 21)), 2),
    )
    for _ in range(60)
]
KNOBS = _CORNERS + _SAMPLE


def data(site, name):
    return json.loads((site / "data" / f"next_token_data-steps-{name}.json").read_text(encoding="utf-8"))


def percent(x):
    """next-token.js 의 percent 와 같은 글자 (파이썬의 반올림으로: 경계에서 마지막 자리가 다를 수 있어 따로 봅니다)."""
    return "<0.1%" if 0 < x < 0.0005 else f"{100 * x:.1f}%"


def close_text(shown, value, digits):
    """보인 글자가 value 를 digits 자리로 반올림한 것인지 (반올림의 경계에서는 마지막 자리 하나까지)."""
    if shown == "<0.1%":
        return 0 < value < 0.0005
    number = float(shown.rstrip("%")) / (100 if shown.endswith("%") else 1)
    scale = 100 if shown.endswith("%") else 1
    return abs(number * scale - value * scale) <= 10.0**-digits * 0.5 + 1e-9


def test_js_sampling_equals_numpy_for_every_step(desktop, built_site):
    site, _ = built_site
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    index = data(site, "index")
    checked = 0
    for j in range(len(index["prompts"])):
        part = data(site, f"p{j}")
        got = page.evaluate(
            """([steps, knobs]) => steps.map(s => knobs.map(([T, k, p]) => {
                 const r = window.nextToken.probabilities(s, T, k, p);
                 return [Array.from(r.cand), r.rest, r.count];
               }))""",
            [[{"logits": s["logits"], "tail": s["tail"]} for s in part["steps"]], KNOBS],
        )
        for s, per_step in zip(part["steps"], got, strict=True):
            for (T, k, p), (cand, rest, count) in zip(KNOBS, per_step, strict=True):
                want, want_rest, want_count = sampling.from_summary(s, T, k, p)
                np.testing.assert_allclose(cand, want, rtol=1e-12, atol=1e-15, err_msg=f"p{j} T={T} k={k} p={p}")
                assert abs(rest - want_rest) <= 1e-12 and count == want_count, (j, T, k, p)
                checked += 1
        weights = page.evaluate(
            "texts => texts.map(t => Array.from(window.nextToken.decodeWeights(t)))",
            [s["attention"] for s in part["steps"]] + [part["prefill"]],
        )
        for text, w in zip([s["attention"] for s in part["steps"]] + [part["prefill"]], weights, strict=True):
            assert np.array_equal(np.array(w), unpack_attention(text, index["layers"], index["heads"]).ravel())
    print(f"JavaScript 의 확률 {checked:,}번 = numpy (from_summary)")
    assert checked == 8 * 20 * len(KNOBS)
    desktop.assert_clean()


# --- 수 뒤의 조사: 수를 읽은 소리의 끝 받침을 따릅니다 ("0.879를", "0.123으로", "0.121로") ----------------------

DIGITS = "영일이삼사오육칠팔구"


def read_number(text):
    """수 → 한자어 수사로 읽은 소리 ("0.879" → "영점팔칠구", "1,200,000" → "백이십만"). JavaScript 와 따로 쓴 기준."""
    text = text.replace(",", "")
    whole, _, frac = text.partition(".")
    n = int(whole or "0")
    if n == 0:
        spoken = "영"
    else:
        spoken = ""
        for g, group in ((3, "조"), (2, "억"), (1, "만"), (0, "")):
            chunk = n // 10 ** (4 * g) % 10_000
            if chunk:
                for u, unit in ((3, "천"), (2, "백"), (1, "십"), (0, "")):
                    d = chunk // 10**u % 10
                    if d:
                        spoken += ("" if d == 1 and u else DIGITS[d]) + unit
                spoken += group
    return spoken + ("점" + "".join(DIGITS[int(d)] for d in frac) if frac else "")


def particle(number, after_consonant, after_vowel):
    """snippets/lib/particles.py 의 받침 규칙을 수를 읽은 소리에: "으로" 는 ㄹ 받침 뒤에 "로"."""
    from particles import RIEUL, final_consonant

    jong = final_consonant(read_number(number)[-1])
    consonant = jong != 0 and not (after_consonant == "으로" and jong == RIEUL)
    return after_consonant if consonant else after_vowel


def test_particles_after_numbers_follow_how_they_are_read(desktop):
    """3b36f65 은 "<bos>의 몫 0.879을" 처럼 수 뒤에 늘 같은 조사를 붙였습니다. 테스트가 만든 수 500개에서 JavaScript 의
    받침(numberFinal)과 조사(withParticle)가 파이썬으로 따로 읽은 소리와 같습니다."""
    from particles import final_consonant

    assert read_number("0.879") == "영점팔칠구" and read_number("1,200,000") == "백이십만" and read_number("10") == "십"
    r = np.random.default_rng(39)
    numbers = ["0", "0.000", "1", "10", "100", "1000", "10000", "100000", "100000000", "1000000000000", "1,024", "0.5"]
    numbers += [f"{x:.3f}" for x in r.random(300)] + [str(int(x)) for x in r.integers(0, 10**13, 150)]
    numbers += [f"{int(x):,}" for x in r.integers(0, 10**9, 40)]
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    got = page.evaluate(
        """ns => ns.map(n => [window.nextToken.numberFinal(n), window.nextToken.withParticle(n, ["을", "를"]),
                         window.nextToken.withParticle(n, ["으로", "로"])])""",
        numbers,
    )
    for n, (jong, obj, toward) in zip(numbers, got, strict=True):
        assert jong == final_consonant(read_number(n)[-1]), (n, read_number(n), jong)
        assert obj == n + particle(n, "을", "를") and toward == n + particle(n, "으로", "로"), (n, obj, toward)
    assert page.evaluate("window.nextToken.withParticle('0.879', ['을', '를'])") == "0.879를"
    desktop.assert_clean()


def test_focus_stays_on_a_query_chip_and_on_the_last_step_button(desktop):
    """3b36f65: Enter 로 쿼리 칩을 누르면 칩을 다시 그려 초점이 <body> 로, 마지막 걸음에서 ▶ 를 누르면 단추가 disabled 가
    되어 초점이 <body> 로 떨어졌습니다. 이제 칩은 그 자리에서 고치고, 끝의 단추는 aria-disabled 입니다."""
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    box = page.locator(".next-token")
    chip = box.locator(".next-token__chip").nth(1)
    chip.focus()
    page.keyboard.press("Enter")
    assert json.loads(box.get_attribute("data-attention"))["query"] == 1
    assert page.evaluate("document.activeElement.classList.contains('next-token__chip')")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    page.keyboard.press("Tab")  # 다음 칩으로 가서 다시 Enter
    page.keyboard.press("Enter")
    assert json.loads(box.get_attribute("data-attention"))["query"] == 2
    set_range(page, "input[id$=-step]", 19)
    nxt = box.locator("[aria-label='다음 걸음']")
    nxt.focus()
    page.keyboard.press("Enter")
    assert json.loads(box.get_attribute("data-state"))["step"] == 19
    assert nxt.get_attribute("aria-disabled") == "true"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "다음 걸음"
    page.keyboard.press("Enter")  # 끝에서 한 번 더: 그대로
    assert json.loads(box.get_attribute("data-state"))["step"] == 19
    prev = box.locator("[aria-label='이전 걸음']")
    prev.focus()
    page.keyboard.press("Enter")
    assert json.loads(box.get_attribute("data-state"))["step"] == 18 and nxt.get_attribute("aria-disabled") is None
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "이전 걸음"
    desktop.assert_clean()


# 띄어쓰기가 아닌 두 글자 사이에서 줄이 바뀐 곳 ("▁|학교"): 보이는 글자마다 줄의 가운데 높이를 재어 이웃과 견줍니다
# (화면 읽기 프로그램에만 읽히는 .next-token__sr 은 빼고).
MIDWORD = """root => {
    const chars = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (t.parentElement.closest('.next-token__sr')) continue;
      for (let i = 0; i < t.length; i++) {
        range.setStart(t, i); range.setEnd(t, i + 1);
        const r = range.getBoundingClientRect();
        chars.push([t.data[i], r.width > 0 ? Math.round(r.top + r.height / 2) : null]);
      }
    }
    const breaks = [];
    for (let i = 1; i < chars.length; i++) {
      const [a, ya] = chars[i - 1], [b, yb] = chars[i];
      if (/\\s/.test(a) || /\\s/.test(b) || ya === null || yb === null) continue;
      if (ya !== yb) breaks.push(chars.slice(Math.max(0, i - 4), i).map(c => c[0]).join('') + '|' +
                                 chars.slice(i, i + 4).map(c => c[0]).join(''));
    }
    return breaks;
  }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_quoted_pieces_stay_whole_on_a_phone(phone, scheme):
    """3b36f65: 375 px 에서 "가장 많이 본 키" 의 '▁학교' 가 ▁ 와 학교 사이에서 갈라졌습니다. 조각과 그 뒤의 글은 .glue 로
    묶어 한 줄에 둡니다: 모든 프롬프트, 여러 걸음·층·헤드에서 띄어쓰기가 아닌 곳에서 줄이 바뀐 곳이 없습니다."""
    page = phone.open(PAGE, scheme=scheme)
    phone.read_through(whole_page=False)
    box = page.locator(".next-token")
    checked = 0
    for prompt in range(8):
        page.select_option(".next-token select[id$=-prompt]", str(prompt))
        page.wait_for_function(
            f"() => JSON.parse(document.querySelector('.next-token').dataset.state || '{{}}').prompt === {prompt}"
        )
        for step, layer, head in ((1, 0, 0), (7, 5, 2), (20, 11, 3)):
            set_range(page, "input[id$=-step]", step)
            page.select_option("select[id$=-layer]", str(layer))
            page.select_option("select[id$=-head]", str(head))
            box.locator(".next-token__draw").click()
            for root in (".next-token__top", ".next-token__note", ".next-token__draws"):
                assert page.eval_on_selector(root, MIDWORD) == [], (prompt, step, layer, root)
                checked += 1
    assert page.locator(".next-token__top .glue").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    print(f"갈라진 조각 없음: {checked}곳")
    phone.assert_clean()


def set_range(page, selector, value):
    page.eval_on_selector(
        selector, "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
    )


def rows(page):
    return page.eval_on_selector_all(
        ".next-token__table tbody tr",
        "trs => trs.map(tr => [tr.getAttribute('data-id'), tr.querySelector('[data-value=raw], [data-value=raw-more],"
        " [data-value=raw-rest]').textContent, tr.querySelector('td:last-child').textContent])",
    )


@pytest.mark.parametrize("knobs", [(1, 0, 1), (0.5, 0, 0.9), (1.8, 0, 0.95), (1, 5, 1), (2, 0, 1), (0, 0, 1)])
def test_table_on_screen_equals_numpy(desktop, built_site, knobs):
    site, _ = built_site
    T, k, p = knobs
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    page.select_option(".next-token select[id$=-prompt]", "2")
    page.wait_for_function("() => JSON.parse(document.querySelector('.next-token').dataset.state || '{}').prompt === 2")
    set_range(page, "input[id$=-step]", 4)
    set_range(page, "input[id$=-t]", T)
    set_range(page, "input[id$=-k]", k)
    set_range(page, "input[id$=-p]", p)
    s = data(site, "p2")["steps"][3]
    cand, rest, count = sampling.from_summary(s, T, k, p)
    raw, raw_rest, _ = sampling.from_summary(s, 1, 0, 1)
    shown = rows(page)
    assert [int(r[0]) for r in shown[:10]] == s["ids"][:10]
    for i, (_, raw_text, now_text) in enumerate(shown[:10]):
        assert close_text(raw_text, raw[i], 1), (i, raw_text, raw[i])
        assert (now_text == "잘림") == (cand[i] == 0)
        if cand[i] > 0:
            assert close_text(now_text, cand[i], 1), (i, now_text, cand[i])
    more, rest_row = shown[10], shown[11]
    assert close_text(more[1], raw[10:].sum(), 1) and close_text(rest_row[1], raw_rest, 1)
    assert (rest_row[2] == "잘림") == (count == 0)
    if count:
        assert close_text(rest_row[2], rest, 1)
    state = json.loads(page.locator(".next-token").get_attribute("data-state"))
    np.testing.assert_allclose(state["cand"], cand[:10], rtol=1e-12, atol=1e-15)
    summary = page.locator(".next-token__summary").inner_text()
    assert f"후보 {np.count_nonzero(cand)}개" in summary
    desktop.assert_clean()


def test_attention_row_on_screen_equals_numpy_and_only_looks_left(desktop, built_site):
    site, _ = built_site
    index, part = data(site, "index"), data(site, "p0")
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    n = len(part["ids"])
    tokens = page.locator(".next-token__tokens").text_content()
    pieces = [part["pieces"][str(i)] for i in part["ids"]]
    assert tokens.startswith(f"프롬프트의 토큰 {n}개: ") and tokens.count(" · ") == n - 1
    assert all(p.lstrip("▁") in tokens for p in pieces), (tokens, pieces)
    set_range(page, "input[id$=-step]", 3)  # 셋째 걸음: 쿼리는 프롬프트 뒤 두 번째 토큰 (자리 n + 1)
    page.select_option("select[id$=-layer]", "11")
    page.select_option("select[id$=-head]", "2")
    q = n - 1 + 2
    w = unpack_attention(part["steps"][2]["attention"], index["layers"], index["heads"]).reshape(18, 4, q + 1)[11, 2]
    values = page.eval_on_selector_all(".next-token__w", "es => es.map(e => e.textContent)")
    total = n + index["steps"] - 1  # 프롬프트 + 읽은 토큰 19개
    assert len(values) == total
    assert all(close_text(values[i], w[i], 3) for i in range(q + 1)), (values[: q + 1], w)
    assert values[q + 1 :] == ["가려짐"] * (total - q - 1)  # 오른쪽은 모두 가려짐
    assert page.eval_on_selector_all(".next-token__chip.is-masked", "es => es.length") == total - q - 1
    note = page.locator(".next-token__note").inner_text()
    assert f"오른쪽 {total - q - 1}개는 인과 마스크로 가려져" in note and "12층 헤드 3" in note
    # <bos> 를 빼고 다시 나누기: 나머지를 (1 − <bos>) 로 나눈 값, 그리고 그렇게 했다고 적습니다
    page.locator("input[id$=-bos]").check()
    values = page.eval_on_selector_all(".next-token__w", "es => es.map(e => e.textContent)")
    assert values[0] == "뺌"
    renorm = w[1:] / w[1:].sum()  # 나머지의 합(= 1 − <bos>, 저장한 값의 반올림 안에서)으로 나눈 값
    assert abs(w[1:].sum() - (1 - w[0])) < 5e-4
    assert all(close_text(values[i], renorm[i - 1], 3) for i in range(1, q + 1))
    bos, rest = f"{w[0]:.3f}", f"{w[1:].sum():.3f}"
    assert (
        f"<bos>의 몫 {bos}{particle(bos, '을', '를')} 빼고, 나머지를 그 합 {rest}{particle(rest, '으로', '로')} 나눠"
        in page.locator(".next-token__note").inner_text()
    )
    # 프롬프트 안의 토큰을 누르면 그 자리가 쿼리: 프롬프트를 한 번에 읽을 때도 오른쪽은 0 입니다
    page.locator("input[id$=-bos]").uncheck()
    page.locator(".next-token__chip").nth(1).click()
    pre = unpack_attention(part["prefill"], 18, 4).reshape(18, 4, n, n)[11, 2, 1]
    values = page.eval_on_selector_all(".next-token__w", "es => es.map(e => e.textContent)")
    assert all(close_text(values[i], pre[i], 3) for i in range(2)) and values[2:] == ["가려짐"] * (total - 2)
    assert np.all(pre[2:] == 0)
    desktop.assert_clean()


def test_keyboard_alone_reaches_every_control(desktop):
    page = desktop.open(PAGE)
    desktop.read_through(whole_page=False)
    box = page.locator(".next-token")
    box.locator("select[id$=-prompt]").focus()
    controls = []
    for _ in range(40):
        el = page.evaluate(
            "() => { const e = document.activeElement; return e.closest('.next-token') ? "
            "(e.id || e.className) : null; }"
        )
        if el is None:
            break
        controls.append(el)
        page.keyboard.press("Tab")
    for needed in ("-prompt", "-step", "-t", "-k", "-p", "-layer", "-head", "-bos"):
        assert any(c.endswith(needed) for c in controls), (needed, controls)
    assert sum("next-token__chip" in c for c in controls) > 10  # 토큰 칩마다 Tab 자리
    box.locator("input[id$=-t]").focus()
    page.keyboard.press("ArrowRight")
    assert json.loads(box.get_attribute("data-state"))["T"] == 1.05
    box.locator("input[id$=-step]").focus()
    page.keyboard.press("End")
    assert json.loads(box.get_attribute("data-state"))["step"] == 19
    box.locator(".next-token__chip").nth(0).focus()
    page.keyboard.press("Enter")
    assert json.loads(box.get_attribute("data-attention"))["query"] == 0
    box.locator("input[id$=-bos]").focus()
    page.keyboard.press("Space")
    assert json.loads(box.get_attribute("data-attention"))["hideBos"] is True
    box.locator(".next-token__draw").focus()
    page.keyboard.press("Enter")
    assert box.locator(".next-token__draws").inner_text().startswith("뽑은 것:")
    desktop.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_touch_alone_and_fits_a_phone(touch, scheme):
    page = touch.open(PAGE, scheme=scheme)
    touch.read_through(whole_page=False)
    box = page.locator(".next-token")
    box.locator("[aria-label='다음 걸음']").tap()
    box.locator("[aria-label='다음 걸음']").tap()
    assert json.loads(box.get_attribute("data-state"))["step"] == 2
    box.locator("[aria-label='이전 걸음']").tap()
    assert json.loads(box.get_attribute("data-state"))["step"] == 1
    box.locator(".next-token__chip").nth(2).tap()
    assert json.loads(box.get_attribute("data-attention"))["query"] == 2
    box.locator("label[for$=-bos]").tap()
    assert json.loads(box.get_attribute("data-attention"))["hideBos"] is True
    box.locator(".next-token__draw").tap()
    assert box.locator(".next-token__draws").inner_text().startswith("뽑은 것:")
    small = page.eval_on_selector_all(
        ".next-token button, .next-token select, .next-token input, .next-token label[for$=-bos]",
        "es => es.filter(e => { const r = e.getBoundingClientRect(); return r.width < 24 || r.height < 24; })"
        ".map(e => e.outerHTML.slice(0, 80))",
    )
    assert not small, small
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    b = box.bounding_box()
    assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"]
    touch.assert_clean()


def test_data_comes_only_when_the_reader_scrolls_near(phone):
    files = ("next-token.js", "next_token_data*")
    page, box = open_waiting(phone, PAGE, ".next-token", files)
    phone.read_through(whole_page=False)
    assert sorted(fetched(page, *files)) == [
        "next-token.js",
        "next_token_data-steps-index.json",
        "next_token_data-steps-p0.json",
    ]
    page.select_option(".next-token select[id$=-prompt]", "5")
    page.wait_for_function("() => JSON.parse(document.querySelector('.next-token').dataset.state || '{}').prompt === 5")
    page.select_option(".next-token select[id$=-prompt]", "0")
    assert sorted(fetched(page, *files)) == [
        "next-token.js",
        "next_token_data-steps-index.json",
        "next_token_data-steps-p0.json",
        "next_token_data-steps-p5.json",
    ]
    phone.assert_clean()


def test_licence_files_are_on_the_site(built_site):
    site, _ = built_site
    notice = (site / "licenses" / "gemma" / "NOTICE.txt").read_text(encoding="utf-8")
    terms = (site / "licenses" / "gemma" / "GEMMA_TERMS.txt").read_text(encoding="utf-8")
    assert notice.startswith("Gemma is provided under and subject to the Gemma Terms of Use")
    assert "3.3 Generated Output" in terms
    assert not list(site.rglob("*.gguf")) and not list((site / "data").glob("next_token_data-*.bin"))
    html = (site / "next_token" / "index.html").read_text(encoding="utf-8")
    assert 'href="../licenses/gemma/GEMMA_TERMS.txt"' in html and 'href="../licenses/gemma/NOTICE.txt"' in html
