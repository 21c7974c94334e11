"""그림의 글자색이 두 팔레트의 배경 위에서 충분히 읽히는지 (WCAG 명암비 4.5:1 이상)."""

import colorsys

import pytest

from plotting import THEMES
from support.colour import contrast

# Material 9.8 의 페이지 배경: 밝은 팔레트 #ffffff, 어두운(slate) 팔레트 hsl(225°, 15%, 14%)
PAGE_BACKGROUND = {"light": (1.0, 1.0, 1.0), "dark": colorsys.hls_to_rgb(225 / 360, 0.14, 0.15)}


def hex_rgb(h):
    return tuple(int(h[i : i + 2], 16) / 255 for i in (1, 3, 5))


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize("key, minimum", [("text", 4.5), ("muted", 4.5), ("accent", 3.0), ("accent2", 3.0)])
def test_figure_colours_read_on_their_palette(palette, key, minimum):
    ratio = contrast(hex_rgb(THEMES[palette][key]), PAGE_BACKGROUND[palette])
    assert ratio >= minimum, f"{palette} 팔레트의 {key} 색 명암비 {ratio:.2f} < {minimum}"


def test_heatmap_labels_pick_the_readable_colour():
    """히트맵 칸 안의 숫자는 칸 색에 따라 검정/흰색 가운데 명암비가 4.5 이상인 쪽을 씁니다."""
    import matplotlib
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import to_rgb

    from plotting import heatmap

    weights = np.linspace(0, 1, 101).reshape(1, -1)
    fig, ax = plt.subplots()
    heatmap(ax, weights, ["q"], [str(i) for i in range(101)])
    cmap = matplotlib.colormaps[plt.rcParams["image.cmap"]]
    labels = [t for t in ax.texts]
    assert len(labels) == 101
    for w, t in zip(weights[0], labels):
        ratio = contrast(to_rgb(t.get_color()), cmap(w)[:3])
        assert ratio >= 4.5, f"가중치 {w:.2f} 칸의 글자 명암비 {ratio:.2f}"
    plt.close(fig)
