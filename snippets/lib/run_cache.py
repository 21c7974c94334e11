"""학습은 한 번만: 학습 기록을 파일로 남겨 두고, 그림·슬라이더·페이지·테스트가 모두 그 파일을 읽습니다.

왜 필요한가: 사이트를 빌드할 때 "헤드는 어떻게 역할을 배우나" 장의 그림(그림 작업 프로세스), 슬라이더의 데이터(빌드
프로세스), 페이지의 코드(페이지마다 새 프로세스)는 서로 다른 파이썬 프로세스에서 돕니다. 저마다 학습하면 같은 학습을
세 번 합니다. 그래서 학습 기록(npz)을 저장소의 .cache/runs/ 에 남깁니다 (make clean 이 지웁니다).

파일 이름의 해시는 학습을 정하는 모든 것입니다: 학습의 인자(설정 dict, 시드, 스텝 수 …), 학습 코드(TRAINING_CODE 의
스니펫 파일 내용), 그리고 빌드·테스트의 캐시와 같은 환경(disk_cache.environment: 파이썬·numpy 버전, 잠금 파일, BLAS
스레드 수·커널·CPU). 그중 하나라도 바뀌면 새로 학습하고, 같은 이름의 옛 파일은 지웁니다.

저장과 잠금은 disk_cache.stored 가 합니다: 여러 프로세스가 같은 기록을 동시에 찾으면 하나가 학습하고 나머지는
기다립니다. 기록 여럿을 한꺼번에 찾을 때는 아무도 학습하지 않는 기록부터 맡으므로, 두 프로세스가 기록을 나눠서 학습합니다.
"""

import contextlib
import ctypes
import json
from pathlib import Path

import numpy as np

import disk_cache

# 학습 결과를 정하는 스니펫: 두 학습기(tiny_training, tiny_batch)와 그것들이 (간접으로라도) import 하는 스니펫 모두
# (tests/test_run_cache.py 가 빌드의 import 닫힘과 같은지 확인합니다)
TRAINING_CODE = ("attention", "repeat_task", "tiny_batch", "tiny_training", "tiny_transformer")
HERE = Path(__file__).resolve().parent
FOLDER = disk_cache.ROOT / ".cache" / "runs"


def run_key(kwargs):
    """학습 인자 + 학습 코드 + 환경(disk_cache.environment)의 해시 (20자)."""
    return disk_cache.digest(
        json.dumps(kwargs, sort_keys=True, ensure_ascii=False),
        disk_cache.file_hash(HERE, TRAINING_CODE),
        disk_cache.environment(),
        length=20,
    )


def _train(kwargs):
    """인자에 "runs" 가 있으면 여러 모델을 한꺼번에(tiny_batch.train_many), 없으면 하나를(tiny_training.train) 학습합니다.

    학습하는 동안 OpenBLAS 는 스레드 하나로 셈합니다 (one_blas_thread).
    """
    with one_blas_thread():
        if "runs" in kwargs:
            from tiny_batch import train_many

            return train_many(**kwargs)
        from tiny_training import train

        return train(**kwargs)


@contextlib.contextmanager
def one_blas_thread():
    """그 안에서 numpy 의 OpenBLAS 가 스레드 하나만 쓰게 합니다 (끝나면 되돌립니다).

    왜: 이 학습의 행렬 곱은 작아서(32×32 …) OpenBLAS 가 스레드 둘로 나누면 서로 기다리느라 CPU 를 열 배쯤 더 쓰고
    (2코어에서 잰 값: 모델 여섯을 200 스텝, 스레드 하나 CPU 3.5초, 둘 36초), 스레드 수에 따라 곱을 나누는 자리가 달라 마지막 비트도
    달라집니다. Makefile 과 tests/conftest.py 는 OPENBLAS_NUM_THREADS=1 로 정해 두지만, mkdocs 나 파이썬을 바로 부르는 독자는
    그러지 않을 수 있습니다. 그래서 학습만은 환경과 상관없이 스레드 하나로 셉니다. 환경 변수는 OpenBLAS 가 처음 읽힐 때만
    읽히므로, threadpoolctl 처럼 OpenBLAS 가 내보내는 set_num_threads 를 ctypes 로 부릅니다. 찾지 못하면(다른 BLAS) 그대로 둡니다.
    """
    lib = _openblas()
    if lib is None:
        yield
        return
    get, set_ = lib
    before = get()
    set_(1)
    try:
        yield
    finally:
        set_(before)


def _openblas():
    """numpy 의 휠에 든 OpenBLAS 의 (get_num_threads, set_num_threads), 없으면 None."""
    import glob

    here = Path(np.__file__).parent
    names = ("*openblas*.so*", "*openblas*.dylib", "*openblas*.dll")
    for folder in (here.parent / "numpy.libs", here / ".dylibs"):
        for path in sorted(p for name in names for p in glob.glob(str(folder / name))):
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            for prefix in ("scipy_openblas", "openblas"):
                for suffix in ("64_", "_64_", ""):
                    get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                    set_ = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                    if get is not None and set_ is not None:
                        get.restype, set_.argtypes = ctypes.c_int, [ctypes.c_int]
                        return get, set_
    return None


def trained(runs, folder=FOLDER):
    """{이름: tiny_training.train 이나 tiny_batch.train_many 의 인자} → {이름: 학습 기록 (dict of arrays)}.

    저장한 기록이 있으면 읽기만 합니다.
    """
    out, waiting, wait = {}, dict(runs), False
    while waiting:
        progressed = False
        for name, kwargs in list(waiting.items()):
            record = disk_cache.stored(folder, name, run_key(kwargs), lambda k=kwargs: _train(k), block=wait)
            if record is disk_cache.BUSY:
                continue  # 다른 프로세스가 이 기록을 학습하는 중: 다른 기록부터
            out[name] = record
            del waiting[name]
            progressed = True
        wait = not progressed  # 남은 것을 모두 남이 학습하는 중이면, 이제는 차례를 기다립니다
    return out
