"""스니펫의 figure_* 함수로 그림을 만듭니다.

약속: `snippets/<모듈>.py` 의 최상위 함수 `figure_<이름>(narrow=False)` 는 matplotlib Figure 를
돌려줍니다. 빌드는 그것을 넓은 판(narrow=False)과 좁은 판(narrow=True)으로, 판마다 밝은/어두운 테마로
그려 `<모듈>-<이름>-light.png`, `-dark.png`, `-narrow-light.png`, `-narrow-dark.png` 로 저장합니다.
narrow 인자가 없는 함수는 넓은 판 하나만 그립니다. 페이지는 `![대체 텍스트](figures/<모듈>-<이름>.png)`
라고만 씁니다 (figure_markup.py 가 판과 테마마다의 그림으로 바꿔 넣습니다).

그림은 docs/ 밖(.cache/site/figures)에 쓰고, 모듈과 그 모듈이 가져다 쓰는 스니펫(과 plotting)의 내용, 또는
그리는 빌드 코드(figures, legibility, images)가 바뀔 때만 다시 그립니다 (snippets/lib/disk_cache.py). 다시 그릴 그림은 작업 프로세스 2개에서 페이지 빌드와 나란히 그립니다.
그릴 때 나오는 모든 경고(한글 글리프 누락 포함)는 오류이고, 휴대전화·데스크톱에서 글자가 너무 작거나
가장자리에서 잘리는 그림도 오류입니다 (legibility.py: 잰 값은 legibility.json 에 남습니다).
"""

import concurrent.futures
import io
import json
import logging
import multiprocessing
import sys
import warnings
from pathlib import Path

import disk_cache

from . import images, legibility, snippets

DPI = 144  # 그림 1인치 = CSS 96px 의 1.5배: 고해상도 화면에서도 또렷하고 파일은 작게
CSS_PX_PER_INCH = 96  # 페이지에 놓는 크기: 저장 해상도와 관계없이 1인치 = 96 CSS px
THEMES = ("light", "dark")
VARIANTS = ("wide", "narrow")  # 넓은 판(데스크톱)과 좁은 판(휴대전화)
HOOKS_DIR = Path(__file__).resolve().parent.parent  # 이 패키지(sitebuild)가 있는 폴더: 작업 프로세스가 import 합니다


class FigureError(RuntimeError):
    pass


def discover(snippets_dir):
    """{"<모듈>-<이름>": snippets.Entry}."""
    return snippets.discover(snippets_dir, "figure")


def drawing_modules():
    """그림을 정하는 빌드 코드: 이 소스가 바뀌면 모든 그림을 다시 그립니다."""
    return (sys.modules[__name__], legibility, images, snippets, disk_cache)


def file_name(name, variant, theme):
    return f"{name}-{theme}.png" if variant == "wide" else f"{name}-{variant}-{theme}.png"


class _RaiseOnWarning(logging.Handler):
    """matplotlib 은 mathtext 글리프 누락 같은 일부 경고를 warnings 가 아니라 logging 으로 알립니다."""

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            raise FigureError(f"matplotlib 경고: {record.getMessage()}")


def render(module_name, func_name, out_paths, snippets_dir):
    """figure 함수를 판과 테마마다 한 번씩 그려 저장하고, 판마다 글자 크기를 잰 값을 돌려줍니다.

    out_paths: {(판, 테마): 경로}. 모듈은 snippets_dir 에서 import 합니다. 돌려주는 값: {판: legibility.measure 의 측정값} (판이 하나뿐이면 "only").
    실패, 경고, 읽기 어려운 글자는 FigureError 가 됩니다.
    """
    import matplotlib

    matplotlib.use("Agg")  # 화면 없이 파일로만 그립니다
    import matplotlib.pyplot as plt

    snippets.add_snippets_to_path(snippets_dir)
    import plotting

    if not plotting.use_korean_font():
        raise FigureError("한글 글꼴(koreanize-matplotlib 의 나눔고딕)을 찾지 못했습니다")
    try:
        module = snippets.import_snippet(snippets_dir, module_name)  # 모듈의 print 는 그림과 상관이 없습니다
    except Exception as exc:
        raise FigureError(
            f"그림을 그리려고 스니펫 {module_name}.py 를 import 하다 실패했습니다: {type(exc).__name__}: {exc}"
        ) from exc
    func = getattr(module, func_name)
    mpl_log = logging.getLogger("matplotlib")
    handler = _RaiseOnWarning()
    single = {v for v, _ in out_paths} == {"wide"}
    measured = {}
    for (variant, theme), path in out_paths.items():
        mpl_log.addHandler(handler)
        try:
            narrow = variant == "narrow"
            with warnings.catch_warnings(), plotting.theme(theme, narrow=narrow), legibility.recording_texts() as texts:
                warnings.simplefilter("error")
                fig = func(narrow=True) if narrow else func()
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
            if theme == "light":  # 글자 크기와 자리는 테마와 상관없습니다
                label = "only" if single else variant
                measured[label] = legibility.measure(fig, texts, buf.getvalue(), label)
            Path(path).write_bytes(images.palette_png(buf.getvalue()))
        except Exception as exc:
            raise FigureError(
                f"그림 {module_name}.{func_name} ({variant}, {theme}) 을 그리지 못했습니다: {type(exc).__name__}: {exc}"
            ) from exc
        finally:
            mpl_log.removeHandler(handler)
            plt.close("all")
    for label, m in measured.items():
        if legibility.problems(m):
            raise FigureError(
                f"그림 {module_name}.{func_name} ({label}) 을 휴대전화·데스크톱에서 읽기 어렵습니다: "
                + "; ".join(legibility.problems(m))
            )
    return measured


def _render_module(snippets_dir, module_name, jobs):
    """작업 프로세스에서: 한 모듈의 그림들을 그립니다 (모듈은 한 번만 import). {함수: 측정값}."""
    return {func_name: render(module_name, func_name, paths, snippets_dir) for func_name, paths in jobs}


class FigureSet:
    """빌드 한 번의 그림들.

    만들자마자 다시 그릴 그림을 작업 프로세스에 맡깁니다. 페이지가 그림 크기를 물으면(info)
    그 그림을 그리는 모듈이 끝날 때까지 기다립니다. wait_all() 은 남은 작업을 모두 기다리고,
    실패가 있으면 FigureError 를 냅니다. 그림마다의 측정값(legibility.measure)은 캐시 도장에 함께 남고,
    모두 모은 표는 legibility.json 에 씁니다.
    """

    def __init__(self, snippets_dir, out_dir, environment, workers=2, names=None):
        """names: 이 그림들만 다룹니다 (테스트가 그림 하나씩 확인할 때). 그때는 지워진 그림을 치우거나 모두 모은 표
        (legibility.json)를 쓰지 않습니다: 그것은 모든 그림을 아는 빌드(names=None)의 일입니다."""
        self.snippets_dir, self.out_dir = Path(snippets_dir), Path(out_dir)
        self.cache = disk_cache.Cache.for_code(self.out_dir, environment, *drawing_modules())
        self.legibility_path = self.out_dir / "legibility.json"
        self.complete = names is None
        self.found = {n: e for n, e in discover(self.snippets_dir).items() if self.complete or n in names}
        self.variants = {name: VARIANTS if e.narrow else VARIANTS[:1] for name, e in self.found.items()}
        self.paths = {
            name: {(v, t): self.out_dir / file_name(name, v, t) for v in self.variants[name] for t in THEMES}
            for name in self.found
        }
        self.keys, self.legibility, self.futures, self.pool = {}, {}, {}, None
        by_module = {}
        for name, entry in self.found.items():
            key = self.keys[name] = self.cache.key(entry.func, snippets.figure_hash(entry, self.snippets_dir))
            if self.cache.files(name, key) is not None:
                self.legibility[name] = self.cache.get(name, key)["legibility"]
            else:
                by_module.setdefault(entry.module, []).append((entry.func, self.paths[name]))
        if by_module:
            # spawn: serve 의 스레드가 도는 프로세스를 fork 하지 않습니다. 새 프로세스는 부모의
            # sys.path 를 물려받으므로, 이 패키지(sitebuild)의 폴더가 sys.path 에 있어야 합니다.
            snippets.add_to_path(HOOKS_DIR)
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=min(workers, len(by_module)), mp_context=multiprocessing.get_context("spawn")
            )
            # 가장 오래 걸리는 모듈(실제 모델)을 먼저 맡깁니다.
            for module, jobs in sorted(by_module.items(), key=lambda kv: not kv[0].startswith("real_model")):
                self.futures[module] = self.pool.submit(_render_module, str(self.snippets_dir), module, jobs)
        stale_names = set(self.cache.names()) - set(self.found) if self.complete else set()
        for stale in stale_names:  # 지워진 그림의 파일도 치웁니다
            for v in VARIANTS:
                for t in THEMES:
                    (self.out_dir / file_name(stale, v, t)).unlink(missing_ok=True)
            self.cache.forget(stale)
        if not self.futures:
            self._write_table()

    def _write_table(self):
        if not self.complete:
            return
        text = json.dumps(self.legibility, indent=1, sort_keys=True, ensure_ascii=False)
        if not self.legibility_path.exists() or self.legibility_path.read_text(encoding="utf-8") != text:
            self.legibility_path.write_text(text, encoding="utf-8")

    def _wait(self, module):
        future = self.futures.pop(module, None)
        if future is None:
            return
        try:
            measured = future.result()
        except FigureError:
            raise
        except Exception as exc:
            raise FigureError(
                f"그림을 그리는 작업 프로세스가 실패했습니다 ({module}): {type(exc).__name__}: {exc}"
            ) from exc
        for name, entry in self.found.items():
            if entry.module == module and entry.func in measured:
                self.legibility[name] = measured[entry.func]
                self.cache.put_files(name, self.keys[name], self.paths[name].values(), legibility=measured[entry.func])
        self._write_table()

    def __contains__(self, name):
        return name in self.found

    def info(self, name):
        """{판: {"light": 경로, "dark": 경로, "width": CSS px, "height": CSS px}} — 다 그려질 때까지 기다립니다."""
        self._wait(self.found[name].module)
        out = {}
        for variant in self.variants[name]:
            w, h = images.png_size(self.paths[name][(variant, "light")])
            out[variant] = {t: self.paths[name][(variant, t)] for t in THEMES}
            out[variant].update(width=round(w * CSS_PX_PER_INCH / DPI), height=round(h * CSS_PX_PER_INCH / DPI))
        return out

    def wait_all(self):
        try:
            for module in list(self.futures):
                self._wait(module)
        finally:
            self.close()

    def wait_each(self):
        """wait_all 과 같되 실패에서 멈추지 않습니다: {모듈: FigureError} (테스트가 그림마다 제 모듈의 실패만 보입니다)."""
        errors = {}
        try:
            for module in list(self.futures):
                try:
                    self._wait(module)
                except FigureError as exc:
                    errors[module] = exc
        finally:
            self.close()
        return errors

    def close(self):
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
