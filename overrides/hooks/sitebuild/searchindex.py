"""검색 색인(search/search_index.json)을 UTF-8 글자 그대로 다시 씁니다.

MkDocs 의 search 플러그인은 색인을 json.dumps 기본값(ensure_ascii=True)으로 써서, 한글 한 글자가
"\\uac00" 처럼 6바이트가 됩니다. 이 사이트의 색인은 거의 한글이라 파일이 UTF-8 로 쓸 때의 1.7배쯤 됩니다
(265 KB → 157 KB). 색인은 모든 페이지가 검색 창을 열 준비로 내려받으므로 모든 페이지의 무게에 들어갑니다.
JSON 은 UTF-8 이 기본이고 Material 의 검색 작업자는 fetch 로 받아 JSON 으로 읽으므로, 같은 값을 글자 그대로
적어도 읽는 쪽에서는 아무것도 달라지지 않습니다 (tests/test_site_build.py 가 값이 같은지 확인합니다).
gzip 으로 보내는 서버에서는 차이가 작지만, 압축하지 않고 보내는 곳에서는 그대로 100 KB 넘게 줄어듭니다.

다시 쓰면서 glue 가 긴 요소와 조사 사이에 넣은 WORD JOINER(U+2060)도 지웁니다: 화면의 줄바꿈만을 위한 글자라
검색어와 결과 미리보기에는 없어야 합니다 ("어텐션(cross-attention)에서" 가 그대로 찾아지게).

찾을 글이 아닌 것도 뺍니다 (issue 39 §8: 색인이 156 → 212 KB 로 커져 모든 페이지의 무게를 늘렸습니다). 뺀 것은 모두
다른 자리에 그대로 있거나 찾을 일이 없는 것입니다. 글의 문단과 목록, 접힌 풀이의 글은 그대로 둡니다. 문단 태그(<p>,
<ul> …)도 그대로입니다: Material 의 검색 작업자는 맨 바깥 태그로 글을 덩어리로 나눠, 검색어가 든 덩어리만 미리보기로
보여 줍니다 (태그를 빼면 절 전체가 한 덩어리가 되어 미리보기가 절 전체가 됩니다).
- 각주 목록: 페이지 끝의 <ol> 로, 항목이 되돌아가기 표시(↩)로 끝납니다. 같은 논문은 참고 문헌 페이지가 담고 있습니다.
- "다음 장: … →" 문단: 다음 페이지로 가는 길잡이 링크. 실습 노트북 첫머리의 "노트북 내려받기 (…)" 줄: 내려받기 단추의 글.
- 접힌 풀이의 제목 "정답과 풀이": 모든 확인 문제에 되풀이되는 단추 글.
- 연달아 있는 공백: 하나로.
"""

import json
import re
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


# 각주 목록 (python-markdown 의 footnotes 가 만든 것을 search 플러그인이 글로 옮긴 모양): 항목마다 ↩ 로 끝납니다
_FOOTNOTES = re.compile(r"<ol>(?:\s*<li>\s*(?:<p>)?(?:(?!</li>).)*?↩+\s*(?:</p>)?\s*</li>)+\s*</ol>", re.S)
_NEXT_PAGE = re.compile(r"<p>(?:다음 장: [^<]*|노트북 내려받기 \([^)<]*\)[^<]*)</p>")
_ANSWER_LABEL = re.compile(r"(?<=>)\s*정답과 풀이\s*(?=<)")
_SPACES = re.compile(r"\s{2,}")


def compact_text(text):
    """색인의 글 하나에서 찾을 글이 아닌 것(위의 목록)을 뺍니다. 나머지 글자는 그대로입니다 (공백만 하나로)."""
    text = _FOOTNOTES.sub(" ", text)
    text = _NEXT_PAGE.sub(" ", text)
    text = _ANSWER_LABEL.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def rewrite_utf8(site_dir):
    """site_dir/search/search_index.json 을 같은 값(WORD JOINER 와 compact_text 가 빼는 것만 뺀)의 UTF-8 JSON 으로
    바꿔 씁니다. (전, 후) 바이트 수를 돌려줍니다.

    색인이 없으면 (search 플러그인을 끈 빌드) 아무것도 하지 않고 None 을 돌려줍니다.
    """
    path = Path(site_dir) / "search" / "search_index.json"
    if not path.is_file():
        return None
    before = path.read_bytes()
    data = _without_joiners(json.loads(before))
    for doc in data.get("docs", []):
        if isinstance(doc.get("text"), str):
            doc["text"] = compact_text(doc["text"])
    after = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if after != before:
        path.write_bytes(after)
    return len(before), len(after)
