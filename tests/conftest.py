"""테스트 공통 준비: 경로, hypothesis 설정, 표시(marker), 페이지 실행과 사이트 빌드를 세션에 한 번씩.

- `make check` 는 사이트를 빌드하지 않는 테스트만 돌립니다 (`-m "not site"`).
  built_site 를 쓰는 테스트에는 아래 pytest_collection_modifyitems 가 `site` 표시를 저절로 붙입니다.
- 페이지의 코드는 세션에 한 번만 실행합니다: 테스트(tests/page_outputs.py)와 사이트 빌드가 같은
  디스크 캐시를 쓰므로, 먼저 실행한 쪽의 결과를 다른 쪽이 읽습니다.
"""

import concurrent.futures
import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"  # 세 방(chapters, lib, sitedata)과 노트북 원고(notebooks/)
DOCS = ROOT / "docs"
HOOKS = ROOT / "overrides" / "hooks"
# snippets/ 의 세 방, overrides/hooks/ 와 tests/ 는 pyproject.toml 의 pythonpath 로 import 경로에 들어갑니다.


def snippet_files():
    """스니펫 모듈 파일 전부 (세 방, 이름 순서): sitebuild.snippets.modules 와 같은 목록."""
    from sitebuild import snippets

    return list(snippets.modules(SNIPPETS).values())


def snippet_path(name):
    """모듈 이름 → snippets/<방>/<이름>.py (어느 방인지는 적지 않아도 됩니다: 이름은 방을 건너 하나뿐입니다)."""
    from sitebuild import snippets

    path = snippets.path_of(SNIPPETS, name)
    if path is None:
        raise FileNotFoundError(f"스니펫 모듈 {name!r} 이 snippets/ 의 어느 방에도 없습니다")
    return path


# CI 에서는 예제를 더 많이, 그리고 매번 같은 순서로 뽑습니다 (실패를 그대로 다시 볼 수 있게).
settings.register_profile(
    "ci", max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
# make check: 고치는 동안 자주 돌리는 빠른 고리. 같은 성질을 예제 수만 줄여 봅니다 (make test 와 CI 는 그대로).
settings.register_profile("check", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

# tests/browser.py 의 server, browser, desktop, phone. support/changes.py: make quick 이 고른 테스트만 남기기 (--selection),
# 파일마다 걸린 시간 (--record-durations: make check 가 테스트 파일을 두 프로세스에 나누는 기준)
pytest_plugins = ["browser", "support.changes"]

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
# Makefile 과 같은 까닭으로 (작은 행렬 곱, 나란히 도는 프로세스) BLAS 스레드는 하나. make 없이 pytest 를
# 바로 돌릴 때를 위해서이고, 이 프로세스가 띄우는 빌드와 스니펫 실행에도 그대로 물려줍니다.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("JUPYTER_PLATFORM_DIRS", "1")


# --- 다른 코어에서 미리 돌려 두는 일 -------------------------------------------------------------
# pytest 는 한 코어만 씁니다. 새 파이썬 프로세스를 띄워 도는 테스트(스니펫 파일 하나씩 실행, 내려받은
# 노트북 실행)는 세션을 시작할 때 배경 스레드에서 하나씩 먼저 띄워 두고, 테스트는 그 결과를 확인만 합니다.
# 테스트 모듈은 BACKGROUND = {열쇠: 인자 없는 함수} 로 그런 일을 알립니다. 그 일들은 재료가 그대로면 지난 결과를
# 읽습니다 (tests/support/runs.py). make check 의 두 pytest 프로세스는 테스트 파일이 겹치지 않으므로(tools/check.py)
# 같은 일을 둘이 나란히 하지 않습니다.
# 모듈은 START = {열쇠: 함수(모은 테스트들)} 로, 곧 돌아오면서 일은 다른 프로세스에 맡기는 것(그림 그리기)을 알립니다.
# 그런 일은 배경 스레드의 줄에 세우지 않고 모으기가 끝나자마자 띄웁니다: 그림을 그리는 작업 프로세스가 이 프로세스의 다른
# 테스트와 나란히 돌게 (make quick 에서 스니펫 하나를 고치면 그 장의 그림이 가장 오래 걸리는 일입니다).
_background = {}
_jobs = {}
_items = []
_pool = None


def pytest_collection_finish(session):
    global _pool
    _items[:] = session.items
    jobs, starts = {}, {}  # 테스트가 도는 차례대로: 먼저 쓸 결과를 먼저 만듭니다
    for module in dict.fromkeys(item.module for item in session.items if hasattr(item, "module")):
        jobs.update(getattr(module, "BACKGROUND", {}))
        starts.update({key: functools.partial(fn, _items) for key, fn in getattr(module, "START", {}).items()})
    _jobs.update(starts | jobs)
    if session.config.option.collectonly:
        return
    for key, start in starts.items():
        background(key)
    if jobs:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="background")
        _background.update({key: _pool.submit(fn) for key, fn in jobs.items()})


def pytest_sessionfinish(session):
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)


def background(key):
    """pytest_collection_finish 가 미리 띄워 둔 일의 결과 (아직이면 끝날 때까지 기다립니다).

    미리 띄우지 않았으면 (--collect-only 뒤에 부를 때처럼) 여기서 한 번 돌리고 그 결과를 기억합니다.
    """
    if key not in _background:
        done = concurrent.futures.Future()
        try:
            done.set_result(_jobs[key]())
        except Exception as exc:  # 미리 띄운 일과 같이: 결과를 묻는 테스트마다 같은 예외가 올라갑니다
            done.set_exception(exc)
        _background[key] = done
    return _background[key].result()


def pytest_collection_modifyitems(config, items):
    for item in items:
        # 브라우저 테스트는 늘 빌드된 사이트를 봅니다 (화면 폭 픽스처를 request.getfixturevalue 로 고르는
        # 테스트는 fixturenames 에 built_site 가 드러나지 않으므로 표시로도 잡습니다).
        if "built_site" in getattr(item, "fixturenames", ()) or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.site)
    # START 로 다른 프로세스에 일을 맡기는 모듈(그림)의 테스트는 맨 뒤로 (그 안의 차례는 그대로): 그 결과를 기다리는 동안
    # 이 프로세스가 놀지 않고 다른 테스트를 먼저 돌립니다. 앞에 두면 스니펫 하나를 고친 make quick 이 그림을 5초 기다린
    # 뒤에야 나머지를 돌렸습니다.
    items.sort(key=lambda item: hasattr(getattr(item, "module", None), "START"))


def mkdocs_build(config_file, site_dir, strict=True):
    """mkdocs build 를 별도 프로세스로 돌리고 (종료 코드, 로그) 를 돌려줍니다."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(config_file), "-d", str(site_dir)]
    if strict:
        cmd.append("--strict")
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=900)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """저장소의 사이트를 --strict 로 한 번 빌드합니다. 여러 테스트가 결과를 함께 봅니다."""
    site = tmp_path_factory.mktemp("site")
    code, log = mkdocs_build(ROOT / "mkdocs.yml", site)
    if code != 0:
        pytest.fail(f"mkdocs build --strict 가 실패했습니다 (종료 코드 {code}):\n{log[-6000:]}")
    return site, log
