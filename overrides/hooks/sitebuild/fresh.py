"""함수 하나를 새 파이썬 프로세스(`python -c`)에서 부르고 그 값을 돌려받습니다: 페이지 실행(outputs)과 데이터(datafiles).

왜 새 프로세스인가
- 메모리: 빌드 프로세스는 계산이 잡았던 힙을 끝까지 들고 있지 않습니다. 디코더의 데이터(next_token_data)는 모델을
  읽어 1 GB 가까이 잡는데, 돌려준 뒤에도 glibc 가 풀린 힙 수백 MB 를 프로세스에 남겨 두고, 모듈이 lru_cache 로 들고
  있는 모델(헤드 탐색기의 두 인코더)은 빌드가 끝날 때까지 남습니다. 새 프로세스는 끝나면서 모두 돌려줍니다.
- 같은 조건: 부르는 쪽에는 다른 스레드가 돌 수 있습니다 (빌드에는 그림 작업 프로세스를 부리는 스레드, 테스트에는
  배경 작업). 새 프로세스의 결과는 그 코드만으로 정해집니다.

multiprocessing 의 spawn 은 부르는 쪽의 __main__ (pytest, mkdocs) 을 다시 import 하므로 쓰지 않습니다.
부르는 함수는 이 패키지(sitebuild)의 모듈 함수이고, 인자와 값은 pickle 로 임시 폴더의 파일을 거쳐 오갑니다.
예상한 실패(페이지 코드의 오류, 데이터 함수의 오류)는 그 함수가 값으로 돌려줍니다. 프로세스가 값을 남기지 못하고
끝나면(메모리 부족, 네이티브 코드의 충돌, 예상 못 한 예외) ProcessDied 입니다.
"""

import importlib
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

HOOKS_DIR = Path(__file__).resolve().parent.parent  # 이 패키지(sitebuild)가 있는 폴더: 새 프로세스가 import 합니다
_CHILD = "import sys; sys.path.insert(0, sys.argv[1]); from sitebuild import fresh; fresh._child(sys.argv[2])"


class ProcessDied(RuntimeError):
    """새 프로세스가 값을 남기지 못하고 끝났습니다. 메시지에 종료 코드와 stderr 의 끝부분이 있습니다."""


def _child(folder):
    folder = Path(folder)
    module, func, args = pickle.loads((folder / "call.pickle").read_bytes())
    value = getattr(importlib.import_module(f"sitebuild.{module}"), func)(*args)
    (folder / "value.pickle").write_bytes(pickle.dumps(value))


def call(module, func, *args, timeout=900):
    """새 프로세스에서 `sitebuild.<module>.<func>(*args)` 의 값. 값을 남기지 못하고 끝나면 ProcessDied."""
    with tempfile.TemporaryDirectory(prefix="sitebuild-") as tmp:
        (Path(tmp) / "call.pickle").write_bytes(pickle.dumps((module, func, args)))
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(HOOKS_DIR), tmp], capture_output=True, text=True, timeout=timeout
        )
        value = Path(tmp) / "value.pickle"
        if proc.returncode != 0 or not value.exists():
            raise ProcessDied(
                f"프로세스가 결과를 남기지 못하고 끝났습니다 (종료 코드 {proc.returncode}; "
                f"메모리가 모자랐거나 네이티브 코드가 죽었을 수 있습니다)\n{proc.stderr[-3000:]}"
            )
        return pickle.loads(value.read_bytes())
