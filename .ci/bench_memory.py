"""문장 임베딩의 메모리 벤치마크 (테스트가 아니라 재는 도구입니다): `make bench` 가 부릅니다.

길이가 섞인 글 1,000개(가장 긴 것은 512 토큰)를 multilingual-e5-small 로 한 번에 임베딩하는 새 프로세스의
최대 RSS 를 재고, 같은 글을 하나씩 임베딩한 결과와 비교합니다.

목표: 최대 RSS ≤ 1.5 GB, 한 번에 계산한 임베딩 = 하나씩 계산한 임베딩 (원소마다 차이 ≤ 1e-6).

예전에는 모든 글을 가장 긴 글에 맞춰 한 배치로 채우고 12층의 (batch, h, n, n) 가중치를 모두 모아 두어서,
이 입력이면 가중치만 1,000 × 12 × 12 × 512² × 4 바이트 ≈ 150 GB 가 필요했습니다. 지금은 비슷한 길이끼리
묶어 계산하고(bert_numpy.length_batches) 가중치를 모아 두지 않습니다(encode(..., keep_weights=False)).

    python .ci/bench_memory.py            # 표 하나를 찍습니다
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets" / "lib"  # e5_numpy 와 그것이 import 하는 라이브러리
COUNT = 1000
MAX_TOKENS = 512
RSS_GOAL_GB = 1.5
ATOL = 1e-6

WORDS = (
    "고양이가 매트 위에 앉았다 나는 학교에 간다 어텐션은 쿼리와 키를 비교해 밸류를 섞습니다 "
    "오늘은 비가 와서 우리는 집에서 영화를 보았다 The cat sat on the mat and the dog chased the ball "
    "모델은 문장을 조각으로 나눈 뒤 조각마다 벡터를 만듭니다 2026년 12월 1일 오후 3시"
).split()

# 자식 프로세스: 글을 읽어 임베딩하고, 결과와 걸린 시간, 최대 RSS 를 남깁니다. one_by_one 이면 글마다 따로.
CHILD = """
import json, resource, sys, time
import numpy as np
from e5_numpy import e5_embeddings, load_e5
texts = json.load(open(sys.argv[1], encoding="utf-8"))
load_e5()
t0 = time.perf_counter()
if sys.argv[3] == "one_by_one":
    e = np.stack([e5_embeddings([t])[0] for t in texts])
else:
    e = e5_embeddings(texts)
seconds = time.perf_counter() - t0
np.save(sys.argv[2], e)
print(json.dumps({"seconds": seconds, "max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def make_texts():
    """길이가 섞인 글 COUNT 개: 대부분 짧은 문장이고, 문단 몇, 긴 글 몇, 그리고 꼭 MAX_TOKENS 토큰인 글 하나.

    토큰 수는 사이트의 토크나이저로 셉니다 (접두어 "query: " 와 <s>, </s> 포함). 토크나이저는 공백 앞에서
    나눈 뒤 낱말마다 따로 조각을 찾으므로, 글의 토큰 수는 낱말마다의 조각 수를 더한 것입니다. 그래서 낱말의
    조각 수를 한 번씩만 세어 두고 더해 가며 글을 만들고, 다 만든 글은 한 번 더 세어 확인합니다.
    """
    sys.path.insert(0, str(SNIPPETS))
    from e5_numpy import e5_tokenize

    base = len(e5_tokenize("")[0]) - 1  # <s>, 접두어 조각들, </s> (빈 글에만 붙는 "▁" 하나는 뺍니다)
    pieces = {w: len(e5_tokenize(w)[0]) - base for w in WORDS}
    assert pieces["the"] == 1
    rng = np.random.default_rng(20)
    kinds = rng.choice(3, size=COUNT, p=[0.75, 0.22, 0.03])  # 문장, 문단, 긴 글
    targets = np.where(
        kinds == 0,
        rng.integers(8, 48, COUNT),
        np.where(kinds == 1, rng.integers(48, 200, COUNT), rng.integers(200, MAX_TOKENS + 1, COUNT)),
    )
    targets[rng.integers(COUNT)] = MAX_TOKENS
    texts = []
    for target in targets.tolist():
        words, count = [], base
        while True:
            word = str(rng.choice(WORDS))
            if count + pieces[word] > target:
                break
            words.append(word)
            count += pieces[word]
        text = " ".join(words)
        if target == MAX_TOKENS:  # 낱말 단위라 조금 모자랄 수 있습니다: 한 조각짜리 낱말("▁the")로 채웁니다
            text += " the" * (MAX_TOKENS - count)
        texts.append(text)
    lengths = [len(e5_tokenize(t)[0]) for t in texts]
    assert max(lengths) == MAX_TOKENS, max(lengths)
    return texts, lengths


def run_child(texts_path, out_path, mode):
    env = {**os.environ, "PYTHONPATH": str(SNIPPETS), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(texts_path), str(out_path), mode],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(proc.stdout.splitlines()[-1])


def main():
    t0 = time.perf_counter()
    texts, lengths = make_texts()
    made = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "texts.json").write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
        batched = run_child(tmp / "texts.json", tmp / "batched.npy", "batched")
        single = run_child(tmp / "texts.json", tmp / "single.npy", "one_by_one")
        a, b = np.load(tmp / "batched.npy"), np.load(tmp / "single.npy")
    diff = float(np.abs(a - b).max())
    norms = np.linalg.norm(a, axis=-1)
    rss_gb = batched["max_rss_kb"] * 1024 / 1e9
    lengths = np.array(lengths)
    print(
        f"글 {len(texts)}개: 토큰 수 최소 {lengths.min()}, 중앙값 {int(np.median(lengths))}, "
        f"최대 {lengths.max()}, 합 {lengths.sum():,} (글 만들기 {made:.1f} 초)"
    )
    print(f"{'측정':<40}{'값':>10}   목표")
    print(f"{'한 번에 임베딩: 최대 RSS (GB)':<36}{rss_gb:>10.2f}   ≤ {RSS_GOAL_GB}")
    print(f"{'한 번에 임베딩: 걸린 시간 (초)':<36}{batched['seconds']:>10.1f}")
    print(f"{'하나씩 임베딩: 최대 RSS (GB)':<36}{single['max_rss_kb'] * 1024 / 1e9:>10.2f}")
    print(f"{'하나씩 임베딩: 걸린 시간 (초)':<36}{single['seconds']:>10.1f}")
    print(f"{'두 결과의 가장 큰 차이':<37}{diff:>10.1e}   ≤ {ATOL:g}")
    print(f"{'임베딩 길이 (최소–최대)':<37}{norms.min():>5.4f}–{norms.max():.4f}")
    ok = rss_gb <= RSS_GOAL_GB and diff <= ATOL and np.all(np.isfinite(a))
    print("목표를 지킵니다" if ok else "목표를 지키지 못했습니다")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
