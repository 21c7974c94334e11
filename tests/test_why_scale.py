"""docs/why_scale.md: √d_k 로 나누는 이유를 숫자로. 페이지의 문장이 여기서 확인하는 값에 기대고 있습니다."""

import math

import numpy as np
import pytest

from attention import softmax
from page_outputs import printed
from site_pages import DOCS


@pytest.fixture(scope="module")
def ws():
    import why_scale

    return why_scale


def test_dot_product_spread_is_sqrt_dk(ws):
    for d_k, dots in ws.spread.items():
        # 표준편차 = √d_k (표본 1만 개의 상대 오차는 1% 안팎)
        assert dots.std() / math.sqrt(d_k) == pytest.approx(1.0, abs=0.03), d_k
        # 평균은 0: 표준오차 √(d_k/N) 의 4배 안
        assert abs(dots.mean()) < 4 * math.sqrt(d_k / dots.size), d_k
        assert (dots / math.sqrt(d_k)).std() == pytest.approx(1.0, abs=0.03)


def test_what_exactly_grows_eight_times(ws):
    one, big = ws.spread[1], ws.spread[64]
    assert big.std() / one.std() == pytest.approx(8.0, rel=0.04)  # "8배"는 표준편차
    assert big.var() / one.var() == pytest.approx(64.0, rel=0.08)  # 분산은 64배
    # |q·k| 의 평균은 약 10배: d_k=1 이면 E|q₁k₁| = 2/π, d_k=64 이면 거의 정규분포라 √(2/π)·8
    expected = math.sqrt(2 / math.pi) * 8 / (2 / math.pi)
    assert np.abs(big).mean() / np.abs(one).mean() == pytest.approx(expected, rel=0.04)
    assert expected == pytest.approx(10.03, abs=0.01)


def test_scaling_keeps_softmax_from_saturating(ws):
    raw_p = softmax(ws.raw, axis=-1)
    scaled_p = softmax(ws.raw / 8.0, axis=-1)
    assert raw_p.max(-1).mean() > 0.8 and scaled_p.max(-1).mean() < 0.4
    assert (raw_p.max(-1) > 0.99).mean() > 0.3
    assert (scaled_p.max(-1) > 0.99).mean() == 0.0
    assert ws.entropy(scaled_p).mean() > 1.5 > 0.5 > ws.entropy(raw_p).mean()
    assert ws.entropy(np.full(10, 0.1)) == pytest.approx(math.log(10))


def test_the_articles_example_barely_spreads():
    p = softmax(np.array([10.0, 0.1, 0.1]))
    assert p[0] > 0.9998  # 10 으로 나눠도 여전히 한 곳에 몰립니다
    assert math.exp(-9.9) < 1e-4
    np.testing.assert_allclose(softmax(np.array([2.0, 1.0, 0.5])), [0.6285, 0.2312, 0.1402], atol=1e-4)
    assert softmax(np.array([16.0, 8.0, 4.0]))[0] > 0.999


def test_jacobian_formula_matches_finite_differences(ws):
    s = np.array([0.3, -1.2, 2.0, 0.5])
    J = ws.softmax_jacobian(s)
    eps = 1e-6
    numeric = np.stack([(softmax(s + eps * e) - softmax(s - eps * e)) / (2 * eps) for e in np.eye(4)], axis=1)
    np.testing.assert_allclose(J, numeric, atol=1e-8)


def test_saturated_softmax_kills_every_score_gradient(ws):
    J = ws.softmax_jacobian(np.array([100.0, 1.0, 1.0]))
    # 1등 자리도 2e-43 수준: p₁(p₂ + p₃) = 2·e⁻⁹⁹/(1 + 2e⁻⁹⁹)
    assert np.abs(J).max() < 1e-40 and J[0, 0] == pytest.approx(2 * math.exp(-99), rel=1e-9)
    naive = np.diag(ws.p_big) - np.outer(ws.p_big, ws.p_big)
    assert naive[0, 0] == 0.0  # 1 − p₁ 을 그대로 빼면 반올림으로 0
    assert np.abs(ws.softmax_jacobian(np.array([10.0, 0.1, 0.1]))).max() == pytest.approx(1e-4, rel=0.02)
    assert np.abs(ws.softmax_jacobian(np.array([2.0, 1.0, 0.5]))).max() > 0.2
    norms_raw = np.array([np.linalg.norm(ws.softmax_jacobian(r)) for r in ws.raw])
    norms_scaled = np.array([np.linalg.norm(ws.softmax_jacobian(r / 8.0)) for r in ws.raw])
    assert np.median(norms_scaled) > 3 * np.median(norms_raw)
    assert (norms_raw < 0.01).mean() > 0.25 and (norms_scaled < 0.01).mean() == 0.0
    assert ws.p[0] == 1.0 and ws.p[1:].max() < 1e-40  # 밸류 쪽 기울기 p_j: 1등은 그대로 1


def test_naive_softmax_overflows_and_the_stable_one_does_not(ws):
    with np.errstate(over="ignore", invalid="ignore"):
        assert np.all(np.isnan(ws.naive_softmax(np.array([1000.0, 999.0]))))
        assert np.isinf(np.exp(np.float32(89.0))) and np.isfinite(np.exp(np.float32(88.0)))
    np.testing.assert_allclose(softmax(np.array([1000.0, 999.0])), [0.7311, 0.2689], atol=1e-4)


def test_quiz_answers(ws):
    # 문제 1: 퍼짐은 √d_k 에 비례하므로 d_k 를 4배로 하면 2배, 16배(1024)로 해야 4배입니다
    assert ws.target == 1024 and list(ws.spread_dk) == [64, 256, 1024]
    assert ws.spread_dk[64] == pytest.approx(8.0, rel=0.03)
    assert ws.spread_dk[256] / ws.spread_dk[64] == pytest.approx(2.0, rel=0.04)
    assert ws.spread_dk[1024] / ws.spread_dk[64] == pytest.approx(4.0, rel=0.04)
    # 성분을 두 배로 키우면 나눈 점수의 표준편차는 4배: √d_k 는 차원만 보고 나눕니다
    assert ws.before == pytest.approx(1.0, rel=0.03) and ws.after / ws.before == pytest.approx(4.0, rel=1e-12)
    assert ws.p1[ws.slope.argmax()] == pytest.approx(0.5) and ws.slope.max() == pytest.approx(0.25)
    row = np.array(ws.explorer["scores"][1])
    scaled, raw = softmax(row / 8), softmax(row)
    assert scaled.argmax() == raw.argmax() == 5  # 1등은 mat 그대로
    assert round(scaled.max(), 2) == 0.41 and round(raw.max(), 2) == 0.95
    assert round(ws.entropy(scaled), 2) == 1.47 and round(ws.entropy(raw), 2) == 0.21


# 페이지 출력 전체는 tests/test_page_snapshots.py 의 스냅숏이 고정합니다. 여기는 본문이 풀어 쓰는 숫자만 이름 붙여 봅니다.


@pytest.mark.reads("docs/why_scale.md")
def test_the_page_quotes_the_unscaled_peak():
    """본문이 "가장 큰 가중치의 평균이 0.867" 이라고 풀어 씁니다 (나누지 않으면 한 곳에 몰린다는 논지)."""
    assert printed("why_scale.md", r"나누지 않음\n  가장 큰 가중치 평균 ([\d.]+)") == pytest.approx(0.867, abs=5e-4)
    assert printed("why_scale.md", r"÷ √d_k\n  가장 큰 가중치 평균 ([\d.]+)") < 0.4


@pytest.mark.reads("docs/why_scale.md")
def test_the_page_quotes_the_share_of_queries_on_one_key():
    """본문: "쿼리 세 개 가운데 하나꼴(0.356)은 한 키에 99% 넘게" 몰아 주고, 나누면 그런 쿼리가 사라집니다."""
    raw = printed("why_scale.md", r"나누지 않음\n(?:  .*\n)*?  한 키에 0\.99 넘게 몰린 쿼리 ([\d.]+)")
    scaled = printed("why_scale.md", r"÷ √d_k\n(?:  .*\n)*?  한 키에 0\.99 넘게 몰린 쿼리 ([\d.]+)")
    assert raw == pytest.approx(0.356, abs=5e-4) and round(1 / raw) == 3 and scaled == 0
    assert "쿼리 세 개 가운데 하나꼴(0.356)" in (DOCS / "why_scale.md").read_text(encoding="utf-8")


@pytest.mark.reads("docs/why_scale.md")
def test_the_page_keeps_the_papers_hedge():
    """issue 29 §3: Vaswani 외(2017) 3.2.1절은 큰 d_k 가 소프트맥스를 기울기가 작은 곳으로 민다고 "We suspect" 라고
    적었습니다. 페이지는 그 말을 확인된 사실처럼 옮기지 않습니다."""
    text = (DOCS / "why_scale.md").read_text(encoding="utf-8")
    assert "논문도 이 때문에" not in text
    sentence = next(line for line in text.splitlines() if "We suspect" in line)
    assert "추측한다" in sentence and "[^vaswani]" in sentence


@pytest.mark.reads("docs/why_scale.md")
def test_the_page_quotes_the_gradient_norms(ws):
    """ "몇 분의 일에 그치고, 세 행에 한 행꼴은" 대신 출력의 숫자를 그대로: 중앙값 두 개, 그 비, 0.01 보다 작은 행."""
    raw = printed("why_scale.md", r"나누지 않음\n  노름 중앙값 ([\d.]+)\n")
    scaled = printed("why_scale.md", r"÷ √d_k\n  노름 중앙값 ([\d.]+)\n")
    small = printed("why_scale.md", r"나누지 않음\n  노름 중앙값 [\d.]+\n  0\.01 보다 작은 행 ([\d.]+)")
    text = (DOCS / "why_scale.md").read_text(encoding="utf-8")
    assert f"중앙값이 {raw:.3f}로, 나눈 경우({scaled:.3f})의 {round(scaled / raw)}분의 1쯤" in text
    assert f"0.01보다 작은 행도 {small:.0%}나" in text
    assert "몇 분의 일" not in text and "한 행꼴" not in text


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_quiz_1_answer_holds_on_other_seeds(seed):
    """문제 1 의 답(1024)은 페이지의 난수 하나에서 잰 4.07배에 기대지 않습니다: 다른 시드에서도 d_k = 1024 의 퍼짐은
    d_k = 64 의 4배 근처이고(±5 %), 256 은 2배 근처입니다 (그래서 틀린 답 256 이 틀립니다)."""
    r = np.random.default_rng(seed)
    spread = {}
    for d in (64, 256, 1024):
        q, k = r.standard_normal((4_000, d)), r.standard_normal((4_000, d))
        spread[d] = np.sum(q * k, axis=-1).std()
    assert spread[1024] / spread[64] == pytest.approx(4.0, rel=0.05)
    assert spread[256] / spread[64] == pytest.approx(2.0, rel=0.05)


@pytest.mark.reads("docs/why_scale.md")
def test_the_chapter_opens_with_chapter_1s_tenfold_request():
    """issue 41: 3장은 분산 이야기 전에 1장 문제 3 의 직관(요청을 열 배로 키우면 고르는 책은 그대로, 가중치는 한 권에 몰림)으로
    엽니다. 글의 두 숫자는 1장 스니펫의 값입니다."""
    import library_analogy as la

    text = (DOCS / "why_scale.md").read_text(encoding="utf-8")
    intro = text.split("\n## ", 1)[0]
    assert "library_analogy.md#확인-문제" in intro and "열 배" in intro
    assert np.array_equal(la.scores_loud, 10 * la.scores_cooking)
    before, after = la.weights_cooking.max(), la.weights_loud.max()
    assert f"{before:.3f}에서 {after:.5f}로" in intro, (before, after)
    assert intro.index("열 배") < text.index("분산")


@pytest.mark.reads("docs/why_scale.md")
def test_the_title_draws_a_real_radical_over_d_k():
    """issue 41: 제목의 "√d_k" 가 본문 글꼴의 √ 한 글자여서 근호의 가로줄이 d_k 를 덮지 못했습니다. 제목도 본문의 수식처럼
    빌드가 MathML(<msqrt>, STIX Two Math 의 MATH 표로 늘여 그림)로 그립니다. 앵커와 목차 이름은 예전 그대로입니다."""
    import lxml.html

    from site_pages import rendered

    h1 = lxml.html.fragment_fromstring(rendered(DOCS / "why_scale.md"), create_parent="div").find(".//h1")
    assert h1.get("id") == "d_k로-나누는-이유"
    from site_pages import _markdown, expander

    md = _markdown(False)
    md.reset()
    md.convert(expander()((DOCS / "why_scale.md").read_text(encoding="utf-8")))
    assert md.toc_tokens[0]["name"] == "√d_k로 나누는 이유"  # 목차·검색의 이름은 수식 글자가 섞이지 않은 그대로
    sqrt = h1.find(".//{http://www.w3.org/1998/Math/MathML}msqrt")
    if sqrt is None:  # lxml.html 은 이름공간을 떼고 읽습니다
        sqrt = h1.find(".//msqrt")
    assert sqrt is not None, lxml.html.tostring(h1, encoding="unicode")
    assert "".join(sqrt.itertext()) == "dk"  # 근호 아래에 d_k 전체
    assert "√" not in "".join(t for t in h1.xpath("text()"))  # 글자 √ 는 남지 않습니다
