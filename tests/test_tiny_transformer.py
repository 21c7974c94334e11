"""작은 Transformer (snippets/lib/tiny_transformer.py, repeat_task.py, tiny_training.py): 역전파 = 중앙 차분(float64),
층 하나 = 코어의 어텐션, 학습은 시드에서 정해지고, 잘못된 입력은 이름을 밝힌 오류."""

import numpy as np
import pytest

import repeat_task as rt
import tiny_training as tt
import tiny_transformer as tm
from attention import causal_mask, merge_heads, scaled_dot_product_attention, softmax, split_heads

# 모든 파라미터 칸을 차분으로 보려고 작게 줄인 같은 구조 (파라미터 192개)
SMALL = {"vocab": 5, "n_ctx": 6, "d_model": 4, "heads": 2, "layers": 2, "embed_std": 0.5, "scaled": True}


def loss_of(params, tokens, config):
    return tm.loss_and_grads(params, tokens[:, :-1], tokens[:, 1:], config)[0]


@pytest.mark.parametrize("scaled", [True, False])
def test_backward_equals_central_differences_in_every_parameter(scaled):
    """float64 에서 파라미터 칸 하나하나를 ±h 로 움직인 중앙 차분 = 손으로 쓴 역전파 (상대 차이 1e-7 안)."""
    config = {**SMALL, "scaled": scaled}
    params = tm.init_params(config, seed=3, dtype=np.float64)
    tokens = np.random.default_rng(4).integers(0, config["vocab"], (3, config["n_ctx"] + 1))
    _, _, grads, _ = tm.loss_and_grads(params, tokens[:, :-1], tokens[:, 1:], config)
    grads = dict(tm.named(grads))
    h, checked = 1e-6, 0
    for name, p in tm.named(params):
        numeric = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = loss_of(params, tokens, config)
            p[idx] = old - h
            down = loss_of(params, tokens, config)
            p[idx] = old
            numeric[idx] = (up - down) / (2 * h)
        scale = np.abs(numeric).max()
        assert scale > 1e-6, name  # 기울기가 모두 0 이면 이 검사는 아무것도 보지 못합니다
        np.testing.assert_allclose(grads[name], numeric, atol=1e-7 * scale, rtol=0, err_msg=name)
        checked += p.size
    assert checked == tm.count_params(params) == 192


def test_backward_of_the_real_model_along_random_directions():
    """이 장의 모델 그대로(파라미터 11,264개): 행렬마다 무작위 방향의 중앙 차분 = Σ 기울기·방향 (상대 1e-8 안)."""
    import head_roles

    assert head_roles.gradient_check(tm.CONFIG, seed=0) < 1e-8
    assert head_roles.gradient_check({**tm.CONFIG, "scaled": False}, seed=1) < 1e-8


def test_a_layer_is_the_core_attention():
    """층 하나의 가중치·출력 = 코어의 scaled_dot_product_attention(인과 마스크)을 헤드마다 한 뒤 W_O 로 섞은 것."""
    params = tm.init_params(tm.CONFIG, seed=1, dtype=np.float64)
    layer = params["layers"][0]
    x = np.random.default_rng(2).standard_normal((3, 10, tm.CONFIG["d_model"]))
    heads = tm.CONFIG["heads"]
    scale = tm.score_scale(tm.CONFIG, np.dtype(np.float64))
    out, saved = tm.attention_forward(x, layer, heads, scale)
    q, k, v = (split_heads(x @ layer[n], heads) for n in ("W_Q", "W_K", "W_V"))
    mixed, weights = scaled_dot_product_attention(q, k, v, causal_mask(10))
    np.testing.assert_allclose(saved[4], weights, rtol=1e-12)
    np.testing.assert_allclose(out, merge_heads(mixed) @ layer["W_O"], rtol=1e-12)
    # 나누지 않는 실험: 점수 q·kᵀ 를 그대로 소프트맥스
    _, unscaled = tm.attention_forward(x, layer, heads, np.float64(1.0))
    raw = q @ np.swapaxes(k, -1, -2) + np.where(causal_mask(10), 0, -np.inf)
    np.testing.assert_allclose(unscaled[4], softmax(np.where(np.isinf(raw), -1e300, raw)), rtol=1e-12, atol=1e-300)


def test_switching_a_head_off_zeroes_its_rows_of_W_O_only():
    import head_roles

    params = tm.init_params(tm.CONFIG, seed=0)
    off = head_roles.switched_off(params, 1, 0)
    assert np.all(off["layers"][1]["W_O"][:16] == 0) and np.array_equal(
        off["layers"][1]["W_O"][16:], params["layers"][1]["W_O"][16:]
    )
    assert off["layers"][0] is not params["layers"][0] and np.array_equal(
        params["layers"][1]["W_O"], tm.init_params(tm.CONFIG, seed=0)["layers"][1]["W_O"]
    )


def test_training_is_decided_by_the_seed():
    narrow = {**tm.CONFIG, "d_model": 4}  # 과제가 들어갈 길이(32)와 어휘(32)는 그대로, 폭만 좁게
    a = tt.train(narrow, seed=5, steps=12, every=4, batch=4)
    b = tt.train(narrow, seed=5, steps=12, every=4, batch=4)
    c = tt.train(narrow, seed=6, steps=12, every=4, batch=4)
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert not np.array_equal(a["param:W_E"], c["param:W_E"])
    assert a["step"].tolist() == [0, 4, 8, 12] and a["train_loss"].shape == (12,)
    assert a["probe"].shape == (4, 2, 2, 32, 32) and a["param:W_E"].dtype == np.float32


def test_first_adam_step_moves_every_parameter_by_the_learning_rate():
    """Adam 의 첫 걸음은 m̂ = g, v̂ = g² 라서 모든 칸이 lr·g/(|g| + ε) ≈ lr 만큼 움직입니다."""
    params = tm.init_params(SMALL, 0, dtype=np.float64)
    before = {n: p.copy() for n, p in tm.named(params)}
    grads = tm.init_params(SMALL, 1, dtype=np.float64)
    tt.Adam(params, lr=0.01).step(params, grads)
    for name, p in tm.named(params):
        g = dict(tm.named(grads))[name]
        np.testing.assert_allclose(before[name] - p, 0.01 * g / (np.abs(g) + 1e-8), rtol=1e-12, err_msg=name)


def test_repeat_batches_hold_a_copied_segment():
    rng = np.random.default_rng(0)
    tokens, seg = rt.repeat_batch(rng, 500, tm.CONFIG)
    assert tokens.shape == (500, 33) and tokens.min() >= 0 and tokens.max() < 32
    first, second, length = seg.T
    assert length.min() == 8 and length.max() == 16
    assert np.all(second >= first + length) and np.all(second + length <= 33)
    assert len(set((second - first).tolist())) > 10  # 거리가 수열마다 다릅니다
    for t, (a, b, n) in zip(tokens, seg):
        np.testing.assert_array_equal(t[a : a + n], t[b : b + n])
    assert rt.predictable(seg, 32).sum(1).tolist() == (length - 1).tolist()
    _, fixed = rt.repeat_batch(rng, 200, tm.CONFIG, gap=16)
    assert set((fixed[:, 1] - fixed[:, 0]).tolist()) == {16}


def test_head_scores_of_perfect_heads():
    """바로 앞 자리만 보는 헤드의 이전 토큰 점수 = 1, 앞 토막의 다음 자리만 보는 헤드의 유도 점수 = 1."""
    n = tm.CONFIG["n_ctx"]
    tokens, seg = rt.repeat_batch(np.random.default_rng(1), 8, tm.CONFIG)
    previous = np.eye(n, k=-1)
    previous[0, 0] = 1
    induction = np.eye(n)  # 나머지 자리는 자기 자신
    w_ind = np.repeat(induction[None], 8, axis=0)
    for b, (a, s, length) in enumerate(seg):
        for t in range(s, s + length - 1):
            w_ind[b, t] = 0
            w_ind[b, t, t - (s - a) + 1] = 1
    weights = [np.broadcast_to(previous, (8, 1, n, n)), w_ind[:, None]]
    scores = tt.head_scores(weights, seg)
    assert scores.shape == (2, 1, 2)
    assert scores[0, 0, 0] == pytest.approx(1.0) and scores[1, 0, 1] == pytest.approx(1.0)
    assert scores[0, 0, 1] < 0.2 and scores[1, 0, 0] < 0.2


def test_probe_sequence_repeats_a_segment_of_distinct_letters():
    tokens, seg = rt.probe_sequence(tm.CONFIG)
    assert seg.tolist() == [[4, 20, 12]] and tokens.max() < 26
    segment = tokens[4:16]
    assert len(set(segment.tolist())) == 12 and np.array_equal(tokens[20:32], segment)
    outside = np.r_[tokens[:4], tokens[16:20], tokens[32:]]
    assert not set(outside.tolist()) & set(segment.tolist())
    assert rt.probe_sequence(tm.CONFIG, gap=12)[1].tolist() == [[4, 16, 12]]


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda p: tm.forward(p, np.array([[0, 1, 32]]), tm.CONFIG), ValueError, ["tokens", "vocab=32", "최대 32"]),
        (lambda p: tm.forward(p, np.array([[0, -1]]), tm.CONFIG), ValueError, ["tokens", "최소 -1"]),
        (lambda p: tm.forward(p, np.array([[0.0, 1.0]]), tm.CONFIG), TypeError, ["tokens", "float64"]),
        (lambda p: tm.forward(p, np.array([0, 1]), tm.CONFIG), ValueError, ["tokens", "(batch, n)", "(2,)"]),
        (lambda p: tm.forward(p, np.zeros((1, 40), int), tm.CONFIG), ValueError, ["40", "n_ctx=32"]),
        (
            lambda p: tm.loss_and_grads(p, np.zeros((2, 5), int), np.zeros((2, 4), int), tm.CONFIG),
            ValueError,
            ["targets.shape=(2, 4)", "(2, 5)"],
        ),
        (lambda p: tt.train(tm.CONFIG, 0, 1, gap=40), ValueError, ["gap=40", "16 이상 17 이하"]),
        (lambda p: tt.train(tm.CONFIG, 0, 1, gap=16.0), TypeError, ["gap", "16.0"]),
        (lambda p: rt.probe_sequence(tm.CONFIG, gap=3), ValueError, ["gap=3"]),
    ],
)
def test_bad_input_names_the_argument(call, error, words):
    params = tm.init_params(tm.CONFIG, 0)
    with pytest.raises(error) as info:
        call(params)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# --- 여러 모델을 한꺼번에 (snippets/lib/tiny_batch.py) ---------------------------------------------------------------


def test_many_models_at_once_have_the_gradients_of_each_model_alone():
    """모델 축으로 쌓은 세 모델(나눔/나누지 않음, 임베딩 크기, 시드가 다름)의 손실과 기울기 = 모델마다 tiny_transformer
    (float64 에서 1e-12 안). 모델마다 다른 수열을 넣어, 모델 축이 섞이지 않는지도 봅니다."""
    import tiny_batch as tb

    runs = [
        {"config": {**tm.CONFIG, "embed_std": std, "scaled": scaled}, "seed": seed}
        for std, scaled, seed in ((0.3, True, 0), (1.0, False, 1), (2.0, True, 2))
    ]
    params = tb.stacked(runs, np.float64)
    rng = np.random.default_rng(5)
    tokens = np.stack([rt.repeat_batch(rng, 4, tm.CONFIG)[0] for _ in runs])
    scale = np.array([0.25, 1.0, 0.25]).reshape(-1, 1, 1, 1, 1)
    hidden = np.where(causal_mask(tm.CONFIG["n_ctx"]), 0, -np.inf)
    loss, nll, grads, weights = tb.loss_and_grads(params, tokens[..., :-1], tokens[..., 1:], 2, scale, hidden)
    for m, run in enumerate(runs):
        alone = tm.init_params(run["config"], run["seed"], np.float64)
        assert all(np.array_equal(p, params[name][m]) for name, p in tm.named(alone))  # 같은 처음 파라미터
        want, want_nll, want_grads, want_weights = tm.loss_and_grads(
            alone, tokens[m, :, :-1], tokens[m, :, 1:], run["config"]
        )
        assert loss[m] == pytest.approx(want, rel=1e-13)
        np.testing.assert_allclose(nll[m], want_nll, rtol=1e-12)
        for name, g in tm.named(want_grads):
            np.testing.assert_allclose(grads[name][m], g, rtol=1e-10, atol=1e-13 * np.abs(g).max(), err_msg=name)
        for w, want_w in zip(weights, want_weights):
            np.testing.assert_allclose(w[m], want_w, atol=1e-13)


def test_training_many_at_once_follows_each_training_alone():
    """train_many 의 모델 하나 = tiny_training.train 으로 따로 학습한 것: 같은 처음 파라미터, 같은 수열, 같은 Adam.
    float32 반올림이 다른 순서로 쌓일 뿐이라, 이 장의 설정(임베딩 0.3)에서 100 스텝 동안 손실이 1e-4 안에서 같습니다."""
    import tiny_batch as tb

    runs = [{"config": tm.CONFIG, "seed": 0}, {"config": {**tm.CONFIG, "scaled": False}, "seed": 3}]
    many = tb.train_many(runs, steps=100, every=50)
    for m, run in enumerate(runs):
        alone = tt.train(run["config"], run["seed"], 100, every=50)
        np.testing.assert_allclose(many["train_loss"][m], alone["train_loss"], atol=1e-4)
        np.testing.assert_allclose(many["grad_norm"][m], alone["grad_norm"], rtol=1e-3)
        np.testing.assert_allclose(many["repeat_loss"][m], alone["repeat_loss"], atol=1e-4)
        np.testing.assert_allclose(many["max_weight"][m], alone["max_weight"], atol=1e-4)
        assert many["step"].tolist() == alone["step"].tolist() == [0, 50, 100]
        params = tb.params_of(many, m, run["config"])
        for name, p in tm.named(tt.params_from(alone, run["config"])):
            np.testing.assert_allclose(dict(tm.named(params))[name], p, atol=2e-3, err_msg=name)


def test_models_trained_together_must_have_one_shape():
    import tiny_batch as tb

    with pytest.raises(ValueError, match="d_model"):
        tb.train_many([{"config": tm.CONFIG, "seed": 0}, {"config": {**tm.CONFIG, "d_model": 16}, "seed": 0}], 1)
    with pytest.raises(ValueError, match="runs"):
        tb.train_many([], 1)
