"""mkdocs-jupyter 가 만든 노트북 페이지를 사이트의 다른 페이지처럼 가볍게 바꿉니다.

mkdocs-jupyter 는 노트북 페이지마다 JupyterLab CSS 약 580 KB, 복사 단추 스크립트, MathJax 설정
스크립트를 HTML 안에 넣고, 그림은 base64 로 박아 넣습니다. 여기서는 HTML 을 BeautifulSoup 으로 읽어
노트북 셀만 골라 새 본문을 짓습니다.

- 마크다운 셀: mkdocs-jupyter 가 사이트의 Markdown 확장으로 그린 그대로 옮깁니다.
- 코드 셀: 노트북 원본의 코드를 본문 페이지와 같은 Pygments 설정(codestyle.LeanTokens)으로 다시 칠합니다.
- 출력: 본문 페이지와 같은 "실행 결과" 블록(fences.output_html)으로, base64 그림은 PNG 파일로 꺼내
  너비·높이·대체 텍스트·지연 로딩을 붙입니다.
- 맨 위 제목 아래에 .ipynb 내려받기 단추를 답니다.

그림의 대체 텍스트는 노트북 원본(snippets/notebooks/*.md)의 코드 블록 정보 문자열
```` ```python alt="..." ```` 에서 오며, 셀 메타데이터 attention_site.alt 로 노트북에 실립니다.
mkdocs-jupyter 의 HTML 구조(아래 SELECTORS)에 기대므로, 그 약속은 tests/test_contracts.py 가 지킵니다.
"""

import base64
import html
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from . import images
from .codestyle import LeanTokens
from .fences import output_html
from .notebooks import SITE_KEY

# mkdocs-jupyter 0.27 의 출력에서 기대는 구조
SELECTORS = {
    "cells": "div.jp-Notebook > div.jp-Cell",     # 셀마다 하나
    "markdown": ".jp-RenderedMarkdown",            # 마크다운 셀의 그려진 내용
    "cell_id": "div[id^='cell-id=']",              # 코드 셀의 노트북 셀 id (id="cell-id=<id>")
    "output": ".jp-OutputArea-output",             # 코드 셀의 출력 하나
}
MARKDOWN_CELL_CLASS = "jp-MarkdownCell"


class NotebookPageError(RuntimeError):
    pass


def code_block(source):
    """코드 셀 하나 → 본문 페이지의 코드 블록과 같은 모양 (div.highlight > pre > code), 검색 색인 제외."""
    lexer = PythonLexer(filters=[LeanTokens()])
    block = BeautifulSoup(highlight(source, lexer, HtmlFormatter(wrapcode=True)), "html.parser").div
    block["data-search-exclude"] = ""
    return block


def slim_notebook_html(page_html, notebook_path, out_dir, label):
    """노트북 페이지 HTML → 가벼운 HTML. 꺼낸 그림은 out_dir 에 씁니다."""
    nb = nbformat.read(str(notebook_path), as_version=4)
    cells = {c.get("id"): c for c in nb.cells}
    soup = BeautifulSoup(page_html, "html.parser")
    if soup.select_one("div.jp-Notebook") is None:
        raise NotebookPageError(f"{label}: mkdocs-jupyter 출력에서 노트북(jp-Notebook)을 찾지 못했습니다")

    out = soup.new_tag("div", attrs={"class": "notebook"})
    download = soup.new_tag("p", attrs={"class": "notebook-download"})
    link = soup.new_tag("a", href=Path(notebook_path).name, download="",
                        attrs={"class": "md-button md-button--primary"})
    link.string = f"노트북 내려받기 ({Path(notebook_path).name})"
    download.append(link)
    note = soup.new_tag("span")
    note.string = "numpy와 matplotlib만 있으면 Jupyter나 Colab에서 그대로 실행됩니다."
    download.append(note)

    n_images = 0
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
        out.append(code_block(cells[cell_id].source))
        text = []  # 이어진 텍스트 출력은 한 블록으로: 커널은 print 한 번도 여러 조각으로 보낼 수 있습니다

        def flush_text():
            if text:
                out.append(BeautifulSoup(output_html("".join(text)), "html.parser"))
                text.clear()

        for output in cell.select(SELECTORS["output"]):
            img = output.find("img")
            if img is not None and img.get("src", "").startswith("data:image/png;base64,"):
                flush_text()
                alt = cells[cell_id].metadata.get(SITE_KEY, {}).get("alt")
                if not alt:
                    raise NotebookPageError(f"{label}: 셀 {cell_id} 의 그림에 대체 텍스트가 없습니다 "
                                            '(노트북 원본의 ```python alt="..." 로 적어 주세요)')
                n_images += 1
                name = f"figure-{cell_id}-{n_images}.png"
                data = images.palette_png(base64.b64decode(img["src"].split(",", 1)[1]))
                Path(out_dir).mkdir(parents=True, exist_ok=True)
                (Path(out_dir) / name).write_bytes(data)
                w, h = images.png_size(data)
                figure = soup.new_tag("p")
                figure.append(soup.new_tag("img", src=name, alt=alt, width=str(w), height=str(h),
                                           loading="lazy", attrs={"class": "notebook-figure"}))
                out.append(figure)
                continue
            pre = output.find("pre")
            if pre is not None:
                text.append(pre.get_text())
                continue
            if output.get_text(strip=True):
                raise NotebookPageError(f"{label}: 셀 {cell_id} 에 처리할 수 없는 출력이 있습니다: "
                                        f"{html.escape(str(output)[:200])}")
        flush_text()
    if download is not None:  # 제목이 없는 노트북이면 맨 위에
        out.insert(0, download)
    # 노트북 셀 밖의 나머지(스타일 시트, 스크립트)는 모두 버립니다.
    return str(out)
