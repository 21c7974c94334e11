"""읽을 분량: 빌드된 사이트의 페이지마다 독자가 펼치지 않고 읽는 글이 몇 글자인지 재어 표로 찍습니다.

    make reading                              # 사이트를 빌드하고 표를 찍습니다 (목표를 넘으면 종료 코드 1)
    python tools/reading_load.py /tmp/site    # 이미 빌드한 사이트로

재는 것 (issue 22 의 정의): 페이지 <article> 안에 보이는 글. 다음은 세지 않습니다.
- 코드 블록(<pre>)과 "실행 결과" 블록(fences.py 가 그리는 div.cell-output), 노트북 셀의 출력
- 수식(<math>)과 검색용으로만 넣은 글자(.search-only, 화면에 그리지 않음), 제목 옆의 ¶ 링크
- 접힌 블록(<details> 에 open 이 없는 것): 제목 줄까지 통째로 "접힌 글" 로 따로 셉니다 (issue 22 가 잰 방식.
  제목 줄은 "정답", "더 알아보기: …" 처럼 몇 낱말입니다).
공백은 연달아 있으면 하나로 셉니다. 분은 한국어 글을 1분에 500자 읽는다고 보고 셉니다.
목표는 TARGETS 에 있고, tests/test_reading_load.py 가 같은 함수로 지킵니다.
"""

import argparse
import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

# nav 는 테스트와 같은 한 곳(tests/site_pages.py, 빌드 패키지를 씀)에서 읽습니다. make reading 은 경로 설정 없이 이 파일을 돌립니다.
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "overrides" / "hooks")]

from site_pages import nav_pages, nav_sections

CHARS_PER_MINUTE = 500

# 페이지 묶음은 mkdocs.yml 의 nav 에서 읽습니다 (nav 의 맨 위 항목 이름). 페이지를 옮기면 표와 목표가 따라갑니다.
# 본문의 길: 독자가 처음부터 끝까지 걷는 페이지들 (들어가며, 1–7장, 실습 1–3)
MAIN_SECTIONS = ("들어가며", "본문", "실습")
CHAPTER_SECTION = "본문"
# 선택 트랙: 실제 모델 장들 뒤에 두는 8장·실습 파트 4 (어텐션을 싸게 만드는 이야기, issue 29)와
# 9장·실습 파트 5 (헤드가 학습으로 생기는 이야기, issue 32). 본문의 길에서 뺍니다.
OPTIONAL_SECTION = "더 나아가기 (선택)"


_SECTIONS = nav_sections()
MAIN_PATH = [doc for name in MAIN_SECTIONS for doc in _SECTIONS[name]]
CHAPTERS = _SECTIONS[CHAPTER_SECTION]
OPTIONAL_TRACK = _SECTIONS[OPTIONAL_SECTION]

# 보이는 글자 수의 상한 (issue 22; 8장은 issue 24 의 목표)
TARGETS = {
    "본문의 길 합계": 20_000,
    **{doc: 3_000 for doc in CHAPTERS},
    "real_model.md": 5_500,
    "korean_model.md": 5_500,
    "head_ablation.md": 5_500,  # 실제 모델 장들 뒤의 페이지: 모델 장과 같은 목표 (issue 34)
    "next_token.md": 5_500,  # 디코더 장도 모델 장과 같은 목표 (issue 31)
    "own_prompt.md": 5_500,  # 여러분의 프롬프트로: 다음 토큰 고르기와 같은 목표 (issue 42)
    "efficient.md": 4_000,
    "head_roles.md": 4_000,  # 선택 트랙의 "헤드는 어떻게 역할을 배우나" (issue 32: 8장과 같은 목표)
}

# 세지 않는 요소: 코드, 실행 결과, 수식, 화면에 그리지 않는 글, ¶
NOT_PROSE = "pre, div.cell-output, math, .search-only, a.headerlink, script, style, noscript"


def _text_len(node):
    return len(re.sub(r"\s+", " ", node.get_text()).strip())


def html_path(site, doc):
    """docs/ 기준 문서 경로 → 빌드된 HTML 파일 (use_directory_urls)."""
    stem = doc.rsplit(".", 1)[0]
    return Path(site) / ("index.html" if stem == "index" else f"{stem}/index.html")


def measure_html(html):
    """HTML 한 페이지 → {"visible": 보이는 글자 수, "collapsed": 접힌 블록 안의 글자 수}."""
    article = BeautifulSoup(html, "html.parser").find("article")
    if article is None:
        raise ValueError("페이지에 <article> 이 없습니다")
    for node in article.select(NOT_PROSE):
        node.decompose()
    collapsed = 0
    # 바깥쪽 접힌 블록만: 안쪽 블록은 바깥 블록과 함께 접혀 있습니다
    outer = [
        d
        for d in article.find_all("details")
        if not d.has_attr("open") and not any(not p.has_attr("open") for p in d.find_parents("details"))
    ]
    for d in outer:
        collapsed += _text_len(d)
        d.decompose()
    return {"visible": _text_len(article), "collapsed": collapsed}


def measure_site(site, docs):
    return {doc: measure_html(html_path(site, doc).read_text(encoding="utf-8")) for doc in docs}


def table(site, docs):
    """(표의 줄들, 목표를 넘은 줄들). 줄은 (이름, 보이는 글자, 접힌 글자, 목표)."""
    counts = measure_site(site, docs)
    rows = []
    for name, part in (("본문의 길 합계", MAIN_PATH), ("선택 트랙 합계", OPTIONAL_TRACK)):
        rows.append((name, sum(counts[d]["visible"] for d in part), sum(counts[d]["collapsed"] for d in part)))
    rows += [(doc, c["visible"], c["collapsed"]) for doc, c in counts.items()]
    rows = [(name, vis, col, TARGETS.get(name)) for name, vis, col in rows]
    over = [r for r in rows if r[3] is not None and r[1] > r[3]]
    return rows, over


def format_table(rows):
    def minutes(n):
        return f"{n / CHARS_PER_MINUTE:.1f}"

    lines = ["| 부분 | 보이는 글 | 분 | 접힌 글 | 펼쳐 읽으면 분 | 목표 |", "|---|---:|---:|---:|---:|---|"]
    for name, vis, col, target in rows:
        goal = "" if target is None else f"≤ {target:,} {'OK' if vis <= target else '넘음'}"
        lines.append(f"| {name} | {vis:,} | {minutes(vis)} | {col:,} | {minutes(vis + col)} | {goal} |")
    return "\n".join(lines)


def nav_docs():
    """mkdocs.yml 의 nav 순서대로 모든 문서 (본문의 길이 먼저)."""
    return MAIN_PATH + [d for d in nav_pages() if d not in MAIN_PATH]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", nargs="?", default="site", help="빌드된 사이트 폴더 (기본: site)")
    args = parser.parse_args(argv)
    if not (Path(args.site) / "index.html").exists():
        parser.error(f"site={args.site!r}: 빌드된 사이트가 아닙니다 (index.html 이 없습니다). 먼저 make build")
    rows, over = table(args.site, nav_docs())
    print(format_table(rows))
    print(
        f"\n한국어 글 1분에 {CHARS_PER_MINUTE}자. 코드, 실행 결과, 수식, 접힌 블록 안의 글은 '보이는 글' 에서 뺍니다.",
        flush=True,
    )
    for name, vis, _, target in over:
        print(f"목표를 넘었습니다: {name} {vis:,}자 > {target:,}자", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
