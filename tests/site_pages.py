"""테스트가 함께 쓰는 도우미: mkdocs.yml 을 빌드와 똑같이 읽고, 페이지의 코드 블록과 그림을 꺼냅니다."""

import functools
from html.parser import HTMLParser
from pathlib import Path

import markdown
from mkdocs.config import load_config

from sitebuild import codeblocks
from sitebuild.figure_markup import FIGURE_SRC

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@functools.cache
def site_config():
    return load_config(str(ROOT / "mkdocs.yml"))


def nav_pages():
    """nav 에 있는 문서 경로들 (docs/ 기준), 나오는 순서대로."""
    out = []

    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                walk(value)
            elif isinstance(value, str) and not value.startswith("http"):
                out.append(value)

    walk(site_config()["nav"])
    return out


def markdown_pages():
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


@functools.cache
def expander():
    return codeblocks.SnippetExpander(site_config()["mdx_configs"]["pymdownx.snippets"])


def page_blocks(rel_path):
    """include 를 펼친 뒤 pytest-codeblocks 추출기로 꺼낸 python 블록들 (빌드와 같은 codeblocks.page_blocks)."""
    path = DOCS / rel_path
    return codeblocks.page_blocks(expander(), path.read_text(encoding="utf-8"), f"docs/{rel_path}", path)[1]


class _Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))


@functools.cache
def _markdown():
    """사이트 설정 그대로의 Markdown (확장이 많아 만들기가 비싸서 하나를 돌려 씁니다)."""
    cfg = site_config()
    return markdown.Markdown(extensions=cfg["markdown_extensions"], extension_configs=cfg["mdx_configs"])


def figure_refs(rel_path):
    """[(그림 이름, 대체 텍스트)] — 페이지를 사이트의 Markdown 확장으로 읽어 찾은 figures/*.png 그림들."""
    md = _markdown()
    md.reset()
    parser = _Images()
    parser.feed(md.convert(expander()((DOCS / rel_path).read_text(encoding="utf-8"))))
    return [
        (m.group("name"), img.get("alt", "")) for img in parser.images if (m := FIGURE_SRC.match(img.get("src", "")))
    ]
