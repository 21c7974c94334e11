"""snippets/lib/gemma_heldout.py 를 만듭니다: 부분 어휘 밖의 몫을 잴 한국어 글 (한 번 만들어 저장소에 둡니다).

    .venv/bin/python tools/heldout_korean.py     # 이 저장소의 docs/*.md 에서 다시 뽑아 snippets/lib/gemma_heldout.py 를 씁니다

"여러분의 프롬프트로" 는 어휘 262,144개 가운데 한글·숫자·문장부호로 된 조각만 브라우저로 보냅니다. 나머지 조각이 가졌을
확률은 브라우저가 모르므로, 빌드가 numpy 디코더로 잽니다. 그 글은 테스트나 페이지가 고른 프롬프트가 아니어야 합니다.
그래서 이 사이트의 다른 장(아래 PAGES)의 글에서 기계적으로 뽑습니다:
- 코드 블록, 표, 그림, 수식, HTML, 각주 정의 줄은 건너뜁니다. 링크의 주소, 각주 표시, 괄호 속 글은 지웁니다.
- 인라인 코드와 수식은 그 앞에서 문장을 자릅니다 (지우면 "에 평균 0.24" 처럼 빈자리가 남습니다).
- 문장(., ?, ! 뒤의 공백에서 나눔)마다 프롬프트로 쓸 수 있는 글자(gemma_browser.unsupported)가 아닌 첫 글자 앞에서 자릅니다.
- 한글 음절이 12개 이상인 것만, 같은 문장은 한 번만, 정렬한 뒤 STRIDE 개마다 하나씩 (앞에서부터 COUNT 개까지).
이 파일은 페이지를 고칠 때마다 바뀌지 않도록 뽑은 결과를 저장소에 둡니다 (다시 뽑으면 측정값도 바뀝니다).
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "snippets" / room) for room in ("chapters", "lib", "sitedata")]

# 뽑는 장: 본문과 실제 모델 장. 이 도구의 페이지와 다음 토큰 고르기(프롬프트를 고른 페이지)는 뺍니다.
PAGES = [
    "index",
    "library_analogy",
    "four_steps",
    "why_scale",
    "heatmap",
    "self_vs_cross",
    "multi_head",
    "summary",
    "real_model",
    "korean_model",
    "own_sentence",
    "head_ablation",
    "efficient",
    "head_roles",
    "korean_loading",
]
STRIDE, COUNT, MIN_SYLLABLES = 5, 120, 12
SKIP = ("```", "--8<", "|", "!", "<", "#", "$", "[^", "    ", "---", "다음 장:")


def sentences(text):
    for line in text.splitlines():
        line = line.strip().lstrip("-*0123456789. ")
        if not line or line.startswith(SKIP):
            continue
        # 링크는 글만, 각주 표시·굵게·괄호 속 글은 지우고, 인라인 코드와 수식은 잘라 낼 자리로 (NUL 은 S 밖의 글자)
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"\[\^[^\]]*\]|\*\*|\([^)]*\)", "", line)
        line = re.sub(r"`[^`]*`|\$[^$]*\$", "\0", line)
        yield from re.split(r"(?<=[.?!])\s+", line)


def heldout():
    from gemma_browser import unsupported

    found = set()
    for page in PAGES:
        for s in sentences((ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")):
            bad = unsupported(s)
            cut = " ".join((s if bad is None else s[: bad[0] - 1]).split())
            if sum("가" <= c <= "힣" for c in cut) >= MIN_SYLLABLES:
                found.add(cut)
    return sorted(found)[::STRIDE][:COUNT]


def main():
    texts = heldout()
    lines = [
        '"""부분 어휘 밖의 몫을 잴 한국어 글: tools/heldout_korean.py 가 이 사이트의 다른 장에서 기계적으로 뽑았습니다.',
        "",
        "고르는 규칙과 까닭은 그 도구의 맨 위에 있습니다. 손으로 고르거나 고치지 않습니다 (다시 뽑으려면 그 도구를 돌립니다).",
        '"""',
        "",
        "TEXTS = [",
    ]
    lines += [f"    {t!r}," for t in texts] + ["]", ""]
    (ROOT / "snippets" / "gemma_heldout.py").write_text("\n".join(lines), encoding="utf-8")
    print(f"글 {len(texts)}개를 snippets/lib/gemma_heldout.py 에 썼습니다")


if __name__ == "__main__":
    main()
