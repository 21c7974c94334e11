"""페이지 실행 결과의 캐시: 같은 코드는 한 번만 실행합니다.

열쇠는 "페이지의 코드 블록들 + 그 코드가 import 하는 스니펫 파일 내용" 에, 캐시(cache.py)가 섞는 환경(파이썬·패키지
버전)과 실행기의 소스(codeblocks, outputs, snippets, cache)입니다. 출력을 정하는 것만 넣습니다: 글이나 머리말만
고친 페이지는 다시 실행하지 않고, 스니펫 하나를 고치면 그 스니펫에 기대는 페이지만, 실행기를 고치면 모든 페이지를
다시 실행합니다.

빌드(훅)와 테스트가 같은 디스크 캐시(.cache/site/outputs/)를 씁니다. 테스트 세션은 페이지마다 코드를
한 번 실행해 여기에 쓰고, 같은 세션의 사이트 빌드는 그것을 읽어 다시 실행하지 않습니다.
"""

import sys
from pathlib import Path

from . import cache, codeblocks, snippets


def runner_modules():
    """페이지 출력을 정하는 빌드 코드: 이 소스가 바뀌면 모든 페이지를 다시 실행합니다."""
    return (codeblocks, sys.modules[__name__], snippets, cache)


class PageOutputs:
    def __init__(self, cache_dir, snippets_dir, environment):
        self.snippets_dir = Path(snippets_dir)
        self.cache = cache.Cache.for_code(cache_dir, environment, *runner_modules())
        self.memory = {}

    def key(self, blocks):
        modules = set()
        for block in blocks:
            modules |= snippets.imports_in(block.code, self.snippets_dir)
        return self.cache.key(*(b.code for b in blocks), snippets.content_hash(modules, self.snippets_dir))

    def get(self, page, blocks):
        """블록마다의 출력 문자열 목록. 캐시에 없으면 실행하고 (CodeBlockError 는 그대로 올라갑니다) 남깁니다."""
        key = self.key(blocks)
        if key in self.memory:
            return self.memory[key]
        outputs = self.cache.get(page, key)
        if outputs is None:
            snippets.add_to_path(self.snippets_dir)
            outputs = [r.output for r in codeblocks.run_blocks(blocks)]
            self.cache.put(page, key, outputs)
        self.memory[key] = outputs
        return outputs
