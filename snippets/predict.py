"""확인 문제의 "먼저 예상하고 확인하기": 정답, 내다본 오답, 독자에게 돌려줄 말을 브라우저용 데이터로 만듭니다.

장의 스니펫은 `data_quiz_<N>()` 에서 이 모듈의 `number()` 나 `choice()` 를 불러 그 dict 를 돌려줍니다. 빌드가 그것을
`data/<장>-quiz_<N>.json` 으로 내보내고(README "브라우저용 데이터"), 페이지의 `<div class="predict" data-src=…>` 자리에
docs/assets/predict.js 가 입력 칸이나 보기를 그립니다. JavaScript 가 없으면 그 자리는 비고, 문제와 접힌 풀이는 그대로 읽힙니다.

글과 숫자의 약속 (이 모듈이 검사하고, 어기면 빌드가 멈춥니다. tests/test_quizzes.py 도 같은 것을 봅니다):
- 독자에게 보일 글(입력 칸 이름, 단위, 보기, 되돌려 줄 말)에는 숫자(0–9)를 직접 적지 않습니다. 숫자는 모두 `{이름}` 자리로
  적고, 그 값은 `values` 에 스니펫이 계산한 값을 찍을 글자로 넘깁니다. 그 글자는 같은 문제의 quiz_N 출력에도 찍힙니다
  (테스트가 확인합니다). 그래서 손으로 적은 숫자가 코드와 어긋날 수 없습니다.
- 글의 모든 `{이름}` 에는 값이 있고, 쓰지 않는 값은 넘기지 않습니다.
- 정답과 오답의 수(answer, value)는 독자가 적은 수와 견주는 데만 쓰고 화면에 찍지 않습니다. 오답의 수도 그 오해를 코드로
  그대로 계산한 값을 넘깁니다 (예: √d_k 대신 d_k 로 나눈 값).
"""

import math
import numbers
import re

FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
DIGIT = re.compile(r"[0-9０-９]")


def _texts(question):
    """독자에게 보일 글들: (어디, 글)."""
    yield "label", question.get("label", "")
    yield "unit", question.get("unit", "")
    yield "legend", question.get("legend", "")
    for key in ("right", "other"):
        yield key, question.get(key, "")
    for i, wrong in enumerate(question.get("wrong", ())):
        yield f"wrong[{i}]", wrong["feedback"]
    for i, option in enumerate(question.get("options", ())):
        yield f"options[{i}].text", option["text"]
        yield f"options[{i}].feedback", option["feedback"]


def _check(question):
    values = question["values"]
    bad = {k: v for k, v in values.items() if not (isinstance(v, str) and v.strip())}
    if bad:
        raise TypeError(f"values 는 찍을 글자(str)여야 합니다: {bad}")
    used = set()
    for where, text in _texts(question):
        if not isinstance(text, str):
            raise TypeError(f"{where} 는 글(str)이어야 합니다: {text!r}")
        plain = FIELD.sub("", text)
        if DIGIT.search(plain):
            raise ValueError(f"{where} 에 숫자를 직접 적었습니다. {{이름}} 자리와 values 로 넘기세요: {text!r}")
        if "{" in plain or "}" in plain:
            raise ValueError(f"{where} 의 자리 표시가 {{영문_소문자}} 꼴이 아닙니다: {text!r}")
        names = set(FIELD.findall(text))
        missing = names - set(values)
        if missing:
            raise ValueError(f"{where} 의 자리 {sorted(missing)} 에 값이 없습니다")
        used |= names
    unused = set(values) - used
    if unused:
        raise ValueError(f"values 의 {sorted(unused)} 는 어느 글에도 쓰이지 않습니다")
    return question


def _number(x, name):
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
        raise TypeError(f"{name} 는 유한한 수여야 합니다: {name}={x!r}")
    return float(x)


def wrong(value, tolerance, feedback):
    """내다본 오답 하나: 독자가 적은 수가 value ± tolerance 안이면 feedback 을 보여 줍니다."""
    return {"value": _number(value, "value"), "tolerance": _number(tolerance, "tolerance"), "feedback": feedback}


def between(low, high, feedback):
    """오답의 범위: low < 적은 수 < high 이면 (경계는 빼고) feedback. 위의 wrong 들을 먼저 봅니다."""
    return {"low": _number(low, "low"), "high": _number(high, "high"), "feedback": feedback}


def number(*, label, answer, tolerance, right, other, values, wrong=(), unit=""):
    """숫자를 적는 문제.

    label: 입력 칸의 이름, unit: 칸 뒤의 단위 (없으면 ""), answer ± tolerance: 정답으로 보는 범위,
    right: 맞았을 때의 말, wrong: 내다본 오답들 (wrong()·between(), 적힌 차례로 봅니다), other: 그 밖의 답일 때의 말.
    """
    question = {
        "kind": "number",
        "label": label,
        "unit": unit,
        "answer": _number(answer, "answer"),
        "tolerance": _number(tolerance, "tolerance"),
        "right": right,
        "wrong": list(wrong),
        "other": other,
        "values": dict(values),
    }
    for w in question["wrong"]:
        if "value" in w and abs(w["value"] - question["answer"]) <= w["tolerance"] + question["tolerance"]:
            raise ValueError(f"오답 {w['value']} 의 범위가 정답 {question['answer']} 의 범위와 겹칩니다")
    return _check(question)


def option(text, feedback, right=False):
    """보기 하나: 보기의 글, 그것을 골랐을 때의 말, 정답인가."""
    return {"text": text, "feedback": feedback, "right": bool(right)}


def choice(*, legend, options, values):
    """보기에서 고르는 문제. legend: 보기 묶음의 이름, options: option() 들 (정답은 하나)."""
    options = list(options)
    if sum(o["right"] for o in options) != 1 or len(options) < 2:
        raise ValueError(f"보기는 둘 이상이고 정답은 하나여야 합니다: {[o['text'] for o in options]}")
    return _check({"kind": "choice", "legend": legend, "options": options, "values": dict(values)})


def fill(text, values):
    """{이름} 자리를 값으로 채운 글 (predict.js 의 fill 과 같은 규칙; 테스트가 화면의 글과 견줍니다)."""
    return FIELD.sub(lambda m: values[m.group(1)], text)
