"""학습은 한 번만 (snippets/lib/run_cache.py): 같은 인자·같은 학습 코드면 남겨 둔 기록을 읽고, 무엇 하나라도 바뀌면 다시 학습하며,
여러 프로세스(여기서는 스레드)가 동시에 찾아도 같은 기록을 두 번 학습하지 않고, 여러 기록은 나눠서 학습합니다."""

import json
import threading
import time

import numpy as np
import pytest

import run_cache
from conftest import SNIPPETS, snippet_path
from sitebuild import snippets
from support import runs

# 과제(토막 8–16개, 확인용 수열)가 들어갈 길이와 어휘는 그대로 두고, 폭만 줄인 모델 (몇 스텝이면 끝납니다)
TINY = {"vocab": 32, "n_ctx": 32, "d_model": 4, "heads": 2, "layers": 1, "embed_std": 0.5, "scaled": True}


def test_training_code_is_the_import_closure_of_the_training():
    """해시에 넣는 스니펫 = 두 학습기(tiny_training, tiny_batch)가 (간접으로라도) import 하는 스니펫 전부 (빌드의 import 닫힘과 같은 규칙)."""
    assert set(run_cache.TRAINING_CODE) == snippets.closure({"tiny_training", "tiny_batch"}, SNIPPETS)


@pytest.fixture
def counted(monkeypatch):
    """tiny_training.train 을 감싸 누가 무엇을 학습했는지 적습니다 (천천히: 동시에 찾는 쪽이 기다리게)."""
    import tiny_training

    calls, real = [], tiny_training.train

    def train(**kwargs):
        calls.append((threading.current_thread().name, kwargs["seed"]))
        time.sleep(0.3)
        return real(**kwargs)

    monkeypatch.setattr(tiny_training, "train", train)
    return calls


def run(seed, steps=3):
    return {"config": TINY, "seed": seed, "steps": steps, "every": 1, "batch": 2}


def test_a_record_is_trained_once_and_read_afterwards(tmp_path, counted):
    first = run_cache.trained({"a": run(0)}, tmp_path)["a"]
    again = run_cache.trained({"a": run(0)}, tmp_path)["a"]
    assert [seed for _, seed in counted] == [0]
    assert first.keys() == again.keys()
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])
    assert len(list(tmp_path.glob("a-*.npz"))) == 1


def test_changed_arguments_train_again_and_drop_the_old_record(tmp_path, counted):
    run_cache.trained({"a": run(0)}, tmp_path)
    old = next(tmp_path.glob("a-*.npz"))
    run_cache.trained({"a": run(0, steps=4)}, tmp_path)
    assert [seed for _, seed in counted] == [0, 0]
    assert not old.exists() and len(list(tmp_path.glob("a-*.npz"))) == 1
    assert run_cache.run_key(run(0)) != run_cache.run_key(run(0, steps=4))


def test_the_key_covers_the_training_code(monkeypatch, tmp_path):
    """학습 코드 파일의 글자 하나가 바뀌어도 열쇠가 바뀝니다 (스니펫 폴더를 복사해 고쳐 봅니다)."""
    for name in run_cache.TRAINING_CODE:
        (tmp_path / f"{name}.py").write_bytes(snippet_path(name).read_bytes())
    monkeypatch.setattr(run_cache, "HERE", tmp_path)
    before = run_cache.run_key(run(0))
    path = tmp_path / "tiny_transformer.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n# 고침\n", encoding="utf-8")
    assert run_cache.run_key(run(0)) != before


def test_two_processes_asking_at_once_train_it_once(tmp_path, counted):
    results = {}

    def ask(name):
        results[name] = run_cache.trained({"a": run(1)}, tmp_path)["a"]

    threads = [threading.Thread(target=ask, args=(n,), name=n) for n in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counted) == 1
    np.testing.assert_array_equal(results["x"]["train_loss"], results["y"]["train_loss"])


def test_two_processes_asking_for_two_records_share_the_work(tmp_path, counted):
    def ask():
        run_cache.trained({"a": run(2), "b": run(3)}, tmp_path)

    threads = [threading.Thread(target=ask, name=n) for n in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seed for _, seed in counted) == [2, 3]  # 기록마다 한 번
    assert {who for who, _ in counted} == {"x", "y"}  # 둘이 하나씩 맡았습니다


def test_training_uses_one_blas_thread_whatever_the_environment(tmp_path):
    """학습은 OPENBLAS_NUM_THREADS=2 인 프로세스에서도 스레드 하나로 셉니다 (run_cache.one_blas_thread): 그 안에서 OpenBLAS 의
    스레드 수는 1 이고 끝나면 되돌아오며, 이 장의 모델(행렬 곱이 OpenBLAS 가 스레드를 나누는 크기)을 20 스텝 학습한 기록이
    스레드 하나로 학습한 것과 비트까지 같습니다. 커널은 Haswell 로 정합니다: 이슈 38 에서 스레드 둘이 결과를 바꾼 커널입니다."""
    import subprocess
    import sys

    code = (
        "import json, sys, numpy as np, run_cache\n"
        "from tiny_transformer import CONFIG\n"
        "get, _ = run_cache._openblas()\n"
        "before = get()\n"
        "with run_cache.one_blas_thread():\n"
        "    inside = get()\n"
        "rec = run_cache.trained({'r': {'config': CONFIG, 'seed': 0, 'steps': 20, 'every': 10}}, sys.argv[1])['r']\n"
        "print(json.dumps([before, inside, get(), rec['train_loss'].tobytes().hex(), rec['param:W_U'].tobytes().hex()]))\n"
    )
    out = {}
    for threads in ("1", "2"):
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": runs.snippet_pythonpath(),
            "OPENBLAS_NUM_THREADS": threads,
            "OPENBLAS_CORETYPE": "Haswell",
        }
        proc = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / threads)], env=env, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        out[threads] = json.loads(proc.stdout.splitlines()[-1])
    assert out["2"][:3] == [2, 1, 2] and out["1"][:3] == [1, 1, 1]
    assert out["2"][3:] == out["1"][3:]
