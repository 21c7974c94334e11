"""붙여 쓴 어절이 줄바꿈에서 갈라지지 않게 묶습니다 (Python-Markdown 트리 처리기).

한국어 본문은 띄어쓰기에서만 줄을 바꿉니다(site.css 의 word-break: keep-all). 그런데 브라우저는 keep-all 에서도
닫는 괄호·따옴표, "%", 기호로 끝나는 인라인 코드 바로 뒤를 줄을 바꿀 수 있는 자리로 봅니다. 그래서 조사(서술격
조사 "입니다" 포함)가 혼자 다음 줄 맨 앞에 떨어졌습니다: "[CLS]⏎가", "(3, 3)⏎입니다", "</s>⏎는".
숫자 범위도 대시 뒤에서 갈라졌습니다: "헤드 7-⏎11", "2–⏎5층". 여기서는 그런 자리를 <span class="glue"> 로 묶고,
site.css 가 그 안에서 줄을 바꾸지 않게 합니다(white-space: nowrap).

- 글 안에서: 닫는 괄호·따옴표·"%" 에 한글이 바로 붙은 자리를 그 앞 글자부터 ("[CLS]가" 의 "S]가",
  "(3, 3)입니다" 의 "3)입니다"), 그리고 숫자 범위 ("7-11은", "2–5층", "0.98–0.99").
- 요소 뒤에서: 인라인 수식(그 검색용 글자와 함께, sitebuild/mathml.py; 지금의 Chromium 은 수식 뒤를 가르지 않지만
  수식을 글줄 안의 한 덩어리로 다루는 방식은 브라우저마다 다릅니다), 또는 글자가 아닌 기호로 끝나는 요소
  (인라인 코드, 링크, 굵은 글씨 …)에 한글이 바로 붙으면 그 요소와 한글을 함께 묶습니다.
  글자로 끝나는 요소("<code>split_heads</code>는")는 keep-all 이 이미 붙여 두므로 그대로 둡니다.

Chromium 은 요소가 끝나는 자리의 줄바꿈을 그 요소 자신의 white-space 로 정합니다: 바깥 span 만 nowrap 이면
"<code>f(x)</code>⏎를" 이 그대로 갈라집니다. 그래서 site.css 는 묶음 안의 요소까지 nowrap 으로 두고, 여기서는
휴대전화의 가장 좁은 칸에도 한 줄로 들어가는 요소만 span 으로 묶습니다(MAX_EM). 그보다 긴 요소(예: 두 낱말이 넘는
링크)를 묶으면 그 안에서 줄을 바꿀 수 없게 되므로, 요소와 한글 사이에 WORD JOINER(U+2060, 모든 브라우저가 따르는
"여기서 줄을 바꾸지 않음" 글자, 그려지지 않음)를 넣습니다. 검색 색인에서는 searchindex 가 그 글자를 지웁니다.
글자를 바꾸거나 U+2011(줄바꿈 없는 하이픈)로 대시를 바꾸지 않는 까닭: 복사한 글과 검색이 "7-11" 그대로여야 합니다.

실행 결과(<pre><samp>, sitebuild/fences.py)는 따로 묶습니다(output_tokens): 휴대전화에서 그 상자는 줄을 접는데
(sitebuild/lines.py), 브라우저는 띄어쓰기가 없는 토큰 안에서도 줄을 바꿨습니다: "'1-⏎7'", "0.27–⏎0.45", "2.02e-⏎43",
"∂p₁/⏎∂s₁", "▁⏎문제를", "'##⏎ㄴ'", "v.shape=⏎(6,". 실행 결과에서는 띄어쓰기만 줄을 바꾸는 자리이므로, 글자·숫자가 아닌 것이
가운데 든 토큰을 통째로 묶습니다.

처리 순서: 인라인 처리(20)와 수식(mathml, 15) 다음, 목차(toc, 5) 앞. 노트북 페이지의 마크다운 셀도 mkdocs-jupyter 가
같은 확장으로 처리합니다. 확인: tests/test_glue.py (규칙), 브라우저의 줄바꿈 검사 tests/js/midword_breaks.js
(375 px 와 1280 px 의 모든 페이지에서 조사가 혼자 줄 맨 앞에 온 곳, 범위가 대시에서 갈라진 곳 0).
"""

import re
import unicodedata
import xml.etree.ElementTree as etree
from html import escape

from bs4 import BeautifulSoup
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

GLUE_CLASS = "glue"
HANGUL = "가-힣"
# 닫는 괄호와 따옴표, 퍼센트. 곧은 따옴표(" ')도 넣습니다: 한글 옆에서는 Chromium 이 그 앞뒤에서도 줄을 바꿉니다.
CLOSERS = ")\\]}〉》」』】”’\"'%‰"
# 어절 하나 (앞의 띄어쓰기부터 붙은 한글 끝까지): 닫는 글자 앞에 다른 글자가 있어야 닫는 것입니다 ("나는" 의 여는
# 따옴표는 아닙니다). 요소 바로 뒤의 글(tail)은 맨 앞의 닫는 글자도 닫는 것입니다: <code>f(x</code>)를.
# \x02 \x03 은 Markdown 이 맡아 둔 HTML 의 자리표시 경계입니다.
_ATTACHED = re.compile(rf"[^\s\x02\x03{CLOSERS}][{CLOSERS}]+[{HANGUL}]+")
_ATTACHED_AT_START = re.compile(rf"^[{CLOSERS}]+[{HANGUL}]+")
_NUMBER = r"\d+(?:[.,]\d+)*"
_RANGE = re.compile(rf"(?<![\w.]){_NUMBER}(?:[-\u2010\u2011\u2013]{_NUMBER})+[{HANGUL}]*")
_LEADING_HANGUL = re.compile(rf"^[{HANGUL}]+")
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
SKIP_TAGS = {"pre", "code", "script", "style", "svg", "math", "kbd", "samp"}
JOINER = "\u2060"  # WORD JOINER: 앞뒤에서 줄을 바꾸지 않는, 보이지 않는 글자
# span 으로 묶는 요소(코드, 링크 …)의 폭 상한 (본문 글자 크기 em): 휴대전화의 가장 좁은 칸(접은 풀이 안의 글,
# 약 280 px = 17.5 em)에 여유를 두고 들어가는 폭
MAX_EM = 14


def width_em(text, code=False):
    """글의 대략적인 폭 (em): 한글·한자는 1, 나머지는 0.55. 코드는 본문의 0.85배 크기로 그려집니다."""
    em = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.55 for ch in text)
    return em * 0.85 if code else em


def _classes(el):
    return (el.get("class") or "").split()


def _skipped(el):
    """안의 글을 건드리지 않는 요소: 코드, 수식과 그 검색용 글자, 이미 묶은 것."""
    classes = _classes(el)
    return el.tag in SKIP_TAGS or "arithmatex" in classes or "search-only" in classes or GLUE_CLASS in classes


class _Glue(Treeprocessor):
    def visible_text(self, el):
        """요소가 화면에 그리는 글자 (Markdown 이 맡아 둔 HTML, 예: 색칠한 인라인 코드는 그 글자로)."""

        def stashed(m):
            raw = self.md.htmlStash.rawHtmlBlocks[int(m.group(1))]
            return BeautifulSoup(str(raw), "html.parser").get_text()

        return HTML_PLACEHOLDER_RE.sub(stashed, "".join(el.itertext()))

    def atom(self, parent, index):
        """parent[index] 의 tail 에 한글이 붙으면 함께 묶을 요소들과 묶는 방법 ("span" 또는 "joiner"), 아니면 None.

        수식은 그 검색용 글자까지 함께 묶습니다. 글자로 끝나는 요소는 keep-all 이 이미 붙여 두므로 묶지 않습니다
        ("<code>split_heads</code>는"). 한 줄에 다 들어가지 않을 수 있는 긴 요소는 span 으로 묶으면 그 안에서 줄을
        바꿀 수 없게 되므로, 요소와 한글 사이에 WORD JOINER 를 넣습니다 (searchindex 가 색인에서 지웁니다).
        """
        child = parent[index]
        if child.tag in ("br", "div", "img") or GLUE_CLASS in _classes(child):
            return None
        if "search-only" in _classes(child) and index > 0 and "arithmatex" in _classes(parent[index - 1]):
            return [parent[index - 1], child], "span"  # 인라인 수식: 한 덩어리라 길이와 상관없이
        text = self.visible_text(child)
        if not text or text[-1].isspace() or re.match(r"\w", text[-1]):
            return None
        return [child], ("span" if width_em(text, child.tag == "code") <= MAX_EM else "joiner")

    def split(self, text, after_element):
        """글 하나 → [글, 묶음, 글, 묶음, …, 글] (묶음은 glue span 요소). after_element: 요소 바로 뒤의 글(tail)."""
        patterns = (_ATTACHED, _RANGE, _ATTACHED_AT_START) if after_element else (_ATTACHED, _RANGE)
        spans = sorted([m.span() for pattern in patterns for m in pattern.finditer(text)])
        merged = []
        for start, end in spans:  # 겹치는 두 규칙의 자리는 하나로 ("7-11은" 과 "11)은")
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        pieces, last = [], 0
        for start, end in merged:
            pieces.append(text[last:start])
            span = etree.Element("span", {"class": GLUE_CLASS})
            span.text = text[start:end]
            pieces.append(span)
            last = end
        pieces.append(text[last:])
        return pieces

    def glue_text(self, el):
        """el.text 와 el 의 자식들의 tail 을 나눠 묶음을 넣습니다."""
        if el.text:
            first, *rest = self.split(el.text, after_element=False)
            el.text = first
            for k, (span, tail) in enumerate(zip(rest[::2], rest[1::2], strict=True)):
                span.tail = tail
                el.insert(k, span)
        for child in list(el):  # 새로 넣은 묶음의 tail 은 이미 나눈 글이므로 원래 자식들의 tail 만
            if child.tail:
                first, *rest = self.split(child.tail, after_element=True)
                child.tail = first
                at = list(el).index(child) + 1
                for k, (span, tail) in enumerate(zip(rest[::2], rest[1::2], strict=True)):
                    span.tail = tail
                    el.insert(at + k, span)

    def glue_atoms(self, el, joiner_only=False):
        """요소 바로 뒤에 붙은 한글을 그 요소와 함께 묶습니다 (joiner_only: 묶지 않고 늘 WORD JOINER 로)."""
        index = 0
        while index < len(el):
            child = el[index]
            m = _LEADING_HANGUL.match(child.tail or "")
            found = self.atom(el, index) if m else None
            if found and (found[1] == "joiner" or joiner_only):
                child.tail = JOINER + child.tail
            elif found:
                group = found[0]
                start = index - len(group) + 1
                span = etree.Element("span", {"class": GLUE_CLASS})
                rest = child.tail[m.end() :]
                child.tail = m.group()
                for member in group:
                    el.remove(member)
                    span.append(member)
                span.tail = rest
                el.insert(start, span)
                index = start
            index += 1

    def joined(self, text, after_element):
        """글 하나에서 split 이 묶을 자리의 줄바꿈 자리(닫는 글자와 한글 사이, 범위의 대시 뒤)에 WORD JOINER 를 넣은 글."""
        points = set()
        patterns = (_ATTACHED, _ATTACHED_AT_START) if after_element else (_ATTACHED,)
        for m in (m for pattern in patterns for m in pattern.finditer(text)):
            points.add(m.end() - len(re.search(rf"[{HANGUL}]+$", m.group()).group()))
        for m in _RANGE.finditer(text):
            points.update(m.start() + k + 1 for k, ch in enumerate(m.group()) if ch in "-\u2010\u2011\u2013")
        for at in sorted(points, reverse=True):
            text = text[:at] + JOINER + text[at:]
        return text

    def join_heading(self, heading):
        """제목: 묶음(span) 대신 WORD JOINER 를 넣습니다. 목차와 탐색 서랍은 제목의 글만 가져가(태그를 지운 글) span 이
        사라지므로, "영어 모델(all-MiniLM-L6-v2)⏎과" 처럼 목차에서 갈라졌습니다. 글자는 남아 목차에서도 붙어 있습니다
        (앵커 id 는 slugify 가 그 글자를 지워 그대로입니다)."""
        todo = [heading]
        while todo:
            el = todo.pop()
            if _skipped(el):
                continue
            self.glue_atoms(el, joiner_only=True)
            if el.text:
                el.text = self.joined(el.text, after_element=False)
            for child in el:
                if child.tail:
                    child.tail = self.joined(child.tail, after_element=True)
            todo.extend(el)

    def run(self, root):
        todo = [root]
        while todo:
            el = todo.pop()
            if _skipped(el):
                continue
            if el.tag in HEADINGS:
                self.join_heading(el)
                continue
            self.glue_atoms(el)
            self.glue_text(el)
            todo.extend(el)


# 실행 결과의 토큰 (띄어쓰기 사이의 글). 양 끝의 여는·닫는 글자와 문장부호는 브라우저가 그 앞뒤에서 가르지 않으므로 빼고
# 가운데만 봅니다. 글자·숫자 사이의 점과 쉼표(0.27, np.float32, 1,000), 수 앞의 부호(-0.665)도 가르는 자리가 아닙니다.
_TOKEN = re.compile(r"\S+")
_OPENERS = "([{'\"‘“<"
_ENDINGS = ")]}'\"’”>,.:;!?%"
_INNER_DOT = re.compile(r"(?<=\w)[.,](?=\w)")
_SIGNED_NUMBER = re.compile(r"^[-+−][\d.]")


def _breakable(token):
    """브라우저가 가를 수 있는 자리가 토큰 가운데에 있는지: 글자·숫자·밑줄이 아닌 것이 가운데에 있는지."""
    core = token.lstrip(_OPENERS).rstrip(_ENDINGS)
    if _SIGNED_NUMBER.match(core):
        core = core[1:]
    return len(core) > 1 and re.search(r"\W", _INNER_DOT.sub("", core)) is not None


def output_tokens(text):
    """실행 결과의 글 → HTML (escape 한 글). 가운데에서 갈릴 수 있는 토큰은 <span class="glue"> 로 묶습니다.

    휴대전화의 가장 좁은 칸에 한 줄로 들어가지 않는 토큰(MAX_EM 넘게)은 묶지 않습니다: 묶으면 상자를 넘칩니다.
    글(textContent)은 그대로입니다.
    """
    out, pos = [], 0
    for m in _TOKEN.finditer(text):
        token = m.group()
        out.append(escape(text[pos : m.start()]))
        if _breakable(token) and width_em(token, code=True) <= MAX_EM:
            out.append(f'<span class="{GLUE_CLASS}">{escape(token)}</span>')
        else:
            out.append(escape(token))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


class GlueExtension(Extension):
    def extendMarkdown(self, md):
        # inline(20) 과 수식(15) 다음, toc(5) 앞
        md.treeprocessors.register(_Glue(md), "attention_site_glue", 12)
