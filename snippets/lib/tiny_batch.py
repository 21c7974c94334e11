"""여러 작은 Transformer 를 한꺼번에 학습합니다: tiny_transformer 의 모델에 맨 앞 "모델 축" 하나를 더한 것.

√d_k 실험("헤드는 어떻게 역할을 배우나" 장)은 나눌 때와 나누지 않을 때, 임베딩의 처음 크기 여럿, 시드 여럿을 수천 스텝씩
학습합니다. 모델마다 따로 학습하면 파이썬이 같은 일을 모델 수만큼 되풀이하므로, 모양이 같은 모델들(층·헤드·폭이 같고
임베딩의 처음 크기, √d_k 로 나누는지, 시드만 다른)을 배열 하나로 쌓아 한 번의 배열 연산으로 함께 학습합니다.

계산은 tiny_transformer.py + tiny_training.py 와 같습니다: 같은 처음 파라미터(init_params), 같은 학습 수열(시드 + 1 의
난수 줄기, repeat_batch), 같은 순전파·역전파, 같은 Adam. 모델 하나를 따로 학습한 것과 견주는 검사는
tests/test_tiny_transformer.py 에 있습니다 (기울기는 float64 로 1e-12 안, 학습 곡선은 float32 반올림만큼).
다른 점은 속도를 위한 것뿐입니다: 인과 마스크는 가린 칸에 −inf 를 더해 exp 가 정확히 0 을 내게 하고
(attention.masked_softmax 와 같은 값), 입력 검사는 한 번만 합니다.
"""

import numpy as np

from attention import causal_mask
from repeat_task import predictable, repeat_batch
from tiny_training import Adam, held_out
from tiny_transformer import init_params, named


def stacked(runs, dtype):
    """runs 의 처음 파라미터를 모델 축으로 쌓은 이름 → 배열: "W_E" (M, V, d), "층1.W_Q" (M, d, d) …"""
    trees = [dict(named(init_params(r["config"], r["seed"], dtype))) for r in runs]
    return {name: np.stack([t[name] for t in trees]) for name in trees[0]}


def _row_max(a):
    """a.max(-1, keepdims=True) 와 같은 값. 마지막 축을 반씩 접어 np.maximum 으로 견줍니다: 길이 32 인 행 수만 개에서는
    numpy 의 max 가 행마다 따로 도는 것보다 몇 배 빠릅니다 (최댓값은 반올림이 없어 접는 순서와 상관없이 같습니다)."""
    while a.shape[-1] > 1:
        half = a.shape[-1] // 2
        folded = np.maximum(a[..., :half], a[..., half:2 * half])
        a = folded if a.shape[-1] % 2 == 0 else np.concatenate([folded, a[..., 2 * half:]], axis=-1)
    return a


def _row_sum(a):
    """a.sum(-1, keepdims=True): 길이 1 짜리 1 벡터와의 행렬 곱 (BLAS). 짧은 행이 많을 때 np.sum 보다 몇 배 빠릅니다."""
    return a @ np.ones((a.shape[-1], 1), a.dtype)


def _rows(a):
    """(M, batch, n, d) → (M, batch·n, d): 모델마다 토큰 한 개가 한 행."""
    return a.reshape(a.shape[0], -1, a.shape[-1])


def _split(a, heads, n):
    """(M, batch·n, d) → (M, batch, h, n, d_head), 메모리에 이어진 배열로 (뒤의 작은 행렬 곱들이 빨라집니다)."""
    M, rows, d = a.shape
    return np.ascontiguousarray(a.reshape(M, rows // n, n, heads, d // heads).swapaxes(2, 3))


def _merge(a):
    """(M, batch, h, n, d_head) → (M, batch·n, d): _split 의 역연산."""
    a = a.swapaxes(2, 3)
    return a.reshape(a.shape[0], -1, a.shape[-2] * a.shape[-1])


def _t(a):
    """마지막 두 축을 바꾼, 메모리에 이어진 배열. numpy 는 행렬 곱의 오른쪽이 바꾼 보기(view)이면 작은 곱마다 느린 길로 갑니다."""
    return np.ascontiguousarray(a.swapaxes(-1, -2))


def forward(params, tokens, heads, scale, hidden):
    """params: 이름 → (M, …) 배열, tokens: (M, batch, n), scale: (M, 1, 1, 1, 1), hidden: 가린 칸이 −inf 이고 점수와
    모양이 같은 (M, batch, h, n, n) 배열.

    돌려주는 값: 로짓 (M, batch, n, V) 과 역전파가 다시 쓸 중간값.
    """
    M, B, n = tokens.shape
    x = _rows(params["W_E"][np.arange(M)[:, None, None], tokens] + params["W_pos"][:, None, :n])  # (M, batch·n, d)
    saved = []
    for layer in range(sum(k.endswith(".W_Q") for k in params)):
        W = {name: params[f"층{layer + 1}.{name}"] for name in ("W_Q", "W_K", "W_V", "W_O")}
        q, k, v = (_split(x @ W[name], heads, n) for name in ("W_Q", "W_K", "W_V"))
        s = q @ _t(k)  # ① 내적
        s *= scale  # ② √d_k 로 나누기 (나누지 않는 모델은 1)
        s += hidden  # ③ 소프트맥스: 가린 칸은 −inf 라서 exp 가 정확히 0
        s -= _row_max(s)
        w = np.exp(s, out=s)
        w /= _row_sum(w)
        mixed = _merge(w @ v)  # ④ 가중합
        saved.append((x, q, k, v, w, mixed))
        x = x + mixed @ W["W_O"]
    return (x @ params["W_U"]).reshape(M, B, n, -1), (x, saved)


def _nll(logits, targets):
    """자리마다 정답 토큰의 음의 로그 확률 (M, batch, n) 과 소프트맥스 확률. logits 는 제자리에서 최댓값을 뺍니다."""
    logits -= _row_max(logits)
    e = np.exp(logits)
    total = _row_sum(e)
    return np.log(total)[..., 0] - np.take_along_axis(logits, targets[..., None], -1)[..., 0], e / total


def measure(params, tokens, targets, heads, scale, hidden):
    """순전파만: 자리마다의 손실 (M, batch, n) 과 층마다 가중치 (M, batch, h, n, n)."""
    logits, (_, saved) = forward(params, tokens, heads, scale, hidden)
    return _nll(logits, targets)[0], [s[4] for s in saved]


def loss_and_grads(params, tokens, targets, heads, scale, hidden):
    """모델마다 평균 교차 엔트로피 (M,), 자리마다의 손실 (M, batch, n), 기울기 (params 와 같은 이름·모양), 층마다 가중치."""
    logits, (x, saved) = forward(params, tokens, heads, scale, hidden)
    M, B, n, V = logits.shape
    nll, d_logits = _nll(logits, targets)
    np.put_along_axis(d_logits, targets[..., None], np.take_along_axis(d_logits, targets[..., None], -1) - 1, -1)
    d_logits = _rows(d_logits) / (B * n)  # 모델마다 평균이라 그 모델의 토큰 수로 나눕니다
    grads = {"W_U": x.swapaxes(-1, -2) @ d_logits}
    d_x = d_logits @ _t(params["W_U"])  # (M, batch·n, d)
    for layer in reversed(range(len(saved))):
        x_in, q, k, v, w, mixed = saved[layer]
        W = {name: params[f"층{layer + 1}.{name}"] for name in ("W_Q", "W_K", "W_V", "W_O")}
        grads[f"층{layer + 1}.W_O"] = mixed.swapaxes(-1, -2) @ d_x
        d_mixed = _split(d_x @ _t(W["W_O"]), heads, n)
        d_w = d_mixed @ _t(v)
        d_v = w.swapaxes(-1, -2) @ d_mixed
        d_s = d_w - _row_sum(d_w * w)
        d_s *= w
        d_s *= scale
        d_inside = 0
        for name, d in (("W_Q", d_s @ k), ("W_K", d_s.swapaxes(-1, -2) @ q), ("W_V", d_v)):
            d = _merge(d)
            grads[f"층{layer + 1}.{name}"] = x_in.swapaxes(-1, -2) @ d
            d_inside = d_inside + d @ _t(W[name])
        d_x = d_x + d_inside
    grads["W_pos"] = d_x.reshape(M, B, n, -1).sum(1)
    one_hot = np.eye(V, dtype=d_x.dtype)[tokens.reshape(M, -1)]  # (M, batch·n, V)
    grads["W_E"] = one_hot.swapaxes(-1, -2) @ d_x
    return nll.mean((1, 2)), nll, grads, [s[4] for s in saved]


def train_many(runs, steps, lr=1e-2, batch=32, every=100, dtype=np.float32):
    """runs: [{"config": …, "seed": …}, …] 를 함께 학습합니다 (tiny_training.train 과 같은 학습, 모델마다).

    모든 config 는 vocab, n_ctx, d_model, heads, layers 가 같아야 합니다 (embed_std 와 scaled 만 다를 수 있음).
    돌려주는 값 (맨 앞 축이 모델): 스텝마다 "train_loss", "grad_norm", "qk_grad_norm" (M, steps),
    every 스텝마다 학습에 쓰지 않은 수열로 잰 "repeat_loss" (M, C) 와 층마다 행의 가장 큰 가중치 평균
    "max_weight" (M, C, 층), 그리고 그 스텝 "step" (C,).
    """
    config = _same_shape(runs)
    heads, n = config["heads"], config["n_ctx"]
    params = stacked(runs, dtype)
    optimizer = Adam(params, lr)
    d_head = config["d_model"] // heads
    scale = np.array([1 / np.sqrt(d_head) if r["config"]["scaled"] else 1 for r in runs], dtype)
    scale = scale.reshape(-1, 1, 1, 1, 1)
    mask = np.where(causal_mask(n), 0, -np.inf).astype(dtype)  # 가린 칸(대각선 위)에 더할 −inf
    # 점수와 같은 모양으로 미리 펼쳐 둡니다 (작은 (n, n) 을 매번 브로드캐스트해 더하는 것보다 빠릅니다)
    held, held_segments = held_out(config)  # 학습에 쓰지 않고 잴 때만 쓰는 수열
    hidden = {key: np.broadcast_to(mask, (len(runs), b, heads, n, n)).copy() for key, b in (("train", batch), ("held", len(held)))}
    seeds = [r["seed"] for r in runs]
    streams = {seed: np.random.default_rng(seed + 1) for seed in dict.fromkeys(seeds)}  # train 과 같은 학습 수열
    repeat = predictable(held_segments, n)
    held = np.broadcast_to(held, (len(runs), *held.shape))  # 모든 모델이 같은 수열로
    log = {"train_loss": [], "grad_norm": [], "qk_grad_norm": []}
    checkpoints = {"step": [], "repeat_loss": [], "max_weight": []}
    for step in range(steps + 1):
        if step % every == 0 or step == steps:
            nll, weights = measure(params, held[..., :-1], held[..., 1:], heads, scale, hidden["held"])
            checkpoints["step"].append(step)
            checkpoints["repeat_loss"].append(nll[:, repeat].mean(-1))
            checkpoints["max_weight"].append(np.stack([w.max(-1).mean((1, 2, 3)) for w in weights], -1))
        if step == steps:
            break
        drawn = {seed: repeat_batch(rng, batch, config)[0] for seed, rng in streams.items()}
        tokens = np.stack([drawn[seed] for seed in seeds])
        loss, _, grads, _ = loss_and_grads(params, tokens[..., :-1], tokens[..., 1:], heads, scale, hidden["train"])
        squares = {name: np.sum(g.astype(np.float64) ** 2, axis=tuple(range(1, g.ndim))) for name, g in grads.items()}
        log["train_loss"].append(loss)
        log["grad_norm"].append(np.sqrt(sum(squares.values())))
        log["qk_grad_norm"].append(np.sqrt(sum(v for k, v in squares.items() if k.endswith(("W_Q", "W_K")))))
        optimizer.step(params, grads)
    out = {key: np.stack(value, axis=-1) for key, value in log.items()}
    out.update({key: np.stack(value, axis=1) for key, value in checkpoints.items() if key != "step"})
    out["step"] = np.array(checkpoints["step"])
    out.update({f"param:{name}": p for name, p in params.items()})  # 마지막 파라미터 (M, …)
    return out


def params_of(record, m, config):
    """train_many 기록에서 모델 m 의 마지막 파라미터를 tiny_transformer 의 파라미터 트리로 (evaluate 등에 넘길 수 있게)."""
    tree = init_params(config, 0, record["param:W_E"].dtype)  # 모양만 빌리고 값은 모두 바꿉니다
    for name, p in named(tree):
        p[...] = record[f"param:{name}"][m]
    return tree


def _same_shape(runs):
    """함께 학습할 수 있는지: 모양을 정하는 설정이 모두 같아야 합니다. 첫 config 를 돌려줍니다."""
    if not runs:
        raise ValueError("runs 가 비어 있습니다: 학습할 모델이 하나는 있어야 합니다")
    first = runs[0]["config"]
    for r in runs[1:]:
        for key in ("vocab", "n_ctx", "d_model", "heads", "layers"):
            if r["config"][key] != first[key]:
                raise ValueError(f"함께 학습하는 모델은 {key} 가 같아야 합니다: {first[key]} 와 {r['config'][key]}")
    return first
