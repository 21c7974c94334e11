"""코드 블록의 HTML 을 가볍게: 보이는 모양은 그대로 두고 요소 수만 줄입니다.

Pygments 는 토큰마다 <span class="..."> 를 하나씩 만듭니다. 코드가 많은 페이지에서는 이 span 이
요소의 대부분이 되고, 휴대전화에서 스타일·배치 계산 시간을 크게 늘립니다. Lighthouse 로 재 보면
코드 span 을 모두 없앴을 때 모바일 성능이 80점대에서 95점 이상으로 오릅니다.

Material 테마는 수십 가지 Pygments class 를 열 가지 남짓한 색 변수로 칠합니다. 그래서
- 같은 색으로 칠해지는 class 를 대표 class 하나로 바꾸고(예: s1, s2, si → s),
- 코드 기본 글자색과 같은 토큰(이름 n, kc)과 색이 없는 토큰(공백 w, 문자열 접두어 sa)의 span 은 벗기고,
- 연산자·괄호(o, p)와 숫자(m)도 기본 글자색으로 둡니다. 코드 span 의 절반 넘게가 이들인데,
  읽을 때 중요한 색(키워드, 문자열, 주석, 함수·내장 이름)은 그대로 남습니다.
- 같은 대표 class 의 span 이 (공백만 사이에 두고) 이어지면 하나로 합칩니다.
색 대응은 Material 9.8 의 main.css 에서 옮겼습니다.
"""

import re

# Material 9.8 main.css: `.highlight .X{color:var(--md-code-hl-...-color)}` 를 색 변수별로 묶은 것
_GROUPS = {
    "o": "o ow p",  # operator 와 punctuation 색 변수는 기본값이 같습니다 (--md-default-fg-color--light)
    "s": "cpf l s s1 s2 sb sc si ss",
    "se": "cp se sh sr sx",
    "m": "il m mb mf mh mi mo",
    "k": "k kd kn kp kr kt nd ni nl nt",
    "nb": "bp nb no",
    "nf": "nc ne nf nn",
    "c": "c c1 ch cm cs sd",
    "nv": "na nv vc vg vi",
}
_CANON = {cls: rep for rep, members in _GROUPS.items() for cls in members.split()}
_UNWRAP = {"n", "kc", "w", "sa",  # 기본 글자색과 같거나 색 규칙이 없는 토큰
           "o", "ow", "p", "il", "m", "mb", "mf", "mh", "mi", "mo"}  # 연산자·괄호·숫자는 기본 글자색으로

_SPAN = re.compile(r'<span class="([\w-]+)">([^<]*)</span>')
_ADJACENT = re.compile(r'<span class="([\w-]+)">([^<]*)</span>(\s*)<span class="\1">')
_CODE = re.compile(r"(<code>)(.*?)(</code>)", re.S)


def _rewrite(m):
    cls, text = m.group(1), m.group(2)
    if cls in _UNWRAP:
        return text
    return f'<span class="{_CANON.get(cls, cls)}">{text}</span>'


def _slim(code):
    code = _SPAN.sub(_rewrite, code)
    while True:
        merged = _ADJACENT.sub(r'<span class="\1">\2\3', code)
        if merged == code:
            return code
        code = merged


def slim_code_spans(html):
    return _CODE.sub(lambda m: m.group(1) + _slim(m.group(2)) + m.group(3), html)


_OUTPUT = re.compile(r'<div class="cell-output highlight"><span class="filename">([^<]*)</span>'
                     r'<pre>(?:<span></span>)?<code>(.*?)</code></pre></div>', re.S)


def output_blocks_as_samp(html):
    """"실행 결과" 블록을 코드 블록이 아닌 출력 예시(<pre><samp>)로 바꿉니다.

    의미도 맞고(samp = 프로그램의 출력), Material 이 코드 블록마다 붙이는 복사 단추·크기 감시를
    출력 블록에는 붙이지 않아 페이지가 가벼워집니다. 가로로 넘치면 키보드로도 스크롤할 수 있게
    tabindex 를 줍니다.
    """
    return _OUTPUT.sub(lambda m: f'<div class="cell-output"><span class="filename">{m.group(1)}</span>'
                                 f'<pre tabindex="0"><samp>{m.group(2)}</samp></pre></div>', html)
