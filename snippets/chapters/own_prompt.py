"""여러분의 프롬프트로 (docs/own_prompt.md): 브라우저가 받는 파일, 부분 어휘의 나누기와 그 밖의 몫, 로짓 렌즈 (페이지의 출력).

절 하나가 페이지의 코드 블록 하나입니다. 로짓 렌즈(logit_lens)는 테스트와 브라우저의 기준으로도 씁니다.
"""

# --8<-- [start:files]
import json

from gemma_browser import model_files, pack_bytes

# 빌드가 사이트의 models/gemma-ko/ 에 쓰는 파일들 (이름 → 바이트)
files = model_files()
manifest = json.loads(files["manifest.json"])
for name in manifest["packs"]["ko"]:
    print(f"{name:<13}{manifest['files'][name]['bytes'] / 1e6:5.1f} MB")
print(f"모두 {pack_bytes(manifest) / 1e6:.1f} MB")
print(f"gzip 으로 보내면 {pack_bytes(manifest, 'gzip_bytes') / 1e6:.1f} MB")
# 층의 블록: 형식마다 가중치 수
kinds = {}
for t in manifest["tensors"]:
    if t["kind"] != "F32":
        kinds[t["kind"]] = kinds.get(t["kind"], 0) + t["shape"][0] * t["shape"][1]
for kind, count in sorted(kinds.items()):
    print(f"{kind:<5} 가중치 {count / 1e6:5.1f}M 개")
v = manifest["vocab"]["count"]
print(f"조각 {v:,}개 (어휘 {manifest['config']['vocab']:,}개 가운데)")
# --8<-- [end:files]


# --8<-- [start:same_tokens]
import gemma_file
from gemma_browser import SubsetTokenizer, vocabulary
from gemma_heldout import TEXTS
from gemma_tokenizer import GemmaTokenizer

meta, _ = gemma_file.read_gguf(gemma_file.gguf_path())
full = GemmaTokenizer(meta)
part = SubsetTokenizer(meta, vocabulary(meta))
same = sum(full.encode(t) == part.encode(t) for t in TEXTS)
tokens = sum(len(full.encode(t)) for t in TEXTS)
print(f"글 {len(TEXTS)}개 가운데 토큰이 모두 같은 글 {same}개")
print(f"토큰 {tokens:,}개")
# --8<-- [end:same_tokens]


# --8<-- [start:outside]
o = manifest["outside"]
print(f"글 {o['texts']}개, 자리 {o['positions']:,}개에서")
print(f"나머지 조각의 몫 중앙값 {o['median']:.2%}")
print(f"열에 아홉은 {o['p90']:.1%} 이하")
print(f"가장 큰 몫 {o['worst']:.0%}: 프롬프트 {o['worst_prompt']!r}")
# --8<-- [end:outside]


# --8<-- [start:lens]
import numpy as np

from gemma_decoder import load_gemma, new_cache, residual_stream, rms_norm


def logit_lens(model, ids):
    """층마다 마지막 자리의 잔차 흐름을 마지막 층처럼 읽은 확률 (층 수, 어휘): 최종 RMS 정규화 + 임베딩 표, T = 1."""
    stream = residual_stream(model, [np.asarray(ids)], [new_cache(model, len(ids))])
    # 1층 뒤 … 마지막 층 뒤
    last = np.stack([h[-1] for h in stream[1:]])
    z = model.params["E"].logits(rms_norm(last, model.params["norm_out"], model.cfg["eps"]))
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


model = load_gemma()
tok = model.tokenizer
p = logit_lens(model, tok.encode("나는 학교에"))
# 마지막 층의 1등: 이 자리에서 결국 나오는 토큰
final = int(np.argmax(p[-1]))
print(f"마지막 층의 1등: {tok.piece(final)!r}")
print("층  그 층의 1등     그 토큰의 확률")
for layer, row in enumerate(p, start=1):
    top = int(np.argmax(row))
    print(f"{layer:2d}  {tok.piece(top)!r:<12.12} {row[top]:.2f}  {row[final]:.3f}")
# --8<-- [end:lens]


# --8<-- [start:lens_prompts]
from next_token_data import PROMPTS

# 페이지 "다음 토큰 고르기" 의 프롬프트 여덟 개: 마지막 층의 1등이 몇 층부터 끝까지 1등인가
for text in PROMPTS:
    p = logit_lens(model, tok.encode(text))
    final = int(np.argmax(p[-1]))
    on_top = [int(np.argmax(row)) == final for row in p]
    # 끝에서부터 이어서 1등인 층 수
    run = next((k for k, top in enumerate(reversed(on_top)) if not top), len(on_top))
    print(f"{text}")
    print(f"  → {tok.piece(final)!r} {len(on_top) - run + 1}층부터")
# --8<-- [end:lens_prompts]
