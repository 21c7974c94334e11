"""make quick: 바뀐 파일에서 그것을 볼 수 있는 테스트를, 코드가 밝힌 것으로 고릅니다 (테스트 소스를 글자로 짐작하지 않습니다).

테스트가 무엇을 보는지는 두 가지가 밝힙니다.

- import: 테스트 모듈이 (함수 안에서라도) import 하는 저장소의 모듈과, 그것들이 import 하는 것 전부 (import 닫힘).
  모듈은 pyproject.toml 의 pythonpath 에서 pytest 와 같은 길(importlib 의 PathFinder)로 찾습니다: 스니펫이 어느 하위
  폴더에 있든 import 경로에 있으면 찾습니다. 닫힘에 바뀐 파일이 들면 그 테스트 파일은 통째로 돕니다.
- `reads` 표시: import 가 아닌 길로 읽는 파일. `pytest.mark.reads("docs/why_scale.md", "docs/*.md", "*.py", "*")`
  처럼 저장소 기준 경로나 fnmatch 패턴을 적습니다 (`*` 는 `/` 도 넘습니다: "docs/*.md" 는 하위 폴더의 페이지도).
  모듈(pytestmark), 클래스, 함수에 붙입니다. 인자는 글자 그대로여야 합니다 (모으기 전에 AST 로 읽으므로).

"바뀐 것"(touched)은 바뀐 파일과, 바뀐 스니펫이 닿는 것입니다: 그것을 (간접으로라도) import 하는 스니펫, 그 스니펫들을
include(`--8<--`)하는 페이지와 노트북 원고, 그 그림(plotting 이면 모든 그림).

고르기는 두 걸음입니다.
1. 모으기 전 (tools/check.py): 후보 테스트 파일 = import 닫힘이 바뀐 파일에 닿는 파일(통째로) + reads 패턴이 바뀐 것에
   맞는 파일. 고친 테스트 파일과, 스냅숏(tests/__snapshots__/<모듈>/)이 바뀐 테스트 파일도 통째로.
2. 모은 뒤 (이 플러그인, --selection): 통째가 아닌 파일에서는 제 reads 표시(모듈·클래스·함수의 것을 더한)가 바뀐 것에
   맞는 테스트만. 맞은 것이 모두 페이지·노트북·스니펫이고 매개변수가 (페이지·노트북·스니펫 파일·그림) 이름이면, 바뀐
   이름일 때만 남깁니다. 매개변수가 그런 이름이 아닌 테스트("모든 페이지가 nav 에 있다")는 남깁니다.

빌드 코드(overrides/), conftest 와 그것이 import 하는 것, 테스트 도구(tests/support/), 설정 → make check 전부.
이 고르기가 빠뜨리는 것이 없는지는 tests/test_quick.py 가 대표적인 수정마다 make check 전부와 견주어 확인합니다.
"""

import ast
import fnmatch
import re
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass, field
from importlib.machinery import PathFinder
from pathlib import Path, PurePosixPath

import pytest

from sitebuild import snippets  # FIGURE_HELPERS: 모든 그림이 기대는 스니펫

ROOT = Path(__file__).resolve().parent.parent.parent
# 고치면 make check 전부: 빌드 코드, 테스트의 토대, 모든 것의 설정 (conftest 가 import 하는 것은 Graph 가 더합니다)
FULL = (
    "overrides/",
    "tests/conftest.py",
    "tests/support/",
    "mkdocs.yml",
    "requirements.txt",
    "requirements.in",
    "pyproject.toml",
    "Makefile",
)
# pymdownx.snippets 의 include 줄: 페이지와 노트북 원고가 어느 스니펫 파일을 보여 주는지 (파일 이름 → 모듈 이름)
INCLUDE = re.compile(r'--8<--\s+"([^":]+)\.py(?::[^"]*)?"')
MARK = "reads"


def changed_files(root=ROOT):
    """HEAD 와 달라진 파일(지운 것 포함)과 추적하지 않는 파일: 저장소 기준 경로들."""

    def git(*args):
        out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout
        return [line for line in out.splitlines() if line]

    return sorted(
        set(git("diff", "--name-only", "--no-renames", "HEAD", "--"))
        | set(git("ls-files", "--others", "--exclude-standard"))
    )


def matches(pattern, path):
    return fnmatch.fnmatchcase(path, pattern)


def notebook_page(name):
    """노트북 원고 이름 → nav 의 문서 경로 (빌드가 snippets/notebooks/<이름>.md 로 practice/<이름>.ipynb 를 만듭니다)."""
    return f"practice/{name}.ipynb"


def pythonpath(root=ROOT):
    """pytest 의 import 경로 (pyproject.toml 의 pythonpath): 스니펫, 빌드 패키지, 테스트 도우미."""
    config = tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8"))
    return [str(Path(root) / d) for d in config["tool"]["pytest"]["ini_options"]["pythonpath"]]


def facts(rel, source):
    """파이썬 파일 하나에서 AST 로 읽는 것 (한 번 파싱): import 하는 이름들 ([점 이름, 상대 단계]), 모듈의 pytestmark 표시
    이름들, 파일의 모든 reads 패턴, 그림 함수(figure_*) 이름들. JSON 으로 남길 수 있는 값."""
    tree = ast.parse(source)
    imports, todo = [], [tree]
    while todo:  # import 는 문장이라서 문장(과 except·case 절) 안에만 있습니다 (sitebuild.snippets.imported_names 처럼)
        node = todo.pop()
        if isinstance(node, ast.Import):
            imports += [[a.name, 0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            imports += [[f"{module}.{a.name}".strip("."), node.level] for a in node.names]
            imports += [[module, node.level]] if module else []
        todo.extend(
            c for c in ast.iter_child_nodes(node) if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case))
        )
    marks, exprs, todo = set(), [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            exprs.append(node.value)
            marks |= {n.attr for n in ast.walk(node.value) if _is_mark(n)}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            exprs += node.decorator_list
            todo += node.body if isinstance(node, ast.ClassDef) else []
    reads = set()
    for call in (n for e in exprs for n in ast.walk(e)):
        if isinstance(call, ast.Call) and _is_mark(call.func) and call.func.attr == MARK:
            for arg in call.args:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise ValueError(
                        f"{rel}:{call.lineno}: reads 표시의 인자는 글자 그대로여야 합니다 (make quick 이 읽습니다)"
                    )
                reads.add(arg.value)
    figures = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("figure_")]
    return {"imports": imports, "marks": sorted(marks), "reads": sorted(reads), "figures": figures}


def _is_mark(node):
    """pytest.mark.<이름> 의 <이름> 자리 (ast.Attribute, 그 값이 `.mark`)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "mark"


class Imports:
    """저장소 파일 사이의 import: pytest 의 import 경로에서 모듈을 찾되 import 하지는 않습니다 (AST 와 PathFinder).
    파일마다 읽은 것(facts)은 공용 캐시(disk_cache)에 내용을 열쇠로 남깁니다: make quick 마다 파일 이백 개를 다시
    파싱하면(약 2초) 고르는 일이 테스트보다 길어집니다."""

    def __init__(self, root):
        import disk_cache

        self.root = Path(root)
        self.path = pythonpath(root)
        self.cache = disk_cache.Cache.for_code(
            self.root / ".cache" / "tests" / "facts", sys.version, sys.modules[__name__]
        )
        self._found, self._facts, self._edges, self._closure = {}, {}, {}, {}

    def facts(self, rel):
        """파일 rel 의 facts (없는 파일이나 파이썬이 아닌 것은 빈 값)."""
        if rel not in self._facts:
            path = self.root / rel
            if not (rel.endswith(".py") and path.is_file()):
                self._facts[rel] = {"imports": [], "marks": [], "reads": [], "figures": []}
            else:
                source = path.read_text(encoding="utf-8")
                key = self.cache.key(source)
                found = self.cache.get(rel, key)
                if found is None:
                    found = facts(rel, source)
                    self.cache.put(rel, key, found)
                self._facts[rel] = found
        return self._facts[rel]

    def find(self, dotted, path=None):
        """모듈 이름 → 저장소 기준 경로. 저장소 밖(표준 라이브러리, 설치한 패키지)이거나 없으면 "module:<이름>"."""
        key = (dotted, tuple(path or ()))
        if key not in self._found:
            spec, search = None, path or self.path
            for part in dotted.split("."):
                spec = PathFinder.find_spec(part, search) if search else None
                if spec is None:
                    break
                search = spec.submodule_search_locations
            origin = Path(spec.origin) if spec and spec.origin and spec.has_location else None
            inside = origin is not None and origin.is_relative_to(self.root)
            self._found[key] = origin.relative_to(self.root).as_posix() if inside else f"module:{dotted}"
        return self._found[key]

    def edges(self, rel):
        """파일 rel 이 import 하는 것들: 패키지의 __init__ 과 `from 패키지 import 모듈` 의 모듈까지."""
        if rel not in self._edges:
            out = set()
            for name, level in self.facts(rel)["imports"]:
                base = [str((self.root / rel).parents[level - 1])] if level else None
                parts = name.split(".")
                out.update(self.find(".".join(parts[: i + 1]), base) for i in range(len(parts)))
            self._edges[rel] = out
        return self._edges[rel]

    def closure(self, rel):
        """rel 과, 그것이 (간접으로라도) import 하는 것 전부."""
        if rel not in self._closure:
            seen, todo = {rel}, [rel]
            while todo:
                for nxt in self.edges(todo.pop()) - seen:
                    seen.add(nxt)
                    todo.append(nxt)
            self._closure[rel] = seen
        return self._closure[rel]


@dataclass
class TestFile:
    path: str  # tests/test_x.py
    imports: set  # import 닫힘 (저장소 기준 경로와 "module:<이름>")
    reads: set  # 파일 안의 모든 reads 표시의 패턴 (모듈·클래스·함수)
    marks: set = field(default_factory=set)  # 모듈의 pytestmark 가 붙이는 표시 (browser, engine, model …)


@dataclass
class Graph:
    """저장소 파일들 사이의 관계 (import, include, 그림, 테스트가 밝힌 것). 파일을 읽기만 하고 import 하지 않습니다."""

    root: Path = ROOT
    imports: Imports = None
    snippets: dict = field(default_factory=dict)  # 스니펫 파일(저장소 기준 경로) → 모듈 이름
    pages: dict = field(default_factory=dict)  # 페이지("four_steps.md") → include 하는 스니펫 모듈들
    notebooks: dict = field(default_factory=dict)  # 노트북 원고 이름("part1_numpy_attention") → include 하는 모듈들
    figures: dict = field(default_factory=dict)  # 그림 이름 → 모듈
    tests: dict = field(default_factory=dict)  # "tests/test_x.py" → TestFile
    foundation: set = field(default_factory=set)  # conftest 의 import 닫힘 (pytest_plugins 포함): 고치면 전부

    @classmethod
    def read(cls, root=ROOT):
        root = Path(root)
        g = cls(root, Imports(root))
        for path in sorted((root / "snippets").rglob("*.py")):
            if "__pycache__" not in path.parts:
                g.snippets[path.relative_to(root).as_posix()] = path.stem
        docs, notebooks = root / "docs", root / "snippets" / "notebooks"
        g.pages = {p.relative_to(docs).as_posix(): _includes(p) for p in sorted(docs.rglob("*.md"))}
        g.notebooks = {p.stem: _includes(p) for p in sorted(notebooks.glob("*.md"))}
        for rel, module in g.snippets.items():
            for func in g.imports.facts(rel)["figures"]:  # sitebuild.snippets.discover 와 같은 이름: <모듈>-<이름>
                g.figures[f"{module}-{func.removeprefix('figure_')}"] = module
        plugins = [g.imports.find(name) for name in _plugins(ast.parse((root / "tests" / "conftest.py").read_bytes()))]
        g.foundation = set().union(*map(g.imports.closure, ["tests/conftest.py", *plugins]))
        for path in sorted((root / "tests").glob("test_*.py")):
            rel = path.relative_to(root).as_posix()
            found = g.imports.facts(rel)
            g.tests[rel] = TestFile(rel, g.imports.closure(rel), set(found["reads"]), set(found["marks"]))
        return g

    def importers(self, paths):
        """스니펫 파일 paths 와, 그것을 (간접으로라도) import 하는 스니펫 파일 전부 (지운 파일은 모듈 이름으로)."""
        names = set(paths) | {f"module:{PurePosixPath(p).stem}" for p in paths}
        return {s for s in self.snippets if self.imports.closure(s) & names} | set(paths)

    def universe(self):
        """테스트의 매개변수로 고를 수 있는 이름들: 페이지, 노트북 원고(와 nav 의 이름), 스니펫 파일, 그림."""
        notebooks = set(self.notebooks) | {notebook_page(n) for n in self.notebooks}
        return set(self.pages) | notebooks | {f"{m}.py" for m in self.snippets.values()} | set(self.figures)


def _includes(path):
    """페이지나 노트북 원고가 include 하는 스니펫 모듈 이름들."""
    return {PurePosixPath(m).name for m in INCLUDE.findall(path.read_text(encoding="utf-8"))}


def _plugins(tree):
    """모듈 수준의 `pytest_plugins = [...]` 에 적힌 모듈 이름들 (pytest 가 import 합니다)."""
    return [
        n.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytest_plugins" for t in node.targets)
        for n in ast.walk(node.value)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


@dataclass
class Selection:
    full: list = field(default_factory=list)  # make check 전부가 필요한 까닭들
    whole: dict = field(default_factory=dict)  # 통째로 도는 테스트 파일 → 까닭
    reads: dict = field(default_factory=dict)  # reads 표시로 고른 테스트 파일 → 맞은 패턴들
    touched: dict = field(default_factory=dict)  # 바뀐 것(저장소 기준 경로) → 매개변수로 고르는 이름 (없으면 None)
    subjects: dict = field(default_factory=dict)  # 고른 페이지·노트북·스니펫 파일·그림 → 까닭
    notes: dict = field(default_factory=dict)  # 바뀐 파일 → 그것이 닿는 곳 (사람이 읽는 한 줄)

    def files(self):
        return sorted(set(self.whole) | set(self.reads))

    def leave_out(self, graph, marks):
        """make check 가 모으지도 않는 파일(모듈 표시가 marks 에 드는 것)을 뺍니다."""
        for table in (self.whole, self.reads):
            for file in [f for f in table if f in graph.tests and graph.tests[f].marks & marks]:
                del table[file]

    def plan(self, universe):
        """pytest 플러그인(keep)이 읽는 JSON 값."""
        return {
            "whole": sorted(self.whole),
            "reads": sorted(self.reads),
            "touched": self.touched,
            "subjects": sorted(self.subjects),
            "universe": sorted(universe),
        }


def select(changed, graph):
    """바뀐 파일들(저장소 기준 경로) → Selection."""
    sel = Selection()
    for path in changed:
        p = PurePosixPath(path)
        if path.startswith(FULL) or path in graph.foundation:
            sel.full.append(path)
            sel.notes[path] = "빌드 코드·테스트의 토대·설정: make check 전부"
        elif path in graph.snippets or (p.parts[0] == "snippets" and p.suffix == ".py"):
            _snippet(sel, graph, path)
        elif p.parent.as_posix() == "snippets/notebooks" and p.suffix == ".md":
            _touch(sel, path, p.stem, f"노트북 {p.stem}")
            _touch(sel, path, notebook_page(p.stem), f"노트북 {p.stem}")
            sel.notes[path] = f"노트북 {p.stem}"
        elif p.parts[0] == "docs" and p.suffix == ".md":
            page = p.relative_to("docs").as_posix()
            _touch(sel, path, page, f"페이지 {page}")
            sel.notes[path] = f"페이지 {page}"
        elif path in graph.tests:
            sel.whole.setdefault(path, "고친 테스트 파일")
            sel.notes[path] = "테스트 파일 자신"
        elif len(p.parts) > 2 and p.parts[:2] == ("tests", "__snapshots__"):  # syrupy: 모듈마다 한 폴더
            module = f"tests/{p.parts[2]}.py"
            if module in graph.tests:
                sel.whole.setdefault(module, f"스냅숏 {p.name}")
            sel.notes[path] = f"{module} 의 스냅숏"
        else:
            sel.touched.setdefault(path, None)
            sel.notes[path] = "파일"
    if sel.full:
        return sel
    gone = {f"module:{PurePosixPath(p).stem}" for p in changed if p.endswith(".py") and not (graph.root / p).exists()}
    for test in graph.tests.values():
        if hit := test.imports & (set(changed) | gone) - {test.path}:
            sel.whole.setdefault(test.path, f"import: {', '.join(sorted(hit))}")
        hits = sorted({pat for pat in test.reads for t in sel.touched if matches(pat, t)})
        if hits and test.path not in sel.whole:
            sel.reads[test.path] = hits
    for path in changed:
        if sel.notes[path] == "파일":
            users = [t for t, pats in sel.reads.items() if any(matches(p, path) for p in pats if p != "*")]
            users += [t for t, why in sel.whole.items() if path in why]
            if not users and path.startswith("docs/"):
                sel.full.append(path)
                sel.notes[path] = "이 docs/ 파일을 읽는다고 밝힌 테스트가 없음: make check 전부"
            else:
                sel.notes[path] = f"이 파일을 import 하거나 읽는다고 밝힌 테스트 파일 {len(users)}개" + (
                    "" if users else " (린터만)"
                )
    return sel


def _touch(sel, path, subject, why):
    sel.touched.setdefault(path, subject)
    sel.subjects.setdefault(subject, why)


def _snippet(sel, graph, path):
    reach = graph.importers({path})
    module = PurePosixPath(path).stem
    why = f"스니펫 {module}"
    names = {graph.snippets.get(p, PurePosixPath(p).stem) for p in reach}
    for p in sorted(reach):
        _touch(sel, p, f"{PurePosixPath(p).stem}.py", why if p == path else f"{why} 를 import 하는 {p}")
    pages = sorted(page for page, used in graph.pages.items() if used & names)
    notebooks = sorted(nb for nb, used in graph.notebooks.items() if used & names)
    for page in pages:
        _touch(sel, f"docs/{page}", page, f"페이지 {page}")
    for nb in notebooks:
        _touch(sel, f"snippets/notebooks/{nb}.md", nb, f"노트북 {nb}")
        sel.subjects.setdefault(notebook_page(nb), f"노트북 {nb}")
    every = bool(names & set(snippets.FIGURE_HELPERS))  # 그리는 쪽이 늘 import 하는 plotting: 모든 그림
    drawn = sorted(name for name, m in graph.figures.items() if every or m in names)
    for name in drawn:
        sel.subjects.setdefault(name, "모든 그림이 쓰는 도우미" if every else f"{why} 의 그림")
    others = sorted(names - {module})
    sel.notes[path] = "; ".join(
        part
        for part in [
            why,
            f"이것을 import 하는 스니펫: {', '.join(others)}" if others else "",
            f"페이지: {', '.join(pages)}" if pages else "",
            f"노트북: {', '.join(notebooks)}" if notebooks else "",
            f"그림: {', '.join(drawn)}" if drawn else "",
        ]
        if part
    )


# --- pytest 쪽: 모은 테스트 가운데 고른 것만 남기기 ---------------------------------------------------


def names_of(value, root=ROOT):
    """매개변수 값이 가리킬 수 있는 이름들: 글자는 그대로, 경로는 이름·줄기·저장소 기준 경로."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Path):
        out = {value.name, value.stem}
        if value.is_absolute() and value.is_relative_to(root):
            out.add(value.relative_to(root).as_posix())
        return out
    if isinstance(value, (tuple, list, dict)):
        values = value.values() if isinstance(value, dict) else value
        return set().union(*(names_of(v, root) for v in values)) if values else set()
    return set()


def keep(file, patterns, names, plan):
    """테스트 하나를 남길지. patterns: 그 테스트의 reads 표시 패턴들 (None 이면 모름: 맞는 것으로 봅니다),
    names: 매개변수가 가리키는 이름들 (names_of). tools/check.py 도 지난 make check 에 적어 둔 값으로 부릅니다."""
    if file in plan["whole"]:
        return True
    if file not in plan["reads"]:
        return False
    touched = plan["touched"]
    hit = touched if patterns is None else [t for t in touched if any(matches(p, t) for p in patterns)]
    if not hit:
        return False
    if any(touched[t] is None for t in hit):  # 이름으로 고를 수 없는 파일(스크립트, 그림 파일 …)이 바뀜
        return True
    named = set(names) & set(plan["universe"])
    return not named or bool(named & set(plan["subjects"]))


def item_reads(item):
    return [p for mark in item.iter_markers(MARK) for p in mark.args]


def item_names(item):
    return names_of(getattr(getattr(item, "callspec", None), "params", {}))


# pytest 플러그인 (conftest 의 pytest_plugins 가 붙입니다) ---------------------------------------------------


def pytest_addoption(parser):
    group = parser.getgroup("make quick / make check (tools/check.py)")
    group.addoption("--selection", help="tools/check.py 가 쓴 고르기(JSON): 그 테스트만 남깁니다")
    group.addoption(
        "--record-durations", help="테스트마다 걸린 초, reads 표시와 매개변수의 이름을 이 JSON 파일에 씁니다"
    )


# 나중에 거릅니다 (-k 처럼): syrupy 는 이 훅에서 모은 테스트를 적어 두고, 모은 것이 모두 돌았으면 돌지 않은 스냅숏을
# "쓰지 않음" 으로 알려 실패시키고 --snapshot-update 로 지우라고 합니다. 먼저 거르면 고른 페이지 밖의 스냅숏 12개가 그렇게
# 보였습니다 (pluggy 는 나중에 등록된 conftest 의 훅을 먼저 부릅니다).
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    path = config.getoption("--selection")
    if not path:
        return
    import json

    plan = json.loads(Path(path).read_text(encoding="utf-8"))
    kept, dropped = [], []
    for item in items:
        rel = item.path.relative_to(config.rootpath).as_posix()
        (kept if keep(rel, item_reads(item), item_names(item), plan) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


_durations = {}


def pytest_runtest_logreport(report):
    entry = _durations.setdefault(report.nodeid, {"seconds": 0.0})
    entry["seconds"] += report.duration  # 준비(setup)·실행(call)·정리(teardown)를 더합니다


def pytest_collection_finish(session):
    """테스트마다 keep 이 보는 것(reads 패턴, 매개변수의 이름)을 적어 둡니다: make quick 이 고른 테스트만의 지난 시간을 더하게."""
    if not session.config.getoption("--record-durations"):
        return
    for item in session.items:
        entry = _durations.setdefault(item.nodeid, {"seconds": 0.0})
        entry.update(names=sorted(item_names(item)), reads=item_reads(item))


def pytest_sessionfinish(session):
    path = session.config.getoption("--record-durations")
    if path:
        import json

        Path(path).write_text(json.dumps(_durations, indent=1, sort_keys=True), encoding="utf-8")


# 밝히지 않은 읽기 잡기 -----------------------------------------------------------------------------------------------
# make quick 은 페이지(.md)를 고치면 그 페이지를 reads 표시로 밝힌 테스트만 고릅니다. 표시 없이 페이지를 읽는 테스트는
# 그 페이지를 고쳐도 make quick 에서 돌지 않고, 깨끗한 클론의 CI 에서야 실패합니다 (stop 44: 6장의 비유 문장을 고쳤는데
# 그 문장을 보는 test_multi_head 의 테스트에는 표시가 없었습니다). 그래서 테스트가 실행(call) 중에 여는 docs/, snippets/
# 아래의 파일(페이지, 노트북 원고, js, css, 데이터; .py 는 import 닫힘이 맡습니다)을 파이썬의 감사 훅(audit hook, "open"
# 사건)으로 모아, 그 테스트의 reads 표시에 맞지 않는 것이 있으면 실패시킵니다.
# 준비(setup) 중의 읽기는 모으지 않습니다: 모듈·세션 범위 픽스처는 처음 그것을 쓰는 테스트의 준비에서 한 번 돌기 때문입니다.
# 테스트를 돌리는 스레드의 읽기만 셉니다: 감사 훅은 프로세스 전체의 것이라, 뒤에서 도는 일(conftest 의 background, 예:
# 노트북 빌드)이 읽는 파일이 그때 돌던 아무 테스트에 붙습니다.
_opened = None  # 지금 실행 중인 테스트가 연 경로들 (실행 중이 아니면 None)
_thread = None  # 그 테스트를 돌리는 스레드


def _audit(event, args):
    if _opened is not None and event == "open" and threading.get_ident() == _thread:
        if isinstance(args[0], (str, Path)):
            _opened.add(str(args[0]))


WATCHED = ("docs/", "snippets/")  # make quick 이 이 아래의 파일 하나만 바뀐 것으로 고를 수 있는 곳


def undeclared(opened, patterns, root=ROOT):
    """opened 가운데 root 의 docs/, snippets/ 아래 파일(.py 밖)로서 patterns(reads 표시) 어느 것에도 맞지 않는 것의 저장소 기준 경로."""
    out = set()
    for path in opened:
        p = Path(path)
        # .py 는 보지 않습니다: import 도 파일을 여는데(io.open_code), 그 파일은 import 닫힘이 이미 고릅니다
        if p.suffix in (".py", ".pyc") or not p.is_absolute() or not p.is_relative_to(root):
            continue
        rel = p.relative_to(root).as_posix()
        if rel.startswith(WATCHED) and not any(matches(pat, rel) for pat in patterns):
            out.add(rel)
    return sorted(out)


def pytest_configure(config):
    sys.addaudithook(_audit)  # 지울 수 없는 훅이라 한 번만 답니다; 테스트 밖에서는 _opened 가 None 이라 일하지 않습니다


# make quick 과 make check 이 모으지도 않는 파일의 표시 (tools/check.py; browser 는 conftest 가 site 표시도 붙입니다):
# test_browser_model 처럼 모듈을 읽자마자 모델을 import 하는 파일을 모으는 데만 몇 초가 듭니다.
LEFT_OUT = frozenset({"site", "browser", "engine", "model"})
# make quick 이 고를 수 없는 테스트(LEFT_OUT 과 loop)는 읽기를 보지 않습니다: 그것들은 make test 에서 늘 모두 돕니다.
UNCHECKED = LEFT_OUT | {"loop"}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    global _opened, _thread
    if any(item.get_closest_marker(m) for m in UNCHECKED):
        return (yield)
    _opened, _thread = set(), threading.get_ident()
    try:
        result = yield
    finally:
        opened, _opened = _opened, None
    missing = undeclared(opened, item_reads(item))
    if missing:
        pytest.fail(
            f"이 테스트는 {missing} 를 읽지만 reads 표시에 없습니다: @pytest.mark.reads({', '.join(map(repr, missing))})"
            " 를 붙이세요 (없으면 make quick 이 그 파일을 고쳤을 때 이 테스트를 고르지 않습니다)",
            pytrace=False,
        )
    return result
