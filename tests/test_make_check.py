"""make check 가 테스트를 작업 프로세스 둘에 나누는 방식 (tests/support/groups.py): 무거운 스니펫을 함께 쓰는 파일은
한 작업 프로세스에서 돕니다.

스니펫 실행(test_snippets_run.py)과 따로 둡니다: 테스트 모듈의 소스가 그 모듈이 부르는 일의 캐시 열쇠에 들어가므로
(support/runs.py), 여기를 고쳐도 스니펫 27개를 다시 돌리지 않게.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import HOOKS, ROOT, SNIPPETS
from support import groups, runs


def test_the_heavy_snippets_that_group_make_check_exist(tmp_path):
    """groups.HEAVY_SNIPPETS 가 이름 부르는 스니펫이 있고, 그것을 import 하는 테스트 파일이 묶입니다 (이름을 바꾸면 여기서)."""

    def file(name, source):
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        return tmp_path / f"{name}.py"

    assert all((SNIPPETS / f"{name}.py").is_file() for name in groups.HEAVY_SNIPPETS)
    assert groups.group_of(file("test_a", "def test():\n    import korean_model\n")) == "models"
    assert groups.group_of(file("test_b", "import real_model as rm\n")) == "models"
    assert groups.group_of(file("test_c", "from why_scale import x\n")) == "why_scale"
    own = file("test_d", 'import why_scale_notes\n# import efficient\n"""\nimport korean_model\n"""\n')
    assert groups.group_of(own) == own.as_posix()  # 제 경로로


# xdist 를 직접 돌려 보는 작은 프로젝트: 무거운 스니펫을 import 하는 파일 셋(묶음 models)과 가벼운 파일 셋, 파일마다
# 테스트 셋. 어느 작업 프로세스가 돌렸는지는 -v 출력의 [gw0]/[gw1] 로 읽습니다.
_PROJECT_CONFTEST = """
import pytest
from support import groups

@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    return groups.make_scheduler(config, log)
"""


def _distribute(dist):
    """작은 프로젝트를 -n 2 --dist <dist> 로 돌려 {테스트 파일: 그 파일의 테스트를 돌린 작업 프로세스들} 을 냅니다."""

    def run():
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            (project / "conftest.py").write_text(_PROJECT_CONFTEST, encoding="utf-8")
            for i, snippet in enumerate(["korean_model", "real_model", "korean_model", "json", "math", "os"]):
                source = f"def _never_called():\n    import {snippet}\n\n\n" + "".join(
                    f"def test_{n}(): ...\n" for n in range(3)
                )
                (project / f"test_{i}.py").write_text(source, encoding="utf-8")
            return subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-n",
                    "2",
                    "--dist",
                    dist,
                    "-v",
                    "-p",
                    "no:cacheprovider",
                    "-c",
                    "/dev/null",
                    "--rootdir",
                    str(project),
                    str(project),
                ],
                cwd=project,
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(HOOKS)])},
            )

    proc = runs.cached(
        f"xdist-{dist}", [ROOT / "tests" / "support" / "groups.py", HOOKS / "sitebuild" / "snippets.py"], run, __name__
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    workers = {}
    for worker, file in re.findall(r"\[(gw\d)\] .*?PASSED (test_\d)\.py::", proc.stdout):
        workers.setdefault(file, set()).add(worker)
    return workers


def test_make_check_keeps_a_group_on_one_worker():
    """--dist loadgroup (make check): models 묶음의 세 파일은 한 작업 프로세스에서, 나머지는 두 작업 프로세스에 나뉩니다.
    대조군 --dist load 는 파일을 가리지 않고 테스트 하나씩 나눕니다 (묶음이 저절로 생기지 않는다는 것)."""
    grouped = _distribute("loadgroup")
    assert set(grouped) == {f"test_{i}" for i in range(6)}
    heavy = set().union(*(grouped[f"test_{i}"] for i in (0, 1, 2)))
    assert len(heavy) == 1
    assert set().union(*grouped.values()) == {"gw0", "gw1"}
    assert all(len(w) == 1 for w in grouped.values())  # 파일 하나는 한 작업 프로세스에서
    spread = _distribute("load")
    assert len(set().union(*(spread[f"test_{i}"] for i in (0, 1, 2)))) == 2
