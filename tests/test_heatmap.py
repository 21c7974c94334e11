"""docs/heatmap.md: 무작위 파라미터 히트맵이 보여 주는 것(모양, 행의 합, 스케일링)과 보여 주지 못하는 것."""

import re

import numpy as np
import pytest

from page_outputs import page_output
from site_pages import DOCS
from test_glossary import prose

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/heatmap.md")


@pytest.fixture(scope="module")
def hm():
    import heatmap

    return heatmap


def test_shape_and_rows(hm):
    assert hm.weights.shape == (6, 6)
    np.testing.assert_allclose(hm.weights.sum(-1), 1.0)
    assert not np.allclose(hm.weights, hm.weights.T)  # 대칭이 아닙니다


def test_unscaled_rows_are_sharper(hm):
    assert np.all(hm.unscaled.max(-1) >= hm.weights.max(-1))
    assert hm.unscaled.max(-1).mean() > hm.weights.max(-1).mean() + 0.3


def test_random_heatmaps_pick_a_random_favourite(hm):
    counts = np.array(list(hm.top_counts.values()))
    assert counts.sum() == 200
    # 고른 분포(기댓값 200/6 ≈ 33)와 카이제곱 검정: 자유도 5 의 99.9% 임계값 20.5
    chi2 = ((counts - 200 / 6) ** 2 / (200 / 6)).sum()
    assert chi2 < 20.5
    assert 0.1 < hm.top_counts["sat"] / 200 < 0.25


def test_alt_text_claims(hm):
    # "왼쪽은 색이 여러 칸에 퍼져 있고, 오른쪽은 ... 여섯 행 가운데 네 행은 한 칸이 0.9를 넘는다"
    assert hm.weights.max() < 0.5
    assert (hm.unscaled.max(axis=-1) > 0.9).sum() == 4


def test_quiz_answers(hm):
    # 문제 1: 같은 키가 둘이면 두 칸이 똑같이 나눠 받고, 합은 원래 한 칸보다 큽니다 (분모에 한 번 더 들어감)
    s = hm.scores[hm.cat] / np.sqrt(hm.d_k)
    e = np.exp(s - s.max())
    twice = 2 * e[hm.mat] / (e.sum() + e[hm.mat])
    np.testing.assert_allclose(hm.w_twice[:, hm.mat], hm.w_twice[:, -1])
    np.testing.assert_allclose(hm.w_twice[hm.cat, hm.mat] + hm.w_twice[hm.cat, -1], twice, rtol=1e-12)
    assert twice > hm.weights[hm.cat, hm.mat]
    np.testing.assert_allclose(hm.w_twice.sum(-1), 1.0)
    np.testing.assert_allclose(hm.w_same[0], hm.w_same[4])
    np.testing.assert_allclose(hm.w_same[:, 0], hm.w_same[:, 4])
    assert not np.allclose(hm.weights[0], hm.weights[4])  # 원래 예제에서는 두 행이 다릅니다
    row = hm.tokens.index("The")
    assert hm.tokens[int(hm.weights[row].argmax())] == "cat"
    assert hm.tokens[int(hm.contribution.argmax())] == "the"
    np.testing.assert_allclose(hm.contribution, hm.weights[row] * np.linalg.norm(hm.X @ hm.W_V, axis=-1))
    assert round(hm.weights[hm.cat].max(), 2) == 0.41  # 문제 4 의 "cat 행에서 가장 밝은 칸은 0.41"


def test_quiz_page_output():
    out = page_output("heatmap.md")
    assert "'cat' 행의 mat: 하나일 때 0.4076" in out
    assert "둘일 때 0.2896 + 0.2896 = 0.5792" in out and "모든 행에서 두 mat 칸이 같은가? True" in out
    assert "두 토큰의 행이 같은가? True\n두 토큰의 열이 같은가? True" in out
    assert "가중치 1등: cat  길이 1등: the" in out
    assert "토큰  6개: 고른 몫 0.167, 가장 밝은 칸 0.41 → 2.4배" in out
    assert "토큰 60개: 고른 몫 0.017, 가장 밝은 칸 0.20 → 12.0배" in out


def page_text():
    return (DOCS / "heatmap.md").read_text(encoding="utf-8")


def test_the_page_quotes_the_seed_counts(hm):
    """본문: 200번 동안 cat 행의 1등을 여섯 토큰이 몇 번씩 나눠 가졌는지와 sat 의 비율 (출력과 같은 숫자)."""
    counts = hm.top_counts.values()
    assert f"{min(counts)}–{max(counts)}번씩" in page_text()
    assert f"sat이 1등인 비율({hm.top_counts['sat'] / 200:.3f})" in page_text()
    assert "흩어지고" not in page_text()  # issue 29: "cat의 1등은 … 흩어지고"


def test_clark_direction_is_the_measured_one():
    """issue 29: Clark 외(2019)의 초록은 "attend to the direct objects of verbs" 라고 쓰지만, 4절과 그림 5 에서
    측정한 방향은 목적어 → 동사입니다 ("in head 8-10 direct objects attend to their verbs"). 표가 둘 다 밝힙니다."""
    row = next(line for line in page_text().splitlines() if "헤드 8-10" in line)
    assert "초록" in row and "동사의 직접 목적어에 주목하는" in row
    assert "목적어가 자기 동사를" in row and "86.8%" in row and "40.0%" in row


def test_trained_figure_titles_say_what_they_average(hm):
    """issue 29: "괄호 속 숫자는…" 이라던 글과 달리 제목에 괄호가 없었고, 평균이 무엇의 평균인지도 없었습니다.
    이제 제목 둘째 줄이 무엇의 평균인지 말하고(trained_title), 글은 그 말들을 그대로 풀어 씁니다."""
    assert hm.trained_title("1-3", "이전 토큰", 0.9997) == "1-3: 이전 토큰\n앞 토큰에 주는 몫 1.00"
    assert hm.trained_title("1-1", "넓게 보기", 2.0424) == "1-1: 넓게 보기\n엔트로피 2.04"
    text = prose(page_text())
    assert "괄호 속" not in text
    assert "figures/heatmap-trained.png" in page_text() and "figures/real_model-showcase.png" not in page_text()
    assert "영어 문장 24개의 평균" in text
    places = [m.removesuffix("에 주는 몫") for m in hm.TRAINED_MEASURES.values() if m.endswith("에 주는 몫")]
    assert places == ["앞 토큰", "뒤 토큰", "[CLS]"]
    assert f"그 습관의 자리({', '.join(places)})에 주는 가중치를" in text
    assert hm.TRAINED_MEASURES["넓게 보기"] == "엔트로피" and "엔트로피(entropy" in text


def test_quiz_1_says_what_the_two_cells_do():
    """issue 29: "하는 일은 한 자리입니다" 대신, 두 칸이 같은 밸류를 가져와 출력에 한 자리로 더해진다고 씁니다."""
    assert "하는 일은 한 자리" not in page_text()
    assert re.search(r"같은 밸류를 가져오므로 출력에는 두 몫을 더한 한 자리로", page_text())


@pytest.mark.reads("docs/index.md")
def test_a_layer_is_defined_once_on_the_main_path():
    """issue 39 §5: 히트맵 장이 들어가며(index.md)의 층(layer) 정의를 되풀이했습니다. 뜻은 처음 쓰는 곳(들어가며)에서 한 번만
    밝히고(tests/test_first_use.py), 히트맵 장은 영어 원어만 붙여 씁니다."""
    from site_pages import DOCS

    defines = re.compile(r"층\(layer\)(?:이)?라고 부릅니다")
    assert defines.search((DOCS / "index.md").read_text(encoding="utf-8"))
    text = prose(page_text())
    assert not defines.search(text) and "계산 단계를 여러 번 쌓았고" not in text
    assert "BERT-base는 층(layer)이 12개" in text
