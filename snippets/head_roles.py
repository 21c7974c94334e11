"""헤드는 어떻게 역할을 배우나: 작은 Transformer 를 학습시키며 이전 토큰 헤드와 유도 헤드가 생기는 것을 봅니다.

docs/head_roles.md 가 절마다 이 파일을 보여 주고, tests/test_head_roles.py 가 페이지가 말하는 것을 확인합니다.
모델은 tiny_transformer.py, 과제는 repeat_task.py, 학습은 tiny_training.py 에 있습니다. 학습은 run_cache.py 가
한 번만 하고, 이 파일의 페이지 코드·그림·슬라이더 데이터가 모두 같은 기록을 읽습니다.
"""

# --8<-- [start:task]
import numpy as np

from repeat_task import SYMBOLS, repeat_batch
from tiny_transformer import CONFIG

tokens, segments = repeat_batch(np.random.default_rng(5), 1, CONFIG)
first, second, length = segments[0]
# 토큰 번호를 글자로 (0 → A, 1 → B, …)
text = "".join(SYMBOLS[t] for t in tokens[0])
print(f"토큰 {len(text)}개, 토막 길이 {length}")
print(f"두 토막 사이 거리 {second - first}")
print(text[:first] + "[" + text[first:first + length] + "]" + text[first + length:second]
      + "[" + text[second:second + length] + "]" + text[second + length:])
# --8<-- [end:task]

# --8<-- [start:model]
from tiny_transformer import count_params, init_params, named

params = init_params(CONFIG, seed=0)
for name, p in named(params):
    # 층2 는 층1 과 모양이 같아서 뺍니다
    if not name.startswith("층2"):
        print(name, p.shape)
print(f"파라미터 {count_params(params):,}개")
# --8<-- [end:model]

# --8<-- [start:gradient_check]
from tiny_transformer import loss_and_grads


def gradient_check(config, seed=0, h=1e-5):
    """행렬마다 무작위 방향 u 로: (L(p + h·u) − L(p − h·u)) / 2h 와 손으로 쓴 역전파의 Σ g·u 를 견줍니다."""
    rng = np.random.default_rng(seed)
    p64 = init_params(config, seed, dtype=np.float64)  # float64: 반올림 오차가 차분을 가리지 않게
    x, _ = repeat_batch(rng, 2, config)
    _, _, grads, _ = loss_and_grads(p64, x[:, :-1], x[:, 1:], config)
    grads, worst = dict(named(grads)), 0.0
    for name, p in named(p64):
        u = rng.standard_normal(p.shape)
        p += h * u
        up = loss_and_grads(p64, x[:, :-1], x[:, 1:], config)[0]
        p -= 2 * h * u
        down = loss_and_grads(p64, x[:, :-1], x[:, 1:], config)[0]
        p += h * u  # 되돌리기
        numeric, exact = (up - down) / (2 * h), np.sum(grads[name] * u)
        worst = max(worst, abs(numeric - exact) / abs(exact))
    return worst


print(f"행렬 12개에서 상대 차이 최대 {gradient_check(CONFIG):.1e}")
# --8<-- [end:gradient_check]

# --8<-- [start:runs]
from run_cache import trained

# 이 장의 학습 네 가지. 같은 과제에서 한 가지씩만 바꿉니다.
# (스텝마다 수열 32개, Adam 학습률 0.01: tiny_training.train)
RUNS = {
    "main": {"config": CONFIG, "seed": 0, "steps": 800},
    # 함정: 층이 하나이고, 두 토막 사이의 거리가 늘 16
    "trap": {"config": {**CONFIG, "layers": 1}, "seed": 0, "steps": 300, "gap": 16},
    # √d_k: 임베딩을 표준편차 1.0 으로 크게 시작해, 나눌 때와 나누지 않을 때
    "large_scaled": {"config": {**CONFIG, "embed_std": 1.0}, "seed": 0, "steps": 800},
    "large_unscaled": {"config": {**CONFIG, "embed_std": 1.0, "scaled": False}, "seed": 0, "steps": 800},
}
# 처음 한 번만 학습하고, 다음부터는 남겨 둔 기록을 읽습니다
runs = trained(RUNS)
# --8<-- [end:runs]


# --8<-- [start:phase]
def phase_step(run, window=25):
    """둘째 토막의 손실(최근 window 스텝 평균)이 처음으로 ln V 의 절반 아래로 내려간 스텝."""
    smooth = np.convolve(run["train_repeat_loss"], np.ones(window) / window, mode="valid")
    below = np.flatnonzero(smooth < np.log(CONFIG["vocab"]) / 2)
    return int(below[0]) + window if below.size else None


main = runs["main"]
step = main["step"]
print(f"찍어서 맞힐 때의 손실 ln {CONFIG['vocab']} = {np.log(CONFIG['vocab']):.2f}")
print(f"손실이 그 절반 아래로: 스텝 {phase_step(main)}")
for s in (0, 300, 400, 600, 800):
    i = int(np.searchsorted(step, s))
    print(f"스텝 {s}: 둘째 토막 {main['repeat_loss'][i]:.2f}, 나머지 {main['other_loss'][i]:.2f}")
# --8<-- [end:phase]

# --8<-- [start:heads]
# 헤드 이름 "층-헤드" (1부터 셉니다): 1-1, 1-2, 2-1, 2-2
HEADS = [f"{l + 1}-{h + 1}" for l in range(CONFIG["layers"]) for h in range(CONFIG["heads"])]


def at_step(s):
    """기록한 스텝(20 스텝마다) 가운데 s 에 가장 가까운 것의 번호."""
    return int(np.argmin(np.abs(step - s)))


moments = {"처음": 0, "급락": at_step(phase_step(main)), "끝": len(step) - 1}
for label, i in moments.items():
    # 헤드마다 [이전 토큰 점수, 유도 점수]
    scores = main["scores"][i].reshape(-1, 2)
    print(f"{label} (스텝 {step[i]})")
    for name, (prev, ind) in zip(HEADS, scores):
        print(f"  헤드 {name}: 이전 토큰 {prev:.2f}, 유도 {ind:.2f}")
# --8<-- [end:heads]

# --8<-- [start:knockout]
from tiny_training import evaluate, held_out, params_from


def switched_off(params, layer, head):
    """헤드 하나를 끈 파라미터: 그 헤드의 출력이 W_O 로 들어가는 d_head 개의 행을 0 으로 둡니다."""
    d_head = CONFIG["d_model"] // CONFIG["heads"]
    off = {**params, "layers": [dict(layer_p) for layer_p in params["layers"]]}
    W_O = off["layers"][layer]["W_O"] = params["layers"][layer]["W_O"].copy()
    W_O[head * d_head:(head + 1) * d_head] = 0
    return off


trained_params = params_from(main, CONFIG)
# 학습에 쓰지 않은 수열 64개
unseen = held_out(CONFIG)
base = evaluate(trained_params, *unseen, CONFIG)
print(f"모두 켜면 → 둘째 토막 손실 {base['repeat_loss']:.2f}")
for k, name in enumerate(HEADS):
    m = evaluate(switched_off(trained_params, *divmod(k, CONFIG["heads"])), *unseen, CONFIG)
    # 손실과, 2층 두 헤드 가운데 더 높은 유도 점수
    print(f"{name} 끄기 → 손실 {m['repeat_loss']:.2f}, 유도 {m['scores'][1, :, 1].max():.2f}")
# --8<-- [end:knockout]

# --8<-- [start:trap]
trap_config = RUNS["trap"]["config"]
trap_params = params_from(runs["trap"], trap_config)
for label, model, config in (("1층 모델 (거리 16에서 학습)", trap_params, trap_config),
                             ("2층 모델 (거리 제각각에서 학습)", trained_params, CONFIG)):
    print(label)
    for gap, where in ((16, "거리 16"), (None, "거리 제각각")):
        m = evaluate(model, *held_out(config, gap), config)
        print(f"{where} → 유도 점수 {m['scores'][-1, :, 1].max():.2f}, 손실 {m['repeat_loss']:.2f}")
# --8<-- [end:trap]

# --8<-- [start:scale]
for name, label in (("large_scaled", "÷ √d_k"), ("large_unscaled", "나누지 않음")):
    r = runs[name]
    w0, w1 = r["max_weight"][0].mean(), r["max_weight"][-1].mean()
    print(f"{label} (임베딩 표준편차 1.0)")
    print(f"행의 가장 큰 가중치: 처음 {w0:.2f} → 끝 {w1:.2f}")
    print(f"손실 (스텝 500 → 800): {r['repeat_loss'][at_step(500)]:.2f} → {r['repeat_loss'][-1]:.2f}")
    print(f"기울기 노름 최대 {r['grad_norm'].max():.1f}, NaN·inf 없음: {bool(np.isfinite(r['train_loss']).all())}")
# --8<-- [end:scale]


# --8<-- [start:probe_weights]
from repeat_task import probe_sequence
from tiny_transformer import forward


def probe_attention(params, config, gap=16):
    """확인용 수열(probe_sequence)에서 층마다 헤드마다의 어텐션 가중치 (층, 헤드, n, n)."""
    probe, _ = probe_sequence(config, gap)
    _, cache = forward(params, probe[None, :-1], config)
    return np.stack([s[4][0] for s in cache["layers"]])
# --8<-- [end:probe_weights]


# --8<-- [start:figure_loss]
def figure_loss(narrow=False):
    """둘째 토막(맞힐 수 있는 자리)과 나머지 자리의 손실: 평평하다가 한꺼번에 떨어집니다."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    fig, ax = plt.subplots(figsize=(width(narrow), 3.6 if narrow else 3.2), layout="constrained")
    chance = np.log(CONFIG["vocab"])
    ax.axhline(chance, color=t["muted"], linestyle="--", linewidth=1)
    ax.text(step[-1], chance - 0.1, f"찍기 ln {CONFIG['vocab']} ≈ {chance:.2f}", ha="right", va="top",
            color=t["muted"])
    ax.plot(step, main["other_loss"], color=t["accent2"], label="나머지 자리 (맞힐 수 없음)")
    ax.plot(step, main["repeat_loss"], color=t["accent"], linewidth=2, label="둘째 토막 (앞을 보면 맞힘)")
    ax.axvline(phase_step(main), color=t["muted"], linestyle=":", linewidth=1)
    ax.set_xlabel("학습 스텝")
    ax.set_ylabel("손실 (nat)")
    ax.set_ylim(0, 4.4)
    ax.set_title(f"스텝 {phase_step(main)} 무렵에 손실이 한꺼번에 떨어집니다")
    ax.legend(loc="lower left")
    ax.grid(True, alpha=0.5)
    return fig
# --8<-- [end:figure_loss]


def _heat(ax, w, title, segment=(4, 20), left=True, bottom=True):
    """가중치 행렬 하나 (행 = 쿼리 자리, 열 = 키 자리). 인과 마스크로 가린 칸(대각선 위)은 비워 둡니다.

    눈금은 두 토막이 시작하는 자리에만 둡니다 (segment = 첫 토막, 둘째 토막의 시작).
    """
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap(plt.rcParams["image.cmap"]).with_extremes(bad=(0, 0, 0, 0))
    hidden = np.triu(np.ones_like(w, dtype=bool), k=1)
    im = ax.imshow(np.ma.masked_where(hidden, w), vmin=0, vmax=1, cmap=cmap, interpolation="nearest")
    ax.set_xticks(segment, labels=[str(s) for s in segment] if bottom else [])
    ax.set_yticks(segment, labels=[str(s) for s in segment] if left else [])
    ax.set_title(title)
    return im


# --8<-- [start:figure_heads]
def figure_heads(narrow=False):
    """확인용 수열에서 네 헤드의 가중치: 처음, 손실이 떨어지는 스텝, 끝 (넓은 판은 줄마다 한 때, 좁은 판은 줄마다 한 헤드)."""
    import matplotlib.pyplot as plt

    from plotting import width

    rows, cols = (len(HEADS), len(moments)) if narrow else (len(moments), len(HEADS))
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 7.4 if narrow else 4.9),
                             layout="constrained", squeeze=False)
    for m, (label, i) in enumerate(moments.items()):
        weights = main["probe"][i].reshape(-1, *main["probe"].shape[-2:])  # (헤드 4, n, n)
        for k, name in enumerate(HEADS):
            r, c = (k, m) if narrow else (m, k)
            top = f"{label} (스텝 {step[i]})" if narrow else f"헤드 {name}"
            im = _heat(axes[r, c], weights[k], top if r == 0 else None, left=c == 0, bottom=r == rows - 1)
            if c == 0 and narrow:
                axes[r, c].set_ylabel(f"헤드 {name}")
            elif c == 0:  # 넓은 판: 줄 이름을 가로로 눕혀 읽기 쉽게
                axes[r, c].set_ylabel(f"{label}\n스텝 {step[i]}", rotation=0, ha="right", va="center",
                                        labelpad=16)
    fig.colorbar(im, ax=axes, shrink=0.6, label="어텐션 가중치", location="bottom" if narrow else "right")
    return fig
# --8<-- [end:figure_heads]


# --8<-- [start:figure_scores]
def figure_scores(narrow=False):
    """헤드마다 이전 토큰 점수와 유도 점수가 학습하는 동안 어떻게 바뀌는지."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    fig, axes = plt.subplots(2 if narrow else 1, 1 if narrow else 2, figsize=(width(narrow), 5.6 if narrow else 3.0),
                             sharex=True, sharey=True, layout="constrained")
    colors = [t["accent"], t["accent2"], "#26a69a", "#ffa000"]
    styles = ["-", "--", "-", "--"]
    for ax, which, title in zip(axes, (0, 1), ("이전 토큰 점수", "유도 점수")):
        for k, name in enumerate(HEADS):
            ax.plot(step, main["scores"][:, k // 2, k % 2, which], color=colors[k], linestyle=styles[k],
                    linewidth=2, label=f"헤드 {name}")
        ax.axvline(phase_step(main), color=t["muted"], linestyle=":", linewidth=1)
        ax.set_title(title)
        ax.set_ylim(0, 1)
        ax.grid(True, alpha=0.5)
    for ax in axes[1:] if narrow else axes:  # 좁은 판은 위아래로 쌓아 가로축을 함께 씁니다
        ax.set_xlabel("학습 스텝")
    axes[0].legend(loc="upper left", ncols=2)
    return fig
# --8<-- [end:figure_scores]


# --8<-- [start:figure_trap]
def figure_trap(narrow=False):
    """같은 확인용 수열을 거리 16 과 12 로: 1층 모델의 무늬는 늘 같은 거리에 있고, 2층 모델은 토막을 따라갑니다."""
    import matplotlib.pyplot as plt

    from plotting import width

    best = int(np.argmax(main["scores"][-1, 1, :, 1]))  # 2층에서 유도 점수가 가장 높은 헤드
    trap_best = int(np.argmax(runs["trap"]["scores"][-1, 0, :, 1]))  # 1층 모델에서 같은 점수가 가장 높은 헤드
    models = ((f"1층 모델 헤드 1-{trap_best + 1}", trap_params, trap_config, 0, trap_best),
              (f"2층 모델 헤드 2-{best + 1}", trained_params, CONFIG, 1, best))
    fig, axes = plt.subplots(2, 2, figsize=(width(narrow), 5.6 if narrow else 5.6), layout="constrained")
    for r, (label, model, config, layer, head) in enumerate(models):
        for c, gap in enumerate((16, 12)):
            w = probe_attention(model, config, gap)[layer, head]
            im = _heat(axes[r, c], w, f"{label}\n거리 {gap}", segment=(4, 4 + gap))
    fig.colorbar(im, ax=axes, shrink=0.6, label="어텐션 가중치", location="bottom" if narrow else "right")
    return fig
# --8<-- [end:figure_trap]


# --8<-- [start:figure_scale]
def figure_scale(narrow=False):
    """임베딩을 크게 시작하면: 나누지 않은 모델은 가중치가 한 곳에 몰린 채 멈추고, 나눈 모델은 배웁니다."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    fig, axes = plt.subplots(2 if narrow else 1, 1 if narrow else 2, figsize=(width(narrow), 5.6 if narrow else 3.0),
                             sharex=True, layout="constrained")
    lines = (("large_scaled", "÷ √d_k", t["accent"], "-"), ("large_unscaled", "나누지 않음", t["accent2"], "--"))
    for name, label, color, style in lines:
        r = runs[name]
        axes[0].plot(r["step"], r["repeat_loss"], color=color, linestyle=style, linewidth=2, label=label)
        axes[1].plot(r["step"], r["max_weight"].mean(-1), color=color, linestyle=style, linewidth=2, label=label)
    axes[0].set_title("둘째 토막의 손실")
    axes[0].set_ylabel("nat")
    axes[0].set_ylim(0, max(runs[name]["repeat_loss"].max() for name, *_ in lines) + 0.3)
    axes[1].set_title("행의 가장 큰 가중치 (평균)")
    axes[1].set_ylim(0, 1)
    for ax in axes[1:] if narrow else axes:  # 좁은 판은 위아래로 쌓아 가로축을 함께 씁니다
        ax.set_xlabel("학습 스텝")
    for ax in axes:
        ax.grid(True, alpha=0.5)
    axes[0].legend(loc="lower left")
    return fig
# --8<-- [end:figure_scale]


# --8<-- [start:data_training]
def data_training():
    """슬라이더가 쓰는 데이터: 기록한 스텝마다 네 헤드의 가중치(확인용 수열, 백분율 정수)와 손실·점수."""
    import base64

    probe, segments = probe_sequence(CONFIG)
    n = CONFIG["n_ctx"]
    rows, cols = np.tril_indices(n)  # 인과 마스크 때문에 대각선 위는 늘 0: 아래 삼각형만 보냅니다
    weights = main["probe"].reshape(len(step), -1, n, n)[:, :, rows, cols]  # (스텝, 헤드, n(n+1)/2)
    percent = np.rint(weights * 100).astype(np.uint8)
    return {
        "title": "학습하는 동안 네 헤드의 어텐션 가중치",
        "heads": HEADS,
        "n": n,
        "tokens": [SYMBOLS[t] for t in probe[:-1]],
        "segment": segments[0].tolist(),
        "steps": step.tolist(),
        "phase_step": phase_step(main),
        "chance": round(float(np.log(CONFIG["vocab"])), 4),
        # 화면에 적는 자리수(소수 둘째 자리)로 반올림해 보냅니다: 화면의 숫자가 곧 이 값입니다
        "repeat_loss": shown(main["repeat_loss"]),
        "other_loss": shown(main["other_loss"]),
        "scores": shown(main["scores"].reshape(len(step), -1, 2)),  # (스텝, 헤드, [이전, 유도])
        "percent": base64.b64encode(percent.tobytes()).decode("ascii"),  # uint8, (스텝, 헤드, 아래 삼각형) 순서
    }


def shown(values):
    """화면에 적는 자리수(소수 둘째 자리)로 반올림한 float64 리스트 (float32 를 그대로 쓰면 0.7300000190734863)."""
    return np.round(np.asarray(values, dtype=np.float64), 2).tolist()
# --8<-- [end:data_training]


# --8<-- [start:quiz_1]
trap_head = probe_attention(trap_params, trap_config, gap=12)[0].mean(0)  # 1층 모델, 두 헤드의 평균
rows = np.arange(16, 27)  # 거리 12: 둘째 토막(자리 16–27)에서 다음 토큰이 토막 안인 자리
print("가장 많이 보는 자리 − 지금 자리:", sorted(set((trap_head[rows].argmax(-1) - rows).tolist())))
for gap in (16, 12):
    probe, seg = probe_sequence(trap_config, gap)
    logits, _ = forward(trap_params, probe[None, :-1], trap_config)
    t = np.arange(seg[0, 1], seg[0, 1] + seg[0, 2] - 1)
    right = int((logits[0, t].argmax(-1) == probe[t + 1]).sum())
    print(f"거리 {gap}: 둘째 토막의 다음 토큰 {len(t)}개 가운데 {right}개를 맞힘")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
probe, seg = probe_sequence(CONFIG)
t = np.arange(seg[0, 1], seg[0, 1] + seg[0, 2] - 1)  # 둘째 토막의 자리
source = t - (seg[0, 1] - seg[0, 0]) + 1  # 앞 토막에서 같은 토큰의 다음 자리
off = switched_off(trained_params, 0, 0)  # 헤드 1-1 끄기
for label, model in (("켜 두면", trained_params), ("헤드 1-1을 끄면", off)):
    w = probe_attention(model, CONFIG)[1]  # 2층 두 헤드 (헤드, n, n)
    print(f"{label}: 2층 헤드가 앞 토막의 다음 자리에 준 가중치 {w[:, t, source].mean():.2f}")
print("2층의 파라미터는 같은가?", all(np.array_equal(off["layers"][1][k], trained_params["layers"][1][k])
                                  for k in off["layers"][1]))
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# W_Q, W_K 의 기울기 크기를 스텝 100–800 에서 평균합니다 (처음 100 스텝은 출력의 크기를 맞추느라 모두 큽니다)
later = {name: runs[name]["qk_grad_norm"][100:].mean() for name in ("large_scaled", "large_unscaled")}
print(f"W_Q·W_K 의 기울기 크기 평균: ÷ √d_k {later['large_scaled']:.3f}, 나누지 않음 {later['large_unscaled']:.3f}")
print(f"나누지 않은 쪽 / 나눈 쪽 = {later['large_unscaled'] / later['large_scaled']:.1f}")
# --8<-- [end:quiz_3]
# --8<-- [end:quiz_3]
