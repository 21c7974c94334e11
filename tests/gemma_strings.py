"""브라우저용 Gemma 의 토크나이저를 시험할 글: 프롬프트 글자(gemma_browser.PROMPT_CHARS)로만 만든 무작위 글 (씨앗 고정).

두 테스트가 씁니다. tests/test_gemma_browser.py (부분 어휘의 나누기 = 전체 어휘의 나누기)와
tests/test_own_prompt_browser.py (브라우저의 gemma-tokenizer.js = 파이썬의 GemmaTokenizer).
글은 어휘의 한국어 조각을 이어 붙인 것(실제 말처럼 합치기가 길게 이어지게)에, 조각으로 없는 드문 음절(바이트 조각),
자모, 숫자, 문장부호, 따옴표, 띄어쓰기 여러 개, ▁ 를 섞습니다.
"""

import functools
import random
import string


@functools.cache
def _groups():
    import gemma_file
    from gemma_browser import PROMPT_CHARS
    from gemma_tokenizer import NORMAL

    meta, _ = gemma_file.read_gguf(gemma_file.gguf_path())
    pieces, kinds = meta["tokenizer.ggml.tokens"], [int(k) for k in meta["tokenizer.ggml.token_type"]]
    normal = {p for p, k in zip(pieces, kinds) if k == NORMAL}
    syllables = [chr(c) for c in range(0xAC00, 0xD7A4)]
    words = sorted(p.lstrip("\u2581") for p in normal if len(p.lstrip("\u2581")) >= 2 and set(p) <= PROMPT_CHARS)
    return {
        "words": words,
        "common": [c for c in syllables if c in normal],
        "rare": [c for c in syllables if c not in normal],
        "jamo": [chr(c) for r in ((0x1100, 0x1200), (0x3131, 0x318F)) for c in range(*r)],
        "digits": list(string.digits),
        "punct": list(string.punctuation) + list("·…“”‘’「」『』《》〈〉"),
        "space": [" ", " ", " ", "  ", "   ", "\u2581"],
    }


WEIGHTS = {"words": 10, "common": 8, "rare": 1, "jamo": 1, "digits": 2, "punct": 2, "space": 5}


def generated(count, seed, longest=40):
    """프롬프트 글자로만 된 무작위 글 count 개 (씨앗 seed 로 늘 같은 글). 글자 수는 longest 안팎까지."""
    rng = random.Random(seed)
    groups = _groups()
    names, weights = list(WEIGHTS), list(WEIGHTS.values())
    out = []
    while len(out) < count:
        text = ""
        for _ in range(rng.randint(1, longest // 3)):
            text += rng.choice(groups[rng.choices(names, weights)[0]])
        text = text[:longest]
        if text.strip(" \u2581"):
            out.append(text)
    return out


# 토크나이저가 갈릴 만한 가장자리 (모두 프롬프트 글자로만)
EDGE_CASES = [
    "나는 학교에",
    "  앞에 공백 두 개",
    "가운데   공백   세 개",
    "끝에 공백 ",
    "▁▁ 표시 글자 그대로",
    "1, 2, 3, 4,",
    "2026년 12월 2일 오후 3시 45분",
    "ㅋㅋㅋㅋ 진짜?? ㅠㅠ",
    "뷁 똠방각하 믜 햏",
    "“따옴표”와 ‘작은따옴표’…",
    "「책」과 《잡지》, 〈논문〉",
    "가·나·다",
    "!!!???",
    "-_-",
    "ㄱ",
    "가",
]
