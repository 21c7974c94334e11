"""snippets/lib/bert_numpy.py 와 docs/real_model.md: numpy BERT 인코더가 참조 구현과 같고, 페이지의 측정이 맞습니다."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import SNIPPETS, background
from page_outputs import page_output, printed
from support import runs

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/real_model.md", ".ci/bench_encoder.py", "tests/fixtures/minilm_reference.npz")

FIXTURE = Path(__file__).parent / "fixtures" / "minilm_reference.npz"


@pytest.fixture(scope="module")
def reference():
    return np.load(FIXTURE)


@pytest.fixture(scope="module")
def rm():
    import real_model

    return real_model


def test_uses_the_sites_attention_core():
    import attention
    import bert_numpy

    assert bert_numpy.multi_head_attention is attention.multi_head_attention


def test_matches_transformers_bertmodel(reference):
    """tests/fixtures/make_minilm_fixture.py 가 transformers BertModel(eager)로 만든 값과 비교."""
    from bert_numpy import encode, load_model, tokenize

    meta = json.loads(str(reference["meta"]))
    model = load_model()
    ids, tokens = tokenize(model, meta["text"])
    np.testing.assert_array_equal(ids, reference["input_ids"])
    assert tokens == meta["tokens"]
    hidden, weights = encode(model, ids)
    assert hidden.dtype == np.float32 and all(w.dtype == np.float32 for w in weights)
    attn = np.stack([w[0] for w in weights])
    assert attn.shape == reference["attentions"].shape == (6, 12, len(tokens), len(tokens))
    # 이슈의 기준은 1e-4 이고, 실제 차이는 그보다 훨씬 작습니다 (float32 반올림 수준, 약 2e-6).
    assert np.abs(attn - reference["attentions"]).max() <= 1e-5
    assert np.abs(hidden[0] - reference["last_hidden_state"]).max() <= 1e-5


@pytest.mark.parametrize("side", ["right", "left"])
def test_padded_batches_give_transformers_unpadded_answer(reference, side):
    """패딩이 어느 쪽에 붙든 진짜 토큰은 BertModel 이 패딩 없이(오른쪽 패딩으로) 낸 값과 같습니다.

    오른쪽 패딩에서는 BertModel 과 그대로 같습니다. 왼쪽 패딩에서 BertModel 은 position_ids 를 주지 않으면
    패딩까지 0, 1, 2, … 로 세어 진짜 토큰의 위치를 밀어내므로 값이 달라지고(아래 마지막 줄), 사이트의 인코더는
    위치를 마스크에서 세어 패딩이 없는 것과 같은 값을 냅니다 (bert_numpy 의 설명). 패딩 자리의 출력은 아무도
    쓰지 않는 값이라 비교하지 않습니다.
    """
    from bert_numpy import encode, load_model

    mask = reference[f"{side}_attention_mask"].astype(bool)
    hidden, _ = encode(load_model(), reference[f"{side}_input_ids"], mask.astype(int))
    right_mask = reference["right_attention_mask"].astype(bool)
    unpadded = reference["right_last_hidden_state"][right_mask]  # 문장마다 진짜 토큰, 차례대로
    np.testing.assert_allclose(hidden[mask], unpadded, atol=1e-5, rtol=0)
    if side == "left":
        shifted = reference["left_last_hidden_state"][mask]
        assert np.abs(shifted - unpadded).max() > 0.05  # transformers 의 왼쪽 패딩은 위치가 밀립니다


def test_details_that_change_the_numbers():
    from bert_numpy import gelu, load_model

    x = np.array([1.0, -0.5, 2.0], dtype=np.float32)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(float)])
    np.testing.assert_allclose(gelu(x), exact, rtol=1e-6)
    tanh_approx = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    assert np.abs(gelu(x) - tanh_approx).max() > 1e-5  # 근사식을 쓰면 숫자가 달라집니다
    model = load_model()
    assert model.config["layer_norm_eps"] == 1e-12
    assert len(model.tokenizer.encode("hi").ids) == 3  # 128 로 채우지 않습니다
    assert len(model.tokenizer.encode("word " * 400).ids) == 256  # sentence-transformers 처럼 256 에서 자릅니다


def test_gelu_erf_approximation_against_math_erf():
    """gelu 의 erfc 근사 (bert_numpy 의 주석이 밝힌 오차 범위) 를 촘촘한 격자와 꼬리에서 math 와 비교합니다."""
    from bert_numpy import _erfc_nonnegative, gelu

    # 1) 근사식 자체: float64 로 계산해 반올림 오차를 빼고 봅니다. erfc 는 상대 오차 < 1.2e-7 이고,
    #    z = 26 (erfc ≈ 1e-296, float64 로 담을 수 있는 끝 근처) 까지 유지됩니다.
    z = np.linspace(0, 26, 260_001)
    exact = np.array([math.erfc(v) for v in z])
    assert np.all(np.abs(_erfc_nonnegative(z) - exact) <= 1.2e-7 * exact)
    x = np.linspace(-8, 8, 160_001)
    erf = np.sign(x) * (1 - _erfc_nonnegative(np.abs(x)))
    assert np.abs(erf - np.array([math.erf(v) for v in x])).max() < 1.2e-7
    x = np.linspace(-37, 37, 148_001)
    exact = np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x])  # = 0.5 x (1 + erf(x/√2))
    nonzero = exact != 0
    assert np.all(np.abs(gelu(x) - exact)[nonzero] <= 1.2e-7 * np.abs(exact[nonzero]))
    # 2) 모델이 쓰는 float32: 근사 오차에 float32 반올림이 더해집니다. exp(-z²) 의 지수에는 z = |x|/√2 의
    #    반올림(상수 1/√2 포함 0.7·eps) 이 두 배로, z·z 와 뺄셈의 반올림이 한 번씩 들어가 많아야
    #    2.5·z²·eps 의 오차가 생기고, 나머지 연산 여덟 번의 반올림이 많아야 8·eps 입니다 (eps = 2^-23).
    #    float32 의 정규 범위 밖(tiny 미만)의 차이는 보지 않습니다.
    x32 = np.linspace(-20, 20, 400_001, dtype=np.float32)
    xs = x32.astype(float)
    exact = np.array(
        [0.5 * v * (1 + math.erf(v / math.sqrt(2))) if v >= 0 else 0.5 * v * math.erfc(-v / math.sqrt(2)) for v in xs]
    )  # 음수 쪽은 1 + erf 의 자릿수 손실을 피해 erfc 로 같은 값을 계산합니다
    f32 = np.finfo(np.float32)
    bound = (1.2e-7 + (2.5 * xs**2 / 2 + 8) * float(f32.eps)) * np.abs(exact) + float(f32.tiny)
    out = gelu(x32)
    assert out.dtype == np.float32
    assert np.all(np.abs(out.astype(float) - exact) <= bound)


def test_paraphrases_are_closer_than_unrelated_sentences():
    from bert_numpy import sentence_embeddings

    e = sentence_embeddings(
        ["A man is playing a guitar.", "Someone is playing the guitar.", "The stock market fell sharply today."]
    )
    np.testing.assert_allclose(np.linalg.norm(e, axis=-1), 1.0, rtol=1e-5)
    para, unrelated = float(e[0] @ e[1]), float(e[0] @ e[2])
    assert para > 0.7 and unrelated < 0.2 and para > unrelated + 0.5


def test_padding_does_not_change_a_sentence_embedding():
    from bert_numpy import sentence_embeddings

    alone = sentence_embeddings(["A cat."])[0]
    padded = sentence_embeddings(["A cat.", "A much longer sentence that forces padding of the first."])[0]
    np.testing.assert_allclose(alone, padded, atol=1e-5)


def test_head_statistics(rm):
    s = rm.stats
    assert s["이전 토큰"].shape == (6, 12)
    assert rm.over_half["이전 토큰"] == ["1-3"] and rm.over_half["다음 토큰"] == ["2-9"]
    assert s["이전 토큰"][0, 2] > 0.95 and s["엔트로피"][0, 2] < 0.05
    assert np.all(s["[CLS]"].mean(axis=1)[1:5] > 0.5)  # 2–5층: 절반 넘게 [CLS]
    assert np.all(s["[SEP]"].mean(axis=1) < 0.15)  # [SEP] 은 어느 층에서도 작음
    assert s["엔트로피"].mean(axis=1).argmax() == 0  # 1층이 가장 넓게 봅니다


def test_random_heads_are_nearly_uniform(rm):
    r = rm.random_stats
    assert r["이전 토큰"].max() < 0.2
    lengths = [len(rm.tokenize(rm.model, t)[1]) for t in rm.SENTENCES]
    uniform_entropy = np.mean([math.log(n) for n in lengths for _ in range(n)])
    assert abs(r["엔트로피"].mean() - uniform_entropy) < 0.05
    assert rm.random_js.max() < 0.1 < 0.3 < rm.js_layers.min()
    # 초기값 0.02 의 크기 (멀티헤드 장과 다른 까닭): 폭 384 에서 1/√d_model 의 0.39배, 768 에서 0.55배.
    # 점수의 퍼짐은 그 비의 제곱: 편향이 0 이라 W_Q, W_K 를 c 배 하면 점수는 c² 배입니다.
    assert round(rm.ratio, 2) == 0.39 and round(0.02 * math.sqrt(768), 2) == 0.55
    assert round(rm.init_spread, 2) == 0.16 and round(rm.init_spread / rm.ratio**2, 2) == 1.03
    assert rm.init_spread == pytest.approx(rm.ratio**2, rel=0.15)  # 예상한 c² 와 잰 값이 맞습니다


def test_cat_sat_is_a_next_token_head(rm):
    assert rm.name(*rm.top) == "2-9"
    assert rm.stats["다음 토큰"][rm.top] > 0.5


def test_korean_is_split_into_jamo(rm):
    from bert_numpy import tokenize

    pieces = tokenize(rm.model, "나는 학교에 간다")[1][1:-1]
    assert len(pieces) == 17 and "[UNK]" not in pieces
    assert tokenize(rm.model, "고양이가 매트 위에 앉았다.")[1].count("[UNK]") == 3


def test_init_scale_caveat_is_measured():
    """본문의 "0.02 는 BERT 크기에서 아주 작지 않습니다": 출력이 1/√d 와 견준 배수와 점수의 표준편차를 찍습니다."""
    out = page_output("real_model.md")
    assert (
        "표준편차 0.02 는 (768 은 BERT-base 의 폭)\n  폭 384: 1/√384(0.051)의 0.39배\n  폭 768: 1/√768(0.036)의 0.55배"
        in out
    )
    assert "1층 점수(÷√d_k)의 표준편차: 0.16\n  같은 행렬을 1/√d_model 크기로: 1.03" in out


def test_layer1_alt_text_claims(rm):
    """그림 real_model-layer1 의 대체 텍스트가 말하는 것."""
    l1 = rm.maps[0]
    q = np.arange(1, len(rm.tokens))
    assert (l1[2][q].argmax(-1) == q - 1).all()  # 헤드 1-3: 모든 토큰이 바로 앞 토큰
    assert rm.cls_heads == ["1-2", "1-5", "1-6", "1-7", "1-8", "1-9", "1-10", "1-11", "1-12"]  # "아홉 헤드"
    assert np.all(rm.layer1_cls_share < 0.5)  # "그 몫은 절반에 못 미치고"
    assert rm.layer1_cls_top[0] < 0.5 and rm.layer1_cls_top[3] < 0.5  # 헤드 1-1, 1-4


def test_word_order_comes_from_position_embeddings(rm):
    assert rm.name(*rm.prev_head) == "1-3"
    assert rm.with_order > 0.99 and rm.without_order < 0.3
    np.testing.assert_allclose(rm.maps_no_order[:, :, rm.the1], rm.maps_no_order[:, :, rm.the2], atol=1e-5)
    assert not np.allclose(rm.maps[:, :, rm.the1], rm.maps[:, :, rm.the2], atol=1e-3)  # 위치 정보가 있으면 다릅니다
    np.testing.assert_allclose(rm.shuffled, rm.maps_no_order[:, :, rm.perm][:, :, :, rm.perm], atol=1e-5)


def test_preposition_object_measurement(rm):
    assert rm.n_pairs == 15 == sum(len(v) for v in rm.PREP_OBJECTS.values())
    assert set(rm.PREP_OBJECTS) <= set(rm.SENTENCES)
    assert rm.name(*rm.best_head) == "3-9" and rm.accuracy[rm.best_head] == 1.0
    assert rm.best_offset == 2 and rm.baseline == pytest.approx(11 / 15)
    assert rm.accuracy[rm.best_head] > rm.baseline
    assert rm.maps[rm.best_head][rm.on, rm.mat] == pytest.approx(0.50, abs=0.005)


def test_word_maps_follow_clark():
    """토큰 → 단어: 받는 쪽은 조각의 합, 주는 쪽은 조각의 평균. 행의 합은 (특수 토큰 몫을 빼면) 그대로."""
    import real_model as rm

    w = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25], [0.4, 0.3, 0.2, 0.1], [0.0, 0.5, 0.5, 0.0]])
    word_ids = [None, 0, 0, 1]  # [CLS], 단어 0 의 두 조각, 단어 1
    wm = rm.word_maps(w, word_ids)
    np.testing.assert_allclose(wm, [[((0.25 + 0.25) + (0.3 + 0.2)) / 2, (0.25 + 0.1) / 2], [0.5 + 0.5, 0.0]])


def test_quiz_answers(rm):
    assert rm.sentence_maps[rm.park].shape == (6, 12, 11, 11) and len(rm.park_tokens) == 11
    q = np.arange(1, len(rm.sofa_tokens))
    assert (rm.sofa_maps[rm.prev_head][q].argmax(-1) == q - 1).all()
    assert rm.random_entropy == pytest.approx(math.log(9), abs=0.02)
    assert rm.offsets.count(1) == 2 and rm.offsets.count(3) == 2


def run_encoder_benchmark():
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "BENCH_TORCH_PYTHON"} | {"BENCH_ROUNDS": "1", "BENCH_CALLS": "1"}
    return subprocess.run(
        [sys.executable, str(root / ".ci" / "bench_encoder.py")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


# 새 프로세스: 세션을 시작할 때 배경에서. 스크립트와 스니펫이 그대로면 지난 결과를 씁니다 (support/runs.py).
ENCODER_BENCHMARK = Path(__file__).resolve().parent.parent / ".ci" / "bench_encoder.py"
BACKGROUND = {
    "real_model:encoder-benchmark": lambda: runs.cached(
        "encoder-benchmark",
        [ENCODER_BENCHMARK, SNIPPETS],
        run_encoder_benchmark,
        __name__,
    )
}


def test_encoder_benchmark_runs_without_torch():
    """make bench 의 인코더 표 (.ci/bench_encoder.py): torch 가 없으면 그렇다고 말하고 numpy 만 잽니다.

    속도 자체는 테스트하지 않습니다 (벤치마크 출력을 인용합니다). 여기서는 스크립트가 돌아가는지만 봅니다.
    """
    proc = background("real_model:encoder-benchmark")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "토큰 128개 (배치 1)" in proc.stdout
    assert "numpy (snippets/lib/bert_numpy.py)" in proc.stdout
    assert "transformers 는 재지 않았습니다" in proc.stdout and "BENCH_TORCH_PYTHON" in proc.stdout


# 페이지 출력 전체는 tests/test_page_snapshots.py 의 스냅숏이 고정합니다. 여기는 본문이 풀어 쓰는 숫자만 이름 붙여 봅니다.


def test_the_page_quotes_the_trained_entropy():
    """본문이 학습된 모델의 평균 엔트로피 1.29(약 3.6 토큰에 고르게 나눈 만큼)를 풀어 씁니다."""
    entropy = printed("real_model.md", r"평균 엔트로피 \(나트\)\n  학습됨 ([\d.]+)")
    assert entropy == pytest.approx(1.29, abs=0.005) and math.exp(entropy) == pytest.approx(3.6, abs=0.05)


# ---------------------------------------------------------------- 이슈 29: 본문이 출력보다 세게 말하지 않습니다


def real_page():
    from site_pages import DOCS

    return (DOCS / "real_model.md").read_text(encoding="utf-8")


def test_removing_positions_is_described_with_its_numbers(rm):
    """위치 정보를 지운 뒤 이전 토큰 헤드의 몫 0.18 은 고르게 나눈 몫 1/9 = 0.11 보다 큽니다: "비슷한 수준" 이 아닙니다."""
    text = real_page()
    assert "고르게 나눌 때와 비슷한 수준" not in text
    assert "1.00에서 0.18로 떨어집니다" in text and "토큰 9개에 고르게 나눈 몫(0.11)보다는 아직 크지만" in text
    assert round(float(rm.with_order), 2) == 1.00 and round(float(rm.without_order), 2) == 0.18
    assert len(rm.tokens) == 9 and round(1 / 9, 2) == 0.11 < 0.18
    out = page_output("real_model.md")
    assert "  위치 정보 있음 1.00, 없음 0.18\n  토큰 9개에 고르게 나누면 0.11" in out


def test_clark_row_and_the_next_token_head_read_cleanly():
    """ "(가중치의 절반 넘게)" 가 [CLS] 에도 걸려 읽히지 않게 [SEP] 쪽에만 붙이고, "넘게(…)를" 을 쓰지 않습니다."""
    text = real_page()
    assert "(가중치의 절반 넘게)" not in text and "넘게(출력의 마지막 줄)를" not in text
    assert "앞쪽 층의 헤드는 [CLS]를 많이 보고, 6–10층의 헤드는 [SEP]에 가중치를 절반 넘게 줌" in text
    assert "바로 **다음 토큰**에 가중치를 절반 넘게(0.59, 출력의 마지막 줄) 주는 헤드입니다" in text
    from page_outputs import page_outputs

    cat_sat = next(block for block in page_outputs("real_model.md") if "cat → sat" in block)
    assert cat_sat.rstrip("\n").splitlines()[-1] == "24문장에서 다음 토큰에 주는 몫: 0.59"  # "출력의 마지막 줄"
    assert "잣대" not in text
