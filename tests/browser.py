"""브라우저 테스트 도우미: 빌드된 사이트를 127.0.0.1 에서 띄우고, Debian chromium 을 Playwright 로 몹니다.

브라우저는 세션에 하나, 탭(페이지)은 화면 폭마다 하나만 열어 테스트끼리 함께 씁니다 (새 창을 여는
비용이 테스트 시간의 대부분이었습니다). 탭은 열 때마다 콘솔 오류와 다른 출처로 가는 요청을 새로 모읍니다.
네트워크는 사이트 주소만 허용하고 나머지는 막습니다.
"""

import base64
import contextlib
import fnmatch
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from support import static

# 기본은 Debian 의 chromium. 다른 Chromium 계열 브라우저를 쓰려면 CHROMIUM=/경로 로 알려 줍니다.
CHROMIUM = (
    os.environ.get("CHROMIUM")
    or shutil.which("chromium")
    or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
]
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def server(built_site):
    site, _ = built_site
    httpd, url = static.serve(site)
    yield url
    static.stop(httpd)


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI 에서는 브라우저 테스트가 반드시 돌아야 하는데 chromium 이 없습니다 (.ci/run 이 설치합니다)")
        pytest.skip("chromium 이 없어 브라우저 테스트를 건너뜁니다 (Debian: apt install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


# 데이터를 받아 그리는 대화형 도구들 (assets/explorer.js, assets/head-explorer.js, 여러분의 문장으로의 assets/own-sentence.js,
# 다음 토큰 고르기의 assets/next-token.js, 학습 슬라이더 assets/training-explorer.js, 확인 문제의 assets/predict.js,
# 2장의 assets/qk-picture.js 와 assets/journey.js). 다 그리면 data-ready="yes".
EXPLORERS = ".attention-explorer, .head-explorer, .own-sentence, .own-prompt, .next-token, .training-explorer, .predict, .qk-picture, .journey"
# 독자가 가까이 내려올 때 스크립트를 받는 것들 (site.js): 이제 모두입니다 (어텐션 탐색기도, issue 29 §8)
LAZY = EXPLORERS


class Tab:
    """화면 폭 하나의 탭. open() 으로 페이지를 열고, errors/foreign 에 문제를 모읍니다.

    context_options 는 Playwright 의 new_context 에 그대로 넘깁니다 (예: has_touch=True, is_mobile=True).
    """

    def __init__(self, browser, origin, viewport, **context_options):
        self.origin, self.viewport = origin, viewport
        self.context = browser.new_context(viewport=viewport, **context_options)
        # 팔레트 전환 단추는 선택을 localStorage 에 남깁니다. 테스트마다 처음 상태에서 시작하게 지웁니다.
        self.context.add_init_script("try { localStorage.clear() } catch (e) {}")
        self.errors = []
        self.foreign = static.same_origin_only(self.context, origin, allow_data=True)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path, scheme="light", settle=False):
        """페이지를 엽니다. settle=True 이면 네트워크가 0.5초 조용해질 때까지(검색 색인까지) 기다립니다."""
        self.errors.clear()
        self.foreign.clear()
        self.page.emulate_media(color_scheme=scheme)
        self.page.goto(self.origin + path, wait_until="networkidle" if settle else "load")
        return self.page

    def read_through(self, whole_page=True):
        """독자처럼 내려갔다가 맨 위로 돌아옵니다. 그동안 나타나는 것을 모두 기다립니다.

        화면에 들어와야 생기는 것이 있습니다: Material 이 코드 블록마다 붙이는 복사 단추(mkdocs.yml 의
        content.lazy)와, 가까이 와야 데이터를 받는 헤드 탐색기. 페이지 전체의 조작 요소나 접근성을 재는 테스트는
        whole_page=True 로 한 화면씩 끝까지 내려가고, 탐색기만 필요한 테스트는 whole_page=False 로 탐색기에만 들릅니다.
        """
        page = self.page
        if whole_page:
            page.evaluate("""async () => {
              const frame = () => new Promise(r => requestAnimationFrame(r));
              for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
                window.scrollTo(0, y);
                await frame();
              }
              window.scrollTo(0, document.documentElement.scrollHeight);
              await frame();
            }""")
        else:
            for explorer in page.locator(LAZY).all():
                explorer.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_function(
            "sel => [...document.querySelectorAll(sel)].every(e => e.getAttribute('data-ready') === 'yes')",
            arg=EXPLORERS,
        )
        # 맨 위로 돌아오면 머리글의 제목이 페이지 제목에서 사이트 제목으로 바뀌며 흐려졌다 나타납니다(CSS 전환).
        # 전환 가운데에 재면 반쯤 투명한 글자를 재게 되므로, 전환을 끝 상태로 보냅니다 (기다리면 방문마다 0.4초).
        page.evaluate("""async () => {
          window.scrollTo(0, 0);
          await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
          document.getAnimations().filter(a => a instanceof CSSTransition).forEach(a => a.finish());
        }""")
        return page

    def assert_clean(self):
        assert not self.errors, f"콘솔 오류: {self.errors}"
        assert not self.foreign, f"다른 출처로 가는 요청: {self.foreign}"

    def close(self):
        self.context.close()

    # with Tab(...) as tab: 블록을 나오면(실패해도) 탭을 닫습니다
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture(scope="session")
def korean_font():
    """줄바꿈과 글꼴은 글꼴에 따라 달라지므로, 그것을 재는 테스트는 한글 글꼴(fc-list :lang=ko)이 있어야 합니다.
    CI 는 실패, 그 밖에는 건너뜁니다 (.ci/run 이 Debian 의 fonts-noto-cjk 를 설치합니다)."""
    fonts = ""
    if shutil.which("fc-list"):
        fonts = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True).stdout.strip()
    if not fonts:
        message = "한글 글꼴이 없어 줄바꿈과 글꼴을 잴 수 없습니다 (Debian: apt install fonts-noto-cjk, .ci/run 이 설치합니다)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return fonts


@pytest.fixture(scope="session")
def desktop(browser, server):
    tab = Tab(browser, server, DESKTOP)
    yield tab
    tab.close()


@pytest.fixture(scope="session")
def phone(browser, server):
    tab = Tab(browser, server, PHONE)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def touch(browser, server):
    """손가락만 쓰는 휴대전화: 375 × 812, 터치 화면, 모바일 브라우저 (모듈마다 새 탭: 앞 모듈의 터치 상태가 남지 않게)."""
    tab = Tab(browser, server, PHONE, has_touch=True, is_mobile=True)
    yield tab
    tab.close()


def go_offline(tab, page, httpd):
    """브라우저를 오프라인으로 두고 서버도 끕니다. (잡히지 않은 오류, 실패한 요청, 콘솔 오류) 목록을 돌려줍니다.

    콘솔의 "Failed to load resource" 는 브라우저가 남기는 로그라서 Log 도메인에서 모읍니다 (DevTools 의 콘솔과 같은 곳).
    """
    tab.context.set_offline(True)
    httpd.shutdown()
    uncaught, failed, logged = [], [], []
    page.on("pageerror", lambda e: uncaught.append(str(e)))
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    cdp = tab.context.new_cdp_session(page)
    cdp.send("Log.enable")
    cdp.on("Log.entryAdded", lambda e: e["entry"]["level"] == "error" and logged.append(e["entry"]["text"]))
    tab.errors.clear()
    return uncaught, failed, logged


# ---------------------------------------------------------------- 모델을 받는 도구 (own_sentence, own_prompt) ----
class RecordingTab(Tab):
    """Tab 과 같고, 사이트로 간 요청의 주소도 모읍니다 (모델 파일을 언제 받는지 보려고)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.requests = []
        self.context.on("request", lambda r: self.requests.append(r.url))


class ModelTool:
    """독자가 단추를 눌러야 모델을 받는 도구 하나 (여러분의 문장으로, 여러분의 프롬프트로): 두 테스트 모듈이 함께 쓰는 것.

    path: 도구가 든 페이지 ("own_prompt/"), root: 도구 상자 (".own-prompt"), models: 모델 폴더 ("models/gemma-ko/"),
    get: 상자 안의 받기 단추 (".own-prompt__get"). 알림은 상자의 data-error(종류)와 {root}__error(글)에 있습니다.
    """

    def __init__(self, path, root, models, get):
        self.path, self.root, self.models, self.get = path, root, models, f"{root} {get}"

    def tab(self, browser, server, viewport=PHONE, **context_options):
        """이 도구를 볼 탭 (RecordingTab: requests 가 받은 모델 파일을 셉니다). with 로 쓰면 블록을 나올 때 닫힙니다."""
        return RecordingTab(browser, server, viewport, **context_options)

    def requests(self, tab):
        """tab 이 받은 모델 파일의 주소. 목록(manifest.json)은 빼고 셉니다."""
        return [u for u in tab.requests if self.models in u and not u.endswith("manifest.json")]

    def open(self, tab, scheme="light"):
        """페이지를 열고 도구까지 내려가 도구가 준비된(data-ready=yes) page."""
        page = tab.open(self.path, scheme=scheme)
        tab.read_through(whole_page=False)
        return page

    def error(self, page):
        """도구가 지금 보이는 알림: (data-error 의 종류, 알림 글)."""
        message = page.locator(f"{self.root} {self.root}__error").inner_text()
        return page.locator(self.root).get_attribute("data-error"), message

    def assert_refused(self, page, kind, words):
        """도구가 글을 받지 않았습니다: 알림의 종류가 kind 이고 알림 글에 words 가 모두 있으며, 앞의 결과도 지웠습니다
        (data-result=none, 결과 칸 {root}__result 가 빈 글)."""
        shown, message = self.error(page)
        assert shown == kind and all(w in message for w in words), (shown, message)
        assert page.locator(self.root).get_attribute("data-result") == "none"
        assert page.locator(f"{self.root} {self.root}__result").inner_text() == ""

    @contextlib.contextmanager
    def downloaded(self, browser, server, timeout):
        """데스크톱 독자 한 사람: 받기 단추를 눌러 모델을 받고 첫 결과를 그린 탭 (with 를 나오면 닫습니다).
        단추를 누르기 전에는 모델 파일을 받지 않습니다."""
        with self.tab(browser, server, DESKTOP) as tab:
            page = self.open(tab)
            assert not self.requests(tab)
            page.locator(self.get).first.click()
            page.wait_for_selector(f"{self.root}[data-result=ok]", timeout=timeout)
            yield tab

    def assert_no_model_before_the_button(self, browser, server, scripts):
        """375 px 휴대전화에서 페이지를 끝까지 읽어도 모델 폴더에서는 목록(manifest.json)만 받고, 모델 파일과
        scripts(정규식에 맞는 주소의 스크립트)는 받지 않습니다. 받기 단추는 보이고, 콘솔 오류와 다른 출처로 가는 요청이
        없습니다."""
        import re

        with self.tab(browser, server) as tab:
            page = tab.open(self.path)
            tab.read_through()
            assert not self.requests(tab)
            assert any(u.endswith(self.models + "manifest.json") for u in tab.requests)
            assert not [u for u in tab.requests if re.search(scripts, u)]
            assert page.locator(self.get).first.is_visible()
            tab.assert_clean()


# 페이지의 float32 배열을 바이트 그대로 base64 글로 돌려받는 JS 함수 b64 (수십만 개의 수를 JSON 으로 주고받으면 그것만으로
# 몇 초씩 걸립니다). page.evaluate 에 넘기는 글 안에 이 줄을 넣고, 파이썬에서는 floats() 로 되돌립니다.
B64_JS = """const b64 = a => { const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength); let s = '';
    for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
    return btoa(s); };"""


def floats(text):
    """B64_JS 의 b64 가 만든 글 → float32 값 그대로의 float64 배열."""
    return np.frombuffer(base64.b64decode(text), "<f4").astype(np.float64)


def broken_download(data, how):
    """모델 파일 하나(data: 제대로 된 바이트)의 받기를 망가뜨리는 Playwright route 처리기.

    how: "refused"(연결 거절), "missing"(404), "cut"(3분의 1에서 끊김), "corrupt"(마지막 바이트 하나가 다름)."""

    def handle(route):
        if how == "refused":
            route.abort("connectionrefused")
        elif how == "missing":
            route.fulfill(status=404, body="not found")
        elif how == "cut":
            route.fulfill(status=200, body=data[: len(data) // 3], content_type="application/octet-stream")
        elif how == "corrupt":
            route.fulfill(status=200, body=data[:-1] + bytes([data[-1] ^ 1]), content_type="application/octet-stream")
        else:
            raise ValueError(f"how 는 refused, missing, cut, corrupt 중 하나여야 합니다: {how!r}")

    return handle


def assert_fits_phone_and_axe(page, root, parts, controls="button, input, select", skip=None):
    """375 px 휴대전화에서 도구 하나(root)를 봅니다: 페이지가 옆으로 넘치지 않고, root 와 parts(각 선택자의 첫 요소)가
    화면 폭 안에 있고, root 안에 axe 위반이 없고, 보이는 조작 요소(controls)가 모두 24 × 24 px 이상입니다
    (WCAG 2.2 의 목표 크기 최소). skip: 크기를 재지 않을 조작 요소를 품은 조상의 선택자 (예: 작은 점 격자)."""
    from axe_playwright_python.sync_playwright import Axe

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for sel in (root, *(f"{root} {part}" for part in parts)):
        box = page.locator(sel).first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
    violations = Axe().run(page, context=root).response["violations"]
    assert not violations, [(v["id"], [(n["target"], n["failureSummary"]) for n in v["nodes"][:3]]) for v in violations]
    small = page.evaluate(
        """([root, controls, skip]) => [...document.querySelectorAll(root)].flatMap(r => [...r.querySelectorAll(controls)])
            .filter(e => e.offsetParent && !(skip && e.closest(skip))).map(e => e.getBoundingClientRect())
            .filter(r => r.width < 24 || r.height < 24).length""",
        [root, controls, skip],
    )
    assert small == 0, f"{root}: 24 px 보다 작은 조작 요소 {small}개"


def fetched(page, *patterns):
    """page 가 지금까지 받은 파일의 이름(주소의 마지막 조각)들, 받은 차례대로. patterns 가 있으면 그 가운데 하나에 맞는
    것만 (fnmatch: "journey*" 처럼). 도구가 독자가 가까이 올 때만 스크립트와 데이터를 받는지 보는 데 씁니다."""
    names = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name.split('/').pop())")
    return [n for n in names if not patterns or any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def open_waiting(tab, path, root, files):
    """path 를 열고 0.3초 뒤를 봅니다: root 상자는 안내 글("…준비하고 있습니다")만 보이며 기다리고(data-ready=waiting),
    files(fetched 의 패턴)는 하나도 받지 않았습니다. 독자가 가까이 와야 받는 도구의 첫 화면. (page, 상자)를 돌려줍니다."""
    page = tab.open(path)
    page.wait_for_timeout(300)
    box = page.locator(root).first
    assert box.get_attribute("data-ready") == "waiting" and "준비" in box.inner_text()
    assert fetched(page, *files) == []
    return page, box


@contextlib.contextmanager
def without_javascript(browser, server, path):
    """JavaScript 를 끈 375 px 탭으로 path 를 연 page. 도구 없이도 글과 그림이 읽히는지 보는 데 씁니다."""
    tab = Tab(browser, server, PHONE, java_script_enabled=False)
    try:
        yield tab.open(path)
    finally:
        tab.close()
