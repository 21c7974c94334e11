"""MkDocs 훅: 스니펫 → 그림·실행 결과·노트북·수식을 빌드 때 만들어 사이트에 넣습니다.

mkdocs.yml 의 `hooks:` 에 등록돼 있습니다. 만든 파일은 모두 docs/ 밖 `.cache/site/` 에 쓰므로
`mkdocs serve` 가 자기 출력 때문에 다시 빌드하는 일이 없습니다. `watch: [snippets]` 덕분에
스니펫을 고치면 serve 가 다시 빌드하고, 바뀐 스니펫에 기대는 그림·출력만 새로 만듭니다.
"""

import hashlib
import json
import re
from html import escape as html_escape
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from sitebuild import codeblocks, datafiles, figures, lean_html, mathfont, mathml, notebook_pages, notebooks

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
    # 다시 그릴 그림은 작업 프로세스에서 그리기 시작하고, 페이지 빌드는 그동안 계속합니다.
    # 그림 파일은 on_env 에서 모두 끝난 것을 확인한 뒤에 복사됩니다.
    if _state.get("figures") is not None:
        _state["figures"].close()
    figs = _state["figures"] = figures.FigureSet(_state["snippets_dir"], _state["gen_dir"] / "figures")
    try:
        data = datafiles.build_data(_state["snippets_dir"], _state["gen_dir"] / "data")
    except datafiles.DataError as exc:
        figs.close()
        raise PluginError(str(exc)) from exc
    for path in data:
        files.append(File.generated(config, f"data/{path.name}", abs_src_path=str(path)))
    font = mathfont.build_math_font(_state["gen_dir"] / "fonts")
    files.append(File.generated(config, f"assets/fonts/{font.name}", abs_src_path=str(font)))
    for name, paths in figs.paths.items():
        for path in paths:
            files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    # 실습 노트북: 스니펫에서 만든 .ipynb 를 practice/ 아래 문서로 넣습니다.
    # mkdocs-jupyter 의 on_files(우선순위 0)보다 먼저 넣어야 노트북 페이지로 바뀝니다.
    nb_src = _state["snippets_dir"] / "notebooks"
    if nb_src.is_dir():
        for path in notebooks.build_notebooks(nb_src, _state["gen_dir"] / "notebooks", _state["expand"]):
            files.append(File.generated(config, f"practice/{path.name}", abs_src_path=str(path)))
    return files


def _outputs_key(page, expanded, blocks):
    """페이지 실행 결과의 캐시 열쇠: 펼친 코드 + 그 코드가 import 하는 스니펫(간접 포함) + 라이브러리 버전.

    스니펫 하나를 고치면 그 스니펫에 기대는 페이지만 다시 실행합니다.
    """
    import numpy

    h = hashlib.sha256(expanded.encode())
    modules = set()
    for block in blocks:
        modules |= figures.imported_snippets(block.code, _state["snippets_dir"])
    for name in sorted(modules):
        h.update(figures.source_hash(name, _state["snippets_dir"]).encode())
    h.update(f"{sys.version}|numpy {numpy.__version__}|{page.file.src_uri}".encode())
    return h.hexdigest()[:24]


def _figure_markdown(match, page):
    name, alt = match.group("name"), match.group("alt").strip()
    if name not in _state["figures"]:
        raise PluginError(f"{page.file.src_uri}: 그림 {name!r} 을 만드는 figure_* 함수가 스니펫에 없습니다")
    try:
        info = _state["figures"].info(name)
    except figures.FigureError as exc:
        _state["figures"].close()
        raise PluginError(str(exc)) from exc
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
        key = _outputs_key(page, expanded, blocks)
        disk = _state["gen_dir"] / "outputs" / f"{key}.json"
        if key not in _output_cache and disk.exists():
            _output_cache[key] = json.loads(disk.read_text(encoding="utf-8"))
        if key not in _output_cache:
            try:
                results = codeblocks.run_blocks(blocks, label=page.file.src_uri)
            except codeblocks.CodeBlockError as exc:
                raise PluginError(str(exc)) from exc
            _output_cache[key] = [r.output for r in results]
            disk.parent.mkdir(parents=True, exist_ok=True)
            disk.write_text(json.dumps(_output_cache[key], ensure_ascii=False), encoding="utf-8")
        markdown = codeblocks.insert_outputs(markdown, _output_cache[key])
    return FIGURE_REF.sub(lambda m: _figure_markdown(m, page), markdown)


def on_env(env, config, files):
    # 정적 파일(그림 포함)을 복사하기 직전: 아직 그리는 그림이 있으면 끝날 때까지 기다립니다.
    try:
        _state["figures"].wait_all()
    except figures.FigureError as exc:
        raise PluginError(str(exc)) from exc
    return env


def on_build_error(error):
    if _state.get("figures") is not None:
        _state["figures"].close()


def on_page_content(html, page, config, files):
    try:
        if page.file.src_uri.endswith(".ipynb"):
            out_dir = Path(config["site_dir"]) / Path(page.file.dest_uri).parent
            html = notebook_pages.slim_notebook_html(html, page.file.abs_src_path, out_dir,
                                                      page.file.src_uri)
        # 코드와 실행 결과는 검색 색인에서 뺍니다: 색인이 몇 배로 커지고(페이지마다 내려받습니다)
        # 검색 결과도 코드 조각으로 어지러워집니다. 본문의 `인라인 코드`는 그대로 찾을 수 있습니다.
        html = lean_html.output_blocks_as_samp(lean_html.slim_code_spans(html))
        html = html.replace('<div class="highlight', '<div data-search-exclude class="highlight')
        html = html.replace('<div class="cell-output', '<div data-search-exclude class="cell-output')
        return mathml.render_math(html)
    except (mathml.MathError, notebook_pages.NotebookPageError) as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from exc


def on_page_context(context, page, config, nav):
    # Material 은 설명을 이스케이프하지 않고 <meta content="..."> 에 넣습니다. 따옴표가 있으면 잘리므로 미리 바꿉니다.
    desc = page.meta.get("description")
    if isinstance(desc, str) and not getattr(page, "_description_escaped", False):
        page.meta["description"] = html_escape(desc, quote=True)
        page._description_escaped = True
    return context


def on_post_page(output, page, config):
    # Material 의 검색 창(role="dialog")에 접근 가능한 이름을 붙입니다.
    output = output.replace('data-md-component="search" role="dialog"',
                            'data-md-component="search" role="dialog" aria-label="사이트 검색"', 1)
    # 탐색기 스크립트는 탐색기가 있는 페이지에만 넣습니다 (다른 페이지는 내려받을 필요가 없습니다).
    # 수식 글꼴은 미리 받지(preload) 않습니다: 휴대전화의 느린 망에서 첫 화면에 필요한 CSS 와
    # 대역폭을 다투기 때문입니다. @font-face 는 수식이 화면에 그려질 때 받고(font-display: swap),
    # 글꼴이 도착하며 생기는 레이아웃 이동은 Lighthouse 로 재어 CLS 0.05 아래임을 확인했습니다.
    if 'class="attention-explorer"' in output:
        src = "../" * page.url.count("/") + "assets/explorer.js"
        output = output.replace("</body>", f'<script src="{src}" defer></script>\n</body>', 1)
    return output
