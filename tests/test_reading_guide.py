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
    assert "1–7장은 차례로 읽습니다." in text and "괄호 속 장을 먼저 읽고, 화살표(→)를 따라 읽습니다." in text
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines
    for line in lines:
        assert re.search(r"\(\d(?:·\d)*장\)", line) or "아무 때나" in line, line
    chapters = [line for line in text.splitlines() if re.match(r"\d\. \[", line)]
    assert len(chapters) == 7


@pytest.mark.reads("docs/index.md")
def test_the_guide_says_how_to_run_the_notebooks_without_promising_a_link_it_lacks():
    """issue 41: 읽는 법이 "Colab에서도 돕니다" 라고 약속했지만 링크가 없었습니다. Colab 링크는 저장소의 GitHub 경로가
    있어야 만들 수 있는데 이 사이트에는 없으므로(mkdocs.yml 에 repo_url 이 없습니다), 약속 대신 내려받아 실행한다고 씁니다.
    실습 링크는 숫자 한 글자("1·2·3")가 아니라 낱말이고, 누르기 좋은 크기(site.css 의 .tap, 44 px)입니다."""
    from site_pages import ROOT

    text = guide()
    assert "Colab" not in text or "colab.research.google.com" in text
    assert "repo_url" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8") or "colab.research.google.com" in text
    practice = next(line for line in text.splitlines() if line.startswith("- 실습"))
    assert "내려받아 실행" in practice
    links = re.findall(r"\[([^\]]+)\]\((practice/[^)]+)\)(\{ \.tap \})?", practice)
    assert len(links) == 3 and all(len(label) >= 5 and tap for label, _, tap in links), links
