"""브라우저 토크나이저를 시험할 글들: 사이트의 문장, 지원 글자로 만든 무작위 글(씨앗 고정), 정규화의 가장자리.

같은 함수가 두 테스트에 글을 줍니다. tests/test_browser_model.py (어휘 일부만 가진 토크나이저 = 전체 토크나이저)와
tests/test_own_sentence_browser.py (브라우저의 e5-tokenizer.js = 사이트의 tokenizers 토크나이저).
"""

import functools
import random
import string


@functools.cache
def _alphabet():
    """(무작위 글에 쓸 글자 무리들, 정규화 표에서 결과가 지원 글자인 입력 글자들) — 묶음("ko", "latin")마다."""
    from browser_model import PACKS
    from e5_numpy import read_e5_file, weights_path

    _, pieces, _, table, _ = read_e5_file(weights_path())
    single = set(pieces)
    out = {}
    for pack, charset in PACKS.items():
        syllables = [chr(c) for c in range(0xAC00, 0xD7A4)]
        common = [c for c in syllables if c in single]  # 조각으로 있는 음절 1,725개
        rare = [c for c in syllables if c not in single]  # 전체 모델에서도 <unk> 가 되는 음절
        jamo = [chr(c) for r in ((0x1100, 0x1200), (0x3130, 0x3190)) for c in range(*r)]
        # 어휘의 한글 조각 (두 글자 이상): 실제 말처럼 조각이 이어지는 글을 만듭니다
        words = sorted(
            p.lstrip("\u2581") for p in pieces if len(p.lstrip("\u2581")) >= 2 and set(p.lstrip("\u2581")) <= charset
        )
        mapped = sorted(
            c for c, r in table.items() if r and all(x in charset or x == " " for x in r) and c not in charset
        )
        groups = {
            "common": common,
            "rare": rare,
            "jamo": jamo,
            "digits": list(string.digits),
            "punct": list(string.punctuation),
            "words": words,
            "mapped": mapped,
            "space": [" ", " ", " ", "  ", "\t", "\n", "\u3000", "\u00a0", "\u200b", "\u2581", "\ufeff"],
        }
        if pack == "latin":
            groups["latin"] = list(string.ascii_letters)
            groups["latin_words"] = [w for w in words if any(c in string.ascii_letters for c in w)]
        out[pack] = groups
    return out


def generated(pack, count, seed):
    """지원 글자만으로 된 무작위 글 count 개 (씨앗 seed 로 늘 같은 글)."""
    rng = random.Random(seed)
    groups = _alphabet()[pack]
    weights = {
        "common": 8,
        "words": 10,
        "rare": 1,
        "jamo": 1,
        "digits": 2,
        "punct": 2,
        "mapped": 2,
        "space": 5,
        "latin": 3,
        "latin_words": 4,
    }
    names = [g for g in groups]
    w = [weights[g] for g in names]
    out = []
    for _ in range(count):
        length = rng.choice([1, 2, 3, 5, 8, 12, 20, 30])
        parts = [rng.choice(groups[rng.choices(names, w)[0]]) for _ in range(length)]
        out.append("".join(parts))
    return out


EDGE_CASES = [
    # NFKC 꼴과 전각 숫자·문장부호
    "１２３ 개",
    "ＡＢＣ",
    "가나다１",
    "（괄호）",
    "！？",
    "ﾡ ﾢ",
    "ㄱㄴㄷ",
    "ᄀ ᅡ ᆨ",
    "①②",
    "㈜",
    "㉠",
    "ｶﾞ",
    # 공백: 여러 개, 이상한 공백, 맨 앞·맨 뒤, 공백만
    "나는  학교에   간다",
    " 나는 학교에 간다",
    "나는 학교에 간다 ",
    "\t나는\n학교에\r\n간다",
    "나는\u3000학교",
    "나는\u00a0학교",
    "나는\u200b학교",
    "나는\u2581학교",
    "\u2581\u2581가",
    "   ",
    " ",
    "\u3000",
    "\ufeff가",
    # 숫자, 문장부호, 붙은 조각
    "2024년 3월 1일",
    "3.14159",
    "100%",
    "a",
    "...",
    "?!",
    '"따옴표"',
    "'작은따옴표'",
    "<s>",
    "</s>",
    "<unk>",
    "이메일: a@b.c",
    "#해시태그",
    "~~~",
    "가-나-다",
    "(괄호 안)",
    "[대괄호]",
    "{중괄호}",
    # 드문 음절 (전체 모델에서도 <unk>), 자모로 푼 한글
    "뷁 똠양꿍",
    "쀍쀍",
    "햏햏",
    "ᄒᆞᆫ글",
    "가\u1161",
]
