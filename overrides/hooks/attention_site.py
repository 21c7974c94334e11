"""MkDocs 훅: 스니펫 → 그림·실행 결과·노트북·수식을 빌드 때 만들어 사이트에 넣습니다.

mkdocs.yml 의 `hooks:` 에 등록돼 있습니다. 만든 파일은 모두 docs/ 밖 `.cache/site/` 에 쓰므로
`mkdocs serve` 가 자기 출력 때문에 다시 빌드하는 일이 없습니다. `watch: [snippets]` 덕분에
스니펫을 고치면 serve 가 다시 빌드하고, 바뀐 스니펫에 기대는 그림·출력만 새로 만듭니다.
"""

import hashlib
import re
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from sitebuild import codeblocks, datafiles, figures, mathfont, mathml, notebook_pages, notebooks

_state = {}
_output_cache = {}  # serve 중 다시 빌드할 때 바뀌지 않은 페이지는 코드를 다시 돌리지 않습니다

# 대체 텍스트 안에 [CLS] 처럼 대괄호가 한 겹 들어가도 됩니다.
FIGURE_REF = re.compile(r"!\[(?P<alt>(?:[^\[\]]|\[[^\]]*\])*)\]\(figures/(?P<name>[\w.-]+)\.png\)")


def _snippets_config(config):
    for ext in config["markdown_extensions"]:
        if ext in ("pymdownx.snippets",):
            return config["mdx_configs"].get(ext, {})
    raise PluginError("mkdocs.yml 에 pymdownx.snippets 확장이 없습니다")


@event_priority(100)
def on_config(config):
    root = Path(config["config_file_path"]).parent
    snip_cfg = _snippets_config(config)
    if not snip_cfg.get("check_paths"):
        raise PluginError("pymdownx.snippets 에 check_paths: true 가 필요합니다 (빠진 include 를 잡기 위해)")
    base = snip_cfg.get("base_path")
    snippets_dir = Path(base[0] if isinstance(base, list) else base).resolve()
    gen_dir = root / ".cache" / "site"
    _state.update(root=root, snippets_dir=snippets_dir, gen_dir=gen_dir,
                  expand=codeblocks.snippet_expander(snip_cfg))
    if str(snippets_dir) not in sys.path:
        sys.path.insert(0, str(snippets_dir))
    return config


def on_pre_build(config):
    # serve 가 다시 빌드할 때 고친 스니펫이 반영되도록, 스니펫 모듈을 import 캐시에서 지웁니다.
    snippets_dir = str(_state["snippets_dir"])
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(snippets_dir):
            del sys.modules[name]


@event_priority(100)
def on_files(files, config):
    try:
        figs = figures.build_figures(_state["snippets_dir"], _state["gen_dir"] / "figures")
        data = datafiles.build_data(_state["snippets_dir"], _state["gen_dir"] / "data")
    except (figures.FigureError, datafiles.DataError) as exc:
        raise PluginError(str(exc)) from exc
    for path in data:
        files.append(File.generated(config, f"data/{path.name}", abs_src_path=str(path)))
    _state["figures"] = figs
    font = mathfont.build_math_font(_state["gen_dir"] / "fonts")
    files.append(File.generated(config, f"assets/fonts/{font.name}", abs_src_path=str(font)))
    for name, info in figs.items():
        for theme in figures.THEMES:
            path = info[theme]
            files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    # 실습 노트북: 스니펫에서 만든 .ipynb 를 practice/ 아래 문서로 넣습니다.
    # mkdocs-jupyter 의 on_files(우선순위 0)보다 먼저 넣어야 노트북 페이지로 바뀝니다.
    nb_src = _state["snippets_dir"] / "notebooks"
    if nb_src.is_dir():
        for path in notebooks.build_notebooks(nb_src, _state["gen_dir"] / "notebooks", _state["expand"]):
            files.append(File.generated(config, f"practice/{path.name}", abs_src_path=str(path)))
    return files


def _sources_digest():
    h = hashlib.sha256()
    for path in sorted(_state["snippets_dir"].rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


def _figure_markdown(match, page):
    name, alt = match.group("name"), match.group("alt").strip()
    info = _state["figures"].get(name)
    if info is None:
        raise PluginError(f"{page.file.src_uri}: 그림 {name!r} 을 만드는 figure_* 함수가 스니펫에 없습니다")
    if not alt:
        raise PluginError(f"{page.file.src_uri}: 그림 {name!r} 에 대체 텍스트(alt)가 없습니다")
    # 화면에 보일 CSS 크기: 저장 해상도(DPI)와 관계없이 1인치 = 96px 로 맞춥니다.
    w = round(info["width"] * 96 / figures.DPI)
    h = round(info["height"] * 96 / figures.DPI)
    # 가려진 쪽 그림은 내려받지 않도록 loading="lazy" 를 붙입니다.
    attrs = f'width="{w}" height="{h}" loading="lazy"'
    prefix = "../" * page.file.src_uri.count("/")
    return " ".join(
        f"![{alt}]({prefix}figures/{info[t].name}#only-{t}){{ {attrs} }}" for t in figures.THEMES
    )


def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.endswith(".md"):
        return markdown
    expanded = _state["expand"](markdown)
    blocks = codeblocks.python_blocks(expanded)
    if blocks:
        key = (page.file.src_uri, hashlib.sha256(expanded.encode()).hexdigest(), _sources_digest())
        if key not in _output_cache:
            try:
                results = codeblocks.run_blocks(blocks, label=page.file.src_uri)
            except codeblocks.CodeBlockError as exc:
                raise PluginError(str(exc)) from exc
            _output_cache[key] = [r.output for r in results]
        markdown = codeblocks.insert_outputs(markdown, _output_cache[key])
    return FIGURE_REF.sub(lambda m: _figure_markdown(m, page), markdown)


def on_page_content(html, page, config, files):
    try:
        if page.file.src_uri.endswith(".ipynb"):
            out_dir = Path(config["site_dir"]) / Path(page.file.dest_uri).parent
            html = notebook_pages.slim_notebook_html(html, page.file.abs_src_path, out_dir,
                                                      page.file.src_uri)
        return mathml.render_math(html)
    except (mathml.MathError, notebook_pages.NotebookPageError) as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from exc


def on_post_page(output, page, config):
    # 수식이 있는 페이지는 수식 글꼴을 미리 받아 두어, 글꼴이 늦게 와서 수식이 다시 그려지는 일을 줄입니다.
    if "<math" in output:
        href = "../" * page.url.count("/") + f"assets/fonts/{mathfont.FONT_NAME}"
        preload = f'<link rel="preload" href="{href}" as="font" type="font/woff2" crossorigin>'
        output = output.replace("</head>", preload + "\n</head>", 1)
    return output
