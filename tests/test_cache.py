"""sitebuild/cache.py: 열쇠는 재료, 환경, 그리고 그것을 만드는 빌드 코드의 소스로 정해집니다.

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

from conftest import HOOKS, background
from sitebuild import cache
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
sys.path.insert(0, hooks)

def keys():
    from sitebuild import cache, figures, outputs
    from sitebuild.codeblocks import Block
    from sitebuild.snippets import discover, figure_hash
    out = outputs.PageOutputs(cache_dir + "/outputs", snippets_dir, "env")
    figure = cache.Cache.for_code(cache_dir + "/figures", "env", *figures.drawing_modules())
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
        [sys.executable, "-c", KEYS, str(hooks), str(tmp_path / "cache"), str(snippets_dir), json.dumps(EDITS)],
        capture_output=True,
        text=True,
        timeout=300,
    )


# 새 파이썬 프로세스는 1–3초 걸리므로 세션을 시작할 때 배경에서 미리 돌립니다 (conftest.background).
def _edited_keys():
    """빌드 코드(와 이 모듈의 소스)가 그대로면 지난 결과를 씁니다 (support/runs.py)."""
    proc = runs.cached(
        "cache-edited-keys",
        [HOOKS / "sitebuild"],
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
    store = cache.Cache(tmp_path, "salt")
    key = store.key("재료", 1)
    assert key != store.key("재료", 2) and key != cache.Cache(tmp_path, "other").key("재료", 1)
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
    one = cache.environment(tmp_path)
    (tmp_path / "requirements.txt").write_text("numpy==2\n")
    assert cache.environment(tmp_path) != one and sys.version.split()[0] in one


def test_the_environment_names_blas_threads_and_the_cpu(tmp_path):
    """float32 행렬 곱의 마지막 비트를 바꾸는 두 가지가 열쇠에 들어갑니다: 스레드 수를 바꾸거나 다른 CPU 의
    .cache 를 쓰면, 캐시의 값은 테스트가 새로 계산한 값과 다른 조건의 것이 되므로 다시 만들어야 합니다."""
    avx2, avx512 = tmp_path / "avx2", tmp_path / "avx512"
    avx2.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu avx2\n" * 2)
    avx512.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu avx2 avx512f avx512_vnni\n")
    one = cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx2)
    assert one.startswith("blas OPENBLAS_NUM_THREADS=1 | cpu ")
    assert cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx2) == one  # 같은 조건이면 같은 줄 (코어마다의 되풀이는 한 번)
    assert cache.native({"OPENBLAS_NUM_THREADS": "2"}, avx2) != one
    assert cache.native({"OMP_NUM_THREADS": "1"}, avx2) != one
    assert cache.native({}, avx2).startswith(f"blas cores={os.cpu_count()} ")
    assert cache.native({"OPENBLAS_NUM_THREADS": "1"}, avx512) != one
    assert cache.native({"OPENBLAS_NUM_THREADS": "1"}, tmp_path / "missing").startswith(
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
