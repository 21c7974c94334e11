"""make check 와 make quick: 사이트를 빌드하지 않는 테스트를, 테스트 파일이 겹치지 않는 pytest 프로세스 둘로 돌립니다.

    python tools/check.py              # make check: 모든 테스트 파일
    python tools/check.py --changed    # make quick: HEAD 와 달라진 파일(추적하지 않는 파일 포함)이 닿는 테스트만
    python tools/check.py --changed --list   # 무엇을 왜 고르는지만 찍습니다

왜 프로세스 둘로 직접 나누나: pytest-xdist 는 작업 프로세스마다 모든 테스트(1,210개)를 모은 뒤 일부만 돌리므로 모으는
일을 두 번 합니다. 여기서는 파일을 미리 나눠 프로세스마다 제 파일만 모읍니다. 나누는 기준은 지난 make check 에서 파일마다
걸린 시간(.cache/tests/durations.json 에 테스트마다 적은 것을 파일마다 더함; 없으면 파일마다 1초로 봄)이고, 가장 긴 것부터 덜 찬 쪽에 넣습니다. import 하는 데
1초가 넘는 스니펫(HEAVY_SNIPPETS)을 쓰는 파일끼리는 한 프로세스에 넣습니다: 두 프로세스가 같은 스니펫을 따로 import 하면
그 계산을 두 번 합니다.

--changed 는 tests/support/changes.py 로 고르고 (테스트 파일의 import 닫힘과 reads 표시), 무엇을 왜 골랐는지 찍은 뒤
그 파일들만 모아 (--selection …, 플러그인은 conftest 가 붙입니다) 고른 테스트만 돌립니다. 빌드 코드·conftest·테스트 도구를 고쳤으면 make check 전부입니다.
프로세스마다의 출력은 끝나는 대로 통째로 찍습니다 (두 출력이 줄마다 섞이지 않게).
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "overrides" / "hooks")]

from support import changes

sys.path[:0] = changes.pythonpath(ROOT)  # pytest 와 같은 import 경로 (changes 가 공용 캐시 disk_cache 를 씁니다)

MARKERS = "not site and not engine and not model and not loop"
# 모듈의 pytestmark 가 이 표시를 붙이는 파일은 모으지도 않습니다 (정의와 까닭은 support/changes.py 의 LEFT_OUT:
# 읽기 검사도 같은 표를 씁니다)
LEFT_OUT = changes.LEFT_OUT
DURATIONS = ROOT / ".cache" / "tests" / "durations.json"
# 이 파일의 시간은 대부분 작업 프로세스가 그림을 그리는 동안 기다린 시간입니다
DRAWN_ELSEWHERE = {"tests/test_figure_legibility.py"}
# import 에 1초 넘게 드는 스니펫 (2코어에서 잰 값: korean_model 3.6 초, real_model 2.2 초, why_scale 2.1 초, efficient 1.3 초).
# 같은 이름의 묶음에 든 스니펫을 쓰는 테스트 파일은 한 프로세스에서 돕니다.
HEAVY_SNIPPETS = {
    "korean_model": "models",
    "real_model": "models",
    "why_scale": "why_scale",
    "efficient": "efficient",
}


def units(files, graph):
    """나누는 단위: 무거운 스니펫의 묶음 하나(그것을 직접 import 하는 파일들) 또는 파일 하나."""
    out = {}
    for file in files:
        imported = {Path(p).stem for p in graph.imports.edges(file) if p.startswith("snippets/")}
        group = next((g for s, g in HEAVY_SNIPPETS.items() if s in imported), file)
        out.setdefault(group, []).append(file)
    return list(out.values())


def file_seconds(durations):
    """{테스트 파일: 지난 make check 에서 그 파일의 테스트들이 걸린 초} (durations.json 은 테스트마다 적습니다)."""
    out = {}
    for nodeid, entry in durations.items():
        file = nodeid.split("::", 1)[0]
        out[file] = out.get(file, 0.0) + entry["seconds"]
    return out


def selected_seconds(files, plan, durations):
    """고른 테스트들(plan, keep 과 같은 규칙)이 지난 make check 에서 걸린 초의 합. 적힌 것이 없는 파일은 1초로 봅니다."""
    total, known = 0.0, set()
    for nodeid, entry in durations.items():
        file, _, rest = nodeid.partition("::")
        known.add(file)
        if file in files and changes.keep(file, entry.get("reads"), entry.get("names", ()), plan):
            total += entry["seconds"]
    return total + sum(1.0 for f in files if f not in known)


def split(files, processes, graph, durations):
    """파일들을 processes 개의 겹치지 않는 묶음으로: 오래 걸리는 단위부터 가장 덜 찬 묶음에 (LPT).
    durations: file_seconds 의 {파일: 초} (없는 파일은 1초)."""
    cost = {tuple(u): sum(durations.get(f, 1.0) for f in u) for u in units(files, graph)}
    bins = [[0.0, []] for _ in range(max(1, processes))]
    for unit, seconds in sorted(cost.items(), key=lambda kv: (-kv[1], kv[0])):
        target = min(bins, key=lambda b: b[0])
        target[0] += seconds
        target[1].extend(unit)
    return [sorted(files) for _, files in bins if files]


def run(groups, extra, record):
    """묶음마다 pytest 프로세스 하나를 나란히 띄우고, 끝나는 대로 출력을 찍습니다. 종료 코드는 가장 나쁜 것."""
    tmp = Path(tempfile.mkdtemp(prefix="check-"))
    procs = []
    for i, files in enumerate(groups, start=1):
        args = [sys.executable, "-m", "pytest", "-q", "-m", MARKERS, *extra]
        if record:
            args += ["--record-durations", str(tmp / f"durations-{i}.json")]
        log = (tmp / f"out-{i}.txt").open("w+", encoding="utf-8")
        procs.append((i, files, log, subprocess.Popen([*args, *files], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)))
    codes, pending = {}, list(procs)
    while pending:
        for entry in list(pending):
            i, files, log, proc = entry
            if proc.poll() is None:
                continue
            pending.remove(entry)
            log.seek(0)
            head = f"── 프로세스 {i}/{len(procs)}: 테스트 파일 {len(files)}개 "
            print(head + "─" * max(0, 100 - len(head)), flush=True)
            print(log.read(), end="", flush=True)
            log.close()
            codes[i] = proc.returncode
        time.sleep(0.05)
    # 테스트가 실패해도(1) 걸린 시간은 씁니다. pytest 자신의 오류나 중단(2 이상)이면 쓰지 않습니다.
    if record and all(code in (0, 1) for code in codes.values()):
        measured = {}
        for path in tmp.glob("durations-*.json"):
            measured.update(json.loads(path.read_text(encoding="utf-8")))
        DURATIONS.parent.mkdir(parents=True, exist_ok=True)
        DURATIONS.write_text(json.dumps(measured, indent=1, sort_keys=True), encoding="utf-8")
    # pytest 의 5 = 모은 테스트가 없음 (고른 파일의 테스트가 모두 site 표시일 때): 실패가 아닙니다
    return max((code for code in codes.values() if code != 5), default=0)


def describe(selection, changed):
    print(f"make quick: HEAD 와 달라진 파일 {len(changed)}개 (추적하지 않는 파일 포함)")
    for path in changed:
        print(f"  {path}\n      → {selection.notes.get(path, '')}")
    if selection.full:
        print(f"make check 전부를 돌립니다 (까닭: {', '.join(selection.full)})")
        return
    print(f"고른 테스트 파일 {len(selection.files())}개:")
    for file, why in sorted(selection.whole.items()):
        print(f"  {file}: 모두 — {why}")
    for file, patterns in sorted(selection.reads.items()):
        print(f"  {file}: reads {', '.join(patterns)} 인 테스트")
    if selection.subjects:
        print(f"매개변수로 고르는 이름 (페이지·노트북·스니펫 파일·그림): {', '.join(sorted(selection.subjects))}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changed", action="store_true", help="HEAD 와 달라진 파일이 닿는 테스트만 (make quick)")
    parser.add_argument("--list", action="store_true", help="고르기만 찍고 테스트는 돌리지 않습니다")
    parser.add_argument("--processes", type=int, default=2, help="pytest 프로세스 수 (기본 2, 1 이면 하나로)")
    args, extra = parser.parse_known_args(argv)
    if args.processes < 1:
        parser.error(f"--processes={args.processes}: 1 이상이어야 합니다")
    graph = changes.Graph.read(ROOT)
    every = sorted(f for f, t in graph.tests.items() if not t.marks & LEFT_OUT)
    durations = json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}
    if any("::" not in nodeid for nodeid in durations):  # 파일마다 적던 예전 모양: 없는 것으로 봅니다
        durations = {}
    per_file = file_seconds(durations)
    if not args.changed:
        return run(split(every, args.processes, graph, per_file), extra, record=True)
    changed = changes.changed_files(ROOT)
    selection = changes.select(changed, graph)
    selection.leave_out(graph, LEFT_OUT)
    describe(selection, changed)
    if args.list:
        return 0
    if selection.full:
        return run(split(every, args.processes, graph, per_file), extra, record=True)
    files = [f for f in selection.files() if (ROOT / f).is_file()]  # 지운 테스트 파일은 돌릴 것이 없습니다
    if not files:
        print("고른 테스트가 없습니다 (린터만 돌았습니다).")
        return 0
    plan = selection.plan(graph.universe())
    path = Path(tempfile.mkdtemp(prefix="quick-")) / "selection.json"
    path.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    # 작은 고르기는 한 프로세스가 빠릅니다 (프로세스마다 pytest 와 numpy·matplotlib 을 띄우고 모으는 데 3–4초).
    # 어림은 고른 테스트들의 지난 시간입니다 (파일 전체의 시간이 아니라). 그림은 pytest 밖의 작업 프로세스가 모으기가
    # 끝나자마자 그리므로(conftest 의 START) 그림 파일의 시간은 세지 않습니다: 스니펫 하나를 고치면 그 장의 그림이 가장
    # 긴 일이지만, 그동안 한 pytest 프로세스가 나머지를 돌립니다.
    estimate = selected_seconds([f for f in files if f not in DRAWN_ELSEWHERE], plan, durations)
    processes = args.processes if estimate > 20 else 1
    print(f"고른 테스트의 지난 시간 {estimate:.1f}초 (그림 제외) → pytest 프로세스 {processes}개")
    return run(split(files, processes, graph, per_file), [*extra, "--selection", str(path)], record=False)


if __name__ == "__main__":
    sys.exit(main())
