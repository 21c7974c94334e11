"""모델 페이지 헤드 탐색기의 "헤드 끄기" (docs/assets/head-switch.js 의 switchOff·drawSwitch)를 chromium 에서 확인합니다.

- 화면의 숫자 = 빌드가 numpy 로 계산해 둔 값 (data/explorer_ablation-<모델>.json 을 파이썬의 반올림으로 적은 글자).
  그 값이 numpy 로 다시 계산한 것과 같은지는 tests/test_explorer_ablation.py 가 봅니다.
- 그 파일은 첫 "끄기" 전에는 받지 않고, 받은 뒤에는 다시 받지 않습니다.
- 키보드만으로 (데스크톱), 손가락만으로 (375 px, 밝은·어두운 팔레트, axe) 헤드와 층을 끄고 결과의 헤드로 옮겨 갑니다.
"""

import base64
import json

import numpy as np
import pytest

from browser import PHONE, fetched

pytestmark = pytest.mark.browser

PAGES = {"minilm": "real_model/", "e5": "korean_model/"}
ROOT = ".head-explorer"


@pytest.fixture(scope="module")
def stored(built_site):
    site, _ = built_site
    return {k: json.loads((site / "data" / f"explorer_ablation-{k}.json").read_text(encoding="utf-8")) for k in PAGES}


def expected(data, s, l, h):
    """문장 s 에서 l층 h번 헤드(h 가 None 이면 l층 전체)를 껐을 때 화면에 적혀야 할 글자: (1 − cos, [(헤드, JS)])."""
    sent = data["sentences"][s]
    col = data["heads"] if h is None else h
    moved = [(f"{m[0] + 1}-{m[1] + 1}", f"{m[2]:.4f}") for m in sent["moved"][l][col]]
    return f"{sent['one_minus_cos'][l][col]:.5f}", moved


def shown(page):
    return page.evaluate(f"""() => {{
        const box = document.querySelector('{ROOT} .head-explorer__switched');
        const cos = box.querySelector('[data-value=off-cos]');
        return [cos && cos.textContent,
                [...box.querySelectorAll('li')].map(li => [li.dataset.head,
                                                          li.querySelector('[data-value=off-moved]').textContent]),
                box.innerText];
    }}""")


def state(page):
    return [int(x) for x in page.locator(ROOT).get_attribute("data-state").split(",")]


def wait_off(page, l, h):
    page.wait_for_selector(f"{ROOT}[data-off='{l},{'layer' if h is None else h},ok']")


def check(page, data, l, h):
    """화면의 결과가 저장된 값과 같고, 끈 것을 글로 밝힙니다. 돌려주는 값: 결과의 글."""
    wait_off(page, l, h)
    s = state(page)[0]
    cos, moved, text = shown(page)
    assert (cos, [tuple(m) for m in moved]) == expected(data, s, l, h)
    what = f"{l + 1}층의 헤드 {data['heads']}개를 모두 끄면" if h is None else f"헤드 {l + 1}-{h + 1}만 끄면"
    assert text.startswith(what), text
    # 빌드 때 numpy 로 계산했다는 것과, 히트맵은 끄지 않은 모델의 것이라는 것을 글로
    assert "빌드할 때 numpy로 계산해 둔 것" in text and "끄지 않은 모델의 가중치 그대로" in text
    return text


def to_head(page, l, h):
    """키보드로: 헤드 격자의 고른 칸에 초점을 두고 화살표로 l층 h번 헤드까지 옮깁니다."""
    page.locator(f"{ROOT} .head-explorer__thumb[tabindex='0']").focus()
    _, l0, h0, _, _ = state(page)
    for key, steps in (("ArrowDown", l - l0), ("ArrowUp", l0 - l), ("ArrowRight", h - h0), ("ArrowLeft", h0 - h)):
        for _ in range(max(steps, 0)):
            page.keyboard.press(key)
    assert state(page)[1:3] == [l, h]


def tab_to(page, selector):
    """Tab 만 눌러 selector 에 맞는 요소까지 갑니다 (40번 안에)."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches({json.dumps(selector)})"):
            return
    raise AssertionError(f"Tab 으로 {selector} 에 닿지 못했습니다")


# 끌 헤드: 시작 헤드(페이지가 이야기하는 헤드), 빌드 값에서 1 − cos 가 가장 큰 헤드는 테스트가 고릅니다
CASES = {"minilm": [(1, 8), (3, 2)], "e5": [(6, 10), (2, 7)]}


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_keyboard_switches_a_head_and_a_layer_off_and_shows_the_stored_numbers(desktop, stored, which):
    data = stored[which]
    page = desktop.open(PAGES[which])
    desktop.read_through(whole_page=False)
    # 끄기 전에는 값을 받지 않습니다 (첫 화면의 무게에 들지 않게)
    assert fetched(page, "explorer_ablation-*") == []
    assert page.locator(f"{ROOT} .head-explorer__switched").inner_text() == ""
    for l, h in CASES[which]:
        to_head(page, l, h)
        assert page.locator(f"{ROOT} [data-off=head]").inner_text() == f"헤드 {l + 1}-{h + 1} 끄기"
        assert page.locator(f"{ROOT} [data-off=layer]").inner_text() == f"{l + 1}층 전체 끄기"
        tab_to(page, f"{ROOT} [data-off=head]")
        page.keyboard.press("Enter")
        check(page, data, l, h)
        tab_to(page, f"{ROOT} [data-off=layer]")
        page.keyboard.press("Enter")
        check(page, data, l, None)
    # 결과의 헤드로: Tab 으로 목록의 첫 헤드에 가서 Enter 를 누르면 탐색기가 그 헤드를 보여 줍니다
    first = page.locator(f"{ROOT} .head-explorer__switched li").first.get_attribute("data-head")
    tab_to(page, f"{ROOT} .head-explorer__switched li button")
    page.keyboard.press("Enter")
    l, h = (int(x) - 1 for x in first.split("-"))
    assert state(page)[1:3] == [l, h]
    assert shown(page)[2].startswith(f"{CASES[which][-1][0] + 1}층의 헤드")  # 결과는 끈 층 그대로
    # 마지막 층의 헤드: 뒤에 헤드가 없다고 말합니다
    last = data["layers"] - 1
    to_head(page, last, 0)
    tab_to(page, f"{ROOT} [data-off=head]")
    page.keyboard.press("Enter")
    text = check(page, data, last, 0)
    assert "마지막 층이라 뒤에 오는 헤드가 없습니다" in text
    # 문장을 바꾸면 같은 헤드를 끈 그 문장의 값으로
    page.locator(f"{ROOT} .head-explorer__sentences input").nth(1).focus()
    page.keyboard.press("Space")
    assert state(page)[0] == 1
    check(page, data, last, 0)
    # 다시 켜기: 결과가 사라지고 초점은 끄기 단추로
    tab_to(page, f"{ROOT} [data-off=on]")
    page.keyboard.press("Enter")
    assert page.locator(ROOT).get_attribute("data-off") is None
    assert page.locator(f"{ROOT} .head-explorer__switched").inner_text() == ""
    assert page.evaluate("() => document.activeElement.dataset.off") == "head"
    # 값은 처음 한 번만 받았습니다
    assert fetched(page, "explorer_ablation-*") == [f"explorer_ablation-{which}.json"]
    desktop.assert_clean()


@pytest.mark.parametrize("which", ["minilm", "e5"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_touch_switches_off_on_a_phone_in_both_palettes(touch, stored, which, scheme):
    from axe_playwright_python.sync_playwright import Axe

    data = stored[which]
    page = touch.open(PAGES[which], scheme=scheme)
    touch.read_through(whole_page=False)
    l, h = CASES[which][1]
    page.locator(f"{ROOT} .head-explorer__thumb").nth(l * data["heads"] + h).tap()
    page.locator(f"{ROOT} [data-off=head]").tap()
    check(page, data, l, h)
    page.locator(f"{ROOT} [data-off=layer]").tap()
    check(page, data, l, None)
    target = page.locator(f"{ROOT} .head-explorer__switched li").nth(1)
    name = target.get_attribute("data-head")
    target.locator("button").tap()
    assert state(page)[1:3] == [int(x) - 1 for x in name.split("-")]
    # 375 px 에서 넘치지 않고, 단추와 체크 상자는 24 px 이상 (글 안의 링크는 WCAG 2.5.8 의 예외: 줄 높이를 따릅니다)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator(f"{ROOT} .head-explorer__switch").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    small = page.evaluate(f"""() => [...document.querySelectorAll('{ROOT} .head-explorer__switch :is(button, input)')]
        .map(e => e.getBoundingClientRect()).filter(r => r.height < 24 || r.width < 24).length""")
    assert small == 0
    # 링크는 방법 페이지와 "여러분의 문장으로" 로
    hrefs = page.eval_on_selector_all(f"{ROOT} .head-explorer__switch a", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs == ["../head_ablation/", "../own_sentence/"]
    violations = Axe().run(page, context=ROOT).response["violations"]
    assert not violations, [
        (v["id"], [(n["target"], n.get("failureSummary")) for n in v["nodes"][:3]]) for v in violations
    ]
    touch.assert_clean()


def test_missing_data_leaves_a_short_message(phone):
    """값을 받지 못하면 결과 칸에 짧은 글만 남고, 탐색기의 나머지는 그대로 됩니다."""
    page = phone.open(PAGES["e5"])
    page.route("**/explorer_ablation-e5.json", lambda r: r.fulfill(status=404, body="not found"))
    phone.read_through(whole_page=False)
    page.locator(f"{ROOT} [data-off=layer]").click()
    page.wait_for_selector(f"{ROOT}[data-off$=',error']")
    assert "받지 못했습니다 (404" in page.locator(f"{ROOT} .head-explorer__switched").inner_text()
    page.locator(f"{ROOT} .head-explorer__step[data-what=head][data-step='+']").click()
    assert state(page)[2] == 11 and page.locator(f"{ROOT} [data-off=head]").inner_text() == "헤드 7-12 끄기"
    page.unroute("**/explorer_ablation-e5.json")
    phone.errors.clear()  # 404 는 브라우저가 콘솔에 적습니다 (일부러 만든 실패)
    phone.assert_clean()


def test_explorer_works_without_the_switch_file(phone):
    """head-switch.js 를 받지 못해도(또는 그 파일이 없는 페이지에서도) 탐색기는 스위치 없이 그대로 됩니다: 오류 없이."""
    page = phone.open(PAGES["minilm"])
    page.route("**/head-switch.js", lambda r: r.fulfill(status=404, body="not found"))
    phone.read_through(whole_page=False)
    page.wait_for_selector(f"{ROOT}[data-ready=yes]")
    assert page.locator(f"{ROOT} .head-explorer__switch").count() == 0
    assert page.evaluate("() => window.headExplorerSwitch") is None
    page.locator(f"{ROOT} .head-explorer__step[data-what=head][data-step='+']").click()
    assert state(page)[1:3] == [1, 9] and page.locator(f"{ROOT} .head-explorer__top li").count() == 3
    page.unroute("**/head-switch.js")
    # 404 는 브라우저가 콘솔에 적습니다 (일부러 만든 실패). 스크립트 오류(pageerror)는 없어야 합니다
    assert all(e.startswith("Failed to load resource") for e in phone.errors), phone.errors
    phone.errors.clear()
    phone.assert_clean()


def row_weights(site, which, s, l, h, i):
    """탐색기 JSON 의 float32 점수 한 행 → 소프트맥스 가중치 (float64, numpy)."""
    data = json.loads((site / "data" / f"head_explorer-{which}.json").read_text(encoding="utf-8"))
    sent = data["sentences"][s]
    q0, q1 = sent["queries"]
    n = len(sent["tokens"])
    raw = np.frombuffer(base64.b64decode(sent["scores"]), dtype="<f4")
    scores = raw.reshape(data["layers"], data["heads"], q1 - q0, n)[l, h, i - q0].astype(np.float64)
    scaled = scores / np.sqrt(data["d_head"])
    e = np.exp(scaled - scaled.max())
    return e / e.sum(), sent["tokens"]


def top_keys(page):
    return page.evaluate(f"""() => [...document.querySelectorAll('{ROOT} .head-explorer__top li')]
        .map(li => [Number(li.dataset.key), li.querySelector('[data-value=top-weight]').textContent])""")


@pytest.mark.parametrize("which", ["minilm", "e5"])
def test_ends_view_renormalises_the_lines_and_top_keys_only(desktop, built_site, which):
    """두 번째 스위치: 양 끝 토큰을 빼고 나눈 값 = numpy 의 같은 행에서 두 토큰의 몫을 빼고 다시 나눈 값. 보기만 바뀝니다."""
    site, _ = built_site
    page = desktop.open(PAGES[which])
    desktop.read_through(whole_page=False)
    s, l, h, i, _ = state(page)
    w, tokens = row_weights(site, which, s, l, h, i)
    n = len(tokens)
    model = sorted(range(n), key=lambda k: (-w[k], k))[:3]
    assert top_keys(page) == [[k, f"{w[k]:.3f}"] for k in model]
    steps_before = page.locator(f"{ROOT} .head-explorer__steps").inner_text()
    box = page.locator(f"{ROOT} input[data-view=ends]")
    label = page.locator(f"{ROOT} .head-explorer__ends").inner_text()
    assert f"{tokens[0]}, {tokens[-1]} 빼고 나누기 (보기만 바뀝니다)" in label
    box.focus()
    page.keyboard.press("Space")
    assert page.locator(ROOT).get_attribute("data-view") == "ends-hidden"
    shown_w = w / (1 - w[0] - w[-1])
    shown_w[0] = shown_w[-1] = 0
    hidden = sorted(range(1, n - 1), key=lambda k: (-shown_w[k], k))[:3]
    assert top_keys(page) == [[k, f"{shown_w[k]:.3f}"] for k in hidden]
    opacity = page.eval_on_selector_all(
        f"{ROOT} .head-explorer__lines line", "ls => ls.map(x => x.getAttribute('stroke-opacity'))"
    )
    assert np.allclose([float(o) for o in opacity], shown_w, atol=5e-4 + 1e-9)
    note = page.locator(f"{ROOT} .head-explorer__switch .head-explorer__note").nth(1)
    assert note.is_visible() and note.inner_text().startswith("보기만 바꿉니다. 모델은")
    # 네 단계는 모델의 값 그대로
    assert page.locator(f"{ROOT} .head-explorer__steps").inner_text() == steps_before
    page.keyboard.press("Space")
    assert page.locator(ROOT).get_attribute("data-view") == "model" and not note.is_visible()
    assert top_keys(page) == [[k, f"{w[k]:.3f}"] for k in model]
    desktop.assert_clean()
