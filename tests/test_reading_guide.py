"""들어가며의 읽는 법 (issue 41 §3): nav 의 모든 페이지를 링크로 부르고, 장 목록 밖의 페이지는 어느 장 위에 쌓이는지 밝힙니다.

새 페이지를 nav 에 넣고 읽는 법에 적지 않으면 여기서 실패합니다 (예전에는 가장 새 페이지 셋이 빠져 있었습니다)."""

import re

import pytest

from site_pages import DOCS, nav_pages

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def guide():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    start = text.index("## 이 사이트를 읽는 법")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.reads("docs/*.md")
def test_the_guide_links_every_nav_page():
    linked = {link for link in LINK.findall(guide()) if "://" not in link}
    missing = [doc for doc in nav_pages() if doc != "index.md" and doc not in linked]
    assert not missing, f"들어가며의 읽는 법이 부르지 않는 nav 페이지: {missing}"
    assert linked <= set(nav_pages()), f"읽는 법이 nav 에 없는 페이지를 부릅니다: {sorted(linked - set(nav_pages()))}"


@pytest.mark.reads("docs/index.md")
def test_every_guide_line_after_the_chapters_says_what_it_builds_on():
    """장 목록 다음의 줄마다: 괄호 속 장, 화살표의 앞 페이지, 또는 "아무 때나" (부록)."""
    text = guide()
    assert "장마다 바로 앞 장 위에 쌓입니다" in text and "괄호 속 장과 화살표(→)의 앞 페이지 위에 쌓입니다" in text
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines
    for line in lines:
        assert re.search(r"\(\d(?:·\d)*장\)", line) or "아무 때나" in line, line
    chapters = [line for line in text.splitlines() if re.match(r"\d\. \[", line)]
    assert len(chapters) == 7
