"""snippets/sitedata/gemma_browser.py: 브라우저로 보내는 Gemma 파일이 GGUF 와 같은 모델이고, 부분 어휘로도 토큰이 같습니다.

- 커널 (빠름): docs/assets/gemma-matmul.wat 을 wasmtime 으로 돌려, 푼 가중치가 q × s − m 과 비트까지 같고 행렬 곱이
  numpy(float64)와 반올림만큼만 다른지 봅니다. 행·토큰 수가 4의 배수가 아닐 때와 최솟값이 없는 형식까지.
- 부분 어휘 (model): 프롬프트 글자로만 된 글 수천 개에서 부분 어휘의 토크나이저 = 전체 어휘의 토크나이저 (id 하나까지).
- 파일 (model): 층의 블록은 GGUF 의 바이트 그대로, 임베딩은 그 행들, 목록의 크기·sha256 이 맞고, 받는 양은 80 MB 이하.
  파일만으로 만든 numpy 모델(site_model)의 로짓 = GGUF 모델의 로짓 (부분 어휘의 열), 어텐션도 같습니다.
- 나머지 조각의 몫과 로짓 렌즈 (model): 다른 방법으로 다시 계산해 견줍니다. 페이지가 말하는 숫자도.
"""

import hashlib
import json
import re

import numpy as np
import pytest

from conftest import ROOT
from sitebuild import modelfiles

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/own_prompt.md")

# ---------------------------------------------------------------- 커널 (빠름) ----


@pytest.fixture(scope="module")
def kernel():
    """(store, memory, matmul): 빌드가 쓰는 것과 같은 matmul.wasm 을 wasmtime 으로 (메모리 4 MiB)."""
    wasmtime = pytest.importorskip("wasmtime")
    ((name, wasm),) = modelfiles.kernel_files(ROOT, "gemma_browser")
    assert name == "matmul.wasm" and wasm[:4] == b"\0asm"
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(64, 64)))
    instance = wasmtime.Instance(store, wasmtime.Module(engine, wasm), [memory])
    return store, memory, instance.exports(store)["matmul"]


def run_kernel(kernel, x, q, s, m, gshift):
    """메모리에 x, q, s, m 을 16바이트 경계로 놓고 matmul 을 불러 y (n × out) float32 를 읽습니다."""
    store, memory, matmul = kernel
    n, inp = x.shape
    out = q.shape[0]
    buf = np.ctypeslib.as_array(memory.data_ptr(store), (memory.data_len(store),))
    at = [16]

    def put(a):
        b = np.ascontiguousarray(a).tobytes()
        start = at[0]
        buf[start : start + len(b)] = np.frombuffer(b, np.uint8)
        at[0] = start + -(-len(b) // 16) * 16
        return start

    px, pq, ps = put(x.astype("<f4")), put(q.astype(np.int8)), put(s.astype("<f4"))
    pm = put(m.astype("<f4")) if m is not None else 0
    py = at[0]
    scratch = py + -(-n * out * 4 // 16) * 16
    assert scratch + 8 * inp <= buf.size
    matmul(store, px, n, inp, pq, ps, pm, gshift, out, py, scratch)
    return np.frombuffer(bytes(buf[py : py + 4 * n * out]), "<f4").reshape(n, out)


def weights(q, s, m, gshift):
    """워커·커널과 같은 풀기: float32 로 q × s (정확), 그다음 − m 에서 한 번 반올림."""
    g = 1 << gshift
    w = q.astype(np.float32).reshape(-1, g) * s.astype(np.float32)[:, None]
    if m is not None:
        w = w - m.astype(np.float32)[:, None]
    return w.reshape(q.shape).astype(np.float32)


@pytest.mark.parametrize(
    "n, inp, out, gshift, with_min",
    [
        (1, 640, 256, 5, False),
        (5, 640, 7, 4, True),
        (16, 1024, 640, 5, True),
        (3, 32, 1, 4, False),
        (17, 2048, 9, 5, True),
    ],
)
def test_kernel_matches_numpy(kernel, n, inp, out, gshift, with_min):
    """토큰 n 개, 출력 out 개: 커널의 y = x Wᵀ 가 float64 로 계산한 값과 상대 1e-6 안 (float32 로 더한 반올림만큼)."""
    r = np.random.default_rng(n * 1000 + out)
    q = r.integers(-32, 32, (out, inp)).astype(np.int8)
    groups = out * inp >> gshift
    s = (r.random(groups) * 0.01).astype(np.float32)
    m = (r.random(groups) * 0.01).astype(np.float32) if with_min else None
    x = r.standard_normal((n, inp)).astype(np.float32)
    y = run_kernel(kernel, x, q, s, m, gshift)
    ref = x.astype(np.float64) @ weights(q, s, m, gshift).astype(np.float64).T
    scale = np.abs(x).astype(np.float64) @ np.abs(weights(q, s, m, gshift)).astype(np.float64).T
    assert np.all(np.abs(y - ref) <= 1e-6 * scale + 1e-30), float(np.max(np.abs(y - ref) / scale))


def test_kernel_unpacks_weights_bit_for_bit(kernel):
    """x 가 단위 벡터 e_i 이면 y 는 W 의 열 i 그대로입니다 (0 을 더해도 값이 바뀌지 않습니다): 푼 가중치가 q × s − m 과 비트까지 같습니다."""
    r = np.random.default_rng(3)
    inp, out, gshift = 64, 6, 4
    q = r.integers(0, 16, (out, inp)).astype(np.int8)
    s = r.random(out * inp >> gshift).astype(np.float32) / 7
    m = r.random(out * inp >> gshift).astype(np.float32) / 3
    y = run_kernel(kernel, np.eye(inp, dtype=np.float32), q, s, m, gshift)
    assert np.array_equal(y.T, weights(q, s, m, gshift))


# ---------------------------------------------------------------- 글자 (빠름) ----


def test_unsupported_names_the_first_character_outside_the_prompt_letters():
    from gemma_browser import PROMPT_CHARS, char_ranges, unsupported

    assert unsupported("나는 학교에, 12시에 “간다”…") is None
    assert unsupported("나는 cat") == (4, "c")
    assert unsupported("漢字") == (1, "漢")
    assert unsupported("좋아 😀") == (4, "😀")
    assert unsupported("줄\n바꿈") == (2, "\n")  # 프롬프트는 한 줄입니다 (줄바꿈 조각은 모델이 고를 때만)
    with pytest.raises(TypeError, match="text"):
        unsupported(3)
    ranges = char_ranges(PROMPT_CHARS)
    assert {chr(c) for lo, hi in ranges for c in range(lo, hi + 1)} == PROMPT_CHARS
    assert len(ranges) < 40  # 목록에 11,000자를 늘어놓지 않습니다


# ---------------------------------------------------------------- 모델 파일 (model) ----


@pytest.fixture(scope="module")
def gguf():
    import gemma_file

    return gemma_file.read_gguf(gemma_file.gguf_path())


@pytest.fixture(scope="module")
def files():
    from gemma_browser import model_files

    return model_files(modelfiles.kernel_files(ROOT, "gemma_browser"))


@pytest.fixture(scope="module")
def manifest(files):
    return json.loads(files["manifest.json"])


@pytest.mark.model
def test_subset_vocabulary_tokenizes_exactly_like_the_full_one(gguf):
    """부분 어휘의 토크나이저 = 전체 어휘의 토크나이저: 프롬프트 글자로만 된 글 3,000개 남짓에서 토큰 id 하나까지.

    무작위 글(드문 음절은 바이트 조각, 띄어쓰기 여러 개는 사용자 정의 조각), 가장자리, 나머지 몫을 잰 글, 사이트의 프롬프트."""
    from gemma_browser import SubsetTokenizer, unsupported, vocabulary
    from gemma_heldout import TEXTS
    from gemma_strings import EDGE_CASES, generated
    from gemma_tokenizer import GemmaTokenizer
    from next_token_data import PROMPTS

    meta, _ = gguf
    full, part = GemmaTokenizer(meta), SubsetTokenizer(meta, vocabulary(meta))
    texts = EDGE_CASES + TEXTS + PROMPTS + generated(3000, seed=42)
    assert all(unsupported(t) is None for t in texts)
    tokens = byte_pieces = user = 0
    byte_ids = set(full.byte_id.values())
    for text in texts:
        ids = full.encode(text)
        assert part.encode(text) == ids, text
        tokens += len(ids)
        byte_pieces += sum(i in byte_ids for i in ids)
        user += sum(full.pieces[i].startswith("\u2581\u2581") for i in ids)
    # 합치기, 바이트 대체, 사용자 정의 조각이 모두 충분히 일어났습니다
    assert len(texts) >= 3000 and tokens > 30_000 and byte_pieces > 500 and user > 100
    print(f"글 {len(texts):,}개, 토큰 {tokens:,}개가 같습니다 (바이트 조각 {byte_pieces:,}, 공백 묶음 {user:,})")


@pytest.mark.model
def test_blocks_are_the_gguf_bytes_and_the_manifest_matches(gguf, files, manifest):
    from gemma_browser import MAX_NEW, MAX_PROMPT, pack_bytes, vocabulary

    meta, tensors = gguf
    for t in manifest["tensors"]:
        data = files[t["file"]][t["offset"] : t["offset"] + t["bytes"]]
        qtype, shape, raw = tensors[t["name"]]
        assert t["kind"] == qtype.name and tuple(t["shape"]) == shape and data == np.asarray(raw).tobytes(), t["name"]
        assert t["offset"] % 4 == 0
    assert {t["name"] for t in manifest["tensors"]} == set(tensors) - {"token_embd.weight"}
    ids = vocabulary(meta)
    vocab = json.loads(files["vocab.json"])
    assert vocab["ids"] == ids.tolist() and vocab["count"] == len(ids) == manifest["vocab"]["count"]
    raw = np.asarray(tensors["token_embd.weight"][2])
    assert files["embed.bin"] == raw[ids].tobytes()
    for name, entry in manifest["files"].items():
        assert entry["bytes"] == len(files[name]) and entry["sha256"] == hashlib.sha256(files[name]).hexdigest()
    assert pack_bytes(manifest) <= 80e6  # 받는 양 (issue 42): 80 MB 이하
    assert manifest["kernels"] == {"matmul": "matmul.wasm"}
    assert manifest["config"]["max_prompt"] == MAX_PROMPT and manifest["config"]["max_new"] == MAX_NEW
    # 부분 어휘: 한글 조각 수천 개, 바이트 조각 256개, 줄바꿈 조각, <eos>, 그리고 영어·한자 조각은 없음
    pieces = vocab["pieces"]
    assert 9000 < len(pieces) < 10_000 and sum(k == 6 for k in vocab["kinds"]) == 256
    assert "\n" in pieces and "<eos>" in pieces and "<bos>" in pieces
    assert not any(re.search(r"[A-Za-z\u4e00-\u9fff]", p) for p, k in zip(pieces, vocab["kinds"]) if k == 1)


@pytest.mark.model
def test_notice_states_the_terms_the_modifications_and_no_endorsement(files, manifest):
    notice = files["NOTICE.txt"].decode()
    assert notice.startswith(
        "Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms"
    )
    for words in (
        "MODIFIED FILES",
        "vocabulary was cut to a subset",
        "not requantized",
        "Section 3.2",
        "ai.google.dev/gemma/prohibited_use_policy",
        "not made, endorsed or checked by Google",
    ):
        assert words in notice, words
    terms = files["GEMMA_TERMS.txt"].decode()
    assert "3.1 Distribution and Redistribution" in terms and "3.2 Use Restrictions" in terms
    assert manifest["licenses"] == ["NOTICE.txt", "GEMMA_TERMS.txt"]


@pytest.fixture(scope="module")
def gemma():
    from gemma_decoder import load_gemma

    return load_gemma()


@pytest.fixture(scope="module")
def site(files):
    from gemma_browser import site_model

    return site_model(files)


@pytest.mark.model
def test_the_files_alone_give_the_gguf_models_logits_and_attention(gemma, site):
    """파일만으로 만든 numpy 모델 = GGUF 모델 (부분 어휘의 열): 프롬프트 넷, 모든 자리. 다른 것은 BLAS 가 로짓을 나눠 곱한 차례뿐입니다."""
    from gemma_decoder import forward, new_cache

    ids_v = site.params["E"].ids
    for text in ["나는 학교에", "옛날 옛적에 한 마을에", "뷁 똠방각하 ㅋㅋ", "1, 2, 3, 4,"]:
        ids = gemma.tokenizer.encode(text)
        assert site.tokenizer.encode(text) == ids
        (full,), (wf,) = forward(gemma, [ids], [new_cache(gemma, len(ids))])
        (part,), (wp,) = forward(site, [ids], [new_cache(site, len(ids))])
        assert np.abs(part - full[:, ids_v]).max() <= 1e-4, text
        assert all(np.array_equal(a, b) for a, b in zip(wf, wp)), text


@pytest.mark.model
def test_outside_share_matches_a_full_softmax(gemma, manifest):
    """shares_outside (표를 나눠 로그-합-지수) = 어휘 전체의 로짓으로 바로 계산한 몫, 그리고 목록에 적은 값이 그 측정입니다."""
    from gemma_browser import outside_share, shares_outside, vocabulary
    from gemma_decoder import forward, new_cache, residual_stream, rms_norm

    keep = np.zeros(gemma.cfg["vocab"], bool)
    keep[vocabulary(gemma_meta())] = True
    for text in ['"', "나는 학교에", "2층의 파라미터는"]:
        ids = gemma.tokenizer.encode(text)
        (z,), _ = forward(gemma, [ids], [new_cache(gemma, len(ids))])
        p = np.exp(z.astype(np.float64) - z.max(axis=1, keepdims=True))
        direct = 1 - (p[:, keep].sum(axis=1) / p.sum(axis=1))
        h = rms_norm(
            residual_stream(gemma, [np.array(ids)], [new_cache(gemma, len(ids))])[-1],
            gemma.params["norm_out"],
            gemma.cfg["eps"],
        )
        assert np.allclose(shares_outside(gemma, h, keep), direct, atol=1e-6), text
    o = manifest["outside"]
    assert o == outside_share()
    assert o["texts"] == 120 and o["positions"] > 2000 and 0 < o["median"] < o["p90"] < o["worst"] <= 1


def gemma_meta():
    import gemma_file

    return gemma_file.read_gguf(gemma_file.gguf_path())[0]


@pytest.mark.model
def test_logit_lens_is_the_forward_pass_of_the_first_layers(gemma):
    """로짓 렌즈의 층 l = 층 l 개만 가진 모델의 forward (다른 계산 길). 마지막 층은 모델의 확률 그대로."""
    from gemma_decoder import Gemma, forward, new_cache
    from own_prompt import logit_lens

    ids = gemma.tokenizer.encode("봄이 오면 산에")
    lens = logit_lens(gemma, ids)
    assert lens.shape == (18, gemma.cfg["vocab"]) and np.allclose(lens.sum(axis=1), 1, atol=1e-5)
    for layers in (1, 6, 13, 18):
        cut = Gemma(gemma.cfg, {**gemma.params, "layers": gemma.params["layers"][:layers]})
        (z,), _ = forward(cut, [ids], [new_cache(gemma, len(ids))])
        p = np.exp(z[-1].astype(np.float64) - z[-1].max())
        p /= p.sum()
        # 두 길 모두 float32 이고 행렬 모양이 달라(18행 한꺼번에 대 1행) BLAS 가 다른 순서로 더합니다. 로짓이 ~1e-5
        # 만큼 움직이면 확률은 p × 1e-5 만큼 움직입니다. 잰 값: 가장 큰 차이 7.2e-7 (Haswell), 3.1e-6 (Prescott),
        # 세 프롬프트 × 18층. 허용은 그 여섯 배쯤이고, 1등 토큰은 같아야 합니다.
        assert np.abs(lens[layers - 1] - p).max() < 2e-5, layers
        assert np.argmax(lens[layers - 1]) == np.argmax(p), layers


# ---------------------------------------------------------------- 페이지가 말하는 것 (model) ----


@pytest.mark.model
def test_page_outputs_say_what_the_prose_says():
    from page_outputs import page_output

    out = page_output("own_prompt.md")
    assert "모두 75.1 MB" in out and "조각 9,543개 (어휘 262,144개 가운데)" in out
    assert "글 120개 가운데 토큰이 모두 같은 글 120개" in out
    assert "중앙값 0.21%" in out and "프롬프트 '\"'" in out
    # 나는 학교에: ▁다니 는 마지막 층에서만 1등
    table = re.findall(r"^\s*(\d+)  '(.*?)'", out, flags=re.M)
    assert [layer for layer, piece in table if piece == "▁다니"] == ["18"] and len(table) == 18
    firsts = [int(n) for n in re.findall(r"(\d+)층부터", out)]
    assert len(firsts) == 8 and min(firsts) == 13
