"""페이지의 `![대체 텍스트](figures/<모듈>-<이름>.png)` 를 밝은/어두운 그림 한 쌍으로 바꿉니다.

Python-Markdown 의 트리 처리기(treeprocessor)로 동작합니다. 마크다운을 읽는 일은 Markdown 이 하고
(대체 텍스트 안의 [CLS] 같은 대괄호도), 여기서는 이미 만들어진 <img> 요소만 봅니다.
MkDocs 의 링크 처리기(relpath, 우선순위 0)보다 먼저 돌아서, 바꿔 넣은 그림 경로도 MkDocs 가 확인하고
페이지 URL 에 맞게 고칩니다. 그래서 상대 경로를 여기서 계산하지 않습니다.

Material 은 src 가 `#only-light` / `#only-dark` 로 끝나는 그림을 팔레트에 맞춰 하나만 보여 줍니다.
"""

import re
import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

from .figures import THEMES, FigureError

FIGURE_SRC = re.compile(r"^(?P<dir>(?:\.\./)*)figures/(?P<name>[\w.-]+)\.png$")


class _Figures(Treeprocessor):
    def __init__(self, md, figure_set):
        super().__init__(md)
        self.figure_set = figure_set  # 지금 빌드의 FigureSet 을 돌려주는 함수

    def run(self, root):
        for parent in list(root.iter()):
            for index, child in reversed(list(enumerate(parent))):
                m = FIGURE_SRC.match(child.get("src", "")) if child.tag == "img" else None
                if m:
                    parent[index:index + 1] = self.pair(child, m.group("dir"), m.group("name"))

    def pair(self, img, prefix, name):
        figures = self.figure_set()
        if name not in figures:
            raise PluginError(f"그림 {name!r} 을 만드는 figure_* 함수가 스니펫에 없습니다")
        alt = (img.get("alt") or "").strip()
        if not alt:
            raise PluginError(f"그림 {name!r} 에 대체 텍스트(alt)가 없습니다")
        try:
            info = figures.info(name)
        except FigureError as exc:
            raise PluginError(str(exc)) from exc
        out = []
        for theme in THEMES:
            el = etree.Element("img", dict(img.attrib))
            el.set("src", f"{prefix}figures/{info[theme].name}#only-{theme}")
            el.set("alt", alt)
            el.set("width", str(info["width"]))
            el.set("height", str(info["height"]))
            el.set("loading", "lazy")  # 가려진 쪽 그림은 내려받지 않습니다
            el.tail = " "
            out.append(el)
        out[-1].tail = img.tail
        return out


class FigureExtension(Extension):
    def __init__(self, figure_set):
        super().__init__()
        self.figure_set = figure_set

    def extendMarkdown(self, md):
        # inline(20) 뒤, MkDocs 의 relpath(0)보다 앞
        md.treeprocessors.register(_Figures(md, self.figure_set), "attention_site_figures", 10)
