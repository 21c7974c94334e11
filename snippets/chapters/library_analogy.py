"""1장 도서관 비유: 쿼리·키·밸류, 그리고 같은 입력에서 나오는 세 개의 선형 투영."""

# --8<-- [start:library]
import numpy as np

from attention import softmax

np.set_printoptions(precision=3, suppress=True)

# 책장 라벨(키)과 책 내용(밸류)을
# 작은 벡터로 적어 봅니다.
books = ["파이썬 입문서",
         "파이썬 심화서",
         "요리 입문서"]
# 라벨의 세 칸: "파이썬", "입문", "요리"에
# 해당하면 1, 아니면 0
keys = np.array([[1.0, 1.0, 0.0],
                 [1.0, 0.0, 0.0],
                 [0.0, 1.0, 1.0]])
# 밸류의 두 칸: 쉬운 정도, 코드 비중
values = np.array([[0.9, 0.8],
                   [0.2, 0.9],
                   [0.8, 0.0]])
# 내가 찾는 것: "파이썬" 이면서 "입문"
query = np.array([1.0, 1.0, 0.0])

# 라벨마다 내 요청과 얼마나 겹치는지 (내적)
scores = keys @ query
print("라벨과의 점수:", scores)
# --8<-- [end:library]

# --8<-- [start:hard_vs_soft]
# 한 권만 고르기(argmax): 점수가 가장
# 높은 책 한 권의 내용만 가져옵니다.
best = int(np.argmax(scores))
print("한 권만 고르기 →", books[best])
print("  가져온 내용", values[best])

# 어텐션 방식: 모든 책을 점수에 따라
# 조금씩 섞어서 가져옵니다.
weights = softmax(scores)
for book, w in zip(books, weights):
    print(f"  {book}: 가중치 {w:.3f}")
print("어텐션 방식 → 섞인 내용",
      weights @ values)
print("가중치 합:", weights.sum())
# --8<-- [end:hard_vs_soft]

# --8<-- [start:qkv]
from toy_data import (projection_weights,
                      token_vectors)

tokens = ["나는", "학교에", "간다"]
d_model, d_k = 8, 4
# 토큰마다 8차원 벡터 → (3, 8)
X = token_vectors(tokens, d_model)
# 각각 (8, 4)
W_Q, W_K, W_V = projection_weights(
    d_model, d_k)

# 같은 X 를 세 가지 다른 행렬로 비춥니다
Q = X @ W_Q
K = X @ W_K
V = X @ W_V
print("X:", X.shape, " W_Q:", W_Q.shape)
print("Q:", Q.shape, " K:", K.shape,
      " V:", V.shape)
# --8<-- [end:qkv]

# --8<-- [start:same_input]
# 셀프 어텐션에서는 Q, K, V 가 모두
# 같은 X 에서 나오지만, 곱한 행렬이 달라
# 서로 다른 벡터가 됩니다.
print("Q 와 K 가 같은가?", np.allclose(Q, K))
print("K 와 V 가 같은가?", np.allclose(K, V))
# '나는'(첫 행)의 쿼리와 키
print("Q[0] =", Q[0])
print("K[0] =", K[0])
# --8<-- [end:same_input]


# --8<-- [start:figure]
def figure_lookup(narrow=False):
    """한 권만 고르기(argmax)와 어텐션(모두 조금씩)을 막대로 비교합니다 (좁은 판은 위아래로)."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    hard = np.eye(len(books))[best]
    rows, cols = (2, 1) if narrow else (1, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 6.4 if narrow else 3.3), sharey=True,
                             layout="constrained")
    for ax, w, title, color in [(axes[0], hard, "한 권만 고르기 (argmax)", t["muted"]),
                                (axes[1], weights, "어텐션: 점수만큼 섞기", t["accent"])]:
        bars = ax.bar(books, w, color=color)
        ax.bar_label(bars, labels=[f"{x:.2f}" for x in w], padding=2)
        ax.set_title(title)
        ax.set_ylim(0, 1.15)
        ax.set_xlabel("책 (키)")
        ax.tick_params(axis="x", labelrotation=20 if narrow else 0)
        ax.spines[["top", "right"]].set_visible(False)
    for ax in axes[:: 1 if narrow else 2]:
        ax.set_ylabel("가져오는 비율 (가중치)")
    return fig
# --8<-- [end:figure]


# --8<-- [start:quiz_1]
# 토큰 5개, d_model = 16
X5 = token_vectors(["오늘", "나는", "도서관에서", "책을", "빌렸다"], 16)
# W_Q, W_K, W_V: 각각 (16, 8)
W5 = projection_weights(16, 8)
print("X:", X5.shape)
print("Q, K, V:", [(X5 @ W).shape for W in W5])
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 밸류(책 내용)만 바꿔 봅니다. 가중치는 키와 쿼리만으로 정해지므로 그대로이고, 섞여 나오는 내용만 바뀝니다.
new_values = values + 1.0
weights_v = softmax(keys @ query)
print("밸류를 바꾼 뒤 가중치:", weights_v)
print("가중치가 그대로인가?", np.allclose(weights_v, weights))
print("섞인 내용 (전):", weights @ values)
print("섞인 내용 (후):", weights_v @ new_values)
# 키(라벨)를 바꾸면 가중치가 바뀝니다: 요리 입문서에 "파이썬" 라벨을 더 붙여 봅니다.
new_keys = keys.copy()
new_keys[2, 0] = 1.0
weights_k = softmax(new_keys @ query)
print("키를 바꾼 뒤 가중치:", weights_k)
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# "입문" 이면서 "요리", 그리고 같은 요청을 10배로 크게
query_cooking = np.array([0.0, 1.0, 1.0])
scores_cooking = keys @ query_cooking
weights_cooking = softmax(scores_cooking)
scores_loud = keys @ (10 * query_cooking)
weights_loud = softmax(scores_loud)
print("점수:", scores_cooking, "→ ×10:", scores_loud)
print("한 권만 고르기:", books[int(np.argmax(scores_cooking))],
      "→", books[int(np.argmax(scores_loud))])
print("가중치:", " ".join(f"{w:.3f}" for w in weights_cooking))
print("×10  :", " ".join(f"{w:.5f}" for w in weights_loud))
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# 어떤 라벨과도 겹치지 않는 요청
query_empty = np.zeros(3)
scores_empty = keys @ query_empty
weights_empty = softmax(scores_empty)
print(f"책 {len(books)}권의 점수:", scores_empty)
print("가중치:", weights_empty)
print("섞인 내용:", weights_empty @ values)
print("밸류의 평균:", values.mean(axis=0))
# --8<-- [end:quiz_4]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_3():
    """문제 3: 요청을 10배로 키우면 한 권만 고르기와 어텐션 가중치가 바뀌는지 (온도를 낮춘 것과 같은 일)."""
    from predict import choice, option

    w, loud = weights_cooking, weights_loud
    top = int(np.argmax(w))
    assert top == int(np.argmax(loud)) == books.index("요리 입문서") and loud[top] > w[top]
    values = {"w_cook": f"{w[top]:.3f}", "loud_cook": f"{loud[top]:.5f}", "book": books[top]}
    return choice(
        legend="요청을 열 배로 키우면",
        options=[
            option("둘 다 그대로입니다", "한 권만 고르기는 그대로지만, 가중치는 바뀝니다. 점수가 모두 열 배가 되면 점수 "
                   "사이의 간격도 열 배가 되고, 소프트맥스는 그 간격에 반응해 {book}의 몫이 {w_cook}에서 {loud_cook}로 "
                   "커집니다."),
            option("고르는 책은 그대로이고, 가중치는 그 책에 더 몰립니다", "맞습니다. 모든 점수에 같은 양수를 곱하면 "
                   "순서는 그대로라 {book}를 고르고, 간격이 벌어져 가중치는 {w_cook}에서 {loud_cook}로 몰립니다. "
                   "점수를 키우는 것은 소프트맥스를 날카롭게 하는 일입니다.", right=True),
            option("고르는 책은 그대로이고, 가중치는 더 고르게 퍼집니다", "방향이 반대입니다. 점수를 키우면 간격이 벌어져 "
                   "가장 큰 몫이 커집니다({w_cook} → {loud_cook}). 고르게 퍼지는 것은 점수를 줄일 때입니다."),
            option("다른 책을 고르게 됩니다", "모든 점수에 같은 양수를 곱하면 순서는 바뀌지 않습니다. 여전히 {book}를 "
                   "고르고, 가중치만 {loud_cook}로 그 책에 몰립니다."),
        ],
        values=values,
    )


def data_quiz_4():
    """문제 4: 요청 [0, 0, 0] 에서 책 한 권이 받는 가중치."""
    from predict import number, wrong

    assert np.allclose(weights_empty, weights_empty[0])
    values = {"n": str(len(books)), "score": f"{scores_empty[0]:g}", "weight": f"{weights_empty[0]:.3f}"}
    return number(
        label="책 한 권의 어텐션 가중치",
        answer=float(weights_empty[0]),
        tolerance=0.005,
        right="점수가 모두 {score}으로 같아서 {n}권이 {weight}씩 똑같이 나눠 받습니다. "
        "섞인 내용은 밸류의 평균이 됩니다.",
        wrong=[
            wrong(0.0, 0.005, "점수가 {score}이면 가중치도 {score}이라고 봤나요? 소프트맥스는 점수를 지수로 바꾼 뒤 "
                  "합으로 나누므로, 점수가 {score}인 책도 몫을 받습니다. 점수가 모두 같으면 몫도 모두 같습니다."),
            wrong(1.0, 0.005, "한 권이 가중치를 모두 받는다고 봤나요? 그것은 한 권만 고르기(argmax)입니다. "
                  "어텐션은 점수만큼 나눠 주고, 점수가 모두 {score}으로 같으니 {n}권이 똑같이 나눕니다."),
        ],
        other="가중치를 모두 더하면 얼마인지, 그리고 {n}권의 점수가 모두 같을 때 몫이 어떻게 "
        "나뉠지 생각해 보세요.",
        values=values,
    )
