"""예제 하나에 출처 하나: 같은 예제를 쓰는 페이지와 실습 노트북이 같은 배열을 봅니다.

학습자는 4장의 히트맵과 파트 2 의 히트맵을, 6장의 헤드 8개와 파트 3 의 헤드 8개를 나란히 놓고
비교합니다. 어느 한쪽이 시드나 차원을 따로 고르면 그림이 달라지므로, 입력 배열이 글자 그대로
같은지(array_equal) 확인하고, 계산 결과가 같은지 봅니다. 테스트마다 견주는 장만 import 합니다: 장 하나를 고친
make quick 이 그 장을 쓰는 테스트만 돌리고, 다른 장(why_scale 은 import 에 2초)을 읽지 않게.
"""

import numpy as np


def test_korean_sentence_is_the_same_in_chapters_1_2_5_and_part_1():
    import four_steps as fs
    import library_analogy as la
    import practice_part1 as p1
    import self_vs_cross as sc

    for name in ("X", "Q", "K", "V"):
        for other, module in (("fs", fs), ("p1", p1)):
            np.testing.assert_array_equal(getattr(la, name), getattr(module, name), err_msg=f"{other}.{name}")
    np.testing.assert_array_equal(sc.enc, la.X)
    np.testing.assert_allclose(p1.weights, fs.weights, rtol=1e-12)
    # 5장의 인코더 셀프 어텐션은 1장의 행렬을 쓰므로 2장의 가중치와 같습니다 (페이지가 그렇게 말합니다).
    np.testing.assert_allclose(sc.w_self, fs.weights, rtol=1e-12)


def test_cat_sentence_is_the_same_in_chapter_4_and_part_2():
    import heatmap as hm
    import practice_part2 as p2

    assert hm.tokens == p2.tokens == ["The", "cat", "sat", "on", "the", "mat"]
    assert hm.d_k == p2.K.shape[-1] == 64
    np.testing.assert_array_equal(hm.X, p2.X)
    for name in ("W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(hm, name), p2.params[name])
    np.testing.assert_allclose(p2.weights, hm.weights, rtol=1e-12)


def test_cat_sentence_is_the_same_in_chapter_6_and_part_3():
    import multi_head as mh
    import practice_part3 as p3

    assert mh.tokens == p3.tokens and (mh.d_model, mh.h) == (p3.d_model, p3.h) == (64, 8)
    np.testing.assert_array_equal(mh.X, p3.X)
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        np.testing.assert_array_equal(mh.params[name], p3.params[name])
    np.testing.assert_allclose(p3.weights, mh.weights, rtol=1e-12)
    np.testing.assert_allclose(p3.output, mh.out, rtol=1e-10, atol=1e-12)


def test_chapters_4_and_6_share_the_same_single_head_input():
    """6장은 4장의 W_Q, W_K, W_V 를 헤드 8개로 나눠 씁니다."""
    import heatmap as hm
    import multi_head as mh

    np.testing.assert_array_equal(hm.X, mh.X)
    np.testing.assert_array_equal(hm.W_Q, mh.params["W_Q"])


def test_both_explorers_show_the_same_scores():
    import heatmap as hm
    import why_scale as ws

    a, b = ws.data_explorer(), hm.data_explorer()
    assert a["tokens"] == b["tokens"] and a["d_k"] == b["d_k"] == 64
    assert a["scores"] == b["scores"]
    np.testing.assert_allclose(np.array(b["scores"]), hm.scores, atol=1e-6)


def test_part_1_steps_give_the_core_answer():
    """파트 1 은 코어 함수를 부르지 않고 네 단계를 한 줄씩 계산합니다. 그 결과가 코어와 같습니다."""
    import practice_part1 as p1
    from attention import scaled_dot_product_attention

    out_core, w_core = scaled_dot_product_attention(p1.Q, p1.K, p1.V)
    np.testing.assert_allclose(p1.weights, w_core, rtol=1e-12)
    np.testing.assert_allclose(p1.output, out_core, rtol=1e-12)
