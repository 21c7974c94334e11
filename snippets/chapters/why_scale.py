"""3장 √d_k 로 나누는 이유: 내적의 퍼짐, 소프트맥스의 날카로움, 기울기, 안정한 소프트맥스."""

# --8<-- [start:spread]
import numpy as np

from attention import softmax

np.set_printoptions(precision=4,
                    suppress=True)
rng = np.random.default_rng(0)

dims = [1, 4, 16, 64, 256, 1024]
# d_k 마다 (q, k) 쌍 1만 개를 뽑아
# 내적의 표준편차를 구합니다.
pairs = 10_000
spread = {}
# 휴대전화의 실행 결과 상자(약 32자)에
# 들어가게 세 열만 찍습니다.
print(" d_k  표준편차  √d_k  나눈 뒤")
for d_k in dims:
    # 성분이 평균 0, 분산 1인 벡터
    q = rng.standard_normal((pairs, d_k))
    k = rng.standard_normal((pairs, d_k))
    # 쌍마다 q·k 하나: 같은 행끼리 곱해
    # 더하므로 @ 가 아니라 * 입니다
    dots = np.sum(q * k, axis=-1)
    spread[d_k] = dots
    scaled_std = (dots / np.sqrt(d_k)).std()
    print(f"{d_k:4d} {dots.std():9.3f}"
          f" {np.sqrt(d_k):5.0f} {scaled_std:8.3f}")
# --8<-- [end:spread]

# --8<-- [start:what_grows]
# d_k = 64 에서 정확히 무엇이 8배가
# 되는지 d_k = 1 과 비교합니다.
one, big = spread[1], spread[64]
print("평균")
print(f"  d_k = 1:  {one.mean():6.3f}")
print(f"  d_k = 64: {big.mean():6.3f}")
print("d_k = 64 의 값 ÷ d_k = 1 의 값")
print("  표준편차:", round(big.std() / one.std(), 2))
print("  분산:", round(big.var() / one.var(), 1))
print("  |q·k| 의 평균:",
      round(np.abs(big).mean() / np.abs(one).mean(), 2))
# --8<-- [end:what_grows]

# --8<-- [start:sharpness]
# d_k = 64, 키 10개. 무작위 쿼리 2천 개로
# 나누기 전과 후의 가중치를 비교합니다.
d_k, n_keys, trials = 64, 10, 2_000
q = rng.standard_normal((trials, 1, d_k))
k = rng.standard_normal((trials, n_keys, d_k))
# 나누기 전 점수: (trials, 10)
raw = (q @ np.swapaxes(k, -1, -2))[:, 0, :]


def entropy(p):
    """분포가 고를수록 큰 값.

    키 10개에 똑같이 나누면 ln 10 ≈ 2.303.
    """
    logp = np.log(np.clip(p, 1e-300, None))
    return -np.sum(p * logp, axis=-1)


for name, s in [("나누지 않음", raw),
                ("÷ √d_k", raw / np.sqrt(d_k))]:
    p = softmax(s, axis=-1)
    top = p.max(-1)
    print(f"{name}")
    print(f"  가장 큰 가중치 평균 {top.mean():.3f}")
    print(f"  엔트로피 평균 {entropy(p).mean():.3f}")
    print("  한 키에 0.99 넘게 몰린 쿼리",
          f"{(top > 0.99).mean():.3f}")
# --8<-- [end:sharpness]

# --8<-- [start:article_example]
print("softmax([100, 1, 1])")
print("  =", softmax(np.array([100.0, 1.0, 1.0])))
print("softmax([10, 0.1, 0.1])")
print("  =", softmax(np.array([10.0, 0.1, 0.1])))
# --8<-- [end:article_example]

# --8<-- [start:better_example]
# d_k = 64 에서 흔한 크기의 점수(표준편차가
# 8 정도)를 √64 = 8로 나눠 봅니다.
typical = np.array([16.0, 8.0, 4.0])
print("나누기 전:", typical)
print("  softmax:", softmax(typical))
print("8로 나눈 뒤:", typical / 8)
print("  softmax:", softmax(typical / 8))
# --8<-- [end:better_example]

# --8<-- [start:gradient]
def softmax_jacobian(s):
    """∂p_i/∂s_j = p_i (δ_ij − p_j).

    점수가 조금 바뀔 때 가중치가 얼마나
    바뀌는지입니다. 대각선의 1 − p_i 는
    "나머지 가중치의 합"으로 계산합니다.
    p_i 가 1에 아주 가까우면 1 − p_i 를
    그대로 빼는 순간 반올림으로 0이 되기
    때문입니다.
    """
    p = softmax(s)
    # 1 − p_i 를 반올림 없이: 나머지의 합
    rest = np.array([np.delete(p, i).sum()
                     for i in range(len(p))])
    J = -np.outer(p, p)
    J[np.diag_indices_from(J)] = p * rest
    return J


cases = {"[100, 1, 1]": [100.0, 1.0, 1.0],
         "[10, 0.1, 0.1]": [10.0, 0.1, 0.1],
         "[16, 8, 4]": typical,
         "[2, 1, 0.5]": typical / 8}
# 야코비안에서 절댓값이 가장 큰 칸
print("점수 s: 야코비안의 가장 큰 칸")
top_is_first = []
for label, s in cases.items():
    J = softmax_jacobian(np.asarray(s))
    print(f"  {label:15s} {np.abs(J).max():.2e}")
    top_is_first.append(np.abs(J).max() == J[0, 0])
print("가장 큰 칸이 1등 자리 ∂p₁/∂s₁ 인가?",
      all(top_is_first))
p_big = softmax(np.array([100.0, 1.0, 1.0]))
print("[100, 1, 1] 에서 1 − p₁")
print("  그대로 빼면:", 1 - p_big[0])
print(f"  나머지를 더하면: {p_big[1:].sum():.2e}")
# --8<-- [end:gradient]

# --8<-- [start:gradient_dk]
# 다시 d_k = 64, 키 10개: 점수에서 가중치로
# 흐르는 기울기의 크기(야코비안의 노름)
for name, s in [("나누지 않음", raw),
                ("÷ √d_k", raw / np.sqrt(d_k))]:
    norms = [np.linalg.norm(softmax_jacobian(row))
             for row in s]
    small = np.mean(np.less(norms, 0.01))
    print(name)
    print(f"  노름 중앙값 {np.median(norms):.4f}")
    print(f"  0.01 보다 작은 행 {small:.3f}")
# --8<-- [end:gradient_dk]

# --8<-- [start:value_gradient]
# 가중치가 한 곳에 몰려도 밸류 쪽 기울기는
# 살아 있습니다: 출력 = p @ V 이므로
# ∂출력/∂V_j = p_j 입니다.
p = softmax(np.array([100.0, 1.0, 1.0]))
print("∂출력/∂V_j 의 크기 (j = 1, 2, 3):")
print(p)
# --8<-- [end:value_gradient]

# --8<-- [start:naive_overflow]
def naive_softmax(x):
    """교과서 정의 그대로 (비교용).

    최댓값을 빼지 않아서 넘칠 수 있습니다.
    """
    e = np.exp(x)
    return e / e.sum()


x = np.array([1000.0, 999.0])
# 넘침 경고를 일부러 끄고 결과만 봅니다
with np.errstate(over="ignore", invalid="ignore"):
    print("그대로 계산:", naive_softmax(x))
    e89 = np.exp(np.float32(89.0))
e88 = np.exp(np.float32(88.0))
print("float32 에서 exp(89) =", e89)
print(f"float32 에서 exp(88) = {e88:.3e}")
print("최댓값을 빼고:", softmax(x))
print("빼 준 뒤의 지수:", x - x.max())
# --8<-- [end:naive_overflow]


# --8<-- [start:explorer_data]
def data_explorer():
    """브라우저 탐색기가 쓰는 데이터: 'The cat sat on the mat' 의 나누기 전 점수 Q Kᵀ (d_k = 64).

    4장의 히트맵·탐색기, 6장, 실습 파트 2·3 과 같은 예제(toy_data.cat_sat_example)입니다.
    """
    from toy_data import cat_sat_example

    tokens, X, p = cat_sat_example(d_model=64)
    scores = (X @ p["W_Q"]) @ (X @ p["W_K"]).T
    return {"title": "점수의 크기를 바꿔 보세요 (d_k = 64, 무작위 쿼리·키)", "tokens": tokens, "d_k": 64,
            "scores": np.round(scores, 6).tolist()}
# --8<-- [end:explorer_data]


# --8<-- [start:quiz_1]
# 나누지 않은 q·k 의 표준편차: d_k = 64 에서 8쯤. 몇 차원에서 4배(32쯤)가 될까요?
r = np.random.default_rng(1)
base, times = 64, 4
spread_dk = {}
for d in (base, base * times, base * times**2):
    q, k = r.standard_normal((4_000, d)), r.standard_normal((4_000, d))
    spread_dk[d] = np.sum(q * k, axis=-1).std()
for d, s in spread_dk.items():
    print(f"d_k = {d:4d}: 표준편차 {s:5.2f} ({s / spread_dk[base]:.2f}배)")
target = base * times**2  # 표준편차는 √d_k 에 비례하므로, 4배가 되려면 d_k 는 4² 배
print(f"4배가 되는 d_k: {target}")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# d_k = 64: 성분이 평균 0, 분산 1인 쿼리와 키
r = np.random.default_rng(2)
q64, k64 = r.standard_normal((10_000, 64)), r.standard_normal((10_000, 64))
grow = 2
before = (np.sum(q64 * k64, axis=-1) / np.sqrt(64)).std()
# 모든 성분을 grow 배로 키운 쿼리와 키
after = (np.sum((grow * q64) * (grow * k64), axis=-1) / np.sqrt(64)).std()
print("√d_k 로 나눈 점수의 표준편차")
print(f"  그대로: {before:.2f}")
print(f"  성분을 {grow}배로: {after:.2f}")
print(f"  → {after / before:.1f}배 (분산은 {(after / before) ** 2:.0f}배)")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
p1 = np.linspace(0, 1, 101)  # 1등 자리의 가중치
slope = p1 * (1 - p1)  # 1등 자리의 기울기 ∂p₁/∂s₁
print(f"∂p₁/∂s₁ 이 가장 큰 곳: p₁ = {p1[slope.argmax()]:.2f}, 그때 값 {slope.max():.2f}")
print(f"p₁ = 0.99 이면 {0.99 * 0.01:.4f}: 가장 클 때의 {0.99 * 0.01 / slope.max():.0%}")
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
explorer = data_explorer()
# 'cat' 행의 나누기 전 점수
row = np.array(explorer["scores"][explorer["tokens"].index("cat")])
for factor, label in [(1 / 8, "÷√d_k (×0.125)"), (1.0, "나누지 않음 (×1)")]:
    pq = softmax(row * factor)
    top = explorer["tokens"][int(pq.argmax())]
    print(label)
    print(f"  가장 큰 가중치 {pq.max():.2f} ({top})")
    print(f"  엔트로피 {entropy(pq):.2f}")
# --8<-- [end:quiz_4]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_1():
    """문제 1: 나누지 않은 q·k 의 퍼짐이 d_k = 64 일 때의 4배가 되는 d_k."""
    from predict import number, wrong

    d1, d2, d3 = spread_dk
    values = {"base": str(base), "times": str(times), "target": str(target), "linear": str(d2),
              "s1": f"{spread_dk[d1]:.2f}", "s2": f"{spread_dk[d2]:.2f}", "s3": f"{spread_dk[d3]:.2f}",
              "r2": f"{spread_dk[d2] / spread_dk[d1]:.2f}", "r3": f"{spread_dk[d3] / spread_dk[d1]:.2f}"}
    return number(
        label="퍼짐이 네 배가 되는 d_k",
        answer=float(target),
        tolerance=40.0,
        right="표준편차는 d_k가 아니라 √d_k에 비례합니다. d_k = {base}에서 √d_k가 {times}배가 되려면 d_k는 {times}의 제곱 배인 {target}"
        "입니다. 재 보면 표준편차가 {s1}에서 {s3}로, {r3}배입니다.",
        wrong=[
            wrong(float(d2), 20.0, "d_k를 {times}배로 늘리면 퍼짐도 {times}배라고 봤나요? 표준편차는 √d_k에 비례해서, "
                  "d_k = {linear}이면 {s1}에서 {s2}로 {r2}배가 될 뿐입니다."),
            wrong(float(times * np.sqrt(base)), 3.0, "표준편차의 목표값을 적었나요? 묻는 것은 그만큼 퍼지게 하는 d_k입니다. "
                  "표준편차가 √d_k이므로 그 값을 제곱해 보세요."),
            wrong(float(base * 2), 10.0, "√{times}배, 곧 두 배로 늘린다고 봤나요? 제곱근이 붙은 쪽은 표준편차입니다. "
                  "d_k를 두 배로 하면 표준편차는 그 제곱근만큼만 커집니다."),
        ],
        other="내적의 분산은 d_k이고 표준편차는 √d_k입니다. √d_k가 {times}배가 되려면 d_k는 몇 배가 되어야 할지 "
        "생각해 보세요.",
        values=values,
    )


def data_quiz_2():
    """문제 2: 쿼리와 키의 모든 성분을 두 배로 키우면 √d_k 로 나눈 점수의 표준편차가 몇 배가 되는지."""
    from predict import number, wrong

    ratio = after / before
    values = {"grow": str(grow), "before": f"{before:.2f}", "after": f"{after:.2f}", "ratio": f"{ratio:.1f}",
              "var_ratio": f"{ratio ** 2:.0f}"}
    return number(
        label="나눈 점수의 표준편차는 몇 배",
        unit="배",
        answer=float(ratio),
        tolerance=0.2,
        right="q와 k가 각각 {grow}배라서 모든 내적이 {ratio}배가 되고, 나눈 점수의 표준편차도 {before}에서 "
        "{after}로 커집니다. √d_k는 차원 d_k만 보고 나누므로 성분의 크기는 맞춰 주지 못합니다.",
        wrong=[
            wrong(float(grow), 0.2, "한쪽만 커진다고 봤나요? 내적은 q의 성분과 k의 성분을 곱해 더하므로, 둘 다 "
                  "{grow}배면 점수는 {ratio}배입니다."),
            wrong(1.0, 0.2, "√d_k로 나누면 점수의 퍼짐이 늘 맞춰진다고 봤나요? √d_k는 차원 d_k만 보고 나눕니다. "
                  "성분이 커지면 나눈 점수의 표준편차도 {before}에서 {after}로 커집니다."),
            wrong(float(ratio**2), 1.0, "분산의 비를 적었습니다. 분산은 {var_ratio}배가 되고, 표준편차는 그 "
                  "제곱근인 {ratio}배입니다."),
        ],
        other="내적 q·k는 q의 성분과 k의 성분을 곱해 더한 값입니다. 두 성분이 각각 {grow}배가 되면 곱은 몇 배가 "
        "될지 생각해 보세요.",
        values=values,
    )

# --8<-- [start:figure_spread]
def figure_spread(narrow=False):
    """d_k 에 따른 q·k 의 표준편차: 나누기 전에는 √d_k 를 따라 커지고, 나눈 뒤에는 1 근처."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    fig, ax = plt.subplots(figsize=(width(narrow), 4.2 if narrow else 3.8), layout="constrained")
    raw_std = [spread[d].std() for d in dims]
    scaled_std = [(spread[d] / np.sqrt(d)).std() for d in dims]
    grid = np.geomspace(1, 1024, 100)
    ax.plot(grid, np.sqrt(grid), color=t["muted"], linestyle="--", label="$\\sqrt{d_k}$ (이론)")
    ax.plot(dims, raw_std, "o-", color=t["accent"], label="q·k (나누기 전)")
    ax.plot(dims, scaled_std, "s-", color=t["accent2"], label="q·k / $\\sqrt{d_k}$ (나눈 뒤)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(dims, labels=[str(d) for d in dims])  # 2^k 대신 보통 숫자로
    ax.set_yticks([1, 2, 4, 8, 16, 32], labels=["1", "2", "4", "8", "16", "32"])
    ax.minorticks_off()
    ax.set_xlabel("d_k (쿼리·키 벡터의 차원)")
    ax.set_ylabel("내적의 표준편차")
    ax.set_title("차원이 커질수록 내적이 퍼집니다")
    ax.grid(True, which="major", alpha=0.6)
    ax.legend()
    return fig
# --8<-- [end:figure_spread]


# --8<-- [start:figure_sharpness]
def figure_sharpness(narrow=False):
    """d_k = 64 의 한 쿼리: 나누기 전과 후의 어텐션 가중치 (좁은 판은 위아래로)."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    row = raw[0]
    rows, cols = (2, 1) if narrow else (1, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 6.0 if narrow else 3.2), sharey=True,
                             layout="constrained")
    for ax, s, title, color in [(axes[0], row, "나누지 않음", t["accent2"]),
                                (axes[1], row / np.sqrt(d_k), "÷ √d_k", t["accent"])]:
        p = softmax(s)
        ax.bar(range(1, n_keys + 1), p, color=color)
        ax.set_title(f"{title}: 가장 큰 가중치 {p.max():.2f}")
        ax.set_xlabel("키 번호")
        ax.set_xticks(range(1, n_keys + 1))
        ax.set_ylim(0, 1.05)
        ax.spines[["top", "right"]].set_visible(False)
    for ax in axes[:: 1 if narrow else 2]:
        ax.set_ylabel("어텐션 가중치")
    return fig
# --8<-- [end:figure_sharpness]
