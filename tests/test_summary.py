"""docs/summary.md: 차례 단계 수(RNN n, 어텐션 3)는 달라도 어텐션의 비용은 n², 그리고 ViT·Whisper 의 토큰 수."""

import numpy as np
import pytest

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/summary.md", "docs/efficient.md")


@pytest.fixture(scope="module")
def sm():
    import summary

    return summary


def test_rnn_steps_grow_and_attention_steps_do_not(sm):
    # 차례 단계 = 입력을 기다리는 연산의 사슬 길이: RNN 은 토큰 수, 어텐션은 점수·소프트맥스·가중합의 3
    assert sm.steps == {n: (n, 3) for n in (8, 64, 512)}
    assert sm.same_as_core
    x = sm.rng.standard_normal((5, sm.d))
    np.testing.assert_allclose(sm.self_attention(x).array, sm.scaled_dot_product_attention(x, x, x)[0], rtol=1e-12)
    h = np.zeros(sm.d)  # RNN 도 평범한 반복문과 같은 값입니다
    for x_t in x:
        h = np.tanh(sm.W @ h + sm.U @ x_t)
    np.testing.assert_allclose(sm.rnn(x, sm.W, sm.U).array, h, rtol=1e-12)
    # 깊이는 "가장 늦은 입력 + 1": 서로 기다리지 않는 두 연산을 합치면 한 단계만 늡니다
    a, b = sm.step(np.negative, sm.Value(x)), sm.step(np.abs, sm.Value(x))
    assert sm.step(np.add, a, b).steps == 2 and sm.step(np.add, sm.step(np.negative, a), b).steps == 3


def test_quadratic_cost(sm):
    f128, m128 = sm.attention_core_cost(128)
    f512, _ = sm.attention_core_cost(512)
    f8192, m8192 = sm.attention_core_cost(8192)
    assert f512 / f128 == 16 and f8192 / f128 == 4096
    assert m8192 == 256.0 and m8192 / m128 == 4096


def test_beyond_nlp_token_counts(sm):
    assert sm.vit_patches + 1 == 197
    assert sm.frames // 2 == 1500


def test_quiz_answers(sm):
    # 문제 1: 투영은 n 에, 점수·가중합은 n² 에 비례합니다. 둘이 같아지는 n = 1.5 × d_model = 768
    assert sm.p4096 / sm.p1024 == 4 and sm.f4096 / sm.f1024 == 16 and sm.even == 768
    assert sm.patches_384 + 1 == 577 and (sm.patches_384 + 1) ** 2 == 332_929
    assert round((sm.patches_384 + 1) / (sm.vit_patches + 1), 1) == 2.9
    assert round(((sm.patches_384 + 1) / (sm.vit_patches + 1)) ** 2, 1) == 8.6
    assert sm.self_attention(sm.x_long).steps == sm.steps[8][1] == 3
    assert sm.w_new.shape == (1, 512) and sm.out_new.shape == (1, 16)


def test_summary_does_not_call_8_a_way_to_cut_the_n2_cost():
    """issue 29 §2: FlashAttention 은 n² FLOP 을 그대로 두고(메모리만 줄임), KV 캐시는 되풀이 계산을 피할 뿐이라
    "n² 비용을 줄이는 방법들" 은 틀린 말입니다. 8장은 선택 과정이고, 정리 다음은 실습 파트 1 입니다."""
    from site_pages import DOCS
    from test_glossary import prose

    text = prose((DOCS / "summary.md").read_text(encoding="utf-8"))
    assert "비용을 줄이는" not in text and "다음 장에서는" not in text
    assert "FlashAttention은 계산량(n²)은 그대로 두고" in text
    assert "[실습 파트 1](practice/part1_numpy_attention.ipynb)" in text and "선택 과정인 [8장](efficient.md)" in text
