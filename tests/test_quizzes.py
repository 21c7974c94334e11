"""장마다 끝에 있는 "확인 문제": 모양, 위치, 그리고 답이 스니펫에서 나온다는 것.

형식 (새 페이지도 같은 형식을 씁니다):

    ## 확인 문제

    **문제 1.** …질문…

    ??? success "정답과 풀이"
        …짧은 설명, 숫자나 모양이면 quiz_N 절을 include 한 코드 블록…

숫자와 모양의 값은 각 장의 테스트(tests/test_<장>.py 의 test_quiz_*)가 확인합니다.
"""

import re

import pytest

from conftest import SNIPPETS
from site_pages import DOCS

PAGES = [
    "library_analogy.md",
    "four_steps.md",
    "why_scale.md",
    "heatmap.md",
    "self_vs_cross.md",
    "multi_head.md",
    "summary.md",
    "efficient.md",
    "head_roles.md",
    "real_model.md",
    "korean_model.md",
    "head_ablation.md",
    "next_token.md",
]
ANSWER = '??? success "정답과 풀이"'


def quiz_part(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert text.count("\n## 확인 문제\n") == 1, f"{page}: '## 확인 문제' 절이 하나 있어야 합니다"
    start = text.index("\n## 확인 문제\n")
    return text, text[start:]


@pytest.mark.parametrize("page", PAGES)
def test_quiz_section_is_last_before_the_next_link(page):
    text, part = quiz_part(page)
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[-1] == "확인 문제", f"{page}: 확인 문제 뒤에 다른 절이 있습니다: {headings}"
    assert text.rstrip().splitlines()[-1].startswith("다음 장:")
    assert not re.search(r"^#{1,3} ", part[len("\n## 확인 문제\n") :], flags=re.M)


@pytest.mark.parametrize("page", PAGES)
def test_three_to_five_questions_each_with_a_collapsed_answer(page):
    _, part = quiz_part(page)
    numbers = [int(n) for n in re.findall(r"^\*\*문제 (\d+)\.\*\* \S", part, flags=re.M)]
    assert 3 <= len(numbers) <= 5 and numbers == list(range(1, len(numbers) + 1)), numbers
    blocks = re.split(r"^\*\*문제 \d+\.\*\*", part, flags=re.M)[1:]
    for i, block in enumerate(blocks, start=1):
        lines = block.strip("\n").splitlines()
        answer = [j for j, line in enumerate(lines) if line == ANSWER]
        assert len(answer) == 1, f"{page} 문제 {i}: 접힌 '정답과 풀이' 가 하나 있어야 합니다"
        body = [
            line
            for line in lines[answer[0] + 1 :]
            if line.strip() and not line.startswith("---") and not line.startswith("다음 장:")
        ]
        assert body and all(line.startswith("    ") for line in body), (
            f"{page} 문제 {i}: 풀이는 모두 접힌 블록 안(네 칸 들여쓰기)에 있어야 합니다"
        )


@pytest.mark.parametrize("page", PAGES)
def test_every_quiz_section_of_the_chapter_is_shown_inside_an_answer(page):
    """스니펫의 quiz_N 절은 모두 이 페이지의 접힌 풀이 안에서 실행되어 출력이 그 자리에 붙습니다."""
    _, part = quiz_part(page)
    module = page.removesuffix(".md")
    defined = re.findall(
        r"^# --8<-- \[start:(quiz_\d+)\]", (SNIPPETS / f"{module}.py").read_text(encoding="utf-8"), flags=re.M
    )
    shown = re.findall(rf'^    --8<-- "{module}\.py:(quiz_\d+)"', part, flags=re.M)
    assert defined and sorted(defined) == sorted(shown) and len(shown) == len(set(shown))


@pytest.mark.parametrize("page", PAGES)
def test_answers_with_code_print_something(page):
    """풀이 안의 quiz 코드는 출력이 있어야 합니다 (빌드가 그 출력을 풀이 안에 붙입니다)."""
    from page_outputs import page_outputs
    from site_pages import expander, page_blocks

    module = page.removesuffix(".md")
    text = (SNIPPETS / f"{module}.py").read_text(encoding="utf-8")
    results = list(zip((b.code for b in page_blocks(page)), page_outputs(page)))
    for name in re.findall(r"^# --8<-- \[start:(quiz_\d+)\]", text, flags=re.M):
        code = expander()(f'--8<-- "{module}.py:{name}"').strip("\n")
        owners = [output for block_code, output in results if code in block_code]
        assert len(owners) == 1, f"{page}: {name} 을 담은 블록이 하나여야 합니다"
        assert owners[0].strip(), f"{page}: {name} 이 아무것도 출력하지 않습니다"
