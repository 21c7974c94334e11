"""빌드 때 TeX 수식을 MathML 로 바꿉니다 (수식 스크립트 0 바이트).

pymdownx.arithmatex(generic: true) 는 `$...$` 를 `<span class="arithmatex">` 요소(글자 `\\(...\\)`),
`$$...$$` 를 `<div class="arithmatex">` 요소(글자 `\\[...\\]`)로 만듭니다. Python-Markdown 의 트리
처리기로 그 요소의 글자를 latex2mathml 의 MathML 로 바꿉니다. MathML 은 Markdown 의 htmlStash 에
맡겨 그대로 출력되게 합니다 (HTML 을 정규식으로 고치지 않습니다).
노트북 페이지의 마크다운 셀도 mkdocs-jupyter 가 같은 Markdown 확장으로 처리하므로 같은 길을 지납니다.

검색: MathML 의 글자를 그대로 색인하면 √d_k 가 "dk" 로, QKᵀ/√d_k 가 "QK⊤dk" 로 뭉개져 검색 결과 미리보기에
보입니다. 그래서 수식 요소는 색인에서 빼고(data-search-exclude), 그 자리에 읽을 수 있는 글자
("√d_k", "(QK^⊤)/√d_k")를 화면에는 보이지 않는 요소(.search-only)로 두어 색인에 넣습니다.
"""

import html
import re
import xml.etree.ElementTree as etree

from bs4 import BeautifulSoup
from latex2mathml.converter import convert
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

# latex2mathml 은 \mathrm{softmax} 를 글자마다 <mi mathvariant="normal"> 로 쪼갭니다.
# 한 낱말로 합치면 여러 글자 <mi> 는 기본이 똑바른 글꼴이라 같은 모양이 되고 HTML 도 짧아집니다.
# (latex2mathml 이 돌려준 MathML 문자열을 다듬는 것이고, 페이지 HTML 을 고치는 것이 아닙니다.)
_SPLIT_WORD = re.compile(r'<mrow>((?:<mi mathvariant="normal">[A-Za-z]</mi>){2,})</mrow>')
_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')
_TOKEN_TEXT = re.compile(r"<m[ion][^>]*>([^<]*)</m[ion]>")
_SINGLE_MI = re.compile(r"<mi>([^<])</mi>")  # mathvariant 없는 한 글자 <mi>: 브라우저는 수학 이탤릭으로 그립니다


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


def tex_to_mathml(tex, display=False):
    """TeX 한 식을 MathML 문자열로 바꿉니다. 바꿀 수 없으면 MathError."""
    try:
        out = convert(tex.strip(), display="block" if display else "inline")
    except Exception as exc:  # latex2mathml 은 여러 종류의 예외를 냅니다
        raise MathError(f"수식을 MathML 로 바꾸지 못했습니다: {tex!r} ({exc})") from exc
    if "negativethinmathspace" in out or "<merror" in out:
        raise MathError(f"MathML 로 옮길 수 없는 명령이 있습니다: {tex!r}")
    out = _SPLIT_WORD.sub(lambda m: "<mi>" + "".join(_LETTER.findall(m.group(1))) + "</mi>", out)
    # 화면 읽기 프로그램과 복사용으로 원래 TeX 를 alttext 로 남깁니다.
    return out.replace(
        '<math xmlns="http://www.w3.org/1998/Math/MathML"',
        f'<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{html.escape(tex.strip())}"',
        1,
    )


def characters(mathml):
    """MathML 이 글꼴로 그리는 글자들: <mi>, <mo>, <mn> 안의 글자, 한 글자 <mi> 의 수학 이탤릭, 근호의 √."""
    chars = set("".join(html.unescape(t) for t in _TOKEN_TEXT.findall(mathml)))
    chars |= {_italic(html.unescape(t)) for t in _SINGLE_MI.findall(mathml)}
    if "<msqrt" in mathml or "<mroot" in mathml:
        chars.add("√")
    return chars


def _wrap(text):
    """한 낱말(글자·숫자·밑줄)이 아니면 괄호로 묶습니다: a/(b+c)."""
    return text if re.fullmatch(r"[\w⊤√]+", text) else f"({text})"


def _plain(el):
    tag = el.name
    kids = [k for k in el.children if k.name]
    if tag in ("mi", "mn", "mo", "mtext"):
        return el.get_text().strip()
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
    """MathML → 검색 색인과 결과 미리보기에 넣을 한 줄 글자 (예: "softmax((QK^⊤)/√d_k)V")."""
    # latex2mathml 의 출력이 늘 올바른 XML 은 아니라서(예: <mi>&</mi>) 너그러운 HTML 파서로 읽습니다.
    return re.sub(r"\s+", " ", _plain(BeautifulSoup(mathml, "html.parser").math)).strip()


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
                mathml = tex_to_mathml(tex, display=el.tag == "div")
            except MathError as exc:
                raise PluginError(str(exc)) from exc
            if self.seen is not None:
                self.seen |= characters(mathml)
            el.text = self.md.htmlStash.store(mathml)
            el.set("data-search-exclude", "")
            hidden = etree.Element(el.tag, {"class": "search-only"})
            hidden.text = search_text(mathml)
            hidden.tail, el.tail = el.tail, None
            parent.insert(list(parent).index(el) + 1, hidden)


class MathExtension(Extension):
    def __init__(self, seen=None):
        super().__init__()
        self.seen = seen

    def extendMarkdown(self, md):
        # inline(20) 이 인라인 수식 요소를 만든 뒤, toc(5) 보다 앞
        md.treeprocessors.register(_Math(md, self.seen), "attention_site_mathml", 15)
