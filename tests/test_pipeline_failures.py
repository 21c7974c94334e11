"""(e) 파이프라인이 조용히 넘어가지 않는다는 증명: 빠진 include, 실패하는 스니펫, 경고, 실패하는 그림,
한글 글리프 누락, 대체 텍스트 없는 그림은 모두 오류가 됩니다.

대부분은 빌드가 부르는 바로 그 함수를 직접 불러 확인합니다 (빠릅니다). 그 오류가 정말 빌드를
멈추는지는 맨 아래의 작은 사이트 빌드 몇 개가 확인합니다: 같은 훅과 같은 설정 방식을 쓰는 작은
사이트를 임시 폴더에 만들고 한 군데씩 망가뜨려 봅니다.
"""

import shutil
import textwrap
import unicodedata
import uuid

import markdown
import pytest
from mkdocs.exceptions import PluginError
from pymdownx.snippets import SnippetMissingError

from conftest import HOOKS, mkdocs_build, snippet_path
from sitebuild import codeblocks, figures, snippets
from sitebuild.figure_markup import FigureExtension
from support.one_figure import OneFigure

GOOD_SNIPPET = """
# --8<-- [start:demo]
import numpy as np

x = np.arange(3)
print("합:", x.sum())
# --8<-- [end:demo]


def figure_demo():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2.4), layout="constrained")
    ax.set_title("한글 제목")
    ax.plot(x)
    return fig
"""

GOOD_PAGE = """# 작은 페이지

수식 $\\sqrt{d_k}$ 도 있습니다.

```python
--8<-- "demo.py:demo"
```

![작은 그림](figures/demo-demo.png)
"""


def snippets_dir(tmp_path, snippet=GOOD_SNIPPET, name="demo"):
    folder = tmp_path / "snippets"
    folder.mkdir(exist_ok=True)
    shutil.copy(snippet_path("plotting"), folder / "plotting.py")
    (folder / f"{name}.py").write_text(textwrap.dedent(snippet), encoding="utf-8")
    return folder


def expander(folder):
    return codeblocks.SnippetExpander({"base_path": [str(folder)], "check_paths": True, "dedent_subsections": True})


def run_page(tmp_path, snippet=GOOD_SNIPPET, page=GOOD_PAGE):
    """페이지의 코드를 빌드와 같은 함수로 펼치고 실행합니다."""
    _, blocks = codeblocks.page_blocks(expander(snippets_dir(tmp_path, snippet)), page, "docs/index.md")
    return codeblocks.run_blocks(blocks)


@pytest.fixture
def render_demo(tmp_path):
    """스니펫 하나를 (이 테스트만의 모듈 이름으로) 만들고 빌드의 그림 함수로 그려 봅니다."""

    def render(snippet):
        name = f"demo_{uuid.uuid4().hex[:8]}"
        folder = snippets_dir(tmp_path, snippet, name)
        paths = {("wide", t): tmp_path / f"{name}-{t}.png" for t in figures.THEMES}
        with snippets.importable(folder):
            figures.render(name, "figure_demo", paths, folder)
        return list(paths.values())

    return render


# --- 빌드가 부르는 함수들을 직접 ---------------------------------------------------------------


def test_good_page_runs(tmp_path):
    assert [r.output for r in run_page(tmp_path)] == ["합: 3\n"]


def test_missing_section_is_an_error(tmp_path):
    with pytest.raises(SnippetMissingError, match="없는절"):
        run_page(tmp_path, page=GOOD_PAGE.replace('"demo.py:demo"', '"demo.py:없는절"'))


def test_missing_file_is_an_error(tmp_path):
    with pytest.raises(SnippetMissingError, match="no_such_file.py"):
        run_page(tmp_path, page=GOOD_PAGE.replace('"demo.py:demo"', '"no_such_file.py"'))


def test_failing_snippet_is_an_error(tmp_path):
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    with pytest.raises(codeblocks.CodeBlockError, match=r"(?s)코드 블록 1.*AttributeError"):
        run_page(tmp_path, snippet=broken)


def test_failure_names_the_snippet_line_and_the_page(tmp_path):
    """실패한 블록의 오류는 include 가 있는 페이지의 줄과 실패한 스니펫의 줄을 말하고, traceback 도 스니펫을 가리킵니다."""
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    with pytest.raises(codeblocks.CodeBlockError) as err:
        run_page(tmp_path, snippet=broken)
    message = str(err.value)
    head = message.splitlines()[0]
    # 페이지의 6번째 줄이 include, 스니펫 파일의 6번째 줄이 print (1번째 줄은 빈 줄, 2번째 줄은 절 표시)
    assert head.startswith("docs/index.md:6: 코드 블록 1 실행이 실패했습니다 (") and head.endswith(
        "snippets/demo.py:6)"
    )
    assert 'snippets/demo.py", line 6, in <module>' in message
    assert 'print("합:", x.summ())' in message  # traceback 이 스니펫 파일에서 읽은 그 줄
    assert "codeblocks.py" not in message  # 실행기 자신의 틀은 빠집니다


PROCESS_SNIPPET = """
# --8<-- [start:demo]
import sys
import threading

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("snippets/lib/plotting.py")

print("스레드", threading.active_count(), "conftest" in sys.modules)
# --8<-- [end:demo]
"""


def test_page_outputs_come_from_a_fresh_process(tmp_path):
    """빌드가 페이지를 돌리는 길(PageOutputs): 부르는 프로세스의 스레드도, 그 프로세스가 import 한 것(tests/conftest.py)도 보지 않습니다.

    이 테스트 프로세스에는 배경 스레드(conftest.background)가 돌고 conftest 가 import 되어 있습니다. 같은 블록을
    그 자리에서 돌리면 (대조군) 둘 다 보입니다.
    """
    import threading

    from sitebuild import outputs

    folder = snippets_dir(tmp_path, PROCESS_SNIPPET)
    _, blocks = codeblocks.page_blocks(expander(folder), GOOD_PAGE, "docs/index.md")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # 이 테스트 하나만 돌려도 다른 스레드가 있게
    other.start()
    try:
        here = codeblocks.run_blocks(blocks)[0].output
        assert here == f"스레드 {threading.active_count()} True\n" and threading.active_count() >= 2
        out = outputs.PageOutputs(tmp_path / "cache", folder, "env")
        assert out.get("index.md", blocks) == ["스레드 1 False\n"]
    finally:
        stop.set()
        other.join()


def test_a_page_failing_in_its_process_still_names_the_snippet_line(tmp_path):
    from sitebuild import outputs

    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    _, blocks = codeblocks.page_blocks(expander(snippets_dir(tmp_path, broken)), GOOD_PAGE, "docs/index.md")
    with pytest.raises(codeblocks.CodeBlockError) as err:
        outputs.PageOutputs(tmp_path / "cache", tmp_path / "snippets", "env").get("index.md", blocks)
    head, message = str(err.value).splitlines()[0], str(err.value)
    assert head.startswith("docs/index.md:6: 코드 블록 1 실행이 실패했습니다 (") and head.endswith("demo.py:6)")
    assert "AttributeError" in message and 'print("합:", x.summ())' in message
    assert not list((tmp_path / "cache").glob("*.stamp.json"))  # 실패는 캐시에 남지 않습니다


SECOND_SNIPPET = '''"""둘째 파일: 함수 안의 절(들여쓰기가 dedent 됨)과 그 안의 다른 절 표시."""


def helper():
    # --8<-- [start:inner]
    total = 0
    # --8<-- [start:nested]
    for k in range(3):
        total += k
    # --8<-- [end:nested]
    print("합계", total / (total - 3))
    # --8<-- [end:inner]
'''


def test_a_block_of_two_includes_points_into_the_right_file(tmp_path):
    """한 블록에 include 가 둘이면 include 마다 그 파일의 이름과 줄로 컴파일합니다 (절 안의 절 표시, dedent 까지)."""
    folder = snippets_dir(tmp_path)
    (folder / "second.py").write_text(SECOND_SNIPPET, encoding="utf-8")
    page = '# 두 파일\n\n```python\n--8<-- "demo.py:demo"\n--8<-- "second.py:inner"\n```\n'
    _, blocks = codeblocks.page_blocks(expander(folder), page, "docs/two.md")
    with pytest.raises(codeblocks.CodeBlockError) as err:
        codeblocks.run_blocks(blocks)
    message = str(err.value)
    assert message.splitlines()[0].endswith("second.py:11)") and message.startswith("docs/two.md:4:")
    assert 'second.py", line 11, in <module>' in message and "ZeroDivisionError" in message
    # traceback 의 밑줄(~~~^~~~)이 나눗셈 자리에 맞습니다: 컴파일한 열이 파일의 들여쓰기(dedent 전)를 따릅니다.
    # (traceback 은 한글 한 글자를 두 칸으로 셉니다)
    lines = message.splitlines()
    source = next(i for i, line in enumerate(lines) if 'print("합계"' in line)
    prefix = lines[source][: lines[source].index("total /")]
    width = sum(2 if unicodedata.east_asian_width(c) == "W" else 1 for c in prefix)
    assert lines[source + 1].index("~") == width, lines[source : source + 2]
    # 성공한 앞 조각(demo.py)은 그 파일의 줄로 컴파일되었습니다: 함수를 정의하면 그 파일과 줄을 압니다
    ok = '# 함수\n\n```python\n--8<-- "demo.py"\n```\n'
    _, blocks = codeblocks.page_blocks(expander(folder), ok, "docs/ok.md")
    namespace_probe = codeblocks.run_blocks(blocks)
    assert namespace_probe[0].output == "합: 3\n"


def test_syntax_error_names_the_snippet_line(tmp_path):
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.sum()')
    with pytest.raises(codeblocks.CodeBlockError) as err:
        run_page(tmp_path, snippet=broken)
    assert "SyntaxError" in str(err.value) and str(err.value).splitlines()[0].endswith("snippets/demo.py:6)")


def test_warning_in_page_code_is_an_error(tmp_path):
    noisy = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", np.log(x - 1))')
    with pytest.raises(codeblocks.CodeBlockError, match="RuntimeWarning"):
        run_page(tmp_path, snippet=noisy)


def test_good_figure_renders_in_both_themes(render_demo):
    for path in render_demo(GOOD_SNIPPET):
        assert path.stat().st_size > 1000


def test_failing_snippet_import_fails_the_figure(render_demo):
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    with pytest.raises(figures.FigureError, match=r"(?s)import 하다 실패했습니다.*AttributeError"):
        render_demo(broken)


def test_failing_figure_function_is_an_error(render_demo):
    with pytest.raises(figures.FigureError, match=r"figure_demo.*NameError"):
        render_demo(GOOD_SNIPPET.replace("ax.plot(x)", "ax.plot(x, y_없음)"))


def test_missing_glyph_is_an_error(render_demo):
    # 나눔고딕에는 SentencePiece 의 ▁ (U+2581) 글리프가 없습니다.
    with pytest.raises(figures.FigureError, match=r"Glyph.*missing"):
        render_demo(GOOD_SNIPPET.replace('"한글 제목"', '"한글 ▁제목"'))


def figure_html(text):
    # FigureExtension 은 그림 모음을 만드는 함수를 받습니다 (빌드처럼 늦게 만듭니다): 클래스를 그대로 넘깁니다.
    return markdown.markdown(text, extensions=[FigureExtension(OneFigure)])


def test_figure_reference_becomes_a_light_dark_pair():
    html = figure_html("![[CLS] 가 보이는 그림](figures/demo-demo.png)")
    assert html.count("<img") == 4  # 넓은 판·좁은 판 × 밝은·어두운
    assert (
        'src="figures/demo-demo-light.png#only-light"' in html and 'src="figures/demo-demo-dark.png#only-dark"' in html
    )
    assert 'src="figures/demo-demo-narrow-light.png#only-light"' in html
    assert '<a class="figure-link figure--narrow figure--dark" href="figures/demo-demo-narrow-dark.png">' in html
    assert html.count('alt="[CLS] 가 보이는 그림"') == 4 and html.count('width="200"') == 2


def test_figure_without_alt_is_an_error():
    with pytest.raises(PluginError, match="대체 텍스트"):
        figure_html("![](figures/demo-demo.png)")


def test_unknown_figure_is_an_error():
    with pytest.raises(PluginError, match="figure_\\* 함수가 스니펫에 없습니다"):
        figure_html("![그림](figures/demo-other.png)")


# --- 그 오류가 정말 빌드를 멈추는지: 작은 사이트 빌드 ---------------------------------------------


def make_site(tmp_path, snippet=GOOD_SNIPPET, page=GOOD_PAGE):
    snippets_dir(tmp_path, snippet)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(f"""
        site_name: 작은 사이트
        theme:
          name: material
          language: ko
          font: false
        hooks:
          - {HOOKS / "attention_site.py"}
        markdown_extensions:
          - attr_list
          - pymdownx.arithmatex:
              generic: true
          - pymdownx.highlight
          - pymdownx.superfences
          - pymdownx.snippets:
              base_path: !relative $config_dir/snippets
              check_paths: true
        """),
        encoding="utf-8",
    )
    return tmp_path / "mkdocs.yml"


@pytest.mark.site
def test_good_site_builds(tmp_path):
    """대조군: 망가뜨리지 않은 작은 사이트는 빌드되고, 출력·그림·수식이 들어갑니다."""
    code, log = mkdocs_build(make_site(tmp_path), tmp_path / "site")
    assert code == 0, log
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<div class="cell-output" data-search-exclude=""><span class="filename">실행 결과</span>' in html
    # 코드 블록의 실행 결과 (가장 좁은 상자에 들어가는 짧은 줄이라 span.line 으로 감싸지 않습니다: sitebuild/lines.py)
    assert "<samp>합: 3</samp>" in html
    assert "demo-demo-light.png" in html and "demo-demo-dark.png" in html
    assert "<math" in html


@pytest.mark.site
def test_failing_snippet_fails_build(tmp_path):
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())').split("def figure_demo")[0]
    code, log = mkdocs_build(
        make_site(tmp_path, snippet=broken, page=GOOD_PAGE.split("![작은 그림]")[0]), tmp_path / "site"
    )
    assert code != 0
    assert "AttributeError" in log and "docs/index.md:6: 코드 블록 1" in log
    assert 'snippets/demo.py", line 6, in <module>' in log  # 빌드 로그의 traceback 도 스니펫의 줄을 가리킵니다


@pytest.mark.site
def test_failing_figure_fails_build(tmp_path):
    """그림은 작업 프로세스에서 그리므로, 그 실패가 빌드까지 올라오는지 따로 봅니다."""
    broken = GOOD_SNIPPET.replace("ax.plot(x)", "ax.plot(x, y_없음)")
    code, log = mkdocs_build(make_site(tmp_path, snippet=broken), tmp_path / "site")
    assert code != 0
    assert "figure_demo" in log and "NameError" in log


def _repo_validation_block():
    """저장소 mkdocs.yml 의 `validation:` 절을 글자 그대로 꺼냅니다 (다음 최상위 키 앞까지).

    작은 사이트에 같은 절을 붙여서, 저장소의 설정 자체가 잘못된 링크를 잡는다는 것을 확인합니다.
    """
    text = (HOOKS.parent.parent / "mkdocs.yml").read_text(encoding="utf-8")
    start = text.index("\nvalidation:\n") + 1
    rest = text[start:].split("\n")
    block = [rest[0]]
    for line in rest[1:]:
        if line and not line.startswith((" ", "#")):
            break
        block.append(line)
    return "\n".join(block).rstrip() + "\n"


def _with_validation(config):
    config.write_text(config.read_text(encoding="utf-8") + _repo_validation_block(), encoding="utf-8")
    return config


BAD_LINKS = {  # 종류: (페이지 본문, 로그에 나올 말). mkdocs 기본값은 앞의 둘을 INFO 로만 남깁니다.
    # 용어집에 있던 실수: 대괄호 바로 뒤의 괄호가 링크로 읽혀 "문장 맨 앞" 이라는 주소가 됩니다.
    "unrecognized": ("[CLS](문장 맨 앞)는 문장 맨 앞에 붙습니다.\n", "unrecognized relative link"),
    "missing_anchor": ("## Section A\n\n[위로](#no-such-section)\n", "no-such-section"),
    "missing_page": ("[다음 장](없는_페이지.md)\n", "없는_페이지.md"),
}


@pytest.mark.site
def test_broken_links_fail_the_strict_build(tmp_path):
    """저장소의 validation 절을 붙인 작은 사이트: 세 종류의 잘못된 링크가 모두 경고가 되어 --strict 빌드가 실패합니다."""
    page = "# 링크 검사\n\n" + "\n".join(text for text, _ in BAD_LINKS.values())
    code, log = mkdocs_build(_with_validation(make_site(tmp_path, page=page)), tmp_path / "site")
    assert code != 0
    warnings = [line for line in log.splitlines() if line.startswith("WARNING")]
    for kind, (_, message) in BAD_LINKS.items():
        assert any(message in line for line in warnings), f"{kind}: {message!r} 가 경고가 아닙니다\n{log[-3000:]}"


@pytest.mark.site
def test_good_links_pass_with_validation(tmp_path):
    """대조군: 올바른 링크와 앵커, 대괄호가 든 본문은 validation 을 켜도 통과합니다."""
    page = "# 링크 검사\n\n## Section A\n\n[위로](#section-a), [CLS]는 문장 맨 앞에 붙습니다.\n"
    code, log = mkdocs_build(_with_validation(make_site(tmp_path, page=page)), tmp_path / "site")
    assert code == 0, log
