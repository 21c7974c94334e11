"""스크롤하지 않고 배치한 페이지: 화면 밖의 카드도 제 폭으로 배치되는지 (휴대전화 375 px).

휴대전화의 카드 표(sitebuild/tables.py, site.css 의 .table-cards)는 화면 밖에 있는 동안 배치를 미룹니다
(content-visibility: auto). 미루는 동안의 크기는 contain-intrinsic-size 가 정하는데, `auto 6em` 처럼 값 하나만 적으면
그 값이 높이와 **폭** 모두에 쓰입니다. 그러면 스크롤하지 않고 페이지 전체를 배치하는 경우(목차나 검색 결과의 링크로
페이지 가운데로 바로 가기, 인쇄, 접근성·레이아웃 검사)에 화면 밖의 카드가 6em 폭(약 113 px)으로 줄어, 용어집의
영어 용어(contrastive learning …)가 낱말 가운데서 갈립니다. tests/test_pages_in_browser.py 는 독자처럼 끝까지
내려간 뒤에 재므로(그러면 모든 카드가 한 번은 제 폭으로 배치됩니다) 이것을 보지 못했습니다.
"""

from pathlib import Path

import pytest

from browser import PHONE, Tab

pytestmark = pytest.mark.browser

MIDWORD_JS = (Path(__file__).parent / "js" / "midword_breaks.js").read_text(encoding="utf-8")

# 카드(tr)마다 화면 밖에서 배치를 건너뛰는 중인가, 그 폭과 표를 담은 상자(.table-cards)의 폭: 건너뛰는 카드도 상자의 폭이어야 합니다
CARDS_JS = """() => [...document.querySelectorAll('.table-cards table tbody tr')].map(tr => {
  const r = tr.getBoundingClientRect();
  return {top: r.top, width: r.width, box: tr.closest('.table-cards').getBoundingClientRect().width,
          skipped: !tr.cells[0].checkVisibility({contentVisibilityAuto: true}), text: tr.textContent.trim().slice(0, 30)};
})"""


@pytest.fixture(scope="module")
def fresh(browser, server):
    tab = Tab(browser, server, PHONE)
    yield tab
    tab.close()


@pytest.mark.parametrize("path", ["glossary/", "glossary/#표기-약속"])
def test_cards_off_screen_keep_the_width_of_the_page(fresh, korean_font, path):
    """맨 위에서 연 용어집과, 맨 아래 절로 바로 간 용어집: 스크롤하지 않고 잰 줄바꿈에 낱말 가운데 줄바꿈이 없고,
    화면 밖의 카드도 표의 폭 그대로입니다. 대조군: 화면 밖에서 배치를 건너뛰는 카드가 정말 있습니다."""
    page = fresh.open(path)
    page.wait_for_load_state("load")
    cards = page.evaluate(CARDS_JS)
    assert len(cards) > 80
    assert any(c["skipped"] for c in cards), "화면 밖의 카드가 배치를 건너뛰지 않아 이 테스트가 보는 것이 없습니다"
    narrow = [c for c in cards if c["width"] < c["box"] - 1]
    assert not narrow, f"표의 상자보다 좁게 배치된 카드 {len(narrow)}장: {narrow[:3]}"
    words = [b for b in page.evaluate(MIDWORD_JS) if b["kind"] == "word"]
    assert not words, f"낱말 가운데 줄바꿈 {len(words)}곳: {words[:5]}"
    fresh.assert_clean()
