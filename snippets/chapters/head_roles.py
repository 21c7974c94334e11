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


# 행렬마다 한 번: W_E, W_pos, 층마다 W_Q·W_K·W_V·W_O, W_U
print(f"행렬 {len(list(named(params)))}개에서 상대 차이 최대 {gradient_check(CONFIG):.1e}")
# --8<-- [end:gradient_check]

# --8<-- [start:runs]
from run_cache import trained

# 이 장의 학습 두 가지 (√d_k 실험은 아래 따로). 같은 과제에서 한 가지씩만 바꿉니다.
# (스텝마다 수열 32개, Adam 학습률 0.01: tiny_training.train)
RUNS = {
    "main": {"config": CONFIG, "seed": 0, "steps": 800},
    # 함정: 층이 하나이고, 두 토막 사이의 거리가 늘 16
    "trap": {"config": {**CONFIG, "layers": 1}, "seed": 0, "steps": 300, "gap": 16},
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

# --8<-- [start:induction]
from tiny_training import evaluate, held_out, params_from
from tiny_transformer import forward

# 학습이 끝난 파라미터
trained_params = params_from(main, CONFIG)


def walk_through(params, tokens, first, second):
    """둘째 토막의 첫 자리 t 에서 다음 토큰을 맞히는 세 걸음의 숫자.

    source = 앞 토막에서 t 와 같은 토큰의 바로 다음 자리. ① 1층 헤드 1-1 이 source 에서 바로 앞 자리에 준 가중치,
    ② 2층 두 헤드가 t 에서 source 에 준 가중치, ③ 모델이 t 의 다음 토큰에 준 확률.
    """
    t, source = int(second), int(first) + 1
    logits, cache = forward(params, tokens[:, :-1], CONFIG)
    # 층마다 (헤드, n, n)
    layer1, layer2 = (s[4][0] for s in cache["layers"])
    p = np.exp(logits[0, t] - logits[0, t].max())
    return {"t": t, "source": source, "previous": float(layer1[0, source, source - 1]),
            "induction": layer2[:, t, source].tolist(), "p_next": float(p[tokens[0, t + 1]] / p.sum())}


walk = walk_through(trained_params, tokens, first, second)
t, source = walk["t"], walk["source"]
print(f"자리 {t}의 {text[t]} 다음 토큰은 {text[t + 1]}")
print(f"① 1층 헤드 1-1: 자리 {source}({text[source]}) → 자리 {source - 1}({text[source - 1]}) 가중치 {walk['previous']:.2f}")
print(f"② 2층 자리 {t}({text[t]}) → 자리 {source}({text[source]}) 가중치: "
      + ", ".join(f"헤드 2-{h + 1} {w:.2f}" for h, w in enumerate(walk["induction"])))
print(f"③ 다음 토큰 {text[t + 1]}의 확률 {walk['p_next']:.2f} (찍기 1/{CONFIG['vocab']})")
# --8<-- [end:induction]

# --8<-- [start:knockout]


def switched_off(params, layer, head):
    """헤드 하나를 끈 파라미터: 그 헤드의 출력이 W_O 로 들어가는 d_head 개의 행을 0 으로 둡니다."""
    d_head = CONFIG["d_model"] // CONFIG["heads"]
    off = {**params, "layers": [dict(layer_p) for layer_p in params["layers"]]}
    W_O = off["layers"][layer]["W_O"] = params["layers"][layer]["W_O"].copy()
    W_O[head * d_head:(head + 1) * d_head] = 0
    return off


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

# --8<-- [start:scale_runs]
def variant(embed_std, scaled, seed):
    """√d_k 실험의 모델 하나: 이 장의 모델에서 임베딩의 처음 크기와 √d_k 로 나누는지만 바꿉니다."""
    return {"config": {**CONFIG, "embed_std": embed_std, "scaled": scaled}, "seed": seed}


# 처음 점수의 크기가 같은 짝 둘. 점수 q·k 는 임베딩 크기의 제곱에 비례하므로, 나눈 모델의 임베딩을 두 배로
# 키우면 점수가 4배(= √d_k)가 되어 나누지 않은 모델과 처음 점수가 같아집니다.
# (임베딩 표준편차, √d_k 로 나누는가)
PAIRS = [(1.0, True), (0.5, False), (2.0, True), (1.0, False)]
SCALE_RUNS = {
    # 이 장의 설정(임베딩 1.0)을 오래: 나눌 때와 나누지 않을 때, 5,000 스텝
    "scale_long": {"runs": [variant(1.0, True, 0), variant(1.0, False, 0)], "steps": 5000, "every": 50},
    # 짝마다 시드 둘, 800 스텝 (임베딩 1.0 의 시드 0 은 위 긴 학습의 처음 800 스텝을 씁니다)
    "scale_pairs": {"runs": [variant(std, scaled, seed) for std, scaled in PAIRS for seed in (0, 1)
                             if (std, seed) != (1.0, 0)], "steps": 800, "every": 50},
}
# 모델 여럿을 배열 하나로 함께 학습합니다 (tiny_batch.py). 처음 한 번만 학습하고 기록을 남깁니다
scale_runs = trained(SCALE_RUNS)
# --8<-- [end:scale_runs]

# --8<-- [start:scale]
from tiny_transformer import score_scale


def first_scores(run):
    """처음 파라미터로 잰 1층 점수(② 뒤)의 표준편차와, 한 키에 99% 넘게 몰린 행의 비율 (학습에 쓰지 않은 수열).

    행 0–3 은 볼 수 있는 키가 네 개 이하라서 빼고 셉니다.
    """
    config = run["config"]
    held, _ = held_out(config)
    _, cache = forward(init_params(config, run["seed"]), held[:, :-1], config)
    _, q, k, _, weights, _ = cache["layers"][0]
    scores = q @ k.swapaxes(-1, -2) * score_scale(config, q.dtype)
    seen = np.tril(np.ones(scores.shape[-2:], dtype=bool))
    return scores[..., seen].std(), (weights[..., 4:, :].max(-1) > 0.99).mean()


def learned(record, m, by=None):
    """모델 m 이 (스텝 by 까지) 배웠는가: 둘째 토막의 손실(학습에 쓰지 않은 수열)이 ln V 의 절반 아래로 내려갔는가."""
    upto = record["step"] <= (by if by is not None else record["step"][-1])
    return bool((record["repeat_loss"][m][upto] < np.log(CONFIG["vocab"]) / 2).any())


def models(embed_std, scaled):
    """한 (임베딩, 나누는가) 의 모델들: [(기록, 모델 번호, 설정)], 두 기록에서."""
    return [(scale_runs[name], m, run) for name, group in SCALE_RUNS.items() for m, run in enumerate(group["runs"])
            if run["config"]["embed_std"] == embed_std and run["config"]["scaled"] == scaled]


for std, scaled in PAIRS:
    found = models(std, scaled)
    spread, stuck = np.mean([first_scores(run) for _, _, run in found], axis=0)
    print(f"{'÷ √d_k' if scaled else '나누지 않음'}, 임베딩 {std}: 처음 점수의 표준편차 {spread:.1f}, 한 키에 몰린 행 "
          f"{stuck:.0%} → 800 스텝 안에 배운 시드 {sum(learned(r, m, by=800) for r, m, _ in found)}/{len(found)}")

long = scale_runs["scale_long"]
print(f"임베딩 1.0, 시드 0, {long['step'][-1]:,} 스텝")
for m, label in enumerate(("÷ √d_k", "나누지 않음")):
    yes = {True: "예", False: "아니요"}
    print(f"{label}: 배웠나 {yes[learned(long, m)]} · 기울기 노름이 10을 넘었나 {yes[bool(long['grad_norm'][m].max() > 10)]}"
          f" · NaN·inf {'없음' if np.isfinite(long['train_loss'][m]).all() else '있음'}")
# --8<-- [end:scale]


# --8<-- [start:probe_weights]
from repeat_task import probe_sequence


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


# --8<-- [start:figure_induction]
def figure_induction(narrow=False):
    """위 수열에서 유도가 일어나는 세 걸음: 토큰 줄 위에 ① 1층(아래 호), ② 2층(위 호), ③ 다음 토큰."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    from plotting import current_theme, width

    t = current_theme()
    shown = [*range(first - 1, first + 3), None, *range(second - 1, second + 3)]  # None: 사이를 줄인 자리 (…)
    x = {pos: k for k, pos in enumerate(shown) if pos is not None}
    fig, ax = plt.subplots(figsize=(width(narrow), 3.4 if narrow else 2.9), layout="constrained")
    ax.set_xlim(-0.7, len(shown) - 0.3)
    ax.set_ylim(-1.9, 1.9)
    ax.axis("off")
    for k, pos in enumerate(shown):
        if pos is None:
            ax.text(k, 0, "…", ha="center", va="center", color=t["muted"])
            continue
        key = pos in (walk["t"], walk["t"] + 1, walk["source"], walk["source"] - 1)
        ax.text(k, 0, text[pos], ha="center", va="center", fontweight="bold" if key else "normal",
                color=t["text"], bbox={"boxstyle": "round,pad=0.35", "fc": "none",
                                       "ec": t["accent"] if key else t["muted"], "lw": 1.6 if key else 0.8})
        ax.text(k, -0.6, str(pos), ha="center", va="center", color=t["muted"])

    def arc(a, b, rad, color):
        """자리 a 에서 b 로 (왼쪽으로) 가는 호. rad > 0 이면 토큰 줄 위로, 아니면 아래로 (자리 번호를 피해 안쪽에서)."""
        y, inset = (0.35, 0) if rad > 0 else (-0.3, 0.22)
        ax.add_patch(FancyArrowPatch((x[a] - inset, y), (x[b] + inset, y),
                                     connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>", mutation_scale=12,
                                     color=color, lw=1.6))

    src, now = walk["source"], walk["t"]
    arc(src, src - 1, -0.9, t["accent2"])  # ① 아래: 1층이 바로 앞을 봅니다
    ax.text(x[src] - 0.5, -1.45, f"① 1층 헤드 1-1 ({walk['previous']:.2f}):\n{src}번에 '앞 토큰 {text[src - 1]}'를 적음",
            ha="left", va="center", color=t["accent2"])
    arc(now, src, 0.3, t["accent"])  # ② 위: 2층이 앞 토막의 다음 자리를 봅니다
    ax.text((x[now] + x[src]) / 2, 1.55, f"② 2층 헤드 2-1 ({walk['induction'][0]:.2f}): {text[now]}를 들고 '앞 토큰 {text[now]}'인 자리를 찾음",
            ha="center", va="center", color=t["accent"], wrap=True)
    ax.text(x[now + 1], -1.45, f"③ 다음 토큰\n{text[now + 1]} ({walk['p_next']:.2f})", ha="center", va="center",
            color=t["text"])
    return fig
# --8<-- [end:figure_induction]


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
    """임베딩 1.0 을 4,000 스텝: 둘째 토막의 손실과 기울기 노름. 나누지 않은 모델은 멈춰 있다가 기울기가 튑니다."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    fig, axes = plt.subplots(2, 1, figsize=(width(narrow), 5.8 if narrow else 4.6), sharex=True, layout="constrained")
    steps = np.arange(1, long["grad_norm"].shape[1] + 1)
    chance = np.log(CONFIG["vocab"])
    axes[0].axhline(chance, color=t["muted"], linestyle=":", linewidth=1.2, label=f"찍기 ln {CONFIG['vocab']} ≈ {chance:.2f}")
    for m, (label, color, style) in enumerate((("÷ √d_k", t["accent"], "-"), ("나누지 않음", t["accent2"], "--"))):
        axes[0].plot(long["step"], long["repeat_loss"][m], color=color, linestyle=style, linewidth=2, label=label)
        axes[1].plot(steps, long["grad_norm"][m], color=color, linewidth=0.8, label=label)
    axes[0].set_title("둘째 토막의 손실 (학습에 쓰지 않은 수열)")
    axes[0].set_ylabel("nat")
    axes[0].set_ylim(0, long["repeat_loss"].max() + 0.3)
    axes[1].set_title("기울기 노름 (스텝마다, 로그 눈금)")
    axes[1].set_yscale("log")
    axes[1].axhline(10, color=t["muted"], linestyle=":", linewidth=1)
    axes[1].set_xlabel("학습 스텝")
    for ax in axes:
        ax.grid(True, alpha=0.5)
    axes[0].legend(loc="center right", ncols=1 if narrow else 3)
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
# 임베딩 1.0 의 두 모델(시드 둘씩): W_Q, W_K 의 기울기 크기, 스텝 100–800
# (처음 100 스텝은 출력의 크기를 맞추느라 모두 큽니다)
qk = {scaled: np.array([r["qk_grad_norm"][m, 100:800] for r, m, _ in models(1.0, scaled)]) for scaled in (True, False)}
print(f"평균 기울기 크기: 나누지 않음 / ÷ √d_k = {qk[False].mean() / qk[True].mean():.1f}")
print(f"나누지 않은 모델에서 가장 작았던 값도 0.01 보다 큼: {bool(qk[False].min() > 0.01)}")
# --8<-- [end:quiz_3]
