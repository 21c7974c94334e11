"""```output 펜스: 코드 블록이 찍은 "실행 결과" 를 그리는 pymdownx.superfences 사용자 펜스.

codeblocks.with_outputs 가 각 코드 블록 아래에 넣은 펜스를 superfences 가 이 함수로 HTML 로 바꿉니다.
코드가 아니라 프로그램의 출력이므로 <pre><samp> 로 씁니다. Material 이 코드 블록마다 붙이는 복사 단추와
크기 감시가 붙지 않아 페이지가 가볍고, 검색 색인에서도 빠집니다(data-search-exclude).
노트북 페이지(notebook_pages.py)도 같은 함수로 출력을 그립니다.
"""

from html import escape

from .codeblocks import OUTPUT_FENCE
from .glue import output_tokens
from .lines import wrap_lines

TITLE = "실행 결과"


def output_html(text, title=TITLE):
    # 긴 줄을 span 으로 감싸, 좁은 화면에서 내어쓰기로 접힙니다 (lines.py, 가장 좁은 상자에 들어가는 줄은 그대로). 줄은 띄어쓰기에서만 접히도록, 가운데서
    # 갈릴 수 있는 토큰("1-7", "▁문제를")은 묶습니다 (glue.output_tokens). 그래도 넘치는 상자(자를 곳이 없는
    # 긴 낱말)는 docs/assets/site.js 가 <pre> 에 tabindex 와 이름을 붙여 키보드로도 스크롤할 수 있게 합니다.
    return (
        f'<div class="cell-output" data-search-exclude=""><span class="filename">{escape(title)}</span>'
        f"<pre><samp>{wrap_lines(escape(text), output_tokens(text))}</samp></pre></div>"
    )


def format_output(source, language, class_name, options, md, **kwargs):
    """pymdownx.superfences 사용자 펜스의 format 함수 (문서에 적힌 그 서명)."""
    return output_html(source)


def register(mdx_configs):
    """mkdocs.yml 의 pymdownx.superfences 설정에 ```output 펜스를 더합니다.

    mkdocs.yml 의 `!!python/name:` 으로는 이 패키지를 가리킬 수 없어서 (YAML 을 읽을 때는 훅이 아직
    sys.path 에 없습니다) 훅의 on_config 에서 더합니다.
    """
    fences = mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    if not any(f.get("name") == OUTPUT_FENCE for f in fences):
        fences.append({"name": OUTPUT_FENCE, "class": "cell-output", "format": format_output})
