"""빌드 한 번의 상태와, MkDocs 이벤트마다 할 일.

훅(overrides/hooks/attention_site.py)은 on_config 에서 SiteBuild 를 하나 만들고, 나머지 이벤트는
이 객체의 같은 이름 메서드로 넘깁니다. 상태는 모두 이 객체에 있고, sitebuild 의 다른 모듈은
필요한 것을 인자로 받습니다.
"""

import html
import os
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

import disk_cache

from . import (
    codeblocks,
    codestyle,
    datafiles,
    fences,
    figure_markup,
    figures,
    glue,
    lines,
    mathfont,
    mathml,
    minify,
    modelfiles,
    notebook_pages,
    notebooks,
    notices,
    searchindex,
    snippets,
    tables,
    tools,
)
from .outputs import PageOutputs


def snippets_config(config):
    """mkdocs.yml 의 pymdownx.snippets 설정 (check_paths: true 가 필요합니다)."""
    for needed in ("attr_list", "pymdownx.superfences"):  # 코드 블록의 {.python data-search-exclude=""}
        if needed not in config["markdown_extensions"]:
            raise PluginError(f"mkdocs.yml 에 {needed} 확장이 필요합니다")
    if "pymdownx.snippets" not in config["markdown_extensions"]:
        raise PluginError("mkdocs.yml 에 pymdownx.snippets 확장이 없습니다")
    snip = config["mdx_configs"].get("pymdownx.snippets", {})
    if not snip.get("check_paths"):
        raise PluginError("pymdownx.snippets 에 check_paths: true 가 필요합니다 (빠진 include 를 잡기 위해)")
    return snip


class SiteBuild:
    def __init__(self, config):
        self.root = Path(config["config_file_path"]).parent
        snip = snippets_config(config)
        try:  # 스니펫 폴더 (base_path 는 그 방들: chapters, lib, sitedata)
            self.snippets_dir = snippets.root_of(snip.get("base_path"))
        except ValueError as exc:
            raise PluginError(f"mkdocs.yml 의 pymdownx.snippets: {exc}") from exc
        self.cache_dir = self.root / ".cache" / "site"  # docs/ 밖: serve 가 자기 출력 때문에 다시 빌드하지 않게
        self.environment = disk_cache.environment(self.root)
        self.expand = codeblocks.SnippetExpander(snip)
        self.outputs = PageOutputs(self.cache_dir / "outputs", self.snippets_dir, self.environment)
        self.figures = None  # on_files 에서 만듭니다 (빌드마다 새로)
        self.math_characters = set()  # 수식이 쓴 글자: 수식 글꼴에 모두 있는지 on_post_build 에서 봅니다
        self.math_font = None
        self.tools = tools.load_table()  # 훅 옆의 overrides/tools.yml (훅을 빌려 쓰는 작은 사이트도 같은 표)
        snippets.add_snippets_to_path(self.snippets_dir)

    # on_config: Markdown 확장과 펜스, 코드 색칠을 설정에 더합니다.
    def configure(self, config):
        notebooks.use_kernel_config()
        fences.register(config["mdx_configs"])
        codestyle.register(config["mdx_configs"])
        config["markdown_extensions"].append(figure_markup.FigureExtension(lambda: self.figures))
        config["markdown_extensions"].append(mathml.MathExtension(self.math_characters))
        config["markdown_extensions"].append(glue.GlueExtension())
        config["markdown_extensions"].append(tables.CardTablesExtension())
        return config

    # on_pre_build
    def forget_snippet_modules(self):
        snippets.forget_modules(self.snippets_dir)

    # on_files: 그림(작업 프로세스에서 시작), 데이터, 수식 글꼴, 노트북을 사이트 파일에 더합니다.
    def add_generated_files(self, files, config):
        if self.figures is not None:
            self.figures.close()
        self.figures = figures.FigureSet(self.snippets_dir, self.cache_dir / "figures", self.environment)

        def add(dest, path):
            files.append(File.generated(config, dest, abs_src_path=str(path)))

        snippets_dir, out, env = self.snippets_dir, self.cache_dir, self.environment
        made = (  # (만드는 일 → (사이트 안 경로, 파일) 목록, 그 일의 오류)
            (
                lambda: [(f"data/{p.name}", p) for p in datafiles.build_data(snippets_dir, out / "data", env)],
                datafiles.DataError,
            ),
            # 브라우저용 모델 파일 (여러분의 문장으로, 여러분의 프롬프트로): 읽는 사람이 단추를 누를 때만 받습니다
            (lambda: modelfiles.build_model_files(snippets_dir, out / "models", env), modelfiles.ModelFilesError),
            # 모델 패키지의 이용 조건과 안내 (다음 토큰 고르기): licenses/gemma/
            (lambda: notices.build_notices(snippets_dir, out / "notices", env), notices.NoticeError),
        )
        for make, error in made:
            try:
                pairs = make()
            except error as exc:  # 그림 작업 프로세스를 닫고 빌드를 멈춥니다
                self.figures.close()
                raise PluginError(str(exc)) from exc
            for dest, path in pairs:
                add(dest, path)
        self.math_font = mathfont.build_math_font(self.cache_dir / "fonts", self.environment)
        add(f"assets/fonts/{self.math_font.name}", self.math_font)
        for paths in self.figures.paths.values():
            for path in paths.values():
                add(f"figures/{path.name}", path)
        # 실습 노트북은 practice/ 아래 문서로 넣습니다. mkdocs-jupyter 의 on_files(우선순위 0)보다
        # 먼저 넣어야 노트북 페이지로 바뀌므로, 훅의 on_files 는 우선순위 100 입니다.
        nb_src = self.snippets_dir / "notebooks"
        if nb_src.is_dir():
            for path in notebooks.build_notebooks(nb_src, self.cache_dir / "notebooks", self.expand):
                add(f"practice/{path.name}", path)
        return files

    # on_page_markdown: include 를 펼치고, 코드를 (캐시가 없으면) 실행하고, 출력을 붙입니다.
    def page_markdown(self, markdown, page):
        if page.file.src_uri.endswith(".ipynb"):  # mkdocs-jupyter(우선순위 100)가 이미 HTML 로 바꾼 노트북
            try:
                return notebook_pages.unescape_markdown_cells(markdown, page.file.abs_src_path)
            except notebook_pages.NotebookPageError as exc:
                raise PluginError(str(exc)) from exc
        if not page.file.src_uri.endswith(".md"):
            return markdown
        shown = os.path.relpath(page.file.abs_src_path, self.root) if page.file.abs_src_path else page.file.src_uri
        expanded, blocks = codeblocks.page_blocks(self.expand, markdown, shown, page.file.abs_src_path)
        if not blocks:
            return expanded
        try:
            outputs = self.outputs.get(page.file.src_uri, blocks)
            return codeblocks.with_outputs(expanded, blocks, outputs)
        except codeblocks.CodeBlockError as exc:
            raise PluginError(str(exc)) from exc

    # on_page_content: 접은 상자 속 코드를 줄마다 감싸고(lines.py), 노트북 페이지를 가볍게 바꿉니다.
    # 첫 그림을 미리 받을 링크는 page.meta["first_figure_preloads"] 로 overrides/main.html 의 head 에 갑니다.
    def page_content(self, html, page, config):
        if not page.file.src_uri.endswith(".ipynb"):
            html = lines.wrap_code_in_details(html)
        else:
            try:
                html = notebook_pages.slim_notebook_html(
                    html, page.file.abs_src_path, page.file.src_uri, self.figures, page.url
                )
            except notebook_pages.NotebookPageError as exc:
                raise PluginError(str(exc)) from exc
        page.meta["first_figure_preloads"] = figure_markup.first_figure_preloads(html)
        return html

    # on_page_context: 페이지 설명(meta description). 노트북 페이지의 설명은 노트북 메타데이터에서 옵니다.
    def page_meta(self, page):
        description = page.meta.get("description")
        if page.file.src_uri.endswith(".ipynb") and not description:
            description = notebooks.site_metadata(page.file.abs_src_path).get("description")
        if isinstance(description, str):
            # Material 은 설명을 이스케이프하지 않고 <meta content="..."> 에 넣습니다 (MkDocs 의 Jinja 는
            # autoescape 를 쓰지 않습니다). 따옴표가 있으면 속성이 잘리므로 여기서 이스케이프합니다.
            page.meta["description"] = html.escape(description, quote=True)

    # on_page_context: 페이지가 머리말에 적은 도구(tools:)가 붙이는 파일 (overrides/tools.yml, overrides/main.html)
    def page_tools(self, page):
        meta = page.meta if not page.file.src_uri.endswith(".ipynb") else {}
        try:
            return tools.page_tools(meta, page.content, page.file.src_uri, self.tools)
        except tools.ToolError as exc:
            raise PluginError(str(exc)) from exc

    # on_env: 정적 파일(그림 포함)을 복사하기 직전, 아직 그리는 그림이 있으면 기다립니다.
    def finish_figures(self):
        try:
            self.figures.wait_all()
        except figures.FigureError as exc:
            raise PluginError(str(exc)) from exc

    # on_post_build: 수식이 쓴 글자가 잘라 낸 수식 글꼴에 모두 있는지 확인합니다.
    def check_math_font(self):
        missing = mathfont.missing_characters(self.math_font, self.math_characters)
        if missing:
            raise PluginError(
                f"수식 글꼴에 없는 글자를 수식이 씁니다: {''.join(missing)!r} "
                "(sitebuild/mathfont.py 의 CHARSET 에 더하세요)"
            )

    # on_post_build: 검색 색인을 UTF-8 글자 그대로 (search 플러그인이 먼저 쓴 파일; 훅은 플러그인 다음에 돕니다).
    def compact_search_index(self, config):
        searchindex.rewrite_utf8(config["site_dir"])

    # on_post_build: 스타일과 스크립트의 주석은 저장소에만, 독자는 줄인 사본을 받습니다 (sitebuild/minify.py)
    def minify_assets(self, config):
        minify.minify_site_assets(config["site_dir"])

    # on_build_error
    def close(self):
        if self.figures is not None:
            self.figures.close()
