"""휴대전화(375 × 812)와 데스크톱(1280 × 800)에서 읽기: 낱말 가운데 줄바꿈, 접근성(axe-core),
키보드로 스크롤하기, 손가락으로 누르기.

줄바꿈은 글꼴에 따라 달라지므로, 한글 글꼴이 설치되지 않은 기계에서는 이 측정이 뜻이 없습니다.
그래서 한글 글꼴(fc-list :lang=ko)이 없으면 이 테스트들은 통과하지 않습니다 (CI 는 실패, 그 밖에는 건너뜀).
.ci/run 이 Debian 의 fonts-noto-cjk 를 설치합니다.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from site_pages import nav_pages
from sitebuild.pageweight import page_url

pytestmark = pytest.mark.browser

MIDWORD_JS = (Path(__file__).parent / "js" / "midword_breaks.js").read_text(encoding="utf-8")
MIN_TARGET = 24  # CSS px, WCAG 2.5.8 (목표 크기 최소)


@pytest.fixture(scope="session")
def korean_font():
    fonts = ""
    if shutil.which("fc-list"):
        fonts = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True).stdout.strip()
    if not fonts:
        message = "한글 글꼴이 없어 줄바꿈을 잴 수 없습니다 (Debian: apt install fonts-noto-cjk, .ci/run 이 설치합니다)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return fonts


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_no_word_breaks_in_the_middle(request, korean_font, screen):
    """모든 페이지의 본문, 링크, 탐색 서랍, 목차, 머리글, 바닥글, 표, 알림 상자, 탐색기에서 낱말 가운데 줄바꿈 0."""
    tab = request.getfixturevalue(screen)
    found = []
    for doc in nav_pages():
        page = tab.open(page_url(doc))
        tab.read_through(whole_page=False)  # 줄바꿈은 복사 단추와 상관없고, 탐색기의 글은 잽니다
        found += [f"{doc}: …{b['context']}… ({b['element']})" for b in page.evaluate(MIDWORD_JS)]
    assert not found, f"{screen}: 낱말 가운데에서 줄이 바뀐 곳 {len(found)}곳\n" + "\n".join(found[:30])


def test_the_break_detector_sees_a_broken_word(phone, korean_font):
    """대조군: 좁은 상자에 word-break: break-all 로 한국어를 넣으면 검출기가 낱말 가운데 줄바꿈을 찾아냅니다."""
    page = phone.open("")
    page.evaluate("""() => { const p = document.createElement('p');
        p.style.cssText = 'width: 60px; word-break: break-all; font-size: 16px';
        p.textContent = '어텐션가중치소프트맥스'; document.querySelector('article').prepend(p); }""")
    assert page.evaluate(MIDWORD_JS)


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(phone, axe, scheme):
    """axe-core(axe-playwright-python 에 고정된 판)가 모든 페이지에서 위반을 하나도 찾지 않습니다."""
    problems = []
    for doc in nav_pages():
        page = phone.open(page_url(doc), scheme=scheme)
        phone.read_through()
        for v in axe.run(page).response["violations"]:
            targets = [n["target"] for n in v["nodes"][:3]]
            problems.append(f"{doc}: {v['id']} ({v['impact']}) {len(v['nodes'])}곳 {targets}")
    assert not problems, f"{scheme}:\n" + "\n".join(problems)


SCROLLABLE_JS = """() => [...document.querySelectorAll('article *')].filter(el => {
    const s = getComputedStyle(el);
    return ['auto', 'scroll'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.offsetParent !== null;
}).map(el => ({tag: el.tagName.toLowerCase(), cls: el.className, tabindex: el.tabIndex,
               role: el.getAttribute('role'), name: el.getAttribute('aria-label')}))"""


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_every_scrollable_box_is_a_named_region_the_keyboard_can_scroll(request, screen):
    """가로로 넘치는 상자(표, 수식, 코드, 실행 결과, 탐색기 표)는 Tab 으로 닿고, 이름이 있고, 화살표 키로 스크롤됩니다."""
    tab = request.getfixturevalue(screen)
    seen, problems = 0, []
    for doc in nav_pages():
        page = tab.open(page_url(doc))
        tab.read_through()
        for box in page.evaluate(SCROLLABLE_JS):
            seen += 1
            if box["tabindex"] < 0 or box["role"] != "region" or not box["name"]:
                problems.append(f"{doc}: <{box['tag']} class={box['cls']!r}> tabindex={box['tabindex']} "
                                f"role={box['role']} 이름={box['name']!r}")
        # 첫 상자는 실제로 키보드로 스크롤해 봅니다.
        first = page.locator("article [role=region][aria-label$='가로로 스크롤']:visible").first
        if first.count() and first.evaluate("e => e.scrollWidth > e.clientWidth + 1"):
            first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(100)
            if first.evaluate("e => e.scrollLeft") <= 0:
                problems.append(f"{doc}: 화살표 키로 스크롤되지 않습니다")
    assert not problems, "\n".join(problems)
    if screen == "phone":
        assert seen > 0  # 휴대전화에서는 넘치는 코드 블록이 반드시 있습니다: 검사가 헛돌지 않았다는 대조


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


def test_every_control_is_big_enough_to_tap(phone):
    """375 px 화면에서 보이는 모든 조작 요소(단추, 슬라이더, 글 밖의 링크, 접힌 풀이 …)는 24 × 24 CSS px 이상입니다."""
    small = []
    for doc in nav_pages():
        page = phone.open(page_url(doc))
        phone.read_through()
        small += [f"{doc}: <{t['tag']} class={t['cls']!r}> {t['text']!r} {t['w']}×{t['h']}"
                  for t in page.evaluate(TARGETS_JS, MIN_TARGET)]
    assert not small, f"{MIN_TARGET}px 보다 작은 조작 요소:\n" + "\n".join(small[:40])


def test_square_roots_leave_no_gap(desktop):
    """근호(√) 상자가 내용보다 넓게 남기던 빈칸이 없습니다: "√d_k로" 의 "로" 가 근호에 붙습니다."""
    page = desktop.open("four_steps/")
    page.evaluate("document.fonts.ready")
    # 근호로 끝나는 수식: 수식 상자의 오른쪽 끝 - 근호 안 내용의 오른쪽 끝
    gaps = page.evaluate("""() => [...document.querySelectorAll('article math')]
        .map(m => [m, m.querySelector(':scope > mrow > msqrt:last-child, :scope > msqrt:last-child')])
        .filter(([m, q]) => q)
        .map(([m, q]) => m.getBoundingClientRect().right - q.lastElementChild.getBoundingClientRect().right)""")
    assert gaps and max(gaps) < 1.0, gaps


LAZY_BLOCK_JS = """() => {
  // 닫힌 접기(details) 밖에서, 휴대전화 폭에 넘치는 코드 블록 가운데 맨 마지막 것 (첫 화면에서 가장 먼 것)
  const blocks = [...document.querySelectorAll('article pre > code')]
    .filter(c => !c.closest('details:not([open])') && c.scrollWidth > c.clientWidth + 1);
  const code = blocks[blocks.length - 1];
  code.setAttribute('data-probe', '');
  return code.getBoundingClientRect().top > 3 * innerHeight;
}"""


def test_code_tools_arrive_when_the_block_is_seen(phone):
    """mkdocs.yml 의 content.lazy: Material 은 코드 블록이 화면에 들어올 때 복사 단추를 붙입니다.

    페이지를 여는 순간 멀리 있는 블록에는 단추가 없고(그래서 여는 일이 가볍습니다), 내려가서 보면 생깁니다.
    그때 Material 이 마우스 없는 기기에서 코드 상자의 tabindex 를 지워도, 사이트 스크립트(overrides/main.html)가
    넘치는 상자를 다시 키보드로 닿는 이름 붙은 영역으로 만들고, 단추 묶음은 탐색 영역이 아닌 묶음(role=none)이 됩니다.
    """
    page = phone.open(page_url("korean_model.md"))
    assert page.evaluate(LAZY_BLOCK_JS), "맨 마지막 넘치는 코드 블록이 첫 화면에서 멀지 않습니다: 검사가 뜻이 없습니다"
    probe = page.locator("[data-probe]")
    assert probe.evaluate("c => c.parentElement.querySelector('nav.md-code__nav')") is None
    probe.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('[data-probe]').parentElement.querySelector('nav.md-code__nav')")
    page.wait_for_timeout(100)  # 사이트 스크립트는 다음 프레임에 고칩니다
    state = probe.evaluate("""c => ({nav: c.parentElement.querySelector('nav.md-code__nav').getAttribute('role'),
                                    button: !!c.parentElement.querySelector('nav.md-code__nav > button[data-clipboard-target]'),
                                    tabindex: c.getAttribute('tabindex'), role: c.getAttribute('role'),
                                    name: c.getAttribute('aria-label')})""")
    assert state["nav"] == "none" and state["button"], state
    assert state["tabindex"] == "0" and state["role"] == "region" and state["name"].endswith("가로로 스크롤"), state
    phone.assert_clean()


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


def test_code_and_text_are_big_enough_to_read(phone):
    """휴대전화에서 코드와 실행 결과는 어디서나(접은 상자, 표 안에서도) 12 CSS px 이상이고, 본문 글자의 99% 이상이
    12 px 이상입니다 (남는 것은 수식의 첨자와 각주 번호). Material 은 상자와 표의 글자를 줄이고 코드를 다시 그
    0.85배로 그려 10.9 px 이 되었습니다 (docs/assets/site.css 가 고칩니다)."""
    problems = []
    for doc in nav_pages():
        page = phone.open(page_url(doc))
        got = page.evaluate(SMALL_TEXT_JS, 12)
        if got["code"] or got["share"] > 0.01:
            problems.append(f"{doc}: 12 px 보다 작은 글자 {got['share']:.1%}, 코드 {got['code']}")
    assert not problems, "\n".join(problems)
