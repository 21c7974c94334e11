"""다른 프로젝트의 출력과 내부에 기대는 약속 하나마다 작은 테스트 하나.

사이트는 Material, mkdocs-jupyter, Pygments, pymdown-extensions, pytest-codeblocks 의 몇 가지 동작에
기댑니다. 그 패키지를 올렸을 때 동작이 바뀌면, 사이트가 조용히 이상해지는 대신 여기서 무엇이 바뀌었고
사이트의 어디가 그것에 기대는지 알려 줍니다. 모두 빠른 테스트입니다 (사이트를 빌드하지 않습니다).
"""

import base64
import functools
import io
import os
import re
from html import escape as html_escape
from pathlib import Path

import markdown
import nbformat
import pytest
import tinycss2
from bs4 import BeautifulSoup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, Token

from conftest import ROOT
from site_pages import html_text, site_config
from sitebuild import codestyle, mathml, notebook_pages
from support import pageweight, runs
from support.one_figure import OneFigure

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/assets/e5-worker.js")

MATERIAL = Path(__import__("material").__file__).parent / "templates"


def material_css(name):
    (path,) = (MATERIAL / "assets" / "stylesheets").glob(f"{name}.*.min.css")
    return path.read_text(encoding="utf-8")


def colour_rules(css):
    """{".highlight .X" 의 X: color 값} — Material CSS 의 코드 색칠 규칙."""
    out = {}
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        selectors = tinycss2.serialize(rule.prelude).split(",")
        decls = tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
        colours = [tinycss2.serialize(d.value).strip() for d in decls if d.type == "declaration" and d.name == "color"]
        for sel in selectors:
            m = re.fullmatch(r"\s*\.highlight \.([a-z0-9]+)\s*", sel)
            if m and colours:
                out[m.group(1)] = colours[-1]
    return out


def _comparable(cfg):
    """설정의 nav 와 Markdown 확장을 JSON 으로 비교할 수 있는 꼴로: 함수는 (모듈.이름, 인자), 경로 자리는 풀린 경로."""

    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, functools.partial):
            return {"partial": plain(value.func), "args": plain(value.args), "kwargs": plain(value.keywords)}
        if callable(value):
            return f"{value.__module__}.{value.__qualname__}"
        if isinstance(value, os.PathLike):
            return Path(value).resolve().relative_to(ROOT).as_posix()
        return value

    return plain({"nav": cfg["nav"], "extensions": cfg["markdown_extensions"], "configs": cfg["mdx_configs"]})


def test_markdown_settings_read_mkdocs_yml_as_mkdocs_does():
    """테스트의 mkdocs.yml 읽기(site_pages.MarkdownSettings: 플러그인을 불러오지 않음)는 mkdocs 의 load_config 와
    nav, Markdown 확장 목록(mkdocs 가 늘 넣는 toc·tables·fenced_code 포함), 확장 설정이 같습니다.

    load_config 는 mkdocs-jupyter 를 거쳐 nbconvert 까지 불러오므로, 그 결과는 mkdocs.yml 과 잠금 파일이 그대로인
    동안 .cache/tests 에서 읽습니다 (support/runs.py).
    """

    def full():
        from mkdocs.config import load_config

        return _comparable(load_config(str(ROOT / "mkdocs.yml")))

    expected = runs.cached_value("mkdocs-load-config", [ROOT / "mkdocs.yml"], full, __name__)
    assert expected["extensions"][:3] == ["toc", "tables", "fenced_code"] and "pymdownx.snippets" in expected["configs"]
    assert _comparable(site_config()) == expected


def test_material_colours_the_pygments_classes_as_codestyle_assumes():
    """codestyle.CANONICAL 이 합치는 토큰 종류는 Material 이 같은 색으로 칠합니다 (sitebuild/codestyle.py)."""
    rules = colour_rules(material_css("main"))
    assert len(rules) > 30, "Material main.css 에서 .highlight 색 규칙을 찾지 못했습니다: CSS 구조가 바뀌었습니다"
    deliberately_plain = {
        "var(--md-code-hl-name-color)",
        "var(--md-code-hl-operator-color)",
        "var(--md-code-hl-punctuation-color)",
        "var(--md-code-hl-number-color)",
        None,
    }
    for ttype, cls in STANDARD_TYPES.items():
        if cls not in rules:
            continue
        target = codestyle.canonical(ttype)
        if target in Token.Text:
            assert rules.get(cls) in deliberately_plain, (
                f"Material 이 .{cls} 를 {rules[cls]} 로 칠하는데 codestyle 은 이 토큰을 기본 글자색으로 둡니다. "
                "Material 의 색 배정이 바뀌었습니다: sitebuild/codestyle.py 의 CANONICAL 을 고치세요."
            )
        else:
            rep = STANDARD_TYPES[target]
            assert rules.get(rep) == rules[cls], (
                f"codestyle 이 .{cls} 를 .{rep} 로 합치는데 Material 은 둘을 다른 색({rules[cls]} / {rules.get(rep)})으로 "
                "칠합니다: sitebuild/codestyle.py 의 CANONICAL 을 Material 의 main.css 에 맞추세요."
            )


def test_material_name_colour_is_the_code_colour():
    """이름(n)과 kc 의 span 을 없애도 되는 까닭: Material 에서 그 색은 코드 기본 글자색입니다."""
    for sheet in ("main", "palette"):
        assert "--md-code-hl-name-color:var(--md-code-fg-color)" in material_css(sheet), (
            f"Material {sheet}.css 의 --md-code-hl-name-color 가 코드 기본색이 아닙니다: "
            "sitebuild/codestyle.py 가 Name 을 Text 로 바꾸는 것을 다시 생각하세요."
        )


def test_pygments_merges_same_tokens_and_leaves_text_bare():
    """codestyle 이 span 을 줄이는 방법: HtmlFormatter 는 같은 종류끼리 이어진 토큰을 span 하나로, Text 는 span 없이."""
    source = "from numpy import softmax as sm  # 주석\nx = softmax([1, 2])\nprint('합')\n"
    lean = highlight(source, PythonLexer(filters=[codestyle.LeanTokens()]), HtmlFormatter(wrapcode=True))
    plain = highlight(source, PythonLexer(), HtmlFormatter(wrapcode=True))

    assert html_text(lean) == html_text(plain)
    assert '<span class="k">from </span>' in lean and '<span class="nb">print</span>' in lean
    assert '<span class="c"># 주석</span>' in lean and "<span class=\"s\">'합'</span>" in lean
    assert lean.count("<span") < plain.count("<span") / 2, (
        "Pygments HtmlFormatter 가 같은 종류의 토큰을 합치지 않습니다"
    )


def test_highlight_passes_lexer_options_to_pygments():
    """codestyle.register: pymdownx.highlight 의 extend_pygments_lang 옵션이 Pygments 렉서의 filters 로 갑니다."""
    cfg = {}
    codestyle.register(cfg)
    html = markdown.markdown(
        "```python\nx = [1]\n```\n", extensions=["pymdownx.highlight", "pymdownx.superfences"], extension_configs=cfg
    )
    assert '<span class="n">' not in html and '<span class="p">' not in html, (
        "pymdownx.highlight 가 extend_pygments_lang 의 options 를 렉서에 넘기지 않습니다: sitebuild/codestyle.py"
    )


def test_superfences_puts_data_attributes_on_the_code_block():
    """codeblocks.with_outputs 는 ```{.python data-search-exclude=""} 로 코드를 검색 색인에서 뺍니다 (attr_list 필요)."""
    html = markdown.markdown(
        '```{.python data-search-exclude=""}\nx = 1\n```\n',
        extensions=["attr_list", "pymdownx.highlight", "pymdownx.superfences"],
    )
    assert '<div class="highlight" data-search-exclude="">' in html, (
        "pymdownx.superfences 가 펜스의 data-* 속성을 코드 블록 div 에 붙이지 않습니다: sitebuild/codeblocks.py"
    )


def test_material_search_skips_data_search_exclude():
    """Material 의 검색 색인은 data-search-exclude 가 붙은 요소를 뺍니다 (코드와 실행 결과를 색인에서 빼는 방법)."""
    source = (Path(__import__("material").__file__).parent / "plugins" / "search" / "plugin.py").read_text()
    assert '"data-search-exclude" in self.attrs' in source, (
        "Material 검색 플러그인이 data-search-exclude 를 다루는 방식이 바뀌었습니다: sitebuild/codeblocks.py, fences.py"
    )


def test_pytest_codeblocks_line_numbers_point_at_the_opening_fence():
    """codeblocks.with_outputs 는 추출기의 줄 번호(여는 펜스, 1부터)와 코드 줄 수로 블록의 끝을 찾습니다."""
    from sitebuild import codeblocks

    text = "# 제목\n\n```python\na = 1\nb = 2\n```\n\n!!! note\n    ```python\n    c = 3\n    ```\n"
    blocks = codeblocks.python_blocks(text)
    assert [(b.lineno, b.code) for b in blocks] == [(3, "a = 1\nb = 2\n"), (9, "c = 3\n")], (
        "pytest-codeblocks 의 줄 번호나 들여쓰기 처리 약속이 바뀌었습니다: sitebuild/codeblocks.py"
    )
    out = codeblocks.with_outputs(text, blocks, ["하나\n", "둘\n"])
    assert out.splitlines()[5:10] == ["```", "", "```output", "하나", "```"]
    assert out.splitlines()[-4:] == ["", "    ```output", "    둘", "    ```"]


def test_arithmatex_generic_output_is_what_mathml_expects():
    """mathml 의 트리 처리기는 arithmatex(generic) 의 span/div 와 \\( \\) / \\[ \\] 감싸기를 기대합니다."""
    html = markdown.markdown(
        "식 $a<b$ 와\n\n$$\nx & y\n$$\n",
        extensions=["pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    assert '<span class="arithmatex">\\(a&lt;b\\)</span>' in html
    assert '<div class="arithmatex">\\[' in html
    converted = markdown.markdown(
        "식 $a<b$ 와\n\n$$\nx & y\n$$\n",
        extensions=["pymdownx.arithmatex", mathml.MathExtension()],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    assert converted.count("<math ") == 2 and "\\(" not in converted and "\\[" not in converted


def test_material_shows_one_palette_image():
    """figure_markup 의 #only-light / #only-dark: Material CSS 가 팔레트에 맞는 그림만 보여 줍니다."""
    assert '[data-md-color-scheme=default] img[src$="#only-dark"]' in material_css("main")
    assert '[data-md-color-scheme=slate] img[src$="#only-light"]' in material_css("palette"), (
        "Material 의 #only-light/#only-dark 그림 규칙이 바뀌었습니다: sitebuild/figure_markup.py"
    )


def test_search_partial_override_matches_material():
    """overrides/partials/search.html 은 Material 의 것에 aria-label 하나만 더한 복사본입니다."""
    ours = (ROOT / "overrides" / "partials" / "search.html").read_text(encoding="utf-8")
    upstream = (MATERIAL / "partials" / "search.html").read_text(encoding="utf-8")

    def strip_comment(s):
        return re.sub(r"\{#-.*?-#\}\n", "", s, count=1, flags=re.S)

    assert strip_comment(ours).replace(' aria-label="사이트 검색"', "", 1) == strip_comment(upstream), (
        "Material 의 partials/search.html 이 바뀌었습니다: 새 파일을 overrides/partials/search.html 로 다시 "
        '복사하고 role="dialog" 요소에 aria-label="사이트 검색" 을 다시 더하세요.'
    )


def test_material_base_template_blocks_we_extend():
    """overrides/main.html 은 base.html 의 scripts 블록에 덧붙이고, pageweight 는 __config 의 search 를 읽습니다."""
    base = (MATERIAL / "base.html").read_text(encoding="utf-8")
    assert "{% block scripts %}" in base, "Material base.html 에 scripts 블록이 없습니다: overrides/main.html"
    assert re.search(r'"search": "assets/javascripts/workers/search\.[0-9a-f]+\.min\.js" \| url', base), (
        "Material 이 __config 에 검색 작업자 경로를 적는 방식이 바뀌었습니다: tests/support/pageweight.py"
    )


def test_search_worker_loads_lunr_languages_as_pageweight_counts():
    """pageweight.search_files 는 작업자가 lunr/min/lunr.<언어>.min.js 를 부르는 규칙을 따라 셉니다."""
    (worker,) = (MATERIAL / "assets" / "javascripts" / "workers").glob("search.*.min.js")
    js = worker.read_text(encoding="utf-8")
    for piece in ("/min/lunr.stemmer.support.min.js", "/min/lunr.${", ".min.js", "/min/lunr.multi.min.js"):
        assert piece in js, (
            f"Material 검색 작업자가 {piece!r} 를 부르지 않습니다: tests/support/pageweight.py 를 고치세요"
        )
    assert pageweight  # 이 규칙을 쓰는 모듈


def test_material_mounts_code_tools_lazily_under_content_lazy():
    """mkdocs.yml 의 content.lazy: Material 의 번들이 이 기능 이름을 알고, 코드 블록 도구를 붙이는 곳에서 씁니다.

    이름이 사라지면 설정은 조용히 무시되고 코드가 많은 페이지가 다시 무거워집니다 (휴대전화 Lighthouse TBT).
    동작 자체(보이기 전에는 단추가 없고, 보이면 생김)는 tests/test_phone.py 가 브라우저에서 확인합니다.
    """
    (bundle,) = (MATERIAL / "assets" / "javascripts").glob("bundle.*.min.js")
    js = bundle.read_text(encoding="utf-8")
    assert re.search(r'"content\.code\.copy".{0,600}"content\.lazy"', js, re.S), (
        "Material 번들의 코드 블록 도구가 content.lazy 를 보지 않습니다: mkdocs.yml 의 content.lazy 를 다시 보세요"
    )


def test_material_reports_a_failed_search_index_as_network_error():
    """overrides/main.html 의 작은 스크립트(번들보다 먼저)는 네트워크 없이 연 페이지에서 Material 이 검색 색인을 받지 못해
    낸 오류를 알아보고, docs/assets/site.js 가 검색 창에 알립니다:
    번들의 XMLHttpRequest 가 실패하면 new Error("Network error") 를 내고, 그것이 잡히지 않은 오류로 올라갑니다.
    이 글이 바뀌면 그 스크립트는 오류를 알아보지 못해 검색 창에 아무 말도 하지 않습니다 (브라우저 확인은
    tests/test_search.py 와 tests/test_own_sentence_browser.py 의 네트워크 없이 연 페이지)."""
    (bundle,) = (MATERIAL / "assets" / "javascripts").glob("bundle.*.min.js")
    js = bundle.read_text(encoding="utf-8")
    assert re.search(r'addEventListener\("error",\(\)=>\{\w+\.error\(new Error\("Network error"\)\)', js), (
        "Material 번들이 검색 색인을 받지 못했을 때 내는 오류가 바뀌었습니다: overrides/main.html 의 오류 받는 스크립트를 고치세요"
    )
    early = (ROOT / "overrides" / "main.html").read_text(encoding="utf-8")
    assert early.index('"Network error"') < early.index("{{ super() }}") and "bundle" in early


def test_material_loads_the_search_index_by_xhr_and_the_search_worker_from_its_config():
    """overrides/main.html 의 두 번째 작은 스크립트는 저장본을 네트워크 없이 연 페이지에서 실패할 요청을 막습니다 (issue 39 §8):
    번들이 검색 색인을 XMLHttpRequest 로 "search/search_index.json" 에서 부르고(그 요청은 보내지 않습니다), 검색 작업자를
    설정의 search 경로("assets/javascripts/workers/search.<해시>.min.js")로 new Worker 해서 만든다는 것(빈 작업자를 줍니다)에
    기댑니다. 이 모양이 바뀌면 그 스크립트가 요청을 알아보지 못해 네트워크 없이 연 페이지에서 실패한 요청이 다시 콘솔에
    남습니다 (브라우저 확인은 tests/test_own_sentence_browser.py 의 네트워크 없이 연 페이지)."""
    (bundle,) = (MATERIAL / "assets" / "javascripts").glob("bundle.*.min.js")
    js = bundle.read_text(encoding="utf-8")
    assert re.search(r'new URL\("search/search_index\.json",\w+\.base\)', js), (
        "색인의 주소를 만드는 모양이 바뀌었습니다"
    )
    assert re.search(r'new XMLHttpRequest;return \w+\.open\("GET",`\$\{\w+\}`\)', js), (
        "색인을 XMLHttpRequest 로 받지 않습니다"
    )
    assert re.search(r"function \w+\(\w+,\w+=new Worker\(\w+\)\)", js) and re.search(r"\w+\(\w+\.search,\w+\)", js), (
        "검색 작업자를 설정의 search 경로로 만들지 않습니다"
    )
    base = (MATERIAL / "base.html").read_text(encoding="utf-8")
    (worker,) = re.findall(r'"search": "(assets/javascripts/workers/search\.[0-9a-f]+\.min\.js)" \| url', base)
    early = (ROOT / "overrides" / "main.html").read_text(encoding="utf-8")
    script = next(line for line in early.splitlines() if "data-saved-copy" in line and "<script>" in line)
    # 스크립트의 두 정규식 (JavaScript 의 /…/ 글자 그대로; 파이썬 re 도 \/ 를 / 로 읽습니다)
    index_re, worker_re = re.findall(r"/((?:\\/|[^/])+?\$)/\.test", script)
    assert re.search(index_re, "/search/search_index.json") and not re.search(index_re, "/search/other.json")
    assert re.search(worker_re, "/" + worker) and not re.search(worker_re, "/assets/e5-worker.js")
    assert early.index("data-saved-copy") < early.index("{{ super() }}")


def _png():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def test_mkdocs_jupyter_html_has_the_cells_notebook_pages_reads(tmp_path):
    """notebook_pages.SELECTORS: mkdocs-jupyter 가 만드는 노트북 HTML 에서 셀·출력을 찾는 방법."""
    from mkdocs_jupyter.convert import nb2html

    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 제목\n\n본문"),
            nbformat.v4.new_code_cell(
                "print('합')", outputs=[nbformat.v4.new_output("stream", name="stdout", text="합\n")]
            ),
            nbformat.v4.new_code_cell(
                "plot()",
                outputs=[nbformat.v4.new_output("display_data", data={"image/png": _png(), "text/plain": "<Figure>"})],
            ),
        ]
    )
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:02d}"
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    soup = BeautifulSoup(nb2html(str(path), execute=False, markdown_cell_processor="mkdocs"), "html.parser")
    hint = "mkdocs-jupyter 의 노트북 HTML 구조가 바뀌었습니다: sitebuild/notebook_pages.py 의 SELECTORS"
    cells = soup.select(notebook_pages.SELECTORS["cells"])
    assert len(cells) == 3, hint
    assert notebook_pages.MARKDOWN_CELL_CLASS in cells[0]["class"], hint
    assert "# 제목" in cells[0].select_one(notebook_pages.SELECTORS["markdown"]).get_text(), hint
    ids = [c.select_one(notebook_pages.SELECTORS["cell_id"]) for c in cells[1:]]
    assert [i["id"] for i in ids] == ["cell-id=cell-01", "cell-id=cell-02"], hint
    outputs = [c.select(notebook_pages.SELECTORS["output"]) for c in cells[1:]]
    assert outputs[0][0].find("pre").get_text() == "합\n", hint
    assert outputs[1][0].find("img")["src"].startswith("data:image/png;base64,"), hint


def _one_cell_page(tmp_path, nb, outputs):
    """셀 하나(id cell-00)짜리 노트북을 x.ipynb 로 쓰고, mkdocs-jupyter 모양의 HTML 에 outputs 를 담아 돌려줍니다."""
    nb.cells[0].id = "cell-00"
    path = tmp_path / "x.ipynb"
    nbformat.write(nb, str(path))
    page = (
        '<div class="jp-Notebook"><div class="jp-Cell jp-CodeCell"><div id="cell-id=cell-00">'
        + "".join(f'<div class="jp-OutputArea-output">{o}</div>' for o in outputs)
        + "</div></div></div>"
    )
    return path, page


def _slim(page, path):
    return notebook_pages.slim_notebook_html(page, path, "x.ipynb", OneFigure(narrow=False), "practice/x/")


def test_notebook_page_is_rebuilt_from_the_contract(tmp_path):
    """위의 구조를 가진 HTML 에서 노트북 페이지를 지으면 코드·출력·그림이 사이트의 모양으로 나옵니다."""
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "print('합')", metadata={"attention_site": {"figure": "demo-demo", "alt": "점 하나"}}
            )
        ]
    )
    path, page = _one_cell_page(tmp_path, nb, ["<pre>합\n</pre>", f'<img src="data:image/png;base64,{_png()}">'])
    out = _slim(page, path)
    assert '<div class="highlight" data-search-exclude="">' in out and '<span class="nb">print</span>' in out
    assert '<div class="cell-output" data-search-exclude=""><span class="filename">실행 결과</span>' in out
    assert "<samp>합\n</samp>" in out  # 가장 좁은 상자에 들어가는 줄은 감싸지 않습니다 (sitebuild/lines.py)
    # 커널의 PNG 대신 사이트 그림 (페이지 주소에서 본 상대 경로)
    assert "data:image" not in out and 'href="../../figures/demo-demo-light.png"' in out
    assert out.count('alt="점 하나"') == 2
    nb.cells[0].metadata = {}
    nbformat.write(nb, str(path))
    with pytest.raises(notebook_pages.NotebookPageError, match="figure="):
        _slim(page, path)


def test_notebook_code_wraps_its_long_lines_inside_the_cell(tmp_path):
    """노트북 페이지의 코드: 가장 좁은 상자에 들어가지 않는 줄만 span.line(내어쓰기로 접는 줄)이 되고, 글은 그대로입니다."""
    long = "result = check_with(fn, right, mistakes, cases, 'fn', parts=('출력', '가중치'))  # 아주 긴 한 줄"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"x = 1\n{long}")])
    path, page = _one_cell_page(tmp_path, nb, [])
    code = BeautifulSoup(_slim(page, path), "html.parser").select_one("div.highlight pre > code")
    lines = code.select("span.line")
    assert len(lines) == 1 and lines[0].get_text() == long + "\n", [str(x) for x in lines]
    assert code.get_text() == f"x = 1\n{long}\n"  # 복사 단추가 복사하는 글


def test_folded_notebook_cells_stay_closed_until_the_reader_opens_them(tmp_path):
    """셀 메타데이터 fold 는 코드와 출력을, fold_output 은 출력만 닫힌 <details> 에 넣습니다 (issue 41)."""
    code = "\n".join(f"x{i} = {i}" for i in range(5)) + "\nprint('정답')"
    for meta, code_inside in (({"fold": "풀이 보기"}, True), ({"fold_output": "결과 보기"}, False), ({}, None)):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code, metadata={"attention_site": meta})])
        path, page = _one_cell_page(tmp_path, nb, ["<pre>정답\n</pre>"])
        soup = BeautifulSoup(_slim(page, path), "html.parser")
        details = soup.select("details.notebook-fold")
        if code_inside is None:  # 대조: 표시가 없으면 아무것도 접지 않습니다
            assert not details and soup.select_one(".cell-output")
            continue
        assert len(details) == 1 and not details[0].has_attr("open"), details
        summary = details[0].find("summary").get_text()
        assert summary == ("풀이 보기 (6줄)" if code_inside else "결과 보기"), summary
        assert details[0].select_one(".cell-output samp").get_text() == "정답\n"
        assert (details[0].select_one("div.highlight") is not None) is code_inside
        assert soup.select(".cell-output") == details[0].select(".cell-output"), "출력이 접기 밖에도 있습니다"


def test_mkdocs_jupyter_escapes_markdown_cells_as_unescape_expects(tmp_path):
    """mkdocs-jupyter 는 마크다운 셀 글을 &, <, > 만 바꿔 넘깁니다: notebook_pages.unescape_markdown_cells 가 되돌립니다."""
    from mkdocs_jupyter.convert import nb2html

    source = '> **인용** 한 줄\n> "따옴표"\n\na < b & c'
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(source)])
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    body = nb2html(str(path), execute=False, markdown_cell_processor="mkdocs")
    assert html_escape(source, quote=False) in body, (
        "mkdocs-jupyter 가 마크다운 셀을 넘기는 방식이 바뀌었습니다: sitebuild/notebook_pages.unescape_markdown_cells"
    )
    assert source in notebook_pages.unescape_markdown_cells(body, path)


def test_notebook_text_outputs_of_one_cell_become_one_block(tmp_path):
    """커널이 print 한 줄을 여러 stream 조각으로 보내도 페이지에는 "실행 결과" 블록 하나로 보입니다."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('같은가?', True)")])
    path, page = _one_cell_page(tmp_path, nb, ["<pre>같은가?</pre>", "<pre> True\n</pre>"])
    out = _slim(page, path)
    assert out.count('class="cell-output"') == 1 and "<samp>같은가? True\n</samp>" in out


def test_mkdocs_jupyter_checks_ignore_before_opening_a_page(monkeypatch, tmp_path):
    """mkdocs.yml 의 mkdocs-jupyter ignore: ["*.md", "*.py"]: 플러그인은 ignore 를 파일을 열기 전에 봅니다.

    그래서 페이지(.md)마다 jupytext 로 여는 일(빌드마다 약 1초)이 없어집니다. 순서가 바뀌면 여기서 알 수 있습니다.
    """
    import types

    import jupytext
    from mkdocs_jupyter.plugin import Plugin

    opened = []  # 플러그인은 읽다 난 오류를 삼키므로, 오류를 내는 대신 연 파일을 적어 둡니다
    monkeypatch.setattr(jupytext, "read", lambda path, *a, **k: opened.append(path) or {})
    plugin = Plugin()
    plugin.config = {"ignore": ["*.md", "*.py"], "include": ["*.ipynb"]}
    page = tmp_path / "page.md"
    page.write_text("# 제목\n", encoding="utf-8")
    assert plugin.should_include(types.SimpleNamespace(abs_src_path=str(page))) is False
    assert opened == [], "mkdocs-jupyter 가 ignore 된 파일을 jupytext 로 열었습니다"
    plugin.config["ignore"] = []  # 대조: ignore 가 없으면 정말 엽니다
    plugin.should_include(types.SimpleNamespace(abs_src_path=str(page)))
    assert opened == [str(page)]


def test_mkdocs_jupyter_ends_the_kernel_at_once_with_the_site_config(monkeypatch):
    """빌드가 노트북을 실행하는 커널은 shutdown 요청 없이 바로 끝납니다 (sitebuild/notebooks.use_kernel_config).

    mkdocs-jupyter 는 NbConvertApp.load_config_file() 로 사용자 설정을 읽은 뒤 ExecutePreprocessor 절을 통째로
    바꿉니다. 그래서 설정은 부모 클래스 NotebookClient 절에 있어야 살아남습니다. 이 두 가정이 바뀌면 여기서 깨집니다
    (깨지면 빌드 로그에 ipykernel 의 종료 경쟁 traceback 이 가끔 다시 나타납니다: test_build_has_no_warnings).
    """
    from mkdocs_jupyter.nbconvert2 import get_nbconvert_app
    from nbconvert.preprocessors import ExecutePreprocessor

    from sitebuild import notebooks

    def shutdown():
        app = get_nbconvert_app(execute=True, kernel_name="python3", allow_errors=False)
        return ExecutePreprocessor(config=app.config).shutdown_kernel

    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")  # monkeypatch 가 테스트 뒤에 원래 값으로 돌려놓습니다
    assert shutdown() == "graceful"  # 대조: 설정 없이는 nbclient 의 기본값
    notebooks.use_kernel_config()
    notebooks.use_kernel_config()  # 두 번 불러도 경로는 한 번만
    assert os.environ["JUPYTER_CONFIG_PATH"] == str(notebooks.JUPYTER_CONFIG)
    assert shutdown() == "immediate"
