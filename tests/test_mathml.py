"""수식: 모든 페이지의 TeX 가 MathML 로 바뀌고, 쓰는 글자가 모두 잘라 낸 수식 글꼴에 있습니다."""

import re
from xml.etree import ElementTree

import markdown
import pytest

import disk_cache
from conftest import ROOT, SNIPPETS
from site_pages import DOCS, markdown_pages, rendered
from sitebuild import mathfont, mathml


@pytest.fixture(scope="module")
def font():
    # 빌드와 같은 캐시: 글꼴을 자르는 데 몇 초가 걸리므로, 재료가 같으면 빌드가 만든 것을 씁니다.
    return mathfont.build_math_font(ROOT / ".cache" / "site" / "fonts", disk_cache.environment(ROOT))


def test_subset_font_covers_its_charset(font):
    """빌드가 남기기로 한 글자(CHARSET)는 잘라 낸 글꼴에 모두 있습니다."""
    assert mathfont.missing_characters(font, mathfont.CHARSET) == []
    assert mathfont.missing_characters(font, "x가") == ["가"]  # 없는 글자는 정말 찾아냅니다


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
def test_every_formula_renders_with_covered_characters(font):
    """모든 페이지와 노트북 원본의 수식을 사이트의 Markdown 설정으로 바꿔 보고, 쓰인 글자를 글꼴과 맞춰 봅니다."""
    seen = set()
    sources = [DOCS / p for p in markdown_pages()] + sorted((SNIPPETS / "notebooks").glob("*.md"))
    formulas = 0
    for path in sources:
        # 페이지의 HTML 은 site_pages.rendered 가 사이트 설정과 빌드의 수식 변환(mathml)으로 그린 것입니다.
        # 빌드의 MathExtension(seen) 이 모으는 글자와 같게, 수식(<math>…</math>)마다 mathml.characters 로 셉니다.
        for formula in re.findall(r"<math\b.*?</math>", rendered(path), re.S):
            seen |= mathml.characters(formula)
            formulas += 1
    assert formulas > 30
    assert "√" in seen and "𝑑" in seen  # 근호와 수학 이탤릭 d 가 실제로 쓰입니다
    assert mathfont.missing_characters(font, seen) == [], "수식이 쓰는 글자가 수식 글꼴에 없습니다"


def test_search_text_reads_like_the_formula():
    """검색 색인에 들어가는 수식 글자: MathML 을 그대로 이은 "dk", "QK⊤dk" 대신 읽을 수 있는 한 줄."""

    def text(tex):
        return mathml.search_text(mathml.tex_to_mathml(tex))

    assert text(r"\sqrt{d_k}") == "√d_k"
    assert text(r"\mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V") == "softmax((QK^⊤)/√d_k)V"
    assert text(r"q\cdot k=\sum_{i=1}^{d_k} q_i k_i") == "q·k=∑_(i=1)^d_k q_ik_i"


def test_formulas_are_searchable_text_and_excluded_markup():
    """수식 요소는 색인에서 빠지고(data-search-exclude), 보이지 않는 .search-only 글자가 그 자리를 대신합니다."""
    html = markdown.markdown(
        "점수를 $\\sqrt{d_k}$로 나눕니다.",
        extensions=["pymdownx.arithmatex", mathml.MathExtension()],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    assert '<span class="arithmatex" data-search-exclude="">' in html
    assert '<span class="search-only">√d_k</span>로 나눕니다.' in html


def test_formula_is_one_tree_written_once():
    """수식은 latex2mathml 의 나무 하나에서 나옵니다: 기호는 참조(&#x003B4;)가 아닌 글자로 들어가고, 직렬화가
    이스케이프를 맡으며(<mtext>a<b</mtext> 같은 깨진 HTML 이 나오지 않습니다), 글꼴 확인은 한 글자 <mi>δ</mi> 를
    브라우저처럼 수학 이탤릭(𝛿)으로도 셉니다."""
    markup = mathml.tex_to_mathml(r"p_i(\delta_{ij} - p_j) + \text{a<b}")
    assert "<mi>δ</mi>" in markup and "&#x" not in markup
    assert "<mtext>a&lt;b</mtext>" in markup
    assert ElementTree.fromstring(markup).get("alttext") == r"p_i(\delta_{ij} - p_j) + \text{a<b}"
    assert {"δ", "𝛿", "𝑝", "−"} <= mathml.characters(markup)
    assert mathml.characters(markup) == mathml.characters(mathml.math_element(r"p_i(\delta_{ij} - p_j) + \text{a<b}"))
