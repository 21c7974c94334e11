"""make quick: 바뀐 파일에서 그것을 볼 수 있는 테스트를 고릅니다. 빌드가 이미 아는 그래프를 그대로 씁니다.

- 스니펫 → 그것을 (간접으로라도) import 하는 스니펫들(sitebuild.snippets 의 import 닫힘) → 그중 하나라도 import 하는
  테스트, 그 스니펫들을 include 하는 페이지와 노트북(`--8<--`)의 테스트, 그 스니펫들의 그림(plotting 이면 모든 그림).
- 페이지(docs/*.md), 노트북 원고(snippets/notebooks/*.md) → 그 이름을 부르는 테스트와, 모든 페이지를 읽는 테스트 가운데
  그 페이지에 대한 것(매개변수가 그 페이지)과 페이지를 가리지 않는 것.
- 테스트 파일 → 그 파일. 테스트만 쓰는 도우미(tests/*.py) → 그것을 import 하는 테스트 파일 (conftest 가 쓰면 전부).
- 빌드 패키지(overrides/), conftest, 테스트 도구(tests/support/), 설정(mkdocs.yml, 잠금 파일, pyproject.toml,
  Makefile) → make check 전부.
- 그 밖의 파일 → 그 파일 이름을 글자로 부르는 테스트 (docs/ 안인데 부르는 테스트가 없으면 make check 전부).

테스트가 무엇을 보는지는 import 하지 않고 소스로, 테스트 함수마다 봅니다(TestFile): import 하는 스니펫, 글자로 적힌 파일
이름, 그리고 "모두 읽기"(nav_pages(), markdown_pages(), snippet_files(), SNIPPETS.glob(…), figures.discover(…), rglob(…)). 고른 함수의
테스트 가운데 매개변수가 페이지·노트북·스니펫 파일·그림 이름인 것은 고른 이름만 남깁니다 (keep). 매개변수가 그런 이름이 아닌
테스트는 남깁니다: "모든 페이지가 nav 에 있다" 처럼 어느 페이지를 고쳐도 깨질 수 있는 테스트입니다.

이 고르기가 빠뜨리는 것이 없는지는 tests/test_quick.py 가 대표적인 수정마다 make check 전부와 견주어 확인합니다.
"""

import ast
import hashlib
import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

# 그림 목록은 snippets.discover 로 (figures.discover 와 같은 것): figures 는 matplotlib 을 import 하므로 make quick 이
# 고르기만 하는 데 0.7초를 더 씁니다.
from sitebuild import snippets

ROOT = Path(__file__).resolve().parent.parent.parent
# 고치면 make check 전부: 빌드 코드, 테스트의 토대, 모든 것의 설정
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
INCLUDE = re.compile(r'--8<--\s+"([A-Za-z0-9_]+)\.py(?::[^"]*)?"')
# 테스트 파일이 "모두 읽는" 표시: 어느 것을 고쳐도 그 파일을 모읍니다 (매개변수로 고른 것만 남기고)
READS_ALL = {
    "pages": re.compile(r"\b(?:nav_pages|markdown_pages)\(|DOCS\)?\.r?glob\("),
    "notebooks": re.compile(r'"notebooks"\)\.r?glob\('),
    "snippets": re.compile(
        r"SNIPPETS\)?\.r?glob\(|\bsnippet_files\(|\b(?:snippets|figures)\.discover\(|\bsnippets\.modules\("
    ),
    "files": re.compile(r"\.rglob\("),
}


def changed_files(root=ROOT):
    """HEAD 와 달라진 파일(지운 것 포함)과 추적하지 않는 파일: 저장소 기준 경로들."""

    def git(*args):
        out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout
        return [line for line in out.splitlines() if line]

    return sorted(
        set(git("diff", "--name-only", "--no-renames", "HEAD", "--"))
        | set(git("ls-files", "--others", "--exclude-standard"))
    )


@dataclass
class TestFile:
    """테스트 파일 하나가 보는 것, 테스트 함수마다: 함수와, 그 함수가 부르는 모듈 수준의 이름(도우미 함수, 상수, 같은
    파일의 픽스처, parametrize 에 넘긴 목록)을 따라가며 모은 import 한 스니펫, 글자로 적은 이름, "모두 읽기". 모듈 수준의
    import 와, 어느 테스트도 이름으로 부르지 않는 모듈 수준의 것(conftest 가 돌리고 테스트는 열쇠 글자로 결과를 묻는
    BACKGROUND 같은)은 모든 테스트에 붙습니다. 문서 문자열은 세지 않습니다."""

    path: str  # tests/test_x.py
    snippets: dict  # 테스트 함수 → import 하는 스니펫 모듈
    helpers: set  # import 하는 tests/ 의 도우미 모듈 (파일 단위)
    strings: dict  # 테스트 함수 → 그 함수가 닿는 글자들
    reads_all: dict  # 테스트 함수 → 그 함수가 닿는 READS_ALL 의 종류들
    marks: set = field(default_factory=set)  # 모듈의 pytestmark 가 붙이는 표시 (browser, engine, model …)
    builds: set = field(default_factory=set)  # 빌드된 사이트(built_site)를 보는 함수: conftest 가 site 표시를 붙임

    def naming(self, name):
        """파일 이름 name("real_model.md", "bench_encoder.py")을 글자로 부르는 테스트 함수들."""
        return {f for f, strings in self.strings.items() if any(name in s for s in strings)}

    def reading_all(self, kind):
        return {f for f, kinds in self.reads_all.items() if kind in kinds}

    def importing(self, modules):
        """스니펫 modules 가운데 하나라도 import 하는 테스트 함수들."""
        return {f for f, imported in self.snippets.items() if imported & modules}

    def imported(self):
        return set().union(*self.snippets.values()) if self.snippets else set()


def _imports(nodes):
    """노드들 가운데 import 문이 부르는 최상위 모듈 이름들 (sitebuild.snippets.imported_names 와 같은 규칙)."""
    out = set()
    for n in nodes:
        if isinstance(n, ast.Import):
            out.update(a.name.split(".")[0] for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
            out.add(n.module.split(".")[0])
    return out


@dataclass
class _Part:
    """모듈 수준의 문장 하나에서 한 번만 모은 것."""

    names: set  # 부르는 이름들 (ast.Name, 함수 인자 = 픽스처)
    imports: set
    strings: set
    kinds: set


def _test_file(rel, source, snippet_modules, helper_names):
    tree = ast.parse(source)
    lines = source.splitlines()
    docstrings = _docstrings(tree)
    top, parts, common = {}, {}, set()  # 이름 → 문장, id(문장) → _Part, 모듈 수준의 import
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            common |= _imports([node]) & snippet_modules
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                top.update({n.id: node for n in ast.walk(target) if isinstance(n, ast.Name) and n.id not in top})
        else:
            continue
        walked = list(ast.walk(node))
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])  # parametrize 목록까지
        text = "\n".join(lines[first - 1 : node.end_lineno])
        parts[id(node)] = _Part(
            {n.id for n in walked if isinstance(n, ast.Name)} | {n.arg for n in walked if isinstance(n, ast.arg)},
            _imports(walked) & snippet_modules,
            {n.value for n in walked if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            - {n.value for n in walked if id(n) in docstrings},
            {kind for kind, pattern in READS_ALL.items() if pattern.search(text)},
        )

    def reach(start):
        seen, todo = {id(start)}, [start]
        while todo:
            for name in parts[id(todo.pop())].names:
                node = top.get(name)
                if node is not None and id(node) not in seen:
                    seen.add(id(node))
                    todo.append(node)
        return seen

    tests = {n: node for n, node in top.items() if n.startswith("test_") and isinstance(node, ast.FunctionDef)}
    reached = {n: reach(node) for n, node in tests.items()}
    unreached = set(parts) - set().union(*reached.values()) if reached else set()
    out = TestFile(rel, {}, _imports(ast.walk(tree)) & helper_names, {}, {})
    for name, ids in reached.items():
        chosen = [parts[i] for i in ids | unreached]
        out.snippets[name] = common.union(*(p.imports for p in chosen))
        out.strings[name] = set().union(*(p.strings for p in chosen))
        out.reads_all[name] = set().union(*(p.kinds for p in chosen))
    out.marks = {
        n.attr
        for node in tree.body
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        for n in ast.walk(node.value)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == "mark"
    }
    out.builds = {n for n, node in tests.items() if any(a.arg == "built_site" for a in node.args.args)}
    return out


def _plugins(tree):
    """모듈 수준의 pytest_plugins = [...] 에 적힌 모듈 이름들."""
    return [
        n.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in node.targets)
        for n in ast.walk(node.value)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            out.add(id(body[0].value))
    return out


def _test_file_memo(rel, source, snippet_modules, helper_names, stored):
    """_test_file 의 결과를 .cache/tests/test-files.json 에서 (열쇠: 파일 내용, 이 모듈의 소스, 스니펫·도우미 이름들).
    테스트 파일 쉰 개를 읽는 일(약 1초)을 고친 파일만 하게 합니다. (TestFile, 저장할 값) 을 돌려줍니다."""
    key = hashlib.sha256(
        "\0".join(
            [source, Path(__file__).read_text(encoding="utf-8"), *sorted(snippet_modules), *sorted(helper_names)]
        ).encode()
    ).hexdigest()
    if stored and stored.get("key") == key:
        data = stored["data"]
    else:
        test = _test_file(rel, source, snippet_modules, helper_names)
        data = {
            k: sorted(v) if isinstance(v, set) else {f: sorted(x) for f, x in v.items()}
            for k, v in vars(test).items()
            if k != "path"
        }
    test = TestFile(
        rel, **{k: set(v) if isinstance(v, list) else {f: set(x) for f, x in v.items()} for k, v in data.items()}
    )
    return test, {"key": key, "data": data}


def _importers(found, imports):
    """found 와, 그것을 (간접으로라도) import 하는 모듈 전부. imports: {모듈: 그것이 import 하는 모듈들}."""
    todo = list(found)
    while todo:
        name = todo.pop()
        for module, imported in imports.items():
            if name in imported and module not in found:
                found.add(module)
                todo.append(module)
    return found


@dataclass
class Graph:
    """저장소 파일들 사이의 관계 (import, include, 그림, 테스트가 읽는 것). 파일을 읽기만 하고 import 하지 않습니다."""

    root: Path = ROOT
    imports: dict = field(default_factory=dict)  # 스니펫 모듈 → 그것이 import 하는 스니펫 모듈들
    pages: dict = field(default_factory=dict)  # 페이지("four_steps.md") → include 하는 스니펫 모듈들
    notebooks: dict = field(default_factory=dict)  # 노트북 원고 이름("part1_numpy_attention") → include 하는 모듈들
    figures: dict = field(default_factory=dict)  # 그림 이름 → 모듈
    tests: dict = field(default_factory=dict)  # "tests/test_x.py" → TestFile
    helpers: dict = field(default_factory=dict)  # tests/ 의 도우미 모듈 이름 → 그것이 import 하는 도우미들

    @classmethod
    def read(cls, root=ROOT):
        root = Path(root)
        g = cls(root)
        snippet_dir, docs = root / "snippets", root / "docs"
        for path in snippets.modules(snippet_dir).values():
            g.imports[path.stem] = snippets.imports_in(path.read_text(encoding="utf-8"), snippet_dir)
        for path in sorted(docs.rglob("*.md")):
            g.pages[path.relative_to(docs).as_posix()] = set(INCLUDE.findall(path.read_text(encoding="utf-8")))
        for path in sorted((snippet_dir / "notebooks").glob("*.md")):
            g.notebooks[path.stem] = set(INCLUDE.findall(path.read_text(encoding="utf-8")))
        g.figures = {name: entry.module for name, entry in snippets.discover(snippet_dir, "figure").items()}
        helper_names = {p.stem for p in (root / "tests").glob("*.py") if not p.name.startswith("test_")}
        memo_path = root / ".cache" / "tests" / "test-files.json"
        memo = json.loads(memo_path.read_text(encoding="utf-8")) if memo_path.exists() else {}
        fresh = {}
        for path in sorted((root / "tests").glob("*.py")):
            source = path.read_text(encoding="utf-8")
            if path.name.startswith("test_"):
                rel = path.relative_to(root).as_posix()
                g.tests[rel], fresh[rel] = _test_file_memo(rel, source, set(g.imports), helper_names, memo.get(rel))
            else:  # conftest 는 pytest_plugins 의 글자로도 도우미를 불러옵니다
                plugins = {n.split(".")[0] for n in _plugins(ast.parse(source))}
                g.helpers[path.stem] = (snippets.imported_names(source) | plugins) & helper_names
        if fresh != memo and memo_path.parent.is_dir():  # 이름을 바꿔 한 번에 씁니다 (두 프로세스가 나란히 읽고 씀)
            tmp = memo_path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(fresh, sort_keys=True), encoding="utf-8")  # \ud800 같은 글자도 있어 ASCII 로
            os.replace(tmp, memo_path)
        return g

    def importers(self, modules):
        """modules 와, 그것을 (간접으로라도) import 하는 스니펫 모듈 전부."""
        return _importers(set(modules), self.imports)

    def helper_users(self, helper):
        """도우미 모듈 helper 를 (다른 도우미를 거쳐서라도) import 하는 도우미들과 helper 자신."""
        return _importers({helper}, self.helpers)

    def universe(self):
        """테스트의 매개변수로 고를 수 있는 이름들: 페이지, 노트북 원고(와 nav 의 이름 practice/<원고>.ipynb), 스니펫 파일, 그림."""
        notebooks = set(self.notebooks) | {notebook_page(n) for n in self.notebooks}
        return set(self.pages) | notebooks | {f"{m}.py" for m in self.imports} | set(self.figures)


ALL = "*"  # 파일의 테스트 모두 (매개변수로 거르지 않고)


@dataclass
class Selection:
    full: list = field(default_factory=list)  # make check 전부가 필요한 까닭들
    tests: dict = field(default_factory=dict)  # 테스트 파일 → {테스트 함수 또는 ALL: 까닭}
    subjects: dict = field(default_factory=dict)  # 고른 페이지·노트북·스니펫 파일·그림 → 까닭
    notes: dict = field(default_factory=dict)  # 바뀐 파일 → 그것이 닿는 곳 (사람이 읽는 한 줄)

    def files(self):
        return sorted(self.tests)

    def add(self, file, functions, why):
        """file 의 테스트 함수들(ALL 이면 모두)을 까닭과 함께 고릅니다."""
        table = self.tests.setdefault(file, {})
        for function in [ALL] if functions == ALL else sorted(functions):
            table.setdefault(function, why)

    def leave_out(self, graph, marks):
        """make check 가 돌리지 않는 것을 뺍니다: 모듈 표시가 marks 에 드는 파일, 빌드된 사이트를 보는 테스트 함수."""
        for file in list(self.tests):
            test = graph.tests.get(file)
            if test is None:
                continue
            functions = self.tests[file]
            if test.marks & marks:
                del self.tests[file]
            elif ALL not in functions:
                for name in test.builds & set(functions):
                    del functions[name]
                if not functions:
                    del self.tests[file]

    def plan(self, universe):
        """pytest 플러그인(keep)이 읽는 JSON 값."""
        return {
            "tests": {f: sorted(t) for f, t in self.tests.items()},
            "subjects": sorted(self.subjects),
            "universe": sorted(universe),
        }


_KIND = {
    "pages": "모든 페이지를",
    "notebooks": "모든 노트북을",
    "snippets": "모든 스니펫을",
    "files": "모든 파이썬 파일을",
}


def select(changed, graph):
    """바뀐 파일들(저장소 기준 경로) → Selection."""
    sel = Selection()
    for path in changed:
        p = PurePosixPath(path)
        if path.startswith(FULL):
            sel.full.append(path)
            sel.notes[path] = "빌드 코드·테스트의 토대·설정: make check 전부"
        elif p.parent.parent.as_posix() == "snippets" and p.parent.name in snippets.ROOMS and p.suffix == ".py":
            _snippet(sel, graph, p.stem, path)
        elif p.parent.as_posix() == "snippets/notebooks" and p.suffix == ".md":
            _subject(sel, graph, p.stem, "notebooks", f"노트북 {p.stem}")
            sel.notes[path] = f"노트북 {p.stem}"
        elif p.parts[0] == "docs" and p.suffix == ".md":
            page = p.relative_to("docs").as_posix()
            _subject(sel, graph, page, "pages", f"페이지 {page}")
            sel.notes[path] = f"페이지 {page}"
        elif p.parent.as_posix() == "tests" and p.name.startswith("test_") and p.suffix == ".py":
            sel.add(path, ALL, "고친 테스트 파일")
            _reads_all(sel, graph, "files", path)
            sel.notes[path] = "테스트 파일 자신"
        elif p.parent.as_posix() == "tests" and p.suffix == ".py":
            users = graph.helper_users(p.stem)
            if "conftest" in users:
                sel.full.append(path)
                sel.notes[path] = "conftest 가 쓰는 도우미: make check 전부"
                continue
            for test in graph.tests.values():
                if test.helpers & users:
                    sel.add(test.path, ALL, f"import: {', '.join(sorted(test.helpers & users))}")
            _reads_all(sel, graph, "files", path)
            sel.notes[path] = f"테스트 도우미 {p.stem}"
        elif len(p.parts) > 2 and p.parts[:2] == ("tests", "__snapshots__"):
            module = f"tests/{p.parts[2]}.py"
            if module in graph.tests:
                sel.add(module, ALL, f"스냅숏 {p.name}")
            sel.notes[path] = f"{module} 의 스냅숏"
        else:
            users = {t.path: t.naming(p.name) for t in graph.tests.values() if t.naming(p.name)}
            for test, functions in users.items():
                sel.add(test, functions, f"이름으로 부름: {p.name}")
            if not users and p.parts[0] == "docs":
                sel.full.append(path)
                sel.notes[path] = "페이지가 아닌 docs/ 파일을 부르는 테스트를 찾지 못함: make check 전부"
            else:
                sel.notes[path] = f"이 파일을 이름으로 부르는 테스트 파일 {len(users)}개" + (
                    "" if users else " (린터만)"
                )
    return sel


def _reads_all(sel, graph, kind, why):
    for test in graph.tests.values():
        if functions := test.reading_all(kind):
            sel.add(test.path, functions, f"{_KIND[kind]} 읽음 ({why})")


def notebook_page(name):
    """노트북 원고 이름 → nav 의 문서 경로 (빌드가 snippets/notebooks/<이름>.md 로 practice/<이름>.ipynb 를 만듭니다)."""
    return f"practice/{name}.ipynb"


def _subject(sel, graph, name, kind, why):
    """페이지나 노트북 하나: 그 이름을 글자로 부르는 테스트 함수와, 그 종류를 모두 읽는 테스트 함수."""
    _add(sel.subjects, name, why)
    if kind == "notebooks":
        _add(sel.subjects, notebook_page(name), why)
    for test in graph.tests.values():
        if functions := test.naming(name if kind == "pages" else f"{name}.md"):
            sel.add(test.path, functions, f"이름으로 부름: {why}")
    _reads_all(sel, graph, kind, why)


def _add(table, key, why):
    table.setdefault(key, why)


def _snippet(sel, graph, module, path):
    reach = graph.importers({module})
    why = f"스니펫 {module}"
    others = sorted(reach - {module})
    for m in sorted(reach):
        _add(sel.subjects, f"{m}.py", why if m == module else f"{why} 를 import 하는 {m}")
    for test in graph.tests.values():
        if functions := test.importing(reach):
            sel.add(test.path, functions, f"import: {', '.join(sorted(test.imported() & reach))}")
        for m in sorted(reach):
            if functions := test.naming(f"{m}.py"):
                sel.add(test.path, functions, f"이름으로 부름: {m}.py")
    _reads_all(sel, graph, "snippets", why)
    _reads_all(sel, graph, "files", why)
    pages = sorted(p for p, used in graph.pages.items() if used & reach)
    notebooks = sorted(n for n, used in graph.notebooks.items() if used & reach)
    for page in pages:
        _subject(sel, graph, page, "pages", f"페이지 {page}")
    for nb in notebooks:
        _subject(sel, graph, nb, "notebooks", f"노트북 {nb}")
    every = bool(reach & set(snippets.FIGURE_HELPERS))  # 그리는 쪽이 늘 import 하는 plotting: 모든 그림
    drawn = sorted(name for name, m in graph.figures.items() if every or m in reach)
    for name in drawn:
        _add(sel.subjects, name, "모든 그림이 쓰는 도우미" if every else f"{why} 의 그림")
    sel.notes[path] = "; ".join(
        part
        for part in [
            f"스니펫 {module}",
            f"이것을 import 하는 스니펫: {', '.join(others)}" if others else "",
            f"페이지: {', '.join(pages)}" if pages else "",
            f"노트북: {', '.join(notebooks)}" if notebooks else "",
            f"그림: {', '.join(drawn)}" if drawn else "",
        ]
        if part
    )


# --- pytest 쪽: 모은 테스트 가운데 고른 것만 남기기 ---------------------------------------------------


def _names_of(value, root=ROOT):
    """매개변수 값이 가리킬 수 있는 이름들: 글자는 그대로, 경로는 이름·줄기·저장소 기준 경로."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Path):
        out = {value.name, value.stem}
        if value.is_absolute() and value.is_relative_to(root):
            out.add(value.relative_to(root).as_posix())
        return out
    if isinstance(value, (tuple, list)):
        return set().union(*(_names_of(v, root) for v in value)) if value else set()
    return set()


def keep(file, function, params, plan):
    """테스트 하나를 남길지: 고른 파일의 고른 함수이고, 매개변수가 (페이지·노트북·스니펫 파일·그림) 이름이면 고른 이름일 때.
    파일을 통째로 고른 것(ALL: 그 파일을 고쳤거나, 바뀐 스니펫을 import 함)은 거르지 않습니다."""
    return keep_named(file, function, set().union(*(_names_of(v) for v in params.values())), plan)


def keep_named(file, function, names, plan):
    """keep 과 같되 매개변수 대신 그 값들이 가리키는 이름들로 (make check 가 테스트마다 적어 둔 것: tools/check.py 가
    고른 테스트의 지난 시간을 더할 때 씁니다)."""
    functions = plan["tests"].get(file)
    if not functions:
        return False
    if ALL in functions:
        return True
    if function not in functions:
        return False
    named = set(names) & set(plan["universe"])
    return not named or bool(named & set(plan["subjects"]))


# pytest 플러그인 (tools/check.py 가 `-p support.changes` 로 붙입니다) ---------------------------------------


def pytest_addoption(parser):
    group = parser.getgroup("make quick / make check (tools/check.py)")
    group.addoption("--selection", help="tools/check.py 가 쓴 고르기(JSON): 그 테스트만 남깁니다")
    group.addoption(
        "--record-durations", help="테스트마다 걸린 초와 매개변수의 이름을 이 JSON 파일에 씁니다 (나누기의 기준)"
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
        params = getattr(getattr(item, "callspec", None), "params", {})
        rel = item.path.relative_to(config.rootpath).as_posix()
        (kept if keep(rel, getattr(item, "originalname", item.name), params, plan) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


_durations = {}


def pytest_runtest_logreport(report):
    entry = _durations.setdefault(report.nodeid, {"seconds": 0.0})
    entry["seconds"] += report.duration  # 준비(setup)·실행(call)·정리(teardown)를 더합니다


def pytest_collection_finish(session):
    """테스트마다 매개변수가 가리키는 이름(keep 이 보는 것)을 적어 둡니다: make quick 이 고른 테스트만의 지난 시간을 더하게."""
    if not session.config.getoption("--record-durations"):
        return
    for item in session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        names = set().union(*(_names_of(v) for v in params.values())) if params else set()
        _durations.setdefault(item.nodeid, {"seconds": 0.0})["names"] = sorted(names)


def pytest_sessionfinish(session):
    path = session.config.getoption("--record-durations")
    if path:
        import json

        Path(path).write_text(json.dumps(_durations, indent=1, sort_keys=True), encoding="utf-8")
