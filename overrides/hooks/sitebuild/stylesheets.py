"""사이트의 스타일 파일(docs/assets/*.css)을 주석 없이 내보냅니다.

site.css 의 주석은 규칙마다 왜 그렇게 했는지 적은 것이라 저장소에는 그대로 둡니다. 하지만 독자의 브라우저는 주석을
읽지 않고, 스타일은 모든 페이지가 받으므로 주석의 바이트(site.css 34 KB 가운데 11 KB, 한글 한 글자가 3바이트)가
모든 페이지의 무게에 들어갑니다 (tests/test_page_weight.py 의 1 MB 규칙). 그래서 빌드된 사이트의 사본에서만 주석을
지웁니다. 따옴표 안의 글(content: "/* …")은 주석이 아니므로 글과 주석을 한 정규식으로 함께 읽어 글은 그대로 둡니다
(CSS 에는 JavaScript 의 정규식 리터럴 같은 것이 없어서, 글과 주석만 구별하면 됩니다).
"""

import re
from pathlib import Path

_STRING_OR_COMMENT = re.compile(r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|/\*.*?\*/""", re.S)


def without_comments(css):
    """CSS 글에서 주석만 지우고, 주석이 있던 줄이 비면 그 줄도 지웁니다. 따옴표 안의 글은 그대로입니다."""
    text = _STRING_OR_COMMENT.sub(lambda m: m.group(1) or "", css)
    if "/*" in _STRING_OR_COMMENT.sub(lambda m: "" if m.group(1) else m.group(0), text):
        raise ValueError("CSS 에 닫히지 않은 주석이 있습니다")
    return "\n".join(line for line in text.splitlines() if line.strip()) + "\n"


def strip_site_css(site_dir):
    """site_dir/assets/ 의 사이트 스타일 파일(Material 의 것은 이미 줄여 있어 건드리지 않습니다)을 주석 없이 다시
    씁니다. {파일 이름: (전, 후) 바이트 수} 를 돌려줍니다."""
    sizes = {}
    for path in sorted((Path(site_dir) / "assets").glob("*.css")):
        before = path.read_text(encoding="utf-8")
        after = without_comments(before)
        path.write_text(after, encoding="utf-8")
        sizes[path.name] = (len(before.encode()), len(after.encode()))
    return sizes
