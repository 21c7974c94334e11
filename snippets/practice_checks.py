"""실습 노트북의 확인 함수(check_…)가 함께 쓰는 틀.

확인 함수는 배우는 사람의 함수를 노트북이 가진 입력(cases)마다 불러 정답 함수(right)와 견주고, 틀렸다면 흔한 실수를
일부러 그대로 짠 함수들(mistakes) 가운데 같은 답을 내는 것을 찾아 그 실수를 짚는 말을 찍습니다. 그래서 "틀렸습니다"
대신 "소프트맥스를 쿼리 축으로 했습니다" 처럼 무엇을 잘못 생각했는지 알려 줍니다. 입력 하나가 실수 하나를 드러내도록
고르면(예: 정사각형 행렬은 전치를 빠뜨려도 오류가 나지 않고, 큰 점수는 최댓값을 빼지 않으면 넘칩니다), 실수가 둘인
함수도 입력마다 하나씩 짚어 줍니다.

노트북(snippets/notebooks/*.md)은 이 절을 연습 문제 앞에 한 번 넣고, 파트마다의 확인 함수는 practice_part<N>.py 의
`checks` 절에서 `check_with` 를 부릅니다. 노트북은 저장소 밖에서도 돌아가야 하므로 numpy 만 씁니다.
tests/test_practice_checks.py 가 알려진 틀린 구현마다 확인 함수가 그 실수를 짚는지, 맞는 구현은 통과하는지 봅니다.
"""

# --8<-- [start:checker]
import warnings

import numpy as np


def call_quietly(fn, args):
    """fn(*args) 의 결과. 오류가 나면 그 오류를 결과로 돌려줍니다 (넘침 경고는 끄고 nan·inf 로 봅니다)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*args)
        except Exception as err:
            return err


def same(a, b):
    """두 결과가 같은가: 오류끼리는 같은 종류, 튜플은 칸마다, 배열은 모양과 값이 (nan 자리까지) 같아야 합니다."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        return type(a) is type(b)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    try:
        a, b = np.asarray(a), np.asarray(b)
    except ValueError:
        return False
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "biuf" and b.dtype.kind in "biuf":
        return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))
    return bool(np.all(a == b))


def describe(got, want, parts=None):
    """어느 실수와도 같지 않은 답이 정답과 어떻게 다른지. parts: 튜플로 돌려주는 값들의 이름."""
    if isinstance(got, Exception):
        return f"오류가 났습니다 ({type(got).__name__}: {got})"
    if isinstance(want, tuple):
        parts = parts or [f"{i + 1}번째 값" for i in range(len(want))]
        if not (isinstance(got, tuple) and len(got) == len(want)):
            return f"{', '.join(parts)} 을(를) 튜플로 돌려줘야 합니다 (지금은 {type(got).__name__})"
        i = next(i for i, (g, w) in enumerate(zip(got, want)) if not same(g, w))
        return f"{parts[i]}: " + describe(got[i], want[i])
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"모양이 {got.shape} 입니다 ({want.shape} 이어야 합니다)"
    if got.dtype.kind not in "biuf":
        return f"{got.tolist()} 입니다 ({want.tolist()} 이어야 합니다)"
    if not np.all(np.isfinite(got)):
        return "nan 이나 inf 가 나왔습니다"
    return f"값이 다릅니다 (가장 큰 차이 {np.abs(got - want).max():.3g})"


def check_with(fn, right, mistakes, cases, name="fn", parts=None):
    """fn 을 cases 의 입력마다 불러 right 와 견줍니다. 모두 맞으면 True.

    right: 정답 함수. mistakes: [(틀린 함수, 그 실수를 짚는 말)]. cases: [(입력의 이름, 인자 튜플)].
    parts: 함수가 튜플을 돌려줄 때 그 값들의 이름 (예: ("출력", "가중치")).
    """
    if not callable(fn):
        raise TypeError(f"확인할 함수를 넘겨 주세요 (예: check_…(my_function)): {name}={fn!r}")
    passed = True
    for label, args in cases:
        got, want = call_quietly(fn, args), right(*args)
        if same(got, want):
            print("✓", label)
            continue
        passed = False
        why = next((text for wrong, text in mistakes if same(got, call_quietly(wrong, args))), None)
        print("✗", label + ":", why or describe(got, want, parts))
    print("모두 통과" if passed else "다시 살펴보세요")
    return passed
# --8<-- [end:checker]
