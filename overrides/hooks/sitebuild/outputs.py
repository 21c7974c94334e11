"""페이지 실행 결과의 캐시: 같은 코드는 한 번만 실행합니다.

열쇠는 "페이지의 코드 블록들 + 그 코드가 import 하는 스니펫 파일 내용 + 파이썬·패키지 버전" 입니다
(출력을 정하는 것만 넣습니다: 글이나 머리말만 고친 페이지는 다시 실행하지 않습니다).
스니펫 하나를 고치면 그 스니펫에 기대는 페이지만 다시 실행합니다.

빌드(훅)와 테스트가 같은 디스크 캐시(.cache/site/outputs/)를 씁니다. 테스트 세션은 페이지마다 코드를
한 번 실행해 여기에 쓰고, 같은 세션의 사이트 빌드는 그것을 읽어 다시 실행하지 않습니다.
"""

import hashlib
import json
from pathlib import Path

from . import codeblocks, snippet_graph


class PageOutputs:
    def __init__(self, cache_dir, snippets_dir, environment, trust_disk=True):
        """trust_disk=False 이면 디스크 캐시를 읽지 않고 (쓰기는 합니다) 언제나 새로 실행합니다."""
        self.cache_dir, self.snippets_dir = Path(cache_dir), Path(snippets_dir)
        self.environment, self.trust_disk = environment, trust_disk
        self.memory = {}

    def key(self, blocks):
        modules = set()
        for block in blocks:
            modules |= snippet_graph.imports_in(block.code, self.snippets_dir)
        snippets = snippet_graph.content_hash(modules, self.snippets_dir)
        digest = hashlib.sha256("\0".join([*(b.code for b in blocks), snippets, self.environment]).encode())
        return digest.hexdigest()[:24]

    def get(self, label, blocks):
        """블록마다의 출력 문자열 목록. 캐시에 없으면 실행하고 (CodeBlockError 는 그대로 올라갑니다) 저장합니다."""
        key = self.key(blocks)
        if key in self.memory:
            return self.memory[key]
        disk = self.cache_dir / f"{key}.json"
        if self.trust_disk and disk.exists():
            outputs = json.loads(disk.read_text(encoding="utf-8"))
        else:
            outputs = [r.output for r in codeblocks.run_blocks(blocks, label=label)]
            disk.parent.mkdir(parents=True, exist_ok=True)
            tmp = disk.with_suffix(".tmp")
            tmp.write_text(json.dumps(outputs, ensure_ascii=False), encoding="utf-8")
            tmp.replace(disk)  # 빌드와 테스트가 동시에 읽어도 반쯤 쓴 파일을 보지 않게
        self.memory[key] = outputs
        return outputs
