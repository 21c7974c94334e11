"""사이트가 내보내는 스타일(docs/assets/*.css)과 스크립트(docs/assets/*.js)의 사본을 줄입니다.

주석은 규칙과 코드마다 왜 그렇게 했는지 적은 것이라 저장소에는 그대로 둡니다. 하지만 독자의 브라우저는 주석도, 줄
머리의 공백도 읽지 않고, 그 바이트는 그 파일을 받는 모든 페이지의 무게에 들어갑니다 (tests/test_page_weight.py 의
1 MB 규칙; 한글 한 글자가 3바이트라 한국어 주석이 특히 무겁습니다).

줄이는 일은 손으로 쓴 규칙 대신 유지되는 압축 도구에 맡깁니다: 스크립트는 rjsmin(jsmin.c 의 규칙을 정규식 하나로
구현: 문자열·정규식 리터럴·템플릿 리터럴을 글로 읽고 주석과 남는 공백만 뺍니다, 이름은 바꾸지 않습니다), 스타일은
rcssmin(같은 저자의 CSS 판). 예전의 줄 단위 규칙은 `var a = 1; /* …` 다음 줄의 `// … */ var b = 2;` 를 통째로 지웠습니다
(tests/test_site_build.py 가 그 모양을 지킵니다). 줄인 스크립트의 문법이 맞는지는 tests/test_site_build.py 가
(브라우저가 읽어 봅니다), 그대로 도는지는 브라우저 테스트가 빌드된 사이트에서 봅니다. 원본과 토큰 하나하나가 같은지는
재지 않습니다 (rjsmin 의 약속에 기댑니다).
"""

from pathlib import Path

import rcssmin
import rjsmin

MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minify(text, suffix):
    """suffix(".css" 또는 ".js") 에 맞는 압축 도구로 줄인 글. 다른 종류는 ValueError 입니다."""
    if suffix not in MINIFIERS:
        raise ValueError(f"suffix 는 {sorted(MINIFIERS)} 가운데 하나여야 합니다: {suffix!r}")
    return MINIFIERS[suffix](text)


def minify_site_assets(site_dir):
    """site_dir/assets/ 의 사이트 스타일과 스크립트(Material 의 것은 stylesheets/, javascripts/ 에 있고 이미 줄여 있어
    건드리지 않습니다)를 줄여 다시 씁니다. {파일 이름: (전, 후) 바이트 수} 를 돌려줍니다."""
    sizes = {}
    for path in sorted(p for p in (Path(site_dir) / "assets").iterdir() if p.suffix in MINIFIERS):
        before = path.read_text(encoding="utf-8")
        after = minify(before, path.suffix)
        path.write_text(after, encoding="utf-8")
        sizes[path.name] = (len(before.encode()), len(after.encode()))
    return sizes
