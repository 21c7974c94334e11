"""용어를 어느 페이지에서나 같은 말로 쓰는지 확인합니다. 기준은 docs/glossary.md 의 표입니다."""

import re

import pytest

from conftest import SNIPPETS, snippet_files
from site_pages import DOCS, markdown_pages

ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*[^|]*\|\s*([^|]*?)\s*\|$")


def glossary():
    """[(용어, 영어, [피하는 번역…])] — 용어집 표에서 읽습니다."""
    rows = []
    for line in (DOCS / "glossary.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m and m.group(1) not in ("용어", "---") and not set(m.group(1)) <= {"-"}:
            avoid = [a.strip() for a in m.group(3).split(",") if a.strip()]
            rows.append((m.group(1), m.group(2), avoid))
    return rows


def prose(text):
    """본문만: 머리말(front matter), 코드 블록, 제목 줄, 그림의 대체 텍스트, HTML 주석,
    맨 끝의 "다음 장:" 줄은 뺍니다."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    text = re.sub(r"^([ \t]*)(```|~~~).*?^\1\2[^\n]*$", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"!\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)", "", text)
    return "\n".join(
        line for line in text.splitlines() if not line.lstrip().startswith("#") and not line.startswith("다음 장:")
    )


SOURCES = (
    [DOCS / p for p in markdown_pages() if p != "glossary.md"]
    + sorted((SNIPPETS / "notebooks").glob("*.md"))
    + snippet_files()
)


@pytest.mark.reads("docs/glossary.md")
def test_glossary_has_the_section_map_terms():
    terms = {t for t, _, _ in glossary()}
    for must in [
        "어텐션",
        "쿼리 (Q)",
        "키 (K)",
        "밸류 (V)",
        "내적",
        "스케일링",
        "소프트맥스",
        "어텐션 가중치",
        "가중합",
        "셀프 어텐션",
        "크로스 어텐션",
        "마스크드(인과) 셀프 어텐션",
        "인코더",
        "디코더",
        "멀티헤드 어텐션",
        "헤드",
        "히트맵",
    ]:
        assert must in terms, f"용어집에 {must} 가 없습니다"


@pytest.mark.reads("docs/*.md", "snippets/*.py", "snippets/notebooks/*.md")
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_competing_translations(path):
    text = path.read_text(encoding="utf-8")
    for term, _, avoid in glossary():
        for word in avoid:
            assert word not in text, f"{path.name}: '{word}' 대신 용어집의 '{term}' 을 씁니다"


# 페이지에서 처음 쓸 때 영어 원어를 괄호에 적는 용어 (흔한 낱말 속에 섞이지 않는 것들)
FIRST_USE = {
    "어텐션": "attention",
    "쿼리": "query",
    "밸류": "value",
    "내적": "dot product",
    "소프트맥스": "softmax",
    "가중합": "weighted sum",
    "셀프 어텐션": "self-attention",
    "크로스 어텐션": "cross-attention",
    "멀티헤드 어텐션": "multi-head attention",
    "히트맵": "heatmap",
    "어블레이션": "ablation",
    "인코더": "encoder",
    "디코더": "decoder",
    "헤드": "head",
    "스케일링": "scaling",
    "어텐션 가중치": "attention weight",
    "엔트로피": "entropy",
    "KV 캐시": "KV cache",
    "온라인 소프트맥스": "online softmax",
    "타일링": "tiling",
    "슬라이딩 윈도 어텐션": "sliding window attention",
    "퍼플렉서티": "perplexity",
    "순위 상관": "rank correlation",
}


@pytest.mark.reads("docs/*.md", "snippets/*.py", "snippets/notebooks/*.md")
@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix == ".md"], ids=lambda p: p.name)
def test_english_term_at_first_use(path):
    text = prose(path.read_text(encoding="utf-8"))
    for term, english in FIRST_USE.items():
        i = text.find(term)
        if i < 0:
            continue
        after = text[i + len(term) : i + len(term) + 40]
        m = re.match(r"[^\s(]{0,3}(?:\s?[가-힣]{1,4})?\s?\(([^)]*)\)", after)
        assert m and english.lower() in m.group(1).lower(), (
            f"{path.name}: '{term}' 이 처음 나오는 곳에 영어 원어 ({english}) 가 없습니다: …{text[i : i + 40]!r}"
        )


def meaning(term):
    """용어집 표에서 그 용어의 "뜻" 칸."""
    for line in (DOCS / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] == term:
            return cells[2]
    raise AssertionError(f"용어집에 {term} 이 없습니다")


@pytest.mark.reads("docs/glossary.md")
def test_dot_product_is_defined_by_length_and_direction():
    """issue 29: 내적은 같은 자리 곱의 합이라 벡터가 길수록, 방향이 비슷할수록 큽니다. 방향만으로 정의하면 틀립니다
    (2장 본문도 "비슷한 방향일수록, 그리고 길수록" 이라고 씁니다)."""
    import numpy as np

    text = meaning("내적")
    assert "곱해 모두 더한 값" in text and "길수록" in text and "방향이 비슷할수록" in text
    a, b = np.array([1.0, 1.0]), np.array([1.0, 0.9])
    assert np.dot(3 * a, b) > np.dot(a, b)  # 같은 방향이어도 길면 더 큽니다


@pytest.mark.reads("docs/glossary.md")
def test_rope_score_still_depends_on_query_and_key():
    """issue 29 §2: RoPE 에서 점수가 "두 자리의 차이에만" 달린 것이 아닙니다. 점수는 쿼리와 키의 내용에 달려 있고,
    위치는 두 자리의 차이로만 들어갑니다 (8장의 설명과 같은 말)."""
    text = meaning("회전 위치 임베딩 (RoPE)")
    assert "차이에만 달려" not in text
    assert "여전히 쿼리와 키의 내용에 달려" in text and "위치는 두 자리의 차이로만" in text


@pytest.mark.reads("docs/glossary.md")
def test_attention_is_not_counted_in_suits():
    """issue 29 §4: 어텐션과 헤드를 "여러 벌", "한 벌" 로 세지 않습니다 (벌은 옷이나 한 묶음을 세는 말)."""
    for term in ("멀티헤드 어텐션", "헤드"):
        assert "벌" not in meaning(term), term


@pytest.mark.reads("docs/*.md")
def test_the_measures_and_the_tokenizer_the_pages_use_are_defined():
    """issue 39 §5: 페이지가 쓰는 1 − cos, 순위 상관, BPE 가 용어집에 없었습니다. 용어집에 있고, 페이지가 정말 쓰고,
    뜻풀이의 숫자가 계산과 맞습니다."""
    import numpy as np

    terms = {t for t, _, _ in glossary()}
    pages = {p: (DOCS / p).read_text(encoding="utf-8") for p in markdown_pages() if p != "glossary.md"}
    for term in ("1 − cos", "순위 상관", "BPE"):
        assert term in terms, f"용어집에 {term} 이 없습니다"
        assert any(term in text for text in pages.values()), f"{term} 을 쓰는 페이지가 없습니다"
    cos = lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b)  # noqa: E731
    a = np.array([1.0, 2.0])
    text = meaning("1 − cos")
    assert "같으면 0, 수직이면 1, 반대면 2" in text
    assert [round(1 - cos(a, b), 12) for b in (3 * a, np.array([-2.0, 1.0]), -a)] == [0, 1, 2]
    rank = lambda v: np.argsort(np.argsort(v))  # noqa: E731
    spearman = lambda x, y: np.corrcoef(rank(x), rank(y))[0, 1]  # noqa: E731
    x = np.array([0.3, 0.1, 0.7, 0.2])
    text = meaning("순위 상관")
    assert "똑같으면 1, 거꾸로면 −1" in text
    assert spearman(x, x**3) == pytest.approx(1) and spearman(x, -x) == pytest.approx(-1)
    assert "Gemma 3" in meaning("BPE") and "BPE" in pages["next_token.md"]
