"""헤드의 값 재기: 헤드를 하나씩, 그리고 층을 통째로 꺼 보며 무엇이 얼마나 바뀌는지 잽니다.

"보는 것과 시험하는 것" 페이지(head_ablation.py)와 그 그림·데이터, 그리고 두 모델 페이지 헤드 탐색기의 헤드 끄기
(explorer_ablation.py: head_effects 의 헤드마다 값)가 씁니다. 끄는 방법은 bert_numpy 의
switch_off / encode(heads_off=...) 와 같습니다 (기본값 "zero": 헤드의 출력을 W_O 앞에서 0 으로).

잰 것 두 가지 (문장마다, 끈 헤드마다)
- 문장 임베딩이 움직인 거리 1 − cos: 끄지 않았을 때의 임베딩과 끈 뒤의 임베딩 (둘 다 길이 1 로 맞춘 토큰 평균,
  sentence_embeddings 와 같은 방식).
- 다른 헤드들의 어텐션이 바뀐 정도: 헤드마다 쿼리 행끼리 젠슨-섀넌 거리(head_stats.js_distance)를 재어, 진짜
  토큰의 행과 끄지 않은 다른 모든 헤드에서 평균한 값. 같은 층과 앞 층의 헤드는 입력이 그대로라 0 이고(계산하지
  않고 0 으로 셉니다), 그래서 마지막 층의 헤드는 이 값이 언제나 0 입니다.

계산량과 캐시
    헤드 하나를 끌 때마다 그 층부터 끝까지 다시 계산합니다. 끈 층보다 앞의 층은 끄지 않은 계산과 같으므로
    그 층에 들어가던 은닉 상태에서 시작하고(run_layers), 한 층의 헤드 12개와 층 전체, 모두 13가지를 문장들과 함께
    한 배치로 돌립니다. 그래도 multilingual-e5-small 은 문장 하나에 층 × 13 번의 계산이 12층짜리 문장 약 85개
    만큼이라서, 2코어 기계에서 문장 7개에 10–20초가 걸립니다. 결과는 stored_worth 가 .cache/measurements/ 에
    남기고, 재료(아래 SOURCES 의 스니펫 파일들, 문장, 잠금 파일, BLAS 스레드 수와 CPU)가 그대로면 다시 읽습니다.
    빌드의 그림 작업 프로세스, 데이터, 페이지 실행이 모두 이 결과를 쓰므로 깨끗한 빌드에서도 한 번만 계산합니다.
"""

# --8<-- [start:measure]
import numpy as np

from bert_numpy import embed, length_batches, run_layers, tokenize
from head_stats import js_distance


def pooled(hidden, valid):
    """문장 임베딩 (batch, d_model): 진짜 토큰(valid = 1)의 은닉 상태 평균을 길이 1 로."""
    # 1 − cos 가 아주 작아도 자릿수가 남게 float64 로
    hidden, valid = hidden.astype(np.float64), valid[..., None]
    mean = (hidden * valid).sum(axis=1) / valid.sum(axis=1)
    return mean / np.linalg.norm(mean, axis=-1, keepdims=True)


def moved(before, after, queries):
    """헤드마다 어텐션이 바뀐 정도: 같은 쿼리 행끼리 JS 거리를 진짜 토큰의 행에서 평균. (batch, h, n, n) × 2 → (batch, h)."""
    # (batch, h, n)
    d = js_distance(before, after)
    return (d * queries[:, None]).sum(-1) / queries.sum(-1)[:, None]


def head_effects(model, texts, budget=1024):
    """문장마다 헤드를 하나씩, 층을 통째로 꺼 본 결과를 헤드마다: {"embedding": 1 − cos, "moved": JS 거리}.

    "embedding" 은 (문장 수, 층 수, 헤드 수 + 1), "moved" 는 (문장 수, 층 수, 헤드 수 + 1, 층 수, 헤드 수) 입니다.
    [s, l, h] 는 문장 s 에서 l층 h번 헤드(0부터)만 껐을 때, [s, l, 헤드 수] 는 l층의 헤드를 모두 껐을 때이고,
    "moved"[s, l, h, l2, h2] 는 그때 l2층 h2번 헤드의 어텐션이 움직인 정도(moved, 진짜 토큰의 쿼리 행 평균)입니다.
    끈 층과 그 앞 층의 헤드는 입력이 그대로라 0 입니다 (계산하지 않습니다). budget 은 배치 하나의 (행 수 × 토큰 수) 상한.
    """
    n_layers, n_heads = model.config["num_hidden_layers"], model.config["num_attention_heads"]
    # 헤드 하나씩 n_heads 가지 + 층 전체
    variants = n_heads + 1
    out = {"embedding": np.zeros((len(texts), n_layers, variants)),
           "moved": np.zeros((len(texts), n_layers, variants, n_layers, n_heads))}
    encoded = [tokenize(model, t)[0] for t in texts]
    for batch in length_batches([variants * len(ids) for ids in encoded], budget):
        n = max(len(encoded[i]) for i in batch)
        ids = np.full((len(batch), n), model.config["pad_token_id"])
        valid = np.zeros((len(batch), n), dtype=np.int64)
        for row, i in enumerate(batch):
            ids[row, :len(encoded[i])], valid[row, :len(encoded[i])] = encoded[i], 1
        # 끄지 않은 계산: 층마다 들어가는 은닉 상태와 그 층의 가중치를 남깁니다
        x, inputs, maps = embed(model, ids, valid), [], []
        for layer in range(n_layers):
            inputs.append(x)
            x, (w,) = run_layers(model, x, layer, valid, stop=layer + 1)
            maps.append(w)
        intact = pooled(x, valid)
        # 행 → 문장 (문장마다 13가지)
        rows = np.repeat(np.arange(len(batch)), variants)
        # 행 → 끈 헤드 (마지막은 층 전체)
        kind = np.tile(np.arange(variants), len(batch))
        # 진짜 토큰의 쿼리 행만 평균합니다
        queries = valid[rows].astype(bool)
        sentence = np.asarray(batch)[rows]
        for layer in range(n_layers):
            off = np.zeros((variants, n_layers, n_heads), dtype=bool)
            off[np.arange(n_heads), layer, np.arange(n_heads)] = True
            off[n_heads, layer] = True
            # 끈 층부터 시작합니다: 그 앞 층은 끄지 않은 계산과 같습니다
            y, weights = run_layers(model, inputs[layer][rows], layer, valid[rows], heads_off=off[kind])
            out["embedding"][sentence, layer, kind] = 1 - (pooled(y, valid[rows]) * intact[rows]).sum(-1)
            # 뒤 층의 헤드들
            for later in range(layer + 1, n_layers):
                out["moved"][sentence, layer, kind, later] = moved(maps[later][rows], weights[later - layer], queries)
    return out


def head_worth(model, texts, budget=1024):
    """문장마다 헤드를 하나씩, 층을 통째로 꺼 본 결과: {"embedding": 1 − cos, "attention": JS 거리 평균}.

    둘 다 (문장 수, 층 수, 헤드 수 + 1) 이고 칸의 뜻은 head_effects 와 같습니다. "attention" 은 끄지 않은 다른
    모든 헤드의 moved 평균입니다 (같은 층과 앞 층의 0 도 넣어서: 그래서 마지막 층의 헤드는 언제나 0 입니다).
    """
    effects = head_effects(model, texts, budget)
    n_layers, variants = effects["embedding"].shape[1:]
    n_heads = variants - 1
    # 끄지 않은 다른 헤드 수: 헤드 하나를 끄면 나머지 모두, 층을 끄면 그 층의 헤드를 뺀 수
    others = n_layers * n_heads - np.where(np.arange(variants) == n_heads, n_heads, 1)
    return {"embedding": effects["embedding"], "attention": effects["moved"].sum(axis=(-2, -1)) / others}
# --8<-- [end:measure]


# --8<-- [start:store]
from pathlib import Path

import disk_cache

HERE = Path(__file__).resolve().parent  # snippets/lib: SOURCES 가 모두 이 방에 있습니다


def chapter_sentences(chapter):
    """모델 장의 스니펫이 쓰는 문장 목록: "real_model" 은 english_sentences.SENTENCES, "korean_model" 은
    korean_sentences.SENTENCES (ANNOTATED 에서 조사·어미 표시 /, ~ 를 지운 것). 장의 스크립트는 import 하지 않습니다:
    그 장의 분석을 모두 다시 돌리고 표를 찍기 때문입니다. 문장은 장과 이 장이 함께 쓰는 모듈에 있습니다."""
    if chapter == "real_model":
        from english_sentences import SENTENCES
    elif chapter == "korean_model":
        from korean_sentences import SENTENCES
    else:
        raise ValueError(f"chapter={chapter!r} 는 ['real_model', 'korean_model'] 가운데 하나여야 합니다")
    return list(SENTENCES)


CACHE = disk_cache.ROOT / ".cache" / "measurements"
# 결과를 정하는 스니펫 파일들: 이 파일이 import 하는 것과, 넘겨받는 모델을 읽는 e5_numpy (bert_numpy 는 MiniLM 을 읽습니다)
SOURCES = ("ablation", "arguments", "attention", "bert_numpy", "e5_numpy", "head_stats")


def _source(module):
    """캐시의 재료로 넣을 스니펫의 글. 이 파일은 재는 절(measure)만: 캐시·문장 읽기를 고쳐도 다시 재지 않게."""
    text = (HERE / f"{module}.py").read_text(encoding="utf-8")
    if module == "ablation":
        text = text[text.index("# --8<-- [start:measure]"):text.index("# --8<-- [end:measure]")]
    return text


def stored_worth(name, model, texts):
    """head_worth(model, texts) 를 .cache/measurements/<name>-<재료의 해시>.npz 에서 읽거나, 없으면 계산해 남깁니다.

    재료: 문장들, 재는 코드(SOURCES), 환경(disk_cache.environment). 저장과 잠금은 disk_cache.stored 가 합니다: 빌드의
    그림 작업 프로세스와 데이터가 함께 찾으면 한쪽이 계산하는 동안 다른 쪽은 기다렸다가 읽습니다.
    """
    key = disk_cache.digest(name, *texts, disk_cache.environment(), *map(_source, SOURCES), length=20)
    return disk_cache.stored(CACHE, name, key, lambda: head_worth(model, texts))
# --8<-- [end:store]
