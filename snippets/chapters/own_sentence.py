"""여러분의 문장으로: 브라우저가 받는 모델 파일의 크기와, 조사 어림이 손으로 표시한 조사와 얼마나 맞는지 (페이지의 출력)."""

# --8<-- [start:sizes]
import json

from browser_model import model_files, pack_bytes
from e5_numpy import read_e5_file, weights_path

# 빌드가 사이트의 models/e5-ko/ 에 쓰는 파일들 (이름 → 바이트)
files = model_files()
manifest = json.loads(files["manifest.json"])
for pack, name in (("ko", "첫 묶음 (한글·숫자·문장부호)"), ("latin", "둘째 묶음 (영어 글자)")):
    count = json.loads(files[f"vocab-{pack}.json"])["count"]
    print(name)
    print(f"  조각 {count:,}개, {pack_bytes(manifest, pack) / 1e6:.1f} MB")
    print(f"  gzip 으로 보내면 {pack_bytes(manifest, pack, 'gzip_bytes') / 1e6:.1f} MB")
_, pieces, _, _, _ = read_e5_file(weights_path())
syllables = [chr(c) for c in range(0xAC00, 0xD7A4)]
single = set(pieces)
print(f"한글 음절 {len(syllables):,}개 가운데")
print(f"  한 글자 조각으로 있는 것 {sum(s in single for s in syllables):,}개")
# --8<-- [end:sizes]

# --8<-- [start:check]
from bert_numpy import tokenize
from e5_numpy import PREFIX, load_e5
from korean_sentences import ANNOTATED, SENTENCES
from particles import find_particles, marked_particles

# 한국어 장의 28문장: 조사는 "/" 로 손으로 표시해 두었습니다
model = load_e5()
first = len(tokenize(model, PREFIX.strip())[1]) - 1
found_marked = missed = wrong = 0
for annotated, sentence in zip(ANNOTATED, SENTENCES):
    tokens = tokenize(model, PREFIX + sentence)[1]
    marked = marked_particles(annotated, tokens, first, len(tokens) - 1)
    guessed = {i for i, _ in find_particles(tokens, first, len(tokens) - 1)}
    found_marked += len(marked & guessed)
    missed += len(marked - guessed)
    wrong += len(guessed - marked)
print(f"손으로 표시한 조사 조각 {found_marked + missed}개 가운데")
print(f"  찾은 것 {found_marked}개")
print(f"조사가 아닌데 조사로 본 조각 {wrong}개")
# --8<-- [end:check]
