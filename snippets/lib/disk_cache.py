"""디스크 캐시 하나: 빌드(페이지 출력, 그림, 데이터, 수식 글꼴), 테스트의 일, 스니펫의 무거운 계산(학습 기록, 측정)이 함께 씁니다.

키(key)는 "무엇을 만들었는가" 를 정하는 것의 해시입니다.

- 재료: 부르는 쪽이 넘깁니다 (페이지의 코드 블록, 스니펫 파일 내용, 학습의 인자, 글꼴 파일 …).
- 환경(environment, 이 파일에만 정의가 있습니다): 파이썬 버전, numpy 버전, 잠금 파일(requirements.txt, 모든 패키지
  버전)의 해시, 그리고 float32 행렬 곱의 마지막 비트를 정하는 것: BLAS 스레드 수, CPU, 커널을 바꾸는 변수
  (OPENBLAS_CORETYPE, NPY_DISABLE_CPU_FEATURES). OpenBLAS 는 CPU 에 따라 커널을 고르고, 스레드 수에 따라 더하는 차례가
  달라집니다. 그래서 OPENBLAS_NUM_THREADS 를 바꾸거나 다른 기계로 .cache 를 옮겨도, 테스트가 새로 계산한 값과 캐시의 값이
  다른 조건에서 나온 것이 되지 않습니다.
- 빌드 코드 자신 (Cache.for_code): 그것을 만드는 모듈들의 소스. 실행기나 그리는 방식을 고치면 `make clean` 없이도 다시
  만듭니다. 버전 번호를 손으로 올리지 않습니다.

두 가지 모양으로 남깁니다.

- Cache: 폴더 하나에 이름마다 도장(`<이름>.stamp.json`: 키와 JSON 값). 값이 파일 목록이면 `files` 가 그 파일들이
  아직 있는지도 봅니다 (그림, 데이터).
- stored: 배열(npz)이나 JSON 값 하나를 `<이름>-<키>.npz|json` 에. 여러 프로세스가 같은 것을 찾으면 하나가 계산하고
  나머지는 파일 잠금(fcntl.flock)에서 기다렸다 읽습니다. 키가 바뀌면 같은 이름의 옛 파일은 지웁니다.

빌드와 테스트가 같은 폴더를 나란히 읽고 쓰므로, 파일은 임시 이름으로 쓴 뒤 이름을 바꿔 한 번에 나타나게 합니다.
이 모듈은 import 할 때 아무것도 계산하거나 찍지 않습니다.
"""

import fcntl
import hashlib
import json
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# 저장소의 뿌리: 잠금 파일이 있는 가장 가까운 위 폴더 (없으면 snippets/lib 의 두 칸 위)
ROOT = next((p for p in HERE.parents if (p / "requirements.txt").exists()), HERE.parents[1])

# BLAS 의 스레드 수를 정하는 변수들 (앞의 것이 먼저). 없으면 OpenBLAS 는 코어 수만큼 씁니다.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
# CPU 를 보고 고르는 커널을 다른 것으로 바꾸는 변수들 (.ci/cpu_matrix.py 가 다른 CPU 를 흉내 낼 때 씁니다)
KERNEL_VARIABLES = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")


def native(env=None, cpuinfo="/proc/cpuinfo"):
    """BLAS 스레드 수, 커널 변수, CPU 를 한 줄로: 이것들이 같으면 numpy 의 float32 행렬 곱은 같은 비트를 냅니다."""
    env = os.environ if env is None else env
    threads = next((f"{v}={env[v]}" for v in THREAD_VARIABLES if env.get(v)), f"cores={os.cpu_count()}")
    kernel = "".join(f" {v}={env[v]}" for v in KERNEL_VARIABLES if env.get(v))
    try:  # 리눅스: CPU 이름과 명령어 집합(flags). 코어마다 같은 줄이 되풀이되므로 한 번씩만.
        lines = Path(cpuinfo).read_text(errors="replace").splitlines()
        wanted = dict.fromkeys(
            line for line in lines if line.startswith(("model name", "flags", "Features", "CPU part"))
        )
        cpu = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:12] if wanted else platform.processor()
    except OSError:
        cpu = platform.processor() or platform.machine()
    return f"blas {threads}{kernel} | cpu {cpu or platform.machine()}"


def environment(root=ROOT):
    """계산 결과를 바꿀 수 있는 환경: 파이썬·numpy 버전, 잠금 파일의 해시, BLAS 스레드 수·커널·CPU (한 줄)."""
    import numpy as np

    lock = Path(root) / "requirements.txt"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()[:16] if lock.exists() else "no-lock"
    return f"python {sys.version.split()[0]} | numpy {np.__version__} | requirements {digest} | {native()}"


def digest(*parts, length=24):
    """재료들의 해시 (length 자). 재료는 무엇이든 str 로 읽고, 사이에 \\0 을 넣어 경계가 섞이지 않게 합니다."""
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode() + b"\0")
    return h.hexdigest()[:length]


def source_hash(*modules):
    """모듈들(파이썬 모듈 객체)의 소스 파일 해시: 만드는 코드를 고치면 바뀝니다."""
    h = hashlib.sha256()
    for module in modules:
        h.update(module.__name__.encode() + b"\0" + Path(module.__file__).read_bytes())
    return h.hexdigest()[:16]


def file_hash(folder, names):
    """folder 의 파일 <이름>.py 들의 내용 해시 (16자): 결과를 정하는 스니펫 파일들."""
    return digest(*(f"{n}\0{(Path(folder) / f'{n}.py').read_text(encoding='utf-8')}" for n in names), length=16)


class Cache:
    """폴더 하나의 캐시. salt 는 환경과 빌드 코드(`Cache.for_code`)처럼 이 캐시의 모든 키에 섞이는 문자열입니다."""

    def __init__(self, folder, salt):
        self.folder, self.salt = Path(folder), salt
        self.folder.mkdir(parents=True, exist_ok=True)

    @classmethod
    def for_code(cls, folder, environment, *modules):
        """키에 환경과 modules(이 캐시의 것을 만드는 모듈들)의 소스를 섞는 캐시."""
        return cls(folder, f"{environment} | code {source_hash(*modules)}")

    def key(self, *parts):
        """재료들과 salt 의 해시 (24자)."""
        h = hashlib.sha256(self.salt.encode())
        for part in parts:
            h.update(b"\0" + str(part).encode())
        return h.hexdigest()[:24]

    def _stamp(self, name):
        return self.folder / f"{name.replace('/', '__')}.stamp.json"

    def previous(self, name):
        """지난번에 이 이름으로 남긴 (키, 값), 없으면 (None, None)."""
        try:
            stamp = json.loads(self._stamp(name).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return None, None
        return stamp.get("key"), stamp.get("value")

    def get(self, name, key):
        """키가 맞으면 남긴 값, 아니면 None."""
        old_key, value = self.previous(name)
        return value if old_key == key else None

    def put(self, name, key, value):
        path = self._stamp(name)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{id(self)}.tmp")
        tmp.write_text(json.dumps({"key": key, "value": value}, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)  # 빌드와 테스트가 동시에 읽어도 반쯤 쓴 도장을 보지 않게

    def files(self, name, key):
        """키가 맞고 남긴 파일(이 폴더 기준 이름들, 값의 "files")이 모두 있으면 그 경로들, 아니면 None."""
        value = self.get(name, key)
        if not isinstance(value, dict):
            return None
        paths = [self.folder / f for f in value.get("files", ())]
        return paths if all(p.exists() for p in paths) else None

    def put_files(self, name, key, paths, **extra):
        """이 폴더 안의 파일들을 이름과 키로 남깁니다. extra 는 함께 남길 JSON 값 (예: 그림의 측정값)."""
        self.put(name, key, {"files": [Path(p).relative_to(self.folder).as_posix() for p in paths], **extra})

    def write_files(self, name, key, files):
        """files ({이 폴더 기준 이름: bytes 나 str}) 를 이 폴더에 쓰고 이름과 키로 남깁니다. 지난번에 이 이름으로 남긴
        파일 가운데 이번에 없는 것은 지웁니다. 쓴 경로들을 돌려줍니다."""
        _, old = self.previous(name)
        for stale in old.get("files", ()) if isinstance(old, dict) else ():
            if stale not in files:
                (self.folder / stale).unlink(missing_ok=True)
        paths = []
        for file, data in files.items():
            path = self.folder / file
            if isinstance(data, str):
                path.write_text(data, encoding="utf-8")
            else:
                path.write_bytes(data)
            paths.append(path)
        self.put_files(name, key, paths)
        return paths

    def names(self):
        """도장이 있는 이름들."""
        return sorted(p.name.removesuffix(".stamp.json").replace("__", "/") for p in self.folder.glob("*.stamp.json"))

    def forget(self, name):
        self._stamp(name).unlink(missing_ok=True)


# --- 계산 하나의 결과 (배열 사전이나 JSON 값) -------------------------------------------------------

BUSY = object()  # stored(..., block=False): 다른 프로세스가 그 이름을 계산하는 중


def _load(path, kind):
    if kind == "json":
        return json.loads(path.read_text(encoding="utf-8"))
    import numpy as np

    with np.load(path) as saved:
        return {k: saved[k] for k in saved.files}


def _save(path, kind, value):
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.{kind}")
    if kind == "json":
        tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    else:
        import numpy as np

        np.savez(tmp, **value)
    tmp.replace(path)  # 다른 프로세스가 반쯤 쓴 파일을 읽지 않게 한 번에 나타나게 합니다


def stored(folder, name, key, compute, kind="npz", block=True):
    """folder/<name>-<key>.<kind> 를 읽거나, 없으면 compute() 로 계산해 남기고 돌려줍니다.

    kind: "npz" (compute 는 {이름: 배열}) 나 "json" (JSON 값). key 는 부르는 쪽이 재료와 environment() 로 만듭니다.
    같은 이름을 여러 프로세스가 함께 찾으면 먼저 온 쪽이 계산하는 동안 나머지는 잠금 파일에서 기다렸다가 읽습니다.
    block=False 면 기다리지 않고 BUSY 를 돌려줍니다 (여러 이름을 나눠 계산할 때). 폴더를 만들 수 없으면 (읽기 전용)
    그냥 계산합니다. 처음 계산한 쪽도 남긴 파일을 읽어 돌려주므로, 누가 계산했든 같은 모양(npz 는 값마다 배열)을
    받습니다. 새로 남길 때 같은 이름의 다른 키 파일은 지웁니다.
    """
    if kind not in ("npz", "json"):
        raise ValueError(f"kind={kind!r} 는 'npz' 나 'json' 이어야 합니다")
    folder = Path(folder)
    path = folder / f"{name}-{key}.{kind}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / f"{name}.lock", "w")
    except OSError:
        return compute()
    with lock:  # 닫을 때 풀립니다
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
        except BlockingIOError:
            return BUSY
        if path.exists():
            return _load(path, kind)
        _save(path, kind, compute())
        value = _load(path, kind)  # 읽은 쪽과 같은 모양으로 (npz 는 값마다 배열)
        for old in folder.glob(f"{name}-*.{kind}"):  # 같은 이름의 옛 키 (이름이 name-으로 시작하는 다른 이름은 빼고)
            rest = old.name[len(name) + 1 : -len(kind) - 1]
            if old != path and "-" not in rest and "." not in rest:
                old.unlink(missing_ok=True)
        return value
