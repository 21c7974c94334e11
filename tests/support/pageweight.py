"""빌드된 페이지 하나가 읽히는 데 필요한 바이트를 셉니다 (테스트와 Lighthouse 벤치마크가 함께 씁니다).

세는 것: 페이지 HTML, 그 HTML 이 부르는 스타일·스크립트·미리 받는 글꼴·아이콘·그림, 그리고
스크립트가 곧바로 내려받는 것(Material 검색 작업자, 검색 색인과 lunr 언어 파일, 탐색기 JSON), 그리고
독자가 내려오면 받는 것(헤드 탐색기의 스크립트 `<script data-loads>` 와 JSON, 그리고 탐색기가 처음 보여 주는
문장·층의 q·k 파일 하나). 나중에 받는 것도 세어 두어, 탐색기까지 읽는 독자가 받는 바이트가 예산 안인지 봅니다.
다른 문장·층의 q·k 파일은 독자가 그것을 고를 때만 받으므로 처음 화면의 무게에 넣지 않습니다
(모두 받았을 때의 합은 tests/test_head_explorer.py 가 찍어 둡니다).
그림은 보이는 것만 셉니다: 판(넓은/좁은)과 테마(밝은/어두운)마다 한 장씩 있고, 나머지는
loading="lazy" 에 display:none 이라 내려받지 않습니다. 그래서 합계를 화면(데스크톱/휴대전화) ×
테마 네 가지로 냅니다.

검색 파일은 Material 이 페이지에 적어 둔 것을 읽습니다: 작업자 스크립트는 페이지의
`<script id="__config">` JSON 의 "search", 언어 파일은 검색 색인의 config.lang 입니다. 작업자가
언어 파일을 부르는 규칙(lunr/min/lunr.<언어>.min.js)은 tests/test_contracts.py 가 확인합니다.
"""

import gzip
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import lxml.html


def page_refs(html):
    """페이지 HTML 이 부르는 것 [(종류, url, 판)] 과 Material 의 __config JSON (lxml 로 읽습니다).

    판: 그림이 figure_markup 의 그림 링크(<a class="figure--wide|figure--narrow">) 안에 있으면 "wide" 나 "narrow".
    첫 그림의 <link rel=preload as=image media=…> 는 media 의 폭과 팔레트로 판과 테마를 정합니다.
    """
    refs, config = [], None
    for el in lxml.html.document_fromstring(html).iter("link", "script", "img", "div"):
        a = el.attrib
        if el.tag == "link" and a.get("rel") == "preload" and a.get("as") == "image" and a.get("media"):
            # 첫 그림의 미리 받기 (overrides/main.html): media 가 판과 팔레트를 고릅니다. 그 그림의 <img> 와 같은 파일이라
            # 같은 (판, 테마)에서 한 번만 셉니다.
            media = a["media"]
            variant = "narrow" if "max-width" in media else "wide"
            theme = "dark" if "prefers-color-scheme: dark" in media else "light"
            refs.append(("img", f"{a['href']}#only-{theme}", variant))
        elif el.tag == "link" and a.get("href") and a.get("rel") in ("stylesheet", "preload", "icon"):
            refs.append((a["rel"], a["href"], None))
        elif el.tag == "script" and (a.get("src") or a.get("data-loads")):
            if a.get("src"):
                refs.append(("script", a["src"], None))
            # 나중에 붙일 스크립트들 (site.js 가 헤드 탐색기 가까이에서 받습니다)
            refs += [("script", src, None) for src in (a.get("data-loads") or "").split()]
        elif el.tag == "script" and a.get("id") == "__config":
            config = json.loads(el.text)
        elif el.tag == "img" and a.get("src"):
            link = next(el.iterancestors("a"), None)
            classes = (link.get("class") or "").split() if link is not None else []
            variant = next(
                (c.removeprefix("figure--") for c in classes if c in ("figure--wide", "figure--narrow")), None
            )
            refs.append(("img", a["src"], variant))
        elif el.tag == "div" and a.get("data-src"):
            refs.append(("data", a["data-src"], None))
    return refs, config


def explorer_first_view(data_path):
    """탐색기 JSON 하나 → 탐색기가 처음 그릴 때 받는 파일들: 그 JSON 과, 헤드 탐색기라면 시작 문장·층의 q·k 파일.

    헤드 탐색기(docs/assets/head-explorer.js)는 sentences[문장].qk[층] 에 적힌 파일(같은 폴더)을 그 층을 볼 때
    받고, 처음에는 start 의 문장·층을 봅니다. 다른 탐색기의 JSON 에는 이 열쇠들이 없습니다.
    """
    data_path = Path(data_path)
    files = [data_path]
    data = json.loads(data_path.read_text(encoding="utf-8"))
    start = data.get("start") if isinstance(data, dict) else None
    if isinstance(start, dict) and "qk" in data["sentences"][start.get("sentence", 0)]:
        files.append(data_path.parent / data["sentences"][start.get("sentence", 0)]["qk"][start.get("layer", 0)])
    if isinstance(data, dict) and isinstance(data.get("first_view"), list):  # 다음 토큰 고르기: 첫 프롬프트의 파일
        files += [data_path.parent / name for name in data["first_view"]]
    return files


def search_files(site):
    """Material 검색이 페이지를 열자마자 내려받는 파일들 (작업자, 색인, lunr 언어 파일)."""
    site = Path(site)
    index = site / "search" / "search_index.json"
    langs = json.loads(index.read_text(encoding="utf-8"))["config"]["lang"]
    lunr = site / "assets" / "javascripts" / "lunr"
    files = [index]
    if any(lang != "en" for lang in langs):
        files.append(lunr / "min" / "lunr.stemmer.support.min.js")
    files += [lunr / "min" / f"lunr.{lang}.min.js" for lang in langs if lang != "en"]
    if len(langs) > 1:
        files.append(lunr / "min" / "lunr.multi.min.js")
    return files


def page_url(doc):
    """nav 의 문서 경로(docs/ 기준, .md 또는 .ipynb) → 사이트 안의 URL 경로 (use_directory_urls)."""
    stem = doc.rsplit(".", 1)[0]
    return "" if stem == "index" else f"{stem}/"


def page_file(site, doc):
    """nav 의 문서 경로 → 빌드된 HTML 파일."""
    return Path(site) / page_url(doc) / "index.html"


def page_weight(site, doc):
    """{"items": [(경로, 바이트)] (데스크톱·밝은), "total": 바이트 (데스크톱·밝은), "gzip": 그 gzip 바이트,
    "totals": {(화면, 테마): 바이트}, "dark_total": 데스크톱·어두운 바이트}."""
    site = Path(site)
    html_path = page_file(site, doc)
    refs, config = page_refs(html_path.read_text(encoding="utf-8"))
    shared, shown = [html_path], []  # shown: (경로, 테마, 판) — 화면·테마에 따라 보이는 그림
    for kind, url, variant in refs:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith("data:"):
            continue
        target = (html_path.parent / unquote(parts.path)).resolve()
        theme = parts.fragment.removeprefix("only-") if parts.fragment.startswith("only-") else None
        if kind == "img" and (theme or variant):
            shown.append((target, theme, variant))
        elif kind == "data":
            if not target.is_file():
                raise FileNotFoundError(f"{doc}: {target} 가 빌드 결과에 없습니다")
            shared += explorer_first_view(target)
        else:
            shared.append(target)
    if config is None or not config.get("search"):
        raise ValueError(f"{doc}: Material 의 __config 에 검색 작업자(search)가 없습니다")
    shared.append((html_path.parent / config["search"]).resolve())
    shared += search_files(site)

    def items_for(screen, theme):
        variant = "wide" if screen == "desktop" else "narrow"
        files = shared + [f for f, t, v in shown if t in (theme, None) and v in (variant, None)]
        seen, items = set(), []
        for f in files:
            if f in seen:
                continue
            seen.add(f)
            if not f.is_file():
                raise FileNotFoundError(f"{doc}: {f} 가 빌드 결과에 없습니다")
            items.append((f.relative_to(site).as_posix(), f.stat().st_size))
        return items

    totals = {
        (screen, theme): sum(size for _, size in items_for(screen, theme))
        for screen in ("desktop", "phone")
        for theme in ("light", "dark")
    }
    items = items_for("desktop", "light")
    gz = sum(
        len(gzip.compress((site / p).read_bytes(), 6)) if p.endswith((".html", ".css", ".js", ".json")) else size
        for p, size in items
    )
    return {
        "items": sorted(items, key=lambda x: -x[1]),
        "total": totals[("desktop", "light")],
        "gzip": gz,
        "totals": totals,
        "dark_total": totals[("desktop", "dark")],
    }
