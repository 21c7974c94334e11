"""다음 토큰 고르기 (docs/next_token.md): Gemma 3 270M 이 한국어 프롬프트 뒤에 올 토큰을 고르는 과정.

절 하나가 페이지의 코드 블록 하나입니다. 이 파일은 import 할 때 모델을 읽으므로(페이지와 같은 순서), 페이지의 도구가
읽는 데이터는 모델을 읽지 않고 import 되는 next_token_data.py 가 따로 만듭니다.
"""

# --8<-- [start:model]
from gemma_decoder import load_gemma

# 파일을 읽고 4·5·6·8비트 블록을 float32 로 풉니다
model = load_gemma()
c = model.cfg
print(f"층 {c['layers']}개, d_model {c['d_model']}, 어휘 {c['vocab']:,}개")
print(f"쿼리 헤드 {c['heads']}개, 키·밸류 헤드 {c['kv_heads']}개, 헤드 폭 {c['d_head']}")
print(f"창 {c['window']}토큰, 전역 층: {[i + 1 for i in c['global_layers']]}")
# 양자화 형식마다 파라미터의 몫 (Q8_0 8비트, Q5_0 5비트, Q4_K 4비트, Q6_K 6비트)
total = sum(model.formats.values())
for kind, count in model.formats.items():
    print(f"{kind:>5}: {count / total:6.1%}")
# --8<-- [end:model]


# --8<-- [start:tokens]
# 페이지의 도구가 보여 주는 프롬프트 여덟 개
from next_token_data import PROMPTS

tok = model.tokenizer
# 앞의 셋과, 여러 자리 숫자가 든 글 하나
for text in [*PROMPTS[:3], "1월 25일"]:
    ids = tok.encode(text)
    print(f"{text} → {ids}")
    print("  ", " ".join(tok.piece(i) for i in ids))
# --8<-- [end:tokens]


# --8<-- [start:one_step]
import numpy as np

from gemma_decoder import forward, new_cache
from sampling import probabilities

ids = tok.encode("나는 학교에")
cache = new_cache(model, len(ids))
(logits,), (weights,) = forward(model, [ids], [cache])
# 자리마다 다음 토큰의 점수
print("로짓:", logits.shape)
# 마지막 자리의 로짓을 소프트맥스로
p = probabilities(logits[-1])
for i in np.argsort(-p)[:5]:
    print(f"{tok.piece(i):>5} {p[i]:.3f}")
# --8<-- [end:one_step]


# --8<-- [start:looks_left]
# (층, 헤드, 쿼리, 키)
w = np.stack(weights)
print("가중치:", w.shape)
# 쿼리보다 뒤에 있는 키
future = np.triu(np.ones((len(ids), len(ids)), dtype=bool), k=1)
print("뒤쪽 키가 받은 가중치의 최댓값:", w[..., future].max())
# 쿼리마다 <bos> 에 절반 넘게 주는 헤드 수
# (첫 쿼리는 <bos> 자신뿐이라 뺍니다)
many = (w[:, :, 1:, 0] > 0.5).sum(axis=(0, 1))
print(f"<bos> 에 절반 넘게 주는 헤드: {many.tolist()} / 72")
# --8<-- [end:looks_left]


# --8<-- [start:temperature]
for T in (0.5, 1.0, 1.5):
    # 큰 차례로
    top = np.sort(probabilities(logits[-1], temperature=T))[::-1]
    print(f"T = {T:g}: 1등 {top[0]:.3f}, 상위 50개 밖 {1 - top[:50].sum():.3f}")
# --8<-- [end:temperature]


# --8<-- [start:kv_cache]
# 8장의 함수 (8장과 디코더가 함께 쓰는 attention_variants.py)
from attention_variants import kv_bytes_per_token

# 층 하나: K 와 V × 헤드 1개 × 256 × 2바이트
one = kv_bytes_per_token(c["kv_heads"], c["d_head"])
# 쿼리 헤드마다 K·V 헤드가 있다면
four = kv_bytes_per_token(c["heads"], c["d_head"])
print(f"층 하나: {one:,} B/토큰 (헤드 넷이면 {four:,} B)")
print(f"층 {c['layers']}개: {one * c['layers']:,} B/토큰 (헤드 넷이면 {four * c['layers']:,} B)")
n, n_global = c["context"], len(c["global_layers"])
n_local = c["layers"] - n_global
# 지역 층은 최근 창만 남깁니다
windowed = one * (n_global * n + n_local * c["window"])
print(f"토큰 {n:,}개를 캐시하면")
print(f"{windowed / 2**20:9,.1f} MiB  이 모델 (창)")
print(f"{one * c['layers'] * n / 2**20:9,.1f} MiB  창 없이")
print(f"{four * c['layers'] * n / 2**20:9,.1f} MiB  헤드 넷, 창 없이")
print(f"이 페이지의 캐시(float32): {(cache.K.nbytes + cache.V.nbytes) // len(ids):,} B/토큰")
# --8<-- [end:kv_cache]


# --8<-- [start:loops]
from gemma_decoder import generate, greedy
# 줄바꿈 같은 보이지 않는 글자를 ↵ 처럼 보이게
from next_token_data import shown
from sampling import sampler

cat = [tok.encode("고양이가 매트 위에")]
for name, pick in (("탐욕", greedy), ("T = 1, top-p 0.9", sampler(temperature=1.0, top_p=0.9))):
    chosen = [step_tokens[0] for *_, step_tokens in generate(model, cat, 20, pick=pick, seed=1)]
    print(f"{name}: 고양이가 매트 위에{shown(tok.decode(chosen))}")
# --8<-- [end:loops]


# --8<-- [start:quiz_1]
n_local = c["layers"] - len(c["global_layers"])
windowed = one * (len(c["global_layers"]) * 1000 + n_local * min(1000, c["window"]))
print(f"창이 있을 때 {windowed:,} B ({windowed / 2**20:.1f} MiB)")
print(f"창이 없을 때 {one * c['layers'] * 1000:,} B ({one * c['layers'] * 1000 / 2**20:.1f} MiB)")
# --8<-- [end:quiz_1]

# --8<-- [start:quiz_2]
greedy_p = probabilities(logits[-1], temperature=0)
top1_p = probabilities(logits[-1], top_k=1)
print("같은 분포인가?", np.array_equal(greedy_p, top1_p), "→", tok.piece(int(np.argmax(top1_p))))
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
nucleus = probabilities(logits[-1], temperature=1.0, top_p=0.9)
print(f"남은 토큰 {np.count_nonzero(nucleus):,}개 (어휘 {nucleus.size:,}개 가운데)")
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# <bos>, "학교", "에"
row = np.array([0.6, 0.3, 0.1])
print("다시 나눈 가중치:", (row[1:] / (1 - row[0])).round(3))
# --8<-- [end:quiz_4]
