"""가벼운 코드 색칠: Pygments 필터로 토큰 종류를 Material 의 색 수만큼으로 줄입니다.

Pygments 는 토큰마다 <span class="..."> 를 만듭니다. 코드가 많은 페이지에서는 이 span 이 요소의
대부분이 되어 휴대전화의 스타일·배치 계산을 늘립니다 (Lighthouse 모바일 점수가 80점대로 떨어집니다).
Material 테마는 수십 가지 Pygments class 를 열 가지 남짓한 색 변수로 칠하므로, HTML 을 고치는 대신
토큰 흐름(token stream)을 고칩니다. Pygments 의 공식 확장 지점인 필터(Filter)로

- 같은 색으로 칠해지는 토큰 종류를 대표 종류 하나로 바꾸고 (예: String.Double → String),
- 기본 글자색으로 그려지는 이름(Name)과, 일부러 기본 글자색으로 두는 연산자·괄호·숫자를 Text 로 바꾸고,
- 공백을 앞 토큰에 붙입니다.

그러면 Pygments 의 HtmlFormatter 가 같은 종류끼리 이어진 토큰을 span 하나로 합치고, Text 에는 span 을
만들지 않습니다. 키워드·문자열·주석·내장 이름·함수 이름의 색은 그대로입니다.
어떤 종류가 어떤 색으로 칠해지는지는 Material 의 CSS 에 있습니다. 그 대응이 바뀌면
tests/test_contracts.py 가 알려 줍니다.
"""

from pygments.filter import Filter
from pygments.token import Comment, Keyword, Name, Operator, Punctuation, String, Text, Token

# (토큰 종류, 대표 종류). 위에서부터 처음 맞는 줄을 씁니다 (String.Doc 은 String 보다 먼저).
# 대표 종류의 CSS class 와 Material 색 변수: s=string, se=special, k=keyword, nb=constant,
# nf=function, c=comment, nv=variable.
CANONICAL = [
    (String.Doc, Comment),  # sd: Material 은 docstring 을 주석 색으로 칠합니다
    (Comment.PreprocFile, String),  # cpf
    (Comment.Preproc, String.Escape),  # cp
    (Comment, Comment),  # c c1 ch cm cs
    (String.Affix, Text),  # sa: Material 에 색 규칙이 없습니다
    (String.Escape, String.Escape),
    (String.Heredoc, String.Escape),
    (String.Regex, String.Escape),
    (String.Other, String.Escape),  # se sh sr sx
    (String, String),  # s s1 s2 sb sc si ss
    (Token.Literal.Number, Text),  # m mi mf ... : 일부러 기본 글자색
    (Token.Literal, String),  # l
    (Keyword.Constant, Text),  # kc: 기본 글자색(name 색)과 같습니다
    (Keyword, Keyword),  # k kd kn kp kr kt
    (Name.Decorator, Keyword),
    (Name.Entity, Keyword),
    (Name.Label, Keyword),
    (Name.Tag, Keyword),
    (Name.Builtin, Name.Builtin),
    (Name.Constant, Name.Builtin),  # bp nb no
    (Name.Class, Name.Function),
    (Name.Exception, Name.Function),
    (Name.Namespace, Name.Function),
    (Name.Function, Name.Function),  # nc ne nn nf
    (Name.Attribute, Name.Variable),
    (Name.Variable, Name.Variable),  # na nv vc vg vi
    (Name, Text),  # n: 기본 글자색
    (Operator, Text),
    (Punctuation, Text),  # o ow p: 일부러 기본 글자색
    (Text, Text),  # w (공백)
]


def canonical(ttype):
    for kind, representative in CANONICAL:
        if ttype in kind:
            return representative
    return ttype  # Generic.* 처럼 코드 블록에 드문 종류는 그대로 둡니다


class LeanTokens(Filter):
    """Material 의 색 수만큼으로 토큰 종류를 줄이는 Pygments 필터."""

    def filter(self, lexer, stream):
        previous = None
        for ttype, value in stream:
            ttype = canonical(ttype)
            # 줄바꿈 없는 공백은 앞 토큰과 같은 종류로: `from numpy import` 가 span 하나가 됩니다.
            if previous is not None and value.strip() == "" and "\n" not in value:
                ttype = previous
            previous = ttype
            yield ttype, value


def register(mdx_configs):
    """pymdownx.highlight 의 extend_pygments_lang 으로 python 렉서에 필터를 붙입니다.

    pymdownx.highlight 는 이 옵션을 Pygments 의 get_lexer_by_name(..., filters=[...]) 에 넘깁니다.
    필터 객체는 YAML 로 적을 수 없어서 훅의 on_config 에서 더합니다.
    """
    langs = mdx_configs.setdefault("pymdownx.highlight", {}).setdefault("extend_pygments_lang", [])
    if not any(lang.get("name") == "python" for lang in langs):
        langs.append({"name": "python", "lang": "python", "options": {"filters": [LeanTokens()]}})
