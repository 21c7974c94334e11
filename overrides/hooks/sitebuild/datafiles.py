"""스니펫이 만든 데이터를 JSON 파일로 내보냅니다 (브라우저의 대화형 도구가 읽습니다).

약속 두 가지:
- `snippets/<모듈>.py` 의 최상위 함수 `data_<이름>()` 은 JSON 으로 바꿀 수 있는 dict 를 돌려줍니다.
  빌드는 그것을 `.cache/site/data/<모듈>-<이름>.json` 에 쓰고 사이트의 `data/<모듈>-<이름>.json` 으로
  내보냅니다.
- `datafiles_<이름>()` 은 작은 파일 여러 개를 돌려줍니다: {조각: dict}. 조각마다
  `data/<모듈>-<이름>-<조각>.json` 이 됩니다 (조각 이름은 영문 소문자·숫자·하이픈). 독자가 필요할 때만
  받는 데이터(헤드 탐색기의 층마다 q·k 벡터)를 파일 하나에 몰아넣지 않으려는 것입니다.
그래서 페이지의 JavaScript 와 Python 이 같은 숫자를 씁니다.
"""

import contextlib
import importlib
import io
import json
import re
import sys
from pathlib import Path

from . import snippet_graph

PART = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class DataError(RuntimeError):
    pass


def _call(module_name, func_name):
    with contextlib.redirect_stdout(io.StringIO()):
        module = importlib.import_module(module_name)
        return getattr(module, func_name)()


def _dump(data):
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def build_data(snippets_dir, out_dir, environment):
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if str(snippets_dir) not in sys.path:
        sys.path.insert(0, str(snippets_dir))
    written = []
    for name, (module_name, func_name) in snippet_graph.discover(snippets_dir, "data_").items():
        path = out_dir / f"{name}.json"
        stamp = out_dir / f"{name}.key"
        key = snippet_graph.content_hash({module_name}, snippets_dir, environment)
        if not (path.exists() and stamp.exists() and stamp.read_text() == key):
            try:
                text = _dump(_call(module_name, func_name))
            except Exception as exc:
                raise DataError(f"데이터 {module_name}.{func_name} 를 만들지 못했습니다: "
                                f"{type(exc).__name__}: {exc}") from exc
            path.write_text(text, encoding="utf-8")
            stamp.write_text(key)
        written.append(path)
    for name, (module_name, func_name) in snippet_graph.discover(snippets_dir, "datafiles_").items():
        # 목록 파일: 첫 줄은 내용 해시, 다음 줄부터 이번에 쓴 파일 이름 (캐시가 맞으면 다시 계산하지 않습니다)
        listing = out_dir / f"{name}.files"
        key = snippet_graph.content_hash({module_name}, snippets_dir, environment)
        cached = listing.read_text(encoding="utf-8").splitlines() if listing.exists() else []
        if cached[:1] == [key] and all((out_dir / f).exists() for f in cached[1:]):
            written += [out_dir / f for f in cached[1:]]
            continue
        try:
            parts = _call(module_name, func_name)
            if not isinstance(parts, dict) or not parts:
                raise TypeError(f"{{조각 이름: dict}} 를 돌려줘야 합니다: {type(parts).__name__} {len(parts or ())}개")
            bad = [p for p in parts if not (isinstance(p, str) and PART.fullmatch(p))]
            if bad:
                raise ValueError(f"조각 이름은 영문 소문자·숫자·하이픈이어야 합니다: {bad[:3]}")
            texts = {f"{name}-{part}.json": _dump(data) for part, data in parts.items()}
        except Exception as exc:
            raise DataError(f"데이터 {module_name}.{func_name} 를 만들지 못했습니다: "
                            f"{type(exc).__name__}: {exc}") from exc
        for old in cached[1:]:  # 지난 빌드의 파일 가운데 이번에 없는 것은 지웁니다
            if old not in texts:
                (out_dir / old).unlink(missing_ok=True)
        for file_name, text in texts.items():
            (out_dir / file_name).write_text(text, encoding="utf-8")
            written.append(out_dir / file_name)
        listing.write_text("\n".join([key, *texts]), encoding="utf-8")
    return written
