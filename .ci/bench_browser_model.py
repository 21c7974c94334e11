"""브라우저 모델 벤치마크 (테스트가 아니라 재는 도구입니다): `make bench-browser`, 또는 `make bench` 의 마지막 표.

"여러분의 문장으로" 페이지를 이 기계의 Debian chromium 으로 열어 잽니다 (Playwright, 네트워크는 사이트만).

1. 받는 양: 첫 묶음(한글)과 둘째 묶음(영어 글자)의 바이트, gzip 으로 보낼 때의 바이트. 목표: 첫 묶음 gzip ≤ 16 MB.
2. 토큰 16개와 64개(<s>, 접두어, </s> 포함)의 계산 시간, CPU 를 4배 느리게 한 chromium 에서. 목표 ≤ 1.0 초, ≤ 3 초.
   Chromium 의 CPU 느리게 하기(CDP Emulation.setCPUThrottlingRate)는 페이지의 주 스레드에만 걸리고 워커에는
   걸리지 않습니다 ("Operation is only supported for pages, not workers"). 그래서 같은 코드(e5-worker.js)를 주 스레드에
   붙여 4배 느리게 한 채로 재고 (행렬 곱의 두 길: WebAssembly SIMD 커널과 SIMD 가 없는 브라우저의 JavaScript),
   실제 페이지가 쓰는 워커의 시간(느리게 하지 않음)도 함께 적습니다.
3. JS 힙의 최댓값: 모델을 받아 64토큰을 계산하는 동안 페이지와 워커의 V8 힙 + 워커의 ArrayBuffer(가중치) 바이트.
   목표 ≤ 150 MB.
4. 워커가 64토큰을 계산하는 동안 주 스레드의 가장 긴 작업 (페이지는 4배 느리게). 목표 ≤ 50 ms.
   그 뒤 결과를 헤드 탐색기로 그리는 동안(계산하기 → 다 그림)과 탐색기를 처음 만드는 동안의 긴 작업은 CDP 추적으로 따로 잽니다:
   작업마다 벽시계 시간과 스레드가 CPU 를 쓴 시간 (MainThreadTasks 의 설명). 목표: 스레드 시간 ≤ 100 ms.
5. 다른 출처로 간 요청 수. 목표 0.
7. 헤드 끄기 (어블레이션): 토큰 16개 문장에서 1층의 헤드 하나를 끄고 다시 계산 (12층을 모두 다시 계산하는, 가장 오래
   걸리는 경우), CPU 를 4배 느리게 한 주 스레드에서 (2와 같은 까닭). 목표 ≤ 1.0 초. 페이지의 "끄고 다시 계산하기"
   단추 → 결과가 보일 때까지(페이지 4배, 워커는 느리게 할 수 없음)도 적습니다.
6. 헤드 탐색기에서 문장 바꾸기 (누른 때부터 다음 화면까지, 4배 느리게, 375 px): 한국어 장의 두 문장, 여러분의 문장 셋(64토큰 포함).
   목표 ≤ 100 ms (INP 의 200 ms 한계의 절반). 탐색기는 격자 아래의 부분이 화면 밖이면 그 부분을 한가할 때 채우므로,
   그것까지 다 그린 때(data-pending 이 사라진 다음 화면)도 함께 적습니다.

같은 기계를 다른 일이 함께 쓰면 시간이 크게 흔들립니다. 그래서 시간은 여러 번 재어 가장 빠른 값과 가운데 값을 적고,
잰 동안의 부하(load average)도 적습니다.

    python .ci/bench_browser_model.py [--site 빌드된_사이트_폴더] [--only e5|gemma]

둘째 표는 "여러분의 프롬프트로" (Gemma 3 270M) 입니다: .ci/bench_gemma_browser.py 가 잽니다 (그 파일 맨 위의 설명).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [
    *(str(ROOT / "snippets" / room) for room in ("chapters", "lib", "sitedata")),
    str(ROOT / "tests"),
    str(Path(__file__).resolve().parent),
]

from browser_bench import WorkerChannel, heap, offline_page, prefix_with_tokens, print_table

from support import static

LONG = (
    "할머니께서 시장에서 사과 두 봉지를 사 오셨다 서울에서 부산까지 기차로 세 시간쯤 걸립니다 오늘 기온은 영하 5도까지 "
    "내려간대요 엄마가 아기에게 동화책을 읽어 주었다 작은 새 한 마리가 창가에 앉아 노래를 불렀다 시험이 끝나면 다 같이 "
    "영화를 보러 가자 아버지가 부엌에서 된장찌개를 끓이고 계신다"
)


def text_with_tokens(n):
    """토큰이 정확히 n 개(<s>, 접두어 조각 셋, </s> 포함)인 글: LONG 의 앞에서부터 글자를 늘려 찾습니다."""
    from e5_numpy import PREFIX, load_e5

    tok = load_e5().tokenizer
    return prefix_with_tokens(LONG, n, lambda text: len(tok.encode(PREFIX + text).ids))


MAIN_THREAD_JS = """async ([text, wasm]) => {
  const manifest = await (await fetch('../models/e5-ko/manifest.json')).json();
  const info = await E5Model.load({manifest, base: new URL('../models/e5-ko/', location.href).href, packs: ['ko'],
                                   cache: 'attention-e5-ko', onProgress: () => {}, wasm});
  E5Model.run({id: 0, text});  // 처음 한 번: JIT 준비
  return info.kernel; }"""

TIME_MAIN_JS = """([text, runs]) => { const t = [];
  for (let r = 0; r < runs; r++) { const s = performance.now(); const out = E5Model.run({id: r, text});
    if (out.error) throw new Error(out.error.message); t.push(performance.now() - s); }
  return t; }"""

TIME_WORKER_JS = """async ([text, runs]) => { const t = [], w = window.__w;
  for (let r = 0; r < runs; r++) { const s = performance.now();
    const out = await new Promise(res => { w.onmessage = e => res(e.data); w.postMessage({type: 'run', id: 1, text}); });
    if (out.error) throw new Error(out.error.message); t.push(out.ms); window.__held = out.peakHeld; window.__kernel = out.kernel; }
  return t; }"""

# 헤드 끄기: 페이지처럼 먼저 끄지 않고 계산한 뒤(워커가 그 결과를 기억합니다), 1층의 헤드를 하나씩 끄고 다시 계산합니다.
TIME_ABLATE_JS = """([text, runs]) => { const t = []; E5Model.run({id: 0, text});
  for (let r = 0; r < runs; r++) { const s = performance.now();
    const out = E5Model.ablate({id: r, text, off: {heads: [[0, r % 12]]}});
    if (out.error) throw new Error(out.error.message); t.push(performance.now() - s); }
  return t; }"""

# 페이지의 단추: 1층 헤드 k 를 고르고 "끄고 다시 계산하기" → 결과 상자가 채워진 다음 화면까지
ABLATE_PAGE_JS = """async (k) => { const root = document.querySelector('.own-sentence');
  root.querySelector('.own-sentence__switch [data-what=layer]').value = '0';
  root.querySelector('.own-sentence__switch [data-what=head]').value = String(k % 12);
  root.removeAttribute('data-ablated');
  const t0 = performance.now(); root.querySelector('.own-sentence__ablate').click();
  while (!root.dataset.ablated) await new Promise(r => setTimeout(r, 5));
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0; }"""

LONGTASK_JS = """async (text) => {
  // 계산하는 동안 주 스레드에서 50 ms 를 넘은 작업 (Long Tasks API). 재는 쪽이 주 스레드에서 아무것도 돌리지 않아야
  // 합니다: requestAnimationFrame 으로 프레임을 세면 CPU 를 4배 느리게 한 주 스레드에서는 그 프레임 자체가 긴 작업이 됩니다.
  const tasks = [];
  const obs = new PerformanceObserver(l => l.getEntries().forEach(e => tasks.push(e.duration)));
  obs.observe({type: 'longtask', buffered: false});
  const w = window.__w, s = performance.now();
  const out = await new Promise(res => { w.onmessage = e => res(e.data); w.postMessage({type: 'run', id: 1, text}); });
  const during = performance.now() - s;
  await new Promise(r => setTimeout(r, 100));
  obs.disconnect();
  return {during, longest: tasks.length ? Math.max(...tasks) : 0, count: tasks.length, ms: out.ms}; }"""

# 문장 바꾸기: 누른 때부터 다음 화면까지 (INP 가 재는 것), 그리고 화면 밖이라 미뤄 둔 부분(data-pending)까지 다 그린 때까지
SWITCH_JS = """async (k) => { const root = document.querySelector(k[0]);
  const inputs = root.querySelectorAll('.head-explorer__sentences input');
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const t0 = performance.now(); inputs[k[1] % inputs.length].click();
  await frame();
  const next = performance.now() - t0;
  while (root.dataset.pending) await frame();
  await frame();
  return [next, performance.now() - t0]; }"""


class MainThreadTasks:
    """주 스레드의 긴 작업을 CDP 추적(trace)으로 잽니다: 작업마다 (벽시계 ms, 스레드가 CPU 를 쓴 ms).

    Chromium 의 CPU 느리게 하기는 그 스레드가 CPU 를 더 쓰게 하는 방식이라, 4배 느리게 한 작업의 스레드 시간은 다른 일이
    없는 기계에서 그 작업이 걸릴 벽시계 시간과 같습니다 (이 기계에서 같은 계산: 1배 85 ms, 4배 400 ms). 기계를 다른 일이 함께
    쓰면 벽시계 시간은 CPU 를 기다린 만큼 늘어나므로, 목표(작업 하나 ≤ 100 ms)는 스레드 시간으로 봅니다.
    """

    def __init__(self, cdp, page):
        self.cdp, self.page, self.events, self.done = cdp, page, [], []
        cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        cdp.on("Tracing.tracingComplete", lambda e: self.done.append(1))

    def start(self):
        self.events.clear()
        self.done.clear()
        self.cdp.send(
            "Tracing.start",
            {
                "categories": "toplevel,devtools.timeline,disabled-by-default-devtools.timeline",
                "transferMode": "ReportEvents",
            },
        )

    def stop(self, over_ms=50):
        """[(벽시계 ms, 스레드 ms)] 가운데 어느 하나라도 over_ms 를 넘은 작업, 스레드 시간이 긴 것부터."""
        self.cdp.send("Tracing.end")
        while not self.done:
            self.page.wait_for_timeout(20)
        main = {
            (e["pid"], e["tid"])
            for e in self.events
            if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
        }
        tasks = {}
        for e in self.events:
            if e.get("name") == "RunTask" and e.get("ph") == "X" and (e["pid"], e["tid"]) in main:
                tasks.setdefault((e["pid"], e["tid"]), []).append((e["dur"] / 1000, e.get("tdur", e["dur"]) / 1000))
        busiest = max(tasks.values(), key=lambda ts: sum(t for _, t in ts), default=[])
        return sorted((t for t in busiest if max(t) > over_ms), key=lambda t: -t[1])


def measure(site):
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM

    manifest = json.loads((site / "models" / "e5-ko" / "manifest.json").read_text(encoding="utf-8"))
    sizes = {
        p: (sum(manifest["files"][f]["bytes"] for f in files), sum(manifest["files"][f]["gzip_bytes"] for f in files))
        for p, files in manifest["packs"].items()
    }
    t16, t64 = text_with_tokens(16), text_with_tokens(64)
    httpd, origin = static.serve(site)
    rows, foreign = [], []
    load_before = os.getloadavg()
    with sync_playwright() as p:
        browser, ctx, page, cdp = offline_page(p, origin, foreign)
        page.goto(origin + "own_sentence/")
        workers = WorkerChannel(cdp, page)  # 문서가 바뀐 뒤에 켜야 새 문서의 워커에 붙습니다
        page.locator(".own-sentence").scroll_into_view_if_needed()
        page.wait_for_selector(".own-sentence[data-ready=yes]")
        page.evaluate(
            """() => { window.__openTasks = []; new PerformanceObserver(l =>
                l.getEntries().forEach(e => window.__openTasks.push(e.duration))).observe({type: 'longtask'}); }"""
        )
        t0 = time.perf_counter()
        page.locator(".own-sentence__get[data-pack=ko]").click()
        peak = [0, 0]
        while not page.locator(".own-sentence[data-result=ok]").count():
            if time.perf_counter() - t0 > 300:
                raise TimeoutError("모델을 받아 계산하지 못했습니다")
            peak = [max(a, b) for a, b in zip(peak, heap(cdp, workers))]
            time.sleep(0.1)
        first_open = time.perf_counter() - t0
        page.wait_for_function(
            "() => !document.querySelector('.own-sentence .head-explorer').dataset.pending", timeout=60_000
        )
        page.wait_for_timeout(300)
        open_tasks = page.evaluate(
            "() => window.__openTasks"
        )  # 느리게 하지 않은 채: 받기·확인·풀기(워커)와 처음 그리기

        # 워커(페이지가 실제로 쓰는 것)의 시간과 메모리: 워커를 하나 더 띄워 다시 받습니다 (화면의 도구와 같은 파일)
        page.evaluate("""async () => { const manifest = await (await fetch('../models/e5-ko/manifest.json')).json();
            window.__w = new Worker('../assets/e5-worker.js');
            await new Promise(res => { window.__w.onmessage = e => { if (e.data.type === 'ready') res(); };
              window.__w.postMessage({type: 'load', manifest, base: new URL('../models/e5-ko/', location.href).href,
                                      packs: ['ko'], cache: null}); }); }""")  # 저장소 없이: 받는 동안의 최댓값까지 재려고
        worker16 = page.evaluate(TIME_WORKER_JS, [t16, 5])
        worker64 = page.evaluate(TIME_WORKER_JS, [t64, 3])
        for _ in range(5):
            peak = [max(a, b) for a, b in zip(peak, heap(cdp, workers))]
        held = page.evaluate("window.__held")
        worker_kernel = page.evaluate("window.__kernel")
        attached = len(workers.sessions)

        # 주 스레드의 긴 작업: 페이지를 4배 느리게 하고 워커가 64토큰을 계산하는 동안
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        long_tasks = [page.evaluate(LONGTASK_JS, t64) for _ in range(3)]
        # 결과를 탐색기로 그리는 시간 (64토큰, 4배): 도구의 "계산하기". 그동안 주 스레드의 긴 작업(50 ms 넘는 것)도 모읍니다:
        # 워커의 계산을 빼면 모두 결과를 그리는 일입니다. 탐색기는 화면 밖 부분을 한가할 때 채우므로 그것까지 기다립니다.
        draws, tracer = [], MainThreadTasks(cdp, page)
        for text in (t64, t16, t64):
            page.fill(".own-sentence input", text)
            tracer.start()
            t1 = time.perf_counter()
            # 독자가 Enter 를 누른 것처럼 폼을 보냅니다. Playwright 의 click 은 누르기 전에 단추를 화면에 맞추고 그 자리에
            # 무엇이 있는지 재어(스크롤, 강제 배치) 그것만으로 4배 느린 주 스레드에 긴 작업을 남깁니다.
            page.evaluate("() => document.querySelector('.own-sentence__form').requestSubmit()")
            page.wait_for_function(
                "() => document.querySelector('.own-sentence .head-explorer[data-state]') && "
                "document.querySelector('.own-sentence').dataset.state === 'ready'",
                timeout=120_000,
            )
            elapsed = time.perf_counter() - t1
            page.wait_for_function(
                "() => !document.querySelector('.own-sentence .head-explorer').dataset.pending", timeout=60_000
            )
            page.wait_for_timeout(300)
            draws.append((text, elapsed, tracer.stop()))
        draw_64 = draws[0][1]
        # 문장 바꾸기: 여러분의 문장 셋 (64토큰, 16토큰, 그 앞 문장)
        for text in (t16,):
            page.fill(".own-sentence input", text)
            page.locator(".own-sentence__run").click()
            page.wait_for_function(
                "() => document.querySelector('.own-sentence').dataset.state === 'ready'", timeout=120_000
            )
        page.wait_for_timeout(1500)  # 다른 문장의 작은 히트맵을 한가할 때 미리 만듭니다
        own_switch = [page.evaluate(SWITCH_JS, [".own-sentence .head-explorer", k + 1]) for k in range(6)]
        ablate_page = [page.evaluate(ABLATE_PAGE_JS, k) for k in range(5)]  # 끄는 문장: 마지막으로 계산한 16토큰
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})

        # 같은 코드를 주 스레드에서 4배 느리게: 행렬 곱의 두 길마다 새 페이지 하나 (모델은 페이지마다 한 번 엽니다)
        main = {}
        for wasm in (True, False):
            bench = ctx.new_page()
            bench.goto(origin + "glossary/")  # 도구가 없는 페이지 (저장본으로 저절로 열리는 워커가 끼지 않게)
            for src in ("assets/e5-tokenizer.js", "assets/e5-worker.js"):
                bench.add_script_tag(url=origin + src)
            kernel = bench.evaluate(MAIN_THREAD_JS, [t16, wasm])
            bcdp = ctx.new_cdp_session(bench)
            bcdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            main[kernel] = (
                bench.evaluate(TIME_MAIN_JS, [t16, 5]),
                bench.evaluate(TIME_MAIN_JS, [t64, 3]),
                bench.evaluate(TIME_ABLATE_JS, [t16, 5]),
            )
            bcdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            bench.close()

        # 두 번째 방문: 저장본으로 여는 데 걸린 시간
        again = ctx.new_page()
        t2 = time.perf_counter()
        again.goto(origin + "own_sentence/")
        again.locator(".own-sentence").scroll_into_view_if_needed()
        again.wait_for_selector(".own-sentence[data-result=ok]", timeout=120_000)
        second_open = time.perf_counter() - t2
        source = again.locator(".own-sentence").get_attribute("data-source")
        again.close()

        # 탐색기를 처음 만드는 그리기 (저장본으로 여는 방문, 4배): 페이지의 처음 문장을 계산해 탐색기를 만드는 동안의 긴 작업
        mount = ctx.new_page()
        mcdp = ctx.new_cdp_session(mount)
        mount.goto(origin + "own_sentence/")
        mcdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        mount_tracer = MainThreadTasks(mcdp, mount)
        mount_tracer.start()
        mount.locator(".own-sentence").scroll_into_view_if_needed()
        mount.wait_for_selector(".own-sentence[data-result=ok]", timeout=120_000)
        mount.wait_for_function(
            "() => !document.querySelector('.own-sentence .head-explorer').dataset.pending", timeout=60_000
        )
        mount.wait_for_timeout(300)
        mount_tasks = mount_tracer.stop()
        mount.close()

        # 한국어 장의 탐색기: 문장 바꾸기
        ko = ctx.new_page()
        kcdp = ctx.new_cdp_session(ko)
        ko.goto(origin + "korean_model/")
        ko.locator(".head-explorer").scroll_into_view_if_needed()
        ko.wait_for_selector(".head-explorer[data-ready=yes]")
        ko.wait_for_timeout(1500)
        kcdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        ko_switch = [ko.evaluate(SWITCH_JS, [".head-explorer", k + 1]) for k in range(8)]
        browser.close()
    httpd.shutdown()
    load_after = os.getloadavg()

    from e5_numpy import PREFIX, load_e5

    tok = load_e5().tokenizer

    def task_summary(tasks):  # [(벽시계, 스레드)] → "스레드 가장 긴 것 (그 벽시계), 50 ms 넘는 것 N개"
        if not tasks:
            return "50 ms 넘는 작업 없음"
        wall, thread = tasks[0]
        over = sum(t > 50 for _, t in tasks)
        return f"스레드 가장 긴 것 {thread:.0f} (벽시계 {wall:.0f}), 스레드 50 ms 넘는 것 {over}개"

    def t(values):
        return f"가장 빠름 {min(values) / 1000:.2f}, 가운데 {statistics.median(values) / 1000:.2f}"

    def ms(values):
        return f"가장 빠름 {min(values):.0f}, 가운데 {statistics.median(values):.0f}"

    def switch(values):  # (다음 화면까지, 다 그릴 때까지)
        done = [d for _, d in values]
        return f"{ms([n for n, _ in values])} (다 그림 {ms(done)})"

    rows = [
        (
            "첫 묶음 (한글) 받는 양",
            f"{sizes['ko'][0] / 1e6:.1f} MB, gzip {sizes['ko'][1] / 1e6:.1f} MB",
            "gzip ≤ 16 MB",
        ),
        (
            "둘째 묶음 (영어 글자, 따로 받음)",
            f"{sizes['latin'][0] / 1e6:.1f} MB, gzip {sizes['latin'][1] / 1e6:.1f} MB",
            "",
        ),
        ("처음: 단추 → 받기·풀기·계산·그리기 (같은 기계의 서버)", f"{first_open:.2f} 초", ""),
        (
            "처음 열 때 주 스레드의 긴 작업 (느리게 하지 않음, ms)",
            f"가장 긴 것 {max(open_tasks, default=0):.0f}, {len(open_tasks)}개 합 {sum(open_tasks):.0f}",
            "",
        ),
        (
            "저장본으로 열어 탐색기를 처음 만들 때 주 스레드의 긴 작업 (4배, ms)",
            task_summary(mount_tasks),
            "스레드 ≤ 100",
        ),
        (f"다시 방문: 저장본({source})으로 열고 계산·그리기", f"{second_open:.2f} 초", ""),
        *(
            row
            for kernel, (main16, main64, ablate16) in main.items()
            for row in (
                (f"16토큰, 주 스레드, CPU 4배 느리게, 행렬 곱 {kernel} (초)", t(main16), "≤ 1.0"),
                (f"64토큰, 주 스레드, CPU 4배 느리게, 행렬 곱 {kernel} (초)", t(main64), "≤ 3.0"),
                (f"16토큰 헤드 끄기 (1층: 12층 다시), 주 스레드, 4배, 행렬 곱 {kernel} (초)", t(ablate16), "≤ 1.0"),
            )
        ),
        (f"16토큰, 워커 (느리게 할 수 없음), 행렬 곱 {worker_kernel} (초)", t(worker16), ""),
        (f"64토큰, 워커 (느리게 할 수 없음), 행렬 곱 {worker_kernel} (초)", t(worker64), ""),
        (
            "JS 힙 최댓값: 페이지 V8 + 워커 V8 + 워커 ArrayBuffer",
            f"{(sum(peak) + held) / 1e6:.0f} MB ({peak[0] / 1e6:.0f} + {peak[1] / 1e6:.1f} + {held / 1e6:.0f}; 워커 {attached}개)",
            "≤ 150 MB",
        ),
        (
            "워커가 64토큰을 계산하는 동안 주 스레드의 가장 긴 작업 (4배)",
            ", ".join(f"{x['longest']:.0f} ms ({x['count']}개)" for x in long_tasks),
            "≤ 50 ms",
        ),
        ("64토큰 결과: 계산하기 → 탐색기까지 (4배, 주 스레드 포함)", f"{draw_64:.2f} 초", ""),
        *(
            (
                f"{len(tok.encode(PREFIX + text).ids)}토큰 계산하기 → 다 그림: 주 스레드의 긴 작업 (4배, ms)",
                f"{task_summary(tasks)}; {elapsed:.2f} 초",
                "스레드 ≤ 100",
            )
            for text, elapsed, tasks in draws
        ),
        ("문장 바꾸기, 한국어 장: 다음 화면까지 (4배, ms)", switch(ko_switch), "≤ 100"),
        ("문장 바꾸기, 여러분의 문장 16·64토큰: 다음 화면까지 (4배, ms)", switch(own_switch), "≤ 100"),
        ("16토큰 헤드 끄기: 단추 → 결과 (페이지 4배, 워커 1배, ms)", ms(ablate_page), ""),
        ("다른 출처로 간 요청", str(len(foreign)), "0"),
    ]
    print_table(f"브라우저 모델 (chromium {CHROMIUM}, 375 px)", rows, load_before, load_after, value_width=44)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, help="빌드된 사이트 폴더 (없으면 새로 빌드합니다)")
    parser.add_argument(
        "--only", choices=["e5", "gemma"], help="표 하나만 (e5: 여러분의 문장으로, gemma: 여러분의 프롬프트로)"
    )
    args = parser.parse_args()

    def both(site):
        if args.only != "gemma":
            measure(site)
        if args.only != "e5":
            import bench_gemma_browser

            bench_gemma_browser.measure(site)

    if args.site:
        both(args.site)
        return
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1"),
        }
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", tmp], cwd=ROOT, env=env, check=True
        )
        both(Path(tmp))


if __name__ == "__main__":
    main()
