"""페이지의 python 코드 블록: include 펼치기 → 꺼내기 → 실행하기 → 출력 붙이기.

페이지에는 코드가 직접 적혀 있지 않고 `--8<-- "파일.py:절"` 줄만 있습니다. 빌드와 테스트가 같은
함수로 같은 순서를 밟습니다.

1. `snippet_expander`: pymdownx.snippets 의 전처리기로 include 를 펼칩니다 (mkdocs.yml 과 같은 설정).
2. `python_blocks`: pytest-codeblocks 의 추출기로 python 블록을 꺼냅니다. 페이지를 읽는(parse) 곳은
   여기 한 군데이고, 블록의 위치도 추출기가 알려 준 줄 번호를 그대로 씁니다.
3. `run_blocks`: 한 페이지의 블록을 노트북처럼 하나의 이름공간에서 차례로 실행하고 stdout 을 모읍니다.
   경고는 오류로 다룹니다 (페이지가 경고를 내는 코드를 가르치면 안 되니까요).
4. `with_outputs`: 펼친 마크다운에서 각 블록의 닫는 펜스 바로 아래에 ```` ```output ```` 펜스를 넣습니다.
   그 펜스를 HTML 로 바꾸는 일은 pymdownx.superfences 의 사용자 펜스(fences.py)가 맡습니다.
"""

import contextlib
import io
import traceback
import warnings
from dataclasses import dataclass

import markdown
import numpy as np
from pytest_codeblocks import extract_from_buffer

OUTPUT_FENCE = "output"  # fences.py 가 pymdownx.superfences 에 등록하는 펜스 이름


class CodeBlockError(RuntimeError):
    pass


def snippet_expander(snippets_config):
    """mkdocs.yml 의 pymdownx.snippets 설정 그대로 include 를 펼치는 함수를 돌려줍니다.

    빠진 파일이나 절은 (check_paths: true 이므로) pymdownx 가 SnippetMissingError 로 알립니다.
    """
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": dict(snippets_config)})
    pre = md.preprocessors["snippet"]

    def expand(text):
        pre.seen = set()  # 한 문서 안에서만 중복 include 를 추적하게 초기화합니다
        return "\n".join(pre.run(text.split("\n")))

    return expand


def python_blocks(expanded_markdown):
    """include 를 펼친 마크다운에서 pytest-codeblocks 가 보는 python 블록들 (정보 문자열이 정확히 python)."""
    blocks = extract_from_buffer(io.StringIO(expanded_markdown))
    return [b for b in blocks if b.syntax == "python"]


@dataclass
class BlockResult:
    code: str
    output: str


def run_blocks(blocks, label="page"):
    """블록을 하나의 이름공간에서 차례로 실행하고, 블록마다 BlockResult(코드, 찍힌 stdout)를 돌려줍니다.

    numpy 출력 설정(np.set_printoptions)은 페이지 안에서만 유효합니다: 한 페이지가 바꾼 설정이
    다음 페이지의 출력 모양을 바꾸지 않게, 끝나면 되돌립니다.
    """
    namespace = {"__name__": "__codeblocks__"}
    outputs = []
    with np.printoptions():
        for i, block in enumerate(blocks, start=1):
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                    warnings.simplefilter("error")
                    exec(compile(block.code, f"<{label} 코드 블록 {i}>", "exec"), namespace)
            except Exception as exc:
                raise CodeBlockError(
                    f"{label}: 코드 블록 {i} (펼친 마크다운의 {block.lineno}번째 줄) 실행이 실패했습니다.\n"
                    + "".join(traceback.format_exception(exc))
                ) from exc
            outputs.append(BlockResult(block.code, buf.getvalue()))
    return outputs


def with_outputs(expanded_markdown, blocks, outputs):
    """각 python 블록의 닫는 펜스 아래에 그 블록의 출력을 ```output 펜스로 넣습니다 (출력이 없으면 그대로).

    블록의 위치는 추출기의 줄 번호(여는 펜스, 1부터)와 코드 줄 수로 정합니다. 그 자리에 여는 펜스와
    닫는 펜스가 정말 있는지 확인하므로, 추출기의 줄 번호 약속이 바뀌면 조용히 엉뚱한 곳에 붙지 않고
    오류가 납니다 (tests/test_contracts.py 도 이 약속을 따로 확인합니다).
    코드 블록에는 data-search-exclude 를 붙여 검색 색인에서 뺍니다: 색인이 몇 배로 커지고 결과도
    코드 조각으로 어지러워집니다. 본문의 `인라인 코드`는 그대로 찾을 수 있습니다.
    """
    if len(blocks) != len(outputs):
        raise CodeBlockError(f"블록 {len(blocks)}개에 출력 {len(outputs)}개가 왔습니다")
    lines = expanded_markdown.split("\n")
    after = {}  # 닫는 펜스의 줄 번호(0부터) → 그 아래에 넣을 줄들
    for block, output in zip(blocks, outputs):
        start = block.lineno - 1
        end = start + block.code.count("\n") + 1
        opening = lines[start] if start < len(lines) else ""
        indent = opening[: len(opening) - len(opening.lstrip())]
        ticks = opening.lstrip()[: len(opening.lstrip()) - len(opening.lstrip().lstrip("`"))]
        if len(ticks) < 3 or end >= len(lines) or not lines[end].strip().startswith(ticks):
            raise CodeBlockError(f"{start + 1}번째 줄의 코드 블록 위치를 찾지 못했습니다 "
                                 "(pytest-codeblocks 의 줄 번호 약속이 바뀌었을 수 있습니다)")
        lines[start] = f'{indent}{ticks}{{.python data-search-exclude=""}}'  # superfences 의 속성 문법
        text = output.rstrip("\n")
        if text:
            fence = "`" * max(3, _longest_backtick_run(text) + 1)
            body = [indent + t if t else t for t in text.split("\n")]
            after[end] = ["", f"{indent}{fence}{OUTPUT_FENCE}", *body, f"{indent}{fence}"]
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        out.extend(after.get(i, ()))
    return "\n".join(out)


def _longest_backtick_run(text):
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return longest
