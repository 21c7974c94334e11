"""실습 노트북(.ipynb)을 스니펫에서 만듭니다.

노트북의 원본은 `snippets/notebooks/<이름>.md` 입니다. 페이지와 같은 문법을 씁니다:
python 코드 블록에는 `--8<-- "파일.py:절"` 줄만 있고, 나머지 글은 마크다운 셀이 됩니다
(제목 줄마다 새 셀). 코드 셀은 include 를 펼친 스니펫 절 그대로라서 노트북과 스니펫이
어긋날 수 없습니다.

노트북은 저장소 밖에서 혼자 돌아가야 하므로(내려받아 Jupyter·Colab 에서 실행), 코드 셀은
저장소 모듈을 import 하지 않고 필요한 절(어텐션 코어 포함)을 직접 담습니다. 그래서
mkdocs-jupyter 의 실행 캐시(노트북 파일 내용이 열쇠)도 스니펫이 바뀌면 저절로 무효가 됩니다.
"""

import json
import re
from pathlib import Path

FENCE = re.compile(r"^(`{3,})\s*(\S*)(?P<rest>.*)$")
ALT = re.compile(r'alt="([^"]+)"')


def cells_from_markdown(text, expand):
    """마크다운 원본 → [(종류, 내용, 메타데이터)]: python 블록은 code, 나머지는 제목마다 나눈 markdown.

    코드 블록 정보 문자열의 alt="..." 는 그 셀이 그리는 그림의 대체 텍스트가 됩니다.
    """
    cells, buf = [], []

    def flush_markdown():
        body = "\n".join(buf).strip("\n")
        if body.strip():
            cells.append(("markdown", body, {}))
        buf.clear()

    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m.group(2) == "python":
            flush_markdown()
            j = i + 1
            while not lines[j].startswith(m.group(1)):
                j += 1
            code = expand("\n".join(lines[i + 1:j])).strip("\n")
            alt = ALT.search(m.group("rest"))
            cells.append(("code", code, {"attention_site": {"alt": alt.group(1)}} if alt else {}))
            i = j + 1
            continue
        if lines[i].startswith("#") and buf:
            flush_markdown()
        buf.append(lines[i])
        i += 1
    flush_markdown()
    return cells


def notebook_json(cells):
    nb_cells = []
    for i, (kind, source, metadata) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"cell-{i:02d}", "metadata": metadata,
                "source": source.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        nb_cells.append(cell)
    nb = {
        "cells": nb_cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, ensure_ascii=False, indent=1) + "\n"


def build_notebooks(src_dir, out_dir, expand):
    """src_dir/*.md 마다 out_dir/<이름>.ipynb 를 만듭니다. 내용이 같으면 파일을 건드리지 않습니다."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(Path(src_dir).glob("*.md")):
        target = out_dir / f"{src.stem}.ipynb"
        content = notebook_json(cells_from_markdown(src.read_text(encoding="utf-8"), expand))
        if not target.exists() or target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8")
        written.append(target)
    for stale in set(out_dir.glob("*.ipynb")) - set(written):
        stale.unlink()
    return written
