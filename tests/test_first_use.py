"""코어 함수는 그 함수를 가르치는 장보다 앞에서 쓰지 않습니다.

nav 순서대로 페이지(와 실습 노트북)의 코드를 읽어, 코어(attention.py)의 공개 함수가 처음 나오는
장을 표로 만듭니다. "나오는 것"은 그 장이 보여 주는 코드(include 를 펼친 python 블록)와 그 장의
스니펫 파일(snippets/<장>.py, 그림 코드 포함)에서 함수 이름을 부르거나 정의하는 것입니다.
예전 5장처럼 6장에서 배우는 multi_head_attention 을 먼저 쓰면 이 표가 달라져 실패합니다.
"""

import ast
import functools

import pytest

from conftest import SNIPPETS
from site_pages import nav_pages, page_blocks
from sitebuild import snippets
from test_pages import source_of

# 코어 함수마다 그 함수를 처음 보여 주고 설명하는 장.
INTRODUCED_IN = {
    "softmax": "library_analogy.md",  # 1장: 점수를 가중치로 바꾸는 함수로 처음 씁니다 (2장에서 식을 봅니다)
    "scaled_dot_product_attention": "four_steps.md",
    "masked_softmax": "four_steps.md",  # 2장의 접어 둔 "코어 전체 코드" 안에서
    "causal_mask": "self_vs_cross.md",
    "split_heads": "multi_head.md",
    "merge_heads": "multi_head.md",
    "multi_head_attention": "multi_head.md",
    "padding_mask": "core_tour.md",
}


def core_functions():
    import attention

    return set(attention.__all__)


def names_in(code):
    """코드가 부르거나 정의하거나 import 하는 이름들."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.name for alias in node.names)
    return names


def page_code(doc):
    """nav 항목 하나가 보여 주는 코드와 그 장의 스니펫 파일."""
    if doc.endswith(".ipynb"):
        from site_pages import expander
        from sitebuild import codeblocks

        src = source_of(doc).read_text(encoding="utf-8")
        blocks = [b.code for b in codeblocks.python_blocks(expander()(src))]
        module = snippets.path_of(SNIPPETS, "practice_part" + doc.split("part")[1][0])
    else:
        blocks = [b.code for b in page_blocks(doc)]
        module = snippets.path_of(SNIPPETS, doc.removesuffix(".md"))
    if module is not None:
        blocks.append(module.read_text(encoding="utf-8"))
    return "\n\n".join(blocks)


@functools.cache  # 함수마다 한 번씩 (7번) 모든 페이지를 다시 읽지 않게
def first_use_table():
    """{코어 함수: 처음 나오는 nav 항목}, 그리고 nav 항목마다 쓰는 코어 함수."""
    core = core_functions()
    first, per_page = {}, {}
    for doc in nav_pages():
        used = names_in(page_code(doc)) & core
        per_page[doc] = used
        for name in sorted(used):
            first.setdefault(name, doc)
    return first, per_page


@pytest.mark.reads("docs/*.md")
def test_table_covers_every_core_function():
    assert set(INTRODUCED_IN) == core_functions()
    assert set(INTRODUCED_IN.values()) <= set(nav_pages())


def test_names_in_sees_calls_imports_and_definitions():
    code = "from attention import softmax\nimport attention\nattention.causal_mask(3)\ndef split_heads(x): pass\n"
    assert {"softmax", "causal_mask", "split_heads"} <= names_in(code)
    assert "multi_head_attention" not in names_in("# multi_head_attention 은 주석일 뿐\nx = 'multi_head_attention'")


@pytest.mark.reads("docs/*.md", "snippets/notebooks/*.md")
@pytest.mark.parametrize("name", sorted(INTRODUCED_IN))
def test_no_chapter_uses_a_core_function_before_it_is_introduced(name):
    first, per_page = first_use_table()
    order = nav_pages()
    users = [doc for doc in order if name in per_page[doc]]
    assert first.get(name) == INTRODUCED_IN[name], (
        f"{name} 을 처음 쓰는 곳이 {first.get(name)} 인데, 이 함수를 가르치는 장은 {INTRODUCED_IN[name]} 입니다. "
        f"쓰는 곳(nav 순서): {users}"
    )


# --- 낱말의 뜻도 처음 쓰는 곳에서 밝힙니다 (issue 29) ----------------------------------------------------
# 히트맵 장이 헤드·층·[CLS]·[SEP]·특수 토큰을 그것을 설명하는 장보다 두 장 앞에서 뜻 없이 썼고, 1장은 2장이 정의하는
# d_k 를, 들어가며는 토큰·층·O(n²·d) 를 뜻 없이 썼습니다. 낱말마다 nav 순서로 처음 쓰는 페이지와, 그 페이지에서 낱말이
# 처음 나오는 문단에 있어야 할 뜻풀이를 적습니다. 링크 글(장 제목 목록)은 본문으로 치지 않습니다.
DEFINED_AT_FIRST_USE = {
    "토큰": ("index.md", r"토큰", r"토큰\(token\)이라는 조각"),
    "층": ("index.md", r"층(?! 정규화)", r"이 단계 하나를 층\(layer\)이라고 부릅니다"),
    "O(…)": ("index.md", r"O\(", r"O\(n²·d\)처럼 쓴 값은 .*비례해 늘어난다는 뜻"),
    "d_k": ("library_analogy.md", r"d_k", r"d_k는 새로 만드는 쿼리와 키 벡터의 차원"),
    # 3장이 처음 쓰는 통계와 학습의 낱말 (issue 41: 새로 온 독자의 통독이 뜻 없이 나온다고 짚었습니다)
    "분산": ("why_scale.md", r"분산", r"분산은 값이 평균에서 떨어진 거리의 제곱을 평균한 것"),
    "표준편차": ("why_scale.md", r"표준편차", r"표준편차\(standard deviation\)는 값이 평균에서 보통 얼마나 떨어지는지"),
    "기울기": ("why_scale.md", r"기울기", r"기울기\(gradient\), 곧 점수를 조금 움직일 때 가중치가 변하는 정도"),
    "헤드": ("heatmap.md", r"(?<!멀티)헤드", r"어텐션 계산 하나를 헤드\(head\)라고 부릅니다"),
    "특수 토큰": ("heatmap.md", r"특수 토큰", r"\[SEP\]라는 특수 토큰\(special token\)을 붙입니다"),
    "[CLS]": ("heatmap.md", r"\[CLS\]", r"문장 맨 앞에 \[CLS\]"),
    "[SEP]": ("heatmap.md", r"\[SEP\]", r"문장 끝에 \[SEP\]"),
}


def paragraphs(doc):
    """nav 항목 하나의 본문 문단들 (test_glossary.prose 의 규칙으로, 링크 글은 뺍니다)."""
    import re

    from test_glossary import prose

    text = prose(source_of(doc).read_text(encoding="utf-8"))
    text = re.sub(r"\[[^\]]*\]\([^)]*\)", "", text)
    return [p for p in re.split(r"\n\s*\n", text) if p.strip()]


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("word", sorted(DEFINED_AT_FIRST_USE))
def test_words_are_explained_where_they_are_first_used(word):
    import re

    page, pattern, definition = DEFINED_AT_FIRST_USE[word]
    order = nav_pages()
    first = next(doc for doc in order if any(re.search(pattern, p) for p in paragraphs(doc)))
    assert first == page, f"'{word}' 을 처음 쓰는 곳이 {first} 인데, 뜻을 밝히는 곳은 {page} 입니다"
    paragraph = next(p for p in paragraphs(page) if re.search(pattern, p))
    assert re.search(definition, paragraph), f"{page}: '{word}' 이 처음 나오는 문단에 뜻풀이가 없습니다:\n{paragraph}"
