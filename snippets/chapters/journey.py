"""2장의 "쿼리 하나 따라가기": 실제 모델의 q, k, v 로 네 단계를 한 걸음씩 보이는 그림(docs/assets/journey.js)의 데이터.

multilingual-e5-small 이 "나는 학교에 간다" 를 읽을 때, 7층 3번 헤드에서 조사 "에" 의 쿼리 하나가 지나는 네 단계입니다.
이 헤드를 고른 까닭: 한국어 장(korean_model.py)이 조사에 두드러지게 반응하는 헤드로 찾은 둘(7-11, 7-3) 가운데 하나이고,
이 문장에서 "에" 의 가중치가 "▁학교" 한 곳에 0.70 으로 몰려 있어 그림이 읽기 쉽습니다 (7-11 은 0.45). 다른 문장에서도
"에" 가 붙은 말을 가장 많이 보는지는 tests/test_journey.py 가 따로 고른 문장들로 봅니다.

숫자의 약속
    q, k, v 는 인코더가 계산한 float32 그대로이고, JSON 에는 float32 로 되읽으면 같은 값이 되는 가장 짧은 글자로 적습니다
    (브라우저는 Math.fround 로 되읽습니다). 화면의 숫자(q·k, √d_k 로 나눈 점수, 가중치, 출력 쪽 몫, |q|, |o| …)는 브라우저가
    그 float32 값에서 float64 로 계산합니다. 아래 real_vectors 절이 같은 값을 코어(scaled_dot_product_attention)에
    float64 로 넣어 계산하고, tests/test_journey_browser.py 가 화면의 숫자마다 그것과 견줍니다.

2차원 그림 (plane 절)
    벡터는 32차원입니다. 키 그림의 첫 축은 q 의 방향 그대로여서, 키마다 그 축의 좌표가 참값 q·k/|q| (q 방향의 그림자)
    이고 q·k = |q| × 그림자 입니다. 둘째 축은 q 에 수직인 나머지 가운데 키들이 가장 넓게 퍼지는 방향(주성분)입니다.
    밸류 그림도 같은 방법으로, 첫 축이 출력 o 의 방향입니다. 투영은 선형이라 가중합이 그대로 남습니다: 그림에서 밸류들을
    가중치만큼 줄여 이어 붙이면 정확히 (|o|, 0) 에 닿습니다. 지키지 않는 것: 벡터의 길이(나머지 30차원이 빠집니다)와
    벡터 사이의 각. 이 약속은 tests/test_journey.py 가 확인합니다.
"""

# --8<-- [start:real_vectors]
import numpy as np

from attention import (
    scaled_dot_product_attention)
from bert_numpy import embed, run_layers, tokenize
from e5_numpy import PREFIX, load_e5

e5 = load_e5()
SENTENCE = "나는 학교에 간다"
ids, pieces = tokenize(e5, PREFIX + SENTENCE)
# 7층의 세 번째 헤드(어텐션 계산 하나).
# numpy 처럼 0부터 셉니다.
LAYER, HEAD = 6, 2
# 7층에 들어가는 은닉 상태 (토큰 수, 384)
hidden = run_layers(e5, embed(e5, ids), 0,
                    stop=LAYER)[0][0]


def head_part(name):
    """7층의 x W + b 에서 세 번째 헤드의 몫:
    384열을 32열씩 12개로 나눈 세 번째"""
    p = f"encoder.layer.{LAYER}.attention.self."
    W = e5.weights[p + name + ".weight"].T
    b = e5.weights[p + name + ".bias"]
    d = W.shape[1] // e5.config[
        "num_attention_heads"]
    return (hidden @ W + b)[
        :, HEAD * d:(HEAD + 1) * d]


QUERY = pieces.index("에")
real_q = head_part("query")[QUERY]
real_K = head_part("key")
real_V = head_part("value")
print("q:", real_q.shape, " K:", real_K.shape,
      " V:", real_V.shape)

# 2장의 코어 함수에 float64 로
real_out, real_w = (
    scaled_dot_product_attention(
        real_q[None].astype(np.float64),
        real_K.astype(np.float64),
        real_V.astype(np.float64)))
real_scores = real_K.astype(np.float64) @ (
    real_q.astype(np.float64))
print("쿼리:", pieces[QUERY])
for piece, s, w in zip(pieces, real_scores,
                       real_w[0]):
    print(f"q·k {s:6.2f}  가중치 {w:.3f}"
          f"  {piece}")
print(f"|o| = {np.linalg.norm(real_out):.3f}")
# --8<-- [end:real_vectors]


# --8<-- [start:plane]
def plane(vectors, along):
    """(n, d) → 2차원 축 (2, d).

    첫 축은 along 의 방향 그대로,
    둘째 축은 그에 수직인 나머지가
    가장 넓게 퍼지는 방향(주성분)."""
    e1 = along / np.linalg.norm(along)
    rest = vectors - np.outer(vectors @ e1, e1)
    rest = rest - rest.mean(axis=0)
    e2 = np.linalg.svd(rest)[2][0]
    # 반올림으로 남은 e1 쪽 몫을 지웁니다
    e2 = e2 - (e2 @ e1) * e1
    e2 = e2 / np.linalg.norm(e2)
    # 벡터들이 둘째 축의 + 쪽에 오게
    if (vectors @ e2).mean() < 0:
        e2 = -e2
    return np.stack([e1, e2])


K64 = real_K.astype(np.float64)
V64 = real_V.astype(np.float64)
key_axes = plane(K64, real_q.astype(np.float64))
value_axes = plane(V64, real_out[0])
# 키의 첫 좌표 = q 방향의 그림자 = q·k / |q|
shadow = (K64 @ key_axes.T)[:, 0]
q_len = np.linalg.norm(real_q.astype(np.float64))
print("q·k = |q| × 그림자?",
      np.allclose(q_len * shadow, real_scores))
# 밸류를 가중치만큼 이어 붙이면 (|o|, 0)
end = real_w[0] @ (V64 @ value_axes.T)
# (+ 0.0 은 -0.0 을 0.0 으로)
print("이어 붙인 끝:", end.round(3) + 0.0)
# --8<-- [end:plane]


def _float32_list(a):
    """float32 배열 → float32 로 되읽으면 같은 값이 되는 가장 짧은 십진수들 (JSON 을 작게)."""
    a = np.asarray(a)
    if a.dtype != np.float32:
        raise TypeError(f"float32 배열이어야 합니다: dtype={a.dtype}")
    return [float(np.format_float_positional(v, unique=True, trim="-")) for v in a.ravel()]


# 그림의 글. ①·③·④ 의 글은 독자가 표에서 고른 키({focus}, 처음에는 가중치 1등)를 풀어 씁니다: ③ 은 그 키를 1등과,
# 1등이면 둘째와 견줍니다({other}, {differ} 크고/작고, {times} 배/분의 1). 숫자는 적지 않고 {이름} 자리로 둡니다: 값은 브라우저가 데이터에서 계산해 채우고(docs/assets/journey.js 의
# NAMES), 테스트가 numpy 와 견줍니다. 그래서 손으로 적은 숫자가 데이터와 어긋날 수 없습니다.
STAGES = [
    {"name": "준비", "title": "쿼리 “에”와 키 {n}개",
     "text": "모델이 문장을 읽는 동안 {layer}층의 어텐션 계산 하나({head}번 헤드)가 만든 q, k, v입니다. 쿼리는 조사 “에”이고, "
             "키와 밸류는 문장의 토큰 {n}개에서 나옵니다. 벡터는 모두 {d_k}차원이라, 그림에는 두 방향만 남겨 그렸습니다."},
    {"name": "① 내적", "title": "① 내적 = |q| × 그림자",
     "text": "점선은 q가 가리키는 방향입니다. 키의 끝에서 점선에 수직으로 내린 발까지가 그 키의 그림자입니다. "
             "{focus}: 그림자 {shadow} × |q| {q_len} = q·k {score}. 그림자가 길수록 점수가 큽니다."},
    {"name": "② ÷√d_k", "title": "② √d_k로 나누기",
     "text": "모든 점수를 √{d_k} ≈ {sqrt_d}로 나눕니다. 순서는 그대로이고, 점수 사이의 간격이 함께 줄어듭니다."},
    {"name": "③ 소프트맥스", "title": "③ 소프트맥스: 간격이 가중치의 비가 됩니다",
     "text": "점수가 모두 양수여도 소프트맥스는 점수 사이의 간격만 봅니다. {focus}의 점수는 {other}의 점수보다 "
             "{gap} {differ}, 그래서 가중치는 e의 {gap}제곱, 곧 {ratio}{times}쯤입니다. {focus}의 가중치는 {weight}, "
             "가중치를 모두 더하면 {w_sum}입니다."},
    {"name": "④ 가중합", "title": "④ 가중합: 밸류를 가중치만큼 이어 붙이기",
     "text": "이제 그림은 밸류 v의 평면입니다. 밸류마다 가중치를 곱해 줄인 화살표를 이어 붙이면 출력 o에 닿습니다. "
             "점선은 o의 방향이고, 그 방향으로 보탠 몫을 모두 더하면 |o| = {o_len}입니다. 그 가운데 {focus}에서 온 "
             "몫이 {part}입니다."},
]
TEXT = {
    "title": "실제 모델에서 쿼리 하나 따라가기",
    "hint": "학습된 모델이 “{sentence}”를 읽을 때, 쿼리 하나가 네 단계를 지나는 모습입니다. 재생하거나 단계 막대를 "
            "끌어 보세요. 표에서 키 이름을 누르면 그 키를 그림에서 강조합니다.",
    "why": "모델은 {model}입니다. 층이 {layers}개이고, 층마다 어텐션을 {heads}번씩 따로 계산합니다. 그 하나하나를 "
           "헤드라고 부릅니다(멀티헤드 어텐션 장). {layer}층 {head}번 헤드는 한국어 장에서 조사에 두드러지게 반응한 "
           "헤드라서 골랐습니다.",
    "tokens": "<s>와 </s>는 문장의 처음과 끝 표시, ▁que, ry, : 셋은 이 모델이 문장 앞에 붙이는 “query:”, ▁는 띄어쓰기 "
              "자리입니다.",
    "keeps": "그림 읽기: 점선 위의 그림자와 |q|, |o|는 {d_k}차원의 값 그대로입니다. 다른 방향은 벡터들이 가장 넓게 "
             "퍼지는 방향 하나만 남겨서, 화살표의 길이와 화살표 사이의 각은 실제와 다릅니다.",
    "key_plane": "쿼리 q와 키 {n}개를 q의 방향과 키들이 가장 넓게 퍼지는 방향으로 그린 평면",
    "value_plane": "밸류 {n}개와, 그것을 가중치만큼 줄여 이어 붙인 출력 o를 그린 평면",
}


def data_e5():
    """2장의 쿼리 하나 따라가기(docs/assets/journey.js): 토큰, q (d,), K·V (n, d) float32, 그림의 두 축, 글."""
    heads = e5.config["num_attention_heads"]
    return {
        "format": "journey/1",
        "model": "multilingual-e5-small",
        "sentence": SENTENCE,
        "layer": LAYER + 1,
        "head": HEAD + 1,
        "layers": e5.config["num_hidden_layers"],
        "heads": heads,
        "tokens": list(pieces),
        "query": QUERY,
        "d_k": int(real_q.shape[-1]),
        "q": _float32_list(real_q),
        "k": [_float32_list(k) for k in real_K],
        "v": [_float32_list(v) for v in real_V],
        # float64 그대로 (JSON 의 파이썬 repr 은 float64 를 정확히 되읽습니다)
        "key_axes": key_axes.tolist(),
        "value_axes": value_axes.tolist(),
        "stages": STAGES,
        "text": TEXT,
    }
