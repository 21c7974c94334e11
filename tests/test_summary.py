"""docs/summary.md: 차례 단계 수는 같아도 비용은 n², 그리고 ViT·Whisper 의 토큰 수."""

import pytest


@pytest.fixture(scope="module")
def sm():
    import summary

    return summary


def test_rnn_steps_grow_and_attention_steps_do_not(sm):
    rnn = {n: s[0] for n, s in sm.steps.items()}
    attn = {n: s[1] for n, s in sm.steps.items()}
    assert len(set(attn.values())) == 1
    assert rnn[512] - rnn[64] == 2 * (512 - 64)  # 토큰마다 두 줄 (for 와 상태 갱신)


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
    assert sm.f4096 / sm.f1024 == 16 and sm.m1024 == 4.0 and sm.m4096 == 64.0
    assert sm.patches_384 + 1 == 577 and (sm.patches_384 + 1) ** 2 == 332_929
    assert round((sm.patches_384 + 1) / (sm.vit_patches + 1), 1) == 2.9
    assert round(((sm.patches_384 + 1) / (sm.vit_patches + 1)) ** 2, 1) == 8.6
    assert sm.python_steps(sm.self_attention, sm.x_long) == sm.steps[8][1]
    assert sm.w_new.shape == (1, 512) and sm.out_new.shape == (1, 16)
