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

그 JSON 은 같은 장의 스니펫 함수 data_quiz_N() 이 snippets/lib/predict.py 로 만듭니다 (정답, 내다본 오답, 돌려줄 말).
돌려줄 말에는 숫자를 직접 적지 않고 {이름} 자리로만 적고, 그 값은 스니펫이 계산해 quiz_N 의 출력에도 찍습니다.
docs/assets/predict.js 가 상자에 입력 칸이나 보기를 그립니다. JavaScript 가 없으면 상자는 비어 숨고, 문제와 접힌 풀이가
그대로 읽힙니다. 브라우저에서 답해 보는 테스트는 tests/test_predict_browser.py 입니다.
"""

import re

import pytest

from conftest import snippet_path
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


@pytest.mark.reads("docs/*.md", "snippets/*.py")
def test_pages_without_a_quiz_are_real_nav_pages():
    assert set(NO_QUIZ) <= set(nav_pages()), f"nav 에 없는 페이지: {sorted(set(NO_QUIZ) - set(nav_pages()))}"
    assert len(PAGES) >= 10


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize("page", PAGES)
def test_quiz_section_is_last_before_the_next_link(page):
    text, part = quiz_part(page)
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[-1] == "확인 문제", f"{page}: 확인 문제 뒤에 다른 절이 있습니다: {headings}"
    assert text.rstrip().splitlines()[-1].startswith("다음 장:")
    assert not re.search(r"^#{1,3} ", part[len("\n## 확인 문제\n") :], flags=re.M)


@pytest.mark.reads("docs/*.md", "snippets/*.py")
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


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize("page", PAGES)
def test_every_quiz_section_of_the_chapter_is_shown_inside_an_answer(page):
    """스니펫의 quiz_N 절은 모두 이 페이지의 접힌 풀이 안에서 실행되어 출력이 그 자리에 붙습니다."""
    _, part = quiz_part(page)
    module = page.removesuffix(".md")
    defined = re.findall(
        r"^# --8<-- \[start:(quiz_\d+)\]", snippet_path(module).read_text(encoding="utf-8"), flags=re.M
    )
    shown = re.findall(rf'^    --8<-- "{module}\.py:(quiz_\d+)"', part, flags=re.M)
    assert defined and sorted(defined) == sorted(shown) and len(shown) == len(set(shown))


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize("page", PAGES)
def test_answers_with_code_print_something(page):
    """풀이 안의 quiz 코드는 출력이 있어야 합니다 (빌드가 그 출력을 풀이 안에 붙입니다)."""
    from page_outputs import page_outputs
    from site_pages import expander, page_blocks

    module = page.removesuffix(".md")
    text = snippet_path(module).read_text(encoding="utf-8")
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
    text = snippet_path(module).read_text(encoding="utf-8")
    return sorted(int(n) for n in re.findall(r"^def data_quiz_(\d+)\(\):", text, flags=re.M))


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize("page", PAGES)
def test_every_predict_box_has_its_data_function_and_back(page):
    assert sorted(predict_boxes(page)) == data_functions(page)


@pytest.mark.reads(
    "docs/efficient.md",
    "docs/four_steps.md",
    "docs/heatmap.md",
    "docs/library_analogy.md",
    "docs/multi_head.md",
    "docs/self_vs_cross.md",
    "docs/summary.md",
    "docs/why_scale.md",
)
@pytest.mark.parametrize("page", PREDICT_CHAPTERS)
def test_each_chapter_has_a_question_to_answer_before_the_result(page):
    assert predict_boxes(page), f"{page}: 먼저 예상하고 확인하는 문제가 없습니다"


def predict_data(page, n):
    import importlib

    return getattr(importlib.import_module(page.removesuffix(".md")), f"data_quiz_{n}")()


PREDICT_QUESTIONS = [(page, n) for page in PAGES for n in data_functions(page)]


@pytest.mark.reads("docs/*.md", "snippets/*.py")
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


@pytest.mark.reads("docs/*.md", "snippets/*.py")
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


# ---------------------------------------------------------------- 독자가 적은 답 읽기 (issue 39 §6)
# 규칙과 문법은 snippets/lib/predict.py 의 "독자가 적은 답 읽기" 에 있고, docs/assets/predict.js 가 같은 규칙을 씁니다.
# 이 표는 두 구현이 함께 지키는 약속입니다: 여기서는 파이썬(predict.respond)을, tests/test_predict_browser.py 는 같은 표를
# 브라우저의 predictQuiz.respond 로 봅니다. 열: 페이지, 문제, 적은 글, 판정, 오답 번호, 읽은 값들(읽지 못하면 None),
# 말의 첫머리(읽은 것을 보일 때) 또는 말에 든 글.

READING_CASES = [
    # summary 문제 1: "투영과 점수의 FLOP 은 각각 몇 배" (4, 16) — 두 값을 함께 적어도 됩니다 (issue 39: 예전 문제에서
    # "16, 16" 을 16.16, 1616 으로 읽었습니다)
    ("summary.md", 1, "4", "right", -1, [4], ""),
    ("summary.md", 1, "4, 16", "right", -1, [4, 16], "투영 4, 점수 16으로 읽었습니다. 투영은"),
    ("summary.md", 1, "4 16", "right", -1, [4, 16], "투영 4, 점수 16으로 읽었습니다."),
    ("summary.md", 1, "4와 16", "right", -1, [4, 16], "투영 4, 점수 16으로 읽었습니다."),
    ("summary.md", 1, "4배, 16배", "right", -1, [4, 16], "투영 4, 점수 16으로"),
    ("summary.md", 1, "투영은 4배, 점수는 16배입니다.", "right", -1, [4, 16], "투영 4, 점수 16으로"),
    ("summary.md", 1, "점수 16배, 투영 4배", "right", -1, [16, 4], "점수 16, 투영 4로 읽었습니다."),
    ("summary.md", 1, "16, 16", "partly", -1, [16, 16], "투영 16, 점수 16으로 읽었습니다. 투영: 투영도 n²으로"),
    ("summary.md", 1, "4, 4", "partly", -1, [4, 4], "투영 4, 점수 4로 읽었습니다. 투영: 맞습니다. 점수: 점수도"),
    ("summary.md", 1, "1과 16", "partly", -1, [1, 16], "투영 1, 점수 16으로 읽었습니다. 투영: 투영 행렬의 크기가"),
    ("summary.md", 1, "16, 4", "wrong", -1, [16, 4], "투영 16, 점수 4로 읽었습니다. 투영: 투영도 n²으로"),
    ("summary.md", 1, "2^2, 4²", "right", -1, [4, 16], "투영 2^2 = 4, 점수 4² = 16으로 읽었습니다."),
    ("summary.md", 1, "4 x 1, 4**2배", "right", -1, [4, 16], "투영 4 x 1 = 4, 점수 4**2 = 16으로 읽었습니다."),
    ("summary.md", 1, "4x, 16x", "right", -1, [4, 16], ""),
    ("summary.md", 1, "400%, 1600%", "right", -1, [4, 16], "투영 400% = 4, 점수 1600% = 16으로 읽었습니다."),
    ("summary.md", 1, "16", "wrong", 0, [16], "투영도 n²으로 셌나요?"),
    ("summary.md", 1, "1", "wrong", 1, [1], "투영 행렬의 크기가 그대로라서"),
    (
        "summary.md",
        1,
        "4, 16, 16",
        "unsure",
        -1,
        [4, 16, 16],
        "수 세 개(4, 16, 16)로 읽었습니다. 이 칸에는 투영, 점수의 값을",
    ),
    ("summary.md", 1, "투영 4, 16", "unsure", -1, [4, 16], "4, 16으로 읽었지만, 어느 수가 무엇의 값인지"),
    ("summary.md", 1, "16의 제곱", "unsure", -1, None, "읽지 못한 부분이 있습니다: ‘의 제곱’."),
    # why_scale 문제 1: 퍼짐이 4배가 되는 d_k (1024). 256 은 퍼짐이 d_k 에 비례한다고 본 오답, 32 는 목표 표준편차
    ("why_scale.md", 1, "1024", "right", -1, [1024], ""),
    ("why_scale.md", 1, "1,024", "right", -1, [1024], ""),
    ("why_scale.md", 1, "2^10", "right", -1, [1024], "2^10 = 1,024로 읽었습니다. 표준편차는"),
    ("why_scale.md", 1, "32²", "right", -1, [1024], "32² = 1,024로 읽었습니다."),
    ("why_scale.md", 1, "√1048576", "right", -1, [1024], "√1048576 = 1,024로 읽었습니다."),
    ("why_scale.md", 1, "루트 1048576", "right", -1, [1024], "루트 1048576 = 1,024로 읽었습니다."),
    ("why_scale.md", 1, "sqrt(1048576)", "right", -1, [1024], "sqrt(1048576) = 1,024로 읽었습니다."),
    ("why_scale.md", 1, "약 1000", "right", -1, [1000], ""),
    ("why_scale.md", 1, "256", "wrong", 0, [256], "d_k를 4배로 늘리면 퍼짐도 4배라고"),
    ("why_scale.md", 1, "32", "wrong", 1, [32], "표준편차의 목표값을"),
    ("why_scale.md", 1, "128", "wrong", 2, [128], "√4배, 곧 두 배로"),
    ("why_scale.md", 1, "1024 256", "unsure", -1, [1024, 256], "수 두 개(1,024, 256)로 읽었습니다."),
    # library_analogy 문제 4: 한 권의 가중치 (수 하나)
    ("library_analogy.md", 4, "1/3", "right", -1, [1 / 3], "1/3 = 0.3333으로 읽었습니다. 점수가"),
    ("library_analogy.md", 4, " 1 / 3 ", "right", -1, [1 / 3], "1 / 3 = 0.3333으로 읽었습니다."),
    ("library_analogy.md", 4, "１／３", "right", -1, [1 / 3], "1/3 = 0.3333으로 읽었습니다."),
    ("library_analogy.md", 4, "0.33", "right", -1, [0.33], ""),
    ("library_analogy.md", 4, ".333", "right", -1, [0.333], ""),
    ("library_analogy.md", 4, "33%", "right", -1, [0.33], "33% = 0.33으로 읽었습니다."),
    ("library_analogy.md", 4, "3^-1", "right", -1, [1 / 3], "3^-1 = 0.3333으로 읽었습니다."),
    ("library_analogy.md", 4, "3⁻¹", "right", -1, [1 / 3], "3⁻¹ = 0.3333으로 읽었습니다."),
    ("library_analogy.md", 4, "0", "wrong", 0, [0], "점수가 0이면"),
    ("library_analogy.md", 4, "1", "wrong", 1, [1], "한 권이 가중치를 모두"),
    ("library_analogy.md", 4, "−1/3", "other", -1, [-1 / 3], "−1/3 = -0.3333으로 읽었습니다. 가중치를 모두"),
    ("library_analogy.md", 4, "2,359,296", "other", -1, [2359296], ""),
    ("library_analogy.md", 4, "1,000.5", "other", -1, [1000.5], ""),
    ("library_analogy.md", 4, "1e3", "other", -1, [1000], ""),
    (
        "library_analogy.md",
        4,
        "0,5",
        "unsure",
        -1,
        [0, 5],
        "수 두 개(0, 5)로 읽었습니다. 이 칸에는 수 하나만 적어 주세요.",
    ),
    ("library_analogy.md", 4, "0.3 0.3", "unsure", -1, [0.3, 0.3], "수 두 개(0.3, 0.3)로 읽었습니다."),
    ("library_analogy.md", 4, "2√2", "unsure", -1, None, "읽지 못한 부분이 있습니다: ‘√2’."),
    ("library_analogy.md", 4, "16-4", "unsure", -1, None, "읽지 못한 부분이 있습니다: ‘-4’."),
    ("library_analogy.md", 4, "(16", "unsure", -1, None, "읽지 못한 부분이 있습니다: ‘(16’."),
    ("library_analogy.md", 4, "1/0", "unsure", -1, None, "계산할 수 없는 식입니다: ‘1/0’."),
    ("library_analogy.md", 4, "√-4", "unsure", -1, None, "계산할 수 없는 식입니다: ‘√-4’."),
    ("library_analogy.md", 4, "", "invalid", -1, None, "숫자를 적어 주세요."),
    ("library_analogy.md", 4, "모르겠어요", "invalid", -1, None, "숫자를 적어 주세요."),
    # efficient 문제 2: 단위 GiB (다른 단위는 짐작하지 않습니다). 답은 MHA 와 같은 4 GiB
    ("efficient.md", 2, "4 GiB", "right", -1, [4], ""),
    ("efficient.md", 2, "4GiB", "right", -1, [4], ""),
    ("efficient.md", 2, "4 MiB", "unsure", -1, None, "읽지 못한 부분이 있습니다: ‘MiB’."),
    ("efficient.md", 2, "16 GiB", "wrong", 0, [16], "토큰만 4배로"),
    ("efficient.md", 2, "1 GiB", "wrong", 1, [1], "KV 헤드를 줄인 효과만"),
    # multi_head 문제 1: 몇 배 (12 와 1/12 은 서로 다른 오해)
    ("multi_head.md", 1, "1배", "right", -1, [1], ""),
    ("multi_head.md", 1, "12", "wrong", 0, [12], "좁아지니"),
    (
        "multi_head.md",
        1,
        "1/12",
        "wrong",
        1,
        [1 / 12],
        "1/12 = 0.08333으로 읽었습니다. 헤드마다 (d_model, d_model) 행렬을 따로",
    ),
]


def reading_question(page, n):
    return predict_data(page, n)


@pytest.mark.reads(
    "docs/efficient.md", "docs/library_analogy.md", "docs/multi_head.md", "docs/summary.md", "docs/why_scale.md"
)
@pytest.mark.parametrize("case", READING_CASES, ids=lambda c: f"{c[0]}:{c[1]}:{c[2]!r}")
def test_answers_are_read_as_the_reader_wrote_them(case):
    """표의 글마다 읽은 값, 판정, 말 (파이썬 쪽). 수 하나가 아니면 말의 첫머리가 무엇으로 읽었는지 보입니다."""
    from predict import read_answer, respond

    page, n, text, verdict, index, values, said = case
    q = reading_question(page, n)
    reading = read_answer(text, q)
    if values is None:
        assert reading["items"] == [] and reading["error"], reading
    else:
        assert reading["error"] is None, reading
        assert [item["value"] for item in reading["items"]] == pytest.approx(values, rel=1e-12, abs=1e-15)
    got = respond(q, text)
    assert got[:2] == (verdict, index), got
    assert got[2].startswith(said) or (said and said in got[2]), got
    if verdict in ("unsure", "invalid"):
        assert "적었습니다" not in got[2] and "봤나요" not in got[2], "읽지 못한 글에 오해를 짚으면 안 됩니다"


@pytest.mark.reads(
    "docs/efficient.md", "docs/library_analogy.md", "docs/multi_head.md", "docs/summary.md", "docs/why_scale.md"
)
def test_the_reading_table_covers_every_verdict_and_syntax():
    verdicts = {c[3] for c in READING_CASES}
    assert verdicts == {"right", "wrong", "other", "partly", "unsure", "invalid"}
    typed = "".join(c[2] for c in READING_CASES)
    for syntax in [",", "과", "√", "루트", "sqrt", "^", "**", "²", "⁻", "/", "%", "x", "1e", "１", "약", "배", "GiB"]:
        assert syntax in typed, syntax


@pytest.mark.reads("docs/summary.md")
def test_issue_39_misreads():
    """issue 39: summary 의 "16, 16" 과 "16 16" 을 16.16·1616 으로 읽어 틀렸다고 했습니다
    (why_scale 문제 1 의 "√100"·"10 1" 은 issue 41 에서 문제가 바뀌어 READING_CASES 의 √·루트·sqrt 줄이 봅니다)."""
    from predict import respond

    summary = reading_question("summary.md", 1)
    assert respond(summary, "4, 16")[0] == respond(summary, "4 16")[0] == "right"


@pytest.mark.parametrize(
    ("number", "pair", "want"),
    [
        ("10", "으로/로", "으로"),
        ("1", "으로/로", "로"),
        ("7", "으로/로", "로"),
        ("8", "으로/로", "로"),
        ("2", "으로/로", "로"),
        ("3", "으로/로", "으로"),
        ("16", "으로/로", "으로"),
        ("0.5", "으로/로", "로"),
        ("0.3333", "으로/로", "으로"),
        ("0", "으로/로", "으로"),
        ("100", "으로/로", "으로"),
        ("1,000", "으로/로", "으로"),
        ("10,000", "으로/로", "으로"),
        ("1,000,000,000,000", "으로/로", "로"),
        ("-2.5", "으로/로", "로"),
        ("8", "은/는", "은"),
        ("4", "은/는", "는"),
        ("64", "은/는", "는"),
        ("0.879", "을/를", "를"),
        ("10.01", "을/를", "을"),
        ("16", "과/와", "과"),
        ("4", "과/와", "와"),
        ("20", "이/가", "이"),
        ("9", "이/가", "가"),
    ],
)
def test_particles_follow_the_reading_of_the_number(number, pair, want):
    """수 뒤의 조사는 수를 읽는 소리를 따릅니다: 8 은 "팔" 이라 "8은", 10 은 "십" 이라 "10으로", 1 은 "일" 이라 "1로"."""
    from predict import particle

    assert particle(number, pair) == want


@pytest.mark.parametrize(
    ("x", "shown"),
    [
        (1 / 3, "0.3333"),
        (2 / 3, "0.6667"),
        (16.0, "16"),
        (2359296.0, "2,359,296"),
        (1234.5, "1,235"),
        (-2.5, "-2.5"),
        (0.0001234, "0.0001234"),
        (9.99996, "10"),
        (1e-12, "0"),
        (-0.0, "0"),
        (1e21, "1,000,000,000,000,000,000,000"),
    ],
)
def test_read_numbers_are_shown_with_four_significant_digits(x, shown):
    from predict import format_number

    assert format_number(x) == shown


# 수 바로 뒤의 조사 (받침에 따라 갈리는 것만). "이/가" 는 뒤에 다른 글자가 붙은 말(이라서, 이상)이 많아 띄어 쓴 자리만 봅니다.
PARTICLE_AFTER_NUMBER = re.compile(
    r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)(으로|로|은|는|을|를|과|와)(?![가-힣])|(?<![\w.,])(\d[\d,]*(?:\.\d+)?)(이|가)(?=[\s.,)]|$)"
)


@pytest.mark.reads("docs/*.md", "snippets/*.py")
@pytest.mark.parametrize(("page", "n"), PREDICT_QUESTIONS)
def test_particles_after_numbers_in_feedback_follow_the_numbers_reading(page, n):
    """돌려줄 말의 {자리} 를 채운 뒤 수 바로 뒤의 조사가 그 수를 읽는 소리와 맞습니다 (issue 39: "GQA-8는" → 8 은 "팔")."""
    from predict import _texts, fill, particle

    q = predict_data(page, n)
    for where, text in _texts(q):
        filled = fill(text, q["values"])
        for m in PARTICLE_AFTER_NUMBER.finditer(filled):
            number, used = (m[1], m[2]) if m[1] else (m[3], m[4])
            pair = next(p for p in ("으로/로", "은/는", "을/를", "과/와", "이/가") if used in p.split("/"))
            assert particle(number, pair) == used, (
                f"{page} 문제 {n} {where}: '{number}{used}' → '{number}{particle(number, pair)}'"
            )


def test_reading_messages_have_no_typed_numbers():
    from predict import DIGIT, FIELD, READING

    for key, text in READING["messages"].items():
        assert not DIGIT.search(FIELD.sub("", text)), key
    assert not [c for c in READING["counts"] if DIGIT.search(c)]


# ---------------------------------------------------------------- 돌려줄 말이 말하는 것 (issue 39 §5)


@pytest.mark.reads("docs/why_scale.md")
def test_why_scale_question_1_foresees_the_linear_reading():
    """issue 41 §4: why_scale 문제 1 은 외운 값(√100 = 10)이 아니라 퍼짐이 √d_k 를 따른다는 이해를 묻습니다. 가장 흔한 오해
    (퍼짐이 d_k 에 비례, 곧 256)를 내다보고, 그 말은 실제로 잰 두 배의 퍼짐을 보여 줍니다."""
    from predict import respond

    q = predict_data("why_scale.md", 1)
    assert q["answer"] == 1024 and q["values"]["target"] == "1024"
    verdict, index, said = respond(q, "256")
    assert (verdict, index) == ("wrong", 0) and "2.00배" in said
    assert "{times}" in q["other"] and "{target}" not in q["other"]


@pytest.mark.reads("docs/multi_head.md")
def test_multi_head_feedback_matches_the_misconception_behind_each_number():
    """12배라고 적는 오해(헤드가 좁아지니 파라미터도 적다)와 1/12 배의 오해(헤드마다 (d_model, d_model) 를 따로 가짐)는 다릅니다."""
    from predict import respond

    q = predict_data("multi_head.md", 1)
    twelve, twelfth = respond(q, "12")[2], respond(q, "1/12")[2]
    assert "따로" not in twelve and "좁" in twelve
    assert "따로" in twelfth and "많을수록" in twelfth


@pytest.mark.reads("docs/self_vs_cross.md")
def test_self_vs_cross_says_what_the_smallest_change_measures():
    """ "가장 적게 바뀐 토큰도 1.755만큼" 은 무엇의 변화인지 말하지 않았습니다: 출력 벡터의 한 성분입니다 (change_q1 은 성분의 최대 변화)."""
    q = predict_data("self_vs_cross.md", 1)
    assert "성분이 {smallest}만큼" in q["right"]
