"""학습 슬라이더(docs/assets/training-explorer.js)를 실제 브라우저(Debian chromium + Playwright)에서 확인합니다.

- 보이는 숫자 = 빌드의 값: 스텝, 두 손실, 헤드마다 두 점수를 여러 스텝에서 읽어, 같은 학습 기록(run_cache)을 numpy 로
  읽어 같은 자리수로 반올림한 글자와 견줍니다. 히트맵은 캔버스의 픽셀 하나하나가 그 스텝의 가중치(백분율)를
  viridis 로 칠한 색인지, 가린 칸(대각선 위)은 비었는지 봅니다.
- 키보드만으로, 손가락(터치)만으로 모든 조작 요소에 닿고, 375 px 에서 넘치지 않습니다. 두 팔레트에서 곡선의 색이 맞습니다.
- 스크립트와 데이터는 독자가 가까이 내려올 때만 받고, 화면 읽기 도구가 읽을 이름(aria)이 숫자와 함께 바뀝니다.
"""

import math

import numpy as np
import pytest

from browser import PHONE, Tab, fetched, open_waiting, without_javascript

pytestmark = pytest.mark.browser

PAGE = "head_roles/"
ROOT = ".training-explorer"

# docs/assets/explorer-common.js 의 viridis 표 (9단계, 사이를 잇고 Math.round)
VIRIDIS = [
    [68, 1, 84],
    [71, 44, 122],
    [59, 81, 139],
    [44, 113, 142],
    [33, 144, 141],
    [39, 173, 129],
    [92, 200, 99],
    [170, 220, 50],
    [253, 231, 37],
]


def viridis(t):
    x = min(max(t, 0.0), 1.0) * (len(VIRIDIS) - 1)
    i = min(math.floor(x), len(VIRIDIS) - 2)
    f = x - i
    return [math.floor(a + (b - a) * f + 0.5) for a, b in zip(VIRIDIS[i], VIRIDIS[i + 1])]  # JS 의 Math.round


@pytest.fixture(scope="module")
def run():
    import head_roles

    return head_roles.runs["main"], head_roles.phase_step(head_roles.runs["main"])


def two(x):
    """빌드가 데이터에 넣는 값(np.round(·, 2))을 화면처럼 소수 둘째 자리까지."""
    return f"{np.round(float(x), 2):.2f}"


def ready(tab):
    page = tab.page
    page.locator(ROOT).scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.ready === 'yes'")
    return page


def shown(page):
    """화면에 적힌 것: 스텝·손실(상태 줄의 data-*), 헤드마다 두 점수, 캔버스의 RGBA 픽셀."""
    return page.evaluate(
        """sel => { const r = document.querySelector(sel), st = r.querySelector('.training-explorer__status');
      return {index: Number(r.dataset.index), text: st.textContent, step: Number(st.dataset.step),
              repeat: st.dataset.repeat, other: st.dataset.other, slider: r.querySelector('input').value,
              valuetext: r.querySelector('input').getAttribute('aria-valuetext'),
              heads: [...r.querySelectorAll('.training-explorer__head')].map(f => {
                const c = f.querySelector('canvas'), px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                return {label: c.getAttribute('aria-label'), role: c.getAttribute('role'),
                        scores: [...f.querySelectorAll('.training-explorer__score')].map(s => s.dataset.value),
                        texts: [...f.querySelectorAll('.training-explorer__score')].map(s => s.textContent),
                        px: Array.from(px)}; })}; }""",
        ROOT,
    )


def expect_step(got, run, c):
    main, _ = run
    n = main["probe"].shape[-1]
    step, last = int(main["step"][c]), int(main["step"][-1])
    assert got["index"] == c and got["step"] == step and got["slider"] == str(c)
    assert got["repeat"] == two(main["repeat_loss"][c]) and got["other"] == two(main["other_loss"][c])
    assert f"둘째 토막 손실 {two(main['repeat_loss'][c])}" in got["text"] and f"스텝 {step} / {last}" in got["text"]
    assert got["valuetext"] == f"스텝 {step} / {last}"
    weights = main["probe"][c].reshape(-1, n, n)
    for h, head in enumerate(got["heads"]):
        prev, ind = main["scores"][c].reshape(-1, 2)[h]
        assert head["scores"] == [two(prev), two(ind)], (c, h)
        assert head["texts"] == [f"이전 토큰 점수 {two(prev)}", f"유도 점수 {two(ind)}"]
        assert head["role"] == "img" and f"스텝 {step}" in head["label"] and f"유도 점수 {two(ind)}" in head["label"]
        px = np.array(head["px"]).reshape(n, n, 4)
        percent = np.rint(weights[h] * 100)
        for i in range(n):
            for j in range(n):
                if j > i:
                    assert px[i, j, 3] == 0, (c, h, i, j)  # 뒤 토큰: 비워 둡니다
                else:
                    assert px[i, j].tolist() == viridis(percent[i, j] / 100) + [255], (c, h, i, j)


def go(page, c):
    page.evaluate(
        """([sel, c]) => { const s = document.querySelector(sel + ' input'); s.value = String(c);
        s.dispatchEvent(new Event('input', {bubbles: true})); }""",
        [ROOT, c],
    )
    page.wait_for_function(f"c => document.querySelector('{ROOT}').dataset.index === String(c)", arg=c)


def test_numbers_and_pixels_equal_the_build(desktop, run):
    """처음, 급락 무렵, 끝과 그 사이 여러 스텝에서: 화면의 숫자와 네 히트맵의 모든 픽셀 = 학습 기록."""
    main, phase = run
    page = desktop.open(PAGE)
    page = ready(desktop)
    expect_step(shown(page), run, 0)
    last = len(main["step"]) - 1
    near = int(np.argmin(np.abs(main["step"] - phase)))
    for c in (near, last, 1, 17, 29, last - 3):
        go(page, c)
        expect_step(shown(page), run, c)
    # 미리 정한 단추: 처음, 급락 무렵, 끝
    buttons = page.locator(f"{ROOT} .training-explorer__presets button")
    for k, c in enumerate((0, near, last)):
        buttons.nth(k).click()
        page.wait_for_function(f"c => document.querySelector('{ROOT}').dataset.index === String(c)", arg=c)
    desktop.assert_clean()


def index(page):
    return int(page.locator(ROOT).get_attribute("data-index"))


def at(page, c):
    """그리기는 다음 프레임에 하므로(requestAnimationFrame) 그 스텝이 그려질 때까지 기다린 뒤 참."""
    page.wait_for_function(f"c => document.querySelector('{ROOT}').dataset.index === String(c)", arg=c, timeout=5000)
    return True


def test_keyboard_alone_reaches_every_control(desktop, run):
    """Tab 으로 − 단추, 슬라이더, + 단추, 미리 정한 단추 셋에 차례로 닿고(스텝 0 의 − 는 막혀 있어도(aria-disabled) 초점은
    받습니다), 화살표·Home·End 로 스텝을 옮기며, 초점이 보입니다."""
    main, _ = run
    last = len(main["step"]) - 1
    page = desktop.open(PAGE)
    ready(desktop)
    page.evaluate(f"() => document.querySelector('{ROOT}').previousElementSibling.setAttribute('tabindex', '-1')")
    page.evaluate(f"() => document.querySelector('{ROOT}').previousElementSibling.focus()")
    order = []
    for _ in range(6):
        page.keyboard.press("Tab")
        order.append(
            page.evaluate(
                """() => { const e = document.activeElement;
            return [e.tagName, e.className, e.type || '', getComputedStyle(e).outlineStyle, !!e.closest('.training-explorer')]; }"""
            )
        )
    assert all(o[4] for o in order), order
    assert [o[2] for o in order] == ["button", "range", "button", "button", "button", "button"], order
    assert all(o[3] != "none" for o in order), order
    page.locator(f"{ROOT} input").focus()
    page.keyboard.press("End")
    assert at(page, last)
    page.keyboard.press("ArrowLeft")
    assert at(page, last - 1)
    page.keyboard.press("Home")
    assert at(page, 0)
    for k in range(1, 4):
        page.keyboard.press("ArrowRight")
        assert at(page, k)
    page.keyboard.press("Tab")  # + 단추
    page.keyboard.press("Enter")
    assert at(page, 4)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # − 단추
    page.keyboard.press("Enter")
    assert at(page, 3)
    expect_step(shown(page), run, 3)
    desktop.assert_clean()


def focused(page):
    """초점이 있는 요소: [태그, aria-label, aria-disabled]."""
    return page.evaluate(
        "() => { const e = document.activeElement; return [e.tagName, e.getAttribute('aria-label'), "
        "e.getAttribute('aria-disabled')]; }"
    )


def test_focus_stays_on_the_nudge_buttons_at_either_end(desktop, run):
    """− / + 를 키보드로 눌러 끝에 닿아도 초점은 그 단추에 남습니다 (disabled 를 걸면 Chromium 이 초점을 <body> 로 떨어뜨려
    독자가 자리를 잃습니다). 막힌 단추를 다시 눌러도 스텝은 그대로이고, 반대쪽 단추는 다시 쓸 수 있습니다."""
    main, _ = run
    last = len(main["step"]) - 1
    page = desktop.open(PAGE)
    ready(desktop)
    plus = page.locator(f"{ROOT} .training-explorer__nudge").nth(1)
    minus = page.locator(f"{ROOT} .training-explorer__nudge").nth(0)
    go(page, last - 1)
    plus.focus()
    page.keyboard.press("Enter")
    assert at(page, last)
    assert focused(page) == ["BUTTON", "스텝 20 늘리기", "true"]
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.wait_for_timeout(100)
    assert index(page) == last and focused(page)[:2] == ["BUTTON", "스텝 20 늘리기"]
    assert minus.get_attribute("aria-disabled") is None
    go(page, 1)
    minus.focus()
    page.keyboard.press("Enter")
    assert at(page, 0)
    assert focused(page) == ["BUTTON", "스텝 20 줄이기", "true"]
    assert plus.get_attribute("aria-disabled") is None
    page.keyboard.press("Tab")  # 초점이 남아 있으므로 Tab 은 바로 다음 조작 요소(슬라이더)로 갑니다
    assert page.evaluate("() => document.activeElement.type") == "range"
    desktop.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_touch_alone_at_375px_in_both_palettes(browser, server, run, scheme):
    """손가락으로 ± 단추, 미리 정한 단추, 슬라이더 트랙을 눌러 스텝을 옮기고, 누를 자리는 넉넉하며, 가로로 넘치지 않습니다.
    손실 곡선의 색은 팔레트에 맞습니다 (페이지 그림과 같은 색)."""
    touch = Tab(browser, server, PHONE, has_touch=True, is_mobile=True)
    try:
        touched(touch, run, scheme)
    finally:
        touch.close()


def touched(touch, run, scheme):
    main, phase = run
    last = len(main["step"]) - 1
    page = touch.open(PAGE, scheme=scheme)
    ready(touch)
    plus, minus = (
        page.locator(f"{ROOT} .training-explorer__nudge").nth(1),
        page.locator(f"{ROOT} .training-explorer__nudge").nth(0),
    )
    for b in (plus, minus):
        box = b.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    for b in page.locator(f"{ROOT} .training-explorer__presets button").all():
        box = b.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24
    assert minus.get_attribute("aria-disabled") == "true"
    plus.tap()
    plus.tap()
    assert at(page, 2)
    minus.tap()
    assert at(page, 1)
    page.locator(f"{ROOT} .training-explorer__presets button").nth(2).tap()
    assert at(page, last) and plus.get_attribute("aria-disabled") == "true"
    # 슬라이더 트랙의 가운데를 누르면 가운데 스텝 가까이로 갑니다
    slider = page.locator(f"{ROOT} input")
    box = slider.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(f"() => Number(document.querySelector('{ROOT}').dataset.index) < {last}")
    assert abs(index(page) - last / 2) <= 3
    expect_step(shown(page), run, index(page))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    root = page.locator(ROOT).bounding_box()
    assert root["x"] >= 0 and root["x"] + root["width"] <= PHONE["width"]
    # 곡선: 둘째 토막의 굵은 선은 팔레트의 강조색 (밝음 #3949ab, 어두움 #8c9eff)
    colours = page.evaluate(
        """sel => { const c = document.querySelector(sel + ' canvas.training-explorer__curve');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, seen = new Set();
        for (let k = 0; k < d.length; k += 4) if (d[k + 3] === 255) seen.add([d[k], d[k + 1], d[k + 2]].join(','));
        return [...seen]; }""",
        ROOT,
    )
    want = "57,73,171" if scheme == "light" else "140,158,255"
    assert want in colours, colours[:10]
    touch.assert_clean()


def test_script_and_data_come_only_when_the_reader_scrolls_near(phone):
    files = ("training-explorer.js", "head_roles-training*")
    page, _ = open_waiting(phone, PAGE, ROOT, files)
    ready(phone)
    assert sorted(fetched(page, *files)) == ["head_roles-training.json", "training-explorer.js"]
    phone.assert_clean()


def test_broken_data_gets_a_clear_message(phone, built_site):
    import json

    site, _ = built_site
    data = json.loads((site / "data" / "head_roles-training.json").read_text(encoding="utf-8"))
    data["percent"] = data["percent"][:-8]
    route = "**/data/head_roles-training.json"
    phone.page.route(route, lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(data)))
    try:
        page = phone.open(PAGE)
        page.locator(ROOT).scroll_into_view_if_needed()
        page.wait_for_selector(f"{ROOT}[data-ready=error]")
        assert "바이트여야 합니다" in page.locator(ROOT).inner_text()
        phone.assert_clean()
    finally:
        phone.page.unroute(route)


def test_without_javascript_the_figures_stay_and_the_slider_hides(browser, server):
    with without_javascript(browser, server, PAGE) as page:
        assert page.locator(ROOT).inner_text() == "" and not page.locator(ROOT).is_visible()
        # 그림 여섯 개(손실, 헤드, 점수, 유도의 세 걸음, 함정, √d_k)가 판(넓은/좁은) × 팔레트마다 한 장씩
        assert page.locator("article a.figure-link img").count() == 6 * 4
