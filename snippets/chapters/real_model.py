"""실제 모델 들여다보기: all-MiniLM-L6-v2 의 헤드 72개(6층 × 12헤드)를 사이트의 numpy 코어로 분석합니다."""

# --8<-- [start:one_sentence]
import numpy as np

from bert_numpy import attention_maps, encode, load_model, tokenize
from head_stats import mean_pairwise_js

np.set_printoptions(precision=2, suppress=True)

# maps: (층 6, 헤드 12, n, n)
tokens, maps = attention_maps("The cat sat on the mat.")
print("토큰:", tokens)
print("가중치:", maps.shape)
print("모든 행의 합이 1인가?", bool(np.allclose(maps.sum(-1), 1, atol=1e-5)))
# --8<-- [end:one_sentence]

# --8<-- [start:layer1]
# 1층 헤드마다: 대부분의 쿼리 행이 [CLS] (0번 열) 에 가장 큰 가중치를 주는가, 그리고 [CLS] 에 주는 평균 몫.
def name(layer, head):
    """Clark 외(2019)처럼 1부터 세는 "층-헤드"."""
    return f"{layer + 1}-{head + 1}"


# 헤드 12개마다: [CLS] 가 1등인 행의 비율과 [CLS] 에 주는 평균 몫
layer1_cls_top = (maps[0].argmax(axis=-1) == 0).mean(axis=-1)
layer1_cls_share = maps[0][:, :, 0].mean(axis=-1)
cls_heads = [name(0, h) for h in range(12) if layer1_cls_top[h] > 0.5]
print("행 대부분이 [CLS] 를 가장 많이 보는")
print(f"1층 헤드 {len(cls_heads)}개:")
for start in range(0, len(cls_heads), 5):
    print(" ", " ".join(cls_heads[start:start + 5]))
print(f"그 헤드들의 [CLS] 몫: {layer1_cls_share[layer1_cls_top > 0.5].min():.2f}"
      f"–{layer1_cls_share[layer1_cls_top > 0.5].max():.2f}")
# --8<-- [end:layer1]

# 문장들은 english_sentences.py 에, 헤드마다 재는 패턴은 english_heads.py 에 있습니다 (머리 지우기 장, 트랜스포머 그림 장도 씁니다)
from english_heads import PATTERNS, collect, draw_showcase, showcase
from english_sentences import SENTENCES
# --8<-- [start:sentences_use]
model = load_model()
stats, js_layers, sentence_maps = collect(SENTENCES, model)
print(f"문장 {len(SENTENCES)}개")
print(f"쿼리 토큰 {sum(len(tokenize(model, s)[1]) for s in SENTENCES)}개")
# --8<-- [end:sentences_use]

# --8<-- [start:top_heads]
print("가장 많이 보는 헤드 셋 (평균 몫)")
for pattern in PATTERNS[:-1]:
    order = np.argsort(stats[pattern], axis=None)[::-1][:3]
    best = [np.unravel_index(i, stats[pattern].shape) for i in order]
    print(pattern)
    print(" " + ", ".join(f"{name(*lh)} ({stats[pattern][lh]:.2f})" for lh in best))
ent = stats["엔트로피"]
broad, sharp = np.unravel_index(ent.argmax(), ent.shape), np.unravel_index(ent.argmin(), ent.shape)
print(f"가장 넓게 보는 헤드 {name(*broad)} (엔트로피 {ent[broad]:.2f})")
print(f"가장 좁게 보는 헤드 {name(*sharp)} (엔트로피 {ent[sharp]:.2f})")
# --8<-- [end:top_heads]

# --8<-- [start:clark_compare]
over_half = {p: [name(*lh) for lh in zip(*np.nonzero(stats[p] > 0.5))] for p in ("이전 토큰", "다음 토큰")}
print("50% 넘게 주는 헤드")
print("  이전 토큰:", over_half["이전 토큰"])
print("  다음 토큰:", over_half["다음 토큰"])
print("층별 평균 (1–6층): 몫과 엔트로피")
for pattern in ("[CLS]", "[SEP]", "엔트로피"):
    print(pattern, " ".join(f"{v:.2f}" for v in stats[pattern].mean(axis=1)))
# --8<-- [end:clark_compare]

# --8<-- [start:random_baseline]
# 비교: 구조는 같고 파라미터만 학습 전처럼 무작위인 모델 (BERT 의 초기화: 정규분포, 표준편차 0.02)
rng = np.random.default_rng(0)
random_weights = {k: (rng.standard_normal(v.shape) * 0.02).astype(np.float32)
                  if v.ndim == 2 else np.zeros_like(v) for k, v in model.weights.items()}
for k in random_weights:
    if k.endswith("LayerNorm.weight"):
        random_weights[k] = np.ones_like(random_weights[k])
random_model = type(model)(random_weights, model.config, model.tokenizer)
random_stats, random_js, _ = collect(SENTENCES, random_model)

mean_n = np.mean([len(tokenize(model, s)[1]) for s in SENTENCES])
print("이전 토큰 몫의 최댓값")
print(f"  학습됨 {stats['이전 토큰'].max():.2f}, 무작위 {random_stats['이전 토큰'].max():.2f}")
print(f"  (고르게 나누면 약 1/{mean_n:.0f})")
print("평균 엔트로피 (나트)")
print(f"  학습됨 {stats['엔트로피'].mean():.2f}, 무작위 {random_stats['엔트로피'].mean():.2f}")
print("층별 헤드 사이 평균 JS 거리 (1–6층)")
print("학습됨", " ".join(f"{v:.2f}" for v in js_layers))
print("무작위", " ".join(f"{v:.2f}" for v in random_js))
# 0.02 는 이 폭에서 1/√d_model 보다 작습니다. 쿼리와 키가 한 번씩 곱해지므로 점수의 퍼짐은 그 비의 제곱으로 줄어듭니다.
d_model = model.config["hidden_size"]
ratio = 0.02 * np.sqrt(d_model)
q0, k0 = encode(random_model, tokenize(model, SENTENCES[0])[0], return_qk=True)[2][0]
init_spread = float((q0 @ np.swapaxes(k0, -1, -2) / np.sqrt(q0.shape[-1])).std())
# 편향이 0 이라서 W_Q, W_K 를 c 배 하면 점수는 정확히 c² 배입니다: 같은 행렬을 1/√d_model 크기로 키운 값도 셉니다.
print("표준편차 0.02 는 (768 은 BERT-base 의 폭)")
print(f"  폭 {d_model}: 1/√{d_model}({1 / np.sqrt(d_model):.3f})의 {ratio:.2f}배")
print(f"  폭 768: 1/√768({1 / np.sqrt(768):.3f})의 {0.02 * np.sqrt(768):.2f}배")
print(f"1층 점수(÷√d_k)의 표준편차: {init_spread:.2f}")
print(f"  같은 행렬을 1/√d_model 크기로: {init_spread / ratio ** 2:.2f}")
# --8<-- [end:random_baseline]

# --8<-- [start:korean]
vocab = model.tokenizer.get_vocab()
print(f"어휘 사전의 한글 음절 토큰: {sum(any('가' <= c <= '힣' for c in t) for t in vocab)}개")
# 영어용 정규화(소문자로 바꾸고 악센트 지우기)가 유니코드 분해(NFD)를 하면서 음절을 자모로 풉니다.
print("정규화한 '나는':", [hex(ord(c)) for c in model.tokenizer.normalizer.normalize_str("나는")])
for text in ["나는 학교에 간다", "고양이가 매트 위에 앉았다."]:
    # [CLS], [SEP] 를 뺀 조각
    pieces = tokenize(model, text)[1][1:-1]
    print(text)
    print(f"  → {len(pieces)}조각, [UNK] {pieces.count('[UNK]')}개")
    # 조각을 여섯 개씩 한 줄에 (휴대전화의 출력 상자에 맞게)
    for i in range(0, len(pieces), 6):
        print("   ", " ".join(pieces[i : i + 6]))
# --8<-- [end:korean]

# --8<-- [start:cat_sat]
cat, sat = tokens.index("cat"), tokens.index("sat")
# 헤드 72개가 cat → sat 에 준 가중치
cs = maps[:, :, cat, sat]
top = np.unravel_index(cs.argmax(), cs.shape)
print(f"cat → sat 이 가장 큰 헤드: {name(*top)} ({cs[top]:.2f})")
print(f"72개 헤드 평균: {cs.mean():.2f}")
print(f"24문장에서 다음 토큰에 주는 몫: {stats['다음 토큰'][top]:.2f}")
# --8<-- [end:cat_sat]

# --8<-- [start:word_order]
# 위치 임베딩(position embedding)을 모든 자리에서 같은 벡터(512개 자리의 평균)로 바꾼 모델:
# 토큰의 내용은 그대로 두고 "몇 번째 자리인가" 라는 정보만 지웁니다.
# (512, 384): 자리마다 학습된 벡터
pos = model.weights["embeddings.position_embeddings.weight"]
no_order_weights = dict(model.weights)
no_order_weights["embeddings.position_embeddings.weight"] = np.broadcast_to(pos.mean(axis=0), pos.shape).copy()
no_order = type(model)(no_order_weights, model.config, model.tokenizer)

ids, _ = tokenize(model, "The cat sat on the mat.")
maps_no_order = np.stack([w[0] for w in encode(no_order, ids)[1]])
# 이전 토큰 헤드 (1-3) 와, [CLS] 를 뺀 쿼리들 (그 바로 앞 토큰은 q - 1)
prev_head = np.unravel_index(stats["이전 토큰"].argmax(), (6, 12))
q = np.arange(1, len(tokens))
with_order = maps[prev_head][q, q - 1].mean()
without_order = maps_no_order[prev_head][q, q - 1].mean()
print(f"헤드 {name(*prev_head)}: 바로 앞 토큰에 주는 평균 몫")
print(f"  위치 정보 있음 {with_order:.2f}, 없음 {without_order:.2f}")
print(f"  토큰 {len(tokens)}개에 고르게 나누면 {1 / len(tokens):.2f}")
the1, the2 = [i for i, t in enumerate(tokens) if t == "the"]
print("위치 정보가 없을 때")
print("  두 'the' 의 가중치 행이 같은가?",
      bool(np.allclose(maps_no_order[:, :, the1], maps_no_order[:, :, the2], atol=1e-5)))
# 위치 정보가 없으면 토큰 순서를 섞어 넣어도 가중치의 행과 열이 같은 방식으로 섞일 뿐입니다.
# "[CLS] sat the cat the on mat . [SEP]"
perm = [0, 3, 1, 2, 5, 4, 6, 7, 8]
shuffled = np.stack([w[0] for w in encode(no_order, ids[perm])[1]])
print("  섞은 입력의 가중치 = 섞은 가중치?",
      bool(np.allclose(shuffled, maps_no_order[:, :, perm][:, :, :, perm], atol=1e-5)))
# --8<-- [end:word_order]

# --8<-- [start:prep_object]
# 전치사와 그 목적어(Clark 외 2019 의 pobj 관계)를 24문장에서 손으로 골라 적었습니다: 문장 13개, 15쌍.
PREP_OBJECTS = {
    "The cat sat on the mat.": [("on", "mat")],
    "A dog chased the ball across the park.": [("across", "park")],
    "The children played in the garden after school.": [("in", "garden"), ("after", "school")],
    "Rain fell on the quiet village all morning.": [("on", "village")],
    "We watched the sun rise over the mountains.": [("over", "mountains")],
    "He forgot his keys at the office.": [("at", "office")],
    "The old man fed the birds in the square.": [("in", "square")],
    "They built a small house near the river.": [("near", "river")],
    "The train arrived late because of the snow.": [("of", "snow")],
    "The baby laughed at the funny dog.": [("at", "dog")],
    "I wrote a letter to my grandmother.": [("to", "grandmother")],
    "The wind blew the leaves across the road.": [("across", "road")],
    "After dinner, we walked along the beach.": [("after", "dinner"), ("along", "beach")],
}


def word_maps(maps, word_ids):
    """토큰 단위 가중치 → 단어 단위 (Clark 외 2019 의 방법): 받는 쪽은 조각을 더하고, 주는 쪽은 평균.

    [CLS], [SEP] 처럼 단어가 아닌 토큰(word_id 가 None)은 뺍니다.
    """
    words = sorted({w for w in word_ids if w is not None})
    # member: (단어, 토큰). 받는 쪽은 단어의 조각들이 받은 가중치를 더하고, 주는 쪽은 조각들의 평균
    member = np.array([[w == k for w in word_ids] for k in words], dtype=float)
    summed = maps @ member.T
    return (member @ summed) / member.sum(axis=1, keepdims=True)


hits, offsets = np.zeros((6, 12)), []
for text, pairs in PREP_OBJECTS.items():
    enc = model.tokenizer.encode(text)
    words = {}
    for tok, w in zip(enc.tokens, enc.word_ids):
        if w is not None:
            words[w] = words.get(w, "") + tok.removeprefix("##")
    # (6, 12, 단어 수, 단어 수)
    wm = word_maps(sentence_maps[text], enc.word_ids)
    for prep, obj in pairs:
        p = next(k for k, w in words.items() if w == prep)
        o = next(k for k, w in words.items() if w == obj and k > p)
        row = wm[:, :, p].copy()
        # 자기 자신을 뺀 "다른 단어" 가운데 가장 많이 보는 단어가 그 헤드의 답
        row[:, :, p] = -1
        hits += row.argmax(axis=-1) == o
        offsets.append(o - p)
n_pairs = len(offsets)
accuracy = hits / n_pairs
best_head = np.unravel_index(accuracy.argmax(), accuracy.shape)
best_offset = max(set(offsets), key=offsets.count)
baseline = offsets.count(best_offset) / n_pairs
# 휴대전화의 좁은 출력 상자에서도 본문이 말하는 값이 줄 맨 앞에 보이게, 값을 먼저 찍고 설명을 뒤에 붙입니다.
print(f"가장 잘 맞히는 헤드: {name(*best_head)} ({accuracy[best_head]:.0%})")
print(f"  전치사 → 목적어 {n_pairs}쌍")
print(f"기준선(늘 {best_offset}칸 뒤 단어): {baseline:.0%}")
on, mat = tokens.index("on"), tokens.index("mat")
print(f"그 헤드의 on → mat 가중치: {maps[best_head][on, mat]:.2f}")
print("  ('The cat sat on the mat.')")
# --8<-- [end:prep_object]


# --8<-- [start:quiz_1]
park = "A dog chased the ball across the park."
park_tokens = tokenize(model, park)[1]
print(f"토큰 {len(park_tokens)}개:", park_tokens)
print("가중치:", sentence_maps[park].shape)
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
sofa_tokens, sofa_maps = attention_maps("The dog slept on the sofa.")
# 이전 토큰 헤드 (1-3)
head = sofa_maps[prev_head]
q = np.arange(1, len(sofa_tokens))
print("토큰:", sofa_tokens)
print(f"헤드 {name(*prev_head)}: 행마다 가장 많이 보는 토큰이")
print(f"  바로 앞 토큰인 비율 {np.mean(head[q].argmax(axis=-1) == q - 1):.2f}")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
ids, _ = tokenize(model, "The cat sat on the mat.")
random_maps = np.stack([w[0] for w in encode(random_model, ids)[1]]).astype(np.float64)
random_entropy = -(random_maps * np.log(random_maps)).sum(axis=-1).mean()
print(f"학습 전 모델의 평균 엔트로피 {random_entropy:.3f} 나트")
print(f"토큰 {len(ids)}개에 고르게 나누면 ln {len(ids)} = {np.log(len(ids)):.3f}")
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
for k in sorted(set(offsets)):
    print(f"늘 {k}칸 뒤 단어를 고르는 기준선: {offsets.count(k) / n_pairs:.0%}")
# --8<-- [end:quiz_4]

# 그림과 히트맵 페이지가 함께 쓰는 "눈에 띄는 헤드" 네 개 (통계에서 고릅니다: english_heads.showcase)
SHOWCASE = showcase(stats)


# --8<-- [start:figures]
def figure_layer1(narrow=False):
    """"The cat sat on the mat." 에 대한 1층의 헤드 12개 (좁은 판은 6 × 2)."""
    import matplotlib.pyplot as plt

    from plotting import heatmap, label_heatmap_grid, width

    rows, cols = (6, 2) if narrow else (4, 3)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 14.2 if narrow else 9.6), layout="constrained",
                             sharex=True, sharey=True)
    for h, ax in enumerate(axes.flat):
        im = heatmap(ax, maps[0, h], tokens, tokens, title=f"헤드 {name(0, h)}", annotate=False,
                     xlabel="", ylabel="")
        # 토큰 9개: 세우면 이름끼리 겹치지 않습니다
        ax.tick_params(axis="x", labelrotation=90)
        # 눈금 이름은 맨 아래 줄과 맨 왼쪽 칸에만
        ax.label_outer()
    label_heatmap_grid(fig, axes, im, narrow, ylabel="쿼리 (보는 쪽)", shrink=0.6)
    return fig


def figure_showcase(narrow=False):
    """습관이 뚜렷한 헤드 네 개: 이전 토큰, 다음 토큰, [CLS], 넓게 보기 (2 × 2)."""
    return draw_showcase(tokens, maps, stats, narrow)


def figure_stats(narrow=False):
    """모든 헤드(6층 × 12헤드)의 패턴별 평균 가중치 (좁은 판은 한 줄에 하나씩)."""
    import matplotlib.pyplot as plt

    from plotting import width

    rows, cols = (6, 1) if narrow else (3, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(width(narrow), 12.6 if narrow else 7.4), layout="constrained",
                             sharex=True)
    for ax, pattern in zip(axes.flat, PATTERNS[:-1]):
        im = ax.imshow(stats[pattern], vmin=0, vmax=1, cmap=plt.rcParams["image.cmap"], aspect="auto")
        ax.set_title(f"{pattern}에 주는 몫")
        ax.set_xticks(range(12), labels=[str(h + 1) for h in range(12)])
        ax.set_yticks(range(6), labels=[str(layer + 1) for layer in range(6)])
        # 한 글자라서 눕히지 않습니다
        ax.set_ylabel("층", rotation=0, labelpad=12)
    for ax in axes.flat[-cols:]:
        ax.set_xlabel("헤드")
    fig.colorbar(im, ax=axes, shrink=0.8, label="24문장 평균 어텐션 가중치", location="bottom")
    return fig
# --8<-- [end:figures]
