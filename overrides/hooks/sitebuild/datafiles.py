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

import json
import re
import sys
from pathlib import Path

from . import cache, snippets

PART = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class DataError(RuntimeError):
    pass


def _call(snippets_dir, entry):
    return getattr(snippets.import_snippet(snippets_dir, entry.module), entry.func)()


def _dump(data):
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _parts(name, parts):
    """datafiles_* 가 돌려준 값 → {파일 이름: JSON 글}. 약속을 어기면 TypeError/ValueError."""
    if not isinstance(parts, dict) or not parts:
        raise TypeError(f"{{조각 이름: dict}} 를 돌려줘야 합니다: {type(parts).__name__} {len(parts or ())}개")
    bad = [p for p in parts if not (isinstance(p, str) and PART.fullmatch(p))]
    if bad:
        raise ValueError(f"조각 이름은 영문 소문자·숫자·하이픈이어야 합니다: {bad[:3]}")
    return {f"{name}-{part}.json": _dump(data) for part, data in parts.items()}


def build_data(snippets_dir, out_dir, environment, names=None):
    """data_* 와 datafiles_* 를 모두 JSON 파일로 (캐시가 맞으면 부르지 않고). 쓴(또는 그대로 둔) 파일 경로들.

    names: 이 이름("<모듈>-<이름>")들만 (테스트가 빌드와 같은 캐시로 데이터 하나를 읽을 때). None 이면 모두.
    """
    snippets_dir = Path(snippets_dir)
    store = cache.Cache.for_code(out_dir, environment, sys.modules[__name__], snippets, cache)
    written = []
    found = [(e, False) for e in snippets.discover(snippets_dir, "data").values()]
    found += [(e, True) for e in snippets.discover(snippets_dir, "datafiles").values()]
    found = [(e, many) for e, many in found if names is None or e.name in names]
    for entry, many in found:
        stamp = f"{entry.module}.{entry.func}"  # 도장 이름: data_x 와 datafiles_x 는 앞부분이 같은 파일을 만듭니다
        key = store.key(entry.func, snippets.content_hash({entry.module}, snippets_dir))
        hit = store.files(stamp, key)
        if hit is not None:
            written += hit
            continue
        try:
            result = _call(snippets_dir, entry)
            texts = _parts(entry.name, result) if many else {f"{entry.name}.json": _dump(result)}
        except Exception as exc:
            raise DataError(
                f"데이터 {entry.module}.{entry.func} 를 만들지 못했습니다: {type(exc).__name__}: {exc}"
            ) from exc
        _, old = store.previous(stamp)
        for stale in (old or {}).get("files", ()) if isinstance(old, dict) else ():
            if stale not in texts:  # 지난 빌드의 조각 가운데 이번에 없는 것은 지웁니다
                (store.folder / stale).unlink(missing_ok=True)
        paths = []
        for file_name, text in texts.items():
            path = store.folder / file_name
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        store.put_files(stamp, key, paths)
        written += paths
    return written
