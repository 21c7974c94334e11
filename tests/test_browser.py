"""실제 브라우저(Debian chromium + Playwright)로 빌드된 사이트를 검사합니다: 그림 누르기, 팔레트 단추, 한국어 검색,
JavaScript 가 꺼진 탐색기. 모든 페이지에 같은 검사를 하는 것은 tests/test_pages_in_browser.py 에 있습니다.

사이트를 127.0.0.1 에서 띄우고 네트워크는 그 주소만 허용합니다 (tests/browser.py). chromium 이 없는
기계에서는 이 테스트들을 건너뛰지만, CI(.ci/run 이 CI=1 로 돌림)에서는 chromium 이 없으면 실패합니다.
"""

from urllib.parse import urlsplit

import pytest

from browser import PHONE, Tab, fetched, open_waiting
from support import colour

pytestmark = pytest.mark.browser


def test_tapping_a_figure_opens_it_full_size(phone):
    """그림을 누르면 (보이는 판과 테마의) 그림 파일이 원래 크기로 열립니다."""
    page = phone.open("real_model/", scheme="dark")
    link = page.locator("article a.figure-link.figure--narrow.figure--dark").first
    link.scroll_into_view_if_needed()
    shown_width = link.locator("img").bounding_box()["width"]
    link.click()
    page.wait_for_load_state()
    assert page.url.endswith("-narrow-dark.png")
    natural = page.evaluate("document.images[0].naturalWidth")
    assert natural > shown_width  # 본문 칸에 줄어 있던 그림보다 크게 (확대해서 볼 수 있게)
    phone.assert_clean()


def test_palette_toggle_switches_figures(desktop):
    page = desktop.open("four_steps/")
    light = page.locator("img[src$='-light.png#only-light']").first
    dark = page.locator("img[src$='-dark.png#only-dark']").first
    assert light.is_visible() and not dark.is_visible()
    page.locator("label[for='__palette_1']").click()  # "어두운 테마로 바꾸기"
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    dark.scroll_into_view_if_needed()
    assert dark.is_visible() and not light.is_visible()
    page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=dark.element_handle(), timeout=10_000)


# 기대하는 페이지는 화면에 처음 그려지는 결과(점수 순 위쪽) 안에 있어야 합니다. "어텐션" 은 세 가지 어텐션의 이름이
# 첫 절에 모여 있는 5장이 가장 높습니다 (issue 22 에서 본문이 짧아진 뒤로 2장은 11번째).
SEARCHES = [
    ("어텐션", "self_vs_cross/"),
    ("소프트맥스", "why_scale/"),
    ("멀티헤드", "multi_head/"),
    ("크로스 어텐션", "self_vs_cross/"),
    ("히트맵", "heatmap/"),
    ("용어집", "glossary/"),
]


@pytest.fixture(scope="module")
def searched(desktop):
    """홈을 한 번 열고 검색어마다 검색 창에 넣어 본 결과: {검색어: 결과 링크의 경로들}, 그리고 콘솔 오류·다른 출처 요청."""
    page = desktop.open("")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    found = {}
    for query, _ in SEARCHES:
        box.fill("")  # 앞 검색어의 결과가 사라진 뒤에 다음 검색어를 넣습니다
        box.dispatch_event("keyup", {"key": "Unidentified"})
        page.wait_for_function("() => !document.querySelector('.md-search-result__item')", timeout=15_000)
        box.fill(query)
        # 한글은 Playwright 키보드로 keyup 이 나지 않으므로 직접 알려 줍니다.
        box.dispatch_event("keyup", {"key": "Unidentified"})
        page.wait_for_selector(".md-search-result__item", timeout=15_000)
        links = page.evaluate("[...document.querySelectorAll('.md-search-result__link')].map(a => a.href)")
        found[query] = [urlsplit(h).path.lstrip("/") for h in links]
    return found, list(desktop.errors), list(desktop.foreign)


@pytest.mark.parametrize("query, expected", SEARCHES)
def test_korean_search(searched, query, expected):
    found, errors, foreign = searched
    paths = found[query]
    assert any(p.startswith(expected) for p in paths), f"{query!r} 결과에 {expected} 가 없습니다: {paths[:8]}"
    assert not errors and not foreign, (errors, foreign)


def test_explorer_leaves_the_static_figure_without_javascript(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server + "why_scale/")
        assert page.locator(".attention-explorer").inner_text() == ""
        assert page.locator("img[src*='why_scale-sharpness-light']").count() == 1
    finally:
        context.close()


EXPLORER_FILES = ("explorer.js", "explorer-common.js", "why_scale-explorer.json")


def test_explorer_draws_only_when_the_reader_scrolls_near(phone):
    """어텐션 가중치 탐색기(assets/explorer.js)는 페이지를 열 때 받지도 그리지도 않고(안내 글만), 독자가 가까이 내려가면
    받아서 그립니다 (site.js 의 data-loads). 처음 그리기는 휴대전화에서 150–300 ms 의 긴 작업 하나였습니다 (issue 29 §8, TBT)."""
    page, box = open_waiting(phone, "why_scale/", ".attention-explorer", EXPLORER_FILES)
    phone.read_through(whole_page=False)
    assert sorted(fetched(page, *EXPLORER_FILES)) == ["explorer-common.js", "explorer.js", "why_scale-explorer.json"]
    n = len(page.evaluate("async src => (await (await fetch(src)).json()).tokens", box.get_attribute("data-src")))
    assert n >= 3 and box.locator(".attention-explorer__grid td[data-weight]").count() == n * n
    assert "준비" not in box.inner_text()
    phone.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tapped_explorer_button_keeps_a_readable_label(browser, server, scheme):
    """휴대전화에서 누른 프리셋 단추는 :hover·:focus 가 남은 채로 칠해집니다. 그 글자와 바탕의 명암비가 4.5:1 이상입니다
    (어두운 팔레트에서 파란 바탕에 파란 글자가 되었던 일)."""
    tab = Tab(browser, server, PHONE, has_touch=True, is_mobile=True)
    try:
        page = tab.open("why_scale/", scheme=scheme)
        tab.read_through(whole_page=False)
        for button in page.locator(".attention-explorer__presets .md-button").all():
            button.tap()
            fg, bg = button.evaluate(
                """b => { document.getAnimations().forEach(a => a.finish());  // 색 전환(125 ms)의 끝 상태에서 잽니다
                   const s = getComputedStyle(b), rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
                   return [rgb(s.color), rgb(s.backgroundColor)]; }"""
            )
            assert colour.contrast(fg, bg, scale=255) >= 4.5, (scheme, button.inner_text(), fg, bg)
        tab.assert_clean()
    finally:
        tab.close()
