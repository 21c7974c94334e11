"""먼저 예상하고 확인하는 문제(docs/assets/predict.js)와 2장의 움직이는 q·k 그림(docs/assets/qk-picture.js)을
실제 브라우저(Debian chromium + Playwright)에서 확인합니다 (issue 33).

- 문제마다 정답과 내다본 오답 하나하나, 그 밖의 답, 읽을 수 없는 글을 적어(보기는 하나하나 골라) 확인을 누르고,
  화면의 말이 빌드한 데이터(data/<장>-quiz_N.json)의 글과 숫자 그대로인지 봅니다. 그 데이터는 스니펫의 data_quiz_N() 과
  같습니다. 키보드만으로도 답하고, 말은 화면 읽기 프로그램에 알리는 자리(role=status, aria-live)에 나옵니다.
- 독자가 적은 글 읽기(목록, √, ^, ², 분수, %, 단위): tests/test_quizzes.py 의 READING_CASES 표와 무작위 글에서
  브라우저의 predictQuiz.respond 가 파이썬의 predict.respond 와 판정·말·읽은 값까지 같습니다 (issue 39).
- 그림: 처음 상태, 키보드(화살표), 마우스로 끌기, 손가락(터치)으로 끌기, "처음 위치로" 뒤의 숫자가 모두 numpy 코어
  (attention.scaled_dot_product_attention, d_k = 2)와 같습니다. 상태를 글로 알리는 자리(aria-live)도 같은 숫자를 말합니다.
- 375 px 에서 가로로 넘치지 않고, 누르는 것은 24 × 24 px 이상이며, 두 팔레트에서 axe-core 위반이 없고 선의 색이
  배경과 3:1 이상입니다. JavaScript 가 꺼져 있으면 상자는 숨고, 문제와 접힌 풀이는 그대로입니다.
"""

import importlib
import json
import re

import numpy as np
import pytest

from browser import PHONE, Tab, without_javascript
from predict import fill
from support import colour

pytestmark = pytest.mark.browser

DATA = {}


def questions():
    """(페이지, 문제 번호) — 예상하고 확인하기 상자가 있는 모든 문제 (tests/test_quizzes.py 와 같은 목록)."""
    from test_quizzes import PREDICT_QUESTIONS

    return PREDICT_QUESTIONS


def page_path(page):
    return page.removesuffix(".md") + "/"


def snippet_data(page, n):
    return getattr(importlib.import_module(page.removesuffix(".md")), f"data_quiz_{n}")()


def judge(q, x):
    """predict.js 의 judge 와 같은 규칙 (테스트가 적을 수를 고를 때 씁니다)."""
    if abs(x - q["answer"]) <= q["tolerance"]:
        return "right", -1
    for i, w in enumerate(q["wrong"]):
        hit = abs(x - w["value"]) <= w["tolerance"] if "value" in w else w["low"] < x < w["high"]
        if hit:
            return "wrong", i
    return "other", -1


def typed(x):
    """독자가 적을 법한 글: 소수 여섯 자리까지, 불필요한 0 없이."""
    return f"{x:.6g}"


def answers_to_try(q):
    """(적을 글, 기대하는 판정, 오답 번호) — 정답, 오답마다 하나, 그 밖의 답."""
    tries = [(typed(q["answer"]), "right", -1)]
    for i, w in enumerate(q["wrong"]):
        if "value" in w:
            candidates = [w["value"]]
        else:
            lo, hi = w["low"], w["high"]
            candidates = [lo + (hi - lo) * f for f in (0.5, 0.4, 0.6, 0.3, 0.7, 0.15, 0.85)]
        x = next(c for c in candidates if judge(q, float(typed(c))) == ("wrong", i))
        tries.append((typed(x), "wrong", i))
    far = next(x for x in (q["answer"] * 10 + 7, -123.0, 9999.0) if judge(q, x)[0] == "other")
    tries.append((typed(far), "other", -1))
    return tries


FEEDBACK_JS = """box => {
  const fb = box.querySelector('.predict__feedback');
  return {verdict: fb.getAttribute('data-verdict'), index: Number(fb.getAttribute('data-index')),
          word: (fb.querySelector('strong') || {}).textContent || '', text: (fb.querySelector('.predict__text') || {}).textContent,
          role: fb.getAttribute('role'), live: fb.getAttribute('aria-live'), id: fb.id};
}"""


def box_of(page, path):
    box = page.locator(f'.predict[data-src="../data/{path}"]')
    box.scroll_into_view_if_needed()
    page.wait_for_function("b => b.getAttribute('data-ready') === 'yes'", arg=box.element_handle(), timeout=20_000)
    return box


def submit_and_read(page, box):
    """확인을 누르고 새 말을 읽습니다. 누르는 순간 스크립트가 말을 비우고 다음 프레임에 채웁니다."""
    box.locator("button[type=submit]").click()
    page.wait_for_function("b => b.querySelector('.predict__feedback .predict__text')", arg=box.element_handle())
    return box.evaluate(FEEDBACK_JS)


WORDS = {"right": "맞습니다.", "wrong": "아닙니다.", "other": "아닙니다.", "partly": "일부만 맞습니다."}


@pytest.mark.parametrize(("page", "n"), questions())
def test_each_answer_gets_its_feedback_with_the_builds_numbers(desktop, page, n):
    """정답, 내다본 오답 하나하나, 그 밖의 답, 읽을 수 없는 글: 판정과 말이 빌드한 데이터 그대로입니다."""
    tab = desktop.open(page_path(page))
    name = f"{page.removesuffix('.md')}-quiz_{n}.json"
    box = box_of(tab, name)
    built = tab.evaluate("async src => await (await fetch(src)).json()", f"../data/{name}")
    assert built == json.loads(json.dumps(snippet_data(page, n))), "빌드한 데이터가 스니펫의 data_quiz_N() 과 다릅니다"
    values = built["values"]

    def read():
        return submit_and_read(tab, box)

    if built["kind"] == "number":
        field = box.locator("input.predict__input")
        label = box.locator("label.predict__label")
        assert label.get_attribute("for") == field.get_attribute("id") and label.inner_text() == fill(
            built["label"], values
        )
        tries = answers_to_try(built)
        for text, verdict, index in tries:
            field.fill(text)
            got = read()
            want = (
                built["right"]
                if verdict == "right"
                else built["wrong"][index]["feedback"]
                if index >= 0
                else built["other"]
            )
            assert (got["verdict"], got["index"]) == (verdict, index), (text, got)
            assert got["word"] == WORDS[verdict] and got["text"] == fill(want, values), (text, got)
        if built["more"]:
            # 함께 묻는 값들: 모두 맞게 적으면 정답, 첫 값만 틀리면 값마다 한 줄
            parts = [built, *built["more"]]
            field.fill(", ".join(typed(p["answer"]) for p in parts))
            got = read()
            assert (got["verdict"], got["word"]) == ("right", "맞습니다."), got
            assert got["text"].endswith(fill(built["right"], values)), got
            far = tries[-1][0]
            field.fill(", ".join([far] + [typed(p["answer"]) for p in parts[1:]]))
            got = read()
            assert (got["verdict"], got["word"]) == ("partly", "일부만 맞습니다."), got
            assert f"{built['name']}: {fill(built['other'], values)}" in got["text"], got
        field.fill("모르겠어요")
        got = read()
        assert got["verdict"] == "invalid" and got["word"] == "" and "숫자를 적어" in got["text"]
        assert got["id"] in field.get_attribute("aria-describedby").split()
    else:
        radios = box.locator("input[type=radio]")
        assert radios.count() == len(built["options"])
        assert box.locator("legend").inner_text() == fill(built["legend"], values)
        got = read()  # 아무것도 고르지 않고
        assert got["verdict"] == "invalid" and "보기 하나를 고른" in got["text"]
        for i, option in enumerate(built["options"]):
            box.locator("label.predict__choice").nth(i).click()
            assert radios.nth(i).is_checked()
            got = read()
            verdict = "right" if option["right"] else "wrong"
            assert (got["verdict"], got["index"]) == (verdict, i)
            assert got["word"] == WORDS[verdict] and got["text"] == fill(option["feedback"], values)
    assert got["role"] == "status" and got["live"] == "polite"
    desktop.assert_clean()


def reading_pages():
    from test_quizzes import READING_CASES

    pages = {}
    for page, n, text, *_ in READING_CASES:
        pages.setdefault((page, n), []).append(text)
    return pages


RESPOND_JS = """([q, texts]) => texts.map(t => {
  const r = window.predictQuiz.respond(q, t), read = window.predictQuiz.readAnswer(t, q);
  return [r.verdict, r.index, r.text, read.error ? null : read.items.map(i => i.value)];
})"""


def python_reading(q, text):
    from predict import read_answer, respond

    read = read_answer(text, q)
    return [*respond(q, text), None if read["error"] else [item["value"] for item in read["items"]]]


def assert_same_reading(tab, page, n, texts):
    name = f"{page.removesuffix('.md')}-quiz_{n}.json"
    q = tab.evaluate("async src => await (await fetch(src)).json()", f"../data/{name}")
    for text, js in zip(texts, tab.evaluate(RESPOND_JS, [q, texts]), strict=True):
        py = python_reading(q, text)
        assert js[:3] == py[:3], (page, n, text, js, py)
        assert (js[3] is None) == (py[3] is None), (text, js, py)
        if py[3] is not None:
            assert js[3] == pytest.approx(py[3], rel=1e-12, abs=1e-300), (text, js, py)


def test_the_reading_table_reads_the_same_in_the_browser(desktop):
    """tests/test_quizzes.py 의 READING_CASES 표: 브라우저의 predictQuiz.respond 가 파이썬의 predict.respond 와 글자 하나까지
    같은 판정과 말을 내고, 읽은 값도 같습니다 (분수, 천 단위 쉼표, 목록, √, ^, ², %, 단위, 읽지 못하는 글)."""
    for (page, n), texts in reading_pages().items():
        tab = desktop.open(page_path(page))
        box_of(tab, f"{page.removesuffix('.md')}-quiz_{n}.json")
        assert_same_reading(tab, page, n, texts)
    desktop.assert_clean()


PIECES = [
    "16",
    "4",
    "10",
    "1",
    "0.5",
    ".25",
    "2,359,296",
    "1,0",
    "3",
    "100",
    "−",
    "-",
    "+",
    "/",
    "÷",
    "^",
    "**",
    "²",
    "⁻¹",
    "√",
    "루트",
    "sqrt",
    "(",
    ")",
    "%",
    ",",
    ", ",
    " ",
    "  ",
    "와",
    "과",
    "x",
    "×",
    "배",
    "개",
    "약",
    "쯤",
    "입니다",
    "은",
    "FLOP",
    "메모리",
    "투영",
    "점수",
    "나눈",
    "뒤",
    "전",
    "GiB",
    "MiB",
    "e3",
    "의",
    "~",
    "．",
    "１",
    "😀",
    "=",
    ".",
]


NUMBERS = PIECES[:10]


def random_texts(seed, count):
    """조각 1–6개에 수 하나를 끼운 글 (수가 없는 글은 판정 없이 "숫자를 적어 주세요" 라서 조금만)."""
    rng = np.random.default_rng(seed)
    texts = []
    for _ in range(count):
        pieces = list(rng.choice(PIECES, size=rng.integers(1, 7)))
        pieces.insert(int(rng.integers(0, len(pieces) + 1)), str(rng.choice(NUMBERS)))
        texts.append("".join(pieces))
    return texts


@pytest.mark.parametrize(("page", "n"), [("summary.md", 1), ("why_scale.md", 1), ("efficient.md", 2)])
def test_random_text_reads_the_same_in_python_and_the_browser(desktop, page, n):
    """글 조각을 무작위로 이은 글 400개: 두 구현의 판정, 말, 읽은 값이 같습니다 (표가 빠뜨린 길까지)."""
    tab = desktop.open(page_path(page))
    box_of(tab, f"{page.removesuffix('.md')}-quiz_{n}.json")
    assert_same_reading(tab, page, n, random_texts(n * 1000 + len(page), 400))
    desktop.assert_clean()


@pytest.mark.parametrize(
    ("page", "n", "typed", "verdict", "starts"),
    [
        ("summary.md", 1, "4, 16", "right", "투영 4, 점수 16으로 읽었습니다."),
        ("summary.md", 1, "4 16", "right", "투영 4, 점수 16으로 읽었습니다."),
        ("why_scale.md", 1, "√1048576", "right", "√1048576 = 1,024로 읽었습니다."),
        ("why_scale.md", 1, "2^10", "right", "2^10 = 1,024로 읽었습니다."),
        ("library_analogy.md", 4, "0,5", "unsure", "수 두 개(0, 5)로 읽었습니다."),
    ],
)
def test_issue_39_misreads_are_read_as_the_reader_meant(desktop, page, n, typed, verdict, starts):
    """issue 39: "16, 16" 을 16.16, "16 16" 을 1616 으로 읽어 정답을 틀렸다고 했고, "√100" 과 "10 1" 에 "분산을
    적었습니다" 라고 했습니다 (issue 41 에서 두 문제가 바뀌어, 같은 읽기를 새 정답 "4, 16" 과 "√1048576" 으로 봅니다).
    상자에 적고 확인을 눌러 화면의 판정과 말을 봅니다."""
    tab = desktop.open(page_path(page))
    box = box_of(tab, f"{page.removesuffix('.md')}-quiz_{n}.json")
    box.locator("input.predict__input").fill(typed)
    got = submit_and_read(tab, box)
    assert got["verdict"] == verdict and got["text"].startswith(starts), got
    assert "분산을 적었습니다" not in got["text"]
    assert got["word"] == {"right": "맞습니다.", "unsure": ""}[verdict]
    desktop.assert_clean()


def test_a_question_can_be_answered_with_the_keyboard_alone(desktop):
    tab = desktop.open("summary/")
    box = box_of(tab, "summary-quiz_1.json")
    box.locator("input.predict__input").focus()
    tab.keyboard.type("4, 16")
    tab.keyboard.press("Enter")
    tab.wait_for_function(
        "b => b.querySelector('.predict__feedback').getAttribute('data-verdict') === 'right'", arg=box.element_handle()
    )
    # 보기 문제: 첫 보기에 초점, 화살표로 다음 보기, Tab 으로 확인 단추, Enter
    tab = desktop.open("four_steps/")
    box = box_of(tab, "four_steps-quiz_4.json")
    box.locator("input[type=radio]").first.focus()
    tab.keyboard.press("Space")
    tab.keyboard.press("ArrowDown")
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.classList.contains('predict__check')")
    tab.keyboard.press("Enter")
    tab.wait_for_function(
        "b => b.querySelector('.predict__feedback').getAttribute('data-index') === '1'", arg=box.element_handle()
    )
    assert box.locator(".predict__feedback").get_attribute("data-verdict") == "wrong"
    desktop.assert_clean()


# ---------------------------------------------------------------- 움직이는 q·k 그림

STATE_JS = """() => {
  const root = document.querySelector('.qk-picture');
  const handles = [...root.querySelectorAll('.qk-picture__handle')].sort((a, b) => a.dataset.index - b.dataset.index);
  return {
    points: handles.map(h => [Number(h.dataset.x), Number(h.dataset.y)]),
    valuetext: handles.map(h => h.getAttribute('aria-valuetext')),
    rows: [...root.querySelectorAll('.qk-picture__table tbody tr')].map(tr =>
      Object.fromEntries([...tr.querySelectorAll('td')].map(td => [td.dataset.key, [Number(td.dataset.value), td.textContent.trim()]]))),
    live: root.querySelector('.qk-picture__sr').textContent,
    best: root.dataset.best,
  };
}"""


def core_numbers(points):
    """numpy 코어로: 점수 q·k, √d_k 로 나눈 점수, 가중치, √d_k 로 나누지 않은 가중치 (d_k = 2)."""
    from attention import scaled_dot_product_attention, softmax

    q, keys = np.array([points[0]]), np.array(points[1:])
    scores = (q @ keys.T)[0]
    _, weights = scaled_dot_product_attention(q, keys, keys)
    return {"score": scores, "scaled": scores / np.sqrt(2), "weight": weights[0], "raw": softmax(scores)}


def assert_matches_core(state):
    want = core_numbers(state["points"])
    for key, values in want.items():
        got = np.array([row[key][0] for row in state["rows"]])
        np.testing.assert_allclose(got, values, rtol=1e-12, atol=1e-14, err_msg=key)
        for row, value in zip(state["rows"], values, strict=True):
            shown = float(row[key][1])
            assert abs(shown - value) <= 0.005 + 1e-12, (key, row[key][1], value)
    best = int(np.argmax(want["weight"]))
    assert state["best"] == f"k{'₁₂₃'[best]}"
    return want


def open_picture(tab):
    page = tab.open("four_steps/")
    root = page.locator(".qk-picture")
    root.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('.qk-picture').getAttribute('data-ready') === 'yes'", timeout=20_000
    )
    return page


def handle(page, i):
    return page.locator(f'.qk-picture__handle[data-index="{i}"]')


def client_point(page, x, y):
    """평면의 (x, y) → 화면의 (clientX, clientY)."""
    return page.evaluate(
        """([x, y]) => { const svg = document.querySelector('.qk-picture__plane');
             const p = svg.createSVGPoint(); p.x = x; p.y = -y; const c = p.matrixTransform(svg.getScreenCTM());
             return [c.x, c.y]; }""",
        [x, y],
    )


def test_first_state_and_keyboard_moves_equal_the_core(desktop):
    page = open_picture(desktop)
    data = page.evaluate("async () => await (await fetch('../data/four_steps-qk_picture.json')).json()")
    state = page.evaluate(STATE_JS)
    assert state["points"] == [data["q"], *data["keys"]] and data["d_k"] == 2
    want = assert_matches_core(state)
    # 같은 쪽으로 더 긴 k₁ 이 가장 크고, 반대쪽의 k₃ 은 점수가 음수라 가장 작습니다 (페이지의 접힌 글)
    assert want["score"].argmax() == 0 and want["score"][2] < 0 and want["weight"].argmin() == 2
    assert want["raw"].max() > want["weight"].max()  # 나누지 않으면 더 몰립니다
    q = handle(page, 0)
    q.focus()
    for key in ["ArrowRight"] * 3 + ["ArrowUp"] * 2:
        page.keyboard.press(key)
    page.keyboard.press("Shift+ArrowLeft")
    page.wait_for_function("() => document.querySelector('.qk-picture__handle[data-index=\"0\"]').dataset.x === '0.8'")
    state = page.evaluate(STATE_JS)
    assert state["points"][0] == [0.8, 0.7] and state["valuetext"][0] == "q = (0.8, 0.7)"
    assert_matches_core(state)
    # 움직임이 멈추면 지금 상태를 글로 알립니다 (화면 읽기 프로그램)
    page.wait_for_function("() => document.querySelector('.qk-picture__sr').textContent.startsWith('q (0.8, 0.7)')")
    live = page.evaluate(STATE_JS)["live"]
    w = core_numbers(state["points"])
    for i, name in enumerate(["k₁", "k₂", "k₃"]):
        assert f"{name} " in live and f"가중치 {w['weight'][i]:.2f}" in live and f"점수 {w['score'][i]:.2f}" in live
    assert page.locator(".qk-picture__sr").get_attribute("aria-live") == "polite"
    # 가장자리에서는 멈춥니다
    for _ in range(30):
        page.keyboard.press("Shift+ArrowUp")
    assert page.evaluate(STATE_JS)["points"][0][1] == 2.0
    desktop.assert_clean()


def test_dragging_with_a_mouse_equals_the_core(desktop):
    page = open_picture(desktop)
    start = client_point(page, *page.evaluate(STATE_JS)["points"][2])
    end = client_point(page, -1.5, 1.0)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('.qk-picture__handle[data-index=\"2\"]').dataset.x === '-1.5'")
    state = page.evaluate(STATE_JS)
    assert state["points"][2] == [-1.5, 1.0]
    assert_matches_core(state)
    page.get_by_role("button", name="처음 위치로").click()
    page.wait_for_function("() => document.querySelector('.qk-picture__handle[data-index=\"2\"]').dataset.x === '0.4'")
    assert_matches_core(page.evaluate(STATE_JS))
    desktop.assert_clean()


def test_dragging_with_a_finger_on_a_phone_equals_the_core(browser, server):
    tab = Tab(browser, server, PHONE, has_touch=True, is_mobile=True)
    try:
        page = open_picture(tab)
        start = client_point(page, *page.evaluate(STATE_JS)["points"][3])
        end = client_point(page, 0.6, -1.8)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
        for f in np.linspace(0.1, 1.0, 10):
            x, y = start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_function(
            "() => document.querySelector('.qk-picture__handle[data-index=\"3\"]').dataset.y === '-1.8'"
        )
        state = page.evaluate(STATE_JS)
        assert state["points"][3] == [0.6, -1.8]
        assert_matches_core(state)
        # 끌어도 페이지가 옆으로 밀리지 않고, 375 px 에 가로 스크롤이 없습니다
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        tab.assert_clean()
    finally:
        tab.close()


def touch_drag(page, start, dy, steps=12):
    """손가락 하나로 start 에서 dy px 만큼 세로로 끕니다 (CDP 의 진짜 터치 이벤트). 끝난 뒤 스크롤이 멈출 때까지 기다립니다."""
    cdp = page.context.new_cdp_session(page)
    x, y = start
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + dy * k / steps}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    page.wait_for_timeout(400)


SCALE_JS = "() => document.querySelector('.qk-picture__plane').getScreenCTM().a"


def test_a_vertical_finger_drag_on_a_handle_moves_the_point_not_the_page(browser, server):
    """issue 39 §8: 끝점을 손가락으로 세로로 끌면 페이지가 스크롤되어(60 px 에 45 px) 점이 0.3 만큼만 움직였습니다.
    Chromium 은 SVG 안의 <g> 에 준 touch-action 을 보지 않습니다. 375 px 에서 끝점을 60 px 끌면 점이 60 px 만큼
    움직이고 페이지는 그대로이며, 그림의 빈 곳이나 글을 세로로 쓸면 페이지가 스크롤됩니다."""
    tab = Tab(browser, server, PHONE, has_touch=True, is_mobile=True)
    try:
        page = open_picture(tab)
        page.evaluate(
            "() => window.scrollBy(0, document.querySelector('.qk-picture__plane').getBoundingClientRect().top - 200)"
        )
        page.wait_for_timeout(200)
        before = page.evaluate(STATE_JS)["points"][0]
        scale = page.evaluate(SCALE_JS)  # 평면의 한 칸이 몇 CSS px 인가
        scroll = page.evaluate("window.scrollY")
        touch_drag(page, client_point(page, *before), 60)
        after = page.evaluate(STATE_JS)["points"][0]
        moved_page = page.evaluate("window.scrollY") - scroll
        moved_point = (before[1] - after[1]) * scale
        print(f"끝점 60 px 끌기: 점 {moved_point:.0f} px ({before[1] - after[1]:.1f} 칸), 페이지 {moved_page:.0f} px")
        assert moved_page == 0, moved_page
        assert after[0] == before[0] and abs(moved_point - 60) <= 0.1 * scale + 1, (before, after, scale)
        assert_matches_core(page.evaluate(STATE_JS))
        # 그림의 빈 곳(오른쪽 아래 구석)과 그림 아래 글을 위로 쓸면 페이지가 내려갑니다 (끝점만 스크롤을 막습니다)
        for where in ("svg", "note"):
            box = page.evaluate(
                "w => { const r = document.querySelector(w === 'svg' ? '.qk-picture__plane' : '.qk-picture__note')"
                ".getBoundingClientRect(); return [r.right - 12, r.bottom - 12]; }",
                where,
            )
            points = page.evaluate(STATE_JS)["points"]
            scroll = page.evaluate("window.scrollY")
            touch_drag(page, box, -80)
            assert page.evaluate("window.scrollY") - scroll > 40, where
            assert page.evaluate(STATE_JS)["points"] == points, where
        tab.assert_clean()
    finally:
        tab.close()


# ---------------------------------------------------------------- 휴대전화, 팔레트, 접근성, JavaScript 없이

SIZES_JS = """() => [...document.querySelectorAll(
    '.qk-picture__handle, .qk-picture button, .predict input, .predict button, .predict label.predict__choice')]
  .map(el => { const r = el.getBoundingClientRect(); return {cls: el.getAttribute('class'), w: r.width, h: r.height}; })"""


COLORS_JS = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  let el = document.querySelector('.qk-picture'), bg = 'rgba(0, 0, 0, 0)';
  while (el && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) { bg = getComputedStyle(el).backgroundColor; el = el.parentElement; }
  if (/rgba\\(0, 0, 0, 0\\)/.test(bg)) bg = getComputedStyle(document.body).backgroundColor;
  return {bg: rgb(bg), lines: [...document.querySelectorAll('.qk-picture__arrow')].map(l => rgb(getComputedStyle(l).stroke))};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_layout_targets_colours_and_axe(phone, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page = phone.open("four_steps/", scheme=scheme)
    page.locator(".qk-picture").scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('.qk-picture').getAttribute('data-ready') === 'yes'")
    box = box_of(page, "four_steps-quiz_4.json")
    box.locator("label.predict__choice").first.click()
    box.locator("button[type=submit]").click()
    page.wait_for_function("b => b.querySelector('.predict__feedback .predict__text')", arg=box.element_handle())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for picture_part in (".qk-picture", ".qk-picture__table", ".predict"):
        right = page.evaluate(f"document.querySelector('{picture_part}').getBoundingClientRect().right")
        assert right <= PHONE["width"], picture_part
    small = [s for s in page.evaluate(SIZES_JS) if s["w"] < 24 or s["h"] < 24]
    assert not small, small
    colors = page.evaluate(COLORS_JS)
    for line in colors["lines"]:
        assert colour.contrast(line, colors["bg"], scale=255) >= 3.0, (scheme, line, colors["bg"])
    assert len({tuple(c) for c in colors["lines"]}) == 4, "q 와 키 셋의 색이 서로 달라야 합니다"
    violations = Axe().run(page, context={"include": [[".qk-picture"], [".predict"]]}).response["violations"]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
    phone.assert_clean()


def test_without_javascript_the_question_and_folded_answer_read_as_before(browser, server):
    with without_javascript(browser, server, "library_analogy/") as page:
        boxes = page.locator(".predict")
        assert boxes.count() == 2
        for i in range(boxes.count()):
            assert not boxes.nth(i).is_visible() and boxes.nth(i).inner_html() == ""
            # 상자 바로 앞은 문제 문단, 바로 뒤는 접힌 "정답과 풀이"
            around = boxes.nth(i).evaluate(
                "b => [b.previousElementSibling.textContent.slice(0, 5), b.nextElementSibling.tagName,"
                " b.nextElementSibling.querySelector('summary').textContent]"
            )
            assert re.match(r"문제 \d\.", around[0]) and around[1] == "DETAILS" and around[2] == "정답과 풀이", around
    with without_javascript(browser, server, "four_steps/") as page:
        assert not page.locator(".qk-picture").is_visible()
        assert page.locator("details summary", has_text="움직이는 그림의 숫자를 코어로").count() == 1
