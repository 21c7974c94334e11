"""2장 어텐션 계산 4단계: 내적 → 스케일링 → 소프트맥스 → 가중합.

docs/four_steps.md 가 절(section)마다 이 파일을 보여 주고, tests/test_four_steps.py 가
페이지가 말하는 내용을 숫자로 확인합니다.
"""

# --8<-- [start:setup]
import numpy as np

from attention import (
    scaled_dot_product_attention, softmax)
from toy_data import toy_qkv

np.set_printoptions(precision=3,
                    suppress=True)

# "나는 학교에 간다": 토큰 3개, d_k = 4
tokens, X, Q, K, V = toy_qkv()
d_k = K.shape[-1]
print("토큰:", tokens)
print("Q:", Q.shape, " K:", K.shape,
      " V:", V.shape)
# --8<-- [end:setup]

# --8<-- [start:step1_scores]
# (3, 4) @ (4, 3) → (3, 3):
# 모든 쿼리와 모든 키의 내적
scores = Q @ K.T
print("① scores = Q @ K.T")
print("모양:", scores.shape)
print(scores)
# --8<-- [end:step1_scores]

# --8<-- [start:qk_picture]
# 2차원 쿼리 하나와 키 셋 (d_k = 2): 그림의 처음 위치
# k₁ 은 q 와 거의 같은 쪽으로 더 길고, k₂ 는 비스듬하고, k₃ 은 반대쪽
# (k₁ 을 q 와 20° 쯤 벌려 두어 처음 화면에서 두 화살표가 겹쳐 보이지 않게 합니다)
q2 = np.array([[1.0, 0.5]])
K2 = np.array([[1.6, 0.2],
               [0.4, 1.2],
               [-1.0, -0.3]])
print("q·k:   ", (q2 @ K2.T)[0])
print("÷√d_k: ", (q2 @ K2.T / np.sqrt(2))[0])
# 밸류는 무엇이든 가중치는 같습니다
_, w2 = scaled_dot_product_attention(q2, K2, K2)
print("가중치:", w2[0])
# --8<-- [end:qk_picture]


def data_qk_picture():
    """2장 ① 의 움직이는 q·k 그림(docs/assets/qk-picture.js)이 처음 그리는 것: 위의 q2, K2, d_k, 그리고 그림의 글."""
    d = q2.shape[-1]
    return {
        "d_k": d,
        "q": q2[0].tolist(),
        "keys": K2.tolist(),
        "names": [f"k{'₁₂₃'[i]}" for i in range(len(K2))],
        "limit": 2.0,
        "step": 0.1,
        "title": "q·k를 직접 움직여 보기",
        "hint": "쿼리 q와 키의 끝점(동그라미)을 끌어 보세요. 끝점을 누르거나 Tab으로 고른 뒤 화살표 키로도 "
        "움직입니다(Shift를 함께 누르면 다섯 칸씩).",
        "plane_label": "쿼리 q와 키 세 개를 그린 2차원 평면",
        "columns": ["키", "q·k", "÷√d_k", "가중치", "안 나누면"],
        "note": f"여기서 d_k = {d}는 쿼리와 키 벡터의 칸 수이고, √d_k ≈ {np.sqrt(d):.2f}입니다. "
        "키가 q와 같은 쪽을 가리키고 길수록 점수가 크고, 가중치도 그 키에 몰립니다. "
        "마지막 열은 √d_k로 나누지 않았을 때의 가중치입니다.",
    }


# --8<-- [start:matmul_vs_mul]
# numpy 의 * 는 같은 자리끼리 곱하는
# 원소별 곱입니다. 행렬 곱은 @ 입니다.
try:
    # (3, 4) * (4, 3): 모양이 맞지 않습니다
    Q * K.T
except ValueError as err:
    print("Q * K.T →", type(err).__name__ + ":", err)

# 모양은 맞지만 i 번째 쿼리와
# i 번째 키만 짝짓습니다
elementwise = (Q * K).sum(axis=-1)
print("(Q * K).sum(-1) 모양:", elementwise.shape)
print(elementwise)
print("scores 의 대각선:")
print(np.diag(scores))
print("대각선과 같은가?",
      np.allclose(elementwise, np.diag(scores)))
# --8<-- [end:matmul_vs_mul]

# --8<-- [start:step2_scale]
# d_k = 4 이므로 모든 점수를 2로 나눕니다
scaled = scores / np.sqrt(d_k)
print("② scaled = scores / √d_k")
print("√d_k =", np.sqrt(d_k), " 모양:", scaled.shape)
print(scaled)
# --8<-- [end:step2_scale]

# --8<-- [start:dtype_pitfall]
# np.sqrt(4) 는 float64 입니다. float32 점수를
# 나누면 결과가 조용히 float64 로 바뀝니다.
scores32 = scores.astype(np.float32)
root64 = np.sqrt(d_k)
root32 = np.sqrt(np.float32(d_k))
print("scores32 / root64:", (scores32 / root64).dtype)
print("scores32 / root32:", (scores32 / root32).dtype)
# --8<-- [end:dtype_pitfall]

# --8<-- [start:step3_softmax]
# 마지막 축 = 키 축:
# 한 쿼리(행)의 점수들을 확률로
weights = softmax(scaled, axis=-1)
print("③ weights = softmax(scaled, axis=-1)")
print("모양:", weights.shape)
print(weights)
print("행의 합:", weights.sum(axis=-1))
# --8<-- [end:step3_softmax]

# --8<-- [start:wrong_axis]
# 축을 잘못 고르면 열(키)마다 합이 1이 됩니다
wrong = softmax(scaled, axis=0)
print("axis=0 으로 하면")
print("  행의 합:", wrong.sum(axis=-1))
print("  열의 합:", wrong.sum(axis=0))
# --8<-- [end:wrong_axis]

# --8<-- [start:step4_weighted_sum]
# (3, 3) @ (3, 4) → (3, 4):
# 토큰마다 밸류의 가중합 하나
output = weights @ V
print("④ output = weights @ V")
print("모양:", output.shape)
print(output)
# 첫 토큰의 출력은 세 밸류 벡터를
# 가중치만큼 섞은 것입니다
mix = (weights[0, 0] * V[0]
       + weights[0, 1] * V[1]
       + weights[0, 2] * V[2])
print("output[0] 이 V 행들의 가중합인가?",
      np.allclose(output[0], mix))
# --8<-- [end:step4_weighted_sum]

# --8<-- [start:one_line]
out_core, w_core = (
    scaled_dot_product_attention(Q, K, V))
print("코어 함수와 4단계 결과가 같은가?",
      np.allclose(out_core, output),
      np.allclose(w_core, weights))
# --8<-- [end:one_line]


# --8<-- [start:quiz_1]
rng = np.random.default_rng(0)
Q5, K7, V7 = rng.standard_normal((5, 4)), rng.standard_normal((7, 4)), rng.standard_normal((7, 6))
out5, w5 = scaled_dot_product_attention(Q5, K7, V7)
print("점수:", (Q5 @ K7.T).shape)
print("가중치:", w5.shape)
print("출력:", out5.shape)
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# (3, 3) 두 개: 모양이 정사각형이라 * 도 오류 없이 돌아갑니다
Qs, Ks = Q[:, :3], K[:, :3]
print("Qs * Ks.T 와 Qs @ Ks.T 가 같은가?",
      np.allclose(Qs * Ks.T, Qs @ Ks.T))
print(f"(Qs * Ks.T)[0, 1] = {(Qs * Ks.T)[0, 1]:.3f}")
print(f"  = Qs[0, 1] × Ks[1, 0] = {Qs[0, 1] * Ks[1, 0]:.3f}")
print(f"(Qs @ Ks.T)[0, 1] = {(Qs @ Ks.T)[0, 1]:.3f}")
print(f"  = Qs[0] · Ks[1] = {np.dot(Qs[0], Ks[1]):.3f}")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
print("행의 합:", weights.sum(axis=-1))
print("열의 합:", weights.sum(axis=0))
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# 원래대로 √d_k 로, 그리고 √d_k 대신 d_k 로
by_sqrt = softmax(scores / np.sqrt(d_k))
by_dk = softmax(scores / d_k)
print(f"√d_k = {np.sqrt(d_k):g}, d_k = {d_k}")
print("첫 행의 가중치")
print("  ÷√d_k:", by_sqrt[0])
print("  ÷d_k: ", by_dk[0])
print(f"  고르게 나누면: {1 / 3:.3f}")
# --8<-- [end:quiz_4]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_4():
    """문제 4: √d_k 대신 d_k 로 나누면 첫 행의 가중치가 어떻게 바뀌는지 고르기."""
    from predict import choice, option

    # 보기의 말이 기대는 사실: 더 고르게 퍼지고(가장 큰 값이 줄고), 순위는 그대로입니다
    assert by_dk[0].max() < by_sqrt[0].max() and np.array_equal(np.argsort(by_dk[0]), np.argsort(by_sqrt[0]))
    values = {"root": f"{np.sqrt(d_k):g}", "dk": str(d_k), "top_sqrt": f"{by_sqrt[0].max():.3f}",
              "top_dk": f"{by_dk[0].max():.3f}", "uniform": f"{1 / 3:.3f}"}
    return choice(
        legend="√d_k 대신 d_k로 나누면 첫 행의 가중치는",
        options=[
            option("더 고르게 퍼집니다", "√d_k = {root} 대신 d_k = {dk}로 나누면 점수가 더 작아져 점수 사이의 차이도 "
                   "줄어듭니다. 가장 큰 가중치가 {top_sqrt}에서 {top_dk}로 내려가, 고르게 나눈 몫 {uniform}에 "
                   "다가갑니다.", right=True),
            option("한 토큰에 더 몰립니다", "더 큰 수로 나누면 점수가 작아지고, 점수의 차이가 작을수록 소프트맥스는 "
                   "고르게 나눕니다. 가장 큰 가중치는 {top_sqrt}에서 {top_dk}로 오히려 내려갑니다. 한 토큰에 "
                   "몰리는 쪽은 덜 나눌 때입니다."),
            option("그대로입니다", "나누는 수가 바뀌면 점수 사이의 차이가 바뀌고, 소프트맥스는 그 차이에 반응합니다. "
                   "가장 큰 가중치가 {top_sqrt}에서 {top_dk}로 바뀝니다. 그대로인 것은 토큰의 순위뿐입니다."),
        ],
        values=values,
    )

# --8<-- [start:figure]
def figure_pipeline(narrow=False):
    """네 단계의 행렬을 2×2 로: 모양이 어떻게 바뀌는지 한눈에 봅니다 (narrow=True 는 휴대전화용 판)."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, width

    # 좁은 판은 네 칸을 위아래로: 한 줄에 둘이면 ④의 숫자 네 개가 붙어 "0.08-0.23" 처럼 읽힙니다.
    rows, cols = (4, 1) if narrow else (2, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 11.6 if narrow else 6.2), layout="constrained")
    panels = [
        (scores, f"① $QK^T$  ({scores.shape[0]}×{scores.shape[1]})", tokens),
        (scaled, f"② $\\div\\sqrt{{d_k}}$ = ÷{np.sqrt(d_k):g}", tokens),
        (weights, "③ 소프트맥스 (행 합 = 1)", tokens),
        (output, f"④ 가중치 @ V  ({output.shape[0]}×{output.shape[1]})",
         [f"특성{j}" for j in range(output.shape[1])]),
    ]
    for ax, (m, title, cols) in zip(axes.flat, panels):
        if m is weights:
            heatmap(ax, m, tokens, cols, title=title, xlabel="키", ylabel="쿼리")
            continue
        # ①과 ②는 같은 색 범위로 그려야 나눗셈으로 값이 작아진 것(색이 옅어진 것)이 보입니다.
        lim = np.abs(output if m is output else scores).max()
        ax.imshow(m, cmap="RdBu_r", vmin=-lim, vmax=lim)
        ax.set_xticks(range(len(cols)), labels=cols, rotation=45, ha="right")
        ax.set_yticks(range(len(tokens)), labels=tokens)
        ax.set_title(title)
        ax.set_xlabel("키" if m is not output else "출력 특성")
        ax.set_ylabel("쿼리")
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=plt.rcParams["xtick.labelsize"],
                        color="white" if abs(m[i, j]) > 0.6 * lim else "black")
    return fig
# --8<-- [end:figure]
