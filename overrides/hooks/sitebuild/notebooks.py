"""실습 노트북(.ipynb)을 스니펫에서 만듭니다 (jupytext 로 읽고 nbformat 으로 씁니다).

노트북의 원본은 `snippets/notebooks/<이름>.md` 입니다. jupytext 의 마크다운 형식 그대로입니다:
python 코드 블록은 코드 셀, 그 사이의 글은 마크다운 셀이 됩니다. 코드 블록에는 페이지처럼
`--8<-- "파일.py:절"` 줄만 있고, 여기서 include 를 펼쳐 셀에 넣습니다. 그래서 노트북과 스니펫이
어긋날 수 없고, mkdocs-jupyter 의 실행 캐시(노트북 파일 내용이 열쇠)도 스니펫이 바뀌면 저절로 빗나갑니다.

- 그림을 그리는 코드 블록에는 정보 문자열에 figure="<모듈>-<이름>" 과 alt="..." 를 적습니다 (jupytext 가
  셀 메타데이터로 읽습니다). 노트북 페이지는 그 셀의 출력 대신 같은 데이터를 그리는 사이트 그림
  (snippets 의 figure_* 함수: 밝은/어두운 테마, 좁은/넓은 판)을 그 대체 텍스트와 함께 보여 줍니다
  (notebook_pages.py). 셀 메타데이터 attention_site 로 실립니다.
- 정보 문자열의 fold="요약" 은 그 셀의 코드와 출력을, fold_output="요약" 은 출력만 사이트 페이지에서 닫힌 접기에
  넣습니다 (채점 도구, 답을 드러내는 출력, 풀이: notebook_pages.py). fold 셀은 내려받은 노트북에서도 코드가 접혀
  있습니다 (셀 메타데이터 jupyter.source_hidden). 출력은 배우는 사람이 셀을 돌려서 보는 것이므로 노트북에서는 접지 않습니다.
- 원본 맨 위의 YAML 머리말(description 등)은 셀이 아니라 노트북 메타데이터 attention_site 로 갑니다.
  내려받은 노트북을 Jupyter·Colab 에서 열면 머리말 셀 없이 제목부터 보입니다.

노트북은 저장소 밖에서 혼자 돌아가야 하므로(내려받아 Jupyter·Colab 에서 실행), 코드 셀은
저장소 모듈을 import 하지 않고 필요한 절(어텐션 코어 포함)을 직접 담습니다.
"""

import os
from pathlib import Path

import jupytext
import nbformat
import yaml

SITE_KEY = "attention_site"  # 이 사이트가 노트북·셀 메타데이터에 쓰는 열쇠
# mkdocs-jupyter 가 노트북을 실행할 때 읽는 nbconvert 설정 (NbConvertApp.load_config_file 이 JUPYTER_CONFIG_PATH 를 봅니다)
JUPYTER_CONFIG = Path(__file__).resolve().parents[2] / "jupyter"


def use_kernel_config():
    """노트북을 다 돌린 커널을 shutdown 요청 대신 바로 끝내게 합니다 (overrides/jupyter 의 설정).

    까닭: shutdown 요청을 받은 ipykernel 7.4 는 "idle" 상태를 보내는 동안 자기 소켓을 닫는 경쟁이 있어, 가끔
    "ERROR:tornado.general:Uncaught exception in ZMQStream callback" 과 traceback 을 빌드 로그에 남깁니다
    (ipython/ipykernel#1518 이 고친 길과 다른 schedule() 길). 셀은 모두 끝났고 출력도 받은 뒤이므로, 바로 끝내도
    노트북 결과는 같습니다. 설정은 이 폴더를 JUPYTER_CONFIG_PATH 맨 앞에 두어 읽힙니다 (사용자 설정은 그 뒤에).
    """
    paths = [p for p in os.environ.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p]
    if str(JUPYTER_CONFIG) not in paths:
        os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(JUPYTER_CONFIG), *paths])


def notebook_from_source(text, expand):
    """마크다운 원본 → nbformat 노트북 (include 를 펼친 코드 셀, 머리말은 메타데이터로)."""
    parsed = jupytext.reads(text, fmt="md")
    cells, site_meta = [], {}
    for cell in parsed.cells:
        if not cells and not site_meta and cell.cell_type == "raw" and cell.source.startswith("---"):
            site_meta = yaml.safe_load(cell.source.strip().strip("-")) or {}
            continue
        if cell.cell_type == "code":
            site = {k: cell.metadata[k] for k in ("figure", "alt", "fold", "fold_output") if k in cell.metadata}
            meta = {SITE_KEY: site} if site else {}
            if "fold" in site:  # Jupyter 에서도 코드를 접어 둡니다 (셀 제목을 누르면 펼쳐집니다)
                meta["jupyter"] = {"source_hidden": True}
            cells.append(nbformat.v4.new_code_cell(expand(cell.source).strip("\n"), metadata=meta))
        elif cell.cell_type == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(cell.source))
        else:
            raise ValueError(f"노트북 원본에 다룰 수 없는 셀 종류가 있습니다: {cell.cell_type}")
    for i, cell in enumerate(cells):
        cell.id = f"cell-{i:02d}"  # 같은 원본이면 같은 바이트: mkdocs-jupyter 캐시가 헛돌지 않게
    nb = nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            SITE_KEY: site_meta,
        },
    )
    nbformat.validate(nb)
    return nb


def site_metadata(notebook_path):
    """만든 노트북의 사이트 메타데이터 (페이지 설명 등)."""
    return nbformat.read(str(notebook_path), as_version=4).metadata.get(SITE_KEY, {})


def build_notebooks(src_dir, out_dir, expand):
    """src_dir/*.md 마다 out_dir/<이름>.ipynb 를 만듭니다. 내용이 같으면 파일을 건드리지 않습니다."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(Path(src_dir).glob("*.md")):
        target = out_dir / f"{src.stem}.ipynb"
        content = nbformat.writes(notebook_from_source(src.read_text(encoding="utf-8"), expand)) + "\n"
        if not target.exists() or target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8")
        written.append(target)
    for stale in set(out_dir.glob("*.ipynb")) - set(written):
        stale.unlink()
    return written
