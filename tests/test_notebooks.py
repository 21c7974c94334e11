"""실습 노트북 파트 1–3: 스니펫과 한 원본, 빌드에서 실행, 저장소 밖에서도 혼자 실행."""

import functools
import importlib.metadata as md
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from conftest import SNIPPETS, background, snippet_path
from site_pages import expander
from sitebuild import notebooks, snippets
from support import runs

NB_SOURCES = sorted((SNIPPETS / "notebooks").glob("*.md"))
NAMES = [p.stem for p in NB_SOURCES]


def generate(tmp_path, snippets_dir=SNIPPETS):
    from sitebuild import codeblocks

    expand = codeblocks.SnippetExpander(
        {"base_path": [str(f) for f in snippets.folders(snippets_dir)], "check_paths": True, "dedent_subsections": True}
    )
    return {p.stem: p for p in notebooks.build_notebooks(snippets_dir / "notebooks", tmp_path, expand)}


@functools.cache
def generated():
    """스니펫 폴더 그대로 만든 노트북들 {이름: .ipynb 글}. 여러 테스트가 같은 것을 보므로 세션에 한 번 만듭니다."""
    with tempfile.TemporaryDirectory() as tmp:
        return {name: path.read_text(encoding="utf-8") for name, path in generate(Path(tmp)).items()}


def code_cells(notebook):
    """노트북(파일 경로나 .ipynb 글)의 코드 셀 글들."""
    text = notebook.read_text(encoding="utf-8") if isinstance(notebook, Path) else notebook
    return ["".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "code"]


@pytest.mark.reads("snippets/notebooks/*.md")
def test_four_parts():
    assert NAMES == [
        "part1_numpy_attention",
        "part2_heatmap",
        "part3_multi_head",
        "part4_online_softmax",
        "part5_attention_backward",
    ]


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_code_cells_are_snippet_sections(name):
    """코드 셀마다 원본의 include 한 줄을 펼친 것과 글자 하나까지 같습니다 (직접 적은 코드 없음)."""
    src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    includes = re.findall(r"^```python[^\n]*\n(--8<-- \"[^\"]+\")\n```", src, flags=re.M)
    n_fences = len(re.findall(r"^```python", src, flags=re.M))
    assert len(includes) == n_fences, "노트북 원본의 코드 블록에는 include 한 줄만 있어야 합니다"
    cells = code_cells(generated()[name])
    assert cells == [expander()(line).strip("\n") for line in includes]


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_built_notebook_is_the_generated_one(built_site, name):
    site, _ = built_site
    built = site / "practice" / name / f"{name}.ipynb"
    assert built.read_text(encoding="utf-8") == generated()[name]


@pytest.mark.reads("snippets/notebooks/*.md")
def test_editing_a_snippet_changes_the_notebook_and_its_cache_key(tmp_path):
    from mkdocs_jupyter.plugin import Plugin, _compute_cache_key

    copy = tmp_path / "snippets"
    shutil.copytree(SNIPPETS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = generate(tmp_path / "before", copy)["part1_numpy_attention"]
    part1 = copy / "chapters" / "practice_part1.py"
    source = part1.read_text(encoding="utf-8")
    assert "tokens, X, Q, K, V = toy_qkv()" in source
    part1.write_text(
        source.replace("tokens, X, Q, K, V = toy_qkv()", "tokens, X, Q, K, V = toy_qkv(d_k=5)"), encoding="utf-8"
    )
    after = generate(tmp_path / "after", copy)["part1_numpy_attention"]
    assert code_cells(before) != code_cells(after)
    # mkdocs-jupyter 의 실행 캐시 열쇠는 노트북 내용에서 나오므로, 스니펫을 고치면 캐시가 빗나갑니다.
    cfg = dict(Plugin().config_scheme)  # 기본값으로 열쇠 계산에 필요한 항목만 채웁니다
    options = {k: getattr(v, "default", None) for k, v in cfg.items()}
    (tmp_path / "same").mkdir()
    a, b = tmp_path / "same" / "nb.ipynb", tmp_path / "same" / "nb2.ipynb"
    shutil.copy(before, a)
    shutil.copy(after, b)
    key_before = _compute_cache_key(str(a), options, True)
    a.write_bytes(b.read_bytes())
    assert _compute_cache_key(str(a), options, True) != key_before
    # 그리고 실행 결과도 바뀝니다.
    out = run_standalone(after, tmp_path / "run")
    assert "Q: (3, 5)" in out.stdout


def _closure(names):
    """배포판 이름들과 그 의존성 전체 (numpy, matplotlib 과 matplotlib 이 끌어오는 것들)."""
    todo, seen = list(names), set()
    while todo:
        name = re.split(r"[ ;<>=!\[]", todo.pop())[0].lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for req in md.requires(name) or []:
            if "extra ==" not in req:
                todo.append(req)
    return seen


def isolated_site(tmp_path):
    """numpy 와 matplotlib(과 그 의존성)만 들어 있는 site-packages 를 심볼릭 링크로 만듭니다."""
    site = tmp_path / "site-packages"
    site.mkdir(parents=True)
    for dist_name in _closure(["numpy", "matplotlib"]):
        dist = md.distribution(dist_name)
        for f in dist.files or []:
            top = f.parts[0]
            src = Path(dist.locate_file(top))
            if top.endswith((".dist-info", "bin")) or top == ".." or not src.exists():
                continue
            if not (site / top).exists():
                (site / top).symlink_to(src)
    return site


def run_standalone(notebook, workdir):
    """노트북의 코드 셀을 빈 폴더에서, numpy 와 matplotlib 만 보이는 파이썬(-I -S)으로 실행합니다."""
    workdir.mkdir(parents=True, exist_ok=True)
    site = isolated_site(workdir)
    script = workdir / "notebook.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(site)!r})\n" + "\n\n".join(code_cells(notebook)), encoding="utf-8"
    )
    env = {"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(workdir / "mpl"), "HOME": str(workdir)}
    return subprocess.run(
        [sys.executable, "-I", "-S", str(script)], cwd=workdir, env=env, capture_output=True, text=True, timeout=300
    )


def test_isolated_python_sees_only_numpy_and_matplotlib(tmp_path):
    site = isolated_site(tmp_path)
    code = (
        f"import sys; sys.path.insert(0, {str(site)!r})\n"
        "import numpy, matplotlib\n"
        "for name in ('attention', 'plotting', 'koreanize_matplotlib', 'mkdocs', 'IPython'):\n"
        "    try:\n        __import__(name)\n    except ImportError:\n        pass\n"
        "    else:\n        raise SystemExit(f'{name} 를 import 할 수 있으면 안 됩니다')\n"
        "print('ok', numpy.__version__, matplotlib.__version__)"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "MPLCONFIGDIR": str(tmp_path / "mpl")},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")


EXPECTED = {
    "part1_numpy_attention": [
        "④ output  = weights @ V      (3, 4)",
        "③ weights = softmax(scaled)  (3, 3)  행의 합: [1. 1. 1.]",
        "✗ 점수 행렬 (2, 3): 쿼리 축(axis=0)을 따라 나눠 열의 합이 1이 됐습니다.",
        "✗ 아주 큰 점수 [1000, 999, 0]: 최댓값을 빼지 않아 큰 점수에서 exp 가 넘쳐 nan 이 됐습니다.",
        "✗ 쿼리 2개, 키 3개, d_k = 4: √d_k 대신 d_k 로 나눴습니다.",
        "d_k = 512: 나누지 않음 0.956, ÷√d_k 0.322",
    ],
    "part2_heatmap": [
        "가중치: (6, 6)  행의 합: [1. 1. 1. 1. 1. 1.]",
        "'sat' 행에서 가장 큰 가중치: 'The' (0.38)",
        "✗ 인과 마스크, 토큰 4개: 소프트맥스를 한 뒤에 가렸습니다.",
        "✗ 마스크로 0이 된 칸이 있는 가중치: 0인 칸에서 0 × ln 0 = 0 × (-inf) = nan 이 됐습니다.",
        "뒤섞은 가중치가 원래 가중치의 행과 열을 같은 순서로 바꾼 것과 같은가? True",
    ],
    "part3_multi_head": [
        "헤드별 가중치: (8, 6, 6)",
        "헤드 1 을 자기 자신과 비교:   0.000",
        "✗ 헤드 2개, 토큰 3개, 폭 4: Kh.T 는 모든 축을 뒤집습니다",
        "scale = 1.0: 헤드 사이 평균 JS 거리 0.460",
        "W_O 전에 바뀐 열 수: 8  W_O 뒤에 바뀐 열 수: 64",
    ],
    "part4_online_softmax": [
        "블록 2: [6. 0. 4.] → m = 6, l = 1.2127",
        "✓ 아주 큰 점수 (블록 1, 3, 64)",
        "모두 통과",
        "✗ 앞 5개 + 뒤 3개: 두 l 을 그대로 더했습니다.",
        "✗ 블록 1: acc 를 새 최댓값에 맞게 고치지 않았습니다.",
    ],
    "part5_attention_backward": [
        "출력 O: (4, 3)  손실 L = 1.399075",
        "✗ 모양 (4, 5): 식의 − P_j 부분을 빠뜨렸습니다.",
        "✗ 쿼리 4, 키 5, d_k 8, d_v 3: dS 를 √d_k 로 나누지 않았습니다.",
        "✓ 쿼리 1, 키 1, d_k 2, d_v 1",
        "✓ 모양 (4, 5)",
        "모두 통과",
    ],
}


def _downloaded_run(name):
    """내려받은 노트북 실행. 만든 노트북의 글이 그대로면 지난 결과를 씁니다 (support/runs.py)."""
    text = generated()[name]

    def run():
        with tempfile.TemporaryDirectory() as tmp:
            notebook = Path(tmp) / f"{name}.ipynb"
            notebook.write_text(text, encoding="utf-8")
            return run_standalone(notebook, Path(tmp) / "outside")

    return runs.cached(f"notebook-{name}", [text], run, __name__)


# 내려받은 노트북 실행은 새 프로세스라서 세션을 시작할 때 배경에서 미리 돌려 둡니다 (conftest.background).
BACKGROUND = {f"notebook:{name}": functools.partial(_downloaded_run, name) for name in NAMES}


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_downloaded_notebook_runs_on_its_own(name):
    proc = background(f"notebook:{name}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    for line in EXPECTED[name]:
        assert line in proc.stdout


def test_heads_differ_more_than_a_baseline():
    import practice_part3 as p3

    spread = p3.mean_pairwise_js(p3.weights)
    assert spread > 0.25
    assert p3.js_distance(p3.weights[0], p3.weights[0]).max() == 0.0
    uniform = p3.np.full(6, 1 / 6)
    one_hot = p3.np.eye(6)[0]
    assert p3.js_distance(one_hot, p3.np.eye(6)[1]) == pytest.approx(1.0)
    assert 0 < p3.js_distance(uniform, one_hot) < 1


EXERCISES = {name: (2, 4) for name in NAMES}


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_each_notebook_ends_with_exercises_and_their_solutions(name):
    """연습 문제 2–4개가 노트북 끝에 있고, 풀이 셀은 그 뒤, "다음 장:" 줄 앞에 있습니다."""
    src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    exercises = re.findall(r'--8<-- "practice_part\d\.py:exercise_(\d)"', src)
    solutions = re.findall(r'--8<-- "practice_part\d\.py:solution_(\d)"', src)
    low, high = EXERCISES[name]
    assert low <= len(exercises) <= high and exercises == solutions == [str(i + 1) for i in range(len(exercises))]
    headings = re.findall(r"^## (.+)$", src, flags=re.M)
    assert headings[-2:] == ["연습 문제", "풀이"], headings
    assert src.index("## 연습 문제") < src.index("## 풀이") < src.rindex("다음 장:")


def passes(check, fn, capsys):
    """확인 함수가 fn 에 "모두 통과" 를 찍는가 (확인 함수는 아무것도 돌려주지 않습니다: 노트북이 True·False 를 찍지 않게)."""
    capsys.readouterr()
    assert check(fn) is None
    out = capsys.readouterr().out
    return "✗" not in out and out.rstrip().endswith("모두 통과")


def test_part1_exercise_solutions(capsys):
    import practice_part1 as p1

    # 고친 함수(모듈 끝의 풀이)는 확인 함수를 통과합니다
    assert passes(p1.check_softmax, p1.my_softmax, capsys) and passes(p1.check_attention, p1.my_attention, capsys)
    raw, scaled = zip(*(p1.solution_3[d] for d in (4, 64, 512)))
    assert raw[0] < raw[1] < raw[2] and raw[2] > 0.95  # 나누지 않으면 d_k 와 함께 1 에 다가감
    assert max(scaled) - min(scaled) < 0.07 and max(scaled) < 0.4  # 나누면 d_k 와 상관없이 비슷
    assert p1.raw.shape == (1000, 10)  # 연습 3 의 글: "(1000, 10)"


def test_part2_exercise_solutions(capsys):
    import practice_part2 as p2

    np = p2.np
    assert passes(p2.check_masked_attention, p2.masked_attention, capsys)
    assert passes(p2.check_entropy, p2.row_entropy, capsys)
    assert p2.same_pairs and p2.w_shuffled[p2.i, p2.j] == pytest.approx(p2.weights[p2.cat, p2.sat])
    assert p2.row_h.shape == (6,) and np.all(p2.row_h < np.log(6))
    assert p2.weights.max() < 0.5  # 파트 2 그림의 대체 텍스트: "어느 행에서도 한 칸이 절반을 넘지 않고"


def test_part3_exercise_solutions(capsys):
    import practice_part3 as p3

    assert passes(p3.check_heads_attention, p3.heads_attention, capsys)
    # 연습 2: 헤드 자리를 맞바꾸면 W_O 의 행도 함께 바꿀 때만 출력이 그대로입니다 (헤드 번호에는 뜻이 없음)
    assert p3.solution_2 == {False: False, True: True}
    np.testing.assert_allclose(p3.w_swapped[0], p3.weights[1])
    np.testing.assert_allclose(p3.w_swapped[1], p3.weights[0])
    # 연습 3: scale = 1 은 위의 행렬 그대로라 위에서 잰 거리와 같고(이슈 33: 0.437 과 0.460 이 어긋나던 것),
    # 작게 만들면 헤드가 구별되지 않습니다
    assert p3.solution_3[1.0] == p3.mean_pairwise_js(p3.weights) > 0.3 and p3.solution_3[0.16] < 0.03
    assert list(p3.np.flatnonzero(p3.changed_before)) == list(range(16, 24))
    assert p3.changed_after.all()


def test_part1_learner_softmax_matches_the_core():
    """파트 1 의 세 줄짜리 소프트맥스 = 코어의 softmax (검사와 dtype 규칙을 뺀 같은 계산)."""
    import practice_part1 as p1
    from attention import scaled_dot_product_attention, softmax

    x = np.random.default_rng(3).standard_normal((4, 5, 7)) * 20
    np.testing.assert_allclose(p1.plain_softmax(x), softmax(x, axis=-1), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(p1.plain_softmax(np.array([1000.0, 999.0])), [0.7310585786, 0.2689414214])
    out, w = scaled_dot_product_attention(p1.Q, p1.K, p1.V)
    np.testing.assert_allclose(p1.weights, w, rtol=1e-12)
    np.testing.assert_allclose(p1.output, out, rtol=1e-12)


def test_part2_and_part3_learner_functions_match_the_core():
    """파트 2·3 이 직접 짠 어텐션, 헤드 나누기·잇기, 멀티헤드 = 코어의 함수들 (마스크, 무작위 모양 포함)."""
    import practice_part2 as p2
    import practice_part3 as p3
    from attention import causal_mask, merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads

    rng = np.random.default_rng(11)
    for shape_q, shape_k in [((5, 8), (7, 8)), ((3, 5, 8), (3, 5, 8)), ((2, 3, 4, 6), (2, 3, 9, 6))]:
        Q, K = rng.standard_normal(shape_q), rng.standard_normal(shape_k)
        V = rng.standard_normal(shape_k[:-1] + (3,))
        for got, want in zip(p2.plain_attention(Q, K, V), scaled_dot_product_attention(Q, K, V)):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
        if shape_q[:-1] == shape_k[:-1]:
            for got, want in zip(p3.plain_attention(Q, K, V), scaled_dot_product_attention(Q, K, V)):
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    Q, K, V = (rng.standard_normal((6, 4)) for _ in range(3))
    for got, want in zip(
        p2.plain_attention(Q, K, V, causal_mask(6)), scaled_dot_product_attention(Q, K, V, causal_mask(6))
    ):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    x = rng.standard_normal((6, 64))
    np.testing.assert_array_equal(p3.to_heads(x, 8), split_heads(x, 8))
    np.testing.assert_array_equal(p3.from_heads(p3.to_heads(x, 8)), x)
    np.testing.assert_array_equal(p3.from_heads(split_heads(x, 8)), merge_heads(split_heads(x, 8)))
    out, w = multi_head_attention(p3.X, p3.X, p3.params, 8)
    np.testing.assert_allclose(p3.output, out, rtol=1e-10)
    np.testing.assert_allclose(p3.weights, w, rtol=1e-10)


@pytest.mark.reads(
    "snippets/notebooks/part1_numpy_attention.md",
    "snippets/notebooks/part2_heatmap.md",
    "snippets/notebooks/part3_multi_head.md",
)
def test_parts_2_and_3_put_the_lesson_first():
    """issue 22: 첫 결과가 나오기 전에 배우는 것이 아닌 코드(예제 입력, 그림 도우미)는 30줄 이하이고,
    코어(attention.py)는 노트북에 들어가지 않습니다. 파트 1 은 세 줄짜리 소프트맥스로 시작합니다."""
    lesson = {
        "part2_heatmap": {"practice_part2.py:attention", "practice_part2.py:tokens"},
        "part3_multi_head": {"practice_part3.py:attention", "practice_part3.py:split", "practice_part3.py:heads"},
    }
    for name, lesson_sections in lesson.items():
        src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
        includes = re.findall(r'^--8<-- "([^"]+)"', src, flags=re.M)
        assert not [i for i in includes if i.startswith("attention.py")], f"{name}: 코어를 통째로 넣지 않습니다"
        other = 0
        for section in includes:
            code = expander()(f'--8<-- "{section}"')
            if section not in lesson_sections:
                other += len([line for line in code.splitlines() if line.strip()])
            if "print(" in code:  # 첫 결과
                break
        assert other <= 30, f"{name}: 첫 결과 앞에 배우는 것이 아닌 코드가 {other}줄"
    part1 = (SNIPPETS / "notebooks" / "part1_numpy_attention.md").read_text(encoding="utf-8")
    first = re.search(r'^--8<-- "([^"]+)"', part1, flags=re.M).group(1)
    assert first == "practice_part1.py:softmax"
    body = expander()('--8<-- "practice_part1.py:softmax"').split("def plain_softmax")[1].split("\n\n")[0]
    assert len([line for line in body.splitlines()[1:] if line.strip() and not line.strip().startswith('"""')]) == 2


def test_part4_learner_code_matches_the_core(capsys):
    """파트 4: 직접 짠 소프트맥스와 온라인 소프트맥스가 코어와 같고, 확인 함수를 통과합니다."""
    import practice_part4 as p4
    from attention import softmax as core_softmax

    np = p4.np
    x = np.random.default_rng(5).standard_normal(300) * 10
    np.testing.assert_allclose(p4.plain_softmax(x), core_softmax(x), rtol=1e-13, atol=1e-16)
    for block in (1, 7, 300, 1000):
        np.testing.assert_allclose(p4.online_softmax(x, block), core_softmax(x), rtol=1e-12, atol=1e-16)
    assert passes(p4.check_online, p4.online_softmax, capsys)
    assert passes(p4.check_merge, p4.merge, capsys) and passes(p4.check_attention_row, p4.online_attention_row, capsys)


def exercise_space(module):
    """연습 셀을 노트북처럼 차례로 실행할 이름공간: 모듈의 이름들(앞 셀들이 만든 것)에서 연습과 풀이가 만든 것을 뺀 것."""
    return dict(vars(module))


# 파트마다 연습 셀의 확인 함수 호출과, 처음 코드 그대로일 때 그 확인 함수가 짚는 실수
STARTS_WRONG = {
    "practice_part1": [
        ("exercise_1", "check_softmax", "my_softmax", ["쿼리 축(axis=0)", "최댓값을 빼지 않아"]),
        ("exercise_2", "check_attention", "my_attention", ["√d_k 대신 d_k 로 나눴습니다"]),
    ],
    "practice_part2": [
        ("exercise_1", "check_masked_attention", "masked_attention", ["소프트맥스를 한 뒤에 가렸습니다"]),
        ("exercise_3", "check_entropy", "row_entropy", ["0 × ln 0"]),
    ],
    "practice_part3": [("exercise_1", "check_heads_attention", "heads_attention", ["Kh.T 는 모든 축을 뒤집습니다"])],
    "practice_part4": [
        ("exercise_1", "check_merge", "merge", ["두 l 을 그대로 더했습니다"]),
        ("exercise_2", "check_attention_row", "online_attention_row", ["acc 를 새 최댓값에"]),
    ],
    "practice_part5": [
        ("exercise_1", "check_softmax_backward", "softmax_backward", ["식의 − P_j 부분을 빠뜨렸습니다"]),
        ("exercise_2", "check", "attention_backward", ["dS 를 √d_k 로 나누지 않았습니다"]),
    ],
}


@pytest.mark.parametrize("module_name", STARTS_WRONG)
def test_exercise_cells_start_wrong_and_the_checker_names_the_mistake(module_name, capsys):
    """연습 셀은 일부러 틀린 코드로 시작하고, 그 셀이 부르는 확인 함수가 그 실수를 짚습니다 (풀이는 통과: 위의 테스트)."""
    import importlib

    module = importlib.import_module(module_name)
    src = snippet_path(module_name).read_text(encoding="utf-8")
    for section, check, fn, messages in STARTS_WRONG[module_name]:
        code = src.split(f"# --8<-- [start:{section}]")[1].split(f"# --8<-- [end:{section}]")[0]
        assert re.search(rf"^{check}\({fn}\)$", code, flags=re.M), f"{section} 셀이 {check}({fn}) 를 부르지 않습니다"
        space = exercise_space(module)
        capsys.readouterr()
        exec(code, space)
        out = capsys.readouterr().out
        assert "✗" in out and out.rstrip().endswith("다시 살펴보세요"), (section, out)
        for message in messages:
            assert message in out, (section, message, out)
        assert not passes(space[check], space[fn], capsys)


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_notebook_page_is_executed_and_lean(built_site, name):
    site, _ = built_site
    page = site / "practice" / name / "index.html"
    html = page.read_text(encoding="utf-8")
    # 실행 결과의 토큰은 줄에서 끊기지 않게 <span class="glue"> 로 묶여 있습니다 (sitebuild/glue.py): 그 태그만 벗겨 봅니다
    unglued = re.sub(r'<span class="glue">([^<]*)</span>', r"\1", html)
    for line in EXPECTED[name]:
        assert line.replace(">", "&gt;").replace("<", "&lt;") in unglued or line in unglued, line
    assert f'href="{name}.ipynb"' in html and "download" in html
    assert (page.parent / f"{name}.ipynb").is_file()
    assert "jupyter-wrapper" not in html and "data:image/png;base64" not in html
    assert len(re.findall(r"<style", html)) == 0
    assert "cm-s-jupyter" not in html
    # 마크다운 셀이 다른 페이지처럼 그려집니다: 인용문은 <blockquote>, "> " 가 글자로 남지 않습니다
    assert not re.search(r"<p>&gt; |\n&gt; ", html), "인용 표시 '> ' 가 글자로 남았습니다"
    if name == "part2_heatmap":
        assert "<blockquote>" in html
    # 내려받은 노트북은 머리말 셀 없이 제목으로 시작하고, 페이지 설명은 노트북 메타데이터에 있습니다
    nb = json.loads((page.parent / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert nb["cells"][0]["cell_type"] == "markdown" and "".join(nb["cells"][0]["source"]).startswith("# 파트")
    assert "description" not in "".join(nb["cells"][0]["source"])
    assert nb["metadata"]["attention_site"]["description"] in html
    # 한글 제목의 앵커가 한글 그대로입니다 (markdown_cell_processor: mkdocs)
    assert re.search(r'<h2 id="[^"]*[가-힣][^"]*"', html)
    images = sum(p.stat().st_size for p in page.parent.glob("*.png"))
    assert len(html.encode()) + images < 400_000, "노트북 페이지(HTML + 그림)가 너무 무겁습니다"


# ---------------------------------------------------------------- 이슈 29: 첫 그림까지의 코드, 대체 텍스트의 띄어쓰기

FIRST_FIGURE_LINES = 80  # 첫 그림이 나올 때까지 읽는 코드 줄 (그림 셀까지, 빈 줄 포함)


def code_before_first_figure(notebook_text):
    """첫 그림 셀까지(그 셀 포함) 코드 셀의 줄 수. 그림 셀이 없으면 None."""
    lines = 0
    for cell in json.loads(notebook_text)["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines += len("".join(cell["source"]).splitlines())
        if cell.get("metadata", {}).get(notebooks.SITE_KEY, {}).get("figure"):
            return lines
    return None


@pytest.mark.reads("snippets/notebooks/*.md")
def test_grader_answers_and_solutions_are_folded():
    """채점 도구와 확인 함수(흔한 실수와 그 설명이 든 코드)와 풀이는 코드째, 연습 문제는 출력(확인 함수가 짚은 실수)이
    페이지에서 접혀 있습니다 (issue 41: 휴대전화에서 183줄 채점 도구가 3,500 px, 출력이 답을 알려 줌). 내려받은 노트북에서도
    코드를 접는 셀은 jupyter.source_hidden 입니다. 새 연습 문제나 풀이를 더하고 접기를 잊으면 여기서 깨집니다."""
    for name, text in generated().items():
        src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
        sections = re.findall(r'^```python[^\n]*\n--8<-- "([^"]+)"\n```', src, flags=re.M)
        cells = [c for c in json.loads(text)["cells"] if c["cell_type"] == "code"]
        assert len(sections) == len(cells)
        for section, cell in zip(sections, cells, strict=True):
            part = section.split(":")[-1]
            site = cell["metadata"].get(notebooks.SITE_KEY, {})
            hidden = cell["metadata"].get("jupyter", {}).get("source_hidden", False)
            whole = (
                section == "practice_checks.py:checker" or part in ("checks", "check") or part.startswith("solution")
            )
            assert bool(site.get("fold")) == whole == hidden, (name, section, cell["metadata"])
            assert bool(site.get("fold_output")) == part.startswith("exercise"), (name, section, site)


def test_the_first_figure_comes_within_80_code_lines():
    """파트 2·3 은 그림이 나오기 전에 준비 코드(예제 입력, 한글 글꼴 도우미)가 길어, 파트 3 은 그림 셀까지 89줄이었습니다
    (이슈 29; 지난 검토의 상한 80줄). 헤드 8개의 가중치를 먼저 그리고, 잇고 W_O 를 곱하는 단계는 그림 뒤로 옮겼습니다."""
    counts = {name: code_before_first_figure(text) for name, text in generated().items()}
    with_figures = {name: n for name, n in counts.items() if n is not None}
    assert set(with_figures) == {"part2_heatmap", "part3_multi_head"}, counts
    assert max(with_figures.values()) <= FIRST_FIGURE_LINES, with_figures


def test_counting_code_before_the_first_figure_sees_long_setups():
    """대조군: 그림 셀 앞에 100줄을 더하면 상한을 넘는다고 셉니다 (세는 방법이 그림 셀을 찾는지)."""
    nb = json.loads(generated()["part3_multi_head"])
    padding = {"cell_type": "code", "source": ["x = 1\n"] * 99 + ["x = 1"], "metadata": {}}
    nb["cells"].insert(1, padding)
    assert code_before_first_figure(json.dumps(nb)) > FIRST_FIGURE_LINES + 100 - 20


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_figure_alt_text_spacing(name):
    """대체 텍스트도 본문처럼 씁니다: 수와 단위 명사("8개"), 영어 낱말과 조사("mat에")는 붙여 씁니다 ("8 개", "mat 에" 였습니다)."""
    src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    for alt in re.findall(r'\balt="([^"]*)"', src):
        assert not re.search(r"\d (?:개|칸|행|열|층)(?![가-힣])", alt), alt
        assert not re.search(r"[A-Za-z] (?:에|의|을|를|이|가|은|는|와|과|로|으로)(?![가-힣])", alt), alt


# ---------------------------------------------------------------- 이슈 29: 노트북 함수의 입력

# 배우는 사람이 짜는 함수는 검사하지 않는 대신, 노트북이 무엇을 받는지 말합니다.
LEARNER_FUNCTIONS = {
    "part1_numpy_attention": ["plain_softmax"],
    "part2_heatmap": ["plain_attention"],
    "part3_multi_head": ["plain_attention", "to_heads", "from_heads", "plain_multi_head"],
    "part4_online_softmax": [],
    "part5_attention_backward": ["softmax_backward", "attention_backward"],
}


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_notebooks_say_what_the_learners_functions_accept(name):
    src = (SNIPPETS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    paragraphs = src.split("\n\n")
    assert "입력은 검사하지 않" in src
    for fn in LEARNER_FUNCTIONS[name]:
        assert any(f"`{fn}`" in p and "받" in p for p in paragraphs), (
            f"{name}: {fn} 이 무엇을 받는지 적혀 있지 않습니다"
        )
    if name == "part4_online_softmax":
        assert "1차원 실수 배열" in src and "`block`은 1 이상의 정수" in src


def notebook_probes():
    """노트북에 들어가는 함수에 넣어 본 잘못된 입력: (이름, 사이트 것인가, 부르기, 오류 종류, 인자 이름, 그 밖의 글자…).

    사이트 것 (확인 함수 check·check_merge, 헤드 비교 js_distance·mean_pairwise_js) 은 분명한 오류여야 하고,
    배우는 사람의 함수 (plain_*, to_heads, online_softmax …) 는 검사하지 않습니다 (노트북이 무엇을 받는지 말합니다)."""
    import head_stats
    import practice_part1 as p1
    import practice_part2 as p2
    import practice_part3 as p3
    import practice_part4 as p4
    import practice_part5 as p5

    uniform, one_hot = np.full((2, 3), 1 / 3), np.eye(3)[:2]
    return [
        ("check_online 함수 아님", True, lambda: p4.check_online(5), TypeError, "fn=5"),
        ("check_softmax 함수 아님", True, lambda: p1.check_softmax(None), TypeError, "fn=None"),
        ("check_heads_attention 함수 아님", True, lambda: p3.check_heads_attention("f"), TypeError, "fn='f'"),
        ("check_merge 함수 아님", True, lambda: p4.check_merge("merge"), TypeError, "merge='merge'"),
        (
            "js 모양",
            True,
            lambda: head_stats.js_distance(uniform, np.full((2, 4), 0.25)),
            ValueError,
            "p.shape=(2, 3)",
            "q.shape=(2, 4)",
        ),
        (
            "js 음수",
            True,
            lambda: head_stats.js_distance([[1.5, -0.5]], [[0.5, 0.5]]),
            ValueError,
            "p",
            "p.shape=(1, 2)",
        ),
        (
            "js NaN",
            True,
            lambda: head_stats.js_distance(uniform, np.where(one_hot > 0, np.nan, one_hot)),
            ValueError,
            "q",
            "q.shape=(2, 3)",
        ),
        ("js 복소수", True, lambda: head_stats.js_distance(uniform + 0j, uniform), TypeError, "p", "complex128"),
        ("js 합이 1 아님", True, lambda: head_stats.js_distance(uniform * 2, uniform), ValueError, "p", "합이 1"),
        ("js 0차원", True, lambda: head_stats.js_distance(1.0, 1.0), ValueError, "p", "p.shape=()"),
        ("js 길이가 다른 행", True, lambda: head_stats.js_distance([[1.0], [0.5, 0.5]], uniform), ValueError, "p"),
        (
            "mean_js 리스트 2차원",
            True,
            lambda: head_stats.mean_pairwise_js(uniform.tolist()),
            ValueError,
            "w.shape=(2, 3)",
        ),
        (
            "mean_js 헤드 하나",
            True,
            lambda: head_stats.mean_pairwise_js(uniform[None]),
            ValueError,
            "w.shape=(1, 2, 3)",
        ),
        ("mean_js None", True, lambda: head_stats.mean_pairwise_js(None), TypeError, "w", "object"),
        ("plain_softmax 리스트", False, lambda: p1.plain_softmax([1.0, 2.0]), TypeError, "scores"),
        ("plain_softmax NaN", False, lambda: p1.plain_softmax(np.array([1.0, np.nan])), ValueError, "scores"),
        (
            "plain_attention 모양",
            False,
            lambda: p2.plain_attention(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4))),
            ValueError,
            "Q",
        ),
        (
            "plain_attention 모두 가림",
            False,
            lambda: p2.plain_attention(np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3)), np.zeros((2, 2), bool)),
            ValueError,
            "mask",
        ),
        ("to_heads 나누어떨어지지 않음", False, lambda: p3.to_heads(np.ones((6, 64)), 3), ValueError, "h"),
        ("from_heads 2차원", False, lambda: p3.from_heads(np.ones((6, 64))), ValueError, "x"),
        ("online block 0", False, lambda: p4.online_softmax(np.ones(3), 0), ValueError, "block"),
        ("part5 check 함수 아님", True, lambda: p5.check("dQ"), TypeError, "backward='dQ'"),
    ]


def test_site_functions_in_notebooks_name_the_bad_argument():
    from test_bad_inputs import named_error

    for label, site, call, exc, name, *details in notebook_probes():
        if site:
            named_error(call, exc, name, *details)


def test_checkers_report_a_wrong_answer_instead_of_crashing(capsys):
    """확인 함수는 배우는 사람의 함수가 틀린 모양을 돌려주거나 오류를 내도 numpy 의 날것 오류 대신 ✗ 와 까닭을 찍습니다."""
    import practice_part4 as p4

    p4.check_online(lambda x, block: x[:1])
    assert "블록 1: 모양이 (1,) 입니다 ((8,) 이어야 합니다)" in capsys.readouterr().out
    p4.check_merge(lambda a, b: 3.0)
    assert "m, l 을(를) 튜플로 돌려줘야 합니다 (지금은 float)" in capsys.readouterr().out
    import practice_part5 as p5

    before = p5.Q.copy(), p5.K.copy(), p5.V.copy(), p5.G.copy()
    # 파트 5: 두 기울기만 돌려주거나 dQ 를 전치해 돌려주면 ✗ 와 무엇이 다른지 찍고, 본문의 Q, K, V, G 는 그대로입니다
    p5.check(lambda dO, Q, K, V, P: (Q, K))
    out = capsys.readouterr().out
    assert "dQ, dK, dV, 값 3개를 돌려줘야 합니다 (지금은 2개)" in out
    assert out.rstrip().endswith("다시 살펴보세요")
    p5.check(lambda dO, Q, K, V, P: (Q.T, K, V))
    assert "dQ: 모양이 (8, 4) 입니다 ((4, 8) 이어야 합니다)" in capsys.readouterr().out
    p5.check(lambda *args: 1 / 0)
    out = capsys.readouterr().out
    assert "오류가 났습니다 (ZeroDivisionError)" in out and "Traceback" not in out
    for kept, now in zip(before, (p5.Q, p5.K, p5.V, p5.G)):
        np.testing.assert_array_equal(kept, now)


def shown_values(notebook_text):
    """노트북을 커널처럼 셀 차례로 한 이름공간에서 돌리고, 셀의 마지막 줄이 식이면 그 값(Jupyter 가 셀 아래 찍는 것)."""
    import ast
    import contextlib
    import io

    import matplotlib

    matplotlib.use("Agg")
    space, shown = {"__name__": "__main__"}, []
    with contextlib.redirect_stdout(io.StringIO()):
        for i, code in enumerate(code_cells(notebook_text)):
            tree = ast.parse(code)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, f"<셀 {i}>", "exec"), space)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), f"<셀 {i}>", "eval"), space)
                if value is not None:
                    shown.append((i, code.splitlines()[-1], repr(value)))
    return shown


@pytest.mark.reads("snippets/notebooks/*.md")
@pytest.mark.parametrize("name", NAMES)
def test_no_cell_shows_a_stray_value(name):
    """issue 39: 연습 셀의 끝 줄 check_…(fn) 이 False 를 돌려줘 노트북이 ✗ 줄들 아래 False 를 찍었습니다.
    셀의 마지막 식은 None 이어야 합니다 (그림 셀의 plt.show() 처럼)."""
    import matplotlib.pyplot as plt

    try:
        assert shown_values(generated()[name]) == []
    finally:
        plt.close("all")


def test_part5_learner_backward_matches_the_sites_backward_and_the_exercises_start_wrong(capsys):
    """파트 5: 직접 짠 역전파(풀이) = 9장 모델의 attention_backward (헤드 하나, 마스크 없이 같은 식) = 중앙 차분.
    확인 함수는 틀린 역전파를 잡아내고, 연습 셀 그대로의 함수는 틀리고 풀이는 맞습니다."""
    import practice_part5 as p5

    np = p5.np
    rng = np.random.default_rng(8)
    Q, K, V, dO = (
        rng.standard_normal((5, 8)),
        rng.standard_normal((7, 8)),
        rng.standard_normal((7, 3)),
        rng.standard_normal((5, 3)),
    )
    O, P = p5.attention_forward(Q, K, V)
    from attention import scaled_dot_product_attention

    out, weights = scaled_dot_product_attention(Q, K, V)
    np.testing.assert_allclose(O, out, rtol=1e-12)
    np.testing.assert_allclose(P, weights, rtol=1e-12)
    dQ, dK, dV = p5.attention_backward(dO, Q, K, V, P)
    # 9장 모델의 역전파가 쓰는 식 그대로 (점수를 1/√d_k 배, 가중치의 기울기 → 점수의 기울기)
    dP = dO @ V.T
    dS = P * (dP - (dP * P).sum(-1, keepdims=True)) / np.sqrt(8)
    np.testing.assert_allclose(dQ, dS @ K, rtol=1e-12)
    np.testing.assert_allclose(dK, dS.T @ Q, rtol=1e-12)
    np.testing.assert_allclose(dV, P.T @ dO, rtol=1e-12)
    assert passes(p5.check, p5.attention_backward, capsys)
    assert passes(p5.check_softmax_backward, p5.softmax_backward, capsys)
    src = snippet_path("practice_part5").read_text(encoding="utf-8")
    space = exercise_space(p5)
    for name in ("exercise_1", "exercise_2"):
        exec(src.split(f"# --8<-- [start:{name}]")[1].split(f"# --8<-- [end:{name}]")[0], space)
    assert not passes(p5.check_softmax_backward, space["softmax_backward"], capsys)
    assert not passes(p5.check, space["attention_backward"], capsys)


@pytest.mark.reads("snippets/notebooks/part5_attention_backward.md")
def test_part5_gives_the_chain_rule_and_the_matrix_product_rule_beside_the_code():
    """issue 39 §5: 연습 1 은 야코비안에서 dS 로 가는 연쇄 법칙을, 연습 2 는 행렬 곱의 규칙 dA = dY Bᵀ 를 쓰면서 주지
    않았습니다. 두 식은 그것을 쓰는 코드 셀보다 앞의 글에 있습니다."""
    src = (SNIPPETS / "notebooks" / "part5_attention_backward.md").read_text(encoding="utf-8")
    chain = src.index(r"$$dS_j = \sum_i dP_i\,\frac{\partial P_i}{\partial S_j}$$")
    result = src.index(r"= P_j\Big(dP_j - \sum_i dP_i\,P_i\Big)$$")
    product = src.index(r"$$dA = dY\,B^{\top}, \qquad dB = A^{\top}\,dY$$")
    assert chain < result < src.index('--8<-- "practice_part5.py:exercise_1"')
    assert product < src.index('--8<-- "practice_part5.py:exercise_2"')
    assert "연쇄 법칙(chain rule)" in src
