"""(a) snippets/ 의 모든 파일(세 방 모두)이 스스로 돌아갑니다 (python 파일 하나씩, 따로 된 프로세스에서, 경고는 오류).

파일마다 새 파이썬 프로세스를 띄우므로, 세션을 시작할 때 배경에서 미리 돌려 두고(conftest.background)
테스트는 각 파일의 결과를 확인합니다.
"""

import functools

import pytest

from conftest import SNIPPETS, background, snippet_files
from sitebuild import snippets
from support import runs

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("snippets/*.py")

# "four_steps.py" → "chapters/four_steps.py" (테스트 이름은 파일 이름 그대로, 실행은 방의 경로로)
PATHS = {p.name: p.relative_to(SNIPPETS).as_posix() for p in snippet_files()}
FILES = sorted(PATHS)


def run(name):
    """파일 하나를 모듈로 실행합니다. 그 파일과 그것이 import 하는 스니펫이 그대로면 지난 결과를 씁니다 (support/runs.py)."""
    closure = snippets.content_hash({name.removesuffix(".py")}, SNIPPETS)
    return runs.cached(f"snippet-{name}", [closure], functools.partial(runs.in_snippets, PATHS[name]), __name__)


BACKGROUND = {f"snippet:{name}": functools.partial(run, name) for name in FILES}


def test_there_are_snippets():
    assert "attention.py" in FILES and "four_steps.py" in FILES


@pytest.mark.parametrize("name", FILES)
def test_snippet_file_runs(name):
    proc = background(f"snippet:{name}")
    assert proc.returncode == 0, f"{name} 실행 실패:\n{proc.stderr[-3000:]}"
