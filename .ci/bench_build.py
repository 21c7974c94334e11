"""빌드 속도 벤치마크 (테스트가 아니라 재는 도구입니다): `make bench`.

1. 깨끗한 빌드: 캐시(.cache/)를 지우고 `mkdocs build` 에 걸린 시간 (그림·노트북 포함).
2. 캐시가 있는 빌드: 바로 한 번 더 빌드한 시간.
3. `mkdocs serve` 에서 Markdown 페이지 하나를 고친 뒤 다시 빌드되기까지 걸린 시간.
4. `mkdocs serve` 에서 스니펫 하나를 고친 뒤 (그 스니펫의 그림을 다시 그리며) 다시 빌드된 시간.

5. 실제 모델: 새 프로세스에서 all-MiniLM-L6-v2 를 읽고 10토큰 문장 하나를 계산하는 데 걸린 시간.
6. 인코더 속도: 128 토큰에서 numpy 인코더와 transformers 의 BertModel(eager) 을 번갈아 잰 표
   (.ci/bench_encoder.py; transformers 는 BENCH_TORCH_PYTHON 이 가리키는 파이썬에 있을 때만).
7. 한국어 모델: 새 프로세스에서 multilingual-e5-small(4비트 파일)을 읽고, 32토큰 문장 하나를 계산하는 데
   걸린 시간 (읽기와 계산을 따로).
8. 문장 임베딩의 메모리: 길이가 섞인 글 1,000개(가장 긴 것 512 토큰)를 한 번에 임베딩한 프로세스의 최대 RSS 와,
   하나씩 임베딩한 결과와의 차이 (.ci/bench_memory.py).

8. 브라우저 모델("여러분의 문장으로"): .ci/bench_browser_model.py 의 표 (make bench-browser 로 그것만).
9. 다음 토큰 고르기의 디코더(Gemma 3 270M): 깨끗한 빌드에서 디코더가 하는 두 일을 새 프로세스에서 따로 잽니다.
   도구의 데이터(next_token_data.datafiles_steps: 파일 읽기 + 프롬프트 8개 × 20걸음)와 페이지의 코드 블록(모델 읽기,
   한 걸음, 20토큰 두 번). 둘의 합이 깨끗한 빌드에서 디코더가 차지하는 몫입니다. 그리고 깨끗한 빌드의 최대 RSS
   (빌드 프로세스와 그 자식들 — 페이지 실행, 그림 작업 프로세스 — 의 RSS 를 0.2초마다 더한 값의 최댓값).

다른 사람이 같은 코어를 쓰면 시간은 크게 흔들립니다. 그래서 시간마다 그때의 부하 평균(1분)을 함께 찍습니다.
`python .ci/bench_build.py --only build decoder` 처럼 일부만 잴 수 있습니다.

목표 (2코어 기계): 깨끗한 빌드 ≤ 30 초, 페이지 하나 고친 뒤 다시 빌드 ≤ 3 초, 모델 읽기+계산 < 1 초,
numpy 인코더 ≤ transformers eager 의 3 배, 한국어 모델 읽기 ≤ 1 초, 읽은 뒤 32토큰 문장 하나 ≤ 0.1 초,
글 1,000개 임베딩의 최대 RSS ≤ 1.5 GB (하나씩 계산한 것과 차이 ≤ 1e-6),
디코더의 몫 ≤ 60 초, 깨끗한 빌드의 최대 RSS ≤ 3 GB.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# 스니펫의 세 방 (mkdocs.yml 의 base_path, pyproject.toml 의 pythonpath 와 같은 것)
SNIPPET_PATH = os.pathsep.join(str(ROOT / "snippets" / room) for room in ("chapters", "lib", "sitedata"))
MKDOCS = [sys.executable, "-m", "mkdocs"]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "JUPYTER_PLATFORM_DIRS": "1"}


def load():
    """지금의 부하 평균(1분): 다른 일이 코어를 나눠 쓰고 있었는지 시간 옆에 적습니다."""
    return os.getloadavg()[0]


def tree_rss(root_pid):
    """root_pid 와 그 자손 프로세스들의 RSS 합 (바이트, 리눅스 /proc). 읽는 사이 끝난 프로세스는 건너뜁니다."""
    parents, rss = {}, {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            rss[int(entry.name)] = int((entry / "statm").read_text().split()[1]) * page
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])  # 이름에 공백이 있어도: ")" 뒤의 둘째 칸
    family, todo = set(), [root_pid]
    while todo:
        pid = todo.pop()
        family.add(pid)
        todo += [c for c, parent in parents.items() if parent == pid and c not in family]
    return sum(rss.get(pid, 0) for pid in family)


def timed_build(site_dir, peak=None):
    """빌드 시간(초). peak 에 리스트를 주면 빌드 프로세스 무리의 최대 RSS(바이트)를 더해 둡니다."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([*MKDOCS, "build", "--strict", "-q", "-d", site_dir], cwd=ROOT, env=ENV)
    top = 0
    while proc.poll() is None:
        if peak is not None and Path("/proc").is_dir():
            top = max(top, tree_rss(proc.pid))
        time.sleep(0.2)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args)
    if peak is not None:
        peak.append(top)
    return time.perf_counter() - t0


def serve_rebuild(touch_paths, port=8765):
    """serve 를 띄우고, 파일마다 수정 → 'Documentation built in' 이 찍힐 때까지의 시간을 잽니다."""
    proc = subprocess.Popen(
        [*MKDOCS, "serve", "--dev-addr", f"127.0.0.1:{port}", "--livereload"],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()

    def wait_for(pattern, start, timeout=300):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in lines[start:]:
                if re.search(pattern, line):
                    return line
            time.sleep(0.02)
        raise TimeoutError(pattern)

    results = []
    try:
        wait_for(r"Serving on", 0)
        for path in touch_paths:
            time.sleep(1.0)  # 감시자(watchdog)가 안정되도록 잠깐 기다립니다
            start = len(lines)
            original = path.read_bytes()
            t0 = time.perf_counter()
            path.write_bytes(original + b"\n")  # 내용을 바꿔야 캐시가 아닌 진짜 변경이 됩니다
            try:
                line = wait_for(r"Documentation built in", start)
                wall = time.perf_counter() - t0
                built = float(re.search(r"built in ([\d.]+) seconds", line).group(1))
                results.append((path.relative_to(ROOT), wall, built))
            finally:
                path.write_bytes(original)
                wait_for(r"Documentation built in", len(lines))  # 되돌린 것도 빌드가 끝날 때까지
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return results


MODEL_TIMING = """
import time
t0 = time.perf_counter()
import bert_numpy
model = bert_numpy.load_model()
t1 = time.perf_counter()
ids, tokens = bert_numpy.tokenize(model, "The quick brown fox jumps over the lazy dog")
bert_numpy.encode(model, ids)
t2 = time.perf_counter()
print(len(tokens), t1 - t0, t2 - t1)
"""


E5_TIMING = """
import time
t0 = time.perf_counter()
import bert_numpy, e5_numpy
model = e5_numpy.load_e5()
t1 = time.perf_counter()
ids, tokens = e5_numpy.e5_tokenize("아버지가 부엌에서 된장찌개를 끓이시는 동안 우리는 거실에서 다 함께 재미있는 영화를 보았다.")
bert_numpy.encode(model, ids)  # 처음 한 번은 메모리 준비가 섞이므로 버리고
times = []
for _ in range(10):  # 다른 프로세스가 CPU 를 나눠 쓰면 한 번 잰 값은 크게 흔들립니다: 가장 빠른 것
    t2 = time.perf_counter()
    bert_numpy.encode(model, ids)
    times.append(time.perf_counter() - t2)
print(len(tokens), t1 - t0, min(times))
"""


# 다음 토큰 고르기: 도구의 데이터와 페이지의 코드 블록 (빌드가 하는 그대로, 캐시 없이). 벽시계, CPU 시간, 최대 RSS.
DECODER_DATA = """
import resource, time
t0, c0 = time.perf_counter(), time.process_time()
import next_token_data
next_token_data.datafiles_steps()
print(time.perf_counter() - t0, time.process_time() - c0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""
DECODER_PAGE = """
import resource, sys, time
sys.path[:0] = sys.argv[1:3]
from site_pages import page_blocks
from sitebuild import codeblocks
blocks = page_blocks("next_token.md")
t0, c0 = time.perf_counter(), time.process_time()
codeblocks.run_blocks(blocks)
print(time.perf_counter() - t0, time.process_time() - c0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def decoder_timing(script):
    """(벽시계 초, CPU 초, 최대 RSS 바이트, 시작할 때의 부하 평균)."""
    before = load()
    out = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "tests"), str(ROOT / "overrides" / "hooks")],
        cwd=ROOT / "snippets",
        capture_output=True,
        text=True,
        check=True,
        env={**ENV, "PYTHONPATH": SNIPPET_PATH},
    )
    wall, cpu, rss = (float(x) for x in out.stdout.split()[-3:])
    return wall, cpu, rss, before


def model_timing(script=MODEL_TIMING):
    """새 파이썬 프로세스에서 (import 포함) 모델 읽기와 문장 하나 계산에 걸린 시간."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "snippets",
        capture_output=True,
        text=True,
        check=True,
        env={**ENV, "PYTHONPATH": SNIPPET_PATH},
    )
    n, load, forward = out.stdout.split()
    return int(n), float(load), float(forward)


PARTS = ("build", "serve", "model", "encoder", "memory", "browser", "decoder")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=PARTS, default=PARTS, help="잴 것 (기본: 모두)")
    parts = set(ap.parse_args().only)
    print(f"{'측정':<44}{'초':>8}   목표   (부하 평균: 그때 1분 평균)")
    if "build" in parts:
        shutil.rmtree(ROOT / ".cache", ignore_errors=True)
        peak = []
        with tempfile.TemporaryDirectory() as tmp:
            clean_load = load()
            clean = timed_build(tmp, peak)
            warm_load = load()
            warm = timed_build(tmp)
        print(f"{'깨끗한 빌드 (캐시 없음, 그림·노트북 포함)':<40}{clean:>8.2f}   ≤ 30  (부하 {clean_load:.1f})")
        print(f"{'  그동안 빌드 프로세스 무리의 최대 RSS (GB)':<40}{peak[0] / 1e9:>8.2f}   ≤ 3")
        print(f"{'캐시가 있는 빌드':<44}{warm:>8.2f}         (부하 {warm_load:.1f})")
    if "serve" in parts:
        for path, wall, built in serve_rebuild(
            [ROOT / "docs" / "four_steps.md", ROOT / "snippets" / "chapters" / "four_steps.py"]
        ):
            goal = "≤ 3" if path.suffix == ".md" else ""
            label = f"serve: {path} 수정 → 다시 빌드"
            print(f"{label:<44}{built:>8.2f}   {goal}  (수정부터 완료까지 {wall:.2f} 초, 부하 {load():.1f})")
    if "model" in parts:
        n_tokens, m_load, forward = min((model_timing() for _ in range(3)), key=lambda t: t[1] + t[2])
        e5_tokens, e5_load, e5_forward = min((model_timing(E5_TIMING) for _ in range(3)), key=lambda t: t[1] + t[2])
        label = f"모델 읽기 + {n_tokens}토큰 문장 계산 (3번 중 가장 빠른 것)"
        print(f"{label:<40}{m_load + forward:>8.2f}   < 1  (읽기 {m_load:.2f} + 계산 {forward:.3f}, 부하 {load():.1f})")
        label = "한국어 모델(multilingual-e5-small) 읽기"
        print(f"{label:<40}{e5_load:>8.2f}   ≤ 1")
        label = f"읽은 뒤 {e5_tokens}토큰 문장 계산 (30번 중 가장 빠른 것)"
        print(f"{label:<40}{e5_forward:>8.3f}   ≤ 0.1")
    if "decoder" in parts:
        data = decoder_timing(DECODER_DATA)
        page = decoder_timing(DECODER_PAGE)
        for label, (wall, cpu, rss, before) in (
            ("디코더: 도구의 데이터 (8 프롬프트 × 20걸음)", data),
            ("디코더: 페이지의 코드 블록", page),
        ):
            print(f"{label:<40}{wall:>8.2f}         (CPU {cpu:.1f} 초, 최대 RSS {rss / 1e9:.2f} GB, 부하 {before:.1f})")
        label = "디코더의 몫 (두 일의 합)"
        print(f"{label:<40}{data[0] + page[0]:>8.2f}   ≤ 60  (CPU {data[1] + page[1]:.1f} 초)")
    for name, script in (
        ("encoder", "bench_encoder.py"),
        ("memory", "bench_memory.py"),
        ("browser", "bench_browser_model.py"),
    ):
        if name in parts:
            print()
            subprocess.run([sys.executable, str(ROOT / ".ci" / script)], cwd=ROOT, env=ENV, check=True)


if __name__ == "__main__":
    main()
