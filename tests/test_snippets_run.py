"""(a) snippets/ 의 모든 파일이 스스로 돌아갑니다 (python 파일 하나씩, 따로 된 프로세스에서, 경고는 오류).

파일마다 새 파이썬 프로세스를 띄우므로, 세션을 시작할 때 배경에서 미리 돌려 두고(conftest.background)
테스트는 각 파일의 결과를 확인합니다.
"""

import functools
import subprocess
import sys

import pytest

from conftest import SNIPPETS, background

FILES = sorted(p.name for p in SNIPPETS.glob("*.py"))


def run(name):
    return subprocess.run(
        [sys.executable, "-W", "error", name],
        cwd=SNIPPETS,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(SNIPPETS), "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1"},
    )  # 테스트 프로세스와 나란히 돕니다


BACKGROUND = {f"snippet:{name}": functools.partial(run, name) for name in FILES}


def test_there_are_snippets():
    assert "attention.py" in FILES and "four_steps.py" in FILES


@pytest.mark.parametrize("name", FILES)
def test_snippet_file_runs(name):
    proc = background(f"snippet:{name}")
    assert proc.returncode == 0, f"{name} 실행 실패:\n{proc.stderr[-3000:]}"
