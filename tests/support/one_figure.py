"""그림 모음(sitebuild.figures.FigureSet) 대신 쓰는 가짜: 그림 하나(demo-demo)만 압니다.

그림 마크업(figure_markup)과 노트북 페이지(notebook_pages)의 테스트가 함께 씁니다.
"""

from pathlib import Path


class OneFigure:
    """FigureSet 대신: 그림 하나(demo-demo)만 아는 가짜. narrow=False 면 넓은 판만 있는 그림입니다."""

    def __init__(self, narrow=True):
        self.narrow = narrow

    def __contains__(self, name):
        return name == "demo-demo"

    def info(self, name):
        both = {
            "wide": {
                "light": Path("demo-demo-light.png"),
                "dark": Path("demo-demo-dark.png"),
                "width": 200,
                "height": 100,
            },
            "narrow": {
                "light": Path("demo-demo-narrow-light.png"),
                "dark": Path("demo-demo-narrow-dark.png"),
                "width": 100,
                "height": 100,
            },
        }
        return both if self.narrow else {"wide": both["wide"]}
