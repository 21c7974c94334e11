"""휴대전화(375 px)의 코드 상자와 실행 결과 상자 (issue 29): 줄 끝 주석이 화면 안에 있고, 표로 찍은 출력이 줄을 접지 않습니다.

## 코드 상자의 주석

본문의 코드 블록은 줄을 접지 않고 가로로 스크롤합니다 (복사해 붙일 코드의 모양 그대로, site.css). 그래서 줄 끝에 붙은
주석은 그 줄이 상자보다 넓으면 화면 밖에 남고, 독자는 스크롤하지 않는 한 읽지 못합니다. issue 29 가 잰 바로는 본문과
모델 장에서 보이는 코드 줄의 72 % 가 375 px 화면보다 넓었습니다. 그래서 읽으라고 쓴 주석은 설명하는 코드 위의 제 줄에
두고(1–2장처럼), 줄 끝 주석은 그 줄이 상자 안에 다 들어갈 때만 씁니다.

상자의 폭 (375 px 화면, 브라우저로 잰 값이고 tests/test_phone.py 가 지킵니다):
- 장 페이지: Material 은 좁은 화면에서 본문 바로 아래의 코드 블록을 화면 끝까지 넓히므로(margin 0 -0.8rem) 상자가
  375 px, 안쪽 여백 16 px 씩을 빼면 글이 343 px 입니다. 코드 글자는 13.6 px (본문 16 px 의 0.85em).
- 실습 노트북 페이지: mkdocs-jupyter 의 코드 칸은 본문 칸(343 px) 안에 있어 글이 311 px 입니다.
글자 폭: 고정폭 글꼴의 라틴 글자는 글자 크기의 0.6em 안팎입니다 (SF Mono 0.6, Roboto Mono 0.6, DejaVu Sans Mono·Menlo
0.602, Consolas 0.55). 한글은 고정폭 글꼴에 없어 한글 글꼴로 그려지고 1em 을 넘지 않습니다 (Noto Sans CJK 0.92em).
그래서 넓은 글자(동아시아 폭 W, F)는 1em, 나머지는 0.602em 으로 셉니다.

접힌 상자(<details>: 풀이, 더 알아보기) 속 코드는 줄을 접으므로(sitebuild/lines.py) 주석이 화면 밖에 남지 않아 보지 않습니다.

## 실행 결과 상자의 표
실행 결과 상자는 긴 줄을 접습니다. 문장 같은 줄은 접혀도 읽히지만, 칸을 맞춰 찍은 표는 접히는 순간 칸이 무너집니다
(issue 29: 한 줄의 마지막 열이 다음 줄의 첫 열 아래로). 그래서 공백 두 칸 이상으로 칸을 맞춘 줄이 둘 이상 이어지면
표로 보고, 그 줄들은 상자 한 줄에 들어가야 합니다. 상자의 글 폭: 본문의 실행 결과는 본문 칸 343 px 에서 왼쪽 선 4 px 와
안쪽 여백 16.32 px 씩을 뺀 306 px, 접힌 상자(풀이) 속 실행 결과는 상자의 테두리와 여백만큼 좁은 280 px 이고 글자는 둘 다
13.6 px 입니다 (site.css 의 .cell-output, 브라우저로 잰 값). 넘치면 좁게 다시 찍거나(예: 정리 장의 비용 표) 한 줄에 값 하나씩 찍습니다.
"""

import io
import re
import tokenize

import lxml.html
import pytest

from page_outputs import page_outputs
from site_pages import DOCS, markdown_pages, nav_pages, page_blocks, rendered

# 글 한 줄의 폭은 빌드가 줄을 감쌀지 정할 때 쓰는 잣대 그대로 (test_phone.py 가 그 글자 폭을 브라우저에서 확인합니다)
from sitebuild.lines import mono_em as width_em
from test_pages import source_of

CODE_PX = 13.6
PHONE_TEXT_PX = {"page": 375 - 2 * 16, "notebook": 343 - 2 * 16}
PHONE_BOX_EM = {kind: px / CODE_PX for kind, px in PHONE_TEXT_PX.items()}
OUTPUT_TEXT_PX = {"page": 343 - 4 - 2 * 16.32, "details": 280.3}
OUTPUT_BOX_EM = {kind: px / CODE_PX for kind, px in OUTPUT_TEXT_PX.items()}


def box_em(doc):
    return PHONE_BOX_EM["notebook" if doc.endswith(".ipynb") else "page"]


def scrolling_code(doc):
    """페이지가 보여 주는 코드 블록 가운데 접힌 상자 밖의 것 (가로로 스크롤하는 것), 보이는 글 그대로."""
    html = lxml.html.fragment_fromstring(rendered(source_of(doc)), create_parent="div")
    return [code.text_content() for code in html.xpath("//pre/code[not(ancestor::details)]")]


def trailing_comments(code):
    """[(줄 번호, 줄)] — 코드 뒤에 주석이 붙은 줄들 (tokenize 로 찾으므로 문자열 속 # 은 세지 않습니다)."""
    lines = code.split("\n")
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT and lines[tok.start[0] - 1][: tok.start[1]].strip():
            found.append((tok.start[0], lines[tok.start[0] - 1]))
    return found


def comments_out_of_sight(doc):
    box = box_em(doc)
    return [
        (i, line.rstrip())
        for code in scrolling_code(doc)
        for i, line in trailing_comments(code)
        if width_em(line.rstrip()) > box
    ]


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
@pytest.mark.parametrize("doc", [d for d in nav_pages() if not d.startswith("http")])
def test_trailing_comments_stay_on_a_phone_screen(doc):
    """줄 끝 주석은 그 줄 전체가 375 px 화면의 코드 상자에 들어갈 때만 씁니다. 아니면 주석을 코드 위의 제 줄로 옮깁니다."""
    hidden = comments_out_of_sight(doc)
    assert not hidden, (
        f"{doc}: 휴대전화에서 줄 끝 주석이 화면 밖에 남는 줄 {len(hidden)}개 (상자 {box_em(doc):.1f}em). "
        "주석을 설명하는 코드 위의 제 줄로 옮기세요:\n" + "\n".join(f"  {line}" for _, line in hidden[:8])
    )


def test_the_measure_sees_what_a_phone_hides():
    box = PHONE_BOX_EM["page"]
    assert 25.1 < box < 25.3 and 22.8 < PHONE_BOX_EM["notebook"] < 22.9
    # 라틴 글자 41개는 들어가고 42개는 넘칩니다 (343 px / 8.19 px). 한글은 25자가 들어갑니다.
    assert width_em("x" * 41) <= box < width_em("x" * 42)
    assert width_em("가" * 25) <= box < width_em("가" * 26)
    code = 'Q = X @ W_Q  # 같은 X 를 세 가지 다른 행렬로 비춥니다\ns = "# 문자열 속 샵"  # 짧은 주석\n# 제 줄 주석\nK = 1\n'
    assert [i for i, _ in trailing_comments(code)] == [1, 2]
    assert [i for i, line in trailing_comments(code) if width_em(line) > box] == [1]


PADDED = re.compile(r"^ +\S|\S {2,}\S")


def table_lines(output):
    """출력 한 덩어리에서 표의 줄: 공백 두 칸 이상으로 칸을 맞춘 줄이 둘 이상 이어진 곳."""
    lines = output.split("\n")
    padded = [bool(PADDED.search(line)) for line in lines]
    return [
        line
        for i, line in enumerate(lines)
        if padded[i] and ((i > 0 and padded[i - 1]) or (i + 1 < len(lines) and padded[i + 1]))
    ]


def in_collapsed_box(page, block):
    """블록이 접힌 상자(??? 로 여는 <details>) 안에 있는가: 펜스보다 덜 들여 쓴 가장 가까운 줄이 ??? 로 시작합니다."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    fence = block.page_line - 2  # page_line 은 펜스 다음 줄(include 줄), 1부터
    indent = len(lines[fence]) - len(lines[fence].lstrip())
    for line in reversed(lines[:fence]):
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            return line.lstrip().startswith("???")
    return False


def wrapped_table_lines(page):
    """[(상자 폭, 줄)] — 표의 줄 가운데 휴대전화의 실행 결과 상자보다 넓은 것."""
    wide = []
    for block, out in zip(page_blocks(page), page_outputs(page)):
        box = OUTPUT_BOX_EM["details" if in_collapsed_box(page, block) else "page"]
        wide += [(box, line) for line in table_lines(out) if width_em(line) > box]
    return wide


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("page", [p for p in markdown_pages() if page_blocks(p)])
def test_printed_tables_fit_a_phone_output_box(page):
    """칸을 맞춘 출력(표)의 줄은 375 px 화면의 실행 결과 상자 한 줄에 들어갑니다: 접히면 칸이 무너집니다."""
    wide = wrapped_table_lines(page)
    assert not wide, (
        f"{page}: 휴대전화의 실행 결과 상자에서 접히는 표의 줄 {len(wide)}개. 열을 줄이거나 한 줄에 값 하나씩 찍으세요:\n"
        + "\n".join(f"  ({width_em(line):.1f}em > {box:.1f}em) {line!r}" for box, line in wide[:8])
    )


@pytest.mark.reads("docs/why_scale.md")
def test_table_lines_are_runs_of_aligned_lines():
    assert 22.4 < OUTPUT_BOX_EM["page"] < 22.6 and 20.5 < OUTPUT_BOX_EM["details"] < 20.7
    out = "헤드 1개 (폭 512): FLOP 1  가중치 1\n헤드 8개 (폭  64): FLOP 1  가중치 8\n글 한 줄\n한 줄  뿐인 줄\n"
    assert table_lines(out) == out.split("\n")[:2]
    assert table_lines("axis=0 으로 하면 행의 합: [1.22  0.871]\n                 열의 합: [1. 1.]") != []
    assert table_lines("첫 줄\n둘째 줄  둘째 칸\n셋째 줄") == []
    # 이 측정으로 정리 장의 옛 비용 표(38자)는 접히고, 고친 표(32자)는 들어갑니다 (커밋 4b00c22)
    assert width_em(" 128       4,194,304  0.0625       1배") > OUTPUT_BOX_EM["page"]
    assert width_em(" 128        4.2 0.0625     1배") <= OUTPUT_BOX_EM["page"]
    # 확인 문제의 풀이(접힌 상자)인지는 페이지의 들여쓰기로 압니다
    blocks = page_blocks("why_scale.md")
    assert [in_collapsed_box("why_scale.md", b) for b in blocks[:2]] == [False, True]
