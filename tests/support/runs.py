"""새 파이썬 프로세스로 도는 테스트 일(스니펫 파일 실행, 내려받은 노트북 실행 …)의 결과를 재료로 캐시합니다.

빌드가 페이지 출력과 그림을 다루는 것과 같은 규칙입니다 (snippets/lib/disk_cache.py 의 캐시 하나를 씁니다). 열쇠는

- 재료: 일마다 넘기는 것. 문자열은 그대로, 경로는 파일 내용으로 (폴더면 그 아래의 .py 파일 모두).
- 환경: 파이썬 버전, 잠금 파일(모든 패키지 버전), BLAS 스레드 수와 CPU (disk_cache.environment).
- 일을 정하는 테스트 코드: 일을 부르는 테스트 모듈의 소스와 이 파일의 소스.

재료가 그대로면 프로세스가 하는 일도 그대로이므로, `make check` 는 고친 것에 기대는 일만 다시 돌립니다.
깨끗한 클론(CI)에는 캐시가 없으므로 모두 돕니다. 성공한 결과만 남깁니다: 실패는 언제나 다시 돌려 봅니다.
"""

import os
import subprocess
import sys
from pathlib import Path

import disk_cache

ROOT = Path(__file__).resolve().parent.parent.parent
FOLDER = ROOT / ".cache" / "tests"


def _name(path):
    """열쇠에 넣는 파일 이름: 저장소 안이면 저장소에서의 경로 (클론한 자리가 달라도 같은 열쇠)."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def _material(item):
    if isinstance(item, Path):
        files = sorted(item.rglob("*.py")) if item.is_dir() else [item]
        return "".join(f"{_name(p)}\0{p.read_text(encoding='utf-8')}\0" for p in files)
    if isinstance(item, str):
        return item
    raise TypeError(f"재료는 str 이나 Path 여야 합니다: {type(item).__name__} {item!r}")


def _store_and_key(inputs, module):
    store = disk_cache.Cache(FOLDER, disk_cache.environment(ROOT))
    source = Path(sys.modules[module].__file__)
    return store, store.key(*(_material(i) for i in [*inputs, source, Path(__file__)]))


def cached_value(name, inputs, compute, module):
    """compute() 가 낸 JSON 값(목록, 사전, 문자열, 숫자)을 name 과 재료로 캐시합니다 (cached 와 같은 열쇠).

    비교의 기준값처럼 느리지만 재료만으로 정해지는 것에 씁니다 (예: 사이트의 토크나이저가 글 2천 개를 나눈 결과).
    """
    store, key = _store_and_key(inputs, module)
    hit = store.get(name, key)
    if hit is not None:
        return hit
    value = compute()
    store.put(name, key, value)
    return value


def cached(name, inputs, run, module):
    """run() 이 낸 subprocess.CompletedProcess 를 name 과 재료(inputs)로 캐시합니다.

    module: 일을 정하는 테스트 모듈의 __name__ (그 소스가 열쇠에 들어갑니다).
    """
    store, key = _store_and_key(inputs, module)
    hit = store.get(name, key)
    if hit is not None:
        return subprocess.CompletedProcess(hit["args"], 0, hit["stdout"], hit["stderr"])
    proc = run()
    if proc.returncode == 0:
        store.put(name, key, {"args": [str(a) for a in proc.args], "stdout": proc.stdout, "stderr": proc.stderr})
    return proc


def snippet_pythonpath():
    """스니펫의 세 방을 import 경로로 (PYTHONPATH 의 값): 새 프로세스가 `import attention` 을 이 저장소처럼 읽습니다."""
    from sitebuild import snippets

    return os.pathsep.join(str(f) for f in snippets.folders(ROOT / "snippets"))


def in_snippets(*args, timeout=300):
    """snippets/ 에서 새 파이썬 프로세스로 `python <args>` (경로는 snippets/ 기준, 예: chapters/four_steps.py; 경고는 오류로).
    스니펫의 방들만 import 경로에 있고, 그림은 화면 없이(Agg), BLAS 스레드는 하나입니다 (테스트 프로세스와 나란히 돌므로)."""
    snippets_dir = ROOT / "snippets"
    return subprocess.run(
        [sys.executable, "-W", "error", *args],
        cwd=snippets_dir,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={
            "PYTHONPATH": snippet_pythonpath(),
            "MPLBACKEND": "Agg",
            "PATH": "/usr/bin:/bin",
            "OPENBLAS_NUM_THREADS": "1",
        },
    )
