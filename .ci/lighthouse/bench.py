"""Lighthouse 벤치마크 (테스트가 아니라 재는 도구입니다): `make lighthouse`.

1. 사이트를 임시 폴더에 빌드합니다.
2. 127.0.0.1 에서 띄웁니다. GitHub Pages 처럼 텍스트 파일은 gzip 으로 압축해 보냅니다.
3. nav 의 모든 페이지를 Lighthouse(npm, 이 폴더의 package-lock.json 에 고정)로 모바일·데스크톱
   설정에서 각각 여러 번(기본 3번) 재고, 지표마다 중앙값을 표 하나로 찍습니다.

브라우저는 Debian 의 chromium(/usr/bin/chromium)을 씁니다. Lighthouse 가 없으면 이 폴더에서
`npm ci` 로 설치합니다.

    python .ci/lighthouse/bench.py                  # 모든 페이지, 모바일+데스크톱, 3번씩
    python .ci/lighthouse/bench.py --runs 1 --preset mobile --pages four_steps.md heatmap.md
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
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "overrides" / "hooks"), str(ROOT / "snippets")]

from site_pages import nav_pages
from support import static
from support.pageweight import page_url, page_weight

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run --disable-default-apps"
)


def lighthouse(url, preset):
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
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--preset", choices=["mobile", "desktop", "both"], default="both")
    ap.add_argument("--pages", nargs="*", default=None, help="nav 의 문서 경로 (예: four_steps.md)")
    ap.add_argument("--site", help="이미 빌드된 사이트 폴더 (없으면 새로 빌드)")
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
    httpd, origin = static.serve(site, gzip=True)
    presets = ["mobile", "desktop"] if args.preset == "both" else [args.preset]
    pages = args.pages or nav_pages()
    rows = []
    try:
        for doc in pages:
            for preset in presets:
                runs = [lighthouse(origin + page_url(doc), preset) for _ in range(args.runs)]
                med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "failing"}
                med["failing"] = sorted({f for r in runs for f in r["failing"]})
                weight = page_weight(site, doc)
                rows.append((doc, preset, med, weight))
                print(f"  재는 중: {doc} {preset} 성능 {med['perf']:.0f}", file=sys.stderr, flush=True)
    finally:
        httpd.shutdown()
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
        print(
            f"{doc:<40}{preset:<9}{m['perf']:>5.0f}{m['a11y']:>7.0f}{m['bp']:>6.0f}{m['seo']:>6.0f}"
            f"{m['kb']:>9.0f}{w['totals'][('phone' if preset == 'mobile' else 'desktop', 'light')] / 1024:>9.0f}"
            f"{w['gzip'] / 1024:>9.0f}{m['lcp']:>8.0f}{m['cls']:>7.3f}"
            f"{m['tbt']:>8.0f}" + (f"   못 미친 항목: {', '.join(m['failing'])}" if m["failing"] else "")
        )


if __name__ == "__main__":
    main()
