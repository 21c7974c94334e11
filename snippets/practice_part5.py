"""실습 파트 5: 어텐션 한 번의 역전파를 직접 짜고, 유한 차분으로 스스로 검사합니다.

본문 "헤드는 어떻게 역할을 배우나"(head_roles.py)의 모델이 쓰는 역전파(tiny_transformer.attention_backward)와 같은
생각을 헤드 하나, 문장 하나로 줄여 씁니다. 노트북은 저장소 밖에서도 돌아가야 하므로 절 안에서는 저장소의 모듈을
import 하지 않습니다 (numpy 만). 여기 함수들이 코어·본문의 역전파와 같은 답을 낸다는 것, 연습 셀이 처음에는 틀리고
풀이가 맞는다는 것은 tests/test_notebooks.py 가 확인합니다.
"""

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
def check(backward):
    """backward(dO, Q, K, V, P) → (dQ, dK, dV) 를 여러 모양에서 중앙 차분과 견줍니다.

    돌려준 것이 Q, K, V 와 같은 모양의 배열 세 개가 아니면 ✗ 와 그 모양을 찍습니다."""
    if not callable(backward):
        raise TypeError(f"check 에는 함수를 넘겨 주세요 (예: check(attention_backward)): backward={backward!r}")
    global Q, K, V, G
    saved = Q, K, V, G
    passed = True
    try:
        for n_q, n_k, d_k, d_v in ((4, 5, 8, 3), (1, 1, 2, 1), (6, 3, 16, 4)):
            r = np.random.default_rng(n_q * 100 + n_k)
            Q, K = r.standard_normal((n_q, d_k)), r.standard_normal((n_k, d_k))
            V, G = r.standard_normal((n_k, d_v)), r.standard_normal((n_q, d_v))
            _, P = attention_forward(Q, K, V)
            got = backward(G, Q, K, V, P)
            want = [Q.shape, K.shape, V.shape]
            shapes = [np.shape(g) for g in got] if isinstance(got, (tuple, list)) else np.shape(got)
            if shapes != want:
                print("✗", f"모양이 {shapes} 입니다 ((dQ, dK, dV) 의 모양 {want} 이어야 합니다)")
                passed = False
                continue
            for name, x, g in zip(("dQ", "dK", "dV"), (Q, K, V), got):
                ok = np.allclose(g, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
                print("✓" if ok else "✗", f"{name} (쿼리 {n_q}, 키 {n_k}, d_k {d_k})")
                passed &= ok
    finally:
        # 본문의 Q, K, V, G 를 되돌립니다 (backward 가 오류를 내도)
        Q, K, V, G = saved
    print("모두 통과" if passed else "다시 살펴보세요")
    return passed
# --8<-- [end:check]

# --8<-- [start:exercise_1]
# 연습 1: 소프트맥스의 역전파. P = softmax(S) 의 한 행에서 ∂P_i/∂S_j = P_i(δ_ij − P_j) 입니다.
# 아래 softmax_backward 는 식의 "− P_j" 부분을 빠뜨렸습니다. 고쳐서 "✓" 가 나오게 해 보세요.
def softmax_backward(dP, P):
    return P * dP  # ← 고칠 줄


S = Q @ K.T / np.sqrt(Q.shape[-1])
# 어떤 손실의 ∂L/∂P 라고 칩시다. 그 손실은 Σ P ⊙ dP 입니다.
dP = rng.standard_normal(S.shape)


def softmax_loss():
    return np.sum(plain_softmax(S) * dP)


ok_1 = np.allclose(softmax_backward(dP, plain_softmax(S)), numeric_grad(softmax_loss, S), atol=1e-8)
print("✓" if ok_1 else "✗", "소프트맥스의 역전파")
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
# 풀이 1: 행마다 P_i(dP_i − Σ_j dP_j P_j). "Σ_j dP_j P_j" 는 그 행의 가중 평균이고, 행마다 하나씩 빼 줍니다.
def softmax_backward(dP, P):
    return P * (dP - (dP * P).sum(axis=-1, keepdims=True))


solution_1 = np.allclose(softmax_backward(dP, plain_softmax(S)), numeric_grad(softmax_loss, S), atol=1e-8)
print("✓" if solution_1 else "✗", "소프트맥스의 역전파")
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


solution_2 = check(attention_backward)
# --8<-- [end:solution_2]
