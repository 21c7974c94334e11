"""수식용 글꼴: STIX Two Math 에서 사이트가 쓰는 글자만 남긴 작은 woff2 를 빌드 때 만듭니다.

MathML 은 브라우저가 직접 그리지만, 근호(√)나 큰 괄호를 늘여 그리려면 OpenType MATH 표가
있는 수학 글꼴이 필요합니다. Windows·macOS 에는 있지만 안드로이드와 여러 리눅스에는 없어서,
그런 기기에서는 근호가 짧게 끊겨 보입니다. 그래서 ziamath 패키지(PyPI)에 들어 있는
STIX Two Math(SIL OFL 1.1)를 fontTools 로 잘라 사이트와 함께 내보냅니다.
원본 1.5 MB 가 수십 KB 가 됩니다.
"""

import hashlib
import importlib.util
import sys
from pathlib import Path

import disk_cache

FONT_NAME = "stix-two-math-site.woff2"

# 수식에 쓰는 글자들. MathML 은 한 글자짜리 <mi> 를 수학용 이탤릭(U+1D434…)으로 바꿔 그리므로
# 그 영역도 넣습니다. 여기 없는 글자를 수식에 쓰면 빌드가 멈춥니다 (build.py 의 on_post_build).
ITALIC = [chr(c) for c in range(0x1D434, 0x1D468) if c != 0x1D455] + ["\u210e"]  # ℎ 는 따로 있음
GREEK = [chr(c) for c in range(0x3B1, 0x3CA)] + ["Σ", "Π", "Δ"]
ITALIC_GREEK = [chr(c) for c in range(0x1D6FC, 0x1D715)]  # 이탤릭 소문자 α…ω
SYMBOLS = "()[]{}|‖,.:;'/\\!?+-−=<>×÷·⋅∗±∓≈≠≤≥≪≫∝∞∂∇∑∏∫√∈∉⊂⊆∪∩∀∃→←↔⇒⇔⊤⊥′″…⋯ℝℕℤ%"
CHARSET = "".join(sorted(set([chr(c) for c in range(0x20, 0x7F)] + ITALIC + GREEK + ITALIC_GREEK + list(SYMBOLS))))


def source_font():
    spec = importlib.util.find_spec("ziamath")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("수식 글꼴이 없습니다: ziamath 가 설치되어 있지 않습니다 (make serve/test 가 설치합니다)")
    return Path(next(iter(spec.submodule_search_locations))) / "fonts" / "STIXTwoMath-Regular.ttf"


def build_math_font(out_dir, environment):
    """잘라 낸 글꼴을 out_dir 에 쓰고 경로를 돌려줍니다. 재료(원본 글꼴, 글자 목록, 이 모듈, 환경)가 같으면 다시
    만들지 않습니다."""
    from fontTools import subset, ttLib

    src = source_font()
    store = disk_cache.Cache.for_code(out_dir, environment, sys.modules[__name__], disk_cache)
    key = store.key(hashlib.sha256(src.read_bytes()).hexdigest(), CHARSET)
    out = store.folder / FONT_NAME
    if store.files(FONT_NAME, key):
        return out
    font = ttLib.TTFont(src)
    options = subset.Options()
    # GSUB/GPOS 기능(위첨자용 대체 글리프 ssty 등)은 뺍니다: 글리프 수가 두 배가 되는데,
    # 브라우저는 이것 없이도 첨자를 줄여서 잘 그립니다. 늘이는 근호·괄호는 MATH 표가 맡습니다.
    options.layout_features = []
    options.flavor = "woff2"
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=CHARSET)
    subsetter.subset(font)  # MATH 표의 늘이는 변형(근호·괄호 크기별 글리프)도 함께 남습니다
    font.flavor = "woff2"
    font.save(out)
    store.put_files(FONT_NAME, key, [out])
    return out


def covered_characters(path):
    """글꼴 파일이 그릴 수 있는 글자들 (cmap)."""
    from fontTools import ttLib

    with ttLib.TTFont(path) as font:
        return {chr(c) for c in font.getBestCmap()}


def missing_characters(path, used):
    """수식이 쓰는 글자 가운데 잘라 낸 글꼴에 없는 것들 (공백 제외). 빌드가 비어 있는지 확인합니다."""
    return sorted(c for c in set(used) - covered_characters(path) if not c.isspace())
