"""작은 Transformer 의 학습: Adam, 학습 고리, 그리고 학습하는 동안 헤드를 재는 두 점수.

학습은 시드에서 정해집니다 (같은 시드·같은 기계면 같은 결과). 이 장의 그림과 슬라이더가 보는 학습 기록은
run_cache.py 가 한 번만 만들어 두고 모두가 읽습니다.
"""

# --8<-- [start:scores]
import numpy as np

from repeat_task import check_gap, predictable, probe_sequence, repeat_batch
from tiny_transformer import cross_entropy, forward, init_params, loss_and_grads, named


def head_scores(weights, segments):
    """헤드마다 두 점수 (층, 헤드, 2): [이전 토큰 점수, 유도 점수]. weights: 층마다 (batch, h, n, n).

    이전 토큰 점수: 모든 자리 t 가 바로 앞 자리 t−1 에 준 가중치의 평균.
    유도 점수: 둘째 토막의 자리 t 가, 앞 토막에서 같은 토큰의 바로 다음 자리 t − D + 1 에 준 가중치의 평균
    (D = 두 토막 사이의 거리). Olsson 외(2022)의 "반복된 무작위 토큰" 잣대와 같은 생각입니다.
    """
    n = weights[0].shape[-1]
    # 둘째 토막의 (수열, 자리) 쌍과, 앞 토막에서 같은 토큰의 다음 자리
    rows, t = np.nonzero(predictable(segments, n))
    source = t - (segments[rows, 1] - segments[rows, 0]) + 1
    out = []
    for w in weights:
        # 헤드마다 하나씩 (h,): 대각선 바로 아래 칸의 평균, source 칸의 평균
        previous = np.diagonal(w, offset=-1, axis1=-2, axis2=-1).mean(axis=(0, -1))
        induction = w[rows, :, t, source].mean(axis=0)
        out.append(np.stack([previous, induction], axis=-1))
    return np.array(out)
# --8<-- [end:scores]


# --8<-- [start:adam]
class Adam:
    """Adam (Kingma & Ba 2015): 기울기의 이동 평균(m)과 제곱의 이동 평균(v)으로 파라미터마다 보폭을 맞춥니다."""

    def __init__(self, params, lr=3e-3, betas=(0.9, 0.999), eps=1e-8):
        self.lr, self.betas, self.eps, self.t = lr, betas, eps, 0
        self.m = {name: np.zeros_like(p) for name, p in named(params)}
        self.v = {name: np.zeros_like(p) for name, p in named(params)}

    def step(self, params, grads):
        """params 를 제자리에서 고칩니다. grads 는 params 와 같은 모양의 트리입니다."""
        self.t += 1
        b1, b2 = self.betas
        grads = dict(named(grads))
        for name, p in named(params):
            g, m, v = grads[name], self.m[name], self.v[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1**self.t)  # 처음 몇 걸음은 0 에서 시작한 평균이 작으니 키워 줍니다
            v_hat = v / (1 - b2**self.t)
            p -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
# --8<-- [end:adam]


# --8<-- [start:evaluate]
def evaluate(params, tokens, segments, config):
    """학습에 쓰지 않는 수열로 잽니다: 둘째 토막(맞힐 수 있는 자리)의 손실, 나머지 자리의 손실, 헤드 점수."""
    logits, cache = forward(params, tokens[:, :-1], config)
    nll, _ = cross_entropy(logits, tokens[:, 1:])
    repeat = predictable(segments, tokens.shape[1] - 1)
    weights = [s[4] for s in cache["layers"]]
    return {"repeat_loss": nll[repeat].mean(), "other_loss": nll[~repeat].mean(),
            "scores": head_scores(weights, segments),
            "max_weight": np.array([w.max(-1).mean() for w in weights])}  # 층마다: 행의 가장 큰 가중치 평균
# --8<-- [end:evaluate]


# --8<-- [start:train]
def train(config, seed, steps, lr=1e-2, batch=32, gap=None, every=20, dtype=np.float32):
    """시드 하나로 처음부터 학습하고, every 스텝마다 헤드를 잰 기록을 돌려줍니다.

    gap: None 이면 두 토막 사이의 거리가 수열마다 다르고, 정수 D 이면 늘 D 입니다 (repeat_batch).
    """
    gap = check_gap(gap, config)
    params = init_params(config, seed, dtype)
    optimizer = Adam(params, lr)
    rng = np.random.default_rng(seed + 1)  # 학습 수열 (파라미터와 다른 난수 줄기)
    held = held_out(config, gap)
    probe, _ = probe_sequence(config)
    log = {"train_loss": [], "train_repeat_loss": [], "grad_norm": [], "qk_grad_norm": []}
    checkpoints = {"step": [], "repeat_loss": [], "other_loss": [], "scores": [], "max_weight": [], "probe": []}
    for step in range(steps + 1):
        if step % every == 0 or step == steps:
            measured = evaluate(params, *held, config)
            _, cache = forward(params, probe[None, :-1], config)
            measured["probe"] = np.stack([s[4][0] for s in cache["layers"]])  # (층, 헤드, n, n)
            checkpoints["step"].append(step)
            for key, value in measured.items():
                checkpoints[key].append(value)
        if step == steps:
            break
        tokens, segments = repeat_batch(rng, batch, config, gap)
        loss, nll, grads, _ = loss_and_grads(params, tokens[:, :-1], tokens[:, 1:], config)
        log["train_loss"].append(loss)
        log["train_repeat_loss"].append(nll[predictable(segments, nll.shape[1])].mean())
        squares = {name: np.sum(g.astype(np.float64) ** 2) for name, g in named(grads)}
        log["grad_norm"].append(np.sqrt(sum(squares.values())))  # 모든 파라미터의 기울기 크기
        log["qk_grad_norm"].append(np.sqrt(sum(v for k, v in squares.items() if k.endswith(("W_Q", "W_K")))))
        optimizer.step(params, grads)
    out = {key: np.array(value) for key, value in {**log, **checkpoints}.items()}
    out.update({f"param:{name}": p for name, p in named(params)})  # 마지막 파라미터
    return out


def held_out(config, gap=None, seed=2022):
    """학습에 쓰지 않고 잴 때만 쓰는 수열 64개 (시드가 정해져 있어 언제나 같습니다)."""
    return repeat_batch(np.random.default_rng(seed), 64, config, gap)
# --8<-- [end:train]


def params_from(record, config):
    """학습 기록에 남긴 마지막 파라미터("param:이름")를 파라미터 트리로 되돌립니다."""
    params = init_params(config, 0, record["param:W_E"].dtype)  # 모양만 빌리고 값은 모두 바꿉니다
    for name, p in named(params):
        p[...] = record[f"param:{name}"]
    return params
