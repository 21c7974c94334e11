"""스니펫이 만든 데이터를 JSON 파일로 내보냅니다 (브라우저의 대화형 도구가 읽습니다).

약속 두 가지:
- `snippets/<모듈>.py` 의 최상위 함수 `data_<이름>()` 은 JSON 으로 바꿀 수 있는 dict 를 돌려줍니다.
  빌드는 그것을 `.cache/site/data/<모듈>-<이름>.json` 에 쓰고 사이트의 `data/<모듈>-<이름>.json` 으로
  내보냅니다.
- `datafiles_<이름>()` 은 작은 파일 여러 개를 돌려줍니다: {조각: dict}. 조각마다
  `data/<모듈>-<이름>-<조각>.json` 이 됩니다 (조각 이름은 영문 소문자·숫자·하이픈). 독자가 필요할 때만
  받는 데이터(헤드 탐색기의 층마다 q·k 벡터)를 파일 하나에 몰아넣지 않으려는 것입니다.
그래서 페이지의 JavaScript 와 Python 이 같은 숫자를 씁니다.

캐시에 없는 데이터는 빌드 프로세스가 아니라 새 파이썬 프로세스에서, 모듈마다 하나씩 만듭니다 (fresh.call). 데이터
함수는 모델을 읽습니다: 디코더의 데이터(next_token_data)는 1 GB 가까이, 헤드 탐색기는 인코더 둘을. 빌드 프로세스에서
부르면 그 힙(glibc 가 돌려주지 않는 풀린 메모리와 lru_cache 가 든 모델)이 빌드가 끝날 때까지 남아, 뒤이은 페이지
실행·그림 작업 프로세스와 겹쳐 빌드의 최대 RSS 를 3 GB 넘게 올렸습니다. 모듈마다 따로 도는 것은 한 모듈의 함수들이
import 를 함께 쓰고, 다른 모듈이 남긴 모델과 겹치지 않게 하려는 것입니다. 캐시 열쇠, 도장, 파일 쓰기는 여기(부르는
쪽)에서 합니다: 새 프로세스는 JSON 글만 돌려줍니다.
"""

import json
import re
import sys
import traceback
from pathlib import Path

import disk_cache

from . import fresh, snippets

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


def compute_module(snippets_dir, entries):
    """새 프로세스에서 (fresh.call): 한 모듈의 데이터 함수들 → [("ok", {파일 이름: JSON 글}) 또는 ("error", 메시지)].

    entries: [(Entry, datafiles 인가)], 모두 같은 모듈. 실패한 함수 뒤의 함수는 부르지 않습니다 (빌드가 거기서 멈춥니다).
    """
    results = []
    for entry, many in entries:
        try:
            result = _call(snippets_dir, entry)
            results.append(("ok", _parts(entry.name, result) if many else {f"{entry.name}.json": _dump(result)}))
        except Exception as exc:
            failed = f"데이터 {entry.module}.{entry.func} 를 만들지 못했습니다: {type(exc).__name__}: {exc}"
            results.append(("error", f"{failed}\n{traceback.format_exc()[-3000:]}"))
            break
    return results


def build_data(snippets_dir, out_dir, environment, names=None):
    """data_* 와 datafiles_* 를 모두 JSON 파일로 (캐시가 맞으면 부르지 않고). 쓴(또는 그대로 둔) 파일 경로들.

    캐시에 없는 것은 모듈마다 새 프로세스 하나에서 만듭니다 (compute_module). 실패는 함수 이름을 댄 DataError 입니다.
    names: 이 이름("<모듈>-<이름>")들만 (테스트가 빌드와 같은 캐시로 데이터 하나를 읽을 때). None 이면 모두.
    """
    snippets_dir = Path(snippets_dir)
    store = disk_cache.Cache.for_code(out_dir, environment, sys.modules[__name__], fresh, snippets, disk_cache)
    found = [(e, False) for e in snippets.discover(snippets_dir, "data").values()]
    found += [(e, True) for e in snippets.discover(snippets_dir, "datafiles").values()]
    found = [(e, many) for e, many in found if names is None or e.name in names]
    written, missing = {}, {}
    for entry, many in found:
        stamp = f"{entry.module}.{entry.func}"  # 도장 이름: data_x 와 datafiles_x 는 앞부분이 같은 파일을 만듭니다
        key = store.key(entry.func, snippets.content_hash({entry.module}, snippets_dir))
        hit = store.files(stamp, key)
        if hit is not None:
            written[stamp] = hit
        else:
            missing.setdefault(entry.module, []).append((entry, many, stamp, key))
    for module, todo in missing.items():
        try:
            results = fresh.call("datafiles", "compute_module", str(snippets_dir), [(e, m) for e, m, _, _ in todo])
        except fresh.ProcessDied as exc:
            raise DataError(f"데이터 모듈 {module} 의 함수들을 돌리던 {exc}") from exc
        for (entry, _, stamp, key), (status, value) in zip(todo, results):
            if status == "error":
                raise DataError(value)
            written[stamp] = _store(store, stamp, key, value)
    return [path for entry, _ in found for path in written[f"{entry.module}.{entry.func}"]]


def _store(store, stamp, key, texts):
    """JSON 글들을 캐시 폴더에 쓰고 도장을 남깁니다 (지난 빌드의 조각 가운데 이번에 없는 것은 지웁니다). 쓴 경로들."""
    _, old = store.previous(stamp)
    for stale in (old or {}).get("files", ()) if isinstance(old, dict) else ():
        if stale not in texts:
            (store.folder / stale).unlink(missing_ok=True)
    paths = []
    for file_name, text in texts.items():
        path = store.folder / file_name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    store.put_files(stamp, key, paths)
    return paths
