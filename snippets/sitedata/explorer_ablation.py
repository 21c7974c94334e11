"""헤드 탐색기의 "헤드 끄기": 두 모델 페이지의 탐색기 문장마다, 헤드 하나와 층 하나를 끈 결과를 빌드 때 numpy 로.

"실제 모델 들여다보기"(all-MiniLM-L6-v2)와 "한국어 문장으로 보기"(multilingual-e5-small)에는 브라우저에 모델이
없습니다. 그래서 탐색기(docs/assets/head-explorer.js)에서 독자가 헤드나 층을 끄면, 여기서 미리 계산해 둔 값을
보여 줍니다. 끄는 방법과 재는 것은 "보는 것과 시험하는 것" 페이지와 같습니다 (ablation.head_effects: 헤드의 출력을
W_O 앞에서 0 으로, 문장 임베딩의 1 − cos, 뒤 층 헤드마다 어텐션의 JS 거리를 진짜 토큰의 모든 쿼리 행에서 평균).
한국어 모델은 탐색기와 같이 문장 앞에 접두어 "query: " 를 붙여 계산하고, <s>·접두어·</s> 의 행도 평균에 넣습니다
("여러분의 문장으로" 의 워커와 data/head_ablation-reference.json 과 같은 행).

왜 따로 된 파일인가
    탐색기의 첫 화면(점수 JSON)은 페이지 무게 예산(1 MB) 안에 있어야 하고, 헤드를 끄는 독자는 일부입니다. 그래서
    이 값은 data/explorer_ablation-<모델>.json 에 두고, 탐색기가 독자의 첫 "끄기" 에서야 받습니다.
    뒤 층의 헤드 값은 모두 싣지 않고 가장 많이 움직인 TOP 개만 싣습니다 (파일이 수십 KB 로 작게).
    값은 유효숫자 6자리로 적습니다: 화면은 1 − cos 를 소수 다섯째 자리, JS 거리를 넷째 자리까지 보이므로 충분하고,
    float32 계산의 마지막 자리(CPU 마다 다릅니다)를 글자로 옮기지 않습니다.
확인: tests/test_explorer_ablation.py (numpy 로 다시 계산해 견줍니다), tests/test_explorer_ablation_browser.py.
"""

# --8<-- [start:data]
import numpy as np

from ablation import head_effects
from bert_numpy import load_model
from e5_numpy import PREFIX, load_e5
from head_explorer import E5_SENTENCES, MINILM_SENTENCES

FORMAT = "explorer-ablation/1"
# 끈 것마다 실을 "가장 많이 움직인 뒤 층 헤드" 의 수
TOP = 5


def _round(x):
    """유효숫자 6자리의 float (JSON 에 짧게)."""
    return float(f"{float(x):.6g}")


def moved_top(moved, top=TOP):
    """뒤 층 헤드마다의 JS 거리 (층, 헤드) → 가장 큰 top 개 [[층, 헤드, 값]] (0부터, 큰 것부터; 같으면 앞 헤드).

    0 인 헤드(끈 층과 그 앞 층)는 넣지 않습니다: 마지막 층을 끄면 빈 목록입니다.
    """
    moved = np.asarray(moved, dtype=np.float64)
    if moved.ndim != 2 or not np.isfinite(moved).all() or (moved < 0).any():
        raise ValueError(f"moved 는 0 이상의 유한한 (층, 헤드) 배열이어야 합니다: shape={moved.shape}")
    if not (isinstance(top, int) and top > 0):
        raise ValueError(f"top 은 양의 정수여야 합니다: top={top!r}")
    flat = moved.ravel()
    # 큰 값부터, 같으면 앞 번호부터 (안정 정렬)
    order = np.argsort(-flat, kind="stable")[:top]
    n_heads = moved.shape[1]
    return [[int(k // n_heads), int(k % n_heads), _round(flat[k])] for k in order if flat[k] > 0]


def explorer_ablation(model, name, sentences, prefix=""):
    """탐색기의 문장마다, 헤드 하나와 층 하나를 끈 결과 (JSON 으로 바꿀 수 있는 dict).

    sentences[s]["one_minus_cos"][l][h] 는 l층 h번 헤드(0부터)를 껐을 때, [l][헤드 수] 는 l층 전체를 껐을 때의
    1 − cos 이고, "moved" 의 같은 자리는 그때 가장 많이 움직인 뒤 층 헤드들 (moved_top) 입니다.
    """
    effects = head_effects(model, [prefix + s for s in sentences])
    cfg = model.config
    out = []
    for s, text in enumerate(sentences):
        cos = effects["embedding"][s]
        out.append({"text": text,
                    "one_minus_cos": [[_round(v) for v in row] for row in cos],
                    "moved": [[moved_top(m) for m in row] for row in effects["moved"][s]]})
    return {"format": FORMAT, "model": name,
            "layers": cfg["num_hidden_layers"], "heads": cfg["num_attention_heads"], "top": TOP,
            "prefix": prefix,
            "method": "zero: 끈 헤드의 출력(가중치 @ V)을 W_O 앞에서 0 으로 (bert_numpy.switch_off, ablation.head_effects)",
            "columns": "one_minus_cos[l][h]: l층 h번 헤드만 끔 (0부터), [l][heads]: l층 전체를 끔",
            "sentences": out}


def data_minilm():
    """실제 모델 들여다보기: all-MiniLM-L6-v2, 탐색기의 네 문장 × (헤드 72개 + 층 6개)."""
    return explorer_ablation(load_model(), "all-MiniLM-L6-v2", MINILM_SENTENCES)


def data_e5():
    """한국어 문장으로 보기: multilingual-e5-small, 탐색기의 두 문장 × (헤드 144개 + 층 12개)."""
    return explorer_ablation(load_e5(), "multilingual-e5-small", E5_SENTENCES, PREFIX)
# --8<-- [end:data]
