"""글의 약속 (issue 22): 헤드는 1부터 세고, 독자가 읽는 글에 프로젝트 내부(테스트, CI, 픽스처, 빌드 함수 이름)가
나오지 않으며, 고친 띄어쓰기와 낱말이 되돌아오지 않습니다. 용어(가중치 ↔ 파라미터)는 test_glossary.py 가 봅니다."""

import re

import pytest

from conftest import SNIPPETS
from site_pages import DOCS
from test_glossary import prose

LEARNER_PAGES = [
    "index.md",
    "library_analogy.md",
    "four_steps.md",
    "why_scale.md",
    "heatmap.md",
    "self_vs_cross.md",
    "multi_head.md",
    "summary.md",
    "real_model.md",
    "korean_model.md",
    "korean_loading.md",
    "glossary.md",
    "head_roles.md",
]
NOTEBOOKS = sorted((SNIPPETS / "notebooks").glob("*.md"))
SOURCES = [DOCS / p for p in LEARNER_PAGES] + NOTEBOOKS


def text_of(path):
    return prose(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_heads_are_counted_from_one(path):
    """글과 그림의 헤드는 1부터 셉니다 ("헤드 1–8", "헤드 7-11"). 코드의 0부터 세는 인덱스는 `Qh[0]`처럼 코드로 적습니다."""
    assert not re.search(r"헤드 0(?![.\d])", text_of(path)), f"{path.name}: '헤드 0' 이 있습니다"


def test_printed_head_names_count_from_one():
    """스니펫이 찍는 헤드 이름도 1부터입니다 (f"헤드 {i}" 처럼 0부터 세는 인덱스를 그대로 찍지 않습니다)."""
    for path in SNIPPETS.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert not re.search(r"헤드 0\b|헤드 \{(?:i|h|head)\}", line), f"{path.name}: {line.strip()}"


INTERNALS = [
    "tests/",
    "테스트가",
    "테스트는",
    "CI",
    "fixtures",
    "npz",
    "data_minilm",
    "data_e5",
    "datafiles_",
    "data_explorer",
    "이 작업 환경",
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_project_internals_in_learner_prose(path):
    text = text_of(path)
    found = [w for w in INTERNALS if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)]
    assert not found, f"{path.name}: 독자가 읽는 글에 프로젝트 내부가 있습니다: {found}"


SPACING = [
    (r"\d (?:입니다|짜리)", "숫자와 '입니다'·'짜리' 는 붙여 씁니다 (64입니다, 8짜리)"),
    (r"[①②③④] [과와는을를이가의로](?![가-힣])", "①과 처럼 조사를 붙여 씁니다"),
    (
        r"(?<!\.)\*\* [을를이가은는의와과도로만](?![가-힣])",
        "굵은 글씨 뒤 조사를 띄우지 않습니다 (문장을 바꿔 굵은 글씨가 구두점으로 끝나지 않게)",
    ),
]
WORDS = {
    "넘게를": "'90% 넘게 몰아 준'",
    "유난": "'두드러지게 반응하는'",
    "여러 서열 정렬": "'다중 서열 정렬'",
    "맞대어 보는 자": "'잣대'",
}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_korean_spacing_and_words(path):
    text = text_of(path)
    for pattern, why in SPACING:
        m = re.search(pattern, text)
        assert not m, f"{path.name}: {why}: …{text[max(m.start() - 15, 0) : m.end() + 10]!r}"
    for word, instead in WORDS.items():
        assert word not in text, f"{path.name}: '{word}' 대신 {instead}"


def test_the_checks_can_fail():
    assert re.search(SPACING[0][0], "폭이 64 입니다") and re.search(SPACING[1][0], "① 과 ② 는")
    assert re.search(SPACING[2][0], '**True가 "볼 수 있음"** 을 뜻합니다')
    assert not re.search(SPACING[2][0], "**굵게** 가져옵니다")
    assert re.search(r"헤드 0(?![.\d])", "헤드 0의 쿼리") and not re.search(r"헤드 0(?![.\d])", "헤드 0.5")
