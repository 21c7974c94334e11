"""snippets/lib/disk_cache.py (빌드·테스트·스니펫이 함께 쓰는 캐시): 열쇠는 재료, 환경, 그리고 그것을 만드는 빌드 코드의 소스로 정해집니다.

빌드 코드를 고치면(예: 실행기 codeblocks.run_blocks, 그리는 방식 figures.render) `make clean` 없이도 그에 기대는
것만 다시 만들어야 합니다. 여기서는 sitebuild 패키지를 임시 폴더에 복사해 한 군데씩 고치고, 새 파이썬 프로세스에서
열쇠를 다시 계산해 봅니다 (serve 가 다시 빌드할 때처럼 고친 소스를 새로 읽습니다).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import disk_cache
from conftest import HOOKS, SNIPPETS, background, snippet_path
from support import runs

# 복사한 sitebuild 로 열쇠를 계산하고, 한 군데씩 고친 뒤 sitebuild 를 잊고 새로 읽어 다시 계산합니다 (serve 처럼).
EDITS = [  # (이름, 파일, 고치기 전, 고친 뒤)
    (
        "runner",
        "codeblocks.py",
        'namespace = {"__name__": "__codeblocks__"}',
        'namespace = {"__name__": "__codeblocks__", "고친": 1}',
    ),
    ("drawing", "legibility.py", "PHONE_MIN, DESKTOP_MIN = 10.0, 11.0", "PHONE_MIN, DESKTOP_MIN = 10.5, 11.0"),
    ("other", "mathml.py", '"""', '"""고친 설명. '),
]
KEYS = """
import json, sys
from pathlib import Path
hooks, cache_dir, snippets_dir, edits = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
sys.path[:0] = [hooks, sys.argv[5]]  # 복사한 sitebuild 와 저장소의 캐시 모듈(snippets/lib/disk_cache.py)

def keys():
    import disk_cache
    from sitebuild import figures, outputs
    from sitebuild.codeblocks import Block
    from sitebuild.snippets import discover, figure_hash
    out = outputs.PageOutputs(cache_dir + "/outputs", snippets_dir, "env")
    figure = disk_cache.Cache.for_code(cache_dir + "/figures", "env", *figures.drawing_modules())
    entry = discover(snippets_dir, "figure")["tiny-box"]
    return {"page": out.key([Block("import tiny\\nprint(tiny.d_k)\\n", 1)]),
            "figure": figure.key(entry.func, figure_hash(entry, snippets_dir))}

result = {"before": keys()}
for name, file, old, new in edits:
    path = Path(hooks) / "sitebuild" / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{file} 에 {old!r} 가 없습니다: 테스트가 고칠 자리를 바꿔 주세요"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    from sitebuild import snippets
    snippets.forget_modules(Path(hooks) / "sitebuild")
    result[name] = keys()
print(json.dumps(result))
"""


# 열쇠가 어떻게 바뀌는지만 보면 되므로 사이트의 스니펫 대신 이 작은 스니펫 하나를 씁니다. 그래서 이 일의 재료는 빌드 코드뿐이고,
# 스니펫을 고쳐도 다시 돌지 않습니다 (make quick 이 스니펫 하나를 고칠 때마다 이 일에 2–6초를 쓰던 것).
TINY_SNIPPET = '''"""열쇠 시험용 스니펫: 페이지 코드가 import 하는 값 하나와 그림 하나."""

d_k = 4


def figure_box(narrow=False):
    import matplotlib.pyplot as plt

    return plt.figure(figsize=(2, 2))
'''


def _edited_keys_run(tmp_path):
    hooks, snippets_dir = tmp_path / "hooks", tmp_path / "snippets"
    shutil.copytree(HOOKS / "sitebuild", hooks / "sitebuild", ignore=shutil.ignore_patterns("__pycache__"))
    snippets_dir.mkdir()
    (snippets_dir / "tiny.py").write_text(TINY_SNIPPET, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-c",
            KEYS,
            str(hooks),
            str(tmp_path / "cache"),
            str(snippets_dir),
            json.dumps(EDITS),
            str(snippet_path("disk_cache").parent),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


# 새 파이썬 프로세스는 1–3초 걸리므로 세션을 시작할 때 배경에서 미리 돌립니다 (conftest.background).
def _edited_keys():
    """빌드 코드(와 이 모듈의 소스)가 그대로면 지난 결과를 씁니다 (support/runs.py)."""
    proc = runs.cached(
        "cache-edited-keys",
        [HOOKS / "sitebuild", snippet_path("disk_cache")],
        lambda: _edited_keys_run(Path(tempfile.mkdtemp(prefix="edited-keys-"))),
        __name__,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


BACKGROUND = {"cache:edited-keys": _edited_keys}


def test_editing_the_build_code_invalidates_what_it_makes():
    keys = background("cache:edited-keys")
    before, runner, drawing = keys["before"], keys["runner"], keys["drawing"]
    # 실행기(codeblocks.run_blocks)를 고치면: 페이지 출력만 다시 (그림은 그대로)
    assert runner["page"] != before["page"] and runner["figure"] == before["figure"]
    # 그리는 방식(글자 크기 기준)을 고치면: 그림만 다시
    assert drawing["figure"] != runner["figure"] and drawing["page"] == runner["page"]
    # 다른 일을 하는 모듈(수식)을 고치면: 둘 다 그대로
    assert keys["other"] == drawing


def test_stamps_hold_a_key_a_value_and_files(tmp_path):
    store = disk_cache.Cache(tmp_path, "salt")
    key = store.key("재료", 1)
    assert key != store.key("재료", 2) and key != disk_cache.Cache(tmp_path, "other").key("재료", 1)
    assert store.get("page/one.md", key) is None and store.previous("page/one.md") == (None, None)
    store.put("page/one.md", key, ["출력"])
    assert store.get("page/one.md", key) == ["출력"] and store.get("page/one.md", "other") is None
    assert store.names() == ["page/one.md"]
    made = tmp_path / "a.png"
    made.write_bytes(b"png")
    store.put_files("fig", key, [made], legibility={"only": 1})
    assert store.files("fig", key) == [made] and store.get("fig", key)["legibility"] == {"only": 1}
    made.unlink()  # 파일이 사라지면 맞는 열쇠라도 다시 만듭니다
    assert store.files("fig", key) is None
    store.forget("fig")
    assert store.names() == ["page/one.md"]
    assert json.loads((tmp_path / "page__one.md.stamp.json").read_text(encoding="utf-8"))["key"] == key


def test_the_environment_is_python_and_the_lock_file(tmp_path):
    (tmp_path / "requirements.txt").write_text("numpy==1\n")
    one = disk_cache.environment(tmp_path)
    (tmp_path / "requirements.txt").write_text("numpy==2\n")
    assert disk_cache.environment(tmp_path) != one and sys.version.split()[0] in one


def test_the_environment_names_blas_threads_and_the_cpu(tmp_path):
    """float32 행렬 곱의 마지막 비트를 바꾸는 두 가지가 열쇠에 들어갑니다: 스레드 수를 바꾸거나 다른 CPU 의
    .cache 를 쓰면, 캐시의 값은 테스트가 새로 계산한 값과 다른 조건의 것이 되므로 다시 만들어야 합니다."""
    avx2, avx512 = tmp_path / "avx2", tmp_path / "avx512"
    avx2.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu avx2\n" * 2)
    avx512.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu avx2 avx512f avx512_vnni\n")
    one = disk_cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx2)
    assert one.startswith("blas OPENBLAS_NUM_THREADS=1 | cpu ")
    assert (
        disk_cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx2) == one
    )  # 같은 조건이면 같은 줄 (코어마다의 되풀이는 한 번)
    assert disk_cache.native({"OPENBLAS_NUM_THREADS": "2"}, avx2) != one
    assert disk_cache.native({"OMP_NUM_THREADS": "1"}, avx2) != one
    assert disk_cache.native({}, avx2).startswith(f"blas cores={os.cpu_count()} ")
    assert disk_cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx512) != one
    assert disk_cache.native({"OPENBLAS_NUM_THREADS": "1"}, tmp_path / "missing").startswith(
        "blas OPENBLAS_NUM_THREADS=1 | cpu "
    )


def test_test_runs_are_cached_by_their_inputs_and_failures_are_not(tmp_path, monkeypatch):
    """tests/support/runs.py: 재료가 같으면 지난 결과, 재료가 바뀌면 다시 실행, 실패는 남기지 않고 다시 실행합니다."""
    import subprocess

    monkeypatch.setattr(runs, "FOLDER", tmp_path)
    calls = []

    def run(code):
        def go():
            calls.append(code)
            return subprocess.CompletedProcess(["python"], code, f"출력 {len(calls)}", "")

        return go

    first = runs.cached("일", ["재료 1"], run(0), __name__)
    again = runs.cached("일", ["재료 1"], run(0), __name__)
    assert (first.stdout, again.stdout, again.returncode, len(calls)) == ("출력 1", "출력 1", 0, 1)
    assert runs.cached("일", ["재료 2"], run(0), __name__).stdout == "출력 2"  # 재료가 바뀌면 다시
    edited = tmp_path / "snippet.py"
    edited.write_text("x = 1\n", encoding="utf-8")
    runs.cached("파일", [edited], run(0), __name__)
    edited.write_text("x = 2\n", encoding="utf-8")
    assert runs.cached("파일", [edited], run(0), __name__).stdout == "출력 4"  # 경로는 파일 내용으로
    assert runs.cached("실패", ["재료"], run(1), __name__).returncode == 1
    assert runs.cached("실패", ["재료"], run(1), __name__).stdout == "출력 6" and len(calls) == 6
    with pytest.raises(TypeError, match="str 이나 Path"):
        runs.cached("일", [3], run(0), __name__)


# --- 환경의 정의는 한 곳 (disk_cache.environment) ----------------------------------------------------


@pytest.fixture
def lock_root(tmp_path, monkeypatch):
    """잠금 파일 하나가 있는 뿌리와, 열쇠를 바꾸는 변수를 모두 지운 환경."""
    (tmp_path / "requirements.txt").write_text("numpy==1\n")
    for name in (*disk_cache.THREAD_VARIABLES, *disk_cache.KERNEL_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    return tmp_path


@pytest.mark.parametrize(
    "change",
    ["numpy", "python", "threads", "coretype", "numpy_features", "lock"],
)
def test_the_environment_changes_with_what_changes_the_numbers(lock_root, monkeypatch, change):
    """파이썬·numpy 버전, BLAS 스레드 수, 커널 변수, 잠금 파일 가운데 하나만 바꿔도 환경(열쇠의 재료)이 바뀌고,
    아무것도 바꾸지 않으면 같습니다."""
    import numpy as np

    before = disk_cache.environment(lock_root)
    assert disk_cache.environment(lock_root) == before
    edit = {
        "numpy": lambda: monkeypatch.setattr(np, "__version__", np.__version__ + ".dev0"),
        "python": lambda: monkeypatch.setattr(sys, "version", "3.99.0 (다른 파이썬)"),
        "threads": lambda: monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2"),
        "coretype": lambda: monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell"),
        "numpy_features": lambda: monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "AVX512F"),
        "lock": lambda: (lock_root / "requirements.txt").write_text("numpy==2\n"),
    }[change]
    edit()
    assert disk_cache.environment(lock_root) != before


def test_every_cache_key_reads_the_one_environment(lock_root, monkeypatch):
    """학습 기록(run_cache), 헤드 측정(ablation), 테스트의 일(support/runs), 빌드(Cache 의 salt)가 모두 같은 환경을 씁니다:
    BLAS 스레드 수를 바꾸면 모두의 열쇠가 바뀌고, 그대로면 모두 그대로입니다."""
    import ablation
    import run_cache

    monkeypatch.setattr(disk_cache, "ROOT", lock_root)
    monkeypatch.setattr(disk_cache.environment, "__defaults__", (lock_root,))
    args = {"config": {"vocab": 8}, "seed": 0, "steps": 1}

    def keys():
        return (
            run_cache.run_key(args),
            disk_cache.digest("worth", disk_cache.environment(), *map(ablation._source, ablation.SOURCES)),
            runs._store_and_key(["재료"], __name__)[1],
        )

    before = keys()
    assert keys() == before
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    after = keys()
    assert all(a != b for a, b in zip(after, before))
    assert run_cache.run_key({**args, "seed": 1}) != after[0]  # 재료가 바뀌어도


def test_stored_computes_once_per_key_and_drops_old_keys(tmp_path):
    calls = []

    def compute(value):
        def go():
            calls.append(value)
            return {"x": value}

        return go

    assert disk_cache.stored(tmp_path, "a", "k1", compute(1), kind="json") == {"x": 1}
    assert disk_cache.stored(tmp_path, "a", "k1", compute(9), kind="json") == {"x": 1} and calls == [1]
    disk_cache.stored(tmp_path, "a-b", "k1", compute(3), kind="json")  # 이름이 "a-" 로 시작하는 다른 이름
    assert disk_cache.stored(tmp_path, "a", "k2", compute(2), kind="json") == {"x": 2} and calls == [1, 3, 2]
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["a-b-k1.json", "a-k2.json"]
    arrays = disk_cache.stored(tmp_path, "n", "k", lambda: {"v": [1.5, 2.5]})
    assert arrays["v"].dtype.kind == "f" and arrays["v"].tolist() == [1.5, 2.5]  # 처음 계산한 쪽도 읽은 모양으로
    with pytest.raises(ValueError, match="kind="):
        disk_cache.stored(tmp_path, "n", "k", dict, kind="pickle")


@pytest.mark.reads("*.py")
def test_only_the_cache_module_defines_the_environment():
    """다른 모듈이 환경(BLAS 스레드 수·CPU·잠금 파일의 해시)을 따로 읽거나 파일 잠금을 따로 하지 않습니다."""
    from conftest import ROOT

    own = []
    for path in [
        *SNIPPETS.rglob("*.py"),
        *(HOOKS / "sitebuild").rglob("*.py"),
        *(ROOT / "tests" / "support").rglob("*.py"),
    ]:
        text = path.read_text(encoding="utf-8")
        if path.name != "disk_cache.py" and any(
            s in text for s in ("import fcntl", "/proc/cpuinfo", 'environ.get("OPENBLAS_NUM_THREADS"')
        ):
            own.append(path.relative_to(ROOT).as_posix())
    assert own == []
