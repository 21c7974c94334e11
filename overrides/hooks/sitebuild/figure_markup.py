"""페이지의 `![대체 텍스트](figures/<모듈>-<이름>.png)` 를 판·테마마다의 그림으로 바꿉니다.

Python-Markdown 의 트리 처리기(treeprocessor)로 동작합니다. 마크다운을 읽는 일은 Markdown 이 하고
(대체 텍스트 안의 [CLS] 같은 대괄호도), 여기서는 이미 만들어진 <img> 요소만 봅니다.
MkDocs 의 링크 처리기(relpath, 우선순위 0)보다 먼저 돌아서, 바꿔 넣은 그림과 링크의 경로도 MkDocs 가
확인하고 페이지 URL 에 맞게 고칩니다. 그래서 상대 경로를 여기서 계산하지 않습니다.

그림 하나가 이렇게 됩니다 (판마다, 테마마다 하나씩, 최대 넷):

    <a class="figure-link figure--wide figure--light" href="figures/x-light.png">
      <img src="figures/x-light.png#only-light" alt="…" width=… height=… loading="lazy"></a>

- 링크는 그림 파일 자체를 가리킵니다: 누르면 원래 크기로 열려 확대해 볼 수 있습니다.
- 보이는 것은 하나뿐입니다. 테마는 Material 의 `#only-light`/`#only-dark` 규칙과 site.css 의
  `.figure--light/.figure--dark` 가, 판은 site.css 의 `.figure--narrow` 미디어 쿼리가 고릅니다.
  숨은 그림은 loading="lazy" 라서 내려받지 않습니다.
"""

import re
import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

from .figures import THEMES, FigureError

FIGURE_SRC = re.compile(r"^(?P<dir>(?:\.\./)*)figures/(?P<name>[\w.-]+)\.png$")


def figure_links(info, alt, url_for, attrs=None):
    """그림 하나의 <a><img></a> 요소들. info 는 FigureSet.info(이름), url_for(파일 이름) 는 그 파일의 주소."""
    out = []
    for variant, files in info.items():
        for theme in THEMES:
            url = url_for(files[theme].name)
            link = etree.Element("a", {"class": f"figure-link figure--{variant} figure--{theme}", "href": url})
            img = etree.SubElement(link, "img", dict(attrs or {}))
            img.set("src", f"{url}#only-{theme}")
            img.set("alt", alt)
            img.set("width", str(files["width"]))
            img.set("height", str(files["height"]))
            img.set("loading", "lazy")  # 보이지 않는 판·테마의 그림은 내려받지 않습니다
            link.tail = " "
            out.append(link)
    return out


def figure_info(figures, name, alt):
    """빌드의 그림 정보. 함수가 없거나, 대체 텍스트가 없거나, 그리다 실패하면 PluginError."""
    if name not in figures:
        raise PluginError(f"그림 {name!r} 을 만드는 figure_* 함수가 스니펫에 없습니다")
    if not alt:
        raise PluginError(f"그림 {name!r} 에 대체 텍스트(alt)가 없습니다")
    try:
        return figures.info(name)
    except FigureError as exc:
        raise PluginError(str(exc)) from exc


class _Figures(Treeprocessor):
    def __init__(self, md, figure_set):
        super().__init__(md)
        self.figure_set = figure_set  # 지금 빌드의 FigureSet 을 돌려주는 함수

    def run(self, root):
        for parent in list(root.iter()):
            for index, child in reversed(list(enumerate(parent))):
                m = FIGURE_SRC.match(child.get("src", "")) if child.tag == "img" else None
                if m:
                    alt = (child.get("alt") or "").strip()
                    info = figure_info(self.figure_set(), m.group("name"), alt)
                    extra = {k: v for k, v in child.attrib.items() if k not in ("src", "alt")}
                    links = figure_links(info, alt, lambda f, d=m.group("dir"): f"{d}figures/{f}", extra)
                    links[-1].tail = child.tail
                    parent[index : index + 1] = links


class FigureExtension(Extension):
    def __init__(self, figure_set):
        super().__init__()
        self.figure_set = figure_set

    def extendMarkdown(self, md):
        # inline(20) 뒤, MkDocs 의 relpath(0)보다 앞
        md.treeprocessors.register(_Figures(md, self.figure_set), "attention_site_figures", 10)


# 판과 팔레트마다 그 그림이 보이는 화면 (site.css 의 .figure--narrow 미디어 쿼리, Material 의 팔레트는 mkdocs.yml 의 media)
VARIANT_MEDIA = {"narrow": "(max-width: 719.98px)", "wide": "(min-width: 720px)"}
THEME_MEDIA = {"light": "(prefers-color-scheme: light)", "dark": "(prefers-color-scheme: dark)"}
_LINK = re.compile(r'<a class="figure-link figure--(?P<variant>\w+) figure--(?P<theme>\w+)" href="(?P<href>[^"]+)"')


def first_figure_preloads(html):
    """페이지 HTML 의 첫 그림(판·팔레트별 링크 넷)을 미리 받을 <link rel=preload> 의 [{"href", "media"}].

    첫 그림은 첫 화면에 있기 쉬워서(heatmap.md), 이미지를 HTML 을 읽는 대로 받기 시작하게 head 에 알립니다
    (overrides/main.html). media 가 화면 폭과 OS 의 팔레트로 넷 가운데 하나만 고릅니다. 사이트의 팔레트 단추로 OS 와 다른
    팔레트를 고른 독자에게는 맞지 않는 한 장을 받게 하지만, 그때도 보이는 한 장은 본문 끝의 스크립트가 곧바로 받습니다."""
    out, seen = [], set()
    for m in _LINK.finditer(html):
        key = (m["variant"], m["theme"])
        if key in seen:
            break  # 둘째 그림
        seen.add(key)
        media = f"{VARIANT_MEDIA[m['variant']]} and {THEME_MEDIA[m['theme']]}"
        out.append({"href": m["href"], "media": media})
    return out
