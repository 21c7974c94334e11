"""페이지가 보여 주는 실행 결과를 테스트에서 읽는 도우미 (빌드가 붙이는 것과 같은 출력)."""

import functools

from site_pages import page_blocks
from sitebuild import codeblocks


@functools.cache
def page_output(page):
    """페이지의 모든 python 블록을 차례로 실행해 얻은 출력 전체."""
    return "".join(r.output for r in codeblocks.run_blocks(page_blocks(page), label=page))
