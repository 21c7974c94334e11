"""Gemma 3 270M 디코더를 numpy 로: 2장의 네 단계에 8장의 생각들을 더한 것.

어텐션의 네 단계(점수 q·k, √d_k 로 나누기, 마스크를 쓴 소프트맥스, 가중합)는 코어(attention.py)가 하고,
8장의 코드(attention_variants.py, 8장 페이지가 보여 주는 함수들)를 그대로 씁니다: 멀티쿼리 어텐션(grouped_query_attention), 슬라이딩 윈도
(sliding_window_mask), RoPE(rope). 여기서 새로 쓰는 것은 Gemma 3 에만 있는 작은 조각들입니다:
RMS 정규화, 쿼리와 키의 정규화(QK-norm), 게이트가 있는 피드포워드(GeGLU), 임베딩 배율.

모양 약속: 한 번에 여러 문장을 읽을 수 있습니다. 새 토큰들의 은닉 상태를 행으로 이어 붙여 (행, d_model) 하나로
행렬 곱을 하고, 어텐션만 문장마다 자기 KV 캐시로 합니다. 헤드 축은 코어처럼 (헤드, 행, d_head) 입니다.
"""

# --8<-- [start:load]
from dataclasses import dataclass, field

import numpy as np

import arguments
import gemma_file
from attention import causal_mask, masked_softmax, merge_heads, split_heads
from attention_variants import grouped_query_attention, rope, sliding_window_mask
from gemma_tokenizer import GemmaTokenizer

# 이 코드가 받는 가장 긴 문맥 (모델은 32,768 토큰까지 학습했습니다). 페이지는 100 토큰도 쓰지 않고, 2,048 이면 창(512)의
# 네 배라서 지역 층의 창이 실제로 가리는 것을 확인할 수 있습니다. 그보다 길면 여기의 (n, n) 마스크와 점수가 커집니다.
MAX_CONTEXT = 2048


@dataclass
class Gemma:
    # gemma_file.gemma_config: 층 수, 헤드 수, 창 크기, RoPE base …
    cfg: dict
    # gemma_file.gemma_params: 임베딩 표 E, 층마다 투영 행렬과 정규화 배율
    params: dict
    tokenizer: GemmaTokenizer | None = None
    # 파일의 양자화 형식마다 파라미터 수 (gemma_file.formats): {"Q8_0": …, "Q5_0": …}
    formats: dict = field(default_factory=dict)


def load_gemma(path=None):
    """파일을 읽어 Gemma 를 만듭니다 (2코어에서 몇 초). 층의 행렬은 float32 로 풀어 두고(약 400 MB), 임베딩 표는
    8비트 그대로 둡니다(약 190 MB, gemma_file.EmbeddingTable)."""
    path = gemma_file.gguf_path() if path is None else path
    meta, tensors = gemma_file.read_gguf(path)
    cfg = gemma_file.gemma_config(meta)
    params = gemma_file.gemma_params(cfg, tensors)
    return Gemma(cfg, params, GemmaTokenizer(meta), gemma_file.formats(tensors))
# --8<-- [end:load]


# --8<-- [start:pieces]
def rms_norm(x, scale, eps=1e-6):
    """RMS 정규화: 벡터를 성분 제곱 평균의 제곱근으로 나누고 배율을 곱합니다 (층 정규화와 달리 평균은 빼지 않습니다)."""
    x, scale = _real(x, "x"), _real(scale, "scale")
    if scale.shape != x.shape[-1:]:
        raise ValueError(f"scale.shape={scale.shape} 는 x 의 마지막 축 ({x.shape[-1:]}) 과 같아야 합니다 (x.shape={x.shape})")
    if not (isinstance(eps, float) and eps > 0):
        raise ValueError(f"eps 는 0 보다 큰 float 이어야 합니다: eps={eps!r}")
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + x.dtype.type(eps)) * scale


def gelu_tanh(x):
    """GELU 의 tanh 근사. Gemma 의 피드포워드는 gelu_tanh(x W_gate) ⊙ (x W_up) 을 W_down 으로 돌려보냅니다 (GeGLU)."""
    x = _real(x, "x")
    c = x.dtype.type(np.sqrt(2 / np.pi))
    return x.dtype.type(0.5) * x * (1 + np.tanh(c * (x + x.dtype.type(0.044715) * x * x * x)))


def rotate(x, positions, base):
    """RoPE. Gemma 는 성분 i 와 i + d/2 를 한 쌍으로 돌리고, 8장의 rope 는 (0, 1), (2, 3) … 을 돌립니다.

    성분을 [0, d/2, 1, d/2+1, …] 순서로 놓고 8장의 rope 를 부르면 같은 회전입니다. 쿼리와 키의 성분 순서를 똑같이
    바꾸면 내적 q·k 는 그대로이므로, 바꾼 순서 그대로 어텐션에 넘깁니다 (밸류는 돌리지 않습니다).
    """
    x = _real(x, "x")
    if x.ndim < 2 or x.shape[-1] % 2:
        raise ValueError(f"x 는 (..., n, 짝수 d) 여야 합니다: x.shape={x.shape}")
    positions = _ids(positions, "positions", upper=None)
    if positions.shape != x.shape[-2:-1]:
        raise ValueError(f"positions.shape={positions.shape} 는 x 의 길이 축 ({x.shape[-2]},) 과 같아야 합니다")
    if not (isinstance(base, float) and base > 1):
        raise ValueError(f"base 는 1 보다 큰 float 이어야 합니다: base={base!r}")
    d = x.shape[-1]
    # [0, d/2, 1, d/2+1, …]
    order = np.arange(d).reshape(2, d // 2).T.ravel()
    return rope(x[..., order], positions, base)
# --8<-- [end:pieces]


# --8<-- [start:cache]
@dataclass
class KVCache:
    """문장 하나의 KV 캐시: 층마다 키와 밸류 (층, KV 헤드, 자리, d_head). 키는 RoPE 로 돌린 뒤의 것입니다."""

    K: np.ndarray
    V: np.ndarray
    # 지금까지 채운 자리 수
    length: int = 0
    # 채운 토큰들
    ids: list = field(default_factory=list)


def new_cache(model, capacity):
    """토큰 capacity 개를 담을 빈 캐시. capacity 는 1 이상 MAX_CONTEXT 이하의 정수입니다."""
    _check_model(model)
    if isinstance(capacity, bool) or not isinstance(capacity, (int, np.integer)):
        raise TypeError(f"capacity 는 정수여야 합니다: capacity={capacity!r} ({type(capacity).__name__})")
    if not 1 <= capacity <= MAX_CONTEXT:
        raise ValueError(f"capacity={capacity} 는 1 이상 {MAX_CONTEXT} 이하여야 합니다 (이 코드가 받는 가장 긴 문맥)")
    c = model.cfg
    shape = (c["layers"], c["kv_heads"], int(capacity), c["d_head"])
    return KVCache(np.zeros(shape, np.float32), np.zeros(shape, np.float32))
# --8<-- [end:cache]


# --8<-- [start:attention_one]
def attention_one(h, layer, cfg, i):
    """층 i 의 셀프 어텐션, 프롬프트 하나를 처음부터 (캐시 없이).

    h: (n, d_model) 정규화한 은닉 상태 → (출력 (n, d_model), 가중치 (헤드, n, n)).
    """
    n = h.shape[0]
    # (4, n, 256): 쿼리 헤드 넷
    q = split_heads(h @ layer["W_Q"], cfg["heads"])
    # (1, n, 256): 키·밸류 헤드는 하나 (MQA)
    k = split_heads(h @ layer["W_K"], cfg["kv_heads"])
    v = split_heads(h @ layer["W_V"], cfg["kv_heads"])
    # QK-norm
    q = rms_norm(q, layer["norm_q"], cfg["eps"])
    k = rms_norm(k, layer["norm_k"], cfg["eps"])
    # 지역 층과 전역 층은 RoPE 의 base 와 마스크가 다릅니다
    local = i not in cfg["global_layers"]
    base = cfg["local_base"] if local else cfg["global_base"]
    q, k = rotate(q, np.arange(n), base), rotate(k, np.arange(n), base)
    if local:
        mask = sliding_window_mask(n, cfg["window"])
    else:
        mask = causal_mask(n)
    # ① 점수 q·k: 키 헤드 하나를 쿼리 헤드 넷이 함께 씁니다
    scores = q @ k.swapaxes(-1, -2)
    # ② √d_k = 16 으로 나누기
    scores = scores / np.sqrt(np.float32(cfg["d_head"]))
    # ③ 마스크를 쓴 소프트맥스: (4, n, n)
    w = masked_softmax(scores, mask)
    # ④ 가중합: 밸류 헤드 하나를 함께 씁니다
    out = w @ v
    return merge_heads(out) @ layer["W_O"], w
# --8<-- [end:attention_one]


# --8<-- [start:attention]
def attention_block(h, layer, cfg, i, segments):
    """층 i 의 셀프 어텐션. h: (행, d_model) 정규화한 은닉 상태. segments: [(캐시, 행 slice, 자리들)] 문장마다.

    반환: (출력 (행, d_model), [문장마다 가중치 (헤드, 새 토큰, 자리)]).
    """
    # (4, 행, 256): 쿼리 헤드 넷
    q = split_heads(h @ layer["W_Q"], cfg["heads"])
    # (1, 행, 256): 키·밸류 헤드는 하나 (MQA)
    k = split_heads(h @ layer["W_K"], cfg["kv_heads"])
    v = split_heads(h @ layer["W_V"], cfg["kv_heads"])
    # QK-norm
    q, k = rms_norm(q, layer["norm_q"], cfg["eps"]), rms_norm(k, layer["norm_k"], cfg["eps"])
    local = i not in cfg["global_layers"]
    base = cfg["local_base"] if local else cfg["global_base"]
    out, weights = np.empty(q.shape, np.float32), []
    for cache, rows, pos in segments:
        # 새 토큰의 자리 t0 … t-1, 캐시를 합친 길이 t
        t0, t = int(pos[0]), int(pos[-1]) + 1
        cache.K[i, :, t0:t], cache.V[i, :, t0:t] = rotate(k[:, rows], pos, base), v[:, rows]
        mask = sliding_window_mask(t, cfg["window"]) if local else causal_mask(t)
        # 마스크는 새 쿼리의 행만: (새 토큰, t)
        o, w = grouped_query_attention(rotate(q[:, rows], pos, base), cache.K[i, :, :t], cache.V[i, :, :t],
                                       mask[t0:])
        out[:, rows] = o
        weights.append(w)
    return merge_heads(out) @ layer["W_O"], weights
# --8<-- [end:attention]


# --8<-- [start:forward]
def decoder_layer(h, layer, cfg, i, segments):
    """층 i 하나: 어텐션과 피드포워드, 둘 다 입력과 출력을 정규화하고 잔차에 더합니다.

    h: (행, d_model) 잔차 흐름 → (다음 층의 h (행, d_model), [문장마다 가중치 (헤드, 새 토큰, 자리)]).
    """
    a, w = attention_block(rms_norm(h, layer["norm_attn"], cfg["eps"]), layer, cfg, i, segments)
    # 어텐션 출력도 정규화한 뒤 더합니다
    h = h + rms_norm(a, layer["norm_attn_out"], cfg["eps"])
    f = rms_norm(h, layer["norm_ffn"], cfg["eps"])
    # GeGLU
    f = (gelu_tanh(f @ layer["W_gate"]) * (f @ layer["W_up"])) @ layer["W_down"]
    return h + rms_norm(f, layer["norm_ffn_out"], cfg["eps"]), w


def forward(model, batch, caches):
    """문장마다 새 토큰들을 캐시 뒤에 이어 읽습니다. batch: [토큰 id 배열], caches: [KVCache] (같은 길이).

    반환: (로짓 [문장마다 (새 토큰, 어휘)], 가중치 [문장마다 [층마다 (헤드, 새 토큰, 자리)]]).
    """
    segments, ids = _check_batch(model, batch, caches)
    cfg, p = model.cfg, model.params
    # 임베딩에 √d_model 을 곱합니다
    h = p["E"].rows(ids) * np.float32(np.sqrt(cfg["d_model"]))
    weights = [[] for _ in segments]
    for i, layer in enumerate(p["layers"]):
        h, w = decoder_layer(h, layer, cfg, i, segments)
        for s, ws in zip(weights, w):
            s.append(ws)
    # 출력 층은 임베딩 표를 다시 씁니다: h @ Eᵀ
    logits = p["E"].logits(rms_norm(h, p["norm_out"], cfg["eps"]))
    _advance(caches, segments, batch)
    return [logits[rows] for _, rows, _ in segments], weights
# --8<-- [end:forward]


# --8<-- [start:generate]
def greedy(logits, rng):
    """가장 로짓이 큰 토큰 (rng 는 쓰지 않습니다: 샘플링 함수와 같은 모양으로 부르려는 자리)."""
    return int(np.argmax(_scores(logits)))


def generate(model, prompts, steps, pick=greedy, seed=0):
    """프롬프트마다 토큰 steps 개를 하나씩 고릅니다. 프롬프트는 한 번에 읽고(prefill), 그다음은 KV 캐시로 한 토큰씩.

    prompts: [토큰 id 리스트]. pick(로짓 (어휘,), rng) → 토큰 id.
    한 걸음마다 (걸음 번호, [문장마다 마지막 자리의 로짓 (어휘,)], [문장마다 [층마다 가중치 (헤드, 새 토큰, 자리)]],
    [고른 토큰]) 을 내놓습니다. 가중치의 새 토큰 축은 첫 걸음에 프롬프트 길이, 그 뒤로는 1 입니다.
    """
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps 는 1 이상의 정수여야 합니다: steps={steps!r}")
    if not callable(pick):
        raise TypeError(f"pick 은 (로짓, rng) → 토큰 id 인 함수여야 합니다: {type(pick).__name__}")
    if not isinstance(prompts, (list, tuple)) or not prompts:
        raise ValueError(f"prompts 는 토큰 id 리스트를 하나 이상 담은 리스트여야 합니다: {type(prompts).__name__}")
    _check_model(model)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed 는 0 이상의 정수나 None 이어야 합니다: seed={seed!r} ({type(seed).__name__})")
    lengths = []
    for j, p in enumerate(prompts):
        ids = _ids(p, f"prompts[{j}]", model.cfg["vocab"])
        if ids[0] != model.cfg["bos"]:
            raise ValueError(f"prompts[{j}] 의 첫 토큰이 {int(ids[0])} 입니다: 프롬프트는 <bos>(id {model.cfg['bos']})로 "
                             "시작해야 합니다 (tokenizer.encode 가 붙입니다)")
        lengths.append(ids.size)
    if max(lengths) + steps - 1 > MAX_CONTEXT:
        raise ValueError(f"가장 긴 프롬프트 {max(lengths)} 토큰 + steps {steps} 가 MAX_CONTEXT={MAX_CONTEXT} 를 넘습니다")
    rng = np.random.default_rng(seed)
    caches = [new_cache(model, n + steps - 1) for n in lengths]
    batch = [np.asarray(p) for p in prompts]
    for step in range(steps):
        logits, weights = forward(model, batch, caches)
        # 마지막 자리의 로짓이 다음 토큰의 점수입니다
        last = [z[-1] for z in logits]
        chosen = [_picked(pick(z, rng), model.cfg["vocab"], step, j) for j, z in enumerate(last)]
        yield step, last, weights, chosen
        # 다음 걸음에는 고른 토큰 하나씩만 읽습니다
        batch = [np.array([c]) for c in chosen]
# --8<-- [end:generate]


# --8<-- [start:checks]
def _real(a, name):
    """실수 배열 (float32 는 float32 로, 그 밖의 정수·실수는 float64 로). 아니면 이름을 밝힌 오류."""
    a = arguments.array(a, name, kinds="iuf", what="실수")
    a = a if a.dtype == np.float32 else a.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} 에 NaN 이나 inf 가 있습니다: {name}.shape={a.shape}")
    return a


def _ids(ids, name, upper):
    """1차원 정수 배열 (비어 있지 않고, 0 이상 upper 미만; upper 가 None 이면 위쪽은 보지 않습니다)."""
    try:
        a = np.asarray(ids)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} 를 배열로 만들 수 없습니다: {err}") from None
    # [] 는 float64 배열이 되지만, 토큰이 없다는 뜻입니다
    if a.ndim == 1 and a.size == 0:
        raise ValueError(f"{name} 가 비어 있습니다: 토큰이 하나 이상 있어야 합니다")
    if a.dtype.kind not in "iu" or a.ndim != 1:
        raise TypeError(f"{name} 는 정수의 1차원 배열이어야 합니다: {name}.dtype={a.dtype}, {name}.shape={a.shape}")
    if a.min() < 0 or (upper is not None and a.max() >= upper):
        bad = int(a[(a < 0) | (a >= (upper if upper is not None else np.iinfo(np.int64).max))][0])
        raise ValueError(f"{name} 에 {bad} 가 있습니다: 0 이상 {upper if upper is not None else ''} 미만이어야 합니다")
    return a.astype(np.int64)


def _scores(logits):
    """greedy 의 로짓: 1차원 실수, NaN 과 +inf 는 받지 않습니다 (-inf 는 고를 수 없는 토큰이라 받습니다)."""
    z = np.asarray(logits)
    if z.dtype.kind not in "iuf" or z.ndim != 1 or z.size == 0:
        raise ValueError(f"logits 는 비어 있지 않은 1차원 실수 배열이어야 합니다: dtype={z.dtype}, shape={z.shape}")
    if np.isnan(z).any() or (z == np.inf).any() or np.all(z == -np.inf):
        raise ValueError(f"logits 에 NaN 이나 +inf 가 있거나 모두 -inf 입니다: shape={z.shape}")
    return z


def _picked(token, vocab, step, j):
    """pick 이 돌려준 값이 토큰 id 인지: 정수(bool, 실수, 글자는 안 됨)이고 0 이상 vocab 미만."""
    if isinstance(token, (bool, np.bool_)) or not isinstance(token, (int, np.integer)):
        raise TypeError(f"pick 이 걸음 {step}, prompts[{j}] 에서 토큰 id 대신 {token!r:.40} ({type(token).__name__}) 를 "
                        "돌려주었습니다: 정수 id 여야 합니다")
    if not 0 <= token < vocab:
        raise ValueError(f"pick 이 걸음 {step}, prompts[{j}] 에서 {int(token)} 를 돌려주었습니다: 토큰 id 는 0 이상 "
                         f"{vocab} (어휘 크기) 미만이어야 합니다")
    return int(token)


def _check_model(model):
    if not isinstance(model, Gemma):
        raise TypeError(f"model 은 load_gemma() 가 돌려준 Gemma 여야 합니다: {type(model).__name__}")


def _check_batch(model, batch, caches):
    """forward 의 입력 검사 → ([(캐시, 행 slice, 자리들)], 이어 붙인 토큰 id)."""
    _check_model(model)
    if not isinstance(batch, (list, tuple)) or not batch:
        raise ValueError(f"batch 는 토큰 id 배열을 하나 이상 담은 리스트여야 합니다: {type(batch).__name__}")
    if not isinstance(caches, (list, tuple)) or len(caches) != len(batch):
        raise ValueError(f"caches 는 batch 와 길이가 같은 KVCache 리스트여야 합니다: "
                         f"len(batch)={len(batch)}, caches={type(caches).__name__}")
    segments, all_ids, row = [], [], 0
    for j, (new, cache) in enumerate(zip(batch, caches)):
        new = _ids(new, f"batch[{j}]", model.cfg["vocab"])
        if not isinstance(cache, KVCache) or cache.K.shape[:2] != (model.cfg["layers"], model.cfg["kv_heads"]):
            raise TypeError(f"caches[{j}] 는 이 model 로 new_cache() 가 만든 KVCache 여야 합니다: {type(cache).__name__}")
        if cache.length + new.size > cache.K.shape[2]:
            raise ValueError(f"caches[{j}] 에 자리가 모자랍니다: 채운 {cache.length} + 새 토큰 {new.size} > "
                             f"capacity {cache.K.shape[2]}")
        if cache.length == 0 and new[0] != model.cfg["bos"]:
            raise ValueError(f"batch[{j}] 의 첫 토큰이 {int(new[0])} 입니다: 문장은 <bos>(id {model.cfg['bos']})로 "
                             "시작해야 합니다 (tokenizer.encode 가 붙입니다)")
        segments.append((cache, slice(row, row + new.size), np.arange(cache.length, cache.length + new.size)))
        all_ids.append(new)
        row += new.size
    return segments, np.concatenate(all_ids)


def _advance(caches, segments, batch):
    """캐시마다 채운 길이와 읽은 토큰을 새 토큰만큼 늘립니다 (K, V 는 attention_block 이 이미 넣었습니다)."""
    for cache, (_, rows, pos), new in zip(caches, segments, batch):
        cache.length = int(pos[-1]) + 1
        cache.ids += [int(t) for t in new]
# --8<-- [end:checks]


# --8<-- [start:residuals]
def residual_stream(model, batch, caches):
    """forward 와 같은 계산을 하되 로짓 대신 층마다의 잔차 흐름(residual stream)을 돌려줍니다 (읽기만 하는 도우미).

    반환: [임베딩 (행, d_model), 1층 뒤, …, 마지막 층 뒤] — 길이 층 수 + 1, 행은 batch 의 새 토큰들을 이어 붙인 차례.
    마지막 것에 최종 RMS 정규화와 임베딩 표를 곱하면 forward 의 로짓입니다. 중간 층의 것에 같은 두 단계를 쓰는 것이
    로짓 렌즈(logit lens)입니다. 캐시는 forward 처럼 채웁니다 (그 뒤 forward 로 이어 읽을 수 있습니다).
    """
    segments, ids = _check_batch(model, batch, caches)
    cfg, p = model.cfg, model.params
    h = p["E"].rows(ids) * np.float32(np.sqrt(cfg["d_model"]))
    stream = [h]
    for i, layer in enumerate(p["layers"]):
        h, _ = decoder_layer(h, layer, cfg, i, segments)
        stream.append(h)
    _advance(caches, segments, batch)
    return stream
# --8<-- [end:residuals]
