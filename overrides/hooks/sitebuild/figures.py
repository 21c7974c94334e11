"""스니펫의 figure_* 함수로 그림을 만듭니다.

약속: `snippets/<모듈>.py` 의 최상위 함수 `figure_<이름>()` 은 matplotlib Figure 를 돌려줍니다.
빌드는 그것을 밝은/어두운 테마로 한 번씩 그려 `<모듈>-<이름>-light.png`, `-dark.png` 로 저장하고,
페이지는 `![대체 텍스트](figures/<모듈>-<이름>.png)` 라고만 씁니다.

그림은 docs/ 밖(.cache/site/figures)에 쓰고, 모듈과 그 모듈이 가져다 쓰는 스니펫의 내용이
바뀔 때만 다시 그립니다. 그릴 때 나오는 모든 경고(한글 글리프 누락 포함)는 오류입니다.
"""

import ast
import contextlib
import hashlib
import importlib
import io
import json
import logging
import struct
import sys
import warnings
from pathlib import Path

DPI = 144  # 그림 1인치 = CSS 96px 의 1.5배: 고해상도 화면에서도 또렷하고 파일은 작게
THEMES = ("light", "dark")
FORMAT_VERSION = "3"  # 그리는 방식이 바뀌면 올려서 캐시를 비웁니다


class FigureError(RuntimeError):
    pass


def discover(snippets_dir, prefix="figure_"):
    """{이름: (모듈 이름, 함수 이름)} — 파일을 import 하지 않고 AST 로 prefix 로 시작하는 함수를 찾습니다."""
    found = {}
    for path in sorted(Path(snippets_dir).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith(prefix):
                found[f"{path.stem}-{node.name[len(prefix):]}"] = (path.stem, node.name)
    return found


def _local_imports(path, snippets_dir):
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return {n for n in names if (Path(snippets_dir) / f"{n}.py").exists()}


def source_hash(module, snippets_dir):
    """모듈과, 그 모듈이 (간접적으로라도) import 하는 스니펫 파일 내용의 해시."""
    snippets_dir = Path(snippets_dir)
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_local_imports(snippets_dir / f"{name}.py", snippets_dir))
    h = hashlib.sha256(FORMAT_VERSION.encode())
    for name in sorted(seen):
        h.update(name.encode() + b"\0" + (snippets_dir / f"{name}.py").read_bytes())
    import matplotlib
    h.update(matplotlib.__version__.encode())
    return h.hexdigest()[:16]


def png_size(path):
    """PNG 머리(IHDR)에서 (너비, 높이) 를 읽습니다."""
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


class _RaiseOnWarning(logging.Handler):
    """matplotlib 은 mathtext 글리프 누락 같은 일부 경고를 warnings 가 아니라 logging 으로 알립니다."""

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            raise FigureError(f"matplotlib 경고: {record.getMessage()}")


def render(module_name, func_name, out_paths):
    """figure 함수를 테마마다 한 번씩 그려 저장합니다. 경고는 FigureError 가 됩니다."""
    import matplotlib

    matplotlib.use("Agg")  # 화면 없이 파일로만 그립니다
    import matplotlib.pyplot as plt
    import plotting

    if not plotting.use_korean_font():
        raise FigureError("한글 글꼴(koreanize-matplotlib 의 나눔고딕)을 찾지 못했습니다")
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # 모듈의 print 는 그림과 상관이 없습니다
            module = importlib.import_module(module_name)
    except Exception as exc:
        raise FigureError(f"그림을 그리려고 스니펫 {module_name}.py 를 import 하다 실패했습니다: "
                          f"{type(exc).__name__}: {exc}") from exc
    func = getattr(module, func_name)
    mpl_log = logging.getLogger("matplotlib")
    handler = _RaiseOnWarning()
    for theme, path in zip(THEMES, out_paths):
        mpl_log.addHandler(handler)
        try:
            with warnings.catch_warnings(), plotting.theme(theme):
                warnings.simplefilter("error")
                fig = func()
                fig.savefig(path, dpi=DPI, metadata={"Software": None},
                            pil_kwargs={"optimize": True})
        except Exception as exc:
            raise FigureError(f"그림 {module_name}.{func_name} ({theme}) 을 그리지 못했습니다: "
                              f"{type(exc).__name__}: {exc}") from exc
        finally:
            mpl_log.removeHandler(handler)
            plt.close("all")


def build_figures(snippets_dir, out_dir):
    """모든 그림을 (필요할 때만) 만들고 {이름: {"light", "dark", "width", "height"}} 를 돌려줍니다."""
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if str(snippets_dir) not in sys.path:
        sys.path.insert(0, str(snippets_dir))
    stamp_path = out_dir / "stamps.json"
    stamps = json.loads(stamp_path.read_text()) if stamp_path.exists() else {}
    result = {}
    for name, (module, func) in discover(snippets_dir).items():
        paths = [out_dir / f"{name}-{t}.png" for t in THEMES]
        key = source_hash(module, snippets_dir)
        if stamps.get(name) != key or not all(p.exists() for p in paths):
            stamps.pop(name, None)
            render(module, func, paths)
            stamps[name] = key
            stamp_path.write_text(json.dumps(stamps, indent=1, sort_keys=True))
        w, h = png_size(paths[0])
        result[name] = {"light": paths[0], "dark": paths[1], "width": w, "height": h}
    for stale in set(stamps) - set(result):  # 지워진 그림의 파일도 치웁니다
        stamps.pop(stale)
        for t in THEMES:
            (out_dir / f"{stale}-{t}.png").unlink(missing_ok=True)
    stamp_path.write_text(json.dumps(stamps, indent=1, sort_keys=True))
    return result
