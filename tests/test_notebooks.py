"""실습 노트북 파트 1–3: 스니펫과 한 원본, 빌드에서 실행, 저장소 밖에서도 혼자 실행."""

import importlib.metadata as md
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from site_pages import expander
from sitebuild import notebooks

from conftest import SNIPPETS

NB_SOURCES = sorted((SNIPPETS / "notebooks").glob("*.md"))
NAMES = [p.stem for p in NB_SOURCES]


def generate(tmp_path, snippets_dir=SNIPPETS):
    from sitebuild import codeblocks

    expand = codeblocks.snippet_expander({"base_path": [str(snippets_dir)], "check_paths": True,
                                          "dedent_subsections": True})
    return {p.stem: p for p in notebooks.build_notebooks(snippets_dir / "notebooks", tmp_path, expand)}


def code_cells(path):
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def test_three_parts():
    assert NAMES == ["part1_numpy_attention", "part2_heatmap", "part3_multi_head"]


@pytest.mark.parametrize("name", NAMES)
def test_code_cells_are_snippet_sections(tmp_path, name):
    """코드 셀마다 원본의 include 한 줄을 펼친 것과 글자 하나까지 같습니다 (직접 적은 코드 없음)."""
    src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    includes = re.findall(r"^```python[^\n]*\n(--8<-- \"[^\"]+\")\n```", src, flags=re.M)
    n_fences = len(re.findall(r"^```python", src, flags=re.M))
    assert len(includes) == n_fences, "노트북 원본의 코드 블록에는 include 한 줄만 있어야 합니다"
    cells = code_cells(generate(tmp_path)[name])
    assert cells == [expander()(line).strip("\n") for line in includes]


@pytest.mark.parametrize("name", NAMES)
def test_built_notebook_is_the_generated_one(built_site, tmp_path, name):
    site, _ = built_site
    built = site / "practice" / name / f"{name}.ipynb"
    assert built.read_text(encoding="utf-8") == generate(tmp_path)[name].read_text(encoding="utf-8")


def test_editing_a_snippet_changes_the_notebook_and_its_cache_key(tmp_path):
    from mkdocs_jupyter.plugin import Plugin, _compute_cache_key

    copy = tmp_path / "snippets"
    shutil.copytree(SNIPPETS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = generate(tmp_path / "before", copy)["part1_numpy_attention"]
    part1 = copy / "practice_part1.py"
    part1.write_text(part1.read_text(encoding="utf-8").replace("n, d_k, d_v = 4, 8, 8", "n, d_k, d_v = 5, 8, 8"),
                     encoding="utf-8")
    after = generate(tmp_path / "after", copy)["part1_numpy_attention"]
    assert code_cells(before) != code_cells(after)
    # mkdocs-jupyter 의 실행 캐시 열쇠는 노트북 내용에서 나오므로, 스니펫을 고치면 캐시가 빗나갑니다.
    cfg = dict(Plugin().config_scheme)  # 기본값으로 열쇠 계산에 필요한 항목만 채웁니다
    options = {k: getattr(v, "default", None) for k, v in cfg.items()}
    (tmp_path / "same").mkdir()
    a, b = tmp_path / "same" / "nb.ipynb", tmp_path / "same" / "nb2.ipynb"
    shutil.copy(before, a)
    shutil.copy(after, b)
    key_before = _compute_cache_key(str(a), options, True)
    a.write_bytes(b.read_bytes())
    assert _compute_cache_key(str(a), options, True) != key_before
    # 그리고 실행 결과도 바뀝니다.
    out = run_standalone(after, tmp_path / "run")
    assert "Q: (5, 8)" in out.stdout


def _closure(names):
    """배포판 이름들과 그 의존성 전체 (numpy, matplotlib 과 matplotlib 이 끌어오는 것들)."""
    todo, seen = list(names), set()
    while todo:
        name = re.split(r"[ ;<>=!\[]", todo.pop())[0].lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for req in md.requires(name) or []:
            if "extra ==" not in req:
                todo.append(req)
    return seen


def isolated_site(tmp_path):
    """numpy 와 matplotlib(과 그 의존성)만 들어 있는 site-packages 를 심볼릭 링크로 만듭니다."""
    site = tmp_path / "site-packages"
    site.mkdir(parents=True)
    for dist_name in _closure(["numpy", "matplotlib"]):
        dist = md.distribution(dist_name)
        for f in dist.files or []:
            top = f.parts[0]
            src = Path(dist.locate_file(top))
            if top.endswith((".dist-info", "bin")) or top == ".." or not src.exists():
                continue
            if not (site / top).exists():
                (site / top).symlink_to(src)
    return site


def run_standalone(notebook, workdir):
    """노트북의 코드 셀을 빈 폴더에서, numpy 와 matplotlib 만 보이는 파이썬(-I -S)으로 실행합니다."""
    workdir.mkdir(parents=True, exist_ok=True)
    site = isolated_site(workdir)
    script = workdir / "notebook.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(site)!r})\n"
                      + "\n\n".join(code_cells(notebook)), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(workdir / "mpl"),
           "HOME": str(workdir)}
    return subprocess.run([sys.executable, "-I", "-S", str(script)], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=300)


def test_isolated_python_sees_only_numpy_and_matplotlib(tmp_path):
    site = isolated_site(tmp_path)
    code = (f"import sys; sys.path.insert(0, {str(site)!r})\n"
            "import numpy, matplotlib\n"
            "for name in ('attention', 'plotting', 'koreanize_matplotlib', 'mkdocs', 'IPython'):\n"
            "    try:\n        __import__(name)\n    except ImportError:\n        pass\n"
            "    else:\n        raise SystemExit(f'{name} 를 import 할 수 있으면 안 됩니다')\n"
            "print('ok', numpy.__version__, matplotlib.__version__)")
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "MPLCONFIGDIR": str(tmp_path / "mpl")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")


EXPECTED = {
    "part1_numpy_attention": ["④ output  = weights @ V      (4, 8)", "코어 함수와 같은가? True True"],
    "part2_heatmap": ["가중치: (6, 6)  행의 합: [1. 1. 1. 1. 1. 1.]", "'sat' 행에서 가장 큰 가중치: 'the' (0.75)"],
    "part3_multi_head": ["헤드별 가중치: (8, 6, 6)", "헤드 1 을 자기 자신과 비교:   0.000"],
}


@pytest.mark.parametrize("name", NAMES)
def test_downloaded_notebook_runs_on_its_own(tmp_path, name):
    notebook = generate(tmp_path / "nb")[name]
    proc = run_standalone(notebook, tmp_path / "outside")
    assert proc.returncode == 0, proc.stderr[-3000:]
    for line in EXPECTED[name]:
        assert line in proc.stdout


def test_heads_differ_more_than_a_baseline():
    import practice_part3 as p3

    spread = p3.mean_pairwise_js(p3.weights)
    assert spread > 0.25
    assert p3.js_distance(p3.weights[0], p3.weights[0]).max() == 0.0
    uniform = p3.np.full(6, 1 / 6)
    one_hot = p3.np.eye(6)[0]
    assert p3.js_distance(one_hot, p3.np.eye(6)[1]) == pytest.approx(1.0)
    assert 0 < p3.js_distance(uniform, one_hot) < 1


@pytest.mark.parametrize("name", NAMES)
def test_notebook_page_is_executed_and_lean(built_site, name):
    site, _ = built_site
    page = site / "practice" / name / "index.html"
    html = page.read_text(encoding="utf-8")
    for line in EXPECTED[name]:
        assert line.replace(">", "&gt;").replace("<", "&lt;") in html or line in html
    assert f'href="{name}.ipynb"' in html and "download" in html
    assert (page.parent / f"{name}.ipynb").is_file()
    assert "jupyter-wrapper" not in html and "data:image/png;base64" not in html
    assert len(re.findall(r"<style", html)) == 0
    assert "cm-s-jupyter" not in html
    # 한글 제목의 앵커가 한글 그대로입니다 (markdown_cell_processor: mkdocs)
    assert re.search(r'<h2 id="[^"]*[가-힣][^"]*"', html)
    images = sum(p.stat().st_size for p in page.parent.glob("*.png"))
    assert len(html.encode()) + images < 400_000, "노트북 페이지(HTML + 그림)가 너무 무겁습니다"
