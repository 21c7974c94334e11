"""한국어 문장으로 보기: multilingual-e5-small 의 헤드 144개(12층 × 12헤드)를 사이트의 numpy 코어로 분석합니다."""

# --8<-- [start:tokens]
import numpy as np

from bert_numpy import encode, tokenize
from e5_numpy import PREFIX, load_e5

# 파라미터 파일 읽기, 4비트 풀기, 토크나이저 만들기
model = load_e5()
print(f"어휘: 조각 {model.tokenizer.get_vocab_size():,}개")
print(f"단어 임베딩 표: {len(model.weights['embeddings.word_embeddings.weight']):,}행")
for text in ["고양이가 매트 위에 앉았다", "나는 학교에 간다", "선생님은 그 문제를 천천히 다시 설명하셨다."]:
    ids, tokens = tokenize(model, PREFIX + text)
    # 휴대전화의 좁은 출력 칸에 맞게 몇 어절씩 찍습니다: 줄은 ▁ 로 시작하는 조각(어절의 첫 조각) 앞에서만 바꿉니다
    print(f"{len(tokens)}개:")
    line = []
    for t in tokens:
        if t.startswith("▁") and len(" ".join(line + [t])) > 20:
            print(" ", " ".join(line))
            line = []
        line.append(t)
    print(" ", " ".join(line))
vocab = model.tokenizer.get_vocab()
print("사전에 있는가?")
for piece in ["▁고양이", "▁앉", "앉", "았다"]:
    print(f"  {piece} {piece in vocab}")
# --8<-- [end:tokens]

# 문장들은 korean_sentences.py 에 있습니다 (헤드 지우기 장도 같은 문장을 씁니다)
from korean_sentences import ANNOTATED, SENTENCES

# --8<-- [start:pieces_helpers]
# 문장의 첫 토큰 자리: <s> 와 "query:" 의 조각 셋 다음
START = len(tokenize(model, PREFIX.strip())[1]) - 1
ROLES = {"/": "조사", "~": "어미"}


def words_of(tokens):
    """문장 토큰(접두어·<s>·</s> 제외)을 어절(띄어쓰기 단위)로 묶습니다: ▁ 로 시작하는 토큰이 새 어절."""
    words = []
    for i in range(START, len(tokens) - 1):
        if tokens[i].startswith("▁") or not words:
            words.append([])
        words[-1].append(i)
    return words


def attached(annotated, tokens):
    """표시한 조사·어미마다 (역할, 그 조각의 자리, 붙은 말(앞 조각들)의 자리들). 조각 경계와 맞지 않으면 자리는 None."""
    found = []
    for word, idx in zip(annotated.split(" "), words_of(tokens)):
        for mark, role in ROLES.items():
            if mark not in word:
                continue
            stem_len = len(word.split(mark)[0].replace("/", "").replace("~", ""))
            host, start, pos = [], None, 0
            for i in idx:
                piece = tokens[i].lstrip("▁")
                if piece and pos < stem_len:
                    host.append(i)
                elif piece and pos == stem_len and start is None:
                    start = i
                pos += len(piece)
            aligned = start is not None and sum(len(tokens[i].lstrip("▁")) for i in host) == stem_len
            found.append((role, start if aligned else None, host))
    return found
# --8<-- [end:pieces_helpers]


# --8<-- [start:pieces]
all_tokens = [tokenize(model, PREFIX + s)[1] for s in SENTENCES]
n_words = sum(len(words_of(t)) for t in all_tokens)
n_pieces = sum(len(t) - START - 1 for t in all_tokens)
one_piece = sum(len([i for i in w if all_tokens[k][i] != "▁"]) == 1 for k, t in enumerate(all_tokens)
                for w in words_of(t))
print(f"문장 {len(SENTENCES)}개, 어절 {n_words}개")
print(f"문장 조각 {n_pieces}개 (어절마다 {n_pieces / n_words:.2f}개)")
print(f"한 조각짜리 어절 {one_piece}개")
marks = [m for a, t in zip(ANNOTATED, all_tokens) for m in attached(a, t)]
for role in ROLES.values():
    mine = [m for m in marks if m[0] == role]
    print(f"{role} {len(mine)}개 가운데 따로 떨어진 조각 {sum(m[1] is not None for m in mine)}개")
# --8<-- [end:pieces]

# --8<-- [start:maps]
def attention_of(texts):
    """문장들 → [(토큰, 가중치 (층 12, 헤드 12, n, n))]. 한 번의 배치로 계산하고 패딩 자리는 잘라 냅니다."""
    encoded = [tokenize(model, PREFIX + t) for t in texts]
    n = max(len(ids) for ids, _ in encoded)
    ids = np.full((len(texts), n), model.config["pad_token_id"])
    valid = np.zeros((len(texts), n), dtype=np.int64)
    for b, (e, _) in enumerate(encoded):
        ids[b, :len(e)], valid[b, :len(e)] = e, 1
    _, weights = encode(model, ids, valid)
    # (문장, 층, 헤드, n, n)
    maps = np.stack(weights, axis=1).astype(np.float64)
    return [(tokens, maps[b, :, :, :len(tokens), :len(tokens)]) for b, (_, tokens) in enumerate(encoded)]


results = attention_of(SENTENCES)
tokens, maps = results[0]
print(f"{SENTENCES[0]} → 토큰 {len(tokens)}개")
print("가중치", maps.shape)
print("모든 행의 합이 1인가?", bool(np.allclose(maps.sum(-1), 1, atol=1e-5)))
# --8<-- [end:maps]

# --8<-- [start:head_stats]
PUNCT = {".", "?", "!", ","}
PATTERNS = ["이전 토큰", "다음 토큰", "<s>", "</s>", "접두어", "자기 자신", "문장부호", "엔트로피"]


def head_stats(tokens, maps):
    """문장 토큰 하나하나(쿼리)가 각 대상에 준 가중치: {패턴: (층, 헤드, 쿼리 수)}."""
    n = len(tokens)
    # 쿼리는 문장 토큰만 (<s>, 접두어, </s> 는 빼고), rows 는 (층, 헤드, 쿼리, 키)
    q = np.arange(START, n - 1)
    rows = maps[:, :, q, :]
    punct = [j for j in range(START, n - 1) if tokens[j] in PUNCT]
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(rows > 0, rows * np.log(rows), 0.0).sum(-1)
    return {"이전 토큰": maps[:, :, q, q - 1], "다음 토큰": maps[:, :, q, q + 1], "<s>": rows[..., 0],
            "</s>": rows[..., n - 1], "접두어": rows[..., 1:START].sum(-1), "자기 자신": maps[:, :, q, q],
            "문장부호": rows[..., punct].sum(-1), "엔트로피": entropy}


per = [head_stats(t, m) for t, m in results]
# 패턴마다 (12, 12): 층 × 헤드
stats = {p: np.concatenate([s[p] for s in per], axis=-1).mean(axis=-1) for p in PATTERNS}


def name(layer, head):
    """1부터 세는 "층-헤드"."""
    return f"{layer + 1}-{head + 1}"


def top(values, k=3):
    order = np.argsort(values, axis=None)[::-1][:k]
    return [np.unravel_index(i, values.shape) for i in order]


print(f"쿼리 토큰 {sum(len(t) - START - 1 for t, _ in results)}개")
print("가장 많이 보는 헤드 셋 (평균 몫)")
for pattern in PATTERNS[:-1]:
    print(f"{pattern}")
    print(" " + ", ".join(f"{name(*lh)} ({stats[pattern][lh]:.2f})" for lh in top(stats[pattern])))
ent = stats["엔트로피"]
broad, sharp = top(ent, 1)[0], top(-ent, 1)[0]
print(f"가장 넓게 보는 헤드 {name(*broad)} (엔트로피 {ent[broad]:.2f})")
print(f"가장 좁게 보는 헤드 {name(*sharp)} (엔트로피 {ent[sharp]:.2f})")
# --8<-- [end:head_stats]

# --8<-- [start:layers]
over_half = {p: [name(*lh) for lh in zip(*np.nonzero(stats[p] > 0.5))] for p in ("이전 토큰", "다음 토큰")}
print("50% 넘게 주는 헤드")
print("  이전 토큰:", over_half["이전 토큰"])
print("  다음 토큰:", over_half["다음 토큰"])


def by_layer(label, values):
    """층 12개의 값을 휴대전화의 좁은 출력 칸에 맞게 여섯 개씩 두 줄로 찍습니다 (1–6층, 7–12층)."""
    print(f"층별 평균 {label} (1–6층, 7–12층)")
    for row in (values[:6], values[6:]):
        print(" " + " ".join(f"{v:.2f}" for v in row))


for pattern in ("<s>", "</s>", "접두어", "엔트로피"):
    by_layer(pattern, stats[pattern].mean(axis=1))
# --8<-- [end:layers]

# --8<-- [start:merge]
import dataclasses


def hidden_into(layer, ids):
    """layer 층(1부터)에 들어가는 은닉 상태, 곧 그 층이 키를 만드는 입력: 앞의 layer − 1 층까지만 돌린 출력."""
    upto = dataclasses.replace(model, config={**model.config, "num_hidden_layers": layer - 1})
    return encode(upto, ids)[0][0].astype(np.float64)


def score_gap(tokens, maps):
    """층마다 모든 헤드·쿼리에서 <s> 와 </s> 의 점수(q·k/√d_k) 차이의 최댓값.

    두 키는 같은 행의 소프트맥스 안에 있으므로 점수 차이는 가중치의 비의 로그 ln(w<s> / w</s>) 입니다."""
    return np.abs(np.log(maps[..., 0]) - np.log(maps[..., len(tokens) - 1])).max(axis=(1, 2))


ids0 = tokenize(model, PREFIX + SENTENCES[0])[0]
hidden_gap = np.array([np.linalg.norm(h[0] - h[-1]) / np.linalg.norm(h[0])
                       for h in (hidden_into(layer, ids0) for layer in range(1, 13))])
# 28문장 전체에서 가장 큰 차이. 휴대전화의 좁은 출력 칸에 맞게 세 열을 짧은 이름으로 찍습니다.
gap = np.max([score_gap(t, m) for t, m in results], axis=0)
ratio = np.exp(gap)
print("층: 은닉 상태 차이, 점수 차이, 가중치 비")
print("층   은닉     점수      비")
for layer in range(12):
    shown = f"{ratio[layer]:.3f}" if ratio[layer] < 10 else f"{ratio[layer]:.0e}"
    print(f"{layer + 1:2d} {hidden_gap[layer]:7.2g} {gap[layer]:8.2g} {shown:>7s}")
# 한 자리가 둘로 세어진 것이므로 더해서 봅니다
merged = stats["<s>"] + stats["</s>"]
by_layer("<s> + </s>", merged.mean(axis=1))
# --8<-- [end:merge]

# --8<-- [start:particles]
import functools


def host_weight(maps, i, offsets):
    """쿼리 i 가 자기보다 offsets 만큼 앞에 있는 토큰들에 준 가중치의 합: (층, 헤드)."""
    return sum(maps[:, :, i, i - o] for o in offsets)


events = {"조사": [], "어미": [], "그 밖의 어절 안 조각": [], "어절 첫 조각": []}
for b, (annotated, (tokens, maps)) in enumerate(zip(ANNOTATED, results)):
    marked = {start: (role, host) for role, start, host in attached(annotated, tokens) if start is not None}
    for word in words_of(tokens):
        for i in word:
            # 조사·어미 조각은 그것이 붙은 말(같은 어절의 앞 조각들)을, 어절 첫 조각은 바로 앞 토큰(앞 어절의 끝)을,
            # 그 밖의 어절 안 조각은 같은 어절의 앞 조각들을 봅니다
            if i in marked:
                role, host = marked[i]
                events[role].append((b, i, tuple(i - h for h in host)))
            elif i == word[0] and i - 1 >= START:
                events["어절 첫 조각"].append((b, i, (1,)))
            elif i != word[0] and tokens[i] not in PUNCT:
                host = [j for j in word if j < i and tokens[j] != "▁"]
                if host:
                    events["그 밖의 어절 안 조각"].append((b, i, tuple(i - h for h in host)))
special = {(b, i) for role in ("조사", "어미") for b, i, _ in events[role]}


@functools.cache
def position_baseline(offsets, sentences=None):
    """위치만으로 기대하는 값: 같은 헤드가 조사·어미가 아닌 모든 문장 토큰에서 같은 거리(offsets)에 준 평균.

    sentences(문장 번호의 tuple)를 주면 그 문장들에서만 잽니다."""
    chosen = range(len(results)) if sentences is None else sentences
    vals = [host_weight(results[b][1], i, offsets) for b in chosen
            for i in range(START + max(offsets), len(results[b][0]) - 1) if (b, i) not in special]
    return np.mean(vals, axis=0)


observed = {g: np.mean([host_weight(results[b][1], i, o) for b, i, o in ev], axis=0) for g, ev in events.items()}
baseline = {g: np.mean([position_baseline(o) for _, _, o in ev], axis=0) for g, ev in events.items()}
excess = {g: observed[g] - baseline[g] for g in events}
for g in events:
    print(f"{g} {len(events[g])}개")
    print(f"  헤드 144개 평균 {observed[g].mean():.3f}, 위치 기준 {baseline[g].mean():.3f}")
    print(f"  기준보다 0.1 넘게 큰 헤드 {int((excess[g] > 0.1).sum())}개")
# 휴대전화의 좁은 출력 칸에 맞게 열 이름을 줄입니다
print("\n안쪽 = 그 밖의 어절 안 조각")
print("첫 = 어절 첫 조각, 기준 = 조사의 위치 기준")
print("헤드   조사  어미  안쪽    첫  기준")
for lh in top(excess["조사"], 4) + top(excess["어미"], 2):
    print(f"{name(*lh):5s}" + "".join(f"{observed[g][lh]:6.2f}" for g in events) + f"{baseline['조사'][lh]:6.2f}")
# 28문장 모두에서 조사의 몫이 위치 기준을 가장 크게 넘는 헤드
best = top(excess["조사"], 1)[0]
# --8<-- [end:particles]

# --8<-- [start:halves]
# 헤드 144개 가운데 가장 큰 것을 고르면 우연히 큰 값도 함께 고르게 됩니다.
# 그래서 한쪽 반의 문장으로 헤드를 고르고, 고를 때 쓰지 않은 다른 쪽 반에서 잽니다.
def particle_share(sentences):
    """그 문장들의 조사만으로 잰 (조사 수, 붙은 말에 준 몫, 위치 기준). 몫과 기준은 (층, 헤드)."""
    ev = [(b, i, o) for b, i, o in events["조사"] if b in sentences]
    obs = np.mean([host_weight(results[b][1], i, o) for b, i, o in ev], axis=0)
    base = np.mean([position_baseline(o, sentences) for _, _, o in ev], axis=0)
    return len(ev), obs, base


halves = {"앞 14문장": tuple(range(14)), "뒤 14문장": tuple(range(14, 28))}
held_out = {}
for pick, measure in (("앞 14문장", "뒤 14문장"), ("뒤 14문장", "앞 14문장")):
    _, obs, base = particle_share(halves[pick])
    chosen = top(obs - base, 1)[0]
    count, obs, base = particle_share(halves[measure])
    held_out[pick] = (chosen, obs[chosen], base[chosen])
    print(f"{pick}으로 고른 헤드: {name(*chosen)}")
    print(f"  {measure}(조사 {count}개)에서 잰 몫 {obs[chosen]:.2f}")
    print(f"  같은 문장들의 위치 기준 {base[chosen]:.2f}")
# --8<-- [end:halves]

# --8<-- [start:similarity]
from e5_numpy import e5_embeddings

pairs = ["고양이가 매트 위에 앉았다", "매트 위에 고양이 한 마리가 앉아 있었다", "주식 시장이 오늘 크게 떨어졌다",
         "The cat sat on the mat.", "The stock market fell sharply today."]
# 임베딩 (5, 384) 은 길이 1 이라서, 내적이 곧 코사인 유사도입니다
e = e5_embeddings(pairs)
sim = e @ e.T
print("첫 문장과의 코사인 유사도")
print(f"  바꿔 말한 한국어 문장 {sim[0, 1]:.3f}")
print(f"  관계없는 한국어 문장 {sim[0, 2]:.3f}")
print(f"  같은 뜻의 영어 문장 {sim[0, 3]:.3f}")
print(f"  관계없는 영어 문장 {sim[0, 4]:.3f}")
# --8<-- [end:similarity]



# --8<-- [start:quiz_1]
tokens = tokenize(model, PREFIX + SENTENCES[0])[1]
sentence_pieces = tokens[START:-1]
print(f"토큰 {len(tokens)}개, 그 가운데 문장 조각 {len(sentence_pieces)}개")
print(f"어절 {len(SENTENCES[0].split())}개")
print("▁ 로 시작하는 조각:")
print(" ", [t for t in sentence_pieces if t.startswith("▁")])
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
# 헤드 5-4 와, 조사에서 기준을 가장 크게 넘은 헤드
for head in [(4, 3), best]:
    print(f"헤드 {name(*head)}")
    print(f"  조사 → 붙은 말 {observed['조사'][head]:.2f}")
    print(f"  같은 거리의 위치 기준 {baseline['조사'][head]:.2f}")
    print(f"  그 밖의 어절 안 조각 {observed['그 밖의 어절 안 조각'][head]:.2f}")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
# 1층에서 문장 조각들이 접두어 조각 셋에 준 몫 (문장마다 헤드·쿼리 평균)
prefix_share_1 = np.array([s["접두어"][0].mean() for s in per])
print(f"문장 {len(per)}개, 1층에서 접두어에 준 몫")
print(f"  가장 작은 문장 {prefix_share_1.min():.3f}")
print(f"  가장 큰 문장 {prefix_share_1.max():.3f}")
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
tokens, maps = results[0]
# 12층, 모든 헤드·모든 쿼리
ratio_12 = maps[11, :, :, 0] / maps[11, :, :, len(tokens) - 1]
print("12층의 w<s> / w</s>")
print(f"  가장 작은 값 {ratio_12.min():.3f}, 가장 큰 값 {ratio_12.max():.3f}")
print("12층 평균")
print(f"  <s> {stats['<s>'][11].mean():.2f}, </s> {stats['</s>'][11].mean():.2f}, 합 {merged[11].mean():.2f}")
# --8<-- [end:quiz_4]


# 그림이 함께 쓰는 "눈에 띄는 헤드" 넷 (통계에서 고릅니다)
SHOWCASE = [
    ("이전 토큰", top(stats["이전 토큰"], 1)[0]),
    ("다음 토큰", top(stats["다음 토큰"], 1)[0]),
    ("<s>", top(stats["<s>"], 1)[0]),
    ("조사가 붙은 말 보기", best),  # 제목에 → 를 쓰지 않습니다: 나눔고딕의 → 는 › 처럼 보입니다
]


# --8<-- [start:figures]
# 나눔고딕에 없는 ▁ 는 DejaVu Sans 로 그립니다
TICK_FONT = ["NanumGothic", "DejaVu Sans"]
# 좁은 판(휴대전화)의 토큰 이름 크기 (pt). 다른 글자의 10.5 pt 는 343 px 칸에서 글자 상자가 10.9 px 인데, 한글 음절의 실제
# 높이는 그 0.92 배인 10.0 px 로 휴대전화 기준(10 px)에 겨우 닿아, 히트맵의 한글 토큰이 가장 작아 보였습니다 (issue 41).
# 12 pt 면 한글이 11.4 px 입니다. 가로로 쓴 키 이름 14개가 위아래 두 줄에 맞닿지 않는 크기이기도 합니다.
NARROW_TICK_PT = 12


def _sentence_heads(picks, narrow):
    """"고양이가 매트 위에 앉았다" 에서 헤드 둘: 행 = 문장 토큰(쿼리), 열 = 모든 토큰(키).

    넓은 판은 두 히트맵을 나란히, 좁은 판(휴대전화)은 위아래로 놓습니다.
    키 이름은 눕히지 않고 가로로 씁니다: 90° 돌린 한글은 휴대전화에서 고개를 꺾어야 읽히고, 돌린 "▁" 는 조각에서
    떨어진 막대처럼 보였습니다. 가로로 14개는 한 줄에 들어가지 않으므로 짝수 번째는 아래, 홀수 번째는 위에 씁니다.
    """
    import matplotlib.pyplot as plt

    from plotting import width

    tokens, maps = results[0]
    rows = list(range(START, len(tokens) - 1))
    shape, height = ((2, 1), 7.6) if narrow else ((1, 2), 4.9)
    # 넓은 판: 두 히트맵이 쿼리 이름을 함께 써서(sharey), 오른쪽 히트맵의 열이 키 이름이 들어갈 만큼 넓어집니다.
    fig, axes = plt.subplots(*shape, figsize=(width(narrow), height), layout="constrained", sharey=not narrow)
    tick = {"fontfamily": TICK_FONT, **({"fontsize": NARROW_TICK_PT} if narrow else {})}
    for k, (ax, (pattern, (layer, head))) in enumerate(zip(axes, picks)):
        im = ax.imshow(maps[layer, head][rows], vmin=0, vmax=1, cmap=plt.rcParams["image.cmap"], aspect="auto")
        ax.set_xticks(range(0, len(tokens), 2), labels=tokens[::2], **tick)
        top = ax.secondary_xaxis("top")
        top.set_xticks(range(1, len(tokens), 2), labels=tokens[1::2], **tick)
        ax.set_yticks(range(len(rows)), labels=[tokens[i] for i in rows], **tick)
        # 28문장 평균
        value = stats[pattern] if pattern in stats else observed["조사"]
        ax.set_title(f"헤드 {name(layer, head)}: {pattern}\n(평균 {value[layer, head]:.2f})")
        ax.set_xlabel("키 (보이는 쪽)")
        if narrow or k == 0:
            ax.set_ylabel("쿼리 (보는 쪽)")
        else:
            ax.tick_params(labelleft=False)
    # 색 막대는 두 판 모두 아래에: 옆에 두면 히트맵의 열이 좁아져 가로로 쓴 키 이름끼리 맞닿습니다.
    fig.colorbar(im, ax=axes, shrink=0.7 if narrow else 0.5, aspect=30, location="bottom", label="어텐션 가중치")
    return fig


def figure_heads_position(narrow=False):
    """바로 앞 조각을 보는 헤드와 바로 다음 조각을 보는 헤드."""
    return _sentence_heads(SHOWCASE[:2], narrow)


def figure_heads_meaning(narrow=False):
    """<s> 에 가중치를 모으는 헤드와 조사가 붙은 말을 보는 헤드."""
    return _sentence_heads(SHOWCASE[2:], narrow)


def figure_stats(narrow=False):
    """모든 헤드(12층 × 12헤드)가 이전 토큰, 다음 토큰, <s>, 그리고 <s> 와 </s> 를 합친 자리에 준 평균 가중치 (2 × 2)."""
    import matplotlib.pyplot as plt

    from plotting import width

    shape, height = ((2, 2), 5.8) if narrow else ((2, 2), 5.9)
    fig, axes = plt.subplots(*shape, figsize=(width(narrow), height), layout="constrained")
    panels = {"이전 토큰": stats["이전 토큰"], "다음 토큰": stats["다음 토큰"], "<s>": stats["<s>"], "<s> + </s>": merged}
    for ax, (pattern, values) in zip(axes.flat, panels.items()):
        im = ax.imshow(values, vmin=0, vmax=1, cmap=plt.rcParams["image.cmap"])
        ax.set_title(pattern)
        ax.set_xticks([0, 5, 11], labels=["1", "6", "12"])
        ax.set_yticks([0, 5, 11], labels=["1", "6", "12"])
        ax.set_xlabel("헤드")
        ax.set_ylabel("층", rotation=0, labelpad=8)
    fig.colorbar(im, ax=axes, shrink=0.6 if narrow else 0.7, label="28문장 평균 가중치",
                 location="bottom" if narrow else "right")
    return fig


def figure_particles(narrow=False):
    """헤드 여섯 개가 조각의 무리마다 붙은 말(같은 어절의 앞 조각)에 준 몫과 위치만의 기준."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    heads = top(excess["조사"], 4) + top(excess["어미"], 2)
    groups = list(events)
    colors = [current_theme()["accent"], current_theme()["accent2"], "#26a69a", "#ffa000"]
    fig, ax = plt.subplots(figsize=(width(narrow), 6.4 if narrow else 4.6), layout="constrained")
    height = 0.8 / len(groups)
    for g, (group, color) in enumerate(zip(groups, colors)):
        y = np.arange(len(heads)) + (g - (len(groups) - 1) / 2) * height
        ax.barh(y, [observed[group][lh] for lh in heads], height=height, color=color, label=group)
    ax.scatter([baseline["조사"][lh] for lh in heads], np.arange(len(heads)) - 0.3, marker="|", s=300,
               color=current_theme()["text"], label="위치 기준 (조사)", zorder=3)
    ax.set_yticks(range(len(heads)), labels=[f"헤드 {name(*lh)}" for lh in heads])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("붙은 말(같은 어절의 앞 조각)에 준 몫")
    # 막대를 가리지 않게 그림 밖에
    fig.legend(loc="outside lower center", ncol=2 if narrow else 3, frameon=False)
    return fig
# --8<-- [end:figures]
