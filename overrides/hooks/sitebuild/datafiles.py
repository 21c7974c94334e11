"""스니펫이 만든 데이터를 JSON 파일로 내보냅니다 (브라우저의 대화형 도구가 읽습니다).

약속: `snippets/<모듈>.py` 의 최상위 함수 `data_<이름>()` 은 JSON 으로 바꿀 수 있는 dict 를
돌려줍니다. 빌드는 그것을 `.cache/site/data/<모듈>-<이름>.json` 에 쓰고 사이트의
`data/<모듈>-<이름>.json` 으로 내보냅니다. 그래서 페이지의 JavaScript 와 Python 이 같은 숫자를 씁니다.
"""

import contextlib
import importlib
import io
import json
import sys
from pathlib import Path

from . import snippet_graph


class DataError(RuntimeError):
    pass


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
                with contextlib.redirect_stdout(io.StringIO()):
                    module = importlib.import_module(module_name)
                    data = getattr(module, func_name)()
                text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            except Exception as exc:
                raise DataError(f"데이터 {module_name}.{func_name} 를 만들지 못했습니다: "
                                f"{type(exc).__name__}: {exc}") from exc
            path.write_text(text, encoding="utf-8")
            stamp.write_text(key)
        written.append(path)
    return written
