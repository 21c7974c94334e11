"""어텐션만 있는 2층 Transformer: 파라미터, 순전파, 손으로 쓴 역전파.

"헤드는 어떻게 역할을 배우나" 장(docs/head_roles.md)이 이 모델을 학습시킵니다. 층 안의 계산은 2장의 네 단계
(내적 → √d_k 로 나누기 → 소프트맥스 → 가중합)이고, 코어(attention.py)의 split_heads, merge_heads, masked_softmax,
causal_mask 를 그대로 씁니다. 역전파(backward)는 그 네 단계를 거꾸로 밟습니다: attention_forward 와
attention_backward 를 나란히 읽으면 단계마다 짝이 보입니다.

구조 (Elhage 외 2021 의 "어텐션만 있는" 모델과 같은 꼴): 토큰 임베딩 + 위치 임베딩 → 층마다 멀티헤드 셀프 어텐션을
잔차(residual)로 더하기 → 출력 행렬 W_U 로 다음 토큰의 로짓. 층 정규화, MLP, 편향은 없습니다.

dtype: 파라미터의 dtype 으로 계산합니다. 학습은 float32 로 합니다: 스텝마다 exp 를 수십만 번 하는데, AVX-512 가 없는
CPU(이 사이트를 빌드하는 2코어 기계도)에서 numpy 의 float64 exp 는 float32 보다 4배쯤 느립니다. 역전파를 유한 차분과
견주는 검사는 반올림 오차가 차분을 가리지 않게 float64 로 합니다 (tests/test_tiny_transformer.py).
"""

# --8<-- [start:config]
import numpy as np

from attention import causal_mask, masked_softmax, merge_heads, split_heads

CONFIG = {
    "vocab": 32,  # 토큰 종류 (0–31)
    "n_ctx": 32,  # 한 번에 읽는 토큰 수
    "d_model": 32,  # 토큰 벡터의 차원
    # 층마다 헤드 2개 (헤드 폭 d_head = 16)
    "heads": 2,
    "layers": 2,
    # 임베딩을 처음 뽑는 표준편차
    "embed_std": 0.3,
    # 점수를 √d_k 로 나누는가
    "scaled": True,
}


def init_params(config, seed, dtype=np.float32):
    """무작위로 시작하는 파라미터. 투영 행렬은 표준편차 1/√d_model 로 뽑습니다."""
    rng = np.random.default_rng(seed)
    V, n, d = config["vocab"], config["n_ctx"], config["d_model"]

    def draw(shape, std):
        return (rng.standard_normal(shape) * std).astype(dtype)

    # 토큰 임베딩과 위치 임베딩
    params = {"W_E": draw((V, d), config["embed_std"]),
              "W_pos": draw((n, d), config["embed_std"]),
              "layers": []}
    for _ in range(config["layers"]):
        params["layers"].append({name: draw((d, d), 1 / np.sqrt(d)) for name in ("W_Q", "W_K", "W_V", "W_O")})
    # 마지막 벡터 → 다음 토큰의 로짓
    params["W_U"] = draw((d, V), 1 / np.sqrt(d))
    return params
# --8<-- [end:config]


def named(tree, prefix=""):
    """파라미터(또는 기울기) 트리의 (이름, 배열)들: "W_E", "층1.W_Q" … (층은 1부터 셉니다)."""
    for key, value in tree.items():
        if key == "layers":
            for i, layer in enumerate(value):
                yield from named(layer, f"{prefix}층{i + 1}.")
        else:
            yield prefix + key, value


def count_params(params):
    return sum(a.size for _, a in named(params))


# --8<-- [start:attention_forward]
def attention_forward(x, layer, heads, scale):
    """층 하나의 멀티헤드 셀프 어텐션. x: (batch, n, d_model). 2장의 네 단계를 그대로 밟습니다.

    돌려주는 값: (출력, 역전파가 다시 쓸 중간값들).
    """
    # 쿼리, 키, 밸류: 모두 (batch, h, n, d_head)
    q = split_heads(x @ layer["W_Q"], heads)
    k = split_heads(x @ layer["W_K"], heads)
    v = split_heads(x @ layer["W_V"], heads)
    # ① 내적
    scores = q @ k.swapaxes(-1, -2)
    # ② √d_k 로 나누기 (scale = 1/√d_k. 나누지 않는 실험에서는 1)
    scaled = scores * scale
    # ③ 소프트맥스 (인과 마스크: 뒤 토큰은 가립니다)
    weights = masked_softmax(scaled, causal_mask(x.shape[-2]))
    # ④ 가중합
    mixed = weights @ v
    # 헤드를 이어 붙여 W_O 로 섞기
    out = merge_heads(mixed) @ layer["W_O"]
    return out, (x, q, k, v, weights, mixed)
# --8<-- [end:attention_forward]


# --8<-- [start:attention_backward]
def rows(a):
    """(batch, n, d) → (batch·n, d): 토큰마다 한 행. 배치 전체의 기울기를 곱셈 한 번으로 더하려고 씁니다."""
    return a.reshape(-1, a.shape[-1])


def attention_backward(d_out, layer, heads, scale, saved):
    """attention_forward 를 거꾸로: 출력의 기울기 d_out 에서 입력 x 와 네 행렬의 기울기로.

    forward 의 한 줄마다 여기에 짝이 있습니다. y = a @ b 이면 d_a = d_y @ bᵀ, d_b = aᵀ @ d_y 입니다.
    """
    x, q, k, v, weights, mixed = saved
    grads = {"W_O": rows(merge_heads(mixed)).T @ rows(d_out)}
    d_mixed = split_heads(d_out @ layer["W_O"].T, heads)
    # ④ 가중합 mixed = weights @ v
    d_weights = d_mixed @ v.swapaxes(-1, -2)
    d_v = weights.swapaxes(-1, -2) @ d_mixed
    # ③ 소프트맥스: ∂p_i/∂s_j = p_i(δ_ij − p_j) 를 행마다 곱하면 p ⊙ (d_p − Σ_j d_p_j p_j)
    #    (가린 칸은 p = 0 이라 기울기도 0 입니다)
    d_scaled = weights * (d_weights - (d_weights * weights).sum(-1, keepdims=True))
    # ② 나누기
    d_scores = d_scaled * scale
    # ① 내적 scores = q @ kᵀ
    d_q = d_scores @ k
    d_k = d_scores.swapaxes(-1, -2) @ q
    # 투영 Q = x W_Q, K = x W_K, V = x W_V: 세 길로 x 에 돌아오는 기울기를 모두 더합니다
    d_x = 0
    for name, d in (("W_Q", d_q), ("W_K", d_k), ("W_V", d_v)):
        d = merge_heads(d)
        grads[name] = rows(x).T @ rows(d)
        d_x = d_x + d @ layer[name].T
    return d_x, grads
# --8<-- [end:attention_backward]


# --8<-- [start:forward]
def score_scale(config, dtype):
    """② 에서 점수에 곱하는 값: 1/√d_k (나누지 않는 실험에서는 1). d_k 는 헤드 폭입니다."""
    d_head = config["d_model"] // config["heads"]
    return dtype.type(1 / np.sqrt(d_head)) if config["scaled"] else dtype.type(1)


def forward(params, tokens, config):
    """tokens: (batch, n) 정수 → 자리마다 다음 토큰의 로짓 (batch, n, vocab), 그리고 역전파용 중간값."""
    tokens = check_tokens(tokens, config)
    scale = score_scale(config, params["W_E"].dtype)
    # 토큰 임베딩 + 위치 임베딩
    x = params["W_E"][tokens] + params["W_pos"][: tokens.shape[-1]]
    saved = []
    for layer in params["layers"]:
        out, s = attention_forward(x, layer, config["heads"], scale)
        saved.append(s)
        # 층의 출력을 들어온 벡터에 더합니다 (잔차)
        x = x + out
    logits = x @ params["W_U"]
    return logits, {"tokens": tokens, "x": x, "layers": saved}
# --8<-- [end:forward]


# --8<-- [start:loss]
def cross_entropy(logits, targets):
    """자리마다 정답 토큰의 음의 로그 확률(nat) (batch, n), 그리고 로짓에 대한 기울기(평균 손실 기준)."""
    shifted = logits - logits.max(-1, keepdims=True)  # 최댓값 빼기: exp 가 넘치지 않게
    log_z = np.log(np.exp(shifted).sum(-1, keepdims=True))
    log_p = shifted - log_z
    nll = -np.take_along_axis(log_p, targets[..., None], -1)[..., 0]
    d_logits = np.exp(log_p)  # 소프트맥스 확률
    np.put_along_axis(d_logits, targets[..., None], np.take_along_axis(d_logits, targets[..., None], -1) - 1, -1)
    return nll, d_logits / nll.size  # 확률 − 정답(one-hot), 평균이라 토큰 수로 나눔
# --8<-- [end:loss]


# --8<-- [start:backward]
def loss_and_grads(params, tokens, targets, config):
    """평균 교차 엔트로피 손실과 모든 파라미터의 기울기 (params 와 같은 모양의 트리).

    돌려주는 값: (손실, 자리마다의 손실 (batch, n), 기울기, 층마다의 어텐션 가중치 [(batch, h, n, n), …]).
    """
    logits, cache = forward(params, tokens, config)
    targets = check_tokens(targets, config, "targets", shape=cache["tokens"].shape)
    nll, d_logits = cross_entropy(logits, targets)
    x, dtype = cache["x"], params["W_E"].dtype
    grads = {"W_U": rows(x).T @ rows(d_logits), "layers": [None] * len(params["layers"])}
    d_x = d_logits @ params["W_U"].T
    for i in reversed(range(len(params["layers"]))):  # 마지막 층부터 거꾸로
        # x_다음 = x + 층(x) 이므로 기울기는 그대로 지나가는 길(d_x)과 층을 지나는 길의 합입니다
        d_inside, grads["layers"][i] = attention_backward(
            d_x, params["layers"][i], config["heads"], score_scale(config, dtype), cache["layers"][i])
        d_x = d_x + d_inside
    grads["W_pos"] = d_x.sum(0)  # 위치 임베딩: 배치의 모든 문장에서 같은 자리의 기울기를 더합니다
    one_hot = np.eye(params["W_E"].shape[0], dtype=dtype)[cache["tokens"].ravel()]  # 토큰 임베딩 = 표에서 행 고르기
    grads["W_E"] = one_hot.T @ rows(d_x)
    weights = [s[4] for s in cache["layers"]]
    return nll.mean(), nll, grads, weights
# --8<-- [end:backward]


def check_tokens(tokens, config, name="tokens", shape=None):
    """토큰은 0..vocab−1 정수의 (batch, n) 배열이고 n ≤ n_ctx 입니다. 아니면 무엇이 틀렸는지 적은 오류."""
    arr = np.asarray(tokens)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} 는 정수 배열이어야 합니다: {name}.dtype={arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] == 0:
        raise ValueError(f"{name} 는 (batch, n) 모양이어야 합니다: {name}.shape={arr.shape}")
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name}.shape={arr.shape} 는 입력 토큰의 모양 {shape} 와 같아야 합니다")
    if arr.shape[1] > config["n_ctx"]:
        raise ValueError(f"{name} 의 길이({arr.shape[1]})가 n_ctx={config['n_ctx']} 보다 깁니다")
    if arr.size and (arr.min() < 0 or arr.max() >= config["vocab"]):
        raise ValueError(f"{name} 의 값은 0 이상 vocab={config['vocab']} 미만이어야 합니다: "
                         f"최소 {arr.min()}, 최대 {arr.max()}")
    return arr
