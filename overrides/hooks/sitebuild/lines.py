"""실행 결과와 접은 상자 속 코드의 긴 줄을 줄마다 <span class="line"> 으로 감쌉니다: 좁은 화면에서 줄이 내어쓰기로 접히게.

375 px 휴대전화의 실행 결과 상자에는 고정폭 글자가 40자 남짓 들어갑니다. 출력 줄은 대부분 그보다 길어서 가로로
넘쳤고, 본문이 말하는 숫자가 상자 밖에 남았습니다("가장 잘 맞히는 헤드: 3-" 다음의 "9 (100%)"). 접은 풀이 속
코드도 313 px 상자에서 352–870 px 로 넘쳤습니다. 그래서 이 상자들은 줄을 접습니다(site.css 의 white-space:
break-spaces: 줄 끝의 공백도 상자 밖에 매달리지 않고 접힙니다). 그냥 접으면 접힌 뒷부분이 새 줄처럼 보이므로, 줄마다 span 을 두고 접힌 부분을 그 줄의 들여쓰기보다
2칸 더 들여 씁니다(내어쓰기: padding-left 와 음수 text-indent). 들여쓰기 칸 수는 줄마다 달라 style 의 --indent 에 둡니다.

줄 끝의 "\\n" 은 span 안에 남깁니다: textContent 가 그대로라 복사 단추와 복사한 글이 원래 코드와 같고, CSS 가 없는
곳에서도 줄이 나뉩니다. Pygments 의 토큰 span 이 여러 줄에 걸치면(여러 줄 문자열) 줄 끝에서 닫고 다음 줄에서 다시
엽니다. 확인: tests/test_hook.py (모양), tests/test_pages_in_browser.py (375 px 에서 잘린 줄 0).

가장 좁은 상자에도 한 줄로 들어가는 줄은 감싸지 않습니다 (NARROWEST_EM): 접히지 않는 줄에는 내어쓰기도, 접을 자리(<wbr>)도,
토큰 묶음(glue)도 쓸모가 없고, 그 요소들은 페이지를 여는 휴대전화의 일만 늘립니다. 감싸지 않은 줄도 "\n" 으로 끝나므로
화면에서는 감싼 줄과 똑같이 한 줄입니다. issue 29 §8: 이 요소들이 붙은 뒤 why_scale 의 DOM 이 1,047 → 1,498 노드,
Lighthouse 의 TBT 가 456 → 617 ms(중앙값)로 늘었습니다.
"""

import re
import unicodedata
from html import unescape

from .glue import GLUE_CLASS

_TAG = re.compile(r"<(/?)span\b[^>]*>")
_PRE_IN_DETAILS = re.compile(
    r"<details\b|</details>|(<pre\b[^>]*>(?:<span></span>)?<code\b[^>]*>)(.*?)(</code></pre>)", re.S
)


def split_lines(fragment):
    """HTML 조각(글과 <span> 만)을 줄마다의 HTML 로 나눕니다. 각 줄은 열린 span 을 닫고 끝나며 "\\n" 을 품습니다."""
    lines, current, stack, pos = [], [], [], 0
    for match in [*_TAG.finditer(fragment), None]:
        end = match.start() if match else len(fragment)
        pieces = fragment[pos:end].split("\n")
        for k, piece in enumerate(pieces):
            current.append(piece)
            if k < len(pieces) - 1:  # 줄 끝: 열린 span 을 닫고, 다음 줄에서 다시 엽니다
                current.append("\n" + "</span>" * len(stack))
                lines.append("".join(current))
                current = list(stack)
        if match is None:
            break
        current.append(match.group(0))
        if match.group(1):
            stack.pop()
        else:
            stack.append(match.group(0))
        pos = match.end()
    rest = "".join(current)
    if _text(rest):  # 마지막 줄에 "\n" 이 없을 때 (빈 span 만 남으면 버립니다)
        lines.append(rest)
    return lines


def _text(line_html):
    """줄의 글 (태그만 뺍니다: 이 모듈이 다루는 것은 Pygments·출력 상자의 태그뿐이고, 그 속성에 ">" 가 없습니다)."""
    return _ANY_TAG.sub("", line_html)


def _indent(line_html):
    text = _text(line_html)
    return len(text) - len(text.lstrip(" "))


def _line(line):
    # 들여쓰지 않은 줄은 style 을 적지 않습니다: site.css 가 var(--indent, 0ch) 로 0 을 기본값으로 씁니다
    # (실행 결과 줄의 거의 절반이라, 적으면 real_model 한 페이지에서만 3 kB 입니다).
    n = _indent(line)
    return f'<span class="line" style="--indent:{n}ch">{line}</span>' if n else f'<span class="line">{line}</span>'


# 감싸지 않는 줄의 폭 상한 (글자 크기 em). 가장 좁은 상자: 320 px 화면에서 접은 풀이 속의 실행 결과와 코드 상자는 글이
# 225 px (efficient 의 풀이, 브라우저로 잰 값; 본문의 실행 결과는 251 px), 글자는 13.6 px 라 16.5 em 입니다. 그보다 조금
# 좁게 잡습니다. 글 폭: 고정폭 라틴 글자 0.602 em, 넓은 글자(한글) 1 em (tests/test_phone_boxes.py 가 같은 mono_em 으로
# 휴대전화 상자를 재고, tests/test_phone.py 가 브라우저에서 이 두 값이 너그럽지 않은지 봅니다).
NARROWEST_EM = 16
NARROW_EM, WIDE_EM = 0.602, 1.0


def mono_em(text):
    """고정폭 상자에서 글 한 줄의 폭 (글자 크기 em): 넓은 글자(동아시아 폭 W, F)는 WIDE_EM, 나머지는 NARROW_EM."""
    return sum(WIDE_EM if unicodedata.east_asian_width(ch) in "WF" else NARROW_EM for ch in text)


def fits(line_html):
    """이 줄(HTML)이 가장 좁은 상자에도 접히지 않고 들어가는지."""
    return mono_em(unescape(_text(line_html)).rstrip("\n")) <= NARROWEST_EM


def wrap_lines(fragment, marked=None):
    """가장 좁은 상자에서 접힐 수 있는 줄만 <span class="line" style="--indent:Nch"> (들여쓰지 않은 줄은 style 없이) 로
    감싼 HTML. 접히지 않는 줄은 fragment 의 그 줄 그대로입니다.

    marked: 접을 자리와 묶음(<wbr>, span.glue)을 넣은 같은 글의 HTML (없으면 fragment). 감싸는 줄은 이쪽의 줄을 씁니다.
    둘은 글이 같아 줄 수가 같습니다.
    """
    plain = split_lines(fragment)
    rich = plain if marked is None else split_lines(marked)
    if len(rich) != len(plain):
        raise ValueError(f"wrap_lines: marked 의 줄 수 {len(rich)} 가 fragment 의 줄 수 {len(plain)} 와 다릅니다")
    return "".join(line if fits(line) else _line(wide) for line, wide in zip(plain, rich, strict=True))


# 코드 줄을 접을 자리: 여는 괄호, 쉼표, 등호, 점 바로 뒤. 자리가 없으면 CSS 의 overflow-wrap: anywhere 가 아무
# 글자에서나 자르므로 "scaled_dot_product_attention(X_s⏎ame" 처럼 이름이 갈라졌습니다. <wbr> 은 글이 아니라서
# textContent(복사 단추가 복사하는 글)는 그대로입니다. 실행 결과에는 넣지 않습니다: "0.5" 가 "0." 과 "5" 로 갈리면 안 됩니다.
# 코드 안의 수(16.0, 0.01)와 연산자 ==, 그리고 ==, <=, != 의 앞 글자도 같은 까닭으로 자르지 않습니다
# (휴대전화에서 "[16.0, 8.0, 4.⏎0]", "pos =⏎= stem_len" 처럼 접혔습니다).
_CODE_BREAK = re.compile(r"([(\[,]|(?<![=<>!])=(?!=)|\.(?!\d))(?=[^\s)\]]|$)")
_ANY_TAG = re.compile(r"(<[^>]+>)")
# 코드 주석은 영어 이름과 조사 사이를 띄어 씁니다 ("transformers 의 BertModel 과"). 좁은 상자에서 그 빈칸에서 줄이
# 바뀌면 조사가 혼자 다음 줄 맨 앞에 옵니다. 이름과 조사를 glue(white-space: nowrap)로 묶습니다: 글은 그대로입니다.
_NAME_AND_PARTICLE = re.compile(
    r"(?<![^\s(\[])([^\s가-힣]+ (?:의|가|를|을|이|은|는|에서|에게|에|와|과|로|으로|도|만|이고|이며|입니다))(?=[\s,.)]|$)"
)


def code_break_points(fragment):
    """HTML 조각의 글 부분에서 _CODE_BREAK 뒤에 <wbr> 을 넣고, 주석의 "이름 조사" 를 한 덩어리(glue)로 묶습니다
    (태그 안은 건드리지 않습니다)."""
    parts = _ANY_TAG.split(fragment)
    return "".join(p if p.startswith("<") else _text_breaks(p) for p in parts)


def _text_breaks(text):
    pieces = _NAME_AND_PARTICLE.split(text)
    # split 의 홀수 번째가 묶을 "이름 조사": 그 안에는 <wbr> 을 넣지 않습니다 (nowrap 안이라 쓸모가 없습니다)
    return "".join(
        f'<span class="{GLUE_CLASS}">{piece}</span>' if k % 2 else _CODE_BREAK.sub(r"\1<wbr>", piece)
        for k, piece in enumerate(pieces)
    )


def wrap_code_in_details(html):
    """<details> 안의 코드 블록(<pre><code>)만 줄마다 감쌉니다. 본문의 코드 블록은 그대로 가로로 스크롤합니다."""
    if "<details" not in html:
        return html
    out, depth, pos = [], 0, 0
    for match in _PRE_IN_DETAILS.finditer(html):
        token = match.group(0)
        if token.startswith("<details"):
            depth += 1
        elif token == "</details>":
            depth = max(depth - 1, 0)
        elif depth:
            code = wrap_lines(match.group(2), code_break_points(match.group(2)))
            out.append(html[pos : match.start()] + match.group(1) + code + match.group(3))
            pos = match.end()
    out.append(html[pos:])
    return "".join(out)
