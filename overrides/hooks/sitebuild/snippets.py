"""스니펫 ↔ 빌드의 약속: 빌드가 `snippets/<방>/*.py` 에서 무엇을 찾고, 어떻게 import 하고, 무엇으로 캐시를 가르는지.

스니펫은 평범한 파이썬 모듈입니다. 빌드는 그 안의 것을 이름으로만 찾습니다.

- 절(section): `# --8<-- [start:이름]` … `# --8<-- [end:이름]`. 페이지와 노트북 원본이 `--8<-- "모듈.py:이름"` 으로
  가져오는 단위입니다 (pymdownx.snippets; 표시 줄은 빠집니다).
- `figure_<이름>(narrow=False)` → matplotlib Figure. 그림 `figures/<모듈>-<이름>.png` 이 됩니다. `narrow` 인자가
  있으면 좁은 판(휴대전화)도 그립니다. 그리는 쪽(figures.render)은 `plotting` 을 import 해서 테마와 한글 글꼴을
  정하므로, 그림의 캐시는 언제나 `plotting.py` 에도 기댑니다 (FIGURE_HELPERS).
- `data_<이름>()` → dict → `data/<모듈>-<이름>.json`.
- `datafiles_<이름>()` → {조각: dict} → 조각마다 `data/<모듈>-<이름>-<조각>.json`.

찾을 때는 파일을 import 하지 않고 AST 로 봅니다 (import 는 모듈의 계산을 돌리므로 비쌉니다).

스니펫 하나는 다섯 가지 방법으로 돕니다. 실행 순서는 두 가지입니다.

1. 페이지: 그 페이지가 include 한 절들이 **페이지에 나오는 순서대로**, 노트북처럼 한 이름공간에서, 페이지마다 새
   프로세스에서 (outputs.run_in_fresh_process → codeblocks.run_blocks).
2. 모듈로 import: 테스트(`import four_steps`), 그림 작업 프로세스, 데이터 함수. 파일이 **위에서 아래로** 한 번 돕니다.
3. 실습 노트북: 원본(snippets/notebooks/*.md)이 include 한 절들이 셀 순서대로 (1 과 같은 규칙, 커널에서).

그래서 절은 페이지 순서로 돌아도, 파일 순서로 돌아도 같은 값을 내야 합니다 (tests/test_snippets_run.py 가 파일을,
tests/test_pages.py 가 페이지를 돌립니다).

이 모듈은 `sys.path` 와 `sys.modules` 를 만지는 빌드의 유일한 곳입니다: 스니펫 폴더를 import 경로에 넣는 일
(`importable`, `import_snippet`)과, serve 가 다시 빌드할 때 고친 파일을 다시 읽도록 import 캐시에서 지우는 일
(`forget_modules`). 테스트도 임시 스니펫 폴더를 이것으로 다룹니다.
"""

import ast
import contextlib
import functools
import hashlib
import importlib
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path

PREFIXES = {"figure": "figure_", "data": "data_", "datafiles": "datafiles_"}
# 스니펫 폴더의 세 방: 페이지가 보여 주는 장의 스크립트(import 하면 찍을 수 있음), import 해도 아무것도 하지 않는 라이브러리,
# 빌드가 브라우저 도구에 줄 데이터를 만드는 모듈. 모듈 이름은 방을 건너 하나뿐이고, 세 방 모두 import 경로와 include 의
# base_path 에 들어가므로 `import attention` 과 `--8<-- "why_scale.py:절"` 은 방을 적지 않습니다.
ROOMS = ("chapters", "lib", "sitedata")
FIGURE_HELPERS = ("plotting",)  # 그림을 그리는 쪽이 늘 import 하는 스니펫 (테마, 글꼴, 판의 폭과 글자 크기)


@dataclass(frozen=True)
class Entry:
    """스니펫의 빌드용 함수 하나."""

    name: str  # "<모듈>-<이름>": 그림·데이터 파일 이름의 앞부분
    module: str
    func: str
    narrow: bool  # figure_* 가 narrow 인자를 받으면 좁은 판도 그립니다


def folders(snippets_dir):
    """스니펫 폴더의 방들 (있는 것만, ROOMS 순서). 방이 없는 폴더(테스트가 만드는 작은 폴더)는 그 자신이 방 하나입니다."""
    root = Path(snippets_dir)
    return [root / room for room in ROOMS if (root / room).is_dir()] or [root]


def modules(snippets_dir):
    """{모듈 이름: 파일} — 방마다의 `*.py` 전부 (이름 순서)."""
    found = {}
    for folder in folders(snippets_dir):
        for path in folder.glob("*.py"):
            if path.stem in found:
                raise ValueError(f"스니펫 모듈 {path.stem!r} 이 두 방에 있습니다: {found[path.stem]}, {path}")
            found[path.stem] = path
    return dict(sorted(found.items()))


def path_of(snippets_dir, name):
    """모듈 이름 → 그 파일 (어느 방에 있든). 스니펫이 아니면 None."""
    for folder in folders(snippets_dir):
        if (path := folder / f"{name}.py").exists():
            return path
    return None


def root_of(base_path):
    """mkdocs.yml 의 pymdownx.snippets base_path (방들의 목록, 또는 폴더 하나) → 스니펫 폴더.

    방들을 적었다면 그 폴더의 방이 모두, 그리고 그것만 있어야 합니다: 빠진 방의 절은 include 할 수 없고 그림은 그려지는
    어긋남을 막습니다.
    """
    paths = [Path(p).resolve() for p in (base_path if isinstance(base_path, list) else [base_path])]
    roots = {p.parent if p.name in ROOMS else p for p in paths}
    if len(roots) != 1:
        raise ValueError(f"base_path 는 스니펫 폴더 하나의 방들이어야 합니다: {[str(p) for p in paths]}")
    root = roots.pop()
    if paths != [root] and paths != folders(root):
        raise ValueError(
            f"base_path 는 {root} 의 방 {', '.join(ROOMS)} 을 이 순서로 모두 적어야 합니다: {[str(p) for p in paths]}"
        )
    return root


def discover(snippets_dir, kind):
    """{"<모듈>-<이름>": Entry} — 스니펫 모듈의 최상위 `figure_*`/`data_*`/`datafiles_*` 함수 (kind 로 고릅니다)."""
    prefix = PREFIXES[kind]
    found = {}
    for path in modules(snippets_dir).values():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith(prefix):
                args = {a.arg for a in node.args.args + node.args.kwonlyargs}
                name = f"{path.stem}-{node.name.removeprefix(prefix)}"
                found[name] = Entry(name, path.stem, node.name, "narrow" in args)
    return found


@functools.lru_cache(maxsize=1024)
def imported_names(code):
    """코드가 import 하는 최상위 모듈 이름들 (스니펫이든 아니든). 글이 같으면 답도 같으므로 글로 기억합니다: 캐시 열쇠를 만들 때마다
    같은 페이지 코드와 스니펫 파일을 다시 읽어(AST) 테스트 한 세션에 천 번 넘게 파싱하던 것을 한 번씩으로."""
    names, todo = set(), [ast.parse(code)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        # import 는 문장이라서 문장(과 except·case 절) 안에만 있습니다. 식(expression)까지 모두 도는 ast.walk 보다
        # 열 배쯤 적은 노드를 봅니다.
        todo.extend(
            c for c in ast.iter_child_nodes(node) if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case))
        )
    return frozenset(names)


def imports_in(code, snippets_dir):
    """코드가 직접 import 하는 스니펫 모듈 이름들 (어느 방에든 파일이 있는 것만: 그것은 부를 때마다 봅니다)."""
    return {n for n in imported_names(code) if path_of(snippets_dir, n) is not None}


def closure(modules, snippets_dir):
    """모듈들과, 그 모듈들이 (간접적으로라도) import 하는 스니펫 모듈 전부."""
    seen, todo = set(), list(modules)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports_in(path_of(snippets_dir, name).read_text(encoding="utf-8"), snippets_dir))
    return seen


def content_hash(modules, snippets_dir):
    """스니펫 모듈들(간접 import 포함)의 파일 내용 해시 (16자). 캐시 열쇠의 "스니펫" 부분입니다."""
    h = hashlib.sha256()
    for name in sorted(closure(modules, snippets_dir)):
        h.update(name.encode() + b"\0" + path_of(snippets_dir, name).read_bytes())
    return h.hexdigest()[:16]


def figure_hash(entry, snippets_dir):
    """그림 하나의 스니펫 해시: 그 모듈과, 그리는 쪽이 늘 쓰는 plotting (있으면)."""
    helpers = {m for m in FIGURE_HELPERS if path_of(snippets_dir, m) is not None}
    return content_hash({entry.module} | helpers, snippets_dir)


# --- sys.path 와 sys.modules: 여기서만 ------------------------------------------------------------

# 빌드도 import 하는 스니펫 모듈(캐시 하나, disk_cache)이 있는 방
LIBRARY = Path(__file__).resolve().parents[3] / "snippets" / "lib"


def add_to_path(folder):
    """folder 를 import 경로 맨 앞에 넣습니다 (이미 있으면 그대로). 빌드와 그림 작업 프로세스가 부릅니다."""
    folder = str(Path(folder))
    if folder not in sys.path:
        sys.path.insert(0, folder)


def add_snippets_to_path(snippets_dir):
    """스니펫 폴더의 방들을 모두 import 경로에 넣습니다. 빌드, 그림 작업 프로세스, 페이지 실행 프로세스가 부릅니다."""
    for folder in reversed(folders(snippets_dir)):
        add_to_path(folder)


def forget_modules(folder):
    """folder 아래 파일에서 읽은 모듈을 import 캐시에서 지웁니다: 다음 import 가 파일을 다시 읽습니다.

    serve 가 다시 빌드할 때 고친 스니펫을 다시 읽게 하고(빌드의 on_pre_build), 훅이 sitebuild 자신을 다시 읽게 합니다
    (overrides/hooks/attention_site.py).
    """
    prefix = os.path.join(os.path.abspath(folder), "")
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and os.path.abspath(file).startswith(prefix):
            del sys.modules[name]


@contextlib.contextmanager
def importable(folder):
    """잠깐 동안 folder(스니펫 폴더)의 스니펫을 import 할 수 있게 합니다. 나올 때 경로를 빼고, 읽은 모듈도 잊습니다 (테스트용)."""
    added = [str(f) for f in folders(folder) if str(f) not in sys.path]
    sys.path[:0] = added
    try:
        yield
    finally:
        for path in added:
            sys.path.remove(path)
        forget_modules(folder)


def import_snippet(snippets_dir, module_name):
    """스니펫 모듈을 import 합니다 (모듈이 찍는 것은 버립니다: 그림·데이터와 상관이 없습니다)."""
    add_snippets_to_path(snippets_dir)
    with contextlib.redirect_stdout(io.StringIO()):
        return importlib.import_module(module_name)
