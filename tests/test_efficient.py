"""docs/efficient.md: 비용, 온라인 소프트맥스와 타일 어텐션, KV 캐시, MQA/GQA, 창과 쉬는 자리, RoPE.

시간은 재지 않습니다 (페이지도 시간을 싣지 않습니다). 여기서는 같음과 개수만 봅니다:
코어와 같은 답, 점수 칸 수, FLOP, 바이트, tracemalloc 이 센 메모리. 입력 검사와 함수의 성질(hypothesis)은
tests/test_efficient_inputs.py 에 있습니다.
"""

import json
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention import causal_mask, masked_softmax, multi_head_attention, scaled_dot_product_attention, softmax
from conftest import SNIPPETS, background, snippet_path
from page_outputs import page_output
from site_pages import DOCS
from sitebuild import snippets
from support import runs

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/efficient.md")


@pytest.fixture(scope="module")
def ef():
    import efficient

    return efficient


def out():
    return page_output("efficient.md")


# tracemalloc 은 프로세스 전체의 할당을 셉니다. 테스트 프로세스에서는 배경 스레드(conftest 의 BACKGROUND: 스니펫과
# 노트북을 돌리고 그 출력을 읽는 일)가 측정 중에도 메모리를 잡으므로, 최고점은 그 스레드가 없는 새 프로세스에서
# 잽니다. 페이지와 노트북이 efficient.py 를 돌리는 것과 같은 조건입니다.
# efficient 를 import 하면 페이지의 출력도 찍히므로, 잰 값은 마지막 줄에 JSON 으로 찍습니다.
_PEAKS = "import json, efficient as e; print(json.dumps({'core': e.core_peak, 'tiled': e.tiled_peak}))"


def _measure_peaks():
    closure = snippets.content_hash({"efficient"}, SNIPPETS)
    proc = runs.cached("efficient-peaks", [closure], lambda: runs.in_snippets("-c", _PEAKS), __name__)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {
        kind: {int(n): v for n, v in peaks.items()} for kind, peaks in json.loads(proc.stdout.splitlines()[-1]).items()
    }


BACKGROUND = {"efficient:peaks": _measure_peaks}


@pytest.fixture(scope="module")
def peaks():
    return background("efficient:peaks")


def no_warnings(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


# ---------------------------------------------------------------- 비용


def test_scores_cost_n_squared(ef, peaks):
    core = peaks["core"]
    for n in ef.sizes:
        assert 3.9 < core[n] / (n * n * 8) < 4.3  # 점수 n² 칸이 네 벌쯤 (점수, 뺀 값, 지수, 가중치)
    assert round(core[2048] / core[1024], 1) == 4.0
    text = out()
    # tracemalloc 의 최고점은 numpy 가 잠깐 잡는 작은 버퍼에 따라 0.1 MB 쯤 흔들립니다 (기계·실행마다).
    # 그래서 글자 하나하나가 아니라, 찍힌 값이 점수 네 벌(4 × n² × 8 B = 134.2 MB)의 1 % 안인지 봅니다.
    peak = float(re.search(r"^ 2048   4,194,304   1\.07 +([\d.]+) MB$", text, re.M).group(1))
    assert abs(peak - 4 * 2048**2 * 8 / 1e6) < 0.01 * peak
    assert "n 2배 → 메모리 4.0배" in text and "점수 배열(n² × 8 B)의 4.0배" in text


def test_cost_figure_alt_text_claims(ef, peaks):
    """대체 텍스트: 코어는 약 2 MB → 134 MB, 타일은 1 MB 안팎."""
    assert round(peaks["core"][256] / 1e6) == 2 and int(peaks["core"][2048] / 1e6) == 134
    assert all(0.5e6 < peaks["tiled"][n] < 2e6 for n in ef.sizes)


# ---------------------------------------------------------------- 온라인 소프트맥스


def test_online_softmax_steps(ef):
    assert [(m, round(l, 4)) for m, l in ef.steps] == [(3.0, 1.5032), (6.0, 1.2127), (6.0, 1.5988)]
    assert ef.steps[1][1] < ef.steps[0][1]  # "최댓값이 3에서 6으로 바뀌자 l이 오히려 줄었습니다"
    np.testing.assert_allclose(ef.p_online, softmax(ef.row), rtol=1e-15, atol=1e-16)
    for line in ("블록 1: m = 3, l = 1.5032", "블록 2: m = 6, l = 1.2127", "블록 3: m = 6, l = 1.5988"):
        assert line in out()


@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(1, 40), st.floats(0.1, 50))
def test_online_softmax_equals_core_for_any_block(ef, seed, n, block, scale):
    x = np.random.default_rng(seed).standard_normal(n) * scale
    p, steps = no_warnings(lambda: ef.online_softmax(x, block))
    np.testing.assert_allclose(p, softmax(x), rtol=1e-12, atol=1e-15)
    assert len(steps) == -(-n // block) and steps[-1][0] == x.max()


@pytest.mark.parametrize(
    "x, block, name, exc",
    [
        (np.zeros((2, 3)), 2, "x", ValueError),
        ([], 2, "x", ValueError),
        ([1.0, np.nan], 1, "x", ValueError),
        ([1.0, 2.0], 0, "block", ValueError),
        # 개수 자리의 2.5 와 True 는 코어(_check_count)처럼 TypeError 입니다
        ([1.0], 2.5, "block", TypeError),
        ([1.0], True, "block", TypeError),
    ],
)
def test_online_softmax_bad_inputs_are_named(ef, x, block, name, exc):
    with pytest.raises(exc, match=name):
        ef.online_softmax(x, block)


# ---------------------------------------------------------------- 타일 어텐션


def test_tiled_attention_is_at_most_forty_lines():
    """페이지가 보여 주는 타일 어텐션은 코드 40줄 이하입니다 (import 와 독스트링 포함). 빈 줄과 주석만 있는 줄은 세지
    않습니다: 휴대전화에서 읽히도록 주석을 줄 끝이 아니라 제 줄에 두기 때문입니다 (그만큼 줄이 늘어도 코드가 길어진 것은
    아닙니다)."""
    src = snippet_path("efficient").read_text(encoding="utf-8")
    section = src.split("# --8<-- [start:tiled]\n")[1].split("# --8<-- [end:tiled]")[0]
    code = [line for line in section.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert len(code) <= 40, len(code)
    # 페이지의 코드에 코어의 비공개 도우미(_check_…)가 보이지 않습니다 (검사는 efficient_checks.py 에)
    assert not re.search(r"\b_check", section)


@st.composite
def attention_case(draw):
    lead = draw(st.sampled_from([(), (2,), (2, 3), (1, 3)]))
    n_q, n_k, d, d_v = (
        draw(st.integers(0, 50)),
        draw(st.integers(0, 50)),
        draw(st.integers(1, 12)),
        draw(st.integers(1, 9)),
    )
    block = draw(st.integers(1, 40))
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    mask_kind = draw(st.sampled_from(["none", "2d", "full", "causal"]))
    seed = draw(st.integers(0, 2**32 - 1))
    r = np.random.default_rng(seed)
    q = (r.standard_normal((*lead, n_q, d)) * draw(st.floats(0.1, 3))).astype(dtype)
    k = (r.standard_normal((*lead, n_k, d))).astype(dtype)
    v = r.standard_normal((*lead, n_k, d_v)).astype(dtype)
    if mask_kind == "none":
        mask = None
    elif mask_kind == "causal":
        mask = np.tril(np.ones((n_q, n_k), dtype=bool))
    else:
        shape = (n_q, n_k) if mask_kind == "2d" else (*lead, n_q, n_k)
        mask = r.random(shape) < draw(st.floats(0, 1))
        if n_q:  # 모든 키가 가려진 행이 하나는 있게
            mask[..., 0, :] = False
    return q, k, v, mask, block


@given(attention_case())
def test_tiled_attention_equals_the_core(ef, case):
    """모양, 마스크(모든 키가 가려진 행 포함), 블록 크기, dtype 마다: float64 ≤ 1e-12, float32 ≤ 1e-5."""
    q, k, v, mask, block = case
    got = no_warnings(lambda: ef.tiled_attention(q, k, v, mask, block=block))
    want, _ = no_warnings(lambda: scaled_dot_product_attention(q, k, v, mask))
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-12 if q.dtype == np.float64 else 1e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_tiled_attention_page_check(ef):
    text = out()
    gaps = re.findall(r"(마스크 없음|인과 마스크): 코어와 최대 차이 (\S+)", text)
    assert [g[0] for g in gaps] == ["마스크 없음", "인과 마스크"] and all(float(g[1]) <= 1e-12 for g in gaps)


def _error(call):
    try:
        no_warnings(call)
    except (ValueError, TypeError) as err:
        return type(err), str(err)
    raise AssertionError("오류가 나야 합니다")


@pytest.mark.parametrize("case", ["d_k", "n_k", "complex", "nan", "mask-dtype", "mask-shape", "rank"])
def test_tiled_attention_rejects_what_the_core_rejects_with_the_same_message(ef, case):
    r = np.random.default_rng(0)
    q, k, v, mask = r.standard_normal((4, 3)), r.standard_normal((5, 3)), r.standard_normal((5, 2)), None
    if case == "d_k":
        k = r.standard_normal((5, 4))
    elif case == "n_k":
        v = r.standard_normal((6, 2))
    elif case == "complex":
        q = q.astype(complex)
    elif case == "nan":
        k[1, 1] = np.nan
    elif case == "mask-dtype":
        mask = np.ones((4, 5))
    elif case == "mask-shape":
        mask = np.ones((4, 4), dtype=bool)
    elif case == "rank":
        q = q[0]
    assert _error(lambda: ef.tiled_attention(q, k, v, mask)) == _error(
        lambda: scaled_dot_product_attention(q, k, v, mask)
    )


@pytest.mark.parametrize("block, exc", [(0, ValueError), (-3, ValueError), (2.0, TypeError), (True, TypeError)])
def test_tiled_attention_block_is_named(ef, block, exc):
    x = np.ones((3, 2))
    kind, msg = _error(lambda: ef.tiled_attention(x, x, x, block=block))
    assert kind is exc and "block" in msg


def test_tiled_attention_overflow_is_a_named_error_not_nan(ef):
    q = np.full((3, 2), 3e19, dtype=np.float32)
    kind, msg = _error(lambda: ef.tiled_attention(q, q, q))
    assert kind is ValueError and "float32" in msg and "q.shape=(3, 2)" in msg


def test_tiled_attention_memory_follows_the_output(ef, peaks):
    for n in ef.sizes:
        output = n * ef.d * 8
        assert output < peaks["tiled"][n] < output + 0.8e6  # 출력 한 벌 + 블록 몇 개 (128 × 128 × 8 B = 0.13 MB)
    assert peaks["core"][2048] > 50 * peaks["tiled"][2048]
    text = out()
    core, tiled, output = (
        float(re.search(rf"^  {name} +([\d.]+) MB$", text, re.M).group(1)) for name in ("코어", "타일", "출력")
    )
    assert abs(core - 134.2) < 1.5 and 1.0 < tiled < 2.0 and output == 1.0  # 출력 2048 × 64 × 8 B = 1.05 MB


def test_tiled_work_is_not_less_than_the_core(ef):
    plain, tiled = ef.plain, ef.tiled
    assert plain["행렬 곱"] == tiled["행렬 곱"] == 2 * 2 * 2048 * 2048 * 64
    assert tiled["고치기"] == 2048 * 16 * 65 and tiled["조각"] == 256
    text = out()
    assert "  행렬 곱 FLOP  코어 1.07G, 타일 1.07G" in text
    assert "  타일의 고치기 곱셈 +2,129,920" in text and "  numpy 를 부르는 조각 256개" in text


def test_flash_paper_numbers(ef):
    """FlashAttention 논문(arXiv 2205.14135v2) 그림 2 왼쪽의 값과, 페이지가 말하는 비율."""
    assert ef.fa1_fig2 == {"표준": (66.6, 40.3, 41.7), "Flash": (75.2, 4.4, 7.3)}
    text = out()
    for line in (
        "  66.6    40.3   41.7  표준",
        "  75.2     4.4    7.3  Flash",
        "HBM 9.2배 적게",
        "시간 5.7배 짧게",
        "FLOP 은 1.13배로 늘어남",
    ):
        assert line in text


# ---------------------------------------------------------------- KV 캐시


def test_kv_cache_gives_the_same_tokens_and_logits(ef):
    assert ef.plain_tokens == ef.cached_tokens and len(ef.plain_tokens) == 64
    assert len(set(ef.plain_tokens[4:])) > 30  # 같은 토큰만 되풀이하는 뻔한 경우가 아닙니다
    np.testing.assert_allclose(ef.cached_logits, ef.plain_logits, rtol=1e-10, atol=1e-10)
    assert "토큰 64개가 같은가? True" in out()


def test_kv_cache_counts_scores(ef):
    heads = ef.model["heads"]
    assert ef.plain_entries == heads * sum(t * t for t in range(4, 64)) == 341_320
    assert ef.cached_entries == heads * sum(range(1, 64)) == 8_064
    assert round(ef.plain_entries / ef.cached_entries) == 42
    text = out()
    assert "점수 칸: 캐시 없이 341,320" in text and "KV 캐시로 8,064" in text and "→ 42배 적게" in text


def test_causal_mask_is_why_the_cache_is_exact(ef):
    """5장: 인과 마스크 아래에서는 앞 토큰의 출력이 뒤 토큰과 상관없습니다. 그래서 앞 토큰의 K, V 를 저장해도 됩니다."""
    p, tokens = ef.model, ef.plain_tokens
    x = p["E"][tokens] + p["P"][: len(tokens)]
    attn = {name: p[name] for name in ("W_Q", "W_K", "W_V", "W_O")}
    full, _ = multi_head_attention(x, x, attn, p["heads"], mask=causal_mask(len(tokens)))
    prefix, _ = multi_head_attention(x[:20], x[:20], attn, p["heads"], mask=causal_mask(20))
    np.testing.assert_allclose(full[:20], prefix, rtol=1e-12, atol=1e-12)
    step = ef.empty_cache(p)
    for pos in range(20):
        ef.next_logits_with_cache(p, tokens[pos], pos, step)
    batch = ef.prefill(p, tokens[:20])
    for name in ("K", "V"):
        np.testing.assert_allclose(step[name], batch[name], rtol=1e-12, atol=1e-12)


def test_work_per_token_and_figure_alt_text(ef):
    """센 FLOP (그림과 대체 텍스트): 캐시 없이 약 4천만 → 16억, KV 캐시 약 85만 → 184만 (두 배 남짓),
    그 가운데 어텐션의 몫 약 6만 6천 → 105만 (t 에 비례해 16배)."""
    w64, w1024 = ef.work_per_token(64), ef.work_per_token(1024)
    assert 3.5e7 < w64["캐시 없이"] < 4.5e7 and 1.55e9 < w1024["캐시 없이"] < 1.65e9
    assert round(w64["KV 캐시"] / 1e4) == 85 and round(w1024["KV 캐시"] / 1e4) == 184
    assert 2.0 < w1024["KV 캐시"] / w64["KV 캐시"] < 2.3
    assert round(w64["KV 캐시의 어텐션"] / 1e3) == 66 and round(w1024["KV 캐시의 어텐션"] / 1e4) == 105
    assert w1024["KV 캐시의 어텐션"] / w64["KV 캐시의 어텐션"] == 1024 / 64
    for t in ef.POSITIONS:
        assert ef.work_per_token(t)["KV 캐시의 어텐션"] == 2 * 2 * t * 256
    assert ef.POSITIONS == (64, 128, 256, 512, 1024)
    alt = PAGE.read_text(encoding="utf-8").split("](figures/efficient-kv_work.png)")[0].rsplit("![", 1)[1]
    for words in ("약 4천만에서 16억", "약 85만에서 184만으로 두 배쯤", "약 6만 6천에서 105만으로 16배"):
        assert words in alt, words


def test_kv_figure_shows_counted_work_not_timings(ef):
    """이슈 29: 예전 그림의 둘째 판(이 빌드에서 잰 시간)은 흔들려서 "긴 자리가 더 빠르다" 로 읽혔습니다. 그림은 센 FLOP 만
    싣고, 캐시를 써도 어텐션의 몫이 t 와 함께 는다는 것을 선 하나로 보여 줍니다."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import plotting

    with plotting.theme("light"):
        fig = ef.figure_kv_work()
    try:
        (ax,) = fig.axes
        lines = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
        assert set(lines) == {"캐시 없이", "KV 캐시", "KV 캐시 가운데 어텐션"}
        for ys in lines.values():
            assert np.all(np.diff(ys) > 0)  # 세 선 모두 t 와 함께 늘어납니다 (평평하지 않습니다)
    finally:
        plt.close(fig)
    assert not hasattr(ef, "time_per_token") and not hasattr(ef, "figure_kv_time")


# ---------------------------------------------------------------- MQA / GQA


def test_kv_bytes_per_token(ef):
    assert {g: ef.kv_bytes_per_token(g) for g in (32, 8, 1)} == {32: 16_384, 8: 4_096, 1: 512}
    text = out()
    for line in (
        "MHA   16,384 B/토큰 → 2,048 MiB",
        "GQA-8  4,096 B/토큰 →   512 MiB",
        "MQA      512 B/토큰 →    64 MiB",
    ):
        assert line in text


def test_gqa_with_copied_heads_equals_mha(ef):
    np.testing.assert_allclose(ef.out_gqa, ef.out_mha, rtol=1e-12, atol=1e-12)
    assert "복사한 헤드의 MHA 와 같은가? True" in out() and "K·V 파라미터: GQA 2,048, MHA 8,192" in out()


@given(
    st.sampled_from([(8, 8), (8, 4), (8, 2), (8, 1), (6, 3), (4, 1)]),
    st.integers(0, 2**32 - 1),
    st.integers(1, 12),
    st.booleans(),
)
def test_gqa_is_mha_with_repeated_kv_heads(ef, heads, seed, n, causal):
    h, g = heads
    r = np.random.default_rng(seed)
    q, k, v = r.standard_normal((2, h, n, 4)), r.standard_normal((2, g, n, 4)), r.standard_normal((2, g, n, 3))
    mask = causal_mask(n) if causal else None
    got, w = ef.grouped_query_attention(q, k, v, mask)
    for head in range(h):  # 쿼리 헤드 head 는 K·V 헤드 head // (h // g) 를 씁니다
        want, w_want = scaled_dot_product_attention(q[:, head], k[:, head // (h // g)], v[:, head // (h // g)], mask)
        np.testing.assert_allclose(got[:, head], want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(w[:, head], w_want, rtol=1e-12, atol=1e-12)


def test_gqa_bad_head_counts_are_named(ef):
    q, k = np.ones((6, 3, 2)), np.ones((4, 3, 2))
    with pytest.raises(ValueError, match=r"q.shape=\(6, 3, 2\).*k.shape=\(4, 3, 2\)"):
        ef.grouped_query_attention(q, k, k)


def test_gqa_paper_table(ef):
    """GQA 논문(arXiv 2305.13245) 표 1의 T5-XXL 세 줄."""
    assert ef.gqa_table == {"MHA": (1.51, 47.2), "GQA-8": (0.28, 47.1), "MQA": (0.24, 46.6)}
    text = out()
    for line in ("  1.51   47.2  MHA", "  0.28   47.1  GQA-8", "  0.24   46.6  MQA", "GQA-8: MHA 보다 5.4배 빠름"):
        assert line in text


def test_quiz_2_cache_size(ef):
    # 문제 2 (issue 41): 캐시 ∝ KV 헤드 수 × 토큰 수 — 헤드 4분의 1, 토큰 4배면 MHA 와 같은 4 GiB
    assert ef.kv_bytes_per_token(8) == 4096 and ef.total_mha == 4.0 and ef.gqa_short == 1.0 and ef.gqa_long == 4.0
    assert "MHA(32), 8,192 토큰: 4 GiB" in out() and "GQA-8, 32,768 토큰: 4 GiB" in out()


# ---------------------------------------------------------------- 창과 쉬는 자리


@given(st.integers(0, 40), st.integers(1, 12), st.integers(0, 6))
def test_sliding_window_mask_matches_its_definition(ef, n, window, sinks):
    mask = ef.sliding_window_mask(n, window, sinks)
    want = np.array([[j <= i and (i - j < window or j < sinks) for j in range(n)] for i in range(n)], dtype=bool)
    np.testing.assert_array_equal(mask, want.reshape(n, n))
    assert not np.any(mask & ~causal_mask(n))  # 인과 마스크보다 더 가릴 뿐입니다


@pytest.mark.parametrize("window, sinks, name", [(0, 0, "window"), (2, -1, "sinks")])
def test_sliding_window_bad_sizes_are_named(ef, window, sinks, name):
    with pytest.raises(ValueError, match=name):
        ef.sliding_window_mask(5, window, sinks)


def test_window_page_output(ef):
    text = out()
    for line in ("4,096개  인과", "1,020개  창 1,020", "1,024개  맨 앞 4 + 창 1,020"):
        assert line in text
    assert ef.m3[100].sum() == 8 and np.flatnonzero(ef.m3[100]).tolist() == [0, 1, 2, 3, 97, 98, 99, 100]
    assert "쿼리 100이 보는 키:\n[0, 1, 2, 3, 97, 98, 99, 100]" in text and "인과 마스크라면 101개" in text


def test_masks_figure_counts(ef):
    """그림의 제목과 대체 텍스트: 마지막 행 16칸, 4칸, 8칸."""
    assert [
        int(m[-1].sum())
        for m in (causal_mask(16), ef.sliding_window_mask(16, 4), ef.sliding_window_mask(16, 4, sinks=4))
    ] == [16, 4, 8]


def test_streaming_paper_table(ef):
    """StreamingLLM 논문(arXiv 2309.17453) 표 1, 그림 5, 초록."""
    assert list(ef.streaming_table.values()) == [5158.07, 5.40, 5.60]
    text = out()
    for line in (
        " 5158.07  0+1024 (창만)",
        "    5.40  4+1020",
        "    5.60  4+1020 (줄바꿈)",
        "토큰 4,000,000개까지 안정 (그림 5)",
        "다시 계산하는 창보다 최대 22.2배 빠름",
    ):
        assert line in text


@given(st.integers(0, 2**32 - 1), st.integers(1, 20), st.floats(-5, 5))
def test_sink_logit_identity(ef, seed, n, b):
    """쉬는 자리 점수 b: w = exp(s) / (Σ exp(s) + exp(b)), 합은 1 - exp(b) / (Σ exp(s) + exp(b)) < 1."""
    s = np.random.default_rng(seed).standard_normal(n) * 3
    w = softmax(np.append(s, b))[:-1]
    np.testing.assert_allclose(w, np.exp(s) / (np.exp(s).sum() + np.exp(b)), rtol=1e-12)
    assert w.sum() < 1
    np.testing.assert_allclose(w.sum(), 1 / (1 + np.exp(b - np.log(np.exp(s).sum()))), rtol=1e-12)
    # 마스크로 그 칸을 가리면 보통의 소프트맥스로 돌아갑니다
    hidden = masked_softmax(np.append(s, b), np.append(np.ones(n, dtype=bool), False))[:-1]
    np.testing.assert_allclose(hidden, softmax(s), rtol=1e-12)


def test_sink_page_output(ef):
    assert ef.with_sink.sum() == pytest.approx(0.724, abs=5e-4)
    np.testing.assert_allclose(ef.out_zero, ef.e @ ef.V1 / (ef.e.sum() + 1), rtol=1e-12)
    text = out()
    assert "식과 같은가? True" in text and "가중치 합 0.724 (< 1)" in text
    assert "영 벡터 토큰 = 점수 0 인 쉬는 자리? True" in text


def test_quiz_4_sink(ef):
    np.testing.assert_allclose(ef.w4, 1 / 6, rtol=1e-12)
    assert "가중치: [0.167 0.167 0.167]  합: 0.5" in out()


# ---------------------------------------------------------------- RoPE


def test_rope_scores_depend_only_on_the_offset(ef):
    assert ef.rope_gap < 1e-12 and ef.offsets.max() == 4096
    assert float(re.search(r"점수 최대 차이 (\S+)", out()).group(1)) < 1e-12


@given(st.integers(0, 2**32 - 1), st.integers(0, 5000), st.integers(0, 5000), st.integers(1, 16))
def test_rope_rotation_properties(ef, seed, m, shift, half):
    r = np.random.default_rng(seed)
    q, k = r.standard_normal((1, 2 * half)), r.standard_normal((1, 2 * half))
    np.testing.assert_allclose(np.linalg.norm(ef.rope(q, [m])), np.linalg.norm(q), rtol=1e-12)  # 회전은 길이를 지킵니다
    np.testing.assert_array_equal(ef.rope(q, [0]), q)  # 자리 0 은 그대로
    a = (ef.rope(q, [m + shift]) @ ef.rope(k, [shift]).T).item()
    assert a == pytest.approx((ef.rope(q, [m]) @ k.T).item(), abs=1e-10)


def test_rope_bad_inputs_are_named(ef):
    with pytest.raises(ValueError, match=r"x.shape=\(2, 3\)"):
        ef.rope(np.ones((2, 3)), [0, 1])
    with pytest.raises(ValueError, match=r"positions.shape=\(3,\)"):
        ef.rope(np.ones((2, 4)), [0, 1, 2])


def _position_facts():
    """두 실제 모델마다 (위치 임베딩 표의 모양, 0번과 1번 행의 최대 차이, 표를 지웠을 때 출력의 최대 차이).

    모델 둘을 읽어 인코더를 돌리는 일(2코어에서 2초 남짓)이라서, 값을 정하는 스니펫(bert_numpy, e5_numpy 와 그것이
    import 하는 것)과 환경(잠금 파일: 가중치 패키지의 판)이 그대로면 지난 값을 씁니다 (support/runs.py)."""

    def compute():
        from bert_numpy import Encoder, encode, load_model, tokenize
        from e5_numpy import load_e5

        facts = []
        for model in (load_model(), load_e5()):
            table = np.asarray(model.weights["embeddings.position_embeddings.weight"])
            ids, _ = tokenize(model, "The cat sat on the mat.")
            no_positions = Encoder(
                {**model.weights, "embeddings.position_embeddings.weight": np.zeros_like(table)},
                model.config,
                model.tokenizer,
            )
            gap = np.abs(encode(no_positions, ids)[0] - encode(model, ids)[0]).max()
            facts.append(
                {
                    "shape": [*table.shape, model.config["max_position_embeddings"]],
                    "rows": float(np.abs(table[1] - table[0]).max()),
                    "output": float(gap),
                }
            )
        return facts

    closure = snippets.content_hash({"bert_numpy", "e5_numpy"}, SNIPPETS)
    return runs.cached_value("efficient-positions", [closure], compute, __name__)


def test_the_site_models_use_learned_absolute_positions():
    """'이 사이트의 두 실제 모델은 자리마다 학습한 위치 임베딩을 더합니다': 위치마다 학습한 행이 있는 표이고,
    그 표를 지우면 인코더의 출력이 바뀝니다 (RoPE 처럼 점수 안에서 돌리는 것이 아니라 입력에 더합니다)."""
    for facts in _position_facts():  # MiniLM, e5
        assert facts["shape"] == [512, 384, 512]  # (max_position_embeddings, 384)
        assert facts["rows"] > 0.01  # 자리마다 다른, 학습한 값
        assert facts["output"] > 0.1


# ---------------------------------------------------------------- 확인 문제와 인용


def test_quiz_1_block_size_does_not_matter(ef):
    for block in (1, 3, 8):
        np.testing.assert_allclose(ef.online_softmax(ef.row, block)[0], softmax(ef.row), rtol=1e-15, atol=1e-16)
    assert len(re.findall(r"블록 [138]: 코어와 최대 차이", out())) == 3


PAGE = DOCS / "efficient.md"
# 논문에서 직접 확인한 숫자 (보고서의 출처 목록과 같습니다). 페이지는 이 말로 인용합니다.
CITED = [
    "PyTorch 구현보다 7.6배 빨랐고(그림 1)",  # FlashAttention 그림 1 설명
    "BERT-large가 MLPerf 1.1 기록보다 15%",  # FlashAttention 초록
    "GPT-2가 HuggingFace 구현보다 최대 3배",  # FlashAttention 4.1절 표 2
    "FlashAttention보다 2배쯤 빠르고",  # FlashAttention-2 초록
    "최대 225 TFLOP/s(모델 FLOP 활용률 72%)",  # FlashAttention-2 초록
    "FlashAttention-2보다 1.5–2.0배 빠르고",  # FlashAttention-3 4.1절 (순전파)
    "FP16으로 최대 740 TFLOP/s(활용률 75%)",  # FlashAttention-3 초록
    "길이 16384에서",  # Rabe, Staats 초록
    "추론은 59배, 미분까지 하면 32배",
]


def test_cited_numbers_are_the_verified_ones():
    text = PAGE.read_text(encoding="utf-8")
    for phrase in CITED:
        assert phrase in text, phrase


@pytest.mark.reads("docs/heatmap.md", "docs/korean_model.md", "docs/real_model.md")
def test_links_to_what_the_site_measured_itself():
    """쉬는 자리: 이 장은 다른 장이 잰 것을 인용만 합니다. 그 장들이 여전히 그렇게 말하는지 확인합니다."""
    text = PAGE.read_text(encoding="utf-8")
    for page, word in (("real_model.md", "[CLS]"), ("korean_model.md", "`<s>`"), ("heatmap.md", "[SEP]")):
        assert f"]({page})" in text
        assert word in (DOCS / page).read_text(encoding="utf-8")
    assert "쉬는 자리" in (DOCS / "real_model.md").read_text(encoding="utf-8")
    assert "쉬는 자리" in (DOCS / "korean_model.md").read_text(encoding="utf-8")
    assert "no-op" in (DOCS / "heatmap.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- 이슈 29: 말이 증거보다 세지 않게


def test_each_method_is_said_to_reduce_what_it_reduces(ef):
    """FlashAttention, KV 캐시, GQA, 어텐션 싱크를 "n² 비용을 줄이는 방법" 으로 묶지 않습니다. 줄이는 것이 저마다 다르고
    (FlashAttention 은 FLOP 이 그대로), 어텐션 싱크는 방법이 아니라 현상입니다. 페이지 자신의 측정이 그 말을 떠받칩니다."""
    text = PAGE.read_text(encoding="utf-8")
    intro = text.split("## 비용은 어디로 가나요")[0]
    assert "비용을 줄이려는 방법" not in text
    for words in (
        "FlashAttention은 메모리를 오가는 양을(n²의 FLOP은 그대로)",
        "KV 캐시는 다시 하는 계산을",
        "GQA는 캐시의 크기를",
        "어텐션 싱크는 방법이 아니라 학습된 모델에서 관찰된 현상입니다",
    ):
        assert words in intro, words
    assert ef.plain["행렬 곱"] == ef.tiled["행렬 곱"]  # 타일링은 행렬 곱의 FLOP 을 줄이지 않습니다
    assert ef.fa1_fig2["Flash"][0] > ef.fa1_fig2["표준"][0]  # 논문에서도 FLOP 은 늘었습니다
    assert ef.cached_entries < ef.plain_entries  # KV 캐시: 다시 계산하는 점수 칸이 줄어듭니다
    assert ef.kv_bytes_per_token(8) < ef.kv_bytes_per_token(32)  # GQA: 캐시의 바이트가 줄어듭니다


def test_rope_sentence_keeps_q_and_k_in_the_score(ef):
    """RoPE 의 점수는 오프셋에만 달린 것이 아니라 q 와 k 에도 달려 있습니다. 위치만 오프셋으로 들어갑니다."""
    text = PAGE.read_text(encoding="utf-8")
    rope_part = text.split("## RoPE")[1].split("## 확인 문제")[0]
    assert "에만 달려 있습니다" not in rope_part
    assert "점수는 여전히 쿼리와 키에 달려 있고, 위치는 두 자리의 차이(오프셋)로만 들어갑니다" in rope_part
    r = np.random.default_rng(5)
    q, k = r.standard_normal((2, 1, 8))
    same_offset = [(ef.rope(q, [m + 3]) @ ef.rope(k, [m]).T).item() for m in (0, 50)]
    assert same_offset[0] == pytest.approx(same_offset[1], abs=1e-12)
    other_q = (ef.rope(2 * q + 1, [3]) @ ef.rope(k, [0]).T).item()
    assert abs(other_q - same_offset[0]) > 0.1  # 오프셋이 같아도 q 가 다르면 점수가 다릅니다


def test_window_claims_stay_within_the_streaming_paper():
    """StreamingLLM 이 잰 것은 창 없이 학습한 모델을 창으로 돌린 경우입니다. 창으로 학습한 모델이 무너진다고 말하지 않고,
    논문의 창(Longformer)은 양쪽을 보는데 이 장의 창은 앞쪽만 본다고 밝힙니다."""
    text = PAGE.read_text(encoding="utf-8")
    assert "모델이 무너집니다" not in text
    assert "창 없이 학습한 Llama-2 등을 창으로 돌렸고" in text
    assert "처음부터 창으로 학습한 모델은 이 실험에 없습니다" in text
    assert "Longformer의 창은 쿼리 양쪽의 키를 보지만, 이 장은 디코더에 맞게 앞쪽 키만 보는 인과 창을 씁니다" in text


def test_sink_score_is_not_said_to_replace_the_first_tokens():
    """StreamingLLM 3.3절·표 3: b = 0 (Zero Sink) 으로 학습해도 다른 첫 토큰들이 여전히 필요했고, 학습하는 토큰을 둔 모델만
    그 토큰 하나로 버텼습니다. 페이지는 쉬는 자리 점수가 첫 토큰을 필요 없게 만든다고 말하지 않습니다."""
    text = PAGE.read_text(encoding="utf-8")
    assert "그럴 필요가 없어집니다" not in text
    assert "b = 0으로 학습한 모델은 창으로 돌릴 때 여전히 다른 첫 토큰들이 필요했습니다(3.3절, 표 3)" in text
    note = text.split('"더 알아보기: 논문이 견준 세 모델"')[1].split("\n\n")[0]
    for words in ("1억 6천만", "Zero Sink", "Sink Token", "셋째 모델뿐"):
        assert words in note, words
    assert "3.3절과 표 3" in text  # 각주


def test_the_two_flash_speedups_are_said_to_be_different_measurements():
    """그림 1 의 7.6배와 출력이 그림 2 에서 나눈 5.7배는 다른 설정의 값입니다 (그림 2: GPT-2 medium, A100, 순전파 + 역전파)."""
    text = PAGE.read_text(encoding="utf-8")
    assert "7.6배와 위 출력의 5.7배는 논문의 서로 다른 측정입니다" in text
    assert "그림 2 왼쪽(GPT-2 medium, A100, 순전파와 역전파)" in text
    assert "시간 5.7배 짧게" in out() and round(41.7 / 7.3, 1) == 5.7


def test_cached_work_is_not_called_flat(ef):
    """캐시를 써도 토큰 하나의 FLOP 은 t 와 함께 늘어납니다 (64 → 1024 에서 두 배 남짓)."""
    text = PAGE.read_text(encoding="utf-8")
    assert "거의 평평" not in text and "센 일의 양" not in text
    assert "토큰 하나의 FLOP이 t = 64에서 1024까지 두 배 남짓 됩니다" in text
    ratio = ef.work_per_token(1024)["KV 캐시"] / ef.work_per_token(64)["KV 캐시"]
    assert 2.0 < ratio < 2.3  # "두 배 남짓"


def test_korean_counters_and_words(ef):
    """'벌' 은 옷이나 그릇을 세는 말이라 점수·출력·K와 V 에 쓰지 않습니다. '센 일의 양', '재 보겠습니다' 도 쓰지 않습니다."""
    from test_glossary import prose

    text = prose(PAGE.read_text(encoding="utf-8"))
    printed_text = out()
    src = snippet_path("efficient").read_text(encoding="utf-8")
    for where, body in (("페이지", text), ("출력", printed_text), ("efficient.py", src)):
        assert not re.search(r"(한|두|세|네|\d) ?벌", body), where
        assert "센 일의 양" not in body and "잣대" not in body, where
    assert "재 보겠습니다" not in text


def test_outputs_fit_the_phone_box():
    """375 px 의 출력 칸에 모든 줄이 들어갑니다 (이슈 29, 7절; 예전에는 두 줄이 접혔습니다)."""
    from test_korean_model import too_wide

    assert not too_wide("efficient.md"), too_wide("efficient.md")
