"""페이지의 도구(헤드 탐색기, 확인 문제, q·k 그림 …)와 그 도구가 붙이는 파일: 페이지가 적은 것을 표로 풀어냅니다.

페이지는 머리말의 `tools:` 에 쓰는 도구를 적고, 도구마다 무엇을 붙이는지는 표 하나(overrides/tools.yml)에 있습니다.
이 모듈은 둘을 합쳐 사이트 스크립트의 data-loads, data-boxes, data-waiting 을 만듭니다 (overrides/main.html 이 씁니다).
도구가 한 페이지에 몇 갈래든 함께 붙습니다. 파일의 차례는 표의 차례입니다 (먼저 실행되어야 하는 것이 먼저).

페이지가 적은 것과 페이지에 있는 상자가 어긋나면 빌드를 멈춥니다: 상자가 있는데 적지 않으면 스크립트가 빠지고, 적었는데
상자가 없으면 독자가 쓰지 않는 바이트를 받습니다.
"""

from pathlib import Path

import yaml
from bs4 import BeautifulSoup

TABLE = Path(__file__).resolve().parents[2] / "tools.yml"
WAITING = "준비하고 있습니다…"  # 페이지의 도구들이 같은 안내 글을 쓰지 않을 때


class ToolError(ValueError):
    pass


def load_table(path=TABLE):
    """{도구 이름: {markup, boxes, loads, waiting}} (표의 차례대로). 빠진 칸은 ToolError 입니다."""
    table = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    for name, tool in table.items():
        if not isinstance(tool, dict) or not tool.get("markup") or not tool.get("loads"):
            raise ToolError(f"{Path(path).name}: 도구 {name!r} 에 markup 과 loads 가 있어야 합니다: {tool!r}")
        tool.setdefault("boxes", tool["markup"])
        tool.setdefault("waiting", WAITING)
    return table


def declared(meta, where, table):
    """머리말의 tools: 목록 (없으면 빈 목록). 표에 없는 이름이나 목록이 아닌 값은 ToolError 입니다."""
    names = meta.get("tools") or []
    if isinstance(names, str) or not isinstance(names, list):
        raise ToolError(f"{where}: 머리말의 tools 는 도구 이름의 목록이어야 합니다 (예: tools: [journey]): {names!r}")
    unknown = [n for n in names if n not in table]
    if unknown:
        raise ToolError(f"{where}: 머리말의 tools 에 표(overrides/tools.yml)에 없는 도구가 있습니다: {unknown}")
    return names


def present(html, table):
    """페이지 HTML 에 상자(markup)가 있는 도구들 (표의 차례대로)."""
    soup = BeautifulSoup(html or "", "html.parser")
    return [name for name, tool in table.items() if soup.select_one(tool["markup"]) is not None]


def page_tools(meta, html, where, table):
    """페이지가 적은 도구가 붙이는 것: {"loads": [...], "boxes": "...", "waiting": "..."}, 도구가 없으면 None.
    적은 도구와 HTML 의 상자가 어긋나면 ToolError 입니다."""
    names = set(declared(meta, where, table))
    found = set(present(html, table))
    if found - names:
        missing = sorted(found - names)
        raise ToolError(
            f"{where}: 페이지에 {missing} 의 상자가 있는데 머리말의 tools 에 없습니다 (스크립트가 빠집니다)"
        )
    if names - found:
        unused = sorted(names - found)
        raise ToolError(f"{where}: 머리말의 tools 에 적은 {unused} 의 상자가 페이지에 없습니다")
    if not names:
        return None
    tools = [tool for name, tool in table.items() if name in names]
    loads = list(dict.fromkeys(src for tool in tools for src in tool["loads"]))
    boxes = ", ".join(dict.fromkeys(tool["boxes"] for tool in tools))
    waiting = {tool["waiting"] for tool in tools}
    return {"loads": loads, "boxes": boxes, "waiting": waiting.pop() if len(waiting) == 1 else WAITING}
