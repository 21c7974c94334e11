"""여러 페이지와 실습 노트북이 함께 쓰는 작은 예제 입력: 예제 하나에 출처 하나.

실제 모델의 토큰 벡터는 학습된 임베딩이지만, 계산 과정을 보여 주는 데에는 시드(seed)를 고정한
난수 벡터로 충분합니다. 시드가 같으면 어느 컴퓨터에서 돌려도 같은 숫자가 나옵니다.

- "나는 학교에 간다" (toy_qkv): 1장·2장·5장과 실습 파트 1
- "The cat sat on the mat" (cat_sat_example): 3장·4장의 탐색기와 히트맵, 6장, 실습 파트 2·3

같은 예제를 쓰는 페이지와 노트북은 이 파일의 같은 함수를 부르므로 같은 배열을 봅니다
(tests/test_toy_data.py 가 확인합니다). 노트북은 이 파일의 절을 그대로 담습니다.
"""

import numpy as np


# --8<-- [start:token_vectors]
def token_vectors(tokens, d_model, seed=0):
    """토큰마다 d_model 차원 벡터: (n, d_model)."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((len(tokens), d_model))


def projection_weights(d_model, d_k, seed=1):
    """투영 행렬 W_Q, W_K, W_V: 각각 (d_model, d_k)."""
    rng = np.random.default_rng(seed)
    # 흔한 초기화: √d_model 로 나눠
    # 투영한 값의 분산을 입력과 맞춥니다.
    return [rng.standard_normal((d_model, d_k)) / np.sqrt(d_model) for _ in range(3)]
# --8<-- [end:token_vectors]


# --8<-- [start:toy_qkv]
def toy_qkv(tokens=("나는", "학교에", "간다"), d_model=8, d_k=4):
    """1장(도서관 비유)의 X, Q, K, V 를 다시 만듭니다."""
    tokens = list(tokens)
    X = token_vectors(tokens, d_model)
    W_Q, W_K, W_V = projection_weights(d_model, d_k)
    return tokens, X, X @ W_Q, X @ W_K, X @ W_V
# --8<-- [end:toy_qkv]


# --8<-- [start:cat_sat]
def cat_sat_example(d_model=64):
    """"The cat sat on the mat": 토큰, X (6, d_model),
    W_Q, W_K, W_V, W_O (각각 d_model × d_model)."""
    tokens = ["The", "cat", "sat", "on", "the", "mat"]
    X = token_vectors(tokens, d_model, seed=0)
    W_Q, W_K, W_V = projection_weights(d_model, d_model, seed=1)
    W_O = projection_weights(d_model, d_model, seed=2)[0]
    return tokens, X, {"W_Q": W_Q, "W_K": W_K, "W_V": W_V, "W_O": W_O}
# --8<-- [end:cat_sat]
