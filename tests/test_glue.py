"""줄바꿈 묶음(sitebuild/glue.py): 조사가 닫는 괄호·수식·코드 뒤에서, 숫자 범위가 대시 뒤에서 갈라지지 않게 묶습니다.

여기서는 무엇을 묶고 무엇을 그대로 두는지를 봅니다. 묶음이 실제 화면에서 줄바꿈을 막는지는 브라우저 검사
(tests/test_pages_in_browser.py 의 test_no_line_breaks_where_a_reader_trips 의 particle, range)가 봅니다.
"""

import functools

import lxml.html
import pytest
from bs4 import BeautifulSoup

from conftest import SNIPPETS
from site_pages import DOCS, markdown_pages, rendered, to_html
from sitebuild import glue


def render(text, with_glue=True):
    return BeautifulSoup(to_html(text, with_glue), "html.parser")


def glued(text):
    """묶음마다 그 안의 보이는 글자 (수식의 검색용 글자는 빼고)."""
    out = []
    for span in render(text).select("span.glue"):
        for hidden in span.select(".search-only"):
            hidden.decompose()
        out.append(span.get_text())
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("토큰 [CLS]가 맨 앞에 옵니다.", ["S]가"]),
        ("모양은 (3, 3)입니다.", ["3)입니다"]),
        ("정확도는 90%보다 높습니다.", ["0%보다"]),
        ("헤드 7-11은 조사를 봅니다.", ["7-11은"]),
        ("2–5층에서 밝습니다.", ["2–5층에서"]),
        ("코사인 0.98–0.99 사이", ["0.98–0.99"]),
        ('모델이 "나는 본다"고 합니다.', ['다"고']),  # 여는 따옴표 뒤는 묶지 않고, 닫는 따옴표 뒤만
    ],
)
def test_attached_words_and_ranges_in_text_are_glued(text, expected):
    assert glued(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "모델 all-MiniLM-L6-v2 와 e5-small 을 씁니다.",  # 숫자 범위가 아닌 하이픈
        "허용 차이는 1e-6 입니다.",
        "셀프(self) 어텐션",  # 닫는 괄호 뒤가 띄어쓰기
        "인코더-디코더 구조",  # 한글 사이의 하이픈은 그대로 (거기서 바꿔도 됩니다)
        "`split_heads`는 축을 나눕니다.",  # 글자로 끝나는 코드: keep-all 이 이미 붙여 둡니다
    ],
)
def test_what_already_holds_together_is_left_alone(text):
    assert glued(text) == []


def test_inline_math_and_code_are_glued_to_the_particle():
    """수식은 검색용 글자와 함께, 기호로 끝나는 코드는 통째로 뒤의 한글과 한 묶음이 됩니다."""
    soup = render("점수를 $\\sqrt{d_k}$로 나누고 `softmax(x)`를 씁니다.")
    spans = soup.select("span.glue")
    assert len(spans) == 2
    math, code = spans
    assert math.select_one(".arithmatex math") and math.select_one(".search-only").get_text() == "√d_k"
    assert math.contents[-1] == "로"
    assert code.code.get_text() == "softmax(x)" and code.contents[-1] == "를"


def test_a_long_element_gets_a_word_joiner_instead_of_a_span():
    """한 줄에 다 들어가지 않을 수 있는 긴 링크는 span 으로 묶지 않고(그 안에서 줄을 바꿀 수 있어야 하므로),
    링크와 조사 사이에 WORD JOINER 를 넣습니다."""
    soup = render("[셀프 어텐션(self-attention)과 크로스 어텐션(cross-attention)](x.md)에서 봅니다.")
    link = soup.a
    assert link.next_sibling.startswith(glue.JOINER + "에서")
    assert not link.find_parent("span", class_="glue")
    assert glue.width_em(link.get_text()) > glue.MAX_EM


def test_headings_get_word_joiners_that_the_table_of_contents_keeps():
    """제목에는 span 대신 WORD JOINER: 목차·탐색 서랍은 제목의 글만 가져가므로(span 은 사라짐) 거기서도 붙어 있습니다.
    앵커(id)는 묶지 않은 것과 같습니다."""
    text = "## 영어 모델(all-MiniLM-L6-v2)과 비교하기\n\n### 헤드 7-11은 `f(x)`를 봅니다\n"
    soup, plain = render(text), render(text, with_glue=False)
    assert not soup.select("span.glue")
    h2, h3 = soup.select("h2, h3")
    assert h2.contents[0] == "영어 모델(all-MiniLM-L6-v2)" + glue.JOINER + "과 비교하기"
    assert h3.contents[0] == "헤드 7-" + glue.JOINER + "11은 " and h3.code.next_sibling.startswith(glue.JOINER + "를")
    assert [h["id"] for h in soup.select("h2, h3")] == [h["id"] for h in plain.select("h2, h3")]


@pytest.mark.parametrize(
    "token",
    ["'1-7',", "0.27–0.45", "2.02e-43,", "1e-04", "∂p₁/∂s₁", "▁문제를", "'##ㄴ',", "v.shape=(6,", "1/√768(0.036)의"],
)
def test_output_tokens_that_a_browser_can_split_are_glued(token):
    """실행 결과(glue.output_tokens): 가운데서 갈릴 수 있는 토큰은 통째로 묶습니다 (브라우저가 가른 자리들)."""
    from html import escape

    assert glue.output_tokens(f"a {token} b\n") == f'a <span class="glue">{escape(token)}</span> b\n'


@pytest.mark.parametrize(
    "token", ["0.27", "-0.665", "[[-0.665", "np.float32", "1,000", "(100%)", "[CLS]", "'나는',", "90%", "x" * 40 + "-1"]
)
def test_output_tokens_that_hold_together_or_are_too_long_are_left_alone(token):
    """수(소수점, 부호, 쉼표), 이름 속의 점, 괄호·따옴표로만 둘러싼 낱말은 브라우저가 가르지 않으므로 그대로 두고, 한 줄보다
    긴 토큰은 묶으면 상자를 넘치므로 그대로 둡니다. 글은 바뀌지 않습니다."""
    from html import escape

    assert glue.output_tokens(f"a {token} b") == escape(f"a {token} b")


def test_code_blocks_and_inline_code_are_never_changed():
    soup = render("```text\nf(x)가 [CLS]를 7-11\n```\n\n`a[0]가`")
    assert soup.pre.get_text() == "f(x)가 [CLS]를 7-11\n"
    assert soup.p.code.get_text() == "a[0]가" and not soup.select("span.glue")


SOURCES = [DOCS / p for p in markdown_pages()] + sorted((SNIPPETS / "notebooks").glob("*.md"))


@functools.cache
def rendered_page(path, with_glue=True):
    """페이지 하나를 사이트의 마크다운 설정으로 (site_pages.rendered: 한 번 그린 것을 캐시에서).

    페이지 전체(코드 색칠 포함 1 MB 남짓)는 lxml 로 읽습니다: BeautifulSoup 의 html.parser 는 5초, lxml 은 0.2초입니다.
    """
    return lxml.html.fragment_fromstring(rendered(path, with_glue), create_parent="div")


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_glue_never_changes_what_a_page_says(path):
    """모든 페이지와 노트북 원본: 묶은 뒤의 글자가 묶기 전과 같습니다 (WORD JOINER 만 더해짐)."""
    before, after = rendered_page(path, with_glue=False), rendered_page(path)
    assert after.text_content().replace(glue.JOINER, "") == before.text_content()


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
def test_the_pages_have_what_the_glue_is_for():
    """대조군: 사이트의 글에는 묶을 자리가 실제로 많이 있습니다 (규칙이 헛돌지 않습니다)."""
    count = sum(len(rendered_page(p).xpath('//span[contains(concat(" ", @class, " "), " glue ")]')) for p in SOURCES)
    assert count > 300


@pytest.mark.reads("docs/assets/journey.js")
def test_journey_glues_with_the_build_rule():
    """journey.js 는 실행 중에 채운 글을 묶으므로 glue.py 의 규칙을 JavaScript 로 한 번 더 적습니다. 두 규칙이 어긋나지
    않게: 닫는 글자마다, 그 앞뒤 모양마다 둘이 같은 곳을 묶습니다. (예전에 JS 쪽에 "‰" 가 빠져 있었습니다.)"""
    import re

    source = (SNIPPETS.parent / "docs" / "assets" / "journey.js").read_text(encoding="utf-8")
    js = re.compile(re.search(r"var ATTACHED = /(.+)/g;", source).group(1))
    build = re.compile(glue._ATTACHED.pattern.replace("\\x02\\x03", ""))
    closers = list(glue.CLOSERS.replace("\\", "")) + ["“", "(", "a"]
    for c in closers:
        for text in (f"조사 에{c}이고", f"값 3{c}{c}입니다", f"끝 {c}는", f"{c}가", f"가{c} 나"):
            assert [m.group() for m in js.finditer(text)] == [m.group() for m in build.finditer(text)], text
