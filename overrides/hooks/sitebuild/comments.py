"""사이트가 내보내는 스타일(docs/assets/*.css)과 스크립트(docs/assets/*.js)의 사본에서 주석을 뺍니다.

주석은 규칙과 코드마다 왜 그렇게 했는지 적은 것이라 저장소에는 그대로 둡니다. 하지만 독자의 브라우저는 주석을 읽지
않고, 그 바이트는 그 파일을 받는 모든 페이지의 무게에 들어갑니다 (tests/test_page_weight.py 의 1 MB 규칙;
site.css 37 KB 가운데 11 KB, head-explorer.js 53 KB 가운데 14 KB 가 주석이었습니다, 한글 한 글자가 3바이트).

CSS: 따옴표 안의 글(content: "/* …")은 주석이 아니므로 글과 주석을 한 정규식으로 함께 읽어 글은 그대로 둡니다
(CSS 에는 JavaScript 의 정규식 리터럴 같은 것이 없어서, 글과 주석만 구별하면 됩니다).

스크립트: 지우는 것은 줄 전체가 주석인 줄뿐이고, 코드 뒤에 붙은 주석과 코드는 한 글자도 바꾸지 않습니다. 파서 없이
이것이 안전한 까닭은 이 사이트의 스크립트가 지키는 두 가지입니다: 여러 줄에 걸친 글(템플릿 리터럴 `…`, 줄 끝의
역슬래시로 이은 문자열)이 없습니다. 그러면 어느 줄도 문자열 한가운데서 시작하지 않으므로, 공백 다음 첫 글자가 // 인
줄은 주석이고, /* 로 시작하는 줄은 주석의 시작입니다 (정규식 리터럴은 * 로 시작할 수 없습니다). 두 가지가 깨진
파일은 고치지 않고 빌드를 멈춥니다 (그때는 유지되는 압축 도구를 들이는 것이 맞습니다).
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


class ScriptShapeError(ValueError):
    pass


def without_comment_lines(js, name="script"):
    """줄 전체가 주석인 줄(// …, 그리고 줄 머리에서 시작해 줄 끝에서 닫히는 /* … */)을 지운 글."""
    if "`" in js:
        raise ScriptShapeError(f"{name}: 템플릿 리터럴(`)이 있어 줄 단위로 주석을 지울 수 없습니다")
    lines = js.split("\n")
    if any(line.endswith("\\") for line in lines):
        raise ScriptShapeError(f"{name}: 역슬래시로 이은 줄이 있어 줄 단위로 주석을 지울 수 없습니다")
    out, i = [], 0
    while i < len(lines):
        head = lines[i].lstrip()
        if head.startswith("//"):
            i += 1
            continue
        if head.startswith("/*"):
            # 주석은 처음 나오는 */ 에서 닫힙니다. 그 */ 가 줄 끝이면 그 줄까지 지우고, 아니면(뒤에 코드) 그대로 둡니다.
            j = i
            rest = head[2:]
            while "*/" not in rest and j + 1 < len(lines):
                j += 1
                rest = lines[j]
            if "*/" in rest and rest.rstrip().endswith("*/") and rest.index("*/") == len(rest.rstrip()) - 2:
                i = j + 1
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def strip_site_assets(site_dir):
    """site_dir/assets/ 의 사이트 스타일과 스크립트(Material 의 것은 stylesheets/, javascripts/ 에 있고 이미 줄여 있어
    건드리지 않습니다)를 주석 없이 다시 씁니다. {파일 이름: (전, 후) 바이트 수} 를 돌려줍니다."""
    strip = {".css": lambda text, name: without_comments(text), ".js": without_comment_lines}
    sizes = {}
    for path in sorted(p for p in (Path(site_dir) / "assets").iterdir() if p.suffix in strip):
        before = path.read_text(encoding="utf-8")
        after = strip[path.suffix](before, path.name)
        path.write_text(after, encoding="utf-8")
        sizes[path.name] = (len(before.encode()), len(after.encode()))
    return sizes
