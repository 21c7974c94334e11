"""헤드 탐색기 숫자의 기준값: 모델을 numpy 로 새로 돌려 2장의 네 단계를 계산합니다 (탐색기의 JSON 을 읽지 않습니다).

① q·k 는 모델의 float32 값입니다. 사이트의 어텐션 코어가 모델 안에서 하는 그대로 헤드마다 n × n 전체를
   float32 행렬 곱으로 계산한 뒤 쿼리 행을 잘라 냅니다.
②–④ 는 2장처럼 float64 로: √d_k 로 나누고, 행의 최댓값을 빼고 지수, 합, 나누기 (가중치는 코어의 softmax).
화면에 보이는 글자는 파이썬의 format(x, ".{자리}f") 로 만든 것과 같아야 합니다 (한가운데 값은 짝수 쪽,
0 으로 반올림된 음수는 부호 없이 — 탐색기 스크립트의 fixed 와 같은 규칙).
"""

import functools
import re

import numpy as np

# 탐색기가 숫자마다 보여 주는 소수 자리 (docs/assets/head-explorer.js 의 num(이름, 값, 자리))
DIGITS = {"qk": 2, "sqrt-d": 3, "scaled": 3, "max": 3, "shifted": 3, "exp": 4, "sum": 3, "weight": 3,
          "top-weight": 3}


def shown(x, digits):
    s = format(float(x), f".{digits}f")
    return s[1:] if re.fullmatch(r"-0\.?0*", s) else s


@functools.cache
def reference(which):
    """which = "minilm" 이나 "e5" → 문장마다 dict(text, tokens, queries, 단계별 배열). 배열은 (층, 헤드, 쿼리, 키)."""
    from attention import softmax
    from bert_numpy import encode, load_model, tokenize
    from e5_numpy import PREFIX, load_e5
    from head_explorer import E5_SENTENCES, MINILM_SENTENCES

    model, sentences, prefix = ((load_model(), MINILM_SENTENCES, "") if which == "minilm"
                                else (load_e5(), E5_SENTENCES, PREFIX))
    d_head = model.config["hidden_size"] // model.config["num_attention_heads"]
    out = []
    for text in sentences:
        ids, tokens = tokenize(model, prefix + text)
        _, weights, qk = encode(model, ids, return_qk=True)
        n = len(tokens)
        # e5: 쿼리는 문장 조각만 (<s> 와 접두어 "▁que ry :" 다음부터 </s> 앞까지)
        q0, q1 = (len(tokenize(model, prefix.strip())[1]) - 1, n - 1) if prefix else (0, n)
        s32 = np.stack([(q[0] @ np.swapaxes(k[0], -1, -2))[:, q0:q1] for q, k in qk])
        assert s32.dtype == np.float32
        scaled = s32.astype(np.float64) / np.sqrt(d_head)
        row_max = scaled.max(axis=-1, keepdims=True)
        shifted = scaled - row_max
        exps = np.exp(shifted)
        total = exps.sum(axis=-1, keepdims=True)
        w = softmax(scaled, axis=-1)
        np.testing.assert_allclose(w, exps / total, rtol=1e-12, atol=0)
        out.append({"text": text, "tokens": tokens, "queries": (q0, q1), "d_head": d_head, "qk": s32,
                    "scaled": scaled, "max": row_max[..., 0], "argmax": scaled.argmax(axis=-1),
                    "shifted": shifted, "exp": exps, "sum": total[..., 0], "weight": w,
                    "model_weights": np.stack([x[0][:, q0:q1] for x in weights])})
    return out


def expected_steps(ref, layer, head, query, key):
    """쿼리 토큰 자리 query, 키 자리 key 에서 화면에 보여야 할 글자들: {data-value 이름: [글자, …]}."""
    r = query - ref["queries"][0]
    at = (layer, head, r)
    value = {"qk": ref["qk"][at][key], "sqrt-d": np.sqrt(ref["d_head"]), "scaled": ref["scaled"][at][key],
             "max": ref["max"][at], "shifted": ref["shifted"][at][key], "exp": ref["exp"][at][key],
             "sum": ref["sum"][at], "weight": ref["weight"][at][key]}
    # 탐색기 ②·④ 는 앞 단계의 값을 한 번 더 적습니다 (q·k ÷ √d_k, exp ÷ Σ)
    repeats = {"qk": 2, "exp": 2, "sum": 2}
    return {name: [shown(v, DIGITS[name])] * repeats.get(name, 1) for name, v in value.items()}


def expected_top(ref, layer, head, query, top=3):
    """쿼리 행에서 가중치가 가장 큰 키 top 개: [(키 자리, 글자)] (같으면 앞 토큰 먼저)."""
    w = ref["weight"][layer, head, query - ref["queries"][0]]
    order = sorted(range(len(w)), key=lambda k: (-w[k], k))[:top]
    return [(k, shown(w[k], DIGITS["top-weight"])) for k in order]
