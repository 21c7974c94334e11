"""인코더 속도 벤치마크 (테스트가 아니라 재는 도구입니다): `make bench` 가 부르고, 혼자 돌려도 됩니다.

    .venv/bin/python .ci/bench_encoder.py                 # 우리 numpy 인코더만
    BENCH_TORCH_PYTHON=/work/venvs/torch311/bin/python .venv/bin/python .ci/bench_encoder.py

같은 입력(all-MiniLM-L6-v2, 토큰 128개, 배치 1)을 두 구현에 넣고 한 번의 실행 안에서 번갈아 잽니다.
- numpy: snippets/lib/bert_numpy.py 의 encode (이 저장소의 가상환경)
- transformers: BertModel(attn_implementation="eager") 의 forward, torch.inference_mode
  프로젝트 가상환경에는 torch 가 없습니다(requirements 에 넣지 않습니다). transformers 와 torch 를
  import 할 수 있는 파이썬을 BENCH_TORCH_PYTHON 으로 알려 주면 그 파이썬으로 잽니다. 그런 환경은
  tests/fixtures/make_minilm_fixture.py 의 머리말대로 만듭니다. 없으면 그렇다고 말하고 numpy 만 잽니다.

두 구현은 각각 따로 된 프로세스(작업자)에서 모델을 읽고 데워 둔 뒤, 부모가 "N 번 계산" 을 번갈아
시킵니다. 한쪽이 재는 동안 다른 쪽은 기다리므로 서로의 CPU 를 빼앗지 않고, 기계의 부하가 바뀌어도
두 구현이 같은 때에 같은 만큼 영향을 받습니다. 스레드 수는 둘 다 같게 맞춥니다 (BENCH_THREADS,
기본값은 CPU 수): numpy 의 OpenBLAS 에는 OPENBLAS_NUM_THREADS 로, torch 에는 set_num_threads 로.
마지막으로 두 구현의 마지막 은닉 상태가 얼마나 같은지도 찍습니다 (fixture 와 같은 1e-5 기준).

목표: numpy 의 중앙값이 transformers 의 3 배 이하 (이슈 15).
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
N_TOKENS = 128
# 15 번 번갈아, 한 번에 10 회씩 계산합니다 (BENCH_ROUNDS, BENCH_CALLS 로 바꿀 수 있습니다)
ROUNDS, CALLS = int(os.environ.get("BENCH_ROUNDS", 15)), int(os.environ.get("BENCH_CALLS", 10))
TEXT = (
    "Attention lets every token look at every other token and decide how much of each to take. "
    "The weights come from a softmax over scaled dot products of queries and keys, and the output "
    "is the weighted sum of the values. "
)

WORKER = r"""
import json, os, sys, time
import numpy as np
kind, ids_path, model_dir, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ids = np.load(ids_path)
if kind == "numpy":
    import bert_numpy
    model = bert_numpy.load_model()
    forward = lambda: bert_numpy.encode(model, ids)[0]
    info = {"name": "numpy (snippets/lib/bert_numpy.py)", "version": "numpy " + np.__version__}
else:
    import torch, transformers
    from transformers import BertModel
    torch.set_num_threads(threads)
    transformers.logging.set_verbosity_error()
    model = BertModel.from_pretrained(model_dir, attn_implementation="eager", add_pooling_layer=False).eval()
    tensor = torch.from_numpy(ids)
    def forward():
        with torch.inference_mode():
            return model(input_ids=tensor).last_hidden_state.numpy()
    info = {"name": "transformers BertModel (eager)",
            "version": f"transformers {transformers.__version__}, torch {torch.__version__}",
            "threads": torch.get_num_threads()}
for _ in range(3):
    forward()
print(json.dumps(info), flush=True)
for line in sys.stdin:
    command, arg = line.split()
    if command == "time":
        times = []
        for _ in range(int(arg)):
            t0 = time.perf_counter()
            forward()
            times.append(time.perf_counter() - t0)
        print(json.dumps(times), flush=True)
    elif command == "dump":
        np.save(arg, forward())
        print("[]", flush=True)
"""


def torch_python():
    """transformers 와 torch 를 import 할 수 있는 파이썬: 지금 이 파이썬, 아니면 BENCH_TORCH_PYTHON."""
    candidates = [sys.executable] + ([os.environ["BENCH_TORCH_PYTHON"]] if os.environ.get("BENCH_TORCH_PYTHON") else [])
    for python in candidates:
        probe = subprocess.run([python, "-c", "import torch, transformers"], capture_output=True)
        if probe.returncode == 0:
            return python, None
    if os.environ.get("BENCH_TORCH_PYTHON"):
        return (
            None,
            f"BENCH_TORCH_PYTHON={os.environ['BENCH_TORCH_PYTHON']} 에서 torch/transformers 를 import 할 수 없습니다",
        )
    return None, "이 파이썬에는 torch 가 없고 BENCH_TORCH_PYTHON 도 정해지지 않았습니다"


class Worker:
    def __init__(self, python, kind, ids_path, model_dir, threads):
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "snippets" / "lib"),
            "OPENBLAS_NUM_THREADS": str(threads),
            "OMP_NUM_THREADS": str(threads),
        }
        self.proc = subprocess.Popen(
            [python, "-c", WORKER, kind, str(ids_path), str(model_dir), str(threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.info = json.loads(self._read())
        self.times = []

    def _read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"작업자가 끝나 버렸습니다 (종료 코드 {self.proc.wait()})")
        return line

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return json.loads(self._read())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main():
    sys.path.insert(0, str(ROOT / "snippets" / "lib"))
    import bert_numpy

    model = bert_numpy.load_model()
    ids, _ = bert_numpy.tokenize(model, TEXT * 8)
    ids = np.concatenate([ids[: N_TOKENS - 1], ids[-1:]])[None]  # [CLS] … [SEP], 정확히 128 토큰
    assert ids.shape == (1, N_TOKENS) and ids[0, -1] == 102
    threads = int(os.environ.get("BENCH_THREADS", os.cpu_count()))
    python, why_not = torch_python()

    with tempfile.TemporaryDirectory() as tmp:
        ids_path = Path(tmp) / "ids.npy"
        np.save(ids_path, ids)
        workers = [Worker(sys.executable, "numpy", ids_path, bert_numpy.model_dir(), threads)]
        if python:
            workers.append(Worker(python, "transformers", ids_path, bert_numpy.model_dir(), threads))
        try:
            for _ in range(ROUNDS):
                for w in workers:
                    time.sleep(0.3)  # 방금 끝난 쪽의 스레드(OpenBLAS, OpenMP)가 바쁜 대기를 멈출 때까지
                    w.times += w.ask(f"time {CALLS}")
            outputs = []
            for i, w in enumerate(workers):
                path = Path(tmp) / f"out{i}.npy"
                w.ask(f"dump {path}")
                outputs.append(np.load(path))
        finally:
            for w in workers:
                w.close()

    print(
        f"인코더 속도: all-MiniLM-L6-v2, 토큰 {N_TOKENS}개 (배치 1), 스레드 {threads}, "
        f"{ROUNDS}번 번갈아 {CALLS}회씩 = 구현마다 {ROUNDS * CALLS}회"
    )
    print(f"{'구현':<34}{'최소 ms':>9}{'중앙값 ms':>11}   버전")
    for w in workers:
        t = np.array(w.times) * 1e3
        print(f"{w.info['name']:<34}{t.min():>9.1f}{np.median(t):>11.1f}   {w.info['version']}")
    if len(workers) == 1:
        print(f"transformers 는 재지 않았습니다: {why_not}.")
        print("  tests/fixtures/make_minilm_fixture.py 의 머리말대로 만든 환경을 BENCH_TORCH_PYTHON 으로 알려 주세요.")
        return
    ours, theirs = (np.array(w.times) for w in workers)
    ratio = np.median(ours) / np.median(theirs)
    print(
        f"{'배율 numpy / transformers':<34}{ours.min() / theirs.min():>9.2f}{ratio:>11.2f}   "
        f"목표 ≤ 3 ({'통과' if ratio <= 3 else '넘음'})"
    )
    diff = np.abs(outputs[0] - outputs[1]).max()
    print(f"두 구현의 last_hidden_state 최대 차이: {diff:.1e} (기준 ≤ 1e-5)")


if __name__ == "__main__":
    main()
