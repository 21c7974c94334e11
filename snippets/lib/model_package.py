"""브라우저용 모델 파일 묶음의 공통 부분: 한국어 인코더(browser_model.py)와 Gemma 디코더(gemma_browser.py)가 함께 씁니다.

두 묶음 모두 {파일 이름: 바이트} 사전과 그 목록(manifest.json)으로 이루어집니다. 목록은 파일마다 크기, gzip 으로 보낼 때의
크기, sha256 을 적고, 빌드가 WAT 글에서 만든 WebAssembly 커널을 이름으로 적습니다. import 할 때 아무것도 하지 않습니다.
"""

import gzip
import hashlib
import json


def dump(data):
    """JSON 을 빈칸 없이 UTF-8 바이트로 (NaN·무한대는 오류: 브라우저의 JSON.parse 가 읽지 못합니다)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def add_kernels(files, kernels):
    """kernels ((파일 이름, 바이트), …) 를 files 에 넣고 목록에 적을 {"linear": "linear.wasm"} 를 돌려줍니다.

    WebAssembly 파일(.wasm, b"\\0asm" 으로 시작)이 아니면 이름을 밝힌 ValueError 입니다.
    """
    for name, data in kernels:
        if not (name.endswith(".wasm") and bytes(data[:4]) == b"\0asm"):
            raise ValueError(f"kernels 의 {name!r}: WebAssembly 파일(.wasm, b'\\0asm' 으로 시작)이어야 합니다")
        files[name] = bytes(data)
    return {name.removesuffix(".wasm"): name for name, _ in kernels}


def entries(files):
    """{파일 이름: {"bytes", "gzip_bytes", "sha256"}}: 목록의 "files" (gzip 은 수준 6, 시각 0 으로 늘 같은 바이트)."""
    return {
        name: {
            "bytes": len(data),
            "gzip_bytes": len(gzip.compress(data, 6, mtime=0)),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        for name, data in files.items()
    }
