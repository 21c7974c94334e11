"""페이지(docs/)의 코드 블록과 규칙: 모든 python 블록이 돌아가고, 코드가 직접 적혀 있지 않습니다."""

import functools
import re

import pytest

from conftest import SNIPPETS
from page_outputs import page_outputs
from site_pages import DOCS, figure_refs, markdown_pages, nav_pages, page_blocks
from sitebuild import figures

FENCE = re.compile(r"^\s*(```+|~~~+)\s*(\S*)")
CODE_LANGS = {"python", "py", "python3", "pycon", "ipython", "numpy"}


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("page", markdown_pages())
def test_page_python_blocks_run(page):
    """(b) include 를 펼친 블록을 pytest-codeblocks 추출기로 꺼내 페이지 순서대로 실행합니다 (세션에 한 번)."""
    assert len(page_outputs(page)) == len(page_blocks(page))


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("page", markdown_pages())
def test_no_inline_python(page):
    """(d) 페이지의 코드 블록에는 `--8<--` include 줄만 있어야 합니다."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            fence, lang = m.group(1), m.group(2).lstrip("{ .").lower()
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].strip().startswith(fence):
                body.append(lines[j].strip())
                j += 1
            if lang in CODE_LANGS or lang == "":
                typed = [b for b in body if b and not b.startswith("--8<--")]
                assert not typed, f"{page}:{i + 1}: 코드가 직접 적혀 있습니다: {typed[:2]}"
            i = j
        i += 1


@pytest.mark.reads("docs/*.md")
def test_every_page_is_in_nav():
    missing = set(markdown_pages()) - set(nav_pages())
    assert not missing, f"nav 에 없는 페이지: {sorted(missing)}"


@functools.cache
def known_figures():
    return figures.discover(SNIPPETS)  # 스니펫 파일 모두를 AST 로 읽습니다: 페이지마다가 아니라 한 번


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize("page", markdown_pages())
def test_figure_references_exist(page):
    """페이지가 부르는 그림마다 그것을 그리는 figure_* 함수가 스니펫에 있습니다."""
    known = known_figures()
    for name, alt in figure_refs(page):
        assert name in known, f"{page}: 그림 {name} 을 그리는 함수가 없습니다"
        assert alt.strip(), f"{page}: 그림 {name} 에 대체 텍스트가 없습니다"
        assert re.search(r"[가-힣]", alt), f"{page}: 그림 {name} 의 대체 텍스트가 한국어가 아닙니다"


def source_of(doc):
    """nav 항목의 원본 파일: 실습 노트북(practice/*.ipynb)은 snippets/notebooks/*.md 에서 만들어집니다."""
    if doc.startswith("practice/") and doc.endswith(".ipynb"):
        return SNIPPETS / "notebooks" / (doc.removeprefix("practice/").removesuffix(".ipynb") + ".md")
    return DOCS / doc


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
def test_pages_end_with_next_link():
    """nav 순서대로, 마지막 페이지를 빼고는 다음 페이지로 가는 링크로 끝납니다."""
    pages = nav_pages()
    for here, nxt in zip(pages, pages[1:]):
        tail = source_of(here).read_text(encoding="utf-8").rstrip().splitlines()[-1]
        assert tail.startswith("다음 장:"), f"{here}: 마지막 줄이 '다음 장:' 링크가 아닙니다: {tail!r}"
        target = re.search(r"\]\(([^)#]+)", tail).group(1)
        assert (DOCS / here).parent.joinpath(target).resolve() == (DOCS / nxt).resolve(), (
            f"{here}: 다음 장 링크가 {target} 인데 nav 의 다음 페이지는 {nxt} 입니다"
        )
