"""다음 토큰 고르기 페이지의 도구(docs/assets/next-token.js)가 읽는 데이터: 빌드 때 한 번 만들고 캐시합니다.

프롬프트 여덟 개를 20걸음씩 탐욕 디코딩(greedy decoding)하며, 걸음마다 적습니다.
- 후보 50개의 id 와 로짓, 손잡이의 자리마다 나머지 토큰의 몫 (sampling.summarize): 브라우저가 온도·top-k·top-p 를
  적용합니다. 어휘 전체로 미리 더해 둔 몫이라 손잡이의 어느 자리에서나 답이 어휘 전체의 계산과 같습니다.
- 층·헤드마다 마지막 자리(다음 토큰을 고르는 자리)의 어텐션 가중치: 0..65535 의 정수(1/65535 단위)로.
  첫 걸음에는 프롬프트의 모든 자리의 행도 (prefill): 인과 마스크가 오른쪽 키를 가린 것을 그대로 보입니다.
브라우저에는 이런 출력만 가고, 모델의 파라미터는 가지 않습니다.

이 모듈은 import 할 때 모델을 읽지 않습니다 (빌드가 datafiles_steps 를 부를 때만 읽고, 끝나면 놓습니다).
"""

# --8<-- [start:data]
import base64

import numpy as np

from gemma_decoder import generate, load_gemma
from sampling import CANDIDATES, summarize

PROMPTS = [
    "나는 학교에",
    "옛날 옛적에 한 마을에",
    "대한민국의 수도는",
    "고양이가 매트 위에",
    "1, 2, 3, 4,",
    "봄이 오면 산에",
    "어머니는 부엌에서",
    "김치찌개를 맛있게 끓이려면",
]
# 프롬프트마다 이어 쓸 토큰 수
STEPS = 20
INVISIBLE = {"\n": "↵", "\t": "⇥", "\u200b": "⟨ZWSP⟩", "\u00a0": "⟨NBSP⟩"}


def shown(piece):
    """조각을 화면에 보일 글로: 보이지 않는 글자(줄바꿈, 탭, 폭 없는 공백)는 기호로 바꿉니다. ▁ 는 그대로 둡니다."""
    if not isinstance(piece, str):
        raise TypeError(f"piece 는 문자열이어야 합니다: {type(piece).__name__}")
    return "".join(INVISIBLE.get(ch, ch) for ch in piece)


def pack_attention(weights):
    """[층마다 (헤드, 자리)] → base64 글: (층, 헤드, 자리) 순서의 리틀 엔디언 uint16, 값 = round(가중치 × 65535)."""
    w = np.stack(weights)
    if w.ndim != 3 or np.any(w < 0) or np.any(w > 1):
        raise ValueError(f"weights 는 0..1 값의 [층마다 (헤드, 자리)] 여야 합니다: 모양 {w.shape}")
    return base64.b64encode(np.round(w * 65535).astype("<u2").tobytes()).decode()


def unpack_attention(text, layers, heads):
    """pack_attention 의 역: (층, 헤드, 자리) float64."""
    q = np.frombuffer(base64.b64decode(text), dtype="<u2")
    return (q / 65535).reshape(layers, heads, -1)


def datafiles_steps():
    """{"index": 프롬프트 목록과 모델의 숫자, "p0" … "p7": 프롬프트마다 걸음별 후보·나머지의 몫·어텐션}."""
    model = load_gemma()
    cfg, tok = model.cfg, model.tokenizer
    prompts = [tok.encode(t) for t in PROMPTS]
    parts = [{"prompt": t, "ids": ids, "steps": []} for t, ids in zip(PROMPTS, prompts)]
    for step, last, weights, chosen in generate(model, prompts, STEPS):
        for part, z, w, token in zip(parts, last, weights, chosen):
            s = summarize(z)
            # 프롬프트를 한 번에 읽을 때의 모든 행: (층, 헤드, 쿼리 × 키), 대각선 오른쪽은 인과 마스크로 0
            if step == 0:
                n = len(part["ids"])
                part["prefill"] = pack_attention([layer.reshape(layer.shape[0], n * n) for layer in w])
            part["steps"].append({"token": token, **s, "attention": pack_attention([layer[:, -1] for layer in w])})
    for part in parts:
        used = set(part["ids"]) | {i for s in part["steps"] for i in [s["token"], *s["ids"]]}
        part["pieces"] = {str(i): shown(tok.piece(i)) for i in sorted(used)}
        part["greedy_text"] = tok.decode([s["token"] for s in part["steps"]])
    index = {
        "prompts": PROMPTS, "steps": STEPS, "vocab": cfg["vocab"], "layers": cfg["layers"], "heads": cfg["heads"],
        "global_layers": cfg["global_layers"], "window": cfg["window"], "candidates": CANDIDATES,
        "bos": cfg["bos"],
        # 도구가 처음 그릴 때 함께 받는 파일 (첫 프롬프트)
        "first_view": ["next_token_data-steps-p0.json"],
    }
    return {"index": index, **{f"p{j}": part for j, part in enumerate(parts)}}
# --8<-- [end:data]
