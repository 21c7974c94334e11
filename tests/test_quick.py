"""make quick 과 make check 의 나누기 (tests/support/changes.py, tools/check.py).

- 고르기: 코드가 밝힌 것으로. 스니펫 하나 → 그것이 import 닫힘에 든 테스트 파일(통째로), 그것을 include 하는 페이지·노트북과
  그림을 reads 표시로 읽는 테스트; 페이지 → 그 페이지를 읽는다고 밝힌 테스트; 테스트 → 그 자신; 빌드 코드·conftest·테스트
  도구 → make check 전부. 밝힌 표시는 글자 그대로이고 있는 파일을 가리킵니다.
- 나누기: 두 프로세스의 테스트 파일이 겹치지 않고, 무거운 스니펫을 쓰는 파일은 한쪽에 모입니다.
- 빠뜨리지 않음 (loop 표시, make test 와 CI 에서): 저장소를 복사해 대표적인 수정마다 make check 전부와 make quick 을 돌려,
  make check 에서 실패하는 테스트가 make quick 에서도 실패하는지 봅니다.
"""

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from support import changes

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("tools/check.py")

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


def kept(selection, graph, file, function, **params):
    """모은 뒤의 거르기(플러그인의 keep)가 file 의 테스트 function[params] 를 남기는지: reads 표시는 AST 로 읽은 함수의 것."""
    source = (graph.root / file).read_text(encoding="utf-8")
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    module = changes.facts(file, "\n".join(ast.unparse(n) for n in tree.body if not isinstance(n, ast.FunctionDef)))
    own = changes.facts(file, ast.unparse(node))
    names = changes.names_of(params)
    return changes.keep(file, module["reads"] + own["reads"], names, selection.plan(graph.universe()))


@pytest.mark.reads("*")  # 저장소의 모든 테스트가 밝힌 것과 모든 import 를 봅니다
def test_a_snippet_reaches_its_importers_pages_figures_and_tests(graph):
    sel = chosen(graph, "snippets/chapters/four_steps.py")
    assert not sel.full
    # import 닫힘: 4장을 import 하는 테스트 파일은 통째로 (test_self_vs_cross 는 함수 안에서 import 합니다)
    assert {"tests/test_four_steps.py", "tests/test_self_vs_cross.py"} <= set(sel.whole)
    assert {"four_steps.py", "four_steps.md", "four_steps-pipeline"} <= set(sel.subjects)
    assert "docs/four_steps.md" in sel.touched  # include 하는 페이지
    assert kept(
        sel, graph, "tests/test_page_snapshots.py", "test_page_output_is_the_reviewed_one", page="four_steps.md"
    )
    assert not kept(
        sel, graph, "tests/test_page_snapshots.py", "test_page_output_is_the_reviewed_one", page="heatmap.md"
    )
    assert kept(
        sel, graph, "tests/test_snippets_run.py", "test_snippet_file_runs", path=ROOT / "snippets" / "four_steps.py"
    )
    assert "tests/test_figure_legibility.py" in sel.reads
    assert "tests/test_korean_model.py" not in sel.files() and "heatmap.md" not in sel.subjects
    # 빌드된 사이트나 브라우저가 필요한 파일은 make check 처럼 모으지도 않습니다
    assert "tests/test_pages_in_browser.py" not in sel.files() and "tests/test_phone.py" not in sel.files()
    # 모든 그림이 쓰는 plotting 은 모든 그림에 닿습니다
    assert set(graph.figures) <= set(chosen(graph, "snippets/lib/plotting.py").subjects)
    # 코어는 그것을 import 하는 모든 스니펫에, 그래서 거의 모든 페이지에 닿습니다
    core = chosen(graph, "snippets/lib/attention.py")
    assert {"korean_model.md", "four_steps.md", "efficient.md"} <= set(core.subjects)


@pytest.mark.reads("*")
def test_a_page_reaches_the_tests_that_declare_it_and_not_the_chapter_code(graph):
    sel = chosen(graph, "docs/four_steps.md")
    assert set(sel.subjects) == {"four_steps.md"} and not sel.whole
    assert "tests/test_four_steps.py" not in sel.files()  # 스니펫만 import 하는 장의 테스트는 페이지 글과 상관없습니다
    for file, function, params in [
        ("tests/test_pages.py", "test_pages_end_with_next_link", {}),
        ("tests/test_page_snapshots.py", "test_page_output_is_the_reviewed_one", {"page": "four_steps.md"}),
        ("tests/test_prose_outputs.py", "test_numbers_and_shapes_in_the_prose_are_in_the_output_beside_them", {}),
        (
            "tests/test_quizzes.py",
            "test_three_to_five_questions_each_with_a_collapsed_answer",
            {"page": "four_steps.md"},
        ),
    ]:
        assert kept(sel, graph, file, function, **params), (file, function)
    assert not kept(sel, graph, "tests/test_quizzes.py", "test_issue_39_misreads")  # 읽는다고 밝힌 것이 summary.md 뿐
    notebook = chosen(graph, "snippets/notebooks/part1_numpy_attention.md")
    assert set(notebook.subjects) == {"part1_numpy_attention", "practice/part1_numpy_attention.ipynb"}
    assert kept(notebook, graph, "tests/test_notebooks.py", "test_downloaded_notebook_runs_on_its_own")


@pytest.mark.reads("*")
def test_a_test_reaches_itself_and_the_foundations_reach_everything(graph):
    sel = chosen(graph, "tests/test_four_steps.py")
    assert sel.whole == {"tests/test_four_steps.py": "고친 테스트 파일"}
    assert set(sel.files()) == {"tests/test_four_steps.py"}
    helper = chosen(graph, "tests/reference_attention.py")  # import 하는 테스트 파일들
    assert {"tests/test_attention.py", "tests/test_bad_inputs.py"} <= set(helper.whole)
    for path in ["overrides/hooks/sitebuild/glue.py", "tests/conftest.py", "tests/support/runs.py", "mkdocs.yml"]:
        assert chosen(graph, path).full == [path], path
    assert chosen(graph, "tests/browser.py").full  # conftest 가 pytest_plugins 로 붙이는 플러그인
    readme = chosen(graph, "README.md")  # 모든 파일을 읽는다고 밝힌 이 파일의 테스트만
    assert readme.files() == ["tests/test_quick.py"] and not readme.full
    assert "tests/test_real_model.py" in chosen(graph, ".ci/bench_encoder.py").reads
    # docs/ 의 파일을 (모든 파일을 읽는 이 파일의 검사 말고는) 아무도 밝히지 않으면 전부
    assert chosen(graph, "docs/nothing-reads-this.png").full


@pytest.mark.reads("*")  # 이름을 바꾼 페이지·파일을 아직 부르는 표시를 잡으려고: 어느 파일을 고쳐도 돕니다
def test_every_declared_read_names_files_that_exist(graph):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    tracked = [f for f in files.stdout.splitlines() if (ROOT / f).exists()]
    declared = {(t.path, p) for t in graph.tests.values() for p in t.reads}
    assert len({t for t, _ in declared}) >= 40
    stale = sorted((t, p) for t, p in declared if not any(changes.matches(p, f) for f in tracked))
    assert not stale, f"reads 표시가 가리키는 파일이 없습니다 (이름을 바꿨으면 표시도 고치세요): {stale}"


def test_the_cached_facts_are_the_fresh_facts(graph):
    """공용 캐시에서 읽은 파일의 facts = 지금 소스를 새로 파싱한 것."""
    for rel in ("tests/test_pages.py", "tests/test_quizzes.py", "snippets/lib/toy_data.py"):
        assert graph.imports.facts(rel) == changes.facts(rel, (ROOT / rel).read_text(encoding="utf-8")), rel


def test_a_declaration_must_be_literal():
    source = "import pytest\nPAGES = ['a.md']\n\n@pytest.mark.reads(*PAGES)\ndef test_x():\n    pass\n"
    with pytest.raises(ValueError, match="tests/test_x.py:4"):
        changes.facts("tests/test_x.py", source)


def _write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_modules_are_found_through_the_import_path_in_any_sub_folder(tmp_path):
    """스니펫을 하위 폴더로 옮겨도 (import 경로에 있으면) 고르기가 그대로입니다: 모듈은 pytest 처럼 경로에서 찾습니다."""
    _write(
        tmp_path,
        {
            "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["snippets/lib", "snippets/chapters", "tests"]\n',
            "snippets/lib/core.py": "import numpy\n",
            "snippets/chapters/chap.py": "import core\n\n\ndef figure_one():\n    pass\n",
            "snippets/chapters/other.py": "X = 1\n",
            "docs/chap.md": '```python\n--8<-- "chapters/chap.py:main"\n```\n',
            "docs/other.md": '--8<-- "other.py"\n',
            "tests/conftest.py": "pytest_plugins = []\n",
            "tests/test_chap.py": "def test_x():\n    from chap import figure_one\n",
            "tests/test_pages.py": 'import pytest\n\n\n@pytest.mark.reads("docs/*.md")\ndef test_p():\n    pass\n',
        },
    )
    graph = changes.Graph.read(tmp_path)
    sel = changes.select(["snippets/lib/core.py"], graph)
    assert set(sel.whole) == {"tests/test_chap.py"} and set(sel.reads) == {"tests/test_pages.py"}
    assert {"core.py", "chap.py", "chap.md", "chap-one"} <= set(sel.subjects) and "other.md" not in sel.subjects
    (tmp_path / "snippets/lib/core.py").unlink()  # 지운 모듈: 그것을 import 하던 파일은 이름으로 찾습니다
    assert "tests/test_chap.py" in changes.select(["snippets/lib/core.py"], changes.Graph.read(tmp_path)).whole


def test_keep_filters_by_the_declared_reads_and_the_named_parameter():
    plan = {
        "whole": ["tests/test_four_steps.py"],
        "reads": ["tests/test_pages.py"],
        "touched": {"docs/four_steps.md": "four_steps.md", "snippets/chapters/four_steps.py": "four_steps.py"},
        "subjects": ["four_steps.md", "four_steps.py"],
        "universe": ["four_steps.md", "heatmap.md", "four_steps.py", "heatmap.py"],
    }
    pages = ["docs/*.md"]
    assert changes.keep("tests/test_pages.py", pages, {"four_steps.md"}, plan)
    assert not changes.keep("tests/test_pages.py", pages, {"heatmap.md"}, plan)
    assert changes.keep("tests/test_pages.py", pages, set(), plan)  # 이름이 아닌 매개변수: "모든 페이지가 nav 에"
    assert changes.keep("tests/test_pages.py", pages, changes.names_of({"p": ROOT / "docs" / "four_steps.md"}), plan)
    assert not changes.keep("tests/test_pages.py", [], set(), plan)  # 아무것도 읽는다고 밝히지 않은 테스트
    assert not changes.keep("tests/test_pages.py", ["docs/heatmap.md"], set(), plan)
    assert changes.keep("tests/test_pages.py", None, {"four_steps.md"}, plan)  # 표시를 모름(지난 기록에 없음)
    assert changes.keep("tests/test_four_steps.py", [], {"heatmap.md"}, plan)  # 통째로 고른 파일
    assert not changes.keep("tests/test_glue.py", ["*"], set(), plan)
    # 이름으로 고를 수 없는 파일이 바뀌면 매개변수로 거르지 않습니다 (그 스크립트는 모든 페이지에 쓰입니다)
    plan["touched"]["docs/assets/site.js"] = None
    assert changes.keep("tests/test_pages.py", ["docs/*"], {"heatmap.md"}, plan)


def test_make_check_splits_files_without_overlap_and_keeps_heavy_users_together(graph):
    files = sorted(f for f, t in graph.tests.items() if not t.marks & check.LEFT_OUT)
    durations = {f: float(len(f)) for f in files}
    groups = check.split(files, 2, graph, durations)
    assert len(groups) == 2 and sorted(sum(groups, [])) == files
    assert not set(groups[0]) & set(groups[1])
    for group in set(check.HEAVY_SNIPPETS.values()):
        snippets = {s for s, g in check.HEAVY_SNIPPETS.items() if g == group}
        users = {f for f in files if {Path(p).stem for p in graph.imports.edges(f)} & snippets}
        assert users and sum(bool(users & set(g)) for g in groups) == 1, (group, users)
    loads = [sum(durations[f] for f in g) for g in groups]
    assert max(loads) - min(loads) <= max(durations.values()) * 3  # 크게 치우치지 않음
    assert "tests/test_e5_model.py" not in files and "tests/test_pages_in_browser.py" not in files  # 모으지도 않음
    assert check.split(files, 1, graph, durations) == [files]


def test_the_quick_estimate_adds_only_the_selected_tests():
    """make quick 이 프로세스 수를 정하는 어림: 고른 함수의, 고른 이름의 매개변수를 가진 테스트만 더합니다. 파일 전체를
    더하던 어림은 스니펫 하나를 고쳐도 57초로 보아 프로세스 둘을 띄웠습니다 (고른 것은 그 가운데 몇 초)."""
    plan = {
        "whole": ["tests/test_b.py", "tests/test_new.py"],
        "reads": ["tests/test_a.py"],
        "touched": {"docs/one.md": "one.md"},
        "subjects": ["one.md"],
        "universe": ["one.md", "two.md"],
    }
    durations = {
        "tests/test_a.py::test_page[one.md]": {"seconds": 2.0, "names": ["one.md"], "reads": ["docs/*.md"]},
        "tests/test_a.py::test_page[two.md]": {"seconds": 30.0, "names": ["two.md"], "reads": ["docs/*.md"]},
        "tests/test_a.py::test_page[3]": {"seconds": 0.5, "names": [], "reads": ["docs/*.md"]},  # 이름이 아닌 매개변수
        "tests/test_a.py::test_other": {"seconds": 50.0, "names": [], "reads": []},
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
    # 장의 테스트는 스니펫만 import 하고 페이지 글은 reads 표시로 밝힙니다 (test_why_scale 의 pytestmark)
    ("페이지: 본문이 옮긴 숫자", [("docs/why_scale.md", "하나꼴(0.356)", "하나꼴(0.365)")], False),
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


def test_a_test_that_reads_a_page_it_does_not_declare_fails(tmp_path):
    """stop 44 의 CI 실패: 6장의 문장을 보는 테스트에 reads 표시가 없어, 그 문장을 고친 make quick 이 그 테스트를 고르지
    않았습니다. 플러그인은 실행 중에 연 저장소의 .md 가운데 표시에 없는 것을 찾아 테스트를 실패시킵니다."""
    root = tmp_path
    (root / "docs").mkdir()
    page, notebook = root / "docs" / "multi_head.md", root / "snippets" / "notebooks" / "part3.md"
    opened = {
        str(page),
        str(notebook),
        str(root / "tests" / "__snapshots__" / "x.md"),
        "/elsewhere/a.md",
        str(root / "snippets" / "lib" / "attention.py"),  # import 닫힘이 고르는 것
        str(root / "docs" / "assets" / "own-prompt.js"),
        str(root / "README.md"),
        "relative.md",
    }
    everything = ["docs/assets/own-prompt.js", "docs/multi_head.md", "snippets/notebooks/part3.md"]
    assert changes.undeclared(opened, [], root) == everything
    assert changes.undeclared(opened, ["docs/multi_head.md"], root) == everything[::2]
    assert changes.undeclared(opened, ["docs/*", "snippets/notebooks/*.md"], root) == []
    assert changes.undeclared(opened, ["*"], root) == []


def test_the_unchecked_marks_are_the_ones_make_quick_never_runs():
    assert set(changes.UNCHECKED) == set(check.LEFT_OUT) | {"loop"}


@pytest.mark.reads("tests/*.py")  # `*` 는 / 도 넘습니다: 하위 폴더의 테스트 도구도
def test_every_test_module_is_collected_even_those_make_quick_leaves_out():
    """make quick 과 make check 은 브라우저·사이트 테스트 파일을 모으지도 않습니다 (LEFT_OUT). 그런 파일이 다른 테스트
    모듈의 이름을 import 하면, 그 이름을 지운 수정은 make check 을 통과하고 make test 의 모으기에서야 멈춥니다 (stop 45:
    test_ablation_browser 가 test_own_sentence_browser 의 open_tool 을 불렀습니다). 그래서 모든 테스트 파일을 모으기만 합니다.
    syrupy 는 빼고 모읍니다: 모으기만 하면 모든 스냅숏이 "쓰이지 않음" 으로 보여 끝 코드가 1 이 됩니다."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:syrupy", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = re.findall(r"^ERROR (\S+)", done.stdout, flags=re.M)
    assert done.returncode == 0 and not errors, f"모으지 못한 테스트 파일: {errors}\n{done.stdout[-3000:]}"
    assert re.search(r"^\d{4,} tests collected", done.stdout, flags=re.M), done.stdout[-500:]
