"""페이지가 보여 주는 실행 결과를 테스트에서 읽는 도우미 (빌드가 붙이는 것과 같은 출력).

빌드와 같은 캐시(.cache/site/outputs/)를 씁니다. 캐시 열쇠는 페이지의 코드 블록, 그 코드가 import 하는 스니펫
파일 내용, 파이썬과 잠금 파일(모든 패키지 버전)이라서, 열쇠가 같으면 실행 결과도 같습니다.
그래서 한 세션에서 페이지 코드는 한 번만 돕니다: 사이트 빌드가 먼저 돌았으면 그 결과를 읽고, 아니면
여기서 실행해 캐시에 써 두고 빌드가 그것을 읽습니다. 깨끗한 클론(CI)에서는 캐시가 비어 있으므로
모든 페이지가 반드시 한 번 실행됩니다.
"""

import functools

import disk_cache
from site_pages import ROOT, page_blocks, site_config
from sitebuild import snippets
from sitebuild.outputs import PageOutputs


@functools.cache
def _outputs():
    # 빌드와 같은 스니펫 폴더: base_path 는 그 방들(chapters, lib, sitedata)입니다
    snippets_dir = snippets.root_of(site_config()["mdx_configs"]["pymdownx.snippets"]["base_path"])
    return PageOutputs(ROOT / ".cache" / "site" / "outputs", snippets_dir, disk_cache.environment(ROOT))


def page_outputs(page):
    """페이지의 python 블록마다 찍힌 출력 (빌드가 각 블록 아래에 붙이는 그것)."""
    return _outputs().get(page, page_blocks(page))


def page_output(page):
    """페이지의 모든 python 블록을 차례로 실행해 얻은 출력 전체."""
    return "".join(page_outputs(page))


def printed(page, pattern):
    """페이지 출력에서 pattern 의 첫 묶음(숫자)을 float 로. 없으면 AssertionError (무엇을 찾았는지와 함께)."""
    import re

    m = re.search(pattern, page_output(page))
    assert m, f"{page} 의 출력에 {pattern!r} 가 없습니다"
    return float(m.group(1))


def assert_prints(page, *lines):
    """page 의 출력에 lines 가 모두 (그 글자 그대로) 있습니다. 실패하면 빠진 줄을 한꺼번에 보입니다."""
    text = page_output(page)
    missing = [line for line in lines if line not in text]
    assert not missing, f"{page} 의 출력에 없는 줄 {len(missing)}개: {missing}"
