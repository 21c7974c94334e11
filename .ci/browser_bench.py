"""두 브라우저 벤치마크(bench_browser_model.py, bench_gemma_browser.py)가 함께 쓰는 것: 네트워크를 끈 페이지, 워커의 CDP, 힙."""

import json
import time


def offline_page(p, origin, foreign):
    """(browser, context, page, cdp): 휴대전화 폭(375 px)의 페이지. origin 밖으로 나가는 요청은 막고 foreign 에 적습니다."""
    from browser import ARGS, CHROMIUM
    from support import static

    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    ctx = browser.new_context(viewport={"width": 375, "height": 812})
    static.same_origin_only(ctx, origin, foreign=foreign)  # 테스트의 탭과 같은 막기
    page = ctx.new_page()
    return browser, ctx, page, ctx.new_cdp_session(page)


def prefix_with_tokens(long, n, count):
    """long 의 앞에서부터 글자를 늘려, count(글) 가 정확히 n 인 가장 짧은 앞부분."""
    for end in range(1, len(long) + 1):
        text = long[:end].rstrip()
        if count(text) == n:
            return text
    raise ValueError(f"토큰 {n}개인 글을 찾지 못했습니다")


class WorkerChannel:
    """워커 대상에 CDP 명령을 보냅니다 (Target.sendMessageToTarget; Playwright 의 CDP 세션은 자식 세션을 직접 못 씁니다)."""

    def __init__(self, cdp, page):
        self.cdp, self.page, self.sessions, self.replies, self.next = cdp, page, [], {}, 1000
        cdp.on(
            "Target.attachedToTarget",
            lambda e: e["targetInfo"]["type"] == "worker" and self.sessions.append(e["sessionId"]),
        )
        cdp.on("Target.receivedMessageFromTarget", self._got)
        cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False})

    def _got(self, e):
        msg = json.loads(e["message"])
        if "id" in msg:
            self.replies[msg["id"]] = msg

    def send(self, method, params=None, timeout=5.0):
        out = []
        for session in self.sessions:
            self.next += 1
            i = self.next
            self.cdp.send(
                "Target.sendMessageToTarget",
                {"sessionId": session, "message": json.dumps({"id": i, "method": method, "params": params or {}})},
            )
            deadline = time.time() + timeout
            while i not in self.replies and time.time() < deadline:
                self.page.wait_for_timeout(
                    10
                )  # Playwright 가 받은 이벤트를 이때 넘겨줍니다 (time.sleep 으로는 오지 않습니다)
            out.append(self.replies.pop(i, {}).get("result", {}))
        return out


def heap(cdp, workers):
    """(페이지 V8 힙, 워커 하나의 V8 힙) — 지금 쓰는 양. 워커가 여럿이면 가장 큰 것 (도구의 워커와 잴 때 띄운 워커는 같은 일을 합니다)."""
    page = cdp.send("Runtime.getHeapUsage")["usedSize"]
    w = workers.send("Runtime.getHeapUsage")
    return page, max([x.get("usedSize", 0) for x in w] or [0])


def print_table(title, rows, load_before, load_after, value_width=44):
    """벤치마크 한 표: 제목 줄(무엇을, 잴 때의 부하와 코어 수)과 (측정, 값, 목표) 줄들. 부하가 높았던 실행의 숫자는
    느리게 나오므로, 인용할 때 부하를 함께 봅니다."""
    import os

    width = max(len(r[0]) for r in rows) + 2
    print(f"{title}. 부하(1분 평균): 시작 {load_before[0]:.1f}, 끝 {load_after[0]:.1f}, 코어 {os.cpu_count()}개")
    print(f"{'측정':<{width}}{'값':<{value_width}}목표")
    for name, value, goal in rows:
        print(f"{name:<{width}}{value:<{value_width}}{goal}")
