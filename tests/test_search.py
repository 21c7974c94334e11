"""한국어 검색: 조사가 붙은 검색어, 검색 후 페이지의 강조, 검색 결과에 보이는 수식.

mkdocs.yml 의 검색 구분자(separator)는 낱말 끝의 조사를 구분자로 먹습니다. 그래서 "어텐션을" 은
"어텐션" 으로 찾고, Material 의 앞부분 일치(어텐션*) 덕분에 "어텐션" 은 "어텐션을·어텐션은" 이 든 페이지를
모두 찾습니다. 여기서는 실제 브라우저에서 Material 의 검색창에 검색어를 넣어 그것을 확인합니다.
"""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.browser

# (명사, 붙여 볼 조사들): 이슈가 꼽은 조사 10가지(을/를 이/가 은/는 의 에 에서 (으)로 와/과 도 만)를 모두 씁니다.
QUERIES = {
    "어텐션": ["을", "이", "은", "의", "에서", "도"],
    "소프트맥스": ["로", "를", "는"],
    "쿼리": ["와", "가"],
    "키": ["를", "는", "와"],
    "밸류": ["를", "의"],
    "헤드": ["만", "도", "의"],
    "가중치": ["를", "가", "는"],
    "마스크": ["로", "를"],
    "토큰": ["이", "을", "에"],
    "행렬": ["을", "과"],
    "디코더": ["에서", "는"],
    "인코더": ["의", "와"],
    "히트맵": ["을", "에서"],
}
PARTICLES = ["을", "를", "이", "가", "은", "는", "의", "에서", "에게", "에", "으로", "로", "와", "과", "도", "만"]


# Material 의 검색 작업자(web worker)가 돌려주는 결과를 엿듣습니다. 화면의 목록은 10개씩 나눠 그려지므로,
# 찾은 페이지 전체는 작업자의 결과 메시지(type 3: data.items = 페이지마다 [문서, 절…])에서 읽습니다.
# 그 수가 화면의 "N개의 일치하는 문서" 와 같은지도 확인하므로, 메시지 형식이 바뀌면 여기서 드러납니다.
LISTEN = """(() => { const W = window.Worker; window.__searchResults = [];
  window.Worker = function (url, options) {
    const worker = new W(url, options);
    worker.addEventListener("message", e => { if (e.data && e.data.type === 3) window.__searchResults.push(e.data.data); });
    return worker;
  };
})()"""


class Search:
    """홈페이지의 검색창 하나로 여러 번 찾습니다."""

    def __init__(self, tab):
        self.tab = tab
        tab.context.add_init_script(LISTEN)
        self.page = tab.open("", settle=True)
        self.page.locator("label.md-search__icon, .md-search__input").first.click()
        self.box = self.page.locator("input.md-search__input")
        self.cache = {}

    def pages(self, query):
        if query in self.cache:
            return self.cache[query]
        page = self.page
        before = page.evaluate("window.__searchResults.length")
        self.box.fill(query)
        # 한글은 Playwright 키보드로 keyup 이 나지 않으므로 직접 알려 줍니다 (Material 은 keyup 에 읽습니다).
        self.box.dispatch_event("keyup", {"key": "Unidentified"})
        # 결과 메시지가 오고, 화면의 "N개의 일치하는 문서" 가 그 메시지의 수를 그릴 때까지 (0개면 그 말이 나올 때까지;
        # 정해진 시간을 기다리지 않습니다. 아래 assert 가 0개를 실패로 알립니다)
        page.wait_for_function(
            """n => { const r = window.__searchResults; if (r.length <= n) return false;
                      const meta = document.querySelector('.md-search-result__meta');
                      const m = meta && meta.textContent.match(/\\d+/);
                      const count = r[r.length - 1].items.length;
                      return m ? Number(m[0]) === count : meta !== null && count === 0; }""",
            arg=before,
        )
        items = page.evaluate("window.__searchResults[window.__searchResults.length - 1].items")
        found = {group[0]["location"].split("#")[0].strip("/") or "index" for group in items}
        meta = page.locator(".md-search-result__meta").inner_text()
        assert re.search(r"\d+", meta) and int(re.search(r"\d+", meta).group()) == len(items), (meta, len(items))
        self.cache[query] = found
        return found


@pytest.fixture(scope="module")
def search(desktop):
    return Search(desktop)


def test_a_particle_does_not_change_the_pages_found(search, desktop):
    """조사를 붙인 검색어 30개가 모두 명사만 넣었을 때와 같은 페이지를 찾습니다."""
    rows, wrong = [], []
    for noun, particles in QUERIES.items():
        bare = search.pages(noun)
        assert bare, f"{noun!r} 로 찾은 페이지가 없습니다"
        for p in particles:
            got = search.pages(noun + p)
            rows.append(f"{noun + p:<10} {len(got):>3}쪽   {noun:<8} {len(bare):>3}쪽")
            if got != bare:
                wrong.append(f"{noun + p}: 더 {sorted(got - bare)} 덜 {sorted(bare - got)}")
    print("\n검색어 → 찾은 페이지 수 (조사 있음 / 없음)\n" + "\n".join(rows))
    assert sum(len(p) for p in QUERIES.values()) >= 20
    assert not wrong, "\n".join(wrong)
    desktop.assert_clean()


def test_a_bare_noun_finds_every_page_that_uses_it_with_a_particle(search, built_site):
    """빌드된 검색 색인에서 "명사+조사" 가 나오는 페이지를 세어, 명사만으로 찾은 결과가 그것을 모두 담는지 봅니다."""
    site, _ = built_site
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    for noun in QUERIES:
        pattern = re.compile(re.escape(noun) + "(?:" + "|".join(PARTICLES) + ")(?![가-힣])")
        using = {d["location"].split("#")[0].strip("/") or "index" for d in docs if pattern.search(d["text"])}
        assert using, f"{noun!r} 에 조사가 붙은 곳이 색인에 없습니다 (검색어 목록을 고치세요)"
        missing = using - search.pages(noun)
        assert not missing, f"{noun!r} 가 조사와 함께 쓰인 페이지를 찾지 못했습니다: {sorted(missing)}"


@pytest.mark.parametrize(
    "query, expected", [("Clark", "Clark"), ("BERT", "BERT"), ("softmax", "softmax"), ("소프트맥스를", "소프트맥스")]
)
def test_the_clicked_page_highlights_the_query(search, desktop, query, expected):
    """결과의 첫 링크(문서 제목)를 누르면 그 페이지에서 검색어가 강조됩니다 (라틴 문자 낱말 포함)."""
    search.pages(query)
    link = search.page.locator(".md-search-result__item > a.md-search-result__link").first
    h = parse_qs(urlsplit(link.get_attribute("href")).query).get("h", [""])[0]
    assert h, f"{query!r}: 첫 결과 링크에 강조할 검색어(?h=)가 없습니다"
    href = link.get_attribute("href")
    page = desktop.open(urlsplit(href).path.lstrip("/") + f"?h={h}")
    # Material 은 검색 색인을 받은 뒤에 강조합니다.
    page.wait_for_function("document.querySelectorAll('article mark[data-md-highlight]').length > 0", timeout=10_000)
    marks = page.evaluate("[...document.querySelectorAll('article mark[data-md-highlight]')].map(m => m.textContent)")
    assert all(m.lower() == expected.lower() for m in marks), (href, h, marks)
    search.__init__(desktop)  # 다음 테스트를 위해 검색창이 있는 홈으로


def test_search_results_show_formulas_as_readable_text(search):
    """ "스케일링" 결과 미리보기에 수식이 "dk" 처럼 뭉개져 보이지 않고 √d_k 로 보입니다."""
    search.pages("스케일링")
    text = search.page.locator(".md-search-result").inner_text()
    assert "√d_k" in text
    assert not re.search(r"(?<![_√\w])dk(?!\w)", text), "결과 미리보기에 뭉개진 수식(dk)이 있습니다"


@pytest.mark.parametrize("doc", ["glossary/", "own_sentence/"])
def test_search_says_it_cannot_search_when_the_index_does_not_load(browser, server, doc):
    """검색 색인(search_index.json)을 받지 못하면 (네트워크 없이 저장본으로 연 페이지와 같음): Material 의 잡히지 않은 오류
    ("Network error") 없이, 검색 창이 지금은 검색할 수 없다고 말합니다. 모든 페이지의 docs/assets/site.js 가 합니다.
    대조군: 같은 페이지를 색인과 함께 열면 그 말이 없습니다."""
    from browser import DESKTOP, Tab

    tab = Tab(browser, server, DESKTOP)
    try:
        uncaught = []
        tab.page.on("pageerror", lambda e: uncaught.append(str(e)))
        tab.context.route("**/search/search_index.json", lambda route: route.abort("internetdisconnected"))
        page = tab.open(doc, settle=True)
        page.wait_for_selector("html[data-search=unavailable]", timeout=10_000)
        assert not uncaught, uncaught
        assert "검색할 수 없습니다" in page.locator(".md-search-result__meta").text_content()
        assert "검색할 수 없음" in page.locator(".md-search__input").get_attribute("placeholder")
        tab.context.unroute("**/search/search_index.json")
        page = tab.open(doc, settle=True)
        assert page.locator("html").get_attribute("data-search") is None
        assert "검색할 수 없습니다" not in page.locator(".md-search-result__meta").text_content()
    finally:
        tab.close()


def test_search_failure_before_site_js_arrives_is_still_said(browser, server):
    """네트워크 없이 연 저장본에서는 색인 요청이 site.js 를 받기도 전에 실패할 수 있습니다 (부하가 큰 기계에서 한 번
    잡히지 않은 "Network error" 로 보였습니다). site.js 를 색인이 실패한 뒤에야 보내도: 잡히지 않은 오류가 없고, 검색 창이
    검색할 수 없다고 말합니다. 오류를 받는 곳이 번들보다 먼저 있는 작은 스크립트(overrides/main.html)이기 때문입니다."""
    from browser import DESKTOP, Tab

    tab = Tab(browser, server, DESKTOP)
    held = []
    try:
        uncaught = []
        tab.page.on("pageerror", lambda e: uncaught.append(str(e)))
        tab.context.route("**/search/search_index.json", lambda route: route.abort("internetdisconnected"))
        tab.context.route("**/assets/site.js", lambda route: held.append(route))
        tab.page.goto(tab.origin + "glossary/", wait_until="commit")
        page = tab.page
        page.wait_for_selector("html[data-search-failed]", state="attached", timeout=10_000)
        assert held and page.evaluate("typeof document$ !== 'undefined'")  # 번들은 돌았고 site.js 는 아직입니다
        assert page.locator("html").get_attribute("data-search") is None
        for route in held:
            route.continue_()
        page.wait_for_selector("html[data-search=unavailable]", state="attached", timeout=10_000)
        assert "검색할 수 없습니다" in page.locator(".md-search-result__meta").text_content()
        assert not uncaught, uncaught
    finally:
        tab.context.unroute("**/assets/site.js")
        tab.close()
