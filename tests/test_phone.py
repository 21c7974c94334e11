"""휴대전화(375 × 812)와 데스크톱(1280 × 800)에서 한 가지씩 따로 보는 것: 근호의 빈칸, 나중에 붙는 코드 도구, 글꼴,
복사 단추와 첫 줄.

모든 페이지에 같은 검사를 하는 것(줄바꿈, axe-core, 스크롤 상자, 누르기 좋은 크기, 글자 크기)은
tests/test_pages_in_browser.py 가 (페이지, 화면, 팔레트)마다 한 번의 방문에서 합니다.
"""

import re
import subprocess
from pathlib import Path

import pytest

from support.pageweight import page_url

pytestmark = pytest.mark.browser


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
    그때 Material 이 마우스 없는 기기에서 코드 상자의 tabindex 를 지워도, 사이트 스크립트(docs/assets/site.js)가
    넘치는 상자를 다시 키보드로 닿는 이름 붙은 영역으로 만들고, 단추 묶음은 탐색 영역이 아닌 묶음(role=none)이 됩니다.
    """
    page = phone.open(page_url("korean_model.md"))
    assert page.evaluate(LAZY_BLOCK_JS), "맨 마지막 넘치는 코드 블록이 첫 화면에서 멀지 않습니다: 검사가 뜻이 없습니다"
    probe = page.locator("[data-probe]")
    assert probe.evaluate("c => c.parentElement.querySelector('nav.md-code__nav')") is None
    probe.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('[data-probe]').parentElement.querySelector('nav.md-code__nav')"
    )
    page.wait_for_timeout(100)  # 사이트 스크립트는 다음 프레임에 고칩니다
    state = probe.evaluate("""c => ({nav: c.parentElement.querySelector('nav.md-code__nav').getAttribute('role'),
                                    button: !!c.parentElement.querySelector('nav.md-code__nav > button[data-clipboard-target]'),
                                    tabindex: c.getAttribute('tabindex'), role: c.getAttribute('role'),
                                    name: c.getAttribute('aria-label')})""")
    assert state["nav"] == "none" and state["button"], state
    assert state["tabindex"] == "0" and state["role"] == "region" and state["name"].endswith("가로로 스크롤"), state
    phone.assert_clean()


CLOSED_BOX_JS = """async open => {
  // 접힌 상자 하나를 더하고 그 안에 넘치는 코드 상자를 둡니다. 창 크기가 바뀐 것처럼 site.js 에 다시 재게 합니다.
  let d = document.getElementById('probe-details');
  if (!d) {
    d = document.createElement('details'); d.id = 'probe-details';
    d.innerHTML = '<summary>풀이</summary><pre><code style="white-space: pre">' + 'x = 1; '.repeat(80) + '</code></pre>';
    document.querySelector('article').append(d);
  }
  const toggled = d.open === open ? null : new Promise(r => d.addEventListener('toggle', r, {once: true}));
  d.open = open;
  await toggled;
  dispatchEvent(new Event('resize'));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const code = d.querySelector('code');
  return {region: code.getAttribute('role'), tabindex: code.getAttribute('tabindex'), name: code.getAttribute('aria-label')};
}"""


def test_boxes_in_closed_details_are_measured_only_when_opened(phone):
    """사이트 스크립트(docs/assets/site.js)는 접힌 상자(<details>) 안의 상자를 재지 않습니다: 보이지 않고 Tab 으로 닿지도
    않으며, 재는 순간 브라우저가 미뤄 둔 그 안(풀이 코드 전부)의 스타일과 레이아웃을 계산합니다 (issue 29 §8: four_steps 를
    열 때 다시 배치한 레이아웃 객체 4,231 → 1,244). 펼치면 재어 넘치는 상자를 영역으로 만들고, 다시 접으면 내려놓습니다."""
    page = phone.open(page_url("four_steps.md"))
    phone.read_through(whole_page=False)
    closed = {"region": None, "tabindex": None, "name": None}
    assert page.evaluate(CLOSED_BOX_JS, False) == closed
    opened = page.evaluate(CLOSED_BOX_JS, True)
    assert opened["region"] == "region" and opened["tabindex"] == "0" and opened["name"].endswith("가로로 스크롤"), (
        opened
    )
    assert page.evaluate(CLOSED_BOX_JS, False) == closed
    phone.assert_clean()


BOX_JS = """() => {
  // 접히지 않은 첫 코드 상자와 실행 결과 상자, 접은 상자(풀이) 속 실행 결과 상자: 글이 들어가는 폭(글자 크기 단위)
  document.querySelectorAll('article details').forEach(d => { d.open = true; });
  const inner = (el) => {
    const s = getComputedStyle(el);
    return (el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)) / parseFloat(s.fontSize);
  };
  const advance = (el, text) => {
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'pre';
    probe.textContent = text.repeat(20);
    el.appendChild(probe);
    const width = probe.getBoundingClientRect().width / 20 / parseFloat(getComputedStyle(el).fontSize);
    probe.remove();
    return width;
  };
  const code = [...document.querySelectorAll('article pre > code')].find(c => !c.closest('details, .cell-output'));
  const out = [...document.querySelectorAll('article .cell-output > pre')];
  const top = out.find(p => !p.closest('details')), folded = out.find(p => p.closest('details'));
  return {code: inner(code), latin: advance(code, 'x'), hangul: advance(code, '가'),
          output: top ? inner(top) : null, folded: folded ? inner(folded) : null};
}"""


@pytest.mark.parametrize("doc", ["why_scale.md", "practice/part1_numpy_attention.ipynb"])
def test_phone_boxes_are_as_wide_as_the_layout_checks_assume(phone, doc):
    """tests/test_phone_boxes.py 는 375 px 화면의 코드·실행 결과 상자 폭을, sitebuild/lines.py 는 글자 폭을 숫자로 둡니다 (빌드 없이 재려고).
    그 숫자가 브라우저에서 실제로 보이는 것보다 너그럽지 않은지 여기서 확인합니다: 상자는 적어도 그만큼 넓고,
    고정폭 글자는 라틴 0.602em, 한글 1em 보다 넓지 않습니다."""
    from sitebuild.lines import NARROW_EM, WIDE_EM
    from test_phone_boxes import OUTPUT_BOX_EM, box_em

    page = phone.open(page_url(doc))
    page.evaluate("document.fonts.ready")
    got = page.evaluate(BOX_JS)
    assert got["code"] >= box_em(doc) - 0.02, got
    assert got["latin"] <= NARROW_EM + 0.002 and got["hangul"] <= WIDE_EM + 0.002, got
    if doc.endswith(".md"):
        assert got["output"] >= OUTPUT_BOX_EM["page"] - 0.02, got
        assert got["folded"] >= OUTPUT_BOX_EM["details"] - 0.02, got
    phone.assert_clean()


SITE_CSS = Path(__file__).resolve().parent.parent / "docs" / "assets" / "site.css"


def site_font_stack(name):
    """site.css 의 :root 에 적힌 글꼴 목록 (--md-text-font 또는 --md-code-font) → ["Pretendard", …, "sans-serif"]."""
    value = re.search(rf"--{name}:\s*([^;]+);", SITE_CSS.read_text(encoding="utf-8")).group(1)
    return [f.strip().strip('"') for f in value.split(",")]


def installed_first(stack):
    """목록에서 이 컴퓨터에 설치된 첫 글꼴 (fc-list). 목록의 일반 이름(system-ui, sans-serif, monospace)에 먼저 닿으면 None.

    ui-monospace 와 -apple-system 은 Apple 기기의 이름이라 Linux 의 Chromium 에서는 아무 글꼴도 가리키지 않고 건너뜁니다.
    """
    families = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True).stdout
    known = {f.strip() for line in families.splitlines() for f in line.split(",")}
    for family in stack:
        if family in known:
            return family
        if family in ("system-ui", "sans-serif", "monospace"):
            return None
    return None


FONT_TARGETS = {  # 이름 → (CSS 선택자, 목록)
    "본문": ("article p", "md-text-font"),
    "제목": ("article h2", "md-text-font"),
    "탐색 서랍": (".md-nav__link", "md-text-font"),
    "검색 창": (".md-search__input", "md-text-font"),
    "글줄 속 코드": ("article p code", "md-code-font"),
    "코드 블록": ("article pre > code", "md-code-font"),
    "실행 결과": ("article .cell-output samp", "md-code-font"),
}


def test_the_sites_font_stacks_apply(desktop, korean_font):
    """site.css 의 글꼴 목록이 정말 쓰입니다: 본문·제목·탐색·검색 창은 한글 글꼴 목록, 코드·실행 결과는 고정폭 목록으로
    시작하고 (Material 은 body 에 제 목록을 두어 :root 의 --md-*-font-family 를 덮었습니다), 글자는 그 목록에서 이
    컴퓨터에 설치된 첫 글꼴 하나로만 그려집니다 (CDP 의 CSS.getPlatformFontsForNode: 한글도 영문도, 대신 그린 글꼴 없이)."""
    page = desktop.open("four_steps/")
    cdp = desktop.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    problems = []
    for name, (selector, var) in FONT_TARGETS.items():
        stack = site_font_stack(var)
        computed = page.evaluate("s => getComputedStyle(document.querySelector(s)).fontFamily", selector)
        got = [f.strip().strip('"') for f in computed.split(",")]
        if got[: len(stack)] != stack:
            problems.append(f"{name}: 계산된 글꼴 목록이 {computed!r}")
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        used = {f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}
        want = installed_first(stack)
        assert want, f"{name}: 목록 {stack} 의 글꼴이 이 컴퓨터에 하나도 없습니다 (fonts-noto-cjk)"
        if used != {want}:
            problems.append(f"{name}: {sorted(used)} 로 그렸습니다 ({want} 이어야 합니다)")
    assert not problems, "\n".join(problems)
    desktop.assert_clean()


# 접은 상자 속 코드 블록마다: 복사 단추 묶음(.md-code__nav)의 사각형과 코드 글자의 사각형(글 조각마다, 줄마다)이 겹치는 곳.
COPY_BUTTON_JS = """async () => {
  document.querySelectorAll('article details').forEach(d => { d.open = true; });
  const codes = [...document.querySelectorAll('article details pre > code')].filter(c => c.getClientRects().length);
  const out = {blocks: 0, covered: []};
  for (const code of codes) {
    code.scrollIntoView({block: 'center'});  // Material 은 블록이 화면에 들어올 때 단추를 붙입니다 (content.lazy)
    let nav = null;
    for (let k = 0; k < 200 && !(nav = code.parentElement.querySelector('.md-code__nav')); k++) {
      await new Promise(r => setTimeout(r, 10));
    }
    if (!nav) continue;
    out.blocks += 1;
    const b = nav.getBoundingClientRect();
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), range = document.createRange();
    for (let n; (n = walker.nextNode());) {
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        const w = Math.min(r.right, b.right) - Math.max(r.left, b.left), h = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
        if (r.width > 0 && w > 0.5 && h > 0.5) out.covered.push(n.data.trim().slice(0, 40));
      }
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize(
    ("doc", "screen"),
    [("four_steps.md", "phone"), ("real_model.md", "phone"), ("efficient.md", "phone"), ("four_steps.md", "desktop")],
)
def test_the_copy_button_covers_no_code_in_collapsed_blocks(request, korean_font, doc, screen):
    """접은 상자 속 코드(줄을 접습니다)에서 복사 단추가 어떤 글자도 가리지 않습니다: 단추의 사각형과 글자의 사각형이 겹치는
    곳 0 (site.css 의 code::before 띄움). 대조군: 그 띄움을 없애면 같은 페이지에서 가려지는 줄이 생깁니다."""
    tab = request.getfixturevalue(screen)
    page = tab.open(page_url(doc))
    got = page.evaluate(COPY_BUTTON_JS)
    assert got["blocks"] >= 5, got  # 잰 블록이 있습니다
    assert not got["covered"], f"{doc} ({screen}): 복사 단추에 가린 글 {len(got['covered'])}곳 {got['covered'][:8]}"
    if screen == "phone":
        page.add_style_tag(content=".md-typeset details pre > code::before { display: none }")
        assert page.evaluate(COPY_BUTTON_JS)["covered"], "띄움이 없어도 가린 곳이 없습니다: 검사가 헛돕니다"
    tab.assert_clean()
