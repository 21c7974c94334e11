"""페이지 출력 전체의 스냅숏: syrupy 의 파일 하나짜리 스냅숏을, 숫자의 마지막 자리만큼 너그럽게 비교합니다.

스냅숏은 tests/__snapshots__/test_page_snapshots/<테스트>.txt 에 페이지가 보여 주는 그대로(블록마다 머리줄 하나)
들어 있어, 의도한 변화는 git diff 로 검토하고 `make snapshots` (= `pytest tests/test_page_snapshots.py
--snapshot-update`) 한 번으로 고칩니다.

왜 너그럽게: 페이지의 숫자 가운데 BLAS 행렬 곱(float32 실제 모델 포함)이나 numpy 의 SIMD exp 를 거친 값은 CPU 에
따라 마지막 비트가 달라집니다. 찍는 자리수 바로 아래에서 그런 차이가 나면, 반올림한 마지막 자리가 하나 달라질 수 있습니다
(0.2345 ↔ 0.2346, 0.1999 ↔ 0.2000). 그래서 글과 정수는 글자 그대로, 소수점이 있는 수는 **같은 자리수로 찍혀서**
"찍힌 마지막 자리 한 단위" 안에서 같으면 같다고 봅니다. 자리수가 다르면(precision 을 3 에서 4 로 바꾸면 -0.665 가
-0.6652) 다른 출력입니다.
자리수가 달라도 되는 경우는 하나뿐입니다. numpy 는 배열을 찍을 때 끝의 0 을 지우므로(floatmode "maxprec"),
반올림의 경계에 걸린 값은 한 CPU 에서 0.199, 다른 CPU 에서 0.200 → "0.2" 로 찍힙니다. 긴 쪽이 9 로 끝나고 짧은 쪽이
그보다 긴 쪽의 마지막 자리 한 단위만큼 크면(0.2 = 0.199 + 0.001, 1.00e-04 = 9.99e-05 + 1e-07) 같다고 봅니다.
(그래서 precision 4 에서 반올림 경계에 걸린 -0.66495 가 "-0.6649" 와 "-0.665" 로 갈리는 것도 받아들입니다. 한 페이지의
수가 모두 그렇게 걸릴 수는 없으므로, 찍는 자리수를 바꾼 출력은 다른 수들에서 실패합니다.)
numpy 배열은 값에 따라 칸 맞춤 공백이 달라지므로 줄 안의 공백 수도 보지 않습니다.
반올림 오차 자체를 잰 값("코어와 최대 차이 1.1e-16", float32 의 "2.4e-07")은 CPU 에 따라 자리수까지 달라집니다
(4.4e-16 ↔ 0.0e+00). 그런 값, 곧 둘 다 절댓값이 RESIDUE 보다 작은 수는 같다고 봅니다. 그 값이 정말 작은지
(1e-12 이하 같은 기준)는 각 장의 이름 붙은 테스트가 봅니다.
그보다 큰 차이, 정수(개수, 토큰 수, 모양)와 글은 그대로 실패합니다. 여러 자리로 찍어 이 너그러움을 넘을 수 있던
출력(why_scale 의 repr 두 개)은 스니펫이 자리수를 정해 찍도록 고쳤습니다.

실패하면 어느 블록인지를 페이지의 줄과 스니펫 절로 말하고(`docs/four_steps.md:159 four_steps.py:quiz_1`), 그 블록의
스냅숏과 지금 출력을 나란히 보여 주며, 의도한 변화면 `make snapshots` 를 하라고 알려 줍니다 (explain).
"""

import difflib
import re
from dataclasses import dataclass

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

RESIDUE = 1e-5  # 이보다 작은 소수는 반올림 오차를 잰 값으로 보고, 둘 다 이보다 작으면 같다고 봅니다
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")
HEADER = re.compile(r"^── 블록 (\d+) ──\n", flags=re.M)
INCLUDE = re.compile(r'--8<--\s+"([^"]+)"')


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


def _close(a, b, unit):
    return abs(float(a) - float(b)) <= 1.0001 * unit


def same_number(a, b):
    """찍힌 수 둘이 같은 출력인지 (위 설명): 정수는 글자 그대로, 소수는 같은 자리수로 마지막 자리 한 단위 안."""
    unit_a, unit_b = last_place(a), last_place(b)
    if unit_a is None or unit_b is None:
        return a == b  # 정수는 그대로 (한쪽만 정수면 찍는 방식이 바뀐 것)
    if max(abs(float(a)), abs(float(b))) < RESIDUE:
        return True
    if unit_a == unit_b:
        return _close(a, b, unit_a)
    # 자리수가 다르면: numpy 가 끝의 0 을 지운 반올림 경계 하나만 (0.2 ↔ 0.199)
    (coarse, _), (fine, unit_fine) = sorted([(a, unit_a), (b, unit_b)], key=lambda p: -p[1])
    carried = abs(float(coarse)) - abs(float(fine))  # 짧은 쪽 = 긴 쪽 + 그 마지막 자리 한 단위 (올림)
    return (
        fine.lower().split("e")[0].endswith("9")
        and coarse.startswith("-") == fine.startswith("-")
        and abs(carried - unit_fine) <= 0.01 * unit_fine
    )


def same_output(new, old):
    """new 가 old 와 같은지: 글·정수는 그대로, 소수는 같은 자리수로 찍힌 마지막 자리 한 단위 안 (위 설명)."""
    if new == old:
        return True
    new_words, new_numbers = _pieces(new)
    old_words, old_numbers = _pieces(old)
    if new_words != old_words or len(new_numbers) != len(old_numbers):
        return False
    return all(same_number(a, b) for a, b in zip(new_numbers, old_numbers))


@dataclass
class PageOutput:
    """한 페이지의 실행 결과: 블록(sitebuild.codeblocks.Block)마다 찍은 글. str() 이 스냅숏 파일의 글입니다."""

    page: str  # docs/ 기준 경로 (four_steps.md)
    blocks: tuple
    outputs: list

    def __str__(self):
        return "".join(f"── 블록 {i} ──\n{out}" for i, out in enumerate(self.outputs, start=1))

    def where(self, i, page_lines):
        """블록 i(1부터)의 자리: "docs/four_steps.md:159 (four_steps.py:quiz_1)"."""
        block = self.blocks[i - 1]
        includes = []
        for line in page_lines[block.page_line - 1 :] if block.page_line else []:
            if line.strip().startswith(("```", "~~~")):
                break
            includes += INCLUDE.findall(line)
        return f"docs/{self.page}:{block.page_line} ({', '.join(includes) or '직접 적은 코드'})"


def split_blocks(text):
    """스냅숏 글 → {블록 번호: 그 블록의 출력}."""
    parts = HEADER.split(text)
    return {int(n): out for n, out in zip(parts[1::2], parts[2::2])}


def explain(output, stored, page_lines):
    """스냅숏과 다른 블록마다 자리(페이지 줄, 스니펫 절)와 두 출력의 diff, 그리고 고치는 방법."""
    if stored is None:
        return f"docs/{output.page}: 검토한 스냅숏이 없습니다. `make snapshots` 로 만들고 그 파일을 검토해 커밋하세요."
    old = split_blocks(stored)
    new = split_blocks(str(output))
    lines = [f"docs/{output.page} 의 실행 결과가 검토한 스냅숏과 다릅니다."]
    for i in sorted(set(old) | set(new)):
        if i in old and i in new and same_output(new[i], old[i]):
            continue
        if i > len(output.blocks):
            lines.append(f"\n블록 {i}: 스냅숏에는 있지만 페이지에는 이제 없습니다")
            continue
        lines.append(f"\n블록 {i} — {output.where(i, page_lines)}:")
        diff = difflib.unified_diff(
            old.get(i, "").splitlines(), new.get(i, "").splitlines(), "스냅숏", "지금", lineterm="", n=1
        )
        lines += [f"    {d}" for d in list(diff)[2:]]
    lines.append(
        "\n의도한 변화라면 `make snapshots` 로 스냅숏을 새로 쓰고, 그 git diff 를 검토해 커밋하세요. "
        "숫자는 같은 자리수로, 찍힌 마지막 자리 한 단위 안이어야 같다고 봅니다 (tests/support/snapshots.py)."
    )
    return "\n".join(lines)


class PageOutputSnapshot(SingleFileSnapshotExtension):
    """스냅숏 하나 = 텍스트 파일 하나 (.txt). 비교는 same_output."""

    file_extension = "txt"
    _write_mode = WriteMode.TEXT

    def serialize(self, data, **kwargs):
        return str(data)

    def matches(self, *, serialized_data, snapshot_data):
        return snapshot_data is not None and same_output(serialized_data, snapshot_data)
