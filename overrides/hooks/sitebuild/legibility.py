"""그림 글자가 휴대전화와 데스크톱에서 읽히는 크기인지, 그림을 그릴 때 matplotlib Figure 자체에서 잽니다.

폭이 W 인치인 그림은 페이지에 CSS 96·W px 로 놓이고, 본문 칸이 그보다 좁으면 칸에 맞게 줄어듭니다.
그래서 s pt 글자는 화면에서 s · 96/72 · min(1, 칸 / (96·W)) CSS px 가 됩니다.

- 좁은 판(휴대전화, 375 px 화면의 본문 칸 343 px): 가장 작은 글자 ≥ 10 CSS px
- 넓은 판(데스크톱, 1280 px 화면의 본문 칸 688 px): 가장 작은 글자 ≥ 11 CSS px
- 판이 하나뿐인 그림은 어디서나 보이므로 두 기준을 모두 지킵니다.

페이지는 본문 칸이 688 px 보다 좁은 화면(720 px 미만)에 좁은 판을 보여 줍니다 (docs/assets/site.css).

그린 글자만 셉니다: Text.draw 가 실제로 불린 글자(보이는 눈금 이름, 제목, 칸 숫자 …)의 크기를 모읍니다.
잘린 글자는 저장한 PNG 에서 봅니다: 배경이 투명하므로 가장자리 한 줄에 잉크가 있으면 무엇인가 그림 밖으로
나가 잘린 것입니다 (한글 글리프는 matplotlib 이 계산하는 글자 상자보다 조금 위로 솟기도 해서, 상자만
보아서는 잘린 제목을 놓칩니다).

빌드(figures.render)가 그림마다 이것을 재고, 기준에 못 미치면 빌드를 멈춥니다. 잰 값은
`.cache/site/figures/legibility.json` 에 남아 tests/test_figure_legibility.py 가 표로 찍습니다.
"""

import io
from contextlib import contextmanager

import numpy as np
from matplotlib.text import Text
from PIL import Image

PHONE_COLUMN, DESKTOP_COLUMN = 343, 688  # CSS px
PHONE_MIN, DESKTOP_MIN = 10.0, 11.0  # CSS px


def css_px(points, width_in, column):
    return points * 96 / 72 * min(1.0, column / (96 * width_in))


@contextmanager
def recording_texts():
    """이 안에서 그려지는 Text 들을 모읍니다 (matplotlib 의 Text.draw 를 잠깐 감쌉니다)."""
    drawn = []
    original = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    Text.draw = record
    try:
        yield drawn
    finally:
        Text.draw = original


def ink_on_the_edge(png_bytes):
    """PNG 가장자리 한 줄(위·아래·왼쪽·오른쪽)에 불투명한 픽셀이 있는 쪽들."""
    alpha = np.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGBA"))[..., 3]
    edges = {"위": alpha[0], "아래": alpha[-1], "왼쪽": alpha[:, 0], "오른쪽": alpha[:, -1]}
    return [side for side, line in edges.items() if (line > 0).any()]


def measure(fig, texts, png_bytes, variant):
    """그림 하나(한 판)의 측정값: 폭, 가장 작은 글자, 휴대전화·데스크톱에서의 CSS px, 잘린 쪽."""
    width = fig.get_figwidth()
    smallest = min(texts, key=lambda t: t.get_fontsize()) if texts else None
    pt = smallest.get_fontsize() if smallest else None
    shown_on_phone = variant in ("narrow", "only")
    shown_on_desktop = variant in ("wide", "only")
    return {
        "width": round(width, 3),
        "pt": pt,
        "text": smallest.get_text() if smallest else "",
        "phone": round(css_px(pt, width, PHONE_COLUMN), 2) if pt and shown_on_phone else None,
        "desktop": round(css_px(pt, width, DESKTOP_COLUMN), 2) if pt and shown_on_desktop else None,
        "clipped": ink_on_the_edge(png_bytes),
    }


def problems(m):
    """측정값이 기준에 못 미치는 까닭들 (빈 목록이면 통과)."""
    out = []
    if m["phone"] is not None and m["phone"] < PHONE_MIN:
        out.append(
            f"휴대전화에서 가장 작은 글자 {m['phone']:.1f} CSS px < {PHONE_MIN:g} ({m['text']!r}, {m['pt']:g} pt)"
        )
    if m["desktop"] is not None and m["desktop"] < DESKTOP_MIN:
        out.append(
            f"데스크톱에서 가장 작은 글자 {m['desktop']:.1f} CSS px < {DESKTOP_MIN:g} ({m['text']!r}, {m['pt']:g} pt)"
        )
    if m["clipped"]:
        out.append(f"그림 가장자리({', '.join(m['clipped'])})에 잉크가 닿아 잘립니다")
    return out


def table(rows):
    """{이름: {판: 측정값}} → 읽기 좋은 표 (문자열)."""

    def fmt(v):
        return "-" if v is None else f"{v:.1f}"

    lines = [f"{'그림':<34}{'판':<8}{'폭(in)':>7}{'최소 pt':>8}{'폰 px':>7}{'데스크톱 px':>11}  가장 작은 글자"]
    for name in sorted(rows):
        for variant, m in rows[name].items():
            lines.append(
                f"{name:<34}{variant:<8}{m['width']:>7.1f}{m['pt']:>8.1f}{fmt(m['phone']):>7}"
                f"{fmt(m['desktop']):>11}  {m['text'][:24]!r}"
            )
    return "\n".join(lines)
