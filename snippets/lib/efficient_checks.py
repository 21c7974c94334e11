"""8장(efficient.py)의 공개 함수가 받는 입력의 검사.

페이지는 계산의 순서를 보여 주는 코드라서, 검사는 이 파일에 따로 둡니다. efficient.py 의 함수는 첫 줄에서 여기의
check_* 하나를 부르고, 검사를 통과한 값(배열로 바꾸고 dtype 을 맞춘 것)으로 계산합니다.

규칙과 말투는 코어(attention.py)와 같고, 코어의 도우미를 그대로 씁니다.
- 종류가 틀리면 TypeError (복소수·문자열·객체 배열, 정수 자리의 2.5 나 "3", 불리언), 값이나 모양이 틀리면 ValueError.
- 메시지에는 문제인 인자의 이름과 그 모양·dtype·값이 들어갑니다.
- 조용히 고치지 않습니다: 복소수의 허수부를 버리지 않고, 음수 토큰 번호로 배열 끝을 읽지 않습니다.
확인: tests/test_efficient_inputs.py.
"""

import numpy as np

from attention import _array, _check_attention_inputs, _check_count, _check_in_range, _float_array

__all__ = [
    "check_callable",
    "check_random_qkv",
    "check_online",
    "check_tiled",
    "scores_in_range",
    "output_in_range",
    "check_work",
    "check_decoder_sizes",
    "check_model",
    "check_tokens",
    "check_step",
    "check_generate",
    "check_kv_bytes",
    "check_gqa",
    "check_copy_heads",
    "check_window",
    "check_rope",
    "check_work_per_token",
]


def _finite(a, name):
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} 에 NaN 이나 inf 가 있습니다: {name}.shape={a.shape}")
    return a


def _positive_real(value, name):
    """base 처럼 0 보다 큰 유한한 실수 하나 (파이썬이나 numpy 의 수; 불리언과 글자는 아닙니다)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} 는 실수여야 합니다: {name}={value!r} ({type(value).__name__})")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name}={value!r} 는 0 보다 큰 유한한 실수여야 합니다")
    return float(value)


# ---------------------------------------------------------------- 비용, 온라인 소프트맥스, 타일


def check_callable(fn):
    if not callable(fn):
        raise TypeError(f"fn 은 부를 수 있는 함수여야 합니다: fn={fn!r} ({type(fn).__name__})")
    return fn


def check_random_qkv(n, d, seed, dtype):
    n, d, seed = _check_count(n, "n"), _check_count(d, "d", minimum=1), _check_count(seed, "seed")
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype 은 numpy 의 dtype 이어야 합니다: dtype={dtype!r}") from None
    if dtype.kind != "f":
        raise TypeError(f"dtype 은 실수 dtype 이어야 합니다 (float32, float64 …): dtype={dtype}")
    return n, d, seed, dtype


def check_online(x, block):
    """1차원 점수 x (유한한 값이 하나 이상, float64 로) 와 1 이상의 정수 block."""
    x = _finite(_float_array(x, "x"), "x")
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x 는 값이 하나 이상인 1차원 배열이어야 합니다: x.shape={x.shape}")
    return x.astype(np.float64, copy=False), _check_count(block, "block", minimum=1)


def check_tiled(q, k, v, mask, block):
    """코어와 같은 검사(모양·dtype·NaN·마스크)와 1 이상의 정수 block."""
    q, k, v, mask = _check_attention_inputs(q, k, v, mask)
    return q, k, v, mask, _check_count(block, "block", minimum=1)


def scores_in_range(s, q, k):
    """조각의 점수가 dtype 범위를 넘었으면 (q·k 가 아주 크면) 코어와 같은 말로 알립니다."""
    return _check_in_range(s, "점수 Q Kᵀ/√d_k", q=q, k=k)


def output_in_range(out, v):
    return _check_in_range(out, "출력 (가중치 @ v)", v=v)


def check_work(n_q, n_k, d, block):
    n_q, n_k, d = _check_count(n_q, "n_q"), _check_count(n_k, "n_k"), _check_count(d, "d", minimum=1)
    return n_q, n_k, d, None if block is None else _check_count(block, "block", minimum=1)


# ---------------------------------------------------------------- 장난감 디코더와 KV 캐시

_MODEL_KEYS = {"E", "P", "U", "W_Q", "W_K", "W_V", "W_O", "heads"}


def check_decoder_sizes(vocab, d_model, heads, max_len, seed):
    vocab, d_model = _check_count(vocab, "vocab", minimum=1), _check_count(d_model, "d_model", minimum=1)
    heads, max_len = _check_count(heads, "heads", minimum=1), _check_count(max_len, "max_len", minimum=1)
    if d_model % heads:
        raise ValueError(f"d_model={d_model} 이 헤드 수 heads={heads} 로 나누어떨어지지 않습니다")
    return vocab, d_model, heads, max_len, _check_count(seed, "seed")


def check_model(p):
    if not isinstance(p, dict) or not _MODEL_KEYS <= set(p):
        got = sorted(p) if isinstance(p, dict) else type(p).__name__
        raise TypeError(f"p 는 toy_decoder() 가 돌려준 파라미터 dict 여야 합니다: {got}")
    return p["E"].shape[0], p["P"].shape[0]


def _token(value, name, vocab):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} 는 정수 토큰 번호여야 합니다: {name}={value!r} ({type(value).__name__})")
    if not 0 <= value < vocab:
        raise ValueError(f"{name}={value} 는 0 이상 vocab={vocab} 미만이어야 합니다 (음수 번호로 끝에서 세지 않습니다)")
    return int(value)


def check_tokens(p, tokens, name="tokens", allow_empty=False):
    """토큰 번호의 1차원 목록 → 파이썬 정수의 list. 번호는 0 이상 vocab 미만, 개수는 max_len 이하."""
    vocab, max_len = check_model(p)
    arr = _array(tokens, name)
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{name} 는 정수 토큰 번호의 목록이어야 합니다: {name}.dtype={arr.dtype}, {name}.shape={arr.shape}")
    if arr.ndim != 1 or (arr.size == 0 and not allow_empty):
        raise ValueError(f"{name} 는 토큰이 하나 이상인 1차원 목록이어야 합니다: {name}.shape={arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= vocab):
        raise ValueError(f"{name} 의 번호는 0 이상 vocab={vocab} 미만이어야 합니다: 최솟값 {arr.min()}, 최댓값 {arr.max()}")
    if arr.size > max_len:
        raise ValueError(f"{name} 의 토큰 {arr.size}개가 위치 임베딩의 자리 수 max_len={max_len} 보다 많습니다")
    return [int(t) for t in arr]


def check_step(p, token, pos, cache):
    """캐시로 한 걸음: token 은 어휘 안, pos 는 0 이상 max_len 미만이고 캐시가 채운 길이를 넘지 않습니다.

    캐시의 자리 pos 앞은 모두 채워져 있어야 합니다. 건너뛴 자리는 0 벡터라서, 그 키를 읽으면 조용히 틀린 답이 됩니다.
    """
    vocab, max_len = check_model(p)
    token = _token(token, "token", vocab)
    if isinstance(pos, (bool, np.bool_)) or not isinstance(pos, (int, np.integer)):
        raise TypeError(f"pos 는 정수 자리여야 합니다: pos={pos!r} ({type(pos).__name__})")
    if not 0 <= pos < max_len:
        raise ValueError(f"pos={pos} 는 0 이상 max_len={max_len} 미만이어야 합니다 (음수 자리로 끝에서 세지 않습니다)")
    shape = (p["heads"], max_len, p["W_Q"].shape[0] // p["heads"])
    if not isinstance(cache, dict) or {"K", "V", "length"} - set(cache):
        raise TypeError(f"cache 는 empty_cache(p) 나 prefill(p, …) 가 돌려준 dict 여야 합니다: {type(cache).__name__}")
    if cache["K"].shape != shape or cache["V"].shape != shape:
        raise ValueError(f"cache 가 이 모델의 것이 아닙니다: cache['K'].shape={cache['K'].shape}, 모델에 맞는 모양 {shape}")
    if pos > cache["length"]:
        raise ValueError(f"pos={pos} 앞의 자리가 캐시에 비어 있습니다: 캐시는 자리 0–{cache['length'] - 1} 만 채웠습니다")
    return token, int(pos)


def check_generate(p, prompt, steps, use_cache):
    prompt = check_tokens(p, prompt, "prompt")
    steps = _check_count(steps, "steps", minimum=1)
    if not isinstance(use_cache, (bool, np.bool_)):
        raise TypeError(f"use_cache 는 True 나 False 여야 합니다: use_cache={use_cache!r}")
    if len(prompt) + steps > p["P"].shape[0]:
        raise ValueError(f"prompt {len(prompt)}개 + steps={steps} 가 위치 임베딩의 자리 수 max_len={p['P'].shape[0]} 을 넘습니다")
    return prompt, steps, bool(use_cache)


# ---------------------------------------------------------------- MQA / GQA


def check_kv_bytes(kv_heads, d_head, bytes_per_number):
    return (_check_count(kv_heads, "kv_heads", minimum=1), _check_count(d_head, "d_head", minimum=1),
            _check_count(bytes_per_number, "bytes_per_number", minimum=1))


def check_gqa(q, k, v):
    """q (..., h, n_q, d), k·v (..., g, n_k, d): 헤드 축이 있고, K·V 헤드 수 g 가 1 이상이고 같으며 h 가 g 의 배수."""
    q, k, v = _float_array(q, "q"), _float_array(k, "k"), _float_array(v, "v")
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim < 3:
            raise ValueError(f"{name} 는 헤드 축이 있는 (..., 헤드, 길이, 폭) 이어야 합니다: {name}.shape={a.shape}")
    if k.shape[-3] != v.shape[-3]:
        raise ValueError(f"k 와 v 의 K·V 헤드 수가 다릅니다: k.shape={k.shape}, v.shape={v.shape} "
                         f"(뒤에서 셋째 축 {k.shape[-3]} != {v.shape[-3]})")
    if k.shape[-3] == 0:
        raise ValueError(f"K·V 헤드가 하나 이상 있어야 합니다: k.shape={k.shape}")
    if q.shape[-3] % k.shape[-3]:
        raise ValueError(f"쿼리 헤드 수 {q.shape[-3]} 가 K·V 헤드 수 {k.shape[-3]} 의 배수가 아닙니다: "
                         f"q.shape={q.shape}, k.shape={k.shape} (헤드 축은 뒤에서 셋째)")
    return q, k, v


def check_copy_heads(W, kv_heads, heads):
    W = _finite(_float_array(W, "W"), "W")
    kv_heads, heads = _check_count(kv_heads, "kv_heads", minimum=1), _check_count(heads, "heads", minimum=1)
    if W.ndim != 2 or W.shape[1] % kv_heads:
        raise ValueError(f"W 는 열이 kv_heads={kv_heads} 묶음으로 나뉘는 (d_model, kv_heads × 헤드 폭) 행렬이어야 합니다: "
                         f"W.shape={W.shape}")
    if heads % kv_heads:
        raise ValueError(f"heads={heads} 가 kv_heads={kv_heads} 의 배수가 아닙니다 (그룹마다 같은 수의 쿼리 헤드)")
    return W, kv_heads, heads


# ---------------------------------------------------------------- 창


def check_window(window, sinks):
    return _check_count(window, "window", minimum=1), _check_count(sinks, "sinks")


# ---------------------------------------------------------------- RoPE


def check_rope(x, positions, base):
    """x (..., n, 짝수 d) 와 positions (n,) 은 유한한 실수 (float64 로), base 는 0 보다 큰 실수."""
    x = _finite(_float_array(x, "x"), "x").astype(np.float64, copy=False)
    positions = _finite(_float_array(positions, "positions"), "positions").astype(np.float64, copy=False)
    base = _positive_real(base, "base")
    if x.ndim < 2 or x.shape[-1] % 2 or positions.shape != x.shape[-2:-1]:
        raise ValueError(f"x (..., n, 짝수 d) 와 positions (n,) 이어야 합니다: x.shape={x.shape}, "
                         f"positions.shape={positions.shape}")
    return x, positions, base


# ---------------------------------------------------------------- 그림


def check_work_per_token(t, d_model, vocab):
    return _check_count(t, "t", minimum=1), _check_count(d_model, "d_model", minimum=1), _check_count(vocab, "vocab", minimum=1)
