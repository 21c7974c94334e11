"""docs/korean_model.md 와 snippets/chapters/korean_model.py: 한국어 문장에서 잰 값이 페이지가 말하는 그대로입니다."""

import re

import numpy as np
import pytest

from conftest import SNIPPETS
from page_outputs import page_output
from sitebuild import snippets
from support import runs

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads(
    "docs/korean_model.md", "docs/korean_loading.md", "docs/own_sentence.md", "docs/real_model.md"
)


@pytest.fixture(scope="module")
def km():
    import korean_model

    return korean_model


def test_prefix_and_positions(km):
    """접두어 "query: " 는 언제나 조각 셋이고, 문장은 4번 자리에서 시작합니다."""
    assert km.START == 4
    for tokens in km.all_tokens:
        assert tokens[: km.START] == ["<s>", "▁que", "ry", ":"] and tokens[-1] == "</s>"
        assert tokens[km.START].startswith("▁")  # 접두어와 문장 첫 조각이 한 조각으로 붙지 않습니다


def test_annotations_match_the_sentences_and_the_pieces(km):
    assert len(km.SENTENCES) >= 24 and len(set(km.SENTENCES)) == len(km.SENTENCES)
    for annotated, tokens in zip(km.ANNOTATED, km.all_tokens):
        words = ["".join(tokens[i] for i in w).replace("▁", "") for w in km.words_of(tokens)]
        assert words == annotated.replace("/", "").replace("~", "").split(" "), annotated
        for role, start, host in km.attached(annotated, tokens):
            if start is not None:  # 따로 떨어진 조사·어미: 붙은 말은 바로 앞에 이어진 조각들
                assert host == list(range(host[0], start)), (annotated, role)


def test_tokenizer_facts(km):
    assert km.all_tokens[0][km.START : -1] == ["▁고양이", "가", "▁매", "트", "▁", "위에", "▁", "앉", "았다"]
    roles = [m for m in km.marks]
    assert sum(r == "조사" for r, _, _ in roles) == 72 and sum(r == "조사" and s is not None for r, s, _ in roles) == 52
    assert sum(r == "어미" for r, _, _ in roles) == 22 and sum(r == "어미" and s is not None for r, s, _ in roles) == 21


def test_maps_are_the_same_as_one_sentence_at_a_time(km):
    """배치(패딩 + 마스크)로 계산해 잘라 낸 가중치 = 문장 하나만 넣어 계산한 가중치 (float32 반올림 안에서).

    두 계산은 행렬 모양이 달라 BLAS 가 다른 차례로 더할 수 있으므로 비트까지 같지는 않습니다 (CPU 마다 다름).
    얼마나 달라도 되는지는 float32 반올림 자체의 크기로 정합니다: 같은 문장을 float64 로 계산한 가중치와
    float32 가중치의 차이가 반올림의 크기이고, float32 계산 둘의 차이는 그 두 배를 넘지 않아야 합니다.
    """
    from bert_numpy import Encoder, attention_maps, encode, tokenize

    text = km.PREFIX + km.SENTENCES[3]
    tokens, maps = attention_maps(text, model=km.model)
    assert tokens == km.results[3][0]
    exact = Encoder(
        {
            name: w if name.startswith("embeddings.word") else np.asarray(w, dtype=np.float64)
            for name, w in km.model.weights.items()
        },
        km.model.config,
        km.model.tokenizer,
    )
    maps64 = np.stack([w[0] for w in encode(exact, tokenize(exact, text)[0])[1]])
    assert maps64.dtype == np.float64
    rounding = np.abs(maps - maps64).max()
    assert 1e-7 < rounding < 1e-5  # float32 가 남기는 차이: 0 도 아니고 크지도 않습니다
    assert np.abs(maps - km.results[3][1]).max() <= 2 * rounding


def test_head_statistics(km):
    s = km.stats
    assert s["이전 토큰"].shape == (12, 12)
    assert km.over_half["이전 토큰"] == ["1-3"] and km.over_half["다음 토큰"] == ["2-8", "3-7"]
    assert s["다음 토큰"][2, 6] > 0.99 and s["다음 토큰"][1, 7] > 0.97
    bos, eos = s["<s>"].mean(axis=1), s["</s>"].mean(axis=1)
    assert np.all(bos[2:5] > 0.6) and 0.45 < bos[1] < 0.5  # 3–5층은 3분의 2 가까이, 2층은 절반 가까이
    assert np.all(eos[:5] < 0.15) and np.all(eos[5:10] > 0.25)  # </s> 는 6층부터
    assert np.all(np.abs(bos[5:] - eos[5:]) < 0.06)  # 6층부터는 <s> 와 </s> 가 비슷하게
    merged = km.merged.mean(axis=1)
    np.testing.assert_allclose(merged, bos + eos)
    assert merged[1] > 0.5 and round(merged[5:10].min(), 2) == 0.59 and round(merged[5:10].max(), 2) == 0.71
    assert np.all(s["접두어"].mean(axis=1)[2:] < 0.1)
    ent = s["엔트로피"].mean(axis=1)
    assert ent.argmax() == 0 and np.argsort(ent)[-2] == 10  # 1층, 그다음 11층
    assert km.name(*km.sharp) == "3-7"


def test_particles_against_the_position_baseline(km):
    obs, base, exc = km.observed, km.baseline, km.excess
    assert [len(km.events[g]) for g in km.events] == [52, 21, 66, 124]
    assert obs["조사"].mean() > base["조사"].mean() + 0.02
    assert [int((exc[g] > 0.1).sum()) for g in km.events] == [12, 7, 9, 0]
    # 조사에 유난한 헤드: 7-11, 7-3 (다른 무리보다 뚜렷이 큼)
    assert km.name(*km.best) == "7-11"
    for head in [(6, 10), (6, 2)]:
        assert obs["조사"][head] > base["조사"][head] + 0.25
        assert obs["조사"][head] > max(obs["어미"][head], obs["그 밖의 어절 안 조각"][head]) + 0.2
    # 어미에서 기준을 가장 크게 넘는 두 헤드는 다른 어절 안 조각도 그만큼 봅니다
    for head in km.top(exc["어미"], 2):
        assert obs["그 밖의 어절 안 조각"][head] > obs["어미"][head] - 0.12
    # 이전 토큰 몫 2위인 2-11 은 주로 어절 안에서 앞 조각을 봅니다
    assert km.name(*km.top(km.stats["이전 토큰"], 2)[1]) == "2-11"
    assert obs["그 밖의 어절 안 조각"][1, 10] > 0.75 > 0.25 > obs["어절 첫 조각"][1, 10]


def test_similarities(km):
    sim = km.sim
    assert sim[0, 1] > sim[0, 2] and sim[0, 3] > sim[0, 4]
    assert sim[0, 2] > 0.7 and sim[0, 4] > 0.7  # 관계없는 문장도 0.7 을 넘습니다


def test_four_bit_facts():
    import korean_loading as kl

    assert kl.n_q4 == 117_247_872 and kl.n_f32 == 258_048
    assert round(kl.size / kl.size_f32, 2) == 0.15


def test_s_and_end_s_merge_from_layer_6(km):
    """issue 22: <s> 와 </s> 는 6–8층부터 같은 은닉 상태라서, 두 키가 같은 점수를 받습니다 (한 자리를 두 번 셈).

    은닉 상태 차이는 float32 반올림(상대 1e-7)보다 훨씬 큰 값들만 봅니다: 1–5층 1 이상, 6층 0.1 근처, 12층 1e-4 미만.
    점수 차이는 28문장 × 헤드 144개 × 모든 쿼리에서의 최댓값이고, 같은 행의 가중치 비의 로그입니다."""
    hg, gap = km.hidden_gap, km.gap
    assert hg.shape == gap.shape == (12,)
    assert np.all(hg[:5] > 1.0) and 0.05 < hg[5] < 0.15 and hg[11] < 1e-4
    assert np.all(np.diff(hg[4:]) < 0)  # 5층부터 층마다 줄어듭니다
    assert np.all(gap[:5] > 5) and gap[5] < 0.5 and gap[7] < np.log(1.004) and gap[11] < 1e-3
    assert round(float(hg[5]), 3) == 0.097  # 본문: "6층에 들어갈 때 그 차이가 0.097"
    # 가중치에서 구한 점수 차이 = q·k/√d_k 에서 직접 구한 차이 (첫 문장, 12층)
    from bert_numpy import encode, tokenize

    ids, tokens = tokenize(km.model, km.PREFIX + km.SENTENCES[0])
    q, k = encode(km.model, ids, return_qk=True)[2][11]
    scores = (q[0].astype(np.float64) @ k[0].astype(np.float64).swapaxes(-1, -2)) / np.sqrt(q.shape[-1])
    direct = np.abs(scores[..., 0] - scores[..., -1]).max()
    assert direct == pytest.approx(km.score_gap(tokens, km.results[0][1][None, 11])[0], abs=2e-5)
    # 12층에서는 모든 헤드·쿼리에서 두 가중치의 비가 1 이고, 몫을 합쳐 읽습니다 (확인 문제 4)
    assert np.abs(km.ratio_12 - 1).max() < 5e-4
    assert round(float(km.merged[11].mean()), 2) == 0.47


def test_page_text_quotes_the_measurements():
    """본문의 숫자는 페이지 출력에서 온 것입니다: 몇 문장을 골라, 본문에 있고 그 안의 소수가 모두 출력에 있는지 봅니다.

    (출력 전체는 tests/test_page_snapshots.py 의 스냅숏이 고정합니다.)"""
    text = open_page()
    out = page_output("korean_model.md")
    for phrase in [
        "0.64–0.66",
        "0.59–0.71",
        "0.79를 주지만 어절 첫 조각에서는 0.22",
        "0.37 대 0.09, 0.12",
        "0.51을 주지만 어미와 그 밖의 어절 안 조각에서는 0.31, 0.28",
        "0.097로 가까워지고",
        "가중치의 비가 1.004 안",
        "1.353배까지 다르고, 7층에서도 1.027배까지",
        "평균 0.98, 1.00",
        "조사 52개",
        "바로 앞 토큰(앞 어절의 끝)에 0.44",
        "더한 0.47",
    ]:
        assert phrase in text, phrase
        for number in re.findall(r"\d+\.\d+", phrase):
            assert re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", out), f"{phrase!r} 의 {number} 가 출력에 없습니다"
    from site_pages import DOCS

    appendix = (DOCS / "korean_loading.md").read_text(encoding="utf-8")
    appendix_out = page_output("korean_loading.md")
    # 본문의 말 → 그 말이 풀어 쓰는 출력의 수 ("9% 안팎" 은 제곱평균 0.092)
    for phrase, number in {"0.15배": "0.15", "9% 안팎": "0.092", "470 MB": "470", "4.5비트": "4.5"}.items():
        assert phrase in appendix, phrase
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", appendix_out), f"{phrase!r} 의 {number}"
    # 4비트 모델과 원래 모델의 유사도는 확인하지 못한 패키지의 주장이라고 밝힙니다
    assert "0.98–0.99" in appendix and "스스로 밝힙니다" in appendix and "0.98–0.99" not in text


def open_page():
    from site_pages import DOCS

    return (DOCS / "korean_model.md").read_text(encoding="utf-8")


def test_english_comparison_quotes_the_real_model_page():
    """비교 표의 영어 모델 값은 앞 장의 실행 결과에 있는 그대로입니다."""
    out = page_output("real_model.md")
    assert "50% 넘게 주는 헤드\n  이전 토큰: ['1-3']\n  다음 토큰: ['2-9']" in out
    cls = re.search(r"^\[CLS\] (.+)$", out, re.M).group(1).split()
    assert len(cls) == 6 and all(float(v) > 0.5 for v in cls[1:5])  # 2–5층
    sep = re.search(r"^\[SEP\] (.+)$", out, re.M).group(1).split()
    assert len(sep) == 6 and all(float(v) < 0.15 for v in sep)
    text = open_page()
    assert (
        "| 이전 토큰에 50% 넘게 주는 헤드 | 1-3 하나 |" in text
        and "| 다음 토큰에 50% 넘게 주는 헤드 | 2-9 하나 |" in text
    )


def test_quiz_section_format():
    text = open_page()
    quiz = text.split("## 확인 문제", 1)[1]
    questions = re.findall(r"^\*\*문제 (\d)\.\*\* ", quiz, flags=re.M)
    assert questions == [str(i) for i in range(1, len(questions) + 1)] and 3 <= len(questions) <= 5
    assert quiz.count('??? success "정답과 풀이"') == len(questions)
    assert text.rstrip().splitlines()[-1].startswith("다음 장:")


def test_quiz_answers(km):
    from e5_numpy import BLOCK, Q4_0

    tokens = km.all_tokens[0]
    assert len(tokens) == 14 and len(tokens[km.START : -1]) == 9 and len(km.SENTENCES[0].split()) == 4
    assert sum(t.startswith("▁") for t in tokens[km.START : -1]) == 4  # ▁ 로 시작하는 조각 수 = 어절 수
    assert round(float(km.observed["조사"][4, 3]), 2) == 0.69 and round(float(km.baseline["조사"][4, 3]), 2) == 0.42
    assert Q4_0.itemsize == 18 and Q4_0.itemsize * 8 / BLOCK == 4.5  # 부록의 "4.5비트"
    assert "▁앉" not in km.vocab and "앉" in km.vocab  # 본문: 사전에 "▁앉"이 없어서 ▁ 가 혼자 한 조각


def test_quiz_3_same_prefix_keys_do_not_get_the_same_share(km):
    """문제 3 (issue 33 이 바꾼 문제): 1층에 들어가는 접두어 조각의 벡터는 모든 문장에서 같지만(그래서 키도 같습니다),
    문장 조각들이 접두어에 주는 몫은 문장마다 다릅니다."""
    shares = km.prefix_share_1
    assert shares.shape == (len(km.SENTENCES),) and shares.max() - shares.min() > 0.03
    ids = [km.tokenize(km.model, km.PREFIX + s)[0] for s in km.SENTENCES[:3]]
    first = [km.hidden_into(1, np.array([i])) for i in ids]
    for other in first[1:]:
        np.testing.assert_array_equal(other[1 : km.START], first[0][1 : km.START])
    assert np.abs(first[1][km.START] - first[0][km.START]).max() > 0.1  # 문장의 첫 조각은 문장마다 다릅니다


def heatmap_labels(figure, narrow):
    """문장 히트맵을 그려 잰 이름들: {"tokens": 첫 문장의 토큰, "axes": [두 히트맵마다 아래·위의 키 이름, 이름들의 회전,
    같은 쪽에서 맞닿는 이름의 쌍]}.

    그림 넷을 그리는 일(2코어에서 합쳐 7초 남짓)이라서, 그림을 정하는 스니펫(korean_model 과 그것이 import 하는 것,
    그리는 쪽의 plotting)과 환경(잠금 파일: matplotlib 과 글꼴 패키지의 판)이 그대로면 지난 값을 씁니다 (support/runs.py)."""

    def compute():
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        import korean_model
        import plotting

        assert plotting.use_korean_font()
        with plotting.theme("light", narrow=narrow):
            fig = getattr(korean_model, figure)(narrow=narrow)
            try:
                renderer = fig.canvas.get_renderer()
                fig.draw(renderer)
                axes = []
                for ax in fig.axes[:2]:
                    top = next(c for c in ax.child_axes)  # 위쪽 키 이름 (secondary_xaxis)
                    sides = [ax.get_xticklabels(), top.get_xticklabels()]
                    labels = sides[0] + sides[1] + ax.get_yticklabels()
                    touching = []
                    for side in sides:
                        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in side]
                        touching += [[a, b] for (a, left), (b, right) in zip(boxes, boxes[1:]) if left.x1 >= right.x0]
                    axes.append(
                        {
                            "bottom": [t.get_text() for t in sides[0]],
                            "top": [t.get_text() for t in sides[1]],
                            "rotations": sorted({float(t.get_rotation()) for t in labels if t.get_text()}),
                            "touching": touching,
                        }
                    )
            finally:
                plt.close(fig)
        return {"tokens": list(korean_model.results[0][0]), "axes": axes}

    closure = snippets.content_hash({"korean_model", "plotting"}, SNIPPETS)
    return runs.cached_value(f"korean-heatmap-labels-{figure}-{narrow}", [closure], compute, __name__)


@pytest.mark.parametrize("narrow", [True, False])
@pytest.mark.parametrize("figure", ["figure_heads_position", "figure_heads_meaning"])
def test_heatmap_token_labels_read_without_turning_the_phone(figure, narrow):
    """문장 히트맵의 키·쿼리 이름은 가로로 쓰고(0°), "▁고양이" 는 ▁ 와 조각이 한 이름입니다. 키 이름 14개는 아래와 위에
    번갈아 쓰며, 같은 쪽의 이름끼리 겹치지 않습니다 (예전 그림은 키 이름을 90° 돌려 "▁" 가 떨어진 막대처럼 보였습니다)."""
    measured = heatmap_labels(figure, narrow)
    tokens = measured["tokens"]
    assert len(measured["axes"]) == 2
    for ax in measured["axes"]:
        assert ax["bottom"] == tokens[::2] and ax["top"] == tokens[1::2]
        assert "▁고양이" in ax["bottom"] + ax["top"]
        assert ax["rotations"] == [0.0]
        assert not ax["touching"], (figure, narrow, "키 이름이 맞닿습니다", ax["touching"])


# ---------------------------------------------------------------- 이슈 29


def test_particle_head_is_chosen_on_one_half_and_measured_on_the_other(km):
    """헤드 144개에서 가장 큰 값을 고르면 우연도 함께 고릅니다. 그래서 한쪽 반(14문장)으로 헤드를 고르고, 고를 때 쓰지 않은
    다른 쪽 반에서만 잽니다 (관찰값도 위치 기준도 그 반의 문장으로). 어느 쪽으로 골라도 7-11 이고, 다른 반에서 위치 기준의
    세 배 넘게 받습니다 (본문)."""
    assert km.halves == {"앞 14문장": tuple(range(14)), "뒤 14문장": tuple(range(14, 28))}
    for pick, other in (("앞 14문장", "뒤 14문장"), ("뒤 14문장", "앞 14문장")):
        chosen, measured, base = km.held_out[pick]
        # 고르는 데 쓴 것은 그 반의 문장뿐입니다: 그 반만으로 다시 골라도 같은 헤드
        _, obs, b = km.particle_share(km.halves[pick])
        assert chosen == km.top(obs - b, 1)[0] and km.name(*chosen) == "7-11"
        # 잰 값은 다른 반의 조사로만: 직접 다시 계산한 값과 같습니다
        ev = [e for e in km.events["조사"] if e[0] in km.halves[other]]
        assert ev and all(b_ not in km.halves[pick] for b_, _, _ in ev)
        direct = np.mean([km.host_weight(km.results[b_][1], i, o)[chosen] for b_, i, o in ev])
        assert measured == pytest.approx(direct, rel=1e-12)
        assert measured > 3 * base
    # 기준도 그 반의 문장만으로: 28문장 전체의 기준과는 다릅니다
    offsets = km.events["조사"][0][2]
    assert not np.allclose(km.position_baseline(offsets, km.halves["앞 14문장"]), km.position_baseline(offsets))
    text = open_page()
    assert "한쪽 반으로 헤드를 고르고 고를 때 쓰지 않은 다른 쪽 반에서" in text
    assert "어느 쪽 반으로 골라도 헤드 7-11이 뽑히고, 고를 때 쓰지 않은 반에서도 위치 기준의 세 배 넘게" in text
    out = page_output("korean_model.md")
    assert "앞 14문장으로 고른 헤드: 7-11\n  뒤 14문장(조사 31개)에서 잰 몫 0.51" in out
    assert "뒤 14문장으로 고른 헤드: 7-11\n  앞 14문장(조사 21개)에서 잰 몫 0.50" in out


def test_one_place_counted_twice_only_from_layer_8(km):
    """본문의 "몇 층부터 한 자리가 둘로" 는 출력의 가중치 비와 맞습니다: 6층 1.353, 7층 1.027 (아직 다름), 8층부터 1.004 이하."""
    ratio = np.exp(km.gap)
    assert round(float(ratio[5]), 3) == 1.353 and round(float(ratio[6]), 3) == 1.027
    assert np.all(ratio[:7] > 1.004) and np.all(ratio[7:] <= 1.004)
    text = open_page()
    assert "6층부터 두 몫은" not in text and "6층부터는 `<s>`와 하나가 된" not in text
    assert "그러니 8층부터 두 몫은 **한 자리가 둘로 세어진 것**" in text
    assert "8층부터는 두 토큰이 한 자리라 합쳐 읽음" in text  # 비교 표
    assert "6–7층에서 `<s>`와 빠르게 같아지고, 8층부터는 `<s>`를 한 번 더 센 것입니다" in text
    out = page_output("korean_model.md")
    for row in (" 6   0.097      0.3   1.353", " 7  0.0097    0.027   1.027", " 8  0.0014   0.0038   1.004"):
        assert row in out, row


def test_group_names_read_as_intended():
    """ "다른 어절 안 조각" 은 "다른 어절 + 안 조각" 으로 읽힙니다. 조사·어미가 아닌 어절 안 조각은 "그 밖의 어절 안 조각"."""
    import korean_model

    text = open_page()
    assert "다른 어절 안 조각" not in text and "그 밖의 어절 안 조각" in text
    assert "다른 어절 안 조각" not in page_output("korean_model.md")
    assert list(korean_model.events) == ["조사", "어미", "그 밖의 어절 안 조각", "어절 첫 조각"]
    assert "잣대" not in text


def test_own_sentence_page_uses_the_careful_wording():
    """ "조사를 가장 잘 따라간 헤드" 가 아니라, 한국어 장이 잰 그대로: 조사에서 붙은 말에 준 몫이 위치 기준을 가장 크게 넘은 헤드."""
    from site_pages import DOCS

    text = (DOCS / "own_sentence.md").read_text(encoding="utf-8")
    assert "가장 잘 따라간" not in text
    assert "조사가 붙은 말에 준 몫이 위치만으로 기대하는 값을 가장 크게 넘은 헤드" in text


# ---------------------------------------------------------------- 휴대전화의 출력 칸

# 375 px 화면의 실행 결과 칸: 안쪽 폭 306 px, 고정폭 글자 8.18 px, 한글 12.5 px (chromium, 이 사이트의 글꼴).
OUTPUT_BOX_PX, NARROW_PX, WIDE_PX = 306, 8.18, 12.51


def phone_width(line):
    import unicodedata

    return sum(WIDE_PX if unicodedata.east_asian_width(c) in "WF" else NARROW_PX for c in line)


def too_wide(page):
    """출력 칸보다 넓어 접히는 줄. 토큰의 파이썬 목록(['…', …])은 어차피 접히는 목록이라 뺍니다."""
    lines = page_output(page).splitlines()
    return [line for line in lines if "['" not in line and phone_width(line) > OUTPUT_BOX_PX]


@pytest.mark.parametrize("page", ["korean_model.md", "real_model.md", "korean_loading.md", "own_sentence.md"])
def test_outputs_fit_the_phone_box(page):
    """이슈 29, 7절: 375 px 에서 출력 칸이 줄의 절반을 접었고, 줄 맞춘 표는 마지막 열이 첫 열 밑으로 갔습니다
    (korean_model 의 층 표). 표는 좁게, 긴 줄은 값 하나씩 찍습니다 (예전: korean_model 55/61줄, real_model 34/43줄)."""
    assert not too_wide(page), too_wide(page)


def test_the_width_estimate_sees_a_wide_table():
    assert phone_width("층 | 은닉 상태 차이 | 점수 차이 최대 | 가중치 비 최대") > OUTPUT_BOX_PX
    assert phone_width(" 6   0.097      0.3   1.353") < OUTPUT_BOX_PX
