"""(a) snippets/ 의 모든 파일이 스스로 돌아갑니다 (python 파일 하나씩, 따로 된 프로세스에서)."""

import subprocess
import sys

import pytest

from conftest import SNIPPETS

FILES = sorted(p.name for p in SNIPPETS.glob("*.py"))


def test_there_are_snippets():
    assert "attention.py" in FILES and "four_steps.py" in FILES


@pytest.mark.parametrize("name", FILES)
def test_snippet_file_runs(name):
    proc = subprocess.run([sys.executable, "-W", "error", name], cwd=SNIPPETS,
                          capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(SNIPPETS), "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, f"{name} 실행 실패:\n{proc.stderr[-3000:]}"
