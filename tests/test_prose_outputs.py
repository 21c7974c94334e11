"""글이 말하는 숫자와 모양이 바로 옆의 실행 결과에 있습니다: 출력을 고치고 글을 잊으면 여기서 실패합니다.

무엇을 보나: 페이지에서 실행 결과가 있는 코드 블록마다, 그 블록 바로 위의 문단과 바로 아래의 문단(빈 줄이나 제목,
접힌 상자의 머리, 다른 코드 블록에서 끝나고, 블록과 같은 들여쓰기의 것: 확인 문제의 풀이 문단 포함). 그 문단의

- 모양: 괄호 속 정수들 `(5, 7)`, `(8, 6, 8)` — 그 문단에 붙은 출력(위나 아래 블록의 것) 가운데 같은 모양이 있어야 합니다.
- 소수: `0.867`, `2.197`, `76.3%` — 출력의 어떤 수를 글의 자리수로 반올림한 값이어야 합니다 (%는 100배로도 봅니다).

보지 않는 것: 정수(장 번호, 개수, "d_k(4)" 는 출력과 글이 같은 수를 다른 뜻으로 쓰는 일이 잦습니다), "3×3" 같은 곱셈 꼴,
코드(`…`)와 수식($…$) 속의 수, 출력과 붙어 있지 않은 문단(그림 설명, 도입), 실습 노트북(커널이 출력을 만듭니다),
그리고 뜻: 글이 0.356 을 "세 개 가운데 하나꼴" 이라고 부르는지는 각 장의 테스트가 이름 붙여 봅니다.

출력에 없어도 되는 수(곱하는 재료의 모양, 논문이 보고한 수, 비교 기준으로 든 수)는 tests/data/not_in_the_output.toml 에
줄의 글 일부와 까닭을 함께 적습니다. 그 글이 페이지에서 사라지면 목록에서도 지우라고 실패합니다.
"""

import re
import tomllib
from pathlib import Path

import pytest

from page_outputs import page_outputs
from site_pages import DOCS, markdown_pages, page_blocks

PAGES = [p for p in markdown_pages() if page_blocks(p)]

SHAPE = re.compile(r"\((\d+(?:\s*,\s*\d+)+)\s*,?\s*\)")
# 한글 조사가 수에 바로 붙으므로("0.867로") 앞뒤의 경계는 ASCII 글자와 숫자만 봅니다
DECIMAL = re.compile(r"(?<![0-9A-Za-z_.])-?\d+\.\d+(?![0-9A-Za-z_]|\.\d)(%?)")
OUTPUT_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
# 논문의 표·그림·식·절 번호("표 2.1", "2.2절")는 수가 아닙니다 (수 자리를 | 로 바꾼 글에서 찾습니다)
REFERENCE = re.compile(r"(?:표|그림|식|Table|Figure)\s*\||\|절")
FENCE = re.compile(r"^(\s*)(```|~~~)")
# 문단이 끝나는 줄: 제목, 접힌/안 접힌 상자의 머리, 가로줄, 다음 장 링크, HTML, 그림, 각주 정의
NOT_PROSE = re.compile(r"^\s*(?:#|\?\?\?|!!!|---|다음 장:|<|!\[|\[\^)")

# 출력에 없어도 되는 수: [(페이지, 글의 수, 그 줄에 있는 글, 까닭)]. 표는 데이터라서 한 줄에 한 항목씩 TOML 로 적습니다.
NOT_IN_THE_OUTPUT_FILE = Path(__file__).parent / "data" / "not_in_the_output.toml"
NOT_IN_THE_OUTPUT = [
    (page, row["claim"], row["line"], row["why"])
    for page, rows in tomllib.loads(NOT_IN_THE_OUTPUT_FILE.read_text(encoding="utf-8")).items()
    for row in rows
]


def _prose(line):
    """줄에서 수를 찾을 글: 코드, 수식, 링크 주소, 각주 표시를 뺍니다."""
    line = re.sub(r"`[^`]*`", " ", line)
    line = re.sub(r"\$[^$]*\$", " ", line)
    line = re.sub(r"\]\([^)]*\)", "]", line)
    return re.sub(r"\[\^[^\]]*\]", " ", line).replace("−", "-")


def paragraph(lines, start, step, indent):
    """start 에서 step(+1 위로는 -1) 쪽으로, 빈 줄을 건너뛴 뒤 이어지는 문단의 줄 번호들(0부터).
    들여쓰기가 indent 와 다르면(상자 밖의 다음 문제 같은) 그 블록의 문단이 아닙니다."""
    i = start
    while 0 <= i < len(lines) and not lines[i].strip():
        i += step
    out = []
    while 0 <= i < len(lines) and lines[i].strip() and not FENCE.match(lines[i]) and not NOT_PROSE.match(lines[i]):
        out.append(i)
        i += step
    if out and len(lines[out[0]]) - len(lines[out[0]].lstrip()) != indent:  # out[0]: 블록에 가장 가까운 줄
        return []
    return sorted(out)


def claims(lines, blocks):
    """[(줄 번호(1부터), 글의 수, 붙은 출력들)]: 출력이 있는 블록(Block, 출력)의 바로 위·아래 문단이 말하는 모양과 소수."""
    attached = {}  # 문단의 줄 → 그 문단이 붙은 (블록, 출력)들
    for block, output in blocks:
        if not output.strip() or not block.page_line:
            continue
        fence = block.page_line - 2  # 여는 펜스 (page_line 은 그 다음 줄, 1부터)
        indent = len(FENCE.match(lines[fence]).group(1))
        close = fence + 1
        while not FENCE.match(lines[close]):
            close += 1
        for i in paragraph(lines, fence - 1, -1, indent) + paragraph(lines, close + 1, +1, indent):
            attached.setdefault(i, []).append((block, output))
    out = []
    for i, owners in sorted(attached.items()):
        text = _prose(lines[i])
        found = [f"({', '.join(re.split(r'\s*,\s*', m))})" for m in SHAPE.findall(text)]
        found += [
            m.group(0)
            for m in DECIMAL.finditer(text)
            if not REFERENCE.search(text[: m.start()] + "|" + text[m.end() :])
        ]
        out += [(i + 1, claim, owners) for claim in found]
    return out


def in_output(claim, output):
    if claim.startswith("("):
        shapes = {tuple(int(x) for x in re.split(r"\s*,\s*", m.rstrip(", "))) for m in SHAPE.findall(output)}
        return tuple(int(x) for x in claim.strip("()").split(", ")) in shapes
    percent = claim.endswith("%")
    value = float(claim.rstrip("%"))
    places = len(claim.rstrip("%").split(".")[1])
    for text in OUTPUT_NUMBER.findall(output):
        number = float(text)
        for scaled in (number, number * 100) if percent else (number,):
            if abs(scaled - value) <= 0.5 * 10**-places + 1e-12:  # 출력의 수를 글의 자리수로 반올림하면 글의 수
                return True
    return False


def allowed(page, claim, line):
    return next(
        (entry for entry in NOT_IN_THE_OUTPUT if entry[:2] == (page, claim.rstrip("%")) and entry[2] in line), None
    )


@pytest.mark.reads("docs/*.md", "tests/data/not_in_the_output.toml")
@pytest.mark.parametrize("page", PAGES)
def test_numbers_and_shapes_in_the_prose_are_in_the_output_beside_them(page):
    lines = (DOCS / page).read_text(encoding="utf-8").split("\n")
    blocks = list(zip(page_blocks(page), page_outputs(page)))
    problems, used = [], set()
    for number, claim, owners in claims(lines, blocks):
        if any(in_output(claim, output) for _, output in owners):
            continue
        if key := allowed(page, claim, lines[number - 1]):
            used.add(key)
            continue
        where = ", ".join(f"docs/{page}:{b.page_line}" for b, _ in owners)
        shown = "\n".join(f"        {line}" for _, output in owners for line in output.strip().splitlines()[:12])
        problems.append(
            f"docs/{page}:{number}: 글이 {claim} 이라고 말하지만 바로 옆 블록({where})의 출력에 없습니다:\n{shown}"
        )
    stale = [k for k in NOT_IN_THE_OUTPUT if k[0] == page and k not in used]
    problems += [
        f"tests/data/not_in_the_output.toml 의 {k} 에 맞는 글이 docs/{page} 에 이제 없습니다: 목록에서 지우세요"
        for k in stale
    ]
    assert not problems, (
        "\n".join(problems)
        + "\n글을 출력에 맞게 고치거나, 출력에 없는 것이 맞으면 까닭과 함께 tests/data/not_in_the_output.toml 에 적으세요."
    )


@pytest.mark.reads("docs/four_steps.md")
def test_the_check_sees_a_stale_shape_in_a_quiz_answer():
    """issue 30 의 재현: 풀이 문단이 (5, 7) 이라고 하는데 코드가 (6, 7) 을 찍으면 잡고, 맞으면 통과합니다."""
    from sitebuild.codeblocks import Block

    lines = [
        '??? success "정답과 풀이"',
        "    점수와 가중치는 (5, 7), 출력은 (5, 6)이고 평균은 0.36입니다.",
        "",
        "    ```python",
        '    --8<-- "four_steps.py:quiz_1"',
        "    ```",
        "",
        "    다음 문단의 0.5 도 이 출력을 말합니다.",
        "",
        "**문제 2.** (9, 9) 는 다음 문제의 것이라 보지 않습니다.",
    ]
    block = Block("", 0, "four_steps.md", 5)
    found = claims(lines, [(block, "점수·가중치: (5, 7) (5, 7)  출력: (5, 6)  평균 0.356 0.5\n")])
    assert [(n, c) for n, c, _ in found] == [(2, "(5, 7)"), (2, "(5, 6)"), (2, "0.36"), (8, "0.5")]
    assert all(in_output(c, "점수·가중치: (5, 7) (5, 7)  출력: (5, 6)  평균 0.356 0.5") for _, c, _ in found)
    assert not in_output("(5, 7)", "점수·가중치: (6, 7) (6, 7)  출력: (6, 6)")
    assert not in_output("0.37", "평균 0.356") and in_output("35.6%", "몫 0.356") and not in_output("0.5", "0.05")
