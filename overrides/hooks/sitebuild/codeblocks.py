"""페이지의 python 코드 블록: include 펼치기, 실행하기, 출력 붙이기.

페이지에는 코드가 직접 적혀 있지 않고 `--8<-- "파일.py:절"` 줄만 있습니다. 빌드와 테스트는
똑같은 순서로 다룹니다.

1. pymdownx.snippets 의 전처리기로 include 를 펼칩니다 (mkdocs.yml 과 같은 설정).
2. pytest-codeblocks 의 추출기(extract_from_buffer)로 python 블록을 꺼냅니다.
3. 한 페이지의 블록을 노트북처럼 하나의 이름공간에서 차례로 실행하고 stdout 을 모읍니다.
   경고(warning)는 오류로 다룹니다: 페이지가 경고를 찍는 코드를 가르치면 안 되니까요.
4. 빌드는 각 블록 바로 아래에 그 블록이 찍은 출력을 "실행 결과" 블록으로 붙입니다.
"""

import contextlib
import io
import re
import traceback
import warnings
from dataclasses import dataclass

import markdown
from pytest_codeblocks import extract_from_buffer

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")


class CodeBlockError(RuntimeError):
    pass


def snippet_expander(snippets_config):
    """mkdocs.yml 의 pymdownx.snippets 설정 그대로 include 를 펼치는 함수를 돌려줍니다."""
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": dict(snippets_config)})
    pre = md.preprocessors["snippet"]

    def expand(text):
        pre.seen = set()  # 한 문서 안에서만 중복 include 를 추적하게 초기화합니다
        return "\n".join(pre.run(text.split("\n")))

    return expand


def python_blocks(expanded_markdown):
    """include 를 펼친 마크다운에서 pytest-codeblocks 가 보는 python 블록들."""
    blocks = extract_from_buffer(io.StringIO(expanded_markdown))
    return [b for b in blocks if b.syntax == "python"]


@dataclass
class BlockResult:
    code: str
    output: str


def run_blocks(blocks, label="page"):
    """블록을 하나의 이름공간에서 차례로 실행하고 블록마다 stdout 을 돌려줍니다."""
    namespace = {"__name__": "__codeblocks__"}
    results = []
    for i, block in enumerate(blocks, start=1):
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                warnings.simplefilter("error")
                exec(compile(block.code, f"<{label} 코드 블록 {i}>", "exec"), namespace)
        except Exception as exc:
            raise CodeBlockError(
                f"{label}: 코드 블록 {i} (줄 {block.lineno}) 실행이 실패했습니다.\n"
                + "".join(traceback.format_exception(exc))
            ) from exc
        results.append(BlockResult(block.code, buf.getvalue()))
    return results


def insert_outputs(source_markdown, outputs, title="실행 결과"):
    """원래 마크다운의 i 번째 python 블록 아래에 i 번째 출력을 붙입니다 (출력이 없으면 그대로)."""
    lines = source_markdown.split("\n")
    out = []
    i = 0
    k = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = FENCE.match(line)
        if not m:
            i += 1
            continue
        fence, indent = m.group("fence"), m.group("indent")
        lang = m.group("info").strip()  # pytest-codeblocks 처럼 정보 문자열 전체가 "python" 인 블록만
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            out.append(lines[j])
            j += 1
        if j < len(lines):
            out.append(lines[j])
        if lang == "python":
            if k >= len(outputs):
                raise CodeBlockError("실행한 블록 수와 페이지의 python 블록 수가 다릅니다")
            text = outputs[k].rstrip("\n")
            k += 1
            if text:
                out.append("")
                out.append(f'{indent}``` {{ .text .cell-output title="{title}" }}')
                out.extend(indent + t if t else t for t in text.split("\n"))
                out.append(f"{indent}```")
        i = j + 1
    if k != len(outputs):
        raise CodeBlockError("실행한 블록 수와 페이지의 python 블록 수가 다릅니다")
    return "\n".join(out)
