"""헤드 탐색기 숫자의 기준값: 모델을 numpy 로 새로 돌려 2장의 네 단계를 계산합니다 (탐색기의 JSON 을 읽지 않습니다).

① q·k 는 모델의 float32 값입니다. 인코더가 돌려준 q (쿼리 행) 와 k (모든 토큰) 를 헤드마다 float32 로 곱합니다
   (qk). 코어가 모델 안에서 하듯 n × n 전체를 곱한 뒤 쿼리 행을 잘라 낸 값(qk_full)도 함께 둡니다. 둘은 행렬
   모양이 달라 BLAS 가 다른 차례로 더할 수 있어서, CPU 에 따라 마지막 비트가 다릅니다. 그래서 화면의 글자와
   견주는 기준은 모양까지 같은 qk 이고, qk_full 과는 tests/test_head_explorer.py 가 float32 반올림 한계로 견줍니다. ① 을 풀어 보이는 q 와 k 는 인코더가 돌려준
   float32 벡터 그대로이고, 차원마다의 곱 q_d·k_d 와 그 합은 float64 로 차원 순서대로 더합니다 (탐색기와 같은 순서).
②–④ 는 2장처럼 float64 로: √d_k 로 나누고, 행의 최댓값을 빼고 지수, 합, 나누기 (가중치는 코어의 softmax).
화면에 보이는 글자는 파이썬의 format(x, ".{자리}f") 로 만든 것과 같아야 합니다 (한가운데 값은 짝수 쪽,
0 으로 반올림된 음수는 부호 없이 — 탐색기 스크립트의 fixed 와 같은 규칙).
"""

import functools
import re

import numpy as np

# 탐색기가 숫자마다 보여 주는 소수 자리 (docs/assets/head-explorer.js 의 num(이름, 값, 자리))
DIGITS = {
    "qk": 2,
    "q": 2,
    "k": 2,
    "prod": 2,
    "q-top": 2,
    "k-top": 2,
    "prod-top": 2,
    "rest-sum": 2,
    "dot-sum": 2,
    "sqrt-d": 3,
    "scaled": 3,
    "max": 3,
    "shifted": 3,
    "exp": 4,
    "sum": 3,
    "weight": 3,
    "top-weight": 3,
}


def shown(x, digits):
    s = format(float(x), f".{digits}f")
    return s[1:] if re.fullmatch(r"-0\.?0*", s) else s


@functools.cache
def reference(which):
    """which = "minilm" 이나 "e5" → 문장마다 dict(text, tokens, queries, 단계별 배열). 배열은 (층, 헤드, 쿼리, 키)."""
    from bert_numpy import load_model
    from e5_numpy import PREFIX, load_e5
    from head_explorer import E5_SENTENCES, MINILM_SENTENCES

    model, sentences, prefix = (
        (load_model(), MINILM_SENTENCES, "") if which == "minilm" else (load_e5(), E5_SENTENCES, PREFIX)
    )
    return [compute(model, text, prefix) for text in sentences]


def compute(model, text, prefix):
    """문장 하나의 기준값 dict (reference 의 한 항목). 여러분의 문장으로 페이지의 테스트도 씁니다."""
    from attention import softmax
    from bert_numpy import encode, tokenize

    d_head = model.config["hidden_size"] // model.config["num_attention_heads"]
    ids, tokens = tokenize(model, prefix + text)
    _, weights, qk = encode(model, ids, return_qk=True)
    n = len(tokens)
    # e5: 쿼리는 문장 조각만 (<s> 와 접두어 "▁que ry :" 다음부터 </s> 앞까지)
    q0, q1 = (len(tokenize(model, prefix.strip())[1]) - 1, n - 1) if prefix else (0, n)
    s32 = np.stack([q[0][:, q0:q1] @ np.swapaxes(k[0], -1, -2) for q, k in qk])
    full = np.stack([(q[0] @ np.swapaxes(k[0], -1, -2))[:, q0:q1] for q, k in qk])
    assert s32.dtype == full.dtype == np.float32
    scaled = s32.astype(np.float64) / np.sqrt(d_head)
    row_max = scaled.max(axis=-1, keepdims=True)
    shifted = scaled - row_max
    exps = np.exp(shifted)
    total = exps.sum(axis=-1, keepdims=True)
    w = softmax(scaled, axis=-1)
    np.testing.assert_allclose(w, exps / total, rtol=1e-12, atol=0)
    return {
        "text": text,
        "tokens": tokens,
        "queries": (q0, q1),
        "d_head": d_head,
        "qk": s32,
        "qk_full": full,
        "ids": ids,
        "scaled": scaled,
        "max": row_max[..., 0],
        "argmax": scaled.argmax(axis=-1),
        "shifted": shifted,
        "exp": exps,
        "sum": total[..., 0],
        "weight": w,
        "model_weights": np.stack([x[0][:, q0:q1] for x in weights]),
        # ① 을 풀어 볼 벡터: (층, 헤드, 쿼리, d_head) 와 (층, 헤드, 토큰, d_head), float32
        "q": np.stack([q[0][:, q0:q1] for q, _ in qk]),
        "k": np.stack([k[0] for _, k in qk]),
    }


def step_values(ref, layer, head, query, key):
    """쿼리 토큰 자리 query, 키 자리 key 에서 ①–④ 의 값: {data-value 이름: numpy 의 값}."""
    at = (layer, head, query - ref["queries"][0])
    return {
        "qk": ref["qk"][at][key],
        "sqrt-d": np.sqrt(ref["d_head"]),
        "scaled": ref["scaled"][at][key],
        "max": ref["max"][at],
        "shifted": ref["shifted"][at][key],
        "exp": ref["exp"][at][key],
        "sum": ref["sum"][at],
        "weight": ref["weight"][at][key],
    }


def expected_steps(ref, layer, head, query, key):
    """쿼리 토큰 자리 query, 키 자리 key 에서 화면에 보여야 할 글자들: {data-value 이름: [글자, …]}."""
    value = step_values(ref, layer, head, query, key)
    # 탐색기 ②·④ 는 앞 단계의 값을 한 번 더 적습니다 (q·k ÷ √d_k, exp ÷ Σ)
    repeats = {"qk": 2, "exp": 2, "sum": 2}
    return {name: [shown(v, DIGITS[name])] * repeats.get(name, 1) for name, v in value.items()}


def expected_top(ref, layer, head, query, top=3):
    """쿼리 행에서 가중치가 가장 큰 키 top 개: [(키 자리, 글자)] (같으면 앞 토큰 먼저)."""
    w = ref["weight"][layer, head, query - ref["queries"][0]]
    order = sorted(range(len(w)), key=lambda k: (-w[k], k))[:top]
    return [(k, shown(w[k], DIGITS["top-weight"])) for k in order]


def expected_dot(ref, layer, head, query, key, top=3):
    """① 을 풀어 보인 글자들: {"dims": 곱의 절댓값이 큰 차원 top 개 (1부터), data-value 이름: [글자, …]}.

    top 줄마다 q, k, q×k (차원 순서는 |q_d·k_d| 가 큰 것부터, 같으면 앞 차원 먼저), 나머지 곱의 합, 모든 곱의 합,
    그리고 펼치면 보이는 표의 차원마다 q, k, q×k.
    """
    q = ref["q"][layer, head, query - ref["queries"][0]].astype(np.float64)
    k = ref["k"][layer, head, key].astype(np.float64)
    prods = [float(a) * float(b) for a, b in zip(q, k)]
    order = sorted(range(len(prods)), key=lambda d: (-abs(prods[d]), d))[:top]
    rest = 0.0
    for d in range(len(prods)):  # 차원 순서대로 한 번씩 (탐색기와 같은 float64 덧셈 순서)
        if d not in order:
            rest += prods[d]
    total = 0.0
    for x in prods:
        total += x
    out = {"dims": [d + 1 for d in order]}
    for name, values in (
        ("q-top", [q[d] for d in order]),
        ("k-top", [k[d] for d in order]),
        ("prod-top", [prods[d] for d in order]),
        ("rest-sum", [rest]),
        ("dot-sum", [total]),
        ("q", q),
        ("k", k),
        ("prod", prods),
    ):
        out[name] = [shown(v, DIGITS[name]) for v in values]
    return out
