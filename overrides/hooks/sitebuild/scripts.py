"""사이트의 스크립트(docs/assets/*.js)를 줄 전체가 주석인 줄 없이 내보냅니다.

스타일 파일(stylesheets.py)과 같은 까닭입니다: 스크립트의 주석은 왜 그렇게 짰는지 적은 것이라 저장소에는 그대로
두지만, 독자의 브라우저는 읽지 않고 그 바이트가 페이지 무게에 들어갑니다 (head-explorer.js 53 KB 가운데 12 KB).

지우는 것은 줄 전체가 주석인 줄뿐입니다. 코드 뒤에 붙은 주석과 코드는 한 글자도 바꾸지 않습니다. 자바스크립트를
읽는 파서 없이 이것이 안전한 까닭은 이 사이트의 스크립트가 지키는 두 가지입니다: 여러 줄에 걸친 글(템플릿 리터럴
`…`, 줄 끝의 역슬래시로 이은 문자열)이 없습니다. 그러면 어느 줄도 문자열 한가운데서 시작하지 않으므로, 공백 다음
첫 글자가 // 인 줄은 주석이고, /* 로 시작하는 줄은 주석의 시작입니다 (정규식 리터럴은 * 로 시작할 수 없습니다).
두 가지가 깨진 파일은 고치지 않고 빌드를 멈춥니다 (그때는 유지되는 압축 도구를 들이는 것이 맞습니다).
"""

from pathlib import Path


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


def strip_site_scripts(site_dir):
    """site_dir/assets/ 의 사이트 스크립트(Material 의 것은 javascripts/ 에 있어 건드리지 않습니다)를 다시 씁니다.
    {파일 이름: (전, 후) 바이트 수} 를 돌려줍니다."""
    sizes = {}
    for path in sorted((Path(site_dir) / "assets").glob("*.js")):
        before = path.read_text(encoding="utf-8")
        after = without_comment_lines(before, path.name)
        path.write_text(after, encoding="utf-8")
        sizes[path.name] = (len(before.encode()), len(after.encode()))
    return sizes
