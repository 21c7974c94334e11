"""헤드 탐색기(docs/assets/head-explorer.js)가 읽는 데이터: 실제 모델의 모든 층·헤드에서 잰 점수 q·kᵀ 와 그 재료인 q, k.

영어 모델(all-MiniLM-L6-v2)과 한국어 모델(multilingual-e5-small)이 같은 형식을 씁니다. 층 수, 헤드 수,
d_head, 토큰은 모두 데이터에 적혀 있어서 스크립트는 어느 모델인지 몰라도 됩니다.

왜 점수와 q·k 벡터를 나눠 보내나요?
    데이터는 두 부분입니다.
    - 점수 파일 하나 (data_minilm, data_e5): 모든 문장·층·헤드의 점수 q·kᵀ. 작은 히트맵과 헤드 그림, 2장의
      ②–④(√d_k 로 나누기, 소프트맥스, 가중치)는 이것만으로 그립니다. 영어 157 KB, 한국어 137 KB 입니다.
    - 문장·층마다 q·k 파일 하나 (datafiles_minilm, datafiles_e5): 그 층 모든 헤드의 q (쿼리 행만) 와
      k (모든 토큰). ① 의 내적을 32개의 곱으로 풀어 보일 때만 쓰므로, 독자가 그 층을 볼 때 한 번만 받습니다.
      파일 하나가 31–47 KB (gzip 23–36 KB) 입니다.
    헤드 하나의 q 와 k 는 (쿼리 수 + 키 수) × d_head 개의 수이고 점수는 쿼리 수 × 키 수 개입니다. d_head = 32
    이고 문장이 9–17 토큰이라 모든 층의 벡터를 한 번에 보내면 점수보다 4–6배 큽니다 (영어 네 문장의 q·k 파일을
    모두 합하면 989 KB). 그래서 처음 화면에는 점수와 시작 층의 q·k 파일만 받습니다: 영어 194 KB, 한국어 184 KB
    (tests/test_head_explorer.py 가 300 KB 이하인지 봅니다). 모든 문장·층을 다 본 독자가 받는 양은 영어 1.15 MB,
    한국어 1.08 MB (gzip 856 KB, 805 KB) 입니다.

숫자의 정밀도
    점수는 모델이 계산하는 그대로의 float32 입니다 (사이트의 어텐션 코어가 모델 안에서 쓰는 것과 같은
    numpy 행렬 곱 `q @ kᵀ`, float32). q 와 k 도 인코더가 만든 float32 그대로이고, 점수는 바로 이 q 와 k 를
    layer_scores 로 곱한 것입니다. 줄이지(양자화하지) 않고 float32 4바이트를 그대로 base64 로 적으므로
    브라우저는 numpy 가 계산한 값과 비트까지 같은 수를 받습니다 (pack 과 unpack 은 값을 바꾸지 않습니다).
    그다음 단계와 차원마다의 곱 q_d·k_d, 그 합은 2장처럼 float64 로 계산합니다. 화면의 q·k 는 모델의 float32 점수입니다.
    32개 곱의 float64 합과의 차이는 float32 반올림의 한계(γ_32 Σ|q_d·k_d|) 안이고, 여기 실은 모든 문장·층·헤드·쿼리·키에서
    0.0001 보다 작습니다 (얼마인지는 BLAS 와 CPU 에 따라 다릅니다: 한 빌드에서 영어 1.8e-5, 한국어 4.2e-5, 다른 빌드에서
    한국어 4.24e-5). 그래서 두 값을 소수 둘째 자리로 적은 글자는 드물게 마지막 자리가 한 단위 다릅니다: 언어마다
    수만 곳 가운데 천 곳에 하나 꼴을 넘지 않습니다 (한 빌드에서 영어 1곳, 한국어 6곳).
    확인: tests/test_head_explorer.py 의 test_docstring_bound_on_float32_scores_holds.
"""

# --8<-- [start:data]
import base64

import numpy as np

from bert_numpy import Encoder, encode, load_model, tokenize
from e5_numpy import PREFIX, load_e5

FORMAT = "head-explorer/2"
QK_FORMAT = "head-explorer-qk/1"

# 미리 골라 둔 문장: 영어는 "실제 모델 들여다보기" 가, 한국어는 "한국어 문장으로 보기" 가 다루는 문장입니다.
# 한국어 모델은 헤드가 144개이고 접두어 때문에 토큰도 많아서 문장 하나의 점수가 40–160 KB 입니다. 페이지 하나가
# 1 MB 를 넘지 않도록 (tests/test_page_weight.py) 한국어 페이지의 그림과 글이 이미 쓰는 몫을 빼면 두 문장이 들어갑니다.
MINILM_SENTENCES = ["The cat sat on the mat.", "A dog chased the ball across the park.",
                    "The dog slept on the sofa.", "After dinner, we walked along the beach."]
E5_SENTENCES = ["고양이가 매트 위에 앉았다", "나는 학교에 간다"]


def head_vectors(model, text, prefix=""):
    """문장 하나 → (토큰, 쿼리 범위 (처음, 끝), q (층, 헤드, 쿼리 수, d_head), k (층, 헤드, 토큰 수, d_head)).

    q 와 k 는 인코더가 계산한 float32 그대로입니다 (`encode(..., return_qk=True)`). prefix 가 있으면
    (multilingual-e5-small 의 "query: ") 문장 앞에 붙여 계산하고, 쿼리는 문장의 조각만 남깁니다. 앞의 <s> 와
    접두어 조각, 끝의 </s> 는 키로만 남습니다 (한국어 페이지의 그림과 통계와 같게).
    """
    if not isinstance(model, Encoder):
        raise TypeError(f"model 은 load_model() 이나 load_e5() 가 돌려준 Encoder 여야 합니다: {type(model).__name__}")
    if not isinstance(text, str) or not isinstance(prefix, str):
        raise TypeError(f"text 와 prefix 는 문자열이어야 합니다: text={text!r:.60}, prefix={prefix!r:.30}")
    if not text.strip():
        raise ValueError(f"text 가 비어 있습니다: text={text!r}")
    ids, tokens = tokenize(model, prefix + text)
    _, _, qk = encode(model, ids, return_qk=True)
    if prefix:
        first = len(tokenize(model, prefix.strip())[1]) - 1  # <s> 와 접두어 조각들 다음 (</s> 는 빼고 셉니다)
        queries = (first, len(tokens) - 1)
    else:
        queries = (0, len(tokens))
    # encode 의 q, k: 층마다 (배치 1, 헤드, n, d_head)
    q = np.stack([q[0, :, queries[0]:queries[1]] for q, _ in qk])
    k = np.stack([k[0] for _, k in qk])
    return tokens, queries, q, k


def layer_scores(q, k):
    """층 하나의 q (헤드, 쿼리 수, d_head) 와 k (헤드, 토큰 수, d_head) → 점수 (헤드, 쿼리 수, 토큰 수).

    코어가 모델 안에서 하는 것과 같은 float32 행렬 곱입니다. 테스트는 q·k 파일의 벡터를 여기에 넣어
    점수 파일의 점수와 같은지 봅니다.
    """
    q, k = _float32_array(q, "q"), _float32_array(k, "k")
    if q.ndim != 3 or k.ndim != 3:
        raise ValueError(f"q 와 k 는 (헤드, 토큰 수, d_head) 3차원이어야 합니다: q.shape={q.shape}, k.shape={k.shape}")
    if q.shape[0] != k.shape[0] or q.shape[2] != k.shape[2]:
        raise ValueError(f"q 와 k 의 헤드 수와 d_head 가 같아야 합니다: q.shape={q.shape}, k.shape={k.shape}")
    return q @ np.swapaxes(k, -1, -2)


def head_scores(model, text, prefix=""):
    """문장 하나 → (토큰, 쿼리 범위 (처음, 끝), 점수 (층, 헤드, 쿼리 수, 토큰 수) float32). 인자는 head_vectors 와 같습니다."""
    tokens, queries, q, k = head_vectors(model, text, prefix)
    return tokens, queries, np.stack([layer_scores(ql, kl) for ql, kl in zip(q, k)])


def _float32_array(a, name):
    """float32 로 적을 수 있는 실수 배열인지 봅니다 (복소수·문자열은 TypeError, float32 에 안 맞는 값은 ValueError)."""
    try:
        a = np.asarray(a)
    except (ValueError, TypeError) as err:  # 행마다 길이가 다른 리스트 등
        raise ValueError(f"{name} 를 배열로 만들 수 없습니다: {err}") from None
    if a.dtype.kind not in "biuf":  # 복소수를 float32 로 바꾸면 허수부가 조용히 사라집니다
        raise TypeError(f"{name} 는 실수 배열이어야 합니다: {name}.dtype={a.dtype}, {name}.shape={a.shape}")
    if a.dtype != np.float32:
        with np.errstate(invalid="ignore"):
            big = ~(np.abs(a.astype(np.float64)) <= np.finfo(np.float32).max)  # NaN 도 여기 걸립니다
        if big.any():
            where = tuple(int(i) for i in np.argwhere(big)[0])
            raise ValueError(f"{name} 의 {int(big.sum())}개 값이 float32 로 적을 수 있는 유한한 수가 아닙니다 "
                             f"(처음 자리 {where}: {a[where]!r}, float32 최댓값 {np.finfo(np.float32).max:.3e})")
        a = a.astype(np.float32)
    elif not np.isfinite(a).all():
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
        raise ValueError(f"{name} 에 유한하지 않은 값이 있습니다 (처음 자리 {where}: {a[where]!r})")
    return a


def pack(scores):
    """float32 배열 → 리틀 엔디언 바이트를 C 순서로 적은 base64 문자열. 값은 그대로(비트까지) 남습니다."""
    scores = _float32_array(scores, "scores")
    return base64.b64encode(np.ascontiguousarray(scores, dtype="<f4").tobytes()).decode("ascii")


def unpack(text, shape):
    """pack 의 역: base64 문자열 → float32 배열 (shape)."""
    if not isinstance(text, str):
        raise TypeError(f"text 는 base64 문자열이어야 합니다: {type(text).__name__}")
    shape = (shape,) if isinstance(shape, (int, np.integer)) else shape
    if not isinstance(shape, (tuple, list)) or not all(isinstance(s, (int, np.integer)) for s in shape):
        raise TypeError(f"shape 는 정수의 튜플이어야 합니다: {shape!r}")
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"shape 에 음수가 있습니다: shape={shape}")
    try:  # validate=True: base64 가 아닌 글자를 조용히 버리지 않습니다 ('@@@' 는 0 바이트가 되지 않고 오류)
        raw = base64.b64decode(text, validate=True)
    except ValueError as err:  # binascii.Error 는 ValueError 의 하위 클래스라서 이름을 바꿔 다시 냅니다
        raise ValueError(f"text 가 올바른 base64 가 아닙니다 ({err}): 글자 {len(text)}개, 앞부분 {text[:20]!r}") from None
    expected = 4 * int(np.prod(shape, dtype=np.int64))
    if len(raw) != expected:
        raise ValueError(f"text 는 {len(raw)} 바이트인데 shape={shape} 의 float32 는 {expected} 바이트입니다")
    return np.frombuffer(raw, dtype="<f4").reshape(shape)


def _checked_sentences(model, sentences, prefix):
    """문장마다 (글, 토큰, 쿼리 범위, q, k). 모양을 모델 설정과 맞춰 봅니다."""
    cfg = model.config
    layers, heads = cfg["num_hidden_layers"], cfg["num_attention_heads"]
    d_head = cfg["hidden_size"] // heads
    out = []
    for text in sentences:
        tokens, queries, q, k = head_vectors(model, text, prefix)
        assert q.shape == (layers, heads, queries[1] - queries[0], d_head) and q.dtype == np.float32, q.shape
        assert k.shape == (layers, heads, len(tokens), d_head) and k.dtype == np.float32, k.shape
        out.append((text, tokens, queries, q, k))
    return out


def qk_file(key, sentence, layer):
    """문장·층 하나의 q·k 파일 이름 (0부터 센 번호). 빌드(sitebuild/datafiles.py)는 datafiles_<key>() 가
    돌려준 조각 "qk-s<문장>-l<층>" 을 head_explorer-<key>-qk-s<문장>-l<층>.json 으로 씁니다."""
    return f"head_explorer-{key}-qk-s{sentence}-l{layer}.json"


def explorer_data(model, key, name, sentences, prefix, start, rows_note=""):
    """탐색기 JSON 하나 (점수). start 는 처음 보여 줄 문장·층·헤드(0부터)와 쿼리 토큰의 자리(토큰 목록 안, 0부터).

    문장마다 "qk" 에 층마다의 q·k 파일 이름(이 JSON 과 같은 폴더)을 적어 두어, 스크립트가 그 층을 볼 때 받습니다.
    """
    cfg = model.config
    layers, heads = cfg["num_hidden_layers"], cfg["num_attention_heads"]
    out = []
    for s, (text, tokens, queries, q, k) in enumerate(_checked_sentences(model, sentences, prefix)):
        scores = np.stack([layer_scores(ql, kl) for ql, kl in zip(q, k)])
        out.append({"text": text, "tokens": tokens, "queries": list(queries), "scores": pack(scores),
                    "qk": [qk_file(key, s, l) for l in range(layers)]})
    return {"format": FORMAT, "model": name,
            "layers": layers, "heads": heads, "d_head": cfg["hidden_size"] // heads,
            "scores": "float32 little-endian base64, (layer, head, query, key)", "rows_note": rows_note,
            "start": start, "sentences": out}


def explorer_vectors(model, key, name, sentences, prefix):
    """q·k 파일들: {"qk-s<문장>-l<층>": 그 층 모든 헤드의 q (쿼리 행만) 와 k (모든 토큰), float32 base64}."""
    files = {}
    for s, (_, tokens, queries, q, k) in enumerate(_checked_sentences(model, sentences, prefix)):
        for l in range(q.shape[0]):
            files[f"qk-s{s}-l{l}"] = {
                "format": QK_FORMAT, "model": name, "sentence": s, "layer": l,
                "heads": q.shape[1], "d_head": q.shape[3], "queries": list(queries), "tokens": len(tokens),
                "vectors": "float32 little-endian base64; q (head, query, d_head), k (head, token, d_head)",
                "q": pack(q[l]), "k": pack(k[l])}
    return files


def data_minilm():
    """실제 모델 들여다보기 페이지: all-MiniLM-L6-v2 (6층 × 12헤드). 처음에는 cat → sat 이 가장 큰 헤드 2-9, 쿼리 cat."""
    return explorer_data(load_model(), "minilm", "all-MiniLM-L6-v2", MINILM_SENTENCES, "",
                         {"sentence": 0, "layer": 1, "head": 8, "query": 2})


def datafiles_minilm():
    """all-MiniLM-L6-v2 의 문장·층마다 q·k 파일 (4문장 × 6층 = 24개)."""
    return explorer_vectors(load_model(), "minilm", "all-MiniLM-L6-v2", MINILM_SENTENCES, "")


def data_e5():
    """한국어 문장으로 보기 페이지: multilingual-e5-small (12층 × 12헤드). 처음에는 헤드 7-11, 쿼리 "가"."""
    return explorer_data(load_e5(), "e5", "multilingual-e5-small", E5_SENTENCES, PREFIX,
                         {"sentence": 0, "layer": 6, "head": 10, "query": 5},
                         rows_note="쿼리(왼쪽)는 문장의 조각만 고를 수 있습니다. <s>, 접두어 조각, </s>는 키로만 나옵니다.")


def datafiles_e5():
    """multilingual-e5-small 의 문장·층마다 q·k 파일 (2문장 × 12층 = 24개)."""
    return explorer_vectors(load_e5(), "e5", "multilingual-e5-small", E5_SENTENCES, PREFIX)
# --8<-- [end:data]
