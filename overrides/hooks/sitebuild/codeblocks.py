"""페이지의 python 코드 블록: include 펼치기 → 꺼내기 → 실행하기 → 출력 붙이기.

페이지에는 코드가 직접 적혀 있지 않고 `--8<-- "파일.py:절"` 줄만 있습니다. 빌드와 테스트가 같은
함수로 같은 순서를 밟습니다.

1. `SnippetExpander`: pymdownx.snippets 의 전처리기로 include 를 펼칩니다 (mkdocs.yml 과 같은 설정). 펼친 줄마다
   어디서 왔는지(스니펫 파일과 줄, 또는 페이지의 줄)도 기억합니다. 전처리기의 문서화된 확장 지점
   `process_snippet_lines` 에서 가져온 줄들에 표시를 달았다가 펼친 뒤 떼어 냅니다.
2. `page_blocks`: pytest-codeblocks 의 추출기로 python 블록을 꺼냅니다. 페이지를 읽는(parse) 곳은
   여기 한 군데이고, 블록의 위치도 추출기가 알려 준 줄 번호를 그대로 씁니다.
3. `run_blocks`: 한 페이지의 블록을 노트북처럼 하나의 이름공간에서 차례로 실행하고 stdout 을 모읍니다.
   블록은 include 마다 그 스니펫의 파일 이름과 줄 번호로 컴파일합니다. 그래서 실패하면 traceback 이
   `snippets/<파일>.py` 의 그 줄을 가리키고, 오류의 첫 줄은 include 가 있는 페이지의 줄(`docs/<장>.md:<줄>`)을 말합니다.
   경고는 오류로 다룹니다 (페이지가 경고를 내는 코드를 가르치면 안 되니까요).
4. `with_outputs`: 펼친 마크다운에서 각 블록의 닫는 펜스 바로 아래에 ```` ```output ```` 펜스를 넣습니다.
   그 펜스를 HTML 로 바꾸는 일은 pymdownx.superfences 의 사용자 펜스(fences.py)가 맡습니다.
"""

import ast
import contextlib
import io
import os
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import markdown
import numpy as np
from pymdownx.snippets import SnippetExtension, SnippetPreprocessor
from pytest_codeblocks import extract_from_buffer

OUTPUT_FENCE = "output"  # fences.py 가 pymdownx.superfences 에 등록하는 펜스 이름
_TAG = "\x1f"  # 펼치는 동안 줄 끝에 붙이는 출처 표시 (ASCII 단위 구분자: 원고와 코드에 나오지 않는 글자)


class CodeBlockError(RuntimeError):
    pass


class _TracingSnippets(SnippetPreprocessor):
    """pymdownx.snippets 의 전처리기 그대로에, 가져온 줄마다 출처 (파일, 줄 번호) 를 표시합니다.

    `process_snippet_lines` 는 pymdownx 가 "고른 줄(파일 전체, 줄 범위, 절)을 넣기 전에" 부르는 확장 지점입니다.
    고른 줄의 원래 줄 번호는 같은 고르기(`select_snippet_lines`)를 줄 번호를 앞에 붙인 줄들에 다시 돌려 얻습니다:
    절 표시 줄을 빼는 규칙과 dedent 를 pymdownx 의 것 그대로 씁니다 (tests/test_contracts.py 가 지킵니다).
    """

    origins = None  # 표시 번호 → (파일, 줄). SnippetExpander 가 펼칠 때마다 새 목록을 넣습니다.

    def process_snippet_lines(self, lines, target):
        lines = super().process_snippet_lines(lines, target)
        if target.get("is_url") or self.origins is None:
            return lines
        numbered = [f"{i}{_TAG}{line}" for i, line in enumerate(self.read_lines(target["snippet"]), start=1)]
        picked = [int(line.split(_TAG, 1)[0].strip()) for line in self.select_snippet_lines(numbered, target)]
        if len(picked) != len(lines):
            raise CodeBlockError(
                f"{target['snippet']}: 가져온 줄의 원래 줄 번호를 찾지 못했습니다 "
                "(pymdownx.snippets 가 줄을 고르는 방식이 바뀌었을 수 있습니다)"
            )
        notation = self.get_syntax_mask(lines, is_section=target.get("section") is not None)
        out = []
        for line, number, is_notation in zip(lines, picked, notation):
            if is_notation or _TAG in line:
                out.append(line)
            else:
                self.origins.append((target["snippet"], number))
                out.append(f"{line}{_TAG}{len(self.origins) - 1}")
        return out


class SnippetExpander:
    """mkdocs.yml 의 pymdownx.snippets 설정 그대로 include 를 펼칩니다. 함수처럼 부르면 펼친 글만 돌려줍니다.

    빠진 파일이나 절은 (check_paths: true 이므로) pymdownx 가 SnippetMissingError 로 알립니다.
    """

    def __init__(self, snippets_config):
        # 설정(기본값 포함)은 pymdownx 의 확장이 읽고, 전처리기만 출처를 기억하는 것으로 씁니다.
        self.pre = _TracingSnippets(SnippetExtension(**dict(snippets_config)).getConfigs(), markdown.Markdown())

    def __call__(self, text):
        return self.expand(text)[0]

    def expand(self, text, page_file=None):
        """(펼친 글, 줄마다의 출처). 출처는 (스니펫 파일 경로, 줄) 이거나, 페이지의 줄이면 (page_file, 줄), 모르면 None."""
        lines = text.split("\n")
        origins = self.pre.origins = []
        tagged = []
        for number, (line, is_notation) in enumerate(zip(lines, self.pre.get_syntax_mask(lines)), start=1):
            if is_notation or _TAG in line:
                tagged.append(line)
            else:
                origins.append((page_file, number))
                tagged.append(f"{line}{_TAG}{len(origins) - 1}")
        try:
            expanded = self.pre.run(tagged)
        finally:
            self.pre.origins = None
        out, where = [], []
        for line in expanded:
            head, tag, index = line.rpartition(_TAG)
            if tag and index.isdigit():
                out.append(head)
                where.append(origins[int(index)])
            else:
                out.append(line)
                where.append(None)
        return "\n".join(out), where


@dataclass
class Block:
    """펼친 페이지의 python 블록 하나."""

    code: str
    lineno: int  # 펼친 마크다운에서 여는 펜스의 줄 (1부터): with_outputs 가 출력을 붙일 자리
    page: str = "page"  # 보여 줄 페이지 이름 (docs/<장>.md)
    page_line: int | None = None  # 원래 페이지에서 블록의 첫 줄(include 줄)
    origins: list = field(default_factory=list)  # 코드 줄마다 (파일, 줄) 또는 None

    @property
    def where(self):
        return f"{self.page}:{self.page_line}" if self.page_line else self.page


def python_blocks(expanded_markdown):
    """include 를 펼친 마크다운에서 pytest-codeblocks 가 보는 python 블록들 (정보 문자열이 정확히 python)."""
    blocks = extract_from_buffer(io.StringIO(expanded_markdown))
    return [b for b in blocks if b.syntax == "python"]


def page_blocks(expander, text, page="page", page_file=None):
    """페이지 원고 → (펼친 글, [Block]). page 는 오류에 보일 이름, page_file 은 원고 파일 경로 (출처로 씁니다)."""
    expanded, where = expander.expand(text, page_file or page)
    blocks = []
    for b in python_blocks(expanded):
        fence = b.lineno - 1
        origins = where[fence + 1 : fence + 1 + b.code.count("\n")]
        opening = where[fence]
        page_line = opening[1] + 1 if opening else None
        blocks.append(Block(b.code, b.lineno, page, page_line, origins))
    return expanded, blocks


@dataclass
class BlockResult:
    code: str
    output: str


def _segments(block):
    """블록의 코드를 출처 파일이 이어지는 조각들로: [(파일 이름, 조각 코드, 조각 줄 → 파일 줄, 줄마다 들여쓰기 차이)]."""
    lines = block.code.split("\n")[:-1] if block.code.endswith("\n") else block.code.split("\n")
    origins = list(block.origins) + [None] * (len(lines) - len(block.origins))
    pieces = []
    for line, origin in zip(lines, origins):
        file = origin[0] if origin else None
        if pieces and (file is None or pieces[-1][0] in (None, file)):
            if pieces[-1][0] is None:
                pieces[-1][0] = file
            pieces[-1][1].append((line, origin))
        else:
            pieces.append([file, [(line, origin)]])
    out = []
    for file, items in pieces:
        code = "".join(line + "\n" for line, _ in items)
        if file is None:
            out.append((f"<{block.where}>", code, None, None))
            continue
        source = _file_lines(file)
        linemap, shift = {}, {}
        for i, (line, origin) in enumerate(items, start=1):
            if origin:
                linemap[i] = origin[1]
                original = source[origin[1] - 1] if origin[1] - 1 < len(source) else line
                shift[i] = (len(original) - len(original.lstrip())) - (len(line) - len(line.lstrip()))
        # 빈 줄처럼 출처가 없는 줄은 앞 줄 다음 줄로
        last = 0
        for i in range(1, len(items) + 1):
            last = linemap.setdefault(i, last + 1)
            shift.setdefault(i, 0)
        out.append((file, code, linemap, shift))
    return out


def _file_lines(path):
    try:
        return Path(path).read_text(encoding="utf-8").split("\n")
    except OSError:
        return []


def compile_segment(file, code, linemap, shift):
    """조각 코드를 그 파일 이름과 원래 줄 번호(와 들여쓰기)로 컴파일합니다."""
    try:
        tree = ast.parse(code, filename=file)
    except SyntaxError as exc:
        if linemap and exc.lineno in linemap:
            exc.lineno = linemap[exc.lineno]
            if getattr(exc, "end_lineno", None) in linemap:
                exc.end_lineno = linemap[exc.end_lineno]
        raise
    if linemap:
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) is not None:
                start, end = node.lineno, getattr(node, "end_lineno", None) or node.lineno
                node.lineno = linemap.get(start, start)
                node.end_lineno = linemap.get(end, end)
                if getattr(node, "col_offset", None) is not None:
                    node.col_offset += shift.get(start, 0)
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += shift.get(end, 0)
    return compile(tree, file, "exec")


def _display(path):
    """오류에 보일 경로: 현재 폴더(저장소) 아래이면 상대 경로 (snippets/chapters/four_steps.py)."""
    path = str(path)
    if path.startswith("<"):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _failure(block, index, exc, files):
    """실패 메시지: 페이지의 자리, 실패한 스니펫 줄, 이 모듈의 틀을 뺀 traceback."""
    te = traceback.TracebackException.from_exception(exc)
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename != __file__])
    inside = [f for f in te.stack if f.filename in files]
    if isinstance(exc, SyntaxError) and exc.filename in files:
        line = f"{_display(exc.filename)}:{exc.lineno}"
    elif inside:
        line = f"{_display(inside[-1].filename)}:{inside[-1].lineno}"
    else:
        line = None
    head = f"{block.where}: 코드 블록 {index} 실행이 실패했습니다" + (f" ({line})" if line else "")
    return head + "\n" + "".join(te.format())


def run_blocks(blocks):
    """블록을 하나의 이름공간에서 차례로 실행하고, 블록마다 BlockResult(코드, 찍힌 stdout)를 돌려줍니다.

    numpy 출력 설정(np.set_printoptions)은 페이지 안에서만 유효합니다: 한 페이지가 바꾼 설정이
    다음 페이지의 출력 모양을 바꾸지 않게, 끝나면 되돌립니다.
    """
    namespace = {"__name__": "__codeblocks__"}
    outputs = []
    with np.printoptions():
        for i, block in enumerate(blocks, start=1):
            buf = io.StringIO()
            segments = _segments(block)
            files = {file for file, *_ in segments}
            try:
                with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                    warnings.simplefilter("error")
                    for segment in segments:
                        exec(compile_segment(*segment), namespace)
            except Exception as exc:
                raise CodeBlockError(_failure(block, i, exc, files)) from exc
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
            raise CodeBlockError(
                f"{start + 1}번째 줄의 코드 블록 위치를 찾지 못했습니다 "
                "(pytest-codeblocks 의 줄 번호 약속이 바뀌었을 수 있습니다)"
            )
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
