"""테스트가 함께 쓰는 도우미: mkdocs.yml 을 빌드와 똑같이 읽고, 페이지의 코드 블록을 꺼냅니다."""

import functools
from pathlib import Path

from mkdocs.config import load_config
from sitebuild import codeblocks

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
    return codeblocks.snippet_expander(site_config()["mdx_configs"]["pymdownx.snippets"])


def page_blocks(rel_path):
    """include 를 펼친 뒤 pytest-codeblocks 추출기로 꺼낸 python 블록들."""
    text = (DOCS / rel_path).read_text(encoding="utf-8")
    return codeblocks.python_blocks(expander()(text))
