"""보는 것과 시험하는 것: 헤드를 꺼 보고 무엇이 바뀌는지 실제 모델 두 개(all-MiniLM-L6-v2, multilingual-e5-small)에서 잽니다."""

# --8<-- [start:one_head]
import numpy as np

from bert_numpy import encode, switch_off, tokenize
from e5_numpy import PREFIX, load_e5

model = load_e5()
ids, tokens = tokenize(model, PREFIX + "고양이가 매트 위에 앉았다")
particle, host = tokens.index("가"), tokens.index("▁고양이")


def sentence_vector(hidden):
    """문장 임베딩: 토큰 평균을 길이 1 로 (float64 로 계산합니다)."""
    mean = hidden[0].astype(np.float64).mean(axis=0)
    return mean / np.linalg.norm(mean)


hidden, weights = encode(model, ids)
print(f"헤드 7-11: 조사 '가' → '▁고양이' 가중치 {weights[6][0, 10, particle, host]:.2f}")
# 헤드 7-11, 그리고 한국어 장이 이름 붙이지 않은 헤드 11-12
# (이 문장에서 끄면 임베딩이 가장 많이 움직이는 헤드)
for heads in ([(6, 10)], [(10, 11)]):
    # 0부터 셉니다: 헤드 7-11 은 (6, 10)
    off = switch_off(model, heads=heads)
    hidden_off, weights_off = encode(model, ids, heads_off=off)
    change = 1 - sentence_vector(hidden) @ sentence_vector(hidden_off)
    print(f"헤드 {heads[0][0] + 1}-{heads[0][1] + 1} 끄기: 1 − cos = {change:.5f}")
# --8<-- [end:one_head]

# --8<-- [start:checks]
from bert_numpy import Encoder

# 끈 헤드가 없는 목록
nothing, _ = encode(model, ids, heads_off=switch_off(model))
print("아무것도 끄지 않으면 결과가 같은가?", np.array_equal(nothing, hidden))
# 손으로 만든 모델: 7층 W_O 에서 헤드 11 의 행 32개를 0 으로 (저장된 weight 는 (출력, 입력) 이라 열)
d_head = model.config["hidden_size"] // model.config["num_attention_heads"]
edited = dict(model.weights)
name = "encoder.layer.6.attention.output.dense.weight"
edited[name] = edited[name].copy()
edited[name][:, 10 * d_head:11 * d_head] = 0
by_hand, _ = encode(Encoder(edited, model.config, model.tokenizer), ids)
switched, _ = encode(model, ids, heads_off=switch_off(model, heads=[(6, 10)]))
print("W_O 의 행을 0 으로 만든 모델과 같은가?", np.allclose(by_hand, switched, rtol=0, atol=1e-6))
# --8<-- [end:checks]

# --8<-- [start:worth]
from ablation import chapter_sentences, stored_worth
from bert_numpy import load_model

# 두 모델 장의 문장 가운데 네 개마다 하나 (영어 6개, 한국어 7개): 한 헤드를 끌 때마다 모델을 다시 돌리므로
MODELS = {
    "all-MiniLM-L6-v2": ("minilm", load_model(), chapter_sentences("real_model")[::4]),
    "multilingual-e5-small": ("e5", model, [PREFIX + s for s in chapter_sentences("korean_model")[::4]]),
}
worth = {label: stored_worth(key, m, texts) for label, (key, m, texts) in MODELS.items()}


def name(layer, head):
    return f"{layer + 1}-{head + 1}"


for label, w in worth.items():
    # (층, 헤드): 문장 평균, 마지막 칸(층 전체)은 빼고
    emb = w["embedding"][:, :, :-1].mean(axis=0)
    att = w["attention"][:, :, :-1].mean(axis=0)
    top_e = np.unravel_index(emb.argmax(), emb.shape)
    top_a = np.unravel_index(att.argmax(), att.shape)
    print(f"{label}: 문장 {len(w['embedding'])}개, 헤드 {emb.size}개")
    print(f"  1 − cos 중앙값 {np.median(emb):.4f}")
    print(f"    가장 큰 헤드 {name(*top_e)}: {emb[top_e]:.4f}")
    print(f"  JS 중앙값 {np.median(att):.4f}")
    print(f"    가장 큰 헤드 {name(*top_a)}: {att[top_a]:.4f}")
# --8<-- [end:worth]

# --8<-- [start:striking]
def head_of(page_name):
    """페이지의 이름 "2-8" → 0부터 센 (층, 헤드) = (1, 7)."""
    layer, head = page_name.split("-")
    return int(layer) - 1, int(head) - 1


# 모델 장들이 습관으로 이름 붙인 헤드: 그 장의 통계가 고른 것입니다 (실제 모델 장의 네 헤드, 한국어 장의 다섯)
NAMED = {
    "all-MiniLM-L6-v2": ["이전 토큰 1-3", "다음 토큰 2-9", "[CLS] 5-6", "넓게 보기 1-1"],
    "multilingual-e5-small": ["이전 토큰 1-3", "다음 토큰 2-8", "다음 토큰 3-7", "<s> 5-6", "조사 7-11"],
}
STRIKING = {label: {n: head_of(n.split()[-1]) for n in names} for label, names in NAMED.items()}


def rank_in_layer(values, layer, head):
    """같은 층 헤드들 가운데 몇 등인가 (1 = 가장 큼)."""
    return int((values[layer] > values[layer, head]).sum()) + 1


for label, heads in STRIKING.items():
    emb = worth[label]["embedding"][:, :, :-1].mean(axis=0)
    att = worth[label]["attention"][:, :, :-1].mean(axis=0)
    print(f"{label}: 같은 층 헤드 12개 가운데 순위")
    for pattern, (layer, head) in heads.items():
        print(f"  {pattern}: 1 − cos {rank_in_layer(emb, layer, head)}등, "
              f"JS {rank_in_layer(att, layer, head)}등")
# --8<-- [end:striking]

# --8<-- [start:layers]
for label, w in worth.items():
    # 층마다 그 층의 헤드를 모두 껐을 때
    whole = w["embedding"][:, :, -1].mean(axis=0)
    print(f"{label}: 층 하나를 통째로 끈 1 − cos")
    # 휴대전화의 좁은 출력 상자에 맞게 한 줄에 셋
    for start in range(0, len(whole), 3):
        print("  " + "  ".join(f"{k + 1}층 {v:.3f}" for k, v in enumerate(whole[start:start + 3], start)))
    print(f"  가장 큰 층: {whole.argmax() + 1}층, 그다음 {np.argsort(whole)[-2] + 1}층")
# --8<-- [end:layers]

# --8<-- [start:halves]
def ranks(values):
    """순위 (0 = 가장 작음). 같은 값이 없다고 봅니다."""
    return np.argsort(np.argsort(values))


def agreement(a, b):
    """두 값 목록의 순위 상관 (스피어만: 순위끼리의 상관계수)."""
    return np.corrcoef(ranks(a), ranks(b))[0, 1]


for label, w in worth.items():
    # 문장을 앞뒤 반으로 나눠 따로 잰 값: 헤드의 순위는 같은 층의 헤드 12개끼리 매깁니다
    half = len(w["embedding"]) // 2
    for measure in ("embedding", "attention"):
        a, b = (w[measure][part, :, :-1].mean(axis=0) for part in (slice(None, half), slice(half, None)))
        # 값이 모두 0 인 층(마지막 층의 JS)은 순위가 없으므로 뺍니다
        layers = [k for k in range(len(a)) if a[k].any()]
        r = np.array([agreement(a[k], b[k]) for k in layers])
        low = layers[int(r.argmin())]
        what = "1 − cos" if measure == "embedding" else "JS"
        print(f"{label} {what}: 층 안 순위 상관 {r.min():.2f}–{r.max():.2f}")
        print(f"  중앙값 {np.median(r):.2f}, 가장 낮은 층 {low + 1}층")
# --8<-- [end:halves]

# --8<-- [start:quiz_1]
minilm, everything = MODELS["all-MiniLM-L6-v2"][1], chapter_sentences("real_model")
cls_head = head_of("5-6")
# 쿼리마다 [CLS] 에 준 몫
shares = [encode(minilm, tokenize(minilm, t)[0])[1][4][0, 5, :, 0] for t in everything]
emb = worth["all-MiniLM-L6-v2"]["embedding"][:, :, :-1].mean(axis=0)
print(f"헤드 5-6 이 [CLS] 에 주는 몫 ({len(everything)}문장 평균): {np.concatenate(shares).mean():.2f}")
print(f"끄면 1 − cos {emb[cls_head]:.5f}, 같은 층 헤드의 중앙값 {np.median(emb[cls_head[0]]):.5f}")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
e5 = worth["multilingual-e5-small"]
last = e5["attention"][:, 11, :-1].mean(axis=0)
print("12층 헤드를 끌 때 다른 헤드의 JS 거리:", np.unique(last))
print(f"12층 헤드의 1 − cos 중앙값 {np.median(e5['embedding'][:, 11, :-1].mean(axis=0)):.4f}, "
      f"1층은 {np.median(e5['embedding'][:, 0, :-1].mean(axis=0)):.4f}")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
for how in ("zero", "uniform"):
    # 다음 토큰 헤드 2-8
    off = switch_off(model, heads=[(1, 7)])
    hidden_off, weights_off = encode(model, ids, heads_off=off, ablation=how)
    row = weights_off[1][0, 7, particle]
    print(f"{how:7s}: 2-8 의 '가' 행 합 {row.sum():.2f}, 가장 큰 몫 {row.max():.3f}, "
          f"1 − cos {1 - sentence_vector(hidden) @ sentence_vector(hidden_off):.5f}")
# --8<-- [end:quiz_3]


# --8<-- [start:figures]
def figure_worth(narrow=False):
    """두 모델의 모든 헤드: 하나만 껐을 때 문장 임베딩이 움직인 거리(1 − cos)와 다른 헤드의 어텐션이 바뀐 정도(JS).

    가로축은 층, 점 하나가 헤드 하나입니다. 깊이가 두 값을 크게 좌우하므로 같은 층 안에서 견주도록 층마다 세로로
    모았고, 모델 장들이 이름 붙인 헤드는 색과 이름으로 표시합니다. 1 − cos 는 헤드마다 몇 배씩 달라서 로그 눈금입니다.
    넓은 판은 모델 × 잰 값의 2 × 2, 좁은 판은 네 칸을 위아래로 쌓습니다.
    """
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    theme = current_theme()
    measures = [("embedding", "문장 임베딩 1 − cos"), ("attention", "다른 헤드의 어텐션 JS")]
    panels = [(label, key, title) for label in worth for key, title in measures]
    shape, height = ((4, 1), 11.6) if narrow else ((2, 2), 6.6)
    fig, axes = plt.subplots(*shape, figsize=(width(narrow), height), layout="constrained")
    # 같은 층의 점이 겹치지 않게 옆으로 조금 흩습니다 (늘 같은 자리)
    rng = np.random.default_rng(0)
    for ax, (label, key, title) in zip(axes.flat, panels):
        values = worth[label][key][:, :, :-1].mean(axis=0)
        n_layers, n_heads = values.shape
        x = np.arange(n_layers)[:, None] + 1 + rng.uniform(-0.25, 0.25, values.shape)
        y = np.maximum(values, 1e-6) if key == "embedding" else values
        ax.scatter(x.ravel(), y.ravel(), s=9, color=theme["muted"], alpha=0.7, linewidths=0)
        for k, (pattern, (layer, head)) in enumerate(STRIKING[label].items()):
            color = [theme["accent"], theme["accent2"], "#26a69a", "#ffa000", "#8e24aa"][k % 5]
            ax.scatter(x[layer, head], y[layer, head], s=36, color=color, edgecolors=theme["text"], linewidths=0.6,
                       zorder=3, label=pattern)
        # 눈금은 10^-4 대신 0.0001 처럼 (로그 눈금의 지수 표기에는 한글 글꼴에 없는 − 가 들어갑니다)
        if key == "embedding":
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(lambda v, _: f"{v:.{max(0, -int(np.floor(np.log10(v))))}f}")
            ax.yaxis.set_minor_formatter("")
        ax.set_xticks(range(1, n_layers + 1), labels=[str(k) if k % (2 if n_layers > 6 else 1) == 1 or n_layers <= 6
                                                       else "" for k in range(1, n_layers + 1)])
        ax.set_xlabel("층")
        # 나눔고딕에 없는 − 는 DejaVu Sans 로
        ax.set_title(f"{label}\n{title}", fontfamily=["NanumGothic", "DejaVu Sans"])
        ax.grid(axis="y", alpha=0.4)
        # 어텐션 칸의 오른쪽 위는 비어 있습니다 (뒤 층일수록 값이 작아서)
        if key == "attention":
            ax.legend(loc="upper right", frameon=False, handletextpad=0.2, borderaxespad=0.2)
    return fig
# --8<-- [end:figures]


# 브라우저 워커가 (나중에 헤드 끄기 스위치를 달 때) 견줄 numpy 의 값: 여러분의 문장으로·한국어 장의 탐색기 문장 둘에서
# 끄는 방법 몇 가지. 헤드와 층은 페이지의 이름(1부터)으로 적습니다.
REFERENCE_RUNS = [
    (["7-11"], [], "zero"),
    (["2-8"], [], "zero"),
    (["2-8"], [], "uniform"),
    (["1-3", "2-8", "3-7"], [], "zero"),
    ([], [12], "zero"),
]


def _rounded(values, digits=6):
    return [None if v is None else float(f"{v:.{digits}g}") for v in values]


def reference_run(m, ids, heads, layers, ablation):
    """문장 하나(ids)에서 페이지 이름으로 적은 헤드·층을 끈 결과: (끈 헤드 (층, 헤드), 은닉 상태, 가중치 (층, 헤드, n, n))."""
    off = switch_off(m, heads=[head_of(h) for h in heads], layers=[layer - 1 for layer in layers])
    hidden_off, weights_off = encode(m, ids, heads_off=off, ablation=ablation)
    return off, hidden_off, np.stack([w[0] for w in weights_off])


def data_reference():
    """multilingual-e5-small 에서 끄기 전과 뒤의 값 (문장 둘 × 끄는 방법 다섯) 과 두 모델의 헤드마다 잰 값.

    - embedding: 문장 임베딩 (토큰 평균을 길이 1 로, float32 base64), one_minus_cos: 끄기 전과의 1 − cos.
    - moved[l][h]: 헤드 (l, h) 의 가중치가 끄기 전과 얼마나 다른가 (쿼리 행마다 JS 거리, 모든 토큰의 행에서 평균).
      끈 헤드는 null 입니다.
    - particles: 조사 어림(particles.find_particles)이 찾은 조사마다 헤드 7-11 이 붙은 말에 준 가중치, 끄기 전과 뒤.
    - worth: 이 페이지의 그림과 같은 값 (문장 평균, [층][헤드], 마지막 칸은 층 전체를 끈 값).
    """
    from ablation import moved, pooled
    from head_explorer import E5_SENTENCES, pack
    from particles import find_particles, particle_weights

    m = load_e5()
    n_layers, n_heads = m.config["num_hidden_layers"], m.config["num_attention_heads"]
    start = len(tokenize(m, PREFIX.strip())[1]) - 1
    sentences = []
    for text in E5_SENTENCES:
        ids, toks = tokenize(m, PREFIX + text)
        every = np.ones((1, len(ids)), dtype=np.int64)
        hidden, weights = encode(m, ids)
        weights = np.stack([w[0] for w in weights])
        base = pooled(hidden, every)[0]
        found = find_particles(toks, start, len(toks) - 1)
        runs = []
        for heads, layers, how in REFERENCE_RUNS:
            off, hidden_off, weights_off = reference_run(m, ids, heads, layers, how)
            vec = pooled(hidden_off, every)[0]
            js = [[None] * n_heads for _ in range(n_layers)]
            for layer in range(n_layers):
                keep = np.flatnonzero(~off[layer])
                d = moved(weights[None, layer, keep], weights_off[None, layer, keep], every.astype(bool))[0]
                for h, v in zip(keep.tolist(), d.tolist()):
                    js[layer][h] = v
            runs.append({"heads": heads, "layers": layers, "ablation": how,
                         "one_minus_cos": float(f"{1 - base @ vec:.6g}"), "embedding": pack(vec),
                         "moved": [_rounded(row) for row in js],
                         "particles_after": _rounded(particle_weights(weights_off, found))})
        sentences.append({"text": text, "ids": ids.tolist(), "tokens": toks, "embedding": pack(base),
                          "particles": [{"at": i, "host": host} for i, host in found],
                          "particles_before": _rounded(particle_weights(weights, found)), "runs": runs})
    return {
        "format": "head-ablation-reference/1",
        "model": "multilingual-e5-small", "prefix": PREFIX, "layers": n_layers, "heads": n_heads,
        "ablations": {"zero": "끈 헤드의 출력(가중치 @ V)을 W_O 앞에서 0 으로. b_O 는 그대로. 기본값",
                      "uniform": "끈 헤드의 쿼리를 0 으로: 패딩이 아닌 키마다 같은 가중치 1/n"},
        "sentences": sentences,
        "worth": {label: {"sentences": MODELS[label][2],
                          **{k: [_rounded(row) for row in w[k].mean(axis=0)] for k in ("embedding", "attention")}}
                  for label, w in worth.items()},
    }
