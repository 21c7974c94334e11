"""검색 색인(search/search_index.json)을 UTF-8 글자 그대로 다시 씁니다.

MkDocs 의 search 플러그인은 색인을 json.dumps 기본값(ensure_ascii=True)으로 써서, 한글 한 글자가
"\\uac00" 처럼 6바이트가 됩니다. 이 사이트의 색인은 거의 한글이라 파일이 UTF-8 로 쓸 때의 1.7배쯤 됩니다
(265 KB → 157 KB). 색인은 모든 페이지가 검색 창을 열 준비로 내려받으므로 모든 페이지의 무게에 들어갑니다.
JSON 은 UTF-8 이 기본이고 Material 의 검색 작업자는 fetch 로 받아 JSON 으로 읽으므로, 같은 값을 글자 그대로
적어도 읽는 쪽에서는 아무것도 달라지지 않습니다 (tests/test_site_build.py 가 값이 같은지 확인합니다).
gzip 으로 보내는 서버에서는 차이가 작지만, 압축하지 않고 보내는 곳에서는 그대로 100 KB 넘게 줄어듭니다.

다시 쓰면서 glue 가 긴 요소와 조사 사이에 넣은 WORD JOINER(U+2060)도 지웁니다: 화면의 줄바꿈만을 위한 글자라
검색어와 결과 미리보기에는 없어야 합니다 ("어텐션(cross-attention)에서" 가 그대로 찾아지게).
"""

import json
from pathlib import Path

from .glue import JOINER


def _without_joiners(value):
    if isinstance(value, str):
        return value.replace(JOINER, "")
    if isinstance(value, list):
        return [_without_joiners(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_joiners(v) for k, v in value.items()}
    return value


def rewrite_utf8(site_dir):
    """site_dir/search/search_index.json 을 같은 값(WORD JOINER 만 뺀)의 UTF-8 JSON 으로 바꿔 씁니다.
    (전, 후) 바이트 수를 돌려줍니다.

    색인이 없으면 (search 플러그인을 끈 빌드) 아무것도 하지 않고 None 을 돌려줍니다.
    """
    path = Path(site_dir) / "search" / "search_index.json"
    if not path.is_file():
        return None
    before = path.read_bytes()
    data = _without_joiners(json.loads(before))
    after = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if after != before:
        path.write_bytes(after)
    return len(before), len(after)
