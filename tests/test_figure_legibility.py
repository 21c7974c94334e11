"""그림 글자가 휴대전화와 데스크톱에서 읽히는 크기인지, matplotlib Figure 자체에서 잽니다.

폭이 W 인치인 그림은 페이지에 CSS 96·W px 로 놓이고, 본문 칸이 그보다 좁으면 칸에 맞게 줄어듭니다.
그래서 s pt 글자는 화면에서 s · 96/72 · min(1, 칸 / (96·W)) CSS px 가 됩니다.

- 휴대전화(375 px 화면의 본문 칸 343 px): 가장 작은 글자 ≥ 10 CSS px
- 데스크톱(1280 px 화면의 본문 칸 688 px): 가장 작은 글자 ≥ 11 CSS px

figure_<이름>(narrow=...) 처럼 narrow 인자를 받는 그림은 좁은 판과 넓은 판을 따로 그립니다.
페이지는 본문 칸이 688 px 보다 좁은 화면(720 px 미만)에 좁은 판을, 그 이상에 넓은 판을 보여 주므로
(docs/assets/site.css 의 .figure--narrow), 좁은 판은 휴대전화 기준을, 넓은 판은 데스크톱 기준을 지킵니다.
narrow 인자가 없는 그림은 어디서나 같은 판이므로 두 기준을 모두 지킵니다.

그린 글자만 셉니다: Text.draw 가 실제로 불린 글자(보이는 눈금 이름, 제목, 칸 숫자 …)를 모읍니다.
잘린 글자는 빌드와 같은 해상도(figures.DPI)로 그린 PNG 에서 봅니다: 배경이 투명하므로 가장자리 한 줄에
잉크가 있으면 무엇인가 그림 밖으로 나가 잘린 것입니다 (한글 글리프는 matplotlib 이 계산하는 글자 상자보다
조금 위로 솟기도 해서, 상자만 보아서는 잘린 제목을 놓칩니다).
"""

import importlib
import inspect
import io

import numpy as np
from PIL import Image

import matplotlib
import pytest
from matplotlib.text import Text
from sitebuild import figures

from conftest import SNIPPETS

matplotlib.use("Agg")

PHONE_COLUMN, DESKTOP_COLUMN = 343, 688
PHONE_MIN, DESKTOP_MIN = 10.0, 11.0
FIGURES = figures.discover(SNIPPETS)


def css_px(points, width_in, column):
    return points * 96 / 72 * min(1.0, column / (96 * width_in))


def drawn_texts(fig, dpi=figures.DPI):
    """빌드처럼 PNG 로 한 번 그리며, 실제로 그려진 Text 들과 그 PNG(RGBA 배열)를 돌려줍니다."""
    drawn = []
    original = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    Text.draw = record
    try:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
    finally:
        Text.draw = original
    return drawn, np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGBA"))


def ink_on_the_edge(png):
    """PNG 가장자리 한 줄(위·아래·왼쪽·오른쪽)에 불투명한 픽셀이 있는 쪽들."""
    alpha = png[..., 3]
    edges = {"위": alpha[0], "아래": alpha[-1], "왼쪽": alpha[:, 0], "오른쪽": alpha[:, -1]}
    return [side for side, line in edges.items() if (line > 0).any()]


def variants(module, func):
    """(판 이름, narrow 인자) 목록: narrow 를 받으면 좁은 판과 넓은 판, 아니면 한 판."""
    accepts = "narrow" in inspect.signature(getattr(importlib.import_module(module), func)).parameters
    return [("넓은 판", False), ("좁은 판", True)] if accepts else [("한 판", None)]


def measure(module, func, narrow, theme="light"):
    import matplotlib.pyplot as plt
    import plotting

    plotting.use_korean_font()
    with plotting.theme(theme, narrow=bool(narrow)):  # 빌드(sitebuild/figures.render)와 같은 설정
        fn = getattr(importlib.import_module(module), func)
        fig = fn() if narrow is None else fn(narrow=narrow)
        texts, png = drawn_texts(fig)
        width = fig.get_figwidth()
        clipped = ink_on_the_edge(png)
        smallest = min(texts, key=lambda t: t.get_fontsize())
        plt.close(fig)
    return {"width": width, "pt": smallest.get_fontsize(), "text": smallest.get_text(), "clipped": clipped}


@pytest.fixture(scope="module")
def table():
    rows = []
    for name, (module, func) in sorted(FIGURES.items()):
        for label, narrow in variants(module, func):
            m = measure(module, func, narrow)
            phone = css_px(m["pt"], m["width"], PHONE_COLUMN) if narrow in (True, None) else None
            desktop = css_px(m["pt"], m["width"], DESKTOP_COLUMN) if narrow in (False, None) else None
            rows.append({"name": name, "variant": label, **m, "phone": phone, "desktop": desktop})
    lines = [f"{'그림':<28}{'판':<6}{'폭(in)':>7}{'최소 pt':>8}{'폰 px':>7}{'데스크톱 px':>11}  가장 작은 글자"]
    for r in rows:
        fmt = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
        lines.append(f"{r['name']:<28}{r['variant']:<6}{r['width']:>7.1f}{r['pt']:>8.1f}{fmt(r['phone']):>7}"
                     f"{fmt(r['desktop']):>11}  {r['text'][:24]!r}")
    report = "\n".join(lines)
    print("\n" + report)
    return rows, report


def test_every_figure_is_legible_on_a_phone_and_a_desktop(table):
    rows, report = table
    small = [f"{r['name']} ({r['variant']}): 폰 {r['phone']}, 데스크톱 {r['desktop']}" for r in rows
             if (r["phone"] is not None and r["phone"] < PHONE_MIN)
             or (r["desktop"] is not None and r["desktop"] < DESKTOP_MIN)]
    assert not small, "글자가 너무 작은 그림:\n" + "\n".join(small) + "\n\n" + report


def test_no_text_is_cut_off_at_the_figure_edge(table):
    rows, report = table
    cut = [f"{r['name']} ({r['variant']}): {r['clipped']}" for r in rows if r["clipped"]]
    assert not cut, "가장자리에 닿아 잘리는 그림(잘린 쪽):\n" + "\n".join(cut)


def test_the_measure_sees_small_and_clipped_text():
    """측정이 정말 작은 글자와 잘린 글자를 찾아냅니다 (이 테스트가 통과만 하는 테스트가 아님을 보입니다)."""
    import matplotlib.pyplot as plt

    import plotting

    with plotting.theme("light"):
        fig, ax = plt.subplots(figsize=(8, 3), layout="constrained")
        ax.plot([0, 1])
        ax.text(0.5, 0.5, "작은 글자", fontsize=6)
        texts, png = drawn_texts(fig)
        assert min(t.get_fontsize() for t in texts) == 6 and css_px(6, 8, PHONE_COLUMN) < PHONE_MIN
        assert ink_on_the_edge(png) == []
        fig.text(0.5, 0.99, "잘린 제목", va="bottom")
        _, png = drawn_texts(fig)
        assert ink_on_the_edge(png) == ["위"]
    plt.close(fig)
