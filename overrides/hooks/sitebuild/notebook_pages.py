"""mkdocs-jupyter 가 만든 노트북 페이지를 사이트의 다른 페이지처럼 가볍게 바꿉니다.

mkdocs-jupyter 는 노트북 페이지마다 JupyterLab CSS 약 580 KB, 복사 단추 스크립트, MathJax 설정
스크립트를 HTML 안에 넣고, 그림은 base64 로 박아 넣습니다. 여기서는 HTML 을 BeautifulSoup 으로 읽어
노트북 셀만 골라 새 본문을 짓습니다.

- 마크다운 셀: mkdocs-jupyter 가 사이트의 Markdown 확장으로 그린 그대로 옮깁니다.
- 코드 셀: 노트북 원본의 코드를 본문 페이지와 같은 Pygments 설정(codestyle.LeanTokens)으로 다시 칠합니다.
- 출력: 본문 페이지와 같은 "실행 결과" 블록(fences.output_html)으로. 그림 출력은 커널이 그린 PNG 대신,
  같은 데이터를 그리는 사이트 그림(밝은/어두운 테마, 좁은/넓은 판)으로 바꿉니다. 노트북 원본
  (snippets/notebooks/*.md)의 그림 셀 정보 문자열 ```` ```python figure="모듈-이름" alt="..." ```` 이
  셀 메타데이터 attention_site 로 실려 어느 그림인지 알려 줍니다. 커널의 PNG 는 흰 바탕 한 가지뿐이라
  어두운 테마에서 흰 카드가 되고, 휴대전화에서는 글자가 너무 작아지기 때문입니다.
- 맨 위 제목 아래에 .ipynb 내려받기 단추를 답니다.
- 셀 메타데이터의 fold / fold_output 이 있는 셀은 코드와 출력을, 또는 출력만 닫힌 접기에 넣습니다 (folded).

mkdocs-jupyter 의 HTML 구조(아래 SELECTORS)와 마크다운 셀을 넘기는 방식에 기대므로, 그 약속은
tests/test_contracts.py 가 지킵니다.
"""

import html
import re
import xml.etree.ElementTree as etree
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from .codestyle import LeanTokens
from .fences import output_html
from .figure_markup import figure_info, figure_links
from .lines import code_break_points, wrap_lines
from .notebooks import SITE_KEY

# mkdocs-jupyter 0.27 의 출력에서 기대는 구조
SELECTORS = {
    "cells": "div.jp-Notebook > div.jp-Cell",  # 셀마다 하나
    "markdown": ".jp-RenderedMarkdown",  # 마크다운 셀의 그려진 내용
    "cell_id": "div[id^='cell-id=']",  # 코드 셀의 노트북 셀 id (id="cell-id=<id>")
    "output": ".jp-OutputArea-output",  # 코드 셀의 출력 하나
}
MARKDOWN_CELL_CLASS = "jp-MarkdownCell"


class NotebookPageError(RuntimeError):
    pass


_CODE = re.compile(r"(<code>)(.*)(</code></pre>)", re.S)


def code_block(source):
    """코드 셀 하나 → 본문 페이지의 코드 블록과 같은 모양 (div.highlight > pre > code), 검색 색인 제외.

    노트북 페이지의 코드는 긴 줄을 상자 안에서 접습니다 (issue 41: 휴대전화에서 채점 도구의 줄이 783 px 까지 가로로
    넘쳤습니다). 접은 상자 속 코드와 같은 방법입니다: 가장 좁은 상자에 들어가지 않는 줄만 span.line 으로 감싸 내어쓰기로
    접고(lines.py, site.css 의 .notebook pre > code), 복사하는 글은 그대로입니다."""
    lexer = PythonLexer(filters=[LeanTokens()])
    html = highlight(source, lexer, HtmlFormatter(wrapcode=True))
    html = _CODE.sub(lambda m: m.group(1) + wrap_lines(m.group(2), code_break_points(m.group(2))) + m.group(3), html)
    block = BeautifulSoup(html, "html.parser").div
    block["data-search-exclude"] = ""
    return block


def folded(soup, out, summary):
    """out 끝에 닫힌 접기(<details class="notebook-fold">)를 달고 그 접기를 돌려줍니다: 독자가 열 때까지 안 보이는 곳.

    휴대전화에서 180줄 남짓한 채점 도구가 3,500 px 를 차지하고, 연습 문제의 출력(확인 함수가 짚은 실수)과 풀이는
    먼저 예상해 볼 답을 알려 줍니다 (issue 41). 노트북 원본의 정보 문자열 fold="…"(코드와 출력)나
    fold_output="…"(출력만)가 요약 글이 됩니다 (notebooks.py)."""
    details = soup.new_tag("details", attrs={"class": "notebook-fold"})
    head = soup.new_tag("summary")
    head.string = summary
    details.append(head)
    out.append(details)
    return details


def unescape_markdown_cells(page_markdown, notebook_path):
    """mkdocs-jupyter 가 마크다운 셀의 글을 HTML 이스케이프해서 넘기는 것을 되돌립니다.

    markdown_cell_processor: mkdocs 에서 mkdocs-jupyter 는 셀의 마크다운을 `&`, `<`, `>` 를 바꾼 채로
    md_in_html 블록에 넣습니다. 그러면 `> 인용` 이 인용문이 되지 못하고 "> " 가 글자로 보입니다.
    노트북의 마크다운 셀 원문을 알고 있으므로, 이스케이프된 그 원문을 찾아 원문으로 되돌립니다.
    원문을 찾지 못하면(mkdocs-jupyter 가 방식을 바꿨으면) 조용히 넘어가지 않고 오류를 냅니다.
    """
    nb = nbformat.read(str(notebook_path), as_version=4)
    position = 0
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        escaped = html.escape(cell.source, quote=False)
        found = page_markdown.find(escaped, position)
        if found < 0:
            raise NotebookPageError(
                f"{Path(notebook_path).name}: mkdocs-jupyter 가 넘긴 페이지에서 마크다운 셀을 "
                f"찾지 못했습니다 ({cell.source[:40]!r}…). 셀을 넘기는 방식이 바뀌었습니다"
            )
        page_markdown = page_markdown[:found] + cell.source + page_markdown[found + len(escaped) :]
        position = found + len(cell.source)
    return page_markdown


def slim_notebook_html(page_html, notebook_path, label, figures, page_url):
    """노트북 페이지 HTML → 가벼운 HTML. figures 는 빌드의 FigureSet, page_url 은 이 페이지의 URL."""
    nb = nbformat.read(str(notebook_path), as_version=4)
    cells = {c.get("id"): c for c in nb.cells}
    soup = BeautifulSoup(page_html, "html.parser")
    if soup.select_one("div.jp-Notebook") is None:
        raise NotebookPageError(f"{label}: mkdocs-jupyter 출력에서 노트북(jp-Notebook)을 찾지 못했습니다")

    out = soup.new_tag("div", attrs={"class": "notebook"})
    download = soup.new_tag("p", attrs={"class": "notebook-download"})
    link = soup.new_tag(
        "a", href=Path(notebook_path).name, download="", attrs={"class": "md-button md-button--primary"}
    )
    link.string = f"노트북 내려받기 ({Path(notebook_path).name})"
    download.append(link)
    note = soup.new_tag("span")
    note.string = "numpy와 matplotlib만 있으면 그대로 돌아갑니다."
    download.append(note)

    for cell in soup.select(SELECTORS["cells"]):
        if MARKDOWN_CELL_CLASS in cell.get("class", []):
            for child in list(cell.select_one(SELECTORS["markdown"]).children):
                out.append(child.extract())
                if download is not None and getattr(child, "name", None) == "h1":
                    out.append(download)  # 내려받기 단추는 제목 바로 아래에 둡니다
                    download = None
            continue
        inner = cell.select_one(SELECTORS["cell_id"])
        cell_id = inner.get("id", "").removeprefix("cell-id=") if inner is not None else ""
        if cell_id not in cells:
            raise NotebookPageError(f"{label}: 코드 셀의 id({cell_id!r})를 노트북에서 찾지 못했습니다")
        site = cells[cell_id].metadata.get(SITE_KEY, {})
        code_to = output_to = out
        if site.get("fold"):  # 코드와 출력을 함께 접습니다 (채점 도구, 풀이)
            lines = len(cells[cell_id].source.splitlines())
            code_to = output_to = folded(soup, out, f"{site['fold']} ({lines}줄)")
        code_to.append(code_block(cells[cell_id].source))
        if site.get("fold_output") and cell.select(SELECTORS["output"]):  # 답을 드러내는 출력만 접습니다
            output_to = folded(soup, out, site["fold_output"])
        text = []  # 이어진 텍스트 출력은 한 블록으로: 커널은 print 한 번도 여러 조각으로 보낼 수 있습니다

        def flush_text():
            if text:
                output_to.append(BeautifulSoup(output_html("".join(text)), "html.parser"))
                text.clear()

        for output in cell.select(SELECTORS["output"]):
            img = output.find("img")
            if img is not None and img.get("src", "").startswith("data:image/"):
                flush_text()
                if not site.get("figure"):
                    raise NotebookPageError(
                        f"{label}: 셀 {cell_id} 가 그림을 그리는데 어느 사이트 그림인지 모릅니다 "
                        '(노트북 원본의 ```python figure="모듈-이름" alt="..." 로 적어 주세요)'
                    )
                try:
                    info = figure_info(figures, site["figure"], (site.get("alt") or "").strip())
                except PluginError as exc:
                    raise NotebookPageError(f"{label}: 셀 {cell_id}: {exc}") from exc
                para = etree.Element("p")
                para.extend(figure_links(info, site["alt"], lambda f: get_relative_url(f"figures/{f}", page_url)))
                output_to.append(BeautifulSoup(etree.tostring(para, encoding="unicode", method="html"), "html.parser"))
                continue
            pre = output.find("pre")
            if pre is not None:
                text.append(pre.get_text())
                continue
            if output.get_text(strip=True):
                raise NotebookPageError(
                    f"{label}: 셀 {cell_id} 에 처리할 수 없는 출력이 있습니다: {html.escape(str(output)[:200])}"
                )
        flush_text()
    if download is not None:  # 제목이 없는 노트북이면 맨 위에
        out.insert(0, download)
    # 노트북 셀 밖의 나머지(스타일 시트, 스크립트)는 모두 버립니다.
    return str(out)
