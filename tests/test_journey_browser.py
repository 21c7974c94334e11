"""2장의 "실제 모델에서 쿼리 하나 따라가기"(docs/assets/journey.js)를 실제 브라우저(Debian chromium + Playwright)에서 봅니다.

- 단계마다(막대의 화살표 키로) 화면의 숫자가 모두 numpy 코어(attention.scaled_dot_product_attention, 데이터의 float32 값을
  float64 로)와 같고, 그 단계에 다다른 숫자만 보입니다. 글의 {이름} 자리는 모두 채워져 있습니다.
- 키 이름을 고르면(누르기, 화살표 키) ① 의 글이 그 키의 그림자와 q·k 를 보입니다.
- 재생·멈춤·다음: 재생하는 동안에도 보이는 숫자는 참값이고, 주 스레드에 긴 작업(50 ms 이상)이 없습니다. 다음은 그리지
  않고 곧바로 다음 단계의 끝 상태로 갑니다 (재생 도중에도).
- ③·④ 의 글은 독자가 고른 키를 풀어 씁니다.
- 375 px 터치: 단추를 두드리고 막대를 손가락으로 끌어도 숫자가 numpy 와 같고, 가로로 넘치지 않으며, 누르는 것은 24 px 이상입니다.
- prefers-reduced-motion: 움직이는 그림 없이(t 가 단계 사이의 값을 거치지 않고) 재생과 다음이 단계를 넘깁니다.
- 두 팔레트: axe-core 위반이 없고, 선의 색이 배경과 3:1 이상입니다.
- 페이지를 처음 열 때는 데이터를 받지 않고, 독자가 그 자리 가까이 내려올 때 받습니다. JavaScript 가 없으면 상자는 숨고 접힌
  글(같은 숫자를 찍는 코드)이 남습니다.
"""

import json
import math

import numpy as np
import pytest

from browser import PHONE, Tab, fetched, without_javascript
from support import colour

pytestmark = pytest.mark.browser

SIDES = ("score", "scaled", "weight", "part")
DIGITS = {
    "score": 2,
    "scaled": 2,
    "weight": 3,
    "part": 3,
    "shadow": 2,
    "q_len": 2,
    "sqrt_d": 2,
    "gap": 2,
    "ratio": 1,
    "w_sum": 3,
    "o_len": 3,
    "top_part": 3,
    "n": 0,
    "layer": 0,
    "head": 0,
    "layers": 0,
    "heads": 0,
    "d_k": 0,
}


@pytest.fixture(scope="module")
def data(built_site):
    site, _ = built_site
    return json.loads((site / "data" / "journey-e5.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ref(data):
    """numpy 코어로 계산한 화면의 모든 수 (데이터의 float32 값을 float64 로: 브라우저의 Math.fround 와 같은 되읽기)."""
    from attention import scaled_dot_product_attention

    def f64(x):
        return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)

    q, K, V = f64(data["q"]), f64(data["k"]), f64(data["v"])
    out, w = scaled_dot_product_attention(q[None], K, V)
    scores, sqrt_d = K @ q, math.sqrt(data["d_k"])
    o_len = float(np.linalg.norm(out[0]))
    part = w[0] * (V @ (out[0] / o_len))
    order = [int(j) for j in np.argsort(-w[0], kind="stable")]
    top, second = order[0], order[1]
    gap = scores[top] / sqrt_d - scores[second] / sqrt_d
    q_len = float(np.linalg.norm(q))
    return {
        "score": scores,
        "scaled": scores / sqrt_d,
        "weight": w[0],
        "part": part,
        "order": order,
        "q_len": q_len,
        "shadow": scores / q_len,
        "sqrt_d": sqrt_d,
        "gap": gap,
        "ratio": math.exp(gap),
        "w_sum": float(w[0].sum()),
        "o_len": o_len,
        "top_part": part[top],
        "n": len(data["tokens"]),
        "layer": data["layer"],
        "head": data["head"],
        "layers": data["layers"],
        "heads": data["heads"],
        "d_k": data["d_k"],
    }


STATE_JS = """() => {
  const root = document.querySelector('.journey');
  const cells = tr => Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map(td =>
    [td.dataset.key, td.dataset.value === undefined ? null : [Number(td.dataset.value), td.textContent]]));
  const range = root.querySelector('.journey__range');
  return {
    t: Number(root.dataset.t), stage: root.dataset.stage, focus: Number(root.dataset.focus),
    rows: [...root.querySelectorAll('.journey__table tbody tr')].map(cells),
    sums: cells(root.querySelector('.journey__table tfoot tr')),
    nums: [...root.querySelectorAll('.journey__num')].map(s => [s.dataset.name, Number(s.dataset.value), s.textContent]),
    text: root.textContent, caption: root.querySelector('.journey__caption').textContent,
    valuetext: range.getAttribute('aria-valuetext'), range: Number(range.value),
    play: root.querySelector('.journey__play').textContent,
    pressed: [...root.querySelectorAll('.journey__pick')].map(b => b.getAttribute('aria-pressed')),
    label: root.querySelector('.journey__plane').getAttribute('aria-label'),
  };
}"""


def shown_right(text, value, digits):
    """화면의 글자가 그 자리수로 반올림한 값인지 (반올림 경계의 마지막 비트 차이만 봐 줍니다)."""
    assert len(text.split(".")[1]) == digits if digits else "." not in text, (text, digits)
    return abs(float(text) - value) <= 0.5 * 10.0**-digits + 1e-12


def check(state, ref, data):
    """화면의 숫자가 모두 numpy 와 같고, 지금 t 에 다다른 숫자만 보이는지. 검사한 숫자의 수를 돌려줍니다."""
    t, n, checked = state["t"], ref["n"], 0
    eps = 1e-9
    due = {
        "score": lambda j: t >= (j + 1) / n - eps,
        "scaled": lambda j: t >= 2 - eps,
        "weight": lambda j: t >= 3 - eps,
        "part": lambda j: t >= 3 + (ref["order"].index(j) + 1) / n - eps,
    }
    assert len(state["rows"]) == n
    for j, row in enumerate(state["rows"]):
        for side in SIDES:
            cell = row[side]
            assert (cell is not None) == due[side](j), (t, j, side, cell)
            if cell is not None:
                want = ref[side][j]
                assert cell[0] == pytest.approx(want, rel=1e-12, abs=1e-14), (side, j)
                assert shown_right(cell[1], want, DIGITS[side]), (side, j, cell[1], want)
                checked += 1
    for side, due_sum, want in (("weight", t >= 3 - eps, ref["w_sum"]), ("part", t >= 4 - eps, ref["o_len"])):
        cell = state["sums"][side]
        assert (cell is not None) == due_sum, (t, side)
        if cell is not None:
            assert cell[0] == pytest.approx(want, rel=1e-12) and shown_right(cell[1], want, 3)
            checked += 1
    assert state["sums"]["score"] is None and state["sums"]["scaled"] is None
    focus = state["focus"]
    for name, value, text in state["nums"]:
        want = per_key(ref, focus).get(name, ref[name])
        assert value == pytest.approx(want, rel=1e-12, abs=1e-14), name
        assert shown_right(text, want, DIGITS[name]), (name, text, want)
        checked += 1
    assert "{" not in state["text"] and "}" not in state["text"], "채우지 않은 자리가 있습니다"
    assert "undefined" not in state["text"] and "NaN" not in state["text"]
    return checked


def per_key(ref, focus):
    """고른 키 focus 에 따라 글이 말하는 값: 그 키의 그림자·q·k·가중치·몫, 그리고 ③ 이 견주는 간격(고른 키와 1등, 고른 키가
    1등이면 둘째)과 그 비."""
    top, second = ref["order"][0], ref["order"][1]
    other = second if focus == top else top
    gap = abs(ref["scaled"][focus] - ref["scaled"][other])
    return {
        **{name: ref[name][focus] for name in ("shadow", "score", "weight", "part")},
        "gap": gap,
        "ratio": math.exp(gap),
        "other": other,
    }


def open_journey(tab, scheme="light"):
    page = tab.open("four_steps/", scheme=scheme)
    page.locator(".journey").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_function(
        "() => document.querySelector('.journey').getAttribute('data-ready') === 'yes'", timeout=20_000
    )
    return page


def wait_stage(page, stage):
    page.wait_for_function(f"() => document.querySelector('.journey').dataset.stage === '{stage}'", timeout=10_000)


def test_every_step_shows_the_numpy_numbers(desktop, ref, data):
    """막대에 초점을 두고 화살표 키로 한 단계씩: 단계마다 보이는 숫자가 numpy 와 같고, 막대가 단계의 이름을 읽어 줍니다."""
    page = open_journey(desktop)
    state = page.evaluate(STATE_JS)
    assert state["t"] == 0 and state["stage"] == "0" and check(state, ref, data) >= 5
    assert state["focus"] == ref["order"][0] and data["tokens"][state["focus"]] == "▁학교"
    page.locator(".journey__range").focus()
    counts = []
    for stage in range(1, 5):
        page.keyboard.press("ArrowRight")
        wait_stage(page, stage)
        state = page.evaluate(STATE_JS)
        assert state["range"] == stage and data["stages"][stage]["name"] in state["valuetext"]
        counts.append(check(state, ref, data))
        assert data["stages"][stage]["title"].split("{")[0] in state["caption"]
    # ① 10 + 글 3, ② +10, ③ +10 +합, ④ +10 +합: 모든 칸이 채워집니다
    assert counts[-1] == 4 * ref["n"] + 2 + len(state["nums"])
    assert state["label"].startswith("밸류")
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")  # 끝에서는 그대로
    assert page.evaluate(STATE_JS)["t"] == 4
    page.keyboard.press("Home")
    wait_stage(page, 0)
    page.keyboard.press("PageUp")
    wait_stage(page, 1)
    check(page.evaluate(STATE_JS), ref, data)
    desktop.assert_clean()


def test_picking_a_key_shows_its_shadow_and_score(desktop, ref, data):
    """표의 키 이름(한 번의 Tab 으로 들어오는 단추 묶음): 누르거나 화살표 키로 고르면 ① 의 글이 그 키의 그림자 × |q| = q·k 를
    보이고, 그림의 강조가 따라갑니다."""
    page = open_journey(desktop)
    page.locator(".journey__range").focus()
    page.keyboard.press("ArrowRight")
    wait_stage(page, 1)
    page.locator(".journey__pick").nth(2).click()
    state = page.evaluate(STATE_JS)
    assert state["focus"] == 2 and state["pressed"][2] == "true" and state["pressed"].count("true") == 1
    assert check(state, ref, data) and f"“{data['tokens'][2]}”" in state["caption"]
    page.keyboard.press("ArrowDown")
    state = page.evaluate(STATE_JS)
    assert state["focus"] == 3 and page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    names = {name for name, _, _ in state["nums"]}
    assert {"shadow", "q_len", "score"} <= names
    check(state, ref, data)
    # 단추 묶음은 Tab 자리가 하나입니다
    assert page.locator(".journey__pick[tabindex='0']").count() == 1
    assert page.locator(".journey__key.is-focus").count() == 1
    desktop.assert_clean()


def longest_main_thread_task(trace):
    """Chromium 의 trace(JSON) → 렌더러 주 스레드(CrRendererMain)의 작업 가운데 가장 긴 것의 (CPU 시간, 벽시계 시간) ms.

    긴 작업(long task)은 벽시계로 50 ms 이상인 작업입니다. 이 기계처럼 코어 둘을 여럿이 나눠 쓰면 운영체제가 렌더러를 잠시
    멈춘 시간까지 벽시계에 들어가므로(부하 평균 7 에서 PerformanceObserver 가 71 ms 를 본 적이 있습니다), 페이지의 일이 정말
    긴지는 그 스레드가 실제로 쓴 CPU 시간(trace 의 tdur)으로 봅니다."""
    events = json.loads(trace)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    tasks = [
        e
        for e in events
        if e.get("name") == "ThreadControllerImpl::RunTask"
        and e.get("ph") == "X"
        and "tdur" in e
        and names.get((e["pid"], e["tid"])) == "CrRendererMain"
    ]
    assert len(tasks) > 100, "trace 에 렌더러 주 스레드의 작업이 거의 없습니다"
    longest = max(tasks, key=lambda e: e["tdur"])
    return longest["tdur"] / 1000, longest["dur"] / 1000


def test_play_pause_step_without_long_tasks(desktop, ref, data):
    """재생하면 t 가 프레임마다 조금씩 늘고(그동안 보이는 숫자도 참값), 멈추면 그 자리에 머물고, 다음은 다음 단계에서 멈춥니다.
    ④ 로 넘어가 밸류를 이어 붙이는 데까지 재생하는 동안 주 스레드의 어떤 작업도 50 ms(CPU 시간)에 이르지 않습니다."""
    page = open_journey(desktop)
    browser = page.context.browser
    browser.start_tracing(page=page, categories=["devtools.timeline", "toplevel"])
    play = page.locator(".journey__play")
    play.click()
    page.wait_for_function("() => Number(document.querySelector('.journey').dataset.t) > 0.3")
    state = page.evaluate(STATE_JS)
    assert 0 < state["t"] < 1 and state["play"] == "멈춤" and state["stage"] == ""
    check(state, ref, data)
    play.click()
    paused = page.evaluate(STATE_JS)
    page.wait_for_timeout(300)
    assert page.evaluate(STATE_JS)["t"] == paused["t"] and paused["play"] == "재생"
    check(paused, ref, data)
    # 멈춘 자리(① 의 도중)에서 다음: 그리지 않고 곧바로 ② 의 끝 상태 (지금 글이 보이는 단계 ① 의 다음 단계)
    page.evaluate(RECORD_JS)
    page.locator(".journey__next").click()
    state = page.evaluate(STATE_JS)
    assert state["t"] == 2 and state["stage"] == "2" and page.evaluate("window.__ts") == [2]
    check(state, ref, data)
    # 단계 끝에 멈춰 있으면 다음은 곧바로 다음 단계의 끝
    page.locator(".journey__next").click()
    assert page.evaluate(STATE_JS)["t"] == 3
    # ③ 끝 가까이에서 끝까지: 키 그림에서 밸류 그림으로 바뀌고 밸류를 이어 붙입니다
    page.locator(".journey__range").evaluate("r => { r.value = '2.9'; r.dispatchEvent(new Event('input')); }")
    assert page.evaluate(STATE_JS)["t"] == pytest.approx(2.9)
    play.click()
    page.wait_for_function("() => Number(document.querySelector('.journey').dataset.t) > 3.4")
    check(page.evaluate(STATE_JS), ref, data)
    wait_stage(page, 4)
    state = page.evaluate(STATE_JS)
    check(state, ref, data)
    assert state["play"] == "재생"
    assert page.locator(".journey__link:not([style*='none'])").count() == ref["n"]
    cpu, wall = longest_main_thread_task(browser.stop_tracing())
    assert cpu < 50, f"재생 중 가장 긴 작업: CPU {cpu:.0f} ms (벽시계 {wall:.0f} ms)"
    print(f"재생 중 가장 긴 작업: CPU {cpu:.1f} ms, 벽시계 {wall:.1f} ms")
    # 끝에서 다시 재생하면 처음부터
    play.click()
    page.wait_for_function("() => Number(document.querySelector('.journey').dataset.t) < 1")
    page.locator(".journey__first").click()
    wait_stage(page, 0)
    desktop.assert_clean()


def test_next_during_playback_jumps_to_the_next_steps_end(desktop, ref, data):
    """issue 41: 단계 하나를 그리는 데 3.2 초까지 걸립니다. 재생 도중에 누른 다음은 그 단계를 마저 그리지 않고, 곧바로 다음
    단계의 끝 상태로 가서 멈춥니다 (그 사이의 t 를 지나지 않습니다)."""
    page = open_journey(desktop)
    page.locator(".journey__play").click()
    page.wait_for_function("() => Number(document.querySelector('.journey').dataset.t) > 0.2")
    # 재생 중인 같은 작업 안에서 누르고 곧바로 읽습니다: 누른 뒤에 바뀐 t 만 기록합니다
    t_now = page.evaluate("""() => { const root = document.querySelector('.journey'); window.__ts = [];
      new MutationObserver(() => window.__ts.push(Number(root.dataset.t)))
        .observe(root, {attributes: true, attributeFilter: ['data-t']});
      const before = Number(root.dataset.t);
      root.querySelector('.journey__next').click();
      return [before, Number(root.dataset.t)]; }""")
    assert 0 < t_now[0] < 1 and t_now[1] == 2, t_now
    page.wait_for_timeout(300)
    state = page.evaluate(STATE_JS)
    assert state["t"] == 2 and state["play"] == "재생" and set(page.evaluate("window.__ts")) == {2}
    check(state, ref, data)
    desktop.assert_clean()


@pytest.mark.parametrize("pick", [0, 2, None])
def test_steps_3_and_4_name_the_picked_key(desktop, ref, data, pick):
    """issue 41: ③ 과 ④ 의 글은 독자가 표에서 고른 키를 풀어 씁니다 (전에는 무엇을 골라도 가중치 1등 ▁학교 였습니다).
    고른 키가 1등이면 둘째와, 아니면 1등과 견줍니다. 글의 숫자는 그 키의 numpy 값입니다 (check)."""
    page = open_journey(desktop)
    top = ref["order"][0]
    focus = top if pick is None else pick
    assert pick is None or pick != top, "고른 키가 1등이 아니어야 검사가 뜻이 있습니다"
    if pick is not None:
        page.locator(".journey__pick").nth(pick).click()
    name = f"“{data['tokens'][focus]}”"
    other = f"“{data['tokens'][per_key(ref, focus)['other']]}”"
    page.locator(".journey__range").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    wait_stage(page, 3)
    state = page.evaluate(STATE_JS)
    assert state["focus"] == focus and check(state, ref, data)
    rank = "둘째인" if focus == top else "1등인"
    assert f"{name}의 점수는 {rank} {other}의 점수보다" in state["caption"], state["caption"]
    assert ("크고" if focus == top else "작고") in state["caption"]
    assert f"{name}의 가중치는" in state["caption"]
    names = {n for n, _, _ in state["nums"]}
    assert {"gap", "ratio", "weight"} <= names
    page.keyboard.press("ArrowRight")
    wait_stage(page, 4)
    state = page.evaluate(STATE_JS)
    assert f"{name}에서 온 몫이" in state["caption"] and check(state, ref, data)
    assert "part" in {n for n, _, _ in state["nums"]}
    if focus != top:
        assert "“▁학교”에서 온 몫" not in state["caption"]
    desktop.assert_clean()


def client_of_range(page, f):
    """막대의 f (0..1) 자리의 화면 좌표"""
    box = page.locator(".journey__range").bounding_box()
    return box["x"] + 8 + (box["width"] - 16) * f, box["y"] + box["height"] / 2


SIZES_JS = """() => [...document.querySelectorAll('.journey button, .journey input')]
  .map(el => { const r = el.getBoundingClientRect(); return {cls: el.className, w: r.width, h: r.height}; })"""


def test_touch_at_375(touch, ref, data):
    """손가락만 쓰는 375 px 화면: 다음 단추를 두드리고 막대를 끌어도 숫자가 numpy 와 같고, 상자는 화면 안에 있습니다."""
    page = open_journey(touch)
    for stage in (1, 2):
        page.locator(".journey__next").tap()
        wait_stage(page, stage)
    check(page.evaluate(STATE_JS), ref, data)
    cdp = page.context.new_cdp_session(page)
    start, end = client_of_range(page, 0.5), client_of_range(page, 0.9)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for f in np.linspace(0.1, 1.0, 8):
        x = start[0] + (end[0] - start[0]) * f
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": start[1]}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => Number(document.querySelector('.journey').dataset.t) > 3.2")
    state = page.evaluate(STATE_JS)
    assert 3.2 < state["t"] < 4 and state["play"] == "재생"
    check(state, ref, data)
    page.locator(".journey__pick").nth(4).tap()
    assert page.evaluate(STATE_JS)["focus"] == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for part in (".journey", ".journey__table", ".journey__plane", ".journey__controls"):
        right = page.evaluate(f"document.querySelector('{part}').getBoundingClientRect().right")
        assert right <= PHONE["width"], part
    assert page.evaluate("(w => w.scrollWidth <= w.clientWidth)(document.querySelector('.journey__tablewrap'))")
    small = [s for s in page.evaluate(SIZES_JS) if s["w"] < 24 or s["h"] < 24]
    assert not small, small
    touch.assert_clean()


RECORD_JS = """() => { window.__ts = [];
  new MutationObserver(() => window.__ts.push(Number(document.querySelector('.journey').dataset.t)))
    .observe(document.querySelector('.journey'), {attributes: true, attributeFilter: ['data-t']}); }"""


def test_reduced_motion_steps_without_animation(browser, server, ref, data):
    """prefers-reduced-motion: 재생은 단계를 하나씩 넘기고(사이의 t 를 지나지 않음), 다음은 곧바로 다음 단계입니다."""
    tab = Tab(browser, server, PHONE, reduced_motion="reduce")
    try:
        page = open_journey(tab)
        page.evaluate(RECORD_JS)
        page.locator(".journey__play").click()
        wait_stage(page, 1)
        assert page.evaluate(STATE_JS)["play"] == "멈춤"
        wait_stage(page, 2)
        page.locator(".journey__play").click()
        page.wait_for_timeout(200)
        state = page.evaluate(STATE_JS)
        assert state["t"] == 2 and state["play"] == "재생"
        check(state, ref, data)
        page.locator(".journey__next").click()
        wait_stage(page, 3)
        page.locator(".journey__prev").click()
        wait_stage(page, 2)
        seen = page.evaluate("window.__ts")
        assert seen and all(t == int(t) for t in seen), seen
        assert seen[:2] == [1, 2]
        tab.assert_clean()
    finally:
        tab.close()


COLORS_JS = """() => {
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  let el = document.querySelector('.journey'), bg = 'rgba(0, 0, 0, 0)';
  while (el && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) { bg = getComputedStyle(el).backgroundColor; el = el.parentElement; }
  if (/rgba\\(0, 0, 0, 0\\)/.test(bg)) bg = getComputedStyle(document.body).backgroundColor;
  const line = sel => { const e = document.querySelector(sel), s = getComputedStyle(e);
    return s.stroke === 'none' ? [sel, rgba(s.fill), Number(s.fillOpacity)] : [sel, rgba(s.stroke), Number(s.strokeOpacity)]; };
  return {bg: rgba(bg), lines: ['.journey__q', '.journey__key:not(.is-focus)', '.journey__key.is-focus', '.journey__guide',
                                '.journey__foot', '.journey__value:not(.is-focus)', '.journey__link:not(.is-focus)',
                                '.journey__o'].map(line)};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_palettes_axe_and_contrast(phone, scheme):
    """두 팔레트의 375 px: 키 그림(①)과 밸류 그림(④)에서 axe-core 위반이 없고, 선의 색(투명도를 배경에 섞은 색)이 배경과 3:1 이상."""
    from axe_playwright_python.sync_playwright import Axe

    page = open_journey(phone, scheme=scheme)
    for stage in (1, 4):
        page.locator(".journey__range").evaluate(
            f"r => {{ r.value = '{stage}'; r.dispatchEvent(new Event('input')); }}"
        )
        wait_stage(page, stage)
        colors = page.evaluate(COLORS_JS)
        bg = colors["bg"][:3]
        for sel, (r, g, b, a), opacity in colors["lines"]:
            alpha = a * opacity
            mixed = [alpha * c + (1 - alpha) * d for c, d in zip((r, g, b), bg)]
            assert colour.contrast(mixed, bg, scale=255) >= 3.0, (scheme, sel, mixed, bg)
        violations = Axe().run(page, context={"include": [[".journey"]]}).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
    phone.assert_clean()


def test_data_comes_only_when_the_reader_comes_near(phone):
    """페이지를 처음 열 때는 그림의 스크립트도 데이터도 받지 않습니다. 앞의 q·k 그림까지 내려오면 스크립트는 오지만(같은 페이지의
    도구들은 함께 붙습니다, overrides/main.html) 데이터는 아직이고, 따라가기 그림 가까이 와야 데이터를 받아 그립니다."""
    page = phone.open("four_steps/")
    page.wait_for_timeout(400)
    assert fetched(page, "journey*") == []
    box = page.locator(".journey")
    assert box.get_attribute("data-ready") == "waiting"
    page.locator(".qk-picture").evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_function("() => document.querySelector('.qk-picture').getAttribute('data-ready') === 'yes'")
    page.wait_for_timeout(300)
    assert "journey-e5.json" not in fetched(page, "journey*")
    assert box.get_attribute("data-ready") == "waiting"
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_function("() => document.querySelector('.journey').getAttribute('data-ready') === 'yes'")
    assert sorted(fetched(page, "journey*")) == ["journey-e5.json", "journey.css", "journey.js"]
    phone.assert_clean()


def test_without_javascript_the_folded_code_remains(browser, server):
    with without_javascript(browser, server, "four_steps/") as page:
        assert not page.locator(".journey").is_visible()
        summary = page.locator("details summary", has_text="실제 모델의 숫자를 코어로")
        assert summary.count() == 1
