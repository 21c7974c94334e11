"""빌드 훅(overrides/hooks/attention_site.py): mkdocs serve 가 다시 빌드할 때 고친 빌드 코드로 빌드합니다.

MkDocs 는 훅 파일을 프로세스에 한 번만 읽지만(lru_cache), serve 는 다시 빌드할 때마다 설정을 다시 읽고
on_config 부터 다시 돕니다. 복사한 훅으로 serve 처럼 설정 읽기 + on_config 를 두 번 하고, 그 사이에 sitebuild 의
파일을 고쳐 봅니다.
"""

import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from conftest import HOOKS, background, snippet_path
from site_pages import html_text
from support import runs

DISK_CACHE = snippet_path("disk_cache")
OVERRIDES = HOOKS.parent

TWICE = """
import sys
from pathlib import Path
from mkdocs.config import load_config

def build_once():
    config = load_config(sys.argv[1])
    config.plugins.on_config(config)
    hook = next(p for p in config.plugins.values() if hasattr(p, "on_files"))
    return type(hook._build)

first = build_once()
build = Path(sys.argv[2]) / "sitebuild" / "build.py"
build.write_text(build.read_text(encoding="utf-8") + "\\nSiteBuild.EDITED = '고친 빌드 코드'\\n", encoding="utf-8")
second = build_once()
print(first is second, getattr(first, "EDITED", None), getattr(second, "EDITED", None))
"""


def serve_twice(tmp_path):
    # 저장소와 같은 배치(overrides/, snippets/)로 복사합니다: 빌드 코드는 훅 폴더에서 찾습니다 — 도구 표
    # (overrides/tools.yml)와 캐시 모듈(snippets/lib/disk_cache.py, sitebuild/snippets.py 의 LIBRARY).
    shutil.copytree(OVERRIDES, tmp_path / "overrides", ignore=shutil.ignore_patterns("__pycache__"))
    hooks = tmp_path / "overrides" / "hooks"
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets" / "lib").mkdir(parents=True)
    shutil.copy(DISK_CACHE, tmp_path / "snippets" / "lib")
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(f"""
        site_name: 훅 다시 읽기
        hooks:
          - {hooks / "attention_site.py"}
        markdown_extensions:
          - attr_list
          - pymdownx.superfences
          - pymdownx.snippets:
              base_path:
                - !relative $config_dir/snippets/lib
              check_paths: true
        """),
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-c", TWICE, str(tmp_path / "mkdocs.yml"), str(hooks)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )


# 새 파이썬 프로세스는 몇 초 걸리므로 세션을 시작할 때 배경에서 미리 돌립니다 (conftest.background).
# 훅과 빌드 코드가 그대로면 지난 결과를 씁니다 (support/runs.py).
BACKGROUND = {
    "hook:serve-twice": lambda: runs.cached(
        "hook-serve-twice",
        [HOOKS, OVERRIDES / "tools.yml", DISK_CACHE],
        lambda: serve_twice(Path(tempfile.mkdtemp(prefix="serve-twice-"))),
        __name__,
    )
}


def test_serve_rebuilds_with_the_edited_build_code():
    proc = background("hook:serve-twice")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["False", "None", "고친", "빌드", "코드"]


def test_lines_wrap_each_long_line_and_reopen_spans_across_lines():
    """sitebuild/lines.py: 가장 좁은 상자에서 접힐 수 있는 줄마다 span.line(들여쓰기 칸 수는 --indent), 여러 줄에 걸친
    토큰 span 은 줄 끝에서 닫고 다음 줄에서 다시 엽니다. 글(textContent)은 그대로입니다."""

    from sitebuild import lines

    long = "a" * 30  # 고정폭 30글자 = 18 em: 가장 좁은 상자(16 em)에서 접힙니다
    code = f'{long} = 1\n    <span class="s">"""{long}\nb"""</span>\n'
    out = lines.wrap_lines(code)
    assert out == (
        f'<span class="line">{long} = 1\n</span>'
        f'<span class="line" style="--indent:4ch">    <span class="s">"""{long}\n</span></span>'
        '<span class="s">b"""</span>\n'  # 짧은 줄: 감싸지 않습니다 (다시 연 토큰 span 은 그대로)
    )
    assert html_text(out) == html_text(code)
    page = f"<pre><code>{code}</code></pre><details><p>풀이</p><pre><span></span><code>{code}</code></pre></details>"
    wrapped = lines.wrap_code_in_details(page)
    assert wrapped.startswith(f"<pre><code>{code}</code></pre>")  # 본문의 코드는 그대로
    assert wrapped.count('class="line"') == 2


def test_lines_that_fit_the_narrowest_box_get_no_span_break_point_or_glue():
    """가장 좁은 상자(320 px 화면의 접은 풀이, 16 em)에 들어가는 줄은 접히지 않으므로 span.line 도, <wbr> 도, 토큰 묶음도
    없이 그대로 둡니다 (issue 29 §8: 그 요소들이 휴대전화의 페이지 여는 시간(TBT)을 늘렸습니다). 경계: 16 em 까지는 그대로,
    넘으면 감쌉니다. 한글은 1 em, 고정폭 라틴 글자는 0.602 em 으로 셉니다 (tests/test_phone_boxes.py 와 같게)."""
    from sitebuild import fences, lines

    assert lines.NARROWEST_EM == 16
    for fits, too_wide in (("a" * 26, "a" * 27), ("가" * 16, "가" * 17), ("&quot;" * 26, "&quot;" * 27)):
        assert lines.wrap_lines(fits + "\n") == fits + "\n"
        assert lines.wrap_lines(too_wide + "\n") == f'<span class="line">{too_wide}\n</span>'
    # 실행 결과: 짧은 줄은 토큰을 묶지 않고, 긴 줄은 줄마다 감싸고 토큰을 묶습니다
    short, long = "'1-7' 0.27", "가장 잘 맞히는 헤드: '1-7' (100%), 둘째 '2-3'"
    samp = fences.output_html(f"{short}\n{long}\n").split("<samp>")[1].split("</samp>")[0]
    assert samp.startswith('&#x27;1-7&#x27; 0.27\n<span class="line">')
    assert samp.count('class="line"') == 1 and samp.count('class="glue"') == 2
    assert html_text(samp) == f"{short}\n{long}\n"
    # 접은 상자 속 코드: 짧은 줄에는 접을 자리도 이름·조사 묶음도 넣지 않습니다
    short_code = "np.sqrt(x)  # x 의 제곱근\n"
    got = lines.wrap_code_in_details(f"<details><pre><code>{short_code}</code></pre></details>")
    assert got == f"<details><pre><code>{short_code}</code></pre></details>"
    # marked 와 fragment 의 줄 수가 다르면 (글이 다른 둘) 조용히 섞지 않고 멈춥니다
    with pytest.raises(ValueError, match="marked"):
        lines.wrap_lines("a\nb\n", "a\n")


def test_code_in_collapsed_blocks_breaks_after_brackets_commas_and_dots():
    """접은 상자 속 코드는 여는 괄호·쉼표·등호·점 뒤에서 접히고(<wbr>), 글과 태그는 그대로입니다. 실행 결과는 숫자가
    갈라지지 않게 <wbr> 을 넣지 않습니다."""

    from sitebuild import fences, lines

    code = '<span class="n">np</span>.sqrt(q.dtype, d_k=<span class="s">"a.b"</span>)\n'
    got = lines.code_break_points(code)
    assert got == '<span class="n">np</span>.<wbr>sqrt(<wbr>q.<wbr>dtype, d_k=<wbr><span class="s">"a.<wbr>b"</span>)\n'
    assert html_text(got) == html_text(code)
    page = f"<details><pre><code>{code}</code></pre></details>"  # 27글자(16.3 em): 가장 좁은 상자에서 접히는 줄
    assert lines.wrap_code_in_details(page).count("<wbr>") == 5
    assert "<wbr>" not in fences.output_html("softmax([1, 2]) = [0.27 0.73]")
    # 수의 소수점과 두 글자 연산자(==, <=, !=) 안에서는 접지 않습니다. 이름 사이의 점과 키워드 인자의 = 뒤에서는 접습니다.
    numbers = "x = [16.0, -0.01, .5](pos==n, a<=b, c!=d, v.T)"
    assert lines.code_break_points(numbers) == "x = [<wbr>16.0, -0.01, .5](<wbr>pos==n, a<=b, c!=d, v.<wbr>T)"


def test_a_comments_particle_stays_with_the_name_before_it():
    """코드 주석은 영어 이름과 조사를 띄어 씁니다. 접은 상자에서 그 빈칸에서 줄이 바뀌면 조사가 혼자 줄 맨 앞에 오므로
    ("transformers ⏎의"), 이름과 조사를 glue 로 묶습니다. 글은 그대로이고, 한글 낱말 뒤의 빈칸과 코드는 묶지 않습니다."""
    from sitebuild import lines

    comment = '<span class="c1"># transformers 의 BertModel 과 같게 (switch_off 가 만든 배열, 끈 헤드는 0)</span>'
    got = lines.code_break_points(comment)
    assert html_text(got) == html_text(comment)
    assert got.count('<span class="glue">') == 3
    for glued in ("transformers 의", "BertModel 과", "(switch_off 가"):
        assert f'<span class="glue">{glued}</span>' in got
    assert "헤드는 0" in got and lines.code_break_points("x = a if b else c") == "x = a if b else c"


def test_card_tables_label_cells_with_their_column():
    """sitebuild/tables.py: <div class="table-cards" markdown> 안의 표만 칸마다 열 이름(data-label)과 역할(role)."""
    import markdown

    from sitebuild import tables

    text = '<div class="table-cards" markdown>\n\n| 용어 | **영어** |\n|---|---|\n| 키 | key |\n\n</div>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'
    html = markdown.markdown(text, extensions=["tables", "md_in_html", tables.CardTablesExtension()])
    assert '<td data-label="용어" role="cell">키</td>' in html and '<td data-label="영어" role="cell">key</td>' in html
    assert '<table role="table">' in html and html.count("data-label") == 2  # 밖의 표는 그대로
