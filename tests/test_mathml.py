"""수식: 모든 페이지의 TeX 가 MathML 로 바뀌고, 쓰는 글자가 모두 잘라 낸 수식 글꼴에 있습니다."""

import markdown
import pytest
from site_pages import DOCS, expander, markdown_pages, site_config
from sitebuild import mathfont, mathml

from conftest import SNIPPETS


@pytest.fixture(scope="module")
def font(tmp_path_factory):
    return mathfont.build_math_font(tmp_path_factory.mktemp("fonts"))


def test_subset_font_covers_its_charset(font):
    """빌드가 남기기로 한 글자(CHARSET)는 잘라 낸 글꼴에 모두 있습니다."""
    assert mathfont.missing_characters(font, mathfont.CHARSET) == []
    assert mathfont.missing_characters(font, "x가") == ["가"]  # 없는 글자는 정말 찾아냅니다


def test_every_formula_renders_with_covered_characters(font):
    """모든 페이지와 노트북 원본의 수식을 사이트의 Markdown 설정으로 바꿔 보고, 쓰인 글자를 글꼴과 맞춰 봅니다."""
    cfg = site_config()
    seen = set()
    sources = [DOCS / p for p in markdown_pages()] + sorted((SNIPPETS / "notebooks").glob("*.md"))
    formulas = 0
    for path in sources:
        md = markdown.Markdown(extensions=[*cfg["markdown_extensions"], mathml.MathExtension(seen)],
                               extension_configs=cfg["mdx_configs"])
        html = md.convert(expander()(path.read_text(encoding="utf-8")))
        formulas += html.count("<math ")
    assert formulas > 30
    assert "√" in seen and "𝑑" in seen  # 근호와 수학 이탤릭 d 가 실제로 쓰입니다
    assert mathfont.missing_characters(font, seen) == [], "수식이 쓰는 글자가 수식 글꼴에 없습니다"
