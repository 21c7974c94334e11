"""조사 찾기: 독자가 쓴 문장에서 조사 조각과 그것이 붙은 말을 어림합니다 ("여러분의 문장으로" 페이지).

한국어 장(korean_model.py)은 28문장의 조사를 손으로 표시했습니다. 독자의 문장에는 표시가 없으므로 조각의 모양으로
어림합니다: 어절의 첫 조각이 아니고, 조사 목록에 있고, 어절의 끝(뒤에 문장부호만 올 수 있음)에 있는 조각을 조사로
봅니다. 받침에 따라 모양이 바뀌는 조사(이/가, 을/를, 과/와 …)는 앞 글자의 받침과 맞아야 합니다: "사과"의 "과"는 받침 없는
"사" 뒤라 조사가 아닙니다 (한국어 장의 28문장에서 잘못 찾던 셋 가운데 하나). 붙은 말은 같은 어절에서 그 앞에 있는
조각들입니다 (▁ 만 있는 조각은 빼고, korean_model.attached 와 같게).

토크나이저가 조사를 앞 글자와 한 조각으로 묶으면("▁나는", "장은") 조사 조각이 따로 없어 표에 넣을 수 없습니다.
unsplit_words 는 그런 어절(끝이 조사처럼 보이지만 표에 없는 어절)을 찾아, 페이지가 표 아래에 알리게 합니다.
브라우저(docs/assets/own-sentence.js 의 findParticles, unsplitWords)가 같은 규칙을 씁니다.
"""

# --8<-- [start:particles]
SPACE = "\u2581"
# 자주 쓰는 조사 (닫힌 목록). 한 글자 "나"·"랑" 처럼 다른 말의 끝 음절과 자주 헷갈리는 것은 뺐습니다.
PARTICLES = [
    "이",
    "가",
    "은",
    "는",
    "을",
    "를",
    "의",
    "에",
    "에서",
    "에게",
    "께서",
    "께",
    "한테",
    "으로",
    "로",
    "와",
    "과",
    "도",
    "만",
    "까지",
    "부터",
    "마다",
    "처럼",
    "보다",
    "이나",
    "이랑",
    "조차",
    "에는",
    "에서는",
    "으로는",
    "로는",
    "에도",
    "에서도",
    "와는",
    "과는",
    "에게는",
    "한테는",
    "까지는",
    "부터는",
]
PUNCTUATION = set(".,!?;:\"'()[]{}…~-")
HEAD = (6, 10)  # 헤드 7-11 (층 7, 헤드 11): 한국어 장에서 조사가 붙은 말을 가장 많이 보던 헤드 (0부터 센 번호)
# 받침에 따라 모양이 바뀌는 조사: 받침 있는 글자 뒤에만 오는 것과 받침 없는 글자 뒤에만 오는 것 ("으로" 는 ㄹ 받침 뒤에 오지 않고
# "로" 는 ㄹ 받침 뒤에도 옵니다: 길로, 물로).
AFTER_CONSONANT = {"이", "은", "을", "과", "이나", "이랑", "으로", "과는", "으로는"}
AFTER_VOWEL = {"가", "는", "를", "와", "로", "와는", "로는"}
RIEUL = 8  # 받침 번호 8 = ㄹ


def final_consonant(ch):
    """한글 음절의 받침 번호 (0 = 받침 없음, 8 = ㄹ). 한글 음절이 아니면 None."""
    code = ord(ch) - 0xAC00
    return code % 28 if 0 <= code < 11172 else None


def agrees(host, particle):
    """조사가 앞 글자(host 의 끝)의 받침과 맞는지. 숫자·기호 뒤는 읽는 소리를 모르므로 맞다고 봅니다."""
    jong = final_consonant(host[-1]) if host else None
    if jong is None:
        return True
    if particle in AFTER_CONSONANT:
        return jong != 0 and not (particle.startswith("으로") and jong == RIEUL)
    if particle in AFTER_VOWEL:
        return jong == 0 or (particle.startswith("로") and jong == RIEUL)
    return True


def words(tokens, first, last):
    """문장 조각(first ≤ 자리 < last)을 어절로 묶습니다: ▁ 로 시작하는 조각이 새 어절 (korean_model.words_of 와 같게)."""
    out = []
    for i in range(first, last):
        if tokens[i].startswith(SPACE) or not out:
            out.append([])
        out[-1].append(i)
    return out


def find_particles(tokens, first, last):
    """[(조사 조각의 자리, [붙은 말 조각의 자리들])]. first, last 는 문장 조각의 범위 (접두어·<s>·</s> 제외)."""
    found = []
    for word in words(tokens, first, last):
        body = [i for i in word if tokens[i] not in PUNCTUATION]  # 어절 끝의 문장부호는 빼고 봅니다
        if len(body) < 2 or body != word[: len(body)]:
            continue
        i = body[-1]
        host = [j for j in body[:-1] if tokens[j] != SPACE]
        if tokens[i] in PARTICLES and host and agrees("".join(tokens[j] for j in host), tokens[i]):
            found.append((i, host))
    return found


def particle_weights(weights, found, head=HEAD):
    """weights (층, 헤드, n, n) 에서 조사마다 붙은 말에 준 가중치의 합 (헤드 7-11)."""
    layer, h = head
    return [float(sum(weights[layer, h, i, j] for j in host)) for i, host in found]


# --8<-- [end:particles]


def unsplit_words(tokens, first, last):
    """끝이 조사처럼 보이지만 find_particles 가 표에 넣지 않은 어절들: [(어절의 글, 조사)].

    조사가 앞 글자와 한 조각으로 묶였거나("▁나는", "▁반" "장은"), 어절 가운데 문장부호가 있는("3,500원에") 경우입니다.
    받침과 맞지 않는 끝("사과")은 조사로 보지 않습니다. 조사가 아닌 말("고양이")도 모양만으로는 들어올 수 있습니다.
    """
    found = {i for i, _ in find_particles(tokens, first, last)}
    out = []
    for word in words(tokens, first, last):
        if found & set(word):
            continue
        text = "".join(tokens[i] for i in word).replace(SPACE, "").rstrip("".join(PUNCTUATION))
        for particle in sorted(PARTICLES, key=len, reverse=True):
            host = text[: -len(particle)]
            if text.endswith(particle) and host and agrees(host, particle):
                out.append((text, particle))
                break
    return out


def marked_particles(annotated, tokens, first, last):
    """손으로 표시한 조사("/" 뒤, korean_sentences.ANNOTATED)가 따로 떨어진 조각이면 그 조각의 자리들.

    규칙은 한국어 장(korean_model.attached)과 같습니다: 표시 앞 글자 수만큼의 조각 바로 다음 조각이 조사 조각이고,
    조각 경계가 표시와 맞지 않으면(조사가 앞 글자와 한 조각) 넣지 않습니다. first, last 는 find_particles 와 같은 범위입니다.
    """
    found = set()
    for word, idx in zip(annotated.split(" "), words(tokens, first, last)):
        if "/" not in word:
            continue
        stem, pos = len(word.split("/")[0].replace("~", "")), 0
        for i in idx:
            piece = tokens[i].lstrip(SPACE)
            if piece and pos == stem:
                found.add(i)
                break
            pos += len(piece)
    return found
