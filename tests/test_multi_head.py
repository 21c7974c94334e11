"""docs/multi_head.md: 한 번의 배열 연산, 파라미터와 FLOP, GPT-3 의 숫자."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mh():
    import multi_head

    return multi_head


def test_heads_are_column_blocks(mh):
    assert mh.Qh.shape == (8, 6, 8)
    for i in range(8):
        np.testing.assert_array_equal(mh.Qh[i], mh.Q[:, 8 * i : 8 * (i + 1)])


def test_batched_equals_loop(mh):
    assert mh.weights.shape == (8, 6, 6) and mh.out.shape == (6, 64)
    np.testing.assert_allclose(mh.loop_out, mh.out, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n, d", [(512, 512), (10, 64), (37, 96)])
def test_cost_formula_matches_counted_arrays(mh, n, d):
    for h in (1, 2, 8 if d % 8 == 0 else 4):
        assert mh.measured_cost(n, d, h) == mh.attention_cost(n, d, h)


def test_h_heads_cost_the_same_matmuls_but_h_times_the_weights(mh):
    one, eight = mh.attention_cost(512, 512, 1), mh.attention_cost(512, 512, 8)
    assert one["파라미터"] == eight["파라미터"] == 4 * 512 * 512 == 1_048_576
    assert one["FLOP"] == eight["FLOP"] == 1_610_612_736
    assert eight["가중치 원소"] == 8 * one["가중치 원소"] == 8 * 512 * 512


def test_gpt3_numbers(mh):
    assert mh.d // mh.heads_gpt3 == 128
    total = mh.attn_params + mh.ffn_params
    assert mh.attn_params / 1e9 == pytest.approx(58.0, abs=0.05)
    assert 0.98 < total / 175.0e9 < 1.0  # 행렬만 세어도 논문 전체 크기의 99%


def test_alt_text_claims(mh):
    assert mh.weights.max() < 0.7  # "가장 밝은 칸도 0.7에 못 미친다"


def test_quiz_answers(mh):
    assert mh.attention_cost(128, 768, 1)["파라미터"] == mh.attention_cost(128, 768, 12)["파라미터"] == 2_359_296
    assert mh.xh.shape == (2, 12, 10, 64) and mh.w_batch.shape == (2, 12, 10, 10)
    assert mh.naive.shape == mh.Qh.shape and not np.array_equal(mh.naive, mh.Qh)
    np.testing.assert_array_equal(mh.naive[0].ravel(), mh.Q[0, :48])
    one, eight = mh.measured_cost(6, 64, 1), mh.measured_cost(6, 64, 8)
    assert eight["가중치 원소"] == 8 * one["가중치 원소"] == 288
    assert one["FLOP"] == eight["FLOP"] and one["파라미터"] == eight["파라미터"]
    # 문제 4: 헤드들을 평균한 한 장은 행의 합이 1 이지만, 그것으로 섞은 출력은 멀티헤드 출력과 다릅니다
    np.testing.assert_allclose(mh.mean_w.sum(-1), 1.0)
    assert not np.allclose(mh.from_mean, mh.out) and round(mh.gap, 2) == 0.53


@pytest.mark.reads("docs/multi_head.md", "snippets/notebooks/part3_multi_head.md")
def test_the_practice_exercise_cited_is_the_one_that_shrinks_the_weights():
    """본문이 "값을 줄이면 …(실습 파트 3의 연습 N)" 이라고 가리키는 연습이 정말 W_Q, W_K 를 작게 만드는 연습입니다
    (연습 2 는 헤드의 자리를 맞바꾸는 연습인데 본문이 연습 2 를 가리켰습니다)."""
    import re

    from conftest import SNIPPETS
    from site_pages import DOCS

    page = (DOCS / "multi_head.md").read_text(encoding="utf-8")
    (n,) = re.findall(r"실습 파트 3의 연습 (\d+)", page)
    notebook = (SNIPPETS / "notebooks" / "part3_multi_head.md").read_text(encoding="utf-8")
    exercise = re.search(rf"\*\*연습 {n}\.\*\* ([^\n]*)", notebook).group(1)
    assert "W_Q와 W_K에" in exercise and "작게" in exercise, exercise


@pytest.mark.reads("docs/multi_head.md")
def test_the_memo_analogy_comes_before_the_formulas_and_stays_honest():
    """issue 41: 수식 앞에 일상의 비유(같은 메모에 사람마다 다른 곳에 밑줄)를 둡니다. 비유가 헤드의 역할을 누가 정해 준
    것처럼 말하지 않게, 역할은 학습으로 생기고, 4장에서 본 학습된 헤드의 무늬는 뜻보다 위치·특수 토큰의 습관일 때가 많다고 함께 적습니다."""
    import re

    from site_pages import DOCS

    page = (DOCS / "multi_head.md").read_text(encoding="utf-8")
    body = page.split("\n# ", 1)[1]
    analogy = next(p for p in body.split("\n\n") if "메모" in p)
    assert body.index(analogy) < body.index("$$"), "비유가 수식 뒤에 있습니다"
    assert "밑줄" in analogy and "어텐션 가중치" in analogy  # 비유의 무엇이 식의 무엇인지
    # 밑줄 칠 곳(역할)은 누가 정해 주는 것이 아니라 학습된 W_Q, W_K가 정한다는 말이 비유 안에 있어야 합니다.
    assert re.search(r"누가 정해 주지 않[^.]*학습된 W_Q, W_K가 정합니다", analogy)
    assert "위치나 특수 토큰을 따르는 습관" in analogy and "heatmap.md" in analogy  # 4장이 보인 것
