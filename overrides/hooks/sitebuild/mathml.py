"""빌드 때 TeX 수식을 MathML 로 바꿉니다 (수식 스크립트 0 바이트).

pymdownx.arithmatex(generic: true) 는 `$...$` 를 `<span class="arithmatex">` 요소(글자 `\\(...\\)`),
`$$...$$` 를 `<div class="arithmatex">` 요소(글자 `\\[...\\]`)로 만듭니다. Python-Markdown 의 트리
처리기로 그 요소의 글자를 latex2mathml 의 MathML 로 바꿉니다. latex2mathml 이 만든 MathML 나무 하나를 다듬고
(낱말 합치기, alttext), 글꼴 확인용 글자와 검색용 글자도 그 나무에서 읽은 뒤 한 번 직렬화합니다 (MathML 문자열을
정규식으로 고치거나 다시 파싱하지 않습니다). MathML 은 Markdown 의 htmlStash 에 맡겨 그대로 출력되게 합니다.
노트북 페이지의 마크다운 셀도 mkdocs-jupyter 가 같은 Markdown 확장으로 처리하므로 같은 길을 지납니다.

검색: MathML 의 글자를 그대로 색인하면 √d_k 가 "dk" 로, QKᵀ/√d_k 가 "QK⊤dk" 로 뭉개져 검색 결과 미리보기에
보입니다. 그래서 수식 요소는 색인에서 빼고(data-search-exclude), 그 자리에 읽을 수 있는 글자
("√d_k", "(QK^⊤)/√d_k")를 화면에는 보이지 않는 요소(.search-only)로 두어 색인에 넣습니다.
"""

import html
import re
import xml.etree.ElementTree as etree

from latex2mathml.converter import convert_to_element
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

MATHML = "http://www.w3.org/1998/Math/MathML"
TOKENS = ("mi", "mo", "mn")  # 수식 글꼴로 그리는 글자를 담는 요소 (mtext 는 본문 글꼴로 그립니다)


def _italic(ch):
    """MathML 이 한 글자 <mi> 를 그릴 때 쓰는 수학 이탤릭 글자 (유니코드 수학 문자 영역)."""
    if ch == "h":
        return "\u210e"  # ℎ 는 수학 영역 밖에 따로 있습니다
    if "A" <= ch <= "Z":
        return chr(0x1D434 + ord(ch) - ord("A"))
    if "a" <= ch <= "z":
        return chr(0x1D44E + ord(ch) - ord("a"))
    if "\u03b1" <= ch <= "\u03c9":
        return chr(0x1D6FC + ord(ch) - 0x3B1)
    return ch


# arithmatex 의 generic 출력: 인라인 \( \), 블록 \[ \]
WRAPS = {"span": ("\\(", "\\)"), "div": ("\\[", "\\]")}


class MathError(ValueError):
    pass


def _name(el):
    """요소의 태그 이름 (문자열에서 읽은 나무는 {MathML 이름공간}mi 처럼 이름공간이 붙습니다)."""
    return el.tag.rpartition("}")[2]


def _is_letter(el):
    return (
        _name(el) == "mi"
        and el.attrib == {"mathvariant": "normal"}
        and len(el) == 0
        and re.fullmatch("[A-Za-z]", el.text or "") is not None
    )


def math_element(tex, display=False):
    """TeX 한 식을 MathML 나무(<math> 요소)로 바꿉니다. 바꿀 수 없으면 MathError.

    latex2mathml 이 만든 나무를 문자열로 바꾸지 않고 그대로 다듬습니다. 글자 처리와 검색용 글자도 이 나무에서 읽습니다.
    """
    tex = tex.strip()
    try:
        math = convert_to_element(tex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml 은 여러 종류의 예외를 냅니다
        raise MathError(f"수식을 MathML 로 바꾸지 못했습니다: {tex!r} ({exc})") from exc
    for el in math.iter():
        if _name(el) == "merror" or "negativethinmathspace" in " ".join(el.attrib.values()):
            raise MathError(f"MathML 로 옮길 수 없는 명령이 있습니다: {tex!r}")
        # latex2mathml 은 기호를 "&#x0002B;" 같은 참조 글자로 요소에 넣어 두고, 문자열로 바꿀 때 이스케이프를
        # 되돌려 참조로 내보냅니다. 나무에서는 참조를 그 글자로 풀어 둡니다 (직렬화가 필요한 곳만 이스케이프합니다).
        if el.text:
            el.text = html.unescape(el.text)
    # latex2mathml 은 \mathrm{softmax} 를 글자마다 <mi mathvariant="normal"> 로 쪼갭니다.
    # 한 낱말로 합치면 여러 글자 <mi> 는 기본이 똑바른 글꼴이라 같은 모양이 되고 HTML 도 짧아집니다.
    split = [el for el in math.iter("mrow") if not el.attrib and len(el) >= 2 and all(map(_is_letter, el))]
    for el in split:
        el.tag, el.text = "mi", "".join(k.text for k in el)
        for kid in list(el):
            el.remove(kid)
    # 화면 읽기 프로그램과 복사용으로 원래 TeX 를 alttext 로 남깁니다 (xmlns 바로 뒤).
    rest = {k: v for k, v in math.attrib.items() if k != "xmlns"}
    math.attrib.clear()
    math.attrib.update({"xmlns": MATHML, "alttext": tex, **rest})
    return math


def tex_to_mathml(tex, display=False):
    """TeX 한 식을 MathML 문자열로 바꿉니다. 바꿀 수 없으면 MathError."""
    return etree.tostring(math_element(tex, display), encoding="unicode")


def _tree(mathml):
    """MathML 나무 또는 문자열(tex_to_mathml 의 출력, 올바른 XML) → 나무."""
    return etree.fromstring(mathml) if isinstance(mathml, str) else mathml


def characters(mathml):
    """MathML 이 글꼴로 그리는 글자들: <mi>, <mo>, <mn> 안의 글자, 한 글자 <mi> 의 수학 이탤릭, 근호의 √.

    mathml 은 math_element 의 나무 또는 tex_to_mathml 의 문자열입니다.
    """
    chars = set()
    for el in _tree(mathml).iter():
        name, text = _name(el), el.text or ""
        if name in TOKENS:
            chars |= set(text)
        if name == "mi" and not el.attrib and len(text) == 1:
            chars.add(_italic(text))
        if name in ("msqrt", "mroot"):
            chars.add("√")
    return chars


def _wrap(text):
    """한 낱말(글자·숫자·밑줄)이 아니면 괄호로 묶습니다: a/(b+c)."""
    return text if re.fullmatch(r"[\w⊤√]+", text) else f"({text})"


def _plain(el):
    tag = _name(el)
    kids = list(el)
    if tag in ("mi", "mn", "mo", "mtext"):
        return "".join(el.itertext()).strip()
    if tag == "mspace":
        return " "
    if tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover") and kids:
        base, marks = _plain(kids[0]), {"msub": "_", "munder": "_", "msup": "^", "mover": "^"}
        if tag in marks:
            return f"{base}{marks[tag]}{_wrap(_plain(kids[1]))}"
        return f"{base}_{_wrap(_plain(kids[1]))}^{_wrap(_plain(kids[2]))} "  # ∑_(i=1)^n 뒤는 띄웁니다
    if tag == "msqrt":
        return "√" + _wrap("".join(_plain(k) for k in kids))
    if tag == "mfrac" and len(kids) == 2:
        return f"{_wrap(_plain(kids[0]))}/{_wrap(_plain(kids[1]))}"
    return "".join(_plain(k) for k in kids)


def search_text(mathml):
    """MathML(나무 또는 문자열) → 검색 색인과 결과 미리보기에 넣을 한 줄 글자 (예: "softmax((QK^⊤)/√d_k)V")."""
    return re.sub(r"\s+", " ", _plain(_tree(mathml))).strip()


class _Math(Treeprocessor):
    def __init__(self, md, seen):
        super().__init__(md)
        self.seen = seen  # 빌드가 쓰는 글자를 모으는 집합 (수식 글꼴 확인용) 또는 None

    def run(self, root):
        found = [
            (parent, el)
            for parent in root.iter()
            for el in parent
            if "arithmatex" in (el.get("class") or "").split() and el.tag in WRAPS
        ]
        for parent, el in found:
            text = el.text or ""
            start, end = WRAPS[el.tag]
            if not (text.startswith(start) and text.endswith(end)):
                raise PluginError(f"arithmatex 가 예상과 다른 모양의 수식을 남겼습니다: {text[:80]!r}")
            # 블록 수식은 arithmatex 가 &, <, > 를 미리 이스케이프해 둡니다.
            tex = html.unescape(text[len(start) : -len(end)]) if el.tag == "div" else text[len(start) : -len(end)]
            try:
                math = math_element(tex, display=el.tag == "div")
            except MathError as exc:
                raise PluginError(str(exc)) from exc
            if self.seen is not None:
                self.seen |= characters(math)
            el.text = self.md.htmlStash.store(etree.tostring(math, encoding="unicode"))
            el.set("data-search-exclude", "")
            hidden = etree.Element(el.tag, {"class": "search-only"})
            hidden.text = search_text(math)
            hidden.tail, el.tail = el.tail, None
            parent.insert(list(parent).index(el) + 1, hidden)


class MathExtension(Extension):
    def __init__(self, seen=None):
        super().__init__()
        self.seen = seen

    def extendMarkdown(self, md):
        # inline(20) 이 인라인 수식 요소를 만든 뒤, toc(5) 보다 앞
        md.treeprocessors.register(_Math(md, self.seen), "attention_site_mathml", 15)
