"""모든 페이지를 실제 브라우저(Debian chromium + Playwright)로 한 번씩 열어 봅니다: (페이지, 화면, 팔레트)마다 한 번.

페이지를 여는 일이 브라우저 테스트 시간의 대부분이라, 한 번 연 페이지에서 그 화면·팔레트의 검사(probe)를 모두
하고 결과를 모아 둡니다. 아래의 테스트들은 그 결과를 읽어 확인만 합니다. 그래서 테스트 하나하나는 따로
실패하고, 페이지로 골라 돌릴 수 있습니다: `pytest tests/test_pages_in_browser.py -k heatmap`.

한 번의 방문은 이렇습니다: 페이지를 열고, 독자처럼 끝까지 내려갔다가(복사 단추와 헤드 탐색기가 생기도록, tests/browser.py
의 read_through) 맨 위로 돌아와, 읽기만 하는 검사를 먼저 하고, 페이지를 바꾸는 검사(키보드로 스크롤, 탐색기 조작,
접힌 풀이 펼치기)를 마지막에 합니다.

- 데스크톱·밝은: 깨끗하게 열림(lang, 수식, 그림, 콘솔 오류, 다른 출처 요청), 줄바꿈(낱말 가운데, 혼자 남은 조사, 범위), 스크롤 상자,
  그림의 판·팔레트, 어텐션 탐색기 = numpy
- 데스크톱·어두운: 그림의 판·팔레트 (그림이 있는 페이지)
- 휴대전화·밝은: 가로 스크롤 없음, 줄바꿈, 스크롤 상자, 누르기 좋은 크기, axe-core, 그림, 글자 크기
- 휴대전화·어두운: axe-core, 그림

줄바꿈은 글꼴에 따라 달라지므로, 한글 글꼴(fc-list :lang=ko)이 없으면 줄바꿈 테스트는 통과하지 않습니다
(CI 는 실패, 그 밖에는 건너뜀). .ci/run 이 Debian 의 fonts-noto-cjk 를 설치합니다.
"""

import concurrent.futures
import math
import os
import queue
import threading
import time
import traceback
from pathlib import Path

import numpy as np
import pytest

from site_pages import nav_pages
from support.pageweight import page_url

pytestmark = pytest.mark.browser

PAGES = nav_pages()
FIGURE_PAGES = ["four_steps.md", "why_scale.md", "heatmap.md", "real_model.md", "practice/part3_multi_head.ipynb"]
EXPLORER_PAGES = ["why_scale.md", "heatmap.md"]
MIN_TARGET = 24  # CSS px, WCAG 2.5.8 (목표 크기 최소)
MIDWORD_JS = (Path(__file__).parent / "js" / "midword_breaks.js").read_text(encoding="utf-8")


# --- 검사들: 페이지에서 값을 읽어 돌려줍니다 (확인은 아래 테스트가) ------------------------------------


def probe_loads(page, tab, doc, scheme):
    """lang, 수식 자리표시가 모두 MathML 이 되었는지, 본문에 TeX 가 남았는지, 보이는 그림이 모두 내려받아졌는지."""
    state = page.evaluate("""async () => {
      const images = [];
      for (const img of document.querySelectorAll('article img')) {
        if (!img.checkVisibility()) continue;
        if (!(img.complete && img.naturalWidth > 0)) {
          img.scrollIntoView({block: 'center'});
          for (let k = 0; k < 400 && !(img.complete && img.naturalWidth > 0); k++) await new Promise(r => setTimeout(r, 25));
        }
        images.push({src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0, alt: img.getAttribute('alt')});
      }
      window.scrollTo(0, 0);
      return {lang: document.documentElement.lang,
              unrendered: [...document.querySelectorAll('.arithmatex')].filter(e => !e.querySelector('math')).length,
              text: document.querySelector('article').innerText, images};
    }""")
    return state


def probe_midword(page, tab, doc, scheme):
    """낱말 가운데에서 줄이 바뀐 곳들 (tests/js/midword_breaks.js)."""
    return page.evaluate(MIDWORD_JS)


SCROLLABLE_JS = """() => [...document.querySelectorAll('article *')].filter(el => {
    const s = getComputedStyle(el);
    return ['auto', 'scroll'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.offsetParent !== null;
}).map(el => ({tag: el.tagName.toLowerCase(), cls: el.className, tabindex: el.tabIndex,
               role: el.getAttribute('role'), name: el.getAttribute('aria-label')}))"""

# 영역들: 사이트 스크립트(docs/assets/site.js)가 넘치는 상자에 붙인 것(marked)과, 탐색기가 늘 붙이는 제 표의 영역
REGIONS_JS = """() => [...document.querySelectorAll('article [role=region]')].map(el => ({
    name: el.getAttribute('aria-label'), tabindex: el.getAttribute('tabindex'),
    marked: el.hasAttribute('data-scroll-region'), overflows: el.scrollWidth > el.clientWidth + 1}))"""


def probe_scroll_boxes(page, tab, doc, scheme):
    """넘치는 상자들과, 스크립트가 만든 영역들."""
    return {"boxes": page.evaluate(SCROLLABLE_JS), "regions": page.evaluate(REGIONS_JS)}


def probe_arrow_keys(page, tab, doc, scheme):
    """첫 스크롤 상자를 화살표 키로 스크롤해 봅니다: 스크롤된 거리 (상자가 없으면 None). 페이지를 바꿉니다."""
    first = page.locator("article [role=region][aria-label$='가로로 스크롤']:visible").first
    if not first.count() or not first.evaluate("e => e.scrollWidth > e.clientWidth + 1"):
        return None
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    try:  # 스크롤은 부드럽게 움직이므로 조금 기다립니다 (움직이면 바로, 아니면 1초까지)
        page.wait_for_function("e => e.scrollLeft > 0", arg=first.element_handle(), timeout=1000)
    except Exception:
        pass
    left = first.evaluate("e => e.scrollLeft")
    first.evaluate("e => { e.scrollLeft = 0; e.blur(); }")
    return left


TARGETS_JS = """min => [...document.querySelectorAll(
    'a, button, input, select, textarea, summary, label[for], [role=button], [tabindex]:not([tabindex="-1"])')]
  .filter(el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (!r.width || !r.height || s.visibility === 'hidden' || el.closest('[hidden], .md-sidebar, .md-search')) return false;
    // 문장 속 링크는 예외입니다 (WCAG 2.5.8 의 inline 예외): 본문 글줄 안의 a
    if (el.tagName === 'A' && el.closest('p, li, td, th, dd, figcaption, blockquote, .admonition, .md-copyright')
        && getComputedStyle(el).display === 'inline') return false;
    if (el.matches('[role=region]')) return false;  // 스크롤 상자는 누르는 대상이 아닙니다
    return r.width < min || r.height < min;
  })
  .map(el => ({tag: el.tagName.toLowerCase(), cls: el.className, text: (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30),
               w: Math.round(el.getBoundingClientRect().width), h: Math.round(el.getBoundingClientRect().height)}))"""


def probe_targets(page, tab, doc, scheme):
    """24 × 24 CSS px 보다 작은 조작 요소들."""
    return page.evaluate(TARGETS_JS, MIN_TARGET)


def probe_width(page, tab, doc, scheme):
    return page.evaluate("document.documentElement.scrollWidth")


_AXE = threading.local()  # 작업 스레드마다 하나


def probe_axe(page, tab, doc, scheme):
    """axe-core(axe-playwright-python 에 고정된 판)의 위반들."""
    if not hasattr(_AXE, "axe"):
        from axe_playwright_python.sync_playwright import Axe

        _AXE.axe = Axe()
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in _AXE.axe.run(page).response["violations"]
    ]


FIGURES_JS = """async ([variant, scheme]) => {
  const links = [...document.querySelectorAll('article a.figure-link')];
  const out = [];
  for (const link of links) {
    const img = link.querySelector('img');
    const mine = link.classList.contains('figure--' + variant) && link.classList.contains('figure--' + scheme);
    const item = {name: img.getAttribute('src').split('/').pop().split('#')[0], mine,
                  link: link.checkVisibility(), img: img.checkVisibility(), href: link.getAttribute('href'), loaded: null};
    if (mine && item.img) {
      if (!(img.complete && img.naturalWidth > 0)) {
        img.scrollIntoView({block: 'center'});
        for (let k = 0; k < 400 && !(img.complete && img.naturalWidth > 0); k++) await new Promise(r => setTimeout(r, 25));
      }
      item.loaded = img.complete && img.naturalWidth > 0;
    }
    out.push(item);
  }
  window.scrollTo(0, 0);
  return {links: out,
          resources: performance.getEntriesByType('resource').map(e => e.name.split('/').pop()),
          scheme: document.body.getAttribute('data-md-color-scheme')};
}"""


def probe_figures(page, tab, doc, scheme):
    """그림 링크마다 (이 화면·팔레트의 것인지, 보이는지, 내려받았는지), 내려받은 파일들, 팔레트."""
    variant = "wide" if tab.viewport["width"] > 720 else "narrow"
    return page.evaluate(FIGURES_JS, [variant, scheme])


def probe_explorer(page, tab, doc, scheme):
    """어텐션 탐색기(assets/explorer.js): 계산 함수와 화면의 가중치를 읽고, 슬라이더·행 이름·단추를 조작합니다.

    돌려주는 값은 numpy 와 비교할 숫자들입니다 (test_explorer_agrees_with_numpy). 페이지를 바꿉니다.
    """
    page.wait_for_selector(".attention-explorer[data-ready=yes]")
    src = page.locator(".attention-explorer").get_attribute("data-src")
    data = page.evaluate("async src => await (await fetch(src)).json()", src)
    factors = [1 / math.sqrt(data["d_k"]), 0.5, 1.0, 2.0]
    out = {
        "data": data,
        "factors": factors,
        "weights": [
            page.evaluate("([s, f]) => window.attentionExplorer.weights(s, f)", [data["scores"], f]) for f in factors
        ],
    }

    def shown():
        return page.evaluate(
            "[...document.querySelectorAll('.attention-explorer__grid td[data-weight]')]"
            ".map(td => Number(td.dataset.weight))"
        )

    summary = page.locator(".attention-explorer__summary")
    out["first"] = shown()
    out["row"] = int(page.locator("th button[aria-pressed=true]").get_attribute("data-row"))
    out["first_max"] = float(summary.get_attribute("data-max"))
    out["first_entropy"] = float(summary.get_attribute("data-entropy"))
    slider = page.locator(".attention-explorer input[type=range]")
    slider.focus()
    page.keyboard.press("End")  # 키보드로: End = 오른쪽 끝 ×2
    out["end"] = shown()
    button = page.locator("th button").nth(0)
    button.focus()
    out["button_pressed"] = button.get_attribute("aria-pressed")
    out["button_outline"] = page.evaluate("e => getComputedStyle(e).outlineStyle", button.element_handle())
    out["row0_max"] = float(summary.get_attribute("data-max"))
    page.get_by_role("button", name="나누지 않기").click()
    out["undivided"] = shown()
    return out


SMALL_TEXT_JS = """min => {
  document.querySelectorAll('article details').forEach(d => { d.open = true; });  // 풀이와 코드 보기도 펼쳐서 잽니다
  const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  let total = 0, small = 0, n; const code = [];
  while ((n = walker.nextNode())) {
    const text = n.textContent.trim(), el = n.parentElement;
    if (!text || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    total += text.length;
    if (size < min) {
      small += text.length;
      if (el.closest('code, samp')) code.push(size.toFixed(1) + 'px ' + text.slice(0, 20));
    }
  }
  return {share: small / total, code: code.slice(0, 5)};
}"""


def probe_small_text(page, tab, doc, scheme):
    """12 CSS px 보다 작은 글자의 몫과 작은 코드 글자들 (접힌 풀이를 펼칩니다: 페이지를 바꿉니다)."""
    return page.evaluate(SMALL_TEXT_JS, 12)


# 본문이 실행 결과에서 읽어 주는 줄: (페이지, 줄에 있는 글). 휴대전화에서 그 값이 줄의 첫 화면 줄에 한 덩어리로 보여야 합니다.
KEY_OUTPUT_LINES = {"real_model.md": ["가장 잘 맞히는 헤드: 3-9 (100%"]}

PHONE_READING_JS = """keys => {
  const height = document.documentElement.scrollHeight;  // 접힌 풀이를 펼치기 전의 페이지 높이
  document.querySelectorAll('article details').forEach(d => { d.open = true; });
  const article = document.querySelector('article'), body = article.querySelector('p');
  const px = el => parseFloat(getComputedStyle(el).fontSize);
  const answers = [...article.querySelectorAll('details > p')].filter(p => p.getClientRects().length).map(px);
  // 실행 결과와 접은 상자 속 코드: 넘치는 상자, 상자 오른쪽 밖으로 나간 줄
  const boxes = [...article.querySelectorAll('.cell-output > pre, details pre > code')].filter(b => b.getClientRects().length);
  const overflowing = [], cut = [];
  for (const box of boxes) {
    const right = box.getBoundingClientRect().left + box.clientWidth;
    if (box.scrollWidth > box.clientWidth + 1) overflowing.push(box.textContent.slice(0, 40));
    const range = document.createRange();
    range.selectNodeContents(box);
    if ([...range.getClientRects()].some(r => r.width && r.right > right + 1)) cut.push(box.textContent.slice(0, 40));
  }
  // 본문이 읽어 주는 줄: 그 글이 한 화면 줄 안에 있고, 그 출력 줄의 첫 화면 줄에 있습니다
  const lines = [...article.querySelectorAll('.cell-output .line')];
  const key = keys.map(text => {
    const line = lines.find(l => l.textContent.includes(text));
    if (!line) return {text, found: false};
    // 그 글은 여러 글 조각에 걸칠 수 있습니다 (토큰 묶음 span.glue 안팎): 줄 안의 자리를 (글 조각, 그 안의 자리)로 바꿉니다
    const at = line.textContent.indexOf(text), walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    const place = offset => { for (let n, seen = 0; (n = walker.nextNode()); seen += n.length) {
      if (offset <= seen + n.length) return [n, offset - seen]; } };
    const range = document.createRange();
    range.setStart(...place(at)); walker.currentNode = line; range.setEnd(...place(at + text.length));
    const rows = new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top)));
    const start = document.createRange();  // 출력 줄의 첫 글자가 놓인 화면 줄
    walker.currentNode = line; const first = walker.nextNode();
    start.setStart(first, 0); start.setEnd(first, 1);
    return {text, found: true, rows: rows.size, first: Math.round(start.getClientRects()[0].top) === [...rows][0]};
  });
  // 표 칸: 화면(375 px) 밖으로 나간 칸. 화면에서만 숨긴 머리글(카드 표)은 셀 수 없습니다.
  const cells = [...article.querySelectorAll('table td, table th')].filter(c => {
    const r = c.getBoundingClientRect(), head = c.closest('thead');
    return r.width > 1 && r.height > 1 && !(head && head.getBoundingClientRect().height <= 1); });
  const cutCells = cells.filter(c => { const r = c.getBoundingClientRect(); return r.right > innerWidth + 1 || r.left < -1; })
    .map(c => c.textContent.trim().slice(0, 30));
  return {height, screens: height / innerHeight, body: px(body), answers, boxes: boxes.length, overflowing, cut,
          key, cells: cells.length, cutCells};
}"""


def probe_phone_reading(page, tab, doc, scheme):
    """휴대전화에서 읽기: 풀이 글자 크기, 넘치는 실행 결과·풀이 코드, 잘린 줄, 본문이 읽어 주는 줄, 잘린 표 칸,
    페이지 높이 (접힌 풀이를 펼칩니다: 페이지를 바꿉니다)."""
    return page.evaluate(PHONE_READING_JS, KEY_OUTPUT_LINES.get(doc, []))


# (화면, 팔레트) → 그 방문에서 하는 검사들, 차례대로 (페이지를 바꾸는 것은 뒤에). 검사마다 어느 페이지에서 할지.
ALL = set(PAGES)
PROBES = {
    ("desktop", "light"): [
        (probe_loads, ALL),
        (probe_midword, ALL),
        (probe_scroll_boxes, ALL),
        (probe_figures, ALL),
        (probe_arrow_keys, ALL),
        (probe_explorer, set(EXPLORER_PAGES)),
    ],
    ("desktop", "dark"): [(probe_figures, set(FIGURE_PAGES))],
    ("phone", "light"): [
        (probe_width, ALL),
        (probe_midword, ALL),
        (probe_scroll_boxes, ALL),
        (probe_targets, ALL),
        (probe_axe, ALL),
        (probe_figures, ALL),
        (probe_arrow_keys, ALL),
        (probe_phone_reading, ALL),
        (probe_small_text, ALL),
    ],
    ("phone", "dark"): [(probe_axe, ALL), (probe_figures, ALL), (probe_phone_reading, ALL)],
}
SETTLE = {("desktop", "light")}  # 이 방문은 네트워크가 조용해질 때까지(검색 색인까지) 기다리고 콘솔 오류를 봅니다


class Visit:
    def __init__(self, results, errors, foreign, times):
        self.results, self.errors, self.foreign, self.times = results, errors, foreign, times

    def __getitem__(self, probe):
        """검사 결과. 검사 자체가 실패했으면 그 오류를 여기서 다시 냅니다 (그 검사의 테스트만 실패하게)."""
        value = self.results[probe.__name__]
        if isinstance(value, _Failed):
            pytest.fail(f"{probe.__name__} 검사가 브라우저에서 실패했습니다:\n{value.text}")
        return value


class _Failed:
    def __init__(self, text):
        self.text = text


def run_visit(tabs, doc, screen, scheme):
    """페이지를 열고, 끝까지 읽고, 그 (화면, 팔레트)의 검사를 차례로 합니다 → Visit."""
    tab = tabs[screen]
    start = time.perf_counter()
    page = tab.open(page_url(doc), scheme=scheme, settle=(screen, scheme) in SETTLE)
    tab.read_through()
    results, times = {}, {"open": time.perf_counter() - start}
    for probe, pages in PROBES[(screen, scheme)]:
        if doc in pages:
            begun = time.perf_counter()
            try:
                results[probe.__name__] = probe(page, tab, doc, scheme)
            except Exception:
                results[probe.__name__] = _Failed(traceback.format_exc())
            times[probe.__name__] = time.perf_counter() - begun
    return Visit(results, list(tab.errors), list(tab.foreign), times)


class Visitor(threading.Thread):
    """방문을 하는 작업 스레드: 제 브라우저(Playwright 는 스레드마다 따로)와 화면마다 탭 하나.

    브라우저 일은 대부분 chromium 안에서 돌고 파이썬은 기다립니다. 두 스레드가 두 브라우저로 나란히 방문하면
    2코어 기계의 두 코어를 함께 씁니다. 할 일은 한 줄(queue)에서 꺼내므로 먼저 끝난 쪽이 다음 방문을 합니다.
    """

    def __init__(self, jobs, origin):
        super().__init__(daemon=True, name="visitor")
        self.jobs, self.origin = jobs, origin
        self.start()

    def run(self):
        from playwright.sync_api import sync_playwright

        from browser import ARGS, CHROMIUM, DESKTOP, PHONE, Tab

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                tabs = {"desktop": Tab(browser, self.origin, DESKTOP), "phone": Tab(browser, self.origin, PHONE)}
                while (job := self.jobs.get()) is not None:
                    key, future = job
                    if future.set_running_or_notify_cancel():
                        try:
                            future.set_result(run_visit(tabs, *key))
                        except BaseException as exc:  # 방문 자체가 실패하면 그 방문을 쓰는 테스트들이 실패합니다
                            future.set_exception(exc)
                for tab in tabs.values():
                    tab.close()
                browser.close()
        except BaseException as exc:
            # 브라우저를 띄우지 못했거나 스레드가 죽으면, 남은 방문을 기다리는 테스트들이 10분씩 기다리지 않고
            # 이 오류로 바로 실패합니다.
            while (job := self.jobs.get()) is not None:
                if job[1].set_running_or_notify_cancel():
                    job[1].set_exception(exc)


# 테스트 → 그 테스트가 쓰는 방문의 (화면, 팔레트). 인자(screen, scheme)로 받는 테스트는 그 값을 씁니다.
FIXED = {
    "test_page_loads_cleanly_with_math_and_images": ("desktop", "light"),
    "test_explorer_agrees_with_numpy": ("desktop", "light"),
    "test_no_horizontal_scroll_on_a_phone": ("phone", "light"),
    "test_every_control_is_big_enough_to_tap": ("phone", "light"),
    "test_code_and_text_are_big_enough_to_read": ("phone", "light"),
    "test_answers_outputs_and_tables_read_on_a_phone": ("phone", None),
    "test_axe_finds_no_violations": ("phone", None),
    "test_no_line_breaks_where_a_reader_trips": (None, "light"),
    "test_every_scrollable_box_is_a_named_region_the_keyboard_can_scroll": (None, "light"),
}


def planned_visits(items):
    """이번 세션에서 고른 테스트들이 쓸 방문들, 테스트가 도는 차례대로 (한 페이지만 고르면 그 페이지만 엽니다)."""
    plan = {}
    for item in items:
        if item.module.__name__ != __name__ or not hasattr(item, "callspec") or "visit" not in item.fixturenames:
            continue
        params = item.callspec.params
        if "doc" not in params:
            continue
        screen, scheme = FIXED.get(item.originalname, (None, None))
        plan[(params["doc"], screen or params["screen"], scheme or params["scheme"])] = None
    return list(plan)


@pytest.fixture(scope="session")
def visit(request, server):
    """visit(페이지, 화면, 팔레트) → Visit. (페이지, 화면, 팔레트)마다 한 번만 열고 검사를 모두 합니다.

    고른 테스트가 쓸 방문을 처음 부를 때 모두 작업 스레드 두 개에 맡기고, 테스트는 제 방문이 끝나기를 기다립니다.
    BROWSER_PROBE_TIMES=1 (pytest -s) 이면 방문마다 어느 검사에 몇 초 걸렸는지 찍습니다.
    """
    from browser import CHROMIUM

    if CHROMIUM is None:
        request.getfixturevalue("browser")  # 없으면 browser 픽스처가 건너뛰거나(CI 에서는) 실패합니다
    jobs = queue.Queue()
    futures = {}

    def submit(key):
        if key not in futures:
            futures[key] = concurrent.futures.Future()
            jobs.put((key, futures[key]))
        return futures[key]

    for key in planned_visits(request.session.items):
        submit(key)
    workers = [Visitor(jobs, server) for _ in range(2)]

    def get(doc, screen, scheme):
        result = submit((doc, screen, scheme)).result(timeout=600)
        if os.environ.get("BROWSER_PROBE_TIMES") and not getattr(result, "printed", False):
            result.printed = True
            print(f"\n{doc} {screen} {scheme}: " + ", ".join(f"{k} {v:.2f}s" for k, v in result.times.items()))
        return result

    yield get
    for future in futures.values():
        future.cancel()
    for _ in workers:
        jobs.put(None)
    for worker in workers:
        worker.join(timeout=60)


# --- 데스크톱·밝은 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("doc", PAGES)
def test_page_loads_cleanly_with_math_and_images(visit, doc):
    v = visit(doc, "desktop", "light")
    state = v[probe_loads]
    assert state["lang"] == "ko"
    # 수식: 모든 자리표시가 MathML 이 되었고, 본문에 TeX 가 남지 않았습니다.
    assert state["unrendered"] == 0
    assert "\\(" not in state["text"] and "$$" not in state["text"] and "\\frac" not in state["text"]
    # 보이는 그림은 모두 내려받아지고 (지연 로딩이라 하나씩 화면에 보여 줍니다) 대체 텍스트가 있습니다.
    for img in state["images"]:
        assert img["loaded"] and img["alt"], img
    assert not v.errors, f"콘솔 오류: {v.errors}"
    assert not v.foreign, f"다른 출처로 가는 요청: {v.foreign}"


@pytest.mark.parametrize("doc", EXPLORER_PAGES)
def test_explorer_agrees_with_numpy(visit, doc):
    from attention import softmax

    got = visit(doc, "desktop", "light")[probe_explorer]
    data = got["data"]
    scores = np.array(data["scores"])
    scaled = 1 / math.sqrt(data["d_k"])

    def grid(values):
        return np.array(values).reshape(scores.shape)

    # 1) 브라우저의 소프트맥스 = numpy 코어의 소프트맥스 (여러 배율에서, 1e-6 안)
    for factor, js in zip(got["factors"], got["weights"], strict=True):
        np.testing.assert_allclose(np.array(js), softmax(scores * factor, axis=-1), atol=1e-6, rtol=0)
    # 2) 처음 화면은 ÷√d_k 이고, 표시된 가중치가 numpy 와 같습니다.
    np.testing.assert_allclose(grid(got["first"]), softmax(scores * scaled, axis=-1), atol=1e-6)
    expect = softmax(scores[got["row"]] * scaled)
    assert got["first_max"] == pytest.approx(expect.max(), abs=1e-6)
    assert got["first_entropy"] == pytest.approx(-(expect * np.log(expect)).sum(), abs=1e-6)
    # 3) 슬라이더를 움직이면(End = ×2) 가중치가 바뀌고 더 날카로워집니다.
    before, after = grid(got["first"]), grid(got["end"])
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, softmax(scores * 2.0, axis=-1), atol=1e-6)
    assert after.max(-1).mean() > before.max(-1).mean()
    # 4) 행 이름에 키보드 초점을 옮기면 그 행이 선택되고, 초점이 눈에 보입니다.
    assert got["button_pressed"] == "true" and got["button_outline"] != "none"
    assert got["row0_max"] == pytest.approx(softmax(scores[0] * 2.0).max(), abs=1e-6)
    # 5) "나누지 않기" 단추는 ×1 로 맞춥니다.
    np.testing.assert_allclose(grid(got["undivided"]), softmax(scores, axis=-1), atol=1e-6)
    v = visit(doc, "desktop", "light")
    assert not v.errors and not v.foreign, (v.errors, v.foreign)


# --- 그림: 판(넓은/좁은) × 팔레트 ---------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("doc", FIGURE_PAGES)
def test_figures_follow_the_palette_and_the_screen(visit, doc, screen, scheme):
    """그림마다 판(넓은/좁은) × 테마 네 장 가운데 화면과 팔레트에 맞는 한 장만 보이고, 그 한 장은 내려받아집니다.

    숨은 세 장은 내려받지 않습니다 (loading="lazy" 와 display: none).
    """
    got = visit(doc, screen, scheme)[probe_figures]
    links = got["links"]
    assert links, f"{doc} 에 그림이 없습니다"
    shown = set()
    for link in links:
        if link["mine"]:
            assert link["link"] and link["img"], f"{link['name']} 가 보여야 합니다"
            assert link["loaded"], f"{link['name']} 를 내려받지 못했습니다"
            shown.add(link["name"])
        else:
            assert not link["link"], f"{link['name']} 는 {screen}·{scheme} 에서 숨어야 합니다"
    assert len(shown) * 4 == len(links)  # 그림 하나에 네 장, 보이는 것은 하나
    hidden = {link["name"] for link in links} - shown
    assert not hidden & set(got["resources"]), f"숨은 그림을 내려받았습니다: {hidden & set(got['resources'])}"
    assert got["scheme"] == ("slate" if scheme == "dark" else "default")


# --- 휴대전화와 데스크톱에서 읽기 ----------------------------------------------------------------------


@pytest.mark.parametrize("doc", PAGES)
def test_no_horizontal_scroll_on_a_phone(visit, doc):
    width = visit(doc, "phone", "light")[probe_width]  # 탐색기가 그린 뒤의 너비를 잽니다
    assert width <= 375, f"{doc}: 375px 화면에서 페이지가 {width}px 로 가로 스크롤됩니다"


# probe_midword 가 찾는 줄바꿈의 종류 → 실패 글. 모두 0 이어야 합니다 (휴대전화와 데스크톱):
# - word: 본문, 링크, 탐색 서랍, 목차, 머리글, 바닥글, 표, 알림 상자, 탐색기에서 낱말 가운데 줄바꿈.
# - particle: 닫는 괄호·따옴표, "%", 인라인 수식과 코드 바로 뒤에 붙은 조사("입니다" 같은 서술격 조사 포함)가 혼자 다음 줄
#   맨 앞에 온 곳: "[CLS]⏎가", "(3, 3)⏎입니다", "</s>⏎는" (sitebuild/glue.py 가 묶습니다).
# - range: 헤드 이름과 숫자 범위가 대시에서 갈라진 곳: "헤드 7-⏎11", "2–⏎5층".
# - token: 실행 결과가 띄어쓰기가 아닌 곳에서 접힌 곳: "▁⏎문제를", "∂p₁/⏎∂s₁", "'##⏎ㄴ'", "v.shape=⏎(6,"
#   (sitebuild/glue.py 의 output_tokens 가 묶습니다).
BREAKS = {
    "word": "낱말 가운데에서 줄이 바뀐 곳",
    "particle": "조사가 혼자 줄 맨 앞에 온 곳",
    "range": "숫자 범위가 대시에서 갈라진 곳",
    "token": "실행 결과의 토큰 가운데서 접힌 곳",
}


@pytest.mark.parametrize("kind", list(BREAKS))
@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("doc", PAGES)
def test_no_line_breaks_where_a_reader_trips(visit, korean_font, doc, screen, kind):
    found = [
        f"{b['at']}  …{b['context']}… ({b['element']})"
        for b in visit(doc, screen, "light")[probe_midword]
        if b["kind"] == kind
    ]
    assert not found, f"{doc} ({screen}): {BREAKS[kind]} {len(found)}곳\n" + "\n".join(found[:30])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("doc", PAGES)
def test_axe_finds_no_violations(visit, doc, scheme):
    """axe-core(axe-playwright-python 에 고정된 판)가 위반을 하나도 찾지 않습니다 (휴대전화, 끝까지 읽은 뒤)."""
    problems = [
        f"{v['id']} ({v['impact']}) {len(v['nodes'])}곳 {v['nodes'][:3]}"
        for v in visit(doc, "phone", scheme)[probe_axe]
    ]
    assert not problems, f"{doc} ({scheme}):\n" + "\n".join(problems)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("doc", PAGES)
def test_every_scrollable_box_is_a_named_region_the_keyboard_can_scroll(visit, doc, screen):
    """가로로 넘치는 상자(표, 수식, 코드, 실행 결과, 탐색기 표)는 Tab 으로 닿고, 이름이 있고, 화살표 키로 스크롤됩니다.

    영역 이름은 서로 다르고, 영역은 모두 지금 넘치는 상자입니다 (넘치지 않는 상자는 Tab 으로 거치지 않습니다).
    """
    v = visit(doc, screen, "light")
    got = v[probe_scroll_boxes]
    problems = [
        f"<{b['tag']} class={b['cls']!r}> tabindex={b['tabindex']} role={b['role']} 이름={b['name']!r}"
        for b in got["boxes"]
        if b["tabindex"] < 0 or b["role"] != "region" or not b["name"]
    ]
    names = [r["name"] for r in got["regions"]]
    assert not problems, "\n".join(problems)
    assert len(names) == len(set(names)), f"이름이 같은 영역: {names}"
    assert all(r["overflows"] and r["tabindex"] == "0" for r in got["regions"] if r["marked"]), got["regions"]
    assert v[probe_arrow_keys] is None or v[probe_arrow_keys] > 0, f"{doc}: 화살표 키로 스크롤되지 않습니다"


def test_phones_do_have_scrollable_boxes(visit):
    """대조군: 휴대전화에서는 넘치는 코드 블록이 반드시 있습니다 (스크롤 상자 검사가 헛돌지 않았다는 것)."""
    assert sum(len(visit(doc, "phone", "light")[probe_scroll_boxes]["boxes"]) for doc in PAGES) > 0


@pytest.mark.parametrize("doc", PAGES)
def test_every_control_is_big_enough_to_tap(visit, doc):
    """375 px 화면에서 보이는 모든 조작 요소(단추, 슬라이더, 글 밖의 링크, 접힌 풀이 …)는 24 × 24 CSS px 이상입니다."""
    small = [
        f"<{t['tag']} class={t['cls']!r}> {t['text']!r} {t['w']}×{t['h']}"
        for t in visit(doc, "phone", "light")[probe_targets]
    ]
    assert not small, f"{doc}: {MIN_TARGET}px 보다 작은 조작 요소:\n" + "\n".join(small[:40])


@pytest.mark.parametrize("doc", PAGES)
def test_code_and_text_are_big_enough_to_read(visit, doc):
    """휴대전화에서 코드와 실행 결과는 어디서나(접은 상자, 표 안에서도) 12 CSS px 이상이고, 본문 글자의 99% 이상이
    12 px 이상입니다 (남는 것은 수식의 첨자와 각주 번호). Material 은 상자와 표의 글자를 줄이고 코드를 다시 그
    0.85배로 그려 10.9 px 이 되었습니다 (docs/assets/site.css 가 고칩니다)."""
    got = visit(doc, "phone", "light")[probe_small_text]
    assert not got["code"] and got["share"] <= 0.01, (
        f"{doc}: 12 px 보다 작은 글자 {got['share']:.1%}, 코드 {got['code']}"
    )


# 용어집은 용어 하나가 812 px 화면의 0.17장(138 px) 안에 읽힙니다. 표였을 때는 용어 70개에 15.4장, 곧 0.22장이었습니다
# ("뜻" 열이 다섯 글자 폭). 용어는 장이 늘면 함께 늘어나므로 전체 장수가 아니라 용어 하나의 높이를 봅니다.
GLOSSARY_SCREENS_PER_TERM = 0.17


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("doc", PAGES)
def test_answers_outputs_and_tables_read_on_a_phone(visit, doc, scheme):
    """375 px 에서: 접은 풀이의 글은 본문과 같은 크기(16 px, Material 은 12.8 px)이고, 실행 결과와 풀이 속 코드는
    가로로 넘치지 않으며 상자 밖으로 나간 줄이 없습니다 (줄을 내어쓰기로 접습니다, sitebuild/lines.py). 본문이 읽어 주는
    출력 줄(KEY_OUTPUT_LINES)은 그 값이 한 화면 줄에, 출력 줄의 첫 화면 줄에 있습니다. 표의 칸은 화면 밖으로 나가지
    않습니다 (넓은 표는 카드로, sitebuild/tables.py). 팔레트는 배치를 바꾸지 않아야 하므로 밝은·어두운 모두 잽니다."""
    got = visit(doc, "phone", scheme)[probe_phone_reading]
    assert got["body"] == 16 and set(got["answers"]) <= {16}, (got["body"], sorted(set(got["answers"])))
    assert not got["overflowing"], f"{doc}: 가로로 넘치는 상자 {len(got['overflowing'])}개 {got['overflowing'][:5]}"
    assert not got["cut"], f"{doc}: 줄이 상자 밖으로 나간 상자 {len(got['cut'])}개 {got['cut'][:5]}"
    for key in got["key"]:
        assert key["found"] and key["rows"] == 1 and key["first"], f"{doc}: 본문이 읽어 주는 줄이 갈라집니다: {key}"
    assert len(got["key"]) == len(KEY_OUTPUT_LINES.get(doc, []))
    assert not got["cutCells"], f"{doc}: 화면 밖으로 나간 표 칸 {len(got['cutCells'])}개 {got['cutCells'][:5]}"
    if doc == "glossary.md":
        assert got["cells"] > 200  # 카드도 칸은 그대로 셉니다 (검사가 헛돌지 않았다는 것)
        from test_glossary import glossary

        terms = len(glossary())  # 용어집 표의 용어 행 (test_glossary 가 읽는 그대로)
        assert terms > 60  # 용어를 세는 방법이 표를 놓치면 목표가 저절로 맞으니, 아래쪽도 봅니다
        assert got["screens"] / terms <= GLOSSARY_SCREENS_PER_TERM, (
            f"용어집이 화면 {got['screens']:.1f}장, 용어 {terms}개: 용어 하나에 {got['screens'] / terms:.3f}장입니다"
        )


def test_phones_do_have_outputs_and_answer_code_to_check(visit):
    """대조군: 위 검사가 잰 상자가 정말 있습니다 (실행 결과와 풀이 속 코드가 수백 개)."""
    assert sum(visit(doc, "phone", "light")[probe_phone_reading]["boxes"] for doc in PAGES) > 150


# --- 화면 폭이 바뀔 때 (창 크기, 태블릿 회전) ----------------------------------------------------------


def test_scroll_regions_follow_a_resize(browser, server):
    """데스크톱 페이지를 375 px 로 줄였다가 되돌리면 스크롤 영역이 처음과 같습니다: 더는 넘치지 않는 상자는 영역과 Tab
    자리를 내려놓고, 이름은 서로 다릅니다 (axe 의 landmark-unique). 그 사이 375 px 에서는 그 폭의 새로 연 페이지와 같습니다."""
    from browser import DESKTOP, PHONE, Tab

    tab = Tab(browser, server, DESKTOP)
    try:
        page = tab.open(page_url("heatmap.md"))
        tab.read_through()

        def regions():
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            return page.evaluate(REGIONS_JS)

        wide = regions()
        page.set_viewport_size(PHONE)
        narrow = regions()
        page.set_viewport_size(DESKTOP)
        back = regions()
        tab.assert_clean()
        fresh = Tab(browser, server, PHONE)
        try:
            fresh.open(page_url("heatmap.md"))
            fresh.read_through()
            fresh.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            fresh_narrow = fresh.page.evaluate(REGIONS_JS)
        finally:
            fresh.close()
    finally:
        tab.close()
    assert len(narrow) > len(wide)  # 휴대전화 폭에서 더 많이 넘칩니다: 검사가 헛돌지 않았다는 것
    assert back == wide, f"되돌린 뒤 {len(back)}개, 처음 {len(wide)}개"
    assert [r["name"] for r in narrow] == [r["name"] for r in fresh_narrow]
    for state in (wide, narrow, back):
        names = [r["name"] for r in state]
        assert len(names) == len(set(names)) and all(r["overflows"] for r in state if r["marked"]), state


def test_the_break_detector_sees_a_broken_word(phone, korean_font):
    """대조군: 좁은 상자에 word-break: break-all 로 한국어를 넣으면 검출기가 낱말 가운데 줄바꿈을 찾아냅니다."""
    page = phone.open("")
    page.evaluate("""() => { const p = document.createElement('p');
        p.style.cssText = 'width: 60px; word-break: break-all; font-size: 16px';
        p.textContent = '어텐션가중치소프트맥스'; document.querySelector('article').prepend(p); }""")
    assert {b["kind"] for b in page.evaluate(MIDWORD_JS)} == {"word"}


# 글 조각 하나를 article 맨 앞에 넣고 폭을 바꿔 가며, 그 조각 안의 줄바꿈 가운데 kind 인 것이 처음 나온 폭과 자리.
# target 은 폭을 바꿀 요소(조각 자신이면 null), [from, to, step] 은 잴 폭 (px).
FIRST_BREAK_JS = """([html, kind, target, [from, to, step]]) => {
  const box = document.createElement('div');
  box.innerHTML = html;
  document.querySelector('article').prepend(box);
  const sized = target ? box.querySelector(target) : box;
  for (let w = from; w <= to; w += step) {
    sized.style.width = w + 'px';
    const found = (__MIDWORD_JS__)(box).filter(b => b.kind === kind);  // 이 조각만: 폭마다 페이지 전체를 재지 않게
    if (found.length) { box.remove(); return {width: w, at: found[0].at}; }
  }
  box.remove();
  return null;
}""".replace("__MIDWORD_JS__", MIDWORD_JS)


def unglued(page, html, kind):
    """묶지 않은 글: 폭을 바꿔 가며 "[CLS]가", "<code>f(x)</code>를", "7-11" 이 갈라지는 폭을 찾습니다. (인라인 수식
    뒤는 지금의 Chromium 이 갈라 놓지 않아 대조군이 될 수 없지만, 빌드는 다른 브라우저를 위해 그것도 묶습니다.)"""
    return page.evaluate(FIRST_BREAK_JS, [f"<p>{html}</p>", kind, None, [40, 320, 2]])


def output_break(page, html, kind):
    """실행 결과 상자 하나: 가장 좁은 실행 결과 상자(접은 상자 속, 375 px 화면)보다 조금 좁은 폭부터 잽니다."""
    return page.evaluate(FIRST_BREAK_JS, [html, kind, "pre", [200, 400, 3]])


@pytest.mark.parametrize(
    ("html", "kind"),
    [
        ("가나다라 마바사 토큰 [CLS]가 있는", "particle"),
        ("가나다라 마바사 아자차 <code>f(x)</code>를 씁니다", "particle"),
        ("가나다라 마바사 아자차 헤드 7-11은 봅니다", "range"),
    ],
)
def test_the_break_detector_sees_a_particle_alone_and_a_split_range(phone, korean_font, html, kind):
    """대조군: 묶지 않은 글은 어떤 폭에서 정말 갈라지고, 검출기가 그것을 찾아냅니다. 같은 글을 사이트의 묶음
    (.glue, sitebuild/glue.py 가 만드는 모양)으로 감싸면 어느 폭에서도 갈라지지 않습니다."""
    page = phone.open("")
    found = unglued(page, html, kind)
    assert found, f"묶지 않은 글 {html!r} 이 어느 폭에서도 갈라지지 않았습니다 (검출기가 헛돕니다)"
    if kind == "range":
        fixed = html.replace("7-11은", '<span class="glue">7-11은</span>')
    else:
        fixed = html.replace("S]가", '<span class="glue">S]가</span>').replace(
            "<code>f(x)</code>를", '<span class="glue"><code>f(x)</code>를</span>'
        )
    assert fixed != html
    assert unglued(page, fixed, kind) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("['▁선생님', '▁은', '▁그', '▁문제를', '▁천', '천', '히', '▁다시']", "token"),
        ("0.3 → 1등 자리 ∂p₁/∂s₁ = 2.02e-43, 2등 자리 ∂p₂/∂s₁ = 1.0", "token"),
        ("['ᄂ', '##ᅳ', '##ㄴ', 'ᄒ', '##ᅡ', '##ᆫ', '##ᄃ']", "token"),
        ("['1-5', '1-6', '1-7', '1-8', '1-9', '1-10', '1-11']", "range"),
    ],
)
def test_the_break_detector_sees_a_token_split_in_an_output(phone, korean_font, text, kind):
    """대조군: 묶지 않은 실행 결과(줄마다 span.line 만, sitebuild/lines.py)는 어떤 폭에서 토큰 가운데서 접히고, 검출기가
    그것을 찾아냅니다. 빌드가 쓰는 fences.output_html(토큰을 묶음)로 그리면 어느 폭에서도 접히지 않습니다."""
    from html import escape

    from sitebuild import fences, lines

    page = phone.open("")
    plain = f'<div class="cell-output"><pre><samp>{lines.wrap_lines(escape(text))}</samp></pre></div>'
    found = output_break(page, plain, kind)
    assert found, f"묶지 않은 출력 {text!r} 이 어느 폭에서도 갈라지지 않았습니다 (검출기가 헛돕니다)"
    assert output_break(page, fences.output_html(text), kind) is None


# 접은 상자(풀이, 더 알아보기) 속 코드의 줄: 한글 두 글자 사이에서 줄이 바뀐 곳과, 잰 한글 글자 쌍의 수.
# (MIDWORD_JS 는 pre 를 건너뜁니다: 본문의 코드 블록은 접지 않고 가로로 스크롤하니까요. 접은 상자 속 코드만 접힙니다.)
CODE_IN_DETAILS_JS = r"""() => {
  document.querySelectorAll('article details').forEach(d => { d.open = true; });
  const HANGUL = /[\uac00-\ud7a3]/, out = [];
  let pairs = 0;
  for (const line of document.querySelectorAll('article details pre > code .line')) {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let prev = null;
    for (let n; (n = walker.nextNode());) for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const rect = r.getClientRects()[0], ch = n.data[i];
      if (rect && prev && HANGUL.test(prev.ch) && HANGUL.test(ch)) {
        pairs++;
        if (rect.top > prev.top + 2) out.push(prev.ch + '⏎' + ch);
      }
      prev = rect ? {ch, top: rect.top} : null;
    }
  }
  return {breaks: out, pairs};
}"""


@pytest.mark.parametrize("doc", ["four_steps.md", "real_model.md"])
def test_code_in_collapsed_blocks_never_breaks_a_korean_word(phone, korean_font, doc):
    """접은 상자 속 코드는 휴대전화에서 줄을 접지만, 한국어 주석과 문자열은 띄어쓰기에서만 접힙니다 (site.css 의 .line)."""
    phone.open(page_url(doc))
    found = phone.page.evaluate(CODE_IN_DETAILS_JS)
    assert found["pairs"] > 200  # 잰 것이 있습니다 (검사가 헛돌지 않게)
    assert not found["breaks"], f"{doc}: {found['breaks'][:10]}"


def test_probes_see_what_they_look_for(phone):
    """대조군: 검사들이 작은 단추, 작은 글자, 넘치는 상자를 정말 찾아냅니다 (통과만 하는 검사가 아님을 보입니다)."""
    page = phone.open("")
    page.evaluate("""() => { const a = document.querySelector('article');
        const b = document.createElement('button'); b.textContent = 'x'; b.style.cssText = 'width: 10px; height: 10px; padding: 0';
        const s = document.createElement('p'); s.style.fontSize = '9px'; s.textContent = '작은 글자 '.repeat(400);
        a.prepend(b, s); }""")
    assert any(t["w"] == 10 for t in probe_targets(page, phone, "", "light"))
    assert probe_small_text(page, phone, "", "light")["share"] > 0.01
