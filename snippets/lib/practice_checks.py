"""실습 노트북의 확인 함수(check_…)가 함께 쓰는 틀.

확인 함수는 배우는 사람의 함수를 노트북이 가진 입력(cases)마다 불러 정답 함수(right)와 견주고, 틀렸다면 흔한 실수를
일부러 그대로 짠 함수들(mistakes) 가운데 같은 답을 내는 것을 찾아 그 실수를 짚는 말을 찍습니다. 그래서 "틀렸습니다"
대신 "소프트맥스를 쿼리 축으로 했습니다" 처럼 무엇을 잘못 생각했는지 알려 줍니다. 입력 하나가 실수 하나를 드러내도록
고르면(예: 정사각형 행렬은 전치를 빠뜨려도 오류가 나지 않고, 큰 점수는 최댓값을 빼지 않으면 넘칩니다), 실수가 둘인
함수도 입력마다 하나씩 짚어 줍니다.

짚는 근거는 답 그 자체입니다 (issue 39). 오류는 종류만이 아니라 글까지 같아야 같은 실수로 보고(모양이 다른 행렬 곱은
오류의 글이 다릅니다), 한 입력에서 여러 실수가 같은 오류를 내면 다른 입력의 답으로 가립니다. 가려지지 않거나 어느 실수와도
같지 않으면 짐작하지 않고 무엇이 다른지(모양, nan, 가장 큰 차이, 오류의 뜻과 그 줄)를 말합니다. numpy 의 날것 오류
메시지나 traceback 은 찍지 않습니다. float32 로 맞게 짠 구현도 통과합니다: float32 답은 float32 의 정밀도(반올림
1000 번, 유효 숫자 넷쯤)로 보고, 어느 답이든 정답 함수를 float32 입력으로 돌렸을 때 흔들리는 만큼(의 여덟 배)은 봐줍니다.

노트북(snippets/notebooks/*.md)은 이 절을 연습 문제 앞에 한 번 넣고, 파트마다의 확인 함수는 practice_part<N>.py 의
`checks` 절에서 `check_with` 를 부릅니다. 노트북은 저장소 밖에서도 돌아가야 하므로 numpy 만 씁니다.
tests/test_practice_checks.py 가 알려진 틀린 구현마다 확인 함수가 그 실수를 짚는지, 맞는 구현은 통과하는지 봅니다.
"""

# --8<-- [start:checker]
import copy
import os
import re
import traceback
import warnings

import numpy as np

# float32 한 칸의 상대 반올림 (≈ 1.2e-7)
EPS32 = float(np.finfo(np.float32).eps)


def call_quietly(fn, args):
    """fn(*args) 의 결과. 오류가 나면 그 오류를 결과로 돌려줍니다.

    넘침 경고는 끄고 nan·inf 로 봅니다. 인자는 복사해 넘겨서 함수가 바꿔도 다음 비교에 번지지 않습니다."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*copy.deepcopy(args))
        except Exception as err:
            return err


def lower(x):
    """입력의 실수(배열)를 float32 로. 튜플은 칸마다, 정수와 불리언은 그대로."""
    if isinstance(x, tuple):
        return tuple(lower(v) for v in x)
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        return x.astype(np.float32)
    if isinstance(x, float):
        return np.float32(x)
    return x


def slack(want, want32):
    """정답이 float32 반올림에 흔들리는 만큼: 정답 함수를 float32 입력으로 돌린 답과의 가장 큰 차이.

    맞게 짠 float32 구현도 연산 차례가 달라 그만큼 다를 수 있어서, 허용 오차를 그 여덟 배로 둡니다."""
    if isinstance(want, tuple):
        if isinstance(want32, tuple) and len(want32) == len(want):
            return tuple(map(slack, want, want32))
        return tuple(0.0 for _ in want)
    try:
        gap = np.abs(np.asarray(want32, dtype=float) - np.asarray(want, dtype=float))
    except (TypeError, ValueError):
        return 0.0
    return 8 * float(gap.max()) if gap.size and np.all(np.isfinite(gap)) else 0.0


def same(a, b, tol=0.0):
    """두 결과가 같은가. 오류끼리는 종류와 글이 같아야 하고(같은 실수면 같은 오류), 튜플은 칸마다,
    배열은 모양과 값이 (nan 자리까지) 같아야 합니다. 값은 tol 과, float32 로 계산한 답이면 float32 의 정밀도만큼 봐줍니다."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        return type(a) is type(b) and str(a) == str(b)
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)):
            return False
        tols = tol if isinstance(tol, tuple) else [tol] * len(a)
        return all(map(same, a, b, tols))
    try:
        a, b = np.asarray(a), np.asarray(b)
    except ValueError:
        return False
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "biuf" and b.dtype.kind in "biuf":
        # float32(이하)로 계산한 답은 float32 의 정밀도로 봅니다: 반올림 1000 번 (유효 숫자 넷쯤)
        low = any(x.dtype.kind == "f" and x.dtype.itemsize < 8 for x in (a, b))
        rel = 1000 * EPS32 if low else 1e-9
        a, b = a.astype(float), b.astype(float)
        finite = np.abs(b[np.isfinite(b)])
        scale = float(finite.max()) if low and finite.size else 0.0
        return bool(np.allclose(a, b, rtol=rel, atol=1e-12 + tol + rel * scale, equal_nan=True))
    return bool(np.all(a == b))


def where_it_failed(err):
    """오류가 난 줄: 배우는 사람의 코드 가운데 가장 안쪽 줄 (numpy 안쪽과 확인 함수의 줄은 건너뜁니다)."""
    inside_numpy = os.sep + "numpy" + os.sep
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if inside_numpy not in f.filename and f.name != "call_quietly"]
    return frames[-1].line.strip() if frames and frames[-1].line else ""


def explain(err):
    """오류를 한국어로: 흔한 numpy 오류는 무엇이 어긋났는지, 그리고 오류가 난 줄."""
    text = str(err)
    sizes = re.search(r"size (\d+) is different from (\d+)", text)
    shapes = re.findall(r"[(][\d, ]*[)]", text)
    axis = re.search(r"axis (-?\d+) is out of bounds for array of dimension (\d+)", text)
    if "matmul" in text and sizes:
        why = (f"행렬 곱(@)의 모양이 맞지 않습니다: 왼쪽의 마지막 축(크기 {sizes[2]})과 오른쪽의 뒤에서 "
               f"두 번째 축(크기 {sizes[1]})이 같아야 합니다")
    elif "could not be broadcast" in text:
        why = f"두 배열의 모양 {', '.join(shapes[:2])}이 맞지 않아 칸마다 계산할 수 없습니다(브로드캐스트)"
    elif "truth value of an array" in text:
        why = ("배열을 참·거짓 하나로 읽으려 했습니다. 파이썬의 max()·min()·if 는 배열을 행마다 견줍니다: "
               "x.max(axis=-1, keepdims=True) 처럼 numpy 의 것을 쓰세요")
    elif axis:
        why = f"축 번호(axis={axis[1]})가 배열의 차원 수({axis[2]}차원)를 넘습니다"
    elif isinstance(err, NameError):
        why = f"정의되지 않은 이름을 썼습니다: {getattr(err, 'name', None) or text}"
    else:
        why = text
    line = where_it_failed(err)
    return f"오류가 났습니다 ({type(err).__name__}): {why}." + (f" 오류가 난 줄: {line}" if line else "")


def describe(got, want, parts=None, tol=0.0):
    """어느 실수와도 같지 않은 답이 정답과 어떻게 다른지. parts: 튜플로 돌려주는 값들의 이름."""
    if isinstance(got, Exception):
        return explain(got)
    if isinstance(want, tuple):
        parts = parts or [f"{i + 1}번째 값" for i in range(len(want))]
        if not isinstance(got, tuple):
            return f"{', '.join(parts)} 을(를) 튜플로 돌려줘야 합니다 (지금은 {type(got).__name__})"
        if len(got) != len(want):
            return f"{', '.join(parts)}, 값 {len(want)}개를 돌려줘야 합니다 (지금은 {len(got)}개)"
        tols = tol if isinstance(tol, tuple) else [tol] * len(want)
        bad = [i for i in range(len(want)) if not same(got[i], want[i], tols[i])]
        said = "; ".join(f"{parts[i]}: " + describe(got[i], want[i], tol=tols[i]) for i in bad)
        fine = [parts[i] for i in range(len(want)) if i not in bad]
        return said + (f" (맞는 값: {', '.join(fine)})" if fine else "")
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"모양이 {got.shape} 입니다 ({want.shape} 이어야 합니다)"
    if got.dtype.kind not in "biuf":
        return f"{got.tolist()} 입니다 ({want.tolist()} 이어야 합니다)"
    if not np.all(np.isfinite(got)):
        return "nan 이나 inf 가 나왔습니다"
    return f"값이 다릅니다 (가장 큰 차이 {np.abs(got - want).max():.3g})"


def diagnose(got_by_case, mistake_outputs, wrong_cases=None):
    """틀린 입력마다 같은 답을 낸 실수의 번호. 한 입력에서 여러 실수가 같은 답(같은 오류)을 내면, 모든 입력에서
    배우는 사람과 같은 답을 낸 횟수가 가장 많은 하나를 고르고(맞힌 입력에서 틀리는 실수는 덜 그럴듯합니다),
    그래도 가려지지 않으면 짐작하지 않습니다 (None).

    got_by_case: {입력: 배우는 사람의 답}, mistake_outputs: 실수마다 {입력: (그 실수의 답, 허용 오차)},
    wrong_cases: 틀린 입력들 (None 이면 모두)."""
    matches = {c: [k for k, outs in enumerate(mistake_outputs) if same(got, outs[c][0], outs[c][1])]
               for c, got in got_by_case.items()}
    score = [sum(k in found for found in matches.values()) for k in range(len(mistake_outputs))]
    picked = {}
    for c in (got_by_case if wrong_cases is None else wrong_cases):
        found = matches[c]
        best = max((score[k] for k in found), default=0)
        top = [k for k in found if score[k] == best]
        picked[c] = top[0] if len(top) == 1 else None
    return picked


def check_with(fn, right, mistakes, cases, name="fn", parts=None, tolerance=None):
    """fn 을 cases 의 입력마다 불러 right 와 견주고, 입력마다 ✓ 나 ✗ 와 까닭을 찍습니다.

    right: 정답 함수. mistakes: [(틀린 함수, 그 실수를 짚는 말)]. cases: [(입력의 이름, 인자 튜플)].
    parts: 함수가 튜플을 돌려줄 때 그 값들의 이름 (예: ("출력", "가중치")).
    tolerance: 값을 비교할 때 봐줄 절대 오차. None 이면 정답 함수를 float32 입력으로 돌려 본 차이(slack)로 정합니다.
    셀의 끝에서 부르므로 아무것도 돌려주지 않습니다 (노트북이 True·False 를 찍지 않게)."""
    if not callable(fn):
        raise TypeError(f"확인할 함수를 넘겨 주세요 (예: check_…(my_function)): {name}={fn!r}")
    runs = []
    for label, args in cases:
        want = call_quietly(right, args)
        tol = slack(want, call_quietly(right, lower(args))) if tolerance is None else tolerance
        got = call_quietly(fn, args)
        if isinstance(got, list) and isinstance(want, tuple):
            got = tuple(got)
        runs.append((label, got, want, tol))
    wrong = [c for c, (_, got, want, tol) in enumerate(runs) if not same(got, want, tol)]
    picked = {}
    if wrong:
        outputs = [{c: (call_quietly(m, args), runs[c][3]) for c, (_, args) in enumerate(cases)} for m, _ in mistakes]
        picked = diagnose({c: run[1] for c, run in enumerate(runs)}, outputs, wrong)
    for c, (label, got, want, tol) in enumerate(runs):
        if c not in picked:
            print("✓", label)
            continue
        why = mistakes[picked[c]][1] if picked[c] is not None else describe(got, want, parts, tol)
        print("✗", label + ":", why)
    print("다시 살펴보세요" if wrong else "모두 통과")
# --8<-- [end:checker]
