"""스니펫 사이의 import 그래프: 어떤 코드가 어떤 스니펫 파일에 기대는지와, 그 내용의 해시.

그림(figures), 데이터(datafiles), 페이지 실행 결과(outputs)는 모두 "이 코드가 기대는 스니펫 파일이
바뀌었는가?" 로 다시 만들지 정합니다. 그 질문에 답하는 곳은 여기 한 군데뿐입니다.
"""

import ast
import hashlib
import sys
from pathlib import Path


def discover(snippets_dir, prefix, with_args=False):
    """{"<모듈>-<이름>": (모듈, 함수)} — `snippets/*.py` 의 최상위 `<prefix><이름>()` 함수들.

    파일을 import 하지 않고 AST 로 찾습니다 (import 는 모듈의 계산을 돌리므로 비쌉니다).
    with_args=True 이면 (모듈, 함수, 인자 이름들) 을 돌려줍니다.
    """
    found = {}
    for path in sorted(Path(snippets_dir).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith(prefix):
                args = tuple(a.arg for a in node.args.args + node.args.kwonlyargs)
                found[f"{path.stem}-{node.name[len(prefix):]}"] = (path.stem, node.name, args) if with_args \
                    else (path.stem, node.name)
    return found


def imports_in(code, snippets_dir):
    """코드가 직접 import 하는 스니펫 모듈 이름들 (snippets/ 에 파일이 있는 것만)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return {n for n in names if (Path(snippets_dir) / f"{n}.py").exists()}


def closure(modules, snippets_dir):
    """모듈들과, 그 모듈들이 (간접적으로라도) import 하는 스니펫 모듈 전부."""
    seen, todo = set(), list(modules)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports_in((Path(snippets_dir) / f"{name}.py").read_text(encoding="utf-8"), snippets_dir))
    return seen


def content_hash(modules, snippets_dir, *extra):
    """스니펫 모듈들(간접 import 포함)의 파일 내용과 extra 문자열들의 해시 (16자)."""
    h = hashlib.sha256()
    for name in sorted(closure(modules, snippets_dir)):
        h.update(name.encode() + b"\0" + (Path(snippets_dir) / f"{name}.py").read_bytes())
    for item in extra:
        h.update(b"\0" + str(item).encode())
    return h.hexdigest()[:16]


def environment_stamp(root):
    """계산 결과를 바꿀 수 있는 환경: 파이썬 버전과 잠금 파일(모든 패키지 버전).

    패키지 하나만 올려도 requirements.txt 가 바뀌므로, 캐시된 출력·그림이 옛 버전의 것으로 남지 않습니다.
    """
    lock = Path(root) / "requirements.txt"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()[:16] if lock.exists() else "no-lock"
    return f"python {sys.version.split()[0]} | requirements {digest}"


def forget_modules(snippets_dir):
    """import 캐시에서 스니펫 모듈을 지웁니다: serve 가 다시 빌드할 때 고친 파일을 다시 읽게."""
    prefix = str(Path(snippets_dir))
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(prefix):
            del sys.modules[name]
