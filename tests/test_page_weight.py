"""페이지 무게 예산: 빌드된 페이지마다 읽는 데 필요한 바이트(HTML, 스크립트, 스타일, 글꼴, 그림,
검색 색인)가 1 MB 를 넘지 않습니다. 넘으면 어느 페이지의 어떤 파일이 큰지 알려 줍니다.

Lighthouse 점수처럼 흔들리는 값은 벤치마크(make lighthouse)로 재고, 여기서는 빌드 결과만으로
정해지는 바이트 수를 확인합니다.
"""

import pytest

from site_pages import nav_pages
from support.pageweight import page_file, page_refs, page_weight

# make quick: 이 파일의 모든 테스트가 import 말고 읽는 것 (테스트마다 더 읽는 것은 그 함수에; tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/assets/*")


BUDGET = 1_000_000  # 바이트, 압축하지 않은 크기
EXPLORER_BUDGET = 300_000  # 바이트: 헤드 탐색기가 처음 보일 때 받는 데이터 (점수 + 시작 층의 q·k)


@pytest.mark.reads("docs/*.md")
@pytest.mark.parametrize("doc", nav_pages())
def test_page_stays_under_budget(built_site, doc):
    site, _ = built_site
    w = page_weight(site, doc)
    biggest = ", ".join(f"{p} {size / 1000:.0f} kB" for p, size in w["items"][:5])
    for (screen, palette), total in w["totals"].items():
        assert total <= BUDGET, (
            f"{doc}: {screen} 화면, {palette} 팔레트에서 {total / 1000:.0f} kB 로 예산 {BUDGET / 1000:.0f} kB 를 "
            f"넘습니다. 큰 파일: {biggest}"
        )
    assert w["gzip"] < w["total"] / 2  # 텍스트가 대부분이라 gzip 으로 절반 아래가 됩니다


@pytest.mark.reads("docs/four_steps.md", "docs/korean_model.md", "docs/real_model.md")
def test_budget_counts_what_a_page_loads(built_site):
    """예산 계산이 실제로 페이지가 부르는 파일을 세는지: 그림·검색 색인·스타일이 들어갑니다."""
    site, _ = built_site
    items = dict(page_weight(site, "four_steps.md")["items"])
    assert "four_steps/index.html" in items
    assert "search/search_index.json" in items
    assert any(p.startswith("assets/stylesheets/main.") for p in items)
    assert "figures/four_steps-pipeline-light.png" in items
    assert "figures/four_steps-pipeline-dark.png" not in items  # 어두운 쪽은 따로 셉니다
    assert "figures/four_steps-pipeline-narrow-light.png" not in items  # 좁은 판은 휴대전화 합계에만
    # 헤드 탐색기: 독자가 내려오면 받는 스크립트와 점수, 처음 보여 주는 문장·층의 q·k 파일 하나를 셉니다
    # (영어는 문장 0 의 2층, 한국어는 문장 0 의 7층). 다른 문장·층의 q·k 파일은 세지 않습니다.
    for doc, data, first in (("real_model.md", "minilm", "s0-l1"), ("korean_model.md", "e5", "s0-l6")):
        items = dict(page_weight(site, doc)["items"])
        assert "assets/head-explorer.js" in items and f"data/head_explorer-{data}.json" in items
        assert "assets/explorer-common.js" in items  # data-loads 의 두 번째가 아닌 첫 파일도 셉니다
        qk = [p for p in items if p.startswith(f"data/head_explorer-{data}-qk-")]
        assert qk == [f"data/head_explorer-{data}-qk-{first}.json"], qk
        explorer = items[f"data/head_explorer-{data}.json"] + items[qk[0]]
        assert explorer <= EXPLORER_BUDGET, f"{doc}: 탐색기가 처음 보일 때 {explorer:,} 바이트"
        print(f"{doc}: 탐색기 처음 화면 {explorer:,} 바이트, 페이지 {page_weight(site, doc)['total']:,} 바이트")
    # 확인 문제와 q·k 그림의 모양(hands-on.css)은 그 상자가 있는 페이지만 셉니다 (data-loads, site.css 에는 없음)
    assert "assets/hands-on.css" in dict(page_weight(site, "four_steps.md")["items"])
    assert "assets/hands-on.css" not in dict(page_weight(site, "real_model.md")["items"])
    w = page_weight(site, "four_steps.md")["totals"]
    assert w[("phone", "light")] != w[("desktop", "light")]


@pytest.mark.reads("docs/korean_model.md", "docs/own_sentence.md", "docs/real_model.md")
def test_switch_code_only_on_pages_whose_explorer_switches_heads_off(built_site):
    """헤드 끄기의 코드(assets/head-switch.js)는 탐색기에 data-ablation 이 있는 모델 페이지만 받습니다.

    "여러분의 문장으로" 도 head-explorer.js 를 받지만 그 스위치를 쓰지 않습니다: 한 파일이었을 때 그 페이지는 쓰지 않는
    7.9 kB 를 더 받았습니다 (704,370 → 712,310 바이트). 모델 페이지에서는 head-explorer.js 보다 먼저 적혀 있어야 합니다
    (먼저 실행되어야 탐색기를 만들 때 스위치가 붙습니다, overrides/main.html). head-explorer.js 의 사본에는 스위치의 코드가
    없습니다 (형식 이름 explorer-ablation/1 은 그 코드만 씁니다)."""
    site, _ = built_site
    for doc in ("real_model.md", "korean_model.md"):
        refs, _ = page_refs(page_file(site, doc).read_text(encoding="utf-8"))
        scripts = [url.rsplit("/", 1)[-1] for kind, url, _ in refs if kind == "script"]
        assert scripts.index("head-switch.js") < scripts.index("head-explorer.js"), (doc, scripts)
        assert "assets/head-switch.js" in dict(page_weight(site, doc)["items"])
    items = dict(page_weight(site, "own_sentence.md")["items"])
    assert "assets/head-explorer.js" in items and "assets/own-sentence.js" in items
    assert "assets/head-switch.js" not in items
    assert "explorer-ablation/1" not in (site / "assets" / "head-explorer.js").read_text(encoding="utf-8")
    assert "explorer-ablation/1" in (site / "assets" / "head-switch.js").read_text(encoding="utf-8")
