"""그림 글자가 휴대전화와 데스크톱에서 읽히는 크기인지 (재는 방법과 기준: sitebuild/legibility.py).

빌드는 그림을 그릴 때마다 matplotlib Figure 에서 그려진 모든 글자의 크기와 그림 폭을 재고, 기준
(좁은 판: 343 px 칸에서 10 CSS px, 넓은 판: 688 px 칸에서 11 CSS px)에 못 미치거나 가장자리에서
잘리면 빌드를 멈춥니다. 여기서는 (1) 재는 방법이 정말 작은 글자와 잘린 글자를 찾아내는지, (2) 그림마다(테스트 이름이
그림 이름: `-k four_steps` 가 그 장의 그림만 그리고 봅니다) 모든 판이 그려지고 기준을 넘는지, (3) 빌드가 남기는 표가
모든 그림을 담는지 확인하고 그 표를 찍습니다.
"""

import json

import matplotlib
import pytest

import disk_cache
from conftest import ROOT, SNIPPETS, background
from sitebuild import figures, legibility

matplotlib.use("Agg")


def draw(fig):
    import io

    with legibility.recording_texts() as texts:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=figures.DPI)
    return texts, buf.getvalue()


def test_the_measure_sees_small_and_clipped_text():
    """재는 방법이 작은 글자와 잘린 제목을 정말 찾아냅니다 (통과만 하는 검사가 아님을 보입니다)."""
    import matplotlib.pyplot as plt

    import plotting

    plotting.use_korean_font()
    with plotting.theme("light"):
        fig, ax = plt.subplots(figsize=(8, 3), layout="constrained")
        ax.plot([0, 1])
        ax.text(0.5, 0.5, "작은 글자", fontsize=6)
        texts, png = draw(fig)
        m = legibility.measure(fig, texts, png, "only")
        assert m["pt"] == 6 and m["clipped"] == []
        assert m["phone"] < legibility.PHONE_MIN and any("휴대전화" in p for p in legibility.problems(m))
        fig.text(0.5, 0.99, "잘린 제목", va="bottom")
        texts, png = draw(fig)
        assert legibility.measure(fig, texts, png, "only")["clipped"] == ["위"]
    plt.close(fig)


def test_an_illegible_figure_fails_the_build_render(tmp_path):
    """figures.render 가 글자가 너무 작은 그림을 FigureError 로 멈춥니다 (빌드는 그 오류로 실패합니다)."""
    from sitebuild import snippets

    (tmp_path / "tiny.py").write_text(
        "def figure_tiny(narrow=False):\n"
        "    import matplotlib.pyplot as plt\n"
        "    fig, ax = plt.subplots(figsize=(12, 3), layout='constrained')\n"
        "    ax.set_title('넓은 그림의 작은 제목', fontsize=8)\n"
        "    return fig\n",
        encoding="utf-8",
    )
    with snippets.importable(tmp_path):
        paths = {("wide", "light"): tmp_path / "tiny-wide-light.png"}  # 넓은 판 하나로 충분합니다
        with pytest.raises(figures.FigureError, match="읽기 어렵습니다"):
            figures.render("tiny", "figure_tiny", paths, tmp_path)


FIGURES = figures.discover(SNIPPETS)
OUT = ROOT / ".cache" / "site" / "figures"


def _start_drawing(items):
    """이 세션이 확인하는 그림들(아래 그림별 테스트 가운데 고른 것)만, 빌드와 같은 FigureSet 과 같은 캐시(.cache/site/figures)로
    그리기 시작합니다: 스니펫(이나 그리는 빌드 코드)이 바뀐 그림만 작업 프로세스 둘에 맡기고 곧 돌아옵니다. 그래서
    `-k four_steps` 나 빠른 고리(make quick)는 그 장의 그림만 다시 그리고, 그동안 이 프로세스는 다른 테스트를 돌립니다
    (conftest 의 START: 모으기가 끝나자마자 부릅니다)."""
    wanted = {
        item.callspec.params["name"]
        for item in items
        if getattr(item, "originalname", "") == "test_figure_is_legible_on_a_phone_and_a_desktop"
    }
    return figures.FigureSet(SNIPPETS, OUT, disk_cache.environment(ROOT), names=wanted)


START = {"figures:drawing": _start_drawing}


@pytest.fixture(scope="session")
def drawn():
    """그리기가 끝난 FigureSet 과 {모듈: 오류}. 그리다 나는 모든 경고(한글 글리프 누락 포함), 기준보다 작은 글자,
    가장자리에서 잘린 글자는 그 그림을 그리는 모듈의 FigureError 입니다."""
    figure_set = background("figures:drawing")
    return figure_set, figure_set.wait_each()


@pytest.mark.reads("snippets/*.py")
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_is_legible_on_a_phone_and_a_desktop(name, drawn):
    """그림 하나의 모든 판이 그려지고, 잰 값이 기준을 넘습니다 (좁은 판은 휴대전화 기준, 넓은 판은 둘 다)."""
    figure_set, errors = drawn
    if FIGURES[name].module in errors:
        pytest.fail(f"그림을 그리지 못했거나 읽기 어렵습니다: {errors[FIGURES[name].module]}", pytrace=False)
    variants = figure_set.legibility[name]
    print("\n" + legibility.table({name: variants}))
    assert set(variants) in ({"wide", "narrow"}, {"only"}), (name, variants)
    for variant, m in variants.items():
        assert not legibility.problems(m), f"{name} ({variant}): {legibility.problems(m)}"
        if variant == "narrow":
            assert m["phone"] >= legibility.PHONE_MIN and m["desktop"] is None
    for path in figure_set.paths[name].values():
        assert path.stat().st_size > 1000, path


@pytest.mark.reads("snippets/*.py")
def test_the_table_measures_every_figure():
    """모두 모은 표(legibility.json, 빌드가 쓰는 것)가 모든 그림을 담고, 그림마다의 측정값과 같습니다.
    그림은 위의 그림별 테스트가 이미 그렸으므로 여기서는 캐시를 읽기만 합니다 (그 테스트 없이 돌면 여기서 그립니다)."""
    figure_set = figures.FigureSet(SNIPPETS, OUT, disk_cache.environment(ROOT))
    try:
        figure_set.wait_all()
    except figures.FigureError as exc:
        pytest.fail(f"그림을 그리지 못했거나 읽기 어렵습니다: {exc}", pytrace=False)
    measured = figure_set.legibility
    print("\n" + legibility.table(measured))
    assert set(measured) == set(FIGURES), "재지 않은 그림이 있습니다"
    table = json.loads((OUT / "legibility.json").read_text(encoding="utf-8"))
    assert table == json.loads(json.dumps(measured))


def hangul_body(family):
    """한글 음절(가)이 실제로 그려지는 높이 / 글자 크기(em): 글자 상자가 아니라 잉크의 높이."""
    import io

    import matplotlib.pyplot as plt
    import numpy as np
    from PIL import Image

    fig = plt.figure(figsize=(2, 2), dpi=100)
    fig.text(0.1, 0.3, "가", fontsize=72, fontfamily=family)  # 72 pt, 100 dpi: 글자 상자 100 px
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    ink = np.flatnonzero((np.asarray(Image.open(buf).convert("L")) < 128).any(axis=1))
    return (ink.max() - ink.min() + 1) / 100


def test_korean_tick_labels_of_the_sentence_heatmaps_are_legible_on_a_phone():
    """issue 41: 히트맵(korean_model 의 heads_meaning·heads_position, 4장의 첫 그림)의 한글 토큰 이름이 휴대전화에서 작았습니다.
    글자 상자는 10.9 px 이지만 한글 음절의 잉크는 그 0.92 배라, 실제로 보이는 한글은 기준(10 px)에 겨우 닿았습니다.
    좁은 판의 토큰 이름은 korean_model.NARROW_TICK_PT 로 그리고, 그 크기에서 한글의 실제 높이가 기준을 넘습니다."""
    import ast

    import plotting

    plotting.use_korean_font()
    source = (SNIPPETS / "korean_model.py").read_text(encoding="utf-8")
    consts = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("TICK_FONT", "NARROW_TICK_PT")
    }
    ratio = hangul_body(consts["TICK_FONT"])
    assert 0.8 < ratio < 1.0, ratio

    def phone_px(pt):
        return legibility.css_px(pt, plotting.width(True), legibility.PHONE_COLUMN) * ratio

    assert phone_px(consts["NARROW_TICK_PT"]) >= legibility.PHONE_MIN + 1, phone_px(consts["NARROW_TICK_PT"])
    # 대조: 좁은 판의 기본 눈금 크기로는 한글이 기준에서 0.1 px 안쪽입니다 (그래서 더 키웠습니다)
    assert phone_px(plotting.SIZES[True]["ytick.labelsize"]) < legibility.PHONE_MIN + 0.1
    # 그림은 토큰 이름 세 축(아래, 위, 왼쪽) 모두 그 크기로 씁니다
    body = source[source.index("def _sentence_heads") : source.index("def figure_heads_position")]
    assert '"fontsize": NARROW_TICK_PT} if narrow' in body and body.count("**tick)") == 3
