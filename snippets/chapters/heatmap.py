"""4장 어텐션 가중치 히트맵: 학습하지 않은 무작위 파라미터로 그린 히트맵이 보여 주는 것과 보여 주지 못하는 것."""

# --8<-- [start:random_weights]
import numpy as np

from attention import (
    scaled_dot_product_attention, softmax)
from toy_data import (cat_sat_example,
                      projection_weights,
                      token_vectors)

np.set_printoptions(precision=2,
                    suppress=True)

# 3장의 탐색기, 6장, 실습 파트 2·3 과 같은
# 예제입니다: 학습하지 않은 무작위 토큰
# 벡터와 투영 행렬.
tokens, X, params = cat_sat_example(
    d_model=64)
# 헤드 하나: W_Q, W_K, W_V 가 모두 (64, 64)
d_model = d_k = 64
W_Q, W_K, W_V = (params["W_Q"], params["W_K"],
                 params["W_V"])
_, weights = scaled_dot_product_attention(
    X @ W_Q, X @ W_K, X @ W_V)
print("가중치 모양:", weights.shape)
print("행의 합:", weights.sum(axis=-1))
print(weights)
# --8<-- [end:random_weights]

# --8<-- [start:read_row]
cat = tokens.index("cat")
sat = tokens.index("sat")
# 'cat' 행: cat 이 각 토큰을 보는 정도
print("'cat' 행")
for tok, w in zip(tokens, weights[cat]):
    print(f"  {tok:4s} {w:.2f}")
print("cat → sat:", round(weights[cat, sat], 3))
print("sat → cat:", round(weights[sat, cat], 3))
# --8<-- [end:read_row]

# --8<-- [start:scaling_effect]
scores = (X @ W_Q) @ (X @ W_K).T
# √d_k 로 나누지 않으면
unscaled = softmax(scores, axis=-1)
print("행마다 가장 큰 가중치, ÷√d_k")
print(weights.max(axis=-1))
print("나누지 않으면")
print(unscaled.max(axis=-1))
# --8<-- [end:scaling_effect]

# --8<-- [start:seeds]
# 시드만 바꿔 200번 다시 만들어 봅니다.
# 'cat' 이 가장 많이 보는 토큰은 매번 달라집니다.
top_counts = dict.fromkeys(tokens, 0)
for seed in range(200):
    X_s = token_vectors(tokens, d_model,
                        seed=1000 + seed)
    Wq, Wk, Wv = projection_weights(
        d_model, d_k, seed=2000 + seed)
    _, w = scaled_dot_product_attention(
        X_s @ Wq, X_s @ Wk, X_s @ Wv)
    top_counts[tokens[int(np.argmax(w[cat]))]] += 1
print("'cat' 행의 1등 (200번 가운데)")
for tok, count in top_counts.items():
    print(f"  {tok:4s} {count:3d}번")
print("'sat' 이 1등인 비율:", top_counts["sat"] / 200)
print("여섯 토큰 중 하나를 고르면 1/6 ≈ 0.167")
# --8<-- [end:seeds]


# --8<-- [start:quiz_1]
# 'mat' 과 똑같은 키와 밸류를 하나 더 붙입니다. 쿼리는 그대로 여섯 개입니다.
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
mat = tokens.index("mat")
_, w_twice = scaled_dot_product_attention(Q, np.vstack([K, K[mat]]), np.vstack([V, V[mat]]))
# 넷째 자리까지: 셋째 자리로 반올림하면 0.290 + 0.290 = 0.579 처럼 덧셈이 틀려 보입니다.
print(f"'cat' 행의 mat: 하나일 때 {weights[cat, mat]:.4f}")
print(f"  둘일 때 {w_twice[cat, mat]:.4f} + {w_twice[cat, -1]:.4f} = {w_twice[cat, mat] + w_twice[cat, -1]:.4f}")
print("모든 행에서 두 mat 칸이 같은가?", np.allclose(w_twice[:, mat], w_twice[:, -1]))
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 위치 정보 없이, 'the' 자리에 'The' 와 똑같은 벡터를 넣어 봅니다.
X_same = X.copy()
X_same[4] = X[0]
_, w_same = scaled_dot_product_attention(X_same @ W_Q, X_same @ W_K, X_same @ W_V)
print("두 토큰의 행이 같은가?", np.allclose(w_same[0], w_same[4]))
print("두 토큰의 열이 같은가?", np.allclose(w_same[:, 0], w_same[:, 4]))
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# 출력 = Σ_j 가중치_j × V_j. 토큰 j 가 보태는 벡터의 길이는 가중치_j × |V_j| 입니다.
V = X @ W_V
row = tokens.index("The")
contribution = weights[row] * np.linalg.norm(V, axis=-1)
print("'The' 행: 토큰, 가중치, 보태는 길이")
for tok, w, c in zip(tokens, weights[row], contribution):
    print(f"  {tok:4s} {w:5.2f} {c:5.2f}")
print("가중치 1등:", tokens[int(weights[row].argmax())], " 길이 1등:", tokens[int(contribution.argmax())])
# --8<-- [end:quiz_3]

# --8<-- [start:explorer_data]
def data_explorer():
    """브라우저 탐색기가 쓰는 데이터: 위 히트맵과 같은 나누기 전 점수 (d_k = 64, 3장의 탐색기와 같음)."""
    return {"title": "위 히트맵을 직접 만져 보세요 (무작위 파라미터, d_k = 64)", "tokens": tokens, "d_k": d_k,
            "scores": np.round(scores, 6).tolist()}
# --8<-- [end:explorer_data]


# --8<-- [start:figure]
def figure_random(narrow=False):
    """무작위 파라미터로 계산한 히트맵: √d_k 로 나눈 것과 나누지 않은 것 (좁은 판은 위아래로)."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, width

    rows, cols = (2, 1) if narrow else (1, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 9.4 if narrow else 4.0), layout="constrained")
    heatmap(axes[0], weights, tokens, tokens, title="무작위 파라미터, ÷ √d_k")
    im = heatmap(axes[1], unscaled, tokens, tokens, title="무작위 파라미터, 나누지 않음")
    fig.colorbar(im, ax=axes, shrink=0.8, label="어텐션 가중치", location="bottom" if narrow else "right")
    return fig


# 학습된 모델의 헤드 넷 (실제 모델 장과 같은 헤드와 문장). 제목 둘째 줄의 숫자가 무엇의 평균인지 제목이 직접 말합니다:
# 세 헤드는 그 습관의 자리에 준 가중치, 넓게 보는 헤드는 엔트로피. 평균은 영어 문장 24개에서 냅니다 (english_heads.analysis).
TRAINED_MEASURES = {
    "이전 토큰": "앞 토큰에 주는 몫",
    "다음 토큰": "뒤 토큰에 주는 몫",
    "[CLS]": "[CLS]에 주는 몫",
    "넓게 보기": "엔트로피",
}


def trained_title(head_name, pattern, value):
    """판의 제목: "1-3: 이전 토큰" 과, 그 습관을 나타내는 값의 24문장 평균."""
    return f"{head_name}: {pattern}\n{TRAINED_MEASURES[pattern]} {value:.2f}"


def figure_trained(narrow=False):
    """all-MiniLM-L6-v2 의 헤드 네 개가 "The cat sat on the mat." 을 보는 모습.

    실제 모델 장과 같은 그림(english_heads.draw_showcase: 같은 헤드, 같은 값)을 그리고, 제목만 이 장의 독자에게 맞게 바꿉니다.
    """
    from english_heads import analysis, draw_showcase, name, showcase

    tokens, maps, stats = analysis()
    fig = draw_showcase(tokens, maps, stats, narrow)
    for ax, (pattern, (layer, head)) in zip(fig.axes, showcase(stats)):
        value = stats["엔트로피" if pattern == "넓게 보기" else pattern][layer, head]
        ax.set_title(trained_title(name(layer, head), pattern, value))
    return fig
# --8<-- [end:figure]


# --8<-- [start:quiz_4]
# 가장 밝은 칸을 "고르게 나눌 때의 한 칸(1/n)" 과 견줍니다.
brightest_cells = [(len(tokens), weights[cat].max()), (60, 0.2)]
for n, brightest in brightest_cells:
    print(f"토큰 {n:2d}개: 고른 몫 {1 / n:.3f}, 가장 밝은 칸 {brightest:.2f} → {brightest * n:.1f}배")
# --8<-- [end:quiz_4]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_4():
    """문제 4: 토큰 60개 문장의 가장 밝은 칸 0.2 가 고르게 나눌 때의 몫의 몇 배인지."""
    from predict import number, wrong

    (n_cat, b_cat), (n_long, b_long) = brightest_cells
    values = {"n_cat": str(n_cat), "share_cat": f"{1 / n_cat:.3f}", "bright_cat": f"{b_cat:.2f}",
              "ratio_cat": f"{b_cat * n_cat:.1f}", "n_long": str(n_long), "share_long": f"{1 / n_long:.3f}",
              "bright_long": f"{b_long:g}", "ratio_long": f"{b_long * n_long:.1f}"}
    return number(
        label="토큰 {n_long}개, 가장 밝은 칸 {bright_long}: 고르게 나눈 몫의 몇 배",
        unit="배",
        answer=b_long * n_long,
        tolerance=0.5,
        right="토큰이 {n_long}개면 한 칸의 고른 몫이 {share_long}이라, 가장 밝은 칸 {bright_long}의 배수는 {ratio_long}입니다. "
        "cat 행의 {bright_cat}은 {ratio_cat}배이니, 더 많이 모은 쪽은 오히려 긴 문장의 헤드입니다.",
        wrong=[
            wrong(b_long * n_cat, 0.1, "고른 몫을 cat 행처럼 토큰 {n_cat}개의 {share_cat}로 잡았나요? 토큰이 "
                  "{n_long}개면 한 칸의 고른 몫은 {share_long}입니다."),
            wrong(b_long / b_cat, 0.03, "가장 밝은 칸끼리({bright_long}, {bright_cat}) 견줬나요? 히트맵의 색은 토큰 수와 "
                  "상관없이 같은 눈금이라 밝기끼리 견주면 속습니다. 견줄 것은 고른 몫 {share_long}입니다."),
            wrong(b_cat * n_cat, 0.1, "그것은 cat 행의 배수({ratio_cat}배)입니다. 토큰 {n_long}개 문장에서는 "
                  "고른 몫이 {share_long}밖에 되지 않습니다."),
        ],
        other="토큰이 n개면 고르게 나눌 때 한 칸은 n분의 일입니다. 가장 밝은 칸을 그 몫으로 나눠 보세요.",
        values=values,
    )
