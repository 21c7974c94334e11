"""테스트가 함께 쓰는 도우미: mkdocs.yml 을 빌드와 똑같이 읽고, 페이지의 코드 블록과 그림을 꺼냅니다."""

import functools
from pathlib import Path

import lxml.html
import markdown
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.utils import yaml

from sitebuild import codeblocks, glue, mathml
from sitebuild.figure_markup import FIGURE_SRC
from support import runs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HOOKS = ROOT / "overrides" / "hooks"


class MarkdownSettings(base.Config):
    """mkdocs.yml 가운데 테스트가 쓰는 부분: nav 와 Markdown 확장(과 그 설정). 빌드와 같은 파일을 같은 옵션 검사로
    읽지만, 플러그인과 테마는 읽지 않습니다. mkdocs 의 load_config 는 플러그인을 불러오면서 mkdocs-jupyter 를 거쳐
    nbconvert 까지 import 해서 작업 프로세스마다 2초 남짓이 들고, 테스트는 그중 아무것도 쓰지 않습니다.

    옵션은 mkdocs.config.defaults.MkDocsConfig 의 것과 같은 정의입니다. 두 읽기가 같은 값을 내는지는
    tests/test_contracts.py 의 test_markdown_settings_read_mkdocs_yml_as_mkdocs_does 가 지킵니다.
    """

    nav = c.Optional(c.Nav())
    markdown_extensions = c.MarkdownExtensions(builtins=["toc", "tables", "fenced_code"], configkey="mdx_configs")
    mdx_configs = c.Private()


@functools.cache
def site_config():
    path = ROOT / "mkdocs.yml"
    cfg = MarkdownSettings(config_file_path=str(path))
    with path.open("rb") as fd:  # MkDocsConfig.load_file 과 같은 읽기 (!ENV, !relative 태그)
        cfg.load_dict(yaml.yaml_load(fd, yaml.get_yaml_loader(config=cfg)))
    errors, warnings = cfg.validate()
    unexpected = [w for w in warnings if "Unrecognised configuration name" not in w[1]]
    if errors or unexpected:
        raise ValueError(f"mkdocs.yml 을 읽지 못했습니다: {errors + unexpected}")
    return cfg


def _docs(items):
    """nav 항목들 아래의 문서 경로들 (docs/ 기준), 나오는 순서대로. nav 를 걷는 곳은 여기 하나입니다."""
    out = []
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            out += _docs(value)
        elif isinstance(value, str) and not value.startswith("http"):
            out.append(value)
    return out


def nav_sections():
    """{nav 의 맨 위 항목 이름: 그 아래 문서들 (nav 순서)}. 이름 없는 항목은 문서 경로가 이름입니다."""
    sections = {}
    for item in site_config()["nav"]:
        title, value = next(iter(item.items())) if isinstance(item, dict) else (item, item)
        sections[title] = _docs([value])
    return sections


def nav_pages():
    """nav 에 있는 문서 경로들 (docs/ 기준), 나오는 순서대로."""
    return [doc for docs in nav_sections().values() for doc in docs]


def markdown_pages():
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


@functools.cache
def expander():
    return codeblocks.SnippetExpander(site_config()["mdx_configs"]["pymdownx.snippets"])


@functools.cache
def page_blocks(rel_path):
    """include 를 펼친 뒤 pytest-codeblocks 추출기로 꺼낸 python 블록들 (빌드와 같은 codeblocks.page_blocks).

    한 세션에서 파일은 그대로이므로 페이지마다 한 번만 펼칩니다 (여러 테스트가 같은 페이지를 묻습니다)."""
    path = DOCS / rel_path
    return tuple(codeblocks.page_blocks(expander(), path.read_text(encoding="utf-8"), f"docs/{rel_path}", path)[1])


@functools.cache
def _markdown(with_glue):
    """사이트 설정 그대로의 Markdown 에 빌드의 수식(MathML)과, 고르면 줄바꿈 묶음까지 (만들기가 비싸서 돌려 씁니다)."""
    cfg = site_config()
    extensions = [*cfg["markdown_extensions"], mathml.MathExtension()]
    if with_glue:
        extensions.append(glue.GlueExtension())
    return markdown.Markdown(extensions=extensions, extension_configs=cfg["mdx_configs"])


def to_html(text, with_glue=True):
    """마크다운 글 → 사이트가 그리는 HTML 본문 (include 는 펼치지 않습니다: 펼친 글을 넘기세요)."""
    md = _markdown(with_glue)
    md.reset()
    return md.convert(text)


@functools.cache
def notebook_folds(text):
    """노트북 원고를 빌드가 읽는 그대로(sitebuild.notebooks.notebook_from_source: jupytext) 셀로 나눈 뒤 마크다운으로
    되돌립니다. 정보 문자열 fold="요약" 인 코드 셀(사이트 페이지에서 닫힌 접기)은 <details> 로 감쌉니다. 마크다운은 그
    정보 문자열을 몰라 셀을 글로 그려 버립니다."""
    from sitebuild.notebooks import SITE_KEY, notebook_from_source

    parts = []
    for cell in notebook_from_source(text, lambda source: source).cells:
        if cell.cell_type != "code":
            parts.append(cell.source)
            continue
        fence = f"```python\n{cell.source}\n```"
        fold = cell.metadata.get(SITE_KEY, {}).get("fold")
        parts.append(f"<details><summary>{fold}</summary>\n\n{fence}\n\n</details>" if fold else fence)
    return "\n\n".join(parts)


def rendered(path, with_glue=True):
    """원고 하나(docs/ 의 페이지나 snippets/notebooks/ 의 노트북 원고)를 include 를 펼쳐 HTML 로.

    페이지마다 코드 색칠까지 하면 모두 합쳐 2초 남짓이 들고, 묶음·수식·그림 테스트가 같은 HTML 을 봅니다.
    그래서 결과를 .cache/tests 에 둡니다 (support/runs.py). 열쇠는 펼친 글(페이지와 그것이 부르는 스니펫),
    빌드 코드(overrides/hooks/sitebuild/), mkdocs.yml, 이 파일과 잠금 파일이라서, 그중 하나라도 바뀌면 다시 그립니다.
    """
    path = Path(path)
    text = expander()(path.read_text(encoding="utf-8"))
    if path.parent.name == "notebooks":
        text = notebook_folds(text)
    name = f"html-{path.parent.name}-{path.stem}-{'glue' if with_glue else 'plain'}"
    inputs = [text, HOOKS / "sitebuild", ROOT / "mkdocs.yml"]
    return runs.cached_value(name, inputs, lambda: to_html(text, with_glue), __name__)


def figure_refs(rel_path):
    """[(그림 이름, 대체 텍스트)] — 페이지를 사이트의 Markdown 확장으로 읽어 찾은 figures/*.png 그림들."""
    images = html_fragment(rendered(DOCS / rel_path)).iter("img")
    return [(m.group("name"), img.get("alt", "")) for img in images if (m := FIGURE_SRC.match(img.get("src", "")))]


def html_fragment(html):
    """HTML 조각 → lxml 요소 (<div> 하나로 감쌉니다)."""
    return lxml.html.fragment_fromstring(html, create_parent="div")


def html_text(html):
    """HTML 조각의 글자만 (태그를 떼고 &lt; 같은 참조를 풉니다)."""
    return html_fragment(html).text_content()
