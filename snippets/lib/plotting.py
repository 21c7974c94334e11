"""그림 도우미: 한글 글꼴, 밝은/어두운 테마, 좁은/넓은 판의 크기, 어텐션 히트맵.

사이트의 그림은 모두 이 모듈의 `heatmap` 과 테마를 씁니다. 빌드는 그림마다 밝은 테마와
어두운 테마로 한 번씩 그리고, 페이지는 Material 의 팔레트에 맞는 쪽을 보여 줍니다.

그림 함수는 `figure_<이름>(narrow=False)` 입니다. 빌드는 넓은 판(데스크톱, 본문 칸 688 px 이상)과
좁은 판(휴대전화, 본문 칸 343 px 부터)을 따로 그립니다. 두 판의 폭과 글자 크기가 여기 정해져 있어서
글자가 휴대전화에서 10 CSS px, 데스크톱에서 11 CSS px 아래로 내려가지 않습니다
(tests/test_figure_legibility.py 가 그림마다 잽니다).
"""

from contextlib import contextmanager

import matplotlib

# 배경은 투명하게 두고 글자·선 색만 팔레트에 맞춥니다.
# 글자색은 Material 의 본문 색(밝은 테마 #000000de, 어두운 테마 #e2e4e9)과 같은 계열입니다.
THEMES = {
    "light": {"text": "#1f2328", "muted": "#57606a", "grid": "#d0d7de", "accent": "#3949ab",
              "accent2": "#d81b60", "cmap": "viridis"},
    "dark": {"text": "#e6e8ee", "muted": "#aab1bf", "grid": "#454b5a", "accent": "#8c9eff",
             "accent2": "#ff80ab", "cmap": "viridis"},
}


# --8<-- [start:korean_font]
import importlib.util
from pathlib import Path
import matplotlib.pyplot as plt
from matplotlib import font_manager


def use_korean_font():
    """한글 글꼴을 찾아 씁니다(찾으면 True). koreanize-matplotlib 의 나눔고딕 파일을 먼저, 없으면 설치된 글꼴을.
    그 패키지는 import 하지 않고 파일만 등록합니다: import 하면 Python 3.12 에서 distutils 를 찾다 실패할 수 있습니다."""
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is not None and spec.submodule_search_locations:
        font_dir = Path(next(iter(spec.submodule_search_locations))) / "fonts"
        for path in sorted(font_dir.glob("NanumGothic*.ttf")):
            font_manager.fontManager.addfont(str(path))
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for name in ("NanumGothic", "Noto Sans CJK KR", "Noto Sans KR", "Malgun Gothic", "AppleGothic"):
        if name in installed:
            plt.rcParams["font.family"] = name
            # 한글 글꼴 다수에 U+2212 마이너스가 없습니다
            plt.rcParams["axes.unicode_minus"] = False
            return True
    print("한글 글꼴을 찾지 못해 그림의 한글이 네모로 보일 수 있습니다: pip install koreanize-matplotlib")
    return False
# --8<-- [end:korean_font]


# 판마다 그림 폭(인치)과 글자 크기(pt).
# 넓은 판: 폭 7.1 in = 682 CSS px 라서 데스크톱 본문 칸(688 px)에 줄지 않고 놓입니다. 9 pt = 12 px.
# 좁은 판: 폭 4.6 in = 442 CSS px 가 343 px 칸에 0.78 배로 줄어듭니다. 10.5 pt × 96/72 × 0.78 = 10.9 px.
WIDTH = {False: 7.1, True: 4.6}
SIZES = {
    False: {"font.size": 9.5, "axes.titlesize": 10.5, "axes.labelsize": 9.5, "xtick.labelsize": 9,
            "ytick.labelsize": 9, "legend.fontsize": 9, "figure.titlesize": 11, "figure.labelsize": 9.5},
    True: {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "xtick.labelsize": 10.5,
           "ytick.labelsize": 10.5, "legend.fontsize": 10.5, "figure.titlesize": 12.5, "figure.labelsize": 11},
}


def width(narrow):
    """그림 판의 폭 (인치)."""
    return WIDTH[bool(narrow)]


@contextmanager
def theme(name, narrow=False):
    """밝은/어두운 팔레트와 판(좁은/넓은)의 rcParams 를 잠깐 적용합니다.

    그림을 만들 때와 저장할 때 모두 이 안에 있어야 합니다: matplotlib 은 눈금 이름 같은 글자를
    그릴 때 rcParams 를 읽습니다.
    """
    t = THEMES[name]
    rc = {
        "text.color": t["text"], "axes.labelcolor": t["text"], "axes.edgecolor": t["muted"],
        "xtick.color": t["text"], "ytick.color": t["text"], "axes.titlecolor": t["text"],
        "grid.color": t["grid"], "legend.edgecolor": t["grid"], "legend.facecolor": "none",
        "figure.facecolor": "none", "axes.facecolor": "none", "savefig.transparent": True,
        "axes.prop_cycle": matplotlib.cycler(color=[t["accent"], t["accent2"], "#26a69a", "#ffa000"]),
        "image.cmap": t["cmap"], **SIZES[bool(narrow)],
        # 한글 글리프는 matplotlib 이 계산한 글자 상자보다 조금 위로 솟습니다: 가장자리 여백을 넉넉히.
        "figure.constrained_layout.h_pad": 0.1, "figure.constrained_layout.w_pad": 0.1,
    }
    with plt.rc_context(rc):
        yield t


def current_theme():
    """지금 적용된 rcParams 에서 테마 색을 찾아 돌려줍니다 (그림 함수 안에서 씁니다)."""
    text = plt.rcParams["text.color"]
    for t in THEMES.values():
        if t["text"] == text:
            return t
    return THEMES["light"]


def log_axes(ax, xs):
    """x 는 밑 2, y 는 밑 10 의 로그 축. x 눈금은 xs 자리에 보통 숫자(2⁷ 대신 128)로 둡니다.

    축의 눈금(locator)은 set_yscale 이 새로 정하므로, y 눈금은 이 다음에 정합니다."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(xs, labels=[str(x) for x in xs])


def finish(ax, xlabel, ylabel, title):
    """선 그림의 마무리: 작은 눈금 없이, 축 이름과 제목, 옅은 격자, 범례."""
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.6)
    ax.legend()


# --8<-- [start:heatmap]
def heatmap(ax, weights, row_labels, col_labels, title=None, annotate=True,
            xlabel="키 (보이는 쪽)", ylabel="쿼리 (보는 쪽)"):
    """어텐션 가중치를 히트맵으로 그립니다: 행 = 쿼리, 열 = 키, 행의 합 = 1."""
    cmap = plt.get_cmap(plt.rcParams["image.cmap"])
    im = ax.imshow(weights, vmin=0.0, vmax=1.0, cmap=cmap)
    ax.set_xticks(range(len(col_labels)), labels=col_labels, rotation=45, ha="right")
    ax.set_yticks(range(len(row_labels)), labels=row_labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if annotate:
        for i in range(weights.shape[0]):
            for j in range(weights.shape[1]):
                w = weights[i, j]
                # 칸 색의 밝기(상대 휘도)를 보고 검은 글씨와 흰 글씨 가운데 더 잘 보이는 쪽을 씁니다.
                r, g, b, _ = cmap(float(w))
                lum = 0.2126 * r**2.2 + 0.7152 * g**2.2 + 0.0722 * b**2.2
                ax.text(j, i, f"{w:.2f}", ha="center", va="center", fontsize=plt.rcParams["xtick.labelsize"],
                        color="black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white")
    return im
# --8<-- [end:heatmap]


def label_heatmap_grid(fig, axes, im, narrow, xlabel="키", ylabel="쿼리", shrink=0.7):
    """히트맵 여러 칸의 축 이름과 색 막대를 한 번에: 키는 맨 아래 줄 칸마다, 쿼리는 그림 왼쪽에 하나,
    색 막대는 넓은 판에서 오른쪽, 좁은 판에서 아래.

    그림 전체의 가로축 이름(supxlabel)을 쓰면 좁은 판에서 그 이름이 아래쪽 색 막대 밑으로 내려가
    색 막대의 이름처럼 읽히므로, 가로축 이름은 맨 아래 줄 칸에 붙입니다.
    """
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    fig.supylabel(ylabel)
    fig.colorbar(im, ax=axes, shrink=shrink, label="어텐션 가중치", location="bottom" if narrow else "right")
