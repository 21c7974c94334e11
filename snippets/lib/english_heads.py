"""6장(real_model.py)이 all-MiniLM-L6-v2 의 헤드를 재는 도구: 패턴마다 헤드가 준 몫, 문장들의 평균, 눈에 띄는 헤드 네 개와
그 그림. 트랜스포머 그림 장(heatmap.py)도 같은 헤드를 같은 값으로 그립니다.

import 할 때 아무것도 계산하거나 찍지 않습니다 (analysis 는 부를 때 한 번 계산합니다). 6장 페이지는 아래 절(patterns)을
그 장의 코드 사이에 보여 줍니다: 장의 스크립트를 import 하지 않고도 다른 장이 같은 분석을 쓰게 하려고 여기에 둡니다.
"""

import functools

import numpy as np

from bert_numpy import attention_maps, encode, load_model, tokenize
from english_sentences import SENTENCES
from head_stats import mean_pairwise_js

# --8<-- [start:patterns]
PUNCT = set(".,!?;:'\"")
PATTERNS = ["이전 토큰", "다음 토큰", "[CLS]", "[SEP]", "자기 자신", "문장부호", "엔트로피"]


def head_stats(maps, tokens):
    """쿼리 토큰 하나하나가 각 패턴에 준 가중치: {패턴: (층, 헤드, 쿼리 수)}."""
    n = len(tokens)
    idx = np.arange(n)
    punct = np.array([t in PUNCT for t in tokens])
    # [CLS] 에는 이전이 없고, [SEP] 에는 다음이 없습니다
    prev = np.where(idx > 0, maps[..., idx, np.maximum(idx - 1, 0)], np.nan)
    nxt = np.where(idx < n - 1, maps[..., idx, np.minimum(idx + 1, n - 1)], np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.nansum(np.where(maps > 0, maps * np.log(maps), 0.0), axis=-1)
    return {"이전 토큰": prev, "다음 토큰": nxt, "[CLS]": maps[..., 0], "[SEP]": maps[..., n - 1],
            "자기 자신": maps[..., idx, idx], "문장부호": maps[..., punct].sum(-1), "엔트로피": entropy}


def collect(sentences, model):
    """모든 문장의 모든 쿼리 토큰에 대해 평균 낸 패턴 값: {패턴: (6, 12)}, 층별 헤드 간 JS 거리 (6,),
    그리고 문장마다의 가중치 {문장: (6, 12, n, n)}."""
    per_pattern = {p: [] for p in PATTERNS}
    js, all_maps = [], {}
    for text in sentences:
        ids, toks = tokenize(model, text)
        _, weights = encode(model, ids)
        maps = all_maps[text] = np.stack([w[0] for w in weights]).astype(np.float64)
        for p, v in head_stats(maps, toks).items():
            per_pattern[p].append(v)
        js.append([mean_pairwise_js(layer) for layer in maps])
    means = {p: np.nanmean(np.concatenate(v, axis=-1), axis=-1) for p, v in per_pattern.items()}
    return means, np.mean(js, axis=0), all_maps


# --8<-- [end:patterns]


def name(layer, head):
    """Clark 외(2019)처럼 1부터 세는 "층-헤드" (6장 페이지의 name 과 같은 이름)."""
    return f"{layer + 1}-{head + 1}"


def showcase(stats):
    """습관이 뚜렷한 헤드 네 개 [(패턴, (층, 헤드))]: 이전 토큰, 다음 토큰, [CLS] 에 가장 많이 주는 헤드와 가장 넓게 보는 헤드."""
    ent = stats["엔트로피"]
    return [
        ("이전 토큰", np.unravel_index(stats["이전 토큰"].argmax(), (6, 12))),
        ("다음 토큰", np.unravel_index(stats["다음 토큰"].argmax(), (6, 12))),
        ("[CLS]", np.unravel_index(stats["[CLS]"].argmax(), (6, 12))),
        ("넓게 보기", np.unravel_index(ent.argmax(), ent.shape)),
    ]


@functools.cache
def analysis():
    """6장과 같은 계산 가운데 그림에 드는 것: ("The cat sat on the mat." 의 토큰, 그 가중치 (6, 12, n, n), 24문장의 통계)."""
    tokens, maps = attention_maps("The cat sat on the mat.")
    stats, _, _ = collect(SENTENCES, load_model())
    return tokens, maps, stats


def draw_showcase(tokens, maps, stats, narrow=False):
    """showcase(stats) 의 헤드 네 개가 한 문장(tokens, maps)을 보는 모습 (2 × 2). 6장과 트랜스포머 그림 장의 그림."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, label_heatmap_grid, width

    fig, axes = plt.subplots(2, 2, figsize=(width(narrow), 6.2 if narrow else 7.2), layout="constrained")
    for ax, (pattern, (layer, head)) in zip(axes.flat, showcase(stats)):
        value = stats["엔트로피" if pattern == "넓게 보기" else pattern][layer, head]
        label = f"엔트로피 {value:.2f}" if pattern == "넓게 보기" else f"평균 {value:.2f}"
        title = f"{name(layer, head)}: {pattern}\n24문장 {label}" if narrow else \
            f"헤드 {name(layer, head)}: {pattern}\n(24문장 {label})"
        im = heatmap(ax, maps[layer, head], tokens, tokens, annotate=False, title=title, xlabel="", ylabel="")
        ax.tick_params(axis="x", labelrotation=90)
    label_heatmap_grid(fig, axes, im, narrow)
    return fig
