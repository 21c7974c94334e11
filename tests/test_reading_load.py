"""읽을 분량의 목표 (issue 22): 빌드된 사이트에서 보이는 글이 본문의 길 20,000자, 장마다 3,000자,
실제 모델 두 장 5,500자, 8장 4,000자를 넘지 않습니다. 재는 방법과 목표는 tools/reading_load.py 에 있고,
`make reading` 이 같은 표를 찍습니다."""

import importlib.util

import pytest

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("reading_load", ROOT / "tools" / "reading_load.py")
reading_load = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reading_load)


def test_measure_counts_only_visible_prose():
    html = """<html><body><nav>탐색 서랍의 글은 세지 않습니다</nav><article>
    <h1>제목<a class="headerlink" href="#x">¶</a></h1>
    <p>보이는   글</p>
    <div class="highlight"><pre><code>코드는 빼고</code></pre></div>
    <div class="cell-output"><span class="filename">실행 결과</span><pre><samp>출력도 빼고</samp></pre></div>
    <p>수식 <math><mi>x</mi></math><span class="search-only">x</span> 앞뒤</p>
    <details class="note"><summary>더 알아보기: 접힌 것</summary>
      <p>접힌 글</p>
      <details open><summary>안쪽</summary>
        <p>안쪽 글</p></details></details>
    <details class="note" open><summary>펼친 것</summary>
      <p>펼친 글</p></details>
    </article></body></html>"""
    got = reading_load.measure_html(html)
    visible = "제목 보이는 글 수식 앞뒤 펼친 것 펼친 글"
    assert got["visible"] == len(visible), got
    assert got["collapsed"] == len("더 알아보기: 접힌 것 접힌 글 안쪽 안쪽 글"), got
    with pytest.raises(ValueError, match="article"):
        reading_load.measure_html("<html><body><p>글</p></body></html>")


def test_main_path_and_targets_name_real_pages():
    from site_pages import nav_pages

    assert set(reading_load.MAIN_PATH) <= set(nav_pages())
    assert set(reading_load.nav_docs()) == set(nav_pages())
    assert reading_load.TARGETS["본문의 길 합계"] == 20_000
    assert {d for d in reading_load.TARGETS if d.endswith(".md")} == set(reading_load.CHAPTERS) | {
        "real_model.md",
        "korean_model.md",
        "efficient.md",
        "head_roles.md",
    }


def test_reading_load_targets_hold(built_site):
    site, _ = built_site
    rows, over = reading_load.table(site, reading_load.nav_docs())
    print("\n" + reading_load.format_table(rows))
    assert not over, "읽을 분량의 목표를 넘었습니다: " + ", ".join(
        f"{name} {vis:,}자 > {target:,}자" for name, vis, _, target in over
    )
    main = dict((name, vis) for name, vis, _, _ in rows)["본문의 길 합계"]
    assert main > 10_000  # 재는 방법이 글을 통째로 놓치면 목표가 저절로 맞으니, 아래쪽도 봅니다
