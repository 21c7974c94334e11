"""장마다 끝에 있는 "확인 문제": 모양, 위치, 그리고 답이 스니펫에서 나온다는 것.

형식 (새 페이지도 같은 형식을 씁니다):

    ## 확인 문제

    **문제 1.** …질문…

    ??? success "정답과 풀이"
        …짧은 설명, 숫자나 모양이면 quiz_N 절을 include 한 코드 블록…

숫자와 모양의 값은 각 장의 테스트(tests/test_<장>.py 의 test_quiz_*)가 확인합니다.

먼저 예상하고 확인하는 문제(issue 33)는 문제 문단과 접힌 풀이 사이에 빈 상자 한 줄을 둡니다:

    **문제 N.** …질문…

    <div class="predict" data-src="../data/<장>-quiz_N.json"></div>

    ??? success "정답과 풀이"

그 JSON 은 같은 장의 스니펫 함수 data_quiz_N() 이 snippets/predict.py 로 만듭니다 (정답, 내다본 오답, 돌려줄 말).
돌려줄 말에는 숫자를 직접 적지 않고 {이름} 자리로만 적고, 그 값은 스니펫이 계산해 quiz_N 의 출력에도 찍습니다.
docs/assets/predict.js 가 상자에 입력 칸이나 보기를 그립니다. JavaScript 가 없으면 상자는 비어 숨고, 문제와 접힌 풀이가
그대로 읽힙니다. 브라우저에서 답해 보는 테스트는 tests/test_predict_browser.py 입니다.
"""

import re

import pytest

from conftest import SNIPPETS
from site_pages import DOCS, nav_pages

# 확인 문제가 없는 페이지와 그 까닭. nav 의 다른 페이지는 모두 확인 문제가 있어야 합니다: nav 에 새 장을 넣으면 여기 적지
# 않는 한 이 규칙을 따릅니다 (손으로 적은 목록은 나중에 넣은 장을 빠뜨립니다).
NO_QUIZ = {
    "index.md": "들어가며: 무엇을 배우는지 안내하는 페이지",
    "own_sentence.md": "여러분의 문장으로: 독자가 직접 해 보는 페이지라서 문제가 따로 없습니다",
    "own_prompt.md": "여러분의 프롬프트로: 독자가 직접 해 보는 페이지라서 문제가 따로 없습니다",
    "korean_loading.md": "부록",
    "core_tour.md": "부록 (코어를 직접 돌려 보는 둘러보기)",
    "glossary.md": "부록 (용어집)",
    "references.md": "부록 (참고 문헌)",
}
PAGES = [p for p in nav_pages() if p.endswith(".md") and p not in NO_QUIZ]
ANSWER = '??? success "정답과 풀이"'
PREDICT = re.compile(r'^<div class="predict" data-src="\.\./data/(?P<page>[a-z_]+)-quiz_(?P<n>\d+)\.json"></div>$')
# 먼저 예상하고 확인하는 문제가 적어도 하나 있어야 하는 장: 본문 1–7장과 8장 (issue 33). 실제 모델 페이지(real_model,
# korean_model, head_ablation, next_token)와 9장(head_roles)의 문제는 접힌 풀이로 둡니다 (상자를 두어도 규칙은 같습니다).
PREDICT_CHAPTERS = [
    "library_analogy.md",
    "four_steps.md",
    "why_scale.md",
    "heatmap.md",
    "self_vs_cross.md",
    "multi_head.md",
    "summary.md",
    "efficient.md",
]


def quiz_part(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert text.count("\n## 확인 문제\n") == 1, f"{page}: '## 확인 문제' 절이 하나 있어야 합니다"
    start = text.index("\n## 확인 문제\n")
    return text, text[start:]


def test_pages_without_a_quiz_are_real_nav_pages():
    assert set(NO_QUIZ) <= set(nav_pages()), f"nav 에 없는 페이지: {sorted(set(NO_QUIZ) - set(nav_pages()))}"
    assert len(PAGES) >= 10


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
        # 문제 문단, (예상하고 확인하기 상자 한 줄), 접힌 풀이: 그 밖의 것은 풀이 앞에 오지 않습니다
        before = [line for line in lines[1 : answer[0]] if line.strip()]
        assert all(PREDICT.match(line) for line in before), f"{page} 문제 {i}: 풀이 앞에 {before}"
        assert len(before) <= 1 and lines[0].strip(), f"{page} 문제 {i}"
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


# ---------------------------------------------------------------- 먼저 예상하고 확인하기 (issue 33)


def predict_boxes(page):
    """{문제 번호: 상자 줄} — 페이지의 확인 문제에 있는 예상하고 확인하기 상자들."""
    _, part = quiz_part(page)
    boxes = {}
    for block in re.split(r"^(?=\*\*문제 \d+\.\*\*)", part, flags=re.M)[1:]:
        n = int(re.match(r"\*\*문제 (\d+)\.", block).group(1))
        for line in block.splitlines():
            m = PREDICT.match(line)
            if m:
                assert m["page"] == page.removesuffix(".md") and int(m["n"]) == n, (page, n, line)
                boxes[n] = line
    return boxes


def data_functions(page):
    module = page.removesuffix(".md")
    text = (SNIPPETS / f"{module}.py").read_text(encoding="utf-8")
    return sorted(int(n) for n in re.findall(r"^def data_quiz_(\d+)\(\):", text, flags=re.M))


@pytest.mark.parametrize("page", PAGES)
def test_every_predict_box_has_its_data_function_and_back(page):
    assert sorted(predict_boxes(page)) == data_functions(page)


@pytest.mark.parametrize("page", PREDICT_CHAPTERS)
def test_each_chapter_has_a_question_to_answer_before_the_result(page):
    assert predict_boxes(page), f"{page}: 먼저 예상하고 확인하는 문제가 없습니다"


def predict_data(page, n):
    import importlib

    return getattr(importlib.import_module(page.removesuffix(".md")), f"data_quiz_{n}")()


PREDICT_QUESTIONS = [(page, n) for page in PAGES for n in data_functions(page)]


@pytest.mark.parametrize(("page", "n"), PREDICT_QUESTIONS)
def test_predict_question_explains_each_foreseen_wrong_answer(page, n):
    """숫자 문제는 내다본 오답이 둘 이상이고 (정답과 겹치지 않고), 보기 문제는 보기가 셋 이상입니다. 오답마다 제 말이 있습니다."""
    q = predict_data(page, n)
    if q["kind"] == "number":
        assert len(q["wrong"]) >= 2 and q["other"]
        assert all(w["feedback"] and w["feedback"] != q["right"] for w in q["wrong"])
        assert len({w["feedback"] for w in q["wrong"]}) == len(q["wrong"])
        for w in q["wrong"]:
            if "value" in w:
                assert abs(w["value"] - q["answer"]) > w["tolerance"] + q["tolerance"], (page, n, w)
    else:
        assert q["kind"] == "choice" and len(q["options"]) >= 3
        assert sum(o["right"] for o in q["options"]) == 1
        assert len({o["feedback"] for o in q["options"]}) == len(q["options"])


NUMBER = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text):
    return {float(m.replace(",", "")) for m in NUMBER.findall(text)}


@pytest.mark.parametrize(("page", "n"), PREDICT_QUESTIONS)
def test_predict_feedback_has_no_typed_numbers_and_its_numbers_are_printed(page, n):
    """돌려줄 말에는 숫자를 손으로 적지 않았고(글에 0–9 가 없고 모든 숫자는 {이름} 자리), 그 자리의 값은 모두
    그 문제의 quiz_N 출력에 찍힌 숫자입니다. 그래서 말 속의 숫자는 코드가 계산한 숫자이고, 출력과 어긋날 수 없습니다."""
    from page_outputs import page_outputs
    from predict import DIGIT, FIELD, _texts
    from site_pages import expander, page_blocks

    q = predict_data(page, n)
    for where, text in _texts(q):
        assert not DIGIT.search(FIELD.sub("", text)), (page, n, where, text)
    module = page.removesuffix(".md")
    code = expander()(f'--8<-- "{module}.py:quiz_{n}"').strip("\n")
    owners = [out for block, out in zip((b.code for b in page_blocks(page)), page_outputs(page)) if code in block]
    assert len(owners) == 1
    printed = numbers_in(owners[0])
    for name, value in q["values"].items():
        if not re.fullmatch(r"-?[\d,]+(?:\.\d+)?", value):
            continue  # 숫자가 아닌 값 (없습니다)
        assert float(value.replace(",", "")) in printed, f"{page} 문제 {n}: {name}={value} 가 출력에 없습니다"


def test_predict_data_refuses_typed_numbers_and_missing_values():
    """대조군: 글에 숫자를 직접 적거나, 자리에 값이 없거나, 쓰지 않는 값을 넘기면 데이터를 만들지 않습니다."""
    from predict import number, wrong

    good = dict(
        label="몇 배",
        answer=16.0,
        tolerance=0.1,
        right="{r}배입니다.",
        other="다시.",
        values={"r": "16"},
        wrong=[wrong(4.0, 0.1, "n²에 비례합니다.")],
    )
    assert number(**good)["values"] == {"r": "16"}
    with pytest.raises(ValueError, match="숫자를 직접"):
        number(**{**good, "right": "16배입니다."})
    with pytest.raises(ValueError, match="숫자를 직접"):
        number(**{**good, "wrong": [wrong(4.0, 0.1, "길이가 4배면 16배입니다.")]})
    with pytest.raises(ValueError, match="값이 없습니다"):
        number(**{**good, "right": "{ratio}배입니다."})
    with pytest.raises(ValueError, match="쓰이지 않습니다"):
        number(**{**good, "values": {"r": "16", "extra": "3"}})
    with pytest.raises(ValueError, match="겹칩니다"):
        number(**{**good, "wrong": [wrong(16.05, 0.1, "가깝습니다.")]})
