"""make quick 과 make check 의 나누기 (tests/support/changes.py, tools/check.py).

- 고르기: 스니펫 하나 → 그것을 import 하는 스니펫·테스트, 그것을 쓰는 페이지·노트북·그림; 페이지 → 그 페이지의 테스트;
  테스트 → 그 자신; 빌드 코드·conftest·테스트 도구 → make check 전부. 무엇을 왜 골랐는지 남깁니다.
- 나누기: 두 프로세스의 테스트 파일이 겹치지 않고, 무거운 스니펫을 쓰는 파일은 한쪽에 모입니다.
- 빠뜨리지 않음 (loop 표시, make test 와 CI 에서): 저장소를 복사해 대표적인 수정마다 make check 전부와 make quick 을 돌려,
  make check 에서 실패하는 테스트가 make quick 에서도 실패하는지 봅니다.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from support import changes

_spec = importlib.util.spec_from_file_location("check", ROOT / "tools" / "check.py")
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)


@pytest.fixture(scope="module")
def graph():
    return changes.Graph.read(ROOT)


def chosen(graph, *paths):
    selection = changes.select(list(paths), graph)
    selection.leave_out(graph, check.LEFT_OUT)
    return selection


def test_a_snippet_reaches_its_importers_pages_figures_and_tests(graph):
    sel = chosen(graph, "snippets/chapters/four_steps.py")
    assert not sel.full
    assert "test_quiz_answers" in sel.tests["tests/test_four_steps.py"]  # 픽스처 fs 가 import four_steps
    assert set(sel.tests["tests/test_self_vs_cross.py"]) == {"test_encoder_self_attention_is_chapter_2"}  # 4장을 import
    assert {"four_steps.py", "four_steps.md", "four_steps-pipeline"} <= set(sel.subjects)
    assert "test_page_output_is_the_reviewed_one" in sel.tests["tests/test_page_snapshots.py"]
    assert "test_figure_is_legible_on_a_phone_and_a_desktop" in sel.tests["tests/test_figure_legibility.py"]
    assert "test_snippet_file_runs" in sel.tests["tests/test_snippets_run.py"]
    assert "tests/test_korean_model.py" not in sel.tests and "heatmap.md" not in sel.subjects
    # 빌드된 사이트나 브라우저가 필요한 것은 make check 처럼 빠집니다
    assert "tests/test_pages_in_browser.py" not in sel.tests and "tests/test_site_build.py" not in sel.tests
    # 모든 그림이 쓰는 plotting 은 모든 그림에 닿습니다
    assert set(graph.figures) <= set(chosen(graph, "snippets/lib/plotting.py").subjects)
    # 코어는 그것을 import 하는 모든 스니펫에, 그래서 거의 모든 페이지에 닿습니다
    core = chosen(graph, "snippets/lib/attention.py")
    assert {"korean_model.md", "four_steps.md", "efficient.md"} <= set(core.subjects)


def test_a_page_reaches_its_page_tests_and_not_the_chapter_code(graph):
    sel = chosen(graph, "docs/four_steps.md")
    assert set(sel.subjects) == {"four_steps.md"}
    assert "tests/test_four_steps.py" not in sel.tests  # 스니펫만 import 하는 장의 테스트는 페이지 글과 상관없습니다
    for file, function in [
        ("tests/test_pages.py", "test_pages_end_with_next_link"),
        ("tests/test_page_snapshots.py", "test_page_output_is_the_reviewed_one"),
        ("tests/test_prose_outputs.py", "test_numbers_and_shapes_in_the_prose_are_in_the_output_beside_them"),
        ("tests/test_quizzes.py", "test_three_to_five_questions_each_with_a_collapsed_answer"),
    ]:
        assert function in sel.tests[file], (file, function)
    notebook = chosen(graph, "snippets/notebooks/part1_numpy_attention.md")
    assert set(notebook.subjects) == {"part1_numpy_attention", "practice/part1_numpy_attention.ipynb"}
    assert "test_downloaded_notebook_runs_on_its_own" in notebook.tests["tests/test_notebooks.py"]


def test_a_test_reaches_itself_and_the_foundations_reach_everything(graph):
    sel = chosen(graph, "tests/test_four_steps.py")
    assert sel.tests["tests/test_four_steps.py"] == {changes.ALL: "고친 테스트 파일"}
    # test_requirements 는 모든 import 를, test_cache 는 모든 모듈의 소스를 (rglob) 읽습니다: 이 스캐너는 그 둘을 더 고릅니다
    assert set(sel.tests) == {"tests/test_four_steps.py", "tests/test_requirements.py", "tests/test_cache.py"}
    helper = chosen(graph, "tests/reference_attention.py")
    assert {"tests/test_attention.py", "tests/test_bad_inputs.py"} <= set(helper.tests)
    for path in ["overrides/hooks/sitebuild/glue.py", "tests/conftest.py", "tests/support/runs.py", "mkdocs.yml"]:
        assert chosen(graph, path).full == [path], path
    assert chosen(graph, "tests/browser.py").full  # conftest 가 붙이는 플러그인
    readme = chosen(graph, "README.md")  # 이 파일만 그 이름을 글자로 적습니다 (바로 위 줄)
    assert set(readme.tests) <= {"tests/test_quick.py"} and not readme.full
    assert "tests/test_real_model.py" in chosen(graph, ".ci/bench_encoder.py").tests  # 파일 이름을 부르는 테스트


def test_the_remembered_scan_is_the_fresh_scan(graph):
    """.cache/tests/test-files.json 에서 읽은 테스트 파일의 정보 = 지금 소스를 새로 읽은 것."""
    for rel in ("tests/test_pages.py", "tests/test_toy_data.py", "tests/test_real_model.py"):
        source = (ROOT / rel).read_text(encoding="utf-8")
        helpers = {p.stem for p in (ROOT / "tests").glob("*.py") if not p.name.startswith("test_")}
        assert graph.tests[rel] == changes._test_file(rel, source, set(graph.imports), helpers), rel


def test_keep_filters_by_the_named_parameter_only(graph):
    plan = {
        "tests": {"tests/test_pages.py": ["test_no_inline_python"], "tests/test_four_steps.py": [changes.ALL]},
        "subjects": ["four_steps.md"],
        "universe": sorted(graph.universe()),
    }
    assert changes.keep("tests/test_pages.py", "test_no_inline_python", {"page": "four_steps.md"}, plan)
    assert not changes.keep("tests/test_pages.py", "test_no_inline_python", {"page": "heatmap.md"}, plan)
    assert changes.keep("tests/test_pages.py", "test_no_inline_python", {"x": 3}, plan)  # 이름이 아닌 매개변수
    assert changes.keep("tests/test_pages.py", "test_no_inline_python", {"path": ROOT / "docs" / "four_steps.md"}, plan)
    assert not changes.keep("tests/test_pages.py", "test_every_page_is_in_nav", {}, plan)
    assert changes.keep("tests/test_four_steps.py", "test_anything", {"page": "heatmap.md"}, plan)
    assert not changes.keep("tests/test_glue.py", "test_x", {}, plan)


def test_make_check_splits_files_without_overlap_and_keeps_heavy_users_together(graph):
    files = sorted(f for f, t in graph.tests.items() if not t.marks & check.LEFT_OUT)
    durations = {f: float(len(f)) for f in files}
    groups = check.split(files, 2, graph, durations)
    assert len(groups) == 2 and sorted(sum(groups, [])) == files
    assert not set(groups[0]) & set(groups[1])
    for group in set(check.HEAVY_SNIPPETS.values()):
        snippets = {s for s, g in check.HEAVY_SNIPPETS.items() if g == group}
        users = {f for f in files if graph.tests[f].imported() & snippets}
        assert users and sum(bool(users & set(g)) for g in groups) == 1, (group, users)
    loads = [sum(durations[f] for f in g) for g in groups]
    assert max(loads) - min(loads) <= max(durations.values()) * 3  # 크게 치우치지 않음
    assert "tests/test_e5_model.py" not in files and "tests/test_pages_in_browser.py" not in files  # 모으지도 않음
    assert check.split(files, 1, graph, durations) == [files]


def test_the_quick_estimate_adds_only_the_selected_tests():
    """make quick 이 프로세스 수를 정하는 어림: 고른 함수의, 고른 이름의 매개변수를 가진 테스트만 더합니다. 파일 전체를
    더하던 어림은 스니펫 하나를 고쳐도 57초로 보아 프로세스 둘을 띄웠습니다 (고른 것은 그 가운데 몇 초)."""
    plan = {
        "tests": {
            "tests/test_a.py": ["test_page"],
            "tests/test_b.py": [changes.ALL],
            "tests/test_new.py": [changes.ALL],
        },
        "subjects": ["one.md"],
        "universe": ["one.md", "two.md"],
    }
    durations = {
        "tests/test_a.py::test_page[one.md]": {"seconds": 2.0, "names": ["one.md"]},
        "tests/test_a.py::test_page[two.md]": {"seconds": 30.0, "names": ["two.md"]},
        "tests/test_a.py::test_page[3]": {"seconds": 0.5, "names": []},  # 이름이 아닌 매개변수는 남깁니다
        "tests/test_a.py::test_other": {"seconds": 50.0, "names": []},
        "tests/test_b.py::test_x[two.md]": {"seconds": 4.0, "names": ["two.md"]},  # 통째로 고른 파일
    }
    files = ["tests/test_a.py", "tests/test_b.py", "tests/test_new.py"]
    assert check.selected_seconds(files, plan, durations) == 2.0 + 0.5 + 4.0 + 1.0  # 적힌 것 없는 파일은 1초
    assert check.file_seconds(durations) == {"tests/test_a.py": 82.5, "tests/test_b.py": 4.0}


def test_changed_files_are_the_diff_against_head_and_untracked_files(tmp_path):
    def git(*args):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True, capture_output=True
        )

    git("init", "-q")
    (tmp_path / "a.py").write_text("1\n")
    (tmp_path / "b.py").write_text("2\n")
    git("add", ".")
    git("commit", "-q", "-m", "x")
    (tmp_path / "a.py").write_text("3\n")
    (tmp_path / "b.py").unlink()
    (tmp_path / "c.md").write_text("new\n")
    assert changes.changed_files(tmp_path) == ["a.py", "b.py", "c.md"]


# --- 빠뜨리지 않음: 대표적인 수정마다 make check 전부와 make quick ---------------------------------------------
# (이름, [(파일, 바꿀 글, 새 글)], 수정 뒤 make snapshots 를 할지)
EDITS = [
    ("스니펫: 찍는 자리수 (issue 30)", [("snippets/chapters/four_steps.py", "precision=3", "precision=4")], False),
    (
        "스니펫 + 장의 테스트 + 스냅숏: 확인 문제 1 의 모양 (issue 30)",
        [
            ("snippets/chapters/four_steps.py", "rng.standard_normal((5, 4))", "rng.standard_normal((6, 4))"),
            ("tests/test_four_steps.py", "fs.w5.shape == (5, 7) and fs.out5.shape == (5, 6)", "fs.w5.shape == (6, 7)"),
        ],
        True,
    ),
    ("페이지: 다음 장 링크", [("docs/four_steps.md", "(why_scale.md)\n", "(heatmap.md)\n")], False),
    ("테스트", [("tests/test_four_steps.py", "assert (n, d_k) == (3, 4)", "assert (n, d_k) == (3, 5)")], False),
]


def _failed(output):
    return set(re.findall(r"^FAILED (\S+)", output, flags=re.M))


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """저장소의 지금 파일들(추적하지 않는 것 포함)을 새 git 저장소로 복사하고, 캐시(.cache/site, .cache/tests)도 가져옵니다:
    열쇠가 내용이므로 그대로 맞습니다. 바이트코드는 이 저장소의 것을 함께 씁니다 (라이브러리를 다시 컴파일하지 않게)."""
    root = tmp_path_factory.mktemp("repo")
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        if (ROOT / rel).is_file():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, root / rel)
    for cache in ("site", "tests"):
        if (ROOT / ".cache" / cache).is_dir():
            shutil.copytree(ROOT / ".cache" / cache, root / ".cache" / cache)
    git = ["git", "-c", "user.name=quick", "-c", "user.email=quick@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], cwd=root, check=True)
    return root


@pytest.fixture(scope="module")
def already_failing(copy):
    """고치기 전의 복사본에서 make check 가 실패하는 테스트들 (보통은 없음). 수정 때문에 실패한 것과 가르려고 한 번 돌립니다."""
    return _failed(_run(copy).stdout)


def _env():
    env = {**os.environ, "HYPOTHESIS_PROFILE": "check", "PYTHONDONTWRITEBYTECODE": ""}
    env.setdefault("PYTHONPYCACHEPREFIX", str(ROOT / ".cache" / "pycache"))
    return env


def _run(root, *args):
    env = _env()
    return subprocess.run(
        [sys.executable, "tools/check.py", *args, "-rf", "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )


@pytest.mark.loop
@pytest.mark.parametrize("name, edits, snapshots", EDITS, ids=[e[0] for e in EDITS])
def test_the_quick_loop_fails_whenever_make_check_fails(copy, already_failing, name, edits, snapshots):
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=copy, check=True)
    subprocess.run(["git", "clean", "-qfd", "--", "docs", "snippets", "tests"], cwd=copy, check=True)
    for rel, old, new in edits:
        text = (copy / rel).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{rel}: 바꿀 글 {old!r} 이 한 번 있어야 합니다 (수정 예를 고치세요)"
        (copy / rel).write_text(text.replace(old, new), encoding="utf-8")
    if snapshots:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "tests/test_page_snapshots.py",
                "--snapshot-update",
                "-p",
                "no:cacheprovider",
            ],
            cwd=copy,
            capture_output=True,
            check=True,
            env=_env(),
        )
    full = _run(copy)
    quick = _run(copy, "--changed")
    broken = _failed(full.stdout) - already_failing
    assert broken, (
        f"{name}: 이 수정은 make check 에서 실패해야 합니다 (고치기 전부터: {sorted(already_failing)})\n{full.stdout[-3000:]}"
    )
    assert quick.returncode != 0, f"{name}: make check 은 실패하는데 make quick 은 통과했습니다\n{quick.stdout[-4000:]}"
    missed = broken - _failed(quick.stdout)
    assert not missed, f"{name}: make quick 이 놓친 실패 {sorted(missed)}\n{quick.stdout[:4000]}"
    print(f"\n{name}: make check 에서 실패 {len(broken)}개, make quick 이 모두 잡음 {sorted(broken)}")
