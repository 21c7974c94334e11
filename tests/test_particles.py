"""snippets/lib/particles.py: 독자의 문장에서 조사를 어림하는 규칙. 손으로 표시한 조사와 견주고, 브라우저의 같은 규칙
(docs/assets/own-sentence.js 의 findParticles)이 파이썬과 같은 답을 내는지 봅니다."""

import contextlib
import io

import pytest

from particles import HEAD, PARTICLES, agrees, find_particles, marked_particles, particle_weights, unsplit_words
from supported_strings import generated


@pytest.fixture(scope="module")
def km():
    with contextlib.redirect_stdout(io.StringIO()):
        import korean_model

    return korean_model


def test_finds_every_hand_marked_particle_and_few_others(km):
    """28문장에서 손으로 표시한(따로 떨어진) 조사 조각을 모두 찾고, 잘못 찾는 것은 2개 이하 (조사 꼴의 어미 "먹은"의 "은",
    "뜨는"의 "는"). 받침을 보기 전에는 "사과"의 "과"까지 셋이었습니다."""
    found = missed = wrong = 0
    for annotated, (tokens, _) in zip(km.ANNOTATED, km.results):
        marked = {(s, tuple(h)) for role, s, h in km.attached(annotated, tokens) if role == "조사" and s is not None}
        guessed = {(i, tuple(h)) for i, h in find_particles(tokens, km.START, len(tokens) - 1)}
        found += len(marked & guessed)
        missed += len(marked - guessed)
        wrong += len(guessed - marked)
    assert (found, missed) == (52, 0)  # 붙은 말(앞 조각들)까지 손으로 표시한 것과 같습니다
    assert wrong <= 2


def test_marked_particles_follow_the_korean_chapter(km):
    """라이브러리의 marked_particles(여러분의 문장으로 페이지가 씀)는 한국어 장의 attached 가 조사로 적은 따로 떨어진 조각과
    28문장 모두에서 같습니다: 페이지는 장의 스크립트를 import 하지 않고 같은 답을 냅니다."""
    total = 0
    for annotated, (tokens, _) in zip(km.ANNOTATED, km.results):
        chapter = {s for role, s, _ in km.attached(annotated, tokens) if role == "조사" and s is not None}
        assert marked_particles(annotated, tokens, km.START, len(tokens) - 1) == chapter, annotated
        total += len(chapter)
    assert total == 52


def test_rule_on_small_cases():
    s = "\u2581"
    tokens = [
        "<s>",
        f"{s}que",
        "ry",
        ":",
        f"{s}고양이",
        "가",
        f"{s}매",
        "트",
        f"{s}",
        "위에",
        f"{s}",
        "앉",
        "았다",
        "</s>",
    ]
    assert find_particles(tokens, 4, 13) == [(5, [4])]
    tokens = ["<s>", f"{s}나", "는", f"{s}", "학교", "에", ".", "</s>"]
    assert find_particles(tokens, 1, 7) == [
        (2, [1]),
        (5, [4]),
    ]  # ▁ 만 있는 조각은 붙은 말이 아니고, 끝의 마침표는 건넙니다
    assert find_particles(["<s>", f"{s}가", "</s>"], 1, 2) == []  # 어절의 첫 조각은 조사가 아닙니다
    assert find_particles(["<s>", f"{s}가", "는", "길", "</s>"], 1, 4) == []  # 어절 끝이 아니면 조사가 아닙니다
    assert "가" in PARTICLES and "나" not in PARTICLES and HEAD == (6, 10)


@pytest.mark.parametrize(
    ("host", "particle", "ok"),
    [
        ("사", "과", False),  # 사과: 받침 없는 글자 뒤의 "과"는 조사가 아닙니다
        ("책", "과", True),
        ("나", "와", True),
        ("아", "이", False),  # 아이
        ("고양", "이", True),
        ("나이", "를", True),
        ("길", "로", True),  # ㄹ 받침 뒤에는 "로"
        ("길", "으로", False),
        ("집", "으로", True),
        ("집", "로", False),
        ("12개", "를", True),
        ("3", "을", True),  # 숫자 뒤는 읽는 소리를 모르므로 받아들입니다
        ("학교", "에", True),  # 받침과 상관없는 조사
    ],
)
def test_particles_agree_with_the_final_consonant(host, particle, ok):
    assert agrees(host, particle) is ok


def test_rule_skips_a_noun_ending_like_a_particle():
    """이슈의 문장: "사과"의 "과"는 조사가 아니고, 조사가 앞 글자와 한 조각이 된 어절(15일에, 12개를)과 문장부호가
    가운데 든 어절(3,500원에)은 표에 넣지 못한 말로 따로 알립니다."""
    from e5_numpy import PREFIX, load_e5

    tokens = load_e5().tokenizer.encode(PREFIX + "2024년 3월 15일에 사과 12개를 3,500원에 샀다.").tokens
    assert tokens[tokens.index("\u2581사") + 1] == "과"  # 모델은 "사과"를 "▁사" + "과"로 나눕니다
    assert find_particles(tokens, 4, len(tokens) - 1) == []
    assert unsplit_words(tokens, 4, len(tokens) - 1) == [("15일에", "에"), ("12개를", "를"), ("3,500원에", "에")]
    tokens = load_e5().tokenizer.encode(PREFIX + "반장은 물을 마셨고 나는 밥을 먹은 뒤 잤다.").tokens
    assert [tokens[i] for i, _ in find_particles(tokens, 4, len(tokens) - 1)] == ["을", "은"]  # 밥을, 먹은(어미)
    assert [w for w, _ in unsplit_words(tokens, 4, len(tokens) - 1)] == ["반장은", "물을", "나는"]


def test_particle_weights_sum_the_words_pieces():
    import numpy as np

    w = np.zeros((12, 12, 5, 5))
    w[6, 10, 3, 1], w[6, 10, 3, 2], w[0, 0, 3, 1] = 0.25, 0.5, 0.9
    assert particle_weights(w, [(3, [1, 2])]) == [0.75]


FIND_JS = """cases => cases.map(([tokens, q0, q1]) => [
  window.ownSentence.findParticles(tokens, q0, q1).map(f => [f.particle, f.host]),
  window.ownSentence.unsplitWords(tokens, q0, q1).map(u => [u.word, u.particle])])"""


@pytest.mark.browser
def test_browser_rule_equals_python(phone, km):
    """같은 토큰에서 브라우저의 findParticles = 파이썬의 find_particles, unsplitWords = unsplit_words: 사이트의 문장 28개와
    무작위 글 400개."""
    from e5_numpy import PREFIX, load_e5

    page = phone.open("own_sentence/")
    phone.read_through(whole_page=False)
    tok = load_e5().tokenizer
    cases = [(tokens, km.START, len(tokens) - 1) for tokens, _ in km.results]
    for text in generated("ko", 400, seed=11):
        tokens = tok.encode(PREFIX + text).tokens
        cases.append((tokens, km.START, len(tokens) - 1))
    got = page.evaluate(FIND_JS, cases)
    want = [[[[i, host] for i, host in find_particles(*c)], [list(u) for u in unsplit_words(*c)]] for c in cases]
    assert got == want
    assert sum(len(w[0]) for w in want) > 60  # 비교할 조사가 충분히 있습니다 (28문장에서만 54개)
    assert sum(len(w[1]) for w in want) > 30  # 표에 넣지 못한 말도 (45개)
    phone.assert_clean()
