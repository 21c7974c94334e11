"""페이지 출력 전체의 스냅숏: syrupy 의 파일 하나짜리 스냅숏을, 숫자의 마지막 자리만큼 너그럽게 비교합니다.

스냅숏은 tests/__snapshots__/test_page_snapshots/<테스트>.txt 에 페이지가 보여 주는 그대로(블록마다 머리줄 하나)
들어 있어, 의도한 변화는 git diff 로 검토하고 `make snapshots` (= `pytest tests/test_page_snapshots.py
--snapshot-update`) 한 번으로 고칩니다.

왜 너그럽게: 페이지의 숫자 가운데 BLAS 행렬 곱(float32 실제 모델 포함)이나 numpy 의 SIMD exp 를 거친 값은 CPU 에
따라 마지막 비트가 달라집니다. 찍는 자리수 바로 아래에서 그런 차이가 나면, 반올림한 마지막 자리가 하나 달라질 수 있습니다
(0.2345 ↔ 0.2346, 0.1999 ↔ 0.2000). 그래서 글과 정수는 글자 그대로, 소수점이 있는 수는 "찍힌 마지막 자리 한 단위"
안에서 같으면 같다고 봅니다. numpy 배열은 값에 따라 칸 맞춤 공백이 달라지므로 줄 안의 공백 수도 보지 않습니다.
반올림 오차 자체를 잰 값("코어와 최대 차이 1.1e-16", float32 의 "2.4e-07")은 CPU 에 따라 자리수까지 달라집니다
(4.4e-16 ↔ 0.0e+00). 그런 값, 곧 둘 다 절댓값이 RESIDUE 보다 작은 수는 같다고 봅니다. 그 값이 정말 작은지
(1e-12 이하 같은 기준)는 각 장의 이름 붙은 테스트가 봅니다.
그보다 큰 차이, 정수(개수, 토큰 수, 모양)와 글은 그대로 실패합니다. 여러 자리로 찍어 이 너그러움을 넘을 수 있던
출력(why_scale 의 repr 두 개)은 스니펫이 자리수를 정해 찍도록 고쳤습니다.
"""

import re

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

RESIDUE = 1e-5  # 이보다 작은 소수는 반올림 오차를 잰 값으로 보고, 둘 다 이보다 작으면 같다고 봅니다
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")


def last_place(text):
    """찍힌 수의 마지막 자리 한 단위: "0.9999" → 1e-4, "2.02e-43" → 1e-45, "1." → 1. 정수면 None."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa and not exponent:
        return None
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return 10.0 ** (int(exponent or 0) - decimals)


def _pieces(text):
    parts = NUMBER.split(text)
    numbers = NUMBER.findall(text)
    words = [re.sub(r"[ \t]+", " ", p).strip(" ") for p in parts]
    return words, numbers


def same_output(new, old):
    """new 가 old 와 같은지: 글·정수는 그대로, 소수는 찍힌 마지막 자리 한 단위 안 (위 설명)."""
    if new == old:
        return True
    new_words, new_numbers = _pieces(new)
    old_words, old_numbers = _pieces(old)
    if new_words != old_words or len(new_numbers) != len(old_numbers):
        return False
    for a, b in zip(new_numbers, old_numbers):
        unit_a, unit_b = last_place(a), last_place(b)
        if unit_a is None and unit_b is None:
            if a != b:
                return False
        elif max(abs(float(a)), abs(float(b))) < RESIDUE:
            continue
        elif abs(float(a) - float(b)) > 1.0001 * max(u for u in (unit_a, unit_b) if u is not None):
            return False
    return True


class PageOutputSnapshot(SingleFileSnapshotExtension):
    """스냅숏 하나 = 텍스트 파일 하나 (.txt). 비교는 same_output."""

    file_extension = "txt"
    _write_mode = WriteMode.TEXT

    def serialize(self, data, **kwargs):
        return str(data)

    def matches(self, *, serialized_data, snapshot_data):
        return snapshot_data is not None and same_output(serialized_data, snapshot_data)
