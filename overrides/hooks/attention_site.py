"""MkDocs 훅: 스니펫 → 실행 결과·그림·노트북·수식을 빌드 때 만들어 사이트에 넣습니다.

mkdocs.yml 의 `hooks:` 에 등록돼 있습니다. 일은 모두 sitebuild 패키지가 하고, 여기서는 MkDocs 의
이벤트를 빌드 한 번의 상태(sitebuild.build.SiteBuild)의 메서드로 넘기기만 합니다.
전체 지도는 sitebuild/__init__.py 에 있습니다.

`mkdocs serve` 와 빌드 코드: MkDocs 는 훅 파일을 프로세스에 한 번만 읽습니다(config_options.Hooks._load_hook 이
lru_cache). 그래서 serve 가 다시 빌드할 때(설정을 다시 읽고 on_config 부터 다시 돕니다) 두 번째 빌드부터는
sitebuild 모듈을 import 캐시에서 잊고 새로 읽어, 고친 빌드 코드로 빌드합니다. 이 파일 자체를 고쳤을 때만
serve 를 다시 띄워야 합니다 (README).
"""

import importlib
from pathlib import Path

from mkdocs.plugins import event_priority

from sitebuild import snippets

HOOKS_DIR = Path(__file__).resolve().parent
_build = None  # 빌드 한 번의 상태. on_config 가 빌드마다 새로 만듭니다 (serve 의 다시 빌드 포함).


def _build_module():
    """sitebuild.build. 이 프로세스의 두 번째 빌드부터는 sitebuild 전체를 새로 읽습니다 (serve 에서 고친 코드)."""
    if _build is not None:
        snippets.forget_modules(HOOKS_DIR / "sitebuild")
    snippets.add_to_path(HOOKS_DIR)  # MkDocs 는 훅을 읽는 동안만 이 폴더를 import 경로에 둡니다
    snippets.add_to_path(snippets.LIBRARY)  # 빌드가 쓰는 캐시 모듈(snippets/lib/disk_cache.py)
    return importlib.import_module("sitebuild.build")


@event_priority(100)
def on_config(config):
    global _build
    _build = _build_module().SiteBuild(config)
    return _build.configure(config)


def on_pre_build(config):
    _build.forget_snippet_modules()


@event_priority(100)  # mkdocs-jupyter 의 on_files(0)보다 먼저: 노트북을 그 전에 넣어야 합니다
def on_files(files, config):
    return _build.add_generated_files(files, config)


def on_page_markdown(markdown, page, config, files):
    return _build.page_markdown(markdown, page)


def on_page_content(html, page, config, files):
    return _build.page_content(html, page, config)


def on_page_context(context, page, config, nav):
    _build.page_meta(page)
    context["page_tools"] = _build.page_tools(page)
    return context


def on_env(env, config, files):
    _build.finish_figures()
    return env


def on_post_build(config):
    _build.check_math_font()
    _build.compact_search_index(config)
    _build.minify_assets(config)


def on_build_error(error):
    if _build is not None:
        _build.close()
