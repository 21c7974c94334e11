"""빌드가 만든 것을 다시 쓸지 정하는 캐시 하나: 페이지 실행 결과, 그림, 데이터, 수식 글꼴이 함께 씁니다.

열쇠(key)는 "무엇을 만들었는가" 를 정하는 것의 해시입니다.

- 재료: 부르는 쪽이 넘깁니다 (페이지의 코드 블록, 스니펫 파일 내용, 글꼴 파일 …).
- 환경: 파이썬 버전과 잠금 파일(requirements.txt, 모든 패키지 버전). 패키지 하나만 올려도 바뀝니다. 그리고
  float32 행렬 곱의 마지막 비트를 정하는 것: BLAS 스레드 수와 CPU (OpenBLAS 는 CPU 에 따라 커널을 고르고, 스레드
  수에 따라 더하는 차례가 달라집니다). 그래서 OPENBLAS_NUM_THREADS 를 바꿔 빌드하거나 다른 기계로 .cache 를
  옮겨도, 테스트가 새로 계산한 값과 캐시의 값이 다른 조건에서 나온 것이 되지 않습니다.
- 빌드 코드 자신: 그것을 만드는 sitebuild 모듈들의 소스. 실행기(codeblocks.run_blocks)나 그리는 방식(figures,
  legibility)을 고치면 `make clean` 없이도 다시 만듭니다. 버전 번호를 손으로 올리지 않습니다.

캐시는 폴더 하나에 이름마다 도장(`<이름>.stamp.json`: 열쇠와 값)을 둡니다. 값은 JSON 이면 무엇이든 되고
(페이지 출력), 파일 목록이면 `files` 가 그 파일들이 아직 있는지도 봅니다 (그림, 데이터). 빌드와 테스트가 같은
폴더(.cache/site/)를 나란히 읽고 쓰므로, 도장은 임시 파일에 쓴 뒤 이름을 바꿔 한 번에 나타나게 합니다.
"""

import hashlib
import json
import os
import platform
import sys
from pathlib import Path

# BLAS 의 스레드 수를 정하는 변수들 (앞의 것이 먼저). 없으면 OpenBLAS 는 코어 수만큼 씁니다.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")


def native(env=None, cpuinfo="/proc/cpuinfo"):
    """BLAS 스레드 수와 CPU 를 한 줄로: 이 둘이 같으면 numpy 의 float32 행렬 곱은 같은 비트를 냅니다."""
    env = os.environ if env is None else env
    threads = next((f"{v}={env[v]}" for v in THREAD_VARIABLES if env.get(v)), f"cores={os.cpu_count()}")
    try:  # 리눅스: CPU 이름과 명령어 집합(flags). 코어마다 같은 줄이 되풀이되므로 한 번씩만.
        lines = Path(cpuinfo).read_text(errors="replace").splitlines()
        wanted = dict.fromkeys(
            line for line in lines if line.startswith(("model name", "flags", "Features", "CPU part"))
        )
        cpu = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:12] if wanted else platform.processor()
    except OSError:
        cpu = platform.processor() or platform.machine()
    return f"blas {threads} | cpu {cpu or platform.machine()}"


def environment(root):
    """계산 결과를 바꿀 수 있는 환경: 파이썬 버전, 잠금 파일의 해시, BLAS 스레드 수와 CPU."""
    lock = Path(root) / "requirements.txt"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()[:16] if lock.exists() else "no-lock"
    return f"python {sys.version.split()[0]} | requirements {digest} | {native()}"


def source_hash(*modules):
    """모듈들(파이썬 모듈 객체)의 소스 파일 해시: 빌드 코드를 고치면 바뀝니다."""
    h = hashlib.sha256()
    for module in modules:
        h.update(module.__name__.encode() + b"\0" + Path(module.__file__).read_bytes())
    return h.hexdigest()[:16]


class Cache:
    """폴더 하나의 캐시. salt 는 환경과 빌드 코드(`Cache.for_code`)처럼 이 캐시의 모든 열쇠에 섞이는 문자열입니다."""

    def __init__(self, folder, salt):
        self.folder, self.salt = Path(folder), salt
        self.folder.mkdir(parents=True, exist_ok=True)

    @classmethod
    def for_code(cls, folder, environment, *modules):
        """열쇠에 환경과 modules(이 캐시의 것을 만드는 sitebuild 모듈들)의 소스를 섞는 캐시."""
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
        """지난번에 이 이름으로 남긴 (열쇠, 값), 없으면 (None, None)."""
        try:
            stamp = json.loads(self._stamp(name).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return None, None
        return stamp.get("key"), stamp.get("value")

    def get(self, name, key):
        """열쇠가 맞으면 남긴 값, 아니면 None."""
        old_key, value = self.previous(name)
        return value if old_key == key else None

    def put(self, name, key, value):
        path = self._stamp(name)
        tmp = path.with_name(f"{path.name}.{id(self)}.tmp")
        tmp.write_text(json.dumps({"key": key, "value": value}, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)  # 빌드와 테스트가 동시에 읽어도 반쯤 쓴 도장을 보지 않게

    def files(self, name, key):
        """열쇠가 맞고 남긴 파일(이 폴더 기준 이름들, 값의 "files")이 모두 있으면 그 경로들, 아니면 None."""
        value = self.get(name, key)
        if not isinstance(value, dict):
            return None
        paths = [self.folder / f for f in value.get("files", ())]
        return paths if all(p.exists() for p in paths) else None

    def put_files(self, name, key, paths, **extra):
        """이 폴더 안의 파일들을 이름과 열쇠로 남깁니다. extra 는 함께 남길 JSON 값 (예: 그림의 측정값)."""
        self.put(name, key, {"files": [Path(p).relative_to(self.folder).as_posix() for p in paths], **extra})

    def names(self):
        """도장이 있는 이름들."""
        return sorted(p.name.removesuffix(".stamp.json").replace("__", "/") for p in self.folder.glob("*.stamp.json"))

    def forget(self, name):
        self._stamp(name).unlink(missing_ok=True)
