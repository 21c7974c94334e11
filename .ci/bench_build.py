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

목표 (2코어 기계): 깨끗한 빌드 ≤ 30 초, 페이지 하나 고친 뒤 다시 빌드 ≤ 3 초, 모델 읽기+계산 < 1 초,
numpy 인코더 ≤ transformers eager 의 3 배, 한국어 모델 읽기 ≤ 1 초, 읽은 뒤 32토큰 문장 하나 ≤ 0.1 초,
글 1,000개 임베딩의 최대 RSS ≤ 1.5 GB (하나씩 계산한 것과 차이 ≤ 1e-6).
"""

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
MKDOCS = [sys.executable, "-m", "mkdocs"]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "JUPYTER_PLATFORM_DIRS": "1"}


def timed_build(site_dir):
    t0 = time.perf_counter()
    subprocess.run([*MKDOCS, "build", "--strict", "-q", "-d", site_dir], cwd=ROOT, env=ENV, check=True)
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


def model_timing(script=MODEL_TIMING):
    """새 파이썬 프로세스에서 (import 포함) 모델 읽기와 문장 하나 계산에 걸린 시간."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "snippets",
        capture_output=True,
        text=True,
        check=True,
        env={**ENV, "PYTHONPATH": str(ROOT / "snippets")},
    )
    n, load, forward = out.stdout.split()
    return int(n), float(load), float(forward)


def main():
    shutil.rmtree(ROOT / ".cache", ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        clean = timed_build(tmp)
        warm = timed_build(tmp)
    edits = serve_rebuild([ROOT / "docs" / "four_steps.md", ROOT / "snippets" / "four_steps.py"])
    n_tokens, load, forward = min((model_timing() for _ in range(3)), key=lambda t: t[1] + t[2])
    e5_tokens, e5_load, e5_forward = min((model_timing(E5_TIMING) for _ in range(3)), key=lambda t: t[1] + t[2])
    print(f"{'측정':<44}{'초':>8}   목표")
    print(f"{'깨끗한 빌드 (캐시 없음, 그림·노트북 포함)':<40}{clean:>8.2f}   ≤ 30")
    print(f"{'캐시가 있는 빌드':<44}{warm:>8.2f}")
    for path, wall, built in edits:
        goal = "≤ 3" if path.suffix == ".md" else ""
        label = f"serve: {path} 수정 → 다시 빌드"
        print(f"{label:<44}{built:>8.2f}   {goal}  (수정부터 완료까지 {wall:.2f} 초)")
    label = f"모델 읽기 + {n_tokens}토큰 문장 계산 (3번 중 가장 빠른 것)"
    print(f"{label:<40}{load + forward:>8.2f}   < 1  (읽기 {load:.2f} + 계산 {forward:.3f})")
    label = "한국어 모델(multilingual-e5-small) 읽기"
    print(f"{label:<40}{e5_load:>8.2f}   ≤ 1")
    label = f"읽은 뒤 {e5_tokens}토큰 문장 계산 (30번 중 가장 빠른 것)"
    print(f"{label:<40}{e5_forward:>8.3f}   ≤ 0.1")
    print()
    subprocess.run([sys.executable, str(ROOT / ".ci" / "bench_encoder.py")], cwd=ROOT, env=ENV, check=True)
    print()
    subprocess.run([sys.executable, str(ROOT / ".ci" / "bench_memory.py")], cwd=ROOT, env=ENV, check=True)
    print()
    subprocess.run([sys.executable, str(ROOT / ".ci" / "bench_browser_model.py")], cwd=ROOT, env=ENV, check=True)


if __name__ == "__main__":
    main()
