"""mkdocs-jupyter 가 만든 노트북 페이지를 사이트의 다른 페이지처럼 가볍게 바꿉니다.

mkdocs-jupyter 는 노트북 페이지마다 JupyterLab CSS 약 580 KB, 복사 단추 스크립트, MathJax 설정
스크립트를 HTML 안에 넣고, 그림은 base64 로 박아 넣습니다. 여기서는

- 노트북 셀만 남기고 그 <style>/<script> 를 모두 빼고,
- 코드 셀은 Material 이 꾸미는 `<div class="highlight"><pre><code>` 구조로,
  출력은 본문 페이지와 같은 "실행 결과" 블록으로 바꾸고,
- base64 그림은 PNG 파일로 꺼내 너비·높이·대체 텍스트·지연 로딩을 붙이고,
- 맨 위에 .ipynb 내려받기 단추를 답니다.

그림의 대체 텍스트는 노트북 원본(snippets/notebooks/*.md)의 코드 블록 정보 문자열
```` ```python alt="..." ```` 에서 오며, 셀 메타데이터 attention_site.alt 로 노트북에 실립니다.
"""

import base64
import html
import json
import struct
from pathlib import Path

from bs4 import BeautifulSoup


class NotebookPageError(RuntimeError):
    pass


def _png_size(data):
    return struct.unpack(">II", data[16:24])


def _palette_png(data):
    """256색 팔레트 PNG 로 줄입니다 (사이트의 다른 그림과 같은 방식)."""
    import io

    from PIL import Image

    out = io.BytesIO()
    with Image.open(io.BytesIO(data)) as im:
        im.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _output_block(soup, text):
    """본문 페이지의 "실행 결과" 블록과 같은 모양 (lean_html.output_blocks_as_samp 참고)."""
    wrapper = soup.new_tag("div", attrs={"class": "cell-output"})
    title = soup.new_tag("span", attrs={"class": "filename"})
    title.string = "실행 결과"
    pre = soup.new_tag("pre", tabindex="0")
    code = soup.new_tag("samp")
    code.string = text
    pre.append(code)
    wrapper.append(title)
    wrapper.append(pre)
    return wrapper


def slim_notebook_html(page_html, notebook_path, out_dir, label):
    """노트북 페이지 HTML → 가벼운 HTML. 꺼낸 그림은 out_dir 에 씁니다."""
    nb = json.loads(Path(notebook_path).read_text(encoding="utf-8"))
    alts = {c["id"]: c.get("metadata", {}).get("attention_site", {}).get("alt") for c in nb["cells"]}
    soup = BeautifulSoup(page_html, "html.parser")

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
    for cell in soup.select("div.jp-Notebook > div.jp-Cell"):
        classes = cell.get("class", [])
        if "jp-MarkdownCell" in classes:
            rendered = cell.select_one(".jp-RenderedMarkdown")
            for child in list(rendered.children):
                out.append(child.extract())
                if download is not None and getattr(child, "name", None) == "h1":
                    out.append(download)  # 내려받기 단추는 제목 바로 아래에 둡니다
                    download = None
            continue
        inner = cell.select_one("div[id^='cell-id=']") or cell
        cell_id = inner.get("id", "").removeprefix("cell-id=")
        source = cell.select_one(".highlight-ipynb pre")
        if source is not None:
            block = soup.new_tag("div", attrs={"class": "highlight"})
            pre = soup.new_tag("pre")
            code = soup.new_tag("code")
            for child in list(source.children):
                code.append(child.extract())
            pre.append(code)
            block.append(pre)
            out.append(block)
        for output in cell.select(".jp-OutputArea-output"):
            img = output.find("img")
            if img is not None and img.get("src", "").startswith("data:image/png;base64,"):
                data = base64.b64decode(img["src"].split(",", 1)[1])
                alt = alts.get(cell_id)
                if not alt:
                    raise NotebookPageError(f"{label}: 셀 {cell_id} 의 그림에 대체 텍스트가 없습니다 "
                                            '(노트북 원본의 ```python alt="..." 로 적어 주세요)')
                n_images += 1
                name = f"figure-{cell_id}-{n_images}.png"
                Path(out_dir).mkdir(parents=True, exist_ok=True)
                data = _palette_png(data)
                (Path(out_dir) / name).write_bytes(data)
                w, h = _png_size(data)
                figure = soup.new_tag("p")
                figure.append(soup.new_tag("img", src=name, alt=alt, width=str(w), height=str(h),
                                           loading="lazy", attrs={"class": "notebook-figure"}))
                out.append(figure)
                continue
            pre = output.find("pre")
            if pre is not None:
                out.append(_output_block(soup, pre.get_text()))
                continue
            if output.get_text(strip=True):
                raise NotebookPageError(f"{label}: 셀 {cell_id} 에 처리할 수 없는 출력이 있습니다: "
                                        f"{html.escape(str(output)[:200])}")
    if download is not None:  # 제목이 없는 노트북이면 맨 위에
        out.insert(0, download)
    if soup.select_one("div.jp-Notebook") is None:
        raise NotebookPageError(f"{label}: mkdocs-jupyter 출력에서 노트북(jp-Notebook)을 찾지 못했습니다")
    # 노트북 셀 밖의 나머지(스타일 시트, 스크립트, 그리고 mkdocs 마크다운 처리 때 코드 블록으로
    # 바뀌어 버린 CSS 조각)는 모두 버립니다.
    return str(out)
