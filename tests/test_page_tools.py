"""페이지의 도구: 페이지가 머리말의 tools: 에 적은 도구와 표(overrides/tools.yml)로 빌드가 붙이는 파일을 정합니다
(overrides/hooks/sitebuild/tools.py, overrides/main.html).

- 표: 도구마다 상자(markup)와 붙일 파일(loads)이 있고, 그 파일이 docs/ 에 있습니다. 공통 도구(explorer-common.js)를 쓰는
  스크립트는 그것보다 뒤에, 헤드 끄기(head-switch.js)는 head-explorer.js 보다 앞에 붙습니다.
- 페이지: 적은 도구는 모두 표에 있고, 도구의 상자가 있는 페이지는 그 도구를 적었고, 적은 페이지에는 상자가 있습니다.
  빌드된 페이지는 적은 도구의 파일을 정확히 붙입니다 (더도 덜도 아니게). 한 페이지에 여러 갈래의 도구가 함께 붙습니다.
- 어긋나면 빌드가 멈춥니다 (sitebuild.tools.page_tools 의 ToolError).
"""

import re

import lxml.html
import pytest
import yaml

from conftest import ROOT
from site_pages import nav_pages
from sitebuild import tools
from support.pageweight import page_file as page_html

# make quick: 이 파일의 모든 테스트가 import 말고 읽는 것 (테스트마다 더 읽는 것은 그 함수에; tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/assets/*")


TABLE = tools.load_table()
COMMON = "assets/explorer-common.js"


def front_matter(doc):
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    m = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return yaml.safe_load(m.group(1)) if m else {}


def site_script(html):
    """빌드된 페이지의 사이트 스크립트(site.js) 태그의 속성."""
    doc = lxml.html.document_fromstring(html)
    (script,) = [s for s in doc.iter("script") if (s.get("src") or "").endswith("assets/site.js")]
    return dict(script.attrib)


def test_every_tool_in_the_table_has_its_files():
    for name, tool in TABLE.items():
        for src in tool["loads"]:
            assert (ROOT / "docs" / src).is_file(), (name, src)
        scripts = [src for src in tool["loads"] if src.endswith(".js")]
        users = [src for src in scripts if src != COMMON]
        uses_common = [
            src for src in users if "attentionExplorers" in (ROOT / "docs" / src).read_text(encoding="utf-8")
        ]
        if uses_common:  # 공통 도구를 쓰는 스크립트는 그것이 먼저 붙는 도구에만
            assert scripts.index(COMMON) < min(scripts.index(src) for src in uses_common), name
    order = list(TABLE)
    assert order.index("head-switch") < order.index("head-explorer")  # 스위치가 먼저 실행되어야 붙습니다


@pytest.mark.reads("docs/*.md")
def test_every_declared_tool_exists_and_every_box_is_declared():
    """docs/*.md 의 머리말에 적은 도구는 모두 표에 있고, 적은 페이지에만 그 도구의 상자가 있습니다 (원본 Markdown 기준;
    빌드된 HTML 기준은 아래 테스트)."""
    seen = set()
    for doc in nav_pages():
        if not doc.endswith(".md"):
            continue
        names = tools.declared(front_matter(doc), doc, TABLE)
        seen |= set(names)
        assert len(names) == len(set(names)), doc
    assert seen == set(TABLE), f"어느 페이지도 쓰지 않는 도구: {set(TABLE) - seen}"


def test_page_tools_fail_loudly():
    html = '<div class="journey" data-src="x"></div><div class="predict" data-src="y"></div>'
    got = tools.page_tools({"tools": ["predict", "journey"]}, html, "p.md", TABLE)
    assert got["loads"] == list(dict.fromkeys(TABLE["predict"]["loads"] + TABLE["journey"]["loads"]))
    assert got["boxes"] == ".predict[data-src], .journey[data-src]"
    assert got["waiting"] == tools.WAITING
    # 차례는 표의 차례: 머리말에 적은 차례와 상관없습니다
    assert tools.page_tools({"tools": ["journey", "predict"]}, html, "p.md", TABLE) == got
    assert tools.page_tools({}, "<p>글</p>", "p.md", TABLE) is None
    with pytest.raises(tools.ToolError, match=r"p\.md.*\['journey'\].*tools 에 없습니다"):
        tools.page_tools({"tools": ["predict"]}, html, "p.md", TABLE)
    with pytest.raises(tools.ToolError, match=r"qk-picture.*상자가 페이지에 없습니다"):
        tools.page_tools({"tools": ["predict", "journey", "qk-picture"]}, html, "p.md", TABLE)
    with pytest.raises(tools.ToolError, match="표.*에 없는 도구.*'jorney'"):
        tools.page_tools({"tools": ["jorney"]}, html, "p.md", TABLE)
    with pytest.raises(tools.ToolError, match="목록이어야"):
        tools.page_tools({"tools": "journey"}, html, "p.md", TABLE)


@pytest.mark.reads("docs/*.md")
def test_built_pages_load_exactly_the_declared_tools(built_site):
    """빌드된 페이지마다: 상자가 있는 도구 = 머리말에 적은 도구, data-loads = 그 도구들의 파일(표의 차례, 같은 파일은 한 번).
    공통 도구는 그것을 쓰는 스크립트보다 먼저, head-switch.js 는 head-explorer.js 보다 먼저입니다. 도구가 없는 페이지는
    사이트 스크립트만 받습니다. 모델을 계산하는 스크립트(작업자)는 페이지에 붙지 않습니다: 단추를 누를 때 도구가 받습니다."""
    site, _ = built_site
    shared = 0
    for doc in nav_pages():
        html = page_html(site, doc).read_text(encoding="utf-8")
        names = front_matter(doc).get("tools", []) if doc.endswith(".md") else []
        assert tools.present(html, TABLE) == [n for n in TABLE if n in names], doc
        attrs = site_script(html)
        if not names:
            assert "data-loads" not in attrs, doc
            continue
        loads = [re.sub(r"^(\.\./)+", "", src) for src in attrs["data-loads"].split()]
        want = list(dict.fromkeys(src for n in TABLE if n in names for src in TABLE[n]["loads"]))
        assert loads == want, doc
        for src in loads:
            assert (site / src).is_file(), (doc, src)
        for name in names:
            assert TABLE[name]["boxes"] in attrs["data-boxes"], (doc, name)
        if "assets/head-switch.js" in loads:
            assert loads.index("assets/head-switch.js") < loads.index("assets/head-explorer.js"), doc
        shared += len({tuple(TABLE[n]["loads"]) for n in names}) > 1
        assert "e5-worker.js" not in attrs["data-loads"] and "gemma-worker.js" not in attrs["data-loads"], doc
        assert 'src="../assets/e5-worker.js"' not in html and 'src="../assets/gemma-worker.js"' not in html, doc
    assert shared >= 3  # 여러 갈래의 도구를 함께 쓰는 페이지 (2장: 확인 문제, q·k 그림, 따라가기; 탐색기와 확인 문제)
    four = site_script(page_html(site, "four_steps.md").read_text(encoding="utf-8"))
    assert {"assets/predict.js", "assets/qk-picture.js", "assets/journey.js"} <= {
        re.sub(r"^(\.\./)+", "", s) for s in four["data-loads"].split()
    }
