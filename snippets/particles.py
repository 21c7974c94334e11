"""조사 찾기: 독자가 쓴 문장에서 조사 조각과 그것이 붙은 말을 어림합니다 ("여러분의 문장으로" 페이지).

한국어 장(korean_model.py)은 28문장의 조사를 손으로 표시했습니다. 독자의 문장에는 표시가 없으므로 조각의 모양으로
어림합니다: 어절의 첫 조각이 아니고, 조사 목록에 있고, 어절의 끝(뒤에 문장부호만 올 수 있음)에 있는 조각을 조사로
봅니다. 붙은 말은 같은 어절에서 그 앞에 있는 조각들입니다 (▁ 만 있는 조각은 빼고, korean_model.attached 와 같게).
브라우저(docs/assets/own-sentence.js 의 findParticles)가 같은 규칙을 씁니다.
"""

# --8<-- [start:particles]
SPACE = "\u2581"
# 자주 쓰는 조사 (닫힌 목록). 한 글자 "나"·"랑" 처럼 다른 말의 끝 음절과 자주 헷갈리는 것은 뺐습니다.
PARTICLES = ["이", "가", "은", "는", "을", "를", "의", "에", "에서", "에게", "께서", "께", "한테", "으로", "로",
             "와", "과", "도", "만", "까지", "부터", "마다", "처럼", "보다", "이나", "이랑", "조차", "에는",
             "에서는", "으로는", "로는", "에도", "에서도", "와는", "과는", "에게는", "한테는", "까지는", "부터는"]
PUNCTUATION = set(".,!?;:\"'()[]{}…~-")
HEAD = (6, 10)  # 헤드 7-11 (층 7, 헤드 11): 한국어 장에서 조사가 붙은 말을 가장 많이 보던 헤드 (0부터 센 번호)


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
        if len(body) < 2 or body != word[:len(body)]:
            continue
        i = body[-1]
        host = [j for j in body[:-1] if tokens[j] != SPACE]
        if tokens[i] in PARTICLES and host:
            found.append((i, host))
    return found


def particle_weights(weights, found, head=HEAD):
    """weights (층, 헤드, n, n) 에서 조사마다 붙은 말에 준 가중치의 합 (헤드 7-11)."""
    layer, h = head
    return [float(sum(weights[layer, h, i, j] for j in host)) for i, host in found]
# --8<-- [end:particles]

