"""sitebuild/datafiles.py: data_<이름>() 은 JSON 하나, datafiles_<이름>() 은 {조각: dict} 를 조각마다 JSON 하나로.

빌드가 부르는 build_data 를 작은 스니펫 폴더에 직접 부릅니다 (사이트 빌드 없이 빠릅니다).
"""

import json
import os
import sys
import uuid

import pytest

from sitebuild import datafiles, snippets

SNIPPET = """
from pathlib import Path

CALLS = Path(__file__).with_suffix(".calls")


def data_one():
    return {{"x": 1}}


def datafiles_many():
    CALLS.write_text(CALLS.read_text() + "x" if CALLS.exists() else "x")
    return {{{parts}}}
"""


def build(tmp_path, parts):
    """스니펫(모듈 이름은 테스트마다 새로)을 쓰고 build_data 를 부릅니다 → (쓴 파일 이름들, 모듈 이름)."""
    folder = tmp_path / "snippets"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.py"):
        old.unlink()
    module = f"demo_{uuid.uuid4().hex[:8]}"
    (folder / f"{module}.py").write_text(SNIPPET.format(parts=parts), encoding="utf-8")
    with snippets.importable(folder):
        written = datafiles.build_data(folder, tmp_path / "out", "env")
    return sorted(p.name for p in written), module


def test_parts_become_one_file_each_and_are_cached(tmp_path):
    parts = '"qk-s0-l0": {"q": [1.5]}, "qk-s0-l1": {"q": [2.5]}'
    names, m = build(tmp_path, parts)
    assert names == [f"{m}-many-qk-s0-l0.json", f"{m}-many-qk-s0-l1.json", f"{m}-one.json"]
    out = tmp_path / "out"
    assert json.loads((out / f"{m}-many-qk-s0-l1.json").read_text()) == {"q": [2.5]}
    assert json.loads((out / f"{m}-one.json").read_text()) == {"x": 1}
    calls = tmp_path / "snippets" / f"{m}.calls"
    assert calls.read_text() == "x"
    # 같은 내용으로 다시: 목록 파일이 맞으므로 함수를 다시 부르지 않고 같은 파일들을 돌려줍니다
    with snippets.importable(tmp_path / "snippets"):
        written = datafiles.build_data(tmp_path / "snippets", out, "env")
    assert sorted(p.name for p in written) == names and calls.read_text() == "x"


def test_stale_parts_are_removed(tmp_path):
    # 같은 모듈 이름으로 조각을 바꾸면 지난번 조각 파일은 사라집니다
    folder = tmp_path / "snippets"
    folder.mkdir()
    out = tmp_path / "out"
    module = f"demo_{uuid.uuid4().hex[:8]}"
    for parts in ('"a": {}, "b": {}', '"a": {"v": 2}'):
        (folder / f"{module}.py").write_text(SNIPPET.format(parts=parts), encoding="utf-8")
        with snippets.importable(folder):
            written = datafiles.build_data(folder, out, "env")
    assert sorted(p.name for p in written) == [f"{module}-many-a.json", f"{module}-one.json"]
    assert not (out / f"{module}-many-b.json").exists()
    assert json.loads((out / f"{module}-many-a.json").read_text()) == {"v": 2}


@pytest.mark.parametrize(
    "parts, words",
    [
        ('"Bad Name": {}', "조각 이름"),
        ('"a/b": {}', "조각 이름"),
        ("", "조각 이름: dict"),
        ('"a": {"x": float("nan")}', "ValueError"),
    ],
)
def test_bad_parts_fail_with_the_function_name(tmp_path, parts, words):
    with pytest.raises(datafiles.DataError, match="datafiles_many") as err:
        build(tmp_path, parts)
    assert words in str(err.value)


PROCESS_SNIPPET = """
import os


def data_pid():
    return {"pid": os.getpid()}


def datafiles_pids():
    return {"a": {"pid": os.getpid()}}
"""


def test_data_is_made_in_a_fresh_process_for_each_module(tmp_path):
    """데이터 함수는 빌드(부르는) 프로세스가 아니라 새 프로세스에서, 모듈마다 하나에서 돕니다 (datafiles.py 의 머리말).

    빌드 프로세스가 모델을 읽은 힙을 들고 있지 않게 하려는 것입니다: 부르는 쪽은 그 모듈을 import 하지도 않습니다.
    """
    folder = tmp_path / "snippets"
    folder.mkdir()
    modules = [f"demo_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for module in modules:
        (folder / f"{module}.py").write_text(PROCESS_SNIPPET, encoding="utf-8")
    written = datafiles.build_data(folder, tmp_path / "out", "env")
    pids = {p.name: json.loads(p.read_text())["pid"] for p in written}
    assert sorted(pids) == sorted(f"{m}-{n}.json" for m in modules for n in ("pid", "pids-a"))
    assert os.getpid() not in pids.values()
    assert not set(modules) & set(sys.modules)
    one, two = ({pids[f"{m}-pid.json"], pids[f"{m}-pids-a.json"]} for m in modules)
    assert len(one) == len(two) == 1 and one != two  # 한 모듈의 함수들은 한 프로세스에서, 모듈마다 다른 프로세스


def test_a_process_that_dies_names_the_module(tmp_path):
    """데이터를 만들던 프로세스가 값을 남기지 못하고 끝나면 (메모리 부족, 네이티브 코드의 충돌) 모듈과 종료 코드를 댑니다."""
    folder = tmp_path / "snippets"
    folder.mkdir()
    module = f"demo_{uuid.uuid4().hex[:8]}"
    # 이 (테스트) 프로세스에서 불렸다면 죽지 않고 오류를 냅니다: 테스트 세션을 끝내지 않고 실패하도록
    dies = f"import os\n\n\ndef data_x():\n    assert os.getpid() != {os.getpid()}\n    os._exit(7)\n"
    (folder / f"{module}.py").write_text(dies, encoding="utf-8")
    with pytest.raises(datafiles.DataError, match=f"{module}.*종료 코드 7"):
        datafiles.build_data(folder, tmp_path / "out", "env")
    assert not list((tmp_path / "out").glob("*.stamp.json"))  # 실패는 캐시에 남지 않습니다
