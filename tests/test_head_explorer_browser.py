"""헤드 탐색기(docs/assets/head-explorer.js)를 실제 브라우저(Debian chromium + Playwright)에서 확인합니다.

- 보이는 숫자 = numpy 의 값 (보이는 자리까지): 모든 문장·층·헤드·쿼리·키에 대해 탐색기의 계산 함수를,
  그리고 여러 문장·층·헤드에서 화면에 실제로 적힌 글자를 (① 을 풀어 보인 q, k, 곱, 합과 32줄 표까지).
  기준값은 모델을 새로 돌려 얻습니다 (tests/head_explorer_reference.py: 탐색기의 JSON 을 읽지 않습니다).
- q·k 파일은 그 층을 볼 때 한 번만 받고, 받지 못하면 ① 자리에 짧은 글만 남고 나머지는 그대로 됩니다.
- 키보드만으로, 손가락(터치)만으로 모든 조작 요소에 닿습니다.
- 콘솔 오류와 다른 출처로 가는 요청이 없고, 375 px 화면에서 가로로 넘치지 않습니다.
- JavaScript 가 꺼져 있으면 탐색기는 비어서 숨고 정적 그림이 남습니다.
"""

import io
import math
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from browser import PHONE, fetched, open_waiting, without_javascript
from head_explorer_reference import DIGITS, expected_dot, expected_steps, expected_top, reference, shown

pytestmark = pytest.mark.browser

PAGES = {"minilm": "real_model/", "e5": "korean_model/"}
QUERY = ".head-explorer__col:not(.head-explorer__col--keys) button"
KEY = ".head-explorer__col--keys button"

# 탐색기 스크립트의 계산 함수(rowSteps, fixed)로 모든 문장·층·헤드·쿼리·키의 숫자 글자를 만듭니다.
ALL_NUMBERS_JS = """async ([src, digits]) => {
  const data = await (await fetch(src)).json();
  const {decodeFloat32, rowSteps, fixed} = window.headExplorer;
  return data.sentences.map(sent => {
    const scores = decodeFloat32(sent.scores), n = sent.tokens.length;
    const per = {qk: [], scaled: [], shifted: [], exp: [], weight: [], max: [], sum: []};
    for (let r = 0; r < scores.length / n; r++) {
      const st = rowSteps(Array.from(scores.subarray(r * n, (r + 1) * n)), data.d_head);
      for (let j = 0; j < n; j++) {
        for (const name of ["qk", "scaled", "shifted", "exp", "weight"]) {
          const values = {qk: st.qk, scaled: st.scaled, shifted: st.shifted, exp: st.exps, weight: st.weights}[name];
          per[name].push(fixed(values[j], digits[name]));
        }
      }
      per.max.push(fixed(st.max, digits.max));
      per.sum.push(fixed(st.sum, digits.sum));
    }
    // 글자 수십만 개를 따로따로 돌려주면 주고받는 데 몇 초가 걸립니다: 이름마다 한 줄로 이어서 돌려줍니다.
    return Object.fromEntries(Object.entries(per).map(([name, v]) => [name, v.join(" ")]));
  });
}"""


def state(page):
    return [int(x) for x in page.locator(".head-explorer").get_attribute("data-state").split(",")]


# 탐색기의 데이터(q, k)는 빌드 프로세스가, 기준값은 이 테스트 프로세스가 float32 행렬 곱으로 따로 계산합니다. 둘은
# 같은 기계에서도 BLAS 의 스레드 수만 바꾸면 마지막 비트가 달라집니다 (e5 에서 1 → 2 스레드: q·k 7.6e-5, exp 9.9e-6,
# 가중치 2.7e-6 — exp 는 보이는 마지막 자리 0.0001 의 10분의 1). 그래서 numpy 의 값이 반올림의 경계에 붙어 있으면
# 마지막 자리가 하나 다를 수 있습니다. 허용은 그것뿐입니다: 보인 값은 numpy 의 값에서 마지막 자리 하나 안이고, 그렇게
# 다른 곳은 천에 하나 아래입니다 (계산이 틀렸다면 어긋남이 넓게 퍼집니다). 반올림 규칙 자체는 test_rounding_is_pythons 가 봅니다.
BOUNDARY_SHARE = 1e-3


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_every_number_the_explorer_computes_equals_numpy(desktop, which):
    """모든 문장·층·헤드·쿼리·키에서: 탐색기가 계산해 적을 글자 = numpy 의 값을 같은 자리로 반올림한 글자."""
    page = desktop.open(PAGES[which])
    desktop.read_through(whole_page=False)
    src = page.locator(".head-explorer").get_attribute("data-src")
    shown_js = page.evaluate(ALL_NUMBERS_JS, [src, DIGITS])
    checked, boundary = 0, 0
    for js, ref in zip(shown_js, reference(which), strict=True):
        for name, values in js.items():
            exact = ref[name].ravel().astype(np.float64)
            expect = np.array([shown(x, DIGITS[name]) for x in exact])
            got = np.array(values.split(" "))
            assert got.size == expect.size, (which, ref["text"], name)
            bad = np.flatnonzero(got != expect)  # 반올림의 경계에서 마지막 자리가 다른 곳 (위의 BOUNDARY_SHARE)
            wrong = bad[np.abs(got[bad].astype(np.float64) - exact[bad]) > 10.0 ** -DIGITS[name]]
            assert not wrong.size, (
                f"{which} '{ref['text']}' {name}: {wrong.size}/{got.size} 곳이 다릅니다, "
                f"예: {[(int(i), got[i], expect[i], exact[i]) for i in wrong[:5]]}"
            )
            checked, boundary = checked + got.size, boundary + bad.size
    print(f"{which}: 숫자 {checked:,}개가 numpy 와 같습니다 (반올림 경계에서 마지막 자리가 다른 것 {boundary}개)")
    assert boundary <= checked * BOUNDARY_SHARE
    desktop.assert_clean()


def test_rounding_is_pythons(desktop):
    """탐색기의 fixed(x, 자리) = 파이썬 format(x, ".{자리}f") (0 으로 반올림된 음수만 부호 없이).

    toFixed 는 이진수 값이 정확히 한가운데(0.125, 47.125 …)이면 0 에서 먼 쪽으로 가지만 파이썬(numpy 의
    글자)은 짝수 쪽으로 갑니다. float32 점수는 2진 분수라서 이런 값이 실제로 나올 수 있습니다.
    """
    rng = np.random.default_rng(14)
    values = [
        0.125,
        0.375,
        0.625,
        -0.125,
        2.5,
        3.5,
        1.0625,
        47.125,
        47.375,
        255.875,
        0.0625,
        0.1875,
        0.0005,
        -0.0004,
        -0.004,
        0.0,
        1e-9,
        0.9995,
        0.99951,
        123456.785,
        2**-15,
        0.00049999999999999,
    ]
    values += list(rng.normal(0, 50, 400)) + list(rng.random(300)) + list(np.float32(rng.normal(0, 100, 300)))
    values = [float(v) for v in values]
    page = desktop.open(PAGES["minilm"])
    desktop.read_through(whole_page=False)
    for digits in (0, 2, 3, 4):
        got = page.evaluate("([xs, d]) => xs.map(x => window.headExplorer.fixed(x, d))", [values, digits])
        assert got == [shown(v, digits) for v in values], digits
    desktop.assert_clean()


def cases(which):
    """문장마다 세 가지 (층, 헤드, 쿼리, 키): 첫 헤드, 마지막 헤드, 가운데 헤드와 여러 자리의 쿼리·키."""
    out = []
    for s, ref in enumerate(reference(which)):
        layers, heads = ref["qk"].shape[:2]
        (q0, q1), n = ref["queries"], len(ref["tokens"])
        for l, h in ((0, 0), (layers - 1, heads - 1), (layers // 2, 5 + s)):
            out.append((s, l, h, q0 + (s + l + h) % (q1 - q0), (3 * h + s + 1) % n))
    return out


# 문장·헤드·쿼리·키를 차례로 누르고(click) 화면에 적힌 숫자를 읽습니다. 누르는 방법 자체는 아래의 키보드·터치
# 테스트가 확인하므로, 여기서는 한 번의 evaluate 로 눌러 브라우저와 주고받는 횟수를 줄입니다.
# ②–④ 는 누르자마자 읽고(q·k 파일을 기다리지 않고 보인다는 것), ① 의 풀이는 그 층의 q·k 파일이 온 뒤에 읽습니다
# (32줄 표는 펼쳐서 읽습니다).
PICK_AND_READ_JS = """async ([s, t, i, j]) => {
  const root = document.querySelector('.head-explorer');
  root.querySelectorAll('.head-explorer__sentences input')[s].click();
  root.querySelectorAll('.head-explorer__thumb')[t].click();
  root.querySelector(`.head-explorer__col:not(.head-explorer__col--keys) button[data-token='${i}']`).click();
  root.querySelector(`.head-explorer__col--keys button[data-token='${j}']`).click();
  const read = sel => [...root.querySelectorAll(sel)].map(e => [e.dataset.value, e.textContent]);
  const steps = read('.head-explorer__steps [data-value]:not(.head-explorer__dot *)');
  for (let k = 0; k < 200 && root.querySelector('.head-explorer__dot').dataset.qk === 'loading'; k++) {
    await new Promise(r => setTimeout(r, 25));
  }
  const dot = root.querySelector('.head-explorer__dot');
  const all = dot.querySelector('details');  // 32줄 표는 펼칠 때 만들어집니다
  if (all && !all.open) { all.open = true; await new Promise(r => setTimeout(r, 0)); }
  return {state: root.dataset.state, steps, qk: dot.dataset.qk, dot: read('.head-explorer__dot [data-value]'),
          dims: [...dot.querySelectorAll('.head-explorer__dims li')].map(e => Number(e.dataset.dim)),
          rows: [...dot.querySelectorAll('tbody tr')].map(e => Number(e.dataset.dim)),
          top: [...root.querySelectorAll('.head-explorer__top li')].map(e =>
                 [Number(e.dataset.key), e.querySelector('[data-value=top-weight]').textContent])};
}"""


def grouped(pairs):
    out = {}
    for name, text in pairs:
        out.setdefault(name, []).append(text)
    return out


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_numbers_on_screen_equal_numpy(desktop, which):
    """여러 문장·층·헤드에서 고른 대로 화면에 적힌 네 단계의 숫자와 '가장 큰 키' 의 가중치가 numpy 와 같습니다.

    ① 의 풀이도: 곱이 큰 세 차원의 q × k = 곱, 나머지 29개의 합, 32개의 합, 펼치면 보이는 표의 32줄 모두.
    """
    page = desktop.open(PAGES[which])
    desktop.read_through(whole_page=False)
    refs = reference(which)
    heads = refs[0]["qk"].shape[1]
    for s, l, h, i, j in cases(which):
        shown_now = page.evaluate(PICK_AND_READ_JS, [s, l * heads + h, i, j])
        where = (which, s, l, h, i, j)
        assert shown_now["state"] == f"{s},{l},{h},{i},{j}"
        assert grouped(shown_now["steps"]) == expected_steps(refs[s], l, h, i, j), where
        assert [tuple(t) for t in shown_now["top"]] == expected_top(refs[s], l, h, i), (which, s, l, h, i)
        assert shown_now["qk"] == "ok", where
        expect = expected_dot(refs[s], l, h, i, j)
        assert shown_now["dims"] == expect.pop("dims"), where
        assert shown_now["rows"] == list(range(1, refs[s]["d_head"] + 1))
        assert grouped(shown_now["dot"]) == expect, where
    desktop.assert_clean()


# 탐색기의 상태(data-state)가 바뀔 때마다 그때 초점이 있는 요소를 적어 둡니다: 키를 여러 번 누른 뒤 한 번에 읽습니다.
RECORD_JS = """() => { const root = document.querySelector('.head-explorer'); window.__seen = [];
  new MutationObserver(() => { const e = document.activeElement;
    window.__seen.push([root.dataset.state, e.dataset.token === undefined ? null : Number(e.dataset.token),
                        e.getAttribute('aria-checked')]); })
    .observe(root, {attributes: true, attributeFilter: ['data-state']}); }"""


def seen(page):
    """RECORD_JS 가 적은 것을 읽고 비웁니다: [(상태, 초점 요소의 토큰 자리, 초점 요소의 aria-checked)]."""
    out = page.evaluate("() => window.__seen.splice(0)")
    return [([int(x) for x in st.split(",")], token, checked) for st, token, checked in out]


def focused(page):
    return page.evaluate("""() => { const e = document.activeElement;
        return {inside: !!e.closest('.head-explorer'), cls: e.className, type: e.type || '',
                token: e.dataset.token === undefined ? null : Number(e.dataset.token),
                checked: e.getAttribute('aria-checked') || String(e.checked),
                outline: getComputedStyle(e).outlineStyle}; }""")


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_keyboard_alone_reaches_every_control(desktop, which):
    """Tab 으로 문장, 헤드 격자, 층·헤드 단추, 쿼리, 키에 차례로 닿고, 화살표 키로 모든 문장·쿼리·키와 헤드 격자의
    모든 줄·칸을 고릅니다."""
    page = desktop.open(PAGES[which])
    desktop.read_through(whole_page=False)
    ref = reference(which)
    layers, heads = ref[0]["qk"].shape[:2]
    # 탐색기 절의 제목 링크(¶)에서 시작해 키보드만 씁니다.
    page.evaluate("""() => { const d = document.querySelector('.head-explorer');
        let h = d.previousElementSibling; while (h && h.tagName !== 'H2') h = h.previousElementSibling;
        h.querySelector('.headerlink').focus(); }""")
    for _ in range(10):
        page.keyboard.press("Tab")
        if focused(page)["inside"]:
            break
    if which == "e5":  # 한국어 장의 탐색기는 맨 위에 "여러분의 문장으로" 링크가 있습니다
        assert page.evaluate("() => document.activeElement.getAttribute('href')") == "../own_sentence/"
        page.keyboard.press("Tab")
    f = focused(page)
    assert f["type"] == "radio" and f["checked"] == "true" and f["outline"] != "none"

    # 문장: 아래 화살표로 모든 문장을 차례로
    first = state(page)[0]
    for k in range(1, len(ref) + 1):
        page.keyboard.press("ArrowDown")
        assert state(page)[0] == (first + k) % len(ref)
    # 헤드 격자: Tab 한 번. 위 화살표와 Home 으로 (1층, 1번)에 간 뒤, 오른쪽 화살표로 첫 줄의 모든 헤드,
    # 아래 화살표로 마지막 칸의 모든 층을 지납니다 (모든 줄과 모든 칸). 한 번 누를 때마다 꼭 한 칸씩 옮깁니다.
    page.keyboard.press("Tab")
    f = focused(page)
    assert "head-explorer__thumb" in f["cls"] and f["checked"] == "true" and f["outline"] != "none"
    for _ in range(layers):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Home")
    assert state(page)[1:3] == [0, 0]
    page.evaluate(RECORD_JS)
    for _ in range(heads - 1):
        page.keyboard.press("ArrowRight")
    for _ in range(layers - 1):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # 마지막 줄에서는 머뭅니다 (상태가 바뀌지 않습니다)
    path = [[0, h] for h in range(1, heads)] + [[l, heads - 1] for l in range(1, layers)]
    assert [(st[1:3], checked) for st, _, checked in seen(page)] == [(lh, "true") for lh in path]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowLeft")  # 줄의 처음에서 왼쪽은 앞 줄의 끝으로
    page.keyboard.press("End")
    assert [st[1:3] for st, _, _ in seen(page)] == [[layers - 1, 0], [layers - 2, heads - 1], [layers - 2, heads - 1]]
    assert page.eval_on_selector_all(".head-explorer__thumb[tabindex='0']", "els => els.length") == 1
    # 층·헤드를 하나씩 옮기는 단추: Tab 으로 닿고 Enter 로 누릅니다 (마지막 층·헤드에서는 "+" 가 꺼져 있어 건너뜁니다)
    before = state(page)[1:3]
    page.keyboard.press("Tab")
    f = page.evaluate("() => [document.activeElement.dataset.what, document.activeElement.dataset.step]")
    assert f == ["layer", "-"], f
    page.keyboard.press("Enter")
    assert state(page)[1:3] == [before[0] - 1, before[1]]
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.what") in ("layer", "head")
    # 층·헤드 단추와 (모델 페이지의) 헤드 끄기 상자를 지납니다 (끄기는 tests/test_explorer_ablation_browser.py)
    while page.evaluate("() => !!document.activeElement.closest('.head-explorer__steppers, .head-explorer__switch')"):
        page.keyboard.press("Tab")
    # 쿼리: 단추를 지나 Tab 한 번, 아래 화살표로 모든 쿼리를
    f = focused(page)
    s = state(page)[0]
    q0, q1 = ref[s]["queries"]
    assert f["token"] is not None and f["checked"] == "true" and f["outline"] != "none"
    page.keyboard.press("Home")
    assert state(page)[3] == q0
    seen(page)
    for i in range(q0 + 1, q1):
        page.keyboard.press("ArrowDown")
    assert [(st[3], token, checked) for st, token, checked in seen(page)] == [(i, i, "true") for i in range(q0 + 1, q1)]
    # 키: Tab 한 번, 모든 키를
    page.keyboard.press("Tab")
    page.keyboard.press("Home")
    assert state(page)[4] == 0 and focused(page)["outline"] != "none"
    seen(page)
    n = len(ref[s]["tokens"])
    for j in range(1, n):
        page.keyboard.press("ArrowDown")
    assert [(st[4], token, checked) for st, token, checked in seen(page)] == [(j, j, "true") for j in range(1, n)]
    # 고른 대로 숫자가 바뀝니다
    _, l, h, i, j = state(page)
    weight = page.locator(".head-explorer__steps [data-value=weight]").text_content()
    assert weight == expected_steps(ref[s], l, h, i, j)["weight"][0]
    # ① 의 "32개 곱 모두 보기": Tab 한 번으로 닿고 Enter 로 펼치고 접습니다 (그 층의 q·k 파일이 온 뒤)
    page.wait_for_selector(".head-explorer__dot[data-qk=ok]")
    page.keyboard.press("Tab")
    f = focused(page)
    assert "head-explorer" not in f["cls"] and f["inside"] and f["outline"] != "none"
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    table = page.locator(".head-explorer__table")
    assert not table.is_visible()
    # details 의 toggle 이벤트(표를 채우는 곳)는 키를 누른 뒤 따로 오는 일이라, 보일 때까지 기다립니다.
    page.keyboard.press("Enter")
    expect(table).to_be_visible()
    assert table.locator("tbody tr").count() == ref[s]["d_head"]
    page.keyboard.press("Enter")
    expect(table).to_be_hidden()
    # 덫이 없습니다: Tab 은 탐색기 밖으로, Shift+Tab 두 번이면 키 열로 돌아옵니다
    page.keyboard.press("Tab")
    assert not focused(page)["inside"]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page)["token"] == j
    desktop.assert_clean()


def test_touch_alone_reaches_every_control(touch):
    """모든 문장, 모든 층과 모든 헤드 칸, 모든 쿼리와 키를 눌러서(tap) 고르고, 화면은 가로로 넘치지 않습니다.

    두 페이지는 같은 스크립트와 CSS 를 쓰므로, 칸이 가장 많고(144) 키로만 나오는 줄이 있는 한국어 페이지에서 봅니다.
    """
    which = "e5"
    page = touch.open(PAGES[which])
    touch.read_through(whole_page=False)
    ref = reference(which)
    layers, heads = ref[0]["qk"].shape[:2]
    thumbs = page.locator(".head-explorer__thumb")
    assert thumbs.count() == layers * heads  # 층·헤드 수는 데이터에서 옵니다 (72 또는 144)
    labels = page.locator(".head-explorer__sentences label")
    short = min(range(len(ref)), key=lambda s: len(ref[s]["tokens"]))  # 쿼리와 키는 가장 짧은 문장에서 모두 누릅니다
    for s in [s for s in range(len(ref)) if s != short] + [short]:
        labels.nth(s).tap()
        assert state(page)[0] == s
    page.evaluate(RECORD_JS)
    # 모든 줄(층)과 모든 칸(헤드)을 한 번 이상: (l, l mod 헤드 수) 와 (h mod 층 수, h)
    picked = sorted({(l, l % heads) for l in range(layers)} | {(h % layers, h) for h in range(heads)})
    for l, h in picked:
        thumbs.nth(l * heads + h).tap()
    assert [st[1:3] for st, _, _ in seen(page)] == [[l, h] for l, h in picked]
    assert page.eval_on_selector_all(".head-explorer__thumb[aria-checked=true]", "els => els.length") == 1
    q0, q1 = ref[short]["queries"]
    for i in range(q0, q1):
        page.locator(f"{QUERY}[data-token='{i}']").tap()
    n = len(ref[short]["tokens"])
    for j in range(n):
        page.locator(f"{KEY}[data-token='{j}']").tap()
    states = [st for st, _, _ in seen(page)]
    assert [st[3] for st in states[: q1 - q0]] == list(range(q0, q1))
    assert [st[4] for st in states[q1 - q0 :]] == list(range(n))
    _, l, h, i, j = state(page)
    assert (
        page.locator(".head-explorer__steps [data-value=weight]").text_content()
        == expected_steps(ref[short], l, h, i, j)["weight"][0]
    )
    # ① 의 "32개 곱 모두 보기" 는 손가락으로 펼치고 접습니다. 누를 자리는 높이 24 px 이상입니다.
    page.wait_for_selector(".head-explorer__dot[data-qk=ok]")
    summary = page.locator(".head-explorer__all summary")
    table = page.locator(".head-explorer__table")
    assert summary.bounding_box()["height"] >= 24 and summary.bounding_box()["width"] >= 24
    summary.tap()
    expect(table).to_be_visible()
    summary.tap()
    expect(table).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator(".head-explorer").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    touch.assert_clean()


@pytest.mark.parametrize("which", ["minilm", "e5"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dot_panel_fits_a_phone_in_both_palettes(touch, which, scheme):
    """375 px 화면에서 ① 의 띠와 펼친 32줄 표가 가로로 넘치지 않고, 띠의 칸은 팔레트의 색으로 칠해집니다."""
    page = touch.open(PAGES[which], scheme=scheme)
    touch.read_through(whole_page=False)
    page.locator(".head-explorer__steps").scroll_into_view_if_needed()
    page.wait_for_selector(".head-explorer__dot[data-qk=ok]")
    page.locator(".head-explorer__all summary").tap()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for sel in (".head-explorer__strip", ".head-explorer__table", ".head-explorer__all"):
        box = page.locator(sel).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
    cells = page.locator(".head-explorer__cell")
    assert cells.count() == 3 * reference(which)[0]["d_head"]
    # 가장 큰 칸은 배경과 다른 색이고, 양수·음수 칸은 서로 다른 색입니다 (색은 팔레트가 정합니다)
    colours = page.evaluate("""() => { const bg = getComputedStyle(document.body).backgroundColor;
        const c = [...document.querySelectorAll('.head-explorer__cell')].map(e =>
          [e.classList.contains('is-neg'), e.style.getPropertyValue('--t'), getComputedStyle(e).backgroundColor]);
        return {bg, full: c.filter(x => x[1] === '100.0%').map(x => [x[0], x[2]])}; }""")
    assert colours["full"] and all(c != colours["bg"] for _, c in colours["full"])
    assert len({c for _, c in colours["full"]}) == len({neg for neg, _ in colours["full"]})
    assert page.locator(".head-explorer__strip").get_attribute("aria-hidden") == "true"
    touch.assert_clean()


def test_data_comes_only_when_the_reader_scrolls_near(phone):
    """페이지를 열 때는 탐색기의 스크립트도 데이터도 받지 않고 (안내 글만), 탐색기 가까이 내려가면 받아서 그립니다."""
    files = ("head-explorer.js", "head_explorer-e5*")
    page, explorer = open_waiting(phone, PAGES["e5"], ".head-explorer", files)
    phone.read_through(whole_page=False)
    page.wait_for_selector(".head-explorer__dot[data-qk=ok]")
    # 처음 보일 때: 스크립트, 점수, 시작 문장(0)·층(7층, 번호 6)의 q·k 파일 하나
    assert sorted(fetched(page, *files)) == [
        "head-explorer.js",
        "head_explorer-e5-qk-s0-l6.json",
        "head_explorer-e5.json",
    ]
    assert explorer.locator(".head-explorer__thumb").count() == 144
    # 같은 층의 다른 헤드, 다른 층, 다시 처음 층: 새 층의 파일만 한 번 더 받고, 받은 파일은 다시 받지 않습니다
    thumbs = explorer.locator(".head-explorer__thumb")
    for t in (6 * 12 + 3, 2 * 12 + 0, 6 * 12 + 10, 2 * 12 + 5):
        thumbs.nth(t).click()
        page.wait_for_selector(".head-explorer__dot[data-qk=ok]")
    assert sorted(fetched(page, *files)) == [
        "head-explorer.js",
        "head_explorer-e5-qk-s0-l2.json",
        "head_explorer-e5-qk-s0-l6.json",
        "head_explorer-e5.json",
    ]
    phone.assert_clean()


def test_missing_vectors_leave_a_short_message_and_the_rest_works(phone):
    """q·k 파일을 받지 못하면(404) ① 의 풀이 자리에 짧은 한국어 글만 남고, 탐색기의 나머지는 그대로 움직입니다."""
    which = "minilm"
    route, asked = "**/data/head_explorer-minilm-qk-*.json", []

    def missing(r):
        asked.append(r.request.url.split("/")[-1])
        r.fulfill(status=404, content_type="text/plain", body="not found")

    phone.page.route(route, missing)
    try:
        page = phone.open(PAGES[which])
        phone.read_through(whole_page=False)
        dot = page.locator(".head-explorer__dot")
        page.wait_for_selector(".head-explorer__dot[data-qk=error]")
        assert "받지 못해" in dot.inner_text() and not dot.locator("[data-value], details").count()
        assert page.locator(".head-explorer").get_attribute("data-ready") == "yes"
        # 다른 키와 다른 층을 골라도 ②–④ 와 가장 큰 키는 numpy 와 같고, 실패한 층은 다시 받지 않습니다
        refs, heads = reference(which), 12
        for s, l, h, i, j in cases(which)[:4]:
            shown_now = page.evaluate(PICK_AND_READ_JS, [s, l * heads + h, i, j])
            assert shown_now["qk"] == "error" and not shown_now["dot"]
            assert grouped(shown_now["steps"]) == expected_steps(refs[s], l, h, i, j)
            assert [tuple(t) for t in shown_now["top"]] == expected_top(refs[s], l, h, i)
        # 처음 층과 고른 층마다 한 번씩 (문장을 바꾸는 순간 보이던 층도 받습니다), 같은 파일은 두 번 받지 않습니다
        assert len(asked) == len(set(asked))
        assert {"head_explorer-minilm-qk-s0-l1.json"} | {
            f"head_explorer-minilm-qk-s{s}-l{l}.json" for s, l, *_ in cases(which)[:4]
        } <= set(asked)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # 페이지의 스크립트는 오류를 내지 않습니다. 브라우저 자신이 404 응답을 콘솔에 적는 줄만 남습니다.
        own = [e for e in phone.errors if "Failed to load resource: the server responded with a status of 404" not in e]
        assert not own and not phone.foreign, (own, phone.foreign)
    finally:
        phone.page.unroute(route)


def test_broken_data_gets_a_clear_message(phone, built_site):
    """점수가 잘린 데이터를 받으면 탐색기 자리에 무엇이 틀렸는지 적고, 콘솔 오류나 예외 없이 멈춥니다."""
    import json

    site, _ = built_site
    data = json.loads((site / "data" / "head_explorer-minilm.json").read_text(encoding="utf-8"))
    data["sentences"][1]["scores"] = data["sentences"][1]["scores"][:-8]
    route = "**/data/head_explorer-minilm.json"
    phone.page.route(route, lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(data)))
    try:
        page = phone.open(PAGES["minilm"])
        page.locator(".head-explorer").scroll_into_view_if_needed()
        page.wait_for_selector(".head-explorer[data-ready=error]")
        text = page.locator(".head-explorer").inner_text()
        assert "문장 1" in text and "base64" in text
        phone.assert_clean()
    finally:
        phone.page.unroute(route)


def test_without_javascript_the_figures_stay_and_the_explorer_hides(browser, server):
    for path in PAGES.values():
        with without_javascript(browser, server, path) as page:
            explorer = page.locator(".head-explorer")
            assert explorer.inner_text() == "" and not explorer.is_visible()
            assert page.locator("article a.figure-link img").count() >= 8  # 정적 그림 (판 × 테마마다 한 장)


# 칸을 화면 가운데로 옮긴 뒤 배치가 멈출 때까지(두 프레임 연달아 같은 자리) 기다려 잽니다: 탭한 뒤 아래쪽 부분을 나중에
# 채우는 일(data-pending)이 끝나기 전에 재면, 스크린숏을 찍을 때 칸이 한두 픽셀 옮겨 가 있을 수 있습니다.
RING_JS = """async () => { const t = document.querySelector('.head-explorer__thumb[aria-checked=true]');
  t.scrollIntoView({block: 'center', behavior: 'instant'});
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  let last = '';
  for (let i = 0; i < 30; i++) { await frame(); const b = t.getBoundingClientRect(), now = `${b.x},${b.y}`;
    if (now === last) break; last = now; }
  const r = t.getBoundingClientRect(), s = getComputedStyle(document.body);
  const probe = document.createElement('span'); t.parentNode.appendChild(probe);
  const colour = v => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
  const out = {x: r.x, y: r.y, w: r.width, h: r.height, bg: colour('--md-default-bg-color'),
               fg: colour('--head-explorer-ring'), z: getComputedStyle(t).zIndex};
  probe.remove(); return out; }"""


def rgb(css):
    return [int(float(v)) for v in re.findall(r"[\d.]+", css)[:3]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_selected_tile_ring_is_painted_above_its_neighbours(touch, scheme):
    """고른 칸의 두 겹 테두리(안쪽 바탕색, 바깥쪽 검정·하양)가 네 변 모두 이웃 칸 위에 그려집니다 (375 px, 두 팔레트).
    어두운 칸 옆에서는 안쪽 한 겹이, 밝은 칸 옆에서는 바깥 한 겹이 뚜렷합니다."""
    from PIL import Image

    page = touch.open(PAGES["e5"], scheme=scheme)
    touch.read_through(whole_page=False)
    page.wait_for_selector(".head-explorer__grid[data-atlas=ok]")
    for t in (6 * 12 + 10, 5 * 12 + 5, 0, 11 * 12 + 11):  # 처음 칸, 가운데, 모서리 둘
        page.locator(".head-explorer__thumb").nth(t).tap()
        page.wait_for_timeout(50)
        r = page.evaluate(RING_JS)
        assert r["z"] != "auto" and int(r["z"]) >= 1
        # 칸의 자리는 소수 픽셀(예: y = 393.36)입니다. 잘라 낼 자리는 정수로 두고, 테두리 한 겹(2 px)의 한가운데가 든
        # 픽셀을 봅니다: 그 픽셀은 늘 그 겹 안에 있습니다 (겹의 가장자리를 보면 반올림에 따라 이웃 겹이 잡힙니다).
        ox, oy = math.floor(r["x"]) - 8, math.floor(r["y"]) - 8
        scale = page.evaluate("devicePixelRatio")
        shot = Image.open(
            io.BytesIO(page.screenshot(clip={"x": ox, "y": oy, "width": 40 + r["w"], "height": 40 + r["h"]}))
        )
        shot = shot.convert("RGB")
        left, top = r["x"] - ox, r["y"] - oy
        right, bottom, cx, cy = left + r["w"], top + r["h"], left + r["w"] / 2, top + r["h"] / 2
        for name, d, want in (("안쪽", 1, rgb(r["bg"])), ("바깥", 3, rgb(r["fg"]))):
            for px, py in ((cx, top - d), (cx, bottom + d), (left - d, cy), (right + d, cy)):
                got = shot.getpixel((math.floor(px * scale), math.floor(py * scale)))
                assert max(abs(a - b) for a, b in zip(got, want)) <= 40, (scheme, t, name, (px, py), got, want)
    touch.assert_clean()


# 요소가 놓인 줄의 수: getClientRects 의 사각형을 위에서부터 보며, 앞 사각형들의 아래 끝보다 아래에서 시작하면 새 줄.
# 사각형의 수를 그대로 세면 안 됩니다: Chromium 은 상자 없이 글만 감싼 인라인(culled inline)에는 안의 글 조각마다
# 사각형을 하나씩 돌려줍니다. 한 줄에 있는 "'▁고양이'" 도 따옴표·▁(코드 글꼴)·글자·따옴표의 네 조각이라 사각형이 넷입니다.
LINE_ROWS_JS = """e => { let rows = 0, bottom = -Infinity;
  for (const r of [...e.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top)) {
    if (r.top >= bottom - 1) rows += 1;
    bottom = Math.max(bottom, r.bottom);
  }
  return rows; }"""


def test_space_mark_stays_with_its_token_and_a_lone_mark_is_visible(touch):
    """375 px: 제목과 "가장 큰 키" 목록의 토큰은 ▁ 와 글자(와 따옴표)가 한 줄에 붙어 있고, ▁ 하나뿐인 토큰은 진하게
    그린 ▁ 와 "띄어쓰기" 글로 보입니다."""
    page = touch.open(PAGES["e5"])
    touch.read_through(whole_page=False)
    ref = reference("e5")[0]
    spaced = [i for i in range(*ref["queries"]) if ref["tokens"][i].startswith("\u2581") and len(ref["tokens"][i]) > 1]
    alone = [j for j, t in enumerate(ref["tokens"]) if t == "\u2581"]
    assert spaced and alone
    page.evaluate(f"() => {{ window.__lineRows = {LINE_ROWS_JS}; }}")
    for i in spaced:
        page.locator(f"{QUERY}[data-token='{i}']").tap()
        page.locator(f"{KEY}[data-token='{spaced[-1]}']").tap()
        lines = page.evaluate("""() => [...document.querySelectorAll(
            '.head-explorer__steps .head-explorer__heading .head-explorer__token, .head-explorer__top .head-explorer__token')]
            .map(e => [e.textContent, window.__lineRows(e)])""")
        assert lines and all(n == 1 for _, n in lines), lines
    # 대조군: 같은 토큰을 줄을 바꿀 수 있게(white-space: normal) 좁은 상자에 두면 줄 수가 2 이상으로 잡힙니다.
    wrapped = page.evaluate("""() => { const t = document.querySelector('.head-explorer__top .head-explorer__token').cloneNode(true);
        const box = document.createElement('div'); box.style.cssText = 'width: 1px';
        t.style.whiteSpace = 'normal'; t.style.wordBreak = 'break-all'; box.append(t);
        document.querySelector('.head-explorer').append(box);
        const n = window.__lineRows(t); box.remove(); return n; }""")
    assert wrapped >= 2, wrapped
    label = page.locator(f"{KEY}[data-token='{alone[0]}']")
    assert "띄어쓰기" in label.inner_text()
    colours = page.evaluate(
        """j => { const b = document.querySelector(`.head-explorer__col--keys button[data-token='${j}']`);
        const mark = b.querySelector('.head-explorer__space');
        return [getComputedStyle(mark).color, getComputedStyle(b).color, mark.getBoundingClientRect().width]; }""",
        alone[0],
    )
    assert colours[0] == colours[1] and colours[2] > 4
    touch.assert_clean()


def test_touch_steppers_land_on_the_intended_head(touch):
    """손가락으로: 층·헤드 단추(44 × 44 px 이상)로 한 칸씩 옮겨 원하는 헤드에 닿고, 끝에서는 그 방향 단추가 꺼집니다."""
    page = touch.open(PAGES["e5"])
    touch.read_through(whole_page=False)
    step = {
        (w, d): page.locator(f".head-explorer__step[data-what={w}][data-step='{d}']")
        for w in ("layer", "head")
        for d in "+-"
    }
    for b in step.values():
        box = b.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    _, l, h, _, _ = state(page)
    assert (l, h) == (6, 10)
    step["layer", "+"].tap()
    step["head", "-"].tap()
    step["head", "-"].tap()
    assert state(page)[1:3] == [7, 8]
    assert page.locator(".head-explorer__stepped").inner_text() == "8층 9번 헤드"
    for _ in range(3):
        step["head", "+"].tap()
    assert state(page)[1:3] == [7, 11] and step["head", "+"].is_disabled()
    for _ in range(4):
        step["layer", "+"].tap()
    assert state(page)[1:3] == [11, 11] and step["layer", "+"].is_disabled()
    assert page.eval_on_selector_all(".head-explorer__thumb[aria-checked=true]", "els => els.length") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    touch.assert_clean()


SECTIONS_JS = """() => { const r = document.querySelector('.head-explorer');
  const keys = [...r.querySelectorAll('.head-explorer__col--keys .head-explorer__tok')].map(e => e.dataset.token);
  return {pending: r.dataset.pending || null, keys: keys.length,
          heading: r.querySelector('.head-explorer__steps .head-explorer__heading').textContent}; }"""


def test_sections_below_the_screen_are_filled_when_idle_or_reached(touch):
    """375 px 에서 문장 단추를 누를 때 헤드 하나·가장 큰 키·네 단계 가운데 화면 밖인 것은 잠시 미뤄 두었다가
    (data-pending) 브라우저가 한가할 때, 또는 독자가 그쪽으로 내려가거나 다른 것을 고르는 즉시 새 문장으로 채웁니다.
    채운 결과는 미루지 않고 그린 것과 같습니다. 화면에 보이면 미루지 않습니다."""
    page = touch.open(PAGES["e5"])
    touch.read_through(whole_page=False)
    ref = reference("e5")
    below = "e => e.scrollIntoView({block: 'end'})"  # 문장 단추가 화면 맨 아래: 그 아래는 모두 화면 밖
    page.locator(".head-explorer__sentences").evaluate(below)
    page.wait_for_timeout(300)  # IntersectionObserver 가 알릴 때까지

    def tap(s):
        return page.evaluate(
            "s => { document.querySelectorAll('.head-explorer__sentences input')[s].click(); return ("
            + SECTIONS_JS
            + ")(); }",
            s,
        )

    def settled():
        page.wait_for_function("() => !document.querySelector('.head-explorer').dataset.pending")
        return page.evaluate(SECTIONS_JS)

    # 1. 한가할 때: 누른 순간에는 옛 문장의 토큰 줄이 남아 있고 상태만 새 문장, 곧 새 문장으로 채워집니다
    now = tap(1)
    assert now["pending"] == "yes" and now["keys"] == len(ref[0]["tokens"]) and state(page)[0] == 1
    later = settled()
    assert later["keys"] == len(ref[1]["tokens"])
    # 2. 다른 것을 고르면 곧바로: 미뤄 둔 문장의 토큰 줄을 만든 뒤에 헤드를 바꿉니다
    assert tap(0)["pending"] == "yes"
    page.locator(".head-explorer__thumb").nth(0).evaluate("b => b.click()")
    assert page.evaluate(SECTIONS_JS)["pending"] is None and state(page)[:3] == [0, 0, 0]
    assert page.evaluate(SECTIONS_JS)["keys"] == len(ref[0]["tokens"])
    # 3. 내려가면 곧바로
    assert tap(1)["pending"] == "yes"
    page.locator(".head-explorer__steps").scroll_into_view_if_needed()
    assert settled()["keys"] == len(ref[1]["tokens"])
    # 4. 화면에 보이면 미루지 않고, 미뤘다 채운 것은 곧바로 그린 것과 같습니다
    page.locator(".head-explorer__view").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    direct = tap(0)
    assert direct["pending"] is None and direct["keys"] == len(ref[0]["tokens"])
    page.locator(".head-explorer__sentences").evaluate(below)
    page.wait_for_timeout(300)
    assert tap(1)["pending"] == "yes" and tap(0)["pending"] == "yes"
    assert settled() == direct
    touch.assert_clean()
