"""(e) 파이프라인이 조용히 넘어가지 않는다는 증명: 빠진 include, 실패하는 스니펫,
실패하는 그림, 한글 글리프 누락은 모두 빌드(또는 테스트)를 실패하게 만듭니다.

저장소 사이트 전체를 망가뜨려 보는 대신, 같은 훅과 같은 설정 방식을 쓰는 작은 사이트를
임시 폴더에 만들고 한 군데씩 망가뜨려 봅니다.
"""

import shutil
import textwrap

import pytest
from sitebuild import codeblocks

from conftest import HOOKS, SNIPPETS, mkdocs_build

pytestmark = pytest.mark.slow

GOOD_SNIPPET = '''
# --8<-- [start:demo]
import numpy as np

x = np.arange(3)
print("합:", x.sum())
# --8<-- [end:demo]


def figure_demo():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_title("한글 제목")
    ax.plot(x)
    return fig
'''

GOOD_PAGE = """# 작은 페이지

수식 $\\sqrt{d_k}$ 도 있습니다.

```python
--8<-- "demo.py:demo"
```

![작은 그림](figures/demo-demo.png)
"""


def make_site(tmp_path, snippet=GOOD_SNIPPET, page=GOOD_PAGE):
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    shutil.copy(SNIPPETS / "plotting.py", tmp_path / "snippets" / "plotting.py")
    (tmp_path / "snippets" / "demo.py").write_text(textwrap.dedent(snippet), encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f"""
        site_name: 작은 사이트
        theme:
          name: material
          language: ko
          font: false
        hooks:
          - {HOOKS / 'attention_site.py'}
        markdown_extensions:
          - attr_list
          - pymdownx.arithmatex:
              generic: true
          - pymdownx.superfences
          - pymdownx.snippets:
              base_path: !relative $config_dir/snippets
              check_paths: true
        """), encoding="utf-8")
    return tmp_path / "mkdocs.yml"


def test_good_site_builds(tmp_path):
    """대조군: 망가뜨리지 않은 작은 사이트는 빌드되고, 출력·그림·수식이 들어갑니다."""
    code, log = mkdocs_build(make_site(tmp_path), tmp_path / "site")
    assert code == 0, log
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "합: 3" in html  # 코드 블록의 실행 결과
    assert "demo-demo-light.png" in html and "demo-demo-dark.png" in html
    assert "<math" in html


def test_missing_include_fails_build(tmp_path):
    page = GOOD_PAGE.replace('"demo.py:demo"', '"demo.py:없는절"')
    code, log = mkdocs_build(make_site(tmp_path, page=page), tmp_path / "site")
    assert code != 0
    assert "없는절" in log


def test_missing_file_include_fails_build(tmp_path):
    page = GOOD_PAGE.replace('"demo.py:demo"', '"no_such_file.py"')
    code, log = mkdocs_build(make_site(tmp_path, page=page), tmp_path / "site")
    assert code != 0
    assert "no_such_file.py" in log


def test_failing_snippet_fails_build_and_suite(tmp_path):
    # 그림 없이 코드 블록만 있는 페이지: 실패는 페이지 코드를 실행하는 단계에서 나야 합니다.
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    broken = broken.split("def figure_demo")[0]
    page = GOOD_PAGE.split("![작은 그림]")[0]
    config = make_site(tmp_path, snippet=broken, page=page)
    code, log = mkdocs_build(config, tmp_path / "site")
    assert code != 0
    assert "AttributeError" in log and "코드 블록 1" in log
    # 테스트 쪽도 같은 블록을 실행하다 실패합니다 (test_pages 가 쓰는 것과 같은 함수).
    expand = codeblocks.snippet_expander({"base_path": [str(tmp_path / "snippets")], "check_paths": True})
    blocks = codeblocks.python_blocks(expand(page))
    with pytest.raises(codeblocks.CodeBlockError, match="AttributeError"):
        codeblocks.run_blocks(blocks)


def test_failing_snippet_import_fails_figure_build(tmp_path):
    # 코드 블록 없이 그림만 있는 페이지: 실패는 그림을 그리려고 스니펫을 import 하는 단계에서 나야 합니다.
    broken = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", x.summ())')
    page = "# 그림만\n\n![작은 그림](figures/demo-demo.png)\n"
    code, log = mkdocs_build(make_site(tmp_path, snippet=broken, page=page), tmp_path / "site")
    assert code != 0
    assert "demo.py 를 import 하다 실패했습니다" in log and "AttributeError" in log


def test_failing_figure_fails_build(tmp_path):
    broken = GOOD_SNIPPET.replace("ax.plot(x)", "ax.plot(x, y_없음)")
    code, log = mkdocs_build(make_site(tmp_path, snippet=broken), tmp_path / "site")
    assert code != 0
    assert "figure_demo" in log and "NameError" in log


def test_missing_glyph_fails_build(tmp_path):
    # 나눔고딕에는 SentencePiece 의 ▁ (U+2581) 글리프가 없습니다.
    broken = GOOD_SNIPPET.replace('"한글 제목"', '"한글 ▁제목"')
    code, log = mkdocs_build(make_site(tmp_path, snippet=broken), tmp_path / "site")
    assert code != 0
    assert "Glyph" in log and "missing" in log


def test_warning_in_page_code_fails_build(tmp_path):
    noisy = GOOD_SNIPPET.replace('print("합:", x.sum())', 'print("합:", np.log(x - 1))')
    code, log = mkdocs_build(make_site(tmp_path, snippet=noisy), tmp_path / "site")
    assert code != 0
    assert "RuntimeWarning" in log


def test_figure_without_alt_fails_build(tmp_path):
    page = GOOD_PAGE.replace("![작은 그림]", "![]")
    code, log = mkdocs_build(make_site(tmp_path, page=page), tmp_path / "site")
    assert code != 0
    assert "대체 텍스트" in log


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


BAD_LINKS = {  # 종류: (페이지 본문, 로그에 나올 말, validation 절이 없어도 --strict 가 실패하는가)
    # 용어집에 있던 실수: 대괄호 바로 뒤의 괄호가 링크로 읽혀 "문장 맨 앞" 이라는 주소가 됩니다.
    "unrecognized": ("[CLS](문장 맨 앞)는 문장 맨 앞에 붙습니다.\n", "unrecognized relative link", False),
    "missing_anchor": ("## Section A\n\n[위로](#no-such-section)\n", "no-such-section", False),
    "missing_page": ("[다음 장](없는_페이지.md)\n", "없는_페이지.md", True),
}


@pytest.mark.parametrize("kind", sorted(BAD_LINKS))
def test_broken_links_fail_the_strict_build(tmp_path, kind):
    text, message, fails_by_default = BAD_LINKS[kind]
    page = "# 링크 검사\n\n" + text
    (tmp_path / "default").mkdir()
    (tmp_path / "checked").mkdir()
    # 대조군: validation 절이 없으면 mkdocs 는 알 수 없는 링크와 없는 앵커를 INFO 로만 남기고
    # --strict 빌드가 통과합니다. 없는 페이지로 가는 링크만 기본값으로도 경고입니다.
    code, log = mkdocs_build(make_site(tmp_path / "default", page=page), tmp_path / "default" / "site")
    assert (code != 0) == fails_by_default, log
    assert message in log
    # 저장소의 validation 절을 붙이면 같은 페이지가 --strict 빌드를 실패하게 만듭니다.
    config = _with_validation(make_site(tmp_path / "checked", page=page))
    code, log = mkdocs_build(config, tmp_path / "checked" / "site")
    assert code != 0
    assert "WARNING" in log and message in log


def test_good_links_pass_with_validation(tmp_path):
    """대조군: 올바른 링크와 앵커, 대괄호가 든 본문은 validation 을 켜도 통과합니다."""
    page = "# 링크 검사\n\n## Section A\n\n[위로](#section-a), [CLS]는 문장 맨 앞에 붙습니다.\n"
    code, log = mkdocs_build(_with_validation(make_site(tmp_path, page=page)), tmp_path / "site")
    assert code == 0, log
