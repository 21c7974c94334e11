"""(c) `mkdocs build --strict` 가 경고 없이 끝나고, nav 의 모든 페이지와 그 그림이 만들어집니다."""

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest

from conftest import ROOT
from site_pages import nav_pages
from support.pageweight import page_file as page_html


@dataclass
class Refs:
    lang: str | None
    imgs: list  # <img> 마다 속성 사전
    refs: list  # (태그, rel, src 나 href)


def parse(path):
    """빌드된 HTML 하나의 lang, 그림, 링크 (lxml 로 읽습니다)."""
    doc = lxml.html.document_fromstring(path.read_text(encoding="utf-8"))
    tags = ("img", "script", "link", "source", "iframe", "a")
    refs = [(el.tag, el.get("rel"), el.get(key)) for el in doc.iter(*tags) for key in ("src", "href") if el.get(key)]
    return Refs(doc.get("lang"), [dict(el.attrib) for el in doc.iter("img")], refs)


def built_html(site):
    return sorted(site.rglob("*.html"))


def test_build_has_no_warnings(built_site):
    _, log = built_site
    lines = log.splitlines()
    bad = [i for i, line in enumerate(lines) if re.match(r"^(WARNING|ERROR)\b", line)]
    # 줄 하나만 보이면 까닭을 알 수 없으므로 (예: 노트북 커널이 남긴 "ERROR:tornado.general:Uncaught exception in
    # ZMQStream callback"), 그 뒤의 traceback 까지 함께 보입니다.
    assert not bad, "\n\n".join("\n".join(lines[i : i + 25]) for i in bad)


def test_every_nav_page_is_built(built_site):
    site, _ = built_site
    for doc in nav_pages():
        assert page_html(site, doc).is_file(), f"{doc} 의 HTML 이 없습니다"


def test_pages_are_korean(built_site):
    site, _ = built_site
    for path in built_html(site):
        assert parse(path).lang == "ko", f'{path.relative_to(site)} 에 lang="ko" 가 없습니다'


def test_no_link_points_nowhere(built_site):
    """본문의 "[0, 1, 1](...)" 같은 글은 마크다운이 빈 링크로 읽습니다: 괄호 속 글이 사라지고 누르면 페이지가 다시 열립니다.
    (실제로 있었던 일: 도서관 비유 문제 3.) 빈 href 는 어느 페이지에도 없어야 합니다."""
    site, _ = built_site
    found = [
        f"{path.relative_to(site)}: {a.text_content()!r}"
        for path in built_html(site)
        for a in lxml.html.document_fromstring(path.read_text(encoding="utf-8")).iter("a")
        if a.get("href") is not None and not a.get("href").strip()
    ]
    assert not found, "\n".join(found)


def test_every_image_exists_and_has_alt(built_site):
    site, _ = built_site
    seen = 0
    for path in built_html(site):
        for img in parse(path).imgs:
            src = img.get("src", "")
            if src.startswith("data:"):
                continue
            target = (path.parent / unquote(urlsplit(src).path)).resolve()
            assert target.is_file(), f"{path.relative_to(site)}: 그림 {src} 가 없습니다"
            assert target.stat().st_size > 1000, f"{src} 가 비어 있습니다"
            assert img.get("alt"), f"{path.relative_to(site)}: {src} 에 alt 가 없습니다"
            seen += 1
    assert seen > 0


def test_figures_come_in_light_and_dark_pairs(built_site):
    site, _ = built_site
    for path in built_html(site):
        srcs = [i["src"] for i in parse(path).imgs if "/figures/" in "/" + i.get("src", "")]
        light = sorted(s.replace("-light.png#only-light", "") for s in srcs if s.endswith("#only-light"))
        dark = sorted(s.replace("-dark.png#only-dark", "") for s in srcs if s.endswith("#only-dark"))
        assert light == dark, f"{path.relative_to(site)}: 밝은/어두운 그림 짝이 맞지 않습니다"
        assert len(light) * 2 == len(srcs), f"{path.relative_to(site)}: 팔레트 표시가 없는 그림이 있습니다"


def test_no_third_party_assets(built_site):
    """글꼴·스크립트·스타일·그림은 모두 사이트 자신의 것이어야 합니다 (외부 링크 <a> 는 괜찮습니다)."""
    site, _ = built_site
    for path in built_html(site):
        html = path.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        for tag, rel, url in parse(path).refs:
            if tag == "a":
                continue
            if tag == "link" and rel in ("canonical", "alternate"):
                continue
            assert not urlsplit(url).netloc and not url.startswith("//"), (
                f"{path.relative_to(site)}: 외부 자원 <{tag}> {url}"
            )


def test_math_is_rendered_at_build_time(built_site):
    """수식은 MathML 로 들어 있고, TeX 원문이나 수식 스크립트가 남지 않습니다."""
    site, _ = built_site
    page = page_html(site, "four_steps.md").read_text(encoding="utf-8")
    assert page.count("<math ") >= 3
    body = re.sub(r'alttext="[^"]*"', "", page)
    assert "\\frac" not in body and "\\(" not in body and "$$" not in body
    assert "mathjax" not in page.lower() and "katex" not in page.lower()


def test_every_page_has_its_own_description(built_site):
    """검색 엔진과 공유 미리보기용 설명이 페이지마다 따로 있습니다 (SEO)."""
    site, _ = built_site
    seen = {}
    for doc in nav_pages():
        html = page_html(site, doc).read_text(encoding="utf-8")
        m = re.search(r'<meta name="description" content="([^"]+)"', html)
        assert m and len(m.group(1)) > 30, f"{doc} 에 설명(meta description)이 없습니다"
        assert m.group(1) not in seen, f"{doc} 와 {seen.get(m.group(1))} 의 설명이 같습니다"
        seen[m.group(1)] = doc


def test_kernel_source_is_not_published(built_site):
    """행렬 곱 커널의 WAT 글(docs/assets/e5-linear.wat)은 빌드의 소스일 뿐 사이트에 나가지 않고 (mkdocs.yml 의
    exclude_docs), 빌드가 그 글에서 만든 바이너리는 모델 파일 옆에 있습니다."""
    site, _ = built_site
    assert (ROOT / "docs" / "assets" / "e5-linear.wat").is_file()
    published = sorted(str(p.relative_to(site)) for p in site.rglob("*.wat"))
    assert not published, f"읽는 사람이 부르지 않는 WAT 글이 사이트에 있습니다: {published}"
    for wasm in (site / "models" / "e5-ko" / "linear.wasm", site / "models" / "gemma-ko" / "matmul.wasm"):
        assert wasm.read_bytes()[:4] == b"\0asm", f"{wasm.relative_to(site)} 가 WebAssembly 바이너리가 아닙니다"


def test_code_blocks_are_lean_and_outputs_are_samp(built_site):
    site, _ = built_site
    html = page_html(site, "four_steps.md").read_text(encoding="utf-8")
    assert '<span class="n">' not in html and '<span class="w">' not in html
    assert html.count("<samp>") >= 8 and 'class="cell-output highlight"' not in html
    assert "data-search-exclude" in html


def test_build_and_tests_share_page_outputs(built_site):
    """페이지 코드는 세션에 한 번: 빌드가 캐시에 쓴 출력을 테스트가 같은 열쇠로 찾습니다."""
    from page_outputs import _outputs
    from site_pages import markdown_pages, page_blocks

    outputs = _outputs()
    for page in markdown_pages():
        blocks = page_blocks(page)
        if blocks:
            assert outputs.cache.get(page, outputs.key(blocks)) is not None, (
                f"{page}: 빌드와 테스트의 출력 캐시 열쇠가 다릅니다 (페이지 코드가 두 번 돕니다)"
            )


def test_search_index_is_written_as_plain_utf8(built_site):
    """검색 색인은 한글을 \\uXXXX 이스케이프 없이 글자 그대로 담습니다 (sitebuild/searchindex.py).

    훅의 on_post_build 는 search 플러그인이 색인을 쓴 다음에 돌아야 합니다. 순서가 바뀌면 여기서 이스케이프가 보입니다.
    """
    import json

    site, _ = built_site
    raw = (site / "search" / "search_index.json").read_bytes()
    text = raw.decode("utf-8")
    assert not re.search(r"\\u[a-fA-F0-9]{4}", text.replace("\\\\", "")), "색인에 \\uXXXX 이스케이프가 남아 있습니다"
    index = json.loads(text)
    titles = {d["title"] for d in index["docs"]}
    assert "한국어 문장으로 보기" in titles and "어텐션 가중치" in text
    # 같은 값을 기본값(ensure_ascii)으로 쓰면 훨씬 큽니다: 다시 쓰기가 실제로 크기를 줄였다는 대조
    assert len(json.dumps(index, separators=(",", ":")).encode()) > 1.5 * len(raw)


def test_site_stylesheets_ship_minified(built_site):
    """빌드된 assets/*.css 는 docs/assets 의 원본을 rcssmin 으로 줄인 것입니다 (sitebuild/minify.py): 주석이 없고,
    site.css 는 원본보다 적어도 8 KB 가볍습니다. 규칙이 그대로 도는지는 브라우저 테스트가 빌드된 사이트에서 봅니다."""
    import rcssmin

    site, _ = built_site
    for source in sorted((ROOT / "docs" / "assets").glob("*.css")):
        built = (site / "assets" / source.name).read_text(encoding="utf-8")
        assert built == rcssmin.cssmin(source.read_text(encoding="utf-8")), source.name
        assert "/*" not in built, source.name
    assert (
        len((ROOT / "docs" / "assets" / "site.css").read_bytes()) - len((site / "assets" / "site.css").read_bytes())
        > 8_000
    )


def shipped_scripts(site):
    """(이름, 원본 글, 빌드된 글): docs/assets 의 스크립트마다."""
    for source in sorted((ROOT / "docs" / "assets").glob("*.js")):
        yield (
            source.name,
            source.read_text(encoding="utf-8"),
            (site / "assets" / source.name).read_text(encoding="utf-8"),
        )


def test_site_scripts_ship_minified(built_site):
    """빌드된 assets/*.js 는 docs/assets 의 원본을 rjsmin 으로 줄인 것이고, 파일마다 더 작고 합쳐 40 KB 넘게 가볍습니다.
    한 번 더 줄여도 같습니다 (줄인 글에 지울 주석이나 공백이 남지 않았다는 뜻)."""
    import rjsmin

    site, _ = built_site
    saved = 0
    for name, text, built in shipped_scripts(site):
        assert built == rjsmin.jsmin(text), name
        assert rjsmin.jsmin(built) == built, name
        assert len(built.encode()) < len(text.encode()), name
        saved += len(text.encode()) - len(built.encode())
    assert saved > 40_000, saved


@pytest.mark.browser
def test_minified_scripts_parse_in_the_browser(built_site, desktop):
    """줄인 스크립트마다 브라우저의 JavaScript 엔진이 문법 오류 없이 읽습니다 (new Function 은 읽기만 하고 실행하지
    않습니다). 압축 도구가 문자열이나 정규식 리터럴을 주석으로 잘못 읽어 코드를 자르면 여기서 SyntaxError 가 납니다.
    대조: 끝을 자른 사본은 오류입니다. 스크립트가 그대로 도는지는 도구마다의 브라우저 테스트가 봅니다."""
    site, _ = built_site
    parse = "src => { try { new Function(src); return null } catch (e) { return e.name + ': ' + e.message } }"
    desktop.open("/")
    scripts = list(shipped_scripts(site))
    assert len(scripts) >= 15
    failures = {name: desktop.page.evaluate(parse, built) for name, _, built in scripts}
    assert {k: v for k, v in failures.items() if v} == {}
    name, _, built = scripts[0]
    assert desktop.page.evaluate(parse, built[: len(built) // 2]).startswith("SyntaxError"), name


def test_minifier_keeps_code_after_a_comment_closed_on_a_comment_looking_line():
    """예전의 줄 단위 규칙(sitebuild/comments.py)이 깨지던 모양: 코드 뒤에서 열린 주석이 다음 줄의 `// … */` 에서 닫히면
    그 뒤의 코드는 살아 있습니다. 예전 규칙은 둘째 줄을 통째로 지워 var b 를 잃고 닫히지 않은 주석을 남겼습니다."""
    from sitebuild.minify import minify

    js = "var a = 1; /* 여는 주석\n// 이 줄에서 닫힙니다 */ var b = 2;\n"
    assert minify(js, ".js") == "var a=1;var b=2;"
    # 문자열, 정규식, 템플릿 리터럴 속의 주석 모양은 글입니다
    js = "var s = '/* 글 */ // 글';\nvar r = /\\/\\*/; // 주석\nvar t = `a\n// b`;\n"
    assert minify(js, ".js") == "var s='/* 글 */ // 글';var r=/\\/\\*/;var t=`a\n// b`;"


def test_css_comments_go_and_quoted_text_stays():
    from sitebuild.minify import minify

    css = "a { content: \"/* 글 */\"; }  /* 주석 */\n/* 여러\n 줄 */\nb::after { content: '*/'; }\n"
    assert minify(css, ".css") == "a{content:\"/* 글 */\"}b::after{content:'*/'}"
    with pytest.raises(ValueError, match="suffix"):
        minify("x", ".wat")


def test_search_index_rewrite_keeps_every_value(tmp_path):
    """다시 쓴 색인은 원래 색인과 값이 같고(이스케이프만 풀림), 색인이 없으면 아무것도 하지 않습니다."""
    import json

    from sitebuild import searchindex

    assert searchindex.rewrite_utf8(tmp_path) is None
    original = {
        "config": {"separator": "[\\s\\-]+|(?<=[가-힣])[을를]$"},
        "docs": [{"location": "a/#x", "title": '어텐션 "Q" \\ 🙂', "text": "<p>소프트맥스 √d_k</p>"}],
    }
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(original, separators=(",", ":")))
    before, after = searchindex.rewrite_utf8(tmp_path)
    assert after < before
    assert json.loads((tmp_path / "search" / "search_index.json").read_bytes()) == original


def test_search_index_rewrite_drops_the_glue_word_joiners(tmp_path):
    """줄바꿈 묶음(sitebuild/glue.py)이 긴 링크와 조사 사이에 넣은 WORD JOINER 는 색인에 남지 않습니다:
    "어텐션(cross-attention)에서" 가 화면에서 보이는 그대로 찾아지고 미리보기에도 그대로 보입니다."""
    import json

    from sitebuild import glue, searchindex

    doc = {"location": "a/#x", "title": "제목", "text": f"<p>크로스 어텐션(cross-attention){glue.JOINER}에서</p>"}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps({"config": {}, "docs": [doc]}))
    searchindex.rewrite_utf8(tmp_path)
    text = json.loads((tmp_path / "search" / "search_index.json").read_bytes())["docs"][0]["text"]
    assert text == "<p>크로스 어텐션(cross-attention)에서</p>"


def test_search_index_drops_only_what_nobody_searches_for():
    """issue 39 §8: 색인에서 각주 목록(같은 논문이 참고 문헌 페이지에 있습니다), "다음 장: …" 과 "노트북 내려받기 (…)" 줄,
    되풀이되는 "정답과 풀이" 단추 글, 겹친 공백을 뺍니다. 글의 문단·목록과 접힌 풀이의 글, 덩어리를 나누는 태그는 그대로입니다
    (Material 의 작업자가 맨 바깥 태그로 미리보기 덩어리를 나눕니다)."""
    from sitebuild.searchindex import compact_text

    text = (
        "<p>어텐션은 <code>Q @ K.T</code>로   시작합니다.</p> 정답과 풀이 <p>풀이의 글[^1]은 남습니다.</p> "
        "<ol> <li>목록 ↩ 가운데의 화살표</li> </ol> "
        "<p>다음 장: 어텐션 계산 4단계 →</p> "
        "<ol> <li> <p>Vaswani 외 (2017), Attention Is All You Need. ↩↩</p> </li> <li>Clark 외 (2019) ↩</li> </ol>"
    )
    assert compact_text(text) == (
        "<p>어텐션은 <code>Q @ K.T</code>로 시작합니다.</p> <p>풀이의 글[^1]은 남습니다.</p> "
        "<ol> <li>목록 ↩ 가운데의 화살표</li> </ol>"
    )
    notebook = "<p>노트북 내려받기 (part1_numpy_attention.ipynb)numpy만 있으면 됩니다.</p> <p>본문</p>"
    assert compact_text(notebook) == "<p>본문</p>"
    assert compact_text(compact_text(text)) == compact_text(text)


# 검색어 → 그 말을 가르치는 페이지 (색인을 줄인 뒤에도 그 페이지가 찾아져야 합니다)
KEY_TERMS = {
    "쿼리": "library_analogy",
    "소프트맥스": "four_steps",
    "√d_k": "why_scale",
    "히트맵": "heatmap",
    "인과 마스크": "self_vs_cross",
    "멀티헤드": "multi_head",
    "어블레이션": "head_ablation",
    "1 − cos": "head_ablation",
    "조사": "korean_model",
    "KV 캐시": "efficient",
    "온도": "next_token",
    "유도 헤드": "head_roles",
    "Clark": "references",
    "BPE": "glossary",
}


def test_search_index_is_smaller_and_still_holds_the_key_terms(built_site):
    import json

    from sitebuild.searchindex import compact_text

    site, _ = built_site
    raw = (site / "search" / "search_index.json").read_bytes()
    docs = json.loads(raw)["docs"]
    texts = " ".join(d["text"] for d in docs)
    assert "↩" not in texts and "다음 장:" not in texts and "정답과 풀이" not in texts
    assert not any("  " in d["text"] for d in docs)
    assert all(compact_text(d["text"]) == d["text"] for d in docs)
    for term, page in KEY_TERMS.items():
        pages = {d["location"].split("/")[0] for d in docs if term in d["text"] or term in d["title"]}
        assert page in pages, f"{term!r} 가 {page} 의 색인에 없습니다: {sorted(pages)}"
    assert sum("<p>" in d["text"] for d in docs) > 150  # 미리보기 덩어리를 나누는 태그는 남습니다
    print(f"검색 색인 {len(raw):,} 바이트")
