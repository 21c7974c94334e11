"""페이지 실행 결과의 캐시: 같은 코드는 한 번만, 새 프로세스에서 실행합니다.

열쇠는 "페이지의 코드 블록들 + 그 코드가 import 하는 스니펫 파일 내용" 에, 캐시(snippets/lib/disk_cache.py)가 섞는 환경(파이썬·패키지
버전)과 실행기의 소스(codeblocks, outputs, fresh, snippets, disk_cache)입니다. 출력을 정하는 것만 넣습니다: 글이나 머리말만
고친 페이지는 다시 실행하지 않고, 스니펫 하나를 고치면 그 스니펫에 기대는 페이지만, 실행기를 고치면 모든 페이지를
다시 실행합니다.

페이지의 코드는 부르는 프로세스가 아니라 새 파이썬 프로세스(`python -c`, fresh.call)에서 돕니다. 부르는 쪽에는
다른 스레드가 돌 수 있습니다: 빌드에는 그림 작업 프로세스를 부리는 스레드가, 테스트에는 배경 작업(tests/conftest.py)이 있습니다.
그 스레드들이 잡는 메모리는 tracemalloc 이 재는 최고점에 섞입니다 (효율 장의 표가 실행마다 0.1–0.6 MB 흔들렸습니다).
새 프로세스에서는 페이지가 찍는 것이 그 페이지의 코드만으로 정해집니다. 내려받은 노트북을 돌리는 것과 같은 조건입니다.

빌드(훅)와 테스트가 같은 디스크 캐시(.cache/site/outputs/)를 씁니다. 테스트 세션은 페이지마다 코드를
한 번 실행해 여기에 쓰고, 같은 세션의 사이트 빌드는 그것을 읽어 다시 실행하지 않습니다.
"""

import sys
from pathlib import Path

import disk_cache

from . import codeblocks, fresh, snippets


def runner_modules():
    """페이지 출력을 정하는 빌드 코드: 이 소스가 바뀌면 모든 페이지를 다시 실행합니다."""
    return (codeblocks, sys.modules[__name__], fresh, snippets, disk_cache)


def run_here(snippets_dir, blocks):
    """새 프로세스에서 (fresh.call): ("ok", 블록마다의 출력) 또는 ("error", CodeBlockError 의 메시지)."""
    snippets.add_snippets_to_path(snippets_dir)
    try:
        return ("ok", [r.output for r in codeblocks.run_blocks(blocks)])
    except codeblocks.CodeBlockError as exc:
        return ("error", str(exc))


def run_in_fresh_process(snippets_dir, blocks, timeout=900):
    """블록들을 새 파이썬 프로세스에서 codeblocks.run_blocks 로 실행하고 블록마다의 출력을 돌려줍니다.

    실패는 그 프로세스가 낸 것과 같은 CodeBlockError 입니다 (메시지에 페이지의 줄, 스니펫의 줄, traceback).
    """
    if not blocks:
        return []
    try:
        status, value = fresh.call("outputs", "run_here", str(snippets_dir), list(blocks), timeout=timeout)
    except fresh.ProcessDied as exc:
        raise codeblocks.CodeBlockError(f"{blocks[0].where}: 페이지 코드를 돌리던 {exc}") from exc
    if status == "error":
        raise codeblocks.CodeBlockError(value)
    return value


class PageOutputs:
    def __init__(self, cache_dir, snippets_dir, environment):
        self.snippets_dir = Path(snippets_dir)
        self.cache = disk_cache.Cache.for_code(cache_dir, environment, *runner_modules())
        self.memory = {}

    def key(self, blocks):
        modules = set()
        for block in blocks:
            modules |= snippets.imports_in(block.code, self.snippets_dir)
        return self.cache.key(*(b.code for b in blocks), snippets.content_hash(modules, self.snippets_dir))

    def get(self, page, blocks):
        """블록마다의 출력 문자열 목록. 캐시에 없으면 새 프로세스에서 실행하고 (CodeBlockError 는 그대로 올라갑니다) 남깁니다."""
        key = self.key(blocks)
        if key in self.memory:
            return self.memory[key]
        outputs = self.cache.get(page, key)
        if outputs is None:
            outputs = run_in_fresh_process(self.snippets_dir, blocks)
            self.cache.put(page, key, outputs)
        self.memory[key] = outputs
        return outputs
