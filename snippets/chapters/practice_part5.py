"""실습 파트 5: 어텐션 한 번의 역전파를 직접 짜고, 유한 차분으로 스스로 검사합니다.

본문 "헤드는 어떻게 역할을 배우나"(head_roles.py)의 모델이 쓰는 역전파(tiny_transformer.attention_backward)와 같은
생각을 헤드 하나, 문장 하나로 줄여 씁니다. 노트북은 저장소 밖에서도 돌아가야 하므로 절 안에서는 저장소의 모듈을
import 하지 않습니다 (numpy 만). 여기 함수들이 코어·본문의 역전파와 같은 답을 낸다는 것, 연습 셀이 처음에는 틀리고
풀이가 맞는다는 것은 tests/test_notebooks.py 가 확인합니다. 확인 함수는 practice_checks.py 의 check_with 를 씁니다.
"""

from practice_checks import check_with  # 노트북에는 이 절(확인 함수의 틀)이 직접 들어갑니다

# --8<-- [start:forward]
import numpy as np


def plain_softmax(S):
    """행마다 소프트맥스: 최댓값을 빼고, 지수를 취하고, 합으로 나눕니다."""
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def attention_forward(Q, K, V):
    """네 단계의 순전파. 역전파가 다시 쓸 값(P)도 함께 돌려줍니다."""
    # ① 내적, ② √d_k 로 나누기
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    # ③ 소프트맥스
    P = plain_softmax(S)
    # ④ 가중합
    O = P @ V
    return O, P


rng = np.random.default_rng(0)
Q, K, V = rng.standard_normal((4, 8)), rng.standard_normal((5, 8)), rng.standard_normal((5, 3))
# 출력에 곱할 무작위 행렬. 손실이 L = Σ O ⊙ G 이면 ∂L/∂O = G 입니다.
G = rng.standard_normal((4, 3))


def loss():
    return np.sum(attention_forward(Q, K, V)[0] * G)


print("출력 O:", attention_forward(Q, K, V)[0].shape, f" 손실 L = {loss():.6f}")
# --8<-- [end:forward]

# --8<-- [start:numeric]
def numeric_grad(f, x, h=1e-6):
    """x 의 칸마다 조금 올리고 내려 f 가 바뀐 만큼을 잽니다 (중앙 차분). x 를 잠깐 바꿨다가 되돌립니다."""
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + h
        up = f()
        x[idx] = old - h
        down = f()
        x[idx] = old
        grad[idx] = (up - down) / (2 * h)
    return grad


dV_numeric = numeric_grad(loss, V)
O, P = attention_forward(Q, K, V)
# ④를 거꾸로: O = P @ V 이면 ∂L/∂V = Pᵀ @ ∂L/∂O
dV = P.T @ G
print("dV: 식으로", dV[0].round(4), " 차분으로", dV_numeric[0].round(4))
print(f"가장 큰 차이 {np.abs(dV - dV_numeric).max():.1e}")
# --8<-- [end:numeric]

# --8<-- [start:check]
def numeric_backward(dO, Q, K, V, P):
    """중앙 차분으로 잰 (dQ, dK, dV): 손실 L = Σ O ⊙ dO 에서 Q, K, V 의 칸을 하나씩 조금 움직여 봅니다."""
    Q, K, V = Q.copy(), K.copy(), V.copy()

    def loss_here():
        return np.sum(attention_forward(Q, K, V)[0] * dO)

    return tuple(numeric_grad(loss_here, x) for x in (Q, K, V))


def numeric_softmax_backward(dP, P):
    """중앙 차분으로 잰 dS. softmax(log P) = P 이고, log P 는 S 와 행마다 상수만큼만 달라 기울기도 같습니다."""
    S = np.log(P)
    return numeric_grad(lambda: np.sum(plain_softmax(S) * dP), S)


def check_softmax_backward(fn):
    """fn(dP, P) → dS 를 세 가지 모양에서 중앙 차분과 견줍니다 (연습 1)."""
    r = np.random.default_rng(5)
    cases = []
    for shape in ((4, 5), (1, 3), (3, 3)):
        P = plain_softmax(2 * r.standard_normal(shape))
        cases.append((f"모양 {shape}", (r.standard_normal(shape), P)))
    mistakes = [
        (lambda dP, P: P * dP,
         "식의 − P_j 부분을 빠뜨렸습니다. S_j 가 움직이면 그 행의 모든 P_i 가 움직이므로, "
         "행마다 Σ_i dP_i P_i 를 뺍니다."),
        (lambda dP, P: P * (dP - (dP * P).sum(axis=0, keepdims=True)),
         "Σ_i dP_i P_i 를 열마다 더했습니다(axis=0). 소프트맥스는 행마다이므로 axis=-1 입니다."),
        (lambda dP, P: P * (dP - (dP * P).sum(axis=-1)),
         "합을 keepdims=True 없이 구해, 행마다의 합이 행이 아니라 열을 따라 빠졌습니다."),
        (lambda dP, P: P * (dP - (dP * P).sum()),
         "배열 전체를 더했습니다. 행마다 더합니다: sum(axis=-1, keepdims=True)."),
        (lambda dP, P: dP - (dP * P).sum(axis=-1, keepdims=True),
         "앞의 P_j 를 곱하지 않았습니다: dS_j = P_j(dP_j − Σ_i dP_i P_i)."),
    ]
    check_with(fn, numeric_softmax_backward, mistakes, cases, "fn", tolerance=1e-5)


def check(backward):
    """backward(dO, Q, K, V, P) → (dQ, dK, dV) 를 네 가지 모양에서 중앙 차분과 견줍니다 (연습 2).

    틀리면 흔한 실수 가운데 같은 답을 내는 것을 짚고, 아니면 어느 행렬이 다른지 말합니다."""
    if not callable(backward):
        raise TypeError(f"check 에는 함수를 넘겨 주세요 (예: check(attention_backward)): backward={backward!r}")
    cases = []
    for n_q, n_k, d_k, d_v in ((4, 5, 8, 3), (1, 1, 2, 1), (6, 3, 16, 4), (4, 4, 8, 4)):
        r = np.random.default_rng(n_q * 100 + n_k)
        Q_, K_ = r.standard_normal((n_q, d_k)), r.standard_normal((n_k, d_k))
        V_, dO = r.standard_normal((n_k, d_v)), r.standard_normal((n_q, d_v))
        P_ = attention_forward(Q_, K_, V_)[1]
        cases.append((f"쿼리 {n_q}, 키 {n_k}, d_k {d_k}, d_v {d_v}", (dO, Q_, K_, V_, P_)))

    def variant(dP=lambda dO, V: dO @ V.T, dV=lambda P, dO: P.T @ dO, scale=True,
                dS=lambda dP, P: P * (dP - (dP * P).sum(axis=-1, keepdims=True)),
                dK=lambda dS, Q: dS.T @ Q):
        """한 곳만 바꾼 역전파"""
        def wrong(dO, Q, K, V, P):
            dS_ = dS(dP(dO, V), P) / (np.sqrt(Q.shape[-1]) if scale else 1.0)
            return dS_ @ K, dK(dS_, Q), dV(P, dO)
        return wrong

    mistakes = [
        (variant(scale=False),
         "dS 를 √d_k 로 나누지 않았습니다. 점수가 S = Q Kᵀ / √d_k 이므로 Q Kᵀ 로 돌아가기 전에 dS 도 √d_k 로 나눕니다."),
        (variant(dS=lambda dP, P: P * dP),
         "소프트맥스의 역전파에서 행마다 Σ dP ⊙ P 를 빼지 않았습니다 (연습 1)."),
        (variant(dS=lambda dP, P: P * (dP - (dP * P).sum(axis=0, keepdims=True))),
         "소프트맥스의 역전파에서 Σ dP ⊙ P 를 열마다 더했습니다(axis=0). 행마다입니다: axis=-1."),
        (variant(dV=lambda P, dO: P @ dO),
         "dV 는 Pᵀ @ dO 입니다. Y = A B 에서 dB = Aᵀ dY: 왼쪽 행렬을 전치해 앞에 곱합니다."),
        (variant(dP=lambda dO, V: dO @ V),
         "dP 는 dO @ Vᵀ 입니다. Y = A B 에서 dA = dY Bᵀ: 오른쪽 행렬을 전치해 뒤에 곱합니다."),
        (variant(dK=lambda dS, Q: dS @ Q),
         "dK 는 dSᵀ @ Q 입니다. S = Q Kᵀ 에서 Kᵀ 의 기울기가 Qᵀ dS 이고, 그것을 전치한 것이 dK 입니다."),
    ]
    check_with(backward, numeric_backward, mistakes, cases, "backward", parts=("dQ", "dK", "dV"),
               tolerance=1e-5)
# --8<-- [end:check]

# --8<-- [start:exercise_1]
# 연습 1: 소프트맥스의 역전파. P = softmax(S) 의 한 행에서 ∂P_i/∂S_j = P_i(δ_ij − P_j) 입니다.
# 아래 softmax_backward 는 식의 "− P_j" 부분을 빠뜨렸습니다. 고쳐서 "모두 통과" 가 나오게 해 보세요.
def softmax_backward(dP, P):
    return P * dP  # ← 고칠 줄


check_softmax_backward(softmax_backward)
# --8<-- [end:exercise_1]

# --8<-- [start:exercise_2]
# 연습 2: 어텐션 전체의 역전파. ④ → ③ → ② → ① 차례로 거꾸로 밟습니다.
# 아래 함수는 한 곳이 틀렸습니다 (연습 1 의 풀이를 쓴다고 치고). 어디일까요?
def attention_backward(dO, Q, K, V, P):
    # ④ O = P @ V
    dP = dO @ V.T
    dV = P.T @ dO
    # ③ 소프트맥스
    dS = P * (dP - (dP * P).sum(axis=-1, keepdims=True))
    # ① Q Kᵀ
    dQ = dS @ K  # ← 고칠 줄
    dK = dS.T @ Q  # ← 고칠 줄
    return dQ, dK, dV


check(attention_backward)
# --8<-- [end:exercise_2]

# --8<-- [start:solution_1]
# 풀이 1: 행마다 P_j(dP_j − Σ_i dP_i P_i). "Σ_i dP_i P_i" 는 그 행의 가중 평균이고, 행마다 하나씩 빼 줍니다.
def softmax_backward(dP, P):
    return P * (dP - (dP * P).sum(axis=-1, keepdims=True))


check_softmax_backward(softmax_backward)
# --8<-- [end:solution_1]

# --8<-- [start:solution_2]
# 풀이 2: 점수는 S = Q Kᵀ / √d_k 이므로, 내적으로 돌아가기 전에 dS 도 √d_k 로 나눕니다.
def attention_backward(dO, Q, K, V, P):
    # ④ O = P @ V
    dP = dO @ V.T
    dV = P.T @ dO
    # ③ 소프트맥스
    dS = softmax_backward(dP, P)
    # ② S = (Q Kᵀ) / √d_k
    dS = dS / np.sqrt(Q.shape[-1])
    # ① Q Kᵀ
    dQ = dS @ K
    dK = dS.T @ Q
    return dQ, dK, dV


check(attention_backward)
# --8<-- [end:solution_2]
