"""빌드 때 TeX 수식을 MathML 로 바꿉니다.

pymdownx.arithmatex(generic: true) 는 수식을 `<span class="arithmatex">\\(...\\)</span>` 과
`<div class="arithmatex">\\[...\\]</div>` 로 남깁니다. 여기서 그 TeX 를 latex2mathml 로
MathML 로 바꾸면 브라우저가 스크립트·글꼴 내려받기 없이 수식을 그립니다.
"""

import html
import re

from latex2mathml.converter import convert

INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.S)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.S)
# latex2mathml 은 \mathrm{softmax} 를 글자마다 <mi mathvariant="normal"> 로 쪼갭니다.
# 한 낱말로 합치면 여러 글자 <mi> 는 기본이 똑바른 글꼴이라 같은 모양이 되고 HTML 도 짧아집니다.
_SPLIT_WORD = re.compile(r'<mrow>((?:<mi mathvariant="normal">[A-Za-z]</mi>){2,})</mrow>')
_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')


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
    # 화면 읽기 프로그램과 복사용으로 원래 TeX 를 주석(annotation)처럼 남깁니다.
    return out.replace('<math xmlns="http://www.w3.org/1998/Math/MathML"',
                       f'<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{html.escape(tex.strip())}"', 1)


def render_math(page_html):
    """HTML 안의 arithmatex 자리표시를 모두 MathML 로 바꿉니다."""
    def block(m):
        return '<div class="arithmatex">' + tex_to_mathml(html.unescape(m.group("tex")), True) + "</div>"

    def inline(m):
        return '<span class="arithmatex">' + tex_to_mathml(html.unescape(m.group("tex"))) + "</span>"

    return INLINE.sub(inline, BLOCK.sub(block, page_html))
