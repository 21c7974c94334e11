"""Lighthouse 벤치마크 (테스트가 아니라 재는 도구입니다): `make lighthouse`.

1. 사이트를 임시 폴더에 빌드합니다.
2. 127.0.0.1 에서 띄웁니다. GitHub Pages 처럼 텍스트 파일은 gzip 으로 압축해 보냅니다.
3. nav 의 모든 페이지를 Lighthouse(npm, 이 폴더의 package-lock.json 에 고정)로 모바일·데스크톱
   설정에서 각각 여러 번(기본 3번) 재고, 지표마다 중앙값을 표 하나로 찍습니다.

브라우저는 Debian 의 chromium(/usr/bin/chromium)을 씁니다. Lighthouse 가 없으면 이 폴더에서
`npm ci` 로 설치합니다.

    python .ci/lighthouse/bench.py                  # 모든 페이지, 모바일+데스크톱, 3번씩
    python .ci/lighthouse/bench.py --runs 1 --preset mobile --pages four_steps.md heatmap.md

빌드 여럿을 나란히 (예: 지난 릴리스와 지금): 같은 페이지를 사이트마다 번갈아 재므로(차례도 돌려 가며), 기계를 함께 쓰는
다른 일의 부하가 모든 쪽에 고르게 걸립니다. 재기 직전의 부하 평균(1분)도 함께 찍습니다.

    python .ci/lighthouse/bench.py --preset mobile --site 새_사이트 --vs old=옛_사이트 [--vs 이름=폴더 …] [--save 폴더]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [
    str(ROOT / "tests"),
    str(ROOT / "overrides" / "hooks"),
    *(str(ROOT / "snippets" / room) for room in ("chapters", "lib", "sitedata")),
]

from site_pages import nav_pages
from support import static
from support.pageweight import page_file, page_url, page_weight

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run --disable-default-apps"
)


def lighthouse(url, preset, raw=False):
    binary = HERE / "node_modules" / ".bin" / "lighthouse"
    cmd = [
        str(binary),
        url,
        "--quiet",
        "--output=json",
        "--output-path=stdout",
        f"--chrome-flags={FLAGS}",
        "--only-categories=performance,accessibility,best-practices,seo",
    ]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "CHROME_PATH": CHROMIUM})
    if out.returncode != 0:
        raise RuntimeError(f"lighthouse 실패 ({url}, {preset}):\n{out.stderr[-2000:]}")
    r = json.loads(out.stdout)
    a = r["audits"]
    failing = [
        f"{ref['id']}"
        for cat in ("accessibility", "best-practices", "seo")
        for ref in r["categories"][cat]["auditRefs"]
        if ref["weight"] > 0 and (a[ref["id"]]["score"] or 0) < 1 and a[ref["id"]]["score"] is not None
    ]
    return {
        "perf": r["categories"]["performance"]["score"] * 100,
        "a11y": r["categories"]["accessibility"]["score"] * 100,
        "bp": r["categories"]["best-practices"]["score"] * 100,
        "seo": r["categories"]["seo"]["score"] * 100,
        "kb": a["total-byte-weight"]["numericValue"] / 1024,
        "lcp": a["largest-contentful-paint"]["numericValue"],
        "cls": a["cumulative-layout-shift"]["numericValue"],
        "tbt": a["total-blocking-time"]["numericValue"],
        "failing": failing,
        **({"raw": r} if raw else {}),
    }


def _row(doc, preset, m, w):
    return (
        f"{doc:<40}{preset:<9}{m['perf']:>5.0f}{m['a11y']:>7.0f}{m['bp']:>6.0f}{m['seo']:>6.0f}"
        f"{m['kb']:>9.0f}{w['totals'][('phone' if preset == 'mobile' else 'desktop', 'light')] / 1024:>9.0f}"
        f"{w['gzip'] / 1024:>9.0f}{m['lcp']:>8.0f}{m['cls']:>7.3f}"
        f"{m['tbt']:>8.0f}" + (f"   못 미친 항목: {', '.join(m['failing'])}" if m["failing"] else "")
    )


def median_of(runs):
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k not in ("failing", "load")}
    med["failing"] = sorted({f for r in runs for f in r["failing"]})
    return med


def compare(args, presets, sites):
    """여러 사이트({이름: 폴더}, 차례대로)를 페이지마다 번갈아 잽니다 (그 페이지가 있는 사이트만).

    한 번(run)마다 사이트를 모두 한 번씩 재고, 그 차례를 페이지와 번마다 돌려(회전) 부하가 어느 한쪽에 몰리지 않게 합니다.
    """
    names = list(sites)
    servers = {name: static.serve(site, gzip=True) for name, site in sites.items()}
    wanted = args.pages or nav_pages()
    has = {d: [n for n in names if page_file(sites[n], d).exists()] for d in wanted}
    pages = [d for d in wanted if has[d]]
    rows, saved = [], Path(args.save) if args.save else None
    try:
        for k, doc in enumerate(pages):
            for preset in presets:
                here = has[doc]
                runs = {name: [] for name in here}
                for r in range(args.runs):
                    turn = (k + r) % len(here)
                    for name in here[turn:] + here[:turn]:
                        load = os.getloadavg()[0]
                        got = lighthouse(servers[name][1] + page_url(doc), preset, raw=saved is not None)
                        got["load"] = load
                        if saved is not None:
                            saved.mkdir(parents=True, exist_ok=True)
                            stem = f"{name}-{doc.replace('/', '_')}-{preset}-{r}"
                            (saved / f"{stem}.json").write_text(json.dumps(got.pop("raw")), encoding="utf-8")
                        runs[name].append(got)
                meds = {name: median_of(v) for name, v in runs.items()}
                loads = [x["load"] for v in runs.values() for x in v]
                rows.append((doc, preset, meds, loads))
                print(
                    f"  {doc} {preset}: 성능 "
                    + " ".join(f"{n} {meds[n]['perf']:.0f}" for n in here)
                    + ", TBT "
                    + " ".join(f"{n} {meds[n]['tbt']:.0f}" for n in here)
                    + f" ms (부하 {min(loads):.1f}–{max(loads):.1f})",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        for httpd, _ in servers.values():
            static.stop(httpd)
    print(f"Lighthouse 12.2.3, 사이트 {len(names)}개를 번갈아 {args.runs}번씩 잰 중앙값 (chromium {CHROMIUM})")
    for name in names:
        print(f"  {name}: {sites[name]}")
    cols = [("perf", "성능", 0), ("tbt", "TBT ms", 0), ("lcp", "LCP ms", 0), ("kb", "전송 KB", 0)]
    head = f"{'페이지':<38}{'설정':<8}" + "".join(
        f"{label + ' ' + n:>{max(9, len(label) + len(n) + 3)}}" for _, label, _ in cols for n in names
    )
    print(head + f"{'부하(1분)':>12}")
    for doc, preset, m, loads in rows:
        # 한쪽 사이트에만 있는 페이지(새 장)는 없는 쪽 칸을 "–" 로 둡니다
        cells = "".join(
            f"{m[n][key]:>{max(9, len(label) + len(n) + 3)}.0f}"
            if n in m
            else f"{'–':>{max(9, len(label) + len(n) + 3)}}"
            for key, label, _ in cols
            for n in names
        )
        failing = {n: m[n]["failing"] for n in names if n in m and m[n]["failing"]}
        print(
            f"{doc:<40}{preset:<9}{cells}{min(loads):>7.1f}–{max(loads):.1f}"
            + "".join(f"   {n}: 못 미친 항목 {', '.join(f)}" for n, f in failing.items())
        )
    for preset in presets:
        for common in (False, True):
            for name in names:
                chosen = [
                    m for _, p, m, _ in rows if p == preset and name in m and (not common or len(m) == len(names))
                ]
                perf = sorted(m[name]["perf"] for m in chosen)
                tbt = sorted(m[name]["tbt"] for m in chosen)
                if perf and (len(names) > 1 or not common):
                    print(
                        f"{preset} {name} ({'모든 사이트에 있는 ' if common else ''}{len(perf)}쪽): 성능 최소/중앙/최대 "
                        f"{perf[0]:.0f} / {statistics.median(perf):.0f} / {perf[-1]:.0f}, "
                        f"TBT {tbt[0]:.0f} / {statistics.median(tbt):.0f} / {tbt[-1]:.0f} ms"
                    )
    loads = [x for *_, ls in rows for x in ls]
    if loads:
        print(
            f"재기 직전의 부하 평균(1분): 최소 {min(loads):.1f}, 중앙 {statistics.median(loads):.1f}, 최대 {max(loads):.1f}"
        )
    partial = [f"{d} ({', '.join(has[d]) or '없음'})" for d in wanted if len(has[d]) < len(names)]
    if partial:
        print("일부 사이트에만 있는 페이지 (괄호 안의 사이트에서만 쟀습니다): " + ", ".join(partial))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--preset", choices=["mobile", "desktop", "both"], default="both")
    ap.add_argument("--pages", nargs="*", default=None, help="nav 의 문서 경로 (예: four_steps.md)")
    ap.add_argument("--site", help="이미 빌드된 사이트 폴더 (없으면 새로 빌드)")
    ap.add_argument(
        "--vs",
        action="append",
        metavar="이름=폴더",
        help="견줄 다른 빌드의 사이트 (예: old=/tmp/old-site, 여러 번 줄 수 있음): 페이지마다 사이트들을 번갈아 잽니다",
    )
    ap.add_argument("--name", default="new", help="--site (또는 새로 빌드한 사이트)의 이름 (--vs 와 함께, 기본 new)")
    ap.add_argument("--save", help="Lighthouse 의 JSON 보고서를 이 폴더에 남깁니다 (--vs 와 함께)")
    args = ap.parse_args()
    if not (HERE / "node_modules" / ".bin" / "lighthouse").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)

    tmp = None
    site = Path(args.site) if args.site else None
    if site is None:
        tmp = tempfile.TemporaryDirectory()
        site = Path(tmp.name) / "site"
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "JUPYTER_PLATFORM_DIRS": "1"}
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT, env=env, check=True
        )
    presets = ["mobile", "desktop"] if args.preset == "both" else [args.preset]
    if args.vs:
        try:
            others = dict(v.split("=", 1) if "=" in v else (Path(v).name, v) for v in args.vs)
            compare(args, presets, {**{n: Path(f) for n, f in others.items()}, args.name: site})
        finally:
            if tmp:
                tmp.cleanup()
        return
    httpd, origin = static.serve(site, gzip=True)
    pages = args.pages or nav_pages()
    rows = []
    try:
        for doc in pages:
            for preset in presets:
                med = median_of([lighthouse(origin + page_url(doc), preset) for _ in range(args.runs)])
                weight = page_weight(site, doc)
                rows.append((doc, preset, med, weight))
                print(f"  재는 중: {doc} {preset} 성능 {med['perf']:.0f}", file=sys.stderr, flush=True)
    finally:
        static.stop(httpd)
        if tmp:
            tmp.cleanup()

    # 원본 KB: 그 화면(모바일=좁은 판 그림, 데스크톱=넓은 판 그림)의 밝은 팔레트에서 페이지가 내려받는 바이트
    head = (
        f"{'페이지':<38}{'설정':<8}{'성능':>5}{'접근성':>6}{'권장':>5}{'SEO':>5}"
        f"{'전송 KB':>9}{'원본 KB':>9}{'gzip KB':>9}{'LCP ms':>8}{'CLS':>7}{'TBT ms':>8}"
    )
    print(f"Lighthouse 12.2.3, {args.runs}번 잰 중앙값 (chromium {CHROMIUM})")
    print(head)
    for doc, preset, m, w in rows:
        print(_row(doc, preset, m, w))


if __name__ == "__main__":
    main()
